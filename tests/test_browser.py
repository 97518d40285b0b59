"""Every built page, opened in headless Chromium the way a reader sees it:
math typeset, diagrams drawn, figures loaded, nothing fetched from another
host, no console errors, no serious accessibility violations; plus search,
the dark palette, instant navigation and the 404 page. The page checks run on
the site served at the root and built for and served under a sub-path
(/primer/, as a project site is), and on the offline copy opened through file://."""

from __future__ import annotations

import re

import pytest

from harness.browser import OPEN_SHADOW_ROOTS, WAIT_RENDERED
from harness.server import serve
from tests import browser
from tests.projects import make_project
from site_build.build import BuildError
from site_build.pages import nav_title
from challenges import CHALLENGES
from tests.conftest import LESSONS, PAPERS, SLUGS

pytestmark = pytest.mark.browser

ROOT = browser.ROOT
TOOLS = sorted(p.stem for p in (ROOT / "lessons" / "tools").glob("*.py") if not p.name.startswith("_"))
DECODER = sorted(p.stem for p in (ROOT / "modelcard").glob("*.py") if not p.name.startswith("_"))
LABS = sorted(p.stem for p in (ROOT / "labs").glob("*.py") if not p.name.startswith("_"))
CHALLENGE_PAGES = [c.page.removesuffix(".md") + "/" for c in CHALLENGES]
PAGES = (["", "authoring/", "notebooks/playground/", "reference/config-keys/", "practitioner-track/", *CHALLENGE_PAGES]
         + [f"lessons/{slug}/" for slug in SLUGS] + [f"reference/api/{slug}/" for slug in SLUGS]
         + [f"reference/api/tools/{tool}/" for tool in TOOLS]
         + [f"reference/api/modelcard/{module}/" for module in DECODER] + ["reference/model-card-gallery/"]
         + [f"labs/{lab}/" for lab in LABS]
         + [f"papers/{paper.slug}/" for paper in PAPERS])
WHERE = ["/", "/primer/"]  # served at the root, or built for and served under a sub-path


@pytest.fixture
def served(request, where):
    """The base URL of the site served at `where`."""
    return request.getfixturevalue("site" if where == "/" else "subpath_site")


def _context(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(OPEN_SHADOW_ROOTS)
    return context


@pytest.fixture
def page(chromium):
    """A page in a context of its own: nothing cached, nothing stored (the palette a test picks)."""
    context = _context(chromium)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module")
def _shared_page(chromium):
    context = _context(chromium)
    yield context.new_page()
    context.close()


@pytest.fixture
def warm_page(_shared_page):
    """The one page the page checks share, each visit a new document: its cache and its
    renderer hold the scripts, styles and fonts every page loads, which a fresh context fetches
    and compiles again (a new context or a new tab is a cold renderer: about 0.6 s of each
    page's 0.9 s). It hides no broken address: a wrong one names another URL, which the cache
    does not hold. What a check stored (the palette it switched to) is cleared after it."""
    yield _shared_page
    browser.PageLog.detach_all(_shared_page)  # the next visit starts its own log
    _shared_page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")


def visit(page, base: str, path: str) -> browser.PageLog:
    log = browser.PageLog(page, base)
    page.goto(base + path, wait_until="load")
    return log


@pytest.mark.parametrize(("where", "path"), [(where, p) for where in WHERE for p in PAGES])
def test_page_renders_offline_without_errors(warm_page, served, where, path):
    """Every page at the root and under /primer/; at the root also no serious accessibility
    violation in either palette (axe-core, on the page as loaded: the /primer/ build differs
    from the root build only in its addresses)."""
    page = warm_page
    log = visit(page, served, path)
    problems = browser.check_page(page, log, f"{where}{path}")
    assert not problems, "\n".join(problems)
    if where == "/":
        _accessible_in_both_palettes(page, path)
    if path.startswith("lessons/"):
        facts = page.evaluate(browser.PAGE_FACTS)
        assert facts["math"] > 0 and facts["diagrams"] > 0 and facts["images"], (
            f"{path}: a lesson page shows math, at least one diagram and figures"
        )
        links = page.evaluate("""() => [...document.querySelectorAll("article p")]
            .filter(p => p.firstElementChild && p.firstElementChild.tagName === "STRONG"
                         && p.firstElementChild.textContent.trim() === "In code:")
            .flatMap(p => [...p.querySelectorAll("a[href*='reference/api/']")].map(a => a.href))""")
        assert links, f"{path}: the 'In code' lines link their functions to the API reference"
        target = page.eval_on_selector(".primer-skip a", "a => a.hash.slice(1)")
        assert page.locator(f"h2.primer-level-2[id='{target}']").count() == 1, f"{path}: 'Skip to Level 2' leads to it"
    if path.startswith(("labs/", "challenges/", "notebooks/")):
        # links written inside notebooks are not checked by MkDocs: follow every same-site link
        hrefs = page.eval_on_selector_all("article a[href]", "els => els.map(e => e.href)")
        local = sorted({h.split("#")[0] for h in hrefs if h.startswith(served)})
        broken = [h for h in local if page.request.get(h).status != 200]
        assert not broken, f"{path}: links that lead nowhere: {broken}"
    if path.startswith(("labs/", "notebooks/")):  # issue 43: the Playground printed 1.0000000000000002
        outputs = " ".join(page.eval_on_selector_all(".jp-OutputArea-output", "els => els.map(e => e.innerText)"))
        long_floats = re.findall(r"\d\.\d{10,}", outputs)
        assert not long_floats, f"{path}: printed floats not rounded: {long_floats[:5]}"
    if path.startswith("labs/"):
        lab = path.split("/")[1]
        assert any(h.endswith(f"{lab}.ipynb") for h in hrefs) and any(h.endswith(f"{lab}.py") for h in hrefs), (
            f"{path}: the lab links its .ipynb and .py downloads")
        assert page.locator("svg").count() > 0, f"{path}: the lab's figures are drawn (inline SVG)"
        alts = page.eval_on_selector_all("article img", "els => els.map(e => e.alt)")
        assert alts and all(alt.startswith("Figure: ") for alt in alts), (
            f"{path}: each figure is described by its own words, not nbconvert's default: {alts}")
    if path.startswith("reference/api/"):
        parts = path.split("/")[2:-1]  # reference/api/rope/ -> lessons.rope; .../modelcard/engines/ -> modelcard.engines
        module = ".".join(parts) if parts[0] == "modelcard" else "lessons." + ".".join(parts)
        entries = page.eval_on_selector_all(".doc-heading[id]", "els => els.map(e => e.id)")
        assert entries and all(e.startswith(f"{module}.") for e in entries), (
            f"{path}: the API page documents the lesson's functions, got {entries[:5]}")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_home_page_routes_three_readers_and_the_decoder_is_on_the_first_screen(chromium, site, width, height):
    """The home page's "Start here": three cards (practitioner, learner, implementer), whole in the
    window's width; the practitioner's card leads to the model-card decoder, whose button shows
    without scrolling; at 1280 px the cards sit side by side and the tabs are there."""
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(site, wait_until="load")
        cards = page.locator(".grid.cards > ul > li")
        assert cards.count() == 3, f"{cards.count()} cards"
        boxes = []
        for i in range(3):
            cards.nth(i).scroll_into_view_if_needed()
            assert cards.nth(i).is_visible(), f"card {i + 1} is hidden at {width}px"
            box = cards.nth(i).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"card {i + 1} is cut off at {width}px: {box}"
            boxes.append(page.evaluate("i => document.querySelectorAll('.grid.cards > ul > li')[i].getBoundingClientRect().top + scrollY", i))
        if width >= 1280:
            assert len({round(top) for top in boxes}) == 1, f"at {width}px the three cards are not side by side: {boxes}"
        page.evaluate("scrollTo(0, 0)")
        decoder = cards.nth(0).locator("a", has_text="Decode a config")
        assert decoder.count() == 1, "the first card (the practitioner's) leads to the decoder"
        box = decoder.bounding_box()
        assert box and box["y"] + box["height"] <= height, f"the decoder's button is below the first screen at {width}px: {box}"
        page.goto(decoder.evaluate("a => a.href"), wait_until="load")
        assert page.url.split("#")[0] == site + "lessons/model_card/" and page.locator("#model-card-decoder").count() == 1, (
            f"the decoder card leads to {page.url}, not the decoder")
        if width >= 1280:
            page.goto(site, wait_until="load")
            tabs = page.locator(".md-tabs__link")
            assert [t.strip() for t in tabs.all_inner_texts()] == ["Home", "Lessons", "Labs", "Papers", "Reference"]
            assert tabs.first.is_visible()
    finally:
        context.close()


def test_writing_a_lesson_is_in_reference_contributing_not_in_the_lessons_sidebar(page, site):
    """The contributors' page is out of the readers' sidebar: a lesson's sidebar shows the lessons
    and no *Writing a lesson*; the page itself sits under Reference → Contributing."""
    visit(page, site, f"lessons/{SLUGS[0]}/")
    sidebar = page.locator(".md-sidebar--primary .md-nav__link:visible")
    shown = [t.strip() for t in sidebar.all_inner_texts()]
    assert "Writing a lesson" not in shown and nav_title(LESSONS[0].title) in shown, shown
    visit(page, site, "authoring/")
    assert page.locator(".md-tabs__item--active").inner_text().strip() == "Reference"
    shown = [t.strip() for t in page.locator(".md-sidebar--primary .md-nav__link:visible").all_inner_texts()]
    assert "Contributing" in shown and "Writing a lesson" in shown, shown


def _accessible_in_both_palettes(page, path: str) -> None:
    """axe-core finds no serious violation in the light palette, then none of the rules that
    depend on colour in the dark one (the others see the same document in both)."""
    page.evaluate(WAIT_RENDERED)
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    assert scheme == "default", f"{path}: opened in the {scheme} palette, not the light one (state left by another test?)"
    violations = browser.axe_violations(page, f"{path} (light)")
    _toggle_palette(page)
    violations += browser.axe_violations(page, f"{path} (dark)", rules=browser.COLOUR_RULES)
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize("where", WHERE)
def test_search_finds_the_rope_lesson_by_rotary(page, served):
    """The lesson that teaches rotary embeddings is among the results for "rotary". (It was the
    positional lesson's RoPE section until the five lessons of issue 27 also named the word: of
    the 29 pages whose indexed text has it, Material's search then listed 14, without that one.)"""
    log = visit(page, served, "")
    _search_finds(page, "rotary", served + "lessons/rope/")
    assert not log.failures and not log.offsite(), f"search: {log.failures + log.offsite()}"


def test_searching_a_config_key_leads_first_to_where_it_is_explained(page, site):
    """The first result for a key the lessons name is the config-keys page (its meaning, and
    where it is taught), not a decoder gallery note that merely quotes the key."""
    visit(page, site, "")
    page.keyboard.press("s")
    page.keyboard.type("rope_scaling")
    first = page.locator(".md-search-result__item a").first
    first.wait_for(timeout=10000)
    page.wait_for_timeout(300)  # the results for the whole word, not for its first letters
    assert first.get_attribute("href").startswith(site + "reference/config-keys/"), first.get_attribute("href")


def _search_finds(page, query: str, wanted: str) -> None:
    page.evaluate(WAIT_RENDERED)
    page.keyboard.press("s")  # Material's shortcut: focus the search box
    page.keyboard.type(query)
    first = page.locator(".md-search-result__item a").first
    first.wait_for(timeout=10000)
    # Material renders results in batches as the list scrolls: scroll until the page
    # is listed or the list stops growing (every result shown)
    hrefs, unchanged = [], 0
    while unchanged < 5:
        shown = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
        unchanged = unchanged + 1 if len(shown) == len(hrefs) else 0
        hrefs = shown
        if any(h.startswith(wanted) for h in hrefs):
            break
        page.eval_on_selector(".md-search__scrollwrap", "el => el.scrollTo(0, el.scrollHeight)")
        page.wait_for_timeout(200)
    assert any(h.startswith(wanted) for h in hrefs), f"search for {query!r} found: {hrefs}"
    empty = [h for h in hrefs if re.search(r"[?&]h=(&|#|$)", h)]
    assert not empty, f"search for {query!r}: results with nothing to highlight carry an empty ?h=: {empty}"


def _toggle_palette(page) -> None:
    before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_function(f"document.body.getAttribute('data-md-color-scheme') !== {before!r}")


def _contrast(page, selector: str) -> float:
    """WCAG contrast ratio of the first element matching `selector` against the page background."""
    return page.evaluate(
        """(selector) => {
          const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
          const lum = ([r, g, b]) => {
            const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
          };
          const fg = lum(rgb(getComputedStyle(document.querySelector(selector)).color));
          const bg = lum(rgb(getComputedStyle(document.querySelector(".md-main")).backgroundColor ||
                             getComputedStyle(document.body).backgroundColor));
          return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        }""",
        selector,
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_an_evidence_marker_opens_its_evidence_on_focus(page, site, width):
    """A claim's ⟨id⟩ (site_build/markdown/evidence.py): focused (a tap, or Tab), the marker shows the
    ranking, ablation or source behind it, inside the window."""
    page.set_viewport_size({"width": width, "height": 800})
    visit(page, site, "lessons/measured/")
    marker = page.locator("sup.primer-evidence").first
    assert marker.count() and page.locator("sup.primer-evidence").count() >= 20
    marker.scroll_into_view_if_needed()
    marker.focus()
    shown = page.evaluate("""() => {
        const el = document.activeElement, after = getComputedStyle(el, "::after");
        // on a phone a block in the text, as wide as the column; else a box that starts at the tag
        const inText = after.position === "static", column = el.closest("p, li, td").getBoundingClientRect();
        return {text: after.content, width: parseFloat(after.width), display: after.display,
                left: inText ? column.left : el.getBoundingClientRect().left};
    }""")
    assert "ranking" in shown["text"] and "[" in shown["text"], shown
    assert 0 <= shown["left"] and shown["left"] + shown["width"] <= width, shown


def test_dark_mode_switches_the_palette_and_math_stays_readable(page, site):
    path = f"lessons/{SLUGS[0]}/"
    visit(page, site, path)
    page.evaluate(WAIT_RENDERED)
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    _toggle_palette(page)
    dark = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    assert (scheme, dark) == ("default", "slate")
    ratio = _contrast(page, ".md-content .katex")
    assert ratio >= 4.5, f"{path}: math has contrast {ratio:.2f} against the dark background"


@pytest.mark.parametrize(("copy", "palette"), [("site", "light"), ("site", "dark"), ("offline_copy", "light")])
def test_a_figure_opens_enlarged_on_click_and_escape_closes_it(request, page, copy, palette):
    """Tap or click to enlarge (mkdocs-glightbox): the lightbox opens the figure the reader sees (the dark
    twin in the dark palette), larger than on the page, with nothing fetched from another host (served, or
    from the offline copy through file://); Escape closes it."""
    base = request.getfixturevalue(copy)
    log = visit(page, base, "lessons/positional/" if copy == "site" else "lessons/positional.html")
    page.evaluate(WAIT_RENDERED)
    if palette == "dark":
        _toggle_palette(page)
    figure = page.locator("article img.primer-figure:visible").first
    figure.scroll_into_view_if_needed()
    shown, width = figure.evaluate("img => img.src"), figure.bounding_box()["width"]
    assert shown.endswith("#only-dark" if palette == "dark" else "#only-light"), shown
    figure.click()
    enlarged = page.locator(".glightbox-container .gslide.current .gslide-image img")
    enlarged.wait_for(state="visible")
    page.wait_for_function("() => !document.querySelector("  # the opening animation has ended
                           "'.glightbox-container [class*=\"gzoom\"], .glightbox-container [class*=\"gfade\"]')")
    assert enlarged.evaluate("img => img.src") == shown, "the lightbox shows the figure that was clicked"
    drawn = enlarged.evaluate("i => Math.min(i.clientWidth, i.clientHeight * i.naturalWidth / i.naturalHeight)")
    assert drawn > width * 1.5, f"and larger than on the page: {drawn:.0f} px against {width:.0f}"  # contained
    page.keyboard.press("Escape")
    page.wait_for_selector(".glightbox-container", state="detached")
    assert not log.failures and not log.offsite() and not log.console, log.failures + log.offsite() + log.console


@pytest.mark.parametrize("where", WHERE)
def test_instant_navigation_typesets_and_draws_the_second_page(page, served):
    assert len(SLUGS) >= 2, "needs two lessons"
    first, second = SLUGS[0], SLUGS[1]
    log = visit(page, served, f"lessons/{first}/")
    page.evaluate(WAIT_RENDERED)
    page.click(f"nav.md-nav a[href$='{second}/']")
    page.wait_for_url(re.compile(f"lessons/{second}/"))
    assert page.evaluate("typeof document$ !== 'undefined'"), "Material's instant navigation is not active"
    problems = browser.check_page(page, log, f"lessons/{second}/ (after instant navigation)")
    facts = page.evaluate(browser.PAGE_FACTS)
    assert facts["math"] > 0 and facts["diagrams"] > 0
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("where", WHERE)
def test_a_missing_page_gets_the_sites_styled_404_page(page, served, where):
    """The 404 page links its assets from the site's path (SITE_URL's), so it is
    styled at any depth; the test server answers as GitHub Pages does."""
    log = browser.PageLog(page, served)
    missing = served + "lessons/no-such-lesson/deeper/"
    response = page.goto(missing, wait_until="load")
    assert response.status == 404 and "404 - Not found" in page.inner_text("h1")
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky", (
        f"{where}: the 404 page is not styled (Material's CSS did not load)")
    home = page.eval_on_selector(".md-header__button.md-logo", "a => a.href")
    assert home == served, f"{where}: the 404 page's home link is {home}"
    failures = [f for f in log.failures if not f.startswith(missing)]
    assert not failures and not log.offsite(), f"{where}: the 404 page's assets: {failures + log.offsite()}"


# ---------------------------------------------------------------------------
# The offline copy: the zip `make site` builds, unzipped, opened through file://
# ---------------------------------------------------------------------------

def _offline(path: str) -> str:
    """A page's path in the offline copy (no directory URLs): lessons/rope/ -> lessons/rope.html."""
    return path[:-1] + ".html" if path else "index.html"


@pytest.mark.parametrize("path", PAGES)
def test_offline_copy_page_renders_from_file_without_any_host(warm_page, offline_copy, path):
    page = warm_page
    log = visit(page, offline_copy, _offline(path))
    problems = browser.check_page(page, log, f"offline {_offline(path)}")
    assert not problems, "\n".join(problems)
    facts = page.evaluate(browser.PAGE_FACTS)
    if path.startswith("lessons/"):
        assert facts["math"] > 0 and facts["diagrams"] > 0 and facts["images"], (
            f"offline {path}: a lesson page shows math, at least one diagram and figures")
    assert page.evaluate("typeof document$ !== 'undefined'") and "navigation.instant" not in page.evaluate(
        "JSON.parse(document.getElementById('__config').textContent).features"), "no instant navigation offline"


def test_offline_copy_search_finds_the_rope_lesson_by_rotary(page, offline_copy):
    log = visit(page, offline_copy, "index.html")
    _search_finds(page, "rotary", offline_copy + "lessons/rope.html")
    assert not log.failures and not log.offsite() and not log.console, (
        f"offline search: {log.failures + log.offsite() + log.console}")


def test_offline_copy_model_card_decoder_offers_the_gallery(page, offline_copy):
    from lessons.tools.model_types import gallery

    log = visit(page, offline_copy, "lessons/model_card.html")
    page.wait_for_function(f"() => document.querySelectorAll('#pmc-gallery option').length === {len(gallery()) + 1}")
    assert not log.failures and not log.offsite() and not log.console


# ---------------------------------------------------------------------------
# The checks catch what they claim to: deliberately broken pages
# ---------------------------------------------------------------------------

BROKEN_LESSON = r'''r"""
# A deliberately broken page

$$
x^2 + 1
$

```mermaid
flowchart LR
  A["a diagram"] --> B["that draws"]
  B --> C["with $$x^2$$"]
```

![A bar chart with one bar of height one](figures/broken.bar.svg)

```python
1 + 1  # → 2
```

<script src="https://cdn.jsdelivr.net/npm/left-pad@1.3.0/index.js"></script>
"""


def figures():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    ax.bar([0], [1])
    return {"bar": fig}


def demo():
    print("broken")
'''

# The broken page made whole: a formula, a diagram, a figure, nothing from another host.
DRAWN_LESSON = (BROKEN_LESSON.replace("$$\nx^2 + 1\n$\n", "$$\nx^2 + 1\n$$\n")
                .replace('<script src="https://cdn.jsdelivr.net/npm/left-pad@1.3.0/index.js"></script>\n', "")
                .replace("deliberately broken", "whole").replace("broken", "drawn"))

BAD_DIAGRAM = '''flowchart LR
  A[start --> ((broken'''


def _check_built(chromium, project, site_dir, path, wait_s: float = 10):
    context = chromium.new_context()
    context.add_init_script(OPEN_SHADOW_ROOTS)
    page = context.new_page()
    try:
        with serve(site_dir) as base:
            log = visit(page, base, path)
            problems = browser.check_page(page, log, path, wait_s)
            return problems, {**page.evaluate(browser.PAGE_FACTS), "diagramText": page.evaluate(browser.DIAGRAM_TEXT)}
    finally:
        context.close()


def test_a_deliberately_broken_page_fails_with_its_name(tmp_path, chromium):
    project = make_project(tmp_path / "project", {"broken": BROKEN_LESSON}, site=True, notebook=False)
    browser.build_site(project, tmp_path / "site")
    problems, _ = _check_built(chromium, project, tmp_path / "site", "lessons/broken/")
    report = "\n".join(problems)
    assert all(p.startswith("lessons/broken/: ") for p in problems)
    assert "raw math delimiter $$" in report, report
    assert "request to another host: https://cdn.jsdelivr.net/" in report, report


@pytest.mark.parametrize(("broken", "error"), [
    (BAD_DIAGRAM.split("\n", 1)[1], "Parse error"),
    ('A["a diagram"] --> B["with $$\\frac{1}{$$"]', "KaTeX parse error"),  # TeX in a label KaTeX cannot read
], ids=["mermaid", "label-maths"])
def test_a_broken_diagram_stops_the_build_naming_the_lesson(tmp_path, chromium, broken, error):  # drawn at build time
    lesson = BROKEN_LESSON.replace('A["a diagram"] --> B["that draws"]', broken)
    project = make_project(tmp_path / "project", {"broken": lesson}, site=True, notebook=False)
    with pytest.raises(BuildError, match=rf"lessons/broken\.py: mermaid cannot draw the diagram starting 'flowchart LR': {error}"):
        browser.build_site(project, tmp_path / "site")


def test_diagrams_drawn_in_the_browser_work_offline_and_a_broken_one_is_caught_by_name(tmp_path, chromium):
    """Without Chromium at build time (PRIMER_DIAGRAMS=browser), Material draws the
    diagrams in the reader's browser with the site's own mermaid: a good diagram
    is drawn with nothing fetched from another host, and the page check still
    catches a broken one, by page. One small project holds both pages."""
    bad = BROKEN_LESSON.replace('A["a diagram"] --> B["that draws"]', BAD_DIAGRAM.split("\n", 1)[1])
    project = make_project(tmp_path / "project", {"drawn": DRAWN_LESSON, "broken": bad}, site=True, notebook=False)
    browser.build_site(project, tmp_path / "site", PRIMER_DIAGRAMS="browser")
    problems, facts = _check_built(chromium, project, tmp_path / "site", "lessons/drawn/")
    assert facts["diagramsInBrowser"] > 0 and facts["diagramsUndrawn"] == 0
    assert not problems, "\n".join(problems)
    # its label's maths typeset by mermaid's KaTeX (as MathML: the page's KaTeX CSS does not reach
    # into the shadow root Material draws in), from the site's copy like the rest of mermaid
    [diagram] = facts["diagramText"]
    assert diagram["katex"] == 1 and not diagram["rawMath"], diagram
    # the good diagram on the other page was drawn within the 10 s: this one never will be
    problems, _ = _check_built(chromium, project, tmp_path / "site", "lessons/broken/", wait_s=2)
    assert re.search(r"lessons/broken/: .*mermaid diagram\(s\) (not drawn as SVG|show a syntax error)", "\n".join(problems))
