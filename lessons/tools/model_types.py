"""The tables the model-card decoder reads: model types, class defaults, key spellings, the gallery.

Each table says which transformers 5.24 file (or, for remote-code families, which
engine file) it was read from. `lessons.model_card` reads a config with them;
the page's in-browser decoder (modelcard/web/model_card.js) gets the same
tables from the JSON the site build writes (`modelcard.data.browser_tables`), so each lives
here once.
"""

from __future__ import annotations

import json
from pathlib import Path

from lessons import _checks

CARD_SCHEMES = ("rope", "alibi", "learned", "sinusoidal", "none", "mixed")

# Model types whose position scheme is fixed by the architecture, not by a key
# (each read from the model's modeling file in transformers 5.24).
ALIBI_MODEL_TYPES = ("bloom",)
LEARNED_MODEL_TYPES = ("gpt2", "gpt_neo", "gpt_bigcode", "opt", "bert", "roberta", "xlm-roberta", "distilbert",
                       "electra", "bart", "whisper")
SINUSOIDAL_MODEL_TYPES = ("marian", "fsmt", "m2m_100", "speech_to_text")
ROPE_MODEL_TYPES = ("llama", "llama4", "llama4_text", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3",
                    "qwen3_moe", "qwen2_vl", "qwen2_5_vl", "gemma", "gemma2", "gemma3", "gemma3_text", "phi",
                    "phi3", "deepseek_v2", "deepseek_v3", "gpt_oss", "smollm3", "gpt_neox", "gptj", "falcon",
                    "olmo", "olmo2", "stablelm", "starcoder2", "cohere", "granite", "internlm2",
                    "cohere2", "qwen3_next", "modernbert", "glm", "glm4", "chatglm")
# Families whose RoPE turns adjacent dimensions (x[2i], x[2i+1]) instead of the two halves of the head:
# GPT-J's layout (lessons.rope). Read in transformers 5.24's modeling files (rotate_half over x[..., ::2]
# in cohere, cohere2, glm, glm4; gptj's rotate_every_two; DeepSeek-V2's view_as_complex and V3's
# rope_interleave, default true) and, for ChatGLM (remote code), in vLLM 0.33.0's
# model_executor/models/chatglm.py (is_neox_style = not config.original_rope).
INTERLEAVED_MODEL_TYPES = ("gptj", "cohere", "cohere2", "glm", "glm4", "chatglm", "deepseek_v2", "deepseek_v3")

# The RoPE base a config class uses when the config has no rope_theta
# (`default_theta` in transformers 5.24 configuration_<model>.py; 10,000 for the rest).
# The wrapper types (gemma3, llama4, qwen2_5_vl) are the text class's base, for a file published flat;
# `make reference` checks every RoPE type here against its class (tests/reference/_config_classes_reference.py).
DEFAULT_THETA = {"llama4_text": 500000.0, "llama4": 500000.0, "qwen2_vl": 1000000.0, "qwen2_vl_text": 1000000.0,
                 "qwen2_5_vl": 1000000.0, "gemma3_text": 1000000.0, "gemma3": 1000000.0, "gpt_oss": 150000.0,
                 "smollm3": 2000000.0, "mixtral": 1000000.0, "cohere": 500000.0}
# Position keys a published config may leave to its config class (transformers 5.24 defaults).
CLASS_DEFAULTS = {
    "gemma3_text": {"head_dim": 256, "max_position_embeddings": 131072, "rope_local_base_freq": 10000.0,
                    "sliding_window_pattern": 6},
    "gemma2": {"head_dim": 256, "max_position_embeddings": 8192},
    "gpt_oss": {"head_dim": 64, "sliding_window": 128, "max_position_embeddings": 131072},
    "llama4_text": {"head_dim": 128, "no_rope_layer_interval": 4},
    "smollm3": {"no_rope_layer_interval": 4},
    "gpt_neox": {"rotary_pct": 0.25},
    "gptj": {"rotary_dim": 64},
    # transformers 5.24: configuration_cohere2.py, configuration_qwen3_next.py, configuration_modernbert.py
    "cohere2": {"sliding_window": 4096, "max_position_embeddings": 8192},
    "qwen3_next": {"partial_rotary_factor": 0.25, "max_position_embeddings": 32768},
    # configuration_qwen3_5.py, configuration_qwen3_5_moe.py (setdefault in __post_init__), recurrent_gemma's
    "qwen3_5_text": {"partial_rotary_factor": 0.25, "max_position_embeddings": 32768},
    "qwen3_5_moe_text": {"partial_rotary_factor": 0.25, "max_position_embeddings": 32768},
    "recurrent_gemma": {"partial_rotary_factor": 0.5},
    "modernbert": {"max_position_embeddings": 8192, "global_rope_theta": 160000.0, "local_rope_theta": 10000.0,
                   "local_attention": 128},
    # configuration_glm.py, configuration_glm4.py: half of each head turns unless the file says otherwise
    "glm": {"head_dim": 128, "max_position_embeddings": 131072, "partial_rotary_factor": 0.5},
    "glm4": {"head_dim": 128, "max_position_embeddings": 131072, "partial_rotary_factor": 0.5},
    # ChatGLM3 and GLM-4-9B-chat (remote code, as vLLM 0.33.0's models/chatglm.py reads it): half of
    # each kv_channels-wide head turns, base 10,000 × rope_ratio, length seq_length (8,192 when absent)
    "chatglm": {"seq_length": 8192},
}

# Where a model's authors stretch from a length other than the config's: {model_type: (the config length it
# applies to, the original length for the added YaRN block, where the authors say so)}. Qwen3's model cards
# set max_position_embeddings to 40,960 (32,768 for output plus 8,192 for the prompt) and add YaRN as
# factor 4 over original_max_position_embeddings 32,768 ("Processing Long Texts", Qwen/Qwen3-30B-A3B README).
AUTHOR_YARN_ORIGINAL = {t: (40960, 32768, "as the Qwen3 model card's section Processing Long Texts says")
                        for t in ("qwen3", "qwen3_moe")}

def yarn_original(card) -> tuple[int, str | None]:
    """The length an added YaRN block stretches from: the trained length, unless the model's authors name
    another for this config (`AUTHOR_YARN_ORIGINAL`); and where they do (None: the trained length)."""
    rule = AUTHOR_YARN_ORIGINAL.get(card.model_type)
    if rule and card.max_length == rule[0]:
        return rule[1], rule[2]
    return card.trained_length, None



# Families whose layer plan repeats (transformers 5.24 configuration files): every n-th layer is full
# attention, counting from 1 (offset 1) or from layer 0 (offset 0), the others of the named type; n is
# the key's value, else the default. Gemma 2 and gpt-oss alternate; Cohere2Config sliding_window_pattern 4;
# Qwen3NextConfig full_attention_interval 4; ModernBertConfig global_attn_every_n_layers 3; Gemma 3 6.
PERIODIC_LAYERS = {"gemma2": (None, 2, 1, "sliding_attention"), "gpt_oss": (None, 2, 1, "sliding_attention"),
                   "cohere2": ("sliding_window_pattern", 4, 1, "sliding_attention"),
                   "qwen3_next": ("full_attention_interval", 4, 1, "linear_attention"),
                   "modernbert": ("global_attn_every_n_layers", 3, 0, "sliding_attention"),
                   "gemma3_text": ("sliding_window_pattern", 6, 1, "sliding_attention"),
                   # hybrids whose other layers are linear attention: MiniMaxConfig alternates from a full layer 0
                   # (configuration_minimax.py); Qwen3.5 keeps Qwen3-Next's full_attention_interval 4
                   "minimax": (None, 2, 0, "linear_attention"),
                   "qwen3_5_text": ("full_attention_interval", 4, 1, "linear_attention"),
                   "qwen3_5_moe_text": ("full_attention_interval", 4, 1, "linear_attention")}

# Layers with no attention and no RoPE, whatever the family: linear attention (Qwen3-Next's and Qwen3.5's Gated
# DeltaNet; MiniMax's lightning attention, whose forward takes position_embeddings and never reads them,
# modeling_minimax.py) and LFM2's short convolutions (modeling_lfm2.py: a "conv" layer has no attention), with
# what the report says of them.
NO_ROPE_LAYER_TYPES = {"linear_attention": "linear attention, no RoPE (order comes from its recurrence), in layers ",
                       "conv": "short convolutions, no RoPE (order comes from the convolution), in layers "}
# The old names of layer types that every transformers 5.24 config class renames when it loads a file
# (configuration_utils.py, _LEGACY_LAYER_TYPE_REMAP, applied in PreTrainedConfig's post-init): Granite 4.0-H's,
# Zamba's and Nemotron-H's "mamba" layers are linear attention, their "attention" layers full attention.
LEGACY_LAYER_TYPES = {"mamba": "linear_attention", "attention": "full_attention",
                      "deepseek_sparse_attention": "indexed_attention", "qwen_sparse_attention": "indexed_attention"}
# Hybrid plans given under a key of the family's own, as {key: (layer type of a listed layer, of the others,
# how the key lists them)}: "codes" gives one code per layer, 1 = softmax attention, 0 = linear attention
# (MiniMax-Text-01's and MiniMax-M1's remote-code attn_type_list, as vLLM 0.33.0 still counts it in
# vllm/config/model.py, get_num_layers_by_block_type, though its registry serves neither model since 0.23.0;
# transformers 5.24's MiniMaxConfig reads only layer_types);
# "indices" lists the attention layers (Lfm2Config full_attn_idxs, the others "conv", every layer attention when
# absent; BambaConfig attn_layer_indices, the others Mamba, "linear_attention" in transformers 5.24).
# "indices1" the same counted from 1 (Kimi-Linear's linear_attn_config.full_attn_layers, configuration_kimi_linear.py);
# "cycle" a pattern repeated over the layers, "attention" its attention blocks (RecurrentGemmaConfig block_types:
# the others recurrent, linear attention; its attention blocks slide). LISTED_DEFAULTS: what the class puts
# there when the file has nothing (Bamba: every layer Mamba; RecurrentGemma: recurrent, recurrent, attention).
LISTED_LAYERS = {"attn_type_list": ("full_attention", "linear_attention", "codes"),
                 "full_attn_idxs": ("full_attention", "conv", "indices"),
                 "attn_layer_indices": ("full_attention", "linear_attention", "indices"),
                 "linear_attn_config.full_attn_layers": ("full_attention", "linear_attention", "indices1"),
                 "block_types": ("sliding_attention", "linear_attention", "cycle")}
LISTED_DEFAULTS = {"bamba": {"attn_layer_indices": []},
                   "recurrent_gemma": {"block_types": ["recurrent", "recurrent", "attention"]}}
# Families whose attention layers turn only when a key says so, {model_type: (key, the value that turns them;
# None: never)} (transformers 5.24 modeling files): GraniteMoeHybrid builds rotary_emb only for
# position_embedding_type "rope", Zamba2 only with use_mem_rope (default false), Kimi-Linear never (its
# modeling file has no rotary embedding: its MLA layers run without positions).
ROPE_ONLY_WHEN = {"granitemoehybrid": ("position_embedding_type", "rope"), "zamba2": ("use_mem_rope", True),
                  "kimi_linear": (None, None)}


def rope_switched_off(text: dict) -> bool:
    """Does a key of this family (`ROPE_ONLY_WHEN`) leave every layer without RoPE?"""
    rule = ROPE_ONLY_WHEN.get(text["model_type"]) if isinstance(text.get("model_type"), str) else None
    return rule is not None and (rule[0] is None or text.get(rule[0]) != rule[1])


def periodic_layer_types(text: dict, n_layers: int) -> list[str] | None:
    """Each layer's attention type for a family of `PERIODIC_LAYERS` (every n-th layer full attention,
    n from the family's key or its default), as its config class fills it in; None for any other family."""
    if text.get("model_type") not in PERIODIC_LAYERS:
        return None
    key, every, offset, other = PERIODIC_LAYERS[text["model_type"]]
    every = _checks.count(text.get(key, every), key) if key else every
    return [other if (i + offset) % every else "full_attention" for i in range(n_layers)]


def listed_layer_types(text: dict, n_layers: int) -> list[str] | None:
    """Each layer's attention type from a `LISTED_LAYERS` key (MiniMax's attn_type_list, LFM2's full_attn_idxs,
    Bamba's attn_layer_indices), or None when the config has none of them."""
    for key, (listed, other, form) in LISTED_LAYERS.items():
        outer, _, inner = key.partition(".")
        family = text.get("model_type") if isinstance(text.get("model_type"), str) else None
        given = text.get(outer, LISTED_DEFAULTS.get(family, {}).get(outer))
        if inner and isinstance(given, dict):
            given = given.get(inner)
        elif inner:
            given = None
        if given is None:
            continue
        if form == "cycle":
            if not isinstance(given, list) or not given or not all(isinstance(v, str) for v in given):
                raise ConfigError(f"'{key}' must be a list of block names; got {given!r}")
            return [listed if given[i % len(given)] == "attention" else other for i in range(n_layers)]
        if not isinstance(given, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in given):
            raise ConfigError(f"'{key}' must be a list of integers; got {given!r}")
        if form == "codes":
            if len(given) != n_layers or set(given) - {0, 1}:
                raise ConfigError(f"'{key}' needs a 1 (softmax attention) or 0 (linear attention) for each"
                                          f" of the {n_layers} layers; got {given!r}")
            return [listed if code else other for code in given]
        start = 1 if form == "indices1" else 0
        if any(not start <= i < n_layers + start for i in given):
            raise ConfigError(f"'{key}' lists layer indices outside {start}..{n_layers - 1 + start}: {given!r}")
        return [listed if i + start in given else other for i in range(n_layers)]
    return None

# Spellings of one idea across model families: the first one present wins.
LAYER_KEYS = ("num_hidden_layers", "n_layer", "n_layers", "num_layers")
WIDTH_KEYS = ("hidden_size", "n_embd", "n_embed", "d_model")
HEAD_KEYS = ("num_attention_heads", "n_head", "n_heads")
LENGTH_KEYS = ("max_position_embeddings", "n_positions", "max_seq_len", "seq_length", "n_ctx")

# How transformers 5.24's config classes read a file, which is what the engines then read (they load the config
# object, not the raw JSON). LENGTH_ALIASES: the model types whose class maps max_position_embeddings to
# another key (`attribute_map` in models/<type>/configuration_<type>.py: GPT2Config's n_positions).
# NESTED_WHEN_FLAT: the vision-language types whose class moves a flat file's text keys into text_config
# (`__post_init__` of Qwen2VLConfig and Qwen2_5_VLConfig), where both engines read them. `make reference`
# checks both against the live classes (tests/reference/_config_classes_reference.py).
LENGTH_ALIASES = {"bailing_hybrid": "model_max_length", "codegen": "n_positions", "ctrl": "n_positions",
                  "dbrx": "max_seq_len", "decision_transformer": "n_positions", "gpt2": "n_positions",
                  "gpt-sw3": "n_positions",  # CONFIG_MAPPING's gpt-sw3 is GPT2Config
                  "gpt_bigcode": "n_positions", "gptj": "n_positions", "imagegpt": "n_positions",
                  "kimi_linear": "model_max_length", "openai-gpt": "n_positions", "rwkv": "context_length"}
NESTED_WHEN_FLAT = ("qwen2_vl", "qwen2_5_vl")


def text_nested(config: dict) -> bool:
    """Does transformers keep the language model's keys under text_config (in the file, or NESTED_WHEN_FLAT)?"""
    return isinstance(config.get("text_config"), dict) or config.get("model_type") in NESTED_WHEN_FLAT


def architectures(config: dict) -> tuple[str, ...]:
    """The config's `architectures` (the wrapper's, for a vision-language model): what registries are keyed on."""
    names = config.get("architectures")
    return tuple(a for a in names if isinstance(a, str)) if isinstance(names, list) else ()


class ConfigError(ValueError):
    """A config that cannot be read: its message is one line that says why."""


def first_set(config: dict, keys: tuple[str, ...]):
    """(key, value) of the first of `keys` the config sets (not None), else (None, None)."""
    for key in keys:
        if config.get(key) is not None:
            return key, config[key]
    return None, None


GALLERY_DIR = Path(__file__).resolve().parents[1] / "gallery"


def gallery() -> dict[str, dict]:
    """The gallery of real configs: {slug: {"name", "repo", "read_from", "secondary", "note", "config"}}."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(GALLERY_DIR.glob("*.json"))}
