"""The pages the plugin generates: a lesson page, an API reference page, the
config-keys page."""

from __future__ import annotations

import ast
import posixpath
import re
from pathlib import Path

from project.model import API_PACKAGES, package_modules, package_names
from markdown.extensions.toc import slugify

from project.reading import (REFERENCE_SECTIONS, WORDS_PER_MINUTE, level_headings, mentions, minutes, one_sentence,
                             reading_time_text, reading_words, taught_at)
from site_build.markdown.evidence import MARKER

KEYS_PAGE = "reference/config-keys.md"
KEYS_TABLE = "primer-keys"  # the config-keys tables' class (docs/stylesheets/site.css: stacked on a phone)
KEYS_SEARCH_BOOST = 4  # the config-keys page ranks first for a key it lists (a gallery note quoting it does not)
API_DIR = "reference/api"
TOOLS_API_DIR = f"{API_DIR}/tools"  # one page per module of lessons/tools/ (tool_api_pages)
# each code package's API pages (one per module), by package
API_PAGE_DIRS = {"lessons.tools": TOOLS_API_DIR, "modelcard": f"{API_DIR}/modelcard"}
PACKAGE_BLURBS = {"lessons.tools": "Tool code beside the lessons, not a lesson page.",
                  "modelcard": "Part of the model-card decoder (`python -m modelcard`), not a lesson page."}
SOURCE_LISTING = "primer-source"  # the class of a page's listing of its own module (the code behind the page)
TRACK_PAGE = "practitioner-track.md"  # every lesson's Level 1 in reading order (track_page), first under Lessons
TRACK_TITLE = "The practitioner track"
READING_CLASS = "primer-reading-time"  # the reading times under a lesson's title and in the home page's list
READING_NOTE = (f"Minutes of prose at {WORDS_PER_MINUTE} words a minute. Not timed: code (its lines are counted "
                f"beside the time), formulas, figures and the reading lists ({', '.join(REFERENCE_SECTIONS)})")



def lesson_page(lesson, labs: list[tuple[str, str]] = ()) -> str:
    """The docstring as the reader sees it, then the labs that exercise the lesson
    (title, page path), then the module's code in a collapsed block."""
    code = "\n".join(lesson.code.splitlines()).strip("\n")
    tried = []
    if labs:
        tried = ["", "## Try it in a lab", "",
                 "Run the claims of this page yourself, with an exit code that says whether they hold:", "",
                 *[f"- [{title}](../{uri})" for title, uri in labs]]
    return "\n".join([
        lesson.docstring.rstrip(),
        *tried,
        "",
        "## The code behind this page",
        "",
        f"Every function of this page, with its arguments and shapes, is in the "
        f"[API reference of `lessons.{lesson.slug}`](../{API_DIR}/{lesson.slug}.md); "
        f"reuse it with `from lessons.{lesson.slug} import ...`.",
        "",
        # kept out of the search index: the prose already names every function,
        # and the full listings were about half of the index readers download
        # a listing of the module's code, as written: its lines may be wider than the column
        # (it scrolls, and shows that it does), unlike the page's examples
        f'<div markdown="1" data-search-exclude class="{SOURCE_LISTING}">',
        "",
        f'??? abstract "{lesson.package}/{lesson.slug}.py: everything below the docstring (the docstring is this page)"',
        "",
        "    ```python",
        *[f"    {line}" if line else "" for line in code.splitlines()],
        "    ```",
        "",
        "</div>",
        "",
    ])


def api_page(lesson) -> str:
    """One API reference page: each public function and class, rendered by mkdocstrings."""
    lines = [
        # Material's search ranks a reference page below the lessons that teach the same words
        "---",
        "search:",
        "  boost: 0.5",
        "---",
        "",
        f"# lessons.{lesson.slug}",
        "",
        f"The functions and classes of [{nav_title(lesson.title)}](../../lessons/{lesson.slug}.md), "
        f"from their docstrings. Reuse them directly: `from lessons.{lesson.slug} import ...`.",
        "",
    ]
    for name, _ in lesson.public:
        lines += [f"::: lessons.{lesson.slug}.{name}", ""]
    return "\n".join(lines)


def keys_page(lessons, terms: dict[str, str]) -> str:
    """The config keys and serving flags the lessons name, each with its meaning and links
    to the lessons that use it (from lessons/_vocabulary.py): the public names first, then
    the engines' private functions (`is_private`), each group a table whose rows have the
    id `key_id(term)`, so a link or a search result opens the row."""
    def table(group: list[str]) -> list[str]:
        rows = []
        for term in sorted(group, key=lambda t: t.lstrip("-").lower()):
            where = ", ".join(_taught_link(lesson, term) for lesson in lessons if mentions(lesson, term))
            # HTML rows (md_in_html parses each cell's Markdown) so that each row can carry its id
            rows.append(f'<tr id="{key_id(term)}" markdown><td markdown="span">`{term}`</td>'
                        f'<td markdown="span">{terms[term]}</td><td markdown="span">{where}</td></tr>')
        return [f'<div class="{KEYS_TABLE}" markdown>', "<table markdown>",
                "<thead><tr><th>Key or flag</th><th>What it means</th><th>Taught in</th></tr></thead>",
                "<tbody markdown>", *rows, "</tbody>", "</table>", "</div>", ""]
    private = [term for term in terms if is_private(term)]
    return "\n".join([
        # searched for a key (rope_scaling), a reader wants what it means and where it is taught, which
        # this page says in one line; without the boost the first results are the decoder's gallery
        # notes, which only quote the key (Material's search reads `boost` from the front matter)
        "---",
        "search:",
        f"  boost: {KEYS_SEARCH_BOOST}",
        "---",
        "",
        "# Config keys and flags",
        "",
        "Every model-config key and serving flag the lessons name, what it means,",
        "and where it is taught. Keys are Hugging Face `config.json` names unless",
        "the meaning says otherwise; flags start with `--`.",
        "",
        "## Keys, flags and public names",
        "",
        "The keys you set in a config, the flags you pass to a server, and the public",
        "functions and tensors of the libraries the lessons read.",
        "",
        *table([term for term in terms if term not in private]),
        *(["## Private functions of the engines",
           "",
           "Names with a leading underscore are private to the library that defines them",
           "(Python's convention: not part of its API, free to change between releases).",
           "You never set or call them; the lessons cite them as the place where an",
           "engine does what it does with a key, and each meaning names the engine and file.",
           "",
           *table(private)] if private else []),
    ])


def is_private(term: str) -> bool:
    """A name private to its library: one with Python's leading underscore (vLLM's
    `_get_and_verify_max_len`). A flag (`--max-model-len`) starts with dashes and is public."""
    return term.startswith("_")


def key_id(term: str) -> str:
    """The id of `term`'s row on the config-keys page: 'key-' and the term as written
    (`key-rope_theta`, `key---max-model-len`). An HTML id holds no whitespace."""
    if not term or any(ch.isspace() for ch in term) or '"' in term:
        raise ValueError(f"{term!r} cannot be an HTML id")
    return f"key-{term}"


def _taught_link(lesson, term: str) -> str:
    """A link to the section of `lesson` that teaches `term` ('Title § Section'), or to the page
    when the page names it outside any section. The anchor is MkDocs' own (toc's slugify), so a
    heading that renders differently fails the strict build's anchor check."""
    heading = taught_at(lesson, term)
    if heading is None:
        return f"[{nav_title(lesson.title)}](../lessons/{lesson.slug}.md)"
    return f"[{nav_title(lesson.title)} § {heading}](../lessons/{lesson.slug}.md#{slugify(heading, '-')})"


def nav_title(title: str) -> str:
    """The nav shows a title's part before the colon: 'Positional information'."""
    return title.split(":")[0].strip()


def api_page_modules(root: Path) -> dict[str, tuple[str, Path]]:
    """{API page path under docs/: (dotted module name, its file)} for each module of the code
    packages (`API_PACKAGES`: lessons/tools/ and modelcard/), which have no lesson page."""
    return {f"{API_PAGE_DIRS[package]}/{module}.md": (f"{package}.{module}", path)
            for package in API_PACKAGES for module, path in package_modules(root, package).items()}


def tool_api_pages(root: Path) -> dict[str, str]:
    """{page path under docs/: Markdown} for each module of the code packages (`api_page_modules`):
    the module's docstring, then each public name, rendered by mkdocstrings."""
    names = {package: package_names(root, package) for package in API_PACKAGES}
    pages = {}
    for uri, (dotted, path) in api_page_modules(root).items():
        package, module = dotted.rsplit(".", 1)
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        # left out of search (the lessons and their API pages answer a reader's query; a tool's
        # page is reached from the nav and from the lessons that name it)
        lines = ["---", "search:", "  exclude: true", "---", "", f"# {dotted}", "", doc or "", "",
                 f"{PACKAGE_BLURBS[package]} Reuse it: `from {dotted} import ...`.", ""]
        for name in names[package][module]:
            lines += [f"::: {dotted}.{name}", ""]
        pages[uri] = "\n".join(lines)
    return pages


def level_1_link(lesson, here: str = "") -> str | None:
    """The link to `lesson`'s Level 1 heading from the page `here` (a path under docs/), None when
    the lesson has no two levels. The anchor is MkDocs' own (toc's slugify), checked by the strict build."""
    heading = level_headings(lesson.docstring).get("1")
    if heading is None:
        return None
    return f"{posixpath.relpath(lesson.page, posixpath.dirname(here) or '.')}#{slugify(heading, '-')}"


def reading_time_html(lesson) -> str:
    """The lesson's reading times as the site shows them (`reading_time_text`), with what they count: a span
    per part, each kept on one line, so that a narrow screen breaks the line between the parts."""
    parts = [reading_time_text(lesson.docstring, part) for part in reading_words(lesson.docstring)]
    return " · ".join(f'<span class="{READING_CLASS}" title="{READING_NOTE}">{part}</span>' for part in parts)


def shown_sentence(lesson) -> str:
    """The lesson's one sentence (`one_sentence`) as a list shows it, away from its page: without the
    evidence markers (`⟨id⟩`, site_build/markdown/evidence.py), which only the page itself can resolve."""
    return re.sub(r"\s*" + MARKER.pattern, "", one_sentence(lesson))


def lesson_list(lessons) -> str:
    """The home page's list of lessons: each title linked, its reading times and its one sentence."""
    return "\n".join(f"{number}. **[{lesson.title}]({lesson.page})** {reading_time_html(lesson)}"
                     + (f"<br>{shown_sentence(lesson)}" if shown_sentence(lesson) else "")
                     for number, lesson in enumerate(lessons, 1))


def track_page(lessons) -> str:
    """The practitioner track: every lesson's Level 1 in reading order, each with its reading time,
    its one sentence and a link to its Level 1; lessons without two levels are left out."""
    rows, words = [], 0
    for lesson in lessons:
        link = level_1_link(lesson, TRACK_PAGE)
        if link is None:
            continue
        level_1 = reading_words(lesson.docstring)["Level 1"]
        words += level_1
        sentence = shown_sentence(lesson)
        rows.append(f"{len(rows) + 1}. **[{nav_title(lesson.title)}]({link})** "
                    f'<span class="{READING_CLASS}" title="{READING_NOTE}">'
                    f'{reading_time_text(lesson.docstring, "Level 1")}</span>'
                    + (f"<br>{sentence}" if sentence else ""))
    return "\n".join([
        f"# {TRACK_TITLE}",
        "",
        "Every lesson's **Level 1**, the practitioner's guide, in reading order: what each topic means for",
        "the models you run, your options and what each costs, what breaks and the config keys involved,",
        "with no equations. Each Level 1 ends with a link to the next one, and to its own Level 2 for the",
        "mechanism.",
        "",
        f"All {len(rows)} take about {minutes(words)} minutes: {words:,} words of prose at {WORDS_PER_MINUTE} words",
        "a minute (code, formulas, figures and reading lists not timed; the times beside each lesson count",
        "the same way, and name the lines of code a Level 1 has besides).",
        "",
        *rows,
        "",
    ])
