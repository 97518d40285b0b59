"""Running `python -m challenges` as a learner would: the helpers every challenge's tests share
(tests/test_challenges.py for Challenge 04, tests/test_challenge_NN.py for the others).

`check(tmp_path, "04", source)` writes `source` to a file, checks it and returns
(exit code, {property: its PASS/FAIL line}, the whole output); a traceback in the
output fails the test, since the checker must never show one.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEARNERS = ROOT / "tests" / "data"  # learner files: tests/data/cNN/<mistake>.py


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m challenges ARGS` with this project on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "challenges", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def edited(source: str, *replacements: tuple[str, str]) -> str:
    """`source` with each `old` replaced by `new` (old must be there)."""
    for old, new in replacements:
        assert old in source, f"the reference solution no longer contains {old!r}: update this test"
        source = source.replace(old, new)
    return source


def parse(stdout: str) -> dict[str, str]:
    """{property: its line}; a collapsed line ("FAIL a, b: the same as c (...)") gives a and b c's hint."""
    lines: dict[str, str] = {}
    for line in stdout.splitlines():
        if not line.startswith(("PASS ", "FAIL ")):
            continue
        names, _, rest = line[5:].partition(": ")
        if rest.startswith("the same as "):
            first = rest.removeprefix("the same as ").split(" (")[0]
            for name in names.split(", "):
                lines[name] = lines[first].replace(f" {first}:", f" {name}:", 1)
        else:  # "FAIL a, b: not run, ..." names several properties with one line
            for name in names.split(" ")[0:1] if line.startswith("PASS ") else names.split(", "):
                lines[name] = f"{line[:5]}{name}: {rest}" if rest else line
    return lines


def check(tmp_path: Path, number: str, source: str, *options: str,
          name: str = "answer.py") -> tuple[int, dict[str, str], str]:
    """(exit code, {property: its line}, whole output) for `check NUMBER` on `source`."""
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    done = run("check", number, str(path), *options)
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output
    return done.returncode, parse(done.stdout), output


def learner_file(number: str, name: str) -> Path:
    return LEARNERS / f"c{number}" / name


def learner(tmp_path: Path, number: str, name: str, *options: str) -> tuple[int, dict[str, str], str]:
    """`check` on the learner file tests/data/cNUMBER/NAME, under its own name."""
    return check(tmp_path, number, learner_file(number, name).read_text(encoding="utf-8"), *options, name=name)


def line_of(number: str, name: str, text: str) -> int:
    """The first line of a learner file that contains `text` (1-based)."""
    lines = learner_file(number, name).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def page_sample(page: Path) -> str:
    """The sample checker output on a challenge page: the first ```text block after "## Check your answer",
    its wrapped lines (indented by two spaces) joined back to the checker's long lines."""
    text = page.read_text(encoding="utf-8").split("## Check your answer", 1)[1]
    block = text.split("```text\n", 1)[1].split("```", 1)[0]
    joined: list[str] = []
    for line in block.splitlines():
        if line.startswith("  ") and joined:
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    return "\n".join(joined)


def load(path: Path):
    """The module at `path` (a starter, a solution, a learner file), imported under its file's stem."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def passes(lines: dict[str, str], props) -> bool:
    """Whether each of `props` has a PASS line."""
    return all(lines[p].startswith("PASS ") for p in props)


def page_table(page: str, heading: str) -> list[list[str]]:
    """The rows (cells) of the table right after the text `heading` on a page, header and rule left out."""
    after = page.split(heading, 1)[1].lstrip("\n")
    rows = after[: after.index("\n\n")].splitlines()
    assert all(row.startswith("|") for row in rows), rows
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]
