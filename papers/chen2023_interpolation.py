r"""
# Position Interpolation: Extending Context Window of Large Language Models via Positional Interpolation

Shouyuan Chen, Sherman Wong, Liangjian Chen and Yuandong Tian (Meta), 2023, arXiv preprint,
[arXiv:2306.15595](https://arxiv.org/abs/2306.15595).

Read it with: `lessons.context_extension` (every stretching recipe side by side), after
`lessons.positional` (RoPE, and its preview of `interpolate_positions`).

## What the paper set out to fix

LLaMA was trained on windows of 2,048 tokens. Fed a longer input as it is ("direct
extrapolation"), its perplexity climbs above $10^3$ (§2.2, Table 1), and fine-tuning at
the longer length hardly helps: after more than 10,000 steps the window the model
actually uses grew from 2,048 to 2,560 tokens (§1, Table 4). The paper's fix shrinks the
position indices so that a long input reuses the range of positions the model was
trained on, then fine-tunes briefly; it extends LLaMA 7B to 65B to windows of up to
32,768 tokens (§3).

## Reading guide

First pass: §1 (the claim, Figure 1), §2.2 (why extrapolation fails, Eq. 3 and
Figure 2), §2.3 (Eq. 4, Theorem 2.1 and the comparison with Eq. 8), §3.1 (the
fine-tuning recipe), then Tables 1, 3 and 4. Skip at first: §2.1 (RoPE in complex form;
`lessons.positional` has it), Appendix A (the proof: a Taylor expansion and a bound on
$a''$), §3.4 and §3.5 (short-context benchmarks, summarization), §4 (related work).
Come back for Appendices B and C: the code behind Figures 2 and 5, which the blocks
below redo with the site's functions.

## Symbols: the paper's notation and the site's

| Paper | Site | Meaning |
|---|---|---|
| $d$ | $d$ | the head width (128 in LLaMA 7B) |
| $c$ | $b$, `base` | the RoPE base, 10,000 |
| $\theta_j = c^{-2j/d}$ | $\theta_i$, `rope_frequencies` | speed of pair $j$ in radians per position, $j = 0 \ldots d/2-1$ |
| $\mathbf{f}(\mathbf{x}, m)$ | `apply_rope(x, m)` | RoPE: pair $j$ of $\mathbf{x}$ turned by $m\theta_j$, pairs interleaved |
| $s = m - n$ | the gap | query position minus key position; the site's $s$ is the stretch instead |
| $h_j$ | (no name) | pair $j$ of $\mathbf{q}$ times pair $j$ of $\mathbf{k}$ conjugated, as complex numbers |
| $a(s)$ | `apply_rope(q, s) @ k` | the attention score at gap $s$, before scaling and softmax |
| $L$, $L'$ | $L$, $sL$ | the trained and the extended window; $L'/L$ is the site's $s$, `factor` |
| $B(s)$ | $\tfrac{d}{2}$ × `rope_decay_bound` | RoFormer's §3.4.3 quantity, summed where the site averages |

## The equations, with the code

**The score is a sum of waves (§2.1 Eq. 2, §2.2 Eq. 3).** With RoPE the score of a
query at $m$ and a key at $n$ depends on $s = m - n$ only:

$$
a(s) = \mathrm{Re}\Big[\sum_{j=0}^{d/2-1} h_j\, e^{\mathrm{i} s \theta_j}\Big], \qquad
h_j = (q_{2j} + \mathrm{i}\, q_{2j+1})(k_{2j} - \mathrm{i}\, k_{2j+1})
$$

**In code:** `lessons.positional.apply_rope` turns $\mathbf{q}$ and $\mathbf{k}$; Eq. 3
written with numpy gives the same number (2.558 here) for keys 40 positions back,
wherever the pair sits.

```python
import numpy as np
from lessons.positional import apply_rope, rope_frequencies
q, k = np.random.default_rng(0).standard_normal((2, 128))
h = (q[0::2] + 1j * q[1::2]) * (k[0::2] - 1j * k[1::2])  # (64,) complex
a_40 = np.real(
    np.sum(h * np.exp(1j * 40 * rope_frequencies(128)))
)  # Eq. 3 at s = 40
round(float(a_40), 3)  # → 2.558
(
    np.isclose(apply_rope(q, 1040) @ apply_rope(k, 1000), a_40),
    np.isclose(apply_rope(q, 40) @ k, a_40),
)
# → (True, True)
```

**Position Interpolation (§2.3 Eq. 4).** Instead of reading new positions, squeeze them:

$$
\mathbf{f}'(\mathbf{x}, m) = \mathbf{f}\Big(\mathbf{x}, \frac{mL}{L'}\Big)
$$

so the largest gap shrinks from $L'$ back to $L$. **In code:**
`lessons.positional.interpolate_positions`; turning by $(mL/L')\,\theta_j$ is the same as
dividing every speed by $s = L'/L$, which is `linear_inv_freq` and `rope_inv_freq` with
`rope_type` "linear". For 2,048 stretched to 32,768, the last position reads as
2,047.9375 and neighbours sit 1/16 of a position apart.

```python
import numpy as np
from lessons.positional import (
    angle_table,
    interpolate_positions,
    rope_frequencies,
)
from lessons.context_extension import linear_inv_freq, rope_inv_freq
theta, positions = rope_frequencies(128), np.arange(32768)
(
    float(interpolate_positions(32767, trained_len=2048, new_len=32768)),
    float(interpolate_positions(1, 2048, 32768)),
)
# → (2047.9375, 0.0625)
np.allclose(
    angle_table(interpolate_positions(positions, 2048, 32768), theta),
    angle_table(positions, linear_inv_freq(theta, 16)),
)
# → True
np.allclose(
    rope_inv_freq(128, {"rope_type": "linear", "factor": 16.0})[0],
    linear_inv_freq(theta, 16),
)
# → True
```

**Extrapolation against interpolation (§2.2 Figure 2; §2.3 Theorem 2.1, Eqs. 5 to 8).**
Read Eq. 3 as a function of $s$: $d/2$ waves whose weights $h_j$ are set by what training
saw. The authors fit the $h_j$ by least squares to random scores at the 2,048 trained
gaps (Appendix C.1) and report a curve that stays small on $[0, L]$ but "may go beyond
8000" past $L$, adding that "almost every learned curve" does so (Figure 2 caption).
Between whole gaps, though, the curve cannot stray far. For $s$ between two
neighbouring whole gaps $s_1$ and $s_2 = s_1 + 1$, with $a_{\text{linear}}$ the straight
line between $a(s_1)$ and $a(s_2)$, Theorem 2.1 and its corollary Eq. 7 say

$$
|a(s) - a_{\text{linear}}(s)| \le d \big(\max_j |h_j|\big) \frac{(s - s_1)(s_2 - s)}{8 \ln c}
\le \frac{d \max_j |h_j|}{32 \ln c} \approx \frac{d \max_j |h_j|}{294.73}
$$

It bounds how far a score at a fractional gap can stray from the line through the two
whole-gap scores that pre-training pinned down. It does not bound the score itself, and
it grows with $\max_j |h_j|$, the largest query-key product. Eq. 8 is RoFormer's bound
for any gap, $|a(s)| \le 2 \max_j |h_j|\, B(s)$, and the paper finds $B(s) \ge d$
numerically (Appendix B, Figure 5), so the interpolation bound is at least
$2 \cdot 294.73 \approx 589$ times smaller: the abstract's "~600×".

With the site's speeds and a seeded generator, the same fit stays within 0.6 of zero on
the trained gaps and passes 1,000 after them. That fit is rank-deficient: on the 2,048
whole gaps the 128 waves are nearly dependent, and least squares that leaves out the
directions whose singular value is below $10^{-10}$ of the largest (`rcond=1e-10`) keeps
78 of them. How far past 1,000 the curve then goes is set by that cut-off, not by the
scores: about $10^8$ at $10^{-10}$, 9,000 at $10^{-7}$ (the paper's figure shows a curve
beyond 8,000), 900 at $10^{-6}$, where it no longer passes 1,000. NumPy's default cut-off
keeps more directions, whose weights are so poorly determined that they, and the curve
past $L$, change with the CPU's matrix kernels; at $10^{-10}$ they hold still. Keeping the $h_j$ small (ridge regression,
the remedy §2.3 proposes) holds it near 1.3 beyond $L$. Between gaps 25 and 75 the ridge
curve strays at most 0.012 from its straight lines, inside its bound of 0.108; the plain
fit's bound exceeds $10^5$: true, and empty. $B(s)/d$, which is `rope_decay_bound` / 2,
stays at 1.12 or more over every gap up to 4,096 (16.25 at gap 0).

```python
import numpy as np
from lessons.positional import angle_table, rope_decay_bound, rope_frequencies
theta, L = rope_frequencies(128), 2048
def waves(s):  # Eq. 3 in real form: the cos and sin of s·θ_j  # (len(s), 128)
    angles = angle_table(s, theta)
    return np.concatenate([np.cos(angles), np.sin(angles)], axis=-1)
X, targets = waves(np.arange(L)), np.random.default_rng(0).standard_normal(L)
# Appendix C.1's least squares; directions below 1e-10 of the largest left out
fit = np.linalg.lstsq(X, targets, rcond=1e-10)[0]
ridge = np.linalg.solve(
    X.T @ X + np.eye(128), X.T @ targets
)  # |h_j| kept small
beyond = waves(np.arange(L, 2 * L))
round(float(np.abs(X @ fit).max()), 1), bool(np.abs(beyond @ fit).max() > 1000)
# → (0.6, True)
int(np.linalg.matrix_rank(X, tol=1e-10 * np.linalg.norm(X, 2)))  # → 78
# the largest |a(s)| past L, for three cut-offs
{rc: f"{np.abs(beyond @ np.linalg.lstsq(X, targets, rcond=rc)[0]).max():.0e}"
 for rc in (1e-10, 1e-7, 1e-6)}
# → {1e-10: '1e+08', 1e-07: '9e+03', 1e-06: '9e+02'}
round(float(np.abs(beyond @ ridge).max()), 1)  # → 1.3
# Theorem 2.1 (Eq. 7): d · max|h_j| / (32 ln c); |h_j| is the size of pair
# j's (cos, sin) weights
bound = {
    name: 128 * np.hypot(w[:64], w[64:]).max() / (32 * np.log(10000))
    for name, w in (("fit", fit), ("ridge", ridge))
}
s, whole = np.arange(25, 75, 0.125), np.arange(25, 76)
off_line = np.abs(
    waves(s) @ ridge - np.interp(s, whole, waves(whole) @ ridge)
).max()
(
    round(float(off_line), 3),
    round(float(bound["ridge"]), 3),
    bool(bound["fit"] > 1e5),
)
# → (0.012, 0.108, True)
round(32 * np.log(10000), 2), round(2 * 32 * np.log(10000))  # → (294.73, 589)
B_over_d = rope_decay_bound(128, np.arange(4096)) / 2
round(float(B_over_d.min()), 2), float(B_over_d[0])  # → (1.12, 16.25)
```

![Two panels, one above the other: top, the size of a least-squares fitted RoPE score against the gap on a log scale, below 1 up to the trained length 2,048 and many orders of magnitude larger beyond it, while a ridge fit stays near 1 throughout; bottom, the same least-squares curve between gaps 25 and 75 sampled every eighth of a position, passing smoothly between its values at whole gaps](figures/chen2023_interpolation.fitted_scores.svg)

**Reading it:** the top panel is the paper's Figure 2 argument: both curves fit the trained gaps
(left of the dashed line) about equally well; only the size of the $h_j$ decides what
happens after it. The bottom panel is the interpolation side: between whole gaps the curve moves
smoothly from one trained value to the next, which is what Theorem 2.1 bounds.

## What the paper reports

- **The budget** (abstract, §3.1): "within 1000 steps". Position Interpolation models are
  fine-tuned for 1,000 steps, direct fine-tuning for 10,000; AdamW, learning rate
  $2 \times 10^{-5}$ (7B, 13B) or $10^{-5}$ (33B, 65B), 20 warm-up steps, batch 64 or 128,
  on the Pile, with 32 or 128 A100 GPUs. §2.3: fine-tuning "only needs tens to hundreds
  thousands of examples".
- **How fast it adapts** (§3.2, Table 3, LLaMA 7B on PG19): before any fine-tuning the
  interpolated model has perplexity 16.10 at 8,192 tokens and 112.13 at 16,384 (direct
  extrapolation: above $10^3$); after 200 steps 7.12 and 7.05, after 1,000 steps 6.95 and
  6.83.
- **The window it really uses** (§3.3, Table 4, passkey retrieval): extended models reach
  the full target window, up to 32,768, after 200 steps; direct fine-tuning reaches 2,560
  after 10,000.
- **Long text gets better with length** (§3.2, Table 1): LLaMA 7B extended to 32,768
  scores 7.23 at 2,048 tokens and 6.77 at 32,768 on PG19 (the original model: 7.20 at
  2,048).
- **Short text loses a little** (§3.2, Table 2; §3.4, Table 5): 0.01 to 0.05 perplexity
  on Proof-pile at 2,048, and up to 2% on the benchmarks for 8,192 windows; BoolQ drops
  most (LLaMA 7B: 76.1, then 64.7 at 32,768).

## What later work changed

Hugging Face configs call this recipe `rope_type` "linear", with a `factor` that divides
every pair's speed (`rope_inv_freq`); Gemma 3 4B's full-attention layers ship it with
`factor` 8 (`lessons.context_extension`). Its weakness shows in this page's code: every
pair slows by the same $s$, so the fast pairs that tell neighbours apart are squeezed
too. YaRN (Peng et al., 2023, `papers.peng2023_yarn`) argues that this removes RoPE's
high frequencies and reports that interpolation fine-tunes reached about $s = 8$ before
their outputs degraded (its arXiv v3 §3.1). Raising the base instead (NTK-aware scaling)
spares the fast pairs; NTK-by-parts, YaRN and Llama 3's rule go further and keep the
fast pairs while interpolating only the slow ones, the recipes behind the Qwen2.5,
DeepSeek-V2, gpt-oss and Llama 3.1 configs read in `lessons.context_extension`.

## Further reading

- Su et al. (2021), RoFormer §3.4.3: the bound this paper calls Eq. 8, and
  `lessons.positional.rope_decay_bound`, which computes it.
- kaiokendev (2023), *Things I'm learning while training SuperHOT*, the concurrent blog
  post the paper credits (§1), which interpolated LLaMA's positions from 2K to 8K.
"""

import numpy as np

from lessons._palette import BLUE, GRID, RED, legend_beside
from lessons.positional import angle_table, rope_frequencies

# The setting of the paper's Figure 2 (LLaMA 7B): head width 128, base 10,000, trained on 2,048 tokens.
_D, _L = 128, 2048


def _waves(s: np.ndarray) -> np.ndarray:
    """Eq. 3's basis in real form: cos and sin of s·θ_j for every gap s.  # (len(s), d)"""
    angles = angle_table(s, rope_frequencies(_D))  # (len(s), d/2)
    return np.concatenate([np.cos(angles), np.sin(angles)], axis=-1)


def _fits() -> dict[str, np.ndarray]:
    """The least-squares fit of Appendix C.1 and its ridge version, to seeded random scores."""
    X, targets = _waves(np.arange(_L)), np.random.default_rng(0).standard_normal(_L)
    # rcond=1e-10, as on the page: numpy's default cut-off (rcond=None) also keeps directions whose
    # singular value is rounding, so the weights, and the curve past L, changed with the CPU's kernels
    return {"least squares (Appendix C.1)": np.linalg.lstsq(X, targets, rcond=1e-10)[0],
            "ridge, |h_j| kept small": np.linalg.solve(X.T @ X + np.eye(_D), X.T @ targets)}


def figures() -> dict:
    """The page's figure as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    fits = _fits()
    fig, (left, right) = plt.subplots(2, 1, figsize=(6.4, 7.0), layout="constrained")
    gaps = np.arange(2 * _L)
    for (label, w), color in zip(fits.items(), (RED, BLUE), strict=True):
        left.semilogy(gaps, np.abs(_waves(gaps) @ w), color=color, lw=0.8, label=label)
    left.axvline(_L, color=GRID, ls="--", lw=0.8, label=f"trained length L = {_L:,}")
    left.set(xlabel="gap s (query position − key position)", ylabel="|a(s)|, log scale",
             title="Extrapolation: fitted on gaps 0 to 2,047, read beyond")
    legend_beside(left)

    w = fits["least squares (Appendix C.1)"]
    fine, whole = np.arange(25, 75, 0.125), np.arange(25, 76)
    right.plot(fine, _waves(fine) @ w, color=RED, lw=1.2, label="a(s) at every 1/8 of a gap")
    right.plot(whole, _waves(whole) @ w, "o", ms=3, color="black", label="whole gaps, pinned by training")
    right.set(xlabel="gap s", ylabel="a(s)", title="Interpolation: between whole gaps, smooth")
    legend_beside(right)
    return {"fitted_scores": fig}
