"""Content-visibility, one feature: long pages render only what is near the window.

A lesson page holds thousands of elements of typeset math, and a browser styles
and lays out every one of them before the first screen settles. With
`content-visibility: auto` it skips the parts that are off screen until the
reader scrolls near them; but a skipped part needs a stand-in height, or the
scrollbar jumps and anchor links land in the wrong place. So the build measures
the real heights and writes them into the page.

- sections.py: the Markdown tree processor that puts each section body of a page
  whose kind gets it (site_build/content.py) in a box;
- heights.py (+ heights.js, run in Chromium): after the build, each box measured at
  every layout band's width and its heights written into the page, cached by content;
- bands.py: the layout bands (Material's breakpoints), this feature's part of
  stylesheets/layout.css and javascripts/layout.js (`window.primerBands`,
  `window.primerScrolling`: docs/javascripts/math.js gives a box that scrolls
  sideways a tab stop from what was measured, without laying out a skipped section).

`Visibility` is the feature as the plugin (site_build/plugin.py) runs it: its switch
is the plugin's `content_visibility` option (mkdocs.yml, PRIMER_CV: auto, on or off),
and the plugin calls its hooks, which hold its state (the heights of this session,
this build's pages with boxes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from harness.browser import chromium_path
from project.cache import content_key
from site_build.content import gets_content_visibility
from site_build.markdown.context import PageContext
from site_build.visibility.bands import CLASS
from site_build.visibility.heights import Heights
from site_build.visibility.sections import SectionsExtension

log = logging.getLogger("mkdocs.plugins.primer")


def enabled(wanted: str) -> bool:
    """Whether this build measures heights: the `content_visibility` option (PRIMER_CV)
    is auto, on or off; auto (and on) need Chromium."""
    if wanted not in ("auto", "on", "off"):
        raise PluginError(f"PRIMER_CV={wanted!r}: use auto, on or off")
    if wanted == "on" and not chromium_path():
        raise PluginError("PRIMER_CV=on needs Chromium (apt-get install -y chromium)")
    return wanted != "off" and chromium_path() is not None


class Visibility:
    """The feature's hooks and state: one instance per plugin, kept across `mkdocs serve` rebuilds."""

    def __init__(self):
        self.enabled = False
        self.heights: Heights | None = None  # one per session: serve reuses its last heights
        self.long_pages: dict[str, str] = {}  # this build's pages with section boxes: file -> content

    def on_config(self, wanted: str, root: Path, timeout: float) -> None:
        """Read the switch (`wanted`: auto, on or off) and start the build's list of pages with boxes."""
        self.enabled = enabled(wanted)
        if not self.enabled:
            self.heights = None
        elif self.heights is None or self.heights.root != root:
            self.heights = Heights(root, timeout=timeout)
        self.long_pages = {}

    def wanted(self, src_uri: str) -> bool:
        """Whether the page at `src_uri` (under docs/) gets section boxes in this build."""
        return self.enabled and gets_content_visibility(src_uri)

    @staticmethod
    def extension(context: Callable[[], PageContext | None]) -> SectionsExtension:
        """The Markdown extension that draws the boxes on a page whose context asks for them."""
        return SectionsExtension(context)

    def on_post_page(self, page: Page) -> None:
        """Note a built page that has boxes: its heights are measured after the build."""
        if self.enabled and f'class="{CLASS}"' in (page.content or ""):
            self.long_pages[page.file.dest_uri] = page.content

    def on_post_build(self, site_dir: Path, *, reuse_last: bool = False) -> None:
        """Measure (or take from the cache) the heights of this build's pages with boxes and write
        them in; `reuse_last` (a dirty build under `mkdocs serve`): see `Heights.apply`."""
        if not (self.heights and self.long_pages):
            return
        sheets = [*site_dir.glob("assets/stylesheets/*.css"), *site_dir.glob("stylesheets/*.css"),
                  *site_dir.glob("assets/vendor/katex/*.css")]
        styles = content_key(*(p.read_bytes() for p in sorted(sheets)))
        measured = self.heights.apply(self.long_pages, site_dir, styles, reuse_last=reuse_last)
        reused = f", {self.heights.reused} kept from the last build (serve)" if self.heights.reused else ""
        log.info(f"section heights: {len(self.long_pages)} long pages, {measured} measured in Chromium{reused}")
