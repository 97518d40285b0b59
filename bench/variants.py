"""The page benchmark's variants (`bench/pages.py` measures them): one built
page rewritten four ways by removing whole elements.

Four variants of each page, written beside it (`full.html`, `no-math.html`,
`no-mermaid.html`, `floor.html`) and served from the same folder so every
relative link resolves the same way:
- full: the page exactly as built;
- no-math: every formula removed whole (each element whose class list has
  `arithmatex`, the wrapper around KaTeX's `span.katex` output) together with
  the KaTeX stylesheet and `javascripts/math.js`;
- no-mermaid: every diagram removed whole (`div.diagram`, the SVG drawn at
  build time, and `pre.mermaid`, drawn in the browser) with the mermaid script;
- floor: both removals, and no rendering tricks either: elements with the class
  `primer-cv` (wrappers that get `content-visibility: auto`) lose that class
  and their `style` attribute. The floor is the page's prose, code, tables and
  figures as plain HTML under the theme: what the page costs with no math and
  no diagrams.
The variants are cut with an HTML parser (`html.parser`), not a regex: an
element is removed from its start tag to its matching end tag, nested
elements and all, and every other byte of the page is kept as it was. Each
variant is checked before anything is measured (no KaTeX or diagram left where
it should be gone, the same open/close balance of tags as the built page, the
element count lowered by exactly what was removed); a failed check stops the
benchmark.
"""

from __future__ import annotations

import html as html_lib
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

VARIANTS = ("full", "no-math", "no-mermaid", "floor")
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


# --- variants: an HTML rewriter that removes whole elements -------------------------------------


def class_list(attrs) -> list[str]:
    """The class tokens of a start tag's attributes (HTMLParser's list of (name, value))."""
    return " ".join(v or "" for k, v in attrs if k == "class").split()


def attr(attrs, name: str) -> str:
    """The value of one attribute, "" when absent."""
    return next((v or "" for k, v in attrs if k == name), "")


@dataclass
class Facts:
    """What one HTML document holds, as the rewriter's parser reads it."""

    elements: int = 0                                         # start tags, void and self-closing included
    balance: Counter = field(default_factory=Counter)         # per tag: start tags minus end tags (non-void)
    stray_end_tags: int = 0                                   # end tags with no open element of that name
    unclosed: int = 0                                         # elements still open at the end of the text
    katex: int = 0                                            # elements with a class token katex*, outside diagrams
    arithmatex: int = 0                                       # formula wrappers
    diagrams: int = 0                                         # div.diagram and pre.mermaid
    build_diagrams: int = 0                                   # div.diagram (an <svg> drawn at build time)
    diagram_svgs: int = 0                                     # <svg> in .md-content drawn by mermaid (not one inside it)
    math_assets: int = 0                                      # KaTeX <link>/<script>, math.js
    mermaid_assets: int = 0                                   # mermaid <script>/<link>
    primer_cv: int = 0                                        # elements with the class primer-cv


def is_math(tag: str, attrs) -> bool:
    """A typeset formula: the element whose class list has `arithmatex`."""
    return "arithmatex" in class_list(attrs)


def is_math_asset(tag: str, attrs) -> bool:
    """KaTeX's stylesheet or script, or the site's math.js."""
    url = attr(attrs, "href") if tag == "link" else attr(attrs, "src") if tag == "script" else ""
    return "assets/vendor/katex/" in url or "javascripts/math.js" in url


def is_diagram(tag: str, attrs) -> bool:
    """A diagram: drawn at build time (div.diagram) or in the browser (pre.mermaid)."""
    return (tag == "div" and "diagram" in class_list(attrs)) or (tag == "pre" and "mermaid" in class_list(attrs))


def is_mermaid_asset(tag: str, attrs) -> bool:
    """The mermaid script (the site's ES-module copy or the vendored build)."""
    url = attr(attrs, "href") if tag == "link" else attr(attrs, "src") if tag == "script" else ""
    return "javascripts/mermaid.mjs" in url or "assets/vendor/mermaid/" in url


def drop_content_visibility(tag: str, attrs):
    """For an element with the class primer-cv: its attributes without that class
    token and without `style`; None (leave the tag alone) for any other element."""
    if "primer-cv" not in class_list(attrs):
        return None
    kept = []
    for name, value in attrs:
        if name == "style":
            continue
        if name == "class":
            rest = [c for c in (value or "").split() if c != "primer-cv"]
            if rest:
                kept.append((name, " ".join(rest)))
            continue
        kept.append((name, value))
    return kept


def start_tag(tag: str, attrs, self_closing: bool = False) -> str:
    """A start tag written out from its name and attributes."""
    parts = "".join(f" {k}" if v is None else f' {k}="{html_lib.escape(v, quote=True)}"' for k, v in attrs)
    return f"<{tag}{parts}{' /' if self_closing else ''}>"


class Rewriter(HTMLParser):
    """Reads an HTML document once; collects its `Facts` and the byte ranges to
    cut: each element for which `remove(tag, attrs)` is true, from its start tag
    to its matching end tag (everything nested inside goes with it), and each
    start tag for which `edit(tag, attrs)` returns new attributes. `<script>` and
    `<style>` contents are raw text to the parser, so a `</span>` in a script is
    never taken for a tag."""

    def __init__(self, text: str, remove=None, edit=None):
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.remove, self.edit = remove, edit
        self.stack: list[tuple[str, bool, bool]] = []   # (tag, inside .md-content, inside a diagram)
        self.cut_depth: int | None = None               # stack index of the element being removed
        self.cut_start = 0
        self.cuts: list[tuple[int, int, str]] = []      # (start, end, replacement)
        self.removed = 0                                # elements removed, nested ones included
        self.edited = 0
        self.facts = Facts()

    def position(self) -> int:
        """Where the tag being handled starts in the text."""
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, self_closing=False)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, self_closing=True)

    def _start(self, tag, attrs, self_closing: bool) -> None:
        start = self.position()
        end = start + len(self.get_starttag_text())
        classes = class_list(attrs)
        in_content = (self.stack[-1][1] if self.stack else False) or "md-content" in classes
        in_diagram = (self.stack[-1][2] if self.stack else False) or is_diagram(tag, attrs)
        facts = self.facts
        facts.elements += 1
        # a diagram's label maths (KaTeX, typeset by mermaid) is part of the diagram: no-mermaid removes
        # it with the diagram, no-math keeps the diagram whole
        facts.katex += not in_diagram and any(c.startswith("katex") for c in classes)
        facts.arithmatex += "arithmatex" in classes
        facts.diagrams += is_diagram(tag, attrs)
        facts.build_diagrams += tag == "div" and "diagram" in classes
        facts.math_assets += is_math_asset(tag, attrs)
        facts.mermaid_assets += is_mermaid_asset(tag, attrs)
        facts.primer_cv += "primer-cv" in classes
        outermost = "svg" not in (t for t, _, _ in self.stack)   # not a KaTeX part inside a diagram's label
        if tag == "svg" and in_content and outermost and (in_diagram or attr(attrs, "aria-roledescription")
                                                          or attr(attrs, "id").startswith(("diagram-", "mermaid"))):
            facts.diagram_svgs += 1
        opens = not self_closing and tag not in VOID
        if self.cut_depth is not None:
            self.removed += 1
        elif self.remove is not None and self.remove(tag, attrs):
            self.removed += 1
            if opens:
                self.cut_depth, self.cut_start = len(self.stack), start
            else:
                self.cuts.append((start, end, ""))
        elif self.edit is not None and (new := self.edit(tag, attrs)) is not None:
            self.cuts.append((start, end, start_tag(tag, new, self_closing)))
            self.edited += 1
        if opens:
            facts.balance[tag] += 1
            self.stack.append((tag, in_content, in_diagram))

    def handle_endtag(self, tag):
        start = self.position()
        close = self.text.find(">", start)
        end = len(self.text) if close < 0 else close + 1
        if tag in VOID:
            return
        self.facts.balance[tag] -= 1
        at = next((i for i in range(len(self.stack) - 1, -1, -1) if self.stack[i][0] == tag), None)
        if at is None:
            self.facts.stray_end_tags += 1
            return
        if self.cut_depth is not None and self.cut_depth >= at:
            # the removed element ends here: with this end tag if it is its own,
            # before it if an ancestor's end tag closes it implicitly
            self.cuts.append((self.cut_start, end if self.cut_depth == at else start, ""))
            self.cut_depth = None
        del self.stack[at:]

    def close(self):
        super().close()
        if self.cut_depth is not None:
            self.cuts.append((self.cut_start, len(self.text), ""))
            self.cut_depth = None
        self.facts.unclosed = len(self.stack)

    def output(self) -> str:
        """The text with the cuts applied; every other byte as it was."""
        parts, at = [], 0
        for start, end, replacement in sorted(self.cuts):
            if start < at:
                raise ValueError(f"overlapping cuts at offset {start}")
            parts += [self.text[at:start], replacement]
            at = end
        parts.append(self.text[at:])
        return "".join(parts)


def scan(text: str, remove=None, edit=None) -> Rewriter:
    """Parse `text` once with the given rules; the result holds facts, cuts and counts."""
    rewriter = Rewriter(text, remove, edit)
    rewriter.feed(text)
    rewriter.close()
    return rewriter


def facts_of(text: str) -> Facts:
    """The `Facts` of an HTML document."""
    return scan(text).facts


def rewrite(text: str, remove=None, edit=None) -> tuple[str, int]:
    """`text` with every element matching `remove` cut out whole and every start
    tag matching `edit` rewritten; returns (new text, elements removed)."""
    rewriter = scan(text, remove, edit)
    return rewriter.output(), rewriter.removed


def any_of(*rules):
    """A rule true when any of `rules` is."""
    return lambda tag, attrs: any(rule(tag, attrs) for rule in rules)


VARIANT_RULES = {
    "full": (None, None),
    "no-math": (any_of(is_math, is_math_asset), None),
    "no-mermaid": (any_of(is_diagram, is_mermaid_asset), None),
    "floor": (any_of(is_math, is_math_asset, is_diagram, is_mermaid_asset), drop_content_visibility),
}


def variant_problems(name: str, full: Facts, variant: Facts, removed: int) -> list[str]:
    """Why a variant is not what it claims to be (empty when it is)."""
    problems = []
    if variant.balance != full.balance or variant.stray_end_tags != full.stray_end_tags \
            or variant.unclosed != full.unclosed:
        diff = {t: variant.balance[t] - full.balance[t] for t in set(variant.balance) | set(full.balance)
                if variant.balance[t] != full.balance[t]}
        problems.append(f"tag balance changed: {diff}, stray end tags {full.stray_end_tags} -> "
                        f"{variant.stray_end_tags}, unclosed {full.unclosed} -> {variant.unclosed}")
    if variant.elements != full.elements - removed:
        problems.append(f"{full.elements} elements - {removed} removed != {variant.elements}")
    no_math = name in ("no-math", "floor")
    no_mermaid = name in ("no-mermaid", "floor")
    for count, label, must_be_gone in (
        (variant.katex, "KaTeX elements", no_math),
        (variant.arithmatex, "formula wrappers", no_math),
        (variant.math_assets, "KaTeX/math.js tags", no_math),
        (variant.diagrams, "diagrams", no_mermaid),
        (variant.diagram_svgs, "diagram <svg> in .md-content", no_mermaid),
        (variant.mermaid_assets, "mermaid tags", no_mermaid),
        (variant.primer_cv, "primer-cv elements", name == "floor"),
    ):
        if must_be_gone and count:
            problems.append(f"{count} {label} left")
    if name == "no-math" and (variant.diagrams, variant.diagram_svgs) != (full.diagrams, full.diagram_svgs):
        problems.append("diagrams changed")
    if name == "no-mermaid" and (variant.arithmatex, variant.katex) != (full.arithmatex, full.katex):
        problems.append("formulas changed")
    return [f"{name}: {p}" for p in problems]


def variants(text: str) -> dict[str, str]:
    """The four variants of a page; raises ValueError if one fails its checks."""
    full = facts_of(text)
    out, problems = {}, []
    if full.diagram_svgs < full.build_diagrams:   # the check below would not see a diagram left behind
        problems.append(f"{full.build_diagrams} div.diagram but {full.diagram_svgs} diagram <svg> recognised")
    for name, (remove, edit) in VARIANT_RULES.items():
        new, removed = rewrite(text, remove, edit) if name != "full" else (text, 0)
        problems += variant_problems(name, full, facts_of(new), removed)
        out[name] = new
    if problems:
        raise ValueError("; ".join(problems))
    return out


# --- the server: caching headers like a static host, bytes counted gzip-compressed -----------------
