"""Reading a page as data: its Python blocks, figures, lesson links, backticked
names and diagrams, found by a Markdown parser (markdown-it-py), never by
matching lines. The prose checks (tests/test_prose.py), the figure build and
the site plugin all read a page through this module, so all read it alike.

A page is a lesson's docstring (or any Markdown). Indented blocks (the body of
a `??? question` or `!!! note`) are parsed again as Markdown, since the site
writes code only in fences.
"""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from markdown_it import MarkdownIt
from markdown_it.token import Token

ARROW = "# →"
# A value too long to sit beside its expression goes under it: a line of its own that starts
# with ARROW, right below the statement, continued on lines that start with ARROW_MORE (the
# value's text lines up under the first line's).
ARROW_MORE = "#   "
# A checked value whose magnitude is below this, written with its digits, is an error: a float64
# difference that small is rounding, and its digits depend on the CPU's floating-point kernels
# (OpenBLAS picks them for the CPU it finds), so the page would hold on one machine only.
ROUNDING_FLOOR = 1e-12
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?j?(?![\w.])")  # a number in text (j: imaginary)
_MD = MarkdownIt("commonmark", {"html": True}).enable("table")


# ---------------------------------------------------------------------------
# The parse: block tokens with file lines, and inline tokens with their line
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Inline:
    """An inline token (code span, image, link, text) and the page line it is on (0-based)."""

    token: Token
    line: int
    in_link: bool


# An admonition's or a details block's header (`!!! note`, `??? example "..."`, `???+ tip`): Python-Markdown
# takes the indented lines under it as its body even with no blank line between, where CommonMark folds
# them into the header's paragraph (and a fence there into its text).
_CONTAINER = re.compile(r"(?:!!!|\?\?\?\+?)\s")


def _body(lines: list[str]) -> str:
    """An indented body with its indent taken off, to be parsed again as a page of its own."""
    return "\n".join(line[4:] if line.startswith("    ") else line.lstrip() for line in lines)


@lru_cache(maxsize=64)
def _blocks(text: str) -> tuple[tuple[Token, int], ...]:
    """(block token, 0-based first line) for the page, indented blocks parsed again: the body of an
    admonition or a details block, whether a blank line follows its header or not."""
    found: list[tuple[Token, int]] = []
    lines = text.splitlines()
    tokens = _MD.parse(text)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        start = token.map[0] if token.map else 0
        if token.type == "code_block":  # the body, after a blank line under its header
            found += [(t, start + line) for t, line in _blocks(_body(lines[token.map[0]:token.map[1]]))]
        elif (token.type == "paragraph_open" and token.level == 0 and token.map[1] - token.map[0] > 1
              and _CONTAINER.match(lines[start]) and lines[start + 1].startswith("    ")):
            # the header alone, then its body: every indented or blank line under it (a blank line inside
            # a fence makes CommonMark split the rest off as a code block: those tokens are skipped too)
            end = start + 1
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith("    ")):
                end += 1
            found += [(t, start + line) for t, line in _blocks(lines[start])]
            found += [(t, start + 1 + line) for t, line in _blocks(_body(lines[start + 1:end]))]
            while i < len(tokens) and (tokens[i].map is None or tokens[i].map[0] < end):
                i += 1
            continue
        else:
            found.append((token, start))
        i += 1
    return tuple(found)


def inlines(text: str) -> tuple[Inline, ...]:
    """Every inline token of the page with its 0-based line (cached with the parse:
    the link check, the keys page and the API links walk each page on every build)."""
    return _inlines(text)


@lru_cache(maxsize=64)
def _inlines(text: str) -> tuple[Inline, ...]:
    found = []
    for token, line in _blocks(text):
        if token.type != "inline":
            continue
        depth, offset = 0, 0
        for child in token.children or []:
            if child.type in ("softbreak", "hardbreak"):
                offset += 1
            depth += child.type == "link_open"
            found.append(Inline(child, line + offset, depth > 0))
            depth -= child.type == "link_close"
    return tuple(found)


def fences(text: str, language: str | None) -> Iterator[tuple[int, str]]:
    """(0-based line of the first code line, code) of every ```language fence; with None, of
    every fence a reader sees as code (all but the diagrams' sources)."""
    for token, line in _blocks(text):
        if token.type != "fence":
            continue
        info = token.info.strip().split(" ")[0]
        if info == language or (language is None and _is_code(token)):
            yield line + 1, token.content


def _is_code(token: Token) -> bool:
    """A fence a reader sees as code: any but a diagram's source (```mermaid)."""
    return token.type == "fence" and token.info.strip().split(" ")[0] != "mermaid"


# ---------------------------------------------------------------------------
# Python blocks and their `expr  # → value` lines (or `# → value` on the lines under expr)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """One ```python block of a page."""

    path: str
    first_line: int  # file line of the block's first code line
    code: str


def python_blocks(lesson) -> list[Block]:
    """The page's ```python blocks, each with the file line it starts on."""
    return [Block(str(lesson.path), lesson.file_line(line), code) for line, code in fences(lesson.docstring, "python")]


def run_block(block: Block) -> list[str]:
    """Execute a block in a fresh namespace; return one message per mismatch."""
    try:
        tree = ast.parse(block.code)
    except SyntaxError as exc:
        return [f"{block.path}:{block.first_line + (exc.lineno or 1) - 1}: syntax error in python block: {exc.msg}"]
    arrows = arrow_values(block.code)
    namespace: dict[str, object] = {"__name__": "__lesson_block__"}
    problems: list[str] = []
    for statement in tree.body:
        line = block.first_line + statement.end_lineno - 1
        expected = arrows.pop(statement.end_lineno, None)
        if expected is None and arrows.get(statement.end_lineno + 1, ("", False))[1]:
            expected = arrows.pop(statement.end_lineno + 1)
        if expected is not None:
            expected = expected[0]
            tiny = rounding_digits(expected)
            if tiny:
                problems.append(
                    f"{block.path}:{line}: '{ARROW} {expected}' writes {', '.join(tiny)}: below {ROUNDING_FLOOR:g} with its "
                    f"digits: {_ROUNDING_WHY}; {_ROUNDING_FIX}")
            tight = bounds_below_floor(statement, block.code)
            if tight:
                problems.append(
                    f"{block.path}:{line}: `{', '.join(tight)}` holds a value to less than {ROUNDING_FLOOR:g}: "
                    f"{_ROUNDING_WHY}, so such a bound holds on some CPUs only; {_ROUNDING_FIX}")
        try:
            if expected is None:
                exec(compile(ast.Module([statement], []), block.path, "exec"), namespace)
                continue
            if not isinstance(statement, ast.Expr):
                problems.append(f"{block.path}:{line}: a '{ARROW}' line must be an expression, not a statement")
                continue
            actual = eval(compile(ast.Expression(statement.value), block.path, "eval"), namespace)
        except Exception as exc:  # the page's code is broken: say where
            problems.append(f"{block.path}:{line}: python block raised {type(exc).__name__}: {exc}")
            return problems
        if _is_zero(expected) and isinstance(actual, (float, np.floating)) and 0 < abs(float(actual)) < ROUNDING_FLOOR:
            shown = ast.get_source_segment(block.code, statement) or "expression"
            problems.append(f"{block.path}:{line}: `{shown}` is {float(actual)!r}, written as {expected}: a zero "
                            f"here is exact on some CPUs only; {_ROUNDING_FIX}")
        if not matches(expected, actual):
            shown = ast.get_source_segment(block.code, statement) or "expression"
            problems.append(f"{block.path}:{line}: `{shown}` expected {expected}, actual {actual!r}")
    for lineno, (expected, _) in sorted(arrows.items()):
        problems.append(f"{block.path}:{block.first_line + lineno - 1}: '{ARROW} {expected}' is not at the end of a statement")
    return problems


def arrow_values(code: str) -> dict[int, tuple[str, bool]]:
    """Block line number of each '# →' comment -> (the expected text after it, whether the
    comment stands on a line of its own). A comment on a line of its own may go on over the
    lines below it that start with ARROW_MORE; their text is joined to it with a space."""
    found: dict[int, tuple[str, bool]] = {}
    lines = code.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.COMMENT and token.string.startswith(ARROW):
            alone = not token.line[: token.start[1]].strip()
            text = [token.string[len(ARROW):].strip()]
            if alone:
                for line in lines[token.start[0]:]:
                    if not line.strip().startswith(ARROW_MORE) or line.strip().startswith(ARROW):
                        break
                    text.append(line.strip()[len(ARROW_MORE):].strip())
            found[token.start[0]] = (" ".join(text), alone)
    return found


_ROUNDING_WHY = ("a difference that small is rounding, whose digits change with the CPU's floating-point "
                 "kernels (try OPENBLAS_CORETYPE=Sandybridge)")
_ROUNDING_FIX = (f"check a bound no tighter than the floor (`gap < {ROUNDING_FLOOR:g}  # → True`), `gap == 0  # → True` "
                 "where the arithmetic is exact on every machine, an exact constant as an equality "
                 "(`eps == 2.0**-52  # → True`), or print the value with lessons._show.gap_text")


def _tiny(value: float) -> bool:
    return 0 < abs(value) < ROUNDING_FLOOR


def rounding_digits(expected: str) -> list[str]:
    """The numbers written with digits in a '# →' value whose magnitude is below ROUNDING_FLOOR
    (0 is exact and allowed): every number of its text, inside strings too ('gap 4.4e-16'), with a
    Unicode minus read as a minus."""
    text = expected.replace("\u2212", "-")
    return [m.group().lstrip("+-") for m in _NUMBER.finditer(text) if _tiny(float(m.group().rstrip("j")))]


def bounds_below_floor(statement: ast.stmt, code: str) -> list[str]:
    """The parts of a checked statement that hold a value to less than ROUNDING_FLOOR: a number
    literal below the floor (`gap < 1e-14`, `atol=1e-15`), or `round(x, n)` with n of 12 or more
    (which shows whether |x| < 5e-13)."""
    found = []
    for node in ast.walk(statement):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float) and _tiny(node.value):
            found.append(ast.get_source_segment(code, node) or repr(node.value))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round"
              and len(node.args) == 2 and isinstance(node.args[1], ast.Constant)
              and type(node.args[1].value) is int and node.args[1].value >= 12):
            found.append(ast.get_source_segment(code, node) or "round(...)")
    return found


def _is_zero(expected: str) -> bool:
    """Is the '# →' value a zero written as a number (0, 0.0, -0.000, 0e0)?"""
    try:
        return float(expected.strip()) == 0
    except ValueError:
        return False


def matches(expected: str, actual: object) -> bool:
    """Does `actual` print as `expected`? Numbers are rounded to the digits the
    page prints; lists, tuples and arrays are compared element by element;
    anything that is not a Python literal is compared by repr."""
    try:
        node = ast.parse(expected, mode="eval").body
    except SyntaxError:
        return repr(actual) == expected
    return _match(node, expected, actual)


def _match(node: ast.AST, source: str, actual: object) -> bool:
    number = _literal_number(node)
    if number is not None:
        return _number_matches(number, ast.get_source_segment(source, node) or "", actual)
    if isinstance(node, ast.Constant):  # str, bool, None
        if isinstance(node.value, bool) or node.value is None:
            return isinstance(actual, (bool, np.bool_, type(None))) and bool(actual == node.value)
        return isinstance(actual, str) and actual == node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        if isinstance(node, ast.Tuple) and not isinstance(actual, tuple):
            return False
        if isinstance(node, ast.List) and not isinstance(actual, (list, np.ndarray)):
            return False
        items = list(actual)
        return len(items) == len(node.elts) and all(_match(e, source, a) for e, a in zip(node.elts, items, strict=True))
    if isinstance(node, ast.Dict):
        if not isinstance(actual, dict) or len(actual) != len(node.keys):
            return False
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            key = ast.literal_eval(key_node)
            if key not in actual or not _match(value_node, source, actual[key]):
                return False
        return True
    return repr(actual) == source


def _literal_number(node: ast.AST) -> float | int | None:
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        node = node.operand
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return sign * node.value
    return None


def _number_matches(expected: float | int, text: str, actual: object) -> bool:
    if isinstance(actual, (bool, np.bool_)) or not isinstance(actual, (int, float, np.integer, np.floating)):
        return False
    value = float(actual)
    if not math.isfinite(value):
        return False
    mantissa = text.lower().lstrip("+-").split("e")[0]
    digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    if "e" in text.lower():  # scientific: compare the printed significant digits
        return f"{value:.{digits}e}" == f"{float(expected):.{digits}e}"
    return abs(round(value, digits) - expected) <= 0.5 * 10.0 ** (-digits - 6) + 1e-12 * abs(expected)


# ---------------------------------------------------------------------------
# Figures, lesson links, backticked names, the one-sentence summary
# ---------------------------------------------------------------------------

FIGURE_DIR = "figures/"
DARK_SUFFIX = ".dark"  # figures()["x"] of lesson s is s.x.svg, and its twin for the dark palette s.x.dark.svg


def figure_file(slug: str, name: str) -> str:
    """The file (under docs/figures/) that lesson `slug`'s figures()[name] becomes."""
    return f"{slug}.{name}.svg"


@dataclass(frozen=True)
class FigureRef:
    line: int
    alt: str
    file: str  # the path after figures/, e.g. "positional.order_blindness.svg"


def figure_refs(lesson) -> list[FigureRef]:
    """Every image of the page that points into figures/, with its alt text."""
    found = []
    for item in inlines(lesson.docstring):
        src = item.token.attrGet("src") if item.token.type == "image" else None
        if isinstance(src, str) and src.startswith(FIGURE_DIR):
            found.append(FigureRef(lesson.file_line(item.line), item.token.content.strip(), src[len(FIGURE_DIR):]))
    return found


def lesson_ref(text: str, package: str = "lessons") -> tuple[str, str] | None:
    """("rope", "apply_rope_half") for the code span `lessons.rope.apply_rope_half`, else None
    (with package="papers", the same for `papers.<slug>`)."""
    parts = text.strip().split(".")
    if len(parts) < 2 or parts[0] != package or not all(p.isidentifier() for p in parts[1:]):
        return None
    return parts[1], ".".join(parts[2:])


def lesson_refs(lesson, package: str = "lessons") -> list[tuple[int, str, str]]:
    """(file line, slug, attribute path) for every code span `lessons.<slug>[.name]` (or
    `papers.<slug>`, with package="papers") not already in a link."""
    found = []
    for item in inlines(lesson.docstring):
        ref = lesson_ref(item.token.content, package) if item.token.type == "code_inline" and not item.in_link else None
        if ref:
            found.append((lesson.file_line(item.line), *ref))
    return found


@lru_cache(maxsize=256)
def code_spans(text: str) -> frozenset[str]:
    """The text of every code span of a page. Cached on the text: the config-keys
    page asks it of every lesson once per term, on every build (and serve rebuild)."""
    return frozenset(item.token.content.strip() for item in inlines(text) if item.token.type == "code_inline")


def _names(spans, term: str) -> bool:
    """Is `term` one of these code spans, alone or as a call?"""
    return any(span == term or span.startswith(term + "(") for span in spans)


def mentions(lesson, term: str) -> bool:
    """Does the page name `term` in a code span, alone or as a call?"""
    return _names(code_spans(lesson.docstring), term)


def sections(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(heading as a reader sees it, code spans under it) for each `##` section of a page, in
    order; a heading's text is its words with code spans kept as their text (as MkDocs' toc
    reads it to make the anchor)."""
    found: list[tuple[str, set[str]]] = []
    blocks = _blocks(text)
    for i, (token, _) in enumerate(blocks):
        if token.type == "heading_open" and token.tag == "h2":
            found.append(("".join(c.content for c in blocks[i + 1][0].children or []), set()))
        elif token.type == "inline" and found and not (i and blocks[i - 1][0].type == "heading_open"):
            found[-1][1].update(c.content.strip() for c in token.children or [] if c.type == "code_inline")
    return tuple((heading, frozenset(spans)) for heading, spans in found)


# The sections of a page that name a term without teaching it: the guide, the summary, the quiz, the reading lists
NOT_TEACHING = ("Level 1", "Level 2", "In 20 seconds", "Self-test", "The papers", "Further reading")


def taught_at(lesson, term: str) -> str | None:
    """The heading of the section of `lesson` that teaches `term`: the first Level 2 section
    that names it in a code span (the Level 1 guide only previews), else the first section
    that names it at all; None when the page never does."""
    named = [heading for heading, spans in sections(lesson.docstring) if _names(spans, term)]
    level2 = [heading for heading in named if not heading.startswith(NOT_TEACHING)]
    return (level2 or named or [None])[0]


def code_names(lesson) -> list[tuple[int, str, bool]]:
    """(file line, name, written as a call) for every code span that looks like a
    name: snake_case, CamelCase or `name(...)`; plain words and symbols are skipped."""
    found = []
    for item in inlines(lesson.docstring):
        if item.token.type != "code_inline":
            continue
        span = item.token.content.strip()
        name, call = span, False
        if span.endswith(")") and "(" in span:
            name, call = span[: span.index("(")], True
        if not name.isidentifier():
            continue
        camel = any(c.isupper() for c in name[1:]) and any(c.islower() for c in name)
        if call or "_" in name.strip("_") or camel or name.startswith("__"):
            found.append((lesson.file_line(item.line), name, call))
    return found


def one_sentence(lesson) -> str:
    """The text after the bold 'In one sentence.' of Level 1, as one line ('' if none)."""
    lead = "In one sentence."
    for token, _ in _blocks(lesson.docstring):
        children = [c for c in token.children or [] if c.type != "text" or c.content]
        if len(children) > 2 and children[0].type == "strong_open" and children[1].content == lead:
            text = token.content.split(lead, 1)[1].lstrip("*").strip()
            return " ".join(text.split())
    return ""


# ---------------------------------------------------------------------------
# Reading time: the words of a page's prose, by level
# ---------------------------------------------------------------------------

WORDS_PER_MINUTE = 200  # a common estimate for reading technical prose with care
# A lesson's two levels: the `##` headings that start "Level 1" and "Level 2" (site_build/markdown/levels.py marks them)
LEVEL = re.compile(r"^Level ([12])\b")
# The sections a reader consults rather than reads through: not counted in a reading time
REFERENCE_SECTIONS = ("The papers", "Further reading")
_WORD = re.compile(r"[^\W_]+(?:['’.,-][^\W_]+)*")  # "1,024", "don't", "e.g" and "half-split" are one word each
# Math as pymdownx.arithmatex (generic) finds it: $$...$$ (display), and $...$ with no space inside the dollars
# An admonition's or details block's marker and type (`??? question "Title"`): its quoted title is read
_CONTAINER_HEAD = re.compile(r'^(?:!!!|\?\?\?\+?)\s[^"\n]*')
_MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?![\s$])(?:\\.|[^\\$])+?(?<![\s\\])\$", re.S)


def _inline_text(token: Token) -> str:
    """An inline token as a reader reads it: its text and link text, a code span as one word
    ("code"); images (figures are not timed) and raw HTML left out."""
    parts = []
    for child in token.children or []:
        if child.type == "text":
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type == "code_inline":
            parts.append(" code ")
    return _CONTAINER_HEAD.sub("", "".join(parts), count=1)


def section_words(text: str) -> tuple[tuple[str, int, int], ...]:
    """(`##` heading as a reader sees it, words of prose under it and in it, lines of code under it)
    for each section of a page, in order, after ("", words, lines before the first `##`). Words of
    prose: text, link text, table cells and headings; a code span counts as one word; code blocks,
    diagrams, math ($...$, $$...$$), figures and raw HTML count none, nor an admonition's marker and
    type (`??? question`). Lines of code: the non-blank lines of the fences a reader sees as code."""
    found = [["", 0, 0]]
    blocks = _blocks(text)
    in_math = False  # inside a $$ block that the Markdown parser split into several paragraphs
    for i, (token, _) in enumerate(blocks):
        if token.type == "heading_open" and token.tag == "h2":
            found.append(["".join(c.content for c in blocks[i + 1][0].children or []), 0, 0])
        if _is_code(token):
            found[-1][2] += sum(1 for line in token.content.splitlines() if line.strip())
        if token.type != "inline":
            continue
        prose = _inline_text(token)
        if in_math:
            in_math, prose = "$$" not in prose, prose.split("$$", 1)[-1] if "$$" in prose else ""
        prose = _MATH.sub(" ", prose)
        if "$$" in prose:  # a display formula that goes on in the next block
            prose, in_math = prose.split("$$", 1)[0], True
        found[-1][1] += len(_WORD.findall(prose))
    return tuple(tuple(section) for section in found)


def level_headings(text: str) -> dict[str, str]:
    """{"1": heading, "2": heading} of a page's first Level 1 and Level 2 `##` headings, when it has
    both (a lesson's two levels); {} otherwise."""
    found: dict[str, str] = {}
    for heading, *_ in section_words(text)[1:]:
        match = LEVEL.match(heading)
        if match:
            found.setdefault(match.group(1), heading)
    return found if set(found) == {"1", "2"} else {}


def reading_counts(text: str) -> dict[str, tuple[int, int]]:
    """(words of prose, lines of code) (`section_words`) by level: {"Level 1": from the Level 1 heading
    to the Level 2 heading, "Level 2": from the Level 2 heading to the page's end, its summary and
    self-test included}; a page without both levels: {"Reading time": every section's}. The reference
    lists (REFERENCE_SECTIONS) count in neither; what comes before the Level 1 heading (the title, how
    to run it, an interactive tool) counts only in a page without levels."""
    levels = level_headings(text)
    counted = {"Level 1": (0, 0), "Level 2": (0, 0)} if levels else {"Reading time": (0, 0)}
    part = None if levels else "Reading time"
    for heading, words, code in section_words(text):
        if levels and heading in levels.values():
            part = "Level " + LEVEL.match(heading).group(1)
        if part and not heading.startswith(REFERENCE_SECTIONS):
            counted[part] = (counted[part][0] + words, counted[part][1] + code)
    return counted


def reading_words(text: str) -> dict[str, int]:
    """Words of prose by level (`reading_counts`)."""
    return {part: words for part, (words, _) in reading_counts(text).items()}


def minutes(words: int) -> int:
    """Minutes to read `words` at WORDS_PER_MINUTE, rounded up (at least 1)."""
    return max(1, math.ceil(words / WORDS_PER_MINUTE))


def reading_times(text: str) -> dict[str, int]:
    """Minutes to read each part of a page (`reading_words`): {"Level 1": m, "Level 2": m}, or
    {"Reading time": m} for a page without both levels."""
    return {part: minutes(words) for part, words in reading_words(text).items()}


def reading_time_text(text: str, only: str | None = None) -> str:
    """The reading times as the site writes them (of the part `only`, if given), a part with code saying
    that its time is the prose's, and its lines of code: 'Level 1: 8 min · Level 2: 21 min of prose, 321
    lines of code'."""
    return " · ".join(f"{part}: {minutes(words)} min" + (f" of prose, {code:,} line{'s' * (code > 1)} of code" if code else "")
                      for part, (words, code) in reading_counts(text).items() if only in (None, part))
