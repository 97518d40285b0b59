"""Challenge 04's properties: what a correct `sinusoidal_encoding` and
`apply_rope` do, and the classic mistakes, recognised and named.

The reference values come from the lessons, the one home of both ideas:
`lessons.positional.sinusoidal_encoding` (the same interleaved layout as the
challenge) and `lessons.rope.apply_rope_half`. A recognised mistake is a
wrong answer this module can rebuild (interleaved pairs, a wrong frequency
exponent, positions ignored, sine and cosine swapped or concatenated, ...):
when the learner's output equals one of them, the hint names it.
"""

from __future__ import annotations

import numpy as np

from challenges._props import TOL, Fail, Solution, close, fmt, mistake, no_loop, precision_note, registry, worst
from lessons.positional import angle_table, rope_frequencies
from lessons.positional import apply_rope as apply_rope_interleaved
from lessons.positional import sinusoidal_encoding as reference_table
from lessons.rope import apply_rope_half, apply_rope_mismatched, half_split_table, rotate_with_table

# the functions the learner's file must define, as the starter declares them
FUNCTIONS = {
    "sinusoidal_encoding": "sinusoidal_encoding(n_positions, d_model)",
    "apply_rope": "apply_rope(x, positions=None, base=10000.0)",
}

PROPERTIES, prop = registry()

TABLE_SHAPE = "(n_positions, d_model)"
# (n_positions, d_model) the table's values are compared at: odd lengths, the 2017 width and wider
TABLE_SIZES = ((50, 64), (13, 8), (7, 128), (37, 512), (9, 1024), (3, 4096))
# (seq, d, base) RoPE's values are compared at: head widths 8 to 256, odd lengths, Llama 3's base
ROPE_SIZES = ((7, 16, 10000.0), (13, 8, 10000.0), (1, 64, 10000.0), (9, 128, 500000.0), (5, 256, 10000.0))


# ---------------------------------------------------------------------------
# Recognising the table's classic mistakes
# ---------------------------------------------------------------------------


def _interleave(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Columns first_0, second_0, first_1, second_1, ...  # (n, d)"""
    return np.stack([first, second], axis=-1).reshape(first.shape[0], -1)


def _per_column_table(n: int, speeds: np.ndarray) -> np.ndarray:
    """Column k = sin(pos·speed_k) for even k, cos(pos·speed_k) for odd k."""
    angles = angle_table(np.arange(n), speeds)  # (n, d)
    return np.where(np.arange(speeds.size) % 2 == 0, np.sin(angles), np.cos(angles))


# wrong speeds for the d/2 pairs: (what went wrong, speeds(base, d))
WRONG_PAIR_SPEEDS = (
    ("θ_i = {base}^(-i/{d}): the exponent lacks its factor 2",
     lambda b, d: b ** (-np.arange(d // 2) / d)),
    ("θ_i = {base}^(-4i/{d}): i already steps by 2 (np.arange(0, {d}, 2)), so writing 2i counts the 2 twice",
     lambda b, d: b ** (-2 * np.arange(0, d, 2) / d)),
    ("θ_i = {base}^(+2i/{d}): the exponent's sign is flipped; divide the position by {base}^(2i/{d})",
     lambda b, d: b ** (np.arange(0, d, 2) / d)),
    ("θ starts at i = 1: pair 0 must turn at θ_0 = 1 radian per position",
     lambda b, d: b ** (-np.arange(2, d + 2, 2) / d)),
)
RIGHT_SPEEDS = " (the speeds are θ_i = {base}^(-2i/{d}), i = 0 … {d}/2-1, from 1 down to about 1/{base})"


def _table_mistakes(n: int, d: int):
    """(name, explanation, table) for each recognised wrong table."""
    angles = angle_table(np.arange(n), rope_frequencies(d))  # (n, d/2)
    sin, cos = np.sin(angles), np.cos(angles)
    yield ("sine and cosine swapped",
           "column 2i must hold sin(pos·θ_i) and column 2i+1 cos(pos·θ_i); yours has the cosine first "
           "(row 0 must be [0, 1, 0, 1, …])", _interleave(cos, sin))
    for table, order in ((np.hstack([sin, cos]), "[sin | cos]"), (np.hstack([cos, sin]), "[cos | sin]")):
        yield ("sine and cosine concatenated",
               f"your table is {order}, one half after the other; interleave them: "
               "column 2i = sin(pos·θ_i), column 2i+1 = cos(pos·θ_i)", table)
    for text, speeds in WRONG_PAIR_SPEEDS:
        wrong = angle_table(np.arange(n), speeds(10000.0, d))
        why = (text + RIGHT_SPEEDS).format(base="10000", d="d_model")
        yield "wrong frequency exponent", why, _interleave(np.sin(wrong), np.cos(wrong))
    yield ("wrong frequency exponent",
           "each column got its own θ_k = 10000^(-2k/d_model), k over all d_model columns; "
           "i counts pairs, so columns 2i and 2i+1 share θ_i = 10000^(-2i/d_model)",
           _per_column_table(n, 10000.0 ** (-2 * np.arange(d) / d)))
    yield ("wrong frequency exponent",
           "column k used θ_k = 10000^(-k/d_model), so the cosine of pair i turns at 10000^(-(2i+1)/d_model); "
           "both columns of pair i use θ_i = 10000^(-2i/d_model)",
           _per_column_table(n, 10000.0 ** (-np.arange(d) / d)))


# mistakes recognised from the table's rows rather than rebuilt: (classic?, explanation)
ROW_MISTAKES = {
    "positions start at 1": (False, "row 0 is position 0, where every sine is 0 and every cosine 1; "
                                    "count positions with np.arange(n_positions)"),
    "positions ignored": (True, "every row of your table is the same; row pos uses the angles pos·θ_i"),
}


def diagnose_table(sol: Solution) -> Fail | None:
    """The named mistake behind a wrong table, or None if none is recognised."""
    n, d = 16, 8
    pe = sol.call("sinusoidal_encoding", n, d, shape=(n, d), what=TABLE_SHAPE)
    wide = sol.call("sinusoidal_encoding", 20, 64, shape=(20, 64), what=TABLE_SHAPE)  # a name must hold here too
    if close(pe, reference_table(n, d)):
        return None
    for (name, explanation, table), (_, _, table_wide) in zip(_table_mistakes(n, d), _table_mistakes(20, 64),
                                                             strict=True):
        if close(pe, table) and close(wide, table_wide):
            return mistake(name, explanation)
    if close(pe, reference_table(n + 1, d)[1:]) and close(wide, reference_table(21, 64)[1:]):
        classic, why = ROW_MISTAKES["positions start at 1"]
        return mistake("positions start at 1", why, classic)
    if np.allclose(pe, pe[0], atol=TOL):
        classic, why = ROW_MISTAKES["positions ignored"]
        return mistake("positions ignored", why, classic)
    # sin-first interleaved pairs on the unit circle, but turning at other speeds
    sin, cos = pe[:, 0::2], pe[:, 1::2]
    if close(sin**2 + cos**2, 1.0) and close(pe[0], reference_table(1, d)[0]):
        speeds = np.arctan2(sin[1], cos[1])  # the angle after one position (all < π here)
        if close(np.arctan2(sin, cos), np.angle(np.exp(1j * angle_table(np.arange(n), speeds)))):
            return mistake("wrong frequency exponent",
                           f"for d_model={d} the pairs must turn θ = {fmt(rope_frequencies(d), 4)} radians per "
                           f"position (θ_i = 10000^(-2i/d_model)); yours turn {fmt(speeds, 4)}")
    return None


# ---------------------------------------------------------------------------
# The table's properties
# ---------------------------------------------------------------------------


@prop("sinusoidal_encoding")
def table_shape(sol: Solution) -> None:
    for n, d in ((7, 8), (1, 2), (50, 64), (3, 10)):
        sol.call("sinusoidal_encoding", n, d, shape=(n, d), what=TABLE_SHAPE)


@prop("sinusoidal_encoding")
def table_values(sol: Solution) -> None:
    # d_model = 4: θ = [1, 0.01], so row 1 is [sin 1, cos 1, sin 0.01, cos 0.01]
    pe = sol.call("sinusoidal_encoding", 8, 4, shape=(8, 4), what=TABLE_SHAPE)
    hand = np.array([[0.0, 1.0, 0.0, 1.0], [np.sin(1), np.cos(1), np.sin(0.01), np.cos(0.01)]])
    if not close(pe[:2], hand) or not close(pe[5, 2], np.sin(0.05)):
        raise diagnose_table(sol) or Fail(
            f"sinusoidal_encoding(8, 4): rows 0 and 1 must be [0, 1, 0, 1] and [sin 1, cos 1, sin 0.01, cos 0.01] "
            f"≈ {fmt(hand[1])}; yours are {fmt(pe[0])} and {fmt(pe[1])}")
    # every size a model uses, not only small ones: odd lengths, the 2017 width (512) and wider
    for n, d in TABLE_SIZES:
        pe = sol.call("sinusoidal_encoding", n, d, shape=(n, d), what=TABLE_SHAPE)
        ref = reference_table(n, d)
        if not close(pe, ref):
            (pos, col), got, want = worst(pe, ref)
            raise diagnose_table(sol) or Fail(
                f"sinusoidal_encoding({n}, {d})[{pos}, {col}] is {got:.4f}; expected {want:.4f}"
                + precision_note(pe, ref))


@prop("sinusoidal_encoding")
def table_unit_circle(sol: Solution) -> None:
    pe = sol.call("sinusoidal_encoding", 50, 64, shape=(50, 64), what=TABLE_SHAPE)
    # sin² + cos² = 1 for each pair (PE[pos, 2i], PE[pos, 2i+1])
    radius = pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2  # (50, 32)
    if not close(radius, 1.0):
        (pos, i), got, _ = worst(radius, 1.0 + 0 * radius)
        raise diagnose_table(sol) or Fail(
            f"PE[pos, 2i]² + PE[pos, 2i+1]² must be 1 (sin² + cos² of one angle); "
            f"at pos={pos}, i={i} it is {got:.4f}")


@prop("sinusoidal_encoding")
def table_bounds(sol: Solution) -> None:
    pe = sol.call("sinusoidal_encoding", 200, 16, shape=(200, 16), what=TABLE_SHAPE)
    if np.abs(pe).max() > 1.0 + 1e-9:
        raise diagnose_table(sol) or Fail(
            f"every entry is a sine or a cosine, so it lies in [-1, 1]; yours reach {np.abs(pe).max():.4g}")


# ---------------------------------------------------------------------------
# Recognising RoPE's classic mistakes
# ---------------------------------------------------------------------------


def _positions(x: np.ndarray, positions) -> np.ndarray:
    return np.arange(x.shape[-2]) if positions is None else np.asarray(positions, dtype=float)


def _half_with_pair_speeds(speeds):
    def rope(x, positions, base):
        angles = angle_table(_positions(x, positions), speeds(base, x.shape[-1]))  # (seq, d/2)
        return rotate_with_table(x, *half_split_table(angles))

    return rope


def _half_with_column_speeds(speeds):
    def rope(x, positions, base):
        angles = angle_table(_positions(x, positions), speeds(base, x.shape[-1]))  # (seq, d)
        return rotate_with_table(x, np.cos(angles), np.sin(angles))

    return rope


def _rope_mistakes():
    """(name, explanation, wrong apply_rope(x, positions, base), classic?) for each recognised mistake."""
    yield ("interleaved pairs",
           "you turned dimensions (2i, 2i+1) together, the RoFormer paper's interleaved layout; this challenge "
           "uses the half-split layout (Hugging Face's Llama, GPT-NeoX): dimension j turns with dimension j + d/2",
           apply_rope_interleaved, True)
    yield ("interleaved pairs",
           "your cos/sin table repeats each angle in neighbouring columns ([θ_0, θ_0, θ_1, θ_1, …], the "
           "interleaved layout's table) but you rotate halves; the half-split table is [θ_0 … θ_(d/2-1), "
           "θ_0 … θ_(d/2-1)], so dimensions j and j + d/2 share θ_j",
           apply_rope_mismatched, True)
    yield ("sine and cosine swapped",
           "your rotation multiplies x by sin and its partner by cos; the half-split rotation is "
           "x·cos + rotate_half(x)·sin: the first half becomes x1·cos - x2·sin, the second x1·sin + x2·cos",
           lambda x, positions, base: rotate_with_table(
               x, *half_split_table(angle_table(_positions(x, positions), rope_frequencies(x.shape[-1], base)))[::-1]),
           True)
    yield ("positions ignored",
           "the positions argument makes no difference: you always turn row t by t·θ; a row passed with "
           "positions=[6] (decoding with a cache) must turn by 6·θ",
           lambda x, positions, base: apply_rope_half(x, None, base), True)
    for text, speeds in WRONG_PAIR_SPEEDS:
        why = (text + RIGHT_SPEEDS).format(base="base", d="d")
        yield "wrong frequency exponent", why, _half_with_pair_speeds(speeds), True
    yield ("wrong frequency exponent",
           "each of the d columns of your cos/sin table got its own θ_k = base^(-2k/d); there are d/2 speeds "
           "θ_j = base^(-2j/d), and dimensions j and j + d/2 share θ_j",
           _half_with_column_speeds(lambda b, d: b ** (-2 * np.arange(d) / d)), True)
    yield ("wrong frequency exponent",
           "each of the d columns of your cos/sin table got its own θ_k = base^(-k/d); there are d/2 speeds "
           "θ_j = base^(-2j/d), and dimensions j and j + d/2 share θ_j",
           _half_with_column_speeds(lambda b, d: b ** (-np.arange(d) / d)), True)
    yield ("rotation reversed",
           "you turn by -pos·θ; the first half is x1·cos - x2·sin and the second x1·sin + x2·cos",
           lambda x, positions, base: apply_rope_half(x, -_positions(x, positions), base), False)
    yield ("base ignored",
           "apply_rope(x, base=100.0) gives what base=10000 gives; use the base argument in θ_j = base^(-2j/d)",
           lambda x, positions, base: apply_rope_half(x, positions, 10000.0), False)
    yield ("positions start at 1",
           "with positions=None the rows are at 0 .. seq-1, so row 0 is returned unchanged; yours turns row 0 "
           "by θ, as if counting from 1 (use np.arange(seq))",
           lambda x, positions, base: apply_rope_half(x, _positions(x, positions) + (positions is None), base), False)


def diagnose_rope(sol: Solution) -> Fail | None:
    """The named mistake behind a wrong apply_rope, or None if none is recognised.

    A mistake is named only when it gives the learner's output at two head widths (8 and 64),
    so an answer right at one width alone (a hard-coded d, say) is never given a wrong name."""
    rng = np.random.default_rng(4)
    probes = []  # (x, keyword arguments, the learner's output)
    # no 0 among the positions: an answer that counts them up from their smallest (as if consecutive)
    # must not look like one that ignores them
    for seq, d, positions in ((6, 8, [5, 1, 9, 2, 7, 3]), (5, 64, [4, 1, 17, 2, 9])):
        x = rng.normal(size=(seq, d))
        for kw in ({}, {"positions": np.array(positions)}, {"base": 100.0}):
            probes.append((x, kw, sol.call("apply_rope", x, shape=x.shape, what="the shape of x", **kw)))

    def gives(rope) -> bool:
        return all(close(out, rope(x, kw.get("positions"), kw.get("base", 10000.0))) for x, kw, out in probes)

    if gives(apply_rope_half):
        return None
    for name, explanation, rope, classic in _rope_mistakes():
        if gives(rope):
            return mistake(name, explanation, classic)
    return _rope_speeds(sol, [(x, kw, out) for x, kw, out in probes if "base" not in kw])


def _rope_speeds(sol: Solution, probes: list) -> Fail | None:
    """A half-split rotation at other speeds than base^(-2j/d): 'yours turn θ = ...' beside the right ones.

    Each unit vector e_j (j < d/2) at position 1 turns by the learner's θ_j towards e_(j+d/2), so
    atan2 of the two reads θ_j back, width by width; the diagnosis stands only if those speeds
    reproduce every probe's output, and it quotes the first (narrowest) width's."""
    read: dict[int, np.ndarray] = {}
    for d in sorted({x.shape[-1] for x, _, _ in probes}):
        half = np.arange(d // 2)
        probe = sol.call("apply_rope", np.eye(d)[: d // 2], positions=np.ones(d // 2), shape=(d // 2, d),
                         what="the shape of x")
        read[d] = np.arctan2(probe[half, half + d // 2], probe[half, half])  # (d/2,) radians per position
    for x, kw, out in probes:
        guess = _half_with_pair_speeds(lambda b, dd: read[dd])
        if not close(out, guess(x, kw.get("positions"), 10000.0)):
            return None
    d = min(read)
    return mistake("wrong frequency exponent",
                   f"for d={d} and base 10000 the pairs must turn θ = {fmt(rope_frequencies(d), 4)} radians "
                   f"per position (θ_j = base^(-2j/d)); yours turn {fmt(read[d], 4)}")


def _rope(sol: Solution, x: np.ndarray, **kwargs) -> np.ndarray:
    return sol.call("apply_rope", x, shape=x.shape, what="the shape of x", **kwargs)


# ---------------------------------------------------------------------------
# RoPE's properties
# ---------------------------------------------------------------------------


@prop("apply_rope")
def rope_shape(sol: Solution) -> None:
    rng = np.random.default_rng(0)
    for shape in ((7, 16), (1, 2), (3, 4)):
        _rope(sol, rng.normal(size=shape))
    _rope(sol, rng.normal(size=(3, 4)), positions=np.array([4, 9, 2]))


@prop("apply_rope")
def rope_values(sol: Solution) -> None:
    # d = 4: θ = [1, 0.01]; x = e_0 at position 1 turns towards its partner, dimension 2
    e0 = np.array([[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
    out = _rope(sol, e0)
    hand = np.array([np.cos(1), 0.0, np.sin(1), 0.0])
    if not close(out[1], hand):
        raise diagnose_rope(sol) or Fail(
            f"apply_rope(x) with both rows [1, 0, 0, 0] (positions 0, 1): row 1 must be [cos 1, 0, sin 1, 0] "
            f"≈ {fmt(hand)}, dimension 0 turning with dimension 2; yours is {fmt(out[1])}")
    x = np.random.default_rng(1).normal(size=(7, 16))
    settings = [(x, {}), (x, {"positions": np.array([3, 0, 11, 5, 40, 2, 7])}), (x, {"base": 100.0})]
    rng = np.random.default_rng(10)
    for seq, d, base in ROPE_SIZES[1:]:  # every head width a model uses, not only the first one's
        settings.append((rng.normal(size=(seq, d)), {"positions": rng.integers(0, 60, seq), "base": base}))
    for x, kwargs in settings:
        got, want = _rope(sol, x, **kwargs), apply_rope_half(x, kwargs.get("positions"), kwargs.get("base", 10000.0))
        if not close(got, want):
            (t, j), g, w = worst(got, want)
            setting = ", ".join(f"{k}={fmt(v, 0, 8) if isinstance(v, np.ndarray) else v}" for k, v in kwargs.items())
            raise diagnose_rope(sol) or Fail(
                f"apply_rope(x of shape {x.shape}{', ' + setting if setting else ''})[{t}, {j}] is {g:.4f}; the "
                f"half-split rotation gives {w:.4f}" + precision_note(got, want))


@prop("apply_rope")
def rope_identity_at_0(sol: Solution) -> None:
    rng = np.random.default_rng(2)
    for q in (rng.normal(size=(3, 16)), rng.normal(size=(1, 2))):
        out = _rope(sol, q, positions=np.zeros(len(q), dtype=int))
        if not close(out, q):
            raise diagnose_rope(sol) or Fail(
                f"at position 0 every angle is 0, so apply_rope must return x unchanged; "
                f"yours changes it by up to {np.abs(out - q).max():.4f}" + precision_note(out, q))


@prop("apply_rope")
def rope_norm(sol: Solution) -> None:
    x = np.random.default_rng(3).normal(size=(7, 16))
    for kwargs in ({}, {"positions": np.array([0, 3, 50, 400, 1000, 7, 2])}):
        out = _rope(sol, x, **kwargs)
        before, after = np.linalg.norm(x, axis=-1), np.linalg.norm(out, axis=-1)
        if not close(after, before):
            t = int(np.argmax(np.abs(after - before)))
            raise diagnose_rope(sol) or Fail(
                f"RoPE only turns pairs, so every row keeps its length; row {t}'s norm went from "
                f"{before[t]:.4f} to {after[t]:.4f}" + precision_note(after, before))


@prop("apply_rope")
def rope_offset_only(sol: Solution) -> None:
    rng = np.random.default_rng(5)
    q, k = rng.normal(size=(1, 16)), rng.normal(size=(1, 16))

    def score(m: int, n: int) -> float:
        """q at position m · k at position n."""
        return float(_rope(sol, q, positions=np.array([m]))[0] @ _rope(sol, k, positions=np.array([n]))[0])

    for pairs in (((3, 7), (10, 14), (40, 44)), ((0, 5), (25, 30))):
        scores = [score(m, n) for m, n in pairs]
        if not close(scores, scores[0]):
            j = next(j for j in range(1, len(scores)) if not close(scores[j], scores[0]))  # the pair that differs
            raise diagnose_rope(sol) or Fail(
                f"q·k must depend only on the offset m - n, yet q at {pairs[0][0]}, k at {pairs[0][1]} scores "
                f"{scores[0]:.4f} and q at {pairs[j][0]}, k at {pairs[j][1]} scores {scores[j]:.4f}")
    if abs(score(3, 7) - score(3, 8)) < 1e-3:
        raise diagnose_rope(sol) or Fail(
            f"the score must change with the offset, yet q at 3 scores {score(3, 7):.4f} with k at 7 and with k at 8")


@prop("apply_rope")
def rope_cache_positions(sol: Solution) -> None:
    x = np.random.default_rng(6).normal(size=(7, 16))
    full = _rope(sol, x)
    for t in range(7):
        row = _rope(sol, x[t : t + 1], positions=np.array([t]))
        if not close(row, full[t : t + 1]):
            raise diagnose_rope(sol) or Fail(
                f"decoding with a cache: row {t} passed alone with positions=[{t}] must equal row {t} of "
                f"apply_rope(x); it differs by up to {np.abs(row - full[t : t + 1]).max():.4f}")
    tail = _rope(sol, x[4:], positions=np.arange(4, 7))
    if not close(tail, full[4:]):
        raise diagnose_rope(sol) or Fail(
            "apply_rope(x[4:], positions=[4, 5, 6]) must equal apply_rope(x)[4:]")


@prop("apply_rope")
def rope_batch_axes(sol: Solution) -> None:
    rng = np.random.default_rng(7)
    # (batch, heads, seq, d), and (heads, seq, d) with no batch axis
    for xb, slices in ((rng.normal(size=(2, 3, 7, 16)), ((0, 0), (1, 2), (0, 1))),
                       (rng.normal(size=(3, 7, 16)), ((0,), (2,)))):
        for kwargs in ({}, {"positions": np.array([9, 1, 4, 0, 30, 2, 6])}):
            try:
                out = _rope(sol, xb, **kwargs)
            except Fail as fail:
                if "raised" not in str(fail) and "returned shape" not in str(fail):
                    raise
                raise Fail(f"{fail}; leading axes (batch, heads) must pass through: split the last axis "
                           "(x[..., :d//2]) and let the (seq, d/2) angles broadcast") from None
            for index in slices:
                alone = _rope(sol, xb[index], **kwargs)
                if not close(out[index], alone):
                    where = ", ".join(map(str, index))
                    raise Fail(
                        f"leading axes must pass through: apply_rope(x of shape {xb.shape})[{where}] must equal "
                        f"apply_rope(x[{where}]); split the last axis (x[..., :d//2]) and let the (seq, d/2) angles "
                        "broadcast")


@prop("apply_rope")
def rope_linear(sol: Solution) -> None:
    rng = np.random.default_rng(8)
    a, b = rng.normal(size=(5, 16)), rng.normal(size=(5, 16))
    together, apart = _rope(sol, a + b), _rope(sol, a) + _rope(sol, b)
    if not close(together, apart):
        raise Fail("a rotation is linear: apply_rope(a + b) must equal apply_rope(a) + apply_rope(b)"
                   + (precision_note(together, apart) or "; add nothing to x and do not normalise it"))
    if not close(_rope(sol, 2.5 * a), 2.5 * _rope(sol, a)):
        raise Fail("a rotation is linear: apply_rope(2.5 * a) must equal 2.5 * apply_rope(a)")


# ---------------------------------------------------------------------------
# No Python loop over positions or columns (the spec's "vectorized" rule)
# ---------------------------------------------------------------------------

NO_LOOP = "build the whole array at once (np.arange(n)[:, None] * θ broadcasts positions against speeds)"


@prop("sinusoidal_encoding")
def table_no_loop(sol: Solution) -> None:
    no_loop(sol, "sinusoidal_encoding", {"small": (8, 8), "positions": (64, 8), "columns": (8, 64)},
            lambda n, d: sol.call("sinusoidal_encoding", n, d, shape=(n, d), what=TABLE_SHAPE), NO_LOOP)


@prop("apply_rope")
def rope_no_loop(sol: Solution) -> None:
    rng = np.random.default_rng(9)
    shapes = {"small": (rng.normal(size=(8, 8)),), "positions": (rng.normal(size=(64, 8)),),
              "columns": (rng.normal(size=(8, 64)),)}
    no_loop(sol, "apply_rope", shapes, lambda x: _rope(sol, x), NO_LOOP)
