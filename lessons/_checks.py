"""Input checks shared by every lesson: bad input fails loudly with a
ValueError that names the argument and says what it allows.

One module so that "a positive integer" means the same thing on every page.
Each check returns the value it accepted (converted where that helps), so a
lesson writes `d = even_width(d)` or `x = vector(x, "x")`.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np


def _is_int(value: object) -> bool:
    return isinstance(value, (Integral, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_real(value: object) -> bool:
    return isinstance(value, (Real, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def count(value: int, name: str, low: int = 1) -> int:
    """`value` as an int, if it is an integer >= `low` (a length, a number of heads, ...)."""
    if not _is_int(value) or value < low:
        allowed = "a positive integer (1, 2, 3, ...)" if low == 1 else f"an integer >= {low}"
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return int(value)


def counts(**values: int) -> None:
    """`count` for several named integers at once: counts(seq_len=n, d=d)."""
    for name, value in values.items():
        count(value, name)


def even_width(d: int, name: str = "d") -> int:
    """`d` as an int, if it is a positive even integer: positions come in (sin, cos)
    or rotation pairs, so a width that carries them must be even."""
    if not _is_int(d) or d < 2 or d % 2:
        raise ValueError(f"{name} must be a positive even integer (2, 4, 6, ...), got {d!r}")
    return int(d)


def positive(value: float, name: str) -> float:
    """`value` as a float, if it is a finite real number > 0 (a base, a length, a factor)."""
    if not _is_real(value) or not math.isfinite(value) or not value > 0:
        raise ValueError(f"{name} must be a positive number (> 0), got {value!r}")
    return float(value)


def finite(value: float, name: str) -> float:
    """`value` as a float, if it is a finite real number (an angle in radians, ...)."""
    if not _is_real(value) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    return float(value)


def array(x: object, name: str, ndim: int) -> np.ndarray:
    """`x` as a non-empty float array with `ndim` axes and finite entries."""
    shape = {1: "(d,)", 2: "(rows, columns)"}.get(ndim, f"{ndim} axes")
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of real numbers with shape {shape}; got {x!r}") from None
    if arr.ndim != ndim or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty array of shape {shape}; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite numbers (no nan or inf)")
    return arr


def vector(x: object, name: str) -> np.ndarray:
    """`x` as a non-empty 1-d float array of finite numbers, shape (d,)."""
    return array(x, name, 1)


def matrix(x: object, name: str) -> np.ndarray:
    """`x` as a non-empty 2-d float array of finite numbers, shape (rows, columns)."""
    return array(x, name, 2)


def same_shape(a: np.ndarray, b: np.ndarray, names: str) -> None:
    """`a` and `b` must have one shape; `names` reads like "a and b"."""
    if np.shape(a) != np.shape(b):
        raise ValueError(f"{names} must have the same shape; got {np.shape(a)} and {np.shape(b)}")


def broadcasts_to(shape: tuple, target: tuple, name: str) -> None:
    """An array of `shape` must broadcast to exactly `target` (a mask or bias onto the scores)."""
    try:
        grown = np.broadcast_shapes(tuple(shape), tuple(target))
    except ValueError:
        grown = None
    if grown != tuple(target):
        raise ValueError(f"{name} of shape {tuple(shape)} does not broadcast to the shape {tuple(target)}")


def one_of(value: str, name: str, allowed: tuple[str, ...]) -> str:
    """`value`, if it is one of `allowed` (a layout, a position scheme, ...)."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
    return value
