"""Figures as figures, as a Markdown tree processor (after links.py has pointed each image under
figures/ at its built SVG and added its dark twin).

On every page each figure image (img.primer-figure) is served in a <picture> whose <source> gives
a phone its phone rendition (x.phone.svg, figures_build/phone.py) below `PHONE_MEDIA`, inside the
lightbox's link (mkdocs-glightbox's attributes, `LIGHTBOX`; the lightbox opens the figure as drawn
for a desktop, which a phone reader can zoom). On a lesson or companion page each figure's
paragraph becomes <figure id="fig-<slug>.<name>"> with a <figcaption> that opens "Figure N.M"
(N: the lesson's place in READING_ORDER, "P" and its place in PAPERS for a companion; M: the
figure's place on the page) and holds the **Reading it:** paragraph that follows the image. A
figure shown twice on a page gets a number each time and the id `fig-<slug>.<name>-2`.

A link with no text to a figure's id, `[](#fig-rope.pairing)`, on any page, reads "Figure N.M"
and points at that figure on its page (docs/authoring.md); a figure no page shows is an error.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as etree

from mkdocs.exceptions import PluginError

from figures_build import FIGURES
from figures_build.render import PHONE_SUFFIX
from project.model import Project
from project.reading import DARK_SUFFIX, figure_refs
from site_build.layout import LIGHTBOX, PHONE_MEDIA
from site_build.markdown.context import PageExtension, PageTreeprocessor
from site_build.markdown.links import figure_size

ID_PREFIX = "fig-"


def figure_numbers(project: Project) -> dict[str, dict[str, tuple[str, str]]]:
    """{page (docs path): {figure id: (its number "N.M", the figure file)}} for every lesson and
    companion page, in page order (the order project.reading's parser finds the images in)."""
    pages = {}
    for package, modules in (("", project.lessons), ("P", project.papers)):
        for index, module in enumerate(modules, 1):
            numbered, seen = {}, {}
            for m, ref in enumerate(figure_refs(module), 1):
                seen[ref.file] = seen.get(ref.file, 0) + 1
                numbered[figure_id(ref.file, seen[ref.file])] = (f"{package}{index}.{m}", ref.file)
            pages[module.page] = numbered
    return pages


def figure_id(file: str, occurrence: int = 1) -> str:
    """`rope.pairing.svg` -> "fig-rope.pairing" (its second showing on a page: "fig-rope.pairing-2")."""
    return ID_PREFIX + file.removesuffix(".svg") + (f"-{occurrence}" if occurrence > 1 else "")


class _Figures(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        page = self.context()
        if page is None:
            return
        numbers = figure_numbers(page.project)
        here = numbers.get(page.src_uri)
        parents = {child: parent for parent in root.iter() for child in parent}
        ids = iter(here or {})
        for p in [el for el in root.iter("p") if any(_is_figure(child) for child in el)]:
            for img in [child for child in p if _is_figure(child)]:
                _picture(p, img, page.project.root / FIGURES)
            if here is not None:
                self._figure(p, parents, next(ids, None), here, page.source)
        for link in root.iter("a"):
            self._cite(link, numbers, page.src_uri)

    def _figure(self, p, parents, number_id, here, source) -> None:
        """Make `p` (a figure's paragraph) a <figure> numbered by `here`, its Reading it its caption."""
        if number_id is None:
            raise PluginError(f"{source}: a figure the page's parser did not find (project/reading.py figure_refs)")
        number, file = here[number_id]
        if f"/{file}#" not in p.find(".//img").get("src"):
            raise PluginError(f"{source}: figure {number} is {file} by the parser, not {p.find('.//img').get('src')}")
        parent = parents[p]
        following = list(parent)[list(parent).index(p) + 1:]
        p.tag = "figure"
        p.attrib = {"id": number_id, "class": "primer-figure-box"}
        caption = etree.SubElement(p, "figcaption")
        label = etree.SubElement(etree.SubElement(caption, "p"), "span", {"class": "primer-figure-number"})
        label.text = f"Figure {number}"
        reading = following[0] if following and following[0].tag == "p" else None
        if reading is not None and len(reading) and reading[0].tag == "strong" \
                and (reading[0].text or "").strip() == "Reading it:" and not (reading.text or "").strip():
            parent.remove(reading)
            caption.remove(caption[0])
            reading.insert(0, label)
            label.tail = " "
            caption.append(reading)

    def _cite(self, link, numbers, src_uri) -> None:
        """An empty link to a figure's id: its text becomes "Figure N.M", its address the figure's page."""
        href = link.get("href") or ""
        if not href.startswith("#" + ID_PREFIX) or (link.text or "").strip() or len(link):
            return
        target = href[1:]
        found = [(page, number) for page, figures in numbers.items()
                 for fid, (number, _) in figures.items() if fid == target]
        if not found:
            raise PluginError(f"{self.context().source}: [](#{target}) cites a figure no page shows")
        page, number = found[0]
        link.text = f"Figure {number}"
        if page != src_uri:
            link.set("href", posixpath.relpath(page, posixpath.dirname(src_uri) or ".") + href)


def _is_figure(el: etree.Element) -> bool:
    return el.tag == "img" and "primer-figure" in (el.get("class") or "").split()


def _picture(p: etree.Element, img: etree.Element, figures) -> None:
    """Put `img` (in `p`) in the lightbox's link and a <picture> that offers a phone its phone rendition."""
    src = img.get("src").split("#")[0]
    name = posixpath.basename(src).removesuffix(".svg")
    dark = name.endswith(DARK_SUFFIX)
    phone = name.removesuffix(DARK_SUFFIX) + PHONE_SUFFIX + (DARK_SUFFIX if dark else "") + ".svg"
    index = list(p).index(img)
    link = etree.Element("a", {"class": "glightbox", "href": img.get("src"), **LIGHTBOX,
                               "data-gallery": "dark" if dark else "light"})
    picture = etree.SubElement(link, "picture")
    size = figure_size(figures / phone)
    if size:
        # its address is set once MkDocs has made the image's relative to the built page (_Srcsets)
        etree.SubElement(picture, "source", {"media": PHONE_MEDIA, PHONE_FILE: phone, "width": size[0], "height": size[1]})
    link.tail, img.tail = img.tail, None
    p.remove(img)
    picture.append(img)
    p.insert(index, link)


PHONE_FILE = "data-primer-phone"  # a <source>'s phone rendition, until _Srcsets gives it its address


class _Srcsets(PageTreeprocessor):
    """Each phone rendition's address, beside its image's as MkDocs made it relative to the built page
    (directory URLs or not): MkDocs rewrites an <img>'s src, never a <source>'s srcset."""

    def run(self, root: etree.Element) -> None:
        for picture in root.iter("picture"):
            img, source = picture.find("img"), picture.find("source")
            if img is not None and source is not None and source.get(PHONE_FILE):
                folder = posixpath.dirname(img.get("src").split("#")[0])
                source.set("srcset", posixpath.join(folder, source.attrib.pop(PHONE_FILE)))


class FigureExtension(PageExtension):
    """Registers the figure tree processors (see the module docstring)."""

    # after links.py (14), which points the images at the built figures
    processor, name, priority = _Figures, "primer_figures", 13

    def extendMarkdown(self, md):  # noqa: N802 - Markdown's API
        super().extendMarkdown(md)
        # after MkDocs' relative paths (its "relpath" tree processor, priority 0)
        md.treeprocessors.register(_Srcsets(md, self.context), "primer_figure_srcsets", -1)
