"""The reading path (issue 43, item 1): reading times computed from a page's prose, the practitioner
track, the block that ends each Level 1 with the next lesson's Level 1, and the options table's
cells labelled for the stacked cards a phone shows. In process: Python-Markdown renders the lessons
with the site's own tree processors; the built pages are tests/test_reading_path_browser.py's."""

from __future__ import annotations

import math
import re

import markdown
import pytest
from markdown.extensions.toc import TocExtension

from project.reading import (REFERENCE_SECTIONS, WORDS_PER_MINUTE, level_headings, one_sentence, reading_counts,
                             reading_time_text, reading_times, reading_words)
from site_build.markdown.context import PageContext
from site_build.markdown.levels import NEXT_CLASS, LevelsExtension
from site_build.markdown.tables import STACK_CLASS, StackExtension
from site_build.pages import READING_CLASS, TRACK_PAGE, lesson_list, nav_title, shown_sentence, track_page
from tests.conftest import PROJECT


def words(prefix: str, n: int) -> str:
    """n distinct words of prose: 'prefix0 prefix1 ...'."""
    return " ".join(f"{prefix}{i}" for i in range(n))


# A page whose words are known by construction: every counted word is one of the words() runs or
# one of the few written out below (LEVEL_1, LEVEL_2 add them up); the rest is what the counter must leave out.
PAGE = f"""# A title of five words

Run it somewhere. {words("intro", 20)}

## Level 1: the guide

{words("a", 150)} with `a_code_span` and $x_i^2 + \\frac{{1}}{{2}}$ inline math.

| Option | What it does |
|---|---|
| {words("b", 4)} | {words("c", 6)} |

```python
{words("code", 40)}
```

![{words("alt", 12)}](figures/x.y.svg)

<div class="raw">{words("html", 9)}</div>

{words("late", 90)}

## Level 2: how it works

$$
{words("math", 15)}
- {words("listlike", 5)}
$$

{words("deep", 400)}

??? example "Run it"

    ```python
    {words("more", 3)}

    {words("more", 2)}
    ```

```mermaid
flowchart TB
  A["{words("diagram", 8)}"] --> B
```

## Self-test questions

??? question "{words("q", 3)}"

    {words("answer", 25)}

## The papers behind this lesson

{words("paper", 60)}

## Further reading

{words("further", 30)}
"""
# Level 1: its heading (Level, 1, the, guide), 150 words + "with", the code span (one word), "and",
# "inline math." (the formula none), the table's header (Option; What, it, does) and body (4 + 6), 90 more.
LEVEL_1 = 4 + (150 + 1 + 1 + 1 + 2) + (1 + 3) + (4 + 6) + 90
# Level 2: its heading (Level, 2, how, it, works), 400 words, the example's title (Run, it; not the
# `??? example` marker), the self-test's heading (Self-test, questions), the question's title (3; not
# the `??? question` marker) and its answer (25).
LEVEL_2 = 5 + 400 + 2 + 2 + 3 + 25
# Lines of code a reader reads besides: Level 1's python fence (one line), the two non-blank lines of
# the example's fence in Level 2; the mermaid diagram's source is not code a reader reads.
CODE_1, CODE_2 = 1, 2


def test_a_known_page_counts_its_prose_and_nothing_else():
    counted = reading_words(PAGE)
    assert counted == {"Level 1": LEVEL_1, "Level 2": LEVEL_2}
    assert reading_times(PAGE) == {"Level 1": math.ceil(LEVEL_1 / 200), "Level 2": math.ceil(LEVEL_2 / 200)}
    assert reading_counts(PAGE) == {"Level 1": (LEVEL_1, CODE_1), "Level 2": (LEVEL_2, CODE_2)}
    # the time is the prose's, and a part with code says how many lines it has besides (M3 of the review)
    assert reading_time_text(PAGE) == (f"Level 1: {math.ceil(LEVEL_1 / 200)} min of prose, 1 line of code · "
                                       f"Level 2: {math.ceil(LEVEL_2 / 200)} min of prose, 2 lines of code")
    assert reading_time_text(PAGE, "Level 2") == f"Level 2: {math.ceil(LEVEL_2 / 200)} min of prose, 2 lines of code"
    no_code = re.sub(r"```python\n.*?```\n", "", PAGE, flags=re.S)
    assert reading_time_text(no_code) == f"Level 1: {math.ceil(LEVEL_1 / 200)} min · Level 2: {math.ceil(LEVEL_2 / 200)} min"
    assert WORDS_PER_MINUTE == 200 and REFERENCE_SECTIONS == ("The papers", "Further reading")


@pytest.mark.parametrize("left_out", ["code", "math", "listlike", "alt", "html", "diagram", "paper", "further", "intro"])
def test_what_a_reader_does_not_read_through_adds_no_word(left_out):
    """Doubling one left-out run changes no count: code, display math (with a line a Markdown parser
    reads as a list item), alt text, raw HTML, a diagram, the reading lists; before Level 1 (the title,
    how to run it) counts only on a page without levels."""
    doubled = PAGE.replace(f"{left_out}0 ", f"{left_out}0 {left_out}x {left_out}y ", 1)
    assert doubled != PAGE and reading_words(doubled) == reading_words(PAGE)


def test_inline_math_adds_no_word():
    longer = PAGE.replace("$x_i^2 + \\frac{1}{2}$", "$\\text{one two three} + y_{\\text{four}}$")
    assert longer != PAGE and reading_words(longer) == reading_words(PAGE)


def test_prose_anywhere_in_a_level_counts():
    more = PAGE.replace("late0 ", "late0 extra words ", 1).replace("deep0 ", "deep0 three more words ", 1)
    assert reading_words(more) == {"Level 1": LEVEL_1 + 2, "Level 2": LEVEL_2 + 3}


def test_a_page_without_both_levels_gets_one_total():
    alone = PAGE.replace("## Level 2: how it works", "## How it works")
    # everything but the reading lists: the title (5), the run line (3 + 20), Level 1, and Level 2 under
    # its new heading (3 words instead of 5)
    total = 5 + (3 + 20) + LEVEL_1 + LEVEL_2 - 2
    assert level_headings(alone) == {} and reading_words(alone) == {"Reading time": total}
    assert reading_time_text(alone) == f"Reading time: {math.ceil(total / 200)} min of prose, 3 lines of code"


def test_every_lesson_has_its_reading_times():
    for lesson in PROJECT.lessons:
        times = reading_times(lesson.docstring)
        assert set(times) in ({"Level 1", "Level 2"}, {"Reading time"}) and all(m >= 1 for m in times.values())


# --- the pages as rendered ------------------------------------------------------------------------------

def render(lesson, project=PROJECT) -> str:
    """A lesson page's docstring as the site's tree processors leave it (toc ids, levels, stacked tables)."""
    context = PageContext(lesson.page, project, str(lesson.path))
    return markdown.markdown(lesson.docstring, extensions=[
        "tables", "attr_list", "md_in_html", TocExtension(permalink=True),
        LevelsExtension(lambda: context), StackExtension(lambda: context)])


def _level_ids(html_: str) -> dict[str, str]:
    """{"1": id, "2": id} of the rendered page's headings that read "Level 1..." and "Level 2...",
    found in the HTML (not through the code under test)."""
    found = {}
    for id_, text in re.findall(r'<h2[^>]* id="([^"]+)"[^>]*>(.*?)</h2>', html_):
        match = re.match(r"Level ([12])\b", re.sub(r"<[^>]+>", "", text))
        if match:
            found.setdefault(match.group(1), id_)
    return found


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    return {lesson.slug: render(lesson) for lesson in PROJECT.lessons}


def test_every_level_1_links_to_the_next_lessons_level_1_in_reading_order(rendered):
    """The chain: each lesson with two levels ends its Level 1 with 'Next:' to the next such lesson in
    READING_ORDER, at the id its Level 1 heading has on that page, and 'Or go deeper:' to its own Level 2;
    the last to the practitioner track. Followed from the first, the chain visits them all, in order."""
    levelled = [lesson for lesson in PROJECT.lessons if set(_level_ids(rendered[lesson.slug])) == {"1", "2"}]
    assert len(levelled) >= 10, [lesson.slug for lesson in levelled]
    for i, lesson in enumerate(levelled):
        html_ = rendered[lesson.slug]
        block = re.search(rf'<div class="{NEXT_CLASS}"><p>Next: <a href="([^"]+)">([^<]+)</a></p>'
                          r'<p>Or go deeper: <a href="#([^"]+)">Level 2 ↓</a></p></div>\s*<h2[^>]* id="([^"]+)"', html_)
        assert block, f"{lesson.slug}: no next block just before the Level 2 heading"
        href, text, deeper, heading = block.groups()
        assert deeper == heading == _level_ids(html_)["2"], f"{lesson.slug}: 'go deeper' is not its Level 2"
        if i + 1 < len(levelled):
            following = levelled[i + 1]
            expected = f"{following.page.rsplit('/', 1)[1]}#{_level_ids(rendered[following.slug])['1']}"
            assert (href, text) == (expected, f"{nav_title(following.title)}, Level 1 →"), lesson.slug
        else:
            assert href == f"../{TRACK_PAGE}", f"{lesson.slug}, the last: {href}"
    # the levelled lessons, in READING_ORDER (the project's order), each linked from the one before
    order = [slug for slug in __import__("lessons").READING_ORDER if slug in {lesson.slug for lesson in levelled}]
    assert [lesson.slug for lesson in levelled] == order


def test_the_reading_times_sit_under_the_title(rendered):
    for lesson in PROJECT.lessons:
        found = re.search(rf'</h1>\s*<p class="{READING_CLASS}" title="[^"]+">([^<]+)</p>', rendered[lesson.slug])
        assert found and found.group(1) == reading_time_text(lesson.docstring), lesson.slug


def test_level_1s_options_table_is_labelled_for_cards(rendered):
    """Level 1's first table sits in a div.primer-stack, each body cell labelled with its column's header."""
    for lesson in PROJECT.lessons:
        html_ = rendered[lesson.slug]
        ids = _level_ids(html_)
        if set(ids) != {"1", "2"}:
            continue
        level_1 = html_[html_.index(f'id="{ids["1"]}"'):html_.index(f'id="{ids["2"]}"')]
        if "<table>" not in level_1:
            continue
        table = level_1[level_1.index("<table>"):level_1.index("</table>")]
        assert level_1[:level_1.index("<table>")].rstrip().endswith(f'<div class="{STACK_CLASS}">'), lesson.slug
        heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", table.split("</thead>")[1], re.S):
            labels = re.findall(r'<td data-label="([^"]*)"', row)
            assert labels == heads[:len(labels)] and len(labels) == row.count("<td"), (lesson.slug, labels, heads)


def test_a_table_wrapped_in_primer_stack_anywhere_is_labelled():
    context = PageContext("reference/config-keys.md", PROJECT, "site_build/pages.py")
    text = f'<div class="{STACK_CLASS}" markdown="1">\n\n| Key | What it means |\n|---|---|\n| `a` | b |\n\n</div>\n'
    html_ = markdown.markdown(text, extensions=["tables", "md_in_html", StackExtension(lambda: context)])
    assert '<td data-label="Key"><code>a</code></td>' in html_ and '<td data-label="What it means">b</td>' in html_


def test_the_practitioner_track_lists_every_level_1_in_order_with_its_time():
    page = track_page(PROJECT.lessons)
    rows = re.findall(r"^\d+\. \*\*\[([^\]]+)\]\(([^)#]+)#([^)]+)\)\*\* <span[^>]*>(Level 1: (\d+) min[^<]*)</span>(?:<br>(.*))?$",
                      page, re.M)
    levelled = [lesson for lesson in PROJECT.lessons if level_headings(lesson.docstring)]
    assert [(r[0], r[1]) for r in rows] == [(nav_title(lesson.title), lesson.page) for lesson in levelled]
    for row, lesson in zip(rows, levelled, strict=True):
        words_1 = reading_words(lesson.docstring)["Level 1"]
        assert int(row[4]) == math.ceil(words_1 / WORDS_PER_MINUTE), lesson.slug
        assert row[3] == reading_time_text(lesson.docstring, "Level 1") and row[5] == shown_sentence(lesson), lesson.slug
    total = sum(reading_words(lesson.docstring)["Level 1"] for lesson in levelled)
    assert f"about {math.ceil(total / WORDS_PER_MINUTE)} minutes: {total:,} words" in page


def _unmarked(sentence: str) -> str:
    """A sentence without its evidence markers (⟨id⟩ with the space before it), removed here by hand."""
    out = ""
    while "⟨" in sentence:
        before, _, sentence = sentence.partition("⟨")
        out += before.rstrip()
        sentence = sentence.partition("⟩")[2]
    return out + sentence


def test_the_lists_show_each_one_sentence_without_its_evidence_markers():
    """The home list and the track show each lesson's one sentence away from its page, where a marker
    (⟨learned-rows⟩) cannot open its evidence: no ⟨ or ⟩ on either, and the sentence otherwise as written.
    A lesson's one sentence does carry markers (measured's), so the check checks something."""
    marked = [lesson.slug for lesson in PROJECT.lessons if "⟨" in one_sentence(lesson)]
    assert marked, "no one sentence carries an evidence marker: the check checks nothing"
    listed, track = lesson_list(PROJECT.lessons), track_page(PROJECT.lessons)
    assert "⟨" not in listed + track and "⟩" not in listed + track
    sentences = re.findall(r"<br>(.*)$", listed, re.M)
    expected = [_unmarked(one_sentence(lesson)) for lesson in PROJECT.lessons if one_sentence(lesson)]
    assert sentences == expected and all("  " not in s and " ;" not in s and " ." not in s for s in sentences)


def test_each_one_sentence_stands_alone():
    """A list shows the sentence away from its page: it points at no part of the page ("above", "below")."""
    for lesson in PROJECT.lessons:
        assert not re.search(r"\b(above|below)\b", shown_sentence(lesson)), (lesson.slug, shown_sentence(lesson))
