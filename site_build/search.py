"""Material's search: which pages rank first (a boost per kind of content), the config-keys
page's rows as entries of their own, the index of a dirty rebuild, and the search dialog's name.

What Material indexes is decided where the HTML is made: a notebook page marks its code cells
`data-search-exclude` (notebooks/page_html.py), a lesson page its listing (pages.py)."""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.pages import Page

from site_build.content import kind_of
from site_build.pages import KEYS_PAGE

# A page's boost by its kind of content (site_build/content.py). Material ranks an article (a page's
# top, whose title is the page's) 2.5 times a section with the same match, so a lab or a companion
# whose title names the query outranked the lesson section that teaches it ("position ids packing":
# Lab TF5; "yarn": the YaRN companion; "alibi": Challenge 03); a lesson's sections need more than
# 2.5 times their pages'. A page that sets its own boost (front matter) keeps it.
KIND_BOOSTS = {"lessons": 2, "playground": 0.5, "labs": 0.5, "challenges": 0.5, "papers": 0.5}

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
DIALOG_LABEL = "Search the lessons"


def name_search_dialog(output: str) -> str:
    """Material's search overlay is a dialog without a name (axe: aria-dialog-name): give it one."""
    return output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{DIALOG_LABEL}">')


def merge_search_index(search, rebuilt_urls: list[str]) -> None:
    """After a dirty rebuild, the search index keeps every page that was not rebuilt and takes
    the new entries of those that were (Material's own merge assumes one rebuilt page; a save
    may rebuild several). `search` is the search plugin; nothing to do without a previous index."""
    previous = getattr(search, "search_index_prev", None)
    if previous is None:
        return

    def rebuilt(location: str) -> bool:
        return any(location == url or location.startswith(url + "#") for url in rebuilt_urls)

    search.search_index.entries = [e for e in previous.entries if not rebuilt(e["location"])] + \
        search.search_index.entries
    search.search_index_prev = None  # merged here



def boost_by_kind(page: Page) -> None:
    """Give `page` its kind's search boost (`KIND_BOOSTS`) in its meta, where Material reads it
    (`search: boost:`), unless the page sets one itself."""
    kind = kind_of(page.file.src_uri)
    if kind is None or kind.name not in KIND_BOOSTS:
        return
    search = page.meta.get("search")
    if not isinstance(search, dict):
        search = page.meta["search"] = {}
    search.setdefault("boost", KIND_BOOSTS[kind.name])


_TABLE = re.compile(r"<table\b")
_ROW = re.compile(r'<tr\b[^>]*\bid="(key-[^"]+)"[^>]*>(.*?)</tr>', re.S)
_CELL = re.compile(r"<td\b[^>]*>(.*?)</td>", re.S)


def key_rows(document: str) -> list[tuple[str, str, str]]:
    """(row id, key, meaning) for each row of the config-keys page's HTML that has an id `key-...`
    (pages.key_id), the key and its meaning as Material indexes text (its own HTML parser: tags
    dropped but `<code>` and the like, text escaped)."""
    from material.plugins.search.plugin import Parser

    def indexed(cell: str) -> str:
        parser = Parser()
        parser.feed(cell)
        parser.close()
        return " ".join("".join(section.title + section.text).strip() for section in parser.data).strip()

    rows = []
    for row_id, cells in _ROW.findall(document):
        found = _CELL.findall(cells)
        if len(found) >= 2:
            rows.append((row_id, indexed(found[0]), indexed(found[1])))
    return rows


class KeyRows:
    """The config-keys page in the search index as one entry per row: the location its row
    (`reference/config-keys/#key-rope_theta`), the title the key, the text its meaning. A key
    searched for opens its row; the page's tables stay out of its own entries (they opened the
    86-row table at its top and doubled the index's share of it).

    A row takes no boost (not the page's): the key is its whole title, which outranks any page
    that quotes the key in its text, while a row whose key only contains the word searched for
    (`alibi_bias_max` for "alibi", `--yarn-beta-fast` for "yarn") ranks below the lesson
    section that teaches it."""

    def __init__(self):
        self.built: tuple[str, Path] | None = None  # (its URL, its built file), when this build rendered the page

    def on_page_content(self, html_: str, page: Page) -> str:
        """The keys page's tables marked `data-search-exclude` (a table holds no table, so Material's
        exclusion covers it whole); its rows come in as entries of their own after the build."""
        if page.file.src_uri != KEYS_PAGE:
            return html_
        self.built = (page.url, Path(page.file.abs_dest_path))
        return _TABLE.sub("<table data-search-exclude", html_)

    def on_post_build(self, search) -> None:
        """Add each row of the keys page built in this build (`key_rows` of its file) to the index
        of `search` (the search plugin), after the page's own entries."""
        if self.built is None or search is None:
            return
        url, path = self.built
        self.built = None
        entries = search.search_index.entries
        own = [i for i, entry in enumerate(entries) if entry["location"].split("#")[0] == url]
        if not own:  # the page is left out of search
            return
        rows = [{"location": f"{url}#{row_id}", "title": key, "text": meaning}
                for row_id, key, meaning in key_rows(path.read_text(encoding="utf-8"))]
        entries[own[-1] + 1:own[-1] + 1] = rows
