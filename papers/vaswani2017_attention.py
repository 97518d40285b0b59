r"""
# Sinusoidal codes: Attention Is All You Need

Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones,
Aidan N. Gomez, Łukasz Kaiser and Illia Polosukhin, 2017, NeurIPS 2017
(*Advances in Neural Information Processing Systems 30*),
[arXiv:1706.03762](https://arxiv.org/abs/1706.03762).

Read it with: `lessons.positional` (the sinusoidal codes, and why added codes
still leak absolute position into a score) and `lessons.attention` (the layer
the codes are fed into). This page covers section 3.5 of the paper.

## What the paper set out to fix

The paper replaces recurrence and convolution with attention alone, and
attention cannot see order: shuffle the tokens and its outputs are only
shuffled (`lessons.attention`). Section 3.5 puts the order back with a fixed
table of sines and cosines added to the input embeddings. The authors hoped
the table would let the model learn to attend by relative position, and
preferred it to a learned table because it might carry over to sequences
longer than any seen in training.

## Reading guide

- **Read first:** section 3.5 (*Positional Encoding*, one paragraph and the
  formula), then section 3.2.1 and its equation (1), the scaled dot-product
  attention the codes end up in.
- **Then:** section 6.2 and Table 3, row (E) (learned versus sinusoidal), and
  section 3.4, which multiplies the embedding weights by $\sqrt{d_{\text{model}}}$
  before the codes are added.
- **Skip on a first pass:** sections 3.2.2 and 3.3 (multi-head attention and
  the feed-forward layer), 4 (*Why Self-Attention*), 5 (training: data,
  hardware, the learning-rate schedule of equation (3), regularisation) and
  6.3 (constituency parsing). None of them changes how positions are encoded.

## Symbols: the paper's notation and the site's

| Paper | Site | Meaning |
|---|---|---|
| $pos$ | a row of `sinusoidal_encoding`, the `positions` | a token's place, the first being 0 |
| $i$ ("the dimension") | pair index $i$, from 0 to $d/2 - 1$ | which (sine, cosine) pair; it fills columns $2i$ and $2i+1$ |
| $d_{\text{model}}$ | $d$ | the width of a code, 512 in the base model (Table 3) |
| $10000$ | `base` | the constant that sets the slowest speed |
| $1/10000^{2i/d_{\text{model}}}$ | $\omega_i$, `rope_frequencies(d)[i]` | radians pair $i$ turns per position; RoPE's $\theta_i$ |
| wavelength | $2\pi / \omega_i$ | positions per full turn of pair $i$ |
| $k$ | an offset: how far a position is shifted (one code moved along, not a query and a key) | how far a position is shifted |
| $PE_{pos}$ | `sinusoidal_encoding(n, d)[pos]` | the code of position $pos$, $d$ numbers |

## The equations, with the code

**Section 3.5, the codes (unnumbered in the paper).** Column $2i$ holds a
sine and column $2i+1$ a cosine of the same angle:

$$
PE_{(pos,\,2i)} = \sin\!\big(pos / 10000^{2i/d_{\text{model}}}\big), \qquad
PE_{(pos,\,2i+1)} = \cos\!\big(pos / 10000^{2i/d_{\text{model}}}\big)
$$

**In code:** `rope_frequencies` gives the speeds, `angle_table` multiplies
every position by every speed, and `sinusoidal_encoding` writes the sines and
cosines to the even and odd columns. Every code has length $\sqrt{d/2}$, 16
for $d = 512$, because each pair is a point on the unit circle.

```python
import numpy as np
from lessons.positional import (
    angle_table,
    rope_frequencies,
    sinusoidal_encoding,
)
# d_model = 4: pairs turning 1 and 1/100 radian per position
rope_frequencies(4).tolist()  # → [1.0, 0.01]
sinusoidal_encoding(3, 4).round(3).tolist()
# → [[0.000, 1.000, 0.000, 1.000], [0.841, 0.540, 0.010, 1.000],
#   [0.909, -0.416, 0.020, 1.000]]
# the paper's formula, column by column, for the base model's d_model = 512
pe = sinusoidal_encoding(2048, 512)
angles = angle_table(
    np.arange(2048), rope_frequencies(512)
)  # pos / 10000^(2i/512)  # (2048, 256)
bool(
    np.allclose(pe[:, 0::2], np.sin(angles))
    and np.allclose(pe[:, 1::2], np.cos(angles))
)
# → True
# every code has the same length, sqrt(d/2)
(
    np.linalg.norm(pe, axis=1).round(6).min(),
    np.linalg.norm(pe, axis=1).round(6).max(),
)
# → (16.0, 16.0)
```

**Section 3.5, the wavelengths.** "The wavelengths form a geometric
progression from $2\pi$ to $10000 \cdot 2\pi$": pair $i$ repeats every

$$
\lambda_i = \frac{2\pi}{\omega_i} = 2\pi \cdot 10000^{2i/d_{\text{model}}}
$$

positions, and each pair's wavelength is $10000^{2/d_{\text{model}}}$ times the one
before (1.0366 for $d_{\text{model}} = 512$). Pair 0 repeats every 6.283 positions.
The far end, $10000 \cdot 2\pi \approx 62{,}832$, is the limit of the
progression rather than a member of it: the last pair, $i = d/2 - 1$, has
$2\pi \cdot 10000^{(d-2)/d}$, which is 60,611 positions for $d_{\text{model}} = 512$.
Every 64 pairs the wavelength grows tenfold.

```python
import numpy as np
from lessons.positional import rope_frequencies
wavelengths = 2 * np.pi / rope_frequencies(512)  # (256,)
round(float(wavelengths[0]), 3), round(float(wavelengths[-1]))
# → (6.283, 60611)
# a geometric progression: one common ratio, 10000^(2/512)
ratios = wavelengths[1:] / wavelengths[:-1]
round(float(ratios[0]), 4), bool(np.allclose(ratios, 10000 ** (2 / 512)))
# → (1.0366, True)
# pairs 0, 64, 128, 192, 255: ten times longer every 64 pairs
[round(float(wavelengths[i])) for i in (0, 64, 128, 192, 255)]
# → [6, 63, 628, 6283, 60611]
# the limit 10000 * 2 pi, and how far short of it the last pair stops
round(10000 * 2 * np.pi), round(float(wavelengths[-1] / (2 * np.pi)), 1)
# → (62832, 9646.6)
```

![Log-scale line of the wavelength of each of the 256 pairs of a 512-wide code: a straight line from 6.28 positions at pair 0 to 60,611 at pair 255, just under a dashed line at 10000 times 2 pi](figures/vaswani2017_attention.wavelengths.svg)

**Reading it:** one point per pair of the base model's 512-wide code; the
vertical axis is logarithmic, so a geometric progression is a straight line.
It starts at $2\pi$ and climbs tenfold every 64 pairs, ending just under the
dashed line at $10000 \cdot 2\pi$ that section 3.5 names as the far end.

**Section 3.5, the linear shift.** The paper's reason for the design: "for
any fixed offset $k$, $PE_{pos+k}$ can be represented as a linear function of
$PE_{pos}$". The angle-sum formulas make that function explicit. Pair $i$ of
$PE_{pos+k}$ is pair $i$ of $PE_{pos}$ turned by $k\omega_i$, clockwise
because the sine comes first:

$$
\begin{aligned}
\begin{pmatrix} PE_{(pos+k,\,2i)} \\ PE_{(pos+k,\,2i+1)} \end{pmatrix}
&= \begin{pmatrix} \cos k\omega_i & \sin k\omega_i \\ -\sin k\omega_i & \cos k\omega_i \end{pmatrix}
\begin{pmatrix} PE_{(pos,\,2i)} \\ PE_{(pos,\,2i+1)} \end{pmatrix}
\\ &= R(-k\omega_i) \begin{pmatrix} PE_{(pos,\,2i)} \\ PE_{(pos,\,2i+1)} \end{pmatrix}
\end{aligned}
$$

Stacking the $d/2$ turns gives one block-diagonal matrix $M_k$ with
$PE_{pos+k} = M_k\, PE_{pos}$. $M_k$ depends on $k$ alone, never on $pos$:
the same matrix shifts every position by $k$.

**In code:** `rotation_matrix` and `rotate` from `lessons.notation` build and
apply $R(\cdot)$; `apply_rope` from `lessons.positional` turns every pair at
once, so `apply_rope(PE[pos], -k)` is $M_k PE_{pos}$: the shift of a
sinusoidal code is RoPE's rotation run backwards.

```python
import numpy as np
from lessons.notation import rotate, rotation_matrix
from lessons.positional import (
    apply_rope,
    rope_frequencies,
    sinusoidal_encoding,
)
d, k = 512, 3
omega = rope_frequencies(d)
pe = sinusoidal_encoding(1000, d)
# pair 0 of PE(10), turned by -k * omega_0, is pair 0 of PE(13)
(
    rotate(pe[10, :2], -k * omega[0]).round(3).tolist(),
    pe[13, :2].round(3).tolist(),
)
# → ([0.420, 0.907], [0.420, 0.907])
# M_k: one 2 x 2 block R(-k omega_i) per pair  # (512, 512)
M = np.zeros((d, d))
for i in range(d // 2):
    M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = rotation_matrix(-k * omega[i])
# the same M_k takes every PE(pos) to PE(pos + k), pos = 0 .. 996
bool(np.allclose(pe[:-k] @ M.T, pe[k:]))  # → True
# and M_k is RoPE's rotation by -k
bool(np.allclose(apply_rope(pe[500], -k), pe[503]))  # → True
# the pair drawn below: pair 33 turns about 0.305 radian per position
round(float(omega[33]), 3)  # → 0.305
```

![One pair of sinusoidal codes drawn on the unit circle, positions 0 to 18 as dots: two arrows, from position 2 to 6 and from 11 to 15, turn through the same angle](figures/vaswani2017_attention.shift_rotation.svg)

**Reading it:** each dot is one pair of a code (pair 33 of a 512-wide code,
which turns about 0.305 radian per position), plotted as (sine, cosine).
Positions 0 to 18 walk clockwise round the circle. The two arrows shift by the same
$k = 4$ from different starting positions and sweep the same angle: the map
from $PE_{pos}$ to $PE_{pos+4}$ does not care where it starts.

## What the paper reports

- **Learned positions do as well (Table 3, row (E); section 6.2).** Replacing
  the sinusoids with learned positional embeddings gives a development
  perplexity of 4.92 and 25.7 BLEU on English-to-German newstest2013, against
  4.92 and 25.8 for the base model; the paper calls the results "nearly
  identical" (sections 3.5 and 6.2).
- **Why sinusoids anyway (section 3.5).** The authors "chose the sinusoidal
  version because it may allow the model to extrapolate to sequence lengths
  longer than the ones encountered during training". This is stated as a
  hope; we found no experiment in the paper that tests it.
- **Headline results (Table 2, section 6.1).** As reported by the paper, the
  big model reaches 28.4 BLEU on WMT 2014 English-to-German (newstest2014),
  over 2 BLEU above the best earlier results including ensembles, after 3.5
  days on 8 P100 GPUs; the base model reaches 27.3. On English-to-French the
  big model scores 41.8 in the arXiv version's abstract and Table 2 (the text
  of section 6.1 and the NeurIPS version's abstract say 41.0).

## What later work changed

GPT-2 and BERT went back to learned tables, which stop at their last row
(`lessons.positional`). The linear shift turned out not to make attention
relative: the model compares (word + code) after two different projections,
and the mixed terms move with absolute position (`lessons.positional`
measures the leak). RoFormer
(Su et al., 2021, `papers.su2021_roformer`) kept this page's speeds
("Following Vaswani et al. [2017]", its section 3.3), but rotates queries and keys instead of adding a
code, so the score depends on the gap alone (`lessons.rope`). Press et al.
(2021) tested the extrapolation hope and "find that current methods do not
allow for efficient extrapolation" (abstract), which led to ALiBi
(`lessons.alibi`, `papers.press2021_alibi`).

## Further reading

- `lessons.positional` builds the codes as a clock with many hands and
  measures how added codes leak absolute position into a score.
- Harvard NLP, *The Annotated Transformer*, the whole paper as runnable code:
  <https://nlp.seas.harvard.edu/annotated-transformer/>
"""

import numpy as np

from lessons._palette import BLUE, MUTED, ORANGE, RED
from lessons.notation import rotate
from lessons.positional import rope_frequencies, sinusoidal_encoding



def figures() -> dict:
    """The page's two figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}

    # 1. wavelength 2 pi / omega_i of every pair of a 512-wide code, log scale
    wavelengths = 2 * np.pi / rope_frequencies(512)  # (256,)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.plot(np.arange(256), wavelengths, "o", ms=2.5, color=BLUE, label="wavelength of pair i")
    ax.axhline(2 * np.pi, color=MUTED, lw=1, ls=":", label="2π")
    ax.axhline(10000 * 2 * np.pi, color=RED, lw=1, ls="--", label="10000 · 2π, the limit")
    ax.set_yscale("log")
    ax.set_xlabel("pair index i (columns 2i and 2i + 1)")
    ax.set_ylabel("positions per full turn")
    ax.set_title("Section 3.5: wavelengths from 2π to 10000 · 2π, d_model = 512")
    ax.legend(frameon=False, loc="upper left")
    figs["wavelengths"] = fig

    # 2. one pair on the unit circle: a shift by k is the same turn from any start
    pair, k = 33, 4
    omega = rope_frequencies(512)[pair]
    codes = sinusoidal_encoding(19, 512)[:, 2 * pair:2 * pair + 2]  # (19, 2): (sin, cos)
    t = np.linspace(0, 2 * np.pi, 200)
    fig, ax = plt.subplots(figsize=(4.6, 4.4), layout="constrained")
    ax.plot(np.cos(t), np.sin(t), color=MUTED, lw=1)
    ax.plot(codes[:, 0], codes[:, 1], "o", color=BLUE, ms=4)
    for pos in (0, 5, 10, 15):
        ax.annotate(f"pos {pos}", codes[pos], textcoords="offset points", xytext=(5, 3))
    for start, color in ((2, RED), (11, ORANGE)):
        # PE(pos + k) for this pair is PE(pos) turned by -k * omega
        end = rotate(codes[start], -k * omega)
        ax.annotate("", xy=end * 0.93, xytext=codes[start] * 0.93,
                    arrowprops=dict(arrowstyle="->", color=color, lw=1.8, connectionstyle="arc3,rad=-0.3"))
        ax.text(*(0.62 * (codes[start] + end) / 2), f"pos {start} → {start + k}", color=color,
                ha="center", va="center")
    ax.set_aspect("equal")
    ax.set_xlabel("column 2i: sin(pos · ω)")
    ax.set_ylabel("column 2i + 1: cos(pos · ω)")
    ax.set_title(f"Pair {pair} (ω = {omega:.3f}): a shift by {k} is one turn")
    figs["shift_rotation"] = fig
    return figs
