"""The config-keys page (site_build/pages.py keys_page, issue 43 item 8): the public keys and
flags come first and the libraries' private functions after them, under a heading of their own;
every row carries the id `key-<term>` (the term as written), which links and the search index
open. The page's Markdown is rendered with the site's table extensions and read as HTML."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown
import pytest

from project.model import vocabulary
from site_build.pages import is_private, key_id, keys_page
from tests.conftest import LESSONS, ROOT

TERMS = vocabulary(ROOT)


class _Rows(HTMLParser):
    """Each table row's id, its first cell's text, and the h2 headings met before it, in page order."""

    def __init__(self):
        super().__init__()
        self.rows, self.headings, self._cell, self._in_h2 = [], [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append({"id": dict(attrs).get("id"), "key": None, "under": list(self.headings)})
        elif tag in ("td", "th") and self.rows and self.rows[-1]["key"] is None:
            self._cell = []
        elif tag == "h2":
            self._in_h2, self.headings = True, [*self.headings, ""]

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1]["key"], self._cell = "".join(self._cell).strip(), None
        elif tag == "h2":
            self._in_h2 = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._in_h2:
            self.headings[-1] += data


def rows_of(page_markdown: str) -> tuple[list[dict], list[str]]:
    """(body rows, h2 headings) of the page as HTML, rendered with the extensions mkdocs.yml uses
    for tables (md_in_html lets the generated rows carry ids)."""
    body = page_markdown.split("---\n", 2)[2]  # the front matter is MkDocs', not Markdown
    html = markdown.markdown(body, extensions=["md_in_html", "attr_list", "tables"])
    parser = _Rows()
    parser.feed(html)
    return [row for row in parser.rows if row["key"] != "Key or flag"], parser.headings


@pytest.fixture(scope="module")
def page():
    return rows_of(keys_page(LESSONS, TERMS))


def test_every_term_has_one_row_with_its_id(page):
    rows, _ = page
    assert sorted(row["key"] for row in rows) == sorted(TERMS)
    missing = [row["key"] for row in rows if row["id"] != f"key-{row['key']}"]
    assert not missing, f"rows without the id key-<term>: {missing}"
    assert len({row["id"] for row in rows}) == len(rows)
    # the form the search index and the links rely on, spelled out for a flag and a key
    assert key_id("--max-model-len") == "key---max-model-len" and key_id("rope_theta") == "key-rope_theta"
    assert all(re.fullmatch(r"key-\S+", row["id"]) for row in rows), "an HTML id holds no whitespace"


def test_public_keys_come_before_private_ones_under_their_own_heading(page):
    rows, headings = page
    private = [i for i, row in enumerate(rows) if row["key"].startswith("_")]
    public = [i for i, row in enumerate(rows) if not row["key"].startswith("_")]
    assert private and public, "the vocabulary has both kinds (else this test tests nothing)"
    assert max(public) < min(private), [row["key"] for row in rows[:len(private) + 1]]
    heading = rows[min(private)]["under"][-1]
    assert heading.lower().startswith("private") and heading not in rows[max(public)]["under"], (
        "the private names sit under a heading of their own, after the public ones")
    assert len(headings) == 2


def test_each_group_is_sorted_and_a_page_without_private_names_has_no_private_heading():
    terms = {"_z_private": "a private one", "--b-flag": "a flag", "a_key": "a key", "_a_private": "another"}
    rows, headings = rows_of(keys_page([], terms))
    assert [row["key"] for row in rows] == ["a_key", "--b-flag", "_a_private", "_z_private"]
    assert is_private("_a") and not is_private("--a") and not is_private("a_b")
    public_only = {k: v for k, v in terms.items() if not is_private(k)}
    rows, headings = rows_of(keys_page([], public_only))
    assert [row["key"] for row in rows] == ["a_key", "--b-flag"] and len(headings) == 1


def test_a_term_that_cannot_be_an_id_is_refused():
    for bad in ("", "two words", 'a"b'):
        with pytest.raises(ValueError):
            key_id(bad)
