"""lessons.measured: reading the committed experiment results (no torch needed)."""

from __future__ import annotations

import json

import pytest

from lessons.measured import (accuracies, curve, eval_lengths, load_results, median_accuracy, spread,
                              steps_to_learn, total_seconds)


def _record(name, seed, acc, steps=None):
    lengths = [32, 64, 128, 256]
    needle = {w: {str(n): acc for n in lengths} for w in ("start", "middle", "end")}
    return {"config": {"name": name, "eval_lengths": lengths, "steps_used": steps}, "seed": seed,
            "wall_seconds": 10.0, "accuracy": {str(n): acc / (i + 1) for i, n in enumerate(lengths)}, "needle": needle}


def test_statistics_over_seeds(tmp_path):
    for seed, acc in ((2, 0.5), (0, 0.9), (1, 0.7)):
        (tmp_path / f"a__seed{seed}.json").write_text(json.dumps(_record("a", seed, acc, 100 * seed)))
    results = load_results(tmp_path)
    assert [r["seed"] for r in results["a"]] == [0, 1, 2]
    assert eval_lengths(results) == [32, 64, 128, 256]
    assert accuracies(results, "a", 32) == [0.9, 0.7, 0.5]
    assert median_accuracy(results, "a", 64) == pytest.approx(0.35)
    assert spread(results, "a", 32) == (0.5, 0.9)
    median, low, high = curve(results, "a", "end")
    assert list(median) == [0.7] * 4 and list(low) == [0.5] * 4 and list(high) == [0.9] * 4
    assert steps_to_learn(results, "a") == [0, 100, 200] and total_seconds(results) == 30.0


def test_no_results_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no results in .*make experiments"):
        load_results(tmp_path)


def test_the_committed_results_cover_every_configuration():
    results = load_results()
    assert {"learned", "sinusoidal", "rope", "alibi", "nope"} <= set(results)
    for method in ("linear", "ntk", "yarn", "dynamic"):
        assert f"rope-{method}" in results and f"rope-{method}-ft4x" in results
    assert all(len(runs) >= 3 for runs in results.values())
