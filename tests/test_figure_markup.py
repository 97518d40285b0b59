"""Figures as figures (issue 43, item 7): on a lesson page each figure is a <figure id="fig-<slug>.<name>">
whose <figcaption> opens "Figure N.M" (N: the lesson's place in READING_ORDER, M: the figure's place on the
page) and holds the Reading it paragraph; each image sits in a <picture> that offers a phone its phone
rendition, inside the lightbox's link; an empty link to a figure's id reads "Figure N.M"
(site_build/markdown/figures.py). Rendered in-process through the site's own tree processors on a
throw-away project (no build)."""

from __future__ import annotations

import re

import markdown
import pytest
from mkdocs.exceptions import PluginError

from project.model import Project
from site_build.layout import PHONE_MEDIA
from site_build.markdown.context import PageContext
from site_build.markdown.figures import FigureExtension
from site_build.markdown.links import LinkExtension
from tests.projects import make_project

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="100pt" viewBox="0 0 {w} 100"></svg>'


def lesson(slug: str, body: str) -> str:
    return f'r"""\n# Lesson {slug}\n\n{body}\n"""\n\n\ndef figures():\n    return {{}}\n\n\ndef demo():\n    pass\n'


BETA = """Some prose that cites [](#fig-beta.line) and [](#fig-alpha.dots).

![A rising line drawn for the test](figures/beta.line.svg)

**Reading it:** the line rises.

![Dots drawn for the test, in a row](figures/beta.dots.svg)

**Reading it:** the dots sit in a row.

![A rising line drawn for the test, again](figures/beta.line.svg)

Prose, not a caption.
"""
ORDER = ["alpha", "beta"]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Project:
    root = make_project(tmp_path_factory.mktemp("figures"), {
        "alpha": lesson("alpha", "![Dots for alpha, drawn for the test](figures/alpha.dots.svg)\n\n**Reading it:** dots."),
        "beta": lesson("beta", BETA)}, ORDER, notebook=False)
    figures = root / "docs" / "figures"
    figures.mkdir(parents=True)
    for name in ("alpha.dots", "beta.line", "beta.dots"):
        for suffix in ("", ".dark"):
            (figures / f"{name}{suffix}.svg").write_text(SVG.format(w=460.8))
    for suffix in ("", ".dark"):  # only beta.line has a phone rendition
        (figures / f"beta.line.phone{suffix}.svg").write_text(SVG.format(w=374.4))
    return Project.read(root)


def render(project: Project, slug: str, text: str | None = None) -> str:
    page = project.by_slug[slug]
    context = PageContext(page.page, project, str(page.path))
    return markdown.markdown(page.docstring if text is None else text, extensions=[
        "attr_list", LinkExtension(lambda: context), FigureExtension(lambda: context)])


def test_each_figure_is_a_numbered_figure_with_its_reading_it_as_caption(project):
    html = render(project, "beta")
    n = ORDER.index("beta") + 1
    figures = re.findall(r'<figure class="primer-figure-box" id="([^"]+)">(.*?)</figure>', html, re.S)
    assert [fid for fid, _ in figures] == ["fig-beta.line", "fig-beta.dots", "fig-beta.line-2"]
    captions = [re.sub(r"<[^>]+>", "", re.search(r"<figcaption>(.*)</figcaption>", body, re.S).group(1)).strip()
                for _, body in figures]
    assert captions == [f"Figure {n}.1 Reading it: the line rises.", f"Figure {n}.2 Reading it: the dots sit in a row.",
                        f"Figure {n}.3"], "the Reading it paragraph moves into the caption; other prose stays out"
    assert "<p>Prose, not a caption.</p>" in html and html.count("Reading it:") == 2


def test_each_image_is_in_a_picture_with_its_phone_rendition_inside_the_lightbox_link(project):
    html = render(project, "beta")
    links = re.findall(r'<a class="glightbox"[^>]*data-gallery="(light|dark)"[^>]*><picture>(.*?)</picture></a>', html, re.S)
    assert [gallery for gallery, _ in links] == ["light", "dark"] * 3, "each palette's twin in its own gallery"
    line, line_dark = links[0][1], links[1][1]
    # the phone rendition's own size (points to CSS px: 4/3), beside the image's address (links.py's)
    assert (f'<source height="{100 * 4 / 3:.2f}" media="{PHONE_MEDIA}" srcset="../figures/beta.line.phone.svg" '
            f'width="{374.4 * 4 / 3:g}"') in line
    assert 'srcset="../figures/beta.line.phone.dark.svg"' in line_dark and 'src="../figures/beta.line.dark.svg#only-dark"' in line_dark
    assert "<source" not in links[2][1], "beta.dots has no phone rendition: no <source>"
    assert "on-glb" not in html, "mkdocs-glightbox must not wrap the image again inside the <picture>"


def test_an_empty_link_to_a_figure_reads_its_number_on_any_page(project):
    html = render(project, "beta")
    assert '<a href="#fig-beta.line">Figure 2.1</a>' in html
    assert re.search(r'<a href="[^"#]*alpha\.md#fig-alpha\.dots">Figure 1\.1</a>', html), "alpha's figure, on alpha's page"
    with pytest.raises(PluginError, match="fig-beta.nothing"):
        render(project, "beta", "See [](#fig-beta.nothing).")
