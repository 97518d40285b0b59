"""A learner's Challenge 03 answer with one mistake: 2^(-8h/n) for every head count, a power of two or not."""

from __future__ import annotations

import numpy as np


def alibi_slopes(n_heads: int) -> np.ndarray:
    """(n_heads,) slopes: 2^(-8h/n) for a power of two n; otherwise the
    closest lower power of two's slopes, then every other slope of the next."""
    # m_h = 2^(-8h/n) for h = 1 .. n
    return 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)


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
