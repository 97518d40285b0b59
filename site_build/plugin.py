"""The site plugin (`primer` in mkdocs.yml): the MkDocs hooks, each handing its work to one stage.

One `PrimerPlugin` instance holds a build's state: the `Project` (every lesson
read once), the KaTeX process, the diagram cache and the section heights.
MkDocs keeps the instance across `mkdocs serve` rebuilds (it has
`on_startup`), so typeset formulas and drawn diagrams are reused, while the
project is read anew at the start of each build. Its options are
site_build/config.py.

on_config   reads the project (a broken lesson stops the build naming its
            file), runs the figure build (figures_build), collects what the
            lessons publish (`assets()`), clears the notebook cache only when
            code a notebook imports changed, puts the kinds of content in the
            nav (content.py), draws new diagrams, and installs the Markdown
            stage (markdown/: KaTeX, the mermaid fence, links, section boxes).
on_files    adds the generated pages (pages.py), the lessons' assets, the
            vendored files (vendor.py), the labs' downloads, the challenges'
            starter files and, when it has one, the offline zip (publish.py).
on_page_markdown  notes the page being rendered (the page context the
            Markdown extensions ask for) and fills the home page's lesson list
            and offline-copy link.
on_page_content / on_post_page / on_post_build  the post-build stage
            (postbuild/): notebook CSS, section heights, the search index.
on_serve    watches lessons/ (and docs/ minus the generated figures).
"""

from __future__ import annotations

import ast
import hashlib
import logging
import os
import posixpath
import sys
from pathlib import Path


from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from figures_build import BuildError, FIGURES, build
from project.model import LessonError, Project, imported_lessons, vocabulary
from project.reading import fences, one_sentence
from site_build.config import PrimerConfig
from site_build.content import CONTENT_FOLDERS, KINDS, challenges, gets_content_visibility, kind_of, labs
from site_build.markdown.context import PageContext
from site_build.markdown.diagrams import CLIENT_SCRIPT, Diagrams
from site_build.markdown.evidence import EvidenceExtension
from site_build.markdown.levels import LevelsExtension
from site_build.markdown.links import LinkExtension, check_lesson_links
from site_build.markdown.math import Katex, KatexExtension
from site_build.markdown.reports import ReportExtension
from site_build.published import page_title
from site_build.snapshot import Snapshot, snapshot_key
from site_build.snapshot import take as take_snapshot
from site_build.markdown.sections import CLASS as SECTION_CLASS, SectionsExtension, enabled as sections_enabled
from site_build.layout import files as layout_files
from site_build.pages import API_DIR, KEYS_PAGE, api_page, api_page_modules, keys_page, lesson_page, tool_api_pages
from site_build.postbuild.heights import Heights
from site_build.postbuild.notebooks import (IPYTHON_CONFIG, NOTEBOOK_CSS, NOTEBOOK_FOLDERS, as_ipynb, cached_run, jupyter_config,
                                            directory_url, drop_cached_run, figure_alt_text, figure_dark_twins,
                                            file_layout_links, notebook_sources, split_styles)
from site_build.postbuild.search import merge_search_index, name_search_dialog
from site_build.publish import OFFLINE_ZIP, ZIP_FOLDER, configure_offline, is_offline
from site_build.tools import read_json_cache, write_if_changed, write_json_cache
from site_build.vendor import add_vendor_files

log = logging.getLogger("mkdocs.plugins.primer")

LESSON_LIST_MARKER = "<!-- lesson-list -->"
OFFLINE_MARKER = "<!-- offline-copy -->"  # the home page's link to the zip, when the build has one


class PrimerPlugin(BasePlugin[PrimerConfig]):
    def __init__(self):
        super().__init__()
        self.project: Project | None = None
        self.katex: Katex | None = None
        self.diagrams: Diagrams | None = None
        self.page: Page | None = None
        self.dirty = False
        self.signatures: dict[str, str] = {}  # page -> what it was built from, last build
        self.notebook_code: dict[str, str] = {}  # notebook page -> hash of the code it imports
        self.rebuilt_urls: list[str] = []  # pages a dirty build rebuilt
        self.notebook_css: dict[str, str] = {}  # shared stylesheet name -> CSS
        self.offline = False  # this build is the offline copy (Material's offline plugin is on)
        self.offline_zip: Path | None = None  # the zip of the offline copy this site serves, if any
        self.heights: Heights | None = None  # content-visibility: measured section heights
        self.long_pages: dict[str, str] = {}  # this build's pages with section bodies: file -> content
        self.published_pages: dict[str, str] = {}  # pages code modules generate: page path -> Markdown
        self.snapshot: Snapshot | None = None  # what the content's code computed (site_build/snapshot.py)
        self.snapshot_key = ""  # ... for the content with this key
        self.assets: dict[str, bytes] = {}  # files the lessons publish (their assets()): site path -> bytes
        self.tool_pages: dict[str, str] = {}  # the API pages of lessons/tools/ and modelcard/: path -> Markdown
        self.tool_modules: dict[str, tuple[str, Path]] = {}  # the same paths -> (dotted module, its file)

    # -- lifetime -------------------------------------------------------------

    def on_startup(self, *, command, dirty):
        """Having this hook makes MkDocs keep one instance across serve rebuilds.

        Under `mkdocs serve --dirty` (what `make serve` runs) MkDocs rebuilds
        only the pages whose files changed; this plugin tells it which pages
        depend on what changed (see `_mark_modified`), so a dirty build is
        exact and MkDocs' warning that it may not be is dropped."""
        self.dirty = dirty
        if dirty:
            logging.getLogger("mkdocs.commands.build").addFilter(_ExactDirtyBuild())

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
        # nbconvert reads its settings (the kernel's time-out per cell) from here,
        # and the kernel its own (figures as SVG) from the IPython profile
        timeout = self.config.timeout_seconds()
        os.environ["JUPYTER_CONFIG_PATH"] = str(jupyter_config(root / ".cache" / "jupyter", timeout))
        ipython = root / ".cache" / "ipython"
        write_if_changed(ipython / "profile_default" / "ipython_kernel_config.py", IPYTHON_CONFIG.read_bytes())
        os.environ["IPYTHONDIR"] = str(ipython)
        self.notebook_css: dict[str, str] = {}
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        try:
            self.project = Project.read(root)
            check_lesson_links(self.project)
            build(self.project, log=log.info)
            key = snapshot_key(self.project)  # the content's code runs in a fresh process, once per change
            if self.snapshot is None or self.snapshot_key != key:
                self.snapshot, self.snapshot_key = take_snapshot(self.project), key
            self.assets, self.published_pages = self.snapshot.assets, self.snapshot.pages
            self.tool_pages = tool_api_pages(self.project.root)  # once per build: the nav and on_files use them
            self.tool_modules = api_page_modules(self.project.root)
        except (LessonError, BuildError) as exc:
            raise PluginError(str(exc)) from None
        if self.katex is None or self.katex.root != root:
            self.katex = Katex(root, node=self.config.node, timeout=timeout)
        if self.diagrams is None or self.diagrams.root != root:
            self.diagrams = Diagrams(root, self.config.diagrams, timeout=timeout, context=self._page_context)
        if not sections_enabled(self.config.visibility()):
            self.heights = None
        elif self.heights is None or self.heights.root != root:  # one per session: serve reuses its last heights
            self.heights = Heights(root, timeout=timeout)
        self.long_pages = {}
        self._theme(config)
        self._offline(config)
        self._notebooks(config, root)
        self._nav(config)
        self._markdown(config, root)
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        lessons = self.project.lessons
        docs_dir = Path(config.docs_dir)
        lab_imports = labs(self.project, docs_dir)
        for lesson in lessons:
            exercised = [(title, uri) for uri, (title, imports) in lab_imports.items()
                         if lesson.slug in imports]
            files.append(File.generated(config, f"lessons/{lesson.slug}.md", content=lesson_page(lesson, exercised)))
            files.append(File.generated(config, f"{API_DIR}/{lesson.slug}.md", content=api_page(lesson)))
        for uri, content in self.tool_pages.items():  # lessons/tools/: API pages only
            files.append(File.generated(config, uri, content=content))
        for paper in self.project.papers:
            files.append(File.generated(config, paper.page, content=paper.docstring))
        for uri, content in self.published_pages.items():  # pages code modules generate (the gallery)
            files.append(File.generated(config, uri, content=content))
        if lessons:
            files.append(File.generated(config, KEYS_PAGE, content=keys_page(lessons, vocabulary(self.project.root))))
        add_vendor_files(files, config, self.project.root, offline=self.offline, mermaid=not self.offline)
        for site_path, data in layout_files(self.snapshot.css_variables).items():  # the palette and the layout bands, for the CSS and JS
            files.append(File.generated(config, site_path, content=data))
        for site_path, data in self.assets.items():  # what lessons publish (their assets())
            files.append(File.generated(config, site_path, content=data))
        if self.offline_zip is not None:
            files.append(File.generated(config, OFFLINE_ZIP, abs_src_path=str(self.offline_zip)))
        for uri, path in notebook_sources(self.project.root, Path(config.docs_dir)).items():
            if uri.startswith("labs/"):  # a lab is a notebook page and a download (.py, .ipynb)
                files.append(File(uri, src_dir=str(self.project.root), dest_dir=config.site_dir,
                                  use_directory_urls=config.use_directory_urls))
                stem = Path(uri).stem  # the .ipynb goes where mkdocs-jupyter puts the .py: beside the page's file
                folder = f"labs/{stem}" if config.use_directory_urls else "labs"
                files.append(File.generated(config, f"{folder}/{stem}.ipynb", content=as_ipynb(path)))
        for challenge, starter in challenges(self.project, docs_dir):  # the starter file, next to its page
            files.append(File.generated(config, f"{challenge.page[:-3]}/{challenge.starter_name}",
                                        abs_src_path=str(starter)))
        return files

    @event_priority(-100)  # after mkdocs-jupyter has wrapped the notebook files
    def on_nav(self, nav, *, config: MkDocsConfig, files: Files):
        if self.dirty:
            self._mark_modified(files, config)
        return nav

    def _mark_modified(self, files: Files, config: MkDocsConfig) -> None:
        """For a dirty rebuild: a page is rebuilt only if what it is made from
        changed since the last build: its Markdown, for a lesson's API page the
        lesson's code, for the home page the lesson list, for a notebook the
        code it imports; a changed nav (a title, the order) or mkdocs.yml rebuilds them all."""
        project = self.project
        nav = hashlib.sha256(repr([(lesson.slug, lesson.title) for lesson in project.lessons]
                                  + [os.path.getmtime(config.config_file_path)]).encode()).hexdigest()
        listing = "\n".join(f"{lesson.slug} {lesson.title} {one_sentence(lesson)}" for lesson in project.lessons)
        everything = self.signatures.get("<nav>") != nav
        signatures, changed = {"<nav>": nav}, []
        self.rebuilt_urls = []
        for file in files.documentation_pages():
            uri = file.src_uri
            if file.generated_by is not None:
                made_from = file.content_string
                slug = uri[len(API_DIR) + 1:-3] if uri.startswith(API_DIR + "/") else None
                if slug in project.by_slug:
                    made_from += project.by_slug[slug].code
                if uri in self.tool_modules:  # a code package's API page: its module's code
                    made_from += self.tool_modules[uri][1].read_text(encoding="utf-8")
            else:
                made_from = f"{os.path.getmtime(file.abs_src_path)}"
                if uri == "index.md":
                    made_from += listing
                made_from += self.notebook_code.get(uri, "")
            signatures[uri] = hashlib.sha256(made_from.encode()).hexdigest()
            if not everything and self.signatures.get(uri) == signatures[uri]:
                file.is_modified = lambda: False  # MkDocs skips reading and writing this page
            else:
                file.is_modified = lambda: True
                changed.append(uri)
                self.rebuilt_urls.append("" if file.url in (".", "./") else file.url)  # as Page.url
        self.signatures = signatures
        total = len(signatures) - 1
        log.info(f"pages: rebuilding {'all ' + str(total) if len(changed) == total else f'{len(changed)} of {total}'}"
                 + ("" if len(changed) == total else f" ({', '.join(changed)})"))

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        self.page = page
        if OFFLINE_MARKER in markdown:
            markdown = markdown.replace(OFFLINE_MARKER, self._offline_link(page))
        if LESSON_LIST_MARKER not in markdown:
            return markdown
        rows = []
        for number, lesson in enumerate(self.project.lessons, 1):
            sentence = one_sentence(lesson)
            rows.append(f"{number}. **[{lesson.title}](lessons/{lesson.slug}.md)**" + (f"<br>{sentence}" if sentence else ""))
        return markdown.replace(LESSON_LIST_MARKER, "\n".join(rows))

    def on_page_content(self, html_: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A notebook page carries nbconvert's ~600 KB of inline CSS; move it into one
        stylesheet that every notebook page shares (and the browser caches). Its figures
        are described by their titles, each with its twin for the dark palette. Without directory URLs (the offline copy), its
        links to pages point at their files."""
        kind = kind_of(page.file.src_uri)
        if kind is None or not kind.notebook:
            return html_
        html_ = figure_dark_twins(figure_alt_text(html_), self.snapshot.dark, self.snapshot.dark_background)
        if not config.use_directory_urls:
            pages = {directory_url(f.src_uri): f.dest_uri for f in files.documentation_pages()}
            html_ = file_layout_links(html_, page.file.src_uri, page.file.dest_uri, pages)
        rest, css = split_styles(html_)
        if not css:
            return html_
        name = NOTEBOOK_CSS.format(hashlib.sha256(css.encode()).hexdigest()[:12])
        self.notebook_css[name] = css
        href = posixpath.relpath(name, posixpath.dirname(page.file.dest_uri))
        return f'<link rel="stylesheet" href="{href}">\n{rest}'

    @event_priority(100)  # before the search plugin writes its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        for name, css in self.notebook_css.items():
            write_if_changed(Path(config.site_dir) / name, css.encode())
        if self.heights and self.long_pages:
            site = Path(config.site_dir)
            sheets = [*site.glob("assets/stylesheets/*.css"), *site.glob("stylesheets/*.css"), *site.glob("assets/vendor/katex/*.css")]
            styles = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(sheets))).hexdigest()
            measured = self.heights.apply(self.long_pages, site, styles, reuse_last=self.dirty)
            reused = f", {self.heights.reused} kept from the last build (serve)" if self.heights.reused else ""
            log.info(f"section heights: {len(self.long_pages)} long pages, {measured} measured in Chromium{reused}")
        jupyter = config.plugins.get("mkdocs-jupyter")
        if self.dirty and jupyter is not None:  # a skipped notebook's cached run is still in use
            for path in notebook_sources(self.project.root, Path(config.docs_dir)).values():
                cached = cached_run(jupyter, path)
                if cached is not None and hasattr(jupyter, "_used_cache_paths"):
                    jupyter._used_cache_paths.add(cached)
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if self.dirty and search is not None:
            merge_search_index(search, self.rebuilt_urls)

    @event_priority(-100)  # after mkdocs-jupyter has replaced the notebook page's render()
    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page:
        """A notebook that fails or stalls (the kernel has a time-out per cell, set in
        PRIMER_TIMEOUT, postbuild/notebooks.py) stops the build with one line naming the notebook
        (a lab: its file under labs/)."""
        if not page.file.src_uri.startswith(NOTEBOOK_FOLDERS):
            return page
        render = page.render

        def checked_render(*args, **kwargs):
            try:
                return render(*args, **kwargs)
            except Exception as exc:  # nbclient's CellTimeoutError, DeadKernelError, CellExecutionError
                first = (str(exc).strip().splitlines() or [""])[0]
                raise PluginError(f"{self.source_of(page)}: the notebook did not run: {type(exc).__name__}: {first}") from None

        page.render = checked_render
        return page

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if self.heights and f'class="{SECTION_CLASS}"' in (page.content or ""):
            self.long_pages[page.file.dest_uri] = page.content
        return name_search_dialog(output)

    def on_serve(self, server, *, config: MkDocsConfig, builder):
        root = self.project.root
        for folder in CONTENT_FOLDERS:  # the content's code (figures, snapshot and pages follow it)
            if (root / folder).is_dir():
                server.watch(str(root / folder))
        # docs/figures is this build's output: watching it would make every
        # figure-changing save rebuild twice. Watch the rest of docs/ instead.
        docs = Path(config.docs_dir)
        server.unwatch(str(docs))
        for child in sorted(docs.iterdir()):
            if child != root / FIGURES:
                server.watch(str(child))
        return server

    def _offline_link(self, page: Page) -> str:
        """The home page's paragraph on the offline copy: only a site that serves the zip has it."""
        if self.offline_zip is None:
            return ""
        size = self.offline_zip.stat().st_size / 1e6
        href = posixpath.relpath(OFFLINE_ZIP, posixpath.dirname(page.file.src_uri) or ".")
        return (f"**Reading offline?** [Download the whole site]({href}) (a {size:.1f} MB zip), unzip it and "
                f"open `{ZIP_FOLDER}/index.html` in a browser: the math, diagrams, figures and search all "
                "work with no network and no server.")

    # -- parts of on_config ------------------------------------------------------

    def _offline(self, config: MkDocsConfig) -> None:
        """The offline copy (Material's offline plugin enabled), or the zip of one that
        this site serves (the `offline_zip` option, set by `make site`: site_build/build.py)."""
        self.offline = is_offline(config)
        self.offline_zip = None
        if self.offline:
            if self.diagrams.mode != "build":
                raise PluginError("the offline copy draws its diagrams at build time, which needs Chromium "
                                  "(apt-get install -y chromium): a browser cannot load mermaid's modules from file://")
            configure_offline(config)
            return
        zip_path = self.config.offline_zip
        if zip_path:
            if not Path(zip_path).is_file():
                raise PluginError(f"offline_zip: {zip_path}: no such file (`make site` builds it)")
            self.offline_zip = Path(zip_path).resolve()

    def _page_context(self) -> PageContext | None:
        """The page being rendered, as the link processor sees it (None outside a page)."""
        if self.page is None or self.project is None:
            return None
        src_uri = self.page.file.src_uri
        return PageContext(src_uri, self.project, self.source_of(self.page),
                           sections=self.heights is not None and gets_content_visibility(src_uri), snapshot=self.snapshot)

    def source_of(self, page: Page | None) -> str:
        """The file an author edits for `page` (a lesson page's source is its module)."""
        if page is None:
            return "the site"
        generated = {p.page: p for p in self.project.lessons + self.project.papers}
        if page.file.src_uri in generated:
            return self.project.rel(generated[page.file.src_uri].path)
        return self.project.rel(Path(page.file.abs_src_path)) if page.file.abs_src_path else page.file.src_uri

    def _notebooks(self, config: MkDocsConfig, root: Path) -> None:
        """mkdocs-jupyter caches an executed notebook by the notebook's own text. For each
        notebook (the Playground, every lab), hash the code it imports (lessons and the
        labs' helpers, labs/_*.py; prose edits don't count) and the kernel's settings (the
        IPython profile: how figures are saved), and drop that notebook's cached run when the
        hash changed, so only notebooks that import changed code re-execute."""
        jupyter = config.plugins.get("mkdocs-jupyter")
        self.notebook_code = {}
        if jupyter is None:
            return
        stamps_file = root / ".cache" / "notebook-code.json"
        stamps = read_json_cache(stamps_file)
        helpers = b"".join(p.read_bytes() for p in sorted((root / "labs").glob("_*.py")))  # labs/_lab.py, if any
        for uri, path in notebook_sources(root, Path(config.docs_dir)).items():
            text = path.read_text(encoding="utf-8")
            extra = IPYTHON_CONFIG.read_bytes() + (helpers if uri.startswith("labs/") else b"")
            digest = self.project.code_hash(imported_lessons(ast.parse(text)), extra=extra)
            self.notebook_code[uri] = digest
            if stamps.get(uri) != digest and jupyter.config.get("cache", True):
                drop_cached_run(jupyter, path)
            stamps[uri] = digest
        write_json_cache(stamps_file, stamps, indent=1)

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
            *({page_title(content): uri} for uri, content in self.published_pages.items()),
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

    def _markdown(self, config: MkDocsConfig, root: Path) -> None:
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
                                                            ReportExtension, EvidenceExtension))]
        config.markdown_extensions += [KatexExtension(self.katex, self._page_context), LinkExtension(self._page_context),
                                       LevelsExtension(self._page_context), SectionsExtension(self._page_context),
                                       ReportExtension(self._page_context), EvidenceExtension(self._page_context)]


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


class _ExactDirtyBuild(logging.Filter):
    """Drops MkDocs' warning that a dirty build may be inaccurate: this plugin
    marks every page that depends on a change (PrimerPlugin._mark_modified)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("A 'dirty' build is being performed")


