"""Shared fixtures: the lessons in reading order, imported once per session."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lessons import discover  # noqa: E402

LESSONS = discover()
SLUGS = [lesson.slug for lesson in LESSONS]


@pytest.fixture(scope="session")
def modules():
    """slug -> imported lesson module."""
    return {slug: importlib.import_module(f"lessons.{slug}") for slug in SLUGS}
