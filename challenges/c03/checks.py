"""Challenge 03's properties: what a correct `alibi_slopes` and `alibi_bias`
do, and the classic mistakes, recognised and named.

The reference values come from the lesson, the one home of both ideas:
`lessons.alibi.alibi_slopes` (the ALiBi authors' rule, which transformers'
BLOOM and MPT code reproduces) and `lessons.alibi.alibi_bias_at`. A
recognised mistake is a wrong answer this module can rebuild (the
power-of-two formula applied to every head count, the extra slopes taken in
a row, the sign of the bias flipped, the causal mask left out, ...): when the
learner's output equals one of them, the hint names it.

The bias holds -inf where a key comes after its query: it is read with
`Solution.call(..., masked=True)`, which lets -inf through and still reports
NaN and +inf, and a masked entry written as a number at or below `MASKED`
(such as np.finfo(float).min) is read as -inf too.
"""

from __future__ import annotations

import math

import numpy as np

from challenges._props import Fail, Solution, close, fmt, mistake, no_loop, precision_note, registry
from lessons.alibi import alibi_bias_at
from lessons.alibi import alibi_slopes as reference_slopes

# the functions the learner's file must define, as the starter declares them
FUNCTIONS = {
    "alibi_slopes": "alibi_slopes(n_heads)",
    "alibi_bias": "alibi_bias(n_heads, query_positions, key_positions)",
}

PROPERTIES, prop = registry()

HEAD_COUNTS = tuple(range(1, 129))  # every head count up to 128 (BLOOM 176B's 112 among them)
POWERS_OF_TWO = (1, 2, 4, 8, 16, 32, 64, 128)
OTHER_COUNTS = (3, 5, 6, 7, 12, 20, 24, 40, 96, 112)
SLOPE_RTOL = 1e-4  # relative: the gentlest slope, 2^-8, is 0.0039, so an absolute 1e-4 would be loose
MASKED = -1e9  # an entry at or below this is the causal mask
BIAS_SHAPE = "(n_heads, queries, keys)"


def _closest(n: int) -> int:
    """The largest power of two at or below n."""
    return 2 ** math.floor(math.log2(n))


def _same_slopes(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=SLOPE_RTOL, atol=0.0))


def _slopes(sol: Solution, n: int) -> np.ndarray:
    return sol.call("alibi_slopes", n, shape=(n,), what="one slope per head")


# ---------------------------------------------------------------------------
# Recognising the slopes' classic mistakes
# ---------------------------------------------------------------------------

HOW = ("take the c = 2^floor(log2 n) slopes of the closest lower power of two, then every other slope of "
       "the 2c-head sequence")


def _slope_mistakes():
    """(name, explanation, wrong slopes(n), the head counts it is recognised at, classic?)."""
    yield ("the power-of-two formula for every head count",
           "you used m_h = 2^(-8h/n), h = 1 … n, for every n; that rule holds only when n is a power of two. "
           f"For other n, {HOW} (12 heads: the 8 slopes of 8 heads, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5)",
           lambda n: 2.0 ** (-8.0 * np.arange(1, n + 1) / n), HEAD_COUNTS, True)
    yield ("the extra slopes taken in a row",
           "after the c slopes of the closest lower power of two you took the first n - c slopes of the "
           "2c-head sequence; take every other one ([0::2]: 2^-0.5, 2^-1.5, … for 12 heads), since the "
           "others repeat slopes you already have (2^-1 and 2^-2 for 12 heads)",
           lambda n: np.concatenate([reference_slopes(_closest(n)), reference_slopes(2 * _closest(n))[: n - _closest(n)]]),
           HEAD_COUNTS, True)
    yield ("rounded up to the next power of two",
           "you took the first n slopes of the next power of two's sequence (12 heads: 16 heads' 2^-0.5 … 2^-6), "
           f"which drops the gentlest slopes; {HOW}",
           lambda n: reference_slopes(2 ** math.ceil(math.log2(n)))[:n], HEAD_COUNTS, True)
    yield ("one halving per head",
           "your slopes are 1/2, 1/4, 1/8, … whatever the head count: the 8-head sequence, right only for 8 heads. "
           "The first slope and the ratio are both 2^(-8/n): 16 heads fall by 2^-0.5 per head, from 2^-0.5 to 2^-8",
           lambda n: 0.5 ** np.arange(1, n + 1), HEAD_COUNTS, True)
    yield ("h counted from 0",
           "your first slope is 1 (2^0): in m_h = 2^(-8h/n), h runs from 1 to n, so the first head's slope is "
           "2^(-8/n) (1/2 for 8 heads) and the last one 2^-8",
           lambda n: reference_slopes(n) * 2.0 ** (8.0 / n), POWERS_OF_TWO, True)
    yield ("slopes sorted",
           "your slopes are sorted from steepest to gentlest; the rule keeps the closest power of two's slopes "
           "first and appends the extra ones (12 heads: 1/2 … 1/256, then 0.707, 0.354, 0.177, 0.088), the order "
           "transformers' BLOOM and MPT code uses: sorting gives a head another head's slope",
           lambda n: np.sort(reference_slopes(n))[::-1], HEAD_COUNTS, False)


def diagnose_slopes(sol: Solution) -> Fail | None:
    """The named mistake behind wrong slopes, or None if none is recognised."""
    got = {n: _slopes(sol, n) for n in HEAD_COUNTS}
    if all(_same_slopes(got[n], reference_slopes(n)) for n in HEAD_COUNTS):
        return None
    for name, explanation, wrong, counts, classic in _slope_mistakes():
        if all(_same_slopes(got[n], wrong(n)) for n in counts):
            return mistake(name, explanation, classic)
    return None


def _first_wrong(sol: Solution, counts) -> tuple[int, int, float, float] | None:
    """(n, head, yours, expected) at the first head count in `counts` whose slopes are wrong."""
    for n in counts:
        got, want = _slopes(sol, n), reference_slopes(n)
        if not _same_slopes(got, want):
            h = int(np.argmax(~np.isclose(got, want, rtol=SLOPE_RTOL, atol=0.0)))
            return n, h, float(got[h]), float(want[h])
    return None


# ---------------------------------------------------------------------------
# The slopes' properties
# ---------------------------------------------------------------------------


@prop("alibi_slopes")
def slopes_shape(sol: Solution) -> None:
    for n in (1, 2, 3, 8, 12, 96, 112):
        _slopes(sol, n)


@prop("alibi_slopes")
def slopes_values(sol: Solution) -> None:
    def powers_only() -> str:
        """The advice for an answer right at every power of two, else ''."""
        return f" (your slopes are right at every power of two; for other head counts {HOW})" if _first_wrong(
            sol, POWERS_OF_TWO) is None else ""

    eight = 0.5 ** np.arange(1, 9)  # 2^-1 … 2^-8
    twelve = np.concatenate([eight, 2.0 ** -np.array([0.5, 1.5, 2.5, 3.5])])
    for n, hand in ((8, eight), (12, twelve)):
        got = _slopes(sol, n)
        if not _same_slopes(got, hand):
            raise diagnose_slopes(sol) or Fail(
                f"alibi_slopes({n}) must be {fmt(hand, 4, 12)}; yours is {fmt(got, 4, 12)}{powers_only()}")
    wrong = _first_wrong(sol, HEAD_COUNTS)
    if wrong:
        n, h, got, want = wrong
        raise diagnose_slopes(sol) or Fail(f"alibi_slopes({n})[{h}] is {got:.6g}; expected {want:.6g}{powers_only()}")


@prop("alibi_slopes")
def slopes_powers_of_two(sol: Solution) -> None:
    for n in POWERS_OF_TWO:
        got, start = _slopes(sol, n), 2.0 ** (-8.0 / n)
        ratios = got[1:] / np.where(got[:-1] == 0, np.nan, got[:-1])
        if not (_same_slopes(got[:1], [start]) and _same_slopes(ratios, np.full(n - 1, start))
                and _same_slopes(got[-1:], [2.0 ** -8])):
            raise diagnose_slopes(sol) or Fail(
                f"for n = {n} heads (a power of two) the slopes are the geometric sequence that starts at "
                f"2^(-8/{n}) = {start:.4g} and uses that same value as its ratio, ending at 2^-8 = 0.0039; yours "
                f"start at {got[0]:.4g} and end at {got[-1]:.4g}")


@prop("alibi_slopes")
def slopes_other_counts(sol: Solution) -> None:
    for n in OTHER_COUNTS:
        c = _closest(n)
        got, first, double = _slopes(sol, n), _slopes(sol, c), _slopes(sol, 2 * c)
        want = np.concatenate([first, double[0::2][: n - c]])
        if not _same_slopes(got, want):
            raise diagnose_slopes(sol) or Fail(
                f"alibi_slopes({n}) must be alibi_slopes({c}) followed by every other slope of "
                f"alibi_slopes({2 * c}) (its [0::2], the first {n - c}), {fmt(want, 4, 12)}; yours is "
                f"{fmt(got, 4, 12)}")


@prop("alibi_slopes")
def slopes_order(sol: Solution) -> None:
    for n in HEAD_COUNTS:
        got, c = _slopes(sol, n), _closest(n)
        if not np.all((got > 0) & (got < 1)):
            raise diagnose_slopes(sol) or Fail(
                f"every slope lies between 0 and 1 (2^(-8h/n) with h >= 1); alibi_slopes({n}) has "
                f"{float(got[np.argmax((got <= 0) | (got >= 1))]):.4g}")
        runs = (got[:c], got[c:])
        if not all(np.all(np.diff(run) < 0) for run in runs):
            raise diagnose_slopes(sol) or Fail(
                f"the first {c} slopes of alibi_slopes({n}) fall from head to head, and so do the "
                f"{n - c} after them; yours do not: {fmt(got, 4, 12)}")
        if n > c:
            # the extra slope r lies between slopes r - 1 and r of the first run (slope -1 being 1)
            above = np.concatenate([[1.0], got[: n - c - 1]])
            if got[c] <= got[c - 1] or not np.all((got[:n - c] < got[c:]) & (got[c:] < above)):
                raise diagnose_slopes(sol) or Fail(
                    f"for {n} heads (not a power of two) the slopes are not in falling order: slope {c} jumps "
                    f"back up, and every extra slope ({n - c} here) falls between two neighbours of the first {c} "
                    f"(12 heads: 0.707 between 1 and 0.5, 0.354 between 0.5 and 0.25, …); yours are "
                    f"{fmt(got, 4, 12)}")


# ---------------------------------------------------------------------------
# The bias, read with its mask
# ---------------------------------------------------------------------------


def _bias(sol: Solution, n_heads: int, queries, keys) -> np.ndarray:
    """alibi_bias(n_heads, queries, keys) through Solution.call, masked entries as -inf."""
    queries, keys = np.asarray(queries), np.asarray(keys)
    out = sol.call("alibi_bias", n_heads, queries, keys, shape=(n_heads, queries.size, keys.size), what=BIAS_SHAPE,
                   masked=True)
    return np.where(out <= MASKED, -np.inf, out)


def _text(positions) -> str:
    """np.arange(100, 111) for consecutive integers, else the list."""
    p = np.asarray(positions)
    if p.size > 2 and np.array_equal(p, np.arange(p[0], p[0] + p.size)):
        return f"np.arange({p[0]}, {p[0] + p.size})" if p[0] else f"np.arange({p.size})"
    return fmt(p, 0, 12)


def _call(n_heads: int, queries, keys) -> str:
    return f"alibi_bias({n_heads}, {_text(queries)}, {_text(keys)})"


def _entry(value: float) -> str:
    return "-inf" if value == -np.inf else f"{value:.4g}"


def _differs(got: np.ndarray, want: np.ndarray) -> str:
    """'[h, a, b] is X; expected Y' at the first entry that differs, with digits enough to tell them apart."""
    bad = ~((got == want) | np.isclose(got, want, rtol=0.0, atol=1e-4))
    h, a, b = (int(i) for i in np.argwhere(bad)[0])
    mine, right = _entry(got[h, a, b]), _entry(want[h, a, b])
    if mine == right:  # they differ past the 4th digit (float16 slopes, say): print the 8th
        mine, right = f"{got[h, a, b]:.8g}", f"{want[h, a, b]:.8g}"
    finite = np.isfinite(got) & np.isfinite(want)  # the masked entries are -inf in both
    return f"[{h}, {a}, {b}] is {mine}; expected {right}" + precision_note(got[finite], want[finite])


# ---------------------------------------------------------------------------
# Recognising the bias's classic mistakes
# ---------------------------------------------------------------------------


def _gap(queries, keys) -> np.ndarray:
    """Query position minus key position, (n_q, n_k)."""
    return np.asarray(queries, dtype=float)[:, None] - np.asarray(keys, dtype=float)[None, :]


def _bias_from(slopes, gap, seen) -> np.ndarray:
    """-m_h · gap where `seen`, -inf elsewhere: (heads, n_q, n_k)."""
    return np.where(seen, -np.asarray(slopes)[:, None, None] * gap, -np.inf)


def _right(m, i, j) -> np.ndarray:
    return _bias_from(m, _gap(i, j), _gap(i, j) >= 0)


def _bias_mistakes():
    """(name, explanation, wrong bias(slopes, query positions, key positions), classic?)."""
    yield ("bias sign flipped",
           "your bias is +m_h·(i - j): it rewards distant keys; ALiBi subtracts, -m_h·(i - j), so a key "
           "further back scores lower",
           lambda m, i, j: _bias_from(-m, _gap(i, j), _gap(i, j) >= 0), True)
    yield ("no causal mask",
           "your bias is -m_h·|i - j| for every key, a symmetric (encoder-style) penalty; in a decoder a key "
           "after the query (j > i) is never seen: its entry is -inf",
           lambda m, i, j: _bias_from(m, np.abs(_gap(i, j)), True), True)
    yield ("no causal mask",
           "keys after the query (j > i) get +m_h·(distance), a bonus for the future; mask them: -inf "
           "where j > i",
           lambda m, i, j: _bias_from(m, _gap(i, j), True), True)
    yield ("gap reversed",
           "your bias is the transpose of ALiBi's: the query's position is subtracted from the key's, so keys "
           "after the query are penalised and the earlier ones masked; use i - j, query minus key, and mask "
           "where j > i",
           lambda m, i, j: _bias_from(m, -_gap(i, j), _gap(i, j) <= 0), True)
    yield ("positions ignored",
           "you used the rows' and columns' indices instead of query_positions and key_positions: a decoding "
           "step's one query, at position t, becomes position 0 and sees only key 0",
           lambda m, i, j: _right(m, np.arange(len(i)), np.arange(len(j))), True)
    yield ("distances among the queries",
           "your distances are query position minus query position (i_a - i_b), not query minus key: right "
           "while the queries are the keys, but a decoding step's one query is 0 steps from every cached key, "
           "so ALiBi adds nothing",
           lambda m, i, j: np.where(_gap(i, j) >= 0, -m[:, None, None] * _gap(i, i), -np.inf), True)


# a mistake recognised from the rows rather than rebuilt: (classic?, explanation)
ROW_MISTAKES = {
    "the key-only form": (False, "your bias is -m_h·(i - j) plus a number that is the same across each query's "
                                 "row (the m_h·j of the ALiBi authors' code and BLOOM, or MPT's "
                                 "-m_h·(L - 1 - j)); softmax gives the same weights, yet this challenge asks "
                                 "for -m_h·(i - j) itself, 0 where the key is the query"),
}

# the calls the diagnosis compares: a square, a shifted square, a decoding step
BIAS_PROBES = ((8, np.arange(7), np.arange(7)), (12, np.arange(100, 105), np.arange(100, 105)),
               (8, np.array([9]), np.arange(10)))


def _their_slopes(sol: Solution):
    """The learner's alibi_slopes as n -> slopes, if it differs from the reference at the probes' head
    counts and gives one slope per head there; else None."""
    if not callable(getattr(sol.module, "alibi_slopes", None)):
        return None
    try:
        theirs = {n: _slopes(sol, n) for n, _, _ in BIAS_PROBES}
    except Fail:
        return None
    if all(_same_slopes(s, reference_slopes(n)) for n, s in theirs.items()):
        return None
    return theirs.__getitem__


def diagnose_bias(sol: Solution) -> Fail | None:
    """The named mistake behind a wrong bias, or None if none is recognised."""
    got = [_bias(sol, n, q, k) for n, q, k in BIAS_PROBES]
    theirs = _their_slopes(sol)
    for slopes in (reference_slopes, theirs):
        if slopes is None:
            continue

        def gives(build, slopes=slopes) -> bool:
            for out, (n, q, k) in zip(got, BIAS_PROBES, strict=True):
                try:
                    if not close(out, build(slopes(n), q, k)):
                        return False
                except ValueError:  # the rebuilt mistake does not broadcast for this call
                    return False
            return True

        if gives(_right):
            if slopes is reference_slopes:
                return None
            n = next(n for n, _, _ in BIAS_PROBES if not _same_slopes(slopes(n), reference_slopes(n)))
            h = int(np.argmax(~np.isclose(slopes(n), reference_slopes(n), rtol=SLOPE_RTOL, atol=0.0)))
            return Fail(f"your alibi_bias is right for the slopes your alibi_slopes returns, but those are wrong: "
                        f"alibi_slopes({n})[{h}] is {slopes(n)[h]:.4g}, not {reference_slopes(n)[h]:.4g}; fix "
                        "alibi_slopes first (the slopes_ lines say how)")
        too = "" if slopes is reference_slopes else " (and your alibi_slopes is wrong too: see the slopes_ lines)"
        for name, explanation, build, classic in _bias_mistakes():
            if gives(build):
                return mistake(name, explanation + too, classic)
        if _row_constant(got, slopes):
            classic, why = ROW_MISTAKES["the key-only form"]
            return mistake("the key-only form", why + too, classic)
    return None


def _row_constant(got: list, slopes) -> bool:
    """Whether each answer is the bias plus a number per (head, query) row, with the same mask."""
    for out, (n, q, k) in zip(got, BIAS_PROBES, strict=True):
        want = _right(slopes(n), q, k)
        if not np.array_equal(np.isneginf(out), np.isneginf(want)):
            return False
        shift = np.where(np.isneginf(want), np.nan, out - np.where(np.isneginf(want), 0.0, want))
        spread = np.nanmax(shift, axis=-1) - np.nanmin(shift, axis=-1)
        if np.any(spread > 1e-4):
            return False
    return not all(close(out, _right(slopes(n), q, k)) for out, (n, q, k) in zip(got, BIAS_PROBES, strict=True))


# ---------------------------------------------------------------------------
# The bias's properties
# ---------------------------------------------------------------------------


@prop("alibi_bias")
def bias_shape(sol: Solution) -> None:
    for n, q, k in ((8, np.arange(5), np.arange(5)), (12, np.array([4, 5, 6]), np.arange(7)),
                    (3, np.array([9]), np.arange(10)), (1, np.array([0]), np.array([0])),
                    (96, np.arange(33), np.arange(33))):
        _bias(sol, n, q, k)


# (heads, positions 0..length-1) compared with the lesson: odd lengths, head counts up to BLOOM's 112
VALUE_SIZES = ((8, 7), (12, 13), (5, 9), (20, 17), (96, 33), (112, 11))


@prop("alibi_bias")
def bias_values(sol: Solution) -> None:
    # 8 heads, positions 0..3: head 0's slope is 1/2, so its row 3 is [-1.5, -1, -0.5, 0]
    out = _bias(sol, 8, np.arange(4), np.arange(4))
    masked = -np.inf
    hand = np.array([[0, masked, masked, masked], [-0.5, 0, masked, masked], [-1, -0.5, 0, masked],
                     [-1.5, -1, -0.5, 0]])
    if not close(out[0], hand):
        raise diagnose_bias(sol) or Fail(
            f"alibi_bias(8, np.arange(4), np.arange(4))[0] must be {fmt(hand, 2, 16)} (head 0's slope is 1/2); "
            f"yours is {fmt(out[0], 2, 16)}")
    for n, length in VALUE_SIZES:
        positions = np.arange(length)
        got, want = _bias(sol, n, positions, positions), alibi_bias_at(n, positions, positions)
        if not close(got, want):
            raise diagnose_bias(sol) or Fail(f"{_call(n, positions, positions)}{_differs(got, want)}")


@prop("alibi_bias")
def bias_causal(sol: Solution) -> None:
    for n, q, k in ((12, np.arange(9), np.arange(9)), (5, np.array([3, 7]), np.arange(9))):
        out, gap = _bias(sol, n, q, k), _gap(q, k)
        after = np.broadcast_to(gap < 0, out.shape)
        if not np.all(np.isneginf(out[after])):
            h, a, b = (int(x) for x in np.argwhere(after & ~np.isneginf(out))[0])
            raise diagnose_bias(sol) or Fail(
                f"{_call(n, q, k)}[{h}, {a}, {b}] is {_entry(out[h, a, b])}, for the key at {k[b]} after the "
                f"query at {q[a]}; a key after the query is masked: -inf (or a number <= {MASKED:g})")
        seen = out[~after]
        if np.any(np.isneginf(seen)) or np.any(seen > 1e-4):
            h, a, b = (int(x) for x in np.argwhere(~after & (np.isneginf(out) | (out > 1e-4)))[0])
            raise diagnose_bias(sol) or Fail(
                f"{_call(n, q, k)}[{h}, {a}, {b}] is {_entry(out[h, a, b])}, for the key at {k[b]} at or before "
                f"the query at {q[a]}; such a key gets -m_h·(i - j), a finite penalty <= 0")
        diagonal = out[:, gap == 0]
        if not close(diagonal, 0.0):
            raise diagnose_bias(sol) or Fail(
                f"{_call(n, q, k)}: where the key is the query (i = j) the distance and the bias are 0; yours has "
                f"{_entry(float(diagonal.flat[np.argmax(np.abs(diagonal))]))}")


# (heads, queries, keys, the number added to every position)
SHIFTED = ((8, np.arange(11), np.arange(11), 100), (8, np.arange(11), np.arange(11), 1000),
           (12, np.array([3, 5, 9]), np.arange(10), 37))


@prop("alibi_bias")
def bias_shift_invariant(sol: Solution) -> None:
    for n, q, k, shift in SHIFTED:
        base, moved = _bias(sol, n, q, k), _bias(sol, n, q + shift, k + shift)
        if not close(moved, base):
            raise diagnose_bias(sol) or Fail(
                f"ALiBi depends only on i - j: {_call(n, q + shift, k + shift)} must equal {_call(n, q, k)}; "
                f"it differs at {_differs(moved, base)}")


@prop("alibi_bias")
def bias_decode_step(sol: Solution) -> None:
    for n in (8, 12):
        full = _bias(sol, n, np.arange(11), np.arange(11))
        for t in (0, 3, 10):
            row = _bias(sol, n, np.array([t]), np.arange(t + 1))
            if not close(row, full[:, t : t + 1, : t + 1]):
                raise diagnose_bias(sol) or Fail(
                    f"decoding with a cache, one query at position {t} against the cached keys 0..{t} must give "
                    f"row {t} of {_call(n, np.arange(11), np.arange(11))}; {_call(n, [t], np.arange(t + 1))}"
                    f"{_differs(row, full[:, t : t + 1, : t + 1])}")


RECTANGULAR = ((8, np.array([4, 5, 6]), np.arange(7)), (12, np.array([2, 6]), np.arange(9)),
               (20, np.array([7, 8]), np.array([5, 6, 7, 8])))


@prop("alibi_bias")
def bias_rectangular(sol: Solution) -> None:
    for n, q, k in RECTANGULAR:
        got, want = _bias(sol, n, q, k), alibi_bias_at(n, q, k)
        if not close(got, want):
            raise diagnose_bias(sol) or Fail(
                f"queries and keys need not be the same positions: {_call(n, q, k)}{_differs(got, want)}")


LOOP_LENGTHS = (8, 64)  # positions: a short call and one 8 times longer


@prop("alibi_bias")
def bias_no_loop(sol: Solution) -> None:
    short, long = (np.arange(n) for n in LOOP_LENGTHS)
    no_loop(sol, "alibi_bias", {"small": (4, short, short), "positions": (4, long, long)},
            lambda n, q, k: _bias(sol, n, q, k),
            "build the whole (n_q, n_k) gap at once: query_positions[:, None] - key_positions[None, :] broadcasts "
            "queries against keys")
