"""A learner's answer that flattens the leading axes, Q.reshape(-1, n, d): grouped-query K, V no longer broadcast."""

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
    lead, nq, nk = Q.shape[:-2], Q.shape[-2], K.shape[-2]
    Qf, Kf = Q.reshape(-1, nq, d), K.reshape(-1, nk, d)
    scores = (Qf @ Kf.transpose(0, 2, 1)).reshape(*lead, nq, nk) / np.sqrt(d)
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
