"""A learner's Challenge 06 answer with one mistake: in each head the odd rows come first."""

from __future__ import annotations

import numpy as np


def interleaved_to_half(w: np.ndarray, n_heads: int) -> np.ndarray:
    """Interleaved rows to half-split ones, head by head."""
    w = np.asarray(w)
    heads = w.reshape(n_heads, w.shape[0] // n_heads, -1)  # [head, row in head]
    return np.concatenate([heads[:, 1::2], heads[:, 0::2]], axis=1).reshape(w.shape)


def half_to_interleaved(w: np.ndarray, n_heads: int) -> np.ndarray:
    """Half-split rows back to interleaved ones, head by head."""
    w = np.asarray(w)
    d_head = w.shape[0] // n_heads
    halves = w.reshape(n_heads, 2, d_head // 2, -1)  # [head, half, j]
    return halves.transpose(0, 2, 1, 3).reshape(w.shape)


def qkv_to_half(w_qkv: np.ndarray, n_heads: int, n_kv_heads: int) -> np.ndarray:
    """Fused [q; k; v]: q and k converted, v as it is."""
    d_head = w_qkv.shape[0] // (n_heads + 2 * n_kv_heads)
    q_rows, kv_rows = n_heads * d_head, n_kv_heads * d_head
    q, k, v = np.split(w_qkv, [q_rows, q_rows + kv_rows])
    return np.concatenate([interleaved_to_half(q, n_heads), interleaved_to_half(k, n_kv_heads), v])
