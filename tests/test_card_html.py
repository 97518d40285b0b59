"""The model-card report as HTML (modelcard.html) says what the CLI prints.

The equivalence, checked on every gallery config and 300 generated ones (each at its default
length and past its config length): read the HTML section by section (`data-section`), each
row (class `pmc-row`) as the text of its cells (class `pmc-cell`); put each row's cells into
that row's line template (the one the CLI's text renderer fills) and the sections, taken in
the CLI's order, give back the CLI's output line for line, character for character. Besides,
the HTML opens with the verdict and then the warnings, each a Material admonition with a fix
and a link, by its page title, to a lesson that teaches the matter. The in-browser decoder's
copy of all this is compared in tests/test_model_card_browser.py."""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as etree

import pytest

from markdown.extensions.toc import slugify

from project.reading import mentions, taught_at
from lessons._vocabulary import TERMS
from lessons.model_card import explain
from modelcard.html import ADVICE, TAUGHT, page_title, render_html, taught
from modelcard.report import report, report_sections
from lessons.tools.model_types import gallery
from site_build.pages import nav_title
from tests.conftest import LESSONS
from tests.model_card_cases import generated_configs

GALLERY = gallery()


def _cases() -> list[tuple[dict, int | None]]:
    """(config, length to serve) for every gallery config and 300 generated ones that explain reads."""
    out = []
    for config in [entry["config"] for entry in GALLERY.values()] + generated_configs(300, seed=0):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                card = explain(config)
        except ValueError:
            continue
        out += [(config, None), (config, (card.max_length or 4096) * 2 + 3)]
    return out


CASES = _cases()


def _classes(el: etree.Element) -> list[str]:
    return (el.get("class") or "").split()


def read_html(fragment: str) -> tuple[etree.Element, list[tuple[str, list[list[str]]]]]:
    """The report's root element, and [(section name, [[cell text, ...] per row])] in the HTML's order."""
    root = etree.fromstring(fragment)
    sections = []
    for section in root.iter():
        if section.get("data-section"):
            rows = [el for el in section.iter() if "pmc-row" in _classes(el)]
            sections.append((section.get("data-section"),
                             [["".join(c.itertext()) for c in row.iter() if "pmc-cell" in _classes(c)] for row in rows]))
    return root, sections


def lines_from_html(fragment: str, structure: dict) -> list[str]:
    """The CLI's lines as the HTML gives them: each row's cells, read from the HTML, in the row's template."""
    _, read = read_html(fragment)
    shown = dict(read)
    assert len(shown) == len(read), "one element per section"
    lines = []
    for section in structure["sections"]:
        rows = shown.get(section["key"], [])
        assert len(rows) == len(section["rows"]), f"section {section['key']}: {len(rows)} rows in the HTML, " \
                                                  f"{len(section['rows'])} in the report"
        lines += [row["line"].format(*cells) for row, cells in zip(section["rows"], rows, strict=True)]
    return lines


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_html_reads_as_the_cli_prints(case):
    config, served = CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        card = explain(config)
    structure = report_sections(card, served, "org/model")
    fragment = render_html(structure, lambda slug: f"{slug}.md")
    assert lines_from_html(fragment, structure) == report(card, served, "org/model").splitlines()
    root, read = read_html(fragment)
    # first the verdict, then the warnings, then the rest in the CLI's order
    assert "pmc-verdict" in _classes(root[0]) and "".join(root[0].itertext()).endswith(structure["verdict"])
    names = [name for name, _ in read]
    order = [s["key"] for s in structure["sections"]]
    assert names == sorted(order, key=lambda key: key != "warnings")
    for admonition in (el for el in root.iter("div") if "admonition" in _classes(el)):
        assert _classes(admonition)[:2] == ["admonition", "warning"] and "admonition-title" in _classes(admonition[0])
        (link,) = admonition.iter("a")
        assert link.get("href").endswith(".md") and "".join(link.itertext()) == page_title(link.get("href")[:-3])
        assert "Fix:" in "".join(admonition.itertext()) and "{" not in "".join(admonition.itertext())


def test_every_warning_links_to_a_lesson_that_teaches_its_key():
    """Each entry of ADVICE names a key of the vocabulary and a lesson the config-keys page lists
    for it (the lessons that name the key in a code span); the link's text is that page's title."""
    by_slug = {lesson.slug: lesson for lesson in LESSONS}
    for entry in ADVICE:
        assert entry["key"] in TERMS, entry
        taught = [lesson.slug for lesson in LESSONS if mentions(lesson, entry["key"])]
        assert entry["slug"] in taught, (entry["key"], entry["slug"], taught)
        assert page_title(entry["slug"]) == nav_title(by_slug[entry["slug"]].title)
    assert ADVICE[-1]["starts"] == "" and all(e["starts"] for e in ADVICE[:-1]), "the last entry catches the rest"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seen = {row["title"] for config, served in CASES
                for row in next((s["rows"] for s in report_sections(explain(config), served)["sections"]
                                 if s["key"] == "warnings"), [])}
    assert len(seen) >= 6, f"the cases meet most kinds of warning: {seen}"


def test_each_taught_row_links_to_the_section_that_teaches_its_key():
    """Each entry of TAUGHT names a key of the vocabulary and the section of its lesson that the
    config-keys page links for that key (the first Level 2 section naming it)."""
    by_slug = {lesson.slug: lesson for lesson in LESSONS}
    for label, entry in TAUGHT.items():
        assert entry["key"] in TERMS, (label, entry)
        heading = taught_at(by_slug[entry["slug"]], entry["key"])
        assert heading is not None and slugify(heading, "-") == entry["anchor"], (label, entry, heading)


def test_the_gallery_reports_link_each_taught_row():
    """Every label of TAUGHT appears in some gallery report, and there its label is a link to the section."""
    seen = set()
    for entry in gallery().values():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            structure = report_sections(explain(entry["config"]))
        rows = [r for s in structure["sections"] if s["key"] not in ("warnings", "notes", "sources") for r in s["rows"]]
        fragment = render_html(structure, lambda slug: f"{slug}.md")
        for row in rows:
            where = taught(row)
            if where:
                seen.add("RoPE" if row["line"].startswith("RoPE, ") else row["cells"][0])
                assert f'<a href="{where["slug"]}.md#{where["anchor"]}">' in fragment
    assert seen == set(TAUGHT), set(TAUGHT) - seen
