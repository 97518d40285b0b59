"""Every page says only what its code computes.

For every lesson: each ```python block runs and each `expr  # → value` matches
the real value; every backticked code name exists; every `lessons.<slug>`
exists; every figure shown is produced by figures() and has alt text. A failure
names the file, the line, the expected and the actual.
"""

from __future__ import annotations

import importlib
import inspect

import pytest

from project import reading as _prose
from site_build.pages import api_page_modules
from lessons._vocabulary import TERMS
from tests.conftest import LESSONS, PAGES, ROOT

BY_SLUG = {page.slug: page for page in PAGES}
SLUGS = list(BY_SLUG)  # lessons, then paper companions
# The tool modules beside the lessons (lessons/tools/): a page may name their functions too.
# the code packages a page may name (API_PACKAGES: lessons/tools/ and the decoder, modelcard/)
TOOLS = [dotted for dotted, _ in api_page_modules(ROOT).values()]


@pytest.mark.parametrize("slug", SLUGS)
def test_python_blocks_print_what_the_code_computes(slug):
    lesson = BY_SLUG[slug]
    blocks = _prose.python_blocks(lesson)
    problems = [msg for block in blocks for msg in _prose.run_block(block)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_page_checks_at_least_one_value(slug):
    blocks = _prose.python_blocks(BY_SLUG[slug])
    arrows = sum(block.code.count(_prose.ARROW) for block in blocks)
    assert arrows > 0, f"{BY_SLUG[slug].path}: no '# →' line; Level 2 needs checked Python examples"


def _known_names(modules) -> tuple[set[str], set[str]]:
    """(callables and other globals, parameter and attribute names) across all lessons."""
    names, params = set(), set()
    for module in modules.values():
        for name, obj in vars(module).items():
            if name.startswith("__"):
                continue
            names.add(name)
            targets = [obj]
            if inspect.isclass(obj) and obj.__module__ == module.__name__:
                params.update(vars(obj))
                targets += [m for m in vars(obj).values() if callable(m)]
            for target in targets:
                if callable(target) and getattr(target, "__module__", None) == module.__name__:
                    try:
                        params.update(inspect.signature(target).parameters)
                    except (TypeError, ValueError):
                        pass
    return names, params


@pytest.mark.parametrize("slug", SLUGS)
def test_backticked_names_exist(slug, modules):
    lesson, module = BY_SLUG[slug], modules[slug]
    known = {**modules, **{name: importlib.import_module(name) for name in TOOLS}}
    names, params = _known_names(known)
    problems = []
    for line, name, call in _prose.code_names(lesson):
        if call:
            ok = callable(getattr(module, name, None)) or any(
                callable(getattr(m, name, None)) for m in known.values()
            )
        else:
            ok = name in names or name in params or name in TERMS
        if not ok:
            problems.append(
                f"{lesson.path}:{line}: `{name}{'(...)' if call else ''}` is not defined in any lesson "
                f"or module of lessons/tools/ or modelcard/ (nor in lessons/_vocabulary.py TERMS)"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("slug", SLUGS)
def test_lesson_links_exist(slug, modules):
    lesson = BY_SLUG[slug]
    problems = []
    papers = {page.slug for page in PAGES if page.package == "papers"}
    for line, target, _ in _prose.lesson_refs(lesson, "papers"):
        if target not in papers:
            problems.append(f"{lesson.path}:{line}: `papers.{target}` is not a paper companion (known: {sorted(papers)})")
    for line, target, attr in _prose.lesson_refs(lesson):
        if target not in modules or target in papers:
            problems.append(f"{lesson.path}:{line}: `lessons.{target}` is not a lesson (known: {', '.join(SLUGS)})")
            continue
        obj = modules[target]
        for part in filter(None, attr.split(".")):
            if not hasattr(obj, part):
                problems.append(f"{lesson.path}:{line}: `lessons.{target}.{attr}` does not exist")
                break
            obj = getattr(obj, part)
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="session")
def produced_figures(tmp_path_factory):
    """Every figure file the pages' figures() make: the figure build (`make figures`,
    incremental) run on the project, read from its manifest. Under the figure lock the
    site builds take first, so they find the figures fresh."""

    from figures_build import built_figures
    from tests.conftest import build_figures

    build_figures(tmp_path_factory)
    manifest = built_figures(ROOT)
    return {_prose.figure_file(slug, name) for slug, files in manifest.items() for name in files}


@pytest.mark.parametrize("slug", SLUGS)
def test_figures_shown_are_produced_and_described(slug, produced_figures):
    lesson = BY_SLUG[slug]
    refs = _prose.figure_refs(lesson)
    assert refs or lesson.package == "papers", f"{lesson.path}: the page shows no figure"
    problems = []
    for ref in refs:
        if ref.file not in produced_figures:
            problems.append(f"{lesson.path}:{ref.line}: figures/{ref.file} is not produced by any lesson's figures()")
        if len(ref.alt.split()) < 4:
            problems.append(f"{lesson.path}:{ref.line}: figures/{ref.file} needs alt text that says what it shows")
    assert not problems, "\n".join(problems)


def test_every_vocabulary_term_is_used_by_a_lesson():
    """A config key or flag nobody mentions any more is a stale row on the
    site's 'Config keys and flags' page."""
    unused = [term for term in TERMS if not any(_prose.mentions(lesson, term) for lesson in LESSONS)]
    assert not unused, f"lessons/_vocabulary.py: no lesson mentions {unused}; remove them"


def test_numbers_in_vocabulary_meanings_are_the_lessons_numbers():
    """The 'Config keys and flags' page repeats facts; each number it states
    must also stand on a lesson page that names the same key, where that
    lesson's own tests hold it."""
    import re

    problems = []
    for term, meaning in TERMS.items():
        pages = [lesson for lesson in LESSONS if f"`{term}`" in lesson.docstring]
        for number in re.findall(r"(?<![\w.^/(-])\d[\d,]*(?![\w/])", meaning):
            if not any(number in lesson.docstring for lesson in pages):
                problems.append(f"lessons/_vocabulary.py: {term}: {number} is on no lesson page that names `{term}`")
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def site_markdown():
    """A Markdown renderer with the site's own extensions and their settings (mkdocs.yml): the
    parse that renders a page, against which the page reader's view is held."""
    markdown = pytest.importorskip("markdown")
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    settings = dict(config["mdx_configs"])  # the fence's language named on its block, to count them
    settings["pymdownx.highlight"] = dict(settings.get("pymdownx.highlight", {}), pygments_lang_class=True)
    return lambda text: markdown.Markdown(extensions=config["markdown_extensions"],
                                          extension_configs=settings).convert(text)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_python_block_the_site_renders_is_checked(slug, site_markdown):
    """The page reader (CommonMark) and the site (Python-Markdown) must see the same ```python
    blocks: a block only the site shows, such as one right under an admonition's header, would
    print values no test runs (issue 41: lessons/attention.py's "These numbers" block)."""
    page = BY_SLUG[slug]
    rendered = site_markdown(page.docstring).count('class="language-python highlight"')
    checked = len(_prose.python_blocks(page))
    assert rendered == checked, (f"{page.path}: the site renders {rendered} python blocks, "
                                 f"the page reader checks {checked}")
