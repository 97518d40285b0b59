"""lessons.measured: reading the committed experiment results, their intervals and the rankings the page
states (no torch needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from figures_build import reading as _prose
from lessons import measured
from lessons.context_extension import dynamic_ntk_stretch
from lessons.measured import (RANKINGS, bootstrap_interval, eval_lengths, interval, load_results, paired,
                              ranking_holds, reproduces, values)

REPRODUCTION = Path(__file__).resolve().parents[1] / "experiments" / "reproduction"


def _record(name, seed, acc, reading="default"):
    lengths = [32, 64, 128, 256]
    cell = {"accuracy": acc, "nll": 1 - acc, "margin": acc}
    table = {str(n): dict(cell, accuracy=acc / (i + 1), grid={"far-8": cell}) for i, n in enumerate(lengths)}
    return {"name": name, "seed": seed, "config": {"eval_lengths": lengths}, "wall_seconds": 10.0,
            "training": {"learned_step": 100 * seed}, "evals": {reading: {"lengths": table},
                                                              "yarn": {"lengths": table}}}


def _write(directory, name, accs, reading="default"):
    for seed, acc in enumerate(accs):
        (directory / f"{name}__seed{seed}.json").write_text(json.dumps(_record(name, seed, acc, reading)))


def test_values_intervals_and_paired_differences(tmp_path):
    _write(tmp_path, "a", [0.9, 0.7, 0.5, 0.8, 0.6])
    _write(tmp_path, "b", [0.8, 0.6, 0.4, 0.7, 0.5])
    _write(tmp_path, "a-ft", [0.1, 0.2, 0.3, 0.4, 0.5], reading="tuned")
    (tmp_path / "suite.json").write_text("{}")  # the suite's summary is not a result
    results = load_results(tmp_path)
    assert set(results) == {"a", "b", "a-ft"} and eval_lengths(results) == [32, 64, 128, 256]
    np.testing.assert_allclose(values(results, "a", 32), [0.9, 0.7, 0.5, 0.8, 0.6])
    np.testing.assert_allclose(values(results, "a", 64), [0.45, 0.35, 0.25, 0.4, 0.3])
    np.testing.assert_allclose(values(results, "a-ft", 32), [0.1, 0.2, 0.3, 0.4, 0.5])  # a fine-tune: "tuned"
    np.testing.assert_allclose(values(results, "a:yarn", 32, "nll"), [0.1, 0.3, 0.5, 0.2, 0.4])
    np.testing.assert_allclose(values(results, "a", 256, cell="far-8"), [0.9, 0.7, 0.5, 0.8, 0.6])
    mean, low, high = interval(results, "a", 32)
    assert mean == 0.7 and low < mean < high and 0.5 <= low and high <= 0.9
    # every seed is 0.1 better: the paired interval is a point, and it excludes zero
    assert paired(results, "a", "b", 32) == (0.1, 0.1, 0.1)
    assert ranking_holds(results, ("a", "b", 32, "accuracy", None))
    assert not ranking_holds(results, ("b", "a", 32, "accuracy", None))
    # lower nll is better: a's answers are more likely too
    assert ranking_holds(results, ("a", "b", 32, "nll", None)) and not ranking_holds(results, ("b", "a", 32, "nll", None))
    assert reproduces(results, ("a", "b", 32, "accuracy", None)) and not reproduces(results, ("a-ft", "b", 32,
                                                                                              "accuracy", None))


def test_every_interval_in_the_prose_is_one_the_code_checks():
    """A number quoted as "mean [low, high]" anywhere on the page (Level 1's table included) must be
    one of the (mean, low, high) tuples that a `# →` line checks against the results."""
    doc = measured.__doc__.replace("−", "-")
    quoted = {tuple(float(v) for v in m) for m in re.findall(r"(-?\d\.\d+) \[(-?\d\.\d+), (-?\d\.\d+)\]", doc)}
    checked = set()
    for _, code in _prose.fences(doc, "python"):
        for result, _ in _prose.arrow_values(code).values():
            checked |= {tuple(float(v) for v in m) for m in re.findall(r"\((-?\d\.\d+), (-?\d\.\d+), (-?\d\.\d+)\)",
                                                                       result.replace("−", "-"))}
    assert len(quoted) > 20
    assert not quoted - checked, f"intervals quoted but never checked: {sorted(quoted - checked)}"


def test_an_unpaired_comparison_is_refused(tmp_path):
    _write(tmp_path, "a", [0.9, 0.7, 0.5])
    _write(tmp_path, "b", [0.8, 0.6])
    with pytest.raises(ValueError, match="different seeds"):
        paired(load_results(tmp_path), "a", "b", 32)


def test_the_bootstrap_is_deterministic_and_covers_the_spread():
    samples = [0.2, 0.4, 0.6, 0.8, 1.0]
    assert bootstrap_interval(samples) == bootstrap_interval(samples)
    mean, low, high = bootstrap_interval(samples)
    assert mean == pytest.approx(0.6) and 0.2 < low < 0.6 < high < 1.0
    assert bootstrap_interval([0.5] * 5) == (0.5, 0.5, 0.5)


def test_no_results_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no results in .*make experiments"):
        load_results(tmp_path)


def test_dynamic_is_ntk_at_its_own_stretch_in_the_results():
    """Read in one pass, dynamic NTK (factor 4) is NTK-aware at stretch 5, 13, 29: the same speeds, so the
    same numbers to the last digit (the confound the page explains)."""
    results = load_results()
    for length, s in ((64, 5), (128, 13), (256, 29)):
        assert dynamic_ntk_stretch(4.0, length, 32) == s
        np.testing.assert_allclose(values(results, "rope:dynamic", length), values(results, f"rope:ntk-s{s}", length),
                                   atol=1e-5)
        # and dynamic at factor 1 is NTK-aware at T / L
        np.testing.assert_allclose(values(results, "rope:dynamic-f1", length), values(results, "rope:ntk", length),
                                   atol=1e-5)


def test_every_ranking_the_page_states_holds_with_its_interval():
    results = load_results()
    failed = [r for r in RANKINGS if not ranking_holds(results, r)]
    assert not failed, f"rankings whose paired interval includes zero: {failed}"
    assert all(len(runs) >= 5 for runs in results.values())


def test_a_rerun_of_one_more_seed_reproduces_the_rankings_at_2L():
    """experiments/reproduction/ holds `python -m experiments.run --seeds 5 --out experiments/reproduction`."""
    other = load_results(REPRODUCTION)
    assert all(seed not in measured.seeds_of(load_results(), name) for name, runs in other.items()
               for seed in measured.seeds_of(other, name))
    at_2L = [r for r in RANKINGS if r[2] == 64]
    assert at_2L
    failed = [r for r in at_2L if not reproduces(other, r)]
    assert not failed, f"rankings at 2L the re-run does not reproduce: {failed}"
