"""The explorable "Position ids, step by step" (explorables/web/position_steps.js) against the lesson
it sits in (lessons/position_ids): in Node, its DOM-free view() shows, for every scenario, the ids the
lesson's own functions give on the table's setup (right and with the bug) and the largest gap of the
conformance table's rows for that bug; and the setups the data uses (explorables/position_steps.SETUP)
are the table's, since the lesson's chunked_attention and ring_buffer_attention run with them give the
table's gaps back.

Ids are integers: compared exactly. Gaps are the table's floats passed through JSON, which keeps every
digit: compared exactly too. The ring buffer's ids are checked by what they do: attending each query at
the id shown, over the keys at the ids shown, gives ring_buffer_attention's outputs to 1e-12 (float64
rounding of one head; a wrong id changes them by far more, the table's 0.68)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from explorables.position_steps import SETUP, data
from lessons.attention import causal_mask
from lessons.attention_sinks import causal_window_mask
from lessons.position_ids import (_tokens, attend, chunked_attention, conformance_table, default_position_ids,
                                  packed_position_ids, position_ids_from_mask, ring_buffer_attention,
                                  tree_position_ids)
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


def expected(key: str, bug: bool) -> tuple[list, float]:
    """The ids of scenario `key`'s last frame (every slot; for the window, only the query's id, the
    last slot) and the largest gap of its rows, from the lesson's functions and conformance_table."""
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
    label = ROWS[key][bug]
    gaps = [r["gap"] for r in conformance_table() if r["scenario"].startswith(label)]
    assert gaps, f"no row of the table starts {label!r}"
    return [int(i) for i in ids], max(gaps)


@needs_node
def test_every_frame_shows_the_lessons_ids_and_the_tables_gap(tmp_path):
    scenarios = data()["scenarios"]
    assert [s["key"] for s in scenarios] == list(ROWS)
    calls = [["view", s["key"], step, bug] for s in scenarios for step in range(1, len(s["frames"]) + 1)
             for bug in (False, True)]
    views = run_explorable(tmp_path, "position_steps", calls)
    for (_, key, step, bug), v in zip(calls, views, strict=True):
        frame = next(s for s in scenarios if s["key"] == key)["frames"][step - 1]
        assert v["step"] == step and v["ids"] == frame["bug" if bug else "ids"], (key, step, bug)
        assert v["changed"] == [bug and a != b for a, b in zip(frame["ids"], frame["bug"], strict=True)]
        if step == v["steps"]:  # the frame the table measured
            ids, gap = expected(key, bug)
            shown = v["ids"][-1:] if key == "window" else v["ids"]
            assert shown == ids, (key, bug, shown, ids)
            assert v["change"] == gap, (key, bug, v["change"], gap)
    # the bug changes some id of every scenario's last frame
    assert all(any(v["changed"]) for (_, _, step, bug), v in zip(calls, views, strict=True) if bug and step == v["steps"])
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
