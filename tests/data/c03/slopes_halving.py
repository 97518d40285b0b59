"""A learner's Challenge 03 answer with one mistake: 1/2, 1/4, 1/8, ... whatever the head count."""

from __future__ import annotations

import numpy as np


def alibi_slopes(n_heads: int) -> np.ndarray:
    """(n_heads,) slopes: 2^(-8h/n) for a power of two n; otherwise the
    closest lower power of two's slopes, then every other slope of the next."""
    # each head halves the slope of the one before
    return 0.5 ** np.arange(1, n_heads + 1)


def alibi_bias(
    n_heads: int, query_positions: np.ndarray, key_positions: np.ndarray
) -> np.ndarray:
    """(n_heads, n_q, n_k): -m_h·(i - j) for a key at or before the query,
    -inf for a key after it."""
    slopes = alibi_slopes(n_heads)  # (n_heads,)
    i = np.asarray(query_positions, dtype=float)  # (n_q,)
    j = np.asarray(key_positions, dtype=float)  # (n_k,)
    # query minus key: how many steps back each key is, (n_q, n_k)
    gap = i[:, None] - j[None, :]
    bias = -slopes[:, None, None] * gap  # (n_heads, n_q, n_k)
    # the causal mask: a key after the query (gap < 0) is never seen
    return np.where(gap >= 0, bias, -np.inf)
