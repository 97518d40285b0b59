"""A notebook page's HTML (nbconvert's, as mkdocs-jupyter gives it): its inline CSS split off into
one shared stylesheet, its figures described by their own words and paired with their dark
twins, its code cells kept out of the search index, and, for the offline copy, its links pointed
at the pages' files."""

from __future__ import annotations

import base64
import html
import posixpath
import re
from collections.abc import Callable
from html.parser import HTMLParser

NOTEBOOK_CSS = "assets/notebook-{}.css"  # the stylesheet notebook pages share, by its CSS's hash


def split_styles(document: str) -> tuple[str, str]:
    """(the HTML without its <style> elements, their CSS joined in order), found by an HTML parser."""

    class Styles(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=False)
            self.spans, self.start = [], None

        def handle_starttag(self, tag, attrs):
            if tag == "style":
                self.start = (self.getpos(), len(self.get_starttag_text()))

        def handle_endtag(self, tag):
            if tag == "style" and self.start is not None:
                self.spans.append((self.start, self.getpos()))
                self.start = None

    index = _offset_of(document)
    parser = Styles()
    parser.feed(document)
    parser.close()
    kept, css, at = [], [], 0
    for (start, head), end in parser.spans:
        begin, close = index(start), index(end)
        finish = document.index(">", close) + 1
        css.append(document[begin + head:close].strip())
        kept.append(document[at:begin])
        at = finish
    kept.append(document[at:])
    return "".join(kept), "\n".join(css)


def _offset_of(document: str) -> Callable[[tuple[int, int]], int]:
    """The function from an HTMLParser position of `document` (line, column) to its offset."""
    offsets = [0]
    for line in document.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return lambda pos: offsets[pos[0] - 1] + pos[1]


SEARCH_EXCLUDE = "data-search-exclude"  # Material's search leaves an element with it out of the index
_CODE_CELL = "jp-CodeCell"  # nbconvert's class of a code cell (its code, its copy button, its outputs)
_HEADING_LINK = "anchor-link"  # nbconvert's "¶" link after each heading of a Markdown cell
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


def code_cells_out_of_search(document: str) -> str:
    """A notebook page with its code cells (code, copy button and its "Copied!", outputs) and its
    headings' "¶" links marked `data-search-exclude`, so the search index holds its Markdown cells'
    prose alone. Material's search parser ends an exclusion at the first closing tag of the same
    name inside it (it compares elements by tag), so a cell is not marked as a whole: the mark goes
    on the outermost elements inside it whose tag does not recur among their descendants (each
    `<pre>`, the `<clipboard-copy>`, an output without nested `<div>`s)."""

    class Node:
        def __init__(self, tag: str, end: int, classes: list[str]):
            self.tag, self.end, self.classes = tag, end, classes  # end: the offset after its start tag
            self.children: list[Node] = []
            self.inner: set[str] = set()  # the tags of its descendants

    class Tree(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.open: list[Node] = []
            self.marks: list[Node] = []  # the outermost code cells, and the headings' links

        def handle_starttag(self, tag, attrs):
            classes = (dict(attrs).get("class") or "").split()
            node = Node(tag, index(self.getpos()) + len(self.get_starttag_text()), classes)
            for ancestor in self.open:
                ancestor.inner.add(tag)
            if self.open:
                self.open[-1].children.append(node)
            inside = any(_CODE_CELL in n.classes for n in self.open)
            if (_CODE_CELL in classes and not inside) or (tag == "a" and _HEADING_LINK in classes):
                self.marks.append(node)
            if tag not in _VOID:
                self.open.append(node)

        def handle_endtag(self, tag):
            for depth in range(len(self.open) - 1, -1, -1):  # closes what it closes, as a browser does
                if self.open[depth].tag == tag:
                    del self.open[depth:]
                    return

    def outermost_safe(node: Node) -> list[int]:
        if node.tag not in node.inner:
            return [node.end]
        return [end for child in node.children for end in outermost_safe(child)]

    index = _offset_of(document)
    tree = Tree()
    tree.feed(document)
    tree.close()
    ends = sorted({end for node in tree.marks for end in outermost_safe(node)})
    pieces, last = [], 0
    for end in ends:
        at = end - 2 if document[end - 2:end] == "/>" else end - 1  # before the tag's closing ">" or "/>"
        pieces += [document[last:at].rstrip(" "), f" {SEARCH_EXCLUDE}"]
        last = at
    return "".join(pieces + [document[last:]])


# a link in a notebook's Markdown to a page, written for directory URLs: "../../lessons/rope/#a-section"
PAGE_LINK = re.compile(r'(<a\s[^>]*?href=")((?:\.\./|\./)*[\w\-./]*/)(#[^"]*)?"')


def directory_url(src_uri: str) -> str:
    """A page's URL with directory URLs ("lessons/rope.md" -> "lessons/rope/", "index.md" -> "")."""
    stem = posixpath.splitext(src_uri)[0]
    if posixpath.basename(stem) == "index":
        stem = posixpath.dirname(stem)
    return f"{stem}/" if stem else ""


NBCONVERT_ALT = "No description has been provided for this image"  # nbconvert's alt for every output image
# a figure in a notebook page: nbconvert's <img> of an SVG output (alt, base64 data, the rest of the tag)
_FIGURE = re.compile(r'<img alt="([^"]*)" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"([^>]*)>')
_SKIPPED = re.compile(r"^(xtick|ytick|legend)_\d+$")  # matplotlib's groups of tick labels and legends
_SIZE = re.compile(r"font-size: ([\d.]+)px")


def _figure_texts(svg: str) -> list[str]:
    """A matplotlib SVG's titles (its largest type), then its axis labels: every text outside the
    tick labels and the legends, in order, once each."""
    import xml.etree.ElementTree as etree

    found: list[tuple[float, str]] = []

    def walk(element) -> None:
        if _SKIPPED.match(element.get("id", "")):
            return
        if element.tag.endswith("}text") and "".join(element.itertext()).strip():
            size = _SIZE.search(element.get("style", ""))
            found.append((float(size.group(1)) if size else 0.0, "".join(element.itertext()).strip()))
        for child in element:
            walk(child)

    walk(etree.fromstring(svg))
    largest = max((size for size, _ in found), default=0.0)
    ordered = [text for size, text in found if size == largest] + [text for size, text in found if size != largest]
    return list(dict.fromkeys(ordered))


def figure_alt_text(html_: str) -> str:
    """Each figure a notebook drew (an SVG output, text kept as text) described by its own words
    instead of nbconvert's "No description has been provided for this image": "Figure: " and
    its titles, then its axis labels (`_figure_texts`)."""
    def describe(match: re.Match) -> str:
        if match.group(1) != NBCONVERT_ALT:
            return match.group(0)
        try:
            texts = _figure_texts(base64.b64decode(match.group(2)).decode("utf-8"))
        except (ValueError, SyntaxError):  # not an SVG we can read: nbconvert's words stay
            return match.group(0)
        if not texts:
            return match.group(0)
        alt = html.escape("Figure: " + "; ".join(texts), quote=True)
        return match.group(0).replace(f'alt="{NBCONVERT_ALT}"', f'alt="{alt}"', 1)

    return _FIGURE.sub(describe, html_)


def figure_dark_twins(html_: str, dark: dict[str, str], dark_background: str) -> str:
    """Each figure a notebook drew (an SVG output) shown in the light palette only, beside its twin
    for the dark one: the same figure with the palette's colours swapped for their dark twins and
    its white background made the page's (`figures_build.render.dark_twin`, as the lessons'
    figures get), each marked for its palette as Material expects (#only-light, #only-dark).
    `dark` and `dark_background` are the built project's palette (the content snapshot's); a
    project without one (`dark` empty) keeps its figures as they are."""
    from figures_build.render import dark_twin

    if not dark:
        return html_

    def pair(match: re.Match) -> str:
        alt, data, rest = match.groups()
        twin = base64.b64encode(dark_twin(base64.b64decode(data), dark, dark_background)).decode()
        return (f'<img alt="{alt}" src="data:image/svg+xml;base64,{data}#only-light"{rest}>'
                f'<img alt="{alt}" src="data:image/svg+xml;base64,{twin}#only-dark"{rest}>')

    return _FIGURE.sub(pair, html_)


def file_layout_links(html_: str, src_uri: str, dest_uri: str, pages: dict[str, str]) -> str:
    """A notebook's own links (MkDocs never sees them) are written for directory URLs,
    as the page is served online (labs/tf1/ -> ../../lessons/rope/). For a build
    without them (the offline copy, opened through file://), point each link to a
    page at the page's file, relative to where this page's file is. `pages` maps a
    page's directory URL to its file (`directory_url(src_uri)` -> dest_uri)."""
    here = directory_url(src_uri)

    def point(match: re.Match) -> str:
        start, path, fragment = match.group(1), match.group(2), match.group(3) or ""
        target = posixpath.normpath(posixpath.join(here, path))
        target = "" if target == "." else f"{target}/"
        if target not in pages:
            return match.group(0)
        return f'{start}{posixpath.relpath(pages[target], posixpath.dirname(dest_uri) or ".")}{fragment}"'

    return PAGE_LINK.sub(point, html_)
