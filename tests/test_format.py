"""Every lesson page follows the levelled format (docs/authoring.md): Level 1's
eight parts in order, each Level 2 section's required parts (and the companion
of any optional part it has, with no filler standing in for a part), and the
closing sections. A missing part fails with the lesson's file and section."""

from __future__ import annotations

import re

import pytest

from project import reading as _prose
from site_build.layout import CODE_COLUMNS
from site_build.markdown.reports import REPORT_FENCE
from tests.conftest import LESSONS, PAGES

LEVEL_1 = ["In one sentence.", "When you need it.", "Your options.", "How to choose.",
           "What it costs.", "What breaks.", "In the wild.", "Go deeper."]
# Every Level 2 section keeps these; the other parts appear only where they
# have something to say (the contract: a part with nothing to say is left out).
LEVEL_2_REQUIRED = ["**Tiny worked example.**", "**In Python:**", "```python", "**Why it matters.**"]
# A part that appears brings its companion: a diagram or a figure is read, a
# formula's symbols are decoded.
COMPANIONS = [("```mermaid", "**Reading it:**"), ("](figures/", "**Reading it:**"), ("**Symbols**", "**In words:**")]
# Filler that stands in for a part instead of leaving it out.
FILLER = re.compile(r"\b(no figure here|no diagram here|no function here|nothing to (draw|plot|show) here)\b", re.I)
CLOSING = ["## In 20 seconds", "## Self-test questions", "## The papers behind this lesson", "## Further reading"]
BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of each `## ` section of a piece of Markdown."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))


@pytest.mark.parametrize("slug", BY_SLUG)
def test_title_block_says_how_to_run_and_what_it_builds_on(slug):
    lesson = BY_SLUG[slug]
    head = lesson.docstring.split("## Level 1", 1)[0]
    assert f"`python -m lessons.{slug}`" in head, f"{lesson.path}: the title block says how to run the lesson"
    assert "`lessons." in head.replace(f"`python -m lessons.{slug}`", ""), (
        f"{lesson.path}: the title block links the lessons it builds on (or the notation page)"
    )


@pytest.mark.parametrize("slug", BY_SLUG)
def test_level_1_has_the_eight_parts_in_order(slug):
    lesson = BY_SLUG[slug]
    text = lesson.docstring
    assert "## Level 1" in text and "## Level 2" in text, f"{lesson.path}: needs '## Level 1' and '## Level 2'"
    level_1 = text[text.index("## Level 1"):text.index("## Level 2")]
    where = [level_1.find(f"**{part}**") for part in LEVEL_1]
    missing = [part for part, at in zip(LEVEL_1, where, strict=True) if at < 0]
    assert not missing, f"{lesson.path}: Level 1 lacks {missing}"
    assert where == sorted(where), f"{lesson.path}: Level 1 parts must come in the order {LEVEL_1}"
    assert re.search(r"^\| *Option *\|.*\| *Where it lives *\|", level_1, re.M), (
        f"{lesson.path}: 'Your options' is a table: option, what it does, gives, costs, where it lives"
    )


@pytest.mark.parametrize("slug", BY_SLUG)
def test_each_level_2_section_has_every_part(slug):
    lesson = BY_SLUG[slug]
    text = lesson.docstring
    level_2 = text[text.index("## Level 2"):text.index("## In 20 seconds")]
    sections = _sections(level_2)[1:]  # the first is the Level 2 heading itself
    assert sections, f"{lesson.path}: Level 2 has no '## ' sections"
    problems = []
    for heading, body in sections:
        missing = [p.strip("*`") for p in LEVEL_2_REQUIRED if p not in body]
        missing += [companion.strip("*:") for part, companion in COMPANIONS if part in body and companion not in body]
        if missing:
            problems.append(f"{lesson.path}: Level 2 section '{heading}' lacks {missing}")
        filler = FILLER.search(body)
        if filler:
            problems.append(f"{lesson.path}: Level 2 section '{heading}' fills a part with {filler.group(0)!r}; "
                            "leave a part with nothing to say out")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("slug", BY_SLUG)
def test_closing_sections_questions_and_papers(slug):
    lesson = BY_SLUG[slug]
    text = lesson.docstring
    where = [text.find(heading) for heading in CLOSING]
    assert all(at >= 0 for at in where) and where == sorted(where), (
        f"{lesson.path}: the page ends with {CLOSING}, in that order"
    )
    questions = text[where[1]:where[2]]
    assert questions.count('??? question "') >= 3, f"{lesson.path}: at least three collapsible self-test questions"
    papers = text[where[2]:where[3]]
    assert re.search(r"https://arxiv\.org/abs/\d{4}\.\d{4,5}", papers), f"{lesson.path}: papers link to arXiv"


# A subscript that is a word or an abbreviation (d_model, β_fast, L_train) is a label, set upright
# as \text{...}; a letter or a run of single-letter indices (q_m, b_ij) is a variable, in italics.
# Three letters or more are taken for a word, except the names the pages use as variables.
WORD_SUBSCRIPT = re.compile(r"_\{([A-Za-z]{3,})\}")
VARIABLE_NAMES = {"pos"}  # "PE_{pos}": the position, as the Transformer paper writes it


def italic_word_subscripts(text: str) -> list[str]:
    """Each subscript of `text` that spells a word in math italics, as written."""
    return [f"_{{{word}}}" for word in WORD_SUBSCRIPT.findall(text) if word not in VARIABLE_NAMES]


@pytest.mark.parametrize("page", PAGES, ids=[page.slug for page in PAGES])
def test_a_word_in_a_subscript_is_upright_text(page):
    found = italic_word_subscripts(page.docstring)
    assert not found, f"{page.path}: write these as _{{\\text{{...}}}}: {sorted(set(found))}"


def test_the_subscript_check_finds_an_italic_word():
    assert italic_word_subscripts(r"$d_{model}$, $q_{mn}$, $\beta_{\text{fast}}$, $PE_{pos}$") == ["_{model}"]


@pytest.mark.parametrize("page", PAGES, ids=[page.slug for page in PAGES])
def test_code_blocks_fit_the_column(page):
    """Every line of a page's code blocks fits the text column at 1280 px (CODE_COLUMNS characters):
    a long `# →` value goes on the lines under its expression. Diagram sources are not shown as code,
    nor are model-card reports (the site shows each as HTML tables: site_build/markdown/reports.py)."""
    shown = [(line, code) for line, code in _prose.fences(page.docstring, None)
             if not REPORT_FENCE.fullmatch(f"```text\n{code.rstrip()}\n```")]
    too_long = [(page.file_line(line + i), len(text)) for line, code in shown
                for i, text in enumerate(code.splitlines()) if len(text) > CODE_COLUMNS]
    assert not too_long, f"{page.path}: code lines wider than {CODE_COLUMNS} characters (line, length): {too_long}"
