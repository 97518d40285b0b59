"""Pages a reader can see, measured in Chromium at a phone's width (390 px) and a desktop's
(1280 px): nothing is cut off at the right edge, no figure is a white block in the dark
palette, and the text of every figure and diagram (and a lab's printed tables) is legible
at the size it is drawn."""

from __future__ import annotations

import io
import re

import pytest

from project.reading import fences
from site_build.layout import SCREENS
from site_build.pages import SOURCE_LISTING
from site_build.visibility.heights import DRAW_EVERY_BOX
from harness.browser import LOAD_EVERY_IMAGE, WAIT_RENDERED
from tests import browser
from tests.conftest import PAGES as PAGE_MODULES, PAPERS, SLUGS
from tests.test_browser import LABS, PAGES, ROOT

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
    page.evaluate(WAIT_RENDERED)
    page.evaluate("() => document.fonts.ready")
    page.add_style_tag(content=DRAW_EVERY_BOX)
    page.evaluate(browser.FONTS_SETTLED)  # a box drawn now sets its formulas in their own fonts
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
    page.evaluate(LOAD_EVERY_IMAGE)
    figures = page.locator(".md-content img:visible, .md-content .jp-OutputArea-output svg:visible")
    bright = []
    for i in range(figures.count()):
        figure = figures.nth(i)
        mean = _mean_brightness(figure.screenshot())
        if mean >= DARK_MEAN:
            where = figure.get_attribute("src") or figure.evaluate(WHICH_OUTPUT)
            bright.append(f"{where}: mean brightness {mean:.2f}")
    assert not bright, f"{path}: figures that stay bright in the dark palette:\n" + "\n".join(bright)


CODE_CELL_BACKGROUNDS = """() => [...document.querySelectorAll(
    '.jp-Notebook :is(.jp-InputArea-editor, .highlight-ipynb, .highlight-ipynb pre)')]
    .map(e => getComputedStyle(e).backgroundColor)"""


@pytest.mark.parametrize("path", [p for p in PAGES if p.startswith(("labs/", "notebooks/"))])
def test_a_notebooks_code_cells_are_dark_in_the_dark_palette(page_in_the_dark, site, path):
    """Issue 43: the labs' code cells were light grey boxes (rgb 245, 245, 245) on the dark page."""
    page = page_in_the_dark
    page.goto(site + path, wait_until="load")
    backgrounds = page.evaluate(CODE_CELL_BACKGROUNDS)
    assert backgrounds, f"{path}: no code cell found"

    def luma(css: str) -> float:
        red, green, blue = (float(v) for v in re.findall(r"[\d.]+", css)[:3])
        return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255

    light = sorted({b for b in backgrounds if "rgba(0, 0, 0, 0)" != b and luma(b) >= DARK_MEAN})
    assert not light, f"{path}: code cells with a light background in the dark palette: {light}"


@pytest.fixture(scope="module")
def page_in_the_dark(chromium):
    """A page whose reader's system prefers the dark palette (Material follows it)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    yield context.new_page()
    context.close()


# ---------------------------------------------------------------------------
# Text a reader can read: figures, diagrams, a lab's printed tables
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("width", [390, 1280])
def test_a_labs_printed_output_keeps_its_lines_whole_and_scrolls_by_keyboard(chromium, site, width):
    """A lab's printed tables are not broken mid-number (nbconvert's CSS breaks output lines
    anywhere): a line wider than the column scrolls sideways, and such an output has a tab stop."""
    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{site}labs/{LABS[0]}/", wait_until="load")
        page.evaluate(WAIT_RENDERED)
        outputs = page.eval_on_selector_all(".jp-OutputArea-output pre", """els => els.map(e => {
            const style = getComputedStyle(e);
            return [style.whiteSpace, style.wordBreak, e.scrollWidth > e.clientWidth, e.getAttribute("tabindex")];
        })""")
        assert outputs, f"labs/{LABS[0]}/ prints no output"
        assert all(space == "pre" and word == "normal" for space, word, _, _ in outputs), outputs
        assert all(tab == "0" for _, _, scrolls, tab in outputs if scrolls), f"a scrolling output without a tab stop at {width}px"
        if width == 390:
            assert any(scrolls for _, _, scrolls, _ in outputs), "at 390 px some printed table is wider than the column"
    finally:
        context.close()


# The smallest text a diagram may show, at its rendered size: 12 px on a desktop (1280 × 800, issue 25),
# on a phone (390 × 844) a figure's floor, 10 px (site_build/layout.py, SCREENS; issue 43). A wide diagram
# keeps it by not shrinking below its min-width there: it scrolls sideways in its box (the cut-off test
# above holds such a box to a tab stop and the scroll cue).
PHONE = SCREENS[-1]
DIAGRAM_FLOORS = {(1280, 800): 12.0, PHONE.viewport: PHONE.floor}


def _diagram_sources() -> dict[str, list[str]]:
    """Every page with a ```mermaid fence (lesson, paper companion, docs page) -> its diagrams'
    sources, in page order: the pages the built site must show them on."""
    pages = {f"{module.package}/{module.slug}/": [text for _, text in fences(module.docstring, "mermaid")]
             for module in PAGE_MODULES}
    for file in sorted((ROOT / "docs").rglob("*.md")):
        address = file.relative_to(ROOT / "docs").with_suffix("").as_posix()
        address = "" if address == "index" else address.removesuffix("/index") + "/"
        pages[address] = [text for _, text in fences(file.read_text(encoding="utf-8"), "mermaid")]
    return {address: sources for address, sources in pages.items() if sources}


@pytest.mark.parametrize("viewport", list(DIAGRAM_FLOORS), ids=lambda v: f"{v[0]}px")
def test_every_diagrams_labels_are_legible_and_their_maths_typeset_by_katex(chromium, site, viewport):
    """Every diagram on every page, at a desktop's and a phone's width: its smallest text (a label,
    or a subscript in its maths) at the size it is drawn is at least the floor, and each `$$...$$`
    of its source is KaTeX's HTML, as the prose's maths is (no raw TeX), in its label's colour."""
    floor = DIAGRAM_FLOORS[viewport]
    sources = _diagram_sources()
    assert sources, "no page has a diagram"
    context = chromium.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    problems = []
    try:
        for address, texts in sources.items():
            page.goto(site + address, wait_until="load")
            page.evaluate(WAIT_RENDERED)
            page.add_style_tag(content=DRAW_EVERY_BOX)  # the sections a reader has not reached yet, laid out
            drawn = page.evaluate(browser.DIAGRAM_TEXT)
            if len(drawn) != len(texts) or None in drawn:
                problems.append(f"{address}: {len(texts)} diagrams in the source, {len(drawn)} drawn")
                continue
            for number, (text, facts) in enumerate(zip(texts, drawn, strict=True), 1):
                name = f"{address} diagram {number} ({text.strip().splitlines()[1].strip()[:40]}...)"
                if facts["smallest"] < floor:
                    problems.append(f"{name}: text {facts['smallest']:.1f} px ({facts['smallestText']!r}) at "
                                    f"{viewport[0]} px, under {floor:g} px: {facts['viewWidth']:.0f} units "
                                    f"drawn {facts['width']:.0f} px wide")
                maths = text.count("$$") // 2
                if facts["katexHtml"] != maths or facts["rawMath"]:
                    problems.append(f"{name}: {maths} formulas in its labels, {facts['katexHtml']} typeset by KaTeX"
                                    + (f"; raw TeX shown: {facts['rawMath']}" if facts["rawMath"] else ""))
                if facts["mathPartsHidden"]:
                    problems.append(f"{name}: maths with a part not drawn (a root sign?): {facts['mathPartsHidden']}")
                if facts["mathOffColour"]:
                    problems.append(f"{name}: maths not in its label's colour (lost in the other palette): "
                                    f"{facts['mathOffColour']}")
    finally:
        context.close()
    assert not problems, "\n".join(problems)


# Each figure a page shows, as the reader sees it: its smallest text (from the SVG it loaded: currentSrc), its viewBox
# width and its rendered width; and the text column's width (.md-content__inner's content box).
FIGURE_TEXT = """
async () => {
  const inner = document.querySelector(".md-content__inner");
  const style = getComputedStyle(inner);
  const column = inner.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const figures = [];
  for (const img of document.querySelectorAll("article img.primer-figure, article .jp-RenderedSVG img")) {
    if (!img.checkVisibility()) continue;  // the twin of the other palette
    img.scrollIntoView({ block: "center" });  // a section the reader has not reached is not laid out
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    await img.decode().catch(() => {});  // loaded: currentSrc is the file the <picture> picked for this screen
    const svg = await (await fetch((img.currentSrc || img.src).split("#")[0])).text();
    const sizes = [...svg.matchAll(/font(?:-size)?:\\s*([0-9.]+)px/g)].map(m => parseFloat(m[1]));
    const viewBox = svg.match(/viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) /);
    const src = img.src.startsWith("data:") ? `notebook figure ${figures.length + 1}` : img.currentSrc.split("/").pop();
    figures.push({ src, smallest: Math.min(...sizes),
                   viewBox: viewBox ? parseFloat(viewBox[1]) : NaN, width: img.getBoundingClientRect().width });
  }
  return { column, figures };
}
"""
FIGURE_PAGES = ([f"lessons/{slug}/" for slug in SLUGS] + [f"papers/{paper.slug}/" for paper in PAPERS]
                + [f"labs/{lab}/" for lab in LABS] + ["notebooks/playground/"])  # a notebook's figures: base64 SVG


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.name)
def test_figure_text_renders_at_the_floor_on_every_page(chromium, site, screen):
    """At 1280x800 and 390x844, on every lesson, companion, lab and Playground page, the smallest text
    of each figure the reader sees (on a phone its phone rendition, where the <picture> offers one), at the
    width the figure is drawn, is at least 11 px (desktop) or 10 px (phone: a notebook's figure, one inline SVG,
    is drawn narrow enough for both, labs._lab.FIGURE_WIDTH, tests/test_notebook_figures.py);
    and the text column is as wide as site_build/layout.py's SCREENS says (tests/test_figure_text.py relies
    on it)."""
    width, height = screen.viewport
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    problems, seen = [], 0
    try:
        for path in FIGURE_PAGES:
            page.goto(site + path, wait_until="load")
            facts = page.evaluate(FIGURE_TEXT)
            if abs(facts["column"] - screen.column) > 1:
                problems.append(f"{path}: the text column is {facts['column']:.1f} px, SCREENS says {screen.column}")
            for figure in facts["figures"]:
                seen += 1
                px = figure["smallest"] * figure["width"] / figure["viewBox"]
                if not px >= screen.floor:
                    problems.append(f"{path}: {figure['src']}: smallest text {figure['smallest']:g} drawn "
                                    f"{figure['width']:.0f} px wide of {figure['viewBox']:g}: "
                                    f"{px:.2f} px < {screen.floor:g}")
    finally:
        context.close()
    assert seen >= len(SLUGS), f"only {seen} figures seen"
    assert not problems, f"{screen.name} ({width}x{height}):\n" + "\n".join(problems)
