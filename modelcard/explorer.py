"""The explorer under the decoder's report (lessons/model_card/): where it starts from a config, and
what it reports for each way to stretch one RoPE head.

It starts at the report's own numbers: the config's base and rotary width, its trained length (the
config limit when none is stated), and the stretch the report serves, served ÷ trained (Llama 3.1
8B: 131,072 / 8,192 = 16×, not its block's factor 8). Each method is one of
`lessons.model_card.compare_methods` at that stretch; what tells them apart is measured with
`lessons.context_extension.trained_angle_ratio` (the largest angle a pair reaches at the served
length over the largest it saw in training) and the scale of each pair. modelcard/web/model_card.js
computes the same (`explorerStart`, `methodMeasures`); tests/test_model_card_node.py holds the two
together.
"""

from __future__ import annotations

import numpy as np

from lessons.context_extension import rope_inv_freq, trained_angle_ratio
from lessons.model_card import ModelCard, RopeGroup, compare_methods
from modelcard.engines import vllm_max_model_len

FALLBACK = {"base": 10000.0, "width": 128, "trained": 4096}  # no RoPE group to start from (Llama 2's numbers)
WIDTHS = (32, 256)  # the width slider's range, in dimensions (even)
NO_SCALING = "no scaling"


def explorer_start(card: ModelCard | None, served: int | None = None) -> dict:
    """Where the explorer starts for `card` (None: no config yet) served at `served` (default: vLLM's).

    Returns:
        {"base", "width", "trained", "stated", "stretch"}: the first RoPE group's base and rotary width
        (kept within `WIDTHS`, even), the trained length (else the config limit; "stated" says which),
        and served ÷ trained, at least 1 (the explorer only stretches).
    """
    group = card.rope[0] if card is not None and card.rope else None
    if group is None:
        return {**FALLBACK, "stated": True, "stretch": 1.0}
    trained = card.trained_length or card.max_length or FALLBACK["trained"]
    served = served or vllm_max_model_len(card)
    width = min(WIDTHS[1], max(WIDTHS[0], 2 * round(group.rotary_dim / 2)))
    return {"base": group.base, "width": width, "trained": trained, "stated": bool(card.trained_length),
            "stretch": max(1.0, served / trained)}


def past_trained(ratio: np.ndarray, trained: int) -> np.ndarray:
    """Which pairs read angles past those training showed: an angle ratio (`trained_angle_ratio`)
    above L / (L − 1), i.e. a largest angle beyond the one position L would have had. Position
    interpolation's last position, (sL − 1) / s = L − 1/s, lands between two trained positions
    (ratio 1.0001 at L = 8,192): not past."""
    return np.asarray(ratio) > trained / (trained - 1)


def method_measures(base: float, width: int, trained: int, stretch: float) -> dict[str, dict]:
    """What the explorer reports for a head of `width` dimensions, RoPE base `base`, trained at
    `trained` positions and read at round(trained × stretch), under no scaling and each method of
    `compare_methods`.

    Returns:
        {method: {"past": pairs past the trained angles (`past_trained`), "largest": the largest
        angle ratio over the pairs, "untouched": pairs left at their trained speed (scale 1 within
        1e-9), "slowest": the largest slow-down of a pair (1 / its smallest scale)}}.
    """
    theta, _ = rope_inv_freq(width, {"rope_theta": base})
    group = RopeGroup("all", (), "default", width, width, base, theta, theta, 1.0, {})
    served = round(trained * stretch)
    scales = {NO_SCALING: np.ones_like(theta), **compare_methods(group, trained, stretch)}
    out = {}
    for name, scale in scales.items():
        ratio = trained_angle_ratio(theta * scale, theta, trained, served)
        out[name] = {"past": int(past_trained(ratio, trained).sum()), "largest": float(ratio.max()),
                     "untouched": int((np.abs(scale - 1) <= 1e-9).sum()), "slowest": float(1 / scale.min())}
    return out

