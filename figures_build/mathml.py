"""MathML-only math output (PRIMER_MATH=mathml): KaTeX's MathML, fixed for Chromium.

The default output (PRIMER_MATH=html) ships every formula twice: KaTeX's HTML
for the eye and a MathML copy for screen readers. In MathML mode KaTeX emits
only the MathML and the browser typesets it natively (MathML Core), with a
subset of the Latin Modern Math font served from the site. MathML Core leaves
out some of what KaTeX's MathML relies on, so `finish()` rewrites each formula
at build time:

- bold and other alphabets: `mathvariant="bold"` / `"bold-italic"` / `"double-struck"`
  are not honoured by Chromium; the letters become Unicode's Mathematical
  Alphanumeric Symbols (x -> 𝐱, θ -> 𝜽, R -> ℝ, 1 -> 𝟙);
- TeX's thin space between a function name (\\sin, \\log, \\max,
  \\operatorname) and an ordinary neighbour, which MathML's <mi>sin</mi> lacks;
- TeX's spacing of ‖ (\\lVert, \\rVert: an opening and a closing fence, no
  space; Chromium spaces U+2225 as a relation) and of a unary minus (no space);
- the column alignment and spacing of `cases`, `aligned` and matrices (Chromium
  ignores mtable's columnalign/columnspacing/rowspacing attributes);
- line breaks: Chromium never breaks a line inside <math>, so a long inline
  formula is cut after its top-level relations and binary operators into
  several <math> elements, as KaTeX's HTML allows a break there. The first
  piece keeps the TeX of the whole formula as its annotation (copy/paste);
- the rest of TeX's layout that Chromium does differently: the widths of \\, \\;
  \\! (KaTeX writes \\! as a positive space), no operator space inside scripts,
  primes drawn in their script form, a slanted letter's italic correction,
  script positions, delimiter sizes and widths (Chromium gives a stretchy
  delimiter the width of its widest variant), \\dots's width and \\underbrace.

Each rewrite says what Chromium does and what TeX (KaTeX's HTML) does. The
ones that need the font's metrics (`MathFont`) are skipped without the font.
`font_file()` writes the font subset (cached in .cache/mathml/), `configure()`
and `add_files()` put its stylesheet and font into the site.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import xml.etree.ElementTree as etree
from pathlib import Path

from figures_build.math import MathError

NS = "{http://www.w3.org/1998/Math/MathML}"
FONT_SOURCES = [  # Debian's fonts-lmodern
    Path("/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf"),
    Path("/usr/share/fonts/opentype/lmodern/latinmodern-math.otf"),
]
FONT_LICENSE = Path("/usr/share/texmf/doc/fonts/lm-math/GUST-FONT-LICENSE.txt")
HOW_TO_INSTALL_FONT = ("PRIMER_MATH=mathml needs the Latin Modern Math font: `sudo apt-get install -y fonts-lmodern` "
                       "(or set PRIMER_MATH_FONT=/path/to/an-OpenType-MATH-font.otf)")
SITE_FONT = "assets/fonts/latinmodern-math-subset.woff2"
SITE_FONT_LICENSE = "assets/fonts/GUST-FONT-LICENSE.txt"
STYLESHEET = "stylesheets/mathml.css"
KATEX_CSS = "assets/vendor/katex/katex.min.css"
THIN = "0.1667em"  # TeX's \thinmuskip, 3 mu

# The font subset holds the characters the site's formulas use (as the browser
# draws them: a one-letter <mi> in italic), plus these, and the MATH table's
# size variants and pieces of each (stretched brackets, big operators, roots).
BASE_CHARS = "".join(map(chr, range(0x20, 0x7F))) + "\u2009\u2061"
SUBSET_VERSION = "4"  # bump when the subset's recipe changes

# --- Unicode's mathematical alphabets -------------------------------------------------

_LATIN = {  # mathvariant -> first code point of A..Z a..z
    "bold": 0x1D400, "italic": 0x1D434, "bold-italic": 0x1D468, "script": 0x1D49C, "bold-script": 0x1D4D0,
    "fraktur": 0x1D504, "double-struck": 0x1D538, "bold-fraktur": 0x1D56C, "sans-serif": 0x1D5A0,
    "bold-sans-serif": 0x1D5D4, "sans-serif-italic": 0x1D608, "sans-serif-bold-italic": 0x1D63C,
    "monospace": 0x1D670,
}
_LATIN_HOLES = {  # letters Unicode had before the block (the block leaves a hole there)
    ("italic", "h"): "ℎ",
    **{("script", c): u for c, u in zip("BEFHILMRego", "ℬℰℱℋℐℒℳℛℯℊℴ")},
    **{("fraktur", c): u for c, u in zip("CHIRZ", "ℭℌℑℜℨ")},
    **{("double-struck", c): u for c, u in zip("CHNPQRZ", "ℂℍℕℙℚℝℤ")},
}
# the order of each Greek alphabet: Α..Ρ ϴ Σ..Ω ∇ α..ω ∂ ϵ ϑ ϰ ϕ ϱ ϖ
_GREEK_ORDER = ("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡϴΣΤΥΦΧΨΩ∇" "αβγδεζηθικλμνξοπρςστυφχψω∂ϵϑϰϕϱϖ")
_GREEK = {"bold": 0x1D6A8, "italic": 0x1D6E2, "bold-italic": 0x1D71C,
          "bold-sans-serif": 0x1D756, "sans-serif-bold-italic": 0x1D790}
_DIGITS = {"bold": 0x1D7CE, "bold-italic": 0x1D7CE, "double-struck": 0x1D7D8, "sans-serif": 0x1D7E2,
           "bold-sans-serif": 0x1D7EC, "sans-serif-bold-italic": 0x1D7EC, "monospace": 0x1D7F6}
_DOTLESS = {("italic", "ı"): "𝚤", ("italic", "ȷ"): "𝚥"}


def math_char(char: str, variant: str) -> str:
    """`char` in the mathematical alphabet `variant` (a MathML mathvariant), or `char` where there is none."""
    if (variant, char) in _LATIN_HOLES:
        return _LATIN_HOLES[(variant, char)]
    if (variant, char) in _DOTLESS:
        return _DOTLESS[(variant, char)]
    if variant in _LATIN and char.isascii() and char.isalpha():
        index = ord(char) - ord("A") if char.isupper() else 26 + ord(char) - ord("a")
        return chr(_LATIN[variant] + index)
    if variant in _GREEK and char in _GREEK_ORDER:
        return chr(_GREEK[variant] + _GREEK_ORDER.index(char))
    if variant in _DIGITS and char.isascii() and char.isdigit():
        return chr(_DIGITS[variant] + int(char))
    return char


def math_text(text: str, variant: str) -> str:
    return "".join(math_char(c, variant) for c in text)


# --- reading and writing KaTeX's MathML --------------------------------------------------

_WRAPPER = re.compile(r'^<span class="katex">(<math[\s\S]*</math>)</span>$')


def parse(katex_html: str) -> etree.Element:
    """The <math> element of KaTeX's `output: "mathml"` answer."""
    match = _WRAPPER.match(katex_html)
    if not match:
        raise MathError(f"unexpected KaTeX MathML output: {katex_html[:80]!r}")
    return etree.fromstring(match.group(1))


def name(el: etree.Element) -> str:
    return el.tag.removeprefix(NS)


def serialize(el: etree.Element, xmlns: bool = True) -> str:
    """HTML for `el`, as KaTeX writes it (the MathML namespace only on <math>)."""
    tag = name(el)
    attrs = "".join(f' {k}="{html.escape(v)}"' for k, v in el.attrib.items())
    if tag == "math" and xmlns:
        attrs = ' xmlns="http://www.w3.org/1998/Math/MathML"' + attrs
    inner = html.escape(el.text or "", quote=False) + "".join(serialize(c) for c in el)
    out = f"<{tag}{attrs}/>" if tag == "mspace" and not inner else f"<{tag}{attrs}>{inner}</{tag}>"
    return out + html.escape(el.tail or "", quote=False)


def make(tag: str, text: str | None = None, **attrs: str) -> etree.Element:
    el = etree.Element(NS + tag, {k.replace("_", "-"): v for k, v in attrs.items()})
    el.text = text
    return el


# --- what TeX would call each atom ---------------------------------------------------------

RELATIONS = set("=<>≤≥≈≠≡∼≃≅∝∈∉∋⊂⊃⊆⊇→←↔⇒⇐⇔⟶⟵⟹⟸⟺↦≪≫≺≻⪯⪰∣∥⊥:≔≜≐")
BINARIES = set("+−-±∓×⋅·∗∘∙⊙⊗⊕⊖∩∪∧∨∖÷⋆")
OPENING = set("([{⟨⌊⌈|‖∥∣⟦")
CLOSING = set(")]}⟩⌋⌉|‖∥∣⟧")
BIG_OPERATORS = set("∑∏∐∫∬∮⋃⋂⋁⋀⨁⨂⨀")
FUNCTION_APPLICATION = "\u2061"
# elements whose children are laid out in a row (an inferred mrow)
ROWS = {"math", "mrow", "mtd", "msqrt", "mstyle", "mpadded", "mphantom", "menclose", "merror"}
SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts"}


def core(el: etree.Element) -> etree.Element:
    """The operator an embellished operator is built on (msub's base, a one-child mrow's child), else `el`."""
    while name(el) in SCRIPTED | {"mrow", "mstyle", "mpadded"} and len(el) and (
            name(el) in SCRIPTED or len(el) == 1):
        el = el[0]
    return el


def kind(el: etree.Element) -> str:
    """TeX's class of an atom: 'op' (a function name or a big operator), 'rel', 'bin',
    'open', 'close', 'punct', 'space', or 'ord'."""
    tag = name(el)
    if tag in ("mspace",) or (tag == "mtext" and not (el.text or "").strip()):
        return "space"
    if is_function(el):
        return "op"
    base = core(el)
    if name(base) != "mo":
        return "ord"
    text = (base.text or "").strip()
    if base.get("separator") == "true" or text in {",", ";"}:
        return "punct"
    if text in BIG_OPERATORS:
        return "op"
    fence = base.get("fence")
    if text in OPENING and text in CLOSING:
        return base.get("data-primer-kind", "ord")
    if text in OPENING and fence != "false":
        return "open"
    if text in CLOSING and fence != "false":
        return "close"
    if text in OPENING:
        return "open"
    if text in CLOSING:
        return "close"
    if text in RELATIONS:
        return "rel"
    if text in BINARIES:
        return "bin"
    return "ord"


def is_function(el: etree.Element) -> bool:
    """A function name with its invisible 'function application' operator: KaTeX writes
    \\sin as <mi>sin</mi><mo>⁡</mo>, and \\max_i as <msub><mrow><mi>max</mi><mo>⁡</mo></mrow>…"""
    while name(el) in SCRIPTED and len(el):
        el = el[0]
    return name(el) == "mrow" and len(el) >= 2 and name(el[-1]) == "mo" and el[-1].text == FUNCTION_APPLICATION


# --- the rewrites ----------------------------------------------------------------------------------


# KaTeX writes TeX's small spaces as space characters in <mtext>, whose widths are
# the font's (Latin Modern's thin space is 0.2 em, TeX's \\, is 0.1667 em), and \\!
# as a thin space followed by an invisible separator: a positive space.
SPACES = {"\u2009": THIN, "\u2005": "0.2222em", "\u2005\u200a": "0.2778em", "\u2009\u2063": "-" + THIN}


def fix_spaces(root: etree.Element) -> None:
    """\\, \\: \\; \\! as <mspace> of TeX's widths."""
    for row in list(root.iter()):
        for i, kid in enumerate(list(row)):
            if name(kid) == "mtext" and kid.text in SPACES and not len(kid):
                space = make("mspace", width=SPACES[kid.text])
                space.tail = kid.tail
                row.remove(kid)
                row.insert(i, space)


def fix_variants(root: etree.Element) -> None:
    """mathvariant="bold" etc. -> Unicode's mathematical letters (Chromium honours only "normal")."""
    for el in root.iter():
        variant = el.get("mathvariant")
        if variant and variant != "normal" and name(el) in ("mi", "mn", "mo"):
            el.text = math_text(el.text or "", variant)
            del el.attrib["mathvariant"]


def fix_fences(root: etree.Element) -> None:
    """\\lVert/\\rVert, \\lvert/\\rvert (and \\left\\| … \\right\\|): Chromium's operator
    dictionary spaces ∥ and ∣ as relations; in TeX they are opening and closing fences
    with no space. The first of each pair in a row opens, the next closes."""
    for row in root.iter():
        if name(row) not in ROWS:
            continue
        open_bars: dict[str, bool] = {}
        for child in row:
            text = (child.text or "").strip()
            if name(child) == "mo" and text in ("∥", "∣", "|", "‖") and child.get("fence") != "false":
                opening = not open_bars.get(text, False)
                open_bars[text] = opening
                child.set("data-primer-kind", "open" if opening else "close")
                if child.get("stretchy") == "false" or child.get("fence") == "true":
                    child.set("lspace", "0")
                    child.set("rspace", "0")


def atoms(children: list[etree.Element]) -> list[tuple[int, int, str]]:
    """A row's atoms as (first child, last child, TeX class); a function name and the
    invisible operator after it (<mi>sin</mi><mo>⁡</mo>) are one 'op' atom."""
    out: list[tuple[int, int, str]] = []
    for i, child in enumerate(children):
        if name(child) == "mo" and child.text == FUNCTION_APPLICATION:
            if out and out[-1][2] != "space":
                out[-1] = (out[-1][0], i, "op")
            continue
        out.append((i, i, kind(child)))
    return out


def fix_spacing(root: etree.Element) -> None:
    """TeX's spacing that MathML does not give: a thin space between a function name
    and an ordinary neighbour; none around a unary sign."""
    for row in list(root.iter()):
        if name(row) not in ROWS:
            continue
        children = list(row)
        found = [a for a in atoms(children) if a[2] != "space"]
        kinds = [k for _, _, k in found]
        thin_before, thin_after = [], []
        for i, (first, last, k) in enumerate(found):
            before = kinds[i - 1] if i else None
            after = kinds[i + 1] if i + 1 < len(kinds) else None
            if k == "bin" and (before in (None, "bin", "rel", "open", "punct", "op")
                               or after in (None, "rel", "close", "punct")):
                base = core(children[first])  # a unary sign: TeX makes it an ordinary atom
                base.set("lspace", "0")
                base.set("rspace", "0")
                kinds[i] = "ord"
            function = last > first or is_function(children[first])
            if k == "op" and function:
                if after in ("ord", "op"):
                    thin_after.append(children[last])
                if before in ("ord", "close"):
                    thin_before.append(children[first])
        for el in thin_after:
            following = children[children.index(el) + 1] if children.index(el) + 1 < len(children) else None
            if following is not None and name(following) == "mspace" and following.get("width") == "-" + THIN:
                row.remove(following)  # \\sin\\!( : the thin space and TeX's negative one cancel
            else:
                _insert_after(row, el, make("mspace", width=THIN))
        for el in thin_before:
            _insert_before(row, el, make("mspace", width=THIN))
    fix_negative_spaces(root)


def fix_negative_spaces(root: etree.Element) -> None:
    """\\! (a negative <mspace>): Chromium draws a negative width as zero; make it
    a negative margin on the next element (or on the previous one, at a row's end)."""
    for row in list(root.iter()):
        kids = list(row)
        for i, kid in enumerate(kids):
            width = kid.get("width", "")
            if name(kid) != "mspace" or not width.startswith("-"):
                continue
            neighbour, side = (kids[i + 1], "left") if i + 1 < len(kids) else ((kids[i - 1], "right") if i else (None, ""))
            if neighbour is None:
                continue
            style = neighbour.get("style")
            neighbour.set("style", (style + ";" if style else "") + f"margin-{side}:{width}")
            row.remove(kid)


def _insert_after(row: etree.Element, child: etree.Element, new: etree.Element) -> None:
    row.insert(list(row).index(child) + 1, new)


def _insert_before(row: etree.Element, child: etree.Element, new: etree.Element) -> None:
    row.insert(list(row).index(child), new)


def _half(length: str) -> str:
    """Half a CSS length such as '1em' or '0.36em'."""
    number = re.match(r"[\d.]+", length)
    if not number:
        return length
    return f"{float(number.group()) / 2:g}{length[number.end():]}"


def fix_tables(root: etree.Element) -> None:
    """mtable's columnalign / columnspacing / rowspacing as CSS on each cell (Chromium
    ignores them), and row heights as TeX's arrays have them: a strut in every cell
    (0.7 and 0.3 of 1.2 em, times \\arraystretch), so a matrix or a cases block is as
    tall as KaTeX's and its brackets stretch as far. KaTeX writes rowspacing as
    0.16em + arraystretch - 1 (+ 0.09em for aligned's \\jot); it is read back here."""
    for table in root.iter(NS + "mtable"):
        aligns = table.attrib.pop("columnalign", "center").split()
        column_gap = _half(table.attrib.pop("columnspacing", "1em").split()[0])
        spacing = re.match(r"[\d.]+", table.attrib.pop("rowspacing", "0.16em"))
        stretch = float(spacing.group()) - 0.16 + 1 if spacing else 1.0
        stretch = 0.5 if spacing and spacing.group() == "0.1" else stretch  # smallmatrix
        jot = abs(stretch % 1 - 0.09) < 0.005
        stretch = max(0.5, stretch - 0.09 if jot else stretch)
        row_gap = "0.15em" if jot else "0"  # half of \jot (3pt) above and below
        rows = list(table)
        for r, tr in enumerate(rows):
            for c, td in enumerate(tr):
                td.insert(0, make("mspace", height=f"{0.84 * stretch:.3g}em", depth=f"{0.36 * stretch:.3g}em"))
                align = aligns[min(c, len(aligns) - 1)]
                top, bottom = ("0" if r == 0 else row_gap), ("0" if r == len(rows) - 1 else row_gap)
                left, right = ("0" if c == 0 else column_gap), ("0" if c == len(tr) - 1 else column_gap)
                style = f"padding:{top} {right} {bottom} {left}"
                td.set("style", style if align == "center" else f"text-align:{align};{style}")


def _script_levels(el: etree.Element, level: int, display: bool, out: dict, cramped: bool = False) -> None:
    """TeX's style of every element: (script depth, display style, cramped), as
    MathML Core's scriptlevel, math-style and math-shift come out in the browser."""
    tag = name(el)
    if tag == "mstyle":
        wanted = el.get("scriptlevel", "")
        if wanted.lstrip("+-").isdigit():
            level = level + int(wanted) if wanted[0] in "+-" else int(wanted)
        display = el.get("displaystyle", str(display).lower()) == "true"
    out[el] = (level, display, cramped)
    children = list(el)
    for i, child in enumerate(children):
        child_level, child_display, child_cramped = level, display, cramped
        if tag in ("msub", "msup", "msubsup", "mmultiscripts") and i > 0:
            child_level, child_display = level + 1, False
            child_cramped = cramped or (i == 1 and tag != "msup")
        elif tag in ("munder", "mover", "munderover") and i > 0:
            accent = el.get("accentunder" if (tag == "munder" or (tag == "munderover" and i == 1)) else "accent")
            child_level, child_display = (level if accent == "true" else level + 1), False
        elif tag == "mfrac":
            child_level, child_display = (level if display else level + 1), False
            child_cramped = cramped or i == 1
        elif tag in ("msqrt", "mroot"):
            child_cramped = True
            if tag == "mroot" and i == 1:
                child_level, child_display = level + 2, False
        elif tag == "mtable":
            child_display = False
        _script_levels(child, child_level, child_display, out, child_cramped)


def _add_style(el: etree.Element, css: str) -> None:
    style = el.get("style")
    el.set("style", f"{style};{css}" if style else css)


def fix_script_spacing(math: etree.Element, display: bool) -> None:
    """In a script TeX puts no space around relations, binary operators and punctuation
    (i=0 under a sum, d-1 over it); Chromium keeps the operator dictionary's spaces.
    And TeX's script positions that MathML Core has one constant for: a subscript
    under a superscript sits lower (sub2, 0.247 em, against a lone one's 0.15 em),
    a superscript in display style higher (sup1, 0.413 em, against 0.363 em)."""
    styles: dict = {}
    _script_levels(math, 0, display, styles)
    for el, (level, is_display, cramped) in styles.items():
        tag = name(el)
        if level > 0 and tag == "mo" and kind(el) in ("rel", "bin", "punct"):
            el.set("lspace", "0")
            el.set("rspace", "0")
        if tag == "msubsup" and len(el) == 3:
            _add_style(el[1], "position:relative;top:0.139em")  # 0.097 em of the base, in the script's em
        if tag in ("msup", "msubsup") and len(el) >= 2 and is_display and not cramped and level == 0:
            _add_style(el[-1], "position:relative;top:-0.071em")  # 0.05 em of the base


PRIMES = set("′″‴⁗")


def fix_primes(root: etree.Element) -> None:
    """x' is x with a prime superscript. Latin Modern Math's ′ is a small raised prime
    for use on the baseline; its script form (the OpenType feature ssty, which
    Chromium does not apply by itself) is the one TeX draws. mathml.css turns the
    feature on for class="prime"; the font subset keeps those forms."""
    for el in root.iter():
        if name(el) in ("msup", "msubsup") and len(el) >= 2:
            script = el[-1]
            if name(script) == "mo" and script.text and set(script.text) <= PRIMES:
                script.set("class", "prime")


HORIZONTAL = set("⏟⏞⏝⏜⎵⎴←→↔⟵⟶⟷⇐⇒⇔‾_^~¯")


def fix_horizontal_stretch(root: etree.Element) -> None:
    """A brace under or over a formula (\\underbrace): Chromium places a second
    stretched brace in one formula off its base (its box keeps the unstretched
    width); as wide as its base, it lands right."""
    for el in root.iter():
        if name(el) in ("munder", "mover", "munderover"):
            for script in list(el)[1:]:
                if name(script) == "mo" and script.get("stretchy") == "true" and (script.text or "").strip() in HORIZONTAL:
                    script.set("style", "width:100%")


ELLIPSES = set("…⋯")


def fix_ellipses(root: etree.Element) -> None:
    """\\dots: TeX's \\ldots is three dots 0.1667 em apart, 1.172 em wide in all; Latin
    Modern's … is 0.837 em. Pad it to TeX's width (Chromium spaces it as it likes)."""
    for el in root.iter(NS + "mo"):
        if (el.text or "").strip() in ELLIPSES:
            el.set("lspace", THIN)
            el.set("rspace", THIN)


# --- what needs the font's metrics: italic correction, delimiter sizes ----------------------


class MathFont:
    """What the rewrites need from the math font: italic corrections and the sizes
    and widths of each delimiter's variants (the OpenType MATH table), in em."""

    def __init__(self, path: Path):
        from fontTools.ttLib import TTFont

        font = TTFont(str(path), lazy=True)
        self.em = font["head"].unitsPerEm
        self.cmap = font.getBestCmap()
        self.widths = {g: w for g, (w, _) in font["hmtx"].metrics.items()}
        math = font["MATH"].table
        info = math.MathGlyphInfo.MathItalicsCorrectionInfo
        self.italic = {g: r.Value for g, r in zip(info.Coverage.glyphs, info.ItalicsCorrection)} if info else {}
        variants = math.MathVariants
        self.vertical = {}
        for glyph, construction in zip(variants.VertGlyphCoverage.glyphs, variants.VertGlyphConstruction):
            sizes = [(r.AdvanceMeasurement, r.VariantGlyph) for r in construction.MathGlyphVariantRecord]
            parts = [p.glyph for p in construction.GlyphAssembly.PartRecords] if construction.GlyphAssembly else []
            self.vertical[glyph] = (sizes, parts)

    def glyph(self, char: str) -> str | None:
        return self.cmap.get(ord(char)) if len(char) == 1 else None

    def italic_correction(self, char: str) -> float:
        glyph = self.glyph(char)
        return self.italic.get(glyph, 0) / self.em if glyph else 0.0

    def stretched(self, char: str, size: float) -> tuple[float, float] | None:
        """(size, width) in em of `char` stretched to at least `size` em: the first size
        variant that tall (0.5% short counts: TeX's 1.2 em \\big is Latin Modern's 1.195 em
        variant), else the assembly of parts at `size`. None: `char` does not stretch."""
        glyph = self.glyph(char)
        if glyph not in self.vertical:
            return None
        sizes, parts = self.vertical[glyph]
        for advance, variant in sizes:
            if advance >= 0.995 * size * self.em:
                return advance / self.em, self.widths[variant] / self.em
        if parts:
            return size, max(self.widths[p] for p in parts) / self.em
        advance, variant = sizes[-1]
        return advance / self.em, self.widths[variant] / self.em


def math_font() -> MathFont | None:
    """The math font's metrics (None when there is no font: the rewrites that need it are skipped)."""
    try:
        path = font_source()
    except MathError:
        return None
    if _FONTS.get(path) is None:
        _FONTS[path] = MathFont(path)
    return _FONTS[path]


_FONTS: dict[Path, MathFont] = {}


def fix_italic_correction(root: etree.Element, font: MathFont) -> None:
    """TeX puts a slanted letter's italic correction after it (P = s, not P= s); MathML
    Core uses it only to place scripts. A letter that is not a script's base gets it as padding."""
    bases = {el[0] for el in root.iter() if name(el) in SCRIPTED and len(el)}
    for el in root.iter():
        # TeX sets a superscript after the base's italic correction (W^T, f^2);
        # MathML Core does it only for big operators.
        if name(el) in ("msup", "msubsup") and len(el) >= 2 and name(el[0]) == "mi" and len(el[0].text or "") == 1:
            base = el[0]
            drawn = math_char(base.text, "italic") if base.get("mathvariant") is None else base.text
            correction = font.italic_correction(drawn)
            if correction >= 0.03:
                _add_style(el[-1], f"margin-left:{correction / 0.7:.3g}em")  # in the script's em
    for el in root.iter(NS + "mi"):
        text = el.text or ""
        if el in bases or len(text) != 1:
            continue
        drawn = math_char(text, "italic") if el.get("mathvariant") is None else text
        correction = font.italic_correction(drawn)
        if correction >= 0.03:  # smaller ones are not seen
            _add_style(el, f"padding-right:{correction:.3g}em")


AXIS = 0.25  # Latin Modern Math's AxisHeight, em


def extent(el: etree.Element, display: bool) -> tuple[float, float]:
    """A rough (height, depth) of `el` in em, to size the delimiters around it as TeX
    does. Latin Modern Math's constants; a script is 0.7 of its base."""
    tag, kids = name(el), list(el)
    if tag == "mspace":
        return _em(el.get("height")), _em(el.get("depth"))
    if tag in ("mi", "mn", "mtext", "ms"):
        return 0.7, 0.2
    if tag == "mo":
        return (0.75, 0.25) if (el.text or "").strip() in OPENING | CLOSING | BIG_OPERATORS else (0.6, 0.1)
    if tag == "mstyle":
        display = el.get("displaystyle", str(display).lower()) == "true"
    if tag in ("msub", "msup", "msubsup") and kids:
        height, depth = extent(kids[0], display)
        if tag in ("msub", "msubsup") and len(kids) > 1:
            sub_h, sub_d = extent(kids[1], False)
            depth, height = max(depth, 0.15 + 0.7 * sub_d), max(height, 0.7 * sub_h - 0.15)
        if tag in ("msup", "msubsup") and len(kids) > 1:
            sup_h, sup_d = extent(kids[-1], False)
            height, depth = max(height, 0.363 + 0.7 * sup_h), max(depth, 0.7 * sup_d - 0.363)
        return height, depth
    if tag in ("munder", "mover", "munderover") and kids:
        height, depth = extent(kids[0], display)
        if (core(kids[0]).text or "").strip() in BIG_OPERATORS and display:
            height, depth = 0.95, 0.45
        under = kids[1] if tag in ("munder", "munderover") and len(kids) > 1 else None
        over = kids[-1] if tag in ("mover", "munderover") and len(kids) > 1 else None
        if under is not None:
            depth += 0.15 + 0.7 * sum(extent(under, False))
        if over is not None:
            height += 0.15 + 0.7 * sum(extent(over, False))
        return height, depth
    if tag == "mfrac" and len(kids) == 2:
        scale, up, down = (1.0, 0.677, 0.686) if display else (0.7, 0.394, 0.345)
        num, den = extent(kids[0], False), extent(kids[1], False)
        return up + scale * num[0], down + scale * den[1]
    if tag in ("msqrt", "mroot") and kids:
        height, depth = _extent_row(kids[:1] if tag == "mroot" else kids, display)
        return height + 0.12, depth
    if tag == "mtable":
        total = 0.0
        for tr in kids:
            cells = [_extent_row(list(td), False) for td in tr] or [(0.0, 0.0)]
            total += max(h for h, _ in cells) + max(d for _, d in cells)
        return total / 2 + AXIS, total / 2 - AXIS
    return _extent_row(kids, display) if kids else (0.0, 0.0)


def _extent_row(kids: list[etree.Element], display: bool) -> tuple[float, float]:
    sizes = [extent(k, display) for k in kids if not is_stretchy(k)] or [(0.0, 0.0)]
    return max(h for h, _ in sizes), max(d for _, d in sizes)


def _em(length: str | None) -> float:
    match = re.match(r"-?[\d.]+", length or "")
    return float(match.group()) if match and (length or "").endswith("em") else 0.0


def is_stretchy(el: etree.Element) -> bool:
    return name(el) == "mo" and el.get("stretchy") != "false" and (el.text or "").strip() in OPENING | CLOSING


def fix_delimiters(math: etree.Element, display: bool, font: MathFont) -> None:
    """Size \\left…\\right and matrix delimiters as TeX does, and give each its width.

    Chromium makes a stretchy delimiter as wide as the widest of all its size
    variants (MathML Core's preferred inline size): with Latin Modern Math a
    parenthesis gets 0.2 em of empty space on each side. So: a delimiter around
    one line of content does not stretch (TeX keeps the normal size there too);
    a taller one gets the size TeX would ask for (at least 0.901 of the content,
    at most 0.5 em short of it) as minsize and maxsize, and the width of the
    font's variant of that size."""
    for row in list(math.iter()):
        if name(row) not in ROWS:
            continue
        kids = list(row)
        fences = [k for k in kids if is_stretchy(k) and k.get("minsize") is None]
        if not fences:
            continue
        height, depth = _extent_row(kids, display or row.get("displaystyle") == "true")
        content = 2 * max(height - AXIS, depth + AXIS)
        wanted = max(content * 0.901, content - 0.5)
        for fence in fences:
            if wanted <= 1.1:
                fence.set("stretchy", "false")
            else:
                _size(fence, wanted, font)
    for el in math.iter(NS + "mo"):
        size = el.get("minsize")
        if size and size == el.get("maxsize") and el.get("stretchy") == "true":  # \\big, \\Big, ...
            _size(el, _em(size), font)


def _size(mo: etree.Element, wanted: float, font: MathFont) -> None:
    """Ask for the font's variant of at least `wanted` em, by its exact size (Chromium
    otherwise takes a variant up to 0.1 em short), and give the operator its width."""
    found = font.stretched((mo.text or "").strip(), wanted)
    size, width = found if found else (wanted, None)
    mo.set("minsize", f"{size:.4g}em")
    mo.set("maxsize", f"{size:.4g}em")
    if width:
        _add_style(mo, f"width:{width:.3g}em")


def fix_dropped_attributes(root: etree.Element) -> None:
    """Drop what MathML Core ignores and KaTeX still writes (separator: no effect)."""
    for el in root.iter():
        for attr in ("separator",):
            el.attrib.pop(attr, None)


def row_of(math: etree.Element) -> tuple[etree.Element, etree.Element | None]:
    """(the formula's top-level row, its TeX annotation) of KaTeX's <math><semantics>…"""
    semantics = math[0] if len(math) and name(math[0]) == "semantics" else None
    if semantics is None:
        return math, None
    annotation = next((c for c in semantics if name(c) == "annotation"), None)
    return semantics[0], annotation


def break_points(children: list[etree.Element]) -> list[int]:
    """Indices after which a line may break: a top-level relation or binary operator
    (not a unary sign), followed by its glue, as KaTeX's HTML allows."""
    found = atoms(children)
    points = []
    for n, (first, last, k) in enumerate(found):
        if k not in ("rel", "bin") or core(children[first]).get("lspace") == "0":
            continue
        end = n
        while end + 1 < len(found) and found[end + 1][2] == "space":
            end += 1
        if any(a[2] != "space" for a in found[end + 1:]) and any(a[2] != "space" for a in found[:n]):
            points.append(found[end][1])
    return points


def split_inline(math: etree.Element) -> list[etree.Element]:
    """An inline formula as one or more <math> elements, cut at its break points."""
    row, annotation = row_of(math)
    children = list(row) if name(row) == "mrow" else [row]
    fenced = len(children) > 1 and all(c.get("fence") == "true" for c in (children[0], children[-1]))
    points = [] if fenced else break_points(children)  # \\left( … \\right) is one atom, as in TeX
    if not points:
        return [math]
    pieces, start = [], 0
    for end in points + [len(children) - 1]:
        pieces.append(children[start:end + 1])
        start = end + 1
    maths = []
    for n, piece in enumerate(pieces):
        for el in reversed(piece):  # the operator that ends a piece keeps its infix spacing
            if kind(el) != "space":
                if kind(el) in ("rel", "bin") and n < len(pieces) - 1:
                    core(el).set("form", "infix")
                break
        out = make("math", **{k: v for k, v in math.attrib.items() if k != "xmlns"})
        if n == 0 and annotation is not None:
            semantics = make("semantics")
            mrow = make("mrow")
            mrow.extend(piece)
            semantics.extend([mrow, annotation])
            out.append(semantics)
        else:
            out.extend(piece)
        maths.append(out)
    return maths


def finish(katex_html: str, display: bool, font: MathFont | None = None) -> str:
    """KaTeX's `output: "mathml"` answer -> the HTML the page carries in MathML mode.
    With the font's metrics (`font`), also italic corrections and delimiter sizes."""
    math = parse(katex_html)
    fix_variants(math)
    fix_spaces(math)
    fix_fences(math)
    fix_spacing(math)
    fix_script_spacing(math, display)
    fix_primes(math)
    fix_ellipses(math)
    fix_horizontal_stretch(math)
    fix_tables(math)
    if font is not None:
        fix_italic_correction(math, font)
        fix_delimiters(math, display, font)
    fix_dropped_attributes(math)
    for el in math.iter():
        el.attrib.pop("data-primer-kind", None)
    maths = [math] if display else split_inline(math)
    return '<span class="katex">' + "".join(serialize(m) for m in maths) + "</span>"


def tokens(markup: str) -> list[str]:
    """The text of every token element (mi, mn, mo, mtext) in `markup`, in order (for tests)."""
    return [html.unescape(t) for t in re.findall(r"<m[inot][a-z]*(?: [^>]*)?>([^<]*)</m[inot][a-z]*>", markup)]


# --- the font ---------------------------------------------------------------------------------------


def font_source() -> Path:
    """The OpenType MATH font to subset (PRIMER_MATH_FONT, else Debian's Latin Modern Math)."""
    wanted = os.environ.get("PRIMER_MATH_FONT")
    candidates = [Path(wanted)] if wanted else FONT_SOURCES
    for path in candidates:
        if path.is_file():
            return path
    raise MathError(HOW_TO_INSTALL_FONT)


def check_ready() -> None:
    """Stop the build now, with one line, if MathML mode cannot work on this machine."""
    font_source()
    try:
        import brotli  # noqa: F401 - fontTools writes woff2 with it
    except ImportError:
        raise MathError("PRIMER_MATH=mathml writes its font as woff2, which needs brotli: "
                        "`.venv/bin/pip install brotli` (or `pip install -e '.[test]'`)") from None


_TOKEN = re.compile(r"<(mi|mn|mo|mtext|ms)((?: [^>]*)?)>([^<]*)</\1>")


def drawn_chars(markup: str) -> set[str]:
    """The characters the browser draws for `markup` (finish()'s output): the text of its
    token elements, a one-character <mi> in italic as MathML Core's `math-auto` does."""
    chars: set[str] = set()
    for tag, attrs, text in _TOKEN.findall(markup):
        text = html.unescape(text)
        if tag == "mi" and len(text) == 1 and "mathvariant" not in attrs:
            text = math_char(text, "italic")
        chars.update(text)
    if "<msqrt" in markup or "<mroot" in markup:
        chars.add("√")  # the radical sign is drawn from the font, not written in the markup
    return chars


def font_file(root: Path, chars: set[str]) -> Path:
    """The woff2 subset of the math font for `chars` (and BASE_CHARS), made once, kept in .cache/mathml/.

    A build that typesets only some pages (a dirty build) must not shrink the
    font: the characters of every build are remembered in .cache/mathml/chars.txt."""
    source = font_source()
    import fontTools
    from fontTools import subset

    folder = root / ".cache" / "mathml"
    remembered = folder / "chars.txt"
    try:
        chars = chars | set(remembered.read_text(encoding="utf-8"))
    except OSError:
        pass
    chars = chars | set(BASE_CHARS)
    text = "".join(sorted(chars))
    key = hashlib.sha256(source.read_bytes() + repr((text, SUBSET_VERSION, fontTools.version)).encode())
    out = folder / f"math-{key.hexdigest()[:16]}.woff2"
    folder.mkdir(parents=True, exist_ok=True)
    if not remembered.is_file() or remembered.read_text(encoding="utf-8") != text:
        remembered.write_text(text, encoding="utf-8")
    if out.is_file():
        return out
    check_ready()
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["ssty"]  # only for primes (see fix_primes and _adjust)
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence lines
    options.notdef_outline = True
    options.desubroutinize = True
    options.drop_tables += ["FFTM"]
    font = subset.load_font(str(source), options)
    _adjust(font)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    for old in folder.glob("math-*.woff2"):
        old.unlink()
    tmp = out.with_suffix(".tmp")
    subset.save_font(font, str(tmp), options)
    tmp.replace(out)
    return out


def _adjust(font) -> None:
    """Changes to the subset, so that Chromium draws it as KaTeX (TeX) does:

    - the script forms (ssty) of the primes only, reachable from any script: the
      font files ssty under the script 'math', which a browser never asks for
      (mathml.css turns the feature on for class="prime"); every glyph's script
      forms would triple the subset;
    - script positions as TeX's: SubscriptShiftDown 0.15 em, TeX's sub1, which
      KaTeX uses for a lone subscript (the font has TeX's sub2, 0.247 em, for a
      subscript under a superscript, and MathML Core uses one value for both);
      no baseline drop under a letter (TeX drops scripts only on a group: p_m's
      m sat 0.2 em lower than KaTeX's); a superscript's drop from the top of its
      base as TeX's sup_drop, 0.386 em (W^T's T sat 0.07 em higher)."""
    import copy

    from fontTools.ttLib.tables import otTables

    em = font["head"].unitsPerEm
    math = font["MATH"].table.MathConstants
    math.SubscriptShiftDown.Value = round(0.15 * em)
    math.SubscriptBaselineDropMin.Value = 0
    math.SuperscriptBaselineDropMax.Value = round(0.386 * em)
    if "GSUB" not in font:
        return
    cmap = font.getBestCmap()
    primes = {cmap[ord(c)] for c in PRIMES if ord(c) in cmap}
    table = font["GSUB"].table
    for record in table.FeatureList.FeatureRecord:
        if record.FeatureTag != "ssty":
            continue
        for index in record.Feature.LookupListIndex:
            for sub in table.LookupList.Lookup[index].SubTable:
                for attr in ("alternates", "mapping"):
                    if hasattr(sub, attr):
                        setattr(sub, attr, {k: v for k, v in getattr(sub, attr).items() if k in primes})
    records = table.ScriptList.ScriptRecord
    if not any(r.ScriptTag == "DFLT" for r in records):
        source = next((r for r in records if r.ScriptTag == "math"), None)
        if source is not None:
            default = otTables.ScriptRecord()
            default.ScriptTag = "DFLT"
            default.Script = copy.deepcopy(source.Script)
            records.append(default)
            records.sort(key=lambda r: r.ScriptTag)
            table.ScriptList.ScriptCount = len(records)


# --- the site ---------------------------------------------------------------------------------------


def configure(config) -> None:
    """In MathML mode the pages load mathml.css (the font) instead of KaTeX's CSS."""
    css = [s for s in config.extra_css if str(s) != KATEX_CSS]
    if STYLESHEET not in css:
        css.insert(0, STYLESHEET)
    config.extra_css = css


def add_files(files, config, root: Path, typeset) -> None:
    """Add the font subset (and its licence) to the build, as assets/fonts/...

    `typeset()` gives the markup of every formula typeset so far. MkDocs renders
    every page before it copies the other files, so the subset is made when the
    font file is copied, from the characters the pages used."""
    from mkdocs.structure.files import File

    class FontFile(File):
        def copy_file(self, dirty: bool = False) -> None:
            chars = set().union(*(drawn_chars(markup) for markup in typeset()))
            self.abs_src_path = str(font_file(root, chars))
            super().copy_file(dirty)

    files.append(FontFile.generated(config, SITE_FONT, abs_src_path=str(font_source())))
    if FONT_LICENSE.is_file():
        files.append(File.generated(config, SITE_FONT_LICENSE, abs_src_path=str(FONT_LICENSE)))
