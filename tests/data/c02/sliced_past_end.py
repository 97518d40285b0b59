"""A learner's Challenge 02 answer with one mistake: the position rows are a slice, which stops quietly at the table's end."""

from __future__ import annotations

import numpy as np


def embed(token_ids, token_table, position_table, start_pos=0):
    """(..., seq, d_model): token rows plus position rows start_pos .. start_pos+seq-1."""
    token_ids = np.asarray(token_ids)
    seq = token_ids.shape[-1]
    return token_table[token_ids] + position_table[start_pos : start_pos + seq]
