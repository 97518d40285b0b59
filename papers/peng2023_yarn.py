r"""
# YaRN: Efficient Context Window Extension of Large Language Models

Bowen Peng, Jeffrey Quesnelle, Honglu Fan and Enrico Shippole (Nous Research,
EleutherAI, University of Geneva), 2023, ICLR 2024,
[arXiv:2309.00071](https://arxiv.org/abs/2309.00071).

Read it with: `lessons.context_extension` (wavelengths, NTK-aware scaling, the YaRN
section and `rope_inv_freq`), after the Position Interpolation companion,
`papers.chen2023_interpolation`.

## What the paper set out to fix

Position Interpolation slows every RoPE pair by the same factor $s$, which, the authors
argue, strips the high frequencies the model needs to tell close tokens apart (§3.1).
Raising the base instead ("NTK-aware" scaling, first posted on Reddit by bloc97) spares
the fast pairs but pushes some slow pairs to "out-of-bound" values, so fine-tuning with
it "yields inferior results to PI" and $s$ must be set above the intended stretch
(Appendix A.2). The paper writes up the community's NTK-aware, NTK-by-parts (keep fast
pairs, interpolate slow ones, ramp between) and Dynamic NTK methods (§1), adds an
attention temperature, and calls NTK-by-parts plus the temperature YaRN (§3.3).

## Reading guide

This page follows arXiv v3 (the ICLR 2024 version). v2, the version ar5iv renders,
numbers differently: NTK-aware is §3.1 there (Eqs. 14 to 16), NTK-by-parts §3.2 (Eqs. 17
to 20), Dynamic NTK §3.3 and YaRN §3.4 (Eqs. 21 and 22).

First pass: Eq. 7 in §2.1 ($g$ maps positions, $h$ maps speeds), §2.2 (Eq. 8), §3.2
(Eqs. 10 to 13), §3.3 (Eqs. 14, 15), §4.1 and §4.5; then Appendix A.2 (NTK-aware, Eqs.
17 to 22) and A.3 (Eq. 23). Skip at first: the rest of §2.1 if you know RoPE
(`lessons.positional`), §2.3 (related work; its Eq. 9 prints $g(m) = s \cdot m$, but PI
divides, as Eq. 16 shows), §4.3 and §4.4 (passkey, benchmarks), Appendix B.

## Symbols: the paper's notation and the site's

| Paper | Site | Meaning |
|---|---|---|
| $\lvert D \rvert$ | $d$ | the rotary width of a head (128 in LLaMA and Llama 2) |
| $d$, $\theta_d = b^{-2d/\lvert D \rvert}$ | $i$, $\theta_i$, `rope_frequencies` | pair index and its speed; the paper writes $\theta_1 \ldots \theta_{\lvert D \rvert/2}$, the code counts from 0 |
| $b$, $b'$ | $b$, `ntk_scaled_base` | the RoPE base (10,000) and NTK-aware's raised base |
| $s = L'/L$ | $s$, `factor` | the stretch |
| $L$ | $L$, `original_max_position_embeddings` | the trained length (4,096 for Llama 2) |
| $\lambda_d$ | $\lambda_i$, `rope_wavelengths` | positions per full turn of a pair |
| $r(d) = L/\lambda_d$ | $r_i$ | full turns a pair makes in the trained length |
| $\alpha$, $\beta$ | `beta_slow` (1), `beta_fast` (32) | below $\alpha$ turns: interpolate; above $\beta$: keep |
| $\gamma(r)$ | $\gamma_i$, `yarn_ramp`, reversed | the paper's ramp is 1 for kept pairs, the site's for interpolated ones |
| $h(\theta_d)$ | $\theta_i'$, `yarn_inv_freq` | the new speed of a pair |
| $\sqrt{1/t}$ | $a$, `yarn_get_mscale` | the factor on cos and sin; logits grow by $1/t = a^2$ |
| $l'$ | $n$ | the current sequence length (Dynamic Scaling) |

## The equations, with the code

**Wavelengths and turns (§2.2 Eq. 8, §3.2 Eq. 10).** $\lambda_d = 2\pi/\theta_d =
2\pi b^{2d/|D|}$ and $r(d) = L/\lambda_d$. **In code:** `rope_wavelengths`. In Llama 2's
head (base 10,000, $L$ = 4,096) pair 0 turns 651.9 times in the trained length, pair 20
36.7 times, pair 45 just over once (1.004), pair 46 less than once (0.869).

```python
from lessons.positional import rope_frequencies
from lessons.context_extension import rope_wavelengths
turns = 4096 / rope_wavelengths(rope_frequencies(128))  # r(d), Eq. 10
[round(float(turns[i]), 3) for i in (0, 20, 45, 46)]
# → [651.899, 36.659, 1.004, 0.869]
```

**NTK-aware scaling (Appendix A.2, Definition 3, Eqs. 17 to 22).** $g(m) = m$,
$h(\theta_d) = b'^{-2d/|D|}$ with

$$
b' = b \cdot s^{\frac{|D|}{|D|-2}}
$$

chosen (Eq. 21) so that the slowest pair slows by exactly $s$ and the fastest not at
all. **In code:** `lessons.positional.ntk_scaled_base`, and `ntk_pair_scale` for each
pair's factor $s^{-2i/(d-2)}$. The "out-of-bound" values are slow pairs slowed by less than $s$: for
the paper's 4K to 64K stretch ($s$ = 16) the base becomes 167,199, pair 46 slows only
7.57 times, and at 65,536 tokens it reaches 2.11 times the largest angle it saw in
training (`trained_angle_ratio`, positions counted from 0); 18 pairs pass theirs, the last
by a hair (its 65,535th position divided by 16 lands 0.94 of a position past 4,095). On the
lesson's running example (4,096 to 32,768 tokens, `example_angle_ratios`) the worst is
1.75, and YaRN's is 1.0002.

```python
from lessons.positional import ntk_scaled_base, rope_frequencies
from lessons.context_extension import (
    example_angle_ratios,
    ntk_pair_scale,
    trained_angle_ratio,
)
theta, b_ntk = rope_frequencies(128), ntk_scaled_base(10000.0, 16.0, 128)
(
    round(b_ntk),
    [
        round(float(x), 6)
        for x in (theta / rope_frequencies(128, b_ntk))[[0, -1]]
    ],
)
# → (167199, [1.0, 16.0])
round(float(1 / ntk_pair_scale(128, 16.0)[46]), 2)  # → 7.57
overshoot = trained_angle_ratio(
    rope_frequencies(128, b_ntk), theta, 4096, 65536
)
(
    round(float(overshoot.max()), 2),
    int(overshoot.argmax()),
    int((overshoot > 1.0001).sum()),
)
# → (2.11, 46, 18)
ratios = example_angle_ratios()
(
    round(float(ratios["NTK-aware (base raised)"].max()), 2),
    round(float(ratios["YaRN"].max()), 4),
)
# → (1.75, 1.0002)
```

**NTK-by-parts (§3.2, Definition 1, Eqs. 11 to 13).** Decide per pair by its turns:

$$
\begin{gathered}
\gamma(r) = \begin{cases} 0 & r < \alpha \\ 1 & r > \beta \\ \dfrac{r - \alpha}{\beta - \alpha} & \text{otherwise} \end{cases},
\qquad g(m) = m,
\\ h(\theta_d) = \big(1 - \gamma(r(d))\big)\frac{\theta_d}{s} + \gamma(r(d))\,\theta_d
\end{gathered}
$$

with $\alpha = 1$, $\beta = 32$ for the Llama family (§3.2). **In code:**
`yarn_correction_dim` solves $r(i) = \beta$ and $r(i) = \alpha$ for the pair index
(20.94 and 45.03 for Llama 2), `yarn_correction_range` rounds them outward to pairs 20
and 46, `yarn_ramp` ramps between them and `yarn_inv_freq` blends; `rope_inv_freq` with
`rope_type` "yarn" runs all four. One difference to know: the authors' code
(github.com/jquesnelle/yarn, as `transformers` and the site) ramps linearly in the pair
index, while Eq. 11 ramps linearly in $r$. Both keep pair 20 and divide pair 46 by 16;
between, the code keeps more speed, 0.531 of it against 0.203 at pair 33.

```python
import numpy as np
from lessons.positional import rope_frequencies
from lessons.context_extension import (
    rope_inv_freq,
    rope_wavelengths,
    yarn_correction_dim,
    yarn_correction_range,
    yarn_inv_freq,
    yarn_ramp,
)
theta, s = rope_frequencies(128), 16.0
(
    round(yarn_correction_dim(32, 128, 10000.0, 4096), 2),
    round(yarn_correction_dim(1, 128, 10000.0, 4096), 2),
)
# → (20.94, 45.03)
low, high = yarn_correction_range(32, 1, 128, 10000.0, 4096)
low, high  # → (20, 46)
code = (
    yarn_inv_freq(theta, s, yarn_ramp(low, high, 64)) / theta
)  # new speed / old, per pair
block = {
    "rope_type": "yarn",
    "factor": s,
    "original_max_position_embeddings": 4096,
}
np.allclose(rope_inv_freq(128, block)[0] / theta, code)  # → True
gamma = np.clip(
    (4096 / rope_wavelengths(theta) - 1) / (32 - 1), 0, 1
)  # Eq. 11 as printed, alpha 1, beta 32
printed = (1 - gamma) / s + gamma  # Eq. 13, new speed / old
[round(float(x), 4) for x in (code[20], printed[20], code[46], printed[46])]
# → [1.0, 1.0, 0.0625, 0.0625]
round(float(code[33]), 3), round(float(printed[33]), 3)  # → (0.531, 0.203)
```

![Speed ratio new over old for each of the 64 pairs of a Llama 2 head stretched 16 times, on a log scale: position interpolation is flat at one sixteenth, NTK-aware scaling falls steadily from 1 to one sixteenth, and NTK-by-parts stays at 1 up to pair 20 and at one sixteenth from pair 46, falling between along two different curves, the released code's above the paper's printed ramp](figures/peng2023_yarn.speed_ratio.svg)

**Reading it:** in the green band (pairs 0 to 20) every pair turns more than 32 times in
4,096 tokens and keeps its speed; in the blue band (pairs 46 to 63) every pair turns less
than once and is divided by 16, as in PI. NTK-aware's straight line sits above 1/16 for
the pairs that never complete a turn: those are its out-of-bound values. Between the
bands, Eq. 11 as printed (dotted) interpolates more than the released code (solid).

**The temperature (§3.3 Eqs. 14 and 15, Appendix A.3 Eq. 23).** Attention becomes
$\mathrm{softmax}\big(\mathbf{q}_m^T\mathbf{k}_n / (t\sqrt{|D|})\big)$, applied by scaling
both $\mathbf{q}$ and $\mathbf{k}$ by $\sqrt{1/t}$, which is done by scaling cos and sin:

$$
\sqrt{1/t} = 0.1 \ln(s) + 1
$$

**In code:** `yarn_get_mscale` (and `yarn_attention_factor`, the second value
`rope_inv_freq` returns for a yarn block). For $s = 8$ it gives 1.208, the value
Eq. 23 prints; for Llama 2's $s$ = 16 and 32, 1.277 and 1.347, so logits grow by
$1.277^2 = 1.631$ at $s$ = 16.

```python
from lessons.context_extension import (
    rope_inv_freq,
    yarn_attention_factor,
    yarn_get_mscale,
)
(
    round(yarn_get_mscale(8.0), 3),
    round(yarn_get_mscale(16.0), 3),
    round(yarn_get_mscale(32.0), 3),
)
# → (1.208, 1.277, 1.347)
(
    round(yarn_get_mscale(16.0) ** 2, 3),
    yarn_attention_factor(16.0) == yarn_get_mscale(16.0),
)
# → (1.631, True)
round(
    rope_inv_freq(
        128,
        {
            "rope_type": "yarn",
            "factor": 16.0,
            "original_max_position_embeddings": 4096,
        },
    )[1],
    3,
)
# → 1.277
```

**Dynamic Scaling (§3.4).** Recompute $s = \max(1, l'/L)$ at every forward pass from
the current length $l'$; with NTK-aware scaling this is "Dynamic NTK", and a key-value
cache must then store keys before RoPE, since every angle changes with $s$. **In code:**
`dynamic_ntk_base` with `factor` 1 is this rule: base 10,000 up to 4,096 tokens,
NTK-aware's base for $s$ = 2 at 8,192. Engines pass a `factor` above 1, which changes the
stretch (`lessons.context_extension` compares Hugging Face and vLLM).

```python
from lessons.positional import ntk_scaled_base
from lessons.context_extension import dynamic_ntk_base
(
    dynamic_ntk_base(10000.0, 1.0, 3000, 4096, 128),
    round(dynamic_ntk_base(10000.0, 1.0, 8192, 4096, 128)),
)
# → (10000.0, 20221)
round(ntk_scaled_base(10000.0, 8192 / 4096, 128))  # → 20221
```

## What the paper reports

- **Efficiency** (abstract): "requiring 10x less tokens and 2.5x less training steps than
  previous methods". v2's §4 says against what: 400 steps, about 0.1% of the original
  pre-training corpus, "a 10x reduction from" Code Llama and "2.5x reduction in training
  steps from" PI, whose recipe is 1,000 steps (PI §3.1).
- **Same quality, fewer tokens** (v2 Table 1, Llama 2 7B, 4K to 8K, $s$ = 2): PI and
  NTK-aware trained on 1B tokens, YaRN on 400M; perplexity at 8,192 tokens 3.34 (PI),
  3.59 (NTK-aware), 3.35 (YaRN); at 10,240, past the 8K window, 8.07, 6.24 and 6.04.
- **Training** (v3 §4.1): Llama 2 7B and 13B, $s$ = 16 for 400 steps at batch 64 on PG19
  cut into 64K chunks; $s$ = 32 by 200 more steps from the $s$ = 16 checkpoint, still on
  64K data.
- **Longer than the data** (v3 §4.2, Table 1): at 131,072 tokens the $s$ = 32 models
  score perplexity 2.37 (7B) and 2.24 (13B) on Proof-pile; the $s$ = 16 models are
  above 10 there.
- **Compute** (v3 §4.5, Table 4, A100-hours): YaRN 7B to 64K 256, to 128K 256 + 128;
  PI to 16K (Chen et al.) 640; Code Llama (NTK-aware, $s \approx 88.6$) 6,400.
- **The temperature** (v3 §3.3, Appendix A.3): Eq. 15 was fitted for the lowest
  perplexity on LLaMA 7B to 65B without fine-tuning, and the same values "also apply
  fairly well" to Llama 2.

## What later work changed

YaRN became a `rope_type` in Hugging Face configs, with the authors' `beta_fast` 32,
`beta_slow` 1 and index ramp. Qwen2.5's card adds a yarn block (`factor` 4 over 32,768
tokens), gpt-oss turns `truncate` off, and DeepSeek-V2 splits the temperature into
`mscale` and `mscale_all_dim`, moving part of it into the softmax scale
(`deepseek_softmax_multiplier`). Llama 3.1 keeps the shape (keep, blend, divide) with
boundaries set by wavelength and no temperature; LongRoPE searches a divisor per pair.
`lessons.context_extension` computes all of them.

## Further reading

- The authors' code, github.com/jquesnelle/yarn (scaled_rope/LlamaYaRNScaledRotaryEmbedding.py):
  find_correction_range, the index ramp and get_mscale.
- bloc97 (2023): the r/LocalLLaMA post that proposed NTK-aware scaling and the pull
  request to jquesnelle/scaled-rope that added the "by parts" correction (§1).
"""

import numpy as np

from lessons._palette import BLUE_FILL, GREEN_FILL, METHOD_LOOKS, RED
from lessons.context_extension import (ntk_pair_scale, rope_wavelengths, yarn_correction_range, yarn_inv_freq,
                                       yarn_ramp)
from lessons.positional import rope_frequencies

# The paper's Llama 2 setting (§4.1): head width 128, base 10,000, trained on 4,096 tokens, stretched 16 times.
_D, _BASE, _L, _S = 128, 10000.0, 4096, 16.0


def figures() -> dict:
    """The page's figure as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    theta = rope_frequencies(_D, _BASE)
    pairs = np.arange(_D // 2)
    low, high = yarn_correction_range(32, 1, _D, _BASE, _L)
    # Eq. 11 as printed: gamma linear in the turns r, 0 below alpha = 1, 1 above beta = 32 (1 = keep)
    gamma = np.clip((_L / rope_wavelengths(theta) - 1) / (32 - 1), 0, 1)
    curves = {
        "position interpolation": (np.full(_D // 2, 1 / _S), METHOD_LOOKS["linear"].colour, METHOD_LOOKS["linear"].dash),
        "NTK-aware (base raised)": (ntk_pair_scale(_D, _S), METHOD_LOOKS["ntk"].colour, METHOD_LOOKS["ntk"].dash),
        "NTK-by-parts, released code": (yarn_inv_freq(theta, _S, yarn_ramp(low, high, _D // 2)) / theta,
                                        METHOD_LOOKS["yarn"].colour, METHOD_LOOKS["yarn"].dash),
        "NTK-by-parts, Eq. 11 as printed": ((1 - gamma) / _S + gamma, RED, ":"),
    }
    fig, ax = plt.subplots(figsize=(6.4, 4.0), layout="constrained")
    ax.axvspan(-0.5, low, color=GREEN_FILL)
    ax.axvspan(high, _D // 2 - 0.5, color=BLUE_FILL)
    for label, (ratio, color, style) in curves.items():
        ax.semilogy(pairs, ratio, ls=style, color=color, lw=1.8, label=label)
    ax.text(low / 2, 0.3, f"> 32 turns\nin {_L:,} tokens", ha="center")
    ax.text((high + _D // 2) / 2, 0.3, "< 1 turn", ha="center")
    ax.set(xlabel="pair index i (0 = fastest)", ylabel="new speed ÷ old speed",
           title=f"Llama 2 head (d {_D}, base {_BASE:,.0f}) stretched {_S:g}x:\n{_L:,} to {int(_S * _L):,} tokens")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2, frameon=False)
    return {"speed_ratio": fig}
