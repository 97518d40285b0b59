"""Data and span rule of the `layers` explorable (lessons/layer_schemes.py, Level 1, under the
layer map): six gallery models, each layer's scheme, base, reach and rotated share, and how many
tokens the last token of a prompt of a chosen length attends to in each layer.

Everything a layer is comes from the lessons' own code: `lessons.layer_schemes.layer_plan` (does
the layer rotate, its base, its window or chunk) and `lessons.model_card.explain` (each layer's
attention type, the share of each head that turns, the rope type, the trained length; vLLM's
default length from `modelcard.engines.vllm_max_model_len`). The two are checked against each
other here, so a disagreement stops the build rather than reaching the page.

`span` is the rule the script's `spans` follows (tests/test_explorable_layers_node.py holds them
together): transformers 5.24's masks (masking_utils.py) for the last of `length` tokens, at index
length − 1: sliding_window_overlay keeps key j when j > i − window, so a sliding layer sees
min(length, window) keys, its own included (`lessons.attention_sinks.causal_window_mask`);
chunked_overlay keeps j when j // chunk == i // chunk, so a chunked layer (Llama 4's RoPE layers)
sees only its own chunk so far, (length − 1) mod chunk + 1 keys, which falls back to 1 each time
the prompt crosses a multiple of the chunk; every other layer sees all `length` (a linear-attention
layer, Qwen3-Next's, reads every token through its running state, with no mask).
"""

from __future__ import annotations

from lessons.layer_schemes import PLAN_LABELS, gallery_text_config, layer_plan
from lessons.model_card import explain
from lessons.tools.model_types import gallery
from modelcard.engines import vllm_max_model_len

# The gallery's files (lessons/gallery/<slug>.json) of the models the explorable offers.
MODELS = ("llama-4-scout", "gemma-3-4b", "command-r7b", "smollm3-3b", "qwen3-next-80b", "gpt-oss-20b")
# Prompt lengths the slider steps through: ten steps a decade from 1,000 to 10,000,000 tokens.
LENGTHS = tuple(round(10 ** (3 + k / 10)) for k in range(41))
REACHED = {"sliding_attention", "chunked_attention"}  # the layer types with a window or chunk


def span(layer_type: str, reach: int | None, length: int) -> int:
    """How many tokens the last of `length` tokens attends to in a layer of `layer_type` whose
    window or chunk is `reach` (None: no limit), as transformers 5.24's masks rule (module doc)."""
    if layer_type == "chunked_attention" and reach:
        return (length - 1) % reach + 1
    if layer_type == "sliding_attention" and reach:
        return min(length, reach)
    return length


def model_layers(slug: str) -> dict:
    """One model of the explorable: {"slug", "label", "trained" (tokens, or None when the config
    states none), "limit" (the config's limit), "served" (vLLM 0.33.0's default length),
    "layers": one {"type", "rope", "base", "reach", "share", "scaling"} per layer}: the attention
    type, whether it rotates, its base (None for no rotation), its window or chunk (None = all),
    the share of each head that turns (0 when none) and the rope type of its group."""
    entry = gallery()[slug]
    card, plan = explain(entry["config"]), layer_plan(gallery_text_config(slug))
    group_of = {i: g for g in card.rope for i in g.layers}
    layers = []
    for i, (layer, layer_type) in enumerate(zip(plan, card.layer_types, strict=True)):
        group = group_of.get(i)
        if layer["rope"] != (group is not None) or (layer["window"] is not None) != (layer_type in REACHED):
            raise ValueError(f"{slug} layer {i}: layer_plan {layer} disagrees with the card ({layer_type})")
        if group is not None and group.base != layer["base"]:
            raise ValueError(f"{slug} layer {i}: base {layer['base']} in layer_plan, {group.base} in the card")
        layers.append({"type": layer_type, "rope": layer["rope"], "base": layer["base"], "reach": layer["window"],
                       "share": group.rotary_dim / group.head_dim if group else 0,
                       "scaling": group.rope_type if group else None})
    return {"slug": slug, "label": PLAN_LABELS.get(slug, entry["name"]),
            "trained": card.trained_length if card.trained_stated else None, "limit": card.max_length,
            "served": vllm_max_model_len(card), "layers": layers}


def spans(model: dict, length: int) -> list[int]:
    """`span` of each layer of `model` (a `model_layers` dict) for a prompt of `length` tokens."""
    return [span(layer["type"], layer["reach"], length) for layer in model["layers"]]


def summary(model: dict, length: int) -> dict:
    """What the explorable prints for `model` at `length`: {"full": layers that see the whole
    prompt, "shortest": the fewest tokens any layer sees, "nope": layers with no position code}."""
    seen = spans(model, length)
    return {"full": sum(s == length for s in seen), "shortest": min(seen),
            "nope": sum(not layer["rope"] for layer in model["layers"])}


def data() -> dict:
    """The explorable's data: {"lengths": `LENGTHS`, "models": `model_layers` of each of `MODELS`}."""
    return {"lengths": list(LENGTHS), "models": [model_layers(slug) for slug in MODELS]}
