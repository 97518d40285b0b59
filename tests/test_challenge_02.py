"""Challenge 02's checker, through its command line (`python -m challenges`): the reference
solution passes; one learner file per named mistake fails with that mistake's hint, word for
word; answers right at one size only fail; the page's worked example, sample output and
tables are the checker's own.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from challenges.c02 import checks
from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C02 = ROOT / "challenges" / "c02"
SOLUTION = (C02 / "solution.py").read_text(encoding="utf-8")
PAGE = (ROOT / "docs" / "challenges" / "02-learned-positions.md").read_text(encoding="utf-8")
PROPS = ["shape", "values", "decode_step", "batch_axes", "last_row", "one_past_end", "start_past_end",
         "negative_start", "inputs_unchanged"]

# (learner file in tests/data/c02, the mistake's index in checks.mistakes(), the properties that name it:
# every property it fails, the others pass)
NAMED = [
    ("start_pos_ignored.py", 0, ("values", "decode_step", "last_row", "negative_start")),
    ("positions_from_1.py", 1, ("values", "last_row", "start_past_end", "negative_start")),
    ("rows_by_token_id.py", 2, ("shape", "values", "decode_step", "batch_axes", "last_row", "one_past_end",
                                "start_past_end", "negative_start")),
    ("clipped_past_end.py", 3, ("one_past_end", "start_past_end", "negative_start")),
    ("wrapped_past_end.py", 4, ("one_past_end", "start_past_end", "negative_start")),
    ("sliced_past_end.py", 5, ("one_past_end", "start_past_end", "negative_start")),
    ("assert_for_the_end.py", 6, ("one_past_end", "start_past_end", "negative_start")),
]


def check(tmp_path: Path, source: str, *options: str, name: str = "answer.py") -> tuple[int, dict[str, str], str]:
    return kit.check(tmp_path, "02", source, *options, name=name)


def _hint(index: int) -> str:
    """'classic mistake "NAME": EXPLANATION' as the checker's own table words it."""
    name, why, _, classic, _ = list(checks.mistakes())[index]
    return f'{"classic mistake" if classic else "mistake"} "{name}": {why}'


@pytest.mark.parametrize("name, index, named_by", NAMED, ids=[n for n, _, _ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, index, named_by):
    code, lines, output = kit.learner(tmp_path, "02", name)
    assert code == 1
    for prop in named_by:
        assert lines[prop] == f"FAIL {prop}: {_hint(index)}", output
    assert all(lines[p].startswith("PASS") for p in PROPS if p not in named_by), output


def test_each_named_mistake_has_a_learner_file():
    assert len(NAMED) == len(list(checks.mistakes())) == 7 and "the seven the checker names" in PAGE
    assert sorted(i for _, i, _ in NAMED) == list(range(len(NAMED)))
    assert all(kit.learner_file("02", n).is_file() for n, _, _ in NAMED)


def test_the_rebuilt_mistakes_are_told_apart():
    """On the diagnosis's calls each rebuilt mistake differs from the reference and matches no other."""
    rng = np.random.default_rng(20)
    tokens, rows = rng.normal(size=(12, 8)), rng.normal(size=(16, 8))
    calls = [(rng.integers(0, 12, size=seq), tokens, rows, start) for seq, start in checks.DIAGNOSIS]

    def outcomes(f):
        return [checks._outcome(lambda c=c: f(*c)) for c in calls]

    def same(a, b, n):
        return all(checks._same(x, y) for x, y in zip(a[:n], b[:n], strict=True))

    reference, found = outcomes(checks.reference), list(checks.mistakes())
    for i, (name, _, wrong, _, inside) in enumerate(found):
        got = outcomes(wrong)
        assert not same(got, reference, checks.INSIDE if inside else len(calls)), name
        for other, _, wrong2, _, inside2 in found[:i]:  # an earlier entry would claim it
            assert not same(got, outcomes(wrong2), checks.INSIDE if inside2 else len(calls)), (name, other)


def test_the_reference_is_the_lessons_learned_table():
    from lessons.transformer import TinyGPT

    model = TinyGPT(vocab_size=50, d_model=16, n_heads=2, n_layers=1, max_len=16, position="learned", seed=3)
    tokens = np.array([4, 9, 1, 30])
    rows = model.scheme.W_pos
    assert np.array_equal(checks.reference(tokens, model.W_emb, rows, 5), model.embed(tokens, start_pos=5))
    solution = kit.load(C02 / "solution.py")
    assert np.array_equal(solution.embed(tokens, model.W_emb, rows, 5), model.embed(tokens, start_pos=5))
    with pytest.raises(ValueError, match="position 16 is past"):
        checks.reference(tokens, model.W_emb, rows, 13)
    # below 0 the model refuses start_pos before its table (which alone would read rows from its end), and so
    # do the checker's reference and the solution
    for embed in (model.embed, lambda t, s: checks.reference(t, model.W_emb, rows, s),
                  lambda t, s: solution.embed(t, model.W_emb, rows, s)):
        with pytest.raises(ValueError, match="start_pos must be .*>= 0, got -1"):
            embed(tokens, -1)
    assert np.array_equal(model.scheme.add_to_embeddings(model.W_emb[tokens], -1 + np.arange(4))[0],
                          model.W_emb[tokens[0]] + rows[-1])


@pytest.mark.parametrize("name, failing", [
    ("right_only_16_rows.py", {"shape", "values", "decode_step", "last_row", "one_past_end", "start_past_end",
                               "negative_start", "inputs_unchanged"}),
    ("right_only_width_8.py", {"shape", "values", "decode_step", "batch_axes", "last_row", "negative_start",
                               "inputs_unchanged"}),
])
def test_an_answer_right_at_one_size_only_fails(tmp_path, name, failing):
    # planted: right with the 16-row table, or at d_model = 8, the sizes it was tried on
    code, lines, output = kit.learner(tmp_path, "02", name)
    assert code == 1
    assert {p for p, line in lines.items() if line.startswith("FAIL")} == failing, output
    assert "mistake" not in output, output  # not mistaken for a named one


def test_an_error_that_names_nothing_is_refused(tmp_path):
    source = kit.edited(SOLUTION, ('''        raise ValueError(
            f"position {first} has no row: the position table has "
            f"{n_rows} rows (positions 0..{n_rows - 1})"
        )''', '        raise ValueError("sequence too long")'))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "too long" in text)
    assert lines["one_past_end"] == (
        "FAIL one_past_end: embed([17, 32, 39, 2, 97, 5, 95], an array of shape (100, 64), an array of shape "
        f"(1024, 64), start_pos=1018) raised ValueError: sequence too long (answer.py, line {line}); its message "
        "must name the first position with no row (1024) and the table's row count (1024)"), output
    assert "(1030) and the table's row count (1024)" in lines["start_past_end"], output


def test_numpys_own_index_error_passes(tmp_path):
    # the page's Hint 2: position_table[positions] with no check of its own raises what the checks ask for
    source = kit.edited(SOLUTION, ("    if start_pos + seq > n_rows:\n", "    if False:\n"))
    code, _, output = check(tmp_path, source)
    assert code == 0, output
    with pytest.raises(IndexError) as raised:
        np.zeros((1024, 2))[1020 + np.arange(7)]
    assert f'"{raised.value}"' in " ".join(PAGE.split())  # the page wraps it


def test_a_sequence_read_from_the_first_axis_fails_the_batch_check(tmp_path):
    source = kit.edited(SOLUTION, ("token_ids.shape[-1], position_table", "len(token_ids), position_table"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert lines["batch_axes"].endswith("len(token_ids) counts the batch), and the (seq, d_model) rows broadcast")
    assert lines["one_past_end"].endswith(  # its end check counts len(token_ids) too
        "the end check counts the batch, not the tokens (len(token_ids) = 2 is the batch's size; the sequence is "
        "token_ids.shape[-1] = 7 long, and 10 + 7 > 16 rows)"), output
    assert all(lines[p].startswith("PASS") for p in PROPS if p not in ("batch_axes", "one_past_end")), output


def test_an_end_checked_with_len_fails_for_a_batch_past_the_end(tmp_path):
    # planted (issue 42, review): `start_pos + len(token_ids) > n_rows` and a slice; right for one sequence, and
    # a (2, 7) batch at start_pos=10 on 16 rows slips past the check into a broadcast error naming no position
    code, lines, output = kit.learner(tmp_path, "02", "end_checked_with_len.py")
    assert code == 1
    line = kit.line_of("02", "end_checked_with_len.py", "position_table[start_pos:start_pos + seq]")
    assert lines["one_past_end"] == (
        "FAIL one_past_end: embed(x of shape (2, 7), an array of shape (100, 8), an array of shape (16, 8), "
        "start_pos=10) raised ValueError: operands could not be broadcast together with shapes (2,7,8) (6,8) "
        f"(end_checked_with_len.py, line {line}), yet one of its sequences passed alone raises as it should: the "
        "end check counts the batch, not the tokens (len(token_ids) = 2 is the batch's size; the sequence is "
        "token_ids.shape[-1] = 7 long, and 10 + 7 > 16 rows)"), output
    assert lines["negative_start"].startswith("FAIL negative_start: "), output  # its slice is empty below 0
    assert all(lines[p].startswith("PASS") for p in PROPS if p not in ("one_past_end", "negative_start")), output
    # every batched case is one the len() check lets through: start_pos + batch size <= n_rows
    cases = [*checks.ONE_PAST_BATCHED]
    assert cases and all(start + batch[0] <= rows < start + seq for batch, _, rows, seq, start in cases)


def test_a_batch_past_the_end_is_checked_even_when_the_answer_reads_the_batch(tmp_path):
    # an answer that raises right for one sequence but returns an array for a batch is told the same
    source = kit.edited(SOLUTION, ("if start_pos + seq > n_rows:", "if start_pos + len(token_ids) > n_rows:"),
                        ("position_table[positions]", "np.take(position_table, positions, axis=0, mode='clip')"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert lines["one_past_end"].startswith(
        "FAIL one_past_end: embed(x of shape (2, 7), an array of shape (100, 8), an array of shape (16, 8), "
        "start_pos=10) returned an array of shape (2, 7, 8), yet one of its sequences passed alone raises as it "
        "should: the end check counts the batch, not the tokens (len(token_ids) = 2"), output
    assert all(lines[p].startswith("PASS") for p in PROPS if p != "one_past_end"), output


def test_a_negative_start_read_from_the_end_fails(tmp_path):
    # planted (issue 42, review): below 0 numpy reads rows counted from the end; the answer raises only under -n_rows
    code, lines, output = kit.learner(tmp_path, "02", "negative_start_wraps.py")
    assert code == 1
    assert lines["negative_start"] == (
        "FAIL negative_start: embed([65, 37, 9, 68, 23, 51, 31], an array of shape (100, 8), an array of shape "
        "(16, 8), start_pos=-1) returned an array of shape (7, 8), yet position -1 has no row (positions start at "
        "0; position_table[-1] is row 15, counted from the end): raise ValueError naming start_pos"), output
    assert all(lines[p].startswith("PASS") for p in PROPS if p != "negative_start"), output


def test_an_error_below_0_must_name_start_pos(tmp_path):
    source = kit.edited(SOLUTION, ('f"start_pos must be >= 0, got {start_pos}"', '"start_pos is negative"'))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert lines["negative_start"].endswith(
        "raised ValueError: start_pos is negative (answer.py, line 19); for a start_pos below 0 raise ValueError "
        "(or IndexError) whose message names it (-1)"), output
    assert all(lines[p].startswith("PASS") for p in PROPS if p != "negative_start"), output


def test_a_slice_added_into_in_place_is_caught(tmp_path):
    # a slice is a view: `rows += ...` writes into the learner's position table
    source = kit.edited(SOLUTION, ("    return token_table[token_ids] + position_table[positions]\n",
                                   "    rows = position_table[start_pos : start_pos + seq]\n"
                                   "    rows += token_table[token_ids]\n    return rows\n"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert "changed its input array in place; compute a new array and return it" in lines["inputs_unchanged"]


# --- the page ---------------------------------------------------------------------------------------


def test_the_pages_worked_example_is_the_solutions():
    embed = kit.load(C02 / "solution.py").embed
    tokens, seats = checks.WORKED_TOKENS, checks.WORKED_SEATS
    out = embed(checks.WORKED_IDS, tokens, seats, checks.WORKED_START)
    step = embed(np.array([0]), tokens, seats, 3)
    assert np.allclose(out, [[-0.7, 0.5], [0.6, 0.1]]) and np.allclose(step, out[1:])
    wrong = {name: f for name, _, f, _, _ in checks.mistakes()}
    clipped = wrong["clipped past the end"](np.array([1]), tokens, seats, 4)[0]  # sat at 4
    wrapped = wrong["wrapped past the end"](np.array([1]), tokens, seats, 4)[0]
    at_zero = wrong["start_pos ignored"](np.array([0]), tokens, seats, 3)[0]  # dog decoded at 3
    assert np.allclose([clipped, wrapped, at_zero], [tokens[1] + seats[3], tokens[1] + seats[0], tokens[0] + seats[0]])
    for row in (*out, clipped, wrapped, at_zero):
        assert f"({row[0]:.1f}, {row[1]:.1f})" in PAGE, row
    with pytest.raises(ValueError) as raised:
        embed(np.array([1]), tokens, seats, 4)
    assert f"`ValueError: {raised.value}`" in PAGE


def test_the_sizes_the_page_states_are_the_ones_checked():
    sizes = [*checks.SIZES, *checks.LAST_ROWS, *checks.ONE_PAST, *checks.START_PAST]
    assert {d for d, *_ in sizes} == {8, 64, 128, 768}
    assert {1, 7, 13} <= {seq for _, _, seq, _ in checks.SIZES}
    assert {rows for _, rows, *_ in sizes} == {1, 16, 1024}
    assert max(start for *_, start in checks.SIZES) == 1000 and (768, 1024, 13, 1000) in checks.SIZES
    assert {(rows, start) for _, rows, _, start in checks.ONE_PAST} >= {(1024, 1018)}
    assert (64, 1024, 1, 1030) in checks.START_PAST
    assert all(start + seq == rows for _, rows, seq, start in checks.LAST_ROWS)
    assert all(start + seq == rows + 1 for _, rows, seq, start in checks.ONE_PAST)
    assert all(start >= rows for _, rows, _, start in checks.START_PAST)
    assert all(start + seq == rows + 1 for _, _, rows, seq, start in checks.ONE_PAST_BATCHED)
    assert all(start >= rows for _, _, rows, _, start in checks.START_PAST_BATCHED)
    assert ((2,), 8, 16, 7, 10) in checks.ONE_PAST_BATCHED and "`(2, 7)` ids at `start_pos=10` on 16 rows" in PAGE
    assert [start for *_, start in checks.NEGATIVE] == [-1, -5, -40] and "(−1, −5, −40)" in PAGE
    assert [b for b, *_ in checks.BATCHES] == [(2,), (3, 2)] and {r for _, r, _ in checks.DECODES} == {16, 1024}
    # GPT-2 small's table, as lessons.positional counts it
    assert 1024 * 768 == 786_432 and "1,024 × 768 = 786,432" in PAGE
    assert "n_positions * width / 124_000_000 < 0.01  # → True" in (ROOT / "lessons" / "positional.py").read_text()
    # the worked example's toy table is the lesson's
    assert "seats = np.array([[0.0, 0.0], [0.2, -0.1], [-0.3, 0.4], [0.1, 0.3]])" in (
        ROOT / "lessons" / "positional.py").read_text(encoding="utf-8")
    for row in (*checks.WORKED_SEATS, *checks.WORKED_TOKENS):
        assert f"({row[0]:.1f}, {row[1]:.1f})$" in PAGE, row


def test_the_pages_sample_output_is_the_checkers(tmp_path):
    _, _, output = kit.learner(tmp_path, "02", "clipped_past_end.py")  # the page's "An answer that clips"
    assert kit.page_sample(ROOT / "docs" / "challenges" / "02-learned-positions.md") == output.strip()


def _table(after: str) -> list[list[str]]:
    """The cells of the first table after the text `after`, header and rule left out."""
    lines = PAGE.split(after, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[2:]


def test_the_pages_tables_are_the_checkers():
    assert [row[0] for row in _table("properties pass\n```")] == [f"`{p}`" for p in PROPS]
    mistakes = {row[0]: row[2] for row in _table("names these mistakes")}
    assert list(mistakes) == [name for name, *_ in checks.mistakes()]
    for name, index, named_by in NAMED:
        cell = mistakes[list(checks.mistakes())[index][0]]
        assert re.findall(r"`(\w+)`", cell) == list(named_by), (name, cell)


def test_the_pages_code_fits_79_columns():
    blocks = re.findall(r"```python\n(.*?)```", PAGE, re.S)
    long = [line for path in [C02 / "solution.py"] for line in path.read_text(encoding="utf-8").splitlines()
            if len(line) > 79] + [line for block in blocks for line in block.splitlines() if len(line) > 79]
    assert not long, long
