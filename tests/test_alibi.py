"""lessons.alibi: slopes against the transformers library's BLOOM and MPT code
(committed vectors, no torch needed), the paper's rule as a closed form, the
bias at any positions (shifts, the cached step) and inside attention, and NoPE.
The page's numbers are checked by its `# →` lines (tests/test_prose.py); the
whole-model behaviour (TinyGPT with ALiBi) by tests/test_transformer.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons import alibi
from lessons.attention import scaled_dot_product_attention

DATA = json.loads((Path(__file__).parent / "data" / "reference_vectors.json").read_text(encoding="utf-8"))


def test_reference_vectors_cover_1_to_64_heads():
    assert [r["n_heads"] for r in DATA["alibi"]] == list(range(1, 65))


@pytest.mark.parametrize("record", DATA["alibi"], ids=lambda r: f"{r['n_heads']}heads")
def test_slopes_match_bloom_and_mpt_in_transformers(record):
    got = alibi.alibi_slopes(record["n_heads"])
    np.testing.assert_allclose(got, record["bloom"], rtol=1e-6)
    np.testing.assert_allclose(got, record["mpt"], rtol=1e-6)


@given(st.integers(0, 8))
def test_power_of_two_slopes_are_the_geometric_sequence(k):
    n = 2 ** k
    h = np.arange(1, n + 1)
    np.testing.assert_allclose(alibi.alibi_slopes(n), 2.0 ** (-8.0 * h / n))


@given(st.integers(1, 300))
def test_other_head_counts_follow_the_papers_rule(n):
    closest = 2 ** int(math.floor(math.log2(n)))
    slopes = alibi.alibi_slopes(n)
    assert slopes.shape == (n,)
    np.testing.assert_allclose(slopes[:closest], alibi.alibi_slopes(closest))
    # the extra heads are the odd-numbered slopes of the next power of two: 2^(-8(2k-1)/(2c))
    k = np.arange(1, n - closest + 1)
    np.testing.assert_allclose(slopes[closest:], 2.0 ** (-8.0 * (2 * k - 1) / (2 * closest)))
    assert len(set(np.round(slopes, 12))) == n  # no two heads share a slope


@given(st.integers(1, 16), st.integers(1, 24))
def test_bias_is_minus_slope_times_distance_under_the_mask(n_heads, n):
    bias = alibi.alibi_bias(n_heads, n)
    assert bias.shape == (n_heads, n, n)
    slopes = alibi.alibi_slopes(n_heads)
    i, j = np.indices((n, n))
    future = j > i
    assert np.all(np.isneginf(bias[:, future]))
    np.testing.assert_allclose(bias[:, ~future], -slopes[:, None] * (i - j)[~future])


def test_bias_for_a_longer_sequence_keeps_the_shorter_block():
    assert np.array_equal(alibi.alibi_bias(12, 64)[:, :20, :20], alibi.alibi_bias(12, 20))


def test_bias_plugs_into_attention_as_recency():
    # equal content: the weights are exactly the softmax of the bias row
    n = 6
    Q = K = np.zeros((n, 4))  # every content score is 0
    _, w = scaled_dot_product_attention(Q, K, np.zeros((n, 1)), bias=alibi.alibi_bias(1, n)[0])
    np.testing.assert_allclose(w[-1], alibi.recency_weights(alibi.alibi_slopes(1)[0], n))
    assert np.allclose(np.triu(w, 1), 0)  # the bias carries the causal mask


@given(st.floats(1e-3, 2.0), st.integers(2, 50))
def test_recency_weights_fall_by_exp_minus_slope(slope, n):
    w = alibi.recency_weights(slope, n)
    assert w.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(w[:-1] / w[1:], math.exp(-slope))


@given(st.floats(1e-3, 2.0))
def test_half_weight_distance_halves(slope):
    assert math.exp(-slope * alibi.half_weight_distance(slope)) == pytest.approx(0.5)


@given(st.integers(1, 40))
def test_mask_position_signal_is_one_over_count(n):
    np.testing.assert_allclose(alibi.mask_position_signal(n), 1 / (np.arange(n) + 1))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 20), st.integers(-50, 10_000))
def test_bias_at_shifted_positions_is_the_same_matrix(n_heads, n, shift):
    positions = shift + np.arange(n)
    assert np.array_equal(alibi.alibi_bias_at(n_heads, positions, positions), alibi.alibi_bias(n_heads, n))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(0, 30))
def test_a_cached_step_gets_the_last_row_of_the_full_bias(n_heads, t):
    row = alibi.alibi_bias_at(n_heads, [t], np.arange(t + 1))  # one new query against every cached key
    assert row.shape == (n_heads, 1, t + 1)
    assert np.array_equal(row[:, 0], alibi.alibi_bias(n_heads, t + 1)[:, t])


def test_step_by_step_attention_with_the_bias_equals_the_full_pass():
    n_heads, n = 4, 9
    Q, K, V = np.random.default_rng(2).standard_normal((3, n_heads, n, 8))
    full, _ = scaled_dot_product_attention(Q, K, V, bias=alibi.alibi_bias(n_heads, n))
    for t in range(n):
        step, _ = scaled_dot_product_attention(Q[:, t:t + 1], K[:, :t + 1], V[:, :t + 1],
                                               bias=alibi.alibi_bias_at(n_heads, [t], np.arange(t + 1)))
        np.testing.assert_allclose(step[:, 0], full[:, t], rtol=0, atol=1e-12)


def test_keys_after_the_query_are_masked_at_any_positions():
    bias = alibi.alibi_bias_at(2, [5, 7], [4, 5, 6, 8])
    assert np.isneginf(bias[:, 0, 2:]).all() and np.isneginf(bias[:, 1, 3]).all()
    np.testing.assert_allclose(bias[:, 1, :3], -alibi.alibi_slopes(2)[:, None] * np.array([3, 2, 1]))


def test_nope_orders_differ_only_where_the_prefix_sets_differ():
    a, b = [3, 5, 7, 9, 11], [5, 3, 7, 9, 11]
    gaps = alibi.nope_position_gaps(a, b, n_layers=1)
    same_prefix = [a[i] == b[i] and set(a[:i]) == set(b[:i]) for i in range(len(a))]
    assert all((g < 1e-9) == same for g, same in zip(gaps, same_prefix, strict=True))
    # a second layer reads the first layer's outputs at positions 0 and 1: every position differs
    assert np.all(alibi.nope_position_gaps(a, b, n_layers=2) > 1e-6)
    assert alibi.unmasked_order_gap([3, 5, 7, 9], [9, 7, 5, 3]) < 1e-12


# What transformers 5.24 gives (read with Llama4TextConfig and SmolLM3Config; no_rope_layers[i] == 1
# means layer i uses RoPE): Llama 4 Scout's 48 layers with an empty list, SmolLM3-3B's 36 with none given.
LLAMA4_SCOUT_NOPE = [3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47]
SMOLLM3_NOPE = [3, 7, 11, 15, 19, 23, 27, 31, 35]


def test_nope_layers_read_no_rope_layers_as_transformers_does():
    assert alibi.nope_layers(48, []) == LLAMA4_SCOUT_NOPE  # Llama 4: an empty list is filled
    assert alibi.nope_layers(36) == alibi.nope_layers(36, [1, 1, 1, 0] * 9, fill_empty=False) == SMOLLM3_NOPE
    assert alibi.nope_layers(4, [0, 1, 1, 1]) == [0]  # 0 = NoPE, whatever the position
    with pytest.raises(ValueError, match="no_rope_layers"):  # SmolLM3 fills only an absent key
        alibi.nope_layers(36, [], fill_empty=False)


@given(st.integers(1, 100), st.integers(1, 8))
def test_the_default_makes_every_interval_th_layer_nope(n, interval):
    assert alibi.nope_layers(n, None, interval) == [i for i in range(n) if (i + 1) % interval == 0]


@pytest.mark.parametrize("call,name", [
    (lambda: alibi.alibi_slopes(0), "n_heads"), (lambda: alibi.alibi_slopes(2.5), "n_heads"),
    (lambda: alibi.alibi_bias(4, 0), "seq_len"), (lambda: alibi.alibi_bias(True, 3), "n_heads"),
    (lambda: alibi.alibi_bias_at(4, [[0, 1]], [0, 1]), "query_positions"),
    (lambda: alibi.alibi_bias_at(4, [0], []), "key_positions"),
    (lambda: alibi.recency_weights(0.0, 4), "slope"), (lambda: alibi.half_weight_distance(-1.0), "slope"),
    (lambda: alibi.nope_position_gaps([1, 2], [2, 1], n_layers=0), "n_layers"),
    (lambda: alibi.nope_layers(0), "n_layers"), (lambda: alibi.nope_layers(4, [1, 2, 1, 0]), "no_rope_layers"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_demo_runs(capsys):
    alibi.demo()
    assert "NoPE" in capsys.readouterr().out


SINK_DATA = json.loads((Path(__file__).parent / "data" / "attention_sinks_vectors.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("record", SINK_DATA["t5_relative_position_bucket"],
                         ids=lambda r: f"{'bi' if r['bidirectional'] else 'causal'}-{r['num_buckets']}-{r['max_distance']}")
def test_t5_buckets_match_transformers(record):
    got = alibi.t5_relative_bucket(record["relative_position"], record["bidirectional"], record["num_buckets"],
                                   record["max_distance"])
    np.testing.assert_array_equal(got, record["bucket"])


def test_t5_buckets_exact_then_logarithmic_then_flat():
    rel = -np.arange(0, 400)  # keys at or before the query
    b = alibi.t5_relative_bucket(rel, bidirectional=False)
    assert b[:16].tolist() == list(range(16))  # one bucket per distance below 16
    assert np.all(np.diff(b) >= 0) and b[100] < 31 and set(b[128:].tolist()) == {31}
    # causal: keys after the query all land in bucket 0
    assert set(alibi.t5_relative_bucket(np.arange(1, 50), bidirectional=False).tolist()) == {0}


def test_gallery_schemes_agree_with_transformers_gallery_vectors():
    stored = json.loads((Path(__file__).parent / "data" / "gallery_vectors.json").read_text(encoding="utf-8"))
    for record in stored["gallery"]:
        config = json.loads((Path(alibi.__file__).parent / "gallery" / f"{record['slug']}.json").read_text())["config"]
        scheme = alibi.position_scheme_of(config)
        rope = any(layer is not None for layer in record["layers"])
        assert (scheme == "ALiBi") == bool(record["alibi_slopes"]), record["slug"]
        assert (scheme == "RoPE") == rope, record["slug"]
