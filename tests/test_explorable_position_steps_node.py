"""The explorable "Position ids, step by step" (explorables/web/position_steps.js) against the lesson
it sits in (lessons/position_ids): in Node, its DOM-free view() shows, for every scenario, the ids the
lesson's own functions give on the table's setup (right and with the bug), the conformance table's rows
for the scenario, and on every frame the change the bug causes up to it: the tiny decoder's largest
logit change (forward_with_ids, recomputed here from the lesson's functions), for the window one head's
(ring_buffer_attention), 0 where the bug changes no id; and the setups the data uses (explorables/position_steps.SETUP)
are the table's, since the lesson's chunked_attention and ring_buffer_attention run with them give the
table's gaps back.

Ids are integers: compared exactly. Gaps and changes are floats passed through JSON, which keeps every
digit, computed here by the same numpy calls on the same machine: compared exactly too. The ring buffer's ids are checked by what they do: attending each query at
the id shown, over the keys at the ids shown, gives ring_buffer_attention's outputs to 1e-12 (float64
rounding of one head; a wrong id changes them by far more, the table's 0.68)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from explorables.position_steps import SETUP, TOKENS, data
from lessons.attention import causal_mask
from lessons.attention_sinks import causal_window_mask
from lessons.position_ids import (_tokens, attend, chunked_attention, conformance_table, default_position_ids,
                                  document_ids_from_position_ids, document_mask, forward_with_ids,
                                  packed_position_ids, padded_batch_mask, position_ids_from_mask,
                                  ring_buffer_attention, tree_mask, tree_position_ids)
from lessons.transformer import TINY, TinyGPT
from tests.node import needs_node, run_explorable

TABLE = {k: p.default for k, p in inspect.signature(conformance_table).parameters.items()}
N, PAD, OTHER = TABLE["n"], TABLE["pad"], TABLE["other"]
# each scenario's rows of the table (its scenario labels): set up right, with the bug
ROWS = {
    "padding": ("left padding, ids cumsum(mask) − 1", "left padding, ids 0..n−1 (none passed)"),
    "packing": ("packing, ids reset, attention cut", "packing, ids not reset"),
    "chunk": ("chunked prefill, new ids from the cached length", "chunked prefill, new ids from 0"),
    "prefix": ("prefix-cache hit, new ids from the cached length", "prefix-cache hit, new ids from 0"),
    "window": ("ring buffer, keys read in slot order", "ring buffer, query id = filled slots − 1"),
    "draft": ("draft tree, siblings share an id", "draft tree, nodes numbered in order"),
}


def _gap(a, b) -> float:
    return float(np.abs(np.asarray(a) - np.asarray(b)).max())


def expected_changes(key: str, step: int) -> list[float]:
    """The change scenario `key`'s bug causes up to frame `step` (1-based), model by model: max |with
    the bug − set up right| of the tiny decoder's logits over the tokens the frame holds (padding's
    rows dropped), or, for the window, of ring_buffer_attention's outputs for the queries so far."""
    s, L, parents = TOKENS["sentence"], SETUP["tree_cached"], SETUP["parents"]
    rope = TinyGPT(**TINY, position="rope")
    if key == "window":
        q, k, v = _tokens(N, 128, TABLE["seed"])
        return [_gap(ring_buffer_attention(q, k, v, SETUP["window"], True)[:step],
                     ring_buffer_attention(q, k, v, SETUP["window"], False)[:step])]
    if step == 1:  # the first frame: nothing the bug renumbers; one run per model, twice
        return [0.0, 0.0] if key in ("padding", "packing") else [0.0]

    def change(model, tokens, right, bug, allowed, bug_allowed=None, rows=slice(None)):
        return _gap(forward_with_ids(model, tokens, bug, allowed if bug_allowed is None else bug_allowed)[rows],
                    forward_with_ids(model, tokens, right, allowed)[rows])

    if key == "padding":
        mask, allowed = padded_batch_mask(PAD, N)
        learned = TinyGPT(**{**TINY, "max_len": PAD + N}, position="learned")  # the bug's ids reach PAD + N − 1
        return [change(m, np.r_[[TOKENS["pad"]] * PAD, s], position_ids_from_mask(mask), np.arange(PAD + N),
                       allowed, rows=slice(PAD, None)) for m in (rope, learned)]
    if key == "packing":
        reset, running, row = packed_position_ids([OTHER, N]), np.arange(OTHER + N), np.r_[TOKENS["other"], s]
        read = lambda ids: document_mask(document_ids_from_position_ids(ids)[0])  # noqa: E731
        lengths = document_mask(np.r_[np.zeros(OTHER, int), np.ones(N, int)])
        return [change(rope, row, reset, running, lengths), change(rope, row, reset, running, read(reset), read(running))]
    if key in ("chunk", "prefix"):
        split = SETUP[key]
        return [change(rope, s, np.arange(N), np.r_[np.arange(split), np.arange(N - split)], causal_mask(N))]
    tree = np.r_[s[:L], s[L], s[L + 1], TOKENS["siblings"][0], s[L + 2], TOKENS["siblings"][1]]
    allowed = causal_mask(L + 5)
    allowed[L:, :L], allowed[L:, L:] = True, tree_mask(parents)
    return [change(rope, tree, np.r_[np.arange(L), tree_position_ids(parents, L)], np.arange(L + 5), allowed)]


def expected_ids(key: str, bug: bool) -> list[int]:
    """The ids of scenario `key`'s last frame (every slot; for the window, only the query's id, the
    last slot), from the lesson's functions."""
    cached = lambda split: np.r_[np.arange(split), default_position_ids(N - split, 0 if bug else split)]  # noqa: E731
    ids = {
        "padding": lambda: default_position_ids(PAD + N) if bug else position_ids_from_mask([0] * PAD + [1] * N),
        "packing": lambda: default_position_ids(OTHER + N) if bug else packed_position_ids([OTHER, N]),
        "chunk": lambda: cached(N // 2),
        "prefix": lambda: cached(N - 3),
        "window": lambda: [min(N - 1, SETUP["window"] - 1) if bug else N - 1],
        "draft": lambda: np.r_[np.arange(N - 3), (N - 3 + np.arange(5)) if bug else
                               tree_position_ids([-1, 0, 0, 1, 2], N - 3)],
    }[key]()
    return [int(i) for i in ids]


def table_gaps(key: str, bug: bool) -> list[float]:
    """The gaps of the table's rows for scenario `key`, set up right or with the bug."""
    gaps = [r["gap"] for r in conformance_table() if r["scenario"].startswith(ROWS[key][bug])]
    assert gaps, f"no row of the table starts {ROWS[key][bug]!r}"
    return gaps


@needs_node
def test_every_frame_shows_the_lessons_ids_and_its_own_change(tmp_path):
    scenarios = data()["scenarios"]
    assert [s["key"] for s in scenarios] == list(ROWS)
    calls = [["view", s["key"], step, bug] for s in scenarios for step in range(1, len(s["frames"]) + 1)
             for bug in (False, True)]
    views = run_explorable(tmp_path, "position_steps", calls)
    for (_, key, step, bug), v in zip(calls, views, strict=True):
        frame = next(s for s in scenarios if s["key"] == key)["frames"][step - 1]
        assert v["step"] == step and v["ids"] == frame["bug" if bug else "ids"], (key, step, bug)
        assert v["changed"] == [bug and a != b for a, b in zip(frame["ids"], frame["bug"], strict=True)]
        # the frame's own change, whichever way the bug is toggled; 0 exactly where it renumbers nothing
        want = expected_changes(key, step)
        assert [c["value"] for c in v["changes"]] == want and v["change"] == max(want), (key, step, v["changes"])
        assert (v["change"] == 0) == (not v["differs"]) == (frame["ids"] == frame["bug"]), (key, step)
        assert sorted(r["gap"] for r in v["rows"]) == sorted(table_gaps(key, bug)), (key, bug)
        if step == v["steps"]:  # the frame the table measured
            shown = v["ids"][-1:] if key == "window" else v["ids"]
            assert shown == expected_ids(key, bug), (key, bug, shown)
    # the bug changes some id, and the output, in every scenario's last frame
    assert all(any(v["changed"]) and v["change"] > 0.1 for (_, _, step, bug), v in zip(calls, views, strict=True)
               if bug and step == v["steps"])
    # out-of-range steps are clamped
    assert [v["step"] for v in run_explorable(tmp_path, "position_steps", [["view", "chunk", 0, False],
                                                                          ["view", "chunk", 99, True]])] == [1, 2]


@pytest.mark.parametrize("key", ["chunk", "prefix"])
def test_the_chunk_setups_are_the_tables(key):
    q, k, v = _tokens(N, 128, TABLE["seed"])
    rows = {r["scenario"]: r["gap"] for r in conformance_table()}
    for restart in (False, True):
        gap = float(np.abs(chunked_attention(q, k, v, SETUP[key], restart) -
                           attend(q, k, v, np.arange(N), np.arange(N), causal_mask(N))).max())
        assert gap == rows[ROWS[key][restart]]


def test_the_windows_ids_are_the_ones_the_lessons_ring_uses():
    """Each frame's query attends over the keys in the ring at the ids shown: ring_buffer_attention's
    output, right and with the bug; and the window is the table's (its gap comes back)."""
    window = SETUP["window"]
    q, k, v = _tokens(N, 128, TABLE["seed"])
    frames = next(s for s in data()["scenarios"] if s["key"] == "window")["frames"]
    assert len(frames) == N
    for bug in (False, True):
        ring = ring_buffer_attention(q, k, v, window, bug)
        for p, frame in enumerate(frames):
            ids = frame["bug" if bug else "ids"]
            # the slot shown as written is where the lesson's ring writes token p: p % window
            assert frame["kinds"].index("written") == p % window and ids[p % window] == p, (p, ids)
            keys = [i for i in ids[:window] if i is not None]  # the tokens whose keys the ring holds
            out = attend(q[p:p + 1], k[keys], v[keys], ids[-1:], keys, np.ones((1, len(keys)), bool))
            assert np.abs(out[0] - ring[p]).max() < 1e-12, (bug, p, ids)
        want = attend(q, k, v, np.arange(N), np.arange(N), causal_window_mask(N, window))
        table = {r["scenario"]: r["gap"] for r in conformance_table()}
        assert float(np.abs(ring - want).max()) == table[ROWS["window"][bug]]
