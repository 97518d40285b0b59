"""Challenge 05: decoding with a KV cache (positions and the rotated key).

Write the two functions below with numpy, then check your answer:

    python -m challenges check 05 kv_cache.py

`apply_rope` is given: it is Challenge 04's half-split rotation, with the
positions always passed. The checker prints PASS or FAIL for each property,
with a hint that names the classic mistake when it recognises one. The
problem statement, hints and a reference solution: the page "Challenge 05:
decoding with a KV cache" on the Positional Primer site.
"""

from __future__ import annotations

import numpy as np


def apply_rope(x: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Given (Challenge 04): turn each pair (j, j + d/2) of x by positions[t] * theta_j.

    Args:
        x: (..., seq, d) array, d even; leading axes (batch, heads) pass through.
        positions: (seq,) integer array, one position per row of x.
        base: the base of the turning speeds, theta_j = base^(-2j/d).

    Returns:
        float array of the same shape as x.
    """
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angles = np.asarray(positions, dtype=float)[:, None] * theta  # (seq, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def append_keys(cache_k: np.ndarray, k: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Rotate the new keys at their true positions and append them to the cache.

    The cache holds the keys of the t tokens seen so far, each already rotated
    at its own position 0 .. t-1. The n new keys are the tokens at positions
    t .. t+n-1: the cache's length is the first new position.

    Args:
        cache_k: (..., t, d) rotated keys; t may be 0 (an empty cache).
        k: (..., n, d) the new tokens' keys, not yet rotated.
        base: the RoPE base.

    Returns:
        (..., t + n, d) float array: the cache's t rows unchanged, then the
        new keys rotated.
    """


def decode_attention(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, cache_k: np.ndarray, cache_v: np.ndarray, base: float = 10000.0
) -> np.ndarray:
    """The attention output of n new tokens that follow t cached ones.

    The new tokens sit at positions t .. t+n-1 (t = the cache's length):
    rotate their queries and keys there, attend from each query over the
    cached keys and the new ones (the new token at position t+i sees the
    keys at 0 .. t+i), with scores q.k / sqrt(d), and average the values
    (cached, then new) with the softmax weights. n = 1 is a decoding step;
    n > 1 with an empty cache is the prompt (prefill).

    Args:
        q, k: (..., n, d) the new tokens' queries and keys, not yet rotated.
        v: (..., n, d_v) their values.
        cache_k: (..., t, d) the cached keys, already rotated.
        cache_v: (..., t, d_v) the cached values.
        base: the RoPE base.

    Returns:
        (..., n, d_v) float array, one output row per new token.
    """
