"""The suite: train every model for every seed, read it at L, 2L, 4L, 8L, write one JSON per model and seed.

    python -m experiments.run                      # everything missing, seeds 0..4, two processes
    python -m experiments.run --only rope --seeds 7 --out /tmp/seed7   # --quick: a few steps of all

A result whose JSON has today's configuration hash is kept (the suite resumes); `--force` redoes all.
Weights are kept in .cache/experiments/ (not committed) under a name that carries the hash.
Models (one budget, SCHEDULE): the five schemes at L = 32; controls: learned-randpos and rope-randpos
(Ruoss et al. 2023, arXiv:2305.16843: positions from 0..16L−1; reading "random" reads them as trained),
rope-oracle (half the budget at 8L, one optimizer), rope-base10 (REAL_BASE), rope-d64 (WIDE), learned-scaled,
alibi-h8 and nope-l4; fine-tunes of each rope model at 4L (rope-ft-*), for 400 steps ("tuned") and on the
shortest schedule of FT_LADDER that ends at its criterion ("converged", also read with a factor that follows
the length, "converged-follow"). READINGS lists each RoPE model's
readings (STRETCH_EVALS); those of ABLATED also zero each head, and each layer's heads, in turn.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch

from experiments.model import TinyDecoder, stretched_speeds
from experiments.provenance import ROOT, code_hash, provenance, write_json
from experiments.tasks import COPY, DISTANCES, GRID_PASSAGES, PLACEMENTS, VOCAB_SIZE
from experiments.train import EVAL_SEED, VALIDATION_SEED, evaluate, learned_step, train

RESULTS = Path(__file__).resolve().parent / "results"
CHECKPOINTS = ROOT / ".cache" / "experiments"

# --- the shared settings -------------------------------------------------------
TRAIN_LEN = 32                 # L: every model but the oracle is trained on prompts of 32 tokens
MULTIPLES = (1, 2, 4, 8)       # evaluated at L, 2L, 4L, 8L
SHAPE = dict(d_model=64, n_heads=4, n_layers=2)
BASE = 10000.0                 # rope_theta of every RoPE model but rope-base10
# rope-base10: Llama 2 7B (d_head 128, rope_theta 10,000, 4,096 trained tokens) has 46 of its 64 pairs
# turning fully within its trained length (wavelength <= L); at d_head 16 and L = 32, base 10 gives 6 of 8
# (base 10,000 gives 2 of 8). tests/test_experiments.py computes both counts.
REAL_BASE = 10.0
# rope-d64, a second geometry: heads of 64 (2 of them, width 128) at base 78, where the slowest pair's wavelength
# is 13.4 L, as Llama 2 7B's is 13.3 L (12 of 32 pairs turn within L, where Llama 2 turns 46 of 64: at L = 32 no
# base matches both; tests/test_experiments.py computes the numbers)
WIDE = dict(d_model=128, n_heads=2, n_layers=2)
WIDE_BASE = 78.0
# One budget for every scheme: no early stop. The step at which validation accuracy first reached
# LEARNED_AT (checked every check_every steps) is recorded as the scheme's convergence.
SCHEDULE = dict(steps=4000, batch=32, lr=1e-3, warmup=100, check_every=250)
LEARNED_AT = 0.98
FINE_TUNE = dict(multiple=4, steps=400, batch=8, lr=1e-3, warmup=20)  # 10% of the steps, at 4L, same tokens/step
# the converged fine-tune: the same recipe, each time from the base model, on schedules of 400, 800, ... steps
# (each decays to its own end); the first whose last `window` steps have a mean loss at most `criterion` is kept
FT_LADDER = dict(criterion=0.02, window=100, schedules=(400, 800, 1600, 3200))
RANDOM_RANGE = 16  # randomized positions are drawn from 0..16L−1: past the longest test length, 8L
ABLATION_PROMPTS = 128  # the first 128 of the training-distribution prompts (the same ones for every ablation)
EVAL = dict(prompts=256, grid_prompts=128, validation_prompts=64)
QUICK = dict(steps=30, ft_steps=5, prompts=16, grid_prompts=8, check_every=10)
DEFAULT_SEEDS = (0, 1, 2, 3, 4)
FINE_TUNE_SEED, POSITION_SEED = 1000, 2000  # the fine-tune's prompts: 1000 + seed; randomized positions: 2000 + seed

MODELS = {
    "learned": dict(position="learned"),
    "sinusoidal": dict(position="sinusoidal"),
    "rope": dict(position="rope"),
    "alibi": dict(position="alibi"),
    "nope": dict(position="none"),
    "learned-randpos": dict(position="learned", random_positions=True),
    "rope-randpos": dict(position="rope", random_positions=True),
    "rope-oracle": dict(position="rope", train_multiple=MULTIPLES[-1]),
    "rope-base10": dict(position="rope", rope_base=REAL_BASE),
    "rope-d64": dict(position="rope", rope_base=WIDE_BASE, shape=WIDE),
    # controls for the scheme comparison: the learned table with the sinusoidal model's token vectors,
    # ALiBi with 8 heads (slopes 1/2 .. 1/256, the paper's 8-head set) and NoPE with 4 layers
    "learned-scaled": dict(position="learned", scaled_tokens=True),
    "alibi-h8": dict(position="alibi", shape=dict(SHAPE, n_heads=8)),
    "nope-l4": dict(position="none", shape=dict(SHAPE, n_layers=4)),
}
FINE_TUNES = {
    "rope-ft-linear": dict(method="linear", factor=4.0),
    "rope-ft-ntk": dict(method="ntk", factor=4.0),
    "rope-ft-yarn": dict(method="yarn", factor=4.0),
    "rope-ft-dynamic": dict(method="dynamic", factor=4.0),
    "rope-ft-dynamic-f1": dict(method="dynamic", factor=1.0),
}
NTK_SWEEP = (2, 3, 5, 8, 13, 29, 61, 125, 253)  # dynamic (factor 4) has stretch 5, 13, 29 at 2L, 4L, 8L
# Evaluation-only readings of a trained RoPE model. "factor" None: the stretch follows the length (T / L);
# a number: fixed at every length (dynamic: the config's factor, its stretch then factor·T/L − factor + 1).
STRETCH_EVALS = {
    "default": dict(method="default"),
    "linear": dict(method="linear"),
    "ntk": dict(method="ntk"),
    "yarn": dict(method="yarn"),
    "dynamic": dict(method="dynamic", factor=4.0),
    "dynamic-f1": dict(method="dynamic", factor=1.0),
    "dynamic-cache": dict(method="dynamic", factor=4.0, cache="prompt"),
    "dynamic-stream": dict(method="dynamic", factor=4.0, cache="stream"),
    "yarn-notemp": dict(method="yarn", temperature=False),
    "yarn-printed": dict(method="yarn", ramp="printed"),
    "yarn-printed-notemp": dict(method="yarn", ramp="printed", temperature=False),
    "linear-temp": dict(method="linear", temperature=True),
    "ntk-temp": dict(method="ntk", temperature=True),
    **{f"ntk-s{s}": dict(method="ntk", factor=float(s)) for s in NTK_SWEEP},
}
BASE10_EVALS = ("default", "linear", "ntk", "yarn", "dynamic", "yarn-printed")
WIDE_EVALS = BASE10_EVALS + ("yarn-notemp",) + tuple(f"ntk-s{s}" for s in NTK_SWEEP)
READINGS = {"rope": tuple(STRETCH_EVALS), "rope-base10": BASE10_EVALS, "rope-d64": WIDE_EVALS}
ABLATED = ("default", "yarn", "yarn-notemp", "yarn-printed", "linear-temp", "ntk")  # readings with head ablations


def names() -> list[str]:
    """Every result name the suite knows: the trained models, then the fine-tunes."""
    return list(MODELS) + list(FINE_TUNES)


# --- configuration and provenance ------------------------------------------------

def settings(name: str, quick: bool) -> dict:
    """Everything that defines the run of `name` (besides the seed), as plain JSON values."""
    steps = QUICK["steps"] if quick else SCHEDULE["steps"]
    common = dict(task=dict(layout="BOS, filler, passage, filler, copy of 8", copy=COPY, vocab_size=VOCAB_SIZE,
                            grid_passages=list(GRID_PASSAGES), placements=list(PLACEMENTS)),
                  train_len=TRAIN_LEN, eval_lengths=[TRAIN_LEN * m for m in MULTIPLES], **SHAPE,
                  schedule=dict(SCHEDULE, steps=steps, check_every=QUICK["check_every"] if quick else
                                SCHEDULE["check_every"]),
                  learned_at=LEARNED_AT, eval=dict(EVAL, prompts=QUICK["prompts"] if quick else EVAL["prompts"],
                                                   grid_prompts=QUICK["grid_prompts"] if quick else
                                                   EVAL["grid_prompts"]),
                  eval_seed=EVAL_SEED, validation_seed=VALIDATION_SEED, quick=quick)
    if name in MODELS:
        spec = dict(MODELS[name])
        multiple = spec.pop("train_multiple", 1)
        spec.setdefault("rope_base", BASE)
        spec.setdefault("random_positions", False)
        spec.setdefault("scaled_tokens", spec["position"] == "sinusoidal")
        spec.update(spec.pop("shape", {}))  # a shape of its own replaces SHAPE's
        if spec["random_positions"]:
            spec["position_range"] = TRAIN_LEN * RANDOM_RANGE
        spec["trained_at"] = TRAIN_LEN * multiple
        if multiple > 1:
            spec["curriculum"] = (f"steps/2 at {TRAIN_LEN} (batch {SCHEDULE['batch']}), then steps/2 at "
                                  f"{TRAIN_LEN * multiple}, one optimizer and schedule")
        spec["batch"] = SCHEDULE["batch"] // multiple  # equal tokens per step
        return dict(common, kind="train", **spec)
    spec = dict(FINE_TUNES[name])
    ft = dict(FINE_TUNE, steps=QUICK["ft_steps"] if quick else FINE_TUNE["steps"])
    converge = dict(FT_LADDER, schedules=(QUICK["ft_steps"], QUICK["ft_steps"] * 2)) if quick else FT_LADDER
    return dict(common, kind="fine-tune", position="rope", rope_base=BASE, base_model="rope",
                base_model_hash=config_hash("rope", quick), fine_tune=dict(ft, length=TRAIN_LEN * ft["multiple"]),
                converge=converge, **spec)


def config_hash(name: str, quick: bool) -> str:
    """12 hex digits of sha256 over `settings` and `code_hash`: in every JSON and checkpoint name."""
    text = json.dumps(dict(settings(name, quick), name=name, code=code_hash()), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


# --- models ------------------------------------------------------------------------

def build(config: dict, seed: int) -> TinyDecoder:
    """A fresh model, its weights drawn from `seed`; position tables have 8L rows (16L with randomized positions)."""
    torch.manual_seed(seed)
    rows = config.get("position_range") or TRAIN_LEN * MULTIPLES[-1]
    return TinyDecoder(VOCAB_SIZE, config["position"], max_len=rows, trained_len=TRAIN_LEN,
                       rope_base=config["rope_base"], scaled_tokens=config.get("scaled_tokens"),
                       **{key: config[key] for key in SHAPE})


def checkpoint(name: str, seed: int, quick: bool, directory: Path) -> Path:
    """Where the trained weights of `name` and `seed` are kept; the name carries the configuration hash."""
    return directory / f"{name}__seed{seed}__{config_hash(name, quick)}.pt"


def loss_curve(losses: list[float], every: int = 50) -> list[float]:
    """The mean loss of each block of `every` steps (the JSON's loss curve)."""
    return [round(float(np.mean(losses[i:i + every])), 4) for i in range(0, len(losses), every)]


def trained(name: str, seed: int, quick: bool, directory: Path, force: bool) -> tuple[TinyDecoder, dict | None]:
    """(model, training record) of `name` for `seed`: loaded from its checkpoint (unless `force`), else trained."""
    config = settings(name, quick)
    model = build(config, seed)
    path = checkpoint(name, seed, quick, directory)
    if path.exists() and not force:
        state = torch.load(path)
        model.load_state_dict(state["weights"])
        return model, state["training"]
    length, schedule = config["trained_at"], config["schedule"]
    positions = None
    if config["random_positions"]:
        positions = (config["position_range"], torch.Generator().manual_seed(POSITION_SEED + seed))

    def check(m):  # validation accuracy at the trained length, at positions drawn as in training
        return evaluate(m, length, EVAL["validation_prompts"], seed=VALIDATION_SEED,
                        max_position=config.get("position_range"))["accuracy"]

    generator = torch.Generator().manual_seed(seed)
    if length == TRAIN_LEN:
        losses, checks = train(model, length, schedule["steps"], config["batch"], schedule["lr"], generator,
                               schedule["warmup"], check=check, check_every=schedule["check_every"],
                               positions=positions)
    else:  # the oracle: the first half of the budget at L, the second at its length (equal tokens per step)
        half = schedule["steps"] // 2 + 1  # the step that first meets the longer prompts
        losses, checks = train(model, TRAIN_LEN, schedule["steps"], SCHEDULE["batch"], schedule["lr"], generator,
                               schedule["warmup"], check=check, check_every=schedule["check_every"],
                               switch=(half, length, config["batch"]))
    record = dict(steps=len(losses), learned_step=learned_step(checks, LEARNED_AT), checks=checks,
                  loss_curve=loss_curve(losses), loss_first=round(float(np.mean(losses[:50])), 4),
                  loss_last=round(float(np.mean(losses[-50:])), 4))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    torch.save(dict(weights=model.state_dict(), training=record), partial)
    os.replace(partial, path)
    return model, record


# --- reading a model at every length -------------------------------------------------

def speeds_for(model: TinyDecoder, spec: dict, length: int) -> None:
    """Give a RoPE model the speeds `spec` (an entry of STRETCH_EVALS) prescribes at `length`.

    With a KV cache ("cache") each key keeps the speeds of the step that cached it: "prompt" prefills
    up to the copy (T − b) and decodes the copy; "stream" prefills L tokens and decodes the rest. Position
    p read at the speeds of step max(p + 1, prefill) gives that decode's logits: a table, a row per position.
    """
    method = spec["method"]
    factor = spec.get("factor") or max(1.0, length / TRAIN_LEN)
    kwargs = dict(ramp=spec.get("ramp", "library"), temperature=spec.get("temperature"))
    if spec.get("cache"):
        prefill = length - COPY if spec["cache"] == "prompt" else TRAIN_LEN
        rows = []
        for p in range(length):
            speeds, attention = stretched_speeds(method, model.d_head, model.rope_base, TRAIN_LEN, factor,
                                                 max(p + 1, prefill), **kwargs)
            rows.append(speeds)
        model.set_rope_speeds(np.stack(rows), attention)
        return
    model.set_rope_speeds(*stretched_speeds(method, model.d_head, model.rope_base, TRAIN_LEN, factor, length,
                                            **kwargs))


def measure(model: TinyDecoder, config: dict, spec: dict | None = None, ablate: bool = False,
            max_position: int | None = None) -> dict:
    """Every metric at every length, training layout and grid cells; `spec` sets RoPE speeds first (None: as
    it is); `ablate` adds the head ablations; `max_position` reads at random positions."""
    table = {}
    prompts = config["eval"]["prompts"]
    for length in config["eval_lengths"]:
        if spec is not None:
            speeds_for(model, spec, length)
        cell = evaluate(model, length, prompts, diagnostics=True, max_position=max_position)
        cell["grid"] = {}
        for placement in PLACEMENTS:
            for passage in GRID_PASSAGES:
                if passage <= length - 1 - COPY:
                    cell["grid"][f"{placement}-{passage}"] = evaluate(model, length, config["eval"]["grid_prompts"],
                                                                      placement, passage, max_position=max_position)
        for distance in DISTANCES:
            if distance < length - 1 - COPY:  # d = T − 1 − b is far-8's cell
                cell["grid"][f"gap-{distance}"] = evaluate(model, length, config["eval"]["grid_prompts"], "gap",
                                                           distance=distance, max_position=max_position)
        if ablate:
            cell["ablation"] = ablations(model, length, min(prompts, ABLATION_PROMPTS))
        table[str(length)] = {k: round(v, 6) if isinstance(v, float) else v for k, v in cell.items()}
    return table


def ablations(model: TinyDecoder, length: int, prompts: int) -> dict:
    """Accuracy on the first `prompts` training-distribution prompts with nothing zeroed ("none"), each
    head zeroed alone ("layer.head", from 0) and each layer's heads zeroed together ("layer.*")."""
    out = {"none": round(evaluate(model, length, prompts)["accuracy"], 6)}
    for layer, block in enumerate(model.blocks):
        for heads, key in [((h,), f"{layer}.{h}") for h in range(block.n_heads)] + \
                [(tuple(range(block.n_heads)), f"{layer}.*")]:
            block.ablated = heads
            try:
                out[key] = round(evaluate(model, length, prompts)["accuracy"], 6)
            finally:
                block.ablated = ()
    return out


def run_one(name: str, seed: int, quick: bool, checkpoints: Path, force: bool) -> dict:
    """Train (or fine-tune) `name` with `seed` and read it every way the suite reads it; the JSON record."""
    torch.set_num_threads(1)  # deterministic and fair: one core per process
    start = time.perf_counter()
    config = settings(name, quick)
    evals = {}
    if config["kind"] == "train":
        model, training = trained(name, seed, quick, checkpoints, force)
        if config["position"] == "rope":
            chosen = {k: STRETCH_EVALS[k] for k in READINGS.get(name, ("default",))}
            for key, spec in chosen.items():
                ablate = key in ABLATED and name in ("rope", "rope-randpos")
                evals[key] = dict(spec=spec, lengths=measure(model, config, spec, ablate=ablate))
        else:
            evals["default"] = dict(spec=None, lengths=measure(model, config, ablate=True))
        seeds = dict(init=seed, train_prompts=seed, validation=VALIDATION_SEED, eval=EVAL_SEED)
        if config["random_positions"]:
            seeds["positions"] = POSITION_SEED + seed
            spec = STRETCH_EVALS["default"] if config["position"] == "rope" else None
            evals["random"] = dict(spec=spec, positions=f"sorted random subsets of 0..{config['position_range'] - 1}",
                                   lengths=measure(model, config, spec, max_position=config["position_range"]))
    else:
        base, base_training = trained("rope", seed, quick, checkpoints, False)
        ft, method, factor, converge = config["fine_tune"], config["method"], config["factor"], config["converge"]
        spec = dict(method=method, factor=factor)
        training = dict(base_model_steps=base_training["steps"], ladder=[])
        for steps in (ft["steps"], *(s for s in converge["schedules"] if s != ft["steps"])):
            model = build(config, seed)
            model.load_state_dict(base.state_dict())
            speeds_for(model, spec, ft["length"])  # the speeds at the fine-tune length (dynamic: its own rule)
            losses, _ = train(model, ft["length"], steps, ft["batch"], ft["lr"],
                              torch.Generator().manual_seed(FINE_TUNE_SEED + seed), ft["warmup"])
            window = round(float(np.mean(losses[-converge["window"]:])), 4)
            reached = window <= converge["criterion"]
            record = dict(steps=len(losses), loss_curve=loss_curve(losses, 20),
                          loss_first=round(float(np.mean(losses[:20])), 4),
                          loss_last=round(float(np.mean(losses[-20:])), 4), loss_window=window, reached=reached)
            training["ladder"].append(dict(steps=steps, loss_window=window))
            readings = (["tuned"] if steps == ft["steps"] else []) + \
                (["converged"] if reached or steps == converge["schedules"][-1] else [])
            if not readings:
                continue
            lengths = measure(model, config, spec)
            for reading in readings:
                training[reading], evals[reading] = record, dict(spec=spec, lengths=lengths)
            if "converged" in readings:
                if method != "dynamic":  # past its length, a stretch that follows it
                    follow = dict(method=method)
                    evals["converged-follow"] = dict(spec=follow, lengths=measure(model, config, follow))
                break
        seeds = dict(init=seed, train_prompts=seed, fine_tune_prompts=FINE_TUNE_SEED + seed,
                     validation=VALIDATION_SEED, eval=EVAL_SEED)
    return dict(name=name, seed=seed, config=config, config_hash=config_hash(name, quick), seeds=seeds,
                provenance=provenance(), wall_seconds=round(time.perf_counter() - start, 2), training=training,
                metrics=dict(accuracy="exact match of each scored next token of the copy",
                             nll="mean -ln p(right token), nats", margin="right logit minus the largest other",
                             entropy="attention entropy of the scored query rows, nats, per layer and head",
                             max_logit="largest pre-softmax attention score of a scored row, per layer and head"),
                evals=evals)


def result_path(out: Path, name: str, seed: int) -> Path:
    return Path(out) / f"{name}__seed{seed}.json"


def is_current(path: Path, name: str, quick: bool) -> bool:
    """A result that exists and was made with today's configuration (else it is re-run)."""
    if not path.exists():
        return False
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("config_hash") == config_hash(name, quick)
    except (OSError, json.JSONDecodeError):
        return False


def _job(args: tuple) -> tuple[str, int, float]:
    """One (name, seed, quick, out, checkpoints, force) in a worker: run it, write its JSON; (name, seed, seconds)."""
    name, seed, quick, out, checkpoints, force = args
    path = result_path(Path(out), name, seed)
    if is_current(path, name, quick) and not force:
        return name, seed, 0.0
    record = run_one(name, seed, quick, Path(checkpoints), force)
    write_json(path, record)
    default = record["evals"].get("default") or record["evals"]["tuned"]
    accuracy = {n: round(v["accuracy"], 2) for n, v in default["lengths"].items()}
    print(f"  {name} seed {seed}: {record['wall_seconds']:.0f} s, accuracy {accuracy}", flush=True)
    return name, seed, record["wall_seconds"]


def _fail(message: str) -> None:
    print(f"experiments.run: {message}", file=sys.stderr)
    raise SystemExit(2)


def parse_seeds(values: list[str]) -> list[int]:
    """Seeds from the command line: distinct non-negative integers, or one line and exit code 2."""
    seeds = []
    for value in values:
        if not value.isdigit():
            _fail(f"--seeds takes non-negative integers (e.g. --seeds 0 1 2 3 4); got {value!r}")
        seeds.append(int(value))
    if len(set(seeds)) != len(seeds):
        _fail(f"--seeds lists a seed twice: {' '.join(values)}")
    return seeds


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few steps of everything (plumbing check)")
    parser.add_argument("--seeds", nargs="+", default=[str(s) for s in DEFAULT_SEEDS])
    parser.add_argument("--only", nargs="+", default=None, help="result names (default: all)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--checkpoints", type=Path, default=CHECKPOINTS, help="where trained weights are kept")
    parser.add_argument("--force", action="store_true", help="retrain and re-run everything, checkpoints included")
    parser.add_argument("--jobs", type=int, default=2, help="processes in parallel (2 at most on this machine)")
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    chosen = args.only or names()
    unknown = [n for n in chosen if n not in names()]
    if unknown:
        _fail(f"unknown name {unknown[0]!r}; accepted: {', '.join(names())}")
    # trained models first, longest first (the fine-tunes reuse the rope checkpoints)
    order = ["rope-d64", "rope", "nope-l4", "rope-oracle", "rope-base10", "alibi-h8", "alibi", "rope-randpos",
             "learned-randpos"]
    first = sorted((n for n in chosen if n in MODELS), key=lambda n: (n not in order, order.index(n) if n in order
                                                                      else 0))
    if any(n in FINE_TUNES for n in chosen) and "rope" not in first:
        first.append("rope")  # a fine-tune needs the rope checkpoint; its result is written too
    phases = [first, [n for n in chosen if n in FINE_TUNES]]
    started = time.perf_counter()
    seconds: dict[str, float] = {}
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for phase in phases:
            jobs = [(n, s, args.quick, str(args.out), str(args.checkpoints), args.force) for n in phase for s in seeds]
            for name, _seed, spent in pool.imap_unordered(_job, jobs):
                seconds[name] = seconds.get(name, 0.0) + spent
    wall = time.perf_counter() - started
    print(f"\nwall time {wall:.0f} s ({args.jobs} processes); run time per result, summed over seeds (0 = kept):")
    for name in phases[0] + phases[1]:
        print(f"  {name}: {seconds.get(name, 0.0):.0f} s")
    if wall > 1 and any(seconds.values()):
        write_json(Path(args.out) / "suite.json", dict(wall_seconds=round(wall, 1), jobs=args.jobs, seeds=seeds,
                                                       names=phases[0] + phases[1], quick=args.quick,
                                                       provenance=provenance()))


if __name__ == "__main__":
    main()
