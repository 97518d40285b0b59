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
