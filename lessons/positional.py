r"""
# How does a transformer know word order?

Run it: `python -m lessons.positional` prints a narrated tour in your terminal.
Read first: `lessons.notation` decodes every symbol on this page from scratch,
and `lessons.attention` builds the layer that positions get fed into.

## Level 1: the practitioner's guide

**In one sentence.** Left to itself, attention treats a sentence as an
unordered heap of tokens, so every transformer ships with some way of
marking where each token stands, and that choice decides how far the context
reaches, whether it can be lengthened once training is over, and what goes
wrong past its end.

**When you need it.** As long as every prompt you send fits comfortably
within the trained length, you can ignore the whole topic: the scheme was
picked before training, is frozen into the weights, and offers no knob to
turn. It becomes your business as soon as length does. Typical moments: a
model card advertises 128K tokens and you want to know what that buys you; a
model you host yourself starts producing fluent garbage beyond some prompt
size while the logs stay clean; an embedding model rejects a long document;
you plan to fine-tune on documents longer than anything the model met in
training. The giveaway is output that is fine at a few thousand tokens and
then collapses, without a single error raised. Behind all of it sits one
number, which this lesson's `order_similarity` computes. Pass "dog bites
man" and "man bites dog" through a single attention layer that gets no
position signal, take the mean of each sentence's outputs, and the two means
come out with a cosine similarity of exactly 1.000. For that layer there is
one sentence, not two.

**Your options.** Rows one to four were settled by whoever built the model,
so you pick among them only by picking a model. Rows five to seven are what
you or your provider can still do about length later on. They run from the
least committed to the most:

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Learned absolute positions (GPT-2, BERT) | Trains a separate vector for every slot and adds it to the token's vector | Easy to build, and good within the length it was trained on | Nothing exists beyond the final row: GPT-2's config has 1,024 rows, BERT's 512 | The architecture; `max_position_embeddings` in the config |
| Sinusoidal codes (the original 2017 transformer) | Adds a fixed blend of sines and cosines that is different at each position | Costs no parameters; any position at all has a code | Where a word sits gets mixed into what it means; newer models rarely choose it | Fixed in the architecture; nothing to configure |
| RoPE (Llama, Mistral, Qwen) | Gives every query and key a rotation whose angle is set by its position, so a score registers only the gap between two tokens | Relative distance comes for free, and the window can be lengthened after training | Past the trained range the angles are unfamiliar, so lengthening calls for a scaling rule | The architecture; `rope_theta` and `rope_parameters` in the config (`rope_scaling` in older configs) |
| ALiBi | Uses no position vectors; instead takes off each attention score a penalty that rises with distance | Length extrapolation: Press et al. (2021) report that a model trained on 1,024 tokens and tested on 2,048 matched a sinusoidal model trained on 2,048, while training 11% faster with 11% less memory | A fixed bias toward nearby tokens; few of today's models use it | The architecture; see `lessons.alibi` |
| Scaling at inference time (linear or dynamic NTK) | At serving time, rescales either the positions or the RoPE base; linear scaling applies at every length, dynamic scaling kicks in only when a prompt exceeds the trained length | Some extra length with zero training | The bigger the stretch, the more quality slips | Serving config: `rope_type` and the factor inside `rope_parameters` |
| PI or YaRN plus a brief fine-tune | Compresses positions (PI) or frequencies (YaRN) back into the range seen in training, then trains a little on long text | Chen et al. (2023) took LLaMA models from 2,048 up to 32,768 tokens in at most 1,000 fine-tuning steps; Peng et al. (2023) report that YaRN gets there with 10x fewer tokens than the methods before it | Long training documents, a training run, and an evaluation at the new length | Your training stack; see `lessons.context_extension` |
| Staged long-context pretraining | The provider widens the window step by step while pretraining | The genuine article: the Llama 3 team (2024) went from 8K to 128K tokens over six stages | Roughly 800B training tokens for that phase, according to the Llama 3 team; all you ever see is the resulting figure on the model card | The model's vendor |

**How to choose.** Begin with your own situation.

- Calling a hosted API: there is no decision to make, yet the advertised
  window only tells you what the vendor trained and tested, not how your
  task will fare. Check quality at the lengths you really send.
- Picking an open model: look at `max_position_embeddings` and
  `rope_parameters` in its config. A scaling entry with a factor tells you
  the model learned on shorter text and was stretched afterwards, so try it
  at your length rather than taking the stretched figure on trust.
- Serving beyond the trained length: raising the engine's length limit by
  itself is not enough. Apply the scaling the checkpoint was extended with
  (or a dynamic one if it never was), and test before you release.
- Documents longer than the window, and training is an option: position
  interpolation or YaRN with a short fine-tune on long text, followed by a
  needle-in-a-haystack test and your own task at the length you are aiming
  for.
- An embedding model or other encoder built on a learned table: that limit
  cannot be moved. Cut documents into pieces that fit.
- Whichever route you take, evaluate at your real running length, with the
  crucial fact placed once at the beginning, once in the middle and once
  near the close of the prompt.

**What it costs.** Encoding positions is close to free; long contexts are
what you pay for.

- Parameters and compute. GPT-2's position table stores
  1,024 × 768 = 786,432 numbers. That is under 1% of the 124 million
  parameters in the smallest GPT-2. RoPE and ALiBi bring no parameters at
  all, and RoPE adds only a handful of element-wise multiplications per
  query and key, negligible beside attention.
- Stretching. Interpolating from 4,096 to 32,768 tokens scales each
  position by 1/8, so position 32,000 is read as 4,000. For a head of width
  128, NTK-aware scaling leaves positions alone and lifts the RoPE base
  from 10,000 to 82,685 instead: the fastest pair is unchanged and the slowest
  turns exactly 8× more slowly. Either is usually followed by a brief
  fine-tune (Chen et al. (2023) needed no more than 1,000 steps). The
  Llama 3 team (2024) chose a base of 500,000 and used about 800B tokens to
  grow their flagship from 8K to 128K tokens.
- Quality. RoPE favours nearby tokens (the long-term decay that Su et al.,
  2021, describe), and models do not make uniform use of a long window:
  Liu et al. (2023, *Lost in the Middle*) found information is used best
  when placed at the beginning or end of a long prompt and worst when it is
  buried in the middle.

**What breaks.**

- **Falling off the table.** A learned table with 1,024 rows holds nothing
  for position 1,024, so the request is rejected or the library quietly
  truncates the input. Fix: split the input into chunks.
- **Overrunning the trained angles.** RoPE never refuses anything; it just
  gets worse without warning. The last figure on this page shows the
  slowest pair's angle escaping the trained band right after position 4,096
  and climbing to 8 times the band's upper edge at 32,768. Chen et al.
  (2023) report that extrapolating like this can drive attention scores to
  catastrophically large values. Fix: scale the positions or the base, then
  fine-tune.
- **Wrong scaling at serving time.** Lose or mistype the `rope_parameters`
  of an extended model and it meets positions it never learned. Fix: deploy
  the config together with the weights, untouched.
- **Over-interpolating.** Interpolation divides every frequency by one
  common factor, smearing the fast ones that encode local word order. Fix:
  for big stretches use NTK-aware scaling or YaRN, both of which spare the
  fast frequencies.
- **Order lost in pooling.** Average what an order-blind layer outputs and
  "dog bites man" can no longer be told from "man bites dog". Fix: add
  positions before anything gets pooled.
- **Trusting the causal mask to carry order.** Inside a decoder, masking
  alone already separates the two sentences (a cosine of 0.585 in this
  lesson's layer), but that is an accidental by-product rather than a
  designed position signal.

**In the wild.** The first transformer (Vaswani et al., 2017) used
sinusoidal codes. GPT-2 and BERT moved to learned tables, and that is why
each one has a hard maximum length. Llama, Mistral and Qwen rely on RoPE;
for Llama 3 the base (`rope_theta` in the config) went up to 500,000
(Llama 3 team, 2024). Hugging Face configs record a stretched model under
`rope_parameters` (`rope_scaling` in older files), giving a `rope_type`
such as linear, dynamic, yarn, longrope or llama3, a factor, and the
`original_max_position_embeddings` used in training. vLLM takes the serving
length from `--max-model-len`, and `--hf-overrides` patches the config as
the model loads. Many long-context checkpoints are built with YaRN (Peng et
al., 2023); ALiBi (Press et al., 2021) extrapolates with no position
vectors at all; and Kazemnejad et al. (2023), studying NoPE, found that
decoders given no explicit positions can still generalise to longer inputs.
All of these papers are linked at the bottom of the page.

**Go deeper.** Level 2 demonstrates the bag-of-words problem with three
vectors of two numbers each, builds sinusoidal codes as a many-handed
clock, verifies by hand that RoPE only sees distance (at positions 3 and 7,
then at 103 and 107), and stretches a 4K model to 32K in two different
ways. Readers who only want to judge a model card or serve a model safely
already have what they need and can stop here.

## Level 2: how it works, from scratch

We begin with the problem itself (attention is handed a bag of tiles rather
than a sentence), then bring in the families of position schemes one at a
time: fixed codes, learned tables, rotations, and last of all the ways
rotations get stretched.

## The problem: attention sees a bag, not a sentence

**Everyday picture.** Think of Scrabble tiles. Empty "dog bites man" into a
bag and you hold exactly the tiles you would get from "man bites dog".
Someone who is only ever shown the bag cannot know whether it held the dull
news or the headline. Without help, attention is that someone: the bag is
all it receives.

**Tiny worked example.** Let each word be two numbers: dog is (1, 0),
bites is (0, 1) and man is (1, 1). The simplest possible summary of a
sentence is the mean of its word vectors:

| sentence | vectors added up | mean |
|---|---|---|
| dog bites man | (1, 0) + (0, 1) + (1, 1) = (2, 2) | (0.67, 0.67) |
| man bites dog | (1, 1) + (0, 1) + (1, 0) = (2, 2) | (0.67, 0.67) |

Sums do not care about order, and attention, it turns out, does no
better: each word scores itself against all the words through dot
products, and no step of that arithmetic notes which word came first.

```mermaid
flowchart LR
  S1["dog bites man"] --> L1["embed each word separately"]
  S2["man bites dog"] --> L2["embed each word separately"]
  L1 --> SET["one shared set of vectors:<br/>dog, bites, man"]
  L2 --> SET
  SET --> AT["attention without positions"]
  AT --> RES["three identical outputs,<br/>just in a different row order"]
  RES --> AVG["mean: the two sentence vectors match"]
```

**Reading it:** start at the left with both sentences. Embedding handles
one word at a time, so the two sentences reach attention as one and the
same set of three vectors. Attention measures vectors against each other
and never asks which slot a vector occupied. It therefore hands back the
same three outputs, merely listed in each sentence's own order, and once
they are averaged nothing distinguishes the two.

**The math.** A **permutation** rearranges the items of a list. In matrix
form (a grid of numbers) it is zero everywhere except for exactly one 1
in every row and every column, and multiplying by it just reorders rows.
Without positions, attention is *permutation-equivariant*: reorder its
input and its output is reordered the same way, nothing more.

$$
\text{Attn}(PX) = P\,\text{Attn}(X)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $X$ | word vectors of the sentence, stacked one word per row | dog (1, 0), bites (0, 1), man (1, 1): 3 rows, 2 columns |
| $P$ | a permutation matrix, which rearranges the rows it is multiplied with | exchanges row 1 and row 3 |
| $PX$ | those rows, rearranged | man (1, 1), bites (0, 1), dog (1, 0) |
| $\text{Attn}(\cdot)$ | a single attention layer that gets no position information; each word's vector acts as its own query, key and value | takes 3 × 2, returns 3 × 2 |
| $=$ | left and right are one identical grid | |

**In words:** "shuffle the sentence and then apply attention, or apply
attention and then shuffle its answer: either way the result is identical."

**With the numbers:** take "dog bites man". Dog's query (1, 0) is compared
with the keys (1, 0), (0, 1), (1, 1), scoring 1, 0 and 1; dividing by
$\sqrt{2}$ (the square root of the width, 2) gives 0.707, 0 and 0.707.
Softmax converts these into weights 0.401, 0.198 and 0.401, and dog's
output is 0.401·(1, 0) + 0.198·(0, 1) + 0.401·(1, 1) = **(0.802, 0.599)**.
In the reversed sentence dog moves to row 3, yet it faces the very same keys
(in a new order), receives identical weights and produces
**(0.802, 0.599)** once more.

**In Python:**

```python
import numpy as np
from lessons.attention import scaled_dot_product_attention
# dog's query (1, 0) against dog, bites, man, divided by sqrt(d) with d = 2
s = np.array([1.0, 0.0, 1.0]) / np.sqrt(2)
# softmax(s) = exp(s) / sum(exp(s))
s.round(3).tolist()  # → [0.707, 0.000, 0.707]
w = np.exp(s) / np.exp(s).sum()
w.round(3).tolist()  # → [0.401, 0.198, 0.401]
vocab = {"dog": [1.0, 0.0], "bites": [0.0, 1.0], "man": [1.0, 1.0]}
# the plain mean of the word vectors: the same in either order
np.mean([vocab[word] for word in "man bites dog".split()], axis=0).round(2).tolist()  # → [0.67, 0.67]
def layer(sentence):
    # one row per word  # (3, 2)
    X = np.array([vocab[word] for word in sentence.split()])
    # each word is its own query, key and value; no position anywhere
    return scaled_dot_product_attention(X, X, X)[0]
layer("dog bites man").round(3).tolist()  # → [[0.802, 0.599], [0.599, 0.802], [0.752, 0.752]]
layer("man bites dog").round(3).tolist()  # → [[0.752, 0.752], [0.599, 0.802], [0.802, 0.599]]
# Attn(PX) = P Attn(X), where P reverses the three rows
bool(np.allclose(layer("man bites dog"), layer("dog bites man")[::-1]))  # → True
```

A larger layer, with fixed random weights and 16-number word vectors,
behaves in exactly the same way; it is the layer that `encode_sentence`
runs:

```python
import numpy as np
from lessons.positional import encode_sentence, order_similarity
# the 16-wide layer with no positions  # (3, 16) per sentence
dbm, mbd = (encode_sentence(s, scheme="none") for s in ("dog bites man", "man bites dog"))
# dog is the first row of one output and the last row of the other
bool(np.allclose(dbm[0], mbd[-1]))  # → True
sims = order_similarity()
{label: round(cos, 3) for label, cos in sims.items()}  # → {'no positions': 1.000, 'sinusoidal': 0.921, 'RoPE': 0.990, 'causal mask only': 0.585}
```

![Bar chart comparing the pooled outputs of the two sentences by cosine: 1.000 without positions, 0.921 with sinusoidal codes, 0.990 with RoPE and 0.585 with only a causal mask](figures/positional.order_blindness.svg)

**Reading it:** every bar takes the mean attention output of "dog bites
man" and that of "man bites dog" and measures their cosine similarity; 1
means they point in exactly the same direction. Without positions the bar
sits at 1.000, so the layer sees no difference whatsoever. Sinusoidal codes
(0.921) and RoPE (0.990) bring it under 1, so the two sentences now register
as different; the size of the drop comes from this particular random layer
and does not rank the schemes. The grey bar (0.585) adds no positions at
all, only a causal mask, and that alone lets some order through; the final
section explains how.

**In code:** `word_vector` assigns each word a fixed pseudo-random vector,
`encode_sentence` passes a sentence through one attention layer under the
chosen scheme, and `order_similarity` averages each sentence's outputs and
compares the two averages, which produces the bars.

**Why it matters.** Order carries much of a sentence's meaning: who did
what to whom, how far a "not" reaches, which step of a program runs first.
Attention cannot supply it, so position has to be injected from outside;
the rest of the page covers the three ways that is done.

## Sinusoidal codes: one clock, many hands

**Everyday picture.** Imagine a clock with a whole fan of hands. The
second hand sweeps round quickly and separates moments a few seconds apart;
the hour hand crawls and separates breakfast from dinner. Read together,
the hands give each moment of the day a reading no other moment shares. A
sinusoidal code hands every position its own set of hands and adds their
reading to the word's vector.

**Tiny worked example.** With 4 numbers per position there are two hands.
The quick one advances 1 radian per position, the slow one 1/100 of a
radian:

| position | sin(pos · 1) | cos(pos · 1) | sin(pos / 100) | cos(pos / 100) |
|---|---|---|---|---|
| 0 | 0.000 | 1.000 | 0.000 | 1.000 |
| 1 | 0.841 | 0.540 | 0.010 | 1.000 |
| 2 | 0.909 | −0.416 | 0.020 | 1.000 |

Between positions 1 and 2 the quick pair already changes a lot; the slow
pair has barely shifted, and it only separates positions that lie hundreds
apart.

```mermaid
flowchart LR
  W["word"] --> EMB["embedding table:<br/>the word's meaning"]
  POS["position 0, 1, 2, ..."] --> WAVE["sines and cosines at many speeds:<br/>the word's place"]
  EMB --> SUM(("+"))
  WAVE --> SUM
  SUM --> BLK["the stack of transformer blocks"]
```

**Reading it:** two independent lookups join at the plus sign. The upper
path supplies *what* the word is, the lower path *where* it stands, and
their sum is a single vector holding both. Every later layer sees only that
sum, so position turns into part of the content that attention compares.

**The math.** Imagine a point travelling round a unit circle (radius 1).
How far it has turned is counted in **radians** (one complete turn is
$2\pi \approx 6.28$). The angle's **cosine** is how far the point sits to
the right of the centre and its **sine** how far above it; both stay within
−1 and +1, and both start over once every full circuit is done.

$$
PE_{(pos,\,2i)} = \sin(pos\cdot\omega_i), \qquad PE_{(pos,\,2i+1)} = \cos(pos\cdot\omega_i),
\qquad \omega_i = \frac{1}{10000^{2i/d}}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $PE_{(pos,\,c)}$ | entry in row $pos$, column $c$ of the table of codes | |
| $pos$ | the word's place in the sentence, the first word being 0 | 1 |
| $d$ | length of each position's code | 4 |
| $i$ | index of the (sine, cosine) pair, counting from 0 to $d/2 - 1$ | 0, then 1 |
| $2i$, $2i+1$ | the columns that pair $i$ occupies: sine in the even column, cosine in the odd | columns 2 and 3 hold pair 1 |
| $\omega_i$ | radians that pair $i$ turns per position (its **frequency**) | $\omega_0 = 1$ and $\omega_1 = 1/100$ |
| $10000^{2i/d}$ | a fractional power of 10,000; it grows with $i$, so each pair turns more slowly than the one before | $10000^{2/4} = 100$ for pair 1 |
| $\sin$, $\cos$ | the point's height and its distance to the right after turning that far | $\sin 1 = 0.841$ |

**In words:** "at each position, every column pair stores where a hand
spinning at that pair's speed is pointing after *pos* steps, sine first and
cosine second."

**With the numbers:** take d = 4 and pos = 1. Pair 0 has rotated 1 radian,
giving sin 1 = 0.841 and cos 1 = 0.540. Pair 1 has rotated only 1/100 of a
radian, giving sin 0.01 = 0.010 and cos 0.01 = 1.000. Position 1's code is
therefore **(0.841, 0.540, 0.010, 1.000)**, exactly the row for position 1
in the table.

**In Python:**

```python
import numpy as np
from lessons.positional import sinusoidal_encoding
d = 4
# omega_i = 10000^(-2i/d) for i = 0 .. d/2 - 1
speeds = 10000.0 ** (-np.arange(0, d, 2) / d)
speeds.tolist()  # → [1.0, 0.01]
# position 1: sin(1 * omega_i) and cos(1 * omega_i), interleaved  # (4,)
row1 = np.column_stack([np.sin(speeds), np.cos(speeds)]).ravel()
row1.round(3).tolist()  # → [0.841, 0.540, 0.010, 1.000]
# positions 0, 1, 2 straight from the module  # (3, 4)
sinusoidal_encoding(3, 4).round(3).tolist()  # → [[0.000, 1.000, 0.000, 1.000], [0.841, 0.540, 0.010, 1.000], [0.909, -0.416, 0.020, 1.000]]
# dot product across a gap of 3, starting at 10 and at 70  # (100, 32)
table = sinusoidal_encoding(100, 32)
gap3 = lambda start: round(float(table[start] @ table[start + 3]), 4)
gap3(10), gap3(70)  # → (12.2724, 12.2724)
# closed form: the sum over the 16 pairs of cos(3 * omega_i)
round(float(np.cos(3 * 10000.0 ** (-np.arange(0, 32, 2) / 32)).sum()), 4)  # → 12.2724
```

Moving k positions along rotates every (sine, cosine) pair through the same
angle $k\omega_i$, no matter where you begin, so **the dot product of two
codes is fixed by the gap between them alone**.

![Heatmap of the sinusoidal codes of positions 0 to 99 with d = 64: the leftmost columns alternate between red and blue within a few positions while the rightmost hardly change, so every row is its own fingerprint and adjacent rows resemble each other](figures/positional.sinusoidal_heatmap.svg)

**Reading it:** rows are positions (0 at the top), columns are the 64
numbers of a code, and colour shows the value, from −1 (red) to +1 (blue).
The leftmost columns switch colour within a few rows: quick hands. The
rightmost columns stay nearly constant over all 100 rows: slow hands.
Because no two rows coincide, each position gets a fingerprint of its own;
because adjacent rows are alike, nearby positions get nearby codes.

**In code:** `rope_frequencies` gives the speeds $\omega_i$ (RoPE reuses
them below), `angle_table` multiplies each position by each pair's speed in a
single broadcast, and `sinusoidal_encoding` writes the sines of those angles
to the even columns and the cosines to the odd ones.

**Why it matters.** Fixed codes cost no training and reach any position.
And since a shift is one and the same rotation wherever it happens, the
model can learn "three words back" once and apply it everywhere. The
downside: the code is blended into the word's own vector, a mix that later
schemes steer clear of.

## Learned absolute positions: numbered seats

**Everyday picture.** Picture a theatre. Every seat carries its own
numbered plaque, and the hall was built with only so many of them; hold a
ticket for a seat beyond the last row and there is simply nowhere to sit.

**Tiny worked example.** GPT-2 stores a table of 1,024 position vectors,
each 768 numbers long: 786,432 extra parameters, learned in training like
any other weight. The word at position 5 gets row 5 added to it. For
position 1,024 there is no row.

```mermaid
flowchart LR
  W["word"] --> WT["vocabulary table:<br/>a row for every word"]
  POS["position 5"] --> PT["position table:<br/>a row for each seat, 0 to 1,023"]
  WT --> SUM(("+"))
  PT --> SUM
  SUM --> BLK["the stack of transformer blocks"]
  FAR["position 1,024 and beyond"] -.-> NONE["no row to look up"]
```

**Reading it:** the layout repeats the sinusoidal diagram, except that the
lower path is now a second learned table where a formula used to be. The
dotted arrow marks the trap: the table ends at its final row, and an input
any longer has no row to fetch.

**The math.**

$$
x_{pos} = E_{word} + P_{pos}
$$

**Symbols**

| Symbol | Meaning here | In the example (GPT-2) |
|---|---|---|
| $E_{word}$ | the word's entry in the vocabulary table, carrying its meaning | 768 numbers |
| $P_{pos}$ | entry $pos$ of the position table, learned in training and carrying the word's place | 768 numbers; rows 0 to 1,023 exist |
| $+$ | entry-by-entry sum of the two | |
| $x_{pos}$ | what the first transformer block is given | 768 numbers |

**In words:** "what goes into the model is the word's meaning with its
seat's learned vector added on."

**With the numbers:** in a 2-number toy, $E_{dog}$ = (0.5, −0.2) and
$P_3$ = (0.1, 0.3) give $x_3$ = (0.6, 0.1). As for $P_{1024}$, there is no
such row.

**In Python:**

```python
import numpy as np
# GPT-2 small: 1024 positions (max_position_embeddings) of 768 numbers each
n_positions, width = 1024, 768
n_positions * width  # → 786432
# GPT-2 small has 124 million parameters: is the table under 1% of them?
n_positions * width / 124_000_000 < 0.01  # → True
# a toy table with four seats, 0 to 3  # (4, 2)
seats = np.array([[0.0, 0.0], [0.2, -0.1], [-0.3, 0.4], [0.1, 0.3]])
dog = np.array([0.5, -0.2])
# x_3 = E_dog + P_3
np.round(dog + seats[3], 2).tolist()  # → [0.6, 0.1]
# position 4 would need row index 4: does the table reach it?
seats.shape[0] > 4  # → False
```

No figure here: the table holds whatever training put into it, and its one
structural fact, the final row, is already drawn in the diagram.

**In code:** this lesson never trains a table, so no function here
implements one; the entire computation is the single addition in the block
above.

**Why it matters.** Easy to build and effective within the trained length,
a learned table cannot reach even one position past it. That hard limit is
what pushed the field toward RoPE.

## RoPE: rotate q and k so only the distance counts

**Everyday picture.** Two friends point at a clock, one at the 1 and the
other at the 4, so their arms form a 90° angle. Let both move on seven
hours, to the 8 and the 11: still 90°. RoPE swings each token's query and
key round like clock hands, through an angle that grows in step with the
token's position. When a query meets a key, the score feels only the **angle
between them**, that is, how far apart the two tokens are; the spot on the
dial where they began makes no difference.

**Tiny worked example.** Use vectors of 2 numbers, which gives a single
pair turning 1 radian per position. Set q = k = (1, 0); the query sits at
position 3, the key at position 7:

| step | computation | result |
|---|---|---|
| turn q by 3 radians | (cos 3, sin 3) | (−0.990, 0.141) |
| turn k by 7 radians | (cos 7, sin 7) | (0.754, 0.657) |
| score | −0.990 · 0.754 + 0.141 · 0.657 | −0.654 = cos 4 |

Shift both by 100, to 103 and 107, and the score is cos(107 − 103), which
is again cos 4 = −0.654: all that survives is the gap of 4. Shift only the
key by one, to 8, and the score becomes cos 5 = 0.284.

```mermaid
flowchart LR
  T["token vector at position m"] --> QP["q = W_q x"]
  T --> KP["k = W_k x"]
  T --> VP["v = W_v x"]
  QP --> QR["rotate every pair of q<br/>through m times theta_i"]
  KP --> KR["rotate every pair of k<br/>through m times theta_i"]
  QR --> DOT["score q'.k':<br/>a function of the gap alone"]
  KR --> DOT
  DOT --> SOFT["softmax"]
  SOFT --> MIX["values, weighted and summed"]
  VP --> MIX
```

**Reading it:** this is plain attention (as in `lessons.attention`) plus
one additional step on the query path and on the key path. Once projected,
every (even, odd) pair of numbers inside q and k is rotated, clock-hand
fashion, through an angle that increases with the token's position: fast
for the early pairs, slow for the late ones. In the dot product only the
*difference* between the two angles remains, so the score knows the gap
between the tokens but not their absolute places. Values are never
rotated, so what gets blended is pure content, and the word vector itself
never has anything added to it.

**The math.** A **rotation** swings a point round the centre through some
angle while keeping its distance from the centre unchanged. Here it is as a
2 × 2 grid multiplying a column of two numbers (a **matrix-vector
product**: to get each output number, pair one row of the grid with the
column entry by entry, multiply, and sum):

$$
\begin{pmatrix} x'_{2i} \\ x'_{2i+1} \end{pmatrix} =
\begin{pmatrix} \cos m\theta_i & -\sin m\theta_i \\ \sin m\theta_i & \cos m\theta_i \end{pmatrix}
\begin{pmatrix} x_{2i} \\ x_{2i+1} \end{pmatrix},
\qquad \theta_i = 10000^{-2i/d}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $x_{2i}, x_{2i+1}$ | the $i$-th pair of a query or key, not yet rotated | x = (1, 0) |
| $x'_{2i}, x'_{2i+1}$ | that pair once rotated | (−0.990, 0.141) |
| $m$ | where the token stands | 3 |
| $i$ | pair index, from 0 through $d/2 - 1$ | 0, the single pair when d = 2 |
| $\theta_i$ | radians per position for pair $i$; $10000^{-2i/d}$ is shorthand for $1/10000^{2i/d}$ | $\theta_0 = 1$ radian |
| $m\theta_i$ | total angle of rotation | 3 × 1 = 3 radians |
| 2 × 2 grid | rotation proper: row one yields the new first number, row two the new second | |

**In words:** "rotating through the angle (position times the pair's
speed) mixes the two old numbers: the new first is cos·first − sin·second,
and the new second is sin·first + cos·second."

**With the numbers:** with θ = 1, the pair x = (1, 0) at m = 3 becomes
x′ = (1·cos 3 − 0·sin 3, 1·sin 3 + 0·cos 3) = (−0.990, 0.141).

**In Python:**

```python
import numpy as np
def rotate(v, angle):
    # [[cos a, -sin a], [sin a, cos a]] @ v
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]]) @ v
# d = 2 has one pair, i = 0: theta_0 = 10000^(-2*0/2)
theta0 = 10000 ** (-2 * 0 / 2)
theta0  # → 1.0
q = k = np.array([1.0, 0.0])
q_at_3, k_at_7 = rotate(q, 3 * theta0), rotate(k, 7 * theta0)
q_at_3.round(3).tolist()  # → [-0.990, 0.141]
k_at_7.round(3).tolist()  # → [0.754, 0.657]
# the score q'.k' next to the cosine of the gap
round(float(q_at_3 @ k_at_7), 3), round(float(np.cos(7 - 3)), 3)  # → (-0.654, -0.654)
```

The reason only the gap is left: take a **dot product** (pair up the
entries of two vectors, multiply, and add; it is large when they point
alike) of q rotated by a with k rotated by b, and you get the same number
as from the unrotated q with k rotated by b − a. In symbols:

$$
\langle R_m q,\; R_n k\rangle = \langle q,\; R_{n-m}\, k\rangle
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $q$, $k$ | the query and the key before any rotation | both (1, 0) |
| $m$, $n$ | where the query stands and where the key stands | 3 (query), 7 (key) |
| $R_m$ | "rotate each pair through its speed times $m$" | a 3-radian rotation |
| $R_{n-m}$ | a rotation by the gap alone | a 4-radian rotation |
| $\langle a, b \rangle$ | dot product of $a$ with $b$ (also written $a \cdot b$) | |

**In words:** "a query at *m* scored against a key at *n* gives exactly
what you get by keeping the query fixed and rotating the key through
*n − m*, the gap between them."

**With the numbers:** on the left, (−0.990, 0.141) · (0.754, 0.657) comes
to −0.654; on the right, since q = (1, 0), the product keeps just the first
entry of (cos 4, sin 4), which is cos 4 = −0.654. Positions 103 and 107
give that number once more; positions 3 and 8 give a different one, 0.284.

**In Python:**

```python
import numpy as np
from lessons.positional import apply_rope
q = k = np.array([1.0, 0.0])
# <R_m q, R_n k> for three (m, n) placements
placements = [(3, 7), (103, 107), (3, 8)]
[round(float(apply_rope(q, m) @ apply_rope(k, n)), 3) for m, n in placements]  # → [-0.654, -0.654, 0.284]
# <q, R_(n-m) k>: rotate only the key, by the gap
round(float(q @ apply_rope(k, 4)), 3)  # → -0.654
# 64-number vectors, all 32 pairs at once, both shifted by 500
rng = np.random.default_rng(0)
a, b = rng.standard_normal((2, 64))
bool(np.isclose(apply_rope(a, 3) @ apply_rope(b, 7), apply_rope(a, 503) @ apply_rope(b, 507)))  # → True
```

`apply_rope` handles a single vector, a stack of vectors with one position
per row, or an entire (batch, heads, seq, d) block, using a few
element-wise lines and no matrix multiplication.

![Line chart of the RoPE score versus the query-to-key distance, for queries placed at positions 0, 100 and 1,000: the three curves overlap exactly](figures/positional.rope_relative.svg)

**Reading it:** the horizontal axis is the distance n − m from query to
key; every curve uses the same q and k (64 numbers each), with the query
starting somewhere else: at 0, 100 or 1,000. The curves sit exactly on top
of each other, so the score is a function of distance only. Here the
relative-position property is drawn as a picture.

![Line chart of the angle reached by four RoPE pairs, wrapped to a single turn, across positions 0 to 199 with d = 64: pair 0 wraps roughly every 6 positions and pair 31 hardly moves](figures/positional.rope_frequencies.svg)

**Reading it:** each line follows one pair of a 64-number head; the
vertical axis gives the angle that pair has reached at each position,
wrapped into one full turn (2π). Pair 0 is the fastest and wraps every 6.28
positions, which resolves fine local order. Pair 31 barely moves over the
whole range and so tracks position on a coarse, long scale. Once more it is
the clock with many hands, only now it runs inside attention.

```python
import numpy as np
from lessons.positional import rope_frequencies
theta = rope_frequencies(64)
# theta_i = 10000^(-2i/64) for pairs 0, 4, 12 and 31
[round(float(theta[i]), 5) for i in (0, 4, 12, 31)]  # → [1.0, 0.31623, 0.03162, 0.00013]
# one full turn of pair 0 takes 2 pi / theta_0 positions
round(float(2 * np.pi / theta[0]), 2)  # → 6.28
```

**In code:** `rope_frequencies` gives each pair's speed $\theta_i$,
`rope_angles` multiplies those speeds by the position to obtain every angle
(the same `angle_table` as the sinusoidal codes), and `apply_rope` rotates
each pair by its angle. `lessons.rope` wires RoPE into attention in
code, including the other pairing convention in common use.

**Why it matters.** Language thinks in relative distance ("two words
earlier"), a rotation leaves a vector's length intact, and because position
is stored in angles it can be stretched once training is done. That
stretching is the subject of the next section.

## Stretching the context once training is done

**Everyday picture.** You own a ruler marked 0 to 4,000 and have to measure
an object 32,000 long. One way is to shrink the object eightfold until it
fits the ruler (interpolation). The other is to keep the fine millimetre
ticks as they are and redraw only the coarse long-range marks (NTK-aware
scaling).

**Tiny worked example.** Say a model that learned on 4,096-token texts now
has to handle 32,768. Interpolation scales each position by 4,096 / 32,768 =
1/8, so RoPE receives position 32,000 as 4,000, an angle from familiar
territory. The catch: neighbouring tokens now sit a mere 1/8 of a position
apart, and a short fine-tune is what teaches the model to tell them apart.

```mermaid
flowchart LR
  POS["positions 0 to 32,767"] --> CH{"which fix?"}
  CH -->|interpolation| PI["multiply each position by 4,096 / 32,768:<br/>all hands run 8 times slower"]
  CH -->|NTK-aware| NTK["bigger RoPE base:<br/>slow hands slowed, fastest hand untouched"]
  PI --> IN["every RoPE angle back<br/>within the trained range"]
  NTK --> IN
  IN --> FT["brief fine-tune on long documents"]
```

**Reading it:** both branches attack one problem: angles the model never
encountered during training. Interpolation slows *all* hands by one common
factor, which also smudges the quick hands responsible for local word
order. NTK-aware scaling slows the slow hands while leaving the quickest
exactly as it was, so local order stays crisp. Whichever branch is taken, a
short fine-tune normally comes after.

**The math.** Position interpolation:

$$
pos' = pos \cdot \frac{L_{train}}{L_{new}}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $pos$ | true place of a token in the stretched input | 32,000 |
| $L_{train}$ | maximum length the model trained on | 4,096 |
| $L_{new}$ | target context length | 32,768 |
| $pos'$ | value RoPE actually receives | 4,000 |

**In words:** "multiply each position by old length over new length, which
for a longer target shrinks it."

**With the numbers:** 32,000 × 4,096 / 32,768 = 32,000 / 8 = **4,000**.

NTK-aware scaling leaves the positions alone and changes the base:

$$
base' = base \cdot s^{\,d/(d-2)}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $base$ | constant that $\theta_i = base^{-2i/d}$ raises to a power | 10,000 |
| $s$ | the stretch factor, new context length over old | 8 |
| $d$ | width of one head | 128 |
| $s^{d/(d-2)}$ | $s$ to a power slightly above 1 | $8^{1.016} \approx 8.27$ |
| $base'$ | the enlarged base | about 82,685 |

**In words:** "make the base a little more than *s* times larger."

**With the numbers:** the quickest pair still turns $\theta_0 =
{base'}^{\,0} = 1$ radian per position. The slowest one used to turn
$10000^{-126/128} = 1.15 \times 10^{-4}$ radians per position and now turns
$82685^{-126/128} = 1.44 \times 10^{-5}$, precisely 8 times slower, since
$(s^{d/(d-2)})^{(d-2)/d} = s$.

**In Python:**

```python
from lessons.positional import interpolate_positions, ntk_scaled_base, rope_frequencies
# pos' = pos * L_train / L_new
float(interpolate_positions(32_000, trained_len=4_096, new_len=32_768))  # → 4000.0
d, s = 128, 8
# the exponent d/(d-2), and the multiplier s^(d/(d-2))
exponent = d / (d - 2)
round(exponent, 3), round(s**exponent, 2)  # → (1.016, 8.27)
# base' = 10,000 * s^(d/(d-2))
new_base = ntk_scaled_base(10_000, s, d)
round(new_base)  # → 82685
old, new = rope_frequencies(d), rope_frequencies(d, new_base)
# the fastest pair stays at 1 radian per position; the slowest (2i = 126) before and after
float(new[0]), f"{old[-1]:.2e}", f"{new[-1]:.2e}"  # → (1.0, '1.15e-04', '1.44e-05')
# how many times slower the slowest pair now turns
round(float(old[-1] / new[-1]), 6)  # → 8.0
```

YaRN (Peng et al., 2023) goes further, treating each band of frequencies
on its own terms, and underlies many long-context checkpoints;
`lessons.context_extension` covers the scaling methods in code. ALiBi does
without position vectors entirely: it subtracts from each score a penalty
proportional to distance (`lessons.alibi`).

![Line chart of the slowest RoPE pair's angle versus position up to 32,768 for d = 128: with raw positions the line exits the grey band of training angles just after 4,096 and finishes at 8 times the band's top, whereas the interpolated and NTK-scaled lines remain inside it](figures/positional.context_extension.svg)

**Reading it:** position runs along the horizontal axis up to 32,768; the
vertical axis shows how far the slowest pair of a 128-number head has
rotated. The grey band covers every angle seen in training (positions up to
4,096). The raw line exits the band just past 4,096 and ends at 8 times its
top: angles entirely new to the model. The interpolated and NTK-scaled
lines stay within the band throughout, and for this slowest pair they
overlap, because both slow it by exactly 8. Where they differ is the fast
pairs, which interpolation slows and NTK-aware scaling does not touch.

**In code:** `interpolate_positions` shrinks positions before `apply_rope`
sees them; `ntk_scaled_base` returns the bigger base to hand to
`rope_frequencies` or `apply_rope` in its place.

**Why it matters.** This is the cheap route by which models trained on a
few thousand tokens get extended to a hundred thousand or more, with no
need to pretrain them all over again.

## A subtlety: order leaks through the causal mask

**Everyday picture.** Think of a queue in which everyone can see only the
people ahead. The person at the front sees no one else and can conclude
they are first; the person at the back sees the whole line. No one was
handed a number, yet what each of them can see already reveals where they
stand.

**Tiny worked example.** Reuse the two-number vectors from the first
section and switch on a causal mask, so each word attends only to itself
and to earlier words. In "dog bites man", dog is first, sees only itself
and returns its own vector (1, 0). In "man bites dog", dog is last, sees
all three words and returns (0.802, 0.599), as before. One word, two
different outputs: order has crept in. After averaging, the two sentences
have a cosine of 0.970 instead of 1.

```mermaid
flowchart LR
  SC["scores q.k / sqrt(d)"] --> MK{"is the key later than the query?"}
  MK -->|"yes: j comes after i"| BL["masked out: weight 0"]
  MK -->|"no: j is i or earlier"| KEEP["kept"]
  KEEP --> SOFT["softmax over the surviving keys"]
  SOFT --> O["output shaped by how many<br/>words came earlier"]
```

**Reading it:** each score faces one check: does the key come later than
the query? If it does, the score is masked out before the softmax; the
remaining scores become weights. Word $i$ keeps precisely $i + 1$ keys, so
the span it averages over depends on its place: a position signal that
nobody meant to add.

**The math.**

$$
a_{ij} = \frac{e^{s_{ij}}}{\sum_{j' \le i} e^{s_{ij'}}} \ \text{ for } j \le i, \qquad a_{ij} = 0 \ \text{ for } j > i
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $i$, $j$ | row of the query and row of the key, from 0 | in "dog bites man", dog is row 0 |
| $s_{ij}$ | query $i$'s score against key $j$, $q_i \cdot k_j / \sqrt{d}$ | 0.707 for bites scored against itself |
| $a_{ij}$ | how much weight key $j$ gets in query $i$'s output | 1 for dog with itself in row 0 |
| $j' \le i$ | the sum covers only keys at or before the query | row 0's sum has a single term |

**In words:** "each word shares out its attention among itself and the
words before it and nothing else, so the first word has nothing to copy
but itself."

**With the numbers:** in "dog bites man", row 0 (dog) has a single key,
with weight 1 and output (1, 0). Row 1 (bites) gives dog a score of 0 and
itself 0.707, which turn into weights 0.330 and 0.670 and output
(0.330, 0.670). Row 2 (man) sees all three, exactly as without the mask:
(0.752, 0.752).

**In Python:**

```python
import numpy as np
from lessons.attention import causal_mask, scaled_dot_product_attention
vocab = {"dog": [1.0, 0.0], "bites": [0.0, 1.0], "man": [1.0, 1.0]}
def causal_layer(sentence):
    # (3, 2) in, (3, 2) out; word i sees words 0..i only
    X = np.array([vocab[word] for word in sentence.split()])
    return scaled_dot_product_attention(X, X, X, mask=causal_mask(len(X)))[0]
first, second = causal_layer("dog bites man"), causal_layer("man bites dog")
first.round(3).tolist()  # → [[1.000, 0.000], [0.330, 0.670], [0.752, 0.752]]
second.round(3).tolist()  # → [[1.000, 1.000], [0.500, 1.000], [0.802, 0.599]]
# cosine of the two mean vectors: below 1 now
u, v = first.mean(axis=0), second.mean(axis=0)
round(float(u @ v / np.linalg.norm(u) / np.linalg.norm(v)), 3)  # → 0.970
```

Bidirectional attention (BERT-style, with no mask) lacks even this crutch
and is completely blind to order. In the first figure (0.585) the grey bar
shows the same effect inside the 16-number layer.

**In code:** `encode_sentence` with `causal=True` runs the same layer
through `causal_mask` from `lessons.attention`; `order_similarity` reports
its pooled cosine as the bar labelled "causal mask only".

**Why it matters.** A decoder with no position encoding whatsoever
("NoPE") can still work out where it is: Kazemnejad et al. (2023) argue
that the mask by itself lets such a model recover positions, and they found
it can even generalise to inputs longer than those it saw in training. In
this lesson, though, the signal is an accident of a random layer rather
than a design, and most large models still add positions explicitly.

## In 20 seconds

- Without positions, attention is permutation-equivariant: reorder the words
  and the outputs are reordered to match, so "dog bites man" and "man bites
  dog" pool to precisely one and the same vector.
- The 2017 transformer adds fixed sine and cosine codes; GPT-2 and BERT
  learn a table of positions that stops at its final row.
- Today's LLMs use RoPE: q and k are rotated through an angle that grows
  with position, so every score depends only on how far apart the two
  tokens are.
- Since RoPE keeps position in angles, a trained model can be stretched:
  interpolation slows all pairs, NTK-aware scaling and YaRN mainly the slow
  ones, and a short fine-tune completes the job.
- The causal mask lets some order in by itself, yet it is no position
  encoding.

## Self-test questions

??? question "Why does a transformer need any positional information?"
    Attention compares tokens purely by their content, which makes it
    permutation-equivariant: shuffle the input and the output is merely
    shuffled as well. Without positions, word order cannot be seen, and a
    pooled summary of "dog bites man" is identical to one of "man bites
    dog".

??? question "In the toy example, compute dog's output when it comes last."
    Its query (1, 0) faces the keys man (1, 1), bites (0, 1) and dog
    (1, 0): scores 1, 0, 1, which over √2 become 0.707, 0, 0.707; weights
    0.401, 0.198, 0.401; output 0.401·(1, 1) + 0.198·(0, 1) + 0.401·(1, 0)
    = (0.802, 0.599), the same as when dog comes first.

??? question "Why do sinusoidal codes use many frequencies instead of a single one?"
    Quick pairs separate neighbouring positions; slow pairs separate
    distant ones before they can wrap around. Combined, they give each
    position a unique code that changes smoothly, and a shift by k is one
    and the same rotation wherever it starts.

??? question "By hand: with d = 2 and θ = 1, take q = k = (1, 0), place the query at 3 and the key at 7. What is the RoPE score?"
    It is cos(7 − 3) = cos 4 ≈ −0.654. For 103 and 107 it is the same
    −0.654; for 3 and 8 it becomes cos 5 ≈ 0.284.

??? question "How does RoPE encode position, and why is that appealing?"
    It rotates every pair of numbers in q and k through an angle
    proportional to position. The score q·k then depends only on how far
    apart the tokens are, and rotating never changes any vector's length.

??? question "A learned table has 1,024 rows. What happens at position 1,024, and what should you do?"
    There is no row to fetch, so the input cannot be encoded: the request
    errors out or gets truncated. Break the input into chunks that fit.

??? question "A RoPE model trained at 4K has to read 32K. What does interpolation do to its fastest and slowest pairs, and what does NTK-aware scaling do?"
    Interpolation divides every position by 8, so both pairs turn 8 times
    more slowly. NTK-aware scaling raises the base (to about 82,685 when
    d = 128), which keeps the fastest pair at 1 radian per position and
    makes the slowest exactly 8 times slower. Either is normally followed
    by a short fine-tune.

## The papers behind this lesson

- Vaswani et al., 2017, *Attention Is All You Need*,
  [arXiv:1706.03762](https://arxiv.org/abs/1706.03762). The paper that
  introduced the transformer; its section 3.5 defines the sinusoidal codes
  built on this page.
- Su et al., 2021, *RoFormer: Enhanced Transformer with Rotary Position
  Embedding*, [arXiv:2104.09864](https://arxiv.org/abs/2104.09864).
  Proposed RoPE: rotate queries and keys so that attention scores see only
  relative distance.
- Chen et al., 2023, *Extending Context Window of Large Language Models via
  Positional Interpolation*,
  [arXiv:2306.15595](https://arxiv.org/abs/2306.15595). Showed that
  squeezing positions back into the trained range, followed by a brief
  fine-tune, lets RoPE models read far longer contexts.
- Peng et al., 2023, *YaRN: Efficient Context Window Extension of Large
  Language Models*, [arXiv:2309.00071](https://arxiv.org/abs/2309.00071).
  Improved RoPE context extension by handling fast and slow frequencies
  differently, at a fraction of the training cost.
- Press et al., 2021, *Train Short, Test Long: Attention with Linear Biases
  Enables Input Length Extrapolation*,
  [arXiv:2108.12409](https://arxiv.org/abs/2108.12409). Swapped position
  vectors for a distance penalty on attention scores, which extrapolates to
  longer inputs.
- Kazemnejad et al., 2023, *The Impact of Positional Encoding on Length
  Generalization in Transformers*,
  [arXiv:2305.19466](https://arxiv.org/abs/2305.19466). Found that decoders
  without any explicit position encoding (NoPE) can generalise to longer
  inputs.

## Further reading

- EleutherAI, *Rotary Embeddings: A Relative Revolution*, an approachable
  blog post about RoPE: <https://blog.eleuther.ai/rotary-embeddings/>
- Llama 3 team, 2024, *The Llama 3 Herd of Models*,
  [arXiv:2407.21783](https://arxiv.org/abs/2407.21783): the source of the
  long-context recipe quoted above (six stages, about 800B tokens) and of
  the 500,000 base.
- Liu et al., 2023, *Lost in the Middle: How Language Models Use Long
  Contexts*, [arXiv:2307.03172](https://arxiv.org/abs/2307.03172): evidence
  that a long window is used unevenly.
- `lessons.rope` for RoPE inside attention in code, and
  `lessons.context_extension` for interpolation, NTK-aware scaling and YaRN
  in code.
"""

from __future__ import annotations

import hashlib

import numpy as np

from lessons import _checks
from lessons._show import banner, matrix, say, table, takeaway
from lessons.attention import causal_mask, scaled_dot_product_attention

SCHEMES = ("none", "sinusoidal", "rope")  # the ways encode_sentence lets position in
D_DEMO = 16  # width of the toy attention layer behind order_similarity


# ---------------------------------------------------------------------------
# Order blindness: one attention layer over a tiny sentence
# ---------------------------------------------------------------------------


def _hashed_normals(label: str, n: int) -> np.ndarray:
    """n standard-normal numbers fixed by `label` alone, shape (n,).

    The bits come from SHAKE-256 of the label (never Python's salted `hash`,
    never numpy's generator streams), so every run on every machine gets the
    same numbers; Box-Muller turns pairs of uniforms into normals.
    """
    raw = np.frombuffer(hashlib.shake_256(label.encode("utf-8")).digest(16 * n), dtype="<u8")
    # uniforms strictly inside (0, 1)  # (2n,)
    u = (raw.astype(float) + 0.5) / 2.0**64
    # Box-Muller: z = sqrt(-2 ln u1) * cos(2 pi u2)
    return np.sqrt(-2.0 * np.log(u[0::2])) * np.cos(2.0 * np.pi * u[1::2])


def word_vector(word: str, d: int = D_DEMO) -> np.ndarray:
    """A fixed pseudo-random embedding for `word`: a stand-in for a learned
    embedding table, identical on every run and every machine.

    Args:
        word: any string.
        d: the width, a positive even integer.

    Returns:
        (d,) float array.
    """
    d = _checks.even_width(d)
    return _hashed_normals(f"word:{word}:{d}", d)


# One fixed, untrained single-head attention layer. Weights follow nn.Linear:
# W is (d_out, d_in) and is applied as X @ W.T. The entries ~ N(0, 1/d) were
# drawn as (d_in, d_out) and are stored transposed, so the page's numbers stand.
_W_Q, _W_K, _W_V = ((_hashed_normals(f"layer:{name}", D_DEMO * D_DEMO).reshape(D_DEMO, D_DEMO) / np.sqrt(D_DEMO)).T
                    for name in ("W_q", "W_k", "W_v"))


def encode_sentence(sentence: str, scheme: str = "none", causal: bool = False) -> np.ndarray:
    """One attention layer's outputs for the words of `sentence`.

    Each word is `word_vector(word)`; the layer's fixed weights W_q, W_k, W_v
    are (d_out, d_in) = (D_DEMO, D_DEMO), applied as X @ W.T.

    Args:
        sentence: words separated by spaces (at least one).
        scheme: "none" (word vectors only), "sinusoidal" (add the code of each
            word's position before the layer) or "rope" (rotate q and k by
            position inside the layer; v stays as it is).
        causal: if True, each word sees only itself and the words before it.

    Returns:
        (n_words, D_DEMO) float array, one output row per word.
    """
    _checks.one_of(scheme, "scheme", SCHEMES)
    words = sentence.split()
    if not words:
        raise ValueError("sentence must contain at least one word (words separated by spaces), got an empty string")
    X = np.stack([word_vector(w) for w in words])  # (n, d)
    n = len(words)
    if scheme == "sinusoidal":
        # x_pos = word vector + PE(pos)
        X = X + sinusoidal_encoding(n, D_DEMO)
    Q, K, V = X @ _W_Q.T, X @ _W_K.T, X @ _W_V.T  # (n, d) each
    if scheme == "rope":
        # turn q and k by their positions 0..n-1; v carries plain content
        Q, K = apply_rope(Q), apply_rope(K)
    out, _ = scaled_dot_product_attention(Q, K, V, mask=causal_mask(n) if causal else None)
    return out


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    # cos = a.b / (|a| |b|)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def order_similarity() -> dict[str, float]:
    """Cosine of the pooled (mean) outputs of "dog bites man" and "man bites dog".

    Returns:
        {label: cosine} for "no positions", "sinusoidal", "RoPE" and "causal
        mask only"; 1.0 means the layer cannot tell the sentences apart.
    """
    settings = {"no positions": ("none", False), "sinusoidal": ("sinusoidal", False),
                "RoPE": ("rope", False), "causal mask only": ("none", True)}
    return {label: _cosine(encode_sentence("dog bites man", scheme, causal).mean(axis=0),
                           encode_sentence("man bites dog", scheme, causal).mean(axis=0))
            for label, (scheme, causal) in settings.items()}


# ---------------------------------------------------------------------------
# The clock's hands: one speed per pair, one angle per (position, pair).
# Sinusoidal codes and RoPE share both.
# ---------------------------------------------------------------------------


def rope_frequencies(d: int, base: float = 10000.0) -> np.ndarray:
    """Each pair's turning speed theta_i = base^(-2i/d), in radians per position.

    The sinusoidal codes call the same speeds omega_i; RoPE turns pair i of q
    and k by position * theta_i. Pair 0 is the fastest (1 radian per position).

    Args:
        d: the width, a positive even integer (d/2 pairs).
        base: a positive number (10,000 unless said; `rope_theta` in a config).

    Returns:
        (d/2,) float array, from 1 down to base^(-(d-2)/d).
    """
    d = _checks.even_width(d)
    base = _checks.positive(base, "base")
    # theta_i = base^(-2i/d)
    return base ** (-np.arange(0, d, 2) / d)


def angle_table(positions, speeds: np.ndarray) -> np.ndarray:
    """How far each pair has turned at each position: position * speed.

    Args:
        positions: a number or an array of positions, shape (...); fractions
            (interpolated positions) are fine.
        speeds: (d/2,) radians per position, e.g. `rope_frequencies(d, base)`.

    Returns:
        (..., d/2) float array: entry [p, i] is positions[p] * speeds[i].
    """
    # angle = pos * theta_i for every position and pair
    return np.asarray(positions, dtype=float)[..., None] * np.asarray(speeds, dtype=float)


# ---------------------------------------------------------------------------
# Sinusoidal codes: a clock with many hands
# ---------------------------------------------------------------------------


def sinusoidal_encoding(n_positions: int, d: int, base: float = 10000.0) -> np.ndarray:
    """The 2017 transformer's fixed position codes for positions 0..n_positions-1.

    Column 2i holds sin(pos * omega_i) and column 2i+1 holds cos(pos * omega_i),
    with omega_i = base^(-2i/d) (`rope_frequencies`).

    Args:
        n_positions: how many positions, an integer >= 0.
        d: the code's width, a positive even integer.
        base: a positive number.

    Returns:
        (n_positions, d) float array, one code per row.
    """
    n_positions = _checks.count(n_positions, "n_positions", low=0)
    d = _checks.even_width(d)
    # pos * omega_i for every position and pair  # (n_positions, d/2)
    angles = angle_table(np.arange(n_positions), rope_frequencies(d, base))
    # interleave: column 2i = sin, column 2i+1 = cos  # (n_positions, d)
    return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n_positions, d)


# ---------------------------------------------------------------------------
# RoPE: turn q and k by an angle that grows with position
# ---------------------------------------------------------------------------


def rope_angles(x, positions=None, base: float = 10000.0) -> np.ndarray:
    """The angle positions * theta_i by which each pair of `x` turns.

    Every RoPE function on the site reads its angles here, so x and the
    positions are checked in one place.

    Args:
        x: one vector (d,) or a stack (..., seq, d); d even.
        positions: None (0 for a vector, 0..seq-1 for a stack), a number
            (every row at that position), or one position per row, shape
            (seq,). A vector with n positions gives n angle rows.
        base: the RoPE base.

    Returns:
        (d/2,), (seq, d/2) or (n, d/2) float array of angles in radians.
    """
    shape = np.shape(x)
    if not shape:
        raise ValueError("x must be a vector (d,) or a stack (..., seq, d), got a scalar")
    d = _checks.even_width(shape[-1], "the last axis of x (d)")
    if positions is None:
        positions = 0 if len(shape) == 1 else np.arange(shape[-2])
    pos = np.asarray(positions, dtype=float)
    if pos.ndim > 1 or (pos.ndim == 1 and len(shape) >= 2 and pos.shape[0] != shape[-2]):
        rows = shape[-2] if len(shape) >= 2 else "n"
        raise ValueError(f"positions must be a number or one per row of x, shape ({rows},); got shape {pos.shape}")
    return angle_table(pos, rope_frequencies(d, base))


def apply_rope(x, positions=None, base: float = 10000.0) -> np.ndarray:
    """RoPE with interleaved pairs: turn each pair (2i, 2i+1) of x by positions * theta_i.

    Args:
        x: one vector (d,), a stack (seq, d), or a stack with leading batch and
            head axes (..., seq, d); d even.
        positions: as in `rope_angles`: None (0, or 0..seq-1), a number, or one
            per row (seq,). Fractional positions (interpolation) are fine.
        base: the RoPE base.

    Returns:
        float array shaped like x; a vector with n positions gives (n, d),
        one turned copy per position.
    """
    x = np.asarray(x, dtype=float)
    angles = rope_angles(x, positions, base)  # (d/2,) or (seq, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]  # (..., seq, d/2) each
    # (x'_2i, x'_2i+1) = (cos a * x_2i - sin a * x_2i+1, sin a * x_2i + cos a * x_2i+1)
    turned = np.stack([even * cos - odd * sin, even * sin + odd * cos], axis=-1)  # (..., d/2, 2)
    return turned.reshape(*turned.shape[:-2], -1)


# ---------------------------------------------------------------------------
# Context extension: keep long positions inside the trained angles
# ---------------------------------------------------------------------------


def interpolate_positions(positions, trained_len: float, new_len: float) -> np.ndarray:
    """Position interpolation: pos' = pos * trained_len / new_len.

    A model trained on 4,096 tokens, run at 32,768, reads position 32,000 as
    4,000, an angle it has seen; neighbours end up 1/8 of a position apart.

    Args:
        positions: a number or an array of positions, any shape.
        trained_len: the length trained on, > 0.
        new_len: the length to read, > 0.

    Returns:
        float array shaped like positions.
    """
    trained_len = _checks.positive(trained_len, "trained_len")
    new_len = _checks.positive(new_len, "new_len")
    # pos' = pos * L_train / L_new
    return np.asarray(positions, dtype=float) * (trained_len / new_len)


def ntk_scaled_base(base: float, scale: float, d: int) -> float:
    """NTK-aware scaling: the raised base base' = base * scale^(d/(d-2)).

    With base', the fastest pair (theta_0 = 1) keeps its speed and the slowest
    pair, theta = base^(-(d-2)/d), turns exactly `scale` times slower.

    Args:
        base: the trained RoPE base, > 0.
        scale: the stretch, new length over trained length, > 0.
        d: the rotary width, an even integer >= 4.

    Returns:
        the new base, a float.
    """
    base = _checks.positive(base, "base")
    scale = _checks.positive(scale, "scale")
    d = _checks.count(_checks.even_width(d), "d", low=4)
    # base' = base * s^(d/(d-2))
    return float(base * scale ** (d / (d - 2)))


# ---------------------------------------------------------------------------
# Figures (figures_build turns each into docs/figures/positional.<name>.svg)
# ---------------------------------------------------------------------------


def figures() -> dict:
    """The page's five figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    blue, red, grey, ink = "#2563eb", "#dc2626", "#9ca3af", "#111827"
    figs = {}

    # 1. order blindness: one bar per way of letting order in
    sims = order_similarity()
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.bar(list(sims), list(sims.values()), color=[red, blue, blue, grey])
    for i, value in enumerate(sims.values()):
        ax.text(i, value + 0.01, f"{value:.3f}", ha="center", va="bottom")
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("cosine of the pooled outputs")
    ax.set_title('"dog bites man" vs "man bites dog" after one attention layer')
    figs["order_blindness"] = fig

    # 2. the sinusoidal table as a heatmap: rows are positions, columns dimensions
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    image = ax.imshow(sinusoidal_encoding(100, 64), aspect="auto", cmap="RdBu", vmin=-1, vmax=1,
                      interpolation="nearest")
    ax.set_xlabel("dimension (fast pairs on the left, slow pairs on the right)")
    ax.set_ylabel("position")
    ax.set_title("Sinusoidal position codes, d = 64")
    fig.colorbar(image, ax=ax, label="value")
    figs["sinusoidal_heatmap"] = fig

    # 3. RoPE scores against distance, for three starting positions
    q, k = _hashed_normals("figure:q", 64), _hashed_normals("figure:k", 64)
    offsets = np.arange(0, 48)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for start, style, width in ((0, "-", 4.0), (100, "--", 2.5), (1000, ":", 1.5)):
        # score(m, m + offset) = <R_m q, R_(m+offset) k>
        scores = apply_rope(k, start + offsets) @ apply_rope(q, start)  # (48,)
        ax.plot(offsets, scores, style, lw=width, label=f"query at position {start}")
    ax.set_xlabel("distance from query to key (n - m)")
    ax.set_ylabel("score q'.k'")
    ax.set_title("With RoPE the score depends only on the distance")
    ax.legend(frameon=False)
    figs["rope_relative"] = fig

    # 4. how far each pair has turned, wrapped to one full turn
    positions = np.arange(0, 200)
    theta = rope_frequencies(64)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for i in (0, 4, 12, 31):
        ax.plot(positions, np.mod(positions * theta[i], 2 * np.pi), lw=1.5,
                label=f"pair {i}: theta = {theta[i]:.2g}")
    ax.set_xlabel("position")
    ax.set_ylabel("angle turned, mod 2 pi (rad)")
    ax.set_title("RoPE, d = 64: fast pairs for local order, slow pairs for long range")
    ax.set_ylim(0, 9)  # headroom for the legend above the saw-teeth
    ax.legend(frameon=False, fontsize=8, loc="upper left", ncol=2)
    figs["rope_frequencies"] = fig

    # 5. the slowest pair's angle up to 32k: raw, interpolated, NTK-scaled
    d, trained_len, new_len = 128, 4096, 32768
    positions = np.arange(0, new_len + 1, 256)
    slowest = rope_frequencies(d)[-1]
    slowest_ntk = rope_frequencies(d, ntk_scaled_base(10000.0, new_len / trained_len, d))[-1]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.axhspan(0, trained_len * slowest, color=grey, alpha=0.35, label="angles seen in training (up to 4,096)")
    ax.plot(positions, positions * slowest, color=red, lw=2, label="raw positions")
    ax.plot(positions, interpolate_positions(positions, trained_len, new_len) * slowest, color=blue, lw=3,
            label="position interpolation")
    ax.plot(positions, positions * slowest_ntk, "--", color=ink, lw=1.5, label="NTK-aware base")
    ax.set_xlabel("position")
    ax.set_ylabel("angle of the slowest pair (rad)")
    ax.set_title("Stretching a 4k RoPE model to 32k, d = 128")
    ax.legend(frameon=False, fontsize=8, loc="upper left")
    figs["context_extension"] = fig
    return figs


# ---------------------------------------------------------------------------
# Narrated walkthrough: python -m lessons.positional
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. Attention alone reads a bag of words")
    a = encode_sentence("dog bites man")
    b = encode_sentence("man bites dog")
    say(f"""One attention layer, no positions. The output for "dog" is the same
        vector whether it stands first or last (largest difference
        {np.abs(a[0] - b[2]).max():.1e}), so the pooled sentences match.""")
    table(["how order gets in", "cosine(dog bites man, man bites dog)"], list(order_similarity().items()))
    takeaway("Without positions attention sees a set: shuffle the words and the outputs only shuffle.")

    banner("2. Sinusoidal codes: a clock with many hands")
    matrix("positions 0, 1, 2 for d = 4 (fast pair, then slow pair)", sinusoidal_encoding(3, 4))
    pe = sinusoidal_encoding(100, 32)
    say(f"""A shift of 3 gives the same dot product wherever it starts:
        PE(10).PE(13) = {pe[10] @ pe[13]:.4f} and PE(70).PE(73) = {pe[70] @ pe[73]:.4f}.""")

    banner("3. RoPE by hand: q = k = (1, 0), one pair turning 1 radian per position")
    q = k = np.array([1.0, 0.0])
    table(["query at", "key at", "score"],
          [(m, n, apply_rope(q, m) @ apply_rope(k, n)) for m, n in ((3, 7), (103, 107), (3, 8))])
    takeaway("RoPE turns q and k by their positions, so a score only sees the distance between them.")

    banner("4. Stretching a 4k model to 32k")
    say(f"""Interpolation reads position 32,000 as
        {interpolate_positions(32000, 4096, 32768):,.0f}. NTK-aware scaling raises the
        base from 10,000 to {ntk_scaled_base(10000.0, 8, 128):,.0f} for d = 128: pair 0
        still turns 1 radian per position, the slowest pair turns
        {rope_frequencies(128)[-1] / rope_frequencies(128, ntk_scaled_base(10000.0, 8, 128))[-1]:.0f}x slower.""")


if __name__ == "__main__":
    demo()
