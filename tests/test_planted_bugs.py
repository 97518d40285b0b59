"""Every lab claim can fail: each planted bug (tests/planted.py) turns the claims it names into
FAILS and the lab exits 1, and every claim a lab states is named by at least one plant. No plant
makes a lab print a traceback: a bug that makes the lab's computation raise (a crash plant) turns
the claims that need it into `FAILS  <claim> (raised <Type>: <message>)` lines (labs/_lab.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.planted import PLANTS, run_planted

LABS = sorted(p.stem for p in (ROOT / "labs").glob("tf*.py"))


def _claims(output: str, verdict: str) -> list[str]:
    return [m.group(1).rstrip() for m in re.finditer(rf"^{verdict}  (.*)$", output, re.M)]


@pytest.fixture(scope="module")
def clean_claims() -> dict[str, list[str]]:
    """Each lab's claims, as its clean run prints them (all HOLDS)."""
    out = {}
    for lab in LABS:
        result = subprocess.run([sys.executable, str(ROOT / "labs" / f"{lab}.py")], cwd=ROOT, capture_output=True,
                                text=True, timeout=300, env={**os.environ, "MPLBACKEND": "Agg"})
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        out[lab] = _claims(result.stdout, "HOLDS")
    return out


@pytest.mark.parametrize("plant", PLANTS, ids=[f"{p.lab}:{p.function}:{p.claims[0][:40]}" for p in PLANTS])
def test_the_planted_bug_fails_the_claims_it_names(plant):
    result = run_planted(plant)
    failed = _claims(result.stdout, "FAILS")
    missing = [c for c in plant.claims if not any(text.startswith(c) for text in failed)]
    assert result.returncode == 1 and not missing, (
        f"labs/{plant.lab}.py with {plant.why} ({plant.module}.{plant.function}: {plant.old!r} -> {plant.new!r}) "
        f"exited {result.returncode}; claims that should fail but did not: {missing}\n"
        f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    assert "Traceback" not in result.stdout + result.stderr, f"labs/{plant.lab}.py printed a traceback:\n{result.stderr}"
    if plant.crashes:  # the claims it names fail naming what was raised, as one line each
        raised = [text for text in failed if any(text.startswith(c) for c in plant.claims) and " (raised " in text]
        assert raised, f"labs/{plant.lab}.py with {plant.why}: no named claim says what was raised\n{result.stdout}"


@pytest.mark.parametrize("lab", LABS)
def test_every_claim_of_the_lab_is_broken_by_some_planted_bug(lab, clean_claims):
    assert clean_claims[lab], f"labs/{lab}.py printed no claims"
    named = [c for p in PLANTS if p.lab == lab for c in p.claims]
    unbroken = [text for text in clean_claims[lab] if not any(text.startswith(c) for c in named)]
    assert not unbroken, f"labs/{lab}.py: no planted bug in tests/planted.py breaks {unbroken}"
    stale = [c for c in named if not any(text.startswith(c) for text in clean_claims[lab])]
    assert not stale, f"tests/planted.py names claims labs/{lab}.py no longer states: {stale}"
