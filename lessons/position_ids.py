r"""
# Position ids in practice: padding, packing and caches

PLACEHOLDER
"""

from __future__ import annotations

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, MUTED, RED
from lessons._show import banner, say, table, takeaway
from lessons.attention import causal_mask, merge_heads, split_heads
from lessons.context_extension import LLAMA31_8B, _phi35_factors, dynamic_ntk_base, rope_inv_freq
from lessons.notation import softmax
from lessons.positional import angle_table, rope_frequencies
from lessons.rope import apply_rotary_emb, half_split_table, rotate_with_table
from lessons.transformer import gelu

# ---------------------------------------------------------------------------
# 1. Left padding: position ids from the attention mask
# ---------------------------------------------------------------------------


def position_ids_from_mask(attention_mask) -> np.ndarray:
    """Position ids for a (batch, seq) 0/1 attention mask: cumsum(mask) − 1, padding set to 0.

    As transformers 5.24 computes them before generating
    (GenerationMixin._prepare_position_ids_for_generation, generation/utils.py): the first real
    token of every row gets 0 however much left padding precedes it. Returns (batch, seq) ints
    ((seq,) for a (seq,) mask).
    """
    mask = np.asarray(attention_mask)
    if mask.ndim not in (1, 2) or mask.size == 0 or not np.isin(mask, (0, 1)).all():
        raise ValueError("attention_mask must be a non-empty (seq,) or (batch, seq) array of 0s and 1s")
    ids = np.cumsum(mask, axis=-1) - 1  # count of real tokens so far, minus one
    return np.where(mask == 0, 0, ids)  # padding: 0 (it is masked out anyway)


def default_position_ids(seq_len: int, past_length: int = 0) -> np.ndarray:
    """What a model uses when it is given no ids: past_length, ..., past_length + seq_len − 1, (seq_len,) ints.

    transformers 5.24's LlamaModel.forward (models/llama/modeling_llama.py) numbers the new tokens
    from the cache's length this way; it reads no mask, so every row of a batch gets the same ids.
    """
    seq_len = _checks.count(seq_len, "seq_len")
    return np.arange(seq_len) + _checks.count(past_length, "past_length", 0)


# ---------------------------------------------------------------------------
# 2. Packing: ids reset per document, attention cut between documents
# ---------------------------------------------------------------------------


def packed_position_ids(lengths, start: int = 0) -> np.ndarray:
    """Ids for documents of the given lengths packed into one row: start, start+1, ... restarting
    at every document, (sum(lengths),) ints, as transformers' DataCollatorWithFlattening returns them
    (data/data_collator.py, its `position_ids_start` argument is `start`).
    """
    lengths = [_checks.count(n, "lengths") for n in np.atleast_1d(lengths).tolist()]
    return np.concatenate([start + np.arange(n) for n in lengths])


def cu_seqlens_from_position_ids(position_ids) -> np.ndarray:
    """Where each packed document starts, plus the total: (docs + 1,) ints, the `cu_seqlens` a
    varlen attention kernel takes. A document starts wherever the id equals the smallest id, as in
    transformers 5.24's prepare_fa_kwargs_from_position_ids (modeling_flash_attention_utils.py).
    """
    ids = np.asarray(position_ids).reshape(-1)
    starts = np.flatnonzero(ids == ids.min())
    return np.append(starts, ids.size)


def document_ids_from_position_ids(position_ids) -> np.ndarray:
    """Which packed document each token belongs to, (batch, seq) ints from 0: a new document
    wherever an id is not its left neighbour plus one. transformers 5.24's
    find_packed_sequence_indices (masking_utils.py) does this when it gets ids and no mask.
    """
    ids = np.atleast_2d(np.asarray(position_ids))  # (batch, seq)
    step = np.diff(ids, axis=-1, prepend=ids[:, :1] - 1)  # 1 inside a document
    return np.cumsum(step != 1, axis=-1)


def document_mask(document_ids) -> np.ndarray:
    """Causal attention cut between documents: (seq, seq) bools, True where query i may read key j
    (j <= i and both in the same document). document_ids: (seq,) ints."""
    doc = _checks.vector(document_ids, "document_ids")
    return causal_mask(doc.size) & (doc[:, None] == doc[None, :])


# ---------------------------------------------------------------------------
# 3. The reference attention: one head, RoPE at explicit ids
# ---------------------------------------------------------------------------

# Llama 3.1 8B's speeds (head 128, base 500,000, the llama3 rule), from lessons/gallery/llama-3.1-8b.json
LLAMA31_THETA = rope_inv_freq(LLAMA31_8B["head_dim"], LLAMA31_8B["rope_parameters"])[0]


def rope_at(x: np.ndarray, position_ids, theta: np.ndarray = LLAMA31_THETA) -> np.ndarray:
    """Rows x (n, d) turned by RoPE (half-split layout) at their own ids (n,) with speeds theta (d/2,)."""
    cos, sin = half_split_table(angle_table(position_ids, theta))  # (n, d) each
    return rotate_with_table(x, cos, sin)


def attend(q, k, v, q_ids, k_ids, allowed, theta=LLAMA31_THETA, q_scale=None) -> np.ndarray:
    """One head's attention output (n_q, d): q (n_q, d) at ids q_ids, k and v (n_k, d) at k_ids,
    `allowed` (n_q, n_k) bools; RoPE with speeds theta (None: no rotation, a NoPE layer);
    q_scale (n_q,) multiplies each query (Llama 4's temperature), None for 1.
    """
    if theta is not None:
        q, k = rope_at(q, q_ids, theta), rope_at(k, k_ids, theta)
    if q_scale is not None:
        q = q * np.asarray(q_scale)[:, None]
    scores = q @ k.T / np.sqrt(q.shape[-1])  # (n_q, n_k): q·k/√d
    return softmax(np.where(allowed, scores, -np.inf)) @ v


def llama4_temperature(positions, floor_scale: int = 8192, attn_scale: float = 0.1) -> np.ndarray:
    """Llama 4's query multiplier on its NoPE layers, 1 + attn_scale · ln(1 + ⌊(p + 1)/floor_scale⌋),
    for (n,) positions p: 1 below floor_scale − 1 (transformers 5.24 Llama4TextAttention.forward,
    defaults from configuration_llama4.py). transformers takes p as the token's index in the cache.
    """
    p = np.asarray(positions, dtype=float)
    return 1.0 + attn_scale * np.log1p(np.floor((p + 1.0) / floor_scale))


def _tokens(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((n, d)) for _ in range(3))  # q, k, v: (n, d) each


def chunked_attention(q, k, v, split: int, restart: bool, theta=LLAMA31_THETA) -> np.ndarray:
    """Prefill in two chunks with a cache: the first `split` tokens, then the rest against the cached
    keys. The continuing chunk's ids start at `split` (the cached length), or at 0 if `restart`.
    Returns the (n, d) outputs of both chunks."""
    n = q.shape[0]
    first = np.arange(split)
    out1 = attend(q[:split], k[:split], v[:split], first, first, causal_mask(split), theta)
    second = default_position_ids(n - split, 0 if restart else split)  # the new chunk's ids
    k_ids = np.concatenate([first, second])  # cached keys keep the ids they were turned with
    allowed = np.tril(np.ones((n - split, n), bool), k=split)  # each new token sees the cache and its past
    return np.vstack([out1, attend(q[split:], k, v, second, k_ids, allowed, theta)])


def ring_buffer_attention(q, k, v, window: int, position_from_slots: bool) -> np.ndarray:
    """Decode token by token with a ring buffer of `window` slots: token p's key goes to slot
    p % window, already turned at p. Each query attends to the slots in slot order. Its id is p,
    or (position_from_slots) the number of filled slots minus one, the bug. Returns (n, d)."""
    n, d = q.shape
    ring_k, ring_v, ring_ids = np.zeros((window, d)), np.zeros((window, d)), np.full(window, -1)
    rows = []
    for p in range(n):
        slot = p % window  # slot != position once the ring has wrapped
        ring_k[slot], ring_v[slot], ring_ids[slot] = rope_at(k[p : p + 1], [p])[0], v[p], p
        filled = ring_ids >= 0
        q_id = min(p, window - 1) if position_from_slots else p
        q_rot = rope_at(q[p : p + 1], [q_id])
        scores = q_rot @ ring_k[filled].T / np.sqrt(d)  # keys in slot order
        rows.append(softmax(scores) @ ring_v[filled])
    return np.vstack(rows)


def sliding_window_mask(n: int, window: int) -> np.ndarray:
    """Causal mask that keeps the last `window` keys: (n, n) bools, 0 <= i − j < window."""
    gap = np.arange(n)[:, None] - np.arange(n)[None, :]  # query minus key
    return (gap >= 0) & (gap < window)


# ---------------------------------------------------------------------------
# 4. The conformance table: each scenario, right and with a classic bug
# ---------------------------------------------------------------------------

THREADS = {
    "left-pad": "https://github.com/huggingface/transformers/issues/18478",
    "learned": "https://github.com/huggingface/transformers/pull/29583",
    "no-cut": "https://github.com/huggingface/transformers/issues/32937",
    "no-reset": "https://github.com/hiyouga/LlamaFactory/pull/7318",
    "ids-only": "https://github.com/huggingface/nanoVLM/issues/201",
    "chunk": "https://github.com/huggingface/transformers/issues/43082",
    "prefix": "https://github.com/vllm-project/vllm-metal/pull/144",
    "dynamic": "https://github.com/huggingface/transformers/issues/25104",
    "longrope": "https://github.com/huggingface/transformers/pull/33129",
}


def _max_gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))))


def _padding_rows(q, k, v, ref, pad: int, seed: int) -> list[tuple]:
    n, d = q.shape
    pq, pk, pv = _tokens(pad, d, seed + 1)  # the padding tokens' own vectors (masked out)
    Q, K, V = np.vstack([pq, q]), np.vstack([pk, k]), np.vstack([pv, v])
    mask = np.r_[np.zeros(pad, int), np.ones(n, int)]
    # no real query reads a padding key; a padding query reads only itself (its output is thrown away)
    allowed = causal_mask(pad + n) & ((mask[None, :] == 1) | np.eye(pad + n, dtype=bool))
    rows = []
    for label, ids, key in (("left padding, ids cumsum(mask) − 1", position_ids_from_mask(mask), None),
                            ("left padding, ids 0..n−1 (none passed)", default_position_ids(pad + n), "left-pad")):
        rows.append((label, "RoPE", _max_gap(attend(Q, K, V, ids, ids, allowed)[pad:], ref), key))
    # the same offset against a learned table: GPT-2 style, a row per position added to the input
    table_rng = np.random.default_rng(seed + 2)
    table_ = table_rng.standard_normal((pad + n, d))  # (positions, d)
    W = table_rng.normal(0, d ** -0.5, (3, d, d))  # W_q, W_k, W_v: (d, d)

    def learned(x, ids, allowed_):
        h = x + table_[ids]  # the position's row added to the token's vector
        return attend(h @ W[0].T, h @ W[1].T, h @ W[2].T, ids, ids, allowed_, theta=None)

    x = np.vstack([pq, q])  # the tokens' input vectors
    alone = learned(q, np.arange(n), causal_mask(n))
    for label, ids, key in (("left padding, ids cumsum(mask) − 1", position_ids_from_mask(mask), None),
                            ("left padding, ids 0..n−1 (none passed)", default_position_ids(pad + n), "learned")):
        rows.append((label, "learned table", _max_gap(learned(x, ids, allowed)[pad:], alone), key))
    return rows


def _packing_rows(q, k, v, ref, other: int, seed: int) -> list[tuple]:
    n, d = q.shape
    bq, bk, bv = _tokens(other, d, seed + 3)  # another document packed in front
    Q, K, V = np.vstack([bq, q]), np.vstack([bk, k]), np.vstack([bv, v])
    reset, running = packed_position_ids([other, n]), default_position_ids(other + n)
    cut = document_mask(np.r_[np.zeros(other, int), np.ones(n, int)])  # from the lengths
    cases = (("packing, ids reset, attention cut", reset, cut, None),
             ("packing, ids reset, attention not cut", reset, causal_mask(other + n), "no-cut"),
             ("packing, ids not reset, attention cut", running, cut, "no-reset"),
             ("packing, ids not reset, cut read from the ids", running,
              document_mask(document_ids_from_position_ids(running)[0]), "ids-only"))
    return [(label, "RoPE", _max_gap(attend(Q, K, V, ids, ids, allowed)[other:], ref), key)
            for label, ids, allowed, key in cases]


def _cache_rows(q, k, v, ref, seed: int) -> list[tuple]:
    n, d = q.shape
    rows = []
    for what, split, key in (("chunked prefill", n // 2, "chunk"), ("prefix-cache hit", n - 3, "prefix")):
        for restart in (False, True):
            label = f"{what}, new ids {'from 0' if restart else 'from the cached length'}"
            rows.append((label, "RoPE", _max_gap(chunked_attention(q, k, v, split, restart), ref),
                         key if restart else None))
    window = 5
    windowed = attend(q, k, v, np.arange(n), np.arange(n), sliding_window_mask(n, window))
    for label, bug, key in (("ring buffer, keys read in slot order", False, None),
                            ("ring buffer, query id = filled slots − 1", True, "-")):
        rows.append((label, "RoPE", _max_gap(ring_buffer_attention(q, k, v, window, bug), windowed), key))
    return rows


def _absolute_rows(q, k, v, seed: int) -> list[tuple]:
    n, d = q.shape
    ids, allowed = np.arange(n), causal_mask(n)
    rows = []
    # Llama 4's NoPE layers: the same sentence 8,192 slots further into the cache
    alone = attend(q, k, v, ids, ids, allowed, theta=None, q_scale=llama4_temperature(ids))
    shifted = attend(q, k, v, ids, ids, allowed, theta=None, q_scale=llama4_temperature(ids + 8192))
    rows.append(("offset 8,192, Llama 4 NoPE temperature", "NoPE + temperature", _max_gap(shifted, alone), "-"))
    # dynamic NTK: keys cached while the prompt fit (trained base), reused after it grew
    trained, grown, dd = 4096, 4224, 128
    base = LLAMA31_8B["rope_parameters"]["rope_theta"]
    Qd, Kd, Vd = _tokens(grown, dd, seed + 4)
    now = rope_frequencies(dd, dynamic_ntk_base(base, 2.0, grown, trained, dd))
    then = rope_frequencies(dd, dynamic_ntk_base(base, 2.0, trained, trained, dd))
    last = np.arange(grown - 1, grown)
    keys = np.vstack([rope_at(Kd[:trained], np.arange(trained), then), rope_at(Kd[trained:], np.arange(trained, grown), now)])
    fresh = attend(Qd[-1:], Kd, Vd, last, np.arange(grown), np.ones((1, grown), bool), now)
    stale = attend(rope_at(Qd[-1:], last, now), keys, Vd, None, None, np.ones((1, grown), bool), theta=None)
    rows.append(("dynamic NTK, cached keys keep the old base", "dynamic NTK", _max_gap(stale, fresh), "dynamic"))
    # LongRoPE (Phi-3.5-mini): keys cached with the short factors, the query past 4,096 with the long ones
    # Phi-3.5-mini-instruct (lessons/gallery/phi-3.5-mini.json): head 96, base 10,000, trained at 4,096
    original, grown, head = 4096, 4160, 96
    params = {"rope_type": "longrope", **_phi35_factors(), "rope_theta": 10000.0,
              "original_max_position_embeddings": original}
    short, att = rope_inv_freq(head, params, max_position_embeddings=131072, seq_len=original)
    long_, _ = rope_inv_freq(head, params, max_position_embeddings=131072, seq_len=grown)
    Ql, Kl, Vl = _tokens(grown, head, seed + 5)
    Ql, Kl = Ql * att, Kl * att  # the attention factor multiplies cos and sin for q and k alike
    last = np.arange(grown - 1, grown)
    keys = np.vstack([rope_at(Kl[:original], np.arange(original), short),
                      rope_at(Kl[original:], np.arange(original, grown), long_)])
    fresh = attend(Ql[-1:], Kl, Vl, last, np.arange(grown), np.ones((1, grown), bool), long_)
    stale = attend(rope_at(Ql[-1:], last, long_), keys, Vl, None, None, np.ones((1, grown), bool), theta=None)
    rows.append(("LongRoPE, cached keys keep the short factors", "LongRoPE", _max_gap(stale, fresh), "longrope"))
    return rows


def conformance_table(n: int = 12, pad: int = 5, other: int = 7, seed: int = 0) -> list[dict]:
    """Every scenario run right and with each classic bug, against the sentence attended alone.

    One head, d = 128, Llama 3.1 8B's speeds; the sentence is n random (q, k, v) rows (seeded).
    Each row: scenario, scheme, gap (largest |output − reference| over the sentence's outputs),
    bug (False for the correct setup), thread (the URL of a tracker thread about that bug; None for a
    correct setup, or a bug for which no thread was found).
    """
    n = _checks.count(n, "n", 8)
    q, k, v = _tokens(n, LLAMA31_THETA.size * 2, seed)
    ids = np.arange(n)
    ref = attend(q, k, v, ids, ids, causal_mask(n))  # the sentence alone: ids 0..n−1, causal
    rows = (_padding_rows(q, k, v, ref, pad, seed) + _packing_rows(q, k, v, ref, other, seed)
            + _cache_rows(q, k, v, ref, seed) + _absolute_rows(q, k, v, seed))
    return [dict(scenario=s, scheme=scheme, gap=gap, bug=key is not None, thread=THREADS.get(key))
            for s, scheme, gap, key in rows]


# ---------------------------------------------------------------------------
# 5. A whole decoder with explicit ids and mask (the lab's model)
# ---------------------------------------------------------------------------


def forward_with_ids(model, tokens, position_ids, allowed) -> np.ndarray:
    """Logits (seq, vocab) of a `lessons.transformer.TinyGPT` for tokens (seq,) at explicit position
    ids (seq,) under an explicit mask `allowed` (seq, seq) bools, True where query i may read key j.

    TinyGPT.forward numbers its tokens 0..seq−1 under the causal mask; this runs the same weights
    with the ids and the mask a batch with padding or packing hands over. Position "rope" turns q
    and k at the ids, "learned" adds the table's row for each id, "none" uses neither.
    """
    _checks.one_of(model.position, "model.position", ("rope", "learned", "none"))
    tokens, ids = np.asarray(tokens), np.asarray(position_ids)
    allowed = np.asarray(allowed, dtype=bool)
    x = model.W_emb[tokens]  # (seq, d_model)
    if model.position == "learned":
        x = x + model.scheme.W_pos[ids]  # the row of each token's id
    for L in model.layers:
        h = model._norm(x, L["g1"], L["b1"])
        Q, K, V = (split_heads(h @ L[name].T, model.n_heads) for name in ("W_q", "W_k", "W_v"))  # (H, seq, d_head)
        if model.position == "rope":
            Q, K = apply_rotary_emb(Q, K, *half_split_table(angle_table(ids, model.scheme.table.theta)))
        scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(model.d_head)  # (H, seq, seq)
        x = x + merge_heads(softmax(np.where(allowed, scores, -np.inf)) @ V) @ L["W_o"].T
        h = model._norm(x, L["g2"], L["b2"])
        x = x + gelu(h @ L["W_1"].T + L["c_1"]) @ L["W_2"].T + L["c_2"]
    return model.unembed(x)  # (seq, vocab)


def padded_batch_mask(n_pad: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A row of n_pad padding tokens then n real ones: (attention mask (n_pad + n,) 0/1, allowed
    (n_pad + n, n_pad + n) bools). No real token reads a padding key; a padding query reads
    itself only (its output is discarded), so no softmax row is empty."""
    mask = np.r_[np.zeros(n_pad, int), np.ones(n, int)]
    allowed = causal_mask(n_pad + n) & ((mask[None, :] == 1) | np.eye(n_pad + n, dtype=bool))
    return mask, allowed


# ---------------------------------------------------------------------------
# 6. Figures (figures_build turns each into docs/figures/position_ids.<name>.svg)
# ---------------------------------------------------------------------------


def _grid(ax, allowed, ids, title):
    n = len(ids)
    ax.imshow(np.where(allowed, 1.0, 0.0), cmap="Blues", vmin=0, vmax=1.6)
    ax.set_xticks(range(n), [str(int(i)) for i in ids], fontsize=9)
    ax.set_yticks(range(n), [str(int(i)) for i in ids], fontsize=9)
    ax.set_title(title)
    ax.set_xlabel("key (its position id)")


def figures() -> dict:
    """The page's figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}
    mask, padded = padded_batch_mask(3, 5)
    reset = packed_position_ids([4, 4])
    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(9.6, 3.6), layout="constrained")
    _grid(a1, padded, position_ids_from_mask(mask), "left padding (3 pads)")
    _grid(a2, document_mask(document_ids_from_position_ids(reset)[0]), reset, "packing: ids reset, cut")
    _grid(a3, causal_mask(8), reset, "packing: ids reset, not cut")
    a1.set_ylabel("query (its position id)")
    figs["masks"] = fig

    rows = conformance_table()
    fig, ax = plt.subplots(figsize=(9.6, 6.4), layout="constrained")
    floor = 1e-17  # an exact 0 is drawn here, on the log scale
    y = np.arange(len(rows))[::-1]
    for yi, r in zip(y, rows, strict=True):
        colour = GREEN if not r["bug"] else (RED if r["gap"] > 1e-9 else BLUE)
        ax.barh(yi, max(r["gap"], floor), left=floor, color=colour, hatch="" if r["bug"] else "//",
                edgecolor=GRID, lw=0.5)
        ax.text(max(r["gap"], floor) * 2, yi, f"{r['gap']:.1e}" if r["gap"] else "exactly 0", va="center", fontsize=9)
    ax.set_yticks(y, [f"{r['scenario']} [{r['scheme']}]" for r in rows], fontsize=9)
    ax.set_xscale("log")
    ax.set_xlim(floor, 1e3)
    ax.axvline(1e-9, color=MUTED, ls="--", lw=1)
    ax.set_xlabel("largest |attention output − the sentence attended alone|")
    ax.set_title("Position-id conformance: correct (hatched), harmless bug, breaking bug")
    figs["conformance"] = fig
    return figs


# ---------------------------------------------------------------------------
# 7. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. Left padding: ids from the mask")
    mask = np.array([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])
    say(f"mask {mask.tolist()} -> ids {position_ids_from_mask(mask).tolist()}")
    banner("2. Packing: ids restart, attention is cut")
    ids = packed_position_ids([3, 2, 4])
    say(f"lengths 3, 2, 4 -> ids {ids.tolist()}, cu_seqlens {cu_seqlens_from_position_ids(ids).tolist()}, "
        f"documents {document_ids_from_position_ids(ids)[0].tolist()}")
    banner("3. The conformance table (one head, Llama 3.1 8B's speeds)")
    table(["scenario", "scheme", "largest gap"], [(r["scenario"], r["scheme"], f"{r['gap']:.1e}")
                                                  for r in conformance_table()])
    takeaway("A constant offset is invisible to RoPE; an offset that differs between queries and keys, "
             "or anything that reads the absolute position, is not.")


if __name__ == "__main__":
    demo()
