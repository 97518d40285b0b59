"""Challenge 03 (ALiBi) through its command line: the reference solution passes;
each named mistake, written as a learner would in tests/data/c03/, gets the
checker's own hint word for word; answers right only at powers of two or only
for square calls fail; the starter fails cleanly; the page's numbers, sample
output and tables are the checker's and the solution's."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from challenges.c03 import checks
from lessons.alibi import alibi_bias_at, alibi_slopes, half_weight_distance
from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C03 = ROOT / "challenges" / "c03"
SOLUTION = (C03 / "solution.py").read_text(encoding="utf-8")
PAGE = (ROOT / "docs" / "challenges" / "03-alibi.md").read_text(encoding="utf-8")
SLOPES = ["slopes_shape", "slopes_values", "slopes_powers_of_two", "slopes_other_counts", "slopes_order"]
BIAS = ["bias_shape", "bias_values", "bias_causal", "bias_shift_invariant", "bias_decode_step",
        "bias_rectangular", "bias_no_loop"]
RIGHT_FOR_YOUR_SLOPES = "your alibi_bias is right for the slopes your alibi_slopes returns, but those are wrong: "


def check(tmp_path: Path, source: str, *options: str, name: str = "answer.py"):
    return kit.check(tmp_path, "03", source, *options, name=name)


def edited(*replacements: tuple[str, str]) -> str:
    return kit.edited(SOLUTION, *replacements)


# --- named mistakes: one learner file each, the hint word for word ------------------------------------------

# (learner file, the checker's table, the entry's index there, the properties that must name it):
# "S" the slopes' rebuilt mistakes, "B" the bias's, "row" those read from the rows
NAMED = [
    ("slopes_power_formula.py", "S", 0, ("slopes_values", "slopes_other_counts", "slopes_order")),
    ("slopes_extra_in_a_row.py", "S", 1, ("slopes_values", "slopes_other_counts", "slopes_order")),
    ("slopes_rounded_up.py", "S", 2, ("slopes_values", "slopes_other_counts", "slopes_order")),
    ("slopes_halving.py", "S", 3, ("slopes_values", "slopes_powers_of_two", "slopes_other_counts", "slopes_order")),
    ("slopes_h_from_0.py", "S", 4, ("slopes_values", "slopes_powers_of_two", "slopes_other_counts", "slopes_order")),
    ("slopes_sorted.py", "S", 5, ("slopes_values", "slopes_other_counts", "slopes_order")),
    ("bias_sign_flipped.py", "B", 0, ("bias_values", "bias_causal", "bias_rectangular")),
    ("bias_symmetric.py", "B", 1, ("bias_values", "bias_causal", "bias_rectangular")),
    ("bias_no_mask.py", "B", 2, ("bias_values", "bias_causal", "bias_rectangular")),
    ("bias_gap_reversed.py", "B", 3, ("bias_values", "bias_causal", "bias_rectangular")),
    ("bias_positions_ignored.py", "B", 4, ("bias_causal", "bias_decode_step", "bias_rectangular")),
    ("bias_query_distances.py", "B", 5, ("bias_decode_step",)),
    ("bias_key_only.py", "row", "the key-only form",
     ("bias_values", "bias_causal", "bias_shift_invariant", "bias_rectangular")),
]
# properties that fail another way: the learner's code cannot broadcast several queries against more keys
RAISES = {"bias_query_distances.py": ("bias_shape", "bias_causal", "bias_shift_invariant", "bias_rectangular")}


def _named_hint(table: str, key) -> tuple[str, str]:
    """(the mistake's name, 'classic mistake "NAME": EXPLANATION') in the checker's own words."""
    if table == "row":
        (classic, why), name = checks.ROW_MISTAKES[key], key
    elif table == "S":
        name, why, _, _, classic = list(checks._slope_mistakes())[key]
    else:
        name, why, _, classic = list(checks._bias_mistakes())[key]
    return name, f'{"classic mistake" if classic else "mistake"} "{name}": {why}'


@pytest.mark.parametrize("name, table, key, named_by", NAMED, ids=[n for n, *_ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, table, key, named_by):
    code, lines, output = kit.learner(tmp_path, "03", name)
    assert code == 1
    _, hint = _named_hint(table, key)
    for prop in named_by:
        assert lines[prop] == f"FAIL {prop}: {hint}", output
    raising = RAISES.get(name, ())
    for prop in raising:
        assert "raised ValueError: operands could not be broadcast together" in lines[prop], output
    mine, other = (SLOPES, BIAS) if table == "S" else (BIAS, SLOPES)
    assert all(lines[p].startswith("PASS") for p in mine if p not in named_by + raising), output
    if table == "S":  # the learner's bias uses the learner's slopes, and is told so
        wrong = {p for p in other if not lines[p].startswith("PASS")}
        assert wrong == {"bias_values", "bias_rectangular"}, output
        assert lines["bias_values"].startswith(f"FAIL bias_values: {RIGHT_FOR_YOUR_SLOPES}"), output
    else:
        assert all(lines[p].startswith("PASS") for p in other), output


def test_each_named_mistake_has_a_learner_file():
    rebuilt = len(list(checks._slope_mistakes())) + len(list(checks._bias_mistakes())) + len(checks.ROW_MISTAKES)
    assert len(NAMED) == rebuilt and len({n for n, *_ in NAMED}) == len(NAMED)
    assert all(kit.learner_file("03", n).is_file() for n, *_ in NAMED)


def test_the_rebuilt_mistakes_are_told_apart():
    """No rebuilt mistake equals the reference or another one where the checker compares them."""
    for k, (_, _, wrong, counts, _) in enumerate(checks._slope_mistakes()):
        assert not all(checks._same_slopes(wrong(n), alibi_slopes(n)) for n in counts)
        for _, _, other, _, _ in list(checks._slope_mistakes())[k + 1:]:
            assert not all(checks._same_slopes(wrong(n), other(n)) for n in counts)

    def outputs(build) -> list:
        found = []
        for n, q, k in checks.BIAS_PROBES:
            try:
                found.append(build(alibi_slopes(n), q, k))
            except ValueError:
                found.append(None)
        return found

    right = outputs(checks._right)
    assert all(np.allclose(r, alibi_bias_at(n, q, k)) for r, (n, q, k) in zip(right, checks.BIAS_PROBES, strict=True))
    built = [outputs(build) for _, _, build, _ in checks._bias_mistakes()] + [right]
    for a in range(len(built)):
        for b in range(a + 1, len(built)):
            assert any(x is None or y is None or x.shape != y.shape or not np.allclose(x, y)
                       for x, y in zip(built[a], built[b], strict=True)), (a, b)


# --- right at one size only: fails ---------------------------------------------------------------------------


def test_slopes_right_only_at_powers_of_two_fail(tmp_path):
    # the extra heads take the even h of the 2c sequence: copies of slopes already there
    source = edited(("odd = np.arange(1, 2 * (n_heads - closest), 2)", "odd = np.arange(2, 2 * (n_heads - closest) + 1, 2)"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert lines["slopes_values"] == (
        "FAIL slopes_values: alibi_slopes(12) must be [0.5, 0.25, 0.125, 0.0625, 0.0312, 0.0156, 0.0078, 0.0039, "
        "0.7071, 0.3536, 0.1768, 0.0884]; yours is [0.5, 0.25, 0.125, 0.0625, 0.0312, 0.0156, 0.0078, 0.0039, 0.5, "
        f"0.25, 0.125, 0.0625] (your slopes are right at every power of two; for other head counts {checks.HOW})"), output
    assert lines["slopes_powers_of_two"].startswith("PASS"), output
    assert lines["slopes_other_counts"].startswith("FAIL slopes_other_counts: alibi_slopes(3) must be alibi_slopes(2)")
    assert lines["slopes_order"].startswith("FAIL slopes_order: for 3 heads (not a power of two) the slopes are "
                                            "not in falling order: slope 2 jumps back up"), output


def test_a_bias_right_only_for_square_calls_fails(tmp_path):
    # the mask from the array's shape (np.tri), not from the positions
    source = edited(("return np.where(gap >= 0, bias, -np.inf)",
                     "return np.where(np.tri(len(i), len(j), dtype=bool), bias, -np.inf)"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert all(lines[p].startswith("PASS") for p in SLOPES + ["bias_shape", "bias_values", "bias_shift_invariant",
                                                              "bias_no_loop"]), output
    assert lines["bias_decode_step"] == (
        "FAIL bias_decode_step: decoding with a cache, one query at position 3 against the cached keys 0..3 must give "
        "row 3 of alibi_bias(8, np.arange(11), np.arange(11)); alibi_bias(8, [3], np.arange(4))[0, 0, 1] is -inf; "
        "expected -1"), output
    assert lines["bias_rectangular"] == (
        "FAIL bias_rectangular: queries and keys need not be the same positions: alibi_bias(8, np.arange(4, 7), "
        "np.arange(7))[0, 0, 1] is -inf; expected -1.5"), output
    assert lines["bias_causal"].startswith("FAIL bias_causal: alibi_bias(5, [3, 7], np.arange(9))[0, 0, 1] is -inf, "
                                           "for the key at 1 at or before the query at 3"), output


def test_a_finite_mask_passes_and_a_small_one_is_told(tmp_path):
    code, _, output = check(tmp_path, edited(("bias, -np.inf)", "bias, np.finfo(float).min)")))
    assert code == 0, output
    code, lines, output = check(tmp_path, edited(("bias, -np.inf)", "bias, -1e4)")))
    assert lines["bias_values"].startswith("FAIL bias_values: alibi_bias(8, np.arange(4), np.arange(4))[0] must be"), output
    assert lines["bias_causal"] == (
        "FAIL bias_causal: alibi_bias(12, np.arange(9), np.arange(9))[0, 0, 1] is -1e+04, for the key at 1 after the "
        "query at 0; a key after the query is masked: -inf (or a number <= -1e+09)"), output


def test_a_python_loop_over_positions_is_found_by_counting_lines(tmp_path):
    code, lines, output = kit.learner(tmp_path, "03", "bias_double_loop.py")
    found = re.fullmatch(r"FAIL bias_no_loop: a Python loop over the positions: alibi_bias ran (\d+) lines of "
                         r"bias_double_loop\.py for the small input and (\d+) for one with 8 times more positions; "
                         r"build the whole \(n_q, n_k\) gap at "
                         r"once: query_positions\[:, None\] - key_positions\[None, :\] broadcasts queries against keys",
                         lines["bias_no_loop"])
    assert code == 1 and found and int(found[2]) > 32 * int(found[1]), output  # 64² key pairs against 8²
    assert all(lines[p].startswith("PASS") for p in SLOPES + BIAS[:-1]), output


# --- the page: its numbers, its sample output, its tables ----------------------------------------------------


def _fraction(x: float) -> str:
    f = Fraction(float(x)).limit_denominator(1024)
    assert math.isclose(float(f), x), x
    return f"{f.numerator}/{f.denominator}"


def test_the_pages_worked_example_is_the_solutions():
    eight, twelve, three = alibi_slopes(8), alibi_slopes(12), alibi_slopes(3)
    assert ", ".join(_fraction(m) for m in eight) in PAGE.replace("\n", " ")
    extra = twelve[8:]
    text = " ".join(PAGE.split())
    assert ", ".join(f"2^{{{math.log2(m):g}}}" for m in extra) in text  # 2^{-0.5}, 2^{-1.5}, ...
    assert "≈ " + ", ".join(f"{m:.3f}" for m in extra) in text
    assert f"slope 8 ({twelve[8]:.3f}) is steeper than slope 0 ({twelve[0]:g})" in text and twelve[8] > twelve[0]
    head0 = alibi_bias_at(8, np.arange(4), np.arange(4))[0]
    rows = [" & ".join("-\\infty" if v == -np.inf else f"{v + 0:g}" for v in row) for row in head0]
    assert " \\\\ ".join(rows) + " \\end{pmatrix}" in text
    step = alibi_bias_at(8, [3], np.arange(4))[0, 0]
    assert f"$({', '.join(f'{v + 0:g}' for v in step)})$" in text and np.array_equal(step, head0[3])
    assert f"({', '.join(_fraction(m) for m in three)})" in text  # the follow-up's 3 heads
    steep, gentle = half_weight_distance(eight[0]), half_weight_distance(eight[-1])
    assert f"\\approx {steep:.2f}$ tokens" in text and f"\\approx {gentle:.0f}$" in text
    rounded = list(checks._slope_mistakes())[2][2](12)
    assert f"$2^{{{math.log2(rounded[0]):g}}} \\dots 2^{{{math.log2(rounded[-1]):g}}}$ for 12" in text


def test_the_pages_sample_output_is_the_checkers(tmp_path):
    _, _, output = kit.learner(tmp_path, "03", "slopes_power_formula.py")
    assert kit.page_sample(ROOT / "docs" / "challenges" / "03-alibi.md") == output.strip()


def test_the_pages_tables_are_the_checkers():
    properties = kit.page_table(PAGE, "7 of 12 properties pass\n```")
    assert [row[0].strip("`") for row in properties] == [p.name for p in checks.PROPERTIES]
    said = {row[0].strip("`"): row[1] for row in properties}
    assert f"from {checks.HEAD_COUNTS[0]} to {checks.HEAD_COUNTS[-1]}" in said["slopes_values"]
    assert ", ".join(map(str, checks.OTHER_COUNTS)) in said["slopes_other_counts"]
    powers = checks.POWERS_OF_TWO
    assert f"{', '.join(map(str, powers[:3]))}, …, {powers[-1]}" in said["slopes_powers_of_two"]
    assert powers == tuple(2 ** k for k in range(len(powers)))
    heads, lengths = sorted(n for n, _ in checks.VALUE_SIZES), sorted(length for _, length in checks.VALUE_SIZES)
    assert f"for {heads[0]} to {heads[-1]} heads over odd lengths from {lengths[0]} to {lengths[-1]}" in said["bias_values"]
    assert all(length % 2 for length in lengths)
    assert f"({', '.join(str(s) for *_, s in checks.SHIFTED)})" in said["bias_shift_invariant"]
    (_, q1, k1), (_, q2, k2), (_, _, k3) = checks.RECTANGULAR
    assert f"({q1.size} queries against {k1.size} keys, {q2.size} against {k2.size}, keys from {k3[0]} on)" in \
        said["bias_rectangular"]
    short, long = checks.LOOP_LENGTHS
    assert f"as many for {long} positions as for {short}" in said["bias_no_loop"]

    mistakes = kit.page_table(PAGE, "The checker names these mistakes when your output matches one:")
    names = {}
    for name, classic, by, _ in _learner_names():
        names.setdefault(name, (classic, set()))[1].update(by)
    on_page = {row[0].removesuffix(" (not classic)"): row for row in mistakes}
    assert set(on_page) == set(names)
    for name, row in on_page.items():
        classic, named_by = names[name]
        assert row[0].endswith("(not classic)") != classic, name
        assert set(re.findall(r"`(\w+)`", row[2])) == named_by, name
    assert f"the checker's {_number_word(len(names))}" in " ".join(PAGE.split())


def _learner_names():
    """(mistake name, classic?, the properties naming it, learner file) for every NAMED entry."""
    for file, table, key, named_by in NAMED:
        name, hint = _named_hint(table, key)
        yield name, hint.startswith("classic"), set(named_by), file


def _number_word(n: int) -> str:
    return {10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen"}[n]


def test_a_miss_past_the_fourth_digit_is_printed_with_the_digits_that_differ(tmp_path):
    """Found by review: float16 slopes were told 'is -1.414; expected -1.414'."""
    code, lines, output = kit.learner(tmp_path, "03", "bias_float16_slopes.py")
    assert code == 1
    assert lines["bias_values"] == (
        "FAIL bias_values: alibi_bias(12, np.arange(13), np.arange(13))[8, 2, 0] is -1.4140625; expected -1.4142136 "
        "(off by at most 9.1e-04, and every value you return is a float16 number: part of your computation is in "
        "float16; compute in float32 or float64)"), output
