"""Challenge 02, reference solution: a learned position table and its end."""

from __future__ import annotations

import numpy as np


def embed(
    token_ids: np.ndarray,
    token_table: np.ndarray,
    position_table: np.ndarray,
    start_pos: int = 0,
) -> np.ndarray:
    """(..., seq, d_model): token rows plus position rows start_pos .. ;
    ValueError past the table's last row, or for a start_pos below 0."""
    token_ids = np.asarray(token_ids)
    seq, n_rows = token_ids.shape[-1], position_table.shape[0]
    if start_pos < 0:  # numpy would read rows counted from the end
        raise ValueError(f"start_pos must be >= 0, got {start_pos}")
    if start_pos + seq > n_rows:
        first = max(start_pos, n_rows)  # the first position with no row
        raise ValueError(
            f"position {first} has no row: the position table has "
            f"{n_rows} rows (positions 0..{n_rows - 1})"
        )
    positions = start_pos + np.arange(seq)  # (seq,)
    # (..., seq, d_model) + (seq, d_model): rows broadcast over the batch
    return token_table[token_ids] + position_table[positions]
