"""The prose checker itself: it must catch a wrong number and say where."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from figures_build import reading as _prose
from figures_build.project import read_lesson

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
