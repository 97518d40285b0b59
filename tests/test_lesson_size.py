"""Issue 24's budgets: a lesson (or paper companion) keeps at most 500 non-blank code lines outside its module docstring
(function docstrings count). Past that, published data moves to JSON, tool-like code to lessons/tools/,
and a helper another lesson teaches is imported from it."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import PAGES

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


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_lesson_code_fits_the_budget(lesson):
    n = code_lines(lesson.path.read_text(encoding="utf-8"))
    assert n <= BUDGET, f"{lesson.path.name}: {n} non-blank code lines outside the page, budget {BUDGET}"


PAGE_PACKAGES = ("lessons", "papers")  # page modules: the budget above, outside their docstring


def _modules() -> list[str]:
    """Every other Python module of the project (tests' learner files and data aside)."""
    import subprocess

    from tests.conftest import ROOT

    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not listed:  # not a git checkout: walk the tree
        listed = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if ".venv" not in p.parts]
    return sorted(m for m in listed if not m.startswith("tests/data/")
                  and not (m.count("/") == 1 and m.split("/")[0] in PAGE_PACKAGES and not m.split("/")[1].startswith("_")))


def test_every_other_module_fits_its_budget():
    from tests.conftest import ROOT

    over = {}
    for module in _modules():
        path = ROOT / module
        if path.is_file():
            n = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
            if n > MODULE_BUDGET:
                over[module] = n
    assert not over, f"modules over {MODULE_BUDGET} non-blank lines: {over}"
