"""Every address a built page names leads to a file of the build: in the offline copy (opened
through file://, so by a relative path to a file) and in the site built for /primer/ (a relative
path, or under /primer/ on the 404 page). Read from the HTML files, no browser needed; marked as a
browser test because it checks the builds the browser tests share."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import pytest

from tests.test_browser import PAGES

pytestmark = pytest.mark.browser


def test_offline_copy_links_are_relative_and_lead_to_files(offline_copy):
    """Every href and src of every page names a file of the copy by a relative
    path (file:// has no server to turn / or a folder into a page)."""
    folder = Path(url2pathname(urlsplit(offline_copy).path))
    pages = sorted(folder.rglob("*.html"))
    assert len(pages) >= len(PAGES) and not (folder / "404.html").exists()
    broken = _addresses_leading_nowhere(folder, pages, folders=False)
    assert not broken, "links that lead nowhere offline:\n" + "\n".join(broken[:20])


def test_every_address_of_the_subpath_site_leads_to_a_file(subpath_site, tmp_path_factory):
    """Every href and src of every page built for /primer/ leads to a file of the build: by a
    relative path, or (the 404 page, which is served at any depth) by one under /primer/."""
    from tests.conftest import shared_build

    folder = shared_build(tmp_path_factory, "served") / "primer"  # the folder subpath_site serves
    assert subpath_site.endswith("/primer/") and (folder / "index.html").is_file()
    pages = sorted(folder.rglob("*.html"))
    assert len(pages) >= len(PAGES)
    broken = _addresses_leading_nowhere(folder, pages, folders=True, absolute="/primer/")
    assert not broken, "addresses that lead nowhere under /primer/:\n" + "\n".join(broken[:20])


def _addresses_leading_nowhere(folder: Path, pages: list[Path], *, folders: bool, absolute: str = "") -> list[str]:
    """Each `page: address` of `pages` (HTML files under `folder`) whose href or src does not lead to a
    file under `folder`. With `folders`, a folder's address leads to its index.html (a server's
    directory URLs); an address starting with `absolute` (on the 404 page only) is taken from `folder`."""
    broken = set()
    for file in pages:
        for link in _addresses(file.read_text(encoding="utf-8")):
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path:
                continue  # another site, or a place on this page
            path = unquote(parts.path)
            if path.startswith("/"):
                if not (absolute and file.name == "404.html" and path.startswith(absolute)):
                    broken.add(f"{file.relative_to(folder)}: {link}")
                    continue
                target = folder / path[len(absolute):]
            else:
                target = file.parent / path
            if folders and (path.endswith("/") or target.is_dir()):
                target = target / "index.html"
            if not target.is_file():
                broken.add(f"{file.relative_to(folder)}: {link}")
    return sorted(broken)


class _Addresses(HTMLParser):
    """The href and src of every element of a page (not text that looks like one, such as an
    `href="..."` inside a code listing)."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name in ("href", "src") and value is not None]


def _addresses(page: str) -> list[str]:
    parser = _Addresses()
    parser.feed(page)
    return parser.found


def test_addresses_are_read_from_elements_not_from_code():
    page = '''<a href="a.html">a</a><img src="b.svg"><pre><code>f'&lt;a href="{x}"&gt;'</code></pre>
    <span class="s">href=</span><span class="s">"</span>'''
    assert _addresses(page) == ["a.html", "b.svg"]
