"""What every challenge's checks share: `Fail`, a guarded call into the learner's
code, comparisons and short number formatting.

A property is a function `check(sol: Solution) -> None` that raises `Fail`
with a one-line hint when it does not hold. It calls the learner's functions
only through `Solution.call`, which turns every way a call can go wrong (it
raises, returns None, returns the wrong shape, NaN, edits its input) into a
`Fail` with one line that says so.
"""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

TOL = 1e-4  # float32 answers pass; every classic mistake is off by far more


# The learner's calls run with these numpy errors raised (issue 42): an answer that overflows at a
# realistic width (d_model 512, the 2017 transformer's) fails at the line that overflowed, instead of
# passing because the inf happened to turn into a harmless 0 or 1 further on. Division by zero stays a
# warning: log(0) = -inf is a fair way to write a mask.
RAISED = {"over": "raise", "invalid": "raise"}

# numpy's floating-point error -> the learner's likely mistake (Solution.why_not_finite); a challenge's
# checks module may define its own NOT_FINITE_CAUSES, which replace these entry by entry
NOT_FINITE_CAUSES = {
    "overflow": "a number grew past float range: a power like 10000**(2*i) with a large i?",
    "divide by zero": "a division by zero: an integer power like 10000**(2*i) that overflowed "
                      "to 0, or 1 / 0 at position 0? use floats (10000.0) and negative exponents",
    "invalid value": "0/0, inf - inf or the log or square root of a negative number",
}


def _copied(args: tuple, kwargs: dict) -> tuple[list, dict]:
    """The call's arguments with every array copied, so the learner's function cannot edit the checker's."""
    return ([a.copy() if isinstance(a, np.ndarray) else a for a in args],
            {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in kwargs.items()})


class Fail(Exception):
    """A property does not hold; the message is the one-line hint."""


@dataclass(frozen=True)
class Property:
    name: str
    needs: str  # the learner's function it calls
    check: Callable[[Solution], None]


def registry() -> tuple[list[Property], Callable]:
    """(the list, a decorator `@prop("function_name")` that appends to it in source order)."""
    found: list[Property] = []

    def prop(needs: str):
        def add(check):
            found.append(Property(check.__name__, needs, check))
            return check

        return add

    return found, prop


def mistake(name: str, explanation: str, classic: bool = True) -> Fail:
    """A Fail that names a recognised mistake."""
    return Fail(f'{"classic mistake" if classic else "mistake"} "{name}": {explanation}')


class Solution:
    """The learner's module, called safely."""

    def __init__(self, module, path: Path, emit: Callable[..., None] = lambda **event: None,
                 causes: dict[str, str] | None = None):
        self.module, self.path, self.emit = module, Path(path), emit
        self.causes = {**NOT_FINITE_CAUSES, **(causes or {})}
        self.calls: list[tuple[str, str, tuple, dict]] = []  # (text, name, args, kwargs), for --repro

    def call(self, name: str, *args, shape: tuple[int, ...] | None = None, what: str = "", masked: bool = False,
             **kwargs) -> np.ndarray:
        """name(*args, **kwargs) as a float array, or Fail with one line.

        Arrays are passed as copies; `shape` is the shape the answer must have,
        and `what` says in words what its axes are. With `masked`, -inf entries
        are allowed (a mask written into a bias); NaN and +inf still fail.
        """
        text, error, out = self.attempt(name, *args, **kwargs)
        if isinstance(error, FloatingPointError):  # numpy overflowed or made a NaN inside the learner's code
            raise Fail(self.floating_point_failure(text, name, args, kwargs))
        if error is not None:  # the learner's exception, on one line
            raise Fail(f"{text} raised {self.one_line(error)}")
        if out is None:
            raise Fail(f"{text} returned None: write its body and return the array")
        if getattr(out, "dtype", None) == np.float16:
            raise Fail(f"{text} returned float16 values, which keep about 3 significant digits (errors near "
                       "1e-3, far above the checks' 1e-4); compute in float32 or float64")
        try:
            arr = np.asarray(out, dtype=float)
        except (TypeError, ValueError):
            raise Fail(f"{text} returned {type(out).__name__}, not an array of numbers") from None
        if shape is not None and arr.shape != tuple(shape):
            raise Fail(f"{text} returned shape {arr.shape}; expected {tuple(shape)}" + (f" = {what}" if what else ""))
        if not np.all(np.isfinite(arr) | (masked & np.isneginf(arr))):
            raise Fail(f"{text} returned NaN or inf values{self.why_not_finite(name, args, kwargs)}")
        return arr

    def attempt(self, name: str, *args, **kwargs) -> tuple[str, BaseException | None, object]:
        """name(*args, **kwargs) where it may rightly raise: (the call's text, the exception it raised
        or None, what it returned, unconverted). Fails when the call edits its input arrays, even if
        it then raised."""
        text = describe_call(name, args, kwargs)
        self.emit(kind="call", text=text)
        self.calls.append((text, name, args, kwargs))
        given, given_kw = _copied(args, kwargs)
        try:
            with np.errstate(**RAISED):
                error, out = None, getattr(self.module, name)(*given, **given_kw)
        except (Exception, SystemExit) as exc:
            error, out = exc, None
        for before, after in zip([*args, *kwargs.values()], [*given, *given_kw.values()], strict=True):
            if isinstance(before, np.ndarray) and not np.array_equal(before, after):
                raise Fail(f"{text} changed its input array in place; compute a new array and return it")
        return text, error, out

    def floating_point_failure(self, text: str, name: str, args: tuple, kwargs: dict) -> str:
        """The hint for a call that overflowed or made a NaN: the first such error, traced to its line.

        Run again with numpy's errors ignored: a result with NaN or inf 'returned NaN or inf values';
        a finite one 'hit a floating-point error' (the inf vanished later, as 1/inf = 0 does, so the
        answer only looks right)."""
        given, given_kw = _copied(args, kwargs)
        try:
            with np.errstate(all="ignore"):
                finite = bool(np.all(np.isfinite(np.asarray(getattr(self.module, name)(*given, **given_kw),
                                                            dtype=float))))
        except (Exception, SystemExit):
            finite = False
        where = self.why_not_finite(name, args, kwargs)
        if not finite:
            return f"{text} returned NaN or inf values{where}"
        return (f"{text} hit a floating-point error{where}; the result looks finite only because the inf "
                "or NaN vanished further on (1/inf is 0)")

    def why_not_finite(self, name: str, args: tuple, kwargs: dict) -> str:
        """Where a NaN or inf came from: the call again with numpy's floating-point errors raised.

        Returns ': <what> at <file>, line N (<a likely cause>)', or '' when numpy raises nothing.
        """
        given, given_kw = _copied(args, kwargs)
        try:
            with np.errstate(over="raise", divide="raise", invalid="raise", under="ignore"):
                getattr(self.module, name)(*given, **given_kw)
        except FloatingPointError as exc:
            what = str(exc).split(" encountered")[0]  # "overflow", "divide by zero", "invalid value"
            line = self.learner_line(exc)
            kind = next((k for k in self.causes if what.startswith(k)), None)
            return (f": {what}" + (f" at {self.path.name}, line {line}" if line else "")
                    + (f" ({self.causes[kind]})" if kind else ""))
        except (Exception, SystemExit):
            return ""
        return ""

    def one_line(self, exc: BaseException) -> str:
        """'Type: message (file.py, line N)', the line being the last one in the learner's file."""
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        if isinstance(exc, SyntaxError) and exc.msg:
            message = exc.msg  # its str() already says "(file, line N)": say it once, below
        if isinstance(exc, SystemExit):
            message = f"sys.exit({exc.code!r}) was called"
        text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
        if len(text) > 160:
            text = text[:157] + "..."
        line = self.learner_line(exc)
        return text + (f" ({self.path.name}, line {line})" if line else "")

    def learner_line(self, exc: BaseException) -> int | None:
        """The last line of the learner's file in the exception's traceback (a SyntaxError's own line)."""
        line = exc.lineno if isinstance(exc, SyntaxError) and exc.lineno else None
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            if Path(frame.f_code.co_filename).resolve() == self.path.resolve():
                line = lineno
        return line


def describe_call(name: str, args: tuple, kwargs: dict) -> str:
    """sinusoidal_encoding(8, 4), apply_rope(x of shape (7, 16), positions=[6])."""

    def show(value, first: bool) -> str:
        if isinstance(value, np.ndarray):
            if value.ndim == 1 and value.size <= 8:
                return "[" + ", ".join(f"{v:g}" for v in value.tolist()) + "]"
            return f"{'x' if first else 'an array'} of shape {value.shape}"
        return repr(value)

    parts = [show(a, i == 0) for i, a in enumerate(args)] + [f"{k}={show(v, False)}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


def close(a, b, tol: float = TOL) -> bool:
    """Same shape (or b a single number) and equal to within tol (absolute)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return (a.shape == b.shape or b.ndim == 0) and bool(np.allclose(a, b, rtol=0.0, atol=tol))


def precision_note(got, want, relative: bool = False) -> str:
    """' (off by at most E: ...)' when got misses want by an error of float16's size; else ''.

    Between TOL and 1e-2 (absolute, or `relative` to want) is what float16 arithmetic gives on
    these inputs (about 3 significant digits; float32 stays well under TOL), and also what a
    slightly wrong constant (a base, a scale) can give, so the note names both, unless every
    value of `got` is a float16 number (the last operation was done in float16 and widened):
    then it says float16."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    error = float(np.max(np.abs(got - want) / (np.abs(want) if relative else 1.0)))
    if not TOL < error < 1e-2:
        return ""
    with np.errstate(over="ignore"):
        float16_values = bool(np.array_equal(got, got.astype(np.float16).astype(float)))
    size = f"off by at most {error:.1e}" + (", relative" if relative else "")
    if float16_values:
        return (f" ({size}, and every value you return is a float16 number: part of your computation is in "
                "float16; compute in float32 or float64)")
    return (f" ({size}: a small error, from float16 somewhere in your computation or from a slightly wrong "
            "constant such as a base or a scale)")


def fmt(values, digits: int = 3, most: int = 6) -> str:
    """[0.841, 0.54, 0.01, 1]: at most `most` numbers, rounded."""
    def number(v: float) -> str:
        text = f"{v:.{digits}f}"
        if "." in text:  # trailing zeros of the fraction only: 10 stays 10
            text = text.rstrip("0").rstrip(".")
        return "0" if text in ("", "-0") else text

    flat = np.asarray(values, dtype=float).ravel()
    shown = ", ".join(number(v) for v in flat[:most])
    return f"[{shown}{', …' if flat.size > most else ''}]"


LOOP_SLACK = 8  # lines a vectorized body may add for a larger input (a branch taken, say); a loop adds one per item


def no_loop(sol: Solution, name: str, sizes: dict[str, tuple], run: Callable[..., object], advice: str) -> None:
    """Fail when the lines of the learner's file Python runs grow with the input.

    sizes: {"small": args, <what>: args with 8 times more <what>, ...}, e.g. {"small": (8, 8),
    "positions": (64, 8), "columns": (8, 64)}; each is first called as `run(*args)`, through
    `Solution.call`, so a wrong answer is reported by the other properties, not here. The lines
    are counted (`python_lines`), not timed: the answer does not depend on the machine."""
    counts = {}
    for label, args in sizes.items():
        run(*args)
        try:
            counts[label] = python_lines(sol.path, lambda args=args: getattr(sol.module, name)(*args))
        except (Exception, SystemExit) as exc:
            raise Fail(f"{name} raised {sol.one_line(exc)} while its lines were counted") from None
    for label in list(sizes)[1:]:
        if counts[label] > counts["small"] + LOOP_SLACK:
            raise Fail(f"a Python loop over the {label}: {name} ran {counts['small']} lines of {sol.path.name} "
                       f"for the small input and {counts[label]} for one with 8 times more {label}; {advice}")


def python_lines(path: Path, run: Callable[[], object]) -> int:
    """How many lines of the file at `path` Python executes while `run()` runs (its return value dropped).

    Counts the interpreter's 'line' events in frames of that file (`sys.settrace`), so the
    answer does not depend on the machine's speed: a vectorized function runs the same lines
    for 8 positions as for 64, a loop over positions runs its body once per position.
    """
    target = str(Path(path).resolve())
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename != target:
            return None  # do not trace numpy or the checker
        if event == "line":
            count += 1
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        run()
    finally:
        sys.settrace(previous)
    return count


def worst(a, b) -> tuple[tuple[int, ...], float, float]:
    """(index, a's value, b's value) where a and b differ most."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    index = np.unravel_index(int(np.argmax(np.abs(a - b))), a.shape)
    return tuple(int(i) for i in index), float(a[index]), float(b[index])
