r"""
# Attention: how every token reads every other token

Run: `python -m lessons.attention`

New to the symbols (vectors, dot products, matrices, square roots)? Each is
decoded where it first appears, and `lessons.notation` teaches them all from zero.
This lesson builds only on the symbols; `lessons.positional` builds on it.

## Level 1: the practitioner's guide

**In one sentence.** Attention is the step inside a transformer where each token
rebuilds its own vector as a weighted average of the vectors of the tokens it may
see, with the weights set by how well its question (the query) matches each of
their labels (the keys).

**When you need it.** You never write attention yourself, but its bill arrives
the day prompts get long. Every layer compares every token with every other, so
the table of scores is seq_len × seq_len per head: double the prompt and that
table grows 4 times. Beside it, a serving engine keeps each past token's key and
value vectors (the *KV cache*) so it does not recompute them for every new token,
and that cache grows with every token of every request in flight. The tell-tale
symptoms: out-of-memory errors that appear only above some prompt length, time to
first token that grows faster than the prompt, and a server whose throughput
collapses when a few long requests arrive together. With short prompts none of
this shows, and the defaults serve you well.

**Your options.** The first five are decisions the model's authors made, so you
pick them by picking a model; the last is how the same arithmetic is run.

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Full (bidirectional) attention | Every token sees every token, before and after it | The richest reading of a fixed text | Cannot generate left to right; scores grow with seq_len² | The architecture: BERT-style encoders and embedding models |
| Causal attention | Each token sees only itself and earlier tokens (`causal_mask`) | Generation one token at a time, with past keys and values cached and reused | Each token sees only its past | The architecture: every decoder LLM (GPT, Llama, Mistral, Qwen) |
| Multi-head attention | Cuts the width into several narrower heads that attend separately | Several reading patterns at once, for the same compute as one wide head | The KV cache holds a key and a value for every head | `num_attention_heads` in a model's config |
| Grouped-query (or multi-query) attention | Several query heads share one key/value head | A KV cache smaller by the group size: 4 times for 32 query heads over 8 KV heads | A little quality, fixed at training time | `num_key_value_heads` in the config |
| Sliding-window attention | Each token sees only the last W tokens | Scores and KV cache capped at W tokens per sequence | Distant tokens reach each other only through stacked layers | `sliding_window` in the config |
| FlashAttention-style kernels | The same maths, computed tile by tile in the GPU's fast on-chip memory | The same outputs up to floating-point rounding (it adds in a different order), memory linear in seq_len, faster | A supported GPU and library | `attn_implementation` in Hugging Face Transformers; serving engines such as vLLM choose a kernel themselves |

**How to choose.** Start from your situation.

- Calling a hosted API: nothing to choose. Long prompts cost more time and money
  per request; that is the seq_len² at work.
- Serving an open model and memory runs out under load: the KV cache is the usual
  culprit. Prefer models with grouped-query attention (`num_key_value_heads` well
  below `num_attention_heads`), cap the served context length, and give the engine
  the memory it asks for.
- Memory runs out on a single long prompt in your own code: you are storing the
  full score table. Switch to a fused kernel (`attn_implementation`) rather than
  buying a larger GPU.
- Choosing a model for very long inputs: sliding-window attention bounds memory,
  but information from far back has to hop through layers; test your task at the
  length you will use.
- Encoding text for search or classification: an encoder with full attention;
  generating text: a decoder with causal attention.

**What it costs.** The numbers below come from this lesson's small cost
functions (`score_matrix_bytes`, `score_flops`, `projection_flops`,
`crossover_length`, `kv_cache_bytes`), in 16-bit numbers (2 bytes each).

- Score memory. One head's score table at 4,096 tokens holds 16,777,216 numbers,
  32 MiB. At 131,072 tokens (128K) it is 32 GiB for one head of one layer, and
  1 TiB for 32 heads. No one stores that: fused kernels never build the whole
  table.
- Compute. Scoring and mixing cost 4 × seq_len² × width operations per layer,
  the four projection matrices 8 × seq_len × width². They are equal when seq_len
  is twice the width: for a model 4,096 numbers wide, 8,192 tokens. Shorter prompts
  are dominated by the projections, longer ones by attention itself.
- KV cache. A Llama-3-8B-shaped model (its published config has 32 layers in
  `num_hidden_layers`, 32 query heads in `num_attention_heads`, 8 in
  `num_key_value_heads`, and a width of 4,096, so heads of width 128) stores
  128 KiB per token: 16 GiB for one 131,072-token sequence. With one KV head
  per query head (32) it would be 64 GiB. With a 4,096-token sliding window (the
  window of Mistral 7B, Jiang et al., 2023) the same shape stops at 512 MiB
  however long the sequence grows.

??? example "These numbers, computed by the lesson's code"
    ```python
    from lessons.attention import (crossover_length, format_bytes, kv_cache_bytes,
                                   score_matrix_bytes, score_matrix_numbers)
    # double the prompt: the score table grows 4 times
    score_matrix_numbers(2 * 4096) // score_matrix_numbers(4096)  # → 4
    score_matrix_numbers(4096)  # → 16777216
    format_bytes(score_matrix_bytes(4096))  # → '32 MiB'
    format_bytes(score_matrix_bytes(131072))  # → '32 GiB'
    format_bytes(score_matrix_bytes(131072, n_heads=32))  # → '1 TiB'
    # scoring costs as much as the projections at twice the width
    crossover_length(4096)  # → 8192
    # Llama-3-8B's shape: 32 layers, 8 KV heads of width 4,096 / 32
    head_dim = 4096 // 32
    head_dim  # → 128
    format_bytes(kv_cache_bytes(1, 32, 8, head_dim))  # → '128 KiB'
    format_bytes(kv_cache_bytes(131072, 32, 8, head_dim))  # → '16 GiB'
    format_bytes(kv_cache_bytes(131072, 32, 32, head_dim))  # → '64 GiB'
    format_bytes(kv_cache_bytes(131072, 32, 8, head_dim, window=4096))
    # → '512 MiB'
    # grouped-query attention: 32 query heads over 8 KV heads, a cache 4 times
    # smaller
    kv_cache_bytes(1, 32, 32, head_dim) // kv_cache_bytes(1, 32, 8, head_dim)
    # → 4
    ```

**What breaks.**

- **Out of memory on long prompts.** Cause: code that materialises the full
  seq_len × seq_len table. Fix: a fused kernel (`attn_implementation`), or shorter
  chunks.
- **Out of memory under load.** Cause: the KV cache of many long requests. Fix: a
  grouped-query model, a lower maximum context per request, or a smaller cache
  number format.
- **NaN or infinity in the weights.** Cause: exponentiating large raw scores
  overflows. Fix: subtract each row's largest score first, which changes nothing
  else (`softmax` does this); and never mask out every key of a row, which leaves
  nothing to average (`scaled_dot_product_attention` refuses).
- **A model that peeks at the future.** Cause: a decoder trained or run without
  its causal mask, or with padding left unmasked. Symptom: a training loss that
  looks too good to be true. Fix: check the mask's shape and direction
  (`causal_mask`).
- **Word order ignored.** Cause: attention on its own is blind to order; shuffle
  the words and the outputs only shuffle. Fix: position information, the subject
  of `lessons.positional`.

![A grid of queries against keys with ticks on and below the diagonal only: under the causal mask each token may read itself and the tokens before it, never a later one](figures/attention.causal_mask.svg)

**Reading it:** each row is a token doing the looking, each column a token it
might look at, and a tick marks a pair the causal mask allows. Every tick sits
on or below the diagonal: no token reads one that comes after it, which is
what lets a decoder write one token at a time and reuse its cache. A mask
that is missing or flipped lets ticks into the empty upper half, and the
model reads the very token it is asked to predict (*A model
that peeks at the future*, above). That empty half is also the work a fused
kernel skips.

**In the wild.** The original transformer (Vaswani et al., 2017) used 8 heads of
width 64 in a model 512 wide (numbers from the paper). BERT reads with full
attention; GPT-2, Llama, Mistral and Qwen decode with causal attention. Llama 3
uses grouped-query attention (Ainslie et al., 2023), 32 query heads sharing 8 KV
heads in its 8B model's config. Mistral 7B uses a sliding window. FlashAttention
(Dao et al., 2022) and its successors sit behind PyTorch's fused attention, behind
`attn_implementation` in Hugging Face Transformers and inside vLLM. The papers are
linked at the end.

**Go deeper.** Level 2 builds attention from scratch on a three-word sentence you
can check with pencil and paper: queries, keys and values; softmax and the
square-root scaling; the causal mask; heads; and why shuffling the words only shuffles the
outputs. If you only needed to size a server or read a model card, you are done.

## Level 2: how it works, from scratch

One toy runs through every section, the same as in `lessons.notation` so the
numbers agree: the sentence "dog bites man" with two-number word vectors
dog = (1, 0), bites = (0, 1), man = (1, 1). To keep the arithmetic small, each
word's query, key and value are its word vector itself (no projection matrices).

## Queries, keys and values: who listens to whom

**Everyday picture.** A library visit. You arrive with a question (the
*query*). Every book has a label on its spine (the *key*) and pages inside (the
*value*). You check how well each label matches your question, then leave with a
blend of pages: mostly from the best matches, a little from the rest.

**Tiny worked example.** Update the word "dog". Its query is (1, 0). Score it
against each word's key with a dot product (multiply matching numbers, add up),
divide by $\sqrt{2}$ (the vectors have 2 numbers; the next section says why), and
turn the scores into weights that add to 1:

| key | dot product with (1, 0) | ÷ √2 | weight |
|---|---|---|---|
| dog (1, 0) | 1 | 0.707 | 0.401 |
| bites (0, 1) | 0 | 0.000 | 0.198 |
| man (1, 1) | 1 | 0.707 | 0.401 |

Dog's new vector is the weighted blend of the values:
0.401·(1, 0) + 0.198·(0, 1) + 0.401·(1, 1) = (0.802, 0.599).

```mermaid
flowchart TB
  X["word vectors $$X$$<br/>(one row per word)"] --> Q["queries $$Q$$"]
  X --> K["keys $$K$$"]
  X --> V["values $$V$$"]
  Q --> S["scores $$QK^\top / \sqrt{d}$$"]
  K --> S
  S --> W["softmax: weights,<br/>each row sums to 1"]
  W --> O["out = weights · $$V$$"]
  V --> O
```

**Reading it:** every word sends out three copies of itself: a query (what it is
looking for), a key (what it offers to be found by) and a value (what it hands
over). Queries meet keys in the score box, one score per pair of words. Softmax
turns each row of scores into weights, and the last box blends the values with
those weights. In a real model three learned matrices turn X into Q, K and V; in
our toy all three are X itself.

**The math.**

$$
\text{Attn}(Q, K, V) = \text{softmax}\!\left(\frac{Q K^\top}{\sqrt{d}}\right) V
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $Q$ | the queries, one row per word doing the looking | rows (1, 0), (0, 1), (1, 1) |
| $K$ | the keys, one row per word being looked at | the same three rows |
| $V$ | the values, one row per word, what gets blended | the same three rows |
| $K^\top$ | $K$ turned on its side (rows become columns), so $QK^\top$ holds every query-key dot product | a 2 × 3 grid |
| $d$ | how many numbers each query and key has (the head width) | 2 |
| $\sqrt{d}$ | the square root of $d$ | 1.414 |
| $\text{softmax}$ | exponentiate each score, then divide by its row's total | next section |
| $\text{Attn}(Q, K, V)$ | the output, one new vector per query | dog's row is (0.802, 0.599) |

**In words:** "score every query against every key, shrink the scores by
$\sqrt{d}$, turn each query's scores into weights that add to 1, and give each
query the weighted average of the values."

**With the numbers:** dog's row of $QK^\top$ is (1, 0, 1); divided by 1.414 it is
(0.707, 0, 0.707); softmax gives (0.401, 0.198, 0.401); times $V$ that is
(0.802, 0.599). Bites gets (0.599, 0.802) and man (0.752, 0.752).

**In Python:**

```python
import numpy as np
from lessons.attention import embed, scaled_dot_product_attention
# X: (3, 2), rows dog, bites, man
X = embed("dog bites man")
# dog's row of Q Kᵀ / √d
(X @ X[0] / np.sqrt(2)).round(3).tolist()  # → [0.707, 0.0, 0.707]
# q = k = v = the word vector
out, weights = scaled_dot_product_attention(X, X, X)
weights[0].round(3).tolist()  # → [0.401, 0.198, 0.401]
out.round(3).tolist()  # → [[0.802, 0.599], [0.599, 0.802], [0.752, 0.752]]
# man's row: its own key matches its query best
weights[2].round(3).tolist()  # → [0.248, 0.248, 0.503]
# each row of weights sums to 1
weights.sum(axis=-1).round(6).tolist()  # → [1.0, 1.0, 1.0]
```

![Heatmaps of the attention weights for "dog bites man": with full attention each row spreads over all three words; with the causal mask the upper-right cells are zero](figures/attention.attention_weights.svg)

**Reading it:** each row is a word doing the looking, each column a word being
looked at, and the number is the weight. On the left (full attention) dog puts
0.401 on itself and on man, 0.198 on bites; man looks most at itself (0.503)
because its key (1, 1) matches its own query best. On the right the causal mask
(a later section) has zeroed everything above the diagonal: dog can only see
itself, so its weight on itself is 1.

**In code:** `scaled_dot_product_attention` does the whole formula for any
number of leading axes; `self_attention` is the toy's shortcut that passes X as
Q, K and V; `embed` looks up the toy word vectors.

**Why it matters.** This one formula is the only place in a transformer where
tokens exchange information. Everything else (the feed-forward layers, the norms)
works on each token alone.

## Softmax and the square root of d: scores into weights

**Everyday picture.** Softmax is a vote share: the higher a key's score, the
bigger its share, and the shares add to 1. The $\sqrt{d}$ is about fairness as
heads get wider: adding up more products makes raw scores swing more wildly, and
one candidate would win every vote by a landslide. Dividing by $\sqrt{d}$ keeps
the swing the same at every width.

**Tiny worked example.** Softmax itself (exponentiate, divide by the total,
subtract the largest score first) is decoded in `lessons.notation`: dog's
scaled scores (0.707, 0, 0.707) become the weights (0.401, 0.198, 0.401).
What the $\sqrt{d}$ changes: take one query and two keys whose raw scores are
8 and 0, a gap of one typical spread at width 64 (below). Softmax gives the first key
0.9997 and the second almost nothing; divided by $\sqrt{64} = 8$ the scores
are 1 and 0, and the weights 0.731 and 0.269, so the second key still counts.

**The math.**

$$
\text{spread of } q \cdot k = \sqrt{d}, \qquad \text{spread of } \frac{q \cdot k}{\sqrt{d}} = 1
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $q \cdot k$ | the dot product of a query and a key with $d$ numbers each | raw scores 8 and 0 |
| $d$ | the head width | 64 |
| spread | the standard deviation: how far a typical score sits from 0, for random $q$ and $k$ whose numbers have spread 1 | about 8.1 at $d = 64$ |

**In words:** "a raw dot product of $d$ random terms spreads out like
$\sqrt{d}$; dividing by $\sqrt{d}$ brings the spread back to 1 at every
width."

**With the numbers:** for random queries and keys whose numbers have spread
1, the raw score spreads by about 8.1 at $d = 64$ (close to $\sqrt{64} = 8$)
but by about 1.0 after dividing by $\sqrt{d}$. Among 16 random keys, raw
scores give the top key an average weight of 0.85; scaled scores 0.24.

**In Python:**

```python
import numpy as np
from lessons.notation import softmax
from lessons.attention import score_spread, mean_top_weight
# dog's scaled scores, as in lessons.notation
softmax(np.array([0.707, 0.0, 0.707])).round(3).tolist()
# → [0.401, 0.198, 0.401]
# two keys with raw scores 8 and 0, before and after dividing by √64
softmax(np.array([8.0, 0.0])).round(4).tolist()  # → [0.9997, 0.0003]
softmax(np.array([8.0, 0.0]) / np.sqrt(64)).round(3).tolist()
# → [0.731, 0.269]
# spread of raw q·k at d = 64 is about √64 = 8
score_spread(64)  # → 8.1
score_spread(64, scaled=True)  # → 1.0
# average top weight among 16 keys: raw vs scaled
mean_top_weight(64, scaled=False), mean_top_weight(64)  # → (0.85, 0.24)
```

![Average largest softmax weight among 16 random keys against head width: raw scores climb towards 1 as the width grows, scaled scores stay near 0.24](figures/attention.sqrt_d_scaling.svg)

**Reading it:** the x-axis is the head width $d$ (doubling at each tick), the
y-axis the weight of the single strongest key out of 16, averaged over many
random queries. The vermillion (orange-red) line (raw scores) climbs towards 1: wider heads make
softmax pick one key and ignore the rest, and a weight stuck at 1 passes almost no
gradient back in training. The blue line (divided by $\sqrt{d}$) stays flat at
every width. The dashed line is a perfectly even spread, 1/16.

**In code:** `softmax` comes from `lessons.notation` and works along the last
axis, so one call covers every head at once; `scaled_dot_product_attention`
divides by $\sqrt{d}$; `score_spread` and `mean_top_weight` measure the two effects on
random vectors.

**Why it matters.** Without the division a model's attention behaviour would
change every time someone made the heads wider; with it, one setting trains well
at width 64 or 256.

## The causal mask: no peeking ahead

**Everyday picture.** Reading a story with a card that covers every word after
the one you are on. You may look back as often as you like, never ahead. A
language model writes this way, one word at a time, so it must learn this way
too: otherwise it could copy the next word instead of predicting it.

**Tiny worked example.** For three words the mask is a triangle (1 = may look,
0 = covered):

| query ↓ key → | dog | bites | man |
|---|---|---|---|
| dog | 1 | 0 | 0 |
| bites | 1 | 1 | 0 |
| man | 1 | 1 | 1 |

With it, dog sees only itself and keeps (1, 0); bites sees dog and itself, scores
(0, 0.707), weights (0.330, 0.670), output (0.330, 0.670); man sees all three, as
before, and keeps (0.752, 0.752).

```mermaid
flowchart TB
  S["scores $$QK^\top / \sqrt{d}$$"] --> M{"key $$j$$ after<br/>query $$i$$?"}
  M -->|"yes"| N["score $$= -\infty$$"]
  M -->|"no"| K["score unchanged"]
  N --> SM["softmax: $$e^{-\infty} = 0$$"]
  K --> SM
  SM --> W["weights: zero on<br/>every future word"]
```

**Reading it:** the mask acts between the scores and the softmax. Every score for
a later word is replaced by minus infinity; softmax turns minus infinity into a
weight of exactly 0, and the remaining weights still add to 1. Nothing else in
attention changes.

**The math.**

$$
\text{mask}_{ij} = \begin{cases} \text{allowed} & j \le i \\ \text{blocked} & j > i \end{cases}
\qquad
s_{ij} \to -\infty \text{ where blocked}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $i$ | the position of the query (the word doing the looking), counting from 0 | bites is $i = 1$ |
| $j$ | the position of the key (the word looked at) | man is $j = 2$ |
| $j \le i$ | the key is at or before the query | dog and bites, for bites |
| $s_{ij}$ | the scaled score of query $i$ for key $j$ | $s_{12} = 0.707$, then blocked |
| $-\infty$ | minus infinity; $e^{-\infty} = 0$ | |

**In words:** "a word may attend to itself and to the words before it; every
later word gets a score of minus infinity and so a weight of zero."

**With the numbers:** bites' scores are (0, 0.707, 0.707); the mask blocks man,
leaving (0, 0.707, $-\infty$). The exponentials are 1, 2.028 and 0, the total
3.028, so the weights are (0.330, 0.670, 0) and the output
0.330·(1, 0) + 0.670·(0, 1) = (0.330, 0.670).

**In Python:**

```python
import numpy as np
from lessons.attention import causal_mask, embed, self_attention
# True where key j may be attended by query i
causal_mask(3).astype(int).tolist()  # → [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
X = embed("dog bites man")
# bites' scaled scores s_10, s_11, s_12 before the mask
(X @ X[1] / np.sqrt(2)).round(3).tolist()  # → [0.0, 0.707, 0.707]
# e^0 + e^0.707 + e^(-inf): the total once man is blocked
float(1 + np.exp(1 / np.sqrt(2)) + np.exp(-np.inf))  # → 3.028
out, weights = self_attention(X, mask=causal_mask(3))
weights[1].round(3).tolist()  # → [0.33, 0.67, 0.0]
out.round(3).tolist()  # → [[1.0, 0.0], [0.33, 0.67], [0.752, 0.752]]
# the figure's 8 × 8 mask: query 7 sees all eight keys, query 0 only itself
causal_mask(8).sum(axis=1)[[0, 7]].tolist()  # → [1, 8]
```

![An 8 by 8 grid with ticks on and below the diagonal: query i may attend keys 0 to i and nothing after](figures/attention.causal_mask.svg)

**Reading it:** rows are queries, columns are keys, both numbered from 0. Ticks
mark allowed pairs: the lower triangle including the diagonal. Query 0 sees only
itself; query 7 sees all eight. Half of the grid (less the diagonal) is blocked,
which a fast kernel can skip entirely.

**In code:** `causal_mask` builds the triangle; `scaled_dot_product_attention`
accepts it as its mask argument (and, separately, an additive bias argument,
which a later lesson uses to penalise distance).

**Why it matters.** The mask is what lets one training pass teach every position
to predict its next word, and what lets a server reuse past keys and values: a
word's output never changes when later words arrive. It also quietly breaks the
symmetry of the last section below.

## Multi-head attention: several readings at once

**Everyday picture.** A panel of judges watching the same performance, each
scoring something different: one the timing, one the technique, one the
costume. Their notes are then stapled together and summarised. A head is one
judge; each looks at its own slice of every word's vector.

**Tiny worked example.** Take 3 words with vectors 4 numbers wide and 2 heads.
Each head gets 4 / 2 = 2 of the numbers:

| step | shape | meaning |
|---|---|---|
| X | (3, 4) | 3 words, width 4 |
| Q = X W_qᵀ (same for K, V) | (3, 4) | projected |
| split_heads(Q, 2) | (2, 3, 2) | 2 heads, 3 words, width 2 each |
| weights | (2, 3, 3) | one 3 × 3 table per head |
| out per head | (2, 3, 2) | |
| merge_heads | (3, 4) | heads side by side again |
| times W_o | (3, 4) | heads mixed |

```mermaid
flowchart TB
  X["$$X$$ (seq, d)"] --> P["$$Q, K, V = X W_q^\top, X W_k^\top, X W_v^\top$$<br/>(seq, d)"]
  P --> S["split_heads<br/>(n_heads, seq,<br/>d / n_heads)"]
  S --> A["attention in every head at once"]
  A --> M["merge_heads<br/>(seq, d)"]
  M --> O["times $$W_o^\top$$<br/>(seq, d)"]
```

**Reading it:** split and merge are pure reshapes: they move numbers around and
compute nothing. Head $h$ owns a block of adjacent columns of Q, K and V. The
attention box is the formula from the first section, run for all heads at once
because they are simply a leading axis. $W_o$ then lets the heads' results
mix.

**The math.**

$$
\begin{gathered}
Q = X W_q^\top,\ K = X W_k^\top,\ V = X W_v^\top, \qquad
\text{head}_h = \text{Attn}(Q_h, K_h, V_h),
\\ \text{MHA}(X) = [\text{head}_1, \dots, \text{head}_H]\, W_o^\top, \qquad
d_{\text{head}} = d / H
\end{gathered}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $H$ | the number of heads (n_heads in code) | 2 |
| $d$ | the model width | 4 |
| $d_{\text{head}}$ | each head's width; the $\sqrt{\phantom{d}}$ in each head uses it | 2 |
| $Q_h, K_h, V_h$ | columns $h \cdot d_{\text{head}}$ up to $(h+1) \cdot d_{\text{head}} - 1$ of $Q, K, V$ | head 0 gets columns 0 and 1 |
| $W_q, W_k, W_v$ | the learned projections, each stored as (outputs, inputs) and applied transposed, $X W^\top$, as PyTorch's `nn.Linear` and Hugging Face checkpoints store them | each 4 × 4 |
| $[\dots]$ | the heads' outputs laid side by side | (3, 4) |
| $W_o$ | the output matrix that mixes the heads, stored the same way | 4 × 4 |

**In words:** "cut the projected queries, keys and values into $H$ slices, run
attention on each slice separately, glue the results back together and mix them
with one more matrix."

**With the numbers:** $d = 4$ and $H = 2$ give heads of width 2, so each head
divides its scores by $\sqrt{2}$, not $\sqrt{4}$. The original transformer used
$d = 512$ and $H = 8$, heads of 64 (Vaswani et al., 2017).

**In Python:**

```python
import numpy as np
from lessons.attention import (
    merge_heads,
    multi_head_attention,
    random_causal_layer,
    scaled_dot_product_attention,
    split_heads,
)
# 3 words, width 4
X = np.arange(12.0).reshape(3, 4)
split_heads(X, 2).shape  # → (2, 3, 2)
# head 0 owns columns 0 and 1
split_heads(X, 2)[0].tolist()  # → [[0.0, 1.0], [4.0, 5.0], [8.0, 9.0]]
# merge_heads undoes split_heads exactly
bool(np.array_equal(merge_heads(split_heads(X, 2)), X))  # → True
# 10 tokens of width 4,096 in 32 heads (the self-test)
split_heads(np.zeros((10, 4096)), 32).shape  # → (32, 10, 128)
merge_heads(split_heads(np.zeros((10, 4096)), 32)).shape  # → (10, 4096)
# the original transformer's head width
512 // 8  # → 64
# weights are (d_out, d_in) and act as X @ W.T
rng = np.random.default_rng(0)
W_q, W_k, W_v, W_o = rng.standard_normal((4, 4, 4)) / 2
Xs = X / 10
# one head is plain attention followed by W_o
out, weights = multi_head_attention(Xs, W_q, W_k, W_v, W_o, n_heads=1)
single, _ = scaled_dot_product_attention(Xs @ W_q.T, Xs @ W_k.T, Xs @ W_v.T)
bool(np.allclose(out, single @ W_o.T))  # → True
# two heads: one 3 × 3 table of weights per head
multi_head_attention(Xs, W_q, W_k, W_v, W_o, n_heads=2)[1].shape  # → (2, 3, 3)
# the figure's layer: width 8, two heads, six positions
out, weights = random_causal_layer()
out.shape, weights.shape  # → ((6, 8), (2, 6, 6))
```

![Two heatmaps of causal attention weights from one random layer with two heads over six positions: the two heads spread their weight differently](figures/attention.multi_head_weights.svg)

**Reading it:** one untrained layer (random, seeded weights), width 8, two heads,
six positions, causal mask. Both panels are lower triangles, as the mask demands,
but the weights differ: each head has its own slice of the projections and so its
own idea of which earlier position matters. Trained heads specialise far more
sharply, for example in the previous word or in the matching bracket.

**In code:** `split_heads` and `merge_heads` are the reshapes;
`multi_head_attention` projects, splits, calls `scaled_dot_product_attention` once
for all heads and merges; `random_causal_layer` is the figure's seeded layer.

**Why it matters.** Heads give a model several reading patterns for the price of
one: the compute is the same as one head of full width. They are also the unit
that the KV cache stores and that grouped-query attention shares.

## Permutation equivariance: attention reads a set

**Everyday picture.** A round-table meeting where everyone talks to everyone. If
two people swap seats, each person still hears the same things and says the same
thing; only where they sit has changed. Attention without position information
behaves like that table: it never asks who sits where.

**Tiny worked example.** Reverse the sentence to "man bites dog" and run the same
toy layer:

| word | output in "dog bites man" | output in "man bites dog" |
|---|---|---|
| dog | (0.802, 0.599), row 1 | (0.802, 0.599), row 3 |
| bites | (0.599, 0.802), row 2 | (0.599, 0.802), row 2 |
| man | (0.752, 0.752), row 3 | (0.752, 0.752), row 1 |

Every word gets exactly the same vector; only the rows are reordered. Add the
causal mask and that stops: dog at the front sees only itself and gets (1, 0); at
the back it sees everything and gets (0.802, 0.599).

```mermaid
flowchart TB
  X["$$X$$: dog, bites, man"] --> A1["Attn"]
  A1 --> Y["$$\text{Attn}(X)$$"]
  Y --> P2["reorder rows with $$P$$"]
  P2 --> R["same grid"]
  X --> P1["reorder rows with $$P$$"]
  P1 --> PX["$$PX$$: man, bites, dog"]
  PX --> A2["Attn"]
  A2 --> R
```

**Reading it:** two roads from the same sentence. The left road runs attention
first and reorders afterwards; the right road reorders first and runs attention
afterwards. Both arrive at the same grid of numbers. Whatever attention computes
for a word, it computes no matter where that word stands.

**The math.** A *permutation matrix* $P$ is all zeros except one 1 in each row
and each column; multiplying by it reorders rows. Then

$$
\text{Attn}(PX) = P\,\text{Attn}(X)
$$

because the scores of $PX$ are $P S P^\top$ (rows and columns of $S$ reordered
alike), softmax works row by row so it commutes with that reordering, and
$P^\top P = I$ (reordering and then undoing it does nothing):
$\text{softmax}(P S P^\top)\, P V = P\, \text{softmax}(S)\, P^\top P\, V = P\,\text{softmax}(S)\, V$.

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $X$ | the word vectors, one row per word | rows (1, 0), (0, 1), (1, 1) |
| $P$ | a permutation matrix; $(PX)_i = X_{\text{order}_i}$ | order (2, 1, 0): reverse |
| $PX$ | the same rows in the new order | man, bites, dog |
| $S$ | the scaled score table of $X$ | 3 × 3 |
| $P^\top$ | $P$ turned on its side: the reordering undone | |
| $I$ | the identity matrix: multiplying by it changes nothing | |
| $\text{Attn}(\cdot)$ | our toy layer, q = k = v = the word vector, no mask | 3 × 2 in, 3 × 2 out |

**In words:** "shuffling the words and then running attention gives the same
answer as running attention and then shuffling the outputs."

**With the numbers:** $\text{Attn}(X)$ has rows (0.802, 0.599), (0.599, 0.802),
(0.752, 0.752). With $P$ reversing the rows, $\text{Attn}(PX)$ has rows
(0.752, 0.752), (0.599, 0.802), (0.802, 0.599): the same rows, reversed. Dog's
output is (0.802, 0.599) wherever it stands.

**In Python:**

```python
import numpy as np
from lessons.notation import permutation_matrix
from lessons.attention import causal_mask, embed, self_attention
X = embed("dog bites man")
# (P X)[i] = X[order[i]]: reverse the words
P = permutation_matrix([2, 1, 0])
(P @ X).tolist()  # → [[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
out, _ = self_attention(X)
out_p, _ = self_attention(P @ X)
out_p.round(3).tolist()  # → [[0.752, 0.752], [0.599, 0.802], [0.802, 0.599]]
# Attn(PX) = P Attn(X)
bool(np.allclose(out_p, P @ out))  # → True
# with the causal mask the identity fails: dog at the front vs dog at the back
mask = causal_mask(3)
(
    self_attention(X, mask)[0][0].round(3).tolist(),
    self_attention(P @ X, mask)[0][2].round(3).tolist(),
)
# → ([1.0, 0.0], [0.802, 0.599])
```

![Two 3 by 2 grids of output vectors: the rows for "man bites dog" are the rows for "dog bites man" in reverse order, with dog's row (0.802, 0.599) in both](figures/attention.permutation.svg)

**Reading it:** the left grid is $\text{Attn}(X)$ for "dog bites man", the right
grid $\text{Attn}(PX)$ for "man bites dog"; each row is labelled with its word.
Read a word's row in both grids: the numbers are identical. Only the order of the
rows changed, which is exactly what $P$ does.

**In code:** `permutation_matrix`, from `lessons.notation`, builds $P$ from an
order; `self_attention` is the toy layer; the tests check the identity for
many random inputs and orders, and check that it fails under `causal_mask`.

**Why it matters.** Pool the outputs into one sentence vector and "dog bites man"
equals "man bites dog": attention alone cannot tell who bit whom. That gap is why
every transformer injects position information, the subject of
`lessons.positional`. The causal mask leaks a little order, but only a little.

## In 20 seconds

- Attention gives each token a weighted average of the values of the tokens it
  may see; the weights are the softmax of query-key dot products divided by
  $\sqrt{d}$.
- The score table is seq_len × seq_len per head per layer: memory and compute grow
  with the square of the length, and the KV cache grows with every token served.
- The causal mask blocks every later token with a score of minus infinity, so
  decoders can train on all positions at once and generate one token at a time.
- Multi-head attention is reshaping plus the same formula per head; grouped-query
  attention shares keys and values between heads to shrink the cache.
- Without positions attention is permutation-equivariant: shuffle the words and
  the outputs only shuffle.

## Self-test questions

??? question "Why divide the scores by the square root of d?"
    A dot product of $d$ random terms has a spread that grows like $\sqrt{d}$
    (about 8.1 at $d = 64$ in this lesson). Large scores push softmax onto a single
    key, whose weight near 1 passes almost no gradient. Dividing by $\sqrt{d}$ keeps
    the spread near 1 at any head width.

??? question "With the causal mask, what is the output for bites in 'dog bites man' (toy layer)?"
    Bites sees dog and itself, scores (0, 0.707), weights (0.330, 0.670), so its
    output is (0.330, 0.670). Man is blocked.

??? question "A layer has d = 4,096 and 32 heads. What are the shapes after split_heads for 10 tokens?"
    (32, 10, 128): 32 heads, 10 tokens, 4,096 / 32 = 128 numbers per head.
    `merge_heads` returns (10, 4,096).

??? question "Your server runs out of memory only when several long requests arrive together. What is growing, and what helps?"
    The KV cache, which grows with every token of every sequence in flight. A
    grouped-query model, a lower maximum context per request, or a smaller cache
    number format.

??? question "Does attention on its own know that 'dog bites man' differs from 'man bites dog'?"
    No. Without positions it is permutation-equivariant, $\text{Attn}(PX) =
    P\,\text{Attn}(X)$: dog's output is (0.802, 0.599) in both sentences. The
    causal mask breaks the symmetry a little; position encodings
    (`lessons.positional`) fix it properly.

## The papers behind this lesson

- **Vaswani et al. (2017), *Attention Is All You Need*.**
  [arXiv:1706.03762](https://arxiv.org/abs/1706.03762) (companion: `papers.vaswani2017_attention`). Introduced the
  transformer, scaled dot-product attention with the $\sqrt{d}$, the causal mask in
  the decoder, and multi-head attention.
- **Bahdanau, Cho and Bengio (2014), *Neural Machine Translation by Jointly Learning to Align and Translate*.**
  [arXiv:1409.0473](https://arxiv.org/abs/1409.0473). The first attention over a
  whole input sentence: a translation model learning where to look.
- **Shazeer (2019), *Fast Transformer Decoding: One Write-Head is All You Need*.**
  [arXiv:1911.02150](https://arxiv.org/abs/1911.02150). Multi-query attention: all
  heads share one key and value, shrinking the cache.
- **Ainslie et al. (2023), *GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints*.**
  [arXiv:2305.13245](https://arxiv.org/abs/2305.13245). Grouped-query attention,
  the middle ground between one KV head and one per query head.
- **Dao et al. (2022), *FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness*.**
  [arXiv:2205.14135](https://arxiv.org/abs/2205.14135). Exact attention computed in
  tiles, never storing the full score table.
- **Jiang et al. (2023), *Mistral 7B*.**
  [arXiv:2310.06825](https://arxiv.org/abs/2310.06825). A widely used open model
  with sliding-window and grouped-query attention.

## Further reading

- Beltagy, Peters and Cohan (2020), *Longformer: The Long-Document Transformer*
  (sliding-window attention): [arXiv:2004.05150](https://arxiv.org/abs/2004.05150)
- Jay Alammar, *The Illustrated Transformer*: <https://jalammar.github.io/illustrated-transformer/>
- Harvard NLP, *The Annotated Transformer*: <https://nlp.seas.harvard.edu/annotated-transformer/>
- Andrej Karpathy, nanoGPT (a small, readable GPT in PyTorch): <https://github.com/karpathy/nanoGPT>
"""

from __future__ import annotations

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, COLOUR_MAPS, MUTED, RED
from lessons._show import banner, matrix, say, table, takeaway
from lessons.notation import WORDS, X_WORDS, permutation_matrix, softmax

# ---------------------------------------------------------------------------
# 0. What it costs: the arithmetic behind Level 1
# ---------------------------------------------------------------------------


def score_matrix_numbers(seq_len: int, n_heads: int = 1) -> int:
    """How many scores one layer holds if it stores every query-key pair: n_heads · seq_len²."""
    _checks.counts(seq_len=seq_len, n_heads=n_heads)
    # n_heads · n · n
    return n_heads * seq_len * seq_len


def score_matrix_bytes(seq_len: int, n_heads: int = 1, bytes_per_number: int = 2) -> int:
    """Memory of those scores in bytes; 2 bytes per number is 16-bit (fp16 / bf16)."""
    _checks.count(bytes_per_number, "bytes_per_number")
    return score_matrix_numbers(seq_len, n_heads) * bytes_per_number


def score_flops(seq_len: int, d: int) -> int:
    """FLOPs for Q Kᵀ and weights @ V over all heads of one layer of width d: 2 matmuls × 2 · n² · d."""
    _checks.counts(seq_len=seq_len, d=d)
    # each of the two (n × d)·(d × n)-sized products costs 2 · n² · d (a multiply and an add)
    return 4 * seq_len * seq_len * d


def projection_flops(seq_len: int, d: int) -> int:
    """FLOPs for the four (d, d) projections W_q, W_k, W_v, W_o over seq_len tokens: 4 × 2 · n · d²."""
    _checks.counts(seq_len=seq_len, d=d)
    return 8 * seq_len * d * d


def crossover_length(d: int) -> int:
    """The seq_len where score_flops equals projection_flops: 4 n² d = 8 n d², so n = 2d."""
    _checks.count(d, "d")
    return 2 * d


def kv_cache_bytes(seq_len: int, n_layers: int, n_kv_heads: int, head_dim: int,
                   bytes_per_number: int = 2, window: int | None = None) -> int:
    """Bytes a serving engine keeps per sequence: one k and one v per token, layer and KV head.

    Args:
        seq_len: tokens in the sequence.
        n_layers, n_kv_heads, head_dim: the model's shape (config keys
            num_hidden_layers, num_key_value_heads, and width / num_attention_heads).
        bytes_per_number: 2 for fp16 / bf16.
        window: with a sliding window, only the last `window` tokens are kept; None keeps all.

    Returns:
        An int number of bytes.
    """
    _checks.counts(seq_len=seq_len, n_layers=n_layers, n_kv_heads=n_kv_heads,
                   head_dim=head_dim, bytes_per_number=bytes_per_number)
    if window is not None:
        _checks.count(window, "window")
    kept = seq_len if window is None else min(seq_len, window)
    # 2 (k and v) · tokens kept · layers · KV heads · head width · bytes
    return 2 * kept * n_layers * n_kv_heads * head_dim * bytes_per_number


def format_bytes(n_bytes: int) -> str:
    """An int number of bytes in binary units, as the page writes them: 32 MiB, 16 GiB, 1 TiB."""
    _checks.count(n_bytes, "n_bytes", low=0)
    for unit, power in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n_bytes >= 2**power:
            return f"{n_bytes / 2**power:g} {unit}"
    return f"{n_bytes} B"


# ---------------------------------------------------------------------------
# 1. The toy sentence, and queries, keys and values
# ---------------------------------------------------------------------------

# The two-number word vectors of lessons.notation (and lessons.positional), so the numbers agree.
TOY_WORDS: dict[str, tuple[float, ...]] = {word: tuple(x.tolist()) for word, x in zip(WORDS, X_WORDS, strict=True)}


def embed(sentence: str) -> np.ndarray:
    """The toy word vectors of `sentence` (words from dog, bites, man), shape (seq_len, 2)."""
    words = sentence.split()
    unknown = [w for w in words if w not in TOY_WORDS]
    if not words or unknown:
        raise ValueError(f"sentence must be words from {sorted(TOY_WORDS)}, got {sentence!r}")
    return np.array([TOY_WORDS[w] for w in words])


def scaled_dot_product_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray,
                                 mask: np.ndarray | None = None,
                                 bias: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """softmax(Q Kᵀ / √d + bias, with disallowed scores at -inf) @ V.

    Args:
        Q: (..., n_q, d) queries; K: (..., n_k, d) keys; V: (..., n_k, d_v)
            values. Leading axes (heads, batch) broadcast.
        mask: boolean, True where this query may attend this key,
            broadcastable to (..., n_q, n_k); every query needs at least one True.
        bias: added to the scores before the softmax, broadcastable to
            (..., n_q, n_k) (ALiBi uses it).

    Returns:
        out (..., n_q, d_v) and weights (..., n_q, n_k); each row of weights sums to 1.
    """
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    if Q.ndim < 2 or K.ndim < 2 or V.ndim < 2:
        raise ValueError(f"Q, K, V must be at least 2-D (..., seq, d); got shapes Q {Q.shape}, K {K.shape}, V {V.shape}")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"Q and K must share the last axis d; got shapes Q {Q.shape}, K {K.shape}")
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"K and V must have the same number of keys (axis -2); got shapes K {K.shape}, V {V.shape}")
    d = Q.shape[-1]
    # scores = Q Kᵀ / √d: (..., n_q, n_k)
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d)
    if bias is not None:
        bias = np.asarray(bias, dtype=float)
        _checks.broadcasts_to(bias.shape, scores.shape, "bias")
        scores = scores + bias
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise ValueError(f"mask must be a boolean array (True = allowed), got dtype {mask.dtype}")
        _checks.broadcasts_to(mask.shape, scores.shape, "mask")
        if not np.all(np.any(np.broadcast_to(mask, scores.shape), axis=-1)):
            raise ValueError("mask blocks every key for at least one query; each row of mask needs a True")
        # disallowed pairs get -inf, so e^(-inf) = 0 weight
        scores = np.where(mask, scores, -np.inf)
    # weights: each row sums to 1, (..., n_q, n_k)
    weights = softmax(scores, axis=-1)
    # out = weights @ V: (..., n_q, d_v)
    return weights @ V, weights


def self_attention(X: np.ndarray, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The toy layer of the page: q = k = v = the word vector, no projections.

    Args:
        X: (seq, d) word vectors, one per row.
        mask: boolean (seq, seq), True = allowed, or None for full attention.

    Returns:
        out (seq, d) and weights (seq, seq).
    """
    X = np.asarray(X, dtype=float)
    return scaled_dot_product_attention(X, X, X, mask=mask)


# ---------------------------------------------------------------------------
# 2. Why divide by √d
# ---------------------------------------------------------------------------


def score_spread(d: int, scaled: bool = False, n_samples: int = 4000, seed: int = 0) -> float:
    """Standard deviation of q·k (or q·k / √d) for random (d,) q and k with unit-variance entries.

    Each of the d products q_i k_i has variance 1, so their sum has variance d
    and spread √d; dividing by √d brings the spread back to about 1.
    """
    _checks.counts(d=d, n_samples=n_samples)
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, n_samples, d))  # each (n_samples, d)
    # q·k per sample
    dots = np.sum(q * k, axis=-1)
    return float(np.std(dots / np.sqrt(d) if scaled else dots))


def mean_top_weight(d: int, n_keys: int = 16, scaled: bool = True, n_trials: int = 400, seed: int = 0) -> float:
    """Average largest softmax weight when one random (d,) query meets n_keys random keys.

    Near 1/n_keys means attention spreads out; near 1 means it has collapsed
    onto one key (and its gradients vanish).
    """
    _checks.counts(d=d, n_keys=n_keys, n_trials=n_trials)
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n_trials, 1, d))  # (trials, 1, d)
    K = rng.standard_normal((n_trials, n_keys, d))  # (trials, n_keys, d)
    scores = (q @ np.swapaxes(K, -1, -2))[:, 0, :]  # (trials, n_keys)
    if scaled:
        scores = scores / np.sqrt(d)
    return float(softmax(scores).max(axis=-1).mean())


# ---------------------------------------------------------------------------
# 3. The causal mask
# ---------------------------------------------------------------------------


def causal_mask(n: int) -> np.ndarray:
    """(n, n) boolean: True where query i may attend key j, i.e. j <= i; n is the sequence length."""
    n = _checks.count(n, "n")
    # lower triangle including the diagonal
    return np.tril(np.ones((n, n), dtype=bool))


# ---------------------------------------------------------------------------
# 4. Multi-head attention: split, attend per head, merge
# ---------------------------------------------------------------------------


def split_heads(X: np.ndarray, n_heads: int) -> np.ndarray:
    """Cut the last axis into n_heads adjacent blocks and move the heads in front of seq.

    Args:
        X: (..., seq, d) array; d must be divisible by n_heads.
        n_heads: number of heads.

    Returns:
        (..., n_heads, seq, d // n_heads); head h holds columns h·dh .. (h+1)·dh - 1.
    """
    X = np.asarray(X)
    _checks.count(n_heads, "n_heads")
    if X.ndim < 2:
        raise ValueError(f"X must be at least 2-D (..., seq, d), got shape {X.shape}")
    *lead, seq, d = X.shape
    if d % n_heads:
        raise ValueError(f"d = {d} is not divisible by n_heads = {n_heads}; choose n_heads dividing d")
    # (..., seq, n_heads, dh) then move heads in front of seq
    return np.swapaxes(X.reshape(*lead, seq, n_heads, d // n_heads), -3, -2)


def merge_heads(X: np.ndarray) -> np.ndarray:
    """The inverse of split_heads: lay the heads side by side again.

    Args:
        X: (..., n_heads, seq, dh) array.

    Returns:
        (..., seq, n_heads · dh).
    """
    X = np.asarray(X)
    if X.ndim < 3:
        raise ValueError(f"X must be at least 3-D (..., n_heads, seq, dh), got shape {X.shape}")
    *lead, n_heads, seq, dh = X.shape
    # (..., seq, n_heads, dh) then lay the heads side by side
    return np.swapaxes(X, -3, -2).reshape(*lead, seq, n_heads * dh)


def multi_head_attention(X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, W_v: np.ndarray,
                         W_o: np.ndarray, n_heads: int,
                         mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """concat(head_1 .. head_H) W_oᵀ, where head h attends on the h-th slice of X W_qᵀ, X W_kᵀ, X W_vᵀ.

    Weights follow torch.nn.Linear and Hugging Face checkpoints: W has shape
    (d_out, d_in) and is applied as X @ W.T.

    Args:
        X: (seq, d) token vectors, one per row.
        W_q, W_k: (d_k, d); W_v: (d_v, d); W_o: (d_out, d_v). d_k and d_v
            must be divisible by n_heads.
        n_heads: number of heads; each scales its scores by √(d_k / n_heads).
        mask: boolean (seq, seq), True = allowed, shared by every head; or None.

    Returns:
        out (seq, d_out) and weights (n_heads, seq, seq).
    """
    X = _checks.matrix(X, "X")  # (seq, d)
    W_q, W_k, W_v, W_o = (np.asarray(W, dtype=float) for W in (W_q, W_k, W_v, W_o))
    d = X.shape[-1]
    for name, W in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)):
        if W.ndim != 2 or W.shape[1] != d:
            raise ValueError(f"{name} must have shape (width, d) with d = {d} from X {X.shape}, got {W.shape}")
    if W_q.shape[0] != W_k.shape[0]:
        raise ValueError(f"W_q and W_k must have the same width; got shapes W_q {W_q.shape}, W_k {W_k.shape}")
    if W_o.ndim != 2 or W_o.shape[1] != W_v.shape[0]:
        raise ValueError(f"W_o must have shape (d_out, d_v) with d_v = {W_v.shape[0]} from W_v {W_v.shape}, got {W_o.shape}")
    # project (X Wᵀ), then cut each into heads: (n_heads, seq, d_k // n_heads)
    Q, K, V = (split_heads(X @ W.T, n_heads) for W in (W_q, W_k, W_v))
    # every head attends on its own slice; mask (seq, seq) broadcasts over heads
    heads, weights = scaled_dot_product_attention(Q, K, V, mask=mask)
    # (n_heads, seq, dh) -> (seq, d_v), then mix the heads with W_o
    return merge_heads(heads) @ W_o.T, weights


def random_causal_layer(seq_len: int = 6, d: int = 8, n_heads: int = 2,
                        seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The untrained layer of the multi-head figure: seeded random X and weights, causal mask.

    Returns:
        out (seq_len, d) and weights (n_heads, seq_len, seq_len) of multi_head_attention.
    """
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((seq_len, d))  # (seq, d)
    # W_q, W_k, W_v, W_o, each (d, d), scaled so scores stay moderate; drawn as
    # (d_in, d_out) and stored transposed, (d_out, d_in), so the figure is unchanged
    Ws = [(rng.standard_normal((d, d)) / np.sqrt(d)).T for _ in range(4)]
    return multi_head_attention(X, *Ws, n_heads=n_heads, mask=causal_mask(seq_len))


# ---------------------------------------------------------------------------
# 5. Figures (rendered to docs/figures by the figure build)
# ---------------------------------------------------------------------------

_MASK_FIGURE_SIZE = 8  # the causal-mask figure's sequence length


def _annotated_grid(ax, values: np.ndarray, rows: list[str], cols: list[str], cmap: str, fmt: str = ".3f") -> object:
    im = ax.imshow(values, cmap=cmap, vmin=0, vmax=1)
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(rows)), rows)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            # the amount map is bright where the value is large: dark ink there, light ink on the dark cells
            ax.text(j, i, format(v, fmt), ha="center", va="center", color="black" if v > 0.6 else "white")
    return im


def figures() -> dict:
    """This lesson's figures, {name: Figure}. matplotlib is imported here only."""
    import matplotlib.pyplot as plt

    figs = {}
    words = "dog bites man".split()
    X = embed("dog bites man")

    # attention_weights: the toy sentence, full and causal
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.6), layout="constrained")
    for ax, (title, mask) in zip(axes, (("full attention", None), ("causal attention", causal_mask(3))), strict=True):
        _, w = self_attention(X, mask=mask)
        im = _annotated_grid(ax, w, words, words, COLOUR_MAPS["amount"])
        ax.set_title(title)
        ax.set_xlabel("key (attended word)")
    axes[0].set_ylabel("query (word being updated)")
    fig.colorbar(im, ax=axes, label="weight", shrink=0.8)
    figs["attention_weights"] = fig

    # sqrt_d_scaling: without 1/√d, wide heads collapse onto one key
    ds = [2, 4, 8, 16, 32, 64, 128, 256]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.plot(ds, [mean_top_weight(d, scaled=False) for d in ds], "o-", color=RED, label="raw scores q·k")
    ax.plot(ds, [mean_top_weight(d, scaled=True) for d in ds], "o-", color=BLUE, label="scaled scores q·k / √d")
    ax.axhline(1 / 16, color=MUTED, ls="--", label="even spread (1/16)")
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("head width d")
    ax.set_ylabel("average largest weight (16 keys)")
    ax.set_title("Dividing by √d stops softmax collapsing onto one key")
    ax.legend(frameon=False)
    figs["sqrt_d_scaling"] = fig

    # causal_mask: which keys each query may see
    n = _MASK_FIGURE_SIZE
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.imshow(causal_mask(n), cmap=COLOUR_MAPS["amount"], vmin=-0.3, vmax=1.3)
    for i in range(n):
        for j in range(n):
            ax.text(j, i, "✓" if j <= i else "·", ha="center", va="center",
                    color="white" if j <= i else MUTED)
    ax.set_xticks(range(n))
    ax.set_yticks(range(n))
    ax.set_xlabel("key position j")
    ax.set_ylabel("query position i")
    ax.set_title("Causal mask: query i may see keys j ≤ i")
    figs["causal_mask"] = fig

    # multi_head_weights: two heads of one random layer read the same sequence differently
    out_heads = random_causal_layer()[1]
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.6), layout="constrained")
    for h, ax in enumerate(axes):
        im = ax.imshow(out_heads[h], cmap=COLOUR_MAPS["amount"], vmin=0, vmax=1)
        ax.set_title(f"head {h}")
        ax.set_xlabel("key position")
        ax.set_xticks(range(out_heads.shape[-1]))
        ax.set_yticks(range(out_heads.shape[-2]))
    axes[0].set_ylabel("query position")
    fig.colorbar(im, ax=axes, label="weight", shrink=0.8)
    fig.suptitle("One causal layer, two heads, two different patterns")
    figs["multi_head_weights"] = fig

    # permutation: Attn(PX) is Attn(X) with its rows reordered
    P = permutation_matrix([2, 1, 0])
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.6), layout="constrained")
    for ax, (title, labels, M) in zip(axes, (("Attn(X): dog bites man", words, self_attention(X)[0]),
                                             ("Attn(PX): man bites dog", words[::-1], self_attention(P @ X)[0])), strict=True):
        _annotated_grid(ax, M, labels, ["out 1", "out 2"], COLOUR_MAPS["amount"])
        ax.set_title(title)
    axes[0].set_ylabel("output row (word)")
    figs["permutation"] = fig
    return figs


# ---------------------------------------------------------------------------
# 6. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    """The narrated walkthrough: costs, the toy sentence, √d, the mask, heads, and word order."""
    banner("1. What attention costs as the prompt grows")
    rows = [(n, f"{score_matrix_numbers(n):,}", format_bytes(score_matrix_bytes(n)),
             format_bytes(kv_cache_bytes(n, 32, 8, 128))) for n in (4096, 32768, 131072)]
    table(["seq_len", "scores per head", "fp16, one head", "KV cache (32 layers, 8 KV heads)"], rows)
    takeaway("Scores grow with the square of the length; the KV cache grows linearly.")

    banner("2. Queries, keys and values on 'dog bites man'")
    X = embed("dog bites man")
    out, w = self_attention(X)
    matrix("weights (rows: dog, bites, man)", w)
    matrix("outputs Attn(X)", out)
    say(f"""dog scores the keys 1, 0, 1; divided by sqrt(2) and softmaxed that is
        {w[0, 0]:.3f}, {w[0, 1]:.3f}, {w[0, 2]:.3f}, so dog's output is
        ({out[0, 0]:.3f}, {out[0, 1]:.3f}).""")

    banner("3. Why divide by sqrt(d)")
    table(["d", "spread of q.k", "spread of q.k/sqrt(d)", "top weight raw", "top weight scaled"],
          [(d, score_spread(d), score_spread(d, scaled=True), mean_top_weight(d, scaled=False),
            mean_top_weight(d)) for d in (4, 64, 256)])
    takeaway("Raw scores spread like sqrt(d); scaling keeps softmax from collapsing onto one key.")

    banner("4. The causal mask")
    print(causal_mask(3).astype(int))
    out_c, _ = self_attention(X, mask=causal_mask(3))
    matrix("outputs with the causal mask", out_c)

    banner("5. Multi-head: split and merge")
    X4 = np.arange(12.0).reshape(3, 4)
    say(f"X {X4.shape} -> split_heads(X, 2) {split_heads(X4, 2).shape} -> merge_heads {merge_heads(split_heads(X4, 2)).shape}")
    out_mh, w_mh = random_causal_layer()
    say(f"A random causal layer with d = 8 and 2 heads: out {out_mh.shape}, weights {w_mh.shape}.")

    banner("6. Permutation equivariance")
    P = permutation_matrix([2, 1, 0])
    out_p, _ = self_attention(P @ X)
    matrix("Attn(PX), PX = man bites dog", out_p)
    say(f"Attn(PX) equals P Attn(X): {np.allclose(out_p, P @ out)}. With the causal mask: "
        f"{np.allclose(self_attention(P @ X, causal_mask(3))[0], P @ out_c)}.")
    takeaway("Without positions, shuffling the words only shuffles the outputs; dog's vector is the same wherever it stands.")


if __name__ == "__main__":
    demo()
