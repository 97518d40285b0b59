r"""
# Positions for images and video: multimodal RoPE

Run it: `python -m lessons.multimodal_rope` (a narrated walkthrough in the terminal).
Builds on `lessons.rope` (RoPE inside a model, the half-split layout and the
cache) and `lessons.context_extension` (the speeds `rope_inv_freq` computes and
YaRN's `factor`).

## Level 1: the practitioner's guide

**In one sentence.** Qwen's vision-language models give every token three
position ids (time, height, width) instead of one, split the rotary pairs of
each head between the three, and number an image by its rows and columns, so a
picture of hundreds of tokens moves the position count forward by only its
longer side; the config's `mrope_section` (and from Qwen3-VL on
`mrope_interleaved`) says which pair follows which id.

**When you need it.** When you serve, fine-tune or port Qwen2-VL, Qwen2.5-VL or
Qwen3-VL, or any engine feature that touches positions on their prompts: batched
decoding, chunked prefill, a prefix cache, a converted checkpoint. Text-only
prompts come through all of these unharmed, because a text token's three ids
are equal and M-RoPE then is plain RoPE. Images and video are where a wrong id
shows, and the tell is a model whose answers about pictures go wrong, stop at
once, echo the chat template or loop (the threads under *What breaks*), while
text-only prompts stay fine.

**Your options.** The choices belong to the model's authors; what you choose is
to copy them exactly.

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| One id per token | Image tokens numbered like text, one after another | Any text engine serves it | An image's rows and columns are only a long line; a big image uses many ids | the language model's usual RoPE |
| M-RoPE in sections (Qwen2-VL) | Three ids per token; the first pairs follow time, the next height, the last width | 2-D layout inside an image; an image advances ids by its side only | The engine must build ids from the whole prompt and keep an offset for decoding | `mrope_section` in `rope_parameters` (16, 24, 24 of 64 pairs) |
| M-RoPE with absolute time (Qwen2.5-VL) | A video's time id counts seconds, not frames | The same clip at another frame rate gets the same time ids | The time ids of long videos reach far; the engine needs seconds per frame | `tokens_per_second` in `vision_config`; `second_per_grid_ts` from the processor |
| Interleaved MRoPE (Qwen3-VL) | Time, height and width pairs alternate across the head | Each axis gets fast and slow pairs | A different pair layout: kernels written for sections give wrong images | `mrope_interleaved` true in `rope_parameters` (sections 24, 20, 20) |

**How to choose.** Start from what you are doing with the model.

- Serving a Qwen VL model: use an engine that implements its M-RoPE, and check
  the engine version lists that model generation; a Qwen2-VL kernel reading
  a Qwen3-VL checkpoint uses the wrong layout.
- Setting a context length: count tokens, not position ids. A 448 × 448 image
  costs 256 tokens of cache and context but moves the ids by 16 (computed in
  Level 2); the engine's limit (`--max-model-len` in vLLM) counts tokens.
- Stretching Qwen3-VL past its trained length with YaRN: take the `factor` from
  the model's README (below), not from the token ratio.
- Writing your own decoding loop: keep the model's `rope_deltas` from the
  prompt and add it to every generated token's position; start a new prompt
  with new deltas.

**What it costs.** Next to nothing in compute: the cos/sin table is built
for three ids and each pair keeps one of them. In context, an image costs one token per 28 × 28 pixels
(patches of 14 pixels, merged 2 × 2), so 256 tokens at 448 × 448 and 1,536
at 1,344 × 896; a video of 20 frames at 336 × 336 costs 1,440 tokens. In
position ids it costs far less: the same three inputs move the count by 16, 48
and 12. A prompt of ten 448 × 448 images with 50 text tokens around each
uses 0.23 position ids per token (all computed in Level 2). Qwen3-VL's
vision config defaults to 16-pixel patches (transformers 5.24's
Qwen3VLVisionConfig), so there a token covers 32 × 32 pixels and the same
448 × 448 image costs 196 tokens and 14 ids.

**What breaks.**

- **Ids computed per chunk.** A token's ids depend on every image before it, so
  an engine must build the ids of the whole prompt once and slice them per
  chunk. vLLM's first M-RoPE with chunked prefill sliced only the start of the
  range, giving a chunk the ids of the whole remaining prompt (vLLM pull request
  [10388](https://github.com/vllm-project/vllm/pull/10388)); the
  follow-up [10403](https://github.com/vllm-project/vllm/pull/10403) explains
  that the decoding offset is one constant per sequence, computed from the
  whole prompt. mlx-vlm handed the whole prompt's ids to every prefill chunk,
  and image prompts longer than one chunk ended at once or echoed the chat
  template ([mlx-vlm pull request 1741](https://github.com/Blaizzy/mlx-vlm/pull/1741)).
- **A prefix-cache hit.** After a cached prefix, the rest of the prompt does
  not start at id "number of cached tokens": the images in the prefix moved
  the count by less. SGLang's radix cache did not have the complete
  `input_ids` it needed to compute M-RoPE, so it moved the computation to the
  multimodal preprocessing step
  ([SGLang pull request 5349](https://github.com/sgl-project/sglang/pull/5349)).
- **A stale or mismatched offset.** transformers stores `rope_deltas` on the
  model after a prompt. Reusing them in a fresh generation gave wrong positions
  ([transformers pull request 43952](https://github.com/huggingface/transformers/pull/43952)),
  and a generation batch of another size crashed the next training step in
  online RL ([transformers pull request 44873](https://github.com/huggingface/transformers/pull/44873)).
- **Sections where the model wants interleaving.** Text reads the same in both
  layouts, so the bug hides: MNN's Qwen3-VL ran with the Qwen2.5-VL layout
  and looped forever on images
  ([MNN pull request 4133](https://github.com/alibaba/MNN/pull/4133)).
- **Video time ids.** Qwen2.5-VL's time ids depend on seconds per frame; with
  transformers 5.3.0 a video's position ids were reported wrong
  ([transformers issue 45381](https://github.com/huggingface/transformers/issues/45381),
  fixed by [pull request 45400](https://github.com/huggingface/transformers/pull/45400)).
  Check an engine's ids for a video against transformers' before you trust
  video answers. Level 2 shows a long video after which transformers 5.24
  resumes the text below the video's last time id while vLLM 0.33.0 resumes it
  after, so the two give the same prompt different ids.

**In the wild.** Qwen2-VL's config names `rope_type` mrope with
`mrope_section` 16, 24, 24 and `rope_theta` 1,000,000 (Qwen/Qwen2-VL-7B-Instruct
config.json, as recorded in `lessons.context_extension`); transformers reads
mrope as plain RoPE speeds. The vision side of Qwen2-VL and Qwen2.5-VL cuts
14-pixel patches, 2 frames per temporal patch, and merges 2 × 2 patches into one
token (`patch_size`, `temporal_patch_size`, `spatial_merge_size`: the defaults
of transformers 5.24's Qwen2VLVisionConfig and Qwen2_5_VLVisionConfig).
Qwen2.5-VL adds `tokens_per_second` to its vision config, the time ids one
second of video advances; transformers 5.24 defaults it to 4. Qwen3-VL's README
enables YaRN with `rope_type` yarn, `mrope_section` 24, 20, 20,
`mrope_interleaved` true, `factor` 3 and `original_max_position_embeddings`
262,144 to reach 1,000,000 tokens, and adds: "Because Interleaved-MRoPE's
position IDs grow more slowly than vanilla RoPE, use a smaller scaling factor.
For example, to support 1M context with 256K context length, set factor=2 or
3 — not 4." (QwenLM/Qwen3-VL README.md, "Processing Long Texts"). vLLM's
pull request adding M-RoPE with YaRN tested a block with `factor` 3 and the
comment that MRoPE takes a smaller factor than plain RoPE
([vLLM pull request 25384](https://github.com/vllm-project/vllm/pull/25384)).

**Go deeper.** Level 2 builds the three ids from scratch: how transformers'
get_rope_index numbers an image and the text after it, what `rope_deltas` does
when generating, how Qwen2.5-VL turns seconds into time ids, which pairs each
axis gets in sections and when interleaved, and what an image costs in tokens
and in ids. The position ids and the cos/sin tables are checked against
transformers 5.24's own code.
If you only needed to serve these models safely, you can stop here.

## Level 2: how it works, from scratch

The running example is a short prompt: 3 text tokens, one small image, 4 text
tokens. The image is 112 pixels high and 168 wide, so the vision encoder cuts
it into an 8 × 12 grid of 14-pixel patches and merges each 2 × 2 block into one
token: 4 rows of 6 tokens, 24 in all.

## Three ids per token: M-RoPE

**Everyday picture.** A seat in a cinema has a row and a number; a page of a
book has a page number only. Text is a book: one number is enough. An image is
a cinema hall: "seat 17" says little, "row 3, seat 5" says where. M-RoPE gives
every token a date, a row and a seat; a text token gets the same number three
times.

**Tiny worked example.** A head of 8 numbers has 4 pairs. Split them 2, 1, 1:
pairs 0 and 1 turn by the time id, pair 2 by the height id, pair 3 by the width
id. A text token at position 5 has ids (5, 5, 5), so every pair turns by
5 · θ, exactly as in plain RoPE. An image token in row 1, column 2 of an image
that starts at id 3 has ids (3, 4, 5): pairs 0 and 1 turn by 3 · θ, pair 2 by
4 · θ, pair 3 by 5 · θ.

**The math.** Pair $i$ of a head of width $d$ turns by the id of its axis
$a(i)$:

$$
\varphi_i = p_{a(i)} \, \theta_i, \qquad \theta_i = b^{-2i/d}, \qquad
a(i) = \begin{cases} \text{T} & i < s_{\text{T}} \\ \text{H} & s_{\text{T}} \le i < s_{\text{T}} + s_{\text{H}} \\ \text{W} & \text{otherwise} \end{cases}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $p_{\text{T}}, p_{\text{H}}, p_{\text{W}}$ | the token's time, height and width ids | (3, 4, 5) |
| $\theta_i$ | pair $i$'s speed, radians per id | $10000^{-2i/8}$ |
| $b$ | the RoPE base, `rope_theta` | 10,000 |
| $s_{\text{T}}, s_{\text{H}}, s_{\text{W}}$ | the three entries of `mrope_section`, in pairs | 2, 1, 1 |
| $a(i)$ | which id pair $i$ follows | T, T, H, W |
| $\varphi_i$ | pair $i$'s angle | $3\theta_0, 3\theta_1, 4\theta_2, 5\theta_3$ |

**In words:** "each pair turns at its usual speed, but by the id of the axis it
belongs to; the first pairs belong to time, the next to height, the last to
width."

**With the numbers:** pair 2 of the image token turns by $4 \cdot 10000^{-4/8}
= 4 \cdot 0.01 = 0.04$ radians. Because queries and keys turn the same way,
the score between two tokens still depends only on differences: on the time
pairs by the time gap, on the height pairs by the row gap, on the width pairs
by the column gap. For two text tokens all three gaps are the same number,
and the score is plain RoPE's.

**In Python:**

```python
import numpy as np
from lessons.multimodal_rope import apply_mrope, mrope_axis_of_pair
from lessons.rope import apply_rope_half

mrope_axis_of_pair([2, 1, 1]).tolist()  # → [0, 0, 1, 2]
theta = 10000.0 ** (-np.arange(0, 8, 2) / 8)
round(4 * theta[2], 2)  # → 0.04
x = np.random.default_rng(0).standard_normal((4, 8))
text_ids = np.broadcast_to(np.arange(5, 9), (3, 4))  # equal rows
same = np.allclose(apply_mrope(x, text_ids, theta, [2, 1, 1]),
                   apply_rope_half(x, np.arange(5, 9)))
same  # → True
```

**In code:** `mrope_axis_of_pair` says which id each pair follows;
`mrope_angles` and `mrope_cos_sin` build the angles and the half-split cos/sin
table that transformers' Qwen2VLRotaryEmbedding returns (the test compares
them, tests/test_multimodal_rope.py); `apply_mrope` rotates vectors with it.

**Why it matters.** This is why a wrong multimodal position never shows on
text: with equal ids, every layout and every split gives plain RoPE. Only image
and video tokens, whose three ids differ, tell a correct implementation from a
broken one, so a port must be tested with pictures.

## Numbering an image: get_rope_index and rope_deltas

**Everyday picture.** A photo album interleaves captions and photos. Number the
captions 1, 2, 3; give the photo that follows coordinates "album page 4, row r,
column c"; the next caption then continues after the photo's last row or
column, not after its last tile. The album needs fewer page numbers than it has
tiles.

**Tiny worked example.** The running prompt: text at ids 0, 1, 2. The image
starts at 3; its 24 tokens go row by row, with time id 3 (a still image has one
time step), height ids 3 to 6 (its 4 rows) and width ids 3 to 8 (its 6 columns).
The text after it continues at 3 + max(4, 6) = 9: ids 9, 10, 11, 12. The prompt
has 31 tokens but its largest id is 12, so `rope_deltas` = 12 + 1 − 31 = −18.
The first generated token sits at cache position 31 and gets id 31 − 18 = 13,
on all three axes.

```mermaid
flowchart TB
    A["image, 112 × 168 pixels"] --> B["8 × 12 patches<br/>of 14 × 14 pixels"]
    B --> C["merge 2 × 2:<br/>4 × 6 = 24 tokens"]
    C --> D["ids: time 3,<br/>rows 3 to 6, columns 3 to 8"]
    D --> E["text resumes at<br/>3 + max(4, 6) = 9"]
    E --> F["rope_deltas = 12 + 1 − 31 = −18:<br/>generated token 31 gets id 13"]
```

**Reading it:** the image's pixels become patches, patches become tokens, and
tokens get ids from their row and column; the text after the image restarts
from the image's first id plus its longer side, and the offset between the
largest id and the prompt length is kept for every token generated later.

**The math.** For an image or video of $t \times h' \times w'$ merged tokens
starting at id $s$, the token at temporal step $k$, row $r$ and column $c$ gets

$$
(p_{\text{T}}, p_{\text{H}}, p_{\text{W}}) = (s + \lfloor k \, \delta \rfloor,\; s + r,\; s + c),
\qquad s_{\text{next}} = s + \max(h', w'),
$$

$$
\Delta = \max(\text{ids}) + 1 - n, \qquad p_{\text{gen}} = m + \Delta .
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $s$ | the id where the image starts | 3 |
| $t, h', w'$ | temporal steps, token rows, token columns ($h' = h / 2$) | 1, 4, 6 |
| $k, r, c$ | a token's temporal step, row, column | 0; 0 to 3; 0 to 5 |
| $\delta$ | time ids per temporal step (1 in Qwen2-VL) | 1 |
| $s_{\text{next}}$ | where the text after the image starts | 9 |
| $n$ | tokens in the prompt | 31 |
| $\Delta$ | the decoding offset, `rope_deltas` | −18 |
| $m$ | a generated token's cache position | 31 |
| $p_{\text{gen}}$ | its id, the same on all three axes | 13 |

**In words:** "an image's tokens take the start id plus their row and column;
the next text starts after the image's longer side; a generated token's id is
its place in the cache plus one fixed offset, which is negative as soon as the
prompt has an image."

**With the numbers:** $s_{\text{next}} = 3 + \max(4, 6) = 9$; the last text
token has id 12, so $\Delta = 12 + 1 - 31 = -18$ and $p_{\text{gen}} = 31 - 18
= 13$.

**In Python:**

```python
from lessons.multimodal_rope import (
    decode_position_ids, get_rope_index, mm_token_types,
    vision_grid_thw, vision_token_count)

grid = vision_grid_thw(112, 168)
grid, vision_token_count(grid)  # → ((1, 8, 12), 24)
kinds = mm_token_types(("text", 3), ("image", grid), ("text", 4))
ids, delta = get_rope_index(kinds, [grid])
ids[:, 3:10].tolist()
# → [[3, 3, 3, 3, 3, 3, 3], [3, 3, 3, 3, 3, 3, 4],
#   [3, 4, 5, 6, 7, 8, 3]]
ids[:, -4:].tolist()[0], kinds.size, delta  # → ([9, 10, 11, 12], 31, -18)
decode_position_ids(delta, cache_length=31)[:, 0].tolist()  # → [13, 13, 13]
```

A token's index in the prompt is not its id. An engine that splits this prompt
into chunks and numbers the second chunk by token index, as it would for text,
gives the first text token after the image id 27 instead of 9:

```python
from lessons.multimodal_rope import get_rope_index, mm_token_types

kinds = mm_token_types(("text", 3), ("image", (1, 8, 12)), ("text", 4))
ids, delta = get_rope_index(kinds, [(1, 8, 12)])
int(ids[0, 27]), 27 - int(ids[0, 27])  # → (9, 18)
```

![Three rows of position ids against token index for 3 text tokens, a 24-token image and 4 text tokens: the ids climb by one on text, stay at 3 for time, step by row for height and cycle by column for width inside the image, and the text resumes at 9](figures/multimodal_rope.position_ids.svg)

**Reading it:** on the text the three lines lie on top of each other and climb
by one per token. Inside the shaded image the time id stays flat, the height
id steps up once per row of 6 tokens, and the width id saw-tooths across each
row. The text after the image resumes at 9, far below its token index of 27,
and the generated tokens (diamonds) continue at 13, 14, 15.

**In code:** `get_rope_index` is transformers 5.24's get_rope_index of
Qwen2VLModel and Qwen2_5_VLModel in numpy, for one sequence;
`vision_position_ids` numbers one image or video; `decode_position_ids` gives
generated tokens their ids; `mm_token_types` builds the token-type row from a
list of parts. tests/test_multimodal_rope.py compares `get_rope_index` with
transformers' on six prompts with images and videos
(tests/data/multimodal_rope_vectors.json; the reference calls the method
unbound on a stub holding only the config values it reads).

**Why it matters.** Every engine bug of Level 1 is a broken step of this
diagram: a chunk numbered by token index, a prefix-cache hit that restarts at
the cached token count, an offset reused from another prompt. Text never tells
these apart from correct code; the first text token after an image does.

## Seconds, not frames: Qwen2.5-VL's absolute time

**Everyday picture.** Two people film the same one-minute scene, one at 2
frames a second and one at 4. Number the frames and the second film looks twice
as long; label each frame with its time stamp and both films agree.

**Tiny worked example.** Qwen2-VL gives a video's temporal steps the time ids
0, 1, 2, ... after its start. Qwen2.5-VL multiplies the step by the seconds one
temporal step covers and by `tokens_per_second`. With 2 frames per temporal
step, a video sampled at 2 frames a second covers 1 second per step; with
`tokens_per_second` 2 the time ids go 0, 2, 4, ... A video sampled at 4 frames
a second covers half a second per step and goes 0, 1, 2, ...: twice the steps
for the same clip, the same ids per second.

**The math.** The time step $\delta$ of the numbering above becomes

$$
\delta = \tau \cdot \Delta t, \qquad p_{\text{T}} = s + \lfloor k \, \tau \, \Delta t \rfloor ,
$$

with $\tau$ = `tokens_per_second` and $\Delta t$ the seconds per temporal step
(`second_per_grid_ts`, which the processor computes from the frame rate).
Images keep $\delta = 1$.

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $\tau$ | time ids per second of video | 2 |
| $\Delta t$ | seconds one temporal step covers | 1 |
| $k$ | the temporal step | 0 to 9 |
| $p_{\text{T}}$ | the time id | $s$ + 0, 2, ..., 18 |

**In words:** "a video's time id counts seconds at a fixed rate, so the same
moment gets the same id whatever the frame rate."

**With the numbers:** a 10-second clip, 20 frames of 336 × 336 pixels, is a
10 × 24 × 24 patch grid: 1,440 tokens in 10 temporal steps of 12 × 12
tokens. After 5 text tokens its time ids run from 5 to 5 + 9 · 2 = 23.

**In Python:**

```python
from lessons.multimodal_rope import (
    decode_position_ids, get_rope_index, mm_token_types,
    vision_grid_thw, vision_id_advance, vision_token_count)

clip = vision_grid_thw(336, 336, frames=20)
clip, vision_token_count(clip), vision_id_advance(clip)
# → ((10, 24, 24), 1440, 12)
kinds = mm_token_types(("text", 5), ("video", clip), ("text", 3))
v1, d1 = get_rope_index(kinds, [], [clip])  # Qwen2-VL
v2, d2 = get_rope_index(kinds, [], [clip], tokens_per_second=2,
                        second_per_grid_ts=[1.0])  # Qwen2.5-VL
sorted(set(v1[0, 5:1445].tolist()))[-3:]  # → [12, 13, 14]
sorted(set(v2[0, 5:1445].tolist()))[-3:]  # → [19, 21, 23]
v2[0, -3:].tolist(), d2  # → ([17, 18, 19], -1424)
int(decode_position_ids(d2, cache_length=1448)[0, 0])  # → 24
```

The last two lines show what transformers 5.24 computes after a video whose
time ids outrun its longer side: the text after the clip resumes at 5 + 12 =
17, below the clip's last time id 23, and the first generated token jumps to
24, because `rope_deltas` is taken from the largest id of all. vLLM 0.33.0
resumes the text at the largest id so far plus one instead
(get_mrope_input_positions in vllm/model_executor/models/qwen2_5_vl.py and
qwen2_vl.py, read, not run), as the Qwen2.5-VL docstring added with the model
described it (transformers pull request
[35569](https://github.com/huggingface/transformers/pull/35569)). The same
prompt then gets other ids in the two libraries from the text after the clip
on, generated tokens included:

```python
from lessons.multimodal_rope import (
    decode_position_ids, get_rope_index, mm_token_types)

kinds = mm_token_types(("text", 5), ("video", (10, 24, 24)), ("text", 3))
ids, delta = get_rope_index(kinds, [], [(10, 24, 24)], tokens_per_second=2,
                            second_per_grid_ts=[1.0], resume="max_id")
ids[0, -3:].tolist(), delta  # → ([24, 25, 26], -1421)
int(decode_position_ids(delta, cache_length=1448)[0, 0])  # → 27
```

For images, and for videos whose time ids stay below the longer side, the two
rules agree (the test checks it on every image prompt of the reference set).
The lesson follows transformers 5.24 by default and flags the difference
rather than judging it.

**In code:** `get_rope_index` with `tokens_per_second` and
`second_per_grid_ts` set is the Qwen2.5-VL rule, and `resume` picks where the
text goes on; `vision_position_ids` floors
$k \cdot \delta$ in float32 as transformers does. The test covers videos at
half a second and two thirds of a second per step.

**Why it matters.** An engine must pass the seconds per step through to the
position code; without them every video is numbered as if at one step per
second, and questions about when something happens get answers in the wrong
units. The same number also makes long videos reach high time ids quickly.

## Which pairs follow which id: sections and interleaved MRoPE

**Everyday picture.** A mixing desk has sliders from bass to treble. Give the
drummer only the treble sliders and the singer only the bass, and neither can
shape their whole sound; give each every third slider along the desk and each
reaches from bass to treble.

**Tiny worked example.** Take 9 pairs, fastest first, and sections of 3 each.
In sections, time gets pairs 0, 1, 2 (the fastest), height 3, 4, 5 and width
6, 7, 8 (the slowest). Interleaved, pair 0 goes to time, 1 to height, 2 to
width, 3 to time again, and so on: time gets 0, 3, 6, height 1, 4, 7 and width
2, 5, 8, so each axis has a fast, a middle and a slow pair.

**The math.** Interleaving replaces $a(i)$ of the first section with a
stride of three (transformers 5.24,
Qwen3VLTextRotaryEmbedding.recomposition_frequencies; earlier releases called
this step apply_interleaved_mrope):

$$
a(i) = \begin{cases} \text{H} & i \bmod 3 = 1 \text{ and } i < 3 s_{\text{H}} \\ \text{W} & i \bmod 3 = 2 \text{ and } i < 3 s_{\text{W}} \\ \text{T} & \text{otherwise} \end{cases}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $i$ | the pair, 0 the fastest | 0 to 8 |
| $s_{\text{H}}, s_{\text{W}}$ | height's and width's entries of `mrope_section` | 3, 3 |
| $a(i)$ | the axis pair $i$ follows | T, H, W, T, H, W, T, H, W |

**In words:** "pairs take turns: time, height, width, time, height, width,
until height's and width's shares are used up; the rest go to time."

**With the numbers:** Qwen3-VL's sections 24, 20, 20 over 64 pairs give height
the pairs 1, 4, ..., 58 and width 2, 5, ..., 59, twenty each; time gets the
other 24, ending with 60 to 63. With base 1,000,000 and head width 128, the
sections layout leaves time only wavelengths from 6.3 to 900 ids and width only
from 83,788 ids up; interleaved, every axis reaches from under 10 ids to more
than 1,000,000. Qwen2-VL's own split 16, 24, 24 is worse for the image axes:
its fastest width pair turns by 0.0084 radians across an image 48 tokens wide.

**In Python:**

```python
import numpy as np
from lessons.context_extension import rope_inv_freq
from lessons.multimodal_rope import (
    axis_wavelength_range, mrope_axis_of_pair)

"".join("THW"[a] for a in mrope_axis_of_pair([3, 3, 3], True))
# → 'THWTHWTHW'
theta, _ = rope_inv_freq(128, {"rope_theta": 1000000.0})
r = axis_wavelength_range(theta, [24, 20, 20])
round(r["time"][0], 1), round(r["time"][1]), round(r["width"][0])
# → (6.3, 900, 83788)
r = axis_wavelength_range(theta, [24, 20, 20], interleaved=True)
max(a for a, b in r.values()) < 10, min(b for a, b in r.values()) > 1e6
# → (True, True)
axis = mrope_axis_of_pair([16, 24, 24])
round(float(theta[axis == 2].max() * 47), 4)  # → 0.0084
np.bincount(mrope_axis_of_pair([16, 24, 24], True)).tolist()
# → [22, 21, 21]
```

The last line is a trap for anyone porting: interleaving Qwen2-VL's split
16, 24, 24 in transformers' stride does not give 16, 24 and 24 pairs but 22, 21
and 21, because height's and width's strides run past the last pair (the
test checks this layout against transformers' own cos/sin table). The two
layouts are different models, not two ways to compute one.

![Wavelength of each of the 64 rotary pairs on a log scale, coloured by the axis it follows: in sections 24/20/20 time holds the short waves, height the middle and width the long ones; interleaved, every axis has pairs from the shortest to the longest wavelength](figures/multimodal_rope.pair_axes.svg)

**Reading it:** each marker is one pair, its height its wavelength in ids.
In the top panel the three axes sit in three separate bands: time only short
waves, width only long ones. In the bottom panel the three markers alternate
along the whole curve, so each axis has both short and long waves.

**In code:** `mrope_axis_of_pair` with `interleaved` true is the Qwen3-VL
layout, checked against transformers' Qwen3VLTextRotaryEmbedding cos/sin
tables in tests/test_multimodal_rope.py; `axis_wavelength_range` reports each
axis's band (with `rope_wavelengths` of `lessons.context_extension`).

**Why it matters.** The ids that change inside an image (a row or a column,
tens of ids) move a long-wave pair by almost nothing, and the time ids of a
long video (hundreds to thousands) wrap the short-wave pairs around many
times; interleaving gives each axis pairs that suit both ranges. The Qwen3-VL
README gives the practical side: its position ids grow slower than plain
RoPE's, so it recommends a YaRN `factor` of 2 or 3, not 4, to go from 262,144
to 1,000,000 tokens (quoted in Level 1). The next section computes how much
slower the ids grow.

## What an image or a video costs: tokens against ids

**Everyday picture.** A parking garage charges by floor space but numbers its
levels: a wider level holds more cars, yet the next level is still only one
number up. Tokens are the floor space an image fills in the context; ids are
the level numbers.

**Tiny worked example.** A square image of side $L$ pixels becomes
$(L/14)^2$ patches and $(L/28)^2$ tokens, but moves the ids by only $L/28$. At
448 pixels: 256 tokens, 16 ids. At 896: 1,024 tokens, 32 ids. Doubling the
side quadruples the tokens and only doubles the ids.

**The math.** For an image $H \times W$ pixels (multiples of 28) and a video
of $F$ frames:

$$
n_{\text{tokens}} = \frac{F}{2} \cdot \frac{H}{28} \cdot \frac{W}{28}, \qquad
\text{ids advanced} = \frac{\max(H, W)}{28} ,
$$

with $F/2$ replaced by 1 for a still image. Only $n_{\text{tokens}}$ counts
against the context limit and fills the cache; the ids are what RoPE, and a
YaRN `factor`, see.

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $H, W$ | the resized image's height and width in pixels | 448, 448 |
| $F$ | video frames (2 per temporal patch) | 1 for an image |
| 28 | 14-pixel patches, merged 2 × 2 | |
| $n_{\text{tokens}}$ | tokens in the context | 256 |

**In words:** "tokens grow with the area of the picture and the number of
frames; the position ids grow only with its longer side."

**With the numbers:** a 1,344 × 896 image is 48 × 32 tokens, 1,536 in all,
and moves the ids by 48. A prompt of ten 448 × 448 images, each after 50 text
tokens, and 50 more text tokens at the end holds 3,110 tokens but ends at about
0.23 ids per token; a million tokens of such prompts would reach about 228,296
ids, under the 262,144 Qwen3-VL was trained to. A text-only million tokens
reaches a million ids. How far the ids reach, not how many tokens there are,
decides what a YaRN `factor` must cover, which is the README's point.

**In Python:**

```python
from lessons.multimodal_rope import (
    ids_per_token, mm_token_types, vision_grid_thw,
    vision_id_advance, vision_token_count)

grids = [vision_grid_thw(s, s) for s in (224, 448, 896, 2016)]
[(vision_token_count(g), vision_id_advance(g)) for g in grids]
# → [(64, 8), (256, 16), (1024, 32), (5184, 72)]
g = vision_grid_thw(1344, 896)
g, vision_token_count(g), vision_id_advance(g)
# → ((1, 96, 64), 1536, 48)
parts = [("text", 50), ("image", (1, 32, 32))] * 10 + [("text", 50)]
mm_token_types(*parts).size  # → 3110
g3 = vision_grid_thw(448, 448, patch_size=16)  # Qwen3-VL's patches
vision_token_count(g3), vision_id_advance(g3)  # → (196, 14)
rate = ids_per_token(parts)
round(rate, 2), round(rate * 1_000_000)  # → (0.23, 228296)
```

![Tokens and position ids of a square image against its side in pixels, on log axes: the token count rises with the square of the side, the ids advanced rise in proportion to it](figures/multimodal_rope.image_cost.svg)

**Reading it:** on log axes the tokens climb twice as steeply as the ids: at
224 pixels 64 tokens against 8 ids, at 2,016 pixels 5,184 tokens against 72.
The gap between the lines is the factor by which an image saves ids.

**In code:** `vision_grid_thw` gives the patch grid of a resized image or
video, `vision_token_count` its tokens, `vision_id_advance` how far it moves
the ids, and `ids_per_token` the ratio for a whole prompt.

**Why it matters.** Two budgets, two numbers: plan memory and the engine's
context limit by tokens, and plan position scaling by ids. A vision-heavy
prompt can fill the cache long before its ids leave the trained range, and
the two never match the way they do for text.

## In 20 seconds

- M-RoPE gives each token three ids (time, height, width) and splits each
  head's rotary pairs between them; text tokens carry three equal ids, so on
  text it is plain RoPE.
- transformers' get_rope_index numbers an image by its rows and columns and
  resumes the text after its longer side; `rope_deltas`, the largest id + 1
  minus the prompt length, shifts every generated token.
- Qwen2.5-VL counts a video's time in seconds (`tokens_per_second`); Qwen3-VL
  interleaves the pairs so every axis gets short and long waves
  (`mrope_interleaved`).
- An image costs tokens by its area and ids by its side: 256 tokens and 16 ids
  at 448 × 448. Chunked prefill, prefix caches and decoding must all carry the
  ids of the whole prompt.

## Self-test questions

??? question "Why can a broken M-RoPE implementation pass every text-only test?"
    A text token has the same time, height and width id, so every pair turns by
    the same id whatever axis it follows: sections, interleaving and plain RoPE
    all give the same rotation. Only image and video tokens, whose three ids
    differ, can expose a wrong layout or a wrong id.

??? question "A prompt has 3 text tokens, a 1 × 8 × 12-patch image and 4 text tokens. Which id does the first generated token get, and why not 31?"
    13. The image's 24 tokens use ids 3 to 8 and the text resumes at
    3 + max(4, 6) = 9, so the prompt ends at id 12; `rope_deltas` is
    12 + 1 − 31 = −18, and cache position 31 becomes id 13. Using 31 would
    treat the image as 24 ids long.

??? question "An engine prefills a long image prompt in chunks and numbers each chunk from its first token's index. What goes wrong?"
    After the first image, a token's index is larger than its id by the ids the
    image saved (18 in the running example), so every later chunk gets ids that
    are too large. The ids must be computed for the whole prompt once and
    sliced per chunk, as vLLM's chunked-prefill fix does.

??? question "Why does interleaving Qwen2-VL's split 16, 24, 24 not reproduce Qwen2-VL?"
    It is another layout, and with transformers' stride of three the counts
    change too: height and width take every third pair only up to the 64th, so
    the split becomes 22, 21, 21. Interleaving needs a split like Qwen3-VL's
    24, 20, 20, whose time share is the largest.

??? question "Why does Qwen3-VL recommend a YaRN factor of 2 or 3 rather than 4 to reach 1M tokens from 256K?"
    YaRN stretches the range of ids the model sees, and an image moves the ids
    by its side, not its token count: ten 448 × 448 images with text around
    them use about 0.23 ids per token. A million tokens of mixed content reach
    far fewer than a million ids, so a factor of 4 stretches more than needed;
    the README's own reason is that interleaved MRoPE's ids grow more slowly
    than plain RoPE's.

## The papers behind this lesson

- Wang et al. (2024), *Qwen2-VL: Enhancing Vision-Language Model's Perception
  of the World at Any Resolution*,
  [arXiv:2409.12191](https://arxiv.org/abs/2409.12191). Introduces M-RoPE, the
  three ids per token and the split of the rotary pairs.
- Bai et al. (2025), *Qwen2.5-VL Technical Report*,
  [arXiv:2502.13923](https://arxiv.org/abs/2502.13923). Aligns the time id with
  absolute time, so videos at different frame rates share a time scale.
- Qwen Team (2025), *Qwen3-VL Technical Report*,
  [arXiv:2511.21631](https://arxiv.org/abs/2511.21631). Interleaved MRoPE,
  reported to balance the frequencies each axis gets, with text time stamps
  for video.
- Su et al. (2021), *RoFormer: Enhanced Transformer with Rotary Position
  Embedding*, [arXiv:2104.09864](https://arxiv.org/abs/2104.09864)
  (companion: `papers.su2021_roformer`). The rotation every axis here reuses.
- Peng et al. (2023), *YaRN: Efficient Context Window Extension of Large
  Language Models*, [arXiv:2309.00071](https://arxiv.org/abs/2309.00071)
  (companion: `papers.peng2023_yarn`). The stretch whose `factor` Qwen3-VL's
  README sets lower for MRoPE.

## Further reading

- transformers 5.24 source: models/qwen2_vl/modeling_qwen2_vl.py
  (Qwen2VLModel.get_rope_index, get_vision_position_ids,
  compute_3d_position_ids, Qwen2VLRotaryEmbedding), models/qwen2_5_vl/ (the
  same with `tokens_per_second`), models/qwen3_vl/modeling_qwen3_vl.py
  (Qwen3VLTextRotaryEmbedding.recomposition_frequencies).
- The QwenLM/Qwen3-VL README, "Processing Long Texts": the YaRN block and the
  factor advice.
- Where this page goes beyond the usual anchors: the Hugging Face
  documentation names the M-RoPE keys; this page builds get_rope_index,
  `rope_deltas`, the time scaling and the interleaved layout from scratch and
  checks each against transformers' own functions, and computes the token and
  id costs of images and video.
"""
from __future__ import annotations

import itertools

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, MUTED, RED
from lessons._show import banner, say, table, takeaway
from lessons.context_extension import rope_inv_freq, rope_wavelengths
from lessons.positional import angle_table
from lessons.rope import half_split_table, rotate_with_table

# ---------------------------------------------------------------------------
# 1. What an image or a video costs: tokens, and position ids
# ---------------------------------------------------------------------------

AXES = ("time", "height", "width")
TEXT, IMAGE, VIDEO = 0, 1, 2  # the values of transformers' mm_token_type_ids


def vision_grid_thw(height: int, width: int, frames: int = 1, patch_size: int = 14,
                    temporal_patch_size: int = 2) -> tuple[int, int, int]:
    """(t, h, w): the patch grid the vision encoder cuts a resized picture into.

    height and width in pixels must already be multiples of patch_size · 2 (Qwen's
    processor resizes to that); a still image counts as one temporal patch, a video of
    `frames` frames as frames / temporal_patch_size of them (frames even).
    """
    _checks.counts(height=height, width=width, frames=frames, patch_size=patch_size)
    for name, side in (("height", height), ("width", width)):
        if side % (2 * patch_size):
            raise ValueError(f"{name} must be a multiple of {2 * patch_size} pixels, got {side}")
    if frames > 1 and frames % temporal_patch_size:
        raise ValueError(f"frames must be a multiple of temporal_patch_size {temporal_patch_size}, got {frames}")
    t = 1 if frames == 1 else frames // temporal_patch_size
    return t, height // patch_size, width // patch_size


def vision_token_count(grid_thw, spatial_merge_size: int = 2) -> int:
    """How many tokens the language model reads for one grid: t · h · w / merge² (merge × merge patches -> 1 token)."""
    t, h, w = (int(v) for v in grid_thw)
    return t * h * w // spatial_merge_size**2


def vision_id_advance(grid_thw, spatial_merge_size: int = 2) -> int:
    """How far the running position moves past one image or video in transformers 5.24's
    get_rope_index: the larger merged side, max(h, w) / merge, whatever the token count."""
    _, h, w = (int(v) for v in grid_thw)
    return max(h, w) // spatial_merge_size


# ---------------------------------------------------------------------------
# 2. M-RoPE position ids: get_rope_index
# ---------------------------------------------------------------------------

def vision_position_ids(start: int, grid_thw, spatial_merge_size: int = 2,
                        time_interval: float = 1.0) -> np.ndarray:
    """(3, t·h'·w') int ids (time, height, width) of one image or video's tokens, row-major
    over (t, h', w') with h' = h / merge, w' = w / merge, all offset by start.

    Time ids are floor(k · time_interval) for temporal patch k, computed in float32 as
    transformers 5.24 does (get_vision_position_ids); 1 for Qwen2-VL, tokens_per_second ·
    seconds per temporal patch for a Qwen2.5-VL video.
    """
    t, h, w = int(grid_thw[0]), int(grid_thw[1]) // spatial_merge_size, int(grid_thw[2]) // spatial_merge_size
    # floor(k · interval), float32 like torch's arange(t) * time_interval, then .long()
    time = (np.arange(t, dtype=np.float32) * np.float32(time_interval)).astype(np.int64)
    T, H, W = np.meshgrid(time, np.arange(h), np.arange(w), indexing="ij")  # each (t, h', w')
    return np.stack([T, H, W]).reshape(3, -1) + start  # (3, t·h'·w')


def get_rope_index(token_types, image_grid_thw=(), video_grid_thw=(), spatial_merge_size: int = 2,
                   tokens_per_second: float | None = None, second_per_grid_ts=None,
                   resume: str = "longer_side") -> tuple[np.ndarray, int]:
    """M-RoPE position ids for one sequence, as transformers 5.24's get_rope_index of
    Qwen2-VL (tokens_per_second None) and Qwen2.5-VL (tokens_per_second set).

    Args:
        token_types: (n,) 0 text, 1 image, 2 video per token (transformers' mm_token_type_ids).
        image_grid_thw, video_grid_thw: one (t, h, w) patch grid per image / video run, in order.
        spatial_merge_size: patches merged per side into one token (2 in every Qwen VL config).
        tokens_per_second: Qwen2.5-VL's vision_config key; None means Qwen2-VL (time step 1).
        second_per_grid_ts: seconds per temporal patch, one per video (Qwen2.5-VL; default 1).
        resume: where the ids go on after an image or video: "longer_side" (transformers 5.24:
            its start + max(h, w) / merge) or "max_id" (its largest id + 1, on any row: vLLM
            0.33.0's get_mrope_input_positions, read in vllm/model_executor/models/qwen2_5_vl.py).
            The two agree unless a video's time ids outrun its longer side.

    Returns:
        (position_ids, rope_delta): (3, n) int ids (time, height, width) and
        max id + 1 − n, the shift every generated token's position gets.
    """
    token_types = np.asarray(token_types)
    _checks.one_of(resume, "resume", ("longer_side", "max_id"))
    grids = {IMAGE: iter(image_grid_thw), VIDEO: iter(video_grid_thw)}
    seconds = iter(second_per_grid_ts if second_per_grid_ts is not None else itertools.repeat(1.0))
    pieces, current = [], 0
    for kind, run in itertools.groupby(token_types.tolist()):
        length = len(list(run))
        if kind == TEXT:  # text: one id per token, the same on all three rows
            pieces.append(np.broadcast_to(np.arange(current, current + length), (3, length)))
            current += length
            continue
        grid = next(grids[kind])
        interval = 1.0
        if kind == VIDEO and tokens_per_second is not None:
            interval = np.float32(tokens_per_second) * np.float32(next(seconds))  # absolute time (Qwen2.5-VL)
        ids = vision_position_ids(current, grid, spatial_merge_size, interval)
        if ids.shape[1] != length:
            raise ValueError(f"a run of {length} vision tokens does not match grid {tuple(grid)} "
                             f"({ids.shape[1]} tokens at merge {spatial_merge_size})")
        pieces.append(ids)
        if resume == "max_id":  # vLLM 0.33.0: past every id the image or video used
            current = int(ids.max()) + 1
        else:  # transformers 5.24: the larger merged side
            current += vision_id_advance(grid, spatial_merge_size)
    position_ids = np.concatenate(pieces, axis=1)  # (3, n)
    return position_ids, int(position_ids.max()) + 1 - token_types.size


def decode_position_ids(rope_delta: int, cache_length: int, n_new: int = 1) -> np.ndarray:
    """(3, n_new) ids of tokens generated after a prompt: cache position + rope_delta on all three rows."""
    return np.broadcast_to(np.arange(cache_length, cache_length + n_new) + rope_delta, (3, n_new))


def mm_token_types(*parts) -> np.ndarray:
    """A (n,) token-type row from ("text", n), ("image", grid) and ("video", grid) parts (merge 2)."""
    out = []
    for kind, what in parts:
        _checks.one_of(kind, "kind", ("text", "image", "video"))
        n = what if kind == "text" else vision_token_count(what)
        out += [{"text": TEXT, "image": IMAGE, "video": VIDEO}[kind]] * n
    return np.asarray(out)


# ---------------------------------------------------------------------------
# 3. Which pair turns with which id: sections and interleaving
# ---------------------------------------------------------------------------

def mrope_axis_of_pair(mrope_section, interleaved: bool = False) -> np.ndarray:
    """(sum(mrope_section),) axis per rotary pair: 0 time, 1 height, 2 width.

    Sections (Qwen2-VL, Qwen2.5-VL): the first mrope_section[0] pairs follow time, the next
    mrope_section[1] height, the rest width. Interleaved (Qwen3-VL, transformers 5.24's
    Qwen3VLTextRotaryEmbedding.recomposition_frequencies): pair i follows height when
    i % 3 == 1 and i < 3·mrope_section[1], width when i % 3 == 2 and i < 3·mrope_section[2],
    time otherwise.
    """
    section = [int(s) for s in mrope_section]
    if len(section) != 3 or min(section) < 0:
        raise ValueError(f"mrope_section must be three pair counts (time, height, width), got {mrope_section}")
    if not interleaved:
        return np.repeat([0, 1, 2], section)
    axis = np.zeros(sum(section), dtype=int)
    for a in (1, 2):
        axis[a: 3 * section[a]: 3] = a  # every third pair from offset a
    return axis


def mrope_angles(position_ids: np.ndarray, inv_freq: np.ndarray, mrope_section, interleaved: bool = False) -> np.ndarray:
    """(n, d/2) angles: pair i turns by position_ids[axis(i)] · θ_i, for (3, n) ids and (d/2,) speeds."""
    position_ids = np.asarray(position_ids)
    axis = mrope_axis_of_pair(mrope_section, interleaved)
    if axis.size != len(inv_freq):
        raise ValueError(f"mrope_section sums to {axis.size} pairs but inv_freq has {len(inv_freq)}")
    per_axis = np.stack([angle_table(position_ids[a], inv_freq) for a in range(3)])  # (3, n, d/2)
    return per_axis[axis, :, np.arange(axis.size)].T  # pick axis(i) for pair i -> (n, d/2)


def mrope_cos_sin(position_ids: np.ndarray, inv_freq: np.ndarray, mrope_section, interleaved: bool = False,
                  attention_factor: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(cos, sin), each (n, d), in the half-split layout transformers' Qwen VL rotary classes return."""
    cos, sin = half_split_table(mrope_angles(position_ids, inv_freq, mrope_section, interleaved))
    return cos * attention_factor, sin * attention_factor


def apply_mrope(x: np.ndarray, position_ids: np.ndarray, inv_freq: np.ndarray, mrope_section,
                interleaved: bool = False) -> np.ndarray:
    """Rotate (n, d) vectors by M-RoPE (half-split layout): x cos + rotate_half(x) sin."""
    return rotate_with_table(x, *mrope_cos_sin(position_ids, inv_freq, mrope_section, interleaved))


def axis_wavelength_range(inv_freq: np.ndarray, mrope_section, interleaved: bool = False) -> dict[str, tuple]:
    """{axis: (shortest, longest wavelength in positions)} over the pairs each axis drives."""
    axis = mrope_axis_of_pair(mrope_section, interleaved)
    waves = rope_wavelengths(np.asarray(inv_freq))
    return {name: (float(waves[axis == a].min()), float(waves[axis == a].max()))
            for a, name in enumerate(AXES) if np.any(axis == a)}


def ids_per_token(parts) -> float:
    """How many position ids a prompt advances per token it holds: the last text id + 1 over
    the token count, for ("text", n) / ("image", grid) parts ending in text."""
    ids, _ = get_rope_index(mm_token_types(*parts), [g for k, g in parts if k == "image"])
    return float((ids.max() + 1) / ids.shape[1])


# ---------------------------------------------------------------------------
# 4. Figures (figures_build turns each into docs/figures/multimodal_rope.<name>.svg)
# ---------------------------------------------------------------------------

# The page's running example: 3 text tokens, a 112 x 168-pixel image (patch grid 1 x 8 x 12), 4 text tokens
EXAMPLE_PARTS = (("text", 3), ("image", (1, 8, 12)), ("text", 4))
LOOKS = {"time": (BLUE, "o", "-"), "height": (RED, "s", "--"), "width": (GREEN, "^", ":")}


def figures() -> dict:
    """The page's three figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}
    kinds = mm_token_types(*EXAMPLE_PARTS)
    ids, delta = get_rope_index(kinds, [EXAMPLE_PARTS[1][1]])
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    first, last = np.flatnonzero(kinds == IMAGE)[[0, -1]]
    ax.axvspan(first - 0.5, last + 0.5, color=MUTED, alpha=0.25, lw=0)
    ax.text((first + last) / 2, ids.max() + 0.6, "24 image tokens", ha="center", va="bottom")
    for a, name in enumerate(AXES):
        color, marker, dash = LOOKS[name]
        ax.plot(np.arange(ids.shape[1]), ids[a] + (a - 1) * 0.12, marker=marker, ls=dash, color=color, ms=4,
                label=f"{name} id")
    n = ids.shape[1]
    gen = decode_position_ids(delta, n, 3)[0]
    ax.plot(np.arange(n, n + 3), gen, marker="D", ls="none", color=GRID, ms=5, label="generated (cache + delta)")
    ax.set(xlabel="token index in the sequence", ylabel="position id", ylim=(-0.5, ids.max() + 9),
           title="One image in M-RoPE: 24 tokens, 6 ids forward")
    ax.set_yticks(np.arange(0, ids.max() + 9, 4))
    ax.legend(frameon=False, loc="upper left", ncol=2)
    figs["position_ids"] = fig

    inv_freq, _ = rope_inv_freq(128, {"rope_theta": 1000000.0})
    fig, axes = plt.subplots(2, 1, figsize=(6.4, 4.6), layout="constrained", sharex=True, sharey=True)
    for ax, interleaved, title in ((axes[0], False, "sections 24/20/20 (Qwen2-VL's layout)"),
                                   (axes[1], True, "interleaved 24/20/20 (Qwen3-VL)")):
        axis = mrope_axis_of_pair([24, 20, 20], interleaved)
        for a, name in enumerate(AXES):
            color, marker, _ = LOOKS[name]
            pairs = np.flatnonzero(axis == a)
            ax.semilogy(pairs, rope_wavelengths(inv_freq[pairs]), marker, color=color, ms=4, label=name)
        ax.set(title=title, ylabel="wavelength (ids)")
    axes[1].set_xlabel("rotary pair i (head_dim 128, base 1,000,000)")
    axes[0].legend(frameon=False, ncol=3, loc="upper left")
    figs["pair_axes"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    sides = np.arange(224, 2017, 112)
    grids = [vision_grid_thw(s, s) for s in sides]
    ax.loglog(sides, [vision_token_count(g) for g in grids], "o-", color=BLUE, ms=4, label="tokens in the context")
    ax.loglog(sides, [vision_id_advance(g) for g in grids], "s--", color=RED, ms=4, label="position ids advanced")
    ax.set(xlabel="square image side (pixels)", ylabel="count", title="Tokens grow with area, ids with the side")
    ax.set_xticks([224, 448, 896, 1792], ["224", "448", "896", "1,792"])
    ax.minorticks_off()
    ax.legend(frameon=False)
    figs["image_cost"] = fig
    return figs


# ---------------------------------------------------------------------------
# 5. Demo
# ---------------------------------------------------------------------------

def demo() -> None:
    banner("1. What an image costs (patch 14, merge 2)")
    rows = []
    for h, w in ((448, 448), (1344, 896)):
        g = vision_grid_thw(h, w)
        rows.append((f"{h} x {w}", g, vision_token_count(g), vision_id_advance(g)))
    table(["pixels", "grid (t, h, w)", "tokens", "ids advanced"], rows)
    banner("2. get_rope_index: text, a 1 x 8 x 12 image, text")
    ids, delta = get_rope_index(mm_token_types(*EXAMPLE_PARTS), [EXAMPLE_PARTS[1][1]])
    for a, name in enumerate(AXES):
        say(f"{name:>6}: {ids[a].tolist()}")
    say(f"rope_delta {delta}: the next generated token (cache position {ids.shape[1]}) gets id "
        f"{decode_position_ids(delta, ids.shape[1])[0, 0]}")
    banner("3. Which pairs follow which id (24/20/20)")
    for interleaved in (False, True):
        axis = mrope_axis_of_pair([24, 20, 20], interleaved)
        say(("interleaved: " if interleaved else "sections:    ") + "".join("THW"[a] for a in axis))
    takeaway("Text tokens carry three equal ids, so M-RoPE turns them exactly like plain RoPE; "
             "images move the count by their side, not their token count.")


if __name__ == "__main__":
    demo()
