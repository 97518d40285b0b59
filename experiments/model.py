"""A tiny causal decoder in PyTorch with a pluggable position scheme.

The same model as `lessons.transformer.TinyGPT` (pre-norm blocks, LayerNorm,
a GELU MLP of width 4·d_model, a tied unembedding), but trainable. Position
enters in one of five ways, by name:

- "learned":    a trained table W_pos (max_len, d_model) added to the token vectors (GPT-2);
- "sinusoidal": `lessons.positional.sinusoidal_encoding` added to the token vectors (2017);
- "rope":       q and k turned by position · θ_i (half-split layout, as `lessons.rope.apply_rope_half`);
- "alibi":      −m_h · (i − j) added to the scores, slopes from `lessons.alibi.alibi_slopes`;
- "none":       nothing (NoPE); only the causal mask carries order.

For "rope" the speeds θ (d_head/2,) and the attention factor are plain
buffers: every stretching method (position interpolation, NTK-aware, YaRN,
dynamic) is just other speeds, set with `set_rope_speeds`.

Weight convention: torch.nn.Linear, a weight (d_out, d_in) applied as x @ W.T.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from experiments.tasks import COPY
from lessons.alibi import alibi_slopes
from lessons.context_extension import rope_inv_freq, yarn_attention_factor, yarn_inv_freq, yarn_printed_ramp
from lessons.positional import ntk_scaled_base, rope_frequencies, sinusoidal_encoding

POSITIONS = ("learned", "sinusoidal", "rope", "alibi", "none")


def rotate_half_split(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """RoPE in the half-split layout: dimension j turns with dimension j + d/2 by angle pos · θ_j.

    The torch twin of `lessons.rope.apply_rope_half` (via `rotate_with_table`):
    x · cos + rotate_half(x) · sin, with rotate_half(a, b) = (−b, a).

    Args:
        x: (batch, n_heads, seq, d_head).
        cos, sin: (seq, d_head), each half repeated: cos[p, j] = cos[p, j + d/2] = cos(p · θ_j),
            already multiplied by the attention factor.

    Returns:
        (batch, n_heads, seq, d_head).
    """
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rotated * sin


class Block(nn.Module):
    """One pre-norm block: x + attention(norm(x)), then x + mlp(norm(x)); (batch, seq, d) -> same."""

    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.W_q, self.W_k, self.W_v, self.W_o = (nn.Linear(d_model, d_model) for _ in range(4))
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.ablated: tuple[int, ...] = ()  # heads whose output is zeroed (the ablations; none in training)

    def attention(self, h: torch.Tensor, rope: tuple | None, bias: torch.Tensor | None,
                  record: list | None = None) -> torch.Tensor:
        """h (batch, seq, d) -> (batch, seq, d); rope = (cos, sin) each (seq, d_head) or
        (batch, 1, seq, d_head), or None; bias: None or (n_heads, seq, seq) or (batch, n_heads, seq, seq)
        added to the scores (ALiBi). `record`: None, or a list this block appends the last COPY query
        rows' (scores, weights) to, each (batch, n_heads, COPY, seq), for the attention diagnostics."""
        batch, seq, d = h.shape

        def heads(x):  # (batch, seq, d) -> (batch, n_heads, seq, d_head)
            return x.view(batch, seq, self.n_heads, self.d_head).transpose(1, 2)

        q, k, v = heads(self.W_q(h)), heads(self.W_k(h)), heads(self.W_v(h))
        if rope is not None:
            q, k = rotate_half_split(q, *rope), rotate_half_split(k, *rope)
        causal = torch.ones(seq, seq, dtype=torch.bool).triu(1)  # True above the diagonal: the future
        mask = None if bias is None else bias.masked_fill(causal, float("-inf"))
        # softmax(q·kᵀ / sqrt(d_head) + bias, the future masked) · v, in one fused call
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask is None)
        if record is not None:  # the scored rows' scores and weights, recomputed for the diagnostics only
            scores = q[..., -COPY:, :] @ k.transpose(-1, -2) / math.sqrt(self.d_head)  # (batch, heads, COPY, seq)
            if bias is not None:
                scores = scores + bias[..., -COPY:, :]
            scores = scores.masked_fill(causal[-COPY:], float("-inf"))
            record.append((scores, scores.softmax(dim=-1)))
        if self.ablated:  # an ablation: these heads write nothing
            out = out.clone()
            out[:, list(self.ablated)] = 0.0
        out = out.transpose(1, 2).reshape(batch, seq, d)  # heads merged back
        return self.W_o(out)

    def forward(self, x: torch.Tensor, rope: tuple | None = None, bias: torch.Tensor | None = None,
                record: list | None = None) -> torch.Tensor:
        """x (batch, seq, d_model) -> (batch, seq, d_model)."""
        x = x + self.attention(self.norm1(x), rope, bias, record)
        return x + self.mlp(self.norm2(x))


class TinyDecoder(nn.Module):
    """A causal decoder: embedding, `n_layers` blocks, final norm, tied unembedding.

    Args:
        vocab_size: number of token ids.
        position: one of POSITIONS.
        max_len: rows of the learned or sinusoidal table (ask for the longest
            evaluation length: rows past the training length exist but are never trained).
        trained_len: the training length L (RoPE's `max_position_embeddings`).
        d_model, n_heads, n_layers: the shape (d_head = d_model / n_heads, even).
        rope_base: RoPE's base (`rope_theta`).
        scaled_tokens: token vectors drawn with std d_model^-1/2 and multiplied by sqrt(d_model)
            (True), or GPT-2's std 0.02 unscaled (False); None: True for "sinusoidal" only.
    """

    def __init__(self, vocab_size: int, position: str, max_len: int, trained_len: int,
                 d_model: int = 64, n_heads: int = 4, n_layers: int = 2, rope_base: float = 10000.0,
                 scaled_tokens: bool | None = None):
        super().__init__()
        if position not in POSITIONS:
            raise ValueError(f"position must be one of {POSITIONS}, got {position!r}")
        self.position, self.max_len, self.trained_len = position, max_len, trained_len
        self.n_heads, self.d_head, self.rope_base = n_heads, d_model // n_heads, rope_base
        self.embed = nn.Embedding(vocab_size, d_model)
        # token vectors: GPT-2's small init (std 0.02), except with sinusoidal codes, whose rows have norm
        # sqrt(d_model / 2) and would drown such small vectors (a first suite run of that model never
        # learned). There we follow the 2017 paper (§3.4) as fairseq implements it: init std d^-1/2 and
        # token vectors multiplied by sqrt(d_model), so content and position have comparable norms.
        # `scaled_tokens` gives another scheme the same token vectors (a control); None: sinusoidal only.
        scaled = position == "sinusoidal" if scaled_tokens is None else scaled_tokens
        self.embed_scale = math.sqrt(d_model) if scaled else 1.0
        nn.init.normal_(self.embed.weight, std=d_model ** -0.5 if scaled else 0.02)
        if position == "learned":
            self.W_pos = nn.Embedding(max_len, d_model)
            nn.init.normal_(self.W_pos.weight, std=0.02)
        if position == "sinusoidal":
            # numpy -> torch once; a fixed buffer, not a parameter
            self.register_buffer("sinusoid", torch.tensor(sinusoidal_encoding(max_len, d_model), dtype=torch.float32))
        if position == "rope":
            inv_freq, attention_factor = rope_inv_freq(self.d_head, {"rope_theta": rope_base})  # the trained speeds
            self.set_rope_speeds(inv_freq, attention_factor)
        if position == "alibi":
            self.register_buffer("slopes", torch.tensor(alibi_slopes(n_heads), dtype=torch.float32))
        self.blocks = nn.ModuleList(Block(d_model, n_heads) for _ in range(n_layers))
        self.norm_f = nn.LayerNorm(d_model)

    def set_rope_speeds(self, inv_freq, attention_factor: float = 1.0) -> None:
        """Use speeds θ (d_head/2,) (numpy or torch) and multiply cos and sin by attention_factor.

        The speeds come from `lessons.context_extension.rope_inv_freq` (or
        `lessons.positional.rope_frequencies` with an NTK-raised base): every
        stretching method is a call to this. Speeds of shape (n, d_head/2) give
        position p the speeds of row p: how a KV cache decodes under dynamic
        scaling, where each key keeps the rotation of the step that cached it.
        """
        if self.position != "rope":
            raise ValueError(f"set_rope_speeds needs position 'rope', this model has {self.position!r}")
        self.register_buffer("inv_freq", torch.as_tensor(inv_freq, dtype=torch.float32).clone(), persistent=False)
        self.attention_factor = float(attention_factor)

    def rope_tables(self, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(cos, sin) for the half-split layout, times the attention factor.

        Args:
            positions: (seq,) or (batch, seq) float positions.

        Returns:
            each (seq, d_head), or (batch, 1, seq, d_head) for per-prompt positions.
            Hugging Face multiplies cos and sin by the factor, so q·k grows by its square; so do we.
        """
        seq = positions.shape[-1]
        speeds = self.inv_freq if self.inv_freq.dim() == 1 else self.inv_freq[:seq]  # (d/2,) or (seq, d/2)
        angles = positions[..., None] * speeds  # (…, seq, d_head/2)
        angles = torch.cat([angles, angles], dim=-1)  # both halves of a pair share an angle
        if angles.dim() == 3:
            angles = angles[:, None]  # (batch, 1, seq, d_head): the same for every head
        return angles.cos() * self.attention_factor, angles.sin() * self.attention_factor

    def alibi_bias(self, positions: torch.Tensor) -> torch.Tensor:
        """−m_h · (i − j) for query i and key j: (n_heads, seq, seq), or (batch, n_heads, seq, seq)
        for per-prompt positions (batch, seq); the future is masked elsewhere."""
        distance = (positions[..., :, None] - positions[..., None, :]).clamp(min=0)  # i − j for keys in the past
        slopes = self.slopes[:, None, None]
        return -(slopes * distance[..., None, :, :]) if distance.dim() == 3 else -slopes * distance

    def forward(self, tokens: torch.Tensor, positions: torch.Tensor | None = None,
                record: list | None = None) -> torch.Tensor:
        """tokens (batch, seq) int64 -> logits (batch, seq, vocab).

        positions: None for 0..seq−1, or (batch, seq) int64 increasing positions per prompt
        (randomized positions: each training prompt gets a sorted random subset of 0..max_len−1).
        record: None or a list that collects each layer's attention on the scored rows (see Block).
        """
        seq = tokens.shape[1]
        if positions is None:
            if self.position in ("learned", "sinusoidal") and seq > self.max_len:
                raise ValueError(f"sequence of {seq} tokens is past the {self.max_len}-row position table")
            index, where = slice(0, seq), torch.arange(seq, dtype=torch.float32)
        else:
            index, where = positions, positions.float()
        x = self.embed(tokens) * self.embed_scale  # (batch, seq, d_model)
        if self.position == "learned":
            x = x + self.W_pos.weight[index]
        if self.position == "sinusoidal":
            x = x + self.sinusoid[index]
        rope = self.rope_tables(where) if self.position == "rope" else None
        bias = self.alibi_bias(where) if self.position == "alibi" else None
        for block in self.blocks:
            x = block(x, rope, bias, record)
        return self.norm_f(x) @ self.embed.weight.T  # tied unembedding: (batch, seq, vocab)


# ---------------------------------------------------------------------------
# Stretching RoPE: each method is a set of speeds for the trained model
# ---------------------------------------------------------------------------

STRETCHES = ("linear", "ntk", "yarn", "dynamic")


def stretched_speeds(method: str, head_dim: int, base: float, trained_len: int, factor: float,
                     seq_len: int, ramp: str = "library", temperature: bool | None = None) -> tuple[np.ndarray, float]:
    """(θ (head_dim/2,), attention_factor) for a RoPE model trained at `trained_len`, stretched by `factor`.

    Every formula is the lessons' (none is re-derived here):

    - "default": the trained speeds, `rope_inv_freq` with no scaling;
    - "linear" (position interpolation): `rope_inv_freq` rope_type linear, θ / factor;
    - "ntk" (NTK-aware): `rope_frequencies` with the base raised by `ntk_scaled_base(base, factor, d)`;
    - "yarn": `rope_inv_freq` rope_type yarn with original_max_position_embeddings = trained_len
      (attention factor 0.1 · ln(factor) + 1);
    - "dynamic": `rope_inv_freq` rope_type dynamic with max_position_embeddings = trained_len and
      seq_len = the current length: the trained speeds up to trained_len, a base raised for
      stretch factor · seq_len / trained_len − (factor − 1) past it.

    Args:
        method: "default" or one of STRETCHES.
        head_dim: the rotary width (the whole head turns).
        base: the trained base (`rope_theta`).
        trained_len: the training length L.
        factor: the stretch s (>= 1); 1 leaves linear, ntk and yarn at the trained speeds.
        seq_len: the length the speeds are for (only dynamic reads it).
        ramp: YaRN's ramp, "library" (transformers', linear in the pair index: `yarn_ramp`) or
            "printed" (the paper's Eq. 11, linear in the turns: `yarn_printed_ramp`).
        temperature: None for the method's own attention factor (YaRN's 0.1 · ln(factor) + 1, 1 for
            the others); True gives any method YaRN's factor, False gives 1 (the ablations).
    """
    if method == "default":
        speeds, attention = rope_inv_freq(head_dim, {"rope_theta": base})
    elif method == "linear":
        speeds, attention = rope_inv_freq(head_dim, {"rope_type": "linear", "factor": factor, "rope_theta": base})
    elif method == "ntk":
        speeds, attention = rope_frequencies(head_dim, ntk_scaled_base(base, factor, head_dim)), 1.0
    elif method == "yarn" and ramp == "library":
        speeds, attention = rope_inv_freq(head_dim, {"rope_type": "yarn", "factor": factor, "rope_theta": base,
                                                     "original_max_position_embeddings": trained_len})
    elif method == "yarn" and ramp == "printed":
        theta = rope_frequencies(head_dim, base)
        speeds = yarn_inv_freq(theta, factor, yarn_printed_ramp(theta, trained_len))
        attention = yarn_attention_factor(factor)
    elif method == "dynamic":
        speeds, attention = rope_inv_freq(head_dim, {"rope_type": "dynamic", "factor": factor, "rope_theta": base},
                                          max_position_embeddings=trained_len, seq_len=seq_len)
    else:
        raise ValueError(f"method must be 'default' or one of {STRETCHES} (ramp 'library' or 'printed'), "
                         f"got {method!r}, ramp {ramp!r}")
    if temperature is not None:
        attention = yarn_attention_factor(factor) if temperature else 1.0
    return speeds, float(attention)
