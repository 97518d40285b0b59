"""Pages a reader can see, measured in Chromium at a phone's width (390 px) and a desktop's
(1280 px): nothing is cut off at the right edge, and no figure is a white block in the dark
palette. (Figure and diagram text sizes have their own checks beside the figures' and
diagrams' other checks.)"""

from __future__ import annotations

import io

import pytest

from site_build.pages import SOURCE_LISTING
from site_build.postbuild.heights import DRAW_EVERY_BOX
from tests import browser
from tests.test_browser import PAGES

pytestmark = pytest.mark.browser

WIDTHS = (390, 1280)
SCROLL_CUE = "gradient"  # site.css draws a shadow on the edge of a box that has more to show
# A module's code as written, which may scroll: the code behind a lesson page, an API entry's source and signature.
SOURCE_LISTINGS = f".{SOURCE_LISTING}, .mkdocstrings-source, .doc-signature"

# What sticks out at the right, on the page as drawn (every section box drawn): the page itself
# scrolling sideways; a box that clips what it holds; a scroll box wider than its column without a tab
# stop or its shadow; any
# element reaching past the text column (with its margin) outside a scroll box. At 1280 px also every code example
# and display formula that scrolls at all (a source listing may: it is the code as written).
CUT_OFF = """
(desktop) => {
  // the text column's box: Material lets code blocks and tables bleed into its margin
  const article = document.querySelector(".md-content__inner");
  const edge = document.querySelector(".md-content").getBoundingClientRect().right + 1;
  const name = el => el.tagName.toLowerCase() + (el.className && typeof el.className === "string"
    ? "." + el.className.trim().split(/\\s+/).slice(0, 2).join(".") : "");
  const text = el => (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 60);
  const found = [];
  const page = document.documentElement.scrollWidth;
  if (page > innerWidth + 1) found.push(`the page scrolls sideways: ${page} px in a ${innerWidth} px window`);
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_ELEMENT, { acceptNode(el) {
    const style = getComputedStyle(el);
    if (style.display === "none") return NodeFilter.FILTER_REJECT;
    const box = el.getBoundingClientRect();
    // hidden on purpose: a copy for screen readers clipped to a pixel (KaTeX's MathML)
    if (style.position === "absolute" && box.width <= 1 && box.height <= 1) return NodeFilter.FILTER_REJECT;
    if (/(auto|scroll|hidden|clip)/.test(style.overflowX)) {
      const over = el.scrollWidth - el.clientWidth;
      if (over > 1 && /(hidden|clip)/.test(style.overflowX)) {
        found.push(`${name(el)} cuts off ${over} px: "${text(el)}"`);
      } else if (over > 1) {
        if (!el.hasAttribute("tabindex"))
          found.push(`${name(el)} scrolls ${over} px with no tab stop: "${text(el)}"`);
        if (!style.backgroundImage.includes("%CUE%"))
          found.push(`${name(el)} scrolls ${over} px and does not show it: "${text(el)}"`);
        const example = el.matches("pre > code") && !el.closest("%LISTINGS%");
        if (desktop && (example || el.matches("div.arithmatex")))
          found.push(`${name(el)} does not fit the column at ${innerWidth} px (${over} px more): "${text(el)}"`);
      }
      if (box.right > edge) found.push(`${name(el)} reaches past the column: "${text(el)}"`);
      return NodeFilter.FILTER_REJECT;  // what it holds is inside a scroll box
    }
    if (box.width && box.right > edge) {
      found.push(`${name(el)} reaches ${Math.round(box.right - edge)} px past the column: "${text(el)}"`);
      return NodeFilter.FILTER_REJECT;
    }
    return NodeFilter.FILTER_ACCEPT;
  }});
  while (walker.nextNode());
  return found;
}
""".replace("%CUE%", SCROLL_CUE).replace("%LISTINGS%", SOURCE_LISTINGS)


@pytest.fixture(scope="module", params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def sized_page(request, chromium):
    """One page at a phone's or a desktop's width, shared by the checks at that width."""
    context = chromium.new_context(viewport={"width": request.param, "height": 844 if request.param < 800 else 800})
    yield context.new_page()
    context.close()


def _open(page, base: str, path: str) -> None:
    page.goto(base + path, wait_until="load")
    page.evaluate(browser.WAIT_RENDERED)
    page.evaluate("() => document.fonts.ready")
    page.add_style_tag(content=DRAW_EVERY_BOX)
    page.evaluate("() => dispatchEvent(new Event('resize'))")  # math.js measures the boxes now drawn


@pytest.mark.parametrize("path", PAGES)
def test_nothing_is_cut_off_at_the_right_edge(sized_page, site, path):
    page = sized_page
    _open(page, site, path)
    width = page.viewport_size["width"]
    found = page.evaluate(CUT_OFF, width >= 1280)
    assert not found, f"{path} at {width} px:\n" + "\n".join(found[:15])


LESSON_PAGES = [p for p in PAGES if p.startswith(("lessons/", "papers/", "labs/"))]
WHICH_OUTPUT = "e => `notebook output ${[...document.querySelectorAll('.jp-OutputArea-output svg')].indexOf(e) + 1}`"
DARK_MEAN = 0.5  # a figure's mean brightness (0 black, 1 white) in the dark palette stays under this


def _mean_brightness(png: bytes) -> float:
    """The mean of a screenshot's pixels' brightness (Rec. 709 luma of sRGB, 0 to 1)."""
    from matplotlib import image

    pixels = image.imread(io.BytesIO(png), format="png")[..., :3]
    return float((pixels @ [0.2126, 0.7152, 0.0722]).mean())


@pytest.mark.parametrize("path", LESSON_PAGES)
def test_no_figure_is_a_white_block_in_the_dark_palette(page_in_the_dark, site, path):
    page = page_in_the_dark
    page.goto(site + path, wait_until="load")
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    page.evaluate(browser.LOAD_EVERY_IMAGE)
    figures = page.locator(".md-content img:visible, .md-content .jp-OutputArea-output svg:visible")
    bright = []
    for i in range(figures.count()):
        figure = figures.nth(i)
        mean = _mean_brightness(figure.screenshot())
        if mean >= DARK_MEAN:
            where = figure.get_attribute("src") or figure.evaluate(WHICH_OUTPUT)
            bright.append(f"{where}: mean brightness {mean:.2f}")
    assert not bright, f"{path}: figures that stay bright in the dark palette:\n" + "\n".join(bright)


@pytest.fixture(scope="module")
def page_in_the_dark(chromium):
    """A page whose reader's system prefers the dark palette (Material follows it)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    yield context.new_page()
    context.close()
