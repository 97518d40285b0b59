"""lessons.model_card: the decoder's readings, its command, its bad-input
errors, and the gallery on the page (each config's report shown on the page
is the report the code prints now). Agreement with transformers itself is in
tests/test_model_card_reference.py."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from lessons.model_card import (compare_methods, explain, language_config, layer_types, pairs_that_turn,
                                rope_block)
from modelcard.cli import main
from modelcard.report import card_json, report
from modelcard.engines import (engine_refusals, served_lengths, vllm_max_model_len)
from lessons.tools.model_types import ConfigError, gallery
from lessons.tools.rope_scaling import rope_inv_freq
from tests.conftest import LESSONS, ROOT

GALLERY = gallery()
PAGE = next(lesson for lesson in LESSONS if lesson.slug == "model_card").docstring
LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
         "max_position_embeddings": 4096, "rope_theta": 10000.0}


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "modelcard", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


# --- the JSON card ----------------------------------------------------------------

SCHEMA = {"model_type", "scheme", "trained_length", "trained_length_stated", "max_length", "rope", "nope_layers",
          "alibi_slopes", "sliding_window", "layer_types", "served", "served_from", "commands", "multipliers",
          "warnings"}
GROUP = ["layer_type", "layers", "rope_type", "rotary_dim", "pairing", "inv_freq", "attention_factor"]


@pytest.mark.parametrize("slug", GALLERY)
def test_json_card_has_the_exact_schema(slug):
    card = card_json(explain(GALLERY[slug]["config"]))
    assert list(card) == ["model_type", "scheme", "trained_length", "trained_length_stated", "max_length", "rope",
                          "nope_layers", "alibi_slopes", "sliding_window", "layer_types", "served", "served_from",
                          "commands", "multipliers", "warnings"]
    assert list(card["served_from"]) == list(card["served"]) and all(isinstance(v, str) for v in card["served_from"].values())
    assert type(card["trained_length_stated"]) is bool
    assert list(card["commands"]) == list(card["served"]) and card["commands"]["transformers"] is None
    assert all(v is None or isinstance(v, str) for v in card["commands"].values())
    for m in card["multipliers"]:
        assert list(m) == ["name", "value", "layers", "starts_at"] and isinstance(m["name"], str)
        assert m["value"] is None or type(m["value"]) in (float, str)
        assert (m["starts_at"] is None) == (not isinstance(m["value"], str))
        assert all(type(i) is int for i in m["layers"]) and m["layers"]
    assert list(card["served"]) == ["transformers", "vllm", "sglang", "llama.cpp"] and card["served"]["transformers"] is None
    assert all(v is None or type(v) is int for v in card["served"].values())
    assert all(isinstance(w, str) for w in card["warnings"])
    assert card["layer_types"] is None or all(isinstance(t, str) for t in card["layer_types"])
    assert card["scheme"] in ("rope", "alibi", "learned", "sinusoidal", "none", "mixed")
    for key in ("trained_length", "max_length"):
        assert card[key] is None or type(card[key]) is int
    layers_seen = []
    for group in card["rope"]:
        assert list(group) == GROUP
        assert all(type(i) is int for i in group["layers"]) and group["layers"] == sorted(group["layers"])
        if group["rope_type"] != "proportional":
            assert len(group["inv_freq"]) == -(-group["rotary_dim"] // 2)
        assert all(type(x) is float for x in group["inv_freq"]) and type(group["attention_factor"]) is float
        layers_seen += group["layers"]
    assert len(layers_seen) == len(set(layers_seen)), "a layer belongs to one group"
    assert not set(layers_seen) & set(card["nope_layers"])
    if len(card["rope"]) == 1:
        assert card["rope"][0]["layer_type"] == "all"
    assert json.loads(json.dumps(card)) == card


def test_cli_json_is_the_card(tmp_path):
    config = GALLERY["llama-3.1-8b"]["config"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    out = _run(str(path), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == card_json(explain(config))
    out = _run(str(path))
    assert out.stdout.rstrip("\n") == report(explain(config))


def test_cli_reads_a_gallery_slug_and_lists_them():
    out = _run("--list")
    assert out.returncode == 0 and all(slug in out.stdout for slug in GALLERY)
    out = _run("gpt2", "--length", "2048")
    assert out.returncode == 0
    assert "1,024 rows: position 1,024 and later have none" in out.stdout


# --- bad input: one line, non-zero exit, never a traceback ------------------------------

BAD = {
    "not JSON": ("{not json", "not JSON (line 1"),
    "a JSON list": ("[1, 2]", "a config.json is a JSON object"),
    "no position information": (json.dumps({"model_type": "mystery", "hidden_size": 64}),
                                "no position information"),
    "empty object": ("{}", "no position information"),
    "both block spellings, different": (json.dumps({**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 2.0},
                                                   "rope_parameters": {"rope_type": "linear", "factor": 4.0}}),
                                        "'rope_parameters' and 'rope_scaling' are both set and differ"),
    "two partial spellings, different": (json.dumps({**LLAMA, "partial_rotary_factor": 0.5, "rotary_pct": 0.25}),
                                         "contradict each other"),
    "ALiBi and RoPE": (json.dumps({"model_type": "mpt", "n_heads": 8, "n_layers": 2, "max_seq_len": 2048,
                                   "attn_config": {"alibi": True}, "rope_theta": 10000.0}),
                       "turns on ALiBi and also sets RoPE keys"),
    "learned and RoPE": (json.dumps({**LLAMA, "position_embedding_type": "absolute"}), "contradict each other"),
    "top-level theta against the block's": (json.dumps({**LLAMA, "rope_parameters": {"rope_theta": 500000.0}}),
                                            "contradict each other"),
    "unknown rope type": (json.dumps({**LLAMA, "rope_scaling": {"rope_type": "spiral", "factor": 2.0}}),
                          "unknown rope_type 'spiral'"),
    "missing factor": (json.dumps({**LLAMA, "rope_scaling": {"rope_type": "yarn"}}), "needs the key 'factor'"),
    "a string base": (json.dumps({**LLAMA, "rope_theta": "10k"}), "rope_theta"),
    "a negative layer count": (json.dumps({**LLAMA, "num_hidden_layers": -3}), "num_hidden_layers"),
    "a base of 1": (json.dumps({**LLAMA, "rope_theta": 1, "rope_scaling": {"rope_type": "yarn", "factor": 2.0}}),
                    "rope_theta must be a number greater than 1, got 1"),
    "a band edge of 0": (json.dumps({**LLAMA, "rope_scaling": {"rope_type": "llama3", "factor": 2.0, "low_freq_factor": 0,
                                                               "high_freq_factor": 4.0}}),
                         "rope 'low_freq_factor' must be a positive number, got 0"),
    "an original length of 1": (json.dumps({**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 2.0,
                                                                     "original_max_position_embeddings": 1}}),
                                "original_max_position_embeddings must be an integer >= 2, got 1"),
    "a string window": (json.dumps({**LLAMA, "sliding_window": "wide"}), "sliding_window must be a positive integer"),
    "layer_types of the wrong length": (json.dumps({**LLAMA, "layer_types": ["full_attention"] * 3}),
                                        "'layer_types' lists 3 layers but the config has 32"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_gets_one_line_and_a_nonzero_exit(case, tmp_path):
    text, expected = BAD[case]
    path = tmp_path / "config.json"
    path.write_text(text)
    out = _run(str(path))
    assert out.returncode == 2, (case, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: "), out.stderr
    assert expected in out.stderr, out.stderr


def test_missing_file_and_bad_length(tmp_path):
    out = _run(str(tmp_path / "absent.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr and "Traceback" not in out.stderr
    out = _run("gpt2", "--length", "0")
    assert out.returncode == 2 and "--length must be a positive integer" in out.stderr


def test_explain_raises_configerror_which_is_a_valueerror():
    with pytest.raises(ConfigError, match="no position information"):
        explain({"model_type": "mystery"})
    assert issubclass(ConfigError, ValueError)
    assert main(["--list"]) == 0


# --- what the decoder reads ------------------------------------------------------------

def test_spellings_fold_into_one_block():
    assert rope_block({"rotary_pct": 0.25, "rotary_emb_base": 10000}) == {"rope_theta": 10000,
                                                                         "partial_rotary_factor": 0.25}
    same = {**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 2.0}}
    both = {**same, "rope_parameters": {"rope_type": "linear", "factor": 2.0}}
    assert card_json(explain(both)) == card_json(explain(same))
    old = {**LLAMA, "rope_scaling": {"type": "linear", "factor": 2.0}}
    assert card_json(explain(old)) == card_json(explain(same))
    # GPT-J's rotary_dim is a width: 64 of a 256-wide head is a share of 0.25
    gptj = {"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64, "n_layer": 28, "n_positions": 2048}
    group = explain(gptj).rope[0]
    assert group.rotary_dim == 64 and np.allclose(group.inv_freq, 10000.0 ** (-np.arange(0, 64, 2) / 64))


def test_text_config_is_the_language_model():
    text = {"model_type": "llama4_text", "num_hidden_layers": 8, "rope_theta": 500000.0, "head_dim": 128,
            "max_position_embeddings": 8192}
    assert language_config({"model_type": "llama4", "text_config": text})["model_type"] == "llama4_text"
    card = explain({"model_type": "llama4", "text_config": text})
    assert card.model_type == "llama4" and card.nope_layers == (3, 7)
    # the published meaning of no_rope_layers: 1 = uses RoPE, 0 = skips it
    flags = [1, 0, 1, 1, 1, 1, 1, 0]
    card = explain({"model_type": "llama4", "text_config": {**text, "no_rope_layers": flags}})
    assert card.nope_layers == (1, 7) and card.scheme == "mixed"
    assert card.rope[0].layers == (0, 2, 3, 4, 5, 6)


def test_layer_plans_follow_each_models_rule():
    gemma2 = {"model_type": "gemma2", "num_hidden_layers": 4}
    assert layer_types(gemma2, 4) == ["sliding_attention", "full_attention"] * 2
    gemma3 = {"model_type": "gemma3_text", "sliding_window_pattern": 6}
    assert layer_types(gemma3, 12).count("full_attention") == 2 and layer_types(gemma3, 12)[5] == "full_attention"
    qwen = {"model_type": "qwen2", "use_sliding_window": True, "sliding_window": 4096, "max_window_layers": 2}
    assert layer_types(qwen, 4) == ["full_attention"] * 2 + ["sliding_attention"] * 2
    assert layer_types({**qwen, "use_sliding_window": False}, 4) == ["full_attention"] * 4


def test_gemma3_local_layers_keep_their_own_base_and_no_scaling():
    card = explain({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "num_hidden_layers": 12,
                                                              "rope_scaling": {"rope_type": "linear", "factor": 8.0}}})
    full, local = card.rope
    assert (full.layer_type, local.layer_type) == ("full_attention", "sliding_attention")
    assert full.layers == (5, 11) and len(local.layers) == 10
    assert np.allclose(full.inv_freq, 1e6 ** (-np.arange(0, 256, 2) / 256) / 8)
    assert np.allclose(local.inv_freq, 1e4 ** (-np.arange(0, 256, 2) / 256))
    assert card.trained_length is None and vllm_max_model_len(card) == 131072


def test_groups_agree_with_rope_inv_freq():
    for config in (LLAMA, {**LLAMA, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}},
                   {**LLAMA, "partial_rotary_factor": 0.5}):
        group = explain(config).rope[0]
        want, factor = rope_inv_freq(128, rope_block(config), max_position_embeddings=4096)
        assert np.array_equal(group.inv_freq, want) and group.attention_factor == factor


def test_warnings():
    dynamic = explain({**LLAMA, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}})
    assert any("cached" in w for w in dynamic.warnings)
    # vLLM 0.33.0 builds its table for P = max_position_embeddings positions with T = max_trained_positions,
    # which defaults to P (rotary_embedding/__init__.py, dynamic_ntk_scaling_rope.py): the stretch is 1
    from lessons.context_extension import vllm_dynamic_ntk_base
    assert vllm_dynamic_ntk_base(10000.0, 2.0, 4096, 4096, 128) == 10000.0
    assert any("vLLM 0.33.0 computes one base at start-up" in w and "trained base for every prompt" in w
               for w in dynamic.warnings)
    stretched = explain({**LLAMA, "max_position_embeddings": 16384, "original_max_position_embeddings": 4096})
    assert any("no scaling entry" in w for w in stretched.warnings)
    llama3 = {**LLAMA, "max_position_embeddings": 131072,
              "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 8192}}
    # the llama3 rule's factor is not a length ratio by design (Llama 3.1: 8, over 16 times the length): no warning
    assert explain(llama3).warnings == ()
    linear = {**LLAMA, "max_position_embeddings": 16384,
              "rope_scaling": {"rope_type": "linear", "factor": 2.0, "original_max_position_embeddings": 4096}}
    assert any("rope 'factor' 2 differs from max_position_embeddings / original_max_position_embeddings = 4" in w
               for w in explain(linear).warnings)
    unknown = explain({**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 2.0, "colour": "blue"}})
    assert any("unknown key 'colour'" in w for w in unknown.warnings)
    # a config without original_max_position_embeddings states a limit, not a trained length
    plain = explain(LLAMA)
    assert plain.warnings == ("the config does not say how long the model was trained: its limit, 4,096, stands in "
                              "for the trained length; the model may have trained on shorter inputs",)
    assert not plain.trained_stated and "trained length not stated (the config limit, 4,096" in report(plain)
    assert explain(llama3).trained_stated and "trained length 8,192" in report(explain(llama3))


def test_pairs_and_methods():
    theta = 10000.0 ** (-np.arange(0, 8, 2) / 8)
    assert pairs_that_turn(theta, 64).tolist() == [True, True, False, False]
    group = explain({**LLAMA, "head_dim": 8, "max_position_embeddings": 64}).rope[0]
    scales = compare_methods(group, 64, 4.0)
    assert np.allclose(scales["linear (PI)"], 0.25)
    assert scales["YaRN"][0] == 1.0 and np.isclose(scales["YaRN"][-1], 0.25)
    assert scales["Llama 3 rule"][0] == 1.0 and np.isclose(scales["Llama 3 rule"][-1], 0.25)


def test_reports_for_configs_without_a_layer_count_or_a_turning_pair():
    no_layers = {"model_type": "llama", "head_dim": 64, "num_attention_heads": 2, "hidden_size": 128}
    assert report(explain(no_layers)).splitlines()[1] == "scheme         RoPE"
    frozen = {**no_layers, "rope_parameters": {"rope_type": "proportional", "partial_rotary_factor": 0.0}}
    assert "  wavelengths  none: no pair turns" in report(explain(frozen)).splitlines()
    null_base = {**no_layers, "rope_parameters": {"rope_theta": None}}
    assert explain(null_base).rope[0].base == 10000.0



def test_multipliers_list_every_factor_with_its_layers():
    """transformers 5.24: modeling_llama4.py (query temperature on NoPE layers), modeling_ministral3.py
    (get_llama_4_attn_scale), modeling_gpt_oss.py (sinks), modeling_rope_utils.py (attention factor)."""
    scout = explain(GALLERY["llama-4-scout"]["config"])
    (temp,) = scout.multipliers
    assert temp["layers"] == scout.nope_layers and temp["starts_at"] == 8191
    assert temp["value"] == "1 + 0.1·ln(1 + floor((p + 1) / 8192))"
    off = json.loads(json.dumps(GALLERY["llama-4-scout"]["config"]))
    off["text_config"]["attn_temperature_tuning"] = False
    assert explain(off).multipliers == ()
    ministral = explain({**{k: v for k, v in LLAMA.items() if k != "rope_theta"}, "model_type": "ministral3",
                         "num_hidden_layers": 4, "rope_parameters": {
        "rope_type": "yarn", "rope_theta": 1e6, "factor": 16.0, "original_max_position_embeddings": 16384,
        "llama_4_scaling_beta": 0.1}})
    names = [m["name"] for m in ministral.multipliers]
    assert names == ["yarn attention factor (on cos and sin)", "query temperature (Ministral 3's llama_4_scaling_beta)"]
    assert ministral.multipliers[1]["starts_at"] == 16384 and ministral.multipliers[1]["layers"] == tuple(range(4))
    sinks = explain(GALLERY["gpt-oss-20b"]["config"]).multipliers
    assert [m["value"] for m in sinks][1:] == [None] and len(sinks[1]["layers"]) == 24
    deepseek = explain(GALLERY["deepseek-v3"]["config"])
    assert any(m["value"] == deepseek.softmax_multiplier for m in deepseek.multipliers)


MINISTRAL3 = {"model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"], "text_config": {
    **{k: v for k, v in LLAMA.items() if k != "rope_theta"}, "model_type": "ministral3", "num_hidden_layers": 4,
    "max_position_embeddings": 262144, "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 16.0,
                                                           "original_max_position_embeddings": 16384,
                                                           "llama_4_scaling_beta": 0.1}}}


def test_vllm_turns_llama4s_temperature_on_only_past_32768():
    """vLLM 0.33.0 models/llama4.py Llama4ForCausalLM.__init__: attn_temperature_tuning from the generation config,
    else max_model_len > 32768 (over config.json's); at 32,768 and below the note and the flag that turns it on
    (--override-generation-config, engine/arg_utils.py: a JSON dict), above it neither."""
    scout = explain(GALLERY["llama-4-scout"]["config"])
    flag = "--override-generation-config '{\"attn_temperature_tuning\": true}'"
    for served in (8192, 32768):
        text = report(scout, served, "org/model")
        assert f"vllm serve org/model --max-model-len {served} {flag}\n" in text
        (note,) = [line for line in text.splitlines() if "attn_temperature_tuning is true" in line]
        assert note.startswith("engine note    vLLM: Llama 4's query temperature is on only if") and "> 32,768" in note
        assert "transformers 5.24 applies it from position 8,191, llama.cpp from 8,191" in note
        assert card_json(scout, served)["commands"]["vllm"].endswith(flag)
    for served in (32769, None):  # None: vLLM's own length, 10,485,760
        text = report(scout, served, "org/model")
        assert "attn_temperature_tuning" not in text and "--override-generation-config" not in text
    off = json.loads(json.dumps(GALLERY["llama-4-scout"]["config"]))
    off["text_config"]["attn_temperature_tuning"] = False  # no temperature in transformers: nothing to turn on
    assert "attn_temperature_tuning" not in report(explain(off), 32768)
    assert "--override-generation-config" not in report(explain(LLAMA), 4096)


def test_vllm_drops_ministral3s_query_multiplier_from_config_json():
    """vLLM 0.33.0 reads no llama_4_scaling_beta: models/mistral.py MistralAttention.__init__ scales queries by
    config.llama_4_scaling, which transformers_utils/configs/mistral.py passes on from params.json only."""
    for config in (MINISTRAL3, MINISTRAL3["text_config"]):
        notes = [line for line in report(explain(config)).splitlines() if line.startswith("engine note")]
        (note,) = [n for n in notes if "llama_4_scaling" in n]
        assert "config.llama_4_scaling (vLLM 0.33.0 models/mistral.py MistralAttention.__init__)" in note
        assert "(--config-format hf, or no params.json) no query is scaled" in note
    (mistral_format, beta_note) = [line for line in report(explain(MINISTRAL3)).splitlines()
                                   if line.startswith("engine note")]
    assert mistral_format.endswith("serve what this config says, all but its query multiplier (next note)")
    assert "llama_4_scaling" in beta_note
    mistral = report(explain(GALLERY["mistral-7b"]["config"]))
    assert mistral.count("engine note") == 1 and "llama_4_scaling" not in mistral and "next note" not in mistral


def test_families_whose_layers_differ_by_type():
    """Read as transformers 5.24 reads them: configuration_modernbert.py, modeling_cohere2.py
    (RoPE only where the layer has a window), modeling_qwen3_next.py (RoPE only in full attention)."""
    modernbert = explain({"model_type": "modernbert", "position_embedding_type": "absolute", "hidden_size": 768,
                          "num_attention_heads": 12, "num_hidden_layers": 22})
    full, local = modernbert.rope
    assert modernbert.scheme == "rope" and (full.base, local.base) == (160000.0, 10000.0)
    assert full.layers == tuple(range(0, 22, 3)) and len(local.layers) == 14 and modernbert.sliding_window == 128
    assert np.allclose(full.inv_freq, 160000.0 ** (-np.arange(0, 64, 2) / 64))
    cohere2 = explain({**LLAMA, "model_type": "cohere2", "num_hidden_layers": 8, "position_embedding_type": "rope_gptj"})
    assert cohere2.scheme == "mixed" and cohere2.nope_layers == (3, 7) and cohere2.rope[0].layers == (0, 1, 2, 4, 5, 6)
    qwen3_next = explain({**LLAMA, "model_type": "qwen3_next", "num_hidden_layers": 8, "head_dim": 256})
    assert qwen3_next.rope[0].layers == (3, 7) and qwen3_next.rope[0].rotary_dim == 64  # partial_rotary_factor 0.25
    assert "linear attention, no RoPE (order comes from its recurrence), in layers 0, 1, 2, 4, 5, 6" in report(qwen3_next)
    with pytest.raises(ConfigError, match="rope_gptj"):
        explain({**LLAMA, "position_embedding_type": "rope_neox"})


def test_longropes_old_names_are_read_as_longrope():
    """transformers 5.24 configuration_phi3.py renames "su" and "yarn" to longrope (Phi-3-vision's files say "su")."""
    lists = {"short_factor": [1.0] * 64, "long_factor": [2.0] * 64}
    su = explain({**LLAMA, "rope_scaling": {"type": "su", **lists, "original_max_position_embeddings": 2048}})
    assert su.rope[0].rope_type == "longrope" and su.trained_length == 2048
    phi3 = explain({**LLAMA, "model_type": "phi3", "original_max_position_embeddings": 2048,
                    "rope_scaling": {"type": "yarn", **lists}})
    assert phi3.rope[0].rope_type == "longrope"
    # elsewhere "yarn" is YaRN
    assert explain({**LLAMA, "rope_scaling": {"type": "yarn", "factor": 2.0}}).rope[0].rope_type == "yarn"


def _write_gguf(path, arch="llama", **keys):
    """A header-only GGUF file written with llama.cpp's own writer (the gguf package): no download."""
    gguf = pytest.importorskip("gguf")
    writer = gguf.GGUFWriter(str(path), arch)
    if "context_length" in keys:
        writer.add_context_length(keys["context_length"])
    if "freq_base" in keys:
        writer.add_rope_freq_base(keys["freq_base"])
    if "dimension_count" in keys:
        writer.add_rope_dimension_count(keys["dimension_count"])
    if "scaling" in keys:
        writer.add_rope_scaling_type({"linear": gguf.RopeScalingType.LINEAR, "yarn": gguf.RopeScalingType.YARN}[keys["scaling"]])
        writer.add_rope_scaling_factor(keys["factor"])
    for name in ("rope_freqs", "rope_factors_long", "rope_factors_short"):
        if name in keys:
            writer.add_tensor(f"{name}.weight", np.asarray(keys[name], dtype=np.float32))
    if "raw_context_length" in keys:  # a value of another type than llama.cpp's converter writes
        writer.add_key_value(f"{arch}.context_length", keys["raw_context_length"], keys["raw_type"])
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_a_gguf_header_is_read_and_compared_with_its_config(tmp_path, capsys):
    from modelcard.cli import compare_gguf, gguf_report, read_gguf

    llama31 = explain(gallery()["llama-3.1-8b"]["config"])
    path = _write_gguf(tmp_path / "llama.gguf", context_length=131072, freq_base=500000.0, dimension_count=128,
                       rope_freqs=[1.0] * 16 + [8.0] * 48)
    header = read_gguf(path)
    assert header["architecture"] == "llama" and header["context_length"] == 131072
    assert header["rope.freq_base"] == 500000.0 and len(header["rope_freqs"]) == 64
    assert "context length 131,072 (what llama.cpp's default -c 0 uses)" in gguf_report(header)
    rows = {what: said for what, _, _, said in compare_gguf(header, llama31)}
    assert rows == {"context length": "kept", "RoPE base": "kept", "rotary dimensions": "kept", "scaling": "baked in"}
    # a conversion that changed the base and dropped the llama3 rule
    changed = read_gguf(_write_gguf(tmp_path / "changed.gguf", context_length=8192, freq_base=10000.0,
                                    dimension_count=128))
    rows = {what: said for what, _, _, said in compare_gguf(changed, llama31)}
    assert rows["RoPE base"] == "changed" and rows["context length"] == "changed" and rows["scaling"] == "dropped"
    # the command line: a report, a comparison, and a warning (not an error) for unrelated models
    assert main([str(path)]) == 0 and "architecture   llama" in capsys.readouterr().out
    assert main([str(path), "--compare", "llama-3.1-8b"]) == 0
    assert "scaling            baked in" in capsys.readouterr().out
    assert main([str(_write_gguf(tmp_path / "bloom.gguf", arch="bloom", context_length=2048)), "--compare", "gpt2"]) == 0
    out = capsys.readouterr()
    assert "warning: the config's model_type 'gpt2' and the file's architecture 'bloom' differ" in out.err
    assert "context length" in out.out


def test_a_broken_gguf_file_is_one_error_line(tmp_path, capsys):
    pytest.importorskip("gguf")
    good = _write_gguf(tmp_path / "good.gguf", context_length=4096)
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(good.read_bytes()[:20])
    (tmp_path / "text.gguf").write_text("not a gguf file at all", encoding="utf-8")
    for path in (truncated, tmp_path / "text.gguf", tmp_path / "missing.gguf"):
        assert main([str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}:") and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert main(["llama-3.1-8b", "--compare", "gpt2"]) == 2
    assert "--compare goes with a .gguf file" in capsys.readouterr().err
    # a context length llama.cpp cannot use: zero, or written as a string
    gguf = pytest.importorskip("gguf")
    for name, keys in (("zero", {"context_length": 0}),
                       ("text", {"raw_context_length": "4096", "raw_type": gguf.GGUFValueType.STRING})):
        path = _write_gguf(tmp_path / f"{name}.gguf", **keys)
        assert main([str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}: llama.context_length is ") and "positive integer" in err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_longrope_factor_tensors_are_found_under_the_converters_names(tmp_path):
    """llama.cpp's Phi-3 converter writes LongRoPE's lists as rope_factors_long and rope_factors_short,
    not rope_freqs: a conversion that kept them is 'baked in', one without them 'dropped'."""
    from modelcard.cli import compare_gguf, gguf_report, read_gguf

    phi = explain(gallery()["phi-3.5-mini"]["config"])
    kept = read_gguf(_write_gguf(tmp_path / "phi.gguf", arch="phi3", context_length=131072, dimension_count=96,
                                 rope_factors_long=[1.5] * 48, rope_factors_short=[1.0] * 48))
    rows = {what: (theirs, said) for what, _, theirs, said in compare_gguf(kept, phi)}
    assert rows["scaling"] == ("rope_factors_long (48 divisors), rope_factors_short (48 divisors)", "baked in")
    assert "rope_factors_long 48 per-pair divisors" in gguf_report(kept)
    lost = read_gguf(_write_gguf(tmp_path / "lost.gguf", arch="phi3", context_length=131072, dimension_count=96))
    assert {what: said for what, _, _, said in compare_gguf(lost, phi)}["scaling"] == "dropped"


def test_a_length_past_llama_cpps_int_is_refused_for_llama_cpp_only():
    """llama.cpp reads -c with std::stoi (common/arg.cpp): at most 2**31 - 1."""
    card = explain(gallery()["llama-3.1-8b"]["config"])
    refused = engine_refusals(card, 2**31)
    assert refused == {"llama.cpp": "llama.cpp's -c takes at most 2,147,483,647 (a 32-bit int, std::stoi in common/arg.cpp)"}
    assert engine_refusals(card, 2**31 - 1) == {}


def test_a_config_without_a_length_does_not_blame_a_linear_factor():
    falcon = explain({"model_type": "falcon", "hidden_size": 4544, "num_attention_heads": 71, "num_hidden_layers": 32})
    lines = report(falcon)
    assert "trained length unknown (the config states no length)" in lines and "linear factor" not in lines
    assert served_lengths(falcon)["vllm"] == 2048  # vLLM's fallback when no length key is set


def test_mla_reports_the_rotary_part_of_the_whole_query_and_key():
    """DeepSeek-V3: 64 of each 192-wide query and key turn (qk_rope_head_dim 64, qk_nope_head_dim 128)."""
    card = explain(gallery()["deepseek-v3"]["config"])
    assert card.qk_width == 192 and card.rope[0].rotary_dim == 64
    assert "64 of 192 dimensions turn (32 interleaved pairs); the other 128 carry no position (qk_nope_head_dim)" in report(card)
    assert explain(LLAMA).qk_width is None


def test_llama_3_1_as_published_needs_nothing():
    """The site's main example: Llama 3.1 8B's config is as the llama3 rule intends (its factor 8 is no
    length ratio), so its verdict names no warning (issue 37)."""
    from modelcard.report import report_sections

    card = explain(gallery()["llama-3.1-8b"]["config"])
    assert card.warnings == ()
    assert report_sections(card, None, "meta-llama/Llama-3.1-8B")["verdict"].endswith("; nothing needs attention.")
