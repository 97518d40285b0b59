"""lessons.multimodal_rope against the engines' own code (committed vectors, no torch needed:
tests/reference/_multimodal_rope_reference.py wrote them). Each witness against its release in
RELEASES (vLLM 0.33.0's get_mrope_input_positions, float64; transformers 5.2.0's get_rope_index,
whole seconds and a clamped Qwen2-VL delta); the default numbering (text resumes at the largest
id + 1, the Qwen team's rule) against both at whole seconds; the first generated token's ids from
5.2.0's and 5.24's generate(), fresh and continuing a cache; resume="transformers_5_24" against transformers 5.24's
get_rope_index of Qwen2-VL, Qwen2.5-VL and Qwen3-VL, kept as the witness of 5.3-5.24's rule; the
cos/sin tables of the section split (Qwen2VLRotaryEmbedding) and the interleaved layout
(Qwen3VLTextRotaryEmbedding). Plus closed forms: text-only M-RoPE is plain RoPE, each layout
gives every axis its section's pair count, generated ids continue at max + 1, the video-time
schemes' id counts, packed samples restart."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lessons import multimodal_rope as mm
from lessons.rope import apply_rope_half

DATA = json.loads((Path(__file__).parent / "data" / "multimodal_rope_vectors.json").read_text(encoding="utf-8"))
RESUME = json.loads((Path(__file__).parent / "data" / "multimodal_rope_resume_vectors.json").read_text(encoding="utf-8"))


def _grids(parts, kind):
    return [g for k, g in parts if k == kind]


def _rope_index(record, **kw):
    parts = record["parts"]
    return mm.get_rope_index(mm.mm_token_types(*parts), _grids(parts, "image"), _grids(parts, "video"),
                             tokens_per_second=record.get("tokens_per_second"),
                             second_per_grid_ts=record.get("second_per_grid_ts"), **kw)


WITNESS = {"vllm": "vLLM 0.33.0", "transformers_5_2_0": "transformers 5.2.0"}  # record -> lesson's RELEASES


def _as(code, record):
    parts = record["parts"]
    return mm.rope_index_as(code, mm.mm_token_types(*parts), _grids(parts, "image"), _grids(parts, "video"),
                            tokens_per_second=record.get("tokens_per_second"),
                            second_per_grid_ts=record.get("second_per_grid_ts"))


@pytest.mark.parametrize("record", RESUME["rope_index"], ids=lambda r: f"{r['witness']}: {r['name']}")
def test_each_witness_numbers_as_its_release_does(record):
    # vLLM 0.33.0: the authors' resume rule, seconds floored in float64; 5.2.0: the same rule, seconds cut
    # to whole ones, Qwen2-VL's rope_delta clamped at 0. Integers: exact.
    ids, delta = _as(WITNESS[record["witness"]], record)
    np.testing.assert_array_equal(ids, record["position_ids"])
    assert delta == record["rope_delta"]


@pytest.mark.parametrize("record", [r for r in RESUME["rope_index"]
                                    if all(float(s).is_integer() for s in r.get("second_per_grid_ts", []))],
                         ids=lambda r: f"{r['witness']}: {r['name']}")
def test_get_rope_index_follows_the_authors_rule_as_vllm_and_transformers_5_2_number_it(record):
    ids, delta = _rope_index(record)  # the default: resume at the largest id + 1, float32
    np.testing.assert_array_equal(ids, record["position_ids"])  # at whole seconds every code agrees on the ids
    if record["witness"] == "transformers_5_2_0" and record["model"] == "qwen2_vl":
        assert record["rope_delta"] == max(delta, 0)  # 5.2.0's Qwen2-VL clamps the offset at 0
    else:
        assert delta == record["rope_delta"]


def test_vllm_floors_the_time_ids_in_float64_one_lower_at_0_7_and_1_3_seconds():
    for seconds in (0.7, 1.3):
        record = next(r for r in RESUME["rope_index"] if r["witness"] == "vllm"
                      and r.get("second_per_grid_ts") == [seconds])
        step_times = np.asarray(record["position_ids"])[0, 2:50:4]  # 12 steps of 4 tokens after 2 text tokens
        ours = _rope_index(record)[0][0, 2:50:4]  # float32, as transformers 5.18-5.24 and the Qwen team
        assert [k for k in range(12) if ours[k] != step_times[k]] == [5, 10]  # every fifth step
        assert all(ours[k] - step_times[k] == 1 for k in (5, 10))
    f32 = next(r for r in DATA["rope_index"] if r.get("second_per_grid_ts") == [0.7])  # transformers 5.24's
    ids, _ = _rope_index(f32, resume="transformers_5_24")
    np.testing.assert_array_equal(ids, f32["position_ids"])
    with pytest.raises(AssertionError):  # the float64 rule does not give 5.24's ids
        np.testing.assert_array_equal(_rope_index(f32, resume="transformers_5_24", time_float="float64")[0],
                                      f32["position_ids"])


def test_whole_seconds_reproduce_5_2_0_at_fractional_rates():
    fractional = [r for r in RESUME["rope_index"] if r["witness"] == "transformers_5_2_0"
                  and not all(float(s).is_integer() for s in r.get("second_per_grid_ts", [1]))]
    assert len(fractional) == 3
    for record in fractional:
        np.testing.assert_array_equal(_rope_index(record, whole_seconds=True)[0], record["position_ids"])
        assert not np.array_equal(_rope_index(record)[0], record["position_ids"])


GENERATED = [(who, r) for who, data in (("5.2.0", RESUME), ("5.24.0", DATA)) for r in data["generate"]]


@pytest.mark.parametrize("who, record", GENERATED, ids=lambda x: x if isinstance(x, str) else x["name"])
def test_the_first_generated_token_follows_the_prompt_in_generate_and_rope_deltas_from_a_cache(who, record):
    # transformers' generate() carries the prompt's last ids forward by one; generate() handed the prompt's
    # cache takes cache position + rope_deltas (5.2.0's clamped delta included), as vLLM always does
    assert record["transformers"] == who
    code = {"5.2.0": "transformers 5.2.0", "5.24.0": "transformers 5.18.0 to 5.24.0"}[who]
    ids, delta = _as(code, record)
    assert record["generate"] == [int(ids[0, -1]) + 1] * 3
    assert record["continue_from_cache"] == mm.decode_position_ids(delta, ids.shape[1])[:, 0].tolist()


def test_the_releases_disagree_on_the_running_example_only_through_5_2_0s_clamp():
    kinds = mm.mm_token_types(*mm.EXAMPLE_PARTS)
    firsts = {c: kinds.size + mm.rope_index_as(c, kinds, [(1, 8, 12)])[1] for c in mm.RELEASES}
    assert {c for c, first in firsts.items() if first != 13} == {"transformers 5.2.0"}
    assert firsts["transformers 5.2.0"] == kinds.size == 31  # the cache index
    assert kinds.size + mm.rope_index_as("transformers 5.2.0", kinds, [(1, 8, 12)], tokens_per_second=2)[1] == 13


def test_the_authors_rule_has_both_witnesses_on_the_videos_that_tell_the_rules_apart():
    assert RESUME["versions"]["vllm"] == "0.33.0" and RESUME["versions"]["transformers"] == "5.2.0"
    apart = {r["name"] for r in RESUME["rope_index"]
             if not np.array_equal(_rope_index(r, resume="transformers_5_24")[0], _rope_index(r)[0])}
    for name in apart:
        assert {r["witness"] for r in RESUME["rope_index"] if r["name"] == name} == {"vllm", "transformers_5_2_0"}
    assert len(apart) >= 6 and any("32-step" in name for name in apart) and any("clip" in name for name in apart)


@pytest.mark.parametrize("record", DATA["rope_index"], ids=lambda r: r["name"])
def test_the_transformers_5_24_rule_matches_transformers_5_24(record):
    ids, delta = _rope_index(record, resume="transformers_5_24")
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
    assert {r["model"] for r in DATA["rope_index"]} == {"qwen2_vl", "qwen2_5_vl", "qwen3_vl"}
    assert DATA["versions"]["transformers"] == "5.24.0"
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
    ids, delta = _rope_index(record)
    np.testing.assert_array_equal(ids, record["position_ids"])
    assert delta == record["rope_delta"]


def test_qwen3_vl_frames_resume_alike_under_both_rules_and_match_its_processor_layout():
    record = next(r for r in DATA["rope_index"] if r["model"] == "qwen3_vl")
    np.testing.assert_array_equal(_rope_index(record)[0], record["position_ids"])
    # the lesson's processor layout: vision_end + label + vision_start between frames, as the record holds
    layout = [("text", 2), ("image", (1, 6, 4)), ("text", 1), *mm.qwen3_vl_video_parts((3, 4, 6)), ("text", 2)]
    np.testing.assert_array_equal(mm.mm_token_types(*layout), mm.mm_token_types(*record["parts"]))


def test_the_5_24_rule_puts_text_on_the_time_ids_of_the_video_before_it():
    record = next(r for r in RESUME["rope_index"] if "clip" in r["name"])
    kinds = mm.mm_token_types(*record["parts"])
    video = np.flatnonzero(kinds == mm.VIDEO)
    after = np.arange(video[-1] + 1, kinds.size)
    new, _ = _rope_index(record)
    old, _ = _rope_index(record, resume="transformers_5_24")
    assert new[0, after[0]] == new[:, video].max() + 1 == 24  # past every id the clip used
    assert not set(new[0, after]) & set(new[0, video])
    assert sorted(set(old[0, after]) & set(old[0, video])) == [17, 19]  # text on two frames' time ids


def test_timestamp_labels_count_as_qwens_bpe_splits_them():
    # counted with the BPE ranks of dashscope 2.0.2's qwen.tiktoken: "<", digits, ".", " seconds", ">"
    assert [mm.qwen3_vl_timestamp_tokens(t) for t in (0.25, 9.25, 12.25, 59.25, 123.25)] == [6, 6, 7, 7, 8]


def test_video_id_budgets_follow_their_closed_forms():
    steps, side = 60, 16
    labels = sum(mm.qwen3_vl_timestamp_tokens(k + 0.25) for k in range(steps))
    # every scheme counts its markers: one <|vision_start|>/<|vision_end|> pair around the video (+ 2),
    # or a pair per frame in Qwen3-VL's and MRoPE-I's layout
    want = {"one id per token": steps * side * side + 2, "M-RoPE (Qwen2-VL)": max(steps, side) + 2,
            "absolute time (Qwen2.5-VL)": (steps - 1) * 2 + 1 + 2, "TM-RoPE (Qwen2.5-Omni)": (steps - 1) * 25 + 1 + 2,
            "timestamps in text (Qwen3-VL)": labels + steps * (side + 2), "VideoRoPE": (steps - 1) * 2 + 1 + 2,
            "MRoPE-I (spatial reset)": labels + steps * (side + 2)}
    assert {s: mm.video_id_budget(s, steps, side)[1] for s in mm.VIDEO_SCHEMES} == want
    for s in mm.VIDEO_SCHEMES:  # tokens: the video, its labels and its markers
        per_frame = s in ("timestamps in text (Qwen3-VL)", "MRoPE-I (spatial reset)")
        assert mm.video_id_budget(s, steps, side)[0] == (labels + steps * (side**2 + 2) if per_frame
                                                         else steps * side**2 + 2)
    # a short clip: M-RoPE's ids are the frame's side (+ its markers), not its steps
    assert mm.video_id_budget("M-RoPE (Qwen2-VL)", 3, side)[1] == side + 2


def test_videorope_follows_its_authors_layout():
    ids, after = mm.videorope_position_ids(5, (2, 4, 6))  # 2 steps of 2 x 3 tokens, delta 2
    t = np.repeat([5, 7], 6)
    np.testing.assert_array_equal(ids[0], t)
    np.testing.assert_array_equal(ids[1], t + np.tile(np.repeat([0, 1], 3), 2))  # r - (2 - 1) // 2
    np.testing.assert_array_equal(ids[2], t + np.tile([-1, 0, 1], 4))  # c - (3 - 1) // 2
    assert after == 8  # the last time id + 1


def test_spatial_reset_resumes_where_qwen3_vl_does():
    for h, w in ((32, 32), (8, 12), (12, 4)):
        ids, after = mm.spatial_reset_position_ids(10, (1, h, w))
        assert ids[1:, :-1].min() == 0 and set(ids[0, :-1]) == {10}  # height and width from 0, time = start
        kinds = mm.mm_token_types(("text", 10), ("video", (1, h, w)), ("text", 2))  # frame, <|vision_end|>, text
        q3, _ = mm.get_rope_index(kinds, [], [(1, h, w)])
        assert after == q3[0, -1] and ids[0, -1] == q3[0, -2]


def test_packed_samples_restart_and_keep_their_own_ids():
    from lessons.position_ids import document_ids_from_position_ids

    a = [("text", 2), ("image", (1, 4, 4)), ("text", 1)]
    b = [("image", (1, 4, 6)), ("text", 2)]
    c = [("text", 3), ("video", (3, 4, 4)), ("text", 1)]
    ids = mm.packed_mrope_position_ids([a, b, c])
    start = 0
    for parts in (a, b, c):
        alone, _ = mm.get_rope_index(mm.mm_token_types(*parts), _grids(parts, "image"), _grids(parts, "video"))
        n = alone.shape[1]
        np.testing.assert_array_equal(ids[1:, start:start + n], alone)
        np.testing.assert_array_equal(ids[0, start:start + n], np.arange(n))
        start += n
    assert start == ids.shape[1]
    assert document_ids_from_position_ids(ids[0]).max() + 1 == 3  # the text row finds the three samples
    assert document_ids_from_position_ids(ids[1]).max() + 1 > 3  # the time row does not
