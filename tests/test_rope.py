"""lessons.rope: both RoPE layouts, the complex form, the checkpoint
conversion, the cos/sin cache, cached decoding, and V, against explicit
rotation matrices and transformers' own vectors. The page's numbers are
checked by its `# →` lines (tests/test_prose.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons import positional, rope
from lessons.rope import (
    RotaryEmbedding,
    apply_rope_half,
    apply_rope_interleaved,
    apply_rotary_emb,
    half_split_table,
    half_to_interleaved,
    head_scores,
    interleaved_to_half,
    rope_complex,
    rotate_half,
    rotate_with_table,
)

LAYOUT_FNS = {"half": apply_rope_half, "interleaved": apply_rope_interleaved}
both_layouts = pytest.mark.parametrize("layout", sorted(LAYOUT_FNS))


def reference_rope(x: np.ndarray, positions: np.ndarray, layout: str, base: float = 10000.0) -> np.ndarray:
    """Independent reference: an explicit d x d block rotation matrix per position."""
    seq, d = x.shape
    out = np.empty_like(x)
    for r in range(seq):
        R = np.zeros((d, d))
        for i in range(d // 2):
            a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            angle = positions[r] * base ** (-2.0 * i / d)
            R[a, a], R[a, b] = math.cos(angle), -math.sin(angle)
            R[b, a], R[b, b] = math.sin(angle), math.cos(angle)
        out[r] = R @ x[r]
    return out


def hf_style_permute(w: np.ndarray, n_heads: int) -> np.ndarray:
    """The reshape-and-swap form of the conversion: (heads, d/2, 2, rest) -> (heads, 2, d/2, rest)."""
    rows, rest = w.shape[0], w.shape[1:]
    return w.reshape(n_heads, rows // n_heads // 2, 2, *rest).swapaxes(1, 2).reshape(rows, *rest)


# ---------------------------------------------------------------------------
# The challenge's properties, against both layouts
# ---------------------------------------------------------------------------


@both_layouts
def test_matches_an_explicit_rotation_matrix(layout):
    rng = np.random.default_rng(1)
    x, pos = rng.normal(size=(6, 12)), np.array([0, 1, 5, 17, 300, 4096])
    assert np.allclose(LAYOUT_FNS[layout](x, pos), reference_rope(x, pos, layout), atol=1e-12)


@both_layouts
def test_identity_at_position_zero(layout):
    q = np.random.default_rng(0).normal(size=(1, 16))
    assert np.allclose(LAYOUT_FNS[layout](q, np.array([0])), q, rtol=0, atol=0)


@both_layouts
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), d=st.sampled_from([2, 4, 8, 16, 64]))
def test_norm_preserved(layout, seed, d):
    x = np.random.default_rng(seed).normal(size=(7, d))
    rx = LAYOUT_FNS[layout](x)
    assert np.allclose(np.linalg.norm(rx, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12)


@both_layouts
@settings(max_examples=40, deadline=None)
@given(m=st.integers(0, 5000), n=st.integers(0, 5000), shift=st.integers(0, 5000), seed=st.integers(0, 1000))
def test_scores_depend_only_on_offset(layout, m, n, shift, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(1, 16)), rng.normal(size=(1, 16))
    f = LAYOUT_FNS[layout]

    def score(a, b):
        return float((f(q, np.array([a])) @ f(k, np.array([b])).T).item())

    assert math.isclose(score(m, n), score(m + shift, n + shift), abs_tol=1e-9)


@both_layouts
def test_offset_matters(layout):
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(1, 16)), rng.normal(size=(1, 16))
    f = LAYOUT_FNS[layout]
    s1 = (f(q, np.array([3])) @ f(k, np.array([7])).T).item()
    s2 = (f(q, np.array([3])) @ f(k, np.array([8])).T).item()
    assert not math.isclose(s1, s2, abs_tol=1e-6)


@both_layouts
def test_explicit_positions_equal_the_full_sequence(layout):
    x = np.random.default_rng(4).normal(size=(7, 16))
    f = LAYOUT_FNS[layout]
    full = f(x)
    for t in range(7):
        assert np.allclose(f(x[t : t + 1], np.array([t])), full[t : t + 1], atol=1e-12)
    assert np.allclose(f(x[3:], np.arange(3, 7)), full[3:], atol=1e-12)


@both_layouts
def test_batched_leading_axes(layout):
    xb = np.random.default_rng(5).normal(size=(2, 4, 7, 16))  # (batch, heads, seq, d)
    f = LAYOUT_FNS[layout]
    rb = f(xb)
    assert rb.shape == xb.shape
    for b in range(2):
        for h in range(4):
            assert np.allclose(rb[b, h], f(xb[b, h]), atol=1e-12)


@both_layouts
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), alpha=st.floats(-3, 3))
def test_linear(layout, seed, alpha):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(5, 8)), rng.normal(size=(5, 8))
    f = LAYOUT_FNS[layout]
    assert np.allclose(f(a + alpha * b), f(a) + alpha * f(b), atol=1e-12)


def test_interleaved_is_the_positional_lesson_implementation():
    x = np.random.default_rng(6).normal(size=(3, 5, 8))
    assert np.array_equal(apply_rope_interleaved(x), positional.apply_rope(x))
    assert np.array_equal(apply_rope_interleaved(x, np.arange(4, 9), base=500.0),
                          positional.apply_rope(x, np.arange(4, 9), base=500.0))


def test_a_vector_with_many_positions_gives_one_row_each():
    x = np.random.default_rng(13).normal(size=8)
    positions = np.array([0, 5, 9])
    for f in (apply_rope_half, apply_rope_interleaved, rope_complex, rope.apply_rope_mismatched):
        rows = f(x, positions)
        assert rows.shape == (3, 8)
        for r, m in enumerate(positions):
            assert np.allclose(rows[r], f(x, m), atol=1e-12)


def test_half_split_is_the_table_formula_with_a_half_split_table():
    x = np.random.default_rng(14).normal(size=(4, 10))
    angles = positional.rope_angles(x, np.arange(3, 7))
    cos, sin = half_split_table(angles)
    assert cos.shape == sin.shape == (4, 10)
    assert np.array_equal(cos[:, :5], cos[:, 5:]) and np.array_equal(sin[:, :5], sin[:, 5:])
    assert np.array_equal(apply_rope_half(x, np.arange(3, 7)), rotate_with_table(x, cos, sin))


def test_rotate_half_is_a_quarter_turn_of_each_pair():
    x = np.random.default_rng(7).normal(size=(3, 10))
    # a quarter turn of every (j, j + d/2) pair: twice is a half turn, and it is orthogonal to x
    assert np.allclose(rotate_half(rotate_half(x)), -x)
    assert np.allclose((rotate_half(x) * x).sum(axis=-1), 0.0)


# ---------------------------------------------------------------------------
# The complex form
# ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), start=st.integers(0, 100_000), d=st.sampled_from([2, 6, 16, 128]))
def test_complex_form_equals_interleaved(seed, start, d):
    x = np.random.default_rng(seed).normal(size=(2, 5, d))
    pos = start + np.arange(5)
    assert np.abs(rope_complex(x, pos) - apply_rope_interleaved(x, pos)).max() <= 1e-12 * max(1.0, start / 1000)
    assert np.abs(rope_complex(x) - apply_rope_interleaved(x)).max() <= 1e-12


# ---------------------------------------------------------------------------
# Conversion between layouts
# ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n_heads=st.sampled_from([1, 2, 4]), d_head=st.sampled_from([2, 4, 8]))
def test_converted_weights_give_identical_scores(seed, n_heads, d_head):
    rng = np.random.default_rng(seed)
    d_model = 12
    W_q, W_k = rng.normal(size=(2, n_heads * d_head, d_model))
    X = rng.normal(size=(6, d_model))
    pos = rng.integers(0, 10_000, size=6)
    a = head_scores(W_q, W_k, X, n_heads, "interleaved", pos)
    b = head_scores(interleaved_to_half(W_q, n_heads), interleaved_to_half(W_k, n_heads), X, n_heads, "half", pos)
    assert np.allclose(a, b, atol=1e-9)
    # and back: half-split weights converted to interleaved reproduce the half-split scores
    c = head_scores(half_to_interleaved(W_q, n_heads), half_to_interleaved(W_k, n_heads), X, n_heads, "interleaved", pos)
    d = head_scores(W_q, W_k, X, n_heads, "half", pos)
    assert np.allclose(c, d, atol=1e-9)


def test_without_the_permutation_scores_differ():
    rng = np.random.default_rng(8)
    W_q, W_k, X = rng.normal(size=(16, 12)), rng.normal(size=(16, 12)), rng.normal(size=(6, 12))
    a = head_scores(W_q, W_k, X, 2, "interleaved")
    b = head_scores(W_q, W_k, X, 2, "half")
    assert np.abs(a - b).max() > 0.1


def test_a_wrong_head_count_breaks_the_conversion():
    # 2 heads of width 8: permuting as if there were 4 heads of width 4 moves rows wrongly
    rng = np.random.default_rng(9)
    W_q, W_k, X = rng.normal(size=(16, 12)), rng.normal(size=(16, 12)), rng.normal(size=(5, 12))
    ref = head_scores(W_q, W_k, X, 2, "interleaved")
    good = head_scores(interleaved_to_half(W_q, 2), interleaved_to_half(W_k, 2), X, 2, "half")
    wrong = head_scores(interleaved_to_half(W_q, 2), interleaved_to_half(W_k, 4), X, 2, "half")
    assert np.allclose(good, ref, atol=1e-9)
    assert np.abs(wrong - ref).max() > 0.1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n_heads=st.sampled_from([1, 2, 3]), d_head=st.sampled_from([2, 4, 8]),
       extra=st.sampled_from([(), (5,), (3, 2)]))
def test_permutation_round_trips_and_matches_the_reshape_form(seed, n_heads, d_head, extra):
    w = np.random.default_rng(seed).normal(size=(n_heads * d_head, *extra))
    assert np.array_equal(half_to_interleaved(interleaved_to_half(w, n_heads), n_heads), w)
    assert np.array_equal(interleaved_to_half(half_to_interleaved(w, n_heads), n_heads), w)
    assert np.array_equal(interleaved_to_half(w, n_heads), hf_style_permute(w, n_heads))


def test_unconverted_weights_stay_distance_only_but_a_mismatched_table_does_not():
    assert rope.offset_spread("not converted", 4) < 1e-9
    assert rope.offset_spread("converted", 4) < 1e-9
    assert rope.offset_spread("mismatched table", 4) > 0.1
    x = np.random.default_rng(10).normal(size=(5, 16))
    norms = np.linalg.norm(rope.apply_rope_mismatched(x), axis=-1)
    assert not np.allclose(norms, np.linalg.norm(x, axis=-1))  # not a rotation


# ---------------------------------------------------------------------------
# The cos/sin cache
# ---------------------------------------------------------------------------


def direct_tables(positions: np.ndarray, dim: int, base: float = 10000.0):
    angles = np.array([[p * base ** (-2.0 * (j % (dim // 2)) / dim) for j in range(dim)] for p in positions])
    return np.cos(angles), np.sin(angles)


def test_tables_equal_the_direct_computation_at_every_start_pos():
    max_len, dim = 24, 8
    emb = RotaryEmbedding(dim, max_seq_len=max_len, grow=False)
    for start in range(max_len):
        for seq_len in (1, max_len - start):
            cos, sin = emb(seq_len, start_pos=start)
            ref_cos, ref_sin = direct_tables(np.arange(start, start + seq_len), dim)
            assert cos.shape == (seq_len, dim)
            assert np.allclose(cos, ref_cos, atol=1e-12) and np.allclose(sin, ref_sin, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(start=st.integers(0, 200), seq_len=st.integers(1, 50), max_len=st.integers(1, 64))
def test_past_the_end_grows_and_is_never_short(start, seq_len, max_len):
    emb = RotaryEmbedding(4, max_seq_len=max_len)
    cos, sin = emb(seq_len, start_pos=start)
    assert cos.shape == sin.shape == (seq_len, 4)
    ref_cos, ref_sin = direct_tables(np.arange(start, start + seq_len), 4)
    assert np.allclose(cos, ref_cos, atol=1e-12) and np.allclose(sin, ref_sin, atol=1e-12)
    assert emb.max_seq_len >= start + seq_len


def test_past_the_end_raises_when_growth_is_off():
    emb = RotaryEmbedding(4, max_seq_len=8, grow=False)
    emb(3, start_pos=5)  # exactly fits
    with pytest.raises(ValueError) as info:
        emb(4, start_pos=6)
    message = str(info.value)
    assert "start_pos + seq_len" in message and "10" in message
    assert "max_seq_len" in message and "8" in message


def test_apply_rotary_emb_is_half_split_rope():
    rng = np.random.default_rng(11)
    q, k = rng.normal(size=(2, 3, 5, 8)), rng.normal(size=(2, 1, 5, 8))
    cos, sin = RotaryEmbedding(8, max_seq_len=4)(5, start_pos=9)
    q2, k2 = apply_rotary_emb(q, k, cos, sin)
    assert np.allclose(q2, apply_rope_half(q, np.arange(9, 14)), atol=1e-12)
    assert np.allclose(k2, apply_rope_half(k, np.arange(9, 14)), atol=1e-12)


def test_table_bytes_counts_two_tables():
    emb = RotaryEmbedding(128, max_seq_len=64)
    assert rope.table_bytes(64, 128) == emb.cos_cached.astype(np.float32).nbytes + emb.sin_cached.astype(np.float32).nbytes


# ---------------------------------------------------------------------------
# Decoding and V
# ---------------------------------------------------------------------------


def test_incremental_rotation_needs_the_position():
    x = np.random.default_rng(12).normal(size=(9, 8))
    emb = RotaryEmbedding(8, max_seq_len=4)
    full = apply_rope_half(x)
    assert np.allclose(rope.incremental_rope(x, emb, pass_position=True), full, atol=1e-12)
    wrong = rope.incremental_rope(x, emb, pass_position=False)
    assert np.allclose(wrong[0], full[0]) and not np.allclose(wrong[1:], full[1:])


@pytest.mark.parametrize("shift", [1, 5, 37])
def test_output_is_shift_invariant_only_when_v_is_not_rotated(shift):
    assert rope.head_output_change(shift, rotate_v=False) < 1e-12
    assert rope.head_output_change(shift, rotate_v=True) > 1e-3
    assert rope.head_output_change(0, rotate_v=True) == 0.0


# ---------------------------------------------------------------------------
# Bad input names the argument
# ---------------------------------------------------------------------------


def test_bad_input_raises_value_error_naming_the_argument():
    x = np.zeros((4, 8))
    with pytest.raises(ValueError, match="positions"):
        apply_rope_half(x, np.arange(3))
    with pytest.raises(ValueError, match="positions"):
        apply_rope_interleaved(x, np.arange(5))
    with pytest.raises(ValueError, match="even"):
        apply_rope_half(np.zeros((4, 7)))
    with pytest.raises(ValueError, match="n_heads"):
        interleaved_to_half(np.zeros((12, 4)), 5)
    with pytest.raises(ValueError, match="n_heads"):
        half_to_interleaved(np.zeros((6, 4)), 2)  # d_head = 3 is odd
    with pytest.raises(ValueError, match="layout"):
        head_scores(np.eye(4), np.eye(4), np.eye(4), 1, "sideways")
    with pytest.raises(ValueError, match="case"):
        rope.offset_spread("rotated", 2)
    with pytest.raises(ValueError, match="dim"):
        RotaryEmbedding(5)
    with pytest.raises(ValueError, match="max_seq_len"):
        RotaryEmbedding(4, max_seq_len=0)
    with pytest.raises(ValueError, match="start_pos"):
        RotaryEmbedding(4)(2, start_pos=-1)
    with pytest.raises(ValueError, match="layout"):
        rope.pair_partner(8, "sideways")
    with pytest.raises(ValueError, match="d_head"):
        rope.conversion_permutation(3)


# ---------------------------------------------------------------------------
# The demo
# ---------------------------------------------------------------------------


def test_demo_narrates_the_grown_table_and_the_decoding_error(capsys):
    rope.demo()
    out = capsys.readouterr().out
    assert "grew it to 16 rows" in out
    assert f"{rope.decode_error(pass_position=False).max():.3f}" in out


# ---------------------------------------------------------------------------
# Against production code: transformers' Llama (rotate_half) and GPT-J
# (rotate_every_two), from tests/data/reference_vectors.json (no torch needed;
# `make reference` recomputes them live).
# ---------------------------------------------------------------------------


def _layout_records():
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "data" / "reference_vectors.json").read_text())
    return data["layouts"]


@pytest.mark.parametrize("record", _layout_records(), ids=lambda r: f"positions-{r['positions'][0]}")
def test_both_layouts_and_the_tables_match_transformers(record):
    from tests.reference._reference import lesson_layouts

    ours = lesson_layouts(record)
    for key in ("half", "interleaved", "cos", "sin"):
        # transformers builds its angles in float32: about 1e-7 at position 0, 5e-7 at 100
        np.testing.assert_allclose(ours[key], np.asarray(record[key]), atol=2e-6, rtol=0, err_msg=key)
    # and the two layouts really are different rotations of the same input
    assert np.abs(np.asarray(record["half"]) - np.asarray(record["interleaved"])).max() > 0.1
