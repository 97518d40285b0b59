"""The Llama forward pass of SmolLM2-135M, written with the lessons' own pieces.

Each block is pre-norm, as in transformers' `LlamaDecoderLayer` (transformers 5.24,
`models/llama/modeling_llama.py`):

    x = x + W_o · attention(RoPE(W_q · rms_norm(x)), RoPE(W_k · rms_norm(x)), W_v · rms_norm(x))
    x = x + W_down · (silu(W_gate · rms_norm(x)) * (W_up · rms_norm(x)))      # SwiGLU

then a last `rms_norm` and the head (the token table itself when the file has no `output.weight`).

From the lessons: `lessons.transformer.rms_norm`, `lessons.rope.apply_rope_interleaved` and
`apply_rope_half` (the two layouts), `lessons.attention.split_heads`, `merge_heads`,
`causal_mask` and `scaled_dot_product_attention`. Added here: SwiGLU and grouped-query attention
(each key-value head serves n_heads / n_kv_heads consecutive query heads, as transformers'
`repeat_kv`). The matrix products run in float32 (numpy's BLAS); the lessons' RoPE and attention
compute in float64 and their results are rounded back to float32. numpy is enough for a window of
a few hundred tokens (a whole pass over 256 tokens takes seconds); long windows need torch.
"""

from __future__ import annotations

import numpy as np

from lessons.attention import causal_mask, merge_heads, scaled_dot_product_attention, split_heads
from lessons.rope import apply_rope_half, apply_rope_interleaved
from lessons.transformer import rms_norm

ROTATIONS = {"interleaved": apply_rope_interleaved, "half": apply_rope_half}


def silu(x: np.ndarray) -> np.ndarray:
    """x · sigmoid(x), elementwise, written with tanh (sigmoid(x) = (1 + tanh(x/2)) / 2) so no exp overflows."""
    return x * (0.5 * (1.0 + np.tanh(0.5 * x)))


def swiglu(x: np.ndarray, w_gate: np.ndarray, w_up: np.ndarray, w_down: np.ndarray) -> np.ndarray:
    """Llama's MLP: W_down · (silu(W_gate x) * W_up x).

    Args:
        x: (seq, d_model); w_gate, w_up: (d_ff, d_model); w_down: (d_model, d_ff) (`Linear` layout).

    Returns:
        (seq, d_model), the dtype of x and the weights.
    """
    return (silu(x @ w_gate.T) * (x @ w_up.T)) @ w_down.T


def grouped_query_attention(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray, w_o: np.ndarray,
                            config: dict, layout: str = "interleaved", positions=None) -> np.ndarray:
    """Causal self-attention with RoPE on q and k and fewer key-value heads than query heads.

    Args:
        x: (seq, d_model) normalised token vectors, float32.
        w_q: (n_heads · d_head, d_model); w_k, w_v: (n_kv_heads · d_head, d_model); w_o: (d_model, n_heads · d_head).
        config: "n_heads", "n_kv_heads", "rope_base" (as `GGUFModel.config`).
        layout: "interleaved" (pairs 2i, 2i+1: right for llama.cpp's rows) or "half" (pairs j, j + d/2:
            right for the checkpoint's rows); the rotation is the lesson's, so the rows must match it.
        positions: None for 0..seq-1, or (seq,) positions (RoPE's angles read them).

    Returns:
        (seq, d_model) float32, the block's attention output before the residual add.
    """
    rotate = ROTATIONS[layout]
    n_heads, n_kv = config["n_heads"], config["n_kv_heads"]
    q = rotate(split_heads(x @ w_q.T, n_heads), positions, config["rope_base"])  # (n_heads, seq, d_head)
    k = rotate(split_heads(x @ w_k.T, n_kv), positions, config["rope_base"])  # (n_kv, seq, d_head)
    v = split_heads(x @ w_v.T, n_kv)  # (n_kv, seq, d_head)
    # query head h reads key-value head h // (n_heads / n_kv)
    k, v = (np.repeat(a, n_heads // n_kv, axis=0) for a in (k, v))  # (n_heads, seq, d_head)
    out, _ = scaled_dot_product_attention(q, k, v, mask=causal_mask(x.shape[0]))
    return merge_heads(out).astype(np.float32) @ w_o.T


def llama_logits(tensors: dict, config: dict, tokens, layout: str = "interleaved", positions=None) -> np.ndarray:
    """Next-token logits for a window of token ids.

    Args:
        tensors: GGUF tensor name -> float32 array (`GGUFModel.tensors`, or `half_split_rows` for the
            checkpoint's q/k row order).
        config: `GGUFModel.config`.
        tokens: (seq,) token ids.
        layout: the RoPE layout, "interleaved" or "half" (see `grouped_query_attention`).
        positions: None for 0..seq-1, or (seq,) positions.

    Returns:
        (seq, vocab_size) float32: row t scores the token after tokens[t].
    """
    if layout not in ROTATIONS:
        raise ValueError(f"layout must be one of {sorted(ROTATIONS)}, got {layout!r}")
    eps = config["rms_eps"]
    x = tensors["token_embd.weight"][np.asarray(tokens)]  # (seq, d_model)
    for i in range(config["n_layers"]):
        w = {name.split(".")[2]: tensors[name] for name in tensors if name.startswith(f"blk.{i}.")}
        x = x + grouped_query_attention(rms_norm(x, w["attn_norm"], eps), w["attn_q"], w["attn_k"], w["attn_v"],
                                        w["attn_output"], config, layout, positions)
        x = x + swiglu(rms_norm(x, w["ffn_norm"], eps), w["ffn_gate"], w["ffn_up"], w["ffn_down"])
    head = tensors["token_embd.weight"] if config["tied"] else tensors["output.weight"]
    return rms_norm(x, tensors["output_norm.weight"], eps) @ head.T
