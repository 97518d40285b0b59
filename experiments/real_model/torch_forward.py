"""The same Llama forward pass as `experiments.real_model.llama`, in torch, for windows of 8K–32K tokens.

numpy's version materialises every (seq, seq) score matrix and takes minutes per thousand tokens
at these lengths; this one uses torch's fused causal attention (`scaled_dot_product_attention`,
which never holds the whole matrix) and scores the next token in chunks, so a 32,768-token
window fits in a few GB. It is checked against the numpy pass, which is checked against
transformers (tests/test_real_model.py).

What it adds for the study (`experiments.real_model.study`):

- **RoPE from a table.** The caller gives cos and sin per position and pair, (seq, d_head/2),
  already multiplied by the attention factor, as transformers does (`cos * attention_scaling`):
  a stretching method is nothing but its table (`rope_table`), and a table may give each position
  its own speeds (dynamic NTK decoded token by token with a cache).
- **The loss per position**, from the tied head, without keeping (seq, 49,152) logits.
- **Where attention goes** at a few query positions: per layer, the entropy of each head's
  weights and the weight on the first token (the sink), averaged over heads and the rows asked.
"""

from __future__ import annotations

import numpy as np
import torch

ANGLE_DTYPES = ("float64", "float32", "bf16-angles", "bf16-table")


def round_to_bf16(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 (8 bits of mantissa, round to nearest even), returned as float32.

    Emulated on the bits, so no bf16 hardware or dtype is needed: add half an ulp of the 16 dropped
    bits (plus the kept last bit, for ties to even) and clear them. Same shape as x.
    """
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32)


def rope_table(positions: np.ndarray, inv_freq: np.ndarray, attention_factor: float = 1.0,
               precision: str = "float32") -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of each position's angles, times the attention factor, as the forward pass reads them.

    Args:
        positions: (seq,) integer positions.
        inv_freq: (pairs,) speeds shared by every position, or (seq, pairs): each position's own.
        attention_factor: multiplies cos and sin (YaRN's mscale; 1 otherwise).
        precision: how the angles are computed —
            "float64": exactly enough (the reference);
            "float32": position and speed in float32, their product rounded to float32 (transformers
                5.24, `LlamaRotaryEmbedding.forward`: `position_ids.float() * inv_freq.float()`, an
                elementwise product, so autocast has no say in it);
            "bf16-angles": the float32 angle rounded to bfloat16 before cos and sin;
            "bf16-table": float32 angles, cos and sin rounded to bfloat16 (a table stored in the
                model's dtype, as vLLM keeps its cos/sin cache).

    Returns:
        (cos, sin), each (seq, pairs) float32.
    """
    if precision not in ANGLE_DTYPES:
        raise ValueError(f"precision must be one of {ANGLE_DTYPES}, got {precision!r}")
    pos = np.asarray(positions)[:, None]
    freq = np.asarray(inv_freq)
    if precision == "float64":
        angles = pos.astype(np.float64) * freq.astype(np.float64)
    else:
        angles = (pos.astype(np.float32) * freq.astype(np.float32)).astype(np.float32)
        if precision == "bf16-angles":
            angles = round_to_bf16(angles)
    cos, sin = np.cos(angles) * attention_factor, np.sin(angles) * attention_factor
    if precision == "bf16-table":
        return round_to_bf16(cos.astype(np.float32)), round_to_bf16(sin.astype(np.float32))
    return cos.astype(np.float32), sin.astype(np.float32)


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, layout: str) -> torch.Tensor:
    """RoPE on (heads, seq, d_head) with cos, sin (seq, d_head/2): pairs (2i, 2i+1) for "interleaved"
    (llama.cpp's rows), (j, j + d/2) for "half" (the checkpoint's rows); `lessons.rope`'s two layouts."""
    if layout == "interleaved":
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)
    half = x.shape[-1] // 2
    a, b = x[..., :half], x[..., half:]
    return torch.cat((a * cos - b * sin, a * sin + b * cos), dim=-1)


def _attention_stats(q: torch.Tensor, k: torch.Tensor, rows: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
    """Entropy (nats) and first-token weight of the causal softmax at query rows, per row, mean over heads.

    q: (H, seq, D) rotated queries; k: (H, seq, D) rotated keys (already repeated per query head);
    rows: (r,) query positions. Returns two (r,) float64 arrays."""
    scores = q[:, rows] @ k.transpose(1, 2) / q.shape[-1] ** 0.5  # (H, r, seq)
    later = torch.arange(k.shape[1])[None, :] > rows[:, None]  # (r, seq): keys after the query
    p = torch.softmax(scores.masked_fill(later, float("-inf")), dim=-1)
    entropy = -(p * torch.log(p.clamp_min(1e-30))).sum(-1)  # (H, r)
    return entropy.mean(0).double().numpy(), p[..., 0].mean(0).double().numpy()


def rms_norm(x: torch.Tensor, gain: torch.Tensor, eps: float) -> torch.Tensor:
    """`lessons.transformer.rms_norm` in torch: x (seq, d) scaled to unit root mean square, times gain (d,)."""
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * gain


def project(x: torch.Tensor, b: dict, cos: torch.Tensor, sin: torch.Tensor, config: dict,
            layout: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One block's attention inputs: x (seq, d_model) normalised, projected and rotated.

    b: the block's tensors by GGUF short name ("attn_norm", "attn_q", ...); cos, sin (seq, d_head/2).
    Returns q (n_heads, seq, d_head), k and v (n_kv_heads, seq, d_head): k rotated, not yet repeated."""
    n, d = x.shape[0], config["d_head"]
    h = rms_norm(x, b["attn_norm"], config["rms_eps"])
    q = _rotate((h @ b["attn_q"].T).view(n, config["n_heads"], d).transpose(0, 1), cos, sin, layout)
    k = _rotate((h @ b["attn_k"].T).view(n, config["n_kv_heads"], d).transpose(0, 1), cos, sin, layout)
    v = (h @ b["attn_v"].T).view(n, config["n_kv_heads"], d).transpose(0, 1)
    return q, k, v


def close_block(x: torch.Tensor, out: torch.Tensor, b: dict, config: dict) -> torch.Tensor:
    """The rest of a block: attention's output (n_heads, seq, d_head) through W_o added to x (seq, d_model),
    then the SwiGLU MLP on the normalised sum, added too. Returns (seq, d_model)."""
    x = x + out.transpose(0, 1).reshape(x.shape[0], -1) @ b["attn_output"].T
    h = rms_norm(x, b["ffn_norm"], config["rms_eps"])
    return x + (torch.nn.functional.silu(h @ b["ffn_gate"].T) * (h @ b["ffn_up"].T)) @ b["ffn_down"].T


def _weights(tensors: dict) -> dict:
    """GGUF tensor name -> torch tensor, sharing memory with the float32 arrays."""
    return {name: torch.from_numpy(w if w.flags.writeable else np.array(w)) for name, w in tensors.items()}


def inputs(tensors: dict, config: dict, tokens, cos: np.ndarray, sin: np.ndarray) -> tuple:
    """(weights as torch tensors, ids (seq,) long, cos, sin (seq, d_head/2) float32 tensors); ValueError
    when cos and sin do not have one row per token and one column per pair."""
    ids = torch.as_tensor(np.asarray(tokens), dtype=torch.long)
    n, d = len(ids), config["d_head"]
    c, s = torch.from_numpy(np.asarray(cos, np.float32)), torch.from_numpy(np.asarray(sin, np.float32))
    if c.shape != (n, d // 2):
        raise ValueError(f"cos and sin must be ({n}, {d // 2}) for {n} tokens, got {tuple(c.shape)}")
    return _weights(tensors), ids, c, s


@torch.inference_mode()
def forward(tensors: dict, config: dict, tokens, cos: np.ndarray, sin: np.ndarray, *, layout: str = "interleaved",
            stat_rows=None, logits: bool = False, chunk: int = 2048) -> dict:
    """Run the model over one window and score every next token.

    Args:
        tensors: GGUF name -> float32 array (`GGUFModel.tensors`, or `half_split_rows` for the
            checkpoint's row order); config: `GGUFModel.config`; tokens: (seq,) ids.
        cos, sin: (seq, d_head/2) float32, from `rope_table`.
        layout: "interleaved" (right for the GGUF rows) or "half" (right for `half_split_rows`).
        stat_rows: query positions at which to record where attention goes, or None.
        logits: also return every row's logits (only for short windows: seq × 49,152 floats).
        chunk: rows of the head computed at once.

    Returns:
        {"nll": (seq-1,) float64 nats of tokens[1:], and with stat_rows "entropy" and "sink":
        (n_layers, rows) float64; with logits=True "logits": (seq, vocab) float32}.
    """
    if layout not in ("interleaved", "half"):
        raise ValueError(f"layout must be 'interleaved' or 'half', got {layout!r}")
    w, ids, c, s = inputs(tensors, config, tokens, cos, sin)
    n, n_heads, n_kv = len(ids), config["n_heads"], config["n_kv_heads"]
    rows = None if stat_rows is None else torch.as_tensor(np.asarray(stat_rows), dtype=torch.long)
    entropy, sink = [], []
    x = w["token_embd.weight"][ids]  # (seq, d_model)
    for i in range(config["n_layers"]):
        b = {name.split(".")[2]: t for name, t in w.items() if name.startswith(f"blk.{i}.")}
        q, k, v = project(x, b, c, s, config, layout)
        k, v = (t.repeat_interleave(n_heads // n_kv, dim=0) for t in (k, v))  # transformers' repeat_kv
        if rows is not None:
            e, z = _attention_stats(q, k, rows)
            entropy.append(e)
            sink.append(z)
        out = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True)[0]
        x = close_block(x, out, b, config)
    head = w["token_embd.weight"] if config["tied"] else w["output.weight"]
    x = rms_norm(x, w["output_norm.weight"], config["rms_eps"])
    nll, kept = [], []
    for start in range(0, n, chunk):
        z = x[start:start + chunk] @ head.T  # (rows, vocab)
        if logits:
            kept.append(z.numpy().copy())
        targets = ids[start + 1:start + chunk + 1]
        lse = torch.logsumexp(z[:len(targets)].double(), dim=-1)
        nll.append((lse - z[torch.arange(len(targets)), targets].double()).numpy())
    result = {"nll": np.concatenate(nll)}
    if rows is not None:
        result["entropy"], result["sink"] = np.array(entropy), np.array(sink)
    if logits:
        result["logits"] = np.concatenate(kept)
    return result
