"""lessons.multimodal_rope against transformers 5.24's own code (committed vectors, no torch
needed: tests/reference/_multimodal_rope_reference.py wrote them): get_rope_index of Qwen2-VL
and Qwen2.5-VL, and the cos/sin tables of the section split (Qwen2VLRotaryEmbedding) and the
interleaved layout (Qwen3VLTextRotaryEmbedding). Plus closed forms: text-only M-RoPE is plain
RoPE, each layout gives every axis its section's pair count, generated ids continue at max + 1."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lessons import multimodal_rope as mm
from lessons.rope import apply_rope_half

DATA = json.loads((Path(__file__).parent / "data" / "multimodal_rope_vectors.json").read_text(encoding="utf-8"))


def _grids(parts, kind):
    return [g for k, g in parts if k == kind]


@pytest.mark.parametrize("record", DATA["rope_index"], ids=lambda r: r["name"])
def test_get_rope_index_matches_transformers(record):
    parts = record["parts"]
    ids, delta = mm.get_rope_index(mm.mm_token_types(*parts), _grids(parts, "image"), _grids(parts, "video"),
                                   tokens_per_second=record.get("tokens_per_second"),
                                   second_per_grid_ts=record.get("second_per_grid_ts"))
    np.testing.assert_array_equal(ids, record["position_ids"])  # integers: exact
    assert delta == record["rope_delta"]


@pytest.mark.parametrize("record", DATA["cos_sin"], ids=lambda r: r["name"])
def test_cos_sin_match_the_rotary_classes(record):
    ids = np.asarray(record["position_ids"])
    inv_freq = np.asarray(record["inv_freq"])
    cos, sin = mm.mrope_cos_sin(ids, inv_freq, record["mrope_section"], record["interleaved"])
    # transformers forms each angle id · θ in float32: off by up to half an ulp of the angle
    # (2^-24 relative), then cos/sin in float32 (≈6e-8); twice that bound, plus 1e-7.
    tol = 2 * float(ids.max() * inv_freq.max()) * 2.0**-24 + 1e-7
    np.testing.assert_allclose(cos, record["cos"], rtol=0, atol=tol)
    np.testing.assert_allclose(sin, record["sin"], rtol=0, atol=tol)


def test_the_records_exercise_both_layouts_and_both_models():
    assert {r["model"] for r in DATA["rope_index"]} == {"qwen2_vl", "qwen2_5_vl"}
    assert {r["interleaved"] for r in DATA["cos_sin"]} == {True, False}
    # at least one case where the layouts would disagree: ids differ across the three rows
    for r in DATA["cos_sin"]:
        ids = np.asarray(r["position_ids"])
        assert np.any(ids[0] != ids[1]) and np.any(ids[1] != ids[2])


@pytest.mark.parametrize("interleaved", [False, True])
def test_text_only_mrope_is_plain_rope(interleaved):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((7, 32))
    positions = np.arange(5, 12)
    ids = np.broadcast_to(positions, (3, 7))
    inv_freq = 10000.0 ** (-np.arange(0, 32, 2) / 32)
    got = mm.apply_mrope(x, ids, inv_freq, [6, 5, 5], interleaved)
    np.testing.assert_allclose(got, apply_rope_half(x, positions), atol=1e-12)


@pytest.mark.parametrize("section", [[16, 24, 24], [24, 20, 20], [6, 5, 5], [2, 3, 3]])
def test_each_axis_gets_its_section_of_pairs(section):
    axis = mm.mrope_axis_of_pair(section)
    assert [int(np.sum(axis == a)) for a in range(3)] == section


@pytest.mark.parametrize("section", [[24, 20, 20], [6, 5, 5], [4, 3, 3]])
def test_interleaving_keeps_the_counts_when_time_has_the_largest_section(section):
    axis = mm.mrope_axis_of_pair(section, interleaved=True)
    assert [int(np.sum(axis == a)) for a in range(3)] == section
    assert axis[:6].tolist() == [0, 1, 2, 0, 1, 2]


def test_interleaving_qwen2_sections_changes_the_counts():
    # transformers' stride-3 slices run past the 64 pairs: 16/24/24 becomes 22/21/21
    axis = mm.mrope_axis_of_pair([16, 24, 24], interleaved=True)
    assert [int(np.sum(axis == a)) for a in range(3)] == [22, 21, 21]


def test_interleaving_spreads_every_axis_over_the_frequencies():
    inv_freq = 5000000.0 ** (-np.arange(0, 128, 2) / 128)
    sections = mm.axis_wavelength_range(inv_freq, [24, 20, 20])
    inter = mm.axis_wavelength_range(inv_freq, [24, 20, 20], interleaved=True)
    assert sections["time"][1] < sections["height"][0] < sections["width"][0]  # disjoint bands
    for name in mm.AXES:  # interleaved: every axis starts within three pairs of the fastest
        assert inter[name][0] <= rope_wave(inv_freq, 2)
        assert inter[name][1] >= rope_wave(inv_freq, 57)


def rope_wave(inv_freq, i):
    return 2 * np.pi / inv_freq[i]


def test_generated_tokens_continue_after_the_largest_id():
    kinds = mm.mm_token_types(("text", 3), ("image", (1, 8, 12)), ("text", 4))
    ids, delta = mm.get_rope_index(kinds, [(1, 8, 12)])
    nxt = mm.decode_position_ids(delta, ids.shape[1], 2)
    assert nxt[:, 0].tolist() == [ids.max() + 1] * 3 and nxt[0, 1] == ids.max() + 2


def test_a_run_that_does_not_fit_its_grid_is_refused():
    with pytest.raises(ValueError, match="does not match grid"):
        mm.get_rope_index([0, 1, 1, 1, 0], [(1, 4, 4)])


def test_costs():
    g = mm.vision_grid_thw(448, 448)
    assert g == (1, 32, 32) and mm.vision_token_count(g) == 256 and mm.vision_id_advance(g) == 16
    assert mm.vision_grid_thw(336, 336, frames=20) == (10, 24, 24)
    with pytest.raises(ValueError):
        mm.vision_grid_thw(450, 448)


@pytest.mark.parametrize("record", [r for r in DATA["rope_index"] if all(k != "video" for k, _ in r["parts"])],
                         ids=lambda r: r["name"])
def test_both_resume_rules_agree_without_video(record):
    parts = record["parts"]
    ids, delta = mm.get_rope_index(mm.mm_token_types(*parts), _grids(parts, "image"), resume="max_id")
    np.testing.assert_array_equal(ids, record["position_ids"])
    assert delta == record["rope_delta"]


def test_the_resume_rules_differ_after_a_video_whose_time_outruns_its_side():
    record = next(r for r in DATA["rope_index"] if "long video" in r["name"])
    parts = record["parts"]
    kw = dict(tokens_per_second=record["tokens_per_second"], second_per_grid_ts=record["second_per_grid_ts"])
    side, _ = mm.get_rope_index(mm.mm_token_types(*parts), [], _grids(parts, "video"), **kw)
    most, _ = mm.get_rope_index(mm.mm_token_types(*parts), [], _grids(parts, "video"), resume="max_id", **kw)
    video = np.flatnonzero(mm.mm_token_types(*parts) == mm.VIDEO)
    after = video[-1] + 1
    assert most[0, after] == most[:, video].max() + 1  # vLLM's rule: past every id used
    assert side[0, after] < side[:, video].max()  # transformers 5.24: below the video's last time id
