"""lessons.tools.model_types' readings of transformers' config classes, checked against the live classes:
LENGTH_ALIASES (the model types whose class answers max_position_embeddings with another key, its
attribute_map), NESTED_WHEN_FLAT (the vision-language types whose class moves a flat file's text keys
into text_config), the class defaults a published config may leave out (CLASS_DEFAULTS, DEFAULT_THETA)
and the repeating layer plans (PERIODIC_LAYERS). Run by check_live.py under `make reference`."""

from __future__ import annotations

from lessons.tools.model_types import (CLASS_DEFAULTS, DEFAULT_THETA, LENGTH_ALIASES, NESTED_WHEN_FLAT, PERIODIC_LAYERS, listed_layer_types,
                                       LEGACY_LAYER_TYPES,
                                       ROPE_MODEL_TYPES, periodic_layer_types)

# Keys CLASS_DEFAULTS names as a published file spells them, which transformers 5 standardizes into
# rope_parameters: (the layer type whose block holds it, or None for one block; the block's key).
STANDARDIZED = {"rotary_pct": (None, "partial_rotary_factor"), "partial_rotary_factor": (None, "partial_rotary_factor"),
                "rope_local_base_freq": ("sliding_attention", "rope_theta"),
                "global_rope_theta": ("full_attention", "rope_theta"),
                "local_rope_theta": ("sliding_attention", "rope_theta")}
# Remote-code families (no transformers class; their defaults are read in vLLM's model file, see model_types),
# and GPT-J, whose config has no rope_parameters: modeling_gptj.py create_sinusoidal_positions fixes 10,000.
NO_CLASS_CHECK = ("chatglm", "internlm2", "gptj")


def _text(config):
    return getattr(config, "text_config", None) or config


def _class_value(text, key: str):
    """The value the live config object gives for a CLASS_DEFAULTS key (see STANDARDIZED)."""
    if key in STANDARDIZED:
        layer_type, inner = STANDARDIZED[key]
        block = text.rope_parameters or {}
        return (block.get(layer_type) or {}).get(inner) if layer_type else block.get(inner)
    if key == "sliding_window_pattern":  # 5.24 stores the plan as layer_types: the period of its full layers
        full = [i for i, kind in enumerate(text.layer_types) if kind == "full_attention"]
        return full[1] - full[0] if len(full) > 1 else None
    return getattr(text, key, None)


def _class_theta(text):
    block = text.rope_parameters or {}
    return block["rope_theta"] if "rope_theta" in block else (block.get("full_attention") or {}).get("rope_theta")


def class_defaults_check(AutoConfig, known) -> list[str]:
    """CLASS_DEFAULTS, DEFAULT_THETA (10,000 for a RoPE type it does not list) and PERIODIC_LAYERS against
    the classes' defaults (a config built from no keys at all)."""
    problems = []
    for model_type, defaults in CLASS_DEFAULTS.items():
        if model_type in NO_CLASS_CHECK:
            continue
        text = _text(AutoConfig.for_model(model_type))
        for key, value in defaults.items():
            if _class_value(text, key) != value:
                problems.append(f"CLASS_DEFAULTS[{model_type!r}][{key!r}] is {value}, the class gives "
                                f"{_class_value(text, key)}")
    for model_type in sorted(set(ROPE_MODEL_TYPES) | set(DEFAULT_THETA)):
        if model_type in NO_CLASS_CHECK or model_type not in known or model_type == "modernbert":
            continue  # modernbert: its two bases are CLASS_DEFAULTS' global and local rope_theta
        got, want = _class_theta(_text(AutoConfig.for_model(model_type))), DEFAULT_THETA.get(model_type, 10000.0)
        if got != want:
            problems.append(f"DEFAULT_THETA gives {model_type!r} {want}, the class {got}")
    for model_type in PERIODIC_LAYERS:
        text = _text(AutoConfig.for_model(model_type))
        if list(text.layer_types) != periodic_layer_types({"model_type": model_type}, text.num_hidden_layers):
            problems.append(f"PERIODIC_LAYERS[{model_type!r}] does not give the class's layer_types")
    from transformers import configuration_utils  # the old layer-type names every class renames on load
    if LEGACY_LAYER_TYPES != configuration_utils._LEGACY_LAYER_TYPE_REMAP:
        problems.append(f"LEGACY_LAYER_TYPES is not transformers' {configuration_utils._LEGACY_LAYER_TYPE_REMAP}")
    # LISTED_LAYERS: the families whose class reads an index list (LFM2, Bamba), each given layers 1 and 3 of 6
    # (MiniMax's attn_type_list is remote code: no class here reads it)
    for model_type, key, value in (("lfm2", "full_attn_idxs", [1, 3]), ("bamba", "attn_layer_indices", [1, 3]),
                                   ("bamba", "attn_layer_indices", None), ("recurrent_gemma", "block_types", None),
                                   ("recurrent_gemma", "block_types", ["recurrent", "attention"]),
                                   ("kimi_linear", "linear_attn_config", {"full_attn_layers": [2, 6],
                                                                          "kda_layers": [1, 3, 4, 5]})):
        given = {} if value is None else {key: value}
        config = AutoConfig.for_model(model_type, num_hidden_layers=6, **given)
        types = getattr(config, "layers_block_type", None) if model_type in ("bamba", "recurrent_gemma") else None
        types = list(types or _text(config).layer_types)
        if types != listed_layer_types({"model_type": model_type, **given}, 6):
            problems.append(f"LISTED_LAYERS/LISTED_DEFAULTS do not give {model_type}'s layer plan for {given}: {types}")
    return problems


def live_check() -> list[str]:
    """Problems, empty when every table is what transformers' installed config classes do."""
    from transformers import AutoConfig
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    problems, found = [], {}
    for model_type in CONFIG_MAPPING:
        try:
            cls = CONFIG_MAPPING[model_type]
        except Exception:  # noqa: BLE001 - a class that needs an extra package
            continue
        target = getattr(cls, "attribute_map", {}).get("max_position_embeddings")
        if target:
            found[model_type] = target
    if found != LENGTH_ALIASES:
        problems.append(f"LENGTH_ALIASES differs from the live attribute_maps: "
                        f"{sorted(set(found.items()) ^ set(LENGTH_ALIASES.items()))}")
    for model_type in NESTED_WHEN_FLAT:
        config = AutoConfig.for_model(model_type, max_position_embeddings=1234, rope_theta=5000.0)
        text = getattr(config, "text_config", None)
        if getattr(text, "max_position_embeddings", None) != 1234:
            problems.append(f"{model_type}: a flat max_position_embeddings does not land in text_config")
    return problems + class_defaults_check(AutoConfig, set(CONFIG_MAPPING))
