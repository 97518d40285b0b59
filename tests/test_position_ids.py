"""lessons.position_ids against transformers 5.24's own functions (tests/data/position_ids_vectors.json,
written by tests/reference/_position_ids_reference.py), and the conformance table's verdicts.

Position ids are integers, so the comparison with the library is exact (no tolerance). The
attention gaps are float64: a gap below 1e-12 is rounding (the outputs are of order 1 and float64
rounding is about 1e-16 per operation); a gap above 0.01 is a real change."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from lessons.attention import causal_mask
from lessons.position_ids import (conformance_table, cu_seqlens_from_position_ids, document_ids_from_position_ids,
                                  document_mask, forward_with_ids, packed_position_ids,
                                  position_ids_from_mask)
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


def test_conformance_verdicts():
    rows = {(r["scenario"], r["scheme"]): r for r in conformance_table()}
    correct = [r for r in rows.values() if not r["bug"]]
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
        verdict = "correct: rounding" if not r["bug"] else ("bug, forgiven: rounding" if r["gap"] < BOUND else "bug, breaks")
        thread = "" if not r["bug"] else ("no thread found" if r["thread"] is None else f"({r['thread']})")
        assert got[:4] == [r["scenario"], r["scheme"], gap_text(r["gap"]), verdict], (got, r)
        assert got[4] == thread if not r["bug"] else got[4].endswith(thread), (got, r)
