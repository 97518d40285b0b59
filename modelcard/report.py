"""The model-card command: the text report, the JSON card, the config and GGUF readers, `main`.

`python -m lessons.model_card CONFIG` runs `main` here; `lessons.model_card`
teaches the reading (`explain`) that every function below starts from.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

from lessons.context_extension import rope_wavelengths
from lessons.tools.rope_scaling import rope_inv_freq
from lessons.model_card import ModelCard, explain, pairs_that_turn
from lessons.tools.engines import (longrope_shift, scaled_reach, scaling_override, ENGINE_RELEASE_NAMES, ENGINES, SOURCES, VLLM_RELEASE, engine_commands,
                                   engine_notes, engine_refusals, llama_cpp_context_length, served_from,
                                   served_lengths, vllm_max_model_len)
from lessons.tools.card_html import advice
from lessons.tools.known_bugs import ENGINE_NAMES, KNOWN_BUGS, known_bugs, parse_engine
from lessons.tools.model_types import NO_ROPE_LAYER_TYPES, ConfigError, gallery

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
    """The machine-readable card of `card` (from `explain`): the exact schema of `python -m lessons.model_card --json`.

    `served` and `model` are the length and the name the engine commands use
    (default: vLLM's derived length, and MODEL); with `engine` ("vllm==0.33.0"), "known_bugs" lists the
    rows of `lessons.tools.known_bugs` that apply (each with its "status"); without it the key is absent."""
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


def _n(x) -> str:
    return "unknown" if x is None else f"{x:,}"


def _row(line: str, *cells: str, **extra) -> dict:
    """One line of the report: `line` is its text template (`line.format(*cells)` is what the CLI
    prints), `cells` what a table shows; `extra` says more about it (a warning's advice, a command)."""
    return {"line": line, "cells": [str(c) for c in cells], **extra}


FACT = "{0:<14} {1}"  # "trained length 8,192": the report's label column, then the fact


def report_sections(card: ModelCard, served: int | None = None, model: str = "MODEL",
                    engine: str | None = None) -> dict:
    """The report as data, what both renderers read: the text (`render_text`, the CLI) and the HTML
    (`lessons.tools.card_html.render_html`, the site); docs/javascripts/model_card.js builds the same.

    Args:
        card: from `explain`.
        served: the length you intend to serve; default: vLLM's derived length.
        model: the name the engine commands load.
        engine: an engine release ("vllm==0.33.0"): the known bugs of that release that apply
            (`lessons.tools.known_bugs`) join the report; None: no such section.

    Returns:
        {"verdict": one sentence, "sections": [{"key": str, "title": str, "rows": [row, ...]}, ...]}
        in the CLI's order (card, lengths, rope, attention, commands, notes, warnings, sources; an
        empty section is left out). A row is {"line": a `str.format` template, "cells": [str, ...]}
        and, for a warning, "title", "fix", "slug" and "page" (`card_html.advice`); a command's row
        has "command": true.
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
    facts += [_row(FACT, "trained length", trained), _row(FACT, "config length", _n(card.max_length))]
    stretch = "" if not card.trained_length else f" ({basis})" if served == card.trained_length \
        else f" = {served / card.trained_length:.4g}× {basis}"
    facts.append(_row(FACT, "served length", f"{served:,}" + ("" if given else f" by default in {VLLM_RELEASE}") + stretch))
    engines, why = served_lengths(card), served_from(card)
    lengths = [_row(f"{'by default' if i == 0 else '':<15}{{0:<18}}{{1:>10}}  {{2}}", release, _n(engines[engine]),
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
    values = {"served": f"{served:,}", "trained": _n(card.trained_length), "limit": _n(card.max_length),
              "stretch": f"{served / card.trained_length:.4g}" if card.trained_length else "unknown"}
    warnings = [_row("warning        {0}", w, **advice(w, values)) for w in warned]
    sections = [("card", "Position setup", facts), ("lengths", "Length each engine serves by default", lengths),
                ("rope", "RoPE, per group of layers", rope), ("attention", "Other factors on attention", attention),
                ("commands", f"A command per engine, for {served:,} positions", run), ("notes", "Engine notes", notes),
                ("warnings", "Warnings", warnings), *_bug_section(card, served, engine),
                ("sources", "Where the engines' rules were read", [_row(FACT, SOURCES[:15].strip(), SOURCES[15:])])]
    bugs = sum(bool(row.get("bug")) for _, _, rows in sections for row in rows)
    return {"verdict": verdict(card, served, given, len(warned), refused, bugs),
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
    """The card as text: what `python -m lessons.model_card config.json` prints.

    Args:
        card: from `explain`.
        served: the length you intend to serve; default: vLLM's derived length.
        model: the name the engine commands load (a directory or a Hugging Face name).
        engine: an engine release ("vllm==0.33.0") whose known bugs to show, or None.

    Returns:
        a multi-line string, one fact per line (`render_text` of `report_sections`).
    """
    return render_text(report_sections(card, served, model, engine))


def read_config(path: str | Path) -> dict:
    """Parse a config.json file; a file that is missing or not JSON is a `ConfigError` naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        config = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(config, dict):
        raise ConfigError(f"{path}: a config.json is a JSON object, got {type(config).__name__}")
    return config


# The position keys of a GGUF header (llama.cpp's gguf-py constants, as `{arch}.<key>`), read by `read_gguf`.
GGUF_KEYS = ("context_length", "rope.freq_base", "rope.dimension_count", "rope.scaling.type", "rope.scaling.factor",
             "rope.scaling.original_context_length", "attention.sliding_window", "attention.sliding_window_pattern")
# The per-pair divisor tensors llama.cpp's converters write (llama-cpp-python 0.3.36's vendored conversion/):
# rope_freqs for the Llama 3 rule, rope_factors_long and rope_factors_short for Phi-3's LongRoPE lists
# (chosen at run time by the context size against the original length).
GGUF_FACTOR_TENSORS = ("rope_freqs", "rope_factors_long", "rope_factors_short")


def read_gguf(path: str | Path) -> dict:
    """The position setup a GGUF file's header records, read with the `gguf` package (llama.cpp's reader).

    Args:
        path: a .gguf file.

    Returns:
        {"architecture": str, <each of GGUF_KEYS>: value or None, and for each of GGUF_FACTOR_TENSORS
        its per-pair divisors as a list, or None (the converter bakes the Llama 3 rule into
        rope_freqs, LongRoPE's lists into rope_factors_long and rope_factors_short)}. A file that is
        missing, truncated or not GGUF, or whose context length is not a positive integer, is a
        `ConfigError` naming it.
    """
    path = Path(path)
    try:
        import gguf
    except ImportError:
        raise ConfigError("reading a GGUF file needs the gguf package (llama.cpp's reader): pip install gguf") from None
    try:
        reader = gguf.GGUFReader(str(path))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except Exception as exc:  # noqa: BLE001 - the reader raises ValueError, IndexError, struct errors...
        raise ConfigError(f"{path}: not a readable GGUF file ({type(exc).__name__}: {exc})") from None

    def value(name):
        field = reader.fields.get(name)
        if field is None:
            return None
        got = field.contents()
        return got.item() if hasattr(got, "item") else got

    arch = value("general.architecture")
    if not isinstance(arch, str):
        raise ConfigError(f"{path}: a GGUF file without general.architecture")
    header = {"architecture": arch, **{key: value(f"{arch}.{key}") for key in GGUF_KEYS}}
    context = header["context_length"]
    if context is not None and (isinstance(context, bool) or not isinstance(context, int) or context < 1):
        # llama.cpp reads {arch}.context_length as an unsigned integer and uses it as -c 0's length
        raise ConfigError(f"{path}: {arch}.context_length is {context!r}; llama.cpp needs a positive integer there")
    for name in GGUF_FACTOR_TENSORS:
        tensor = next((t for t in reader.tensors if t.name == f"{name}.weight"), None)
        header[name] = None if tensor is None else [float(x) for x in np.asarray(tensor.data).ravel()]
    return header


def gguf_report(header: dict) -> str:
    """A GGUF header's position setup as text: what `python -m lessons.model_card file.gguf` prints."""
    lines = [f"architecture   {header['architecture']}",
             f"context length {_n(header['context_length'])} (what llama.cpp's default -c 0 uses)"]
    if header["rope.freq_base"] is not None or header["rope.dimension_count"] is not None:
        base = header["rope.freq_base"]
        lines.append(f"RoPE           base {'not recorded' if base is None else f'{base:,.6g}'}, "
                     f"{_n(header['rope.dimension_count'])} dimensions turn")
    if header["rope.scaling.type"] is not None:
        factor = header["rope.scaling.factor"]
        lines.append(f"scaling        {header['rope.scaling.type']}, factor "
                     f"{'not recorded' if factor is None else f'{factor:g}'}, original context "
                     f"{_n(header['rope.scaling.original_context_length'])}")
    for name in GGUF_FACTOR_TENSORS:
        if header.get(name) is not None:
            lines.append(f"{name:<14} {len(header[name])} per-pair divisors, "
                         f"{min(header[name]):.4g} to {max(header[name]):.4g} (baked in by the converter)")
    if header["attention.sliding_window"] is not None:
        lines.append(f"sliding window {header['attention.sliding_window']:,} tokens")
    return "\n".join(lines)


def compare_gguf(header: dict, card: ModelCard) -> list[tuple[str, str, str, str]]:
    """What the conversion kept, changed or dropped: [(what, in config.json, in the GGUF file, verdict)].

    The config side is what llama.cpp's converter reads (llama.cpp as vendored in
    llama-cpp-python 0.3.36: `set_gguf_parameters` in conversion/base.py); the verdict is
    "kept", "changed", "dropped" (the config has it, the file does not), "added" or "baked in"
    (a Llama 3 or LongRoPE rule, which the converter writes as the rope_freqs tensor).
    """
    def verdict(ours, theirs):
        if ours is None and theirs is None:
            return None
        if ours is None:
            return "added"
        if theirs is None:
            return "dropped"
        return "kept" if math.isclose(float(ours), float(theirs), rel_tol=1e-6) else "changed"

    group = card.rope[0] if card.rope else None
    rows = [("context length", llama_cpp_context_length(card), header["context_length"]),
            ("RoPE base", group.base if group else None, header["rope.freq_base"]),
            ("rotary dimensions", group.rotary_dim if group else None, header["rope.dimension_count"]),
            ("sliding window", card.sliding_window, header["attention.sliding_window"])]
    def shown(x):  # an integer with thousands separators, a float to 6 figures, or "none"
        return "none" if x is None else _n(x) if isinstance(x, int) else f"{x:,.6g}"

    out = [(what, shown(ours), shown(theirs), said) for what, ours, theirs in rows
           if (said := verdict(ours, theirs))]
    if group is not None and group.rope_type != "default":
        factor = group.parameters.get("factor")
        if group.rope_type in ("llama3", "longrope"):
            names = ("rope_freqs",) if group.rope_type == "llama3" else ("rope_factors_long", "rope_factors_short",
                                                                       "rope_freqs")
            found = [n for n in names if header.get(n) is not None]
            said = "baked in" if found else "dropped"
            theirs = ", ".join(f"{n} ({len(header[n])} divisors)" for n in found) if found else "none"
        else:
            theirs = header["rope.scaling.type"] or "none"
            said = "kept" if theirs == group.rope_type and (factor is None or header["rope.scaling.factor"] is None
                                                             or math.isclose(factor, header["rope.scaling.factor"])) \
                else "dropped" if theirs == "none" else "changed"
        out.append(("scaling", f"{group.rope_type}" + ("" if factor is None else f", factor {factor:g}"), theirs, said))
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m lessons.model_card CONFIG [--json] [--length N]`: the report, or the JSON card;
    `python -m lessons.model_card FILE.gguf [--compare CONFIG]`: a GGUF header, or what its conversion changed.

    With no CONFIG it walks through the gallery (`walk_gallery`). A config it cannot
    read prints one line on stderr and exits 2.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="python -m lessons.model_card",
                                     description="What a model's config.json says about positions.")
    parser.add_argument("config", nargs="?", help="a config.json file, or a gallery slug (see --list)")
    parser.add_argument("--json", action="store_true", help="print the machine-readable card")
    parser.add_argument("--length", type=int, help="the length you intend to serve (default: vLLM's derived length)")
    parser.add_argument("--list", action="store_true", help="list the gallery's slugs")
    parser.add_argument("--engine", metavar="ENGINE==RELEASE", help="show the known position bugs of this engine "
                                                                   "release that apply (vllm==0.33.0, llama.cpp==b5300)")
    parser.add_argument("--compare", metavar="CONFIG", help="with a .gguf file: what the conversion of this "
                                                            "config.json (or gallery slug) kept, changed or dropped")
    args = parser.parse_args(argv)
    if args.list:
        for slug, entry in gallery().items():
            print(f"{slug:<18} {entry['name']}")
        return 0
    if args.config is None:
        walk_gallery()
        return 0
    known = gallery()

    def load(name):
        return known[name]["config"] if name in known and not Path(name).exists() else read_config(name)

    try:
        if str(args.config).endswith(".gguf"):
            header = read_gguf(args.config)
            if args.compare is None:
                print(gguf_report(header))
                return 0
            card = explain(load(args.compare))
            if card.model_type and card.model_type.split("_")[0] not in header["architecture"] and \
                    header["architecture"] not in card.model_type:
                print(f"warning: the config's model_type {card.model_type!r} and the file's architecture "
                      f"{header['architecture']!r} differ; comparing anyway", file=sys.stderr)
            for what, ours, theirs, said in compare_gguf(header, card):
                print(f"{what:<18} {said:<9} config {ours}; file {theirs}")
            return 0
        if args.compare is not None:
            raise ConfigError("--compare goes with a .gguf file: python -m lessons.model_card model.gguf --compare config.json")
        card = explain(load(args.config))
        if args.length is not None and args.length < 1:
            raise ConfigError(f"--length must be a positive integer, got {args.length}")
        if args.engine is not None:
            parse_engine(args.engine)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    model = known[args.config]["repo"] if args.config in known and not Path(args.config).exists() else "MODEL"
    print(json.dumps(card_json(card, args.length, model, args.engine)) if args.json else
          report(card, args.length, model, args.engine))
    return 0


def walk_gallery() -> None:
    """Every gallery config's report, one after another (`python -m lessons.model_card` with no CONFIG)."""
    from lessons._show import banner

    for slug, entry in gallery().items():
        banner(f"{entry['name']}  (python -m lessons.model_card {slug})")
        print(report(explain(entry["config"])))


if __name__ == "__main__":
    sys.exit(main())
