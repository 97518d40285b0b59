"""A learner's Challenge 02 answer with one mistake: a start_pos below 0 is let through and numpy reads rows from the end."""

from __future__ import annotations

import numpy as np


def embed(
    token_ids: np.ndarray,
    token_table: np.ndarray,
    position_table: np.ndarray,
    start_pos: int = 0,
) -> np.ndarray:
    """(..., seq, d_model): token rows plus position rows start_pos .. ;
    ValueError past the table's last row."""
    token_ids = np.asarray(token_ids)
    seq, n_rows = token_ids.shape[-1], position_table.shape[0]
    if start_pos + seq > n_rows or start_pos < -n_rows:
        first = max(start_pos, n_rows)  # the first position with no row
        raise ValueError(
            f"position {first} has no row: the position table has "
            f"{n_rows} rows (positions 0..{n_rows - 1})"
        )
    positions = start_pos + np.arange(seq)  # (seq,)
    # (..., seq, d_model) + (seq, d_model): rows broadcast over the batch
    return token_table[token_ids] + position_table[positions]
