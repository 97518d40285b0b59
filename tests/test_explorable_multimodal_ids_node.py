"""The multimodal-ids explorable's port (explorables/web/multimodal_ids.js), in Node, against the lesson it
ports (lessons/multimodal_rope.py) on a seeded grid of cases: every DOM-free function the script defines,
and `numbering`, the prompt it draws, against explorables.multimodal_ids.numbering.

Exact: every result is an integer (grids, token types, ids, counts, axes). The one float step, a
Qwen2.5-VL video's time id floor(k · float32(tokens_per_second · seconds per step)), is done in float32 by
both (numpy's float32 product, Math.fround in JS), so the floors must match id for id; seconds per
step such as 0.7 and 1.3, where float32 and float64 floor apart (the lesson's example), are in the grid."""

from __future__ import annotations

import random

import numpy as np
import pytest

from explorables.multimodal_ids import MODELS, numbering
from lessons.multimodal_rope import (
    RESUME_RULES, get_rope_index, mm_token_types, mrope_axis_of_pair, qwen3_vl_timestamp_tokens,
    qwen3_vl_video_parts, vision_grid_thw, vision_id_advance, vision_position_ids, vision_token_count)
from tests.node import needs_node, run_explorable

pytestmark = needs_node
SEED = 44


def _json(x):
    """Python results as JSON gives them back (tuples and numpy arrays as lists)."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [_json(v) for v in x]
    if isinstance(x, dict):
        return {k: _json(v) for k, v in x.items()}
    return int(x) if isinstance(x, np.integer) else x


def _grid(rng: random.Random, t_max: int = 6) -> tuple[int, int, int]:
    return rng.randint(1, t_max), 2 * rng.randint(1, 9), 2 * rng.randint(1, 9)


def cases() -> list[tuple[list, object]]:
    """[call, Python result] pairs over a seeded grid."""
    rng, out = random.Random(SEED), []
    for _ in range(40):
        patch = rng.choice((14, 16))
        h, w, frames = 2 * patch * rng.randint(1, 40), 2 * patch * rng.randint(1, 40), rng.choice((1, 2 * rng.randint(1, 40)))
        out.append((["visionGridThw", h, w, frames, patch, 2], vision_grid_thw(h, w, frames, patch)))
        g = _grid(rng, 40)
        out.append((["visionTokenCount", g, 2], vision_token_count(g)))
        out.append((["visionIdAdvance", g, 2], vision_id_advance(g)))
    for interval in (1.0, 2.0, 1.4, 2.6, 0.5, 4 / 3, 0.2, 7.0, 0.7 * 4, 1.3 * 2):
        start, g = rng.randint(0, 50), _grid(rng, 12)
        out.append((["visionPositionIds", start, g, 2, float(np.float32(interval))],
                    vision_position_ids(start, g, 2, float(np.float32(interval)))))
    for _ in range(60):  # prompts of text, images and videos, Qwen2-VL or Qwen2.5-VL time
        parts = [("text", rng.randint(1, 6))]
        for _ in range(rng.randint(1, 3)):
            parts += [(rng.choice(("image", "video")), _grid(rng)), ("text", rng.randint(1, 5))]
        parts = parts[rng.randint(0, 1):]  # sometimes open with the picture
        images = [g for k, g in parts if k == "image"]
        videos = [g for k, g in parts if k == "video"]
        tps = rng.choice((None, 2, 4))
        per_step = [rng.choice((1.0, 0.5, 0.7, 1.3, 2 / 3, 2.0)) for _ in videos] if tps else None
        kinds = mm_token_types(*parts)
        out.append((["mmTokenTypes", [list(p) for p in parts]], kinds))
        for rule in RESUME_RULES:
            out.append((["getRopeIndex", kinds.tolist(), images, videos, 2, tps, per_step, rule],
                        get_rope_index(kinds, images, videos, 2, tps, per_step, resume=rule)))
    for seconds in [rng.uniform(0, 200) for _ in range(40)] + [0.25, 9.25, 9.75, 9.95, 99.95, 10.05, 0.05, 999.95]:
        out.append((["qwen3VlTimestampTokens", seconds], qwen3_vl_timestamp_tokens(seconds)))
    for _ in range(10):
        g, step = _grid(rng, 30), rng.choice((0.5, 1.0, 2 / 3, 3.7, 6.0))
        out.append((["qwen3VlVideoParts", g, step], qwen3_vl_video_parts(g, step)))
    sections = [[16, 24, 24], [24, 20, 20], [2, 1, 1], [3, 3, 3], [0, 4, 4]] + \
        [[rng.randint(0, 30) for _ in range(3)] for _ in range(20)]
    for s in sections:
        for interleaved in (False, True):
            out.append((["mropeAxisOfPair", s, interleaved], mrope_axis_of_pair(s, interleaved)))
    for _ in range(40):  # the prompt the explorable draws, as its controls can set it
        args = [rng.choice(list(MODELS)), rng.choice(("image", "video")), rng.randint(1, 32), rng.randint(1, 32),
                2 * rng.randint(1, 32), rng.randint(1, 120)]
        out.append((["numbering", *args], numbering(*args)))
    out.append((["numbering", "sections", "video", 12, 12, 20, 10], numbering("sections", "video", 12, 12, 20, 10)))
    return out


@pytest.fixture(scope="module")
def answered(tmp_path_factory):
    todo = cases()
    got = run_explorable(tmp_path_factory.mktemp("mm"), "multimodal_ids", [call for call, _ in todo])
    return [(call, _json(want), g) for (call, want), g in zip(todo, got, strict=True)]


@pytest.mark.parametrize("function", ["visionGridThw", "visionTokenCount", "visionIdAdvance", "visionPositionIds",
                                      "mmTokenTypes", "getRopeIndex", "qwen3VlTimestampTokens", "qwen3VlVideoParts",
                                      "mropeAxisOfPair", "numbering"])
def test_the_port_gives_the_lessons_integers(answered, function):
    mine = [(call, want, got) for call, want, got in answered if call[0] == function]
    assert mine, f"no case calls {function}"
    wrong = [(call[1:], want, got) for call, want, got in mine if want != got]
    assert not wrong, f"{function}: {len(wrong)} of {len(mine)} differ, first {str(wrong[0])[:600]}"


def test_the_grid_reaches_the_cases_that_part_the_rules(answered):
    """The seeded grid holds a sections video whose text the two resume rules place apart (the
    explorable's 'transformers 5.3 to 5.24 resume at' line) and videos at float32-sensitive steps."""
    split = [w for call, w, _ in answered if call[0] == "numbering" and w["resume"] != w["resume_5_24"]]
    assert split and all(w["resume_5_24"] < w["resume"] for w in split)
