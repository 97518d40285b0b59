r"""
# Measured, not quoted: tiny trained models past their trained length

Run it: `python -m lessons.measured` prints every result as a table; `make
experiments` trains the models again (CPU, about half of the core-minutes
counted below when 2 cores share the runs; torch is an optional extra). Builds on `lessons.positional` (learned, sinusoidal and
RoPE positions), `lessons.alibi` (ALiBi and NoPE) and
`lessons.context_extension` (every way to stretch RoPE).

## Level 1: the practitioner's guide

**In one sentence.** Trained on one task at 32 tokens and read at up to 256,
small decoders show the cliffs the other pages describe: a learned or
sinusoidal table and plain RoPE lose the task past the trained length, ALiBi
loses it slowly, and RoPE stretched by YaRN or dynamic NTK holds to twice the
length without any training, further after a short fine-tune.

**When you need it.** When you weigh claims such as "ALiBi extrapolates",
"position interpolation needs a fine-tune" or "NTK works without one", and
want to see them happen on trained weights rather than read them; when you
choose between stretching a checkpoint as it is and paying for a fine-tune;
when a long-context evaluation looks fine on average and you wonder where in
the prompt the failures sit.

**Your options.** Each row is one configuration of the suite, trained or
stretched the same way for three seeds.

| Option | What it does | What it gives you here | What it costs | Where it lives |
|---|---|---|---|---|
| Learned table | One trained vector per position, up to L | The task at L; past L only facts that sit in the first L positions | Rows past L are never trained | GPT-2's `n_positions`, BERT's `max_position_embeddings` |
| Sinusoidal codes | Fixed codes added to the input | The same cliff as the learned table | Codes past L were never seen in training | The 2017 Transformer |
| RoPE as trained | Rotates queries and keys by position | The task at L; almost nothing past it | Angles past L were never seen | `rope_theta` |
| ALiBi | A distance penalty per head | Slow decline to 8L with no change at all | Far facts fade; a built-in preference for recent tokens | BLOOM, MPT (`alibi_bias_max`) |
| NoPE | No positions; only the causal mask | Did not learn this task at this size | Nothing to stretch | Llama 4 and SmolLM3 layers (`no_rope_layers`) |
| Position interpolation | Divides every pair's speed by the stretch | Little without training; near-perfect to 4L after a short fine-tune | The fine-tune | `rope_type` linear |
| NTK-aware | Raises the base | Little without training; the best at 8L after the fine-tune | The fine-tune | a larger `rope_theta` |
| YaRN | Keeps fast pairs, divides slow ones, sharpens attention | The best without training: holds at 2L, most of 4L | Nothing, or the fine-tune | `rope_type` yarn |
| Dynamic NTK | Raises the base with the current length | Holds at 2L without training, then falls | Keys cached at another length | `rope_type` dynamic |

**How to choose.**

- A RoPE checkpoint to be read at up to twice its length, no training
  budget: YaRN or dynamic NTK, not plain position interpolation or a raised
  base, which lose most of the task here.
- Further than that, or every last point of accuracy: budget a short
  fine-tune at the target length; after it, every method recovered the task
  at the length it was tuned for.
- Far beyond the tuned length, only NTK-aware and dynamic NTK kept most of
  the task here; position interpolation and YaRN, tuned with a factor of 4,
  gave almost nothing at 8L.
- An architecture decision: ALiBi trades some accuracy at the trained length
  for a slow decline; a learned table is the wrong choice for anything longer
  than training.

**What it costs.** The whole suite, 13 configurations of 3 seeds, ran in
about 44 minutes of one CPU core per run added up (measured while other
jobs shared the 2 cores); a fine-tune was a tenth
of a training run. At this size a scheme costs the same per step; what differs
is how many steps it needs to learn the task (`steps_to_learn`).

**What breaks.**

- **Reading a cliff as a slope.** Plain RoPE goes from perfect at L to near
  chance at 2L: there is no gentle degradation to notice in time.
- **Trusting a fine-tune past its length.** After the fine-tune at 4L, the
  fixed-factor methods are perfect at 4L and at zero at 8L.
- **Averaging over the prompt.** A learned table still finds a fact that sits
  in the first L positions of a long prompt and never one past them; ALiBi
  finds near facts better than far ones. Test facts at the start, middle and
  end.
- **Believing one seed.** With a fixed number of steps, whether a small model
  learned this task at all varied with the seed; the suite trains until the
  task is learned (or a cap) and reports the spread.

**In the wild.** The configurations map to config keys that real models set
(`lessons.model_card` decodes them): learned tables in GPT-2 and BERT, ALiBi
in BLOOM and MPT, RoPE everywhere else, YaRN in Qwen2.5, DeepSeek-V3 and
gpt-oss, dynamic scaling as a serving option, NoPE layers in Llama 4 and
SmolLM3.

**Go deeper.** Level 2 gives the task, the models and every result with its
spread, and says what a 2-layer model trained on one synthetic task cannot
tell you about a 7B model reading prose.

## Level 2: how it works, from scratch

## The task: copy what came before

**Everyday picture.** Someone reads you a list of words, then starts
repeating a stretch of it from the middle and stops; you say the next word.
You can only do it if you remember which word came after which.

**Tiny worked example.** A prompt of T = 8 tokens is a passage of 6 distinct
tokens and then a copy of 2 of them: `k q z a m w | z a`. After the second
`z` the answer is `a`, the token that followed `z` in the passage; the copy's
first token is a guess and is not scored. With T = 32 the passage has 24
tokens and 7 tokens are scored per prompt; a bag of tokens cannot answer,
because only order says what came after what.

**The math.** The measure is exact-match accuracy over the scored tokens of
all evaluation prompts:

$$\text{accuracy}(T) = \frac{1}{N (T/4 - 1)} \sum_{n=1}^{N} \sum_{j} \mathbb{1}\left[\hat{x}_{n,j} = x_{n,j}\right]$$

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $T$ | tokens per prompt | 32 at L, up to 256 |
| $N$ | evaluation prompts per length | 256 |
| $j$ | a scored place of the copy | 7 per prompt at T = 32 |
| $\hat{x}_{n,j}$, $x_{n,j}$ | the model's most likely next token, and the right one | |

**In words:** the share of scored next tokens the model gets exactly right;
guessing among the passage's tokens would score about one in 3T/4.

**With the numbers:** at T = 32 each prompt has 32/4 − 1 = 7 scored places,
so 256 prompts give 1,792 scored tokens per measurement.

```mermaid
flowchart LR
    A[passage: 3T/4 distinct tokens] --> B[copy: T/4 tokens from a random place]
    B --> C[score each next token of the copy]
    C --> D[exact-match accuracy at L, 2L, 4L, 8L]
```

**Reading it:** every model sees the same prompts; only the length changes
between the four measurements, so a drop is the position scheme's doing.

**In Python:**

```python
from lessons.measured import eval_lengths, load_results, steps_to_learn

results = load_results()
eval_lengths(results)  # → [32, 64, 128, 256]
len(results), sum(len(runs) for runs in results.values())  # → (13, 39)
steps_to_learn(results, "rope")  # → [2500, 2500, 3000]
```

**In code:** `load_results` reads the committed JSON files
(experiments/results/, one per run, with the configuration, the seed, the
torch and numpy versions, the wall time and every accuracy); `eval_lengths` lists
the evaluation lengths; `steps_to_learn` says how long each seed trained.

**Why it matters.** The task has an exact answer at every scored token, so
"works" and "breaks" are numbers, not impressions of fluent text.

## Five schemes at and past the trained length

**Tiny worked example.** All five models have 2 layers, width 64 and 4
heads, and train at L = 32 until they copy at least 98% of validation tokens
right, or for 8,000 steps. Four of them learned the task; NoPE stayed near
chance, 0.03 at L, in every seed.

**In Python:**

```python
from lessons.measured import load_results, median_accuracy, spread

results = load_results()
[round(median_accuracy(results, name, 32), 2) for name in ("learned", "sinusoidal", "rope", "alibi", "nope")]  # → [1.0, 0.98, 1.0, 0.97, 0.03]
round(median_accuracy(results, "learned", 64), 2), round(median_accuracy(results, "rope", 64), 2)  # → (0.42, 0.1)
round(median_accuracy(results, "alibi", 256), 2), spread(results, "alibi", 256)[0] > 0.75  # → (0.8, True)
```

![Exact-match accuracy against prompt length from 32 to 256 tokens for models trained at 32 tokens with a learned table, sinusoidal codes, RoPE, ALiBi and no positions; medians over three seeds with their range shaded](figures/measured.schemes.svg)

**Reading it:** the learned table and the sinusoidal codes keep a share of the
task at 2L (0.42) and fall towards zero after; RoPE falls at once, to 0.1;
ALiBi starts slightly lower and declines slowly, to 0.8 at 8L; NoPE never
learned the task at L.

**In code:** `median_accuracy` and `spread` give the median and the range
over seeds; `curve` gives them at every length for the figure.

**Why it matters.** These are the cliffs `lessons.positional` and
`lessons.alibi` describe, measured: a scheme that encodes absolute positions
has nothing trained past L, and RoPE's unseen angles cost it even more of
the task than the absolute tables lose. ALiBi's slow decline is the "extrapolation"
the ALiBi paper reports, at the price it also states: far tokens count less.
NoPE's failure is about this model's size and budget, not a verdict on the
NoPE paper, whose models were far larger.

## Stretching RoPE without training

**Tiny worked example.** The RoPE models trained at 32 tokens are read at 64,
128 and 256 tokens with the speeds each method gives for that stretch (factor
2, 4, 8), straight from `lessons.context_extension.rope_inv_freq`; dynamic
NTK recomputes its base for every length. At 2L, YaRN keeps 0.98 of the task
and dynamic NTK 0.92, while position interpolation keeps 0.4 and the raised
base 0.49.

**In Python:**

```python
from lessons.measured import load_results, median_accuracy

results = load_results()
{m: round(median_accuracy(results, f"rope-{m}", 64), 2) for m in ("linear", "ntk", "yarn", "dynamic")}  # → {'linear': 0.4, 'ntk': 0.49, 'yarn': 0.98, 'dynamic': 0.92}
round(median_accuracy(results, "rope-yarn", 128), 2), round(median_accuracy(results, "rope-yarn", 256), 2)  # → (0.88, 0.28)
```

![Exact-match accuracy against prompt length for the RoPE model as trained and stretched by position interpolation, NTK-aware scaling, YaRN and dynamic NTK without any training](figures/measured.stretched.svg)

**Reading it:** every method leaves the trained length untouched (its factor
is 1 there); past it, YaRN is the only one still above half at 4L, dynamic
NTK holds at 2L and then collapses, and the two simple methods recover a
little at 2L only.

**In code:** the figure is `figures()`'s "stretched" panel, drawn from the
same JSON.

**Why it matters.** The YaRN paper reports NTK-aware scaling as better than
position interpolation on models that were not fine-tuned, and YaRN as
better still (`papers.peng2023_yarn`). The ordering holds here, but the
common reading that a raised base "works without fine-tuning" does not: it
kept only about half of the task at 2L.

## A short fine-tune at four times the length

**Tiny worked example.** Each stretched model is trained for 400 more steps
on prompts of 128 tokens with factor 4,
then read at every length with that factor (dynamic NTK keeps its own rule).
All four methods then copy almost perfectly at 4L; at 8L position
interpolation and YaRN give almost nothing (0.0 and 0.02), NTK-aware keeps
0.79 and dynamic 0.76.

**In Python:**

```python
from lessons.measured import load_results, median_accuracy

results = load_results()
{m: round(median_accuracy(results, f"rope-{m}-ft4x", 128), 2) for m in ("linear", "ntk", "yarn", "dynamic")}  # → {'linear': 0.97, 'ntk': 1.0, 'yarn': 1.0, 'dynamic': 1.0}
{m: round(median_accuracy(results, f"rope-{m}-ft4x", 256), 2) for m in ("linear", "ntk", "yarn", "dynamic")}  # → {'linear': 0.0, 'ntk': 0.79, 'yarn': 0.02, 'dynamic': 0.76}
```

![Exact-match accuracy against prompt length after a 400-step fine-tune at 128 tokens, for position interpolation, NTK-aware, YaRN and dynamic NTK, next to the RoPE model as trained](figures/measured.fine_tuned.svg)

**Reading it:** the fine-tune closes the gap up to the length it used; past
it, only NTK-aware and dynamic NTK still answer most of the time. Dynamic's
rule raises its base further as the prompt grows; why a fixed raised base
tolerates twice its tuned length here, when a fixed linear or YaRN factor
does not, this experiment does not say.

**In code:** the "fine_tuned" panel of `figures()`.

**Why it matters.** This is the position-interpolation paper's result at
toy scale, a short fine-tune makes the stretch work
(`papers.chen2023_interpolation`), and its limit: a fine-tuned factor is a
new trained length, with a new cliff behind it. One result disagrees with a
paper: the YaRN paper reports that fine-tuning with NTK-aware scaling gives
worse results than with position interpolation (`lessons.context_extension`
cites the section); here the raised base fine-tuned at least as well at 4L
(1.0 against 0.97) and much better at 8L. At this size that is one
observation, not a refutation.

## Where the fact sits

**Tiny worked example.** The same prompts, but the copied stretch is taken
from the start, the middle or the end of the passage. At 2L a learned table
still copies 1.0 of a stretch from the start, 0.44 from the middle and 0.0
from the end: the start lies inside the 32 trained positions, the end does
not. ALiBi is the other way round at 8L: 0.91 from the end, 0.65 from the
start.

**In Python:**

```python
from lessons.measured import load_results, median_accuracy

results = load_results()
[round(median_accuracy(results, "learned", 64, where), 2) for where in ("start", "middle", "end")]  # → [1.0, 0.44, 0.0]
[round(median_accuracy(results, "alibi", 256, where), 2) for where in ("start", "middle", "end")]  # → [0.65, 0.81, 0.91]
```

![For a learned table, ALiBi and RoPE with YaRN, exact-match accuracy against prompt length when the copied stretch comes from the start, the middle or the end of the passage](figures/measured.needle.svg)

**Reading it:** for the learned table the fact's position decides
everything; for ALiBi distance does, so the nearest fact is the safest; YaRN
without training loses all three views together as the length grows.

**In code:** `accuracies`, `median_accuracy` and `curve` take the needle view
as `where`.

**Why it matters.** An average over prompts hides which facts fail. A
learned table does not "degrade" past L: it answers exactly what sits in
trained positions, which makes a long-prompt benchmark look half fine.

## What this scale cannot tell you

**Tiny worked example.** With a fixed budget of steps and a larger learning
rate, some RoPE seeds tried while building the suite had not yet learned the
task at L, one of them not in 8,000 steps: it is learned in a sudden jump,
and the jump comes later for some seeds. The suite therefore uses a learning
rate of 1e-3 and trains every model until it has learned the task or for
at most 8,000 steps; NoPE used all 8,000 in every seed.

**In Python:**

```python
from lessons.measured import load_results, steps_to_learn, total_seconds

results = load_results()
steps_to_learn(results, "nope")  # → [8000, 8000, 8000]
round(total_seconds(results) / 60)  # → 44
```

**In code:** `steps_to_learn` and `total_seconds` read the JSON;
experiments/run.py holds the schedule.

**Why it matters.** One synthetic task, 2 layers, width 64 and L = 32 are
enough to show mechanisms, not magnitudes: ALiBi's recency bias happens to
suit a copy task, the NoPE result may flip with more layers or steps, and
none of these numbers says how a 7B model reads prose at 128K tokens. What
carries over is the shape: which methods have a cliff, and where it is.

## In 20 seconds

- Trained at 32 tokens, learned, sinusoidal and RoPE positions lose the
  copy task past 32; ALiBi declines slowly; NoPE did not learn it here.
- Without training, YaRN and dynamic NTK stretch RoPE to twice its length;
  position interpolation and a raised base do not.
- A short fine-tune at 4L fixes every method up to 4L and creates a new
  cliff after it.
- Test facts at the start, middle and end: the average hides where they fail.

## Self-test questions

??? question "Why can a learned table still answer at 2L when the fact sits at the start of the prompt?"
    The fact (a token and the one after it) lies in the first 32 positions,
    whose rows were trained; the copy needs only the content of the current
    token to find it. A fact past position 32 sits on untrained rows.

??? question "After a fine-tune at 4L with factor 4, why do position interpolation and YaRN fail at 8L?"
    Their speeds are fixed by the factor: at 8L the slow pairs reach angles
    twice as large as anything in the fine-tune, the same cliff as before,
    moved to 4L.

??? question "Does this page show that NoPE cannot generalise?"
    No: NoPE did not learn the task at the trained length with 2 layers and
    8,000 steps, so there was nothing to generalise. The NoPE paper's models
    were far larger.

## The papers behind this lesson

- Shouyuan Chen et al., 2023. *Extending Context Window of Large Language
  Models via Positional Interpolation.*
  [arXiv:2306.15595](https://arxiv.org/abs/2306.15595). Position
  interpolation and its short fine-tune. Companion:
  `papers.chen2023_interpolation`.
- Bowen Peng, Jeffrey Quesnelle, Honglu Fan, Enrico Shippole, 2023. *YaRN:
  Efficient Context Window Extension of Large Language Models.*
  [arXiv:2309.00071](https://arxiv.org/abs/2309.00071). YaRN, with little or
  no fine-tuning. Companion: `papers.peng2023_yarn`.
- Ofir Press, Noah A. Smith, Mike Lewis, 2021. *Train Short, Test Long:
  Attention with Linear Biases Enables Input Length Extrapolation.*
  [arXiv:2108.12409](https://arxiv.org/abs/2108.12409). ALiBi's
  extrapolation. Companion: `papers.press2021_alibi`.
- Amirhossein Kazemnejad et al., 2023. *The Impact of Positional Encoding on
  Length Generalization in Transformers.*
  [arXiv:2305.19466](https://arxiv.org/abs/2305.19466). NoPE's length
  generalisation. Companion: `papers.kazemnejad2023_nope`.
- Catherine Olsson et al., 2022. *In-context Learning and Induction Heads.*
  [arXiv:2209.11895](https://arxiv.org/abs/2209.11895). The copy task's
  mechanism, and the sudden jump in training.

## Further reading

- experiments/ in this repository: the task (experiments/tasks.py), the
  model (experiments/model.py), the loop and the suite; every result is a
  JSON file you can read.
- `lessons.context_extension`: what each stretching method does, pair by
  pair.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np

# ---------------------------------------------------------------------------
# 1. The committed results: one JSON per run (experiments/results/)
# ---------------------------------------------------------------------------

RESULTS_DIR = Path(__file__).resolve().parents[1] / "experiments" / "results"
TRAINED = ("learned", "sinusoidal", "rope", "alibi", "nope")
METHODS = ("linear", "ntk", "yarn", "dynamic")
METHOD_NAMES = {"linear": "position interpolation", "ntk": "NTK-aware", "yarn": "YaRN", "dynamic": "dynamic NTK"}
WHERE = ("start", "middle", "end")


def load_results(directory: Path | None = None) -> dict[str, list[dict]]:
    """Every run of the suite, grouped by configuration and sorted by seed.

    Args:
        directory: where the JSON files are; default `RESULTS_DIR`.

    Returns:
        {configuration name: [record per seed]}, each record the JSON as written
        by `python -m experiments.run`.
    """
    directory = RESULTS_DIR if directory is None else Path(directory)
    runs: dict[str, list[dict]] = {}
    for path in sorted(directory.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        runs.setdefault(record["config"]["name"], []).append(record)
    if not runs:
        raise ValueError(f"no results in {directory}: run `make experiments`")
    return {name: sorted(records, key=lambda r: r["seed"]) for name, records in runs.items()}


def eval_lengths(results: dict[str, list[dict]]) -> list[int]:
    """The evaluation lengths, L first: e.g. [32, 64, 128, 256]."""
    first = next(iter(results.values()))[0]
    return [int(n) for n in first["config"]["eval_lengths"]]


def accuracies(results: dict[str, list[dict]], name: str, length: int, where: str | None = None) -> list[float]:
    """The accuracy of every seed of configuration `name` at `length` (the needle view `where` if given)."""
    records = results[name]
    if where is None:
        return [r["accuracy"][str(length)] for r in records]
    return [r["needle"][where][str(length)] for r in records]


def median_accuracy(results: dict[str, list[dict]], name: str, length: int, where: str | None = None) -> float:
    """The median over seeds of `accuracies`."""
    return statistics.median(accuracies(results, name, length, where))


def spread(results: dict[str, list[dict]], name: str, length: int, where: str | None = None) -> tuple[float, float]:
    """(lowest, highest) accuracy over seeds."""
    values = accuracies(results, name, length, where)
    return min(values), max(values)


def curve(results: dict[str, list[dict]], name: str, where: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(median, lowest, highest) at each evaluation length, each an array with one entry per evaluation length."""
    points = [accuracies(results, name, n, where) for n in eval_lengths(results)]
    return (np.array([statistics.median(p) for p in points]), np.array([min(p) for p in points]),
            np.array([max(p) for p in points]))


def steps_to_learn(results: dict[str, list[dict]], name: str) -> list[int | None]:
    """The training steps each seed of a trained scheme used (it stops once it has learned the task at L)."""
    return [r["config"].get("steps_used") for r in results[name]]


def total_seconds(results: dict[str, list[dict]]) -> float:
    """The wall time of every run added up, in seconds (one core each)."""
    return float(sum(r["wall_seconds"] for records in results.values() for r in records))


# ---------------------------------------------------------------------------
# 2. Figures (figures_build turns each into docs/figures/measured.<name>.svg)
# ---------------------------------------------------------------------------


def _panel(ax, results, names, labels, where=None):
    x = np.array(eval_lengths(results))
    for name, label in zip(names, labels):
        median, low, high = curve(results, name, where)
        line, = ax.plot(x, median, "o-", label=label)
        ax.fill_between(x, low, high, color=line.get_color(), alpha=0.15, lw=0)
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [f"{n}\n({n // x[0]}L)" for n in x])
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("prompt length (tokens)")
    ax.set_ylabel("exact-match accuracy")
    ax.axvline(x[0], color="grey", ls=":", lw=1)
    ax.legend(fontsize=7, loc="lower left")


def figures() -> dict:
    """Accuracy against length: the five schemes, RoPE stretched without and with a
    fine-tune, and the needle views; medians over seeds, shaded from lowest to highest."""
    import matplotlib.pyplot as plt

    results = load_results()
    out = {}
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    _panel(ax, results, TRAINED, ["learned table", "sinusoidal", "RoPE", "ALiBi", "NoPE"])
    ax.set_title("Trained at L = 32 tokens, read at up to 8L")
    fig.tight_layout()
    out["schemes"] = fig
    for suffix, title in (("", "RoPE stretched, no fine-tune"), ("-ft4x", "RoPE stretched, 10% fine-tune at 4L")):
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        _panel(ax, results, ["rope"] + [f"rope-{m}{suffix}" for m in METHODS],
               ["RoPE as trained"] + [METHOD_NAMES[m] for m in METHODS])
        ax.set_title(title)
        fig.tight_layout()
        out["stretched" if not suffix else "fine_tuned"] = fig
    fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.4), sharey=True)
    for ax, name, label in zip(axes, ("learned", "alibi", "rope-yarn"), ("learned table", "ALiBi", "RoPE + YaRN")):
        x = np.array(eval_lengths(results))
        for where in WHERE:
            median, low, high = curve(results, name, where)
            line, = ax.plot(x, median, "o-", label=f"fact at the {where}")
            ax.fill_between(x, low, high, color=line.get_color(), alpha=0.15, lw=0)
        ax.set_xscale("log", base=2)
        ax.set_xticks(x, [f"{n // x[0]}L" for n in x])
        ax.set_ylim(-0.03, 1.03)
        ax.set_title(label)
        ax.set_xlabel("prompt length")
    axes[0].set_ylabel("exact-match accuracy")
    axes[0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    out["needle"] = fig
    return out


# ---------------------------------------------------------------------------
# 3. The terminal walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    """The table of every configuration: median (lowest–highest) at each length."""
    from lessons._show import banner, say, table

    results = load_results()
    ns = eval_lengths(results)
    banner("Exact-match accuracy, median over seeds (lowest to highest)")
    rows = []
    for name, records in results.items():
        rows.append([name, len(records)] + [f"{median_accuracy(results, name, n):.2f} "
                                             f"({spread(results, name, n)[0]:.2f}–{spread(results, name, n)[1]:.2f})"
                                             for n in ns])
    table(["configuration", "seeds"] + [f"T={n}" for n in ns], rows)
    say(f"{len(results)} configurations, {sum(len(r) for r in results.values())} runs, "
        f"{total_seconds(results) / 60:.0f} core-minutes in all. Re-run them with `make experiments`.")


if __name__ == "__main__":
    demo()
