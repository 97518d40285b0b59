r"""
# Attention sinks: where attention goes when it has nowhere to go
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, MUTED, ORANGE, RED
from lessons._show import banner, say, table, takeaway
from lessons.attention import scaled_dot_product_attention
from lessons.notation import softmax
from lessons.rope import apply_rope_half

# ---------------------------------------------------------------------------
# 1. Softmax has to put its weight somewhere: the first token as a sink
# ---------------------------------------------------------------------------


def key_visibility(seq_len: int) -> np.ndarray:
    """How many queries may attend each key under the causal mask, shape (seq_len,).

    Key j is seen by queries j, j + 1, ..., seq_len − 1: seq_len − j of them.
    Only key 0, the first token, is seen by every query.
    """
    seq_len = _checks.count(seq_len, "seq_len")
    return seq_len - np.arange(seq_len)


def evicted_weights(weights, evicted) -> np.ndarray:
    """A query's weights after some keys leave the cache, shape (n_keys − len(evicted),).

    weights: (n_keys,) softmax weights that sum to 1; evicted: indices of the
    keys dropped. The scores of the others do not change, so softmax shares the
    whole 1 among them again: each kept weight is divided by the kept total.
    """
    w = _checks.vector(weights, "weights")
    keep = np.setdiff1d(np.arange(w.size), np.asarray(evicted, dtype=int))
    if keep.size == 0:
        raise ValueError("evicted must leave at least one key: softmax needs something to weight")
    return w[keep] / w[keep].sum()


# ---------------------------------------------------------------------------
# 2. StreamingLLM: keep the first tokens and a recent window, renumber the cache
# ---------------------------------------------------------------------------


def streaming_kept(n_seen: int, n_sink: int, window: int) -> np.ndarray:
    """Original indices of the tokens a StreamingLLM cache holds after n_seen tokens, ascending.

    The first n_sink tokens stay forever; of the rest, only the last `window`.
    Until n_seen exceeds n_sink + window nothing is dropped.
    """
    n_seen = _checks.count(n_seen, "n_seen")
    n_sink = _checks.count(n_sink, "n_sink", low=0)
    window = _checks.count(window, "window")
    if n_seen <= n_sink + window:
        return np.arange(n_seen)
    return np.concatenate([np.arange(n_sink), np.arange(n_seen - window, n_seen)])


def streaming_positions(n_seen: int, n_sink: int, window: int, within_cache: bool = True) -> tuple[np.ndarray, int]:
    """Positions RoPE gives the cached keys, and the position of the next query.

    within_cache=True (StreamingLLM, §3.2 of its paper): the slots of the cache,
    0, 1, ..., len(cache) − 1, and the query gets len(cache). False: the tokens'
    places in the original text, and the query gets n_seen.
    """
    kept = streaming_kept(n_seen, n_sink, window)
    if within_cache:
        return np.arange(kept.size), int(kept.size)
    return kept, int(n_seen)


def streaming_distances(n_seen: int, n_sink: int, window: int, within_cache: bool = True) -> np.ndarray:
    """How far back the next query sees each cached key (query position − key position), shape (len(cache),)."""
    keys, query = streaming_positions(n_seen, n_sink, window, within_cache)
    return query - keys


def streaming_scores(q, K, n_seen: int, n_sink: int, window: int, within_cache: bool = True,
                     base: float = 10000.0) -> np.ndarray:
    """RoPE scores of the next query against a StreamingLLM cache, shape (len(cache),).

    q: (d,) the new token's query before rotation; K: (len(cache), d) the cached
    keys before rotation (StreamingLLM keeps keys unrotated and turns them at
    each step, §3.2). Both are turned to the positions `streaming_positions`
    assigns, then scored q·k / √d.
    """
    q, K = _checks.vector(q, "q"), _checks.matrix(K, "K")
    keys, query = streaming_positions(n_seen, n_sink, window, within_cache)
    if K.shape != (keys.size, q.size):
        raise ValueError(f"K must be (cache size {keys.size}, d {q.size}); got shape {K.shape}")
    q_rot = apply_rope_half(q[None, :], [query], base)[0]  # (d,)
    K_rot = apply_rope_half(K, keys, base)  # (cache, d)
    return K_rot @ q_rot / np.sqrt(q.size)


def rerotate(k_rotated, shift, base: float = 10000.0) -> np.ndarray:
    """Move RoPE-rotated keys by `shift` positions without the unrotated key, shape like k_rotated.

    k_rotated: (n, d) keys already turned to their positions; shift: a number
    or (n,) numbers (negative moves a key back). Rotations add up, so turning
    a key rotated at p by s gives the key rotated at p + s: how a cache that
    stores rotated keys renumbers them (transformers' former SinkCache did this).
    """
    k_rotated = _checks.matrix(k_rotated, "k_rotated")
    shift = np.broadcast_to(np.asarray(shift, dtype=float), (k_rotated.shape[0],))
    return apply_rope_half(k_rotated, shift, base)


# ---------------------------------------------------------------------------
# 3. gpt-oss: one learned sink logit per head
# ---------------------------------------------------------------------------


def sink_attention(Q, K, V, sinks, mask=None, scaling: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Attention with a learned sink logit per head, as gpt-oss computes it.

    Q: (H, n_q, d) queries; K, V: (H_kv, n_k, d) keys and values, H a multiple
    of H_kv (grouped-query: query head h reads key head h // (H / H_kv));
    sinks: (H,) one logit per head (−inf: no sink); mask: boolean (n_q, n_k), True = allowed,
    or None; scaling: the score scale, 1/√d by default.

    Each row of scores gets one more entry, the head's sink logit; softmax runs
    over the row, the sink's weight is dropped, and the other weights (which
    now add up to less than 1) multiply V. Returns out (H, n_q, d) and the
    weights (H, n_q, n_k) without the sink column.
    """
    Q, K, V = (_checks.array(a, name, 3) for a, name in ((Q, "Q"), (K, "K"), (V, "V")))
    n_heads, n_kv = Q.shape[0], K.shape[0]
    if n_heads % n_kv or V.shape[0] != n_kv:
        raise ValueError(f"Q's heads ({n_heads}) must be a multiple of K's and V's ({K.shape[0]}, {V.shape[0]})")
    sinks = np.asarray(sinks, dtype=float)  # −inf allowed: a head with no sink
    if sinks.shape != (n_heads,) or np.any(np.isnan(sinks) | (sinks == np.inf)):
        raise ValueError(f"sinks needs one logit (or −inf) per query head ({n_heads}); got {sinks!r}")
    K, V = np.repeat(K, n_heads // n_kv, axis=0), np.repeat(V, n_heads // n_kv, axis=0)  # (H, n_k, d)
    scale = 1 / np.sqrt(Q.shape[-1]) if scaling is None else scaling
    scores = Q @ np.swapaxes(K, -1, -2) * scale  # (H, n_q, n_k)
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    column = np.broadcast_to(sinks[:, None, None], scores.shape[:-1] + (1,))  # (H, n_q, 1)
    weights = softmax(np.concatenate([scores, column], axis=-1))[..., :-1]  # drop the sink's share
    return weights @ V, weights


def sink_as_extra_key(Q, K, V, sinks, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """The same attention as `sink_attention`, built as one extra key per head.

    The extra key is a zero vector (so q·k = 0) with the sink logit added as a
    bias, so its score is the sink whatever the query; its value is a zero
    vector, so it adds nothing to the output; and every query may see it.
    Q, K, V: (H, n, d) with as many key heads as query heads. Returns out and
    the weights of the real keys, as `sink_attention` does.
    """
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    n_heads, n_q, n_k = Q.shape[0], Q.shape[1], K.shape[1]
    zero = np.zeros((n_heads, 1, K.shape[-1]))
    K_plus, V_plus = np.concatenate([K, zero], axis=1), np.concatenate([V, zero], axis=1)  # (H, n_k + 1, d)
    bias = np.zeros((n_heads, n_q, n_k + 1))
    bias[..., -1] = np.asarray(sinks, dtype=float)[:, None]  # the sink key's score is the logit itself
    allowed = np.ones((n_q, n_k + 1), dtype=bool)
    if mask is not None:
        allowed[:, :-1] = np.asarray(mask, dtype=bool)
    out, weights = scaled_dot_product_attention(Q, K_plus, V_plus, mask=allowed, bias=bias)
    return out, weights[..., :-1]


def sink_share(sink: float, n_keys: int, score: float = 0.0) -> float:
    """The weight the sink takes from a query whose n_keys scores all equal `score`: e^s / (e^s + n·e^x)."""
    n_keys = _checks.count(n_keys, "n_keys")
    return float(1.0 / (1.0 + n_keys * np.exp(score - sink)))


def causal_window_mask(seq_len: int, window: int) -> np.ndarray:
    """(seq_len, seq_len) boolean: query i may see key j when i − window < j <= i.

    transformers' meaning of a config's sliding_window (masking_utils.py,
    sliding_window_overlay): `window` keys in all, the query's own included.
    """
    seq_len, window = _checks.count(seq_len, "seq_len"), _checks.count(window, "window")
    i, j = np.indices((seq_len, seq_len))
    return (j <= i) & (j > i - window)


def flash_window_size(sliding_window: int) -> tuple[int, int]:
    """FlashAttention's window_size for a config's sliding_window: (sliding_window − 1, 0).

    FlashAttention counts keys to the left of the query, not the query itself:
    (left, 0) lets query i see keys i − left to i, left + 1 of them.
    transformers 5.24 passes sliding_window − 1 (_process_flash_attention_kwargs).
    """
    return (_checks.count(sliding_window, "sliding_window") - 1, 0)


def flash_window_mask(seq_len: int, window_size: tuple[int, int]) -> np.ndarray:
    """(seq_len, seq_len) boolean: what FlashAttention's (left, 0) window lets each query see: i − left <= j <= i."""
    left = _checks.count(window_size[0], "window_size[0]", low=0)
    i, j = np.indices((_checks.count(seq_len, "seq_len"), seq_len))
    return (j <= i + window_size[1]) & (j >= i - left) & (j <= i)


def _gallery_config(slug: str) -> dict:
    return json.loads((Path(__file__).parent / "gallery" / f"{slug}.json").read_text(encoding="utf-8"))["config"]


def sink_parameter_count(config: dict) -> int:
    """How many learned sink logits a gpt-oss config implies: one per query head in every layer."""
    return int(config["num_attention_heads"]) * int(config["num_hidden_layers"])


def _example_qkv(n_heads: int = 2, seq_len: int = 6, d: int = 4, seed: int = 0):
    """Random (H, n, d) queries, keys and values for the page's checks."""
    return np.random.default_rng(seed).standard_normal((3, n_heads, seq_len, d))


# ---------------------------------------------------------------------------
# 4. Figures (figures_build turns each into docs/figures/attention_sinks.<name>.svg)
# ---------------------------------------------------------------------------


def figures() -> dict:
    """The page's three figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}
    weights = np.array([0.6] + [0.4 / 7] * 7)  # a head that parks 0.6 on the first token
    after = evicted_weights(weights, [0])
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    x = np.arange(8)
    ax.bar(x - 0.2, weights, 0.4, color=BLUE, label="all 8 keys cached")
    ax.bar(x[1:] + 0.2, after, 0.4, color=RED, hatch="//", label="first token evicted")
    ax.set(xlabel="key (0 = the first token)", ylabel="attention weight", xticks=x,
           title="Evicting the sink: its weight spreads over the rest")
    ax.legend(frameon=False)
    figs["eviction"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    n_sink, window, trained = 4, 60, 64
    seen = np.arange(1, 401)
    for within, color, dash, label in ((True, GREEN, "-", "positions within the cache (StreamingLLM)"),
                                       (False, RED, "--", "positions in the original text")):
        far = [streaming_distances(int(n), n_sink, window, within).max() for n in seen]
        ax.plot(seen, far, color=color, ls=dash, lw=1.8, label=label)
    ax.axhline(trained, color=GRID, lw=0.8)
    ax.annotate(f"trained length {trained}", (300, trained), xytext=(300, trained + 25), color=GRID)
    ax.set(xlabel="tokens streamed so far", ylabel="distance to the oldest key",
           title=f"{n_sink} sink tokens + a window of {window}")
    fig.legend(loc="outside lower center", frameon=False)
    figs["distances"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    logits = np.linspace(-4, 8, 121)
    for n_keys, color, dash in ((1, ORANGE, ":"), (16, BLUE, "-"), (128, GREEN, "--"), (4096, MUTED, "-.")):
        ax.plot(logits, [sink_share(s, n_keys) for s in logits], color=color, ls=dash, lw=1.8,
                label=f"{n_keys:,} key{'s' if n_keys > 1 else ''}")
    ax.set(xlabel="sink logit (key scores all 0)", ylabel="weight the sink takes",
           title="One logit, less share as more keys compete")
    ax.legend(frameon=False, title="keys in view")
    figs["sink_share"] = fig
    return figs


# ---------------------------------------------------------------------------
# 5. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. The first token is the only key every query sees")
    say(f"Causal mask, 6 tokens: queries that see each key {key_visibility(6).tolist()}.")
    after = evicted_weights([0.6, 0.1, 0.1, 0.1, 0.1], [0])
    say(f"A head with weights 0.6, 0.1 x 4 loses its first token: the rest become {np.round(after, 3).tolist()}.")

    banner("2. StreamingLLM: 2 sinks + a window of 3, after 10 tokens")
    table(["positions", "cached keys", "query", "distances"],
          [(name, streaming_positions(10, 2, 3, within)[0].tolist(), streaming_positions(10, 2, 3, within)[1],
            streaming_distances(10, 2, 3, within).tolist())
           for name, within in (("within the cache", True), ("original text", False))])
    takeaway("Renumbered, no distance exceeds the cache size, however long the stream.")

    banner("3. gpt-oss's learned sink")
    Q, K, V = _example_qkv()
    sinks = np.array([0.5, 2.0])
    out, w = sink_attention(Q, K, V, sinks)
    out2, _ = sink_as_extra_key(Q, K, V, sinks)
    say(f"Weight left for the real keys at the last query: {np.round(w[:, -1].sum(-1), 3).tolist()} per head; "
        f"as an extra key with no value: largest difference {np.max(np.abs(out - out2)):.1e}.")
    cfg = _gallery_config("gpt-oss-20b")
    say(f"gpt-oss-20b: {sink_parameter_count(cfg):,} sink logits ({cfg['num_attention_heads']} heads x "
        f"{cfg['num_hidden_layers']} layers); sliding_window {cfg['sliding_window']} is FlashAttention's "
        f"window_size {flash_window_size(cfg['sliding_window'])}.")


if __name__ == "__main__":
    demo()
