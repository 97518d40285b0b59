"""A learner's Challenge 02 answer with one mistake: the end checked with len(token_ids), which counts a batch's rows."""

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
    if start_pos + len(token_ids) > n_rows:
        first = max(start_pos, n_rows)  # the first position with no row
        raise ValueError(
            f"position {first} has no row: the position table has "
            f"{n_rows} rows (positions 0..{n_rows - 1})"
        )
    # (..., seq, d_model) + (seq, d_model): rows broadcast over the batch
    return token_table[token_ids] + position_table[start_pos:start_pos + seq]
