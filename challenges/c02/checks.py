"""Challenge 02's properties: what a correct `embed` does inside a learned
position table and at its end, and the classic mistakes, recognised and named.

The reference is the tiny decoder's learned table,
`lessons.transformer.LearnedPositions.add_to_embeddings` (row `pos` added to
the token's row; a ValueError naming the first position with no row), holding
the checker's tables. A recognised mistake is a wrong answer rebuilt here,
most of them as that reference given a wrong argument (start_pos left at 0,
rows counted from 1, a table whose end is clipped or wrapped): when the
learner's `embed` does what one of them does on the same calls (the same
arrays, or an error where it errs), the hint names it.
"""

from __future__ import annotations

import re

import numpy as np

from challenges._props import Fail, Solution, close, describe_call, fmt, mistake, registry, worst
from lessons import _checks
from lessons.transformer import LearnedPositions

# the function the learner's file must define, as the starter declares it
FUNCTIONS = {"embed": "embed(token_ids, token_table, position_table, start_pos=0)"}

PROPERTIES, prop = registry()

VOCAB = 100  # token ids 0..99: more ids than a 16-row table has positions, as GPT-2 (50,257 > 1,024)

# (d_model, rows of the position table, seq, start_pos), every position inside the table but its last row
SIZES = ((8, 16, 7, 0), (8, 16, 1, 9), (64, 1024, 13, 0), (64, 1024, 7, 500), (128, 1024, 13, 11),
         (768, 1024, 1, 1000), (768, 1024, 13, 1000))

# the other properties' cases: (d_model, rows, start_pos) for a 13-token decode; (d_model, rows, seq, start_pos)
DECODES = ((64, 1024, 0), (768, 1024, 1010), (8, 16, 2))
BATCHES = (((2,), 64, 1024, 7, 5), ((3, 2), 8, 16, 5, 0))  # (batch, d_model, rows, seq, start_pos)
LAST_ROWS = ((768, 1024, 7, 1017), (64, 1024, 1, 1023), (8, 16, 16, 0), (8, 1, 1, 0))  # start_pos + seq = rows
ONE_PAST = ((64, 1024, 7, 1018), (8, 16, 17, 0), (8, 1024, 1025, 0))  # start_pos + seq = rows + 1
START_PAST = ((64, 1024, 1, 1030), (768, 1024, 1, 1024), (8, 16, 3, 40))  # start_pos >= rows
# the same ends reached by a batch (batch, d_model, rows, seq, start_pos): len(token_ids) is the batch's size there
ONE_PAST_BATCHED = (((2,), 8, 16, 7, 10), ((3, 2), 64, 1024, 13, 1012))  # start_pos + seq = rows + 1
START_PAST_BATCHED = (((4,), 8, 16, 1, 16),)  # a batched decode step at start_pos = rows
NEGATIVE = ((8, 16, 7, -1), (64, 1024, 1, -5), (8, 16, 3, -40))  # (d_model, rows, seq, start_pos < 0)

# the page's worked example: "the dog" (ids 2, 0) at positions 2 and 3 of the lesson's four-seat table
WORKED_TOKENS = np.array([[0.5, -0.2], [0.0, 0.3], [-0.4, 0.1]])  # dog, sat, the  # (3, 2)
WORKED_SEATS = np.array([[0.0, 0.0], [0.2, -0.1], [-0.3, 0.4], [0.1, 0.3]])  # lessons.positional's  # (4, 2)
WORKED_IDS, WORKED_START = np.array([2, 0]), 2


def reference(token_ids, token_table, position_table, start_pos=0) -> np.ndarray:
    """The lesson's learned table holding `position_table`: (..., seq, d_model); ValueError past its end, and
    for a start_pos below 0 (TinyGPT.embed's check: the table alone would read rows counted from its end)."""
    start_pos = _checks.count(start_pos, "start_pos", 0)
    table = LearnedPositions()
    table.max_len, table.W_pos = position_table.shape[0], position_table  # what its setup() draws at random
    token_ids = np.asarray(token_ids)
    return table.add_to_embeddings(token_table[token_ids], start_pos + np.arange(token_ids.shape[-1]))


def inputs(seed: int, d: int, rows: int, seq: int, batch: tuple[int, ...] = ()) -> tuple[np.ndarray, ...]:
    """(token_ids (*batch, seq), token_table (VOCAB, d), position_table (rows, d)), seeded."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, VOCAB, size=(*batch, seq)), rng.normal(size=(VOCAB, d)), rng.normal(size=(rows, d))


# ---------------------------------------------------------------------------
# Recognising the classic mistakes
# ---------------------------------------------------------------------------


def _stretched(position_table: np.ndarray, needed: int, rows_for) -> np.ndarray:
    """The table an answer that never runs out of rows reads: row p is position_table[rows_for(p, n_rows)]."""
    return position_table[rows_for(np.arange(needed), position_table.shape[0])]


def _last_row(positions: np.ndarray, n_rows: int) -> np.ndarray:
    """Positions clipped to the last row."""
    return np.minimum(positions, n_rows - 1)


def _asserted(token_ids, token_table, position_table, start_pos=0):
    assert start_pos + token_ids.shape[-1] <= position_table.shape[0], "past the end"
    return reference(token_ids, token_table, position_table, start_pos)


def mistakes():
    """(name, explanation, wrong embed(token_ids, token_table, position_table, start_pos), classic?, inside?).

    A mistake marked inside is recognised on the calls inside the table alone, whatever the answer does past
    its end (a start_pos ignored with a right bounds check is still a start_pos ignored); the others, on
    every call of the diagnosis."""
    yield ("start_pos ignored",
           "the rows you add never depend on start_pos: a token decoded alone at start_pos=t gets row 0, so "
           "every step of a KV-cache decode reads position 0; add rows start_pos .. start_pos+seq-1",
           lambda ids, tok, pos, start: reference(ids, tok, pos, 0), True, True)
    yield ("positions start at 1",
           "you added rows start_pos+1 .. start_pos+seq; the first token sits at start_pos (row 0 when "
           "start_pos=0), and counting from 1 wastes the table's last row: a sequence that fills it raises",
           lambda ids, tok, pos, start: reference(ids, tok, pos, start + 1), True, True)
    yield ("position rows looked up by token id",
           "you added position_table[token_ids], a row chosen by the token's id, not by its place; look the "
           "position table up at the positions start_pos + np.arange(seq)",
           lambda ids, tok, pos, start: tok[ids] + pos[ids], True, True)
    yield ("clipped past the end",
           "past the table's last row you reused it (np.clip, np.minimum or np.take(..., mode=\"clip\")): every "
           "position from n_rows-1 on reads the same vector and nothing says so; raise an error naming the first "
           "position with no row",
           lambda ids, tok, pos, start: reference(ids, tok, _stretched(pos, start + ids.shape[-1], _last_row), start),
           True, False)
    yield ("wrapped past the end",
           "past the table's end you started again at row 0 (positions % n_rows, or np.take(..., mode=\"wrap\")): "
           "position n_rows reads the vector trained for the first token; raise an error naming the first "
           "position with no row",
           lambda ids, tok, pos, start: reference(ids, tok, _stretched(pos, start + ids.shape[-1], np.mod), start),
           True, False)
    yield ("sliced past the end",
           "position_table[start_pos:start_pos+seq] quietly stops at the table's end: past it the slice is short "
           "(numpy then says only that shapes could not be broadcast) or empty (one token past the end came back "
           "as an empty array); index with the positions and raise an error naming the first position with no "
           "row and n_rows",
           lambda ids, tok, pos, start: tok[ids] + pos[start:start + ids.shape[-1]], True, False)
    yield ("checked with assert",
           "an assert is for your own code's bugs and python -O removes it; a position past the table comes from "
           "the caller: raise ValueError (or let numpy's IndexError through) naming the first position with no "
           "row and n_rows",
           _asserted, False, False)


# the calls a diagnosis compares, on a 16-row table: (seq, start_pos); the first INSIDE lie inside the table
# (the last row included), then one token one past the end, a sequence across the end, a decode step past it
DIAGNOSIS = ((7, 0), (7, 5), (1, 15), (1, 16), (5, 13), (1, 20))
INSIDE = 3


def _outcome(run) -> np.ndarray | str:
    """What run() does: its array, "assert" (it raised AssertionError), "error" (it raised) or "other"."""
    try:
        out = run()
    except AssertionError:
        return "assert"
    except (Exception, SystemExit):
        return "error"
    try:
        return np.asarray(out, dtype=float)
    except (TypeError, ValueError):
        return "other"


def _same(a: np.ndarray | str, b: np.ndarray | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return a.shape == b.shape and close(a, b)


def diagnose(sol: Solution) -> Fail | None:
    """The named mistake behind a wrong embed, or None if none is recognised."""
    rng = np.random.default_rng(20)
    token_table, position_table = rng.normal(size=(12, 8)), rng.normal(size=(16, 8))
    calls = [(rng.integers(0, 12, size=seq), token_table, position_table, start) for seq, start in DIAGNOSIS]
    got = [_outcome(lambda c=c: _run(sol, *c)) for c in calls]
    if all(_same(g, _outcome(lambda c=c: reference(*c))) for g, c in zip(got, calls, strict=True)):
        return None
    for name, explanation, wrong, classic, inside in mistakes():
        n = INSIDE if inside else len(calls)
        if all(_same(g, _outcome(lambda c=c, wrong=wrong: wrong(*c))) for g, c in zip(got[:n], calls[:n], strict=True)):
            return mistake(name, explanation, classic)
    return None


# ---------------------------------------------------------------------------
# Calling the learner's embed
# ---------------------------------------------------------------------------


def attempt(sol: Solution, token_ids, token_table, position_table, start_pos):
    """embed(...) where it may rightly raise: (the call's text, the exception it raised or None, what it
    returned); `Solution.attempt`."""
    return sol.attempt("embed", token_ids, token_table, position_table, start_pos=start_pos)


def _run(sol: Solution, *call):
    """The learner's embed(*call) as `_outcome` runs it: its exception raised again."""
    _, error, out = attempt(sol, *call)
    if error is not None:
        raise error
    return out


def embed(sol: Solution, token_ids, token_table, position_table, start_pos, advice: str = "") -> np.ndarray:
    """embed(...) as a float array of shape (*token_ids.shape, d_model), or Fail: the named mistake when
    the diagnosis recognises one, else the call's own hint with `advice` added."""
    shape = (*np.shape(token_ids), position_table.shape[1])
    try:
        return sol.call("embed", token_ids, token_table, position_table, start_pos=start_pos, shape=shape,
                        what="(seq, d_model)" if len(shape) == 2 else "token_ids.shape + (d_model,)")
    except Fail as fail:
        went_wrong = " raised " in str(fail) or " returned shape " in str(fail)  # where the advice applies
        raise diagnose(sol) or Fail(f"{fail}{advice if went_wrong else ''}") from None


def _numbers(text: str) -> set[int]:
    """The integers a message writes, 1024 or 1,024 alike: 'index 1024 ... size 1,024' -> {1024}."""
    return {int(n.replace(",", "")) for n in re.findall(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+", text)}


def must_raise(sol: Solution, token_ids, token_table, position_table, start_pos) -> None:
    """Fail unless embed raises ValueError or IndexError naming the first position with no row and n_rows."""
    rows = position_table.shape[0]
    first = max(start_pos, rows)  # the first position with no row
    text, error, out = attempt(sol, token_ids, token_table, position_table, start_pos)
    table = f"the table has {rows} row{'s' * (rows != 1)}, 0..{rows - 1}"
    if error is None and out is None:
        raise Fail(f"{text} returned None: write its body and raise past the table's end")
    if error is None:
        raise diagnose(sol) or Fail(
            f"{text} returned an array of shape {np.shape(out)}, yet position {first} has no row ({table}); "
            "raise ValueError or IndexError naming it")
    if not isinstance(error, (ValueError, IndexError)):
        raise diagnose(sol) or Fail(
            f"{text} raised {sol.one_line(error)}; past the table's end raise ValueError or IndexError")
    if not {first, rows} <= _numbers(str(error)):
        raise diagnose(sol) or Fail(
            f"{text} raised {sol.one_line(error)}; its message must name the first position with no row "
            f"({first}) and the table's row count ({rows})")


def must_raise_batched(sol: Solution, token_ids, token_table, position_table, start_pos) -> None:
    """`must_raise` for token_ids with batch axes; when one of its sequences passed alone raises as it should
    and the batch does not, the hint says the end check counted the batch (len(token_ids)), not the tokens."""
    try:
        must_raise(sol, token_ids, token_table, position_table, start_pos)
    except Fail as fail:
        try:
            must_raise(sol, token_ids.reshape(-1, token_ids.shape[-1])[0], token_table, position_table, start_pos)
        except Fail:
            raise fail from None
        text, error, out = attempt(sol, token_ids, token_table, position_table, start_pos)
        did = f"raised {sol.one_line(error)}" if error is not None else (
            "returned None" if out is None else f"returned an array of shape {np.shape(out)}")
        seq, rows = token_ids.shape[-1], position_table.shape[0]
        raise Fail(
            f"{text} {did}, yet one of its sequences passed alone raises as it should: the end check counts "
            f"the batch, not the tokens (len(token_ids) = {len(token_ids)} is the batch's size; the sequence is "
            f"token_ids.shape[-1] = {seq} long, and {start_pos} + {seq} > {rows} rows)") from None


# ---------------------------------------------------------------------------
# The properties
# ---------------------------------------------------------------------------


@prop("embed")
def shape(sol: Solution) -> None:
    for seed, (d, rows, seq, start) in enumerate(SIZES):
        embed(sol, *inputs(seed, d, rows, seq), start)


@prop("embed")
def values(sol: Solution) -> None:
    # "the dog" at positions 2 and 3: the + P_2 = (-0.4 - 0.3, 0.1 + 0.4), dog + P_3 = (0.5 + 0.1, -0.2 + 0.3)
    hand = np.array([[-0.7, 0.5], [0.6, 0.1]])
    out = embed(sol, WORKED_IDS, WORKED_TOKENS, WORKED_SEATS, WORKED_START)
    if not close(out, hand):
        raise diagnose(sol) or Fail(
            f"the worked example, embed([2, 0], tokens of shape (3, 2), seats of shape (4, 2), start_pos=2), "
            f"must be {fmt(hand)} (token 2 + row 2, token 0 + row 3); yours is {fmt(out)}")
    for seed, (d, rows, seq, start) in enumerate(SIZES):
        call = inputs(seed, d, rows, seq)
        got, want = embed(sol, *call, start), reference(*call, start)
        if not close(got, want):
            (t, j), g, w = worst(got, want)
            raise diagnose(sol) or Fail(
                f"{describe_call('embed', call, {'start_pos': start})}[{t}, {j}] is {g:.4f}; "
                f"token_table[token_ids[{t}]] + position_table[{start + t}] gives {w:.4f}")


@prop("embed")
def decode_step(sol: Solution) -> None:
    for seed, (d, rows, start) in enumerate(DECODES):
        ids, token_table, position_table = call = inputs(30 + seed, d, rows, 13)
        full = embed(sol, *call, start)
        for t in range(13):
            row = embed(sol, ids[t : t + 1], token_table, position_table, start + t)
            if not close(row, full[t : t + 1]):
                raise diagnose(sol) or Fail(
                    f"decoding with a KV cache: token {t} passed alone with start_pos={start + t} must equal row "
                    f"{t} of embed(token_ids, ..., start_pos={start}); it differs by up to "
                    f"{np.abs(row - full[t : t + 1]).max():.4f}")
        tail = embed(sol, ids[4:], token_table, position_table, start + 4)
        if not close(tail, full[4:]):
            raise diagnose(sol) or Fail(
                f"embed(token_ids[4:], ..., start_pos={start + 4}) must equal "
                f"embed(token_ids, ..., start_pos={start})[4:]: a prompt fed in two pieces")


@prop("embed")
def batch_axes(sol: Solution) -> None:
    advice = ("; leading axes (batch) must pass through: the sequence is token_ids' last axis "
              "(token_ids.shape[-1]; len(token_ids) counts the batch), and the (seq, d_model) rows broadcast")
    for seed, (batch, d, rows, seq, start) in enumerate(BATCHES):
        ids, token_table, position_table = inputs(40 + seed, d, rows, seq, batch)
        out = embed(sol, ids, token_table, position_table, start, advice=advice)
        for index in np.ndindex(*batch):
            alone = embed(sol, ids[index], token_table, position_table, start)
            if not close(out[index], alone):
                raise Fail(f"embed(token_ids of shape {ids.shape}, ...)[{', '.join(map(str, index))}] must equal "
                           f"embed(token_ids[{', '.join(map(str, index))}], ...){advice}")


@prop("embed")
def last_row(sol: Solution) -> None:
    for seed, (d, rows, seq, start) in enumerate(LAST_ROWS):
        call = inputs(50 + seed, d, rows, seq)
        span = f"positions {start}..{start + seq - 1}" if seq > 1 else f"position {start}"
        got = embed(sol, *call, start, advice=f"; {span} all have rows (the table has {rows}, 0..{rows - 1}): "
                                               "raise only when start_pos + seq > n_rows")
        if not close(got, reference(*call, start)):
            raise diagnose(sol) or Fail(
                f"{describe_call('embed', call, {'start_pos': start})}: the last row, position {rows - 1}, is "
                f"added like any other, so the last token must be {fmt(reference(*call, start)[-1], 3, 4)}; "
                f"yours is {fmt(got[-1], 3, 4)}")


@prop("embed")
def one_past_end(sol: Solution) -> None:
    # one position more than the table holds: the first with no row is n_rows itself
    for seed, (d, rows, seq, start) in enumerate(ONE_PAST):
        must_raise(sol, *inputs(60 + seed, d, rows, seq), start)
    for seed, (batch, d, rows, seq, start) in enumerate(ONE_PAST_BATCHED):
        must_raise_batched(sol, *inputs(65 + seed, d, rows, seq, batch), start)


@prop("embed")
def start_past_end(sol: Solution) -> None:
    # a decode step that starts past the end: the first position with no row is start_pos
    for seed, (d, rows, seq, start) in enumerate(START_PAST):
        must_raise(sol, *inputs(70 + seed, d, rows, seq), start)
    for seed, (batch, d, rows, seq, start) in enumerate(START_PAST_BATCHED):
        must_raise_batched(sol, *inputs(75 + seed, d, rows, seq, batch), start)


@prop("embed")
def negative_start(sol: Solution) -> None:
    # no position comes before 0: numpy would read position_table[-1], the last row, without a word
    for seed, (d, rows, seq, start) in enumerate(NEGATIVE):
        text, error, out = attempt(sol, *inputs(90 + seed, d, rows, seq), start)
        if error is None and out is None:
            raise Fail(f"{text} returned None: write its body and raise for a start_pos below 0")
        wrapped = f"; position_table[{start}] is row {rows + start}, counted from the end" if start >= -rows else ""
        if error is None:
            raise diagnose(sol) or Fail(
                f"{text} returned an array of shape {np.shape(out)}, yet position {start} has no row (positions "
                f"start at 0{wrapped}): raise ValueError naming start_pos")
        named = re.search(rf"(?<!\d){start}(?!\d)", str(error))  # -1, not -10 or 1
        if not isinstance(error, (ValueError, IndexError)) or not named:
            raise diagnose(sol) or Fail(
                f"{text} raised {sol.one_line(error)}; for a start_pos below 0 raise ValueError (or IndexError) "
                f"whose message names it ({start})")


@prop("embed")
def inputs_unchanged(sol: Solution) -> None:
    call = inputs(80, 64, 1024, 7)
    embed(sol, *call, 100)
    attempt(sol, *call, 1020)  # past the end it raises, but must not have edited anything first
