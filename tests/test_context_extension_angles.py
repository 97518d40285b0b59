"""lessons.context_extension: which pairs each method keeps inside the angles
seen in training (`trained_angle_ratio`), dynamic NTK as vLLM computes it
(`vllm_dynamic_ntk_base`), and the Llama 3.2 block. Closed forms and the
issue's own numbers; the page's numbers are checked by its `# →` lines."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessons import context_extension as ce
from lessons.positional import ntk_scaled_base, rope_frequencies

ROPE = json.loads((Path(__file__).parent / "data" / "reference_vectors.json").read_text(encoding="utf-8"))["rope"]
TOL = 1e-9


# ---------------------------------------------------------------------------
# trained_angle_ratio
# ---------------------------------------------------------------------------


@given(st.sampled_from([8, 16, 64, 128]), st.sampled_from([512, 1000, 4096]), st.floats(1.5, 16.0))
def test_no_scaling_reads_s_times_past_the_slow_pairs_and_never_past_a_full_turn(d, trained, s):
    # positions run 0..L-1 in training and 0..N-1 when read: a slow pair's angle grows by (N - 1) / (L - 1)
    theta = rope_frequencies(d, 10000.0)
    ratio = ce.trained_angle_ratio(theta, theta, trained, int(trained * s))
    slow = (trained - 1) * theta < 2 * np.pi
    np.testing.assert_allclose(ratio[slow], (int(trained * s) - 1) / (trained - 1), rtol=1e-12)
    assert np.all(ratio[~slow] == 1.0)


@given(st.sampled_from([8, 16, 64, 128]), st.sampled_from([512, 1000, 4096]), st.sampled_from([2.0, 4.0, 8.0]))
def test_interpolation_keeps_every_pair_inside_its_trained_angles_but_the_last_fraction_of_a_position(d, trained, s):
    # the last position N - 1 = sL - 1 maps to L - 1/s: (1 - 1/s) of a position past L - 1
    theta = rope_frequencies(d, 10000.0)
    ratio = ce.trained_angle_ratio(theta / s, theta, trained, int(trained * s))
    edge = (trained - 1 / s) / (trained - 1)
    assert np.all(ratio <= edge + TOL)
    np.testing.assert_allclose(ratio[(trained - 1) * theta < 2 * np.pi], edge, rtol=1e-12)


@given(st.sampled_from([16, 64, 128]), st.sampled_from([1000, 4096]), st.sampled_from([2.0, 4.0, 8.0]))
def test_ntk_aware_ratio_of_a_slow_pair_is_s_to_the_one_minus_2i_over_d_minus_2(d, trained, s):
    theta = rope_frequencies(d, 10000.0)
    ratio = ce.trained_angle_ratio(rope_frequencies(d, ntk_scaled_base(10000.0, s, d)), theta, trained,
                                   int(trained * s))
    i = np.arange(d // 2)
    slow = (trained - 1) * theta < 2 * np.pi
    grow = (int(trained * s) - 1) / (trained - 1)  # a slow pair's angle at the last position, unscaled
    np.testing.assert_allclose(ratio[slow], (grow * s ** (-2 * i / (d - 2)))[slow], rtol=1e-9)
    assert ratio[-1] == pytest.approx(grow / s, rel=1e-9)  # only the slowest pair is fully interpolated


def test_the_issues_numbers_for_the_running_example():
    # head 128, base 10,000, 4,096 -> 32,768, positions counted from 0: 18 pairs never finish a turn, all 18
    # overshoot under NTK-aware, by <= 1.75x; PI, YaRN and Llama 3 end 0.875 of a position past 4,095
    theta = rope_frequencies(128, 10000.0)
    never = ce.rope_wavelengths(theta) > 4096
    assert int(never.sum()) == 18 and int(np.argmax(never)) == 46
    ratios = ce.example_angle_ratios()
    ntk = ratios["NTK-aware (base raised)"]
    assert int((ntk[never] > 1 + TOL).sum()) == 18
    grow = 32767 / 4095
    assert ntk.max() == pytest.approx(grow * 8 ** (-92 / 126), rel=1e-12) and round(float(ntk.max()), 2) == 1.75
    for method in ("position interpolation (linear)", "YaRN", "Llama 3 rule"):
        assert ratios[method].max() == pytest.approx(4095.875 / 4095, rel=1e-12), method
    assert ratios["no scaling"].max() == pytest.approx(grow, rel=1e-12)


def test_yarn_cuts_exactly_at_the_first_pair_short_of_a_full_turn():
    low, high = ce.yarn_correction_range(32, 1, 128, 10000.0, 4096)
    first_slow = int(np.argmax(ce.rope_wavelengths(rope_frequencies(128, 10000.0)) > 4096))
    assert high == first_slow == 46 and low == 20


def test_a_pair_that_finished_a_turn_is_capped_at_one_unless_slowed_below_a_turn():
    theta = np.array([1.0])  # wavelength 2π: finishes many turns in 100 positions
    assert ce.trained_angle_ratio(theta, theta, 100, 800)[0] == 1.0
    # slowed so far that it no longer completes a turn by position 799
    assert ce.trained_angle_ratio(theta / 1000, theta, 100, 800)[0] == pytest.approx(0.799 / (2 * np.pi))


# ---------------------------------------------------------------------------
# vllm_dynamic_ntk_base
# ---------------------------------------------------------------------------


@given(st.sampled_from([2.0, 4.0, 8.0]), st.sampled_from([1000, 4096]), st.sampled_from([8, 64, 128]))
def test_vllm_base_is_the_hugging_face_base_at_the_table_length(s, trained, d):
    table = int(s * trained)
    assert ce.vllm_dynamic_ntk_base(10000.0, s, table, trained, d) == pytest.approx(
        ce.dynamic_ntk_base(10000.0, s, table, trained, d), rel=1e-12)
    # the long-standing table P = s·L: stretch s² − s + 1
    assert ce.vllm_dynamic_ntk_base(10000.0, s, table, trained, d) == pytest.approx(
        10000.0 * (s * s - s + 1) ** (d / (d - 2)), rel=1e-12)


def test_vllm_base_is_the_trained_base_when_the_table_is_the_trained_length():
    assert ce.vllm_dynamic_ntk_base(10000.0, 4.0, 4096, 4096, 128) == pytest.approx(10000.0)


def test_engines_differ_on_a_short_prompt_and_agree_at_the_table_end():
    assert round(ce.dynamic_ntk_base(10000.0, 2.0, 10, 1000, 8)) == 10000
    assert round(ce.vllm_dynamic_ntk_base(10000.0, 2.0, 2000, 1000, 8)) == 43267
    assert round(ce.dynamic_ntk_base(10000.0, 2.0, 2000, 1000, 8)) == 43267


def test_vllm_table_shorter_than_the_trained_length_is_refused():
    with pytest.raises(ValueError, match="table_len"):
        ce.vllm_dynamic_ntk_base(10000.0, 2.0, 512, 2048, 64)


# ---------------------------------------------------------------------------
# Llama 3.2: factor is not the window ratio
# ---------------------------------------------------------------------------


def test_llama32_block_is_the_one_the_reference_vectors_were_made_from():
    ref = next(r for r in ROPE if r["name"].startswith("Llama 3.2 1B"))
    assert ref["rope_parameters"] == ce.LLAMA32_1B["rope_parameters"]
    assert ref["head_dim"] == ce.LLAMA32_1B["head_dim"]
    assert ref["max_position_embeddings"] == ce.LLAMA32_1B["max_position_embeddings"]


@pytest.mark.parametrize("config, slowest", [(ce.LLAMA31_8B, 2.0), (ce.LLAMA32_1B, 0.5)])
def test_same_window_different_factor(config, slowest):
    p = config["rope_parameters"]
    assert config["max_position_embeddings"] / p["original_max_position_embeddings"] == 16
    d = config["head_dim"]
    ratio = ce.trained_angle_ratio(ce.rope_inv_freq(d, p)[0], rope_frequencies(d, p["rope_theta"]),
                                   p["original_max_position_embeddings"], config["max_position_embeddings"])
    # the slowest pairs are divided by factor while the window grew 16x (last positions counted from 0)
    grow = (config["max_position_embeddings"] - 1) / (p["original_max_position_embeddings"] - 1)
    assert ratio[-1] == pytest.approx(grow / p["factor"], rel=1e-12) and ratio[-1] == pytest.approx(slowest, rel=1e-3)
