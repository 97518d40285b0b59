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
| Time as text (Qwen3-VL video) | Each frame is its own one-step grid after a "<t seconds>" label written in text | Time reads like any text; no seconds in the ids | Labels and frame markers cost tokens and ids every frame | Qwen3VLProcessor; no `tokens_per_second` in Qwen3-VL's vision config |
| TM-RoPE (Qwen2.5-Omni, Qwen3-Omni) | A video's and its audio's time ids both count fixed steps of time | Sound and picture of one moment share a time id | 25 time ids a second of video in Qwen2.5-Omni | `position_id_per_seconds` in the Omni configs |

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
  with new deltas. On transformers 5.2.0's Qwen2-VL compute them yourself
  (the largest prompt id + 1 minus the prompt length): its get_rope_index
  clamps them at 0.

![Tokens and position ids of a square image against its side in pixels, on log axes: the token count rises with the square of the side, the position ids with the side alone](figures/multimodal_rope.image_cost.svg)

**Reading it:** the upper line is what a square image costs in tokens, the
lower line how far it moves the position ids, both against the image's side
on log scales. Tokens grow with the image's area, ids only with its longer
side, so the gap widens as images grow. Budget memory and the engine's
length limit by the upper line, which is what fills the cache; only the
position-scaling decisions follow the lower one.

**What it costs.** Next to nothing in compute: the cos/sin table is built
for three ids and each pair keeps one of them. In context, an image costs one token per 28 × 28 pixels
(patches of 14 pixels, merged 2 × 2), so 256 tokens at 448 × 448 and 1,536
at 1,344 × 896; a video of 20 frames at 336 × 336 costs 1,440 tokens. In
position ids it costs far less: the same three inputs move the count by 16, 48
and 12. A prompt of ten 448 × 448 images with 50 text tokens around each
uses 0.23 position ids per token (all computed in Level 2). Qwen3-VL's
vision config defaults to 16-pixel patches (transformers 5.24's
Qwen3VLVisionConfig), so there a token covers 32 × 32 pixels, the same
448 × 448 image costs 196 tokens and 14 ids, and the ten-image prompt spends
0.27 ids per token. A minute of video costs 62 to 1,490 ids depending on
where the scheme keeps time, against 15,360 video tokens at 16 × 16 tokens
a second.

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
- **Text numbered on top of the video before it.** The Qwen team's code
  resumes the text after an image or a video at the largest id that image or
  video used + 1 (the pull request that added Qwen2.5-VL to transformers,
  [35569](https://github.com/huggingface/transformers/pull/35569): "the text
  start position_ids as the max vision position_ids plus 1"); transformers
  5.0.0 to 5.2.0 and vLLM 0.33.0 do the same. transformers 5.3.0 rewrote
  get_rope_index and resumes at the start + max(h′, w′) instead, through
  5.24.0: the same for an image, but after a video whose time ids outrun its
  sides the text takes ids its frames already hold on the time axis (Level 2
  shows it on a 10-second clip). The reporter of
  [transformers issue 45381](https://github.com/huggingface/transformers/issues/45381)
  calls 5.2.0's output correct. The rewrite broke more in 5.3.0 to 5.5.x
  (read in the wheels' get_vision_position_ids): every frame of a video got
  one time id, its start times the interval, and a multi-step video's height
  ids were shuffled (repeat_interleave over all its frames); a Qwen2.5-VL
  still image got the time id start × `tokens_per_second`
  ([issue 45325](https://github.com/huggingface/transformers/issues/45325),
  fixed in 5.5.4). [Pull request 45400](https://github.com/huggingface/transformers/pull/45400),
  first released in 5.6.0, gave each step its own time id again and left the
  new resume rule in place. Check an engine's prompt ids against vLLM
  0.33.0's (or, at whole seconds per step, transformers 5.2.0's), not 5.24's;
  for the ids of generated tokens 5.2.0 is no witness (next item).
- **A clamped offset (transformers 5.2.0, Qwen2-VL).** 5.2.0's
  Qwen2VLModel.get_rope_index returns `rope_deltas` as max(…, 0), and
  every image makes the true offset negative. generate() on a fresh prompt
  never reads it (it carries the prompt's last ids forward, one per token),
  but generate() handed the prompt's cache (a chat that keeps its cache
  between turns), or a forward call given the cache and no position ids,
  numbers the next token by its cache index: 31 instead of 13 after the
  running example of Level 2, measured on a tiny Qwen2-VL. 5.0.0, 5.1.0 and
  5.3.0 on do not clamp, nor does 5.2.0's Qwen2.5-VL; no thread found.
- **Seconds per step cut to whole seconds.** transformers 5.0.0 to 5.17.0
  turn `second_per_grid_ts` into an integer before multiplying (5.0.0 to
  5.2.0 by `torch.as_tensor(…, dtype=range_tensor.dtype)`, 5.3.0 to 5.17.0
  by int(next(second_per_grid_ts)); read in the wheels of 5.0.0 to 5.8.0,
  5.12.0, 5.16.0, 5.16.1 and 5.17.0), so a video sampled at 4 frames a
  second (0.5 s per step) gets one time id for all its frames
  ([lmms-eval issue 1393](https://github.com/EvolvingLMMs-Lab/lmms-eval/issues/1393)).
  [transformers pull request 48669](https://github.com/huggingface/transformers/pull/48669)
  keeps the fraction; 5.18.0 is the first release without the cast, and
  5.19.0, 5.20.0 and 5.24.0 have none either.
- **One time id lower in float64.** vLLM 0.33.0 forms the step
  `t_factor = second_per_grid_ts × tokens_per_second` in Python floats
  (iter_mm_grid_thw) and floors k × t_factor in float64
  (get_mrope_input_positions); transformers 5.18.0 to 5.24.0 multiply in
  float32 (get_vision_position_ids), as the Qwen team's code did
  (transformers 4.49.0). At 0.7 or 1.3 s per step every fifth step gets a
  time id one lower in vLLM (Level 2); no thread found.

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
For video, Qwen3-VL drops `tokens_per_second`: its processor writes a
"<t seconds>" label before each frame, and transformers 5.24's get_rope_index
splits every video grid into one-frame grids (modeling_qwen3_vl.py,
processing_qwen3_vl.py). Qwen2.5-Omni's `position_id_per_seconds` (25 by
default in transformers 5.24) gives video and audio one time scale, 40 ms per
time id as its report describes TM-RoPE.

**Go deeper.** Level 2 builds the three ids from scratch: how the Qwen
team's get_rope_index numbers an image and the text after it, which releases
of transformers changed that, what `rope_deltas` does
when generating, how Qwen2.5-VL turns seconds into time ids, which pairs each
axis gets in sections and when interleaved, and what an image costs in tokens
and in ids, how fast each scheme for video time spends ids, and how to pack
multimodal samples. The position ids are checked against the functions of
vLLM 0.33.0 and of transformers 5.2.0 and 5.24.0, the first generated
token's ids against 5.2.0's and 5.24.0's generate(), the cos/sin tables
against transformers 5.24.
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
column c"; the next caption then continues after the largest number the
photo used, not after its last tile. The album needs fewer page numbers than
it has tiles.

**Tiny worked example.** The running prompt: text at ids 0, 1, 2. The image
starts at 3; its 24 tokens go row by row, with time id 3 (a still image has one
time step), height ids 3 to 6 (its 4 rows) and width ids 3 to 8 (its 6 columns).
The text after it continues after the largest id the image used: 8 + 1 = 9,
ids 9, 10, 11, 12. For an image that is always its start plus its longer
side, 3 + max(4, 6). The prompt
has 31 tokens but its largest id is 12, so `rope_deltas` = 12 + 1 − 31 = −18.
The first generated token sits at cache position 31 and gets id 31 − 18 = 13,
on all three axes.

```mermaid
flowchart TB
    A["image, 112 × 168 pixels"] --> B["8 × 12 patches<br/>of 14 × 14 pixels"]
    B --> C["merge 2 × 2:<br/>4 × 6 = 24 tokens"]
    C --> D["ids: time 3,<br/>rows 3 to 6, columns 3 to 8"]
    D --> E["text resumes at the largest<br/>id + 1 = 8 + 1 = 9"]
    E --> F["rope_deltas = 12 + 1 − 31 = −18:<br/>generated token 31 gets id 13"]
```

**Reading it:** the image's pixels become patches, patches become tokens, and
tokens get ids from their row and column; the text after the image goes on
from the largest id the image used plus one, and the offset between the
largest id and the prompt length is kept for every token generated later.

**The math.** For an image or video of $t \times h' \times w'$ merged tokens
starting at id $s$, the token at temporal step $k$, row $r$ and column $c$ gets

$$
(p_{\text{T}}, p_{\text{H}}, p_{\text{W}}) = (s + \lfloor k \, \delta \rfloor,\; s + r,\; s + c),
\qquad s_{\text{next}} = 1 + \max_{\text{its tokens}} \max(p_{\text{T}}, p_{\text{H}}, p_{\text{W}}),
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
the next text starts one past the largest id the image used, on any of the
three rows; a generated token's id is
its place in the cache plus one fixed offset, which is negative as soon as the
prompt has an image."

**With the numbers:** the image's largest id is its last column, $3 + 5 = 8$,
so $s_{\text{next}} = 9 = 3 + \max(4, 6)$; the last text
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

<div class="primer-explorable" data-explorable="multimodal_ids" markdown="0"></div>

The box starts from the running example's image; give it more rows or
columns, or switch to a video and change its frames and seconds, and watch
how many tokens the picture costs against how far it moves the ids (numbered
by the Qwen team's rule, as vLLM 0.33.0 does). Switch the layout to see which
id each rotary pair follows in Qwen3-VL, and a long video under Qwen2.5-VL's
sections to see where transformers 5.3 to 5.24 put the text instead.

**In code:** `get_rope_index` is get_rope_index of Qwen2VLModel and
Qwen2_5_VLModel in numpy, for one sequence, with the Qwen team's rule for
where the text resumes (the next section); `vision_position_ids` numbers one
image or video; `decode_position_ids` gives generated tokens their ids;
`mm_token_types` builds the token-type row from a list of parts.
tests/test_multimodal_rope.py compares `get_rope_index` with vLLM 0.33.0's
get_mrope_input_positions and transformers 5.2.0's get_rope_index on eleven
prompts (tests/data/multimodal_rope_resume_vectors.json), and, with
`resume` set to "transformers_5_24", with transformers 5.24's on eight
(tests/data/multimodal_rope_vectors.json). The reference script calls each
library's function alone on a stub holding only the config values it reads.

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
tokens. After 5 text tokens its time ids run from 5 to 5 + 9 · 2 = 23, and
the text after it resumes at 24.

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
v2[0, -3:].tolist(), d2  # → ([24, 25, 26], -1421)
int(decode_position_ids(d2, cache_length=1448)[0, 0])  # → 27
```

The text after the clip resumes one past the clip's largest id, 23 + 1 = 24,
and the first generated token follows at 27. That is the rule the Qwen team
wrote with the model: its get_rope_index computes each start as
`llm_pos_ids_list[-1].max() + 1`, and its docstring says "we calculate the text
start position_ids as the max vision position_ids plus 1" (transformers pull
request [35569](https://github.com/huggingface/transformers/pull/35569), which
added Qwen2.5-VL; Qwen2-VL's docstring in transformers 5.0.0 says the same).
The page takes that rule as the one the model was trained with. Who does what,
each read in the released source; the last column is the id the running
example's first generated token gets from `rope_deltas` (computed below):

| Code | Text after an image or video resumes at | Seconds per step | First generated token | Where |
|---|---|---|---|---|
| The Qwen team (pull request 35569) | its largest id + 1 | kept (float32) | 13 | get_rope_index, as released in transformers 4.49.0 |
| transformers 5.0.0, 5.1.0 | its largest id + 1 | cut to whole seconds | 13 | get_rope_index in modeling_qwen2_vl.py and modeling_qwen2_5_vl.py |
| transformers 5.2.0 | its largest id + 1 | cut to whole seconds | 31 in Qwen2-VL (`rope_deltas` clamped at 0), 13 in Qwen2.5-VL | the same; max(…, 0) in Qwen2VLModel.get_rope_index |
| transformers 5.3.0 to 5.5.x | its start + max(h′, w′) | cut to whole seconds | not modelled: frames and Qwen2.5-VL images numbered wrongly too (Level 1) | get_rope_index, get_vision_position_ids |
| transformers 5.6.0 to 5.17.0 | its start + max(h′, w′) | cut to whole seconds | 13 | the same: `current_pos += max(grid_thw[1], grid_thw[2]) // spatial_merge_size` |
| transformers 5.18.0 to 5.24.0 | its start + max(h′, w′) | kept (float32) | 13 | the same |
| vLLM 0.33.0 | its largest id + 1 | kept (float64) | 13 | get_mrope_input_positions in model_executor/models/qwen2_vl.py and qwen2_5_vl.py |
| transformers 5.24.0, Qwen2.5-Omni | its largest id + 1 | kept | another model | get_rope_index in modeling_qwen2_5_omni.py |

```python
from lessons.multimodal_rope import (
    RELEASES, decode_position_ids, mm_token_types, rope_index_as)

kinds = mm_token_types(("text", 3), ("image", (1, 8, 12)), ("text", 4))
first = {c: int(decode_position_ids(rope_index_as(c, kinds, [(1, 8, 12)])[1],
                                    cache_length=31)[0, 0]) for c in RELEASES}
list(first.values())  # → [13, 13, 31, 13, 13, 13]
ids, d = rope_index_as("transformers 5.2.0", kinds, [(1, 8, 12)],
                       tokens_per_second=2)  # the same image, Qwen2.5-VL
31 + d  # → 13
```

The column is what a decoding step gets when it adds `rope_deltas` to the
cache position, as vLLM 0.33.0 always does (gpu_model_runner.py hands
MRotaryEmbedding.get_next_input_positions_tensor the request's
mrope_position_delta). transformers does so only on some paths.
Measured on a tiny random Qwen2-VL with 5.2.0 and with 5.24.0 (the
"generate" records of both vectors files): generate() on a fresh prompt
carries the prompt's last ids forward by one per token and gets 13 in both
releases; generate() handed the prompt's cache takes cache position +
`rope_deltas`, 31 in 5.2.0 and 13 in 5.24.0. An earlier version of this page
named transformers 5.2.0 as a witness without this caveat.

An earlier version of this page took transformers 5.24 as the reference,
taught "text resumes at start + max(h′, w′)" and listed vLLM's rule as a
difference without judging it. It was transformers that had changed: 5.3.0
rewrote get_rope_index around a running position, and the reporter of
[issue 45381](https://github.com/huggingface/transformers/issues/45381) calls
5.2.0's output correct. On this clip the rule of 5.6.0 to 5.24.0 puts the
text at 17 to 19, inside the clip's time ids, which reach 23: two of the
three text tokens share a time id with a frame (the clip's steps 6 and 7,
counting from 0), and Qwen2-VL's numbering does the same to a longer video:

```python
from lessons.multimodal_rope import (
    RESUME_RULES, decode_position_ids, get_rope_index, mm_token_types,
    rope_index_as)

kinds = mm_token_types(("text", 5), ("video", (10, 24, 24)), ("text", 3))
old, d_old = get_rope_index(kinds, [], [(10, 24, 24)], tokens_per_second=2,
                            second_per_grid_ts=[1.0],
                            resume="transformers_5_24")
old[0, -3:].tolist(), d_old  # → ([17, 18, 19], -1424)
int(old[0, -1]) + 1  # → 20
int(decode_position_ids(d_old, cache_length=1448)[0, 0])  # → 24
frames = set(old[0, 5:1445].tolist())
sorted(frames & set(old[0, -3:].tolist()))  # → [17, 19]
k2 = mm_token_types(("text", 2), ("video", (32, 8, 8)), ("text", 3))
[int(get_rope_index(k2, [], [(32, 8, 8)], resume=r)[0][0, -3])
 for r in RESUME_RULES]  # → [34, 6]
firsts = {}
for c in ("transformers 5.18.0 to 5.24.0", "transformers 5.2.0"):
    ids2, d2 = rope_index_as(c, k2, [], [(32, 8, 8)])
    firsts[c] = int(ids2[0, -1]) + 1, k2.size + d2  # generate(), cache
list(firsts.values())  # → [(9, 34), (37, 517)]
```

The last line is a 32-step Qwen2-VL video of 4 × 4 tokens after 2 text
tokens: the Qwen team's rule and vLLM resume at 34, transformers 5.3.0 to
5.24.0 at 6; from 5.6.0 that is inside the video's time ids, which run from
2 to 33 (in 5.3.0 to 5.5.x all 32 steps share time id 2). For images,
and for videos whose time ids stay below their longer side, the two rules
agree (the test checks it on every image prompt of the 5.24 reference set).
Where they differ, `rope_deltas` still comes from the largest id, so after
the clip 5.24's generate() goes on at 20 while a step that adds
`rope_deltas` to the cache position jumps to 24 (an earlier version of this
page gave the jump alone, as if generate() made it). After the 32-step video
the last lines give 5.24 9 from generate() and 34 from the cache, 5.2.0 37
and 517 (its cache index, the clamp again); the test holds both pairs against
the two releases' generate() records.

Where the seconds per step are not whole, the codes part ways again.
transformers 5.0.0 to 5.17.0 cut them to whole seconds (`whole_seconds`
reproduces 5.2.0's ids, tested at 0.5, 2/3, 0.7 and 1.3 s); vLLM floors
k × `tokens_per_second` × seconds in float64, transformers 5.18.0 to 5.24.0
in float32 (`time_float` picks one). A 12-step video at 0.7 s per step and 2
time ids a second, after 2 text tokens:

```python
from lessons.multimodal_rope import (
    TIME_FLOATS, get_rope_index, mm_token_types)

k3 = mm_token_types(("text", 2), ("video", (12, 4, 4)), ("text", 2))
steps = {f: get_rope_index(k3, [], [(12, 4, 4)], tokens_per_second=2,
                           second_per_grid_ts=[0.7], time_float=f)[0]
         for f in TIME_FLOATS}  # ids; row 0 at 2, 6, ... is each step's time
steps = {f: ids[0, 2:50:4] for f, ids in steps.items()}
steps["float32"].tolist()
# → [2, 3, 4, 6, 7, 9, 10, 11, 13, 14, 16, 17]
steps["float64"].tolist()
# → [2, 3, 4, 6, 7, 8, 10, 11, 13, 14, 15, 17]
cut, _ = get_rope_index(k3, [], [(12, 4, 4)], tokens_per_second=2,
                        second_per_grid_ts=[0.7], whole_seconds=True)
sorted(set(cut[0, 2:50].tolist()))  # → [2]
```

Step 5 is 5 × 1.4 = 7 exactly: float32 rounds the product up to 7, float64
keeps 6.99999988 and floors it to 6, so vLLM's step 5 and step 10 sit one
time id lower (tested against vLLM's function at 0.7 and 1.3 s per step).
The default here is float32, the Qwen team's and transformers' arithmetic.
An earlier version of this page said pull request 48669 keeps the fraction
"as vLLM 0.33.0 does", which holds only where the two floors agree.

**In code:** `get_rope_index` with `tokens_per_second` and
`second_per_grid_ts` set is the Qwen2.5-VL rule; `resume` is
"max_plus_one" (the Qwen team's, the default) or "transformers_5_24";
`time_float` is "float32" (the default) or "float64" (vLLM), and
`whole_seconds` cuts the seconds as transformers 5.0.0 to 5.17.0 do;
`vision_position_ids` floors $k \cdot \delta$; `rope_index_as` numbers a
prompt with the switches of one code of `RELEASES`, 5.2.0's clamp included.
tests/test_multimodal_rope.py pins each witness against its code: vLLM
0.33.0 and transformers 5.2.0 record by record (this clip, the 32-step
video, 0.5, 2/3, 0.7 and 1.3 s per step included), transformers 5.24 against
"transformers 5.18.0 to 5.24.0", and the generated tokens against both
releases' generate().

**Why it matters.** An engine must pass the seconds per step through to the
position code; without them every video is numbered as if at one step per
second, and questions about when something happens get answers in the wrong
units. The same number also makes long videos reach high time ids quickly,
which is exactly when where the text resumes matters: numbered on top of the
frames, a question asked after a video sits, on the time axis, inside it.

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
other 24, ending with 60 to 63. Qwen3-VL's base is 5,000,000 (`rope_theta`
in the published config.json of Qwen/Qwen3-VL-8B-Instruct, as public copies
of it record; transformers 5.24's Qwen3VLTextConfig falls back to 500,000
when a config has none). With that base and head width 128, the sections
layout leaves time only wavelengths from 6.3 to 1,606 ids and width only from
253,350 ids up; interleaved, every axis reaches from under 11 ids to more
than 7,000,000. An earlier version of this page used Qwen2-VL's base,
1,000,000, for Qwen3-VL. Qwen2-VL's own split 16, 24, 24 at its own base is
worse for the image axes: its fastest width pair turns by 0.0084 radians
across an image 48 tokens wide.

**In Python:**

```python
import numpy as np
from lessons.context_extension import rope_inv_freq
from lessons.multimodal_rope import (
    axis_wavelength_range, mrope_axis_of_pair)

"".join("THW"[a] for a in mrope_axis_of_pair([3, 3, 3], True))
# → 'THWTHWTHW'
theta, _ = rope_inv_freq(128, {"rope_theta": 5000000.0})  # Qwen3-VL
r = axis_wavelength_range(theta, [24, 20, 20])
round(r["time"][0], 1), round(r["time"][1]), round(r["width"][0])
# → (6.3, 1606, 253350)
r = axis_wavelength_range(theta, [24, 20, 20], interleaved=True)
max(a for a, b in r.values()) < 11, min(b for a, b in r.values()) > 7e6
# → (True, True)
theta2, _ = rope_inv_freq(128, {"rope_theta": 1000000.0})  # Qwen2-VL
axis = mrope_axis_of_pair([16, 24, 24])
round(float(theta2[axis == 2].max() * 47), 4)  # → 0.0084
np.bincount(mrope_axis_of_pair([16, 24, 24], True)).tolist()
# → [22, 21, 21]
```

The last line is a trap for anyone porting: interleaving Qwen2-VL's split
16, 24, 24 in transformers' stride does not give 16, 24 and 24 pairs but 22, 21
and 21, because height's and width's strides run past the last pair (the
test checks this layout against transformers' own cos/sin table). The two
layouts are different models, not two ways to compute one.

![Wavelength of each of the 64 rotary pairs at Qwen3-VL's base 5,000,000 on a log scale, coloured by the axis it follows: in sections 24/20/20 time holds the short waves, height the middle and width the long ones; interleaved, every axis has pairs from the shortest to the longest wavelength](figures/multimodal_rope.pair_axes.svg)

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
\text{ids advanced} = \max\Big(\frac{F}{2}, \frac{H}{28}, \frac{W}{28}\Big) ,
$$

with $F/2$ replaced by 1 for a still image, and the time term by the largest
time id + 1 when time is counted in seconds (the next section). Only
$n_{\text{tokens}}$ counts
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
frames; the position ids grow only with its longer side, or with the number
of steps of a video that has more steps than the side."

**With the numbers:** a 1,344 × 896 image is 48 × 32 tokens, 1,536 in all,
and moves the ids by 48. A prompt of ten 448 × 448 images, each after 50 text
tokens, and 50 more text tokens at the end holds 3,110 tokens with Qwen2-VL's
14-pixel patches and ends at about 0.23 ids per token: 228,296 ids per million
tokens. Qwen3-VL cuts 16-pixel patches, so the same prompt holds 2,510 tokens
(196 per image) and spends 0.27 ids per token: a million tokens of such
prompts reach 274,900 ids, 1.05 times the 262,144 Qwen3-VL was trained to.
An earlier version of this page put the 14-pixel count beside Qwen3-VL's
trained length and concluded that such a million tokens stays inside it; with
Qwen3-VL's own patches it does not, though a small stretch covers it. A
text-only million tokens reaches a million ids, 3.81 times the trained length.
How far the ids reach, not how many tokens there are, decides what a YaRN
`factor` must cover, which is the README's point.

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
parts3 = [("text", 50), ("image", g3)] * 10 + [("text", 50)]
mm_token_types(*parts3).size  # → 2510
rate3 = ids_per_token(parts3)
round(rate3, 2), round(rate3 * 1_000_000)  # → (0.27, 274900)
round(rate3 * 1_000_000 / 262_144, 2), round(1_000_000 / 262_144, 2)
# → (1.05, 3.81)
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

## Video time on the position axis: ids, text, or a diagonal

**Everyday picture.** Three ways to keep the time in a photo album of a
holiday film: stamp each photo with its second (the number grows with the
film's length), write a caption "12.2 seconds" before each photo (the caption
costs space on every page), or just number the photos (cheap, but blind to
the frame rate). Each spends page numbers at its own pace.

**Tiny worked example.** One second of video, sampled at 2 frames a second,
is one temporal step of 2 frames; take 16 × 16 tokens per step. Qwen2-VL
moves the time id by 1 per step, Qwen2.5-VL by `tokens_per_second` × 1 s = 2,
Qwen2.5-Omni's TM-RoPE by 25 (`position_id_per_seconds`), VideoRoPE by its
spacing δ = 2. Qwen3-VL puts no time in the ids at all: each step becomes a
"<0.2 seconds>" label (6 text tokens), a frame marker, a one-step frame that
moves the ids by 16, and an end marker: 6 + 1 + 16 + 1 = 24 ids a step, and
6 + 2 + 256 = 264 tokens. The other schemes put one
<|vision_start|>, <|vision_end|> pair around the whole video, two ids and
two tokens, counted here as Qwen3-VL's are (Qwen2.5-Omni's get_rope_index
numbers the pair explicitly). Text after a minute of each (60 steps) starts
at:

| Scheme | Time of a video lives in | Ids a minute | Ids per million tokens | Source |
|---|---|---|---|---|
| One id per token | the token count | 15,362 | 1,000,000 | plain RoPE |
| M-RoPE (Qwen2-VL) | time id = step | 62 | 4,036 | get_rope_index, Qwen2-VL |
| Absolute time (Qwen2.5-VL) | time id = 2 per second | 121 | 7,877 | get_rope_index, Qwen2.5-VL, `tokens_per_second` 2 |
| TM-RoPE (Qwen2.5-Omni) | time id = 25 per second | 1,478 | 96,211 | modeling_qwen2_5_omni.py get_rope_index |
| Time as text (Qwen3-VL) | "<t seconds>" labels | 1,490 | 93,770 | modeling_qwen3_vl.py get_rope_index, processing_qwen3_vl.py |
| VideoRoPE | time id = 2 per step, diagonal layout | 121 | 7,877 | Wei et al. 2025, get_t_scale_rope_index |
| MRoPE-I, spatial reset | labels, as Qwen3-VL | 1,490 | 93,770 | Huang et al. 2025, pos_design/mrope_i.py |

An earlier version of this page counted the markers for Qwen3-VL only (and
gave Qwen2.5-Omni 1,476), said "six schemes" over seven rows, and wrote
MRoPE-I's row down from one frame; every row is now computed for the same
minute.

**The math.** For $S$ steps of $h' \times w'$ tokens, text after the video
starts (with the largest id + 1) at

$$
\text{ids} = \begin{cases}
\max(S, h', w') + 2 & \text{M-RoPE} \\
\max(\lfloor (S - 1)\,\tau \, \Delta t \rfloor + 1, h', w') + 2 & \text{time scaled by } \tau \\
(S - 1)\,\delta + 3 & \text{VideoRoPE} \\
\sum_{k=0}^{S-1} \big(\ell_k + 2 + \max(h', w')\big) & \text{time as text, MRoPE-I}
\end{cases}
$$

(the + 2 and + 3 hold the markers around the video).

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $S$ | temporal steps (2 frames each) | 60 |
| $h', w'$ | token rows and columns of one step | 16, 16 |
| $\tau$ | time ids per second: `tokens_per_second` or `position_id_per_seconds` | 2, 25 |
| $\delta$ | VideoRoPE's time ids per step | 2 |
| $\Delta t$ | seconds per step | 1 |
| $\ell_k$ | tokens of step $k$'s "<t seconds>" label | 6 or 7 |

**In words:** "M-RoPE spends an id per step, time-scaled schemes an id per
fraction of a second, and Qwen3-VL a label, two markers and a frame's side
per step; none of them spends an id per token."

**With the numbers:** Qwen2.5-VL reaches $(60 - 1) \cdot 2 \cdot 1 + 1 + 2 =
121$; Qwen3-VL's labels are 6 tokens for the first 10 seconds and 7 after, so
$10 \cdot 6 + 50 \cdot 7 + 60 \cdot 18 = 1{,}490$, and MRoPE-I's spatial
reset lands on the same count. Per million tokens of video, TM-RoPE reaches
96,211 ids and Qwen3-VL 93,770, well inside Qwen3-VL's trained 262,144, and
plain RoPE a million.

**In Python:**

```python
from lessons.multimodal_rope import (
    VIDEO_SCHEMES, get_rope_index, mm_token_types,
    qwen3_vl_timestamp_tokens, spatial_reset_position_ids,
    video_id_budget, videorope_position_ids)

[qwen3_vl_timestamp_tokens(t) for t in (0.25, 12.25, 123.25)]
# → [6, 7, 8]
budget = {s: video_id_budget(s) for s in VIDEO_SCHEMES}
len(VIDEO_SCHEMES)  # → 7
[ids for tokens, ids in budget.values()]
# → [15362, 62, 121, 1478, 1490, 121, 1490]
[round(ids / tokens * 1e6) for tokens, ids in budget.values()]
# → [1000000, 4036, 7877, 96211, 93770, 7877, 93770]
budget["timestamps in text (Qwen3-VL)"][0]  # → 15890
n = {s: ids for s, (tokens, ids) in budget.items()}
q3v = n["timestamps in text (Qwen3-VL)"]
(round(q3v / n["M-RoPE (Qwen2-VL)"], 1),
 round(q3v / n["absolute time (Qwen2.5-VL)"], 1),
 round(n["one id per token"] / q3v, 1),
 n["one id per token"] // n["M-RoPE (Qwen2-VL)"])  # → (24.0, 12.3, 10.3, 247)
ids, after = videorope_position_ids(5, (2, 4, 6))
ids.tolist(), after
# → ([[5, 5, 5, 5, 5, 5, 7, 7, 7, 7, 7, 7],
#   [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8],
#   [4, 5, 6, 4, 5, 6, 6, 7, 8, 6, 7, 8]], 8)
frame = mm_token_types(("text", 10), ("video", (1, 32, 32)), ("text", 2))
q3, _ = get_rope_index(frame, [], [(1, 32, 32)])
int(q3[0, -1]), spatial_reset_position_ids(10, (1, 32, 32))[1]  # → (27, 27)
```

Three facts behind the rows, each read in transformers 5.24: Qwen3-VL's
get_rope_index repeats each video grid once per step with $t = 1$
(`torch.repeat_interleave`), and its processor writes each step's time as
"<t seconds>" to one decimal, the middle of the step's two frames;
Qwen3VLVisionConfig has no `tokens_per_second`. Qwen2.5-Omni's get_rope_index
multiplies the step by the seconds per step and `position_id_per_seconds`
(25 by default; its processor samples 2 frames a second), so its report's
"40 ms per temporal ID" (reported by Xu et al. 2025) holds for video and
audio alike; Qwen3-Omni's processor defaults `position_id_per_seconds` to 13
while its config class keeps 25, and get_rope_index reads the config. The two
papers' rows come from their authors' code. VideoRoPE's
get_t_scale_rope_index (Wiselnn570/VideoRoPE,
videorope-transformer/modeling_videorope.py) defaults its spacing,
scale_factor, to 1.0, but the model's forward and
prepare_inputs_for_generation call it with 2.0 whenever which_rope is
"videorope", and the authors' evaluation scripts run their VideoRoPE
checkpoint at 2.0 (scripts/video_mme_qwen2_vl_auto.sh): the page takes
δ = 2, the spacing the released model was trained and evaluated with (an
earlier version called 2 the function's own). It adds the centred row and
column to the time id, so height and width lie on a diagonal, and resumes
the text at the last time id + 1 (its ids 4 to 8 above); the MRoPE-I paper's spatial reset
(JJJYmmm/Multimodal-RoPEs, pos_design/mrope_i.py) counts height and width from
0 in each frame and places the end marker past the frame's side, which lands
the next text where Qwen3-VL's does (27 for both above). Its temporal stride
of 2 never shows on one-step frames. VideoRoPE's text, by its authors'
choice, starts at the last time id + 1 while the last frame's height and
width ids run past it (8 above).

![Horizontal bars, log scale, of the position ids one minute of video (60 steps of 16 by 16 tokens, markers included) moves the text after it, per scheme: one id per token 15,362; TM-RoPE 1,478, Qwen3-VL's text timestamps and MRoPE-I 1,490; Qwen2.5-VL's absolute time and VideoRoPE 121; Qwen2-VL's M-RoPE 62](figures/multimodal_rope.video_time_ids.svg)

**Reading it:** one bar per scheme, each labelled with its count; the scale
is logarithmic, so each grid line is ten times the last. The schemes fall into
three groups: one id per token; the three that spend an id per 40 ms or a
label and a frame's side per step (Qwen3-VL 10.3 times fewer); and the three
that spend one or two ids per step, 12.3 to 24.0 times fewer than Qwen3-VL.

**In code:** `video_id_budget` numbers one video in each scheme of
`VIDEO_SCHEMES` and returns its tokens and ids; `qwen3_vl_video_parts` lays a
video out as Qwen3-VL's processor does, with `qwen3_vl_timestamp_tokens` for
the labels (counted with Qwen's BPE ranks as dashscope 2.0.2 ships them:
"<", each digit, ".", " seconds", ">"); `videorope_position_ids` and
`spatial_reset_position_ids` are the two papers' layouts, the second chained
frame by frame for MRoPE-I's row. The Qwen3-VL layout
is checked against transformers 5.24's own get_rope_index, which is handed the
unsplit grid (tests/test_multimodal_rope.py).

**Why it matters.** The trained length and a YaRN `factor` are counted in
ids, and for the same minute of video the schemes differ among themselves by
up to 24.0 times, and from plain RoPE by up to 247 times. Carrying time as
text (or at 25 ids a second) fills the trained range 12.3 to 24.0 times faster
than the M-RoPE schedules do, yet 10.3 times slower than the token count.

## Packing multimodal samples: four rows that restart

**Everyday picture.** Two photo albums glued into one binder keep their own
page numbers. A reader finds where the second album begins by a page "1" after
a page "12"; the photos' grid coordinates cannot tell him, because every
photo's first tile says "row 0" as well.

**Tiny worked example.** Sample A is 2 text tokens, a 2 × 2-token image and 1
text token (7 tokens); sample B opens with a 2 × 3-token image and ends with
2 text tokens (8 tokens). Packed into one row of 15 tokens, each sample keeps
its own M-RoPE ids from 0, and a fourth row, the text position 0 to 6 then 0
to 7, marks where B begins. Read off the time row instead, B's image (time id
0 six times) and A's image look like new documents at nearly every token: 12
"documents" instead of 2.

**In Python:**

```python
from lessons.multimodal_rope import packed_mrope_position_ids
from lessons.position_ids import document_ids_from_position_ids

a = [("text", 2), ("image", (1, 4, 4)), ("text", 1)]
b = [("image", (1, 4, 6)), ("text", 2)]
ids = packed_mrope_position_ids([a, b])
ids.shape  # → (4, 15)
ids[:, 7:].tolist()
# → [[0, 1, 2, 3, 4, 5, 6, 7], [0, 0, 0, 0, 0, 0, 3, 4],
#   [0, 0, 0, 1, 1, 1, 3, 4], [0, 1, 2, 0, 1, 2, 3, 4]]
int(document_ids_from_position_ids(ids[0]).max()) + 1  # → 2
int(document_ids_from_position_ids(ids[1]).max()) + 1  # → 12
```

Where this lives: transformers 5.24's Qwen2VLTextModel.forward takes packed
ids as 4 rows (the text row first, then time, height and width) and, given no
attention mask, cuts attention where the text row restarts; 3 rows are taken
as one sequence. Its
DataCollatorWithFlattening writes one row that restarts per example and
knows nothing of images. Trainers that pack Qwen-VL samples build the rows
themselves: LLaMA-Factory computes the M-RoPE ids per packed sub-sequence and
joins them ([pull request 10783](https://github.com/hiyouga/LlamaFactory/pull/10783));
NeMo Automodel's VLM packing emitted a plain 0 to n − 1 per sample;
[pull request 2172](https://github.com/NVIDIA-NeMo/Automodel/pull/2172)
passed it the model's get_rope_index, but looked the method up on the
`*ForConditionalGeneration` class, where transformers does not define it
(it lives on the base Qwen2VLModel and its kin), so the lookup found none
and packed Qwen-VL training stayed on 1-D ids until
[pull request 3113](https://github.com/NVIDIA-NeMo/Automodel/pull/3113)
resolved it from the base model (an earlier version of this page cited 2172
alone); a review of axolotl's open VLM packing
([pull request 3817](https://github.com/axolotl-ai-cloud/axolotl/pull/3817))
notes that its 2-D ids make Qwen-VL models skip get_rope_index and the cut.
TRL does not pack vision datasets; its open
[pull request 7081](https://github.com/huggingface/trl/pull/7081) adds
padding-free vision training and refuses models with multimodal RoPE.

**In code:** `packed_mrope_position_ids` numbers each sample with
`get_rope_index` and stacks the restarting text row on top;
`document_ids_from_position_ids` (`lessons.position_ids`) is transformers'
rule for finding documents in packed ids. The test checks that each sample's
slice equals the sample numbered alone.

**Why it matters.** A packed multimodal batch needs both: ids that restart
per sample, or B's text is numbered after A's images, and a boundary the model
can find, or B attends to A. The time row cannot serve as the boundary, since
an image's tokens share one time id.

## In 20 seconds

- M-RoPE gives each token three ids (time, height, width) and splits each
  head's rotary pairs between them; text tokens carry three equal ids, so on
  text it is plain RoPE.
- get_rope_index numbers an image by its rows and columns and resumes the
  text at the largest id so far + 1 (the Qwen team's rule, vLLM's and
  transformers 5.0 to 5.2's); transformers 5.3 to 5.24 resume at the start +
  the longer side, which from 5.6 puts text on top of a long video's time
  ids. `rope_deltas`, the largest id + 1 minus the prompt length, shifts a
  generated token wherever the cache position sets its id (vLLM always);
  5.2.0's Qwen2-VL clamps it at 0. Seconds per step: whole in transformers
  5.0 to 5.17, floored in float64 by vLLM.
- Qwen2.5-VL counts a video's time in seconds (`tokens_per_second`), TM-RoPE
  at 25 ids a second; Qwen3-VL writes the time as text and interleaves the
  pairs so every axis gets short and long waves (`mrope_interleaved`). A
  minute of video costs 62 to 1,490 ids, against 15,360 video tokens.
- An image costs tokens by its area and ids by its side: 256 tokens and 16 ids
  at 448 × 448. Chunked prefill, prefix caches and decoding must all carry the
  ids of the whole prompt; packing needs the ids to restart per sample, with a
  fourth, text row to mark where each begins.

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
    treat the image as 24 ids long, which is what transformers 5.2.0's
    Qwen2-VL does when it adds its clamped `rope_deltas` (0) to the cache
    position.

??? question "An engine prefills a long image prompt in chunks and numbers each chunk from its first token's index. What goes wrong?"
    After the first image, a token's index is larger than its id by the ids the
    image saved (18 in the running example), so every later chunk gets ids that
    are too large. The ids must be computed for the whole prompt once and
    sliced per chunk, as vLLM's chunked-prefill fix does.

??? question "After 5 text tokens, a 10-step Qwen2.5-VL clip (time ids 5 to 23, sides 12) and 3 text tokens: where does the text resume, and what goes wrong at 17?"
    At 24, one past the largest id the clip used, as the Qwen team's code,
    transformers 5.2.0 and vLLM 0.33.0 number it. transformers 5.6 to 5.24
    resume at 5 + 12 = 17, so the text tokens 17 and 19 share time ids with
    two of the clip's frames, and the question reads, on the time axis, as if
    it were asked in the middle of the video. (5.3 to 5.5 resume at 17 too,
    but give every frame the time id 5 × 2 = 10.)

??? question "Why does interleaving Qwen2-VL's split 16, 24, 24 not reproduce Qwen2-VL?"
    It is another layout, and with transformers' stride of three the counts
    change too: height and width take every third pair only up to the 64th, so
    the split becomes 22, 21, 21. Interleaving needs a split like Qwen3-VL's
    24, 20, 20, whose time share is the largest.

??? question "Why does Qwen3-VL recommend a YaRN factor of 2 or 3 rather than 4 to reach 1M tokens from 256K?"
    YaRN stretches the range of ids the model sees, and an image moves the ids
    by its side, not its token count: at Qwen3-VL's 16-pixel patches, ten
    448 × 448 images with text around them use 0.27 ids per token, so a
    million tokens of such prompts reach 274,900 ids, 1.05 times the trained
    262,144, where text alone would need 3.81. A factor of 4 stretches more
    than mixed content needs; the README's own reason is that interleaved
    MRoPE's ids grow more slowly than plain RoPE's.

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
- Xu et al. (2025), *Qwen2.5-Omni Technical Report*,
  [arXiv:2503.20215](https://arxiv.org/abs/2503.20215). TM-RoPE: video and
  audio on one time axis, reported as 40 ms per time id.
- Wei et al. (2025), *VideoRoPE: What Makes for Good Video Rotary Position
  Embedding?*, [arXiv:2502.05173](https://arxiv.org/abs/2502.05173).
  Low-frequency time pairs, a diagonal layout for height and width, and an
  adjustable time spacing δ (2 in its code).
- Huang et al. (2025), *Revisiting Multimodal Positional Encoding in
  Vision-Language Models*, [arXiv:2510.23095](https://arxiv.org/abs/2510.23095).
  MRoPE-Interleave and Multi-Head RoPE, with a spatial reset of each frame's
  height and width ids; reported gains on image, video and grounding
  benchmarks.
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
- transformers 5.2.0 and 5.3.0 source, the same get_rope_index before and
  after the resume rule changed; 5.5.4 and 5.6.0 for the fixes of issue
  45325 and pull request 45400; 5.17.0 and 5.18.0 for the whole-seconds cast
  and its removal; 4.49.0 for the Qwen team's code as first released;
  models/qwen2_5_omni/modeling_qwen2_5_omni.py and
  models/qwen3_vl/processing_qwen3_vl.py in 5.24 for TM-RoPE and the
  timestamps; generation/utils.py (_update_model_kwargs_for_generation
  carries position ids forward) and each model's
  _prepare_position_ids_for_generation for the generated tokens.
- vLLM 0.33.0 source: vllm/model_executor/models/qwen2_vl.py and
  qwen2_5_vl.py (iter_mm_grid_thw, get_mrope_input_positions), qwen3_vl.py
  (_get_mrope_input_positions, one grid per frame), v1/worker/gpu_model_runner.py
  (generated tokens at cache position + mrope_position_delta).
- The authors' code of the two papers: Wiselnn570/VideoRoPE
  (videorope-transformer/modeling_videorope.py) and JJJYmmm/Multimodal-RoPEs
  (multimodal_ropes/pos_design/).
- The QwenLM/Qwen3-VL README, "Processing Long Texts": the YaRN block and the
  factor advice.
- Where this page goes beyond the usual anchors: the Hugging Face
  documentation names the M-RoPE keys; this page builds get_rope_index,
  `rope_deltas`, the time scaling and the interleaved layout from scratch,
  checks each against vLLM's and two transformers releases' own functions,
  says which release does what where they disagree, and computes the token
  and id costs of images and of video in seven schemes.
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
    """How far one image moves the running position: its larger merged side, max(h, w) / merge,
    whatever its token count. For an image (or a video whose time ids stay below that side)
    this is where the largest id + 1 lands; transformers 5.3-5.24 apply it to long videos too."""
    _, h, w = (int(v) for v in grid_thw)
    return max(h, w) // spatial_merge_size


# ---------------------------------------------------------------------------
# 2. M-RoPE position ids: get_rope_index
# ---------------------------------------------------------------------------

TIME_FLOATS = ("float32", "float64")


def vision_position_ids(start: int, grid_thw, spatial_merge_size: int = 2,
                        time_interval: float = 1.0, time_float: str = "float32") -> np.ndarray:
    """(3, t·h'·w') int ids (time, height, width) of one image or video's tokens, row-major
    over (t, h', w') with h' = h / merge, w' = w / merge, all offset by start.

    Time ids are floor(k · time_interval) for temporal patch k: 1 for Qwen2-VL, tokens_per_second ·
    seconds per temporal patch for a Qwen2.5-VL video. time_float "float32" forms k · interval in
    float32 as transformers 5.18-5.24 do (get_vision_position_ids); "float64" as vLLM 0.33.0 does
    (get_mrope_input_positions: numpy int64 steps times a Python float), which can floor one lower.
    """
    _checks.one_of(time_float, "time_float", TIME_FLOATS)
    t, h, w = int(grid_thw[0]), int(grid_thw[1]) // spatial_merge_size, int(grid_thw[2]) // spatial_merge_size
    if time_float == "float32":  # torch's arange(t) * a float32 interval, then .long()
        time = (np.arange(t, dtype=np.float32) * np.float32(time_interval)).astype(np.int64)
    else:  # vLLM: (grid_indices[0] * t_factor).astype(np.int64), all in float64
        time = (np.arange(t) * float(time_interval)).astype(np.int64)
    T, H, W = np.meshgrid(time, np.arange(h), np.arange(w), indexing="ij")  # each (t, h', w')
    return np.stack([T, H, W]).reshape(3, -1) + start  # (3, t·h'·w')


RESUME_RULES = ("max_plus_one", "transformers_5_24")


def get_rope_index(token_types, image_grid_thw=(), video_grid_thw=(), spatial_merge_size: int = 2,
                   tokens_per_second: float | None = None, second_per_grid_ts=None,
                   resume: str = "max_plus_one", time_float: str = "float32",
                   whole_seconds: bool = False) -> tuple[np.ndarray, int]:
    """M-RoPE position ids for one sequence: get_rope_index of Qwen2-VL (tokens_per_second None)
    and Qwen2.5-VL (tokens_per_second set), as the Qwen team wrote it.

    Args:
        token_types: (n,) 0 text, 1 image, 2 video per token (transformers' mm_token_type_ids).
        image_grid_thw, video_grid_thw: one (t, h, w) patch grid per image / video run, in order.
        spatial_merge_size: patches merged per side into one token (2 in every Qwen VL config).
        tokens_per_second: Qwen2.5-VL's vision_config key; None means Qwen2-VL (time step 1).
        second_per_grid_ts: seconds per temporal patch, one per video (Qwen2.5-VL; default 1).
        resume: where the ids go on after an image or video. "max_plus_one": its largest id + 1,
            on any row (the authors' rule, PR 35569; transformers 5.0-5.2; vLLM 0.33.0's
            get_mrope_input_positions). "transformers_5_24": its start + max(h, w) / merge
            (transformers 5.3-5.24), which puts text below a long video's last time ids.
        time_float: "float32" (the default: transformers 5.18-5.24; the Qwen team's code multiplies
            float32 tensors) or "float64" (vLLM 0.33.0), how k · tokens_per_second · seconds is floored.
        whole_seconds: cut each video's seconds per temporal patch to an integer first, as
            transformers 5.0.0-5.17.0 do (0.5 s becomes 0: every step one time id).

    Returns:
        (position_ids, rope_delta): (3, n) int ids (time, height, width) and
        max id + 1 − n, the shift every generated token's position gets.
    """
    token_types = np.asarray(token_types)
    _checks.one_of(resume, "resume", RESUME_RULES)
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
        if kind == VIDEO and tokens_per_second is not None:  # absolute time (Qwen2.5-VL)
            step = next(seconds)
            step = int(step) if whole_seconds else float(np.float32(step))  # the processor's float32 tensor
            interval = (np.float32(tokens_per_second) * np.float32(step) if time_float == "float32"
                        else step * tokens_per_second)  # vLLM: t_factor in Python float
        ids = vision_position_ids(current, grid, spatial_merge_size, interval, time_float)
        if ids.shape[1] != length:
            raise ValueError(f"a run of {length} vision tokens does not match grid {tuple(grid)} "
                             f"({ids.shape[1]} tokens at merge {spatial_merge_size})")
        pieces.append(ids)
        if resume == "max_plus_one":  # past every id the image or video used, on all three rows
            current = int(ids.max()) + 1
        else:  # transformers 5.3-5.24: the larger merged side, whatever the time ids reached
            current += vision_id_advance(grid, spatial_merge_size)
    position_ids = np.concatenate(pieces, axis=1)  # (3, n)
    return position_ids, int(position_ids.max()) + 1 - token_types.size


def decode_position_ids(rope_delta: int, cache_length: int, n_new: int = 1) -> np.ndarray:
    """(3, n_new) ids of tokens generated after a prompt: cache position + rope_delta on all three rows."""
    return np.broadcast_to(np.arange(cache_length, cache_length + n_new) + rope_delta, (3, n_new))


# Who numbers Qwen2-VL and Qwen2.5-VL prompts how, each read in its released source: get_rope_index's
# switches per code (transformers 5.3.0-5.5.x also misnumber frames and images: not modelled, see the page)
RELEASES = {
    "the Qwen team (PR 35569)": {},
    "transformers 5.0.0, 5.1.0": {"whole_seconds": True},
    "transformers 5.2.0": {"whole_seconds": True, "clamp_delta": True},
    "transformers 5.6.0 to 5.17.0": {"resume": "transformers_5_24", "whole_seconds": True},
    "transformers 5.18.0 to 5.24.0": {"resume": "transformers_5_24"},
    "vLLM 0.33.0": {"time_float": "float64"},
}


def rope_index_as(code: str, token_types, image_grid_thw=(), video_grid_thw=(), spatial_merge_size: int = 2,
                  tokens_per_second: float | None = None, second_per_grid_ts=None) -> tuple[np.ndarray, int]:
    """(position_ids (3, n), rope_delta) as one code of RELEASES numbers a prompt. transformers
    5.2.0's Qwen2-VL (tokens_per_second None) returns the delta clamped at 0
    (max(..., 0) in Qwen2VLModel.get_rope_index); its Qwen2.5-VL does not."""
    _checks.one_of(code, "code", tuple(RELEASES))
    switches = dict(RELEASES[code])
    clamp = switches.pop("clamp_delta", False) and tokens_per_second is None
    ids, delta = get_rope_index(token_types, image_grid_thw, video_grid_thw, spatial_merge_size,
                                tokens_per_second, second_per_grid_ts, **switches)
    return ids, max(delta, 0) if clamp else delta


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
# 4. Video time on the position axis: timestamps in text, TM-RoPE, VideoRoPE, MRoPE-I
# ---------------------------------------------------------------------------

def qwen3_vl_timestamp_tokens(seconds: float) -> int:
    """Text tokens of one Qwen3-VL frame label "<t seconds>", t to one decimal (transformers 5.24's
    Qwen3VLProcessor): "<", one token per digit, ".", " seconds", ">" (Qwen's pre-tokenizer splits
    every digit; counted with the BPE ranks dashscope 2.0.2 ships as qwen.tiktoken)."""
    return 3 + len(f"{seconds:.1f}")  # the digits and the point, plus "<", " seconds", ">"


def qwen3_vl_video_parts(grid_thw, seconds_per_step: float = 1.0) -> list:
    """One video as Qwen3-VL's processor lays it out, as parts: per temporal step a "<t seconds>"
    label and <|vision_start|> (text), a one-frame grid (1, h, w), <|vision_end|> (text). t is the
    middle of the step's two frames, (k + 1/4) · seconds_per_step (_calculate_timestamps)."""
    t, h, w = (int(v) for v in grid_thw)
    parts = []
    for k in range(t):
        label = qwen3_vl_timestamp_tokens((k + 0.25) * seconds_per_step)
        parts += [("text", label + 1), ("video", (1, h, w)), ("text", 1)]
    return parts


def videorope_position_ids(start: int, grid_thw, delta: int = 2,
                           spatial_merge_size: int = 2) -> tuple[np.ndarray, int]:
    """(3, t·h'·w') ids of one video in VideoRoPE's layout, and the id the text after it gets.

    Time: start + δ·k. Height and width: the time id plus the row or column counted from the
    frame's middle, r − ⌊(h' − 1)/2⌋ (the diagonal layout). The text resumes at the last time
    id + 1 (get_t_scale_rope_index in Wiselnn570/VideoRoPE, whose scale_factor δ is 2).
    """
    m = spatial_merge_size
    t, h, w = int(grid_thw[0]), int(grid_thw[1]) // m, int(grid_thw[2]) // m
    T, R, C = np.meshgrid(start + delta * np.arange(t), np.arange(h) - (h - 1) // 2,
                          np.arange(w) - (w - 1) // 2, indexing="ij")  # each (t, h', w')
    return np.stack([T, T + R, T + C]).reshape(3, -1), int(T.max()) + 1


def spatial_reset_position_ids(start: int, grid_thw, spatial_merge_size: int = 2) -> tuple[np.ndarray, int]:
    """(3, h'·w' + 1) ids of one frame and its <|vision_end|> in the spatial-reset layout of the
    MRoPE-I paper, and the id the text after it gets: time = start, height and width count from
    0, <|vision_end|> takes start + max(h', w') (pos_design/mrope_i.py, JJJYmmm/Multimodal-RoPEs)."""
    ids = vision_position_ids(0, grid_thw, spatial_merge_size)  # (3, h'·w'), time row all 0
    end = start + int(ids.max()) + 1
    ids[0] += start
    return np.concatenate([ids, np.full((3, 1), end)], axis=1), end + 1


VIDEO_SCHEMES = ("one id per token", "M-RoPE (Qwen2-VL)", "absolute time (Qwen2.5-VL)",
                 "TM-RoPE (Qwen2.5-Omni)", "timestamps in text (Qwen3-VL)", "VideoRoPE", "MRoPE-I (spatial reset)")


def video_id_budget(scheme: str, steps: int = 60, side: int = 16, seconds_per_step: float = 1.0,
                    tokens_per_second: float = 2, position_id_per_seconds: float = 25) -> tuple[int, int]:
    """(tokens, ids) one video of `steps` temporal steps of side × side merged tokens costs: the
    tokens it puts in the context and the id the text after it starts at, for a scheme of
    VIDEO_SCHEMES. Every scheme counts its markers: one <|vision_start|>, <|vision_end|> pair around
    the video, or, in Qwen3-VL's layout (and MRoPE-I's), a "<t seconds>" label and a pair per frame.
    Qwen2.5-VL at tokens_per_second, Qwen2.5-Omni at position_id_per_seconds (25: transformers
    5.24's default), VideoRoPE at δ = 2."""
    _checks.one_of(scheme, "scheme", VIDEO_SCHEMES)
    grid = (steps, 2 * side, 2 * side)
    if scheme == "VideoRoPE":  # <|vision_start|> at 0, the video from 1, <|vision_end|> at its last time id + 1
        ids, end = videorope_position_ids(1, grid)
        return ids.shape[1] + 2, end + 1
    if scheme == "MRoPE-I (spatial reset)":  # per frame: label and <|vision_start|>, the frame, <|vision_end|>
        tokens = current = 0
        for k in range(steps):
            label = qwen3_vl_timestamp_tokens((k + 0.25) * seconds_per_step) + 1
            ids, current = spatial_reset_position_ids(current + label, (1, 2 * side, 2 * side))
            tokens += label + ids.shape[1]
        return tokens, current
    parts = [("text", 1), ("video", grid), ("text", 1)]  # <|vision_start|>, the video, <|vision_end|>
    if scheme == "timestamps in text (Qwen3-VL)":
        parts = qwen3_vl_video_parts(grid, seconds_per_step)
    tps = {"absolute time (Qwen2.5-VL)": tokens_per_second,
           "TM-RoPE (Qwen2.5-Omni)": position_id_per_seconds}.get(scheme)
    kinds = mm_token_types(*parts, ("text", 1))
    ids, _ = get_rope_index(kinds, [], [g for k, g in parts if k == "video"], tokens_per_second=tps,
                            second_per_grid_ts=[seconds_per_step])
    n = kinds.size - 1
    return n, n if scheme == "one id per token" else int(ids[0, -1])


# ---------------------------------------------------------------------------
# 5. Packing multimodal samples: four rows that restart
# ---------------------------------------------------------------------------

def packed_mrope_position_ids(samples) -> np.ndarray:
    """(4, n) ids of several samples packed into one row, each a list of parts (Qwen2-VL numbering).

    Row 0 is each token's text position, restarting at 0 in every sample: transformers 5.24's
    Qwen2VLTextModel reads it to cut attention between samples when it is handed 4 rows.
    Rows 1-3 are the sample's own M-RoPE ids (time, height, width), restarting too.
    """
    rows = []
    for parts in samples:
        kinds = mm_token_types(*parts)
        ids, _ = get_rope_index(kinds, [g for k, g in parts if k == "image"],
                                [g for k, g in parts if k == "video"])
        rows.append(np.vstack([np.arange(kinds.size), ids]))  # (4, len)
    return np.concatenate(rows, axis=1)


# ---------------------------------------------------------------------------
# 6. Figures (figures_build turns each into docs/figures/multimodal_rope.<name>.svg)
# ---------------------------------------------------------------------------

# The page's running example: 3 text tokens, a 112 x 168-pixel image (patch grid 1 x 8 x 12), 4 text tokens
EXAMPLE_PARTS = (("text", 3), ("image", (1, 8, 12)), ("text", 4))
LOOKS = {"time": (BLUE, "o", "-"), "height": (RED, "s", "--"), "width": (GREEN, "^", ":")}


def figures() -> dict:
    """The page's four figures as {name: matplotlib Figure}; nothing is saved or shown."""
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

    inv_freq, _ = rope_inv_freq(128, {"rope_theta": 5000000.0})  # Qwen3-VL's base
    fig, axes = plt.subplots(2, 1, figsize=(6.4, 4.6), layout="constrained", sharex=True, sharey=True)
    for ax, interleaved, title in ((axes[0], False, "sections 24/20/20 (Qwen2-VL's layout)"),
                                   (axes[1], True, "interleaved 24/20/20 (Qwen3-VL)")):
        axis = mrope_axis_of_pair([24, 20, 20], interleaved)
        for a, name in enumerate(AXES):
            color, marker, _ = LOOKS[name]
            pairs = np.flatnonzero(axis == a)
            ax.semilogy(pairs, rope_wavelengths(inv_freq[pairs]), marker, color=color, ms=4, label=name)
        ax.set(title=title, ylabel="wavelength (ids)")
    axes[1].set_xlabel("rotary pair i (head_dim 128, base 5,000,000: Qwen3-VL's)")
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

    fig, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
    counts = [video_id_budget(s)[1] for s in VIDEO_SCHEMES]  # one minute: 60 steps of 16 x 16 tokens
    ax.barh(np.arange(len(counts)), counts, color=BLUE, height=0.6)
    for i, c in enumerate(counts):
        ax.text(c * 1.15, i, f"{c:,}", va="center")
    ax.set_yticks(np.arange(len(counts)), VIDEO_SCHEMES)
    ax.invert_yaxis()
    ax.set(xscale="log", xlim=(10, 2e5), xlabel="position ids one minute of video moves the text after it",
           title="One minute of video, seven ways to number it")
    figs["video_time_ids"] = fig
    return figs


# ---------------------------------------------------------------------------
# 7. Demo
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
    banner("4. After a video: where the text resumes (10 steps, 2 time ids a second)")
    kinds = mm_token_types(("text", 5), ("video", (10, 24, 24)), ("text", 3))
    for rule in RESUME_RULES:
        ids, _ = get_rope_index(kinds, [], [(10, 24, 24)], tokens_per_second=2, second_per_grid_ts=[1.0],
                                resume=rule)
        say(f"{rule:>18}: the clip's time ids reach {ids[0, 5:1445].max()}, the text after it gets "
            f"{ids[0, -3:].tolist()}")
    banner("5. One minute of video (60 steps of 16 x 16 tokens): tokens and ids")
    table(["scheme", "tokens", "ids"], [(name, *video_id_budget(name)) for name in VIDEO_SCHEMES])
    takeaway("Text tokens carry three equal ids, so M-RoPE turns them exactly like plain RoPE; "
             "images move the count by their side, not their token count; after a video the text "
             "resumes past every id the video used.")


if __name__ == "__main__":
    demo()
