r"""
# NoPE: The Impact of Positional Encoding on Length Generalization in Transformers

Amirhossein Kazemnejad, Inkit Padhi, Karthikeyan Natesan Ramamurthy, Payel Das
and Siva Reddy, 2023 (NeurIPS 2023),
[arXiv:2305.19466](https://arxiv.org/abs/2305.19466).

Read it with: `lessons.alibi` (its last section, "NoPE: no positions at all"),
`lessons.positional` (why attention with no positions and no mask is
order-blind) and `lessons.transformer` (a decoder run with no positions). The
ALiBi paper that this one re-tests is `papers.press2021_alibi`.

## What the paper set out to fix

Position encodings were mostly compared by language-model perplexity, which
need not track downstream tasks (§1), and it was unclear which encoding lets a
decoder trained on short problems solve longer ones. Earlier work had shown
that a decoder with no position encoding (NoPE) can match explicit encodings at
the trained lengths, but not whether it generalizes to longer ones or how it
knows positions at all (§1, §2). The paper compares five options on the same
small decoder and tasks, proves what NoPE can represent, and asks whether a
scratchpad (chain of thought) makes the choice irrelevant.

## Reading guide

Read first: §2's last paragraph (why a causal decoder is not a bag of words),
§3 (the setup: which encodings, tasks and lengths), §4 with Figures 1–3 (the
comparison), and §5.1 with Appendix C (the two theorems and their
constructions, about three pages; the site computes both below). Then §5.2
(which encoding NoPE's attention resembles) and §7 (1B-scale models, and why
perplexity can flatter ALiBi). Skip on a first pass: §6 on scratchpad formats,
Appendix B.2 (the encodings' formulas), D (task details) and E (per-task plots).
Mind two clashes of notation: the paper's $d$ is the model width and $h$ the
head width (the site's `d`), and its hidden states $\mathbf{H}$ hold one token
per *column* while the site puts tokens in rows.

## Symbols: the paper's notation and the site's

| Paper | Site | Meaning |
|---|---|---|
| $\mathbf{x} = [\langle\text{bos}\rangle, x_1, \dots, x_T]$ | token ids; the first one plays $\langle\text{bos}\rangle$ | the input, $T + 1$ tokens |
| $t \in [1, T + 1]$ | position $i = t - 1$ (from 0) | a token's position |
| $\mathbf{H}^{(l)}$, $d \times (T+1)$ | `x`, (seq, d) | hidden states after layer $l$ |
| $\mathbf{W}_Q, \mathbf{W}_K, \mathbf{W}_V \in \mathbb{R}^{h \times d}$, $\mathbf{W}_O \in \mathbb{R}^{d \times h}$ | `W_q`, `W_k`, `W_v`, `W_o` | projections, applied as $\mathbf{W}\mathbf{h}$ (the site's `X @ W.T`) |
| $h$ | `d` in `lessons.attention` | head (attention) width |
| $\boldsymbol{\alpha}$, $\hat{\boldsymbol{\alpha}}$ | scores, weights | one query's scores and their softmax |
| $f_{\text{cnt}}$, $f_{\text{rel}}$ | content score, relative term | the two parts of a score in Theorem 2 |
| $L$, $\lambda$ | `seq_len` | training-length threshold ($L$ = 20) and a problem's length bucket |
| $D_{\text{AT}}$, $D^{(l)}$ | (not implemented) | Jensen-Shannon distance between attention heads (§5.2) |

## The equations, with the code

**Theorem 1, absolute positions (§5.1; proof in Appendix C.1, eqs. 17–27).**
The first layer can write each token's position into its hidden state. The
construction: every embedding has a constant 1 in its first entry, which
$\mathbf{W}_K$ reads, so all keys are equal and any query gives equal scores
(eqs. 22–24); the causal mask then leaves $t$ keys, so the weights are
$1/t$ (eq. 25); $\mathbf{W}_V$ reads a flag that is 1 only for
$\langle\text{bos}\rangle$ (eq. 26), so the head outputs $1/t$ (eq. 27), and the
feed-forward layer turns $1/t$ into $t$:

$$
\hat{\boldsymbol{\alpha}} = \mathrm{softmax}(\boldsymbol{\alpha}) = \Big[\tfrac{1}{t}, \dots, \tfrac{1}{t}\Big], \qquad
\mathbf{o}_t = \mathbf{W}_O \Big(\frac{1}{t} \sum_{i \le t} \mathbf{v}_i\Big) = \big(0, 0, \tfrac{1}{t}, 0, \dots, 0\big)^\top
$$

**In code:** `lessons.alibi.mask_position_signal` is this head (zero queries
and keys, a value of 1 on the first token); `scaled_dot_product_attention`
with arbitrary queries and equal keys gives the same output.

```python
import numpy as np
from lessons.alibi import mask_position_signal
from lessons.attention import scaled_dot_product_attention, causal_mask
signal = mask_position_signal(
    6
)  # the paper's t = 1..6 are positions 0..5 here
[round(float(s), 4) for s in signal]  # → [1.0, 0.5, 0.3333, 0.25, 0.2, 0.1667]
[round(float(1 / s)) for s in signal]  # → [1, 2, 3, 4, 5, 6]
Q = np.random.default_rng(0).standard_normal(
    (6, 4)
)  # any W_Q: arbitrary queries (eq. 21)
K = np.ones(
    (6, 4)
)  # W_K reads the constant entry: every key the same (eq. 22)
V = np.zeros((6, 1))
V[0] = 1.0  # W_V reads the <bos> flag (eq. 26)
out, w = scaled_dot_product_attention(Q, K, V, mask=causal_mask(6))
[float(x) for x in w[3]]  # → [0.25, 0.25, 0.25, 0.25, 0.0, 0.0]
bool(np.allclose(out[:, 0], signal))  # → True
```

The last line of the proof says why a decoder needs both parts: the causal
mask makes the number of visible tokens $t$ (eq. 23), and
$\langle\text{bos}\rangle$ anchors the count. Take the mask away and attention
with no positions is order-blind (§2: encoder-only models "become bag-of-words
models"); keep it, and two orders of the same tokens differ exactly where the
mask shows them different prefixes. **In code:** `unmasked_order_gap` and
`nope_position_gaps`.

```python
from lessons.alibi import unmasked_order_gap, nope_position_gaps
unmasked_order_gap([3, 5, 7, 9], [5, 3, 7, 9]) < 1e-12  # → True
[
    bool(g > 1e-9)
    for g in nope_position_gaps([3, 5, 7, 9, 11], [5, 3, 7, 9, 11], n_layers=1)
]
# → [True, True, False, False, False]
[
    bool(g > 1e-9)
    for g in nope_position_gaps([3, 5, 7, 9, 11], [5, 3, 7, 9, 11], n_layers=2)
]
# → [True, True, True, True, True]
```

One layer cannot tell positions 2 to 4 apart in the two orders (each sees the
same set of tokens); a second layer can, because it reads hidden states that the
first layer made different, which is how Theorem 2 builds on Theorem 1.

**Theorem 2, relative positions (§5.1, eq. 1; proof in Appendix C.2, eqs.
28–37).** If $\mathbf{H}^{(1)}$ holds the positions and later layers keep them,
every later layer can make its scores depend on distance. The construction
puts $[1, -t]$ in the first two entries of the query and $[i, 1]$ in those of
the key (eqs. 31–33), so

$$
\langle \mathbf{q}_t, \mathbf{k}_i \rangle = \sum_{j=3}^{h} q_j\, k_{j,i} - (t - i)
= f_{\text{cnt}}(\mathbf{q}_t, \mathbf{k}_i) + f_{\text{rel}}(t - i)
$$

The relative term of the paper's construction, $-(t - i)$, is ALiBi's bias
with slope 1; scaling the two rows of $\mathbf{W}_Q$ that build $[1, -t]$ by
$m_h$ gives ALiBi's head $h$ exactly. (That reading is the site's, not the paper's; the paper notes
that the first layer's MLP can write any function of position, allowing richer
relative schemes.) **In code:** `lessons.alibi.alibi_bias_at`.

```python
import numpy as np
from lessons.alibi import alibi_bias_at, alibi_slopes
t = np.arange(1, 7)  # positions 1..6, as Theorem 1 writes them (eq. 30)
q = np.stack(
    [np.ones(6), -t], axis=1
)  # first two entries of q_t = [1, -t, ...] (eq. 31)
k = np.stack(
    [t, np.ones(6)], axis=1
)  # first two entries of k_i = [i, 1, ...] (eq. 33)
scores = q @ k.T  # entry [t, i] is i - t: the relative part of eq. 36
[float(s) for s in scores[5, :6]]  # → [-5.0, -4.0, -3.0, -2.0, -1.0, 0.0]
seen = np.tril(np.ones((6, 6), dtype=bool))  # keys at or before the query
m = alibi_slopes(8)[0]  # 0.5
bool(np.allclose(m * scores[seen], alibi_bias_at(8, t, t)[0][seen]))  # → True
```

## What the paper reports

All numbers below are the paper's, as reported; none is computed here.

- **What was compared (§3, Table 1).** One decoder-only Transformer of the
  "base" size (about 107M parameters), trained from scratch per task with
  five encodings: NoPE, APE (sinusoidal, since a learned table has no rows for
  unseen positions), T5's Relative Bias, ALiBi and Rotary. Ten tasks in three
  groups: Copy and Reverse; Addition, Polynomial Evaluation, Sorting,
  Summation, Parity and LEGO; and the length splits of SCAN and PCFG. Training
  problems have lengths up to $L$ = 20, test problems up to $2L$ = 40; three
  seeds per task and encoding; exact-match accuracy.
- **The ranking (Figure 1, Figure 2, §4).** Mean reciprocal rank over the ten
  tasks: NoPE 0.69, T5's Relative PE 0.55, ALiBi 0.50, Rotary 0.33, APE 0.22
  (Figure 1). At the trained lengths all encodings are near perfect; beyond
  them, T5's bias leads the explicit encodings, ALiBi sits in the middle, APE
  and Rotary generalize poorly, and NoPE matches or beats T5's bias with no
  extra computation (§4, Figure 3; per-task plots in Appendix E).
- **The theory (§5.1, Theorems 1 and 2).** NoPE can represent both absolute
  and relative positions (constructions above).
- **What NoPE learns (§5.2, Figure 4).** On SCAN, its attention patterns are
  closest, in Jensen-Shannon distance, to T5's Relative PE and farthest from
  APE and Rotary, in every layer.
- **Scratchpad (§6, Figures 6 and 7).** Run with $L$ = 8 to fit memory,
  scratchpad helps every encoding on Addition only, and its format matters. On
  Addition, NoPE and T5's bias attend both near and far (a bimodal distance
  histogram), ALiBi mostly near, Rotary and APE more uniformly.
- **At 1B scale (§7, Appendix F, Figure F.2, Tables 3 and 4).** Three 1.3B
  models (24 layers, 32 heads) trained post-submission on 30B tokens of code
  with context 1024: similar perplexity up to 1024; past it Rotary's perplexity
  explodes, NoPE and ALiBi hold up to about 1800 tokens, and beyond that ALiBi
  is more stable than NoPE.
- **A warning about perplexity (§7).** Short-range dependencies in text plus
  ALiBi's recency can overstate its length generalization; the paper cites
  Chi et al. (2023), who reproduced ALiBi's results with a window mask.

## What later work changed

Later models mix NoPE with RoPE layer by layer: Llama 4 and SmolLM3 leave
RoPE out of every fourth layer, through a per-layer `no_rope_layers` list in
which 1 means RoPE and 0 means NoPE; Yang et al. (2025, arXiv:2501.18795) pair global NoPE layers with local
RoPE ones (`lessons.alibi` reads the configs):

```python
from lessons.alibi import nope_layers
nope_layers(8, [1, 1, 1, 0, 1, 1, 1, 0])  # → [3, 7]
(
    len(nope_layers(48, [])),
    len(nope_layers(36, [1, 1, 1, 0] * 9, fill_empty=False)),
)
# → (12, 9)
```

## Further reading

- The authors' code, McGill-NLP/length-generalization on GitHub.
- `lessons.transformer`: a whole decoder run with `position="none"`.
"""
