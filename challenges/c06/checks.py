"""Challenge 06's properties: what a correct `interleaved_to_half`,
`half_to_interleaved` and `qkv_to_half` do, and the classic mistakes,
recognised and named.

The reference values come from the lesson, the one home of the idea:
`lessons.rope.interleaved_to_half` and `lessons.rope.half_to_interleaved`
(the permutation of Hugging Face's convert_llama_weights_to_hf.py, undone
as transformers does when it loads a GGUF file), and the attention scores
from `lessons.rope.head_scores`. A recognised mistake is a wrong answer this
module rebuilds from them (the rows of the whole matrix reordered as one
head, the odd rows first, the columns reordered, the two directions
swapped, keys converted with the query head count, values reordered too):
when the learner's output equals one of them at two head widths, the hint
names it.

Every property runs at several head widths (d_head 4 to 128), with grouped-
query key projections (fewer key-value heads than query heads), and at
SmolLM2-135M's own shapes (9 query heads and 3 key-value heads of 64,
d_model 576, RoPE base 100,000): tests/test_challenge_06.py checks the
reference solution on the model's real rows, which a learner's numpy-only
environment cannot load.
"""

from __future__ import annotations

import numpy as np

from challenges._props import Fail, Solution, close, fmt, mistake, registry, worst
from lessons.rope import conversion_permutation, head_scores
from lessons.rope import half_to_interleaved as reference_to_inter
from lessons.rope import interleaved_to_half as reference_to_half

# the functions the learner's file must define, as the starter declares them
FUNCTIONS = {
    "interleaved_to_half": "interleaved_to_half(w, n_heads)",
    "half_to_interleaved": "half_to_interleaved(w, n_heads)",
    "qkv_to_half": "qkv_to_half(w_qkv, n_heads, n_kv_heads)",
}

PROPERTIES, prop = registry()

SHAPE = "the shape of w"
# (n_heads, d_head, d_model) the conversions are compared at: head widths 4 to 128, one head to 32
VALUE_SIZES = ((1, 8, 3), (2, 8, 16), (4, 64, 7), (1, 128, 128), (8, 128, 5), (32, 128, 4))
# (n_heads, n_kv_heads, d_head, d_model, base) the scores are compared at: MHA, GQA, MQA
SCORE_SIZES = ((2, 2, 8, 16, 10000.0), (6, 2, 8, 12, 10000.0), (4, 2, 64, 32, 10000.0), (8, 1, 128, 24, 500000.0))
POSITIONS = np.array([0, 3, 11, 40, 2, 7, 1000])  # 7 tokens, odd, out of order
SMOLLM2 = {"n_heads": 9, "n_kv_heads": 3, "d_head": 64, "d_model": 576, "rope_base": 100000.0,
           "context_length": 8192}  # SmolLM2-135M's config (tests/test_real_model.py reads the same from its file)
SMOLLM2_POSITIONS = np.array([0, 1, 64, 1000, 4095, 8191, 7])
# (n_heads, d_head) of the square weights the diagnosis probes: two head widths
PROBES = ((2, 8), (3, 64))
# (n_heads, n_kv_heads, d_head, d_model) of the fused weights it probes: grouped-query, two head widths
QKV_PROBES = ((4, 2, 8, 12), (8, 2, 64, 16))


def _weight(seed: int, rows: int, cols: int) -> np.ndarray:
    """A random (rows, cols) projection, entries ~ N(0, 1/cols), as `lessons.rope.demo_weights` draws them."""
    return np.random.default_rng(seed).normal(0.0, 1.0 / np.sqrt(cols), (rows, cols))


def _halves_swapped(d_head: int, n_heads: int) -> np.ndarray:
    """The conversion's row order with each head's two halves swapped: the odd rows first."""
    return conversion_permutation(d_head, n_heads).reshape(n_heads, 2, d_head // 2)[:, ::-1].ravel()


def _call(sol: Solution, name: str, w: np.ndarray, *heads: int) -> np.ndarray:
    return sol.call(name, w, *heads, shape=w.shape, what=SHAPE)


def _ask(sol: Solution, name: str, w: np.ndarray, *heads: int) -> np.ndarray:
    """`_call`, a failing call (an IndexError from reordering columns, say) named when it is a known mistake."""
    try:
        return _call(sol, name, w, *heads)
    except Fail as fail:
        raise diagnose(sol, name) or fail from None


def _heads(n: int, d: int) -> str:
    """'1 head of 8', '3 heads of 64'."""
    return f"{n} head{'s' if n != 1 else ''} of {d}"


def _quiet(sol: Solution, name: str, w: np.ndarray, *heads: int) -> np.ndarray | None:
    """The learner's answer, or None when the call fails (the property that made it says why)."""
    try:
        return _call(sol, name, w, *heads)
    except Fail:
        return None


# ---------------------------------------------------------------------------
# Recognising the classic mistakes of the two conversions
# ---------------------------------------------------------------------------

WHOLE = ("you reordered the rows of the whole matrix as one head of n_heads·d_head rows (n_heads left unused): "
         "{moved}, so rows moved from one head into another; reorder inside each head's own block of "
         "d_head = rows / n_heads rows")
COLUMNS = ("you reordered the columns of w (w[:, order]), its d_model inputs; the layout lives in the rows, the "
           "d_head outputs of each head (PyTorch's Linear stores W as (d_out, d_in) and applies x @ W.T): "
           "reorder the rows, w[order]")


def _to_half_mistakes():
    """(name, explanation, wrong interleaved_to_half(w, n_heads)) for each recognised mistake."""
    yield ("the permutation across the whole matrix", WHOLE.format(moved="the even rows of every head went to the top "
           "half of the matrix"), lambda w, n: reference_to_half(w, 1))
    yield ("odd rows first",
           "in each head you put the odd rows first; the half-split layout takes the even rows (the first member "
           "of each pair, 2i) first, then the odd ones: new row j is old row 2j, new row d_head/2 + j is old row "
           "2j + 1. With the halves swapped every pair turns the other way and the scores change",
           lambda w, n: w[_halves_swapped(w.shape[0] // n, n)])
    yield ("the permutation applied to the columns", COLUMNS,
           lambda w, n: w[:, conversion_permutation(w.shape[0] // n, n)])
    yield ("the two directions swapped",
           "your interleaved_to_half does half_to_interleaved's reordering (new row 2j takes old row j); from "
           "interleaved to half-split, new row j takes old row 2j and new row d_head/2 + j old row 2j + 1. The "
           "two orders coincide at d_head = 4 and differ from 8 on",
           reference_to_inter)


def _to_inter_mistakes():
    """(name, explanation, wrong half_to_interleaved(w, n_heads)) for each recognised mistake."""
    yield ("the permutation across the whole matrix", WHOLE.format(moved="the top half of the matrix went to the even "
           "rows of every head"), lambda w, n: reference_to_inter(w, 1))
    yield ("odd rows first",
           "in each head you put the second half's rows at the even places; interleaving takes them back the "
           "other way: old row j (j < d_head/2) goes to new row 2j, old row d_head/2 + j to new row 2j + 1",
           lambda w, n: w[np.argsort(_halves_swapped(w.shape[0] // n, n))])
    yield ("the permutation applied to the columns", COLUMNS,
           lambda w, n: w[:, np.argsort(conversion_permutation(w.shape[0] // n, n))])
    yield ("the permutation applied again",
           "your half_to_interleaved applies interleaved_to_half's reordering a second time, which undoes it "
           "only at d_head = 4 (the order [0, 2, 1, 3] is its own inverse); the inverse puts old row j back at "
           "new row 2j and old row d_head/2 + j at new row 2j + 1 (np.argsort of an order inverts it)",
           reference_to_half)


RIGHT_ORDER = {"interleaved_to_half": conversion_permutation,
               "half_to_interleaved": lambda d, n: np.argsort(conversion_permutation(d, n))}
MISTAKES = {"interleaved_to_half": _to_half_mistakes, "half_to_interleaved": _to_inter_mistakes}
REFERENCE = {"interleaved_to_half": reference_to_half, "half_to_interleaved": reference_to_inter}


def diagnose(sol: Solution, name: str) -> Fail | None:
    """The named mistake behind a wrong conversion `name`, or None if none is recognised.

    A mistake is named only when it gives the learner's output at both head widths of `PROBES`
    (square weights, so that a column reordering has the right shape); otherwise the row order the
    learner's function takes is read back and shown beside the right one, when it is a reordering."""
    found = []
    for k, (n, d) in enumerate(PROBES):
        w = _weight(60 + k, n * d, n * d)
        got = _quiet(sol, name, w, n)
        if got is None:
            return None
        found.append((w, n, got))
    if all(close(got, REFERENCE[name](w, n)) for w, n, got in found):
        return None
    for label, why, wrong in MISTAKES[name]():
        if all(close(got, wrong(w, n)) for w, n, got in found):
            return mistake(label, why)
    return _their_order(sol, name)


def _their_order(sol: Solution, name: str, n: int = 2, d: int = 8) -> Fail | None:
    """'your rows come from [...]; the conversion takes [...]' when the learner's answer reorders whole rows."""
    labels = np.repeat(np.arange(n * d, dtype=float)[:, None], 3, axis=1)  # row r holds r, r, r
    got = _quiet(sol, name, labels, n)
    if got is None or not np.allclose(got, got[:, :1]) or sorted(got[:, 0].tolist()) != list(range(n * d)):
        return None
    right = RIGHT_ORDER[name](d, n)
    return Fail(f"for {n} heads of d_head = {d}, the new rows of your {name} take the old rows "
                f"{fmt(got[:, 0], 0, n * d)}; they must take {fmt(right, 0, n * d)} (new row r is old row order[r])")


def _repeat_kv(w: np.ndarray, group: int, d_head: int) -> np.ndarray:
    """Each key head's rows repeated `group` times: the key each query head reads under grouped-query attention."""
    return np.repeat(w.reshape(-1, d_head, w.shape[1]), group, axis=0).reshape(-1, w.shape[1])


def _scores(W_q, W_k, n_heads, n_kv, d_head, X, layout, base, positions=POSITIONS) -> np.ndarray:
    """(n_heads, seq, seq) pre-softmax scores, key heads shared by n_heads/n_kv query heads."""
    return head_scores(W_q, _repeat_kv(W_k, n_heads // n_kv, d_head), X, n_heads, layout, positions, base)


def _scores_differ(got, want, n_heads, n_kv, d_head, base, before: str, after: str, positions=POSITIONS) -> Fail:
    (h, m, k), g, w = worst(got, want)
    return Fail(f"{n_heads} query heads over {_heads(n_kv, d_head).replace('head', 'key-value head')} (base "
                f"{base:g}): {before} scores {w:.4f} for the query at position {positions[m]} against the key at "
                f"position {positions[k]} in head {h}; {after} {g:.4f}. The scores must stay the same: convert W_q "
                "with n_heads and W_k with its own head count, each head on its own")


# ---------------------------------------------------------------------------
# interleaved_to_half
# ---------------------------------------------------------------------------


def _shape(sol: Solution, name: str) -> None:
    for n, d, d_model in ((2, 8, 5), (1, 4, 1), (9, 64, 576), (3, 64, 576), (8, 128, 16)):
        _ask(sol, name, _weight(n, n * d, d_model), n)


def _values(sol: Solution, name: str, hand: tuple, order_8: list[int]) -> None:
    """The page's worked examples, then the lesson's conversion at every size of VALUE_SIZES."""
    w4 = np.arange(1.0, 9.0).reshape(4, 2)  # one head of 4 rows: [1, 2], [3, 4], [5, 6], [7, 8]
    got = _ask(sol, name, w4, 1)
    if not close(got, np.array(hand)):
        raise diagnose(sol, name) or Fail(
            f"{name}(w, 1) with w's rows [1, 2], [3, 4], [5, 6], [7, 8] (one head, d_head = 4) must give the rows "
            f"{', '.join(fmt(r, 0) for r in hand)}; yours are {', '.join(fmt(r, 0) for r in got)}")
    labels = np.arange(16.0)[:, None]  # two heads of 8 rows, row r holding r
    got = _ask(sol, name, labels, 2)
    if not close(got[:, 0], order_8):
        raise diagnose(sol, name) or Fail(
            f"{name}(w, 2) with w's 16 rows holding 0 … 15 (two heads of 8) must give {fmt(order_8, 0, 16)}; "
            f"yours is {fmt(got[:, 0], 0, 16)}")
    for n, d, d_model in VALUE_SIZES:
        w = _weight(d + n, n * d, d_model)
        got, want = _ask(sol, name, w, n), REFERENCE[name](w, n)
        if not close(got, want):
            (r, c), g, v = worst(got, want)
            raise diagnose(sol, name) or Fail(
                f"{name}(w of shape {w.shape}, {n}) (d_head = {d}): entry [{r}, {c}] is {g:.4f}; the conversion "
                f"puts {v:.4f} there (new row {r} takes old row {int(RIGHT_ORDER[name](d, n)[r])})")


@prop("interleaved_to_half")
def to_half_shape(sol: Solution) -> None:
    _shape(sol, "interleaved_to_half")


@prop("interleaved_to_half")
def to_half_values(sol: Solution) -> None:
    _values(sol, "interleaved_to_half", ([1, 2], [5, 6], [3, 4], [7, 8]),
            [0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15])


@prop("interleaved_to_half")
def to_half_rows_move_whole(sol: Solution) -> None:
    for n, d, d_model in ((2, 6, 5), (2, 8, 16)):
        w = _weight(7, n * d, d_model)
        got = _ask(sol, "interleaved_to_half", w, n)
        source = [np.flatnonzero(np.all(np.isclose(w, row, rtol=0.0, atol=1e-6), axis=1)) for row in got]
        lost = next((r for r, s in enumerate(source) if s.size != 1), None)
        if lost is not None or sorted(int(s[0]) for s in source) != list(range(n * d)):
            raise diagnose(sol, "interleaved_to_half") or Fail(
                f"interleaved_to_half(w of shape {w.shape}, {n}) must reorder whole rows, each row of w once (a "
                "row is one output's weights; no number changes, no column moves); "
                + (f"row {lost} of yours is no row of w" if lost is not None else "yours repeats a row of w"))


def _per_head(sol: Solution, name: str) -> None:
    n, d, d_model = 4, 8, 6
    w = _weight(8, n * d, d_model)
    got = _ask(sol, name, w, n)
    for h in range(n):
        block, theirs = w[h * d:(h + 1) * d], got[h * d:(h + 1) * d]
        inside = [bool(np.any(np.all(np.isclose(block, row, rtol=0.0, atol=1e-6), axis=1))) for row in theirs]
        if not all(inside):
            r = h * d + inside.index(False)
            raise diagnose(sol, name) or Fail(
                f"{name}(w of shape {w.shape}, {n}): head {h} holds rows {h * d} … {(h + 1) * d - 1}, and its new "
                f"rows must come from those same rows; your row {r} does not. Reorder inside each head only")


@prop("interleaved_to_half")
def to_half_per_head(sol: Solution) -> None:
    _per_head(sol, "interleaved_to_half")


@prop("interleaved_to_half")
def to_half_scores(sol: Solution) -> None:
    for k, (n, n_kv, d, d_model, base) in enumerate(SCORE_SIZES):
        W_q, W_k = _weight(20 + k, n * d, d_model), _weight(30 + k, n_kv * d, d_model)
        X = np.random.default_rng(40 + k).normal(size=(POSITIONS.size, d_model))
        mine = [_ask(sol, "interleaved_to_half", W_q, n), _ask(sol, "interleaved_to_half", W_k, n_kv)]
        want = _scores(W_q, W_k, n, n_kv, d, X, "interleaved", base)
        got = _scores(*mine, n, n_kv, d, X, "half", base)
        if not close(got, want):
            raise diagnose(sol, "interleaved_to_half") or _scores_differ(
                got, want, n, n_kv, d, base, "interleaved RoPE on the original rows",
                "half-split RoPE on your converted rows gives")


@prop("interleaved_to_half")
def to_half_smollm2(sol: Solution) -> None:
    n, n_kv, d, d_model, base = (SMOLLM2[k] for k in ("n_heads", "n_kv_heads", "d_head", "d_model", "rope_base"))
    W_q, W_k = _weight(50, n * d, d_model), _weight(51, n_kv * d, d_model)
    for w, heads, what in ((W_q, n, "W_q"), (W_k, n_kv, "W_k")):
        got, want = _ask(sol, "interleaved_to_half", w, heads), reference_to_half(w, heads)
        if not close(got, want):
            raise diagnose(sol, "interleaved_to_half") or Fail(
                f"at SmolLM2-135M's shapes, {what} of shape {w.shape} in {heads} heads of {d}: "
                f"interleaved_to_half(w, {heads}) differs from the conversion by up to {np.abs(got - want).max():.4f}")
    X = np.random.default_rng(52).normal(size=(SMOLLM2_POSITIONS.size, d_model))
    want = _scores(W_q, W_k, n, n_kv, d, X, "interleaved", base, SMOLLM2_POSITIONS)
    got = _scores(_ask(sol, "interleaved_to_half", W_q, n), _ask(sol, "interleaved_to_half", W_k, n_kv),
                  n, n_kv, d, X, "half", base, SMOLLM2_POSITIONS)
    if not close(got, want):
        raise _scores_differ(got, want, n, n_kv, d, base, "interleaved RoPE on the original rows",
                             "half-split RoPE on your converted rows gives", SMOLLM2_POSITIONS)


# ---------------------------------------------------------------------------
# half_to_interleaved
# ---------------------------------------------------------------------------


@prop("half_to_interleaved")
def to_inter_shape(sol: Solution) -> None:
    _shape(sol, "half_to_interleaved")


@prop("half_to_interleaved")
def to_inter_values(sol: Solution) -> None:
    _values(sol, "half_to_interleaved", ([1, 2], [5, 6], [3, 4], [7, 8]),
            [0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15])


@prop("half_to_interleaved")
def to_inter_round_trip(sol: Solution) -> None:
    for n, d, d_model in ((1, 4, 3), (2, 8, 5), (3, 64, 7), (2, 128, 4)):
        w = _weight(9 + d, n * d, d_model)
        back = _ask(sol, "half_to_interleaved", reference_to_half(w, n), n)
        if not close(back, w):
            raise diagnose(sol, "half_to_interleaved") or Fail(
                f"half_to_interleaved must undo interleaved_to_half: for w of shape {w.shape} in "
                f"{_heads(n, d)}, half_to_interleaved(interleaved_to_half(w, {n}), {n}) differs from w by up to "
                f"{np.abs(back - w).max():.4f}")
        there = _quiet(sol, "interleaved_to_half", _ask(sol, "half_to_interleaved", w, n), n)
        if there is None or not close(there, w):
            raise Fail(f"your half_to_interleaved undoes the conversion, but your interleaved_to_half does not undo "
                       f"it: for w of shape {w.shape} in {_heads(n, d)}, interleaved_to_half(half_to_interleaved(w, "
                       f"{n}), {n}) does not give w back; fix interleaved_to_half (the to_half_ lines say how)")


@prop("half_to_interleaved")
def to_inter_per_head(sol: Solution) -> None:
    _per_head(sol, "half_to_interleaved")


@prop("half_to_interleaved")
def to_inter_scores(sol: Solution) -> None:
    for k, (n, n_kv, d, d_model, base) in enumerate(SCORE_SIZES):
        W_q, W_k = _weight(70 + k, n * d, d_model), _weight(80 + k, n_kv * d, d_model)  # trained half-split
        X = np.random.default_rng(90 + k).normal(size=(POSITIONS.size, d_model))
        mine = [_ask(sol, "half_to_interleaved", W_q, n), _ask(sol, "half_to_interleaved", W_k, n_kv)]
        want = _scores(W_q, W_k, n, n_kv, d, X, "half", base)
        got = _scores(*mine, n, n_kv, d, X, "interleaved", base)
        if not close(got, want):
            raise diagnose(sol, "half_to_interleaved") or _scores_differ(
                got, want, n, n_kv, d, base, "half-split RoPE on the original rows",
                "interleaved RoPE on your converted rows gives")


# ---------------------------------------------------------------------------
# qkv_to_half: a fused [q; k; v] projection
# ---------------------------------------------------------------------------


def _split(w: np.ndarray, n: int, n_kv: int) -> list[np.ndarray]:
    d = w.shape[0] // (n + 2 * n_kv)
    return np.split(w, [n * d, (n + n_kv) * d])


def qkv_reference(w: np.ndarray, n: int, n_kv: int, to_half=reference_to_half, build=None) -> np.ndarray:
    """The fused weight with its q rows converted in n heads and its k rows in n_kv heads, v as it is
    (or as `build`, a rebuilt mistake of `_qkv_mistakes`, makes it), converting with `to_half`."""
    q, k, v = _split(w, n, n_kv)
    if build is None:
        return np.concatenate([to_half(q, n), to_half(k, n_kv), v])
    return np.concatenate(build(q, k, v, n, n_kv, to_half))


def _qkv_mistakes():
    """(name, explanation, wrong qkv_to_half as (q, k, v, n, n_kv, to_half) -> rows) for each recognised mistake."""
    yield ("keys converted with the query head count",
           "you converted the key rows with n_heads; under grouped-query attention they hold n_kv_heads heads of "
           "d_head rows, so with n_heads your heads are n_kv_heads·d_head/n_heads rows wide and the pairs are "
           "taken from the wrong rows (at SmolLM2's shapes, 192 key rows do not even split into 9 heads): convert "
           "the keys with n_kv_heads",
           lambda q, k, v, n, n_kv, to_half: [to_half(q, n), to_half(k, n), v])
    yield ("values reordered too",
           "you reordered the value rows as well; RoPE turns only queries and keys, so the value rows (and the "
           "output projection that reads them) keep their order: copy them as they are",
           lambda q, k, v, n, n_kv, to_half: [to_half(q, n), to_half(k, n_kv), to_half(v, n_kv)])


def _their_to_half(sol: Solution):
    """The learner's interleaved_to_half, if it runs at the probes' sizes and differs from the conversion there."""
    if not callable(getattr(sol.module, "interleaved_to_half", None)):
        return None
    theirs = {}
    for n, n_kv, d, d_model in QKV_PROBES:
        for heads in (n, n_kv):
            w = _weight(heads, heads * d, d_model)
            got = _quiet(sol, "interleaved_to_half", w, heads)
            if got is None:
                return None
            theirs[heads, d] = close(got, reference_to_half(w, heads))
    if all(theirs.values()):
        return None
    return lambda w, heads: np.asarray(sol.module.interleaved_to_half(w.copy(), heads), dtype=float)


def diagnose_qkv(sol: Solution) -> Fail | None:
    """The named mistake behind a wrong qkv_to_half, or None if none is recognised; said with the learner's
    interleaved_to_half, when qkv_to_half calls it and it is the part that is wrong."""
    found = []
    for k, (n, n_kv, d, d_model) in enumerate(QKV_PROBES):
        w = _weight(100 + k, (n + 2 * n_kv) * d, d_model)
        got = _quiet(sol, "qkv_to_half", w, n, n_kv)
        if got is None:
            return None
        found.append((w, n, n_kv, got))
    theirs = _their_to_half(sol)
    for to_half in (reference_to_half, theirs):
        if to_half is None:
            continue
        try:
            if all(close(got, qkv_reference(w, n, n_kv, to_half)) for w, n, n_kv, got in found):
                if to_half is reference_to_half:
                    return None
                return Fail("your qkv_to_half splits and converts the fused rows right, with your "
                            "interleaved_to_half, but that is wrong: fix it first (the to_half_ lines say how)")
            too = "" if to_half is reference_to_half else " (and your interleaved_to_half is wrong too: the to_half_ lines say how)"
            for label, why, wrong in _qkv_mistakes():
                if all(close(got, qkv_reference(w, n, n_kv, to_half, wrong)) for w, n, n_kv, got in found):
                    return mistake(label, why + too)
        except (Exception, SystemExit):  # the learner's interleaved_to_half, called on a rebuilt mistake's rows
            continue
    return None


def _qkv(sol: Solution, w: np.ndarray, n: int, n_kv: int) -> np.ndarray:
    try:
        return _call(sol, "qkv_to_half", w, n, n_kv)
    except Fail as fail:
        raise diagnose_qkv(sol) or fail from None


@prop("qkv_to_half")
def qkv_shape(sol: Solution) -> None:
    for n, n_kv, d, d_model in ((2, 2, 8, 5), (4, 2, 8, 12), (8, 1, 128, 4)):
        _qkv(sol, _weight(n + n_kv, (n + 2 * n_kv) * d, d_model), n, n_kv)


QKV_SIZES = ((2, 2, 8, 5), (4, 2, 8, 16), (8, 2, 64, 7), (8, 1, 128, 16), (32, 8, 128, 4))  # MHA, GQA, MQA, Llama 3


@prop("qkv_to_half")
def qkv_values(sol: Solution) -> None:
    for n, n_kv, d, d_model in QKV_SIZES:
        w = _weight(n * n_kv + d, (n + 2 * n_kv) * d, d_model)
        got, want = _qkv(sol, w, n, n_kv), qkv_reference(w, n, n_kv)
        if not close(got, want):
            r = int(np.argmax(np.abs(got - want).max(axis=1)))
            part = "query" if r < n * d else "key" if r < (n + n_kv) * d else "value"
            raise diagnose_qkv(sol) or Fail(
                f"qkv_to_half(w of shape {w.shape}, {n}, {n_kv}) (d_head = {d}): row {r}, a {part} row, differs "
                f"from the conversion by up to {np.abs(got[r] - want[r]).max():.4f}; split at n_heads·d_head and "
                "(n_heads + n_kv_heads)·d_head rows, convert q in n_heads heads and k in n_kv_heads heads")


@prop("qkv_to_half")
def qkv_values_untouched(sol: Solution) -> None:
    for n, n_kv, d, d_model in ((4, 2, 8, 16), (2, 2, 64, 5)):
        w = _weight(3 * n + d, (n + 2 * n_kv) * d, d_model)
        v_rows = slice((n + n_kv) * d, None)
        if not close(_qkv(sol, w, n, n_kv)[v_rows], w[v_rows]):
            raise diagnose_qkv(sol) or Fail(
                f"qkv_to_half(w of shape {w.shape}, {n}, {n_kv}): the last {n_kv * d} rows are the values, which "
                "RoPE never turns; they must come back as they are")


def _qkv_scores(sol: Solution, n, n_kv, d, d_model, base, positions, seed) -> None:
    w = _weight(seed, (n + 2 * n_kv) * d, d_model)
    X = np.random.default_rng(seed + 1).normal(size=(positions.size, d_model))
    q, k, _ = _split(w, n, n_kv)
    mine_q, mine_k, _ = _split(_qkv(sol, w, n, n_kv), n, n_kv)
    want = _scores(q, k, n, n_kv, d, X, "interleaved", base, positions)
    got = _scores(mine_q, mine_k, n, n_kv, d, X, "half", base, positions)
    if not close(got, want):
        raise diagnose_qkv(sol) or _scores_differ(got, want, n, n_kv, d, base, "interleaved RoPE on the original "
                                                  "rows", "half-split RoPE on your converted rows gives", positions)


@prop("qkv_to_half")
def qkv_scores(sol: Solution) -> None:
    for k, (n, n_kv, d, d_model, base) in enumerate(SCORE_SIZES):
        _qkv_scores(sol, n, n_kv, d, d_model, base, POSITIONS, 110 + 2 * k)


@prop("qkv_to_half")
def qkv_smollm2(sol: Solution) -> None:
    n, n_kv, d, d_model, base = (SMOLLM2[k] for k in ("n_heads", "n_kv_heads", "d_head", "d_model", "rope_base"))
    w = _weight(120, (n + 2 * n_kv) * d, d_model)  # SmolLM2's attn_q, attn_k and attn_v stacked: (960, 576)
    got, want = _qkv(sol, w, n, n_kv), qkv_reference(w, n, n_kv)
    if not close(got, want):
        raise diagnose_qkv(sol) or Fail(
            f"at SmolLM2-135M's shapes (w of shape {w.shape}, {n} query heads and {n_kv} key-value heads of {d}) "
            f"qkv_to_half differs from the conversion by up to {np.abs(got - want).max():.4f}")
    _qkv_scores(sol, n, n_kv, d, d_model, base, SMOLLM2_POSITIONS, 121)
