"""lessons.context_extension: every RoPE scaling method against the transformers
library's own numbers (committed vectors, no torch needed) and closed forms.
The page's numbers are checked by its `# →` lines (tests/test_prose.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessons import context_extension as ce
from lessons.positional import apply_rope, ntk_scaled_base, rope_frequencies

DATA = json.loads((Path(__file__).parent / "data" / "reference_vectors.json").read_text(encoding="utf-8"))
ROPE = DATA["rope"]


def _type(record):
    p = record["rope_parameters"]
    return ce.rope_type_of(p)


# ---------------------------------------------------------------------------
# Reference vectors from transformers (tests/reference/make_vectors.py)
# ---------------------------------------------------------------------------


def test_reference_file_records_versions_and_covers_every_type():
    assert DATA["versions"]["transformers"] and DATA["versions"]["torch"]
    assert len(ROPE) >= 30
    assert {_type(r) for r in ROPE} == set(ce.ROPE_TYPES)
    names = " ".join(r["name"] for r in ROPE)
    for real in ("Llama 3.1 8B", "Qwen2.5 7B YaRN", "DeepSeek-V2-Lite", "Phi-3.5-mini", "partial rotary",
                 "Llama 4 Scout", "Qwen2-VL-7B-Instruct"):
        assert real in names
    assert {r["name"].split(" (")[0] for r in DATA["rope_by_layer_type"]} >= {"Gemma 3 4B-it", "Gemma 3 1B-it"}
    assert any(r["transformers_warnings"] for r in ROPE), "the warned-about blocks are part of the reference"


@pytest.mark.parametrize("record", ROPE, ids=[r["name"] for r in ROPE])
def test_rope_inv_freq_matches_transformers(record):
    # every record is a block transformers accepts (warned about or not): the plain version gets its numbers
    # (the checks and warnings are lessons/tools/rope_scaling.py's, tests/test_rope_scaling.py)
    inv_freq, attention = ce.rope_inv_freq(record["head_dim"], record["rope_parameters"],
                                           max_position_embeddings=record["max_position_embeddings"],
                                           seq_len=record["seq_len"])
    want = np.array(record["inv_freq"])
    assert inv_freq.shape == want.shape
    np.testing.assert_allclose(inv_freq, want, rtol=1e-5, atol=0)
    assert attention == pytest.approx(record["attention_factor"], rel=1e-5)


@pytest.mark.parametrize("record", DATA["deepseek_scaling"], ids=[r["name"] for r in DATA["deepseek_scaling"]])
def test_deepseek_softmax_scale_matches_transformers(record):
    p = record["rope_scaling"]
    width = record["qk_nope_head_dim"] + record["qk_rope_head_dim"]
    multiplier = ce.deepseek_softmax_multiplier(p["factor"], p["mscale_all_dim"])
    assert width ** -0.5 * multiplier == pytest.approx(record["scaling"], rel=1e-7)
    assert ce.yarn_attention_factor(p["factor"], p["mscale"], p["mscale_all_dim"]) == pytest.approx(
        record["attention_factor"], rel=1e-7)


# ---------------------------------------------------------------------------
# Closed forms and identities
# ---------------------------------------------------------------------------


def test_default_is_the_positional_lessons_rope_frequencies():
    np.testing.assert_allclose(ce.rope_inv_freq(128, {"rope_theta": 500000.0})[0], rope_frequencies(128, 500000.0))


@given(st.floats(1.0, 64.0), st.sampled_from([8, 64, 128]))
def test_linear_divides_every_speed(factor, d):
    new, a = ce.rope_inv_freq(d, {"rope_type": "linear", "factor": factor})
    np.testing.assert_allclose(new * factor, rope_frequencies(d))
    assert a == 1.0


@given(st.floats(1.0, 32.0), st.sampled_from([8, 64, 128]))
def test_ntk_pair_scale_spares_the_fastest_and_slows_the_slowest_by_the_factor(s, d):
    ratio = rope_frequencies(d, ntk_scaled_base(10000.0, s, d)) / rope_frequencies(d)
    np.testing.assert_allclose(ratio, ce.ntk_pair_scale(d, s))
    assert ratio[0] == pytest.approx(1.0) and ratio[-1] == pytest.approx(1 / s)


@given(st.integers(2, 16))
def test_dynamic_with_factor_one_is_ntk_aware_for_the_current_stretch(k):
    base = ce.dynamic_ntk_base(10000.0, 1.0, 1000 * k, 1000, 64)
    assert base == pytest.approx(ntk_scaled_base(10000.0, k, 64))


@given(st.floats(1.0, 16.0), st.integers(1, 4096))
def test_dynamic_is_the_trained_rope_up_to_the_trained_length(factor, n):
    new, _ = ce.rope_inv_freq(64, {"rope_type": "dynamic", "factor": factor}, max_position_embeddings=4096, seq_len=n)
    np.testing.assert_allclose(new, rope_frequencies(64))


def test_dynamic_stretch_is_linear_in_length():
    # stretch = s n / L - (s - 1): at n = 2L with s = 2 it is 3
    assert ce.dynamic_ntk_base(10000.0, 2.0, 2000, 1000, 8) == pytest.approx(10000.0 * 3 ** (8 / 6))


@given(st.floats(1.0, 16.0), st.integers(4097, 200_000), st.sampled_from([8, 64, 128]))
def test_dynamic_speeds_are_the_ntk_speeds_for_the_current_stretch(factor, n, d):
    new, _ = ce.rope_inv_freq(d, {"rope_type": "dynamic", "factor": factor}, max_position_embeddings=4096, seq_len=n)
    stretch = factor * n / 4096 - (factor - 1)
    np.testing.assert_allclose(new, rope_frequencies(d, ntk_scaled_base(10000.0, stretch, d)), rtol=1e-12)


def test_cached_key_drift_vanishes_when_the_length_has_not_changed():
    assert np.all(ce.cached_key_drift(64, 10000.0, 2.0, 4096, 8000, 8000, 3000) == 0)
    assert np.abs(ce.cached_key_drift(64, 10000.0, 2.0, 4096, 4096, 16384, 3000)).max() > 1


def test_cached_score_gap_fresh_score_depends_only_on_distance():
    fresh, stale = ce.cached_score_gap(64, 10000.0, 2.0, 4096, 4096, 16384, 4000, 16000, seed=1)
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(64), rng.standard_normal(64)
    base = ce.dynamic_ntk_base(10000.0, 2.0, 16384, 4096, 64)
    # the same distance (12,000) from other absolute positions
    assert fresh == pytest.approx(float(apply_rope(q, 12500, base) @ apply_rope(k, 500, base)))
    assert abs(fresh - stale) > 1e-3


@given(st.floats(0.5, 64.0), st.sampled_from([32, 64, 128]), st.sampled_from([10000.0, 500000.0]),
       st.sampled_from([2048, 4096, 32768]))
def test_yarn_correction_dim_is_the_pair_with_that_many_turns(r, d, base, L):
    i = ce.yarn_correction_dim(r, d, base, L)
    # a continuous pair index i has wavelength 2π base^(2i/d); L / λ must be r
    assert L / (2 * math.pi * base ** (2 * i / d)) == pytest.approx(r)


@given(st.floats(0, 30), st.one_of(st.just(0.0), st.floats(0.01, 30)), st.integers(1, 64))
def test_yarn_ramp_is_a_clipped_nondecreasing_line(low, width, n):
    ramp = ce.yarn_ramp(low, low + width, n)
    assert ramp.shape == (n,) and np.all((0 <= ramp) & (ramp <= 1)) and np.all(np.diff(ramp) >= 0)


@given(st.floats(1.0, 64.0), st.floats(1.0, 128.0))
def test_scaled_speeds_stay_between_interpolated_and_untouched(s, low_ff):
    for params in ({"rope_type": "yarn", "factor": s, "original_max_position_embeddings": 4096},
                   {"rope_type": "llama3", "factor": s, "original_max_position_embeddings": 4096,
                    "low_freq_factor": 1.0, "high_freq_factor": 1.0 + low_ff}):
        ratio = ce.pair_scale(128, params)
        assert np.all(ratio <= 1 + 1e-12) and np.all(ratio >= 1 / s - 1e-12)
        assert np.all(np.diff(ratio) <= 1e-12)  # slower pairs are never slowed less


def test_yarn_with_factor_one_is_plain_rope():
    new, a = ce.rope_inv_freq(64, {"rope_type": "yarn", "factor": 1.0, "original_max_position_embeddings": 4096})
    np.testing.assert_allclose(new, rope_frequencies(64))
    assert a == 1.0


@given(st.floats(1.0, 1000.0))
def test_attention_factors_follow_their_formulas(s):
    assert ce.yarn_attention_factor(s) == pytest.approx(0.1 * math.log(s) + 1)
    assert ce.yarn_attention_factor(s, 0.707, 0.707) == pytest.approx(1.0)
    assert ce.longrope_attention_factor(s, 4096) == pytest.approx(math.sqrt(1 + math.log(s) / math.log(4096)))


def test_attention_factor_scales_scores_by_its_square():
    theta, a = ce.rope_inv_freq(8, {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 100})
    cos, sin = ce.rope_cos_sin(np.array([3, 7]), theta, a)
    q, k = np.array([1.0, 0, 0.5, 0, 0, 1, 0, 0]), np.array([0.2, 1, 0, 0, 1, 0, 0, 0.3])

    def turn(x, c, s_):
        even, odd = x[0::2], x[1::2]
        return np.stack([even * c - odd * s_, even * s_ + odd * c], -1).reshape(-1)

    plain_cos, plain_sin = ce.rope_cos_sin(np.array([3, 7]), theta, 1.0)
    scaled = turn(q, cos[0], sin[0]) @ turn(k, cos[1], sin[1])
    plain = turn(q, plain_cos[0], plain_sin[0]) @ turn(k, plain_cos[1], plain_sin[1])
    assert scaled == pytest.approx(a * a * plain)


def test_llama3_smooth_factor_is_zero_and_one_at_the_band_edges():
    L, lo, hi = 8192, 1.0, 4.0
    assert ce.llama3_smooth_factor(np.array([L / lo, L / hi]), L, lo, hi) == pytest.approx([0.0, 1.0])


def test_longrope_switches_lists_only_past_the_original_length():
    short, long = [1.0, 2.0], [3.0, 4.0]
    assert list(ce.longrope_factors(short, long, None, 100)) == short
    assert list(ce.longrope_factors(short, long, 100, 100)) == short
    assert list(ce.longrope_factors(short, long, 101, 100)) == long


def test_proportional_turns_only_its_share_of_the_pairs():
    inv_freq, _ = ce.rope_inv_freq(16, {"rope_type": "proportional", "rope_theta": 100.0,
                                         "partial_rotary_factor": 0.5})
    # 4 of 8 pairs turn, at 100^(-2i/16) with the whole head in the exponent; the rest stand still
    np.testing.assert_allclose(inv_freq, [1, 100 ** -0.125, 100 ** -0.25, 100 ** -0.375, 0, 0, 0, 0])


def test_deepseek_softmax_multiplier_is_the_square_of_the_all_dim_mscale():
    assert ce.deepseek_softmax_multiplier(40, 0.707) == pytest.approx((0.1 * 0.707 * math.log(40) + 1) ** 2)
    assert ce.deepseek_softmax_multiplier(40, 0.0) == 1.0 and ce.deepseek_softmax_multiplier(40, None) == 1.0
    assert ce.deepseek_softmax_multiplier(1.0, 0.707) == 1.0


# ---------------------------------------------------------------------------
# The published blocks the lesson carries, and the demo
# ---------------------------------------------------------------------------


def test_llama31_block_is_the_one_the_reference_vectors_were_made_from():
    ref = next(r for r in ROPE if r["name"].startswith("Llama 3.1 8B"))
    assert ref["rope_parameters"] == ce.LLAMA31_8B["rope_parameters"]
    assert ref["head_dim"] == ce.LLAMA31_8B["head_dim"]
    assert ref["max_position_embeddings"] == ce.LLAMA31_8B["max_position_embeddings"]


def test_phi35_lists_are_the_published_ones():
    phi = next(r for r in ROPE if r["name"].startswith("Phi-3.5-mini"))["rope_parameters"]
    np.testing.assert_allclose(ce._phi35_factors()["long_factor"], phi["long_factor"], rtol=1e-6)
    np.testing.assert_allclose(ce._phi35_factors()["short_factor"], phi["short_factor"], rtol=1e-6)


def test_rope_cos_sin_is_the_angle_table_times_the_attention_factor():
    positions, theta = np.array([0, 3, 100]), rope_frequencies(8)
    cos, sin = ce.rope_cos_sin(positions, theta, 1.5)
    assert cos.shape == sin.shape == (3, 4)
    np.testing.assert_allclose(cos, 1.5 * np.cos(np.outer(positions, theta)), rtol=1e-15)
    np.testing.assert_allclose(sin, 1.5 * np.sin(np.outer(positions, theta)), rtol=1e-15)


def test_demo_narrated(capsys):
    ce.demo()
    out = capsys.readouterr().out
    assert "Llama 3.1" in out and "16 GiB" in out
