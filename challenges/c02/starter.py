"""Challenge 02: a learned position table (lookup, add, and the end of the table).

Write the function below with numpy, then check your answer:

    python -m challenges check 02 learned_positions.py

The checker prints PASS or FAIL for each property, with a hint that names the
classic mistake when it recognises one. The problem statement, hints and a
reference solution: the page "Challenge 02: a learned position table" on the
Positional Primer site.
"""

from __future__ import annotations

import numpy as np


def embed(
    token_ids: np.ndarray,
    token_table: np.ndarray,
    position_table: np.ndarray,
    start_pos: int = 0,
) -> np.ndarray:
    """Token vectors plus learned position vectors, as GPT-2 builds its input.

    The tokens sit at positions start_pos, start_pos + 1, ..., start_pos + seq - 1
    (when decoding with a KV cache, start_pos is the number of tokens already
    cached), and token t gets

        out[..., t, :] = token_table[token_ids[..., t]] + position_table[start_pos + t]

    The table has one row per position, 0 .. n_rows - 1, and nothing after:
    when start_pos + seq > n_rows, raise ValueError (or IndexError) with a
    message that names the first position with no row and n_rows. Never reuse,
    wrap or skip rows to carry on. There is no row before 0 either: for a
    start_pos below 0 raise ValueError naming it (numpy would read
    position_table[-1], the last row).

    Args:
        token_ids: (..., seq) integer array; leading axes (batch) pass through.
        token_table: (vocab, d_model) array, one row per token id.
        position_table: (n_rows, d_model) array, one row per position.
        start_pos: the position of the first token, an integer >= 0.

    Returns:
        (..., seq, d_model) float array; the inputs are left unchanged.
    """
