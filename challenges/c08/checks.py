"""Challenge 08's properties: what correct position ids and masks for left padding and packing do, and the classic
mistakes, recognised and named.

The reference values come from `lessons.position_ids`, the one home of these ideas (its `position_ids_from_mask` is
transformers 5.24's rule, held to the library's vectors by tests/test_position_ids.py); outputs are compared through its
`attend` (RoPE) and `forward_with_ids` (the tiny decoder). A recognised mistake is a wrong answer rebuilt from them:
when the learner's output equals one at both probe sizes, the hint names it.
"""

from __future__ import annotations

from functools import cache, partial

import numpy as np

from challenges._props import Fail, Solution, mistake, no_loop, registry
from lessons.attention import causal_mask
from lessons.position_ids import (LLAMA31_THETA, attend, default_position_ids, document_ids_from_position_ids,
                                  document_mask, forward_with_ids, padded_batch_mask)
from lessons.position_ids import packed_position_ids as reference_packed_ids
from lessons.position_ids import position_ids_from_mask as reference_ids
from lessons.positional import rope_frequencies
from lessons.transformer import TINY, TinyGPT

# the functions the learner's file must define, as the starter declares them
FUNCTIONS = {
    "position_ids_from_mask": "position_ids_from_mask(attention_mask)",
    "padded_attention_mask": "padded_attention_mask(attention_mask)",
    "packed_position_ids": "packed_position_ids(lengths)",
    "packed_attention_mask": "packed_attention_mask(position_ids)",
}

PROPERTIES, prop = registry()


def left_padded(real: tuple[int, ...], seq: int) -> np.ndarray:
    """(len(real), seq) 0/1 mask: row b is seq - real[b] padding slots, then real[b] real tokens."""
    return (np.arange(seq)[None, :] >= seq - np.asarray(real)[:, None]).astype(int)


WORKED = np.array([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])  # the page's worked example
# the masks of transformers 5.24's vectors (tests/data/position_ids_vectors.json, "mask_ids"); their ids come from
# the lesson's function, which tests/test_position_ids.py holds to the vectors' ids
TRANSFORMERS_MASKS = (WORKED, np.array([[0, 0, 0, 0, 1, 1], [0, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1]]),
                      np.array([[0, 0, 0, 0, 0, 1]]), np.array([[1, 1, 1, 1]]))
# real tokens per row, padded length: odd lengths, rows with no padding and rows that are nearly all padding
BATCHES = (((1,), 1), ((7, 4, 1), 7), ((13, 6, 1, 12), 13), ((64, 33, 1, 2, 63, 17, 40, 5), 64), ((127, 1, 64), 127))
PROBES = (left_padded((4, 7, 1), 7), left_padded((6, 13, 1, 12), 13))  # a mistake is named only if both match it
PACKS = ([3, 2, 4], [5], [1, 1, 6, 2], [1, 7, 1, 5, 2], [13, 1, 50, 63], [4] * 20, [127])
PACK_PROBES = ([3, 2, 4], [1, 7, 1, 5, 2])

# ids whose documents do not all start at 0: a chunk continued at its own ids, a jump up, ids from 2 as
# DataCollatorWithFlattening(position_ids_start=2) writes them; the two probes tell every cut mistake apart
CUT_PROBES = (np.r_[2:5, 0:3, 6:8, 1:3], np.r_[9:13, 0:5, 30:36, 1:4, 0:7])
JUMPS = (np.r_[5:8, 0:3], np.r_[0:3, 7:9], reference_packed_ids([3, 2, 4], start=2), *CUT_PROBES,
         np.r_[100:127, 0:50, 64:114])
LEARNED_PACKS = ([5, 3, 6], [1, 4, 2, 7])  # at most 16 tokens: the tiny decoder's learned table has 16 rows
WIDTHS = (8, 64, 128)  # head widths; 128 with Llama 3.1 8B's speeds (the lesson's attend), the others base 10,000
SPEEDS = {8: rope_frequencies(8), 64: rope_frequencies(64), 128: LLAMA31_THETA}


@cache
def tiny(position: str) -> TinyGPT:
    """The lessons' tiny decoder (2 layers, d_model 16, a 16-row learned table for "learned")."""
    return TinyGPT(**TINY, position=position)


def reference_padded_mask(mask: np.ndarray) -> np.ndarray:
    """The lesson's mask of each left-padded row, stacked: (batch, seq, seq) bools."""
    return np.stack([padded_batch_mask(int((row == 0).sum()), int(row.sum()))[1] for row in mask])


def reference_packed_mask(ids: np.ndarray) -> np.ndarray:
    """The cut read from the ids, as transformers reads it when it gets ids and no mask: (n, n) bools."""
    return document_mask(document_ids_from_position_ids(ids)[0])


def _same_document(ids: np.ndarray) -> np.ndarray:  # (n, n) bools: i and j in one document, read from the ids
    return (lambda doc: doc[:, None] == doc[None, :])(document_ids_from_position_ids(ids)[0])


def _ints(values) -> str:
    return str(np.asarray(values).astype(int).tolist())


# --- The classic mistakes, rebuilt from the reference -------------------------------------------------------

CUMSUM = "np.cumsum(attention_mask, axis=-1) - 1"
PLUS_ONE = "start one wherever an id is not the one before it plus one: ids[1:] != ids[:-1] + 1"


def _every(probe):  # where a mistake is compared: every entry; the real tokens' slots are m == 1, rows below
    return ...


def _real_rows(mask):
    return np.broadcast_to(mask[:, :, None] == 1, (*mask.shape, mask.shape[-1]))


def _ids_mistakes():
    """(name, explanation, wrong position_ids_from_mask(mask), where(mask): the entries compared)."""
    yield ("padding counted",
           "your ids count every slot of the padded row, padding included (np.arange(seq) for every row, what a "
           "forward call uses when it is given no ids), so a row's first real token sits at its number of "
           f"padding slots instead of 0; count only the real tokens: {CUMSUM}",
           lambda m: np.broadcast_to(default_position_ids(m.shape[-1]), m.shape), lambda m: m == 1)
    yield ("cumsum without subtracting 1",
           "np.cumsum(attention_mask, axis=-1) counts the real tokens up to and including this one, so each row's "
           "first real token gets 1; subtract 1, and write 0 at the padding slots",
           lambda m: reference_ids(m) + m, lambda m: m == 1)
    yield ("padding slots left at -1",
           f"{CUMSUM} is -1 at every padding slot; write 0 there (np.where(attention_mask == 1, ids, 0)), as "
           "transformers 5.24 does: an id of -1 reads a learned table's last row in numpy, and PyTorch's "
           "nn.Embedding raises on it", lambda m: reference_ids(m) - (1 - m), _every)


def _padded_mistakes():
    """(name, explanation, wrong padded_attention_mask(mask), where(mask): the entries compared)."""
    yield ("padding columns left open",
           "your mask is the plain causal mask: every real token still reads the padding keys before it, so a "
           "padded row's outputs depend on its padding; block key j wherever attention_mask[b, j] is 0: "
           "causal & (attention_mask[:, None, :] == 1), then let each padding query read itself",
           lambda m: np.broadcast_to(causal_mask(m.shape[-1]), (*m.shape, m.shape[-1])), _real_rows)
    yield ("padding rows left empty",
           "a padding query may read no key at all (every key up to it is padding), so its softmax row is 0/0 = "
           "NaN, and in the next layer 0 × NaN carries the NaN into every real token; let each padding query "
           "read itself: | np.eye(seq, dtype=bool)",
           lambda m: causal_mask(m.shape[-1]) & (m[:, None, :] == 1), _every)
    yield ("padding mask without causality",
           "you blocked the padding keys but not the future: a real token reads every real key of its row, "
           "the later ones too; combine it with the causal mask, np.tril(np.ones((seq, seq), dtype=bool))",
           lambda m: (m[:, None, :] == 1) | np.eye(m.shape[-1], dtype=bool), _real_rows)


def _packed_id_mistakes():
    """(name, explanation, wrong packed_position_ids(lengths), where)."""
    yield ("no restart",
           "your ids run 0 .. n-1 across the whole packed row (np.arange(sum(lengths))), so every document after "
           "the first starts late, and a model that reads the cut from the ids (transformers does, when it gets "
           "ids and no mask) finds one long document and cuts nothing; restart at 0 for every document",
           lambda lengths: default_position_ids(sum(lengths)), _every)
    yield ("ids start at 1",
           "each document's ids run 1 .. length; they start at 0: np.arange(length) for each document, "
           "concatenated", lambda lengths: reference_packed_ids(lengths, start=1), _every)


def _packed_mask_mistakes():
    """(name, explanation, wrong packed_attention_mask(ids), where)."""
    yield ("no attention cut",
           "your mask is the causal mask of the whole row, so every document reads the documents packed before "
           "it (the ids restart, but attention is not cut); let query i read key j only when j <= i and both "
           "are in the same document (a new one wherever the ids restart)", lambda ids: causal_mask(ids.size), _every)
    yield ("cut without causality",
           "you cut attention between documents but not the future inside each: a token reads the later tokens "
           "of its own document; combine the document blocks with the causal mask, "
           "np.tril(np.ones((n, n), dtype=bool))", _same_document, _every)
    yield ("cut only at id 0",
           "you start a new document only where an id is 0 (or the smallest id), so a document whose ids start "
           "elsewhere (a chunk continued at its own ids, or DataCollatorWithFlattening(position_ids_start=2)'s ids) "
           f"runs into the one before it; {PLUS_ONE}", lambda ids: document_mask(np.cumsum(ids == 0)), _every)
    yield ("cut only where the ids fall",
           "you start a new document only where an id is not above the one before it, so ids that jump up (a chunk "
           f"continued at 7, 8 after 0, 1, 2) run into the document before them; {PLUS_ONE}",
           lambda ids: document_mask(np.cumsum(np.r_[True, ids[1:] <= ids[:-1]])), _every)


# --- Calling the learner's functions, and naming what is wrong ----------------------------------------------


def _ids(sol: Solution, mask: np.ndarray) -> np.ndarray:
    return sol.call("position_ids_from_mask", mask, shape=mask.shape, what="(batch, seq)")


def _padded(sol: Solution, mask: np.ndarray) -> np.ndarray:
    return sol.call("padded_attention_mask", mask, shape=(*mask.shape, mask.shape[-1]),
                    what="(batch, seq, seq)").astype(bool)


def _packed_ids(sol: Solution, lengths: list[int]) -> np.ndarray:
    return sol.call("packed_position_ids", list(lengths), shape=(sum(lengths),), what="(sum(lengths),)")


def _packed_mask(sol: Solution, ids: np.ndarray) -> np.ndarray:
    return sol.call("packed_attention_mask", ids, shape=(ids.size, ids.size), what="(n, n)").astype(bool)


def _named(sol: Solution, call, probes, right, mistakes) -> Fail | None:
    """The named mistake whose rebuilt output the learner's equals on every probe (mistakes() yields each:
    name, explanation, wrong(probe), where(probe) = the entries compared), or None."""
    try:
        got = [call(sol, p) for p in probes]
    except Fail:
        return None
    if all(np.array_equal(g, right(p)) for g, p in zip(got, probes, strict=True)):
        return None
    for name, why, wrong, where in mistakes():
        if all(np.array_equal(g[where(p)], np.broadcast_to(wrong(p), g.shape)[where(p)])
               for g, p in zip(got, probes, strict=True)):
            return mistake(name, why)
    return None


# diagnose_*(sol): the named mistake the learner's function makes, or None
diagnose_ids = partial(_named, call=_ids, probes=PROBES, right=reference_ids, mistakes=_ids_mistakes)
diagnose_padded = partial(_named, call=_padded, probes=PROBES, right=reference_padded_mask, mistakes=_padded_mistakes)
diagnose_packed_ids = partial(_named, call=_packed_ids, probes=PACK_PROBES, right=reference_packed_ids,
                              mistakes=_packed_id_mistakes)
diagnose_packed_mask = partial(_named, call=_packed_mask, probes=CUT_PROBES, right=reference_packed_mask,
                               mistakes=_packed_mask_mistakes)


def _kind(sol: Solution, name: str, arg, kinds: str, want: str) -> None:
    """Fail unless name(arg) returns an array whose dtype kind is in `kinds`."""
    text, _, out = sol.attempt(name, arg)
    kind = np.asarray(out).dtype
    if kind.kind not in kinds:
        raise Fail(f"{text} returned {kind} values; {want}")


# --- What the outputs must be: the same tokens alone --------------------------------------------------------


def _qkv(seed: int, n: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return tuple(np.random.default_rng(seed).standard_normal((3, n, d)))  # the same draws as three (n, d) ones


def _alone(q, k, v, d: int) -> np.ndarray:
    n = len(q)
    return attend(q, k, v, np.arange(n), np.arange(n), causal_mask(n), SPEEDS[d])


def _padded_gaps(ids: np.ndarray, allowed: np.ndarray, mask: np.ndarray, d: int | None) -> list[float]:
    """Per row: the largest |output - the row's real tokens alone| over its real tokens, one head with RoPE at
    width d, or the tiny decoder with a learned table (d None: "learned") or RoPE (d 0: "rope")."""
    gaps = []
    for b, row in enumerate(mask):
        pad, seq = int((row == 0).sum()), row.size
        if d:
            q, k, v = _qkv(seq + d + b, seq, d)
            out = _outputs(attend, q, k, v, ids[b], ids[b], allowed[b], SPEEDS[d])
            want = _alone(q[pad:], k[pad:], v[pad:], d)
        else:
            model = tiny("learned" if d is None else "rope")
            tokens = np.random.default_rng(seq + b).integers(0, TINY["vocab_size"], seq)
            out = _outputs(forward_with_ids, model, tokens, ids[b], allowed[b])
            want = forward_with_ids(model, tokens[pad:], np.arange(seq - pad), causal_mask(seq - pad))
        gaps.append(np.inf if out is None else float(np.abs(out[pad:] - want).max()))
    return gaps


def _packed_gaps(lengths: list[int], ids: np.ndarray, allowed: np.ndarray, d: int | None) -> list[float]:
    """Per document: the largest |output - the document alone|, as _padded_gaps measures it."""
    n, edges = int(sum(lengths)), np.cumsum([0, *lengths])
    spans = list(zip(edges[:-1], edges[1:], strict=True))
    if d:
        q, k, v = _qkv(n + d, n, d)
        out = _outputs(attend, q, k, v, ids, ids, allowed, SPEEDS[d])
        want = [_alone(q[a:b], k[a:b], v[a:b], d) for a, b in spans]
    else:
        tokens = np.random.default_rng(n).integers(0, TINY["vocab_size"], n)
        out = _outputs(forward_with_ids, tiny("learned"), tokens, ids, allowed)
        want = [forward_with_ids(tiny("learned"), tokens[a:b], np.arange(b - a), causal_mask(b - a)) for a, b in spans]
    return [np.inf if out is None else float(np.abs(out[a:b] - w).max()) for (a, b), w in zip(spans, want, strict=True)]


def _outputs(run, *args):
    """run(*args), or None when a query may read no key (the lesson's softmax refuses such a row)."""
    try:
        return run(*args)
    except ValueError:
        return None


def _table_rows(ids: np.ndarray, real) -> None:
    """Fail when an id of a real token has no row in the tiny decoder's learned table."""
    worst = int(np.abs(np.asarray(ids)[real]).max())
    if worst >= TINY["max_len"]:
        raise Fail(f"your ids reach {worst} for at most {TINY['max_len']} tokens, past the learned table's "
                   f"{TINY['max_len']} rows (positions 0..{TINY['max_len'] - 1})")


# --- position_ids_from_mask ---------------------------------------------------------------------------------

ID_SHAPES = (left_padded((1,), 1), WORKED, left_padded((64, 1), 64), left_padded((1,) * 8, 127))


@prop("position_ids_from_mask")
def ids_shape(sol: Solution) -> None:
    for mask in ID_SHAPES:
        _ids(sol, mask)
    _kind(sol, "position_ids_from_mask", WORKED, "iu", "position ids index a table of positions: return integers "
          "(np.cumsum of an integer mask is one)")


@prop("position_ids_from_mask")
def ids_values(sol: Solution) -> None:
    for mask in TRANSFORMERS_MASKS + tuple(left_padded(*b) for b in BATCHES):
        got, want = _ids(sol, mask), reference_ids(mask)
        wrong = (got != want) & (mask == 1)
        if not wrong.any():
            continue
        if mask.size <= 24:
            raise diagnose_ids(sol) or Fail(
                f"position_ids_from_mask({_ints(mask)}) must be {_ints(want)} on the real tokens (each row's first "
                f"real token at 0); yours is {_ints(got)}")
        b, t = (int(i) for i in np.argwhere(wrong)[0])
        pad = int((mask[b] == 0).sum())
        raise diagnose_ids(sol) or Fail(
            f"position_ids_from_mask(x of shape {mask.shape}): row {b} has {pad} padding slots, then "
            f"{mask.shape[1] - pad} real tokens; the real token in slot {t} must have id {want[b, t]}, yours has "
            f"{got[b, t]:g}")


@prop("position_ids_from_mask")
def ids_padding_slots(sol: Solution) -> None:
    for mask in TRANSFORMERS_MASKS + tuple(left_padded(*b) for b in BATCHES):
        got = _ids(sol, mask)
        values = sorted(set(got[mask == 0].tolist()))
        if values in ([], [0.0]):
            continue
        if values == [1.0]:
            raise Fail("your padding slots hold 1, as the prepare_inputs_for_generation of transformers 4.x's "
                       "models wrote them (position_ids.masked_fill_(attention_mask == 0, 1)); this challenge follows transformers "
                       "5.24 and the lesson, which write 0. The slot is masked, so either works in a model, but "
                       "write 0 here")
        raise diagnose_ids(sol) or Fail(
            f"the padding slots of position_ids_from_mask({_ints(mask) if mask.size <= 24 else 'x'}) must hold 0 "
            f"(transformers 5.24 writes 0 there); yours hold {_ints(values[:6])}")


@prop("position_ids_from_mask")
def ids_each_row_alone(sol: Solution) -> None:
    mask = left_padded((13, 6, 1, 12), 13)
    batch = _ids(sol, mask)
    for b, row in enumerate(mask):
        for extra in (0, 5):
            alone = np.r_[np.zeros(extra, int), row][None, :]
            got = _ids(sol, alone)[0, extra:]
            real = row == 1
            if not np.array_equal(got[real], batch[b][real]):
                raise diagnose_ids(sol) or Fail(
                    f"a row's ids must not depend on the other rows or on its amount of padding: row {b} of a "
                    f"(4, 13) batch has the real ids {_ints(batch[b][real])}, but the same row alone"
                    f"{f' with {extra} more padding slots' if extra else ''} gets {_ints(got[real])}; count along "
                    f"each row (axis=-1), never along the batch (axis=0) or the flattened array")


@prop("position_ids_from_mask")
def ids_outputs_rope(sol: Solution) -> None:
    mask = left_padded((13, 6, 1, 12), 13)
    ids, allowed = _ids(sol, mask), reference_padded_mask(mask)
    for d in WIDTHS:
        gaps = _padded_gaps(ids, allowed, mask, d)
        if max(gaps) > 1e-9:
            raise diagnose_ids(sol) or Fail(
                f"with your ids and the right mask, one head with RoPE (d = {d}) must give each left-padded row's "
                f"real tokens the outputs of that row alone at ids 0..n-1; row {int(np.argmax(gaps))} is off by "
                f"{max(gaps):.3g}. RoPE forgives one offset for every token of a row, nothing else: your ids do "
                "not go up by one from token to token")


@prop("position_ids_from_mask")
def ids_outputs_learned(sol: Solution) -> None:
    for mask in PROBES:
        ids = _ids(sol, mask)
        _table_rows(ids, mask == 1)
        gaps = _padded_gaps(ids.astype(int), reference_padded_mask(mask), mask, None)
        if max(gaps) > 1e-9:
            raise diagnose_ids(sol) or Fail(
                "with your ids and the right mask, the tiny decoder with a learned position table must give each "
                f"left-padded row's real tokens the logits of that row alone; row {int(np.argmax(gaps))} of a "
                f"{mask.shape} batch is off by {max(gaps):.3g}: a table reads the id itself, so every real "
                "token's id must be its count of real tokens before it")


@prop("position_ids_from_mask")
def ids_no_loop(sol: Solution) -> None:
    sizes = {"small": (left_padded(tuple(range(1, 9)), 8),), "rows": (left_padded(tuple(range(1, 9)) * 8, 8),),
             "positions": (left_padded(tuple(range(8, 65, 8)), 64),)}
    no_loop(sol, "position_ids_from_mask", sizes, lambda m: _ids(sol, m),
            f"count every row at once: {CUMSUM} works along each row of the whole batch")


# --- padded_attention_mask ----------------------------------------------------------------------------------


def _masks() -> list[np.ndarray]:
    return [left_padded(real, seq) for real, seq in BATCHES]


def _mask_entry(mask: np.ndarray, b: int, i: int, j: int, got: bool) -> str:
    """'padded_attention_mask(...)[b, i, j] is True, for the real query i and the padding key j'."""
    def kind(t):
        return "real" if mask[b, t] else "padding"

    shown = _ints(mask) if mask.size <= 24 else f"x of shape {mask.shape}"
    return (f"padded_attention_mask({shown})[{b}, {i}, {j}] is {bool(got)}, for the {kind(i)} query {i} and the "
            f"{kind(j)} key {j}")


def _never(sol: Solution, diagnose, rule: str, entry, found) -> None:
    """found: (case, bools); Fail at the first True, `entry(case, *index, True)` saying where."""
    for case, bad in found:
        if bad.any():
            raise diagnose(sol) or Fail(f"{entry(case, *(int(x) for x in np.argwhere(bad)[0]), True)}; {rule}")


@prop("padded_attention_mask")
def pmask_shape(sol: Solution) -> None:
    for mask in ID_SHAPES:
        _padded(sol, mask)
    _kind(sol, "padded_attention_mask", WORKED, "b", "return booleans (True = may read): a mask of 0.0 and 1.0 "
          "cannot index and reads as True everywhere once compared")


@prop("padded_attention_mask")
def pmask_values(sol: Solution) -> None:
    for mask in [WORKED, *_masks()]:
        got = _padded(sol, mask)
        wrong = (got != reference_padded_mask(mask)) & (mask[:, :, None] == 1)  # real queries; padding: below
        if wrong.any():
            b, i, j = (int(x) for x in np.argwhere(wrong)[0])
            raise diagnose_padded(sol) or Fail(
                f"{_mask_entry(mask, b, i, j, got[b, i, j])}; a real query reads exactly the real keys at or "
                "before it")


@prop("padded_attention_mask")
def pmask_padding_keys(sol: Solution) -> None:
    _never(sol, diagnose_padded, "no real query reads padding", _mask_entry,
           ((m, _padded(sol, m) & (m[:, :, None] == 1) & (m[:, None, :] == 0)) for m in _masks()))


@prop("padded_attention_mask")
def pmask_causal(sol: Solution) -> None:
    _never(sol, diagnose_padded, "no query reads a later key", _mask_entry,
           ((m, _padded(sol, m) & ~causal_mask(m.shape[-1])) for m in _masks()))


@prop("padded_attention_mask")
def pmask_rows_nonempty(sol: Solution) -> None:
    for mask in _masks():
        empty = ~_padded(sol, mask).any(axis=-1)
        if empty.any():
            b, i = (int(x) for x in np.argwhere(empty)[0])
            raise diagnose_padded(sol) or Fail(
                f"query {i} of row {b} of padded_attention_mask(x of shape {mask.shape}) may read no key: its "
                "softmax row would be 0/0 = NaN; let every padding query read itself")


@prop("padded_attention_mask")
def pmask_outputs(sol: Solution) -> None:
    mask = left_padded((13, 6, 1, 12), 13)
    allowed, ids = _padded(sol, mask), reference_ids(mask)
    for d, what in ((0, "the tiny decoder with RoPE (2 layers)"), *((d, f"one head with RoPE (d = {d})")
                                                                   for d in WIDTHS)):
        gaps = _padded_gaps(ids, allowed, mask, d)
        if max(gaps) > 1e-9:
            raise diagnose_padded(sol) or Fail(
                f"with the right ids and your mask, {what} must give each left-padded row's real tokens the "
                f"outputs of that row alone; row {int(np.argmax(gaps))} is off by {max(gaps):.3g}")


@prop("padded_attention_mask")
def pmask_no_loop(sol: Solution) -> None:
    sizes = {"small": (left_padded(tuple(range(1, 9)), 8),), "rows": (left_padded(tuple(range(1, 9)) * 8, 8),)}
    no_loop(sol, "padded_attention_mask", sizes, lambda m: _padded(sol, m),
            "build every row at once: a (seq, seq) causal mask & attention_mask[:, None, :] broadcasts over the "
            "batch")


# --- packed_position_ids ------------------------------------------------------------------------------------


@prop("packed_position_ids")
def pids_shape(sol: Solution) -> None:
    for lengths in PACKS:
        _packed_ids(sol, lengths)
    _kind(sol, "packed_position_ids", [3, 2, 4], "iu", "position ids index a table of positions: return integers")


@prop("packed_position_ids")
def pids_values(sol: Solution) -> None:
    for lengths in PACKS:
        got, want = _packed_ids(sol, lengths), reference_packed_ids(lengths)
        if not np.array_equal(got, want):
            raise diagnose_packed_ids(sol) or Fail(
                f"packed_position_ids({lengths if len(lengths) <= 8 else f'[{lengths[0]}] * {len(lengths)}'}) must "
                f"be {_ints(want[:12])[:-1]}{', ...' if want.size > 12 else ''}]; yours is {_ints(got[:12])[:-1]}"
                f"{', ...' if got.size > 12 else ''}]")


@prop("packed_position_ids")
def pids_restart(sol: Solution) -> None:
    for lengths in PACKS:
        got, edges = _packed_ids(sol, lengths), np.cumsum([0, *lengths])
        for k, (a, b) in enumerate(zip(edges[:-1], edges[1:], strict=True)):
            if not np.array_equal(got[a:b], np.arange(b - a)):
                raise diagnose_packed_ids(sol) or Fail(
                    f"document {k} of packed_position_ids({lengths}) (slots {a}..{b - 1}) must have the ids "
                    f"0..{b - a - 1}, as if it were alone; yours are {_ints(got[a:b][:8])}")


@prop("packed_position_ids")
def pids_outputs_rope(sol: Solution) -> None:
    for lengths, d in zip(PACK_PROBES + ([13, 1, 50, 63],), WIDTHS, strict=True):
        ids = _packed_ids(sol, lengths)
        gaps = _packed_gaps(lengths, ids, reference_packed_mask(ids), d)
        if max(gaps) > 1e-9:
            raise diagnose_packed_ids(sol) or Fail(
                f"with your ids and the cut read from them (as transformers reads it when no mask is passed), one "
                f"head with RoPE (d = {d}) must give each document of {lengths} the outputs it has alone; document "
                f"{int(np.argmax(gaps))} is off by {max(gaps):.3g}")


@prop("packed_position_ids")
def pids_outputs_learned(sol: Solution) -> None:
    for lengths in LEARNED_PACKS:
        ids = _packed_ids(sol, lengths)
        _table_rows(ids, slice(None))
        gaps = _packed_gaps(lengths, ids.astype(int), reference_packed_mask(ids), None)
        if max(gaps) > 1e-9:
            raise diagnose_packed_ids(sol) or Fail(
                f"with your ids and the cut read from them, the tiny decoder with a learned position table must "
                f"give each document of {lengths} the logits it has alone; document {int(np.argmax(gaps))} is off "
                f"by {max(gaps):.3g}")


# --- packed_attention_mask ----------------------------------------------------------------------------------


def _cut_entry(ids: np.ndarray, i: int, j: int, got: bool) -> str:
    doc, shown = document_ids_from_position_ids(ids)[0], _ints(ids) if ids.size <= 24 else f"x of {ids.size} ids"
    return (f"packed_attention_mask({shown})[{i}, {j}] is {bool(got)}, for query {i} (id {ids[i]}, document "
            f"{doc[i]}) and key {j} (id {ids[j]}, document {doc[j]})")


@prop("packed_attention_mask")
def amask_shape(sol: Solution) -> None:
    for lengths in PACKS:
        _packed_mask(sol, reference_packed_ids(lengths))
    _kind(sol, "packed_attention_mask", reference_packed_ids([3, 2, 4]), "b",
          "return booleans (True = may read): a mask of 0.0 and 1.0 cannot index")


@prop("packed_attention_mask")
def amask_values(sol: Solution) -> None:
    for ids in [reference_packed_ids(lengths) for lengths in PACKS] + list(JUMPS):
        got, want = _packed_mask(sol, ids), reference_packed_mask(ids)
        if not np.array_equal(got, want):
            i, j = (int(x) for x in np.argwhere(got != want)[0])
            raise diagnose_packed_mask(sol) or Fail(
                f"{_cut_entry(ids, i, j, got[i, j])}; a query reads exactly the keys at or before it in its own "
                "document, and a new document starts wherever an id is not the one before it plus one")


@prop("packed_attention_mask")
def amask_documents(sol: Solution) -> None:
    _never(sol, diagnose_packed_mask, "attention never crosses documents", _cut_entry,
           ((ids, _packed_mask(sol, ids) & ~_same_document(ids)) for ids in map(reference_packed_ids, PACKS)))


@prop("packed_attention_mask")
def amask_causal(sol: Solution) -> None:
    _never(sol, diagnose_packed_mask, "no query reads a later key", _cut_entry,
           ((ids, _packed_mask(sol, ids) & ~causal_mask(ids.size)) for ids in map(reference_packed_ids, PACKS)))


@prop("packed_attention_mask")
def amask_outputs(sol: Solution) -> None:
    for lengths, d in zip(PACK_PROBES + ([13, 1, 50, 63],), WIDTHS, strict=True):
        ids = reference_packed_ids(lengths)
        gaps = _packed_gaps(lengths, ids, _packed_mask(sol, ids), d)
        if max(gaps) > 1e-9:
            raise diagnose_packed_mask(sol) or Fail(
                f"with the right ids and your mask, one head with RoPE (d = {d}) must give each document of "
                f"{lengths} the outputs it has alone; document {int(np.argmax(gaps))} is off by {max(gaps):.3g}")


@prop("packed_attention_mask")
def amask_no_loop(sol: Solution) -> None:
    sizes = {"small": (reference_packed_ids([4, 4]),), "tokens": (reference_packed_ids([32, 32]),)}
    no_loop(sol, "packed_attention_mask", sizes, lambda ids: _packed_mask(sol, ids),
            "find every token's document at once (np.cumsum over where the ids restart) and compare them all: "
            "document[:, None] == document[None, :]")
