"""Tests for lessons.notation: each function against numpy or a closed form,
the identities the page teaches (as hypothesis properties), softmax on masked
and fully masked rows, and loud failures on bad input. The page's numbers are
checked by its `# →` lines (tests/test_prose.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lessons import notation as N

settings.register_profile("notation", max_examples=60, deadline=None)
settings.load_profile("notation")

finite = st.floats(min_value=-100.0, max_value=100.0, allow_nan=False, allow_infinity=False)
angles = st.floats(min_value=-20.0, max_value=20.0, allow_nan=False, allow_infinity=False)


SIZES = st.integers(1, 8)


def vectors(d=SIZES):
    return d.flatmap(lambda n: arrays(np.float64, n, elements=finite))


def vector_pairs():
    return st.integers(1, 8).flatmap(
        lambda n: st.tuples(arrays(np.float64, n, elements=finite), arrays(np.float64, n, elements=finite))
    )


def nonzero(v: np.ndarray) -> bool:
    return bool(np.linalg.norm(v) > 1e-6)


# ---------------------------------------------------------------------------
# 1. Vectors and dot products
# ---------------------------------------------------------------------------


@given(vector_pairs())
def test_dot_matches_numpy(ab):
    a, b = ab
    assert N.dot(a, b) == pytest.approx(float(np.dot(a, b)), rel=1e-12, abs=1e-9)


@given(vectors())
def test_norm_matches_numpy_and_is_sqrt_of_self_dot(a):
    assert N.norm(a) == pytest.approx(float(np.linalg.norm(a)), rel=1e-12, abs=1e-12)
    assert N.norm(a) ** 2 == pytest.approx(N.dot(a, a), rel=1e-9, abs=1e-12)


@given(vector_pairs())
def test_cosine_similarity_is_in_range_and_matches_formula(ab):
    a, b = ab
    if not (nonzero(a) and nonzero(b)):
        return
    c = N.cosine_similarity(a, b)
    assert -1.0 <= c <= 1.0
    ref = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
    assert c == pytest.approx(ref, abs=1e-9)


@given(vectors(), st.floats(min_value=0.01, max_value=100.0))
def test_cosine_similarity_is_one_for_parallel_and_minus_one_for_opposite(a, c):
    if not nonzero(a):
        return
    assert N.cosine_similarity(a, c * a) == pytest.approx(1.0, abs=1e-12)
    assert N.cosine_similarity(a, -c * a) == pytest.approx(-1.0, abs=1e-12)


def test_cosine_similarity_of_orthogonal_vectors_is_zero():
    assert N.cosine_similarity([1.0, 0.0], [0.0, 1.0]) == 0.0


@given(st.integers(1, 6), st.integers(1, 5), st.data())
def test_weighted_sum_matches_matrix_product(n, d, data):
    w = data.draw(arrays(np.float64, n, elements=finite))
    V = data.draw(arrays(np.float64, (n, d), elements=finite))
    np.testing.assert_allclose(N.weighted_sum(w, V), w @ V, rtol=1e-12, atol=1e-9)


@given(st.integers(1, 6).flatmap(lambda k: arrays(np.float64, 2 * k, elements=finite)))
def test_pairs_reads_even_and_odd_entries(x):
    p = N.pairs(x)
    assert p.shape == (x.size // 2, 2)
    np.testing.assert_array_equal(p, x.reshape(-1, 2))
    for i in range(x.size // 2):
        assert p[i, 0] == x[2 * i] and p[i, 1] == x[2 * i + 1]


# ---------------------------------------------------------------------------
# 2. Angles, sine and cosine
# ---------------------------------------------------------------------------


@given(st.floats(min_value=-1e4, max_value=1e4))
def test_to_radians_matches_math(deg):
    assert N.to_radians(deg) == pytest.approx(math.radians(deg), rel=1e-12, abs=1e-15)


@given(angles)
def test_unit_circle_point_is_cos_sin_and_on_the_circle(theta):
    p = N.unit_circle_point(theta)
    np.testing.assert_allclose(p, [math.cos(theta), math.sin(theta)], rtol=0, atol=1e-15)
    assert float(p @ p) == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(N.unit_circle_point(theta + 2 * math.pi), p, atol=1e-12)


@given(angles)
def test_angle_between_recovers_the_angle_of_a_unit_circle_point(theta):
    # the angle between (1, 0) and (cos θ, sin θ) is |θ| wrapped into [0, π]
    wrapped = abs(math.remainder(theta, 2 * math.pi))
    got = N.angle_between([1.0, 0.0], N.unit_circle_point(theta))
    assert got == pytest.approx(wrapped, abs=1e-6)


def test_angle_between_closed_forms():
    assert N.angle_between([1.0, 0.0], [0.0, 2.0]) == pytest.approx(math.pi / 2)
    assert N.angle_between([1.0, 1.0], [3.0, 3.0]) == pytest.approx(0.0, abs=1e-7)
    assert N.angle_between([1.0, 1.0], [-1.0, -1.0]) == pytest.approx(math.pi)
    assert N.angle_between([1.0, 0.0], [1.0, 1.0]) == pytest.approx(math.pi / 4)


# ---------------------------------------------------------------------------
# 3. Matrices, permutations and rotations
# ---------------------------------------------------------------------------


@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_matvec_matches_numpy(rows, d, data):
    M = data.draw(arrays(np.float64, (rows, d), elements=finite))
    x = data.draw(arrays(np.float64, d, elements=finite))
    np.testing.assert_allclose(N.matvec(M, x), M @ x, rtol=1e-12, atol=1e-9)


@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 4), st.data())
def test_pairwise_dots_is_q_times_k_transposed(seq_q, seq_k, d, data):
    Q = data.draw(arrays(np.float64, (seq_q, d), elements=finite))
    K = data.draw(arrays(np.float64, (seq_k, d), elements=finite))
    S = N.pairwise_dots(Q, K)
    assert S.shape == (seq_q, seq_k)
    np.testing.assert_allclose(S, Q @ K.T, rtol=1e-12, atol=1e-9)
    assert S[seq_q - 1, 0] == pytest.approx(N.dot(Q[-1], K[0]), abs=1e-9)


@given(st.permutations(list(range(6))), st.integers(1, 6))
def test_permutation_matrix_reorders_rows_and_is_orthogonal(perm, n):
    order = [i for i in perm if i < n]  # a permutation of 0..n-1
    P = N.permutation_matrix(order)
    np.testing.assert_array_equal(P, np.eye(n)[order])
    np.testing.assert_array_equal(P.T @ P, np.eye(n))
    np.testing.assert_array_equal(P @ P.T, np.eye(n))
    X = np.arange(n * 3, dtype=float).reshape(n, 3)
    PX = P @ X
    for i in range(n):
        np.testing.assert_array_equal(PX[i], X[order[i]])
    np.testing.assert_array_equal(P.T @ PX, X)  # the transpose undoes the shuffle


@given(angles)
def test_rotation_matrix_closed_form_and_orthogonal(theta):
    R = N.rotation_matrix(theta)
    c, s = math.cos(theta), math.sin(theta)
    np.testing.assert_array_equal(R, np.array([[c, -s], [s, c]]))
    np.testing.assert_allclose(R.T @ R, np.eye(2), atol=1e-12)
    assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(N.rotation_matrix(-theta), R.T, atol=1e-15)


@given(angles, angles)
def test_rotations_compose_by_adding_angles(a, b):
    np.testing.assert_allclose(N.rotation_matrix(a) @ N.rotation_matrix(b), N.rotation_matrix(a + b), atol=1e-12)


@given(arrays(np.float64, 2, elements=finite), angles)
def test_rotate_preserves_length_and_matches_rotation_matrix(v, theta):
    w = N.rotate(v, theta)
    assert N.norm(w) == pytest.approx(N.norm(v), rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(w, N.rotation_matrix(theta) @ v, rtol=1e-12, atol=1e-12)


@given(angles)
def test_rotating_the_x_axis_lands_on_the_unit_circle(theta):
    np.testing.assert_allclose(N.rotate([1.0, 0.0], theta), N.unit_circle_point(theta), atol=1e-15)


def test_rotate_matches_the_closed_form_the_page_writes_out():
    # R(1) (2, 1) = (2 cos 1 - sin 1, 2 sin 1 + cos 1)
    w = N.rotate(N.V_ROTATED, 1.0)
    np.testing.assert_allclose(w, [2 * math.cos(1) - math.sin(1), 2 * math.sin(1) + math.cos(1)], rtol=1e-12)


# ---------------------------------------------------------------------------
# 4. Softmax
# ---------------------------------------------------------------------------

small_scores = st.integers(1, 8).flatmap(
    lambda n: arrays(np.float64, n, elements=st.floats(min_value=-30, max_value=30))
)
score_arrays = arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 5)),
                      elements=st.floats(min_value=-50, max_value=50))


@given(small_scores)
def test_softmax_matches_direct_formula(s):
    e = np.exp(s)
    np.testing.assert_allclose(N.softmax(s), e / e.sum(), rtol=1e-12)


@given(small_scores, st.floats(min_value=-1e3, max_value=1e3))
def test_softmax_sums_to_one_is_positive_and_shift_invariant(s, c):
    w = N.softmax(s)
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(w > 0)
    np.testing.assert_allclose(N.softmax(s + c), w, rtol=1e-9, atol=1e-15)
    # a larger score never gets a smaller weight
    assert np.all(np.diff(w[np.argsort(s, kind="stable")]) >= -1e-15)


@given(score_arrays, st.sampled_from([0, 1, 2, -1, -2]))
def test_softmax_on_any_axis_of_a_3d_array_is_one_softmax_per_slice(S, axis):
    # (heads, seq, seq) as attention uses it: every 1-d slice along `axis` on its own
    W = N.softmax(S, axis=axis)
    assert W.shape == S.shape
    ref = np.apply_along_axis(lambda s: np.exp(s) / np.exp(s).sum(), axis, S)
    np.testing.assert_allclose(W, ref, rtol=1e-12)
    np.testing.assert_allclose(W.sum(axis=axis), 1.0, rtol=1e-12)


def test_softmax_default_axis_is_the_last():
    S = np.arange(24.0).reshape(2, 3, 4) / 7
    np.testing.assert_array_equal(N.softmax(S), N.softmax(S, axis=-1))
    assert not np.allclose(N.softmax(S), N.softmax(S, axis=0))


def test_softmax_huge_scores_do_not_overflow():
    with np.errstate(all="raise"):
        w = N.softmax([1000.0, 999.0])
    np.testing.assert_allclose(w, [1 / (1 + math.exp(-1)), 1 / (1 + math.e)], rtol=1e-12)


def test_softmax_masked_entries_get_weight_exactly_zero():
    S = np.array([[0.0, 0.0], [1.0, -np.inf]])
    np.testing.assert_allclose(N.softmax(S), [[0.5, 0.5], [1.0, 0.0]])
    assert N.softmax(S)[1, 1] == 0.0


@pytest.mark.parametrize("scores, axis", [
    ([-np.inf, -np.inf], -1),
    ([[0.0, 1.0], [-np.inf, -np.inf]], -1),
    # one fully masked row in one head of (heads, seq, seq)
    (np.where(np.arange(2 * 3 * 3).reshape(2, 3, 3) // 3 == 4, -np.inf, 0.0), -1),
    # along axis 0, the column [-inf, -inf] is the fully masked slice
    ([[-np.inf, 1.0], [-np.inf, 2.0]], 0),
])
def test_softmax_refuses_a_fully_masked_row(scores, axis):
    with pytest.raises(ValueError, match="fully masked") as info:
        N.softmax(scores, axis=axis)
    assert str(info.value).startswith("scores must")


def test_softmax_accepts_the_same_array_along_the_other_axis():
    # the column above is fully masked, but no row is: along the last axis all is well
    np.testing.assert_allclose(N.softmax([[-np.inf, 1.0], [-np.inf, 2.0]]), [[0.0, 1.0], [0.0, 1.0]])


def test_dog_scores_are_the_scaled_dot_products_of_dog():
    r = 1 / math.sqrt(2)
    np.testing.assert_allclose(N.dog_scores(), [r, 0.0, r], rtol=1e-15)


# ---------------------------------------------------------------------------
# Bad input fails loudly, naming the argument
# ---------------------------------------------------------------------------

BAD_CALLS = [
    ("a", lambda: N.dot([], [1.0])),
    ("a and b", lambda: N.dot([1.0, 2.0], [1.0])),
    ("b", lambda: N.dot([1.0], [np.nan])),
    ("a", lambda: N.dot([[1.0]], [1.0])),
    ("a", lambda: N.dot("ab", [1.0])),
    ("a", lambda: N.norm([np.inf])),
    ("a", lambda: N.cosine_similarity([0.0, 0.0], [1.0, 0.0])),
    ("b", lambda: N.cosine_similarity([1.0, 0.0], [0.0, 0.0])),
    ("weights", lambda: N.weighted_sum([0.5, 0.5], [[1.0, 0.0]])),
    ("vectors", lambda: N.weighted_sum([1.0], [1.0, 0.0])),
    ("x", lambda: N.pairs([1.0, 2.0, 3.0])),
    ("degrees", lambda: N.to_radians(float("nan"))),
    ("degrees", lambda: N.to_radians("90")),
    ("angle", lambda: N.unit_circle_point(math.inf)),
    ("angle", lambda: N.rotation_matrix(None)),
    ("angle", lambda: N.rotation_matrix(True)),
    ("M", lambda: N.matvec([[1.0, 2.0]], [1.0])),
    ("M", lambda: N.matvec([1.0, 2.0], [1.0, 2.0])),
    ("Q and K", lambda: N.pairwise_dots(np.ones((2, 3)), np.ones((2, 4)))),
    ("K", lambda: N.pairwise_dots(np.ones((2, 3)), np.ones(3))),
    ("order", lambda: N.permutation_matrix([0, 0, 1])),
    ("order", lambda: N.permutation_matrix([1, 2, 3])),
    ("order", lambda: N.permutation_matrix([])),
    ("order", lambda: N.permutation_matrix([0.0, 1.0])),
    ("v", lambda: N.rotate([1.0, 0.0, 0.0], 1.0)),
    ("scores", lambda: N.softmax([])),
    ("scores", lambda: N.softmax(np.zeros((2, 0)))),
    ("scores", lambda: N.softmax(3.0)),
    ("scores", lambda: N.softmax("ab")),
    ("scores", lambda: N.softmax([1.0, np.nan])),
    ("scores", lambda: N.softmax([1.0, np.inf])),
]


@pytest.mark.parametrize("argument, call", BAD_CALLS, ids=[f"{i}-{a}" for i, (a, _) in enumerate(BAD_CALLS)])
def test_bad_input_raises_value_error_naming_the_argument(argument, call):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(argument + " "), str(info.value)
    assert "must" in str(info.value)


# ---------------------------------------------------------------------------
# Demo
# ---------------------------------------------------------------------------


def test_demo_prints_the_page_numbers(capsys):
    N.demo()
    out = capsys.readouterr().out
    w = N.softmax(N.dog_scores())
    o = N.weighted_sum(w, N.X_WORDS)
    for text in (f"{w[0]:.3f}", f"{w[1]:.3f}", f"({o[0]:.3f}, {o[1]:.3f})", f"{N.norm(N.V_ROTATED):.3f}"):
        assert text in out, text
