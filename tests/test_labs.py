"""Every lab runs as a plain script and exits 0: its claims hold on today's code, and for other values of
the knobs a lab says may change.

A lab (labs/<name>.py) ends with labs._lab.verdict(...), which prints each
claim as HOLDS or FAILS and exits 1 when one fails; the site renders the same
file as a notebook executed at build time (site_build/plugin.py).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from labs._lab import verdict
from tests.conftest import ROOT

LABS = sorted(p.name for p in (ROOT / "labs").glob("*.py") if not p.name.startswith("_"))


def test_there_are_four_labs():
    assert len(LABS) >= 4, LABS


@pytest.mark.parametrize("name", LABS)
def test_the_lab_runs_as_a_script_and_its_claims_hold(name):
    result = subprocess.run([sys.executable, str(ROOT / "labs" / name)], cwd=ROOT, capture_output=True, text=True,
                            timeout=300, env={**os.environ, "MPLBACKEND": "Agg"})
    assert result.returncode == 0, f"labs/{name} exited {result.returncode}:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    assert "FAILS" not in result.stdout and "claims hold" in result.stdout, result.stdout[-2000:]


@pytest.mark.parametrize("name", LABS)
def test_the_lab_imports_the_lessons_instead_of_rewriting_them(name):
    text = (ROOT / "labs" / name).read_text(encoding="utf-8")
    assert "from lessons." in text and "verdict(" in text, f"labs/{name}: import from lessons and end with verdict()"


def test_verdict_exits_1_naming_the_claim_that_fails(capsys):
    with pytest.raises(SystemExit) as stopped:
        verdict({"the spread is zero": True, "the score leaks": False})
    assert stopped.value.code == 1
    out = capsys.readouterr().out
    assert "HOLDS  the spread is zero" in out and "FAILS  the score leaks" in out and "1 of 2 claims hold" in out


def test_verdict_returns_when_every_claim_holds(capsys):
    verdict({"one": True, "two": True})
    assert "2 of 2 claims hold" in capsys.readouterr().out


@pytest.mark.parametrize("knobs, message", [
    ("7, 32, 16, 2", "SEQ_LEN must be an integer >= 8 (the lab reads positions 7 and 3), got 7"),
    ("12, 32, 2, 2", "D_HEAD must be an even integer >= 4 (with 2 the two layouts coincide), got 2"),
    ("12, 32, 5, 2", "D_HEAD must be an even integer >= 4 (with 2 the two layouts coincide), got 5"),
    ("8, 32, 4, 2", None),  # the smallest knobs the lab accepts: its claims still hold
    ("SEED = -1", "SEED must be an integer >= 0 (numpy's default_rng takes no negative seed), got -1"),
])
def test_tf2_checks_its_knobs_on_entry(knobs, message, tmp_path):
    source = (ROOT / "labs" / "tf2_rope_layouts.py").read_text(encoding="utf-8")
    line, new = ("SEED = 0  # seed of the random projections", knobs) if knobs.startswith("SEED") else (
        "SEQ_LEN, D_MODEL, D_HEAD, N_HEADS = 12, 32, 16, 2", f"SEQ_LEN, D_MODEL, D_HEAD, N_HEADS = {knobs}")
    assert source.count(line) == 1
    script = tmp_path / "tf2.py"
    script.write_text(source.replace(line, new), encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)})
    if message is None:
        assert result.returncode == 0 and "11 of 11 claims hold" in result.stdout, result.stdout[-1500:]
    else:
        assert result.returncode == 1 and result.stderr.strip() == message and not result.stdout, result.stderr


@pytest.mark.parametrize("knobs, message", [
    ((0, 2, 5), None),  # two starts, the key and the query at one position: the claims still hold
    ((31, 2, 18), None),  # the smallest cross-term spread two starts give (header): 1.3e-5 of the score, above 1e-7
    ((63, 2, 172), None),  # the smallest spread of the whole score two starts give (header): 3.1e-5
    ((40, 3, 123), None),
    ((7, 200, 1), None),
    ((3, 1, 0), "N_STARTS must be an integer >= 2 (a spread needs two starts), got 1"),
    ((-1, 64, 0), "OFFSET must be an integer >= 0 (the query sits that many positions after the key), got -1"),
    ((3, 64, 0.5), "SEED must be an integer >= 0 (numpy's default_rng takes no negative seed), got 0.5"),
    ((3, 64, -1), "SEED must be an integer >= 0 (numpy's default_rng takes no negative seed), got -1"),
])
def test_tf1_holds_for_other_knobs_and_refuses_bad_ones(knobs, message, tmp_path):
    """TF1 says its claims hold for any OFFSET >= 0, N_STARTS >= 2 and SEED (its threshold for "the
    score moves" is 1e-7 of its size: with 2 starts some spreads are only 1e-5, far below the old 0.1)."""
    source = (ROOT / "labs" / "tf1_sinusoidal_vs_rope.py").read_text(encoding="utf-8")
    for name, value in zip(("OFFSET", "N_STARTS", "SEED"), knobs, strict=True):
        line = next(x for x in source.splitlines() if x.startswith(f"{name} = "))
        source = source.replace(line, f"{name} = {value!r}")
    script = tmp_path / "tf1.py"
    script.write_text(source, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)})
    if message is None:
        assert result.returncode == 0 and "10 of 10 claims hold" in result.stdout, result.stdout[-1500:]
    else:
        assert result.returncode == 1 and result.stderr.strip() == message and not result.stdout, result.stderr


def _power_of_ten(value: float) -> str:
    """3.07e-05 -> '3.1 × 10⁻⁵', as the lab's header writes it."""
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa} × 10" + str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def test_tf1_s_header_states_the_smallest_two_start_spreads_it_measured():
    """TF1's header: with N_STARTS = 2, over seeds 0..199 and offsets 0..100, the smallest spread of the
    added codes' score and of a cross term (as fractions of the score's size), and where each was found."""
    import numpy as np

    from lessons.positional import sliding_pair_scores

    total, cross = (np.inf, 0, 0), (np.inf, 0, 0)
    for seed in range(200):
        for offset in range(101):
            run = sliding_pair_scores(offset=offset, n_starts=2, seed=seed)
            size = float(np.abs(run["sinusoidal"]).max())
            total = min(total, (float(np.ptp(run["sinusoidal"])) / size, seed, offset))
            cross = min(cross, (min(float(np.ptp(run["x·PE"])), float(np.ptp(run["PE·x"]))) / size, seed, offset))
    header = " ".join(x.lstrip("# ") for x in (ROOT / "labs" / "tf1_sinusoidal_vs_rope.py").read_text(
        encoding="utf-8").split("from labs._lab import start")[0].splitlines())
    assert "over 20,200 configurations (seeds 0 to 199, offsets 0 to 100)" in header, header
    assert (f"the smallest spread of the added codes' score was {_power_of_ten(total[0])} of its size "
            f"(seed {total[1]}, offset {total[2]})") in header, (total, header)
    assert f"smallest spread of a cross term {_power_of_ten(cross[0])} (seed {cross[1]}, offset {cross[2]})" in header, (
        cross, header)
    assert min(total[0], cross[0]) > 100 * 1e-7  # far above LEAK
