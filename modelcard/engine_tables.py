"""What each serving engine builds for a model card once it has accepted a length: the rows of the RoPE
(cos/sin) table, read in each release's source, and the architectures each release serves at all.

Used by modelcard.engines, which writes the commands; like it, this module reads only a card's
fields (`lessons.model_card.explain`); no lesson imports it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

# The architectures each release serves, read from its model registry: vLLM 0.33.0's
# model_executor/models/registry.py (with _PREVIOUSLY_SUPPORTED_MODELS: the last release that served each
# dropped one; its transformers-backend entries) and SGLang 0.5.23's srt/models/*.py EntryClass (any other
# architecture goes to its transformers backend, srt/models/registry.py _normalize_archs), and the classes of
# transformers 5.19.0 (which SGLang pins) that its backend takes (is_backend_compatible). Written from the
# wheels by tests/reference/registries.py.
REGISTRIES = json.loads(Path(__file__).with_name("registries.json").read_text(encoding="utf-8"))

# The RoPE table each engine then builds, read at the source. vLLM 0.33.0: the model files pass the config's
# max_position_embeddings (P) to get_rope (models/llama.py LlamaDecoderLayer; qwen2, qwen3_moe, gemma3,
# deepseek_v2, gpt_oss alike), and each class's _compute_cos_sin_cache (model_executor/layers/rotary_embedding/)
# builds P rows (base.py; llama3_rope.py; dynamic_ntk_scaling_rope.py, with the trained base, though
# _get_and_verify_max_len derives P × factor), P × factor (linear_scaling_rope.py), original × factor
# (yarn_scaling_rope.py, deepseek_scaling_rope.py: P plays no part), original + P (phi3_long_rope_scaled_rope.py:
# the long list's P rows follow the short list's), or 4 P for M-RoPE (mrope.py; original × 4 × factor with
# YaRN). No table grows, and a position past one is looked up anyway (index_select in base.py; the CUDA
# kernel reads unchecked). SGLang 0.5.23 (srt/layers/rotary_embedding/): the same rows, but dynamic builds
# P × factor rows with one base, θ·(f² − f + 1)^(d/(d − 2)) (rope_variant.py), and M-RoPE P (mrope.py); at
# load, reserve_rope_cache_for_long_sequences (srt/utils/common.py) grows every table to the context length,
# with the type's own speeds for default, llama3 and YaRN (yarn.py _extend_yarn_cache) but with the unscaled
# base for linear and dynamic, and never LongRoPE's; Gemma 3 computes cos and sin at every step
# (models/gemma3_causal.py). llama.cpp builds no table: ggml computes each position's angles when it needs them.
# M-RoPE's table is mrope_positions_factor times longer: 4 where the model file keeps get_rope's default
# (vLLM 0.33.0 models/qwen2.py, which Qwen2-VL and Qwen2.5-VL run on), 1 in models/qwen3_vl.py (and qwen3_5,
# qwen3_vl_moe) unless video pruning is on.
VLLM_MROPE_TIMES4 = ("qwen2_vl", "qwen2_5_vl")


def table_length(card) -> int | None:
    """P: the max_position_embeddings the engines' model files pass to get_rope (the card's limit without it)."""
    return dict(card.length_keys).get("max_position_embeddings", card.max_length)


def group_rows(card, group, engine: str) -> tuple[int | None, str]:
    """(the positions `engine`'s table for one RoPE group covers with the group's own speeds, the rule in
    words); None: no table to run off (llama.cpp; an SGLang table it grows with the right speeds)."""
    P, kind = table_length(card), group.rope_type
    f = float(group.parameters.get("factor") or 1.0)
    original = group.parameters.get("original_max_position_embeddings") or card.trained_length
    mrope = "mrope_section" in group.parameters
    if engine == "llama.cpp" or P is None:
        return None, "no table"
    if engine == "vllm":
        if mrope:  # the model file's mrope_positions_factor: 4 for Qwen2-VL and 2.5-VL, 1 for Qwen3-VL (unpruned)
            times = 4 if (card.model_type or "").startswith(VLLM_MROPE_TIMES4) else 1
            where = f"mrope.py, {'qwen2.py' if times == 4 else 'qwen3_vl.py'}"
            if kind == "yarn" and original:
                return math.ceil(times * original * f), f"original_max_position_embeddings × {times} × factor; {where}"
            return times * P, f"{times} × max_position_embeddings; {where}"
        if kind == "linear":
            return math.ceil(P * f), "max_position_embeddings × factor; linear_scaling_rope.py"
        if kind == "yarn" and original:
            return math.ceil(original * f), ("original_max_position_embeddings × factor, whatever "
                                             "max_position_embeddings says; yarn_scaling_rope.py")
        if kind == "dynamic":
            return P, "max_position_embeddings, though vLLM derives factor times more; dynamic_ntk_scaling_rope.py"
        if kind == "longrope":
            return max(P, original or 0), "max_position_embeddings rows of long factors; phi3_long_rope_scaled_rope.py"
        return P, "max_position_embeddings; base.py"
    if (card.model_type or "").startswith("gemma3"):
        return None, "computed at every step; gemma3_causal.py"
    if kind in ("linear", "dynamic"):
        return math.ceil(P * f), (f"max_position_embeddings × factor, grown past that with the unscaled base; "
                                  f"{'base.py' if kind == 'linear' else 'rope_variant.py'}")
    if kind == "longrope":
        return max(P, original or 0), "max_position_embeddings rows of long factors, never grown; rope_variant.py"
    return None, "grown to the context length at load; reserve_rope_cache_for_long_sequences"


def table_rows(card, engine: str) -> tuple[int | None, str]:
    """(how many positions the RoPE table `engine` builds for this card covers with the card's own speeds,
    the rule that sets it), the fewest over the card's RoPE groups.

    engine: "vllm" (vLLM 0.33.0), "sglang" (SGLang 0.5.23) or "llama.cpp". None when nothing runs out:
    no RoPE, llama.cpp (no table), or a table SGLang grows to the served length with the right speeds.
    The comment above names the files read."""
    found = [group_rows(card, g, engine) for g in card.rope]
    limited = [r for r in found if r[0] is not None]
    return min(limited, key=lambda r: r[0]) if limited else (None, found[0][1] if found else "no RoPE")


def covered(card, served: int, engine: str) -> bool:
    """Does `engine`'s RoPE table for this card reach `served` positions with the card's speeds?"""
    rows, _ = table_rows(card, engine)
    return rows is None or served <= rows
