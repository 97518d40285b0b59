r"""
# ALiBi: Train Short, Test Long: Attention with Linear Biases Enables Input Length Extrapolation

Ofir Press, Noah A. Smith and Mike Lewis, 2021 (ICLR 2022),
[arXiv:2108.12409](https://arxiv.org/abs/2108.12409).

Read it with: `lessons.alibi` (the bias, the slopes and the recency they
cause), `lessons.attention` (where the bias is added) and `lessons.transformer`
(a decoder that uses it). The NoPE paper, `papers.kazemnejad2023_nope`, tests
ALiBi again on other tasks.

## What the paper set out to fix

A transformer language model is trained on sequences of length $L$ and, until
this paper, was also evaluated at $L$; a longer $L$ helps predictions but costs
time and memory (§1). The authors ask whether a model can be trained short and
run long ("extrapolation", defined in §1). §2 finds that the sinusoidal codes of
Vaswani et al. barely extrapolate, rotary does somewhat better, and the T5 bias
does best but trains at least twice as slowly. ALiBi is their answer: no position
vectors anywhere, only a fixed penalty on each attention score that grows with
the distance between query and key, at no extra runtime.

## Reading guide

Read first: §1 with Figure 1 (the problem in one plot), §3 (the whole method on
one page, with the slopes), §4.2 (the 1.3B-parameter model behind the headline
numbers) and Appendix B (the authors' own analysis of *why* perplexity improves
with longer inputs; it changes how you read every extrapolation plot). Skim §2.2
for the baselines and Figure 2 for speed and memory. Skip on a first pass:
Table 7, the comparison with the state of the art (Table 6 is not one: per
Appendix A.2 it sets ALiBi against the sinusoidal, rotary and T5 baselines,
worth a look once the method is clear), the Toronto BookCorpus runs (Appendix
A.3) and §5 (related work). The paper counts positions from 1
and writes the bias for one query row; the site counts from 0 and builds the
whole (heads, queries, keys) array, which holds the same numbers.

## Symbols: the paper's notation and the site's

| Paper | Site | Meaning |
|---|---|---|
| $L$ | `seq_len` during training | length of the training subsequences |
| $L_{\text{valid}}$, $L + k$ | `seq_len` at evaluation | evaluation length; $k$ extra tokens in §2.2 |
| $i$ ($1 \le i \le L$) | query position $i$ (from 0) | the query's place in the subsequence |
| $\mathbf{q}_i \in \mathbb{R}^{1\times d}$ | `q`, a row of `Q` | the query of token $i$ |
| $\mathbf{K} \in \mathbb{R}^{i\times d}$ | `K`, keys $0..i$ | the first $i$ keys (the causal mask keeps no others) |
| $d$ | `d` | head width |
| $m$ | $m_h$, `alibi_slopes(n_heads)[h]` | the slope of one head, fixed before training |
| $n$ | `n_heads` | number of heads |
| $[-(i-1), \dots, -1, 0]$ | $-(i - j)$ for keys $j \le i$ | how far back each key is, negated |
| $n \times L \times L$ mask | `alibi_bias(n_heads, seq_len)` | the bias for every head, added to the causal mask |
| $S$ | (not used) | stride of the sliding-window evaluation (Appendix B) |

## The equations, with the code

**The biased attention row (§3, displayed equation; footnote 10).** Each head
adds a fixed penalty to the scores of query $i$:

$$
\mathrm{softmax}\big(\mathbf{q}_i \mathbf{K}^\top + m \cdot [-(i-1), \dots, -2, -1, 0]\big)
$$

In the site's notation, for a key $j \le i$ (and $-\infty$ for $j > i$):
$\text{score}_h(i, j) = q_i \cdot k_j / \sqrt{d} - m_h (i - j)$. Footnote 10 says
the bias is *not* multiplied by the $\sqrt{d_k}$ scaling, so only the content
score is divided by $\sqrt{d}$. Figure 3 draws the bias for five tokens.

**In code:** `lessons.alibi.alibi_bias` (and `alibi_bias_at` for any
positions) builds the bias; `lessons.attention.scaled_dot_product_attention`
adds it after the scaling, as footnote 10 asks.

```python
import numpy as np
from lessons.alibi import alibi_bias, alibi_bias_at, recency_weights
from lessons.attention import scaled_dot_product_attention
# Figure 3's last row: query 5 of 5 (1-based), head 1 of 8 (m = 1/2): m ·
# [-4, -3, -2, -1, 0]
[float(b) for b in alibi_bias(8, 5)[0, 4]]  # → [-2.0, -1.5, -1.0, -0.5, 0.0]
# the paper's 1-based positions give the same row: only i - j enters
[float(b) for b in alibi_bias_at(8, [5], [1, 2, 3, 4, 5])[0, 0]]
# → [-2.0, -1.5, -1.0, -0.5, 0.0]
# footnote 10: with every content score 0 and d = 64, the weights are
# softmax(bias), not softmax(bias / 8)
Z = np.zeros((8, 5, 64))  # (heads, tokens, d)
_, w = scaled_dot_product_attention(Z, Z, Z, bias=alibi_bias(8, 5))
bool(np.allclose(w[0, 4], recency_weights(0.5, 5)))  # → True
```

The authors' reference code (fairseq/models/transformer.py in the
attention_with_linear_biases repository) adds $m \cdot [0, 1, \dots, i-1]$
instead, the same for every row; its comment explains that this differs from
Figure 3 by a constant per row, which the softmax ignores:

```python
import numpy as np
from lessons.alibi import alibi_bias, alibi_slopes
from lessons.notation import softmax
m = alibi_slopes(8)[:, None, None]  # (8, 1, 1)
j = np.arange(6)
rows_alike = np.where(
    j[None, :] <= j[:, None], m * j, -np.inf
)  # (8, 6, 6): m · j for every query, masked
bool(np.allclose(softmax(alibi_bias(8, 6)), softmax(rows_alike)))  # → True
```

**The slopes (§3).** For 8 heads the slopes are $\frac{1}{2^1}, \dots,
\frac{1}{2^8}$; for 16 heads the paper geometrically averages each neighbouring
pair, giving $\frac{1}{2^{0.5}}, \frac{1}{2^{1}}, \dots, \frac{1}{2^{8}}$; in
general, for $n$ heads, a geometric sequence that starts at $2^{-8/n}$ and has
that same ratio:

$$
m_h = \left(2^{-8/n}\right)^{h}, \qquad h = 1, \dots, n
$$

The paper's models have 8 heads (§2.1, WikiText-103) or 16 heads (§4.2, the
1.3B model). For head counts that are not a power of two the rule is not in the
paper but in the reference code, whose comment says the paper only trains
$2^a$ heads: take the slopes of the largest power of two below $n$, then every
other slope of the next power of two. Read literally, the general sentence of
§3 would start 12 heads at $2^{-8/12} = 0.63$; the reference code starts at 1/2,
and so do the Hugging Face implementations of BLOOM and MPT (`lessons.alibi`).

**In code:** `lessons.alibi.alibi_slopes` follows the reference code.

```python
import numpy as np
from lessons.alibi import alibi_slopes
s8, s12, s16 = alibi_slopes(8), alibi_slopes(12), alibi_slopes(16)
[float(1 / m) for m in s8]  # → [2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]
# 16 heads: every other slope is an 8-head slope, the rest are geometric
# means of neighbours
(
    bool(np.allclose(s16[1::2], s8)),
    bool(np.allclose(s16[2::2], np.sqrt(s8[:-1] * s8[1:]))),
)
# → (True, True)
round(float(s16[0]), 4), float(s16[-1])  # → (0.7071, 0.00390625)
# 12 heads (reference code): the 8-head slopes, then the first 4 of every
# other 16-head slope
bool(np.allclose(s12[:8], s8)), [round(float(m), 3) for m in s12[8:]]
# → (True, [0.707, 0.354, 0.177, 0.088])
round(2 ** (-8 / 12), 2), float(s12[0])  # → (0.63, 0.5)
```

**Why nothing breaks past $L$ (§3, "Implementation").** The bias is an
$n \times L \times L$ array built from distances only, so the array for a longer
input contains the trained one as its top-left block, and the steepest head
discounts far keys fast (the recency bias that §3 names):

```python
import numpy as np
from lessons.alibi import alibi_bias, alibi_slopes, half_weight_distance
alibi_bias(16, 32).shape  # → (16, 32, 32)
bool(np.array_equal(alibi_bias(16, 64)[:, :32, :32], alibi_bias(16, 32)))
# → True
# tokens back at which a key's weight halves, equal content scores: steepest
# and gentlest of 16 heads
(
    round(half_weight_distance(alibi_slopes(16)[0]), 2),
    round(half_weight_distance(alibi_slopes(16)[-1])),
)
# → (0.98, 177)
```

## What the paper reports

All numbers below are the paper's, as reported; none is computed here.

- **Headline (abstract, §1, §4.2 with Figure 5).** A 1.3B-parameter model
  trained with ALiBi on $L$ = 1024 and evaluated on 2048 tokens matches the
  perplexity of a sinusoidal model trained on 2048, while training 11% faster
  and using 11% less memory. In §4.2 (Figure 5, right) it beats that
  sinusoidal model by 0.09 perplexity with 3.1 GB less memory, and reaches a
  given perplexity 11% faster on average over five sampled points; the
  $L$ = 512 model against the sinusoidal $L$ = 1024 (Figure 5, left) is 7%
  faster, uses 1.6 GB less memory and ends 0.06 perplexity behind. Table 11
  gives the memory saving as 6–11%.
- **How far it extrapolates (§4.2, Figure 6).** On the 461 GB CC100+RoBERTa
  data, the $L$ = 512 model goes from 9.79 perplexity at 512 tokens to its best,
  9.3, at 1012; the $L$ = 1024 model from 9.16 to 8.9 at 2024. Performance peaks
  near $2L$ and stays strong up to 10,000 tokens; the sinusoidal models degrade
  as soon as one token is added past $L$.
- **WikiText-103 (§4.1, Figure 4, Table 5).** The $L$ = 512 ALiBi model scores
  19.73 at 512 tokens and 18.40 when extrapolating to 3072, better than the
  sinusoidal model trained on 3072 (18.67 ± 0.24) while training 1.84 times
  faster; ALiBi trained on 3072 scores 17.60.
- **The baselines (§2.2, Figure 1, Tables 1–3).** Trained on $L$ = 512, the
  sinusoidal model improves up to $k$ = 20 extra tokens and degrades after 50;
  rotary improves up to $k$ = 200 (100 for $L$ = 1024); the T5 bias up to 600
  (800), but trains at least twice as slowly: 14.4k words per second for T5 bias
  at $L$ = 512 against 28.5k for sinusoidal at 1024 (Table 1).
- **Cost (§1, Figure 2, Table 1).** No extra parameters; speed within 1% of the
  sinusoidal model in training and 3% at inference; memory up 0–0.7% (§1), or
  100 MB when training on 1024 and 3072 tokens (Figure 2).
- **The slopes (§3).** Trainable slopes did not extrapolate well; about ten
  hand-tried slope sets showed that slopes in $(0, 1)$, denser near 0, work
  best, and the method is robust to the choice.
- **The caveat (Appendix B, Figure 11, Tables 13–15).** With sliding-window
  evaluation (stride $S$ = 1) ALiBi's perplexity stays flat as $L_{\text{valid}}$ grows.
  The authors conclude that the gains under non-overlapping evaluation come
  mostly from fewer predictions suffering the "early token curse" (too little
  context at the start of each chunk), and that ALiBi might not use contexts
  longer than it was trained on.

## What later work changed

BLOOM and MPT adopted ALiBi with the reference code's slopes (MPT's
`alibi_bias_max` is the 8 in $2^{-8/n}$; see `lessons.alibi`). Most later open
models chose RoPE instead and extend it after training
(`lessons.context_extension`). The recency that the paper names as its
inductive bias is what later work questioned: Kazemnejad et al. (2023) found
ALiBi in the middle of the pack on downstream length-generalization tasks, and
cite work showing that a plain window mask reproduces its length generalization
(`papers.kazemnejad2023_nope`), which Appendix B already hints at.

## Further reading

- The authors' repository, attention_with_linear_biases on GitHub: the
  reference slope code and a README FAQ on why the authors think ALiBi works.
"""
