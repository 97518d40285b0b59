"""Data of the explorable "Position ids, step by step" (explorables/web/position_steps.js, on
lessons/position_ids' page, under the conformance figure): six scenarios of that page's
conformance table (padding, packing, chunked prefill, a prefix-cache hit, a sliding window, a
speculative draft tree), each as frames of token slots with the ids a correct server assigns and
the ids under the scenario's known bug, the change that bug causes up to each frame, plus the
table's rows for that bug (their gaps).

The change per frame, for the tokens the frame holds (computed here, at build time):
- padding, packing, chunked prefill, prefix-cache hit, draft tree: the largest logit change, max
  |logits with the bug − logits set up right|, of the lesson's tiny decoder (lessons.transformer
  TinyGPT, TINY) run by the lesson's forward_with_ids with the frame's ids and mask. A frame
  whose ids the bug leaves alone runs the same numbers twice: exactly 0. Chunks and caches run
  as one causal pass at the frame's ids: under the causal mask a cached chunk's rows never read
  the later ones, so that pass is the chunked prefill, the cached keys turned at their own ids.
  The padding's learned-table model has PAD + N rows (TINY's 16 cannot hold the bug's ids).
- sliding window: forward_with_ids turns a token's query and key at one id, and the ring's bug
  gives the query an id its own key does not have, so there it is the table's one head: max
  |ring_buffer_attention with the bug − without| over the queries so far.

Every id comes from the lesson's own functions (default_position_ids, position_ids_from_mask,
packed_position_ids, document_ids_from_position_ids, tree_position_ids), every gap from
conformance_table(); the setups (lengths, split points, window, tree) are the table's own
(SETUP), which tests/test_explorable_position_steps.py holds to it by running the lesson's
chunked_attention and ring_buffer_attention with them and getting the table's gaps back.
"""

from __future__ import annotations

import inspect

import numpy as np

from lessons._show import gap_text
from lessons.attention import causal_mask
from lessons.position_ids import (
    _tokens,
    conformance_table,
    default_position_ids,
    document_ids_from_position_ids,
    document_mask,
    forward_with_ids,
    packed_position_ids,
    padded_batch_mask,
    position_ids_from_mask,
    ring_buffer_attention,
    tree_mask,
    tree_position_ids,
)
from lessons.transformer import TINY, TinyGPT, demo_tokens

_DEFAULTS = {k: p.default for k, p in inspect.signature(conformance_table).parameters.items()}
N, PAD, OTHER = _DEFAULTS["n"], _DEFAULTS["pad"], _DEFAULTS["other"]
# the table's setups (lessons/position_ids.py: _cache_rows, _serving_rows)
SETUP = {"chunk": N // 2, "prefix": N - 3, "window": 5, "tree_cached": N - 3, "parents": [-1, 0, 0, 1, 2]}
# the tiny decoder's tokens: the sentence, document A, the padding token, the draft's two siblings
TOKENS = {"sentence": demo_tokens(N, seed=1), "other": demo_tokens(OTHER, seed=2), "pad": 0,
          "siblings": demo_tokens(2, seed=3)}
LOGITS = "Largest logit change the bug causes up to this step"
HEAD = "Largest change the bug causes in one attention head's output up to this step"

# per scenario: its key, its name, the table's rows set up right, the rows with the bug (by label)
SCENARIOS = (
    ("padding", "Left padding",
     ["left padding, ids cumsum(mask) − 1"], ["left padding, ids 0..n−1 (none passed)"]),
    ("packing", "Packing",
     ["packing, ids reset, attention cut"],
     ["packing, ids not reset, attention cut", "packing, ids not reset, cut read from the ids"]),
    ("chunk", "Chunked prefill",
     ["chunked prefill, new ids from the cached length"], ["chunked prefill, new ids from 0"]),
    ("prefix", "Prefix-cache hit",
     ["prefix-cache hit, new ids from the cached length"], ["prefix-cache hit, new ids from 0"]),
    ("window", "Sliding window (ring buffer)",
     ["ring buffer, keys read in slot order"], ["ring buffer, query id = filled slots − 1"]),
    ("draft", "Speculative draft tree",
     ["draft tree, siblings share an id"], ["draft tree, nodes numbered in order"]),
)
BUG_NAMES = {
    "padding": "ids 0, 1, 2, ... from the first slot, padding included (a forward call given no ids)",
    "packing": "ids that keep counting across the packed documents",
    "chunk": "the second chunk numbered from 0",
    "prefix": "the new tokens numbered from 0 after the cache hit",
    "window": "the query numbered from the ring's filled slots (filled − 1)",
    "draft": "the tree's nodes numbered in order, as if they were a chain",
}


def _ints(a) -> list[int]:
    return [int(x) for x in a]


def _frame(caption, labels, kinds, ids, change, bug=None, bug_caption=None) -> dict:
    ids = _ints(ids) if ids is not None else None
    assert len(labels) == len(kinds) == len(ids)
    bug = ids if bug is None else bug
    return {"caption": caption, "labels": labels, "kinds": kinds, "ids": ids,
            "bug": [None if b is None else int(b) for b in bug], "bugCaption": bug_caption or caption,
            "change": change}


def _measure(label: str, value: float) -> dict:
    return {"label": label, "value": float(value), "text": gap_text(value)}


def _models() -> dict:
    """The tiny decoders: RoPE (TINY itself) and a learned table long enough for the padded row."""
    return {"RoPE": TinyGPT(**TINY, position="rope"),
            "learned table": TinyGPT(**{**TINY, "max_len": max(TINY["max_len"], PAD + N)}, position="learned")}


def _logit_change(label, model, tokens, right, bug, allowed, bug_allowed=None, rows=slice(None)) -> dict:
    """max |logits with the bug − logits set up right| over `rows`, both by forward_with_ids."""
    a = forward_with_ids(model, tokens, right, allowed)[rows]
    b = forward_with_ids(model, tokens, bug, allowed if bug_allowed is None else bug_allowed)[rows]
    return _measure(label, np.abs(b - a).max())


def _alone(tokens, labels=("RoPE",)) -> list[dict]:
    """A frame the bug leaves alone: tokens at 0..n−1, causal, right and "with the bug" (the same)."""
    ids, models = np.arange(len(tokens)), _models()
    return [_logit_change(m, models[m], tokens, ids, ids, causal_mask(len(tokens))) for m in labels]


def _words(a: int, b: int) -> list[str]:
    return [f"w{i}" for i in range(a, b)]


def _padding() -> list[dict]:
    mask, allowed = padded_batch_mask(PAD, N)
    right, wrong = position_ids_from_mask(mask), default_position_ids(PAD + N)
    sentence, models = TOKENS["sentence"], _models()
    row = np.r_[np.full(PAD, TOKENS["pad"]), sentence]
    change = [_logit_change(m, models[m], row, right, wrong, allowed, rows=slice(PAD, None)) for m in models]
    return [
        _frame(f"The sentence alone: {N} tokens, ids 0 to {N - 1}. This is the reference every row is "
               "measured against; alone, there is nothing to get wrong.",
               _words(0, N), ["word"] * N, default_position_ids(N), _alone(sentence, tuple(models))),
        _frame(f"In a batch, behind {PAD} padding slots: the ids count the real tokens (the mask's "
               f"running sum minus one), so the sentence keeps 0 to {right[-1]}; padding gets 0 and is "
               "read by nothing.",
               ["pad"] * PAD + _words(0, N), ["pad"] * PAD + ["word"] * N, right, change, wrong,
               f"The bug: the slots are numbered, so the sentence sits at {wrong[PAD]} to {wrong[-1]}. "
               "Every token moves by the same amount: RoPE forgives it, a learned table does not."),
    ]


def _packing() -> list[dict]:
    right, wrong = packed_position_ids([OTHER, N]), default_position_ids(OTHER + N)
    docs_right = int(document_ids_from_position_ids(right).max()) + 1
    docs_wrong = int(document_ids_from_position_ids(wrong).max()) + 1
    labels, kinds = [f"A{i}" for i in range(OTHER)] + _words(0, N), ["other"] * OTHER + ["word"] * N
    rope, row = _models()["RoPE"], np.r_[TOKENS["other"], TOKENS["sentence"]]
    cut = document_mask(document_ids_from_position_ids(right)[0])  # from the lengths: two documents

    def read(ids):  # the cut read from the ids
        return document_mask(document_ids_from_position_ids(ids)[0])

    def change(tokens, right_, wrong_, lengths):
        return [_logit_change("RoPE, cut from the lengths", rope, tokens, right_, wrong_, lengths),
                _logit_change("RoPE, cut read from the ids", rope, tokens, right_, wrong_, read(right_),
                              read(wrong_))]
    alone = packed_position_ids([OTHER])
    return [
        _frame(f"Another document, A, of {OTHER} tokens: ids 0 to {OTHER - 1}.",
               labels[:OTHER], kinds[:OTHER], alone, change(TOKENS["other"], alone, alone, causal_mask(OTHER))),
        _frame(f"A and the sentence packed into one row of {OTHER + N}: the ids restart at the "
               f"sentence, so read from the ids the row holds {docs_right} documents and attention is "
               "cut between them.",
               labels, kinds, right, change(row, right, wrong, cut), wrong,
               f"The bug: the ids keep counting, so the sentence sits at {wrong[OTHER]} to {wrong[-1]}. "
               f"With the cut passed as a mask RoPE forgives it; read from the ids, the row is "
               f"{docs_wrong} document and the sentence reads A."),
    ]


def _cached(split: int, what: str, before: str) -> list[dict]:
    new = N - split
    right, wrong = default_position_ids(new, split), default_position_ids(new, 0)
    cached, sentence = _ints(default_position_ids(split)), TOKENS["sentence"]
    # one causal pass at the frame's ids is the chunked run: the cached rows never read the new ones
    change = [_logit_change("RoPE", _models()["RoPE"], sentence, cached + _ints(right), cached + _ints(wrong),
                            causal_mask(N))]
    return [
        _frame(f"{before}: {split} tokens, ids 0 to {split - 1}, their keys cached already turned.",
               _words(0, split), ["word"] * split, cached, _alone(sentence[:split])),
        _frame(f"{what}: the {new} new tokens continue at the cached length, ids {right[0]} to "
               f"{right[-1]}, and read the {split} cached keys.",
               _words(0, N), ["cached"] * split + ["new"] * new, cached + _ints(right), change,
               cached + _ints(wrong),
               f"The bug: the new tokens start again at {wrong[0]}, while the cached keys keep the ids "
               "they were turned at: queries and keys disagree on the gap, which RoPE cannot forgive."),
    ]


def _window() -> list[dict]:
    window, frames = SETUP["window"], []
    q, k, v = _tokens(N, 128, _DEFAULTS["seed"])  # the table's head (d = 128)
    ring = {bug: ring_buffer_attention(q, k, v, window, bug) for bug in (False, True)}
    for p in range(N):
        # token t's key sits in slot t % window (the lesson's ring); the newest write wins
        slots = [max([t for t in range(p + 1) if t % window == s], default=None) for s in range(window)]
        filled = sum(s is not None for s in slots)
        labels, kinds = [f"slot {s}" for s in range(window)] + [f"query w{p}"], ["slot"] * window + ["query"]
        kinds[p % window] = "written"
        right, wrong = slots + [p], slots + [filled - 1]
        frames.append({"caption": f"Token {p} writes its key, turned at {p}, to slot {p % window} and "
                                  f"queries at id {p}: the ids in the slots are the keys' own.",
                       "labels": labels, "kinds": kinds, "ids": right, "bug": wrong,
                       "change": [_measure("one head, RoPE", np.abs(ring[True][:p + 1] - ring[False][:p + 1]).max())],
                       "bugCaption": f"The bug: the query takes filled slots − 1 = {filled - 1}"
                       + (f", {p - (filled - 1)} behind its own key." if p != filled - 1 else
                          ", still right until the ring is full.")})
    return frames


def _draft() -> list[dict]:
    cached, parents = SETUP["tree_cached"], SETUP["parents"]
    right, wrong = tree_position_ids(parents, cached), default_position_ids(len(parents), cached)
    labels = _words(0, cached) + [f"w{cached}", f"w{cached + 1}", f"w{cached + 1}′", f"w{cached + 2}",
                                  f"w{cached + 2}′"]
    kinds = ["cached"] * cached + ["query"] + ["draft"] * (len(parents) - 1)
    ids, sentence, siblings = _ints(default_position_ids(cached)), TOKENS["sentence"], TOKENS["siblings"]
    # the tree's rows as conformance_table orders them: root, the path's first, its sibling, ...
    tree = np.r_[sentence[:cached], sentence[cached:cached + 2], siblings[0], sentence[cached + 2], siblings[1]]
    allowed = np.block([[causal_mask(cached), np.zeros((cached, len(parents)), bool)],
                        [np.ones((len(parents), cached), bool), tree_mask(parents)]])
    change = [_logit_change("RoPE", _models()["RoPE"], tree, ids + _ints(right), ids + _ints(wrong), allowed)]
    return [
        _frame(f"{cached} tokens cached, ids 0 to {cached - 1}; the model has just sampled w{cached}, "
               f"id {cached}.", labels[:cached + 1], kinds[:cached + 1], ids + [cached],
               _alone(sentence[:cached + 1])),
        _frame(f"A draft tree: two candidates for the next token (w{cached + 1}, w{cached + 1}′) and one "
               "continuation of each. Ids are the cached length plus the depth, so siblings share "
               f"{right[1]} and {right[3]}.",
               labels, kinds, ids + _ints(right), change, ids + _ints(wrong),
               f"The bug: the nodes numbered in order, {wrong[0]} to {wrong[-1]}: w{cached + 2} gets "
               f"{wrong[3]} while its parent sits at {wrong[1]}."),
    ]


FRAMES = {"padding": _padding, "packing": _packing,
          "chunk": lambda: _cached(SETUP["chunk"], "The second chunk", "The first chunk of the prompt"),
          "prefix": lambda: _cached(SETUP["prefix"], "A new request that shares the prefix",
                                    "An earlier request's prompt, cached"),
          "window": _window, "draft": _draft}


def data() -> dict:
    """The explorable's data: {"scenarios": [{key, name, bugName, measure, frames, right, wrong}]};
    each frame {caption, bugCaption, labels, kinds, ids, bug, change} (ids per slot: right and under
    the bug, None for an empty ring slot; change: [{label, value, text}], the bug's change up to the
    frame per model, as `measure` names it: LOGITS, or HEAD for the window); right/wrong: the conformance table's rows {label, scheme, gap,
    text (as the page writes it), thread} set up right and with the bug."""
    rows = {(r["scenario"], r["scheme"]): r for r in conformance_table()}

    def pick(labels: list[str]) -> list[dict]:
        found = [r for (label, _), r in rows.items() if label in labels]
        assert len(found) >= len(labels), f"conformance_table() lost a row of {labels}"
        return [{"label": r["scenario"], "scheme": r["scheme"], "gap": r["gap"], "text": gap_text(r["gap"]),
                 "thread": r["thread"]} for r in found]

    return {"scenarios": [{"key": key, "name": name, "bugName": BUG_NAMES[key],
                           "measure": HEAD if key == "window" else LOGITS, "frames": FRAMES[key](),
                           "right": pick(right), "wrong": pick(wrong)}
                          for key, name, right, wrong in SCENARIOS]}
