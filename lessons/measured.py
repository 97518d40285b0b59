r"""
# Measured, not quoted: tiny trained models past their trained length

Run it: `python -m lessons.measured` prints every result with its interval
and every ranking this page states; `make experiments` trains the models
again (CPU, about 31 minutes on 2 cores, resumable; torch is an optional
extra). Builds on `lessons.positional` (learned, sinusoidal and RoPE
positions), `lessons.alibi` (ALiBi and NoPE) and `lessons.context_extension`
(every way to stretch RoPE).

## Level 1: the practitioner's guide

**In one sentence.** Small decoders trained at 32 tokens on a copy task, five
seeds each, show what breaks past the trained length and which detail of
each method decides it: a learned table answers only while the fact sits on
trained rows, RoPE's retrieval head loses its focus, ALiBi fades with the
total length, and of the ways to stretch RoPE without training only YaRN
holds to 8L, because its released code keeps the fastest pairs' speeds and
sharpens attention.

**When you need it.** When you weigh claims such as "ALiBi extrapolates",
"dynamic NTK beats a raised base" or "YaRN works without fine-tuning" and
want to know which part of a method does the work; when you choose between
stretching a checkpoint as it is and paying for a fine-tune; when a
long-context evaluation looks fine on average and you wonder whether the
failures depend on where the fact sits or on how long the prompt is.

**Your options.** Every number is exact-match accuracy, the mean over five
seeds with its 95% bootstrap interval, at twice (2L) or eight times (8L) the
trained length; Level 2 names the comparison behind each verdict.

| Option | What it does | What it gives you here | What it costs | Where it lives |
|---|---|---|---|---|
| Learned table | One trained vector per position, up to L | 0.34 [0.33, 0.34] at 2L; 0.85 [0.78, 0.92] at 8L when the fact sits in the first positions | Rows past L are never trained: a fact there is lost | GPT-2's `n_positions`, BERT's `max_position_embeddings` |
| Sinusoidal codes | Fixed codes added to the input | 0.28 [0.27, 0.28] at 2L | Codes past L were never seen in training | The 2017 Transformer |
| RoPE as trained | Rotates queries and keys by position | 0.28 [0.23, 0.37] at 2L, 0.01 [0.01, 0.01] at 8L | Angles past L were never seen | `rope_theta` |
| ALiBi | A distance penalty per head | 0.85 [0.83, 0.87] at 2L, 0.17 [0.10, 0.25] at 8L | Fades with the prompt's length, near facts included | BLOOM, MPT (`alibi_bias_max`) |
| NoPE | No positions; only the causal mask | Did not learn the task in the budget: 0.22 [0.18, 0.27] at L | Nothing to stretch | Llama 4 and SmolLM3 layers (`no_rope_layers`) |
| Position interpolation | Divides every pair's speed by the stretch | 0.36 [0.28, 0.44] at 2L untrained; after a fine-tune at 4L, 0.96 [0.94, 0.97] there and 0.05 [0.03, 0.07] at 8L | The fine-tune, and it slows the fastest pair too | `rope_type` linear |
| NTK-aware | Raises the base | 0.56 [0.48, 0.65] at 2L untrained; 0.81 [0.80, 0.82] at 8L after a fine-tune at 4L | Its stretch is a dial: more helps longer prompts and costs some accuracy at L | a larger `rope_theta` |
| YaRN | Keeps fast pairs, divides slow ones, sharpens attention | 0.96 [0.94, 0.99] at 2L and 0.70 [0.63, 0.77] at 8L untrained; 0.19 [0.16, 0.21] at 8L after the fine-tune | The released code's ramp matters: the paper's printed one gives 0.47 [0.38, 0.56] at 2L | `rope_type` yarn |
| Dynamic NTK | Raises the base with the current length | 0.86 [0.82, 0.91] at 2L untrained; 0.82 [0.77, 0.87] with a KV cache | Keys cached at another length: 0.64 [0.57, 0.73] when a conversation grows past L token by token | `rope_type` dynamic |

**How to choose.**

- A RoPE checkpoint read at up to 8L, no training budget: YaRN with the
  released code's ramp and temperature (0.70 at 8L against at most 0.07 for
  any other method without training).
- "Dynamic beats a raised base" is a statement about the stretch, not the
  method: at 2L dynamic NTK is exactly NTK-aware scaling at stretch 5, and a
  raised base at stretch 5 scores the same 0.86. Choose the stretch, then
  choose whether it follows the length.
- A fine-tune budget: tune at the target length with NTK-aware or dynamic
  scaling; position interpolation and YaRN, tuned with a factor of 4, fall to
  0.05 and 0.19 at 8L while NTK-aware keeps 0.81 and dynamic at factor 1
  keeps 0.92.
- Evaluate with the fact both near and far, in a short and a long prompt:
  the learned table and RoPE fail by position, ALiBi by total length, and an
  average hides which.

**What it costs.** The suite, 70 runs (14 models, five seeds), took 31
minutes on 2 cores, 61 core-minutes added up. Every scheme trains for the
same 4,000 steps of 1,024 tokens; a fine-tune is 400 steps of the same size,
a tenth of the training steps. The stretching methods cost nothing at run
time here except dynamic NTK with a cache, which loses 0.04 at 2L.

**What breaks.**

- **Reading a cliff as a slope.** RoPE goes from 1.00 at L to 0.28 at 2L and
  0.01 at 8L; the answer's log-loss goes from 0.0 to 6.1 nats at 2L.
- **Trusting a fine-tune past its length.** Tuned at 4L with factor 4,
  position interpolation falls from 0.96 at 4L to 0.05 at 8L.
- **Copying the formula from the paper.** YaRN with the ramp printed in the
  paper scores 0.47 at 2L; with the released code's ramp, 0.96. They differ
  only in how fast the two fastest pairs turn.
- **Blaming distance.** A learned table finds a fact 247 tokens back (0.85
  at 8L) when the fact sits on trained rows, and misses one 8 tokens back
  when it does not (0.01).
- **Believing one seed, or a median.** One of the five oracle seeds did not
  learn its task; every number here is a mean over five seeds with its
  interval, and a ranking is stated only when its paired interval excludes
  zero.

**In the wild.** The configurations map to config keys that real models set
(`lessons.model_card` decodes them): learned tables in GPT-2 and BERT, ALiBi
in BLOOM and MPT, RoPE everywhere else, YaRN in Qwen2.5, DeepSeek-V3 and
gpt-oss, dynamic scaling as a serving option, NoPE layers in Llama 4 and
SmolLM3.

**Go deeper.** Level 2 gives the task and its grid, how the intervals are
computed, every result, the ablations that explain them, and what a 2-layer
model trained on one synthetic task cannot tell you about a 7B model.

## Level 2: how it works, from scratch

## The task: copy what came before, wherever it sits

**Everyday picture.** Someone reads you a list of words, buried in a
stream of noise words, then starts repeating a stretch of the list and
stops; you say the next word. You can only do it if you remember which word
came after which, wherever in the stream the list was.

**Tiny worked example.** A prompt of 20 tokens: `BOS ~ ~ k q z a m w r t ~ k q z a m w r t`,
where `~` are filler tokens from their own small alphabet. The passage
`k q z a m w r t` is copied after a second stretch of filler; from the
copy's second token on, the next token is exact (after `k` comes `q`),
so 7 places are scored per prompt. In training the passage has a random
length (8 to 23 tokens at L = 32) and the filler is split at random before
and after it, so the passage can start anywhere: a token's place does not
tell its role. The evaluation grid fixes what training mixes:
*near* puts all filler first and copies the passage's last 8 tokens, so the
fact is 8 tokens back at any length; *far* puts all filler between passage
and copy, so the fact is as far back as the prompt allows; the passage has
8 or 23 tokens.

**The math.** Beside exact match, the suite records the answer's negative
log-likelihood, which does not saturate at 0 or 1:

$$\text{NLL}(T) = -\frac{1}{7N} \sum_{n=1}^{N} \sum_{j=1}^{7} \ln p_\theta\left(x_{n,j} \mid \text{prompt}_n, \text{copy}_{n,<j}\right)$$

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $T$ | tokens per prompt | 32 at L, up to 256 |
| $N$ | evaluation prompts per length | 256 (128 per grid cell) |
| $j$ | a scored place of the copy | 7 per prompt |
| $x_{n,j}$ | the right next token | `q` after `k` |
| $p_\theta$ | the model's probability | |

**In words:** the average surprise, in nats, at the right answer; 0 is
certainty, and a guess among the passage's a tokens costs $\ln a$.

**With the numbers:** a guesser that knows the answer is a passage token but
not which is right with probability 1/a and pays ln a nats; averaged over
a = 8 … 23, that is 0.07 and 2.69 nats.

```mermaid
flowchart TB
    A["BOS, filler, passage, filler"] --> B["copy of 8 passage tokens"]
    B --> C["score 7 next tokens:<br/>exact match, NLL, margin"]
    C --> D["at $$L$$, $$2L$$, $$4L$$, $$8L$$:<br/>training layout<br/>and the grid (near/far<br/>× 8/23 tokens)"]
```

**Reading it:** every model meets the same prompts; only the length and the
grid cell change between measurements, so a drop is the position scheme's
doing, and near against far says whether it is position or distance.

**In Python:**

```python
from lessons.measured import (
    eval_lengths,
    load_results,
    seeds_of,
    uniform_guesser,
)

results = load_results()
eval_lengths(results)  # → [32, 64, 128, 256]
len(results), sum(len(runs) for runs in results.values())  # → (14, 70)
seeds_of(results, "rope")  # → [0, 1, 2, 3, 4]
[round(v, 2) for v in uniform_guesser(results)]  # → [0.07, 2.69]
```

**In code:** `load_results` reads the committed JSON files (experiments/results/,
one per model and seed, each with its configuration, its hash, the commit,
the seeds, the versions, the CPU and BLAS, the loss curve and every metric);
`eval_lengths` lists the lengths; `seeds_of` the seeds; `uniform_guesser`
the floor a position-free guess reaches.

**Why it matters.** The task has an exact answer at every scored token, and
the grid sets distance, distractors and length independently, so "works",
"breaks" and "why" are numbers, not impressions of fluent text.

## How two numbers are compared

**Tiny worked example.** YaRN scores 0.96 at 2L and dynamic NTK 0.86. Both
read the same five trained models, so the comparison is made seed by seed:
five differences, one per seed, and their mean, +0.10. Resampling the five
differences with replacement 10,000 times gives the range in which 95% of
those resampled means fall, 0.07 to 0.13. Zero is outside it, so the page
may say YaRN beats dynamic NTK at 2L; where zero is inside, it says the two
are not told apart.

**The math.**

$$\bar{\Delta} = \frac{1}{S} \sum_{s=1}^{S} \left(a_s - b_s\right), \qquad \text{interval} = \left[q_{2.5\%}, q_{97.5\%}\right] \text{ of } \bar{\Delta}^{*}$$

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $S$ | training seeds | 5 |
| $a_s$, $b_s$ | the two methods' accuracy on seed $s$'s model | 0.96 and 0.86 on average |
| $\bar{\Delta}$ | the mean paired difference | +0.10 |
| $\bar{\Delta}^{*}$ | the same mean over seeds drawn with replacement | 10,000 draws |

**In words:** the interval covers how much the verdict moves when other
seeds are trained; the evaluation prompts are the same for every seed, so
their randomness is not part of it.

**With the numbers:** the five per-seed differences average +0.10, and the
middle 95% of the resampled means runs from +0.07 to +0.13.

**In Python:**

```python
from lessons.measured import (
    BOOTSTRAP_DRAWS,
    RANKINGS,
    interval,
    load_results,
    paired,
    ranking_holds,
)

results = load_results()
BOOTSTRAP_DRAWS  # → 10000
interval(results, "rope:yarn", 64), interval(results, "rope:dynamic", 64)
# → ((0.96, 0.94, 0.99), (0.86, 0.82, 0.91))
paired(results, "rope:yarn", "rope:dynamic", 64)  # → (0.1, 0.07, 0.13)
len(RANKINGS), all(ranking_holds(results, r) for r in RANKINGS)  # → (16, True)
```

**In code:** `bootstrap_interval` resamples the seeds; `interval` quotes a
mean with it; `paired` does the same for a difference of two readings of
the same seeds; `RANKINGS` lists every ranking this page states, and
`ranking_holds` checks each one's interval excludes zero (the tests fail if
a re-run reverses one); `reproduces` checks them on the seeds of another
run.

**Why it matters.** With five seeds, an unpaired comparison of two means
can hide a consistent gap or invent one; pairing by seed removes what the
two readings share, the trained weights.

## Five schemes at one budget

**Tiny worked example.** All five models have 2 layers, width 64 and 4
heads, and train for the same 4,000 steps of 32 prompts of 32 tokens. RoPE
first reached 98% on the validation prompts at 1,000 to 1,250 steps, the
learned table at 1,500 to 2,250; ALiBi reached it in three seeds of five,
sinusoidal codes in none (0.95 to 0.97 at the end), NoPE in none. Past L,
ALiBi keeps 0.85 at 2L, the learned table 0.34, RoPE and sinusoidal codes
0.28; at 8L every scheme is below 0.2.

**In Python:**

```python
from lessons.measured import (
    TRAINED,
    budget,
    final_validation,
    interval,
    learned_steps,
    load_results,
    paired,
)

results = load_results()
learned_steps(results, "rope"), learned_steps(results, "learned")
# → ([1250, 1250, 1000, 1000, 1250], [1750, 1500, 2250, 1750, 2250])
learned_steps(results, "alibi"), final_validation(results, "sinusoidal")
# → ([None, 2250, None, 3000, 3000], [0.97, 0.95, 0.97, 0.95, 0.96])
budget(results, "rope"), budget(results, "rope-ft-ntk")
# → ((4000, 1024), (400, 1024))
at_2L = [interval(results, s, 64) for s in TRAINED]
at_2L[:3]  # → [(0.34, 0.33, 0.34), (0.28, 0.27, 0.28), (0.28, 0.23, 0.37)]
at_2L[3:]  # → [(0.85, 0.83, 0.87), (0.05, 0.05, 0.06)]
interval(results, "nope", 32), interval(results, "nope", 32, "nll", digits=1)
# → ((0.22, 0.18, 0.27), (3.7, 3.5, 3.9))
paired(results, "alibi", "learned", 64), paired(results, "learned", "rope", 64)
# → ((0.51, 0.48, 0.53), (0.06, -0.03, 0.11))
interval(results, "alibi", 256), interval(results, "rope", 256)
# → ((0.17, 0.1, 0.25), (0.01, 0.01, 0.01))
```

![Exact-match accuracy against prompt length from L to 8L for models trained at L = 32 tokens with a learned table, sinusoidal codes, RoPE, ALiBi and no positions; means over five seeds with 95% intervals shaded; ALiBi declines slowly, the others fall at 2L, NoPE stays low throughout](figures/measured.schemes.svg)

**Reading it:** at 2L ALiBi is ahead of the learned table by 0.51 [0.48,
0.53] and of RoPE by more; the learned table and RoPE are not told apart
(0.06 [−0.03, 0.11]). At 8L ALiBi keeps 0.17, everything else about 0.01 to
0.03.

**In code:** `learned_steps` reads when each seed first met the criterion and
`final_validation` where it ended; `budget` gives steps and tokens per step;
`interval` and `paired` give the numbers; `figures()` draws the "schemes"
panel.

**Why it matters.** With one budget for all, a difference is the scheme's,
not its training time's. NoPE here did not learn the task at L (0.22): above
the position-free guesser's 0.07 but with a worse log-loss, 3.7 nats against
its 2.69. Every prompt starts with a BOS token it could count from, and 4,000
steps were still not enough; no other size or budget was tried, so this page
says nothing about whether NoPE generalises.

## Position or distance: the grid

**Tiny worked example.** At 2L with an 8-token passage, the learned table
finds the fact 0.93 of the time when it sits at the start of the prompt
(far: 55 tokens back, on trained rows) and 0.03 when it sits at the end
(near: 8 tokens back, on untrained rows). RoPE shows the same direction,
0.75 far against 0.04 near. ALiBi at 4L does not care where the fact is:
0.35 near against 0.33 far with 23 passage tokens.

**In Python:**

```python
from lessons.measured import (
    alibi_far_penalty,
    cell_difference,
    interval,
    load_results,
)

results = load_results()
(
    interval(results, "learned", 64, cell="far-8"),
    interval(results, "learned", 64, cell="near-8"),
)
# → ((0.93, 0.88, 0.97), (0.03, 0.01, 0.04))
(
    interval(results, "learned", 256, cell="far-8"),
    interval(results, "learned", 256, cell="near-8"),
)
# → ((0.85, 0.78, 0.92), (0.01, 0.01, 0.01))
(
    interval(results, "rope", 64, cell="far-8")[0],
    interval(results, "rope", 64, cell="near-8")[0],
)
# → (0.75, 0.04)
cell_difference(results, "rope", 64, "far-8", "near-8")  # → (0.71, 0.57, 0.81)
(
    interval(results, "alibi", 128, cell="near-23")[0],
    interval(results, "alibi", 128, cell="far-23")[0],
)
# → (0.35, 0.33)
cell_difference(results, "alibi", 128, "near-23", "far-23")
# → (0.02, -0.08, 0.08)
interval(results, "alibi", 256, cell="near-8")  # → (0.08, 0.03, 0.15)
alibi_far_penalty(4, 32), alibi_far_penalty(4, 256)
# → ((0.125, 8.0), (1.0, 64.0))
```

![Two panels, 23 passage tokens: exact-match accuracy against prompt length when the fact is 8 tokens back (top) and as far back as the prompt allows (bottom), for the five schemes with 95% intervals; the learned table and RoPE do far better in the bottom panel, ALiBi falls on both](figures/measured.grid.svg)

**Reading it:** for the learned table the fact's position decides: at 8L it
still finds a fact 247 tokens back on trained rows (0.85), and misses one 8
tokens back on untrained rows. RoPE also does better with the passage near
the start, by 0.71 [0.57, 0.81] at 2L, so for RoPE too it is not the
distance that fails. ALiBi's near and far are not told apart at 4L (0.02
[−0.08, 0.08]), and even a fact 8 tokens back is found only 0.08 of the time
at 8L: what it loses with is the total length. Its gentlest head
(slope 1/256) subtracts only 0.125 from a key L back and 1.0 from one 8L
back, so that head weighs hundreds of filler tokens almost like the fact
(its attention spreads, as the attention section shows).

**In code:** `cell_difference` pairs two grid cells of one model by seed;
`alibi_far_penalty` gives the gentlest and steepest heads' penalty at a distance.

**Why it matters.** The earlier suite's layout put the passage at fixed
places, so a learned table seemed to "find facts in the first L positions";
with the passage anywhere, the grid shows what it needs is the passage on
trained rows, wherever the question is. Why RoPE fails near but not far is
not measured here; the attention section shows what changes inside.

## Controls: an oracle, randomized positions, a realistic base

**Tiny worked example.** Three models bound the others. An *oracle* spends
half its 4,000 steps at L and half at 8L (same tokens per step); trained at
8L from the start it learned nothing, and in one seed of five it failed even
so, which leaves its mean at 8L at 0.81 with a wide interval, [0.42, 1.00].
*Randomized positions* (Ruoss et al., 2023: each training prompt gets a
sorted random subset of positions 0 … 8L − 1) did not learn the task in the
budget, for RoPE (0.23 at L) or the learned table (0.07). A RoPE model at
*base 10*, where 6 of its 8 pairs turn fully within L as 46 of 64 do in
Llama 2 7B, learns the task and then no method rescues it without training:
YaRN gives 0.30 at 2L, against 0.96 at base 10,000.

**In Python:**

```python
from lessons.context_extension import rope_wavelengths
from lessons.positional import rope_frequencies
from lessons.measured import (
    interval,
    learned_steps,
    load_results,
    paired,
    values,
)

results = load_results()
learned_steps(results, "rope-oracle"), interval(results, "rope-oracle", 256)
# → ([3000, 3000, None, 3250, 3000], (0.81, 0.42, 1.0))
values(results, "rope-oracle", 256).round(2)  # → [1.0, 1.0, 0.04, 1.0, 1.0]
turning = [
    int((rope_wavelengths(rope_frequencies(d, b)) <= n).sum())
    for d, b, n in ((128, 1e4, 4096), (16, 10.0, 32), (16, 1e4, 32))
]
turning  # → [46, 6, 2]
(
    interval(results, "rope-randpos", 32)[0],
    interval(results, "learned-randpos", 32)[0],
)
# → (0.23, 0.07)
(
    interval(results, "rope-base10:yarn", 64),
    paired(results, "rope:yarn", "rope-base10:yarn", 64),
)
# → ((0.3, 0.26, 0.35), (0.66, 0.62, 0.7))
```

![Exact-match accuracy against prompt length for RoPE, RoPE with randomized positions, the learned table, the learned table with randomized positions and the RoPE oracle, means over five seeds with 95% intervals; the oracle stays near 0.8 to 8L with a wide band, the randomized-position models stay low everywhere](figures/measured.controls.svg)

**Reading it:** the oracle shows the task is learnable at 8L by this model
(four seeds of five at 1.00); the randomized-position models never learned
it, so they say nothing about length here.

**In code:** the models are experiments/run.py's `rope-oracle`,
`rope-randpos`, `learned-randpos` and `rope-base10`; `paired` compares
models trained from the same seeds.

**Why it matters.** At base 10,000 with 8 pairs, only 2 pairs turn fully in
32 tokens, far fewer than in a real model; the base-10 control says the
no-training results below are the favourable case, and a real checkpoint
should be measured, not assumed to behave like these.

## Stretching RoPE without training

**Tiny worked example.** The RoPE models trained at 32 tokens are read at
64, 128 and 256 tokens with the speeds each method gives for that stretch
(2, 4, 8), straight from `lessons.context_extension.rope_inv_freq`; dynamic
NTK uses its config factor 4 and recomputes its base for every length. At
2L: YaRN 0.96, dynamic NTK 0.86, NTK-aware 0.56, position interpolation
0.36. At 8L only YaRN keeps most of the task, 0.70.

**In Python:**

```python
from lessons.measured import interval, load_results, paired

results = load_results()
interval(results, "rope:linear", 64), interval(results, "rope:ntk", 64)
# → ((0.36, 0.28, 0.44), (0.56, 0.48, 0.65))
interval(results, "rope:yarn", 64), interval(results, "rope:dynamic", 64)
# → ((0.96, 0.94, 0.99), (0.86, 0.82, 0.91))
max(
    interval(results, r, 256)[0]
    for r in ("rope:linear", "rope:ntk", "rope:dynamic", "rope:ntk-s29")
)
# → 0.07
(
    interval(results, "rope", 32, "nll", digits=1),
    interval(results, "rope", 256, "nll", digits=1),
)
# → ((0.0, 0.0, 0.0), (9.2, 9.0, 9.4))
paired(results, "rope:ntk", "rope:linear", 64)  # → (0.2, 0.11, 0.28)
interval(results, "rope:yarn", 128), interval(results, "rope:yarn", 256)
# → ((0.85, 0.81, 0.89), (0.7, 0.63, 0.77))
(
    interval(results, "rope:yarn", 256, "nll", digits=1),
    interval(results, "rope", 64, "nll", digits=1),
)
# → ((2.8, 2.2, 3.4), (6.1, 5.2, 6.7))
```

![Exact-match accuracy against prompt length for the RoPE model as trained and stretched by position interpolation, NTK-aware scaling, YaRN and dynamic NTK without any training, means over five seeds with 95% intervals](figures/measured.stretched.svg)

**Reading it:** every method leaves L untouched (its stretch is 1 there);
at 2L the order is YaRN, dynamic, NTK-aware, position interpolation, each
gap a paired interval that excludes zero; at 8L YaRN's log-loss is 2.8 nats
where RoPE as trained pays 9.2.

**In code:** `interval` with `"rope:<method>"` reads the evaluation-only
readings of the same checkpoints.

**Why it matters.** The YaRN paper reports NTK-aware scaling as better than
position interpolation on models that were not fine-tuned, and YaRN as
better still (`papers.peng2023_yarn`); the order holds here. The next three
sections take apart why.

## Dynamic NTK is NTK-aware at another stretch

**Tiny worked example.** Dynamic scaling with factor 4 raises the base for
a stretch of 4 · T / L − 3: 5 at 2L, 13 at 4L, 29 at 8L. Read in one pass,
that is NTK-aware scaling with those stretches, the same speeds to the last
digit, and the same accuracy: 0.86 at 2L either way. A sweep of the
raised base's stretch at 2L gives 0.56, 0.75, 0.86, 0.91, 0.94, 0.97 for
s = 2, 3, 5, 8, 13, 29, while a large stretch costs a little at L (0.95 at
s = 13). What dynamic does that a fixed base does not is change the speeds
as the prompt grows, and that costs something once keys are cached: 0.82
when a prompt is read in one pass and the copy is decoded token by token,
0.64 when the conversation grew past L one token at a time.

**In Python:**

```python
from lessons.context_extension import dynamic_ntk_stretch
from lessons.measured import interval, load_results, ntk_sweep, paired

results = load_results()
[dynamic_ntk_stretch(4.0, n, 32) for n in (64, 128, 256)]
# → [5.0, 13.0, 29.0]
interval(results, "rope:dynamic", 64), interval(results, "rope:ntk-s5", 64)
# → ((0.86, 0.82, 0.91), (0.86, 0.82, 0.91))
paired(results, "rope:dynamic", "rope:ntk", 64)  # → (0.31, 0.24, 0.37)
[interval(results, f"rope:ntk-s{s}", 64)[0] for s in (2, 3, 5, 8, 13, 29)]
# → [0.56, 0.75, 0.86, 0.91, 0.94, 0.97]
interval(results, "rope:ntk-s13", 32)  # → (0.95, 0.93, 0.98)
(
    interval(results, "rope:dynamic-cache", 64),
    interval(results, "rope:dynamic-stream", 64),
)
# → ((0.82, 0.77, 0.87), (0.64, 0.57, 0.73))
(
    paired(results, "rope:dynamic", "rope:dynamic-cache", 64),
    paired(results, "rope:dynamic", "rope:dynamic-stream", 64),
)
# → ((0.04, 0.03, 0.06), (0.22, 0.17, 0.28))
(
    round(max(mean for _, mean, _, _ in ntk_sweep(results, 128)), 2),
    round(max(mean for _, mean, _, _ in ntk_sweep(results, 256)), 2),
)
# → (0.39, 0.07)
```

![Exact-match accuracy against the stretch of a raised base from 2 to 29 on a log scale, at 2L, 4L and 8L, with dynamic NTK's reading at each length drawn as a star that lands on the NTK-aware curve at stretch 5, 13 and 29](figures/measured.ntk_sweep.svg)

**Reading it:** each star sits on its length's curve: dynamic NTK is a
point of the NTK sweep. At 4L and 8L no stretch of a raised base recovers
the task (0.39 at best, s = 29 at 4L).

**In code:** `dynamic_ntk_stretch` (in `lessons.context_extension`) gives dynamic's stretch;
`ntk_sweep` collects the sweep at one length; the cached readings
(`rope:dynamic-cache`, `rope:dynamic-stream`) give each position the speeds
of the step that computed it, which the tests check against a real
token-by-token decode with a KV cache.

**Why it matters.** The earlier suite ranked dynamic NTK above a raised base
at 2L; that ranking still holds (0.31 [0.24, 0.37]), but it is the
difference between stretch 5 and stretch 2, not between two mechanisms, and
a fixed base at stretch 5 matches it. The cost dynamic scaling was said to
have, keys cached at another length, is now measured.

## YaRN taken apart

**Tiny worked example.** YaRN changes two things: it divides the slow
pairs' speeds by the stretch and keeps the fast ones (with a ramp between),
and it multiplies the scores by a temperature, (0.1 ln s + 1)². At d_head
16, base 10,000 and L = 32 no pair turns 32 times in training, so the
released code's ramp (linear in the pair index) keeps pair 0 whole and
applies half the change to pair 1; the ramp printed in the paper (linear in the
number of turns) keeps only 13% and 2% of them. Both leave the other six
pairs identical. Swap the ramp and YaRN falls from 0.96 to 0.47 at 2L;
remove the temperature and it falls from 0.70 to 0.37 at 8L, while the
temperature added to position interpolation or NTK-aware changes them by
at most 0.02.

**In Python:**

```python
from lessons.context_extension import yarn_printed_ramp
from lessons.positional import rope_frequencies
from lessons.measured import interval, load_results, paired

results = load_results()
[
    round(float(1 - g), 2)
    for g in yarn_printed_ramp(rope_frequencies(16, 10000.0), 32)[:2]
]
# → [0.13, 0.02]
(
    interval(results, "rope:yarn-printed", 64),
    paired(results, "rope:yarn", "rope:yarn-printed", 64),
)
# → ((0.47, 0.38, 0.56), (0.49, 0.41, 0.58))
interval(results, "rope:yarn-notemp", 256)  # → (0.37, 0.28, 0.46)
(
    paired(results, "rope:yarn", "rope:yarn-notemp", 256),
    paired(results, "rope:yarn", "rope:yarn-notemp", 64),
)
# → ((0.33, 0.26, 0.41), (0.01, -0.0, 0.02))
(
    paired(results, "rope:linear-temp", "rope:linear", 64),
    paired(results, "rope:ntk-temp", "rope:ntk", 64),
)
# → ((-0.02, -0.03, -0.01), (0.01, 0.0, 0.02))
```

![Bars of exact-match accuracy at 2L, 4L and 8L for YaRN with the released ramp and temperature, without temperature, with the printed ramp with and without temperature, position interpolation with and without YaRN's temperature, and NTK-aware with and without it; the released ramp carries YaRN at every length, the temperature matters at 8L](figures/measured.yarn_parts.svg)

**Reading it:** the ramp is what separates YaRN from the rest at 2L; the
temperature adds nothing there (0.01 [−0.00, 0.02]) and a third of the task
at 8L. Neither part alone rescues another method.

**In code:** `yarn_printed_ramp` (in `lessons.context_extension`) is Eq. 11
as printed; the readings `rope:yarn-printed`, `rope:yarn-notemp`,
`rope:linear-temp` and `rope:ntk-temp` are experiments/run.py's ablations.

**Why it matters.** The two ramps differ only in pairs 0 and 1, so the 0.49
is what those two pairs' speeds are worth: this model's copy depends on its
two fastest pairs turning as in training. Position interpolation's loss is
consistent with that (it slows every pair, pair 0 included, by the
stretch), and so is NTK-aware's partial hold (a raised base leaves pair 0's
speed, base⁰ = 1, alone). `papers.peng2023_yarn` compares the
two ramps for Llama 2.

## A short fine-tune at four times the length

**Tiny worked example.** Each seed's RoPE model is trained for 400 more
steps on prompts of 128 tokens with stretch 4, then read at every length
with that stretch (dynamic NTK keeps its rule). At 4L all recover: 0.96 for
position interpolation, 1.00 for the others. At 8L they part: NTK-aware
0.81, dynamic NTK 0.87, dynamic NTK at factor 1 0.92, YaRN 0.19, position
interpolation 0.05. Dynamic at factor 1 is tuned at exactly NTK-aware's
stretch (4 at 4L) and differs from it only past 4L, where it raises the
base further: it beats the fixed base by 0.11 [0.09, 0.13] at 8L.

**In Python:**

```python
from lessons.measured import interval, load_results, paired

results = load_results()
tuned = ("linear", "ntk", "yarn", "dynamic", "dynamic-f1")
[interval(results, f"rope-ft-{m}", 128)[0] for m in tuned]
# → [0.96, 1.0, 1.0, 1.0, 1.0]
interval(results, "rope-ft-ntk", 256), interval(results, "rope-ft-yarn", 256)
# → ((0.81, 0.8, 0.82), (0.19, 0.16, 0.21))
(
    interval(results, "rope-ft-linear", 128),
    interval(results, "rope-ft-linear", 256),
)
# → ((0.96, 0.94, 0.97), (0.05, 0.03, 0.07))
interval(results, "rope-ft-dynamic-f1", 256)  # → (0.92, 0.91, 0.93)
[interval(results, f"rope-ft-{m}", 256)[0] for m in tuned]
# → [0.05, 0.81, 0.19, 0.87, 0.92]
(
    paired(results, "rope-ft-ntk", "rope-ft-linear", 64),
    paired(results, "rope-ft-ntk", "rope-ft-linear", 256),
)
# → ((0.2, 0.16, 0.22), (0.76, 0.73, 0.79))
paired(results, "rope-ft-dynamic-f1", "rope-ft-ntk", 256)
# → (0.11, 0.09, 0.13)
interval(results, "rope-ft-linear", 32)  # → (0.7, 0.69, 0.72)
```

![Exact-match accuracy against prompt length after a 400-step fine-tune at 128 tokens, for position interpolation, NTK-aware, YaRN, dynamic NTK at factor 4 and at factor 1, next to the RoPE model as trained; all reach 4L, only the NTK family holds at 8L](figures/measured.fine_tuned.svg)

**Reading it:** the fine-tune moves the cliff to the length it used for
every method that slows the fast pairs at a fixed factor (position
interpolation, YaRN); the raised base keeps most of the task at twice that
length, and letting the base grow with the prompt keeps more.

**In code:** the "fine_tuned" panel of `figures()`; the models are
`rope-ft-linear`, `rope-ft-ntk`, `rope-ft-yarn`, `rope-ft-dynamic` and
`rope-ft-dynamic-f1`.

**Why it matters.** This is the position-interpolation paper's result at
toy scale, a short fine-tune makes the stretch work
(`papers.chen2023_interpolation`), and its limit: a fixed factor is a new
trained length with a new cliff. One result differs from a paper: the YaRN
paper reports fine-tuning with NTK-aware scaling as worse than with position
interpolation (`lessons.context_extension` cites the section); here it is
better at 2L (0.20 [0.16, 0.22]) and at 8L. The ablations say why at this
size: position interpolation slows the fastest pair, on which this model's
copy depends (the YaRN ramp comparison), and even at L after its fine-tune
it scores 0.70. Whether a 7B model, with many fast pairs, depends on its
fastest pair the same way is not tested here.

## What attention does past the length

**Tiny worked example.** The second layer holds the heads that fetch the
answer. For RoPE as trained, at L their attention on the scored tokens has
an entropy of 0.07 nats, nearly all weight on one key, with a top score of
16.4; at 2L the entropy is 1.91 nats, weight spread over several keys, and
the top score 7.1. YaRN at 8L keeps the focus: 0.69 nats and a
top score of 19.3; without its temperature, 1.99 nats and 10.3.

**In Python:**

```python
from lessons.measured import head_statistic, load_results

results = load_results()
head_statistic(results, "rope", 32), head_statistic(results, "rope", 64)
# → ((0.07, 0.06, 0.08), (1.91, 1.67, 2.14))
(
    head_statistic(results, "rope", 32, "max_logit", digits=1),
    head_statistic(results, "rope", 64, "max_logit", digits=1),
)
# → ((16.4, 15.6, 17.2), (7.1, 6.2, 7.9))
(
    head_statistic(results, "rope:yarn", 256),
    head_statistic(results, "rope:yarn-notemp", 256),
)
# → ((0.69, 0.63, 0.75), (1.99, 1.72, 2.27))
head_statistic(results, "rope:yarn", 256, "max_logit", digits=1)
# → (19.3, 18.5, 20.2)
head_statistic(results, "rope:yarn-notemp", 256, "max_logit", digits=1)
# → (10.3, 9.1, 11.4)
```

![Two panels against prompt length for RoPE as trained, YaRN, YaRN without temperature, the learned table and ALiBi: the second layer's attention entropy rises with length, least for YaRN, and its largest attention score falls for RoPE as trained but rises for YaRN](figures/measured.attention.svg)

**Reading it:** where accuracy falls, the retrieving heads' attention
spreads and their top score drops; YaRN's temperature keeps the score high
at 8L, which is where it adds accuracy.

**In code:** `head_statistic` averages a layer's per-head entropy or largest
score over heads, with its interval over seeds.

**Why it matters.** "The model cannot use far tokens" has a measurable
inside: a retrieval head whose focus dissolves. A stretching method that
keeps the focus keeps the answer.

## What this scale cannot tell you

**Tiny worked example.** Every model has 2 layers, width 64, 4 heads of
width 16, one task and L = 32. At base 10,000 only 2 of its 8 pairs turn
fully in training, which made the no-training stretches look better than
at a realistic base (the controls section); NoPE and randomized positions
did not learn the task in 4,000 steps, so nothing here speaks for or
against them.

**In Python:**

```python
from lessons.context_extension import rope_wavelengths
from lessons.positional import rope_frequencies
from lessons.measured import (
    learned_steps,
    load_results,
    suite_minutes,
    total_seconds,
)

results = load_results()
learned_steps(results, "nope"), learned_steps(results, "sinusoidal")
# → ([None, None, None, None, None], [None, None, None, None, None])
round(total_seconds(results) / 60), round(suite_minutes())  # → (61, 31)
int((rope_wavelengths(rope_frequencies(16, 10000.0)) <= 32).sum())  # → 2
```

**In code:** `learned_steps`, `total_seconds` and `suite_minutes` read the
JSON; experiments/run.py holds the schedule.

**Why it matters.** What carries over is the shape of each mechanism (which
methods keep the fast pairs, which keep attention focused, which fail by
position and which by length); the magnitudes belong to this toy, and a real
checkpoint should be measured at the length it will serve.

## In 20 seconds

- Past its length, a learned table fails by where the fact sits, ALiBi by
  how long the prompt is; the grid (near/far) tells them apart.
- Without training, YaRN holds RoPE to 8L (0.70) because its released ramp
  keeps the fastest pair and its temperature keeps attention focused; the
  printed ramp gives 0.47 at 2L.
- Dynamic NTK is NTK-aware at a larger stretch, and a KV cache costs it.
- After a 400-step fine-tune at 4L, only the NTK family holds at 8L.
- Every number is a mean over five seeds with a bootstrap interval, and a
  ranking is stated only when its paired interval excludes zero.

## Self-test questions

??? question "Why does a learned table find a fact 247 tokens back but miss one 8 tokens back?"
    The far fact sits in the first positions, whose rows were trained; the
    near one sits on rows past 32, which never were. The question's own row
    matters less: the copy looks up the fact by its content.

??? question "Is dynamic NTK better than a raised base?"
    Not as a mechanism: read in one pass it is NTK-aware scaling at stretch
    4 · T / L − 3, and a raised base at that stretch scores the same. It
    differs when the prompt grows, and with a KV cache that costs it.

??? question "What part of YaRN does the work here?"
    The released code's ramp, which keeps the fastest pair turning as in
    training (0.96 against 0.47 at 2L with the printed ramp), and at 8L the
    temperature (0.70 against 0.37 without it).

??? question "Does this page show that NoPE cannot generalise?"
    No: NoPE did not learn the task at the trained length with 2 layers and
    4,000 steps, so there was nothing to generalise. The NoPE paper's
    models and budgets were larger.

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
- Anian Ruoss et al., 2023. *Randomized Positional Encodings Boost Length
  Generalization of Transformers.*
  [arXiv:2305.16843](https://arxiv.org/abs/2305.16843). Training on a
  sorted random subset of a larger range of positions, the control tried here.
- Catherine Olsson et al., 2022. *In-context Learning and Induction Heads.*
  [arXiv:2209.11895](https://arxiv.org/abs/2209.11895). The copy task's
  mechanism, and the sudden jump in training.

## Further reading

- experiments/ in this repository: the task and its grid
  (experiments/tasks.py), the model (experiments/model.py), the loop and
  the evaluation (experiments/train.py) and the suite (experiments/run.py);
  every result is a JSON file you can read, and experiments/reproduction/
  holds one more seed, run separately, on which the rankings at 2L are
  checked.
- `lessons.context_extension`: what each stretching method does, pair by
  pair.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from lessons._palette import CYCLE, GRID, INK, METHOD_LOOKS, SCHEME_LOOKS, Look
from lessons.alibi import alibi_slopes
from lessons.context_extension import dynamic_ntk_stretch

# ---------------------------------------------------------------------------
# 1. The committed results: one JSON per model and seed (experiments/results/)
# ---------------------------------------------------------------------------

RESULTS_DIR = Path(__file__).resolve().parents[1] / "experiments" / "results"
FIGURE_INPUTS = ("experiments/results/*__seed*.json",)  # the figure build re-renders when a result changes
TRAINED = ("learned", "sinusoidal", "rope", "alibi", "nope")
METHODS = ("linear", "ntk", "yarn", "dynamic")
METHOD_NAMES = {"linear": "position interpolation", "ntk": "NTK-aware", "yarn": "YaRN", "dynamic": "dynamic NTK"}
SCHEME_NAMES = {"learned": "learned table", "sinusoidal": "sinusoidal", "rope": "RoPE", "alibi": "ALiBi",
                "nope": "NoPE"}
CELLS = ("near-8", "near-23", "far-8", "far-23")
BOOTSTRAP_DRAWS = 10_000
BOOTSTRAP_SEED = 0


def load_results(directory: Path | None = None) -> dict[str, list[dict]]:
    """Every result of the suite, grouped by name and sorted by seed.

    Args:
        directory: where the JSON files are; default `RESULTS_DIR`.

    Returns:
        {name: [record per seed]}, each record the JSON as written by
        `python -m experiments.run` (the suite's own summary, suite.json, is not a result).
    """
    directory = RESULTS_DIR if directory is None else Path(directory)
    runs: dict[str, list[dict]] = {}
    for path in sorted(directory.glob("*__seed*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        runs.setdefault(record["name"], []).append(record)
    if not runs:
        raise ValueError(f"no results in {directory}: run `make experiments`")
    return {name: sorted(records, key=lambda r: r["seed"]) for name, records in runs.items()}


def eval_lengths(results: dict[str, list[dict]]) -> list[int]:
    """The evaluation lengths, L first: e.g. [32, 64, 128, 256]."""
    first = next(iter(results.values()))[0]
    return [int(n) for n in first["config"]["eval_lengths"]]


def seeds_of(results: dict[str, list[dict]], name: str) -> list[int]:
    """The training seeds of result `name`, in order."""
    return [r["seed"] for r in results[name]]


def _split(reference: str) -> tuple[str, str | None]:
    name, _, reading = reference.partition(":")
    return name, reading or None


def values(results: dict[str, list[dict]], reference: str, length: int, metric: str = "accuracy",
           cell: str | None = None) -> np.ndarray:
    """One number per seed: `metric` of `reference` at `length`.

    Args:
        reference: a result name ("alibi", "rope-ft-ntk") or name:reading for one of the
            evaluation-only readings of a RoPE model ("rope:yarn", "rope:ntk-s5"); a bare name
            means its "default" reading ("tuned" for a fine-tune).
        length: an evaluation length.
        metric: "accuracy", "nll" or "margin" (and, without `cell`, "entropy" or "max_logit",
            which are (layers, heads) per seed).
        cell: None for the training distribution, or a retrieval-grid cell of CELLS.

    Returns:
        (seeds,) array, or (seeds, layers, heads) for the attention diagnostics.
    """
    name, reading = _split(reference)
    records = results[name]
    out = []
    for record in records:
        evals = record["evals"]
        table = evals[reading or ("default" if "default" in evals else "tuned")]["lengths"][str(length)]
        out.append((table["grid"][cell] if cell else table)[metric])
    return np.array(out, dtype=float)


def bootstrap_interval(samples, level: float = 0.95, block: int = 1) -> tuple[float, float, float]:
    """(mean, low, high): the mean over seeds and its percentile bootstrap interval.

    Seeds are resampled with replacement (BOOTSTRAP_DRAWS draws, a fixed generator), so the
    interval covers training randomness: the evaluation prompts are the same for every seed.
    With `block` > 1 the samples are a series whose neighbours are correlated (the loss along one
    text, `lessons.real_model`), and each draw strings together runs of `block` consecutive
    samples from random starts, wrapping past the end to the start (the circular block bootstrap of
    Politis and Romano, 1992), so the interval keeps the correlation within a run. Its bounds are
    then moved away from the mean by √((n − 1) / (n − block)) for n samples: on independent samples
    the circular bootstrap's variance of the mean is (1 − block/n) of the true one (a half with two
    runs per draw), the one-by-one bootstrap's (1 − 1/n), and the factor puts the two on a par.

    Args:
        samples: (seeds,) values, one per training seed, or a series in order.
        level: the interval's coverage.
        block: samples per resampled run; 1 resamples them one by one.

    Returns:
        three floats.
    """
    samples = np.asarray(samples, dtype=float)
    n = len(samples)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    starts = rng.integers(0, n, size=(BOOTSTRAP_DRAWS, -(-n // block)))
    index = (starts[:, :, None] + np.arange(block)).reshape(BOOTSTRAP_DRAWS, -1)[:, :n] % n
    means = samples[index].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    mean = float(samples.mean())
    if block > 1:
        widen = np.sqrt((n - 1) / (n - block))
        low, high = mean - (mean - low) * widen, mean + (high - mean) * widen
    return mean, float(low), float(high)


def _rounded(samples, digits: int) -> tuple[float, float, float]:
    """`bootstrap_interval` of `samples`, each of its three numbers rounded to `digits`."""
    return tuple(round(v, digits) for v in bootstrap_interval(samples))


def interval(results: dict[str, list[dict]], reference: str, length: int, metric: str = "accuracy",
             cell: str | None = None, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of `values` over seeds, rounded to `digits`: how the page quotes a number."""
    return _rounded(values(results, reference, length, metric, cell), digits)


def paired(results: dict[str, list[dict]], a: str, b: str, length: int, metric: str = "accuracy",
           cell: str | None = None, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of a − b, paired by seed: both read the same seed's weights, or weights
    trained from the same seed. A ranking "a beats b" stands when low > 0 (for nll: high < 0)."""
    return _rounded(ranked_difference(results, (a, b, length, metric, cell)), digits)


# The rankings the page states: (better, worse, length, metric, cell). Each is checked by
# `ranking_holds` on the committed results (its paired interval excludes zero), and those at 2L on a
# re-run of one more seed (`reproduces`).
RANKINGS = (
    ("alibi", "learned", 64, "accuracy", None),
    ("alibi", "rope", 64, "accuracy", None),
    ("learned", "learned", 64, "accuracy", ("far-8", "near-8")),
    ("rope", "rope", 64, "accuracy", ("far-8", "near-8")),
    ("rope:yarn", "rope:dynamic", 64, "accuracy", None),
    ("rope:dynamic", "rope:ntk", 64, "accuracy", None),
    ("rope:ntk", "rope:linear", 64, "accuracy", None),
    ("rope:ntk-s5", "rope:ntk", 64, "accuracy", None),
    ("rope:dynamic", "rope:dynamic-cache", 64, "accuracy", None),
    ("rope:dynamic-cache", "rope:dynamic-stream", 64, "accuracy", None),
    ("rope:yarn", "rope:yarn-printed", 64, "accuracy", None),
    ("rope:yarn", "rope:yarn-notemp", 256, "accuracy", None),
    ("rope-ft-ntk", "rope-ft-linear", 64, "accuracy", None),
    ("rope-ft-ntk", "rope-ft-linear", 256, "accuracy", None),
    ("rope-ft-ntk", "rope-ft-yarn", 256, "accuracy", None),
    ("rope-ft-dynamic-f1", "rope-ft-ntk", 256, "accuracy", None),
)


def ranked_difference(results: dict[str, list[dict]], ranking: tuple) -> np.ndarray:
    """better − worse per seed for a ranking; a cell pair (a, b) compares two grid cells of one model."""
    better, worse, length, metric, cell = ranking
    if isinstance(cell, tuple):
        return values(results, better, length, metric, cell[0]) - values(results, worse, length, metric, cell[1])
    if seeds_of(results, _split(better)[0]) != seeds_of(results, _split(worse)[0]):
        raise ValueError(f"{better} and {worse} have different seeds")
    return values(results, better, length, metric, cell) - values(results, worse, length, metric, cell)


def ranking_holds(results: dict[str, list[dict]], ranking: tuple) -> bool:
    """Does the paired interval of a ranking exclude zero in its favour (for nll: lower is better)?"""
    _, low, high = bootstrap_interval(ranked_difference(results, ranking))
    return high < 0 if ranking[3] == "nll" else low > 0


def reproduces(other: dict[str, list[dict]], ranking: tuple) -> bool:
    """On results of other seeds (a re-run: `--seeds N --out DIR`), does every seed order the pair the same way?"""
    diff = ranked_difference(other, ranking)
    return bool(np.all(diff < 0) if ranking[3] == "nll" else np.all(diff > 0))


def cell_difference(results: dict[str, list[dict]], reference: str, length: int, a: str, b: str,
                    metric: str = "accuracy", digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of grid cell a minus cell b for one model, paired by seed."""
    return _rounded(ranked_difference(results, (reference, reference, length, metric, (a, b))), digits)


def uniform_guesser(results: dict[str, list[dict]]) -> tuple[float, float]:
    """(accuracy, nll) of a guesser that knows the answer is a passage token but not which, at L.

    In training the passage has a tokens, a uniform in b..L−1−b (b the copy length): it is right
    with probability 1/a and pays ln a nats. Both are averaged over a.
    """
    first = next(iter(results.values()))[0]["config"]
    copy, trained = first["task"]["copy"], first["train_len"]
    sizes = np.arange(copy, trained - copy)  # b .. L − 1 − b
    return float(np.mean(1 / sizes)), float(np.mean(np.log(sizes)))


def head_statistic(results: dict[str, list[dict]], reference: str, length: int, metric: str = "entropy",
                   layer: int = 1, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) over seeds of a layer's attention diagnostic, averaged over its heads.

    Args:
        metric: "entropy" (nats; 0 is one key, ln T is every key alike) or "max_logit".
        layer: 0 or 1; layer 1, the second, holds the heads that retrieve the answer.
    """
    return _rounded(values(results, reference, length, metric)[:, layer].mean(axis=1), digits)


def learned_steps(results: dict[str, list[dict]], name: str) -> list[int | None]:
    """The step at which each seed first reached the learned criterion at its trained length (None: never)."""
    return [r["training"]["learned_step"] for r in results[name]]


def final_validation(results: dict[str, list[dict]], name: str, digits: int = 2) -> list[float]:
    """Each seed's validation accuracy at its trained length after the last training step."""
    return [round(r["training"]["checks"][-1][1], digits) for r in results[name]]


def budget(results: dict[str, list[dict]], name: str) -> tuple[int, int]:
    """(steps, tokens per step) of a result's training, or of its fine-tune."""
    config = results[name][0]["config"]
    if config["kind"] == "fine-tune":
        ft = config["fine_tune"]
        return ft["steps"], ft["batch"] * ft["length"]
    return config["schedule"]["steps"], config["batch"] * config["trained_at"]


def suite_minutes(directory: Path | None = None) -> float:
    """The wall time of the last full run of the suite (suite.json, written by experiments.run), in minutes."""
    directory = RESULTS_DIR if directory is None else Path(directory)
    return json.loads((directory / "suite.json").read_text(encoding="utf-8"))["wall_seconds"] / 60


def alibi_far_penalty(n_heads: int, distance: int) -> tuple[float, float]:
    """(gentlest, steepest) penalty −m·distance, as positive numbers, that ALiBi adds to a key `distance` back."""
    slopes = alibi_slopes(n_heads)
    return float(slopes.min() * distance), float(slopes.max() * distance)


def total_seconds(results: dict[str, list[dict]]) -> float:
    """The run time of every result added up, in seconds (one core each)."""
    return float(sum(r["wall_seconds"] for records in results.values() for r in records))


# ---------------------------------------------------------------------------
# 2. Figures (figures_build turns each into docs/figures/measured.<name>.svg)
# ---------------------------------------------------------------------------

# A variant of a scheme or method (randomized positions, the oracle, a YaRN without its temperature, ...)
# keeps its base's colour and marker, hollow, with a dash of its own.
VARIANT_DASHES = {"randpos": "--", "oracle": ":", "notemp": "--", "printed": ":", "printed-notemp": (0, (1, 2)),
                  "temp": ":", "f1": "--"}


def look_of(reference: str) -> Look:
    """How a result is drawn on this page, the site's look for it (lessons._palette): a trained scheme's
    ("alibi"), or, for RoPE stretched ("rope:yarn") or fine-tuned stretched ("rope-ft-yarn"), the
    method's; a variant ("rope-randpos", "rope:yarn-notemp", "rope-ft-dynamic-f1") gets its base's
    colour and a hollow marker and a dash of its own (VARIANT_DASHES)."""
    name, looks = reference, SCHEME_LOOKS
    for prefix in ("rope:", "rope-ft-"):
        if reference.startswith(prefix):
            name, looks = reference.removeprefix(prefix), METHOD_LOOKS
    base, _, variant = name.partition("-")
    look = looks[base]
    return Look(look.colour, look.marker, VARIANT_DASHES[variant], hollow=True) if variant else look


def _curve(ax, results, reference, label, cell=None, metric="accuracy"):
    x = np.array(eval_lengths(results))
    points = [bootstrap_interval(values(results, reference, n, metric, cell)) for n in x]
    mean, low, high = (np.array(p) for p in zip(*points, strict=True))
    look = look_of(reference)
    ax.plot(x, mean, **look.line(ms=5), label=label)
    ax.fill_between(x, low, high, color=look.colour, alpha=0.15, lw=0)


def _length_axis(ax, results, ylabel="exact-match accuracy"):
    x = np.array(eval_lengths(results))
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [f"{n // x[0]}L" for n in x])
    ax.minorticks_off()
    ax.set_xlabel("prompt length (L = 32 tokens)")
    ax.set_ylabel(ylabel)
    ax.axvline(x[0], color="grey", ls=":", lw=1)


def _panel(results, references, labels, title, cell=None, metric="accuracy"):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.8), layout="constrained")
    for reference, label in zip(references, labels, strict=True):
        _curve(ax, results, reference, label, cell, metric)
    _length_axis(ax, results, "exact-match accuracy" if metric == "accuracy" else metric)
    if metric == "accuracy":
        ax.set_ylim(-0.03, 1.03)
    ax.set_title(title)
    fig.legend(loc="outside lower center", ncols=2)  # off the data: inside, "best" still covered a band
    return fig


def figures() -> dict:
    """Accuracy against length with 95% bootstrap intervals over seeds: the five schemes, the grid's
    near and far cells, the controls, RoPE stretched without and with a fine-tune, the NTK sweep
    with dynamic's equivalent stretches, and YaRN taken apart."""
    import matplotlib.pyplot as plt

    results = load_results()
    names = [SCHEME_NAMES[s] for s in TRAINED]
    out = {"schemes": _panel(results, TRAINED, names, "Trained at L, read at up to 8L (training layout)")}
    fig, axes = plt.subplots(2, 1, figsize=(6.4, 7.2), sharex=True, sharey=True, layout="constrained")
    for ax, cell, title in zip(axes, ("near-23", "far-23"), ("fact 8 tokens back", "fact as far back as it goes"), strict=True):
        for scheme in TRAINED:
            _curve(ax, results, scheme, SCHEME_NAMES[scheme], cell)
        _length_axis(ax, results)
        ax.set_ylim(-0.03, 1.03)
        ax.set_title(f"23 passage tokens, {title}")
    axes[0].set_xlabel("")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3)
    out["grid"] = fig
    out["controls"] = _panel(results, ("rope", "rope-randpos", "learned", "learned-randpos", "rope-oracle"),
                             ("RoPE", "RoPE, randomized positions", "learned table",
                              "learned, randomized positions", "RoPE oracle (half at 8L)"), "Controls")
    out["stretched"] = _panel(results, ["rope"] + [f"rope:{m}" for m in METHODS],
                              ["RoPE as trained"] + [METHOD_NAMES[m] for m in METHODS],
                              "RoPE stretched, no training")
    out["fine_tuned"] = _panel(results, ["rope"] + [f"rope-ft-{m}" for m in METHODS] + ["rope-ft-dynamic-f1"],
                               ["RoPE as trained"] + [METHOD_NAMES[m] for m in METHODS] + ["dynamic NTK, factor 1"],
                               "RoPE stretched, 400-step fine-tune at 4L")
    out["ntk_sweep"] = _ntk_sweep_figure(results)
    out["yarn_parts"] = _yarn_parts_figure(results)
    out["attention"] = _attention_figure(results)
    return out


ATTENTION_LINES = (("rope", "RoPE as trained"), ("rope:yarn", "YaRN"), ("rope:yarn-notemp", "YaRN, no temperature"),
                   ("learned", "learned table"), ("alibi", "ALiBi"))


def _attention_figure(results):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 1, figsize=(6.4, 7.2), sharex=True, layout="constrained")
    x = np.array(eval_lengths(results))
    for reference, label in ATTENTION_LINES:
        look = look_of(reference)
        for ax, metric in zip(axes, ("entropy", "max_logit"), strict=True):
            mean, low, high = (np.array(v) for v in zip(*[head_statistic(results, reference, n, metric, digits=4)
                                                          for n in x], strict=True))
            ax.plot(x, mean, **look.line(ms=5), label=label)
            ax.fill_between(x, low, high, color=look.colour, alpha=0.15, lw=0)
    for ax, ylabel in zip(axes, ("attention entropy (nats)", "largest attention logit"), strict=True):
        _length_axis(ax, results, ylabel)
    axes[0].set_title("Second layer: how spread its attention is")
    axes[1].set_title("Second layer: its highest score")
    axes[0].set_xlabel("")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2)
    return fig


def ntk_sweep(results: dict[str, list[dict]], length: int) -> list[tuple[float, float, float, float]]:
    """[(s, mean, low, high)] for NTK-aware scaling at every stretch s the suite read at `length`
    (the fixed sweep, "rope:ntk-s…", and s = length / L, "rope:ntk"), sorted by s."""
    trained = eval_lengths(results)[0]
    points = {float(length / trained): "rope:ntk"}
    for reading in results["rope"][0]["evals"]:
        if reading.startswith("ntk-s"):
            points[float(reading[5:])] = f"rope:{reading}"
    return [(s, *bootstrap_interval(values(results, ref, length))) for s, ref in sorted(points.items())]


_SWEEP_LOOKS = (("o", "-"), ("s", "--"), ("^", "-."))


def _ntk_sweep_figure(results):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 5.0), layout="constrained")
    trained = eval_lengths(results)[0]
    # one line per read length (not a method: the cycle's colours, the sweep's own markers and dashes)
    for colour, (marker, dash), length in zip(CYCLE, _SWEEP_LOOKS, eval_lengths(results)[1:], strict=False):
        s, mean, low, high = (np.array(v) for v in zip(*ntk_sweep(results, length), strict=True))
        ax.plot(s, mean, color=colour, marker=marker, ls=dash, ms=5, label=f"NTK-aware at {length // trained}L")
        ax.fill_between(s, low, high, color=colour, alpha=0.15, lw=0)
        dynamic = bootstrap_interval(values(results, "rope:dynamic", length))[0]
        ax.plot([dynamic_ntk_stretch(4.0, length, trained)], [dynamic], marker="*", ms=14, ls="none",
                color=colour, markeredgecolor=INK,
                label=f"dynamic NTK (factor 4) at {length // trained}L")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("stretch s of the raised base (log scale)")
    ax.set_ylabel("exact-match accuracy")
    ax.set_ylim(-0.03, 1.03)
    ax.set_title("NTK-aware scaling at every stretch;\ndynamic NTK is one of its points")
    fig.legend(loc="outside lower center", ncols=2)
    return fig


YARN_PARTS = (("rope:yarn", "YaRN (library ramp, temperature)"), ("rope:yarn-notemp", "library ramp, no temperature"),
              ("rope:yarn-printed", "printed ramp, temperature"), ("rope:yarn-printed-notemp", "printed ramp, none"),
              ("rope:linear", "position interpolation"), ("rope:linear-temp", "PI + temperature"),
              ("rope:ntk", "NTK-aware"), ("rope:ntk-temp", "NTK-aware + temperature"))


def _yarn_parts_figure(results):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 5.4), layout="constrained")
    lengths = eval_lengths(results)[1:]
    width = 0.8 / len(YARN_PARTS)
    hatches = ("", "//", "..", "xx", "\\\\", "--", "oo", "++")
    for k, (reference, label) in enumerate(YARN_PARTS):
        stats = [bootstrap_interval(values(results, reference, n)) for n in lengths]
        mean = np.array([m for m, _, _ in stats])
        err = np.array([[m - lo for m, lo, _ in stats], [hi - m for m, _, hi in stats]])
        ax.bar(np.arange(len(lengths)) + (k - len(YARN_PARTS) / 2 + 0.5) * width, mean, width, yerr=err,
               capsize=2, label=label, hatch=hatches[k], color=look_of(reference).colour, edgecolor=GRID, lw=0.5)
    trained = eval_lengths(results)[0]
    ax.set_xticks(np.arange(len(lengths)), [f"{n // trained}L" for n in lengths])
    ax.set_ylabel("exact-match accuracy")
    ax.set_ylim(0, 1.05)
    ax.set_title("YaRN taken apart: which ramp,\nand whether attention is sharpened")
    fig.legend(ncols=2, loc="outside lower center")
    return fig


# ---------------------------------------------------------------------------
# 3. The terminal walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    """Every result: mean (95% interval over seeds) at each length, then the stated rankings."""
    from lessons._show import banner, say, table

    results = load_results()
    ns = eval_lengths(results)
    banner("Exact-match accuracy, mean over seeds (95% bootstrap interval)")
    rows = []
    for name, records in results.items():
        readings = records[0]["evals"]
        for reading in readings:
            reference = name if reading in ("default", "tuned") else f"{name}:{reading}"
            rows.append([reference, len(records)] + ["{:.2f} ({:.2f}–{:.2f})".format(*interval(results, reference, n))
                                                     for n in ns])
    table(["result", "seeds"] + [f"T={n}" for n in ns], rows)
    banner("The rankings the page states (paired by seed)")
    table(["better", "worse", "T", "metric", "cell", "difference (95%)", "holds"],
          [[b, w, n, m, "/".join(c) if isinstance(c, tuple) else c or "-",
            "{:+.2f} ({:+.2f} to {:+.2f})".format(*bootstrap_interval(ranked_difference(results, ranking))),
            ranking_holds(results, ranking)] for ranking in RANKINGS for b, w, n, m, c in [ranking]])
    say(f"{sum(len(r) for r in results.values())} runs, {total_seconds(results) / 60:.0f} core-minutes in all. "
        "Re-run them with `make experiments`.")


if __name__ == "__main__":
    demo()
