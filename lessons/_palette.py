"""The site's figure colours, in one place: every figure of every lesson, paper
companion and lab draws from these names, and the site's stylesheet gets the same
values from `css_variables()`. No other module writes a colour as a hex literal
(tests/test_palette.py), so a colour cannot drift between two pages.

The lines are Tailwind's 600 shades, dark enough on the white figure background
and distinct from one another in lightness too, so that a figure still reads
without colour (each scheme also has its own marker and dash).
"""

from __future__ import annotations

BLUE = "#2563eb"  # the first scheme or series of a figure (sinusoidal, RoPE's rotated vector, a query)
LIGHT_BLUE = "#60a5fa"  # a lighter partner of BLUE (the second half of a pair)
RED = "#dc2626"  # the contrasting series: what goes wrong, the unscaled baseline
GREEN = "#16a34a"  # the third series: what works, the kept pairs
ORANGE = "#ea580c"
PURPLE = "#9333ea"
AMBER = "#d97706"
INK = "#111827"  # text-dark lines and arrows
MUTED = "#9ca3af"  # de-emphasised data: the other pairs, a faint background series
GRID = "#6b7280"  # reference lines: y = 1, a trained length, a boundary
GREY_FILL = "#e5e7eb"  # shaded bands behind the data
BLUE_FILL = "#dbeafe"
GREEN_FILL = "#dcfce7"

COLOURS: dict[str, str] = {
    "blue": BLUE, "light-blue": LIGHT_BLUE, "red": RED, "green": GREEN, "orange": ORANGE, "purple": PURPLE,
    "amber": AMBER, "ink": INK, "muted": MUTED, "grid": GRID, "grey-fill": GREY_FILL, "blue-fill": BLUE_FILL,
    "green-fill": GREEN_FILL,
}


def css_variables() -> str:
    """The palette as a CSS block, `:root { --primer-blue: #2563eb; ... }`, for the site's stylesheet."""
    lines = [f"  --primer-{name}: {value};" for name, value in COLOURS.items()]
    return ":root {\n" + "\n".join(lines) + "\n}\n"
