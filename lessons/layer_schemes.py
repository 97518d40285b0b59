r"""
# x
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, METHOD_LOOKS, MUTED, ORANGE, SCHEME_LOOKS
from lessons._show import banner, say, table, takeaway
from lessons.alibi import mask_position_signal, nope_layers
from lessons.context_extension import rope_inv_freq
from lessons.positional import angle_table
from lessons.rope import apply_rope_half, apply_rope_interleaved, half_split_table, rotate_with_table

# ---------------------------------------------------------------------------
# 1. Different schemes in different layers
# ---------------------------------------------------------------------------

GALLERY = Path(__file__).resolve().parent / "gallery"
FIGURE_INPUTS = ("lessons/gallery/*.json",)
# the models section 1 maps, by their lessons/gallery/<slug>.json
PLAN_MODELS = ("llama-4-scout", "smollm3-3b", "command-r7b", "gemma-3-4b", "gemma-2-9b", "gpt-oss-20b",
               "mistral-7b")


def gallery_text_config(slug: str) -> dict:
    """The language model's keys of lessons/gallery/<slug>.json (its text_config when nested)."""
    config = json.loads((GALLERY / f"{slug}.json").read_text(encoding="utf-8"))["config"]
    return config.get("text_config", config)


def layer_plan(text: dict) -> list[dict]:
    """Each layer's position scheme and reach, as transformers 5.24 builds them from a config.

    text: a config's language-model keys (`gallery_text_config`). Returns one dict per layer:
    {"rope": does the layer rotate q and k, "window": how many recent tokens it sees (None = all),
    "base": its RoPE base (None for NoPE)}. The rules, by model_type: llama4_text and smollm3 read
    no_rope_layers (`lessons.alibi.nope_layers`), and Llama 4's RoPE layers attend in chunks of
    attention_chunk_size; cohere2 makes every sliding_window_pattern-th layer (4) full and rotates
    only its sliding layers; gemma3_text makes every sliding_window_pattern-th layer (6) full, with
    rope_local_base_freq (10,000) on the sliding ones; gemma2 alternates sliding and full from
    layer 0; gpt_oss lists layer_types; mistral slides every layer.
    """
    kind = text.get("model_type")
    n = _checks.count(text["num_hidden_layers"], "num_hidden_layers")
    theta = float(text.get("rope_theta", 10000.0))
    window = text.get("sliding_window")
    if kind in ("llama4_text", "smollm3"):
        nope = nope_layers(n, text.get("no_rope_layers"), text.get("no_rope_layer_interval", 4),
                           fill_empty=kind == "llama4_text")
        chunk = text.get("attention_chunk_size", 8192) if kind == "llama4_text" else None
        return [{"rope": i not in nope, "window": None if i in nope else chunk, "base": None if i in nope else theta}
                for i in range(n)]
    if kind in ("cohere2", "gemma3_text", "gemma2", "gpt_oss"):
        every = {"cohere2": 4, "gemma3_text": 6, "gemma2": 2}.get(kind)
        types = text.get("layer_types") or [
            "sliding_attention" if (i + 1) % text.get("sliding_window_pattern", every) else "full_attention"
            for i in range(n)]
        local_base = float(text.get("rope_local_base_freq", 10000.0)) if kind == "gemma3_text" else theta
        if kind == "gemma3_text":
            theta = float(text.get("rope_theta", 1000000.0))
        plan = []
        for t in types:
            sliding = t == "sliding_attention"
            rope = sliding or kind != "cohere2"
            plan.append({"rope": rope, "window": window if sliding else None,
                         "base": (local_base if sliding else theta) if rope else None})
        return plan
    return [{"rope": True, "window": window, "base": theta} for _ in range(n)]


def llama4_attn_temperature(positions, attn_scale: float = 0.1, floor_scale: int = 8192) -> np.ndarray:
    """Llama 4's query multiplier on its NoPE layers: 1 + attn_scale · ln(1 + ⌊(p + 1) / floor_scale⌋).

    positions: (n,) token positions p (transformers 5.24 counts them from the cache length,
    not from position_ids). Returns (n,) floats: 1 up to position floor_scale − 2, then a
    step up every floor_scale tokens (modeling_llama4.py, Llama4TextAttention.forward).
    """
    p = np.asarray(positions, dtype=float)
    floor_scale = _checks.count(floor_scale, "floor_scale")
    # 1 + s · ln(1 + ⌊(p + 1) / F⌋)
    return 1.0 + attn_scale * np.log1p(np.floor((p + 1.0) / floor_scale))


def top_key_weight(margin: float, n_keys: int, temperature: float = 1.0) -> float:
    """Softmax weight of one key whose score beats n_keys − 1 equal others by `margin`, after the
    query is multiplied by `temperature` (so the margin is too): e^(τs) / (e^(τs) + n − 1)."""
    n_keys = _checks.count(n_keys, "n_keys")
    return float(1.0 / (1.0 + (n_keys - 1) * math.exp(-temperature * margin)))


# ---------------------------------------------------------------------------
# 2. Local and global layers, two bases
# ---------------------------------------------------------------------------


def window_angles(inv_freq: np.ndarray, window: int) -> np.ndarray:
    """The largest angle each pair turns between a query and a key a local layer can see:
    (window − 1) · θ_i, (pairs,) radians. However long the prompt, a layer with this window
    never meets a larger one."""
    return (_checks.count(window, "window") - 1) * np.asarray(inv_freq, dtype=float)


def local_score_change(inv_freq: np.ndarray, scaled_inv_freq: np.ndarray, window: int, seed: int = 0) -> float:
    """How far scores move when a local layer's speeds are swapped for scaled ones: the largest
    |score change| over distances 0..window−1, as a fraction of the largest |score|, for a seeded
    random query and key (half-split layout, width 2 · len(inv_freq))."""
    rng = np.random.default_rng(seed)
    d = 2 * len(inv_freq)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    distances = np.arange(_checks.count(window, "window"))

    def scores(theta):
        cos, sin = half_split_table(angle_table(distances, np.asarray(theta, dtype=float)))  # (w, d)
        return rotate_with_table(k, cos, sin) @ q  # q at 0, key turned by each distance: (w,)

    trained = scores(inv_freq)
    return float(np.max(np.abs(scores(scaled_inv_freq) - trained)) / np.max(np.abs(trained)))


# ---------------------------------------------------------------------------
# 3. Partial rotary: three pairings
# ---------------------------------------------------------------------------

PARTIAL_PAIRINGS = ("neox", "glm", "proportional")


def partial_rotary(x: np.ndarray, positions, partial_rotary_factor: float, base: float = 10000.0,
                   pairing: str = "neox") -> np.ndarray:
    """RoPE on part of each head, in one of three pairings, for x (seq, d) at (seq,) positions.

    "neox": the first r = d · factor dimensions turn in half-split pairs (j, j + r/2) at
    base^(−2i/r); the rest pass through (transformers gpt_neox, Phi, most families).
    "glm": the same r dimensions and speeds in interleaved pairs (2i, 2i + 1) (transformers glm).
    "proportional": every dimension stays paired half-split over the whole head, (j, j + d/2);
    the first factor · d/2 pairs turn at base^(−2i/d) and the others stand still (Gemma 4's
    global layers; `lessons.context_extension.rope_inv_freq` computes the speeds).
    """
    x = np.asarray(x, dtype=float)
    d = _checks.even_width(x.shape[-1], "the last axis of x (d)")
    _checks.one_of(pairing, "pairing", PARTIAL_PAIRINGS)
    if pairing == "proportional":
        theta, _ = rope_inv_freq(d, {"rope_type": "proportional", "rope_theta": base,
                                     "partial_rotary_factor": partial_rotary_factor})  # (d/2,), zeros past the kept
        return rotate_with_table(x, *half_split_table(angle_table(np.asarray(positions), theta)))
    r = int(d * partial_rotary_factor)  # the rotary width, as transformers rounds it
    turn = apply_rope_half if pairing == "neox" else apply_rope_interleaved
    return np.concatenate([turn(x[..., :r], positions, base), x[..., r:]], axis=-1)


def partial_partner(d: int, partial_rotary_factor: float, pairing: str = "neox") -> np.ndarray:
    """For each of d dimensions, the dimension it turns with, or −1 where it never turns: (d,) ints."""
    d = _checks.even_width(d, "d")
    _checks.one_of(pairing, "pairing", PARTIAL_PAIRINGS)
    partner = np.full(d, -1)
    if pairing == "proportional":
        kept = int(partial_rotary_factor * d // 2)
        partner[:kept], partner[d // 2:d // 2 + kept] = np.arange(kept) + d // 2, np.arange(kept)
        return partner
    r = int(d * partial_rotary_factor)
    if pairing == "neox":
        partner[:r] = (np.arange(r) + r // 2) % r
    else:
        partner[:r] = np.arange(r) ^ 1  # 2i <-> 2i + 1
    return partner


def slowest_wavelength(inv_freq: np.ndarray) -> float:
    """The longest wavelength 2π/θ among the pairs that turn (θ > 0), in tokens."""
    theta = np.asarray(inv_freq, dtype=float)
    return float(2 * math.pi / theta[theta > 0].min())


# ---------------------------------------------------------------------------
# 4. MLA: why RoPE is decoupled
# ---------------------------------------------------------------------------

FOLD_SCHEMES = ("no rope", "rope on the key", "decoupled")


def deepseek_rotary(x: np.ndarray, positions, base: float = 10000.0) -> np.ndarray:
    """DeepSeek-V3's rotation of the rotary slice (transformers 5.24 deepseek_v3
    apply_rotary_pos_emb_interleave): interleaved pairs (2i, 2i + 1) turn by p · θ_i, and the result
    is written de-interleaved, all first members then all second members. x: (seq, r), r even."""
    turned = apply_rope_interleaved(x, positions, base)  # (seq, r), interleaved
    return np.concatenate([turned[..., 0::2], turned[..., 1::2]], axis=-1)


def fold_error(scheme: str, seed: int = 0, latent: int = 16, d_head: int = 8, d_rope: int = 4,
               query_pos: int = 9) -> float:
    """Largest |score from a folded query − true score| over key positions 0..query_pos.

    Seeded random weights: a latent c (latent,) per key, an up-projection W_UK (d_head, latent) to
    the key, a query q. The fold precomputes W_UKᵀ q once per query and scores every cached latent
    by one dot product. "no rope": score q · (W_UK c), the fold is exact. "rope on the key": both
    q and W_UK c turned by position, q turned by m and the key by n; the fold built for one key
    position is wrong at the others. "decoupled" (MLA): the folded no-rope part plus a separate
    d_rope-wide rotated part shared by all heads: exact again.
    """
    _checks.one_of(scheme, "scheme", FOLD_SCHEMES)
    rng = np.random.default_rng(seed)
    W_uk = rng.standard_normal((d_head, latent))
    q, q_r = rng.standard_normal(d_head), rng.standard_normal(d_rope)
    C = rng.standard_normal((query_pos + 1, latent))  # (n, latent): the cached latents
    K_r = rng.standard_normal((query_pos + 1, d_rope))  # (n, d_rope): the shared rotated keys
    keys = np.arange(query_pos + 1)
    if scheme == "no rope":
        true = (C @ W_uk.T) @ q
        folded = C @ (W_uk.T @ q)
    elif scheme == "rope on the key":
        q_m = apply_rope_half(q[None], [query_pos])[0]  # the query turned by its position m
        true = apply_rope_half(C @ W_uk.T, keys) @ q_m  # each key turned by its own position n
        folded = C @ (W_uk.T @ q_m)  # the fold W_UKᵀ R_m q is right only for the key at n = 0
    else:
        rope_part = deepseek_rotary(K_r, keys) @ deepseek_rotary(q_r[None], [query_pos])[0]  # (n,)
        true = (C @ W_uk.T) @ q + rope_part
        folded = C @ (W_uk.T @ q) + rope_part
    return float(np.max(np.abs(folded - true)))


def mla_cache_numbers(kv_lora_rank: int, qk_rope_head_dim: int) -> int:
    """Numbers MLA caches per token and layer: the latent (kv_lora_rank) and the one rotated key
    shared by all heads (qk_rope_head_dim)."""
    return _checks.count(kv_lora_rank, "kv_lora_rank") + _checks.count(qk_rope_head_dim, "qk_rope_head_dim")


def mha_cache_numbers(n_heads: int, qk_head_dim: int, v_head_dim: int) -> int:
    """Numbers plain multi-head attention with the same heads would cache per token and layer:
    a key and a value per head."""
    return _checks.count(n_heads, "n_heads") * (_checks.count(qk_head_dim, "qk_head_dim")
                                                 + _checks.count(v_head_dim, "v_head_dim"))


# ---------------------------------------------------------------------------
# 5. Figures (figures_build turns each into docs/figures/layer_schemes.<name>.svg)
# ---------------------------------------------------------------------------

PLAN_LABELS = {"llama-4-scout": "Llama 4 Scout", "smollm3-3b": "SmolLM3-3B", "command-r7b": "Command R7B",
               "gemma-3-4b": "Gemma 3 4B", "gemma-2-9b": "Gemma 2 9B", "gpt-oss-20b": "gpt-oss-20b",
               "mistral-7b": "Mistral 7B"}
GEMMA3_LOCAL = {"d": 256, "base": 10000.0, "window": 1024, "factor": 8.0}  # gemma-3-4b-it's local layers


def _layer_map_figure(plt):
    from matplotlib.patches import Patch

    fig, ax = plt.subplots(figsize=(6.4, 3.9), layout="constrained")
    for row, slug in enumerate(PLAN_MODELS):
        for i, layer in enumerate(layer_plan(gallery_text_config(slug))):
            height = 0.8 if layer["window"] is None else 0.35  # tall: sees the whole context
            colour = SCHEME_LOOKS["rope"].colour if layer["rope"] else SCHEME_LOOKS["nope"].colour
            ax.bar(i, height, bottom=row - 0.4, width=0.8, color=colour, hatch=None if layer["rope"] else "xx",
                   edgecolor="white", linewidth=0.3)
    ax.set_yticks(range(len(PLAN_MODELS)), [PLAN_LABELS[s] for s in PLAN_MODELS])
    ax.invert_yaxis()
    ax.set(xlabel="layer", title="Which layers rotate, and how far each one sees", xlim=(-1, 48))
    handles = [Patch(color=SCHEME_LOOKS["rope"].colour, label="RoPE"),
               Patch(facecolor=SCHEME_LOOKS["nope"].colour, hatch="xx", edgecolor="white", label="NoPE"),
               Patch(color=MUTED, label="tall: whole context; short: window or chunk")]
    fig.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)
    return fig


def _temperature_figure(plt):
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    p = np.unique(np.geomspace(1, 10485760, 4000).astype(int))
    ax.plot(p, llama4_attn_temperature(p), color=SCHEME_LOOKS["nope"].colour, ls="-")
    ax.axvline(8191, color=MUTED, ls=":")
    ax.text(8191 * 1.15, 1.55, "first step:\nposition 8,191", color=MUTED)
    ax.set_xscale("log")
    ax.set(xlabel="query position p", ylabel="query multiplier",
           title="Llama 4's NoPE layers: the query grows with position")
    return fig


def _local_figure(plt):
    c = GEMMA3_LOCAL
    trained, _ = rope_inv_freq(c["d"], {"rope_theta": c["base"]})
    leaked, _ = rope_inv_freq(c["d"], {"rope_type": "linear", "factor": c["factor"], "rope_theta": c["base"]})
    distances = np.arange(0, 65)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for theta, look, label in ((trained, SCHEME_LOOKS["rope"], "as trained (base 10,000)"),
                               (leaked, METHOD_LOOKS["linear"], "linear ×8 leaked in")):
        same = np.cos(angle_table(distances, theta)).mean(axis=1)  # a key equal to the query, in every pair
        ax.plot(distances, same, **look.line(marker=None), label=label)
    ax.set(xlabel="distance from the query (tokens)", ylabel="score of an identical key\n(1 at distance 0)",
           title="A local Gemma 3 layer: what scaling does within its window")
    ax.legend(frameon=False)
    return fig


def _pairings_figure(plt):
    d, factor = 16, 0.25
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    names = {"neox": "NeoX: half-split\nin the rotary part", "glm": "GLM: interleaved\nin the rotary part",
             "proportional": "proportional:\nhalf-split, whole head"}
    for row, pairing in enumerate(PARTIAL_PAIRINGS):
        partner = partial_partner(d, factor, pairing)
        turns = partner >= 0
        ax.scatter(np.arange(d)[turns], [row] * turns.sum(), color=BLUE, marker="o", s=40, zorder=3)
        ax.scatter(np.arange(d)[~turns], [row] * (~turns).sum(), facecolor="none", edgecolor=MUTED, s=40, zorder=3)
        for a, b in ((a, b) for a, b in enumerate(partner) if b > a):
            ax.annotate("", (b, row - 0.05), (a, row - 0.05), arrowprops=dict(
                arrowstyle="-", color=ORANGE, lw=1.5, connectionstyle=f"arc3,rad={-0.5 if b - a > 1 else -1.2}"))
    ax.set_yticks(range(3), [names[p] for p in PARTIAL_PAIRINGS])
    ax.set_ylim(2.6, -0.8)
    ax.set_xticks(range(0, d, 2))
    ax.set(xlabel="dimension of a 16-wide head (filled: turns)",
           title="partial_rotary_factor 0.25: which dimensions turn together")
    return fig


def _cache_figure(plt):
    fig, ax = plt.subplots(figsize=(6.4, 2.8), layout="constrained")
    rows = (("keys and values\nof 128 heads", mha_cache_numbers(128, 192, 128), MUTED),
            ("MLA: latent", 512, GREEN), ("MLA: shared\nrotated key", 64, BLUE))
    for y, (label, value, colour) in enumerate(rows):
        ax.barh(y, value, color=colour)
        ax.text(value * 1.1, y, f"{value:,}", va="center")
    ax.set_xscale("log")
    ax.set_yticks(range(3), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.set(xlim=(10, 2e5), xlabel="numbers cached per token and layer (log scale)",
           title="DeepSeek-V3's cache: one latent and one rotated key")
    return fig


def figures() -> dict:
    """The page's figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    return {"layer_map": _layer_map_figure(plt), "temperature": _temperature_figure(plt),
            "local_window": _local_figure(plt), "pairings": _pairings_figure(plt), "mla_cache": _cache_figure(plt)}


# ---------------------------------------------------------------------------
# 6. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. Different schemes in different layers")
    rows = []
    for slug in PLAN_MODELS:
        plan = layer_plan(gallery_text_config(slug))
        nope = [i for i, layer in enumerate(plan) if not layer["rope"]]
        local = sum(layer["window"] is not None for layer in plan)
        rows.append((PLAN_LABELS[slug], len(plan), len(nope), local))
    table(["model", "layers", "NoPE layers", "windowed layers"], rows)
    say(f"With no positions, uniform attention under the causal mask gives the first token weight "
        f"{np.round(mask_position_signal(4), 3)} at positions 0..3: a NoPE layer can read where it is.")
    t = llama4_attn_temperature([8190, 8191, 100_000])
    say(f"Llama 4's NoPE-layer query multiplier at positions 8,190, 8,191 and 100,000: {np.round(t, 4)}.")

    banner("2. Local layers never see past their window")
    c = GEMMA3_LOCAL
    trained, _ = rope_inv_freq(c["d"], {"rope_theta": c["base"]})
    leaked, _ = rope_inv_freq(c["d"], {"rope_type": "linear", "factor": c["factor"], "rope_theta": c["base"]})
    say(f"Gemma 3's local layer (window {c['window']}): scores move by {local_score_change(trained, leaked, 1024):.2f} "
        f"of their largest value when linear ×8 leaks in.")

    banner("3. Partial rotary: three pairings")
    for pairing in PARTIAL_PAIRINGS:
        say(f"{pairing:>12}: partners {partial_partner(8, 0.5, pairing)}")

    banner("4. MLA: why RoPE is decoupled")
    table(["scheme", "largest error of the folded score"], [(s, f"{fold_error(s):.1e}") for s in FOLD_SCHEMES])
    takeaway(f"MLA caches {mla_cache_numbers(512, 64)} numbers per token and layer instead of "
             f"{mha_cache_numbers(128, 192, 128):,}.")


if __name__ == "__main__":
    demo()
