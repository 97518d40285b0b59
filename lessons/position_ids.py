r"""
# Position ids in practice: padding, packing and caches

Run it: `python -m lessons.position_ids` (a narrated walkthrough in the terminal).
Builds on `lessons.rope` (the rotation and its cache), `lessons.attention` (scores and
masks), `lessons.transformer` (a whole decoder with a cache) and
`lessons.context_extension` (the scaling rules that read the sequence length).

## Level 1: the practitioner's guide

**In one sentence.** Every token carries a position id next to its token id, and
whenever tokens are batched with padding, packed several documents to a row, split
into chunks, read back from a cache, shifted when the context is full, drafted ahead
or sharded across GPUs, someone has to compute those ids again, and cut attention to
match; RoPE forgives an id that is off by the same amount for every token of a
sequence, and nothing else.

**When you need it.** Batched generation with left padding (the padded prompts
answer differently from the same prompts sent one at a time); fine-tuning with
packed examples (the loss is suspiciously good, or the model learns to continue one
example with the next); a server with chunked prefill, prefix caching or a sliding
window (output turns to garbage after a chunk boundary, after a cache hit, or once
the conversation is longer than the window); a chat in llama.cpp that runs past its
context and starts rambling after the shift; speculative decoding whose acceptance
rate drops on prompts with images; long-context training split across GPUs whose loss
is worse than on one. The tell-tale sign in every case: the same text gives different
logits depending on what it was batched, cached or sharded with.

**Your options.**

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Ids from the mask | Numbers each row's real tokens 0, 1, 2, ... after its padding | Padded rows get the ids they would have alone | Nothing; but only `generate` does it for you | transformers' `generate`; pass `position_ids` to a bare forward |
| Right padding | Pads after the text, so the ids 0..n−1 are already right | No ids to fix for scoring | Useless for generation: new tokens must follow the text | `padding_side` of the tokenizer |
| Packing with reset ids and a cut | Puts several examples in one row, ids restart per example, attention stays inside each | No padding at all | A kernel or mask that knows the boundaries | DataCollatorWithFlattening; `cu_seqlens` for varlen attention |
| Chunked prefill | Runs a long prompt in pieces against the cache of the earlier pieces | Bounded memory per step; decoding can interleave | Each piece must start at the cached length | vLLM and SGLang schedulers; `cache_position` in transformers |
| Prefix caching | Reuses the keys and values of a prompt prefix seen before | Skips recomputing a shared system prompt | The new tokens must start at the cached length | vLLM's and SGLang's prefix caches |
| Sliding-window cache | Keeps only the last `sliding_window` keys of a layer | Memory bounded by the window | Each engine stores them its own way: Mistral's reference code writes slot p mod W; transformers slices or rolls; vLLM frees whole blocks | `sliding_window` (Mistral, Gemma's local layers) |
| Context shift (K-shift) | When the context is full, drops a span of cached keys after the first `n_keep` and turns the later ones back to close the gap | Generation goes on past the context without a new prefill | Later keys still carry what they read from the dropped span; refused for M-RoPE and for sliding-window layers unless the whole cache is kept | llama.cpp `--context-shift`, `--keep` (off by default) |
| Speculative decoding | A drafter proposes tokens, the model checks them in one pass | Several tokens per step | Drafts must continue the count (cached length + i); a tree gives siblings one id and a tree mask | vLLM `--speculative-config` (chains); Medusa, EAGLE trees |
| Context parallelism, load-balanced | Cuts a long sequence into 2N chunks, rank r keeps chunks r and 2N − 1 − r | Equal attention work per GPU | Each rank's ids are global and not contiguous | Megatron-LM `--context-parallel-size`; transformers Trainer with accelerate's cp_size |

**How to choose.**

- Scoring or embedding a batch: pad on the right, or pass the ids from the mask.
- Generating a batch: pad on the left and let `generate` build the ids; if you call
  the model's forward yourself, build them from the mask and pass them.
- Fine-tuning on many short examples: pack, reset the ids per example and make sure
  the attention kernel cuts between examples (flash attention with `cu_seqlens`, or a
  block mask); check both, because either alone is not enough.
- Serving: trust the engine's chunked prefill and prefix cache, but when you patch a
  model or write a runner, start every new chunk at the cached length.
- A model that reads absolute positions (a learned table, LongRoPE, dynamic NTK,
  Llama 4's temperature): treat every offset as a bug, even the constant ones RoPE
  would forgive; with Llama 4 on vLLM, say whether you want the temperature
  (`--override-generation-config '{"attn_temperature_tuning": true}'`) rather than
  let `--max-model-len` decide.
- Chatting past the context in llama.cpp: one token before the context is full,
  the shift keeps the first `--keep` tokens (plus the BOS) and forgets half of the
  rest; put what must survive (the system prompt) there, or start a new context.
- Speculative decoding on a vision-language model: check the acceptance rate with
  and without images before trusting the speed-up.
- Training with context parallelism: build the position ids for the whole sequence
  before it is sharded, and shard them with the tokens.

**What it costs.** The ids cost one running count per token. What padding wastes
is the real cost: a batch of prompts of 12, 40, 7 and 25 tokens padded to 40 spends
48% of its slots on padding (computed on this page). Packing removes that; the pull
request that added packing with position ids to transformers reports 1,746 against
1,269 tokens per second for Llama 2 7B on 8 GPUs (huggingface/transformers #31629,
its first results table). A sliding-window cache holds `sliding_window` keys per layer
instead of the whole context: 4,096 for Mistral 7B. A context shift costs one
rotation of every remaining cached key per RoPE layer, instead of a prefill of the
kept text. One tree-verification pass checks every path of a draft tree at once.
Load-balanced sharding gives 16 tokens on 4 ranks 34 causal (query, key) pairs per
rank, against 10 to 58 for plain contiguous shards (computed below).

**What breaks.**

- **Left padding with ids 0..n−1.** A forward call without ids numbers every row from
  0, padding included. RoPE does not notice (every real token is shifted by the same
  amount); a learned position table does, badly. Fix: ids from the mask.
- **Packing without the cut.** The ids restart but attention still runs over the whole
  row, so each example reads the ones before it. Fix: `cu_seqlens` or a block mask.
- **Packing without resetting the ids.** Harmless for RoPE when the mask is cut, but
  transformers finds the boundaries from the ids when no mask is given: ids that
  never restart mean one long document and no cut at all.
- **A chunk or a cache hit that restarts at 0.** The new tokens' queries and keys are
  turned as if at the start while the cached keys keep their real positions. Fix:
  start at the cached length.
- **Position read from the ring buffer.** Once the window wraps, the number of filled
  slots stops growing; a query numbered from it falls behind its keys.
- **A context shift with the wrong speeds.** The turn back must use each layer's own
  base: Gemma 3 output gibberish after a shift that turned its local layers' keys
  with the global base (llama.cpp #12357, fixed in #12373).
- **Drafts written to the wrong slot.** vLLM 0.33.0's EAGLE and MTP drafters take the
  cache slot from the time row of M-RoPE ids, which lags the token count after an
  image: drafts land inside the image (vLLM #54498, open). The proposed fix takes
  the slot from the sequence length (#54716).
- **Shards numbered from 0.** A rank that numbers its own tokens 0, 1, 2, ... turns
  its queries and keys at the wrong ids. Fix: global ids, sharded with the tokens.
- **Anything that reads the absolute position.** A learned table, LongRoPE's switch
  from short to long factors, dynamic NTK's base and Llama 4's query temperature all
  change with the id itself, so they break even where RoPE would not, and cached keys
  computed before a switch no longer match queries computed after it. transformers
  5.24's own left-padded `generate` moves Llama 4's temperature by the padding; vLLM
  0.33.0 reads the ids but turns the temperature off at `--max-model-len` 32,768 and
  below unless the generation config says otherwise.

![Three attention masks drawn as grids whose axes are labelled with position ids: a left-padded row whose real tokens start at 0, two packed documents each numbered from 0 with a triangle of their own, and the same packed row under a plain causal mask that lets the second document read the first](figures/position_ids.masks.svg)

**Reading it:** a blue cell is a key a query may read, and the tick labels
are position ids, not slots. The grid titled *left padding* is a padded row
done right: the real tokens are numbered from 0 and the padding is read by
nothing else. *packed, cut* is two documents packed into one row done right:
each restarts its ids and reads only itself. *packed, not cut* has the same
ids without the cut between the documents: the second document reads the
first, whose ids look like its own (*Packing without the cut*, below). The ids and the mask are set together; either one
alone is not enough.

**In the wild.** transformers 5.24 builds the ids from the mask when `generate`
starts (GenerationMixin._prepare_position_ids_for_generation in generation/utils.py:
cumulative sum of the mask minus one, padding set to 0) and then adds one per new
token; a bare forward of LlamaModel numbers the new tokens from the cache's length
and reads no mask (models/llama/modeling_llama.py). DataCollatorWithFlattening
(data/data_collator.py) concatenates the examples into one row, restarts the ids at
`position_ids_start` (0 by default; RoBERTa-like models need 2, added in
huggingface/transformers #47525) and, when asked, returns `cu_seq_lens_q`. The
flash-attention path reads the boundaries from the ids (a new document wherever the
id equals its smallest value: prepare_fa_kwargs_from_position_ids, used by
the flash-attention forward when it is given neither a mask nor `cu_seqlens`), and the
mask builder, given ids with no mask and no cache, makes the block mask from them (a
new document wherever an id is not its neighbour plus one:
find_packed_sequence_indices in masking_utils.py). The scaling rules that depend on length read
`max(position_ids) + 1` over the whole batch (the dynamic_rope_update decorator in
modeling_rope_utils.py), and Llama 4's NoPE layers compute their temperature from
the token's index in the cache, not from `position_ids`
(Llama4TextAttention.forward, models/llama4/modeling_llama4.py). Neither transformers
nor vLLM writes a sliding window's keys at slot p mod W: transformers 5.24's
sliding-window cache layers slice or roll (cache_utils.py), vLLM 0.33.0 frees whole
blocks outside the window (SlidingWindowManager, v1/core/single_type_kv_cache_manager.py);
the mod-W window ring is Mistral's reference code (mistral-inference 1.6.0, cache.py).
vLLM 0.33.0 does have a ring at slot p mod its capacity (CircularBufferSpec in
v1/kv_cache_interface.py, CircularBufferManager in single_type_kv_cache_manager.py, one
block per request), for another cache: the raw keys of the group a compressed-attention
layer is still compressing, in its deepseek_v41 (compressor.py), qwen4_exp
(common/qsa_cache.py), glm5next (common/attention.py) and step5 (nvidia/csa_tail_ring.py)
models. llama.cpp (llama-cpp-python 0.3.36's vendored
copy) shifts the context in llama-completion and llama-server when `--context-shift`
is on (tools/completion/completion.cpp, tools/server/server-context.cpp). vLLM 0.33.0 drafts
chains, not trees (v1/spec_decode/llm_base_proposer.py), and refuses M-RoPE for
draft-model and parallel drafting. transformers 5.24's Trainer builds `position_ids`
0..n−1 before it shards a batch for context parallelism, if the batch has none, and
shards them with the tokens (Trainer._prepare_context_parallel_inputs, trainer.py).

**Go deeper.** Level 2 builds each rule from scratch: ids from a mask, packing and
its two halves, chunks and cache hits, the sliding window, then proves which mistakes
RoPE forgives, builds the serving cases on it (the context shift, draft trees,
context-parallel shards) and measures all of them in one table, each row linked to a
bug report.
If you only needed the checklist above, you can stop here.

## Level 2: how it works, from scratch

## Left padding: ids from the mask

**Everyday picture.** Runners in a relay start from staggered blocks so that all
of them run the same distance. Left padding staggers the starts; the ids must count
each runner's distance from its own block, not from the stadium gate.

**Tiny worked example.** Two prompts of 3 and 5 tokens in one batch, padded on the
left to 5. The mask rows are 0 0 1 1 1 and 1 1 1 1 1. Counting the ones so far and
subtracting one gives 0 0 0 1 2 (the padding is set to 0, and masked anyway) and
0 1 2 3 4: the first real token of each row is position 0. Without the mask, both
rows would get 0 1 2 3 4, and the short prompt's tokens would sit at 2, 3 and 4.

**The math.**

$$
p_t = \Big(\sum_{s \le t} a_s\Big) - 1 \quad \text{where } a_t = 1, \qquad p_t = 0 \quad \text{where } a_t = 0
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $t$, $s$ | slot indices in the padded row | 0 to 4 |
| $a_t$ | the attention mask: 1 for a real token, 0 for padding | 0 0 1 1 1 |
| $p_t$ | the position id of slot $t$ | 0 0 0 1 2 |

**In words:** "a real token's id is how many real tokens came before it in its row."

**In Python:**

```python
from lessons.position_ids import position_ids_from_mask, default_position_ids
mask = [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]
position_ids_from_mask(mask).tolist()  # → [[0, 0, 0, 1, 2], [0, 1, 2, 3, 4]]
default_position_ids(5).tolist()  # → [0, 1, 2, 3, 4]
lengths = [12, 40, 7, 25]  # a batch padded to its longest prompt
round(1 - sum(lengths) / (len(lengths) * max(lengths)), 3)  # → 0.475
```

![Three attention masks drawn as grids, each axis labelled with position ids: left padding with three padded slots whose real tokens are numbered 0 to 4, two packed documents of four tokens with ids 0 to 3 twice and a block-diagonal mask, and the same packed row with a plain causal mask that lets the second document read the first](figures/position_ids.masks.svg)

**Reading it:** blue cells are the keys a query may read; the tick labels are the
position ids, not the slots. Under *left padding*, the three padded slots are numbered
0 and read only themselves, and the real tokens start again at 0. Under *packed, cut*,
two packed documents each get ids 0 to 3 and a triangle of their own. Under *packed,
not cut*, the same ids with a plain causal mask: the second document's queries read
the first document's keys, which carry the same small ids as their own.

**In code:** `position_ids_from_mask` is transformers' rule (checked against it in
tests/test_position_ids.py); `default_position_ids` is what a forward call uses
when it is given none.

**Why it matters.** The ids are an input like the tokens. `generate` builds them;
a hand-written loop, a scoring script or an interpretability tool that calls the
model directly must build them too, or every padded row is shifted.

## Packing: ids restart, and attention is cut

**Everyday picture.** Several short letters sent in one envelope: each must start
with its own "Dear ...", and no reader should take the first letter's last line as
the second letter's opening.

**Tiny worked example.** Three examples of 3, 2 and 4 tokens packed into one row of
9. The ids restart per example: 0 1 2 0 1 0 1 2 3. A varlen kernel takes where each
example starts, plus the total, as `cu_seqlens`: 0 3 5 9. Read back from the ids,
each token's example is 0 0 0 1 1 2 2 2 2, and query 4 (the second token of example
1) may read keys 3 and 4 only.

```mermaid
flowchart TB
  C["collator:<br/>examples of 3, 2, 4 tokens"] --> I["one row, ids<br/>0 1 2 0 1 0 1 2 3"]
  I --> F["flash attention:<br/>cu_seqlens 0 3 5 9"]
  I --> S["mask builder, no mask:<br/>example of each token"]
  F --> A["attention inside<br/>each example only"]
  S --> A
```

**Reading it:** the collator hands over ids, not a mask; given no mask, both the
flash-attention path and the mask builder of transformers 5.24 find the boundaries
in the ids. Resetting the ids is therefore what
cuts attention when no mask is passed, and ids that never restart leave one long
document with nothing cut.

**In Python:**

```python
from lessons.position_ids import (packed_position_ids, document_mask,
    cu_seqlens_from_position_ids, document_ids_from_position_ids)
ids = packed_position_ids([3, 2, 4])
ids.tolist()  # → [0, 1, 2, 0, 1, 0, 1, 2, 3]
cu_seqlens_from_position_ids(ids).tolist()  # → [0, 3, 5, 9]
docs = document_ids_from_position_ids(ids)[0]
docs.tolist()  # → [0, 0, 0, 1, 1, 2, 2, 2, 2]
document_mask(docs)[4].tolist()
# → [False, False, False, True, True, False, False, False, False]
# ids that never restart: one document, nothing is cut
set(document_ids_from_position_ids(list(range(9)))[0].tolist())  # → {0}
```

**In code:** `packed_position_ids` is DataCollatorWithFlattening's numbering,
`cu_seqlens_from_position_ids` the flash-attention path's boundaries and
`document_ids_from_position_ids` the eager and sdpa path's, all three checked
against transformers; `document_mask` turns the documents into a mask.

**Why it matters.** The two halves fail differently. Reset ids without a cut let
every example read the ones packed before it; a cut without reset ids is harmless
for RoPE but not for a model that reads absolute positions, and in transformers the
cut is found from the ids. The HF blog post on packing with flash attention shows
the collator's ids restarting per example (its worked example, as read in the post's
source, huggingface/blog #2307).

## Chunked prefill and a prefix-cache hit: continue at the cached length

**Everyday picture.** Reading a long book over several evenings: you open it at
the bookmark, not at page one.

**Tiny worked example.** A prompt of 10 tokens prefilled in chunks of 6 and 4. The
first chunk gets ids 0 to 5 and its keys go into the cache, already turned. The
second chunk's 4 tokens must get ids 6 to 9 and attend to the 6 cached keys and to
each other. A prefix-cache hit is the same: the cached prefix came from an earlier
request, and the new tokens continue at its length.

**In Python:**

```python
import numpy as np
from lessons.position_ids import default_position_ids, chunked_attention
from lessons.position_ids import attend
from lessons.attention import causal_mask
default_position_ids(4, past_length=6).tolist()  # → [6, 7, 8, 9]
q, k, v = np.random.default_rng(0).standard_normal((3, 12, 128))
ids = np.arange(12)
whole = attend(q, k, v, ids, ids, causal_mask(12))
right = chunked_attention(q, k, v, split=6, restart=False)
wrong = chunked_attention(q, k, v, split=6, restart=True)
float(np.abs(right - whole).max()) < 1e-12  # → True
round(float(np.abs(wrong - whole).max()), 2)  # → 0.68
```

**In code:** `chunked_attention` runs the two chunks with a cache and starts the
second at the cached length, or at 0 (`restart`).

**Why it matters.** Restarting at 0 turns the new queries and keys as if they came
first while the cached keys keep their real positions: the offset differs between
the two halves, and that is the kind RoPE cannot forgive. A transformers issue
reports wrong ids in its own chunked prefill path: they were set from the cache
positions of the chunk being prefilled, and the outputs went wrong
(huggingface/transformers #43082).

## A sliding-window cache: slot is not position

**Everyday picture.** A whiteboard with room for four lines: when it is full you
wipe the oldest line and write there. The line at the top is not the first line of
the lecture.

**Tiny worked example.** Window 4, after token 9: the query reads the keys of tokens
6 to 9, its own included. Three codes store them three ways.

| Who | Where token p's key goes | The buffer after token 9 |
|---|---|---|
| Mistral's reference code (mistral-inference 1.6.0, cache.py, BufferCache) | slot p mod 4: a ring | tokens 8, 9, 6, 7 in slots 0 to 3 |
| transformers 5.24 (cache_utils.py) | appended; DynamicSlidingWindowLayer.update then keeps the last 3 (a slice), StaticSlidingWindowLayer.update rolls the 4 slots left by one and writes the last | tokens 6, 7, 8, 9 in order |
| vLLM 0.33.0 (v1/core/single_type_kv_cache_manager.py) | its block at p // block_size, in order; SlidingWindowManager frees whole blocks that left the window | the blocks that hold 6 to 9, in order |

The keys were turned at 8, 9, 6 and 7 when written, so reading Mistral's ring out of
order changes nothing. A runner that takes "filled slots minus one" for the next
query's id gives token 9 the id 3. vLLM frees by blocks: after 10,000 tokens at
window 4,096 it may skip 5,905 (the computed tokens minus the window plus one,
minus extra_retained_tokens, 0 unless multi-module speculative decoding asks to
keep more: get_num_skipped_tokens), which frees 369 blocks of 16 and keeps the one
the window starts in.

**In Python:**

```python
import numpy as np
from lessons.position_ids import ring_buffer_attention
from lessons.attention_sinks import causal_window_mask
from lessons.position_ids import attend
[p % 4 for p in range(10)]  # → [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
# transformers' static layer, at token 10: roll, then write the last slot
np.roll([6, 7, 8, 9], -1).tolist()  # → [7, 8, 9, 6]
skipped = 10_000 - 4096 + 1
skipped, skipped // 16  # → (5905, 369)
q, k, v = np.random.default_rng(0).standard_normal((3, 12, 128))
ids = np.arange(12)
want = attend(q, k, v, ids, ids, causal_window_mask(12, 5))
slots = ring_buffer_attention(q, k, v, window=5, position_from_slots=False)
bug = ring_buffer_attention(q, k, v, window=5, position_from_slots=True)
float(np.abs(slots - want).max()) < 1e-12  # → True
round(float(np.abs(bug - want).max()), 2)  # → 0.68
```

**In code:** `ring_buffer_attention` decodes through Mistral's ring of slots;
`lessons.attention_sinks.causal_window_mask` is the same window as a mask over the
whole sequence, which is what transformers' and vLLM's in-order storage amounts to.

**Why it matters.** Keys are turned before they are cached, so slot order is
harmless and only the new query's id matters. Earlier versions of this page gave the
ring at p mod W to the engines; for a window it is Mistral's reference code, and
transformers and vLLM keep a window's keys in position order. (vLLM 0.33.0's own ring,
CircularBufferManager, holds a compressed-attention layer's unfinished group, not a
window; "In the wild" names the models. An earlier fix of this page said vLLM has
no ring at all.) The slot arithmetic itself is a
source of bugs too: a transformers pull request fixed reads and writes at the
wrong slots after the buffer wraps (huggingface/transformers #47708).

## Which mistakes RoPE forgives: one offset for every token

**Everyday picture.** Two people on a merry-go-round: however far it has turned,
the angle between them is the same. Move only one of them and it changes.

**Tiny worked example.** One query and one key of Llama 3.1 8B's head (128 wide),
at positions 5 and 2, then at 1,005 and 1,002: the score agrees to the last digits
printed. The key moved to 2 while the query stays at 1,005 gives another score.

**The math.**

$$
(R_{m+c}\,q) \cdot (R_{n+c}\,k) = (R_c R_m q) \cdot (R_c R_n k) = (R_m q) \cdot (R_n k)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $R_m$ | RoPE's rotation at position $m$ (one angle $m\,\theta_i$ per pair) | Llama 3.1's 64 speeds |
| $m$, $n$ | the query's and the key's position; the gap is query minus key, $m - n$ | 5 and 2 |
| $c$ | an offset added to every id of the sequence | 1,000 |

**In words:** "rotations compose, and turning both vectors by the same extra angle
leaves their dot product alone; only the gap between the two ids reaches the score."

**With the numbers:** an offset of 1,000 on both ids leaves the gap at 3, and the
score unchanged; an offset on the query alone makes the gap 1,003.

**In Python:**

```python
import numpy as np
from lessons.position_ids import rope_at
from lessons.layer_schemes import llama4_attn_temperature
from lessons.context_extension import dynamic_ntk_base
rng = np.random.default_rng(0)
q, k = rng.standard_normal((1, 128)), rng.standard_normal((1, 128))
def score(m, n):
    return float(rope_at(q, [m])[0] @ rope_at(k, [n])[0]) / np.sqrt(128)
round(score(5, 2), 6), round(score(1005, 1002), 6)  # → (0.390741, 0.390741)
round(score(1005, 2), 3)  # → 0.022
# what reads the id itself: Llama 4's temperature, dynamic NTK's base
llama4_attn_temperature([8190, 8191]).round(3).tolist()  # → [1.0, 1.069]
round(dynamic_ntk_base(500000.0, 2.0, 4224, 4096, 128))  # → 531761
```

**In code:** `rope_at` turns rows at their own ids; Llama 4's multiplier for the
queries of its NoPE layers is `lessons.layer_schemes.llama4_attn_temperature`, taught
there; dynamic NTK's base comes from `lessons.context_extension`.

**Why it matters.** It sorts the bugs into two bins. One offset for every token of a
sequence (left padding without ids, packed examples that keep counting while
attention is cut) costs RoPE nothing but rounding. An offset that differs between
queries and keys (a chunk or a cache hit restarting at 0, a query numbered from
ring slots) breaks it, and so does any offset where something reads the id itself:
a learned table, LongRoPE's switch, dynamic NTK's base (transformers takes the
length as the largest id plus one) and Llama 4's temperature, which moves once an id
reaches 8,191.

## A full context: the shift that turns cached keys back

**Everyday picture.** A notebook with a fixed number of pages: when it is full you
keep the first page (the instructions), tear out the older half of the rest and
renumber what is left, so that the next line gets the next free page number.

**Tiny worked example.** A context of 12 in llama.cpp with `--keep 2`, for a
model whose vocabulary adds a BOS token (Llama's does). llama-completion shifts
before the token that would fill the context, once `n_past + 1 >= n_ctx`
(tools/completion/completion.cpp), so with 11 tokens cached, ids 0 to 10: the
twelfth slot is never filled. It keeps `--keep` tokens plus the BOS, n_keep = 3,
and discards half of the rest: n_left = 11 − 3 = 8, n_discard = 8 // 2 = 4, ids
3 to 6 (llama_memory_seq_rm), then moves ids 7 to 10 down by 4
(llama_memory_seq_add), and the next token gets id 7. llama-server does the
same arithmetic here (tools/server/server-context.cpp, pre_decode: it shifts at
`n_tokens() + 1 >= n_ctx`, adds 1 to n_keep for a BOS and caps it at
n_ctx − 4). Without a BOS, n_keep is 2 and n_discard still ⌊9/2⌋ = 4: ids 2 to 5
go and the next id is 7 again. The keys in the cache were turned at 7 to 10 when
they were written; the K-shift graph turns each of them once more, by −4·θ, so
that it reads as a key turned at 3 to 6 (build_rope_shift in
src/llama-kv-cache.cpp). Because rotations add, that equals turning the stored
vector at its new id from scratch. (An earlier version of this example shifted
with 12 tokens cached and dropped 5 ids; llama.cpp shifts one token earlier and
counts the BOS in n_keep. tests/test_position_ids.py checks
`llama_cpp_shift_plan` against the expressions read out of both tools' source.)

| Cache slot | 0 (BOS) | 1 | 2 | 3 to 6 | 7 | 8 | 9 | 10 |
|---|---|---|---|---|---|---|---|---|
| id before | 0 | 1 | 2 | 3 to 6 | 7 | 8 | 9 | 10 |
| id after | 0 | 1 | 2 | dropped | 3 | 4 | 5 | 6 |

**The math.**

$$
R_{-\delta}\,(R_p\,k) = R_{p-\delta}\,k
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $k$ | a key as the layer computed it, before RoPE | one 128-wide row |
| $R_p$ | RoPE's rotation at id $p$ (one angle $p\,\theta_i$ per pair) | $p$ = 7 |
| $\delta$ | `n_discard`, how many ids were dropped | 4 |

**In words:** "turning a cached key back by the gap gives the key the layer would
have computed at its new id."

**In Python:**

```python
import numpy as np
from lessons.position_ids import context_shift, llama_cpp_shift_plan, rope_at
from lessons.positional import rope_frequencies
plan = llama_cpp_shift_plan(n_ctx=12, keep=2)
plan
# → {'cached': 11, 'n_keep': 3, 'n_left': 8, 'n_discard': 4, 'next_id': 7}
llama_cpp_shift_plan(12, 2, add_bos=False)["n_discard"]  # → 4
llama_cpp_shift_plan(12, 2, server=True) == plan  # → True
raw = np.random.default_rng(0).standard_normal((11, 128))
ids = np.arange(11)
keep, drop = plan["n_keep"], plan["n_discard"]
keys, new = context_shift(rope_at(raw, ids), ids, keep, drop)
new.tolist()  # → [0, 1, 2, 3, 4, 5, 6]
kept = [0, 1, 2, 7, 8, 9, 10]
float(np.abs(keys - rope_at(raw[kept], new)).max()) < 1e-12  # → True
# a local layer (base 10,000) turned back with the global base
local = rope_frequencies(128, 10_000.0)
glob = rope_frequencies(128, 1_000_000.0)
wrong, _ = context_shift(rope_at(raw, ids, local), ids, keep, drop, glob)
round(float(np.abs(wrong - rope_at(raw[kept], new, local)).max()), 2)
# → 1.61
```

**In code:** `llama_cpp_shift_plan` says when llama.cpp shifts and how many ids
it drops; `context_shift` drops the span and turns the later keys back, on one
layer's cache.

**Why it matters.** The rotation makes the positions right, and only the positions.
What it cannot do, by the same equation: (1) a layer must be turned back with its own
speeds, so a local/global model with two bases (Gemma 3: 10,000 on local layers,
1,000,000 on global ones, as `lessons.layer_schemes` reads them) needs the shift per
layer; llama.cpp's first Gemma 3 shift used the global base everywhere and the model
output gibberish (llama.cpp #12357, fixed in #12373; 0.3.36 reads each layer's base,
llama_model::get_rope_freq_base). (2) A local layer's cache keeps only the last
window; once tokens have left it there is nothing to shift, so llama.cpp 0.3.36
allows the shift on a model with sliding-window layers only when both caches are the
same size, as with `--swa-full` (llama_kv_cache_iswa::get_can_shift; the pull request
that added the small cache, #13194, says so), and refuses M-RoPE outright
(llama_kv_cache::get_can_shift). (3) A learned position table added the position to
the input at the first layer; no operation on cached keys moves it. ALiBi needs no
turn: llama.cpp computes its bias −|i − j| from the cells' shifted positions when it
builds the mask (set_input_kq_mask_impl in src/llama-kv-cache.cpp). (4) A NoPE layer has nothing to turn, but Llama
4's temperature reads the new, smaller ids. (5) Every key above the first layer was
computed from hidden states that had read the dropped tokens: the shift renumbers
that content, it does not remove it. The shift is off by default in this release
(`ctx_shift = false`, common/common.h; `--context-shift` turns it on).

## Speculative decoding: drafts continue the count, siblings share an id

**Everyday picture.** A chess player thinking ahead: "if I play this, then that";
each imagined move is move 10, 11, 12 of the game, and two alternatives for move 10
are both move 10.

**Tiny worked example.** Nine tokens are cached (ids 0 to 8) and the model has just
sampled token 9, not yet cached. A chain of three drafts continues the count: ids
9, 10, 11, 12 for the sampled token and its drafts, as a plain decode would give
them (vLLM 0.33.0 drafts chains, and its runner numbers every scheduled token, drafts
included, from the computed length: GPUModelRunner._prepare_inputs). A tree keeps two candidates for the next token and one continuation of
each: nodes 9, a, b, a′, b′ with parents −, 9, 9, a, b. Siblings a and b are both
the next token, so both get id 10; a′ and b′ get 11. One verification pass reads the
cache and the tree under a tree mask: each node sees the cache, its ancestors and
itself (Medusa's reference code, generate_medusa_buffers and tree_decoding in
medusa/model/utils.py: ids are the input length plus the depth).

**In Python:**

```python
from lessons.position_ids import tree_position_ids, tree_mask
tree_position_ids([-1, 0, 1, 2], cached_length=9).tolist()  # → [9, 10, 11, 12]
parents = [-1, 0, 0, 1, 2]
tree_position_ids(parents, cached_length=9).tolist()  # → [9, 10, 10, 11, 11]
tree_mask(parents).astype(int).tolist()
# → [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 1, 0, 1, 0],
#   [1, 0, 1, 0, 1]]
# an M-RoPE prompt: 3 text tokens, a 16 × 16-patch image, 2 text tokens
from lessons.multimodal_rope import get_rope_index, mm_token_types
types = mm_token_types(("text", 3), ("image", (1, 16, 16)), ("text", 2))
ids, rope_delta = get_rope_index(types, image_grid_thw=[(1, 16, 16)])
len(types), rope_delta  # → (69, -56)
```

![Left: the draft tree's attention mask drawn as a grid whose axes are the nodes' position ids 9, 10, 10, 11, 11, each node reading the root, its parent and itself. Right: causal query-key pairs per rank for 16 tokens on 4 context-parallel ranks: 10, 26, 42 and 58 with contiguous shards, 34 on every rank with zigzag shards](figures/position_ids.serving.svg)

**Reading it:** on the left, the tick labels are the tree's ids: the two nodes at 10
are siblings and neither reads the other; each node at 11 reads only its own parent.
The right panel belongs to the next section.

**In code:** `tree_position_ids` numbers the nodes by depth and `tree_mask` builds
the mask; tests/test_position_ids.py checks that every root-to-leaf path of a tree
gets the outputs and the ids of a plain decode of that path.

**Why it matters.** Numbering the tree's nodes in order (9, 10, 11, 12, 13) gives a′
the id 12 while its parent sits at 10: the conformance table below measures the
damage, and a review of TensorRT-LLM's dynamic-tree pull request caught position
offsets that ignored which parent a node hangs from (TensorRT-LLM #12962); SGLang
fixed EAGLE draft steps that ran one id ahead (sglang #25015). M-RoPE drafters need
the three rows too, and one more number: the cache slot. After the image above the
prompt holds 69 tokens but its ids stop at 12 (`rope_delta` −56, from
`lessons.multimodal_rope`); vLLM 0.33.0's EAGLE and MTP drafters take each draft's
slot from the time row of its ids (`positions[0]` in
SpecDecodeBaseProposer._update_positions_dependent_metadata,
v1/spec_decode/llm_base_proposer.py), which puts the draft 56 slots early, inside
the image; the reporter measured the acceptance length falling behind, more with
more draft steps (vLLM #54498, open; fixes proposed in #54519, closed, and #54716).
The same function copies the time row over the other two; for a drafted text token
the three rows are equal anyway. vLLM's draft-model and parallel drafting refuse an
M-RoPE drafter outright (_raise_if_mrope).

## Context parallelism: each rank holds ids from both ends

**Everyday picture.** Dealing a deck to two players so that each gets as many high
cards as low ones: the first player takes the top and the bottom, the second the
middle.

**Tiny worked example.** Twelve tokens on 2 ranks. Causal attention makes late
queries costlier (a query at id p reads p + 1 keys), so plain halves give rank 0 21
(query, key) pairs and rank 1 57. Cut into 2 × 2 = 4 chunks of 3 instead: rank 0
keeps chunks 0 and 3 (ids 0, 1, 2, 9, 10, 11), rank 1 chunks 1 and 2 (ids 3 to 8),
39 pairs each. The ids on rank 0 jump from 2 to 9: every rank must turn its queries
and keys at these global ids, and mask by global id, while ring attention passes the
keys and values from rank to rank (Liu et al. 2023 for the ring; the zigzag split is
Megatron-LM's get_pos_emb_on_this_cp_rank, chunks r and 2N − 1 − r, and
ring-flash-attention's zigzag tests).

**In Python:**

```python
import numpy as np
from lessons.position_ids import shard_position_ids, ring_attention, attend
from lessons.attention import causal_mask
[shard_position_ids(12, 2, r).tolist() for r in range(2)]
# → [[0, 1, 2, 9, 10, 11], [3, 4, 5, 6, 7, 8]]
def work(seq_len, n_ranks, zigzag=True):
    return [int((shard_position_ids(seq_len, n_ranks, r, zigzag) + 1).sum())
            for r in range(n_ranks)]
work(12, 2, zigzag=False), work(12, 2)  # → ([21, 57], [39, 39])
work(16, 4, zigzag=False), work(16, 4)
# → ([10, 26, 42, 58], [34, 34, 34, 34])
q, k, v = np.random.default_rng(0).standard_normal((3, 12, 128))
ids = np.arange(12)
whole = attend(q, k, v, ids, ids, causal_mask(12))
float(np.abs(ring_attention(q, k, v, n_ranks=2) - whole).max()) < 1e-12
# → True
shard_local = ring_attention(q, k, v, n_ranks=2, local_ids=True)
round(float(np.abs(shard_local - whole).max()), 2)  # → 0.51
```

**Reading it:** the right panel of the figure above: with contiguous shards the last
rank does almost six times the first one's work; with zigzag shards every rank does
34.

**In code:** `shard_position_ids` gives a rank's global ids; `ring_attention` runs
each rank's queries against every rank's keys in turn, merging the partial softmaxes
by their running maximum and sum, and equals attention over the whole sequence.

**Why it matters.** The ids a rank holds are not 0, 1, 2, ...: they must be computed
for the whole sequence and sharded with the tokens. transformers 5.24's Trainer does
that (it builds `position_ids` before sharding, Trainer._prepare_context_parallel_inputs);
Megatron-LM slices its table of angles the same way. Threads: a question on whether
Megatron's per-rank RoPE slicing is right (Megatron-LM #560); TransformerEngine's
JAX ring attention generated default segment positions that were not sharded to
match (TransformerEngine #2349, fixed); three-row M-RoPE ids sharded on the wrong
axis (NVIDIA-NeMo/Automodel #1482, fixed; Megatron-LM #1612 for Megatron's M-RoPE
slicing).

## Packing with three-row ids

**Tiny worked example.** Packing a vision-language batch restarts each sample's
three M-RoPE rows (time, height, width) at 0. The cut between samples cannot be read
from those rows: inside an image the time id repeats and the height and width ids
jump back at each new row of tiles, so the rule transformers uses on one row (a new
document wherever an id is not its neighbour plus one) cuts inside every image; in
the example below, a time row with a 2 × 2 image after two text tokens reads as five
documents. (An earlier version of this page blamed ids 0 on every image's first tile;
an image after text starts at a later id, 2 here.) transformers 5.24 (`Qwen2VLTextModel.forward`) takes
a fourth row, the plain text position, and cuts attention where it restarts.
`lessons.multimodal_rope` builds the four rows and works
through a packed pair in its section "Packing multimodal samples: four rows that
restart", with the trainers that do or do not pack this way.

**In Python:**

```python
from lessons.position_ids import packed_position_ids
# one row of the three: each row restarts the same way for text
packed_position_ids([3, 2]).tolist()  # → [0, 1, 2, 0, 1]
from lessons.position_ids import document_ids_from_position_ids
# a time row: 2 text tokens, a 2 × 2 image (time id 2), text again at 4
document_ids_from_position_ids([0, 1, 2, 2, 2, 2, 4])[0].tolist()
# → [0, 0, 0, 1, 2, 3, 4]
```

**Why it matters.** The one-row rules above hold for each of the four rows; what
changes is where the cut is read, and that an image advances the ids by less than its
token count, which that lesson computes.

## The conformance table, measured

**Everyday picture.** A crash-test lab: the same car, the same dummy, one defect at
a time, and a number for each.

**Tiny worked example.** One attention head with Llama 3.1 8B's speeds and a
sentence of 12 random query, key and value rows. The reference is the sentence
alone at ids 0 to 11. Each scenario runs the sentence padded, packed, chunked,
cached or through a ring buffer, once set up right and once with a classic bug, and
reports the largest difference between the sentence's attention outputs and the
reference. The serving rows run the three sections above: a context shift on a
local layer of base 10,000 (llama.cpp's own numbers for the 12 tokens in a context of
13 with `--keep 2` and a BOS: n_keep 3, n_discard 4), against the kept text attended
afresh at its new ids; a draft tree over the sentence's last three tokens with two siblings, against
the plain decode; two zigzag ranks. The last six rows change the scheme: four for
Llama 4's NoPE temperature, each engine's as `lessons.layer_schemes.llama4_served_temperature`
gives it, then a
dynamic NTK block (factor 2, trained length 4,096, put on Llama 3.1's head and base
for the test) and Phi-3.5-mini's LongRoPE factors.

| Scenario | Scheme | Largest gap | Verdict | Thread |
|---|---|---|---|---|
| left padding, ids cumsum(mask) − 1 | RoPE | < 1e-12 | correct: rounding | |
| left padding, ids 0..n−1 (none passed) | RoPE | < 1e-12 | bug, forgiven: rounding | [transformers #18478](https://github.com/huggingface/transformers/issues/18478) |
| left padding, ids cumsum(mask) − 1 | learned table | < 1e-12 | correct: rounding | |
| left padding, ids 0..n−1 (none passed) | learned table | 5.2e+00 | bug, breaks | [transformers #29583](https://github.com/huggingface/transformers/pull/29583) |
| packing, ids reset, attention cut | RoPE | < 1e-12 | correct: rounding | |
| packing, ids reset, attention not cut | RoPE | 2.6e+00 | bug, breaks | [transformers #32937](https://github.com/huggingface/transformers/issues/32937) |
| packing, ids not reset, attention cut | RoPE | < 1e-12 | bug, forgiven: rounding | [LlamaFactory #7318](https://github.com/hiyouga/LlamaFactory/pull/7318) |
| packing, ids not reset, cut read from the ids | RoPE | 2.6e+00 | bug, breaks | [nanoVLM #201](https://github.com/huggingface/nanoVLM/issues/201) |
| chunked prefill, new ids from the cached length | RoPE | < 1e-12 | correct: rounding | |
| chunked prefill, new ids from 0 | RoPE | 6.8e-01 | bug, breaks | [transformers #43082](https://github.com/huggingface/transformers/issues/43082) |
| prefix-cache hit, new ids from the cached length | RoPE | < 1e-12 | correct: rounding | |
| prefix-cache hit, new ids from 0 | RoPE | 4.5e-01 | bug, breaks | [vllm-metal #144](https://github.com/vllm-project/vllm-metal/pull/144) |
| ring buffer, keys read in slot order | RoPE | < 1e-12 | correct: rounding | |
| ring buffer, query id = filled slots − 1 | RoPE | 6.8e-01 | bug, breaks | no thread found |
| context shift, local keys turned back at their own base | RoPE | < 1e-12 | correct: rounding | |
| context shift, local keys turned back at the global base | RoPE | 2.5e-01 | bug, breaks | [llama.cpp #12357](https://github.com/ggml-org/llama.cpp/issues/12357) |
| draft tree, siblings share an id | RoPE | < 1e-12 | correct: rounding | |
| draft tree, nodes numbered in order | RoPE | 4.5e-02 | bug, breaks | [TensorRT-LLM #12962](https://github.com/NVIDIA/TensorRT-LLM/pull/12962) |
| context parallel, 2 ranks, global ids | RoPE | < 1e-12 | correct: rounding | |
| context parallel, 2 ranks, ids from 0 on each rank | RoPE | 5.1e-01 | bug, breaks | [TransformerEngine #2349](https://github.com/NVIDIA/TransformerEngine/pull/2349) |
| left padding 8,192, temperature from the ids (vLLM) | Llama 4 NoPE | < 1e-12 | correct: rounding | |
| left padding 8,192, temperature from the cache index (transformers) | Llama 4 NoPE | 9.6e-02 | bug, breaks | no thread found |
| ids 8,191 on, vLLM, max_model_len 65,536: temperature on | Llama 4 NoPE | < 1e-12 | engines agree | |
| ids 8,191 on, vLLM, max_model_len 32,768: temperature off | Llama 4 NoPE | 9.6e-02 | engines differ | [vLLM #16439](https://github.com/vllm-project/vllm/pull/16439) |
| dynamic NTK, cached keys keep the old base | dynamic NTK | 3.8e-02 | bug, breaks | [transformers #25104](https://github.com/huggingface/transformers/issues/25104) |
| LongRoPE, cached keys keep the short factors | LongRoPE | 1.0e-01 | bug, breaks | [transformers #33129](https://github.com/huggingface/transformers/pull/33129) |

The threads are where each bug was reported or fixed, as read: a question on GPT-J
batch inference answered "slightly different output" without the ids (#18478); a
pull request proposing to compute the ids from the mask inside GPT-style models
with learned tables (#29583); an issue noting that models which take no ids cannot
use packing without cross-example attention (#32937); a LlamaFactory pull request
adding reset ids to packing that already had a block mask (#7318, outside the four
trackers this page searched); a nanoVLM issue on packed ids that never restart in a
model that cuts nothing, whose proposed fix adds the cut too (#201 and pull request
#204, a huggingface repository but not one of the four trackers); an issue on
transformers' chunked prefill setting the wrong ids (#43082); a vllm-metal pull
request restoring the cache offset after a prefix hit so that the ids continue
(#144); the dynamic NTK issue on cached keys turned with an older base (#25104);
Phi-3's fix that recomputes the cache when the sequence crosses its original length
(#33129); Gemma 3 turning to gibberish after llama.cpp's context shift (#12357); a
review of TensorRT-LLM's dynamic-tree pull request catching position offsets that
ignored the selected parents (#12962, closed); TransformerEngine's JAX ring attention
fixing default segment positions that were not sharded to match the tokens (#2349);
and vLLM's pull request that turns Llama 4's temperature on by default only past
32K (#16439). For the ring buffer's query id and for Llama 4's temperature under
left padding, the searches found no thread in transformers, vLLM, llama.cpp or
SGLang.

The four Llama 4 rows measure one NoPE layer whose query is multiplied by the
temperature, and where the engines take its position from. The two padding rows
are graded against the authors' code: Meta's reference (llama-models,
models/llama4/generation.py) pads every prompt on the right (`tokens[k, :len(t)]`)
and counts from `start_pos`, so its count is each token's own position and padding
cannot move it. vLLM 0.33.0 reads the position ids
(Llama4Attention._get_attn_scale(positions), model_executor/models/llama4.py) and
gives the same numbers; transformers 5.24 counts from the cache's length,
`cache.get_seq_length(layer) + arange(n)` in Llama4TextAttention.forward, neither
`position_ids` nor `cache_position`, and every row of a left-padded batch shares
that count: a row padded by 8,192 gets the temperature of its id plus 8,192. This is
transformers' own `generate`, not a misuse of it: tests/reference/_position_ids_reference.py
runs it on a tiny random Llama 4 (`floor_scale` 4, `attn_scale` 0.5, a row padded by
5) and records that the padded row's logits leave the prompt's own ones with the
temperature on and agree to float32 rounding with it off (tests/test_position_ids.py
holds the two records on either side of 1e-2 and 1e-4). The last two Llama 4 rows
put the sentence at ids 8,191 to 8,202 and compare vLLM with transformers there,
with no judge: whether the temperature is on at all is the authors' switch
(Meta's ModelArgs leaves it off, "inference-time temperature tuning (useful for
very long context)", and params.json may turn it on), so these two rows say only
whether the engines agree. transformers turns the temperature on whenever a config
it accepts has `attn_temperature_tuning` true or absent (configuration_llama4.py;
Scout's published 4 is refused, so these rows assume the key edited to true, as
`lessons.layer_schemes` explains); vLLM sets it from the generation config's key
and, without one, from `max_model_len > 32768` (Llama4ForCausalLM.__init__). At
`--max-model-len` 65,536 the two agree; at 32,768 vLLM multiplies by 1 where
transformers multiplies by 1.069 from id 8,191, by 1.139 at 32,766 and by 1.161 at
32,767 (computed below). (An earlier version graded the 65,536 row "correct"
against transformers; it now reads "engines agree".)

**In Python:**

```python
from lessons.position_ids import conformance_table
from lessons._show import gap_text
rows = conformance_table()
len(rows), sum(r["bug"] for r in rows), sum(r["differ"] for r in rows)
# → (26, 14, 1)
sum(r["agree"] for r in rows)  # → 1
[gap_text(r["gap"]) for r in rows]
# → ['< 1e-12', '< 1e-12', '< 1e-12', '5.2e+00', '< 1e-12', '2.6e+00',
#   '< 1e-12', '2.6e+00', '< 1e-12', '6.8e-01', '< 1e-12', '4.5e-01',
#   '< 1e-12', '6.8e-01', '< 1e-12', '2.5e-01', '< 1e-12', '4.5e-02',
#   '< 1e-12', '5.1e-01', '< 1e-12', '9.6e-02', '< 1e-12', '9.6e-02',
#   '3.8e-02', '1.0e-01']
ok = [r["gap"] for r in rows if not r["bug"] and not r["differ"]]
max(ok) < 1e-12  # → True
min(r["gap"] for r in rows if r["gap"] >= 1e-12) > 0.03  # → True
from lessons.layer_schemes import llama4_attn_temperature
llama4_attn_temperature([8190, 8191, 32766, 32767]).round(3).tolist()
# → [1.0, 1.069, 1.139, 1.161]
```

![Horizontal bars on a log scale, one per scenario: the correct setups and the two forgiven bugs are drawn at the rounding bound 1e-12, the breaking bugs reach between 0.04 and 5, and the two rows that compare vLLM with transformers, dotted grey, sit at the rounding bound where they agree and at 0.1 where they differ by design](figures/position_ids.conformance.svg)

**Reading it:** one bar per row of the table, on a log scale; hatched bars are the
correct setups, blue ones the bugs RoPE forgives, vermillion ones the bugs that break the
output, the dotted grey ones two engines compared with no judge (they agree at
65,536 and differ at 32,768). The dashed line at 1e-9 separates rounding from real change: nothing sits
near it, the gaps are either rounding or at least 0.03. A rounding gap is drawn
and written as its bound, below 1e-12, never as its digits: those depend on the
order in which the matrix kernels sum, and OpenBLAS picks its kernels for the CPU
it finds. `make test` runs this page again with other kernels forced
(`OPENBLAS_CORETYPE=Sandybridge`), where the rounding rows come out with other
digits and the same verdicts.

<div class="primer-explorable" data-explorable="position_steps" markdown="0"></div>

**Try it:** pick a scenario and step through it: each cell is a token slot with
the id a correct server gives it; *Show the bug* swaps in the ids of that row's
bug and outlines the ones it changes. Under the cells: the largest change that
bug makes by this step to the logits of the tiny decoder run by `forward_with_ids`
(in the window, to one attention head's output), then the table's rows. Padding
and packing move every id by the same amount (forgiven by RoPE, not by a learned
table or a cut read from the ids); in the sliding window nothing changes until
the ring is full, then the query's id falls further behind its own key at every
step.

**In code:** `conformance_table` runs every row with `attend`, `chunked_attention`
and `ring_buffer_attention`; tests/test_position_ids.py holds the verdicts (correct
and forgiven rows below 1e-12, the others above 0.01).

**Why it matters.** "RoPE is relative, so ids don't matter" is true for exactly two
of the fourteen bugs. The others break the output by amounts a model notices, which
is why they keep being reported.

## In 20 seconds

- Ids are an input: from the mask for left padding, restarted per example for
  packing, continued from the cached length for chunks, cache hits and ring buffers.
- Packing needs both halves: reset ids and attention cut between examples; in
  transformers the cut is read from the ids when no mask is passed.
- RoPE forgives one offset for every token of a sequence, to rounding; an offset that
  differs between queries and keys breaks it.
- Anything that reads the id itself (learned tables, LongRoPE, dynamic NTK, Llama 4's
  temperature) breaks under any offset; transformers' padded `generate` moves Llama
  4's temperature, and vLLM turns it off at `--max-model-len` 32,768 and below.
- Serving adds three more counts: a context shift turns cached keys back by the gap
  (each layer with its own base), drafts continue from the cached length with
  siblings sharing an id, and context-parallel ranks hold global ids from both ends.

## Self-test questions

??? question "A batch is padded on the left and sent through a bare forward call of a RoPE model. Are the padded rows' logits right?"
    To rounding, yes, if the padding is masked: every real token is shifted by the
    same number of slots, and RoPE only sees gaps. For a model with a learned
    position table they are wrong.

??? question "You pack examples with reset ids and pass no attention mask to a transformers model using sdpa. Is attention cut between examples?"
    Yes in transformers 5.24: given ids with no mask and no cache, the mask builder
    reads the boundaries from the ids (find_packed_sequence_indices). With ids that never restart it would find one
    document and cut nothing.

??? question "A prompt of 300 tokens is prefilled in chunks of 256. Which ids does the second chunk get?"
    256 to 299: it starts at the cached length, not at 0.

??? question "A ring buffer of 4 slots holds tokens 8, 9, 6 and 7. Which id does the next query get?"
    10, its position in the sequence; the slot it will be written to (2) and the
    number of filled slots (4) are not ids. (That ring is Mistral's reference code;
    transformers and vLLM keep the window in order, and the answer is the same.)

??? question "llama.cpp shifts a full context of 12 with --keep 2, for a model with a BOS token. Which id does the next token get, and what happens to the key cached at id 9?"
    7. The shift comes with 11 tokens cached (at n_past + 1 = n_ctx), and n_keep is
    3 (the BOS counts), so ⌊(11 − 3)/2⌋ = 4 ids (3 to 6) are dropped and 7 to 10 move
    down by 4. The key at 9 is turned by −4·θ and then reads as a key turned at 5,
    with the base of its own layer. (Without a BOS: ids 2 to 5 go, and the answers
    are the same.)

??? question "Nine tokens are cached. A draft tree has two candidates for the next token after the sampled one. Which ids do the candidates get?"
    Both 10: the sampled token is 9 (the cached length), and siblings are the same
    distance from it. The tree mask keeps them from reading each other.

## The papers behind this lesson

- Su et al. (2021), *RoFormer: Enhanced Transformer with Rotary Position
  Embedding*, [arXiv:2104.09864](https://arxiv.org/abs/2104.09864) (companion:
  `papers.su2021_roformer`). The rotation whose dot product depends only on the gap.
- Krell et al. (2021), *Efficient Sequence Packing without Cross-contamination:
  Accelerating Large Language Models without Impacting Performance*,
  [arXiv:2107.02027](https://arxiv.org/abs/2107.02027). Packing with reset
  positions and a block mask, so that packed examples do not read each other.
- Jiang et al. (2023), *Mistral 7B*,
  [arXiv:2310.06825](https://arxiv.org/abs/2310.06825). Sliding-window attention
  with a rolling buffer cache that writes position i into slot i mod W, as its
  reference code does; transformers' and vLLM's sliding-window caches do not.
- Agrawal et al. (2023), *SARATHI: Efficient LLM Inference by Piggybacking Decodes
  with Chunked Prefills*, [arXiv:2308.16369](https://arxiv.org/abs/2308.16369).
  Splits a prompt's prefill into chunks that share steps with decoding.
- Leviathan, Kalman and Matias (2022), *Fast Inference from Transformers via
  Speculative Decoding*, [arXiv:2211.17192](https://arxiv.org/abs/2211.17192). A small
  model drafts, the large one checks the drafts in one pass.
- Miao et al. (2023), *SpecInfer: Accelerating Generative Large Language Model
  Serving with Tree-based Speculative Inference and Verification*,
  [arXiv:2305.09781](https://arxiv.org/abs/2305.09781). Verifies a tree of drafts in
  one pass under a mask that follows the tree.
- Cai et al. (2024), *Medusa: Simple LLM Inference Acceleration Framework with
  Multiple Decoding Heads*, [arXiv:2401.10774](https://arxiv.org/abs/2401.10774).
  Draft heads and tree attention; its reference code numbers a node by its depth.
- Liu, Zaharia and Abbeel (2023), *Ring Attention with Blockwise Transformers for
  Near-Infinite Context*, [arXiv:2310.01889](https://arxiv.org/abs/2310.01889).
  Shards the sequence across devices and passes keys and values round a ring.

## Further reading

- The Hugging Face blog post on packing with flash attention 2 (source in the
  huggingface/blog repository, pull request #2307), and the DataCollatorWithFlattening
  docstring in transformers' data/data_collator.py.
- `lessons.rope` for the rotation and its cache, `lessons.transformer` for a
  decoder's cache, `lessons.context_extension` for the scaling rules this page
  shows reading the id.
- The engines' source, as read for this page: llama.cpp in the llama-cpp-python
  0.3.36 sdist (vendor/llama.cpp: src/llama-kv-cache.cpp, src/llama-kv-cache-iswa.cpp,
  tools/completion/completion.cpp, tools/server/server-context.cpp), vLLM 0.33.0
  (model_executor/models/llama4.py, v1/spec_decode/llm_base_proposer.py,
  v1/core/single_type_kv_cache_manager.py), transformers 5.24.0 (cache_utils.py,
  models/llama4/modeling_llama4.py, trainer.py), mistral-inference 1.6.0's cache.py.
- Where this page goes beyond the packing post: left padding, chunks and cache
  hits, the sliding window, the context shift, draft trees, context-parallel shards,
  which mistakes RoPE forgives and why, and the measured table with a bug report for
  each row.
"""

from __future__ import annotations

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, MUTED, RED
from lessons._show import ROUNDING, banner, gap_text, say, table, takeaway
from lessons.attention import causal_mask, merge_heads, scaled_dot_product_attention, split_heads
from lessons.attention_sinks import causal_window_mask
from lessons.context_extension import LLAMA31_8B, _phi35_factors, dynamic_ntk_base, rope_inv_freq
from lessons.layer_schemes import llama4_served_temperature
from lessons.notation import softmax
from lessons.positional import angle_table, rope_frequencies
from lessons.rope import apply_rotary_emb, half_split_table, rotate_with_table
from lessons.transformer import gelu

# ---------------------------------------------------------------------------
# 1. Left padding: position ids from the attention mask
# ---------------------------------------------------------------------------


def position_ids_from_mask(attention_mask) -> np.ndarray:
    """Position ids for a (batch, seq) 0/1 attention mask: cumsum(mask) − 1, padding set to 0.

    As transformers 5.24 computes them before generating
    (GenerationMixin._prepare_position_ids_for_generation, generation/utils.py): the first real
    token of every row gets 0 however much left padding precedes it. Returns (batch, seq) ints
    ((seq,) for a (seq,) mask).
    """
    mask = np.asarray(attention_mask)
    if mask.ndim not in (1, 2) or mask.size == 0 or not np.isin(mask, (0, 1)).all():
        raise ValueError("attention_mask must be a non-empty (seq,) or (batch, seq) array of 0s and 1s")
    ids = np.cumsum(mask, axis=-1) - 1  # count of real tokens so far, minus one
    return np.where(mask == 0, 0, ids)  # padding: 0 (it is masked out anyway)


def default_position_ids(seq_len: int, past_length: int = 0) -> np.ndarray:
    """What a model uses when it is given no ids: past_length, ..., past_length + seq_len − 1, (seq_len,) ints.

    transformers 5.24's LlamaModel.forward (models/llama/modeling_llama.py) numbers the new tokens
    from the cache's length this way; it reads no mask, so every row of a batch gets the same ids.
    """
    seq_len = _checks.count(seq_len, "seq_len")
    return np.arange(seq_len) + _checks.count(past_length, "past_length", 0)


# ---------------------------------------------------------------------------
# 2. Packing: ids reset per document, attention cut between documents
# ---------------------------------------------------------------------------


def packed_position_ids(lengths, start: int = 0) -> np.ndarray:
    """Ids for documents of the given lengths packed into one row: start, start+1, ... restarting
    at every document, (sum(lengths),) ints, as transformers' DataCollatorWithFlattening returns them
    (data/data_collator.py, its `position_ids_start` argument is `start`).
    """
    lengths = [_checks.count(n, "lengths") for n in np.atleast_1d(lengths).tolist()]
    return np.concatenate([start + np.arange(n) for n in lengths])


def cu_seqlens_from_position_ids(position_ids) -> np.ndarray:
    """Where each packed document starts, plus the total: (docs + 1,) ints, the `cu_seqlens` a
    varlen attention kernel takes. A document starts wherever the id equals the smallest id, as in
    transformers 5.24's prepare_fa_kwargs_from_position_ids (modeling_flash_attention_utils.py).
    """
    ids = np.asarray(position_ids).reshape(-1)
    starts = np.flatnonzero(ids == ids.min())
    return np.append(starts, ids.size)


def document_ids_from_position_ids(position_ids) -> np.ndarray:
    """Which packed document each token belongs to, (batch, seq) ints from 0: a new document
    wherever an id is not its left neighbour plus one. transformers 5.24's
    find_packed_sequence_indices (masking_utils.py) does this when it gets ids and no mask.
    """
    ids = np.atleast_2d(np.asarray(position_ids))  # (batch, seq)
    step = np.diff(ids, axis=-1, prepend=ids[:, :1] - 1)  # 1 inside a document
    return np.cumsum(step != 1, axis=-1)


def document_mask(document_ids) -> np.ndarray:
    """Causal attention cut between documents: (seq, seq) bools, True where query i may read key j
    (j <= i and both in the same document). document_ids: (seq,) ints."""
    doc = _checks.vector(document_ids, "document_ids")
    return causal_mask(doc.size) & (doc[:, None] == doc[None, :])


# ---------------------------------------------------------------------------
# 3. The reference attention: one head, RoPE at explicit ids
# ---------------------------------------------------------------------------

# Llama 3.1 8B's speeds (head 128, base 500,000, the llama3 rule), from lessons/gallery/llama-3.1-8b.json
LLAMA31_THETA = rope_inv_freq(LLAMA31_8B["head_dim"], LLAMA31_8B["rope_parameters"])[0]


def rope_at(x: np.ndarray, position_ids, theta: np.ndarray = LLAMA31_THETA) -> np.ndarray:
    """Rows x (n, d) turned by RoPE (half-split layout) at their own ids (n,) with speeds theta (d/2,)."""
    cos, sin = half_split_table(angle_table(position_ids, theta))  # (n, d) each
    return rotate_with_table(x, cos, sin)


def attend(q, k, v, q_ids, k_ids, allowed, theta=LLAMA31_THETA, q_scale=None) -> np.ndarray:
    """One head's attention output (n_q, d): q (n_q, d) at ids q_ids, k and v (n_k, d) at k_ids,
    `allowed` (n_q, n_k) bools; RoPE with speeds theta (None: no rotation, a NoPE layer);
    q_scale (n_q,) multiplies each query (Llama 4's temperature), None for 1.
    """
    if theta is not None:
        q, k = rope_at(q, q_ids, theta), rope_at(k, k_ids, theta)
    if q_scale is not None:
        q = q * np.asarray(q_scale)[:, None]
    return scaled_dot_product_attention(q, k, v, allowed)[0]  # softmax(q·k/√d, masked) @ v


def _tokens(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((n, d)) for _ in range(3))  # q, k, v: (n, d) each


def chunked_attention(q, k, v, split: int, restart: bool, theta=LLAMA31_THETA) -> np.ndarray:
    """Prefill in two chunks with a cache: the first `split` tokens, then the rest against the cached
    keys. The continuing chunk's ids start at `split` (the cached length), or at 0 if `restart`.
    Returns the (n, d) outputs of both chunks."""
    n = q.shape[0]
    first = np.arange(split)
    out1 = attend(q[:split], k[:split], v[:split], first, first, causal_mask(split), theta)
    second = default_position_ids(n - split, 0 if restart else split)  # the new chunk's ids
    k_ids = np.concatenate([first, second])  # cached keys keep the ids they were turned with
    allowed = np.tril(np.ones((n - split, n), bool), k=split)  # each new token sees the cache and its past
    return np.vstack([out1, attend(q[split:], k, v, second, k_ids, allowed, theta)])


def ring_buffer_attention(q, k, v, window: int, position_from_slots: bool) -> np.ndarray:
    """Decode token by token with a ring buffer of `window` slots: token p's key goes to slot
    p % window, already turned at p. Each query attends to the slots in slot order. Its id is p,
    or (position_from_slots) the number of filled slots minus one, the bug. Returns (n, d)."""
    n, d = q.shape
    ring_k, ring_v, ring_ids = np.zeros((window, d)), np.zeros((window, d)), np.full(window, -1)
    rows = []
    for p in range(n):
        slot = p % window  # slot != position once the ring has wrapped
        ring_k[slot], ring_v[slot], ring_ids[slot] = rope_at(k[p : p + 1], [p])[0], v[p], p
        filled = ring_ids >= 0
        q_id = min(p, window - 1) if position_from_slots else p
        scores = rope_at(q[p : p + 1], [q_id]) @ ring_k[filled].T / np.sqrt(d)  # keys in slot order
        rows.append(softmax(scores) @ ring_v[filled])
    return np.vstack(rows)


# ---------------------------------------------------------------------------
# 4. Serving: a context shift, draft trees, context-parallel shards
# ---------------------------------------------------------------------------


def llama_cpp_shift_plan(n_ctx: int, keep: int, add_bos: bool = True, server: bool = False) -> dict:
    """When llama.cpp shifts a full context and by how much, decoding one token per step.

    n_ctx: the context; keep: the --keep flag (0 .. prompt length); add_bos: the vocabulary adds a
    BOS token. llama-completion (tools/completion/completion.cpp) shifts once n_past + 1 >= n_ctx,
    with n_keep = keep + add_bos; llama-server (server-context.cpp, pre_decode) at n_tokens + 1 >=
    n_ctx, adds 1 for a BOS, caps n_keep at n_ctx − 4 and clamps n_discard to n_left − 1. Both:
    n_left = cached − n_keep, n_discard = n_left // 2. Returns {"cached", "n_keep", "n_left",
    "n_discard", "next_id"}: tokens cached at the shift, and the id the next token gets after it.
    """
    cached, n_keep = _checks.count(n_ctx, "n_ctx", 8) - 1, _checks.count(keep, "keep", 0) + int(add_bos)
    n_keep = min(n_ctx - 4, n_keep) if server else n_keep
    n_left = cached - n_keep
    n_discard = min(max(n_left // 2, 0), max(0, n_left - 1)) if server else n_left // 2
    return dict(cached=cached, n_keep=n_keep, n_left=n_left, n_discard=n_discard, next_id=cached - n_discard)


def context_shift(keys, positions, n_keep: int, n_discard: int, theta=LLAMA31_THETA):
    """llama.cpp's context shift on one layer's cached keys, already turned at their ids.

    keys (n, d), positions (n,). Drops the keys at ids n_keep .. n_keep + n_discard − 1
    (llama_memory_seq_rm), then turns each later key by −n_discard·θ so that it reads as if
    computed at p − n_discard (llama_memory_seq_add; the K-shift graph, build_rope_shift in
    src/llama-kv-cache.cpp). Returns (keys (m, d), positions (m,)), m = n − n_discard.
    """
    keys, positions = np.asarray(keys, dtype=float), np.asarray(positions)
    kept = (positions < n_keep) | (positions >= n_keep + n_discard)
    moved = positions[kept] >= n_keep + n_discard  # (m,) the keys after the gap
    out = keys[kept].copy()
    # R(−n_discard·θ) R(p·θ) = R((p − n_discard)·θ): one more turn, backwards
    out[moved] = rope_at(out[moved], np.full(moved.sum(), -n_discard), theta)
    return out, positions[kept] - n_discard * moved


def tree_position_ids(parents, cached_length: int) -> np.ndarray:
    """Ids of a draft tree's nodes, (n,) ints: cached_length + depth. parents (n,): each node's
    parent index, −1 for the root (the token sampled last, not yet cached); parents come first.
    Siblings share an id; a chain (−1, 0, 1, ...) gets cached_length + 0, 1, 2, ... like a plain decode."""
    depth = []
    for i, parent in enumerate(np.asarray(parents).tolist()):
        if not -1 <= parent < i:
            raise ValueError(f"node {i}: its parent {parent} must come before it (or be −1)")
        depth.append(0 if parent < 0 else depth[parent] + 1)
    return cached_length + np.asarray(depth)


def tree_mask(parents) -> np.ndarray:
    """Tree attention among draft nodes: (n, n) bools, True where node i may read node j,
    j being i or one of its ancestors. With the cached keys (all readable) on the left, it is
    the mask one verification pass uses for every path of the tree at once."""
    parents = np.asarray(parents)
    tree_position_ids(parents, 0)  # checks the order
    allowed = np.eye(parents.size, dtype=bool)
    for i, parent in enumerate(parents.tolist()):
        if parent >= 0:
            allowed[i] |= allowed[parent]  # a node reads what its parent reads, and itself
    return allowed


def shard_position_ids(seq_len: int, n_ranks: int, rank: int, zigzag: bool = True) -> np.ndarray:
    """Global ids one context-parallel rank holds, (seq_len / n_ranks,) ints. zigzag: the sequence
    in 2·n_ranks chunks, rank r holding chunks r and 2·n_ranks − 1 − r (Megatron-LM's
    get_pos_emb_on_this_cp_rank, ring-flash-attention's zigzag tests), so that every rank gets as
    many causal (query, key) pairs; otherwise chunk r of n_ranks."""
    n_chunks = 2 * n_ranks if zigzag else n_ranks
    if seq_len % n_chunks or not 0 <= rank < n_ranks:
        raise ValueError(f"seq_len {seq_len} must split into {n_chunks} chunks, rank in 0..{n_ranks - 1}")
    chunks = np.arange(seq_len).reshape(n_chunks, -1)  # (chunks, seq_len / chunks)
    return np.concatenate([chunks[rank], chunks[n_chunks - 1 - rank]]) if zigzag else chunks[rank]


def ring_attention(q, k, v, n_ranks: int, local_ids: bool = False, theta=LLAMA31_THETA) -> np.ndarray:
    """Causal attention computed shard by shard, as ring attention passes keys and values round
    the ranks: each rank's queries meet every rank's keys in turn, turned at their global ids and
    masked by global id (key id ≤ query id); the partial softmaxes are merged by their running
    maximum and sum. local_ids: each rank numbers its own tokens 0, 1, ... (the bug).
    q, k, v (n, d); returns the (n, d) outputs in sequence order."""
    n, d = q.shape
    shards = [shard_position_ids(n, n_ranks, r) for r in range(n_ranks)]
    rope_ids = [np.arange(s.size) if local_ids else s for s in shards]
    out = np.zeros((n, d))
    for r, mine in enumerate(shards):
        q_r = rope_at(q[mine], rope_ids[r], theta)
        top, total, acc = np.full(mine.size, -np.inf), np.zeros(mine.size), np.zeros((mine.size, d))
        for step in range(n_ranks):  # step 0: the rank's own keys; then the neighbours' in turn
            s = (r - step) % n_ranks
            scores = q_r @ rope_at(k[shards[s]], rope_ids[s], theta).T / np.sqrt(d)
            scores = np.where(shards[s][None, :] <= mine[:, None], scores, -np.inf)
            new_top = np.maximum(top, scores.max(axis=1))
            w = np.exp(scores - new_top[:, None])  # (n_r, n_s)
            fade = np.exp(top - new_top)  # rescale what earlier steps summed
            total, acc, top = total * fade + w.sum(axis=1), acc * fade[:, None] + w @ v[shards[s]], new_top
        out[mine] = acc / total[:, None]
    return out


# ---------------------------------------------------------------------------
# 5. The conformance table: each scenario, right and with a classic bug
# ---------------------------------------------------------------------------

THREADS = {
    "left-pad": "https://github.com/huggingface/transformers/issues/18478",
    "learned": "https://github.com/huggingface/transformers/pull/29583",
    "no-cut": "https://github.com/huggingface/transformers/issues/32937",
    "no-reset": "https://github.com/hiyouga/LlamaFactory/pull/7318",
    "ids-only": "https://github.com/huggingface/nanoVLM/issues/201",
    "chunk": "https://github.com/huggingface/transformers/issues/43082",
    "prefix": "https://github.com/vllm-project/vllm-metal/pull/144",
    "dynamic": "https://github.com/huggingface/transformers/issues/25104",
    "longrope": "https://github.com/huggingface/transformers/pull/33129",
    "kshift": "https://github.com/ggml-org/llama.cpp/issues/12357",
    "tree": "https://github.com/NVIDIA/TensorRT-LLM/pull/12962",
    "cp": "https://github.com/NVIDIA/TransformerEngine/pull/2349",
    "vllm-gate": "https://github.com/vllm-project/vllm/pull/16439",
}
# rows that compare two engines, neither being the judge: they differ by design, or agree
DIFFER, AGREE = {"vllm-gate"}, {"vllm-on"}
LLAMA4_PAD = 8192  # left padding before a prompt in a batch with one 8,192 tokens longer


def _max_gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))))


def _padding_rows(q, k, v, ref, pad: int, seed: int) -> list[tuple]:
    n, d = q.shape
    pq, pk, pv = _tokens(pad, d, seed + 1)  # the padding tokens' own vectors (masked out)
    Q, K, V = np.vstack([pq, q]), np.vstack([pk, k]), np.vstack([pv, v])
    mask = np.r_[np.zeros(pad, int), np.ones(n, int)]
    # no real query reads a padding key; a padding query reads only itself (its output is thrown away)
    allowed = causal_mask(pad + n) & ((mask[None, :] == 1) | np.eye(pad + n, dtype=bool))
    rows = []
    for label, ids, key in (("left padding, ids cumsum(mask) − 1", position_ids_from_mask(mask), None),
                            ("left padding, ids 0..n−1 (none passed)", default_position_ids(pad + n), "left-pad")):
        rows.append((label, "RoPE", _max_gap(attend(Q, K, V, ids, ids, allowed)[pad:], ref), key))
    # the same offset against a learned table: GPT-2 style, a row per position added to the input
    table_rng = np.random.default_rng(seed + 2)
    table_ = table_rng.standard_normal((pad + n, d))  # (positions, d)
    W = table_rng.normal(0, d ** -0.5, (3, d, d))  # W_q, W_k, W_v: (d, d)

    def learned(x, ids, allowed_):
        h = x + table_[ids]  # the position's row added to the token's vector
        return attend(h @ W[0].T, h @ W[1].T, h @ W[2].T, ids, ids, allowed_, theta=None)

    x = np.vstack([pq, q])  # the tokens' input vectors
    alone = learned(q, np.arange(n), causal_mask(n))
    for label, ids, key in (("left padding, ids cumsum(mask) − 1", position_ids_from_mask(mask), None),
                            ("left padding, ids 0..n−1 (none passed)", default_position_ids(pad + n), "learned")):
        rows.append((label, "learned table", _max_gap(learned(x, ids, allowed)[pad:], alone), key))
    return rows


def _packing_rows(q, k, v, ref, other: int, seed: int) -> list[tuple]:
    n, d = q.shape
    bq, bk, bv = _tokens(other, d, seed + 3)  # another document packed in front
    Q, K, V = np.vstack([bq, q]), np.vstack([bk, k]), np.vstack([bv, v])
    reset, running = packed_position_ids([other, n]), default_position_ids(other + n)
    cut = document_mask(np.r_[np.zeros(other, int), np.ones(n, int)])  # from the lengths
    cases = (("packing, ids reset, attention cut", reset, cut, None),
             ("packing, ids reset, attention not cut", reset, causal_mask(other + n), "no-cut"),
             ("packing, ids not reset, attention cut", running, cut, "no-reset"),
             ("packing, ids not reset, cut read from the ids", running,
              document_mask(document_ids_from_position_ids(running)[0]), "ids-only"))
    return [(label, "RoPE", _max_gap(attend(Q, K, V, ids, ids, allowed)[other:], ref), key)
            for label, ids, allowed, key in cases]


def _cache_rows(q, k, v, ref, seed: int) -> list[tuple]:
    n, d = q.shape
    rows = []
    for what, split, key in (("chunked prefill", n // 2, "chunk"), ("prefix-cache hit", n - 3, "prefix")):
        for restart in (False, True):
            label = f"{what}, new ids {'from 0' if restart else 'from the cached length'}"
            rows.append((label, "RoPE", _max_gap(chunked_attention(q, k, v, split, restart), ref),
                         key if restart else None))
    window = 5
    windowed = attend(q, k, v, np.arange(n), np.arange(n), causal_window_mask(n, window))
    for label, bug, key in (("ring buffer, keys read in slot order", False, None),
                            ("ring buffer, query id = filled slots − 1", True, "-")):
        rows.append((label, "RoPE", _max_gap(ring_buffer_attention(q, k, v, window, bug), windowed), key))
    return rows


def _absolute_rows(q, k, v, seed: int) -> list[tuple]:
    n, d = q.shape
    ids, allowed = np.arange(n), causal_mask(n)
    rows = []

    def nope(scale):  # a Llama 4 NoPE layer: no rotation, each query times its temperature
        return attend(q, k, v, ids, ids, allowed, theta=None, q_scale=scale)

    # left padding: vLLM 0.33.0 reads the position ids, transformers 5.24 the index in the cache
    hf, vllm = "transformers 5.24", "vLLM 0.33.0"
    alone = nope(llama4_served_temperature(ids, hf))
    for label, scale, key in (
            ("the ids (vLLM)", llama4_served_temperature(ids, vllm, setting=True), None),
            ("the cache index (transformers)", llama4_served_temperature(ids + LLAMA4_PAD, hf), "-")):
        rows.append((f"left padding 8,192, temperature from {label}", "Llama 4 NoPE",
                     _max_gap(nope(scale), alone), key))
    # the sentence at ids 8,191 on: transformers 5.24 scales; vLLM 0.33.0 only past max_model_len 32,768
    far = nope(llama4_served_temperature(ids + 8191, hf))
    for label, max_len, key in (("65,536: temperature on", 65536, "vllm-on"),
                                ("32,768: temperature off", 32768, "vllm-gate")):
        rows.append((f"ids 8,191 on, vLLM, max_model_len {label}", "Llama 4 NoPE",
                     _max_gap(nope(llama4_served_temperature(ids + 8191, vllm, max_len)), far), key))
    # dynamic NTK: keys cached while the prompt fit (trained base), reused after it grew
    trained, grown, dd = 4096, 4224, 128
    base = LLAMA31_8B["rope_parameters"]["rope_theta"]
    Qd, Kd, Vd = _tokens(grown, dd, seed + 4)
    now = rope_frequencies(dd, dynamic_ntk_base(base, 2.0, grown, trained, dd))
    then = rope_frequencies(dd, dynamic_ntk_base(base, 2.0, trained, trained, dd))
    last = np.arange(grown - 1, grown)
    keys = np.vstack([rope_at(Kd[:trained], np.arange(trained), then), rope_at(Kd[trained:], np.arange(trained, grown), now)])
    fresh = attend(Qd[-1:], Kd, Vd, last, np.arange(grown), np.ones((1, grown), bool), now)
    stale = attend(rope_at(Qd[-1:], last, now), keys, Vd, None, None, np.ones((1, grown), bool), theta=None)
    rows.append(("dynamic NTK, cached keys keep the old base", "dynamic NTK", _max_gap(stale, fresh), "dynamic"))
    # LongRoPE (Phi-3.5-mini): keys cached with the short factors, the query past 4,096 with the long ones
    # Phi-3.5-mini-instruct (lessons/gallery/phi-3.5-mini.json): head 96, base 10,000, trained at 4,096
    original, grown, head = 4096, 4160, 96
    params = {"rope_type": "longrope", **_phi35_factors(), "rope_theta": 10000.0,
              "original_max_position_embeddings": original}
    short, att = rope_inv_freq(head, params, max_position_embeddings=131072, seq_len=original)
    long_, _ = rope_inv_freq(head, params, max_position_embeddings=131072, seq_len=grown)
    Ql, Kl, Vl = _tokens(grown, head, seed + 5)
    Ql, Kl = Ql * att, Kl * att  # the attention factor multiplies cos and sin for q and k alike
    last = np.arange(grown - 1, grown)
    keys = np.vstack([rope_at(Kl[:original], np.arange(original), short),
                      rope_at(Kl[original:], np.arange(original, grown), long_)])
    fresh = attend(Ql[-1:], Kl, Vl, last, np.arange(grown), np.ones((1, grown), bool), long_)
    stale = attend(rope_at(Ql[-1:], last, long_), keys, Vl, None, None, np.ones((1, grown), bool), theta=None)
    rows.append(("LongRoPE, cached keys keep the short factors", "LongRoPE", _max_gap(stale, fresh), "longrope"))
    return rows


def _serving_rows(q, k, v, ref, seed: int) -> list[tuple]:
    n, d = q.shape
    rows = []
    # llama.cpp's shift of the sentence in a context of n + 1 (--keep 2, a BOS), on a local layer (base
    # 10,000; the global ones: 1,000,000, Gemma 3's two bases): against the kept text attended afresh
    local, other = rope_frequencies(d, 10_000.0), rope_frequencies(d, 1_000_000.0)
    keep, drop = (llama_cpp_shift_plan(n + 1, 2)[key] for key in ("n_keep", "n_discard"))
    kept = np.r_[0:keep, keep + drop:n]
    new = np.arange(kept.size)
    fresh = attend(q[kept], k[kept], v[kept], new, new, causal_mask(kept.size), local)
    for label, speeds, key in (("their own base", local, None), ("the global base", other, "kshift")):
        keys, _ = context_shift(rope_at(k, np.arange(n), local), np.arange(n), keep, drop, speeds)
        out = attend(rope_at(q[kept], new, local), keys, v[kept], None, None, causal_mask(kept.size), None)
        rows.append((f"context shift, local keys turned back at {label}", "RoPE", _max_gap(out, fresh), key))
    # a draft tree after n − 3 cached tokens: the sentence's last three on one path, two siblings
    L, parents = n - 3, [-1, 0, 0, 1, 2]
    xq, xk, xv = _tokens(2, d, seed + 6)  # the siblings' vectors

    def order(a, x):  # the tree's rows: root, the path's two, then each sibling after its own
        return np.vstack([a[L], a[L + 1], x[0], a[L + 2], x[1]])

    allowed = np.hstack([np.ones((5, L), bool), tree_mask(parents)])  # cache, then the tree
    for label, ids, key in (("siblings share an id", tree_position_ids(parents, L), None),
                            ("nodes numbered in order", L + np.arange(5), "tree")):
        out = attend(order(q, xq), np.vstack([k[:L], order(k, xk)]), np.vstack([v[:L], order(v, xv)]),
                     ids, np.r_[np.arange(L), ids], allowed)
        rows.append((f"draft tree, {label}", "RoPE", _max_gap(out[[0, 1, 3]], ref[L:]), key))
    for label, local_ids, key in (("global ids", False, None), ("ids from 0 on each rank", True, "cp")):
        rows.append((f"context parallel, 2 ranks, {label}", "RoPE",
                     _max_gap(ring_attention(q, k, v, 2, local_ids), ref), key))
    return rows


def conformance_table(n: int = 12, pad: int = 5, other: int = 7, seed: int = 0) -> list[dict]:
    """Every scenario run right and with each classic bug, against the sentence attended alone.

    One head, d = 128, Llama 3.1 8B's speeds; the sentence is n random (q, k, v) rows (seeded).
    Each row: scenario, scheme, gap (largest |output − reference| over the sentence's outputs),
    bug (False for the correct setup), differ and agree (True where two engines are compared, neither
    the judge: the gap is between them), thread (the URL of a tracker thread about that bug or
    difference; None for a correct setup, or a bug for which no thread was found). The context-shift
    rows' reference is the kept text attended afresh; the Llama 4 padding rows' is the sentence alone,
    as Meta's reference code numbers it (it pads on the right); the two max_model_len rows compare
    vLLM 0.33.0 with transformers 5.24 (the key true) on the same ids.
    """
    n = _checks.count(n, "n", 8)
    q, k, v = _tokens(n, LLAMA31_THETA.size * 2, seed)
    ids = np.arange(n)
    ref = attend(q, k, v, ids, ids, causal_mask(n))  # the sentence alone: ids 0..n−1, causal
    rows = (_padding_rows(q, k, v, ref, pad, seed) + _packing_rows(q, k, v, ref, other, seed)
            + _cache_rows(q, k, v, ref, seed) + _serving_rows(q, k, v, ref, seed)
            + _absolute_rows(q, k, v, seed))
    return [dict(scenario=s, scheme=scheme, gap=gap, bug=key is not None and key not in DIFFER | AGREE,
                 differ=key in DIFFER, agree=key in AGREE, thread=THREADS.get(key)) for s, scheme, gap, key in rows]


# ---------------------------------------------------------------------------
# 6. A whole decoder with explicit ids and mask (the lab's model)
# ---------------------------------------------------------------------------


def forward_with_ids(model, tokens, position_ids, allowed) -> np.ndarray:
    """Logits (seq, vocab) of a `lessons.transformer.TinyGPT` for tokens (seq,) at explicit position
    ids (seq,) under an explicit mask `allowed` (seq, seq) bools, True where query i may read key j.

    TinyGPT.forward numbers its tokens 0..seq−1 under the causal mask; this runs the same weights
    with the ids and the mask a batch with padding or packing hands over. Position "rope" turns q
    and k at the ids, "learned" adds the table's row for each id, "none" uses neither.
    """
    _checks.one_of(model.position, "model.position", ("rope", "learned", "none"))
    tokens, ids = np.asarray(tokens), np.asarray(position_ids)
    allowed = np.asarray(allowed, dtype=bool)
    x = model.W_emb[tokens]  # (seq, d_model)
    if model.position == "learned":
        x = x + model.scheme.W_pos[ids]  # the row of each token's id
    for L in model.layers:
        h = model._norm(x, L["g1"], L["b1"])
        Q, K, V = (split_heads(h @ L[name].T, model.n_heads) for name in ("W_q", "W_k", "W_v"))  # (H, seq, d_head)
        if model.position == "rope":
            Q, K = apply_rotary_emb(Q, K, *half_split_table(angle_table(ids, model.scheme.table.theta)))
        scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(model.d_head)  # (H, seq, seq)
        x = x + merge_heads(softmax(np.where(allowed, scores, -np.inf)) @ V) @ L["W_o"].T
        h = model._norm(x, L["g2"], L["b2"])
        x = x + gelu(h @ L["W_1"].T + L["c_1"]) @ L["W_2"].T + L["c_2"]
    return model.unembed(x)  # (seq, vocab)


def padded_batch_mask(n_pad: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A row of n_pad padding tokens then n real ones: (attention mask (n_pad + n,) 0/1, allowed
    (n_pad + n, n_pad + n) bools). No real token reads a padding key; a padding query reads
    itself only (its output is discarded), so no softmax row is empty."""
    mask = np.r_[np.zeros(n_pad, int), np.ones(n, int)]
    allowed = causal_mask(n_pad + n) & ((mask[None, :] == 1) | np.eye(n_pad + n, dtype=bool))
    return mask, allowed


# ---------------------------------------------------------------------------
# 7. Figures (figures_build turns each into docs/figures/position_ids.<name>.svg)
# ---------------------------------------------------------------------------


def _grid(ax, allowed, ids, title):
    n = len(ids)
    from matplotlib.colors import ListedColormap

    # a key the query may read is a blue cell; the others are left undrawn (the page's background)
    ax.imshow(np.where(allowed, 1.0, np.nan), cmap=ListedColormap([BLUE]), vmin=0, vmax=1)
    ax.set_xticks(np.arange(n + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n + 1) - 0.5, minor=True)
    ax.grid(which="minor", color=MUTED, lw=0.5)
    ax.tick_params(which="minor", length=0)
    ax.set_xticks(range(n), [str(int(i)) for i in ids])
    ax.set_yticks(range(n), [str(int(i)) for i in ids])
    ax.set_title(title)
    ax.set_xlabel("key id")


def figures() -> dict:
    """The page's figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    figs = {}
    mask, padded = padded_batch_mask(3, 5)
    reset = packed_position_ids([4, 4])
    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(6.4, 3.0), layout="constrained")
    _grid(a1, padded, position_ids_from_mask(mask), "left padding")
    _grid(a2, document_mask(document_ids_from_position_ids(reset)[0]), reset, "packed, cut")
    _grid(a3, causal_mask(8), reset, "packed, not cut")
    a1.set_ylabel("query id")
    figs["masks"] = fig

    # a draft tree after 9 cached tokens, and the work each context-parallel rank does
    parents = [-1, 0, 0, 1, 2]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(6.4, 3.0), layout="constrained")
    _grid(a1, tree_mask(parents), tree_position_ids(parents, 9), "draft tree, 9 cached")
    a1.set_ylabel("query id")
    ranks = np.arange(4)
    for dy, zigzag, colour, hatch, name in ((-0.2, False, RED, "", "contiguous"), (0.2, True, GREEN, "//", "zigzag")):
        pairs = [int((shard_position_ids(16, 4, r, zigzag) + 1).sum()) for r in ranks]  # keys read, summed
        a2.barh(ranks + dy, pairs, height=0.4, color=colour, hatch=hatch, edgecolor=GRID, lw=0.5, label=name)
    a2.set_yticks(ranks, [f"rank {r}" for r in ranks])
    a2.invert_yaxis()
    a2.set_xlabel("causal (query, key) pairs")
    a2.set_title("16 tokens, 4 ranks")
    fig.legend(loc="outside lower center", ncols=2, frameon=False)
    figs["serving"] = fig

    rows = conformance_table()
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(rows) + 0.8), layout="constrained")
    floor = 1e-17  # where the bars start, on the log scale
    y = np.arange(len(rows))[::-1]
    for yi, r in zip(y, rows, strict=True):
        colour = MUTED if r["differ"] or r["agree"] else GREEN if not r["bug"] else (RED if r["gap"] > 1e-9 else BLUE)
        # a rounding gap is drawn at its bound: its digits are the CPU's kernels', not the lesson's
        drawn = max(r["gap"], ROUNDING)
        hatch = ".." if r["differ"] or r["agree"] else "" if r["bug"] else "//"
        ax.barh(yi, drawn, left=floor, color=colour, hatch=hatch, edgecolor=GRID, lw=0.5)
        ax.text(drawn * 3, yi, f"{r['gap']:.0e}" if r["gap"] >= ROUNDING else gap_text(r["gap"]), va="center")
    names = [r["scenario"] if r["scheme"] in ("RoPE", "Llama 4 NoPE")
             else f"{r['scheme']}: {r['scenario'].split(', ', 1)[-1]}"
             for r in rows]
    ax.set_yticks(y, names)
    ax.set_xscale("log")
    ax.set_xlim(floor, 1e4)
    ax.set_xticks([1e-15, 1e-9, 1e-3, 1e3])
    ax.axvline(1e-9, color=MUTED, ls="--", lw=1)
    ax.set_xlabel("largest |output − reference|")
    fig.legend(handles=[Patch(facecolor=GREEN, hatch="//", edgecolor=GRID, label="correct"),
                       Patch(facecolor=BLUE, edgecolor=GRID, label="bug, forgiven"),
                       Patch(facecolor=RED, edgecolor=GRID, label="bug, breaks"),
                       Patch(facecolor=MUTED, hatch="..", edgecolor=GRID, label="two engines compared")],
              loc="outside lower center", ncols=4, frameon=False)
    figs["conformance"] = fig
    return figs


# ---------------------------------------------------------------------------
# 8. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. Left padding: ids from the mask")
    mask = np.array([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])
    say(f"mask {mask.tolist()} -> ids {position_ids_from_mask(mask).tolist()}")
    banner("2. Packing: ids restart, attention is cut")
    ids = packed_position_ids([3, 2, 4])
    say(f"lengths 3, 2, 4 -> ids {ids.tolist()}, cu_seqlens {cu_seqlens_from_position_ids(ids).tolist()}, "
        f"documents {document_ids_from_position_ids(ids)[0].tolist()}")
    banner("3. Serving: a context shift, a draft tree, context-parallel shards")
    plan = llama_cpp_shift_plan(12, 2)
    _, new = context_shift(np.zeros((11, 128)), np.arange(11), plan["n_keep"], plan["n_discard"])
    say(f"context of 12, --keep 2 and a BOS: llama.cpp shifts at {plan['cached']} cached, keeps {plan['n_keep']}, "
        f"drops {plan['n_discard']} -> ids {new.tolist()}, the next token gets {plan['next_id']}")
    say(f"draft tree after 9 cached, parents [-1, 0, 0, 1, 2] -> ids {tree_position_ids([-1, 0, 0, 1, 2], 9).tolist()}")
    say(f"12 tokens on 2 zigzag ranks -> {[shard_position_ids(12, 2, r).tolist() for r in range(2)]}")
    banner("4. The conformance table (one head, Llama 3.1 8B's speeds)")
    table(["scenario", "scheme", "largest gap"], [(r["scenario"], r["scheme"], gap_text(r["gap"]))
                                                  for r in conformance_table()])
    say("Llama 4's temperature: vLLM 0.33.0 reads the ids but is off at max_model_len <= 32,768; "
        "transformers 5.24 (the key true) is on and counts the cache index, so left padding moves it.")
    takeaway("A constant offset is invisible to RoPE; an offset that differs between queries and keys, "
             "or anything that reads the absolute position, is not.")


if __name__ == "__main__":
    demo()
