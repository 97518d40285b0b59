"""The layout the figures are held to, and stylesheets/layout.css and javascripts/layout.js,
generated into the site: `stylesheet()` is the palette as custom properties, the figures' rules
(`FIGURE_CSS`) and content-visibility's rules (site_build/visibility/bands.py, whose layout bands
are Material's breakpoints), `files()` both files (layout.js is the bands', for math.js).

`SCREENS` are the two screens a figure's text is held to (11 px at 1280 px,
10 px at 390 px: tests/test_figure_text.py on the SVGs, tests/test_looks_browser.py on
the pages), with the text column measured there; `phone_width` the width the figure build
draws a figure's phone rendition at (figures_build/phone.py), served below `PHONE_MEDIA`;
and `FIGURE_CSS` the figures' rules (centred, never wider than the column unless wide, the
lightbox).
"""

from __future__ import annotations

from dataclasses import dataclass
import re

from site_build.visibility.bands import BANDS, em, media, script, stylesheet_rules

STYLESHEET = "stylesheets/layout.css"
SCRIPT = "javascripts/layout.js"

# How many characters of code one line of a page's code block holds at the widest band (1280 px):
# 80 measured in Chromium (DejaVu Sans Mono at Material's code size, 8.18 px a character, in the
# 688 px text column less the block's padding), one kept spare. tests/test_format.py holds the
# pages' examples to it; the browser tests measure the rendered blocks themselves.
CODE_COLUMNS = 79


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
SCREENS = (Screen("desktop", (1280, 800), 688, 11, 688 + 242), Screen("phone", (390, 844), 358, 10, 358))
# The lightbox link of each figure (site_build/markdown/figures.py makes it, as mkdocs-glightbox would):
# the enlarged figure's box is the window less a margin for the arrows (FIGURE_CSS fits the figure in it).
LIGHTBOX = {"data-type": "image", "data-width": "88vw", "data-height": "88vh", "data-desc-position": "bottom"}
# Where a page shows a figure's phone rendition (<picture>'s <source>): Material's phone band, below 45em.
PHONE_MEDIA = media(BANDS[0])


def figure_text_px(size: float, viewbox_width: float, screen: Screen) -> float:
    """The rendered px of text `size` (viewBox units: matplotlib's points) in a figure `viewbox_width`
    points wide, shown at its natural size (4/3 px a point) or shrunk to the screen's column (or its
    wider area, for a wide figure)."""
    natural = viewbox_width * 4 / 3
    shown = min(natural, screen.wide if is_wide(viewbox_width) else screen.column)
    return size * shown / viewbox_width


def phone_width(smallest: float) -> float:
    """The width in points (a whole number of tenths of an inch) of a figure's phone rendition: the
    widest at which its smallest text, `smallest` points, still renders at the phone's floor in the
    phone's column. 10.5 pt text: 5.2 in (374.4 pt), 10.04 px."""
    phone = SCREENS[-1]
    return int(smallest * phone.column / phone.floor / 7.2) * 7.2


_SIZE = re.compile(rb"font(?:-size)?:\s*([0-9.]+)px")
_VIEWBOX = re.compile(rb'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"')


def text_sizes(svg: bytes) -> tuple[float, float] | None:
    """(the smallest font size of a matplotlib SVG's text, its viewBox width), both in viewBox units
    (matplotlib writes each text's size in the style of its <text> or <tspan>: `font-size: 9px`, or
    `font: 9px ...`); None for an SVG without text or a viewBox."""
    width = _VIEWBOX.search(svg)
    sizes = [float(s) for s in _SIZE.findall(svg)]
    return (min(sizes), float(width.group(1))) if width and sizes else None


def is_wide(viewbox_width: float) -> bool:
    """A figure wider at its natural size than the desktop column: it may break out of it (FIGURE_CSS)."""
    return viewbox_width * 4 / 3 > SCREENS[0].column + 0.5


# The figures of lesson and companion pages (site_build/markdown/links.py gives each its classes).
FIGURE_CSS = f"""/* Figures: white-backed SVGs, centred, never wider than the text column; one whose natural width
   is over the desktop column (primer-wide) may also take the right sidebar's width, where there is one. */
.md-typeset img.primer-figure {{ display: block; margin: 1em auto; max-width: 100%; height: auto; border-radius: 4px; }}
@media screen and (min-width: {em(BANDS[-1].min_em)}) {{
  .md-typeset img.primer-figure.primer-wide {{ max-width: calc(100% + {(SCREENS[0].wide - SCREENS[0].column) / 20:g}rem);
    position: relative; z-index: 1; }}
}}
/* Tap or click to enlarge (mkdocs-glightbox): only the twin the palette shows can be clicked or tabbed
   to, and the figure it opens fills the window, keeping its shape. */
[data-md-color-scheme="default"] a.glightbox:has(img[src$="#only-dark"]),
[data-md-color-scheme="slate"] a.glightbox:has(img[src$="#only-light"]) {{ display: none; }}
/* A figure and its caption (site_build/markdown/figures.py): the number in bold, the caption in the
   body's size, a little apart from the figure. */
.md-typeset figure.primer-figure-box {{ margin: 1em 0; }}
.md-typeset figure.primer-figure-box > figcaption {{ max-width: none; margin: 0.4em 0 0; font-style: normal; text-align: left; }}
.md-typeset figure.primer-figure-box > figcaption > p {{ margin: 0; }}
.md-typeset .primer-figure-number {{ font-weight: 700; }}
.glightbox-container .gslide-image img {{ max-width: none; max-height: none; object-fit: contain; }}
"""


def stylesheet(css_variables: str = "") -> str:
    """stylesheets/layout.css: the palette (`css_variables`, the built project's palette as CSS custom
    properties, read by the content snapshot; empty for a project without one), the figures' rules,
    and each band's stand-in height for a skipped section body (content-visibility's rules)."""
    lines = ["/* Generated by site_build/layout.py; edit it there. */", css_variables.rstrip(), "", FIGURE_CSS,
             *stylesheet_rules()]
    return "\n".join(lines) + "\n"


def files(css_variables: str = "") -> dict[str, bytes]:
    """{site path: bytes}: what the build writes from this module (the palette's `css_variables` in
    the stylesheet)."""
    return {STYLESHEET: stylesheet(css_variables).encode(), SCRIPT: script().encode()}
