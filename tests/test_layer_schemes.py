"""lessons.layer_schemes against transformers 5.24's own code (committed vectors, no torch):
tests/data/layer_schemes_vectors.json (Llama 4's query temperature, DeepSeek-V3's rotary slice,
partial rotary in three pairings, each family's own pairing, Mistral's llama_4_scaling_beta, whether
Llama4TextConfig takes Scout's published switch, each local/global config class's bases and where its
scaling goes, and Llama 4's temperature gate and constants read out of vLLM 0.33.0's and llama.cpp's
released source; tests/reference/_layer_schemes_reference.py writes it),
tests/data/gallery_vectors.json (which layers rotate, and their layer types) and
tests/data/reference_vectors.json (Gemma 3's two bases, Gemma 4's proportional speeds: already
there, so this file reads them rather than adding copies). Closed forms for the rest."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from lessons import layer_schemes as ls
from lessons.context_extension import rope_inv_freq
from lessons.rope import apply_rope_interleaved

DATA_DIR = Path(__file__).parent / "data"
VECTORS = json.loads((DATA_DIR / "layer_schemes_vectors.json").read_text(encoding="utf-8"))
GALLERY = {r["slug"]: r for r in json.loads((DATA_DIR / "gallery_vectors.json").read_text(encoding="utf-8"))["gallery"]}
BY_LAYER_TYPE = json.loads((DATA_DIR / "reference_vectors.json").read_text(encoding="utf-8"))["rope_by_layer_type"]
# transformers computes in float32 and the lesson in float64: relative 1e-5 covers float32 rounding
# of values of order 1 whose angles reach 100 radians (measured: below 1e-6).
RTOL = 1e-5


def _close(got, want):
    want = np.asarray(want)
    assert np.max(np.abs(np.asarray(got) - want)) <= RTOL * np.max(np.abs(want))


def test_the_vectors_come_from_transformers_5_24():
    assert VECTORS["versions"]["transformers"] == "5.24.0"


@pytest.mark.parametrize("record", VECTORS["temperature"], ids=lambda r: f"floor{r['floor_scale']}@{r['positions'][0]}")
def test_temperature_matches_llama4_attention_forward(record):
    _close(ls.llama4_attn_temperature(record["positions"], record["attn_scale"], record["floor_scale"]),
           record["scale"])


def test_temperature_first_step_is_at_floor_scale_minus_one():
    t = ls.llama4_attn_temperature([8190, 8191])
    assert t[0] == 1.0 and t[1] == pytest.approx(1 + 0.1 * math.log(2))


@pytest.mark.parametrize("record", VECTORS["mistral_scale"], ids=lambda r: f"F{r['original_max_position_embeddings']}")
def test_mistral_scale_matches_get_llama_4_attn_scale_and_the_forward_pass(record):
    ours = ls.mistral_attn_scale(record["positions"], record["beta"], record["original_max_position_embeddings"])
    _close(ours, record["scale"])
    _close(ours, record["forward_scale"])  # what Ministral3Attention.forward multiplies the query by


def test_mistral_steps_at_F_and_llama4_at_F_minus_one():
    """The two rules differ by the + 1: Llama 4 counts p + 1, Mistral p."""
    assert ls.mistral_attn_scale([16383])[0] == 1.0 < ls.mistral_attn_scale([16384])[0]
    assert ls.llama4_attn_temperature([16383], floor_scale=16384)[0] > 1.0
    assert ls.mistral_attn_scale([16384])[0] == pytest.approx(1 + 0.1 * math.log(2))


def test_engines_disagree_on_llama4_temperature_at_max_model_len_32768():
    """vLLM 0.33.0 switches it on only past 32,768 (or when the generation config says so);
    llama.cpp always, transformers 5.24 with the key true or absent; Meta's reference only when
    params.json says so."""
    p = np.arange(8191, 32768)
    on = ls.llama4_attn_temperature(p)
    assert np.all(ls.llama4_served_temperature(p, "vLLM 0.33.0", max_model_len=32768) == 1.0)
    np.testing.assert_array_equal(ls.llama4_served_temperature(p, "transformers 5.24"), on)
    np.testing.assert_array_equal(ls.llama4_served_temperature(p, "llama.cpp", setting=False), on)
    np.testing.assert_array_equal(ls.llama4_served_temperature(p, "vLLM 0.33.0", max_model_len=32769), on)
    np.testing.assert_array_equal(ls.llama4_served_temperature(p, "vLLM 0.33.0", 32768, setting=True), on)
    assert not ls.llama4_temperature_on("Meta reference")
    assert not ls.llama4_temperature_on("vLLM 0.33.0", max_model_len=10**6, setting=False)
    assert on.max() == pytest.approx(1 + 0.1 * math.log(5))  # position 32,767


def test_transformers_refuses_scouts_published_switch():
    """Llama4TextConfig refuses the published 4, and so does the lesson's transformers switch."""
    record = VECTORS["llama4_switch"][0]
    assert ls.gallery_text_config("llama-4-scout")["attn_temperature_tuning"] == record["value"] == 4
    assert record["accepted"] is False and "expected bool" in record["error"]
    with pytest.raises(ValueError, match="true or false"):
        ls.llama4_temperature_on("transformers 5.24", setting=record["value"])
    assert ls.llama4_temperature_on("transformers 5.24", setting=True)  # the edited config
    assert not ls.llama4_temperature_on("transformers 5.24", setting=False)


ENGINES = {r["engine"]: r for r in VECTORS["engine_switches"]}


def test_vllm_gate_is_the_one_in_its_source():
    """vLLM 0.33.0's models/llama4.py, parsed by the reference script: the generation config's key,
    else max_model_len compared with a threshold; _get_attn_scale compiled from the file and run."""
    r = ENGINES["vLLM"]
    vllm = r["release"]
    assert vllm in ls.LLAMA4_ENGINES and r["reads"].endswith(".max_model_len") and r["operator"] == ">"
    threshold = r["threshold"]
    assert not ls.llama4_temperature_on(vllm, max_model_len=threshold)
    assert ls.llama4_temperature_on(vllm, max_model_len=threshold + 1)
    assert ls.llama4_temperature_on(vllm, max_model_len=threshold, setting=True)
    assert not ls.llama4_temperature_on(vllm, max_model_len=threshold + 1, setting=False)
    from modelcard.engines import VLLM_TEMPERATURE_LEN, VLLM_TEMPERATURE_ON
    assert VLLM_TEMPERATURE_LEN == threshold  # the decoder's command notes use the same gate
    switch = f"--override-generation-config '{{\"{r['generation_config_key']}\": true}}'"
    assert VLLM_TEMPERATURE_ON == switch
    assert switch in " ".join(ls.__doc__.split())  # the page's fix, as printed
    # vLLM counts position ids (Llama4Attention.forward's `positions`), from the getattr fallbacks
    assert r["counts"] == "positions" and r["defaults"] == {"floor_scale": 8192.0, "attn_scale": 0.1}
    _close(ls.llama4_served_temperature(r["positions"], vllm, max_model_len=threshold + 1), r["scale"])


def test_llama_cpp_constants_are_the_ones_in_its_source():
    """llama-cpp-python 0.3.36's src/models/llama4.cpp: fixed constants, no GGUF key for the
    temperature, and set_input's expression evaluated at each position id."""
    r = ENGINES["llama.cpp"]
    assert f"llama.cpp ({r['release']})" in ls.__doc__
    assert not [k for k in r["keys_read"] if "TEMP" in k]  # nothing in the GGUF turns it off
    assert ls.llama4_temperature_on("llama.cpp", setting=False)
    assert r["counts"] == "ubatch->pos[i]"
    pos = np.arange(0, 100_000, 7.0)
    want = eval(r["formula"].replace("std::", "np."), {"np": np, "pos": pos, "f_attn_temp_offset": r["offset"],
                                                         "n_attn_temp_floor_scale": r["floor_scale"],
                                                         "f_attn_temp_scale": r["attn_scale"]})
    np.testing.assert_allclose(ls.llama4_served_temperature(pos, "llama.cpp"), want, rtol=1e-7)


def test_local_global_table_is_what_the_config_classes_return():
    """LOCAL_GLOBAL against transformers 5.24's seven config classes, and the page's table against it."""
    got = {r["model_type"]: (r["local_base"], r["global_base"], r["scaling_reaches"]) for r in VECTORS["local_global"]}
    assert got == ls.LOCAL_GLOBAL
    lines = ls.__doc__.splitlines()
    start = lines.index("| Model | model_type | Local base | Global base | A `rope_scaling` block reaches |") + 2
    reach = {"global": "the global layers only", "both": "both kinds", None: "no such block"}
    rows = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[1]] = cells
    assert list(rows) == list(ls.LOCAL_GLOBAL)
    for model_type, (local, glob, where) in ls.LOCAL_GLOBAL.items():
        cells = rows[model_type]
        assert cells[2:4] == [f"{local:,.0f}", f"{glob:,.0f}"] and cells[4].startswith(reach[where]), cells


@pytest.mark.parametrize("record", VECTORS["by_model"], ids=lambda r: r["model_type"])
def test_pairing_by_model_type_matches_the_familys_own_code(record):
    x = np.asarray(record["input"])
    pairing, share = ls.PAIRING_BY_MODEL_TYPE[record["model_type"]]
    assert record["partial_rotary_factor"] == share  # the config class's default
    _close(ls.partial_rotary(x, record["positions"], record["partial_rotary_factor"], record["base"], pairing),
           record["output"])


def test_glm4_moe_is_not_read_as_interleaved():
    """GLM-4.5's family keeps glm's 0.5 share but splits halves: the interleaved reading is wrong."""
    record = next(r for r in VECTORS["by_model"] if r["model_type"] == "glm4_moe")
    wrong = ls.partial_rotary(np.asarray(record["input"]), record["positions"], 0.5, record["base"], "interleaved")
    assert record["partial_rotary_factor"] == 0.5
    assert np.max(np.abs(wrong - np.asarray(record["output"]))) > 0.1


@pytest.mark.parametrize("record", VECTORS["deepseek_rotary"], ids=["deepseek_v3"])
def test_deepseek_rotary_matches_apply_rotary_pos_emb_interleave(record):
    _close(ls.deepseek_rotary(np.asarray(record["input"]), record["positions"], record["base"]), record["output"])


def test_deepseek_layout_keeps_interleaved_ropes_scores():
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((4, 8)), rng.standard_normal((4, 8))
    ours = ls.deepseek_rotary(q, [5, 6, 7, 8]) @ ls.deepseek_rotary(k, [0, 1, 2, 3]).T
    np.testing.assert_allclose(ours, apply_rope_interleaved(q, [5, 6, 7, 8]) @ apply_rope_interleaved(k, [0, 1, 2, 3]).T,
                               atol=1e-12)


@pytest.mark.parametrize("record", VECTORS["partial"],
                         ids=lambda r: f"{r['pairing']}-{r['partial_rotary_factor']}-{r['base']:g}")
def test_partial_rotary_matches_transformers(record):
    x = np.asarray(record["input"])
    _close(ls.partial_rotary(x, record["positions"], record["partial_rotary_factor"], record["base"],
                             record["pairing"]), record["output"])


def test_the_three_pairings_differ_on_the_same_weights():
    rows = {r["pairing"]: np.asarray(r["output"]) for r in VECTORS["partial"] if r["partial_rotary_factor"] == 0.5}
    pairs = [("neox", "interleaved"), ("neox", "proportional"), ("interleaved", "proportional")]
    assert all(np.max(np.abs(rows[a] - rows[b])) > 0.1 for a, b in pairs)


@pytest.mark.parametrize("pairing", ls.PARTIAL_PAIRINGS)
def test_dimensions_with_no_partner_pass_through(pairing):
    x = np.random.default_rng(1).standard_normal((3, 16))
    out = ls.partial_rotary(x, [0, 5, 40], 0.25, pairing=pairing)
    still = ls.partial_partner(16, 0.25, pairing) < 0
    np.testing.assert_array_equal(out[:, still], x[:, still])
    assert np.all(np.abs(out[1:, ~still] - x[1:, ~still]).max(axis=0) > 0)


@pytest.mark.parametrize("slug", ls.PLAN_MODELS)
def test_layer_plan_matches_the_models_own_classes(slug):
    plan, ref = ls.layer_plan(ls.gallery_text_config(slug)), GALLERY[slug]
    assert [layer["rope"] for layer in plan] == [layer is not None for layer in ref["layers"]]
    types = ref["layer_types"]  # None: the class has no layer types and applies sliding_window everywhere
    want = [t != "full_attention" for t in types] if types else [True] * len(plan)
    assert [layer["window"] is not None for layer in plan] == want


def test_gemma3_two_bases_match_its_rotary_class():
    """reference_vectors.json's Gemma 3 records (Gemma3RotaryEmbedding): the sliding layers use
    layer_plan's local base unscaled, the full layers rope_theta with the config's scaling."""
    for record in (r for r in BY_LAYER_TYPE if r["model"] == "gemma3"):
        config = {"model_type": "gemma3_text", **record["config_json"]}
        plan = ls.layer_plan(config)
        local = next(layer["base"] for layer in plan if layer["window"])
        glob = next(layer["base"] for layer in plan if not layer["window"])
        scaling = record["config_json"].get("rope_scaling") or {}
        _close(rope_inv_freq(256, {"rope_theta": local})[0], record["layer_types"]["sliding_attention"]["inv_freq"])
        _close(rope_inv_freq(256, {**scaling, "rope_theta": glob})[0], record["layer_types"]["full_attention"]["inv_freq"])
        if scaling:  # the bug: the scaling reaching the local layers is not what the model computes
            leaked = rope_inv_freq(256, {**scaling, "rope_theta": local})[0]
            assert not np.allclose(leaked, record["layer_types"]["sliding_attention"]["inv_freq"])


def test_proportional_speeds_are_reference_vectors_gemma4_record():
    record = next(r for r in BY_LAYER_TYPE if r["model"] == "gemma4")
    params = record["rope_parameters"]["full_attention"]
    _close(rope_inv_freq(512, params)[0], record["layer_types"]["full_attention"]["inv_freq"])


def test_a_local_layer_never_sees_beyond_its_window():
    theta = rope_inv_freq(256, {"rope_theta": 10000.0})[0]
    assert ls.window_angles(theta, 1024)[0] == 1023
    assert ls.local_score_change(theta, theta, 1024) == 0


def test_folding_is_exact_without_rope_and_with_decoupled_rope_only():
    assert ls.fold_error("no rope") < 1e-12 and ls.fold_error("decoupled") < 1e-12
    assert ls.fold_error("rope on the key") > 1


def test_top_key_weight_closed_form():
    assert ls.top_key_weight(0.0, 4) == pytest.approx(0.25)
    assert ls.top_key_weight(math.log(3), 4) == pytest.approx(0.5)


def test_an_empty_no_rope_layers_list_is_filled_only_for_llama4():
    """configuration_llama4.py replaces an empty list with every fourth layer NoPE;
    configuration_smollm3.py fills in only a missing key (an empty list then has no entry per layer)."""
    llama4 = ls.layer_plan({"model_type": "llama4_text", "num_hidden_layers": 8, "no_rope_layers": []})
    assert [i for i, layer in enumerate(llama4) if not layer["rope"]] == [3, 7]
    with pytest.raises(ValueError, match="no_rope_layers"):
        ls.layer_plan({"model_type": "smollm3", "num_hidden_layers": 8, "no_rope_layers": []})
