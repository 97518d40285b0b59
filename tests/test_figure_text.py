"""Figure text a reader can read (issue 25, issue 43): the smallest text of every built figure (every
lesson's and companion's, from the figure build's manifest), at the size the page shows the figure, is
at least 11 px on a desktop and 10 px on a phone (site_build/layout.py, SCREENS: the columns measured
in Chromium). On a phone the page shows a figure's phone rendition (x.phone.svg) where the build wrote
one, so that is what is measured there. A mathtext sub- or superscript is text too (0.7 of its label's
size). The browser test (tests/test_looks_browser.py, test_figure_text_renders_at_the_floor_on_every_page)
measures the same on the built pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from figures_build.render import PHONE_SUFFIX
from site_build.layout import SCREENS, Screen, figure_text_px, text_sizes

ROOT = Path(__file__).resolve().parents[1]


def shown_on(files: dict[str, bytes], screen: Screen) -> dict[str, bytes]:
    """The figures `screen` shows, of `files` ({file name: bytes}, phone renditions among them): on the
    phone a figure's phone rendition where there is one, else the figure; on a desktop the figures."""
    phone = screen is SCREENS[-1]
    shown = {}
    for name, svg in files.items():
        if name.endswith(PHONE_SUFFIX + ".svg"):
            continue
        rendition = name.removesuffix(".svg") + PHONE_SUFFIX + ".svg"
        shown[rendition if phone and rendition in files else name] = files[rendition] if phone and rendition in files else svg
    return shown


def too_small(files: dict[str, bytes], screen: Screen) -> list[str]:
    """'name: smallest text 6.3 in 460.8 wide renders 4.89 px < 8' for each figure under the screen's floor."""
    found = []
    for name, svg in sorted(files.items()):
        assert text_sizes(svg), f"{name}: an SVG with a viewBox and text"
        size, width = text_sizes(svg)
        px = figure_text_px(size, width, screen)
        if px < screen.floor - 1e-9:
            found.append(f"{name}: smallest text {size:g} in a figure {width:g} wide renders {px:.2f} px < {screen.floor:g}")
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, bytes]:
    """{file name: bytes} of every figure the manifest lists (dark twins aside: the same text)."""
    from figures_build import FIGURES, built_figures
    from project.reading import figure_file
    from tests.conftest import build_figures

    build_figures(tmp_path_factory)
    manifest = built_figures(ROOT)
    names = [figure_file(slug, name) for slug, files in manifest.items() for name in files if not name.endswith(".dark")]
    assert names
    return {name: (ROOT / FIGURES / name).read_bytes() for name in names}


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.name)
def test_every_figure_s_smallest_text_renders_at_the_floor(built, screen):
    small = too_small(shown_on(built, screen), screen)
    assert not small, (f"{screen.name} ({screen.column} px column): text under {screen.floor:g} px\n" + "\n".join(small)
                       + "\n(lessons/_palette.py says how large text must be; pass no smaller fontsize)")


def test_the_measure_reads_tspans_and_the_shrinking():
    svg = (b'<svg width="460.8pt" viewBox="0 0 460.8 259.2"><text style="font-size: 10.5px; font-family: x">a</text>'
           b'<text><tspan style="font-size: 10.5px">10</tspan><tspan style="font-size: 7.35px">4</tspan></text></svg>')
    assert text_sizes(svg) == (7.35, 460.8)
    desktop, phone = SCREENS
    assert figure_text_px(10.5, 460.8, desktop) == pytest.approx(14.0), "natural size: 4/3 px a point"
    assert figure_text_px(10.5, 460.8, phone) == pytest.approx(10.5 * phone.column / 460.8)
    assert too_small({"x.svg": svg}, phone) and not too_small({"x.svg": svg.replace(b"7.35", b"13").replace(b"10.5px", b"13px")}, phone)


def test_a_phone_is_measured_on_the_phone_rendition():
    """Where the build wrote x.phone.svg, the phone shows it (and the desktop never does): a small
    desktop figure with a legible phone rendition passes on the phone, one without fails."""
    small = b'<svg viewBox="0 0 460.8 259.2"><text style="font-size: 10.5px">a</text></svg>'
    legible = b'<svg viewBox="0 0 374.4 259.2"><text style="font-size: 10.5px">a</text></svg>'
    desktop, phone = SCREENS
    assert too_small(shown_on({"x.svg": small}, phone), phone)
    assert not too_small(shown_on({"x.svg": small, "x.phone.svg": legible}, phone), phone)
    assert list(shown_on({"x.svg": small, "x.phone.svg": legible}, desktop)) == ["x.svg"]
