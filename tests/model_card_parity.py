"""The decoder's parity cases, Python against its JavaScript port (modelcard/web/model_card.js):
every gallery config, a few hundred generated ones and the edge cases (tests/model_card_cases.py),
each read as a card, a report (text, sections, HTML) and a served report naming an engine
release in turn; errors compared by kind and message. tests/test_model_card_node.py runs the port
in Node on them."""

from __future__ import annotations

import json
import math
import warnings

from lessons.model_card import explain
from lessons.tools.model_types import ConfigError, gallery
from modelcard.html import page_titles, render_html
from modelcard.known_bugs import release_menu
from modelcard.report import card_json, report, report_sections
from tests.model_card_cases import EDGE_CASES, generated_configs

GALLERY = gallery()
NOT_OBJECTS = [[1, 2], "config", 3, None]  # explain refuses them: a config is a JSON object
LINKS = {slug: f"../{slug}/" for slug in page_titles()}  # a lesson's page, from the decoder's
CONFIGS = [entry["config"] for entry in GALLERY.values()] + generated_configs(300, seed=0) + EDGE_CASES + NOT_OBJECTS
# the served reports name an engine release in turn (its known bugs join them), now and then none or a wrong spec
ENGINE_SPECS = [spec for spec, _ in release_menu()] + [None, "vllm=0.33.0"]

# Every case through PrimerModelCard, results or errors as data (JS: `run_cases(M, cases, links)`).
RUN_CASES = """
function run_cases(M, cases, links) {
  const run = (f) => {
    try { return { ok: f() }; }
    catch (e) { return { error: e instanceof M.ConfigError ? "ConfigError" : (e.pyType || "JS " + e.name), message: e.message }; }
  };
  return cases.map(([text, served, engine]) => {
    const config = M.parse(text);
    return { json: run(() => M.explain(config)), report: run(() => M.report(config, null)),
             sections: run(() => M.sections(config, null)),
             served: served === null ? null : run(() => M.report(config, served, "org/model", engine)),
             served_json: served === null ? null : run(() => M.explain(config, served, "org/model", engine)),
             served_html: served === null ? null : run(() => M.html(config, served, "org/model", links, engine)) };
  });
}
"""


def python_result(f):
    """{"ok": f()} or {"error": kind, "message": text}, as RUN_CASES reports the port's."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {"ok": f()}
    except Exception as exc:  # the JS must raise the same class of error with the same message
        return {"error": "ConfigError" if isinstance(exc, ConfigError) else type(exc).__name__, "message": str(exc)}


def differences(want, got, where: str) -> list[str]:
    """Where `got` differs from `want`: same structure and key order, numbers to 1e-9 relative."""
    if isinstance(want, bool) or isinstance(got, bool) or want is None or got is None or isinstance(want, str):
        return [] if want == got and type(want) is type(got) else [f"{where}: {want!r} != {got!r}"]
    if isinstance(want, (int, float)):
        ok = isinstance(got, (int, float)) and (want == got or math.isclose(want, got, rel_tol=1e-9)
                                               or (math.isnan(want) and math.isnan(got)))
        return [] if ok else [f"{where}: {want!r} != {got!r}"]
    if isinstance(want, list):
        if not isinstance(got, list) or len(want) != len(got):
            return [f"{where}: {len(want)} items != {got!r:.200}"]
        return [d for i, (a, b) in enumerate(zip(want, got, strict=True)) for d in differences(a, b, f"{where}[{i}]")]
    if not isinstance(got, dict) or list(want) != list(got):
        return [f"{where}: keys {list(want)} != {list(got) if isinstance(got, dict) else got!r}"]
    return [d for key in want for d in differences(want[key], got[key], f"{where}.{key}")]


def served_length(config) -> int | None:
    """A length to serve beyond the config's own, for the second report (None: no length to start from)."""
    card = python_result(lambda: explain(config))
    return card["ok"].max_length * 2 + 3 if "ok" in card and card["ok"].max_length else None


def cases() -> list[list]:
    """[config as JSON text, length to serve or None, engine spec or None] for every config of CONFIGS."""
    served = [served_length(c) for c in CONFIGS]
    engines = [ENGINE_SPECS[i % len(ENGINE_SPECS)] for i in range(len(CONFIGS))]
    return [[json.dumps(c), s, e] for c, s, e in zip(CONFIGS, served, engines, strict=True)]


def compare(inputs: list[list], got: list[dict]) -> tuple[list[str], dict[str, int]]:
    """(differences between Python and the port's `got` for `inputs`, how many of each were compared)."""
    problems, compared = [], {"json": 0, "report": 0, "errors": 0}
    for i, ((text, length, spec), result) in enumerate(zip(inputs, got, strict=True)):
        config, name = json.loads(text), f"config {i} {text[:160]}"
        want = {"json": python_result(lambda c=config: card_json(explain(c))),
                "report": python_result(lambda c=config: report(explain(c))),
                "sections": python_result(lambda c=config: report_sections(explain(c)))}
        if length is not None:
            want["served"] = python_result(lambda c=config, n=length, e=spec: report(explain(c), n, "org/model", e))
            want["served_json"] = python_result(lambda c=config, n=length, e=spec:
                                                card_json(explain(c), n, "org/model", e))
            want["served_html"] = python_result(lambda c=config, n=length, e=spec: render_html(
                report_sections(explain(c), n, "org/model", e), LINKS.get))
        for key, expected in want.items():
            actual = result[key]
            if "error" in expected:
                compared["errors"] += 1
                if actual != expected:
                    problems.append(f"{name}: {key}: Python raised {expected}, JS gave {str(actual)[:300]}")
            elif "ok" not in actual:
                problems.append(f"{name}: {key}: JS raised {actual}")
            elif key in ("json", "served_json", "sections"):
                compared["json"] += 1
                problems += [f"{name}: {d}" for d in differences(expected["ok"], actual["ok"], "card")[:5]]
            else:
                compared["report"] += 1
                if actual["ok"] != expected["ok"]:
                    problems.append(f"{name}: {key} differs:\n--- Python\n{expected['ok']}\n--- JS\n{actual['ok']}")
    return problems, compared
