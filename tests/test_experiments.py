"""experiments/: a smoke test of the training harness (needs torch, skipped without it) and the
committed results' schema (no torch needed)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

RESULTS = Path(__file__).resolve().parents[1] / "experiments" / "results"
LENGTH_KEYS = {"32", "64", "128", "256"}
NEEDLES = {"start", "middle", "end"}


def check_record(record: dict) -> None:
    """The schema of one result JSON."""
    assert set(record) >= {"config", "seed", "versions", "wall_seconds", "metric", "accuracy", "needle", "notes"}
    assert isinstance(record["config"], dict) and record["config"]["name"]
    assert isinstance(record["seed"], int)
    assert set(record["versions"]) == {"torch", "numpy", "python"}
    assert record["wall_seconds"] >= 0
    assert "exact-match" in record["metric"]
    assert set(record["accuracy"]) == LENGTH_KEYS
    assert set(record["needle"]) == NEEDLES
    for table in [record["accuracy"], *record["needle"].values()]:
        assert set(table) == LENGTH_KEYS
        assert all(0.0 <= v <= 1.0 for v in table.values())


def test_a_few_steps_train_evaluate_and_write_json(tmp_path):
    torch = pytest.importorskip("torch")
    from experiments import run
    from experiments.model import TinyDecoder, stretched_speeds
    from experiments.tasks import VOCAB_SIZE, copy_batch
    from experiments.train import train
    from lessons.context_extension import rope_inv_freq

    torch.set_num_threads(1)
    # the loss goes down within a few steps
    torch.manual_seed(0)
    model = TinyDecoder(VOCAB_SIZE, "rope", max_len=64, trained_len=32)
    losses = train(model, 32, steps=40, batch=16, lr=3e-3, generator=torch.Generator().manual_seed(0), warmup=5)
    assert np.mean(losses[-5:]) < np.mean(losses[:5])

    # end to end: one configuration's job writes a JSON with the schema
    run._job(("rope-yarn-ft4x", 0, True, str(tmp_path), False))
    record = json.loads((tmp_path / "rope-yarn-ft4x__seed0.json").read_text(encoding="utf-8"))
    check_record(record)
    assert record["config"]["quick"] is True and record["config"]["fine_tune"]["factor"] == 4.0
    # deterministic: the same seed gives the same metrics (wall time aside)
    run._job(("rope-yarn-ft4x", 0, True, str(tmp_path / "again"), False))
    again = json.loads((tmp_path / "again" / "rope-yarn-ft4x__seed0.json").read_text(encoding="utf-8"))
    assert (again["accuracy"], again["needle"], again["loss"]) == (record["accuracy"], record["needle"], record["loss"])

    # the model's speeds are rope_inv_freq's, for the trained model and for a stretch
    theta, factor = rope_inv_freq(16, {"rope_theta": 10000.0})
    np.testing.assert_allclose(model.inv_freq.numpy(), theta, rtol=1e-6)
    assert model.attention_factor == factor == 1.0
    yarn = {"rope_type": "yarn", "factor": 4.0, "rope_theta": 10000.0, "original_max_position_embeddings": 32}
    theta, factor = rope_inv_freq(16, yarn)
    model.set_rope_speeds(*stretched_speeds("yarn", 16, 10000.0, 32, 4.0, 128))
    np.testing.assert_allclose(model.inv_freq.numpy(), theta, rtol=1e-6)
    assert model.attention_factor == pytest.approx(factor) and factor > 1

    # the same seed gives the same prompts
    a = copy_batch(4, 32, torch.Generator().manual_seed(3))
    b = copy_batch(4, 32, torch.Generator().manual_seed(3))
    assert all(torch.equal(x, y) for x, y in zip(a, b))


def test_committed_results_have_the_schema_and_three_seeds():
    paths = sorted(RESULTS.glob("*.json"))
    assert paths, "experiments/results/ holds no results"
    seeds: dict[str, set[int]] = {}
    for path in paths:
        record = json.loads(path.read_text(encoding="utf-8"))
        check_record(record)
        name = record["config"]["name"]
        assert path.name == f"{name}__seed{record['seed']}.json"
        assert record["config"]["quick"] is False
        seeds.setdefault(name, set()).add(record["seed"])
    thin = {name: sorted(s) for name, s in seeds.items() if len(s) < 3}
    assert not thin, f"configurations with fewer than 3 seeds: {thin}"
