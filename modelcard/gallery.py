"""The gallery page: every published config of lessons/gallery/ as the decoder reads it,
generated at build time (nothing of it is pasted into a docstring).

Each config is one collapsible entry: what its keys say (the JSON's `note`), where they
were read (`read_from`), its figure (`lessons.model_card.card_figure`, built by the
lesson's figures()), what the figure shows (`reading`) and the report `python -m modelcard
SLUG` prints, as a report fence the site renders as HTML. The groups follow the lesson's
own sections *Gallery: ...*, which teach each group with a worked example.
"""

from __future__ import annotations

import textwrap

from markdown.extensions.toc import slugify

from lessons.model_card import ModelCard, explain, figure_name
from lessons.tools.model_types import gallery
from modelcard.report import report

GALLERY_PAGE = "reference/model-card-gallery.md"  # its path under docs/
LESSON_PAGE = "lessons/model_card.md"  # the lesson that teaches the reading
# (the lesson's section, "## Gallery: <this>", that teaches the group, its configs in reading order)
GROUPS = (
    ("plain RoPE", ("llama-2-7b", "mistral-7b", "command-r", "falcon-7b", "glm-4-9b-chat", "qwen2-vl-7b",
                    "pythia-1.4b", "gpt-j-6b")),
    ("the Llama 3 rule", ("llama-3.1-8b", "llama-3.2-1b", "llama-4-scout")),
    ("YaRN", ("qwen2.5-7b-yarn", "deepseek-v3", "gpt-oss-20b")),
    ("LongRoPE", ("phi-3.5-mini", "phi-3-vision")),
    ("layers that differ", ("gemma-2-9b", "gemma-3-4b", "smollm3-3b", "modernbert-base", "command-r7b",
                            "qwen3-next-80b")),
    ("no rotation", ("bloom-560m", "mpt-7b", "gpt2", "bert-base-uncased")),
)


def card_figure_text(card: ModelCard) -> str:
    """What `lessons.model_card.card_figure` draws for `card`, in words (the figure's alt text; a test
    holds the two to the same lines)."""
    lines = [f"the {name} ({length:,})" for length, name in ((card.trained_length, "trained length"),
                                                            (card.max_length, "config length")) if length]
    against = f" against {' and '.join(lines)}" if lines and (card.rope or card.alibi_slopes is not None) else ""
    if card.rope:
        scaled = any(g.rope_type != "default" for g in card.rope)
        return f"the wavelength of each rotary pair{', before and after scaling,' if scaled else ''}{against}"
    if card.alibi_slopes is not None:
        return f"the distance at which each head's ALiBi weight halves{against}"
    return f"the rows of the position table ({card.max_length or 0:,}) against a request twice that long"


def grouped() -> list[tuple[str, list[str]]]:
    """`GROUPS` checked against the gallery: (lesson section, slugs), every config in
    exactly one group. Raises ValueError naming a config that is missing, unknown or twice."""
    known = gallery()
    listed = [slug for _, slugs in GROUPS for slug in slugs]
    twice = sorted({slug for slug in listed if listed.count(slug) > 1})
    unknown = sorted(set(listed) - set(known))
    missing = sorted(set(known) - set(listed))
    if twice or unknown or missing:
        raise ValueError(f"modelcard/gallery.py GROUPS: twice {twice}, not in lessons/gallery/ {unknown}, "
                         f"in no group {missing}")
    return [(section, list(slugs)) for section, slugs in GROUPS]


def _indented(text: str, depth: int) -> list[str]:
    return [("    " * depth + line) if line else "" for line in text.split("\n")]


def entry_markdown(slug: str, entry: dict) -> list[str]:
    """The lines of one collapsible gallery entry (pymdownx.details), indented under its title."""
    read = "Where these keys were read" + (": a secondary copy" if entry["secondary"] else "")
    card = explain(entry["config"])
    alt = f"{entry['name']}: {card_figure_text(card)}"
    body = [f"`{entry['repo']}`: {entry['note']}", "", f'??? note "{read}"',
            *_indented(textwrap.fill(entry["read_from"], 96), 1), "",
            f"![{alt}](figures/model_card.{figure_name(slug)}.svg)", "",
            f"**Reading it:** {entry['reading']}", "",
            "```text", f"$ python -m modelcard {slug}",
            report(card, None, entry["repo"]), "```"]
    return [f'??? example "{entry["name"]}"', *_indented("\n".join(body), 1), ""]


def gallery_page() -> str:
    """The gallery page's Markdown: a heading per group, one collapsible entry per config."""
    known = gallery()
    groups = grouped()
    lines = ["# The model-card gallery", "",
             f"{len(known)} published `config.json` files, each read by the decoder of "
             f"[Read a model card](../{LESSON_PAGE}). Open an entry for what its keys say, where they "
             "were read, a figure of its positions (each rotary pair's wavelength, each ALiBi head's "
             "reach, or the rows of a learned table) against the lengths the config states, and the "
             "report `python -m modelcard SLUG` prints (SLUG: the name in the report's command line). "
             "The lesson teaches each group below with a worked example.", ""]
    for section, slugs in groups:
        lines += [f"## {section[0].upper() + section[1:]}", "",
                  f"{len(slugs)} configs, taught with a worked example in the lesson's "
                  f"[Gallery: {section}](../{LESSON_PAGE}#{slugify('Gallery: ' + section, '-')}).", ""]
        for slug in slugs:
            lines += entry_markdown(slug, known[slug])
    return "\n".join(lines)


def pages() -> dict[str, str]:
    """{page path under docs/: Markdown}: the gallery page, for the site build (its pages() hook)."""
    return {GALLERY_PAGE: gallery_page()}


def reports(href) -> dict[str, tuple[str, str]]:
    """{gallery slug: (the report's text, its HTML)} for the site build (its reports() hook): a page
    that shows `$ python -m modelcard SLUG` shows this report. `href(slug)` links a lesson."""
    from modelcard.html import render_html
    from modelcard.report import render_text, report_sections

    out = {}
    for slug, entry in gallery().items():
        structure = report_sections(explain(entry["config"]), None, entry["repo"])
        out[slug] = (render_text(structure), render_html(structure, href))
    return out
