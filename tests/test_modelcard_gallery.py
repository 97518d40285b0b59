"""The gallery page modelcard/gallery.py generates: one collapsible entry per gallery config
with its figure, its reading and the report the code prints; groups that hold every config once
and match the lesson's sections *Gallery: ...*."""

from __future__ import annotations

import re

import numpy as np

import pytest

from lessons.model_card import explain, figure_name
from lessons.tools.model_types import gallery
from modelcard.report import report
from site_build.markdown.reports import REPORT_FENCE, shown_report
from tests.conftest import ROOT

GALLERY = gallery()
PAGE = (ROOT / "lessons" / "model_card.py").read_text(encoding="utf-8")


def _gallery_page() -> str:
    from modelcard.gallery import gallery_page

    return gallery_page()


def test_every_gallery_config_has_a_collapsible_entry_with_its_figure_and_report():
    page = _gallery_page()
    shown = dict(shown_report(m) for m in REPORT_FENCE.finditer(page))
    assert sorted(shown) == sorted(GALLERY), "one report per gallery config, no other"
    assert page.count('??? example "') == len(GALLERY), "one collapsible entry per config"
    no_figure = [slug for slug in GALLERY if f"](figures/model_card.{figure_name(slug)}.svg)" not in page]
    assert not no_figure, f"the gallery page has no figure for {no_figure}"
    for slug, entry in GALLERY.items():
        assert f'??? example "{entry["name"]}"' in page and f"**Reading it:** {entry['reading']}" in page
        assert shown[slug] == report(explain(entry["config"]), None, entry["repo"])
    assert "python -m modelcard" not in PAGE.split("## Gallery: plain RoPE")[1].split("## In 20 seconds")[0] \
        .replace("`python -m modelcard` prints", ""), "the lesson pastes no report any more"


def test_the_gallery_groups_hold_every_config_once_and_link_the_lesson():
    from markdown.extensions.toc import slugify

    from modelcard import gallery as page_module

    assert sorted(s for _, slugs in page_module.grouped() for s in slugs) == sorted(GALLERY)
    headings = {slugify(line[3:], "-") for line in PAGE.splitlines() if line.startswith("## ")}
    page = _gallery_page()
    page_headings = {slugify(line[3:], "-") for line in page.splitlines() if line.startswith("## ")}
    for section, _ in page_module.GROUPS:
        assert slugify(f"Gallery: {section}", "-") in headings, f"the lesson has no section Gallery: {section}"
        # the lesson's link to this group lands on a heading of the gallery page
        assert f"model-card-gallery.md#{section.lower().replace(' ', '-')}" in PAGE
        assert section.lower().replace(" ", "-") in page_headings
    planted = (*page_module.GROUPS, ("plain RoPE", ("gpt2",)))
    try:
        page_module.GROUPS = planted
        with pytest.raises(ValueError, match="twice"):
            page_module.grouped()
    finally:
        page_module.GROUPS = planted[:-1]


@pytest.mark.parametrize("slug", GALLERY)
def test_gallery_entries_say_where_they_were_read(slug):
    entry = GALLERY[slug]
    assert entry["read_from"] and isinstance(entry["secondary"], bool)
    assert f"`{entry['repo']}`" in _gallery_page(), f"the gallery page names {entry['repo']}"


def test_each_figures_alt_text_names_the_lines_it_draws():
    """The gallery's alt text (`card_figure_text`) and the figure (`card_figure`) name the same
    lines: the trained and config lengths, a 'before scaling' line, the scheme's quantity."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lessons.model_card import card_figure
    from modelcard.gallery import card_figure_text

    problems = []
    for slug, entry in GALLERY.items():
        card = explain(entry["config"])
        fig = card_figure(card, entry["name"])
        drawn = " ".join(text.get_text() for legend in fig.legends for text in legend.get_texts())
        drawn += " " + " ".join(" ".join([ax.get_ylabel(), ax.get_xlabel(), *(t.get_text() for t in ax.get_yticklabels())])
                                for ax in fig.axes)
        plt.close(fig)
        said = card_figure_text(card)
        for line in ("trained length", "config length", "before"):
            if (line in drawn) != (line in said):
                problems.append(f"{slug}: figure {'draws' if line in drawn else 'lacks'} {line!r}; alt: {said!r}")
        for quantity, words in (("wavelength", "wavelength"), ("halves", "halves"), ("rows", "rows")):
            if (quantity in drawn) != (words in said):
                problems.append(f"{slug}: figure and alt disagree on {quantity!r}: {said!r}")
    assert not problems, "\n".join(problems)


def _numbers(text: str) -> list[float]:
    """The numbers written in `text` (thousands separators, decimals, 1e+06 forms), model names aside."""
    text = re.sub(r"\b(Llama|Qwen|Phi|Gemma|GPT|Mistral|transformers|vLLM|SGLang)[ -]?\d[\w.]*", "", text)
    text = re.sub(r"`[^`]*`", "", text)  # code: a key or a command, not a number the reading states
    return [float(t.rstrip(".,").replace(",", "")) for t in re.findall(r"\d[\d,]*(?:\.\d+)?(?:e[+-]\d+)?", text)]


def _written(entry: dict) -> set[float]:
    """Every number the entry's report prints and its config holds."""
    def leaves(v):
        if isinstance(v, dict):
            for x in v.values():
                yield from leaves(x)
        elif isinstance(v, list):
            for x in v:
                yield from leaves(x)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            yield float(v)
    return set(_numbers(report(explain(entry["config"]), None, entry["repo"]))) | set(leaves(entry["config"]))


def _derived() -> dict[str, dict[float, float]]:
    """The numbers a reading states that neither its report nor its config writes as such:
    {slug: {number as written: the value the code computes}}."""
    from lessons.alibi import half_weight_distance
    from lessons.model_card import pairs_that_turn

    card = {slug: explain(entry["config"]) for slug, entry in GALLERY.items()}
    llama2 = card["llama-2-7b"].rope[0]
    phi = card["phi-3.5-mini"].rope[0]
    long = phi.default_inv_freq / np.asarray(phi.parameters["long_factor"])[: len(phi.default_inv_freq)]
    glm = GALLERY["glm-4-9b-chat"]["config"]
    return {
        "bloom-560m": {177: round(half_weight_distance(card["bloom-560m"].alibi_slopes[-1]))},
        "command-r": {8_000_000: card["command-r"].rope[0].base},
        "gemma-3-4b": {1_000_000: max(g.base for g in card["gemma-3-4b"].rope)},
        "glm-4-9b-chat": {10_000: card["glm-4-9b-chat"].rope[0].base / glm["rope_ratio"]},
        "gpt2": {2048: 2 * card["gpt2"].max_length},
        "llama-2-7b": {18: len(llama2.inv_freq) - int(pairs_that_turn(llama2.inv_freq, 4096).sum())},
        "phi-3.5-mini": {65: round(float(np.max(phi.default_inv_freq / long)))},
        "qwen2-vl-7b": {1_000_000: card["qwen2-vl-7b"].rope[0].base},
        "smollm3-3b": {5_000_000: card["smollm3-3b"].rope[0].base, 9: len(card["smollm3-3b"].nope_layers)},
    }


def test_every_number_a_reading_states_is_the_codes():
    """Each number in a gallery entry's `reading` is printed by its report, held by its config, or
    computed here from the card (`_derived`); a number none of them gives fails."""
    derived = _derived()
    problems = []
    for slug, entry in GALLERY.items():
        known = _written(entry)
        for number in _numbers(entry["reading"]):
            if number in known:
                continue
            want = derived.get(slug, {}).get(number)
            if want is None or not np.isclose(want, number):
                problems.append(f"{slug}: the reading says {number:g}; the code gives {want}")
    assert not problems, "\n".join(problems)
