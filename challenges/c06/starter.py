"""Challenge 06: RoPE layouts (converting a checkpoint's query and key rows
between the interleaved and the half-split layout).

Write the three functions below with numpy, then check your answer:

    python -m challenges check 06 rope_layouts.py

The checker prints PASS or FAIL for each property, with a hint that names the
classic mistake when it recognises one. The problem statement, hints and a
reference solution: the page "Challenge 06: RoPE layouts" on the Positional
Primer site.
"""

from __future__ import annotations

import numpy as np


def interleaved_to_half(w: np.ndarray, n_heads: int) -> np.ndarray:
    """Reorder a query or key projection's rows from the interleaved RoPE
    layout (pairs 2i, 2i+1: Meta's Llama code, llama.cpp's GGUF files) to the
    half-split one (pairs j, j + d_head/2: Hugging Face, GPT-NeoX).

    w follows PyTorch's Linear, (d_out, d_in) = (n_heads * d_head, d_model),
    applied as x @ w.T, so each row is one output. Head h holds rows
    h*d_head .. (h+1)*d_head - 1, d_head = rows / n_heads (even). Inside
    each head, new row j takes old row 2j and new row d_head/2 + j takes old
    row 2j + 1 (d_head = 4: the order [0, 2, 1, 3]).

    Args:
        w: (n_heads * d_head, d_model) float array.
        n_heads: the heads in w; for a key projection, the key-value heads.

    Returns:
        a new array of w's shape (w itself unchanged).
    """


def half_to_interleaved(w: np.ndarray, n_heads: int) -> np.ndarray:
    """The inverse of interleaved_to_half: half-split rows back to
    interleaved ones, head by head (new row 2j takes old row j, new row
    2j + 1 takes old row d_head/2 + j).

    Args:
        w: (n_heads * d_head, d_model) float array.
        n_heads: the heads in w.

    Returns:
        a new array of w's shape.
    """


def qkv_to_half(w_qkv: np.ndarray, n_heads: int, n_kv_heads: int) -> np.ndarray:
    """Convert a fused query-key-value projection from interleaved to
    half-split: the query rows, then the key rows, then the value rows,
    stacked (Baichuan's W_pack, Phi-3's qkv_proj store them so).

    With d_head = rows / (n_heads + 2 * n_kv_heads): the first
    n_heads * d_head rows are the queries, the next n_kv_heads * d_head the
    keys, the last n_kv_heads * d_head the values. Under grouped-query
    attention n_kv_heads is smaller than n_heads (SmolLM2-135M: 9 and 3).

    Args:
        w_qkv: ((n_heads + 2 * n_kv_heads) * d_head, d_model) float array.
        n_heads: the query heads.
        n_kv_heads: the key-value heads.

    Returns:
        a new array of w_qkv's shape.
    """
