r"""
# Attention sinks: where attention goes when it has nowhere to go

Run it: `python -m lessons.attention_sinks` (a narrated walkthrough in the terminal).
Builds on `lessons.attention` (softmax weights, the causal mask and the
key-value cache), `lessons.rope` (rotating q and k by position) and
`lessons.context_extension` (what happens past the trained length).

## Level 1: the practitioner's guide

**In one sentence.** Softmax makes every attention row add up to 1, so a head
with nothing useful to read still has to put its weight somewhere; trained
models park it on the first tokens (the "attention sink", named by Xiao et
al., 2023), a streaming cache must therefore keep those tokens, and gpt-oss
instead gives every head a learned sink logit that every attention kernel
serving it has to support.

**When you need it.** Three situations. You stream a conversation longer
than the cache and evict old tokens: evict the first few and the model falls
apart, although they say nothing (Xiao et al., 2023, §3.1). You serve or fine-tune gpt-oss: a kernel
that ignores its sinks runs without an error and produces wrong text. You
move a sliding-window model (Mistral, Gemma 2 and 3, gpt-oss) from one
attention kernel to another: the same window number can mean one more or one
fewer key. The tell-tale symptom of all three is output that degrades with
nothing in the logs.

**Your options.**

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Full cache | Keeps every key and value | Exactly what the model was trained for | Memory grows with the stream; past the trained length, `lessons.context_extension` | The default |
| Window only | Keeps the most recent tokens, evicts the rest | Fixed memory | Breaks as soon as the first tokens leave (Xiao et al., 2023, §3.1) | A rolling cache; `sliding_window` in a model trained with it |
| StreamingLLM | Keeps the first few tokens and a recent window, numbers positions inside the cache | Fixed memory and a stable model over long streams (reported up to 4 million tokens, Xiao et al., abstract), no training | Forgets the middle: a streaming, not a long-context, method | mit-han-lab/streaming-llm; for transformers, the Hub repository transformers-community/sink_cache (a custom generate: SinkCache left the library in 4.53) |
| Learned sink (gpt-oss) | One trained logit per head joins every softmax row | A place to park weight that no eviction can remove | One number per head and layer; the kernel must support it | The weights (`sinks` in each attention layer); kernels' `s_aux` or `learnable_sink` argument |

**How to choose.**

- Serving a model inside its trained length: nothing to choose; keep the
  full cache (or the window the model was trained with).
- Streaming an endless chat with a model trained without sinks: keep the
  first tokens and a recent window, and give the kept tokens positions
  inside the cache (StreamingLLM). It keeps the model fluent, not able to
  recall what was evicted.
- Serving gpt-oss: use a kernel that takes the sink logits (in
  transformers, one of the four it lists for the model, below; in vLLM, one
  its backend selector accepts for a model with sinks: vllm-project/vllm
  issue [#40153](https://github.com/vllm-project/vllm/issues/40153) shows it
  rejecting FlashAttention and FlashInfer for that reason on one GPU and
  falling back to its Triton backend); check that it also gets the window
  right.
- Training a new model: a learned sink per head costs a few numbers and
  gives the weight a place no cache evicts; Xiao et al. report that a model
  pretrained with one dedicated sink token at the start of every sample
  streams well keeping only that token (§3.3). The same section tried
  SoftMax-off-by-one, an extra logit 0 in every softmax (their "Zero
  Sink"), which is gpt-oss's sink with its logit fixed at 0 (Level 2);
  their 160M-parameter model trained so still needed other first tokens
  kept (reported perplexity 29,214 with none kept, 18.01 with four,
  Table 3).

**What it costs.** A StreamingLLM cache holds the sink tokens plus the
window, whatever the stream's length. gpt-oss-20b has 1,536 sink logits (64
heads times 24 layers, from its config.json); each softmax row gets one more
entry.

**What breaks.**

- **Evicting the first tokens.** A rolling cache that drops the oldest
  token first removes the sink; its weight is shared among the other keys,
  whose weights all grow by one factor (7.7 in Level 2's example). Keep the first few
  (Xiao et al., 2023, §3.1).
- **Positions from the text, not the cache.** StreamingLLM numbers the kept
  tokens by their slot in the cache (§3.2); numbering them by their place in
  the text sends the query ever further from the sinks, beyond any trained
  distance. A cache that stores keys already rotated by RoPE must re-rotate
  them at every eviction; transformers' former SinkCache did, and its
  handling of newly added keys was questioned in huggingface/transformers issues
  [#33691](https://github.com/huggingface/transformers/issues/33691) and
  [#35350](https://github.com/huggingface/transformers/issues/35350). The
  StreamingLLM authors' code caches keys before rotation and rotates them at
  each step (their answer in mit-han-lab/streaming-llm issue
  [#73](https://github.com/mit-han-lab/streaming-llm/issues/73)).
- **A kernel that drops the sink.** gpt-oss run with a FlashAttention kernel
  that has no sink argument generated garbage silently (reported in
  huggingface/transformers pull request
  [#42736](https://github.com/huggingface/transformers/pull/42736), merged,
  which stopped transformers from running gpt-oss on such kernels); vLLM failed to start on
  an RTX 4090 with "Sinks are only supported in FlashAttention 3"
  (vllm-project/vllm issue
  [#22331](https://github.com/vllm-project/vllm/issues/22331)). For
  training, the FlashAttention maintainers confirmed in August 2025 that no
  implementation had a backward pass with learnable sinks
  (Dao-AILab/flash-attention issue
  [#1797](https://github.com/Dao-AILab/flash-attention/issues/1797)), so
  users reported fine-tuning in eager attention instead
  ([#1895](https://github.com/Dao-AILab/flash-attention/issues/1895)).
- **A window one key too wide.** In transformers a config's
  `sliding_window` of 128 means 128 keys, the query's own included
  (masking_utils.py, sliding_window_overlay), and so does gpt-oss's
  reference code (openai/gpt-oss, gpt_oss/torch/model.py, sdpa): its
  authors count 128 too. FlashAttention's `window_size` counts keys to the
  left of the query, so the same window is (127, 0). Passing the config's
  number unchanged lets every query see one key more than that count:
  huggingface/transformers issue
  [#39408](https://github.com/huggingface/transformers/issues/39408),
  NVIDIA-NeMo/Megatron-Bridge pull request
  [#2656](https://github.com/NVIDIA-NeMo/Megatron-Bridge/pull/2656) (which
  changed gpt-oss from (128, 0) to (127, 0)), and xformers issue
  [#923](https://github.com/facebookresearch/xformers/issues/923). The
  count is a convention, not a law: Mistral 7B's paper lets a token attend
  to itself and to the window's full width of tokens before it, one more than
  the window (Jiang et al., 2023, §2), so for Mistral "one key too many" depends on whose count you follow
  (Level 2, last section).

![Two sets of bars over eight keys: with the first token cached it takes most of the weight and the seven others share the rest; with it evicted each of the seven others gets a larger weight than before](figures/attention_sinks.eviction.svg)

**Reading it:** blue bars are one head's weights over eight cached keys, with
most of the weight parked on the first token; hatched vermillion (orange-red) bars are the same
scores once that token has been evicted. Nothing about the other seven keys
changed, yet each now gets a larger share, so the head outputs something it
was never trained to produce. That is *Evicting the first tokens* (below):
a streaming cache keeps the first tokens as well as the recent window.

**In the wild.** openai/gpt-oss-20b's config.json (as copied in the model
card gallery) sets `sliding_window` 128 and `layer_types` alternating sliding
and full attention over its 24 layers; every attention layer, sliding or
full, holds `sinks`, one logit per head
(transformers 5.24.0, models/gpt_oss/modeling_gpt_oss.py, GptOssAttention).
In that release GptOssPreTrainedModel declares no SDPA support, lists four
compatible flash kernels (kernels-community/vllm-flash-attn3,
flash_attention_4, kernels-community/metal-flash-sdpa and
kernels-community/aiter-flash-attn), and a request for another flash
implementation is switched, with a warning, to the first of them that ships
builds for the current device (modeling_utils.py,
_check_and_adjust_attn_implementation, with the devices of
FLASH_ATTN_KERNEL_DEVICES in modeling_flash_attention_utils.py: the vLLM kernel
and flash_attention_4 on CUDA, metal-flash-sdpa on Apple's MPS, aiter on ROCm),
or to the first listed if none does. (An earlier version said the first listed,
whatever the device.) Its flex
attention path adds the sinks by rescaling with the log-sum-exp and refuses
to run them on a CPU (integrations/flex_attention.py,
flex_attention_forward). transformers' built-in SinkCache is gone: in
4.53.0 its constructor only raises an error saying it "has been moved as a
custom_generate repository on the Hub", and 5.0.0 and 5.24.0 have no
SinkCache at all (cache_utils.py). StreamingLLM now runs through that Hub
repository, transformers-community/sink_cache, whose README says it
matches the SinkCache of transformers before 4.53 (4 sink tokens and a
window of 256 by default): call
`model.generate(..., custom_generate="transformers-community/sink_cache",
trust_remote_code=True)`, which in 5.24 downloads and runs that
repository's custom_generate/generate.py in place of the library's loop
(generation/utils.py, GenerationMixin.generate and load_custom_generate).
A discussion on that repository
([#2](https://huggingface.co/transformers-community/sink_cache/discussions/2))
reports that with transformers 4.52 the query keeps its place in the text
while the cache re-rotates kept keys to their slots: a mix of the two
numberings of the second failure above. A vLLM pull request for StreamingLLM
([#3515](https://github.com/vllm-project/vllm/pull/3515)) was closed
unmerged. `lessons.real_model` measures how much weight a real model puts on
its first token as a prompt grows.

**Go deeper.** Level 2 shows from scratch why the weight has to go
somewhere, what StreamingLLM keeps and how it numbers it, what RoPE scores
look like under both numberings, and that gpt-oss's sink is exactly one more
key with a fixed score and no value, checked against gpt-oss's own attention
code. If you only needed to keep a stream fluent or pick a kernel for
gpt-oss, you can stop here.

## Level 2: how it works, from scratch

## Softmax has to put its weight somewhere

**Everyday picture.** A committee must hand out exactly 100 votes on every
question, even on questions none of the candidates fits. Members soon agree
on a harmless default candidate who collects the votes nobody wants to give.
Remove that candidate and the unwanted votes land on real candidates.

**Tiny worked example.** A query with four keys scores the first token 3 and
the others 0. Softmax gives 0.87 to the first token and 0.043 to each other
key; the four weights add up to 1. If the first token's value is close to
zero, the head outputs almost nothing: parking on it is how a head says
"nothing here". Now evict the first token from the cache. The other scores
have not changed, but softmax shares the whole 1 among them again: 0.333
each, 7.7 times what each had. Why the first token? Under the causal mask
it is the only key every query can see: with six tokens, key 0 is visible to
6 queries, key 5 to one.

**The math.**

$$
w_j = \frac{e^{s_j}}{\sum_k e^{s_k}}, \qquad \sum_j w_j = 1, \qquad
w'_j = \frac{w_j}{1 - w_0} \ \text{ after evicting key } 0
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $s_j$ | the score of key $j$ for this query | 3, 0, 0, 0 |
| $w_j$ | its softmax weight | 0.87, 0.043, ... |
| $w'_j$ | the weight of a kept key after key 0 is evicted | 0.333 |

**In words:** "the weights always add up to one, so removing a key divides
every kept weight by the total the kept keys had."

**With the numbers:** $w_0 = e^3 / (e^3 + 3) = 0.87$, and $1 / (1 - 0.87)$ =
7.7.

**In Python:**

```python
import numpy as np
from lessons.notation import softmax
from lessons.attention_sinks import key_visibility, evicted_weights
w = softmax(np.array([3.0, 0.0, 0.0, 0.0]))
[round(float(x), 3) for x in w]  # → [0.87, 0.043, 0.043, 0.043]
abs(float(w.sum()) - 1) < 1e-12  # → True
[round(float(x), 3) for x in evicted_weights(w, [0])]
# → [0.333, 0.333, 0.333]
round(float(1 / (1 - w[0])), 1)  # → 7.7
key_visibility(6).tolist()  # → [6, 5, 4, 3, 2, 1]
round(1 / (1 - 0.6), 1)  # → 2.5
```

![Two sets of bars over eight keys: with the first token cached it takes 0.6 of the weight and the seven others share the rest; with it evicted the seven others each get 2.5 times their weight](figures/attention_sinks.eviction.svg)

**Reading it:** blue, a head that parks 0.6 of its weight on the first
token; hatched vermillion (orange-red), the same scores once that token is gone. Nothing about
keys 1 to 7 changed, yet each now gets 2.5 times the weight, which is a
different output from the one the model was trained to produce.

**In code:** `key_visibility` counts the queries that see each key;
`evicted_weights` shares the weight out again after an eviction.

**Why it matters.** Xiao et al. (2023, §3.1) report that language models put
a large share of attention on the first tokens whatever they say, and
explain it this way: the weights must add up to one, and the first tokens are
visible to every later token, so training makes them the place to put
surplus weight. By that explanation a window that evicts them fails, which
is what the two remedies on this page address.

## StreamingLLM: keep the first tokens, number the cache

**Everyday picture.** A long meeting's minutes: keep the title page and the
last few pages, throw away the middle, and renumber the pages you kept 1, 2,
3 ... so that the page numbers never run past what the binder can hold.

**Tiny worked example.** The paper's own example (§3.2): four sink tokens,
a window of three, and nine tokens seen. The cache holds tokens 0, 1, 2, 3,
6, 7 and 8. StreamingLLM gives them positions 0 to 6 and the next token
position 7, "positions within the cache rather than those in the original
text". Numbered by the text, the keys would be at 0, 1, 2, 3, 6, 7, 8 and the
query at 9. The query's distances to the kept keys are 7, 6, 5, 4, 3, 2, 1
within the cache and 9, 8, 7, 6, 3, 2, 1 in the text: the recent window is
the same, only the sinks differ, and in the text numbering they drift away
with every token.

```mermaid
flowchart TB
  S["stream: tokens 0 ... 8"] --> K["keep tokens 0-3<br/>(sinks)"]
  S --> E["evict tokens 4, 5"]
  S --> W["keep tokens 6-8<br/>(recent window)"]
  K --> P["cache slots 0-6:<br/>RoPE positions 0-6"]
  W --> P
  P --> Q["next token: position 7"]
```

**Reading it:** the cache is the sinks followed by the recent window, and
RoPE sees only its slot numbers. Whatever has been evicted leaves no gap, so
the query's distance to the first sink is never more than the cache is long.

**The math.** With $C$ the cache (its size $|C| = n_{\text{sink}} + w$ once
full), the key in slot $c$ and the query at slot $|C|$, after $n$ tokens:

$$
\underbrace{|C| - c \le n_{\text{sink}} + w}_{\text{within the cache}}
\qquad \text{versus} \qquad
\underbrace{n - j \le n}_{\text{in the text}}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $n_{\text{sink}}$ | first tokens kept forever | 4 |
| $w$ | recent tokens kept | 3 |
| $c$, $j$ | a kept key's slot in the cache and its place in the text | token 6: slot 4 |
| $n$ | tokens seen; the text position of the next one | 9 |

**In words:** "numbered by slot, every distance stays below the cache size;
numbered by the text, the distance to the sinks grows with the stream."

**With the numbers:** the first sink is $7 - 0 = 7$ back within the cache and
$9 - 0 = 9$ in the text; after a thousand tokens it is still 7 back within
the cache. RoPE scores depend only on distances (`lessons.rope`), so within
the cache every step scores the same kept keys the same way.

**In Python:**

```python
import numpy as np
from lessons.attention_sinks import (
    streaming_kept,
    streaming_positions,
    streaming_distances,
    streaming_scores,
    rerotate,
)
from lessons.rope import apply_rope_half
streaming_kept(9, n_sink=4, window=3).tolist()  # → [0, 1, 2, 3, 6, 7, 8]
keys, query = streaming_positions(9, 4, 3)
keys.tolist(), query  # → ([0, 1, 2, 3, 4, 5, 6], 7)
streaming_distances(9, 4, 3).tolist()  # → [7, 6, 5, 4, 3, 2, 1]
streaming_distances(9, 4, 3, within_cache=False).tolist()
# → [9, 8, 7, 6, 3, 2, 1]
rng = np.random.default_rng(0)
q, K = rng.standard_normal(8), rng.standard_normal((7, 8))
early = streaming_scores(q, K, 9, 4, 3)
late = streaming_scores(q, K, 1000, 4, 3)
float(np.max(np.abs(late - early)))  # → 0.0
text_early = streaming_scores(q, K, 9, 4, 3, within_cache=False)
text_late = streaming_scores(q, K, 1000, 4, 3, within_cache=False)
[round(float(s), 3) for s in text_early[:4]]
# → [-1.272, -0.079, -0.528, 0.985]
[round(float(s), 3) for s in text_late[:4]]
# → [0.406, 0.334, 0.644, -0.146]
# a key stored after rotation (at 100) moved to slot 4: rotate by -96
k = rng.standard_normal((1, 8))
moved = rerotate(apply_rope_half(k, [100]), -96)
bool(np.allclose(moved, apply_rope_half(k, [4])))  # → True
```

![The distance from the next query to the oldest cached key against the number of tokens streamed, for four sinks and a window of sixty: numbered within the cache it climbs to 64 and stays there, at the trained length; numbered by the text it keeps growing past 400](figures/attention_sinks.distances.svg)

**Reading it:** green, StreamingLLM's numbering: the farthest distance grows
until the cache is full and then stays at 64, the length this toy model is
assumed trained on. Vermillion (orange-red) dashes, the text's numbering: the first token is as
far back as the stream is long, soon far beyond anything seen in training.

**In code:** `streaming_kept` lists the tokens a full cache holds;
`streaming_positions` numbers them either way; `streaming_distances` and
`streaming_scores` give the next query's distances and RoPE scores;
`rerotate` moves a key that was stored already rotated.

**Why it matters.** Two details decide whether a streaming cache works:
keep the sinks, and number the cache, not the text. An implementation that
stores rotated keys needs a re-rotation at every eviction; one that stores
keys before rotation, as the StreamingLLM code does, turns every cached key
at every step.

## gpt-oss: a learned sink logit per head

**Everyday picture.** Instead of hoping the committee agrees on a harmless
candidate, the rules add an "abstain" box to every ballot. How popular
abstaining is depends on the member, but the box is always there, and it
elects nobody.

**Tiny worked example.** One head, one query, two keys with scores 1 and 0
and values (1, 0) and (0, 1), and a sink logit of 1. Softmax runs over
three numbers, 1, 0 and 1: 0.422, 0.155 and 0.422. The last one, the sink's,
is thrown away, so the keys' weights add up to 0.578, and the output is
(0.422, 0.155) instead of the (0.731, 0.269) plain attention gives. Add a
third key with score 1, zero key vector and zero value, visible to every
query, and plain attention gives exactly the same output: the sink is that
key. With the same sink logit of 2 and all key scores 0, the sink takes
0.881 of the weight next to one key, 0.316 next to 16 and 0.055 next to 128.

```mermaid
flowchart TB
  S["scores $$q \cdot k_j \cdot \text{scale}$$<br/>(+ mask)"] --> C["append the head's<br/>sink logit $$\sigma_h$$"]
  C --> M["subtract the row's maximum"]
  M --> SM["softmax over<br/>$$n_k + 1$$ entries"]
  SM --> D["drop the last column"]
  D --> O["weights (sum below 1)<br/>times V"]
```

**Reading it:** the steps of eager_attention_forward in transformers 5.24.0
(models/gpt_oss/modeling_gpt_oss.py): the head's `sinks` entry, reshaped and
expanded over the batch and the queries, is concatenated as one more
column of the scaled, masked scores; the row's maximum is subtracted (a
guard against overflow in 16-bit numbers, says its comment); softmax runs;
the sink's column is dropped before the weights multiply V.

**The math.**

$$
w_j = \frac{e^{s_j}}{e^{\sigma_h} + \sum_k e^{s_k}}, \qquad
o = \sum_j w_j v_j = \frac{e^{\sigma_h} \cdot 0 + \sum_j e^{s_j} v_j}{e^{\sigma_h} + \sum_k e^{s_k}}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $s_j$ | the scaled, masked score of key $j$ | 1, 0 |
| $\sigma_h$ | head $h$'s learned sink logit (`sinks`) | 1 |
| $w_j$ | the weight of key $j$; they add up to less than 1 | 0.422, 0.155 |
| $o$ | the head's output | (0.422, 0.155) |

**In words:** "the sink is one more term in the softmax denominator; in the
numerator it multiplies a zero value, so it is a key with a fixed score and
nothing to say."

**With the numbers:** $e^1 / (e^1 + e^0 + e^1) = 2.718 / 6.437 = 0.422$. With
$n$ keys all scoring 0, the sink's share is $1 / (1 + n e^{-\sigma_h})$: the
same logit takes less as more keys compete, which matters in gpt-oss, whose
sliding layers see at most 128 keys and whose full layers see them all.

**At logit 0 it is StreamingLLM's zero sink.** Set $\sigma_h = 0$ and the
denominator becomes $1 + \sum_k e^{s_k}$: SoftMax-off-by-one,
$\operatorname{SoftMax}_1(x)_i = e^{x_i} / (1 + \sum_j e^{x_j})$, which
Xiao et al. (2023, §3.3, eq. 2) pretrain as their "Zero Sink" and call
equivalent to a token with all-zero key and value, the extra key above at
score 0. gpt-oss's sink is that ablation with the fixed 0 replaced by a
logit learned per head (the `sinks` parameter of GptOssAttention,
transformers 5.24.0). Xiao et al. report that the zero sink alone did not
make the first tokens unnecessary (Table 3); whether a learned logit does
is not something they tested.

**In Python:**

```python
import numpy as np
from lessons.attention_sinks import (
    sink_attention,
    sink_as_extra_key,
    sink_share,
    sink_parameter_count,
    _gallery_config,
    _example_qkv,
)
Q, K, V = np.array([[[1.0]]]), np.array([[[1.0], [0.0]]]), np.eye(2)[None]
out, w = sink_attention(Q, K, V, sinks=[1.0])
[round(float(x), 3) for x in w[0, 0]]  # → [0.422, 0.155]
round(float(w.sum()), 3)  # → 0.578
plain, _ = sink_attention(Q, K, V, sinks=[-np.inf])
[round(float(x), 3) for x in plain[0, 0]]  # → [0.731, 0.269]
extra, _ = sink_as_extra_key(Q, K, V, sinks=[1.0])
bool(np.allclose(extra, out))  # → True
Q, K, V = _example_qkv(n_heads=2, seq_len=6, d=4)
a, _ = sink_attention(Q, K, V, [0.5, 2.0], np.tril(np.ones((6, 6), bool)))
b, _ = sink_as_extra_key(Q, K, V, [0.5, 2.0], np.tril(np.ones((6, 6), bool)))
bool(np.allclose(a, b))  # → True
round(float(np.e / (2 * np.e + 1)), 3), round(float(2 * np.e + 1), 3)
# → (0.422, 6.437)
[round(sink_share(2.0, n), 3) for n in (1, 16, 128)]
# → [0.881, 0.316, 0.055]
sink_share(0.0, 1), round(sink_share(np.log(4096), 4096), 3)  # → (0.5, 0.5)
round(float(np.log(4096)), 1)  # → 8.3
sink_parameter_count(_gallery_config("gpt-oss-20b"))  # → 1536
# sink logit 0 = SoftMax-off-by-one (StreamingLLM's "Zero Sink")
from lessons.attention_sinks import softmax_off_by_one
_, w0 = sink_attention(Q, K, V, [0.0, 0.0])
bool(np.allclose(w0, softmax_off_by_one(Q @ K.swapaxes(1, 2) / 2)))
# → True
softmax_off_by_one([0.0]).tolist(), bool(np.all(w0.sum(-1) < 1))
# → ([0.5], True)
```

![The weight a sink takes against its logit, with every key scoring 0, for 1, 16, 128 and 4,096 keys in view: four S-shaped curves, each further right as the number of keys grows](figures/attention_sinks.sink_share.svg)

**Reading it:** each curve is one number of competing keys. A logit of 0
next to one key takes half the weight; next to 4,096 keys the same logit
takes almost nothing, and the sink needs a logit near $\ln 4096 \approx 8.3$ to
take half. A head trained with sinks in a 128-key window and in a full layer
meets both regimes.

**In code:** `sink_attention` is gpt-oss's attention in numpy (grouped
key-value heads included); `sink_as_extra_key` builds the same thing as
plain attention with one more key; `sink_share` is the closed form for equal
scores; `softmax_off_by_one` is StreamingLLM's zero sink, which
`sink_attention` gives at logit 0; `sink_parameter_count` counts the logits
in a config.
tests/test_attention_sinks.py checks `sink_attention` against
eager_attention_forward from transformers 5.24.0, run on a GptOssAttention
with known sinks, with a causal and a sliding-window mask built by
transformers' own masking functions, to 1e-6 (float32).

**Why it matters.** A learned sink is what the first-token habit becomes
when it is designed in: the weight has a place to go that no cache policy can
evict, and a head can attend to nothing. The price is that it is a change to
the softmax itself, so every kernel that serves the model has to implement
it, forward and, for training, backward.

## One window, two conventions

**Everyday picture.** "Look at the last four houses": does that include your
own? Two neighbours who answer differently will disagree about one house,
every time.

**Tiny worked example.** A window of 4 in a Hugging Face config lets query 9
see keys 6, 7, 8 and 9: four keys, its own included (`causal_window_mask`).
FlashAttention's `window_size` = (left, right) lets query $i$ see keys $i -
\text{left}$ to $i + \text{right}$, so the same window is (3, 0)
(`flash_window_size`). Passed (4, 0), it lets query 9 see key 5 as well:
five keys. The first four queries see at most four keys either way and get
identical outputs; every later one differs.

**Whose count?** The right mask is the one the model was trained with, and
sources differ. gpt-oss's reference code masks every key $j \le i - W$
(openai/gpt-oss, gpt_oss/torch/model.py, sdpa): $W$ keys, the count of
transformers. Mistral 7B's paper lets position $i$ attend to positions
$i - W$ to $i$ (Jiang et al., 2023, §2): $W + 1$ keys, the (4, 0) mask
above, although its Figure 1 caption says "at most W tokens". Mistral's
reference code does both: reading a prompt it builds the band
$i - W \le j \le i$ (mistralai/mistral-inference, one_file_ref.py as
stored at commit c18d5b9, Transformer.forward), and generating it keeps a
rolling cache of $W$ slots, so $W$ keys, its own included
(Attention.forward). transformers gives Mistral 7B's `sliding_window` of
4,096 exactly 4,096 keys. "One key more than the model expects" therefore
holds for gpt-oss by its authors' own code; for Mistral 7B it depends on
which of its authors' two counts you take.

**In Python:**

```python
import numpy as np
from lessons.attention_sinks import (
    causal_window_mask,
    flash_window_size,
    flash_window_mask,
    sink_attention,
    _gallery_config,
)
causal_window_mask(12, 4)[9].nonzero()[0].tolist()  # → [6, 7, 8, 9]
flash_window_size(4), flash_window_size(128)  # → ((3, 0), (127, 0))
right = flash_window_mask(12, flash_window_size(4))
bool(np.array_equal(right, causal_window_mask(12, 4)))  # → True
wide = flash_window_mask(12, (4, 0))
wide[9].nonzero()[0].tolist()  # → [5, 6, 7, 8, 9]
# Mistral's prefill band: torch.triu(causal, diagonal=-W) in numpy
band = np.triu(np.tril(np.ones((12, 12), bool)), -4)
bool(np.array_equal(band, wide))  # → True
_gallery_config("mistral-7b")["sliding_window"]  # → 4096
Q, K, V = np.random.default_rng(0).standard_normal((3, 4, 12, 8))
sinks = np.array([-1.0, 0.0, 1.5, 3.0])
a, _ = sink_attention(Q, K, V, sinks, causal_window_mask(12, 4))
b, _ = sink_attention(Q, K, V, sinks, wide)
float(np.max(np.abs(a[:, :4] - b[:, :4])))  # → 0.0
round(float(np.max(np.abs(a - b))), 2)  # → 0.88
```

**In code:** `causal_window_mask` is transformers' meaning of
`sliding_window` (masking_utils.py, sliding_window_overlay: key $j$ is kept
when $j > i - w$), checked against that function's own mask in
tests/test_attention_sinks.py; `flash_window_size` converts it the way
transformers 5.24.0 does for FlashAttention
(modeling_flash_attention_utils.py, _process_flash_attention_kwargs, which
passes $(w - 1, w - 1)$ with `causal` on, so the right side is cut to 0);
`flash_window_mask` is what a (left, right) window lets through, and with
$(W, 0)$ it is the $W + 1$ band of Mistral's paper.

**Why it matters.** The error is one key, only for queries past the window,
and only on the engine with the other convention: short tests pass, and long
prompts drift. In gpt-oss it happens in every sliding layer, where the sink
competes with the window's keys. Which side is wrong is set by the model's
training code, not by any one library.

## In 20 seconds

- Softmax weights add up to 1, so a head always puts its weight somewhere;
  trained models park surplus weight on the first tokens, which every query
  can see.
- Evicting those tokens shares their weight among the rest and breaks the
  model; StreamingLLM keeps the first few plus a recent window and numbers
  positions by cache slot, so no distance exceeds the cache.
- gpt-oss gives each head a learned sink logit: one more term in the softmax
  denominator, equal to an always-visible key with a fixed score and no
  value (checked against its transformers code).
- Every kernel serving gpt-oss must add that term, and must agree on what a
  window of $w$ means: in transformers' count, which is gpt-oss's,
  `sliding_window` $w$ is FlashAttention's $(w - 1, 0)$; Mistral 7B's paper
  counts $w + 1$ positions.
- At logit 0 the learned sink is SoftMax-off-by-one, the "Zero Sink" that
  StreamingLLM's authors pretrained (§3.3).

## Self-test questions

??? question "A head's weights are 0.5 on the first token and 0.125 on each of four other keys. The first token is evicted. What are the new weights?"
    0.25 each: the four weights add up to 0.5 and are divided by it, so each
    doubles.

??? question "StreamingLLM keeps 4 sinks and a window of 1,020 tokens. After 10,000 tokens, what position does the next token get, and how far back is the first sink?"
    Numbered within the cache, the cache holds 1,024 tokens at positions 0
    to 1,023, the next token is at 1,024, and the first sink is 1,024 back.
    Numbered by the text, it would be 10,000 back.

??? question "gpt-oss's head has a sink logit of 0 and sees a single key with score 0. What weight does that key get, and what would plain attention give it?"
    $e^0 / (e^0 + e^0) = 0.5$ with the sink; plain attention gives the only
    key a weight of 1.

??? question "A config says sliding_window 4096. What window_size should a FlashAttention call get?"
    (4095, 0) if the window counts the query itself, as transformers and
    gpt-oss's reference code count it: FlashAttention counts only the keys
    to the left. Mistral 7B v0.1's config says 4096 too, and its paper's
    text (positions $i - 4096$ to $i$) would give (4096, 0): check which
    count the model was trained with.

## The papers behind this lesson

- Xiao, Tian, Chen, Han and Lewis (2023), *Efficient Streaming Language
  Models with Attention Sinks*,
  [arXiv:2309.17453](https://arxiv.org/abs/2309.17453). Named the attention
  sink (§3.1), introduced the rolling cache of sink tokens plus a recent
  window with positions inside the cache (§3.2), and pretraining with a
  dedicated sink token, compared with SoftMax-off-by-one, their "Zero
  Sink" (§3.3).
- Jiang et al. (2023), *Mistral 7B*,
  [arXiv:2310.06825](https://arxiv.org/abs/2310.06825). Sliding-window
  attention over positions $i - W$ to $i$ and a rolling cache of $W$ slots
  (§2): the $W + 1$ count of the last section.
- Beltagy, Peters and Cohan (2020), *Longformer: The Long-Document
  Transformer*, [arXiv:2004.05150](https://arxiv.org/abs/2004.05150).
  Sliding-window attention, whose window the last section counts.

## Further reading

- The gpt-oss attention in transformers (models/gpt_oss/modeling_gpt_oss.py,
  eager_attention_forward): the sink in six lines.
- The StreamingLLM code (the mit-han-lab/streaming-llm repository on GitHub),
  whose cache keeps keys before rotation, and the Hub repository
  transformers-community/sink_cache, StreamingLLM for transformers since
  4.53.
- Evan Miller (2023), *Attention Is Off By One*
  (https://www.evanmiller.org/attention-is-off-by-one.html): the
  SoftMax-off-by-one proposal that StreamingLLM's zero sink tests.
- `lessons.real_model` for the weight a real model puts on its first token at
  growing lengths, and `lessons.alibi` for sliding windows next to other
  position schemes.
"""

from __future__ import annotations

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, GRID, MUTED, ORANGE, RED
from lessons._show import banner, gap_text, say, table, takeaway
from lessons.attention import scaled_dot_product_attention
from lessons.context_extension import _gallery_config
from lessons.notation import softmax
from lessons.rope import apply_rope_half

# ---------------------------------------------------------------------------
# 1. Softmax has to put its weight somewhere: the first token as a sink
# ---------------------------------------------------------------------------


def key_visibility(seq_len: int) -> np.ndarray:
    """How many queries may attend each key under the causal mask, shape (seq_len,).

    Key j is seen by queries j, j + 1, ..., seq_len − 1: seq_len − j of them.
    Only key 0, the first token, is seen by every query.
    """
    seq_len = _checks.count(seq_len, "seq_len")
    return seq_len - np.arange(seq_len)


def evicted_weights(weights, evicted) -> np.ndarray:
    """A query's weights after some keys leave the cache, shape (n_keys − len(evicted),).

    weights: (n_keys,) softmax weights that sum to 1; evicted: indices of the
    keys dropped. The scores of the others do not change, so softmax shares the
    whole 1 among them again: each kept weight is divided by the kept total.
    """
    w = _checks.vector(weights, "weights")
    keep = np.setdiff1d(np.arange(w.size), np.asarray(evicted, dtype=int))
    if keep.size == 0:
        raise ValueError("evicted must leave at least one key: softmax needs something to weight")
    return w[keep] / w[keep].sum()


# ---------------------------------------------------------------------------
# 2. StreamingLLM: keep the first tokens and a recent window, renumber the cache
# ---------------------------------------------------------------------------


def streaming_kept(n_seen: int, n_sink: int, window: int) -> np.ndarray:
    """Original indices of the tokens a StreamingLLM cache holds after n_seen tokens, ascending.

    The first n_sink tokens stay forever; of the rest, only the last `window`.
    Until n_seen exceeds n_sink + window nothing is dropped.
    """
    n_seen = _checks.count(n_seen, "n_seen")
    n_sink = _checks.count(n_sink, "n_sink", low=0)
    window = _checks.count(window, "window")
    if n_seen <= n_sink + window:
        return np.arange(n_seen)
    return np.concatenate([np.arange(n_sink), np.arange(n_seen - window, n_seen)])


def streaming_positions(n_seen: int, n_sink: int, window: int, within_cache: bool = True) -> tuple[np.ndarray, int]:
    """Positions RoPE gives the cached keys, and the position of the next query.

    within_cache=True (StreamingLLM, §3.2 of its paper): the slots of the cache,
    0, 1, ..., len(cache) − 1, and the query gets len(cache). False: the tokens'
    places in the original text, and the query gets n_seen.
    """
    kept = streaming_kept(n_seen, n_sink, window)
    if within_cache:
        return np.arange(kept.size), int(kept.size)
    return kept, int(n_seen)


def streaming_distances(n_seen: int, n_sink: int, window: int, within_cache: bool = True) -> np.ndarray:
    """How far back the next query sees each cached key (query position − key position), shape (len(cache),)."""
    keys, query = streaming_positions(n_seen, n_sink, window, within_cache)
    return query - keys


def streaming_scores(q, K, n_seen: int, n_sink: int, window: int, within_cache: bool = True,
                     base: float = 10000.0) -> np.ndarray:
    """RoPE scores of the next query against a StreamingLLM cache, shape (len(cache),).

    q: (d,) the new token's query before rotation; K: (len(cache), d) the cached
    keys before rotation (StreamingLLM keeps keys unrotated and turns them at
    each step, §3.2). Both are turned to the positions `streaming_positions`
    assigns, then scored q·k / √d.
    """
    q, K = _checks.vector(q, "q"), _checks.matrix(K, "K")
    keys, query = streaming_positions(n_seen, n_sink, window, within_cache)
    if K.shape != (keys.size, q.size):
        raise ValueError(f"K must be (cache size {keys.size}, d {q.size}); got shape {K.shape}")
    q_rot = apply_rope_half(q[None, :], [query], base)[0]  # (d,)
    K_rot = apply_rope_half(K, keys, base)  # (cache, d)
    return K_rot @ q_rot / np.sqrt(q.size)


def rerotate(k_rotated, shift, base: float = 10000.0) -> np.ndarray:
    """Move RoPE-rotated keys by `shift` positions without the unrotated key, shape like k_rotated.

    k_rotated: (n, d) keys already turned to their positions; shift: a number
    or (n,) numbers (negative moves a key back). Rotations add up, so turning
    a key rotated at p by s gives the key rotated at p + s: how a cache that
    stores rotated keys renumbers them (transformers' former SinkCache did this).
    """
    k_rotated = _checks.matrix(k_rotated, "k_rotated")
    shift = np.broadcast_to(np.asarray(shift, dtype=float), (k_rotated.shape[0],))
    return apply_rope_half(k_rotated, shift, base)


# ---------------------------------------------------------------------------
# 3. gpt-oss: one learned sink logit per head
# ---------------------------------------------------------------------------


def sink_attention(Q, K, V, sinks, mask=None, scaling: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Attention with a learned sink logit per head, as gpt-oss computes it.

    Q: (H, n_q, d) queries; K, V: (H_kv, n_k, d) keys and values, H a multiple
    of H_kv (grouped-query: query head h reads key head h // (H / H_kv));
    sinks: (H,) one logit per head (−inf: no sink); mask: boolean (n_q, n_k), True = allowed,
    or None; scaling: the score scale, 1/√d by default.

    Each row of scores gets one more entry, the head's sink logit; softmax runs
    over the row, the sink's weight is dropped, and the other weights (which
    now add up to less than 1) multiply V. Returns out (H, n_q, d) and the
    weights (H, n_q, n_k) without the sink column.
    """
    Q, K, V = (_checks.array(a, name, 3) for a, name in ((Q, "Q"), (K, "K"), (V, "V")))
    n_heads, n_kv = Q.shape[0], K.shape[0]
    if n_heads % n_kv or V.shape[0] != n_kv:
        raise ValueError(f"Q's heads ({n_heads}) must be a multiple of K's and V's ({K.shape[0]}, {V.shape[0]})")
    sinks = np.asarray(sinks, dtype=float)  # −inf allowed: a head with no sink
    if sinks.shape != (n_heads,) or np.any(np.isnan(sinks) | (sinks == np.inf)):
        raise ValueError(f"sinks needs one logit (or −inf) per query head ({n_heads}); got {sinks!r}")
    K, V = np.repeat(K, n_heads // n_kv, axis=0), np.repeat(V, n_heads // n_kv, axis=0)  # (H, n_k, d)
    scale = 1 / np.sqrt(Q.shape[-1]) if scaling is None else scaling
    scores = Q @ np.swapaxes(K, -1, -2) * scale  # (H, n_q, n_k)
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    column = np.broadcast_to(sinks[:, None, None], scores.shape[:-1] + (1,))  # (H, n_q, 1)
    weights = softmax(np.concatenate([scores, column], axis=-1))[..., :-1]  # drop the sink's share
    return weights @ V, weights


def sink_as_extra_key(Q, K, V, sinks, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """The same attention as `sink_attention`, built as one extra key per head.

    The extra key is a zero vector (so q·k = 0) with the sink logit added as a
    bias, so its score is the sink whatever the query; its value is a zero
    vector, so it adds nothing to the output; and every query may see it.
    Q, K, V: (H, n, d) with as many key heads as query heads. Returns out and
    the weights of the real keys, as `sink_attention` does.
    """
    Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
    n_heads, n_q, n_k = Q.shape[0], Q.shape[1], K.shape[1]
    K_plus = np.concatenate([K, np.zeros((n_heads, 1, K.shape[-1]))], axis=1)  # (H, n_k + 1, d): q·0 = 0
    V_plus = np.concatenate([V, np.zeros((n_heads, 1, V.shape[-1]))], axis=1)  # (H, n_k + 1, d_v): no value
    bias = np.zeros((n_heads, n_q, n_k + 1))
    bias[..., -1] = np.asarray(sinks, dtype=float)[:, None]  # the sink key's score is the logit itself
    allowed = np.ones((n_q, n_k + 1), dtype=bool)
    if mask is not None:
        allowed[:, :-1] = np.asarray(mask, dtype=bool)
    out, weights = scaled_dot_product_attention(Q, K_plus, V_plus, mask=allowed, bias=bias)
    return out, weights[..., :-1]


def sink_share(sink: float, n_keys: int, score: float = 0.0) -> float:
    """The weight the sink takes from a query whose n_keys scores all equal `score`: e^s / (e^s + n·e^x)."""
    n_keys = _checks.count(n_keys, "n_keys")
    return float(1.0 / (1.0 + n_keys * np.exp(score - sink)))


def softmax_off_by_one(scores) -> np.ndarray:
    """SoftMax-off-by-one along the last axis: e^(x_i) / (1 + Σ_j e^(x_j)), shape like scores.

    StreamingLLM's "Zero Sink" (Xiao et al., 2023, §3.3, eq. 2): a fixed
    extra logit 0 in every denominator, so the weights add up to less than 1;
    gpt-oss's sink with σ_h = 0. scores: any shape, −inf allowed (weight 0).
    """
    s = np.asarray(scores, dtype=float)
    top = np.maximum(s.max(axis=-1, keepdims=True), 0.0)  # the extra logit 0 joins the max
    e = np.exp(s - top)  # e^(x_j − top)
    return e / (np.exp(-top) + e.sum(axis=-1, keepdims=True))  # 1 becomes e^(0 − top)


def causal_window_mask(seq_len: int, window: int) -> np.ndarray:
    """(seq_len, seq_len) boolean: query i may see key j when i − window < j <= i.

    transformers' meaning of a config's sliding_window (masking_utils.py,
    sliding_window_overlay): `window` keys in all, the query's own included.
    """
    seq_len, window = _checks.count(seq_len, "seq_len"), _checks.count(window, "window")
    i, j = np.indices((seq_len, seq_len))
    return (j <= i) & (j > i - window)


def flash_window_size(sliding_window: int) -> tuple[int, int]:
    """FlashAttention's window_size for a config's sliding_window: (sliding_window − 1, 0).

    FlashAttention counts keys to the left of the query, not the query itself:
    (left, 0) lets query i see keys i − left to i, left + 1 of them.
    transformers 5.24 passes sliding_window − 1 (_process_flash_attention_kwargs).
    """
    return (_checks.count(sliding_window, "sliding_window") - 1, 0)


def flash_window_mask(seq_len: int, window_size: tuple[int, int]) -> np.ndarray:
    """(seq_len, seq_len) boolean: what FlashAttention's (left, 0) window lets each query see: i − left <= j <= i."""
    left = _checks.count(window_size[0], "window_size[0]", low=0)
    i, j = np.indices((_checks.count(seq_len, "seq_len"), seq_len))
    return (j <= i + window_size[1]) & (j >= i - left) & (j <= i)


def sink_parameter_count(config: dict) -> int:
    """How many learned sink logits a gpt-oss config implies: one per query head in every layer."""
    return int(config["num_attention_heads"]) * int(config["num_hidden_layers"])


def _example_qkv(n_heads: int = 2, seq_len: int = 6, d: int = 4, seed: int = 0):
    """Random (H, n, d) queries, keys and values for the page's checks."""
    return np.random.default_rng(seed).standard_normal((3, n_heads, seq_len, d))


# ---------------------------------------------------------------------------
# 4. Figures (figures_build turns each into docs/figures/attention_sinks.<name>.svg)
# ---------------------------------------------------------------------------


def figures() -> dict:
    """The page's three figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    figs = {}
    weights = np.array([0.6] + [0.4 / 7] * 7)  # a head that parks 0.6 on the first token
    after = evicted_weights(weights, [0])
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    x = np.arange(8)
    ax.bar(x - 0.2, weights, 0.4, color=BLUE, label="all 8 keys cached")
    ax.bar(x[1:] + 0.2, after, 0.4, color=RED, hatch="//", label="first token evicted")
    ax.set(xlabel="key (0 = the first token)", ylabel="attention weight", xticks=x,
           title="Evicting the sink: its weight spreads over the rest")
    ax.legend(frameon=False)
    figs["eviction"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    n_sink, window, trained = 4, 60, 64
    seen = np.arange(1, 401)
    for within, color, dash, label in ((True, GREEN, "-", "positions within the cache (StreamingLLM)"),
                                       (False, RED, "--", "positions in the original text")):
        far = [streaming_distances(int(n), n_sink, window, within).max() for n in seen]
        ax.plot(seen, far, color=color, ls=dash, lw=1.8, label=label)
    ax.axhline(trained, color=GRID, lw=0.8)
    ax.annotate(f"trained length {trained}", (300, trained), xytext=(300, trained + 25), color=GRID)
    ax.set(xlabel="tokens streamed so far", ylabel="distance to the oldest key",
           title=f"{n_sink} sink tokens + a window of {window}")
    fig.legend(loc="outside lower center", frameon=False)
    figs["distances"] = fig

    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    logits = np.linspace(-4, 8, 121)
    for n_keys, color, dash in ((1, ORANGE, ":"), (16, BLUE, "-"), (128, GREEN, "--"), (4096, MUTED, "-.")):
        ax.plot(logits, [sink_share(s, n_keys) for s in logits], color=color, ls=dash, lw=1.8,
                label=f"{n_keys:,} key{'s' if n_keys > 1 else ''}")
    ax.set(xlabel="sink logit (key scores all 0)", ylabel="weight the sink takes",
           title="One logit, less share as more keys compete")
    ax.legend(frameon=False, title="keys in view")
    figs["sink_share"] = fig
    return figs


# ---------------------------------------------------------------------------
# 5. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. The first token is the only key every query sees")
    say(f"Causal mask, 6 tokens: queries that see each key {key_visibility(6).tolist()}.")
    after = evicted_weights([0.6, 0.1, 0.1, 0.1, 0.1], [0])
    say(f"A head with weights 0.6, 0.1 x 4 loses its first token: the rest become {np.round(after, 3).tolist()}.")

    banner("2. StreamingLLM: 2 sinks + a window of 3, after 10 tokens")
    table(["positions", "cached keys", "query", "distances"],
          [(name, streaming_positions(10, 2, 3, within)[0].tolist(), streaming_positions(10, 2, 3, within)[1],
            streaming_distances(10, 2, 3, within).tolist())
           for name, within in (("within the cache", True), ("original text", False))])
    takeaway("Renumbered, no distance exceeds the cache size, however long the stream.")

    banner("3. gpt-oss's learned sink")
    Q, K, V = _example_qkv()
    sinks = np.array([0.5, 2.0])
    out, w = sink_attention(Q, K, V, sinks)
    out2, _ = sink_as_extra_key(Q, K, V, sinks)
    say(f"Weight left for the real keys at the last query: {np.round(w[:, -1].sum(-1), 3).tolist()} per head; "
        f"as an extra key with no value: largest difference {gap_text(np.max(np.abs(out - out2)))}.")
    cfg = _gallery_config("gpt-oss-20b")
    say(f"gpt-oss-20b: {sink_parameter_count(cfg):,} sink logits ({cfg['num_attention_heads']} heads x "
        f"{cfg['num_hidden_layers']} layers); sliding_window {cfg['sliding_window']} is FlashAttention's "
        f"window_size {flash_window_size(cfg['sliding_window'])}.")


if __name__ == "__main__":
    demo()
