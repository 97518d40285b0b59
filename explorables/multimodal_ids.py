"""Multimodal ids (lessons/multimodal_rope.py's explorable): the two layouts it offers, each with
the vision rule of the model that uses it, and `numbering`, the prompt the explorable numbers,
built from the lesson's own functions (the reference the Node and browser tests hold the
page's JavaScript to).

The prompt is the page's running example around one image or video: EXAMPLE_PARTS' text before
(3 tokens) and after (4 tokens). Positions follow the Qwen team's get_rope_index (the lesson's
default: the text resumes at the largest id + 1, as vLLM 0.33.0 numbers it).
"""

from __future__ import annotations

import inspect

from lessons.multimodal_rope import (
    EXAMPLE_PARTS, RESUME_RULES, get_rope_index, mm_token_types, qwen3_vl_video_parts,
    video_id_budget, vision_grid_thw, vision_token_count)

_GRID = inspect.signature(vision_grid_thw).parameters
_MERGE = inspect.signature(vision_token_count).parameters["spatial_merge_size"].default

# The two layouts, each with the model the lesson names for it (its Level 1 options table and
# "In the wild"): Qwen2.5-VL, sections 16/24/24, 14-pixel patches, a video's time in seconds
# (tokens_per_second 2, the lesson's Qwen2.5-VL value in video_id_budget); Qwen3-VL, interleaved
# 24/20/20, 16-pixel patches (transformers 5.24's Qwen3VLVisionConfig), a video as one-step frames
# after "<t seconds>" labels (qwen3_vl_video_parts).
MODELS = {
    "sections": {"label": "M-RoPE in sections (Qwen2.5-VL)", "mrope_section": [16, 24, 24],
                 "interleaved": False, "patch_size": _GRID["patch_size"].default,
                 "tokens_per_second": inspect.signature(video_id_budget).parameters["tokens_per_second"].default},
    "interleaved": {"label": "interleaved M-RoPE (Qwen3-VL)", "mrope_section": [24, 20, 20],
                    "interleaved": True, "patch_size": 16, "tokens_per_second": None},
}
TEMPORAL_PATCH = _GRID["temporal_patch_size"].default
TEXT_BEFORE, TEXT_AFTER = EXAMPLE_PARTS[0][1], EXAMPLE_PARTS[-1][1]


def data() -> dict:
    """What the explorable reads at mount: the layouts, the patch sizes and the text around the picture."""
    return {"models": MODELS, "temporal_patch": TEMPORAL_PATCH, "merge": _MERGE,
            "text": [TEXT_BEFORE, TEXT_AFTER]}


def numbering(layout: str, kind: str, rows: int, cols: int, frames: int = 2, seconds: float = 1.0) -> dict:
    """The prompt text, one image or video of rows × cols tokens a side, text, as `layout`'s model
    numbers it: {"grid", "ids" (3, n), "tokens" (between the two texts: the picture, and in
    Qwen3-VL a video's labels and markers), "vision" (its vision tokens), "resume" (the first id
    of the text after it), "advance" (resume − the id it starts at), "resume_5_24" (where
    transformers 5.3 to 5.24 resume: the start + max(h', w') of the last grid)}."""
    model = MODELS[layout]
    side = 2 * model["patch_size"]
    grid = vision_grid_thw(rows * side, cols * side, frames if kind == "video" else 1, model["patch_size"])
    middle, images, videos, tps, per_step = [(kind, grid)], [], [], None, None
    if kind == "image":
        images = [grid]
    elif model["interleaved"]:  # Qwen3-VL: a label and markers around each one-step frame
        middle = qwen3_vl_video_parts(grid, seconds / grid[0])
        videos = [g for k, g in middle if k == "video"]
    else:  # Qwen2.5-VL: time ids count seconds
        videos, tps, per_step = [grid], model["tokens_per_second"], [seconds / grid[0]]
    kinds = mm_token_types(("text", TEXT_BEFORE), *middle, ("text", TEXT_AFTER))
    ids, later = (get_rope_index(kinds, images, videos, _MERGE, tokens_per_second=tps, second_per_grid_ts=per_step,
                                 resume=rule)[0] for rule in RESUME_RULES)
    resume = int(ids[0, -TEXT_AFTER])
    return {"grid": list(grid), "ids": ids.tolist(), "tokens": int(kinds.size - TEXT_BEFORE - TEXT_AFTER),
            "vision": int(sum(vision_token_count(g) for g in images + videos)), "resume": resume,
            "advance": resume - TEXT_BEFORE,
            "resume_5_24": int(later[0, -TEXT_AFTER])}
