"""lessons.positional: the functions against independent references, closed
forms and hypothesis properties, the figures' data, and bad-input errors.

The numbers the page prints are checked by its own `# →` lines
(tests/test_prose.py runs them), not here.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons import positional as P
from lessons.attention import causal_mask, scaled_dot_product_attention

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------
# Independent references
# ---------------------------------------------------------------------------


def reference_attention(X: np.ndarray, causal: bool = False) -> np.ndarray:
    """softmax(X X^T / sqrt(d)) X written out with loops, q = k = v = X."""
    n, d = X.shape
    out = np.zeros_like(X, dtype=float)
    for i in range(n):
        keys = range(i + 1) if causal else range(n)
        scores = [float(X[i] @ X[j]) / math.sqrt(d) for j in keys]
        exps = [math.exp(s) for s in scores]
        for w, j in zip(exps, keys, strict=True):
            out[i] += w / sum(exps) * X[j]
    return out


def rotation_matrix(d: int, angle_per_pair: np.ndarray) -> np.ndarray:
    """The block-diagonal RoPE matrix: one 2x2 rotation per (2i, 2i+1) pair."""
    R = np.zeros((d, d))
    for i, a in enumerate(angle_per_pair):
        R[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
    return R


TOY_X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # dog, bites, man
SWAP = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0]])  # swap rows 1 and 3


# ---------------------------------------------------------------------------
# The bag-of-words problem: the 2-d toy and the real layer
# ---------------------------------------------------------------------------


def test_toy_attention_dog_row_same_first_or_last():
    ref, ref_swapped = reference_attention(TOY_X), reference_attention(SWAP @ TOY_X)
    out, _ = scaled_dot_product_attention(TOY_X, TOY_X, TOY_X)
    np.testing.assert_allclose(out, ref, atol=1e-12)
    # dog is row 0 in "dog bites man" and row 2 in "man bites dog"
    np.testing.assert_allclose(ref[0], ref_swapped[2], atol=1e-12)
    # Attn(PX) = P Attn(X)
    np.testing.assert_allclose(ref_swapped, SWAP @ ref, atol=1e-12)


def test_toy_causal_example_matches_the_reference():
    masked = reference_attention(TOY_X, causal=True)
    out, _ = scaled_dot_product_attention(TOY_X, TOY_X, TOY_X, mask=causal_mask(3))
    np.testing.assert_allclose(out, masked, atol=1e-12)
    masked_swapped = reference_attention(TOY_X[::-1], causal=True)
    # dog first sees only itself; dog last sees everything
    np.testing.assert_allclose(masked[0], TOY_X[0])
    np.testing.assert_allclose(masked_swapped[2], reference_attention(TOY_X)[0])
    # order leaks through the mask: the pooled sentences are no longer parallel
    a, b = masked.mean(axis=0), masked_swapped.mean(axis=0)
    assert a @ b / (np.linalg.norm(a) * np.linalg.norm(b)) < 1 - 1e-6


def test_encode_sentence_is_permutation_equivariant_without_positions():
    a = P.encode_sentence("dog bites man")
    b = P.encode_sentence("man bites dog")
    assert a.shape == (3, P.D_DEMO)
    np.testing.assert_allclose(b, a[::-1], atol=1e-12)


def test_encode_sentence_positions_break_the_symmetry():
    for scheme, causal in (("sinusoidal", False), ("rope", False), ("none", True)):
        a = P.encode_sentence("dog bites man", scheme, causal)
        b = P.encode_sentence("man bites dog", scheme, causal)
        assert not np.allclose(b, a[::-1]), (scheme, causal)


def test_encode_sentence_rope_matches_rotating_q_and_k_by_hand():
    X = np.stack([P.word_vector(w) for w in ("man", "bites", "dog")])
    # the layer's weights are (d_out, d_in), applied as X @ W.T
    Q, K, V = X @ P._W_Q.T, X @ P._W_K.T, X @ P._W_V.T
    thetas = P.rope_frequencies(P.D_DEMO)
    Qr = np.stack([rotation_matrix(P.D_DEMO, m * thetas) @ Q[m] for m in range(3)])
    Kr = np.stack([rotation_matrix(P.D_DEMO, m * thetas) @ K[m] for m in range(3)])
    scores = Qr @ Kr.T / math.sqrt(P.D_DEMO)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(P.encode_sentence("man bites dog", "rope"), weights @ V, atol=1e-12)


def test_order_similarity_is_one_only_without_positions():
    sims = P.order_similarity()
    assert list(sims) == ["no positions", "sinusoidal", "RoPE", "causal mask only"]
    assert abs(sims["no positions"] - 1.0) < 1e-12
    assert sims["sinusoidal"] < 1 - 1e-6 and sims["RoPE"] < 1 - 1e-6
    assert sims["causal mask only"] < 1 - 1e-6


def test_word_vector_is_fixed_and_not_salted():
    v = P.word_vector("dog")
    np.testing.assert_array_equal(v, P.word_vector("dog"))
    assert v.shape == (P.D_DEMO,)
    assert not np.allclose(v, P.word_vector("man"))
    # another process with a different hash seed gets the same bytes
    code = "from lessons.positional import word_vector; print(word_vector('dog').tobytes().hex())"
    env = dict(os.environ, PYTHONHASHSEED="12345")
    other = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert other.stdout.strip() == v.tobytes().hex()


def test_hashed_normals_look_standard_normal():
    z = P._hashed_normals("a long sample", 20000)
    assert abs(z.mean()) < 0.03 and abs(z.std() - 1) < 0.03


# ---------------------------------------------------------------------------
# Sinusoidal codes
# ---------------------------------------------------------------------------


def test_sinusoidal_rows_for_d4():
    pe = P.sinusoidal_encoding(3, 4)
    for pos in range(3):
        expected = [math.sin(pos), math.cos(pos), math.sin(pos / 100), math.cos(pos / 100)]
        np.testing.assert_allclose(pe[pos], expected, atol=1e-12)


def test_sinusoidal_matches_the_formula_everywhere():
    n, d, base = 50, 10, 500.0
    pe = P.sinusoidal_encoding(n, d, base)
    for pos in (0, 7, 49):
        for i in range(d // 2):
            omega = 1 / base ** (2 * i / d)
            assert pe[pos, 2 * i] == pytest.approx(math.sin(pos * omega), abs=1e-12)
            assert pe[pos, 2 * i + 1] == pytest.approx(math.cos(pos * omega), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(a=st.integers(0, 400), b=st.integers(0, 400), k=st.integers(0, 100),
       half_d=st.integers(1, 16), base=st.floats(10.0, 1e5))
def test_sinusoidal_dot_product_depends_only_on_the_shift(a, b, k, half_d, base):
    d = 2 * half_d
    pe = P.sinusoidal_encoding(max(a, b) + k + 1, d, base)
    omega = base ** (-np.arange(0, d, 2) / d)
    # PE(a).PE(a+k) = sum_i cos(k omega_i), whatever a is
    assert pe[a] @ pe[a + k] == pytest.approx(np.cos(k * omega).sum(), abs=1e-9)
    assert pe[a] @ pe[a + k] == pytest.approx(pe[b] @ pe[b + k], abs=1e-9)


def test_sinusoidal_shift_dot_product_in_the_python_block():
    pe = P.sinusoidal_encoding(100, 32)
    closed = np.cos(3 * 10000 ** (-np.arange(0, 32, 2) / 32)).sum()
    assert pe[10] @ pe[13] == pytest.approx(closed, abs=1e-12)
    assert pe[70] @ pe[73] == pytest.approx(closed, abs=1e-12)


def test_sinusoidal_and_rope_share_the_speeds_and_the_angle_table():
    d, base = 12, 700.0
    theta = P.rope_frequencies(d, base)
    angles = P.angle_table(np.arange(5), theta)
    assert angles.shape == (5, d // 2)
    np.testing.assert_allclose(angles, np.outer(np.arange(5), theta), rtol=0, atol=0)
    pe = P.sinusoidal_encoding(5, d, base)
    np.testing.assert_allclose(pe[:, 0::2], np.sin(angles), atol=1e-15)
    np.testing.assert_allclose(pe[:, 1::2], np.cos(angles), atol=1e-15)
    # RoPE's angles for a stack are the same table, one row per position
    np.testing.assert_array_equal(P.rope_angles(np.zeros((5, d)), None, base), angles)


# ---------------------------------------------------------------------------
# RoPE
# ---------------------------------------------------------------------------


def test_rope_frequencies_closed_form():
    d = 64
    thetas = P.rope_frequencies(d)
    np.testing.assert_allclose(thetas, [10000 ** (-2 * i / d) for i in range(d // 2)], rtol=1e-14)
    assert thetas[0] == 1.0


def test_rope_by_hand():
    q = k = np.array([1.0, 0.0])
    q3, k7 = P.apply_rope(q, 3), P.apply_rope(k, 7)
    np.testing.assert_allclose(q3, [math.cos(3), math.sin(3)], atol=1e-12)
    np.testing.assert_allclose(k7, [math.cos(7), math.sin(7)], atol=1e-12)
    s = q3 @ k7
    assert s == pytest.approx(math.cos(4), abs=1e-12)
    assert P.apply_rope(q, 103) @ P.apply_rope(k, 107) == pytest.approx(s, abs=1e-12)
    other = P.apply_rope(q, 3) @ P.apply_rope(k, 8)
    assert other == pytest.approx(math.cos(5), abs=1e-12) and abs(other - s) > 0.1


def test_apply_rope_equals_the_block_rotation_matrix():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 12))  # (seq, d)
    positions = np.array([0, 3, 7, 100, 2048])
    base = 500.0
    out = P.apply_rope(x, positions, base)
    thetas = base ** (-np.arange(0, 12, 2) / 12)
    for row, m in enumerate(positions):
        np.testing.assert_allclose(out[row], rotation_matrix(12, m * thetas) @ x[row], atol=1e-10)


def test_apply_rope_default_positions_are_row_numbers():
    x = np.random.default_rng(2).standard_normal((6, 8))
    np.testing.assert_allclose(P.apply_rope(x), P.apply_rope(x, np.arange(6)))
    np.testing.assert_allclose(P.apply_rope(x[2]), x[2])  # a single vector defaults to position 0


def test_apply_rope_batch_heads_equals_per_batch_and_head():
    x = np.random.default_rng(3).standard_normal((2, 3, 5, 8))  # (batch, heads, seq, d)
    for position in (None, np.array([4, 9, 1, 0, 30])):
        out = P.apply_rope(x, position)
        assert out.shape == x.shape
        for b in range(2):
            for h in range(3):
                np.testing.assert_allclose(out[b, h], P.apply_rope(x[b, h], position), atol=1e-12)


def test_apply_rope_vector_with_many_positions_gives_one_copy_each():
    k = np.random.default_rng(4).standard_normal(8)
    copies = P.apply_rope(k, np.array([0, 5, 9]))
    assert copies.shape == (3, 8)
    for row, m in enumerate((0, 5, 9)):
        np.testing.assert_allclose(copies[row], P.apply_rope(k, m))


@settings(max_examples=80, deadline=None)
@given(half_d=st.integers(1, 16), m=st.integers(-500, 5000), n=st.integers(-500, 5000),
       shift=st.integers(-3000, 3000), base=st.floats(2.0, 1e6), seed=st.integers(0, 2**32 - 1))
def test_rope_score_depends_only_on_the_offset(half_d, m, n, shift, base, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal(2 * half_d), rng.standard_normal(2 * half_d)
    score = P.apply_rope(q, m, base) @ P.apply_rope(k, n, base)
    # <R_m q, R_n k> = <R_(m+c) q, R_(n+c) k> = <q, R_(n-m) k>
    assert score == pytest.approx(P.apply_rope(q, m + shift, base) @ P.apply_rope(k, n + shift, base), abs=1e-7)
    assert score == pytest.approx(q @ P.apply_rope(k, n - m, base), abs=1e-7)


@settings(max_examples=60, deadline=None)
@given(half_d=st.integers(1, 32), seq=st.integers(1, 8), base=st.floats(2.0, 1e6), seed=st.integers(0, 2**32 - 1))
def test_rope_preserves_norms_and_position_zero_is_identity(half_d, seq, base, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((seq, 2 * half_d))
    positions = rng.integers(0, 100_000, size=seq)
    out = P.apply_rope(x, positions, base)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-10)
    np.testing.assert_array_equal(P.apply_rope(x, 0, base), x)
    np.testing.assert_array_equal(P.apply_rope(x, np.zeros(seq, dtype=int), base), x)


# ---------------------------------------------------------------------------
# RoPE's long-term decay: RoFormer's ceiling, and real scores
# ---------------------------------------------------------------------------


def reference_ceiling(q: np.ndarray, k: np.ndarray, gap: float, base: float = 10000.0) -> float:
    """RoFormer section 3.4.3 with complex numbers: C * sum_j |S_j|, C = max |h_(i+1) - h_i|."""
    d = len(q)
    theta = base ** (-np.arange(0, d, 2) / d)
    h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])  # pair i of q times pair i of k
    h = np.append(h, 0.0)  # h_(d/2) = 0
    S = np.cumsum(np.exp(1j * gap * theta))  # S_1 .. S_(d/2)
    return float(np.max(np.abs(np.diff(h))) * np.abs(S).sum())


def test_rope_decay_bound_at_gap_zero_is_the_mean_of_one_to_d_over_2():
    for d in (4, 64, 128):
        assert P.rope_decay_bound(d, 0) == pytest.approx(d / 4 + 0.5, rel=1e-12)


def test_rope_decay_bound_matches_complex_sums():
    d, gaps = 64, np.array([0.0, 1.0, 37.0, 900.0])
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    expected = [np.abs(np.cumsum(np.exp(1j * g * theta))).mean() for g in gaps]
    np.testing.assert_allclose(P.rope_decay_bound(d, gaps), expected, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(half_d=st.integers(1, 64), gap=st.floats(-5000.0, 5000.0), seed=st.integers(0, 2**16))
def test_every_rope_score_stays_under_roformers_ceiling(half_d, gap, seed):
    d = 2 * half_d
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    score = float(q @ P.apply_rope(k, gap))  # <R_m q, R_(m+gap) k>
    ceiling = reference_ceiling(q, k, gap)
    assert abs(score) <= ceiling * (1 + 1e-9) + 1e-9
    # the module's bound is the same ceiling without the constant: sum_j |S_j| / (d/2)
    C = ceiling / (half_d * float(P.rope_decay_bound(d, gap))) if P.rope_decay_bound(d, gap) > 1e-9 else None
    if C is not None:
        h = np.append((q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2]), 0.0)
        assert C == pytest.approx(np.max(np.abs(np.diff(h))), rel=1e-9)


def test_rope_scores_by_gap_against_closed_forms():
    d, gaps = 128, np.array([0.0, 10.0, 100.0, 1000.0])
    scores = P.rope_scores_by_gap(gaps, d=d, n_pairs=4000, seed=1)
    # unrelated standard-normal q, k: E[<q, R_g k>^2] = d at every gap
    np.testing.assert_allclose(scores["unrelated"], np.sqrt(d), rtol=0.05)
    # a key equal to its query: E[<q, R_g q>] = 2 * sum_i cos(g * theta_i)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    np.testing.assert_allclose(scores["aligned"], 2 * np.cos(np.outer(gaps, theta)).sum(axis=1), atol=0.05 * d)


# ---------------------------------------------------------------------------
# Added codes leak absolute position; RoPE does not
# ---------------------------------------------------------------------------


def test_sliding_pair_scores_match_a_by_hand_layer():
    offset, n_starts, d, seed = 3, 20, 8, 5
    out = P.sliding_pair_scores(offset, n_starts, d, seed, ("dog", "man"))
    # weights (d_out, d_in), drawn as the docstring says, applied as x @ W.T
    W_q, W_k = np.random.default_rng(seed).standard_normal((2, d, d)) / np.sqrt(d)
    x, y = P.word_vector("dog", d), P.word_vector("man", d)
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    for start in range(n_starts):
        m, n = start + offset, start
        pe_m = np.array([f(m * theta[i // 2]) for i, f in zip(range(d), [math.sin, math.cos] * (d // 2), strict=True)])
        pe_n = np.array([f(n * theta[i // 2]) for i, f in zip(range(d), [math.sin, math.cos] * (d // 2), strict=True)])
        added = ((x + pe_m) @ W_q.T) @ ((y + pe_n) @ W_k.T)
        rotated = (rotation_matrix(d, m * theta) @ (W_q @ x)) @ (rotation_matrix(d, n * theta) @ (W_k @ y))
        assert out["sinusoidal"][start] == pytest.approx(added, rel=1e-10, abs=1e-10)
        assert out["RoPE"][start] == pytest.approx(rotated, rel=1e-10, abs=1e-10)
        assert out["PE·PE"][start] == pytest.approx((pe_m @ W_q.T) @ (pe_n @ W_k.T), rel=1e-10, abs=1e-10)


def test_added_codes_leak_and_rope_does_not():
    out = P.sliding_pair_scores()
    terms = out["x·x"] + out["x·PE"] + out["PE·x"] + out["PE·PE"]
    np.testing.assert_allclose(terms, out["sinusoidal"], atol=1e-12)
    assert np.ptp(out["x·x"]) < 1e-12 and np.ptp(out["RoPE"]) < 1e-12
    for name in ("sinusoidal", "x·PE", "PE·x", "PE·PE"):
        assert np.ptp(out[name]) > 1.0, name
    # with no projections the code-by-code term depends on the gap alone
    codes = P.sinusoidal_encoding(70, 16)
    assert np.ptp([codes[s + 3] @ codes[s] for s in range(64)]) < 1e-12


# ---------------------------------------------------------------------------
# Context extension
# ---------------------------------------------------------------------------


def test_interpolation_32000_to_4000():
    out = P.interpolate_positions(np.array([0, 32_000, 32_767]), 4096, 32768)
    np.testing.assert_allclose(out, [0, 32_000 / 8, 32_767 / 8])


def test_ntk_scaled_base_numbers():
    base, s, d = 10000.0, 8.0, 128
    new = P.ntk_scaled_base(base, s, d)
    assert new == pytest.approx(base * s ** (d / (d - 2)), rel=1e-14)
    slow, slow_new = base ** (-(d - 2) / d), new ** (-(d - 2) / d)
    np.testing.assert_allclose(P.rope_frequencies(d, new)[[0, -1]], [1.0, slow_new], rtol=1e-12)
    assert slow / slow_new == pytest.approx(s, rel=1e-12)  # exactly s times slower


@settings(max_examples=60, deadline=None)
@given(half_d=st.integers(2, 128), scale=st.floats(1.0, 64.0), base=st.floats(100.0, 1e6))
def test_ntk_keeps_the_fastest_pair_and_slows_the_slowest_by_scale(half_d, scale, base):
    d = 2 * half_d
    old, new = P.rope_frequencies(d, base), P.rope_frequencies(d, P.ntk_scaled_base(base, scale, d))
    assert new[0] == old[0] == 1.0
    assert old[-1] / new[-1] == pytest.approx(scale, rel=1e-9)
    assert np.all(new <= old * (1 + 1e-12))


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def figs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = P.figures()
    yield made
    for fig in made.values():
        plt.close(fig)


def test_rope_relative_curves_coincide(figs):
    lines = figs["rope_relative"].axes[0].get_lines()
    assert len(lines) == 3
    ys = [line.get_ydata() for line in lines]
    np.testing.assert_allclose(ys[1], ys[0], atol=1e-9)
    np.testing.assert_allclose(ys[2], ys[0], atol=1e-9)


def test_rope_decay_figure_unrelated_flat_aligned_falls(figs):
    ceiling, aligned, unrelated = (line.get_ydata() for line in figs["rope_decay"].axes[0].get_lines()[:3])
    assert np.all(np.abs(unrelated - 1) < 0.1)
    assert aligned[-1] < 0.2 and ceiling[-1] < 0.3


def test_position_leak_figure_rope_flat_sinusoidal_moves(figs):
    sinusoidal, rope = (line.get_ydata() for line in figs["position_leak"].axes[0].get_lines())
    assert np.ptp(rope) < 1e-12 and np.ptp(sinusoidal) > 1.0


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call, words", [
    (lambda: P.sinusoidal_encoding(4, 5), ["d", "even"]),
    (lambda: P.sinusoidal_encoding(-1, 4), ["n_positions", ">= 0"]),
    (lambda: P.rope_frequencies(7), ["d", "even"]),
    (lambda: P.apply_rope(np.ones(3), 1), ["d", "even"]),
    (lambda: P.apply_rope(np.ones((4, 6)), np.arange(5)), ["positions", "(4,)"]),
    (lambda: P.apply_rope(np.ones((4, 6)), np.zeros((4, 1))), ["positions", "(4,)"]),
    (lambda: P.apply_rope(2.0), ["x", "scalar"]),
    (lambda: P.rope_frequencies(8, base=0.0), ["base", "positive"]),
    (lambda: P.word_vector("dog", 3), ["d", "even"]),
    (lambda: P.encode_sentence("dog bites man", scheme="alibi"), ["scheme", "'none'", "'sinusoidal'", "'rope'"]),
    (lambda: P.encode_sentence("   "), ["sentence"]),
    (lambda: P.interpolate_positions([1, 2], -4096, 8192), ["trained_len", "positive"]),
    (lambda: P.interpolate_positions([1, 2], 4096, 0), ["new_len", "positive"]),
    (lambda: P.ntk_scaled_base(10000.0, 8.0, 127), ["d", "even"]),
    (lambda: P.ntk_scaled_base(10000.0, 8.0, 2), ["d", ">= 4"]),
    (lambda: P.ntk_scaled_base(10000.0, -2.0, 128), ["scale", "positive"]),
    (lambda: P.rope_decay_bound(7, [0, 1]), ["d", "even"]),
    (lambda: P.rope_scores_by_gap([0, 1], d=6, n_pairs=0), ["n_pairs", "positive"]),
    (lambda: P.sliding_pair_scores(offset=-1), ["offset", ">= 0"]),
    (lambda: P.sliding_pair_scores(d=5), ["d", "even"]),
])
def test_bad_input_names_the_argument_and_the_allowed_values(call, words):
    with pytest.raises(ValueError) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


# ---------------------------------------------------------------------------
# The demo
# ---------------------------------------------------------------------------


def test_demo_runs_as_a_module():
    run = subprocess.run([sys.executable, "-m", "lessons.positional"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert "RoPE by hand" in run.stdout and "-0.654" in run.stdout and "82,685" in run.stdout
