r"""
# A tiny decoder in numpy, with any position scheme

Run: `python -m lessons.transformer`

Builds on `lessons.attention` (scores, masks, heads), `lessons.positional`
(where position comes from, and the learned table's hard ceiling),
`lessons.rope` (the rotation as real code caches and applies it) and
`lessons.alibi` (the distance bias, and no positions at all). Symbols are
decoded where they appear.

## Level 1: the practitioner's guide

**In one sentence.** A decoder language model is an embedding lookup, a stack
of identical blocks that each add an attention result and an MLP result to a
running vector per token, and an unembedding that turns the last vector into
scores for every word; where position enters decides whether the model has a
hard length ceiling, and a key-value cache turns each generated token from a
pass over the whole context into a pass over one token.

**When you need it.** When you read a model's config and want to know what
the numbers mean; when you estimate what serving a model costs per token; when
a generation loop you wrote gets slower with every token (no cache) or goes
wrong right after the prompt (a cache that forgets the new token's position);
when a model refuses inputs past a fixed length. The tell-tale symptoms are
time per token that grows with the length of the text so far, and an error or
garbage exactly at `max_position_embeddings`.

**Your options.** Each row is a choice the model's authors made, except the
cache, which is yours at inference time.

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Learned position table | Adds row `pos` of a trained table to the token vector | Simple; good inside the trained length | A hard ceiling: no row past the table | GPT-2, BERT; `max_position_embeddings` |
| Sinusoidal codes | Adds a fixed sine/cosine code to the token vector | No parameters; a code for any position | Position mixed into content; outputs change when text shifts | The 2017 transformer; `lessons.positional` |
| RoPE, ALiBi or no positions | Rotates q and k, or biases the scores by distance, inside attention; or adds nothing and leaves order to the causal mask | Scores that see only offsets; no ceiling in the arithmetic | RoPE needs scaling past the trained length, ALiBi prefers nearby tokens, no positions gives a weak order signal | Llama, Mistral, Qwen (`rope_theta`, `lessons.rope`); BLOOM, MPT; NoPE layers in Llama 4 and SmolLM3 (`no_rope_layers`, `lessons.alibi`) |
| LayerNorm or RMSNorm | Rescales each token's vector before attention and before the MLP | Stable training of deep stacks | RMSNorm drops the mean and the bias: slightly cheaper | GPT-2: LayerNorm (`layer_norm_epsilon`); Llama: RMSNorm (`rms_norm_eps`) |
| Tied or separate unembedding | Reuses the embedding table to score words, or trains a second one | Tied: vocab × d_model fewer parameters | Separate: more parameters, more freedom | `tie_word_embeddings` |
| KV cache | Keeps every past token's keys and values, so a new token is the only one processed | Work per token grows slowly with context instead of being redone | Memory that grows with every token | `use_cache` in Hugging Face generation; always on in serving engines |

**How to choose.** Start from what you are doing.

- Reading a config: `num_hidden_layers`, `num_attention_heads` and
  `max_position_embeddings` give the stack; the position scheme tells you
  whether that last number is a wall (learned table) or a trained length that
  can be stretched (RoPE, ALiBi).
- Writing a generation loop: keep a cache, feed only the new token, and pass
  its position (the cache length). Check once that cached logits equal a
  full forward pass, as this lesson's tests do.
- Serving: budget cache memory per token per sequence, not only weights.
- Long inputs to a learned-table model: chunk them; there is no row to look up.

**What it costs.** Counted in multiply-adds of matrix products (one multiply
and one add; 2 FLOPs), for GPT-2 small's shape (12 layers, width 768, a
50,257-word vocabulary and a 1,024-token context, from the GPT-2 paper,
Radford et al., 2019), by `decode_multiply_adds`:

- The 1,024th token costs 142,406,400 multiply-adds with a cache and
  145,824,153,600 without, 1,024 times more: without a cache, `forward`
  redoes the whole context.
- Generating all 1,024 tokens one at a time: 136,169,914,368 with a cache and
  71,436,346,982,400 without, about 525 times more.
- The cache itself, 16-bit numbers, at 1,024 tokens: 36 MiB per sequence
  (`lessons.attention.kv_cache_bytes`).
- This lesson's tiny model (vocabulary 50, width 16, 2 heads, 2 layers, tied
  unembedding) has 7,264 parameters, counted by `n_parameters`.

**What breaks.**

- **No cache.** Every new token reruns the whole context: time per token grows
  with the text so far. Keep keys and values.
- **The new token's position forgotten.** The cached step rotates (or looks
  up) the token at position 0, wrong from the first generated token
  (`lessons.rope` measures it). Pass the cache length as the position.
- **Past the learned table.** A learned-table model has no row for position
  `max_len`; `TinyGPT` raises a ValueError that names the position and the
  table size, as real libraries do. Chunk, or choose a model without a table.
- **ALiBi bias built from the step's own length.** In a cached step the query
  is one token long; the distances must come from the cache length, or every
  key looks equally near.
- **Shifting text under an absolute scheme.** With a learned table or
  sinusoidal codes, the same tokens at a different start give different
  logits; with RoPE, ALiBi or no positions, they give the same.

![On log-log axes, the work to produce each next token against the context length: with a key-value cache it stays nearly flat, without one it grows in proportion to the context](figures/transformer.kv_cache_work.svg)

**Reading it:** the horizontal axis is how many tokens are already in the
context, the vertical axis the multiply-adds to produce the next one, both
on log scales. With a cache (blue) the line is nearly flat up to the 1,024
tokens drawn: the model runs only the new token through its blocks. It is
not flat for ever, since the new token still reads every cached key: at
131,072 tokens (more than GPT-2's table holds, so a model of its shape with
another scheme) a cached step costs 21 times the first one (Level 2
computes it), and still 131,072 times less than a step with no cache. Without
one (vermillion, orange-red) every step runs the whole context again, and
the line climbs with the context. That is *No
cache*, below: keep the cache, feed only the new token, and pass its
position.

**In the wild.** GPT-2 uses pre-norm LayerNorm blocks, a learned table of
1,024 positions and an unembedding tied to its embedding (its paper, Radford et
al., 2019, and its released code). Llama models use RMSNorm and RoPE; the Llama 2 checkpoints keep a
separate unembedding, and `tie_word_embeddings` in a config says which one a
model uses. BLOOM and MPT use ALiBi. Hugging Face models return the cache as
`past_key_values` and reuse it when `use_cache` is on; serving engines such as
vLLM manage it for every request.

**Go deeper.** Level 2 runs one forward pass with the shape of every array,
writes out both norms, builds the cache and shows it reproduces the full pass
to within rounding, counts the work it saves, and checks which position
schemes notice where a sequence starts. If you needed to read a config or
budget a server, you can stop here.

## Level 2: how it works, from scratch

Level 2 follows one sequence of ten tokens through `TinyGPT` from token ids to
logits, then decodes it again one token at a time.

## 1. Tokens in: the embedding, and where position enters

**Everyday picture.** A coat check. Each ticket number (token id) fetches one
coat (a vector) from the rack. Some cloakrooms also pin a seat number to the
coat before handing it over; others leave the seat for later.

**Tiny worked example.** The tiny model has a vocabulary of 50 and a width of
16. Ten token ids go in; ten rows of the embedding table come out:

| step | array | shape |
|---|---|---|
| token ids | `tokens` | (10,) |
| embedding rows | W_emb[tokens] | (10, 16) |
| learned or sinusoidal | + a position row per token | (10, 16) |
| RoPE, ALiBi, none | nothing added here | (10, 16) |

```mermaid
flowchart TB
  T["token ids (seq,)"] --> E["$$W_{\text{emb}}$$ rows<br/>(seq, d_model)"]
  E --> L{"scheme"}
  P["positions start_pos ..<br/>start_pos + seq − 1"] --> L
  L -->|"learned"| A["+ $$W_{\text{pos}}$$ rows<br/>(raises past<br/>max_len)"]
  L -->|"sinusoidal"| S["+ sin/cos<br/>codes"]
  L -->|"rope, alibi,<br/>none"| N["nothing yet:<br/>position enters<br/>attention"]
  A --> X["x (seq, d_model)"]
  S --> X
  N --> X
```

**Reading it:** every scheme starts from the same lookup. Two schemes add a
position vector right here, which puts where a token sits into the content
every later layer reads. The other three add nothing at the bottom: RoPE and
ALiBi act inside each attention layer, and "none" relies on the causal mask.

**The math.**

$$
x_t = E_{\,\text{token}_t} + P_{\,\text{start\_pos} + t}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $t$ | the row: which token of this sequence, from 0 | 0 to 9 |
| $E$ | the embedding table, one row per vocabulary entry | 50 × 16 |
| $P$ | the position rows: a learned table (max_len rows) or sinusoidal codes; zero for RoPE, ALiBi and none | 16 × 16 |
| $\text{start\_pos}$ | where the sequence starts | 0 |
| $x_t$ | the vector the first block receives | 16 numbers |

**In words:** "each token's vector is its word's row, plus, in the two
absolute schemes, the row of its position."

**With the numbers:** the learned table has 16 rows, positions 0 to 15, so
four tokens placed at `start_pos` 14 need rows 14 to 17: row 16 does not exist
and the model raises a ValueError that names position 16 and the table size
16. Every other scheme runs there.

**In Python:**

```python
import numpy as np
from lessons.transformer import TinyGPT, TINY, POSITIONS, demo_tokens
tokens = demo_tokens(10)
tokens.shape, TinyGPT(**TINY).embed(tokens).shape  # → ((10,), (10, 16))
model = TinyGPT(**TINY, position="learned")
try:
    model.forward(demo_tokens(4), start_pos=14)
except ValueError as err:
    message = str(err)
message.split(";")[0]
# → 'position 16 is past the learned position table,
#   which has max_len = 16 rows (positions 0..15)'
[
    TinyGPT(**TINY, position=p).forward(demo_tokens(4), start_pos=14).shape
    for p in ("sinusoidal", "rope", "alibi", "none")
]
# → [(4, 50), (4, 50), (4, 50), (4, 50)]
POSITIONS  # → ('rope', 'learned', 'sinusoidal', 'alibi', 'none')
```

![Two heatmaps of 16 positions by 16 dimensions: the learned table is random noise, the sinusoidal codes are smooth stripes that change fast on the left and slowly on the right](figures/transformer.position_inputs.svg)

**Reading it:** each row is a position, each column one of the 16 numbers
added to the token vector. The learned table is noise because this model is
untrained; in a trained model it holds whatever training put there, and it
simply ends at row 15. The sinusoidal codes are a formula, so a row exists
for any position.

**In code:** `position=` names one of the schemes in `POSITION_SCHEMES`
(or is a `PositionScheme` object of your own), and the model calls its three
hooks: `add_to_embeddings` here, `rotate` on q and k and `score_bias` on the
scores in every attention layer. `TinyGPT.embed` looks up the rows and hands
them to `add_to_embeddings`: `LearnedPositions` adds a row of its table
(the ceiling is the one `lessons.positional` describes),
`SinusoidalPositions` a code from `lessons.positional.sinusoidal_encoding`,
and the other three return the rows unchanged.

**Why it matters.** This one line decides whether the model has a length
ceiling at all.

## 2. One block: causal multi-head attention and an MLP

**Everyday picture.** A meeting followed by desk work. In the meeting
(attention) each person may listen only to people who spoke before them and
takes notes; at their desk (the MLP) each person works alone on their notes.
Both results are added to the person's running file, never replacing it.

**Tiny worked example.** Shapes in block 0 of the tiny model (2 heads, so
each head is 8 wide). Each weight matrix is stored the way `torch.nn.Linear`
and Hugging Face checkpoints store it, (out, in), so a projection of the rows
of h is $h W^{\top}$:

| step | shape |
|---|---|
| x | (10, 16) |
| h = norm(x) | (10, 16) |
| q, k, v = h W_qᵀ, h W_kᵀ, h W_vᵀ | (10, 16) each |
| split into heads | (2, 10, 8) each |
| RoPE on q and k (if chosen) | (2, 10, 8) |
| scores q·k / √8, causal mask, ALiBi bias (if chosen) | (2, 10, 10) |
| softmax, times v | (2, 10, 8) |
| merge heads, times W_oᵀ | (10, 16) |
| x + that | (10, 16) |
| MLP: norm, W_1ᵀ, GELU, W_2ᵀ | (10, 16) → (10, 64) → (10, 16) |
| x + that | (10, 16) |

```mermaid
flowchart TD
  X["x (seq, d_model)"] --> N1["norm"]
  N1 --> QKV["q, k, v<br/>split into heads"]
  QKV --> R["RoPE on q, k<br/>(if position = rope)"]
  R --> S["scores + causal mask<br/>+ ALiBi bias (if alibi)"]
  S --> SM["softmax · v<br/>merge heads · $$W_o$$"]
  SM --> A1(("+"))
  X --> A1
  A1 --> N2["norm"]
  N2 --> M["$$W_1$$ → GELU → $$W_2$$"]
  M --> A2(("+"))
  A1 --> A2
  A2 --> OUT["x (seq, d_model)"]
```

**Reading it:** two sub-layers, each read from a normalised copy of the
stream and added back into the unnormalised stream (the "pre-norm" order of
GPT-2 and Llama). Position appears inside attention only for RoPE (turning q
and k) and ALiBi (a bias on the scores); v is never rotated.

**The math.**

$$
x \leftarrow x + \text{Attn}(\text{norm}(x)), \qquad
x \leftarrow x + \text{GELU}(\text{norm}(x)\, W_1^{\top} + c_1)\, W_2^{\top} + c_2
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $x$ | the residual stream: one vector per token, carried through every block | (10, 16) |
| $\leftarrow$ | "becomes" | |
| $\text{norm}$ | LayerNorm or RMSNorm (section 3) | |
| $\text{Attn}$ | causal multi-head attention, with RoPE or ALiBi inside if chosen, and the output projection $W_o$ | (10, 16) → (10, 16) |
| $W_1, c_1$ | the MLP's first layer and bias: width 16 to 64; $W_1$ is stored (out, in) | 64 × 16 |
| $\text{GELU}$ | a smooth version of "keep positives, zero negatives" | |
| $W_2, c_2$ | back from 64 to 16 | 16 × 64 |

**In words:** "each block adds what attention gathered from earlier tokens,
then adds what the MLP makes of it, to each token's running vector."

**In Python:**

```python
import numpy as np
from lessons.transformer import TinyGPT, TINY, demo_tokens
from lessons.attention import split_heads
model = TinyGPT(**TINY, position="rope")
x = model.embed(demo_tokens(10))
model.layers[0]["W_q"].shape, model.layers[0]["W_1"].shape
# → ((16, 16), (64, 16))
split_heads(x @ model.layers[0]["W_q"].T, 2).shape  # → (2, 10, 8)
model.block(0, x).shape  # → (10, 16)
w = model.attention_weights(demo_tokens(10))
w.shape  # → (2, 10, 10)
bool(np.allclose(w.sum(axis=-1), 1.0)), bool(np.all(np.triu(w, k=1) == 0))
# → (True, True)
```

![One small grid per position scheme of layer 0, head 0 attention weights: all are lower-triangular, and they differ in where the weight goes](figures/transformer.attention_weights.svg)

**Reading it:** each grid is query (row) by key (column), brighter meaning more
weight. Everything above the diagonal is zero, the darkest colour: no token looks ahead. The
grids differ because each scheme changes the scores: the random weights are
the same, and only the way position enters changes.

**In code:** `TinyGPT.block` runs one block; its attention calls
`lessons.attention.split_heads`, `lessons.attention.scaled_dot_product_attention`
with `lessons.attention.causal_mask`, and the scheme's hooks: for RoPE,
`RotaryPositions.rotate` calls `lessons.rope.apply_rotary_emb` with tables
from `lessons.rope.RotaryEmbedding`; for ALiBi, `ALiBiPositions.score_bias`
calls `lessons.alibi.alibi_bias_at`. `gelu` is the MLP's non-linearity.

**Why it matters.** Every decoder LLM is this block repeated; the differences
between model families are mostly in the norm, the MLP's shape and where
position enters.

## 3. The residual stream, its norm, and the way out

**Everyday picture.** A shared document that everyone edits only by
appending. Before each editor reads it they zoom it to a standard size (the
norm), but the document itself is never shrunk. At the end, one final zoom,
and a reader compares the last line with every word in the dictionary.

**Tiny worked example.** Normalise $x = (1, 2, 3, 4)$ both ways. LayerNorm
subtracts the mean 2.5 and divides by the standard deviation $\sqrt{1.25}$:
$(-1.342, -0.447, 0.447, 1.342)$. RMSNorm only divides by the root mean square
$\sqrt{7.5} = 2.739$: $(0.365, 0.730, 1.095, 1.461)$.

```mermaid
flowchart TB
  X["x after the last block<br/>(seq, d_model)"] --> N["final norm"]
  N --> U["$$\cdot\, W_{\text{emb}}^\top$$ (tied)<br/>or $$\cdot\, W_{\text{out}}^\top$$"]
  U --> L["logits<br/>(seq, vocab)"]
```

**Reading it:** after the blocks, one more norm, then a product with a
(d_model, vocab) matrix gives one score per vocabulary entry per token. With
tied weights that matrix is the embedding table turned on its side, so a word
scores high when the final vector points the way its embedding points.

**The math.**

$$
\begin{gathered}
\text{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} \odot g + b, \qquad
\text{RMS}(x) = \frac{x}{\sqrt{\tfrac{1}{d}\sum_j x_j^2 + \epsilon}} \odot g,
\\ \text{logits} = \text{norm}(x)\, E^{\top}
\end{gathered}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $\mu$, $\sigma^2$ | the mean and variance of the $d$ numbers of one token's vector | 2.5 and 1.25 |
| $\epsilon$ | a tiny number that avoids dividing by zero | $10^{-5}$ |
| $g$, $b$ | a learned gain and bias per dimension (RMSNorm has no $b$) | ones and zeros at initialisation |
| $\odot$ | multiply matching entries | |
| $E^{\top}$ | the embedding table turned on its side: (d_model, vocab) | 16 × 50 |
| logits | one score per vocabulary entry, before softmax | (10, 50) |

**In words:** "LayerNorm centres and scales each token's vector; RMSNorm only
scales it; the logits compare the final vector with every word's embedding."

**In Python:**

```python
import numpy as np
from lessons.transformer import (
    layer_norm,
    rms_norm,
    residual_norms,
    TinyGPT,
    TINY,
    GPT2_SMALL,
    demo_tokens,
)
x = np.array([1.0, 2.0, 3.0, 4.0])
[round(v, 3) for v in layer_norm(x, np.ones(4), np.zeros(4))]
# → [-1.342, -0.447, 0.447, 1.342]
[round(v, 3) for v in rms_norm(x, np.ones(4))]  # → [0.365, 0.73, 1.095, 1.461]
TinyGPT(**TINY).forward(demo_tokens(10)).shape  # → (10, 50)
# tied: the unembedding is the embedding table; separate adds vocab × d_model
(
    TinyGPT(**TINY).n_parameters(),
    TinyGPT(**TINY, tie_embeddings=False).n_parameters(),
)
# → (7264, 8064)
GPT2_SMALL["vocab_size"] * GPT2_SMALL["d_model"]  # → 38597376
# the stream's mean vector length, 6 blocks: after the embedding, then after
# the last block
ln, rms = residual_norms("layernorm"), residual_norms("rmsnorm")
round(float(ln[0])), round(float(ln[-1])), round(float(rms[-1]))
# → (4, 12, 12)
```

![The mean length of a token's vector grows block after block for both LayerNorm and RMSNorm models, from about 4 after the embedding to about 12 after six blocks](figures/transformer.residual_norms.svg)

**Reading it:** the x-axis counts blocks in a 6-block version of the tiny
model; the y-axis is the average length of a token's vector in the stream.
It grows, because each block adds to the stream and nothing rescales the
stream itself: the norms act only on the copies that the sub-layers read. That
is the "pre-norm" design, and the reason a final norm sits before the
unembedding.

**In code:** `layer_norm`, `rms_norm` (chosen with `norm=`), `TinyGPT.unembed`
(final norm and tied or separate unembedding, with `tie_embeddings`),
`TinyGPT.forward` for the whole pass, `residual_norms` for the figure.

**Why it matters.** The logits for every position come out of one pass; a
generation loop needs only the last row, which is what the cache exploits.

## 4. The KV cache: decoding one token at a time

**Everyday picture.** Minutes of a meeting. A latecomer does not make everyone
repeat what they said; they read the minutes and speak once.

**Tiny worked example.** Decode the ten tokens one at a time. Step $t$ feeds
only token $t$. Each layer computes its q, k and v (one row each), appends k
and v to that layer's cache, and attends from the single q to all $t + 1$
cached keys. After ten steps each layer's cache holds keys of shape
(2, 10, 8): 2 heads, 10 tokens, 8 numbers.

```mermaid
flowchart TB
  T["new token,<br/>position = cache length"] --> QKV["q, k, v<br/>(n_heads, 1, d_head)"]
  QKV --> R["RoPE at that position<br/>(keys cached rotated)"]
  R --> C["append k, v to the cache<br/>(n_heads, length + 1,<br/>d_head)"]
  C --> A["attend: one q<br/>against all keys;<br/>ALiBi bias from<br/>the cache length"]
  A --> NEXT["next block, then logits (vocab,)"]
```

**Reading it:** only the new token flows through the model. Its position is
not counted from the step's own input (which always has length 1) but taken
from the cache. Keys are stored after rotation, so old keys are never touched
again; with ALiBi the distances come from the cache length as well.

**The math.** At step $t$, in each layer and head,

$$
o_t = \sum_{j=0}^{t} \text{softmax}_j\!\left(\frac{q_t \cdot k_j}{\sqrt{d_{\text{head}}}} + b_{tj}\right) v_j
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $t$ | the new token's position, equal to the cache length before the step | 0 to 9 |
| $q_t$ | the new token's query (rotated at $t$ for RoPE) | 8 numbers per head |
| $k_j, v_j$ | cached keys and values of tokens $0..t$ (keys rotated when made) | |
| $b_{tj}$ | ALiBi's $-\text{slope}\cdot(t - j)$, or 0 for other schemes | |
| $d_{\text{head}}$ | the head width | 8 |

**In words:** "the new token's output is the same weighted sum it would get
in a full pass, because every key and value it needs is already in the
cache, computed exactly as the full pass computes it."

**With the numbers:** for every position scheme, step-by-step logits match `forward` on the whole sequence to within $10^{-12}$ (rounding), far
inside the tests' tolerance of $10^{-9}$.

**In Python:**

```python
import numpy as np
from lessons.transformer import (
    TinyGPT,
    TINY,
    POSITIONS,
    demo_tokens,
    cache_gap,
)
model = TinyGPT(**TINY, position="rope")
tokens = demo_tokens(10)
cache = model.new_cache()
steps = np.stack([model.step(int(t), cache) for t in tokens])
cache.length, cache.keys[0].shape  # → (10, (2, 10, 8))
bool(np.allclose(steps, model.forward(tokens), rtol=0, atol=1e-9))  # → True
gaps = [
    cache_gap(p) for p in POSITIONS
]  # rope, learned, sinusoidal, alibi, none
max(gaps) < 1e-12  # → True
```

![For every position scheme the largest difference between cached step logits and forward logits is rounding, drawn at the bound 1e-12, three decades under the 1e-9 tolerance line](figures/transformer.cache_agreement.svg)

**Reading it:** one bar per position scheme, on a logarithmic scale; the
dashed line is the tests' tolerance. Every gap is floating-point rounding
(the block above holds each below $10^{-12}$) and is drawn at the site's
rounding bound, $10^{-12}$: the digits of a rounding gap depend on the order in
which the CPU's kernels sum, not on the lesson. The cache changes how the work
is organised, not the result.

**In code:** `TinyGPT.new_cache` makes an empty `KVCache`; `TinyGPT.step`
runs one token and appends to it; `cache_gap` compares against `forward`.
The new token's position is `cache.length`, passed as `start_pos`, which is
the bug `lessons.rope` warns about; for ALiBi the step asks `score_bias` for
that one query position against the cached key positions 0 to
`cache.length`.

**Why it matters.** Serving engines run exactly this loop; a test that
compares it against a full pass catches the position and bias bugs that
prompt-only tests miss.

## 5. Counting the work the cache saves

**Everyday picture.** Rereading a whole book before writing each new word,
versus reading only your last sentence and your notes.

**Tiny worked example.** Count multiply-adds in the tiny model's matrix
products (width 16, 2 layers, vocabulary 50). A cached step at context length
10 costs 7,584; `forward` over all 10 tokens costs 75,840, ten times as much.
The model counts as it runs (`multiply_adds`), and the counts agree with
`decode_multiply_adds` exactly.

```mermaid
flowchart TB
  N["context of $$n$$ tokens"] --> C{"cache?"}
  C -->|"yes"| ONE["1 token through<br/>$$L$$ layers:<br/>$$L\,(4d^2 + 2 d\, d_{\text{ff}}$$<br/>$$+\ 2 n d) + d V$$"]
  C -->|"no"| ALL["$$n$$ tokens through<br/>$$L$$ layers:<br/>$$L\,n\,(4d^2 + 2 d\, d_{\text{ff}})$$<br/>$$+\ 2 L n^2 d + n d V$$"]
```

**Reading it:** with a cache, only the attention term grows with the context
(one query against n keys). Without it, every term is multiplied by n, and
attention by n twice.

**The math.**

$$
\begin{aligned}
C_{\text{cache}}(n) &= L\,(4d^2 + 2 d\, d_{\text{ff}} + 2 n d) + d V,
\\ C_{\text{none}}(n) &= L\,(n(4d^2 + 2 d\, d_{\text{ff}}) + 2 n^2 d) + n d V = n\, C_{\text{cache}}(n)
\end{aligned}
$$

**Symbols**

| Symbol | Meaning here | In the example (tiny / GPT-2 small) |
|---|---|---|
| $n$ | tokens in the context, the new one included | 10 / 1,024 |
| $L$ | layers | 2 / 12 |
| $d$ | model width | 16 / 768 |
| $d_{\text{ff}}$ | the MLP's inner width, $4d$ | 64 / 3,072 |
| $V$ | vocabulary size | 50 / 50,257 |
| $4d^2$ | the q, k, v and output projections for one token | |
| $2 n d$ | one query's scores against n keys, plus the weighted sum of n values | |
| $dV$ | one row of logits | |

**In words:** "with a cache, one token goes through the layers; without one,
all n do, and the full n × n score grid is computed, so the cost is exactly
n times higher in this count." Norms, softmax, GELU and RoPE are left out:
they are not matrix products and are small beside them.

**With the numbers:** GPT-2 small's shape at n = 1,024: 142,406,400 with the
cache, 145,824,153,600 without. Over a whole 1,024-token generation the totals
are 136,169,914,368 and 71,436,346,982,400.

**In Python:**

```python
from lessons.transformer import (
    decode_multiply_adds,
    generation_multiply_adds,
    GPT2_SMALL,
    TinyGPT,
    TINY,
    demo_tokens,
)
from lessons.attention import kv_cache_bytes
(
    decode_multiply_adds(10, 16, 2, 50),
    decode_multiply_adds(10, 16, 2, 50, cached=False),
)
# → (7584, 75840)
model = TinyGPT(**TINY)
model.forward(demo_tokens(10))
model.multiply_adds  # → 75840
cached, uncached = (
    decode_multiply_adds(1024, **GPT2_SMALL),
    decode_multiply_adds(1024, **GPT2_SMALL, cached=False),
)
cached, uncached  # → (142406400, 145824153600)
uncached / cached  # → 1024
total = (
    generation_multiply_adds(1024, **GPT2_SMALL),
    generation_multiply_adds(1024, **GPT2_SMALL, cached=False),
)
total  # → (136169914368, 71436346982400)
round(total[1] / total[0], 1), round(total[1] / total[0])  # → (524.6, 525)
# the figure: a cached step from 1 to 1,024 tokens grows by about 15%; no
# cache ends near 1.5e11
first = decode_multiply_adds(1, **GPT2_SMALL)
(
    f"{first:.1e}",
    f"{cached:.1e}",
    round(100 * (cached / first - 1)),
    f"{uncached:.1e}",
)
# → ('1.2e+08', '1.4e+08', 15, '1.5e+11')
# far past the figure: a cached step at 131,072 tokens over the first one,
# and the same step with no cache over the cached one
long = decode_multiply_adds(131_072, **GPT2_SMALL)
uncached_long = decode_multiply_adds(131_072, **GPT2_SMALL, cached=False)
round(long / first), round(uncached_long / long)  # → (21, 131072)
# the cache at 1,024 tokens: 12 layers, 12 heads of width 64, 16-bit numbers
kv_cache_bytes(1024, 12, 12, 64, 2) / 2**20  # → 36
```

![On log-log axes the multiply-adds per token with a cache stay near 1.2e8 to 1.4e8 while without a cache they grow in proportion to the context length, reaching about 1.5e11 at 1,024 tokens](figures/transformer.kv_cache_work.svg)

**Reading it:** the x-axis is the context length, the y-axis the
multiply-adds to produce the next token, both logarithmic. The blue line
(cache) is nearly flat: at GPT-2 small's size the projections, MLP and
logits dominate, and the growing attention term adds only about 15% by 1,024
tokens. The vermillion (orange-red) line (no cache) climbs with slope one: every doubling of the
context doubles the work for each new token.

**In code:** `decode_multiply_adds` and `generation_multiply_adds` compute the
counts; `TinyGPT.multiply_adds` counts the real products as the model runs,
and the tests check the two agree for both `forward` and `step`.

**Why it matters.** Without a cache, generating a long answer costs time
that grows with the square of its length; with one, it grows almost linearly,
at the price of memory.

## 6. Which schemes see where a sequence starts

**Everyday picture.** Two rulers: one with numbers printed on it (absolute),
one with only equal tick marks (relative). Slide a drawing along the second
and nothing about its measurements changes.

**Tiny worked example.** Run the same six tokens at `start_pos` 0 and at
`start_pos` 5, and compare the logits. With a learned table the largest
change is 13.511; with sinusoidal codes 5.535; with RoPE, ALiBi or no
positions, nothing beyond rounding.

```mermaid
flowchart TB
  T["same tokens"] --> S0["start_pos = 0"]
  T --> S5["start_pos = 5"]
  S0 --> C{"compare<br/>logits"}
  S5 --> C
  C -->|"learned,<br/>sinusoidal"| D["differ: position<br/>added to the content"]
  C -->|"rope, alibi,<br/>none"| E["identical: only<br/>offsets reach the scores"]
```

**Reading it:** the two absolute schemes put the position into the vectors,
so every layer sees it. RoPE's rotations cancel into offsets inside every
score (`lessons.rope`), ALiBi's bias is a function of offsets, and with no
positions there is nothing to shift. So layer 0's scores do not change (the
layer-0 scores of six tokens at `start_pos` 0 and 5 differ by less than
$10^{-12}$), its output does not, and neither does any later layer's, up to
the logits.

**In Python:**

```python
import numpy as np
from lessons.transformer import TinyGPT, TINY, demo_tokens, shift_change
model = TinyGPT(**TINY, position="rope")
t = demo_tokens(6)
# pre-softmax q·k/√d_head of layer 0, at two starting positions
bool(
    np.allclose(
        model.attention_scores(t, start_pos=0),
        model.attention_scores(t, start_pos=5),
        rtol=0,
        atol=1e-12,
    )
)
# → True
round(shift_change("learned", 5), 3), round(shift_change("sinusoidal", 5), 3)
# → (13.511, 5.535)
[shift_change(p, 5) < 1e-12 for p in ("rope", "alibi", "none")]
# → [True, True, True]
# past max_len: RoPE runs on (its cos/sin cache grows), and so does ALiBi's
# bias
TinyGPT(**TINY, position="rope").forward(t, start_pos=100).shape  # → (6, 50)
TinyGPT(**TINY, position="alibi").forward(demo_tokens(20)).shape  # → (20, 50)
```

![As start_pos grows from 0 to 10, the logit change stays at zero for RoPE, ALiBi and no positions, and jumps to large values for the learned table and sinusoidal codes](figures/transformer.shift_invariance.svg)

**Reading it:** the x-axis is how far the same six tokens are shifted; the
y-axis is the largest change in the logits. The schemes that add a position
vector (learned, sinusoidal) change at every shift; the ones that see only
offsets (RoPE, ALiBi, none) stay flat at zero.

**In code:** `TinyGPT.attention_scores` returns a layer's pre-softmax scores
($q\cdot k/\sqrt{d_{\text{head}}}$, before the mask and any ALiBi bias);
`shift_change` compares whole forward passes, for any scheme in `POSITIONS`.

**Why it matters.** Relative schemes make a model's behaviour independent of
where a passage starts, which is what lets RoPE and ALiBi models run past the
length they were built for (well or badly: that is the context-extension
question), while a learned table stops dead.

## In 20 seconds

- A decoder is: embedding lookup, a stack of pre-norm blocks (attention, then
  MLP, each added to the residual stream), a final norm and an unembedding.
- Position enters either at the bottom (learned table, sinusoidal) or inside
  attention (RoPE rotates q and k, ALiBi biases scores); only a learned table
  has a hard ceiling.
- A KV cache stores each layer's keys (RoPE-rotated) and values, so each new
  token is processed alone at position = cache length; its logits equal a full
  pass.
- Per generated token the cache cuts matrix work by a factor of the context
  length: 1,024 times at GPT-2 small's 1,024 tokens.

## Self-test questions

??? question "Why does the cache store keys after RoPE has rotated them?"
    A key's rotation depends only on its own position, which never changes,
    so rotating it once is enough; storing it unrotated would force rotating
    every cached key again at every step.

??? question "Why does ALiBi need the cache length in a cached step?"
    Its bias is −slope times the distance from the query to each key. The
    query sits at position length − 1 of the cache, so distances must be
    counted from there, not from a one-token sequence.

??? question "What does pre-norm mean, and why is there a final norm?"
    Each sub-layer reads a normalised copy of the stream and adds its result
    to the unnormalised stream, so the stream itself grows through the stack;
    a final norm rescales it before the unembedding.

??? question "Without a cache, how does the work for the next token grow with the context length n, and with one?"
    In this count, without a cache it is n times the cached cost, so it grows
    in proportion to n (and the total for a whole generation with n squared);
    with a cache only the attention term 2nd per layer grows.

??? question "What does tying the unembedding save?"
    A vocab × d_model matrix: 800 parameters in the tiny model, and
    38,597,376 for GPT-2 small's shape.

## The papers behind this lesson

- **Vaswani et al. (2017), *Attention Is All You Need*.**
  [arXiv:1706.03762](https://arxiv.org/abs/1706.03762) (companion: `papers.vaswani2017_attention`). The transformer:
  multi-head attention, residual blocks and sinusoidal positions.
- **Radford et al. (2019), *Language Models are Unsupervised Multitask
  Learners*** (GPT-2; an OpenAI report, not on arXiv):
  https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf.
  The decoder shape used here: pre-norm LayerNorm blocks, a learned position
  table and a tied unembedding.
- **Xiong et al. (2020), *On Layer Normalization in the Transformer
  Architecture*.** [arXiv:2002.04745](https://arxiv.org/abs/2002.04745).
  Why placing the norm before each sub-layer trains more stably.
- **Zhang and Sennrich (2019), *Root Mean Square Layer Normalization*.**
  [arXiv:1910.07467](https://arxiv.org/abs/1910.07467). RMSNorm: LayerNorm
  without the mean, as used by Llama.
- **Press and Wolf (2017), *Using the Output Embedding to Improve Language
  Models*.** [arXiv:1608.05859](https://arxiv.org/abs/1608.05859). Tying the
  embedding and the unembedding.
- **Hendrycks and Gimpel (2016), *Gaussian Error Linear Units (GELUs)*.**
  [arXiv:1606.08415](https://arxiv.org/abs/1606.08415). The MLP's
  non-linearity.
- **Su et al. (2021), *RoFormer*.** [arXiv:2104.09864](https://arxiv.org/abs/2104.09864) (companion: `papers.su2021_roformer`).
  RoPE; its practice is `lessons.rope`.
- **Press et al. (2021), *Train Short, Test Long: Attention with Linear Biases*.**
  [arXiv:2108.12409](https://arxiv.org/abs/2108.12409) (companion: `papers.press2021_alibi`). ALiBi.
- **Pope et al. (2022), *Efficiently Scaling Transformer Inference*.**
  [arXiv:2211.05102](https://arxiv.org/abs/2211.05102). The cost of decoding
  with a key-value cache at scale.

## Further reading

- Andrej Karpathy, nanoGPT (a GPT-2 in about 300 lines of PyTorch):
  https://github.com/karpathy/nanoGPT
- Jay Alammar, *The Illustrated GPT-2*: https://jalammar.github.io/illustrated-gpt2/
- Hugging Face Transformers, caching during generation:
  https://huggingface.co/docs/transformers/main/en/cache_explanation
"""

from __future__ import annotations

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, COLOUR_MAPS, RED, SCHEME_LOOKS, legend_beside
from lessons._show import ROUNDING, banner, gap_text, say, table, takeaway
from lessons.alibi import alibi_bias_at
from lessons.attention import causal_mask, merge_heads, scaled_dot_product_attention, split_heads
from lessons.positional import sinusoidal_encoding
from lessons.rope import RotaryEmbedding, apply_rotary_emb

NORMS = ("layernorm", "rmsnorm")

# ---------------------------------------------------------------------------
# 1. The pieces of a block: norms and the MLP's non-linearity
# ---------------------------------------------------------------------------


def layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """(x - mean) / sqrt(var + eps) · gain + bias over the last axis, as in GPT-2.

    x: (..., d); gain, bias: (d,); returns the shape of x.
    """
    mean = x.mean(axis=-1, keepdims=True)  # (seq, 1)
    var = x.var(axis=-1, keepdims=True)  # (seq, 1)
    # x̂ = (x - μ) / √(σ² + ε)
    return (x - mean) / np.sqrt(var + eps) * gain + bias


def rms_norm(x: np.ndarray, gain: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """x / sqrt(mean(x²) + eps) · gain over the last axis, as in Llama: no mean, no bias.

    x: (..., d); gain: (d,); returns the shape of x.
    """
    # x / RMS(x)
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * gain


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU, tanh form: 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))), entry by entry; any shape."""
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


# ---------------------------------------------------------------------------
# 2. Where position enters: one small object per scheme
# ---------------------------------------------------------------------------


class PositionScheme:
    """How position enters `TinyGPT`; this base class lets it in nowhere.

    A scheme has three hooks, which TinyGPT calls with integer positions:
    `add_to_embeddings(x, positions)` with x (seq, d_model) and positions (seq,),
    returns (seq, d_model); `rotate(Q, K, positions)` with Q, K (n_heads, seq,
    d_head), returns both rotated; `score_bias(query_positions, key_positions)`
    returns None or an additive bias (n_heads, n_q, n_k) for the scores.
    `setup` is called once, by the model that owns the scheme.
    """

    name = "base"

    def setup(self, rng: np.random.Generator, d_model: int, n_heads: int, max_len: int) -> None:
        """Draw or build what the scheme needs; called right after the embedding table is drawn."""

    def parameters(self) -> list[np.ndarray]:
        """The scheme's learned arrays (counted by `TinyGPT.n_parameters`)."""
        return []

    def add_to_embeddings(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        """x (seq, d_model) at positions (seq,) -> (seq, d_model); unchanged here."""
        return x

    def rotate(self, Q: np.ndarray, K: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Q, K (n_heads, seq, d_head) at consecutive positions (seq,) -> (Q, K); unchanged here."""
        return Q, K

    def score_bias(self, query_positions: np.ndarray, key_positions: np.ndarray) -> np.ndarray | None:
        """An additive bias (n_heads, n_q, n_k) for the scores, or None (none here)."""
        return None


class NoPositions(PositionScheme):
    """position="none" (NoPE): nothing added, rotated or biased; only the causal mask carries order."""

    name = "none"


class LearnedPositions(PositionScheme):
    """position="learned" (GPT-2): adds row `pos` of a table W_pos (max_len, d_model); no row past max_len."""

    name = "learned"

    def setup(self, rng, d_model, n_heads, max_len):
        self.max_len = max_len
        self.W_pos = rng.normal(0.0, 1.0, (max_len, d_model))  # (max_len, d_model): one row per position

    def parameters(self):
        return [self.W_pos]

    def add_to_embeddings(self, x, positions):
        if positions[-1] >= self.max_len:
            first = max(int(positions[0]), self.max_len)  # the first position with no row
            raise ValueError(
                f"position {first} is past the learned position table, which has max_len = {self.max_len} rows "
                f"(positions 0..{self.max_len - 1}); keep start_pos + seq_len <= max_len"
            )
        return x + self.W_pos[positions]


class SinusoidalPositions(PositionScheme):
    """position="sinusoidal" (2017 transformer): adds `lessons.positional.sinusoidal_encoding`'s code."""

    name = "sinusoidal"

    def setup(self, rng, d_model, n_heads, max_len):
        self.d_model = d_model

    def add_to_embeddings(self, x, positions):
        return x + sinusoidal_encoding(int(positions[-1]) + 1, self.d_model)[positions]


class RotaryPositions(PositionScheme):
    """position="rope" (Llama): rotates q and k with `lessons.rope.RotaryEmbedding` tables (half-split layout)."""

    name = "rope"

    def setup(self, rng, d_model, n_heads, max_len):
        self.table = RotaryEmbedding(d_model // n_heads, max_seq_len=max_len)  # grows past max_len

    def rotate(self, Q, K, positions):
        cos, sin = self.table(positions.size, start_pos=int(positions[0]))  # (seq, d_head) each
        return apply_rotary_emb(Q, K, cos, sin)


class ALiBiPositions(PositionScheme):
    """position="alibi" (BLOOM, MPT): adds `lessons.alibi.alibi_bias_at`, −slope_h · (i − j), to the scores."""

    name = "alibi"

    def setup(self, rng, d_model, n_heads, max_len):
        self.n_heads = n_heads

    def score_bias(self, query_positions, key_positions):
        return alibi_bias_at(self.n_heads, query_positions, key_positions)  # (n_heads, n_q, n_k)


# position="..." -> the scheme TinyGPT builds; the page's order
POSITION_SCHEMES: dict[str, type[PositionScheme]] = {
    "rope": RotaryPositions,
    "learned": LearnedPositions,
    "sinusoidal": SinusoidalPositions,
    "alibi": ALiBiPositions,
    "none": NoPositions,
}
POSITIONS = tuple(POSITION_SCHEMES)


# ---------------------------------------------------------------------------
# 3. The model
# ---------------------------------------------------------------------------


class KVCache:
    """Per layer, the keys (RoPE already applied) and values of every token so far.

    keys[i], values[i]: (n_heads, length, d_head) for layer i; length is the
    number of tokens cached, which is also the next token's position.
    """

    def __init__(self, n_layers: int, n_heads: int, d_head: int):
        self.keys = [np.zeros((n_heads, 0, d_head)) for _ in range(n_layers)]  # (n_heads, length, d_head)
        self.values = [np.zeros((n_heads, 0, d_head)) for _ in range(n_layers)]
        self.length = 0  # tokens cached = the next token's position


class TinyGPT:
    """A decoder-only transformer in numpy: random, seeded, untrained weights.

    Weight convention (torch.nn.Linear, Hugging Face checkpoints): a projection
    W has shape (d_out, d_in) and is applied as x @ W.T, rows of x being token
    vectors. W_emb is (vocab, d_model), so the tied unembedding is x @ W_emb.T.
    position: a name in POSITIONS ("rope", "learned", "sinusoidal", "alibi",
    "none") or a fresh `PositionScheme` object, which then belongs to this model.
    """

    multiply_adds: int = 0  # running count of multiply-adds in matrix products (reset it to measure)

    def __init__(self, vocab_size: int, d_model: int, n_heads: int, n_layers: int, max_len: int,
                 position: str | PositionScheme = "rope", seed: int = 0, norm: str = "layernorm",
                 tie_embeddings: bool = True):
        _checks.count(vocab_size, "vocab_size", 2)
        _checks.count(d_model, "d_model", 2)
        _checks.counts(n_heads=n_heads, n_layers=n_layers, max_len=max_len)
        if isinstance(position, PositionScheme):
            scheme = position
        else:
            scheme = POSITION_SCHEMES[_checks.one_of(position, "position", POSITIONS)]()
        _checks.one_of(norm, "norm", NORMS)
        if d_model % n_heads or (d_model // n_heads) % 2:
            raise ValueError(f"n_heads must divide d_model = {d_model} into heads of even width, got n_heads = {n_heads}")
        self.vocab_size, self.d_model, self.n_heads, self.n_layers = vocab_size, d_model, n_heads, n_layers
        self.max_len, self.norm, self.tie_embeddings = max_len, norm, tie_embeddings
        self.d_head, self.d_ff = d_model // n_heads, 4 * d_model
        rng = np.random.default_rng(seed)
        d, f = d_model, self.d_ff

        def linear(d_in, d_out):  # drawn (d_in, d_out) with fan-in scaling, stored (d_out, d_in)
            return rng.normal(0.0, 1.0 / np.sqrt(d_in), (d_in, d_out)).T

        self.W_emb = rng.normal(0.0, 1.0, (vocab_size, d))  # (vocab, d): one row per token
        self.scheme = scheme
        scheme.setup(rng, d_model, n_heads, max_len)  # the learned table draws here
        self.position = scheme.name
        self.layers = [
            dict(g1=np.ones(d), b1=np.zeros(d), W_q=linear(d, d), W_k=linear(d, d), W_v=linear(d, d),
                 W_o=linear(d, d), g2=np.ones(d), b2=np.zeros(d), W_1=linear(d, f), c_1=np.zeros(f),
                 W_2=linear(f, d), c_2=np.zeros(d))
            for _ in range(n_layers)
        ]
        self.g_f, self.b_f = np.ones(d), np.zeros(d)
        self.W_out = None if tie_embeddings else linear(d, vocab_size)  # (vocab, d)
        self.multiply_adds = 0  # running count of multiply-adds in matrix products

    # -- helpers ------------------------------------------------------------

    def _mm(self, x: np.ndarray, W: np.ndarray) -> np.ndarray:
        """x @ W.T for W (d_out, d_in), counting its multiply-adds: rows(x) · d_in · d_out."""
        self.multiply_adds += int(np.prod(x.shape[:-1])) * W.shape[1] * W.shape[0]
        return x @ W.T

    def _norm(self, x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
        return layer_norm(x, gain, bias) if self.norm == "layernorm" else rms_norm(x, gain)

    def n_parameters(self) -> int:
        """Every learned number: embeddings, position table, blocks, norms, unembedding."""
        arrays = [self.W_emb, self.g_f, self.b_f] + [a for layer in self.layers for a in layer.values()]
        arrays += self.scheme.parameters() + ([] if self.W_out is None else [self.W_out])
        # RMSNorm has no bias: do not count the unused b arrays
        unused = 0 if self.norm == "layernorm" else (2 * self.n_layers + 1) * self.d_model
        return sum(a.size for a in arrays) - unused

    # -- 1. tokens to vectors -------------------------------------------------

    def embed(self, tokens, start_pos: int = 0) -> np.ndarray:
        """Token rows plus the scheme's position vectors: tokens (seq,) ints -> (seq, d_model).

        The tokens sit at positions start_pos, start_pos + 1, ...
        """
        tokens = np.asarray(tokens)
        if tokens.ndim != 1 or tokens.size == 0 or not np.issubdtype(tokens.dtype, np.integer) \
                or tokens.min() < 0 or tokens.max() >= self.vocab_size:
            raise ValueError(f"tokens must be a non-empty 1-D array of integers in 0..{self.vocab_size - 1}")
        start_pos = _checks.count(start_pos, "start_pos", 0)
        positions = start_pos + np.arange(tokens.size)  # (seq,)
        x = self.W_emb[tokens]  # (seq, d_model)
        return self.scheme.add_to_embeddings(x, positions)

    # -- 2. one block: attention, then MLP, each pre-norm with a residual ----

    def _attention(self, i: int, h: np.ndarray, start_pos: int, cache: KVCache | None, capture: dict | None):
        L = self.layers[i]
        Q, K, V = (split_heads(self._mm(h, L[n]), self.n_heads) for n in ("W_q", "W_k", "W_v"))  # (n_heads, seq, d_head)
        n_new = h.shape[0]
        positions = start_pos + np.arange(n_new)  # (seq,): the new tokens' positions
        Q, K = self.scheme.rotate(Q, K, positions)
        if cache is not None:  # keys are stored already rotated
            K = cache.keys[i] = np.concatenate([cache.keys[i], K], axis=-2)  # (n_heads, length + 1, d_head)
            V = cache.values[i] = np.concatenate([cache.values[i], V], axis=-2)
        n_keys = K.shape[-2]
        if capture is not None and capture["layer"] == i:
            capture["scores"] = Q @ np.swapaxes(K, -1, -2) / np.sqrt(self.d_head)  # (n_heads, seq, n_keys)
        # a single new token may see every cached key; a whole sequence needs the causal mask
        mask = causal_mask(n_new) if cache is None else None
        key_positions = positions if cache is None else np.arange(n_keys)  # the cache holds positions 0..length
        bias = self.scheme.score_bias(positions, key_positions)  # None or (n_heads, seq, n_keys)
        out, weights = scaled_dot_product_attention(Q, K, V, mask=mask, bias=bias)  # (n_heads, seq, d_head)
        if capture is not None and capture["layer"] == i:
            capture["weights"] = weights  # (n_heads, seq, n_keys)
        # scores and the weighted sum of values: 2 · n_heads · seq · n_keys · d_head
        self.multiply_adds += 2 * self.n_heads * n_new * n_keys * self.d_head
        return self._mm(merge_heads(out), L["W_o"])  # (seq, d_model)

    def block(self, i: int, x: np.ndarray, start_pos: int = 0, cache: KVCache | None = None,
              capture: dict | None = None) -> np.ndarray:
        """Block i: x + attn(norm(x)), then x + mlp(norm(x)); x (seq, d_model) -> (seq, d_model)."""
        L = self.layers[i]
        x = x + self._attention(i, self._norm(x, L["g1"], L["b1"]), start_pos, cache, capture)
        h = self._norm(x, L["g2"], L["b2"])
        # mlp(h) = gelu(h W_1ᵀ + c_1) W_2ᵀ + c_2: (seq, d) -> (seq, 4d) -> (seq, d)
        return x + self._mm(gelu(self._mm(h, L["W_1"]) + L["c_1"]), L["W_2"]) + L["c_2"]

    # -- 3. vectors to logits -------------------------------------------------

    def unembed(self, x: np.ndarray) -> np.ndarray:
        """Final norm, then scores over the vocabulary: (seq, d_model) -> (seq, vocab)."""
        x = self._norm(x, self.g_f, self.b_f)
        return self._mm(x, self.W_emb if self.tie_embeddings else self.W_out)

    def _run(self, tokens, start_pos: int, capture: dict | None = None) -> np.ndarray:
        x = self.embed(tokens, start_pos)  # (seq, d_model)
        for i in range(self.n_layers):
            x = self.block(i, x, start_pos, None, capture)
        return self.unembed(x)  # (seq, vocab)

    def forward(self, tokens, start_pos: int = 0) -> np.ndarray:
        """Logits (seq, vocab) for tokens (seq,) placed at positions start_pos, start_pos + 1, ..."""
        return self._run(tokens, start_pos)

    def attention_scores(self, tokens, start_pos: int = 0, layer: int = 0) -> np.ndarray:
        """Layer `layer`'s pre-softmax scores q·k/√d_head, before mask and ALiBi bias: (n_heads, seq, seq)."""
        return self._capture(tokens, start_pos, layer)["scores"]

    def attention_weights(self, tokens, start_pos: int = 0, layer: int = 0) -> np.ndarray:
        """Layer `layer`'s attention weights after mask, bias and softmax: (n_heads, seq, seq)."""
        return self._capture(tokens, start_pos, layer)["weights"]

    def _capture(self, tokens, start_pos: int, layer: int) -> dict:
        if _checks.count(layer, "layer", 0) >= self.n_layers:
            raise ValueError(f"layer must be an integer in 0..{self.n_layers - 1}, got {layer!r}")
        capture = {"layer": layer}
        self._run(tokens, start_pos, capture)
        return capture

    # -- 4. the KV cache ------------------------------------------------------

    def new_cache(self) -> KVCache:
        """An empty cache: no tokens yet, so the first step is position 0."""
        return KVCache(self.n_layers, self.n_heads, self.d_head)

    def step(self, token: int, cache: KVCache) -> np.ndarray:
        """Logits (vocab,) for one new token at position cache.length; appends its k and v."""
        start_pos = cache.length  # the new token's position, passed explicitly
        x = self.embed(np.array([token]), start_pos)  # (1, d_model)
        for i in range(self.n_layers):
            x = self.block(i, x, start_pos, cache)
        cache.length += 1
        return self.unembed(x)[0]


# ---------------------------------------------------------------------------
# 4. What the cache saves: multiply-adds per generated token
# ---------------------------------------------------------------------------


def decode_multiply_adds(n_context: int, d_model: int, n_layers: int, vocab_size: int,
                         d_ff: int | None = None, cached: bool = True) -> int:
    """Multiply-adds in matrix products to get the logits of token number n_context
    (the context holds n_context tokens, the new one included).

    cached: one token through every layer: projections 4d², MLP 2·d·d_ff, scores
    and weighted sum against n_context keys 2·n·d, then one row of logits d·vocab.
    not cached: `forward` on all n_context tokens: n times the per-token matrices,
    full n × n scores (2·n²·d), and logits for every row (n·d·vocab).
    d_ff defaults to 4 · d_model.
    """
    _checks.counts(n_context=n_context, d_model=d_model, n_layers=n_layers, vocab_size=vocab_size)
    d, n = d_model, n_context
    f = 4 * d if d_ff is None else _checks.count(d_ff, "d_ff")
    per_token = 4 * d * d + 2 * d * f  # q, k, v, o projections and the MLP
    if cached:
        return n_layers * (per_token + 2 * n * d) + d * vocab_size
    return n_layers * (n * per_token + 2 * n * n * d) + n * d * vocab_size


def generation_multiply_adds(n_tokens: int, d_model: int, n_layers: int, vocab_size: int,
                             d_ff: int | None = None, cached: bool = True) -> int:
    """Total multiply-adds to produce tokens 1..n_tokens one at a time (`decode_multiply_adds` summed)."""
    return sum(decode_multiply_adds(n, d_model, n_layers, vocab_size, d_ff, cached) for n in range(1, n_tokens + 1))


# ---------------------------------------------------------------------------
# 5. Which schemes see absolute position
# ---------------------------------------------------------------------------

TINY = dict(vocab_size=50, d_model=16, n_heads=2, n_layers=2, max_len=16)  # the page's tiny model
GPT2_SMALL = dict(d_model=768, n_layers=12, vocab_size=50257)  # GPT-2 small's shape (Radford et al., 2019)


def demo_tokens(n: int = 10, seed: int = 0) -> np.ndarray:
    """A fixed random token sequence for the tiny model: (n,) ints in 0..49."""
    return np.random.default_rng(seed).integers(0, TINY["vocab_size"], size=n)


def cache_gap(position: str, n: int = 10, seed: int = 0) -> float:
    """max |step-by-step logits - forward logits| of the tiny model over n tokens, for one scheme."""
    model = TinyGPT(**TINY, position=position, seed=seed)
    tokens = demo_tokens(n, seed)
    full = model.forward(tokens)  # (n, vocab)
    cache = model.new_cache()
    stepped = np.stack([model.step(int(t), cache) for t in tokens])  # (n, vocab)
    return float(np.abs(stepped - full).max())


def shift_change(position: str, shift: int, n: int = 6, seed: int = 0) -> float:
    """max |forward(tokens, start_pos=shift) - forward(tokens)| of the tiny model over n tokens:
    0 (up to rounding) when the scheme sees only offsets."""
    model = TinyGPT(**TINY, position=position, seed=seed)
    tokens = demo_tokens(n, seed)
    return float(np.abs(model.forward(tokens, start_pos=shift) - model.forward(tokens)).max())


def residual_norms(norm: str = "layernorm", n_layers: int = 6, n: int = 10, seed: int = 0) -> np.ndarray:
    """Mean length of the residual-stream vectors after the embedding and after each block: (n_layers + 1,)."""
    model = TinyGPT(**{**TINY, "n_layers": n_layers}, position="rope", seed=seed, norm=norm)
    x = model.embed(demo_tokens(n, seed))  # (n, d_model)
    out = [np.linalg.norm(x, axis=-1).mean()]
    for i in range(n_layers):
        x = model.block(i, x)
        out.append(np.linalg.norm(x, axis=-1).mean())
    return np.array(out)


# ---------------------------------------------------------------------------
# 6. Figures
# ---------------------------------------------------------------------------

_LOOKS = {**SCHEME_LOOKS, "none": SCHEME_LOOKS["nope"]}  # this lesson calls NoPE "none"


def figures() -> dict:
    """This lesson's figures, built from the functions above. Never saved or shown here."""
    import matplotlib.pyplot as plt

    figs = {}
    schemes = POSITIONS

    # What gets added to the token vectors, per scheme
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(6.4, 3.4), layout="constrained", sharey=True)
    learned = TinyGPT(**TINY, position="learned").scheme.W_pos  # (max_len, d_model)
    sinus = sinusoidal_encoding(TINY["max_len"], TINY["d_model"])
    for ax, grid, title in ((a1, learned, "learned table (random, untrained)"), (a2, sinus, "sinusoidal codes")):
        im = ax.imshow(grid, aspect="auto", cmap=COLOUR_MAPS["signed"], vmin=-2, vmax=2)
        ax.set_title(title)
        ax.set_xlabel("dimension of d_model")
    a1.set_ylabel("position (rows 0..max_len-1)")
    fig.colorbar(im, ax=a2, label="value added to the token vector")
    figs["position_inputs"] = fig

    # Layer-0 attention weights, head 0, per scheme
    tokens = demo_tokens(10)
    fig, axes = plt.subplots(2, 3, figsize=(6.4, 5.0), layout="constrained")  # two rows: one row was too wide for a phone
    for ax in axes.flat[len(schemes):]:
        ax.set_axis_off()
    for ax, p in zip(axes.flat, schemes, strict=False):
        w = TinyGPT(**TINY, position=p).attention_weights(tokens)[0]  # (seq, seq)
        ax.imshow(w, cmap=COLOUR_MAPS["amount"], vmin=0, vmax=1)
        ax.set_title(p)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_xlabel("key")
        ax.set_ylabel("query")
    fig.suptitle("Layer 0, head 0: causal attention weights")
    figs["attention_weights"] = fig

    # The residual stream's size through the blocks
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    for norm, style in (("layernorm", "o-"), ("rmsnorm", "s--")):
        ax.plot(residual_norms(norm), style, label=norm)
    ax.set_xlabel("after the embedding (0) and after block 1, 2, ...")
    ax.set_ylabel("mean length of a token's vector")
    ax.set_title("Pre-norm blocks add to the stream; they never rescale it")
    ax.legend(frameon=False)
    figs["residual_norms"] = fig

    # Cached decoding agrees with forward, for every scheme
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    gaps = [cache_gap(p) for p in schemes]
    # a rounding gap is drawn at its bound: its digits are the CPU's kernels', not the lesson's
    ax.bar(schemes, [max(g, ROUNDING) for g in gaps], color=[_LOOKS[p].colour for p in schemes])
    for x, g in enumerate(gaps):
        ax.text(x, max(g, ROUNDING) * 2, gap_text(g), ha="center", va="bottom")
    ax.axhline(1e-9, color="black", ls="--", lw=1, label="test tolerance 1e-9")
    ax.set_yscale("log")
    ax.set_ylim(1e-17, 1e-6)
    ax.set_ylabel("max |step logits - forward logits|")
    ax.set_title("Token by token through the cache = the whole sequence at once")
    ax.legend(frameon=False)
    figs["cache_agreement"] = fig

    # Multiply-adds per generated token, GPT-2 small's shape
    n = np.unique(np.geomspace(1, 1024, 60).astype(int))
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for cached, color, label in ((False, RED, "no cache: forward on the whole context"),
                                 (True, BLUE, "KV cache: one token through the layers")):
        ax.plot(n, [decode_multiply_adds(int(k), **GPT2_SMALL, cached=cached) for k in n], color=color, lw=2, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("context length n (tokens, the new one included)")
    ax.set_ylabel("multiply-adds for the next token")
    ax.set_title("GPT-2 small's shape: work per generated token")
    ax.legend(frameon=False)
    figs["kv_cache_work"] = fig

    # Which schemes see absolute position
    shifts = np.arange(0, 11)
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    for p in schemes:
        ax.plot(shifts, [shift_change(p, int(s)) for s in shifts], **_LOOKS[p].line(), label=p, ms=3)
    ax.set_xlabel("start_pos: the same 6 tokens placed this many positions later")
    ax.set_ylabel("max change in the logits")
    ax.set_title("Only schemes that add a position vector notice a shift")
    legend_beside(ax)  # beside the axes: inside, it sat on the learned table's line
    figs["shift_invariance"] = fig
    return figs


# ---------------------------------------------------------------------------
# 7. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. One forward pass, with shapes")
    model = TinyGPT(**TINY, position="rope")
    tokens = demo_tokens(10)
    x = model.embed(tokens)
    say(f"""TinyGPT(vocab_size=50, d_model=16, n_heads=2, n_layers=2, max_len=16), RoPE,
        {model.n_parameters():,} parameters. tokens {tokens.shape} -> embed {x.shape}
        -> 2 blocks {model.block(0, x).shape} -> logits {model.forward(tokens).shape}.""")

    banner("2. Decoding through the KV cache")
    rows = [(p, gap_text(cache_gap(p))) for p in POSITIONS]
    table(["position", "max |step - forward|"], rows)
    takeaway("Step-by-step decoding with a cache gives the same logits as one pass over the whole sequence.")

    banner("3. What the cache saves (GPT-2 small's shape, multiply-adds)")
    table(["context n", "no cache", "KV cache", "ratio"],
          [(n, f"{decode_multiply_adds(n, **GPT2_SMALL, cached=False):,}",
            f"{decode_multiply_adds(n, **GPT2_SMALL):,}",
            f"{decode_multiply_adds(n, **GPT2_SMALL, cached=False) / decode_multiply_adds(n, **GPT2_SMALL):.0f}x")
           for n in (1, 16, 256, 1024)])

    banner("4. Past max_len")
    for p in POSITIONS:
        try:
            TinyGPT(**TINY, position=p).forward(demo_tokens(4), start_pos=TINY["max_len"])
            say(f"{p}: runs at positions 16..19")
        except ValueError as exc:
            say(f"{p}: {exc}")
    takeaway("Only a learned table has a hard ceiling; RoPE, ALiBi and no positions see offsets only.")


if __name__ == "__main__":
    demo()
