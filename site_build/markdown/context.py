"""What a Markdown extension of the site build knows about the page being rendered.

One Markdown instance renders every page, so each extension asks for the page at
render time: `context()` gives a `PageContext`, or None outside a page. The
extensions get this and nothing else (never the plugin).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from project.model import Project
from site_build.snapshot import Snapshot


@dataclass(frozen=True)
class PageContext:
    """The page being rendered.

    Attributes:
        src_uri: the page's path in docs/ (e.g. "lessons/rope.md").
        project: the project the lessons and companions come from.
        source: the file an author edits for this page, for error messages.
        sections: whether its section bodies get content-visibility boxes.
        snapshot: what the content's code computed for this build (`site_build.snapshot`):
            the reports and evidence labels a page shows; the extensions import no content.
    """

    src_uri: str
    project: Project
    source: str
    sections: bool = False
    snapshot: Snapshot | None = None


def page_source(context) -> str:
    """The file to name in an error message: the page's source, or "the site" outside a page."""
    page = context()
    return page.source if page is not None else "the site"


class PageTreeprocessor(Treeprocessor):
    """A tree processor that reads the page being rendered from `self.context()`."""

    def __init__(self, md, context: Callable[[], PageContext | None]):
        super().__init__(md)
        self.context = context


class PageExtension(Extension):
    """A Markdown extension that registers one `PageTreeprocessor`, given the page context:
    a subclass names the processor class, its registry name and its priority."""

    processor: type[PageTreeprocessor]
    name: str
    priority: int

    def __init__(self, context: Callable[[], PageContext | None]):
        super().__init__()
        self.context = context

    def extendMarkdown(self, md):  # noqa: N802 - Markdown's API
        md.treeprocessors.register(self.processor(md, self.context), self.name, self.priority)
