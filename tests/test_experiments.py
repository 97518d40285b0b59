"""experiments/: a smoke test of the training harness and the task (needs torch, skipped without it),
and the committed results' schema and provenance (no torch needed)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "experiments" / "results"
LENGTH_KEYS = {"32", "64", "128", "256"}
GRID_KEYS = {"near-8", "near-23", "far-8", "far-23"}


def check_record(record: dict) -> None:
    """The schema of one result JSON: provenance, seeds, training record and every metric at every length."""
    assert set(record) >= {"name", "seed", "config", "config_hash", "seeds", "provenance", "wall_seconds",
                           "training", "metrics", "evals"}
    assert isinstance(record["seed"], int) and len(record["config_hash"]) == 12
    assert set(record["provenance"]) >= {"commit", "torch", "numpy", "python", "cpu", "torch_blas", "numpy_blas",
                                         "code"}
    assert set(record["seeds"]) >= {"init", "validation", "eval"}
    training = record["training"]
    if record["config"]["kind"] == "fine-tune":  # tuned for equal steps and to the loss criterion, from one base
        assert training["tuned"]["steps"] == record["config"]["fine_tune"]["steps"]
        # the converged reading is the first schedule of the ladder whose final loss met the criterion
        # (or the last), each schedule run from the base model; the tuned one is the ladder's first rung
        schedules = record["config"]["converge"]["schedules"]
        ladder = training["ladder"]
        assert [rung["steps"] for rung in ladder] == list(schedules[:len(ladder)])
        assert training["converged"]["steps"] == ladder[-1]["steps"]
        criterion = record["config"]["converge"]["criterion"]
        assert all(rung["loss_window"] > criterion for rung in ladder[:-1])
        assert training["converged"]["reached"] == (ladder[-1]["loss_window"] <= criterion)
        assert all(training[k]["loss_curve"] for k in ("tuned", "converged"))
        assert {"tuned", "converged"} <= set(record["evals"])
    else:
        assert training["loss_curve"]
    assert record["wall_seconds"] >= 0 and record["evals"]
    if record["config"].get("random_positions"):  # scored both ways: at 0..T-1 and as trained
        assert {"default", "random"} <= set(record["evals"])
    for reading in record["evals"].values():
        assert set(reading["lengths"]) == LENGTH_KEYS
        for length, cell in reading["lengths"].items():
            assert 0.0 <= cell["accuracy"] <= 1.0 and cell["nll"] >= 0.0 and math.isfinite(cell["margin"])
            heads = (record["config"]["n_layers"], record["config"]["n_heads"])
            assert np.array(cell["entropy"]).shape == np.array(cell["max_logit"]).shape == heads
            assert np.array(cell["key_weight"]).shape == heads
            # every prompt's outcome is kept, and they add up to the accuracy
            right = [int(c) for c in cell["right"]]
            assert len(right) == record["config"]["eval"]["prompts"] and max(right) <= 7
            assert math.isclose(sum(right) / (7 * len(right)), cell["accuracy"], abs_tol=1e-6)
            # at L = 32 both grid passages fit; 23 is the most that fits there; a gap cell for each distance
            # strictly between near's 8 and far's T − 9
            gaps = {f"gap-{d}" for d in (23, 55, 119) if d < int(length) - 9}
            assert set(cell["grid"]) == GRID_KEYS | gaps
            assert all(0.0 <= c["accuracy"] <= 1.0 for c in cell["grid"].values())
            if "ablation" in cell:
                assert set(cell["ablation"]) == {"none"} | {f"{la}.*" for la in range(heads[0])} | {
                    f"{la}.{h}" for la in range(heads[0]) for h in range(heads[1])}


def test_the_task_separates_role_distance_and_length():
    torch = pytest.importorskip("torch")
    from experiments.tasks import BOS, COPY, FIRST_CONTENT, NO_ANSWER, copy_batch, fact_distance

    g = torch.Generator().manual_seed(0)
    tokens, targets = copy_batch(64, 64, g)
    assert (tokens[:, 0] == BOS).all()
    scored = targets != NO_ANSWER
    assert (scored.sum(dim=1) == COPY - 1).all() and scored[:, -COPY:-1].all()
    # the answer is the token that followed the current one in the passage
    for row in range(4):
        for place in range(64 - COPY, 63):
            earlier = int((tokens[row, :64 - COPY] == tokens[row, place]).nonzero()[0])
            assert targets[row, place] == tokens[row, earlier + 1]
    # passage tokens are distinct and never filler; the passage starts at many places (role is not position)
    content = tokens[:, :64 - COPY] >= FIRST_CONTENT
    starts = content.float().argmax(dim=1)
    assert len(set(starts.tolist())) > 10
    for row in tokens:
        passage = row[:64 - COPY][row[:64 - COPY] >= FIRST_CONTENT]
        assert len(set(passage.tolist())) == len(passage)
    # the grid: near puts the fact b tokens back at every length, far as far back as the prompt allows
    for length in (32, 64, 256):
        near, _ = copy_batch(8, length, g, "near", 8)
        far, _ = copy_batch(8, length, g, "far", 8)
        assert (fact_distance(near) == COPY).all() and (fact_distance(far) == length - 1 - COPY).all()
    with pytest.raises(ValueError, match="grid cell"):
        copy_batch(2, 32, g, "near", 24)
    # the distance grid: a gap cell puts the fact exactly d back, the copy at the end as always
    for length, distance in ((64, 23), (128, 55), (256, 119), (256, 8), (256, 247)):
        gap, _ = copy_batch(8, length, g, "gap", distance=distance)
        assert (fact_distance(gap) == distance).all()
    with pytest.raises(ValueError, match="gap cell"):
        copy_batch(2, 64, g, "gap", distance=56)
    # the same seed gives the same prompts
    a = copy_batch(4, 32, torch.Generator().manual_seed(3))
    b = copy_batch(4, 32, torch.Generator().manual_seed(3))
    assert all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


def test_training_and_the_suite_write_complete_deterministic_json(tmp_path):
    torch = pytest.importorskip("torch")
    from experiments import run
    from experiments.model import TinyDecoder
    from experiments.tasks import VOCAB_SIZE
    from experiments.train import learned_step, train

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = TinyDecoder(VOCAB_SIZE, "rope", max_len=64, trained_len=32)
    losses, checks = train(model, 32, steps=40, batch=16, lr=3e-3, generator=torch.Generator().manual_seed(0),
                           warmup=5, check=lambda m: 0.5, check_every=20)
    assert np.mean(losses[-5:]) < np.mean(losses[:5])
    assert checks == [(20, 0.5), (40, 0.5)] and learned_step(checks, 0.5) == 20 and learned_step(checks, 0.9) is None

    # end to end: a fine-tune's job (which needs the rope model, trained here) writes a JSON with the schema
    ck = tmp_path / "ck"
    run._job(("rope-ft-dynamic", 0, True, str(tmp_path), str(ck), False))
    record = json.loads((tmp_path / "rope-ft-dynamic__seed0.json").read_text(encoding="utf-8"))
    check_record(record)
    assert record["config"]["quick"] is True and record["config"]["fine_tune"]["length"] == 128
    assert record["config_hash"] == run.config_hash("rope-ft-dynamic", True)
    assert any(p.name.startswith("rope__seed0__") for p in ck.iterdir())  # the weights, named by their hash
    # deterministic: the same seed gives the same metrics (wall time aside), from fresh weights
    run._job(("rope-ft-dynamic", 0, True, str(tmp_path / "again"), str(tmp_path / "ck2"), False))
    again = json.loads((tmp_path / "again" / "rope-ft-dynamic__seed0.json").read_text(encoding="utf-8"))
    assert again["evals"] == record["evals"] and again["training"] == record["training"]
    # a kept result is not re-run; a stale one (another configuration hash) is
    assert run._job(("rope-ft-dynamic", 0, True, str(tmp_path), str(ck), False))[2] == 0.0
    stale = dict(record, config_hash="000000000000")
    (tmp_path / "rope-ft-dynamic__seed0.json").write_text(json.dumps(stale), encoding="utf-8")
    assert not run.is_current(tmp_path / "rope-ft-dynamic__seed0.json", "rope-ft-dynamic", True)


def test_a_changed_setting_changes_the_hash(monkeypatch):
    pytest.importorskip("torch")
    from experiments import run

    before = run.config_hash("rope", False)
    monkeypatch.setitem(run.SCHEDULE, "lr", 2e-3)
    assert run.config_hash("rope", False) != before
    monkeypatch.undo()
    assert run.config_hash("rope", False) == before
    monkeypatch.setattr(run, "code_hash", lambda: "another version of experiments/")
    assert run.config_hash("rope", False) != before


def test_stretch_speeds_are_the_lessons_and_dynamic_is_ntk_with_another_stretch():
    pytest.importorskip("torch")
    from experiments.model import stretched_speeds
    from lessons.context_extension import rope_inv_freq, yarn_attention_factor

    yarn = {"rope_type": "yarn", "factor": 4.0, "rope_theta": 10000.0, "original_max_position_embeddings": 32}
    theta, factor = rope_inv_freq(16, yarn)
    got, got_factor = stretched_speeds("yarn", 16, 10000.0, 32, 4.0, 128)
    np.testing.assert_allclose(got, theta)
    assert got_factor == pytest.approx(factor) and factor > 1
    # dynamic (factor 4) at 2L, 4L, 8L is NTK-aware with stretch 5, 13, 29
    for length, s in ((64, 5), (128, 13), (256, 29)):
        dynamic, _ = stretched_speeds("dynamic", 16, 10000.0, 32, 4.0, length)
        ntk, _ = stretched_speeds("ntk", 16, 10000.0, 32, float(s), length)
        np.testing.assert_allclose(dynamic, ntk, rtol=1e-12)
    # the ablations: temperature off, on for NTK; the printed ramp differs only between the ends
    assert stretched_speeds("yarn", 16, 10000.0, 32, 4.0, 128, temperature=False)[1] == 1.0
    assert stretched_speeds("ntk", 16, 10000.0, 32, 4.0, 128, temperature=True)[1] == yarn_attention_factor(4.0)
    printed, _ = stretched_speeds("yarn", 16, 10000.0, 32, 4.0, 128, ramp="printed")
    assert printed[0] < got[0] and np.allclose(printed[2:], got[2:])
    with pytest.raises(ValueError, match="method must be"):
        stretched_speeds("yarn", 16, 10000.0, 32, 4.0, 128, ramp="mine")


def test_per_position_speeds_are_a_kv_cache_decode():
    """The suite reads dynamic scaling with a cache as one pass with a speed row per position
    (`speeds_for`); here the same logits come from a real token-by-token decode with a KV cache."""
    torch = pytest.importorskip("torch")
    from experiments import run
    from experiments.model import rotate_half_split
    from experiments.tasks import COPY, copy_batch

    torch.manual_seed(0)
    model = run.build(run.settings("rope", True), 0).eval()
    tokens, _ = copy_batch(3, 64, torch.Generator().manual_seed(1))
    spec = dict(method="dynamic", factor=4.0, cache="stream")
    run.speeds_for(model, spec, 64)
    with torch.no_grad():
        one_pass = model(tokens)
        table, attention = model.inv_freq.clone(), model.attention_factor
        caches = [([], []) for _ in model.blocks]
        decoded = []
        for p in range(64):
            x = model.embed(tokens[:, p:p + 1])  # (batch, 1, d)
            angles = p * table[p]  # the speeds of the step that computes position p
            cos = torch.cat([angles, angles]).cos() * attention
            sin = torch.cat([angles, angles]).sin() * attention
            for block, (keys, values) in zip(model.blocks, caches, strict=True):
                h = block.norm1(x)
                heads = [w(h).view(3, 1, block.n_heads, block.d_head).transpose(1, 2)
                         for w in (block.W_q, block.W_k, block.W_v)]
                q, k, v = (rotate_half_split(heads[0], cos, sin), rotate_half_split(heads[1], cos, sin), heads[2])
                keys.append(k)
                values.append(v)  # the cache keeps each key as it was rotated then
                K, V = torch.cat(keys, dim=2), torch.cat(values, dim=2)
                weights = (q @ K.transpose(-1, -2) / math.sqrt(block.d_head)).softmax(dim=-1)
                x = x + block.W_o((weights @ V).transpose(1, 2).reshape(3, 1, -1))
                x = x + block.mlp(block.norm2(x))
            decoded.append(model.norm_f(x) @ model.embed.weight.T)
    torch.testing.assert_close(torch.cat(decoded, dim=1), one_pass, atol=1e-4, rtol=1e-4)
    # and it is not the no-cache reading: keys cached before the stretch grew keep the old rotation
    run.speeds_for(model, dict(method="dynamic", factor=4.0), 64)
    with torch.no_grad():
        assert (model(tokens)[:, -COPY:] - one_pass[:, -COPY:]).abs().max() > 1e-3


def test_the_real_base_matches_llama2s_share_of_turning_pairs():
    pytest.importorskip("torch")
    from experiments import run
    from lessons.context_extension import rope_wavelengths
    from lessons.positional import rope_frequencies

    llama2 = int((rope_wavelengths(rope_frequencies(128, 10000.0)) <= 4096).sum())  # d_head 128, 4,096 tokens
    ours = int((rope_wavelengths(rope_frequencies(16, run.REAL_BASE)) <= run.TRAIN_LEN).sum())
    default = int((rope_wavelengths(rope_frequencies(16, run.BASE)) <= run.TRAIN_LEN).sum())
    assert (llama2, ours, default) == (46, 6, 2)
    assert abs(ours / 8 - llama2 / 64) < 1 / 16
    # the second geometry matches Llama 2's slowest wavelength instead (13.4 L against 13.3 L), and then turns
    # 12 of its 32 pairs within L: at L = 32 no base gives both (base 10 at d_head 64 turns 23 but reaches 1.8 L)
    d_head = run.WIDE["d_model"] // run.WIDE["n_heads"]
    wide = rope_wavelengths(rope_frequencies(d_head, run.WIDE_BASE))
    llama = rope_wavelengths(rope_frequencies(128, 10000.0))
    assert d_head == 64 and round(wide.max() / run.TRAIN_LEN, 1) == 13.4 and round(llama.max() / 4096, 1) == 13.3
    assert int((wide <= run.TRAIN_LEN).sum()) == 12
    ten = rope_wavelengths(rope_frequencies(64, 10.0))
    assert int((ten <= run.TRAIN_LEN).sum()) == 23 and round(ten.max() / run.TRAIN_LEN, 1) == 1.8


@pytest.mark.parametrize("args, needle", [(["--only", "rope-xl"], "accepted: learned, sinusoidal"),
                                          (["--seeds", "0", "x"], "non-negative integers"),
                                          (["--seeds", "1", "1"], "twice")])
def test_bad_input_is_one_line_and_exit_code_2(args, needle, capsys):
    pytest.importorskip("torch")
    from experiments import run

    with pytest.raises(SystemExit) as done:
        run.main([*args, "--out", "/nonexistent"])
    stderr = capsys.readouterr().err
    assert done.value.code == 2, stderr
    assert needle in stderr and len(stderr.strip().splitlines()) == 1, stderr


def test_an_interrupted_write_leaves_the_old_json(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from experiments import provenance

    path = tmp_path / "rope__seed0.json"
    provenance.write_json(path, {"kept": True})

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(provenance.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        provenance.write_json(path, {"kept": False})
    assert json.loads(path.read_text(encoding="utf-8")) == {"kept": True}


def test_committed_results_come_from_the_current_suite():
    paths = sorted(RESULTS.glob("*__seed*.json"))
    assert paths, "experiments/results/ holds no results"
    seeds: dict[str, set[int]] = {}
    for path in paths:
        record = json.loads(path.read_text(encoding="utf-8"))
        check_record(record)
        assert path.name == f"{record['name']}__seed{record['seed']}.json"
        assert record["config"]["quick"] is False
        seeds.setdefault(record["name"], set()).add(record["seed"])
    thin = {name: sorted(s) for name, s in seeds.items() if len(s) < 5}
    assert not thin, f"results with fewer than 5 seeds: {thin}"
    try:
        from experiments import run
    except ImportError:  # torch missing: the hash cannot be recomputed here
        return
    assert set(seeds) == set(run.names())
    for path in paths:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["config_hash"] == run.config_hash(record["name"], False), (
            f"{path.name} was made by another configuration or code version: run `make experiments`")
        assert record["provenance"]["dirty"] is False, f"{path.name} was made by code no commit holds"


def test_random_evaluation_positions_are_drawn_as_in_training_and_the_same_for_every_model():
    torch = pytest.importorskip("torch")
    from experiments.model import TinyDecoder
    from experiments.tasks import VOCAB_SIZE
    from experiments.train import evaluate, random_positions

    where = random_positions(4, 64, 512, torch.Generator().manual_seed(0))
    assert where.shape == (4, 64) and (where.diff(dim=1) > 0).all() and 0 <= where.min() and where.max() < 512
    torch.manual_seed(0)
    model = TinyDecoder(VOCAB_SIZE, "learned", max_len=512, trained_len=32)
    a, b = (evaluate(model, 64, 8, max_position=512) for _ in range(2))
    contiguous = evaluate(model, 64, 8)
    assert a == b and a["nll"] != contiguous["nll"]


def test_a_zeroed_head_writes_nothing_and_is_restored():
    torch = pytest.importorskip("torch")
    from experiments import run
    from experiments.model import TinyDecoder
    from experiments.tasks import VOCAB_SIZE, copy_batch

    torch.manual_seed(0)
    model = TinyDecoder(VOCAB_SIZE, "rope", max_len=64, trained_len=32)
    tokens, _ = copy_batch(2, 32, torch.Generator().manual_seed(0))
    before = model(tokens)
    model.blocks[1].ablated = (0, 1, 2, 3)
    zeroed = model(tokens)
    model.blocks[1].ablated = ()
    assert torch.equal(model(tokens), before) and not torch.allclose(zeroed, before)
    # with every head of the last layer zeroed its attention adds only W_o's bias: the same for every token
    block = model.blocks[1]
    block.ablated = (0, 1, 2, 3)
    h = torch.randn(1, 5, 64)
    out = block.attention(h, model.rope_tables(torch.arange(5.0)), None)
    assert torch.allclose(out, block.W_o.bias.expand_as(out))
    block.ablated = ()
    table = run.ablations(model, 32, 8)
    assert set(table) == {"none", "0.*", "1.*"} | {f"{la}.{h}" for la in (0, 1) for h in range(4)}
    assert all(b.ablated == () for b in model.blocks)


def test_the_answer_key_weight_reads_the_key_after_the_earlier_occurrence():
    torch = pytest.importorskip("torch")
    from experiments.tasks import COPY, copy_batch
    from experiments.train import key_weight

    tokens, targets = copy_batch(3, 40, torch.Generator().manual_seed(1), "gap", distance=20)
    keep = torch.ones(3, COPY, dtype=torch.bool)
    weights = torch.zeros(3, 2, COPY, 40)
    for row in range(COPY):  # head 1 of one layer looks exactly at the answer's key, head 0 at the query itself
        weights[:, 1, row, 40 - COPY + row - 20 + 1] = 1.0
        weights[:, 0, row, 40 - COPY + row] = 1.0
    got = key_weight([(None, weights)], tokens, keep)
    assert got.shape == (1, 2) and got[0, 1] == 3 * COPY and got[0, 0] == 0
    # and that key holds the answer
    place = 40 - COPY
    assert tokens[0, place - 20 + 1] == targets[0, place]


def test_the_hash_reads_run_py_and_the_lessons_without_docstrings():
    pytest.importorskip("torch")
    from experiments import provenance

    assert {"lessons.alibi", "lessons.context_extension", "lessons.positional"} <= set(provenance.lesson_modules())
    sources = dict(provenance.hashed_sources())
    assert "experiments/run.py" in sources and '"""The suite' not in sources["experiments/run.py"]
    assert "def settings(" in sources["experiments/run.py"]
    assert "def rope_inv_freq(" in sources["lessons.context_extension"]


def test_committed_files_reads_head_in_one_batch_and_skips_what_git_lacks():
    pytest.importorskip("torch")
    import subprocess

    from experiments import provenance

    paths = ["experiments/tasks.py", "no/such/file.py", "experiments/train.py"]
    got = provenance.committed_files(paths)
    assert set(got) == {"experiments/tasks.py", "experiments/train.py"}
    for path in got:
        head = subprocess.run(["git", "show", f"HEAD:{path}"], cwd=ROOT, capture_output=True, text=True).stdout
        assert got[path] == head


def test_the_controls_change_only_what_they_name():
    pytest.importorskip("torch")
    from experiments import run

    base = {name: run.settings(name, False) for name in ("learned", "alibi", "nope", "sinusoidal")}
    changed = {"learned-scaled": ("learned", {"scaled_tokens": True}),
               "alibi-h8": ("alibi", {"n_heads": 8}), "nope-l4": ("nope", {"n_layers": 4})}
    for control, (scheme, what) in changed.items():
        mine = run.settings(control, False)
        assert {k for k in mine if mine[k] != base[scheme][k]} == set(what), control
        assert all(mine[k] == v for k, v in what.items())
    assert base["sinusoidal"]["scaled_tokens"] and not base["learned"]["scaled_tokens"]
    model = run.build(run.settings("learned-scaled", False), 0)
    assert model.embed_scale == 8.0 and abs(float(model.embed.weight.std()) - 0.125) < 0.01
