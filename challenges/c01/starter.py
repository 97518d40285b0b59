"""Challenge 01: scaled dot-product attention with a causal mask.

Write the three functions below with numpy, then check your answer:

    python -m challenges check 01 attention.py

The checker prints PASS or FAIL for each property, with a hint that names the
classic mistake when it recognises one. The problem statement, hints and a
reference solution: the page "Challenge 01: attention" on the Positional
Primer site.
"""

from __future__ import annotations

import numpy as np


def causal_mask(n: int) -> np.ndarray:
    """The causal mask of a sequence of n tokens.

    mask[i, j] is True where query i may see key j, that is j <= i: every
    token sees itself and the tokens before it, never a later one.

    Args:
        n: the sequence length.

    Returns:
        (n, n) boolean array.
    """


def attention_weights(Q: np.ndarray, K: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The attention weights softmax(Q K^T / sqrt(d)), one row per query.

    The softmax runs over the keys (the last axis), so each row sums to 1.
    Where mask is False the key is blocked: its weight is exactly 0 and the
    other weights of the row still sum to 1.

    Args:
        Q: (..., n_q, d) queries; K: (..., n_k, d) keys. Leading axes (batch,
            heads) broadcast.
        mask: None (every key allowed) or a boolean array broadcastable to
            (..., n_q, n_k), True where this query may see this key; every
            row has at least one True.

    Returns:
        (..., n_q, n_k) float array.
    """


def attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Scaled dot-product attention: softmax(Q K^T / sqrt(d)) V.

    Row i of the output is query i's weighted average of the rows of V, with
    the weights of attention_weights(Q, K, mask).

    Args:
        Q: (..., n_q, d) queries; K: (..., n_k, d) keys; V: (..., n_k, d_v)
            values. Leading axes (batch, heads) broadcast.
        mask: as in attention_weights.

    Returns:
        (..., n_q, d_v) float array.
    """
