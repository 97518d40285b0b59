"""Challenge 06 (RoPE layouts) through its command line: the reference solution passes; each
named mistake, written as a learner would in tests/data/c06/, gets the checker's own hint word
for word; an answer right only at SmolLM2's head width fails; the starter fails cleanly; the
page's numbers, sample output and tables are the solution's and the checker's; and, where the
`gguf` package and the SmolLM2 wheel are installed, the reference solution converts the real
model's query and key rows exactly as `experiments.real_model.gguf_model.half_split_rows` does
(the checker itself cannot load the model: a learner has numpy only)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from challenges.c06 import checks
from lessons.rope import conversion_permutation, interleaved_to_half
from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C06 = ROOT / "challenges" / "c06"
SOLUTION = (C06 / "solution.py").read_text(encoding="utf-8")
PAGE = (ROOT / "docs" / "challenges" / "06-rope-layouts.md").read_text(encoding="utf-8")
TO_HALF = ["to_half_shape", "to_half_values", "to_half_rows_move_whole", "to_half_per_head", "to_half_scores",
           "to_half_smollm2"]
TO_INTER = ["to_inter_shape", "to_inter_values", "to_inter_round_trip", "to_inter_per_head", "to_inter_scores"]
QKV = ["qkv_shape", "qkv_values", "qkv_values_untouched", "qkv_scores", "qkv_smollm2"]
ALL = TO_HALF + TO_INTER + QKV


# --- named mistakes: one learner file each, the hint word for word ------------------------------------------

# (learner file, the checker's table: "H" _to_half_mistakes, "I" _to_inter_mistakes, "Q" _qkv_mistakes;
# the entry's index there; the properties that name it)
NAMED = [
    ("to_half_whole_matrix.py", "H", 0, ("to_half_values", "to_half_per_head", "to_half_scores", "to_half_smollm2")),
    ("to_half_odd_rows_first.py", "H", 1, ("to_half_values", "to_half_scores", "to_half_smollm2")),
    ("to_half_columns.py", "H", 2, tuple(TO_HALF)),
    ("to_half_directions_swapped.py", "H", 3, ("to_half_values", "to_half_scores", "to_half_smollm2")),
    ("to_inter_whole_matrix.py", "I", 0, ("to_inter_values", "to_inter_round_trip", "to_inter_per_head",
                                          "to_inter_scores")),
    ("to_inter_odd_rows_first.py", "I", 1, ("to_inter_values", "to_inter_round_trip", "to_inter_scores")),
    ("to_inter_columns.py", "I", 2, tuple(TO_INTER)),
    ("to_inter_applied_again.py", "I", 3, ("to_inter_values", "to_inter_round_trip", "to_inter_scores")),
    ("qkv_keys_with_query_heads.py", "Q", 0, ("qkv_values", "qkv_scores", "qkv_smollm2")),
    ("qkv_values_reordered.py", "Q", 1, ("qkv_values", "qkv_values_untouched", "qkv_smollm2")),
]
TABLES = {"H": checks._to_half_mistakes, "I": checks._to_inter_mistakes, "Q": checks._qkv_mistakes}
# what a wrong interleaved_to_half does to the properties of the other two functions, which use it
ROUND_TRIP_BLAME = "FAIL to_inter_round_trip: your half_to_interleaved undoes the conversion, but your " \
                   "interleaved_to_half does not undo it: "
QKV_BLAME = "your qkv_to_half splits and converts the fused rows right, with your interleaved_to_half, but that is " \
            "wrong: fix it first (the to_half_ lines say how)"


def _named_hint(table: str, index: int) -> tuple[str, str]:
    """(the mistake's name, 'classic mistake "NAME": EXPLANATION') in the checker's own words."""
    name, why, _ = list(TABLES[table]())[index]
    return name, f'classic mistake "{name}": {why}'


@pytest.mark.parametrize("name, table, index, named_by", NAMED, ids=[n for n, *_ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, table, index, named_by):
    code, lines, output = kit.learner(tmp_path, "06", name)
    assert code == 1
    _, hint = _named_hint(table, index)
    for prop in named_by:
        assert lines[prop] == f"FAIL {prop}: {hint}", output
    knock_on = []
    if table == "H":  # half_to_interleaved and qkv_to_half are right, but use the wrong interleaved_to_half
        assert lines["to_inter_round_trip"].startswith(ROUND_TRIP_BLAME), output
        knock_on = ["to_inter_round_trip", *QKV]
        if name == "to_half_columns.py":  # its IndexError reaches qkv_to_half's calls; a square one runs
            assert all(lines[p].startswith("FAIL ") for p in QKV), output
            assert lines["qkv_scores"].startswith(
                "FAIL qkv_scores: 2 query heads over 2 key-value heads of 8 (base 10000): interleaved RoPE on the "
                "original rows scores "), output
        else:
            assert all(lines[p] == f"FAIL {p}: {QKV_BLAME}" for p in ("qkv_values", "qkv_scores", "qkv_smollm2"))
            knock_on = ["to_inter_round_trip", "qkv_values", "qkv_scores", "qkv_smollm2"]
    assert kit.passes(lines, [p for p in ALL if p not in (*named_by, *knock_on)]), output


def test_a_qkv_mistake_is_named_with_the_learners_own_wrong_interleaved_to_half(tmp_path):
    source = kit.learner_file("06", "qkv_keys_with_query_heads.py").read_text(encoding="utf-8")
    odd_first = kit.edited(source, ("pairs = w.reshape(n_heads, d_head // 2, 2, -1)",
                                    "pairs = w.reshape(n_heads, d_head // 2, 2, -1)[:, :, ::-1]"))
    code, lines, output = kit.check(tmp_path, "06", odd_first)
    _, hint = _named_hint("Q", 0)
    assert lines["qkv_values"] == f"FAIL qkv_values: {hint} (and your interleaved_to_half is wrong too: the " \
                                  "to_half_ lines say how)", output
    assert lines["to_half_values"] == f"FAIL to_half_values: {_named_hint('H', 1)[1]}", output


def test_each_named_mistake_has_a_learner_file():
    rebuilt = sum(len(list(table())) for table in TABLES.values())
    assert len(NAMED) == rebuilt and len({n for n, *_ in NAMED}) == len(NAMED)
    assert all(kit.learner_file("06", n).is_file() for n, *_ in NAMED)
    assert len({_named_hint(t, i)[0] for _, t, i, _ in NAMED}) >= 6


def test_every_learner_file_is_used_by_a_test():
    used = {n for n, *_ in NAMED} | {"to_half_d_head_64.py", "to_half_pairs_reversed.py"}
    assert {p.name for p in (ROOT / "tests" / "data" / "c06").glob("*.py")} == used


def test_the_rebuilt_mistakes_are_told_apart_at_both_probed_widths():
    """Each rebuilt mistake differs from the conversion and from every other one at the probes, and the
    probes are two head widths of 8 or more (at 4, 'the permutation applied again' is right)."""
    widths = [d for _, d in checks.PROBES]
    assert len(set(widths)) == 2 and min(widths) >= 8
    assert len({d for *_, d, _ in checks.QKV_PROBES}) == 2
    for name, table in (("interleaved_to_half", "H"), ("half_to_interleaved", "I")):
        for n, d in checks.PROBES:
            w = np.random.default_rng(d).normal(size=(n * d, n * d))
            outs = [checks.REFERENCE[name](w, n)] + [wrong(w, n) for _, _, wrong in TABLES[table]()]
            for a in range(len(outs)):
                assert all(not np.allclose(outs[a], outs[b]) for b in range(a + 1, len(outs))), (name, d, a)
    for n, n_kv, d, d_model in checks.QKV_PROBES:
        w = np.random.default_rng(d).normal(size=((n + 2 * n_kv) * d, d_model))
        outs = [checks.qkv_reference(w, n, n_kv)] + [checks.qkv_reference(w, n, n_kv, build=wrong)
                                                     for _, _, wrong in checks._qkv_mistakes()]
        assert not np.allclose(outs[0], outs[1]) and not np.allclose(outs[0], outs[2])
        assert not np.allclose(outs[1], outs[2])
    # the applied-again mistake is right at d_head = 4: why the worked example alone cannot catch it
    w = np.random.default_rng(4).normal(size=(4, 3))
    assert np.array_equal(list(checks._to_inter_mistakes())[3][2](w, 1), checks.REFERENCE["half_to_interleaved"](w, 1))


def test_an_answer_right_only_at_smollm2s_head_width_fails(tmp_path):
    """Planted: the head width hard-coded to 64 (32 pairs), SmolLM2-135M's. Checked at SmolLM2's shapes alone
    (the real rows the tests load, or the checker's synthetic copy of them) it passes."""
    name = "to_half_d_head_64.py"
    code, lines, output = kit.learner(tmp_path, "06", name)
    assert code == 1
    assert lines["to_half_smollm2"].startswith("PASS") and lines["qkv_smollm2"].startswith("PASS"), output
    line = kit.line_of("06", name, "w.reshape(-1, 32, 2")
    assert lines["to_half_values"] == (
        "FAIL to_half_values: interleaved_to_half(x of shape (4, 2), 1) raised ValueError: cannot reshape array of "
        f"size 8 into shape (32,2,2) ({name}, line {line})"), output
    assert kit.passes(lines, TO_INTER[:2] + TO_INTER[3:]), output


def test_a_reordering_outside_the_list_shows_the_learners_rows(tmp_path):
    code, lines, output = kit.learner(tmp_path, "06", "to_half_pairs_reversed.py")
    theirs = [6, 4, 2, 0, 7, 5, 3, 1, 14, 12, 10, 8, 15, 13, 11, 9]
    assert lines["to_half_values"] == (
        f"FAIL to_half_values: for 2 heads of d_head = 8, the new rows of your interleaved_to_half take the old rows "
        f"{theirs}; they must take {conversion_permutation(8, 2).tolist()} (new row r is old row order[r])"), output
    assert kit.passes(lines, ["to_half_shape", "to_half_rows_move_whole", "to_half_per_head"]), output


def test_an_answer_that_edits_w_in_place_is_told_so(tmp_path):
    source = kit.edited(SOLUTION, ("    return pairs.transpose(0, 2, 1, 3).reshape(w.shape)\n",
                                   "    w[:] = pairs.transpose(0, 2, 1, 3).reshape(w.shape)\n    return w\n"))
    code, lines, output = kit.check(tmp_path, "06", source)
    assert code == 1
    assert lines["to_half_shape"] == ("FAIL to_half_shape: interleaved_to_half(x of shape (16, 5), 2) changed its "
                                      "input array in place; compute a new array and return it"), output
    assert kit.passes(lines, TO_INTER[:2] + TO_INTER[3:]), output


# --- the real model: SmolLM2-135M's rows, where the wheel is installed ---------------------------------------


@pytest.fixture(scope="module")
def smollm2():
    pytest.importorskip("gguf")
    from experiments.real_model.gguf_model import INSTALL_HINT, half_split_rows, load_gguf, model_path

    try:
        model_path()
    except FileNotFoundError:
        pytest.skip(f"the SmolLM2 GGUF wheel is not installed: {INSTALL_HINT}")
    model = load_gguf()
    return model, half_split_rows(model)


@pytest.mark.parametrize("layer", [0, 17])
def test_the_reference_solution_converts_smollm2s_real_rows(smollm2, layer):
    """llama.cpp stores the q/k rows interleaved; the solution gives back the checkpoint's half-split rows,
    exactly as `half_split_rows` does (transformers' un-permutation), and every rebuilt mistake does not."""
    model, half = smollm2
    solution = kit.load(C06 / "solution.py")
    config = {k: model.config[k] for k in checks.SMOLLM2}
    assert config == checks.SMOLLM2  # the checker's synthetic copy has the model's own shapes
    n, n_kv = config["n_heads"], config["n_kv_heads"]
    q, k, v = (model.tensors[f"blk.{layer}.attn_{x}.weight"] for x in "qkv")
    hq, hk = half[f"blk.{layer}.attn_q.weight"], half[f"blk.{layer}.attn_k.weight"]
    assert (q.shape, k.shape, v.shape) == ((576, 576), (192, 576), (192, 576)) and q.dtype == np.float32
    assert np.array_equal(solution.interleaved_to_half(q, n), hq) and not np.array_equal(hq, q)
    assert np.array_equal(solution.interleaved_to_half(k, n_kv), hk) and not np.array_equal(hk, k)
    assert np.array_equal(solution.half_to_interleaved(hq, n), q)
    assert np.array_equal(solution.half_to_interleaved(hk, n_kv), k)
    fused = solution.qkv_to_half(np.concatenate([q, k, v]), n, n_kv)
    assert np.array_equal(fused, np.concatenate([hq, hk, v]))
    for _, _, wrong in checks._to_half_mistakes():  # q is square: even the column mistake has its shape
        assert not np.allclose(wrong(q, n), hq)
    with pytest.raises(ValueError):  # keys converted with 9 heads: 192 rows do not split into 9 heads
        interleaved_to_half(k, n)


# --- the page: its numbers, its sample output, its tables ----------------------------------------------------


def test_the_pages_worked_example_is_the_solutions():
    solution = kit.load(C06 / "solution.py")
    text = " ".join(PAGE.split())
    w = np.arange(1, 9).reshape(4, 2)
    rows = solution.interleaved_to_half(w, 1).tolist()
    assert f"`{w.tolist()}`" in text and f"`{rows}`" in text
    assert solution.half_to_interleaved(w, 1).tolist() == rows  # d_head = 4: its own inverse

    def order(function, rows: int, n: int) -> str:
        return str(function(np.arange(rows)[:, None], n)[:, 0].tolist())

    assert f"new rows take the old rows {order(solution.interleaved_to_half, 8, 1)}" in text
    assert f"`half_to_interleaved` takes {order(solution.half_to_interleaved, 8, 1)}" in text
    assert f"two heads of 4 take {order(solution.interleaved_to_half, 8, 2)}" in text
    s = checks.SMOLLM2
    d, n, n_kv = s["d_head"], s["n_heads"], s["n_kv_heads"]
    assert f"{n * d} query rows are {n} heads of {d}, its {n_kv * d} key rows {n_kv} heads" in text
    assert f"fused, {(n + 2 * n_kv) * d} rows" in text and (n * d) % n == 0 and (n_kv * d) % n
    assert f"{n_kv * d} rows into {n} heads would give {n_kv * d / n:.2f} rows a head" in text
    assert f"{8 * 128:,} key rows" in text and f"heads of {8 * 128 // 32} rows" in text  # Llama 3 8B
    k = np.random.default_rng(0).normal(size=(8 * 128, 4))  # there the wrong head count runs, and differs
    assert not np.allclose(interleaved_to_half(k, 32), interleaved_to_half(k, 8))


def test_the_page_shows_what_the_checker_prints(tmp_path):
    _, _, output = kit.learner(tmp_path, "06", "qkv_keys_with_query_heads.py")
    assert kit.page_sample(ROOT / "docs" / "challenges" / "06-rope-layouts.md") == output.strip()


def test_the_pages_tables_are_the_checkers():
    properties = kit.page_table(PAGE, "13 of 16 properties pass\n```")
    assert [row[0].strip("`") for row in properties] == [p.name for p in checks.PROPERTIES]
    said = {row[0].strip("`"): row[1] for row in properties}
    widths, heads = sorted({d for _, d, _ in checks.VALUE_SIZES}), sorted(n for n, _, _ in checks.VALUE_SIZES)
    assert f"at `d_head` {widths[0]}, {widths[1]} and {widths[2]}, with {heads[0]} to {heads[-1]} heads" in \
        said["to_half_values"]
    assert f"positions up to {checks.SMOLLM2_POSITIONS.max():,}" in said["to_half_smollm2"]
    assert checks.SMOLLM2_POSITIONS.max() == checks.SMOLLM2["context_length"] - 1
    mistakes = kit.page_table(PAGE, "The checker names these classic mistakes when your output matches one:")
    named: dict[str, set[str]] = {}
    for _, table, index, by in NAMED:
        named.setdefault(_named_hint(table, index)[0], set()).update(by)
    assert {row[0] for row in mistakes} == set(named)
    for row in mistakes:
        assert set(re.findall(r"`(\w+)`", row[2])) == named[row[0]], row[0]
    assert f"the checker's {['six', 'seven', 'eight'][len(named) - 6]}" in " ".join(PAGE.split())


def test_the_pages_python_lines_fit():
    for block in re.findall(r"```python\n(.*?)```", PAGE, flags=re.S):
        assert max(len(line) for line in block.splitlines()) <= 79
    assert max(len(line) for line in SOLUTION.splitlines()) <= 79
