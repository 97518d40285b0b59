"""The notation page opens with its symbol finder (issue 43, item 8): it is the first page a
learner is sent to, and what they come for is one symbol. Under the title block (the run line and
what the page builds on) the first section is the finder, a table of symbols whose every row links
to a section of the page that exists; the practitioner's guide comes after it."""

from __future__ import annotations

import re

from markdown.extensions.toc import slugify

from tests.conftest import LESSONS

NOTATION = next(lesson for lesson in LESSONS if lesson.slug == "notation")
FINDER_HEADER = re.compile(r"^\| *Symbol *\| *Read it as *\| *Section *\|$", re.M)


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of each `## ` section, in page order."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_the_first_section_under_the_title_is_the_symbol_finder():
    text = NOTATION.docstring
    title_block = re.split(r"^## ", text, maxsplit=1, flags=re.M)[0]
    heading, body = _sections(text)[0]
    assert heading.strip().lower() == "the symbol finder", f"the first section is {heading!r}, not the finder"
    assert FINDER_HEADER.search(body), "the finder is a table: symbol, read it as, section"
    assert not re.search(r"^\|", title_block, re.M), "no table stands between the title and the finder"
    prose = [line for line in title_block.splitlines()[1:] if line.strip() and not line.startswith("#")]
    assert all(line.startswith(("Run", "Builds on")) for line in prose), (
        f"the title block holds only the run line and what the page builds on: {prose}")
    headings = [h for h, _ in _sections(text)]
    assert headings.index(heading) < next(i for i, h in enumerate(headings) if h.startswith("Level 1"))


def test_every_finder_row_links_to_a_section_of_the_page():
    text = NOTATION.docstring
    heading, body = _sections(text)[0]
    rows = [line for line in body.splitlines() if line.startswith("| ") and not FINDER_HEADER.match(line)
            and not line.startswith("|---")]
    anchors = {slugify(h.strip(), "-") for h, _ in _sections(text)}
    numbered = {slugify(h.strip(), "-") for h, _ in _sections(text) if re.match(r"\d+\. ", h)}
    targets = [re.findall(r"\]\(#([^)]+)\)", row.rsplit("|", 2)[1]) for row in rows]
    assert len(rows) >= 10 and all(len(t) == 1 for t in targets), "each row's last cell links to one section"
    assert {t[0] for t in targets} <= anchors, sorted({t[0] for t in targets} - anchors)
    assert {t[0] for t in targets} == numbered, "the finder reaches every numbered section, and only those"
