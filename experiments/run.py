"""The suite: train every configuration for every seed, evaluate at L, 2L, 4L, 8L, write one JSON per run.

    python -m experiments.run                      # everything missing, seeds 0 1 2, two processes
    python -m experiments.run --only rope-yarn     # one configuration (the RoPE checkpoint is reused or retrained)
    python -m experiments.run --seeds 7 --out /tmp/seed7 --force
    python -m experiments.run --quick --out /tmp/quick   # a few steps of everything: checks the plumbing only

A result that exists is skipped unless --force. The trained RoPE models are
kept in .cache/experiments/ (not committed) for the stretching runs; a missing
one is retrained, which gives the same weights (same seed, one thread).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import statistics
import time
from pathlib import Path

import numpy as np
import torch

from experiments.model import TinyDecoder, stretched_speeds
from experiments.tasks import NEEDLES, VOCAB_SIZE
from experiments.train import VALIDATION_SEED, evaluate, train

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
CHECKPOINTS = ROOT / ".cache" / "experiments"

# --- the shared settings -------------------------------------------------------
TRAIN_LEN = 32                 # L: every model is trained on prompts of 32 tokens
MULTIPLES = (1, 2, 4, 8)       # evaluated at L, 2L, 4L, 8L
SHAPE = dict(d_model=64, n_heads=4, n_layers=2, rope_base=10000.0)
# Every model trains until it has learned the task at L (LEARNED_AT exact-match accuracy on 64
# validation prompts, checked every 500 steps) or for at most `steps` steps. The copy task is learned
# in a sudden jump; with lr 2e-3 and a fixed 4,000 steps RoPE's jump was a lottery (some seeds had not
# jumped, one never did in 8,000 steps), and a model that has not jumped measures nothing about
# positions. With lr 1e-3 RoPE seeds 0, 1, 2, 7 and 11 all jumped within 2,500 to 3,000 steps.
SCHEDULE = dict(steps=8000, batch=32, lr=1e-3, warmup=100, check_every=500)
LEARNED_AT = 0.98
FINE_TUNE = dict(multiple=4, factor=4.0, steps=400, batch=8, lr=1e-3, warmup=20)  # 10% of the steps, at 4L
DYNAMIC_FACTOR = 4.0           # the dynamic config's `factor` (its stretch at n tokens: 4n/L − 3 past L)
EVAL = dict(prompts=256, needle_prompts=128)
QUICK = dict(steps=30, ft_steps=5, prompts=16, needle_prompts=8)

SCHEMES = ("learned", "sinusoidal", "rope", "alibi", "nope")


def configurations() -> dict[str, dict]:
    """name -> what defines the run (besides the seed). Trained schemes first, then RoPE stretched."""
    configs = {}
    for scheme in SCHEMES:
        configs[scheme] = dict(kind="train", position="none" if scheme == "nope" else scheme)
    for method in ("linear", "ntk", "yarn", "dynamic"):
        configs[f"rope-{method}"] = dict(kind="stretch", position="rope", method=method, fine_tune=False)
    for method in ("linear", "ntk", "yarn", "dynamic"):
        configs[f"rope-{method}-ft4x"] = dict(kind="stretch", position="rope", method=method, fine_tune=True)
    return configs


def speeds_rule(method: str, fine_tune: bool) -> str:
    """The sentence the JSON stores for how the speeds were chosen at each evaluation length."""
    if method == "dynamic":
        return (f"rope_inv_freq rope_type dynamic, factor {DYNAMIC_FACTOR:g}, max_position_embeddings L, "
                "seq_len = the evaluation length (fine-tune: seq_len 4L)")
    if fine_tune:
        return f"factor {FINE_TUNE['factor']:g} fixed: fine-tuned at 4L and evaluated at every length with it"
    return "factor = evaluation length / L (1 at L, the trained speeds)"


def build(position: str, seed: int) -> TinyDecoder:
    """A fresh model, its weights drawn from `seed`; the position tables have 8L rows."""
    torch.manual_seed(seed)
    return TinyDecoder(VOCAB_SIZE, position, max_len=TRAIN_LEN * MULTIPLES[-1], trained_len=TRAIN_LEN, **SHAPE)


def set_speeds(model: TinyDecoder, method: str, factor: float, seq_len: int) -> None:
    """Give a RoPE model the speeds of `method` (see `stretched_speeds`)."""
    inv_freq, attention_factor = stretched_speeds(method, model.d_head, model.rope_base, TRAIN_LEN, factor, seq_len)
    model.set_rope_speeds(inv_freq, attention_factor)


def measure(model: TinyDecoder, prompts: int, needle_prompts: int, speeds_at=None) -> tuple[dict, dict]:
    """Accuracy at each length, and the needle accuracies; speeds_at(length) sets RoPE speeds first."""
    accuracy, needle = {}, {where: {} for where in NEEDLES}
    for multiple in MULTIPLES:
        length = TRAIN_LEN * multiple
        if speeds_at is not None:
            speeds_at(length)
        accuracy[str(length)] = evaluate(model, length, prompts)
        for where in NEEDLES:
            needle[where][str(length)] = evaluate(model, length, needle_prompts, needle=where)
    return accuracy, needle


def train_at_L(model: TinyDecoder, seed: int, steps: int) -> list[float]:
    """Train a fresh model at L until it has learned the task (see SCHEDULE) or for `steps` steps; its losses."""
    def learned(m):
        return evaluate(m, TRAIN_LEN, 64, seed=VALIDATION_SEED) >= LEARNED_AT

    return train(model, TRAIN_LEN, steps, SCHEDULE["batch"], SCHEDULE["lr"], torch.Generator().manual_seed(seed),
                 SCHEDULE["warmup"], stop=learned, check_every=SCHEDULE["check_every"])


def rope_checkpoint(seed: int, steps: int) -> Path:
    """Where the RoPE model of `seed` trained at L is kept (its step count beside it, suffix .steps)."""
    return CHECKPOINTS / f"rope__seed{seed}__upto{steps}__learned{LEARNED_AT}.pt"


def trained_rope(seed: int, steps: int, quick: bool) -> tuple[TinyDecoder, float, list | None]:
    """The RoPE model trained at L for `seed`, from the checkpoint when one exists.

    Returns (model, seconds spent training here, the losses or None when loaded).
    """
    path = rope_checkpoint(seed, steps)
    model = build("rope", seed)
    if path.exists() and not quick:
        model.load_state_dict(torch.load(path))
        return model, 0.0, None
    start = time.perf_counter()
    losses = train_at_L(model, seed, steps)
    if not quick:
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(torch.tensor(len(losses)), path.with_suffix(".steps"))
        torch.save(model.state_dict(), path)
    return model, time.perf_counter() - start, losses


def _checkpoint_steps(seed: int, steps: int) -> int | None:
    """How many steps the cached RoPE model of `seed` trained for (None when it was not cached)."""
    path = rope_checkpoint(seed, steps).with_suffix(".steps")
    return int(torch.load(path)) if path.exists() else None


def run_one(name: str, seed: int, quick: bool = False) -> dict:
    """Train (or stretch, or fine-tune) configuration `name` with `seed`; the JSON record as a dict."""
    torch.set_num_threads(1)  # deterministic and fair: one core per process
    spec = configurations()[name]
    steps = QUICK["steps"] if quick else SCHEDULE["steps"]
    prompts = QUICK["prompts"] if quick else EVAL["prompts"]
    needle_prompts = QUICK["needle_prompts"] if quick else EVAL["needle_prompts"]
    start = time.perf_counter()
    config = dict(name=name, task="copy (induction): passage of 3T/4 distinct tokens, then a copy of T/4 of them",
                  position=spec["position"], train_len=TRAIN_LEN, eval_lengths=[TRAIN_LEN * m for m in MULTIPLES],
                  vocab_size=VOCAB_SIZE, **SHAPE, **{k: v for k, v in SCHEDULE.items()}, eval_prompts=prompts,
                  needle_prompts=needle_prompts, quick=quick)
    config["steps"] = steps
    config["learned_at"] = LEARNED_AT
    notes = []
    losses = None
    if spec["kind"] == "train":
        if spec["position"] == "rope":  # kept in .cache/experiments/ for the stretching runs
            model, _, losses = trained_rope(seed, steps, quick)
        else:
            model = build(spec["position"], seed)
            losses = train_at_L(model, seed, steps)
        if spec["position"] == "learned":
            config["learned_rows"] = model.max_len
            config["learned_rows_trained"] = TRAIN_LEN
            notes.append(f"the learned table has {model.max_len} rows; only the first {TRAIN_LEN} are ever "
                         "trained, the others keep their random initialisation")
        if spec["position"] == "sinusoidal":
            notes.append("sinusoidal codes exist at every position; those past L were never seen in training; "
                         "token vectors: init std d^-1/2 and multiplied by sqrt(d_model) (2017 paper, fairseq), "
                         "the other schemes use GPT-2's std 0.02 unscaled")
        config["steps_used"] = len(losses) if losses is not None else _checkpoint_steps(seed, steps)
        accuracy, needle = measure(model, prompts, needle_prompts)
    else:
        method, fine_tune = spec["method"], spec["fine_tune"]
        config.update(method=method, speeds=speeds_rule(method, fine_tune), dynamic_factor=DYNAMIC_FACTOR
                      if method == "dynamic" else None)
        model, rope_seconds, _ = trained_rope(seed, steps, quick)
        config["rope_steps_used"] = _checkpoint_steps(seed, steps)
        notes.append(f"the RoPE model of seed {seed} trained at L, then stretched (its training time, "
                     f"{rope_seconds:.1f} s when retrained here, is part of wall_seconds)")
        if fine_tune:
            ft = dict(FINE_TUNE, steps=QUICK["ft_steps"] if quick else FINE_TUNE["steps"])
            config["fine_tune"] = dict(ft, length=TRAIN_LEN * ft["multiple"])
            factor = DYNAMIC_FACTOR if method == "dynamic" else ft["factor"]
            ft_len = TRAIN_LEN * ft["multiple"]
            set_speeds(model, method, factor, ft_len)
            losses = train(model, ft_len, ft["steps"], ft["batch"], ft["lr"],
                           torch.Generator().manual_seed(1000 + seed), ft["warmup"])

            def speeds_at(length):  # fine-tuned: the same fixed factor at every length (dynamic: its rule)
                set_speeds(model, method, factor, length)
        else:
            def speeds_at(length):  # no fine-tune: the factor follows the length (dynamic: its rule)
                factor = DYNAMIC_FACTOR if method == "dynamic" else max(1.0, length / TRAIN_LEN)
                set_speeds(model, method, factor, length)
        accuracy, needle = measure(model, prompts, needle_prompts, speeds_at)
    record = dict(config=config, seed=seed,
                  versions=dict(torch=torch.__version__, numpy=np.__version__, python=platform.python_version()),
                  wall_seconds=round(time.perf_counter() - start, 2),
                  metric="exact-match accuracy of the answer token (each scored next token of the copy)",
                  accuracy=accuracy, needle=needle,
                  notes="; ".join(notes))
    if losses is not None:
        k = max(1, len(losses) // 10)
        record["loss"] = dict(first=round(sum(losses[:k]) / k, 4), last=round(sum(losses[-k:]) / k, 4))
    return record


def _job(args: tuple) -> tuple[str, int, float]:
    """One (name, seed, quick, out, force) in a worker: run it and write its JSON; (name, seed, seconds)."""
    name, seed, quick, out, force = args
    path = Path(out) / f"{name}__seed{seed}.json"
    if path.exists() and not force:
        return name, seed, 0.0
    record = run_one(name, seed, quick)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"  {name} seed {seed}: {record['wall_seconds']:.0f} s, accuracy {record['accuracy']}", flush=True)
    return name, seed, record["wall_seconds"]


def summary(out: Path, names: list[str]) -> str:
    """The table: per configuration and length, the median and (min–max) over seeds; needle rows too."""
    lengths = [str(TRAIN_LEN * m) for m in MULTIPLES]
    lines = ["| configuration | seeds | " + " | ".join(f"T={n}" for n in lengths) + " |",
             "|---|---|" + "---|" * len(lengths)]
    for name in names:
        records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(out.glob(f"{name}__seed*.json"))]
        if not records:
            continue
        rows = [("", [r["accuracy"] for r in records])]
        rows += [(f" · needle {w}", [r["needle"][w] for r in records]) for w in NEEDLES]
        for suffix, tables in rows:
            cells = []
            for n in lengths:
                values = [t[n] for t in tables]
                cells.append(f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})")
            lines.append(f"| {name}{suffix} | {len(records)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few steps of everything (plumbing check)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--only", nargs="+", default=None, help="configuration names")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--force", action="store_true", help="re-run results that exist")
    parser.add_argument("--jobs", type=int, default=2, help="processes in parallel (2 at most on this machine)")
    args = parser.parse_args(argv)
    configs = configurations()
    names = args.only or list(configs)
    for name in names:
        if name not in configs:
            parser.error(f"unknown configuration {name!r}; known: {', '.join(configs)}")
    # the RoPE models first (the stretching runs reuse their checkpoints), then the rest
    phases = [[n for n in names if configs[n]["kind"] == "train"], [n for n in names if configs[n]["kind"] != "train"]]
    started = time.perf_counter()
    seconds = {}
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for phase in phases:
            jobs = [(n, s, args.quick, str(args.out), args.force) for n in phase for s in args.seeds]
            for name, seed, spent in pool.imap_unordered(_job, jobs):
                seconds[name] = seconds.get(name, 0.0) + spent
    print(f"\nwall time {time.perf_counter() - started:.0f} s ({args.jobs} processes); "
          "run time per configuration (summed over seeds, 0 = skipped):")
    for name in names:
        print(f"  {name}: {seconds.get(name, 0.0):.0f} s")
    print()
    print(summary(args.out, names))


if __name__ == "__main__":
    main()
