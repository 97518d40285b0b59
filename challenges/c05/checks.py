"""Challenge 05's properties: what a correct `append_keys` and
`decode_attention` do, and the classic mistakes, recognised and named.

The reference is the full causal pass of the lessons, the one home of each
idea: `lessons.rope.apply_rope_half` turns the queries and keys of the whole
sequence, `lessons.attention.scaled_dot_product_attention` attends under
`lessons.attention.causal_mask`. A decoding step with a cache must give the
rows of that pass; the cache must hold the keys it turned. A recognised
mistake is a wrong step this module rebuilds from the same functions (the
new token at position 0 or one too far, the key cached unturned, the cache
turned again, the values turned, the mask aligned to the top left, ...):
when the learner's output equals one of them at two head widths, the hint
names it.
"""

from __future__ import annotations

import numpy as np

from challenges._props import Fail, Solution, close, fmt, mistake, no_loop, precision_note, registry, worst
from lessons.attention import causal_mask, scaled_dot_product_attention
from lessons.rope import apply_rope_half

# the functions the learner's file must define, as the starter declares them
FUNCTIONS = {
    "append_keys": "append_keys(cache_k, k, base=10000.0)",
    "decode_attention": "decode_attention(q, k, v, cache_k, cache_v, base=10000.0)",
}

# numpy's floating-point error -> the likely mistake, in this challenge's words (replaces _props' entries)
NOT_FINITE_CAUSES = {
    "overflow": "np.exp of a large score: subtract each row's largest score, scores.max(axis=-1, keepdims=True), "
                "before the exponential; it changes no weight",
    "invalid value": "0/0: a row whose keys are all masked (the new token must see every cached key and itself) "
                     "or whose exponentials all overflowed",
}

PROPERTIES, prop = registry()

KEYS_SHAPE = "(..., t + n, d): the cache's rows, then the new keys"
OUT_SHAPE = "(..., n, d_v): one row per new token"
BATCH = (2, 3)  # (batch, heads)
# (heads, cached tokens t, head width d, base) a single decoding step is compared at: odd lengths, Llama 3's base
STEPS = ((1, 0, 8, 10000.0), (2, 7, 8, 10000.0), (4, 13, 64, 10000.0), (2, 9, 128, 500000.0), (3, 1, 64, 10000.0))
# (heads, tokens, d, base) decoded token by token from an empty cache
SEQUENCES = ((1, 7, 8, 10000.0), (2, 13, 64, 10000.0), (3, 9, 128, 10000.0), (2, 11, 64, 500000.0))
# (heads, prompt, tokens decoded after it, d)
PROMPTS = ((2, 5, 4, 8), (1, 9, 3, 64), (4, 13, 2, 128))
# (heads, cached tokens, new tokens, d): a second chunk of prompt on top of a cache
CHUNKS = ((2, 6, 5, 64), (1, 3, 9, 8), (3, 11, 7, 128))
LENGTHS = (0, 1, 6, 100, 1000)  # cache lengths the new key's position is read at
# (heads, cached tokens, d, d_v): values narrower or wider than the keys (DeepSeek's MLA: 192 and 128);
# the scale is 1/√d, the query's and key's width, whatever the values' width
VALUE_WIDTHS = ((2, 6, 64, 32), (1, 4, 192, 128), (2, 3, 8, 24))


# ---------------------------------------------------------------------------
# The reference: the full causal pass, and one step rebuilt from it
# ---------------------------------------------------------------------------


def full_pass(Q: np.ndarray, K: np.ndarray, V: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Every token at once: RoPE at positions 0..T-1, causal attention. (..., T, d_v)"""
    rotated_q, rotated_k = apply_rope_half(Q, None, base), apply_rope_half(K, None, base)
    return scaled_dot_product_attention(rotated_q, rotated_k, V, mask=causal_mask(Q.shape[-2]))[0]


def _at(cache_k: np.ndarray, n: int, shift: int = 0) -> np.ndarray:
    """The positions of n new tokens after the cache (shifted by `shift`): (n,)"""
    return cache_k.shape[-2] + shift + np.arange(n)


def _cat(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.concatenate([a, b], axis=-2)


def right_keys(cache_k, k, base=10000.0) -> np.ndarray:
    """The cache, then the new keys turned at t .. t+n-1: (..., t + n, d)"""
    return _cat(cache_k, apply_rope_half(k, _at(cache_k, k.shape[-2]), base))


def _step(q, keys, values, t: int, mask: str = "causal", scale: float = 1.0) -> np.ndarray:
    """Attention of the turned queries q (..., n, d) over keys and values (..., t + n, .)."""
    n = q.shape[-2]
    masks = {"causal": causal_mask(t + n)[t:], "top-left": causal_mask(t + n)[:n], "none": None}
    return scaled_dot_product_attention(q * scale, keys, values, mask=masks[mask])[0]


def right_step(q, k, v, cache_k, cache_v, base=10000.0) -> np.ndarray:
    """What decode_attention returns: (..., n, d_v)"""
    turned_q = apply_rope_half(q, _at(cache_k, q.shape[-2]), base)
    return _step(turned_q, right_keys(cache_k, k, base), _cat(cache_v, v), cache_k.shape[-2])


# ---------------------------------------------------------------------------
# The classic mistakes, rebuilt
# ---------------------------------------------------------------------------

POSITIONS_FROM_0 = ("positions counted from 0",
                    "the new tokens are numbered from 0 in every call (np.arange(n)), so a decoding step is at "
                    "position 0 whatever the cache holds; they sit after the cache: positions t .. t+n-1, "
                    "t = cache_k.shape[-2]")
OFF_BY_ONE = ("position off by one",
              "the new tokens are turned one position too far (t+1 .. t+n), as when the length is read after the "
              "new key is appended; the cache's length t before the append is the first new position")
ROTATED_AGAIN = ("cached keys rotated again",
                 "the cached keys were turned when they were stored, and you turn them again (the key at j ends up "
                 "at 2j); keep the cache as it is and turn only the new keys")


def _key_mistakes():
    """(name, explanation, wrong append_keys(cache_k, k, base), classic?)."""
    yield ("key cached before rotation",
           "you appended the new keys as they came; rotate them at their positions t .. t+n-1 before they go in: "
           "a cached key is never turned again, so it must be stored turned",
           lambda ck, k, b: _cat(ck, k), True)
    yield (*POSITIONS_FROM_0, lambda ck, k, b: _cat(ck, apply_rope_half(k, np.arange(k.shape[-2]), b)), True)
    yield (*OFF_BY_ONE, lambda ck, k, b: _cat(ck, apply_rope_half(k, _at(ck, k.shape[-2], 1), b)), True)
    yield (*ROTATED_AGAIN, lambda ck, k, b: apply_rope_half(_cat(ck, k), None, b), True)


def _turned(x, cache_k, base, shift=0):
    return apply_rope_half(x, _at(cache_k, x.shape[-2], shift), base)


def _keys_at_query(q, k, v, ck, cv, b):
    """Every key (cache and new) turned by the new tokens' positions, which broadcast only for one token."""
    n, t = q.shape[-2], ck.shape[-2]
    keys = apply_rope_half(_cat(ck, k), t if n == 1 else _at(ck, n), b)  # raises when t > 0 and n > 1
    return _step(_turned(q, ck, b), keys, _cat(cv, v), t)


def _decode_mistakes():
    """(name, explanation, wrong decode_attention(q, k, v, cache_k, cache_v, base), classic?)."""
    yield (*POSITIONS_FROM_0, lambda q, k, v, ck, cv, b: _step(
        apply_rope_half(q, np.arange(q.shape[-2]), b), _cat(ck, apply_rope_half(k, np.arange(k.shape[-2]), b)),
        _cat(cv, v), ck.shape[-2]), True)
    yield (*OFF_BY_ONE, lambda q, k, v, ck, cv, b: _step(
        _turned(q, ck, b, 1), _cat(ck, _turned(k, ck, b, 1)), _cat(cv, v), ck.shape[-2]), True)
    yield ("query at position 0",
           "your new keys are at their true positions but the query is turned at its index among the new tokens "
           "(0 for a decoding step); the query of the token at position t turns by t·θ, like its key",
           lambda q, k, v, ck, cv, b: _step(apply_rope_half(q, np.arange(q.shape[-2]), b), right_keys(ck, k, b),
                                            _cat(cv, v), ck.shape[-2]), True)
    yield ("query not rotated",
           "the keys are turned but the query is not; turn the query at the same positions t .. t+n-1, so "
           "that q·k depends on how far apart the two tokens are",
           lambda q, k, v, ck, cv, b: _step(q, right_keys(ck, k, b), _cat(cv, v), ck.shape[-2]), False)
    yield (*ROTATED_AGAIN, lambda q, k, v, ck, cv, b: _step(
        _turned(q, ck, b), apply_rope_half(_cat(ck, k), None, b), _cat(cv, v), ck.shape[-2]), True)
    yield ("keys turned by the query's position",
           "you turn every key, cached and new, by the new token's position t; the cached keys are already "
           "turned at their own positions: turn only the new key, at t, and append it",
           _keys_at_query, False)
    yield ("values rotated",
           "you turned the values too; RoPE turns only q and k, so that their dot product depends on the "
           "offset: a turned value makes the output depend on where the tokens sit (lessons.rope.head_output_change)",
           lambda q, k, v, ck, cv, b: _step(_turned(q, ck, b), right_keys(ck, k, b), _cat(cv, _turned(v, ck, b)),
                                            ck.shape[-2]), True)
    yield ("no scaling",
           "your scores are q·k; divide them by √d (d = q.shape[-1]) before the softmax, in a decoding step as "
           "in the full pass",
           lambda q, k, v, ck, cv, b: _step(_turned(q, ck, b), right_keys(ck, k, b), _cat(cv, v), ck.shape[-2],
                                            scale=np.sqrt(q.shape[-1])), True)
    yield ("causal mask aligned top-left",
           "your mask lets new token i see keys 0 .. i (np.tril of an (n, t+n) array, torch's is_causal when "
           "the lengths differ), so a decoding step sees only the first cached key; token i sits at t+i and "
           "sees keys 0 .. t+i: the last n rows of the (t+n, t+n) causal mask",
           lambda q, k, v, ck, cv, b: _step(_turned(q, ck, b), right_keys(ck, k, b), _cat(cv, v), ck.shape[-2],
                                            mask="top-left"), True)
    yield ("no causal mask",
           "with several new tokens (the prompt) each one sees the later ones; the new token at t+i sees the "
           "keys 0 .. t+i only (one decoding step needs no mask, a prompt does)",
           lambda q, k, v, ck, cv, b: _step(_turned(q, ck, b), right_keys(ck, k, b), _cat(cv, v), ck.shape[-2],
                                            mask="none"), False)


# ---------------------------------------------------------------------------
# Recognising them: probes at head widths 8 and 64, decoding steps and prompts
# ---------------------------------------------------------------------------


def sequence(seed: int, lead: tuple[int, ...], length: int, d: int, d_v: int | None = None):
    """Random Q, K (lead, length, d) and V (lead, length, d_v), unturned."""
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(*lead, length, d)), rng.normal(size=(*lead, length, d)),
            rng.normal(size=(*lead, length, d if d_v is None else d_v)))


def split(Q, K, V, t: int, n: int, base: float = 10000.0):
    """(q, k, v, cache_k, cache_v) for the tokens t .. t+n-1 after a cache of the first t, turned as it should be."""
    new = (Q[..., t:t + n, :], K[..., t:t + n, :], V[..., t:t + n, :])
    return (*new, apply_rope_half(K[..., :t, :], None, base), V[..., :t, :])


# (seed, heads, cached tokens, new tokens, d)
KEY_PROBES = ((61, 2, 5, 1, 8), (62, 3, 4, 3, 64))
DECODE_PROBES = ((63, 2, 5, 1, 8), (64, 3, 9, 1, 64), (65, 2, 0, 4, 8), (66, 2, 6, 3, 64))


def _probe(seed, h, t, n, d) -> tuple:
    Q, K, V = sequence(seed, (h,), t + n, d)
    return split(Q, K, V, t, n)


def _tried(run):
    """run()'s array, or None when it raises or fails."""
    try:
        return run()
    except (Fail, ValueError):
        return None


def _same(a, b) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and close(a, b))


def diagnose_keys(sol: Solution) -> Fail | None:
    """The named mistake behind wrong keys, or None if none is recognised."""
    probes = [_probe(*p)[1::2] for p in KEY_PROBES]  # (k, cache_k)
    got = [_tried(lambda k=k, ck=ck: _keys(sol, ck, k)) for k, ck in probes]
    if all(_same(g, right_keys(ck, k)) for g, (k, ck) in zip(got, probes, strict=True)):
        return None
    for name, why, wrong, classic in _key_mistakes():
        if all(_same(g, wrong(ck, k, 10000.0)) for g, (k, ck) in zip(got, probes, strict=True)):
            return mistake(name, why, classic)
    return None


RIGHT_FOR_YOUR_KEYS = ("your decode_attention is right for the keys your append_keys returns, but those are "
                       "wrong; fix append_keys first (the keys_ lines say how)")


def diagnose_decode(sol: Solution) -> Fail | None:
    """The named mistake behind a wrong decode_attention, or None if none is recognised."""
    probes = [_probe(*p) for p in DECODE_PROBES]
    got = [_tried(lambda p=p: _decode(sol, *p, diagnose=False)) for p in probes]

    def gives(step) -> bool:
        return all(_same(g, _tried(lambda p=p: step(*p, 10000.0))) for g, p in zip(got, probes, strict=True))

    if gives(right_step):
        return None
    if callable(getattr(sol.module, "append_keys", None)):
        theirs = [_tried(lambda p=p: _keys(sol, p[3], p[1])) for p in probes]
        if all(x is not None for x in theirs) and not all(
                close(x, right_keys(p[3], p[1])) for x, p in zip(theirs, probes, strict=True)):
            if all(_same(g, _step(_turned(p[0], p[3], 10000.0), x, _cat(p[4], p[2]), p[3].shape[-2]))
                   for g, x, p in zip(got, theirs, probes, strict=True)):
                return Fail(RIGHT_FOR_YOUR_KEYS)
    return next((mistake(name, why, classic) for name, why, step, classic in _decode_mistakes() if gives(step)),
                None)


# ---------------------------------------------------------------------------
# Calling the learner
# ---------------------------------------------------------------------------


def _keys(sol: Solution, cache_k, k, **kwargs) -> np.ndarray:
    shape = (*cache_k.shape[:-2], cache_k.shape[-2] + k.shape[-2], k.shape[-1])
    return sol.call("append_keys", cache_k, k, shape=shape, what=KEYS_SHAPE, **kwargs)


def _decode(sol: Solution, q, k, v, cache_k, cache_v, diagnose: bool = True, **kwargs) -> np.ndarray:
    """decode_attention through Solution.call; a call that fails is named when the mistake is recognised."""
    shape = (*q.shape[:-1], v.shape[-1])
    try:
        return sol.call("decode_attention", q, k, v, cache_k, cache_v, shape=shape, what=OUT_SHAPE, **kwargs)
    except Fail as fail:
        if not diagnose:
            raise
        raise diagnose_decode(sol) or fail from None


def _where(got, want, what: str = "output") -> str:
    """'output[i, j, ...] is X, expected Y' at the worst entry, with the precision note."""
    index, g, w = worst(got, want)
    return f"{what}[{', '.join(map(str, index))}] is {g:.4f}, expected {w:.4f}" + precision_note(got, want)


def _many(count: int, what: str) -> str:
    """'1 key', '5 keys'."""
    return f"{count} {what}{'' if count == 1 else 's'}"


def _setting(d: int, base: float) -> str:
    """'width 64' or 'width 128, base 500000'."""
    return f"width {d}" + ("" if base == 10000.0 else f", base {base:.0f}")


def _base(base: float) -> dict:
    return {} if base == 10000.0 else {"base": base}


def _batched(sol: Solution, run, name: str):
    """run() with batch and head axes; a call that raises gets the advice on leading axes."""
    try:
        return run()
    except Fail as fail:
        if "raised" not in str(fail) and "returned shape" not in str(fail):
            raise
        raise Fail(f"{fail}; leading axes (batch, heads) must pass through: {name} works on the last two axes "
                   "(x[..., :d//2], np.swapaxes(keys, -1, -2), np.concatenate(..., axis=-2))") from None


# ---------------------------------------------------------------------------
# append_keys
# ---------------------------------------------------------------------------


@prop("append_keys")
def keys_shape(sol: Solution) -> None:
    for h, t, n, d in ((2, 0, 1, 8), (2, 5, 1, 8), (1, 7, 3, 64), (4, 0, 9, 128)):
        Q, K, V = sequence(t + n, (h,), t + n, d)
        _, k, _, ck, _ = split(Q, K, V, t, n)
        _keys(sol, ck, k)


@prop("append_keys")
def keys_values(sol: Solution) -> None:
    # the worked example, d = 2: the key (1, 0) at position 1 turns by 1 radian
    got = _keys(sol, np.array([[1.0, 0.0]]), np.array([[1.0, 0.0]]))
    hand = np.array([[1.0, 0.0], [np.cos(1), np.sin(1)]])
    if not close(got, hand):
        raise diagnose_keys(sol) or Fail(
            f"append_keys([[1, 0]], [[1, 0]]) must be [[1, 0], [cos 1, sin 1]] ≈ {fmt(hand, 3, 4)} (the new key "
            f"is at position 1, the cache's length); yours is {fmt(got, 3, 4)}" + precision_note(got, hand))
    for h, t, d, base in STEPS:
        for n in (1, 5):
            Q, K, V = sequence(10 * t + n, (h,), t + n, d)
            _, k, _, _, _ = split(Q, K, V, t, n)
            ck = apply_rope_half(K[..., :t, :], None, base)
            got, want = _keys(sol, ck, k, **_base(base)), right_keys(ck, k, base)
            if not close(got, want):
                raise diagnose_keys(sol) or Fail(
                    f"append_keys: a cache of {_many(t, 'key')} and {n} new ({_setting(d, base)}) must give the cache, "
                    f"then the new keys turned at {t}{'' if n == 1 else f' .. {t + n - 1}'}; {_where(got, want, 'keys')}")


@prop("append_keys")
def keys_cache_kept(sol: Solution) -> None:
    for h, t, n, d in ((2, 6, 1, 8), (3, 11, 4, 64)):
        ck, k = (np.random.default_rng(t + s).normal(size=(h, m, d)) for s, m in ((0, t), (1, n)))
        got = _keys(sol, ck, k)
        if not close(got[..., :t, :], ck):
            raise diagnose_keys(sol) or Fail(
                f"the cache's {t} rows must come back unchanged: they were turned when they were stored; "
                f"append_keys changed them by up to {np.abs(got[..., :t, :] - ck).max():.4f}")


@prop("append_keys")
def keys_position_is_length(sol: Solution) -> None:
    k = np.random.default_rng(7).normal(size=(2, 1, 16))
    for t in LENGTHS:
        for ck in (np.zeros((2, t, 16)), np.random.default_rng(t).normal(size=(2, t, 16))):
            got = _keys(sol, ck, k)[..., t:, :]
            want = apply_rope_half(k, np.array([t]))
            if not close(got, want):
                raise diagnose_keys(sol) or Fail(
                    f"the new key's position is the cache's length: after {_many(t, 'cached key')} it turns by "
                    f"{t}·θ, whatever the cache holds; {_where(got, want, 'the new key')}")


@prop("append_keys")
def keys_full_pass(sol: Solution) -> None:
    for h, length, d, base in SEQUENCES:
        _, K, _ = sequence(length + d, (h,), length, d)
        want = apply_rope_half(K, None, base)
        for prompt in (0, 5):  # token by token from an empty cache, or a prompt of 5 first
            cache = np.zeros((h, 0, d))
            if prompt:
                cache = _keys(sol, cache, K[..., :prompt, :], **_base(base))
            for s in range(prompt, length):
                cache = _keys(sol, cache, K[..., s:s + 1, :], **_base(base))
                if not close(cache, want[..., :s + 1, :]):
                    raise diagnose_keys(sol) or Fail(
                        f"appending the keys of {length} tokens ({_setting(d, base)}) one by one"
                        f"{' after a prompt of 5' if prompt else ''}, from an empty cache, must give the keys a full "
                        f"pass turns, apply_rope(K, np.arange({length})); after token {s} the "
                        f"{_where(cache, want[..., :s + 1, :], 'cache')}")


@prop("append_keys")
def keys_batch_axes(sol: Solution) -> None:
    Q, K, V = sequence(8, BATCH, 9, 8)
    _, k, _, ck, _ = split(Q, K, V, 6, 3)
    got = _batched(sol, lambda: _keys(sol, ck, k), "append_keys")
    for b, h in ((0, 0), (1, 2), (0, 1)):
        if not close(got[b, h], _keys(sol, ck[b, h], k[b, h])):
            raise Fail(f"leading axes must pass through: append_keys on (batch, heads) = {BATCH} arrays must give "
                       f"at [{b}, {h}] what it gives for that slice alone")


@prop("append_keys")
def keys_no_loop(sol: Solution) -> None:
    rng = np.random.default_rng(9)
    sizes = {label: (rng.normal(size=(1, t, 8)), rng.normal(size=(1, n, 8)))
             for label, t, n in (("small", 8, 2), ("cached keys", 64, 2), ("new keys", 8, 16))}
    no_loop(sol, "append_keys", sizes, lambda ck, k: _keys(sol, ck, k),
            "turn every new key at once (the positions t + np.arange(n) against the speeds) and concatenate")


# ---------------------------------------------------------------------------
# decode_attention
# ---------------------------------------------------------------------------


def _expect(sol: Solution, got, want, text: str) -> None:
    if not close(got, want):
        raise diagnose_decode(sol) or Fail(f"{text}; {_where(got, want)}")


@prop("decode_attention")
def decode_shape(sol: Solution) -> None:
    for h, t, n, d, d_v in ((2, 0, 1, 8, 8), (2, 5, 1, 8, 4), (1, 7, 3, 64, 64), (4, 0, 9, 128, 128)):
        _decode(sol, *split(*sequence(t + n, (h,), t + n, d, d_v), t, n))


@prop("decode_attention")
def decode_values(sol: Solution) -> None:
    # the worked example, d = 2: the token (1, 0) at position 1 after the cached token (1, 0) at 0
    one, v0, v1 = np.array([[1.0, 0.0]]), np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])
    got = _decode(sol, one, one, v1, one, v0)
    scores = np.array([np.cos(1), 1.0]) / np.sqrt(2)
    hand = (np.exp(scores) / np.exp(scores).sum())[None, :]
    if not close(got, hand):
        raise diagnose_decode(sol) or Fail(
            f"the worked example: q = k = (1, 0) at position 1, the cache (1, 0) at 0, values (1, 0) and (0, 1): "
            f"the scores are (cos 1, 1)/√2 and the output {fmt(hand)}; yours is {fmt(got)}" + precision_note(got, hand))
    for h, t, d, base in STEPS:
        Q, K, V = sequence(t + d, (h,), t + 1, d)
        got = _decode(sol, *split(Q, K, V, t, 1, base), **_base(base))
        _expect(sol, got, full_pass(Q, K, V, base)[..., t:, :],
                f"decoding the token at position {t}, after a cache of {_many(t, 'key')} ({_setting(d, base)}), must "
                f"give row {t} of the full causal pass")
    for h, t, d, d_v in VALUE_WIDTHS:
        Q, K, V = sequence(t + d_v, (h,), t + 1, d, d_v)
        _expect(sol, _decode(sol, *split(Q, K, V, t, 1)), full_pass(Q, K, V)[..., t:, :],
                f"with keys of width {d} and values of width {d_v} the step must give the full pass's row: the "
                f"scores are divided by √{d}, the width of q and k, not of v")
    Q, K, V = sequence(5, (2,), 8, 16)
    Q = Q * 1000.0  # scores near 1,000 and beyond
    _expect(sol, _decode(sol, *split(Q, K, V, 7, 1)), full_pass(Q, K, V)[..., 7:, :],
            "with scores in the thousands (q 1,000 times larger) the step must still give the full pass's row")


@prop("decode_attention")
def decode_own_key(sol: Solution) -> None:
    rng = np.random.default_rng(12)
    q, k, v = rng.normal(size=(1, 16)), rng.normal(size=(1, 16)), rng.normal(size=(1, 16))
    s = float(q[0] @ k[0]) / 4.0  # q·k/√d: turning both by the same angle leaves it as it is
    for t in (0, 3, 50):
        got = _decode(sol, q, k, v, np.zeros((t, 16)), np.zeros((t, 16)))
        want = v * np.exp(s) / (t + np.exp(s))  # t cached zero keys score 0 and add nothing
        if not close(got, want):
            raise diagnose_decode(sol) or Fail(
                f"the new token's q and k turn by the same angle, so their score stays q·k/√d at any position; with "
                f"{t} cached zero keys and values the output must be v·e^s/({t} + e^s) = {fmt(want)}; yours is "
                f"{fmt(got)}" + precision_note(got, want))


@prop("decode_attention")
def decode_token_by_token(sol: Solution) -> None:
    for h, length, d, base in SEQUENCES:
        Q, K, V = sequence(length * d, (h,), length, d)
        full = full_pass(Q, K, V, base)
        for t in range(length):
            got = _decode(sol, *split(Q, K, V, t, 1, base), **_base(base))
            _expect(sol, got, full[..., t:t + 1, :],
                    f"decoding {length} tokens ({_setting(d, base)}, {_many(h, 'head')}) one by one, the token at "
                    f"position {t} (after {_many(t, 'cached key')}) must give row {t} of the full causal pass")


@prop("decode_attention")
def decode_prefill(sol: Solution) -> None:
    for h, prompt, after, d in PROMPTS:
        Q, K, V = sequence(prompt + d, (h,), prompt + after, d)
        full = full_pass(Q, K, V)
        got = _decode(sol, *split(Q, K, V, 0, prompt))
        _expect(sol, got, full[..., :prompt, :],
                f"a prompt of {prompt} tokens through an empty cache (width {d}) must give the first {prompt} rows "
                f"of the full causal pass, each token seeing itself and the tokens before it")
        for t in range(prompt, prompt + after):
            _expect(sol, _decode(sol, *split(Q, K, V, t, 1)), full[..., t:t + 1, :],
                    f"after a prompt of {prompt}, the token at position {t} must give row {t} of the full pass")


@prop("decode_attention")
def decode_chunk(sol: Solution) -> None:
    for h, t, n, d in CHUNKS:
        Q, K, V = sequence(t + n + d, (h,), t + n, d)
        got = _decode(sol, *split(Q, K, V, t, n))
        _expect(sol, got, full_pass(Q, K, V)[..., t:, :],
                f"{n} new tokens after a cache of {t} (a prompt in two chunks, width {d}) must give rows {t} .. "
                f"{t + n - 1} of the full causal pass: token {t}+i sees the keys 0 .. {t}+i")


@prop("decode_attention")
def decode_batch_axes(sol: Solution) -> None:
    Q, K, V = sequence(13, BATCH, 8, 8)
    for t, n in ((7, 1), (0, 8)):
        parts = split(Q, K, V, t, n)
        got = _batched(sol, lambda parts=parts: _decode(sol, *parts), "decode_attention")
        for b, h in ((0, 0), (1, 2), (0, 1)):
            alone = _decode(sol, *(p[b, h] for p in parts))
            if not close(got[b, h], alone):
                raise diagnose_decode(sol) or Fail(
                    f"leading axes must pass through: decode_attention on (batch, heads) = {BATCH} arrays must "
                    f"give at [{b}, {h}] what it gives for that slice alone")


@prop("decode_attention")
def decode_with_your_cache(sol: Solution) -> None:
    if not callable(getattr(sol.module, "append_keys", None)):
        raise Fail("this property builds the cache with your append_keys, which your file does not define")
    h, prompt, length, d = 2, 5, 11, 64
    Q, K, V = sequence(21, (h,), length, d)
    full = full_pass(Q, K, V)
    cache_k, cache_v, rows = np.zeros((h, 0, d)), np.zeros((h, 0, d)), []
    for start, stop in [(0, prompt)] + [(s, s + 1) for s in range(prompt, length)]:
        q, k, v = Q[..., start:stop, :], K[..., start:stop, :], V[..., start:stop, :]
        rows.append(_decode(sol, q, k, v, cache_k, cache_v))
        cache_k, cache_v = _keys(sol, cache_k, k), _cat(cache_v, v)
    got = np.concatenate(rows, axis=-2)
    if close(got, full):
        return
    ours = [_decode(sol, *split(Q, K, V, start, stop - start))
            for start, stop in [(0, prompt)] + [(s, s + 1) for s in range(prompt, length)]]
    if close(np.concatenate(ours, axis=-2), full):  # right with the checker's cache: the learner's cache is not
        raise Fail("your decode_attention gives the full pass with the checker's cache, but not with the cache "
                   "your append_keys builds; fix append_keys (the keys_ lines say how)")
    raise diagnose_decode(sol) or Fail(
        f"a prompt of {prompt} then {length - prompt} tokens one by one, each step with the cache your append_keys "
        f"built, must give the full causal pass; {_where(got, full, 'outputs')}")


@prop("decode_attention")
def decode_no_loop(sol: Solution) -> None:
    sizes = {label: split(*sequence(t, (h,), t + n, 8), t, n)
             for label, h, t, n in (("small", 1, 8, 2), ("cached keys", 1, 64, 2), ("new tokens", 1, 8, 16),
                                    ("heads", 8, 8, 2))}
    no_loop(sol, "decode_attention", sizes, lambda *parts: _decode(sol, *parts),
            "score every query against every key at once: q @ np.swapaxes(keys, -1, -2) is (..., n, t + n)")
