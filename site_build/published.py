"""What content publishes besides its pages: files (`assets()`), whole generated pages
(`pages()`) and the model-card reports a page shows (`reports(href)`), asked of each lesson
that defines assets() and of each code module of
`PUBLISHING_MODULES` the project has. Content is imported here, at build time, never
when the plugin loads (tests/test_imports.py).
"""

from __future__ import annotations

import importlib
from pathlib import Path

from project.model import LessonError, Project

# Code modules (not lessons) that publish too: the in-browser decoder and its data, the gallery page,
# the explorables (explorables/__init__.py)
PUBLISHING_MODULES = ("modelcard.data", "modelcard.gallery", "explorables.data")


def _publishers(project: Project, hook: str) -> list[tuple[str, Path]]:
    """(module, file) of each lesson (for assets()) and each PUBLISHING_MODULES module that has `hook`."""
    found = [(lesson.module, lesson.path) for lesson in project.lessons if hook == "assets" and lesson.has_assets]
    for module in PUBLISHING_MODULES:
        path = project.root.joinpath(*module.split(".")).with_suffix(".py")
        if path.is_file() and f"def {hook}(" in path.read_text(encoding="utf-8"):
            found.append((module, path))
    return found


def _collect(project: Project, hook: str, kind: type, *args) -> dict:
    """{path: content} from every publisher's `hook`(); a failing hook, content of the wrong type
    or two publishers of one path stop the build naming the file."""
    found: dict[str, tuple[str, object]] = {}
    for module, path in _publishers(project, hook):
        where = project.rel(path)
        try:
            published = getattr(importlib.import_module(module), hook)(*args)
        except Exception as exc:
            raise LessonError(f"{where}: {hook}() failed: {type(exc).__name__}: {exc}") from None
        for site_path, data in published.items():
            if not isinstance(data, kind):
                raise LessonError(f"{where}: {hook}()[{site_path!r}] is {type(data).__name__}, not {kind.__name__}")
            if site_path in found:
                raise LessonError(f"{where}: {hook}() publishes {site_path}, which {found[site_path][0]} publishes too")
            found[site_path] = (where, data)
    return {site_path: data for site_path, (_, data) in found.items()}


def lesson_assets(project: Project) -> dict[str, bytes]:
    """Every file content publishes with the site: {path under the site: bytes}, from each
    lesson's `assets()` (like `figures()`) and each publishing module's."""
    return _collect(project, "assets", bytes)


def published_pages(project: Project) -> dict[str, str]:
    """Every page code modules generate: {page path under docs/: Markdown} from each
    publishing module's `pages()` (the model-card gallery)."""
    return _collect(project, "pages", str)


def published_reports(project: Project, href) -> dict[str, tuple]:
    """Every model-card report a page may show: {gallery slug: (text, HTML)} from each publishing
    module's `reports(href)` (`href(slug)`: the link to a lesson, as the page will write it)."""
    return _collect(project, "reports", tuple, href)


def page_title(markdown: str) -> str:
    """A generated page's nav title: its first `# ` heading."""
    return next(line[2:].strip() for line in markdown.splitlines() if line.startswith("# "))
