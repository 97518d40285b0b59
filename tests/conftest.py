"""Shared fixtures: the project read once (as the build reads it), the lessons
imported once per session."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from figures_build.project import Project  # noqa: E402

# check=False: the library's rules (import order, one home per name) have
# their own tests; every other test still runs while one of them fails.
PROJECT = Project.read(ROOT, check=False)
LESSONS = PROJECT.lessons
SLUGS = PROJECT.slugs
PAPERS = PROJECT.papers
PAGES = LESSONS + PAPERS  # every page module: the prose checks run on all of them


@pytest.fixture(scope="session")
def modules():
    """slug -> imported page module (lessons and paper companions)."""
    return {page.slug: importlib.import_module(page.module) for page in PAGES}


# --- the browser tests' shared fixtures: one Chromium, one built site per session ---------


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium through Playwright (skips with a hint when absent; fails under PRIMER_REQUIRE_BROWSER)."""
    import os

    from tests import browser

    if not browser.chromium_path():
        if os.environ.get("PRIMER_REQUIRE_BROWSER"):
            pytest.fail(browser.HOW_TO_GET_CHROMIUM)
        pytest.skip(browser.HOW_TO_GET_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = browser.launch(playwright)
        yield instance
        instance.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory, chromium):
    """The whole site built (`mkdocs build --strict`) and served on 127.0.0.1: its base URL."""
    from tests import browser

    site_dir = tmp_path_factory.mktemp("site")
    browser.build_site(ROOT, site_dir)
    with browser.serve(site_dir) as base:
        yield base



@pytest.fixture(scope="session")
def subpath_site(tmp_path_factory, chromium):
    """The whole site built for http://127.0.0.1:<port>/primer/ (SITE_URL) and served
    from its parent folder, as a project site is: its base URL, ending in /primer/."""
    from tests import browser

    parent = tmp_path_factory.mktemp("served")
    with browser.serve(parent) as base:  # the port is known before the build
        browser.build_site(ROOT, parent / "primer", SITE_URL=base + "primer/")
        yield base + "primer/"


@pytest.fixture(scope="session")
def offline_copy(tmp_path_factory, chromium):
    """The offline copy as a reader gets it: the zip `make site` builds, unzipped.
    The file:// URL of its folder."""
    import zipfile

    from site_build import publish

    work = tmp_path_factory.mktemp("offline")
    zip_path = work / "copy.zip"
    publish.build_offline_zip(ROOT, zip_path, work / "build")
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(work / "unzipped")
    return (work / "unzipped" / publish.ZIP_FOLDER).as_uri() + "/"
