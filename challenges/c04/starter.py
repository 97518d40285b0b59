"""Challenge 04: positional encodings (the sinusoidal table and half-split RoPE).

Write the two functions below with numpy, then check your answer:

    python -m challenges check 04 positional_encodings.py

The checker prints PASS or FAIL for each property, with a hint that names the
classic mistake when it recognises one. The problem statement, hints and a
reference solution: the page "Challenge 04: positional encodings" on the
Positional Primer site.
"""

from __future__ import annotations

import numpy as np


def sinusoidal_encoding(n_positions: int, d_model: int) -> np.ndarray:
    """The fixed position codes of the 2017 transformer, one row per position.

    Pair i = 0 .. d_model/2 - 1 turns at theta_i = 10000^(-2i/d_model) radians
    per position, and the table interleaves sine and cosine:

        PE[pos, 2i]   = sin(pos * theta_i)
        PE[pos, 2i+1] = cos(pos * theta_i)

    Args:
        n_positions: how many positions (rows), 0 .. n_positions-1.
        d_model: the width, an even integer.

    Returns:
        (n_positions, d_model) float array.
    """


def apply_rope(x: np.ndarray, positions: np.ndarray | None = None, base: float = 10000.0) -> np.ndarray:
    """Rotary position embedding, half-split layout (Hugging Face's Llama, GPT-NeoX).

    Dimension j (j < d/2) is paired with dimension j + d/2, and the pair is
    turned by the angle positions[t] * theta_j, theta_j = base^(-2j/d):

        out[..., t, j]       = x[..., t, j] * cos - x[..., t, j + d/2] * sin
        out[..., t, j + d/2] = x[..., t, j] * sin + x[..., t, j + d/2] * cos

    Args:
        x: (..., seq, d) array, d even; leading axes (batch, heads) pass through.
        positions: None for 0 .. seq-1, or an integer array of shape (seq,)
            (when decoding with a cache, the new token's true position).
        base: the base of the turning speeds.

    Returns:
        float array of the same shape as x.
    """
