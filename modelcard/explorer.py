"""The explorer under the decoder's report (lessons/model_card/): where it starts from a config, and
what it reports for the config's own RoPE block and for each way to stretch one RoPE head.

It starts at the report's own numbers: the config's base and rotary width, its trained length (the
config limit when none is stated), and the larger of the stretch the report serves (served ÷ trained)
and the stretch the config's block is made for (`modelcard.engines.scaled_reach` ÷ trained): Llama 3.1
8B at 131,072 / 8,192 = 16×, Qwen2.5-7B with its YaRN block at 4× (it serves 32,768, its trained
length). The first row is the config's own block (`block_measures`: its speeds as the report computes
them, at the served length); the others are what-ifs, each method of
`lessons.model_card.compare_methods` set for that stretch (`method_measures`). What tells them apart is
measured with `lessons.context_extension.trained_angle_ratio` (the largest angle a pair reaches at the
served length over the largest it saw in training) and the scale of each pair. A group whose layers
attend within a window or a chunk (Llama 4 Scout's chunks of 8,192, Gemma 3's sliding local layers)
never meets a longer distance, so its distances are capped there (`group_window`). A config of several
RoPE groups starts at the one asked for (`group`, the page's "Layer group" menu; the first by default).
In the browser, modelcard/web/model_card.js does the same (`explorerStart`, `blockMeasures`), its
measures taken from the explorables' numeric core (explorables/web/core.js: `compareMethods`,
`measures`, `methodMeasures`); tests/test_model_card_node.py and tests/test_explorables_core_node.py
hold them to this module.
"""

from __future__ import annotations

import numpy as np

from lessons.context_extension import rope_inv_freq, trained_angle_ratio
from lessons.model_card import ModelCard, RopeGroup, compare_methods
from modelcard.engines import scaled_reach, vllm_max_model_len

FALLBACK = {"base": 10000.0, "width": 128, "trained": 4096}  # no RoPE group to start from (Llama 2's numbers)
WIDTHS = (32, 256)  # the width slider's range, in dimensions (even)
NO_SCALING = "no scaling"
LENGTH_DEPENDENT = ("dynamic", "longrope")  # rope types whose speeds follow the length read


def group_label(group: RopeGroup) -> str:
    """A RoPE group as the report's rows name it: "every RoPE layer" or "sliding_attention (29 layers)"."""
    return "every RoPE layer" if group.layer_type == "all" else f"{group.layer_type} ({len(group.layers)} layers)"


def group_window(card: ModelCard, group: RopeGroup) -> tuple[int | None, str | None]:
    """The farthest a group's layers look back, when all of them attend within a span: (the card's
    `chunk`, "chunk") for Llama 4's chunked_attention layers, (its `sliding_window`, "sliding window")
    for sliding_attention layers; else (None, None), every earlier token in reach."""
    kinds = {card.layer_types[i] for i in group.layers} if card.layer_types and group.layers else set()
    if kinds == {"chunked_attention"} and card.chunk:
        return card.chunk, "chunk"
    if kinds == {"sliding_attention"} and card.sliding_window:
        return card.sliding_window, "sliding window"
    return None, None


def explorer_start(card: ModelCard | None, served: int | None = None, group: int = 0) -> dict:
    """Where the explorer starts for `card` (None: no config yet) served at `served` (default: vLLM's),
    at its RoPE group number `group` (the page's "Layer group" menu; default the first).

    Returns:
        {"base", "width", "trained", "stated", "stretch", "window", "kind", "group", "others"}: that
        RoPE group's base and rotary width (kept within `WIDTHS`, even), the trained length (else
        the config limit; "stated" is the card's `trained_stated`), the stretch, at least 1: served ÷
        trained or the stretch the block is made for, whichever is larger; the group's
        `group_window` and `group_label`; and {"group", "rope_type", "window", "kind"} per other group.
    """
    chosen = group
    group = card.rope[chosen] if card is not None and card.rope else None
    if group is None:
        return {**FALLBACK, "stated": True, "stretch": 1.0, "window": None, "kind": None, "group": None, "others": []}
    trained = card.trained_length or card.max_length or FALLBACK["trained"]
    served = served or vllm_max_model_len(card)
    reach = scaled_reach(card)
    width = min(WIDTHS[1], max(WIDTHS[0], 2 * round(group.rotary_dim / 2)))
    window, kind = group_window(card, group)
    others = [{"group": group_label(g), "rope_type": g.rope_type, "window": w, "kind": k}
              for i, g in enumerate(card.rope) if i != chosen for w, k in [group_window(card, g)]]
    return {"base": group.base, "width": width, "trained": trained, "stated": card.trained_stated,
            "stretch": max(1.0, served / trained, reach[0] / trained if reach else 1.0), "window": window,
            "kind": kind, "group": group_label(group), "others": others}


def past_trained(ratio: np.ndarray, trained: int) -> np.ndarray:
    """Which pairs read angles past those training showed: an angle ratio (`trained_angle_ratio`)
    above L / (L − 1), i.e. a largest angle beyond the one position L would have had. Position
    interpolation's last position, (sL − 1) / s = L − 1/s, lands between two trained positions
    (ratio 1.0001 at L = 8,192): not past."""
    return np.asarray(ratio) > trained / (trained - 1)


def measures(speeds: np.ndarray, theta: np.ndarray, trained: int, reach: int) -> dict:
    """One row of the explorer's table: pairs of trained speeds `theta` turned at `speeds`, trained at
    `trained` positions and read at distances up to `reach` − 1 (pairs that never turn left out).

    Returns:
        {"past": pairs past the trained angles (`past_trained`), "largest": the largest angle ratio
        over the pairs, "untouched": pairs left at their trained speed (scale 1 within 1e-9),
        "slowest": the largest slow-down of a pair (1 / its smallest scale)}.
    """
    turning = np.asarray(theta) > 0
    speeds, theta = np.asarray(speeds, dtype=float)[turning], np.asarray(theta, dtype=float)[turning]
    ratio, scale = trained_angle_ratio(speeds, theta, trained, reach), speeds / theta
    return {"past": int(past_trained(ratio, trained).sum()), "largest": float(ratio.max()),
            "untouched": int((np.abs(scale - 1) <= 1e-9).sum()), "slowest": float(1 / scale.min())}


def method_measures(base: float, width: int, trained: int, stretch: float, window: int | None = None) -> dict[str, dict]:
    """What the explorer reports for a head of `width` dimensions, RoPE base `base`, trained at
    `trained` positions and read at round(trained × stretch) (at most `window`, the span its layers
    attend within), under no scaling and each method of `compare_methods` set for that stretch.

    Returns:
        {method: `measures`}.
    """
    theta, _ = rope_inv_freq(width, {"rope_theta": base})
    group = RopeGroup("all", (), "default", width, width, base, theta, theta, 1.0, {})
    served = round(trained * stretch)
    scales = {NO_SCALING: np.ones_like(theta), **compare_methods(group, trained, stretch)}
    return {name: measures(theta * scale, theta, trained, min(served, window or served)) for name, scale in scales.items()}


def block_measures(card: ModelCard, trained: int, served: int, window: int | None = None, group: int = 0) -> dict:
    """The explorer's first row: the `measures` of the card's RoPE group number `group` (default the
    first) as it ships, its speeds as the report computes them (a dynamic or LongRoPE block's at the
    `served` length, as transformers picks them for a prompt that long), read at `served` positions
    (at most `window`) against the trained length `trained`."""
    group = card.rope[group]
    speeds = group.inv_freq
    if group.rope_type in LENGTH_DEPENDENT:
        speeds, _ = rope_inv_freq(group.head_dim, group.parameters, max_position_embeddings=card.max_length,
                                  seq_len=served)
    return measures(speeds, group.default_inv_freq, trained, min(served, window or served))
