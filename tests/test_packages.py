"""One list of the repository's code packages (project.model.CODE_PACKAGES): pyproject.toml
installs exactly those packages and their subpackages, the Makefile's dead-code scan reads each,
and a copy of the project (harness/copy.py) and the import graph are made from it."""

from __future__ import annotations

import re
import tomllib

from project.model import CODE_PACKAGES
from tests.conftest import ROOT


def subpackages(root=ROOT) -> list[str]:
    """Every package (a folder with an __init__.py) under CODE_PACKAGES, dotted."""
    found = []
    for top in CODE_PACKAGES:
        for init in sorted((root / top).rglob("__init__.py")):
            if "__pycache__" not in init.parts:
                found.append(".".join(init.parent.relative_to(root).parts))
    return found


def test_pyproject_installs_the_code_packages_and_nothing_else():
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert sorted(listed) == sorted(subpackages()), (
        f"missing: {sorted(set(subpackages()) - set(listed))}; not a code package: {sorted(set(listed) - set(subpackages()))}")


def test_the_dead_code_scan_reads_every_code_package():
    scan = re.search(r"^VULTURE = (.+?)(?<!\\)$", (ROOT / "Makefile").read_text(), re.M | re.S).group(1)
    assert set(CODE_PACKAGES) <= set(scan.split()), sorted(set(CODE_PACKAGES) - set(scan.split()))


def test_every_top_level_package_is_a_code_package():
    tops = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", "bench"}
    assert tops == set(CODE_PACKAGES), tops ^ set(CODE_PACKAGES)
