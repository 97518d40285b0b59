"""Side-by-side screenshots: KaTeX's HTML (the default) against MathML alone (PRIMER_MATH=mathml).

Builds the site twice (temporary directories), opens the densest formulas in
headless Debian Chromium (light palette) at 1280 and 390 px wide, and writes
build/screenshots/math-<name>-<width>.png: KaTeX's HTML on the left, the
browser's MathML with the Latin Modern Math subset on the right, each
labelled. build/screenshots/math-README.md says what each pair shows, with the
DOM size of lessons/notation in both modes and the font's size.

    .venv/bin/python tests/bench/math_screenshots.py [--keep DIR]

--keep DIR builds into DIR/site-html and DIR/site-mathml and reuses them on
the next run (delete DIR to rebuild). A look, not a test: it never fails on
what it shows; judging the pairs is for a person.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import browser  # noqa: E402

OUT = ROOT / "build" / "screenshots"
WIDTHS = (1280, 390)
MODES = ("html", "mathml")
LABELS = {"html": "KaTeX HTML (default, PRIMER_MATH=html)", "mathml": "MathML + Latin Modern Math (PRIMER_MATH=mathml)"}

# name -> (page, "display" or "paragraph", the formula's TeX starts with, what the pair shows)
SHOTS = {
    "notation-inner-product": (
        "lessons/notation/", "display", r"\langle a, b \rangle = a \cdot b",
        "inner product, a display sum with limits, \\lVert…\\rVert norms, \\sqrt, a fraction, \\cos( )"),
    "notation-rotation": (
        "lessons/notation/", "display", r"R(\theta) = \begin{pmatrix}",
        "a 2×2 pmatrix (big parentheses) with \\cos\\theta / -\\sin\\theta (thin space after the function name), "
        "norms"),
    "notation-inline": (
        "lessons/notation/", "paragraph", r"0.540^2 + 0.841^2",
        "a paragraph with six inline formulas, one long (must wrap at 390 px)"),
    "rope-rotate-half": (
        "lessons/rope/", "display", r"x' = x \odot \cos(pos\,\boldsymbol{\theta})",
        "\\boldsymbol{\\theta} (bold italic θ), \\odot, \\text{rotate\\_half}, primes, unary minus"),
    "context-yarn-ramp": (
        "lessons/context_extension/", "display", r"i(r) = \frac{d \, \ln",
        "the longest display formula: \\ln, \\left( \\right) around fractions, floor/ceil, \\operatorname{clip}, "
        "θ'_i"),
    "context-yarn-cases": (
        "lessons/context_extension/", "display", r"w_i = \frac{L/\lambda_i",
        "a cases block (left-aligned columns, big brace), fractions, primes"),
    "context-inline": (
        "lessons/context_extension/", "paragraph", r"5^{8/6} = 8.55",
        "a paragraph with ten inline formulas (superscripts, \\text, primes)"),
    "attention-mha": (
        "lessons/attention/", "display", r"Q = X W_q^\top",
        "a long display formula with \\text{}, transposes, \\dots, brackets (scrolls at 390 px)"),
    "alibi-score": (
        "lessons/alibi/", "display", r"\text{score}_h(i, j)",
        "a fraction over \\sqrt{d}, negative exponents, \\quad, \\dots"),
    "positional-underbrace": (
        "lessons/positional/", "display", r"(x + p_m) W_q^\top W_k (y + p_n)^\top",
        "four \\underbrace{…}_{…} terms (horizontal stretchy braces)"),
    "roformer-bold": (
        "papers/su2021_roformer/", "display", r"\boldsymbol{q}_m^\top \boldsymbol{k}_n",
        "\\boldsymbol on Latin letters with sub- and superscripts (the paper's notation)"),
}

# What a person saw in each pair (Chromium 156, Debian 12, 2026-11-30); re-judge after a
# change to figures_build/mathml.py, the font or Chromium.
VERDICTS = {
    "notation-inner-product": "no visible loss: same sizes and positions; the limits of the sum sit a little "
                              "closer to it",
    "notation-rotation": "no loss: parentheses as tall (Latin Modern's 2.39 em variant, KaTeX's 2.4 em); "
                         "after the unary minus of -\\sin KaTeX leaves a medium space, MathML TeX's thin one; "
                         "columns a little closer",
    "notation-inline": "no loss: same line breaks at both widths (the long formula wraps after + and ≈)",
    "rope-rotate-half": "no loss: bold θ, ⊙, the prime of x' and \\text look the same",
    "context-yarn-ramp": "no loss: \\left( \\right) around the fraction the same size, clip( and ln( tight",
    "context-yarn-cases": "no loss: rows and columns aligned alike; the big brace's curls are drawn a "
                          "little differently",
    "context-inline": "no loss: same wrapping, primes and \\text subscripts alike",
    "attention-mha": "no loss: W_q^T scripts placed as TeX places them",
    "alibi-score": "small difference: \\dots is Latin Modern's … (dots 0.28 em apart, KaTeX's 0.39 em), "
                   "padded to KaTeX's width",
    "positional-underbrace": "VISIBLE LOSS: the stretched braces are hairline-thin and flat next to KaTeX's "
                             "bold braces (placement is right only thanks to width:100%: Chromium misplaces "
                             "a second brace otherwise)",
    "roformer-bold": "no loss: bold italic letters match; KaTeX leaves a gap between W and its subscript "
                     "q that MathML does not",
}

SUMMARY = """\
## Beyond the pairs

- The weight matches only because mathml.css draws a 0.015 em outline round every glyph
  (-webkit-text-stroke): without it Latin Modern is visibly thinner than KaTeX's fonts here.
- Only Chromium was looked at. Several rewrites are tuned to Chromium 156 (the widths given to
  stretched delimiters, crbug.com/1124301; the choice of size variant; script nudges by relative
  positioning; the font's script constants); Firefox and Safari have their own MathML engines.
- A long inline formula becomes several <math> elements (a screen reader reads them one by one);
  the TeX annotation is kept on the first piece only.
- Decision rule (adopt MathML alone only with no visible loss): not met, because of \\underbrace;
  the rest is close.
"""

FIND = """
([kind, prefix]) => {
  const norm = s => s.replace(/\\s+/g, " ").trim();
  const want = norm(prefix);
  for (const math of document.querySelectorAll(".md-content .arithmatex")) {
    const note = math.querySelector("annotation");
    if (!note || !norm(note.textContent).startsWith(want)) continue;
    const target = kind === "display" ? math : math.closest("p, li, td");
    target.setAttribute("data-shot", "1");
    target.scrollIntoView({ block: "center" });
    return true;
  }
  return false;
}
"""


def build(dest: Path) -> dict[str, Path]:
    sites = {}
    for mode in MODES:
        site = dest / f"site-{mode}"
        if not (site / "index.html").is_file():
            print(f"building the site with PRIMER_MATH={mode} into {site} ...", flush=True)
            browser.build_site(ROOT, site, PRIMER_MATH=mode)
        sites[mode] = site
    return sites


def shoot(chromium, base: str, page: str, kind: str, prefix: str, width: int) -> tuple[bytes, dict]:
    context = chromium.new_context(viewport={"width": width, "height": 900}, device_scale_factor=2,
                                   color_scheme="light", reduced_motion="reduce")
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    try:
        tab.goto(base + page)
        tab.evaluate(browser.WAIT_RENDERED)
        tab.evaluate("async () => { await document.fonts.ready; }")
        if not tab.evaluate(FIND, [kind, prefix]):
            raise RuntimeError(f"{page}: no formula starting {prefix!r}")
        element = tab.locator("[data-shot]")
        facts = element.evaluate("e => ({scroll: e.scrollWidth, client: e.clientWidth, height: e.clientHeight})")
        return element.screenshot(animations="disabled"), facts
    finally:
        context.close()


def side_by_side(images: dict[str, bytes], target: Path) -> None:
    import io

    from PIL import Image, ImageDraw, ImageFont

    shots = {mode: Image.open(io.BytesIO(data)).convert("RGB") for mode, data in images.items()}
    pad, label_h, gap = 16, 44, 24
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 22)
    except OSError:
        font = ImageFont.load_default()
    width = pad * 2 + gap + sum(s.width for s in shots.values())
    height = pad * 2 + label_h + max(s.height for s in shots.values())
    canvas = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(canvas)
    x = pad
    for mode in MODES:
        shot = shots[mode]
        draw.text((x, pad), LABELS[mode], fill=(30, 30, 30), font=font)
        canvas.paste(shot, (x, pad + label_h))
        draw.rectangle([x - 1, pad + label_h - 1, x + shot.width, pad + label_h + shot.height], outline=(200, 0, 0))
        x += shot.width + gap
    canvas.save(target)


def dom_size(chromium, base: str, page: str) -> dict:
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    tab = context.new_page()
    try:
        tab.goto(base + page)
        tab.evaluate(browser.WAIT_RENDERED)
        return tab.evaluate("""() => ({
          elements: document.getElementsByTagName('*').length,
          math: document.querySelectorAll('math').length,
          formulas: document.querySelectorAll('.md-content .arithmatex').length })""")
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="build into (and reuse) DIR/site-html and DIR/site-mathml")
    args = parser.parse_args()
    if not browser.chromium_path():
        sys.exit(browser.HOW_TO_GET_CHROMIUM)
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="math-shots-") as tmp:
        sites = build(args.keep or Path(tmp))
        with browser.serve(sites["html"]) as base_html, browser.serve(sites["mathml"]) as base_mathml, \
                sync_playwright() as playwright:
            bases = {"html": base_html, "mathml": base_mathml}
            chromium = browser.launch(playwright)
            rows = []
            for name, (page, kind, prefix, shows) in SHOTS.items():
                for width in WIDTHS:
                    images, facts = {}, {}
                    for mode in MODES:
                        images[mode], facts[mode] = shoot(chromium, bases[mode], page, kind, prefix, width)
                    target = OUT / f"math-{name}-{width}.png"
                    side_by_side(images, target)
                    rows.append((target.name, page, shows, facts))
                    print(f"{target.relative_to(ROOT)}  " + "  ".join(
                        f"{m}: {f['scroll']}/{f['client']} px wide, {f['height']} px high" for m, f in facts.items()),
                        flush=True)
            dom = {mode: dom_size(chromium, bases[mode], "lessons/notation/") for mode in MODES}
            chromium.close()
        font = sites["mathml"] / "assets" / "fonts" / "latinmodern-math-subset.woff2"
        font_bytes = font.read_bytes() if font.is_file() else b""
        katex_css = sites["html"] / "assets" / "vendor" / "katex" / "katex.min.css"
        write_readme(rows, dom, len(font_bytes), len(gzip.compress(font_bytes, 6)),
                     len(gzip.compress(katex_css.read_bytes(), 6)) if katex_css.is_file() else 0)
    print(f"lessons/notation DOM elements: html {dom['html']['elements']}, mathml {dom['mathml']['elements']}")
    print(f"wrote {(OUT / 'math-README.md').relative_to(ROOT)}")


def write_readme(rows, dom, font_size: int, font_gzip: int, katex_css_gzip: int) -> None:
    lines = [
        "# Math screenshots: KaTeX's HTML against MathML alone",
        "",
        "Made by `tests/bench/math_screenshots.py` (headless Debian Chromium, light palette, device scale 2).",
        "Each PNG: left, the default output (KaTeX's HTML and CSS fonts); right, `PRIMER_MATH=mathml`",
        "(KaTeX's MathML rewritten by figures_build/mathml.py, typeset by Chromium with a Latin Modern Math",
        "subset). A red frame marks each screenshot's edge; a display formula wider than the column is",
        "shown as the reader sees it, scrolled to its start.",
        "",
        f"- Font subset: {font_size:,} bytes woff2 ({font_gzip:,} gzip; woff2 is already compressed). "
        f"KaTeX's CSS, which MathML mode drops: {katex_css_gzip:,} bytes gzip.",
        "- lessons/notation, `document.getElementsByTagName('*').length`: "
        f"html {dom['html']['elements']:,}, mathml {dom['mathml']['elements']:,} "
        f"({100 * (1 - dom['mathml']['elements'] / dom['html']['elements']):.0f}% fewer); "
        f"{dom['html']['formulas']} formulas, {dom['mathml']['math']} <math> elements in MathML mode "
        "(long inline formulas are cut into pieces so lines can break).",
        "",
        "The verdicts are a person's, from looking at each pair (see VERDICTS in the script);",
        "a formula's two widths are the same verdict.",
        "",
        "| screenshot | page | what it shows | verdict | width used (scroll/client px): html, mathml |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, page, shows, facts in rows:
        sizes = ", ".join(f"{facts[m]['scroll']}/{facts[m]['client']}" for m in MODES)
        verdict = VERDICTS.get(name.removeprefix("math-").rsplit("-", 1)[0], "not judged")
        lines.append(f"| {name} | {page} | {shows} | {verdict} | {sizes} |")
    lines += ["", SUMMARY]
    (OUT / "math-README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
