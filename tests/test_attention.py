"""Tests for lessons.attention: identities, reference implementations and
closed forms. The page's numbers are checked by its `# →` lines
(tests/test_prose.py); softmax and permutation_matrix are tested in their home,
tests/test_notation.py."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons import attention as A
from lessons.attention import (
    causal_mask,
    embed,
    merge_heads,
    multi_head_attention,
    scaled_dot_product_attention,
    self_attention,
    split_heads,
)
from lessons.notation import permutation_matrix

# ---------------------------------------------------------------------------
# A direct loop implementation, written from the formula with plain floats
# ---------------------------------------------------------------------------


def loop_attention(Q, K, V, allowed=None, bias=None):
    """out[i] = Σ_j w_ij v_j, w_ij = exp(s_ij) / Σ_k exp(s_ik), s_ij = q_i·k_j/√d + b_ij, over allowed j."""
    n_q, d = len(Q), len(Q[0])
    n_k, d_v = len(K), len(V[0])
    out = np.zeros((n_q, d_v))
    weights = np.zeros((n_q, n_k))
    for i in range(n_q):
        s = {}
        for j in range(n_k):
            if allowed is not None and not allowed[i][j]:
                continue
            s[j] = sum(Q[i][c] * K[j][c] for c in range(d)) / math.sqrt(d) + (0.0 if bias is None else bias[i][j])
        total = sum(math.exp(v) for v in s.values())
        for j, v in s.items():
            weights[i, j] = math.exp(v) / total
            for c in range(d_v):
                out[i, c] += weights[i, j] * V[j][c]
    return out, weights


# ---------------------------------------------------------------------------
# scaled_dot_product_attention against the loop
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_attention_matches_loop_implementation(seed):
    rng = np.random.default_rng(seed)
    n_q, n_k, d, d_v = rng.integers(1, 6, size=4)
    Q, K, V = rng.standard_normal((n_q, d)), rng.standard_normal((n_k, d)), rng.standard_normal((n_k, d_v))
    bias = rng.standard_normal((n_q, n_k))
    allowed = rng.random((n_q, n_k)) < 0.7
    allowed[:, 0] = True  # every query keeps at least one key
    for kwargs, ref_kwargs in (({}, {}), ({"mask": allowed}, {"allowed": allowed}),
                               ({"bias": bias}, {"bias": bias}),
                               ({"mask": allowed, "bias": bias}, {"allowed": allowed, "bias": bias})):
        out, w = scaled_dot_product_attention(Q, K, V, **kwargs)
        ref_out, ref_w = loop_attention(Q.tolist(), K.tolist(), V.tolist(), **ref_kwargs)
        np.testing.assert_allclose(w, ref_w, atol=1e-12)
        np.testing.assert_allclose(out, ref_out, atol=1e-12)


def test_attention_broadcasts_over_leading_axes():
    rng = np.random.default_rng(1)
    Q, K, V = rng.standard_normal((2, 3, 4, 5)), rng.standard_normal((2, 3, 6, 5)), rng.standard_normal((2, 3, 6, 2))
    out, w = scaled_dot_product_attention(Q, K, V)
    assert out.shape == (2, 3, 4, 2) and w.shape == (2, 3, 4, 6)
    for a, b in itertools.product(range(2), range(3)):
        ref_out, _ = loop_attention(Q[a, b].tolist(), K[a, b].tolist(), V[a, b].tolist())
        np.testing.assert_allclose(out[a, b], ref_out, atol=1e-12)


def test_a_fully_masked_row_is_refused_not_nan():
    # softmax (lessons.notation) raises on a row that is all -inf; attention passes that on
    Q, K, V = np.eye(3), np.eye(3), np.eye(3)
    bias = np.zeros((3, 3))
    bias[1] = -np.inf
    with pytest.raises(ValueError, match="fully masked"):
        scaled_dot_product_attention(Q, K, V, bias=bias)
    mask = np.ones((3, 3), dtype=bool)
    mask[2] = False
    with pytest.raises(ValueError, match="mask blocks every key"):
        scaled_dot_product_attention(Q, K, V, mask=mask)
    # a -inf bias that leaves one key per row is fine: weight 0 there
    bias[1] = [0.0, -np.inf, -np.inf]
    _, w = scaled_dot_product_attention(Q, K, V, bias=bias)
    np.testing.assert_array_equal(w[1], [1.0, 0.0, 0.0])


def test_a_bias_of_one_constant_per_row_changes_nothing():
    rng = np.random.default_rng(2)
    Q, K, V = (rng.standard_normal((4, 3)) for _ in range(3))
    row_const = rng.standard_normal((4, 1))  # broadcasts across keys
    np.testing.assert_allclose(scaled_dot_product_attention(Q, K, V, bias=row_const)[0],
                               scaled_dot_product_attention(Q, K, V)[0], atol=1e-12)


# ---------------------------------------------------------------------------
# The causal mask
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_causal_mask_is_j_le_i(n):
    m = causal_mask(n)
    assert m.shape == (n, n) and m.dtype == bool
    assert all(m[i, j] == (j <= i) for i in range(n) for j in range(n))


@pytest.mark.parametrize("seed", range(8))
def test_causal_outputs_of_earlier_tokens_ignore_later_tokens(seed):
    rng = np.random.default_rng(seed)
    n, d, k = 7, 4, int(rng.integers(1, 7))
    X = rng.standard_normal((n, d))
    Y = X.copy()
    Y[k:] = rng.standard_normal((n - k, d))  # rewrite every token from k on
    W = [rng.standard_normal((d, d)) for _ in range(4)]
    for f in (lambda Z: self_attention(Z, causal_mask(n))[0],
              lambda Z: multi_head_attention(Z, *W, n_heads=2, mask=causal_mask(n))[0]):
        np.testing.assert_allclose(f(X)[:k], f(Y)[:k], atol=1e-12)
        assert not np.allclose(f(X)[k:], f(Y)[k:])
    # and the weights on future keys are exactly zero
    _, w = self_attention(X, causal_mask(n))
    assert np.all(w[~causal_mask(n)] == 0.0)


# ---------------------------------------------------------------------------
# Permutation equivariance
# ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 7))
def test_attention_is_permutation_equivariant(seed, n):
    rng = np.random.default_rng(seed)
    d = 4
    X = rng.standard_normal((n, d))
    P = permutation_matrix(rng.permutation(n))
    np.testing.assert_allclose(self_attention(P @ X)[0], P @ self_attention(X)[0], atol=1e-10)
    W = [rng.standard_normal((d, d)) for _ in range(4)]
    out, w = multi_head_attention(X, *W, n_heads=2)
    out_p, w_p = multi_head_attention(P @ X, *W, n_heads=2)
    np.testing.assert_allclose(out_p, P @ out, atol=1e-10)
    # the weights are reordered on both axes: P A Pᵀ
    np.testing.assert_allclose(w_p, P @ w @ P.T, atol=1e-10)


@pytest.mark.parametrize("seed", range(20))
def test_causal_mask_breaks_permutation_equivariance(seed):
    rng = np.random.default_rng(seed)
    n, d = 5, 4
    X = rng.standard_normal((n, d))
    order = rng.permutation(n)
    while np.array_equal(order, np.arange(n)):
        order = rng.permutation(n)
    P, mask = permutation_matrix(order), causal_mask(n)
    assert not np.allclose(self_attention(P @ X, mask)[0], P @ self_attention(X, mask)[0], atol=1e-6)


# ---------------------------------------------------------------------------
# Heads
# ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 5), st.integers(0, 2))
def test_split_merge_round_trip(n_heads, dh, seq, n_lead):
    rng = np.random.default_rng(n_heads * 100 + dh * 10 + seq)
    X = rng.standard_normal((2,) * n_lead + (seq, n_heads * dh))
    H = split_heads(X, n_heads)
    assert H.shape == (2,) * n_lead + (n_heads, seq, dh)
    np.testing.assert_array_equal(merge_heads(H), X)
    for h in range(n_heads):  # head h owns a block of adjacent columns
        np.testing.assert_array_equal(H[..., h, :, :], X[..., h * dh:(h + 1) * dh])


def linear(X, W):
    """torch.nn.Linear without bias, written per token: y = W x for each row x of X, W (d_out, d_in)."""
    return np.array([[sum(W[o][i] * x[i] for i in range(len(x))) for o in range(len(W))] for x in X])


def test_multi_head_with_one_head_equals_single_head():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 8))
    W_q, W_k, W_v, W_o = (rng.standard_normal((8, 8)) for _ in range(4))
    for mask in (None, causal_mask(6)):
        out, w = multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads=1, mask=mask)
        ref, ref_w = loop_attention(linear(X, W_q).tolist(), linear(X, W_k).tolist(), linear(X, W_v).tolist(),
                                    allowed=None if mask is None else mask)
        np.testing.assert_allclose(out, linear(ref, W_o), atol=1e-10)
        np.testing.assert_allclose(w[0], ref_w, atol=1e-12)


def test_multi_head_equals_a_loop_over_heads_with_weights_stored_d_out_by_d_in():
    # every width different, so a transposed weight cannot pass by accident
    rng = np.random.default_rng(5)
    n_heads, d, dh_k, dh_v, d_out = 3, 4, 2, 3, 5
    X = rng.standard_normal((5, d))
    W_q, W_k = rng.standard_normal((n_heads * dh_k, d)), rng.standard_normal((n_heads * dh_k, d))
    W_v, W_o = rng.standard_normal((n_heads * dh_v, d)), rng.standard_normal((d_out, n_heads * dh_v))
    out, w = multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads=n_heads)
    assert out.shape == (5, d_out) and w.shape == (n_heads, 5, 5)
    Q, K, V = linear(X, W_q), linear(X, W_k), linear(X, W_v)
    heads = [loop_attention(Q[:, h * dh_k:(h + 1) * dh_k].tolist(), K[:, h * dh_k:(h + 1) * dh_k].tolist(),
                            V[:, h * dh_v:(h + 1) * dh_v].tolist()) for h in range(n_heads)]
    np.testing.assert_allclose(out, linear(np.concatenate([o for o, _ in heads], axis=1), W_o), atol=1e-10)
    np.testing.assert_allclose(w, np.stack([wh for _, wh in heads]), atol=1e-12)


# ---------------------------------------------------------------------------
# Bad input: ValueError naming the argument
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call, words", [
    (lambda: causal_mask(0), ["n", "0"]),
    (lambda: causal_mask(-3), ["n", "-3"]),
    (lambda: causal_mask(2.5), ["n"]),
    (lambda: split_heads(np.zeros((3, 6)), 4), ["d = 6", "n_heads = 4"]),
    (lambda: split_heads(np.zeros((3, 6)), 0), ["n_heads"]),
    (lambda: split_heads(np.zeros(6), 2), ["X", "(6,)"]),
    (lambda: merge_heads(np.zeros((3, 6))), ["X", "(3, 6)"]),
    (lambda: scaled_dot_product_attention(np.zeros((2, 3)), np.zeros((4, 5)), np.zeros((4, 5))), ["Q", "K", "(2, 3)", "(4, 5)"]),
    (lambda: scaled_dot_product_attention(np.zeros((2, 3)), np.zeros((4, 3)), np.zeros((5, 3))), ["K", "V", "(4, 3)", "(5, 3)"]),
    (lambda: scaled_dot_product_attention(np.zeros(3), np.zeros((4, 3)), np.zeros((4, 3))), ["Q", "(3,)"]),
    (lambda: scaled_dot_product_attention(np.zeros((2, 3)), np.zeros((4, 3)), np.zeros((4, 3)), mask=np.ones((3, 3), bool)), ["mask", "(3, 3)", "(2, 4)"]),
    (lambda: scaled_dot_product_attention(np.zeros((2, 3)), np.zeros((4, 3)), np.zeros((4, 3)), mask=np.ones((2, 4))), ["mask", "boolean"]),
    (lambda: scaled_dot_product_attention(np.zeros((2, 3)), np.zeros((4, 3)), np.zeros((4, 3)), mask=np.zeros((2, 4), bool)), ["mask"]),
    (lambda: scaled_dot_product_attention(np.zeros((2, 3)), np.zeros((4, 3)), np.zeros((4, 3)), bias=np.zeros((5,))), ["bias", "(5,)", "(2, 4)"]),
    (lambda: multi_head_attention(np.zeros((3, 4)), np.zeros((4, 5)), np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 4)), 2), ["W_q", "(4, 5)", "d = 4"]),
    (lambda: multi_head_attention(np.zeros((3, 4)), np.zeros((6, 4)), np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 4)), 2), ["W_q", "W_k", "(6, 4)"]),
    (lambda: multi_head_attention(np.zeros((3, 4)), np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 3)), 2), ["W_o", "(4, 3)", "d_v = 4"]),
    (lambda: multi_head_attention(np.zeros(4), *(np.zeros((4, 4)),) * 4, 2), ["X"]),
    (lambda: multi_head_attention(np.zeros((3, 6)), *(np.zeros((6, 6)),) * 4, 4), ["d = 6", "n_heads = 4"]),
    (lambda: permutation_matrix([0, 0, 2]), ["order", "[0, 0, 2]"]),
    (lambda: embed("cat bites man"), ["sentence", "cat"]),
    (lambda: A.score_matrix_bytes(0), ["seq_len"]),
    (lambda: A.kv_cache_bytes(10, 2, 0, 4), ["n_kv_heads"]),
    (lambda: A.kv_cache_bytes(10, 2, 1, 4, window=0), ["window"]),
    (lambda: A.format_bytes(-1), ["n_bytes"]),
    (lambda: A.score_spread(0), ["d"]),
    (lambda: A.mean_top_weight(8, n_keys=0), ["n_keys"]),
])
def test_bad_input_raises_value_error_naming_the_argument(call, words):
    with pytest.raises(ValueError) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


# ---------------------------------------------------------------------------
# Cost functions and the √d effects
# ---------------------------------------------------------------------------


def test_cost_functions_follow_their_closed_forms():
    for n in (1, 7, 4096):
        assert A.score_matrix_numbers(2 * n) == 4 * A.score_matrix_numbers(n)
        assert A.score_matrix_bytes(n, n_heads=3) == 3 * n * n * 2
        # one k and one v vector per token, layer and head
        assert A.kv_cache_bytes(n, 5, 3, 7, bytes_per_number=4) == n * 5 * 3 * 2 * 7 * 4
    for d in (64, 4096):
        n = A.crossover_length(d)
        assert A.score_flops(n, d) == A.projection_flops(n, d)
        assert A.score_flops(n - 1, d) < A.projection_flops(n - 1, d)
        assert A.score_flops(n + 1, d) > A.projection_flops(n + 1, d)
    assert A.kv_cache_bytes(10**6, 2, 2, 2, window=100) == A.kv_cache_bytes(100, 2, 2, 2)
    assert [A.format_bytes(2**k) for k in (5, 10, 25, 30, 40)] == ["32 B", "1 KiB", "32 MiB", "1 GiB", "1 TiB"]


def test_score_spread_grows_like_sqrt_d_and_scaling_removes_it():
    for d in (4, 64, 256):
        assert abs(A.score_spread(d) / math.sqrt(d) - 1) < 0.05
        assert abs(A.score_spread(d, scaled=True) - 1) < 0.05


def test_raw_scores_collapse_onto_one_key_and_scaled_do_not():
    ds = [2, 8, 32, 128]
    raw = [A.mean_top_weight(d, scaled=False) for d in ds]
    scaled = [A.mean_top_weight(d) for d in ds]
    assert raw == sorted(raw) and raw[-1] > 0.85
    assert max(scaled) - min(scaled) < 0.05 and all(1 / 16 < s < 0.3 for s in scaled)


# ---------------------------------------------------------------------------
# The toy sentence, against closed forms
# ---------------------------------------------------------------------------


def test_toy_sentence_matches_closed_forms():
    X = embed("dog bites man")
    out, w = self_attention(X)
    e = math.exp(1 / math.sqrt(2))  # e^(1/√2): the score of a matching pair
    # dog: scores 1/√2, 0, 1/√2
    np.testing.assert_allclose(w[0], [e / (2 * e + 1), 1 / (2 * e + 1), e / (2 * e + 1)])
    np.testing.assert_allclose(out[0], [2 * e / (2 * e + 1), (e + 1) / (2 * e + 1)])
    # bites is dog with the two coordinates swapped
    np.testing.assert_allclose(out[1], out[0][::-1])
    # man: scores 1/√2, 1/√2, 2/√2
    e2 = math.exp(2 / math.sqrt(2))
    np.testing.assert_allclose(w[2], np.array([e, e, e2]) / (2 * e + e2))
    # causal: bites sees dog (score 0) and itself (1/√2)
    out_c, _ = self_attention(X, causal_mask(3))
    np.testing.assert_allclose(out_c[1], [1 / (1 + e), e / (1 + e)])
    np.testing.assert_allclose(out_c[0], X[0])


# ---------------------------------------------------------------------------
# Demo
# ---------------------------------------------------------------------------


def test_demo_runs(capsys):
    A.demo()
    text = capsys.readouterr().out
    assert "0.802" in text and "True" in text
