"""Issue 24's budget: a lesson keeps at most 500 non-blank code lines outside its module docstring
(function docstrings count). Past that, published data moves to JSON, tool-like code to lessons/tools/,
and a helper another lesson teaches is imported from it."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import LESSONS

BUDGET = 500
MODULE_BUDGET = 450  # every other module of the project: non-blank lines, docstrings included


def code_lines(source: str) -> int:
    """Non-blank lines of `source` outside its module docstring."""
    tree = ast.parse(source)
    first = tree.body[0] if tree.body else None
    page = set()
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        page = set(range(first.lineno, first.end_lineno + 1))
    return sum(1 for n, line in enumerate(source.splitlines(), 1) if line.strip() and n not in page)


def test_code_lines_skip_the_page_and_blank_lines_only():
    assert code_lines('r"""\n# Page\n\ntext\n"""\n\nimport numpy\n\n\ndef f():\n    """Doc."""\n    return 1\n') == 4


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_lesson_code_fits_the_budget(lesson):
    n = code_lines(lesson.path.read_text(encoding="utf-8"))
    assert n <= BUDGET, f"{lesson.path.name}: {n} non-blank code lines outside the page, budget {BUDGET}"
