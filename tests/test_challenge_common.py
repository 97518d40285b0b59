"""What every challenge of the registry (`challenges.CHALLENGES`) must do, checked once for all:
it is listed; its reference solution passes every property; the starter it writes imports and
fails cleanly, property by property; the starter and the solution declare the same functions;
every `lessons.*` name its page gives exists and is a module, a function or a class (the build
links those to the API pages; a method has no anchor there).

Each challenge's own tests (tests/test_challenge_NN.py, tests/test_challenges.py for 04) check
its mistakes, its page's numbers and its sample output.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

from challenges import CHALLENGES
from tests import challenge_kit as kit

ROOT = kit.ROOT
IDS = [c.number for c in CHALLENGES]


def package_dir(challenge) -> Path:
    return ROOT.joinpath(*challenge.package.split("."))


def properties(challenge) -> list[str]:
    """The property names in the order the checker prints them: function by function (one process
    each, in FUNCTIONS' order), each function's in source order."""
    checks = importlib.import_module(f"{challenge.package}.checks")
    return [p.name for function in checks.FUNCTIONS for p in checks.PROPERTIES if p.needs == function]


def test_every_challenge_is_listed_in_order():
    done = kit.run()
    assert done.returncode == 0
    listed = [line for line in done.stdout.splitlines() if re.match(r"\d\d  ", line)]
    assert listed == [f"{c.number}  {c.title} ({c.level})" for c in CHALLENGES]
    assert IDS == sorted(IDS) == [f"{n:02d}" for n in range(1, len(IDS) + 1)]


@pytest.mark.parametrize("challenge", CHALLENGES, ids=IDS)
def test_the_reference_solution_passes_every_property(tmp_path, challenge):
    source = (package_dir(challenge) / "solution.py").read_text(encoding="utf-8")
    code, lines, output = kit.check(tmp_path, challenge.number, source, name=challenge.starter_name)
    names = properties(challenge)
    assert code == 0, output
    assert list(lines) == names and all(line.startswith("PASS ") for line in lines.values()), output
    assert output.strip().endswith(f"all {len(names)} properties pass")


@pytest.mark.parametrize("challenge", CHALLENGES, ids=IDS)
def test_the_starter_imports_and_fails_cleanly(tmp_path, challenge):
    done = kit.run("starter", challenge.number, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = tmp_path / challenge.starter_name
    assert written.read_text(encoding="utf-8") == (package_dir(challenge) / "starter.py").read_text(encoding="utf-8")
    code, lines, output = kit.check(tmp_path, challenge.number, written.read_text(encoding="utf-8"),
                                    name=challenge.starter_name)
    assert code == 1 and sorted(lines) == sorted(properties(challenge)), output  # collapsed lines: print order
    assert all("returned None: write its body" in line for line in lines.values()), output
    again = kit.run("starter", challenge.number, cwd=tmp_path)  # never over a learner's work
    assert again.returncode == 1 and "--force" in again.stderr


@pytest.mark.parametrize("challenge", CHALLENGES, ids=IDS)
def test_the_starter_and_the_solution_declare_the_same_functions(challenge):
    functions = importlib.import_module(f"{challenge.package}.checks").FUNCTIONS
    starter, solution = (kit.load(package_dir(challenge) / f"{name}.py") for name in ("starter", "solution"))
    for name, declared in functions.items():
        assert inspect.signature(getattr(starter, name)) == inspect.signature(getattr(solution, name))
        assert declared.startswith(f"{name}("), declared  # the name the checker says a file lacks
    source = (package_dir(challenge) / "starter.py").read_text(encoding="utf-8")
    assert f"python -m challenges check {challenge.number} {challenge.starter_name}" in source


@pytest.mark.parametrize("challenge", CHALLENGES, ids=IDS)
def test_every_lesson_name_on_the_page_exists(challenge):
    page = (ROOT / "docs" / challenge.page).read_text(encoding="utf-8")
    named = sorted(set(re.findall(r"`(lessons\.[\w.]+)`", page)))
    assert named, f"{challenge.page} names no lesson function"
    for dotted in named:
        parts = dotted.split(".")
        found = importlib.import_module(".".join(parts[:2]))
        for part in parts[2:]:
            assert hasattr(found, part), f"{challenge.page} names {dotted}, which does not exist"
            found = getattr(found, part)
        assert inspect.ismodule(found) or inspect.isfunction(found) or inspect.isclass(found), (
            f"{challenge.page} names {dotted}: not a module, function or class, so it has no API anchor")
