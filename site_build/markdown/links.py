"""Links in rendered pages, as a Markdown tree processor (never a regex over HTML).

On every page a code span `lessons.<slug>` becomes a link to that lesson whose text is
the lesson's title (its docstring's `# Title`, as a <cite>: italic, not code), and
`papers.<slug>` likewise to a paper companion; `lessons.<slug>.name` stays code and links
to the name's API entry. Where the text is about code (an "In code:" line, the API
reference's docstrings), a bare `lessons.<slug>` keeps its module name (as code, linked to
the lesson). On a lesson or
companion page, images under figures/ point at the built figures (figures.py makes them
figures), and the names on an
"In code:" line link to their API entries. The terminal (`python -m lessons.<slug>`)
prints the docstring as written, module names and all.
"""

from __future__ import annotations

import functools
import html
import posixpath
import xml.etree.ElementTree as etree
from pathlib import Path

from markdown.util import HTML_PLACEHOLDER_RE
from mkdocs.exceptions import PluginError

from figures_build import FIGURES
from project.model import API_PACKAGES, LessonError, Project, package_names
from project.reading import DARK_SUFFIX, FIGURE_DIR, lesson_ref, lesson_refs
from site_build.layout import is_wide
from site_build.markdown.context import PageExtension, PageTreeprocessor
from site_build.pages import API_DIR, API_PAGE_DIRS


class _Links(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        page = self.context()
        if page is None:
            return
        project = page.project
        by_slug = {lesson.slug: lesson for lesson in project.lessons}
        papers = {paper.slug: paper for paper in project.papers}
        here = posixpath.dirname(page.src_uri)
        lesson = {p.page: p for p in project.lessons + project.papers}.get(page.src_uri)
        api = {name for name, _ in lesson.public} if lesson and lesson.package == "lessons" else set()
        tools = _tool_homes(project.root)

        def rel(target: str) -> str:
            return posixpath.relpath(target, here or ".")

        parents = {child: parent for parent in root.iter() for child in parent}
        in_code_line: set[etree.Element] = set()  # code spans where a module keeps its name
        about_code = page.src_uri.startswith(API_DIR + "/")  # an API page: the docstrings speak of modules
        for p in root.iter("p"):
            first = p[0] if len(p) else None
            if first is not None and first.tag == "strong" and (first.text or "").strip() == "In code:" and not (p.text or "").strip():
                in_code_line.update(p.iter("code"))
        for el in list(root.iter()):
            if el.tag == "img" and (el.get("src") or "").startswith(FIGURE_DIR):  # a lesson's or the gallery's
                name = el.get("src")[len(FIGURE_DIR):]
                el.set("src", rel(str(FIGURES.relative_to("docs") / name)))
                # Its size up front, so the page keeps its layout (and its measured section
                # heights) while the figure loads; loaded only as the reader nears it.
                size = figure_size(project.root / FIGURES / name)
                if size:
                    el.set("width", size[0])
                    el.set("height", size[1])
                    el.set("loading", "lazy")
                    el.set("decoding", "async")
                # styled as a figure (layout.py's FIGURE_CSS), wide ones allowed past the column;
                # figures.py then gives it its <picture>, lightbox link and <figure>
                wide = size is not None and is_wide(float(size[0]) * 3 / 4)
                el.set("class", "primer-figure" + (" primer-wide" if wide else ""))
                _add_dark_twin(parents[el], el, project.root / FIGURES / name)
            if el.tag != "code" or parents.get(el) is None or parents[el].tag in ("a", "pre"):
                continue
            text = self.code_text(el)
            ref = lesson_ref(text)
            package = next((p for p in API_PACKAGES if text.strip().startswith(p + ".")
                            and all(part.isidentifier() for part in text.strip()[len(p) + 1:].split("."))), None)
            if package:  # `lessons.tools.<module>[.name]`, `modelcard.<module>[.name]`
                module, _, name = text.strip()[len(package) + 1:].partition(".")
                if module not in package_names(project.root, package):
                    raise PluginError(f"{page.source}: `{text}` is not a module of {package.replace('.', '/')}/")
                href = rel(f"{API_PAGE_DIRS[package]}/{module}.md") + (f"#{package}.{module}.{name}" if name else "")
            elif ref:
                slug, attr = ref
                if slug not in by_slug:
                    raise PluginError(f"{page.source}: `{text}` is not a lesson (known: {', '.join(by_slug)})")
                if not attr and el not in in_code_line and not about_code:  # the lesson itself: by its title
                    _wrap(parents[el], el, rel(by_slug[slug].page), title=by_slug[slug].title)
                    continue
                documented = attr.split(".")[0] in {name for name, _ in by_slug[slug].public}
                href = rel(f"{API_DIR}/{slug}.md") + f"#lessons.{slug}.{attr}" if documented else rel(by_slug[slug].page)
            elif lesson_ref(text, "papers"):
                slug = lesson_ref(text, "papers")[0]
                if slug not in papers:
                    raise PluginError(f"{page.source}: `{text}` is not a paper companion (known: {', '.join(papers)})")
                if not lesson_ref(text, "papers")[1] and el not in in_code_line and not about_code:  # by its title
                    _wrap(parents[el], el, rel(papers[slug].page), title=papers[slug].title)
                    continue
                href = rel(papers[slug].page)
            elif el in in_code_line and text.split("(")[0] in api:
                href = rel(f"{API_DIR}/{lesson.slug}.md") + f"#lessons.{lesson.slug}.{text.split('(')[0]}"
            elif el in in_code_line and lesson is not None and text.split("(")[0] in tools:  # a tool's function
                href = rel(tools[text.split('(')[0]][0]) + f"#{tools[text.split('(')[0]][1]}"
            else:
                continue
            _wrap(parents[el], el, href)


    def code_text(self, el: etree.Element) -> str:
        """A code span's text; pymdownx.inlinehilite keeps it in the HTML stash."""
        text = el.text or ""
        match = HTML_PLACEHOLDER_RE.fullmatch(text)
        if match and int(match.group(1)) < len(self.md.htmlStash.rawHtmlBlocks):
            stored = self.md.htmlStash.rawHtmlBlocks[int(match.group(1))]
            text = html.unescape(stored) if isinstance(stored, str) else "".join(stored.itertext())
        return text.strip()



def _add_dark_twin(parent: etree.Element, img: etree.Element, figure: Path) -> None:
    """If the figure build wrote a dark twin of `figure` (x.dark.svg beside x.svg), show `img` in the
    light palette only and a copy of it, pointing at the twin, in the dark one (Material hides an
    image whose address ends in #only-light or #only-dark in the other palette)."""
    twin = figure.with_name(figure.stem + DARK_SUFFIX + figure.suffix)
    if not twin.is_file():
        return
    dark = etree.Element("img", dict(img.attrib))
    dark.set("src", img.get("src")[: -len(figure.suffix)] + DARK_SUFFIX + figure.suffix + "#only-dark")
    img.set("src", img.get("src") + "#only-light")
    dark.tail, img.tail = img.tail, None
    parent.insert(list(parent).index(img) + 1, dark)


class LinkExtension(PageExtension):
    """Registers the link tree processor (see the module docstring). `context()` gives the page
    being rendered, or None outside a page (the build asks at render time, since one Markdown
    instance renders every page)."""

    # after the inline patterns (20), before MkDocs resolves .md links (0)
    processor, name, priority = _Links, "primer_links", 14


def check_lesson_links(project: Project) -> None:
    """Every `lessons.<slug>[.name]` a page mentions names a lesson (tests/test_prose.py checks the name)."""
    lessons = {lesson.slug for lesson in project.lessons}
    papers = {paper.slug for paper in project.papers}
    for page in project.lessons + project.papers:
        for package, known in (("lessons", lessons), ("papers", papers)):
            for line, slug, _ in lesson_refs(page, package):
                if slug not in known:
                    what = "a lesson" if package == "lessons" else "a paper companion"
                    raise LessonError(f"{project.rel(page.path)}:{line}: `{package}.{slug}` is not {what} "
                                      f"(known: {', '.join(sorted(known))})")


def _tool_homes(root: Path) -> dict[str, tuple[str, str]]:
    """{public name: (the API page of its module in lessons/tools/ or modelcard/, its anchor there)}."""
    return {name: (f"{API_PAGE_DIRS[package]}/{module}.md", f"{package}.{module}.{name}")
            for package in API_PACKAGES for module, names in package_names(root, package).items() for name in names}


@functools.lru_cache(maxsize=None)
def _svg_size(path: Path, mtime: float) -> tuple[str, str] | None:
    for _, el in etree.iterparse(path, events=("start",)):  # the root element: read no further
        try:
            return tuple(f"{round(_css_px(el.get(side)), 2):g}" for side in ("width", "height"))
        except (TypeError, ValueError):
            return None
    return None


def figure_size(path: Path) -> tuple[str, str] | None:
    """The CSS pixel size (width, height) an SVG figure is drawn at, from its root
    element's width and height (matplotlib writes points), to 0.01 px: browsers take
    the exact ratio from the attributes, so a figure not yet loaded holds the very
    height it will have. None if the root has no size."""
    try:
        return _svg_size(path, path.stat().st_mtime)
    except (OSError, etree.ParseError):
        return None


def _css_px(length: str) -> float:
    """`460.8pt` -> 614.4 (CSS pixels: 96 per inch, 72 points per inch); bare numbers and px as they are."""
    for unit, factor in (("pt", 96 / 72), ("px", 1.0)):
        if length.endswith(unit):
            return float(length[:-len(unit)]) * factor
    return float(length)


def _wrap(parent: etree.Element, el: etree.Element, href: str, title: str | None = None) -> None:
    """Replace `el` in `parent` by <a href=...>el</a>, keeping the text after it; with `title`,
    by <a href=...><cite>title</cite></a> (a page named by its title: italic, as the title of
    a work is in running prose, so a long title or one ending in "?" reads as one name)."""
    index = list(parent).index(el)
    link = etree.Element("a", {"href": href})
    link.tail, el.tail = el.tail, None
    parent.remove(el)
    if title is None:
        link.append(el)
    else:
        etree.SubElement(link, "cite").text = title
    parent.insert(index, link)
