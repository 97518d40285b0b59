"""The config-keys page on a phone (390 x 844, issue 43 item 8): its tables fit the text column
(no cell, link or code span reaches past it, and no box scrolls sideways to hide one), and no key's
name breaks inside itself (each first-column code span is one line box); at 1280 px the keys stay
whole too. A row opens by its id, key-<term>."""

from __future__ import annotations

import pytest

from harness.browser import WAIT_RENDERED
from site_build.pages import KEYS_PAGE

pytestmark = pytest.mark.browser

KEYS_URL = KEYS_PAGE.removesuffix(".md") + "/"

# What breaks the page on a phone: every element of the keys tables reaching past the text column
# (or scrolling inside a box narrower than itself), and every key split over more than one line.
MEASURE = """
() => {
  const column = document.querySelector(".md-content__inner").getBoundingClientRect();
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "");
  const out = [], clipped = [], broken = [], keys = [];
  for (const el of document.querySelectorAll(".primer-keys, .primer-keys *")) {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 && box.height <= 1) continue;  // the header row, out of sight (1 px, clipped)
    if (box.right > column.right + 1 || box.left < column.left - 1)
      out.push(`${name(el)}: ${Math.round(box.left)}..${Math.round(box.right)} px`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
      clipped.push(`${name(el)}: ${el.scrollWidth} px in ${el.clientWidth}`);
  }
  for (const code of document.querySelectorAll(".primer-keys tbody tr > td:first-child code")) {
    keys.push(code.textContent);
    if (code.getClientRects().length !== 1) broken.push(`${code.textContent}: ${code.getClientRects().length} lines`);
  }
  return {column: [column.left, column.right], out, clipped, broken, keys};
}
"""


@pytest.fixture(params=[(390, 844), (1280, 800)], ids=["phone", "desktop"])
def measured(request, chromium, site):
    """The page measured at one window size."""
    width, height = request.param
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(site + KEYS_URL, wait_until="load")
        page.evaluate(WAIT_RENDERED)
        yield width, page.evaluate(MEASURE)
    finally:
        context.close()


def test_the_keys_tables_fit_the_column_and_no_key_breaks(measured):
    width, found = measured
    assert len(found["keys"]) > 50, f"the page's keys were not found: {found['keys'][:5]}"
    assert not found["broken"], f"at {width} px keys break inside their name: {found['broken'][:10]}"
    if width == 390:  # at 1280 px a wide table may scroll in Material's box (the column is wide enough)
        assert not found["out"], f"at {width} px past the column {found['column']}: {found['out'][:10]}"
        assert not found["clipped"], f"at {width} px a box hides part of what it holds: {found['clipped'][:10]}"


def test_a_row_opens_by_its_id(chromium, site):
    """A link to #key-<term> lands on that row: its top is in the window, its id the term's."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(site + KEYS_URL + "#key---max-model-len", wait_until="load")
        page.evaluate(WAIT_RENDERED)
        row = page.locator("tr#key---max-model-len")
        assert row.locator("td").first.inner_text().strip() == "--max-model-len"
        page.wait_for_function("() => { const r = document.getElementById('key---max-model-len')"
                               ".getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }", timeout=5000)
    finally:
        context.close()
