r"""
# Positions as a distance penalty, and no positions at all: ALiBi and NoPE

Run it: `python -m lessons.alibi` (a narrated walkthrough in the terminal).
Builds on `lessons.attention` (scores, the causal mask and the bias argument)
and `lessons.positional` (why attention needs positions at all); the next
lesson, `lessons.transformer`, plugs both schemes into a small decoder.

## Level 1: the practitioner's guide

**In one sentence.** ALiBi gives a transformer no position vectors at all and
instead subtracts from every attention score a penalty proportional to how far
back the key is, with a different steepness per head; NoPE goes further and
adds nothing, leaving a decoder to infer order from its causal mask alone.

**When you need it.** When you pick or serve a model whose architecture uses
one of these schemes (BLOOM and MPT use ALiBi), or when you read claims that a
model "extrapolates" beyond its training length. The practical symptoms
differ from RoPE's: an ALiBi model declines more slowly past its training
length, but every head prefers nearby tokens by construction, and on the
small trained models of `lessons.measured` it still lost the task as the
prompt grew, with the fact near or far alike. NoPE meets you in Llama 4 and SmolLM3,
which leave RoPE out of every fourth layer: code that reads their
`no_rope_layers` the wrong way round rotates q and k in exactly the layers
that were trained without it.

**Your options.**

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| RoPE | Turns q and k by position (`lessons.rope`) | Relative positions and strong quality; the common choice | Needs scaling to read past the trained length (`lessons.context_extension`) | `rope_theta`, `rope_parameters` |
| ALiBi | Subtracts a slope times the distance from each score, one slope per head | No position parameters; graceful behaviour past the trained length | A built-in preference for recent tokens in every head | The architecture (BLOOM, MPT); MPT's `alibi_bias_max` |
| NoPE | Adds nothing; the causal mask is the only source of order | Nothing to stretch or tune | Weak order information on its own | The architecture |
| RoPE with NoPE layers | RoPE in most layers, nothing in every fourth | Layers with no angle that can leave its trained range; the SmolLM3 blog post (*Architecture and training details*) reports better long-context results with no loss at short lengths | A per-layer list that must be read the right way round | Llama 4, SmolLM3: `no_rope_layers`, `no_rope_layer_interval` |
| Sliding window | Lets each token see only the most recent tokens, up to a fixed window | Bounded cache whatever the length | Forgets beyond the window | `sliding_window` |

**How to choose.**

- Serving an existing model: nothing to choose, the scheme is in the
  weights. For an ALiBi model you may raise the length limit, but test
  whether your task needs distant tokens; the bias will discount them.
- Training a model that must read longer inputs than it was trained on, with
  no fine-tuning step: ALiBi is the simplest scheme with that property.
- Training for the best quality at a known length with later extension
  possible: RoPE and a scaling recipe from `lessons.context_extension`.
- Research on what position information a decoder really needs: NoPE is the
  baseline to beat.

**What it costs.** ALiBi has no parameters: the bias is computed from
one slope per head and the distances, and adds one addition per score.
For 8 heads the slopes are 1/2, 1/4, ..., 1/256; the steepest head halves a
key's weight every 1.4 tokens, the gentlest every 177. The ALiBi paper reports
that a 1.3B-parameter model trained on 1,024 tokens and tested on 2,048 matches
the perplexity of a sinusoidal model trained on 2,048, while training 11%
faster and using 11% less memory (Press et al., 2021). NoPE costs nothing at
all.

**What breaks.**

- **Expecting long-range recall.** ALiBi extrapolates in perplexity, which
  mostly rewards recent context; the steep heads barely see tokens a few
  hundred positions back. Test retrieval from the start of a long prompt.
- **Wrong slopes for the head count.** Head counts that are not a power of
  two (BLOOM's 112, a 12-head model) use a special rule; an implementation
  that extends the geometric sequence instead gets different slopes than the
  model was trained with.
- **Forgetting the mask.** The bias is only defined for keys at or before the
  query; without the causal mask the "future" keys get a bonus instead of a
  penalty.
- **Reading `no_rope_layers` backwards.** In transformers an entry of 1
  means the layer *uses* RoPE and 0 means NoPE; an empty list means "every
  fourth layer is NoPE" in Llama 4's code, while SmolLM3's code fills in
  only a missing key. Use `nope_layers` to list the NoPE layers a config gives.
- **Assuming NoPE is order-blind.** A decoder with no positions is not a bag
  of words: the causal mask already makes "dog bites man" and "man bites dog"
  different. An encoder with no positions and no mask is order-blind.

![Attention weight against how many steps back a key is, for three ALiBi heads with equal content scores, on a log scale: three straight lines, the steep head's weight gone within a few steps, the gentle head's spread over hundreds](figures/alibi.recency.svg)

**Reading it:** each line is one head, with every key equally relevant, so
only ALiBi's distance penalty sets the weights. The weight falls steadily
with distance, fast for the steep head and slowly for the gentle one, and
every head prefers recent tokens. That is the price behind *Expecting
long-range recall* (below): an ALiBi model accepts longer inputs than it was
trained on, yet a fact far back has to win against this slope. Test your
task at the length you serve before you raise the limit.

**In the wild.** BLOOM (176B) and MPT use ALiBi; MPT's config carries an
`alibi_bias_max` of 8 (the 8 in the slopes' rule: with n heads, the first
slope is 2 raised to minus 8/n), and the Hugging Face
implementations of both compute the same slopes as this lesson's
`alibi_slopes` (the tests check 1 to 64 heads). Falcon's code supports ALiBi
as an option. Most current open models (Llama, Mistral, Qwen) chose RoPE
instead. NoPE was studied by Kazemnejad et al. (2023), who found that
decoder-only models without positions generalised to longer inputs better
than ones with explicit encodings in their experiments (a 2-layer model in
`lessons.measured` did not learn its task without positions within its
training budget). Llama 4 and SmolLM3
mix it with RoPE, layer by layer, through `no_rope_layers` (transformers
configuration_llama4.py and configuration_smollm3.py build the list;
modeling_llama4.py and modeling_smollm3.py skip the rotation where it is 0).
meta-llama/Llama-4-Scout-17B-16E config.json leaves the list empty, which
Llama 4's code fills with every fourth layer: 12 NoPE layers of 48, which
are also its only layers that attend over the whole context (the RoPE layers
attend within chunks of `attention_chunk_size` tokens, by the layer types
that configuration_llama4.py builds). HuggingFaceTB/SmolLM3-3B config.json
spells the list out: 9 NoPE layers of 36.

**Go deeper.** Level 2 builds the slopes and the bias matrix, shows why the
bias extends to any length and what the recency preference looks like in
numbers, and then removes positions altogether to show what the causal mask
alone tells a decoder; it ends with T5's bucketed bias and the relative
biases proposed since, and counts which schemes the gallery's models ship.
`lessons.transformer` then runs ALiBi and NoPE inside a whole model. If you only needed to know what these schemes are and how they behave
when served, you can stop here.

## Level 2: how it works, from scratch

## ALiBi's bias: a penalty that grows with distance

**Everyday picture.** A rumour loses credibility with every person it passes
through. Some listeners are sceptical and discount a story heavily after one
retelling; others are trusting and still believe it after a hundred. ALiBi
gives each attention head its own level of scepticism.

**Tiny worked example.** Two heads with slopes 1/16 and 1/256 (what ALiBi
gives 2 heads), four tokens. Query 3 looks back at keys 3, 2, 1 and 0, which
are 0, 1, 2 and 3 steps away. Head 1 subtracts 0, 0.0625, 0.125 and 0.1875
from the scores; head 2 subtracts 0, 0.0039, 0.0078 and 0.0117. Keys after the
query get $-\infty$: the causal mask.

```mermaid
flowchart TB
  Q["query $$i$$, key $$j$$"] --> S["content score<br/>$$q \cdot k / \sqrt{d}$$"]
  Q --> D["distance $$i - j$$"]
  D --> B["bias $$-m_h\,(i - j)$$<br/>($$-\infty$$ if $$j \gt i$$)"]
  S --> P["score + bias"]
  B --> P
  P --> SM["softmax over keys"]
  SM --> O["weighted sum of values"]
```

**Reading it:** content and position travel separately and meet only at the
plus sign, right before the softmax. Nothing is added to the token vectors,
so there is no position table to run out of; the distance is just a number
computed on the fly.

**The math.**

$$
\text{score}_h(i, j) = \frac{q_i \cdot k_j}{\sqrt{d}} - m_h \, (i - j), \qquad m_h = 2^{-8h/n} \quad (h = 1, \dots, n)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $i$, $j$ | query and key positions, $j \le i$ | $i$ = 3, $j$ = 0 to 3 |
| $m_h$ | the slope of head $h$ | 1/16 and 1/256 |
| $n$ | number of heads, `n_heads` (a power of two here) | 2 |
| $q_i \cdot k_j / \sqrt{d}$ | the content score of `lessons.attention` | any |

**In words:** "each head takes its usual score and subtracts its own slope
times how many steps back the key is; the slopes form a geometric sequence
from $2^{-8/n}$ down to $2^{-8}$."

**With the numbers:** for $n$ = 8 the first slope is $2^{-8/8} = 1/2$ and each
next one halves: 1/2, 1/4, ..., 1/256. For 12 heads (not a power of two) the
authors' reference code (the paper trains only powers of two) takes the 8
slopes of 8 heads and adds every other slope of the 16-head sequence, $2^{-0.5}, 2^{-1.5}, 2^{-2.5}, 2^{-3.5}$ = 0.707, 0.354,
0.177 and 0.088.

**In Python:**

```python
from lessons.alibi import alibi_slopes, alibi_bias
[float(m) for m in alibi_slopes(2)]  # → [0.0625, 0.00390625]
[float(m) for m in alibi_slopes(8)]
# → [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]
[round(float(m), 3) for m in alibi_slopes(12)[8:]]
# → [0.707, 0.354, 0.177, 0.088]
bias = alibi_bias(2, 4)  # (heads, queries, keys)
bias.shape  # → (2, 4, 4)
[float(b) for b in bias[0, 3]]  # → [-0.1875, -0.125, -0.0625, 0.0]
[round(float(b), 4) for b in bias[1, 3]]  # → [-0.0117, -0.0078, -0.0039, 0.0]
float(bias[0, 0, 1])  # → -inf
```

![The ALiBi bias matrix for four of eight heads over twelve positions: zero on the diagonal, growing more negative further below it, steeply for head 1 and barely for head 8, and masked above the diagonal](figures/alibi.bias_matrices.svg)

**Reading it:** each panel is one head; rows are queries, columns keys. The
diagonal is 0 (a token is never penalised for looking at itself), each step
left of it adds the head's slope to the penalty, and the white upper triangle
is the causal mask. Head 1 (slope 1/2) is dark a few steps from the diagonal;
head 8 (slope 1/256) is almost uniform over the whole window.

![ALiBi's slopes for 8, 12 and 16 heads on a log scale: powers of two from 1/2 down to 1/256 for 8 heads, the same eight plus four in-between values for 12, and halving steps of the square root of two for 16](figures/alibi.slopes.svg)

**Reading it:** each marker is one head's slope, on a log scale so a
geometric sequence is a straight line. Eight heads halve at every step; 16
heads take half steps. The 12-head rule is visible: the first eight slopes
are the 8-head line and the last four fill in between, from the 16-head line.

**In code:** `alibi_slopes` implements the paper's slopes and, for head
counts that are not a power of two, the authors' reference code's rule; `alibi_bias` builds the (heads, queries,
keys) array with the causal mask, which `scaled_dot_product_attention` takes
as its `bias` argument.

**Why it matters.** Every number here is fixed before training, the same for
any length and any input; the model learns to work with the penalty rather
than learning positions.

## Why it extrapolates, and the price: a preference for recent tokens

**Everyday picture.** A ruler that only has marks for "how far back", never
"which seat". You can measure the same distances in a hall of any size; but a
listener who discounts every step back will pay little attention to the far
end of a big hall.

**Tiny worked example.** Suppose every content score is equal, so only the
bias decides. With slope 1/2, a query's weights over the last four keys are
proportional to $e^{-1.5}, e^{-1}, e^{-0.5}, e^{0}$: 0.102, 0.167, 0.276 and
0.455. Each step back multiplies the weight by $e^{-1/2} = 0.607$.

```mermaid
flowchart TD
  T["trained on $$n$$ = 1,024"] --> B["bias for $$n$$: $$-m\,(i - j)$$"]
  B --> X["same formula<br/>at $$n$$ = 2,048"]
  X --> K["top-left 1,024 × 1,024<br/>block is exactly<br/>the trained bias"]
  X --> R["far keys: larger<br/>penalty, smaller weight"]
```

**Reading it:** nothing in the bias depends on the training length, so a
longer input gets a larger matrix whose every entry follows the same rule,
and the part the model trained on is reproduced exactly. The right branch is
the price: the new, far-away entries are penalties the model has never
needed to overcome.

**The math.**

$$
w_k \propto e^{-m\,k}, \qquad \frac{w_{k+1}}{w_k} = e^{-m}, \qquad k_{1/2} = \frac{\ln 2}{m}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $k$ | how many steps back a key is | 0 to 3 |
| $w_k$ | attention weight of that key, equal content scores | 0.455 for $k$ = 0 |
| $m$ | the head's slope | 1/2 |
| $k_{1/2}$ | steps back at which the weight halves | 1.39 |

**In words:** "with nothing else to go on, a head's weights fall off
exponentially with distance, halving every $\ln 2 / m$ steps."

**With the numbers:** slope 1/2 halves every $0.693 / 0.5 = 1.39$ steps;
slope 1/256 every 177 steps. Over 1,024 keys, the gentlest head still gives
the nearest key 54 times the weight of the farthest.

**In Python:**

```python
from lessons.alibi import alibi_bias, recency_weights, half_weight_distance
import numpy as np
w = recency_weights(0.5, 4)
[round(float(x), 3) for x in w]  # → [0.102, 0.167, 0.276, 0.455]
round(float(w[0] / w[1]), 3)  # → 0.607
round(half_weight_distance(1.0), 3)  # → 0.693
round(half_weight_distance(0.5), 2), round(half_weight_distance(0.5), 1)
# → (1.39, 1.4)
round(half_weight_distance(1 / 256))  # → 177
w = recency_weights(1 / 256, 1024)
round(float(w[-1] / w[0]))  # → 54
# extending the length keeps the trained block exactly
bool(np.array_equal(alibi_bias(8, 2048)[:, :1024, :1024], alibi_bias(8, 1024)))
# → True
```

![Attention weight against steps back for slopes 1/2, 1/16 and 1/256 with equal content scores, on a log scale: three straight lines falling at different rates](figures/alibi.recency.svg)

**Reading it:** with equal content scores, each head's weights are a straight
line on the log scale, falling at its own slope. The steep head attends
almost only to the last few tokens; the gentle head spreads its weight over
hundreds. Content scores can override the bias, but they start from here.

**In code:** `recency_weights` computes the weights from the bias alone;
`half_weight_distance` gives $\ln 2 / m$.

**Why it matters.** This is both ALiBi's strength and its limit: it never
meets an unfamiliar position, but it is built to favour recent context, which
is why its good perplexity at longer lengths need not mean good use of the
whole prompt.

## Only distances reach the scores: shifts, any length and the cache

**Everyday picture.** A conversation recorded on tape: whether you play it
from the start of the tape or from minute 100, the people in it hear the same
words the same number of seconds apart, and answer the same way.

**Tiny worked example.** Four heads (slopes 1/4, 1/16, 1/64 and 1/256) and
four tokens with the same queries, keys and values. Place them at positions 0
to 3, and again at positions 100 to 103: the bias is the same matrix, because
only the distances 0 to 3 enter it, so the attention outputs are identical.
Nothing in the bias depends on a maximum length, so it exists for any
number of tokens. And when a model decodes one token at a time with a KV
cache, the new token at position 9 needs only one row of the bias: $-m_h$
times its distance to each cached key 0 to 9, which is row 9 of the full
10-token bias.

```mermaid
flowchart TB
  T["$$q, k, v$$ at positions<br/>$$p, p+1, \dots$$<br/>(no position added)"] --> S["content scores<br/>$$q \cdot k / \sqrt{d}$$"]
  P["positions $$i, j$$"] --> D["distance $$i - j$$"]
  ST["start position $$p$$"] -.->|"cancels in $$i - j$$"| D
  D --> B["bias $$-m_h\,(i - j)$$"]
  S --> A["scores + bias<br/>→ softmax → output"]
  B --> A
```

**Reading it:** the dashed arrow is the point: the absolute start position
cancels before it reaches anything. The vectors carry no position, and the
bias only uses $i - j$, which is the same wherever the sequence starts.

**The math.**

$$
\text{bias}_h(p + i, p + j) = -m_h \,\big((p + i) - (p + j)\big) = -m_h\,(i - j)
$$

with $p$ the start position (0 or 100 in the example) and $i$, $j$ the
offsets of query and key inside the sequence.

**In Python:**

```python
import numpy as np
from lessons.alibi import alibi_slopes, alibi_bias, alibi_bias_at
from lessons.attention import scaled_dot_product_attention
[float(m) for m in alibi_slopes(4)]  # → [0.25, 0.0625, 0.015625, 0.00390625]
(
    float(alibi_bias_at(4, [103], [101])[0, 0, 0]),
    float(alibi_bias_at(4, [3], [1])[0, 0, 0]),
)
# → (-0.5, -0.5)
Q, K, V = np.random.default_rng(0).standard_normal(
    (3, 4, 4, 8)
)  # (heads, seq, d) each
positions = np.arange(4)
out_0, _ = scaled_dot_product_attention(
    Q, K, V, bias=alibi_bias_at(4, positions, positions)
)
out_100, _ = scaled_dot_product_attention(
    Q, K, V, bias=alibi_bias_at(4, 100 + positions, 100 + positions)
)
float(np.max(np.abs(out_100 - out_0)))  # → 0.0
# a cached step: one query at position 9 against keys 0..9 is row 9 of the
# full bias
bool(
    np.array_equal(
        alibi_bias_at(4, [9], np.arange(10))[:, 0], alibi_bias(4, 10)[:, 9]
    )
)
# → True
```

**In code:** `alibi_bias_at` builds the bias for any query and key positions
(a whole sequence, or one new query against every cached key), and
`alibi_bias` is its square case for positions 0 to $n - 1$.
`lessons.transformer` runs it inside a whole decoder: shifted, cached and
past the length where a learned table stops.

**Why it matters.** This is ALiBi's extrapolation in one line: no table to
run out of, no angle that leaves a trained band. What changes at longer
lengths is only how many far-away keys compete, each with a larger penalty.

## NoPE: no positions at all, and what the causal mask still tells

**Everyday picture.** Guests arriving at a party one by one, each allowed to
look only at the people already in the room. Nobody wears a number, yet the
first guest sees an empty room, the second sees one person, and anyone can
tell roughly how early they came by how crowded it was.

**Tiny worked example.** Give every score the same value and let only the
first token carry a value of 1 (all others 0). Token $i$ averages over the
$i + 1$ tokens it may see, so it outputs $1/(i+1)$: 1, 0.5, 0.333, 0.25, 0.2
for positions 0 to 4. The mask alone has produced a number that names each
position.

```mermaid
flowchart TD
  X["tokens, no positions"] --> M{"causal<br/>mask?"}
  M -->|"no"| S["outputs only reshuffle:<br/>order-blind<br/>(bag of words)"]
  M -->|"yes"| P["token $$i$$ sees<br/>$$i + 1$$ tokens"]
  P --> C["counts and prefix contents<br/>differ by position"]
  C --> O["order leaks in, weakly"]
```

**Reading it:** the only difference between the two branches is the mask.
Without it, a layer with no positions is permutation-equivariant (as
`lessons.positional` shows): shuffle the input and the outputs shuffle the
same way. With it, each token's view depends on which tokens came before it,
which is exactly order information.

**The math.**

$$
o_i = \frac{1}{i + 1} \sum_{j \le i} v_j, \qquad v_0 = 1,\ v_{j>0} = 0 \ \Rightarrow\ o_i = \frac{1}{i + 1}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $o_i$ | output of position $i$ with equal attention scores | 1, 0.5, 0.333, ... |
| $v_j$ | value of token $j$: 1 for the first, 0 for the rest | |
| $j \le i$ | the causal mask: keys at or before the query | |

**In words:** "with equal scores, a causal layer averages over everything so
far; averaging a marker that only the first token carries gives one over the
number of tokens seen."

**With the numbers:** position 3 sees 4 tokens, so $o_3 = 1/4 = 0.25$.
Kazemnejad et al. (2023) prove more generally that a decoder with no
positions can represent both absolute and relative position this way.

**In Python:**

```python
from lessons.alibi import (
    mask_position_signal,
    unmasked_order_gap,
    nope_position_gaps,
)
[round(float(x), 3) for x in mask_position_signal(5)]
# → [1.0, 0.5, 0.333, 0.25, 0.2]
# no positions and no mask: the orders give the same outputs, reshuffled
unmasked_order_gap([3, 5, 7, 9], [5, 3, 7, 9]) < 1e-12  # → True
# causal attention layers with no positions, 1 layer: swap the first two tokens
gaps = nope_position_gaps([3, 5, 7, 9, 11], [5, 3, 7, 9, 11], n_layers=1)
[bool(g > 1e-9) for g in gaps]  # → [True, True, False, False, False]
# 2 layers: later positions read hidden states the mask made different
[
    bool(g > 1e-9)
    for g in nope_position_gaps([3, 5, 7, 9, 11], [5, 3, 7, 9, 11], n_layers=2)
]
# → [True, True, True, True, True]
# NoPE layers from a config's no_rope_layers (1 = RoPE, 0 = NoPE), as
# transformers reads it
from lessons.alibi import nope_layers
nope_layers(8, [1, 1, 1, 0, 1, 1, 1, 0])  # → [3, 7]
# Llama 4 Scout: 48 layers, an empty list; SmolLM3-3B: 36 layers, the list
# spelled out
(
    len(nope_layers(48, [])),
    len(nope_layers(36, [1, 1, 1, 0] * 9, fill_empty=False)),
)
# → (12, 9)
```

![Two panels, one above the other. Top: the output 1/(i+1) of a causal layer with equal scores falls from 1 at position 0 to 0.1 at position 9. Bottom: for causal attention layers with no positions, swapping the first two tokens changes the outputs at positions 0 and 1 only with one layer, and at every position with two layers](figures/alibi.nope_orders.svg)

**Reading it:** top, the position signal the mask creates with no help at
all. Bottom, the largest output difference at each position between "3 5 7
9 11" and "5 3 7 9 11". With one layer (blue) positions 2, 3 and 4 hold the same
token and see the same set of tokens in both orders, and give identical
outputs; positions 0 and 1 hold different tokens. Order changes an output
only where it changes what the mask lets a token see. With two layers (vermillion)
the difference spreads to every later position, because those positions read
the first layer's outputs at positions 0 and 1, which the mask made different.

**In code:** `mask_position_signal` is the counting trick;
`unmasked_order_gap` runs attention with no positions and no mask;
`nope_position_gaps` runs one or more causal attention layers (from
`lessons.attention`'s `multi_head_attention`, with a residual) on two word
orders and compares them position by position; `nope_layers` lists the
layers a config leaves without RoPE. `lessons.transformer` runs a whole
decoder with `position="none"`.

**Why it matters.** A decoder is never fully order-blind, so "no position
encoding" is a real design point, and Kazemnejad et al. (2023) found it
generalised to longer inputs better than explicit encodings in their
experiments. But the signal is indirect: in one layer, two orders that give
the same prefixes are indistinguishable. The production models that use NoPE
keep RoPE in most layers: Llama 4 and SmolLM3 leave it out of every fourth.

## T5's buckets, and the relative biases after ALiBi

**Everyday picture.** A sat-nav that says "in 50 metres", "in 100 metres",
"in 200 metres", then just "ahead": fine distinctions close by, coarse ones
further off, and one label for everything far away. T5 turns distances into
such labels and learns one bias per label and head.

**Tiny worked example.** T5's defaults are 32 buckets and a largest distance
of 128. In a decoder (causal) a key $d$ steps back lands in bucket $d$ for
$d$ = 0 to 15: one bucket per distance. From 16 on the buckets widen
logarithmically: 16, 17 and 18 share bucket 16, distance 50 is in bucket 24,
100 in bucket 30, and every distance from 113 on, 128 and a million alike,
is in bucket 31. In an encoder (bidirectional) the 32 buckets split in two
halves of 16: a key 3 steps before the query is in bucket 3, one 3 steps
after in bucket 19, and anything 200 away in bucket 15 or 31. Each head learns
one number per bucket, added to the score like ALiBi's penalty.

**The math.** For a distance $d$ (in a decoder, $d = i - j$ for a key at or
before the query; keys after count as 0), with $B$ buckets per direction and
largest distance $D$:

$$
\text{bucket}(d) = \begin{cases} d & d < B/2 \\
\min\!\Big(B - 1,\ \tfrac{B}{2} + \Big\lfloor \dfrac{\ln(2d / B)}{\ln(2D / B)} \cdot \dfrac{B}{2} \Big\rfloor\Big) & d \ge B/2 \end{cases}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $d$ | how far the key is from the query | 50 |
| $B$ | buckets per direction: `relative_attention_num_buckets`, halved in an encoder | 32 (decoder), 16 (encoder) |
| $D$ | `relative_attention_max_distance`: from here on, one bucket | 128 |

**In words:** "close distances get a bucket each; further ones share
buckets that double in width at a steady rate; everything past the largest
distance shares the last."

**With the numbers:** $16 + \lfloor \ln(50/16) / \ln(128/16) \cdot 16 \rfloor =
16 + \lfloor 8.77 \rfloor$ = 24.

**In Python:**

```python
import numpy as np
from lessons.alibi import t5_relative_bucket, gallery_schemes
distance = np.array([0, 15, 16, 18, 50, 100, 112, 113, 128, 10**6])
t5_relative_bucket(-distance, bidirectional=False).tolist()
# → [0, 15, 16, 16, 24, 30, 30, 31, 31, 31]
# key − query: negative = before the query, positive = after
t5_relative_bucket(np.array([-3, 3, -200, 200])).tolist()
# → [3, 19, 15, 31]
# an encoder's half has 8 exact buckets
t5_relative_bucket(-np.arange(10)).tolist()  # → [0, 1, 2, 3, 4, 5, 6, 7, 8, 8]
round(float(np.log(50 / 16) / np.log(128 / 16) * 16), 2)  # → 8.77
# the 24 decoders of the model-card gallery, by position scheme
gallery_schemes()  # → {'ALiBi': 2, 'RoPE': 21, 'learned table': 1}
gallery_schemes().get("T5 buckets", 0)  # → 0
```

![Two panels of T5's bucket against distance. Top, a decoder: one bucket per distance up to 15, then wider and wider steps up to bucket 31, which every distance from 113 on shares. Bottom, an encoder: the same shape mirrored, buckets 0 to 15 for keys before the query and 16 to 31 for keys after](figures/alibi.t5_buckets.svg)

**Reading it:** top, each step is one bucket; the steps widen with distance
and stop at bucket 31, from which no distance ever leaves, so a longer input
meets no new bucket. Bottom, an encoder spends half its buckets on each side
of the query and so has only 8 exact ones per side.

**In code:** `t5_relative_bucket` matches T5Attention._relative_position_bucket
in transformers 5.24.0 (models/t5/modeling_t5.py) on every relative position
from −300 to 300, in both modes, for 32 buckets up to 128 and 16 up to 64
(tests/test_alibi.py, with vectors in tests/data/attention_sinks_vectors.json);
in that code only the first layer of each stack owns the bias table (T5Stack
builds its blocks with has_relative_attention_bias true for layer 0 only) and
the others reuse it. `position_scheme_of` reads a config's scheme from its
keys and `gallery_schemes` counts them over the gallery; the tests check both
against what each model's own transformers classes compute.

**Why it matters.** Like ALiBi, T5's bias has no table to run out of, but it
stops distinguishing distances beyond 128: the Raffel et al. paper notes a
layer is blind to offsets past that, and that later layers can combine local
information to reach further (§2.1). Later schemes learn or shape the bias
differently (each claim below is its paper's abstract):

- **Kerple** (Chi et al., 2022, [arXiv:2205.09921](https://arxiv.org/abs/2205.09921))
  generalises ALiBi's straight-line penalty to a learned kernel of the
  distance per head, such as a logarithmic one; reported by its authors to
  extrapolate well on three language-modelling datasets.
- **FIRE** (Li et al., 2023, [arXiv:2310.04418](https://arxiv.org/abs/2310.04418))
  learns the bias as a small network $f_\theta$ of
  $\psi(i - j) / \psi(\max(L, i))$, where $\psi(x) = \log(cx + 1)$ with a learned
  $c$ and $L$ is a learned threshold (§3.2–3.3): a log-compressed distance
  divided by the log of the query's position, or of $L$ while the query is
  short, so the input stays in $[0, 1]$ at any length; reported to generalise
  to longer contexts better than the other schemes it tested, and shown to be
  able to represent T5's bias, ALiBi and Kerple.
- **xPos** (Sun et al., 2022, [arXiv:2212.10554](https://arxiv.org/abs/2212.10554))
  keeps RoPE's rotation and adds a per-pair exponential scale to q and k, so
  scores decay with distance; reported to improve extrapolation, together
  with blockwise causal attention at inference.
- **CoPE** (Golovneva et al., 2024, [arXiv:2405.18719](https://arxiv.org/abs/2405.18719))
  counts position with a gate per key computed from q and k, so a head can
  count words or sentences instead of tokens; reported to solve counting and
  selective-copy tasks where token positions fail.

What shipped: of the 24 decoders in the model-card gallery, 21 use RoPE in
at least one layer, 2 ALiBi and 1 a learned table; none uses T5's buckets.
The count reads each config's keys (`position_scheme_of`: a key that names
rope or rotary means RoPE), so a hybrid counts as RoPE; which of them also
have layers with no position code, `lessons.layer_schemes` counts layer by
layer (`gallery_rope_layers`). In transformers 5.24.0
nine configuration classes define `relative_attention_num_buckets` (T5, mT5,
UMT5, LongT5, Switch Transformers, UDOP, Pix2Struct, Pop2Piano, MPNet), all
encoder–decoder or encoder models, and a search of its source finds none of
Kerple, FIRE, xPos or CoPE by name. Why the big open decoders chose RoPE
over these, no source this site has read states; the count is what we can
show.

## In 20 seconds

- ALiBi adds $-m_h \cdot (i - j)$ to each score: no position vectors, one
  geometric slope per head, with a special rule for head counts that are not
  a power of two.
- The bias depends only on distance, so it exists for any length and ignores
  where a sequence starts; that is why ALiBi extrapolates.
- The price is a built-in recency preference: the steepest of 8 heads halves
  a key's weight every 1.4 tokens.
- NoPE adds nothing; a decoder still learns order from the causal mask, which
  can even count positions, but only through what each prefix contains.
  Llama 4 and SmolLM3 use it in every fourth layer (`no_rope_layers`).
- T5 learns one bias per head for each of 32 distance buckets, exact up to
  15 and shared from 113 on; of the relative biases proposed since (Kerple,
  FIRE, xPos, CoPE), none is in the gallery's 24 decoders, 21 of which use
  RoPE in at least one layer.

## Self-test questions

??? question "What are the ALiBi slopes for 4 heads?"
    $2^{-8/4} = 1/4$, then 1/16, 1/64 and 1/256: start at $2^{-8/n}$ and
    multiply by the same number each head.

??? question "Why does a 12-head ALiBi model not use 2^(-8/12) as its first slope?"
    The authors' reference code (the paper itself trains only powers of two)
    takes the 8 slopes of 8 heads and adds the first 4 of every other slope of
    16 heads (0.707, 0.354, 0.177, 0.088); BLOOM and MPT in `transformers` do
    the same. See `papers.press2021_alibi`.

??? question "Why does an ALiBi model give the same outputs when the whole sequence is shifted to start at position 100?"
    Nothing in it uses absolute positions: the embeddings have no position
    added and the bias uses only $i - j$, which the shift leaves unchanged.

??? question "With equal content scores and slope 1/2, by how much does each step back cut a key's weight?"
    By a factor of $e^{-1/2} \approx 0.607$; the weight halves every
    $\ln 2 / 0.5 \approx 1.39$ steps.

??? question "A config with 8 layers has no_rope_layers [1, 1, 1, 0, 1, 1, 1, 0]. Which layers rotate q and k?"
    Layers 0, 1, 2, 4, 5 and 6: in transformers 1 means the layer uses RoPE
    and 0 means it is a NoPE layer, so layers 3 and 7 skip the rotation.

??? question "A one-layer decoder with no positions reads '3 5 7' and '5 3 7'. Which outputs can differ?"
    Only the first two: position 2 holds the same token and sees the same
    three tokens in both orders, and with no positions attention cannot tell
    in which order they came.

## The papers behind this lesson

- Press, Smith and Lewis (2021), *Train Short, Test Long: Attention with
  Linear Biases Enables Input Length Extrapolation*,
  [arXiv:2108.12409](https://arxiv.org/abs/2108.12409) (companion: `papers.press2021_alibi`). Introduced ALiBi and
  its slopes, and showed extrapolation to longer inputs than trained on.
- Kazemnejad et al. (2023), *The Impact of Positional Encoding on Length
  Generalization in Transformers*,
  [arXiv:2305.19466](https://arxiv.org/abs/2305.19466) (companion: `papers.kazemnejad2023_nope`). Studied decoders with
  no position encoding (NoPE), proved they can represent absolute and
  relative positions, and found they generalise to longer inputs well.
- Raffel et al. (2019), *Exploring the Limits of Transfer Learning with a
  Unified Text-to-Text Transformer*,
  [arXiv:1910.10683](https://arxiv.org/abs/1910.10683). T5, with its
  bucketed relative position bias (§2.1).
- Yang et al. (2025), *Rope to Nope and Back Again: A New Hybrid Attention
  Strategy*, [arXiv:2501.18795](https://arxiv.org/abs/2501.18795). Interleaves local
  RoPE layers with global NoPE layers; the SmolLM3 blog post cites it for
  its NoPE layers.

## Further reading

- The ALiBi authors' reference code (the attention_with_linear_biases
  repository on GitHub), whose slope rule BLOOM's and MPT's Hugging Face implementations
  reproduce.
- `lessons.positional` for the bag-of-words problem, `lessons.context_extension`
  for stretching RoPE instead.
"""

from __future__ import annotations

import json
import math

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, RED
from lessons._show import banner, gap_text, matrix, say, table, takeaway
from lessons.attention import causal_mask, multi_head_attention, scaled_dot_product_attention
from lessons.notation import softmax
from lessons.tools.model_types import gallery

# ---------------------------------------------------------------------------
# 1. ALiBi's slopes: one geometric sequence per head count
# ---------------------------------------------------------------------------


def _power_of_two_slopes(n: int) -> list[float]:
    # m_h = (2^(-8/n))^h for h = 1..n: starts at 2^(-8/n), ends at 2^-8
    start = 2.0 ** (-8.0 / n)
    return [start ** h for h in range(1, n + 1)]


def alibi_slopes(n_heads: int) -> np.ndarray:
    """The ALiBi paper's slope per head, shape (n_heads,).

    For a power of two n: 2^(-8/n), 2^(-16/n), ..., 2^-8. Otherwise take the
    slopes for the largest power of two below n, then fill up with every other
    slope of the next power of two (the authors' reference code, e.g. 12 heads = 8 + 4).
    """
    n_heads = _checks.count(n_heads, "n_heads")
    closest = 2 ** math.floor(math.log2(n_heads))
    slopes = _power_of_two_slopes(closest)
    if closest < n_heads:
        # every other slope of the 2·closest sequence: these interleave with the first ones
        slopes += _power_of_two_slopes(2 * closest)[0::2][: n_heads - closest]
    return np.array(slopes)


# ---------------------------------------------------------------------------
# 2. The bias: a penalty that grows with distance, plus the causal mask
# ---------------------------------------------------------------------------


def alibi_bias_at(n_heads: int, query_positions, key_positions) -> np.ndarray:
    """ALiBi's bias for queries and keys at any positions, shape (n_heads, n_q, n_k).

    query_positions: (n_q,), key_positions: (n_k,), numbers of token positions.
    Entry [h, a, b] is −m_h · (i − j) for query position i = query_positions[a]
    and key position j = key_positions[b] when j <= i, and −inf when j > i (the
    causal mask). Only i − j enters, so shifting both by the same amount changes
    nothing; a cached decoding step passes one query position against all keys.
    """
    slopes = alibi_slopes(n_heads)  # (H,)
    i = _checks.vector(query_positions, "query_positions")  # (n_q,)
    j = _checks.vector(key_positions, "key_positions")  # (n_k,)
    gap = i[:, None] - j[None, :]  # (n_q, n_k): query minus key, i − j, zero or positive for keys at or before
    bias = -slopes[:, None, None] * gap  # (H, n_q, n_k): −m_h · (i − j)
    return np.where(gap >= 0, bias, -np.inf)


def alibi_bias(n_heads: int, seq_len: int) -> np.ndarray:
    """−m_h · (i − j) for keys j <= i and −inf for j > i, over positions 0..seq_len-1.

    Shape (n_heads, seq_len, seq_len): (heads, queries, keys), ready to add to
    the scores (`scaled_dot_product_attention`'s bias argument).
    """
    positions = np.arange(_checks.count(seq_len, "seq_len"))  # (n,)
    return alibi_bias_at(n_heads, positions, positions)


def recency_weights(slope: float, seq_len: int) -> np.ndarray:
    """Attention of the last query over all keys when every content score is equal, shape (seq_len,).

    Only the bias is left, so the weights fall by e^(−slope) per step back;
    entry j is the weight of key j, which is seq_len − 1 − j steps back.
    """
    slope = _checks.positive(slope, "slope")
    distance = np.arange(_checks.count(seq_len, "seq_len"))[::-1]  # key j is seq_len − 1 − j steps back
    return softmax(-slope * distance)


def half_weight_distance(slope: float) -> float:
    """How many tokens back ALiBi halves a key's weight: e^(−m·k) = 1/2 gives k = ln 2 / m."""
    return math.log(2) / _checks.positive(slope, "slope")


# ---------------------------------------------------------------------------
# 3. NoPE: no positions at all, and what the causal mask still tells
# ---------------------------------------------------------------------------


def mask_position_signal(seq_len: int) -> np.ndarray:
    """What a causal layer with no positions can compute: 1/(i+1) at position i, shape (seq_len,).

    Equal scores and a value that is 1 for the first token and 0 for the rest:
    token i averages over the i + 1 tokens it sees, so it gets 1/(i + 1), a
    number that names its position exactly.
    """
    seq_len = _checks.count(seq_len, "seq_len")
    Q = K = np.zeros((seq_len, 1))  # every score q·k is 0, so the weights are equal
    V = np.zeros((seq_len, 1))
    V[0] = 1.0  # only the first token carries a 1
    out, _ = scaled_dot_product_attention(Q, K, V, mask=causal_mask(seq_len))  # (n, 1)
    return out[:, 0]


def unmasked_order_gap(order_a: list[int], order_b: list[int], d: int = 8, seed: int = 0) -> float:
    """Attention with no positions and no mask: how far apart the two orders' outputs are.

    order_a, order_b: the same token ids (ints) in two orders. The outputs (n, d)
    are lined up by token before comparing; 0 means the layer only reshuffles
    (order-blind).
    """
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((max(order_a + order_b) + 1, d))  # (vocab, d) embeddings
    out_a, _ = scaled_dot_product_attention(table[order_a], table[order_a], table[order_a])  # (n, d)
    out_b, _ = scaled_dot_product_attention(table[order_b], table[order_b], table[order_b])
    # line up: the row of token t in order b against the row of token t in order a
    where_in_a = [order_a.index(t) for t in order_b]
    return float(np.max(np.abs(out_b - out_a[where_in_a])))


def nope_position_gaps(order_a: list[int], order_b: list[int], n_layers: int = 1, seed: int = 0) -> np.ndarray:
    """Largest output difference at each position between two word orders, shape (seq_len,).

    order_a, order_b: token ids (ints), same length. Each order runs through
    n_layers causal multi-head attention layers (2 heads, width 16, random
    weights, a residual x + attention(x)) with no positions anywhere. The output
    at position i can then only depend on its own token and on which tokens the
    causal mask lets it see; in one layer, a position with the same token and
    the same set of earlier tokens in both orders gives the same output (a gap
    of 0, up to rounding).
    """
    n_layers = _checks.count(n_layers, "n_layers")
    d, n_heads = 16, 2
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((max(order_a + order_b) + 1, d))  # (vocab, d) embeddings, no positions
    # per layer: W_q, W_k, W_v, W_o, each square (d, d)
    weights = [rng.normal(0.0, 1.0 / math.sqrt(d), (4, d, d)) for _ in range(n_layers)]

    def run(order: list[int]) -> np.ndarray:
        x = table[order]  # (seq, d)
        for W_q, W_k, W_v, W_o in weights:
            out, _ = multi_head_attention(x, W_q, W_k, W_v, W_o, n_heads, mask=causal_mask(len(order)))
            x = x + out  # (seq, d)
        return x

    return np.max(np.abs(run(order_a) - run(order_b)), axis=-1)


def nope_layers(n_layers: int, flags: list[int] | None = None, interval: int = 4, fill_empty: bool = True) -> list[int]:
    """The layers that skip RoPE (NoPE layers), read from a config as transformers reads it.

    flags: the config's no_rope_layers, one entry per layer, 1 = the layer USES
    RoPE, 0 = a NoPE layer (the key's name reads backwards). None (the key is
    absent) means every interval-th layer is NoPE: layer i with (i + 1) % interval
    == 0 (no_rope_layer_interval, default 4). An empty list means the same when
    fill_empty is True, as in transformers' configuration_llama4.py; SmolLM3's
    configuration_smollm3.py fills in only an absent key (fill_empty=False).
    Returns the NoPE layers' indices, ascending.
    """
    n_layers = _checks.count(n_layers, "n_layers")
    if flags is None or (fill_empty and len(flags) == 0):
        interval = _checks.count(interval, "interval")
        flags = [int((i + 1) % interval != 0) for i in range(n_layers)]  # 1 = RoPE, 0 = NoPE
    if len(flags) < n_layers or any(f not in (0, 1) for f in flags):
        raise ValueError(f"flags (no_rope_layers) needs a 1 (RoPE) or 0 (NoPE) for each of the {n_layers} layers; "
                         f"got {list(flags)!r}")
    return [i for i in range(n_layers) if flags[i] == 0]


# ---------------------------------------------------------------------------
# 4. T5's bucketed relative bias, and what the gallery shipped
# ---------------------------------------------------------------------------


def t5_relative_bucket(relative_position, bidirectional: bool = True, num_buckets: int = 32,
                       max_distance: int = 128) -> np.ndarray:
    """T5's bucket for each relative position (key position − query position), ints of the same shape.

    Bidirectional: half the buckets for keys after the query, half for keys at
    or before it. Within a half, the first half of its buckets are one per
    distance (0, 1, 2, ...); the rest cover distances up to max_distance in
    logarithmic steps; every distance from max_distance on shares the last.
    Causal (bidirectional=False): keys after the query count as distance 0.
    The log step is taken in float32, as T5Attention._relative_position_bucket
    computes it in transformers.
    """
    rel = np.asarray(relative_position, dtype=np.int64)
    buckets = _checks.count(num_buckets, "num_buckets", low=2)
    offset = np.zeros_like(rel)
    if bidirectional:
        buckets //= 2
        offset = np.where(rel > 0, buckets, 0)  # keys after the query: the upper half
        distance = np.abs(rel)
    else:
        distance = -np.minimum(rel, 0)  # keys after the query count as 0
    max_exact = buckets // 2  # one bucket per distance below this
    # max_exact + ln(distance / max_exact) / ln(max_distance / max_exact) · (buckets − max_exact), in float32
    with np.errstate(divide="ignore"):
        ratio = np.log((distance.astype(np.float32) / np.float32(max_exact)).astype(np.float32))
    steps = (ratio / np.float32(np.log(max_distance / max_exact)) * np.float32(buckets - max_exact))
    large = np.minimum(max_exact + np.where(distance < max_exact, 0, steps).astype(np.int64), buckets - 1)
    return offset + np.where(distance < max_exact, distance, large)


def position_scheme_of(config: dict) -> str:
    """Which position scheme a Hugging Face config implies: 'T5 buckets', 'ALiBi', 'RoPE' or 'learned table'.

    Read from the keys, for a config as published (a composite model's text
    config is read inside it): relative_attention_num_buckets means T5's
    buckets; BLOOM, an alibi flag (Falcon) or attn_config's alibi (MPT) means
    ALiBi; any key naming rope or rotary, or Falcon with alibi off (its code
    then rotates), means RoPE; anything else a learned table (GPT-2, BERT).
    """
    text = json.dumps(config).lower()
    if "relative_attention_num_buckets" in text:
        return "T5 buckets"
    if config.get("model_type") == "bloom" or config.get("alibi") or config.get("attn_config", {}).get("alibi"):
        return "ALiBi"
    if "rope" in text or "rotary" in text or config.get("model_type") == "falcon":
        return "RoPE"
    return "learned table"


def gallery_schemes(decoders_only: bool = True) -> dict[str, int]:
    """How many gallery configs (lessons/gallery/*.json) use each scheme, by `position_scheme_of`.

    decoders_only drops the masked-language (encoder) models.
    """
    counts: dict[str, int] = {}
    for entry in gallery().values():
        config = entry["config"]
        if decoders_only and any(a.endswith("MaskedLM") for a in config.get("architectures", [])):
            continue
        scheme = position_scheme_of(config)
        counts[scheme] = counts.get(scheme, 0) + 1
    return dict(sorted(counts.items()))


# ---------------------------------------------------------------------------
# 5. Figures (figures_build turns each into docs/figures/alibi.<name>.svg)
# ---------------------------------------------------------------------------


def figures() -> dict:
    """The page's five figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}
    n = 12
    bias = alibi_bias(8, n)  # (8, n, n)
    fig, axes = plt.subplots(2, 2, figsize=(6.4, 6.0), layout="constrained", sharex=True, sharey=True)
    for ax, h in zip(axes.flat, (0, 2, 5, 7), strict=True):
        shown = np.where(np.isfinite(bias[h]), bias[h], np.nan)
        im = ax.imshow(shown, cmap="viridis", vmin=-(n - 1) * 0.5, vmax=0)
        ax.set_title(f"head {h + 1}: m = 1/{round(1 / alibi_slopes(8)[h])}")
        ax.set_xticks([0, n - 1])
        ax.set_yticks([0, n - 1])
    for ax in axes[1]:
        ax.set_xlabel("key j")
    for ax in axes[:, 0]:
        ax.set_ylabel("query i")
    fig.colorbar(im, ax=axes, shrink=0.8, label="bias −m·(i − j)")
    figs["bias_matrices"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for count, marker, color in ((8, "o", BLUE), (12, "s", RED), (16, "^", GREEN)):
        ax.semilogy(np.arange(1, count + 1), alibi_slopes(count), marker, ls="-" if count != 12 else "none",
                    color=color, ms=5, label=f"{count} heads")
    ax.set(xlabel="head h", ylabel="slope m_h (log scale)", title="ALiBi slopes: a geometric sequence per head count")
    ax.legend(frameon=False)
    figs["slopes"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    steps = np.arange(0, 257)
    for slope, color in ((1 / 2, RED), (1 / 16, BLUE), (1 / 256, GREEN)):
        weights = recency_weights(slope, steps.size)[::-1]  # index k = k steps back
        ax.semilogy(steps, weights, color=color, label=f"slope 1/{round(1 / slope)}")
    ax.set(xlabel="steps back from the query (k)", ylabel="attention weight (log scale)", ylim=(1e-8, 1),
           title="Equal content scores: ALiBi alone favours recent keys")
    ax.legend(frameon=False)
    figs["recency"] = fig

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(6.4, 5.6), layout="constrained")
    signal = mask_position_signal(10)
    ax1.plot(np.arange(10), signal, "o-", color=GRID)
    ax1.set(xlabel="position i", ylabel="output 1/(i + 1)", title="the mask alone encodes position")
    a, b = [3, 5, 7, 9, 11], [5, 3, 7, 9, 11]
    width = 0.38
    for offset, layers, color in ((-width / 2, 1, BLUE), (width / 2, 2, RED)):
        ax2.bar(np.arange(5) + offset, nope_position_gaps(a, b, layers), width, color=color,
                label=f"{layers} layer{'s' if layers > 1 else ''}")
    ax2.set(xlabel="position", ylabel="largest output difference", title="NoPE: orders differ only via the mask")
    ax2.legend(frameon=False)
    figs["nope_orders"] = fig

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(6.4, 5.6), layout="constrained")
    distance = np.arange(0, 301)
    ax1.step(distance, t5_relative_bucket(-distance, bidirectional=False), where="post", color=BLUE)
    ax1.axvline(128, color=GRID, lw=0.8)
    ax1.annotate("max_distance 128", (128, 4), xytext=(136, 4), color=GRID)
    ax1.set(xlabel="steps back (decoder)", ylabel="bucket", title="T5 buckets: exact, then logarithmic, then one")
    rel = np.arange(-150, 151)
    ax2.step(rel, t5_relative_bucket(rel, bidirectional=True), where="post", color=GREEN)
    ax2.set(xlabel="key position − query position (encoder)", ylabel="bucket")
    figs["t5_buckets"] = fig
    return figs


# ---------------------------------------------------------------------------
# 6. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. ALiBi slopes")
    table(["heads", "slopes"], [(n, ", ".join(f"{m:.4g}" for m in alibi_slopes(n))) for n in (2, 8, 12)])
    say("Twelve heads are not a power of two: the first eight slopes are the 8-head ones, the last four "
        "sit halfway between them on a log scale.")

    banner("2. The bias for 2 heads and 4 tokens")
    for h, head in enumerate(alibi_bias(2, 4)):
        matrix(f"head {h + 1}", np.where(np.isfinite(head), head, np.nan), fmt="8.4f")
    takeaway("Position enters only as a penalty on the score, growing with distance, steeper in some heads.")

    banner("3. Recency and extrapolation")
    table(["slope", "weight halves every (tokens)"], [(f"1/{round(1 / m)}", half_weight_distance(m))
                                                     for m in alibi_slopes(8)[[0, 3, 7]]], floatfmt=".1f")
    same = np.array_equal(alibi_bias_at(4, 100 + np.arange(4), 100 + np.arange(4)), alibi_bias(4, 4))
    say(f"The bias for positions 100..103 equals the bias for 0..3: {same}. Only distances enter, so it exists "
        f"for any length and ignores where a sequence starts; lessons.transformer runs it in a whole decoder.")

    banner("4. NoPE: no positions, only the causal mask")
    say(f"Without a mask, attention only reshuffles: gap {gap_text(unmasked_order_gap([3, 5, 7, 9], [5, 3, 7, 9]))}. "
        f"With the mask, one causal attention layer with no positions differs between 3 5 7 9 11 and 5 3 7 9 11 only "
        f"where the prefixes differ: gaps {np.round(nope_position_gaps([3, 5, 7, 9, 11], [5, 3, 7, 9, 11]), 3)}.")
    takeaway("A decoder with no positions still knows order, but only what the causal mask leaks.")


if __name__ == "__main__":
    demo()
