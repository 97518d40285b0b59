"""The section boxes of content-visibility: a Markdown tree processor.

`SectionsExtension` wraps the body of each section of a page that gets
content-visibility (what follows an h2 or h3 heading, up to the next one, cut
at each code block and block of raw HTML) in
`<div class="primer-cv" data-cv="N">`. Headings and code blocks stay outside
the wrappers: the table of contents and anchor links find the headings, and
Material measures the code blocks, without laying out any skipped text.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown.util import HTML_PLACEHOLDER_RE

from site_build.markdown.context import PageExtension, PageTreeprocessor
from site_build.visibility.bands import CLASS

HEADINGS = {"h2", "h3"}
MIN_SECTIONS = 3  # a shorter page is not worth a measurement
# How a diagram drawn at build time opens (site_build/markdown/diagrams.py, WRAPPER: its attributes follow)
DIAGRAM = '<div class="diagram"'


class _Sections(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        page = self.context()
        if page is None or not page.sections:
            return
        children = list(root)
        if sum(el.tag in HEADINGS for el in children) < MIN_SECTIONS:
            return
        # Runs of body elements between headings, code blocks and the author's own HTML.
        # A code block stays outside: Material measures every code block as the page
        # opens (is it wide enough to scroll?), and a measurement inside a skipped box
        # would make the browser lay that whole box out.
        runs, run, started = [], [], False
        for el in children:
            if el.tag in HEADINGS or self._stays_outside(el):
                if run:
                    runs.append(run)
                run, started = [], started or el.tag in HEADINGS
            elif started:
                run.append(el)
        if run:
            runs.append(run)
        for number, run in enumerate(runs):
            at = list(root).index(run[0])
            wrapper = etree.Element("div", {"class": CLASS, "data-cv": str(number)})
            for el in run:
                root.remove(el)
                wrapper.append(el)
            root.insert(at, wrapper)

    def _stays_outside(self, el: etree.Element) -> bool:
        """A code block (superfences keeps it in the HTML stash: the tree holds a placeholder)
        or a block of the author's own HTML, which a script may fill after the page
        loads (the model-card decoder), so its height is not known at build time.
        Diagrams, also stashed, are drawn at build time and stay in the boxes."""
        if el.tag == "pre" or (el.tag == "div" and "highlight" in (el.get("class") or "").split()):
            return True
        match = HTML_PLACEHOLDER_RE.fullmatch((el.text or "").strip()) if el.tag == "p" and not len(el) else None
        if match and int(match.group(1)) < len(self.md.htmlStash.rawHtmlBlocks):
            stored = self.md.htmlStash.rawHtmlBlocks[int(match.group(1))]
            return not (isinstance(stored, str) and stored.startswith(DIAGRAM))
        return False


class SectionsExtension(PageExtension):
    """Markdown extension: wrap each section body of a page whose context says it gets
    content-visibility (`context()` is the page being rendered, or None outside a page)."""

    # last: after the math (15), the links (14) and the table of contents (5)
    processor, name, priority = _Sections, "primer_sections", 1
