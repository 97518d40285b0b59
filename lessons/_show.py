"""The terminal voice every lesson's `demo()` shares: banner, say, table,
matrix, takeaway, and gap_text for a difference that may be rounding. Plain
text, 78 columns, no colour codes, so a demo reads the same in a terminal, a
CI log and a test's captured output."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

import numpy as np

WIDTH = 78

# A float64 difference between two computations of order 1 below this is rounding: its digits
# depend on the order in which the CPU's floating-point kernels sum (OpenBLAS picks its kernels
# for the CPU it finds), so a page, a lab or a demo writes the bound, never the digits. The prose
# checker rejects a checked value below the same floor written with digits
# (figures_build/reading.py ROUNDING_FLOOR; tests/test_prose_checker.py holds the two equal).
ROUNDING = 1e-12


def banner(title: str) -> None:
    """A section heading: the step of the walkthrough that starts here."""
    print()
    print(title)
    print("=" * min(len(title), WIDTH))


def say(text: str) -> None:
    """A paragraph of narration; indentation from triple-quoted strings is removed."""
    print(textwrap.fill(" ".join(textwrap.dedent(text).split()), WIDTH))


def _cell(value: object, floatfmt: str) -> str:
    if isinstance(value, (float, np.floating)):
        return format(float(value), floatfmt)
    return str(value)


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], floatfmt: str = ".3f") -> None:
    """A left-aligned text table; floats are printed with `floatfmt`."""
    body = [[_cell(v, floatfmt) for v in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in body)) if body else len(str(h)) for i, h in enumerate(headers)]
    print("  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in body:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def matrix(label: str, values: np.ndarray, fmt: str = "7.3f") -> None:
    """A labelled matrix (or vector), one row per line."""
    values = np.atleast_2d(np.asarray(values, dtype=float))
    print(f"{label}:")
    for row in values:
        print("  [" + " ".join(format(v, fmt) for v in row) + " ]")


def takeaway(text: str) -> None:
    """The one sentence to remember from this step."""
    print()
    print(textwrap.fill(" ".join(text.split()), WIDTH, initial_indent="=> ", subsequent_indent="   "))


def gap_text(value: float, bound: float = ROUNDING, fmt: str = ".1e") -> str:
    """A difference as a page writes it: "< 1e-12" when |value| is below `bound` (rounding,
    whose digits differ between machines; an exact 0 included, since no kernel promises it),
    else formatted with `fmt` (by default two significant digits, "3.8e-02")."""
    value = float(value)
    return f"< {bound:.0e}" if abs(value) < bound else format(value, fmt)
