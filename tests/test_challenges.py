"""Challenge 04's checker, through its command line (`python -m challenges`):
the reference solution passes; one deliberately wrong solution per classic
mistake fails with that mistake's name; broken files get one line and a
non-zero exit, never a traceback; the starter writes a file that fails cleanly.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C04 = ROOT / "challenges" / "c04"
SOLUTION = (C04 / "solution.py").read_text(encoding="utf-8")
TABLE = ["table_shape", "table_values", "table_unit_circle", "table_bounds", "table_no_loop"]
ROPE = ["rope_shape", "rope_values", "rope_identity_at_0", "rope_norm", "rope_offset_only",
        "rope_cache_positions", "rope_batch_axes", "rope_linear", "rope_no_loop"]


def edited(*replacements: tuple[str, str]) -> str:
    """The reference solution with each `old` replaced by `new` (old must be there)."""
    return kit.edited(SOLUTION, *replacements)


def check(tmp_path: Path, source: str, *options: str, name: str = "answer.py") -> tuple[int, dict[str, str], str]:
    """(exit code, {property: its line}, whole output) for `check 04` on `source`."""
    return kit.check(tmp_path, "04", source, *options, name=name)


def test_a_file_with_a_syntax_error_gets_one_line(tmp_path):
    code, _, output = check(tmp_path, "def sinusoidal_encoding(:\n    pass\n", name="broken.py")
    assert code == 1
    assert output.strip().splitlines() == [output.strip()], output
    assert output.startswith("FAIL import: cannot import broken.py: SyntaxError"), output
    assert "line 1" in output


def test_a_file_that_raises_on_import_gets_one_line(tmp_path):
    code, _, output = check(tmp_path, SOLUTION + "\nhalf_finished + 1\n", name="broken.py")
    assert code == 1
    assert len(output.strip().splitlines()) == 1, output
    assert "cannot import broken.py: NameError: name 'half_finished' is not defined (broken.py, line" in output


def test_a_missing_function_is_named_and_the_other_is_still_checked(tmp_path):
    code, lines, output = check(tmp_path, edited(("def apply_rope(", "def rope(")))
    assert code == 1
    assert lines["apply_rope"] == ("FAIL apply_rope: answer.py defines no function "
                                   "apply_rope(x, positions=None, base=10000.0)"), output
    assert all(lines[p].startswith("PASS") for p in TABLE), output
    assert not set(ROPE) & set(lines), output
    assert output.strip().endswith(f"{len(TABLE)} of {len(TABLE + ROPE)} properties pass")


def test_a_function_that_raises_gets_one_line_per_property(tmp_path):
    source = edited(('    x = np.asarray(x, dtype=float)\n', '    raise ValueError("not yet")\n'))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    for prop in ROPE:
        assert "raised ValueError: not yet (answer.py, line" in lines[prop], output


def test_an_endless_loop_is_stopped_by_the_timeout(tmp_path):
    marker = "    # θ_i = 10000^(-2i/d_model)"
    source = edited((marker, "    while True:\n        pass\n" + marker))
    start = time.monotonic()
    code, lines, output = check(tmp_path, source, "--timeout", "3")
    assert time.monotonic() - start < 30
    assert code == 1
    assert lines["table_shape"] == ("FAIL table_shape: sinusoidal_encoding(7, 8) did not return within 3 s "
                                    "(an endless loop? --timeout sets the limit)"), output


def test_an_endless_loop_at_import_is_stopped(tmp_path):
    code, _, output = check(tmp_path, "while True:\n    pass\n", "--timeout", "2", name="stuck.py")
    assert code == 1
    assert output.startswith("FAIL import: importing stuck.py did not finish within 2 s"), output


def test_the_wrong_shape_is_named(tmp_path):
    code, lines, output = check(tmp_path, edited(("    return pe\n", "    return pe.T\n")))
    assert code == 1
    assert lines["table_shape"] == ("FAIL table_shape: sinusoidal_encoding(7, 8) returned shape (8, 7); "
                                    "expected (7, 8) = (n_positions, d_model)"), output


def test_prints_do_not_disturb_the_check(tmp_path):
    source = edited(("    seq, d = x.shape[-2:]\n", "    seq, d = x.shape[-2:]\n    print('debugging', seq, d)\n"))
    code, _, output = check(tmp_path, source, "--show-output")
    assert code == 0, output
    assert "debugging 7 16" in output


def test_usage_errors_exit_2(tmp_path):
    assert kit.run("check", "99", str(tmp_path / "x.py")).returncode == 2
    assert kit.run("check", "04", str(tmp_path / "missing.py")).returncode == 2


# --- learner files in tests/data/c04: each named mistake gets its own hint, word for word ---------------

LEARNERS = ROOT / "tests" / "data" / "c04"


def _explanation(name: str) -> str:
    """The checker's own words for a RoPE mistake (challenges/c04/checks.py), looked up by its name."""
    from challenges.c04.checks import _rope_mistakes

    return next(why for mistake, why, _, _ in _rope_mistakes() if mistake == name)


def _learner(tmp_path: Path, name: str, *options: str) -> tuple[int, dict[str, str], str]:
    return kit.learner(tmp_path, "04", name, *options)


def _line_of(name: str, text: str) -> int:
    return kit.line_of("04", name, text)


def test_rope_with_sine_and_cosine_swapped_is_named(tmp_path):
    code, lines, output = _learner(tmp_path, "rope_sin_cos_swapped.py")
    assert code == 1
    hint = f'classic mistake "sine and cosine swapped": {_explanation("sine and cosine swapped")}'
    assert lines["rope_values"] == f"FAIL rope_values: {hint}", output
    assert "FAIL rope_identity_at_0: the same as rope_values (1 more property fails the same way)" in output
    assert all(lines[p].startswith("PASS") for p in TABLE), output


def test_a_rope_exponent_outside_the_list_shows_the_learners_speeds(tmp_path):
    from challenges._props import fmt

    code, lines, output = _learner(tmp_path, "rope_exponent_d_plus_2.py")
    d = 8  # the diagnosis probes a head of width 8: θ_j = 10000^(-2j/d) against the file's 10000^(-2j/(d+2))
    right, theirs = 10000.0 ** (-np.arange(0, d, 2) / d), 10000.0 ** (-np.arange(0, d, 2) / (d + 2))
    assert lines["rope_values"] == (
        f'FAIL rope_values: classic mistake "wrong frequency exponent": for d={d} and base 10000 the pairs must '
        f"turn θ = {fmt(right, 4)} radians per position (θ_j = base^(-2j/d)); yours turn {fmt(theirs, 4)}"), output
    assert fmt(theirs, 4) == "[1, 0.1585, 0.0251, 0.004]"


def test_the_printed_positions_are_the_positions_the_checker_passed(tmp_path):
    code, lines, output = _learner(tmp_path, "rope_positions_clipped.py")
    assert code == 1
    assert lines["rope_values"].startswith(
        "FAIL rope_values: apply_rope(x of shape (7, 16), positions=[3, 0, 11, 5, 40, 2, 7])["), output
    # the pair that breaks the offset rule is the one past the clip, not the first two (which agree)
    assert "q at 3, k at 7 scores" in lines["rope_offset_only"] and "q at 40, k at 44 scores" in lines["rope_offset_only"]


def test_an_integer_power_is_traced_to_its_line(tmp_path):
    name = "table_integer_power.py"
    code, lines, output = _learner(tmp_path, name)
    line = _line_of(name, "theta = 1 / 10000 ** (2 * np.arange")
    assert lines["table_shape"] == (
        f"FAIL table_shape: sinusoidal_encoding(50, 64) returned NaN or inf values: divide by zero at {name}, "
        f"line {line} (a division by zero: an integer power like 10000**(2*i) that overflowed to 0, or 1 / 0 at "
        "position 0? use floats (10000.0) and negative exponents)"), output
    assert all(lines[p].startswith("PASS") for p in ROPE), output


def test_a_python_loop_is_found_by_counting_lines_not_by_timing(tmp_path):
    import re

    code, lines, output = _learner(tmp_path, "table_double_loop.py")
    assert code == 1
    found = re.fullmatch(r"FAIL table_no_loop: a Python loop over the positions: sinusoidal_encoding ran (\d+) lines "
                         r"of table_double_loop\.py for the small input and (\d+) for one with 8 times more positions; "
                         r"build the whole array at once \(np\.arange\(n\)\[:, None\] \* θ broadcasts positions "
                         r"against speeds\)", lines["table_no_loop"])
    assert found and int(found[2]) > 8 * int(found[1]) * 0.8, output  # 8x the positions: about 8x the lines
    assert all(lines[p].startswith("PASS") for p in TABLE[:-1] + ROPE), output


def test_a_hang_in_one_function_still_lets_the_other_be_checked(tmp_path):
    start = time.monotonic()
    code, lines, output = _learner(tmp_path, "table_hangs.py", "--timeout", "3")
    assert time.monotonic() - start < 40
    assert code == 1
    assert lines["table_shape"] == ("FAIL table_shape: sinusoidal_encoding(7, 8) did not return within 3 s "
                                    "(an endless loop? --timeout sets the limit)"), output
    assert ("FAIL table_values, table_unit_circle, table_bounds, table_no_loop: not run, since "
            "sinusoidal_encoding(7, 8) never returned") in output
    assert all(lines[p].startswith("PASS") for p in ROPE), output
    assert output.strip().endswith(f"{len(ROPE)} of {len(TABLE + ROPE)} properties pass")


def test_identical_hints_are_collapsed_and_a_syntax_error_is_located_once(tmp_path):
    code, _, output = check(tmp_path, "def sinusoidal_encoding(:\n    pass\n", name="broken.py")
    assert output.strip() == "FAIL import: cannot import broken.py: SyntaxError: invalid syntax (broken.py, line 1)"
    source = edited(('    x = np.asarray(x, dtype=float)\n', '    raise ValueError("not yet")\n'))
    code, lines, output = check(tmp_path, source)
    rope_lines = [line for line in output.splitlines() if line.startswith("FAIL rope")]
    same = [p for p in ROPE[1:] if p != "rope_batch_axes"]  # batch_axes adds its own advice to the error
    assert rope_lines[-1] == ("FAIL " + ", ".join(same) + f": the same as rope_shape ({len(same)} more "
                              "properties fail the same way)"), output
    assert len(rope_lines) == 3


def test_fmt_prints_integers_exactly():
    from challenges._props import fmt

    assert fmt([0, 10, 100, 1000], 0, 8) == "[0, 10, 100, 1000]"
    assert fmt([3, 0, 11, 5, 40, 2, 7], 0, 8) == "[3, 0, 11, 5, 40, 2, 7]"
    assert fmt([0.5, 0.25, 1.0], 3) == "[0.5, 0.25, 1]"


# (learner file, the checker's table it must quote, the entry's index there): "T" the table's rebuilt
# mistakes (_table_mistakes), "row" those read from its rows (ROW_MISTAKES), "R" RoPE's (_rope_mistakes)
NAMED = [
    ("table_sin_cos_swapped.py", "T", 0), ("table_concatenated_sin_cos.py", "T", 1),
    ("table_concatenated_cos_sin.py", "T", 2), ("table_exponent_without_2.py", "T", 3),
    ("table_exponent_4i.py", "T", 4), ("table_exponent_sign.py", "T", 5), ("table_exponent_from_1.py", "T", 6),
    ("table_speed_per_column_2k.py", "T", 7), ("table_speed_per_column_k.py", "T", 8),
    ("table_positions_from_1.py", "row", "positions start at 1"), ("table_positions_ignored.py", "row", "positions ignored"),
    ("rope_interleaved_pairs.py", "R", 0), ("rope_interleaved_table.py", "R", 1), ("rope_sin_cos_swapped.py", "R", 2),
    ("rope_positions_ignored.py", "R", 3), ("rope_exponent_without_2.py", "R", 4), ("rope_exponent_4i.py", "R", 5),
    ("rope_exponent_sign.py", "R", 6), ("rope_exponent_from_1.py", "R", 7), ("rope_speed_per_column_2k.py", "R", 8),
    ("rope_speed_per_column_k.py", "R", 9), ("rope_rotation_reversed.py", "R", 10), ("rope_base_ignored.py", "R", 11),
    ("rope_positions_from_1.py", "R", 12),
]
# the properties besides the first that must also name a mistake (each a property the mistake breaks)
ALSO_NAMED_BY = {
    "table_concatenated_sin_cos.py": ("table_unit_circle",),
    "table_speed_per_column_2k.py": ("table_unit_circle",),
    "rope_positions_ignored.py": ("rope_identity_at_0", "rope_offset_only", "rope_cache_positions"),
}


def _named_hint(table: str, key) -> str:
    """'classic mistake "NAME": EXPLANATION' as the checker's own tables word it."""
    from challenges.c04 import checks

    if table == "row":
        classic, why = checks.ROW_MISTAKES[key]
        name = key
    elif table == "T":
        name, why, _ = list(checks._table_mistakes(16, 8))[key]
        classic = True
    else:
        name, why, _, classic = list(checks._rope_mistakes())[key]
    return f'{"classic mistake" if classic else "mistake"} "{name}": {why}'


@pytest.mark.parametrize("name, table, key", NAMED, ids=[n for n, _, _ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, table, key):
    code, lines, output = _learner(tmp_path, name)
    first, other = ("table_values", ROPE) if name.startswith("table") else ("rope_values", TABLE)
    assert code == 1
    for prop in (first, *ALSO_NAMED_BY.get(name, ())):
        assert lines[prop] == f"FAIL {prop}: {_named_hint(table, key)}", output
    assert all(lines[p].startswith("PASS") for p in other), output


def test_each_named_mistake_has_a_learner_file():
    from challenges.c04 import checks

    rebuilt = len(list(checks._table_mistakes(16, 8))) + len(checks.ROW_MISTAKES) + len(list(checks._rope_mistakes()))
    assert len(NAMED) == rebuilt and len({n for n, _, _ in NAMED}) == len(NAMED)
    assert all((LEARNERS / n).is_file() for n, _, _ in NAMED)


# --- the grader tries every size (issue 42): answers right at one size, precision, borrowing, --repro ------


def test_an_answer_right_only_at_one_head_width_fails(tmp_path):
    """Planted: speeds divided by a hard-coded 16. With RoPE compared at d = 16 alone (the checker
    before issue 42) it passed all 14 properties."""
    from challenges._props import fmt

    code, lines, output = _learner(tmp_path, "rope_width_hard_coded.py")
    assert code == 1
    theirs = 10000.0 ** (-np.arange(0, 8, 2) / 16)  # what the file's speeds are at d = 8
    assert lines["rope_values"] == (
        'FAIL rope_values: classic mistake "wrong frequency exponent": for d=8 and base 10000 the pairs must turn '
        f"θ = {fmt(10000.0 ** (-np.arange(0, 8, 2) / 8), 4)} radians per position (θ_j = base^(-2j/d)); "
        f"yours turn {fmt(theirs, 4)}"), output
    assert sum(line.startswith("FAIL") for line in lines.values()) == 1, output


def test_a_table_that_overflows_at_realistic_widths_fails_at_its_line(tmp_path):
    """Planted: exp(2i·ln 10000)^(1/d_model) overflows for d_model > 154; the inf became a speed of 0,
    a table off by less than 0.01, and the checker before issue 42 (widths up to 64) passed it."""
    name = "table_overflows_when_wide.py"
    code, lines, output = _learner(tmp_path, name)
    assert code == 1
    assert lines["table_values"] == (
        f"FAIL table_values: sinusoidal_encoding(7, 128) hit a floating-point error: overflow at {name}, line "
        f"{_line_of(name, 'np.exp(')} (a number grew past float range: a power like 10000**(2*i) with a large i?); "
        "the result looks finite only because the inf or NaN vanished further on (1/inf is 0)"), output


def test_float16_is_named_and_float32_passes(tmp_path):
    code, lines, output = _learner(tmp_path, "rope_float16.py")
    assert lines["rope_shape"] == (
        "FAIL rope_shape: apply_rope(x of shape (7, 16)) returned float16 values, which keep about 3 significant "
        "digits (errors near 1e-3, far above the checks' 1e-4); compute in float32 or float64"), output
    code, lines, output = _learner(tmp_path, "rope_float16_inside.py")
    for prop in ("rope_values", "rope_norm", "rope_linear"):  # float64 results of float16 inputs: either cause
        assert ": a small error, from float16 somewhere in your computation or from a slightly wrong constant such " \
               "as a base or a scale)" in lines[prop], output
    # at position 0 nothing turns: the answer is x rounded to float16, each value a float16 number
    assert lines["rope_identity_at_0"].endswith(
        "and every value you return is a float16 number: part of your computation is in float16; compute in "
        "float32 or float64)"), output
    assert "do not normalise" not in lines["rope_linear"], output
    code, lines, output = _learner(tmp_path, "float32_throughout.py")
    assert code == 0, output


def test_an_answer_that_imports_the_project_is_refused_in_one_line(tmp_path):
    name = "rope_imports_the_lesson.py"
    code, _, output = _learner(tmp_path, name)
    assert code == 1
    assert output.strip() == (f"FAIL import: {name} uses lessons.positional (line {_line_of(name, 'from lessons')}), "
                              "this project's own implementation; write the functions yourself (numpy is all you need)")
    hidden = "import importlib\nsinusoidal_encoding = importlib.import_module('lessons.positional').sinusoidal_encoding\n"
    code, _, output = check(tmp_path, hidden + "apply_rope = None\n")
    assert output.startswith("FAIL import: answer.py uses lessons.positional.sinusoidal_encoding, "), output


def test_repro_writes_each_failing_call_to_run_again(tmp_path):
    import subprocess
    import sys

    folder = tmp_path / "repro"
    code, lines, output = _learner(tmp_path, "rope_rotation_reversed.py", "--repro", str(folder))
    assert code == 1 and lines["rope_values"].startswith("FAIL rope_values"), output
    assert f"the failing properties' calls are in {folder}/" in output
    assert sorted(p.name for p in folder.iterdir()) == ["rope_values.npz", "rope_values.py"]
    again = subprocess.run([sys.executable, str(folder / "rope_values.py")], capture_output=True, text=True,
                           timeout=60, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    # the worked example, the call that failed: row 1 of the learner's output turned the wrong way, by -1 radian
    assert again.stdout.startswith("apply_rope(x of shape (2, 4))\n[[ 1.      0.      0.      0.    ]\n"
                                   " [ 0.5403  0.     -0.8415  0.    ]]\n"), again.stdout


def test_the_page_shows_what_the_checker_prints(tmp_path):
    _, _, output = _learner(tmp_path, "rope_interleaved_pairs.py")
    assert kit.page_sample(ROOT / "docs" / "challenges" / "04-positional-encodings.md") == output.strip()


# --- the hostile review's answers (issue 42): shapes never tried, a misnamed mistake, borrowing, encodings --


def test_positions_counted_from_their_smallest_are_not_called_ignored(tmp_path):
    """Found by review: every diagnosis probe held a 0, so this answer was told "positions ignored"."""
    code, lines, output = _learner(tmp_path, "rope_positions_consecutive_from_smallest.py")
    assert code == 1 and lines["rope_values"].startswith(
        "FAIL rope_values: apply_rope(x of shape (7, 16), positions=[3, 0, 11, 5, 40, 2, 7])["), output
    assert "mistake" not in output, output


def test_an_answer_that_reads_fixed_axes_fails_on_a_3d_input(tmp_path):
    """Found by review: it passed all 14 when rope_batch_axes tried 4-D inputs only."""
    name = "rope_fixed_axes.py"
    code, lines, output = _learner(tmp_path, name)
    assert lines["rope_batch_axes"] == (
        f"FAIL rope_batch_axes: apply_rope(x of shape (3, 7, 16)) raised IndexError: tuple index out of range "
        f"({name}, line {_line_of(name, 'x.shape[2]')}); leading axes (batch, heads) must pass through: split the "
        "last axis (x[..., :d//2]) and let the (seq, d/2) angles broadcast"), output
    assert sum(line.startswith("FAIL") for line in lines.values()) == 1, output


def test_borrowing_through_importlib_is_refused_and_a_helper_of_ones_own_is_not(tmp_path):
    code, _, output = _learner(tmp_path, "rope_imports_with_importlib.py")
    assert output.strip() == ("FAIL import: rope_imports_with_importlib.py uses lessons.rope, this "
                              "project's own implementation; write the functions yourself (numpy is all you need)")
    (tmp_path / "labs.py").write_text("import numpy as np\n\n\ndef angles(p, t):\n    return np.outer(p, t)\n",
                                      encoding="utf-8")
    source = edited(("import numpy as np\n", "import numpy as np\n\nimport labs  # my own helper module\n"))
    code, _, output = check(tmp_path, source)  # the learner's labs.py, beside the answer, is theirs
    assert code == 0, output


def test_a_file_in_another_declared_encoding_is_checked(tmp_path):
    source = "# -*- coding: latin-1 -*-\n# auteur: René\n" + SOLUTION
    path = tmp_path / "latin.py"
    path.write_bytes(source.replace("René", "Ren\xe9").encode("latin-1", errors="replace"))
    done = kit.run("check", "04", str(path))
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
