"""A learner's Challenge 05 answer with one mistake: the scores divided by √(the values' width) instead of √d."""

from __future__ import annotations

import numpy as np


def apply_rope(
    x: np.ndarray, positions: np.ndarray, base: float = 10000.0
) -> np.ndarray:
    """x (..., seq, d) with each pair (j, j + d/2) turned by positions·θ_j."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angles = np.asarray(positions, dtype=float)[:, None] * theta
    cos, sin = np.cos(angles), np.sin(angles)  # (seq, d/2) each
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def append_keys(
    cache_k: np.ndarray, k: np.ndarray, base: float = 10000.0
) -> np.ndarray:
    """The cache (..., t, d) with the new keys, rotated, appended."""
    t, n = cache_k.shape[-2], k.shape[-2]
    # the cache's length is the first new token's position
    positions = t + np.arange(n)
    rotated = apply_rope(k, positions, base)  # rotate once, then keep
    return np.concatenate([cache_k, rotated], axis=-2)  # (..., t + n, d)


def decode_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    cache_k: np.ndarray,
    cache_v: np.ndarray,
    base: float = 10000.0,
) -> np.ndarray:
    """The new tokens' attention output over the cache and themselves."""
    t, n = cache_k.shape[-2], q.shape[-2]
    positions = t + np.arange(n)  # the new tokens' true positions
    q = apply_rope(q, positions, base)  # the query turns like its key
    keys = append_keys(cache_k, k, base)  # (..., t + n, d), all rotated
    values = np.concatenate([cache_v, v], axis=-2)  # values never turn
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(values.shape[-1])  # (..., n, t + n)
    # the new token at position t + i sees the keys at 0 .. t + i
    visible = np.arange(t + n) <= positions[:, None]  # (n, t + n)
    scores = np.where(visible, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ values  # (..., n, d_v)
