"""The kinds of content the site is made of, in one table: where each comes from,
which registry orders it, its place in the nav, and whether its pages get content-visibility.

The plugin reads this table for the nav, the generated files and the section
boxes; no other part of the build names a kind of content: it asks here (`kind_of`,
`notebook_sources`, `is_lab`, ...) or the project model (a lesson's `page`).
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from project.model import Project, imported_lessons
from site_build.pages import TRACK_PAGE, TRACK_TITLE, nav_title

PLAYGROUND = "notebooks/"  # the worked notebook's pages under docs/, and where their jupytext sources are
# (the folder and the file keep the name "playground": the page's URL and its .py download, which a reader
# runs and edits, are unchanged; the nav and the title say what the page is, a worked notebook)
LABS = "labs/"  # the labs' pages, and their sources' folder in the project (labs/_*.py: their helpers)


@dataclass(frozen=True)
class Kind:
    name: str
    source: str  # where an author writes it
    registry: str  # what orders it
    prefix: str  # its pages' path under docs/
    nav: tuple[str, ...] | None  # its place in the nav: a top-level section (a tab), then sub-sections
    # (None: mkdocs.yml places it)
    sections: bool  # its pages get content-visibility section boxes
    notebook: bool  # its pages are executed notebooks (mkdocs-jupyter)
    pages: Callable[[Project, Path], list[tuple[str, str]]]  # (nav title, page under docs/), in order


def lesson_pages(project: Project, docs_dir: Path) -> list[tuple[str, str]]:
    """The practitioner track (every Level 1 in order, generated: pages.track_page), then the lessons."""
    lessons = [(nav_title(lesson.title), lesson.page) for lesson in project.lessons]
    return [(TRACK_TITLE, TRACK_PAGE)] + lessons if lessons else []


def paper_pages(project: Project, docs_dir: Path) -> list[tuple[str, str]]:
    return [(nav_title(paper.title), paper.page) for paper in project.papers]


def notebook_sources(root: Path, docs_dir: Path) -> dict[str, Path]:
    """Notebook pages (page path -> jupytext .py file): docs/notebooks/*.py and labs/*.py."""
    found = {f"{PLAYGROUND}{p.name}": p for p in sorted(docs_dir.glob(f"{PLAYGROUND}*.py"))}
    found.update({f"{LABS}{p.name}": p for p in sorted((root / LABS).glob("*.py")) if not p.name.startswith("_")})
    return found


def is_lab(src_uri: str) -> bool:
    """Whether a page (its path under docs/) is a lab: a notebook page and a download (.py, .ipynb)."""
    return src_uri.startswith(LABS)


def lab_helpers(root: Path) -> list[Path]:
    """The modules the labs share (labs/_*.py, e.g. labs/_lab.py), in name order."""
    return sorted((root / LABS).glob("_*.py"))


def labs(project: Project, docs_dir: Path) -> dict[str, tuple[str, set[str]]]:
    """Lab page -> (title, lessons it imports), in file order."""
    found = {}
    for uri, path in notebook_sources(project.root, docs_dir).items():
        if is_lab(uri):
            found[uri] = (notebook_title(path), imported_lessons(ast.parse(path.read_text(encoding="utf-8"))))
    return found


def lab_pages(project: Project, docs_dir: Path) -> list[tuple[str, str]]:
    return [(title, uri) for uri, (title, _) in labs(project, docs_dir).items()]


@dataclass(frozen=True)
class ChallengeEntry:
    """One entry of challenges.CHALLENGES, as the registry's file states it."""

    number: str
    title: str
    package: str
    starter_name: str
    page: str


def challenge_registry(root: Path) -> list[ChallengeEntry]:
    """challenges.CHALLENGES read with ast, like READING_ORDER (nothing imported: the build runs
    no content in its own process): each `Challenge(...)` entry's literal keyword arguments."""
    path = Path(root) / "challenges" / "__init__.py"
    if not path.is_file():
        return []
    fields = {f.name for f in dataclasses.fields(ChallengeEntry)}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "CHALLENGES":
            return [ChallengeEntry(**{k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg in fields})
                    for call in node.value.elts]
    return []


def challenges(project: Project, docs_dir: Path) -> list[tuple[ChallengeEntry, Path]]:
    """(challenge, its starter file) for every challenge of the registry this project has."""
    found = []
    for challenge in challenge_registry(project.root):
        starter = project.root.joinpath(*challenge.package.split(".")) / "starter.py"
        if (docs_dir / challenge.page).is_file() and starter.is_file():
            found.append((challenge, starter))
    return found


def challenge_pages(project: Project, docs_dir: Path) -> list[tuple[str, str]]:
    return [(f"{c.number}: {c.title.split(':')[0]}", c.page) for c, _ in challenges(project, docs_dir)]


def notebook_title(path: Path) -> str:
    """A jupytext notebook's title: its first Markdown heading (`# # Title`), else its file name."""
    text = path.read_text(encoding="utf-8")
    return next((line[4:].strip() for line in text.splitlines() if line.startswith("# # ")), path.stem)


def playground_pages(project: Project, docs_dir: Path) -> list[tuple[str, str]]:
    return [(nav_title(notebook_title(path)), uri) for uri, path in notebook_sources(project.root, docs_dir).items()
            if uri.startswith(PLAYGROUND)]


# The folders whose code the build runs (content, read by the figure step and the snapshot):
# `mkdocs serve` watches each one a project has.
CONTENT_FOLDERS = ("lessons", "papers", "labs", "challenges", "modelcard", "explorables")


# In nav order: the plugin inserts these after Home, then Reference; a top-level section is a tab.
# Lessons hold the reading order and nothing else (a learner reads the section top to bottom), after
# the practitioner track, which strings the lessons' Level 1s together in that order.
# What a reader runs rather than reads shares the Labs tab: the worked notebook (the lessons'
# functions called, run at build time: the gentlest start), the labs, then the challenge (write the function yourself).
KINDS = (
    Kind("lessons", "lessons/<slug>.py", "lessons.READING_ORDER", "lessons/", ("Lessons",), True, False, lesson_pages),
    Kind("playground", "docs/notebooks/<name>.py (jupytext)", "file order", PLAYGROUND, ("Labs",), False, True,
         playground_pages),
    Kind("labs", "labs/<name>.py (jupytext)", "file order", LABS, ("Labs",), False, True, lab_pages),
    Kind("challenges", "docs/challenges/ and challenges/<package>/", "challenges.CHALLENGES", "challenges/",
         ("Labs", "Challenges"), True, False, challenge_pages),
    Kind("papers", "papers/<slug>.py", "papers.PAPERS", "papers/", ("Papers",), True, False, paper_pages),
)


def kind_of(src_uri: str) -> Kind | None:
    """The kind of content a page (its path under docs/) is, if any."""
    return next((kind for kind in KINDS if src_uri.startswith(kind.prefix)), None)


def is_notebook(src_uri: str) -> bool:
    """Whether a page is an executed notebook (mkdocs-jupyter runs it: the worked notebook, the labs)."""
    kind = kind_of(src_uri)
    return kind is not None and kind.notebook


def gets_content_visibility(src_uri: str) -> bool:
    """Whether a page's section bodies get content-visibility boxes (by its kind)."""
    kind = kind_of(src_uri)
    return kind is not None and kind.sections
