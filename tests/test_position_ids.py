"""lessons.position_ids against transformers 5.24's own functions (tests/data/position_ids_vectors.json,
written by tests/reference/_position_ids_reference.py), and the conformance table's verdicts.

Position ids are integers, so the comparison with the library is exact (no tolerance). The
attention gaps are float64: a gap below 1e-12 is rounding (the outputs are of order 1 and float64
rounding is about 1e-16 per operation); a gap above 0.01 is a real change."""

from __future__ import annotations

import json
import re
import sys

import numpy as np
import pytest

from lessons.attention import causal_mask
from lessons.layer_schemes import llama4_attn_temperature
from lessons.positional import rope_frequencies
from lessons.position_ids import (LLAMA31_THETA, attend, conformance_table, context_shift, cu_seqlens_from_position_ids,
                                  document_ids_from_position_ids, document_mask, forward_with_ids,
                                  llama_cpp_shift_plan, packed_position_ids,
                                  position_ids_from_mask, ring_attention, rope_at, shard_position_ids, tree_mask,
                                  tree_position_ids)
from lessons.transformer import TINY, TinyGPT, demo_tokens
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "position_ids_vectors.json"
ROUNDING, CHANGED = 1e-12, 1e-2


@pytest.fixture(scope="module")
def stored() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def test_the_vectors_come_from_transformers_5_24(stored):
    assert stored["versions"]["transformers"].startswith("5.24"), stored["versions"]
    assert len(stored["mask_ids"]) >= 4 and len(stored["packs"]) >= 4 and len(stored["read_ids"]) >= 4


def test_the_lesson_matches_transformers_exactly(stored):
    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    try:
        from _position_ids_reference import mismatches
    finally:
        sys.path.pop(0)
    assert mismatches(stored) == []


def test_the_comparison_can_fail(stored):
    """A planted bug (ids counted from 1: cumsum without the − 1) is caught by the same records."""
    bad = {**stored, "mask_ids": [{**r, "position_ids": (np.array(r["position_ids"]) + 1).tolist()}
                                  for r in stored["mask_ids"]]}
    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    try:
        from _position_ids_reference import mismatches
    finally:
        sys.path.pop(0)
    assert len(mismatches(bad)) == len(stored["mask_ids"])


def test_ids_from_a_mask_start_at_zero_after_the_padding():
    assert position_ids_from_mask([0, 0, 1, 1, 1]).tolist() == [0, 0, 0, 1, 2]
    with pytest.raises(ValueError, match="0s and 1s"):
        position_ids_from_mask([0, 2, 1])


def test_packed_documents_read_back_as_documents():
    ids = packed_position_ids([3, 2, 4])
    assert document_ids_from_position_ids(ids)[0].tolist() == [0, 0, 0, 1, 1, 2, 2, 2, 2]
    assert cu_seqlens_from_position_ids(ids).tolist() == [0, 3, 5, 9]
    allowed = document_mask([0, 0, 1, 1])
    assert allowed.tolist() == [[True, False, False, False], [True, True, False, False],
                                [False, False, True, False], [False, False, True, True]]


@pytest.mark.parametrize("position", ["rope", "learned", "none"])
def test_forward_with_ids_is_tinygpt_forward_for_ids_0_to_n(position):
    model, tokens = TinyGPT(**TINY, position=position), demo_tokens(10)
    got = forward_with_ids(model, tokens, np.arange(10), causal_mask(10))
    assert np.abs(got - model.forward(tokens)).max() < ROUNDING


def _reference(name: str):
    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    try:
        return getattr(__import__("_position_ids_reference"), name)
    finally:
        sys.path.pop(0)


def test_transformers_own_padded_generate_moves_llama4s_temperature(stored):
    """The record made by transformers 5.24 itself: a left-padded row of Llama 4 answers as the prompt
    alone only while the NoPE layers' temperature is off (it counts positions from the cache's length)."""
    problems = _reference("llama4_padding_problems")
    assert problems(stored) == []
    # the check can fail: the two records swapped (the temperature harmless, the padding not)
    swapped = [{**r, "temperature": not r["temperature"]} for r in stored["llama4_padding"]]
    assert len(problems({**stored, "llama4_padding": swapped})) == 2


def test_the_padding_moves_the_temperature_by_the_padding():
    """In the units of the record above (floor_scale 4, attn_scale 0.5, padding 5): the prompt's ids
    0..5 and the cache indices 5..10 that transformers counts get different temperatures."""
    ids = np.arange(6)
    at_ids, at_cache = (llama4_attn_temperature(p, attn_scale=0.5, floor_scale=4) for p in (ids, ids + 5))
    assert (at_cache > at_ids).all()
    # Llama 4's own numbers: a prompt padded by 200 in a batch steps at id 7,991 instead of 8,191
    assert llama4_attn_temperature([7990, 7991]).tolist() == [1.0, 1.0]
    assert (llama4_attn_temperature(np.array([7990, 7991]) + 200) > [1.0, 1.06]).tolist() == [False, True]


def test_context_shift_is_recomputing_the_keys_at_their_new_ids():
    rng = np.random.default_rng(1)
    raw, ids = rng.standard_normal((20, 128)), np.arange(20)
    for theta in (LLAMA31_THETA, rope_frequencies(128, 10_000.0)):
        keys, new = context_shift(rope_at(raw, ids, theta), ids, n_keep=3, n_discard=7, theta=theta)
        kept = np.r_[0:3, 10:20]
        assert new.tolist() == list(range(13))
        assert np.abs(keys - rope_at(raw[kept], new, theta)).max() < ROUNDING
    # turned back with another layer's speeds (llama.cpp #12357's bug): not the recomputed keys
    local, other = rope_frequencies(128, 10_000.0), rope_frequencies(128, 1_000_000.0)
    keys, new = context_shift(rope_at(raw, ids, local), ids, 3, 7, other)
    assert np.abs(keys - rope_at(raw[np.r_[0:3, 10:20]], new, local)).max() > CHANGED


def _python(expr: str) -> str:
    """One of llama.cpp's C++ expressions as Python, for a step that decodes one token and a request
    with no n_discard of its own: names mapped, std:: dropped, integer division, a ternary turned."""
    for c, py in (("(int) embd.size()", "1"), ("slot.prompt.n_tokens()", "n_past"), ("slot.n_ctx", "n_ctx"),
                  ("params.n_keep", "n_keep"), ("slot.task->params.n_discard", "0"), ("std::", ""), ("/", "//")):
        expr = expr.replace(c, py)
    ternary = re.fullmatch(r"(.+?) \? (.+?) : (.+)", expr)
    return f"({ternary[2]}) if ({ternary[1]}) else ({ternary[3]})" if ternary else expr


def _run_llama_cpp(tool: dict, n_ctx: int, keep: int, add_bos: bool) -> dict:
    """The shift as the tool's own expressions compute it (tests/data/position_ids_vectors.json,
    read from llama-cpp-python 0.3.36's source): the first n_past that triggers, n_keep, n_left, n_discard."""
    env = {"n_ctx": n_ctx, "n_keep": keep, "add_bos": int(add_bos), "min": min, "max": max,
           "clamp": lambda x, low, high: max(low, min(x, high))}
    if add_bos or "add_bos" in tool["keep"]:  # the server adds its 1 under `if (add_bos_token)`
        exec(_python(tool["keep"]), env)
    if "cap" in tool:
        env["n_keep"] = eval(_python(tool["cap"]), env)
    env["n_past"] = next(n for n in range(n_ctx + 1) if eval(_python(tool["trigger"]), {**env, "n_past": n}))
    env["n_left"] = eval(_python(tool["n_left"]), env)
    env["n_discard"] = eval(_python(tool["n_discard"]), env)
    if "clamp" in tool:
        env["n_discard"] = eval(_python(tool["clamp"]), env)
    return dict(cached=env["n_past"], n_keep=env["n_keep"], n_left=env["n_left"], n_discard=env["n_discard"],
                next_id=env["n_past"] - env["n_discard"])


def test_llama_cpp_shift_plan_is_the_tools_own_arithmetic(stored):
    """llama_cpp_shift_plan against llama-completion's and llama-server's expressions, read from their
    source by tests/reference/_position_ids_reference.py, for every context from 8 to 40 tokens and
    every --keep up to a prompt's length (llama-completion takes at most n_ctx − 4 tokens; the server
    caps n_keep, so larger values are tried there), with and without a BOS."""
    record = stored["llama_cpp_shift"][0]
    assert record["release"] == "llama-cpp-python 0.3.36"
    import lessons.position_ids as lesson
    assert record["release"] in lesson.__doc__
    for name in ("completion", "server"):
        for n_ctx in range(8, 41):
            for keep in range(n_ctx - (3 if name == "completion" else 1)):
                for add_bos in (False, True):
                    got = llama_cpp_shift_plan(n_ctx, keep, add_bos, server=name == "server")
                    assert got == _run_llama_cpp(record[name], n_ctx, keep, add_bos), (name, n_ctx, keep, add_bos)
    # the page's example: 11 cached, the BOS kept, ids 3 to 6 dropped, the next token at 7
    assert llama_cpp_shift_plan(12, 2) == dict(cached=11, n_keep=3, n_left=8, n_discard=4, next_id=7)


def test_every_path_of_a_draft_tree_is_a_plain_decode():
    """One verification pass over the tree (ids cached length + depth, tree mask) gives each
    root-to-leaf path the outputs a plain decode of that path gives, and its ids."""
    parents = [-1, 0, 0, 1, 1, 2, 4]  # a root, two children, and grandchildren under both
    L, n = 5, len(parents)
    ids = tree_position_ids(parents, L)
    assert ids.tolist() == [5, 6, 6, 7, 7, 7, 8]
    mask = tree_mask(parents)
    assert mask[6].tolist() == [True, True, False, False, True, False, True]  # itself, 4, 1, 0
    rng = np.random.default_rng(2)
    q, k, v = rng.standard_normal((3, L + n, 64))
    theta = rope_frequencies(64, 10_000.0)
    cache = np.arange(L)
    allowed = np.hstack([np.ones((n, L), bool), mask])
    tree = attend(q[L:], k, v, ids, np.r_[cache, ids], allowed, theta)
    leaves = [i for i in range(n) if i not in parents]
    for leaf in leaves:
        path = [leaf]
        while parents[path[-1]] >= 0:
            path.append(parents[path[-1]])
        path = path[::-1]
        rows = np.r_[cache, L + np.array(path)]  # the cache, then the path as a plain sequence
        assert ids[path].tolist() == list(range(L, L + len(path)))
        plain = attend(q[rows], k[rows], v[rows], np.arange(rows.size), np.arange(rows.size), causal_mask(rows.size),
                       theta)
        assert np.abs(tree[path] - plain[L:]).max() < ROUNDING, path
    with pytest.raises(ValueError, match="must come before"):
        tree_position_ids([-1, 2, 0], 0)


def test_zigzag_shards_hold_equal_work_and_ring_attention_is_attention():
    for n_ranks in (1, 2, 3, 4):
        shards = [shard_position_ids(24, n_ranks, r) for r in range(n_ranks)]
        assert sorted(np.concatenate(shards).tolist()) == list(range(24))
        assert len({int((s + 1).sum()) for s in shards}) == 1  # causal pairs per rank: all equal
    assert shard_position_ids(8, 2, 0).tolist() == [0, 1, 6, 7]  # chunks 0 and 3 of 4
    assert [int((shard_position_ids(16, 4, r, zigzag=False) + 1).sum()) for r in range(4)] == [10, 26, 42, 58]
    rng = np.random.default_rng(3)
    q, k, v = rng.standard_normal((3, 12, 128))
    ids = np.arange(12)
    whole = attend(q, k, v, ids, ids, causal_mask(12))
    for n_ranks in (1, 2, 3):
        assert np.abs(ring_attention(q, k, v, n_ranks) - whole).max() < ROUNDING
    assert np.abs(ring_attention(q, k, v, 2, local_ids=True) - whole).max() > CHANGED
    with pytest.raises(ValueError, match="chunks"):
        shard_position_ids(10, 4, 0)


def test_conformance_verdicts():
    rows = {(r["scenario"], r["scheme"]): r for r in conformance_table()}
    differ = [r for r in rows.values() if r["differ"]]
    assert differ and all(r["gap"] > CHANGED and not r["bug"] and r["thread"] for r in differ), differ
    agree = [r for r in rows.values() if r["agree"]]  # two engines compared, no judge: equal here
    assert agree and all(r["gap"] < ROUNDING and not r["bug"] and not r["differ"] for r in agree), agree
    correct = [r for r in rows.values() if not r["bug"] and not r["differ"]]
    assert correct and all(r["gap"] < ROUNDING for r in correct), correct
    harmless = {("left padding, ids 0..n−1 (none passed)", "RoPE"), ("packing, ids not reset, attention cut", "RoPE")}
    for key in harmless:
        assert rows[key]["bug"] and rows[key]["gap"] < ROUNDING, rows[key]
    breaking = [r for k, r in rows.items() if r["bug"] and k not in harmless]
    assert len(breaking) >= 9 and all(r["gap"] > CHANGED for r in breaking), breaking
    # every thread cited is a GitHub issue or pull request
    assert all(r["thread"] is None or r["thread"].startswith("https://github.com/") for r in rows.values())


def test_the_pages_table_is_the_conformance_table():
    """The page's Markdown table, cell by cell: scenario, scheme, the gap as gap_text writes it
    (a rounding gap as its bound, never its machine-dependent digits), the verdict read from the
    gap, and the thread's link."""
    import lessons.position_ids as lesson
    from lessons._show import ROUNDING as BOUND
    from lessons._show import gap_text

    lines = lesson.__doc__.splitlines()
    start = lines.index("| Scenario | Scheme | Largest gap | Verdict | Thread |") + 2
    cells = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells.append([c.strip() for c in line.strip("|").split("|")])
    rows = conformance_table()
    assert len(cells) == len(rows)
    for got, r in zip(cells, rows, strict=True):
        verdict = ("engines differ" if r["differ"] else "engines agree" if r["agree"]
                   else "correct: rounding" if not r["bug"]
                   else "bug, forgiven: rounding" if r["gap"] < BOUND else "bug, breaks")
        flagged = r["bug"] or r["differ"]
        thread = "" if not flagged else ("no thread found" if r["thread"] is None else f"({r['thread']})")
        assert got[:4] == [r["scenario"], r["scheme"], gap_text(r["gap"]), verdict], (got, r)
        assert got[4] == thread if not flagged else got[4].endswith(thread), (got, r)
