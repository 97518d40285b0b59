"""Challenge 08 (position ids for left padding and packing) through its command line: the reference
solution passes; each named mistake, written as a learner would in tests/data/c08/, gets the checker's
own hint word for word, and RoPE forgives exactly the offsets it should; an answer right only for a
batch of one fails; padding slots of 1, float ids and a loop over the rows are told; the starter fails
cleanly; the page's numbers, sample output and tables are the solution's and the checker's."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from challenges.c08 import checks
from lessons.position_ids import (cu_seqlens_from_position_ids, document_ids_from_position_ids, packed_position_ids,
                                  position_ids_from_mask)
from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C08 = ROOT / "challenges" / "c08"
SOLUTION = (C08 / "solution.py").read_text(encoding="utf-8")
PAGE_PATH = ROOT / "docs" / "challenges" / "08-position-ids.md"
PAGE = PAGE_PATH.read_text(encoding="utf-8")
IDS = ["ids_shape", "ids_values", "ids_padding_slots", "ids_each_row_alone", "ids_outputs_rope",
       "ids_outputs_learned", "ids_no_loop"]
PMASK = ["pmask_shape", "pmask_values", "pmask_padding_keys", "pmask_causal", "pmask_rows_nonempty",
         "pmask_outputs", "pmask_no_loop"]
PIDS = ["pids_shape", "pids_values", "pids_restart", "pids_outputs_rope", "pids_outputs_learned"]
AMASK = ["amask_shape", "amask_values", "amask_documents", "amask_causal", "amask_outputs", "amask_no_loop"]
ALL = IDS + PMASK + PIDS + AMASK
TABLES = {"I": checks._ids_mistakes, "P": checks._padded_mistakes, "D": checks._packed_id_mistakes,
          "C": checks._packed_mask_mistakes}


def check(tmp_path: Path, source: str, *options: str, name: str = "answer.py"):
    return kit.check(tmp_path, "08", source, *options, name=name)


# --- named mistakes: one learner file each, the hint word for word ---------------------------------------------

# (learner file, the checker's table, the entry's index there, the properties that must name it; every other
# property passes)
NAMED = [
    ("ids_padding_counted.py", "I", 0, ("ids_values", "ids_padding_slots", "ids_each_row_alone", "ids_outputs_learned")),
    ("ids_cumsum_without_minus_1.py", "I", 1, ("ids_values", "ids_outputs_learned")),
    ("ids_padding_minus_1.py", "I", 2, ("ids_padding_slots",)),
    ("pmask_padding_columns_open.py", "P", 0, ("pmask_values", "pmask_padding_keys", "pmask_outputs")),
    ("pmask_padding_rows_empty.py", "P", 1, ("pmask_rows_nonempty", "pmask_outputs")),
    ("pmask_not_causal.py", "P", 2, ("pmask_values", "pmask_causal", "pmask_outputs")),
    ("pids_no_restart.py", "D", 0, ("pids_values", "pids_restart", "pids_outputs_rope", "pids_outputs_learned")),
    ("pids_start_at_1.py", "D", 1, ("pids_values", "pids_restart", "pids_outputs_learned")),
    ("amask_no_cut.py", "C", 0, ("amask_values", "amask_documents", "amask_outputs")),
    ("amask_not_causal.py", "C", 1, ("amask_values", "amask_causal", "amask_outputs")),
    ("amask_cut_only_at_zero.py", "C", 2, ("amask_values",)),
    ("amask_cut_only_where_ids_fall.py", "C", 3, ("amask_values",)),
]
OTHERS = {"ids_first_row_only.py", "ids_padding_one.py", "ids_loop_over_rows.py"}


def _hint(table: str, index: int) -> tuple[str, str]:
    name, why, *_ = list(TABLES[table]())[index]
    return name, f'classic mistake "{name}": {why}'


@pytest.mark.parametrize("name, table, index, named_by", NAMED, ids=[n for n, *_ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, table, index, named_by):
    code, lines, output = kit.learner(tmp_path, "08", name)
    _, hint = _hint(table, index)
    assert code == 1
    for prop in named_by:
        assert lines[prop] == f"FAIL {prop}: {hint}", output
    assert kit.passes(lines, [p for p in ALL if p not in named_by]), output


def test_rope_forgives_one_offset_and_the_learned_table_does_not(tmp_path):
    """Ids that count the padding, or start at 1, pass the RoPE outputs and fail the learned table's."""
    for name, rope, learned in (("ids_padding_counted.py", "ids_outputs_rope", "ids_outputs_learned"),
                                ("ids_cumsum_without_minus_1.py", "ids_outputs_rope", "ids_outputs_learned"),
                                ("pids_start_at_1.py", "pids_outputs_rope", "pids_outputs_learned")):
        _, lines, output = kit.learner(tmp_path, "08", name)
        assert lines[rope].startswith("PASS") and lines[learned].startswith("FAIL"), output


def test_each_named_mistake_has_a_learner_file():
    rebuilt = sum(len(list(table())) for table in TABLES.values())
    assert len(NAMED) == rebuilt >= 6 and len({n for n, *_ in NAMED}) == len(NAMED)
    assert {(t, i) for _, t, i, _ in NAMED} == {(t, i) for t, table in TABLES.items() for i in range(len(list(table())))}
    assert all(kit.learner_file("08", n).is_file() for n, *_ in NAMED)


def test_every_learner_file_is_used_by_a_test():
    assert {p.name for p in (ROOT / "tests" / "data" / "c08").glob("*.py")} == {n for n, *_ in NAMED} | OTHERS


def test_the_rebuilt_mistakes_are_told_apart_at_both_sizes():
    """On each probe alone, every rebuilt mistake differs from the reference and from every other one where the
    checker compares them: a mistake is named only when both sizes match it, and each size could tell it."""
    probes = {"I": checks.PROBES, "P": checks.PROBES, "D": checks.PACK_PROBES,
              "C": checks.CUT_PROBES}
    right = {"I": checks.reference_ids, "P": checks.reference_padded_mask, "D": packed_position_ids,
             "C": checks.reference_packed_mask}
    for table, mistakes in TABLES.items():
        built = [(wrong, where) for _, _, wrong, where in mistakes()]
        assert len(probes[table]) == 2 and len({np.shape(p) for p in probes[table]}) == 2
        for p in probes[table]:
            want = right[table](p)
            for k, (wrong, where) in enumerate(built):
                got = np.broadcast_to(wrong(p), np.shape(want))
                assert not np.array_equal(got[where(p)], want[where(p)]), (table, k)
                for other, _ in built[k + 1:]:
                    assert not np.array_equal(got[where(p)], np.broadcast_to(other(p), np.shape(want))[where(p)])


def test_a_cut_read_only_at_0_or_where_the_ids_fall_is_right_for_every_pack_from_0():
    """The two cut mistakes agree with the reference on every pack of packed_position_ids (they passed all 25
    properties before the checker asked for ids whose documents do not start at 0); the ids it asks for now tell
    both, and they are the ones the page quotes."""
    for name in ("amask_cut_only_at_zero.py", "amask_cut_only_where_ids_fall.py"):
        module = kit.load(kit.learner_file("08", name))
        for lengths in checks.PACKS:
            ids = packed_position_ids(lengths)
            assert np.array_equal(module.packed_attention_mask(ids), checks.reference_packed_mask(ids)), name
        assert any(not np.array_equal(module.packed_attention_mask(ids), checks.reference_packed_mask(ids))
                   for ids in checks.JUMPS), name
    quoted = {"[5, 6, 7, 0, 1, 2]", "[0, 1, 2, 7, 8]"}
    assert quoted <= {str(ids.tolist()) for ids in checks.JUMPS} and all(f"`{q}`" in PAGE for q in quoted)
    assert packed_position_ids([3, 2, 4], start=2).tolist() in [ids.tolist() for ids in checks.JUMPS]


def test_the_page_says_where_the_mask_builder_and_the_flash_path_part():
    """The cut the checker asks for is the lesson's document_ids_from_position_ids (transformers 5.24.0's
    find_packed_sequence_indices); the page's cu_seqlens are the lesson's cu_seqlens_from_position_ids (its
    prepare_fa_kwargs_from_position_ids), which agree on packs from one id and part on the page's examples."""
    text = " ".join(PAGE.split())
    jump, chunk = np.array([0, 1, 2, 7, 8]), np.array([5, 6, 7, 0, 1, 2])
    assert document_ids_from_position_ids(jump)[0].tolist() == [0, 0, 0, 1, 1]  # two documents, the checker's cut
    assert document_ids_from_position_ids(chunk)[0].tolist() == [0, 0, 0, 1, 1, 1]
    assert (f"for `{jump.tolist()}` the flash path's `cu_seqlens` is `{cu_seqlens_from_position_ids(jump).tolist()}`, "
            "one document") in text
    assert f"for `{chunk.tolist()}` it is `{cu_seqlens_from_position_ids(chunk).tolist()}`, which leaves the first " \
           "three tokens out of every document" in text
    assert cu_seqlens_from_position_ids(chunk)[0] == 3
    for start in (0, 2):  # the collator's packs: both readings find the same documents
        ids = packed_position_ids([3, 2, 4], start=start)
        starts = np.flatnonzero(np.diff(document_ids_from_position_ids(ids)[0], prepend=-1))
        assert np.append(starts, ids.size).tolist() == cu_seqlens_from_position_ids(ids).tolist() == [0, 3, 5, 9]
    assert "transformers 5.24.0 reads the cut in two ways" in text


# --- right for a batch of one, padding slots of 1, floats, a loop ------------------------------------------------


def test_an_answer_right_only_for_a_batch_of_one_fails(tmp_path):
    code, lines, output = kit.learner(tmp_path, "08", "ids_first_row_only.py")
    assert code == 1
    assert lines["ids_values"] == (
        "FAIL ids_values: position_ids_from_mask([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]) must be [[0, 0, 0, 1, 2], "
        "[0, 1, 2, 3, 4]] on the real tokens (each row's first real token at 0); yours is [[0, 0, 0, 1, 2], "
        "[-2, -1, 0, 1, 2]]"), output
    assert lines["ids_each_row_alone"].startswith("FAIL ids_each_row_alone: a row's ids must not depend on the "
                                                  "other rows or on its amount of padding: row 1 of a (4, 13)")
    assert lines["ids_outputs_learned"].startswith("FAIL ids_outputs_learned: with your ids and the right mask")
    assert kit.passes(lines, [p for p in ALL if p not in ("ids_values", "ids_each_row_alone", "ids_outputs_learned")])
    # right for a batch of one: each row checked alone gets the reference's ids
    module = kit.load(kit.learner_file("08", "ids_first_row_only.py"))
    for real, seq in checks.BATCHES:
        for row in checks.left_padded(real, seq):
            assert np.array_equal(module.position_ids_from_mask(row[None]), position_ids_from_mask(row[None]))


def test_padding_slots_of_1_are_told_it_is_transformers_4x(tmp_path):
    code, lines, output = kit.learner(tmp_path, "08", "ids_padding_one.py")
    assert code == 1
    assert lines["ids_padding_slots"] == (
        "FAIL ids_padding_slots: your padding slots hold 1, as the prepare_inputs_for_generation of transformers "
        "4.x's models wrote them (position_ids.masked_fill_(attention_mask == 0, 1)); this challenge follows "
        "transformers 5.24 and the lesson, which write 0. The slot is masked, so either works in a model, but "
        "write 0 here"), output
    assert kit.passes(lines, [p for p in ALL if p != "ids_padding_slots"]), output


def test_float_ids_and_float_masks_are_told(tmp_path):
    source = kit.edited(SOLUTION, ("    return np.where(mask == 1, ids, 0)", "    return np.where(mask == 1, ids, 0.0)"),
                        ("    return causal & (real[:, None, :] | itself)",
                         "    return (causal & (real[:, None, :] | itself)).astype(float)"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert lines["ids_shape"] == (
        "FAIL ids_shape: position_ids_from_mask(x of shape (2, 5)) returned float64 values; position ids index a "
        "table of positions: return integers (np.cumsum of an integer mask is one)"), output
    assert lines["pmask_shape"].startswith("FAIL pmask_shape: padded_attention_mask(x of shape (2, 5)) returned "
                                           "float64 values; return booleans"), output
    assert kit.passes(lines, [p for p in ALL if p not in ("ids_shape", "pmask_shape")]), output


def test_a_python_loop_over_the_rows_is_found_by_counting_lines(tmp_path):
    code, lines, output = kit.learner(tmp_path, "08", "ids_loop_over_rows.py")
    found = re.fullmatch(r"FAIL ids_no_loop: a Python loop over the rows: position_ids_from_mask ran (\d+) lines of "
                         r"ids_loop_over_rows\.py for the small input and (\d+) for one with 8 times more rows; "
                         r"count every row at once: np\.cumsum\(attention_mask, axis=-1\) - 1 works along each row "
                         r"of the whole batch", lines["ids_no_loop"])
    assert code == 1 and found and int(found[2]) - int(found[1]) >= 56, output  # 56 more rows, a line each at least
    assert kit.passes(lines, [p for p in ALL if p != "ids_no_loop"]), output


def test_a_failing_packed_call_can_be_run_again(tmp_path):
    folder = tmp_path / "repro"
    code, lines, output = kit.learner(tmp_path, "08", "pids_no_restart.py", "--repro", str(folder))
    assert code == 1 and f"the failing properties' calls are in {folder}/" in output
    again = subprocess.run([sys.executable, str(folder / "pids_values.py")], capture_output=True, text=True,
                           timeout=60, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("packed_position_ids([3, 2, 4])\n[0 1 2 3 4 5 6 7 8]\n"), again.stdout


# --- the checker's inputs and the page ---------------------------------------------------------------------------


def test_the_checker_asks_for_every_mask_of_transformers_vectors():
    """The masks come from tests/data/position_ids_vectors.json (transformers 5.24); the ids the checker
    expects for them, the lesson's, are the vectors' ids."""
    stored = json.loads((ROOT / "tests" / "data" / "position_ids_vectors.json").read_text(encoding="utf-8"))
    masks = [r["mask"] for r in stored["mask_ids"]]
    assert [m.tolist() for m in checks.TRANSFORMERS_MASKS] == masks
    for r in stored["mask_ids"]:
        assert position_ids_from_mask(np.array(r["mask"])).tolist() == r["position_ids"]
    packs = [r["lengths"] for r in stored["packs"] if r["start"] == 0]
    assert all(lengths in checks.PACKS for lengths in packs)


def test_the_page_shows_what_the_checker_prints(tmp_path):
    _, _, output = kit.learner(tmp_path, "08", "amask_no_cut.py")
    assert kit.page_sample(PAGE_PATH) == output.strip()


def test_the_pages_worked_example_is_the_solutions():
    solution = kit.load(C08 / "solution.py")
    text = " ".join(PAGE.split())
    mask = checks.WORKED
    assert f"the mask is `{mask.tolist()}` and the ids are `{solution.position_ids_from_mask(mask).tolist()}`" in text
    row0 = solution.padded_attention_mask(mask)[0].astype(int).tolist()
    assert f"`{row0}`" in text
    ids = solution.packed_position_ids([3, 2, 4])
    assert f"get the ids `{ids.tolist()}`" in text
    assert f"row 4 of the cut is `{solution.packed_attention_mask(ids)[4].astype(int).tolist()}`" in text
    lengths = [12, 40, 7, 25]
    assert f"spends {1 - sum(lengths) / (len(lengths) * max(lengths)):.0%} of its slots" in text
    assert f"`{cu_seqlens_from_position_ids(ids).tolist()}` for documents of 3, 2 and 4 tokens" in text


def test_the_pages_tables_are_the_checkers():
    properties = kit.page_table(PAGE, f"{len(ALL) - 3} of {len(ALL)} properties pass\n```")
    assert [row[0].strip("`") for row in properties] == ALL
    said = {row[0].strip("`"): row[1] for row in properties}
    batches, lengths = [len(r) for r, _ in checks.BATCHES], [s for _, s in checks.BATCHES]
    assert f"batches of {', '.join(map(str, batches[:-1]))} and {batches[-1]} rows over lengths " \
           f"{', '.join(map(str, lengths[:-1]))} and {lengths[-1]}" in said["ids_values"]
    assert f"lengths {', '.join(map(str, lengths[:-1]))} and {lengths[-1]}" in " ".join(PAGE.split())
    widths = ", ".join(map(str, checks.WIDTHS))
    assert all(f"($d$ = {widths})" in said[p] for p in ("ids_outputs_rope", "pmask_outputs", "pids_outputs_rope",
                                                         "amask_outputs"))
    mistakes = kit.page_table(PAGE, "The checker names these mistakes when your output matches one at two sizes:")
    on_page = {row[0]: set(re.findall(r"`(\w+)`", row[2])) for row in mistakes}
    assert on_page == {_hint(t, i)[0]: set(by) for _, t, i, by in NAMED}


def test_the_pages_python_and_lessons_are_real():
    for block in re.findall(r"```python\n(.*?)```", PAGE, flags=re.S) + [SOLUTION]:  # the page includes it
        assert max(len(line) for line in block.splitlines()) <= 79
    assert '--8<-- "challenges/c08/solution.py"' in PAGE
    named = set(re.findall(r"`(lessons\.[\w.]+)`", PAGE))
    assert {"lessons.position_ids", "lessons.position_ids.position_ids_from_mask"} <= named
    for dotted in sorted(named):
        parts = dotted.split(".")
        obj = importlib.import_module(".".join(parts[:2]))
        for part in parts[2:]:
            assert hasattr(obj, part), f"the page names {dotted}, which does not exist"
            obj = getattr(obj, part)
        assert inspect.ismodule(obj) or inspect.isfunction(obj) or inspect.isclass(obj), dotted
