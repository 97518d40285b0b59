r"""
# RoPE in practice: two layouts, one cache, and the bugs between them

Run: `python -m lessons.rope`

Builds on `lessons.positional` (what RoPE is and why scores depend on distance)
and `lessons.attention` (queries, keys, values and scores). Symbols are decoded
where they appear.

## Level 1: the practitioner's guide

**In one sentence.** RoPE is one rotation that real code writes down in two
incompatible memory layouts and serves from a precomputed cos/sin table, and
a mistake in the layout, the table or the position passed at decode time
gives a model that loads, runs and quietly computes the wrong attention.

**When you need it.** You never touch RoPE while you call a model through the
library it was trained with. You meet it when you move a checkpoint between
codebases (Meta's original Llama code to Hugging Face, a research repo to a
serving engine, a model to a new framework), when you write or review an
attention kernel, or when you add a key-value cache to a model you wrote. The
tell-tale symptom is a converted model that loads without a single warning
and then writes fluent nonsense, or a model that reads its prompt fine and
goes wrong from the first generated token.

**Your options.** The first three are the same rotation written three ways;
the last two are choices about how much of it to compute ahead.

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Interleaved pairs | Dimensions (0, 1), (2, 3), … turn together | The layout of the RoFormer paper; each pair sits side by side in memory | Strided access (every other number) | RoFormer, GPT-J, Meta's Llama reference code; `is_neox_style` false in vLLM |
| Half-split pairs | Dimension j turns with dimension j + d/2 | Two contiguous halves: `rotate_half` is two slices and a concatenation | A checkpoint trained interleaved needs its q and k weights permuted | GPT-NeoX and the Hugging Face Llama, Mistral and Qwen code; `is_neox_style` true in vLLM |
| Complex numbers | Reads each interleaved pair as one complex number and multiplies it by a unit complex number whose angle is position × speed | The shortest correct formula | Needs complex arithmetic; it is the interleaved layout underneath | Meta's Llama reference code (`freqs_cis`) |
| A precomputed cos/sin table | Computes cos and sin of every (position, pair) once, then slices rows | No trigonometry per token | Memory; a policy for positions past the table's end | Inside every RoPE implementation; often sized by `max_position_embeddings` |
| Partial rotary | Only a fraction of each head's dimensions turn; the rest carry no position | Some position-free channels | Another number that must survive conversion | `rotary_dim` (GPT-J), `rotary_pct` (GPT-NeoX), `partial_rotary_factor` |

**How to choose.** Start from what you are doing.

- Running a model in its own library: nothing to choose. Do not swap in
  another library's rotary kernel without checking which layout it expects.
- Converting a checkpoint: find the layout the source code rotates in and the
  layout the target code expects. If they differ, reorder the rows of every
  query and key projection, head by head (`interleaved_to_half`), and leave the
  value projection alone. Key projections are reordered with the number of
  key-value heads, which is smaller than the number of query heads in
  grouped-query models. Then compare logits on a real prompt: loading without
  error proves nothing.
- Writing a kernel: either layout is fine; write the choice into the config,
  because nothing in the weights records it.
- Adding a key-value cache: pass each new token's true position to the
  rotation (`start_pos`).
- Building the cos/sin table: make asking past its end grow the table or
  raise an error. Never return a shorter table.

![Two panels of attention score against distance: on top, the original and the correctly converted model give one curve and the unconverted model a different one; below, a cos/sin table in the other layout gives a different curve for every starting position](figures/rope.wrong_conversion.svg)

**Reading it:** each line is the score a query gives a key at each distance
(the horizontal axis). In the top panel the converted weights trace the
original curve exactly, while the same weights loaded without converting
trace another curve: the model runs without an error and attends to the
wrong places (*Weights not converted*, below). In the bottom panel the rotation
reads a table built for the other layout, and the curve now changes with
where the text starts (*A table in one layout, the rotation in the other*).
Neither mistake stops a model from loading, which is why a converted
checkpoint is checked by comparing its logits with the original's.

**What it costs.** Almost nothing, which is why its bugs survive.

- Conversion changes no parameter and no count: it reorders rows once, on disk.
- RoPE itself has no parameters. Rotating one vector of width d = 128 costs
  `rope_multiply_adds(128)` = 256 multiply-adds, against 524,288 for the
  projection that produced it from a 4,096-wide model: under 0.05%.
- The table for 8,192 positions and d = 128, cos and sin in 32-bit floats,
  takes 8,388,608 bytes (8 MiB), once per model (`table_bytes`).

**What breaks.**

- **Weights not converted.** A checkpoint trained interleaved, run by
  half-split code without the permutation: the scores still depend only on
  distance, so nothing looks wrong, but they are the wrong scores (2.3664
  becomes -0.9555 in this lesson's example). Permute q and k rows per head.
- **The wrong head count in the permutation.** Reordering key rows as if
  there were as many key heads as query heads scrambles them across heads in
  a grouped-query model. Use the key-value head count for key projections.
- **A table in one layout, the rotation in the other.** A cos/sin table built
  for interleaved pairs fed to `rotate_half` code turns the two members of a
  pair by different angles. Scores then depend on absolute position, and the
  same two tokens score differently at positions 7 and 3 than at 107 and 103.
  Build the table for the layout the rotation uses.
- **The position forgotten at decode time.** With a cache, the new token is
  rotated alone; called without its position it is rotated as position 0. The
  prompt reads fine and the first generated token is wrong. Pass `start_pos`.
- **A silently short table.** Slicing rows past the end of a table returns
  fewer rows, or none, instead of an error; in numpy an empty table even
  broadcasts into an empty output. Grow or raise (this lesson grows).
- **Rotating V.** Values are content to be mixed, not compared; rotating
  them makes a head's output depend on absolute position. Rotate q and k only.

**In the wild.** The RoFormer paper (Su et al., 2021) wrote RoPE with
interleaved pairs, and GPT-J, a model released by EleutherAI without a paper,
used them too; its model card says RoPE turns 64 of each head's 256
dimensions. GPT-NeoX-20B (Black et al., 2022) used the half-split layout, and
its Hugging Face config sets `rotary_pct` to 0.25. Meta's Llama reference code
rotates interleaved pairs as complex numbers, while the Hugging Face Llama code
uses `rotate_half`, which is why Hugging Face's `convert_llama_weights_to_hf.py`
permutes the q and k projection rows of every layer (with the key-value head
count for the keys) and copies the value projection unchanged. vLLM's rotary
layer takes an `is_neox_style` flag that names the layout, and every model
config carries the base as `rope_theta`.

**Go deeper.** Level 2 draws both layouts, proves that the complex form is the
interleaved layout, shows numerically and in a figure what a wrong conversion
does, works the permutation on a one-head d = 4 example, builds the cos/sin
cache, decodes with it, and shows why V stays unrotated. If you only needed to
convert a checkpoint or review a kernel, you are done.

## Level 2: how it works, from scratch

Level 2 starts with the two layouts, then what goes wrong between them, then
how real code computes and caches the rotation.

## 1. Two layouts of one rotation

**Everyday picture.** A dance class of eight people forms four couples. One
teacher pairs neighbours: 1 with 2, 3 with 4. Another lines everybody up and
pairs the first half with the second half: 1 with 5, 2 with 6. Each couple
spins at its own speed. Both classes dance the same dance, but if you learned
your moves with your neighbour, the second teacher hands you a stranger.

**Tiny worked example.** A head of width d = 8 has four pairs, pair i turning
by $\theta_i$ radians per position:

| pair | turns at | interleaved layout | half-split layout |
|---|---|---|---|
| 0 | $\theta_0$ | dims 0 and 1 | dims 0 and 4 |
| 1 | $\theta_1$ | dims 2 and 3 | dims 1 and 5 |
| 2 | $\theta_2$ | dims 4 and 5 | dims 2 and 6 |
| 3 | $\theta_3$ | dims 6 and 7 | dims 3 and 7 |

**The math.** Half-split code writes the rotation without pairs at all, as two
element-wise products:

$$
\begin{gathered}
x' = x \odot \cos(pos\,\boldsymbol{\theta}) + \text{rotate\_half}(x) \odot \sin(pos\,\boldsymbol{\theta}),
\\ \text{rotate\_half}(x_1, x_2) = (-x_2,\; x_1)
\end{gathered}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $x$ | a query or key vector of one head, $d$ numbers | $(1, 2, \dots, 8)$ |
| $x_1$, $x_2$ | its first and second halves | $(1, 2, 3, 4)$ and $(5, 6, 7, 8)$ |
| $pos$ | the token's position | 1 |
| $\theta_j$ | pair $j$'s speed, $base^{-2j/d}$ | $\theta_0 = 1$ |
| $\boldsymbol{\theta}$ | the speeds laid out twice, $(\theta_0..\theta_{d/2-1}, \theta_0..\theta_{d/2-1})$ | 8 numbers |
| $\odot$ | multiply matching entries | |
| $\text{rotate\_half}$ | swap the halves and negate the new first half | $(-5, -6, -7, -8, 1, 2, 3, 4)$ |

**In words:** "new dimension j is cos times old j minus sin times old j + d/2;
new dimension j + d/2 is sin times old j plus cos times old j + d/2": a 2 × 2
rotation of the pair (j, j + d/2).

**With the numbers:** at $pos = 1$ the pair $(x_0, x_4) = (1, 5)$ turns by 1
radian: $(\cos 1 - 5 \sin 1,\; \sin 1 + 5 \cos 1) = (-3.667, 3.543)$. The
interleaved layout turns $(x_0, x_1) = (1, 2)$ instead and gets
$(-1.143, 1.922)$. Both keep the vector's length, 14.2829.

**In Python:**

```python
import numpy as np
from lessons.rope import (
    apply_rope_half,
    apply_rope_interleaved,
    rotate_half,
    pair_partner,
)
x = np.arange(1.0, 9.0)
# rotate_half(x) = (-x2, x1)
rotate_half(x).tolist()  # → [-5.0, -6.0, -7.0, -8.0, 1.0, 2.0, 3.0, 4.0]
# who turns with dim 0, 1, 2, ...
pair_partner(8, "half").tolist()  # → [4, 5, 6, 7, 0, 1, 2, 3]
pair_partner(8, "interleaved").tolist()  # → [1, 0, 3, 2, 5, 4, 7, 6]
# dims 0 and 4 after turning (1, 5) by 1 radian
h = apply_rope_half(x, 1)
round(h[0], 3), round(h[4], 3)  # → (-3.667, 3.543)
i = apply_rope_interleaved(x, 1)
round(i[0], 3), round(i[1], 3)  # → (-1.143, 1.922)
# a rotation keeps the length
(
    round(np.linalg.norm(x), 4),
    round(np.linalg.norm(h), 4),
    round(np.linalg.norm(i), 4),
)
# → (14.2829, 14.2829, 14.2829)
```

![Two rows of eight coloured cells: in the interleaved row neighbouring dimensions share a colour, in the half-split row dimension j shares its colour with dimension j + 4](figures/rope.pairing.svg)

**Reading it:** each cell is one dimension of an 8-wide head; its colour and
label give the pair it belongs to, and so its speed. In the top row, colours
come in neighbouring twos. In the bottom row, the colour sequence repeats
after the middle: dimension 0 and dimension 4 are partners. Same four speeds,
different partners.

**In code:** `rotate_half` and `apply_rope_half` implement the half-split
layout: the angles come from `lessons.positional.rope_angles`,
`half_split_table` lays their cos and sin out as [angles, angles] and
`rotate_with_table` applies the formula above. `apply_rope_interleaved` is
`lessons.positional.apply_rope` under this page's name, so the site has one
interleaved implementation; `pair_partner` and `pair_of` give the pairing
drawn above.

**Why it matters.** Both layouts are correct RoPE, and a model can be trained
with either. Nothing in a weight file says which one it expects.

## 2. The complex-number form is the interleaved layout

**Everyday picture.** A point on a map can be written as "3 east, 4 north" or
as one complex number 3 + 4i. Turning the point about the origin is then a
single multiplication.

**Tiny worked example.** One pair, $(x_0, x_1) = (1, 2)$, read as $z = 1 + 2i$.
At position 1 with $\theta_0 = 1$, multiply by $e^{i} = \cos 1 + i \sin 1 =
0.540 + 0.841i$: $z' = (1 + 2i)(0.540 + 0.841i) = -1.143 + 1.922i$. The real
and imaginary parts are exactly the interleaved result of section 1.

```mermaid
flowchart TB
  X["$$x$$ ($$d$$ numbers)"] --> Z["$$z_i = x_{2i} + i\, x_{2i+1}$$<br/>($$d/2$$ complex numbers)"]
  Z --> M["$$z_i \cdot \exp(i\, pos\, \theta_i)$$"]
  M --> B["real part to dim $$2i$$,<br/>imaginary part<br/>to dim $$2i+1$$"]
```

**Reading it:** pack each neighbouring pair into one complex number, multiply
by a unit complex number whose angle is the position times the pair's speed,
and unpack. Because the packing uses neighbours, this form is the interleaved
layout, never the half-split one.

**The math.**

$$
z_i' = z_i \, e^{i\, pos\, \theta_i}, \qquad z_i = x_{2i} + i\, x_{2i+1}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $z_i$ | pair $i$ as one complex number | $1 + 2i$ |
| $i$ (in $e^{i\ldots}$) | the imaginary unit, $i^2 = -1$ | |
| $e^{i\alpha}$ | $\cos\alpha + i \sin\alpha$: a unit complex number at angle $\alpha$ | $0.540 + 0.841i$ |
| $pos\,\theta_i$ | the angle pair $i$ turns at this position | 1 radian |
| $z_i'$ | the turned pair | $-1.143 + 1.922i$ |

**In words:** "multiplying by a unit complex number turns a point by that
number's angle without changing its distance from the origin."

**In Python:**

```python
import numpy as np
from lessons.rope import rope_complex, apply_rope_interleaved
# e^(i·1) = cos 1 + i sin 1
round(np.exp(1j).real, 3), round(np.exp(1j).imag, 3)  # → (0.540, 0.841)
# (1 + 2i) · e^(i·1)
z = (1 + 2j) * np.exp(1j * 1.0)
round(z.real, 3), round(z.imag, 3)  # → (-1.143, 1.922)
x = np.random.default_rng(0).normal(size=(5, 16))
# the complex form equals the interleaved layout everywhere
bool(
    np.allclose(rope_complex(x), apply_rope_interleaved(x), rtol=0, atol=1e-12)
)
# → True
```

![Seven points on a circle: the same complex pair at positions 0 to 6, each one radian further round](figures/rope.complex_plane.svg)

**Reading it:** the grey circle is every point at the pair's distance from
the origin. The dot labelled pos 0 is the pair as it is; each next position
multiplies by $e^{i}$ once more, so the dot walks one radian further round
the circle and never leaves it.

**In code:** `rope_complex` packs, multiplies and unpacks; the tests check it
against `apply_rope_interleaved` to 1e-12.

**Why it matters.** Meta's Llama reference code uses this form. A reader who
sees complex numbers knows the checkpoint expects interleaved pairs.

## 3. Why the layouts are incompatible, and what a wrong conversion looks like

**Everyday picture.** A combination lock whose dials were set in the order
left to right, opened by someone turning them right to left. Every dial still
turns, the lock still clicks, and it does not open.

**Tiny worked example.** One head of width 16 trained with interleaved pairs,
random projection weights, one query token and one key token. Put the query at
position 7 and the key at 3, then both 100 positions later, and score them four
ways:

| run | q at 7, k at 3 | q at 107, k at 103 |
|---|---|---|
| original (interleaved, its own weights) | 2.3664 | 2.3664 |
| converted (half-split, permuted weights) | 2.3664 | 2.3664 |
| not converted (half-split, original weights) | -0.9555 | -0.9555 |
| mismatched table (half-split rotation, interleaved cos/sin table) | 1.5689 | 2.1417 |

```mermaid
flowchart TB
  W["weights trained<br/>with interleaved pairs"] --> C{"run by<br/>half-split<br/>code"}
  C -->|"rows<br/>permuted"| OK["same scores<br/>as training"]
  C -->|"rows not<br/>permuted"| BAD["different scores,<br/>still distance-only:<br/>silent"]
  C -->|"table in the<br/>other layout"| WORSE["not a rotation:<br/>scores depend on<br/>absolute position"]
```

**Reading it:** the same weights go into half-split code three ways. Only the
left branch reproduces what the model learned. The middle branch still looks
healthy, because its scores keep RoPE's distance-only shape; they are simply
not the scores the model was trained on. The right branch breaks RoPE itself.

**The math.** For any fixed pairing, turning back by $n$ and then by $m$
is turning by the gap $m - n$ (query position minus key position), so

$$
\langle R_m q,\; R_n k \rangle = \langle R_{m-n}\, q,\; k \rangle
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $q$, $k$ | the query and key of one head, before turning | 16 numbers each |
| $m$, $n$ | the query's and the key's positions; the gap is $m - n$ | 7 and 3 (gap 4) |
| $R_m$ | turn every pair by $m\,\theta_i$, in one fixed layout | |
| $\langle a, b\rangle$ | the dot product, the score before softmax | 2.3664 |

**In words:** "whatever the pairing, as long as q and k are turned the same
way, the score sees only the gap between the positions." That is why
unconverted weights fail silently: they feed the half-split $R$ numbers that
were meant for other partners, and the result is a different, equally
distance-only score. The mismatched table is worse: its two partners turn by
different angles, $R_m$ stops being a rotation, the identity above fails, and
the score depends on where the pair sits.

**In Python:**

```python
from lessons.rope import conversion_scores, offset_spread
s = conversion_scores(7, 3)
{k: round(v, 4) for k, v in s.items()}
# → {'original': 2.3664, 'converted': 2.3664, 'not converted': -0.9555,
#   'mismatched table': 1.5689}
# 100 positions later: only the mismatched table changes
{k: round(v, 4) for k, v in conversion_scores(107, 103).items()}
# → {'original': 2.3664, 'converted': 2.3664, 'not converted': -0.9555,
#   'mismatched table': 2.1417}
# spread of the score over starts 0, 10, 100, 1000 at offset 4
offset_spread("not converted", 4) < 1e-12  # → True
offset_spread("mismatched table", 4) > 1  # → True
```

![Two panels, one above the other. Top: the original and converted score curves coincide and the unconverted curve is a different curve, each identical for starts 0 and 100; bottom: with a mismatched table the curves for starts 0, 100 and 1000 disagree](figures/rope.wrong_conversion.svg)

**Reading it:** the x-axis is the distance from key to query, the y-axis the
score. In the top panel, each run is drawn twice, once starting at position 0 and
once at 100, and the two copies of each lie on top of each other. The grey
original and the dashed blue converted run are the same curve; the vermillion
(orange-red) unconverted run is a different curve, so the model attends to the wrong
places even though every curve depends only on distance. In the bottom panel, the
mismatched table gives three different curves for three starting positions:
distance alone no longer decides the score.

<div class="primer-explorable" data-explorable="rope_turning" markdown="0"></div>

**Try it:** the box opens on this section's head (width 16, base 10,000) at gap
4, with the table's score of 2.3664 and the original curve of the figure's top
panel. It turns the query to the key's position plus the gap and the key to its
own, so move the key and see for yourself: in the original, converted and not
converted layouts the score stays put, while with the mismatched table it moves
(1.4066 with the key at 0, the table's 1.5689 at 3). Raise the gap or lower the
base and more pairs complete a turn, the fast ones first; width 128 is a
Llama-sized head.

**In code:** `head_scores` computes per-head scores for a layout;
`apply_rope_mismatched` is the table bug (an interleaved table handed to
`rotate_with_table`); `conversion_scores` and
`offset_spread` produce the table and the check above.

**Why it matters.** The classic broken conversion does not crash and does not
even break RoPE's signature property, so a sanity check of "scores depend only
on distance" passes. Only a comparison against the original model's outputs
catches it.

## 4. The conversion permutation

**Everyday picture.** Re-seating a dinner table so couples who sat side by
side now sit across from each other: nobody leaves, nobody new arrives, and
every couple is still together.

**Tiny worked example.** One head, d = 4. Interleaved pairs are (0, 1) at
$\theta_0$ and (2, 3) at $\theta_1$; half-split pairs are (0, 2) at $\theta_0$
and (1, 3) at $\theta_1$. So the old rows 0, 1 (pair 0) must land on new rows
0 and 2, and old rows 2, 3 (pair 1) on new rows 1 and 3. Read the other way,
the new rows take the old rows in the order [0, 2, 1, 3].

| new row | 0 | 1 | 2 | 3 |
|---|---|---|---|---|
| takes old row | 0 | 2 | 1 | 3 |
| pair, member | 0, first | 1, first | 0, second | 1, second |

```mermaid
flowchart LR
  subgraph OLD["interleaved rows"]
    O0["row 0: pair 0"]
    O1["row 1: pair 0"]
    O2["row 2: pair 1"]
    O3["row 3: pair 1"]
  end
  subgraph NEW["half-split rows"]
    N0["row 0: pair 0"]
    N1["row 1: pair 1"]
    N2["row 2: pair 0"]
    N3["row 3: pair 1"]
  end
  O0 --> N0
  O1 --> N2
  O2 --> N1
  O3 --> N3
```

**Reading it:** each arrow moves one row of the query (or key) projection.
The first members of all pairs go to the first half, the second members to
the second half, in pair order. With several heads the same shuffle happens
inside each head's block of rows, never across heads.

**The math.** Weight convention, as in PyTorch's `Linear`: a projection $W$
has shape $(n_{\text{heads}}\, d, d_{\text{model}})$ and $q = W x$, so permuting $q$'s
entries means permuting $W$'s rows. With $P$ the permutation,

$$
\begin{gathered}
W^{half} = P\, W^{inter}, \qquad R^{half}_m = P\, R^{inter}_m\, P^{\top}
\\ \Rightarrow\;
\langle R^{half}_m P q,\; R^{half}_n P k\rangle = \langle R^{inter}_m q,\; R^{inter}_n k\rangle
\end{gathered}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $W^{inter}$ | a query or key projection trained with interleaved pairs | 4 × 4 |
| $P$ | the permutation matrix: row $r$ of $PW$ is row $\pi(r)$ of $W$ | $\pi = [0, 2, 1, 3]$ |
| $P^{\top}$ | its transpose, which undoes it | $\pi^{-1} = [0, 2, 1, 3]$ |
| $R^{inter}_m$, $R^{half}_m$ | the rotation at position $m$ in each layout | |
| $\langle\cdot,\cdot\rangle$ | the score | |

**In words:** "the half-split rotation is the interleaved rotation with its
dimensions relabelled; relabel the projection's outputs the same way and the
relabelling cancels in every dot product."

**With the numbers:** with $W$ the identity and $x = (1, 2, 3, 4)$, the
converted query is $(1, 3, 2, 4)$. At position 1 the half-split rotation turns
$(1, 2)$ (dims 0 and 2) by 1 radian and $(3, 4)$ (dims 1 and 3) by 0.01
radian, giving $(-1.143, 2.960, 1.922, 4.030)$: the interleaved result
$(-1.143, 1.922, 2.960, 4.030)$ with its entries in the new order.

**In Python:**

```python
import numpy as np
from lessons.rope import (
    conversion_permutation,
    interleaved_to_half,
    half_to_interleaved,
    apply_rope_half,
    apply_rope_interleaved,
    head_scores,
)
conversion_permutation(4).tolist()  # → [0, 2, 1, 3]
conversion_permutation(4, n_heads=2).tolist()  # → [0, 2, 1, 3, 4, 6, 5, 7]
W = np.eye(4)
x = np.array([1.0, 2.0, 3.0, 4.0])
# q = W x, rows reordered
(interleaved_to_half(W, 1) @ x).tolist()  # → [1.0, 3.0, 2.0, 4.0]
[round(v, 3) for v in apply_rope_interleaved(W @ x, 1)]
# → [-1.143, 1.922, 2.96, 4.03]
[round(v, 3) for v in apply_rope_half(interleaved_to_half(W, 1) @ x, 1)]
# → [-1.143, 2.96, 1.922, 4.03]
# random weights, 2 heads: the scores agree, and the inverse round-trips
rng = np.random.default_rng(0)
W_q, W_k, X = (
    rng.normal(size=(16, 12)),
    rng.normal(size=(16, 12)),
    rng.normal(size=(5, 12)),
)
a = head_scores(W_q, W_k, X, 2, "interleaved")
b = head_scores(
    interleaved_to_half(W_q, 2), interleaved_to_half(W_k, 2), X, 2, "half"
)
bool(np.allclose(a, b))  # → True
bool(np.array_equal(half_to_interleaved(interleaved_to_half(W_q, 2), 2), W_q))
# → True
```

![An 8 by 8 grid with one dark cell per row, in two 4 by 4 blocks: inside each head the even old rows move to the top half and the odd old rows to the bottom half](figures/rope.conversion_matrix.svg)

**Reading it:** rows are the new (half-split) rows, columns the old
(interleaved) rows, and a bright cell says "this new row is that old row". The
vermillion (orange-red) lines cut the grid into two heads; every bright cell sits inside its own
head's block, so no row crosses from one head to another. Inside a block the
cells form the [0, 2, 1, 3] staircase of the worked example.

**In code:** `conversion_permutation` gives the row order,
`interleaved_to_half` applies it head by head and `half_to_interleaved`
applies its inverse. Hugging Face's `convert_llama_weights_to_hf.py` applies
the same reordering to Meta's checkpoints with a reshape to
(heads, d/2, 2, d_model) and a swap of the middle two axes.

**Why it matters.** This is the whole fix for a broken conversion: a fixed
reordering of rows, per head, on the query and key projections only. It is
exact, so the converted model's scores match the original's to rounding.

## 5. The precomputed cos/sin cache

**Everyday picture.** A times table on the classroom wall. Nobody works out
7 × 8 from scratch each time; they look up the row and the column.

**Tiny worked example.** dim = 4, base 10,000: speeds $\theta_0 = 1$ and
$\theta_1 = 0.01$. The cos table's row for position 2 is
$(\cos 2, \cos 0.02, \cos 2, \cos 0.02) = (-0.416, 1.000, -0.416, 1.000)$: the
two speeds, then the same two again, because half-split column j and column
j + dim/2 share an angle.

```mermaid
flowchart TB
  B["build once: cos, sin<br/>of $$pos \cdot \theta_j$$ for pos<br/>0 .. max_seq_len - 1"] --> T["tables<br/>(max_seq_len, dim)"]
  T --> S["slice rows start_pos ..<br/>start_pos + seq_len - 1"]
  S --> A["apply_rotary_emb:<br/>q cos + rotate_half(q) sin"]
  S -.->|"past<br/>the end"| G["grow the table<br/>(or raise)"]
```

**Reading it:** the tables are computed once, when the model is built. Every
forward pass slices the rows for the positions it needs and multiplies. The
dotted arrow is the case naive slicing gets wrong: a slice past the end.

**The math.**

$$
\text{cos}[pos, j] = \cos\!\big(pos \cdot \theta_{j \bmod d/2}\big), \qquad
\text{sin}[pos, j] = \sin\!\big(pos \cdot \theta_{j \bmod d/2}\big)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $pos$ | the row: a position from 0 to max_seq_len − 1 | 2 |
| $j$ | the column, from 0 to dim − 1 | 0 to 3 |
| $j \bmod d/2$ | the pair that column belongs to in the half-split layout | columns 0, 2 → pair 0 |
| $\theta$ | the pair speeds | 1 and 0.01 |

**In words:** "row pos, column j holds the cosine (or sine) of the angle that
column's pair has turned at that position."

What happens past the end is a choice. A common implementation simply
slices its cached tensors, and a slice past the end returns a shorter table,
or an empty one, without a word. This lesson
**grows** the table (to at least twice its size) by default: RoPE's
arithmetic exists at every position, the table is only a cache, and whether a
model is any good past its trained length is a question for context
extension, not for a lookup. `RotaryEmbedding(..., grow=False)` instead raises
a ValueError that names `start_pos + seq_len` and `max_seq_len`, for code
that wants the trained length as a hard stop.

**In Python:**

```python
import numpy as np
from lessons.rope import (
    RotaryEmbedding,
    apply_rotary_emb,
    apply_rope_half,
    rope_multiply_adds,
    table_bytes,
)
rope = RotaryEmbedding(4, max_seq_len=8)
cos, sin = rope(3)
[round(v, 3) for v in cos[2]]  # → [-0.416, 1.0, -0.416, 1.0]
# positions 10..13 from an 8-row table: grown, not truncated
cos, sin = rope(4, start_pos=10)
cos.shape, rope.max_seq_len  # → ((4, 4), 16)
q = np.random.default_rng(0).normal(size=(2, 4, 4))
q_rot, _ = apply_rotary_emb(q, q, cos, sin)
bool(np.allclose(q_rot, apply_rope_half(q, np.arange(10, 14))))  # → True
# 8,192 positions, dim 128, cos and sin in float32: bytes, then MiB
table_bytes(8192, 128), table_bytes(8192, 128) / 2**20  # → (8388608, 8.0)
# rotating one 128-wide vector, against projecting it from a 4,096-wide model
(
    rope_multiply_adds(128),
    128 * 4096,
    rope_multiply_adds(128) / (128 * 4096) < 0.0005,
)
# → (256, 524288, True)
```

![Two heatmaps of 128 positions by 64 columns: the left columns of each half flicker quickly and the right columns change slowly, and the pattern repeats at column 32](figures/rope.cos_sin_table.svg)

**Reading it:** each row is a position, each column a table column, colour
the value from −1 to +1. Within each half, the first columns (fast pairs)
change colour every few rows and the last columns (slow pairs) hardly change
in 128 positions. The right half of each table repeats the left half, because
column j and column j + 32 belong to the same pair.

**In code:** `RotaryEmbedding` builds the tables once with
`half_split_table` and slices them (`__call__` returns `(cos, sin)`),
`apply_rotary_emb` rotates q and k with them through `rotate_with_table`,
`rope_multiply_adds` counts the work and `table_bytes` gives their memory.

**Why it matters.** The table is why real models spend no trigonometry per
token, and its end is where a silent truncation hides.

## 6. Cached decoding: the new token's position must be passed

**Everyday picture.** A numbered ticket queue. The machine prints every
ticket once. If it reset to number 1 for each new customer, everyone would
think they were first.

**Tiny worked example.** A decoder has rotated and cached the keys of
positions 0 to 4. Token 5 arrives alone, as a sequence of length 1. A rotation
that defaults to "positions 0 .. seq_len − 1" gives it position 0, the
identity: its query and key are not turned at all, and every score it makes is
computed as if it sat at the start.

```mermaid
flowchart TB
  C["cache: keys of<br/>positions 0..4,<br/>already rotated"] --> S["scores"]
  N["new token"] --> Q["$$q$$, $$k$$"]
  Q --> R["rotate at start_pos = 5<br/>(the cache length)"]
  R --> S
  R --> A["append $$k$$<br/>to the cache"]
```

**Reading it:** the cache holds keys that were rotated when they were made,
so they never need rotating again. Only the new token is rotated now, and the
one number that says where it is, the cache length, has to travel with it.

**With the numbers:** rotating 12 random keys one at a time, each at its
true position $t$ (the cache length), reproduces the full-sequence result
exactly; rotating each at position 0 is off by up to 3.646 (largest
single-number error), and only step 0 is right.

**In Python:**

```python
from lessons.rope import decode_error
# largest error over 12 steps, each key rotated alone
float(decode_error(pass_position=True).max())  # → 0.0
round(float(decode_error(pass_position=False).max()), 3)  # → 3.646
# with position 0 every time, only step 0 is right
int((decode_error(pass_position=False) == 0).sum())  # → 1
```

![With the position passed the error is zero at every step; with position 0 every step after the first is off, by up to about 3.6](figures/rope.cached_decode.svg)

**Reading it:** the x-axis is the decoding step, which is also the new
token's true position; the y-axis is how far its rotated key is from the one
a full-sequence pass computes. The blue line sits at zero. The vermillion line is
zero at step 0, where position 0 happens to be right, and wrong at every later
step.

**In code:** `incremental_rope` rotates row by row through a
`RotaryEmbedding`, with or without `start_pos`; `decode_error` measures it.
`lessons.transformer` runs a whole decoder this way.

**Why it matters.** This bug hides from every test that runs whole sequences,
because prefill is always right. It shows only in generation.

## 7. Why V is never rotated

**Everyday picture.** A tour guide uses a compass bearing to decide which
visitor to answer (comparison), but the answer itself is not turned by the
bearing. Rotating the answer would make it depend on where the visitor stood.

**Tiny worked example.** Six tokens go through one causal head with q and k
rotated. Move the same six tokens 5 positions later: the output does not
change at all, since every score sees only gaps. Rotate V as well and the
output changes by up to 1.117.

```mermaid
flowchart TB
  X["tokens"] --> Q["$$q$$"] --> RQ["rotate"] --> S["scores:<br/>rotations cancel"]
  X --> K["$$k$$"] --> RK["rotate"] --> S
  S --> W["softmax weights"]
  X --> V["$$v$$: not rotated"] --> O["output = weights · $$v$$"]
  W --> O
```

**Reading it:** the rotations on q and k meet in a dot product, where only
their difference survives. V never meets another rotation: whatever turns it
would stay in the output, stamped with each key's absolute position.

**The math.**

$$
o_m = \sum_{n \le m} w_{mn}\, v_n, \qquad w_{mn} = \text{softmax}_n\!\big(\langle R_m q_m, R_n k_n\rangle / \sqrt{d}\big)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $o_m$ | the head's output for the token at position $m$ | |
| $w_{mn}$ | how much token $m$ attends to token $n$; depends only on the gap $m - n$ and content | |
| $v_n$ | token $n$'s value, not rotated | |
| $d$ | the head width | 8 |

**In words:** "the weights depend only on gaps, and the values carry no
position, so the output is the same wherever the sentence starts. Replace
$v_n$ with $R_n v_n$ and the output now mixes vectors turned by absolute
positions."

**In Python:**

```python
from lessons.rope import head_output_change
head_output_change(5, rotate_v=False) < 1e-12  # → True
round(head_output_change(5, rotate_v=True), 3)  # → 1.117
```

![With only q and k rotated the output change stays at zero for every shift; with V rotated it jumps above zero for every shift except 0](figures/rope.v_rotation.svg)

**Reading it:** the x-axis is how many positions later the same six tokens
are placed; the y-axis is the largest change in the head's output. The blue
line (q and k rotated) stays at zero: the head is blind to absolute position,
as RoPE intends. The vermillion line (V rotated too) is zero only at shift 0.

**In code:** `attention_output` runs one causal head with `rotate_v` off or
on, using `lessons.attention.scaled_dot_product_attention`;
`head_output_change` measures the difference. Conversion scripts copy the value projection
unchanged for the same reason: no rotation, no permutation.

**Why it matters.** Rotating V is a common mistake in hand-written RoPE, and
it throws away the property that made RoPE worth using.

## In 20 seconds

- RoPE comes in two layouts: interleaved pairs (2i, 2i+1), as in RoFormer,
  GPT-J and Meta's complex-number code, and half-split pairs (j, j + d/2), as
  in GPT-NeoX and the Hugging Face Llama code. Both are correct; they are not
  interchangeable.
- Converting between them reorders the rows of each query and key projection,
  head by head; value projections are untouched. A missing conversion keeps
  scores distance-only and is therefore silent.
- Real code reads cos and sin from a cached table; asking past its end must
  grow it or raise, never return fewer rows.
- At decode time, rotate the new token at position = cache length, and cache
  keys already rotated. Never rotate V.

## Self-test questions

??? question "A checkpoint's reference code multiplies by freqs_cis, a table of complex numbers. Which layout does it expect?"
    Interleaved: the complex form packs neighbouring dimensions (2i, 2i+1)
    into one number, so it is the interleaved layout written another way.

??? question "Interleaved and half-split RoPE: which is right, and how do you move a checkpoint from one to the other?"
    Both are right and they are incompatible. Reorder the rows of every query
    and key projection within each head (even rows first, then odd rows, for
    interleaved to half-split); use the key-value head count for keys; leave V.

??? question "A converted model's scores depend only on the distance between tokens. Does that show the conversion is right?"
    No. Unconverted weights keep that property too (-0.9555 at every start in
    this lesson's example, against 2.3664): they are simply the wrong scores.
    Compare logits with the original model on a real prompt.

??? question "The cos/sin table has 8 rows and a call asks for positions 10 to 13. What should happen?"
    Grow the table or raise an error that names the lengths. Slicing past the
    end returns fewer rows, or none, without a word.

??? question "Why must a RoPE function accept explicit positions?"
    With a key-value cache the model processes one new token at a time; its
    position is the number of cached tokens, not 0. A function that assumes
    positions 0..seq_len − 1 rotates it as position 0.

??? question "Why is V not rotated?"
    The rotations on q and k cancel in the dot product; nothing cancels a
    rotation on V, so the output would depend on absolute positions.

## The papers behind this lesson

- **Su et al. (2021), *RoFormer: Enhanced Transformer with Rotary Position
  Embedding*.** [arXiv:2104.09864](https://arxiv.org/abs/2104.09864) (companion: `papers.su2021_roformer`).
  Introduced RoPE, written with interleaved pairs and, equivalently, as
  multiplication by complex numbers.
- **Black et al. (2022), *GPT-NeoX-20B: An Open-Source Autoregressive Language
  Model*.** [arXiv:2204.06745](https://arxiv.org/abs/2204.06745). A 20B model
  trained with rotary embeddings on part of each head; its code rotates in the
  half-split layout, the one the Hugging Face Llama code also uses.
- **GPT-J-6B (Wang and Komatsuzaki, 2021)** is a model, not a paper: released
  by EleutherAI with its code in the mesh-transformer-jax repository and a
  model card. It rotates interleaved pairs on part of each head.

## Further reading

- EleutherAI, *Rotary Embeddings: A Relative Revolution* (2021):
  https://blog.eleuther.ai/rotary-embeddings/
- Hugging Face transformers, `convert_llama_weights_to_hf.py` (the `permute`
  function): https://github.com/huggingface/transformers/blob/main/src/transformers/models/llama/convert_llama_weights_to_hf.py
- Meta's Llama reference code (`precompute_freqs_cis`, the complex form):
  https://github.com/meta-llama/llama/blob/main/llama/model.py
- The GPT-J-6B model card: https://huggingface.co/EleutherAI/gpt-j-6b
"""

from __future__ import annotations

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, COLOUR_MAPS, MUTED, ORANGE, PURPLE, RED, legend_beside
from lessons._show import banner, gap_text, matrix, say, table, takeaway
from lessons.attention import causal_mask, scaled_dot_product_attention, split_heads
from lessons.positional import angle_table, apply_rope, rope_angles, rope_frequencies

PAIRINGS = ("interleaved", "half")  # the two correct layouts
LAYOUTS = (*PAIRINGS, "mismatched")  # and the table bug of section 3

# ---------------------------------------------------------------------------
# 1. Two layouts of one rotation
# ---------------------------------------------------------------------------


def rotate_half(x: np.ndarray) -> np.ndarray:
    """[x1, x2] -> [-x2, x1], halves split at d/2: each dimension's partner, turned a quarter, in the
    half-split rotation. (..., d) in (d even), (..., d) float array out.
    """
    x = np.asarray(x, dtype=float)
    d = _checks.even_width(x.shape[-1], "the last axis of x (d)")
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]  # (..., d/2) each
    return np.concatenate([-x2, x1], axis=-1)  # (..., d)


def half_split_table(angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of (..., d/2) angles in radians (e.g. `lessons.positional.rope_angles`) laid out
    for the half-split layout: (cos, sin), each (..., d). Columns j and j + d/2 belong to the same pair,
    so they share its angle: the table is [angles, angles].
    """
    # the same angle for dim j and dim j + d/2
    both = np.concatenate([angles, angles], axis=-1)  # (..., d)
    return np.cos(both), np.sin(both)


def rotate_with_table(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """The half-split rotation read from a cos/sin table: x' = x cos + rotate_half(x) sin.

    x is (d,) or (..., seq, d), d even; cos and sin broadcast against it, e.g. (seq, d) from
    `half_split_table` or `RotaryEmbedding`. Returns a float array of the broadcast shape.
    """
    x = np.asarray(x, dtype=float)
    # x' = x cos + rotate_half(x) sin
    return x * cos + rotate_half(x) * sin


def apply_rope_half(x: np.ndarray, positions=None, base: float = 10000.0) -> np.ndarray:
    """RoPE in the half-split layout (GPT-NeoX, Hugging Face Llama): dimension j
    turns together with dimension j + d/2, by the angle pos * theta_j.

    Args:
        x: one vector (d,) or a stack (..., seq, d); d even.
        positions: None (0 for a vector, 0..seq-1 for a stack), a number, or
            one position per row, (seq,); see `lessons.positional.rope_angles`.
        base: the RoPE base.

    Returns:
        float array shaped like x ((n, d) for a vector with n positions).
    """
    angles = rope_angles(x, positions, base)  # (seq, d/2)
    return rotate_with_table(x, *half_split_table(angles))


def apply_rope_interleaved(x: np.ndarray, positions=None, base: float = 10000.0) -> np.ndarray:
    """RoPE in the interleaved layout (RoFormer, GPT-J, Meta's Llama code): dimensions (2i, 2i+1)
    turn together. This is `lessons.positional.apply_rope` under this page's name, so the site has
    one interleaved implementation; x, positions and base as for `apply_rope_half`.
    """
    return apply_rope(x, positions, base)


def pair_partner(d: int, layout: str = "interleaved") -> np.ndarray:
    """For each dimension, the dimension it turns with: (d,) ints, for an even width d and `layout`
    "interleaved" (2i with 2i+1) or "half" (j with j + d/2).
    """
    d = _checks.even_width(d)
    _checks.one_of(layout, "layout", PAIRINGS)
    dims = np.arange(d)
    if layout == "interleaved":
        return dims ^ 1  # 0<->1, 2<->3, ...
    return (dims + d // 2) % d  # j <-> j + d/2


def pair_of(d: int, layout: str = "interleaved") -> np.ndarray:
    """For each dimension, the index i of its pair (so it turns at theta_i): (d,) ints 0..d/2-1,
    for an even width d and `layout` "interleaved" or "half".
    """
    d = _checks.even_width(d)
    _checks.one_of(layout, "layout", PAIRINGS)
    dims = np.arange(d)
    return dims // 2 if layout == "interleaved" else dims % (d // 2)


# ---------------------------------------------------------------------------
# 2. The complex-number form
# ---------------------------------------------------------------------------


def rope_complex(x: np.ndarray, positions=None, base: float = 10000.0) -> np.ndarray:
    """RoPE as complex multiplication: z_i = x_2i + i x_2i+1, z_i' = z_i e^(i pos theta_i).

    The interleaved layout read as d/2 complex numbers (Meta's `freqs_cis`
    code). Takes x, positions and base as `apply_rope_interleaved` does and
    returns the same array, to rounding.
    """
    x = np.asarray(x, dtype=float)
    angles = rope_angles(x, positions, base)  # (seq, d/2)
    # z_i = x_{2i} + i x_{2i+1}
    z = x[..., 0::2] + 1j * x[..., 1::2]  # (..., seq, d/2) complex
    # z_i' = z_i · e^{i pos θ_i}
    z = z * np.exp(1j * angles)
    out = np.empty(z.shape[:-1] + x.shape[-1:])
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


# ---------------------------------------------------------------------------
# 3. Scores under each layout, and what a wrong conversion does
# ---------------------------------------------------------------------------


def apply_rope_mismatched(x: np.ndarray, positions=None, base: float = 10000.0) -> np.ndarray:
    """A real bug, kept for the lesson: a cos/sin table laid out for interleaved
    pairs ([θ_0, θ_0, θ_1, θ_1, ...]) fed to the half-split formula. The two
    members of a pair then turn by different angles: it is no longer a rotation.
    Takes x, positions and base as `apply_rope_half` does; returns an array
    shaped like x.
    """
    angles = np.repeat(rope_angles(x, positions, base), 2, axis=-1)  # (seq, d): θ_0, θ_0, θ_1, θ_1, ...
    return rotate_with_table(x, np.cos(angles), np.sin(angles))


_ROTATE = {"interleaved": apply_rope_interleaved, "half": apply_rope_half, "mismatched": apply_rope_mismatched}


def head_scores(
    W_q: np.ndarray, W_k: np.ndarray, X: np.ndarray, n_heads: int,
    layout: str = "interleaved", positions=None, base: float = 10000.0,
) -> np.ndarray:
    """Pre-softmax scores q_m · k_n in every head, after RoPE in `layout`.

    Weights follow PyTorch's `Linear`: W has shape (d_out, d_in) =
    (n_heads · d_head, d_model) and is applied as Q = X @ W.T.

    Args:
        W_q, W_k: (n_heads · d_head, d_model) query and key projections; d_head even.
        X: (seq, d_model) token vectors, one per row.
        n_heads: number of heads.
        layout: "interleaved", "half" or "mismatched" (the table bug).
        positions, base: None (0..seq-1) or one position per row, (seq,); the RoPE base.

    Returns:
        (n_heads, seq, seq) float array: [h, m, n] is query m against key n.
    """
    rotate = _ROTATE[_checks.one_of(layout, "layout", LAYOUTS)]
    X = np.asarray(X, dtype=float)
    Q = split_heads(X @ np.asarray(W_q).T, n_heads)  # (n_heads, seq, d_head)
    K = split_heads(X @ np.asarray(W_k).T, n_heads)  # (n_heads, seq, d_head)
    Q, K = rotate(Q, positions, base), rotate(K, positions, base)
    # score[h, m, n] = q_m · k_n in head h
    return Q @ np.swapaxes(K, -1, -2)


def score_at(
    W_q: np.ndarray, W_k: np.ndarray, x_q: np.ndarray, x_k: np.ndarray, m: int, n: int,
    layout: str = "interleaved", n_heads: int = 1, head: int = 0, base: float = 10000.0,
) -> float:
    """One score: the token x_q queried at position m against the token x_k keyed at position n.

    W_q and W_k are (n_heads · d_head, d_model) projections applied as x @ W.T, x_q and x_k
    (d_model,) tokens; `layout` and `base` as for `head_scores`; `head` is the head read of
    `n_heads`. Returns the score, a float.
    """
    S = head_scores(W_q, W_k, np.stack([x_q, x_k]), n_heads, layout, np.array([m, n]), base)
    return float(S[head, 0, 1])


# ---------------------------------------------------------------------------
# 4. The conversion permutation
# ---------------------------------------------------------------------------


def conversion_permutation(d_head: int, n_heads: int = 1) -> np.ndarray:
    """Row order taking interleaved weights to half-split weights: (n_heads · d_head,) ints,
    new row r takes old row perm[r].

    New row h·d + j takes old row h·d + 2j; new row h·d + d/2 + j takes old
    row h·d + 2j + 1 (d = d_head, even): within each head, even rows first.
    """
    d_head = _checks.even_width(d_head, "d_head")
    n_heads = _checks.count(n_heads, "n_heads")
    # per head: the even rows (first member of each pair), then the odd rows
    one = np.concatenate([np.arange(0, d_head, 2), np.arange(1, d_head, 2)])  # (d_head,)
    return (np.arange(n_heads)[:, None] * d_head + one).ravel()  # (n_heads · d_head,)


def _head_width(w: np.ndarray, n_heads: int) -> int:
    """d_head of a projection whose rows hold n_heads heads of an even width."""
    n_heads = _checks.count(n_heads, "n_heads")
    rows = w.shape[0]
    if rows % n_heads:
        raise ValueError(f"n_heads: the weight's {rows} rows do not split into n_heads = {n_heads} heads")
    return _checks.even_width(rows // n_heads, f"d_head (the weight's {rows} rows / n_heads = {n_heads})")


def interleaved_to_half(w: np.ndarray, n_heads: int) -> np.ndarray:
    """Reorder the output rows of a query or key projection, head by head, from
    the interleaved layout to the half-split one.

    This is the permutation of Hugging Face's convert_llama_weights_to_hf.py.
    Weights follow PyTorch's `Linear` (q = W x, Q = X @ W.T), so the rows are
    the outputs.

    Args:
        w: (n_heads · d_head, ...) projection weight (or bias), d_head even.
        n_heads: heads in w; for a key projection, the key-value head count.

    Returns:
        array shaped like w, rows reordered.
    """
    w = np.asarray(w)
    return w[conversion_permutation(_head_width(w, n_heads), n_heads)]


def half_to_interleaved(w: np.ndarray, n_heads: int) -> np.ndarray:
    """The inverse of `interleaved_to_half`: half-split rows of w, (n_heads · d_head, ...), back to interleaved ones."""
    w = np.asarray(w)
    inverse = np.argsort(conversion_permutation(_head_width(w, n_heads), n_heads))
    return w[inverse]


# ---------------------------------------------------------------------------
# 5. The precomputed cos/sin cache
# ---------------------------------------------------------------------------


class RotaryEmbedding:
    """cos/sin tables for positions 0..max_seq_len-1, computed once and sliced.

    Columns follow the half-split layout (`half_split_table`): column j and
    column j + dim/2 hold the same angle pos · θ_j. Asking past the table
    grows it (doubling) when `grow` is True, the default; with grow=False it
    raises a ValueError that names start_pos + seq_len and max_seq_len. It
    never returns a short table.

    Args:
        dim: the rotated width of a head, a positive even integer.
        max_seq_len: rows built up front, a positive integer.
        base: the RoPE base.
        grow: grow the table past its end (True) or raise (False).

    Calling it, `rope(seq_len, start_pos)`, returns (cos, sin), each
    (seq_len, dim), for positions start_pos .. start_pos + seq_len - 1.
    """

    def __init__(self, dim: int, max_seq_len: int = 2048, base: float = 10000.0, grow: bool = True):
        self.dim = _checks.even_width(dim, "dim")
        self.base = _checks.positive(base, "base")
        self.grow = grow
        self.theta = rope_frequencies(self.dim, self.base)  # (dim/2,)
        self._build(_checks.count(max_seq_len, "max_seq_len"))

    def _build(self, n: int) -> None:
        # angle[pos, j] = pos · θ_j for pos 0..n-1, laid out for the half-split layout
        self.cos_cached, self.sin_cached = half_split_table(angle_table(np.arange(n), self.theta))  # (n, dim) each
        self.max_seq_len = n

    def __call__(self, seq_len: int, start_pos: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(cos, sin) for positions start_pos .. start_pos + seq_len - 1, each (seq_len, dim)."""
        seq_len = _checks.count(seq_len, "seq_len", low=0)
        start_pos = _checks.count(start_pos, "start_pos", low=0)
        end = start_pos + seq_len
        if end > self.max_seq_len:
            if not self.grow:
                raise ValueError(
                    f"start_pos + seq_len = {end} is past the cached table (max_seq_len = {self.max_seq_len}); "
                    f"raise max_seq_len or build with grow=True"
                )
            self._build(max(end, 2 * self.max_seq_len))
        return self.cos_cached[start_pos:end], self.sin_cached[start_pos:end]


def apply_rotary_emb(q: np.ndarray, k: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rotate q and k with a half-split cos/sin table: x' = x cos + rotate_half(x) sin.

    q and k are (..., seq, dim) (leading batch and head axes are fine; their head counts may
    differ), cos and sin (seq, dim) tables from `RotaryEmbedding`. Returns (q', k') shaped like q, k.
    """
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    for name, t in (("q", q), ("k", k)):
        if t.shape[-2:] != cos.shape[-2:]:
            raise ValueError(f"{name}: the last two axes {t.shape[-2:]} must match the table's (seq_len, dim) {cos.shape[-2:]}")
    return rotate_with_table(q, cos, sin), rotate_with_table(k, cos, sin)


def rope_multiply_adds(d: int) -> int:
    """Multiply-adds to rotate one vector of width d: x·cos + rotate_half(x)·sin is 2 per number, 2 · d."""
    return 2 * d


def table_bytes(max_seq_len: int, dim: int, bytes_per_number: int = 4) -> int:
    """Bytes of the cos and sin tables together: 2 · max_seq_len · dim numbers, each `bytes_per_number`
    (4 for float32, 2 for 16-bit floats).
    """
    return 2 * max_seq_len * dim * bytes_per_number


# ---------------------------------------------------------------------------
# 6. Cached decoding: the new token's position is passed explicitly
# ---------------------------------------------------------------------------


def incremental_rope(x: np.ndarray, rope: RotaryEmbedding, pass_position: bool = True) -> np.ndarray:
    """Rotate the (seq, dim) rows of x one at a time (row t at position t), the way a decoder with a KV
    cache meets them, with the tables of the `RotaryEmbedding` rope: (seq, dim). `pass_position`
    passes each row's position as start_pos; False rotates every row as if it were position 0,
    the classic bug.
    """
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    for t in range(x.shape[0]):
        cos, sin = rope(1, start_pos=t if pass_position else 0)  # (1, dim) each
        out[t : t + 1] = rotate_with_table(x[t : t + 1], cos, sin)
    return out


# ---------------------------------------------------------------------------
# 7. Why V is never rotated
# ---------------------------------------------------------------------------


def attention_output(
    X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray, W_v: np.ndarray,
    start_pos: int = 0, rotate_v: bool = False, base: float = 10000.0,
) -> np.ndarray:
    """One causal head with half-split RoPE, the sequence placed at start_pos, start_pos + 1, ...

    Weights follow PyTorch's `Linear`: (d_head, d_model), applied as X @ W.T.

    Args:
        X: (seq, d_model) token vectors.
        W_q, W_k, W_v: (d_head, d_model) projections; d_head even.
        start_pos: the first token's position; base: the RoPE base.
        rotate_v: also rotate the values (the mistake this section shows).

    Returns:
        (seq, d_head) float array, the head's output.
    """
    X = np.asarray(X, dtype=float)
    positions = start_pos + np.arange(X.shape[0])  # (seq,)
    Q, K, V = X @ W_q.T, X @ W_k.T, X @ W_v.T  # (seq, d_head) each
    Q, K = apply_rope_half(Q, positions, base), apply_rope_half(K, positions, base)
    if rotate_v:
        V = apply_rope_half(V, positions, base)
    out, _ = scaled_dot_product_attention(Q, K, V, mask=causal_mask(X.shape[0]))
    return out


# ---------------------------------------------------------------------------
# 8. The worked numbers behind the page and its figures
# ---------------------------------------------------------------------------

CASES = ("original", "converted", "not converted", "mismatched table")


def demo_weights(d_model: int = 16, d_head: int = 16, n_heads: int = 1, seed: int = 0):
    """Random projections and two token vectors for the worked examples.

    Returns:
        (W_q, W_k, x_q, x_k): W_q and W_k are (n_heads · d_head, d_model) in
        PyTorch's `Linear` layout (applied as x @ W.T), entries ~ N(0, 1/d_model);
        x_q and x_k are (d_model,).
    """
    rng = np.random.default_rng(seed)
    W_q = rng.normal(0.0, 1.0 / np.sqrt(d_model), (n_heads * d_head, d_model))
    W_k = rng.normal(0.0, 1.0 / np.sqrt(d_model), (n_heads * d_head, d_model))
    x_q, x_k = rng.normal(size=d_model), rng.normal(size=d_model)
    return W_q, W_k, x_q, x_k


def conversion_scores(m: int, n: int, d_head: int = 16, seed: int = 0) -> dict[str, float]:
    """The score of one query (position m) and one key (position n) in a
    one-head model trained with interleaved RoPE, run four ways.

    Returns:
        {case: score} for each of `CASES`: "original", "converted", "not
        converted" and "mismatched table".
    """
    W_q, W_k, x_q, x_k = demo_weights(d_head, d_head, 1, seed)
    P_q, P_k = interleaved_to_half(W_q, 1), interleaved_to_half(W_k, 1)
    runs = {
        "original": (W_q, W_k, "interleaved"),
        "converted": (P_q, P_k, "half"),
        "not converted": (W_q, W_k, "half"),
        "mismatched table": (P_q, P_k, "mismatched"),
    }
    return {case: score_at(Wq, Wk, x_q, x_k, m, n, layout) for case, (Wq, Wk, layout) in runs.items()}


def offset_spread(case: str, offset: int, starts=(0, 10, 100, 1000), d_head: int = 16, seed: int = 0) -> float:
    """max - min of one case's score (one of `CASES`) over the key positions `starts`, the query
    `offset` later: 0 when scores depend on offsets only.
    """
    _checks.one_of(case, "case", CASES)
    scores = [conversion_scores(s + offset, s, d_head, seed)[case] for s in starts]
    return float(max(scores) - min(scores))


def decode_error(seq_len: int = 12, dim: int = 16, seed: int = 0, pass_position: bool = True) -> np.ndarray:
    """Per decoding step, how far the step-by-step rotated key is from the full-sequence one.

    Returns:
        (seq_len,) float array: the largest absolute difference at each step.
    """
    x = np.random.default_rng(seed).normal(size=(seq_len, dim))
    rope = RotaryEmbedding(dim, max_seq_len=seq_len)
    full, _ = apply_rotary_emb(x, x, *rope(seq_len))
    return np.abs(incremental_rope(x, rope, pass_position) - full).max(axis=-1)


def head_output_change(shift: int, rotate_v: bool, seq_len: int = 6, d: int = 8, seed: int = 1) -> float:
    """Largest change max |output at 0 - output at shift| in one causal head's output when the same
    tokens are moved `shift` positions later: 0 (to rounding) unless `rotate_v` rotates the values
    too (the mistake). seq_len, d, seed: the random tokens (seq_len, d) and (d, d) weights.
    """
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(seq_len, d))
    W_q, W_k, W_v = (rng.normal(0.0, 1.0 / np.sqrt(d), (d, d)) for _ in range(3))
    a = attention_output(X, W_q, W_k, W_v, 0, rotate_v)
    b = attention_output(X, W_q, W_k, W_v, shift, rotate_v)
    return float(np.abs(a - b).max())


# ---------------------------------------------------------------------------
# 9. Figures
# ---------------------------------------------------------------------------


def figures() -> dict:
    """This lesson's figures, built from the functions above. Never saved or shown here."""
    import matplotlib.pyplot as plt

    figs = {}

    # Which dimensions pair up: colour = pair index i (speed θ_i)
    d = 8
    fig, ax = plt.subplots(figsize=(6.4, 2.6), layout="constrained")
    grid = np.stack([pair_of(d, "interleaved"), pair_of(d, "half")])  # (2, d)
    ax.imshow(grid, cmap="tab10", vmin=0, vmax=9, aspect="auto")
    for r in range(2):  # rows: interleaved, half
        for c in range(d):
            ax.text(c, r, f"pair {grid[r, c]}\nθ{grid[r, c]}", ha="center", va="center", color="white")
    ax.set_yticks([0, 1], ["interleaved\n(2i, 2i+1)", "half-split\n(j, j + d/2)"])
    ax.set_xticks(range(d), [f"dim {c}" for c in range(d)])
    ax.set_title("Which dimensions turn together (d = 8)")
    figs["pairing"] = fig

    # The complex form: one pair, z = 1 + 0.5i, turning θ = 1 rad per position
    fig, ax = plt.subplots(figsize=(4.2, 4.2), layout="constrained")
    t = np.linspace(0, 2 * np.pi, 200)
    z = 1.0 + 0.5j
    ax.plot(abs(z) * np.cos(t), abs(z) * np.sin(t), color=MUTED, lw=1)
    for pos in range(7):
        w = rope_complex(np.array([z.real, z.imag]), pos, base=10000.0)  # d = 2: θ_0 = 1
        ax.plot([0, w[0]], [0, w[1]], color=BLUE, lw=1, alpha=0.6)
        ax.plot(w[0], w[1], "o", color=BLUE)
        ax.annotate(f"pos {pos}", (w[0], w[1]), textcoords="offset points", xytext=(4, 4))
    ax.set_aspect("equal")
    ax.axhline(0, color=MUTED, lw=0.5)
    ax.axvline(0, color=MUTED, lw=0.5)
    ax.set_xlabel("real part = dim 2i")
    ax.set_ylabel("imaginary part = dim 2i+1")
    ax.set_title("z · exp(i pos θ): the pair walks the circle")  # plain text: a superscript is drawn too small
    figs["complex_plane"] = fig

    # Correct vs wrong conversion: score against distance
    dist = np.arange(0, 41)
    fig, (left, right) = plt.subplots(2, 1, figsize=(6.4, 6.4), layout="constrained", sharex=True, sharey=True)
    styles = {"original": (MUTED, "-", 5), "converted": (BLUE, "--", 1.8), "not converted": (RED, "-", 1.5)}
    for case, (color, ls, lw) in styles.items():
        for start in (0, 100):
            s = [conversion_scores(start + k, start, 16)[case] for k in dist]
            left.plot(dist, s, ls, color=color, lw=lw, label=case if start == 0 else None)
    left.set(title="Weights: scores vs distance, starts 0 and 100 overlaid", ylabel="score q·k")
    legend_beside(left)
    for start, color in ((0, RED), (100, ORANGE), (1000, PURPLE)):
        s = [conversion_scores(start + k, start, 16)["mismatched table"] for k in dist]
        right.plot(dist, s, color=color, lw=1.5, label=f"mismatched table, start {start}")
    s = [conversion_scores(k, 0, 16)["converted"] for k in dist]
    right.plot(dist, s, "--", color=BLUE, lw=1.8, label="converted (any start)")
    right.set(title="Table: a cos/sin table in the other layout breaks distance-only",
              xlabel="distance (query pos - key pos)", ylabel="score q·k")
    legend_beside(right)
    figs["wrong_conversion"] = fig

    # The conversion permutation as a matrix, 2 heads of d_head = 4
    perm = conversion_permutation(4, 2)
    P = np.zeros((8, 8))
    P[np.arange(8), perm] = 1.0  # new row r takes old row perm[r]
    fig, ax = plt.subplots(figsize=(4.6, 4.2), layout="constrained")
    ax.imshow(P, cmap=COLOUR_MAPS["amount"], vmin=0, vmax=1)
    ax.set_xticks(range(8), [f"{r}" for r in range(8)])
    ax.set_yticks(range(8), [f"{r}" for r in range(8)])
    ax.set_xlabel("old row (interleaved layout)")
    ax.set_ylabel("new row (half-split layout)")
    ax.axhline(3.5, color=RED, lw=1)
    ax.axvline(3.5, color=RED, lw=1)
    ax.set_title("interleaved_to_half: 2 heads, d_head = 4")
    figs["conversion_matrix"] = fig

    # The cached tables
    rope = RotaryEmbedding(64, max_seq_len=128)
    cos, sin = rope(128)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(6.4, 6.4), layout="constrained", sharex=True)
    for ax, table_, name in ((a1, cos, "cos"), (a2, sin, "sin")):
        im = ax.imshow(table_, aspect="auto", cmap=COLOUR_MAPS["signed"], vmin=-1, vmax=1)
        ax.set(title=f"{name} table (dim = 64)", ylabel="position")
    a2.set_xlabel("column (j and j + 32 repeat)")
    fig.colorbar(im, ax=(a1, a2), label="value")
    figs["cos_sin_table"] = fig

    # Cached decoding with and without the position
    figs["cached_decode"] = _wrong_and_right(
        np.arange(12), decode_error(pass_position=False), decode_error(pass_position=True),
        ("position forgotten (start_pos = 0)", "start_pos = tokens already cached"),
        xlabel="decoding step (the new token's true position)", ylabel="max |key - full-sequence key|",
        title="Decoding one token at a time: pass the position")

    # Rotating V breaks shift invariance of the output
    shifts = np.arange(0, 21)
    figs["v_rotation"] = _wrong_and_right(
        shifts, [head_output_change(s, True) for s in shifts], [head_output_change(s, False) for s in shifts],
        ("V rotated too (wrong)", "only q and k rotated"),
        xlabel="shift: the same tokens moved this many positions later", ylabel="max change in the head's output",
        title="Rotating V makes the output depend on absolute position")
    return figs


def _wrong_and_right(x, wrong, right, labels: tuple[str, str], **axes_text):
    """A line chart of the buggy run (red circles) and the correct run (blue squares) against x."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    ax.plot(x, wrong, "o-", color=RED, label=labels[0])
    ax.plot(x, right, "s-", color=BLUE, label=labels[1])
    ax.set(**axes_text)  # xlabel, ylabel, title
    fig.legend(frameon=False, loc="outside lower center", ncols=2)  # below: inside, it sat on the red run
    return fig


# ---------------------------------------------------------------------------
# 10. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. Two layouts of one rotation")
    x = np.arange(1.0, 9.0)  # (8,)
    table(["layout", "dim 0 turns with", "pairs"], [
        ("interleaved", int(pair_partner(8, "interleaved")[0]), "(0,1) (2,3) (4,5) (6,7)"),
        ("half-split", int(pair_partner(8, "half")[0]), "(0,4) (1,5) (2,6) (3,7)"),
    ])
    matrix("x = 1..8 at position 1, interleaved", apply_rope_interleaved(x, 1))
    matrix("x = 1..8 at position 1, half-split", apply_rope_half(x, 1))
    say(f"""Both keep the length: |x| = {np.linalg.norm(x):.4f}, after either rotation
        {np.linalg.norm(apply_rope_half(x, 1)):.4f}. The complex form agrees with the
        interleaved one to {gap_text(np.abs(rope_complex(x, 1) - apply_rope_interleaved(x, 1)).max())}.""")

    banner("2. A checkpoint trained interleaved, run half-split")
    rows = []
    for m, n in ((7, 3), (107, 103)):
        s = conversion_scores(m, n)
        rows.append((f"q at {m}, k at {n}", *(s[c] for c in CASES)))
    table(["pair", *CASES], rows, floatfmt=".4f")
    say("""Converted weights reproduce the original exactly. Unconverted weights give
        different scores that still depend only on distance, so nothing looks wrong.
        A cos/sin table in the other layout breaks even that.""")
    takeaway("Convert q_proj and k_proj rows per head; leave v_proj alone.")

    banner("3. The conversion permutation")
    say(f"d_head = 4, one head: new rows take old rows {conversion_permutation(4).tolist()}; "
        f"d_head = 8: {conversion_permutation(8).tolist()}.")

    banner("4. The cos/sin cache, and decoding")
    rope = RotaryEmbedding(16, max_seq_len=8)
    rope(4, start_pos=10)
    say(f"""Asking for positions 10..13 of an 8-row table grew it to {rope.max_seq_len} rows.
        Decoding step by step with the true position: worst error
        {gap_text(decode_error(pass_position=True).max())}; with position 0 every time:
        {decode_error(pass_position=False).max():.3f}.""")
    say(f"""Moving 6 tokens 5 positions later changes a head's output by
        {gap_text(head_output_change(5, False))} when only q and k turn, and by {head_output_change(5, True):.3f}
        when V turns too.""")
    takeaway("Rotate q and k, at their true positions; never v.")


if __name__ == "__main__":
    demo()
