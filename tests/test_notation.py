"""Tests for lessons.notation: each function against numpy or a closed form,
the identities the page teaches (as hypothesis properties), loud failures on
bad input, and every number the page's prose states tied back to the code."""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lessons import notation as N

DOC = N.__doc__
settings.register_profile("notation", max_examples=60, deadline=None)
settings.load_profile("notation")

finite = st.floats(min_value=-100.0, max_value=100.0, allow_nan=False, allow_infinity=False)
angles = st.floats(min_value=-20.0, max_value=20.0, allow_nan=False, allow_infinity=False)


def vectors(d=st.integers(1, 8)):
    return d.flatmap(lambda n: arrays(np.float64, n, elements=finite))


def vector_pairs():
    return st.integers(1, 8).flatmap(
        lambda n: st.tuples(arrays(np.float64, n, elements=finite), arrays(np.float64, n, elements=finite))
    )


def nonzero(v: np.ndarray) -> bool:
    return bool(np.linalg.norm(v) > 1e-6)


def on_page(text: str) -> None:
    assert text in DOC, f"the page should state {text!r} (computed by the code), but does not"


def num(x: float) -> str:
    """How the page's tables print a number: integers bare, the rest with 3 decimals."""
    return str(int(round(x))) if abs(x - round(x)) < 1e-12 else f"{x:.3f}"


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


# ---------------------------------------------------------------------------
# 4. Exponentials and softmax
# ---------------------------------------------------------------------------


@given(st.integers(1, 64).map(lambda k: 2 * k), st.floats(min_value=1.5, max_value=1e6))
def test_inverse_powers_closed_form(d, base):
    got = N.inverse_powers(d, base)
    ref = np.array([1.0 / base ** (2 * i / d) for i in range(d // 2)])
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert got[0] == 1.0
    assert np.all(np.diff(got) < 0)  # each pair slower than the last
    assert np.all(got > 1.0 / base)  # never down to 1/base itself


def test_inverse_powers_default_base_is_ten_thousand():
    np.testing.assert_allclose(N.inverse_powers(4), [1.0, 10000 ** -0.5])


small_scores = st.integers(1, 8).flatmap(
    lambda n: arrays(np.float64, n, elements=st.floats(min_value=-30, max_value=30))
)


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


def test_softmax_huge_scores_do_not_overflow():
    with np.errstate(all="raise"):
        w = N.softmax([1000.0, 999.0])
    np.testing.assert_allclose(w, [1 / (1 + math.exp(-1)), 1 / (1 + math.e)], rtol=1e-12)


def test_softmax_rows_and_masked_entries():
    S = np.array([[0.0, 0.0], [1.0, -np.inf]])
    np.testing.assert_allclose(N.softmax(S), [[0.5, 0.5], [1.0, 0.0]])


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
    ("d", lambda: N.inverse_powers(3)),
    ("d", lambda: N.inverse_powers(0)),
    ("d", lambda: N.inverse_powers(4.0)),
    ("base", lambda: N.inverse_powers(4, base=0.0)),
    ("base", lambda: N.inverse_powers(4, base=float("inf"))),
    ("scores", lambda: N.softmax([])),
    ("scores", lambda: N.softmax([1.0, np.nan])),
    ("scores", lambda: N.softmax([1.0, np.inf])),
    ("scores", lambda: N.softmax([-np.inf, -np.inf])),
    ("scores", lambda: N.softmax(np.zeros((2, 2, 2)))),
]


@pytest.mark.parametrize("argument, call", BAD_CALLS, ids=[f"{i}-{a}" for i, (a, _) in enumerate(BAD_CALLS)])
def test_bad_input_raises_value_error_naming_the_argument(argument, call):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(argument + " "), str(info.value)
    assert "must" in str(info.value)


# ---------------------------------------------------------------------------
# The page's numbers come from the code
# ---------------------------------------------------------------------------

DOG, BITES, MAN = N.X_WORDS


def test_level1_numbers():
    on_page(f"the sine of one radian, {math.sin(1):.3f}; the sine\n  of one degree is {math.sin(N.to_radians(1)):.3f}")
    # e^709 fits in a 64-bit float, e^710 does not
    assert math.isfinite(math.exp(709))
    with pytest.raises(OverflowError):
        math.exp(710)
    on_page("$e^{710}$ is already too large for a 64-bit\n  float")
    on_page(f"$\\sqrt 2 \\approx {math.sqrt(2):.3f}$")


def test_section1_numbers():
    on_page(f"$3 \\cdot 0.5 + 2 \\cdot 1 = {N.dot([3, 2], [0.5, 1.0]):g}$")
    for (na, a), (nb, b) in [(("dog", DOG), ("man", MAN)), (("dog", DOG), ("bites", BITES)), (("man", MAN), ("man", MAN))]:
        mult = f"{num(a[0])} · {num(b[0])} and {num(a[1])} · {num(b[1])}"
        row = (f"| {na}, {nb} | {mult} | {num(N.dot(a, b))} | {num(N.norm(a))} and {num(N.norm(b))} | "
               f"{num(N.cosine_similarity(a, b))} |")
        on_page(row)
    on_page(f"= \\sqrt 2 \\approx\n{N.norm(MAN):.3f}$")
    on_page(f"\\cos(\\text{{dog}}, \\text{{man}}) = 1 / (1 \\cdot {N.norm(MAN):.3f}) \\approx "
            f"{N.cosine_similarity(DOG, MAN):.3f}$")
    on_page(f"| $\\cos(a, b)$ | cosine similarity, always in $[-1, 1]$ | {N.cosine_similarity(DOG, MAN):.3f} |")
    x = np.array([5.0, 6.0, 7.0, 8.0])
    on_page(f"$x_2 = {num(x[2])}$, $x_3 = {num(x[3])}$")
    w = N.softmax(N.dog_scores())
    w_text = ", ".join(f"{v:.3f}" for v in w)
    on_page(f"weights ({w_text})")
    on_page(f"$0.401 \\cdot (1, 1) = ({0.401 * 1:.3f}, {0.401 * 1:.3f})$")
    o = N.weighted_sum(np.round(w, 3), N.X_WORDS)
    o_exact = N.weighted_sum(w, N.X_WORDS)
    assert np.allclose(np.round(o, 3), np.round(o_exact, 3))
    on_page(f"= ({o[0]:.3f}, {o[1]:.3f})$: dog's output")
    on_page(f"| $o$ | the weighted sum: each vector scaled by its weight, all added | ({o_exact[0]:.3f}, {o_exact[1]:.3f}) |")


def test_section2_numbers():
    rows = [("| 0", 0.0), ("| 1", 1.0), ("| π/2 ≈ 1.571", math.pi / 2), ("| 3", 3.0),
            ("| π ≈ 3.142", math.pi), ("| 2π ≈ 6.283", 2 * math.pi)]
    for label, theta in rows:
        c, s = (round(v, 3) + 0.0 for v in N.unit_circle_point(theta))  # + 0.0 turns -0.0 into 0.0
        on_page(f"{label} | {math.degrees(theta):.1f} | {c:.3f} | {s:.3f} |")
    assert f"{math.pi / 2:.3f}" == "1.571" and f"{math.pi:.3f}" == "3.142" and f"{2 * math.pi:.3f}" == "6.283"
    on_page(f"$2\\pi\n\\approx {2 * math.pi:.3f}$ long, so a full turn is {2 * math.pi:.3f} radians and one radian is a turn\nof about {math.degrees(1):.1f}°")
    on_page(f"$\\pi \\approx {math.pi:.3f}$")
    c1, s1 = N.unit_circle_point(1.0)
    on_page(f"$\\cos 1 = {c1:.3f}$")
    on_page(f"$\\sin 1 = {s1:.3f}$")
    rc, rs = round(c1, 3), round(s1, 3)
    on_page(f"$0.540^2 \\approx {rc ** 2:.3f}$")
    on_page(f"$0.540^2 + 0.841^2 \\approx {rc ** 2:.3f} + {rs ** 2:.3f} = {round(rc ** 2, 3) + round(rs ** 2, 3):.3f} \\approx 1$")
    c3, s3 = N.unit_circle_point(3.0)
    on_page(f"$({c3:.3f}, {s3:.3f})$")
    ang = N.angle_between(DOG, MAN)
    on_page(f"| $\\arccos({N.cosine_similarity(DOG, MAN):.3f}) \\approx {ang:.3f}$ |")
    on_page(f"$\\arccos({N.cosine_similarity(DOG, MAN):.3f}) \\approx {ang:.3f}$ rad, which is {math.degrees(ang):.0f}°")


def test_section3_numbers():
    M = np.array([[1.0, 2.0], [3.0, 4.0]])
    Mx = N.matvec(M, [1.0, 1.0])
    on_page(f"$Mx = ({num(Mx[0])}, {num(Mx[1])})$")
    on_page(f"$M_{{10}} = {num(M[1, 0])}$")
    S = N.pairwise_dots(N.X_WORDS, N.X_WORDS)
    for name, row in zip(N.WORDS, S):
        on_page(f"| **{name}** | " + " | ".join(num(v) for v in row) + " |")
    w3 = N.rotate([1.0, 0.0], 3.0)
    on_page(f"Rotating (1, 0) by 3 rad gives ({w3[0]:.3f}, {w3[1]:.3f})")
    on_page(f"= (\\cos 3, \\sin 3) = ({w3[0]:.3f}, {w3[1]:.3f})$")
    v = N.V_ROTATED
    w1 = N.rotate(v, 1.0)
    # closed form from the page: (2 cos 1 - sin 1, 2 sin 1 + cos 1)
    assert w1 == pytest.approx([2 * math.cos(1) - math.sin(1), 2 * math.sin(1) + math.cos(1)])
    on_page(f"rotating (2, 1) by 1 rad gives\n({w1[0]:.3f}, {w1[1]:.3f}), and both arrows have length {N.norm(v):.3f}")
    assert f"{N.norm(w1):.3f}" == f"{N.norm(v):.3f}" == f"{math.sqrt(5):.3f}"
    on_page(f"= ({w1[0]:.3f}, {w1[1]:.3f})$, and\nits length $\\sqrt{{{w1[0]:.3f}^2 + {w1[1]:.3f}^2}} \\approx {math.hypot(round(w1[0], 3), round(w1[1], 3)):.3f} = \\sqrt{{5}}$")
    on_page(f"1 on the left, {N.norm(v):.3f} on the right")


def test_section4_numbers():
    xs = [-2, -1, 0, 1, 2]
    on_page("| $x$ | " + " | ".join(str(x) for x in xs) + " |")
    on_page("| $e^x$ | " + " | ".join(f"{math.exp(x):.3f}" for x in xs) + " |")
    on_page(f"$2^{{-3}} = 1/2^3 = {2 ** -3:.3f}$")
    on_page(f"$10000^{{1/2}} = {10000 ** 0.5:.0f}$, so $10000^{{-1/2}} = {10000 ** -0.5:.2f}$")
    speeds = N.inverse_powers(4)
    on_page(f"$\\theta_0 = {num(speeds[0])}$, $\\theta_1 = {speeds[1]:.2f}$")
    on_page(f"$10000^{{-2/4}} = 1/100 = {speeds[1]:.2f}$")
    s = N.dog_scores()
    e = np.exp(s)
    w = N.softmax(s)
    on_page(f"| divided by the total {e.sum():.3f} |")
    for name, si, ei, wi in zip(N.WORDS, s, e, w):
        on_page(f"| {name} | {num(si)} | {ei:.3f} | {wi:.3f} |")
    on_page(f"$e^{{{s[0]:.3f}}} \\approx {e[0]:.3f}$")
    on_page(f"${e[0]:.3f} + 1 + {e[2]:.3f} \\approx {e.sum():.3f}$")
    on_page(f"${e[0]:.3f} / {e.sum():.3f} \\approx {w[0]:.3f}$ and $1 / {e.sum():.3f} \\approx {w[1]:.3f}$")
    shifted = N.softmax(s + 100.0)
    on_page(f"weights stay {shifted[0]:.3f}, {shifted[1]:.3f}, {shifted[2]:.3f}")
    scores_text = f"({s[0]:.3f}, {num(s[1])}, {s[2]:.3f})"
    on_page(f"dog's scores {scores_text} from")
    on_page(f"| the scores, and score number $j$ | {scores_text} |")
    on_page(f"scores s = ({s[0]:.3f}, {num(s[1])}, {s[2]:.3f})")
    on_page(f"weights ({w[0]:.3f}, {w[1]:.3f}, {w[2]:.3f}):<br/>positive")
    on_page(f"| $\\max(s)$ | the largest score | {s.max():.3f} |")
    on_page(f"| $\\operatorname{{argmax}}(s)$ | the position $j$ of the largest score (the first one on a tie) | {int(np.argmax(s))} |")
    t = np.array([1.0, 3.0, 2.0])
    wt = N.softmax(t)
    on_page(f"the max is {num(t.max())} and the argmax is\n{int(np.argmax(t))}")
    on_page(f"weights are {wt[0]:.3f}, {wt[1]:.3f} and {wt[2]:.3f}")
    on_page(f"$e^{{-1}} \\approx {math.exp(-1):.3f}$")
    on_page(f"$e \\approx {math.e:.3f}$")


def test_self_test_answers():
    on_page(f"$1 \\cdot 3 + 2 \\cdot 4 = {num(N.dot([1, 2], [3, 4]))}$")
    on_page(f"{math.sin(1):.3f}: the 1 is one radian, about {math.degrees(1):.1f}°. The sine of one degree is {math.sin(math.radians(1)):.3f}.")
    Q, K = np.zeros((5, 64)), np.zeros((5, 64))
    assert K.T.shape == (64, 5) and N.pairwise_dots(Q, K).shape == (5, 5)
    on_page("$K^T$ is (64, 5), so $QK^T$ is (5, 5)")
    P = N.permutation_matrix([2, 1, 0])
    X = np.arange(6.0).reshape(3, 2)
    assert np.array_equal((P @ X)[0], X[2]) and np.array_equal((P @ X)[1], X[1]) and np.array_equal(P.T @ P @ X, X)
    assert np.allclose(N.rotation_matrix(2.0) @ N.rotation_matrix(1.0), N.rotation_matrix(3.0))
    on_page(f"$10000^{{-1/2}} = 1/\\sqrt{{10000}} = 1/100 = {N.inverse_powers(4)[1]:.2f}$")


def test_figure_alt_texts_state_the_computed_numbers():
    c1, s1 = N.unit_circle_point(1.0)
    on_page(f"cos 1 = {c1:.3f} is its distance to the right and sin 1 = {s1:.3f} its height](figures/notation.unit_circle.svg)")
    w3, w1 = N.rotate([1.0, 0.0], 3.0), N.rotate(N.V_ROTATED, 1.0)
    on_page(f"(1, 0) turned by 3 rad to ({w3[0]:.3f}, {w3[1]:.3f}), and (2, 1) turned by 1 rad to ({w1[0]:.3f}, {w1[1]:.3f})")
    w = N.softmax(N.dog_scores())
    on_page(f"with e^-1 = {math.exp(-1):.3f}, e^0 = 1 and e^1 = {math.e:.3f} marked; right: dog's scores and their "
            f"softmax weights {w[0]:.3f}, {w[1]:.3f}, {w[2]:.3f}](figures/notation.softmax.svg)")


# ---------------------------------------------------------------------------
# Figures and demo
# ---------------------------------------------------------------------------


def test_figures_are_the_ones_the_page_shows():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    figs = N.figures()
    try:
        shown = set(re.findall(r"\]\(figures/notation\.([a-z0-9_]+)\.svg\)", DOC))
        assert set(figs) == shown == {"unit_circle", "rotation", "softmax"}
        assert all(isinstance(f, Figure) for f in figs.values())
        # the figure labels print the same numbers as the page
        legend = [t.get_text() for t in figs["unit_circle"].axes[0].get_legend().get_texts()]
        assert legend[0].startswith(f"cos 1 = {math.cos(1):.3f}") and legend[1].startswith(f"sin 1 = {math.sin(1):.3f}")
    finally:
        for f in figs.values():
            plt.close(f)


def test_demo_runs_quickly_and_prints_the_page_numbers(capsys):
    start = time.process_time()
    N.demo()
    assert time.process_time() - start < 1.0
    out = capsys.readouterr().out
    w = N.softmax(N.dog_scores())
    o = N.weighted_sum(w, N.X_WORDS)
    for text in (f"{w[0]:.3f}", f"{w[1]:.3f}", f"({o[0]:.3f}, {o[1]:.3f})", f"{N.norm(N.V_ROTATED):.3f}"):
        assert text in out
