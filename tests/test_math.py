"""site_build/markdown/math.py: the build typesets every formula with KaTeX in Node, and what it ships is
KaTeX's own `htmlAndMathml` output (HTML for the eye, MathML for screen readers), byte for byte."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from site_build.markdown.math import Katex, MathError

ROOT = Path(__file__).resolve().parents[1]


def test_the_build_ships_katex_own_output_byte_for_byte():
    formulas = [(r"\sin(m\theta) + \lVert \boldsymbol{x} \rVert", False), (r"\sum_{i=0}^{d-1} a_i", True)]
    engine = Katex(ROOT)
    try:
        ours = engine.render(formulas, "test")
    finally:
        engine.close()
    script = ("const k = require('katex'); const f = JSON.parse(process.argv[1]);"
              "console.log(JSON.stringify(f.map(([t, d]) => k.renderToString(t, "
              "{displayMode: d, throwOnError: true, output: 'htmlAndMathml'}))))")
    direct = json.loads(subprocess.run(["node", "-e", script, json.dumps(formulas)], cwd=ROOT, capture_output=True,
                                       text=True, check=True, timeout=60).stdout)
    assert [ours[f] for f in formulas] == direct


def test_a_formula_katex_cannot_parse_names_the_page():
    engine = Katex(ROOT)
    try:
        with pytest.raises(MathError, match=r"lessons/x\.py: KaTeX cannot typeset '\\\\frac\{1\}'"):
            engine.render([(r"\frac{1}", False)], "lessons/x.py")
    finally:
        engine.close()
