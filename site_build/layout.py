"""The theme's layout bands and the figure palette, written once and generated
into the site: `stylesheet()` becomes `stylesheets/layout.css` (the palette as
custom properties, and the `contain-intrinsic-height` rule of each band) and
`script()` becomes `javascripts/layout.js` (the bands, for math.js). The
section-height measurement (postbuild/heights.py) measures at each band's width.

The bands are Material's breakpoints (45em, 60em, 76.25em: the `min-width`
queries of material/templates/assets/stylesheets/main.57a0d79d.min.css in
mkdocs-material 9.8.2; tests/test_visibility.py reads the installed one):
below 45em the phone layout, then the tablet (no sidebar), the screen
(navigation sidebar) and the wide layout (both sidebars). Above 100em and 125em
the theme scales its type by 137.5/125 and 150/125 (its `html { font-size }`
rules), so the widest band's height is scaled the same way there.

`SCREENS` are the two screens a figure's text is held to (11 px at 1280 px,
8 px at 390 px: tests/test_figure_text.py on the SVGs, tests/test_browser.py on
the pages), with the text column measured there, and `FIGURE_CSS` the figures'
rules (centred, never wider than the column unless wide, the lightbox).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

STYLESHEET = "stylesheets/layout.css"
SCRIPT = "javascripts/layout.js"


@dataclass(frozen=True)
class Band:
    name: str  # the letter of its custom property: --cv-n, --cv-t, ...
    width: int  # px: the viewport width the build measures it at
    min_em: float  # where it starts (0: from the narrowest screen)


BANDS = (Band("n", 390, 0), Band("t", 800, 45), Band("s", 1100, 60), Band("w", 1280, 76.25))
TYPE_SCALE = ((100, 1.1), (125, 1.2))  # (min-width in em, factor): the theme's larger type
# How many characters of code one line of a page's code block holds at the widest band (1280 px):
# 80 measured in Chromium (DejaVu Sans Mono at Material's code size, 8.18 px a character, in the
# 688 px text column less the block's padding), one kept spare. tests/test_format.py holds the
# pages' examples to it; the browser tests measure the rendered blocks themselves.
CODE_COLUMNS = 79
# What inside a section body may be wider than the column and scroll sideways: display formulas
# and tables (Material wraps each table in a scroll box as the page loads; a model-card report wraps
# its own, .pmc-scroll). The height measurement
# records which do in each band (postbuild/heights.py), so math.js can give them a tab stop
# without laying out a skipped section; both read this one selector.
SCROLLING = "div.arithmatex, .md-typeset__scrollwrap, .pmc-scroll"


@dataclass(frozen=True)
class Screen:
    """A reader's screen the figures are held to: a figure is drawn at its natural size (72 pt = 96 px)
    or shrunk to `column`, and its smallest text must render at `floor` px or more."""

    name: str
    viewport: tuple[int, int]  # px: the window the browser test opens
    column: int  # px: the lesson page's text column there (.md-content__inner), measured in Chromium
    floor: float  # px: the smallest text a figure may render
    wide: int  # px: the most a wide figure (natural width over `column`) may take (FIGURE_CSS)


# The column: 1280 px less both sidebars (12.1rem each, at 20 px a rem) and the content's margins
# (1.2rem each side); 390 px less the content's margins (0.8rem each side). A wide figure may also
# take the right sidebar's width on a desktop (where there is one: 76.25em and up).
SCREENS = (Screen("desktop", (1280, 800), 688, 11, 688 + 242), Screen("phone", (390, 844), 358, 8, 358))


def figure_text_px(size: float, viewbox_width: float, screen: Screen) -> float:
    """The rendered px of text `size` (viewBox units: matplotlib's points) in a figure `viewbox_width`
    points wide, shown at its natural size (4/3 px a point) or shrunk to the screen's column (or its
    wider area, for a wide figure)."""
    natural = viewbox_width * 4 / 3
    shown = min(natural, screen.wide if is_wide(viewbox_width) else screen.column)
    return size * shown / viewbox_width


def is_wide(viewbox_width: float) -> bool:
    """A figure wider at its natural size than the desktop column: it may break out of it (FIGURE_CSS)."""
    return viewbox_width * 4 / 3 > SCREENS[0].column + 0.5


def _em(value: float) -> str:
    """45.0 -> '45em', 44.984375 -> '44.984375em' (exact: no rounding to 6 digits)."""
    return f"{value:.6f}".rstrip("0").rstrip(".") + "em"


def media(band: Band) -> str:
    """The media query of exactly this band: '(min-width: 45em) and (max-width: 59.984375em)'.
    A band ends 1/64 em below the next one starts, as Material's own queries do."""
    following = [b.min_em for b in BANDS if b.min_em > band.min_em]
    parts = [f"(min-width: {_em(band.min_em)})"] if band.min_em else []
    if following:
        parts.append(f"(max-width: {_em(min(following) - 1 / 64)})")
    return " and ".join(parts)


# The figures of lesson and companion pages (site_build/markdown/links.py gives each its classes).
FIGURE_CSS = f"""/* Figures: white-backed SVGs, centred, never wider than the text column; one whose natural width
   is over the desktop column (primer-wide) may also take the right sidebar's width, where there is one. */
.md-typeset img.primer-figure {{ display: block; margin: 1em auto; max-width: 100%; height: auto; border-radius: 4px; }}
@media screen and (min-width: {_em(BANDS[-1].min_em)}) {{
  .md-typeset img.primer-figure.primer-wide {{ max-width: calc(100% + {(SCREENS[0].wide - SCREENS[0].column) / 20:g}rem);
    position: relative; z-index: 1; }}
}}
/* Tap or click to enlarge (mkdocs-glightbox): only the twin the palette shows can be clicked or tabbed
   to, and the figure it opens fills the window, keeping its shape. */
[data-md-color-scheme="default"] a.glightbox:has(> img[src$="#only-dark"]),
[data-md-color-scheme="slate"] a.glightbox:has(> img[src$="#only-light"]) {{ display: none; }}
.glightbox-container .gslide-image img {{ max-width: none; max-height: none; object-fit: contain; }}
"""


def stylesheet(css_variables: str = "") -> str:
    """stylesheets/layout.css: the palette (`css_variables`, the built project's palette as CSS custom
    properties, read by the content snapshot; empty for a project without one), the figures' rules,
    and each band's stand-in height for a skipped section body."""
    rule = ".md-typeset .primer-cv[style] {{ {} }}"
    first, *rest = BANDS
    lines = ["/* Generated by site_build/layout.py; edit it there. */", css_variables.rstrip(), "", FIGURE_CSS,
             "/* Long pages: a section body the reader has not scrolled near is neither styled nor laid out",
             "   (content-visibility). Its stand-in height was measured at build time at each band's width",
             "   (site_build/postbuild/heights.py); a body without measured heights renders as usual. */",
             rule.format(f"content-visibility: auto; contain-intrinsic-height: auto var(--cv-{first.name});")]
    for band in rest:
        lines.append(f"@media screen and (min-width: {_em(band.min_em)}) {{ "
                     + rule.format(f"contain-intrinsic-height: auto var(--cv-{band.name});") + " }")
    widest = BANDS[-1].name
    for min_em, factor in TYPE_SCALE:
        lines.append(f"@media screen and (min-width: {_em(min_em)}) {{ "
                     + rule.format(f"contain-intrinsic-height: auto calc(var(--cv-{widest}) * {factor:g});") + " }")
    lines.append("@media print { " + rule.format("content-visibility: visible;") + " }")
    return "\n".join(lines) + "\n"


def script() -> str:
    """javascripts/layout.js: `window.primerBands`, [letter, media query] widest first, and
    `window.primerScrolling` (SCROLLING), for math.js."""
    bands = [[band.name, f"(min-width: {_em(band.min_em)})" if band.min_em else "all"] for band in reversed(BANDS)]
    return ("// Generated by site_build/layout.py; edit it there.\n"
            f"window.primerBands = {json.dumps(bands)};\n"
            f"window.primerScrolling = {json.dumps(SCROLLING)};\n")


def files(css_variables: str = "") -> dict[str, bytes]:
    """{site path: bytes}: what the build writes from this module (the palette's `css_variables` in
    the stylesheet)."""
    return {STYLESHEET: stylesheet(css_variables).encode(), SCRIPT: script().encode()}
