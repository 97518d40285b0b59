r"""
# RoPE: RoFormer: Enhanced Transformer with Rotary Position Embedding

Jianlin Su, Yu Lu, Shengfeng Pan, Ahmed Murtadha, Bo Wen and Yunfeng Liu,
2021 (arXiv v1, April 2021; this page follows the section and equation
numbers of v5, published in *Neurocomputing* 568, 2024),
[arXiv:2104.09864](https://arxiv.org/abs/2104.09864).

Read it with: `lessons.positional` (RoPE from scratch, the relative-position
identity and the long-term decay) and `lessons.rope` (the paper's interleaved
layout against the half-split one of Hugging Face code, and the complex form).

## What the paper set out to fix

Earlier schemes add position to the token, either to the embedding (section
2.2) or as extra terms in the score (section 2.3, equations (5) to (10)). The
paper asks instead for queries and keys whose dot product depends on the two
tokens and their relative position only (equation (11)), solves that in two
dimensions with complex numbers, and gets a rotation by an angle proportional
to the position: absolute position goes in, and the score sees only the gap.

## Reading guide

- **Read first:** section 3.1 (the goal, equation (11)), 3.2 (the solution,
  equations (12) to (16) and Figure 1) and the long-term-decay paragraph of
  section 3.3; then 3.4.3 (the bound, equations (35) to (37), and Figure 2).
- **If you implement it:** 3.4.2, equation (34), the element-wise form every
  library uses instead of the sparse matrix of (15).
- **Skip on a first pass:** 2.3 (a survey of relative encodings), the
  linear-attention part of 3.3 (equations (17) to (19)) with its experiment
  in 4.4, and the derivation in 3.4.1 (equations (20) to (33)), which
  arrives back at (12). Sections 4.1 to 4.5 are the experiments; Tables 1, 2
  and 5 carry the numbers quoted below.
- **Watch the indices:** equation (15) counts pairs from 1,
  $\theta_i = 10000^{-2(i-1)/d}$; sections 3.3 and 3.4.3 count from 0,
  $\theta_i = 10000^{-2i/d}$, as the site does.

## Symbols: the paper's notation and the site's

| Paper | Site | Meaning |
|---|---|---|
| $\boldsymbol{x}_m$ | a row of `X` | the token vector at position $m$ |
| $\boldsymbol{W}_q \boldsymbol{x}_m$ | `x @ W_q.T` | the paper's column-vector product; the site stores $W$ as (outputs, inputs) |
| $m$, $n$ | query and key `positions` | where the query and the key stand |
| $m - n$ (Eqs. 35 to 37); $n - m$ in $\boldsymbol{R}^d_{\Theta,n-m}$ (Eq. 16) | the gap $g = m - n$, query position minus key position, the site's one convention | relative position; Eq. 16's $n - m$ is the same rotation applied to the key instead of the query; the bound depends only on the gap's size |
| $\theta_i$, $\Theta$ | `rope_frequencies(d)` | pair $i$'s speed, $10000^{-2i/d}$ ($i$ from 0) |
| $\boldsymbol{R}^d_{\Theta,m}$ | `apply_rope(x, m)` | turn pair $i$ by $m\theta_i$; the site never builds the matrix |
| $x e^{im\theta}$ | `rope_complex(x, m)` | one pair read as a complex number and turned |
| $h_i$ | pair $i$ of $q$ times the conjugate of pair $i$ of $k$ | with $h_{d/2} = 0$ |
| $S_j$ | $S_j(g)$ in `rope_decay_bound` | the sum of the first $j$ unit arrows $e^{i(m-n)\theta_i}$ |
| $\frac{1}{d/2}\sum_j \lVert S_j \rVert$ | `rope_decay_bound(d, gaps)` | the "relative upper bound" of Figure 2 |

## The equations, with the code

**Equations (12) and (13), section 3.2.1: the 2D solution.** Read the
projected pair as a complex number and multiply by $e^{im\theta}$; as a
matrix, that is a rotation by $m\theta$:

$$
f_q(\boldsymbol{x}_m, m) = (\boldsymbol{W}_q \boldsymbol{x}_m)\, e^{im\theta}
= \begin{pmatrix} \cos m\theta & -\sin m\theta \\ \sin m\theta & \cos m\theta \end{pmatrix}
\boldsymbol{W}_q \boldsymbol{x}_m
$$

Section 3.4.1 derives this from two facts, checked last below: the length
does not depend on the position (equation (27)), and the angle grows by the
same $\theta$ at every step (equation (30), with $\gamma = 0$ in (33)).
**In code:** `rope_complex` (complex form), `rotation_matrix` (matrix form)
and `apply_rope` (what the site runs) agree.

```python
import numpy as np
from lessons.notation import rotation_matrix
from lessons.positional import apply_rope
from lessons.rope import rope_complex
# d = 2: one pair, theta = 1; W_q x_m = (1, 2), the complex number 1 + 2i, at
# m = 3
q = np.array([1.0, 2.0])
z = (1 + 2j) * np.exp(1j * 3)
round(z.real, 3), round(z.imag, 3)  # → (-1.272, -1.839)
rope_complex(q, 3).round(3).tolist()  # → [-1.272, -1.839]
(rotation_matrix(3.0) @ q).round(3).tolist()  # → [-1.272, -1.839]
# equation (27): the length is the same at every position
[round(float(np.linalg.norm(apply_rope(q, m))), 4) for m in (0, 3, 100)]
# → [2.2361, 2.2361, 2.2361]
# equation (30): the angle grows by theta = 1 per position (wrapped to [-pi,
# pi))
turned = rope_complex(q, np.arange(5))  # (5, 2)
angle = np.arctan2(turned[:, 1], turned[:, 0])
((np.diff(angle) + np.pi) % (2 * np.pi) - np.pi).round(6).tolist()
# → [1.0, 1.0, 1.0, 1.0]
```

**Equations (15) and (34), sections 3.2.2 and 3.4.2: any even $d$.** Turn
pair $i$ by $m\theta_i$: one $2 \times 2$ rotation per pair on the diagonal,

$$
\boldsymbol{R}^d_{\Theta,m} = \operatorname{diag}\big(R(m\theta_0),\, R(m\theta_1),\, \dots,\, R(m\theta_{d/2-1})\big),
\qquad \theta_i = 10000^{-2i/d}
$$

Pairs are neighbouring dimensions $(2i, 2i+1)$, the interleaved layout
(Hugging Face's Llama code pairs $j$ with $j + d/2$, `lessons.rope`). As the
matrix is mostly zeros, equation (34) computes it entry by entry:

$$
\boldsymbol{R}^d_{\Theta,m}\boldsymbol{x} = \boldsymbol{x} \otimes \cos(m\boldsymbol{\theta})
+ (-x_2, x_1, -x_4, x_3, \dots, -x_d, x_{d-1}) \otimes \sin(m\boldsymbol{\theta})
$$

with each $\theta_i$ written twice. **In code:** `apply_rope` is this line;
`rope_frequencies` gives $\Theta$.

```python
import numpy as np
from lessons.notation import rotation_matrix
from lessons.positional import apply_rope, rope_frequencies
d, m = 8, 5
theta = rope_frequencies(d)  # 1, 0.1, 0.01, 0.001
# equation (15): one 2 x 2 rotation per pair on the diagonal  # (8, 8)
R = np.zeros((d, d))
for i in range(d // 2):
    R[2 * i:2 * i + 2, 2 * i:2 * i + 2] = rotation_matrix(m * theta[i])
x = np.arange(1.0, d + 1)
bool(np.allclose(R @ x, apply_rope(x, m)))  # → True
# equation (34): x * cos + (-x2, x1, -x4, x3, ...) * sin
cos, sin = np.repeat(np.cos(m * theta), 2), np.repeat(np.sin(m * theta), 2)
swapped = np.stack([-x[1::2], x[0::2]], axis=-1).ravel()
bool(np.allclose(x * cos + swapped * sin, apply_rope(x, m)))  # → True
# R is orthogonal: R^T R = I
bool(np.allclose(R.T @ R, np.eye(d)))  # → True
```

**Equation (16), section 3.2.2: the relative-position property.** In the
paper's notation, which turns the key by $n - m$ (the site turns the query by
the gap $m - n$ instead: the same score), with
$\boldsymbol{R}^d_{\Theta,n-m} = (\boldsymbol{R}^d_{\Theta,m})^\top \boldsymbol{R}^d_{\Theta,n}$,

$$
\boldsymbol{q}_m^\top \boldsymbol{k}_n
= (\boldsymbol{R}^d_{\Theta,m}\boldsymbol{W}_q\boldsymbol{x}_m)^\top(\boldsymbol{R}^d_{\Theta,n}\boldsymbol{W}_k\boldsymbol{x}_n)
= \boldsymbol{x}_m^\top \boldsymbol{W}_q^\top \boldsymbol{R}^d_{\Theta,n-m} \boldsymbol{W}_k \boldsymbol{x}_n
$$

The printed (16) drops the subscript $m$ and the transpose on
$\boldsymbol{W}_q$. Equation (35) writes the same score as
$\operatorname{Re}\big[\sum_{i} \boldsymbol{q}_{[2i:2i+1]} \boldsymbol{k}^*_{[2i:2i+1]} e^{i(m-n)\theta_i}\big]$,
where the bound below starts. **In code:** `apply_rope` on both sides.

```python
import numpy as np
from lessons.positional import apply_rope, rope_frequencies
d = 64
rng = np.random.default_rng(0)
x_m, x_n = rng.standard_normal((2, d))
W_q, W_k = rng.standard_normal((2, d, d)) / np.sqrt(
    d
)  # (d_out, d_in), applied as x @ W.T
q, k = x_m @ W_q.T, x_n @ W_k.T
# query at 7, key at 3; both moved 1,000 later; the query turned by the gap m
# - n = 7 - 3 alone
scores = [
    apply_rope(q, 7) @ apply_rope(k, 3),
    apply_rope(q, 1007) @ apply_rope(k, 1003),
    apply_rope(q, 7 - 3) @ k,
]
bool(np.allclose(scores, scores[0]))  # → True
# equation (35): the same score as the real part of a sum of complex products
h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])
bool(
    np.isclose(
        np.real(np.sum(h * np.exp(1j * (7 - 3) * rope_frequencies(d)))),
        scores[0],
    )
)
# → True
```

**Equations (36) and (37), section 3.4.3: the long-term decay.** Summation
by parts (the paper's "Abel transformation") with
$S_j = \sum_{i=0}^{j-1} e^{i(m-n)\theta_i}$ and $h_{d/2} = 0$ gives

$$
\Big\lvert \sum_{i=0}^{d/2-1} h_i\, e^{i(m-n)\theta_i} \Big\rvert
\le \Big(\max_i \lvert h_{i+1} - h_i \rvert\Big) \sum_{j=1}^{d/2} \lVert S_j \rVert
$$

The first factor is fixed by $q$ and $k$; the second depends on the gap
alone, and its mean $\frac{1}{d/2}\sum_j \lVert S_j \rVert$ is what Figure 2
plots as the "relative upper bound". **In code:** `rope_decay_bound` returns
that mean; `rope_scores_by_gap` measures real scores with `apply_rope`.

For a head of 128 the mean is 32.5 at gap 0 (all arrows agree), 12.63 at
50, 10.23 at 100 and 6.55 at 250, but not steadily: it is 10.91 at gap 48
and 13.22 at 51. For one random pair of width 128 the bound holds at every
gap up to 4,096 with room to spare: it is at least 30 times the size of the
score, 13,098 against a score of 0.35 at gap 0.

```python
import numpy as np
from lessons.positional import apply_rope, rope_decay_bound
d = 128
rope_decay_bound(d, [0, 50, 100, 250]).round(2).tolist()
# → [32.5, 12.63, 10.23, 6.55]
# ripples: the bound rises from gap 48 to 51
rope_decay_bound(d, [48, 51]).round(2).tolist()  # → [10.91, 13.22]
# the size of the gap is what counts: m - n and RoFormer's n - m (Eq. 16)
# give the same bound
bool(
    np.allclose(rope_decay_bound(d, [-100, -7]), rope_decay_bound(d, [100, 7]))
)
# → True
# equation (37) for one random pair: C = max |h_(i+1) - h_i|, then C * sum_j
# |S_j|
q, k = np.random.default_rng(0).standard_normal((2, d))
h = np.append((q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2]), 0)
gaps = np.arange(0, 4097)
ceiling = np.abs(np.diff(h)).max() * (d / 2) * rope_decay_bound(d, gaps)
score = np.array(
    [apply_rope(q, g) @ k for g in gaps]
)  # the query turned by the gap m - n = g
(
    bool(np.all(np.abs(score) <= ceiling)),
    round(float(np.min(ceiling / np.abs(score)))),
)
# → (True, 30)
round(float(ceiling[0])), round(float(score[0]), 2)  # → (13098, 0.35)
```

![RoFormer's Figure 2 recomputed for a head of 128: the mean length of the arrow sums S_j falls from 32.5 at gap 0 to about 6.5 at gap 250, with ripples](figures/su2021_roformer.decay_bound.svg)

**Reading it:** the mean length of $S_1, \dots, S_{64}$ against the
relative distance, as in the paper's Figure 2: a fast fall over the first few
dozen positions, then a slower one with ripples. The text we could read does
not state the head width behind Figure 2; 128 is a Llama head's.

**What the bound does and does not promise.** It caps the *largest* score
any pair with a given $C$ could reach, and that cap shrinks with distance.
It does not say that scores shrink: for independent random $q$ and $k$ the
typical score stays at 11.3 to 11.6 (about $\sqrt{128} \approx 11.3$) at every gap, because
turning a random vector leaves it random. Only when the key is correlated
with the query does the expected score fade, in proportion to the
correlation: 128, 86, 61 and 20 at gaps 0, 10, 100 and 1,000 for a key equal
to its query, half of that (64, 43, 30 and 10) when the correlation is 0.5.
It is also far from tight, it is not monotone, and it is a statement about
raw scores, not attention weights, which softmax sets from the differences
between all keys' scores.

```python
import numpy as np
from lessons.positional import apply_rope, rope_scores_by_gap
gaps = [0, 10, 100, 1000]
scores = rope_scores_by_gap(gaps)  # 2,000 random pairs, d = 128
scores["unrelated"].round(1).tolist()  # → [11.3, 11.3, 11.4, 11.6]
scores["aligned"].round(0).tolist()  # → [128, 86, 61, 20]
# a key correlated 0.5 with its query: k = 0.5 q + sqrt(0.75) z
Q, Z = np.random.default_rng(0).standard_normal((2, 2000, 128))
K = 0.5 * Q + np.sqrt(0.75) * Z
[
    round(float(np.mean(np.sum(apply_rope(Q, np.full(2000, g)) * K, axis=-1))))
    for g in gaps
]
# → [64, 43, 30, 10]
```

![Two panels, one above the other, for a head of 128 against the gap on a log scale: top, the mean score of a key equal to its query falls from 128, a key correlated 0.5 from 64, and an unrelated key stays near 11.3; bottom, one random pair's bound stays at least 30 times above the size of its score at every gap](figures/su2021_roformer.scores_by_gap.svg)

**Reading it:** top, scores in absolute units: the blue curves (a key
equal to its query, one correlated 0.5) fade roughly as the bound's shape
(grey, scaled to start at 128); the vermillion (orange-red) one (unrelated
keys) stays flat.
Bottom, one random pair on a log scale: its bound from equation (37) (grey)
sits at least 30 times above its actual score (vermillion) at every gap.

## What the paper reports

- **Translation (Table 1, section 4.1.3).** WMT 2014 English-to-German:
  27.5 BLEU for RoFormer against 27.3 for Transformer-base, as reported.
- **Pre-training (Figure 3, sections 4.2.3 and 4.4.2).** Reported as curves:
  RoPE in BERT converges faster on the masked-LM loss, and RoPE in a
  Performer on Enwik8 converges faster to a lower loss.
- **GLUE (Table 2, section 4.3.3).** Reported scores for RoFormer against
  BERT: MRPC 89.5 vs 88.9, STS-B 87.0 vs 85.8, QQP 86.4 vs 71.2, but SST-2
  90.7 vs 93.5, QNLI 88.0 vs 90.5 and MNLI 80.2/79.8 vs 84.6/83.4; the paper
  says RoFormer "can significantly outperform BERT in three out of six
  datasets".
- **Long Chinese documents (Table 5, section 4.5.4).** On CAIL2019-SCM,
  reported test accuracy is 69.79% for RoFormer at 1,024 characters against
  68.10% for WoBERT and 68.29% for RoFormer at 512; the text calls the gain
  over WoBERT "an absolute improvement of 1.5%".
- **Limits (section 4.5.5).** The authors say they have no thorough
  explanation yet of its faster convergence or of its gains on long texts.

## What later work changed

RoPE became the default of open decoders (Llama, Mistral, Qwen). Meta's
Llama reference code keeps the paper's interleaved pairs as complex numbers,
while the Hugging Face code for these models uses the half-split layout, so
checkpoints are converted between the two (`lessons.rope`). The
decay argument of 3.4.3 did not settle length: past the trained length the
slow pairs reach angles never seen in training, and Chen et al. (2023,
`papers.chen2023_interpolation`) report that extrapolating this way can make
attention scores blow up. Position interpolation, NTK-aware scaling and YaRN
(`papers.peng2023_yarn`) change the speeds $\theta_i$ instead
(`lessons.context_extension`); Llama 3 raised the base from 10,000 to
500,000 (`lessons.positional`).

## Further reading

- `lessons.positional` for RoPE from scratch, and the sinusoidal codes whose
  speeds it reuses (`papers.vaswani2017_attention`).
- EleutherAI, *Rotary Embeddings: A Relative Revolution*:
  <https://blog.eleuther.ai/rotary-embeddings/>
- The authors' code: <https://github.com/ZhuiyiTechnology/roformer>
"""

import numpy as np

from lessons._palette import BLUE, INK, LIGHT_BLUE, MUTED, RED, legend_beside
from lessons.positional import apply_rope, rope_decay_bound, rope_scores_by_gap

_D = 128  # the head width of both figures


def _correlated_mean_scores(gaps, rho: float, d: int = _D, n_pairs: int = 2000, seed: int = 0) -> np.ndarray:
    """Mean <q, R_g k> over random pairs whose key is k = rho q + sqrt(1 - rho^2) z, one per gap."""
    Q, Z = np.random.default_rng(seed).standard_normal((2, n_pairs, d))  # (n_pairs, d) each
    K = rho * Q + np.sqrt(1 - rho**2) * Z
    return np.array([np.mean(np.sum(apply_rope(Q, np.full(n_pairs, g)) * K, axis=-1)) for g in gaps])  # gap m - n


def figures() -> dict:
    """The page's two figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}

    # 1. the paper's Figure 2: the mean length of S_1 .. S_(d/2) against the relative distance
    gaps = np.arange(0, 257)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.plot(gaps, rope_decay_bound(_D, gaps), color=BLUE, lw=1.5)
    ax.set_xlabel("relative distance")
    ax.set_ylabel("relative upper bound, mean |S_j|")
    ax.set_title("RoFormer's Figure 2, recomputed: d = 128, base 10,000")
    figs["decay_bound"] = fig

    # 2. top: real scores against the bound's shape; bottom: one pair's bound against its score
    gaps = np.concatenate([[0.0], np.unique(np.round(np.geomspace(1, 4096, 120)))])
    bound = rope_decay_bound(_D, gaps)
    scores = rope_scores_by_gap(gaps, d=_D)
    fig, (left, right) = plt.subplots(2, 1, figsize=(6.4, 7.0), layout="constrained")
    left.plot(gaps[1:], 128 * bound[1:] / bound[0], color=MUTED, lw=3, label="bound's shape, scaled to 128")
    left.plot(gaps[1:], scores["aligned"][1:], color=BLUE, lw=2, label="key = query (mean)")
    left.plot(gaps[1:], _correlated_mean_scores(gaps[1:], 0.5), color=LIGHT_BLUE, lw=2, ls="--",
              label="key correlated 0.5 (mean)")
    left.plot(gaps[1:], scores["unrelated"][1:], color=RED, lw=2, label="unrelated key (rms)")
    left.axhline(0, color=INK, lw=0.5)
    left.set_xscale("log")
    left.set_xlabel("gap m - n (log scale)")
    left.set_ylabel("score R_g q · k")
    left.set_title("What scores do, 2,000 random pairs")
    legend_beside(left)

    # equation (37) for one random pair: max |h_(i+1) - h_i| * sum_j |S_j|
    q, k = np.random.default_rng(0).standard_normal((2, _D))
    h = np.append((q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2]), 0)
    ceiling = np.abs(np.diff(h)).max() * (_D / 2) * bound
    score = np.abs(apply_rope(q, gaps) @ k)  # (n_gaps,): the query turned by the gap m - n
    right.plot(gaps[1:], ceiling[1:], color=MUTED, lw=3, label="bound, equation (37)")
    right.plot(gaps[1:], score[1:], color=RED, lw=1.2, label="|score| of the same pair")
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("gap (log scale)")
    right.set_ylabel("absolute value (log scale)")
    right.set_title("One random pair: the bound is loose")
    legend_beside(right)
    figs["scores_by_gap"] = fig
    return figs
