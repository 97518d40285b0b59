"""One table of switches (issue 41, item 7): every environment variable the project's code reads,
every `!ENV` of mkdocs.yml and every make variable a user may set is a row of *Switches* in
docs/contributing.md, and every row is read somewhere, so the table can neither miss a switch
nor keep one that is gone."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

CODE = ("site_build", "figures_build", "harness", "bench", "tests", "lessons", "modelcard", "papers", "labs",
        "challenges", "experiments")
# Variables the code reads that no user sets: another tool's, or the build's own for a child process.
NOT_SWITCHES = {
    "PYTEST_XDIST_WORKER": "pytest-xdist names its worker",
    "PYTHONPYCACHEPREFIX": "the primer plugin sets it, and reads it back, for itself and the notebook kernel",
    "PYTHONPATH": "extended for a child process, whatever it holds",
}
READS = (re.compile(r"environ\.get\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"),
         re.compile(r"getenv\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"),
         re.compile(r"environ\[[\"']([A-Z][A-Z0-9_]*)[\"']\](?!\s*=[^=])"),
         re.compile(r"[\"']([A-Z][A-Z0-9_]*)[\"'] in os\.environ"))


def environment_reads(root: Path) -> dict[str, set[str]]:
    """Variable -> the files (relative to `root`) whose code reads it."""
    found: dict[str, set[str]] = {}
    for folder in CODE:
        for path in sorted((root / folder).rglob("*.py")):
            if path.name == Path(__file__).name:  # this file's own examples
                continue
            text = path.read_text(encoding="utf-8")
            for pattern in READS:
                for name in pattern.findall(text):
                    found.setdefault(name, set()).add(str(path.relative_to(root)))
    for name in re.findall(r"!ENV \[(\w+),", (root / "mkdocs.yml").read_text(encoding="utf-8")):
        found.setdefault(name, set()).add("mkdocs.yml")
    return found


def make_variables(makefile: str) -> set[str]:
    """The variables a make command line may set: those the Makefile tests (`$(if $(X),...)`) or
    gives a default a user may override (`X ?= ...`)."""
    return set(re.findall(r"\$\(if \$\((\w+)\)", makefile)) | set(re.findall(r"^(\w+)\s*\?=", makefile, re.M))


def table_switches(contributing: str) -> set[str]:
    """The names in the first column of the *Switches* table (`NAME`, `NAME=1`, two names in one row)."""
    section = contributing.split("\n## Switches\n", 1)[1].split("\n## ", 1)[0]
    names = set()
    for row in re.findall(r"^\| (.*?) \|", section, re.M):
        names |= set(re.findall(r"`([A-Z][A-Z0-9_]*)[=`]", row))
    return names


def test_every_switch_is_in_the_one_table_and_every_row_is_read():
    reads = environment_reads(ROOT)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    settable = {name: {"Makefile"} for name in make_variables(makefile)}
    table = table_switches((ROOT / "docs" / "contributing.md").read_text(encoding="utf-8"))
    switches = {**reads, **settable}
    missing = {name: sorted(where) for name, where in switches.items() if name not in table and name not in NOT_SWITCHES}
    assert not missing, f"switches missing from docs/contributing.md's Switches table: {missing}"
    gone = sorted(table - set(switches))
    assert not gone, f"rows of the Switches table that nothing reads: {gone}"


def test_the_table_reader_sees_what_it_should():
    """The readers on small inputs: a read, a write left out, make's two kinds, a row with two names."""
    assert make_variables("A ?= 1\nB := 2\nx:\n\tcmd $(if $(C),--c)\n") == {"A", "C"}
    assert table_switches("x\n## Switches\n\n| a | b |\n|---|---|\n| `X=1` (make) | y |\n| `Y`, `Z` | w |\n"
                          "\n## Next\n| `Q` | q |\n") == {"X", "Y", "Z"}
    text = 'os.environ.get("A")\nos.environ["B"]\nos.environ["C"] = "1"\nif "D" in os.environ: pass\n'
    assert {name for pattern in READS for name in pattern.findall(text)} == {"A", "B", "D"}
