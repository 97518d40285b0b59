"""The files the site publishes for the model-card page's in-browser decoder
(modelcard/web/model_card.js): the gallery, and the decoder's tables from their
one home in Python, offered to the build by `assets()` (the site build asks each
module of its PUBLISHING_MODULES, as it asks each lesson that defines one)."""

from __future__ import annotations

import json
from pathlib import Path

from lessons import context_extension as ce
from lessons.tools import model_types
from modelcard import engine_tables, engines, known_bugs
from modelcard import html as report_html
from lessons.tools import rope_scaling as rs
from lessons.tools.model_types import gallery


# The tables modelcard/web/model_card.js reads (by these names), so that each has one home here:
# lessons.tools.model_types, modelcard.engines, modelcard.html, and the keys rope_inv_freq checks in
# lessons.tools.rope_scaling (sets there, sorted lists here: the decoder only asks for membership).
BROWSER_TABLES = {
    model_types: ("ALIBI_MODEL_TYPES", "LEARNED_MODEL_TYPES", "SINUSOIDAL_MODEL_TYPES", "ROPE_MODEL_TYPES",
                  "INTERLEAVED_MODEL_TYPES", "DEFAULT_THETA", "CLASS_DEFAULTS", "LAYER_KEYS", "WIDTH_KEYS",
                  "HEAD_KEYS", "LENGTH_KEYS", "LENGTH_ALIASES", "NESTED_WHEN_FLAT", "AUTHOR_YARN_ORIGINAL",
                  "PERIODIC_LAYERS", "NO_ROPE_LAYER_TYPES", "LISTED_LAYERS", "LEGACY_LAYER_TYPES",
                  "LISTED_DEFAULTS", "ROPE_ONLY_WHEN"),
    engines: ("VLLM_RELEASE", "VLLM_LENGTH_KEYS", "VLLM_FALLBACK_LENGTH", "VLLM_UNSCALED", "SGLANG_RELEASE",
              "SGLANG_LENGTH_KEYS", "LLAMA_CPP_LENGTH_KEYS", "LLAMA_CPP_FIXED_CONTEXT", "LLAMA_CPP_SEQ_OR_WIDTH",
              "LLAMA_CPP_MAX_CONTEXT", "MISTRAL_FORMAT_TYPES", "ENGINE_LENGTH_KEYS", "ENGINES", "SOURCES", "ENGINE_STARTS",
              "VLLM_TEMPERATURE_LEN", "VLLM_TEMPERATURE_ON"),
    engine_tables: ("REGISTRIES", "VLLM_MROPE_TIMES4"),
    known_bugs: ("KNOWN_BUGS", "ENGINE_NAMES"),
    report_html: ("ADVICE", "TABLE_HEADS", "TAUGHT", "ROPE_TYPE_TAUGHT", "SCHEME_TAUGHT", "TRAINED_BAND", "CHOOSE",
                  "CHOOSE_ANCHOR"),  # the report's HTML: each warning's advice, the tables' column heads, where
    # each row's fact is taught and the Level 1 the verdict leads to
}


def browser_tables() -> dict:
    """{name: table} for the in-browser decoder, JSON-ready (tuples as lists, sets as sorted lists);
    published as assets/model_card_tables.js by `assets()`."""
    def plain(value):
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (set, frozenset)):
            return sorted(value)
        return list(value) if isinstance(value, tuple) else value

    out = {name: plain(getattr(module, name)) for module, names in BROWSER_TABLES.items() for name in names}
    out.update(ROPE_TYPES=plain(ce.ROPE_TYPES), COMMON_KEYS=plain(rs.COMMON_KEYS), TYPE_KEYS=plain(rs.TYPE_KEYS),
               REQUIRED_KEYS=plain(rs.REQUIRED_KEYS), MODEL_KEYS=plain(rs.MODEL_KEYS),
               PAGE_TITLES=report_html.page_titles(), RELEASE_MENU=known_bugs.release_menu())
    return out


def assets() -> dict[str, bytes]:
    """{site path: bytes} the model-card page's decoder loads: the decoder itself
    (web/model_card.js, which model_card_loader.js loads on the page that has the box), the gallery as JSON, the
    same text as a script for the offline copy (file:// refuses fetch()), and the
    tables as JSON text in a script (model_card_loader.js loads it before the decoder,
    which parses the text, so 10000.0 stays a float)."""
    examples = {slug: {"name": entry["name"], "repo": entry["repo"], "config": entry["config"]}
                for slug, entry in gallery().items()}
    text = json.dumps(examples)
    return {"javascripts/model_card.js": (Path(__file__).parent / "web" / "model_card.js").read_bytes(),
            "assets/model_card_gallery.json": text.encode(),
            "assets/model_card_gallery.js": f"window.PrimerModelCardGallery = {json.dumps(text)};\n".encode(),
            "assets/model_card_tables.js":
                f"window.PrimerModelCardTables = {json.dumps(json.dumps(browser_tables()))};\n".encode()}
