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


@pytest.fixture(scope="session")
def modules():
    """slug -> imported lesson module."""
    return {slug: importlib.import_module(f"lessons.{slug}") for slug in SLUGS}
