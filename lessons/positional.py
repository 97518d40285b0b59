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
size while the logs stay clean (`lessons.measured` shows this cliff on small
trained models); an embedding model rejects or silently cuts
a long document; you plan to fine-tune on documents longer than anything the
model met in training; a converted or re-served checkpoint answers well on
short prompts and drifts on long ones. The giveaway is output that is fine
at a few thousand tokens and then degrades, without a single error raised.

**Your options.** Rows one to four were settled by whoever built the model,
so you pick among them only by picking a model. The last two are what you
or your provider can still do about length later on:

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Learned absolute positions (GPT-2, BERT) | Trains a separate vector for every slot and adds it to the token's vector | Easy to build, and good within the length it was trained on | Nothing exists beyond the final row: GPT-2's config has 1,024 rows, BERT's 512 | The architecture; `max_position_embeddings` in the config |
| Sinusoidal codes (the original 2017 transformer) | Adds a fixed blend of sines and cosines that is different at each position | Costs no parameters; any position at all has a code | Where a word sits gets mixed into what it means, so scores change with absolute position; newer models rarely choose it | Fixed in the architecture; nothing to configure |
| RoPE, rotary position embedding (Llama, Mistral, Qwen) | Gives every query and key a rotation whose angle is set by its position, so a score registers only the gap between two tokens | Relative distance comes for free, and the window can be stretched after training | Past the trained range the angles are unfamiliar, so stretching calls for a scaling recipe | The architecture; `rope_theta` and `rope_parameters` in the config (`rope_scaling` in older configs) |
| ALiBi | Uses no position vectors; instead takes off each attention score a penalty that rises with distance | Runs past its training length with no table and no angles to run out of | A fixed bias toward nearby tokens; few of today's models use it | The architecture; see `lessons.alibi` |
| Stretching RoPE after training (linear, dynamic, YaRN, llama3, ...) | Rescales the positions or the turning speeds of RoPE so that a long input reuses angles the model knows | A longer window without pretraining again | Linear scaling is position interpolation, which relies on a fine-tune on long text (Chen et al., 2023); every recipe costs some quality, to be measured at your length | `rope_type` and `factor` inside `rope_parameters`; see `lessons.context_extension` |
| Long-context pretraining | The provider widens the window in stages while pretraining | The genuine article: a window the model was trained to use | A long and costly training phase; all you ever see is the resulting figure on the model card | The model's vendor |

**How to choose.** Begin with your own situation.

- Calling a hosted API: there is no decision to make, yet the advertised
  window only tells you what the vendor trained and tested, not how your
  task will fare. Check quality at the lengths you really send.
- Picking an open model: look at `max_position_embeddings` and
  `rope_parameters` in its config. A scaling entry with a factor tells you
  the model learned on shorter text and was stretched afterwards, so try it
  at your length rather than taking the stretched figure on trust.
- Serving beyond the trained length: raising the engine's length limit by
  itself is not enough. Apply the recipe the checkpoint was extended with,
  and test before you release. "Dynamic" scaling is not one recipe:
  Hugging Face transformers recomputes the base from the current length once
  it passes `max_position_embeddings` (src/transformers/modeling_rope_utils.py),
  while vLLM computes one base for
  `max_position_embeddings` times the factor, once, and applies it to every
  prompt, short ones included
  (vllm/model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py);
  `lessons.context_extension` gives both.
- Documents longer than the window, and training is an option: a stretching
  recipe plus a short fine-tune on long text (`lessons.context_extension`
  compares them), then a needle-in-a-haystack test and your own task at the
  length you are aiming for.
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
- Stretching. The recipe itself is a few numbers in the config; the
  fine-tune on long documents and the evaluation at the new length are the
  bill. `lessons.context_extension` quotes the papers' budgets.
- Quality. RoPE's often-quoted "long-term decay" is a ceiling, not a rule:
  Su et al. (2021, section 3.4.3) prove that the largest score a pair can
  reach falls with distance, and a key that matches its query does score
  less the farther it sits, but an unrelated key scores just as strongly far
  away as nearby (Level 2 measures both). Models also use a long window
  unevenly: Liu et al. (2023, *Lost in the Middle*) found information is used
  best when placed at the beginning or end of a long prompt and worst when it
  is buried in the middle.

**What breaks.**

- **Falling off the table.** A learned table with 1,024 rows holds nothing
  for position 1,024, so the request is rejected or the library quietly
  truncates the input. Fix: split the input into chunks.
- **Overrunning the trained angles.** RoPE never refuses anything; it just
  gets worse without warning. In a head of width 128, the slowest pair leaves
  the angles it saw in training right after position 4,096 and reaches 8
  times the largest of them at 32,768. Chen et al. (2023) report that
  extrapolating like this can drive attention scores to catastrophically
  large values. Fix: a stretching recipe, then a fine-tune.
- **Wrong scaling at serving time.** Lose or mistype the `rope_parameters`
  of an extended model and it meets positions it never learned. Fix: deploy
  the config together with the weights, untouched.
- **Over-interpolating.** Interpolation divides every frequency by one
  common factor, smearing the fast ones that encode local word order. Fix:
  a recipe that leaves the fast pairs alone and stretches only the slow ones,
  such as YaRN (`lessons.context_extension`).
- **Order lost in pooling.** Average what an order-blind layer outputs and
  "dog bites man" can no longer be told from "man bites dog": in this
  lesson's layer without positions their pooled outputs have a cosine of
  exactly 1.000. Fix: add positions before anything gets pooled.
- **Trusting the causal mask to carry order.** Inside a decoder, masking
  alone already separates the two sentences (a cosine of 0.585 in the same
  layer), but that is a by-product rather than a designed position signal.

![Bar chart of how alike the pooled outputs of "dog bites man" and "man bites dog" are: identical without positions, told apart with sinusoidal codes or RoPE, and told apart by accident with only a causal mask](figures/positional.order_blindness.svg)

**Reading it:** each bar compares the averaged output of one small attention
layer with random, untrained weights for "dog bites man" with that for "man
bites dog"; a bar at 1 means the layer sees the same thing in both. The one
verdict the bars give is whether a bar is exactly 1. Without positions it is,
1.000: the layer cannot tell who bit whom (*Order lost in pooling*).
Sinusoidal codes (0.921) and RoPE (0.990) bring it below 1, so the two
sentences differ. How far below is no ranking. An average over the sentence
hides most of what RoPE does: RoPE turns only the queries and keys, so both
sentences still average the same three word values, only weighted
differently. Word by word the difference is larger: with RoPE, "dog" comes
out of the layer with a cosine of 0.963 between the two sentences, where
without positions it comes out the same (Level 2 computes both). The lowest
bar, the causal mask alone (0.585), is no position scheme: each word sees a
different set of earlier words in each sentence, a side effect (*Trusting
the causal mask to carry order*). So the first question about any model is
which position scheme it has; the rest of this guide is about what that
scheme allows past the trained length.

**In the wild.** The first transformer (Vaswani et al., 2017) used
sinusoidal codes. GPT-2 and BERT moved to learned tables, and that is why
each one has a hard maximum length. Llama, Mistral and Qwen rely on RoPE;
for Llama 3 the base (`rope_theta` in the config) went up to 500,000
(Llama 3 team, 2024). Hugging Face configs record a stretched model under
`rope_parameters` (`rope_scaling` in older files), with a `rope_type`, a
factor and the `original_max_position_embeddings` used in training;
`lessons.context_extension` reads these blocks and the serving flags that
change them. ALiBi (Press et al., 2021) and decoders with no position signal
at all (NoPE) are the subject of `lessons.alibi`. All of these papers are
linked at the bottom of the page.

**Go deeper.** Level 2 shows the bag-of-words problem on a small attention
layer, builds sinusoidal codes as a many-handed clock, verifies by hand that
RoPE only sees distance, tests RoPE's "long-term decay", measures how added
codes leak absolute position into the score while rotations do not, and
previews stretching a 4K model to 32K. Readers who only want to judge a
model card or serve a model safely already have what they need and can stop
here.

## Level 2: how it works, from scratch

We begin with the problem itself (attention is handed a bag of tiles rather
than a sentence), then bring in the families of position schemes one at a
time: fixed codes, learned tables and rotations; we test two claims about
them (RoPE's decay, and what added codes do to a score), and end with a
preview of how rotations get stretched.

## The problem: attention sees a bag, not a sentence

**Everyday picture.** Think of Scrabble tiles. Empty "dog bites man" into a
bag and you hold exactly the tiles you would get from "man bites dog".
Someone who is only ever shown the bag cannot know whether it held the dull
news or the headline. Without help, attention is that someone.

**Tiny worked example.** Let each word be two numbers: dog is (1, 0),
bites is (0, 1) and man is (1, 1). The simplest possible summary of a
sentence is the mean of its word vectors:

| sentence | vectors added up | mean |
|---|---|---|
| dog bites man | (1, 0) + (0, 1) + (1, 1) = (2, 2) | (0.67, 0.67) |
| man bites dog | (1, 1) + (0, 1) + (1, 0) = (2, 2) | (0.67, 0.67) |

Sums do not care about order, and attention does no better:
`lessons.attention` shows that without positions it is
permutation-equivariant, $\text{Attn}(PX) = P\,\text{Attn}(X)$. Shuffle the
words and its outputs are only shuffled, so dog gets (0.802, 0.599) whether
it comes first or last, and the pooled sentences match.

**In Python:** the same holds for a larger layer, with fixed random weights
and 16-number word vectors; it is the layer that `encode_sentence` runs.

```python
import numpy as np
from lessons.positional import encode_sentence, order_similarity
vocab = {"dog": [1.0, 0.0], "bites": [0.0, 1.0], "man": [1.0, 1.0]}
# the plain mean of the word vectors: the same in either order
vectors = [vocab[word] for word in "man bites dog".split()]
np.mean(vectors, axis=0).round(2).tolist()  # → [0.67, 0.67]
# the 16-wide layer with no positions  # (3, 16) per sentence
dbm, mbd = (
    encode_sentence(s, scheme="none")
    for s in ("dog bites man", "man bites dog")
)
# dog is the first row of one output and the last row of the other
bool(np.allclose(dbm[0], mbd[-1]))  # → True
sims = order_similarity()
{label: round(cos, 3) for label, cos in sims.items()}
# → {'no positions': 1.000, 'sinusoidal': 0.921, 'RoPE': 0.990,
#   'causal mask only': 0.585}
# word by word, with RoPE: dog's output in the two sentences
rd, rm = (
    encode_sentence(s, scheme="rope")
    for s in ("dog bites man", "man bites dog")
)
first, last = rd[0], rm[-1]
cos = first @ last / (np.linalg.norm(first) * np.linalg.norm(last))
round(float(cos), 3)  # → 0.963
```

![Bar chart comparing the pooled outputs of the two sentences by cosine: 1.000 without positions, 0.921 with sinusoidal codes, 0.990 with RoPE and 0.585 with only a causal mask](figures/positional.order_blindness.svg)

**Reading it:** every bar takes the mean attention output of "dog bites
man" and that of "man bites dog" and measures their cosine similarity; 1
means they point in exactly the same direction. Without positions the bar
sits at 1.000, so the layer sees no difference whatsoever. Sinusoidal codes
(0.921) and RoPE (0.990) bring it under 1, so the two sentences now register
as different; the size of the drop comes from this particular random layer
and does not rank the schemes. The grey bar (0.585) adds no positions at
all, only a causal mask: a word that sees only the words before it sees a
different set in each sentence, so some order gets through by accident
(`lessons.alibi` takes this apart under NoPE).

**In code:** `word_vector` assigns each word a fixed pseudo-random vector,
`encode_sentence` passes a sentence through one attention layer under the
chosen scheme (`causal=True` adds the mask), and `order_similarity` averages
each sentence's outputs and compares the two averages, which produces the
bars.

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
flowchart TB
  W["word"] --> EMB["embedding table:<br/>the word's meaning"]
  POS["position 0, 1, 2, ..."] --> WAVE["sines and cosines<br/>at many speeds:<br/>the word's place"]
  EMB --> SUM(("+"))
  WAVE --> SUM
  SUM --> BLK["the stack of transformer blocks"]
```

**Reading it:** two independent lookups join at the plus sign. The left
path supplies *what* the word is, the right path *where* it stands, and
their sum is a single vector holding both. Every later layer sees only that
sum, so position turns into part of the content that attention compares.

**The math.** Imagine a point travelling round a unit circle (radius 1).
How far it has turned is counted in **radians** (one complete turn is
$2\pi \approx 6.28$). The angle's **cosine** is how far the point sits to
the right of the centre and its **sine** how far above it; both stay within
−1 and +1, and both start over once every full circuit is done.

$$
\begin{gathered}
PE_{(pos,\,2i)} = \sin(pos\cdot\omega_i), \qquad PE_{(pos,\,2i+1)} = \cos(pos\cdot\omega_i),
\\ \omega_i = \frac{1}{10000^{2i/d}}
\end{gathered}
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
sinusoidal_encoding(3, 4).round(3).tolist()
# → [[0.000, 1.000, 0.000, 1.000], [0.841, 0.540, 0.010, 1.000],
#   [0.909, -0.416, 0.020, 1.000]]
# dot product across a gap of 3, starting at 10 and at 70  # (100, 32)
table = sinusoidal_encoding(100, 32)
gap3 = lambda start: round(float(table[start] @ table[start + 3]), 4)
gap3(10), gap3(70)  # → (12.2724, 12.2724)
# closed form: the sum over the 16 pairs of cos(3 * omega_i)
round(float(np.cos(3 * 10000.0 ** (-np.arange(0, 32, 2) / 32)).sum()), 4)
# → 12.2724
```

Moving k positions along rotates every (sine, cosine) pair through the same
angle $k\omega_i$, no matter where you begin, so **the dot product of two
codes is fixed by the gap between them alone**.

![Heatmap of the sinusoidal codes of positions 0 to 99 with d = 64: the leftmost columns alternate between red and blue within a few positions while the rightmost hardly change, so every row is its own fingerprint and adjacent rows resemble each other](figures/positional.sinusoidal_heatmap.svg)

**Reading it:** rows are positions (0 at the top), columns are the 64
numbers of a code, and colour shows the value, from −1 (blue) through 0 (dark) to +1 (red).
The leftmost columns switch colour within a few rows: quick hands. The
rightmost columns stay nearly constant over all 100 rows: slow hands.
Because no two rows coincide, each position gets a fingerprint of its own;
because adjacent rows are alike, nearby positions get nearby codes.

**In code:** `rope_frequencies` gives the speeds $\omega_i$ (RoPE reuses
them below), `angle_table` multiplies each position by each pair's speed in a
single broadcast, and `sinusoidal_encoding` writes the sines of those angles
to the even columns and the cosines to the odd ones.

**Why it matters.** Fixed codes cost no training and reach any position,
and the dot product of two codes depends on their gap alone. That does not
make attention relative: the model never compares two bare codes, it
compares (word + code) projected by $W_q$ with (word + code) projected by
$W_k$, and the terms that mix a word with a code, or pass the codes through
the projections, change with where the pair sits. The section on added codes
below measures that leak; RoPE is built so that it cannot happen.

## Learned absolute positions: numbered seats

**Everyday picture.** Picture a theatre. Every seat carries its own
numbered plaque, and the hall was built with only so many of them; hold a
ticket for a seat beyond the last row and there is simply nowhere to sit.

**Tiny worked example.** GPT-2 stores a table of 1,024 position vectors,
each 768 numbers long: 786,432 extra parameters, learned in training like
any other weight. The word at position 5 gets row 5 added to it. For
position 1,024 there is no row.

**The math.**

$$
x_{pos} = E_{\text{word}} + P_{pos}
$$

**Symbols**

| Symbol | Meaning here | In the example (GPT-2) |
|---|---|---|
| $E_{\text{word}}$ | the word's entry in the vocabulary table, carrying its meaning | 768 numbers |
| $P_{pos}$ | entry $pos$ of the position table, learned in training and carrying the word's place | 768 numbers; rows 0 to 1,023 exist |
| $+$ | entry-by-entry sum of the two | |
| $x_{pos}$ | what the first transformer block is given | 768 numbers |

**In words:** "what goes into the model is the word's meaning with its
seat's learned vector added on."

**With the numbers:** in a 2-number toy, $E_{\text{dog}}$ = (0.5, −0.2) and
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

**Why it matters.** Easy to build and effective within the trained length,
a learned table cannot reach even one position past it. That hard limit is
what pushed the field toward RoPE. Like sinusoidal codes, a learned row is
added to the word, so it leaks absolute position into the score in the
same way.

## RoPE (rotary position embedding): rotate q and k so only the distance counts

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
flowchart TB
  T["token vector $$x$$ at position $$m$$"] --> QP["$$q = W_q x$$"]
  T --> KP["$$k = W_k x$$"]
  T --> VP["$$v = W_v x$$"]
  QP --> QR["rotate each pair<br/>of $$q$$ by $$m\theta_i$$"]
  KP --> KR["rotate each pair<br/>of $$k$$ by $$m\theta_i$$"]
  QR --> DOT["score $$q' \cdot k'$$:<br/>a function of<br/>the gap alone"]
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
round(float(q_at_3 @ k_at_7), 3), round(float(np.cos(7 - 3)), 3)
# → (-0.654, -0.654)
```

The reason only the gap is left: take a **dot product** (pair up the
entries of two vectors, multiply, and add; it is large when they point
alike) of q rotated by a with k rotated by b, and you get the same number
as from q rotated by a − b against the unrotated k. In symbols:

$$
\langle R_m q,\; R_n k\rangle = \langle R_{m-n}\, q,\; k\rangle
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $q$, $k$ | the query and the key before any rotation | both (1, 0) |
| $m$, $n$ | where the query stands and where the key stands | 3 (query), 7 (key) |
| $R_m$ | "rotate each pair through its speed times $m$" | a 3-radian rotation |
| $m - n$ | the gap: query position minus key position (the site's one convention) | −4 |
| $R_{m-n}$ | a rotation by the gap alone | a −4-radian rotation |
| $\langle a, b \rangle$ | dot product of $a$ with $b$ (also written $a \cdot b$) | |

**In words:** "a query at *m* scored against a key at *n* gives exactly
what you get by keeping the key fixed and rotating the query through
*m − n*, the gap between them: query position minus key position."

**In Python:**

```python
import numpy as np
from lessons.positional import apply_rope
q = k = np.array([1.0, 0.0])
# <R_m q, R_n k> for three (m, n) placements
placements = [(3, 7), (103, 107), (3, 8)]
[round(float(apply_rope(q, m) @ apply_rope(k, n)), 3) for m, n in placements]
# → [-0.654, -0.654, 0.284]
# <R_(m-n) q, k>: rotate only the query, by the gap m - n = 3 - 7
round(float(apply_rope(q, 3 - 7) @ k), 3)  # → -0.654
# 64-number vectors, all 32 pairs at once, both shifted by 500
rng = np.random.default_rng(0)
a, b = rng.standard_normal((2, 64))
bool(
    np.isclose(
        apply_rope(a, 3) @ apply_rope(b, 7),
        apply_rope(a, 503) @ apply_rope(b, 507),
    )
)
# → True
```

`apply_rope` handles a single vector, a stack of vectors with one position
per row, or an entire (batch, heads, seq, d) block, using a few
element-wise lines and no matrix multiplication.

![Line chart of the RoPE score versus the gap m − n, query position minus key position, for queries placed at positions 1,047, 1,100 and 2,000: the three curves overlap exactly](figures/positional.rope_relative.svg)

**Reading it:** the horizontal axis is the gap m − n, query position minus
key position, for keys at or before the query; every curve uses the same q
and k (64 numbers each), with the query starting somewhere else: at 1,047,
1,100 or 2,000. The curves sit exactly on top
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
[round(float(theta[i]), 5) for i in (0, 4, 12, 31)]
# → [1.0, 0.31623, 0.03162, 0.00013]
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
is stored in angles it can be stretched once training is done (the last
section). Two claims about it need testing first.

## Does RoPE favour nearby tokens? A ceiling, not a rule

**Tiny worked example.** Take d = 4 (two pairs, turning 1 and 0.01 radian
per position) and let the key equal the query, q = k = (1, 0, 1, 0). The
score across a gap g is cos g + cos(0.01 g):

| gap g | score | RoFormer's ceiling |
|---|---|---|
| 0 | 2.000 | 3.000 |
| 3 | 0.010 | 1.171 |
| 100 | 1.403 | 2.442 |

Neither column falls steadily: each pair's cosine keeps swinging back. A
fall shows up only when many pairs with different speeds stop agreeing, as
in a head of 128 below.

**The math.** Su et al. (2021, section 3.4.3) bound the score of any query
and key at gap $g$:

$$
\big|\langle R_g\, q,\; k\rangle\big| \;\le\; C_{q,k} \sum_{j=1}^{d/2} \lVert S_j(g) \rVert,
\qquad S_j(g) = \sum_{i=0}^{j-1} \big(\cos g\theta_i,\ \sin g\theta_i\big)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $g$ | the gap $m - n$, query position minus key position, as in the paper's $e^{i(m-n)\theta_i}$ (its Eq. 16 turns the key by $n - m$ instead, which would flip every sine below and no length) | 0, 3, 100 |
| $S_j(g)$ | the first $j$ unit arrows $(\cos g\theta_i, \sin g\theta_i)$ added up | $S_1 = (\cos g, \sin g)$ |
| $\lVert S_j(g) \rVert$ | its length: $j$ when all arrows agree (gap 0), less as they spread | $\lVert S_1 \rVert + \lVert S_2 \rVert = 3$ at gap 0 |
| $C_{q,k}$ | the largest change between neighbouring $h_i$, where $h_i$ combines pair $i$ of $q$ with pair $i$ of $k$ (a product of complex numbers in the paper) and $h_{d/2} = 0$; fixed by $q$ and $k$, not by the gap | 1 |

**In words:** "the score can be no larger than a constant set by q and k
times the summed lengths of these arrow sums; as the gap grows the arrows
point in more and more directions, so the sums, and the ceiling, shrink."
The paper's Figure 2 plots the mean length, $\frac{1}{d/2}\sum_j \lVert S_j
\rVert$, which is what `rope_decay_bound` returns.

**With the numbers:** for a head of 128 the mean length is 32.5 at gap 0
(the mean of 1, 2, ..., 64), 17.95 at gap 10, 10.23 at 100 and 4.47 at
1,000. What the ceiling does not say is that real scores follow it. Over
2,000 random pairs of width 128, an unrelated query and key score 11.3 to
11.6 (root mean square; $\sqrt{128} = 11.3$) at every one of those gaps, with
no fall; only a key
equal to its query fades, from 128 to 86, 61 and 20.

**In Python:**

```python
import numpy as np
from lessons.positional import apply_rope, rope_decay_bound, rope_scores_by_gap
# the tiny example: d = 4, q = k = (1, 0, 1, 0), C = 1
q = np.array([1.0, 0.0, 1.0, 0.0])
[round(float(apply_rope(q, g) @ q), 3) for g in (0, 3, 100)]
# → [2.000, 0.010, 1.403]
# the ceiling C * (|S_1| + |S_2|): twice the mean length
(2 * rope_decay_bound(4, [0, 3, 100])).round(3).tolist()
# → [3.000, 1.171, 2.442]
# a head of 128
gaps = [0, 10, 100, 1000]
rope_decay_bound(128, gaps).round(2).tolist()  # → [32.5, 17.95, 10.23, 4.47]
scores = rope_scores_by_gap(gaps)
# unrelated q and k: the typical score does not fall with the gap
scores["unrelated"].round(1).tolist()  # → [11.3, 11.3, 11.4, 11.6]
# a key equal to its query: the score fades
scores["aligned"].round(0).tolist()  # → [128, 86, 61, 20]
```

![Log-scale line chart for a head of 128, each curve divided by its value at gap 0: RoFormer's ceiling falls to about 0.14 by a gap of 1,000, the mean score of a key equal to its query falls towards 0, and the typical score of an unrelated key stays at 1 at every gap](figures/positional.rope_decay.svg)

**Reading it:** the horizontal axis is the gap, from 1 to 4,096 on a log
scale; each curve is divided by its own value at gap 0. The ceiling (grey)
falls with ripples. A key equal to its query (blue) loses score the same
way, because the cosines of its pairs stop agreeing. An unrelated key (vermillion)
scores as strongly at 4,096 as at 1: rotating a random vector leaves it
just as random. The figure of scores against distance above shows the same
for one pair of vectors: nothing there decays.

**In code:** `rope_decay_bound` computes the mean length of the arrow sums
with `rope_frequencies` and `angle_table`; `rope_scores_by_gap` scores
random pairs with `apply_rope`.

**Why it matters.** RoPE puts no penalty on far-away keys as such. It caps
how high a score can climb at each distance, and a key that matches its
query loses some of that match with distance, but which tokens a trained
model favours is learned. A scheme that does penalise distance by design is
ALiBi (`lessons.alibi`).

## Added codes leak where the pair sits; rotations do not

**Tiny worked example.** Take d = 2 with no projections, both words
x = y = (1, 0), codes $p_{pos}$ = (sin pos, cos pos), and a query one
position after its key. Adding the codes, the score splits into four terms:

| query, key | x·y | x·p_n | p_m·y | p_m·p_n | score with added codes | RoPE score |
|---|---|---|---|---|---|---|
| 1, 0 | 1 | 0 | 0.841 | 0.540 | 2.382 | 0.540 |
| 2, 1 | 1 | 0.841 | 0.909 | 0.540 | 3.291 | 0.540 |

Same words, same gap, different score: the two cross terms carry where the
pair sits. The code-by-code term stays at cos 1 = 0.540 here only because
nothing stands between the two codes.

**The math.** With weights stored as (outputs, inputs) and applied as
$x W^\top$, a query word $x$ at position $m$ and a key word $y$ at position
$n$ score

$$
\begin{aligned}
(x + p_m) W_q^\top W_k (y + p_n)^\top ={}&
\underbrace{x W_q^\top W_k\, y^\top}_{x\cdot x} +
\underbrace{x W_q^\top W_k\, p_n^\top}_{x\cdot \text{PE}} \\
&+ \underbrace{p_m W_q^\top W_k\, y^\top}_{\text{PE}\cdot x} +
\underbrace{p_m W_q^\top W_k\, p_n^\top}_{\text{PE}\cdot\text{PE}}
\end{aligned}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $x$, $y$ | the query's word vector and the key's, as rows | both (1, 0) |
| $p_m$, $p_n$ | the sinusoidal codes of their positions | $p_1$ = (0.841, 0.540) |
| $W_q$, $W_k$ | the query and key projections, (outputs, inputs) | none (the identity) |
| x·x, x·PE, PE·x, PE·PE | word or code on the query side, then on the key side | 1, 0, 0.841, 0.540 at (1, 0) |

**In words:** "the score of two coded words is the words' own score plus
three terms that involve a code; the two mixed terms depend on one
position each, and the code-by-code term, once passed through the
projections, on both positions rather than their gap."

**With the numbers:** in a 16-number example (dog as the query, three
positions after man as the key, random projections, slid over 64 start
positions), the score with added codes runs from −8.69 to 0.61: a spread of
9.3. Its terms spread by 0.0 (x·x), 5.06 (x·PE), 3.24 (PE·x) and 8.69
(PE·PE). With RoPE the same pair scores −4.655 at every start.

**In Python:**

```python
import numpy as np
from lessons.positional import (
    apply_rope,
    sinusoidal_encoding,
    sliding_pair_scores,
)
# the tiny example: codes for positions 0, 1, 2 with d = 2  # (3, 2)
p = sinusoidal_encoding(3, 2)
x = y = np.array([1.0, 0.0])
[round(float(v), 3) for v in (x @ p[1], p[2] @ y, p[2] @ p[1])]
# → [0.841, 0.909, 0.540]
(
    round(float((x + p[1]) @ (y + p[0])), 3),
    round(float((x + p[2]) @ (y + p[1])), 3),
)
# → (2.382, 3.291)
(
    round(float(apply_rope(x, 1) @ apply_rope(y, 0)), 3),
    round(float(apply_rope(x, 2) @ apply_rope(y, 1)), 3),
)
# → (0.540, 0.540)
# the 16-number layer: spread (largest minus smallest) over 64 start positions
leak = sliding_pair_scores(offset=3, n_starts=64)
{name: round(float(np.ptp(v)), 2) for name, v in leak.items()}
# → {'sinusoidal': 9.3, 'x·x': 0.0, 'x·PE': 5.06, 'PE·x': 3.24, 'PE·PE': 8.69,
#   'RoPE': 0.0}
(
    round(float(leak["sinusoidal"].min()), 2),
    round(float(leak["sinusoidal"].max()), 2),
)
# → (-8.69, 0.61)
round(float(leak["RoPE"][0]), 3), bool(np.ptp(leak["RoPE"]) < 1e-12)
# → (-4.655, True)
# the four terms add up to the score
bool(
    np.allclose(
        leak["x·x"] + leak["x·PE"] + leak["PE·x"] + leak["PE·PE"],
        leak["sinusoidal"],
    )
)
# → True
# without the projections the code-by-code term would not move
codes = sinusoidal_encoding(67, 16)
bool(np.ptp([codes[s + 3] @ codes[s] for s in range(64)]) < 1e-12)  # → True
```

![Two panels, one above the other, over 64 start positions for one query word three positions after one key word: top, the score with added sinusoidal codes wanders between about -8.7 and 0.6 while the RoPE score is a flat line; bottom, of its four terms only the word-by-word term is flat](figures/positional.position_leak.svg)

**Reading it:** the horizontal axis is where the key word sits; the query
word is always 3 positions later. Top, the orange line (codes added
before the projections) moves with every step, the blue line (RoPE) does
not move at all. Bottom, the orange line split into its four terms: the word-by-word
term is flat, and the other three, each holding a code, wander; the
code-by-code term wanders most, although two bare codes would give it a
constant.

**In code:** `sliding_pair_scores` draws the random projections, adds the
codes from `sinusoidal_encoding` or turns q and k with `apply_rope`, and
returns every score and term per start position.

**Why it matters.** With added codes, the same two words at the same gap
score differently depending on where they sit, so what a model learns about
"three words back" at one place does not carry over to another for free; it
has to be learned at every position, and positions past the trained length
were never seen. RoPE's score depends on the gap alone, by construction:
the property Su et al. (2021) designed it to have.

## Stretching the context once training is done: a preview

**Tiny worked example.** A model trained on 4,096 tokens has to read
32,768, a stretch of s = 8, with heads of width 128. Left alone, the
slowest pair (1.15 × 10⁻⁴ radian per position) reaches 0.473 radian at
position 4,096, the most it ever saw, and 3.784 at 32,768: 8 times that.
The two classic fixes change the pairs' speeds like this:

| recipe | what changes | fastest pair | pair 50 | slowest pair |
|---|---|---|---|---|
| position interpolation | every position × 4,096 / 32,768 | 8× slower | 8× slower | 8× slower |
| NTK-aware scaling | the base, 10,000 → 82,685 | unchanged | 5.21× slower | 8× slower |

Interpolation brings every angle back inside the trained range, but
neighbours end up 1/8 of a position apart, which the fine-tune teaches the
model to read. NTK-aware scaling keeps the fast pairs sharp, but only the
slowest pair is slowed by the full 8. Pair 50 (one turn every 8,379
positions) never finished a turn in 4,096 tokens; slowed only 5.21×, it
reaches 1.54 times the largest angle it saw. NTK-aware scaling does not
bring every angle back. Which pairs overrun, by how much, and how YaRN fixes
it is the subject of `lessons.context_extension`.

**The math.**

$$
pos' = pos \cdot \frac{L_{\text{train}}}{L_{\text{new}}}, \qquad
base' = base \cdot s^{\,d/(d-2)}, \qquad
\frac{\theta_i}{\theta'_i} = s^{\,2i/(d-2)}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $pos$, $pos'$ | a token's place, and what RoPE receives under interpolation | 32,000 and 4,000 |
| $L_{\text{train}}$, $L_{\text{new}}$ | the trained length and the target length | 4,096 and 32,768 |
| $s$ | the stretch, $L_{\text{new}} / L_{\text{train}}$ | 8 |
| $base$, $base'$ | the RoPE base before and after NTK-aware scaling | 10,000 and 82,685 |
| $\theta_i / \theta'_i$ | how many times slower pair $i$ turns with the raised base | 1 for pair 0, 8 for pair 63 |

**In words:** "interpolation multiplies every position by the old length
over the new; NTK-aware scaling raises the base a little more than $s$
times, which slows pair $i$ by $s$ to the power $2i/(d-2)$: not at all for
the first pair, fully only for the last."

**In Python:**

```python
import numpy as np
from lessons.positional import (
    interpolate_positions,
    ntk_scaled_base,
    rope_frequencies,
)
d, s = 128, 8
theta = rope_frequencies(d)
f"{theta[-1]:.2e}"  # → '1.15e-04'
# the slowest pair with raw positions: at 4,096, at 32,768, and the ratio
(
    round(float(4096 * theta[-1]), 3),
    round(float(32768 * theta[-1]), 3),
    round(float(32768 / 4096)),
)
# → (0.473, 3.784, 8)
# pos' = pos * L_train / L_new
float(interpolate_positions(32_000, trained_len=4_096, new_len=32_768))
# → 4000.0
# base' = 10,000 * s^(d/(d-2))
new_base = ntk_scaled_base(10_000, s, d)
round(new_base)  # → 82685
# how many times slower pairs 0, 50 and 63 turn: s^(2i/(d-2))
slower = theta / rope_frequencies(d, new_base)
[round(float(slower[i]), 2) for i in (0, 50, 63)]  # → [1.0, 5.21, 8.0]
# pair 50's wavelength (positions per turn), and its largest angle at 32,768
# over its largest at 4,096
round(float(2 * np.pi / theta[50])), round(float(32768 / slower[50] / 4096), 2)
# → (8379, 1.54)
```

**In code:** `interpolate_positions` shrinks positions before `apply_rope`
sees them; `ntk_scaled_base` returns the raised base to hand to
`rope_frequencies` or `apply_rope` in its place.

**Why it matters.** Because RoPE keeps position in angles, a model trained
on a few thousand tokens can be stretched instead of pretrained again; but
every recipe changes the angles the model reads, so it comes with a
fine-tune or is the recipe the checkpoint was trained with.

## In 20 seconds

- Without positions, attention is permutation-equivariant, so "dog bites
  man" and "man bites dog" pool to one and the same vector.
- The 2017 transformer adds fixed sine and cosine codes; GPT-2 and BERT
  add a learned table that stops at its final row. Either way the code is
  added to the word, and the score of two words at a fixed gap changes with
  where they sit.
- Today's LLMs use RoPE: q and k are rotated through an angle that grows
  with position, so every score depends only on how far apart the two
  tokens are. Its "long-term decay" is a ceiling on the score, not a
  penalty on distance.
- Since RoPE keeps position in angles, a trained model can be stretched;
  interpolation slows every pair, NTK-aware scaling fully slows only the
  slowest, and `lessons.context_extension` compares the recipes.

## Self-test questions

??? question "Why does a transformer need any positional information?"
    Attention compares tokens purely by their content, which makes it
    permutation-equivariant: shuffle the input and the output is merely
    shuffled as well. Without positions, word order cannot be seen, and a
    pooled summary of "dog bites man" is identical to one of "man bites
    dog".

??? question "Why do sinusoidal codes use many frequencies instead of a single one?"
    Quick pairs separate neighbouring positions; slow pairs separate
    distant ones before they can wrap around. Combined, they give each
    position a unique code that changes smoothly, and a shift by k is one
    and the same rotation wherever it starts.

??? question "Two sinusoidal codes have a dot product fixed by their gap. Why does a score with added codes still depend on where the pair sits?"
    The score compares (word + code) projected by $W_q$ with (word + code)
    projected by $W_k$. Two of its four terms mix a word with one code, so
    each follows one position, and the code-by-code term passes through
    the projections, which mix the pairs, so it follows both positions. In
    this lesson's layer the score of one pair at a gap of 3 spreads by 9.3
    over 64 starts; with RoPE it does not move.

??? question "By hand: with d = 2 and θ = 1, take q = k = (1, 0), place the query at 3 and the key at 7. What is the RoPE score?"
    It is cos(7 − 3) = cos 4 ≈ −0.654. For 103 and 107 it is the same
    −0.654; for 3 and 8 it becomes cos 5 ≈ 0.284.

??? question "Does RoPE make far-away keys score lower?"
    Not as such. RoFormer proves a ceiling on the score that shrinks with
    distance, and a key equal to its query does lose score with distance
    (from 128 to 20 by a gap of 1,000 with d = 128), but an unrelated key
    scores about as strongly at every gap (11.3 root mean square).

??? question "A learned table has 1,024 rows. What happens at position 1,024, and what should you do?"
    There is no row to fetch, so the input cannot be encoded: the request
    errors out or gets truncated. Break the input into chunks that fit.

??? question "A RoPE model trained at 4K has to read 32K. Does NTK-aware scaling bring every angle back into the trained range?"
    No. With d = 128 it raises the base to about 82,685, which leaves the
    fastest pair alone and slows the slowest exactly 8 times, but pair $i$
    is slowed only $8^{2i/126}$ times: pair 50, which never finished a turn
    in 4,096 tokens, is slowed 5.21 times and reaches 1.54 times its largest
    trained angle. Interpolation does bring every angle back, at the cost of
    squeezing neighbours 1/8 of a position apart.

## The papers behind this lesson

- Vaswani et al., 2017, *Attention Is All You Need*,
  [arXiv:1706.03762](https://arxiv.org/abs/1706.03762) (companion: `papers.vaswani2017_attention`). The paper that
  introduced the transformer; its section 3.5 defines the sinusoidal codes
  built on this page.
- Su et al., 2021, *RoFormer: Enhanced Transformer with Rotary Position
  Embedding*, [arXiv:2104.09864](https://arxiv.org/abs/2104.09864) (companion: `papers.su2021_roformer`).
  Proposed RoPE: rotate queries and keys so that attention scores see only
  relative distance; its section 3.4.3 proves the decaying ceiling tested
  on this page.
- Chen et al., 2023, *Extending Context Window of Large Language Models via
  Positional Interpolation*,
  [arXiv:2306.15595](https://arxiv.org/abs/2306.15595) (companion: `papers.chen2023_interpolation`). Showed that
  squeezing positions back into the trained range, followed by a
  fine-tune, lets RoPE models read far longer contexts.
- Peng et al., 2023, *YaRN: Efficient Context Window Extension of Large
  Language Models*, [arXiv:2309.00071](https://arxiv.org/abs/2309.00071) (companion: `papers.peng2023_yarn`).
  Improved RoPE context extension by handling fast and slow frequencies
  differently; its companion page is `lessons.context_extension`.
- Press et al., 2021, *Train Short, Test Long: Attention with Linear Biases
  Enables Input Length Extrapolation*,
  [arXiv:2108.12409](https://arxiv.org/abs/2108.12409) (companion: `papers.press2021_alibi`). Swapped position
  vectors for a distance penalty on attention scores; its companion page is
  `lessons.alibi`.

## Further reading

- EleutherAI, *Rotary Embeddings: A Relative Revolution*, an approachable
  blog post about RoPE: <https://blog.eleuther.ai/rotary-embeddings/>
- Llama 3 team, 2024, *The Llama 3 Herd of Models*,
  [arXiv:2407.21783](https://arxiv.org/abs/2407.21783): the source of
  Llama 3's 500,000 base.
- Liu et al., 2023, *Lost in the Middle: How Language Models Use Long
  Contexts*, [arXiv:2307.03172](https://arxiv.org/abs/2307.03172): evidence
  that a long window is used unevenly.
- `lessons.rope` for RoPE inside attention in code, and
  `lessons.context_extension` for every stretching recipe in code.
"""

from __future__ import annotations

import hashlib

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, COLOUR_MAPS, GREEN, INK, MUTED, ORANGE, RED, SCHEME_LOOKS, legend_beside
from lessons._show import banner, gap_text, matrix, say, table, takeaway
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
# RoPE's "long-term decay": RoFormer's bound, and what real scores do
# ---------------------------------------------------------------------------


def rope_decay_bound(d: int, gaps, base: float = 10000.0) -> np.ndarray:
    """RoFormer's relative upper bound (Su et al., 2021, section 3.4.3) at each gap.

    The gap g is query position minus key position (m - n), so the score is
    <R_g q, k>, the real part of sum_i h_i e^(i g theta_i) (RoFormer's equation
    35). S_j(g) adds up the first j unit arrows (cos g*theta_i, sin g*theta_i),
    i = 0..j-1; the bound is the mean length
    of S_1 .. S_(d/2). For any q and k, |<R_g q, k>| <= C * (d/2) *
    rope_decay_bound(d, g), with C =
    max_i |h_(i+1) - h_i| fixed by q and k alone (h_i is pair i of q times
    pair i of k, as complex numbers; h_(d/2) = 0).

    Args:
        d: the head width, a positive even integer.
        gaps: a number or an array of gaps m - n (query minus key), any shape. The
            bound is even in the gap: RoFormer's n - m flips the sines, not the lengths.
        base: the RoPE base.

    Returns:
        float array shaped like gaps; d/4 + 1/2 at gap 0, where every arrow
        points the same way.
    """
    theta = rope_frequencies(d, base)  # (d/2,)
    angles = angle_table(gaps, theta)  # (..., d/2)
    # S_j = sum_{i<j} (cos g theta_i, sin g theta_i) = sum_{i<j} e^(i g theta_i), for j = 1 .. d/2
    S_cos, S_sin = np.cumsum(np.cos(angles), axis=-1), np.cumsum(np.sin(angles), axis=-1)
    # (1 / (d/2)) * sum_j |S_j|
    return np.hypot(S_cos, S_sin).mean(axis=-1)


def rope_scores_by_gap(gaps, d: int = 128, n_pairs: int = 2000, seed: int = 0) -> dict[str, np.ndarray]:
    """What RoPE scores really do as the gap grows, over random standard-normal q and k.

    Args:
        gaps: a sequence of gaps m - n (query position minus key position; a
            positive gap is a key that many positions before its query).
        d: the head width, a positive even integer.
        n_pairs: how many random (q, k) pairs, drawn from numpy's default_rng(seed).
        seed: the random seed.

    Returns:
        {"unrelated": the root mean square of <R_g q, k> for independent q
        and k, "aligned": the mean of <R_g q, q>, a key equal to its query};
        each a float array, one entry per gap.
    """
    d = _checks.even_width(d)
    n_pairs = _checks.count(n_pairs, "n_pairs")
    Q, K = np.random.default_rng(seed).standard_normal((2, n_pairs, d))  # (n_pairs, d) each
    unrelated, aligned = [], []
    for g in np.asarray(gaps, dtype=float).ravel():
        at_g = np.full(n_pairs, g)  # every query turned by the gap: <R_m q, R_(m-g) k> = <R_g q, k>
        unrelated.append(np.sqrt(np.mean(np.sum(apply_rope(Q, at_g) * K, axis=-1) ** 2)))
        aligned.append(np.mean(np.sum(apply_rope(Q, at_g) * Q, axis=-1)))
    return {"unrelated": np.array(unrelated), "aligned": np.array(aligned)}


# ---------------------------------------------------------------------------
# Added codes leak absolute position into the score; rotations do not
# ---------------------------------------------------------------------------


def pair_projections(d: int = D_DEMO, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The random query and key projections `sliding_pair_scores` uses.

    Args:
        d: the width, a positive even integer.
        seed: the seed of numpy's default_rng.

    Returns:
        (W_q, W_k), each (d_out, d_in) = (d, d), entries N(0, 1/d), applied as x @ W.T.
    """
    d = _checks.even_width(d)
    W_q, W_k = np.random.default_rng(seed).standard_normal((2, d, d)) / np.sqrt(d)  # (d_out, d_in) each
    return W_q, W_k


def sliding_pair_scores(offset: int = 3, n_starts: int = 64, d: int = D_DEMO, seed: int = 0,
                        words: tuple[str, str] = ("dog", "man")) -> dict[str, np.ndarray]:
    """Score one query word against one key word at a fixed gap, slid along the sequence.

    The key word sits at position start and the query word at start + offset,
    for start = 0 .. n_starts - 1. The projections W_q and W_k are random
    (`pair_projections`): shape (d_out, d_in) = (d, d), entries N(0, 1/d) from
    numpy's default_rng(seed), applied as x @ W.T.

    Args:
        offset: the gap between the two words, an integer >= 0.
        n_starts: how many start positions, a positive integer.
        d: the width, a positive even integer.
        seed: the seed of the random projections.
        words: (query word, key word), each turned into `word_vector(word, d)`.

    Returns:
        {name: (n_starts,) float array}: "sinusoidal" is the score q.k when each
        word has its sinusoidal code added before the projections, and "x·x",
        "x·PE", "PE·x", "PE·PE" are its four terms (word or code on the query
        side, then on the key side), which add up to it; "RoPE" is the score
        when q and k are turned by their positions instead.
    """
    offset = _checks.count(offset, "offset", low=0)
    n_starts = _checks.count(n_starts, "n_starts")
    d = _checks.even_width(d)
    W_q, W_k = pair_projections(d, seed)  # (d_out, d_in) each
    x, y = word_vector(words[0], d), word_vector(words[1], d)  # (d,) each
    starts = np.arange(n_starts)
    codes = sinusoidal_encoding(n_starts + offset, d)
    pe_m, pe_n = codes[starts + offset], codes[starts]  # query's and key's codes  # (n_starts, d)

    def score(a, b):
        # (a W_q^T) . (b W_k^T), row by row  # (n_starts,)
        return np.broadcast_to(np.sum((a @ W_q.T) * (b @ W_k.T), axis=-1), (n_starts,))

    # (x + PE_m) W_q^T W_k (y + PE_n)^T = x.y + x.PE_n + PE_m.y + PE_m.PE_n
    terms = {"x·x": score(x, y), "x·PE": score(x, pe_n), "PE·x": score(pe_m, y), "PE·PE": score(pe_m, pe_n)}
    # RoPE: <R_m (x W_q^T), R_n (y W_k^T)>
    rope = np.sum(apply_rope(x @ W_q.T, starts + offset) * apply_rope(y @ W_k.T, starts), axis=-1)
    return {"sinusoidal": sum(terms.values()), **terms, "RoPE": rope}


# ---------------------------------------------------------------------------
# Context extension, previewed: interpolated positions and a raised base
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
    """The page's six figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    blue, red, grey, ink = BLUE, RED, MUTED, INK
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
    image = ax.imshow(sinusoidal_encoding(100, 64), aspect="auto", cmap=COLOUR_MAPS["signed"], vmin=-1, vmax=1,
                      interpolation="nearest")
    ax.set_xlabel("dimension (fast pairs on the left, slow pairs on the right)")
    ax.set_ylabel("position")
    ax.set_title("Sinusoidal position codes, d = 64")
    fig.colorbar(image, ax=ax, label="value")
    figs["sinusoidal_heatmap"] = fig

    # 3. RoPE scores against the gap m - n, for three query positions
    q, k = _hashed_normals("figure:q", 64), _hashed_normals("figure:k", 64)
    offsets = np.arange(0, 48)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for start, style, width in ((1047, "-", 4.0), (1100, "--", 2.5), (2000, ":", 1.5)):
        # score(m, m - gap) = <R_m q, R_(m-gap) k>: the key sits `gap` positions before the query
        scores = apply_rope(k, start - offsets) @ apply_rope(q, start)  # (48,)
        ax.plot(offsets, scores, style, lw=width, label=f"query at position {start}")
    ax.set_xlabel("gap m - n: query position minus key position")
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
    ax.legend(frameon=False, loc="upper left", ncol=2)
    figs["rope_frequencies"] = fig

    # 5. RoFormer's ceiling against what real scores do, d = 128, each relative to gap 0
    gaps = np.concatenate([[0.0], np.unique(np.round(np.geomspace(1, 4096, 120)))])
    bound, scores = rope_decay_bound(128, gaps), rope_scores_by_gap(gaps)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    ax.plot(gaps[1:], bound[1:] / bound[0], color=grey, lw=3, label="RoFormer's ceiling (mean length of S_j)")
    ax.plot(gaps[1:], scores["aligned"][1:] / scores["aligned"][0], color=blue, lw=2,
            label="key equal to its query (mean score)")
    ax.plot(gaps[1:], scores["unrelated"][1:] / scores["unrelated"][0], color=red, lw=2,
            label="unrelated key (typical score, root mean square)")
    ax.axhline(0, color=ink, lw=0.5)
    ax.set_xscale("log")
    ax.set_xlabel("gap between query and key (log scale)")
    ax.set_ylabel("relative to gap 0")
    ax.set_title("RoPE's decay is a ceiling, d = 128")
    fig.legend(frameon=False, loc="outside lower center")  # below the axes: at the left it sat on the curves
    figs["rope_decay"] = fig

    # 6. one word pair at a fixed gap, slid along the sequence: added codes vs RoPE
    leak = sliding_pair_scores(offset=3, n_starts=64)
    starts = np.arange(64)
    fig, (left, right) = plt.subplots(2, 1, figsize=(6.4, 6.0), layout="constrained", sharex=True, sharey=True)
    left.plot(starts, leak["sinusoidal"], **SCHEME_LOOKS["sinusoidal"].line(marker=None), lw=2, label="sinusoidal codes added")
    left.plot(starts, leak["RoPE"], **SCHEME_LOOKS["rope"].line(marker=None), lw=2, label="RoPE")
    left.set_title("score of one pair, gap 3")
    left.set_ylabel("score q.k")
    legend_beside(left)
    for name, color in zip(("x·x", "x·PE", "PE·x", "PE·PE"), (ink, GREEN, ORANGE, red), strict=True):
        right.plot(starts, leak[name], color=color, lw=1.5, label=name)
    right.set_title("the added-code score, term by term")
    right.set(xlabel="position of the key word", ylabel="score q.k")
    legend_beside(right)
    figs["position_leak"] = fig
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
        {gap_text(np.abs(a[0] - b[2]).max())}), so the pooled sentences match.""")
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

    banner("4. Added codes leak where the pair sits")
    leak = sliding_pair_scores()
    say(f"""One query word 3 positions after one key word, slid over 64 starts:
        with sinusoidal codes added the score spreads by {np.ptp(leak['sinusoidal']):.2f},
        with RoPE by {gap_text(np.ptp(leak['RoPE']))}.""")
    table(["term", "spread over the starts"], [(name, np.ptp(leak[name])) for name in ("x·x", "x·PE", "PE·x", "PE·PE")])
    takeaway("Added codes make a score depend on where the pair sits; RoPE only on the gap.")

    banner("5. RoPE's long-term decay is a ceiling")
    gaps = [0, 100, 1000]
    scores = rope_scores_by_gap(gaps)
    table(["gap", "RoFormer's ceiling (mean |S_j|)", "key equal to its query", "unrelated key (rms)"],
          list(zip(gaps, rope_decay_bound(128, gaps), scores["aligned"], scores["unrelated"], strict=True)))

    banner("6. Stretching a 4k model to 32k")
    new_base = ntk_scaled_base(10000.0, 8, 128)
    slower = rope_frequencies(128) / rope_frequencies(128, new_base)
    say(f"""Interpolation reads position 32,000 as
        {interpolate_positions(32000, 4096, 32768):,.0f}. NTK-aware scaling raises the
        base from 10,000 to {new_base:,.0f} for d = 128: pair 0 keeps its speed, the
        slowest pair turns {slower[-1]:.0f}x slower, but pair 50 only {slower[50]:.2f}x,
        so not every angle is back in the trained range.""")


if __name__ == "__main__":
    demo()
