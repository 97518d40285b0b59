"""The model-card report: the text report and the JSON card of one config.

`lessons.model_card` teaches the reading (`explain`) that every function here
starts from; `modelcard.cli` is the command that prints them.
"""

from __future__ import annotations


import numpy as np

from lessons.context_extension import rope_wavelengths
from lessons.tools.rope_scaling import rope_inv_freq
from lessons.model_card import ModelCard, pairs_that_turn
from modelcard.engines import (longrope_shift, scaled_reach, scaling_override, ENGINE_RELEASE_NAMES, ENGINES, SOURCES, VLLM_RELEASE, engine_commands,
                                   engine_notes, engine_refusals, served_from,
                                   served_lengths, vllm_max_model_len)
from modelcard.html import advice, choose, link_rows
from modelcard.known_bugs import ENGINE_NAMES, KNOWN_BUGS, known_bugs, parse_engine
from lessons.tools.model_types import NO_ROPE_LAYER_TYPES

def _ranges(mask: np.ndarray) -> str:
    """'0–12, 20–31' for the True entries of a bool array, '' for none."""
    idx = np.flatnonzero(mask)
    if not idx.size:
        return ""
    runs, start = [], idx[0]
    for a, b in zip(idx, list(idx[1:]) + [None], strict=True):
        if b is None or b != a + 1:
            runs.append(f"{start}" if start == a else f"{start}–{a}")
            start = b
    return ", ".join(runs)


def scale_summary(scale: np.ndarray, tol: float = 1e-9) -> str:
    """A scale per pair in words: which pairs are untouched, which blended, which divided by how much."""
    scale = np.asarray(scale, dtype=float)
    untouched = np.abs(scale - 1) <= tol
    lowest = scale.min()
    full = (np.abs(scale - lowest) <= tol * max(1.0, lowest)) & ~untouched
    parts = []
    if untouched.any():
        parts.append(f"untouched: pairs {_ranges(untouched)}")
    middle = ~untouched & ~full
    if middle.any():
        parts.append(f"between: pairs {_ranges(middle)}")
    if full.any():
        parts.append(f"divided by {1 / lowest:.4g}: pairs {_ranges(full)}")
    return "; ".join(parts)


def card_json(card: ModelCard, served: int | None = None, model: str = "MODEL", engine: str | None = None) -> dict:
    """The machine-readable card of `card` (from `explain`): the exact schema of `python -m modelcard --json`.

    `served` and `model` are the length and the name the engine commands use
    (default: vLLM's derived length, and MODEL); with `engine` ("vllm==0.33.0"), "known_bugs" lists the
    rows of `modelcard.known_bugs` that apply (each with its "status"); without it the key is absent."""
    bugs = {} if engine is None else {"known_bugs": known_bugs(card, served or vllm_max_model_len(card), engine)}
    return {
        "model_type": card.model_type,
        "scheme": card.scheme,
        "trained_length": card.trained_length,
        "trained_length_stated": card.trained_stated,
        "max_length": card.max_length,
        "rope": [{"layer_type": g.layer_type, "layers": list(g.layers), "rope_type": g.rope_type,
                  "rotary_dim": g.rotary_dim, "pairing": g.pairing, "inv_freq": [float(x) for x in g.inv_freq],
                  "attention_factor": float(g.attention_factor)} for g in card.rope],
        "nope_layers": list(card.nope_layers),
        "alibi_slopes": None if card.alibi_slopes is None else [float(x) for x in card.alibi_slopes],
        "sliding_window": card.sliding_window,
        "layer_types": None if card.layer_types is None else list(card.layer_types),
        "served": served_lengths(card),
        "served_from": served_from(card),
        "commands": engine_commands(card, served or vllm_max_model_len(card), model),
        "multipliers": [dict(m, layers=list(m["layers"])) for m in card.multipliers],
        "warnings": list(card.warnings),
    } | bugs


def count_text(x) -> str:
    """An integer with thousands separators, or "unknown" for None."""
    return "unknown" if x is None else f"{x:,}"


def _row(line: str, *cells: str, **extra) -> dict:
    """One line of the report: `line` is its text template (`line.format(*cells)` is what the CLI
    prints), `cells` what a table shows; `extra` says more about it (a warning's advice, a command)."""
    return {"line": line, "cells": [str(c) for c in cells], **extra}


FACT = "{0:<14} {1}"  # "trained length 8,192": the report's label column, then the fact


def report_sections(card: ModelCard, served: int | None = None, model: str = "MODEL",
                    engine: str | None = None) -> dict:
    """The report as data, what both renderers read: the text (`render_text`, the CLI) and the HTML
    (`modelcard.html.render_html`, the site); modelcard/web/model_card.js builds the same.

    Args:
        card: from `explain`.
        served: the length you intend to serve; default: vLLM's derived length.
        model: the name the engine commands load.
        engine: an engine release ("vllm==0.33.0"): the known bugs of that release that apply
            (`modelcard.known_bugs`) join the report; None: no such section.

    Returns:
        {"verdict": one sentence, "choose": the Level 1 it leads to (`modelcard.html.choose`),
        "sections": [{"key": str, "title": str, "rows": [row, ...]}, ...]} in the CLI's order (card,
        lengths, rope, attention, commands, notes, warnings, sources; an empty section is left out).
        A row is {"line": a `str.format` template, "cells": [str, ...]} and, for a warning, "title",
        "fix", "slug" and "page" (`modelcard.html.advice`); a command's row has "command": true; a row
        a lesson teaches has "taught" ({"slug", "anchor"}, chosen from the config: `modelcard.html.link_rows`).
    """
    given = bool(served)
    served = served or vllm_max_model_len(card)
    facts = [_row(FACT, "model_type", card.model_type or "not given")]
    layers = "" if card.n_layers is None else f" in {card.n_layers} layers"
    if card.scheme == "mixed":
        kinds = {card.layer_types[i] for i in card.nope_layers} if card.layer_types else set()
        scheme = (f"RoPE in {card.n_layers - len(card.nope_layers)} of {card.n_layers} layers; "
                  + (NO_ROPE_LAYER_TYPES[kinds.pop()] if len(kinds) == 1 and kinds <= NO_ROPE_LAYER_TYPES.keys()
                     else "NoPE (no positions) in layers ")
                  + ", ".join(map(str, card.nope_layers)))
    else:
        scheme = {"rope": f"RoPE{layers}", "alibi": f"ALiBi{layers} (a distance penalty per head, no position table)",
                  "learned": "a learned position table (one row per position), added to the input",
                  "sinusoidal": "fixed sinusoidal codes added to the input",
                  "none": f"no positions{layers} (NoPE: only the causal mask orders tokens)"}[card.scheme]
    if card.scheme == "none" and card.layer_types and set(card.layer_types) & NO_ROPE_LAYER_TYPES.keys():
        kinds = {t: [i for i, u in enumerate(card.layer_types) if u == t] for t in dict.fromkeys(card.layer_types)}
        scheme = "no RoPE in any layer; " + "; ".join(NO_ROPE_LAYER_TYPES.get(t, "NoPE attention in layers ")
                                                      + ", ".join(map(str, ids)) for t, ids in kinds.items())
    facts.append(_row(FACT, "scheme", scheme))
    if card.layer_types and len(set(card.layer_types)) > 1:
        counts = {t: card.layer_types.count(t) for t in dict.fromkeys(card.layer_types)}
        facts.append(_row(FACT, "layer types", ", ".join(f"{n} {t}" for t, n in counts.items())))
    if card.sliding_window:
        facts.append(_row(FACT, "sliding window", f"{card.sliding_window:,} tokens"))
    basis = "the trained length" if card.trained_stated else "the config limit"
    if card.trained_length and card.trained_stated:
        trained = f"{card.trained_length:,}"
    elif card.trained_length:
        trained = f"not stated (the config limit, {card.trained_length:,}, stands in for it)"
    else:
        linear = any(g.rope_type == "linear" for g in card.rope)
        trained = ("not stated (a linear factor is not a length ratio)" if linear else
                   "unknown (the config states no length)" if card.max_length is None else "unknown")
    facts += [_row(FACT, "trained length", trained), _row(FACT, "config length", count_text(card.max_length))]
    stretch = "" if not card.trained_length else f" ({basis})" if served == card.trained_length \
        else f" = {served / card.trained_length:.4g}× {basis}"
    facts.append(_row(FACT, "served length", f"{served:,}" + ("" if given else f" by default in {VLLM_RELEASE}") + stretch))
    engines, why = served_lengths(card), served_from(card)
    lengths = [_row(f"{'by default' if i == 0 else '':<15}{{0:<18}}{{1:>10}}  {{2}}", release, count_text(engines[engine]),
                    why[engine]) for i, (engine, release) in enumerate(ENGINE_RELEASE_NAMES.items())]
    lengths.append(_row(f"{'':<15}{{0:<18}}{{1:>10}}  {{2}}", "transformers", "no limit", "it computes whatever it is given"))
    rope = []
    for g in card.rope:
        where = "every RoPE layer" if g.layer_type == "all" else f"{g.layer_type} ({len(g.layers)} layers)"
        rope.append(_row("RoPE, {0}: {1}", where, f"{g.rope_type}, base {g.base:,.6g}, {g.rotary_dim} of "
                         f"{card.qk_width or g.head_dim} dimensions turn ({len(g.inv_freq)} {g.pairing} pairs)"
                         + (f"; the other {card.qk_width - g.head_dim} carry no position (qk_nope_head_dim)"
                            if card.qk_width and card.qk_width > g.head_dim else ""), group=True))
        section = g.parameters.get("mrope_section")
        if section:  # multimodal RoPE: which pairs turn by the time, height and width ids (lessons.multimodal_rope)
            rope.append(_row("  {0:<12} {1}", "M-RoPE", f"{', '.join(map(str, section))} of the {len(g.inv_freq)} pairs "
                             "follow the time, height and width ids, "
                             + ("interleaved" if g.parameters.get("mrope_interleaved") else "in three blocks")))
        waves = rope_wavelengths(g.inv_freq[g.inv_freq > 0])
        rope.append(_row("  {0:<12} {1}", "wavelengths", f"{waves.min():,.4g} to {waves.max():,.4g} positions"
                         if waves.size else "none: no pair turns"))
        if card.trained_length:
            turn = pairs_that_turn(g.default_inv_freq, card.trained_length)
            rope.append(_row("  {0}: {1}", f"full turn within {basis}",
                             f"{int(turn.sum())} of {len(turn)} pairs" + (f" ({_ranges(turn)})" if turn.any() else "")))
        if g.rope_type != "default":
            with np.errstate(divide="ignore", invalid="ignore"):
                scale = np.where(g.default_inv_freq > 0, g.inv_freq / g.default_inv_freq, 1.0)
            rope.append(_row("  {0:<12} {1}", "scale", scale_summary(scale)))
        if g.rope_type == "longrope" and served and card.trained_length and served > card.trained_length:
            long_freq, _ = rope_inv_freq(g.head_dim, g.parameters, max_position_embeddings=card.max_length,
                                         seq_len=served)
            rope.append(_row("  {0}: {1}", f"past {card.trained_length:,}",
                             f"long_factor, {scale_summary(long_freq / g.default_inv_freq)}"))
        if g.attention_factor != 1:
            rope.append(_row("  {0} {1}", "attention factor", f"{g.attention_factor:.6g} (multiplies cos and sin)"))
    attention = []
    if card.softmax_multiplier is not None:
        attention.append(_row(FACT, "softmax scale", f"× {card.softmax_multiplier:.6g} (DeepSeek multiplies 1/√d by mscale²)"))
    for m in card.multipliers:
        if isinstance(m["value"], str) or m["value"] is None:
            what = "learned" if m["value"] is None else f"{m['value']}, from position {m['starts_at']:,}"
            n = len(m["layers"])
            attention.append(_row("multiplier     {0}: {1}", m["name"], f"{what}; {n} layer{'' if n == 1 else 's'}"))
    if card.alibi_slopes is not None:
        slopes = card.alibi_slopes
        attention.append(_row(FACT, "ALiBi slopes", f"{len(slopes)} heads, {slopes[0]:.4g} down to {slopes[-1]:.4g}"))
    commands, refused = engine_commands(card, served, model), engine_refusals(card, served)
    run = [_row("engine         {0}: {1}", name, f"no command: {refused[key]}") if key in refused else
           _row("engine         {0}: {1}", name, commands[key], command=True)
           for key, name in ENGINES.items() if key in refused or commands[key]]
    notes = [_row("engine note    {0}", note) for note in engine_notes(card, served)]
    warned = list(card.warnings)
    if card.scheme == "learned" and served and card.max_length and served > card.max_length:
        warned.append(f"a learned table has {card.max_length:,} rows: position {card.max_length:,} and later have none")
    if served and card.trained_length and card.scheme in ("rope", "mixed") and served > card.trained_length and all(
            g.rope_type == "default" for g in card.rope) and served != card.max_length:
        add = ": the commands here add one" if scaling_override(card, served) else ": add one"
        warned.append(f"serving {served:,} positions on a model trained at {card.trained_length:,} with no scaling "
                      f"entry in the config{add} (lessons.context_extension)" if card.trained_stated else
                      f"serving {served:,} positions past the config limit {card.trained_length:,} with no scaling "
                      f"entry in the config{add} (lessons.context_extension)")
    reach = scaled_reach(card)
    if served and reach and served > reach[0] and reach[0] > (card.trained_length or 0):
        warned.append(f"past the scaling's reach: the {reach[1]} block stretches to {reach[0]:,} positions ({reach[2]}), "
                      f"and {served:,} are served: the positions past {reach[0]:,} are outside the range the block was made for"
                      + longrope_shift(card, served))
    values = {"served": f"{served:,}", "trained": count_text(card.trained_length), "limit": count_text(card.max_length),
              "stretch": f"{served / card.trained_length:.4g}" if card.trained_length else "unknown"}
    warnings = [_row("warning        {0}", w, **advice(w, values)) for w in warned]
    sections = [("card", "Position setup", facts), ("lengths", "Length each engine serves by default", lengths),
                ("rope", "RoPE, per group of layers", rope), ("attention", "Other factors on attention", attention),
                ("commands", f"A command per engine, for {served:,} positions", run), ("notes", "Engine notes", notes),
                ("warnings", "Warnings", warnings), *_bug_section(card, served, engine),
                ("sources", "Where the engines' rules were read", [_row(FACT, SOURCES[:15].strip(), SOURCES[15:])])]
    bugs = sum(bool(row.get("bug")) for _, _, rows in sections for row in rows)
    link_rows(card, sections)
    return {"verdict": verdict(card, served, given, len(warned), refused, bugs), "choose": choose(card),
            "sections": [{"key": key, "title": title, "rows": rows} for key, title, rows in sections if rows]}


def _bug_section(card: ModelCard, served: int, engine: str | None) -> list[tuple[str, str, list[dict]]]:
    """The known-bugs section for an engine release: a row per bug that applies, or one row saying none does."""
    if engine is None:
        return []
    name, release = parse_engine(engine)
    found, label = known_bugs(card, served, engine), f"{ENGINE_NAMES[name]} {release}"
    rows = [_row("known bug      {0}: {1}", r["ref"], f"{r['symptom']} ({label}; affected {r['status']}; here: "
                 f"{r['applies']}) Do: {r['do']} Read in {r['source']}.", bug=True) for r in found]
    if not found:
        n = sum(r["engine"] == name for r in KNOWN_BUGS["rows"])
        rows = [_row(FACT, "known bugs", f"none of the {n} row{'s' if n != 1 else ''} for {ENGINE_NAMES[name]} applies to this config in "
                                         f"{release} ({KNOWN_BUGS['about']})")]
    return [("bugs", f"Known bugs in {label}", rows)]


def verdict(card: ModelCard, served: int, given: bool, warnings: int, refused: dict[str, str], bugs: int = 0) -> str:
    """The report in one sentence, from the card: the length to serve (the one asked for, or vLLM's
    default), what it is against the trained length, and how many warnings and known bugs need attention."""
    if len(refused) == len(ENGINES):
        said = f"No engine serves {served:,} positions: {next(iter(refused.values()))}"
    else:
        said = f"Serve {served:,} positions, " + ("the length asked for" if given else f"{VLLM_RELEASE}'s default")
        trained, scaled = card.trained_length, [g.rope_type for g in card.rope if g.rope_type != "default"]
        basis = "the trained length" if card.trained_stated else "the config limit"
        if trained is None:
            said += ": the config states no trained length"
        elif served <= trained:
            said += f": {'' if served == trained else 'within '}{basis}"
        else:
            said += f": {served / trained:.4g}× {basis}"
            if card.scheme in ("rope", "mixed"):
                said += f", stretched by its {scaled[0]} scaling" if scaled else ", with no scaling entry"
        if trained is not None and not card.trained_stated:
            said += ", as no trained length is stated" if served <= trained else ", and no trained length is stated"
    needs = [f"{n} {what}{'s' if n > 1 else ''}" for n, what in ((warnings, "warning"), (bugs, "known bug")) if n]
    return said + ("; nothing needs attention." if not needs else
                   f"; {' and '.join(needs)} below need{'' if warnings + bugs > 1 else 's'} attention.")


def render_text(report: dict) -> str:
    """The report (`report_sections`) as the CLI prints it: each row's template filled with its
    cells, section after section in their order; the verdict is the HTML's alone."""
    return "\n".join(row["line"].format(*row["cells"]) for section in report["sections"] for row in section["rows"])


def report(card: ModelCard, served: int | None = None, model: str = "MODEL", engine: str | None = None) -> str:
    """The card as text: what `python -m modelcard config.json` prints.

    Args:
        card: from `explain`.
        served: the length you intend to serve; default: vLLM's derived length.
        model: the name the engine commands load (a directory or a Hugging Face name).
        engine: an engine release ("vllm==0.33.0") whose known bugs to show, or None.

    Returns:
        a multi-line string, one fact per line (`render_text` of `report_sections`).
    """
    return render_text(report_sections(card, served, model, engine))
