"""Everything the site build asks of the content's code, computed in a fresh process.

The MkDocs server lives for a whole `mkdocs serve` session; a module it imported once it
keeps, so a lesson or decoder edit would reach the figures (rendered in spawned workers)
but not what the server computed itself. Here every content import happens in a spawned
worker, once per build, and comes back as plain data: the files and pages content
publishes (`site_build.published`), the model-card reports a page shows (text and HTML),
the claims ledger's evidence labels, and the palette's CSS variables and dark colours.

A snapshot is kept, for the server's session, under its content key (`snapshot_key`, in the
build's one key scheme, project/cache.py: the code hash of every lesson and companion, with
their figure inputs, and the bytes of every other content file it reads): a build whose
content did not change starts no worker. (It holds published files' bytes, so it is kept in
memory rather than in a store on disk.)
"""

from __future__ import annotations

import importlib
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from project.cache import content_key
from project.model import Project

# Content read by the snapshot besides the lessons' and companions' code (already in their
# code hash): the decoder's package and its data, the gallery configs, the claims ledgers.
CONTENT_FILES = ("modelcard/**/*.py", "modelcard/**/*.json", "modelcard/web/*.js", "lessons/gallery/*.json",
                 "lessons/claims/*.json", "explorables/**/*.py", "explorables/web/*.js")
LINK = "primer-lesson:"  # a report's link to a lesson (LINK + slug), made relative to the page that shows it


@dataclass
class Snapshot:
    """What the content's code says, as data (see the module docstring)."""

    assets: dict[str, bytes] = field(default_factory=dict)  # site path -> bytes
    pages: dict[str, str] = field(default_factory=dict)  # page path under docs/ -> Markdown
    reports: dict[str, tuple[str, str]] = field(default_factory=dict)  # gallery slug -> (text, HTML with LINK)
    evidence: dict[str, dict[str, str]] = field(default_factory=dict)  # page path -> {claim id: label}
    css_variables: str = ""  # the palette's CSS custom properties, light and dark
    dark: dict[str, str] = field(default_factory=dict)  # the palette's light colour -> its dark twin
    dark_background: str = ""


def snapshot_key(project: Project) -> str:
    """The content key (project/cache.py) of everything a snapshot depends on: each page module's
    code hash (its code, the code of what it imports, its figure inputs), each lesson's title (the
    reports link lessons by title), the page of each lesson that writes evidence markers, and each
    of CONTENT_FILES. A prose edit anywhere else leaves it as it was."""
    pages = project.lessons + project.papers
    files = [(project.rel(path), path.read_bytes()) for pattern in CONTENT_FILES
             for path in sorted(project.root.glob(pattern))]
    return content_key("snapshot", project.code_hash([page.slug for page in pages]),
                       [(page.slug, page.title) for page in pages],
                       [page.docstring for page in project.lessons if "⟨" in page.docstring],
                       *(part for name, data in files for part in (name, data)))


def _take(root: str) -> Snapshot:
    """In the worker: import the content of the project at `root` and read it out."""
    import sys

    if root not in sys.path:
        sys.path.insert(0, root)
    from site_build.published import lesson_assets, published_pages, published_reports

    project = Project.read(Path(root))
    snap = Snapshot(assets=lesson_assets(project), pages=published_pages(project),
                    reports=published_reports(project, lambda slug: f"{LINK}{slug}"))
    for page in project.lessons:  # a claims ledger's page writes ⟨id⟩ markers (site_build/markdown/evidence.py)
        if "⟨" in page.docstring:
            module = importlib.import_module(page.module)
            if getattr(module, "EVIDENCE", None) is not None:
                snap.evidence[page.page] = dict(module.evidence_labels())
    try:
        from lessons import _palette
    except ImportError:
        return snap
    snap.css_variables = _palette.css_variables()
    snap.dark, snap.dark_background = dict(_palette.DARK), _palette.DARK_BACKGROUND
    return snap


def take(project: Project) -> Snapshot:
    """A snapshot of `project`'s content, computed in a spawned process (so every module is
    imported afresh). An error in the content comes back as the worker raised it (a
    LessonError names the file)."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(_take, str(project.root)).result()
