"""The prose checker itself: it must catch a wrong number and say where."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from project import reading as _prose
from project.model import read_lesson

PAGE = '''r"""
# A page with one wrong number

```python
import math
round(math.pi, 2)  # → 3.14
math.cos(4)  # → -0.654
math.sqrt(2)  # → 1.415
```

    ```python
    [1.0, 2.0]  # → [1.0, 2.0]
    ```
"""
'''


def lesson_from(tmp_path: Path, text: str):
    path = tmp_path / "page.py"
    path.write_text(text)
    return read_lesson(path)


def test_a_wrong_value_names_file_line_expected_and_actual(tmp_path):
    lesson = lesson_from(tmp_path, PAGE)
    blocks = _prose.python_blocks(lesson)
    assert [b.first_line for b in blocks] == [5, 12]  # indented blocks (in admonitions) count too
    problems = [p for b in blocks for p in _prose.run_block(b)]
    assert len(problems) == 1
    assert problems[0].startswith(f"{lesson.path}:8: `math.sqrt(2)` expected 1.415, actual 1.414")


@pytest.mark.parametrize(
    "expected, actual, ok",
    [
        ("-0.654", np.cos(4), True),
        ("-0.65", np.cos(4), True),
        ("-0.653", np.cos(4), False),
        ("82685", 82685.4, True),
        ("82685", 82686, False),
        ("4000.0", 4000, True),
        ("8.27", 8 ** (128 / 126), True),
        ("('1.15e-04', '1.44e-05')", ("1.15e-04", "1.44e-05"), True),
        ("1.15e-04", 1.1548e-4, True),
        ("1.15e-04", 1.16e-4, False),
        ("[0.802, 0.599]", np.array([0.8018, 0.5986]), True),
        ("(0.802, 0.599)", [0.802, 0.599], False),  # a tuple is printed as a tuple
        ("[(0.802, 0.599), (0.599, 0.802)]", [(0.8021, 0.5989), (0.5989, 0.8021)], True),
        ("True", np.True_, True),
        ("True", 1, False),
        ("{'a': 1.0}", {"a": 0.99996}, True),
        ("'0.841'", "0.841", True),
        ("array([1, 2])", np.array([1, 2]), True),
        ("1.0", float("nan"), False),
    ],
)
def test_values_are_compared_at_the_printed_precision(expected, actual, ok):
    assert _prose.matches(expected, actual) is ok


def test_an_arrow_on_a_statement_or_a_raising_block_is_reported(tmp_path):
    text = '''r"""
# Broken examples

```python
x = 3  # → 3
```

```python
1 / 0  # → 1
```
"""
'''
    lesson = lesson_from(tmp_path, text)
    problems = [p for b in _prose.python_blocks(lesson) for p in _prose.run_block(b)]
    assert problems[0].endswith(":5: a '# →' line must be an expression, not a statement")
    assert ":9: python block raised ZeroDivisionError" in problems[1]


def test_a_value_under_its_expression_is_checked_even_when_it_goes_on(tmp_path):
    """A long `# →` value stands on the lines under its expression (so code blocks fit the
    column): it is checked like one beside it, and its continuation lines are part of it."""
    text = '''r"""
# Values under their expressions

```python
import math
[round(math.cos(g), 3) for g in (0, 3, 100)]
# → [1.000, -0.990,
#   0.862]
[round(math.cos(g), 3) for g in (0, 3, 100)]
# → [1.000, -0.990,
#   0.863]
round(math.pi, 2)
# → 3.15
```

```python
x = 3

# → 3
```
"""
'''
    lesson = lesson_from(tmp_path, text)
    problems = [p for b in _prose.python_blocks(lesson) for p in _prose.run_block(b)]
    assert len(problems) == 3, problems
    assert problems[0].startswith(f"{lesson.path}:9: `[round(math.cos(g), 3) for g in (0, 3, 100)]` expected "
                                  "[1.000, -0.990, 0.863], actual [1.0, -0.99, 0.862]")
    assert problems[1].startswith(f"{lesson.path}:12: `round(math.pi, 2)` expected 3.15")
    assert problems[2].endswith(":19: '# → 3' is not at the end of a statement")  # a blank line between


# The position_ids page as it stood at f08bf1e: the conformance gaps with their digits (rounding
# that read 1.7e-15 with OpenBLAS's Haswell kernels and 7.8e-16 with its AVX-512 ones).
DIGITS_PAGE = '''r"""
# Rounding written with its digits

```python
from lessons.position_ids import conformance_table
rows = conformance_table()
[f"{r['gap']:.1e}" for r in rows][:3]
# → ['4.4e-16', '1.7e-15', '1.4e-15']
max(r["gap"] for r in rows if not r["bug"]) < 1e-14  # → True
```
"""
'''


def test_a_rounding_value_written_with_digits_is_an_error(tmp_path):
    lesson = lesson_from(tmp_path, DIGITS_PAGE)
    problems = [p for b in _prose.python_blocks(lesson) for p in _prose.run_block(b)]
    floor = [p for p in problems if "with its digits" in p]
    # one message, on the line the statement ends, naming each tiny value (the bound on the next line is fine)
    assert len(floor) == 1, problems
    assert floor[0].startswith(f"{lesson.path}:7: ") and "4.4e-16" in floor[0] and "1e-12" in floor[0]
    assert "gap < 1e-12  # → True" in floor[0] and "gap_text" in floor[0]


@pytest.mark.parametrize(
    "expected, flagged",
    [
        ("['4.4e-16', '5.2e+00']", ["4.4e-16"]),
        ("(True, 1.7e-15)", ["1.7e-15"]),
        ("-3e-13", ["3e-13"]),
        ("{'a': 2.2e-16}", ["2.2e-16"]),
        ("array([1e-16, 2.0])", ["1e-16"]),  # not a literal: every number it shows
        ("0.0", []), ("'0.0e+00'", []), ("0", []),  # an exact zero is the same on every machine
        ("1e-12", []), ("['< 1e-12', '3.8e-02']", []), ("(17, 11)", []),
        # inside text too: a label, a tuple printed as a string, a Unicode minus, an imaginary part
        ("'gap 4.4e-16'", ["4.4e-16"]), ("'(4.4e-16, 1.0)'", ["4.4e-16"]), ("'4.4e\u221216'", ["4.4e-16"]),
        ("4.4e-16j", ["4.4e-16j"]), ("'< 1e-14'", ["1e-14"]), ("'x2e-16'", []),
    ],
)
def test_which_values_are_rounding_digits(expected, flagged):
    assert _prose.rounding_digits(expected) == flagged


def test_the_pages_bound_is_the_checkers_floor():
    """gap_text writes a rounding gap as the bound the checker's floor allows: one number."""
    from lessons._show import ROUNDING, gap_text

    assert ROUNDING == _prose.ROUNDING_FLOOR
    assert _prose.rounding_digits(repr(gap_text(ROUNDING / 3))) == []
    assert gap_text(0.0) == gap_text(-ROUNDING / 2) == f"< {ROUNDING:.0e}" and gap_text(0.038) == "3.8e-02"


BOUNDS_PAGE = '''r"""
# Bounds tighter than rounding, and a rounding gap shown as zero

```python
import numpy as np
gap = float(np.float64(0.1) * 3 - np.float64(0.3))
gap < 1e-15  # → True
round(gap, 12)  # → 0.0
gap  # → 0.0
gap < 1e-12  # → True
np.isclose(gap, 0, atol=1e-14)  # → True
abs(gap) == 0  # → False
```
"""
'''


def test_a_bound_below_the_floor_and_a_rounding_zero_are_errors(tmp_path):
    """0.1 * 3 - 0.3 is 5.55e-17 on every machine, yet each line below the first assignment but the
    two fair ones (the 1e-12 bound, the == 0 test) is how a kernel-dependent check gets written."""
    lesson = lesson_from(tmp_path, BOUNDS_PAGE)
    problems = [p for b in _prose.python_blocks(lesson) for p in _prose.run_block(b)]
    lines = sorted(int(p.split(":")[1]) for p in problems)
    assert lines == [7, 8, 9, 11], problems
    assert "`1e-15`" in problems[0] and "round(gap, 12)" in problems[1] and "written as 0.0" in problems[2]
    assert all("1e-12  # → True" in p for p in problems)
