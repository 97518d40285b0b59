"""Reading a lesson's page as data: its Python blocks, figures, links and
backticked names. The prose checks (tests/test_prose.py) and the site's page
hook (hooks/lesson_pages.py) both use it, so both read a page the same way.
"""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from lessons import Lesson

FENCE_RE = re.compile(r"^\s*(```|~~~)")
PYTHON_FENCE_RE = re.compile(r"^(?P<indent>\s*)```python\s*$")
FIGURE_RE = re.compile(r"!\[(?P<alt>[^\]]*)\]\(figures/(?P<file>[^)\s]+)\)")
# a backticked `lessons.<slug>` or `lessons.<slug>.name`, unless already inside a [link](...)
LESSON_REF_RE = re.compile(r"(?<!\[)`lessons\.(?P<slug>[a-z][a-z0-9_]*)(?P<attr>(?:\.[A-Za-z_]\w*)*)`")
BACKTICK_RE = re.compile(r"`([^`\n]+)`")
CODE_NAME_RE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<call>\(.*\))?$")
ARROW = "# →"


# ---------------------------------------------------------------------------
# Walking the page: prose lines (outside code fences) and Python blocks
# ---------------------------------------------------------------------------


def prose_lines(lesson: Lesson) -> Iterator[tuple[int, str]]:
    """(file line, text) of every docstring line outside fenced code blocks."""
    in_fence = False
    for index, line in enumerate(lesson.docstring.splitlines()):
        if FENCE_RE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield lesson.file_line(index), line


@dataclass(frozen=True)
class Block:
    """One ```python block of a page."""

    path: str
    first_line: int  # file line of the block's first code line
    code: str


def python_blocks(lesson: Lesson) -> list[Block]:
    blocks: list[Block] = []
    lines = lesson.docstring.splitlines()
    index = 0
    while index < len(lines):
        match = PYTHON_FENCE_RE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, start = len(match.group("indent")), index + 1
        end = start
        while end < len(lines) and not FENCE_RE.match(lines[end]):
            end += 1
        code = "\n".join(line[indent:] for line in lines[start:end])
        blocks.append(Block(str(lesson.path), lesson.file_line(start), code))
        index = end + 1
    return blocks


# ---------------------------------------------------------------------------
# Running a block and comparing its `expr  # → value` lines
# ---------------------------------------------------------------------------


def run_block(block: Block) -> list[str]:
    """Execute a block in a fresh namespace; return one message per mismatch."""
    try:
        tree = ast.parse(block.code)
    except SyntaxError as exc:
        return [f"{block.path}:{block.first_line + (exc.lineno or 1) - 1}: syntax error in python block: {exc.msg}"]
    arrows = _arrow_comments(block.code)
    namespace: dict[str, object] = {"__name__": "__lesson_block__"}
    problems: list[str] = []
    for statement in tree.body:
        line = block.first_line + statement.end_lineno - 1
        expected = arrows.pop(statement.end_lineno, None)
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
        if not matches(expected, actual):
            shown = ast.get_source_segment(block.code, statement) or "expression"
            problems.append(f"{block.path}:{line}: `{shown}` expected {expected}, actual {actual!r}")
    for lineno, expected in sorted(arrows.items()):
        problems.append(f"{block.path}:{block.first_line + lineno - 1}: '{ARROW} {expected}' is not at the end of a statement")
    return problems


def _arrow_comments(code: str) -> dict[int, str]:
    """Block line number -> the expected text after '# →' on that line."""
    found: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.COMMENT and token.string.startswith(ARROW):
            found[token.start[0]] = token.string[len(ARROW):].strip()
    return found


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
        return len(items) == len(node.elts) and all(_match(e, source, a) for e, a in zip(node.elts, items))
    if isinstance(node, ast.Dict):
        if not isinstance(actual, dict) or len(actual) != len(node.keys):
            return False
        for key_node, value_node in zip(node.keys, node.values):
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
# Figures, lesson links and backticked names
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FigureRef:
    line: int
    alt: str
    file: str  # e.g. "positional.order_blindness.svg"

    @property
    def slug_and_name(self) -> tuple[str, str] | None:
        parts = self.file.split(".")
        if len(parts) != 3 or parts[2] != "svg":
            return None
        return parts[0], parts[1]


def figure_refs(lesson: Lesson) -> list[FigureRef]:
    return [
        FigureRef(line, m.group("alt").strip(), m.group("file"))
        for line, text in prose_lines(lesson)
        for m in FIGURE_RE.finditer(text)
    ]


def lesson_refs(lesson: Lesson) -> list[tuple[int, str, str]]:
    """(line, slug, attribute path) for every backticked `lessons.<slug>[.name]`."""
    return [
        (line, m.group("slug"), m.group("attr").lstrip("."))
        for line, text in prose_lines(lesson)
        for m in LESSON_REF_RE.finditer(text)
    ]


def mentions(lesson: Lesson, term: str) -> bool:
    """Does the page name `term` in backticks, alone or as a call?"""
    return f"`{term}`" in lesson.docstring or f"`{term}(" in lesson.docstring


def code_names(lesson: Lesson) -> list[tuple[int, str, bool]]:
    """(line, name, written as a call) for every backticked code-like name:
    snake_case, CamelCase or `name(...)`; plain words and symbols are skipped."""
    found = []
    for line, text in prose_lines(lesson):
        for span in BACKTICK_RE.findall(text):
            m = CODE_NAME_RE.match(span.strip())
            if not m:
                continue
            name, call = m.group("name"), bool(m.group("call"))
            camel = any(c.isupper() for c in name[1:]) and any(c.islower() for c in name)
            if call or "_" in name.strip("_") or camel or name.startswith("__"):
                found.append((line, name, call))
    return found
