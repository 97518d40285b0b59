"""The explorables' loader in Chromium (explorables/web/loader.js): the two Level 1 explorables that
carry their lesson's Monday answer (issue 44: methods, layers) start within the first screen and
are mounted on a cold load with no scroll; an explorable far down the page costs nothing until the
reader nears it; the offline copy (file://, where fetch() is refused) mounts one too; and after
Material's instant navigation the next page's explorable mounts. Each explorable's own numbers are
its own test's (tests/test_explorable_<name>_browser.py)."""

from __future__ import annotations

import pytest

from explorables import REGISTRY
from explorables.data import MANIFEST, data_path, script_path
from tests import browser
from tests.explorables import box, open_explorable

pytestmark = pytest.mark.browser

FIRST_SCREEN = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
ABOVE_THE_FOLD = ("methods", "layers")  # issue 44: "Level 1 pages get their explorable above the fold (2 and 3)"
READY = "n => { const b = document.querySelector(`.primer-explorable[data-explorable='${n}']`); return b && b.dataset.state === 'ready'; }"


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport=FIRST_SCREEN)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("screen", [FIRST_SCREEN, PHONE], ids=["1280", "390"])
@pytest.mark.parametrize("name", ABOVE_THE_FOLD)
def test_a_level_1_explorable_opens_its_level_1_and_mounts_unscrolled(chromium, site, name, screen):
    """The box is the first thing under the Level 1 heading and mounts on a cold load with no
    scroll; at 1280 x 900 its first control is in the first screen. On a 390 x 844 phone the title,
    the lesson's Run-it lines and the heading come first (layer_schemes' box starts at 855 px)."""
    context = chromium.new_context(viewport=screen)
    page = context.new_page()
    page.goto(site + f"lessons/{REGISTRY[name].lesson}/", wait_until="load")
    page.wait_for_function(READY, arg=name, timeout=15000)
    # the paragraphs between the Level 1 heading and the box, its skip link aside: none
    where = page.locator(box(name)).evaluate("""b => { let e = b.previousElementSibling, before = [];
      while (e && e.tagName !== "H2") {  // prose a reader meets first (the build may wrap it in a div)
        for (const p of [e, ...e.querySelectorAll("p")]) if (p.tagName === "P" && !p.classList.contains("primer-skip")) before.push(p.textContent.trim().slice(0, 40));
        e = e.previousElementSibling; }
      return [e && e.textContent, before, b.querySelector('select, input').getBoundingClientRect().bottom, scrollY]; }""")
    context.close()
    assert where[0].startswith("Level 1"), f"{name}: the box is under {where[0]!r}"
    assert not where[1], f"{name}: the box follows {where[1]}"
    assert where[3] == 0
    if screen is FIRST_SCREEN:
        assert where[2] < screen["height"], f"{name}: its first control ends at {where[2]:.0f} px"


def test_an_explorable_far_down_loads_nothing_until_the_reader_nears_it(page, site):
    """rope_turning sits in Level 2, many screens down: a cold load requests none of its files
    (not the manifest, not the shared core); scrolling to it loads them and mounts it."""
    name = "rope_turning"
    log = browser.PageLog(page, site)
    page.goto(site + f"lessons/{REGISTRY[name].lesson}/", wait_until="load")
    page.wait_for_timeout(1000)
    own = (MANIFEST, script_path("core"), script_path(name), data_path(name))
    assert not [u for u in log.requests if u.endswith(own)], "fetched before the reader came near"
    page.locator(box(name)).scroll_into_view_if_needed()
    page.wait_for_function(READY, arg=name, timeout=15000)
    assert any(u.endswith(script_path(name)) for u in log.requests)
    assert not log.failures and not log.console and not log.offsite(), log.failures + log.console


def test_the_offline_copy_mounts_an_explorable_from_file(page, offline_copy):
    name = "methods"
    log = open_explorable(page, offline_copy, f"lessons/{REGISTRY[name].lesson}.html", name)
    assert page.locator(box(name) + " [data-value]").count() > 0
    assert not log.failures and not log.console and not log.offsite(), log.failures + log.console


def test_instant_navigation_mounts_the_next_pages_explorable(page, site):
    """Material swaps the article without a page load; the loader runs again on document$."""
    first, name = "lessons/positional/", "layers"
    page.goto(site + first, wait_until="load")
    page.wait_for_function("typeof document$ !== 'undefined'")
    page.click(f"nav.md-nav a[href$='{REGISTRY[name].lesson}/']")
    page.wait_for_url(f"**/{REGISTRY[name].lesson}/")
    page.wait_for_function(READY, arg=name, timeout=15000)
