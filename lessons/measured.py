r"""
# Measured, not quoted: tiny trained models past their trained length

Run it: `python -m lessons.measured` prints every result with its interval
and every ranking this page states; `make experiments` trains the models
again (CPU, under an hour on 2 cores, resumable; torch is an optional
extra). Builds on `lessons.positional` (learned, sinusoidal and RoPE
positions), `lessons.alibi` (ALiBi and NoPE) and `lessons.context_extension`
(every way to stretch RoPE).

## Level 1: the practitioner's guide

**In one sentence.** Small decoders trained at 32 tokens on a copy task,
five seeds each, show what breaks past the trained length and which
detail of each method decides it: a learned table answers only while the
fact sits at the start of the prompt, where facts sat in training
⟨learned-rows⟩; ALiBi with 4 heads falls as the prompt grows, wherever the
fact sits ⟨alibi-length⟩, and with 8 heads keeps a fact at the start
⟨alibi-eight-start⟩; RoPE does both, keeping a fact at the start better than
any other and losing even that one as the prompt grows ⟨rope-start⟩
⟨rope-start-length⟩; of the ways to stretch RoPE without training YaRN
alone keeps most of the task up to eight times the trained length at one
setting, there mostly on far facts ⟨yarn-near⟩; its released code's ramp
is what an ablation takes away in both head geometries tried ⟨ramp⟩ ⟨ramp-long⟩ ⟨wide-ramp⟩, its
temperature in one of them ⟨temperature⟩ ⟨wide-temp⟩; past its tuning length,
a fine-tune with a fixed factor keeps the task only with NTK-aware
scaling ⟨ft-ntk⟩ ⟨ft-ntk-yarn⟩, and raising the factor to the served
length rescues YaRN and position interpolation ⟨follow⟩ ⟨follow-linear⟩.

**When you need it.** When you weigh claims such as "ALiBi extrapolates",
"dynamic NTK beats a raised base" or "YaRN works without fine-tuning" and
want to know which part of a method does the work; when you choose between
stretching a checkpoint as it is and paying for a fine-tune; when a
long-context evaluation looks fine on average and you wonder whether the
failures depend on where the fact sits or on how long the prompt is.

**Your options.** Every number is exact-match accuracy, the mean over five
seeds and the same prompts, with a 95% interval that counts both the
seeds and the prompts as drawn from many, at twice (2L) or eight times (8L) the trained length; Level 2
names the comparison behind each verdict.

| Option | What it does | What it gives you here | What it costs | Where it lives |
|---|---|---|---|---|
| Learned table | One trained vector per position, up to L | 0.34 [0.28, 0.39] at 2L; 0.87 [0.77, 0.96] at 8L when the fact sits in the first positions | Rows past L are never trained: a fact there is lost | GPT-2's `n_positions`, BERT's `max_position_embeddings` |
| Sinusoidal codes | Fixed codes added to the input | 0.28 [0.23, 0.32] at 2L | Codes past L were never seen in training | The 2017 Transformer |
| RoPE as trained | Rotates queries and keys by position | 0.28 [0.16, 0.39] at 2L, 0.01 [0.0, 0.01] at 8L | Angles past L were never seen | `rope_theta` |
| ALiBi | A distance penalty per head | With 4 heads 0.85 [0.83, 0.88] at 2L, 0.19 [0.06, 0.31] at 8L; with 8 heads 0.50 [0.40, 0.59] at 8L ⟨alibi-heads⟩ | With 4 heads it falls as the prompt grows, the fact near or far; with 8 it keeps a fact at the start ⟨alibi-eight-start⟩ and loses the others more slowly | BLOOM, MPT (`alibi_bias_max`) |
| NoPE | No positions; only the causal mask | With 2 layers it did not learn the task in 4,000 steps: 0.22 [0.15, 0.29] at L; with 4, one seed of five did | Nothing to stretch | Llama 4 and SmolLM3 layers (`no_rope_layers`) |
| Randomized positions | RoPE trained at sorted random positions from 0 to 16L − 1 | Read as trained, 0.9 at L, 0.63 [0.6, 0.66] at 2L and 0.05 at 8L; read at positions 0 to T − 1, 0.11 even at L | Must be read at positions like its training's; at 8L those are eight times as packed as in training | Ruoss et al. 2023; no common config key |
| Position interpolation | Divides every pair's speed by the stretch | 0.35 [0.23, 0.47] at 2L untrained; fine-tuned at 4L to a settled loss, 1.0 [1.0, 1.0] there and 0.08 [0.02, 0.14] at 8L | A longer fine-tune: at 400 steps its loss is still 0.25 to 0.39, where the others' is at most 0.021, and it settles only on a schedule of 1,600 steps (three seeds) or 3,200 (two); it slows the fastest pair too | `rope_type` linear |
| NTK-aware | Raises the base | 0.56 [0.42, 0.7] at 2L untrained; 0.82 [0.79, 0.85] at 8L after the fine-tune at 4L | Its stretch is a dial: more helps longer prompts up to a point (at 2L the sweep peaks and then falls) and costs some accuracy at L | a larger `rope_theta` |
| YaRN | Keeps fast pairs, divides slow ones, sharpens attention ⟨yarn-formula⟩ | 0.96 [0.92, 1.0] at 2L and 0.71 [0.6, 0.82] at 8L untrained (at 8L, 0.43 for a fact 8 tokens back, 0.04 to 0.92 by seed); after the fine-tune at 4L, 0.99 [0.99, 1.0] at 8L with the factor set for 8L | The released code's ramp matters: the paper's printed one gives 0.46 [0.33, 0.59] at 2L ⟨ramp⟩; a tuned factor kept past its length gives 0.17 at 8L ⟨follow⟩ | `rope_type` yarn |
| Dynamic NTK | Raises the base with the current length | 0.86 [0.77, 0.94] at 2L untrained; 0.82 [0.73, 0.91] with a KV cache | Keys cached at another length: 0.64 [0.49, 0.79] when a conversation grows past L token by token | `rope_type` dynamic |

**How to choose.**

- A RoPE checkpoint read at up to 8L, no training budget: YaRN with the
  released code's ramp and temperature (0.71 at 8L; in the toy geometry no
  other method without training passes 0.12 there, NTK-aware at every
  stretch up to 253 included ⟨yarn-eight⟩; with heads of 64 at base 78 a
  raised base picked for each length comes close, 0.78 at 8L, but loses
  0.32 at L ⟨wide-ntk⟩ ⟨wide-ntk-cost⟩), but test near facts: at 8L it finds a fact
  8 tokens back 0.43 of the time ⟨yarn-near⟩. At 2L the best stretch of
  a raised base in the sweep (29, picked on these prompts) is within 0.05
  of YaRN ⟨ntk-tie⟩, and the same base loses 0.04 at L and answers 0.41
  at 4L. At base 10, where most pairs turn within L as in Llama 2, YaRN gives
  only 0.31 at 2L: measure your own checkpoint before trusting either.
- "Dynamic beats a raised base" is a statement about the stretch, not the
  method: at 2L dynamic NTK is exactly NTK-aware scaling at stretch 5, and
  a raised base at stretch 5 scores the same 0.86 ⟨dynamic-stretch⟩.
  Choose the stretch, then choose whether it follows the length.
- A fine-tune budget: tune until the loss settles, not for a fixed number
  of steps (at 400 steps position interpolation's loss is still 0.25 to
  0.39, NTK-aware's and YaRN's below 0.02), and past the tuning length
  raise the factor to the served length, and never read position
  interpolation below its tuned factor: tuned
  at 4L with factor 4, YaRN answers 0.17 at 8L and, with factor 8, 0.99
  ⟨follow⟩; NTK-aware keeps 0.82 with its factor fixed and 0.92 raised
  ⟨follow-ntk⟩; position interpolation read at L with factor 1 answers
  0.0 ⟨follow-below⟩, where NTK-aware and YaRN read so keep 0.99.
- Evaluate with the fact at several distances and the prompt at several
  lengths: the learned table fails when the fact leaves the start of the
  prompt, ALiBi with 4 heads as the prompt grows, RoPE by both, and an average hides
  which ⟨learned-rows⟩ ⟨alibi-length⟩ ⟨rope-start⟩.

![Exact-match accuracy against prompt length from L to 8L for the RoPE model read as trained and read with position interpolation, NTK-aware scaling, YaRN and dynamic NTK, none of them trained further, means over five seeds with 95% intervals shaded: YaRN's line is the one still high at 8L](figures/measured.stretched.svg)

**Reading it:** each line is one way to read the same RoPE models past the 32
tokens they were trained on, with no training at all; the horizontal axis is
the prompt length in multiples of that, the vertical axis the share of the
copied tokens predicted exactly (7 a prompt, each the token that followed
in the passage), the shaded band each line's 95% interval over the
seeds. All start together at L. RoPE read as trained drops at 2L, and so,
more or less slowly, do the stretched readings, except YaRN: at 8L it is the
line still well above the floor, at 0.71, where the figure's other lines
end at 0.07 or below; no stretch of a raised base in Level 2's sweep
(*Dynamic NTK is NTK-aware at another stretch*) passes 0.12 there either
⟨yarn-eight⟩. That is the first bullet of *How to choose*, and the width of
the bands is the case for measuring your own checkpoint.

<div class="primer-explorable" data-explorable="tiny_model" markdown="0"></div>

**Try it:** load one of these RoPE models (of its five seeds, the one in
the middle at 2L) and run it in the page on a prompt drawn as the study
draws them: drag the length from L to 8L read as trained and watch how
many of the 7 copied tokens it gets right, then read it with YaRN. The
field *Copied stretch* holds the passage tokens the copy repeats: type
other ids there (it says which it accepts) and press Enter to see the
model answer on your own prompt.
*Score 20 prompts* sets its share right beside the study's own number for
that setting. The page runs an 8-bit copy of each model: on 32 prompts at
each of L, 2L, 4L and 8L, in every reading, its answers are the trained
model's on at least 95% of the copied tokens (the lengths between are not
checked). The ALiBi and learned-table
models load too; NoPE and sinusoidal stay out, as three models fill the
page's 400 KB for them and NoPE with 2 layers did not learn the task.

**What it costs.** The suite, 90 runs (18 models, five seeds), took 54
minutes on 2 cores that were also running other jobs, 108 core-minutes of
run time added up. Every scheme
trains for the same 4,000 steps of 1,024 tokens; a fine-tune of 400 steps
is a tenth of the training steps and 2.5% of its scored answers, and
position interpolation's settled one, 1,600 or 3,200 steps, 40% or 80% of
the training steps. The stretching methods
cost nothing at run time here except dynamic NTK with a cache, which loses
0.04 at 2L.

**What breaks.**

- **Reading a cliff as a slope.** RoPE goes from 1.00 at L to 0.28 at 2L and
  0.01 at 8L; the answer's log-loss goes from 0.0 to 6.1 nats at 2L.
- **Trusting a fine-tune's factor past its length.** Tuned at 4L with
  factor 4 until its loss settled, position interpolation falls from 1.00
  at 4L to 0.08 at 8L; read there with factor 8, it answers 0.78.
- **Copying the formula from the paper.** YaRN with the ramp printed in the
  paper scores 0.46 at 2L; with the released code's ramp, 0.96. Here the
  two differ only in the two fastest pairs; in Llama 2 7B's geometry both
  keep the 21 fastest pairs whole and differ on 25 others, by up to 1.73
  times at factor 4 ⟨ramp-geometry⟩, so what the ramp is worth there is not
  measured here; with heads of 64, where they differ on 12 pairs, the
  printed ramp gives 0.34 against 0.91 at 2L ⟨wide-ramp⟩.
- **Blaming distance.** At 8L a learned table finds a fact 247 tokens back
  (0.87) when it sits on trained rows, and misses one 119 tokens back
  (0.01) when it does not.
- **Scoring a control as it was never trained.** RoPE trained at random
  positions answers 0.11 at L when read at positions 0 to 31, and 0.9 when
  read at positions drawn as in its training ⟨randpos-reading⟩.
- **Believing one seed, or a median.** Two of the five oracle seeds never
  learned 8L (0.42 and 0.64 there); every number here is a mean over five seeds with its
  interval, and a ranking is stated only when its paired interval excludes
  zero ⟨rule⟩.

**In the wild.** The configurations map to config keys that real models set
(`lessons.model_card` decodes them): learned tables in GPT-2 and BERT, ALiBi
in BLOOM and MPT, RoPE everywhere else, YaRN in Qwen2.5, DeepSeek-V3 and
gpt-oss, dynamic scaling as a serving option, NoPE layers in Llama 4 and
SmolLM3.

**Go deeper.** Level 2 gives the task and its grids, how the intervals are
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
8 or 23 tokens. The *distance grid* adds cells in between: with an 8-token
passage, the fact sits 8, 23, 55, 119 or 247 tokens back in every prompt
long enough to hold it, so at a fixed distance the question moves with the
length, and at a fixed length the fact moves while the question stays.

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
    C --> D["at $$L$$, $$2L$$, $$4L$$, $$8L$$:<br/>training layout,<br/>near/far × 8/23 tokens,<br/>and the distance grid"]
```

**Reading it:** every model meets the same prompts; only the length and the
grid cell change between measurements, so a drop is the position scheme's
doing, and the distance grid says whether it follows where the fact sits,
how far back it is, or how long the prompt is.

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
len(results), sum(len(runs) for runs in results.values())  # → (18, 90)
seeds_of(results, "rope")  # → [0, 1, 2, 3, 4]
[round(v, 2) for v in uniform_guesser(results)]  # → [0.07, 2.69]
```

**In code:** `load_results` reads the committed JSON files (experiments/results/,
one per model and seed, each with its configuration, its hash, the commit,
the seeds, the versions, the CPU and BLAS, the loss curve, every metric and
each prompt's outcome); `eval_lengths` lists the lengths; `seeds_of` the
seeds; `uniform_guesser` the floor a position-free guess reaches.

**Why it matters.** The task has an exact answer at every scored token, and
the grids set distance, distractors and length independently: "works",
"breaks" and what explains them are numbers, not impressions of fluent
text.

## How two numbers are compared

**Tiny worked example.** YaRN scores 0.96 at 2L and dynamic NTK 0.86. Both
read the same five trained models, so the comparison is taken seed by seed:
five differences, one per seed, their mean +0.10, and a 95% t interval
around it, mean ± 2.776 standard errors (Student's t with 4 degrees of
freedom), 0.05 to 0.15. Zero is outside it, so the page may say YaRN beats
dynamic NTK at 2L. Where zero is inside, the two are not told apart; the
page says two readings *do as well* only when a test of equivalence
passes: the 90% t interval of the differences lies within ±0.05 (two
one-sided tests at 5%, with a margin of 0.05 of exact match) ⟨rule⟩. The
headline cells of Level 1 count the prompts as a sample too: every seed
meets the same 256 prompts, so a two-way table of seeds and prompts gives
the mean's variance from both (its mean squares), and the interval uses a
t quantile with Satterthwaite's degrees of freedom; here it is never
narrower than the seeds' t interval alone by more than rounding (that is
a property of these cells, not of the method). The page states 34 paired
comparisons (its rankings and every piece of evidence that is one); each
is tested alone, and all 34 still hold after Holm's correction for the
whole family at 5%. The two with the largest p values, 0.019 and 0.037,
are NTK-aware over position interpolation at 2L without training and
YaRN's far over near facts at 8L.

**The math.**

$$\bar{\Delta} = \frac{1}{S} \sum_{s=1}^{S} \left(a_s - b_s\right), \qquad \text{interval} = \bar{\Delta} \pm t_{0.975,\,S-1} \, \frac{\operatorname{sd}(a_s - b_s)}{\sqrt{S}}$$

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $S$ | training seeds | 5 |
| $a_s$, $b_s$ | the two methods' accuracy on seed $s$'s model | 0.96 and 0.86 on average |
| $\bar{\Delta}$ | the mean paired difference | +0.10 |
| $t_{0.975,\,S-1}$ | Student's t quantile | 2.776 for 4 degrees of freedom |

**In words:** the interval covers how much the verdict moves when other
seeds are trained; a t interval is wider than a percentile bootstrap over
five seeds, which covers less than it claims at that size.

**With the numbers:** the five per-seed differences average +0.10, and the
t interval runs from +0.05 to +0.15.

**In Python:**

```python
from lessons.measured import (
    HEADLINE,
    RANKINGS,
    headline,
    holm_check,
    interval,
    load_results,
    paired,
    ranked_difference,
    ranking_holds,
    ranking_tests,
)
from lessons.tools.intervals import t_quantile, t_test_p

results = load_results()
round(t_quantile(0.975, 4), 3)  # → 2.776
interval(results, "rope:yarn", 64), interval(results, "rope:dynamic", 64)
# → ((0.96, 0.92, 1.0), (0.86, 0.77, 0.94))
paired(results, "rope:yarn", "rope:dynamic", 64)  # → (0.1, 0.05, 0.15)
len(RANKINGS), all(ranking_holds(results, r) for r in RANKINGS)  # → (15, True)
len(HEADLINE)  # → 22
len(ranking_tests()), holm_check(results)  # → (34, (34, []))
p = sorted(t_test_p(ranked_difference(results, t)) for t in ranking_tests())
[round(v, 3) for v in p[-2:]]  # → [0.019, 0.037]
headline(results)[:6]
# → [(0.34, 0.28, 0.39), (0.87, 0.77, 0.96), (0.28, 0.23, 0.32), (0.28, 0.16,
#   0.39), (0.01, 0.0, 0.01), (0.85, 0.83, 0.88)]
headline(results)[6:12]
# → [(0.19, 0.06, 0.31), (0.5, 0.4, 0.59), (0.22, 0.15, 0.29), (0.63, 0.6,
#   0.66), (0.35, 0.23, 0.47), (1.0, 1.0, 1.0)]
headline(results)[12:]
# → [(0.08, 0.02, 0.14), (0.56, 0.42, 0.7), (0.82, 0.79, 0.85), (0.96, 0.92,
#   1.0), (0.71, 0.6, 0.82), (0.99, 0.99, 1.0), (0.46, 0.33, 0.59), (0.86,
#   0.77, 0.94), (0.82, 0.73, 0.91), (0.64, 0.49, 0.79)]
```

**In code:** lessons/tools/intervals.py holds the statistics: `t_interval`
gives a mean and its t interval; `interval`
quotes a reading with it; `paired` does the same for a difference of two
readings of the same seeds; `RANKINGS` lists every ranking this page
states, and `ranking_holds` checks each one's interval excludes zero (the
tests fail if a re-run reverses one); `equivalent` is the test of
equivalence; `two_level_interval` gives the seeds-and-prompts interval,
and
`headline` gives it for each cell of `HEADLINE`, Level 1's table in order.

**Why it matters.** With five seeds, an unpaired comparison of two means
can hide a consistent gap or invent one; pairing by seed removes what the
two readings share, the trained weights, and counting the prompts as a
sample adds what a fixed prompt set hides ⟨rule⟩.

## Five schemes at one budget

**Tiny worked example.** All five models have 2 layers, width 64 and 4
heads, and train for the same 4,000 steps of 32 prompts of 32 tokens. RoPE
first reached 98% on the validation prompts at 1,000 to 1,250 steps, the
learned table at 1,500 to 2,500; ALiBi reached it in three seeds of five,
sinusoidal codes in none (0.95 to 0.97 at the end), NoPE in none. Past L,
ALiBi answers 0.85 at 2L, the learned table 0.34, RoPE and sinusoidal codes
0.28; at 8L every scheme is below 0.2. In RoPE, the learned table and
ALiBi the answer needs both layers: zeroing the second layer's four heads
leaves RoPE at 0.0 at L, zeroing the first leaves it at 0.04 ⟨layers⟩
⟨layers-first⟩. The budget is equal steps, not equal loss: at the end of
training RoPE's loss is 0.0017 to 0.0018, the learned table's 0.0022 to
0.0086, ALiBi's 0.109 to 0.133 and sinusoidal codes' 0.197 to 0.392.

**In Python:**

```python
from lessons.measured import (
    TRAINED,
    ablation,
    budget,
    final_loss,
    final_validation,
    interval,
    learned_steps,
    load_results,
    paired,
)

results = load_results()
learned_steps(results, "rope"), learned_steps(results, "learned")
# → ([1250, 1250, 1000, 1000, 1250], [1500, 1500, 2500, 1750, 2000])
learned_steps(results, "alibi"), final_validation(results, "sinusoidal")
# → ([None, 2750, None, 3000, 3500], [0.97, 0.95, 0.97, 0.95, 0.96])
budget(results, "rope"), budget(results, "rope-ft-ntk")
# → ((4000, 1024), (400, 1024))
at_2L = [interval(results, s, 64) for s in TRAINED]
at_2L[:3]  # → [(0.34, 0.33, 0.35), (0.28, 0.27, 0.29), (0.28, 0.16, 0.39)]
at_2L[3:]  # → [(0.85, 0.83, 0.88), (0.05, 0.04, 0.07)]
interval(results, "nope", 32), interval(results, "nope", 32, "nll", digits=1)
# → ((0.22, 0.15, 0.29), (3.7, 3.4, 4.0))
[final_loss(results, s) for s in ("rope", "learned", "alibi", "sinusoidal")]
# → [(0.0017, 0.0018), (0.0022, 0.0086), (0.1091, 0.1331), (0.1971, 0.3917)]
paired(results, "alibi", "learned", 64), paired(results, "learned", "rope", 64)
# → ((0.52, 0.49, 0.55), (0.06, -0.05, 0.18))
interval(results, "alibi", 256), interval(results, "rope", 256)
# → ((0.19, 0.06, 0.31), (0.01, 0.0, 0.01))
[
    round(float(ablation(results, s, 32, z).mean()), 2)
    for s in ("rope", "learned", "alibi")
    for z in ("none", "1.*", "0.*")
]
# → [1.0, 0.0, 0.04, 1.0, 0.0, 0.02, 0.98, 0.01, 0.01]
```

![Exact-match accuracy against prompt length from L to 8L for models trained at L = 32 tokens with a learned table, sinusoidal codes, RoPE, ALiBi and no positions; means over five seeds with 95% intervals shaded; ALiBi declines slowly, the others fall at 2L, NoPE stays low throughout](figures/measured.schemes.svg)

**Reading it:** at 2L ALiBi is ahead of the learned table by 0.52 [0.49,
0.55] and of RoPE by more; the learned table and RoPE are not told apart
(0.06 [−0.05, 0.18]). At 8L ALiBi answers 0.19, everything else about 0.01 to
0.03.

**In code:** `learned_steps` reads when each seed first met the criterion and
`final_validation` where it ended; `budget` gives steps and tokens per step;
`interval` and `paired` give the numbers; `ablation` reads the accuracy with
heads zeroed (experiments/run.py zeroes each head, and each layer's heads, on
128 prompts); `figures()` draws the "schemes" panel.

**Why it matters.** One budget for all is equal steps, not equal loss: a
scheme that ends training at a higher loss (ALiBi, sinusoidal codes) may
be held back past L by the budget as much as by its positions, and the
page compares schemes at equal steps only. NoPE here did not learn the task at L (0.22): above
the position-free guesser's 0.07 but with a worse log-loss, 3.7 nats against
its 2.69. Every prompt starts with a BOS token it could count from, and 4,000
steps were still not enough. The next section tries 4 layers.

## Three controls: token scale, heads, depth

**Tiny worked example.** Each scheme above differs from the others in one
more detail than its positions, or may be held back by the shared shape;
three controls change that detail, with what comes with it, trained like
the rest (5 seeds, 4,000 steps). *Token scale:* the sinusoidal model
alone draws its token vectors larger and multiplies them by √64 = 8 (its
codes would drown GPT-2's small ones); the learned table given the same
token vectors (its own position table still drawn at 0.02, about a
fiftieth of their size) answers 0.34 at 2L, as without them, though its
training loss ends at 0.11 to 0.21 instead of 0.002 to 0.009. *Heads:*
ALiBi's slopes are fixed by the head count; with 8 heads of width 8
instead of 4 of 16 (slopes 1/2 to 1/256 instead of 1/4 to 1/256) every
seed learns the task, and at 8L it answers 0.50 against 0.19, finding a
fact at the start of the prompt 0.99 to 1.0 of the time in every seed and
one 55 tokens back 0.68 of the time. The gain is 0.11 to 0.43 by seed,
0.24 over the three 4-head seeds that met the criterion at L. *Depth:*
NoPE with 4 layers instead of 2 learned the task in one seed of five
(0.99 at L); the other four stayed at 0.12 to 0.16. The seed that learned
answers 0.74 at 2L and finds a fact at the start 0.97 of the time at 4L
and 0.90 at 8L, the learned table's pattern, and zeroing its last layer
leaves 0.003.

**In Python:**

```python
from lessons.measured import (
    ablation,
    cell_difference,
    final_loss,
    interval,
    learned_steps,
    load_results,
    paired,
    values,
)
from lessons.tools.intervals import equivalent

results = load_results()
paired(results, "learned-scaled", "learned", 64)  # → (-0.0, -0.02, 0.02)
equivalent(
    values(results, "learned-scaled", 64) - values(results, "learned", 64)
)
# → True
paired(results, "learned-scaled", "sinusoidal", 64)  # → (0.06, 0.04, 0.07)
learned_steps(results, "learned-scaled")
# → [3250, 3750, 3500, None, 3750]
learned_steps(results, "alibi-h8")  # → [2250, 2250, 3250, 2750, 2750]
interval(results, "alibi-h8", 256), paired(results, "alibi-h8", "alibi", 256)
# → ((0.5, 0.4, 0.59), (0.31, 0.15, 0.48))
cell_difference(results, "alibi-h8", 256, "far-8", "gap-55")
# → (0.32, 0.21, 0.43)
values(results, "alibi-h8", 256, cell="far-8").round(2).tolist()
# → [1.0, 1.0, 1.0, 1.0, 0.99]
final_loss(results, "learned-scaled"), final_loss(results, "learned")
# → ((0.1105, 0.2074), (0.0022, 0.0086))
gain = values(results, "alibi-h8", 256) - values(results, "alibi", 256)
gain.round(2).tolist(), learned_steps(results, "alibi")
# → ([0.42, 0.11, 0.43, 0.33, 0.27], [None, 2750, None, 3000, 3500])
met = [i for i, step in enumerate(learned_steps(results, "alibi")) if step]
round(float(gain[met].mean()), 2)  # → 0.24
cell_difference(results, "alibi", 256, "far-8", "gap-55")
# → (-0.04, -0.11, 0.03)
round(float(values(results, "alibi-h8", 256, cell="gap-55").mean()), 2)
# → 0.68
[values(results, "nope-l4", n).round(2).tolist() for n in (32, 64)]
# → [[0.16, 0.12, 0.14, 0.99, 0.14], [0.04, 0.03, 0.03, 0.74, 0.03]]
learned_steps(results, "nope-l4")  # → [None, None, None, 3000, None]
[round(float(values(results, "nope-l4", n, cell="far-8")[3]), 2)
 for n in (128, 256)]
# → [0.97, 0.9]
round(float(ablation(results, "nope-l4", 32, "3.*")[3]), 3)  # → 0.003
```

![Exact-match accuracy against prompt length for ALiBi with 4 and with 8 heads, the learned table with its own and with the sinusoidal model's token vectors, and NoPE with 2 and with 4 layers, means over five seeds with 95% intervals; ALiBi with 8 heads stays near 0.5 at 8L where 4 heads fall to about 0.2, the two learned tables lie on one line, and NoPE with 4 layers has a wide band from the one seed that learned](figures/measured.scheme_controls.svg)

**Reading it:** the token scale moves the learned table by less than 0.05
at every length, at equal steps though not equal loss: the two are
equivalent at 2L (a TOST within 0.05) ⟨scaled-tokens⟩,
and with the same token vectors the learned table is still ahead of
sinusoidal codes at 2L by 0.06 [0.04, 0.07]; it does learn more slowly
(3,250 steps or more, one seed never). The head count changes ALiBi past
L: 8 heads answer 0.31 [0.15, 0.48] more at 8L than 4 ⟨alibi-heads⟩, and
with 8 a fact at the start of the prompt is found 0.32 [0.21, 0.43] more
often than one 55 tokens back ⟨alibi-eight-start⟩; with 4 heads that
difference is not told apart from zero (−0.04 [−0.11, 0.03]). The 8-head model has twice as many heads with slopes of 1/32 or
less; that is a difference between the two models, not a tested cause.
NoPE at 4 layers is one success in five against none in five at 2 layers,
too few to tell depth from chance; the seed that learned uses all four
layers and, past L, reads like the learned table.

**In code:** the models are experiments/run.py's `learned-scaled`
(TinyDecoder's scaled_tokens), `alibi-h8` and `nope-l4`; `paired` compares them with
the model they vary, matched by seed; `equivalent` is the TOST;
`figures()` draws the "scheme_controls" panel.

**Why it matters.** A comparison of schemes holds only for the shape it
was run at: the ALiBi verdicts on this page are for 4 heads, and the 8-head
model reads like a different scheme past L ⟨alibi-heads⟩. The sinusoidal
model's token scale does not explain its gap to the learned table
⟨scaled-tokens⟩, though it may explain its higher loss; whether NoPE needs
more than 2 layers for this task, one success in five cannot say.

## Position or distance: the grids

**Tiny worked example.** With an 8-token passage at 2L, the learned table
finds the fact 0.94 of the time when it sits at the start of the prompt
(rows 1 to 8, 55 tokens back) and 0.03 when it sits 8 or 23 tokens back
(rows past 32). The distance grid separates the two readings of that: at
4L the learned table finds a fact 119 tokens back 0.91 of the time and one
55 tokens back 0.02; only the first sits at the start. Past L the grid
puts a fact at the start (rows 1 to 8) or past row 32, never in between,
so it says nothing about rows 9 to 31. ALiBi instead falls as the prompt
grows at every distance: a fact 8 tokens back is found 1.0, 0.85, 0.29 and
0.09 of the time at L, 2L, 4L and 8L, and its distances are close together
and in no fixed order: at 4L a fact 55 back beats one 8 back, at 8L the
five lie between 0.05 and 0.11. RoPE does both: at one length it keeps a
fact at the start far better than any other (0.37 against 0.04 at 4L, 55
tokens back) ⟨rope-start⟩, while between two facts not at the start the
distance is not told apart; and even the fact at the start falls as the
prompt grows (0.74, 0.37 and 0.11 at 2L, 4L and 8L) ⟨rope-start-length⟩.

**In Python:**

```python
from lessons.measured import (
    alibi_far_penalty,
    cell_difference,
    distance_grid,
    load_results,
)

results = load_results()
learned = distance_grid(results, "learned")
learned[64, 55], learned[64, 23], learned[128, 119], learned[128, 55]
# → ((0.94, 0.87, 1.01), (0.03, 0.0, 0.06), (0.91, 0.82, 1.0), (0.02, 0.0,
#   0.04))
learned[256, 247], learned[256, 119]
# → ((0.87, 0.77, 0.96), (0.01, 0.0, 0.02))
rope, alibi = distance_grid(results, "rope"), distance_grid(results, "alibi")
[rope[n, 8][0] for n in (32, 64, 128, 256)]  # → [1.0, 0.04, 0.01, 0.0]
[alibi[n, 8][0] for n in (32, 64, 128, 256)]  # → [1.0, 0.85, 0.29, 0.09]
[rope[n, n - 9][0] for n in (64, 128, 256)], rope[128, 55][0]
# → ([0.74, 0.37, 0.11], 0.04)
cell_difference(results, "rope", 128, "far-8", "gap-55")
# → (0.33, 0.23, 0.43)
cell_difference(results, "rope", (64, 256), "far-8", "far-8")
# → (0.63, 0.41, 0.85)
cell_difference(results, "rope", 64, "gap-23", "near-8")
# → (0.24, -0.02, 0.49)
cell_difference(results, "alibi", 128, "gap-55", "near-8")
# → (0.17, 0.09, 0.26)
[alibi[256, d][0] for d in (8, 23, 55, 119, 247)]
# → [0.09, 0.11, 0.09, 0.07, 0.05]
alibi_far_penalty(4, 32), alibi_far_penalty(4, 256)
# → ((0.125, 8.0), (1.0, 64.0))
```

![Three panels, the learned table, RoPE and ALiBi: exact-match accuracy against prompt length, one line for each distance of the fact (8, 23, 55, 119 and 247 tokens back), means over five seeds with 95% intervals; the learned table is high only in the cell where the fact sits at the start of the prompt, RoPE is highest there and falls with length, ALiBi falls with length on every line](figures/measured.grid.svg)

**Reading it:** for the learned table the fact's position decides: it is
found when it sits at the start of the prompt, where facts sat in
training, at any distance up to 247, and lost past row 32, at any distance
down to 8 ⟨learned-rows⟩. ALiBi falls with the length of the prompt at
every distance ⟨alibi-length⟩, and its distances differ by less and in no
fixed order (a fact 55 back beats one 8 back by 0.17 [0.09, 0.26] at 4L;
at 8L the five lie between 0.05 and 0.11). RoPE fails both ways: at 4L a
fact at the start beats one 55 back that is not by 0.33 [0.23, 0.43]
⟨rope-start⟩, and the fact at the start is found 0.63 [0.41, 0.85] less
often at 8L than at 2L ⟨rope-start-length⟩; between two facts not at the
start, 23 and 8 back at 2L, the difference, 0.24 [−0.02, 0.49], is not
told apart. An earlier version of this
page read one cell, 4L with 23 passage tokens, where ALiBi's near and far
were not told apart, as "ALiBi fails by total length, not by where the
fact is"; at 2L and 8L the two placements then ranked in opposite
directions, and only the grid over lengths shows what all its columns
share ⟨alibi-length⟩. The mechanism behind each scheme's pattern is not
tested here; ALiBi's gentlest head (slope 1/256)
subtracts only 0.125 from a key L back and 1.0 from one 8L back, which is
consistent with, not a proof of, its attention spreading over filler.

**In code:** `distance_grid` gives every (length, distance) cell with its
interval; `cell_difference` pairs two grid cells of one model by seed;
`alibi_far_penalty` gives the gentlest and steepest heads' penalty at a
distance.

**Why it matters.** The earlier suite's layout put the passage at fixed
places, so a learned table seemed to "find facts in the first L positions";
with the passage anywhere and the distance set, the grids show that the
learned table needs the fact where facts sat in training, that ALiBi fails
by the prompt's length, and that RoPE fails by both, so "position or
distance" has a different answer per scheme ⟨learned-rows⟩ ⟨alibi-length⟩
⟨rope-start⟩.

## Controls: an oracle, randomized positions, a realistic base

**Tiny worked example.** Three models bound the others. An *oracle* spends
half its 4,000 steps at L and half at 8L (same tokens per step, one
optimizer and one schedule); three seeds of five end at 0.99 to 1.00 at
8L, two at 0.42 and 0.64, so its mean is 0.81 with a wide interval.
*Randomized positions* (Ruoss et al., 2023) train on a sorted random
subset of positions 0 … 16L − 1, a range beyond the longest prompt read
here. Read at positions 0 … T − 1, such models answer 0.11 at L; read at
positions drawn as in training, RoPE's answers 0.90 at L, 0.63 at 2L,
where it beats RoPE as trained by 0.35, and 0.05 at 8L (the learned
table's, 0.76 at L). A RoPE model at *base 10*, where 6 of its 8 pairs
turn fully within L as 46 of 64 do in Llama 2 7B, learns the task, and no
method rescues it without training: YaRN gives 0.31 at 2L, against 0.96
at base 10,000 ⟨base-ten⟩.

**In Python:**

```python
from lessons.context_extension import rope_wavelengths
from lessons.positional import rope_frequencies
from lessons.measured import (
    final_validation,
    interval,
    learned_steps,
    load_results,
    paired,
    values,
)

results = load_results()
learned_steps(results, "rope-oracle"), interval(results, "rope-oracle", 256)
# → ([3750, None, 3250, 4000, None], (0.81, 0.47, 1.14))
values(results, "rope-oracle", 256).round(2).tolist()
# → [1.0, 0.42, 1.0, 0.99, 0.64]
randpos = [
    interval(results, "rope-randpos:random", n)[0] for n in (32, 64, 256)
]
randpos, interval(results, "rope-randpos", 32)[0]
# → ([0.9, 0.63, 0.05], 0.11)
paired(results, "rope-randpos:random", "rope", 64)  # → (0.35, 0.23, 0.48)
paired(results, "rope-randpos:random", "rope", 256)  # → (0.04, 0.02, 0.07)
interval(results, "learned-randpos:random", 32)[0]  # → 0.76
learned_steps(results, "rope-randpos")  # → [None, None, None, None, None]
final_validation(results, "rope-randpos")  # → [0.88, 0.91, 0.9, 0.93, 0.91]
turning = [
    int((rope_wavelengths(rope_frequencies(d, b)) <= n).sum())
    for d, b, n in ((128, 1e4, 4096), (16, 10.0, 32), (16, 1e4, 32))
]
turning  # → [46, 6, 2]
slowest = [
    round(float(rope_wavelengths(rope_frequencies(d, b)).max()) / n, 1)
    for d, b, n in ((128, 1e4, 4096), (16, 10.0, 32), (16, 1e4, 32))
]
slowest  # → [13.3, 1.5, 620.9]
(
    interval(results, "rope-base10:yarn", 64),
    paired(results, "rope:yarn", "rope-base10:yarn", 64),
)
# → ((0.31, 0.23, 0.38), (0.66, 0.6, 0.71))
```

![Exact-match accuracy against prompt length for RoPE, RoPE with randomized positions read at positions 0 to T − 1 and read as trained, the learned table with randomized positions read as trained, and the RoPE oracle, means over five seeds with 95% intervals; randomized positions read as trained stay above RoPE to 4L, read at 0 to T − 1 they stay low everywhere](figures/measured.controls.svg)

**Reading it:** the oracle shows the task is learnable at 8L by this model
(three seeds of five at 0.99 or more; its interval runs past 1, two seeds
never having learned 8L: read the seeds). Randomized positions, read as
they were trained, answer 0.90 at L, below the 0.98 criterion, and hold
it better than RoPE as trained at 2L ⟨randpos⟩, but not to 8L. That does not say length breaks them: an 8L
prompt takes 256 of the 512 positions, eight times as packed as the 32 a
training prompt took, so at 8L this control cannot tell the length from
the packing (a range of 128L would keep the packing) ⟨randpos-packing⟩,
and read at
positions 0 … T − 1, packed closer still, they fail even at L. Their
validation during training is read at positions drawn as in training;
no seed reached the 0.98 the others are held to (RoPE's ended at 0.88 to
0.93), so none has a "learned" step.

**In code:** the models are experiments/run.py's `rope-oracle`,
`rope-randpos`, `learned-randpos` and `rope-base10`; the reading
`rope-randpos:random` draws each prompt's positions as training did;
`paired` compares models trained from the same seeds, matched by seed
rather than sharing weights.

**Why it matters.** A control scored as it was never trained says nothing
about the method. And the base-10 control matches a real model's share of
pairs that turn within L (6 of 8 against 46 of 64) but not its slowest
wavelength (1.5L against Llama 2's 13.3L and 620.9L at base 10,000); no
geometry of this toy matches both. The no-training results below are
better than at base 10 and worse than with heads of 64 at base 78 (YaRN
answers 0.83 at 8L there against 0.71), so which of these a real
checkpoint resembles cannot be read from here, and it should be measured
⟨base-ten⟩.

## Stretching RoPE without training

**Tiny worked example.** The RoPE models trained at 32 tokens are read at
64, 128 and 256 tokens with the speeds each method gives for that stretch
(2, 4, 8), straight from `lessons.context_extension.rope_inv_freq`; dynamic
NTK uses its config factor 4 and recomputes its base for every length. At
2L: YaRN 0.96, dynamic NTK 0.86, NTK-aware 0.56, position interpolation
0.35. At 8L only YaRN still answers most of the time, 0.71.

**In Python:**

```python
from lessons.measured import interval, load_results, paired

results = load_results()
interval(results, "rope:linear", 64), interval(results, "rope:ntk", 64)
# → ((0.35, 0.23, 0.47), (0.56, 0.43, 0.69))
interval(results, "rope:yarn", 64), interval(results, "rope:dynamic", 64)
# → ((0.96, 0.92, 1.0), (0.86, 0.77, 0.94))
# at 8L: the best of the other readings, then with the widest stretch too
max(
    interval(results, r, 256)[0]
    for r in ("rope", "rope:linear", "rope:ntk", "rope:dynamic")
)
# → 0.07
max(
    interval(results, r, 256)[0]
    for r in ("rope:linear", "rope:ntk", "rope:dynamic", "rope:ntk-s253")
)
# → 0.12
(
    interval(results, "rope", 32, "nll", digits=1),
    interval(results, "rope", 256, "nll", digits=1),
)
# → ((0.0, 0.0, 0.0), (9.3, 8.9, 9.6))
paired(results, "rope:ntk", "rope:linear", 64)  # → (0.21, 0.06, 0.36)
interval(results, "rope:yarn", 128), interval(results, "rope:yarn", 256)
# → ((0.85, 0.78, 0.93), (0.71, 0.6, 0.82))
(
    interval(results, "rope:yarn", 256, "nll", digits=1),
    interval(results, "rope", 64, "nll", digits=1),
)
# → ((2.7, 1.6, 3.8), (6.1, 4.8, 7.3))
```

![Exact-match accuracy against prompt length for the RoPE model as trained and stretched by position interpolation, NTK-aware scaling, YaRN and dynamic NTK without any training, means over five seeds with 95% intervals](figures/measured.stretched.svg)

**Reading it:** every method leaves L untouched (its stretch is 1 there);
at 2L the order is YaRN, dynamic, NTK-aware, position interpolation, each
gap a paired interval that excludes zero; at 8L YaRN's log-loss is 2.7 nats
where RoPE as trained pays 9.3.

**In code:** `interval` with `"rope:<method>"` reads the evaluation-only
readings of the same checkpoints.

**Why it matters.** The YaRN paper reports NTK-aware scaling as better than
position interpolation on models that were not fine-tuned, and YaRN as
better still (`papers.peng2023_yarn`); the order holds here at each
method's own stretch. The next three sections take apart which part of
each method does the work.

## Dynamic NTK is NTK-aware at another stretch

**Tiny worked example.** Dynamic scaling with factor 4 raises the base for
a stretch of 4 · T / L − 3: 5 at 2L, 13 at 4L, 29 at 8L. Read in one pass,
that is NTK-aware scaling with those stretches, the same speeds to the last
digit, and the same accuracy: 0.86 at 2L either way. A sweep of the
raised base's stretch at 2L rises to 0.97 at s = 29 and 61 and falls past
that (0.86 at s = 253); at 4L it levels off at 0.75 (s = 125 and 253), at
8L it never passes 0.12. What dynamic does that a fixed base does not is
change the speeds as the prompt grows, and that costs something once keys
are cached: 0.82 when a prompt is read in one pass and the copy is decoded
token by token, 0.64 when the conversation grew past L one token at a
time.

**In Python:**

```python
from lessons.context_extension import dynamic_ntk_stretch
from lessons.measured import interval, load_results, ntk_sweep, paired, values

results = load_results()
[dynamic_ntk_stretch(4.0, n, 32) for n in (64, 128, 256)]
# → [5.0, 13.0, 29.0]
interval(results, "rope:dynamic", 64), interval(results, "rope:ntk-s5", 64)
# → ((0.86, 0.77, 0.94), (0.86, 0.77, 0.94))
paired(results, "rope:dynamic", "rope:ntk", 64)  # → (0.3, 0.19, 0.4)
[round(mean, 2) for _, mean, _, _ in ntk_sweep(results, 64)]
# → [0.56, 0.74, 0.86, 0.91, 0.94, 0.97, 0.97, 0.93, 0.86]
[round(mean, 2) for _, mean, _, _ in ntk_sweep(results, 128)]
# → [0.08, 0.09, 0.11, 0.12, 0.16, 0.2, 0.41, 0.66, 0.75, 0.75]
interval(results, "rope:ntk-s13", 32)  # → (0.95, 0.9, 1.0)
(
    interval(results, "rope:dynamic-cache", 64),
    interval(results, "rope:dynamic-stream", 64),
)
# → ((0.82, 0.72, 0.91), (0.64, 0.5, 0.78))
(
    paired(results, "rope:dynamic", "rope:dynamic-cache", 64),
    paired(results, "rope:dynamic", "rope:dynamic-stream", 64),
)
# → ((0.04, 0.02, 0.06), (0.22, 0.11, 0.32))
round(max(mean for _, mean, _, _ in ntk_sweep(results, 256)), 2)  # → 0.12
[interval(results, "rope:ntk-s29", n)[0] for n in (32, 128)]  # → [0.96, 0.41]
yarn_near = values(results, "rope:yarn", 256, cell="near-8")
round(float(yarn_near.mean()), 2), yarn_near.round(2).tolist()
# → (0.43, [0.92, 0.04, 0.8, 0.23, 0.15])
```

![Exact-match accuracy against the stretch of a raised base from 2 to 253 on a log scale, at 2L, 4L and 8L, with dynamic NTK's reading at each length drawn as a star that lands on the NTK-aware curve at stretch 5, 13 and 29](figures/measured.ntk_sweep.svg)

**Reading it:** each star sits on its length's curve: dynamic NTK is a
point of the NTK sweep. At 2L the sweep turns over; at 4L it levels off
below YaRN's 0.85, and at 8L no stretch of a raised base recovers the task.

**In code:** `dynamic_ntk_stretch` (in `lessons.context_extension`) gives dynamic's stretch;
`ntk_sweep` collects the sweep at one length; the cached readings
(`rope:dynamic-cache`, `rope:dynamic-stream`) give each position the speeds
of the step that computed it, which the tests check against a real
token-by-token decode with a KV cache.

**Why it matters.** The earlier suite ranked dynamic NTK above a raised base
at 2L; that ranking still holds (0.3 [0.19, 0.4]) ⟨dynamic-stretch⟩, but it
is the difference between stretch 5 and stretch 2, not between two
mechanisms, and a fixed base at stretch 5 matches it. The cost dynamic
scaling was said to have, keys cached at another length, is measured
⟨cache⟩.

## YaRN taken apart

**Tiny worked example.** YaRN changes two things: it divides the slow
pairs' speeds by the stretch and keeps the fast ones (with a ramp between),
and it multiplies the scores by a temperature, (0.1 ln s + 1)²
⟨yarn-formula⟩. At d_head
16, base 10,000 and L = 32 no pair turns 32 times in training, so the
released code's ramp (linear in the pair index) keeps pair 0 whole and
applies half the change to pair 1; the ramp printed in the paper (linear in the
number of turns) keeps only 13% and 2% of them ⟨yarn-formula⟩. Both leave the other six
pairs identical. Swap the ramp and YaRN falls from 0.96 to 0.46 at 2L
⟨ramp⟩; remove the temperature and it falls from 0.71 to 0.4 at 8L
⟨temperature⟩, while the temperature added to position interpolation or
NTK-aware changes them by at most 0.03. In Llama 2 7B's geometry (d_head 128, L = 4,096) the two
ramps are not this close to each other: both keep the 21 fastest pairs
whole and they differ on 25 others, by up to 1.73 times at factor 4
⟨ramp-geometry⟩.

**In Python:**

```python
from lessons.context_extension import yarn_printed_ramp
from lessons.positional import rope_frequencies
from lessons.measured import interval, load_results, paired, ramp_difference

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
# → ((0.46, 0.33, 0.59), (0.5, 0.38, 0.61))
interval(results, "rope:yarn-notemp", 256)  # → (0.4, 0.26, 0.55)
(
    paired(results, "rope:yarn", "rope:yarn-notemp", 256),
    paired(results, "rope:yarn", "rope:yarn-notemp", 64),
)
# → ((0.31, 0.21, 0.41), (0.01, -0.0, 0.02))
(
    paired(results, "rope:linear-temp", "rope:linear", 64),
    paired(results, "rope:ntk-temp", "rope:ntk", 64),
)
# → ((-0.03, -0.04, -0.02), (0.01, -0.0, 0.02))
ramp_difference(16, 10000.0, 32, 4.0)[:2]  # → (0, 2)
kept, differ, ratio = ramp_difference(128, 10000.0, 4096, 4.0)
kept, differ, round(ratio, 2)  # → (21, 25, 1.73)
```

![Bars of exact-match accuracy at 2L, 4L and 8L for YaRN with the released ramp and temperature, without temperature, with the printed ramp with and without temperature, position interpolation with and without YaRN's temperature, and NTK-aware with and without it; YaRN with the released ramp stays highest at every length, and without the temperature it drops at 8L](figures/measured.yarn_parts.svg)

**Reading it:** the ramp is what separates YaRN from the rest at 2L
⟨ramp⟩ and at 8L ⟨ramp-long⟩; the temperature adds 0.01 [−0.0, 0.02]
at 2L, not told apart, and 0.31 at 8L ⟨temperature⟩. YaRN's temperature
added to position interpolation or NTK-aware changes them by at most 0.03
at 2L.

**In code:** `yarn_printed_ramp` (in `lessons.context_extension`) is Eq. 11
as printed; `ramp_difference` compares the two ramps' speeds in any
geometry; the readings `rope:yarn-printed`, `rope:yarn-notemp`,
`rope:linear-temp` and `rope:ntk-temp` are experiments/run.py's ablations.

**Why it matters.** In this geometry the two ramps differ only in pairs 0
and 1, so the 0.5 is what those two pairs' speeds are worth here
⟨ramp⟩: this model's copy depends on its two fastest pairs turning as in
training. That is not a statement about real models: where the ramps
differ on 25 middle pairs, as in Llama 2 7B, no measurement here says
what either is worth (`papers.peng2023_yarn` compares them for Llama 2).
And YaRN's lead at 2L is not unique to its mechanism: the best stretch of
a raised base in the sweep, picked on these prompts, is within 0.05 of it
there ⟨ntk-tie⟩; past 2L no stretch of a raised base comes close
⟨yarn-eight⟩.

## A second geometry: heads of 64

**Tiny worked example.** The toy's heads of 16 at base 10,000 turn 2 of
their 8 pairs fully within L, and its slowest pair's wavelength is 620.9L;
at base 10 it turns 6 of 8, as Llama 2 7B turns 46 of 64, but its slowest
wavelength is 1.5L against Llama 2's 13.3L. A model with two heads of 64
(width 128) at base 78 matches the other number instead: its slowest
wavelength is 13.4L, and 12 of its 32 pairs turn within L. No base matches
both at L = 32, and none gives YaRN's ramps the shape they have in Llama 2:
a pair must turn 32 times within L to be kept whole, which no pair does in
32 tokens, so here the two ramps differ on pairs 0 to 11 (by up to 2.87
times at factor 4) ⟨yarn-formula⟩ ⟨ramp-geometry⟩. Trained and read like the toy, this model agrees with
it on the ramp and disagrees on the rest: the printed ramp falls from
YaRN's 0.91 to 0.34 at 2L; YaRN's temperature changes nothing at 8L (0.83
with it, 0.81 without); and a raised base, which in the toy never passed
0.12 at 8L, turns over at every length here, its best stretch reaching
0.96 at 2L (s = 8, above YaRN) and 0.78 at 8L (s = 125, not told apart
from YaRN's 0.83), while costing at L what YaRN does not (0.81 and 0.68
there, against 1.0).

**In Python:**

```python
from lessons.context_extension import rope_wavelengths
from lessons.positional import rope_frequencies
from lessons.measured import (
    equivalent,
    interval,
    load_results,
    ntk_sweep,
    paired,
    ramp_difference,
    values,
)

results = load_results()
waves = rope_wavelengths(rope_frequencies(64, 78.0))
round(float(waves.max()) / 32, 1), int((waves <= 32).sum())  # → (13.4, 12)
ramp_difference(64, 78.0, 32, 4.0)[:2]  # → (0, 12)
round(ramp_difference(64, 78.0, 32, 4.0)[2], 2)  # → 2.87
wide = "rope-d64"
[interval(results, f"{wide}:yarn", n)[0] for n in (64, 128, 256)]
# → [0.91, 0.82, 0.83]
interval(results, f"{wide}:yarn-printed", 64)  # → (0.34, 0.28, 0.39)
paired(results, f"{wide}:yarn", f"{wide}:yarn-printed", 64)
# → (0.57, 0.5, 0.64)
[interval(results, f"{wide}:{r}", 256)[0] for r in ("yarn", "yarn-notemp")]
# → [0.83, 0.81]
equivalent(
    values(results, f"{wide}:yarn", 256)
    - values(results, f"{wide}:yarn-notemp", 256)
)
# → True
best = [
    max(ntk_sweep(results, n, wide), key=lambda p: p[1]) for n in (64, 256)
]
[(s, round(mean, 2)) for s, mean, _, _ in best]
# → [(8.0, 0.96), (125.0, 0.78)]
paired(results, f"{wide}:ntk-s8", f"{wide}:yarn", 64)  # → (0.05, 0.03, 0.07)
paired(results, f"{wide}:yarn", f"{wide}:ntk-s125", 256)
# → (0.05, -0.05, 0.15)
[interval(results, f"{wide}:ntk-s{s}", 32)[0] for s in (8, 125)]
# → [0.81, 0.68]
[interval(results, f"{wide}:dynamic", n)[0] for n in (64, 256)]
# → [0.91, 0.55]
```

![Exact-match accuracy against the stretch of a raised base from 2 to 253 on a log scale, at 2L, 4L and 8L, for the model with heads of 64 at base 78, with dynamic NTK's reading at each length drawn as a star on the NTK-aware curve; every curve rises and then falls](figures/measured.wide_sweep.svg)

**Reading it:** the two geometries agree that YaRN's released ramp, not
the printed one, carries it without training ⟨ramp⟩ ⟨wide-ramp⟩, and that
dynamic NTK is a point of the NTK sweep. They disagree on the temperature,
which matters at 8L in the toy ⟨temperature⟩ and is equivalent to none
here ⟨wide-temp⟩, and on the raised base, which here reaches YaRN at 2L
and 8L at a stretch picked per length ⟨wide-ntk⟩ but pays for it at L
⟨wide-ntk-cost⟩, and whose sweep turns over at every length.

**In code:** the model is experiments/run.py's `rope-d64` (WIDE, WIDE_BASE),
read with every reading of `READINGS["rope-d64"]`; `ntk_sweep` takes the
model's name.

**Why it matters.** An explanation read off one geometry can be that
geometry's: the temperature's 0.31 at 8L in the toy is 0.02 here. What both
geometries show, and what a reader may carry to a real model as a
hypothesis to measure, is that YaRN's released ramp is what an ablation
takes YaRN apart at ⟨ramp⟩ ⟨wide-ramp⟩; how much it is worth, and
whether a raised base can match it, depends on the model's speeds
⟨yarn-eight⟩ ⟨wide-ntk⟩.

## A fine-tune at four times the length, to a settled loss

**Tiny worked example.** Each seed's RoPE model is trained further on
prompts of 128 tokens with stretch 4, each time from the same weights: for
400 steps (equal steps), and on the shortest of four schedules, 400, 800,
1,600 and 3,200 steps, each decaying to its own end, after which the mean
training loss of the last 100 steps is at most 0.02 (equal loss). At 400
steps NTK-aware, YaRN and dynamic NTK are at or near that loss (0.0022 to
0.0208): all settle there but one seed of dynamic NTK, which settles at 800.
Position interpolation is at 0.25 to 0.39 after 400 steps and settles at
1,600 in three seeds and at 3,200 in two. Settled, position interpolation
is level with NTK-aware at 4L and 0.08 behind at 2L. Read at 8L with the
tuned factor, position interpolation falls to 0.08 and YaRN to 0.17, while
NTK-aware keeps 0.82 ⟨ft-ntk⟩ ⟨ft-ntk-yarn⟩; dynamic NTK, whose factor follows the
length by its own rule, keeps 0.92 at factor 1 (there it is exactly
NTK-aware with a raised factor) and 0.88 at factor 4. Read at 8L with the
factor raised to 8, YaRN answers 0.99, NTK-aware 0.92 and position
interpolation recovers to 0.78; read below 4L with a factor below the tuned
one, position interpolation answers 0.0 at L. An earlier version of this
page ran one 3,200-step schedule and stopped it at the criterion, so its
step counts (2,000 to 2,200 for position interpolation, 500 to 1,100 for
the others) were taken while that schedule's learning rate was still high.

**In Python:**

```python
from lessons.measured import (
    answers,
    interval,
    load_results,
    paired,
    settle_steps,
    tune_loss,
)

results = load_results()
answers(results, "rope-ft-ntk") / answers(results, "rope")  # → 0.025
settle_steps(results, "rope-ft-linear"), settle_steps(results, "rope-ft-yarn")
# → ([1600, 3200, 1600, 3200, 1600], [400, 400, 400, 400, 400])
[min(settle_steps(results, f"rope-ft-{m}")) for m in ("ntk", "dynamic")]
# → [400, 400]
[max(settle_steps(results, f"rope-ft-{m}")) for m in ("ntk", "dynamic")]
# → [400, 800]
tune_loss(results, "rope-ft-linear", "tuned")  # → (0.2536, 0.3862)
[
    tune_loss(results, f"rope-ft-{m}", "tuned")
    for m in ("ntk", "yarn", "dynamic")
]
# → [(0.0083, 0.0177), (0.0022, 0.0093), (0.0103, 0.0208)]
tune_loss(results, "rope-ft-linear", "converged")  # → (0.0014, 0.0154)
(
    paired(results, "rope-ft-ntk", "rope-ft-linear", 64),
    paired(results, "rope-ft-ntk:converged", "rope-ft-linear:converged", 64),
)
# → ((0.21, 0.17, 0.25), (0.08, 0.02, 0.13))
paired(results, "rope-ft-ntk:converged", "rope-ft-linear:converged", 128)
# → (-0.0, -0.0, 0.0)
tuned = ("linear", "yarn", "ntk", "dynamic-f1", "dynamic")
[interval(results, f"rope-ft-{m}:converged", 256)[0] for m in tuned]
# → [0.08, 0.17, 0.82, 0.92, 0.88]
[
    interval(results, f"rope-ft-{m}:converged-follow", 256)[0]
    for m in ("yarn", "ntk", "linear")
]
# → [0.99, 0.92, 0.78]
paired(
    results, "rope-ft-yarn:converged-follow", "rope-ft-yarn:converged", 256
)
# → (0.82, 0.77, 0.88)
paired(results, "rope-ft-dynamic-f1", "rope-ft-ntk", 256)
# → (0.1, 0.07, 0.13)
interval(results, "rope-ft-linear:converged-follow", 32)[0]  # → 0.0
```

![Exact-match accuracy against prompt length after a fine-tune at 128 tokens run until its loss settled, for position interpolation, NTK-aware, YaRN, dynamic NTK at factor 4 and at factor 1, each read with its tuned factor, and YaRN and position interpolation read with a factor that follows the length, next to the RoPE model as trained](figures/measured.fine_tuned.svg)

**Reading it:** a fine-tune at a fixed factor moves the cliff to the
length it used, except with a raised base, which keeps most of the task
at twice that length ⟨ft-ntk⟩ ⟨ft-ntk-yarn⟩; a factor raised to the prompt's length
keeps more ⟨follow⟩ ⟨follow-ntk⟩, and a factor lowered below the tuned
one breaks position interpolation ⟨follow-below⟩.

**In code:** `settle_steps` reads how many steps each seed's fine-tune took
to settle, `tune_loss` its final loss, `answers` the scored answers of a
training; the readings are `rope-ft-<method>` (400 steps),
`rope-ft-<method>:converged` and `rope-ft-<method>:converged-follow`.

**Why it matters.** This is the position-interpolation paper's result at
toy scale, a fine-tune of enough steps makes the stretch work
(`papers.chen2023_interpolation`), and its limit: a fixed factor is a new
trained length with a new cliff, which raising the factor for the longer
prompt lowers ⟨follow⟩. Compared at equal steps, fine-tuning with position interpolation
looked far worse than with NTK-aware scaling; at equal loss the gap at 2L
shrinks from 0.21 to 0.08 and the one at 4L goes, while the one at 8L
stays. The YaRN paper reports fine-tuning with NTK-aware scaling as worse
than with position interpolation (`lessons.context_extension` cites the
section); here it is level at 4L, better at 2L (0.08 [0.02, 0.13]) and, with
the tuned factor, at 8L ⟨ft-ntk⟩. Equal loss here is a threshold, not one
loss: NTK-aware's, YaRN's and dynamic NTK's settled runs are their
400-step runs, and position interpolation's end lower (0.0089 against
NTK-aware's 0.0129, on average); NTK-aware and YaRN were not run on the
longer schedules, so at 8L the gap mixes the method with the length of
the fine-tune, and within position interpolation the two 3,200-step seeds
answer less there (0.03, 0.05) than the three 1,600-step ones (0.07 to
0.15). A 400-step fine-tune is a tenth of the training steps but 2.5% of
its scored answers, since a 128-token prompt holds a quarter as many
copies per token.

## What attention does past the length

**Tiny worked example.** In every RoPE model the second layer holds the
heads that put their weight on the key holding the answer, the token after
the current one's earlier occurrence: at L the most attentive such head
puts 0.99 of its weight there, and zeroing the second layer's four heads
leaves the model at 0.0 ⟨layers⟩. No single head is needed (zeroing the
most attentive one alone leaves 1.0): the layer's heads share the job. Past
L that weight falls with the accuracy, method by method: at 8L YaRN's best
head puts 0.64 of its weight on the answer's key and answers 0.71, YaRN
without its temperature 0.33 and 0.4, the printed ramp 0.04 and 0.04. The
entropy of attention, which an earlier version of this page read as
"focus", does not order them: YaRN without its temperature spreads its
attention more than the printed ramp does (1.87 nats against 1.35) and
answers ten times as often.

**In Python:**

```python
from lessons.measured import (
    ablation,
    answer_weight,
    head_statistic,
    load_results,
)

results = load_results()
(
    answer_weight(results, "rope", 32),
    round(float(ablation(results, "rope", 32, "answer").mean()), 2),
)
# → ((0.99, 0.98, 0.99), 1.0)
readings = ("rope:yarn", "rope:yarn-notemp", "rope:yarn-printed")
[answer_weight(results, r, 256)[0] for r in readings]  # → [0.64, 0.33, 0.04]
[head_statistic(results, r, 256)[0] for r in readings]  # → [0.66, 1.87, 1.35]
[round(float(ablation(results, r, 256, "1.*").mean()), 2) for r in readings]
# → [0.0, 0.0, 0.0]
head_statistic(results, "rope", 32), head_statistic(results, "rope", 64)
# → ((0.07, 0.06, 0.08), (1.88, 1.5, 2.26))
(
    head_statistic(results, "rope", 32, "max_logit", digits=1),
    head_statistic(results, "rope", 64, "max_logit", digits=1),
)
# → ((16.5, 15.2, 17.8), (7.1, 5.7, 8.5))
```

![Two panels against prompt length for RoPE as trained, YaRN, YaRN without temperature, YaRN with the printed ramp, the learned table and ALiBi: the weight the second layer's most attentive head puts on the answer's key, which falls with accuracy, and the second layer's attention entropy, which does not order the methods by accuracy](figures/measured.attention.svg)

**Reading it:** the weight on the answer's key moves with accuracy across
methods and lengths; that is a correlation, and what the ablation adds is
that the second layer's heads are needed at all ⟨layers⟩, not that any
one method keeps the answer by keeping one head's weight. Entropy is a
poor proxy: a head can be sharp on the wrong key.

**In code:** `answer_weight` reads, per seed, the largest weight a
second-layer head puts on the answer's key (experiments/train.py's
key_weight) with its interval; `ablation` the accuracy with heads
zeroed; `head_statistic` averages a layer's per-head entropy or largest
score over heads.

**Why it matters.** "The model cannot use far tokens" has a measurable
inside, and the measure matters: the weight on the right key follows the
answer where entropy does not. Which of YaRN's changes moves that weight
is answered by its ablations (the YaRN section), not by this correlation.

## What this scale cannot tell you

**Tiny worked example.** Every model is trained on one task at L = 32;
all but three have 2 layers, width 64 and 4 heads of width 16, and two of
those three already change what holds: heads of 64 change which
explanations hold, and 8 ALiBi heads change how far ALiBi reads
⟨alibi-heads⟩. At base 10,000 only 2 of the 8 pairs turn fully in
training, which made the no-training stretches look better than at a
realistic base (the controls section) ⟨base-ten⟩; NoPE learned the task
in one run of ten, so nothing here speaks for or against it past L; randomized
positions answered only as they were trained, and below the criterion.

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
round(total_seconds(results) / 60), round(suite_minutes())  # → (108, 54)
int((rope_wavelengths(rope_frequencies(16, 10000.0)) <= 32).sum())  # → 2
```

**In code:** `learned_steps`, `total_seconds` and `suite_minutes` read the
JSON; experiments/run.py holds the schedule. The committed results come
from an Intel Xeon (each JSON names its CPU); the same code on an AMD
EPYC trains differently in the last digits, the difference grows over
training, and a re-run on another CPU can move the second decimal.

**Why it matters.** Nothing here tests how these results transfer to
larger models: the page describes mechanisms in a 2-layer toy with one geometry,
and a real checkpoint should be measured at the length it will serve ⟨base-ten⟩
⟨ramp-geometry⟩.

## In 20 seconds

- Past its length, a learned table fails by where the fact sits, ALiBi
  with 4 heads by how long the prompt is, RoPE by both; the distance grid tells them apart
  ⟨learned-rows⟩ ⟨alibi-length⟩ ⟨rope-start⟩.
- Without training, YaRN keeps RoPE at 0.71 to 8L, mostly on far facts;
  an ablation of its released ramp takes that away in both geometries
  tried, of its temperature only in the toy's ⟨ramp⟩ ⟨wide-ramp⟩
  ⟨temperature⟩ ⟨wide-temp⟩, and the printed ramp gives 0.46 at 2L.
- Dynamic NTK is NTK-aware at a larger stretch, and a KV cache costs it
  ⟨dynamic-stretch⟩ ⟨cache⟩.
- Past its tuning length a fine-tune needs a raised base or a factor
  raised to the prompt (YaRN 0.99 at 8L) ⟨ft-ntk⟩ ⟨follow⟩; compare
  fine-tunes at equal loss, not equal steps.
- A control counts only when read as it was trained: randomized positions
  answer 0.9 at L read so, 0.11 read at 0 to T − 1 ⟨randpos-reading⟩.
- Every number is a mean over five seeds with a t interval, Level 1's also
  over prompts, and a ranking is stated only when its paired interval
  excludes zero ⟨rule⟩.

## Self-test questions

??? question "Why does a learned table find a fact 247 tokens back but miss one 119 tokens back?"
    The far fact sits in the first positions, whose rows were trained; the
    nearer one sits on rows past 32, which never were. Whether the
    question's own row matters is not tested here: past L it always sits
    on untrained rows.

??? question "Does ALiBi fail by where the fact is or by the prompt's length?"
    By the length: at every distance of the fact its accuracy falls as the
    prompt grows, while at one length the distances differ less and in no
    fixed order. One grid cell cannot show this; the grid over lengths can.
    RoPE, by contrast, fails both ways.

??? question "Is dynamic NTK better than a raised base?"
    Not as a mechanism: read in one pass it is NTK-aware scaling at stretch
    4 · T / L − 3, and a raised base at that stretch scores the same. It
    differs when the prompt grows, and with a KV cache that costs it.

??? question "What part of YaRN does the work here, and does it carry over?"
    The released code's ramp (0.96 against 0.46 at 2L with the printed
    ramp) and at 8L the temperature (0.71 against 0.4 without it), each an
    ablation. With heads of 64 the ramp matters as much and the temperature
    not at all; in Llama 2's geometry the ramps differ in 25 pairs, so the
    size of either effect there is not known from this page.

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
from lessons.context_extension import dynamic_ntk_stretch, rope_inv_freq, yarn_inv_freq, yarn_printed_ramp
from lessons.positional import rope_frequencies
from lessons.tools.intervals import EQUIVALENCE_MARGIN, equivalent, holm, t_interval, t_test_p, two_level_interval

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


def _rounded(samples, digits: int) -> tuple[float, float, float]:
    """`t_interval` of `samples` (one per seed), each of its three numbers rounded to `digits`."""
    return t_interval(samples, digits=digits)


def interval(results: dict[str, list[dict]], reference: str, length: int, metric: str = "accuracy",
             cell: str | None = None, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of `values` over seeds, rounded to `digits`: how the page quotes a number."""
    return _rounded(values(results, reference, length, metric, cell), digits)


def paired(results: dict[str, list[dict]], a: str, b: str, length: int, metric: str = "accuracy",
           cell: str | None = None, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of a − b, paired by seed: both read the same seed's weights, or weights
    trained from the same seed. A ranking "a beats b" stands when low > 0 (for nll: high < 0)."""
    return _rounded(ranked_difference(results, (a, b, length, metric, cell)), digits)


# The page's claims (lessons/claims/measured.json): the rankings it states, each checked by `ranking_holds`
# on the committed results and those at 2L on a re-run of one more seed (`reproduces`); the claims ledger
# (EVIDENCE: every sentence that ranks, explains or advises names its evidence as ⟨id⟩, and
# tests/test_measured.py checks each holds and that no causal sentence goes without one; the site shows
# each beside its sentence); and Level 1's table cell by cell (HEADLINE).
CLAIMS = json.loads((Path(__file__).resolve().parent / "claims" / "measured.json").read_text(encoding="utf-8"))


def _tuples(value):
    """JSON's lists back into the tuples a spec holds (a cell pair, a pair of lengths, a whole spec)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


RANKINGS = _tuples(CLAIMS["rankings"])
EVIDENCE = {key: (kind, _tuples(spec)) for key, (kind, spec) in CLAIMS["evidence"].items()}
HEADLINE = _tuples(CLAIMS["headline"])


def ranked_difference(results: dict[str, list[dict]], ranking: tuple) -> np.ndarray:
    """better − worse per seed for a ranking; a cell pair (a, b) compares two grid cells of one model, at
    one length or, with a pair of lengths, at the first and the second."""
    better, worse, length, metric, cell = ranking
    if isinstance(cell, tuple):
        first, second = length if isinstance(length, tuple) else (length, length)
        return values(results, better, first, metric, cell[0]) - values(results, worse, second, metric, cell[1])
    if seeds_of(results, _split(better)[0]) != seeds_of(results, _split(worse)[0]):
        raise ValueError(f"{better} and {worse} have different seeds")
    return values(results, better, length, metric, cell) - values(results, worse, length, metric, cell)


def ranking_holds(results: dict[str, list[dict]], ranking: tuple) -> bool:
    """Does the paired t interval of a ranking exclude zero in its favour (for nll: lower is better)?"""
    _, low, high = t_interval(ranked_difference(results, ranking), digits=6)
    return high < 0 if ranking[3] == "nll" else low > 0


def ranking_tests() -> list[tuple]:
    """Every paired comparison the page states as a ranking, once: RANKINGS and the ranking evidence."""
    tests = list(RANKINGS)
    for kind, spec in EVIDENCE.values():
        if kind == "ranking" and spec not in tests:
            tests.append(spec)
    return tests


def holm_check(results: dict[str, list[dict]]) -> tuple[int, list[tuple]]:
    """(how many of `ranking_tests` hold after Holm's correction at 5%, the ones that do not)."""
    tests = ranking_tests()
    kept = holm([t_test_p(ranked_difference(results, t)) for t in tests])
    return sum(kept), [t for t, k in zip(tests, kept, strict=True) if not k]


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


def final_loss(results: dict[str, list[dict]], name: str) -> tuple[float, float]:
    """(lowest, highest) over seeds of the mean training loss of a model's last 50 steps."""
    last = [r["training"]["loss_last"] for r in results[name]]
    return min(last), max(last)


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


def ramp_difference(head_dim: int, base: float, trained_len: int, factor: float) -> tuple[int, int, float]:
    """YaRN's two ramps compared in one geometry: (pairs both keep at the trained speed, pairs whose
    speeds differ, the largest ratio between the two speeds of a pair), from the released ramp
    (`rope_inv_freq` rope_type yarn) and the printed one (`yarn_printed_ramp`)."""
    theta = rope_frequencies(head_dim, base)
    library, _ = rope_inv_freq(head_dim, {"rope_type": "yarn", "factor": factor, "rope_theta": base,
                                          "original_max_position_embeddings": trained_len})
    printed = yarn_inv_freq(theta, factor, yarn_printed_ramp(theta, trained_len))
    ratio = np.maximum(library / printed, printed / library)
    kept = np.isclose(library, theta, rtol=1e-9) & np.isclose(printed, theta, rtol=1e-9)
    return int(kept.sum()), int((ratio > 1 + 1e-9).sum()), float(ratio.max())


def _cell(record: dict, reading: str | None, length: int, cell: str | None = None) -> dict:
    """One record's measurements at `length` (a grid cell's if `cell`), for a reading (None: its default)."""
    evals = record["evals"]
    table = evals[reading or ("default" if "default" in evals else "tuned")]["lengths"][str(length)]
    return table["grid"][cell] if cell else table


# --- position or distance: the distance grid ---------------------------------------------------------

GRID_DISTANCES = (8, 23, 55, 119, 247)  # near-8's distance, the gap cells', far-8's at 8L (experiments.tasks)


def distance_cell(length: int, distance: int) -> str | None:
    """The grid cell (8-token passage) whose fact sits `distance` tokens back in a prompt of `length`
    tokens: near-8 at d = 8, far-8 at d = T − 9, a gap cell between; None if not measured."""
    if distance == 8:
        return "near-8"
    if distance == length - 9:
        return "far-8"
    return f"gap-{distance}" if 8 < distance < length - 9 and distance in GRID_DISTANCES else None


def distance_grid(results: dict[str, list[dict]], reference: str, digits: int = 2) -> dict:
    """{(T, d): (mean, low, high)} of exact match over seeds, for every measured (length, distance)."""
    return {(n, d): interval(results, reference, n, cell=distance_cell(n, d), digits=digits)
            for n in eval_lengths(results) for d in GRID_DISTANCES if distance_cell(n, d)}


# --- mechanisms by ablation ----------------------------------------------------------------------------

def answer_heads(results: dict[str, list[dict]], reference: str, length: int) -> list[tuple[int, int]]:
    """Per seed, the (layer, head) that puts the most attention on the key holding the answer at `length`."""
    weights = values(results, reference, length, "key_weight")  # (seeds, layers, heads)
    return [tuple(int(i) for i in np.unravel_index(w.argmax(), w.shape)) for w in weights]


def ablation(results: dict[str, list[dict]], reference: str, length: int, zeroed: str) -> np.ndarray:
    """(seeds,) accuracy with `zeroed` heads writing nothing, on the ablation prompts: "none", "layer.head",
    "layer.*", or "answer" (each seed's answer head at L, `answer_heads`)."""
    name, reading = _split(reference)
    heads = answer_heads(results, reference, eval_lengths(results)[0]) if zeroed == "answer" else None
    return np.array([_cell(r, reading, length)["ablation"][f"{heads[i][0]}.{heads[i][1]}" if heads else zeroed]
                     for i, r in enumerate(results[name])])


# --- intervals over seeds and prompts --------------------------------------------------------------------

def outcomes(results: dict[str, list[dict]], reference: str, length: int, cell: str | None = None) -> np.ndarray:
    """(seeds, prompts): each prompt's share of its 7 answers right; the prompts are the same for every seed."""
    name, reading = _split(reference)
    return np.array([[int(c) / 7 for c in _cell(r, reading, length, cell)["right"]] for r in results[name]])


def headline(results: dict[str, list[dict]]) -> list[tuple[float, float, float]]:
    """Level 1's numbers: `two_level_interval` of every HEADLINE cell, in order."""
    return [two_level_interval(outcomes(results, ref, n, cell)) for ref, n, cell in HEADLINE]


def answer_weight(results: dict[str, list[dict]], reference: str, length: int,
                  digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) over seeds of the largest attention weight a second-layer head puts on the
    key holding the answer (the mean over scored rows, experiments.train.key_weight)."""
    return _rounded(values(results, reference, length, "key_weight")[:, 1].max(axis=1), digits)


def answers(results: dict[str, list[dict]], name: str) -> int:
    """Scored answers in a training (or fine-tune) of `name`: steps × prompts per step × 7."""
    config = results[name][0]["config"]
    steps, tokens = budget(results, name)
    length = config["fine_tune"]["length"] if config["kind"] == "fine-tune" else config["trained_at"]
    return steps * tokens // length * (config["task"]["copy"] - 1)


def settle_steps(results: dict[str, list[dict]], name: str) -> list[int]:
    """Per seed, the schedule (experiments.run.FT_LADDER) on which a fine-tune first met its loss criterion."""
    return [r["training"]["converged"]["steps"] for r in results[name]]


def tune_loss(results: dict[str, list[dict]], name: str, reading: str) -> tuple[float, float]:
    """(lowest, highest) over seeds of a fine-tune's mean training loss over its last 100 steps;
    `reading` "tuned" (400 steps) or "converged"."""
    return tuple(f(r["training"][reading]["loss_window"] for r in results[name]) for f in (min, max))


def _evidence(results: dict[str, list[dict]], key: str) -> tuple[str, list[tuple[str, np.ndarray]], bool]:
    """(what evidence `key` is, [(a part's name, its per-seed values)], whether it holds)."""
    kind, spec = EVIDENCE[key]
    at = {n: "L" if n == eval_lengths(results)[0] else f"{n // eval_lengths(results)[0]}L"
          for n in eval_lengths(results)}
    if kind == "ranking":
        better, worse, length, metric, cell = spec
        where = f", cell {cell[0]} − cell {cell[1]}" if isinstance(cell, tuple) else ""
        length = " and ".join(at[n] for n in length) if isinstance(length, tuple) else at[length]
        return (f"ranking, matched by seed: {better} − {worse}{where} at {length}, {metric}",
                [("", ranked_difference(results, spec))], ranking_holds(results, spec))
    if kind == "length":  # each distance both lengths measure: accuracy at the shorter minus at the longer
        ref, short, long = spec
        parts = [(f"fact {d} back ", values(results, ref, short, cell=distance_cell(short, d)) -
                  values(results, ref, long, cell=distance_cell(long, d)))
                 for d in GRID_DISTANCES if distance_cell(short, d) and distance_cell(long, d)]
        return (f"ranking, matched by seed: {ref} at {at[short]} minus at {at[long]}", parts,
                all(t_interval(v, digits=6)[1] > 0 for _, v in parts))
    if kind == "ablation":
        ref, length, zeroed = spec
        drop = ablation(results, ref, length, "none") - ablation(results, ref, length, zeroed)
        return (f"ablation: {ref} at {at[length]}, accuracy lost with heads {zeroed} zeroed", [("", drop)],
                t_interval(drop, digits=6)[1] > 0)
    if kind == "equivalence":
        a, b, length = spec
        diff = values(results, a, length) - values(results, b, length)
        return (f"equivalence (TOST, ±{EQUIVALENCE_MARGIN}): {a} − {b} at {at[length]}, 90% interval",
                [("", diff)], equivalent(diff))
    return f"source: {spec}", [], True


def evidence_label(key: str, results: dict[str, list[dict]]) -> str:
    """One line naming the evidence `key` of EVIDENCE and its interval(s), as the site shows it."""
    what, parts, _ = _evidence(results, key)
    level = 0.90 if EVIDENCE[key][0] == "equivalence" else 0.95
    shown = "; ".join("{}{:+.2f} [{:.2f}, {:.2f}]".format(name, *t_interval(v, level=level)) for name, v in parts)
    return f"{what}: {shown}" if shown else what


def evidence_labels() -> dict[str, str]:
    """{id: `evidence_label`} for the whole ledger, the results read once (what the site shows)."""
    results = load_results()
    return {key: evidence_label(key, results) for key in EVIDENCE}


def evidence_holds(results: dict[str, list[dict]], key: str) -> bool:
    """Does evidence `key` show what it is cited for (a ranking's or ablation's interval clear of zero,
    at every distance for a fall with length, an equivalence inside its margin; a source by citation)?"""
    return _evidence(results, key)[2]


# ---------------------------------------------------------------------------
# 2. Figures (figures_build turns each into docs/figures/measured.<name>.svg)
# ---------------------------------------------------------------------------

# A variant of a scheme or method (randomized positions, the oracle, a YaRN without its temperature, ...)
# keeps its base's colour and marker, hollow, with a dash of its own.
VARIANT_DASHES = {"randpos": "--", "oracle": ":", "notemp": "--", "printed": ":", "printed-notemp": (0, (1, 2)),
                  "temp": ":", "f1": "--", "follow": "-.", "random": (0, (3, 1, 1, 1)), "h8": "--", "l4": "--",
                  "scaled": "--"}


def look_of(reference: str) -> Look:
    """How a result is drawn on this page, the site's look for it (lessons._palette): a trained scheme's
    ("alibi"), or, for RoPE stretched ("rope:yarn") or fine-tuned stretched ("rope-ft-yarn"), the
    method's; a variant ("rope-randpos", "rope:yarn-notemp", "rope-ft-dynamic-f1") gets its base's
    colour and a hollow marker and a dash of its own (VARIANT_DASHES)."""
    # past a colon, a second reading of a trained or tuned model ("rope:" names a method instead)
    name, _, reading = (reference, "", "") if reference.startswith("rope:") else reference.partition(":")
    looks = SCHEME_LOOKS
    for prefix in ("rope:", "rope-ft-"):
        if name.startswith(prefix):
            name, looks = name.removeprefix(prefix), METHOD_LOOKS
    base, _, variant = name.partition("-")
    variant = {"converged-follow": "follow", "random": "random"}.get(reading, variant)
    look = looks[base]
    return Look(look.colour, look.marker, VARIANT_DASHES[variant], hollow=True) if variant else look


def _curve(ax, results, reference, label, cell=None, metric="accuracy"):
    x = np.array(eval_lengths(results))
    points = [t_interval(values(results, reference, n, metric, cell), digits=6) for n in x]
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
    """Accuracy against length with 95% t intervals over seeds: the five schemes, the distance grid,
    the controls, RoPE stretched without and with a fine-tune, the NTK sweep with dynamic's
    equivalent stretches, YaRN taken apart, and the second layer's attention."""
    results = load_results()
    names = [SCHEME_NAMES[s] for s in TRAINED]
    out = {"schemes": _panel(results, TRAINED, names, "Trained at L, read at up to 8L (training layout)")}
    out["scheme_controls"] = _panel(results, ("alibi", "alibi-h8", "learned", "learned-scaled", "nope", "nope-l4"),
                                    ("ALiBi, 4 heads", "ALiBi, 8 heads", "learned table",
                                     "learned, sinusoidal's token vectors", "NoPE, 2 layers", "NoPE, 4 layers"),
                                    "One detail changed: token scale, heads, depth")
    out["grid"] = _distance_figure(results)
    out["controls"] = _panel(results, ("rope", "rope-randpos", "rope-randpos:random", "learned-randpos:random",
                                       "rope-oracle"),
                             ("RoPE", "RoPE, randomized positions, read at 0..T-1",
                              "RoPE, randomized positions, read as trained",
                              "learned, randomized positions, read as trained", "RoPE oracle (half at 8L)"), "Controls")
    out["stretched"] = _panel(results, ["rope"] + [f"rope:{m}" for m in METHODS],
                              ["RoPE as trained"] + [METHOD_NAMES[m] for m in METHODS],
                              "RoPE stretched, no training")
    tuned = [f"rope-ft-{m}:converged" for m in (*METHODS, "dynamic-f1")]
    out["fine_tuned"] = _panel(results, ["rope", *tuned, "rope-ft-yarn:converged-follow",
                                         "rope-ft-linear:converged-follow"],
                               ["RoPE as trained"] + [METHOD_NAMES[m] for m in METHODS] +
                               ["dynamic NTK, factor 1", "YaRN, factor follows T", "position interp., factor follows T"],
                               "RoPE stretched, fine-tuned at 4L until its loss settled")
    out["ntk_sweep"] = _ntk_sweep_figure(results)
    if "rope-d64" in results:
        out["wide_sweep"] = _ntk_sweep_figure(results, "rope-d64", "Heads of 64 at base 78: NTK-aware at every\n"
                                              "stretch, dynamic NTK one of its points")
    out["yarn_parts"] = _yarn_parts_figure(results)
    out["attention"] = _attention_figure(results)
    return out


DISTANCE_PANELS = ("learned", "rope", "alibi")


def _distance_figure(results):
    """One panel per scheme: exact match against prompt length, a line per distance of the fact."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(DISTANCE_PANELS), 1, figsize=(6.4, 9.0), sharex=True, sharey=True,
                             layout="constrained")
    for ax, scheme in zip(axes, DISTANCE_PANELS, strict=True):
        grid = distance_grid(results, scheme)
        for colour, (marker, dash), d in zip(CYCLE, _SWEEP_LOOKS * 2, GRID_DISTANCES, strict=False):
            cells = sorted((n, v) for (n, dist), v in grid.items() if dist == d)
            x = np.array([n for n, _ in cells])
            mean, low, high = (np.array(v) for v in zip(*[v for _, v in cells], strict=True))
            ax.plot(x, mean, color=colour, marker=marker, ls=dash, ms=5, label=f"fact {d} tokens back")
            ax.fill_between(x, low, high, color=colour, alpha=0.15, lw=0)
        _length_axis(ax, results)
        ax.set_ylim(-0.03, 1.03)
        ax.set_title(SCHEME_NAMES[scheme])
    for ax in axes[:-1]:
        ax.set_xlabel("")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3)
    return fig


ATTENTION_LINES = (("rope", "RoPE as trained"), ("rope:yarn", "YaRN"), ("rope:yarn-notemp", "YaRN, no temperature"),
                   ("rope:yarn-printed", "YaRN, printed ramp"), ("learned", "learned table"), ("alibi", "ALiBi"))


def _attention_figure(results):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 1, figsize=(6.4, 7.2), sharex=True, layout="constrained")
    x = np.array(eval_lengths(results))
    for reference, label in ATTENTION_LINES:
        look = look_of(reference)
        for ax, metric in zip(axes, ("key_weight", "entropy"), strict=True):
            read = answer_weight if metric == "key_weight" else head_statistic
            mean, low, high = (np.array(v) for v in zip(*[read(results, reference, n, digits=4) for n in x],
                                                        strict=True))
            ax.plot(x, mean, **look.line(ms=5), label=label)
            ax.fill_between(x, low, high, color=look.colour, alpha=0.15, lw=0)
    for ax, ylabel in zip(axes, ("weight on the answer's key", "attention entropy (nats)"), strict=True):
        _length_axis(ax, results, ylabel)
    axes[0].set_title("Second layer: its most attentive head's weight on the answer")
    axes[1].set_title("Second layer: how spread its attention is")
    axes[0].set_xlabel("")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2)
    return fig


def ntk_sweep(results: dict[str, list[dict]], length: int,
              model: str = "rope") -> list[tuple[float, float, float, float]]:
    """[(s, mean, low, high)] for NTK-aware scaling of RoPE model `model` at every stretch s the suite read at
    `length` (the fixed sweep, "rope:ntk-s…", and s = length / L, "rope:ntk"), sorted by s."""
    trained = eval_lengths(results)[0]
    points = {float(length / trained): f"{model}:ntk"}
    for reading in results[model][0]["evals"]:
        if reading.startswith("ntk-s"):
            points[float(reading[5:])] = f"{model}:{reading}"
    return [(s, *t_interval(values(results, ref, length), digits=6)) for s, ref in sorted(points.items())]


_SWEEP_LOOKS = (("o", "-"), ("s", "--"), ("^", "-."))


def _ntk_sweep_figure(results, model="rope",
                      title="NTK-aware scaling at every stretch;\ndynamic NTK is one of its points"):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 5.0), layout="constrained")
    trained = eval_lengths(results)[0]
    # one line per read length (not a method: the cycle's colours, the sweep's own markers and dashes)
    for colour, (marker, dash), length in zip(CYCLE, _SWEEP_LOOKS, eval_lengths(results)[1:], strict=False):
        s, mean, low, high = (np.array(v) for v in zip(*ntk_sweep(results, length, model), strict=True))
        ax.plot(s, mean, color=colour, marker=marker, ls=dash, ms=5, label=f"NTK-aware at {length // trained}L")
        ax.fill_between(s, low, high, color=colour, alpha=0.15, lw=0)
        dynamic = float(values(results, f"{model}:dynamic", length).mean())
        ax.plot([dynamic_ntk_stretch(4.0, length, trained)], [dynamic], marker="*", ms=14, ls="none",
                color=colour, markeredgecolor=INK,
                label=f"dynamic NTK (factor 4) at {length // trained}L")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("stretch s of the raised base (log scale)")
    ax.set_ylabel("exact-match accuracy")
    ax.set_ylim(-0.03, 1.03)
    ax.set_title(title)
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
        stats = [t_interval(values(results, reference, n), digits=6) for n in lengths]
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
    banner("Exact-match accuracy, mean over seeds (95% t interval)")
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
            "{:+.2f} ({:+.2f} to {:+.2f})".format(*t_interval(ranked_difference(results, ranking), digits=6)),
            ranking_holds(results, ranking)] for ranking in RANKINGS for b, w, n, m, c in [ranking]])
    say(f"{sum(len(r) for r in results.values())} runs, {total_seconds(results) / 60:.0f} core-minutes in all. "
        "Re-run them with `make experiments`.")


if __name__ == "__main__":
    demo()
