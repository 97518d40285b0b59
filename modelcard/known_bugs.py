"""Known position bugs, by engine and release: which rows of `known_bugs.json` bite a pasted config.

`python -m modelcard config.json --engine vllm==0.33.0` (and the browser decoder's release menu)
shows the rows whose engine is the one named, whose releases include the one named, and whose rule holds
for the config at the length served. Each row was read in an issue or pull-request thread and, where a fix
exists, in the release that carries it (`source`); a row whose fix was not found is shown with the last
release it was checked in, never as current past it without saying so.

A row's `rule` is a dict of conditions that must all hold (an empty rule: every config):
    model_types: the card's model type is one of these;
    architectures: the config's first architecture is one of these;
    rope_types: a RoPE group has one of these types, or the printed command adds that type (YaRN);
    from_config: true - rope_types counts only the config's own blocks, not the one a command adds;
    mrope: true - a RoPE group turns M-RoPE sections;
    past: "table" (the length served runs past the rows this engine's RoPE table has and no override makes
        it reach, so the decoder prints no command for it: `engine_tables.covered`, `engine_refusals`),
        "trained" (past the trained length) or "config" (past the limit);
    yarn_factor_not_ratio: true - a YaRN block (the config's, or the one the command adds) that names
        original_max_position_embeddings has a factor other than max_position_embeddings over it (what a
        release that recomputes the factor, or derives the length without it, uses instead); "filled" -
        the same, an original length the block does not name being max_position_embeddings, as
        transformers 5 fills it in (standardize_rope_params) before an engine reads the config.

A row's `first` is a release it is read in and `since` says how: "introduced" (the code arrived there:
earlier releases are not affected) or "seen" (reported or read there: earlier releases were not checked,
and the row says so for them); None: not established, the row holds for every release before `fixed`.
`fixed` is the release that carries the fix (None: none found), `checked` the last release it was seen in.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from modelcard.engine_tables import covered, table_length
from modelcard.engines import engine_refusals, scaling_override, vllm_max_model_len
from lessons.tools.model_types import ConfigError

KNOWN_BUGS = json.loads(Path(__file__).with_name("known_bugs.json").read_text(encoding="utf-8"))
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "llama.cpp": "llama.cpp", "transformers": "transformers"}
_RELEASE = re.compile(r"(?:\d+(?:\.\d+)*(?:\.post\d+)?|b\d+)")  # 0.33.0, 0.8.5.post1; llama.cpp's build tags: b5300
# The releases the decoder's other rules were read in (modelcard.engines), offered first in the menu.
MODELLED_RELEASES = {"vllm": "0.33.0", "sglang": "0.5.23", "transformers": "5.24.0"}


def parse_engine(spec: str) -> tuple[str, str]:
    """("vllm", "0.33.0") from "vllm==0.33.0"; a `ConfigError` saying the form for anything else."""
    engine, sep, release = str(spec).strip().partition("==")
    if not sep or engine not in ENGINE_NAMES or not _RELEASE.fullmatch(release):
        raise ConfigError(f"--engine takes ENGINE==RELEASE with ENGINE one of {', '.join(ENGINE_NAMES)} and a "
                          f"release such as 0.33.0 (llama.cpp: a build tag such as b5300), got {spec!r}")
    return engine, release


def release_key(release: str) -> tuple[int, ...]:
    """A release as numbers that sort in release order: "0.33.0" -> (0, 33, 0), "0.8.5.post1" -> (0, 8, 5, 1),
    "b5300" -> (5300,)."""
    return tuple(int(p.removeprefix("post")) for p in release.lstrip("b").split("."))


def status(row: dict, release: str) -> str | None:
    """How far the row is read for `release`, in words; None when the release is not affected (at or past
    the fix, or before the release that introduced the bug)."""
    key, first, fixed = release_key(release), row["first"], row["fixed"]
    if fixed is not None and key >= release_key(fixed):
        return None
    seen = "seen from " if row["since"] == "seen" else ""
    if first is not None and key < release_key(first):
        return None if row["since"] == "introduced" else f"seen from {first}; {release} is earlier and was not checked"
    if fixed is not None:
        return (f"releases before {fixed}" if first is None else f"{seen or 'from '}{first} to before {fixed}") + \
            ", which fixes it"
    if key <= release_key(row["checked"]):
        return f"{seen}{first} on, still in {row['checked']}"
    return f"{seen}{first} on, last seen in {row['checked']}; {release} not checked"


def _yarn_blocks(card, served: int, filled: bool) -> list[dict]:
    added, P = scaling_override(card, served), table_length(card)
    blocks = [g.parameters for g in card.rope if g.rope_type == "yarn"] + ([added] if added else [])
    return [{"original_max_position_embeddings": P} | b if filled else b for b in blocks]


def rule_holds(rule: dict, card, served: int, engine: str) -> bool:
    """Does every condition of `rule` (the module docstring lists them) hold for `card` at `served`?"""
    checks = {
        "model_types": lambda v: card.model_type in v,
        "architectures": lambda v: bool(card.architectures) and card.architectures[0] in v,
        "rope_types": lambda v: any(g.rope_type in v for g in card.rope) or (
            not rule.get("from_config") and "yarn" in v and scaling_override(card, served) is not None),
        "from_config": lambda v: True,  # read by rope_types
        "mrope": lambda v: any("mrope_section" in g.parameters for g in card.rope) == v,
        "past": lambda v: {"table": lambda: bool(card.rope) and not covered(card, served, engine)
                           and engine in engine_refusals(card, served),
                           "trained": lambda: card.trained_length is not None and served > card.trained_length,
                           "config": lambda: card.max_length is not None and served > card.max_length}[v](),
        "yarn_factor_not_ratio": lambda v: bool(v) == any(
            b.get("original_max_position_embeddings") and table_length(card)
            and float(b.get("factor") or 1.0) != table_length(card) / b["original_max_position_embeddings"]
            for b in _yarn_blocks(card, served, v == "filled")),
    }
    return all(checks[key](value) for key, value in rule.items())


def known_bugs(card, served: int | None, spec: str) -> list[dict]:
    """The rows of KNOWN_BUGS for the engine release `spec` ("vllm==0.33.0") whose rule holds for `card`
    served `served` positions (None: vLLM's derived length), each with "status": the releases it is read
    for, in words."""
    engine, release = parse_engine(spec)
    served = served or vllm_max_model_len(card)
    out = []
    for row in KNOWN_BUGS["rows"]:
        said = status(row, release) if row["engine"] == engine else None
        if said is not None and rule_holds(row["rule"], card, served, engine):
            out.append(row | {"status": said})
    return out


def release_menu() -> list[list[str]]:
    """[[spec, label], ...] for the browser decoder's menu: per engine, the release each rule was read in and
    every release where a row of KNOWN_BUGS starts, is fixed or was last checked (a release between two of
    them gives the rows of the one below it)."""
    menu = []
    for engine, name in ENGINE_NAMES.items():
        rows = [r for r in KNOWN_BUGS["rows"] if r["engine"] == engine]
        releases = {r[k] for r in rows for k in ("first", "fixed", "checked") if r.get(k)}
        releases |= {MODELLED_RELEASES[engine]} if engine in MODELLED_RELEASES else set()
        menu += [[f"{engine}=={r}", f"{name} {r}"] for r in sorted(releases, key=release_key)]
    return menu
