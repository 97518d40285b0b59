"""The project as the build sees it: every lesson read once, checked, hashed.

`Project.read(root)` is the one object a build holds. It reads each lesson
file once (as text, with `ast`: nothing is imported, so a lesson that fails
to import still gets an error naming its file) and knows, for every lesson:

- its page (the docstring), title and source file (slug <-> source);
- the lessons it imports, read from its code;
- its *code hash*: the sha256 of its code without the docstring, over the
  closure of lessons and helpers it imports. A prose-only edit leaves every
  code hash unchanged, so no figure is rendered and no notebook re-executed.

It also holds the rules that keep the lessons a library: a lesson imports
only lessons before it in `READING_ORDER`, and no public name is defined in
two lessons. Each broken rule is a `LessonError` whose one line names the file.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

SLUG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
# Top-level names every lesson has by contract; they are not "defined twice".
CONTRACT_NAMES = frozenset({"figures", "demo", "assets", "FIGURE_INPUTS"})
# assets() -> {path under the site: bytes}: files a lesson publishes with the site (the site build writes them)


# The repository's code packages, lowest layer first (tests/test_imports.py holds the layers): the
# one list pyproject.toml's packages, the Makefile's dead-code scan, the import graph and a copy of
# the project are checked against or made from (tests/test_packages.py).
CODE_PACKAGES = ("project", "harness", "lessons", "papers", "labs", "challenges", "experiments", "modelcard", "explorables",
                 "figures_build", "site_build")


class LessonError(Exception):
    """A lesson that cannot be built; the message names the file and the fix."""


@dataclass(frozen=True)
class Lesson:
    """One lesson module, read as text."""

    slug: str
    path: Path
    title: str
    docstring: str
    docstring_line: int  # the file line on which the docstring's text starts
    source: str
    code: str  # the source without the docstring
    imports: frozenset[str]  # lessons and _helpers its code imports (module names under lessons.)
    public: tuple[tuple[str, int], ...]  # (name, line) of top-level public definitions
    package: str = "lessons"  # "papers" for a paper companion
    inputs: tuple[str, ...] = ()  # FIGURE_INPUTS: glob patterns (from the root) of data its figures read
    has_assets: bool = False  # it defines (or imports) assets(): files it publishes with the site

    @property
    def module(self) -> str:
        return f"{self.package}.{self.slug}"

    @property
    def page(self) -> str:
        """The generated page's path under docs/, e.g. lessons/rope.md or papers/su2021_roformer.md."""
        return f"{self.package}/{self.slug}.md"

    def file_line(self, docstring_index: int) -> int:
        """File line number of line `docstring_index` (0-based) of the docstring."""
        return self.docstring_line + docstring_index


@functools.lru_cache(maxsize=128)
def _parse(source: str, filename: str) -> ast.Module:
    """`ast.parse`, kept per text: `mkdocs serve` reads the project again on every
    save, and only the saved file has new text. The tree is never modified."""
    return ast.parse(source, filename=filename)


def read_lesson(path: Path, root: Path | None = None, package: str = "lessons") -> Lesson:
    """Parse one lesson (or paper companion) file without importing it."""
    path = Path(path)
    rel = _rel(path, root)
    try:
        source = path.read_text(encoding="utf-8")
        tree = _parse(source, str(path))
    except SyntaxError as exc:
        raise LessonError(f"{rel}:{exc.lineno}: syntax error: {exc.msg}") from None
    body = tree.body
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        raise LessonError(f"{rel}: no module docstring; a lesson starts with r'''# Title ...''' (its page)")
    node = body[0].value
    docstring = node.value
    first = docstring.lstrip("\n").split("\n", 1)[0]
    if not first.startswith("# ") or not first[2:].strip():
        raise LessonError(f"{rel}: the docstring must start with a '# Title' line (the page title)")
    lines = source.splitlines(keepends=True)
    # the module without its docstring: what the figures depend on (prose is not hashed)
    code = "".join(lines[: node.lineno - 1] + lines[node.end_lineno:])
    return Lesson(
        slug=path.stem,
        path=path,
        title=first[2:].strip(),
        docstring=docstring,
        docstring_line=node.lineno,
        source=source,
        code=code,
        imports=frozenset(imported_lessons(tree)),
        public=tuple(_public_definitions(tree)),
        package=package,
        inputs=_figure_inputs(tree, rel),
        has_assets=any((isinstance(n, ast.FunctionDef) and n.name == "assets")
                       or (isinstance(n, ast.ImportFrom) and any((a.asname or a.name) == "assets" for a in n.names))
                       for n in body),
    )


def _figure_inputs(tree: ast.Module, rel: str) -> tuple[str, ...]:
    """The lesson's `FIGURE_INPUTS = ("glob", ...)`: data files (patterns from the project root) whose
    bytes go into its code hash, so a changed result re-renders its figures. Empty when absent."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "FIGURE_INPUTS"
                                                for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                value = None
            if not (isinstance(value, tuple) and all(isinstance(v, str) for v in value)):
                raise LessonError(f"{rel}:{node.lineno}: FIGURE_INPUTS must be a tuple of glob patterns "
                                  "(strings, relative to the project root)")
            return value
    return ()


def imported_lessons(tree: ast.AST) -> set[str]:
    """Names of the lesson modules (and helpers like `_show`, and tools like `tools.engines`) that
    `tree` imports."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in ("lessons", TOOLS_PACKAGE):
                found.update(_under_lessons(f"{node.module}.{alias.name}") for alias in node.names)
            elif node.module.startswith("lessons."):
                found.add(_under_lessons(node.module))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("lessons."):
                    found.add(_under_lessons(alias.name))
    return found


# Tool code the lessons import (lessons/tools/*.py): no pages, but their code goes into the code
# hash of each lesson that imports them, as a helper's does (under the name "tools.<module>").
TOOLS_PACKAGE = "lessons.tools"


def _under_lessons(module: str) -> str:
    """"rope" for lessons.rope (and lessons.rope.x); "tools.engines" for modelcard.engines."""
    parts = module.split(".")
    return ".".join(parts[1:3]) if parts[1] == "tools" and len(parts) > 2 else parts[1]


def tool_modules(lessons_dir: Path) -> dict[str, Path]:
    """{"tools.<module>": path} for each module of lessons/tools/ (its __init__ left out)."""
    return {f"tools.{p.stem}": p for p in sorted((lessons_dir / "tools").glob("*.py")) if p.stem != "__init__"}


def tool_names(lessons_dir: Path) -> dict[str, tuple[str, ...]]:
    """{"<module>": its public names, in source order} for each module of lessons/tools/, read as text."""
    return {name.split(".", 1)[1]: tuple(n for n, _ in _public_definitions(_parse(path.read_text(encoding="utf-8"), str(path))))
            for name, path in tool_modules(lessons_dir).items()}


# Code packages with API pages and no lesson pages: the lessons' tools, and the model-card decoder
# (modelcard/, which imports lessons and which no lesson imports).
API_PACKAGES = ("lessons.tools", "modelcard")


def package_modules(root: Path, package: str) -> dict[str, Path]:
    """{"<module>": path} for each module of a code package ("lessons.tools", "modelcard") under
    `root`, its __init__ and __main__ left out."""
    folder = Path(root).joinpath(*package.split("."))
    return {p.stem: p for p in sorted(folder.glob("*.py")) if p.stem not in ("__init__", "__main__")}


def package_names(root: Path, package: str) -> dict[str, tuple[str, ...]]:
    """{"<module>": its public names, in source order} for each module of a code package, read as text."""
    return {module: tuple(n for n, _ in _public_definitions(_parse(path.read_text(encoding="utf-8"), str(path))))
            for module, path in package_modules(root, package).items()}


def _public_definitions(tree: ast.Module) -> Iterable[tuple[str, int]]:
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        else:
            continue
        for name in names:
            if not name.startswith("_") and name not in CONTRACT_NAMES:
                yield name, node.lineno


@dataclass
class Project:
    """One build's view of the project: the lessons in reading order, read once."""

    root: Path
    lessons: list[Lesson]
    helpers: dict[str, str] = field(default_factory=dict)  # _helper module name -> its code
    papers: list[Lesson] = field(default_factory=list)  # paper companions (papers/), after every lesson

    @classmethod
    def read(cls, root: Path | str = ".", order: tuple[str, ...] | None = None, *, check: bool = True) -> "Project":
        """Discover every lesson of `root`/lessons; with `check`, also enforce the
        library's rules (imports follow the reading order, one home per name)."""
        root = Path(root).resolve()
        lessons_dir = root / "lessons"
        order = reading_order(lessons_dir) if order is None else order
        lessons = _discover(root, lessons_dir, order)
        helpers = {p.stem: _code_of(p) for p in sorted(lessons_dir.glob("_*.py")) if p.name != "__main__.py"}
        helpers.update({name: _code_of(p) for name, p in tool_modules(lessons_dir).items()})
        papers_dir = root / "papers"
        papers = []
        if (papers_dir / "__init__.py").is_file():
            papers = _discover(root, papers_dir, reading_order(papers_dir, "PAPERS"), "papers")
        taken = {lesson.slug: lesson for lesson in lessons}
        for paper in papers:
            if paper.slug in taken:
                raise LessonError(f"{_rel(paper.path, root)}: the slug '{paper.slug}' is a lesson's too; "
                                  "figure files are named by slug, so rename the companion")
        project = cls(root, lessons, helpers, papers)
        if check:
            project.check_imports()
            project.check_names()
        return project

    # -- lookups -------------------------------------------------------------

    @property
    def by_slug(self) -> dict[str, Lesson]:
        """Every page module (lessons, then paper companions) by slug."""
        return {page.slug: page for page in self.lessons + self.papers}

    @property
    def slugs(self) -> list[str]:
        return [lesson.slug for lesson in self.lessons]

    def rel(self, path: Path) -> str:
        return _rel(path, self.root)

    # -- hashes --------------------------------------------------------------

    def closure(self, names: Iterable[str]) -> list[str]:
        """The lessons and helpers `names` import, transitively (names included), sorted."""
        by_slug, seen, todo = self.by_slug, set(), list(names)
        while todo:
            name = todo.pop()
            if name in seen or (name not in by_slug and name not in self.helpers):
                continue
            seen.add(name)
            if name in by_slug:
                todo.extend(by_slug[name].imports)
            else:
                todo.extend(imported_lessons(ast.parse(self.helpers[name])))
        return sorted(seen)  # a fixed order: set order changes with PYTHONHASHSEED

    def code_hash(self, names: Iterable[str], extra: bytes = b"") -> str:
        """sha256 of the code (docstrings left out) of `names` and all they import."""
        by_slug = self.by_slug
        digest = hashlib.sha256(extra)
        for name in self.closure(names):
            code = by_slug[name].code if name in by_slug else self.helpers[name]
            digest.update(name.encode() + b"\0" + code.encode() + b"\0")
            for pattern in by_slug[name].inputs if name in by_slug else ():
                for path in sorted(self.root.glob(pattern)):
                    digest.update(path.relative_to(self.root).as_posix().encode() + b"\0" + path.read_bytes())
        return digest.hexdigest()

    # -- the library's rules --------------------------------------------------

    def check_imports(self) -> None:
        """A lesson imports only lessons that come before it in the reading order."""
        place = {slug: i for i, slug in enumerate(self.slugs)}
        for paper in self.papers:  # a companion may import any lesson, and no lesson imports it
            place[paper.slug] = len(place)
        for lesson in self.lessons + self.papers:
            later = sorted(m for m in lesson.imports if m in place and place[m] >= place[lesson.slug])
            if later:
                what = "itself" if later == [lesson.slug] else ", ".join(f"lessons.{m}" for m in later)
                raise LessonError(
                    f"{self.rel(lesson.path)}: imports {what}, which a reader meets later; a lesson imports "
                    "only lessons before it in READING_ORDER (move the function to the earlier lesson, or reorder)"
                )

    def check_names(self) -> None:
        """No public name is defined in two lessons: one home per idea."""
        home: dict[str, tuple[Lesson, int]] = {}
        for lesson in self.lessons + self.papers:
            for name, line in lesson.public:
                if name in home and home[name][0] is not lesson:
                    first, first_line = home[name]
                    raise LessonError(
                        f"{self.rel(lesson.path)}:{line}: `{name}` is already defined in "
                        f"{self.rel(first.path)}:{first_line}; import it from there (one home per idea)"
                    )
                home.setdefault(name, (lesson, line))


def reading_order(lessons_dir: Path, name: str = "READING_ORDER") -> tuple[str, ...]:
    """READING_ORDER from lessons/__init__.py (or PAPERS from papers/), read with ast (nothing imported)."""
    init = lessons_dir / "__init__.py"
    try:
        tree = ast.parse(init.read_text(encoding="utf-8"), filename=str(init))
    except (OSError, SyntaxError) as exc:
        raise LessonError(f"{init}: cannot read READING_ORDER: {exc}") from None
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            try:
                order = ast.literal_eval(node.value)
            except ValueError:
                break
            if isinstance(order, (tuple, list)) and all(isinstance(s, str) for s in order):
                return tuple(order)
            break
    raise LessonError(f"{init}: {name} must be a literal tuple of slugs")


def vocabulary(root: Path) -> dict[str, str]:
    """TERMS from lessons/_vocabulary.py (config keys and flags -> meaning), read as text."""
    path = Path(root) / "lessons" / "_vocabulary.py"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if isinstance(target, ast.Name) and target.id == "TERMS":
                return ast.literal_eval(node.value)
    raise LessonError(f"{path}: no TERMS dict")


def _discover(root: Path, lessons_dir: Path, order: tuple[str, ...], package: str = "lessons") -> list[Lesson]:
    init = _rel(lessons_dir / "__init__.py", root)
    listing = "READING_ORDER" if package == "lessons" else "PAPERS"
    seen: set[str] = set()
    for slug in order:
        if slug in seen:
            raise LessonError(f"{init}: slug '{slug}' is listed twice in {listing}; two lessons cannot claim one slug")
        seen.add(slug)
        if not SLUG_RE.match(slug):
            raise LessonError(f"{init}: slug '{slug}' in {listing} must be lower_snake_case")
    files = {p.stem: p for p in sorted(lessons_dir.glob("*.py")) if not p.name.startswith("_")}
    packages = {p.name for p in lessons_dir.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for slug in sorted(packages & set(files)):
        raise LessonError(f"{_rel(files[slug], root)}: the package {package}/{slug}/ claims the same slug; rename one of them")
    folded: dict[str, str] = {}
    for stem in files:
        other = folded.setdefault(stem.lower(), stem)
        if other != stem:
            raise LessonError(f"{_rel(files[stem], root)}: '{stem}' and '{other}' differ only in case and would claim one slug")
    for stem, path in files.items():
        if stem not in seen:
            raise LessonError(f"{_rel(path, root)}: not in {listing} ({init}); add '{stem}' where a reader should meet it")
    lessons = []
    for slug in order:
        if slug not in files:
            raise LessonError(f"{init}: {listing} lists '{slug}' but {package}/{slug}.py does not exist")
        lessons.append(read_lesson(files[slug], root, package))
    return lessons


def without_docstrings(source: str) -> str:
    """`source` with the lines of every docstring (module, class, function) removed, the rest verbatim:
    what a hash over code should read, so that a prose fix changes nothing (experiments.real_model.study)."""
    drop = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body and \
                isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
                isinstance(body[0].value.value, str):
            drop |= set(range(body[0].lineno, body[0].end_lineno + 1))
    return "".join(line for n, line in enumerate(source.splitlines(keepends=True), 1) if n not in drop)


def _code_of(path: Path) -> str:
    """A helper module's text without its docstring (prose edits change no hash)."""
    source = path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise LessonError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    doc = tree.body[0] if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(
        getattr(tree.body[0], "value", None), ast.Constant) else None
    if doc is None:
        return source
    lines = source.splitlines(keepends=True)
    return "".join(lines[: doc.lineno - 1] + lines[doc.end_lineno:])


def _rel(path: Path, root: Path | None = None) -> str:
    """A path as the author sees it: relative to the project (or the working directory)."""
    path = Path(path).resolve()
    for base in (root, Path.cwd()):
        if base is not None:
            try:
                return str(path.relative_to(Path(base).resolve()))
            except ValueError:
                pass
    return str(path)
