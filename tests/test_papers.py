"""Every paper companion follows its short page contract (docs/authoring.md):
the sections in order, the arXiv link, a symbol table, at least one checked
Python line, quoted results that say where in the paper they come from, and
links both ways with the lessons that cite the paper."""

from __future__ import annotations

import re

import pytest

from project import reading as pages
from tests.conftest import LESSONS, PAPERS

SECTIONS = ["## What the paper set out to fix", "## Reading guide", "## Symbols: the paper's notation and the site's",
            "## The equations, with the code", "## What the paper reports", "## What later work changed"]
BY_SLUG = {paper.slug: paper for paper in PAPERS}


def test_there_are_six_companions():
    assert len(PAPERS) == 6, [p.slug for p in PAPERS]


@pytest.mark.parametrize("slug", BY_SLUG)
def test_sections_in_order(slug):
    paper = BY_SLUG[slug]
    where = [paper.docstring.find(heading) for heading in SECTIONS]
    missing = [h for h, at in zip(SECTIONS, where, strict=True) if at < 0]
    assert not missing, f"{paper.path}: lacks {missing}"
    assert where == sorted(where), f"{paper.path}: sections must come in the order {SECTIONS}"


@pytest.mark.parametrize("slug", BY_SLUG)
def test_head_links_arxiv_and_the_lessons(slug):
    paper = BY_SLUG[slug]
    head = paper.docstring.split("## ", 1)[0]
    assert re.search(r"\(https://arxiv\.org/abs/\d{4}\.\d{4,5}\)", head), f"{paper.path}: the arXiv link opens the page"
    assert pages.lesson_refs(paper), f"{paper.path}: say which lesson(s) to read it with (`lessons.<slug>`)"


@pytest.mark.parametrize("slug", BY_SLUG)
def test_symbols_table_and_checked_equations(slug):
    paper = BY_SLUG[slug]
    text = paper.docstring
    symbols = text.split("## Symbols", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^\|.*\|.*\|", symbols, re.M), f"{paper.path}: the symbols section is a table"
    equations = text.split("## The equations, with the code", 1)[1].split("\n## ", 1)[0]
    arrows = sum(block.code.count(pages.ARROW) for block in pages.python_blocks(paper) if block.code in equations)
    assert arrows >= 2, f"{paper.path}: reproduce values of the equations with `# →` lines"


@pytest.mark.parametrize("slug", BY_SLUG)
def test_reported_results_say_where_they_come_from(slug):
    paper = BY_SLUG[slug]
    reports = paper.docstring.split("## What the paper reports", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"(Table|Figure|Section|§|Theorem|Appendix)\s*[\dA-Z]", reports), (
        f"{paper.path}: quoted results name their table, figure or section")


@pytest.mark.parametrize("slug", BY_SLUG)
def test_the_lessons_that_cite_the_paper_link_the_companion(slug):
    paper = BY_SLUG[slug]
    arxiv = re.search(r"arxiv\.org/abs/(\d{4}\.\d{4,5})", paper.docstring).group(1)
    citing = [lesson for lesson in LESSONS if arxiv in lesson.docstring.split("## The papers behind this lesson", 1)[-1]]
    assert citing, f"{paper.path}: no lesson cites arXiv {arxiv} in its papers section"
    unlinked = [lesson.slug for lesson in citing if f"`papers.{slug}`" not in lesson.docstring]
    assert not unlinked, f"{paper.path}: these lessons cite the paper but do not link its companion: {unlinked}"
