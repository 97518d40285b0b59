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

from project.reading import mentions, sections, taught_at
from lessons._vocabulary import TERMS
from lessons.model_card import explain
from lessons.context_extension import ROPE_TYPES
from modelcard.html import (ADVICE, CHOOSE, ROPE_TYPE_TAUGHT, SCHEME_TAUGHT, TAUGHT, TRAINED_BAND, page_title,
                           render_html, taught)
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
    # first the verdict, then the warnings, then the rest in the CLI's order; the verdict ends with a link
    # to the Level 1 "How to choose" of the lesson that decides it, by the lesson's title
    go = structure["choose"]
    assert "pmc-verdict" in _classes(root[0]) and "".join(root[0].itertext()) == \
        f"Verdict: {structure['verdict']} How to choose: {page_title(go['slug'])}"
    (choose,) = root[0].iter("a")
    assert choose.get("href") == f"{go['slug']}.md#how-to-choose" and choose.text == page_title(go["slug"])
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
    """Each entry of TAUGHT (the rows whose label alone decides their link) names a key of the vocabulary
    and the section of its lesson that the config-keys page links for that key (the first Level 2
    section naming it)."""
    by_slug = {lesson.slug: lesson for lesson in LESSONS}
    for label, entry in TAUGHT.items():
        assert entry["key"] in TERMS, (label, entry)
        heading = taught_at(by_slug[entry["slug"]], entry["key"])
        assert heading is not None and slugify(heading, "-") == entry["anchor"], (label, entry, heading)


# The heading each rope type's rule is taught under must name it (the method, as the lesson's title for
# it says), so that a link chosen from the config lands where that config's rule is explained.
RULE_NAMES = {"default": "layouts", "partial": "Partial rotary", "local": "Local and global layers", "linear": "position interpolation",
              "dynamic": "Dynamic NTK", "yarn": "YaRN", "longrope": "LongRoPE", "llama3": "Llama 3's rule",
              "proportional": "rope_inv_freq"}
SCHEME_NAMES = {"rope": "RoPE", "mixed": "Different schemes", "alibi": "ALiBi", "none": "NoPE",
                "learned": "Learned", "sinusoidal": "Sinusoidal"}


def _headings(slug: str) -> dict[str, str]:
    """{anchor: heading} of a lesson's ## sections, as the site's table of contents names them."""
    lesson = next(lesson for lesson in LESSONS if lesson.slug == slug)
    return {slugify(heading, "-"): heading for heading, _ in sections(lesson.docstring)}


def test_rows_chosen_from_the_config_link_the_section_of_their_rule():
    """Every rope type (and partial rotary) and every scheme has a section, a heading of its lesson
    that names that rule or scheme; the verdict's lesson has a Level 1 with a *How to choose*."""
    assert set(ROPE_TYPE_TAUGHT) == {*ROPE_TYPES, "partial", "local"} and set(SCHEME_TAUGHT) == set(CHOOSE)
    for table, names in ((ROPE_TYPE_TAUGHT, RULE_NAMES), (SCHEME_TAUGHT, SCHEME_NAMES)):
        for kind, entry in table.items():
            heading = _headings(entry["slug"]).get(entry["anchor"])
            assert heading is not None and names[kind] in heading, (kind, entry, heading)
    heading = _headings(TRAINED_BAND["slug"]).get(TRAINED_BAND["anchor"])
    assert heading is not None and "trained band" in heading, TRAINED_BAND
    for scheme, slug in CHOOSE.items():
        lesson = next(lesson for lesson in LESSONS if lesson.slug == slug)
        level1 = lesson.docstring.split("## Level 1", 1)[1].split("\n## ", 1)[0]
        assert "\n**How to choose.**" in level1, (scheme, slug)


def _links(structure: dict) -> dict[str, str]:
    """{row label: "slug#anchor"} of a report's linked table rows, read from its HTML."""
    root, _ = read_html(render_html(structure, lambda slug: slug))
    return {"".join(a.itertext()): a.get("href") for th in root.iter("th") for a in th.iter("a")}


def test_the_links_follow_the_config():
    """Llama 3.1's rows lead to Llama 3's rule, Qwen2.5's YaRN block to YaRN, Gemma 3's linear global
    layers to position interpolation and its plain local (sliding-window) ones to local and global layers, as
    ModernBERT's, Pythia's quarter-width
    rotary to partial rotary; the scheme row to the scheme's section (issue 43, item 6: the links
    followed the first Level 2 section naming a term, whatever the config said)."""
    def card(slug):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return explain(GALLERY[slug]["config"])

    def at(kind):
        return f"{ROPE_TYPE_TAUGHT[kind]['slug']}#{ROPE_TYPE_TAUGHT[kind]['anchor']}"

    llama = _links(report_sections(card("llama-3.1-8b")))
    assert llama["every RoPE layer"] == llama["trained length"] == llama["scale"] == at("llama3"), llama
    qwen = _links(report_sections(card("qwen2.5-7b-yarn")))
    assert qwen["every RoPE layer"] == qwen["trained length"] == at("yarn"), qwen
    gemma = _links(report_sections(card("gemma-3-4b")))
    assert gemma["full_attention (5 layers)"] == at("linear") and gemma["sliding_attention (29 layers)"] == at("local")
    modernbert = _links(report_sections(card("modernbert-base")))
    assert modernbert["full_attention (8 layers)"] == at("default") and modernbert["sliding_attention (14 layers)"] == at("local")
    assert _links(report_sections(card("pythia-1.4b")))["every RoPE layer"] == at("partial")
    for slug in ("llama-3.1-8b", "bloom-560m", "gpt2", "smollm3-3b"):
        c = card(slug)
        want = SCHEME_TAUGHT[c.scheme]
        assert _links(report_sections(c))["scheme"] == f"{want['slug']}#{want['anchor']}", slug
    assert {report_sections(card(s))["choose"]["slug"] for s in ("llama-3.1-8b", "bloom-560m", "gpt2")} == \
        {"context_extension", "alibi", "positional"}


def test_the_gallery_reports_link_each_taught_row():
    """Every label of TAUGHT appears in some gallery report, and there its label is a link to the section;
    so does every rope type and scheme of the gallery's configs."""
    seen, kinds, schemes = set(), set(), set()
    for entry in gallery().values():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            card = explain(entry["config"])
            structure = report_sections(card)
        schemes.add(card.scheme)
        rows = [r for s in structure["sections"] if s["key"] not in ("warnings", "notes", "sources") for r in s["rows"]]
        fragment = render_html(structure, lambda slug: f"{slug}.md")
        for row in rows:
            where = taught(row)
            if where:
                seen.add(row["cells"][0])
                kinds.add(where["anchor"])
                assert f'<a href="{where["slug"]}.md#{where["anchor"]}">' in fragment
    assert set(TAUGHT) <= seen, set(TAUGHT) - seen
    used = {"partial", "default", "local", "linear", "yarn", "longrope", "llama3"}  # the rope types the gallery names
    assert {ROPE_TYPE_TAUGHT[k]["anchor"] for k in used} | {SCHEME_TAUGHT[s]["anchor"] for s in schemes} <= kinds
