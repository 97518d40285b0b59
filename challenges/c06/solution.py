"""Challenge 06, reference solution: a checkpoint's q/k rows between the
interleaved and the half-split RoPE layouts."""

from __future__ import annotations

import numpy as np


def interleaved_to_half(w: np.ndarray, n_heads: int) -> np.ndarray:
    """(n_heads·d_head, d_model) rows reordered head by head: in each head
    the even rows (2i), then the odd rows (2i+1)."""
    w = np.asarray(w)
    d_head = w.shape[0] // n_heads
    # row h·d_head + 2i + m is [h, i, m]: head, pair, member of the pair
    pairs = w.reshape(n_heads, d_head // 2, 2, -1)
    # [h, m, i] is row h·d_head + m·d_head/2 + i: both members' halves
    return pairs.transpose(0, 2, 1, 3).reshape(w.shape)


def half_to_interleaved(w: np.ndarray, n_heads: int) -> np.ndarray:
    """The inverse of interleaved_to_half: in each head, row j of the first
    half goes back to row 2j and row j of the second half to row 2j+1."""
    w = np.asarray(w)
    d_head = w.shape[0] // n_heads
    # row h·d_head + m·d_head/2 + i is [h, m, i]
    halves = w.reshape(n_heads, 2, d_head // 2, -1)
    # [h, i, m] is row h·d_head + 2i + m
    return halves.transpose(0, 2, 1, 3).reshape(w.shape)


def qkv_to_half(
    w_qkv: np.ndarray, n_heads: int, n_kv_heads: int
) -> np.ndarray:
    """Fused [q; k; v] rows: q in n_heads heads and k in n_kv_heads heads
    converted to half-split, v copied as it is."""
    w_qkv = np.asarray(w_qkv)
    d_head = w_qkv.shape[0] // (n_heads + 2 * n_kv_heads)
    q_rows, kv_rows = n_heads * d_head, n_kv_heads * d_head
    q, k, v = np.split(w_qkv, [q_rows, q_rows + kv_rows])
    # keys in their own (fewer) heads; values carry no rotation
    q, k = interleaved_to_half(q, n_heads), interleaved_to_half(k, n_kv_heads)
    return np.concatenate([q, k, v])
