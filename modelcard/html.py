"""The model-card report as HTML, and the advice beside each of its warnings.

`modelcard.report.report_sections` gives the report as data (sections of rows, each
row with its text template and its cells); the CLI prints it as text (`render_text`) and the
site shows it through `render_html` here: a verdict first, the warnings as admonitions with a
fix and a link to the lesson that teaches the matter, the rest as tables. The in-browser
decoder (modelcard/web/model_card.js) writes the same HTML from the same data; the tables it
reads (`ADVICE`, `page_titles`) come from here through `modelcard.data`.
"""

from __future__ import annotations

import functools
import html
import importlib.util
from collections.abc import Callable
from pathlib import Path

from project.model import read_lesson

# What a warning asks of the reader, by the start of its text (the first that matches; the
# last matches any): a title, a fix (filled from the card: {served}, {trained}, {limit},
# {stretch}), the config key it is about (lessons/_vocabulary.py) and the lesson that teaches
# it, one of the lessons the config-keys page lists for that key (tests/test_card_html.py).
ADVICE: tuple[dict[str, str], ...] = (
    {"starts": "the config does not say how long the model was trained",
     "title": "The trained length is not stated",
     "fix": "Find it in the model's paper or card; until then treat {trained} as the most to serve, "
            "and measure long prompts before you rely on them.",
     "key": "original_max_position_embeddings", "slug": "context_extension"},
    {"starts": "the config claims ", "title": "A claimed length with no scaling entry",
     "fix": "Serve at most the trained {trained} positions, or add a scaling entry (rope_parameters) "
            "that stretches to the claimed length.",
     "key": "rope_parameters", "slug": "context_extension"},
    {"starts": "past the scaling's reach", "title": "Past the length the scaling block stretches to",
     "fix": "Serve at most the block's reach, or write a block whose factor reaches {served} positions and "
            "measure long prompts: no training saw those angles.",
     "key": "rope_parameters", "slug": "context_extension"},
    {"starts": "serving ", "title": "Past the trained length with no scaling entry",
     "fix": "Add a scaling entry for {served} positions (YaRN with factor {stretch}, for example), "
            "or serve at most {trained}.",
     "key": "rope_parameters", "slug": "context_extension"},
    {"starts": "a learned table has ", "title": "The position table ends",
     "fix": "Serve at most {limit} positions: a learned table has no rows past its end, and no "
            "scaling rule adds any.",
     "key": "max_position_embeddings", "slug": "positional"},
    {"starts": "dynamic scaling", "title": "Dynamic scaling changes the base with the length",
     "fix": "Keep prompts within the trained length, or replace the dynamic entry with a fixed rule "
            "(YaRN), so that cached keys and new queries share one base.",
     "key": "rope_type", "slug": "context_extension"},
    {"starts": "rope 'factor'", "title": "The factor is not the length ratio",
     "fix": "A linear or LongRoPE factor stretches the trained length to the claimed one: check the "
            "model's card, and set factor to the ratio of the two lengths or the length to the product.",
     "key": "original_max_position_embeddings", "slug": "context_extension"},
    {"starts": "", "title": "transformers warns about this RoPE block",
     "fix": "Correct the rope_parameters block: transformers warns and goes on, and computes the "
            "speeds shown here.",
     "key": "rope_parameters", "slug": "context_extension"},
)


# Where a fact of the report is taught when the row alone decides it: a table row, by its label ->
# the config key it reads (lessons/_vocabulary.py) and the section of the lesson that teaches that key,
# by the anchor the config-keys page links (project.reading.taught_at; tests/test_card_html.py).
# The row's label links there, on the site and in the in-browser decoder.
TAUGHT: dict[str, dict[str, str]] = {
    "served length": {"key": "--max-model-len", "slug": "model_card", "anchor": "step-3-three-lengths"},
    "layer types": {"key": "sliding_window", "slug": "layer_schemes", "anchor": "local-and-global-layers-with-two-bases"},
    "sliding window": {"key": "sliding_window", "slug": "layer_schemes",
                       "anchor": "local-and-global-layers-with-two-bases"},
    "M-RoPE": {"key": "mrope_section", "slug": "multimodal_rope", "anchor": "three-ids-per-token-m-rope"},
    "query temperature (Llama 4, NoPE layers)": {"key": "attn_temperature_tuning", "slug": "layer_schemes",
                                                 "anchor": "different-schemes-in-different-layers"},
}

# The rows the config decides (`where_taught`): a RoPE group's row (and its "scale" row) goes to the
# section that teaches its rope_type's rule, a plain group that turns only part of the head to partial
# rotary, a plain group of sliding-window layers (Gemma 3's local layers) to local and global layers; the "scheme" row to the section that teaches the scheme; "trained length" to the rule of the
# first scaled group (its block holds the original length), else the scheme's section (RoPE: the trained
# band). Each anchor is a heading of its lesson (tests/test_card_html.py) and an id of the built page
# (tests/test_decoder_page_browser.py).
ROPE_TYPE_TAUGHT: dict[str, dict[str, str]] = {
    "default": {"slug": "rope", "anchor": "1-two-layouts-of-one-rotation"},
    "local": {"slug": "layer_schemes", "anchor": "local-and-global-layers-with-two-bases"},
    "partial": {"slug": "layer_schemes", "anchor": "partial-rotary-three-pairings-of-the-same-numbers"},
    "linear": {"slug": "context_extension",
               "anchor": "wavelengths-and-the-trained-band-position-interpolation-and-ntk-aware-scaling"},
    "dynamic": {"slug": "context_extension", "anchor": "dynamic-ntk-one-name-two-engines"},
    "yarn": {"slug": "context_extension", "anchor": "yarn-keep-the-fast-pairs-interpolate-the-slow-ones"},
    "longrope": {"slug": "context_extension", "anchor": "longrope-a-searched-factor-for-every-pair"},
    "llama3": {"slug": "context_extension", "anchor": "llama-3s-rule-decide-by-wavelength"},
    "proportional": {"slug": "context_extension", "anchor": "one-function-for-every-block-rope_inv_freq"},
}
SCHEME_TAUGHT: dict[str, dict[str, str]] = {
    "rope": {"slug": "positional", "anchor": "rope-rotary-position-embedding-rotate-q-and-k-so-only-the-distance-counts"},
    "mixed": {"slug": "layer_schemes", "anchor": "different-schemes-in-different-layers"},
    "alibi": {"slug": "alibi", "anchor": "alibis-bias-a-penalty-that-grows-with-distance"},
    "none": {"slug": "alibi", "anchor": "nope-no-positions-at-all-and-what-the-causal-mask-still-tells"},
    "learned": {"slug": "positional", "anchor": "learned-absolute-positions-numbered-seats"},
    "sinusoidal": {"slug": "positional", "anchor": "sinusoidal-codes-one-clock-many-hands"},
}
TRAINED_BAND = {"slug": "context_extension",
                "anchor": "wavelengths-and-the-trained-band-position-interpolation-and-ntk-aware-scaling"}
# The lesson whose Level 1 *How to choose* decides what the verdict weighs (the length to serve
# against the trained one), by the card's scheme; the anchor is the id the site gives that run-in
# heading (site_build/markdown/levels.py).
CHOOSE: dict[str, str] = {"rope": "context_extension", "mixed": "context_extension", "alibi": "alibi",
                          "none": "alibi", "learned": "positional", "sinusoidal": "positional"}
CHOOSE_ANCHOR = "how-to-choose"


def _rope_taught(group) -> dict[str, str]:
    """The `ROPE_TYPE_TAUGHT` entry of a RoPE group (a `lessons.model_card.RopeGroup`)."""
    plain = group.rope_type == "default"
    if plain and group.rotary_dim < group.head_dim:
        return ROPE_TYPE_TAUGHT["partial"]
    return ROPE_TYPE_TAUGHT["local" if plain and group.layer_type == "sliding_attention" else group.rope_type]


def where_taught(card, section: str, row: dict, group) -> dict[str, str] | None:
    """{"slug", "anchor"} of the section that teaches a table row of `card`'s report, chosen from the
    config (the tables above), or None. `group` is the RoPE group a row of the "rope" section belongs to."""
    label = row["cells"][0]
    if section == "rope" and (row.get("group") or label == "scale"):
        return _rope_taught(group)
    if section == "card" and label == "scheme":
        return SCHEME_TAUGHT[card.scheme]
    if section == "card" and label == "trained length":
        scaled = [g for g in card.rope if g.rope_type != "default"]
        if scaled:
            return _rope_taught(scaled[0])
        return TRAINED_BAND if card.scheme in ("rope", "mixed") else SCHEME_TAUGHT[card.scheme]
    return TAUGHT.get(label)


def link_rows(card, sections: list[tuple[str, str, list[dict]]]) -> None:
    """Give each table row of a report (`modelcard.report.report_sections`' sections, before they become
    dicts) that a lesson teaches its "taught" ({"slug", "anchor"}: `where_taught`), in place."""
    for key, _, rows in sections:
        groups = iter(card.rope)
        group = None
        for row in rows:
            if key == "rope" and row.get("group"):
                group = next(groups)
            where = None if key in ("warnings", "notes", "sources") else where_taught(card, key, row, group)
            if where:
                row["taught"] = {"slug": where["slug"], "anchor": where["anchor"]}


def choose(card) -> dict[str, str]:
    """{"slug", "anchor", "page"}: the Level 1 *How to choose* the verdict links to (`CHOOSE`)."""
    slug = CHOOSE[card.scheme]
    return {"slug": slug, "anchor": CHOOSE_ANCHOR, "page": page_title(slug)}


def taught(row: dict) -> dict[str, str] | None:
    """Where a table row of the report (`report_sections`) is taught ({"slug", "anchor"}), or None."""
    return row.get("taught")


@functools.lru_cache(maxsize=None)
def page_title(slug: str) -> str:
    """A lesson's title as the navigation shows it ('How far can a model read? ...'): its page's
    `# ` line, up to a colon: the project model's reading of the lesson's file (found, not imported)."""
    return read_lesson(Path(importlib.util.find_spec(f"lessons.{slug}").origin)).title.split(":")[0].strip()


def page_titles() -> dict[str, str]:
    """{slug: title} of every lesson the report links to: a warning's, a row's or the verdict's."""
    slugs = [e["slug"] for e in (*ADVICE, *TAUGHT.values(), *ROPE_TYPE_TAUGHT.values(), *SCHEME_TAUGHT.values())]
    return {slug: page_title(slug) for slug in dict.fromkeys([*slugs, TRAINED_BAND["slug"], *CHOOSE.values()])}


def advice(warning: str, values: dict[str, str]) -> dict[str, str]:
    """{"title", "fix", "slug", "page"} for one warning of the report: the first `ADVICE` entry
    whose start it has, its fix filled from `values` ({"served", "trained", "limit", "stretch"}:
    the card's numbers as the report writes them)."""
    entry = next(e for e in ADVICE if warning.startswith(e["starts"]))
    return {"title": entry["title"], "fix": entry["fix"].format(**values), "slug": entry["slug"],
            "page": page_title(entry["slug"])}


TABLE_HEADS = {"lengths": ("Engine", "Length", "What decides it")}  # the other tables: a row header and a value
_e = html.escape


def _words(command: str) -> str:
    """A command with each word of up to 40 characters kept on one line (a span the CSS does not
    wrap), so that it wraps between words, never inside a flag (--max-model-\nlen); a longer word
    may break where it must."""
    return " ".join(f'<span class="pmc-word">{_e(w)}</span>' if len(w) <= 40 else _e(w) for w in command.split(" "))


def render_html(report: dict, href: Callable[[str], str]) -> str:
    """The report (`report_sections`) as an HTML fragment (well-formed XML too).

    Args:
        report: {"verdict", "sections"} from `modelcard.report.report_sections`.
        href: a lesson's slug -> the link to its page, relative to the page the report is on.

    Returns:
        `<div class="pmc-report">`: the verdict, the warnings as Material admonitions, then every
        other section in the CLI's order (tables in a wrapper that scrolls sideways when it must;
        commands in code blocks). Each line of the CLI is one element of class `pmc-row` in the
        section of its name (`data-section`); its cells (class `pmc-cell`), put into the row's
        template, give back that line exactly.
    """
    sections = sorted(report["sections"], key=lambda s: s["key"] != "warnings")
    go = report["choose"]  # the verdict's way on: the Level 1 "How to choose" that decides it; focus lands here
    out = ['<div class="pmc-report">', f'<p class="pmc-verdict" tabindex="-1"><strong>Verdict:</strong> '
           f'{_e(report["verdict"])} <span class="pmc-choose">How to choose: <a href="{_e(href(go["slug"]))}#'
           f'{go["anchor"]}">{_e(go["page"])}</a></span></p>']
    for section in sections:
        key, title, rows = section["key"], _e(section["title"]), section["rows"]
        out.append(f'<div class="pmc-section" data-section="{key}">')
        if key == "warnings":
            out += [f'<div class="admonition warning pmc-row"><p class="admonition-title">{_e(r["title"])}</p>'
                    f'<p class="pmc-cell">{_e(r["cells"][0])}</p><p><strong>Fix:</strong> {_e(r["fix"])} '
                    f'Taught in <a href="{_e(href(r["slug"]))}">{_e(r["page"])}</a>.</p></div>' for r in rows]
        elif key == "notes":
            out.append(f'<p class="pmc-caption">{title}</p><ul>')
            out += [f'<li class="pmc-row"><span class="pmc-cell">{_e(r["cells"][0])}</span></li>' for r in rows]
            out.append("</ul>")
        elif key == "sources":
            out += [f'<p class="pmc-row"><span class="pmc-cell">{_e(r["cells"][0])}</span>: '
                    f'<span class="pmc-cell">{_e(r["cells"][1])}</span></p>' for r in rows]
        else:
            out.append(f'<div class="pmc-scroll" role="region" aria-label="{title}"><table class="pmc-table">'
                       f'<caption>{title}</caption>')
            if key in TABLE_HEADS:
                out.append("<thead><tr>" + "".join(f'<th scope="col">{h}</th>' for h in TABLE_HEADS[key])
                           + "</tr></thead>")
            out.append("<tbody>")
            for r in rows:
                head, *rest = r["cells"]
                cells = "".join(f'<td><div class="pmc-command"><code class="pmc-cell">{_words(c)}</code></div></td>'
                                if r.get("command") else f'<td class="pmc-cell">{_e(c)}</td>' for c in rest)
                group = " pmc-group" if r.get("group") else ""
                where = taught(r)
                label = _e(head) if where is None else \
                    f'<a href="{_e(href(where["slug"]))}#{where["anchor"]}">{_e(head)}</a>'
                out.append(f'<tr class="pmc-row{group}"><th scope="row" class="pmc-cell">{label}</th>{cells}</tr>')
            out.append("</tbody></table></div>")
        out.append("</div>")
    out.append("</div>")
    return "".join(out)
