"""Search lands on teaching (issue 43, item 5): what a practitioner types into Material's search
opens the section that teaches it, not a lab's code or a companion's title; no snippet shows a
button's text or a notebook's code.

The browser tests type each query into the built site's search box and read the first result:
the first group Material lists (one page) and, in it, the entry with the highest score (the
section the reader is sent to). A config key opens its row on the config-keys page, which says
what the key means and links every lesson section that teaches it (rope_theta is taught in four
lessons; the row is the one place that names them all). A method or a practice opens the lesson
section that teaches it. The unit tests check the parts on their own: a notebook page's code cells
out of the index, the config-keys rows as entries, the boosts by kind of content."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from site_build.content import notebook_sources
from site_build.pages import key_id
from tests.conftest import ROOT

BUTTON_TEXT = ("Copied!", "Copy to clipboard", "¶")  # the notebooks' copy button and heading links

# query -> where its first result must open: a config key's row (the id the keys page gives it), or
# (lesson, a word of the heading of the section that teaches it)
LANDS_ON = {
    "max_position_embeddings": ("reference/config-keys/", key_id("max_position_embeddings")),
    "rope_theta": ("reference/config-keys/", key_id("rope_theta")),
    "rope_scaling": ("reference/config-keys/", key_id("rope_scaling")),
    "position ids packing": ("lessons/position_ids/", "Packing"),  # packing's section, not Lab TF5
    "yarn": ("lessons/context_extension/", "YaRN"),  # the YaRN section, not the paper's companion
    "alibi": ("lessons/alibi/", "ALiBi"),  # the lesson's bias section, not Challenge 03
}
NOT_LESSONS = ("labs/", "notebooks/", "challenges/", "papers/")  # what a lesson must rank above

# every group of results Material shows: [{href, score, title, text}] per page, in order
RESULTS = """() => [...document.querySelectorAll('.md-search-result__item')].map(li =>
  [...li.querySelectorAll('a.md-search-result__link')].map(a => ({
    href: a.getAttribute('href'), score: parseFloat(a.querySelector('article').dataset.mdScore),
    title: (a.querySelector('h1, h2') || {}).textContent || '',
    text: a.querySelector('article').textContent})))"""


def _code_lines() -> dict[str, list[str]]:
    """Notebook page (its path in the site) -> the lines of its code cells a snippet must not show:
    each line of 12 characters or more that no Markdown cell of any notebook also holds."""
    import jupytext

    code, prose = {}, []
    for uri, path in notebook_sources(ROOT, ROOT / "docs").items():
        cells = jupytext.read(path).cells
        prose += [cell.source for cell in cells if cell.cell_type == "markdown"]
        code[uri[:-len(".py")] + "/"] = [" ".join(line.split()) for cell in cells if cell.cell_type == "code"
                                         for line in cell.source.splitlines() if len(line.strip()) >= 12]
    everywhere = " ".join(" ".join(text.split()) for text in prose)
    return {page: [line for line in lines if line not in everywhere] for page, lines in code.items()}


@pytest.fixture(scope="module")
def search_page(chromium, site):
    """One page of the built site, its search ready to type into (`search(query)`: the result groups)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()

    def search(query: str) -> list[list[dict]]:
        page.goto(site, wait_until="load")
        page.keyboard.press("s")  # Material's shortcut: focus the search box
        page.keyboard.type(query)
        page.locator(".md-search-result__item a").first.wait_for(timeout=15000)
        page.wait_for_timeout(500)  # the results for the whole query, not for its first letters
        groups = page.evaluate(RESULTS)
        for group in groups:
            for entry in group:
                entry["path"] = re.sub(r"\?[^#]*", "", entry["href"]).removeprefix(site)
        return groups

    yield search
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("query", LANDS_ON)
def test_a_search_opens_the_section_that_teaches_it(search_page, query):
    """The first result is the teaching section: for a key, its row on the config-keys page; else
    the lesson section that teaches the term. And the first lesson listed comes before any lab,
    notebook, challenge or paper companion (which name the same words in their titles)."""
    groups = search_page(query)
    top = max(groups[0], key=lambda entry: entry["score"])  # the first of the ties: Material's order
    page, where = LANDS_ON[query]
    if where.startswith("key-"):
        assert top["path"] == f"{page}#{where}", f"{query!r} opened {top['path']} ({top['title']!r})"
    else:
        assert top["path"].startswith(page + "#") and where in top["title"], (
            f"{query!r} opened {top['path']} ({top['title']!r}), not {page}'s section on {where}")
    pages = [group[0]["path"] for group in groups]
    lessons = [i for i, path in enumerate(pages) if path.startswith("lessons/")]
    others = [i for i, path in enumerate(pages) if path.startswith(NOT_LESSONS)]
    assert lessons and (not others or lessons[0] < others[0]), f"{query!r}: a lesson after {pages[others[0]]}: {pages}"


@pytest.mark.browser
def test_no_snippet_shows_a_button_or_a_notebook_s_code(search_page):
    """No result of the queries (nor of two words the labs' code is full of) shows a button's text
    ("Copied!", the notebooks' "¶"), and no notebook page's result shows a line of its code cells."""
    code = _code_lines()
    assert all(code.values()), "every notebook has code lines to look for"
    seen = []
    for query in [*LANDS_ON, "import", "claim"]:
        for group in search_page(query):
            for entry in group:
                shown = " ".join((entry["title"] + " " + entry["text"]).split())
                seen += [f"{query!r} -> {entry['path']}: {text!r}" for text in BUTTON_TEXT if text in shown]
                page = entry["path"].split("#")[0]
                seen += [f"{query!r} -> {entry['path']}: code {line!r}" for line in code.get(page, ()) if line in shown]
    assert not seen, "\n".join(seen[:20])


# --- the parts, in this process -------------------------------------------------------------


def _indexed(html_: str) -> str:
    """Everything Material's search parser takes from `html_` (titles and texts, in order)."""
    from material.plugins.search.plugin import Parser

    parser = Parser()
    parser.feed(html_)
    parser.close()
    return " ".join("".join(section.title) + " " + "".join(section.text) for section in parser.data)


def test_a_notebook_page_indexes_its_prose_not_its_code(tmp_path):
    """mkdocs-jupyter's own template on a notebook with prose, code and three kinds of output:
    after `code_cells_out_of_search` the index takes the prose and the headings, and none of the
    code, its outputs, the copy button's "Copied!" or the headings' "¶" (all there before)."""
    import nbformat
    from mkdocs_jupyter.nbconvert2 import nb2html

    from site_build.notebooks.page_html import code_cells_out_of_search

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lab Z: a title\n\nProse_before the code, with `inline_span`."),
        nbformat.v4.new_code_cell("code_name = 17\nprint(code_name)", outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="printed_output\n"),
            nbformat.v4.new_output("display_data", data={"text/markdown": "| shown_cell | 2 |\n|---|---|\n| 1 | 2 |"}),
            nbformat.v4.new_output("execute_result", data={"text/plain": "result_repr"}, execution_count=1)]),
        nbformat.v4.new_markdown_cell("## Claim_two\n\nProse_after the code."),
        nbformat.v4.new_code_cell("def helper_function():\n    return 'helper_text'"),
    ])
    path = tmp_path / "lab.ipynb"
    nbformat.write(nb, path)
    page = nb2html(str(path), no_prompt=True)
    kept, dropped = ["Lab Z: a title", "Prose_before", "inline_span", "Claim_two", "Prose_after"], [
        "code_name", "printed_output", "shown_cell", "result_repr", "helper_function", "helper_text", "Copied!", "¶"]
    before, after = _indexed(page), _indexed(code_cells_out_of_search(page))
    assert all(word in before for word in kept + dropped), "the template renders what the test looks for"
    assert all(word in after for word in kept), [word for word in kept if word not in after]
    assert not [word for word in dropped if word in after]


def _keys_html(terms: dict[str, str]) -> str:
    """The config-keys page (pages.keys_page, no lessons) as Markdown renders it."""
    import markdown

    from site_build.pages import keys_page

    text = keys_page([], terms).split("---", 2)[2]  # the page without its front matter
    return markdown.markdown(text, extensions=["md_in_html", "tables", "attr_list", "toc"])


def test_each_config_key_is_an_entry_that_opens_its_row(tmp_path):
    """The keys page through Material's own indexer: its tables out of the page's entries (which
    opened the table at its top), then one entry per row after them, located at the row's id,
    titled with the key and holding its meaning."""
    from material.plugins.search.plugin import SearchIndex

    from site_build.pages import KEYS_PAGE
    from site_build.search import KeyRows

    terms = {"rope_theta": "the RoPE base", "--max-model-len": "vLLM's served length", "_private_fn": "an engine's own"}
    built = tmp_path / "index.html"
    page = SimpleNamespace(file=SimpleNamespace(src_uri=KEYS_PAGE, abs_dest_path=str(built)),
                           url="reference/config-keys/", toc=[], meta={}, title="Config keys and flags")
    rows = KeyRows()
    html_ = _keys_html(terms)
    built.write_text(html_, encoding="utf-8")
    page.content = rows.on_page_content(html_, page)
    search = SimpleNamespace(search_index=SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={}))
    search.search_index.add_entry_from_context(page)
    own = len(search.search_index.entries)
    assert own and not any("rope_theta" in e["text"] for e in search.search_index.entries), "the tables are out"
    rows.on_post_build(search)
    added = search.search_index.entries[own:]
    assert {(e["location"], e["title"], e["text"]) for e in added} == {
        (f"reference/config-keys/#{key_id(term)}", f"<code>{term}</code>", meaning) for term, meaning in terms.items()}


def test_lessons_rank_over_labs_and_companions():
    """A lesson page's boost is above 2.5 times a lab's, the Playground's, a challenge's and a paper
    companion's (Material ranks a page's top 2.5 times a section with the same match); a page that
    sets its own boost keeps it; other pages get none."""
    from site_build.search import KIND_BOOSTS, boost_by_kind

    def boost(src_uri: str, meta: dict | None = None):
        page = SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), meta=meta if meta is not None else {})
        boost_by_kind(page)
        return (page.meta.get("search") or {}).get("boost")

    lesson = boost("lessons/rope.md")
    for practice in ("labs/tf1_sinusoidal_vs_rope.py", "notebooks/playground.py", "challenges/03-alibi.md",
                     "papers/peng2023_yarn.md"):
        assert lesson > 2.5 * boost(practice), practice
    assert boost("lessons/rope.md", {"search": {"boost": 7}}) == 7
    assert boost("reference/config-keys.md") is None and boost("index.md") is None
    assert set(KIND_BOOSTS) <= {"lessons", "playground", "labs", "challenges", "papers"}
