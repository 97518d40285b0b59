r"""
# Positions for images and video: multimodal RoPE

stub
"""
from __future__ import annotations

import itertools

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, MUTED, RED
from lessons._show import banner, say, table, takeaway
from lessons.context_extension import rope_inv_freq, rope_wavelengths
from lessons.positional import angle_table
from lessons.rope import half_split_table, rotate_with_table

# ---------------------------------------------------------------------------
# 1. What an image or a video costs: tokens, and position ids
# ---------------------------------------------------------------------------

AXES = ("time", "height", "width")
TEXT, IMAGE, VIDEO = 0, 1, 2  # the values of transformers' mm_token_type_ids


def vision_grid_thw(height: int, width: int, frames: int = 1, patch_size: int = 14,
                    temporal_patch_size: int = 2) -> tuple[int, int, int]:
    """(t, h, w): the patch grid the vision encoder cuts a resized picture into.

    height and width in pixels must already be multiples of patch_size · 2 (Qwen's
    processor resizes to that); a still image counts as one temporal patch, a video of
    `frames` frames as frames / temporal_patch_size of them (frames even).
    """
    _checks.counts(height=height, width=width, frames=frames, patch_size=patch_size)
    for name, side in (("height", height), ("width", width)):
        if side % (2 * patch_size):
            raise ValueError(f"{name} must be a multiple of {2 * patch_size} pixels, got {side}")
    if frames > 1 and frames % temporal_patch_size:
        raise ValueError(f"frames must be a multiple of temporal_patch_size {temporal_patch_size}, got {frames}")
    t = 1 if frames == 1 else frames // temporal_patch_size
    return t, height // patch_size, width // patch_size


def vision_token_count(grid_thw, spatial_merge_size: int = 2) -> int:
    """How many tokens the language model reads for one grid: t · h · w / merge² (merge × merge patches -> 1 token)."""
    t, h, w = (int(v) for v in grid_thw)
    return t * h * w // spatial_merge_size**2


def vision_id_advance(grid_thw, spatial_merge_size: int = 2) -> int:
    """How far the running position moves past one image or video in transformers 5.24's
    get_rope_index: the larger merged side, max(h, w) / merge, whatever the token count."""
    _, h, w = (int(v) for v in grid_thw)
    return max(h, w) // spatial_merge_size


# ---------------------------------------------------------------------------
# 2. M-RoPE position ids: get_rope_index
# ---------------------------------------------------------------------------

def vision_position_ids(start: int, grid_thw, spatial_merge_size: int = 2,
                        time_interval: float = 1.0) -> np.ndarray:
    """(3, t·h'·w') int ids (time, height, width) of one image or video's tokens, row-major
    over (t, h', w') with h' = h / merge, w' = w / merge, all offset by start.

    Time ids are floor(k · time_interval) for temporal patch k, computed in float32 as
    transformers 5.24 does (get_vision_position_ids); 1 for Qwen2-VL, tokens_per_second ·
    seconds per temporal patch for a Qwen2.5-VL video.
    """
    t, h, w = int(grid_thw[0]), int(grid_thw[1]) // spatial_merge_size, int(grid_thw[2]) // spatial_merge_size
    # floor(k · interval), float32 like torch's arange(t) * time_interval, then .long()
    time = (np.arange(t, dtype=np.float32) * np.float32(time_interval)).astype(np.int64)
    T, H, W = np.meshgrid(time, np.arange(h), np.arange(w), indexing="ij")  # each (t, h', w')
    return np.stack([T, H, W]).reshape(3, -1) + start  # (3, t·h'·w')


def get_rope_index(token_types, image_grid_thw=(), video_grid_thw=(), spatial_merge_size: int = 2,
                   tokens_per_second: float | None = None, second_per_grid_ts=None) -> tuple[np.ndarray, int]:
    """M-RoPE position ids for one sequence, as transformers 5.24's get_rope_index of
    Qwen2-VL (tokens_per_second None) and Qwen2.5-VL (tokens_per_second set).

    Args:
        token_types: (n,) 0 text, 1 image, 2 video per token (transformers' mm_token_type_ids).
        image_grid_thw, video_grid_thw: one (t, h, w) patch grid per image / video run, in order.
        spatial_merge_size: patches merged per side into one token (2 in every Qwen VL config).
        tokens_per_second: Qwen2.5-VL's vision_config key; None means Qwen2-VL (time step 1).
        second_per_grid_ts: seconds per temporal patch, one per video (Qwen2.5-VL; default 1).

    Returns:
        (position_ids, rope_delta): (3, n) int ids (time, height, width) and
        max id + 1 − n, the shift every generated token's position gets.
    """
    token_types = np.asarray(token_types)
    grids = {IMAGE: iter(image_grid_thw), VIDEO: iter(video_grid_thw)}
    seconds = iter(second_per_grid_ts if second_per_grid_ts is not None else itertools.repeat(1.0))
    pieces, current = [], 0
    for kind, run in itertools.groupby(token_types.tolist()):
        length = len(list(run))
        if kind == TEXT:  # text: one id per token, the same on all three rows
            pieces.append(np.broadcast_to(np.arange(current, current + length), (3, length)))
            current += length
            continue
        grid = next(grids[kind])
        interval = 1.0
        if kind == VIDEO and tokens_per_second is not None:
            interval = np.float32(tokens_per_second) * np.float32(next(seconds))  # absolute time (Qwen2.5-VL)
        ids = vision_position_ids(current, grid, spatial_merge_size, interval)
        if ids.shape[1] != length:
            raise ValueError(f"a run of {length} vision tokens does not match grid {tuple(grid)} "
                             f"({ids.shape[1]} tokens at merge {spatial_merge_size})")
        pieces.append(ids)
        current += vision_id_advance(grid, spatial_merge_size)  # transformers 5.24: the larger merged side
    position_ids = np.concatenate(pieces, axis=1)  # (3, n)
    return position_ids, int(position_ids.max()) + 1 - token_types.size


def decode_position_ids(rope_delta: int, cache_length: int, n_new: int = 1) -> np.ndarray:
    """(3, n_new) ids of tokens generated after a prompt: cache position + rope_delta on all three rows."""
    return np.broadcast_to(np.arange(cache_length, cache_length + n_new) + rope_delta, (3, n_new))


def mm_token_types(*parts) -> np.ndarray:
    """A (n,) token-type row from ("text", n), ("image", grid) and ("video", grid) parts (merge 2)."""
    out = []
    for kind, what in parts:
        _checks.one_of(kind, "kind", ("text", "image", "video"))
        n = what if kind == "text" else vision_token_count(what)
        out += [{"text": TEXT, "image": IMAGE, "video": VIDEO}[kind]] * n
    return np.asarray(out)


# ---------------------------------------------------------------------------
# 3. Which pair turns with which id: sections and interleaving
# ---------------------------------------------------------------------------

def mrope_axis_of_pair(mrope_section, interleaved: bool = False) -> np.ndarray:
    """(sum(mrope_section),) axis per rotary pair: 0 time, 1 height, 2 width.

    Sections (Qwen2-VL, Qwen2.5-VL): the first mrope_section[0] pairs follow time, the next
    mrope_section[1] height, the rest width. Interleaved (Qwen3-VL, transformers 5.24's
    Qwen3VLTextRotaryEmbedding.recomposition_frequencies): pair i follows height when
    i % 3 == 1 and i < 3·mrope_section[1], width when i % 3 == 2 and i < 3·mrope_section[2],
    time otherwise.
    """
    section = [int(s) for s in mrope_section]
    if len(section) != 3 or min(section) < 0:
        raise ValueError(f"mrope_section must be three pair counts (time, height, width), got {mrope_section}")
    if not interleaved:
        return np.repeat([0, 1, 2], section)
    axis = np.zeros(sum(section), dtype=int)
    for a in (1, 2):
        axis[a: 3 * section[a]: 3] = a  # every third pair from offset a
    return axis


def mrope_angles(position_ids: np.ndarray, inv_freq: np.ndarray, mrope_section, interleaved: bool = False) -> np.ndarray:
    """(n, d/2) angles: pair i turns by position_ids[axis(i)] · θ_i, for (3, n) ids and (d/2,) speeds."""
    position_ids = np.asarray(position_ids)
    axis = mrope_axis_of_pair(mrope_section, interleaved)
    if axis.size != len(inv_freq):
        raise ValueError(f"mrope_section sums to {axis.size} pairs but inv_freq has {len(inv_freq)}")
    per_axis = np.stack([angle_table(position_ids[a], inv_freq) for a in range(3)])  # (3, n, d/2)
    return per_axis[axis, :, np.arange(axis.size)].T  # pick axis(i) for pair i -> (n, d/2)


def mrope_cos_sin(position_ids: np.ndarray, inv_freq: np.ndarray, mrope_section, interleaved: bool = False,
                  attention_factor: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(cos, sin), each (n, d), in the half-split layout transformers' Qwen VL rotary classes return."""
    cos, sin = half_split_table(mrope_angles(position_ids, inv_freq, mrope_section, interleaved))
    return cos * attention_factor, sin * attention_factor


def apply_mrope(x: np.ndarray, position_ids: np.ndarray, inv_freq: np.ndarray, mrope_section,
                interleaved: bool = False) -> np.ndarray:
    """Rotate (n, d) vectors by M-RoPE (half-split layout): x cos + rotate_half(x) sin."""
    return rotate_with_table(x, *mrope_cos_sin(position_ids, inv_freq, mrope_section, interleaved))


def axis_wavelength_range(inv_freq: np.ndarray, mrope_section, interleaved: bool = False) -> dict[str, tuple]:
    """{axis: (shortest, longest wavelength in positions)} over the pairs each axis drives."""
    axis = mrope_axis_of_pair(mrope_section, interleaved)
    waves = rope_wavelengths(np.asarray(inv_freq))
    return {name: (float(waves[axis == a].min()), float(waves[axis == a].max()))
            for a, name in enumerate(AXES) if np.any(axis == a)}


def ids_per_token(parts) -> float:
    """How many position ids a prompt advances per token it holds: the last text id + 1 over
    the token count, for ("text", n) / ("image", grid) parts ending in text."""
    ids, _ = get_rope_index(mm_token_types(*parts), [g for k, g in parts if k == "image"])
    return float((ids.max() + 1) / ids.shape[1])


# ---------------------------------------------------------------------------
# 4. Figures (figures_build turns each into docs/figures/multimodal_rope.<name>.svg)
# ---------------------------------------------------------------------------

# The page's running example: 3 text tokens, a 112 x 168-pixel image (patch grid 1 x 8 x 12), 4 text tokens
EXAMPLE_PARTS = (("text", 3), ("image", (1, 8, 12)), ("text", 4))
LOOKS = {"time": (BLUE, "o", "-"), "height": (RED, "s", "--"), "width": (GREEN, "^", ":")}


def figures() -> dict:
    """The page's three figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}
    kinds = mm_token_types(*EXAMPLE_PARTS)
    ids, delta = get_rope_index(kinds, [EXAMPLE_PARTS[1][1]])
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    first, last = np.flatnonzero(kinds == IMAGE)[[0, -1]]
    ax.axvspan(first - 0.5, last + 0.5, color=MUTED, alpha=0.25, lw=0)
    ax.text((first + last) / 2, ids.max() + 0.6, "24 image tokens", ha="center", va="bottom")
    for a, name in enumerate(AXES):
        color, marker, dash = LOOKS[name]
        ax.plot(np.arange(ids.shape[1]), ids[a] + (a - 1) * 0.12, marker=marker, ls=dash, color=color, ms=4,
                label=f"{name} id")
    n = ids.shape[1]
    gen = decode_position_ids(delta, n, 3)[0]
    ax.plot(np.arange(n, n + 3), gen, marker="D", ls="none", color=GRID, ms=5, label="generated (cache + delta)")
    ax.set(xlabel="token index in the sequence", ylabel="position id", ylim=(-0.5, ids.max() + 3),
           title="One image in M-RoPE: 24 tokens, 6 ids forward")
    ax.legend(frameon=False, loc="upper left", fontsize=9)
    figs["position_ids"] = fig

    inv_freq, _ = rope_inv_freq(128, {"rope_theta": 5000000.0})
    fig, axes = plt.subplots(2, 1, figsize=(6.4, 4.6), layout="constrained", sharex=True, sharey=True)
    for ax, interleaved, title in ((axes[0], False, "sections 24/20/20 (Qwen2-VL's layout)"),
                                   (axes[1], True, "interleaved 24/20/20 (Qwen3-VL)")):
        axis = mrope_axis_of_pair([24, 20, 20], interleaved)
        for a, name in enumerate(AXES):
            color, marker, _ = LOOKS[name]
            pairs = np.flatnonzero(axis == a)
            ax.semilogy(pairs, rope_wavelengths(inv_freq[pairs]), marker, color=color, ms=4, label=name)
        ax.set(title=title, ylabel="wavelength (ids)")
    axes[1].set_xlabel("rotary pair i (head_dim 128, base 5,000,000)")
    axes[0].legend(frameon=False, ncol=3, loc="upper left", fontsize=9)
    figs["pair_axes"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    sides = np.arange(224, 2017, 112)
    grids = [vision_grid_thw(s, s) for s in sides]
    ax.loglog(sides, [vision_token_count(g) for g in grids], "o-", color=BLUE, ms=4, label="tokens in the context")
    ax.loglog(sides, [vision_id_advance(g) for g in grids], "s--", color=RED, ms=4, label="position ids advanced")
    ax.set(xlabel="square image side (pixels)", ylabel="count", title="Tokens grow with area, ids with the side")
    ax.legend(frameon=False)
    figs["image_cost"] = fig
    return figs


# ---------------------------------------------------------------------------
# 5. Demo
# ---------------------------------------------------------------------------

def demo() -> None:
    banner("1. What an image costs (patch 14, merge 2)")
    rows = []
    for h, w in ((448, 448), (1344, 896)):
        g = vision_grid_thw(h, w)
        rows.append((f"{h} x {w}", g, vision_token_count(g), vision_id_advance(g)))
    table(["pixels", "grid (t, h, w)", "tokens", "ids advanced"], rows)
    banner("2. get_rope_index: text, a 1 x 8 x 12 image, text")
    ids, delta = get_rope_index(mm_token_types(*EXAMPLE_PARTS), [EXAMPLE_PARTS[1][1]])
    for a, name in enumerate(AXES):
        say(f"{name:>6}: {ids[a].tolist()}")
    say(f"rope_delta {delta}: the next generated token (cache position {ids.shape[1]}) gets id "
        f"{decode_position_ids(delta, ids.shape[1])[0, 0]}")
    banner("3. Which pairs follow which id (24/20/20)")
    for interleaved in (False, True):
        axis = mrope_axis_of_pair([24, 20, 20], interleaved)
        say(("interleaved: " if interleaved else "sections:    ") + "".join("THW"[a] for a in axis))
    takeaway("Text tokens carry three equal ids, so M-RoPE turns them exactly like plain RoPE; "
             "images move the count by their side, not their token count.")


if __name__ == "__main__":
    demo()
