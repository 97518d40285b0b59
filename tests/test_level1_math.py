"""Level 1 needs no equations (../shared/LESSON_FORMAT.md; the home page promises "no equations"): no
lesson's Level 1, from its heading to the next `##`, holds a math span, `$...$` or `$$...$$`, as the
site's math renderer (pymdownx.arithmatex, generic) finds them in text; a symbol a Level 1 must name is
written in words or as code. Read through project/reading.py's parser: text tokens only, so a `$` in a
code span (a shell prompt, a price) is not math."""

from __future__ import annotations

import pytest

from project import reading as _prose
from tests.test_level1_figures import WITH_LEVEL_1, level_1_span


def level_1_math(text: str) -> list[tuple[int, str]]:
    """(0-based docstring line, span) of each math span in the text of the page's Level 1."""
    span = level_1_span(text)
    if span is None:
        return []
    lines: dict[int, str] = {}
    for item in _prose.inlines(text):
        if item.token.type == "text" and span[0] < item.line < span[1]:
            lines[item.line] = lines.get(item.line, "") + item.token.content
    joined = "\n".join(lines[line] for line in sorted(lines))
    starts = sorted(lines)
    found = []
    for match in _prose._MATH.finditer(joined):
        found.append((starts[joined.count("\n", 0, match.start())], match.group()))
    if "$$" in _prose._MATH.sub("", joined):  # a display formula the parser split across blocks
        found.append((span[0], "$$"))
    return found


@pytest.mark.parametrize("lesson", WITH_LEVEL_1, ids=lambda lesson: lesson.slug)
def test_level_1_holds_no_math(lesson):
    found = [f"line {lesson.file_line(line)}: {math}" for line, math in level_1_math(lesson.docstring)]
    assert not found, (f"{lesson.path}: Level 1 needs no equations; write these in words (or as code, "
                       f"for a symbol the page is about): {found}")


def test_the_check_finds_math_in_level_1_and_nowhere_else():
    """Planted: ALiBi's old slope ($2^{-8/n}$), a display formula, and a dollar in code that is not math."""
    page = ("# T\n\n## Level 1: the guide\n\n**In one sentence.** Head h gets the slope $2^{-8/n}$ and\n"
            "costs `$5` a day.\n\n$$\nx = 1\n$$\n\n## Level 2: how it works\n\nHere $x_i$ is fine.\n")
    assert [math for _, math in level_1_math(page)] == ["$2^{-8/n}$", "$$\nx = 1\n$$"]
    assert level_1_math(page.replace("$2^{-8/n}$", "two to the power minus 8/n").replace("$$\nx = 1\n$$", "")) == []
