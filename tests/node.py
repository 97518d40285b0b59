"""Running the explorables' JavaScript in Node (no browser, no build), for the parity tests
(`test_*_node.py`, the build tier): `run_explorable` loads the core and an explorable's script
as a page would, with the data the build publishes, and answers cases with its DOM-free
functions (the third argument of its `PrimerExplorables.define`)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from explorables import REGISTRY
from explorables.data import WEB, data_script

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="needs Node.js (node on PATH)")

# argv: the scripts to run in order; stdin: [[function name, args...], ...]; stdout: the results.
# `core.NAME` calls PrimerCore.NAME, `NAME` the explorable's own DOM-free function.
RUNNER = r"""
const fs = require("fs");
global.window = global;
let pure = {};
global.PrimerExplorables = { define: (name, mount, fns) => { pure = fns || {}; } };
for (const path of process.argv.slice(2)) new Function(fs.readFileSync(path, "utf8"))();
const calls = JSON.parse(fs.readFileSync(0, "utf8"));
const out = calls.map(([fn, ...args]) => {
  const f = fn.startsWith("core.") ? window.PrimerCore[fn.slice(5)] : pure[fn];
  if (!f) throw new Error("no function " + fn);
  return f(...args);
});
process.stdout.write(JSON.stringify(out));
"""


def run_explorable(tmp_path, name: str | None, calls: list[list]) -> list:
    """Each call [function, *args] answered by the core (`core.f`) or explorable `name`'s DOM-free
    functions (`f`), in Node, after loading core.js, its data (if any) and its script; None for
    the core alone. JSON in and out: floats keep every digit (JSON.stringify gives the shortest
    text that reads back as the same double, as Python's repr)."""
    scripts = [WEB / "core.js"]
    if name is not None:
        e = REGISTRY[name]
        if e.data:
            data = tmp_path / f"{name}.data.js"
            data.write_bytes(data_script(e))
            scripts.append(data)
        scripts.append(WEB / f"{name}.js")
    runner = tmp_path / "runner.js"
    runner.write_text(RUNNER, encoding="utf-8")
    done = subprocess.run([NODE, str(runner), *map(str, scripts)], input=json.dumps(calls), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)
