"""The decoder's command, `python -m modelcard CONFIG`: the config and GGUF readers and `main`.

`python -m lessons.model_card CONFIG` runs it by its old name (old links and notes use it).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

from lessons.model_card import ModelCard, explain
from lessons.tools.model_types import ConfigError, gallery
from modelcard.known_bugs import parse_engine
from modelcard.engines import llama_cpp_context_length
from modelcard.report import count_text, card_json, report


def read_config(path: str | Path) -> dict:
    """Parse a config.json file; a file that is missing or not JSON is a `ConfigError` naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); a config.json is UTF-8 JSON") from None
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
    """A GGUF header's position setup as text: what `python -m modelcard file.gguf` prints."""
    lines = [f"architecture   {header['architecture']}",
             f"context length {count_text(header['context_length'])} (what llama.cpp's default -c 0 uses)"]
    if header["rope.freq_base"] is not None or header["rope.dimension_count"] is not None:
        base = header["rope.freq_base"]
        lines.append(f"RoPE           base {'not recorded' if base is None else f'{base:,.6g}'}, "
                     f"{count_text(header['rope.dimension_count'])} dimensions turn")
    if header["rope.scaling.type"] is not None:
        factor = header["rope.scaling.factor"]
        lines.append(f"scaling        {header['rope.scaling.type']}, factor "
                     f"{'not recorded' if factor is None else f'{factor:g}'}, original context "
                     f"{count_text(header['rope.scaling.original_context_length'])}")
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
        return "none" if x is None else count_text(x) if isinstance(x, int) else f"{x:,.6g}"

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
    """`python -m modelcard CONFIG [--json] [--length N]`: the report, or the JSON card;
    `python -m modelcard FILE.gguf [--compare CONFIG]`: a GGUF header, or what its conversion changed.

    With no CONFIG it walks through the gallery (`walk_gallery`). A config it cannot
    read prints one line on stderr and exits 2.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="python -m modelcard",
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
    given = [f"--{name}" for name in ("json", "length", "engine", "compare") if getattr(args, name) not in (None, False)]
    if args.config is None and given:
        parser.error(f"{', '.join(given)} needs a CONFIG (a config.json file, a gallery slug or a .gguf file)")
    if args.config is not None and is_gguf(args.config) and set(given) - {"--compare"}:
        parser.error(f"{', '.join(sorted(set(given) - {'--compare'}))} goes with a config, not a .gguf file")
    if args.list:
        for slug, entry in gallery().items():
            print(f"{slug:<18} {entry['name']}")
        return 0
    if args.config is None:
        walk_gallery()
        return 0
    known = gallery()

    def load(name):
        if name in known and not Path(name).exists():
            return known[name]["config"]
        if not Path(name).exists() and "/" not in name and not name.endswith(".json"):
            raise ConfigError(f"{name}: no such file, and not a gallery slug (python -m modelcard --list)")
        return read_config(name)

    try:
        if is_gguf(args.config):
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
            raise ConfigError("--compare goes with a .gguf file: python -m modelcard model.gguf --compare config.json")
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


def is_gguf(path: str) -> bool:
    """A .gguf file by name, or any file that starts with GGUF's magic bytes."""
    if str(path).endswith(".gguf"):
        return True
    try:
        with open(path, "rb") as file:
            return file.read(4) == b"GGUF"
    except OSError:
        return False


def walk_gallery() -> None:
    """Every gallery config's report, one after another (`python -m modelcard` with no CONFIG)."""
    from lessons._show import banner

    for slug, entry in gallery().items():
        banner(f"{entry['name']}  (python -m modelcard {slug})")
        print(report(explain(entry["config"])))

