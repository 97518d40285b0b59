"""Challenge 03: ALiBi (slopes for any head count, and the distance bias).

Write the two functions below with numpy, then check your answer:

    python -m challenges check 03 alibi.py

The checker prints PASS or FAIL for each property, with a hint that names the
classic mistake when it recognises one. The problem statement, hints and a
reference solution: the page "Challenge 03: ALiBi" on the Positional Primer
site.
"""

from __future__ import annotations

import numpy as np


def alibi_slopes(n_heads: int) -> np.ndarray:
    """ALiBi's slope per head.

    For a power of two n the slopes are the geometric sequence that starts
    at 2^(-8/n) and uses that same value as its ratio:

        m_h = 2^(-8h/n),   h = 1 .. n        (8 heads: 1/2, 1/4, ..., 1/256)

    For any other n, with c the largest power of two below n: the c slopes
    of c heads, then every other slope of the 2c-head sequence (h = 1, 3,
    5, ...) for the n - c heads left (12 heads: the 8 slopes of 8 heads,
    then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5).

    Args:
        n_heads: the number of attention heads, an integer >= 1.

    Returns:
        (n_heads,) float array.
    """


def alibi_bias(n_heads: int, query_positions: np.ndarray, key_positions: np.ndarray) -> np.ndarray:
    """ALiBi's bias, ready to add to the attention scores of every head.

    For the query at position i = query_positions[a] and the key at
    position j = key_positions[b]:

        bias[h, a, b] = -m_h * (i - j)   if j <= i   (a penalty for distance)
                        -inf             if j > i    (the causal mask)

    Args:
        n_heads: the number of heads; m_h are the slopes of alibi_slopes.
        query_positions: (n_q,) integer positions of the queries (one
            position, the new token's, when decoding with a cache).
        key_positions: (n_k,) integer positions of the keys.

    Returns:
        (n_heads, n_q, n_k) float array.
    """
