"""A learner's answer that swaps K's last two axes only when K is 4-D, else K.T: a 3-D (heads, n, d) K breaks."""

from __future__ import annotations

import numpy as np


def causal_mask(n: int) -> np.ndarray:
    """(n, n) boolean: True where query i may see key j, that is j <= i."""
    # the lower triangle, diagonal included
    return np.tril(np.ones((n, n), dtype=bool))


def attention_weights(
    Q: np.ndarray, K: np.ndarray, mask: np.ndarray | None = None
) -> np.ndarray:
    """softmax(Q Kᵀ / √d) over the keys: (..., n_q, n_k), rows sum to 1."""
    Q, K = np.asarray(Q, dtype=float), np.asarray(K, dtype=float)
    d = Q.shape[-1]
    # every query against every key at once: (..., n_q, n_k)
    Kt = K.transpose(0, 1, 3, 2) if K.ndim == 4 else K.T
    scores = Q @ Kt / np.sqrt(d)
    if mask is not None:
        # a blocked key gets -inf, so e^(-inf) = 0 weight
        scores = np.where(mask, scores, -np.inf)
    # subtract each row's largest score: same weights, no overflow
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(
    Q: np.ndarray,
    K: np.ndarray,
    V: np.ndarray,
    mask: np.ndarray | None = None,
) -> np.ndarray:
    """Each query's weighted average of the values: (..., n_q, d_v)."""
    return attention_weights(Q, K, mask) @ np.asarray(V, dtype=float)
