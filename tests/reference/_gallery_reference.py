"""The model-card gallery's reference (lessons/gallery/<slug>.json): how to ask the
installed `transformers` for each gallery config's rotary speeds, and how the
lesson computes the same. Shared, like _reference.py, by make_vectors.py and
check_live.py under the reference venv (.venv-ref)."""

from __future__ import annotations

import copy

from _reference import ROOT, _Warnings, rel_err

# --- the model-card gallery (lessons/gallery/<slug>.json) ------------------------------------------------------
# Each entry holds the position keys of one published config.json; transformers_gallery() builds that model's own
# config class from them and asks its own rotary class (or ALiBi builder) for every layer's frequencies.
GALLERY_DIR = ROOT / "lessons" / "gallery"
GALLERY_DATA = ROOT / "tests" / "data" / "gallery_vectors.json"

# model_type -> (transformers.models.<module>.modeling_<module>, the rotary class the text model builds)
GALLERY_ROTARY = {
    "llama": ("llama", "LlamaRotaryEmbedding"),
    "mistral": ("mistral", "MistralRotaryEmbedding"),
    "qwen2": ("qwen2", "Qwen2RotaryEmbedding"),
    "qwen2_vl": ("qwen2_vl", "Qwen2VLRotaryEmbedding"),
    "gemma2": ("gemma2", "Gemma2RotaryEmbedding"),
    "gemma3": ("gemma3", "Gemma3RotaryEmbedding"),  # one inv_freq per layer type: <type>_inv_freq
    "llama4": ("llama4", "Llama4TextRotaryEmbedding"),
    "phi3": ("phi3", "Phi3RotaryEmbedding"),
    "deepseek_v3": ("deepseek_v3", "DeepseekV3RotaryEmbedding"),
    "gpt_oss": ("gpt_oss", "GptOssRotaryEmbedding"),
    "smollm3": ("smollm3", "SmolLM3RotaryEmbedding"),
    "gpt_neox": ("gpt_neox", "GPTNeoXRotaryEmbedding"),
    "modernbert": ("modernbert", "ModernBertRotaryEmbedding"),  # one inv_freq per layer type, as Gemma 3
    "cohere": ("cohere", "CohereRotaryEmbedding"),
    "cohere2": ("cohere2", "Cohere2RotaryEmbedding"),
    "qwen3_next": ("qwen3_next", "Qwen3NextRotaryEmbedding"),
    "falcon": ("falcon", "FalconRotaryEmbedding"),
    "glm": ("glm", "GlmRotaryEmbedding"),  # ChatGLM's gallery config, as _as_transformers_class builds it
}
PER_LAYER_TYPE = ("gemma3", "modernbert")  # rotary classes that keep <layer_type>_inv_freq

# Families whose attention applies RoPE only in one layer type (transformers 5.24):
# modeling_cohere2.py Cohere2Attention rotates only `if self.sliding_window is not None`;
# modeling_qwen3_next.py Qwen3NextDecoderLayer passes position_embeddings to its full_attention layers only.
ROPE_ONLY_IN = {"cohere2": "sliding_attention", "qwen3_next": "full_attention"}

# Remote-code families transformers has no config class for, built as the class that implements the same
# RoPE: Phi-3-vision's text model is Phi3 (its "su" block means longrope, below);
# ChatGLM / GLM-4-9B-chat is transformers' Glm (the port of glm-4-9b-chat), with the keys vLLM 0.33.0's
# models/chatglm.py derives: rope_theta = 10000 * rope_ratio, half of each kv_channels-wide head.
def _as_transformers_class(config: dict) -> dict:
    config = copy.deepcopy(config)
    if config["model_type"] == "phi3_v":
        # transformers 5.24's Phi3Config renames "su" to longrope only after standardize_rope_params has
        # skipped moving the top-level original_max_position_embeddings into the block (it moves it for
        # llama3, yarn and longrope only), so validation raises KeyError; vLLM 0.33.0 renames first
        # (patch_legacy_rope_type, vllm/transformers_utils/config.py). Built as the longrope block it means.
        config["model_type"] = "phi3"
        config["rope_scaling"] = {**config["rope_scaling"], "type": "longrope"}
    elif config["model_type"] == "chatglm":
        config = {"model_type": "glm", "num_hidden_layers": config["num_layers"], "hidden_size": config["hidden_size"],
                  "num_attention_heads": config["num_attention_heads"], "head_dim": config["kv_channels"],
                  "partial_rotary_factor": 0.5, "max_position_embeddings": config["seq_length"],
                  "rope_theta": 10000.0 * config.get("rope_ratio", 1.0)}
    return config

# Published values the installed config classes refuse as typed: Llama 4's config.json says
# "attn_temperature_tuning": 4, Llama4TextConfig (strict, transformers 5.x) wants a bool. It only switches the
# query temperature on NoPE layers (no RoPE number depends on it), so it is passed as the truthy bool it means.
GALLERY_COERCE = {("llama4_text", "attn_temperature_tuning"): bool}


def gallery() -> dict[str, dict]:
    """slug -> gallery entry (name, repo, read_from, secondary, note, config), sorted by slug."""
    import json

    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(GALLERY_DIR.glob("*.json"))}


def _gallery_config(config: dict):
    """The model's own config class built from the published keys: (config, its text config)."""
    from transformers import AutoConfig

    config = copy.deepcopy(config)
    for section in [config, config.get("text_config") or {}]:
        for (model_type, key), kind in GALLERY_COERCE.items():
            if section.get("model_type") == model_type and key in section:
                section[key] = kind(section[key])
    built = AutoConfig.for_model(config["model_type"], **{k: v for k, v in config.items() if k != "model_type"})
    return built, built.get_text_config()  # composite models (llama4, gemma3, qwen2_vl) keep it in text_config


def _floats(values) -> list[float]:
    return [float(x) for x in values.double().tolist()]


def transformers_gallery(config: dict) -> dict:
    """Ask transformers, per layer, for one published config:
    {"n_layers", "layers": [{"inv_freq", "attention_factor"} or None (no RoPE there), one per layer],
     "nope_layers" (RoPE models: the layers that skip it, else []), "alibi_slopes" (or None),
     "layer_types" (the config class's own list, or None)}."""
    import importlib

    import torch

    config = _as_transformers_class(config)
    built, text = _gallery_config(config)
    n_layers = int(text.num_hidden_layers)
    layer_types = list(text.layer_types) if getattr(text, "layer_types", None) else None
    out = {"n_layers": n_layers, "layers": [None] * n_layers, "nope_layers": [], "alibi_slopes": None,
           "layer_types": layer_types}
    model_type = config["model_type"]
    if model_type in GALLERY_ROTARY:
        module, name = GALLERY_ROTARY[model_type]
        rotary_class = getattr(importlib.import_module(f"transformers.models.{module}.modeling_{module}"), name)
        with _Warnings():
            rotary = rotary_class(text)
        # Llama 4 and SmolLM3: attention uses RoPE where config.no_rope_layers[i] is 1 (the config class fills the
        # list from no_rope_layer_interval when the file leaves it out or empty)
        uses_rope = [bool(x) for x in getattr(text, "no_rope_layers", None) or [1] * n_layers]
        if model_type in ROPE_ONLY_IN:
            uses_rope = [t == ROPE_ONLY_IN[model_type] for t in text.layer_types]
        for i in range(n_layers):
            if not uses_rope[i]:
                out["nope_layers"].append(i)
                continue
            if model_type in PER_LAYER_TYPE:  # Gemma3 and ModernBert rotary classes keep one table per layer type
                kind = text.layer_types[i]
                inv_freq = getattr(rotary, f"{kind}_inv_freq")
                factor = getattr(rotary, f"{kind}_attention_scaling")
            else:
                inv_freq, factor = rotary.inv_freq, rotary.attention_scaling
            out["layers"][i] = {"inv_freq": _floats(inv_freq), "attention_factor": float(factor)}
    elif model_type == "gptj":
        # GPT-J's rotary class holds a sin|cos table over positions (rotary_dim wide, theta 10000 in the code);
        # its row 1 is (sin w, cos w) for every speed w, and w <= 1 rad, so atan2 gives w back exactly enough
        from transformers.models.gptj.modeling_gptj import GPTJRotaryEmbedding

        table = GPTJRotaryEmbedding(text).embed_positions
        half = table.shape[-1] // 2
        inv_freq = torch.atan2(table[1, :half].double(), table[1, half:].double())
        out["layers"] = [{"inv_freq": _floats(inv_freq), "attention_factor": 1.0} for _ in range(n_layers)]
    elif model_type == "bloom":
        from transformers.models.bloom.modeling_bloom import build_alibi_tensor

        # alibi[h, 0, j] = slope_h * j for an all-ones mask, so j = 1 gives the slope
        out["alibi_slopes"] = _floats(build_alibi_tensor(torch.ones(1, 2), text.n_head, torch.float32)[:, 0, 1])
    elif model_type == "mpt" and text.attn_config.alibi:
        from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

        # alibi[h, 0, j] = slope_h * (j - (n - 1)), so j = 0 with n = 2 gives -slope; MPT honours alibi_bias_max
        alibi = build_mpt_alibi_tensor(text.n_heads, 2, alibi_bias_max=text.attn_config.alibi_bias_max)
        out["alibi_slopes"] = _floats(-alibi[:, 0, 0])
    del built
    return out


def lesson_gallery(config: dict) -> dict:
    """The lesson's card for one config, in transformers_gallery()'s per-layer shape (its rope groups expanded to
    the layers they name; a layer no group names has no RoPE)."""
    from lessons.model_card import explain
    from modelcard.report import card_json

    card = card_json(explain(copy.deepcopy(config)))
    n_layers = max([i + 1 for group in card["rope"] for i in group["layers"]] + card["nope_layers"] + [0])
    layers: list = [None] * n_layers
    for group in card["rope"]:
        for i in group["layers"]:
            layers[i] = {"inv_freq": list(group["inv_freq"]), "attention_factor": group["attention_factor"]}
    return {"layers": layers, "nope_layers": list(card["nope_layers"]), "alibi_slopes": card["alibi_slopes"]}


def gallery_mismatches(got: dict, want: dict, rtol: float = 1e-5) -> list[str]:
    """What differs between the lesson's per-layer answer and transformers' (empty when they agree)."""
    problems = []
    got_layers = list(got["layers"]) + [None] * max(0, len(want["layers"]) - len(got["layers"]))
    if len(got_layers) > len(want["layers"]) and any(got_layers[len(want["layers"]):]):
        problems.append(f"the card names layers past the model's {len(want['layers'])}")
    for i, ref in enumerate(want["layers"]):
        mine = got_layers[i]
        if (ref is None) != (mine is None):
            problems.append(f"layer {i}: transformers {'skips RoPE' if ref is None else 'uses RoPE'}, the card "
                            f"{'does not say' if mine is None else 'gives RoPE'}")
        elif ref is not None:
            err = max(rel_err(mine["inv_freq"], ref["inv_freq"]),
                      rel_err([mine["attention_factor"]], [ref["attention_factor"]]))
            if err > rtol:
                problems.append(f"layer {i}: max relative error {err:.1e}")
    if sorted(got["nope_layers"]) != sorted(want["nope_layers"]):
        problems.append(f"nope_layers {got['nope_layers']} != {want['nope_layers']}")
    if (got["alibi_slopes"] is None) != (want["alibi_slopes"] is None):
        problems.append(f"alibi_slopes {got['alibi_slopes']} != {want['alibi_slopes']}")
    elif want["alibi_slopes"] is not None and rel_err(got["alibi_slopes"], want["alibi_slopes"]) > rtol:
        problems.append(f"alibi_slopes: max relative error {rel_err(got['alibi_slopes'], want['alibi_slopes']):.1e}")
    return problems
