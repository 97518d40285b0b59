"""Long pages skip their off-screen sections (content-visibility, site_build/visibility/),
and a reader notices nothing of it: the page is as tall as with every section
drawn, anchor links and search results land on their heading, find-in-page and
printing reach every section, and a formula that scrolls sideways has its tab
stop even in a section not drawn yet. The axe checks in test_browser.py run
on these pages too."""

from __future__ import annotations

import json

import pytest

from site_build.visibility.bands import SCROLLING
from harness.browser import LOAD_EVERY_IMAGE, WAIT_RENDERED
from tests import browser
from tests.conftest import SLUGS

pytestmark = pytest.mark.browser

# the build's own bands (Material's breakpoints), one width each
WIDTHS = [390, 800, 1100, 1280]
DRAW_ALL = browser.DRAW_EVERY_BOX  # as the build measures them
SECTIONS = "[...document.querySelectorAll('.md-content .primer-cv[style]')]"
SKIPPED = f"{SECTIONS}.filter(b => !b.firstElementChild.checkVisibility({{contentVisibilityAuto: true}})).length"


@pytest.fixture
def new_page(chromium, site):
    contexts = []

    def make(width: int = 1280):
        context = chromium.new_context(viewport={"width": width, "height": 900})
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def draw_all(page) -> None:
    """Draw every box and wait until what that brings in has arrived: the KaTeX fonts
    only skipped text used, and the figures held back (a box drawn for the first
    time is laid out with a stand-in font for the moment its font loads)."""
    page.add_style_tag(content=DRAW_ALL)
    page.evaluate(LOAD_EVERY_IMAGE)
    page.evaluate(browser.FONTS_SETTLED)


def open_page(page, url: str) -> None:
    page.goto(url, wait_until="load")
    assert page.evaluate(WAIT_RENDERED)
    page.evaluate("document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))")


@pytest.mark.parametrize("slug", SLUGS)
def test_a_lesson_page_skips_its_off_screen_sections(new_page, site, slug):
    page = new_page()
    open_page(page, f"{site}lessons/{slug}/")
    sections = page.evaluate(f"{SECTIONS}.length")
    assert sections >= 3, f"lessons/{slug}/: the build gave {sections} section bodies measured heights"
    assert page.evaluate(SKIPPED) >= sections // 2, f"lessons/{slug}/: most sections should wait off screen"
    style = page.evaluate(f"{SECTIONS}[0].getAttribute('style')")
    assert all(f"--cv-{band}:" in style for band in "ntsw"), style


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("slug", ["notation", "rope", "model_card"])
def test_every_stand_in_height_is_the_drawn_height(new_page, site, slug, width):
    """The measured stand-in heights are exact at each band's width: the scrollbar never
    jumps. (Box by box: the page's own scripts, such as the model-card decoder, may
    still be growing the page outside the boxes.)"""
    page = new_page(width)
    open_page(page, f"{site}lessons/{slug}/")
    band = dict(zip(WIDTHS, "ntsw", strict=True))[width]
    draw_all(page)
    off = page.evaluate(f"""() => {SECTIONS}.map(b => [b.dataset.cv,
        parseFloat(getComputedStyle(b).getPropertyValue('--cv-{band}')), b.getBoundingClientRect().height])
        .filter(([, stand_in, drawn]) => Math.abs(stand_in - drawn) > 0.5)""")
    assert not off, f"lessons/{slug}/ at {width}px: box, stand-in, drawn height: {off}"


def test_an_anchor_link_lands_on_its_heading(new_page, site):
    page = new_page()
    open_page(page, f"{site}lessons/rope/")
    ids = page.evaluate("[...document.querySelectorAll('.md-content h2[id]')].map(h => h.id)")
    target = ids[len(ids) // 2]  # mid-page: skipped sections above and below it
    open_page(page, f"{site}lessons/rope/#{target}")
    page.wait_for_timeout(300)
    top = page.evaluate(f"document.getElementById({target!r}).getBoundingClientRect().top")
    assert 0 <= top <= 120, f"#{target} is {top}px from the top of the window"


def test_a_search_result_jumps_to_its_section(new_page, site):
    page = new_page()
    open_page(page, f"{site}lessons/notation/")
    page.keyboard.press("s")
    page.keyboard.type("permutation")
    page.locator(".md-search-result__item a").first.wait_for(timeout=15000)
    link = page.locator(".md-search-result__item a[href*='lessons/rope/'][href*='#']").first
    href = link.get_attribute("href")
    link.click()
    page.wait_for_url("**/lessons/rope/**")
    page.evaluate(WAIT_RENDERED)
    page.wait_for_timeout(500)
    target = href.split("#", 1)[1]
    top = page.evaluate(f"document.getElementById({target!r}).getBoundingClientRect().top")
    assert 0 <= top <= 120, f"the result {href} left #{target} {top}px from the top"


def test_find_in_page_reaches_a_skipped_section(new_page, site):
    page = new_page()
    open_page(page, f"{site}lessons/rope/")
    text = page.evaluate(f"""() => {{
        const body = {SECTIONS}.at(-2);
        if (body.firstElementChild.checkVisibility({{contentVisibilityAuto: true}})) return null;
        return body.querySelector('p').textContent.slice(0, 40);
    }}""")
    assert text, "the section to find should start skipped"
    assert page.evaluate("t => window.find(t)", text), f"find-in-page did not find {text!r}"
    assert page.evaluate(f"{SECTIONS}.at(-2).querySelector('p').checkVisibility({{contentVisibilityAuto: true}})")


def test_printing_draws_every_section(new_page, site):
    page = new_page()
    open_page(page, f"{site}lessons/context_extension/")
    page.emulate_media(media="print")
    assert page.evaluate(SKIPPED) == 0
    assert page.evaluate(f"{SECTIONS}.every(b => getComputedStyle(b).contentVisibility === 'visible')")


@pytest.mark.parametrize("width", [390, 1280])
def test_every_sideways_scrolling_formula_and_table_has_a_tab_stop(new_page, site, width):
    """math.js reads the build's measurements for skipped sections, so a keyboard
    reaches each scrolling formula and table without the page laying out what it skips."""
    page = new_page(width)
    open_page(page, f"{site}lessons/context_extension/")
    assert page.evaluate(SKIPPED) > 0
    formulas = f"[...document.querySelectorAll({json.dumps(SCROLLING)})].filter(el => el.closest('.md-content'))"
    reachable = page.evaluate(f"{formulas}.map(el => el.getAttribute('tabindex') === '0')")
    draw_all(page)  # now measure for real (this lays out every section)
    scrolls = page.evaluate(f"{formulas}.map(el => el.scrollWidth > el.clientWidth)")
    texts = page.evaluate(f"{formulas}.map(el => el.textContent.slice(0, 50))")
    missing = [text for text, wide, tab in zip(texts, scrolls, reachable, strict=True) if wide and not tab]
    assert not missing, f"at {width}px these formulas or tables scroll but cannot be reached by keyboard: {missing}"
    if width == 390:
        assert any(scrolls) and page.evaluate(f"{formulas}.some(el => el.matches('.md-typeset__scrollwrap'))"), (
            "the check sees no table or formula that scrolls at 390 px")
