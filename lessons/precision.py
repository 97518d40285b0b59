r"""
# Positions in low precision: when bf16 breaks RoPE

Run it: `python -m lessons.precision` (a narrated walkthrough in the terminal).
Builds on `lessons.rope` (RoPE's rotation and its cos/sin table) and
`lessons.context_extension` (the published speeds of real configs, through
`rope_inv_freq`); `lessons.real_model` measures what these errors do to a
real model's logits.

## Level 1: the practitioner's guide

**In one sentence.** RoPE only works if the angle position × speed is
computed accurately, and bfloat16, the format most models are served in,
keeps so few digits that it cannot even count past 256, so the one thing to
check is which number format the positions and the angles are computed in.

**When you need it.** When you write or port a rotary embedding, cast a
whole model with `.to(torch.bfloat16)`, train with mixed precision, or serve
a model whose claimed length runs to hundreds of thousands or millions of
tokens. The symptom is quiet: short prompts are fine, long ones degrade or
mix up the order of tokens, and nothing in the logs says why, because the
model still runs; it just turns some keys to the wrong angle.

**Your options.** The five ways a position can reach a score in a bfloat16
model, each a pipeline of this page.

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| float32 angles | Positions, speeds and angles in float32, cos and sin too | The smallest error of the five; it grows only with the position | A float32 multiply per angle | transformers 5.24, LlamaRotaryEmbedding.forward, for a float32 model |
| float32 angles, bfloat16 table | The same angles; cos and sin rounded to the model's dtype | Half the table memory; an error that does not grow with the position | A fixed error of a few thousandths of a radian | vLLM 0.33.0, `RotaryEmbeddingBase.cos_sin_cache`; the same forward of transformers for a bfloat16 model |
| bfloat16 q and k after rotation | The rotation is exact; the rotated q and k are stored in bfloat16 | What every bfloat16 model does anyway | The same fixed error as the table | Any bfloat16 model, the KV cache |
| bfloat16 positions | The position indices themselves rounded to bfloat16 | Nothing: a bug | Tokens past 256 share positions; order is scrambled | The GPT-NeoX bug; any `torch.arange(n).type_as(inv_freq)` after a cast |
| bfloat16 speeds | The speeds θ rounded to bfloat16, positions exact | Nothing: a bug | The relative angle drifts in proportion to the distance between tokens | `inv_freq` buffers cast by `.to(torch.bfloat16)` |

**How to choose.**

- Serving with transformers or vLLM: nothing to choose; both compute the
  angles in float32. Check that no wrapper of yours casts the rotary module
  or its `inv_freq` buffer to bfloat16.
- Writing your own rotary embedding: build positions and speeds in float32
  (or float64) whatever the model's dtype, and round only cos and sin, or
  only the rotated q and k.
- Serving at millions of tokens (Llama 4 Scout's claimed 10M): float32
  angles are no longer exact there either; the atlas below shows how much.
- Training in mixed precision: check the dtype of `inv_freq` after the
  cast; a model-wide cast rounds buffers too.

![Positions a little either side of 256 as float32 stores them, a straight diagonal, and as bfloat16 stores them: the same line up to 256, then a staircase on which neighbouring tokens share a position](figures/precision.counting.svg)

**Reading it:** the horizontal axis is where a token really is, the vertical
axis the position the model is handed. Stored in float32 (blue) every token
gets its own position. Stored in bfloat16, the two lines agree up to 256 and
then part: past it bfloat16 has only every other whole number, so two
neighbouring tokens get the same position and their order is lost (257
becomes 256), and further on whole runs of tokens share one (*bfloat16
positions*, below). That is the check this page is about: build the
positions and the speeds in float32, whatever the model's own dtype.

**What it costs.** A float32 angle costs one multiply; the table it fills
is what costs memory. vLLM's table for Llama 3.1 8B (131,072 positions, 128
rotary dimensions) is 32 MiB in bfloat16 and 64 MiB in float32, once per
model; transformers keeps no table and recomputes cos and sin for the
positions of each forward pass.

**What breaks.**

- **bfloat16 positions.** bfloat16 holds every integer only up to 256;
  257 becomes 256 and 1001 becomes 1000, so neighbouring tokens get the same
  angle. GPT-NeoX built its positions with the dtype of `inv_freq`, which a
  cast to half precision had rounded
  ([EleutherAI/gpt-neox#1003](https://github.com/EleutherAI/gpt-neox/issues/1003),
  [#1016](https://github.com/EleutherAI/gpt-neox/pull/1016), which points
  out that 256 and 257 cannot be told apart). Fix: build positions in
  float32 or as integers, and convert the speeds to float32 before the
  product.
- **bfloat16 speeds.** `inv_freq` is a buffer, and `.to(torch.bfloat16)`
  rounds buffers as well as weights. Older transformers code built its cached
  table from the buffer in the model's dtype
  ([huggingface/transformers#25681](https://github.com/huggingface/transformers/issues/25681));
  Mistral's rebuilt table under bf16 mixed precision had the same problem
  ([#29496](https://github.com/huggingface/transformers/issues/29496)); in
  2026 NVIDIA NeMo Automodel found the same cast in its Llama module and six
  more model families
  ([NVIDIA-NeMo/Automodel#2549](https://github.com/NVIDIA-NeMo/Automodel/pull/2549),
  which reports a KL divergence above its threshold when the checkpoint was
  reloaded in transformers). Fix: recompute `inv_freq` in float32 from the config.
- **Autocast turning the angles to bfloat16.** Inside a bfloat16 autocast
  region the rotary embeddings of transformers' Llama and Gemma code came
  out in bfloat16
  ([huggingface/transformers#29285](https://github.com/huggingface/transformers/pull/29285),
  which reports bfloat16 training losses that differ from a version forcing
  them to float32). Fix: keep the angle computation out of autocast's reach.
  transformers 5.24's forward has no autocast block of its own; it builds
  the angles with an elementwise product of float32 tensors, and run inside
  a bfloat16 autocast region on the CPU it returns the same bits as outside
  (recorded in this page's reference vectors).
- **A bfloat16 cos/sin table at long range.** Not a bug, a trade: the table
  adds a fixed error per pair, small for a score, as
  [KellerJordan/modded-nanogpt#39](https://github.com/KellerJordan/modded-nanogpt/issues/39)
  discusses for training. Fix, if it matters: keep the table in float32.

**In the wild.** transformers 5.24's LlamaRotaryEmbedding.forward
(models/llama/modeling_llama.py; Qwen3's, gpt-oss's and Gemma 3's rotary
classes have the same forward) multiplies the position ids converted with
`.float()` by `inv_freq` converted to float32, takes cos and sin in float32,
scales them by the attention factor and only then casts them to the dtype
of its input, the model's. There is no autocast block in it: the angles
stay in float32 because the product is elementwise on float32 tensors.
vLLM 0.33.0's RotaryEmbeddingBase
(vllm/model_executor/layers/rotary_embedding/base.py) computes `inv_freq`
and the positions in float32 in `RotaryEmbeddingBase._compute_cos_sin_cache`
and stores the table converted to the `dtype` it was built with; get_rope
(rotary_embedding/__init__.py) defaults that to torch's default dtype, which
the model loader (model_loader/base_loader.py) sets to the model's dtype
while it builds the model. `RotaryEmbeddingBase._match_cos_sin_cache_dtype`
converts the table to the query's dtype at run time. Llama 4's rotary class
in transformers (models/llama4/modeling_llama4.py) keeps its complex
cos/sin table in float32, rotates q and k in float32 and casts the result
back to their dtype (apply_rotary_emb's `.type_as(xq)`): the bfloat16 q, k
pipeline. Llama 3.1 8B's and
Qwen3-8B-Base's config.json set `torch_dtype` to bfloat16.

**Go deeper.** Level 2 shows from scratch why bfloat16 stops counting at
256, writes the five pipelines in numpy, derives the error of a relative
angle and checks the formula against the measured error, and draws the
atlas for five real configs. If you only needed to know what to check, you
can stop here; `lessons.real_model` shows what these errors do to the logits
of a real model.

## Level 2: how it works, from scratch

## bfloat16 counts exactly only up to 256

**Everyday picture.** A ruler whose marks thin out as it goes: from 128 to
256 a mark per unit, from 256 to 512 one every two units, from 1,024 to
2,048 one every eight, always the same number of marks per doubling. A
length that falls between marks is read as the nearest mark.

**Tiny worked example.** bfloat16 keeps 8 significant bits. From 256 to 512
its numbers are 2 apart, so 257 has to become 256 or 258; at an exact tie it
picks the neighbour whose last kept bit is 0 (round half to even), which is
256, while 259 goes up to 260. Between 512 and 1,024 the numbers are 4
apart: 1001 reads as 1000. At 131,071, the last position of a 128K window,
they are 512 apart, and 131,071 reads as 131,072.

| position | 255 | 256 | 257 | 259 | 1001 | 131071 |
|---|---|---|---|---|---|---|
| in bfloat16 | 255 | 256 | 256 | 260 | 1000 | 131072 |

**The math.** A number with $b$ significant bits between $2^e$ and
$2^{e+1}$ is a multiple of its ulp (unit in the last place):

$$
\operatorname{ulp}(x) = 2^{\lfloor \log_2 |x| \rfloor - b + 1}
$$

and every integer is exact while $\operatorname{ulp}(x) \le 1$, that is up
to $2^b$.

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $b$ | significant bits of the format | 8 (bfloat16), 24 (float32) |
| $x$ | the number stored | a position such as 1001 |
| $e = \lfloor \log_2 \lvert x \rvert \rfloor$ | the power of two just below $x$ | 9 for 1001 |
| $\operatorname{ulp}(x)$ | the spacing to the next number of the format | 4 at 1001 |

**In words:** "each doubling of the number doubles the gap between its
neighbours; with 8 bits the gap reaches 2 at 256, so counting by ones stops
there."

**With the numbers:** float32 keeps 24 bits and counts exactly to
$2^{24}$ = 16,777,216 positions, more than Llama 4 Scout's 10,485,760.

**In Python:** `bf16_round` is the page's bfloat16: it keeps the top 16
bits of a float32 and rounds the rest to nearest, ties to even (the tests
compare it bit for bit with torch's conversion).

```python
from lessons.precision import (
    bf16_round, format_ulp, largest_exact_integer)
[int(v) for v in bf16_round([255, 256, 257, 259, 1001, 131071])]
# → [255, 256, 256, 260, 1000, 131072]
largest_exact_integer(8), largest_exact_integer(24)
# → (256, 16777216)
largest_exact_integer(53) // largest_exact_integer(24)  # → 536870912
[float(g) for g in format_ulp([200, 300, 1001, 131071], 8)]
# → [1.0, 2.0, 4.0, 512.0]
int(bf16_round(10_485_759))  # → 10485760
```

**In code:** `bf16_round`, `format_ulp`, `largest_exact_integer`.

**Why it matters.** A position is an integer, and RoPE turns the fastest
pair by about one radian per position: a position off by 1 is an angle off
by 1 radian, and near position 131,071, where bfloat16 positions are 512
apart, by up to 256 radians: a random angle. Any
code path that lets a position touch bfloat16 has already lost the order of
the tokens.

## Where engines round: five pipelines

**Everyday picture.** A recipe copied by hand several times: what matters
is at which copy the smudge happens. A smudge on the list of ingredients
(the positions) ruins every dish; a smudge on the final plating (the
rounded cos and sin) is a small blemish.

**Tiny worked example.** One pair with speed θ = 1 radian per token, a
query at position 100,000 and a key one token before it. In float32 both
angles are whole numbers below $2^{24}$, stored exactly, so the relative
angle is exactly 1 radian; with the positions in bfloat16 both 99,999 and
100,000 become 99,840 and the relative angle is 0.

```mermaid
flowchart TB
  P["positions $$m$$<br/>(integers)"] --> A["angle $$m\,\theta_i$$"]
  T["speeds $$\theta_i$$<br/>(from the config)"] --> A
  A --> CS["$$\cos$$ and $$\sin$$<br/>(the table)"]
  CS --> R["rotate q and k"]
  R --> S["score $$q \cdot k / \sqrt{d}$$"]
```

**Reading it:** each arrow is a place a number can be rounded. Rounding
the positions or the speeds (the top row) changes the angle itself, and the
error grows with the position or with the distance between tokens; rounding
the table or the rotated vectors (lower down) adds a fixed error to each
pair, the same at every position.

**In Python:** `pipeline_cos_sin` gives the table each pipeline computes;
`pipeline_pair_products` carries q and k through the rotation, and
`relative_errors` compares a pipeline with float64.

```python
import numpy as np
from lessons.precision import (
    pipeline_cos_sin, relative_errors, bf16_round)
theta = np.array([1.0])
def relative_angle(pipe):
    c, s = pipeline_cos_sin([99_999, 100_000], theta, pipe)
    a = np.arctan2(s[:, 0], c[:, 0])
    return round(float(np.angle(np.exp(1j * (a[1] - a[0])))), 4)
[relative_angle(p) for p in ("float64", "float32", "bf16-positions")]
# → [1.0, 1.0, 0.0]
int(bf16_round(99_999)), int(bf16_round(100_000))  # → (99840, 99840)
```

As phase errors, for the same pair: none in float32, about two thousandths
of a radian from a bfloat16 table or bfloat16 q and k, a whole radian from
bfloat16 positions:

```python
import numpy as np
from lessons.precision import relative_errors
theta = np.array([1.0])
[round(relative_errors(theta, 99_999, 1, p)[0], 4)
 for p in ("float32", "bf16-table", "bf16-qk", "bf16-positions")]
# → [0.0, 0.0019, 0.0022, 1.0]
```

What the table costs: vLLM's holds cos and sin for every position up to the
length it serves, half of the 128 rotary dimensions each
(`lessons.rope.table_bytes`):

```python
from lessons.attention import format_bytes
from lessons.rope import table_bytes
format_bytes(table_bytes(131_072, 64, bytes_per_number=2))  # → '32 MiB'
format_bytes(table_bytes(131_072, 64, bytes_per_number=4))  # → '64 MiB'
```

**In code:** `pipeline_cos_sin`, `pipeline_pair_products`,
`relative_errors`, and the pipelines' names in `PIPELINES`.

**Why it matters.** Two engines that "both use bfloat16" can differ by
orders of magnitude in how wrong their angles are: what decides it is
whether the rounding happens before the angle (positions, speeds) or after
it (table, rotated q and k).

## The error of a relative angle: Δ·θ·ε(θ) + ulp(m·θ)

**Everyday picture.** Two runners on a circular track, one a few steps
behind the other. What the score sees is the gap between them, not where
they are on the track. If your stopwatch is slightly off, the gap is off in
proportion to the gap; if your ruler can only read the track to the nearest
metre, the gap is off by up to a metre however small it is.

**Tiny worked example.** Llama 3.1 8B's second pair turns at θ ≈ 0.81
radian per token. A key at position 130,001 and a query 16 tokens later:
float32 stores θ to within $2^{-24}$ of itself, a negligible error over 16
tokens, but the two angles, near 105,900 radians, lie between $2^{16}$ and
$2^{17}$ where float32 numbers are $2^{-7}$ apart, so the relative angle can
be off by up to that gap. With θ in bfloat16, stored only to within
$2^{-8}$ of itself, the first term, $16 \cdot 0.81 \cdot 2^{-8}$, is
already larger than that gap.

**The math.** The angle of position $m$ in pair $i$ is computed as
$\operatorname{fl}(m\,\hat\theta_i)$, where $\hat\theta_i = \theta_i(1 +
\delta)$ is the stored speed, $\lvert\delta\rvert \le \varepsilon(\theta)$,
and $\operatorname{fl}$ rounds to the format of the angle. The score only
sees the difference between the query's angle at $m + \Delta$ and the key's
at $m$:

$$
\operatorname{fl}\big((m+\Delta)\hat\theta_i\big) - \operatorname{fl}\big(m\hat\theta_i\big) - \Delta\theta_i = \Delta\,\theta_i\,\delta + r_q - r_k
$$

where each angle's rounding is at most half an ulp,

$$
\lvert r_q \rvert, \lvert r_k \rvert \le \tfrac12 \operatorname{ulp}\big((m+\Delta)\,\theta_i\big),
$$

and two more roundings can join them: positions rounded to $b_p$ bits move
each angle by $\theta_i$ times half their ulp, and a cos/sin table rounded
to $b_t$ bits turns each angle by up to $2^{-b_t}$. The bound the code
computes adds all four:

$$
\begin{aligned}
\lvert \text{error}_i \rvert \le \min\Big(\pi,\;
&\underbrace{\Delta\,\theta_i\,\varepsilon(\theta)}_{\text{speed}}
+ \underbrace{\operatorname{ulp}_{a}\big((m+\Delta)\,\theta_i\,(1 + \varepsilon(\theta))\big)}_{\text{angles}} \\
&+ \underbrace{\theta_i \operatorname{ulp}_{p}(m+\Delta)}_{\text{positions}}
+ \underbrace{2^{1 - b_t}}_{\text{table}}\Big)
\end{aligned}
$$

The positions term is 0 when positions are exact, as in both engines; the
angles term is taken at the larger stored angle. With small offsets the two
first terms are the section's $\Delta\theta\varepsilon(\theta) +
\operatorname{ulp}(m\theta)$.

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $m$ | the key's absolute position | 130,001 |
| $\Delta$ | how many tokens later the query is | 16 |
| $\theta_i$ | pair $i$'s speed, radians per token | 0.81 (pair 1) |
| $\varepsilon(\theta)$ | the largest relative error of a stored speed: one rounding, or measured | $2^{-24}$ (float32), $2^{-8}$ (bfloat16) |
| $r_q$, $r_k$ | the rounding of each angle | up to half an ulp |
| $\operatorname{ulp}_{a}(x)$ | the spacing between angles the angle's format holds near $x$ | $2^{-7}$ near 105,900 in float32 |
| $\operatorname{ulp}_{p}(x)$ | the same for the positions' format; 0 for exact positions | 0 |
| $b_\theta$, $b_p$, $b_t$ | significant bits of the stored speeds, positions, cos and sin | 24, exact, 24 |

**In words:** "the speed's error is shared by both angles, so only
the distance Δ multiplies it; the rounding of each angle is not shared, so it
stays as large as the angle's last digit, however close the two tokens are;
rounded positions and a rounded table add their own fixed share." Past π the
error is a random angle, so the bound stops there.

**With the numbers:** for the example, $16 \cdot 0.81 \cdot 2^{-24}$ (the
float32 speed) plus $2^{-7}$ (the angle's ulp) plus 0 (exact positions)
plus $2^{-23}$ (the float32 cos and sin) is 0.007813 radians, and over all
pairs the largest measured error is 0.34 of the largest bound. For a key
at 10,000,001 (inside Llama 4 Scout's claimed length) the fastest pair's
angle (θ = 1) is 10,000,001 radians, ten million, where float32 numbers are
1 apart: float32 angles are no longer accurate there.

**In Python:** `relative_angle_error` is the bound; `measured_angle_error`
computes the error each pipeline really makes, pair by pair.

```python
import numpy as np
from lessons.context_extension import rope_inv_freq
from lessons.precision import (
    relative_angle_error, measured_angle_error, atlas_models,
    format_ulp)
llama = atlas_models()["Llama 3.1 8B"]
theta, _ = rope_inv_freq(128, llama["rope_parameters"])
bound = relative_angle_error(theta, 16, 130_001)
round(float(theta[1]), 2)  # → 0.81
round(float(bound[1]), 6)  # → 0.007813
got = np.abs(measured_angle_error(theta, 16, 130_001, "float32"))
bool(np.all(got <= bound)), round(float(got.max() / bound.max()), 2)
# → (True, 0.34)
b16 = relative_angle_error(theta, 16, 130_001, theta_bits=8)
got16 = np.abs(
    measured_angle_error(theta, 16, 130_001, "bf16-inv-freq"))
bool(np.all(got16 <= b16)), round(float(got16.max()), 3)
# → (True, 0.029)
# Llama 4 Scout's fastest pair at position 10,000,001: its angle, its ulp
from lessons.precision import atlas_speeds
scout, _ = atlas_speeds(atlas_models()["Llama 4 Scout"])
angle = float(scout[0]) * 10_000_001
angle, float(format_ulp(angle, 24))  # → (10000001.0, 1.0)
# the four terms of the displayed bound, for pair 1
from lessons.precision import angle_error_terms
terms = angle_error_terms(theta, 16, 130_001)
{k: round(float(v[1]), 9) for k, v in terms.items()}
# → {'speed': 7.77e-07, 'angles': 0.0078125,
#   'positions': 0.0, 'table': 1.19e-07}
bool(np.array_equal(sum(terms.values()), bound))  # → True
```

**θ rounded once.** $\varepsilon(\theta) = 2^{-b_\theta}$ assumes the stored
speed is the exact one rounded once, which is what this page's pipelines do
(they round float64 speeds to float32). An engine computes θ in float32 in
steps: transformers 5.24 takes $2i/d$, the power and the reciprocal
(each model's rotary class, e.g. LlamaRotaryEmbedding.compute_default_rope_parameters
in models/llama/modeling_llama.py), each rounded, and a scaled RoPE rounds again
(modeling_rope_utils.py). Such speeds can be off by several roundings: pass
their measured relative error as $\varepsilon(\theta)$ (`theta_error`). (An
earlier version cited a _compute_default_rope_parameters in
modeling_rope_utils.py, which 5.24 does not have.)

For a head width of 96 at base 10,000 (Phi-3.5-mini's, from the gallery,
before its LongRoPE factors), θ computed that way is off by more than three
roundings, and at an offset of 131,071 the once-rounded bound is too small;
with the measured error it holds:

```python
import numpy as np
from lessons.layer_schemes import gallery_text_config
from lessons.positional import rope_frequencies
from lessons.precision import (
    float32_speeds, measured_angle_error, relative_angle_error)
phi = gallery_text_config("phi-3.5-mini")
d, base = phi["hidden_size"] // phi["num_attention_heads"], phi["rope_theta"]
d, base  # → (96, 10000.0)
exact = rope_frequencies(d, base)  # float64
stored = float32_speeds(d, base)
err = np.abs(stored / exact - 1)
bool(err.max() > 3 * 2.0**-24)  # → True
got = np.abs(measured_angle_error(
    stored, 131_071, 1, "float32", exact_theta=exact))
bool(np.all(got <= relative_angle_error(exact, 131_071, 1)))  # → False
fixed = relative_angle_error(exact, 131_071, 1, theta_error=err)
bool(np.all(got <= fixed))  # → True
```

The tests hold the bound above the measured error for every pair of the
five atlas models, three pipelines (float32, bfloat16 speeds, bfloat16
positions) and twenty (position, offset) cases, and check that for every
model and pipeline some case reaches at least a third of the bound: a bound,
not a loose one. They hold it too for speeds computed in steps
(`float32_speeds`) given their measured error, and show the once-rounded
bound failing for them.

**In code:** `relative_angle_error` sums the four terms that
`angle_error_terms` returns (tests/test_precision.py reads the displayed
formula's LaTeX, checks that its four terms are joined by + under min(π, ·),
and evaluates each as written against the code's); `measured_angle_error`, `format_ulp`,
`float32_speeds`.

**Why it matters.** The formula says which knob to turn: a better format
for the speeds shrinks an error that grows with the distance Δ; a better
format for the angle shrinks one that grows with the absolute position m.
Positions in bfloat16 make the second term as large as the angle itself.

## A precision atlas for five real configs

**Everyday picture.** A map of where a road is safe at night: the same five
cars (pipelines) driven on five roads (models), each to the end of its road
(the claimed length).

**Tiny worked example.** Gemma 3 4B's global layers turn their fastest
pair at θ = 0.125 radian per token (base 1,000,000 with a linear factor of
8), Llama 3.1's at 1. At the same position the Gemma angle mθ is 8 times
smaller, so its float32 ulp is 8 times smaller too, and in the atlas its
float32 phase error (0.00086) is below Llama 3.1's (0.0057).

**In Python:** `atlas_models` reads each model's block: Llama 3.1 8B,
Llama 4 Scout and gpt-oss 20B from the site's model-card gallery
(lessons/gallery/, each file citing where its config was read); Gemma 3 4B's
global layers from the gallery's linear factor and transformers 5.24's
Gemma3TextConfig defaults (models/gemma3/configuration_gemma3.py: global
base 1,000,000, head_dim 256, 131,072 positions); Qwen3-8B-Base from a copy
of its config.json in the GitHub repository Chen-Oliver/qwen3-8b-base
(`rope_theta` 1,000,000, no `rope_scaling`, head_dim 128,
`max_position_embeddings` 32,768). gpt-oss's cos and sin carry YaRN's
attention factor, as in transformers, which scales its score errors too.
`precision_atlas` runs the five pipelines
at offsets 1, 16, 4,096 and 131,071 (128K − 1: the longest distance a
131,072-token window holds, so it fits only the models that claim that
much) and key positions up to each model's claimed length; `atlas_table` keeps the largest score error per model and
pipeline.

```python
from lessons.precision import (
    atlas_table, precision_atlas, ATLAS_PIPELINES)
ATLAS_PIPELINES
# → ('float32', 'bf16-table', 'bf16-qk', 'bf16-positions', 'bf16-inv-freq')
atlas = precision_atlas()
score, phase = atlas_table(atlas), atlas_table(atlas, "phase")
[row[1] for row in score]  # → [131072, 10485760, 131072, 131072, 32768]
from lessons.precision import atlas_models, atlas_speeds
gemma = atlas_models()["Gemma 3 4B global"]
float(atlas_speeds(gemma)[0][0])  # → 0.125
score[3][0], score[4][0]  # → ('Gemma 3 4B global', 'Qwen3-8B-Base')
def shown(row):
    return [float(f"{e:.2g}") for e in row[2:]]
shown(phase[0])  # → [0.0057, 0.0045, 0.0078, 3.1, 3.0]
shown(score[0])  # → [0.0011, 0.0058, 0.0073, 1.8, 1.4]
shown(phase[1])  # → [0.33, 0.33, 0.33, 3.1, 3.0]
shown(score[1])  # → [0.1, 0.1, 0.1, 2.1, 1.5]
shown(phase[2])  # → [0.0029, 0.0049, 0.0064, 3.1, 3.1]
shown(score[2])  # → [0.0019, 0.017, 0.011, 2.2, 2.3]
shown(phase[3])  # → [0.00086, 0.0045, 0.0059, 3.1, 2.9]
shown(score[3])  # → [0.00028, 0.0054, 0.006, 0.99, 0.81]
shown(phase[4])  # → [0.0012, 0.0043, 0.0053, 3.0, 2.4]
shown(score[4])  # → [0.00029, 0.0048, 0.0068, 1.6, 0.37]
```

Each cell is the largest phase error (radians) / the largest score error,
over the four offsets that fit, every key position of the grid and eight
seeded q, k (with standard-normal q and k, q·k/√d itself has a standard
deviation of 1):

| model (claimed length) | float32 | bf16 table | bf16 q, k | bf16 positions | bf16 speeds |
|---|---|---|---|---|---|
| Llama 3.1 8B (131,072) | 0.0057 / 0.0011 | 0.0045 / 0.0058 | 0.0078 / 0.0073 | 3.1 / 1.8 | 3 / 1.4 |
| Llama 4 Scout (10,485,760) | 0.33 / 0.1 | 0.33 / 0.1 | 0.33 / 0.1 | 3.1 / 2.1 | 3 / 1.5 |
| gpt-oss 20B (131,072) | 0.0029 / 0.0019 | 0.0049 / 0.017 | 0.0064 / 0.011 | 3.1 / 2.2 | 3.1 / 2.3 |
| Gemma 3 4B global (131,072) | 0.00086 / 0.00028 | 0.0045 / 0.0054 | 0.0059 / 0.006 | 3.1 / 0.99 | 2.9 / 0.81 |
| Qwen3-8B-Base (32,768) | 0.0012 / 0.00029 | 0.0043 / 0.0048 | 0.0053 / 0.0068 | 3 / 1.6 | 2.4 / 0.37 |

By offset, for Llama 3.1 8B (`atlas_by_offset`; the same cells, one row per
offset, the largest over key positions up to its claimed length):

```python
from lessons.precision import atlas_by_offset, precision_atlas
atlas = precision_atlas()
def shown(row):
    return [row[0]] + [float(f"{e:.2g}") for e in row[1:]]
[shown(r) for r in atlas_by_offset(atlas, "Llama 3.1 8B")][0]
# → [1, 0.0057, 0.004, 0.0078, 1.0, 0.0057]
rows = atlas_by_offset(atlas, "Llama 3.1 8B", "phase")
shown(rows[1])  # → [16, 0.0052, 0.0045, 0.0075, 3.1, 0.029]
shown(rows[2])  # → [4096, 0.0026, 0.0043, 0.0047, 3.1, 3.0]
shown(rows[3])  # → [131071, 0.0028, 0.0024, 0.004, 1.0, 2.9]
scores = atlas_by_offset(atlas, "Llama 3.1 8B", "score")
shown(scores[0])  # → [1, 0.00089, 0.0047, 0.0073, 0.22, 0.00078]
shown(scores[1])  # → [16, 0.0011, 0.0058, 0.0056, 1.8, 0.0057]
shown(scores[2])  # → [4096, 0.00068, 0.005, 0.0067, 1.7, 0.88]
shown(scores[3])  # → [131071, 0.00077, 0.0027, 0.0028, 0.35, 1.4]
```

| Llama 3.1 8B, offset | float32 | bf16 table | bf16 q, k | bf16 positions | bf16 speeds |
|---|---|---|---|---|---|
| 1 | 0.0057 / 0.00089 | 0.004 / 0.0047 | 0.0078 / 0.0073 | 1.0 / 0.22 | 0.0057 / 0.00078 |
| 16 | 0.0052 / 0.0011 | 0.0045 / 0.0058 | 0.0075 / 0.0056 | 3.1 / 1.8 | 0.029 / 0.0057 |
| 4,096 | 0.0026 / 0.00068 | 0.0043 / 0.005 | 0.0047 / 0.0067 | 3.1 / 1.7 | 3.0 / 0.88 |
| 131,071 | 0.0028 / 0.00077 | 0.0024 / 0.0027 | 0.004 / 0.0028 | 1.0 / 0.35 | 2.9 / 1.4 |

The bfloat16 speeds' column grows with the offset, as Δ·θ·ε(θ) says, until
it saturates near π; the
bfloat16 positions' column does not (its error comes from the position,
not the distance); the other three stay within a factor of 3 across
offsets. At the 131,071 offset the only key is position 0, which bfloat16
holds exactly, so the positions' error there is the query's alone.

A phase error near π is a random angle; a score error near 1 is as large
as a typical score. Llama 4 Scout's RoPE layers attend only within chunks of
`attention_chunk_size` tokens (8,192 in its config, as the site's gallery
records it), so its offsets past that never reach a RoPE score; its absolute
positions do, to 10,485,760.

![Five panels, one per model, of the largest phase error in radians against the key's position, both on log scales, at an offset of 16 tokens, for five pipelines: float32 angles grow with the position, a bfloat16 table or bfloat16 q and k stay near a few thousandths, bfloat16 positions jump to errors near pi past 256, and bfloat16 speeds stay near a few hundredths](figures/precision.atlas.svg)

**Reading it:** each panel is one model, read to its claimed length; the
y axis is the worst pair's phase error at an offset of 16 tokens. The float32
line climbs with the position (the ulp of the angle doubles with every
doubling of m) and for Llama 4 Scout reaches tenths of a radian at millions
of tokens. The bfloat16 table and bfloat16 q and k are flat: their error is
the rounding of cos, sin or the vectors, the same everywhere. bfloat16
positions are exact up to 256 and then wrong by up to π, and bfloat16 speeds
sit at the Δ·θ·ε(θ) level from the first token.

**In code:** `atlas_models`, `atlas_speeds`, `atlas_positions`,
`precision_atlas`, `atlas_table`; the figure is `figures()["atlas"]`.

**Why it matters.** The atlas turns "bfloat16 is risky for RoPE" into a
number per model: a bfloat16 table (what both engines give a bfloat16
model) costs a small, flat error everywhere; float32 angles cost less up to
about the end of a 128K window and tenths of a radian at millions of tokens;
and the two bugs are wrong at every length a modern model claims. For what
such errors do to the logits of a real model, see `lessons.real_model`.

## In 20 seconds

- bfloat16 keeps 8 significant bits: integers are exact only up to 256, so
  positions must never be rounded to it.
- transformers 5.24 and vLLM 0.33.0 both compute angles in float32; vLLM
  stores the cos/sin table in the model's dtype, transformers casts cos and
  sin to it after computing them: a bfloat16 model gets a bfloat16 table
  from either.
- The relative angle's error is about Δ·θ·ε(θ) + ulp(m·θ), plus fixed
  terms for rounded positions and a rounded table: the speed's format
  matters for distant tokens, the angle's format for late positions, and
  ε(θ) is one rounding only if θ was rounded once.
- In the atlas, a bfloat16 table costs a flat few thousandths of a radian;
  bfloat16 positions or speeds are wrong at any length a current model claims.

## Self-test questions

??? question "Why does 257 become 256 in bfloat16, and 259 become 260?"
    Between 256 and 512 bfloat16 numbers are 2 apart. 257 is exactly halfway
    between 256 and 258, and a tie goes to the neighbour whose last kept bit
    is 0, 256; 259 is halfway between 258 and 260 and goes to 260.

??? question "Why does an error in the speed θ grow with the distance between tokens, but not with the position?"
    Both the query's and the key's angle are the position times the same
    stored speed, so the speed's error δθ appears in both and cancels in the
    difference except for Δ·δθ. The rounding of each angle is separate for
    each, so it does not cancel.

??? question "vLLM stores cos and sin in bfloat16. Why is that much less harmful than bfloat16 positions?"
    Rounding cos and sin moves each angle by at most about 2^-8 radian,
    whatever the position: a fixed, small error. Rounding a position moves
    the angle by θ times the position's error, which is hundreds of radians
    at long range for the fast pairs.

??? question "At Llama 4 Scout's claimed 10M tokens, are float32 angles still exact?"
    No. The fastest pair turns one radian per token, so at position
    10,000,001 its angle is ten million radians, where neighbouring float32
    numbers are a whole radian apart (`format_ulp` gives 1.0 for that
    angle, above): each
    angle can be off by up to half a radian, and the atlas measures tenths
    of a radian. Computing the angles in
    float64 (53 bits) would shrink that gap $2^{29}$ = 536,870,912 times.

## The papers behind this lesson

- Su, Lu, Pan, Murtadha, Wen, Liu (2021). *RoFormer: Enhanced Transformer
  with Rotary Position Embedding.* [arXiv:2104.09864](https://arxiv.org/abs/2104.09864)
  (companion: `papers.su2021_roformer`).
  The rotation whose angles this page rounds.
- Kalamkar et al. (2019). *A Study of BFLOAT16 for Deep Learning Training.*
  [arXiv:1905.12322](https://arxiv.org/abs/1905.12322). The bfloat16 format
  studied for training: float32's exponent with 7 stored mantissa bits.
- Micikevicius et al. (2017). *Mixed Precision Training.*
  [arXiv:1710.03740](https://arxiv.org/abs/1710.03740). Training in a
  16-bit format while keeping a float32 master copy: the setting in which
  buffers and casts decide what stays in float32.

## Further reading

- The GPT-NeoX thread with a small reproducer of half-precision angles:
  [EleutherAI/gpt-neox#1003](https://github.com/EleutherAI/gpt-neox/issues/1003).
- transformers 5.24, models/llama/modeling_llama.py,
  LlamaRotaryEmbedding.forward; vLLM 0.33.0,
  vllm/model_executor/layers/rotary_embedding/base.py.
- `lessons.real_model`: the logits of a real model with angles and tables in
  each format, at shifted positions.
"""

from __future__ import annotations

import math

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, INK, ORANGE, PURPLE, Look
from lessons._show import banner, say, table, takeaway
from lessons.context_extension import rope_cos_sin, rope_inv_freq
from lessons.layer_schemes import gallery_text_config

# ---------------------------------------------------------------------------
# 1. bfloat16: eight significant bits, and which integers survive
# ---------------------------------------------------------------------------

BF16_BITS = 8  # significant bits of bfloat16 (7 stored + the implicit leading 1)
FLOAT32_BITS = 24  # significant bits of float32 (23 stored + 1)


def bf16_round(x) -> np.ndarray:
    """Round to the nearest bfloat16, ties to even, as torch's `.to(torch.bfloat16)` does.

    x: any array of numbers; it is first rounded to float32 (what a float32 tensor holds).
    bfloat16 is the top 16 bits of a float32 (sign, 8 exponent bits, 7 mantissa bits): adding
    0x7FFF plus the lowest kept bit to the bits and clearing the low 16 rounds to nearest, ties to
    the even neighbour; a carry out of the mantissa bumps the exponent (up to inf, as it should).
    Returns float32 values, each exactly a bfloat16 number; NaN stays NaN.
    """
    x32 = np.asarray(x, dtype=np.float32)
    bits = x32.view(np.uint32).astype(np.uint64)  # widen: 0xFFFF.... + 0x7FFF must not wrap
    kept_lsb = (bits >> 16) & 1  # the last bit bfloat16 keeps: ties go to where it is 0
    rounded = ((bits + 0x7FFF + kept_lsb) & 0xFFFF0000).astype(np.uint32)
    out = rounded.view(np.float32)
    return np.where(np.isnan(x32), x32, out)


def format_ulp(x, bits: int) -> np.ndarray:
    """The gap between neighbouring numbers near |x| in a format with `bits` significant bits.

    2^(floor(log2 |x|) − bits + 1): 1 for x in [128, 256) in bfloat16 (bits = 8), 2 in [256, 512);
    2^-23 near 1 in float32 (bits = 24). Normal numbers only (no subnormals); 0 maps to 0.
    """
    x = np.abs(np.asarray(x, dtype=np.float64))
    with np.errstate(divide="ignore"):
        exponent = np.floor(np.log2(np.where(x > 0, x, 1.0)))
    return np.where(x > 0, 2.0 ** (exponent - _checks.count(bits, "bits") + 1), 0.0)


def largest_exact_integer(bits: int) -> int:
    """The last integer n with every integer 0..n exact in a format of `bits` significant bits: 2^bits."""
    return 2 ** _checks.count(bits, "bits")


# ---------------------------------------------------------------------------
# 2. Five pipelines: where the rounding happens between a position and a score
# ---------------------------------------------------------------------------

# float64 is the exact reference; the other five are what engines (and bugs) do in a bfloat16 model.
PIPELINES = ("float64", "float32", "bf16-table", "bf16-qk", "bf16-positions", "bf16-inv-freq")


def pipeline_cos_sin(positions, inv_freq, pipeline: str = "float32",
                     attention_factor: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of the RoPE angles, (n, d/2) each, rounded where `pipeline` rounds them.

    positions: (n,) token positions; inv_freq: (d/2,) speeds θ_i (float64, or an engine's float32).
    "float64": everything exact to float64. "float32" (transformers 5.24, LlamaRotaryEmbedding.forward):
    positions and θ in float32, the angle m·θ rounded to float32, cos and sin in float32, times the
    attention factor. "bf16-table" (vLLM 0.33.0's cos_sin_cache in the model's dtype, and what
    transformers' forward returns for a bfloat16 model): the float32 cos and sin rounded to bfloat16.
    "bf16-qk": the float32 table (the rounding happens after the rotation, in `pipeline_pair_products`).
    "bf16-positions" (the GPT-NeoX bug): positions rounded to bfloat16 before the float32 product.
    "bf16-inv-freq": θ rounded to bfloat16, positions exact, product in float32.
    Returned as float64 arrays holding the emulated values.
    """
    _checks.one_of(pipeline, "pipeline", PIPELINES)
    m = _checks.vector(positions, "positions")  # (n,)
    theta = _checks.vector(inv_freq, "inv_freq")  # (d/2,)
    if pipeline == "float64":
        return rope_cos_sin(m, theta, attention_factor)
    m32, theta32 = m.astype(np.float32), theta.astype(np.float32)
    if pipeline == "bf16-positions":
        m32 = bf16_round(m32)
    if pipeline == "bf16-inv-freq":
        theta32 = bf16_round(theta32)
    angle = (m32[:, None] * theta32[None, :]).astype(np.float64)  # a float32 product, rounded once
    factor32 = np.float32(attention_factor)
    cos = (np.cos(angle).astype(np.float32) * factor32)  # float32 cos, then the float32 scaling
    sin = (np.sin(angle).astype(np.float32) * factor32)
    if pipeline == "bf16-table":
        cos, sin = bf16_round(cos), bf16_round(sin)
    return cos.astype(np.float64), sin.astype(np.float64)


def pipeline_pair_products(q, k, query_positions, key_positions, inv_freq, pipeline: str = "float32",
                           attention_factor: float = 1.0) -> np.ndarray:
    """Per pair, the complex product z_q · conj(z_k) of a rotated query and key, (n, d/2).

    q, k: (n, d) or (d,) vectors in the half-split layout (pair i = dimensions i and i + d/2, as
    transformers' rotate_half pairs them); query_positions, key_positions: (n,). The score is the real
    part summed over pairs, divided by √d; the angle of each product is the relative phase the score
    sees. "bf16-qk" rotates in float32 with the float32 table, then rounds the rotated q and k to
    bfloat16 (a bfloat16 model stores them so).
    """
    q, k = np.atleast_2d(np.asarray(q, float)), np.atleast_2d(np.asarray(k, float))  # (n, d)
    half = _checks.even_width(q.shape[-1], "q's width") // 2
    zq, zk = q[:, :half] + 1j * q[:, half:], k[:, :half] + 1j * k[:, half:]  # (n, d/2) complex pairs
    table = "float32" if pipeline == "bf16-qk" else pipeline
    cq, sq = pipeline_cos_sin(query_positions, inv_freq, table, attention_factor)  # (n, d/2)
    ck, sk = pipeline_cos_sin(key_positions, inv_freq, table, attention_factor)
    rq, rk = zq * (cq + 1j * sq), zk * (ck + 1j * sk)  # the rotation x1·cos − x2·sin, x2·cos + x1·sin
    if pipeline == "bf16-qk":
        rq = bf16_round(rq.real) + 1j * bf16_round(rq.imag)
        rk = bf16_round(rk.real) + 1j * bf16_round(rk.imag)
    return rq * np.conj(rk)


def _gaussian_qk(d: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n seeded query and key vectors of width d, standard normal, rounded to bfloat16 (as a bf16 model
    holds them before the rotation), so that every pipeline starts from the same numbers."""
    rng = np.random.default_rng(seed)
    return bf16_round(rng.standard_normal((n, d))).astype(float), bf16_round(rng.standard_normal((n, d))).astype(float)


def relative_errors(inv_freq, position, offset: int, pipeline: str, attention_factor: float = 1.0,
                    n_samples: int = 8, seed: int = 0) -> tuple[float, float]:
    """(phase error, score error) of `pipeline` against float64, for a key at `position` and a query
    `offset` tokens later.

    Phase error: the largest |wrapped difference| in radians, over pairs and samples, between the
    relative angle each pipeline's pair products carry and float64's. Score error: the largest
    |difference| of q·k/√d over n_samples seeded standard-normal q, k (rounded to bfloat16 first).
    """
    theta = _checks.vector(inv_freq, "inv_freq")
    d = 2 * theta.size
    q, k = _gaussian_qk(d, n_samples, seed)
    pk = np.full(n_samples, float(position))
    pq = pk + offset
    exact = pipeline_pair_products(q, k, pq, pk, theta, "float64", attention_factor)  # (n, d/2)
    got = pipeline_pair_products(q, k, pq, pk, theta, pipeline, attention_factor)
    phase = np.abs(np.angle(got * np.conj(exact)))  # the wrapped angle between the two products
    score = np.abs(got.real.sum(-1) - exact.real.sum(-1)) / math.sqrt(d)
    return float(phase.max()), float(score.max())


# ---------------------------------------------------------------------------
# 3. The error, predicted: speed + angles + positions + table
# ---------------------------------------------------------------------------


ANGLE_ERROR_TERMS = ("speed", "angles", "positions", "table")  # the page's bound, term by term, in order


def angle_error_terms(theta, offset: int, position, theta_bits: int = FLOAT32_BITS,
                      angle_bits: int = FLOAT32_BITS, position_bits: int | None = None,
                      table_bits: int = FLOAT32_BITS, theta_error=None) -> dict[str, np.ndarray]:
    """The bound's four terms for the relative angle, {name: (d/2,)}, named as ANGLE_ERROR_TERMS.

    theta: (d/2,) speeds. "speed": Δ·θ·ε_θ, where ε_θ bounds the stored speed's relative error
    |θ̂/θ − 1|: theta_error (a number or (d/2,)) when given, else one rounding to theta_bits
    significant bits, 2^-theta_bits; both angles inherit it, the difference keeps Δ times it.
    "angles": each angle rounded to angle_bits bits, half an ulp each, at the larger stored angle
    (m + Δ)·θ·(1 + ε_θ). "positions": θ·ulp(m + Δ) for positions rounded to position_bits bits,
    0 when exact (None). "table": cos and sin rounded to table_bits bits turn each angle by up to
    2^-table_bits, 2^(1 − table_bits) for the two.
    """
    theta = np.abs(_checks.vector(theta, "theta"))
    top = float(position) + offset  # the later position sets the ulps
    if theta_error is None:
        eps = 2.0 ** -_checks.count(theta_bits, "theta_bits")
    else:
        eps = np.abs(np.asarray(theta_error, dtype=float))
    rounded = position_bits is not None
    return {"speed": offset * theta * eps,
            "angles": format_ulp(top * theta * (1 + eps), angle_bits),
            "positions": theta * format_ulp(top, position_bits) if rounded else np.zeros_like(theta),
            "table": np.full_like(theta, 2.0 ** (1 - _checks.count(table_bits, "table_bits")))}


def relative_angle_error(theta, offset: int, position, theta_bits: int = FLOAT32_BITS,
                         angle_bits: int = FLOAT32_BITS, position_bits: int | None = None,
                         table_bits: int = FLOAT32_BITS, theta_error=None) -> np.ndarray:
    """The predicted error of the relative angle, per pair, (d/2,): min(π, speed + angles +
    positions + table), the four terms of `angle_error_terms` (same arguments).

    An error past π is a random angle, so the bound stops there. A bound on the size, not the sign.
    By default it assumes θ rounded once from its exact value; for speeds an engine computes in
    float32 in several steps (`float32_speeds`), pass their measured relative error as theta_error.
    """
    terms = angle_error_terms(theta, offset, position, theta_bits, angle_bits, position_bits, table_bits,
                              theta_error)
    return np.minimum(sum(terms[name] for name in ANGLE_ERROR_TERMS), np.pi)


def float32_speeds(head_dim: int, base: float) -> np.ndarray:
    """θ_i = 1 / base^(2i/d), i = 0 .. d/2 − 1, computed in float32 step by step, (d/2,).

    As transformers 5.24 computes default speeds (each rotary class's static method, e.g.
    LlamaRotaryEmbedding.compute_default_rope_parameters): the exponent 2i/d, the power and the
    reciprocal are each rounded to float32, so θ is rounded three times, not once. numpy's float32
    power stands in for torch's (they may differ in the last bit). Returned as float64 holding the
    float32 values.
    """
    d = _checks.even_width(head_dim, "head_dim")
    exponent = np.arange(0, d, 2, dtype=np.float32) / np.float32(d)  # 2i/d, rounded
    return (np.float32(1.0) / np.float32(base) ** exponent).astype(np.float64)


def measured_angle_error(theta, offset: int, position, pipeline: str, exact_theta=None) -> np.ndarray:
    """The relative angle's error per pair for a pipeline that rotates exactly (float32,
    bf16-positions, bf16-inv-freq): the angle of the key at `position` subtracted from the query's at
    position + offset, minus Δ·θ in float64, (d/2,). exact_theta: the true speeds when `theta` holds
    an engine's stored ones (`float32_speeds`); by default theta itself, rounded once by the pipeline."""
    theta = _checks.vector(theta, "theta")
    exact = theta if exact_theta is None else _checks.vector(exact_theta, "exact_theta")
    if pipeline not in ("float32", "bf16-positions", "bf16-inv-freq"):
        raise ValueError(f"pipeline must rotate exactly (float32, bf16-positions or bf16-inv-freq); got {pipeline!r}")
    cos, sin = pipeline_cos_sin([float(position) + offset, float(position)], theta, pipeline)  # (2, d/2)
    angle = np.arctan2(sin, cos)
    return np.angle(np.exp(1j * (angle[0] - angle[1] - offset * exact)))  # wrapped to (−π, π]


# ---------------------------------------------------------------------------
# 4. The atlas: five real configs, five pipelines, four offsets
# ---------------------------------------------------------------------------

ATLAS_OFFSETS = (1, 16, 4096, 131071)  # 131,071 = 128K − 1: the longest distance a 131,072-token window holds
ATLAS_PIPELINES = PIPELINES[1:]  # all but the float64 reference
FIGURE_INPUTS = ("lessons/gallery/llama-3.1-8b.json", "lessons/gallery/llama-4-scout.json",
                 "lessons/gallery/gpt-oss-20b.json", "lessons/gallery/gemma-3-4b.json")


def atlas_models() -> dict[str, dict]:
    """Each model's RoPE as its published config gives it: head_dim, the claimed length
    (max_position_embeddings) and the rope_parameters block that rope_inv_freq reads.

    Llama 3.1 8B, Llama 4 Scout and gpt-oss 20B from the site's gallery; Gemma 3 4B's global layers
    from the gallery's linear factor with Gemma3TextConfig's defaults (base 1,000,000, head_dim 256,
    131,072 positions); Qwen3-8B-Base from a copy of its config.json (base 1,000,000, no scaling,
    32,768 positions, head_dim 128).
    """
    models = {}
    for name, slug in (("Llama 3.1 8B", "llama-3.1-8b"), ("Llama 4 Scout", "llama-4-scout"),
                       ("gpt-oss 20B", "gpt-oss-20b")):
        c = gallery_text_config(slug)
        models[name] = {"head_dim": c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"],
                        "length": c["max_position_embeddings"],
                        "rope_parameters": {**c["rope_scaling"], "rope_theta": float(c["rope_theta"])}}
    gemma = gallery_text_config("gemma-3-4b")
    models["Gemma 3 4B global"] = {"head_dim": 256, "length": 131072,
                                   "rope_parameters": {**gemma["rope_scaling"], "rope_theta": 1e6}}
    models["Qwen3-8B-Base"] = {"head_dim": 128, "length": 32768,
                          "rope_parameters": {"rope_type": "default", "rope_theta": 1e6}}
    return models


def atlas_speeds(model: dict) -> tuple[np.ndarray, float]:
    """(θ, attention factor) of one atlas model, through `rope_inv_freq`."""
    return rope_inv_freq(model["head_dim"], model["rope_parameters"],
                         max_position_embeddings=model["length"])


def atlas_positions(length: int, offset: int, n: int = 16) -> np.ndarray:
    """Key positions for one offset: about n odd positions spread evenly on a log scale from 1 to the
    last key that leaves the query inside the claimed length (length − 1 − offset); empty when the
    offset does not fit, and only 0 when the offset fills the whole length. Odd, so that no grid point
    is a power of two (which bfloat16 holds exactly)."""
    last = length - 1 - offset
    if last < 1:
        return np.zeros(max(last + 1, 0), dtype=np.int64)  # [0] when last == 0, empty when it does not fit
    grid = np.geomspace(1, last, n).astype(np.int64) | 1  # odd
    return np.unique(np.minimum(grid, last))


def precision_atlas(n_samples: int = 8, seed: int = 0) -> dict:
    """The atlas: {model: {pipeline: {offset: (positions, phase errors, score errors)}}}.

    For every model of `atlas_models`, every pipeline but float64, every offset of ATLAS_OFFSETS that
    fits the claimed length, and every key position of `atlas_positions`: `relative_errors`.
    """
    atlas = {}
    for name, model in atlas_models().items():
        theta, factor = atlas_speeds(model)
        atlas[name] = {}
        for pipeline in ATLAS_PIPELINES:
            atlas[name][pipeline] = {}
            for offset in ATLAS_OFFSETS:
                positions = atlas_positions(model["length"], offset)
                if positions.size == 0:
                    continue
                errs = np.array([relative_errors(theta, p, offset, pipeline, factor, n_samples, seed)
                                 for p in positions])  # (n_positions, 2)
                atlas[name][pipeline][offset] = (positions, errs[:, 0], errs[:, 1])
    return atlas


def atlas_table(atlas: dict | None = None, kind: str = "score") -> list[tuple]:
    """One row per model: (model, claimed length, then per pipeline of ATLAS_PIPELINES the largest
    error over every offset and key position up to the claimed length).

    kind: "score" (|q·k/√d| error) or "phase" (the worst pair's relative angle, radians).
    """
    column = {"phase": 1, "score": 2}[_checks.one_of(kind, "kind", ("phase", "score"))]
    atlas = precision_atlas() if atlas is None else atlas
    models = atlas_models()
    rows = []
    for name, by_pipeline in atlas.items():
        worst = [max(float(e[column].max()) for e in by_pipeline[p].values()) for p in ATLAS_PIPELINES]
        rows.append((name, models[name]["length"], *worst))
    return rows


def atlas_by_offset(atlas: dict, name: str, kind: str = "phase") -> list[tuple]:
    """One model's rows by offset: (offset, then per pipeline of ATLAS_PIPELINES the largest error over
    the key positions), for the offsets that fit its claimed length. kind: "phase" or "score"."""
    column = {"phase": 1, "score": 2}[_checks.one_of(kind, "kind", ("phase", "score"))]
    by_pipeline = atlas[name]
    return [(offset, *[float(by_pipeline[p][offset][column].max()) for p in ATLAS_PIPELINES])
            for offset in ATLAS_OFFSETS if offset in by_pipeline[ATLAS_PIPELINES[0]]]


# ---------------------------------------------------------------------------
# 5. Figures (figures_build turns each into docs/figures/precision.<name>.svg)
# ---------------------------------------------------------------------------

# One look per pipeline on this page: colour, marker and dash, so the figure reads without colour.
PIPELINE_LOOKS: dict[str, Look] = {
    "float32": Look(BLUE, "o", "-"),
    "bf16-table": Look(ORANGE, "s", "--"),
    "bf16-qk": Look(GREEN, "D", ":"),
    "bf16-positions": Look(INK, "v", (0, (5, 1, 1, 1))),
    "bf16-inv-freq": Look(PURPLE, "^", "-."),
}
FIGURE_OFFSET = 16  # the offset the figure draws; the table takes every offset


def figures() -> dict:
    """The page's figure as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt


    atlas = precision_atlas()
    fig, axes = plt.subplots(3, 2, figsize=(6.4, 7.6), layout="constrained", sharey=True)
    for ax, (name, by_pipeline) in zip(axes.flat, atlas.items(), strict=False):
        for pipeline, look in PIPELINE_LOOKS.items():
            positions, phase, _ = by_pipeline[pipeline][FIGURE_OFFSET]
            ax.plot(positions, np.maximum(phase, 1e-9), ms=4, label=pipeline, **look.line())
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.axvline(256, color=GRID, lw=0.8)
        ax.set_title(name)
        ax.set(ylim=(1e-9, 10))
    for ax in axes[:, 0]:
        ax.set_ylabel("phase error (rad)")
    for ax in axes[-1]:
        ax.set_xlabel("key position")
    axes[-1, -1].axis("off")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    axes[-1, -1].legend(handles, labels, loc="center", frameon=False, title=f"offset {FIGURE_OFFSET}")
    figs = {"atlas": fig, "counting": counting_figure()}
    return figs


def counting_figure(first: int = 248, last: int = 268):
    """Level 1's picture: positions first..last as float32 holds them (every one exact) and as
    bfloat16 does (`bf16_round`: past `largest_exact_integer(BF16_BITS)` two tokens share one)."""
    import matplotlib.pyplot as plt

    positions = np.arange(first, last + 1)
    fig, ax = plt.subplots(figsize=(4.8, 3.4), layout="constrained")  # narrow: its text reads on a phone
    ax.plot(positions, positions, ms=3, label="float32: exact", **PIPELINE_LOOKS["float32"].line())
    ax.plot(positions, bf16_round(positions), ms=7, drawstyle="steps-mid", label="bfloat16",
            **PIPELINE_LOOKS["bf16-positions"].line(mfc="none"))
    exact = largest_exact_integer(BF16_BITS)
    ax.axvline(exact, color=GRID, lw=0.8)
    ax.text(exact - 0.5, last - 1, f"{exact}: last exact", ha="right", va="top")
    ax.set(xlabel="token's position", ylabel="position stored", xticks=positions[::4], yticks=positions[::4])
    ax.legend(loc="lower right")
    return fig


# ---------------------------------------------------------------------------
# 6. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. bfloat16 counts exactly only up to 256")
    table(["position", "in bfloat16", "gap to the next (ulp)"],
          [(m, int(bf16_round(m)), float(format_ulp(m, BF16_BITS))) for m in (255, 256, 257, 259, 1001, 131071)],
          floatfmt=".0f")
    say(f"bfloat16 keeps {BF16_BITS} significant bits: every integer is exact up to "
        f"{largest_exact_integer(BF16_BITS)}; float32 counts to {largest_exact_integer(FLOAT32_BITS):,}.")

    banner("2. The error of a relative angle, predicted and measured")
    theta, _ = atlas_speeds(atlas_models()["Llama 3.1 8B"])
    rows = []
    for pipeline, bits in (("float32", {}), ("bf16-inv-freq", {"theta_bits": BF16_BITS})):
        for position, offset in ((130_001, 16), (130_001, 4096)):
            bound = relative_angle_error(theta, offset, position, **bits)
            got = np.abs(measured_angle_error(theta, offset, position, pipeline))
            rows.append((pipeline, position, offset, float(got.max()), float(bound.max())))
    table(["pipeline", "key position", "offset", "measured (rad)", "bound (rad)"], rows, floatfmt=".2g")
    takeaway("The speed's format sets an error that grows with the distance; the angle's, one that grows "
             "with the position.")

    banner("3. The precision atlas: largest score error up to each model's claimed length")
    table(["model", "length", *ATLAS_PIPELINES], atlas_table(), floatfmt=".1g")
    say("Both engines' pipelines (float32 angles, a bfloat16 table) stay small; bfloat16 positions or "
        "speeds are wrong at every length these models claim. lessons.real_model measures the logits.")


if __name__ == "__main__":
    demo()
