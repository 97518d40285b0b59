"""Render one lesson's figures to SVG bytes, in a worker process.

Runs in a fresh process per lesson so that a saved lesson is imported anew
(`mkdocs serve` keeps running) and a crashing lesson cannot take the build
down with it. Returns bytes; the parent decides what to write.
"""

from __future__ import annotations

import importlib
import io
import re
import sys
import time
import traceback
from dataclasses import dataclass, field

from project.reading import DARK_SUFFIX

PHONE_SUFFIX = ".phone"  # figures()["x"] of lesson s drawn again for a phone: s.x.phone.svg (figures_build/phone.py)

NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")

# Same bytes on every run: a fixed hash salt for SVG ids, text kept as text
# (smaller, searchable, read by screen readers), no creation date. White
# background so a figure reads the same in the light and the dark palette.
RC_PARAMS = {
    "svg.hashsalt": "positional-primer",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "path.simplify": True,
    # Heatmaps embed their raw cells (a 128 x 64 table is a few KB) and the
    # browser scales them, instead of a resampled picture ten times the size.
    "image.interpolation": "none",
}


@dataclass
class Rendered:
    slug: str
    svgs: dict[str, bytes] = field(default_factory=dict)
    error: str | None = None
    seconds: float = 0.0


def render_lesson(root: str, slug: str, package: str = "lessons") -> Rendered:
    """Import <package>.<slug> from `root` (a lesson, or a paper companion), call
    figures(), return SVG bytes per name."""
    started = time.perf_counter()
    result = Rendered(slug)
    where = f"{package}/{slug}.py"
    if root not in sys.path:
        sys.path.insert(0, root)
    import matplotlib

    matplotlib.use("Agg", force=True)
    matplotlib.rcParams.update(RC_PARAMS)
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    try:  # the project's figure style (lessons/_palette.py): colour cycle, text sizes, log labels, dark twins
        palette = importlib.import_module("lessons._palette")
    except ImportError:
        palette = None  # a project without one draws in matplotlib's defaults, light only
    if callable(getattr(palette, "install", None)):
        palette.install()
    else:
        matplotlib.rcParams.update(getattr(palette, "RC", {}))

    try:
        module = importlib.import_module(f"{package}.{slug}")
    except BaseException as exc:  # noqa: BLE001 - any failure is reported, not raised
        result.error = f"{where}: import failed: {_describe(exc, where)}"
        return result
    if not callable(getattr(module, "figures", None)) and package != "lessons":
        return result  # a paper companion shows figures only where a picture helps
    if not callable(getattr(module, "figures", None)):
        result.error = f"{where}: has no figures() function; every lesson returns its figures from figures()"
        return result
    try:
        figures = module.figures()
    except BaseException as exc:  # noqa: BLE001
        result.error = f"{where}: figures() raised {_describe(exc, where)}"
        plt.close("all")
        return result
    if not isinstance(figures, dict) or not figures:
        result.error = f"{where}: figures() returned {type(figures).__name__}; it must return a non-empty dict {{name: matplotlib Figure}}"
        plt.close("all")
        return result
    for name, fig in figures.items():
        if not isinstance(name, str) or not NAME_RE.match(name):
            result.error = f"{where}: figures() key {name!r} must be a lower_snake_case name (it becomes {slug}.<name>.svg)"
        elif not isinstance(fig, Figure):
            result.error = f"{where}: figures()[{name!r}] is a {type(fig).__name__}, not a matplotlib Figure"
        if result.error:
            plt.close("all")
            return result
    from figures_build.phone import baseline, needs_phone, relayout  # here: site_build imports figures_build
    from site_build.layout import text_sizes

    dark = getattr(palette, "DARK", None)
    for name, fig in figures.items():
        names = [name]
        result.svgs[name] = _svg(fig)
        sizes = text_sizes(result.svgs[name])
        if sizes and needs_phone(*sizes):  # its phone rendition: the same Figure, laid out again
            own = baseline(fig)
            wrong = relayout(fig, sizes[0], own)
            if wrong:
                result.error = f"{where}: figures()[{name!r}]'s phone rendition: " + "; ".join(wrong)
                plt.close("all")
                return result
            names.append(name + PHONE_SUFFIX)
            result.svgs[names[-1]] = _svg(fig)
        for drawn in names if dark else ():
            result.svgs[f"{drawn}{DARK_SUFFIX}"] = dark_twin(result.svgs[drawn], dark, palette.DARK_BACKGROUND)
        plt.close(fig)
    plt.close("all")
    result.seconds = time.perf_counter() - started
    return result


def _svg(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


_TAG = re.compile(rb"<(\w+)\b[^>]*>")
_HEX = re.compile(rb"#[0-9a-f]{6}\b")


def dark_twin(svg: bytes, twins: dict[str, str], background: str) -> bytes:
    """The SVG `svg` (matplotlib's) for a dark page: every colour in `twins` swapped for its twin,
    white in shapes (the figure's and axes' backgrounds, a legend's box) made `background` and
    left white in text (a label on a dark heatmap cell), and text without a colour of its own,
    black by SVG's default, given the twin of black. Pictures embedded as pixels are unchanged."""
    ink = twins.get("#000000", "#000000").encode()

    def tag(match: re.Match) -> bytes:
        is_text = match.group(1) == b"text"

        def colour(found: re.Match) -> bytes:
            value = found.group(0).decode()
            if value == "#ffffff":
                return found.group(0) if is_text else background.encode()
            return twins.get(value, value).encode()

        return _HEX.sub(colour, match.group(0))

    svg = _TAG.sub(tag, svg)
    opening = re.search(rb"<svg\b[^>]*>", svg)
    return svg[:opening.end()] + b"\n <style>text { fill: " + ink + b" }</style>" + svg[opening.end():]


def _describe(exc: BaseException, where: str) -> str:
    """The error and the innermost line of the lesson file that raised it."""
    line = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.replace("\\", "/").endswith(where):
            line = f" (line {frame.lineno}: {frame.line})" if frame.line else f" (line {frame.lineno})"
            break
    message = str(exc) or "(no message)"
    return f"{type(exc).__name__}: {message}{line}"
