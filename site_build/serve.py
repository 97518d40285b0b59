"""`make serve` (`mkdocs serve --dirty`), one feature: exact dirty rebuilds and what is watched.

Under a dirty build MkDocs rebuilds only the pages whose files changed; `DirtyBuilds` tells it
which pages depend on what changed (a lesson's API page on the lesson's code, the home page on
the lesson list, a notebook on the code it imports), so a dirty build is exact and MkDocs'
warning that it may not be is dropped; after it, the search index keeps the pages not rebuilt
(site_build/search.py). `watch` is what the server watches: the content's folders and docs/,
not the figures the build writes there.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from figures_build import FIGURES
from project.model import Project
from project.reading import one_sentence, reading_time_text
from site_build.content import CONTENT_FOLDERS
from site_build.pages import API_DIR
from site_build.search import merge_search_index

log = logging.getLogger("mkdocs.plugins.primer")


class DirtyBuilds:
    """Which pages a dirty build rebuilds: one instance per plugin, kept across serve rebuilds."""

    def __init__(self):
        self.dirty = False
        self.signatures: dict[str, str] = {}  # page -> what it was built from, last build
        self.rebuilt_urls: list[str] = []  # pages a dirty build rebuilt

    def on_startup(self, dirty: bool) -> None:
        """Note whether builds are dirty; if so, drop MkDocs' warning that they may be inexact."""
        self.dirty = dirty
        if dirty:
            logging.getLogger("mkdocs.commands.build").addFilter(_ExactDirtyBuild())

    def on_nav(self, files: Files, config: MkDocsConfig, project: Project, notebook_code: dict[str, str],
               code_files: dict[str, Path]) -> None:
        """For a dirty rebuild: a page is rebuilt only if what it is made from changed since the
        last build: its Markdown, for a lesson's API page the lesson's code, for a code package's
        API page its module (`code_files`: page -> file), for the home page the lesson list, for a
        notebook the code it imports (`notebook_code`); a changed nav (a title, the order) or
        mkdocs.yml rebuilds them all."""
        if not self.dirty:
            return
        nav = hashlib.sha256(repr([(lesson.slug, lesson.title) for lesson in project.lessons]
                                  + [os.path.getmtime(config.config_file_path)]).encode()).hexdigest()
        # the home page lists each lesson with its sentence and reading times (plugin.py, on_page_markdown)
        listing = "\n".join(f"{lesson.slug} {lesson.title} {one_sentence(lesson)} {reading_time_text(lesson.docstring)}"
                            for lesson in project.lessons)
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
                if uri in code_files:  # a code package's API page: its module's code
                    made_from += code_files[uri].read_text(encoding="utf-8")
            else:
                made_from = f"{os.path.getmtime(file.abs_src_path)}"
                if uri == "index.md":
                    made_from += listing
                made_from += notebook_code.get(uri, "")
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

    def on_post_build(self, config: MkDocsConfig) -> None:
        """After a dirty rebuild, the search index keeps the entries of the pages not rebuilt."""
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if self.dirty and search is not None:
            merge_search_index(search, self.rebuilt_urls)


def watch(server, config: MkDocsConfig, root: Path):
    """Watch the content's code (figures, snapshot and pages follow it) and docs/ minus the
    generated figures: docs/figures is this build's output, and watching it would make every
    figure-changing save rebuild twice."""
    for folder in CONTENT_FOLDERS:
        if (root / folder).is_dir():
            server.watch(str(root / folder))
    docs = Path(config.docs_dir)
    server.unwatch(str(docs))
    for child in sorted(docs.iterdir()):
        if child != root / FIGURES:
            server.watch(str(child))
    return server


class _ExactDirtyBuild(logging.Filter):
    """Drops MkDocs' warning that a dirty build may be inaccurate: DirtyBuilds.on_nav
    marks every page that depends on a change."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("A 'dirty' build is being performed")
