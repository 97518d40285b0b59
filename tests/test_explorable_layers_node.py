"""The `layers` explorable's span rule in Node (explorables/web/layers.js's `spans` and `summary`)
against the Python it follows (explorables/layers.py), for every model it offers at every length
its slider reaches and at each model's chunk and window edges: exactly, since both count tokens in
integers. The Python rule itself is held to the lesson's sliding-window mask
(`lessons.attention_sinks.causal_window_mask`) and to transformers' chunked mask written out, and
the numbers the lesson's prose quotes beside the box are computed here."""

from __future__ import annotations

import re

import numpy as np

from explorables.layers import LENGTHS, MODELS, data, span, spans, summary
from lessons import layer_schemes
from lessons.attention_sinks import causal_window_mask
from tests.node import needs_node, run_explorable


def _edges(model: dict) -> list[int]:
    """Lengths either side of each multiple of a model's windows and chunks, up to three of each."""
    reaches = {layer["reach"] for layer in model["layers"] if layer["reach"]}
    return sorted({r * m + d for r in reaches for m in (1, 2, 3) for d in (-1, 0, 1)} | {1, 2})


@needs_node
def test_spans_and_summary_match_the_python_for_every_model_and_length(tmp_path):
    models = data()["models"]
    cases = [(m, length) for m in models for length in [*LENGTHS, *_edges(m)]]
    calls = [c for m, length in cases for c in (["spans", m, length], ["summary", m, length])]
    got = run_explorable(tmp_path, "layers", calls)
    for i, (m, length) in enumerate(cases):
        assert got[2 * i] == spans(m, length), (m["slug"], length)
        assert got[2 * i + 1] == summary(m, length), (m["slug"], length)


def test_a_sliding_layer_sees_what_the_lessons_window_mask_lets_the_last_query_see():
    for window in (1, 3, 8):
        for length in range(1, 20):
            assert span("sliding_attention", window, length) == int(causal_window_mask(length, window)[-1].sum())


def test_a_chunked_layer_sees_its_own_chunk_so_far():
    """transformers 5.24 masking_utils.chunked_overlay (no padding): key j with j // chunk == i // chunk,
    under the causal mask."""
    for chunk in (1, 3, 8):
        for length in range(1, 30):
            i, j = length - 1, np.arange(length)
            assert span("chunked_attention", chunk, length) == int(np.sum(j // chunk == i // chunk))


def test_the_explorable_offers_the_six_models_its_brief_names():
    labels = [m["label"] for m in data()["models"]]
    assert len(MODELS) == 6 and all(any(name in label for label in labels) for name in
                                     ("Llama 4", "Gemma 3", "Command R7B", "SmolLM3", "Qwen3-Next", "gpt-oss"))


def test_the_prose_beside_the_box_quotes_the_explorables_numbers():
    text = " ".join(layer_schemes.__doc__.split())
    sentence = re.search(r"\*\*Try it:\*\*(.*?)\*\*In the wild", text).group(1)
    scout = next(m for m in data()["models"] if m["slug"] == "llama-4-scout")
    oss = next(m for m in data()["models"] if m["slug"] == "gpt-oss-20b")
    before, after = 7943, 10000
    assert LENGTHS.index(after) == LENGTHS.index(before) + 1
    chunk = {layer["reach"] for layer in scout["layers"] if layer["type"] == "chunked_attention"}
    assert chunk == {8192} and before < 8192 < after and summary(scout, before)["shortest"] == before
    widest = max(span(x["type"], x["reach"], LENGTHS[-1]) for x in oss["layers"] if x["type"] == "sliding_attention")
    quoted = [f"{before:,}", f"{after:,}", "8,192", f"{summary(scout, after)['shortest']:,}",
              f"its {summary(scout, after)['nope']} NoPE", f"all {after:,}", f"more than {widest}"]
    assert all(q in sentence for q in quoted), [q for q in quoted if q not in sentence]
