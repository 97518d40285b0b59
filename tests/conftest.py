"""Shared fixtures: the project read once (as the build reads it), the lessons
imported once per session."""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# No time limit on a property example: speed is measured by `make bench`, never
# by a timed test (a busy machine made a 0.4 ms example take 300 ms once).
settings.register_profile("primer", deadline=None)
settings.load_profile("primer")
pytest_plugins = ("pytester",)  # tests/test_tiers.py runs planted tests in this process

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from project.model import Project  # noqa: E402
from tests import tiers  # noqa: E402

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
    from harness import browser

    if not browser.chromium_path():
        if os.environ.get("PRIMER_REQUIRE_BROWSER"):
            pytest.fail(browser.HOW_TO_GET_CHROMIUM)
        pytest.skip(browser.HOW_TO_GET_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = browser.launch(playwright)
        yield instance
        instance.close()


def _run_folder(tmp_path_factory) -> Path:
    """This run's folder: above each xdist worker's own, or the session's without xdist."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return tmp_path_factory.getbasetemp().parent
    return tmp_path_factory.getbasetemp()


def figures_lock(tmp_path_factory):
    """The lock the figure build of the real project takes in the tests: the site builds
    run it first under this lock (their own figure step then finds every figure fresh and
    writes nothing), so a test that only needs the figures need not wait for a site build."""
    from filelock import FileLock

    return FileLock(str(_run_folder(tmp_path_factory) / "figures.lock"))


def build_figures(tmp_path_factory) -> None:
    """`make figures` on the real project (incremental), under `figures_lock`, in a process of its
    own: the background builds call this from a thread, and CPython 3.11's `ast.parse` is not safe
    to run in two threads at once ("AST constructor recursion depth mismatch" in a test's own parse,
    seen in a full run), so the build's reading of the project stays out of this process."""
    import subprocess

    with figures_lock(tmp_path_factory):
        done = subprocess.run([sys.executable, "-m", "figures_build"], cwd=ROOT, capture_output=True, text=True,
                              timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"python -m figures_build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def build_lock(tmp_path_factory):
    """The lock every build of the real project takes (the figure build, `mkdocs
    build`): two at once would share its figure and notebook caches."""
    from filelock import FileLock

    return FileLock(str(_run_folder(tmp_path_factory) / "builds.lock"))


# The sub-path site is built for this address; each worker serves it under
# /primer/ on its own port (links are relative; only canonical links and the
# sitemap name the host, and a page never fetches them).
SUBPATH_URL = "http://127.0.0.1:8000/primer/"


# The three builds of the real project the browser tests share: folder name -> what fills the folder.
# `env` is the environment to build in: the one the run started with (a test may change os.environ
# while a build runs in the background).


def _build_root(folder: Path, env: dict[str, str]) -> None:
    from tests import browser

    browser.build_site(ROOT, folder, env=env)


def _build_subpath(folder: Path, env: dict[str, str]) -> None:
    from tests import browser

    browser.build_site(ROOT, folder / "primer", env={**env, "SITE_URL": SUBPATH_URL})


def _build_offline(work: Path, env: dict[str, str]) -> None:
    import zipfile

    from site_build import publish

    zip_path = work / "copy.zip"
    publish.build_offline_zip(ROOT, zip_path, work / "build", env=env)
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(work / "unzipped")


BUILDS = {"site": _build_root, "served": _build_subpath, "offline": _build_offline}
BUILT_FOR = {"site": "site", "subpath_site": "served", "offline_copy": "offline"}  # fixture -> its build
RUN_ENV = dict(os.environ)  # as the run started


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by these markers
def pytest_collection_modifyitems(session, config, items):
    """Mark each test's tier (tests/tiers.py: `unit`, `build` or `browser`), then run the browser tests
    last (a stable sort: the same order on every worker), so the site builds they share can run in the
    background meanwhile (`background_builds`)."""
    for item in items:
        if tiers.tier(item) != "browser":
            item.add_marker(tiers.tier(item))
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    """A unit test's fixtures start no process (tests/tiers.py, `no_process`)."""
    if not item.get_closest_marker("unit"):
        return (yield)
    with tiers.no_process(item.nodeid):
        return (yield)


pytest_runtest_call = pytest_runtest_setup  # nor does the test itself


WANTED_BUILDS: set[str] = set()  # the builds the selected tests need (BUILDS' names), found at collection


def pytest_collection_finish(session):
    """Find the builds the selected tests will need, for `background_builds` to start: in one process
    (the first worker, or the only one)."""
    if os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0" or session.config.getoption("collectonly"):
        return
    from harness.browser import chromium_path

    if not chromium_path():
        return
    wanted = set()
    for item in session.items:
        names = set(getattr(item, "fixturenames", ()))
        if "served" in names:  # test_browser's fixture: the root or the sub-path site, by parameter
            names.add("site" if getattr(item, "callspec", None) and item.callspec.params.get("where") == "/" else "subpath_site")
        wanted |= {BUILT_FOR[name] for name in names if name in BUILT_FOR}
    WANTED_BUILDS.update(wanted)


@pytest.fixture(scope="session", autouse=True)
def background_builds(tmp_path_factory):
    """Start the builds the selected tests need (WANTED_BUILDS) in a background thread as the first
    test starts: the tests before the browser tests run meanwhile, and a fixture that needs a build
    waits for it (shared_build's lock) or finds it done."""
    if not WANTED_BUILDS:
        return
    import threading

    def build_all():
        tiers.allow_processes()  # mkdocs, Node and Chromium, while the unit tests run beside it
        for name in BUILDS:  # in this order: the root site first, the first the browser tests need
            if name in WANTED_BUILDS:
                try:
                    shared_build(tmp_path_factory, name)
                except Exception:  # noqa: BLE001 - the fixture that needs it builds again and reports the error
                    pass

    threading.Thread(target=build_all, daemon=True, name="site builds").start()


def shared_build(tmp_path_factory, name: str) -> Path:
    """The folder of build `name` (BUILDS), filled once per test run and shared by every test
    worker (pytest-xdist): the first to ask builds it (in the background, see
    `pytest_collection_finish`), the others wait and reuse it. One lock for every build:
    two builds of the project at once would share its figure and notebook caches. Without
    xdist it is an ordinary session folder."""
    shared = _run_folder(tmp_path_factory)
    folder, done = shared / name, shared / f"{name}.done"
    if not done.exists():
        build_figures(tmp_path_factory)
    with build_lock(tmp_path_factory):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that failed half-way
            folder.mkdir()
            BUILDS[name](folder, RUN_ENV)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def site(tmp_path_factory, chromium):
    """The whole site built (`mkdocs build --strict`) once per run and served on 127.0.0.1: its base URL."""
    from harness.server import serve

    with serve(shared_build(tmp_path_factory, "site")) as base:
        yield base


@pytest.fixture(scope="session")
def subpath_site(tmp_path_factory, chromium):
    """The whole site built for a sub-path (/primer/, SITE_URL) and served from its
    parent folder, as a project site is: its base URL, ending in /primer/."""
    from harness.server import serve

    with serve(shared_build(tmp_path_factory, "served")) as base:
        yield base + "primer/"


@pytest.fixture(scope="session")
def offline_copy(tmp_path_factory, chromium):
    """The offline copy as a reader gets it: the zip `make site` builds, unzipped.
    The file:// URL of its folder."""
    from site_build import publish

    work = shared_build(tmp_path_factory, "offline")
    return (work / "unzipped" / publish.ZIP_FOLDER).as_uri() + "/"
