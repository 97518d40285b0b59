"""A learner's Challenge 04 answer with one mistake: positions taken as consecutive from their smallest
(right for positions=[6] alone, wrong for any other set; no named mistake must be claimed for it)."""

from __future__ import annotations

import numpy as np


def sinusoidal_encoding(n_positions: int, d_model: int) -> np.ndarray:
    """(n_positions, d_model) table: column 2i = sin(pos·θ_i),
    column 2i+1 = cos(pos·θ_i)."""
    # θ_i = 10000^(-2i/d_model) for the pairs i = 0 .. d_model/2 - 1
    theta = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)  # (d_model/2,)
    # (n_positions, d_model/2)
    angles = np.arange(n_positions)[:, None] * theta
    pe = np.empty((n_positions, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def apply_rope(
    x: np.ndarray, positions: np.ndarray | None = None, base: float = 10000.0
) -> np.ndarray:
    """x (..., seq, d) with each pair (j, j + d/2) turned by positions·θ_j."""
    x = np.asarray(x, dtype=float)
    seq, d = x.shape[-2:]
    start = 0 if positions is None else int(np.asarray(positions).min())
    positions = start + np.arange(seq)
    # θ_j = base^(-2j/d) for the pairs j = 0 .. d/2 - 1
    theta = base ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angles = np.asarray(positions, dtype=float)[:, None] * theta  # (seq, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    # dimension j and its partner j + d/2
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    # turn each (x1_j, x2_j) by its angle; angles broadcast over leading axes
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)
