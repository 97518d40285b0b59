"""A learner's Challenge 03 answer whose bias uses its slopes rounded to float16 (an error past the 4th digit)."""

from __future__ import annotations

import math

import numpy as np


def alibi_slopes(n_heads: int) -> np.ndarray:
    """(n_heads,) slopes: 2^(-8h/n) for a power of two n; otherwise the
    closest lower power of two's slopes, then every other slope of the next."""
    closest = 2 ** math.floor(math.log2(n_heads))  # 12 heads -> 8
    # m_h = 2^(-8h/c) for h = 1 .. c: from 2^(-8/c) down to 2^-8
    slopes = 2.0 ** (-8.0 * np.arange(1, closest + 1) / closest)
    # the n - c extra heads: h = 1, 3, 5, ... of the 2c-head sequence
    odd = np.arange(1, 2 * (n_heads - closest), 2)
    extra = 2.0 ** (-8.0 * odd / (2 * closest))
    return np.concatenate([slopes, extra])


def alibi_bias(
    n_heads: int, query_positions: np.ndarray, key_positions: np.ndarray
) -> np.ndarray:
    """(n_heads, n_q, n_k): -m_h·(i - j) for a key at or before the query,
    -inf for a key after it."""
    slopes = alibi_slopes(n_heads).astype(np.float16).astype(np.float32)
    i = np.asarray(query_positions, dtype=float)  # (n_q,)
    j = np.asarray(key_positions, dtype=float)  # (n_k,)
    # query minus key: how many steps back each key is, (n_q, n_k)
    gap = i[:, None] - j[None, :]
    bias = -slopes[:, None, None] * gap  # (n_heads, n_q, n_k)
    # the causal mask: a key after the query (gap < 0) is never seen
    return np.where(gap >= 0, bias, -np.inf)
