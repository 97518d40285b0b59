r"""
# How far can a model read? Stretching RoPE past the trained length

Run it: `python -m lessons.context_extension` (a narrated walkthrough in the terminal).
Builds on `lessons.positional` (RoPE, position interpolation and the NTK-aware
base), `lessons.rope` (RoPE inside a real model and its cache) and
`lessons.attention` (scores, softmax and the key-value cache).

## Level 1: the practitioner's guide

<div class="primer-explorable" data-explorable="methods" markdown="0"></div>

**In one sentence.** A RoPE model only ever saw the rotation angles of the
positions it was trained on, so reading further means changing the turning
speeds of its pairs, and the `rope_parameters` block of a model's config says
exactly which recipe (linear, dynamic, yarn, longrope or llama3) and which
numbers the checkpoint expects.

**Try it:** pick a model to see its own `rope_parameters` block at the
length it serves, then drag the length read or switch the method; the
squares are the pairs pushed past the angles pretraining showed them. With
no scaling the slow pairs light up as soon as the layers read past the
pretrained length; position interpolation, YaRN and the Llama 3 rule, set
for the length read, keep every pair dark, and NTK-aware leaves all but one
of the slow pairs lit however far you stretch. Dynamic NTK, set the same
way, darkens as you stretch only because it raises the base for a far larger
stretch than the one read (the box prints it). A model's own block keeps the
factor it ships with: read further than that factor and its slow pairs light
again. Two exceptions: Llama 4 Scout 17B-16E Instruct's RoPE layers attend
within 8,192-token chunks, so nothing lights there at any length, and
LongRoPE's lists carry no factor (the Phi models light only at 64×). Only
Llama 3.1 8B lights pairs within the length it serves, where Meta reports
continued pretraining to 128K tokens but not which scaling was active then;
the others light them only past that length, which no training reached.

![Each stretching recipe's change to a pair's turning speed against that pair's wavelength, on log axes: position interpolation slows every pair by the same factor, NTK-aware slows them more and more along a diagonal, YaRN and the Llama 3 rule leave the short waves alone and slow only the long ones by the full factor, and LongRoPE's Phi-3.5 points are a curve of their own](figures/context_extension.scale_by_wavelength.svg)

**Reading it:** each point is one rotary pair, placed by its wavelength
before scaling (the fast pairs, which track nearby word order, on the left)
and by how much the recipe multiplies its speed (1 is untouched). Every
recipe is a different curve: the flat line of position interpolation slows
even the fastest pairs, the diagonal of NTK-aware scaling spares them but
slows some pairs too little, so they still reach angles never seen in
training, and YaRN and the Llama 3 rule keep the fast pairs at 1 and slow
the slow ones fully. A checkpoint was fine-tuned on one of these curves.
The `rope_parameters` block names it, and serving with another recipe, or
with none, reads positions on a curve the model never learned.

**When you need it.** Whenever a prompt may run longer than the length the
model was pretrained at. You meet it when a model card promises 128K tokens
but the config shows an `original_max_position_embeddings` of 8,192 and a
`factor` of 8; when you serve a model with a longer `--max-model-len` than its
config allows; when a long-context checkpoint behaves worse on short prompts
than its short sibling; or when a quantised copy in llama.cpp answers well on
short prompts and drifts into repetition on long ones. The tell is always the same: quality is
fine up to some length and then decays with nothing in the logs, because RoPE
never fails loudly.

**Your options.** Each row is a `rope_type` a Hugging Face config can name.

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Nothing (`default`) | Uses the trained speeds as they are | Best quality inside the trained length | Past it the slow pairs reach angles never seen in training | `rope_theta` in the config |
| Position interpolation (`linear`) | Divides every pair's speed by `factor` | A stretch by `factor`; works well after a short fine-tune | Blurs the fast pairs that tell neighbours apart | `rope_parameters`: `factor`; llama.cpp `--rope-scaling linear`, `--rope-scale` |
| Dynamic NTK (`dynamic`) | Raises the base by the NTK rule for a length: Hugging Face uses the current length, past the trained one only; vLLM one length, fixed at load | No fine-tune | Hugging Face: a KV cache built at a shorter length no longer matches; vLLM: short prompts change too | `rope_parameters`: `factor`; needs `max_position_embeddings` |
| YaRN (`yarn`) | Keeps fast pairs, divides slow pairs by `factor`, ramps in between, and sharpens attention slightly | The recipe behind many long checkpoints (Qwen, DeepSeek, gpt-oss); needs little fine-tuning | One more set of knobs (`beta_fast`, `beta_slow`, `mscale`) to copy exactly | `rope_parameters`; vLLM `--hf-overrides`; llama.cpp `--rope-scaling yarn`, `--yarn-orig-ctx` |
| LongRoPE (`longrope`) | A searched divisor for every pair, one list for short prompts and one for long | Phi-3 and Phi-3.5 reach 128K from 4K | Two lists of numbers per model; a switch at the trained length | `short_factor`, `long_factor` in `rope_parameters` |
| Llama 3 rule (`llama3`) | By wavelength: keep short waves, divide long waves by `factor`, blend the middle | Llama 3.1 and 3.2 at 128K from 8K | Fixed at training time; you copy it, you do not tune it | `low_freq_factor`, `high_freq_factor` in `rope_parameters` |

**How to choose.** Start from the checkpoint you have.

- The config already has a `rope_parameters` (older name `rope_scaling`)
  block: use it exactly as published. The weights were fine-tuned with those
  numbers; any other recipe reads positions the model never learned.
- The card says to add a block for long inputs (Qwen2.5 does: YaRN, factor 4
  over 32,768 tokens): add it only when you need the length. vLLM applies it
  statically, to every prompt, and the Qwen card warns that this may cost
  quality on short texts.
- No block and no fine-tuning budget: no recipe keeps quality past the
  trained length for free. `dynamic` means two things: Hugging Face leaves
  prompts up to the trained length alone, vLLM changes every prompt. Test it
  in the engine you serve with.
- You can fine-tune: YaRN or position interpolation plus a short run on long
  documents, then test at the target length. Not a raised `rope_theta` alone
  (NTK-aware scaling): some pairs still reach angles never seen in training,
  and the YaRN paper reports that fine-tuning with it gives worse results than
  with position interpolation (Peng et al., 2023, arXiv v2 §3.1; Appendix A.2 in v3).
- Whatever you pick, measure at the length you will run, with the fact you
  need both near the question and far from it. `lessons.measured` does this
  for every recipe on small trained models, with and without a fine-tune,
  and takes YaRN and dynamic NTK apart piece by piece.

**What it costs.** The recipe itself is free: it changes 64 numbers per head
before the first token. Length is what costs. For Llama 3.1 8B (32 layers,
8 key-value heads of width 128) one sequence's key-value cache in 16-bit
numbers is 1 GiB at the 8,192 tokens it was pretrained at and 16 GiB at the
131,072 its config allows (`kv_cache_bytes`). Training costs are the
papers' own: position interpolation stretched LLaMA to 32,768 tokens within
1,000 fine-tuning steps (Chen et al., 2023, abstract); YaRN reports needing
10× fewer tokens and 2.5× fewer steps than earlier methods (Peng et al., 2023,
abstract); Meta grew Llama 3 from 8K to 128K tokens in six stages of
continued pretraining on about 800B tokens (Llama Team, 2024, §3.4.2).

**What breaks.**

- **The block dropped on the way.** Converting, merging or quantising a
  checkpoint and losing `rope_parameters` leaves a model that reads its own
  long positions wrongly. Check the config of the copy you actually serve.
- **A longer window without scaling.** Raising `--max-model-len` (vLLM) or
  `-c` (llama.cpp) alone lets prompts through, but the slow pairs leave the
  trained band of angles. Set the scaling too, or do not raise the limit.
- **The wrong original length.** YaRN, LongRoPE and Llama 3 all measure
  wavelengths against `original_max_position_embeddings`; a wrong value moves
  every boundary. llama.cpp calls it `--yarn-orig-ctx`.
- **Dynamic scaling with a reused cache (Hugging Face).** Keys stored while
  the sequence was short were turned with the old base; once the base grows,
  queries and cached keys disagree. This lesson's run shows one score moving
  from 2.064 to 12.755. vLLM has no such mismatch: it fixes one base at load.
- **An override that drops keys.** vLLM's `--hf-overrides` sets a top-level
  dict such as `rope_parameters` whole, replacing the checkpoint's block
  (`ModelConfig._apply_dict_overrides` in vllm/config/model.py merges key by
  key only inside nested configs): a key you leave out, such as `rope_theta`,
  is lost, and vLLM's get_rope reads a missing `rope_theta` as 10,000. Repeat
  every key of the block. A vision-language model keeps its block under
  `text_config`; a top-level override lands on the outer config, which its
  language model never reads (described in vLLM pull request 54289), so write
  `{"text_config": {"rope_parameters": {...}}}`.
- **Forgetting the attention factor.** YaRN and LongRoPE also multiply cos
  and sin by an `attention_factor`; an implementation that copies the speeds
  but skips it gets slightly too flat attention at length.

**In the wild.** Llama 3.1 8B's config carries `rope_type` llama3 with
`rope_theta` 500,000, `factor` 8, `low_freq_factor` 1, `high_freq_factor` 4
and `original_max_position_embeddings` 8,192 under a
`max_position_embeddings` of 131,072 (meta-llama/Llama-3.1-8B config.json):
a window 16 times the original with a `factor` of 8, because `factor` divides
the speeds of the long waves and is not the window ratio. Llama 3.2 1B ships
`factor` 32 for the same 8,192 to 131,072 (meta-llama/Llama-3.2-1B
config.json). Qwen2.5's card adds a yarn block with
`factor` 4 over 32,768 tokens. DeepSeek-V2 uses yarn with `factor` 40,
`mscale` and `mscale_all_dim` of 0.707 over 4,096 tokens; gpt-oss uses yarn
with `truncate` false. Phi-3.5-mini uses longrope with 48-number
`short_factor` and `long_factor` lists over 4,096 tokens. vLLM reads all of
these from the config, and the vLLM documentation's Context Extension page
serves Qwen3-0.6B with
`--hf-overrides '{"rope_parameters": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768, "rope_theta": 1000000}}'`
and `--max-model-len 131072` (the older `--rope-scaling` flag is gone). llama.cpp takes `--rope-scaling` (none, linear or yarn),
`--rope-scale`, `--rope-freq-base`, `--yarn-orig-ctx`, `--yarn-beta-fast` and
`--yarn-beta-slow`, and reads the model's own values from the GGUF file when
you set none.

**Go deeper.** Level 2 derives each recipe from one idea, the wavelength of a
pair, with an 8-number head small enough for paper, and ends with
`rope_inv_freq`, which turns every block `transformers` 5.24 accepts into the
speeds it computes, to float32 precision; its twin in
`lessons/tools/rope_scaling.py` also warns or refuses where `transformers` does.
If you only needed to read a model card and serve it safely, you can stop here.

## Level 2: how it works, from scratch

Every recipe below answers one question differently: when a model trained on
$L$ tokens must read $s \cdot L$ of them, which pairs should turn slower, and
by how much? The running example is a head of $d = 8$ numbers (four pairs),
base 10,000, trained on $L$ = 1,000 tokens and stretched $s$ = 4 times.

## Wavelengths and the trained band: position interpolation and NTK-aware scaling

**Everyday picture.** A car's odometer has wheels that turn at different
speeds: the tenths wheel spins constantly, the ten-thousands wheel has barely
moved in the car's life. A mechanic who only ever saw cars under 1,000 miles
has seen every position of the fast wheels, but only a sliver of the slow one.
Show them a car at 4,000 miles and the fast wheels look normal while the slow
wheel points somewhere they have never seen. RoPE's pairs are those wheels.

**Tiny worked example.** Pair $i$ turns $\theta_i = 10000^{-2i/8}$ radians per
position, so it needs $2\pi/\theta_i$ positions for one full turn, its
*wavelength*. Over the 1,000 trained positions:

| pair | speed θ | wavelength | turns in 1,000 tokens | interpolation ÷4 | NTK base raised |
|---|---|---|---|---|---|
| 0 | 1 | 6.28 | 159 | 0.25 | 1 |
| 1 | 0.1 | 62.8 | 15.9 | 0.025 | 0.063 |
| 2 | 0.01 | 628 | 1.59 | 0.0025 | 0.0040 |
| 3 | 0.001 | 6,283 | 0.159 | 0.00025 | 0.00025 |

Pair 3 never completed a turn in training: its angles stayed between 0 and 1
radian. At position 4,000 it would sit at 4 radians, an angle the model never
saw. Position interpolation divides every speed by 4, so no pair leaves the
angles it saw, but neighbouring tokens end up a quarter of a radian apart on
pair 0. NTK-aware scaling raises the base from 10,000 to
$10000 \cdot 4^{8/6}$ = 63,496 instead: pair 0 keeps its speed, pair 3 slows
by exactly 4, and pairs 1 and 2 slow by less than 4. Here that is harmless,
because pairs 1 and 2 finished full turns in training and have seen every
angle. A real head has many pairs like pair 3, and NTK-aware scaling slows
all of them but the last by less than the stretch.

**The math.** Alongside each method's speeds, the ratio $r_i$ compares the
largest angle a pair that never finishes a turn in training ($\lambda_i > L$)
reaches at $sL$ tokens with the largest it reached in training. Positions
count from 0, so the last trained position is $L - 1$ and the last one read
is $sL - 1$:

$$
\lambda_i = \frac{2\pi}{\theta_i}, \qquad \theta_i^{\text{PI}} = \frac{\theta_i}{s}, \qquad \theta_i^{\text{NTK}} = \left(b \, s^{d/(d-2)}\right)^{-2i/d} = \theta_i \, s^{-2i/(d-2)}
$$

$$
r_i = \frac{(sL - 1)\,\theta_i'}{(L - 1)\,\theta_i} \approx s\,\frac{\theta_i'}{\theta_i}: \qquad r_i^{\text{PI}} = \frac{sL - 1}{s(L - 1)} \approx 1, \qquad r_i^{\text{NTK}} \approx s^{\,1 - 2i/(d-2)}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $\theta_i$ | speed of pair $i$, radians per position | 1, 0.1, 0.01, 0.001 |
| $\lambda_i$ | wavelength: positions per full turn | 6.28 to 6,283 |
| $b$ | the RoPE base, `rope_theta` | 10,000 |
| $s$ | the stretch, `factor` | 4 |
| $d$ | the rotary width of a head | 8 |
| $i$ | pair index, 0 (fastest) to $d/2 - 1$ | 0 to 3 |
| $L$ | the trained length; positions run 0 to $L - 1$ | 1,000 |
| $r_i$ | largest angle used ÷ largest angle seen, for $\lambda_i > L$ | 1 for pair 3, both methods |

**In words:** "a pair's wavelength is how many positions one full turn takes;
interpolation divides every speed by the stretch; NTK-aware scaling divides
pair $i$'s speed by the stretch raised to $2i/(d-2)$, which is 1 for the first
pair and the whole stretch for the last, so every pair that never finished a
turn in training, except the last, ends beyond the angles it saw."

**With the numbers:** for pair 3, $2i/(d-2) = 6/6 = 1$, so it slows by
$4^1 = 4$; for pair 1, $2/6$, so it slows by $4^{1/3} = 1.587$, from 0.1 to
0.063. In a realistic head ($d$ = 128, base 10,000, 4,096 tokens read at
32,768, $s = 8$) pairs 46 to 63, 18 of them, never finish a turn in 4,096
tokens. NTK-aware scaling slows pair 46 by only $8^{92/126} = 4.56$, so it
reaches $8^{1 - 92/126} = 1.75$ times its largest trained angle. All 18 end
above 1: even pair 63, slowed by the full 8, ends where interpolation ends,
at 1.0002, because the last position, 32,767, divided by 8 is 4,095.875,
0.875 of a position past the last trained one (less than one step, so
between two angles the pair did see).

**In Python:**

```python
from lessons.positional import rope_frequencies, ntk_scaled_base
from lessons.context_extension import (
    rope_wavelengths,
    ntk_pair_scale,
    rope_inv_freq,
)
theta = rope_frequencies(8, 10000.0)
[round(w, 2) for w in rope_wavelengths(theta)]
# → [6.28, 62.83, 628.32, 6283.19]
# full turns in the 1,000 trained positions
(1000 / rope_wavelengths(theta)).tolist()  # → [159, 15.9, 1.59, 0.159]
# position interpolation, written as a Hugging Face block
linear, _ = rope_inv_freq(8, {"rope_type": "linear", "factor": 4.0})
list(linear / theta)  # → [0.25, 0.25, 0.25, 0.25]
linear.tolist()  # → [0.25, 0.025, 0.0025, 0.00025]
# NTK-aware: raise the base, and each pair slows by s^(-2i/(d-2))
round(ntk_scaled_base(10000.0, 4.0, 8))  # → 63496
rope_frequencies(8, ntk_scaled_base(10000.0, 4.0, 8)).tolist()
# → [1, 0.063, 0.0040, 0.00025]
[
    round(x, 3)
    for x in rope_frequencies(8, ntk_scaled_base(10000.0, 4.0, 8)) / theta
]
# → [1.0, 0.63, 0.397, 0.25]
[round(x, 3) for x in ntk_pair_scale(8, 4.0)]  # → [1.0, 0.63, 0.397, 0.25]
# pair 1 turns 4^(1/3) times slower
round(1 / ntk_pair_scale(8, 4.0)[1], 3)  # → 1.587
# a realistic head: d = 128, base 10,000, trained on 4,096 tokens, read at
# 32,768
import numpy as np
from lessons.context_extension import example_angle_ratios
never = (
    rope_wavelengths(rope_frequencies(128, 10000.0)) > 4096
)  # short of one full turn in training
int(never.sum()), int(np.argmax(never))  # → (18, 46)
ntk = example_angle_ratios()["NTK-aware (base raised)"]
(
    int((ntk[never] > 1 + 1e-9).sum()),
    round(float(ntk.max()), 2),
    int(ntk.argmax()),
)
# → (18, 1.75, 46)
round(float(ntk[-1]), 6), 32767 / 8 - 4095  # → (1.000214, 0.875)
round(1 / ntk_pair_scale(128, 8.0)[46], 2), round(8 ** (1 - 92 / 126), 2)
# → (4.56, 1.75)
{name: round(float(r.max()), 2) for name, r in example_angle_ratios().items()}
# → {'no scaling': 8.0, 'NTK-aware (base raised)': 1.75,
#   'position interpolation (linear)': 1.0, 'YaRN': 1.0, 'Llama 3 rule': 1.0}
```

![Per pair of a 128-number head trained on 4,096 tokens and read at 32,768, the largest angle used divided by the largest angle seen in training: 1 for every pair under position interpolation, YaRN and the Llama 3 rule (1.0002 on the slow pairs); NTK-aware scaling is 1 for pairs 0 to 45, jumps to 1.75 at pair 46 and falls back to 1.0002 at pair 63](figures/context_extension.angle_ratio.svg)

**Reading it:** one point per pair. In the grey zone, pairs 0 to 45 finish a
full turn within 4,096 tokens, have seen every angle, and score 1 under every
method. From pair 46 on, interpolation, YaRN and the Llama 3 rule divide
speeds by the full 8 and stay at 1, or 1.0002 counting the last 0.875 of a
position (their lines lie on top of each other); NTK-aware scaling reaches
1.75 at pair 46 and comes back to 1.0002 only at pair
63, the slowest pair, the only one it brings back to its trained angles.

**In code:** `rope_wavelengths` gives every pair's wavelength, `ntk_pair_scale`
the NTK-aware slow-down per pair, `rope_inv_freq` with `rope_type` linear the
interpolated speeds, and `trained_angle_ratio` the ratio $r_i$ (capped at 1
for a pair that finished a turn); `example_angle_ratios` runs it for every
method on the 128-number head. `interpolate_positions` and `ntk_scaled_base`
in `lessons.positional` are the same two ideas applied to positions and to
the base.

**Why it matters.** Every method on this page is a rule for which wheels to
slow. Interpolation slows them all, which keeps every angle familiar and
blurs the fast pairs; NTK-aware scaling spares the fast pairs and under-slows
the slow ones. The YaRN paper reports the consequence: because some
dimensions reach "out-of-bound" values, fine-tuning with NTK-aware
interpolation gives worse results than PI, and its scale has to be set above
the intended stretch (Peng et al., 2023, arXiv v2 §3.1; Appendix A.2 in v3). The rule that fixes it, in
the YaRN section, divides every pair that never finishes a turn by the full
factor.

## Dynamic NTK: one name, two engines

**Everyday picture.** Two tailors are asked for room to grow. One lets the
jacket out only when the customer actually grows, a little more at each
fitting, so a pocket sewn on at the first fitting no longer lines up after
the third. The other cuts it once for the largest size allowed: nothing moves
later, but it is loose from the first day.

**Tiny worked example.** Trained length 1,000, `factor` 2, $d = 8$. Hugging
Face recomputes the base from the current length: up to 1,000 tokens it stays
10,000; at 3,000 tokens the stretch is $2 \cdot 3000/1000 - 1 = 5$ and the
base $10000 \cdot 5^{8/6}$ = 85,499. A key cached at token 500 while the
prompt was short was turned with base 10,000, a query at token 3,000 with
85,499, so their angle difference no longer depends on the distance alone.
vLLM computes one base when it builds its table of cos and sin, from the
table's length: for 2,000 positions the stretch is $2 \cdot 2 - 1 = 3$ and the
base 43,267, for a 10-token prompt and a 2,000-token one alike. Its cache
never disagrees, but no prompt runs with the trained base.

**The math.** One formula, fed two different lengths:

$$
\begin{aligned}
b'_{\text{HF}}(n) &= b \left( \frac{s\, n}{L} - (s - 1) \right)^{d/(d-2)} \ \text{for } n > L \ (b \text{ otherwise}),
\\ b'_{\text{vLLM}} &= b \left( \frac{s\, P}{L} - (s - 1) \right)^{d/(d-2)}
\end{aligned}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $b$, $b'$ | the trained base and the base used | 10,000; 85,499 (HF at 3,000), 43,267 (vLLM) |
| $n$ | current sequence length | 3,000 |
| $P$ | the number of positions vLLM's table covers | 2,000 |
| $L$ | trained length (`max_position_embeddings` in Hugging Face) | 1,000 |
| $s$ | `factor` | 2 |
| $d$ | rotary width | 8 |

**In words:** "raise the base by the NTK rule with a stretch that is 1 at the
trained length and grows by $s$ for every further trained length; Hugging
Face evaluates it at the length of the sequence in hand, vLLM once, at the
length its table covers."

**With the numbers:** $5^{8/6} = 8.55$, so $b'_{\text{HF}}(3000) = 85{,}499$;
$3^{8/6} = 4.33$, so $b'_{\text{vLLM}} = 43{,}267$, which is Hugging Face's
base at $n = 2{,}000$. The sources: Hugging Face's rule is the dynamic
initializer in transformers' modeling_rope_utils.py, whose
dynamic_rope_update decorator recomputes it when the sequence grows past the
longest seen so far and returns to the trained speeds when a sequence shorter
than $L$ follows a longer one. vLLM's is the
DynamicNTKScalingRotaryEmbedding layer in
vllm/model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py; until
vLLM pull request 41277 (April 2026) it built its table for $P = s \cdot L$
positions, a stretch of $s^2 - s + 1$, and since then it takes $P$ and $L$
from the model that calls it.

**In Python:**

```python
from lessons.context_extension import (
    dynamic_ntk_base,
    vllm_dynamic_ntk_base,
    cached_score_gap,
)
# Hugging Face: the base follows the current length
[
    round(dynamic_ntk_base(10000.0, 2.0, n, 1000, 8))
    for n in (10, 1000, 2000, 3000)
]
# → [10000, 10000, 43267, 85499]
round(dynamic_ntk_base(10000.0, 2.0, 3000, 1000, 8) / 10000.0, 2)  # → 8.55
# vLLM: one base for a table of 2,000 positions, whatever the prompt
round(vllm_dynamic_ntk_base(10000.0, 2.0, 2000, 1000, 8))  # → 43267
# factor 8 over 4,096 tokens: the stretch is 8*8 - 7 = 57, not 8; vLLM's
# long-standing table used it for every prompt
(
    round(dynamic_ntk_base(10000.0, 8.0, 32768, 4096, 128)),
    round(vllm_dynamic_ntk_base(10000.0, 8.0, 32768, 4096, 128)),
)
# → (607779, 607779)
# Hugging Face with a cache: a key cached at 4,096 tokens, reused at 16,384,
# scored two ways
fresh, stale = cached_score_gap(
    128, 10000.0, 2.0, 4096, 4096, 16384, key_pos=4000, query_pos=16000
)
(round(fresh, 3), round(stale, 3))  # → (2.064, 12.755)
```

![The RoPE base dynamic NTK uses against the prompt length for factors 2, 4 and 8: Hugging Face's stays at 10,000 up to the trained length of 4,096 tokens and then rises, faster for larger factors; vLLM's is one flat, already raised line per factor that Hugging Face's curve reaches at factor times 4,096 tokens](figures/context_extension.dynamic_base.svg)

**Reading it:** the vertical axis is the base on a log scale. Solid lines are
Hugging Face: flat at 10,000 until the dashed trained length, so short
prompts run exactly as trained, then climbing, and every step up changes the
speed of every pair but the first. Dotted lines are vLLM's long-standing
table ($P = s \cdot 4{,}096$): one base for every prompt, the one Hugging
Face reaches only at the table's last position.

**In code:** `dynamic_ntk_base` is Hugging Face's rule, `vllm_dynamic_ntk_base`
vLLM's; `cached_key_drift` gives each pair's angle error for a key cached
under Hugging Face's rule, and `cached_score_gap` the score with a fresh and
with a cached key.

**Why it matters.** `rope_type` dynamic needs no training, but one config
gives two models. Under Hugging Face, prompts up to the trained length run
exactly as trained, and long generations mix keys turned under old and new
bases. Under vLLM, every prompt, short ones included, runs with one raised
base and the cache stays consistent. A quality number measured in one engine
does not carry over to the other.

## YaRN: keep the fast pairs, interpolate the slow ones

**Everyday picture.** Retuning an orchestra for a bigger hall. The piccolos
(fast pairs) play the same notes; the double basses (slow pairs) are slowed
to fit the new room; the violas in between are adjusted part of the way. And
because a bigger hall makes everything sound softer, the conductor asks every
section to play a touch louder.

**Tiny worked example.** YaRN's first half, the NTK-by-parts rule, answers
the overshoot of NTK-aware scaling by deciding per pair from the turns it
made in the trained length: 159, 15.9, 1.59 and 0.159 for our four pairs. A
pair with fewer than `beta_slow` = 1 turn never saw its whole circle, so it is
divided by the full factor 4 and cannot pass the angles it saw; a pair with
more than `beta_fast` = 32 turns has seen every angle many times and is kept,
so local order stays sharp; pairs between get a straight-line blend.
Converted to pair indices, the boundaries fall at 0.70 and 2.20, rounded out
to 0 and 3, so the blend weights are 0, 1/3, 2/3 and 1 and the speeds are
divided by 1, 1.33, 2 and 4.

```mermaid
flowchart TB
  T["turns in training<br/>$$r_i = L / \lambda_i$$"] --> R{"$$r_i$$ against<br/>$$\beta_{\text{fast}}, \beta_{\text{slow}}$$"}
  R -->|"$$r_i \gt 32$$"| K["keep $$\theta_i$$"]
  R -->|"$$r_i \lt 1$$"| D["$$\theta_i / s$$"]
  R -->|"between"| M["blend with<br/>ramp $$\gamma_i$$"]
  K --> O["new $$\theta_i'$$"]
  D --> O
  M --> O
  O --> AF["cos, sin × attention<br/>factor $$0.1 \ln s + 1$$"]
```

**Reading it:** the only input is how many turns a pair made during
training, so the rule depends on the trained length and the base, not on the
prompt. The last box is YaRN's second idea: multiplying cos and sin by a
factor slightly above 1 multiplies every score by its square, which sharpens
the softmax that a longer context would otherwise spread thin.

**The math.**

$$
\begin{aligned}
i(r) &= \frac{d \, \ln\!\left(L / (2\pi r)\right)}{2 \ln b},
\\ \gamma_i &= \operatorname{clip}\!\left(\frac{i - \lfloor i(\beta_{\text{fast}}) \rfloor}{\lceil i(\beta_{\text{slow}}) \rceil - \lfloor i(\beta_{\text{fast}}) \rfloor}, 0, 1\right),
\\ \theta_i' &= (1 - \gamma_i)\,\theta_i + \gamma_i \frac{\theta_i}{s}
\end{aligned}
$$

$$
\begin{gathered}
\sqrt{1/t} = 0.1 \ln s + 1;
\\ \text{DeepSeek: } \frac{\mu(s, m)}{\mu(s, m_{\text{all}})} \text{ on cos and sin, } \frac{\mu(s, m_{\text{all}})^2}{\sqrt{d_{qk}}} \text{ as softmax scale},
\\ \mu(s, m) = 0.1\, m \ln s + 1
\end{gathered}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $r$ | turns a pair makes in $L$ positions | 159 to 0.159 |
| $i(r)$ | the (fractional) pair index that makes exactly $r$ turns | $i(32) = 0.70$, $i(1) = 2.20$ |
| $\beta_{\text{fast}}$, $\beta_{\text{slow}}$ | `beta_fast`, `beta_slow` | 32 and 1 |
| $\gamma_i$ | ramp: 0 keep, 1 interpolate | 0, 1/3, 2/3, 1 |
| $L$ | `original_max_position_embeddings` | 1,000 |
| $\sqrt{1/t}$ | the attention factor multiplying cos and sin | 1.139 for $s = 4$ |
| $m$, $m_{\text{all}}$, $d_{qk}$ | `mscale`, `mscale_all_dim`, the q·k width | DeepSeek-V2: 0.707, 0.707, 192 |

**In words:** "find the pair that turns 32 times in training and the pair
that turns once; keep everything faster than the first, fully interpolate
everything slower than the second, blend linearly between; then turn the
volume up by one tenth of the log of the stretch."

**With the numbers:** $i(32) = 8 \ln(1000/(64\pi)) / (2 \ln 10000) = 0.70$
and $i(1) = 2.20$, truncated outward to 0 and 3. The attention factor for
$s = 4$ is $0.1 \ln 4 + 1 = 1.139$, so scores grow by $1.139^2 = 1.296$.

**In Python:**

```python
from lessons.context_extension import (
    yarn_correction_dim,
    yarn_correction_range,
    yarn_ramp,
    yarn_attention_factor,
    deepseek_softmax_multiplier,
    rope_inv_freq,
)
from lessons.positional import rope_frequencies
(
    round(yarn_correction_dim(32, 8, 10000.0, 1000), 2),
    round(yarn_correction_dim(1, 8, 10000.0, 1000), 2),
)
# → (0.70, 2.20)
yarn_correction_range(32, 1, 8, 10000.0, 1000)  # → (0, 3)
# Qwen2.5's block (head 128, base 1,000,000, 32,768 tokens): kept up to pair
# 23, interpolated from pair 40
yarn_correction_range(32, 1, 128, 1_000_000.0, 32768)  # → (23, 40)
# the first section's head (128, base 10,000, 4,096 tokens): divided by the
# full factor from pair 46,
# the first pair short of a full turn
yarn_correction_range(32, 1, 128, 10000.0, 4096)  # → (20, 46)
yarn_ramp(0, 3, 4)  # → [0.0, 0.333, 0.667, 1.0]
theta, attention = rope_inv_freq(8, {"rope_type": "yarn", "factor": 4.0,
                                     "original_max_position_embeddings": 1000})
list(theta / rope_frequencies(8))  # → [1.0, 0.75, 0.5, 0.25]
round(attention, 3)  # → 1.139
# DeepSeek-V2's block (factor 40, mscale = mscale_all_dim = 0.707): cos and
# sin keep their size,
yarn_attention_factor(40, mscale=0.707, mscale_all_dim=0.707)  # → 1.0
# but its attention multiplies the softmax scale 1/sqrt(128 + 64) by
# mscale(40, 0.707) squared
round(deepseek_softmax_multiplier(40, mscale_all_dim=0.707), 2)  # → 1.59
round(
    (128 + 64) ** -0.5 * deepseek_softmax_multiplier(40, mscale_all_dim=0.707),
    4,
)
# → 0.1147
```

![YaRN's ramp for Qwen2.5's published block: zero for pairs 0 to 23, which turn more than 32 times in 32,768 tokens, rising linearly to one at pair 40, which turns less than once; the speed ratio falls from 1 to one quarter over the same pairs](figures/context_extension.yarn_ramp.svg)

**Reading it:** this is the real block from Qwen2.5's card: 128-number heads,
base 1,000,000, 32,768 trained tokens, `factor` 4. The green ramp is 0 up to
pair 23 and 1 from pair 40; the dashed line is the resulting speed ratio,
1 for the kept pairs and 1/4 for the interpolated ones. The shaded areas mark
the pairs that are kept and the pairs that are fully interpolated.

**In code:** `yarn_correction_dim`, `yarn_correction_range`, `yarn_ramp`,
`yarn_get_mscale`, `yarn_attention_factor` and `yarn_inv_freq` are the steps
(`deepseek_softmax_multiplier` is DeepSeek's softmax factor);
`rope_inv_freq` with `rope_type` yarn runs them with the library's defaults
(`beta_fast` 32, `beta_slow` 1, `truncate` true).

**Why it matters.** YaRN is the most common recipe in open long-context
checkpoints (its training cost is in Level 1). Its cut at one turn is what
keeps every pair inside the angles it saw: on the first section's head it
falls exactly at pair 46, so YaRN's ratio in that section's figure never
leaves 1. Getting the defaults right matters: gpt-oss turns `truncate` off,
and DeepSeek's `mscale` pair sets two factors. The one on cos and sin cancels
to 1 in DeepSeek-V2, but its attention still multiplies the softmax scale by
1.59, in transformers (models/deepseek_v3/modeling_deepseek_v3.py), vLLM and
SGLang (models/deepseek_v2.py) alike: a copy that applies only the first
runs its softmax at the wrong temperature, too flat.

## LongRoPE: a searched factor for every pair

**Everyday picture.** Instead of a rule for which odometer wheels to slow,
you hire an inspector who tries thousands of settings and writes down the
best slow-down for each wheel separately, once for short trips and once for
long ones.

**Tiny worked example.** Four pairs, trained on 1,000 tokens. A short list
[1, 1, 1.5, 2] is used up to 1,000 tokens and a long list [1, 2, 4, 4] beyond.
At 3,000 tokens the long list applies, so the speeds become 1, 0.05, 0.0025
and 0.00025. With a config length of 4,000 the stretch is 4, and the attention
factor is $\sqrt{1 + \ln 4 / \ln 1000} = 1.096$. No formula gives the
divisors: a search found them and the config ships them.

**The math.**

$$
\theta_i' = \frac{\theta_i}{f_i}, \quad f = \begin{cases}\text{short\_factor} & n \le L \\ \text{long\_factor} & n > L\end{cases}, \qquad \text{attention factor} = \sqrt{1 + \frac{\ln s}{\ln L}}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $f_i$ | the divisor for pair $i$ from the chosen list | long: 1, 2, 4, 4 |
| $n$ | current sequence length | 3,000 |
| $L$ | `original_max_position_embeddings` | 1,000 |
| $s$ | stretch: `factor`, or `max_position_embeddings` / $L$ | 4,000 / 1,000 = 4 |

**In words:** "divide each pair's speed by its own searched number, taken
from the short list for prompts up to the trained length and from the long
list after, and scale cos and sin by the square root of one plus the log
ratio of the stretch to the trained length."

**With the numbers:** pair 1 with the long list: $0.1 / 2 = 0.05$. The
attention factor: $\ln 4 / \ln 1000 = 1.386 / 6.908 = 0.201$ and
$\sqrt{1.201} = 1.096$. For Phi-3.5-mini ($L$ = 4,096, $s$ = 32) it is 1.190.

**In Python:**

```python
import numpy as np
from lessons.context_extension import (
    rope_inv_freq,
    longrope_attention_factor,
    longrope_factors,
)
block = {
    "rope_type": "longrope",
    "short_factor": [1, 1, 1.5, 2],
    "long_factor": [1, 2, 4, 4],
    "original_max_position_embeddings": 1000,
}
list(longrope_factors(block["short_factor"], block["long_factor"], 800, 1000))
# → [1.0, 1.0, 1.5, 2.0]
theta, attention = rope_inv_freq(
    8, block, max_position_embeddings=4000, seq_len=3000
)
[round(x, 5) for x in theta]  # → [1.0, 0.05, 0.0025, 0.00025]
round(attention, 3)  # → 1.096
# the attention factor by hand: ln 4 / ln 1000
round(np.log(4), 3), round(np.log(1000), 3), round(np.log(4) / np.log(1000), 3)
# → (1.386, 6.908, 0.201)
# Phi-3.5-mini: 4,096 tokens stretched to 131,072
round(longrope_attention_factor(131072 / 4096, 4096), 3)  # → 1.190
```

![Phi-3.5-mini's two lists of per-pair divisors on a log scale: the short list stays between 1 and about 3, the long list rises from about 1 for the fastest pair to about 65 for the slowest, above the overall stretch of 32](figures/context_extension.longrope_factors.svg)

**Reading it:** each point is one of Phi-3.5-mini's 48 pairs, fastest on the
left. Blue is the list for prompts up to 4,096 tokens: small divisors, so
short prompts run almost as trained. Vermillion (orange-red) is the list
for longer prompts: the fast pairs are nearly untouched, like YaRN, but the slowest pairs are divided
by about 65, twice the overall stretch of 32 (the dashed line).

**In code:** `longrope_factors` picks the list, `longrope_attention_factor`
gives the scale, and `rope_inv_freq` with `rope_type` longrope does both,
using the long list exactly when `seq_len` exceeds the original length.

**Why it matters.** LongRoPE's paper (Ding et al., 2024) reports extending
context to 2,048K tokens; Phi-3 and Phi-3.5 ship its lists in their configs.
Because the short and long lists differ, the same prompt is computed with
different speeds depending on whether the whole sequence is above or below
4,096 tokens.

## Llama 3's rule: decide by wavelength

**Everyday picture.** A ruler with three zones: marks closer together than a
fingernail are left exactly as they are, marks further apart than a hand are
all stretched the full amount, and marks in between are stretched part of the
way, more the wider they are.

**Tiny worked example.** With $L$ = 1,000, `low_freq_factor` 1 and
`high_freq_factor` 4, waves shorter than $1000/4 = 250$ positions are kept and
waves longer than $1000/1 = 1000$ are divided by the factor 4. Pairs 0 and 1
(wavelengths 6.28 and 62.8) are kept; pair 3 (6,283) is divided by 4; pair 2
(628) is in the middle, with a smoothing weight
$(1000/628.3 - 1)/(4 - 1) = 0.197$, so its speed becomes
$0.803 \cdot \theta/4 + 0.197 \cdot \theta = 0.398\,\theta$. The `factor` is
what the long waves' speeds are divided by, and nothing forces it to equal
the ratio of the new window to the trained length.

**The math.** The rule comes from Meta's reference code (apply_scaling in
meta-llama/llama-models, models/llama3/reference_impl/model.py, whose
comment says its values were "obtained from grid search"), not from the Llama 3
paper; transformers and vLLM copy it as `rope_type` llama3.

$$
w_i = \frac{L/\lambda_i - \ell}{h - \ell}, \qquad
\theta_i' = \begin{cases} \theta_i & \lambda_i < L/h \\ \theta_i / s & \lambda_i > L/\ell \\ (1 - w_i)\,\theta_i/s + w_i\,\theta_i & \text{otherwise} \end{cases}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $\lambda_i$ | wavelength of pair $i$ | 6.28, 62.8, 628, 6,283 |
| $L$ | `original_max_position_embeddings` | 1,000 |
| $\ell$, $h$ | `low_freq_factor`, `high_freq_factor` | 1 and 4 |
| $w_i$ | smoothing weight in the middle band | 0.197 for pair 2 |
| $s$ | `factor`: the divisor of the long waves' speeds | 4 |

**In words:** "waves short enough to fit $h$ times into the trained length are
kept; waves too long to fit even $\ell$ times are slowed by the full factor;
the rest are blended, weighted by how many times they fit." It is YaRN's
shape (keep, blend, divide) with boundaries set as wavelengths by two config
numbers instead of turn counts, and no attention factor.

**With the numbers:** for Llama 3.1 8B ($L$ = 8,192, $\ell$ = 1, $h$ = 4,
base 500,000, 64 pairs) the boundaries are 2,048 and 8,192 positions: 29 pairs
are kept, 6 are blended and 29 are divided by 8. Its window is 16 times
$L$, yet its `factor` is 8; Llama 3.2 1B has the same window and ships 32. At
131,072 tokens the slowest pair of Llama 3.1 8B reaches twice its largest
angle in 8,192 (2.0002, with positions counted from 0), and Llama 3.2 1B's
half of it.

**In Python:**

```python
import numpy as np
from lessons.attention import format_bytes, kv_cache_bytes
from lessons.context_extension import (
    llama3_smooth_factor,
    rope_inv_freq,
    rope_wavelengths,
    LLAMA31_8B,
)
from lessons.positional import rope_frequencies
[
    round(w, 3)
    for w in llama3_smooth_factor(
        rope_wavelengths(rope_frequencies(8)), 1000, 1.0, 4.0
    )
]
# → [52.718, 4.972, 0.197, -0.28]
# pair 2's blend: (1 - w) of theta/4 plus w of theta
w = llama3_smooth_factor(
    rope_wavelengths(rope_frequencies(8)), 1000, 1.0, 4.0
)[2]
round(1 - w, 3), round((1 - w) / 4 + w, 3)  # → (0.803, 0.398)
theta, _ = rope_inv_freq(
    8,
    {
        "rope_type": "llama3",
        "factor": 4.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 1000,
    },
)
[round(x, 4) for x in theta / rope_frequencies(8)]
# → [1.0, 1.0, 0.3979, 0.25]
# Llama 3.1 8B's published block, and the two wavelength boundaries L/high
# and L/low
params = LLAMA31_8B["rope_parameters"]
params["rope_theta"], params["factor"], LLAMA31_8B["max_position_embeddings"]
# → (500000.0, 8.0, 131072)
L = params["original_max_position_embeddings"]
L, L / params["high_freq_factor"], L / params["low_freq_factor"]
# → (8192, 2048.0, 8192.0)
# pairs kept, blended and divided by 8
ratio = rope_inv_freq(128, params)[0] / rope_frequencies(
    128, params["rope_theta"]
)
kept, divided = (
    int(np.sum(np.isclose(ratio, 1))),
    int(np.sum(np.isclose(ratio, 1 / 8))),
)
kept, ratio.size - kept - divided, divided  # → (29, 6, 29)
# one sequence's key-value cache in 16-bit numbers, at 8,192 tokens and at
# 131,072
shape = (
    LLAMA31_8B["n_layers"],
    LLAMA31_8B["n_kv_heads"],
    LLAMA31_8B["head_dim"],
)
(
    format_bytes(kv_cache_bytes(L, *shape)),
    format_bytes(kv_cache_bytes(131072, *shape)),
)
# → ('1 GiB', '16 GiB')
# Llama 3.1 8B and Llama 3.2 1B: the same 16x window, factors 8 and 32
from lessons.context_extension import LLAMA32_1B, trained_angle_ratio
models = (LLAMA31_8B, LLAMA32_1B)
[
    c["max_position_embeddings"]
    / c["rope_parameters"]["original_max_position_embeddings"]
    for c in models
]
# → [16.0, 16.0]
[c["rope_parameters"]["factor"] for c in models]  # → [8.0, 32.0]
def slowest(
    c,
):  # the slowest pair's largest angle at 131,072 over its largest at 8,192
    d, p = c["head_dim"], c["rope_parameters"]
    return float(
        trained_angle_ratio(
            rope_inv_freq(d, p)[0],
            rope_frequencies(d, p["rope_theta"]),
            8192,
            131072,
        )[-1]
    )
[round(slowest(c), 4) for c in models]  # → [2.0002, 0.5001]
```

![Llama 3.1's speed ratio against wavelength on a log axis: exactly 1 for wavelengths below 2,048 positions, exactly one eighth above 8,192, and a smooth descent between the two dashed boundaries](figures/context_extension.llama3_bands.svg)

**Reading it:** each dot is one of the 64 pairs of a Llama 3.1 head, placed
at its wavelength. Left of the green line (2,048 positions) nothing changes;
right of the vermillion (orange-red) line (8,192, the pretraining length) speeds are divided by
8; the six dots between them slide down smoothly, so no pair's speed jumps.

**In code:** `llama3_smooth_factor` is the weight $w_i$ (not clipped: it is
only used in the middle band) and `llama3_inv_freq` applies the three cases.

**Why it matters.** This is the rule every Llama 3.1 and 3.2 checkpoint is
served with, and the config block is how the RoPE of Meta's long-context
pretraining (Level 1, *What it costs*) reaches your server. A reimplementation
that sets `factor` to the window ratio gets both wrong: Llama 3.1's slow
pairs would turn too slowly and Llama 3.2's too fast.

## One function for every block: `rope_inv_freq`

**Everyday picture.** A universal adapter: whatever plug the model card
hands you, it gives the same thing out, a list of turning speeds and one
volume knob.

**Tiny worked example.** The same four pairs, every method at `factor` 4 over
1,000 trained tokens: the divisor of each pair is

| pair | wavelength | linear | NTK-aware | YaRN | Llama 3 |
|---|---|---|---|---|---|
| 0 | 6.28 | 4 | 1 | 1 | 1 |
| 1 | 62.8 | 4 | 1.59 | 1.33 | 1 |
| 2 | 628 | 4 | 2.52 | 2 | 2.51 |
| 3 | 6,283 | 4 | 4 | 4 | 4 |

```mermaid
flowchart TB
  C["rope_parameters dict"] --> S{"split by<br/>layer type?"}
  S -->|"yes (Gemma 3)"| L["one block<br/>per layer type"]
  S -->|"no"| T{"rope_type<br/>(or old key<br/>type)"}
  L --> T
  T --> F["$$\theta_i$$ for the rotary width<br/>(partial_rotary_factor · head_dim)"]
  F --> O["(inv_freq, attention_factor)"]
  O --> R["cos, sin = $$\cos(m\theta_i)\,a$$, $$\sin(m\theta_i)\,a$$"]
```

**Reading it:** the function computes from a block what `transformers` 5.24
computes (its `ROPE_INIT_FUNCTIONS`, in modeling_rope_utils.py): it reads the
method's name, takes the default speeds of the rotated part of the head, and
hands them to the helper of that method, which returns them with the
attention factor that scales cos and sin. Keys that model configs declare,
such as Qwen2-VL's `mrope_section`, change nothing: they say which position
(time, height or width) each pair turns by, not how fast. A config split by
layer type (Gemma 3) holds one block per type, each read the same way.

The page's version trusts the block. Before computing, `transformers` also
checks it (its config validation), and so does the same function in the tool
module `lessons/tools/rope_scaling.py`, which gives the same numbers on every
block `transformers` accepts: it refuses an unknown `rope_type` or a block
without a key its method cannot do without, such as `factor`, naming the key;
where `transformers` only warns, it warns too and computes the same speeds (a
key the method does not read, a `factor` below 1, Llama 4 Scout's
`low_freq_factor` equal to its `high_freq_factor`, so no pair is blended); it
runs a config split by layer type one type at a time. Run that one on a real
config.

**The math.**

$$
\cos_{m,i} = a \cos(m\,\theta_i'), \quad \sin_{m,i} = a \sin(m\,\theta_i'), \qquad (a\,R\,q)\cdot(a\,R\,k) = a^2\, (R\,q)\cdot(R\,k)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $\theta_i'$ | the scaled speed of pair $i$ | from the table above |
| $a$ | `attention_factor` | 1.139 for YaRN at $s$ = 4 |
| $m$ | position | any |
| $R$ | the rotation RoPE applies at position $m$ | each pair turned by $m\,\theta_i'$ |

**In words:** "the function returns new speeds and one number; multiplying
cos and sin by that number multiplies every attention score by its square."

**With the numbers:** $1.139^2 = 1.296$: YaRN at $s = 4$ makes every score
about 30% larger before the softmax.

**In Python:**

```python
import numpy as np
from lessons.context_extension import (
    ntk_pair_scale,
    pair_scale,
    rope_inv_freq,
    rope_cos_sin,
)
# the divisor table: every method at factor 4 over 1,000 trained tokens
blocks = {
    "linear": {"rope_type": "linear", "factor": 4.0},
    "YaRN": {
        "rope_type": "yarn",
        "factor": 4.0,
        "original_max_position_embeddings": 1000,
    },
    "Llama 3": {
        "rope_type": "llama3",
        "factor": 4.0,
        "original_max_position_embeddings": 1000,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
    },
}
{name: (1 / pair_scale(8, block)).tolist() for name, block in blocks.items()}
# → {'linear': [4, 4, 4, 4], 'YaRN': [1, 1.33, 2, 4],
#   'Llama 3': [1, 1, 2.51, 4]}
(1 / ntk_pair_scale(8, 4.0)).tolist()  # → [1, 1.59, 2.52, 4]
theta, a = rope_inv_freq(
    8,
    {
        "rope_type": "yarn",
        "factor": 4.0,
        "original_max_position_embeddings": 1000,
    },
)
cos, sin = rope_cos_sin(np.array([0, 1]), theta, a)
round(float(cos[0, 0]), 3)  # → 1.139
round(a ** 2, 3)  # → 1.296
# partial rotary: only the first 40% of an 80-wide head turns (Phi-2)
len(
    rope_inv_freq(80, {"rope_theta": 10000.0, "partial_rotary_factor": 0.4})[0]
)
# → 16
# Qwen2-VL-7B-Instruct config.json: "mrope" is plain RoPE; mrope_section
# splits the 64 pairs 16/24/24
qwen2_vl = {
    "type": "mrope",
    "mrope_section": [16, 24, 24],
    "rope_theta": 1000000.0,
}
np.allclose(
    rope_inv_freq(128, qwen2_vl)[0],
    rope_inv_freq(128, {"rope_theta": 1000000.0})[0],
)
# → True
# Gemma 3 4B (google/gemma-3-4b-it config.json) as transformers 5.x stores
# it, split by layer type
gemma3 = {
    "full_attention": {
        "rope_type": "linear",
        "factor": 8.0,
        "rope_theta": 1000000.0,
    },
    "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
}
{
    kind: round(float(rope_inv_freq(256, block)[0][1]), 4)
    for kind, block in gemma3.items()
}
# → {'full_attention': 0.1122, 'sliding_attention': 0.9306}
```

The tool's twin, with `transformers`' checks in front:

```python
import warnings
import numpy as np
from lessons.context_extension import rope_inv_freq
from lessons.tools.rope_scaling import rope_inv_freq as checked_rope_inv_freq
try:
    checked_rope_inv_freq(128, {"rope_type": "yarn", "factor": 4.0})
except ValueError as err:
    message = str(err)
message.split(" needs ")
# → ["rope_parameters for rope_type 'yarn'",
#   "the key 'original_max_position_embeddings'"]
# Llama 4 Scout (meta-llama/Llama-4-Scout-17B-16E-Instruct config.json): low
# = high = 1 empties the blend band
scout = {
    "rope_type": "llama3",
    "rope_theta": 500000.0,
    "factor": 16.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 1.0,
    "original_max_position_embeddings": 8192,
}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    speeds, _ = checked_rope_inv_freq(128, scout)
ratio = speeds / rope_inv_freq(128, {"rope_theta": 500000.0})[0]
# one warning, the page's numbers; pairs kept and divided by 16
len(caught), np.array_equal(speeds, rope_inv_freq(128, scout)[0])
# → (1, True)
int(np.sum(ratio == 1)), int(np.sum(np.isclose(ratio, 1 / 16)))  # → (35, 29)
```

![Every method's speed ratio against each pair's original wavelength on log axes: interpolation is flat at one eighth, NTK-aware falls steadily from 1 to one eighth, YaRN and the Llama 3 rule stay at 1 for short waves and drop to one eighth near the trained length, and LongRoPE's Phi-3.5 points fall from near 1 to about one sixty-fifth](figures/context_extension.scale_by_wavelength.svg)

**Reading it:** the horizontal axis is a pair's wavelength before scaling
(short waves, fast pairs, on the left), the vertical axis how much its speed
is multiplied by. The four lines share the running example (128-number head,
base 10,000, 4,096 to 32,768 tokens). Interpolation is the flat line at 1/8;
NTK-aware is the straight diagonal; YaRN and the Llama 3 rule hug 1 on the
left and 1/8 on the right and differ only in where they bend. The teal
squares are Phi-3.5-mini's real long factors (its own head and a stretch
of 32).

**In code:** `rope_inv_freq` dispatches to the helpers above; `rope_type_of`
reads the method's name; `rope_cos_sin` applies the result (the angles come
from `lessons.positional.angle_table`); `pair_scale` divides by the default
speeds. The tests compare `rope_inv_freq` with vectors computed by
`transformers` 5.24 for every `rope_type` (`proportional` is Gemma 4's), over
real and synthetic configurations: the published Llama 3.1, Llama 4 Scout,
Qwen2.5, Qwen2-VL, DeepSeek-V2-Lite, Gemma 3 and Phi-3.5-mini blocks among
them; they hold the tool's twin to the same numbers, and to `transformers`'
warnings.

**Why it matters.** When a checkpoint misbehaves at length, this is the
function to run on its config: it shows exactly which pairs the model expects
slowed and by how much; through the tool's twin, a missing key fails loudly,
and a key the library would ignore is named in a warning instead of passing
silently.

## In 20 seconds

- A pair's wavelength against the trained length decides whether its angles
  at long positions are familiar; slow pairs are the problem.
- Interpolation slows every pair. NTK-aware scaling spares the fast pairs but
  slows those that never finish a turn by less than the stretch, so they pass
  their trained angles; YaRN and Llama 3 divide those by the full factor.
  LongRoPE searches a divisor per pair.
- Dynamic NTK needs no training but means two things: Hugging Face raises the
  base as the sequence grows (a cache built shorter no longer matches), vLLM
  fixes one base at load for every prompt.
- YaRN and LongRoPE also scale cos and sin, which scales scores by the square.
- Serve a checkpoint with the `rope_parameters` it was trained with, and check
  the copy you deploy still has them.

## Self-test questions

??? question "A config says max_position_embeddings 131072, rope_type llama3, factor 8, original_max_position_embeddings 8192. How much longer is the window than the original length, and what happens to its fastest pair?"
    16 times (131,072 / 8,192). The factor 8 is not that ratio: it is what
    the long waves' speeds are divided by (Llama 3.2 1B ships 32 for the same
    window). The fastest pair has a wavelength of about 6 positions, far below
    8,192 / 4 = 2,048, so its speed is kept exactly.

??? question "What does NTK-aware scaling get right that interpolation does not, and what does it get wrong?"
    It leaves pair 0 at one radian per position, so neighbours stay as far
    apart as in training. But it slows pair i by s^(2i/(d-2)), less than s for
    every pair but the last, so pairs that never finished a turn in training
    pass their trained angles: all 18 in a 128-number head stretched 8
    times, by up to 1.75 times.

??? question "With dynamic NTK, factor 2 and a trained length of 1,000, what base does a 3,000-token prompt use with d = 8, in Hugging Face and in vLLM with a 2,000-position table?"
    Hugging Face: the stretch is 2 · 3 − 1 = 5, so the base is
    10,000 · 5^(8/6), about 85,499. vLLM: the stretch is 2 · 2 − 1 = 3 and
    the base about 43,267, the same for every prompt.

??? question "In YaRN, which pairs are kept and which are fully interpolated?"
    Pairs that turn more than `beta_fast` (32) times in the original length
    are kept; pairs that turn fewer than `beta_slow` (1) times are divided by
    the factor; those between are blended by a linear ramp.

??? question "What does an attention factor of 1.139 do to the attention scores?"
    It multiplies cos and sin, so both q and k are scaled by it and every score
    grows by 1.139 squared, about 1.296: a slightly sharper softmax.

??? question "Why can LongRoPE give different results for the same first 1,000 tokens?"
    It switches from the short list to the long list once the whole sequence
    passes the original length, so the same early tokens are turned at
    different speeds depending on the total length.

## The papers behind this lesson

- Su et al. (2021), *RoFormer: Enhanced Transformer with Rotary Position
  Embedding*, [arXiv:2104.09864](https://arxiv.org/abs/2104.09864) (companion: `papers.su2021_roformer`). Introduced
  RoPE, the rotation every recipe here rescales.
- Chen et al. (2023), *Extending Context Window of Large Language Models via
  Positional Interpolation*, [arXiv:2306.15595](https://arxiv.org/abs/2306.15595) (companion: `papers.chen2023_interpolation`).
  Showed that dividing positions by the stretch plus a short fine-tune
  extends LLaMA to 32,768 tokens.
- bloc97 (2023), *NTK-Aware Scaled RoPE allows LLaMA models to have extended
  (8k+) context size without any fine-tuning and minimal perplexity
  degradation*, a Reddit post in r/LocalLLaMA, not a paper. Proposed raising
  the base instead of squeezing positions; the dynamic form followed in the
  same community.
- Peng et al. (2023), *YaRN: Efficient Context Window Extension of Large
  Language Models*, [arXiv:2309.00071](https://arxiv.org/abs/2309.00071) (companion: `papers.peng2023_yarn`).
  NTK-by-parts (the ramp between kept and interpolated pairs), the attention
  temperature, and the report that NTK-aware interpolation fine-tunes worse
  than PI (arXiv v2 §3.1; Appendix A.2 in v3).
- Ding et al. (2024), *LongRoPE: Extending LLM Context Window Beyond 2 Million
  Tokens*, [arXiv:2402.13753](https://arxiv.org/abs/2402.13753). Searched
  per-pair factors and separate short and long lists.
- Llama Team, AI @ Meta (2024), *The Llama 3 Herd of Models*,
  [arXiv:2407.21783](https://arxiv.org/abs/2407.21783). Staged long-context
  pretraining to 128K tokens (§3.4.2); the wavelength rule itself is in
  Meta's reference code, not the paper.

## Further reading

- Hugging Face Transformers, `modeling_rope_utils.py`: the reference
  implementation of every `rope_type` (the tests compare against it).
- vLLM documentation, *Context Extension*: serving a model with
  `--hf-overrides` and `--max-model-len`.
- llama.cpp server README: the `--rope-scaling` and `--yarn-*` options.
- `lessons.positional` for RoPE itself, and `lessons.alibi` for a scheme that
  needs no stretching at all.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, BLUE_FILL, GREEN, GREEN_FILL, GREY_FILL, GRID, METHOD_LOOKS, PURPLE, RED
from lessons._show import banner, say, table, takeaway
from lessons.attention import format_bytes, kv_cache_bytes
from lessons.positional import (
    angle_table,
    apply_rope,
    ntk_scaled_base,
    rope_frequencies,
)

# ---------------------------------------------------------------------------
# 0. Reading a model card: the config keys, and what a long context costs
# ---------------------------------------------------------------------------

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional")

# Published configs come from the model-card gallery, one file per model citing where it was read (`read_from`)
FIGURE_INPUTS = ("lessons/gallery/llama-3.1-8b.json", "lessons/gallery/phi-3.5-mini.json")


def _gallery_config(slug: str) -> dict:
    return json.loads((Path(__file__).parent / "gallery" / f"{slug}.json").read_text(encoding="utf-8"))["config"]


def _published(slug: str) -> dict:
    """A gallery config in this page's shape: its lengths, head and a transformers-5 `rope_parameters` block."""
    c = _gallery_config(slug)
    return {"max_position_embeddings": c["max_position_embeddings"],
            "head_dim": c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"],
            "n_layers": c["num_hidden_layers"], "n_kv_heads": c["num_key_value_heads"],
            "rope_parameters": {**c["rope_scaling"], "rope_theta": c["rope_theta"]}}


LLAMA31_8B = _published("llama-3.1-8b")
# Llama 3.2 1B: the same 8,192 -> 131,072 window, but factor 32 (factor divides speeds; not the window ratio)
LLAMA32_1B = _published("llama-3.2-1b")


# ---------------------------------------------------------------------------
# 1. Wavelengths: how far each RoPE pair can count before it wraps
# ---------------------------------------------------------------------------


def rope_wavelengths(theta: np.ndarray) -> np.ndarray:
    """λ_i = 2π / θ_i for (d/2,) speeds θ (radians per position): (d/2,) wavelengths, in positions per full turn."""
    return 2 * np.pi / np.asarray(theta, dtype=float)


# ---------------------------------------------------------------------------
# 2. Position interpolation (linear): every pair slows by the same factor
# ---------------------------------------------------------------------------


def linear_inv_freq(theta: np.ndarray, factor: float) -> np.ndarray:
    """Position interpolation as speeds: θ_i / s for (d/2,) trained speeds θ and stretch s (every position ÷ s)."""
    return np.asarray(theta, dtype=float) / factor


# ---------------------------------------------------------------------------
# 3. NTK-aware scaling and its dynamic form: raise the base instead
# ---------------------------------------------------------------------------


def ntk_pair_scale(d: int, factor: float) -> np.ndarray:
    """new θ_i / old θ_i after NTK-aware scaling (base raised to base · s^(d/(d-2))): s^(-2i/(d-2)).

    Args:
        d: the rotary width, an even integer >= 4.
        factor: the stretch s.

    Returns:
        (d/2,) float array, from 1 (pair 0) down to 1/s (the last pair).
    """
    d = _checks.count(_checks.even_width(d), "d", low=4)
    i = np.arange(d // 2)
    return factor ** (-2 * i / (d - 2))


def trained_angle_ratio(inv_freq: np.ndarray, theta: np.ndarray, trained_len: int, new_len: int) -> np.ndarray:
    """Per pair: the largest angle used at `new_len` ÷ the largest angle seen in training.

    Positions run 0..L−1 in training and 0..new_len−1 when read. A pair that finishes a full
    turn in training ((L−1)·θ_i >= 2π) has seen every angle: its ratio is
    min((new_len−1)·θ'_i / 2π, 1). Any other pair's is (new_len−1)·θ'_i / ((L−1)·θ_i),
    and above 1 means angles the model never saw.

    Args:
        inv_freq: (d/2,) speeds θ'_i used at the new length; theta: (d/2,) trained speeds θ_i.
        trained_len, new_len: the trained length L and the length read now.

    Returns:
        (d/2,) float array.
    """
    inv_freq, theta = np.asarray(inv_freq, dtype=float), np.asarray(theta, dtype=float)
    used = (new_len - 1) * inv_freq  # largest angle at the new length: the last position is new_len - 1
    seen = (trained_len - 1) * theta  # largest angle in training: positions 0 .. L - 1
    full_turn = seen >= 2 * np.pi  # a full turn in training: every angle seen
    return np.where(full_turn, np.minimum(used / (2 * np.pi), 1.0), used / seen)


def dynamic_ntk_stretch(factor: float, seq_len: int, max_position_embeddings: int) -> float:
    """The stretch dynamic NTK raises its base for: s · n / L − (s − 1), and 1 up to the trained length.

    For the config's `factor` s, the current length `seq_len` n and the trained length
    `max_position_embeddings` L: a float, 1 at n = L, s + 1 at n = 2L, growing by s per further L.
    """
    seq_len = max(seq_len, max_position_embeddings)
    return factor * seq_len / max_position_embeddings - (factor - 1)


def dynamic_ntk_base(base: float, factor: float, seq_len: int, max_position_embeddings: int, d: int) -> float:
    """The base dynamic NTK uses at the current length: `ntk_scaled_base` for a stretch that grows
    with the prompt (`dynamic_ntk_stretch`; the trained base up to the trained length), a float.

    It takes the trained `base`, the config's `factor` s, the current `seq_len`, the trained length
    `max_position_embeddings` and the rotary width `d` (even, >= 4).
    """
    return ntk_scaled_base(base, dynamic_ntk_stretch(factor, seq_len, max_position_embeddings), d)


def vllm_dynamic_ntk_base(base: float, factor: float, table_len: int, trained_len: int, d: int) -> float:
    """The one base vLLM's dynamic-NTK rotary layer computes for its cos/sin table,
    b · (s · P/T − (s − 1))^(d/(d−2)), used for every prompt: `dynamic_ntk_base` evaluated once,
    at the table's length P (`table_len` >= T = `trained_len`), not at each prompt's length.
    vLLM's long-standing code built the table for P = s · T positions (stretch s² − s + 1);
    later code takes P and T from the caller. Returns the base, a float.
    """
    trained_len = _checks.count(trained_len, "trained_len")
    table_len = _checks.count(table_len, "table_len", low=trained_len)
    return ntk_scaled_base(base, dynamic_ntk_stretch(factor, table_len, trained_len), d)  # s · P/T − (s − 1)


def cached_key_drift(d: int, base: float, factor: float, max_position_embeddings: int,
                     cached_len: int, now_len: int, key_pos: int) -> np.ndarray:
    """Angle error per pair of a key rotated at `cached_len` and reused at `now_len`.

    With a KV cache a key is rotated once, with the base of the length at that moment (head
    `d`, `base`, `factor`, `max_position_embeddings` as for `dynamic_ntk_base`); dynamic NTK
    later changes the base, so queries and old keys disagree. Returns (d/2,) radians,
    key_pos · (θ then − θ now).
    """
    old = rope_frequencies(d, dynamic_ntk_base(base, factor, cached_len, max_position_embeddings, d))
    new = rope_frequencies(d, dynamic_ntk_base(base, factor, now_len, max_position_embeddings, d))
    # key_pos · (θ_old − θ_new): how far the cached key is from where a fresh key would be
    return key_pos * (old - new)  # (d/2,)


def cached_score_gap(d: int, base: float, factor: float, max_position_embeddings: int,
                     cached_len: int, now_len: int, key_pos: int, query_pos: int, seed: int = 0) -> tuple[float, float]:
    """The score q·k with a freshly rotated key and with the stale cached key, (fresh, stale) floats.

    q and k are random (d,) vectors from `seed`, rotated with interleaved RoPE
    (`lessons.positional.apply_rope`); the query always uses the base of `now_len`.
    """
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    base_now = dynamic_ntk_base(base, factor, now_len, max_position_embeddings, d)
    base_then = dynamic_ntk_base(base, factor, cached_len, max_position_embeddings, d)
    q_rot = apply_rope(q, query_pos, base_now)
    fresh = float(q_rot @ apply_rope(k, key_pos, base_now))
    stale = float(q_rot @ apply_rope(k, key_pos, base_then))
    return fresh, stale


# ---------------------------------------------------------------------------
# 4. YaRN: keep the fast pairs, interpolate the slow ones, ramp in between
# ---------------------------------------------------------------------------


def yarn_correction_dim(n_rotations: float, d: int, base: float, original_max_position_embeddings: int) -> float:
    """The (fractional) pair index whose pair turns `n_rotations` times r in the trained length L: L / λ_i = r
    solved for i with λ_i = 2π base^(2i/d), i(r) = d · ln(L / (2π r)) / (2 ln base), d the rotary width."""
    return d * math.log(original_max_position_embeddings / (n_rotations * 2 * math.pi)) / (2 * math.log(base))


def yarn_correction_range(beta_fast: float, beta_slow: float, d: int, base: float,
                          original_max_position_embeddings: int, truncate: bool = True) -> tuple[float, float]:
    """Pair indices (low, high): below low keep θ, above high divide θ by the factor.

    `beta_fast` and `beta_slow` are the turn counts that mark the two ends (32 and 1), for head
    `d`, `base` and trained length; `truncate` rounds low down and high up to whole pairs
    (the library's default). Both are clipped to 0 and d - 1.
    """
    low = yarn_correction_dim(beta_fast, d, base, original_max_position_embeddings)
    high = yarn_correction_dim(beta_slow, d, base, original_max_position_embeddings)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, d - 1)


def yarn_ramp(low: float, high: float, n_pairs: int) -> np.ndarray:
    """γ_i, (n_pairs,) in [0, 1]: 0 at or below `low` (kept), 1 at or above `high` (interpolated), linear between."""
    if low == high:
        high += 0.001  # the library's guard against dividing by zero
    return np.clip((np.arange(n_pairs) - low) / (high - low), 0.0, 1.0)


def yarn_printed_ramp(theta: np.ndarray, original_max_position_embeddings: int, alpha: float = 1.0,
                      beta: float = 32.0) -> np.ndarray:
    """γ_i as the YaRN paper prints it (Eq. 11): linear in the turns r_i = L / λ_i, not in the pair index.

    The paper's γ is 1 to keep a pair; this returns 1 − γ, this module's convention (0 keep,
    1 interpolate), so `yarn_inv_freq` takes either ramp: (d/2,) in [0, 1] for (d/2,) trained
    speeds, trained length L and turn counts `alpha` (below: interpolated) and `beta` (above:
    kept). `yarn_ramp` is the released code's, linear in the pair index between
    `yarn_correction_range`'s ends; the two agree only at the ends (`papers.peng2023_yarn`
    compares them for Llama 2).
    """
    turns = original_max_position_embeddings / rope_wavelengths(theta)
    return 1.0 - np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)


def yarn_get_mscale(scale: float, mscale: float = 1.0) -> float:
    """0.1 · mscale · ln(s) + 1 for a stretch s > 1, else 1: the YaRN paper's temperature rule (>= 1 if mscale >= 0)."""
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def yarn_attention_factor(factor: float, mscale: float | None = None, mscale_all_dim: float | None = None) -> float:
    """The number YaRN multiplies cos and sin by (so scores grow by its square), for the stretch
    `factor`; with DeepSeek's `mscale` and `mscale_all_dim` both set, the ratio of their two
    `yarn_get_mscale` values.
    """
    if mscale and mscale_all_dim:
        return yarn_get_mscale(factor, mscale) / yarn_get_mscale(factor, mscale_all_dim)
    return yarn_get_mscale(factor)


def deepseek_softmax_multiplier(factor: float, mscale_all_dim: float | None) -> float:
    """The number DeepSeek-V2/V3 attention multiplies its softmax scale by, for a yarn block.

    The scale 1/sqrt(q·k width) becomes 1/sqrt(width) · yarn_get_mscale(s, mscale_all_dim)²,
    for the whole of q·k, rotated and unrotated parts alike; the attention factor
    on cos and sin (`yarn_attention_factor`) comes on top. Read from transformers
    models/deepseek_v3/modeling_deepseek_v3.py (yarn_apply_mscale), vLLM and SGLang
    models/deepseek_v2.py (DeepseekV2Attention, DeepseekV2AttentionMLA).
    `mscale_all_dim` 0 or None means no multiplier (1.0); about 1.59 for s = 40 and 0.707.
    """
    if not mscale_all_dim:
        return 1.0
    return yarn_get_mscale(factor, mscale_all_dim) ** 2


def yarn_inv_freq(theta: np.ndarray, factor: float, ramp: np.ndarray) -> np.ndarray:
    """(d/2,) speeds θ_i · (1 − γ_i) + (θ_i / s) · γ_i from trained speeds θ, stretch s and ramp γ (`yarn_ramp`)."""
    theta = np.asarray(theta, dtype=float)
    return theta * (1 - ramp) + theta / factor * ramp


# ---------------------------------------------------------------------------
# 5. LongRoPE: a searched factor per pair, one list for short, one for long
# ---------------------------------------------------------------------------


def longrope_factors(short_factor, long_factor, seq_len: int | None, original_max_position_embeddings: int) -> np.ndarray:
    """The (d/2,) per-pair divisors: `long_factor` once `seq_len` (the whole sequence) passes the
    trained length, else `short_factor` (also when seq_len is None).
    """
    if seq_len and seq_len > original_max_position_embeddings:
        return np.asarray(long_factor, dtype=float)
    return np.asarray(short_factor, dtype=float)


def longrope_attention_factor(factor: float, original_max_position_embeddings: int) -> float:
    """LongRoPE's attention factor: sqrt(1 + ln s / ln L) for the stretch s > 1 and trained length L, else 1."""
    if factor <= 1.0:
        return 1.0
    return math.sqrt(1 + math.log(factor) / math.log(original_max_position_embeddings))


# ---------------------------------------------------------------------------
# 6. Llama 3: by wavelength, keep short, divide long, blend the middle
# ---------------------------------------------------------------------------


def llama3_smooth_factor(wavelength: np.ndarray, original_max_position_embeddings: int,
                         low_freq_factor: float, high_freq_factor: float) -> np.ndarray:
    """Llama 3's smoothing weight (L/λ − low) / (high − low): 1 at λ = L/high, 0 at λ = L/low (not clipped).

    For wavelengths λ ((d/2,) or one number), the trained length L and the block's
    `low_freq_factor` and `high_freq_factor`: floats shaped like the wavelengths.
    """
    ratio = original_max_position_embeddings / np.asarray(wavelength, dtype=float)
    return (ratio - low_freq_factor) / (high_freq_factor - low_freq_factor)


def llama3_inv_freq(theta: np.ndarray, factor: float, original_max_position_embeddings: int,
                    low_freq_factor: float, high_freq_factor: float) -> np.ndarray:
    """Llama 3.1's rule for the (d/2,) speeds: keep short waves, divide long ones by s, blend between.

    `theta` is the (d/2,) trained speeds and `factor` s; the other arguments are the block's
    keys of the same names.
    """
    theta = np.asarray(theta, dtype=float)
    wavelength = rope_wavelengths(theta)
    long_wave = original_max_position_embeddings / low_freq_factor  # longer than this: divide by s
    short_wave = original_max_position_embeddings / high_freq_factor  # shorter than this: keep
    with np.errstate(divide="ignore", invalid="ignore"):  # low == high: no middle band (Llama 4 Scout)
        smooth = llama3_smooth_factor(wavelength, original_max_position_embeddings, low_freq_factor, high_freq_factor)
        # middle band: (1 − smooth) · θ/s + smooth · θ
        middle = (1 - smooth) * theta / factor + smooth * theta
    # transformers' order: divide the long waves, then blend short_wave <= λ <= long_wave (empty if high <= low)
    divided = np.where(wavelength > long_wave, theta / factor, theta)
    return np.where((wavelength >= short_wave) & (wavelength <= long_wave), middle, divided)


# ---------------------------------------------------------------------------
# 7. One entry point: a Hugging Face rope_parameters dict -> θ and the attention factor
# ---------------------------------------------------------------------------


def rope_type_of(rope_parameters: dict) -> str:
    """The method a rope_parameters dict names: `rope_type`, else the older key `type`.

    As in transformers 5.24: `rope_type` wins when both are set, and Qwen2-VL's
    "mrope" is plain RoPE ("default"; models/qwen2_vl/configuration_qwen2_vl.py).

    Returns:
        one of `ROPE_TYPES`; "default" when the dict names none.
    """
    if not isinstance(rope_parameters, dict):
        raise ValueError(f"rope_parameters must be a dict, got {type(rope_parameters).__name__}")
    rope_type = rope_parameters.get("rope_type") or rope_parameters.get("type") or "default"
    if rope_type == "mrope":
        rope_type = "default"
    if rope_type not in ROPE_TYPES:
        raise ValueError(f"unknown rope_type '{rope_type}'; known rope_type values: {', '.join(ROPE_TYPES)}")
    return rope_type


def rope_inv_freq(head_dim: int, rope_parameters: dict | None = None, *, max_position_embeddings: int | None = None,
                  seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """(θ per pair, attention_factor) for one Hugging Face `rope_parameters` block: each
    `rope_type`'s formula, with transformers 5.24's defaults and arithmetic (there in float32).

    This is the version the page teaches: it trusts the block. `lessons/tools/rope_scaling.py`
    has the same function with transformers' checks in front (what it rejects, what it
    only warns about); the two agree on every block transformers accepts.

    Args:
        head_dim: the head width; only its first head_dim · partial_rotary_factor
            dimensions turn (an odd rotary width gives ceil(d/2) speeds, as in transformers).
        rope_parameters: the config's block, e.g. {"rope_type": "yarn", "factor": 4.0, ...};
            None means plain RoPE with base 10,000.
        max_position_embeddings: the config's top-level length: dynamic's trained length, and
            the original length of yarn, longrope and llama3 when the block has none.
        seq_len: the current sequence length (dynamic: the base; longrope: which list).

    Returns:
        (inv_freq, attention_factor): (rotary_dim/2,) speeds ((head_dim/2,) for proportional)
        and the number that multiplies cos and sin.
    """
    params = rope_parameters or {}
    rope_type = rope_type_of(params)
    base = params.get("rope_theta") or 10000.0
    partial = params.get("partial_rotary_factor")
    partial = 1.0 if partial is None else partial
    if rope_type == "proportional":
        # Gemma 4's global layers: the first partial · head_dim/2 pairs turn at base^(-2i/head_dim)
        # (the exponent counts the whole head), the other pairs stand still; `factor` (1 if absent) divides all
        turning = int(partial * head_dim // 2)
        inv_freq = np.zeros(head_dim // 2)
        inv_freq[:turning] = base ** (-np.arange(0, 2 * turning, 2) / head_dim)
        return inv_freq / params.get("factor", 1.0), 1.0
    d = int(head_dim * partial)  # the rotary width: only the first d dimensions turn
    theta = base ** (-np.arange(0, d, 2) / d)  # the default speeds, `rope_frequencies` for even d
    original = params.get("original_max_position_embeddings") or max_position_embeddings
    factor = params.get("factor")
    if rope_type in ("yarn", "longrope") and factor is None:
        factor = max_position_embeddings / original  # transformers' fallback (Phi-3's convention for longrope)
    attention = params.get("attention_factor")
    if rope_type == "default":
        return theta, 1.0
    if rope_type == "linear":
        return linear_inv_freq(theta, factor), 1.0
    if rope_type == "dynamic":
        n = max_position_embeddings if seq_len is None else seq_len
        return rope_frequencies(d, dynamic_ntk_base(base, factor, n, max_position_embeddings, d)), 1.0
    if rope_type == "yarn":
        if attention is None:
            attention = yarn_attention_factor(factor, params.get("mscale"), params.get("mscale_all_dim"))
        low, high = yarn_correction_range(params.get("beta_fast") or 32, params.get("beta_slow") or 1, d, base,
                                          original, params.get("truncate", True))
        return yarn_inv_freq(theta, factor, yarn_ramp(low, high, d // 2)), float(attention)
    if rope_type == "longrope":
        if attention is None:
            attention = longrope_attention_factor(factor, original)
        factors = longrope_factors(params["short_factor"], params["long_factor"], seq_len, original)
        return theta / factors, float(attention)
    return llama3_inv_freq(theta, factor, original, params["low_freq_factor"], params["high_freq_factor"]), 1.0


def rope_cos_sin(positions: np.ndarray, inv_freq: np.ndarray, attention_factor: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of position · θ_i times the attention factor, for (n,) positions and (d/2,) speeds
    (e.g. from `rope_inv_freq`): (cos, sin), each (n, d/2), one column per pair (layout-free:
    spread them over the pairs of whichever layout the rotation uses).
    """
    angles = angle_table(positions, inv_freq)  # (n, d/2)
    return np.cos(angles) * attention_factor, np.sin(angles) * attention_factor


def pair_scale(head_dim: int, rope_parameters: dict, **kwargs) -> np.ndarray:
    """new θ_i / old θ_i, (rotary_dim/2,), 1 = untouched, 1/s = fully interpolated; arguments as for `rope_inv_freq`."""
    default = {k: v for k, v in rope_parameters.items() if k in ("rope_theta", "partial_rotary_factor")}
    new, _ = rope_inv_freq(head_dim, rope_parameters, **kwargs)
    old, _ = rope_inv_freq(head_dim, default)
    return new / old


# ---------------------------------------------------------------------------
# 8. Figures (figures_build turns each into docs/figures/context_extension.<name>.svg)
# ---------------------------------------------------------------------------

# The running example of the figures: a 4,096-token model (d = 128, base 10,000) stretched 8x.
EXAMPLE = {"d": 128, "base": 10000.0, "trained": 4096, "factor": 8.0}


def example_methods() -> dict[str, dict]:
    """The running example (`EXAMPLE`) as {method label: rope_parameters dict}, one per method."""
    base, trained, s = EXAMPLE["base"], EXAMPLE["trained"], EXAMPLE["factor"]
    return {
        "position interpolation (linear)": {"rope_type": "linear", "rope_theta": base, "factor": s},
        "YaRN": {"rope_type": "yarn", "rope_theta": base, "factor": s, "original_max_position_embeddings": trained},
        "Llama 3 rule": {"rope_type": "llama3", "rope_theta": base, "factor": s, "low_freq_factor": 1.0,
                         "high_freq_factor": 4.0, "original_max_position_embeddings": trained},
    }


# The running example's methods, by the label its figures and `example_angle_ratios` give them: the
# name of each one's look in lessons._palette.METHOD_LOOKS (the same colour and dash on every page).
METHOD_LABELS = {"no scaling": "none", "position interpolation (linear)": "linear", "NTK-aware (base raised)": "ntk",
                 "YaRN": "yarn", "Llama 3 rule": "llama3"}


def _example_freqs() -> dict[str, np.ndarray]:
    d, trained, s = EXAMPLE["d"], EXAMPLE["trained"], EXAMPLE["factor"]
    out = {"no scaling": rope_frequencies(d, EXAMPLE["base"])}
    out["NTK-aware (base raised)"] = rope_frequencies(d, ntk_scaled_base(EXAMPLE["base"], s, d))
    for label, params in example_methods().items():
        out[label] = rope_inv_freq(d, params, max_position_embeddings=int(trained * s), seq_len=int(trained * s))[0]
    return out


def example_angle_ratios() -> dict[str, np.ndarray]:
    """{method label: (d/2,) `trained_angle_ratio`} of the running example `EXAMPLE` read at s · L, "no scaling" too."""
    freqs = _example_freqs()
    trained = EXAMPLE["trained"]
    new_len = int(trained * EXAMPLE["factor"])
    return {label: trained_angle_ratio(theta, freqs["no scaling"], trained, new_len) for label, theta in freqs.items()}


def figures() -> dict:
    """The page's six figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}
    d, base, trained, s = EXAMPLE["d"], EXAMPLE["base"], EXAMPLE["trained"], EXAMPLE["factor"]
    freqs = _example_freqs()

    # 1. Per pair: the largest angle used at s·L over the largest angle seen in training.
    ratios = example_angle_ratios()
    first_slow = int(np.argmax(rope_wavelengths(freqs["no scaling"]) > trained))  # first pair short of a full turn
    fig, ax = plt.subplots(figsize=(6.4, 5.4), layout="constrained")
    ax.axvspan(-0.5, first_slow - 0.5, color=GREY_FILL,
               label=f"pairs 0-{first_slow - 1}: a full turn within {trained:,} tokens, every angle seen")
    ax.axhline(1, color=GRID, lw=0.8)
    for label in ("position interpolation (linear)", "YaRN", "Llama 3 rule", "NTK-aware (base raised)"):
        look = METHOD_LOOKS[METHOD_LABELS[label]]
        ax.plot(np.arange(d // 2), ratios[label], ls=look.dash, color=look.colour, lw=1.8, label=label)
    ntk = ratios["NTK-aware (base raised)"]
    ax.annotate(f"pair {int(ntk.argmax())}: {ntk.max():.2f}x", (ntk.argmax(), ntk.max()), xytext=(24, ntk.max()),
                arrowprops={"arrowstyle": "->", "lw": 0.8})
    ax.set(xlabel="pair index i (0 = fastest)", ylabel="largest angle used ÷ largest seen", ylim=(0.9, 1.9))
    ax.set_title(f"Read at {int(trained * s):,} tokens after training on {trained:,}\n(d = {d}, base {base:,.0f})")
    fig.legend(frameon=False, loc="outside lower center")  # below the axes: inside, it sat on the lines
    figs["angle_ratio"] = fig

    # 2. Dynamic NTK: the base against the current sequence length.
    fig, ax = plt.subplots(figsize=(6.4, 5.0), layout="constrained")
    lengths = np.arange(1024, 8 * trained + 1, 256)
    for factor, color in ((2.0, BLUE), (4.0, GREEN), (8.0, PURPLE)):
        ax.plot(lengths, [dynamic_ntk_base(base, factor, int(n), trained, d) for n in lengths], color=color,
                label=f"Hugging Face, factor {factor:g}")
        # vLLM's long-standing table: P = factor x trained positions, one base for every prompt
        ax.axhline(vllm_dynamic_ntk_base(base, factor, int(factor * trained), trained, d), color=color, ls=":",
                   lw=1.4, label=f"vLLM, factor {factor:g}")
    ax.axvline(trained, color=GRID, lw=0.8, ls="--", label=f"trained length {trained:,}")
    ax.set(xlabel="current sequence length (tokens)", ylabel="RoPE base used", yscale="log",
           title="Dynamic NTK: Hugging Face follows the length, vLLM fixes one base")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2, frameon=False)
    figs["dynamic_base"] = fig

    # 3. YaRN's ramp for Qwen2.5's published block.
    qd, qbase, qorig, qs = 128, 1_000_000.0, 32768, 4.0
    low, high = yarn_correction_range(32, 1, qd, qbase, qorig)
    ramp = yarn_ramp(low, high, qd // 2)
    rotations = qorig / rope_wavelengths(rope_frequencies(qd, qbase))
    fig, ax = plt.subplots(figsize=(6.4, 4.6), layout="constrained")
    ax.plot(np.arange(qd // 2), ramp, "o-", ms=3, color=GREEN, label="ramp γ (0 keep, 1 divide by the factor)")
    ax.plot(np.arange(qd // 2), rope_inv_freq(qd, {"rope_type": "yarn", "rope_theta": qbase, "factor": qs,
                                                   "original_max_position_embeddings": qorig})[0]
            / rope_frequencies(qd, qbase), "--", color=BLUE, label="new θ / old θ")
    ax.axvspan(0, low, color=GREEN_FILL, alpha=0.8)
    ax.axvspan(high, qd // 2 - 1, color=BLUE_FILL, alpha=0.8)
    ax.text(low / 2, 0.55, "> 32 turns\nin training:\nkept", ha="center")
    ax.text((high + qd // 2 - 1) / 2, 0.55, "< 1 turn:\ninterpolated", ha="center")
    ax.set(xlabel=f"pair index i (pair {low}: {rotations[low]:.0f} turns, pair {high}: {rotations[high]:.2f})",
           ylabel="value")
    ax.set_title("YaRN ramp for Qwen2.5's block\n(d 128, base 1e6, 32,768 tokens, factor 4)")
    fig.legend(frameon=False, loc="outside lower center")  # below: inside, it sat on the new θ / old θ line
    figs["yarn_ramp"] = fig

    # 4. LongRoPE: Phi-3.5-mini's two lists of per-pair factors.
    from_config = _phi35_factors()
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    pairs = np.arange(len(from_config["short_factor"]))
    ax.plot(pairs, from_config["short_factor"], "o-", ms=3, color=BLUE, label="short_factor (≤ 4,096 tokens)")
    ax.plot(pairs, from_config["long_factor"], "s-", ms=3, color=RED, label="long_factor (> 4,096 tokens)")
    ax.axhline(32, color=GRID, ls="--", lw=0.8, label="the overall stretch, 131,072 / 4,096 = 32")
    ax.set(xlabel="pair index i (0 = fastest)", ylabel="θ is divided by", yscale="log",
           title="LongRoPE in Phi-3.5-mini: one searched factor per pair")
    ax.legend(frameon=False)
    figs["longrope_factors"] = fig

    # 5. Llama 3.1's rule by wavelength.
    p = LLAMA31_8B["rope_parameters"]
    theta = rope_frequencies(128, p["rope_theta"])
    waves = rope_wavelengths(theta)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.semilogx(waves, rope_inv_freq(128, p)[0] / theta, "o-", ms=3, color=PURPLE, label="new θ / old θ")
    L = p["original_max_position_embeddings"]
    ax.axvline(L / p["high_freq_factor"], color=GREEN, ls="--", lw=0.8, label=f"L / high = {L / p['high_freq_factor']:,.0f}")
    ax.axvline(L / p["low_freq_factor"], color=RED, ls="--", lw=0.8, label=f"L / low = {L / p['low_freq_factor']:,.0f}")
    ax.set(xlabel="wavelength 2π/θ (positions per turn)", ylabel="new θ / old θ",
           title="Llama 3.1: keep short waves, divide long ones by 8, blend between")
    ax.legend(frameon=False)
    figs["llama3_bands"] = fig

    # 6. Every method on one chart: per-pair scale against wavelength.
    fig, ax = plt.subplots(figsize=(6.4, 5.6), layout="constrained")
    old_waves = rope_wavelengths(freqs["no scaling"])
    for label, theta in freqs.items():
        if label == "no scaling":
            continue
        look = METHOD_LOOKS[METHOD_LABELS[label]]
        ax.loglog(old_waves, theta / freqs["no scaling"], ls=look.dash, color=look.colour, lw=1.6, label=f"{label}, 8x")
    phi_old = rope_frequencies(96, 10000.0)
    phi_new = rope_inv_freq(96, {"rope_type": "longrope", **_phi35_factors(), "rope_theta": 10000.0,
                                 "original_max_position_embeddings": 4096},
                            max_position_embeddings=131072, seq_len=8192)[0]
    ax.loglog(rope_wavelengths(phi_old), phi_new / phi_old, "s", ms=2.5, color=METHOD_LOOKS["longrope"].colour,
              label="LongRoPE long factors (Phi-3.5-mini, 32x)")
    ax.axvline(trained, color=GRID, lw=0.8, ls="--", label=f"trained length {trained:,}")
    ax.set(xlabel="wavelength of the pair before scaling (positions per turn)", ylabel="new θ / old θ",
           title="How much each method slows each pair")
    fig.legend(frameon=False, loc="outside lower center")  # below: inside, it covered the slow pairs
    figs["scale_by_wavelength"] = fig
    return figs


def _phi35_factors() -> dict[str, list[float]]:
    """Phi-3.5-mini-instruct's short_factor and long_factor (48 pairs each) from the gallery, at the two
    decimals they were chosen at (the config stores float32: 1.0800000429153442 is 1.08)."""
    block = _gallery_config("phi-3.5-mini")["rope_scaling"]
    return {key: [round(x, 2) for x in block[key]] for key in ("short_factor", "long_factor")}


# ---------------------------------------------------------------------------
# 9. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. Reading Llama 3.1 8B's card")
    p = LLAMA31_8B["rope_parameters"]
    say(f"""max_position_embeddings = {LLAMA31_8B['max_position_embeddings']:,}; rope_parameters say rope_type
        '{p['rope_type']}', factor {p['factor']:g}, original_max_position_embeddings
        {p['original_max_position_embeddings']:,}: a window 16 times the original, and factor 8 divides the long
        waves' speeds (Llama 3.2 1B ships {LLAMA32_1B['rope_parameters']['factor']:g} for the same window). A full
        window's KV cache costs
        {format_bytes(kv_cache_bytes(LLAMA31_8B['max_position_embeddings'], 32, 8, 128))} per sequence in 16-bit.""")
    theta = rope_frequencies(128, p["rope_theta"])
    scale = rope_inv_freq(128, p)[0] / theta
    kept, divided = int(np.sum(np.isclose(scale, 1))), int(np.sum(np.isclose(scale, 1 / p["factor"])))
    table(["pairs kept", "pairs blended", "pairs divided by 8"], [(kept, 64 - kept - divided, divided)])

    banner("2. Every method on the running example (d 128, base 10,000, 4K -> 32K)")
    freqs = _example_freqs()
    ratios = example_angle_ratios()
    rows = [(label, th[0] / freqs["no scaling"][0], th[-1] / freqs["no scaling"][-1], ratios[label].max())
            for label, th in freqs.items()]
    table(["method", "fastest pair new/old", "slowest pair new/old", "largest angle / trained"], rows, floatfmt=".4f")
    takeaway("NTK-aware scaling brings only the slowest pair home: pairs 46 to 62 still pass their trained angles.")

    banner("3. Dynamic NTK in two engines, and a KV cache")
    fresh, stale = cached_score_gap(128, 10000.0, 2.0, 4096, 4096, 16384, 4000, 16000)
    say(f"""Hugging Face: a key cached while the prompt was 4,096 tokens long was turned with base 10,000; at
        16,384 tokens the base is {dynamic_ntk_base(10000.0, 2.0, 16384, 4096, 128):,.0f}. The score of a query at
        16,000 with the key at 4,000 is {fresh:.3f} if the key is turned afresh and {stale:.3f} from the cache.
        vLLM (a table of 8,192 positions): base {vllm_dynamic_ntk_base(10000.0, 2.0, 8192, 4096, 128):,.0f} for
        every prompt, short ones included.""")

    banner("4. Attention factors")
    table(["method", "attention factor"], [
        ("YaRN, factor 4 (Qwen2.5)", yarn_attention_factor(4.0)),
        ("YaRN, DeepSeek-V2 mscale 0.707/0.707", yarn_attention_factor(40, 0.707, 0.707)),
        ("  ... and DeepSeek-V2's softmax scale multiplier", deepseek_softmax_multiplier(40, 0.707)),
        ("LongRoPE, 4,096 -> 131,072 (Phi-3.5)", longrope_attention_factor(32.0, 4096)),
    ], floatfmt=".4f")
    takeaway("rope_inv_freq turns every rope_parameters block transformers 5.24 accepts into these numbers; "
             "lessons/tools/rope_scaling.py adds its checks and warnings.")


if __name__ == "__main__":
    demo()
