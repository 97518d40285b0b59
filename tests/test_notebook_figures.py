"""The figures a notebook draws (each lab's, the worked notebook's: inline SVGs with no phone rendition)
read on a phone (issue 43, item 3): drawn `labs._lab.FIGURE_WIDTH` wide, the width site_build/layout.py
gives a lesson figure's phone rendition, their smallest text renders at each screen's floor (10 px in a
phone's column, 11 px on a desktop), and no text reaches past a figure's edge or runs into another
(figures_build/phone.py's checker). The notebooks run here as the site's kernel runs them: its
settings read from site_build/ipython/, the page's style installed first (lessons._palette.install)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest
from traitlets.config import Config

from figures_build.phone import problems
from labs._lab import FIGURE_WIDTH
from lessons._palette import TEXT_SIZE, install
from site_build import layout
from site_build.content import notebook_sources
from site_build.notebooks.runs import IPYTHON_CONFIG
from tests.conftest import ROOT

NOTEBOOKS = notebook_sources(ROOT, ROOT / "docs")  # page -> its jupytext .py


def _kernel_settings() -> Config:
    """The notebook kernel's settings, as IPython loads them from its profile."""
    config = Config()
    exec(compile(IPYTHON_CONFIG.read_text(encoding="utf-8"), str(IPYTHON_CONFIG), "exec"),  # noqa: S102
         {"get_config": lambda: config})
    return config


def _figures(path: Path) -> list:
    """The figures `path` shows (plt.show(), as the inline backend shows every open figure), drawn in this
    process with the kernel's matplotlib settings; the run as a notebook (argv[0] is not the lab's file,
    so labs._lab.start does nothing)."""
    settings = _kernel_settings()
    shown: list = []

    def show(*args, **kwargs):
        shown.extend(plt.figure(number) for number in plt.get_fignums() if plt.figure(number) not in shown)

    plt.close("all")
    with matplotlib.rc_context(dict(settings.InlineBackend.rc)), pytest.MonkeyPatch.context() as patch:
        patch.setattr(plt, "show", show)
        patch.setattr(sys, "argv", ["kernel"])
        install()
        namespace = {"__name__": "__main__", "__file__": str(path)}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)  # noqa: S102
        show()
    return shown


def test_the_notebooks_figure_width_is_a_phone_renditions():
    """FIGURE_WIDTH (labs/_lab.py keeps it: a download has no site_build) is the width the layout
    draws a phone rendition at for the site's smallest figure text."""
    assert FIGURE_WIDTH * 72 == pytest.approx(layout.phone_width(TEXT_SIZE)), (FIGURE_WIDTH, layout.phone_width(TEXT_SIZE))


@pytest.mark.parametrize("page", list(NOTEBOOKS))
def test_a_notebooks_figures_read_on_a_phone_and_nothing_overlaps(page):
    """Each figure the notebook shows is FIGURE_WIDTH wide; its smallest text, as the SVG the page inlines
    writes it, renders at the floor of each screen (SCREENS); no text is cut off or runs into another."""
    figures = _figures(NOTEBOOKS[page])
    found = []
    settings = _kernel_settings().InlineBackend
    for number, fig in enumerate(figures, 1):
        try:
            width = fig.get_size_inches()[0]
            if abs(width - FIGURE_WIDTH) > 1e-9:
                found.append(f"figure {number}: {width:g} in wide, not FIGURE_WIDTH ({FIGURE_WIDTH:g} in)")
            svg = io.BytesIO()
            with matplotlib.rc_context(dict(settings.rc)):
                fig.savefig(svg, format="svg", **dict(settings.print_figure_kwargs))
            smallest, viewbox = layout.text_sizes(svg.getvalue())
            for screen in layout.SCREENS:
                px = layout.figure_text_px(smallest, viewbox, screen)
                if px < screen.floor:
                    found.append(f"figure {number}: its smallest text ({smallest:g} pt of {viewbox:g}) renders "
                                 f"{px:.2f} px on the {screen.name}, under {screen.floor:g}")
            found += [f"figure {number}: {problem}" for problem in problems(fig)]
        finally:
            plt.close(fig)
    assert figures, f"{page} shows no figure"
    assert not found, f"{page}:\n" + "\n".join(found)
