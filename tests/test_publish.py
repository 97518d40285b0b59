"""Publishing (`make site`, site_build/publish.py): every absolute URL the build
writes follows SITE_URL, the home page links the offline zip only when the site
has one, and the pieces of the offline copy (its zip, the labs' links) on their
own. The copy itself is opened in Chromium by tests/test_browser.py."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from site_build.notebooks.page_html import directory_url, file_layout_links
from site_build.publish import LEFT_OUT, OFFLINE_ZIP, ZIP_FOLDER, zip_site
from tests.projects import make_project
from tests.test_site_build import config_error, lesson, mkdocs_build

ADDRESS = "https://example.org/primer/"
# what a build's config holds besides its plugins
SETTINGS = ("site_url", "docs_dir", "site_dir", "nav", "markdown_extensions", "mdx_configs", "extra_css", "extra_javascript",
            "validation", "use_directory_urls", "extra", "theme")


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """A project built as `make site` builds: for ADDRESS, with an offline zip to serve."""
    project = make_project(tmp_path_factory.mktemp("published"),
                           {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True, notebook=False)
    offline = project / "offline.zip"
    offline.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip: the build only serves it
    result = mkdocs_build(project, offline_zip=offline, SITE_URL=ADDRESS)
    assert result.returncode == 0, result.stderr
    return project


def test_canonical_links_sitemap_and_404_page_use_site_url(published):
    site = published / "site"
    canonical = re.findall(r'<link rel="canonical" href="([^"]*)"', (site / "lessons" / "alpha" / "index.html").read_text())
    assert canonical == [ADDRESS + "lessons/alpha/"]
    locations = re.findall(r"<loc>([^<]*)</loc>", (site / "sitemap.xml").read_text())
    assert locations and all(loc.startswith(ADDRESS) for loc in locations), locations
    absolute = re.findall(r'(?:href|src)="(/[^"]*)"', (site / "404.html").read_text())
    assert absolute and all(link.startswith("/primer/") for link in absolute), sorted(set(absolute))[:10]
    stale = [str(f.relative_to(site)) for f in site.rglob("*") if f.is_file() and f.suffix in {".html", ".xml", ".json", ".js"}
             and "127.0.0.1:8000" in f.read_text(errors="replace")]
    assert not stale, f"files that still name the local address: {stale}"


def test_the_home_page_links_the_offline_zip_the_site_serves(published):
    home = (published / "site" / "index.html").read_text()
    assert f'<a href="{OFFLINE_ZIP}">Download the whole site</a>' in home
    assert (published / "site" / OFFLINE_ZIP).read_bytes() == (published / "offline.zip").read_bytes()


@pytest.mark.parametrize("options, env, message", [
    ({"offline_zip": "no/such.zip"}, {}, r"offline_zip: no/such\.zip: no such file"),
    ({"offline": True}, {"PRIMER_DIAGRAMS": "browser"}, r"the offline copy draws its diagrams at build time"),
], ids=["missing-zip", "offline-without-build-time-diagrams"])
def test_a_build_that_cannot_make_what_it_was_asked_stops_in_one_line(tmp_path, options, env, message):
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True, notebook=False)
    error = config_error(project, options, **env)
    assert re.search(message, error) and "Traceback" not in error, error


def test_what_make_site_asks_of_a_build_is_an_argument_that_sets_only_that_not_an_environment_variable(tmp_path, monkeypatch):
    """The offline copy and the zip a site serves are arguments of the one build function
    (site_build.build): the build reads mkdocs.yml with that option set and every other
    setting as it is, from a file beside it that is gone afterwards; the variables that
    used to hand them over switch nothing."""
    from mkdocs.config import load_config

    from site_build.build import build_config

    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True, notebook=False)
    monkeypatch.setenv("OFFLINE", "true")
    monkeypatch.setenv("PRIMER_OFFLINE_ZIP", str(project / "old.zip"))
    def read(path: Path) -> tuple[dict, dict]:
        """The config's settings and each plugin's options, copied (MkDocs reuses plugin objects between loads)."""
        config = load_config(str(path))
        return ({key: config[key] for key in SETTINGS},
                {name: dict(plugin.config.items()) for name, plugin in config.plugins.items()})

    with build_config(project) as path:
        assert path == project / "mkdocs.yml"
        plain, plain_plugins = read(path)
    with build_config(project, offline=True, offline_zip=project / "copy.zip") as path:
        written = path
        assert path.parent == project and path.name != "mkdocs.yml"
        asked, asked_plugins = read(path)
    assert not written.exists()
    assert (plain_plugins["material/offline"]["enabled"], plain_plugins["primer"]["offline_zip"]) == (False, "")
    assert (asked_plugins["material/offline"]["enabled"], asked_plugins["primer"]["offline_zip"]) == (True, str(project / "copy.zip"))
    assert list(asked_plugins) == list(plain_plugins)
    asked_plugins["material/offline"]["enabled"], asked_plugins["primer"]["offline_zip"] = False, ""
    assert asked_plugins == plain_plugins and asked == plain


def test_the_zip_is_one_folder_without_absolute_urls_and_the_same_bytes_each_time(tmp_path):
    site = tmp_path / "site"
    for name in ["index.html", "lessons/rope.html", "assets/x.css", *LEFT_OUT]:
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(f"content of {name}")
    zip_site(site, tmp_path / "a.zip")
    (site / "index.html").touch()  # a newer date changes nothing
    zip_site(site, tmp_path / "b.zip")
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        names = archive.namelist()
        assert names == sorted(f"{ZIP_FOLDER}/{n}" for n in ["index.html", "lessons/rope.html", "assets/x.css"])
        assert archive.read(f"{ZIP_FOLDER}/lessons/rope.html") == b"content of lessons/rope.html"


def test_a_notebooks_links_point_at_page_files_without_directory_urls():
    pages = {directory_url(uri): dest for uri, dest in [
        ("index.md", "index.html"), ("lessons/rope.md", "lessons/rope.html"),
        ("labs/tf1.py", "labs/tf1.html"), ("reference/api/rope.md", "reference/api/rope.html")]}
    assert set(pages) == {"", "lessons/rope/", "labs/tf1/", "reference/api/rope/"}
    lab = ('<a href="../../lessons/rope/">RoPE</a> <a href="../../lessons/rope/#4-the-permutation">its section</a> '
           '<a class="x" href="../../">home</a> <a href="tf1.ipynb">notebook</a> '
           '<a href="https://arxiv.org/abs/2104.09864/">paper</a> <a href="../../lessons/nosuch/">gone</a>')
    assert file_layout_links(lab, "labs/tf1.py", "labs/tf1.html", pages) == (
        '<a href="../lessons/rope.html">RoPE</a> <a href="../lessons/rope.html#4-the-permutation">its section</a> '
        '<a class="x" href="../index.html">home</a> <a href="tf1.ipynb">notebook</a> '
        '<a href="https://arxiv.org/abs/2104.09864/">paper</a> <a href="../../lessons/nosuch/">gone</a>')
