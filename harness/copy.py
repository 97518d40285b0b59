"""A copy of this repository's project to build or serve elsewhere (the benchmarks' and the
serve test's): the content, the build, docs/ and mkdocs.yml, with node_modules linked."""

from __future__ import annotations

import shutil
from pathlib import Path

from project.model import CODE_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
PARTS = (*CODE_PACKAGES, "docs", "mkdocs.yml", "tests/data")  # tests/data: reference ids lab TF5 reads as it runs
# the build's caches, for a warm copy: the figures' stamps, typeset diagrams, measured heights, executed notebooks
WARM = (".cache/content", ".cache/notebook-code.json",
        ".cache/mkdocs-jupyter")


def copy_project(dest: Path, *, warm: bool = False) -> Path:
    """Copy the project into `dest` (figures and caches left out unless `warm`: then the built
    figures and the build's caches come too, so a first build there redoes nothing). Returns `dest`."""
    dest = Path(dest)
    for item in PARTS:
        src = ROOT / item
        if src.is_dir():
            skip = ("__pycache__",) if warm else ("__pycache__", "figures")
            shutil.copytree(src, dest / item, ignore=shutil.ignore_patterns(*skip))
        else:
            shutil.copy(src, dest / item)
    if warm:
        for item in WARM:
            src = ROOT / item
            if src.is_dir():
                shutil.copytree(src, dest / item)
            elif src.is_file():
                (dest / item).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(src, dest / item)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    return dest
