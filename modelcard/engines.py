"""What each serving engine does with a model card: its default length, its refusals, its command.

The rules of vLLM 0.33.0, SGLang 0.5.23 and llama.cpp (as vendored in
llama-cpp-python 0.3.36), each read from the engine's source file named beside
it. Every function takes a card from `lessons.model_card.explain` (a
`ModelCard`) and reads only its fields. Part of the decoder's package: it imports
the lessons' tools (lessons/tools/), and no lesson imports it.
"""

from __future__ import annotations

import dataclasses
import json
import math

from modelcard.engine_tables import REGISTRIES, covered, group_rows, table_length
from lessons.tools.model_types import LENGTH_ALIASES, yarn_original
from lessons.tools.rope_scaling import rope_inv_freq

# vLLM 0.33.0 (vllm/transformers_utils/model_arch_config_convertor.py, derive_max_model_len_and_key) takes
# the smallest of these keys of the text config, then lets model_max_length, when set, replace the result;
# with none of them it assumes 2,048 (vllm/config/model.py, _get_and_verify_max_len). The RoPE blocks of
# VLLM_UNSCALED types leave that length as it is; any other block's `factor` multiplies it (the last one's).
VLLM_RELEASE = "vLLM 0.33.0"
VLLM_LENGTH_KEYS = ("max_position_embeddings", "n_positions", "max_seq_len", "seq_length", "model_max_length",
                    "max_target_positions", "max_sequence_length", "max_seq_length", "seq_len")
VLLM_FALLBACK_LENGTH = 2048
VLLM_UNSCALED = ("su", "longrope", "llama3", "yarn", "deepseek_yarn", "deepseek_llama_scaling")
# SGLang 0.5.23 (sglang/srt/utils/hf_transformers/common.py, get_context_length): the first of these keys that is set,
# times the RoPE block's factor unless the block has original_max_position_embeddings (which transformers 5.24's
# standardize_rope_params adds to every llama3, yarn and longrope block) or is llama3; 2,048 when none is set.
SGLANG_RELEASE = "SGLang 0.5.23"
SGLANG_LENGTH_KEYS = ("max_sequence_length", "seq_length", "max_seq_len", "model_max_length", "max_position_embeddings")
# llama.cpp as vendored in llama-cpp-python 0.3.36: the converter (conversion/base.py, set_gguf_parameters)
# writes {arch}.context_length from the first of these keys, and `-c 0`, the default (common/common.h),
# means that length (src/llama-context.cpp: n_ctx == 0 ? n_ctx_train).
LLAMA_CPP_LENGTH_KEYS = ("max_position_embeddings", "n_ctx", "n_positions", "max_length", "max_sequence_length",
                         "model_max_length")
# Families whose converter writes another length (conversion/<family>.py in the same tree): Falcon's is
# fixed at 2,048 ("not in config.json", falcon.py); BLOOM and ChatGLM write seq_length, else the hidden
# size (bloom.py, chatglm.py); Command R reads model_max_length before max_position_embeddings
# (command_r.py, CommandR2Model). An architecture with no converter class (REGISTRIES["llama.cpp"]) has no GGUF file.
LLAMA_CPP_FIXED_CONTEXT = {"falcon": 2048}
LLAMA_CPP_SEQ_OR_WIDTH = ("bloom", "chatglm")
# The families Mistral publishes in its own format too (params.json beside config.json): vLLM 0.33.0 prefers it
# when the repo has consolidated*.safetensors (transformers_utils/config.py get_config; repo_utils.py
# is_mistral_model_repo) and takes the length from params.json (_maybe_retrieve_max_pos_from_hf: 128,000 at last).
MISTRAL_FORMAT_TYPES = ("mistral", "mixtral", "mistral3", "ministral", "pixtral")
# vLLM 0.33.0 models/llama4.py Llama4ForCausalLM.__init__ sets Llama 4's attn_temperature_tuning, over config.json's,
# from the generation config (--override-generation-config merged in), else max_model_len > VLLM_TEMPERATURE_LEN
VLLM_TEMPERATURE_LEN, VLLM_TEMPERATURE_ON = 32768, "--override-generation-config '{\"attn_temperature_tuning\": true}'"
LLAMA_CPP_MAX_CONTEXT = 2**31 - 1  # -c is read with std::stoi (common/arg.cpp): a 32-bit int
ENGINE_LENGTH_KEYS = tuple(dict.fromkeys((*VLLM_LENGTH_KEYS, *SGLANG_LENGTH_KEYS, *LLAMA_CPP_LENGTH_KEYS,
                                          "original_max_position_embeddings")))

def _vllm_factor(card) -> tuple[float, str | None]:
    """(the factor vLLM multiplies the config's length by, the rope type it comes from or None)."""
    factor, kind = 1.0, None
    if card.rope and "gemma3" not in (card.model_type or ""):
        for group in card.rope:
            if group.rope_type not in VLLM_UNSCALED:
                factor, kind = group.parameters.get("factor", factor), group.rope_type
    return (1.0, None) if factor is None else (float(factor), kind)


def _loaded_keys(card) -> dict[str, int]:
    """The card's length keys as the engines read them from transformers' config object: a model type
    whose class aliases max_position_embeddings (`LENGTH_ALIASES`, GPT2Config.attribute_map) answers
    it with the other key's value."""
    keys = dict(card.length_keys)
    alias = LENGTH_ALIASES.get(card.model_type)
    if alias in keys and "max_position_embeddings" not in keys:
        keys["max_position_embeddings"] = keys[alias]
    return keys


def _vllm_limit(card) -> tuple[int, str]:
    """(`vllm_length_limit`, what decides it in words): each engine's rule lives in one function
    that both computes the length and says why, so the report's reason cannot drift from it. (vLLM reads
    an aliased key under both names, n_positions among them: its smallest is the same.)"""
    keys = dict(card.length_keys)
    found = [k for k in VLLM_LENGTH_KEYS if k in keys]
    if "model_max_length" in keys:
        length, why = keys["model_max_length"], "model_max_length (it replaces the other keys)"
    elif found:
        key = min(found, key=lambda k: keys[k])
        length, why = keys[key], f"the smallest length key, {key}"
    else:
        length, why = VLLM_FALLBACK_LENGTH, f"no length key: the {VLLM_FALLBACK_LENGTH:,} fallback"
    factor, kind = _vllm_factor(card)
    if kind is not None and factor != 1:
        why += f", times the {kind} factor {factor:g}"
    return int(length * factor), why


def _vllm_default(card) -> tuple[int, str]:
    """(`vllm_max_model_len`, what decides it in words)."""
    keys = dict(card.length_keys)
    if any(g.rope_type == "longrope" for g in card.rope) and "original_max_position_embeddings" in keys:
        return int(keys["original_max_position_embeddings"]), \
            "original_max_position_embeddings (LongRoPE starts at the trained length)"
    return _vllm_limit(card)


def _sglang_rule(card) -> tuple[int, str]:
    """(`sglang_context_length`, what decides it in words)."""
    keys = _loaded_keys(card)
    factor, kind = 1.0, None
    single = len(card.rope) == 1 and card.rope[0].layer_type == "all"  # a block split by layer type has no factor
    if single and card.rope[0].rope_type not in ("llama3", "yarn", "longrope"):
        value = card.rope[0].parameters.get("factor", 1)
        factor, kind = 1.0 if value is None else float(value), card.rope[0].rope_type
    first = next((k for k in SGLANG_LENGTH_KEYS if k in keys), None)
    if first is None:
        return 2048, "no key it reads: the 2,048 fallback"
    alias = LENGTH_ALIASES.get(card.model_type) if first == "max_position_embeddings" else None
    why = f"the first of its keys, {first}" + (f" ({alias}, by the config class's attribute_map)"
                                                if alias and alias in dict(card.length_keys) else "") \
        + (f", times the {kind} factor {factor:g}" if factor != 1 else "")
    return int(factor * keys[first]), why


def unconverted(card) -> str | None:
    """The config's architecture when llama.cpp's converter has no class for it (it picks one by
    architectures[0], conversion/base.py), else None: such a model has no GGUF file to serve."""
    arch = card.architectures[0] if card.architectures else None
    return arch if arch is not None and arch not in REGISTRIES["llama.cpp"]["converted"] else None


def _llama_cpp_rule(card) -> tuple[int | None, str]:
    """(`llama_cpp_context_length`, what decides it in words)."""
    keys, family = dict(card.length_keys), card.model_type
    if unconverted(card):
        return None, f"no converter for {unconverted(card)}"
    if family in LLAMA_CPP_FIXED_CONTEXT:
        return LLAMA_CPP_FIXED_CONTEXT[family], f"fixed by conversion/{family}.py"
    if family in LLAMA_CPP_SEQ_OR_WIDTH:
        if "seq_length" in keys:
            return keys["seq_length"], "seq_length"
        return card.width, f"the hidden size (no seq_length; conversion/{family}.py)"
    order = ("model_max_length", *LLAMA_CPP_LENGTH_KEYS) if family == "cohere" else LLAMA_CPP_LENGTH_KEYS
    key = next((k for k in order if k in keys), None)
    if key is None:
        return None, "no key the converter reads: the file states none"
    first = " (conversion/command_r.py reads it first)" if family == "cohere" and key == "model_max_length" else ""
    return keys[key], f"the converter's key, {key}{first}"


def vllm_length_limit(card) -> int:
    """The longest `--max-model-len` vLLM accepts for this config without VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.

    vLLM 0.33.0's derived length (vllm/config/model.py, `_get_and_verify_max_len`): the smallest of VLLM_LENGTH_KEYS
    the config sets, replaced by `model_max_length` when that is set, 2,048 when none is; then, unless the model
    type contains "gemma3" (whose length is already the scaled one), times the `factor` of the last RoPE block whose
    type is not in VLLM_UNSCALED (linear, dynamic). YaRN, LongRoPE and the Llama 3 rule leave the length as the
    config states it. A longer `--max-model-len` is refused unless `model_max_length` allows it.
    """
    return _vllm_limit(card)[0]


def vllm_max_model_len(card) -> int:
    """The length vLLM 0.33.0 serves this config at when `--max-model-len` is not given.

    `vllm_length_limit`, except for a LongRoPE model, which vLLM starts at the config's
    `original_max_position_embeddings` (vLLM PR #27431: the long factors would slow every shorter prompt); a longer
    `--max-model-len` then switches to the long list for every prompt.
    """
    return _vllm_default(card)[0]


def sglang_context_length(card) -> int:
    """The context length SGLang 0.5.23 serves this config at by default (see SGLANG_LENGTH_KEYS)."""
    return _sglang_rule(card)[0]


def llama_cpp_context_length(card) -> int | None:
    """The context llama.cpp uses with its default `-c 0`: the converted file's context_length
    (LLAMA_CPP_LENGTH_KEYS, or the family's own rule), or None when the converter writes none."""
    return _llama_cpp_rule(card)[0]


def served_from(card) -> dict[str, str]:
    """What decides each engine's default length, in words: {"transformers", "vllm", "sglang", "llama.cpp"}
    (the reason half of the rules `served_lengths` computes)."""
    return {"transformers": "no limit", "vllm": _vllm_default(card)[1], "sglang": _sglang_rule(card)[1],
            "llama.cpp": _llama_cpp_rule(card)[1]}


def served_lengths(card) -> dict[str, int | None]:
    """The length each engine serves by default: {"transformers", "vllm", "sglang", "llama.cpp"}.

    transformers is None: it caps no length and computes whatever it is given (a learned table past its rows raises
    an index error there). The others: `vllm_max_model_len`, `sglang_context_length`, `llama_cpp_context_length`.
    """
    return {"transformers": None, "vllm": vllm_max_model_len(card), "sglang": sglang_context_length(card),
            "llama.cpp": llama_cpp_context_length(card)}


ENGINES = {"vllm": "vLLM", "sglang": "SGLang", "llama.cpp": "llama.cpp"}  # JSON key: the name the report prints
ENGINE_RELEASE_NAMES = {"vllm": VLLM_RELEASE, "sglang": SGLANG_RELEASE, "llama.cpp": "llama.cpp (-c 0)"}
# The report's last line: where each rule it applies was read (the page's Further reading has every file).
SOURCES = ("read in        vLLM 0.33.0 vllm/config/model.py _get_and_verify_max_len; SGLang 0.5.23 "
           "srt/utils/hf_transformers/common.py get_context_length; llama.cpp (llama-cpp-python 0.3.36) "
           "conversion/base.py set_gguf_parameters; transformers 5.24 modeling_rope_utils.py")
# How each engine is started (vLLM 0.33.0 `vllm serve`; SGLang 0.5.23 `python -m sglang.launch_server`;
# llama.cpp's server, tools/server in llama-cpp-python 0.3.36's vendored tree). MODEL stands for the
# model's directory or Hugging Face name; llama.cpp reads the GGUF file its converter wrote.
ENGINE_STARTS = {"vllm": "vllm serve {model}", "sglang": "python -m sglang.launch_server --model-path {model}",
                 "llama.cpp": "llama-server -m {gguf}"}


def _dumps(value) -> str:
    """JSON on one line, for a shell argument in single quotes."""
    return json.dumps(value, separators=(", ", ": "))


def scaling_override(card, served: int | None) -> dict | None:
    """The RoPE block to add when the config has none for the length you serve.

    A model with one plain RoPE setup, served past its trained length, needs a scaling entry
    (`lessons.context_extension`); this is YaRN with factor served ÷ trained, the one Qwen2.5's model card tells
    readers to add. An engine override replaces the whole block in vLLM (`config.update`,
    vllm/transformers_utils/config.py), so the base is repeated.

    Returns:
        a transformers-5 `rope_parameters` dict, or None when no block is needed or one
        override cannot say it (RoPE that differs by layer type, no trained length).
    """
    if not served or not card.trained_length or served <= card.trained_length:
        return None
    if card.scheme not in ("rope", "mixed") or len(card.rope) != 1 or card.rope[0].layer_type != "all":
        return None
    group = card.rope[0]
    if group.rope_type != "default":
        return None
    original = yarn_original(card)[0]
    block = {"rope_type": "yarn", "rope_theta": group.base, "factor": served / original,
             "original_max_position_embeddings": original}
    if group.rotary_dim != group.head_dim:
        block["partial_rotary_factor"] = group.rotary_dim / group.head_dim
    # an override replaces the whole block: M-RoPE's keys go with it (else the engine turns plain RoPE)
    block |= {k: group.parameters[k] for k in ("mrope_section", "mrope_interleaved") if k in group.parameters}
    return block


def scaled_reach(card) -> tuple[int, str, str] | None:
    """(the positions the config's scaling block stretches to, its rope type, what sets that length), the
    fewest over the card's RoPE groups; None when no block sets one (no scaling; dynamic, which follows the
    length). Linear scaling with no trained length (Gemma 3's factor 8 is not a length ratio) reaches the
    config's claim, as LongRoPE and the Llama 3 rule do."""
    reaches = []
    for g in card.rope:
        original = g.parameters.get("original_max_position_embeddings") or card.trained_length
        f = float(g.parameters.get("factor") or 1.0)
        if g.rope_type == "yarn" and original:
            reaches.append((math.ceil(original * f), "yarn", "original_max_position_embeddings × factor"))
        elif g.rope_type == "linear" and card.trained_length:
            reaches.append((math.ceil(card.trained_length * f), "linear", "the trained length × factor"))
        elif g.rope_type in ("longrope", "llama3", "linear") and card.max_length:
            reaches.append((card.max_length, g.rope_type, "max_position_embeddings, the length the config claims"))
    return min(reaches) if reaches else None


def longrope_shift(card, served: int) -> str:
    """For LongRoPE, what raising max_position_embeddings to `served` (as the commands do) does to the attention
    factor on every token: it grows with the length over the original (vLLM 0.33.0 phi3_long_rope_scaled_rope.py,
    transformers' _compute_longrope_parameters); '' when it stays or the card has no LongRoPE."""
    g = next((g for g in card.rope if g.rope_type == "longrope"), None)
    if g is None or not card.max_length:
        return ""
    before = rope_inv_freq(g.head_dim, g.parameters, max_position_embeddings=card.max_length)[1]
    after = rope_inv_freq(g.head_dim, g.parameters, max_position_embeddings=served)[1]
    return "" if before == after else (f"; raising max_position_embeddings to {served:,}, as the commands do, also "
                                       f"changes the attention factor on every token from {before:.4g} to {after:.4g}")


def _with_length(card, length: int, keys: tuple[str, ...]):
    """The card as the engine reads it after `_override` raised its length keys to `length`."""
    found = [k for k, _ in card.length_keys if k in keys] or ["max_position_embeddings"]
    raised = dict(card.length_keys) | {k: length for k in found}
    return dataclasses.replace(card, length_keys=tuple(raised.items()))


def _dynamic_block(card, group) -> dict:
    """The dynamic block vLLM needs past its table: the same block with max_trained_positions, the length the
    config states. get_rope (rotary_embedding/__init__.py) passes it to DynamicNTKScalingRotaryEmbedding,
    whose base, θ·(factor·P/max_trained − (factor − 1))^(d/(d − 2)), is then transformers' dynamic base at
    P positions, for every prompt. The override replaces the block whole, so the base is repeated."""
    block = {"rope_type": "dynamic", "rope_theta": group.base, "factor": float(group.parameters.get("factor") or 1.0),
             "max_trained_positions": table_length(card)}
    if group.rotary_dim != group.head_dim:
        block["partial_rotary_factor"] = group.rotary_dim / group.head_dim
    return block


def _length_needed(card, served: int, engine: str) -> tuple[int | None, str, dict | None]:
    """(the max_position_embeddings that makes `engine`'s table cover `served` positions with the card's
    speeds, and its length check accept them, or None and why no such length exists; and the RoPE block the
    override must carry, or None)."""
    needed, P, block = [], table_length(card) or 0, None
    release = VLLM_RELEASE if engine == "vllm" else SGLANG_RELEASE
    for group in card.rope:
        rows, rule = group_rows(card, group, engine)
        f = float(group.parameters.get("factor") or 1.0)
        kind = group.rope_type
        if rows is not None and rows >= served and engine == "sglang":
            continue
        if kind == "linear" or (kind == "dynamic" and engine == "sglang"):
            needed.append(math.ceil(served / f))
        elif kind == "yarn" and rows is not None and rows < served:
            return None, (f"{release}'s YaRN table has {rows:,} rows ({rule}): positions past it read off the "
                          f"table; a larger factor would cover {served:,}, at speeds the model was not tuned with"), None
        elif kind == "dynamic" and len(card.rope) == 1:  # vLLM: P rows, with max_trained_positions kept at P
            needed.append(served)
            block = _dynamic_block(card, group)
        else:
            needed.append(served if engine == "vllm" or rows is not None else P)
    return max(needed, default=served if not card.rope else P), "", block


def _override(card, served: int, keys: tuple[str, ...], block: dict | None = None) -> str:
    """An engine's config override as one JSON argument: every length key of `keys` the config sets raised to
    `served` (max_position_embeddings when it sets none), the RoPE block when one is added, under `text_config` when
    the config keeps its keys there (vLLM 0.33.0 updates a nested config key by key, `_apply_dict_overrides` in
    vllm/config/model.py; SGLang 0.5.23 likewise, sglang/srt/utils/hf_transformers/config.py)."""
    found = [k for k, _ in card.length_keys if k in keys]
    values = ({"rope_parameters": block} if block else {}) | ({k: served for k in found} or {"max_position_embeddings": served})
    return _dumps({"text_config": values} if card.nested else values)


def engine_commands(card, served: int | None, model: str = "MODEL", gguf: str = "model.gguf") -> dict[str, str | None]:
    """A command line per engine that serves the card's setup at `served` positions.

    Args:
        card: from `explain`.
        served: the length to serve (None: no commands).
        model: the model's directory or Hugging Face name.
        gguf: the GGUF file llama.cpp loads.

    Returns:
        {"transformers", "vllm", "sglang", "llama.cpp"}: a command that can be copied, or
        None where the engine cannot serve that length (`engine_refusals` says why);
        transformers is always None: it has no length setting.

    vLLM 0.33.0 refuses a `--max-model-len` past `vllm_length_limit` unless the config's length is raised with
    `--hf-overrides` (used for a YaRN, LongRoPE or Llama 3 block, which vLLM does not multiply, and with the block
    of `scaling_override`) or VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set. SGLang 0.5.23 refuses a `--context-length`
    past `sglang_context_length` unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 is set
    (`_derive_context_length`, sglang/srt/configs/model_config.py) or `--json-model-override-args` raises the length
    (applied before the length is derived). llama.cpp reads base and scaling from the GGUF file; `--rope-scaling`
    knows none, linear and yarn (common/arg.cpp). A position table has no rows past its end. For Llama 4 at a length
    vLLM leaves its query temperature off (VLLM_TEMPERATURE_LEN), vLLM's command adds VLLM_TEMPERATURE_ON, as
    transformers and llama.cpp apply it.
    """
    out: dict[str, str | None] = {"transformers": None, "vllm": None, "sglang": None, "llama.cpp": None}
    refused = engine_refusals(card, served)
    if not served or len(refused) == len(ENGINES):
        return out
    start = {k: v.format(model=model, gguf=gguf) for k, v in ENGINE_STARTS.items()}
    block = scaling_override(card, served)
    if block is not None:  # the added YaRN block's table: trained length × (served ÷ trained) rows
        out["vllm"] = (f"{start['vllm']} --max-model-len {served} "
                       f"--hf-overrides '{_override(card, served, VLLM_LENGTH_KEYS, block)}'")
    elif covered(card, served, "vllm") and served <= vllm_length_limit(card):
        out["vllm"] = f"{start['vllm']} --max-model-len {served}"
    else:  # raise the length keys until the table covers `served` and the length check accepts it
        length, _, extra = _length_needed(card, served, "vllm")
        if length is not None:
            out["vllm"] = (f"{start['vllm']} --max-model-len {served} "
                           f"--hf-overrides '{_override(card, length, VLLM_LENGTH_KEYS, extra)}'")
    if block is not None:
        out["sglang"] = (f"{start['sglang']} --context-length {served} "
                         f"--json-model-override-args '{_override(card, served, SGLANG_LENGTH_KEYS, block)}'")
    else:
        length, flag, seen = None, "", card
        if not covered(card, served, "sglang"):
            length, _, _ = _length_needed(card, served, "sglang")
            seen = _with_length(card, length, SGLANG_LENGTH_KEYS) if length is not None else card
            flag = f" --json-model-override-args '{_override(card, length, SGLANG_LENGTH_KEYS)}'" if length else ""
        if length is not None or covered(card, served, "sglang"):
            allow = "" if served <= sglang_context_length(seen) else "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 "
            out["sglang"] = f"{allow}{start['sglang']} --context-length {served}{flag}"
    flags = f"{start['llama.cpp']} -c {served}"
    scaled = [g for g in card.rope if g.rope_type != "default"]
    if block is not None:
        flags += (f" --rope-scaling yarn --rope-scale {block['factor']:g}"
                  f" --yarn-orig-ctx {block['original_max_position_embeddings']}")
    elif scaled and scaled[0].rope_type == "linear":
        flags += f" --rope-scaling linear --rope-scale {scaled[0].parameters['factor']:g}"
    elif scaled and scaled[0].rope_type == "yarn":
        factor = scaled[0].parameters.get("factor")
        if factor is None:  # transformers' fallback, as rope_inv_freq takes it: the config limit over the trained length
            factor = card.max_length / card.trained_length
        flags += f" --rope-scaling yarn --rope-scale {factor:g} --yarn-orig-ctx {card.trained_length}"
    # llama-server caps each slot at the file's context_length (tools/server/server-context.cpp, n_ctx_slot)
    # unless YaRN is given at a scale other than the file's (llama-context.cpp llama_init_from_model then sets
    # it to --yarn-orig-ctx / scale): past the file's length with the file's own scaling, raise the length
    arch = REGISTRIES["llama.cpp"]["gguf_arch"].get(card.architectures[0] if card.architectures else "")
    if block is None and arch and served > (llama_cpp_context_length(card) or served):
        flags += f" --override-kv {arch}.context_length=int:{served}"
    out["llama.cpp"] = flags
    if out["vllm"] and _temperature_off(card, served):
        out["vllm"] += f" {VLLM_TEMPERATURE_ON}"
    return {k: None if k in refused else v for k, v in out.items()}


def engine_refusals(card, served: int | None) -> dict[str, str]:
    """{engine: why it cannot serve `served` positions}, for the engines that cannot (a learned or
    sinusoidal table past its last row, in every engine; Baichuan in vLLM 0.33.0, whose model
    registry, vllm/model_executor/models/registry.py, has no Baichuan architecture); empty when all can."""
    vllm, sglang, backend = REGISTRIES["vllm"], REGISTRIES["sglang"], REGISTRIES["transformers_backend"]
    archs, out = card.architectures, {}
    fallback = any(a in backend["compatible"] for a in archs)  # what either engine's transformers backend takes
    gone = [a for a in archs if a in vllm["previously"]]
    if gone and not fallback and not any(a in vllm["served"] for a in archs):
        out["vllm"] = (f"not served by {vllm['release']}: its registry ({vllm['source']}) lists {gone[0]} among the "
                       f"architectures it served until {vllm['previously'][gone[0]]}, and its transformers backend "
                       f"takes no {gone[0]} ({backend['release']}, {backend['source']})")
    if archs and not fallback and not any(a in sglang["served"] for a in archs):
        out["sglang"] = (f"{sglang['release']} has no model of its own for {archs[0]} ({sglang['source']}), and its "
                         f"transformers backend refuses it ({backend['release']}, which it pins, does not mark "
                         f"{archs[0]} compatible: {backend['source']}; srt/model_loader/utils.py "
                         f"resolve_transformers_arch)")
    if unconverted(card):
        cpp = REGISTRIES["llama.cpp"]
        out["llama.cpp"] = f"{cpp['release']}'s converter has no class for {archs[0]} ({cpp['source']}): no GGUF file"
    return {**_other_refusals(card, served), **out}


def _other_refusals(card, served: int | None) -> dict[str, str]:
    """`engine_refusals` but for the registries: model families, converters, tables."""
    if card.model_type == "baichuan" and not card.architectures:
        return {"vllm": f"{VLLM_RELEASE}'s model registry has no Baichuan architecture"}
    if card.model_type == "chatglm" and scaling_override(card, served) is not None:
        # vLLM 0.33.0's models/chatglm.py and SGLang 0.5.23's srt/models/chatglm.py build RoPE from
        # rope_ratio alone: no override adds a scaling entry, and unscaled angles past the length are untrained
        why = f"its chatglm model builds RoPE from rope_ratio alone, so no override scales past {card.trained_length:,}"
        return {"vllm": why, "sglang": why}
    if served and served > LLAMA_CPP_MAX_CONTEXT:
        return {"llama.cpp": f"llama.cpp's -c takes at most {LLAMA_CPP_MAX_CONTEXT:,} (a 32-bit int, std::stoi in "
                             "common/arg.cpp)"}
    if served and card.scheme in ("learned", "sinusoidal"):
        end = card.max_length or vllm_length_limit(card)
        if served > end:
            return {key: f"the position table ends at {end:,}" for key in ENGINES}
    out = {}
    if served and card.rope and scaling_override(card, served) is None:
        for key in ("vllm", "sglang"):
            if not covered(card, served, key):
                length, why, _ = _length_needed(card, served, key)
                if length is None:
                    out[key] = why
    return out


def _temperature_off(card, served: int | None) -> dict | None:
    """Llama 4's query temperature (a card multiplier) when vLLM leaves it off at `served` (VLLM_TEMPERATURE_LEN)."""
    return next((m for m in card.multipliers if m["name"] == "query temperature (Llama 4, NoPE layers)"
                 and served and served <= VLLM_TEMPERATURE_LEN), None)


def engine_notes(card, served: int | None) -> list[str]:
    """What each engine then does with the model and its RoPE speeds, in words (one line each)."""
    notes, beta = [], any(g.parameters.get("llama_4_scaling_beta") is not None for g in card.rope)  # Ministral 3's
    vllm, sglang, compatible = REGISTRIES["vllm"], REGISTRIES["sglang"], REGISTRIES["transformers_backend"]["compatible"]
    archs = card.architectures
    by_backend = [a for a in archs if a in vllm["transformers_backend"]
                  or (a in vllm["previously"] and a in compatible and not any(b in vllm["served"] for b in archs))]
    if by_backend:
        notes.append(f"vLLM: {by_backend[0]} is served through {vllm['release']}'s transformers backend, not a model "
                     f"of its own ({vllm['source']})")
    if archs and not any(a in sglang["served"] for a in archs) and any(a in compatible for a in archs):
        notes.append(f"SGLang: no model of its own for {archs[0]} in {sglang['release']} ({sglang['source']}); it "
                     f"falls back to its transformers backend")
    if card.model_type in MISTRAL_FORMAT_TYPES:
        notes.append(f"vLLM: a repo that also ships Mistral's own format (params.json and consolidated*.safetensors) "
                     f"is read from params.json, not config.json ({VLLM_RELEASE} transformers_utils/config.py "
                     "get_config, --config-format auto): its max_position_embeddings sets the length (else this "
                     "config's, else 128,000); add --config-format hf to serve what this config says"
                     + (", all but its query multiplier (next note)" if beta else ""))
    if beta:
        notes.append(f"vLLM: queries are scaled only by config.llama_4_scaling ({VLLM_RELEASE} models/mistral.py "
                     "MistralAttention.__init__), which only Mistral's params.json sets (transformers_utils/configs/"
                     "mistral.py adapt_config_dict); no file of the wheel reads llama_4_scaling_beta: from config.json "
                     "(--config-format hf, or no params.json) no query is scaled; transformers 5.24 scales them all")
    if (temperature := _temperature_off(card, served)) is not None:
        notes.append(f"vLLM: Llama 4's query temperature is on only if the generation config's attn_temperature_tuning "
                     f"is true or --max-model-len > {VLLM_TEMPERATURE_LEN:,}, over config.json's ({VLLM_RELEASE} "
                     f"models/llama4.py Llama4ForCausalLM.__init__); transformers 5.24 applies it from position "
                     f"{temperature['starts_at']:,}, llama.cpp from 8,191 (src/models/llama4.cpp): the command sets it")
    scaled = [g for g in card.rope if g.rope_type != "default"]
    kind = scaled[0].rope_type if scaled else None
    if kind == "longrope" and card.trained_length:
        past = bool(served and served > card.trained_length)
        notes.append(f"vLLM: {'long_factor' if past else 'short_factor'} for every prompt (chosen once at start-up: "
                     f"--max-model-len {'>' if past else '<='} {card.trained_length:,}); llama.cpp: -c picks the "
                     f"list the same way; transformers switches lists per prompt at {card.trained_length:,}; SGLang "
                     f"switches the whole batch to long_factor once any position in it passes {card.trained_length:,}, "
                     "keeping the keys already cached (rope_variant.py Phi3LongRoPEScaledRotaryEmbedding.forward)")
    if kind == "llama3":
        notes.append("llama.cpp: the llama3 speeds are written into the GGUF file (rope_freqs); no flag is needed")
    if kind == "dynamic":
        notes.append("llama.cpp: no dynamic scaling; it turns the trained speeds at every length")
    block = scaling_override(card, served)
    if block is not None:
        original, source = yarn_original(card)
        over = f" over {original:,}, {source}" if source else ""
        notes.append(f"the config has no scaling entry for {served:,} positions: each command adds YaRN with factor "
                     f"{block['factor']:g}{over} (edit config.json for transformers)")
    return notes
