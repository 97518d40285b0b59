"""The decoder's transformers-exact details: its input checks, its warnings, and the family quirks.

`lessons.model_card` teaches the reading of a config; the checks here make it refuse,
with a one-line `ConfigError`, what transformers 5.24 would refuse or misread
(contradicting spellings, a malformed RoPE block, a layer plan that does not add up),
and collect the warnings its report prints. The family rules the page does not walk
through (MPT's ALiBi slopes, DeepSeek's split head, the sliding window some families
switch off) live here too. This module imports no lesson, so the lesson can use it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np

from lessons import _checks
from lessons.context_extension import rope_type_of
from lessons.tools.rope_scaling import rope_inv_freq, split_by_layer_type
from lessons.tools.model_types import HEAD_KEYS, WIDTH_KEYS, ConfigError, first_set

ROPE_SPELLINGS = {"rope_theta": ("rope_theta", "rotary_emb_base"),
                  "partial_rotary_factor": ("partial_rotary_factor", "rotary_pct")}


def number(value) -> bool:
    """A finite real number (not a bool)."""
    return _checks._is_real(value) and math.isfinite(value)


def check_config(config) -> None:
    """A config is a JSON object, and so is its `text_config` when it has one."""
    if not isinstance(config, dict):
        raise ConfigError(f"a config is a JSON object, got {type(config).__name__}")
    text = config.get("text_config")
    if text is not None and not isinstance(text, dict):
        raise ConfigError("'text_config' must be a JSON object")


def check_rope_keys(text: dict) -> None:
    """The RoPE keys agree with each other: one block (`rope_parameters` or `rope_scaling`, equal when
    both are set) that is a JSON object, each spelling of ROPE_SPELLINGS a number, and the spellings
    of one idea the same number."""
    new, old = text.get("rope_parameters"), text.get("rope_scaling")
    if new is not None and old is not None and new != old:
        raise ConfigError("'rope_parameters' and 'rope_scaling' are both set and differ; keep one")
    block = new if new is not None else old
    if block is not None and not isinstance(block, dict):
        raise ConfigError(f"'rope_scaling' must be a JSON object or null, got {type(block).__name__}")
    for spellings in ROPE_SPELLINGS.values():
        found = {key: text[key] for key in spellings if text.get(key) is not None}
        for key, value in found.items():
            if not _checks._is_real(value):
                raise ConfigError(f"{key!r} must be a number, got {value!r}")
        if len(set(map(float, found.values()))) > 1:
            raise ConfigError(f"{' and '.join(f'{k!r} = {v}' for k, v in found.items())} contradict each other")


def check_ratio(ratio) -> None:
    """ChatGLM's `rope_ratio` is a positive number."""
    if not number(ratio) or not ratio > 0:
        raise ConfigError(f"'rope_ratio' must be a positive number, got {ratio!r}")


def check_rotary_dim(top: dict, rotary_dim, partial: float) -> None:
    """GPT-J's `rotary_dim` and a stated partial rotary factor say the same share of the head."""
    if "partial_rotary_factor" in top and not math.isclose(top["partial_rotary_factor"], partial):
        raise ConfigError(f"'rotary_dim' {rotary_dim} and a partial rotary factor "
                          f"{top['partial_rotary_factor']} contradict each other")


def check_folded(part: dict, top: dict) -> None:
    """A top-level RoPE key and the block's own value of it agree."""
    for key, value in top.items():
        if key in part and part[key] is not None and part[key] != value:
            raise ConfigError(f"top-level {key!r} = {value} and the RoPE block's {part[key]} contradict each other")


def check_head_keys(width_key, width, heads_key, heads) -> tuple[int, int]:
    """(width, heads) as counts; both present, and the width a multiple of the head count."""
    if width is None or heads is None:
        raise ConfigError("the config gives no head width: it needs 'head_dim', or a hidden size "
                          f"({' / '.join(WIDTH_KEYS)}) and a head count ({' / '.join(HEAD_KEYS)})")
    width, heads = _checks.count(width, width_key), _checks.count(heads, heads_key)
    if width % heads:
        raise ConfigError(f"{width_key} {width} is not a multiple of {heads_key} {heads}")
    return width, heads


def check_scheme(text: dict, block: dict | None, alibi: bool | None) -> None:
    """The scheme's keys do not contradict each other: ALiBi with RoPE keys (Falcon excepted: its
    rotary keys stay in the file when alibi is on), a `position_embedding_type` this decoder does not
    read, or a learned table ("absolute") with RoPE keys."""
    kind = text.get("position_embedding_type")
    if text.get("model_type") in ("modernbert", "granitemoehybrid"):  # granitemoehybrid: "rope" turns, else none
        return
    if alibi:
        if block is not None and text.get("model_type") not in ("falcon",):
            raise ConfigError("the config turns on ALiBi and also sets RoPE keys; a model uses one or the other")
        return
    if kind is not None and kind not in ("absolute", "rotary", "rope_gptj", "alibi"):
        raise ConfigError(f"position_embedding_type {kind!r} is not one this decoder reads "
                          "(it reads absolute, rotary, rope_gptj, alibi)")
    if kind == "absolute" and block is not None:
        raise ConfigError("position_embedding_type 'absolute' (a learned table) and RoPE keys contradict each other")


def no_scheme(model_type) -> ConfigError:
    """The error for a config that names no position scheme."""
    return ConfigError("the config has no position information: no RoPE key (rope_theta, rope_scaling, "
                       "rope_parameters, rotary_*), no ALiBi flag, no position_embedding_type, and a model_type "
                       f"({model_type!r}) whose scheme this decoder does not know")


def check_block(params: dict) -> None:
    """Values a RoPE block needs before any arithmetic: a base above 1 (a base of 1
    or less does not slow the pairs down), positive band edges, an original
    length of at least 2 (YaRN and LongRoPE take its logarithm)."""
    theta = params.get("rope_theta")
    if not number(theta) or not theta > 1:
        raise ConfigError(f"rope_theta must be a number greater than 1, got {theta!r}")
    for key in ("low_freq_factor", "high_freq_factor"):
        if key in params and not (number(params[key]) and params[key] > 0):
            raise ConfigError(f"rope '{key}' must be a positive number, got {params[key]!r}")
    original = params.get("original_max_position_embeddings")
    if original is not None and not (number(original) and original == int(original) and original >= 2):
        raise ConfigError(f"original_max_position_embeddings must be an integer >= 2, got {original!r}")


def recorded(compute: Callable, caught: list[str]):
    """`compute()`, with the warnings it raises added once each to `caught` (their text without
    the note that transformers warns too)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = compute()
    for w in seen:
        message = str(w.message).replace(" (transformers 5.24 warns too and goes on)", "")
        if message not in caught:
            caught.append(message)
    return result


def check_groups(name: str, types: list[str] | None) -> None:
    """A RoPE block entry for a layer type needs a layer plan with that type."""
    if types is None:
        raise ConfigError("the RoPE block is split by layer type but the config gives no layer count")
    if name not in types:
        raise ConfigError(f"the RoPE block has a '{name}' entry but no layer has that type")


def check_every_layer_typed(types: list[str] | None, blocks: dict | None, skipped: list[int]) -> None:
    """Every rotary layer's type has an entry in a block split by layer type."""
    if types is not None and blocks is not None:
        for i, t in enumerate(types):
            if t not in blocks and i not in skipped:
                raise ConfigError(f"layer {i} has type '{t}' but the RoPE block has no entry for it")


def card_warnings(scheme: str, groups, trained: int | None, max_length: int | None, stated: bool) -> list[str]:
    """What to look at before serving: dynamic scaling's moving base, a linear or LongRoPE factor that is
    not the length ratio (the llama3 rule's factor is not a length ratio by design: Llama 3.1 divides its
    slow waves by 8 and claims 16 times its trained length, lessons.context_extension), a claimed length
    past the trained one with no scaling entry, an unstated trained length."""
    out = []
    for group in groups:
        if group.rope_type == "dynamic":
            out.append("dynamic scaling: transformers changes θ with the sequence length, so keys cached at one "
                       "length were rotated with another base; vLLM 0.33.0 computes one base at start-up, and "
                       "without max_trained_positions it is the trained base for every prompt, in a table of "
                       "max_position_embeddings rows though it derives factor times more "
                       "(dynamic_ntk_scaling_rope.py); SGLang 0.5.23 builds factor × max_position_embeddings rows "
                       "with one larger base, θ·(f² − f + 1)^(d/(d − 2)), for every prompt (rope_variant.py; "
                       "see lessons.context_extension)")
        factor = group.parameters.get("factor")
        if (group.rope_type in ("linear", "longrope") and factor and trained and max_length
                and "original_max_position_embeddings" in group.parameters
                and not math.isclose(max_length / trained, factor)):
            out.append(f"rope 'factor' {factor:g} differs from max_position_embeddings / "
                       f"original_max_position_embeddings = {max_length / trained:g}")
    if scheme in ("rope", "mixed") and trained and max_length and max_length > trained and all(
            g.rope_type == "default" for g in groups):
        out.append(f"the config claims {max_length:,} positions but trained at {trained:,} and has no scaling "
                   "entry: positions past the trained length turn angles the model never saw")
    if trained and not stated:
        out.append(f"the config does not say how long the model was trained: its limit, {trained:,}, stands in "
                   "for the trained length; the model may have trained on shorter inputs")
    return out


def alibi_heads(text: dict) -> int:
    """The head count an ALiBi config needs for its slopes."""
    _, heads = first_set(text, HEAD_KEYS)
    if heads is None:
        raise ConfigError(f"an ALiBi config needs a head count ({' / '.join(HEAD_KEYS)})")
    return _checks.count(heads, "n_heads")


def mpt_slopes(text: dict, slopes: np.ndarray) -> np.ndarray:
    """MPT's generalised slopes 2^(-bias_max·h/n) when `attn_config.alibi_bias_max` is not 8, else `slopes`."""
    attn = text.get("attn_config") or {}
    bias_max = attn.get("alibi_bias_max", 8) if isinstance(attn, dict) else 8
    if bias_max == 8:
        return slopes
    n = len(slopes)
    if n & (n - 1):
        raise ConfigError("alibi_bias_max other than 8 with a head count that is not a power of two is "
                          "not read by this decoder")
    return 2.0 ** (-bias_max * np.arange(1, n + 1) / n)


def served_window(text: dict) -> int | None:
    """The sliding window the model uses: none for Qwen2 and SmolLM3 unless `use_sliding_window`;
    ModernBERT's whole `local_attention` window (half on each side: it sees both ways)."""
    window = text.get("sliding_window")
    if text.get("model_type") in ("qwen2", "qwen2_vl", "qwen2_vl_text", "smollm3") and not text.get("use_sliding_window"):
        window = None
    if text.get("model_type") == "modernbert":
        window = _checks.count(text.get("local_attention", 128), "local_attention")
    return window


def qk_width(text: dict) -> int | None:
    """The query and key width of DeepSeek's split head (qk_nope_head_dim + qk_rope_head_dim), else None."""
    split = [text.get("qk_rope_head_dim"), text.get("qk_nope_head_dim")]
    return sum(split) if all(_checks._is_int(v) for v in split) and split[0] >= 1 and split[1] >= 0 else None


def states_trained_length(scheme: str, block: dict | None) -> bool:
    """Does the config state the length its positions were trained at?

    Only a RoPE block's `original_max_position_embeddings` does (YaRN, LongRoPE, the Llama 3
    rule, Phi-3). Without it, the length `lengths` returns as trained is the config's limit
    standing in: a model may have trained on shorter inputs (Devlin et al., 2018, report
    pretraining BERT at 128 tokens for 90% of its steps, Appendix A.2, against 512 positions
    in its config), and Mistral 7B's config says 32,768 where its paper's Table 1 gives a
    context length of 8,192 (Jiang et al., 2023, arXiv:2310.06825).
    """
    if scheme not in ("rope", "mixed") or not block:
        return False
    blocks = [b for b in block.values() if isinstance(b, dict)] if split_by_layer_type(block) else [block]
    return any(b.get("original_max_position_embeddings") for b in blocks)


def multipliers(text: dict, groups: list, skipped: list[int], n_layers: int | None,
                softmax_multiplier: float | None) -> list[dict]:
    """Every factor a model puts on attention besides RoPE's angles, with the layers it acts in.

    Each is {"name", "value", "layers", "starts_at"}: `value` is a number when it is one for
    every position, a formula in the position p when it grows with p (then `starts_at` is the
    first position where it differs from 1), and None when it is learned (in the weights).
    Read in transformers 5.24: YaRN's and LongRoPE's attention factor (modeling_rope_utils.py,
    on cos and sin); DeepSeek's softmax multiplier mscale² (modeling_deepseek_v3.py); Llama 4's
    query temperature on its NoPE layers (modeling_llama4.py: 1 + attn_scale·ln(1 + ⌊(p + 1) /
    floor_scale⌋), when attn_temperature_tuning); Ministral 3's `llama_4_scaling_beta`
    (modeling_ministral3.py: 1 + β·ln(1 + ⌊p / original_max_position_embeddings⌋), every layer);
    gpt-oss's sinks (modeling_gpt_oss.py: one learned logit per head joins every softmax).
    """
    every = tuple(range(n_layers)) if n_layers is not None else ()
    out = []
    for g in groups:
        if g.attention_factor != 1:
            out.append({"name": f"{g.rope_type} attention factor (on cos and sin)", "value": g.attention_factor,
                        "layers": g.layers, "starts_at": None})
    if softmax_multiplier is not None:
        out.append({"name": "softmax scale multiplier (DeepSeek's mscale²)", "value": softmax_multiplier,
                    "layers": every, "starts_at": None})
    if text.get("model_type") == "llama4_text" and text.get("attn_temperature_tuning", True) and skipped:
        scale = _checks.positive(text.get("attn_scale", 0.1), "attn_scale")
        floor = _checks.count(text.get("floor_scale", 8192), "floor_scale")
        out.append({"name": "query temperature (Llama 4, NoPE layers)",
                    "value": f"1 + {scale:g}·ln(1 + floor((p + 1) / {floor}))", "layers": tuple(skipped),
                    "starts_at": floor - 1})
    beta = next((g.parameters.get("llama_4_scaling_beta") for g in groups
                 if g.parameters.get("llama_4_scaling_beta") is not None), None)
    if beta is not None:
        beta = _checks.positive(beta, "llama_4_scaling_beta")
        original = next((g.parameters.get("original_max_position_embeddings") for g in groups), None)
        if original is None:
            raise ConfigError("'llama_4_scaling_beta' needs original_max_position_embeddings in the RoPE block")
        out.append({"name": "query temperature (Ministral 3's llama_4_scaling_beta)",
                    "value": f"1 + {beta:g}·ln(1 + floor(p / {int(original)}))", "layers": every,
                    "starts_at": int(original)})
    if text.get("model_type") == "gpt_oss":
        out.append({"name": "attention sink (a learned logit per head in every softmax)", "value": None,
                    "layers": every, "starts_at": None})
    return out


def baichuan_rope(text: dict) -> bool:
    """Baichuan (remote code) has no position key: as SGLang 0.5.23 reads it (srt/models/baichuan.py,
    BaichuanForCausalLM), a hidden size of 4,096 is Baichuan 2 7B, which uses RoPE; every other
    size (13B) uses ALiBi."""
    return text.get("model_type") == "baichuan" and text.get("hidden_size") == 4096


def remote_code_rope(text: dict) -> dict:
    """The RoPE keys of the remote-code families whose files state none: ChatGLM (vLLM 0.33.0's
    models/chatglm.py: base 10,000 × `rope_ratio`, half of each head turns) and Baichuan 2 7B (10,000)."""
    chatglm = text.get("model_type") == "chatglm"
    if not chatglm and not baichuan_rope(text):
        return {}
    ratio = text.get("rope_ratio", 1.0) if chatglm else 1.0
    check_ratio(ratio)
    return {"rope_theta": 10000.0 * ratio, **({"partial_rotary_factor": 0.5} if chatglm else {})}


def rename_longrope(block: dict, text: dict) -> None:
    """The old names of LongRoPE ("su", and "yarn" in Phi-3 files) become "longrope", as transformers
    5.24's configuration_phi3.py renames them (vLLM 0.33.0 still knows "su")."""
    named = block.get("rope_type") or block.get("type")
    if named == "su" or (named == "yarn" and text.get("model_type") == "phi3"):
        block["rope_type"] = "longrope"


def check_alibi(said: list[bool]) -> None:
    """The config's ALiBi keys do not both turn it on and off."""
    if len(set(said)) > 1:
        raise ConfigError("the config both turns ALiBi on and off (model_type, attn_config.alibi, alibi, "
                          "position_embedding_type)")


def two_bases(text: dict, params: dict) -> list[tuple[str, dict]] | None:
    """The (layer type, RoPE block) pairs of the families whose local layers have their own base
    (Gemma 3: `rope_local_base_freq`, no scaling; ModernBERT: global and local bases), else None."""
    if text.get("model_type") == "gemma3_text":
        return [("full_attention", params),
                ("sliding_attention", {"rope_type": "default", "rope_theta": text.get("rope_local_base_freq", 10000.0)})]
    if text.get("model_type") == "modernbert":
        return [("full_attention", {**params, "rope_theta": text.get("global_rope_theta", 160000.0)}),
                ("sliding_attention", {**params, "rope_theta": text.get("local_rope_theta", 10000.0)})]
    return None


def rope_speeds(head_dim: int, params: dict, max_length: int | None, caught: list[str]) -> tuple:
    """(inv_freq, attention factor, unscaled inv_freq) of one RoPE block, from
    `lessons.context_extension.rope_inv_freq`; its warnings go into `caught`."""
    check_block(params)

    def both():
        inv_freq, factor = rope_inv_freq(head_dim, params, max_position_embeddings=max_length)
        plain = {k: v for k, v in params.items() if k in ("rope_theta", "partial_rotary_factor")}
        if rope_type_of(params) == "proportional":
            plain = {**plain, "rope_type": "proportional"}
        return inv_freq, float(factor), rope_inv_freq(head_dim, plain, max_position_embeddings=max_length)[0]

    return recorded(both, caught)


def check_window(text: dict) -> None:
    """A `sliding_window`, when set, is a count of tokens."""
    if text.get("sliding_window") is not None:
        _checks.count(text["sliding_window"], "sliding_window")


def check_no_nope_keys(text: dict) -> None:
    """Only Llama 4 and SmolLM3 configs read `no_rope_layers`."""
    if text.get("no_rope_layers") is not None:
        raise ConfigError(f"'no_rope_layers' is read by Llama 4 and SmolLM3 configs, not {text.get('model_type')!r}")


def one_original(originals: set) -> set:
    """The original lengths of a block split by layer type: at most one (returned as given)."""
    if len(originals) > 1:
        raise ConfigError(f"the layer types give different original lengths: {sorted(originals)}")
    return originals


# Every length key some serving engine reads (the union of their lists in modelcard.engines, a test
# holds the two equal): a card records which of them the config sets, for the engines' rules to read.
ENGINE_READ_LENGTH_KEYS = ("max_position_embeddings", "n_positions", "max_seq_len", "seq_length", "model_max_length",
                           "max_target_positions", "max_sequence_length", "max_seq_length", "seq_len", "n_ctx",
                           "max_length", "original_max_position_embeddings")


def length_keys(text: dict) -> tuple[tuple[str, int], ...]:
    """(key, value) of each of ENGINE_READ_LENGTH_KEYS the language model's config `text` sets to a
    positive integer, in that order (a card's `length_keys`)."""
    return tuple((key, int(text[key])) for key in ENGINE_READ_LENGTH_KEYS
                 if _checks._is_int(text.get(key)) and text[key] >= 1)
