"""Challenge 01's properties: what a correct `causal_mask`, `attention_weights`
and `attention` do, and the classic mistakes, recognised and named.

The reference values come from the lessons, the one home of both ideas:
`lessons.attention.causal_mask` and `lessons.attention.scaled_dot_product_attention`.
A recognised mistake is a wrong answer this module rebuilds from them (no
1/√d, a division by d, the softmax over the queries, a mask ignored, read
the other way round, or applied as 0 or after the softmax, ...): when the
learner's output equals one of them, the hint names it.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from challenges._props import (TOL, Fail, Solution, close, describe_call, fmt, mistake, no_loop, precision_note,
                               registry, worst)
from lessons.attention import causal_mask as reference_mask
from lessons.attention import scaled_dot_product_attention
from lessons.notation import softmax

# the functions the learner's file must define, as the starter declares them
FUNCTIONS = {
    "causal_mask": "causal_mask(n)",
    "attention_weights": "attention_weights(Q, K, mask=None)",
    "attention": "attention(Q, K, V, mask=None)",
}

# numpy's floating-point error -> the likely mistake, in attention's words (replaces _props' entries)
NOT_FINITE_CAUSES = {
    "overflow": "np.exp of a large score: subtract each row's largest score, "
                "scores.max(axis=-1, keepdims=True), before the exponential; it changes no weight",
    "invalid value": "0/0 or inf/inf: a row whose exponentials all overflowed, or all underflowed to 0 "
                     "(subtract each row's own max, axis=-1 with keepdims=True, not the whole array's), "
                     "or a row with every key blocked",
}

PROPERTIES, prop = registry()

MASK_SHAPE = "(n, n)"
WEIGHTS_SHAPE = "(..., n_q, n_k)"
OUT_SHAPE = "(..., n_q, d_v)"
SIZES = ((1, 8), (7, 64), (13, 128))  # (tokens, d): odd lengths, the head widths of small and large models
MASK_SIZES = (1, 7, 13, 64)
CROSS = (5, 9)  # cross-attention: queries, keys
BATCH = (2, 3)  # (batch, heads)
GROUPED = (2, 1)  # K and V's (batch, heads) in grouped-query attention: one key/value head for Q's 3
HEADS = (3,)  # a 3-D (heads, n, d) input, with n = 7 != d = 8
LEADING = ("leading axes (batch, heads) must pass through and broadcast as in numpy's matmul (K and V with 1 head "
           "serve Q's 3 in grouped-query attention): transpose only K's last two axes, np.swapaxes(K, -1, -2) (K.T "
           "reverses every axis), reshape none of them, and let a (n_q, n_k) mask broadcast "
           "(np.where(mask, scores, -np.inf))")
FAR = ("every key a query may see scores about -110,000 here, as in a head of pythia-70m on real text: a finite "
       "stand-in for -inf such as -1e4 or -1e5 lies above them and gives the blocked keys the weight; use -np.inf")
TOY = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # dog, bites, man: lessons.attention's toy sentence


def reference_weights(Q: np.ndarray, K: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """softmax(Q Kᵀ / √d) with blocked keys at 0: (..., n_q, n_k)."""
    return scaled_dot_product_attention(Q, K, K, mask=mask)[1]


def reference_attention(Q, K, V, mask=None) -> np.ndarray:
    """softmax(Q Kᵀ / √d) V: (..., n_q, d_v)."""
    return scaled_dot_product_attention(Q, K, V, mask=mask)[0]


def _qkv(seed: int, lead: tuple[int, ...], n: int, d: int, d_v: int = 5, n_k: int | None = None,
         kv_lead: tuple[int, ...] | None = None):
    """Random Q (lead, n, d), K (kv_lead, n_k, d), V (kv_lead, n_k, d_v); kv_lead is lead unless given."""
    rng = np.random.default_rng(seed)
    n_k, kv = n if n_k is None else n_k, lead if kv_lead is None else kv_lead
    return (rng.normal(size=(*lead, n, d)), rng.normal(size=(*kv, n_k, d)), rng.normal(size=(*kv, n_k, d_v)))


def _broadcast_inputs():
    """(Q, K, V, mask) whose leading axes differ: grouped-query K and V (2, 1, 7, .) against Q (2, 3, 7, 8), under
    the causal mask and under a padding mask per sequence (2, 1, 1, 7); and a 3-D (heads, n, d) input, n != d."""
    Q, K, V = _qkv(22, BATCH, 7, 8, kv_lead=GROUPED)
    padding = np.arange(7) < np.array([7, 5])[:, None, None, None]  # sequence 1 has 5 tokens, then 2 of padding
    return ((Q, K, V, reference_mask(7)), (Q, K, V, padding), (*_qkv(23, HEADS, 7, 8), reference_mask(7)))


def band_mask(n: int) -> np.ndarray:
    """(n, n) boolean: query i sees keys i-1, i, i+1; every row and column has a True and, for n >= 4, a False."""
    return np.abs(np.subtract.outer(np.arange(n), np.arange(n))) <= 1


# ---------------------------------------------------------------------------
# Recognising the classic mistakes
# ---------------------------------------------------------------------------

MASK_MISTAKES = (
    ("mask inverted",
     "your mask is True where query i must not look (j > i), the convention of PyTorch's nn.MultiheadAttention "
     "masks; here, as in F.scaled_dot_product_attention, True means may attend: j <= i, the lower triangle with "
     "its diagonal", lambda n: ~reference_mask(n)),
    ("future visible",
     "your mask lets query i see keys j >= i, itself and every later token (the upper triangle, np.triu); "
     "a causal mask lets it see j <= i, the lower triangle (np.tril)", lambda n: reference_mask(n).T),
    ("diagonal excluded",
     "query i must see itself too: the causal mask is j <= i, diagonal included; without it query 0 sees no "
     "key at all and its softmax row is 0/0 = NaN", lambda n: np.tril(np.ones((n, n), dtype=bool), -1)),
)


def _scores(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    return Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])


def _divided_by(divisor):
    """The weights with the scores Q Kᵀ divided by divisor(Q) instead of √d."""
    return lambda Q, K, mask: reference_weights(Q * np.sqrt(Q.shape[-1]) / divisor(Q), K, mask)


def _weight_mistakes():
    """(name, explanation, wrong attention_weights(Q, K, mask)) for each recognised mistake."""
    yield ("no scaling",
           "your scores are Q Kᵀ; divide them by √d (d = Q.shape[-1]) before the softmax: the dot product of "
           "two random d-vectors spreads like √d, and unscaled the softmax collapses onto one key",
           _divided_by(lambda Q: 1.0))
    yield ("divided by d",
           "you divided the scores by d; the scale is 1/√d (np.sqrt(d)), which brings their spread back to "
           "about 1", _divided_by(lambda Q: Q.shape[-1]))
    yield ("d read from the wrong axis",
           "you scaled by √(Q.shape[1]), which is d only for a 2-D Q: for (batch, heads, seq, d) it is the number "
           "of heads; d is the last axis, Q.shape[-1]", _divided_by(lambda Q: np.sqrt(Q.shape[1])))
    yield ("d read from the wrong axis",
           "you scaled by √(len(Q)), the number of queries (or of batches); d is the last axis, Q.shape[-1]",
           _divided_by(lambda Q: np.sqrt(Q.shape[0])))
    yield ("softmax over the wrong axis",
           "each column of your weights sums to 1: the softmax ran over the queries (axis -2); run it over the "
           "keys, the last axis, so that each query's row sums to 1",
           lambda Q, K, mask: softmax(_scores(Q, K) if mask is None else np.where(mask, _scores(Q, K), -np.inf),
                                      axis=-2))
    yield ("mask ignored",
           "with a mask given, your weights are those of no mask; block the keys before the softmax: "
           "np.where(mask, scores, -np.inf)", lambda Q, K, mask: reference_weights(Q, K))
    yield ("mask inverted",
           "you blocked the keys where mask is True; True means this query may see this key (as in "
           "F.scaled_dot_product_attention; nn.MultiheadAttention uses the opposite): keep the scores where "
           "mask is True, -inf elsewhere",
           lambda Q, K, mask: reference_weights(Q, K, None if mask is None else ~mask))
    yield ("masked scores set to 0",
           "you set the blocked scores to 0, but e^0 = 1, so blocked keys still get weight; set them to -inf "
           "(np.where(mask, scores, -np.inf)), since e^-inf = 0",
           lambda Q, K, mask: softmax(_scores(Q, K) if mask is None else np.where(mask, _scores(Q, K), 0.0)))
    yield ("mask applied after the softmax",
           "you zeroed the blocked weights after the softmax, so each row sums to less than 1; block the "
           "scores before it (-inf), and the softmax shares the whole weight among the allowed keys",
           lambda Q, K, mask: reference_weights(Q, K) * (1.0 if mask is None else mask))


def _probes():
    """The inputs a diagnosis calls: (Q, K, V, mask), finite under every named mistake (band masks)."""
    Q, K, V = _qkv(11, (), 7, 8)
    Qb, Kb, Vb = _qkv(12, BATCH, 5, 16, d_v=4)
    return ((Q, K, V, None), (Q, K, V, band_mask(7)), (Qb, Kb, Vb, band_mask(5)))


def _raw(sol: Solution, name: str, Q, K, V, mask) -> np.ndarray:
    """One call of attention_weights or attention, shape-checked, masks passed by keyword."""
    kwargs = {} if mask is None else {"mask": mask}
    lead = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2])
    if name == "attention_weights":
        return sol.call(name, Q, K, shape=(*lead, Q.shape[-2], K.shape[-2]), what=WEIGHTS_SHAPE, **kwargs)
    return sol.call(name, Q, K, V, shape=(*lead, Q.shape[-2], V.shape[-1]), what=OUT_SHAPE, **kwargs)


def diagnose(sol: Solution, name: str) -> Fail | None:
    """The named mistake behind a wrong attention_weights or attention, or None if none is recognised."""
    try:
        got = [_raw(sol, name, *probe) for probe in _probes()]
    except Fail:
        return None

    def gives(weights) -> bool:
        outs = [weights(Q, K, mask) if name == "attention_weights" else weights(Q, K, mask) @ V
                for Q, K, V, mask in _probes()]
        return all(close(g, o) for g, o in zip(got, outs, strict=True))

    if gives(reference_weights):
        return None
    return next((mistake(what, why) for what, why, weights in _weight_mistakes() if gives(weights)), None)


def _call(sol: Solution, name: str, Q, K, V=None, mask=None) -> np.ndarray:
    """_raw, but a call that fails (NaN from a blocked row, say) is named when the mistake is recognised."""
    try:
        return _raw(sol, name, Q, K, V, mask)
    except Fail as fail:
        raise diagnose(sol, name) or fail from None


def _expect(sol: Solution, name: str, got, want, args: tuple, mask, what: str = "expected", advice: str = "") -> None:
    """Fail (the named mistake, or the worst entry and the advice) unless got equals want."""
    if not close(got, want):
        index, g, w = worst(got, want)
        text = describe_call(name, args, {} if mask is None else {"mask": mask})
        raise diagnose(sol, name) or Fail(f"{text}[{', '.join(map(str, index))}] is {g:.4f}; {what} {w:.4f}"
                                          + precision_note(got, want) + (f"; {advice}" if advice else ""))


def _batched(sol: Solution, run) -> np.ndarray:
    """run() with batch and head axes; a call that raises gets the advice on leading axes."""
    try:
        return run()
    except Fail as fail:
        if "raised" not in str(fail) and "returned shape" not in str(fail):
            raise
        raise Fail(f"{fail}; {LEADING}") from None


def _broadcast(sol: Solution, name: str, values: bool = True) -> None:
    """Every _broadcast_inputs() case: the shape and, with values, the reference's result (else LEADING's advice)."""
    for Q, K, V, mask in _broadcast_inputs():
        got = _batched(sol, lambda Q=Q, K=K, V=V, mask=mask: _call(sol, name, Q, K, V, mask))
        if values and name == "attention_weights":
            _expect(sol, name, got, reference_weights(Q, K, mask), (Q, K), mask, advice=LEADING)
        elif values:
            _expect(sol, name, got, reference_attention(Q, K, V, mask), (Q, K, V), mask, advice=LEADING)


# ---------------------------------------------------------------------------
# No Python loop (counted, not timed)
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# causal_mask
# ---------------------------------------------------------------------------


def _mask(sol: Solution, n: int) -> np.ndarray:
    return sol.call("causal_mask", n, shape=(n, n), what=MASK_SHAPE)


@prop("causal_mask")
def mask_shape(sol: Solution) -> None:
    for n in MASK_SIZES:
        _mask(sol, n)


@prop("causal_mask")
def mask_values(sol: Solution) -> None:
    for n in (3, 1, 7, 13):
        got = _mask(sol, n)
        if close(got, reference_mask(n)):
            continue
        for name, why, wrong in MASK_MISTAKES:
            if close(got, wrong(n)):
                raise mistake(name, why)
        raise Fail(f"causal_mask({n}) must be True exactly where j <= i (query i sees key j); causal_mask(3) is "
                   f"[[1, 0, 0], [1, 1, 0], [1, 1, 1]], yours is {_mask(sol, 3).astype(int).tolist()}")


@prop("causal_mask")
def mask_boolean(sol: Solution) -> None:
    _mask(sol, 4)
    try:
        kind = np.asarray(sol.module.causal_mask(4)).dtype
    except (Exception, SystemExit) as exc:
        raise Fail(f"causal_mask(4) raised {sol.one_line(exc)}") from None
    if kind != bool:
        raise Fail(f"causal_mask(4) returned {kind} values; return booleans (True = may attend), e.g. "
                   "np.tril(np.ones((n, n), dtype=bool)): a mask of 0.0 and 1.0 reads as True everywhere "
                   "once it is compared, and cannot index")


@prop("causal_mask")
def mask_no_loop(sol: Solution) -> None:
    no_loop(sol, "causal_mask", {"small": (8,), "tokens": (64,)}, lambda n: _mask(sol, n),
             "build the mask at once: np.tril(np.ones((n, n), dtype=bool)), or np.arange(n)[:, None] >= np.arange(n)")


# ---------------------------------------------------------------------------
# attention_weights
# ---------------------------------------------------------------------------


@prop("attention_weights")
def weights_shape(sol: Solution) -> None:
    for n, d in SIZES:
        Q, K, _ = _qkv(n, (), n, d)
        _raw(sol, "attention_weights", Q, K, None, None)
    Q, K, _ = _qkv(1, (), CROSS[0], 16, n_k=CROSS[1])
    _raw(sol, "attention_weights", Q, K, None, None)
    Q, K, _ = _qkv(2, BATCH, 7, 8)
    _batched(sol, lambda: _call(sol, "attention_weights", Q, K, mask=reference_mask(7)))
    _broadcast(sol, "attention_weights", values=False)


@prop("attention_weights")
def weights_values(sol: Solution) -> None:
    # the worked example: bites' scores (0, 1/√2) with man blocked give weights (1, e^(1/√2), 0) / (1 + e^(1/√2))
    got = _call(sol, "attention_weights", TOY, TOY, mask=reference_mask(3))
    hand = np.array([1.0, np.exp(1 / np.sqrt(2)), 0.0]) / (1 + np.exp(1 / np.sqrt(2)))
    if not close(got[1], hand):
        raise diagnose(sol, "attention_weights") or Fail(
            f"attention_weights(X, X, mask=causal_mask(3)) for X = [[1, 0], [0, 1], [1, 1]]: row 1 must be "
            f"[1, e^(1/√2), 0] / (1 + e^(1/√2)) ≈ {fmt(hand)}; yours is {fmt(got[1])}")
    for n, d in SIZES:
        Q, K, _ = _qkv(n + d, (), n, d)
        for mask in (None, reference_mask(n)):
            got = _call(sol, "attention_weights", Q, K, mask=mask)
            _expect(sol, "attention_weights", got, reference_weights(Q, K, mask), (Q, K), mask)
    Q, K, _ = _qkv(3, (), CROSS[0], 16, n_k=CROSS[1])
    _expect(sol, "attention_weights", _call(sol, "attention_weights", Q, K), reference_weights(Q, K), (Q, K), None)
    Q, K, _ = _qkv(20, BATCH, 7, 8)  # batch and heads, one mask for all
    got = _batched(sol, lambda: _call(sol, "attention_weights", Q, K, mask=reference_mask(7)))
    _expect(sol, "attention_weights", got, reference_weights(Q, K, reference_mask(7)), (Q, K), reference_mask(7))
    _broadcast(sol, "attention_weights")


@prop("attention_weights")
def weights_rows_sum_to_1(sol: Solution) -> None:
    for lead, mask in (((), None), ((), reference_mask(13)), (BATCH, reference_mask(13))):
        Q, K, _ = _qkv(4, lead, 13, 64)
        w = _batched(sol, lambda Q=Q, K=K, mask=mask: _call(sol, "attention_weights", Q, K, mask=mask))
        sums = w.sum(axis=-1)
        text = describe_call("attention_weights", (Q, K), {} if mask is None else {"mask": mask})
        if w.min() < -1e-12:
            index, value, _ = worst(np.minimum(w, 0), 0 * w)
            raise diagnose(sol, "attention_weights") or Fail(
                f"{text}[{', '.join(map(str, index))}] is {value:.4f}; a weight is e^score / Σ e^score, never negative")
        if not close(sums, 1.0):
            index, value, _ = worst(sums, 1 + 0 * sums)
            raise diagnose(sol, "attention_weights") or Fail(
                f"each row of weights must sum to 1 (a weighted average); row {', '.join(map(str, index))} of "
                f"{text} sums to {value:.4f}")


@prop("attention_weights")
def weights_masked_zero(sol: Solution) -> None:
    Q, K, _ = _qkv(5, (), 13, 64)
    Qc, Kc, _ = _qkv(6, (), CROSS[0], 16, n_k=CROSS[1])
    padding = np.arange(CROSS[1]) < CROSS[1] - 3  # (n_k,): the last 3 keys are padding, blocked for every query
    for q, k, mask in ((Q, K, reference_mask(13)), (Q, K, band_mask(13)), (Qc, Kc, padding)):
        w = _call(sol, "attention_weights", q, k, mask=mask)
        blocked = np.abs(np.where(mask, 0.0, w))
        if blocked.max() > 1e-12:
            (i, j), value, _ = worst(blocked, 0 * blocked)
            raise diagnose(sol, "attention_weights") or Fail(
                f"{describe_call('attention_weights', (q, k), {'mask': mask})}[{i}, {j}] is {value:.4g}, but mask "
                f"blocks key {j} for query {i}: a blocked key's weight is exactly 0 (its score -inf)")
        _expect(sol, "attention_weights", w, reference_weights(q, k, mask), (q, k), mask)


def _causal(sol: Solution, name: str, seed: int) -> None:
    """With the causal mask, rows 0..t of the result must not change when the tokens after t are replaced."""
    Q, K, V = _qkv(seed, (), 13, 64)
    what = {"attention_weights": ("the weights of queries", "Q and K"), "attention": ("the outputs", "Q, K and V")}
    full = _call(sol, name, Q, K, V, reference_mask(13))
    for t in (0, 5, 11):
        later = [a.copy() for a in _qkv(10 * seed + t, (), 13, 64)]
        for new, old in zip(later, (Q, K, V), strict=True):
            new[: t + 1] = old[: t + 1]  # the same first t+1 tokens, other later ones
        changed = np.abs(_call(sol, name, *later, reference_mask(13)) - full)[: t + 1].max()
        if changed > TOL:
            rows, inputs = what[name]
            raise diagnose(sol, name) or Fail(
                f"with the causal mask, {rows} 0..{t} must not change when the tokens after {t} do; replacing "
                f"rows {t + 1}.. of {inputs} changed them by up to {changed:.4f}")


@prop("attention_weights")
def weights_causal(sol: Solution) -> None:
    _causal(sol, "attention_weights", 7)


@prop("attention_weights")
def weights_scale(sol: Solution) -> None:
    for (lead, n, n_k), c in product((((), 1, 13), ((), 7, 7), ((), 13, 13), (BATCH, 7, 7)), (8, 16)):
        Q, K, _ = _qkv(8 + n + len(lead), lead, n, 8, n_k=n_k)  # 1 query (a decoding step) against 13 keys too
        wide = _batched(sol, lambda Q=Q, K=K, c=c: _call(sol, "attention_weights", np.tile(Q, c), np.tile(K, c)))
        want = _batched(sol, lambda Q=Q, K=K, c=c: _call(sol, "attention_weights", np.sqrt(c) * Q, K))
        if not close(wide, want):
            raise diagnose(sol, "attention_weights") or Fail(
                f"the scale is 1/√d: repeating every feature of Q and K {c} times (d from 8 to {8 * c}) multiplies "
                f"each dot product by {c} and √d by √{c}, so the weights must equal those of √{c}·Q with K; "
                f"yours differ by up to {np.abs(wide - want).max():.4f}")


def _large(seed: int, d: int = 8) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K, V whose scores reach about 1,000 in some rows and stay near 1 in others."""
    Q, K, V = _qkv(seed, (), 7, d)
    return Q * np.array([1000.0, 1.0, 300.0, 1.0, 1000.0, 0.1, 1.0])[:, None], K, V


def _far_below(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K, V whose scores all lie within 1,000 of -110,000, as a head of pythia-70m's layer 5 gives on real text
    (TransformerLens #385): every key shares one large component (1,000 on axis 0), every query points against it."""
    Q, K, V = _qkv(seed, (), 7, 8)
    axis0 = np.eye(8)[0]
    return Q - 311.0 * axis0, K + 1000.0 * axis0, V


@prop("attention_weights")
def weights_large_scores(sol: Solution) -> None:
    Q, K, _ = _large(9)
    for mask in (None, reference_mask(7)):
        got = _call(sol, "attention_weights", Q, K, mask=mask)
        _expect(sol, "attention_weights", got, reference_weights(Q, K, mask), (Q, K), mask)
    Q, K, _ = _far_below(24)
    got = _call(sol, "attention_weights", Q, K, mask=reference_mask(7))
    _expect(sol, "attention_weights", got, reference_weights(Q, K, reference_mask(7)), (Q, K), reference_mask(7),
            advice=FAR)


@prop("attention_weights")
def weights_no_loop(sol: Solution) -> None:
    rng = np.random.default_rng(10)
    shapes = {"small": (8, 8), "queries": (64, 8), "heads": (8, 8, 8)}
    sizes = {label: (rng.normal(size=s), rng.normal(size=s)) for label, s in shapes.items()}
    no_loop(sol, "attention_weights", sizes, lambda Q, K: _raw(sol, "attention_weights", Q, K, None, None),
             "compute every score at once: Q @ np.swapaxes(K, -1, -2) is (..., n_q, n_k), and the softmax works "
             "along its last axis")


# ---------------------------------------------------------------------------
# attention
# ---------------------------------------------------------------------------


@prop("attention")
def attn_shape(sol: Solution) -> None:
    for n, d in SIZES:
        _raw(sol, "attention", *_qkv(n, (), n, d), None)
    _raw(sol, "attention", *_qkv(1, (), CROSS[0], 16, d_v=4, n_k=CROSS[1]), None)
    Q, K, V = _qkv(2, BATCH, 7, 8, d_v=5)
    _batched(sol, lambda: _call(sol, "attention", Q, K, V, reference_mask(7)))
    _broadcast(sol, "attention", values=False)


@prop("attention")
def attn_values(sol: Solution) -> None:
    # the worked example: with the causal mask, bites' output is 0.33·dog + 0.67·bites
    got = _call(sol, "attention", TOY, TOY, TOY, reference_mask(3))
    want = reference_attention(TOY, TOY, TOY, reference_mask(3))
    if not close(got, want):
        raise diagnose(sol, "attention") or Fail(
            f"attention(X, X, X, mask=causal_mask(3)) for X = [[1, 0], [0, 1], [1, 1]] must be "
            f"{fmt(want, 3, 6)} row by row; yours is {fmt(got, 3, 6)}")
    for n, d in SIZES:
        Q, K, V = _qkv(n + d, (), n, d, d_v=d // 2)
        for mask in (None, reference_mask(n)):
            got = _call(sol, "attention", Q, K, V, mask)
            _expect(sol, "attention", got, reference_attention(Q, K, V, mask), (Q, K, V), mask)
    Q, K, V = _qkv(3, (), CROSS[0], 16, d_v=4, n_k=CROSS[1])
    _expect(sol, "attention", _call(sol, "attention", Q, K, V), reference_attention(Q, K, V), (Q, K, V), None)
    Q, K, V = _qkv(21, BATCH, 7, 8)  # batch and heads, one mask for all
    got = _batched(sol, lambda: _call(sol, "attention", Q, K, V, reference_mask(7)))
    _expect(sol, "attention", got, reference_attention(Q, K, V, reference_mask(7)), (Q, K, V), reference_mask(7))
    _broadcast(sol, "attention")


@prop("attention")
def attn_weighted_average(sol: Solution) -> None:
    Q, K, V = _qkv(13, (), 7, 16)
    same = np.tile(V[:1], (7, 1))  # every value row the same vector v
    for mask in (None, reference_mask(7)):
        out = _call(sol, "attention", Q, K, same, mask)
        if not close(out, same):
            raise diagnose(sol, "attention") or Fail(
                f"the output is a weighted average of the values with weights summing to 1, so when every value "
                f"row is the same v, every output row is v = {fmt(same[0])}; yours has {fmt(out[np.argmax(np.abs(out - same).max(axis=1))])}")
        out = _call(sol, "attention", Q, K, V, mask)
        if np.any(out < V.min(axis=0) - TOL) or np.any(out > V.max(axis=0) + TOL):
            raise diagnose(sol, "attention") or Fail(
                "a weighted average lies between the smallest and largest value in each column; yours "
                "leaves that range")


@prop("attention")
def attn_causal(sol: Solution) -> None:
    _causal(sol, "attention", 14)


ORDER = np.array([3, 6, 0, 5, 1, 4, 2])  # a reordering of 7 tokens


@prop("attention")
def attn_permutation(sol: Solution) -> None:
    for lead, n, d in (((), 7, 64), ((), 13, 128), (BATCH, 7, 8)):
        Q, K, V = _qkv(15 + n, lead, n, d)
        p = ORDER if n == 7 else np.random.default_rng(n).permutation(n)
        out = _batched(sol, lambda Q=Q, K=K, V=V: _call(sol, "attention", Q, K, V))
        moved = _call(sol, "attention", Q[..., p, :], K[..., p, :], V[..., p, :])
        if not close(moved, out[..., p, :]):
            raise diagnose(sol, "attention") or Fail(
                f"without a mask attention is blind to order: attention(Q[p], K[p], V[p]) must equal "
                f"attention(Q, K, V)[p] for p = {fmt(p, 0, n)} (the same reordering of the rows of Q, K and V); "
                f"yours differs by up to {np.abs(moved - out[..., p, :]).max():.4f}")
        keys = _call(sol, "attention", Q, K[..., p, :], V[..., p, :])
        if not close(keys, out):
            raise diagnose(sol, "attention") or Fail(
                "a query's output must not depend on the order of the keys: reordering the rows of K and V "
                f"together (p = {fmt(p, 0, n)}) changed attention(Q, K, V) by up to {np.abs(keys - out).max():.4f}")
    Q, K, V = _qkv(16, (), 7, 64)
    r = np.arange(7)[::-1]
    reversed_out = _call(sol, "attention", Q[r], K[r], V[r], reference_mask(7))
    out = _call(sol, "attention", Q, K, V, reference_mask(7))
    if np.abs(reversed_out - out[r]).max() < 1e-3:
        raise diagnose(sol, "attention") or Fail(
            "with the causal mask order matters: reversing 7 tokens must not just reverse the output (the first "
            "query of the reversed input sees only itself, the same token last saw all seven); yours is reversed "
            "exactly, as if nothing were masked")


@prop("attention")
def attn_batch_axes(sol: Solution) -> None:
    for kv, mask in product((BATCH, GROUPED), (None, reference_mask(7))):  # K and V of 3 heads, then of 1
        Q, K, V = _qkv(17, BATCH, 7, 8, kv_lead=kv)
        out = _batched(sol, lambda Q=Q, K=K, V=V, mask=mask: _call(sol, "attention", Q, K, V, mask))
        for b, h in ((0, 0), (1, 2), (0, 1)):
            g = h if kv == BATCH else 0  # the key/value head that query head h reads
            alone = _call(sol, "attention", Q[b, h], K[b, g], V[b, g], mask)
            if not close(out[b, h], alone):
                raise diagnose(sol, "attention") or Fail(
                    f"leading axes must pass through: attention(Q, K, V) for Q of shape (2, 3, 7, 8) and K of shape "
                    f"{K.shape} must give at [{b}, {h}] what attention(Q[{b}, {h}], K[{b}, {g}], V[{b}, {g}]) gives; "
                    "transpose only K's last two axes (np.swapaxes(K, -1, -2)) and sum over the last axis only")


@prop("attention")
def attn_large_scores(sol: Solution) -> None:
    Q, K, V = _large(18)
    for mask in (None, reference_mask(7)):
        got = _call(sol, "attention", Q, K, V, mask)
        _expect(sol, "attention", got, reference_attention(Q, K, V, mask), (Q, K, V), mask)
    Q, K, V = _far_below(25)
    got = _call(sol, "attention", Q, K, V, reference_mask(7))
    _expect(sol, "attention", got, reference_attention(Q, K, V, reference_mask(7)), (Q, K, V), reference_mask(7),
            advice=FAR)


@prop("attention")
def attn_no_loop(sol: Solution) -> None:
    rng = np.random.default_rng(19)
    shapes = {"small": (8, 8), "queries": (64, 8), "heads": (8, 8, 8)}
    sizes = {label: tuple(rng.normal(size=s) for _ in range(3)) for label, s in shapes.items()}
    no_loop(sol, "attention", sizes, lambda Q, K, V: _raw(sol, "attention", Q, K, V, None),
             "weight every value row at once: attention_weights(Q, K, mask) @ V is (..., n_q, d_v)")
