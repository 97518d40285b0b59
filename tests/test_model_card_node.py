"""The decoder's JavaScript port (modelcard/web/model_card.js), run in Node (no browser, no build),
against the Python it ports: every parity case of tests/model_card_parity.py (the same card, report
and errors), the explorer's `compare_methods`, the engines' own switches, and the port's Python
emulation (float `repr`, `format(x, ",.Ng")`, `format(x, ",")`, round-half-even, `json.dumps`) on a
few hundred seeded values. The page around it is tested in Chromium: tests/test_model_card_browser.py."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess

import pytest

from modelcard.data import browser_tables
from tests.model_card_parity import CONFIGS, GALLERY, LINKS, RUN_CASES, cases, compare, differences
from tests.conftest import ROOT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js (node on PATH)")

# Loads model_card.js as a page would (its tables first), with no page around it, then answers each
# case from stdin: [op, JSON text of the value, digits].
SCRIPT = r"""
const fs = require("fs");
global.window = global;
global.document = { currentScript: null, readyState: "complete", getElementById: () => null };
const [tables, source] = process.argv.slice(1);
window.PrimerModelCardTables = fs.readFileSync(tables, "utf8");
new Function(fs.readFileSync(CORE, "utf8"))();  // the numeric core, which the page loads first
new Function(fs.readFileSync(source, "utf8"))();
const M = window.PrimerModelCard, cases = JSON.parse(fs.readFileSync(0, "utf8"));
const run = {
  repr: (v) => M.format.repr(v), g: (v, p) => M.format.g(v, p, false), gc: (v, p) => M.format.g(v, p, true),
  comma: (v) => M.format.comma(v), round: (v) => String(M.format.round(+v)), dumps: (v) => M.dumps(v),
};
process.stdout.write(JSON.stringify(cases.map(([op, text, p]) => run[op](M.parse(text), p))));
""".replace("CORE", json.dumps(str(ROOT / "explorables" / "web" / "core.js")))


def _floats(rng: random.Random) -> list[float]:
    """Floats that stress the formats: ties at every precision, powers of ten and their neighbours,
    subnormals, the edges of repr's fixed notation (1e-4 and 1e16), and random doubles."""
    out = [0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1e-4, 9.99e-5, 1e16, 9.999999999999998e15, 5e-324,
           1.7976931348623157e308, 2.0 ** 53, 2.0 ** 53 + 2, 123456.5, 0.1 + 0.2, 1 / 3, 2 / 3, math.pi, math.e]
    out += [10.0 ** k for k in range(-8, 23)] + [-(10.0 ** k) * 1.5 for k in range(-6, 18, 3)]
    out += [rng.randint(-10 ** 6, 10 ** 6) / 2 ** rng.randint(0, 12) for _ in range(120)]  # many exact ties
    out += [math.ldexp(rng.random(), rng.randint(-60, 80)) * rng.choice((1, -1)) for _ in range(120)]
    return out


def _cases() -> list[tuple[str, str, int, str]]:
    """(op, value as JSON text, digits, what Python gives)."""
    rng = random.Random(20240624)
    floats = _floats(rng)
    cases = []
    for x in floats:
        text = json.dumps(x)  # repr: 8.0 stays "8.0", so the decoder's parse keeps it a float
        p = rng.randint(1, 8)
        cases += [("repr", text, 0, repr(x)), ("g", text, p, format(x, f".{p}g")),
                  ("gc", text, p, format(x, f",.{p}g")), ("comma", text, 0, format(x, ","))]
        if abs(x) < 2 ** 52:
            cases.append(("round", text, 0, str(round(x))))
    # integers up to 2^53, which a JavaScript number holds exactly (a JSON integer past it loses its last
    # digits in the browser: 10**21 + 1 reads as 10**21; no config length comes near)
    for n in [0, 7, -12, 1000, -1234567, 10 ** 15, 2 ** 53, -(2 ** 53), rng.randint(-(2 ** 53), 2 ** 53)]:
        cases += [("repr", json.dumps(n), 0, repr(n)), ("comma", json.dumps(n), 0, format(n, ","))]
    for _ in range(40):  # nested configs: dicts, lists, strings, ints, floats, booleans, null
        value = {f"k{i}": rng.choice([rng.choice(floats), rng.randint(-99, 99), "text", True, None,
                                      [rng.choice(floats), {"inner": rng.choice(floats)}], [], {}])
                 for i in range(rng.randint(0, 5))}
        cases.append(("dumps", json.dumps(value), 0, json.dumps(value, indent=2)))
    return cases


def test_javascript_formats_numbers_as_python_does(tmp_path):
    cases = _cases()
    assert len(cases) > 300
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps(browser_tables()), encoding="utf-8")
    done = subprocess.run([NODE, "-e", SCRIPT, str(tables), str(ROOT / "modelcard" / "web" / "model_card.js")],
                          input=json.dumps([c[:3] for c in cases]), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    wrong = [(op, text, p, want, js) for (op, text, p, want), js in zip(cases, got, strict=True) if js != want]
    assert not wrong, f"{len(wrong)} of {len(cases)} differ from Python, e.g. (op, value, digits, python, js): {wrong[:5]}"


# Loads the decoder the same way, then prints its report for each [config JSON text, served length].
REPORTS = SCRIPT.split("const run = {")[0] + r"""
process.stdout.write(JSON.stringify(cases.map(([text, served]) => M.report(M.parse(text), served, "org/model"))));
"""


def test_javascript_engine_switches_match_python(tmp_path):
    """The engine notes of each engine's own switches (modelcard/engines.py): Llama 4's temperature gate in
    vLLM 0.33.0 (on only past --max-model-len 32,768: the note and the flag at 32,768, neither at 32,769) and
    Ministral 3's llama_4_scaling_beta, which vLLM reads only from params.json; the report of
    modelcard/web/model_card.js is the Python report, line for line."""
    from lessons.model_card import explain
    from modelcard.report import report
    from lessons.tools.model_types import gallery
    from tests.test_model_card import MINISTRAL3

    scout = gallery()["llama-4-scout"]["config"]
    small = {"model_type": "llama4", "text_config": {"model_type": "llama4_text", "num_hidden_layers": 8,
             "head_dim": 128, "hidden_size": 1024, "num_attention_heads": 8, "max_position_embeddings": 16384,
             "floor_scale": 4096}}
    cases = [(scout, 32768), (scout, 32769), (scout, None), (small, None), (small, 32769),
             (MINISTRAL3, None), (MINISTRAL3["text_config"], 32768), (gallery()["mistral-7b"]["config"], None)]
    want = [report(explain(config), served, "org/model") for config, served in cases]
    assert sum("--override-generation-config" in w for w in want) == 2  # scout at 32,768, small at 16,384
    assert sum("reads llama_4_scaling_beta" in w for w in want) == 2
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps(browser_tables()), encoding="utf-8")
    done = subprocess.run([NODE, "-e", REPORTS, str(tables), str(ROOT / "modelcard" / "web" / "model_card.js")],
                          input=json.dumps([[json.dumps(c), n] for c, n in cases]), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    for (config, served), python, js in zip(cases, want, json.loads(done.stdout), strict=True):
        differ = [(p, j) for p, j in zip(python.splitlines(), js.splitlines(), strict=False) if p != j]
        assert python == js, f"{config['model_type']} served {served}: first differing line (python, js): {differ[:1]}"


PARITY = SCRIPT.split("const run = {")[0] + RUN_CASES + r"""
process.stdout.write(JSON.stringify(run_cases(M, cases, JSON.parse(process.argv[3]))));
"""


def test_javascript_decoder_agrees_with_python_on_every_config(tmp_path):
    """The port, in Node (no browser, no site build), on every parity case (tests/model_card_parity.py):
    the same card, the same report (text, sections and HTML) and the same errors as Python."""
    inputs = cases()
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps(browser_tables()), encoding="utf-8")
    done = subprocess.run([NODE, "-e", PARITY, str(tables), str(ROOT / "modelcard" / "web" / "model_card.js"),
                           json.dumps(LINKS)], input=json.dumps(inputs), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout)
    problems, compared = compare(inputs, got)
    assert not problems, f"{len(problems)} differences, e.g.:\n" + "\n".join(problems[:10])
    assert len(got) == len(CONFIGS) >= 300 + len(GALLERY)
    assert compared["json"] > 300 and compared["report"] > 150 and compared["errors"] > 50, compared


COMPARE = SCRIPT.split("const run = {")[0] + r"""
process.stdout.write(JSON.stringify(cases.map(([g, L, s]) => M.compareMethods(g, L, s))));
"""


def test_compare_methods_agrees_with_python(tmp_path):
    """The explorer's speeds under every stretching rule (`compare_methods`), in Node, for every RoPE
    group of the gallery at four (trained length, stretch) settings."""
    from lessons.model_card import compare_methods, explain

    inputs, wants = [], []
    for entry in GALLERY.values():
        card = explain(entry["config"])
        for group in card.rope:
            for length, stretch in ((card.trained_length or 4096, 4.0), (4096, 1.0), (8192, 2.5), (2048, 64.0)):
                inputs.append(({"base": group.base, "rotary_dim": group.rotary_dim, "rope_type": group.rope_type,
                                "head_dim": group.head_dim}, length, stretch))
                wants.append({k: list(map(float, v)) for k, v in compare_methods(group, length, stretch).items()})
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps(browser_tables()), encoding="utf-8")
    done = subprocess.run([NODE, "-e", COMPARE, str(tables), str(ROOT / "modelcard" / "web" / "model_card.js")],
                          input=json.dumps(inputs), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    problems = [d for (spec, length, stretch), want, got in zip(inputs, wants, json.loads(done.stdout), strict=True)
                for d in differences(want, got, f"{spec} L={length} s={stretch}")]
    assert inputs and not problems, "\n".join(problems[:10])


EXPLORER = SCRIPT.split("const run = {")[0] + r"""
process.stdout.write(JSON.stringify(cases.map(([config, served, settings, group]) => {
  const start = M.explorerStart(config === null ? null : M.parse(config), served, group);
  const at = Math.round(start.trained * start.stretch);
  return [start, settings.map(([b, w, L, s, win]) => M.methodMeasures(b, w, L, s, win)),
          M.methodMeasures(start.base, start.width, start.trained, start.stretch, start.window),
          config === null || start.group === null ? null : M.blockMeasures(M.parse(config), start.trained, at, start.window, group)];
})));
"""


def test_the_explorer_starts_and_measures_as_python(tmp_path):
    """The explorer under the report (modelcard.explorer), in Node: where it starts for every gallery
    config (its base, width, trained length, stretch, window and other groups, at vLLM's length and at a
    length asked for, and at each of its RoPE groups, the page's "Layer group" menu) and, there and at
    fixed settings, the config's own block and each method's pairs past the trained angles, largest
    angle ratio, untouched pairs and slowest pair, as Python computes them (issue 43, item 6; issue 44
    follow-up: every group, not the first only)."""
    from lessons.model_card import explain
    from modelcard.explorer import block_measures, explorer_start, method_measures

    settings = [(10000.0, 128, 4096, 8.0, None), (500000.0, 128, 8192, 16.0, None), (10000.0, 64, 2048, 2.5, None),
                (1e6, 256, 32768, 1.0, None), (150000.0, 32, 4096, 64.0, None), (10000.0, 8, 64, 4.0, None),
                (500000.0, 128, 8192, 1280.0, 8192), (10000.0, 128, 4096, 8.0, 1024)]
    inputs, wants = [[None, None, settings]], [[explorer_start(None), [method_measures(*s) for s in settings]]]
    cards = [(None, 0)]
    for entry in GALLERY.values():
        card = explain(entry["config"])
        for served in (None, 3 * (card.max_length or 4096) + 1):
            inputs.append([json.dumps(entry["config"]), served, []])
            wants.append([explorer_start(card, served), []])
            cards.append((card, 0))
        for group in range(len(card.rope)):  # every group, named by its index, at a length asked for
            inputs.append([json.dumps(entry["config"]), 2 * (card.max_length or 4096) + 1, [], group])
            wants.append([explorer_start(card, inputs[-1][1], group), []])
            cards.append((card, group))
    for want, (card, group) in zip(wants, cards, strict=True):
        start = want[0]
        want.append(method_measures(start["base"], start["width"], start["trained"], start["stretch"], start["window"]))
        want.append(None if card is None else block_measures(card, start["trained"], round(start["trained"] * start["stretch"]),
                                                             start["window"], group) if card.rope else None)
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps(browser_tables()), encoding="utf-8")
    done = subprocess.run([NODE, "-e", EXPLORER, str(tables), str(ROOT / "modelcard" / "web" / "model_card.js")],
                          input=json.dumps(inputs), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout)
    problems = [d for (config, served, *rest), want, have in zip(inputs, wants, got, strict=True)
                for d in differences(json.loads(json.dumps(want)), have, f"{(config or 'none')[:60]} served={served} group={rest[1:]}")]
    chosen = [(case[0], have[0]["base"]) for case, have in zip(inputs, got, strict=True) if len(case) == 4]
    groups = sum(len(explain(entry["config"]).rope) for entry in GALLERY.values())
    assert len(got) == 2 * len(GALLERY) + groups + 1 and not problems, "\n".join(problems[:10])
    assert len(set(chosen)) > len({config for config, _ in chosen}), "no config's groups differ"
    # the measures tell the methods apart where the old summary did not (Llama 3.1 at 16x: 29 each)
    llama = method_measures(500000.0, 128, 8192, 16.0)
    assert len({(m["past"], m["untouched"], round(m["slowest"], 6)) for m in llama.values()}) == len(llama), llama


NTK_PAST = SCRIPT.split("const run = {")[0] + r"""
process.stdout.write(JSON.stringify(cases.map((config) => {
  const start = M.explorerStart(M.parse(config), null);
  return [start.stretch, M.methodMeasures(start.base, start.width, start.trained, start.stretch, start.window)["NTK-aware"]];
})));
"""


def test_ntk_aware_leaves_pairs_past_the_trained_angles_in_node(tmp_path):
    """In the browser's code, Llama 3.1 8B's explorer starts at 16× and NTK-aware, set for that stretch as
    a practitioner sets it, still leaves pairs past the angles of the trained 8,192 positions, as
    lessons/context_extension.py teaches (some pairs slowed too little): the dynamic rule with factor s
    read at s·L raised the base for s² − s + 1 and put every pair within them (issue 43, H1)."""
    from lessons.context_extension import ntk_scaled_base, rope_frequencies, trained_angle_ratio
    from lessons.model_card import explain

    card = explain(GALLERY["llama-3.1-8b"]["config"])
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps(browser_tables()), encoding="utf-8")
    done = subprocess.run([NODE, "-e", NTK_PAST, str(tables), str(ROOT / "modelcard" / "web" / "model_card.js")],
                          input=json.dumps([json.dumps(GALLERY["llama-3.1-8b"]["config"])]), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    [(stretch, ntk)] = json.loads(done.stdout)
    group, L = card.rope[0], card.trained_length
    assert stretch == 131072 / L == 16
    # the same head by the lesson's own NTK-aware functions: the base raised for 16, read at 16 L
    d = group.rotary_dim
    ratio = trained_angle_ratio(rope_frequencies(d, ntk_scaled_base(group.base, stretch, d)),
                                group.default_inv_freq, L, round(L * stretch))
    assert ntk["past"] == int((ratio > L / (L - 1)).sum()) > 0, ntk
    assert math.isclose(ntk["largest"], ratio.max(), rel_tol=1e-9) and ntk["largest"] > 1, ntk
