"""The test tiers (tests/tiers.py): every test named as `build` exists, and a `unit` test that starts a
process fails, whether or not the code under test catches the refusal. No process is started here: the
planted tests run in this process (pytester) and every start is refused before it happens."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

import pytest

from tests import tiers

HERE = Path(__file__).parent


def test_the_build_tier_names_tests_that_exist():
    """A renamed module or test would slip into `make check` unmarked: each name must be there."""
    modules = {p.name for p in HERE.glob("test_*.py")}
    assert set(tiers.BUILD_MODULES) <= modules, sorted(set(tiers.BUILD_MODULES) - modules)
    assert set(tiers.BUILD_TESTS) <= modules, sorted(set(tiers.BUILD_TESTS) - modules)
    for module, names in tiers.BUILD_TESTS.items():
        defined = {node.name for node in ast.parse((HERE / module).read_text(encoding="utf-8")).body
                   if isinstance(node, ast.FunctionDef)}
        assert set(names) <= defined, f"{module}: no test {sorted(set(names) - defined)}"


def test_this_test_is_in_the_unit_tier_and_its_process_starts_are_refused(request):
    assert request.node.get_closest_marker("unit")
    assert subprocess.Popen.__init__.__name__ == "refuse" and os.system.__name__ == "refuse"


def test_the_guard_refuses_every_way_to_start_a_process_before_it_starts():
    starts = {"subprocess.run": lambda: subprocess.run(["true"]), "os.system": lambda: os.system("true"),
              "os.posix_spawn": lambda: os.posix_spawn("/bin/true", ["true"], os.environ)}
    for name, start in starts.items():
        with pytest.raises(pytest.fail.Exception, match=r"started 1 process\(es\)"):
            with tiers.no_process(name):
                with pytest.raises(tiers.ProcessInUnitTest, match=f"{name} started a process"):
                    start()


PLANTED = '''
import subprocess

import pytest


@pytest.fixture(scope="session")
def started_in_a_fixture():
    subprocess.run(["true"])


def test_whose_fixture_starts_a_process(started_in_a_fixture):
    pass


def test_starts_a_process():
    subprocess.run(["true"])


def test_starts_one_and_swallows_the_refusal():
    try:
        subprocess.check_output(["git", "ls-files"])
    except Exception:
        pass


def test_starts_none():
    assert True
'''

CONFTEST = '''
from tests.conftest import pytest_collection_modifyitems, pytest_runtest_call, pytest_runtest_setup  # noqa: F401
'''


def test_a_unit_test_that_starts_a_process_fails_naming_it(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_planted=PLANTED)
    result = pytester.runpytest_inprocess("-m", "unit", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=2, errors=1)
    out = result.stdout.str()
    assert "test_whose_fixture_starts_a_process started a process: subprocess.Popen(['true'])" in out
    assert "test_starts_a_process started a process: subprocess.Popen(['true'])" in out
    assert ("test_starts_one_and_swallows_the_refusal is in the unit tier but started 1 process(es): "
            "subprocess.Popen(['git', 'ls-files'])") in out
