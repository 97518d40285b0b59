"""lessons/tools/rope_scaling.py: transformers 5.24's checks in front of the lesson's formulas.

The tool must give the lesson's numbers on every block transformers accepts (the
reference vectors, every RoPE group of every gallery config) and add only checks:
a ValueError where transformers refuses a block, a warning where it warns.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from lessons import context_extension as ce
from lessons.model_card import explain, gallery
from lessons.positional import rope_frequencies
from lessons.tools import rope_scaling as rs

DATA = json.loads((Path(__file__).parent / "data" / "reference_vectors.json").read_text(encoding="utf-8"))
ROPE = DATA["rope"]

# transformers' one warning that is advice, not about the block: longrope configs without `factor`
# (Phi-3's convention) are asked to state it. The tool does not repeat it.
ADVICE = "Please set the `factor` field of `rope_parameters`"


def _quietly(fn, *args, **kwargs):
    """fn's result and the messages of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, [str(w.message) for w in caught]


def _same(tool: tuple, lesson: tuple) -> None:
    """The tool's (inv_freq, attention_factor) is the lesson's, bit for bit."""
    assert tool[0].shape == lesson[0].shape
    np.testing.assert_array_equal(tool[0], lesson[0])
    assert tool[1] == lesson[1]


# ---------------------------------------------------------------------------
# The tool is the lesson plus checks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("record", ROPE, ids=[r["name"] for r in ROPE])
def test_the_tool_gives_the_lessons_numbers_and_warns_where_transformers_warned(record):
    args = (record["head_dim"], record["rope_parameters"])
    kwargs = {"max_position_embeddings": record["max_position_embeddings"], "seq_len": record["seq_len"]}
    tool, ours = _quietly(rs.rope_inv_freq, *args, **kwargs)
    _same(tool, ce.rope_inv_freq(*args, **kwargs))
    np.testing.assert_allclose(tool[0], record["inv_freq"], rtol=1e-5, atol=0)
    assert tool[1] == pytest.approx(record["attention_factor"], rel=1e-5)
    theirs = [m for m in record["transformers_warnings"] if ADVICE not in m]
    assert bool(ours) == bool(theirs), (ours, theirs)


GROUPS = [(slug, group, card.max_length) for slug, entry in gallery().items()
          for card in [explain(entry["config"])] for group in card.rope]


@pytest.mark.parametrize("slug, group, max_length", GROUPS,
                         ids=[f"{slug}-{group.layer_type}" for slug, group, _ in GROUPS])
def test_the_tool_gives_the_lessons_numbers_on_every_gallery_config(slug, group, max_length):
    kwargs = {"max_position_embeddings": max_length}
    tool, _ = _quietly(rs.rope_inv_freq, group.head_dim, group.parameters, **kwargs)
    _same(tool, ce.rope_inv_freq(group.head_dim, group.parameters, **kwargs))
    np.testing.assert_array_equal(tool[0], group.inv_freq)


def test_the_gallery_reaches_every_scaling_method_it_ships():
    assert {ce.rope_type_of(group.parameters) for _, group, _ in GROUPS} >= {
        "default", "linear", "yarn", "longrope", "llama3"}


@pytest.mark.parametrize("record", DATA["rope_by_layer_type"], ids=[r["name"] for r in DATA["rope_by_layer_type"]])
def test_rope_inv_freq_by_layer_type_matches_transformers(record):
    got = rs.rope_inv_freq_by_layer_type(record["head_dim"], record["rope_parameters"],
                                         max_position_embeddings=record["max_position_embeddings"])
    assert set(got) == set(record["layer_types"])
    for layer_type, want in record["layer_types"].items():
        inv_freq, attention = got[layer_type]
        np.testing.assert_allclose(inv_freq, want["inv_freq"], rtol=1e-5, atol=0)
        assert attention == pytest.approx(want["attention_factor"], rel=1e-5)


# ---------------------------------------------------------------------------
# Bad configs
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("params, words", [
    ({"rope_type": "ntk"}, ["unknown rope_type 'ntk'", "default, linear, dynamic, yarn, longrope, llama3"]),
    ({"rope_type": "linear"}, ["'factor'", "'linear'"]),
    ({"rope_type": "yarn", "factor": 4.0}, ["'original_max_position_embeddings'", "'yarn'"]),
    ({"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192, "low_freq_factor": 1.0},
     ["'high_freq_factor'", "'llama3'"]),
    ({"rope_type": "longrope", "original_max_position_embeddings": 4096, "short_factor": [1.0] * 4},
     ["'long_factor'", "'longrope'"]),
    ({"rope_type": "yarn", "original_max_position_embeddings": 64}, ["'factor'", "'yarn'"]),
    ({"rope_type": "linear", "factor": 0.0}, ["'factor'", "positive", "0.0"]),
    ({"rope_type": "linear", "factor": None}, ["'factor'", "positive", "None"]),
    ({"rope_type": "longrope", "original_max_position_embeddings": 4096, "short_factor": [1.0] * 3,
      "long_factor": [1.0] * 4, "factor": 2.0}, ["'short_factor'", "4 numbers"]),
    ({"partial_rotary_factor": 1.5}, ["partial_rotary_factor", "(0, 1]"]),
    ({"partial_rotary_factor": 0.125}, ["rotary width", "got 1"]),
    ({"rope_theta": -5.0}, ["rope_theta", "positive"]),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "partial_rotary_factor": 0.375},
     ["'yarn'", "even rotary width", "got 3"]),
    ({"full_attention": {"rope_type": "linear", "factor": 8.0}, "sliding_attention": None},
     ["split by layer type", "rope_inv_freq_by_layer_type"]),
])
def test_bad_configs_raise_a_value_error_that_names_the_problem(params, words):
    with pytest.raises(ValueError) as err:
        rs.rope_inv_freq(8, params)
    for word in words:
        assert word in str(err.value)


@pytest.mark.parametrize("params, words", [
    ({"rope_type": "linear", "factor": 2.0, "low_freq_factor": 1.0}, ["'low_freq_factor'", "not read", "'linear'"]),
    ({"rope_type": "default", "foo": 1}, ["unknown key 'foo'", "'default'"]),
    ({"rope_type": "linear", "factor": 0.5}, ["'factor'", ">= 1", "0.5"]),
    ({"rope_type": "yarn", "factor": 0.25, "original_max_position_embeddings": 64}, ["'factor'", ">= 1"]),
    ({"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192, "low_freq_factor": 4.0,
      "high_freq_factor": 1.0}, ["high_freq_factor > low_freq_factor", "no pair is blended"]),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "beta_fast": 1, "beta_slow": 2},
     ["beta_fast >= beta_slow"]),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "attention_factor": 1},
     ["'attention_factor'", "float"]),
    ({"rope_type": "proportional", "rope_theta": 10000.0}, ["'proportional'", "partial_rotary_factor"]),
])
def test_blocks_transformers_only_warns_about_warn_here_too(params, words):
    with pytest.warns(UserWarning) as caught:
        rs.rope_inv_freq(8, params)
    message = " ".join(str(w.message) for w in caught)
    for word in words + ["transformers 5.24 warns too"]:
        assert word in message


@pytest.mark.parametrize("params", [
    {"type": "mrope", "mrope_section": [1, 1, 2], "rope_theta": 1e6},  # Qwen2-VL
    {"rope_type": "default", "mrope_section": [1, 1, 2], "mrope_interleaved": True},  # Qwen3-VL
    {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "llama_4_scaling_beta": 0.1,
     "max_position_embeddings": 128},  # Ministral 3
    {"rope_type": "linear", "type": "yarn", "factor": 2.0},  # rope_type wins, as in transformers
])
def test_keys_transformers_knows_pass_quietly(params):
    (_, _), messages = _quietly(rs.rope_inv_freq, 8, params)
    assert messages == []


def test_mrope_section_leaves_the_speeds_alone():
    qwen2_vl = {"type": "mrope", "mrope_section": [16, 24, 24], "rope_theta": 1e6}
    inv_freq, attention = rs.rope_inv_freq(128, qwen2_vl)
    np.testing.assert_allclose(inv_freq, rope_frequencies(128, 1e6))
    assert attention == 1.0 and sum(qwen2_vl["mrope_section"]) == inv_freq.size


def test_llama3_with_equal_band_factors_keeps_or_divides_every_pair():
    scout = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 16.0, "low_freq_factor": 1.0,
             "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}
    (inv_freq, _), messages = _quietly(rs.rope_inv_freq, 128, scout)
    base = rope_frequencies(128, 500000.0)
    waves = 2 * np.pi / base
    np.testing.assert_allclose(inv_freq, np.where(waves > 8192, base / 16, base))
    assert len(messages) == 1 and "no pair is blended" in messages[0]


def test_by_layer_type_shares_a_flat_block_and_keeps_nope_layers():
    flat = {"rope_type": "linear", "factor": 2.0}
    got = rs.rope_inv_freq_by_layer_type(8, flat, ["sliding_attention", "full_attention", "sliding_attention"])
    assert list(got) == ["sliding_attention", "full_attention"]
    np.testing.assert_allclose(got["full_attention"][0], rope_frequencies(8) / 2)
    nested = {"full_attention": {"rope_type": "default", "rope_theta": 1e6}, "chunked_attention": None}
    got = rs.rope_inv_freq_by_layer_type({"full_attention": 16, "chunked_attention": 8}, nested)
    assert got["chunked_attention"] is None and got["full_attention"][0].shape == (8,)
    with pytest.raises(ValueError, match="no block for layer type 'sliding_attention'"):
        rs.rope_inv_freq_by_layer_type(8, nested, ["full_attention", "sliding_attention"])


def test_dynamic_without_the_trained_length_says_so():
    with pytest.raises(ValueError, match="max_position_embeddings"):
        rs.rope_inv_freq(8, {"rope_type": "dynamic", "factor": 2.0})


