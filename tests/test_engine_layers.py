"""The layer plans of hybrid models, the reach of a scaling block, and what llama-server and vLLM do next
(split from tests/test_engines.py, which holds the commands' checks)."""

from __future__ import annotations

import math
import re

import pytest

from lessons.model_card import explain
from modelcard.report import report
from modelcard.engines import engine_commands, engine_notes
from lessons.tools.model_types import ConfigError, gallery
from tests.test_engines import CONFIGS, LLAMA

GALLERY = gallery()


def test_hybrid_layer_plans_rotate_only_their_attention_layers():
    """MiniMax's remote-code attn_type_list (1 softmax, 0 linear attention, as vLLM 0.33.0 counts it in
    vllm/config/model.py), LFM2's full_attn_idxs and Bamba's attn_layer_indices give the plan; layers of
    linear attention or short convolution never turn (NO_ROPE_LAYER_TYPES), whatever the family; MiniMax
    and Qwen3.5 repeat a plan when the file gives none (transformers 5.24, checked live by make reference)."""
    base = {**LLAMA, "num_hidden_layers": 80, "rope_theta": 10000000, "rotary_dim": 64, "head_dim": 128}
    m1 = explain({**base, "model_type": "minimax_m1", "attn_type_list": [0, 0, 0, 0, 0, 0, 0, 1] * 10})
    assert m1.scheme == "mixed" and m1.nope_layers == tuple(i for i in range(80) if i % 8 != 7)
    lines = report(m1, None).splitlines()
    assert lines[1].startswith("scheme         RoPE in 10 of 80 layers; linear attention, no RoPE (order comes from "
                               "its recurrence), in layers 0, 1, 2, 3, 4, 5, 6, 8,")
    assert "layer types    70 linear_attention, 10 full_attention" in lines
    # a listed plan in any family, and the plan transformers fills in for MiniMax and Qwen3.5
    listed = explain({**base, "num_hidden_layers": 4, "layer_types": ["linear_attention", "full_attention"] * 2})
    assert listed.nope_layers == (0, 2)
    assert explain({**base, "model_type": "minimax", "num_hidden_layers": 4}).nope_layers == (1, 3)
    qwen35 = {k: v for k, v in base.items() if k != "rotary_dim"}  # its class turns a quarter of each head
    assert explain({**qwen35, "model_type": "qwen3_5_text", "num_hidden_layers": 8}).nope_layers == (0, 1, 2, 4, 5, 6)
    lfm2 = explain({**base, "model_type": "lfm2", "num_hidden_layers": 6, "full_attn_idxs": [2, 5]})
    assert lfm2.nope_layers == (0, 1, 3, 4)
    assert report(lfm2, None).splitlines()[1] == ("scheme         RoPE in 2 of 6 layers; short convolutions, no RoPE "
                                                  "(order comes from the convolution), in layers 0, 1, 3, 4")
    assert explain({**base, "model_type": "bamba", "num_hidden_layers": 4, "attn_layer_indices": [3]}).nope_layers == (0, 1, 2)
    # old layer-type names, as every transformers 5.24 config class renames them (mamba -> linear_attention),
    # and GraniteMoeHybrid, which turns only when position_embedding_type is "rope" (modeling_granitemoehybrid.py)
    granite = {**base, "model_type": "granitemoehybrid", "num_hidden_layers": 4,
               "layer_types": ["mamba", "mamba", "mamba", "attention"]}
    assert explain({**granite, "position_embedding_type": "rope"}).layer_types == (
        "linear_attention", "linear_attention", "linear_attention", "full_attention")
    assert explain({**granite, "position_embedding_type": "rope"}).nope_layers == (0, 1, 2)
    nope = explain({**granite, "position_embedding_type": "nope"})
    assert nope.scheme == "none" and report(nope, None).splitlines()[1] == (
        "scheme         no RoPE in any layer; linear attention, no RoPE (order comes from its recurrence), in layers "
        "0, 1, 2; NoPE attention in layers 3")
    assert explain({k: v for k, v in granite.items()}).scheme == "none"  # the class's default is None: no RoPE
    # a plan that does not fit the model is one error
    for key, value, says in (("attn_type_list", [0, 1] * 39, "needs a 1 (softmax attention) or 0 (linear attention) "
                              "for each of the 80 layers"), ("attn_type_list", [2] * 80, "needs a 1"),
                             ("full_attn_idxs", [80], "lists layer indices outside 0..79"),
                             ("attn_layer_indices", "0,1", "must be a list of integers")):
        with pytest.raises(ConfigError, match=re.escape(says)):
            explain({**base, "model_type": "minimax_m1", key: value})


def test_serving_past_the_scaling_blocks_reach_is_a_warning():
    """A scaling block is made for a range: YaRN to original × factor, linear to the trained length × factor
    (the config's claim when no trained length is stated, as for Gemma 3), LongRoPE and the Llama 3 rule to
    max_position_embeddings. Past it the report warns, and for LongRoPE it says what raising
    max_position_embeddings does to the attention factor: sqrt(1 + ln(P / original) / ln(original)), the
    factor vLLM 0.33.0's phi3_long_rope_scaled_rope.py and transformers compute from P."""
    def warned(slug, served):
        return [w for w in report(explain(GALLERY[slug]["config"]), served).splitlines()
                if w.startswith("warning        past the scaling's reach")]

    assert not warned("qwen2.5-7b-yarn", 131072)
    (line,) = warned("qwen2.5-7b-yarn", 131073)
    assert "the yarn block stretches to 131,072 positions (original_max_position_embeddings × factor)" in line
    assert not warned("gemma-3-4b", 131072) and warned("gemma-3-4b", 131073)
    assert not warned("llama-3.1-8b", 131072) and warned("llama-3.1-8b", 262144)
    (line,) = warned("phi-3.5-mini", 262144)
    before, after = (math.sqrt(1 + math.log(p / 4096) / math.log(4096)) for p in (131072, 262144))
    assert line.endswith(f"changes the attention factor on every token from {before:.4g} to {after:.4g}")
    assert after / before - 1 > 0.028  # +2.9 %
    commands = engine_commands(explain(GALLERY["phi-3.5-mini"]["config"]), 262144, "m")
    assert '"max_position_embeddings": 262144' in commands["vllm"]  # "as the commands do"
    # dynamic scaling follows the length: no reach, no such warning
    assert not [w for w in report(explain(CONFIGS["internlm2.5-7b"][0]), 262144).splitlines() if "reach" in w]


def test_llama_server_is_told_the_length_when_the_file_would_cap_it():
    """llama-server caps each slot at the GGUF's context_length (tools/server/server-context.cpp) unless YaRN is
    given at a scale other than the file's (src/llama-context.cpp llama_init_from_model re-derives it as
    --yarn-orig-ctx / scale), in the tree llama-cpp-python 0.3.36 vendors. Past the file's length under the
    file's own scaling, the command raises the length with --override-kv, under the file's GGUF architecture."""
    qwen = explain(GALLERY["qwen2.5-7b-yarn"]["config"])
    assert engine_commands(qwen, 131072, "m")["llama.cpp"] == (
        "llama-server -m model.gguf -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 "
        "--override-kv qwen2.context_length=int:131072")
    assert "--override-kv" not in engine_commands(qwen, 32768, "m")["llama.cpp"]
    llama = explain(GALLERY["llama-3.1-8b"]["config"])
    assert engine_commands(llama, 262144, "m")["llama.cpp"].endswith("--override-kv llama.context_length=int:262144")
    # a block the command adds changes the scale: llama.cpp re-derives the length itself
    added = engine_commands(explain(GALLERY["llama-2-7b"]["config"]), 16384, "m")["llama.cpp"]
    assert "--rope-scale 4" in added and "--override-kv" not in added


def test_families_whose_attention_never_turns_or_turns_on_a_key():
    """Kimi-Linear's modeling file has no rotary embedding; Zamba2 turns only with use_mem_rope; RecurrentGemma's
    block_types repeat recurrent (linear attention) and attention (sliding) blocks, and Kimi-Linear counts its
    full-attention layers from 1 (transformers 5.24; the plans are checked live by make reference)."""
    base = {**LLAMA, "num_hidden_layers": 6}
    kimi = explain({**base, "model_type": "kimi_linear",
                    "linear_attn_config": {"full_attn_layers": [3, 6], "kda_layers": [1, 2, 4, 5]}})
    assert kimi.scheme == "none" and kimi.layer_types == ("linear_attention", "linear_attention", "full_attention",
                                                          "linear_attention", "linear_attention", "full_attention")
    assert explain({**base, "model_type": "zamba2"}).scheme == "none"
    assert explain({**base, "model_type": "zamba2", "use_mem_rope": True}).scheme == "rope"
    gemma = explain({**base, "model_type": "recurrent_gemma"})
    assert gemma.layer_types == ("linear_attention", "linear_attention", "sliding_attention") * 2
    assert gemma.nope_layers == (0, 1, 3, 4)
    bamba = explain({**base, "model_type": "bamba"})  # no attn_layer_indices: every layer Mamba
    assert set(bamba.layer_types) == {"linear_attention"} and bamba.scheme == "none"
    qwen35 = explain({**base, "model_type": "qwen3_5_text", "head_dim": 256})
    assert qwen35.rope[0].rotary_dim == 64  # the class's partial_rotary_factor 0.25


def test_a_mistral_config_says_vllm_may_read_params_json_instead():
    """vLLM 0.33.0 reads params.json, not config.json, for a repo in Mistral's own format
    (transformers_utils/config.py get_config with --config-format auto); the note says how to avoid it."""
    note = [n for n in engine_notes(explain(GALLERY["mistral-7b"]["config"]), None) if "params.json" in n]
    assert note and "add --config-format hf" in note[0]
    assert not [n for n in engine_notes(explain(LLAMA), None) if "params.json" in n]
