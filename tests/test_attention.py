"""Tests for lessons.attention: identities, reference implementations, and the
numbers its page states in running prose."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from lessons import _prose, attention as A
from lessons.attention import (
    causal_mask,
    embed,
    merge_heads,
    multi_head_attention,
    permutation_matrix,
    scaled_dot_product_attention,
    self_attention,
    softmax,
    split_heads,
)

DOC = A.__doc__


def _prose_text() -> str:
    """The page outside fenced code blocks (python blocks are checked by test_prose)."""
    out, in_fence = [], False
    for line in DOC.splitlines():
        if _prose.FENCE_RE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            out.append(line)
    return "\n".join(out)


PROSE = _prose_text()


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
# softmax
# ---------------------------------------------------------------------------

finite_rows = hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6),
                         elements=st.floats(-50, 50))


@settings(max_examples=60, deadline=None)
@given(finite_rows, st.floats(-1e3, 1e3))
def test_softmax_rows_sum_to_one_and_ignore_constant_shifts(scores, c):
    w = softmax(scores)
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(softmax(scores + c), w, atol=1e-12)


def test_softmax_matches_definition_and_respects_axis():
    rng = np.random.default_rng(0)
    s = rng.standard_normal((3, 4))
    ref = np.exp(s) / np.exp(s).sum(axis=0, keepdims=True)
    np.testing.assert_allclose(softmax(s, axis=0), ref)


def test_softmax_is_stable_for_huge_scores():
    w = softmax(np.array([1000.0, 999.0, -1000.0]))
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(w[:2], [1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))])
    # -inf entries get weight exactly 0
    assert softmax(np.array([0.0, -np.inf]))[1] == 0.0


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


def test_permutation_matrix_reorders_rows_as_documented():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((5, 2))
    order = rng.permutation(5)
    P = permutation_matrix(order)
    np.testing.assert_array_equal(P @ X, X[order])
    np.testing.assert_array_equal(P.T @ P, np.eye(5))


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


def test_multi_head_with_one_head_equals_single_head():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 8))
    W_q, W_k, W_v, W_o = (rng.standard_normal((8, 8)) for _ in range(4))
    for mask in (None, causal_mask(6)):
        out, w = multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads=1, mask=mask)
        ref, ref_w = loop_attention((X @ W_q).tolist(), (X @ W_k).tolist(), (X @ W_v).tolist(),
                                    allowed=None if mask is None else mask)
        np.testing.assert_allclose(out, ref @ W_o, atol=1e-10)
        np.testing.assert_allclose(w[0], ref_w, atol=1e-12)


def test_multi_head_equals_a_loop_over_heads():
    rng = np.random.default_rng(5)
    n_heads, dh = 3, 2
    d = n_heads * dh
    X = rng.standard_normal((5, d))
    W_q, W_k, W_v, W_o = (rng.standard_normal((d, d)) for _ in range(4))
    out, w = multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads=n_heads)
    cols = [slice(h * dh, (h + 1) * dh) for h in range(n_heads)]
    heads = [loop_attention((X @ W_q)[:, c].tolist(), (X @ W_k)[:, c].tolist(), (X @ W_v)[:, c].tolist()) for c in cols]
    np.testing.assert_allclose(out, np.concatenate([o for o, _ in heads], axis=1) @ W_o, atol=1e-10)
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
    (lambda: multi_head_attention(np.zeros((3, 4)), np.zeros((5, 4)), np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 4)), 2), ["W_q", "(5, 4)"]),
    (lambda: multi_head_attention(np.zeros((3, 4)), np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((3, 4)), 2), ["W_o", "(3, 4)"]),
    (lambda: multi_head_attention(np.zeros((3, 6)), *(np.zeros((6, 6)),) * 4, 4), ["d = 6", "n_heads = 4"]),
    (lambda: permutation_matrix([0, 0, 2]), ["order", "[0, 0, 2]"]),
    (lambda: embed("cat bites man"), ["sentence", "cat"]),
    (lambda: A.score_matrix_bytes(0), ["seq_len"]),
    (lambda: A.kv_cache_bytes(10, 2, 0, 4), ["n_kv_heads"]),
    (lambda: A.kv_cache_bytes(10, 2, 1, 4, window=0), ["window"]),
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
# Every number in running prose comes from the code
# ---------------------------------------------------------------------------


def _prose_numbers() -> dict[str, str]:
    """label -> the text the page must contain, computed by the module."""
    f3 = lambda v: f"{v:.3f}"  # noqa: E731
    X = embed("dog bites man")
    out, w = self_attention(X)
    out_c, w_c = self_attention(X, causal_mask(3))
    scores = X @ X.T / math.sqrt(2)
    e = np.exp(scores[0])
    llama = dict(n_layers=32, n_kv_heads=8, head_dim=128)
    return {
        # Level 1
        "doubling quadruples": f"grows {A.score_matrix_numbers(2) // A.score_matrix_numbers(1)} times",
        "GQA saving": f"{A.kv_cache_bytes(1, 32, 32, 128) // A.kv_cache_bytes(1, 32, 8, 128)} times for 32 query heads over 8 KV heads",
        "scores at 4,096": f"{A.score_matrix_numbers(4096):,} numbers",
        "bytes at 4,096": A.format_bytes(A.score_matrix_bytes(4096)),
        "bytes at 128K": f"{131072:,} tokens (128K) it is {A.format_bytes(A.score_matrix_bytes(131072))}",
        "32 heads at 128K": f"{A.format_bytes(A.score_matrix_bytes(131072, n_heads=32))} for 32 heads",
        "crossover": f"4,096 numbers wide, {A.crossover_length(4096):,} tokens",
        "kv per token": f"stores {A.format_bytes(A.kv_cache_bytes(1, **llama))} per token",
        "kv at 128K": f"{A.format_bytes(A.kv_cache_bytes(131072, **llama))} for one {131072:,}-token",
        "kv with 32 heads": f"(32) it would be {A.format_bytes(A.kv_cache_bytes(131072, 32, 32, 128))}",
        "kv with window": f"stops at {A.format_bytes(A.kv_cache_bytes(131072, **llama, window=4096))}",
        "Vaswani head width": f"8 heads of\nwidth {512 // 8} in a model 512 wide",
        # Level 2: the toy
        "scaled score": f3(scores[0, 0]),
        "sqrt 2": f3(math.sqrt(2)),
        "dog weights": f"({f3(w[0, 0])}, {f3(w[0, 1])}, {f3(w[0, 2])})",
        "dog out": f"({f3(out[0, 0])}, {f3(out[0, 1])})",
        "bites out": f"({f3(out[1, 0])}, {f3(out[1, 1])})",
        "man out": f"({f3(out[2, 0])}, {f3(out[2, 1])})",
        "man self weight": f"itself ({f3(w[2, 2])})",
        "exp": f3(e[0]),
        "exp total": f"/ {f3(e.sum())}",
        "causal bites weights": f"weights ({f3(w_c[1, 0])}, {f3(w_c[1, 1])})",
        "causal bites out": f"output ({f3(out_c[1, 0])}, {f3(out_c[1, 1])})",
        "causal total": f"total\n{f3(1 + e[0])}",
        "causal dog": f"gets ({out_c[0, 0]:.0f}, {out_c[0, 1]:.0f})",
        "spread d=64": f"{A.score_spread(64):.1f} at $d = 64$",
        "spread scaled": f"about {A.score_spread(64, scaled=True):.1f} after dividing",
        "top weight raw": f"average\nweight of {A.mean_top_weight(64, scaled=False):.2f}",
        "top weight scaled": f"scaled scores {A.mean_top_weight(64):.2f}",
        "top weight alt": f"stay near {A.mean_top_weight(64):.2f}",
        "head width": f"4 / 2 = {4 // 2}",
        "split shape": str(split_heads(np.zeros((3, 4)), 2).shape),
        "weights shape": str(multi_head_attention(np.zeros((3, 4)), *(np.eye(4),) * 4, n_heads=2)[1].shape),
        "self-test shape": str(split_heads(np.zeros((10, 4096)), 32).shape).replace("4096", "4,096"),
        "multi-head figure": f"width {_mh_width()}, two heads",
        "e": f"$e \\approx {math.e:.3f}$",
        "bites-man score": f"$s_{{12}} = {f3(scores[1, 2])}$",
        "merged shape": str(merge_heads(split_heads(np.zeros((10, 4096)), 32)).shape).replace("4096", "4,096"),
        "mask figure": f"An {A._MASK_FIGURE_SIZE} by {A._MASK_FIGURE_SIZE} grid",
        "mask figure last query": f"query {A._MASK_FIGURE_SIZE - 1} sees all eight",
        "llama head width": f"width of 4,096, so heads of width {4096 // 32}",
        "sqrt 64": f"$\\sqrt{{64}} = {math.isqrt(64)}$",
    }


def _mh_width() -> int:
    out, w = A._demo_multi_head()
    assert w.shape[0] == 2 and w.shape[-1] == 6  # "two heads, six positions" on the page
    return out.shape[-1]


@pytest.mark.parametrize("label, text", list(_prose_numbers().items()))
def test_prose_numbers_come_from_the_code(label, text):
    assert " ".join(text.split()) in " ".join(PROSE.split()), f"{label}: page lacks {text!r}"


def test_page_figures_are_the_ones_figures_makes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = set(re.findall(r"figures/attention\.(\w+)\.svg", DOC))
    figs = A.figures()
    try:
        assert shown == set(figs) and len(figs) >= 2
    finally:
        for fig in figs.values():
            plt.close(fig)


def test_demo_runs(capsys):
    A.demo()
    text = capsys.readouterr().out
    assert "0.802" in text and "True" in text
