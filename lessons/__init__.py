"""The lessons of Positional Primer, and the one list that orders them.

A lesson is a module `lessons/<slug>.py`: its raw docstring is the page's
Markdown, `figures()` returns the page's figures, `demo()` narrates it in a
terminal. `READING_ORDER` below is the single place that says which lessons
exist and in what order a reader meets them: the site's navigation,
`python -m lessons` and the figure build all read it.

Everything here reads lesson files as text (with `ast`); nothing imports a
lesson, so a lesson that fails to import still gets a clear error naming it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

# The reading order: a learner reads top to bottom. Add a new lesson here.
READING_ORDER: tuple[str, ...] = (
    "notation",
    "attention",
    "positional",
    "rope",
    "transformer",
    "context_extension",
    "alibi",
)

LESSONS_DIR = Path(__file__).resolve().parent
SLUG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_TITLE_RE = re.compile(r"^# (?P<title>\S.*)$", re.MULTILINE)


class LessonError(Exception):
    """A lesson that cannot be built; the message names the file and the fix."""


@dataclass(frozen=True)
class Lesson:
    slug: str
    path: Path
    title: str
    docstring: str
    docstring_line: int  # the file line on which the docstring's text starts
    source: str

    @property
    def module(self) -> str:
        return f"lessons.{self.slug}"

    def file_line(self, docstring_index: int) -> int:
        """File line number of line `docstring_index` (0-based) of the docstring."""
        return self.docstring_line + docstring_index


def read_lesson(path: Path) -> Lesson:
    """Parse one lesson file without importing it."""
    path = Path(path)
    rel = _rel(path)
    try:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        raise LessonError(f"{rel}:{exc.lineno}: syntax error: {exc.msg}") from None
    body = tree.body
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        raise LessonError(f"{rel}: no module docstring; a lesson starts with r'''# Title ...''' (its page)")
    node = body[0].value
    docstring = node.value
    # The string's text starts right after the opening quotes on node.lineno.
    match = _TITLE_RE.search(docstring)
    if not match or docstring[: match.start()].strip():
        raise LessonError(f"{rel}: the docstring must start with a '# Title' line (the page title)")
    return Lesson(
        slug=path.stem,
        path=path,
        title=match.group("title").strip(),
        docstring=docstring,
        docstring_line=node.lineno,
        source=source,
    )


def discover(lessons_dir: Path | None = None, order: tuple[str, ...] | None = None) -> list[Lesson]:
    """All lessons in reading order, checked: every listed slug has exactly one
    file, every lesson file is listed, no two lessons claim one slug."""
    lessons_dir = Path(lessons_dir or LESSONS_DIR)
    order = READING_ORDER if order is None else order
    init = _rel(lessons_dir / "__init__.py")
    seen: set[str] = set()
    for slug in order:
        if slug in seen:
            raise LessonError(f"{init}: slug '{slug}' is listed twice in READING_ORDER; two lessons cannot claim one slug")
        seen.add(slug)
        if not SLUG_RE.match(slug):
            raise LessonError(f"{init}: slug '{slug}' in READING_ORDER must be lower_snake_case")
    files = {p.stem: p for p in sorted(lessons_dir.glob("*.py")) if not p.name.startswith("_")}
    packages = {p.name for p in lessons_dir.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for slug in sorted(packages & set(files)):
        raise LessonError(f"{_rel(files[slug])}: the package lessons/{slug}/ claims the same slug; rename one of them")
    folded: dict[str, str] = {}
    for stem in files:
        other = folded.setdefault(stem.lower(), stem)
        if other != stem:
            raise LessonError(f"{_rel(files[stem])}: '{stem}' and '{other}' differ only in case and would claim one slug")
    for stem, path in files.items():
        if stem not in seen:
            raise LessonError(f"{_rel(path)}: not in READING_ORDER ({init}); add '{stem}' where a reader should meet it")
    lessons = []
    for slug in order:
        if slug not in files:
            raise LessonError(f"{init}: READING_ORDER lists '{slug}' but lessons/{slug}.py does not exist")
        lessons.append(read_lesson(files[slug]))
    return lessons


def imported_lessons(source: str) -> set[str]:
    """Names of the lesson modules (and private helpers like `_show`) that
    `source` imports, read from its import statements."""
    tree = ast.parse(source)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "lessons":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("lessons."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("lessons."):
                    found.add(alias.name.split(".")[1])
    return found


def _rel(path: Path) -> str:
    """A path as the author sees it: relative to the project when possible."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
