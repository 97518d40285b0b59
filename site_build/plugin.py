"""The site plugin (`primer` in mkdocs.yml): the MkDocs hooks, each handing its work to one stage
or feature.

One `PrimerPlugin` instance holds a build's state: the `Project` (every lesson
read once), the content snapshot, the KaTeX process and the diagram cache, and
one object per feature that keeps its own (content-visibility: visibility/;
notebook pages: notebooks/; the offline copy: publish.py; `make serve`'s dirty
rebuilds: serve.py). MkDocs keeps the instance across `mkdocs serve` rebuilds
(it has `on_startup`), so typeset formulas and drawn diagrams are reused, while
the project is read anew at the start of each build. Its options are
site_build/config.py.

on_config   reads the project (a broken lesson stops the build naming its
            file), runs the figure build (figures_build), takes the content
            snapshot (what the content's code computes, in a fresh process),
            sets the features up, puts the kinds of content in the nav
            (content.py), draws new diagrams, and installs the Markdown stage
            (markdown/: KaTeX, the mermaid fence, links; visibility/: section boxes).
on_files    adds the generated pages (pages.py), the lessons' assets, the
            vendored files (vendor.py), the labs' downloads, the challenges'
            starter files and, when it has one, the offline zip (publish.py).
on_page_markdown  notes the page being rendered (the page context the
            Markdown extensions ask for) and fills the home page's lesson list
            and offline-copy link.
on_page_content / on_post_page / on_post_build  the features' work on built pages:
            notebook CSS, section heights, the search index.
on_serve    watches the content's folders and docs/ minus the generated figures.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from figures_build import BuildError, build
from project.model import LessonError, Project, vocabulary
from project.reading import fences
from site_build.config import PrimerConfig
from site_build.content import KINDS, challenges, labs
from site_build.layout import files as layout_files
from site_build.markdown.context import PageContext
from site_build.markdown.diagrams import CLIENT_SCRIPT, Diagrams
from site_build.markdown.evidence import EvidenceExtension
from site_build.markdown.levels import LevelsExtension
from site_build.markdown.figures import FigureExtension
from site_build.markdown.links import LinkExtension, check_lesson_links
from site_build.markdown.math import Katex, KatexExtension
from site_build.markdown.reports import ReportExtension
from site_build.markdown.tables import StackExtension
from site_build.notebooks import Notebooks
from site_build.pages import (API_DIR, KEYS_PAGE, TRACK_PAGE, api_page, api_page_modules, keys_page, lesson_list,
                              lesson_page, tool_api_pages, track_page)
from site_build.publish import OfflineCopy
from site_build.published import page_title
from site_build.search import KeyRows, boost_by_kind, name_search_dialog
from site_build.serve import DirtyBuilds, watch
from site_build.snapshot import Snapshot, snapshot_key
from site_build.snapshot import take as take_snapshot
from site_build.vendor import add_vendor_files
from site_build.visibility import SectionsExtension, Visibility

log = logging.getLogger("mkdocs.plugins.primer")

LESSON_LIST_MARKER = "<!-- lesson-list -->"


class PrimerPlugin(BasePlugin[PrimerConfig]):
    def __init__(self):
        super().__init__()
        self.project: Project | None = None
        self.snapshot: Snapshot | None = None  # what the content's code computed (site_build/snapshot.py)
        self.snapshot_key = ""  # ... for the content with this key
        self.katex: Katex | None = None
        self.diagrams: Diagrams | None = None
        self.page: Page | None = None  # the page being rendered
        self.tool_pages: dict[str, str] = {}  # the API pages of lessons/tools/ and modelcard/: path -> Markdown
        self.tool_modules: dict[str, tuple[str, Path]] = {}  # the same paths -> (dotted module, its file)
        # the features, each holding its own state
        self.visibility = Visibility()  # content-visibility: section boxes and their measured heights
        self.notebooks = Notebooks()  # notebook pages: their runs and shared CSS
        self.offline = OfflineCopy()  # the offline copy, or the zip of it this site serves
        self.builds = DirtyBuilds()  # `mkdocs serve --dirty`: which pages a rebuild rebuilds
        self.key_rows = KeyRows()  # the config-keys page's rows as search entries of their own

    # -- lifetime -------------------------------------------------------------

    def on_startup(self, *, command, dirty):
        """Having this hook makes MkDocs keep one instance across serve rebuilds.

        Under `mkdocs serve --dirty` (what `make serve` runs) MkDocs rebuilds
        only the pages whose files changed; this plugin tells it which pages
        depend on what changed (site_build/serve.py), so a dirty build is
        exact and MkDocs' warning that it may not be is dropped."""
        self.builds.on_startup(dirty)

    def on_shutdown(self):
        if self.katex:
            self.katex.close()

    # -- the build -------------------------------------------------------------

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        root = Path(config.config_file_path).resolve().parent
        # Importing a lesson must not write into lessons/__pycache__: under
        # `mkdocs serve` that write would look like an edit and rebuild twice.
        os.environ["PYTHONPYCACHEPREFIX"] = str(root / ".cache" / "pycache")
        sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
        timeout = self.config.timeout_seconds()
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        try:
            self.project = Project.read(root)
            check_lesson_links(self.project)
            build(self.project, log=log.info)
            key = snapshot_key(self.project)  # the content's code runs in a fresh process, once per change
            if self.snapshot is None or self.snapshot_key != key:
                self.snapshot, self.snapshot_key = take_snapshot(self.project), key
            self.tool_pages = tool_api_pages(self.project.root)  # once per build: the nav and on_files use them
            self.tool_modules = api_page_modules(self.project.root)
        except (LessonError, BuildError) as exc:
            raise PluginError(str(exc)) from None
        if self.katex is None or self.katex.root != root:
            self.katex = Katex(root, node=self.config.node, timeout=timeout)
        if self.diagrams is None or self.diagrams.root != root:
            self.diagrams = Diagrams(root, self.config.diagrams, timeout=timeout, context=self._page_context)
        self.visibility.on_config(self.config.visibility(), root, timeout)
        self._theme(config)
        self.offline.on_config(config, self.config.offline_zip, self.diagrams.mode)
        self.notebooks.on_config(config, self.project, timeout)
        self._nav(config)
        self._markdown(config)
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        lessons = self.project.lessons
        docs_dir = Path(config.docs_dir)
        lab_imports = labs(self.project, docs_dir)
        for lesson in lessons:
            exercised = [(title, uri) for uri, (title, imports) in lab_imports.items()
                         if lesson.slug in imports]
            files.append(File.generated(config, lesson.page, content=lesson_page(lesson, exercised)))
            files.append(File.generated(config, f"{API_DIR}/{lesson.slug}.md", content=api_page(lesson)))
        for uri, content in self.tool_pages.items():  # lessons/tools/: API pages only
            files.append(File.generated(config, uri, content=content))
        for paper in self.project.papers:
            files.append(File.generated(config, paper.page, content=paper.docstring))
        for uri, content in self.snapshot.pages.items():  # pages code modules generate (the gallery)
            files.append(File.generated(config, uri, content=content))
        if lessons:
            files.append(File.generated(config, KEYS_PAGE, content=keys_page(lessons, vocabulary(self.project.root))))
            files.append(File.generated(config, TRACK_PAGE, content=track_page(lessons)))
        add_vendor_files(files, config, self.project.root, offline=self.offline.enabled, mermaid=not self.offline.enabled)
        for site_path, data in layout_files(self.snapshot.css_variables).items():  # the palette and the layout bands, for the CSS and JS
            files.append(File.generated(config, site_path, content=data))
        for site_path, data in self.snapshot.assets.items():  # what lessons publish (their assets())
            files.append(File.generated(config, site_path, content=data))
        self.offline.on_files(files, config)
        self.notebooks.on_files(files, config, self.project)
        for challenge, starter in challenges(self.project, docs_dir):  # the starter file, next to its page
            files.append(File.generated(config, f"{challenge.page[:-3]}/{challenge.starter_name}",
                                        abs_src_path=str(starter)))
        return files

    @event_priority(-100)  # after mkdocs-jupyter has wrapped the notebook files
    def on_nav(self, nav, *, config: MkDocsConfig, files: Files):
        code_files = {uri: path for uri, (_, path) in self.tool_modules.items()}
        self.builds.on_nav(files, config, self.project, self.notebooks.code, code_files)
        return nav

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        self.page = page
        markdown = self.offline.on_page_markdown(markdown, page)
        if LESSON_LIST_MARKER not in markdown:
            return markdown
        return markdown.replace(LESSON_LIST_MARKER, lesson_list(self.project.lessons))

    def on_page_content(self, html_: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        boost_by_kind(page)  # read by the search plugin after this hook
        html_ = self.key_rows.on_page_content(html_, page)
        return self.notebooks.on_page_content(html_, page, config, files, self.snapshot)

    @event_priority(100)  # before the search plugin writes its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self.notebooks.on_post_build(config, self.project.root, dirty=self.builds.dirty)
        self.visibility.on_post_build(Path(config.site_dir), reuse_last=self.builds.dirty)
        self.key_rows.on_post_build(config.plugins.get("material/search") or config.plugins.get("search"))
        self.builds.on_post_build(config)  # after the rows: a dirty rebuild's index merges them

    @event_priority(-100)  # after mkdocs-jupyter has replaced the notebook page's render()
    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page:
        """A notebook that fails or stalls (the kernel has a time-out per cell, set in
        PRIMER_TIMEOUT, notebooks/runs.py) stops the build with one line naming the notebook
        (a lab: its file under labs/)."""
        return self.notebooks.on_pre_page(page, self.source_of)

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        self.visibility.on_post_page(page)
        return name_search_dialog(output)

    def on_serve(self, server, *, config: MkDocsConfig, builder):
        return watch(server, config, self.project.root)

    # -- what the hooks share ------------------------------------------------------

    def _page_context(self) -> PageContext | None:
        """The page being rendered, as the link processor sees it (None outside a page)."""
        if self.page is None or self.project is None:
            return None
        src_uri = self.page.file.src_uri
        return PageContext(src_uri, self.project, self.source_of(self.page),
                           sections=self.visibility.wanted(src_uri), snapshot=self.snapshot)

    def source_of(self, page: Page | None) -> str:
        """The file an author edits for `page` (a lesson page's source is its module)."""
        if page is None:
            return "the site"
        generated = {p.page: p for p in self.project.lessons + self.project.papers}
        if page.file.src_uri in generated:
            return self.project.rel(generated[page.file.src_uri].path)
        return self.project.rel(Path(page.file.abs_src_path)) if page.file.abs_src_path else page.file.src_uri

    def _theme(self, config: MkDocsConfig) -> None:
        """The build's own theme override (theme/main.html: the search index loads when the
        reader reaches for search) and mkdocstrings templates (templates/: an API entry's
        source stays out of the search index). Set here rather than in mkdocs.yml, so
        they follow the build wherever a project's mkdocs.yml is."""
        here = Path(__file__).parent
        if str(here / "theme") not in config.theme.dirs:
            config.theme.dirs.insert(0, str(here / "theme"))
        docstrings = config.plugins.get("mkdocstrings")
        if docstrings is not None and not docstrings.config.custom_templates:
            docstrings.config.custom_templates = str(here / "templates")

    def _nav(self, config: MkDocsConfig) -> None:
        """After Home, the kinds of content that have pages, each at its place (site_build/content.py:
        a top-level section is one of the theme's tabs), then Reference. A section mkdocs.yml's nav
        also names (its hand-written pages: Reference's Contributing) gets those entries after the
        generated ones; every other entry of mkdocs.yml keeps its place."""
        lessons = self.project.lessons
        if not lessons:
            return
        sections: dict[str, list] = {}
        for kind in KINDS:
            pages = kind.pages(self.project, Path(config.docs_dir)) if kind.nav else []
            if pages:
                _nav_section(sections, kind.nav).extend({title: uri} for title, uri in pages)
        sections.setdefault("Reference", []).extend([
            {"Config keys and flags": KEYS_PAGE},
            *({page_title(content): uri} for uri, content in (self.snapshot.pages if self.snapshot else {}).items()),
            {"API": [{f"lessons.{lesson.slug}": f"{API_DIR}/{lesson.slug}.md"} for lesson in lessons]
             + [{self.tool_modules[uri][0]: uri} for uri in self.tool_pages]},
        ])
        nav = list(config.nav or [{"Home": "index.md"}])
        rest = []
        for entry in nav[1:]:
            title, children = next(iter(entry.items())) if isinstance(entry, dict) and len(entry) == 1 else (None, None)
            if title in sections and isinstance(children, list):
                sections[title].extend(children)
            else:
                rest.append(entry)
        config.nav = nav[:1] + [{title: children} for title, children in sections.items()] + rest

    def _markdown(self, config: MkDocsConfig) -> None:
        """Install this build's Markdown extensions: KaTeX, the mermaid fence, links."""
        fence_config = config.mdx_configs.setdefault("pymdownx.superfences", {})
        fences_ = [f for f in fence_config.get("custom_fences", []) if f.get("name") != "mermaid"]
        fence_config["custom_fences"] = fences_ + [{"name": "mermaid", "class": "mermaid", "format": self.diagrams.fence}]
        if self.diagrams.mode == "build":
            config.extra_javascript = [s for s in config.extra_javascript if str(getattr(s, "path", s)) != CLIENT_SCRIPT]
            sources = {}
            for lesson in self.project.lessons:
                for _, text in fences(lesson.docstring, "mermaid"):
                    sources.setdefault(text, self.project.rel(lesson.path))
            for path in sorted(Path(config.docs_dir).rglob("*.md")):
                for _, text in fences(path.read_text(encoding="utf-8"), "mermaid"):
                    sources.setdefault(text, self.project.rel(path))
            self.diagrams.prepare(sources)
        config.markdown_extensions = [e for e in config.markdown_extensions
                                      if not isinstance(e, (KatexExtension, LinkExtension, LevelsExtension, SectionsExtension,
                                                            ReportExtension, EvidenceExtension, StackExtension,
                                                            FigureExtension))]
        config.markdown_extensions += [KatexExtension(self.katex, self._page_context), LinkExtension(self._page_context),
                                       LevelsExtension(self._page_context), self.visibility.extension(self._page_context),
                                       ReportExtension(self._page_context), EvidenceExtension(self._page_context),
                                       StackExtension(self._page_context), FigureExtension(self._page_context)]


def _nav_section(sections: dict[str, list], path: tuple[str, ...]) -> list:
    """The entries of the nav section at `path` (("Labs", "Challenges"): the section Challenges
    inside the top-level section Labs), made empty where it does not exist yet."""
    entries = sections.setdefault(path[0], [])
    for title in path[1:]:
        found = next((e[title] for e in entries if isinstance(e, dict) and isinstance(e.get(title), list)), None)
        if found is None:
            found = []
            entries.append({title: found})
        entries = found
    return entries
