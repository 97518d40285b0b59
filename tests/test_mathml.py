"""PRIMER_MATH=mathml: the rewrite of KaTeX's MathML for Chromium (figures_build/mathml.py),
and the switch itself (figures_build/math.py). Fast: KaTeX in Node, no browser."""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as etree
from pathlib import Path

import pytest

from figures_build import mathml
from figures_build.math import SCRIPT, Katex, MathError, math_mode

ROOT = Path(__file__).resolve().parents[1]
FONT = mathml.math_font()
needs_font = pytest.mark.skipif(FONT is None, reason=mathml.HOW_TO_INSTALL_FONT)


def katex(formulas: list[tuple[str, bool]], output: str | None = "mathml") -> list[str]:
    """KaTeX's answers, straight from katex_render.cjs."""
    extra = {"output": output} if output else {}
    lines = "".join(json.dumps({"tex": tex, "display": display, **extra}) + "\n" for tex, display in formulas)
    result = subprocess.run(["node", str(SCRIPT)], input=lines, capture_output=True, text=True, cwd=ROOT,
                            timeout=60, check=True)
    return [json.loads(line)["html"] for line in result.stdout.splitlines()]


def finished(tex: str, display: bool = False, font=None) -> str:
    return mathml.finish(katex([(tex, display)])[0], display, font)


def maths(markup: str) -> list[etree.Element]:
    """Each <math> of `markup`, parsed as XML: the rewrite must stay well-formed MathML."""
    assert markup.startswith('<span class="katex">') and markup.endswith("</span>")
    inner = markup[len('<span class="katex">'):-len("</span>")]
    root = etree.fromstring(f"<root>{inner}</root>")
    assert all(child.tag == mathml.NS + "math" for child in root), "only <math> elements in the wrapper"
    return list(root)


# --- bold and other alphabets ------------------------------------------------------------------


def test_bold_maps_to_unicode_mathematical_bold():
    out = finished(r"\boldsymbol{x} + \mathbf{W} + \boldsymbol{\theta} + \mathbb{R} + \mathbf{0} + \mathbb{1}")
    assert "mathvariant=\"bold" not in out and "double-struck" not in out
    for char in "𝒙𝐖𝜽ℝ𝟎𝟙":  # bold italic x, bold W, bold italic theta, double-struck R (a hole), bold 0, 𝟙
        assert char in out, char


@pytest.mark.parametrize("char, variant, expected", [
    ("x", "bold", "𝐱"), ("x", "bold-italic", "𝒙"), ("A", "italic", "𝐴"), ("h", "italic", "ℎ"),
    ("R", "double-struck", "ℝ"), ("C", "double-struck", "ℂ"), ("z", "double-struck", "𝕫"),
    ("θ", "bold-italic", "𝜽"), ("Θ", "bold", "𝚯"), ("α", "italic", "𝛼"), ("ϕ", "bold-italic", "𝝓"),
    ("7", "bold", "𝟕"), ("1", "double-struck", "𝟙"), ("+", "bold", "+"), ("x", "normal", "x"),
])
def test_math_char(char, variant, expected):
    assert mathml.math_char(char, variant) == expected


# --- spacing -------------------------------------------------------------------------------------


THIN = '<mspace width="0.1667em"/>'


def test_function_names_get_the_thin_space_before_an_ordinary_argument():
    assert f"<mi>sin</mi><mo>\u2061</mo>{THIN}<mi>x</mi>" in finished(r"\sin x")
    assert f"<mn>2</mn>{THIN}<mi>cos</mi>" in finished(r"2\cos\theta")  # and after an ordinary atom before
    assert f"</msub>{THIN}<mi>n</mi>" in finished(r"\log_2 n")  # a scripted name: after the scripts
    assert f'<mi mathvariant="normal">softmax</mi><mo>\u2061</mo>{THIN}' in finished(r"\operatorname{softmax} z")


def test_no_space_before_a_parenthesis_and_negative_space_cancels():
    assert "<mi>sin</mi><mo>\u2061</mo><mo" in finished(r"\sin(x)")  # TeX: op then open, no space
    cancelled = finished(r"\ln\!\left(L / (2\pi r)\right)", display=True)
    assert THIN not in cancelled and "-0.1667em" not in cancelled and "\u2063" not in cancelled


def test_norm_bars_are_fences_without_space_and_unary_minus_has_none():
    out = finished(r"\lVert a \rVert = -b")
    assert out.count('<mo stretchy="false" lspace="0" rspace="0">∥</mo>') == 2
    assert '<mo lspace="0" rspace="0">−</mo>' in out  # the unary minus after "="


def test_no_operator_space_in_scripts_as_in_tex():
    out = finished(r"\sum_{i=0}^{d-1} a_i", display=True)
    assert '<mo lspace="0" rspace="0">=</mo>' in out and '<mo lspace="0" rspace="0">−</mo>' in out


def test_tex_small_spaces_get_tex_widths():
    out = finished(r"a\,b\;c")
    assert '<mspace width="0.1667em"/>' in out and '<mspace width="0.2778em"/>' in out and "<mtext>" not in out


def test_primes_use_the_script_form_and_cases_keep_their_alignment():
    assert 'class="prime"' in finished(r"\theta_i' = x'")
    out = finished(r"f = \begin{cases} a & n \le L \\ b & n > L \end{cases}", display=True)
    assert "columnalign" not in out and out.count("text-align:left") == 4
    assert out.count("<mspace height=") == 4  # a strut per cell: rows as tall as TeX's


# --- inline line breaks ------------------------------------------------------------------------------


def test_inline_split_is_valid_mathml_and_keeps_every_token():
    tex = r"0.540^2 + 0.841^2 \approx 0.292 + 0.707 = 0.999 \approx 1"
    whole = mathml.finish(katex([(tex, False)])[0], True)  # display: never cut
    split = finished(tex)
    pieces = maths(split)
    assert len(maths(whole)) == 1 and len(pieces) == 6  # cut after each of + ≈ + = ≈
    assert mathml.tokens(split) == mathml.tokens(whole), "every token, in order, once"
    notes = [el for piece in pieces for el in piece.iter(mathml.NS + "annotation")]
    assert len(notes) == 1 and notes[0].text == tex, "the first piece keeps the whole TeX"
    for piece in pieces[:-1]:  # each piece but the last ends with its relation or operator
        row = piece[0][0] if piece[0].tag == mathml.NS + "semantics" else piece
        assert row[-1].tag == mathml.NS + "mo" and row[-1].get("form") == "infix"


def test_inline_split_does_not_cut_after_a_unary_sign_or_inside_groups():
    pieces = maths(finished(r"x = -\frac{a + b}{2}"))
    assert len(pieces) == 2  # after "=", not after the unary minus nor inside the fraction
    assert len(maths(finished(r"(a + b)"))) == 2 and len(maths(finished(r"\left(a + b\right)"))) == 1


def test_display_math_is_one_block_math_element():
    (math,) = maths(finished(r"a = b + c", display=True))
    assert math.get("display") == "block"


# --- what needs the font's metrics -----------------------------------------------------------------


@needs_font
def test_italic_correction_and_delimiter_widths():
    assert re.search(r'<mi style="padding-right:0\.1\d*em">P</mi>', finished(r"P = s", font=FONT))  # not P= s
    small = finished(r"\left(x\right)", font=FONT)
    assert small.count('stretchy="false"') == 2  # one line: the normal size, no stretch
    matrix = finished(r"\begin{pmatrix} a \\ b \end{pmatrix}", display=True, font=FONT)
    assert matrix.count('maxsize="') == 2 and matrix.count('minsize="') == 2 and matrix.count("width:0.") == 2
    big = finished(r"\big( x \big)", font=FONT)
    assert 'minsize="1.195em"' in big and "width:0.458em" in big  # Latin Modern's 1.195 em variant


# --- the switch ---------------------------------------------------------------------------------------


def test_default_switch_leaves_the_output_unchanged(monkeypatch):
    monkeypatch.delenv("PRIMER_MATH", raising=False)
    assert math_mode() == "html"
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
    assert [ours[f] for f in formulas] == direct, "html mode must be KaTeX's own htmlAndMathml, byte for byte"
    assert katex(formulas, output=None) == direct


def test_unknown_switch_value_stops_with_a_clear_error(monkeypatch):
    monkeypatch.setenv("PRIMER_MATH", "svg")
    with pytest.raises(MathError, match=r"PRIMER_MATH='svg' is not a math output: use `html`.*`mathml`"):
        Katex(ROOT)


def test_missing_font_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PRIMER_MATH", "mathml")
    monkeypatch.setenv("PRIMER_MATH_FONT", str(tmp_path / "no-such-font.otf"))
    with pytest.raises(MathError, match=r"apt-get install -y fonts-lmodern"):
        Katex(ROOT)


@needs_font
def test_font_subset_holds_the_characters_and_the_prime_forms(tmp_path):
    pytest.importorskip("brotli")
    from fontTools.ttLib import TTFont

    path = mathml.font_file(tmp_path, {"𝒙", "∑", "√", "′"})
    font = TTFont(str(path))
    cmap = font.getBestCmap()
    assert all(ord(c) in cmap for c in "𝒙∑√′az")
    assert "minute.st" in font.getGlyphOrder() and len(font.getGlyphOrder()) < 400
    assert font["MATH"].table.MathConstants.SubscriptShiftDown.Value == 150
    assert path.stat().st_size < 60_000
