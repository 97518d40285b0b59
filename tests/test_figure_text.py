"""Figure text a reader can read (issue 25): the smallest text of every built figure (every lesson's
and companion's, from the figure build's manifest), at the size the page shows the figure, is at
least 11 px on a desktop and 8 px on a phone (site_build/layout.py, SCREENS: the columns measured
in Chromium). A mathtext sub- or superscript is text too (0.7 of its label's size). The browser test
(tests/test_browser.py, test_figure_text_renders_at_the_floor) measures the same on the built pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_build.layout import SCREENS, Screen, figure_text_px

ROOT = Path(__file__).resolve().parents[1]
_SIZE = re.compile(rb"font(?:-size)?:\s*([0-9.]+)px")
_VIEWBOX = re.compile(rb'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"')


def text_sizes(svg: bytes) -> tuple[float, float]:
    """(the smallest font size of the SVG's text, its viewBox width), both in viewBox units: matplotlib
    writes each text's size in the style of its <text> or <tspan> (`font-size: 9px`, or `font: 9px ...`)."""
    width = _VIEWBOX.search(svg)
    sizes = [float(s) for s in _SIZE.findall(svg)]
    assert width and sizes, "an SVG with a viewBox and text"
    return min(sizes), float(width.group(1))


def too_small(files: dict[str, bytes], screen: Screen) -> list[str]:
    """'name: smallest text 6.3 in 460.8 wide renders 4.89 px < 8' for each figure under the screen's floor."""
    found = []
    for name, svg in sorted(files.items()):
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
    small = too_small(built, screen)
    assert not small, (f"{screen.name} ({screen.column} px column): text under {screen.floor:g} px\n" + "\n".join(small)
                       + "\n(lessons/_palette.py says how large text must be; pass no smaller fontsize)")


def test_the_measure_reads_tspans_and_the_shrinking():
    svg = (b'<svg width="460.8pt" viewBox="0 0 460.8 259.2"><text style="font-size: 10.5px; font-family: x">a</text>'
           b'<text><tspan style="font-size: 10.5px">10</tspan><tspan style="font-size: 7.35px">4</tspan></text></svg>')
    assert text_sizes(svg) == (7.35, 460.8)
    desktop, phone = SCREENS
    assert figure_text_px(10.5, 460.8, desktop) == pytest.approx(14.0), "natural size: 4/3 px a point"
    assert figure_text_px(10.5, 460.8, phone) == pytest.approx(10.5 * phone.column / 460.8)
    assert too_small({"x.svg": svg}, phone) and not too_small({"x.svg": svg.replace(b"7.35", b"10.5")}, phone)
