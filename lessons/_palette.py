"""The site's figure style, in one place: the colours every figure of every
lesson, paper companion and lab draws from, and one fixed look (colour, marker,
dash) per position scheme and per context-stretching method, so that RoPE is
the same blue line with round markers on every page. The site's stylesheet
gets the colours from `css_variables()`, and the figure build applies `RC`
(the default colour cycle, text sizes) to every figure. No other module writes
a colour as a hex literal (tests/test_palette.py), so a colour cannot drift
between two pages.

The colours are Okabe and Ito's eight, chosen to stay apart for readers with
the common colour-vision deficiencies ("Color Universal Design", Okabe & Ito,
2002; https://jfly.uni-koeln.de/color/), less its yellow (too light on white),
plus four of Paul Tol's "muted" scheme (indigo, wine, olive, teal;
https://personal.sron.nl/~pault/) for the methods, which need more colours than
Okabe–Ito has. tests/test_palette.py checks that every two colours one figure
can show together stay apart under simulated deuteranopia and protanopia.
Each look also has its own marker and dash, so a figure reads without colour.
"""

from __future__ import annotations

from dataclasses import dataclass

# Okabe–Ito
BLUE = "#0072b2"  # the first series of a figure; RoPE
LIGHT_BLUE = "#56b4e9"  # sky blue: a lighter partner of BLUE; position interpolation
RED = "#d55e00"  # vermillion: the contrasting series, what goes wrong; NoPE
GREEN = "#009e73"  # bluish green: what works, the kept pairs; ALiBi
ORANGE = "#e69f00"  # sinusoidal codes
PURPLE = "#cc79a7"  # reddish purple: the learned table
INK = "#000000"  # text-dark lines and arrows; NTK-aware
# Paul Tol's muted
INDIGO = "#332288"  # dynamic NTK
WINE = "#882255"  # YaRN
OLIVE = "#999933"  # the Llama 3 rule
TEAL = "#44aa99"  # LongRoPE
# roles, not series
MUTED = "#9ca3af"  # de-emphasised data: the other pairs, a faint background series
GRID = "#6b7280"  # reference lines: y = 1, a trained length, a boundary
GREY_FILL = "#e5e7eb"  # shaded bands behind the data
BLUE_FILL = "#d5e8f4"  # BLUE, light: a band behind blue data
GREEN_FILL = "#d0efe6"  # GREEN, light
DARK_BACKGROUND = "#1e2129"  # Material's slate background, hsl(225deg 15% 14%): the dark twins' backdrop

COLOURS: dict[str, str] = {
    "blue": BLUE, "light-blue": LIGHT_BLUE, "red": RED, "green": GREEN, "orange": ORANGE, "purple": PURPLE,
    "ink": INK, "indigo": INDIGO, "wine": WINE, "olive": OLIVE, "teal": TEAL, "muted": MUTED, "grid": GRID,
    "grey-fill": GREY_FILL, "blue-fill": BLUE_FILL, "green-fill": GREEN_FILL, "dark-background": DARK_BACKGROUND,
}

# The figures' twins for the site's dark palette (Material's slate): the figure build writes a second SVG
# of every figure with each colour here swapped for its twin, white shapes (the backgrounds, a legend's
# box) in the page's own background, and text that had no colour (black) in the twin of INK. The
# twins of the darkest colours are lighter, picked so that the colours one figure shows still stay
# apart for colour-blind readers (tests/test_palette.py); the others hold on both backgrounds as they are.
DARK: dict[str, str] = {
    INK: "#e6e6e6", INDIGO: "#7d7de8", WINE: "#f7856e",
    MUTED: "#6b7280", GRID: "#9ca3af", GREY_FILL: "#30343f", BLUE_FILL: "#1b3347", GREEN_FILL: "#173b33",
    "#cccccc": "#4b5060",  # matplotlib's legend frame
}

# Heatmaps (drawn as pixels, which the dark twin cannot recolour): one map for amounts from zero up (a
# weight, a 0/1 mask) and one for signed values around zero. Both are dark at zero, so a heatmap is not
# a bright block on the dark palette (tests/test_looks_browser.py), and both stay legible to colour-blind
# readers: viridis (matplotlib's default map, perceptually uniform; more is brighter) and Crameri's
# "berlin" (matplotlib 3.10 on; negative is blue, positive red, zero near black).
COLOUR_MAPS: dict[str, str] = {"amount": "viridis", "signed": "berlin"}

# The colours a figure without its own picks through, in order (matplotlib's default cycle otherwise):
# the Okabe–Ito ones first.
CYCLE = (BLUE, ORANGE, GREEN, RED, PURPLE, LIGHT_BLUE, INK, INDIGO, WINE, OLIVE, TEAL)


@dataclass(frozen=True)
class Look:
    """How one scheme or method is drawn on every page: its colour, marker and dash."""

    colour: str
    marker: str
    dash: str | tuple
    hollow: bool = False  # a variant of another look: the same colour and marker, unfilled

    def line(self, **overrides) -> dict:
        """Keyword arguments for `ax.plot` (`color`, `marker`, `ls`; `mfc` when hollow), `overrides` on top."""
        return {"color": self.colour, "marker": self.marker, "ls": self.dash,
                **({"mfc": "none"} if self.hollow else {}), **overrides}


# The five ways a model is told word order (lessons positional, rope, alibi; the measured study).
SCHEME_LOOKS: dict[str, Look] = {
    "rope": Look(BLUE, "o", "-"),
    "sinusoidal": Look(ORANGE, "s", "--"),
    "learned": Look(PURPLE, "^", "-."),
    "alibi": Look(GREEN, "D", ":"),
    "nope": Look(RED, "v", (0, (5, 1, 1, 1))),
}

# The ways a RoPE model is stretched past its trained length (lesson context_extension; the measured
# study). "none", RoPE as trained, is drawn as RoPE.
METHOD_LOOKS: dict[str, Look] = {
    "none": SCHEME_LOOKS["rope"],
    "linear": Look(LIGHT_BLUE, "X", (0, (6, 2))),
    "ntk": Look(INK, "P", "--"),
    "dynamic": Look(INDIGO, "*", (0, (1, 1))),
    "yarn": Look(WINE, "h", "-."),
    "llama3": Look(OLIVE, "d", ":"),
    "longrope": Look(TEAL, "p", (0, (3, 1, 1, 1, 1, 1))),
}

# Figure text a reader can read on a desktop and on a phone. A figure is shown at its natural size (a
# point is 4/3 px) or shrunk to the text column, whichever is smaller; the column is about 688 px at a
# 1280 px desktop and 358 px on a 390 px phone (site_build/layout.py, SCREENS). Text must render at
# 11 px and 8 px there, so in a figure W points wide it needs at least max(11 * 3/4, 8 * W / 358) pt:
# 8.25 pt up to 4.97 in, 10.3 pt at 6.4 in. So no figure is wider than 6.4 in (several panels
# stack, or take two columns at most), no text is smaller than 10.5 pt (TEXT_SIZE; lessons pass no
# smaller size), and no label uses a mathtext sub- or superscript (drawn at 0.7 of its size). Log axes
# get plain labels (1, 10, 1k, 1M, 0.01: `PlainLogFormatter`) instead of 10^k. tests/test_figure_text.py
# measures every built SVG against both floors.
TEXT_SIZE = 10.5  # points: ticks, legends, annotations; labels and titles 11

# matplotlib settings every figure gets (figures_build applies them before a lesson draws, and the
# notebooks' kernel at its start: `install()`): the cycle above, and the text sizes above.
RC: dict[str, object] = {
    "axes.prop_cycle": f"cycler('color', {list(CYCLE)!r})",
    "font.size": 11,
    "axes.titlesize": 11,
    "axes.labelsize": 11,
    "figure.titlesize": 11,
    "legend.fontsize": TEXT_SIZE,
    "legend.title_fontsize": TEXT_SIZE,
    "xtick.labelsize": TEXT_SIZE,
    "ytick.labelsize": TEXT_SIZE,
}


def plain_number(value: float) -> str:
    """A tick value as plain text, no superscript: 1, 10, 100, 1k, 32k, 1M, 4,096, 1e9, 0.01, 1e-8."""
    if value == 0:
        return "0"
    if 1e-3 <= abs(value) < 1:
        return f"{value:.3g}"
    if 1 <= abs(value) < 1e9:
        for size, suffix in ((10**6, "M"), (10**3, "k")):
            if abs(value) >= size and float(value / size).is_integer():
                return f"{value / size:.0f}{suffix}"
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.3g}"
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"


def _log_scale():
    """matplotlib's log scale with `PlainLogFormatter` labels (built on first use: matplotlib is imported
    only by the code that draws)."""
    from matplotlib.scale import LogScale
    from matplotlib.ticker import LogFormatter

    class PlainLogFormatter(LogFormatter):
        """A log axis's tick labels in plain numbers (`plain_number`), where matplotlib writes 10^k in
        mathtext, whose exponent is drawn at 0.7 of the label's size."""

        def _num_to_string(self, x, *_view):  # the view interval: not needed
            return plain_number(x)

    class PlainLogScale(LogScale):
        def set_default_locators_and_formatters(self, axis):
            super().set_default_locators_and_formatters(axis)
            axis.set_major_formatter(PlainLogFormatter(self.base))
            axis.set_minor_formatter(PlainLogFormatter(self.base, labelOnlyBase=self.subs is not None))

    return PlainLogScale


def legend_beside(ax, width: int = 16):
    """A legend beside the axes, off the data, each label wrapped at `width` characters so that the
    axes keep most of a narrow figure's width; the figure's layout makes room for it."""
    import textwrap

    handles, labels = ax.get_legend_handles_labels()
    return ax.legend(handles, [textwrap.fill(label, width) for label in labels], loc="upper left",
                     bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)


def install() -> None:
    """The site's figure style for whatever draws next in this process: `RC`, and every log axis
    (`set_yscale("log")`, `semilogy`, `loglog`) labelled in plain numbers."""
    import matplotlib
    from matplotlib.scale import register_scale

    matplotlib.rcParams.update(RC)
    register_scale(_log_scale())


def css_variables() -> str:
    """The palette as CSS for the site's stylesheet: `:root { --primer-blue: #0072b2; ...;
    --primer-scheme-rope: ...; --primer-method-yarn: ... }`, each colour by name and each scheme's
    and method's look colour, then the same names with their dark twins under Material's slate."""
    def block(selector: str, swap) -> str:
        lines = [f"  --primer-{name}: {swap(value)};" for name, value in COLOURS.items()]
        lines += [f"  --primer-scheme-{name}: {swap(look.colour)};" for name, look in SCHEME_LOOKS.items()]
        lines += [f"  --primer-method-{name}: {swap(look.colour)};" for name, look in METHOD_LOOKS.items()]
        return selector + " {\n" + "\n".join(lines) + "\n}\n"

    return block(":root", lambda c: c) + block('[data-md-color-scheme="slate"]', lambda c: DARK.get(c, c))
