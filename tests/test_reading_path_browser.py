"""The reading path as a reader meets it, in Chromium at a phone's size (390 × 844) and a desktop's
(1280 × 800) (issue 43, items 1 and 2): the reading times under each lesson's title, beside each
entry of the home page's list (a span per level, each whole in the column) and on the practitioner
track, equal to what `project.reading` computes from the prose; every Level 1 showing a figure
(numbered caption, picture loaded) and ending with a link to the next lesson's Level 1 whose anchor
exists, and one to its own Level 2; and each Level 1's options table, stacked into cards on a phone,
no wider than the text column and with no cell cut off, in both palettes."""

from __future__ import annotations

import pytest

from harness.browser import LOAD_EVERY_IMAGE, WAIT_RENDERED
from project.reading import level_headings, reading_time_text, reading_times
from site_build.markdown.levels import NEXT_CLASS
from site_build.markdown.tables import STACK_CLASS
from site_build.pages import READING_CLASS, TRACK_PAGE
from site_build.visibility.heights import DRAW_EVERY_BOX
from tests.conftest import PROJECT

pytestmark = pytest.mark.browser

SIZES = {390: 844, 1280: 800}
LESSONS = PROJECT.lessons
LEVELLED = [lesson for lesson in LESSONS if level_headings(lesson.docstring)]
TRACK = TRACK_PAGE.removesuffix(".md") + "/"


def url(page: str) -> str:
    """A page under docs/ as the site serves it ("lessons/rope.md" -> "lessons/rope/")."""
    return page.removesuffix(".md") + "/"


@pytest.fixture(scope="module", params=list(SIZES), ids=[f"{w}px" for w in SIZES])
def sized(request, chromium):
    context = chromium.new_context(viewport={"width": request.param, "height": SIZES[request.param]})
    yield context.new_page()
    context.close()


def _open(page, base: str, path: str) -> None:
    page.goto(base + path, wait_until="load")
    page.evaluate(WAIT_RENDERED)
    page.add_style_tag(content=DRAW_EVERY_BOX)  # every section drawn, so each box has its size


# What a reading time looks like where it stands: its text, and whether a reader sees it whole
SHOWN = """(el) => {
  const box = el.getBoundingClientRect(), column = document.querySelector(".md-content__inner").getBoundingClientRect();
  const style = getComputedStyle(el);
  return { text: el.textContent.trim(), seen: box.width > 0 && box.height > 0 && style.visibility !== "hidden"
           && box.left >= column.left - 1 && box.right <= column.right + 1 && parseFloat(style.fontSize) >= 11 };
}"""


def test_the_home_page_lists_each_lessons_reading_times_and_links_the_track(sized, site):
    _open(sized, site, "")
    entries = sized.eval_on_selector_all(
        f"article li:has(> span.{READING_CLASS})",
        f"""items => items.map(li => [li.querySelector("a").href,
                                      [...li.querySelectorAll(":scope > span.{READING_CLASS}")].map({SHOWN})])""")
    assert [href for href, _ in entries] == [site + url(lesson.page) for lesson in LESSONS]
    for (href, shown), lesson in zip(entries, LESSONS, strict=True):
        # a span per part (Level 1, Level 2), each seen whole in the column; together the page's times
        assert " · ".join(part["text"] for part in shown) == reading_time_text(lesson.docstring), href
        assert shown and all(part["seen"] for part in shown), (href, shown)
    cards = sized.eval_on_selector_all(".primer-start a", "links => links.map(a => a.href)")
    assert site + TRACK in cards, f"the cards link the practitioner track: {cards}"


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.slug for lesson in LESSONS])
def test_a_lesson_shows_its_reading_times_under_its_title(sized, site, lesson):
    _open(sized, site, url(lesson.page))
    shown = sized.eval_on_selector(f"h1 + p.{READING_CLASS}", SHOWN)
    assert shown == {"text": reading_time_text(lesson.docstring), "seen": True}


def test_the_track_strings_every_level_1_together_with_its_time(sized, site):
    _open(sized, site, TRACK)
    rows = sized.eval_on_selector_all(
        "article ol > li", f"""items => items.map(li => [li.querySelector("a").href,
                                                         ({SHOWN})(li.querySelector("span.{READING_CLASS}"))])""")
    assert [href.split("#")[0] for href, _ in rows] == [site + url(lesson.page) for lesson in LEVELLED]
    for (href, shown), lesson in zip(rows, LEVELLED, strict=True):
        text = reading_time_text(lesson.docstring, "Level 1")
        assert text.startswith(f"Level 1: {reading_times(lesson.docstring)['Level 1']} min"), href
        assert shown == {"text": text, "seen": True}, href
    first = sized.eval_on_selector_all("nav.md-nav--primary a.md-nav__link[href]", "links => links.map(a => a.href)")
    assert any(link == site + TRACK for link in first), "the track is in the nav"


@pytest.mark.parametrize("lesson", LEVELLED, ids=[lesson.slug for lesson in LEVELLED])
def test_every_level_1_ends_with_the_next_lessons_level_1_and_its_own_level_2(sized, site, lesson):
    _open(sized, site, url(lesson.page))
    ending = sized.evaluate(f"""() => {{
        const block = document.querySelector(".{NEXT_CLASS}");
        if (!block) return null;
        // the next heading after the block, in the page's order (a section box may hold the block)
        const headings = [...document.querySelectorAll("h2")];
        const after = headings.find(h => block.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);
        const box = block.getBoundingClientRect();
        return {{ links: [...block.querySelectorAll("a")].map(a => [a.textContent, a.href]),
                 after: after && [after.id, after.className], seen: box.width > 0 && box.height > 0 }};
    }}""")
    assert ending and ending["seen"], f"{lesson.slug}: no block ends Level 1"
    # and before it, Level 1 shows a figure: a numbered caption, its picture loaded and seen
    sized.evaluate(LOAD_EVERY_IMAGE)
    shown = sized.evaluate("""() => {
        const [one, two] = [".primer-level-1", ".primer-level-2"].map(s => document.querySelector(s));
        const inside = el => (one.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) &&
                             (two.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING);
        return [...document.querySelectorAll("figure")].filter(inside).map(f => {
            const img = [...f.querySelectorAll("img")].find(i => i.getBoundingClientRect().width > 0);
            return { caption: (f.querySelector("figcaption") || {}).textContent || "",
                     loaded: !!img && img.complete && img.naturalWidth > 0 };
        });
    }""")
    assert shown and all(f["loaded"] and f["caption"].strip().startswith("Figure ") for f in shown), f"{lesson.slug}: {shown}"
    (next_text, next_href), (deeper_text, deeper_href) = ending["links"]
    assert ending["after"][1].split() == ["primer-level", "primer-level-2"], "the block ends Level 1"
    assert deeper_text == "Level 2 ↓" and deeper_href == f"{site}{url(lesson.page)}#{ending['after'][0]}"
    following = LEVELLED[LEVELLED.index(lesson) + 1] if lesson is not LEVELLED[-1] else None
    target, anchor = next_href.split("#") if "#" in next_href else (next_href, "")
    if following is None:
        assert target == site + TRACK and next_text.startswith("The practitioner track"), next_href
        return
    assert target == site + url(following.page) and next_text.endswith(", Level 1 →"), next_href
    sized.goto(next_href, wait_until="load")
    heading = sized.evaluate("(id) => { const h = document.getElementById(id); return h && [h.tagName, h.className]; }",
                             anchor)
    assert heading == ["H2", "primer-level primer-level-1"], f"{lesson.slug} -> {next_href}: {heading}"


# Each options table at a phone's width: how wide it is against the column, and any cell cut off
FITS = f"""() => [...document.querySelectorAll(".{STACK_CLASS} table")].map(table => {{
  const column = document.querySelector(".md-content__inner").getBoundingClientRect();
  const box = table.getBoundingClientRect();
  const boxes = [table, ...table.parentElement.closest(".{STACK_CLASS}").querySelectorAll("div")];
  const cut = [...table.querySelectorAll("td")].filter(td => {{
    const r = td.getBoundingClientRect();
    return td.scrollWidth > td.clientWidth + 1 || r.left < column.left - 1 || r.right > column.right + 1; }});
  return {{ display: getComputedStyle(table).display, row: getComputedStyle(table.querySelector("tr")).display,
           width: Math.round(box.width), column: Math.round(column.width),
           inside: box.left >= column.left - 1 && box.right <= column.right + 1,
           scrolls: boxes.filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.className || el.tagName),
           cut: cut.map(td => td.textContent.slice(0, 40)), labelled: [...table.querySelectorAll("td")].every(
             td => td.dataset.label && getComputedStyle(td, "::before").content.includes(td.dataset.label)) }};
}})"""


@pytest.fixture(scope="module", params=["light", "dark"])
def phone(request, chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, color_scheme=request.param)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("lesson", LEVELLED, ids=[lesson.slug for lesson in LEVELLED])
def test_no_options_table_is_wider_than_the_column_on_a_phone(phone, site, lesson):
    """At 390 px, in either palette, each Level 1 options table is a stack of cards (every cell under
    its column's header) no wider than the text column: nothing scrolls sideways, no cell is cut off."""
    _open(phone, site, url(lesson.page))
    tables = phone.evaluate(FITS)
    assert tables, f"{lesson.slug}: no stacked table"
    for table in tables:
        assert table["display"] == table["row"] == "block" and table["labelled"], table
        assert table["inside"] and not table["scrolls"] and not table["cut"], f"{lesson.slug}: {table}"


def test_on_a_desktop_the_options_table_stays_a_table(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    _open(page, site, url(LEVELLED[0].page))
    assert {t["row"] for t in page.evaluate(FITS)} == {"table-row"}, "rows are rows, under one header"
    context.close()
