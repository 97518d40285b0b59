"""A learner's answer that fills blocked scores with -1e5, not -inf (TransformerLens #318): scores below it win."""

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
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d)
    if mask is not None:
        # a blocked key gets a large negative score
        scores = np.where(mask, scores, -1e5)
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
