"""Lesson modules -> pages: the MkDocs side of the lesson pipeline.

on_config   runs the incremental figure build (so no page is ever served with a
            stale or missing figure) and puts the lessons in the nav, in
            lessons.READING_ORDER.
on_files    adds one generated page per lesson at lessons/<slug>/ (nothing is
            committed twice: the module's docstring is the only copy).
on_files    also adds reference/config-keys/: every config key and serving flag
            the lessons name (lessons/_vocabulary.py), with links to where.
on_page_markdown  fills the lesson list on the home page.
on_serve    watches lessons/: saving a lesson rebuilds that lesson's figures
            only (the cache skips the rest) and reloads the page.

A broken lesson stops the build with a message that names its file.
"""

from __future__ import annotations

import ast
import logging
import re
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.lesson_pages")

LESSON_LIST_MARKER = "<!-- lesson-list -->"
KEYS_PAGE = "reference/config-keys.md"
ONE_SENTENCE_RE = re.compile(r"\*\*In one sentence\.\*\*\s+(?P<text>.+?)(?:\n\s*\n|$)", re.S)

_lessons: list = []  # this build's lessons, in reading order


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    root = Path(config.config_file_path).resolve().parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from figures_build import BuildError, build

    try:
        build(root, log=log.info)
    except BuildError as exc:
        raise PluginError(str(exc)) from None
    import lessons  # build() imported root/lessons anew

    _lessons[:] = lessons.discover(root / "lessons")
    section = {"Lessons": [{_nav_title(lesson.title): f"lessons/{lesson.slug}.md"} for lesson in _lessons]}
    nav = list(config.nav or [{"Home": "index.md"}])
    if _lessons:
        nav.insert(1 if nav else 0, section)
        nav.insert(2, {"Config keys and flags": KEYS_PAGE})
    config.nav = nav
    return config


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    slugs = {lesson.slug for lesson in _lessons}
    for lesson in _lessons:
        files.append(File.generated(config, f"lessons/{lesson.slug}.md", content=page_markdown(lesson, slugs)))
    if _lessons:
        files.append(File.generated(config, KEYS_PAGE, content=keys_markdown(_lessons)))
    return files


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    if LESSON_LIST_MARKER not in markdown:
        return markdown
    rows = []
    for number, lesson in enumerate(_lessons, 1):
        match = ONE_SENTENCE_RE.search(lesson.docstring)
        sentence = " ".join(match.group("text").split()) if match else ""
        rows.append(f"{number}. **[{lesson.title}](lessons/{lesson.slug}.md)**" + (f"<br>{sentence}" if sentence else ""))
    return markdown.replace(LESSON_LIST_MARKER, "\n".join(rows))


def on_serve(server, *, config: MkDocsConfig, builder):
    root = Path(config.config_file_path).resolve().parent
    server.watch(str(root / "lessons"))
    return server


# ---------------------------------------------------------------------------
# A lesson's page
# ---------------------------------------------------------------------------

FIGURE_LINK_RE = re.compile(r"(!\[[^\]]*\]\()figures/")


def page_markdown(lesson, slugs: set[str]) -> str:
    """The docstring as the reader sees it: figure paths and lesson links
    resolved, and the module's code at the end in a collapsed block."""
    from lessons._prose import FENCE_RE, LESSON_REF_RE  # the page reader the prose tests use

    out, in_fence = [], False
    for index, line in enumerate(lesson.docstring.splitlines()):
        if FENCE_RE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            line = FIGURE_LINK_RE.sub(r"\1../figures/", line)
            line = LESSON_REF_RE.sub(lambda m: _lesson_link(m, lesson, index, slugs), line)
        out.append(line)
    code = _code_after_docstring(lesson.source)
    out += [
        "",
        "## The code behind this page",
        "",
        # kept out of the search index: the prose already names every function,
        # and the full listings were about half of the index readers download
        '<div markdown="1" data-search-exclude>',
        "",
        f'??? abstract "lessons/{lesson.slug}.py: everything below the docstring (the docstring is this page)"',
        "",
        "    ```python",
        *[f"    {line}" if line else "" for line in code.splitlines()],
        "    ```",
        "",
        "</div>",
        "",
    ]
    return "\n".join(out)


def keys_markdown(lessons) -> str:
    """The config keys and serving flags the lessons name, each with its
    meaning and links to the lessons that use it (from lessons/_vocabulary.py)."""
    from lessons._prose import mentions
    from lessons._vocabulary import TERMS

    rows = []
    for term in sorted(TERMS, key=lambda t: t.lstrip("-").lower()):
        used = [lesson for lesson in lessons if mentions(lesson, term)]
        where = ", ".join(f"[{_nav_title(lesson.title)}](../lessons/{lesson.slug}.md)" for lesson in used)
        meaning = TERMS[term].replace("|", "\\|")
        rows.append(f"| `{term}` | {meaning} | {where} |")
    return "\n".join([
        "# Config keys and flags",
        "",
        "Every model-config key and serving flag the lessons name, what it means,",
        "and where it is taught. Keys are Hugging Face `config.json` names unless",
        "the meaning says otherwise; flags start with `--`.",
        "",
        "| Key or flag | What it means | Taught in |",
        "|---|---|---|",
        *rows,
        "",
    ])


def _lesson_link(match: re.Match, lesson, index: int, slugs: set[str]) -> str:
    slug = match.group("slug")
    if slug not in slugs:
        raise PluginError(
            f"{lesson.path}:{lesson.file_line(index)}: `lessons.{slug}` is not a lesson "
            f"(known: {', '.join(sorted(slugs))})"
        )
    return f"[{match.group(0)}]({slug}.md)"


def _code_after_docstring(source: str) -> str:
    tree = ast.parse(source)
    end = tree.body[0].end_lineno if tree.body else 0
    return "\n".join(source.splitlines()[end:]).strip("\n")


def page_source(page) -> str:
    """The file an author edits for `page`: a lesson page's source is its module."""
    source = page.file.src_uri
    if source.startswith("lessons/") and source.endswith(".md"):
        return source[:-3] + ".py"
    return f"docs/{source}"


def _nav_title(title: str) -> str:
    """The nav shows a title's part before the colon: 'Positional information'."""
    return title.split(":")[0].strip()
