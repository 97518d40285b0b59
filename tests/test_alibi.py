"""lessons.alibi: slopes against the transformers library's BLOOM and MPT code
(committed vectors, no torch needed), the paper's rule as a closed form, the
bias and its model-level consequences, NoPE, and the page's numbers."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessons import alibi
from lessons.attention import scaled_dot_product_attention

DATA = json.loads((Path(__file__).parent / "data" / "reference_vectors.json").read_text(encoding="utf-8"))
DOC = alibi.__doc__


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


def test_tinygpt_with_alibi_ignores_the_start_and_matches_its_cache():
    assert alibi.alibi_shift_gap([1, 2, 3, 4, 5], 37) < 1e-12
    assert alibi.alibi_cache_gap([4, 1, 9, 2, 2, 7]) < 1e-10


def test_nope_orders_differ_only_where_the_prefix_sets_differ():
    a, b = [3, 5, 7, 9, 11], [5, 3, 7, 9, 11]
    gaps = alibi.nope_position_gaps(a, b, n_layers=1)
    same_prefix = [a[i] == b[i] and set(a[:i]) == set(b[:i]) for i in range(len(a))]
    assert all((g < 1e-9) == same for g, same in zip(gaps, same_prefix))
    assert alibi.unmasked_order_gap([3, 5, 7, 9], [9, 7, 5, 3]) < 1e-12


@pytest.mark.parametrize("call", [lambda: alibi.alibi_slopes(0), lambda: alibi.alibi_slopes(2.5),
                                  lambda: alibi.alibi_bias(4, 0), lambda: alibi.alibi_bias(True, 3)])
def test_bad_sizes_raise_value_error_naming_the_argument(call):
    with pytest.raises(ValueError, match="n_heads|seq_len"):
        call()


def test_numbers_in_the_prose():
    flat = " ".join(DOC.split())  # the page's text with line breaks undone
    s8 = alibi.alibi_slopes(8)
    assert f"{alibi.half_weight_distance(s8[0]):.1f} tokens" in DOC
    assert f"every {alibi.half_weight_distance(s8[-1]):.0f}" in DOC
    assert f"{math.exp(-0.5):.3f}" in DOC and f"{math.log(2):.3f} / 0.5" in DOC
    extra = alibi.alibi_slopes(12)[8:]
    assert ", ".join(f"{m:.3f}" for m in extra[:3]) + f" and {extra[3]:.3f}" in flat
    w = alibi.recency_weights(1 / 256, 1024)
    assert f"{w[-1] / w[0]:.0f} times" in DOC
    b = 0.0 - alibi.alibi_bias(2, 4)[:, 3, ::-1] + 0.0  # penalties for keys 3, 2, 1, 0 of query 3 (no -0)
    assert "subtracts " + ", ".join(f"{x:g}" for x in b[0][:3]) + f" and {b[0][3]:g}" in flat
    assert f"subtracts {b[1][0]:g}, " + ", ".join(f"{x:.4f}" for x in b[1][1:3]) + f" and {b[1][3]:.4f}" in flat
    r = alibi.recency_weights(0.5, 4)
    assert ", ".join(f"{x:.3f}" for x in r[:3]) + f" and {r[3]:.3f}" in flat
    sig = alibi.mask_position_signal(5)
    assert ", ".join(f"{x:.3g}" for x in sig) in flat
    assert 112 & 111 != 0  # BLOOM's 112 heads are not a power of two, as the page says


def test_figures_are_the_ones_on_the_page():
    import matplotlib

    matplotlib.use("Agg")
    figs = alibi.figures()
    assert set(figs) == {"bias_matrices", "slopes", "recency", "nope_orders"}
    for name in figs:
        assert f"figures/alibi.{name}.svg" in DOC


def test_demo_runs(capsys):
    alibi.demo()
    assert "NoPE" in capsys.readouterr().out
