"""The data of the explorable "Every pair under every method" (explorables/web/methods.js, on
lessons/context_extension's Level 1): the gallery models that ship a RoPE scaling block, where the
decoder's explorer starts for each (`modelcard.explorer.explorer_start`), and each method's block
as `lessons.model_card.compare_methods` builds it, plus dynamic NTK.

The script turns a choice (a model or the lesson's running example, a method, a stretch) into a
block and reads it with the shared core (`PrimerCore.ropeSpeeds`, `PrimerCore.measures`): a model's
own block as `modelcard.explorer.block_measures` reads it, the methods `method_measures` compares as
it does (`PrimerCore.compareMethods`), dynamic NTK as `preset_measures` does here.
tests/test_explorable_methods_node.py holds the script to these.
"""

from __future__ import annotations

from lessons.context_extension import EXAMPLE, dynamic_ntk_stretch, rope_inv_freq
from lessons.model_card import ModelCard, explain
from lessons.tools.model_types import gallery
from modelcard.explorer import NO_SCALING, block_measures, explorer_start, measures, method_measures

# A method the reader picks: (key, its look in lessons._palette.METHOD_LOOKS, label, the name
# `method_measures` reports it under, or None). Dynamic NTK is not among compare_methods' rows;
# LongRoPE has no rule to set for a stretch (its lists are searched per model), so choosing it
# shows the gallery's LongRoPE model with its own lists (LONGROPE_MODEL).
METHODS = (("none", "No scaling", NO_SCALING), ("linear", "Position interpolation (linear)", "linear (PI)"),
           ("ntk", "NTK-aware (base raised)", "NTK-aware"), ("dynamic", "Dynamic NTK", None),
           ("yarn", "YaRN", "YaRN"), ("llama3", "Llama 3 rule", "Llama 3 rule"), ("longrope", "LongRoPE", None))
DYNAMIC = {"rope_type": "dynamic"}  # as experiments/model.py stretches with it: trained length as max_position_embeddings
LONGROPE_MODEL = "phi-3.5-mini"
# What a model's sources say about training past its pretrained length, as the box prints it under the
# model's own block read within the length it serves (a model not here gets the box's generic line).
# Llama 3.1: Llama Team, AI @ Meta (2024), The Llama 3 Herd of Models, arXiv:2407.21783, §3.4.2
# (staged long-context pretraining to 128K tokens); the llama3 wavelength rule is in Meta's reference
# code, not the paper, which does not say which scaling was active in that training.
LONG_TRAINING = {"llama-3.1-8b": "Meta reports continued pretraining of Llama 3.1 to 128K tokens (Llama Team, "
                                 "2024, §3.4.2); the paper does not say which scaling was active then"}


def preset_measures(base: float, width: int, trained: int, stretch: float, window: int | None = None) -> dict[str, dict]:
    """{method key: `modelcard.explorer.measures`} of each method set for `stretch` on a head of
    `width` dimensions and base `base` trained at `trained` positions and read at
    round(trained × stretch) (at most `window`): `method_measures`' rows, and dynamic NTK's
    speeds at the length read (transformers' dynamic base for that length)."""
    compared = method_measures(base, width, trained, stretch, window)
    out = {key: compared[name] for key, _, name in METHODS if name is not None}
    served = round(trained * stretch)
    theta, _ = rope_inv_freq(width, {"rope_theta": base})
    speeds, _ = rope_inv_freq(width, {**DYNAMIC, "rope_theta": base, "factor": stretch},
                              max_position_embeddings=trained, seq_len=served)
    out["dynamic"] = measures(speeds, theta, trained, min(served, window or served))
    return out


def models() -> dict[str, ModelCard]:
    """{slug: card} of the gallery's models whose first RoPE group ships a scaling block and
    whose config states the trained length it scales from (Gemma 3 4B's does not)."""
    cards = {slug: explain(entry["config"]) for slug, entry in gallery().items()}
    return {slug: c for slug, c in cards.items() if c.rope and c.rope[0].rope_type != "default" and c.trained_stated}


def stops(own: float | None = None) -> list[float]:
    """The stretches the slider steps through (methods.js `stops`): 2^(k/4) for k = 0..24 (1 to
    64), and `own`, a model's own stretch, when it is not one of them."""
    grid = [2 ** (k / 4) for k in range(25)]
    return sorted(grid + ([own] if own and not any(abs(s - own) < 1e-9 * own for s in grid) else []))


def reading(model: str, method: str, stretch: float, published: dict | None = None,
            cards: dict[str, ModelCard] | None = None) -> dict:
    """What the explorable reports for a choice (methods.js `setting` and `rows`), from the
    explorer's Python: `model` a slug of `models()` or "" (the lesson's example), `method` a key
    of `METHODS`, `stretch` the length read over the trained length. A model whose block's rope
    type is `method` reads its own block (`block_measures`); LongRoPE reads LONGROPE_MODEL's;
    any other method is set for the stretch on the model's (or the example's) head
    (`preset_measures`). `published` and `cards`: `data()` and `models()`, when the caller has
    them. Returns `measures` plus "own", "model" and "served", and for dynamic NTK set for the
    stretch "effective": the stretch transformers raises its base for at the length read
    (`dynamic_ntk_stretch`, factor × served ÷ trained − (factor − 1): about s² − s + 1, not s)."""
    published = published or data()
    entries = {m["slug"]: m for m in published["models"]}
    entry = entries.get(model)
    if method == "longrope" and not (entry and entry["rope_type"] == method):
        entry = entries[LONGROPE_MODEL]
    head = entry or published["example"]
    trained, window = head["trained"], entry["window"] if entry else None
    served = entry["served"] if entry and abs(stretch - entry["stretch"]) < 1e-9 * entry["stretch"] else round(trained * stretch)
    if entry and entry["rope_type"] == method:
        found = block_measures((cards or models())[entry["slug"]], trained, served, window)
    else:
        found = preset_measures(head["base"], head["width"], trained, stretch, window)[method]
    own = bool(entry and entry["rope_type"] == method)
    effective = {"effective": dynamic_ntk_stretch(stretch, served, trained)} if method == "dynamic" and not own else {}
    return {**found, "own": own, "model": entry["slug"] if entry else "", "served": served, **effective}


def model_entry(slug: str, card: ModelCard, name: str) -> dict:
    """What the script needs of one model (`name`, as the gallery names it): its first RoPE group's block (`params`, read at
    `head_dim` with `max_position` as the config's limit; `plain`, the same without scaling, as
    lessons.tools.exact.rope_speeds reads it) and `explorer_start`'s base, width, trained length,
    stretch and window; `served`, the length that stretch reads; `training`, what its sources say of
    training past its pretrained length (`LONG_TRAINING`), or None."""
    group, start = card.rope[0], explorer_start(card)
    plain = {k: v for k, v in group.parameters.items() if k in ("rope_theta", "partial_rotary_factor")}
    return {"slug": slug, "name": name, "rope_type": group.rope_type, "head_dim": group.head_dim,
            "params": group.parameters, "plain": plain, "max_position": card.max_length,
            "base": start["base"], "width": start["width"], "trained": start["trained"],
            "stretch": start["stretch"], "served": round(start["trained"] * start["stretch"]),
            "window": start["window"], "kind": start["kind"], "training": LONG_TRAINING.get(slug)}


def data() -> dict:
    """The explorable's data: {"example": the lesson's running example (`EXAMPLE`), "methods":
    [{key, label, and "compared" (its name in `method_measures`, whose blocks the core builds,
    PrimerCore.compareMethods), "block" (dynamic's) or "model" (LongRoPE's)}], "models":
    [`model_entry`]}."""
    names = gallery()
    return {"example": {"base": EXAMPLE["base"], "width": EXAMPLE["d"], "trained": EXAMPLE["trained"],
                        "stretch": EXAMPLE["factor"]},
            "methods": [{"key": key, "label": label, **({"compared": name} if name else
                                                        {"model": LONGROPE_MODEL} if key == "longrope" else
                                                        {"block": DYNAMIC})}
                        for key, label, name in METHODS],
            "models": [model_entry(slug, card, names[slug]["name"]) for slug, card in models().items()]}
