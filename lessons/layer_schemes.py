r"""
# Not every layer is the same: position schemes in today's models

Run it: `python -m lessons.layer_schemes` (a narrated walkthrough in the terminal).
Builds on `lessons.rope` (the rotation and its two layouts), `lessons.alibi`
(NoPE, and what the causal mask tells a layer) and `lessons.context_extension`
(the speeds `rope_inv_freq` computes and the scaling rules); `lessons.model_card`
then reads all of this from a config.

## Level 1: the practitioner's guide

<div class="primer-explorable" data-explorable="layers" markdown="0"></div>

**In one sentence.** Recent models do not use one position scheme throughout:
some layers rotate and some do not (Llama 4, SmolLM3, Command R7B); many
alternate local and global layers, some giving the two kinds different bases
(Gemma 3, Gemma 4, MiMo-V2-Flash) and some scaling the global ones alone
(Gemma 3, OLMo 3), while Gemma 2 keeps one base and gpt-oss one YaRN block for
every layer; some multiply the query by a temperature that grows
with position (Llama 4 on its NoPE layers, Ministral 3 and Mistral 4 on every
layer); many rotate only part of each head, in one of three incompatible
pairings; and DeepSeek's latent attention rotates a separate 64-wide slice so
that it can cache a compressed key.

**Try it:** the explorable above draws one model's layers for a prompt of
the length you choose, each bar as tall as the number of tokens the prompt's
last token attends to in that layer. Pick Llama 4 Scout and move the length
from 7,943 to 10,000 tokens: its chunked layers start a new chunk at 8,192
and see only the 1,808 tokens since, while its 12 NoPE layers still see all
10,000; in gpt-oss-20b the sliding layers never see more than 128.

![Seven models' layers side by side as bars: Llama 4 Scout, SmolLM3 and Command R7B leave every fourth layer without positions; Gemma 3 has short local layers with a tall global one every sixth; Gemma 2 and gpt-oss alternate short and tall; Mistral 7B v0.1's layers are all short](figures/layer_schemes.layer_map.svg)

**Reading it:** each bar is one layer, blue if it rotates its queries and
keys and vermillion (orange-red) cross-hatched if it has no position code at all; a tall bar
reads the whole context, a short one only its window or chunk. The plans
differ from model to model (Gemma 2's is not Gemma 3's), and a model's
config, not its family name, says which one it has. That is the check of *How
to choose*: an engine must give each layer its own plan, with the scaling
block only on the layers the model's code puts it on (*Scaling leaking into
the local layers*, *RoPE in a NoPE layer*, below).

**When you need it.** When you serve, convert or port one of these models (a new
engine, a GGUF or MLX conversion, a custom kernel), or set a context-scaling
block by hand. The symptom of a mistake here is rarely a crash: the model stays
fluent at short prompts and drifts as the prompt grows, or answers slightly worse
everywhere. Each mistake below lets a model load and run; each links the thread
where it was reported or fixed, or says that the searches found none.

**Your options.**

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| NoPE every fourth layer | Those layers skip RoPE and see the whole context | Layers whose behaviour does not depend on trained angle ranges | A per-layer list to read the right way round | `no_rope_layers`, `no_rope_layer_interval` (Llama 4, SmolLM3) |
| Query temperature on NoPE layers | Multiplies the query by a factor that grows with position | Sharper attention over very long contexts | One more position-dependent number to reproduce exactly; engines disagree on when it is on | `attn_temperature_tuning`, `floor_scale`, `attn_scale` (Llama 4); in vLLM the generation config or `--max-model-len` above 32,768 |
| Query temperature on every layer | Multiplies every layer's query, rotated ones included, by a factor that grows from the trained length on | The same sharpening in a model without NoPE layers | A key vLLM reads only from Mistral's own params.json | `llama_4_scaling_beta`, `original_max_position_embeddings` in `rope_parameters` (Ministral 3, Mistral 4) |
| Chunked RoPE layers | RoPE layers attend only within fixed chunks | Cheap RoPE layers that never meet a long distance | The NoPE layers alone carry long-range reading | `attention_chunk_size` (Llama 4) |
| RoPE only on local layers | Sliding-window layers rotate; global layers do not | Global layers free of angles | A per-layer-type rule in the model code | Cohere2 (`sliding_window`, `sliding_window_pattern`) |
| Two bases | Local layers keep a small base, global layers a large one and the scaling | Sharp local order and slow global angles | Two rotary tables; scaling must reach only the global ones | `rope_local_base_freq`, `rope_theta`, `sliding_window` (Gemma 3); `rope_parameters` per layer type (Gemma 4, MiMo-V2-Flash; OLMo 3 keeps one base and scales only its global layers) |
| Partial rotary | Only part of each head turns | Dimensions that carry content with no position | Three incompatible pairings to get right | `partial_rotary_factor`, `rotary_pct`, `rotary_dim` |
| Decoupled RoPE (MLA) | A separate rotated slice beside a compressed latent | A cache of 576 numbers per token and layer in DeepSeek-V3 | A second query and key path | `qk_rope_head_dim`, `kv_lora_rank` (DeepSeek-V2, V3) |

**How to choose.**

- You serve a model: nothing to choose, but check that your engine reproduces
  each layer's plan. Compare the per-layer table of `lessons.model_card`'s
  decoder with your engine's log or code.
- You compare two engines on one model: neither one is the judge. transformers
  5.24, vLLM 0.33.0 and llama.cpp differ on when Llama 4's temperature is on and
  which position it counts, and vLLM reads Mistral's `llama_4_scaling_beta` only
  from Mistral's own params.json. Level 2's table says who does what.
- You convert a checkpoint: read which pairing the source code uses for its
  rotated part, and whether the rotation covers the whole head, before you
  write a single weight.
- You extend the context: put the scaling block only where the model's code puts
  it. In Gemma 3 and OLMo 3 that is the global layers only; ModernBERT's config
  class sends it to both kinds (Level 2's table, from transformers 5.24).
- You design a model: the schemes on this page are what the current open models
  chose; this page explains what each does, not which one wins.

**What it costs.** A NoPE layer costs nothing, and its query temperature one
multiply per query. Partial rotary turns fewer dimensions, so it does less work
than full RoPE. MLA's decoupled RoPE adds a 64-wide rotated query per head and one
rotated key shared by all heads, but the cache per token and layer falls from 40,960 numbers (keys and values of 128
heads) to 576, a factor of 71.1 at DeepSeek-V3's widths (deepseek-ai/DeepSeek-V3
config.json: `kv_lora_rank` 512, `qk_rope_head_dim` 64, `qk_nope_head_dim` 128,
`v_head_dim` 128, `num_attention_heads` 128, `num_hidden_layers` 61). In bf16
over its 61 layers that is 70,272 bytes per token.

**What breaks.**

- **Scaling leaking into the local layers.** Gemma 3's `rope_scaling` (linear,
  factor 8 in google/gemma-3-4b-it) belongs to its global layers only; its
  sliding layers use plain RoPE with base 10,000. An engine that applies the
  block everywhere makes each local layer read a token 8 positions back as
  if it were the previous token. vLLM fixed exactly this regression for Gemma 3
  ([vllm-project/vllm#29111](https://github.com/vllm-project/vllm/pull/29111));
  llama.cpp users reported the two structures disagreeing
  ([ggml-org/llama.cpp#14367](https://github.com/ggml-org/llama.cpp/issues/14367)),
  and the converse, global layers left unscaled, was reported with a fix for
  mlx-vlm that was closed without merging
  ([Blaizzy/mlx-vlm#1709](https://github.com/Blaizzy/mlx-vlm/pull/1709); no merged
  fix found there) and fixed in mlxcel
  ([lablup/mlxcel#1386](https://github.com/lablup/mlxcel/pull/1386)). Fix:
  one rotary table per layer type, scaling only where the reference code puts it.
- **Partial rotary read as full rotary.** GLM's config classes fill in
  `partial_rotary_factor` 0.5 even when the config.json does not say it
  (transformers 5.24 configuration_glm.py, configuration_glm4.py,
  configuration_glm4_moe.py); an engine that rotates the whole
  head rotates twice the dimensions
  ([ml-explore/mlx-lm#1698](https://github.com/ml-explore/mlx-lm/pull/1698)).
  Fix: read the factor through the model's own config class.
- **Right speeds, wrong partners.** The three pairings of a partial rotary head
  turn different dimensions together; a kernel with the right cos and sin but
  the wrong partners gives wrong scores. Reported for Gemma 4's proportional
  layout against a contiguous kernel
  ([apple/coreai-models#66](https://github.com/apple/coreai-models/issues/66)),
  and for speeds computed over the head width instead of the rotary width
  ([pie-project/pie#603](https://github.com/pie-project/pie/pull/603)). The
  family name does not settle it: GLM-4 interleaves, GLM-4.5 (glm4_moe) splits
  halves (no thread found). Fix: compare the rotated q and k (not only the
  cos/sin table) with the family's own code.
- **The rotated slice's layout.** DeepSeek-V3 checkpoints pair the rotated slice
  interleaved; transformers 5.24 rotates it with a function that writes the
  result de-interleaved, which is harmless because q and k move alike; the
  maintainers explain how DeepSeek's own code, its remote code and transformers
  each handle the layout and why they agree up to rounding
  ([huggingface/transformers#39687](https://github.com/huggingface/transformers/issues/39687)).
  Fix: convert the weights and the rotation together, never one of them.
- **RoPE in a NoPE layer.** A backend that rotates every layer rotates Llama 4's
  NoPE layers too; TensorRT-LLM's first Llama 4 support had to add a way to skip
  it ([NVIDIA/TensorRT-LLM#3382](https://github.com/NVIDIA/TensorRT-LLM/pull/3382)).
  Fix: read `no_rope_layers` as transformers does (1 means the layer uses RoPE).
- **A temperature that counts other positions.** transformers 5.24 computes
  Llama 4's temperature from the cache length plus the token's index
  (Llama4TextAttention.forward), so a row of a left-padded batch reaches each
  step as many tokens early as it has padding; vLLM 0.33.0 and llama.cpp count
  position ids (models/llama4.py; src/llama-graph.cpp). Below position 8,191
  every count gives exactly 1, so a short test cannot tell them apart (no thread
  found). Fix: test past 8,191 tokens, with padding.
- **A temperature the server leaves off.** vLLM 0.33.0 applies Llama 4's
  temperature only when the generation config says so or `--max-model-len` is
  above 32,768 ([vllm-project/vllm#16439](https://github.com/vllm-project/vllm/pull/16439));
  llama.cpp always does. transformers 5.24 does whenever a config it accepts has
  `attn_temperature_tuning` true or absent; Scout's published 4 is not one of
  them (Llama4TextConfig raises "expected bool"), so the file must be edited to
  load at all, and setting the key to true keeps the temperature. At
  `--max-model-len` 32,768 the queries at positions 8,191 to 32,767 get 1 in vLLM
  and up to 1.1609 in transformers with the key true. Fix: set the switch
  (`--override-generation-config '{"attn_temperature_tuning": true}'`) and say
  which rule you compare against.
- **Mistral's multiplier dropped.** Ministral 3 and Mistral 4 keep
  `llama_4_scaling_beta` in `rope_parameters`, where transformers 5.24 reads it;
  vLLM 0.33.0 reads the multiplier only from the "llama_4_scaling" block of a
  Mistral-format params.json (transformers_utils/configs/mistral.py), the format
  `--config-format auto` picks when the repository holds consolidated weights.
  Served from a config.json alone, every query keeps 1 where transformers puts
  1.0693 from position 16,384 on (read in the source, not run; no thread found).
  Fix: serve the Mistral-format files, or compare the query past 16,384 tokens.

**In the wild.** Llama 4 Scout: 12 NoPE layers of 48, RoPE layers in chunks of
`attention_chunk_size` 8,192, temperature `floor_scale` 8,192 and `attn_scale`
0.1, and `attn_temperature_tuning` 4 (its config.json, as recorded in
lessons/gallery/llama-4-scout.json): 4 is what transformers' class defaulted to
at the release ([huggingface/transformers#37479](https://github.com/huggingface/transformers/issues/37479)),
and transformers 5.24's Llama4TextConfig now refuses it, expecting true or false:
5.24 cannot load that config.json as published. Edit the key to true (the
temperature on) or false before loading; removing it also gives true.
Meta's Llama 4 blog reports the design (iRoPE): interleaved attention layers
without positional embeddings, and temperature scaling of attention at inference time.
SmolLM3-3B: 9 NoPE layers of 36, no window (its config.json's `no_rope_layers`).
Command R7B: RoPE only on its 24 sliding layers, window 4,096 (its config.json
as reconstructed in lessons/gallery/command-r7b.json; the rule is transformers
5.24's modeling_cohere2.py, which rotates only where the layer has a window).
Gemma 3 4B: 29 sliding layers of 34 with a window of 1,024, base 10,000 there
and 1,000,000 with linear factor 8 on the 5 global layers (google/gemma-3-4b-it
config.json; the two bases are Gemma3TextConfig's defaults in transformers 5.24). Gemma 2 9B: alternating, window
4,096, one base for both kinds (modeling_gemma2.py builds one rotary embedding).
gpt-oss-20b: alternating, window 128, and one YaRN block for every layer, local
ones included, in transformers 5.24 (modeling_gpt_oss.py builds one rotary
embedding) as in OpenAI's reference code (gpt_oss/torch/model.py gives every
AttentionBlock the same RotaryEmbedding). Mistral 7B v0.1: a window of 4,096 in
every layer. Ministral 3: every layer rotates, and every layer's query takes
Mistral's temperature with β 0.1 from F = 16,384 (Ministral3Config's defaults
in transformers 5.24); Mistral 4 does the same in MLA layers, from 8,192.
DeepSeek-V3: MLA with a 64-wide rotated slice. GLM-4 (transformers glm and
glm4): half of each head, interleaved (their config classes' default factor
0.5); GLM-4.5 and 4.6 (glm4_moe): half of each head too, but half-split. GPT-NeoX:
half-split, with `rotary_pct` 0.25 by its config class's default.
Gemma 4: base 10,000 on its local layers, and on its global layers base
1,000,000 with proportional RoPE turning a quarter of the pairs of a 512-wide head
(Gemma4TextConfig's defaults in transformers 5.24).

**Go deeper.** Level 2 builds each mechanism from scratch and checks it against
transformers' own code: per-layer plans, Llama 4's and Mistral's query
temperatures and each engine's switches, why a local
layer must keep its trained speeds, the three pairings of partial rotary and
p-RoPE, and why MLA needs its RoPE apart. If you only needed to know what to check,
you can stop here.

## Level 2: how it works, from scratch

## Different schemes in different layers

**Everyday picture.** A newsroom where most editors read a story line by line
with a ruler, and every fourth one skims the whole archive with no ruler at all.
The skimmers still know roughly where they are: the archive behind them gets
thicker as they go.

**Tiny worked example.** A NoPE layer that attends equally to every token it
may see, reading a value that is 1 on the first token and 0 elsewhere, gets
1/(p+1) at position p: 1, 0.5, 0.333 and 0.25 at positions 0 to 3. That number
names the position, so a layer with no positions can still learn where it is
from the causal mask alone (built in `lessons.alibi`). Which layers go without
is one entry per layer in `no_rope_layers` (1 means the layer rotates). Llama 4's NoPE layers
also scale their query by a temperature: 1 up to position 8,190, then 1.0693 at
8,191 and 1.2565 at 100,000. Ministral 3 scales every layer's query by the same
kind of staircase counted without the + 1: 1 up to 16,383, then 1.0693.

```mermaid
flowchart TB
  C["config.json:<br/>no_rope_layers, sliding_window,<br/>attention_chunk_size"] --> P["layer plan"]
  P --> R["RoPE layer:<br/>rotate q and k"]
  P --> N["NoPE layer:<br/>no rotation"]
  R --> W["window or chunk<br/>(local)"]
  N --> G["whole context<br/>(global)"]
  N --> T["Llama 4: query ×<br/>temperature"]
```

**Reading it:** one config decides, layer by layer, whether q and k turn and how
far back a layer may look. In Llama 4 the two choices are tied: the RoPE layers
are the chunked ones and the NoPE layers the global ones, and in Llama 4 only
those global NoPE layers get the temperature (Mistral's copy reaches every layer).

**The math.** Llama 4's query multiplier on a NoPE layer (transformers 5.24,
models/llama4/modeling_llama4.py, Llama4TextAttention.forward, applied when
`attn_temperature_tuning` is true and the layer skips RoPE, to the query only,
before attention):

$$
\tau(p) = 1 + s \,\ln\!\Big(1 + \Big\lfloor \frac{p + 1}{F} \Big\rfloor\Big),
\qquad w = \frac{e^{\tau g}}{e^{\tau g} + n - 1}
$$

Mistral's copy (transformers 5.24 models/ministral3 and models/mistral4,
get_llama_4_attn_scale, on every layer's whole query after RoPE, from position ids):

$$
\tau_{\text{M}}(p) = 1 + \beta \,\ln\!\Big(1 + \Big\lfloor \frac{p}{F} \Big\rfloor\Big)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $p$ | the query's position (transformers: from the cache length) | 100,000 |
| $F$ | the step length in tokens: Llama 4's `floor_scale`, Mistral's `original_max_position_embeddings` | 8,192; 16,384 (Ministral 3) |
| $s$ | `attn_scale` | 0.1 |
| $\tau(p)$ | the number the query is multiplied by | 1.2565 |
| $g$ | how far one key's score beats the others | 5 |
| $n$ | keys the query sees | 100,001 |
| $w$ | that key's softmax weight | 0.0053 with $\tau$, 0.0015 without |
| $\beta$ | Mistral's `llama_4_scaling_beta` | 0.1 |
| $\tau_{\text{M}}(p)$ | Mistral's multiplier | 1.0693 at 16,384 |

**In words:** "the query is left alone for the first $F - 1$ positions, then
grows by $s \ln 2$, and after that by the logarithm of how many blocks of $F$
tokens lie behind it; multiplying the query multiplies every score margin.
Mistral's copy drops the + 1, so its query is left alone for the first $F$
positions, and it multiplies every layer."

**With the numbers:** at $p$ = 100,000, $\lfloor 100{,}001 / 8{,}192 \rfloor$ =
12, so $\tau = 1 + 0.1 \ln 13$ = 1.2565. A key that beats 100,000 equal others
by 5 gets weight 0.0015 without the temperature and 0.0053 with it: the
temperature keeps a clear winner from drowning as the context grows. The code
cites Scalable-Softmax (Nakanishi, 2025) for the idea.

**Each engine's switches.** The formula is the same everywhere; when it is on,
and which position it counts, is not (read in each release's source):

| Engine | Llama 4's temperature is on | it counts | Mistral's $\beta$ is read from | it counts |
|---|---|---|---|---|
| transformers 5.24 | when `attn_temperature_tuning` is true or absent; Scout's published 4 does not load until edited to true or false | cache length + index | `rope_parameters` | position ids |
| vLLM 0.33.0 | when the generation config says so, else when `--max-model-len` is above 32,768 | position ids | a Mistral-format params.json only | position ids |
| llama.cpp (llama-cpp-python 0.3.36) | always, for a chunked Llama 4 GGUF (8,192 and 0.1 fixed) | position ids | the GGUF's temperature scale; $F$ its YaRN original length (mistral3.cpp) or temperature length (deepseek2.cpp) | position ids |
| Meta's reference (llama-models) | when params.json says so; off by default | cache index, which is the position: its generate pads on the right | (not a Mistral engine) | |

The files: transformers models/llama4/modeling_llama4.py (Llama4TextAttention.forward)
and models/ministral3, models/mistral4 (get_llama_4_attn_scale); vLLM
models/llama4.py (Llama4ForCausalLM.__init__ sets the switch), models/mistral.py
and models/deepseek_v2.py; llama.cpp src/models/llama4.cpp, mistral3.cpp and
deepseek2.cpp, with the multiplier built in src/llama-graph.cpp; Meta's
models/llama4/args.py and model.py. Which rule is the model's own? Meta's blog
reports it as temperature scaling at inference time, and Meta's code leaves it
off unless params.json turns it on; the published
config.json says 4, which transformers 5.24 refuses (tests/data/layer_schemes_vectors.json
records the error), so a transformers run of Scout is a run of an edited config,
and its temperature is whatever the edit chose. This page computes the rule
itself, `llama4_attn_temperature`, and each engine's choice by name,
`llama4_served_temperature` (which refuses the 4 for transformers too).

**In Python:**

```python
import numpy as np
from lessons.alibi import mask_position_signal
from lessons.layer_schemes import (gallery_rope_layers, gallery_text_config,
                                   layer_plan, llama4_attn_temperature,
                                   llama4_served_temperature,
                                   mistral_attn_scale, top_key_weight)
[round(float(v), 3) for v in mask_position_signal(4)]
# → [1.0, 0.5, 0.333, 0.25]
t = llama4_attn_temperature([8190, 8191, 100_000, 10_485_759])
[round(float(v), 4) for v in t]  # → [1.0, 1.0693, 1.2565, 1.7155]
round(top_key_weight(5, 100_001), 4)  # → 0.0015
round(top_key_weight(5, 100_001, t[2]), 4)  # → 0.0053
p = [8190, 8191, 16383, 24575, 32767]
llama4_served_temperature(p, "transformers 5.24").round(4).tolist()
# → [1.0, 1.0693, 1.1099, 1.1386, 1.1609]
llama4_served_temperature(p, "vLLM 0.33.0", max_model_len=32768).tolist()
# → [1.0, 1.0, 1.0, 1.0, 1.0]
on = llama4_served_temperature(p, "vLLM 0.33.0", max_model_len=32769)
on.round(4).tolist()  # → [1.0, 1.0693, 1.1099, 1.1386, 1.1609]
# a row left-padded by 100 tokens: transformers counts the padding too
padded = llama4_served_temperature(np.arange(9000) + 100, "transformers 5.24")
int(np.argmax(padded > 1))  # → 8091
[round(float(v), 4) for v in mistral_attn_scale([16383, 16384, 262143])]
# → [1.0, 1.0693, 1.2773]
gallery_text_config("llama-4-scout")["attn_temperature_tuning"]  # → 4
scout = layer_plan(gallery_text_config("llama-4-scout"))
[i for i, layer in enumerate(scout) if not layer["rope"]][:4]
# → [3, 7, 11, 15]
{layer["window"] for layer in scout if layer["rope"]}  # → {8192}
plans = {s: layer_plan(gallery_text_config(s))
         for s in ("llama-4-scout", "smollm3-3b", "command-r7b", "gemma-3-4b")}
{s: (sum(not x["rope"] for x in p), sum(x["window"] is not None for x in p))
 for s, p in plans.items()}
# → {'llama-4-scout': (12, 36), 'smollm3-3b': (9, 0), 'command-r7b': (8, 24),
#   'gemma-3-4b': (0, 29)}
cohere = layer_plan(gallery_text_config("command-r7b"))
all(layer["rope"] == (layer["window"] is not None) for layer in cohere)
# → True
rope_decoders = gallery_rope_layers()
{k: len(v) for k, v in rope_decoders.items()}
# → {'every layer': 17, 'some layers': 4}
rope_decoders["some layers"]
# → ['command-r7b', 'llama-4-scout', 'qwen3-next-80b', 'smollm3-3b']
```

![Seven models' layers side by side: Llama 4 Scout, SmolLM3 and Command R7B have a NoPE layer every fourth layer; Gemma 3 has short local bars with a tall global one every sixth layer; Gemma 2 and gpt-oss alternate short and tall; Mistral 7B v0.1's layers are all short](figures/layer_schemes.layer_map.svg)

**Reading it:** each bar is one layer, blue if it rotates and vermillion
(orange-red) cross-hatched if it does not; a tall bar sees the whole context, a short one only its window
or chunk. Llama 4 and Command R7B look alike: both rotate only their local
layers and leave every fourth layer global with no positions, Llama 4 through
its NoPE list and Command R7B through a layer-type rule. SmolLM3 has no window at all, and Mistral
has nothing but windows. Of the gallery's decoders that rotate at all, 17
rotate in every layer and 4 are hybrids with layers that carry no position code:
the three above with NoPE layers, and Qwen3-Next, whose linear-attention layers
(three in every four) have none and whose full-attention layers turn a quarter of
each head (`gallery_rope_layers`).

![Two query multipliers against position on a log scale: Llama 4's, on its NoPE layers, flat at 1 until position 8,191, then a staircase rising to about 1.7 at ten million tokens; Ministral 3's, on every layer, flat until 16,384 and rising to about 1.28 at 262,144](figures/layer_schemes.temperature.svg)

**Reading it:** Llama 4's curve is flat for the first 8,191 positions and
Ministral 3's for the first 16,384, which is why a test on short prompts cannot
catch an engine that computes either one wrongly or leaves it off. After that
the steps come every $F$ tokens and grow more slowly, like the logarithm.
Ministral 3's curve stops at the 262,144 positions its config class allows.

**In code:** `layer_plan` reads a config's layer plan as transformers 5.24 does
(tested against every model's own classes through the decoder's reference
vectors); `llama4_attn_temperature` is checked against Llama4TextAttention's
forward pass at positions from 0 to 24,579; `mistral_attn_scale` against
ministral3's and mistral4's get_llama_4_attn_scale and what
Ministral3Attention.forward multiplies the query by; `llama4_temperature_on`
and `llama4_served_temperature` give each of `LLAMA4_ENGINES` its switch and its
count, and are tested against what the reference script reads out of the
engines' released files: vLLM 0.33.0's gate in Llama4ForCausalLM.__init__
(parsed: `max_model_len > 32768`, the generation config's key) and its
_get_attn_scale (compiled alone from models/llama4.py and run), and the
constants llama.cpp's src/models/llama4.cpp sets (8,192, 0.1, offset 1, no GGUF
key) with the expression of llm_graph_input_attn_temp::set_input (evaluated);
`top_key_weight` is the softmax of one winner among equals.

**Why it matters.** A NoPE layer's only position signal is the mask and the
temperature, so it is exactly the layer whose behaviour depends on absolute
position: a wrong position count there changes the model, while a RoPE layer
ignores a constant offset.

## Local and global layers with two bases

**Everyday picture.** A reading lamp and a ceiling light. The lamp lights only
the page in front of you, and it never needs to be brighter because the room is
bigger; turn it down because the room grew and you can no longer read the page.

**Which models do this.** Models that alternate local and global layers split
two ways: whether the two kinds have different bases, and whether a
`rope_scaling` block reaches only the global kind. transformers 5.24's config
classes answer differently (their defaults, `LOCAL_GLOBAL`, checked against
what each class returns in tests/data/layer_schemes_vectors.json):

| Model | model_type | Local base | Global base | A `rope_scaling` block reaches |
|---|---|---|---|---|
| Gemma 3 | gemma3_text | 10,000 | 1,000,000 | the global layers only |
| OLMo 3 | olmo3 | 500,000 | 500,000 | the global layers only |
| MiMo-V2-Flash | mimo_v2_flash | 10,000 | 5,000,000 | no such block: `rope_parameters` per layer type |
| Gemma 4 | gemma4_text | 10,000 | 1,000,000 | no such block: `rope_parameters` per layer type |
| ModernBERT (an encoder) | modernbert | 10,000 | 160,000 | both kinds |
| Gemma 2 | gemma2 | 10,000 | 10,000 | both kinds: one rotary table |
| gpt-oss | gpt_oss | 150,000 | 150,000 | both kinds: one YaRN block |

So Gemma 3 is the one that does both; OLMo 3 scales its global layers alone
with one base (configuration_olmo3.py puts `rope_scaling` into
`rope_parameters["full_attention"]`), MiMo-V2-Flash and Gemma 4 have two bases
written per layer type (MiMo turns a third of each head in both kinds; Gemma 4's
global layers add proportional partial rotary, the next section), and
ModernBERT, an encoder, has two bases but sends a scaling block to both. For the
gallery's Gemma 2, Gemma 3, gpt-oss and ModernBERT the bases are also read from
their config.json below (`layer_plan`, and ModernBERT's own keys). Earlier
versions of this page said only Gemma 3 has two bases; the table is why that
was wrong. The Gemma 3 report describes the design: five local layers with
a 1,024-token window per global layer, base 10k on the local layers and 1M on
the global ones, and the global layers alone stretched by position
interpolation with a factor of 8 (reported by the Gemma 3 report,
arXiv:2503.19786, section 2). The gpt-oss model card reports bands of 128
tokens alternating with dense layers and YaRN for its 131,072-token context
(arXiv:2508.10925).

**Tiny worked example.** Gemma 3's local layers see 1,024 tokens
(google/gemma-3-4b-it config.json `sliding_window`; their base is
`rope_local_base_freq`), so the largest distance
they ever meet is 1,023, whatever the prompt's length. Their fastest pair turns
1 radian per token, so it never turns more than 1,023 radians within the window;
71 of their 128 pairs make at least one full turn within it. Leak the global
layers' linear factor 8 into them and every speed falls 8 times: a key 8 tokens
back now scores exactly as the previous token did in training.

```mermaid
flowchart TB
  X["one prompt,<br/>128K tokens"] --> L["local layer:<br/>window 1,024,<br/>base 10,000, no scaling"]
  X --> G["global layer:<br/>base 1,000,000,<br/>linear factor 8"]
  L --> A["distances 0 to 1,023:<br/>the trained angles"]
  G --> B["distances up to 128K:<br/>scaled back into<br/>the trained range"]
```

**Reading it:** the two kinds of layers see the same prompt but different
distances. Only the global layer meets distances past its training, so only it
needs a scaling rule; the local layer already sees nothing but trained angles.

**The math.**

$$
\phi_i(\Delta) = \Delta\,\theta_i,\ \ 0 \le \Delta \le w - 1,
\qquad \phi_i^{\text{leaked}}(\Delta) = \frac{\Delta\,\theta_i}{f} = \phi_i\!\Big(\frac{\Delta}{f}\Big)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $\Delta$ | distance from query to key | 0 to 1,023 |
| $w$ | the local window, `sliding_window` | 1,024 |
| $\theta_i$ | pair $i$'s speed with the local base | 1 rad per token for $i$ = 0 |
| $f$ | the global layers' linear factor | 8 |
| $\phi_i$ | the angle between query and key in pair $i$ | 1,023 rad at most for $i$ = 0 |

**In words:** "a local layer's angles are bounded by its window, not by the
prompt; dividing its speeds by the factor makes it read every distance as one
$f$ times shorter."

**With the numbers:** with the leak, a key 8 tokens back gets the angle the
layer learned for 1 token back, in every pair at once. For a seeded random query
and key, the scores within the window move by 1.68 times their largest value:
not a small drift but a different pattern.

**In Python:**

```python
import numpy as np
from lessons.context_extension import rope_inv_freq
from lessons.layer_schemes import window_angles, local_score_change
from lessons.positional import angle_table
local, _ = rope_inv_freq(256, {"rope_theta": 10000.0})
leaked, _ = rope_inv_freq(
    256, {"rope_type": "linear", "factor": 8.0, "rope_theta": 10000.0})
float(window_angles(local, 1024)[0])  # → 1023.0
int((window_angles(local, 1024) > 2 * np.pi).sum())  # → 71
bool(np.allclose(angle_table(8, leaked), angle_table(1, local)))  # → True
round(local_score_change(local, leaked, 1024), 2)  # → 1.68
from lessons.layer_schemes import gallery_text_config, layer_plan
bases = {s: sorted({x["base"] for x in layer_plan(gallery_text_config(s))})
         for s in ("gemma-2-9b", "gemma-3-4b", "gpt-oss-20b")}
bases
# → {'gemma-2-9b': [10000.0], 'gemma-3-4b': [10000.0, 1000000.0],
#   'gpt-oss-20b': [150000.0]}
bert = gallery_text_config("modernbert-base")
bert["local_rope_theta"], bert["global_rope_theta"]  # → (10000.0, 160000.0)
from lessons.layer_schemes import LOCAL_GLOBAL
[t for t, (local, glob, _) in LOCAL_GLOBAL.items() if local != glob]
# → ['gemma3_text', 'mimo_v2_flash', 'gemma4_text', 'modernbert']
[t for t, (_, _, reach) in LOCAL_GLOBAL.items() if reach == "global"]
# → ['gemma3_text', 'olmo3']
```

![The score of a key identical to the query against distance for a Gemma 3 local layer: as trained it falls quickly over the first ten tokens; with linear scaling by 8 leaked in, the same curve is stretched eight times along the distance axis](figures/layer_schemes.local_window.svg)

**Reading it:** the solid line is what the layer was trained with; the dashed
line is the same layer with the global layers' scaling leaked in. The dashed
curve is the solid one stretched eight times to the right: at distance 8 it
stands where the trained one stands at distance 1, so a head that looked at the
previous token now looks eight tokens back.

**In code:** `window_angles` gives the largest angle per pair inside a window;
`local_score_change` measures the score change a swap of speeds causes. Gemma 3's
two bases come from `lessons.context_extension.rope_inv_freq` and are checked
against Gemma3RotaryEmbedding through tests/data/reference_vectors.json
(tests/reference/_reference.py, LAYER_TYPE_CONFIGS); `layer_plan` gives each
layer its base; `LOCAL_GLOBAL` is the table above.

**Why it matters.** Context extension is a fix for long distances, and a local
layer never has any. A scaling rule that reaches it does no good and changes
what every local layer sees at every prompt length, so a short-prompt test may
already show it.

## Partial rotary: three pairings of the same numbers

**Everyday picture.** Three ways to seat eight guests at four tables for two:
neighbours together, first half with second half, or only the first two chairs
of each half. Same guests, same tables, different conversations.

**Tiny worked example.** A head of width 8 with `partial_rotary_factor` 0.5.
NeoX-style turns dimensions 0 to 3, pairing 0 with 2 and 1 with 3. The
interleaved pairing (transformers glm and glm4) turns the same four, pairing 0
with 1 and 2 with 3. Proportional (Gemma 4) pairs across the
whole head, 0 with 4 and 1 with 5, and lets the other pairs stand still. On the
same weights at the same position the three give different vectors.

```mermaid
flowchart TB
  H["head: 8 dims,<br/>factor 0.5"] --> N["NeoX:<br/>dims 0-3, pairs<br/>(0,2) (1,3),<br/>speeds over 4"]
  H --> G["interleaved:<br/>dims 0-3, pairs<br/>(0,1) (2,3),<br/>speeds over 4"]
  H --> P["proportional:<br/>pairs (0,4) (1,5),<br/>speeds over 8"]
  N --> R["dims 4-7<br/>pass through"]
  G --> R
  P --> S["pairs (2,6) (3,7)<br/>stand still"]
```

**Reading it:** all three read the same factor, and all three leave half the
head without position. They differ in which dimensions turn together and, for
proportional, in the exponent of the speeds: a converter that keeps the numbers
but not the pairing produces a different model.

**The math.** With rotary width $r = \lfloor d \cdot \rho \rfloor$:

$$
\begin{aligned}
\text{NeoX: } &(j,\ j + r/2),\ \theta_i = b^{-2i/r},\ i \lt r/2 \\
\text{interleaved: } &(2i,\ 2i + 1),\ \theta_i = b^{-2i/r},\ i \lt r/2 \\
\text{proportional: } &(j,\ j + d/2),\ \theta_i = b^{-2i/d} \text{ for } i \lt \rho d/2,\ \text{else } 0
\end{aligned}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $d$ | head width | 8 |
| $\rho$ | `partial_rotary_factor` | 0.5 |
| $r$ | rotary width | 4 |
| $b$ | the base, `rope_theta` | 10,000 |
| $\theta_i$ | pair $i$'s speed | 1 and 0.01 (NeoX, interleaved); 1 and 0.1 (proportional) |

**In words:** "NeoX and interleaved rotate the first $r$ dimensions with speeds spread
over $r$, pairing halves or neighbours; proportional keeps full-head pairs and
the full-head speeds, and simply stops the slow ones."

**With the numbers:** the last fact is what p-RoPE is. Barbero et al. (2024)
report that Gemma 7B uses its fastest pairs for sharp positional patterns and
its slowest pairs as content channels that carry little position, and propose
p-RoPE: remove the slowest fraction of the frequencies and keep the fastest.
Gemma 4's global layers do this with factor 0.25 on a 512-wide head and base
1,000,000 (Gemma4TextConfig's defaults in transformers 5.24): 64 of 256 pairs
turn, the slowest of them with a wavelength of 188 tokens. Read the same
factor NeoX-style and the 64 pairs spread over the whole range instead, the
slowest with a wavelength of over 5 million tokens: the same key, a different
model.

The family's name does not tell the pairing. In transformers 5.24 glm and glm4
turn even with odd dimensions (rotate_half over x[..., 0::2] and x[..., 1::2],
cos repeated pairwise), while glm4_moe, the code of GLM-4.5 and GLM-4.6, keeps
the same default share of 0.5 but splits the rotary part in halves like NeoX
(modeling_glm4_moe.py). Here the engines agree: vLLM 0.33.0 turns glm4 with
is_neox_style false and glm4_moe with the NeoX default, filling in 0.5 for both
(models/glm4.py, models/glm4_moe.py), and llama.cpp gives GLM4 its interleaved
type and GLM4_MOE the NeoX type (src/llama-model.cpp, llama_model_rope_type).
`PAIRING_BY_MODEL_TYPE` holds each family's pairing and default share, checked
against each family's own rotary class:

| model_type | Models | Share that turns by default | Pairing |
|---|---|---|---|
| gpt_neox | GPT-NeoX, Pythia | 0.25 (`rotary_pct`) | neox |
| glm | GLM-4-9B-chat (the class's example checkpoint, THUDM/glm-4-9b-chat) | 0.5 | interleaved |
| glm4 | GLM-4-0414 | 0.5 | interleaved |
| glm4_moe | GLM-4.5 (the example checkpoint, zai-org/GLM-4.5), GLM-4.6 | 0.5 | neox |
| gemma4 (global layers) | Gemma 4 | 0.25 | proportional |

**In Python:**

```python
import numpy as np
from lessons.context_extension import rope_inv_freq
from lessons.layer_schemes import (PAIRING_BY_MODEL_TYPE, partial_partner,
                                   partial_rotary, slowest_wavelength)
partial_partner(8, 0.5, "neox").tolist()  # → [2, 3, 0, 1, -1, -1, -1, -1]
partial_partner(8, 0.5, "interleaved").tolist()
# → [1, 0, 3, 2, -1, -1, -1, -1]
partial_partner(8, 0.5, "proportional").tolist()
# → [4, 5, -1, -1, 0, 1, -1, -1]
x = np.random.default_rng(0).standard_normal((3, 8))
out = {p: partial_rotary(x, [0, 1, 2], 0.5, pairing=p)
       for p in ("neox", "interleaved", "proportional")}
round(float(np.abs(out["neox"] - out["interleaved"]).max()), 3)  # → 1.057
PAIRING_BY_MODEL_TYPE["glm4"], PAIRING_BY_MODEL_TYPE["glm4_moe"]
# → (('interleaved', 0.5), ('neox', 0.5))
prop, _ = rope_inv_freq(512, {"rope_type": "proportional",
                              "rope_theta": 1e6,
                              "partial_rotary_factor": 0.25})
neox, _ = rope_inv_freq(512, {"rope_theta": 1e6,
                              "partial_rotary_factor": 0.25})
small, _ = rope_inv_freq(8, {"rope_type": "proportional",
                             "partial_rotary_factor": 0.5})
[round(float(v), 3) for v in small]  # → [1.0, 0.1, 0.0, 0.0]
[round(float(v), 3) for v in rope_inv_freq(
    8, {"partial_rotary_factor": 0.5})[0]]  # → [1.0, 0.01]
int((prop > 0).sum()), len(neox)  # → (64, 64)
round(slowest_wavelength(prop))  # → 188
round(slowest_wavelength(neox))  # → 5063256
```

![Which dimensions of a 16-wide head turn together with partial_rotary_factor 0.25: NeoX pairs dimensions 0 with 2 and 1 with 3; interleaved pairs 0 with 1 and 2 with 3; proportional pairs 0 with 8 and 1 with 9; every other dimension passes through](figures/layer_schemes.pairings.svg)

**Reading it:** filled dots turn, hollow dots pass through, and an arc joins two
dimensions that turn together. All three rows turn four dimensions of sixteen,
but no two rows share a pair; a checkpoint trained with one row and served with
another scores every key wrongly.

**In code:** `partial_rotary` turns a head in one of `PARTIAL_PAIRINGS`, reusing
`lessons.rope.apply_rope_half` and `lessons.rope.apply_rope_interleaved` for the
rotary part and `lessons.context_extension.rope_inv_freq` for proportional's
speeds; each pairing is checked against transformers 5.24 (gpt_neox's and glm's
apply_rotary_pos_emb with their rotary classes, gemma4's with the proportional
speeds) in tests/test_layer_schemes.py, and `PAIRING_BY_MODEL_TYPE` against
gpt_neox's, glm's, glm4's and glm4_moe's own classes at their default shares. `partial_partner` and
`slowest_wavelength` give the pairs and the slowest turning pair.

**Why it matters.** A conversion can copy every weight and every config value
correctly and still break the model here, because the pairing is in the code,
not in the config.

## MLA: why DeepSeek's RoPE has its own slice

**Everyday picture.** A library that stores each book as a short summary and a
recipe for rebuilding it. A reader's question can be translated once into "the
summary's language" and matched against every summary, without rebuilding a
single book. But if each book had to be turned to a page that depends on where
it sits on the shelf before reading, the translation would differ for every
book, and you would be back to rebuilding them all.

**Tiny worked example.** A key made from a cached latent $c$ by an
up-projection, $k = W^{UK} c$. The score $q \cdot k$ equals $(W^{UK\top} q)
\cdot c$, so the query can be folded once and matched against raw latents: the
folded score differs from the true one by 0 (to rounding). Rotate q and k by
position and the fold built for one key position is off by 8.18 at the others.
Put the rotation on a separate slice instead, and the fold is exact again:
DeepSeek's key is `qk_nope_head_dim` dimensions made from the latent, which
fold, plus `qk_rope_head_dim` rotated ones, which carry the position.

```mermaid
flowchart TB
  H["token"] --> C["latent c<br/>(kv_lora_rank 512)"]
  H --> KR["rotated key<br/>(qk_rope_head_dim 64,<br/>one for all heads)"]
  C --> S["score: folded query · c<br/>+ rotated query · rotated key"]
  KR --> S
  Q["query"] --> S
```

**Reading it:** the cache holds only the two boxes under the token: the latent
and the one rotated key; per-head keys and values are never stored. The content
part of the score meets the latent through the query folded with the
up-projection; the rotated part meets the shared rotated key directly. No
rotation ever sits between the query and the up-projection.

**The math.** With RoPE on the whole key, the score between a query at $m$ and
a key at $n$ is

$$
(R_m q)^\top R_n W^{UK} c = q^\top R_{m-n}^\top W^{UK} c
$$

so the matrix to fold, $R_{m-n}^\top W^{UK}$, differs with every gap $m - n$.
MLA splits the score instead:

$$
s = (W^{UK\top} q^{C})^\top c + (R_m q^{R})^\top (R_n k^{R})
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $c$ | the cached latent of a key | 512 numbers (DeepSeek-V3) |
| $W^{UK}$ | up-projection from latent to one head's key | 128 × 512 |
| $R_m$ | RoPE's rotation at position $m$ | any |
| $q^{C}$, $q^{R}$ | a head's content and rotated query | 128 and 64 wide |
| $k^{R}$ | the rotated key, one for all heads | 64 wide |

**In words:** "RoPE's rotation would sit between the query and the
up-projection and change with each key's position, so MLA keeps the folded
content score free of RoPE and adds a small rotated score beside it."

**With the numbers:** DeepSeek-V2's paper explains the same obstacle (its
subsection "Decoupled Rotary Position Embedding"). Per token and layer the cache holds
512 + 64 = 576 numbers, where keys and values of 128 heads of widths 192 and 128
would take 40,960. transformers 5.24 (models/deepseek_v3/modeling_deepseek_v3.py,
DeepseekV3Attention.forward) caches the latent after its normalisation and the
rotated key after rotation, rotating with apply_rotary_pos_emb_interleave when
`rope_interleave` is true (DeepseekV3Config's default): interleaved pairs,
written back de-interleaved. The DeepSeek-V3 report gives the same widths and
reports stretching the context with YaRN on the decoupled shared key, with
$\sqrt{t} = 0.1 \ln s + 1$ for $s$ = 40 (reported by arXiv:2412.19437,
section 4). The new speeds reach only the 64 rotated dimensions, since nothing
else turns, but the temperature does not stay there: transformers 5.24
(yarn_apply_mscale on DeepseekV3Attention's scaling), vLLM 0.33.0
(models/deepseek_v2.py) and llama.cpp (src/models/deepseek2.cpp) multiply the
whole softmax scale by mscale² = 1.8739, the content score and the rotated
score alike (`lessons.context_extension.deepseek_softmax_multiplier`).

**In Python:**

```python
import numpy as np
from lessons.context_extension import deepseek_softmax_multiplier
from lessons.layer_schemes import (deepseek_rotary, fold_error,
                                   mla_cache_numbers, mha_cache_numbers)
from lessons.rope import apply_rope_interleaved
fold_error("no rope") < 1e-12  # → True
round(fold_error("rope on the key"), 2)  # → 8.18
fold_error("decoupled") < 1e-12  # → True
deepseek_rotary(np.array([[1.0, 2, 3, 4]]), [0]).tolist()
# → [[1.0, 3.0, 2.0, 4.0]]
q = np.random.default_rng(1).standard_normal((2, 64))
k = np.random.default_rng(2).standard_normal((2, 64))
ds = deepseek_rotary(q, [5, 6]) @ deepseek_rotary(k, [0, 1]).T
il = apply_rope_interleaved(q, [5, 6]) @ apply_rope_interleaved(k, [0, 1]).T
bool(np.allclose(ds, il))  # → True
mla_cache_numbers(512, 64), mha_cache_numbers(128, 192, 128)
# → (576, 40960)
round(40960 / 576, 1)  # → 71.1
mla_cache_numbers(512, 64) * 61 * 2  # → 70272
round(deepseek_softmax_multiplier(40, mscale_all_dim=1.0), 4)  # → 1.8739
```

![Numbers cached per token and layer at DeepSeek-V3's widths on a log scale: 40,960 for keys and values of 128 heads, against 512 for MLA's latent and 64 for its shared rotated key](figures/layer_schemes.mla_cache.svg)

**Reading it:** the grey bar is what ordinary attention with the same heads
would keep; the two coloured bars are all MLA keeps. The rotated key is the
smallest of all because it is shared by every head.

**In code:** `fold_error` compares folded and true scores for each of
`FOLD_SCHEMES`; `deepseek_rotary` is checked against transformers'
apply_rotary_pos_emb_interleave with DeepseekV3RotaryEmbedding's table;
`mla_cache_numbers` and `mha_cache_numbers` count the cache.

**Why it matters.** The decoupled slice is what lets DeepSeek's cache stay small
while keeping RoPE. A port that rotates the whole key, or caches the rotated key
before its rotation in one place and after it in another, loses either the fold
or the positions.

## In 20 seconds

- Per layer: some layers skip RoPE (Llama 4, SmolLM3 every fourth; Cohere2 its
  global layers), and a NoPE layer still reads position from the causal mask.
- Llama 4 multiplies the NoPE layers' query by 1 + 0.1·ln(1 + ⌊(p+1)/8192⌋),
  exactly 1 before position 8,191; vLLM 0.33.0 leaves it off up to
  `--max-model-len` 32,768 unless told. Ministral 3 and Mistral 4 multiply every
  layer's query by 1 + β·ln(1 + ⌊p/F⌋), from p = F on.
- Local layers never see past their window, so context scaling must not reach
  them (Gemma 3, OLMo 3); leaking it makes them misread every distance. Two bases
  are Gemma 3's, Gemma 4's and MiMo-V2-Flash's (and ModernBERT's).
- Partial rotary has three pairings (NeoX, interleaved, proportional), and the
  family name does not fix it (GLM-4 interleaves, GLM-4.5 splits halves);
  p-RoPE keeps the fastest pairs and stops the slowest.
- MLA keeps RoPE on a separate 64-wide slice so that the up-projection can fold
  into the query; its cache is 576 numbers per token and layer.

## Self-test questions

??? question "Why does a local layer gain nothing from a context-scaling rule?"
    It never meets a distance longer than its window, however long the prompt,
    so all its angles are already trained ones; scaling only shrinks them and
    makes it misread distances.

??? question "A config says partial_rotary_factor 0.25 on a 512-wide head. Which pairs turn in Gemma 4's proportional RoPE, and which in a NeoX-style reading?"
    Proportional: the fastest 64 of 256 full-head pairs, speeds base^(−2i/512),
    the rest stand still. NeoX: the first 128 dimensions in half-split pairs with
    speeds spread over 128, so slow pairs turn too.

??? question "Why can MLA not apply RoPE to the key it rebuilds from the latent?"
    The rotation would sit between the query and the up-projection and depend on
    each key's position, so no single folded matrix would score every cached
    latent; the keys would have to be rebuilt.

??? question "At which position does Llama 4's query temperature first differ from 1?"
    At position 8,191, where ⌊(p + 1)/8,192⌋ first reaches 1. Mistral's copy
    has no + 1: with F = 16,384 it first differs at 16,384.

??? question "You serve Llama 4 with vLLM 0.33.0 at --max-model-len 32,768 and compare with transformers 5.24. What multiplies the NoPE queries at position 20,000?"
    1 in vLLM, whose rule turns the temperature on only above 32,768 unless
    the generation config says so; 1 + 0.1 ln 3 = 1.1099 in transformers,
    which applies it whenever the config it loads has the key true or absent
    (Scout's published 4 must first be edited, to true to keep it).

## The papers behind this lesson

- Gemma Team (2025), *Gemma 3 Technical Report*,
  [arXiv:2503.19786](https://arxiv.org/abs/2503.19786). Reports the five local
  layers per global one with a 1,024-token window, base 10k local and 1M global,
  and position interpolation by 8 on the global layers only.
- Meta AI (2025-04-05), *The Llama 4 herd: The beginning of a new era of natively
  multimodal AI innovation*,
  [ai.meta.com/blog/llama-4-multimodal-intelligence](https://ai.meta.com/blog/llama-4-multimodal-intelligence/).
  Reports iRoPE: interleaved layers without positional embeddings, and an
  attention temperature applied at inference time.
- DeepSeek-AI (2024), *DeepSeek-V3 Technical Report*,
  [arXiv:2412.19437](https://arxiv.org/abs/2412.19437). Reports the MLA widths
  this page uses and YaRN on the decoupled shared key, $s$ = 40.
- OpenAI (2025), *gpt-oss-120b & gpt-oss-20b Model Card*,
  [arXiv:2508.10925](https://arxiv.org/abs/2508.10925). Reports the alternating
  128-token bands and dense layers, and YaRN to 131,072 tokens.

- DeepSeek-AI (2024), *DeepSeek-V2: A Strong, Economical, and Efficient
  Mixture-of-Experts Language Model*,
  [arXiv:2405.04434](https://arxiv.org/abs/2405.04434). Introduced multi-head
  latent attention and its decoupled RoPE (subsection "Decoupled Rotary
  Position Embedding").
- Barbero et al. (2024), *Round and Round We Go! What makes Rotary Positional
  Encodings useful?*, [arXiv:2410.06205](https://arxiv.org/abs/2410.06205).
  Reported how Gemma 7B uses RoPE's fast and slow pairs, and proposed p-RoPE.
- Nakanishi (2025), *Scalable-Softmax Is Superior for Attention*,
  [arXiv:2501.19399](https://arxiv.org/abs/2501.19399). A softmax temperature
  that grows with the log of the context length; transformers' Llama 4 code
  cites it for the NoPE layers' temperature.
- Yang et al. (2025), *Rope to Nope and Back Again: A New Hybrid Attention
  Strategy*, [arXiv:2501.18795](https://arxiv.org/abs/2501.18795). Interleaves
  local RoPE layers with global NoPE layers.

## Further reading

- transformers 5.24's source: models/llama4/modeling_llama4.py (the temperature),
  models/ministral3 and models/mistral4 (Mistral's multiplier),
  models/gemma3/configuration_gemma3.py (the two bases), models/olmo3,
  mimo_v2_flash, gemma4 and modernbert configuration files (who has two bases,
  where a scaling block goes), models/glm, glm4,
  glm4_moe and gpt_neox (the partial pairings), modeling_rope_utils.py (proportional),
  models/deepseek_v3/modeling_deepseek_v3.py (MLA's rotary slice).
- vLLM 0.33.0's models/llama4.py and models/mistral.py, llama.cpp's
  src/models/llama4.cpp and mistral3.cpp (in the llama-cpp-python 0.3.36 sdist),
  and meta-llama/llama-models models/llama4/: each engine's switches.
- `lessons.model_card` reads every key on this page from a config and prints
  each layer's plan.
"""

from __future__ import annotations

import math

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, METHOD_LOOKS, MUTED, ORANGE, SCHEME_LOOKS
from lessons._show import banner, gap_text, say, table, takeaway
from lessons.alibi import mask_position_signal, nope_layers, position_scheme_of
from lessons.context_extension import _gallery_config, rope_inv_freq
from lessons.positional import angle_table
from lessons.rope import apply_rope_half, apply_rope_interleaved, half_split_table, rotate_with_table
from lessons.tools.model_types import first_set, gallery, periodic_layer_types

# ---------------------------------------------------------------------------
# 1. Different schemes in different layers
# ---------------------------------------------------------------------------

FIGURE_INPUTS = ("lessons/gallery/*.json",)
# the models section 1 maps, by their lessons/gallery/<slug>.json
PLAN_MODELS = ("llama-4-scout", "smollm3-3b", "command-r7b", "gemma-3-4b", "gemma-2-9b", "gpt-oss-20b",
               "mistral-7b")


def gallery_text_config(slug: str) -> dict:
    """The language model's keys of lessons/gallery/<slug>.json (its text_config when nested)."""
    config = _gallery_config(slug)
    return config.get("text_config", config)


def layer_plan(text: dict) -> list[dict]:
    """Each layer's position scheme and reach, as transformers 5.24 builds them from a config.

    text: a config's language-model keys (`gallery_text_config`). Returns one dict per layer:
    {"rope": does the layer rotate q and k, "window": how many recent tokens it sees (None = all),
    "base": its RoPE base (None for NoPE)}. The rules, by model_type: llama4_text and smollm3 read
    no_rope_layers (`lessons.alibi.nope_layers`), and Llama 4's RoPE layers attend in chunks of
    attention_chunk_size; cohere2 makes every sliding_window_pattern-th layer (4) full and rotates
    only its sliding layers; gemma3_text makes every sliding_window_pattern-th layer (6) full, with
    rope_local_base_freq (10,000) on the sliding ones; gemma2 alternates sliding and full from
    layer 0; gpt_oss lists layer_types; qwen3_next gives positions (partial RoPE) only to every
    full_attention_interval-th layer (4), its linear-attention layers none; mistral slides every layer.
    """
    kind = text.get("model_type")
    key, n = first_set(text, ("num_hidden_layers", "n_layer"))  # GPT-J names it n_layer
    n = _checks.count(n, key or "num_hidden_layers")
    theta = float(text.get("rope_theta", 10000.0))
    window = text.get("sliding_window")
    if kind in ("llama4_text", "smollm3"):
        nope = nope_layers(n, text.get("no_rope_layers"), text.get("no_rope_layer_interval", 4),
                           fill_empty=kind == "llama4_text")
        chunk = text.get("attention_chunk_size", 8192) if kind == "llama4_text" else None
        return [{"rope": i not in nope, "window": None if i in nope else chunk, "base": None if i in nope else theta}
                for i in range(n)]
    if kind in ("cohere2", "gemma3_text", "gemma2", "gpt_oss", "qwen3_next"):
        types = text.get("layer_types") or periodic_layer_types(text, n)
        local_base = float(text.get("rope_local_base_freq", 10000.0)) if kind == "gemma3_text" else theta
        if kind == "gemma3_text":
            theta = float(text.get("rope_theta", 1000000.0))
        plan = []
        for t in types:
            sliding = t == "sliding_attention"
            rope = (sliding or kind != "cohere2") and t != "linear_attention"
            plan.append({"rope": rope, "window": window if sliding else None,
                         "base": (local_base if sliding else theta) if rope else None})
        return plan
    return [{"rope": True, "window": window, "base": theta} for _ in range(n)]


def gallery_rope_layers() -> dict[str, list[str]]:
    """The gallery's decoders that rotate q and k, split by `layer_plan`: {"every layer": slugs,
    "some layers": slugs} (the second, hybrids, also have layers with no position code)."""
    out: dict[str, list[str]] = {"every layer": [], "some layers": []}
    for slug, entry in sorted(gallery().items()):
        config = entry["config"]
        if any(a.endswith("MaskedLM") for a in config.get("architectures", [])):
            continue  # an encoder, not a decoder
        if position_scheme_of(config) == "RoPE":
            rope = [layer["rope"] for layer in layer_plan(gallery_text_config(slug))]
            out["every layer" if all(rope) else "some layers"].append(slug)
    return out


def llama4_attn_temperature(positions, attn_scale: float = 0.1, floor_scale: int = 8192) -> np.ndarray:
    """Llama 4's query multiplier on its NoPE layers: 1 + attn_scale · ln(1 + ⌊(p + 1) / floor_scale⌋).

    positions: (n,) token positions p (transformers 5.24 counts them from the cache length,
    not from position_ids). Returns (n,) floats: 1 up to position floor_scale − 2, then a
    step up every floor_scale tokens (modeling_llama4.py, Llama4TextAttention.forward).
    """
    p = np.asarray(positions, dtype=float)
    floor_scale = _checks.count(floor_scale, "floor_scale")
    # 1 + s · ln(1 + ⌊(p + 1) / F⌋)
    return 1.0 + attn_scale * np.log1p(np.floor((p + 1.0) / floor_scale))


# Who multiplies Llama 4's NoPE queries, read in each release's source (llama4_temperature_on)
LLAMA4_ENGINES = ("transformers 5.24", "vLLM 0.33.0", "llama.cpp", "Meta reference")


def llama4_temperature_on(engine: str, max_model_len: int | None = None, setting: bool | None = None) -> bool:
    """Whether `engine` applies Llama 4's query temperature at all (one of LLAMA4_ENGINES).

    setting: the switch the engine reads, None when absent. transformers 5.24: the config's
    attn_temperature_tuning, true when absent (configuration_llama4.py); anything but true or false
    raises ValueError, as Llama4TextConfig refuses Scout's published 4. vLLM 0.33.0: the generation
    config's attn_temperature_tuning (or --override-generation-config), else max_model_len > 32,768;
    it overwrites the config.json value (models/llama4.py, Llama4ForCausalLM.__init__). llama.cpp
    (llama-cpp-python 0.3.36): no switch, on for every chunked Llama 4 GGUF (src/models/llama4.cpp).
    Meta's reference (meta-llama/llama-models models/llama4/args.py): params.json's, false when absent.
    """
    _checks.one_of(engine, "engine", LLAMA4_ENGINES)
    if engine == "transformers 5.24" and setting is not None and not isinstance(setting, bool):
        raise ValueError(f"transformers 5.24 expects attn_temperature_tuning true or false, got {setting!r}")
    if setting is not None:
        return bool(setting) if engine != "llama.cpp" else True
    if engine == "vLLM 0.33.0":
        return _checks.count(max_model_len, "max_model_len") > 32768
    return engine != "Meta reference"


def llama4_served_temperature(positions, engine: str, max_model_len: int | None = None,
                              setting: bool | None = None) -> np.ndarray:
    """The multiplier `engine` puts on a NoPE layer's queries at (n,) positions: (n,) floats,
    `llama4_attn_temperature` where `llama4_temperature_on`, else 1. The positions are what the engine
    counts: the cache index in transformers (left padding included), position ids in vLLM and
    llama.cpp; Meta's code counts the cache index too, but right-pads (generation.py), so there it
    is each token's position."""
    p = np.asarray(positions, dtype=float)
    return llama4_attn_temperature(p) if llama4_temperature_on(engine, max_model_len, setting) else np.ones_like(p)


def mistral_attn_scale(positions, llama_4_scaling_beta: float = 0.1,
                       original_max_position_embeddings: int = 16384) -> np.ndarray:
    """Mistral's query multiplier: 1 + β · ln(1 + ⌊p / F⌋), β = llama_4_scaling_beta.

    positions: (n,) position ids p; F = original_max_position_embeddings (16,384 and β 0.1 are
    Ministral3Config's defaults, 8,192 Mistral4Config's). Returns (n,) floats: 1 below F, then a
    step every F tokens. Unlike Llama 4's rule there is no + 1 (the first step is at p = F) and it
    multiplies the whole query of every layer, after RoPE (transformers 5.24 ministral3 and mistral4
    get_llama_4_attn_scale, from position_ids; vLLM 0.33.0 models/mistral.py, MistralAttention).
    """
    p = np.asarray(positions, dtype=float)
    F = _checks.count(original_max_position_embeddings, "original_max_position_embeddings")
    # 1 + β · ln(1 + ⌊p / F⌋)
    return 1.0 + llama_4_scaling_beta * np.log1p(np.floor(p / F))


def top_key_weight(margin: float, n_keys: int, temperature: float = 1.0) -> float:
    """Softmax weight of one key whose score beats n_keys − 1 equal others by `margin`, after the
    query is multiplied by `temperature` (so the margin is too): e^(τs) / (e^(τs) + n − 1)."""
    n_keys = _checks.count(n_keys, "n_keys")
    return float(1.0 / (1.0 + (n_keys - 1) * math.exp(-temperature * margin)))


# ---------------------------------------------------------------------------
# 2. Local and global layers, two bases
# ---------------------------------------------------------------------------


# Local and global layers in transformers 5.24's config classes, their defaults (each class's
# convert_rope_params_to_dict; tests/data/layer_schemes_vectors.json "local_global" holds what the
# classes return): {model_type: (local base, global base, the layers a rope_scaling block reaches:
# "global", "both", or None where the class takes rope_parameters per layer type and no such block)}
LOCAL_GLOBAL = {"gemma3_text": (1e4, 1e6, "global"), "olmo3": (5e5, 5e5, "global"),
                "mimo_v2_flash": (1e4, 5e6, None), "gemma4_text": (1e4, 1e6, None),
                "modernbert": (1e4, 1.6e5, "both"), "gemma2": (1e4, 1e4, "both"), "gpt_oss": (1.5e5, 1.5e5, "both")}


def window_angles(inv_freq: np.ndarray, window: int) -> np.ndarray:
    """The largest angle each pair turns between a query and a key a local layer can see:
    (window − 1) · θ_i, (pairs,) radians. However long the prompt, a layer with this window
    never meets a larger one."""
    return (_checks.count(window, "window") - 1) * np.asarray(inv_freq, dtype=float)


def local_score_change(inv_freq: np.ndarray, scaled_inv_freq: np.ndarray, window: int, seed: int = 0) -> float:
    """How far scores move when a local layer's speeds are swapped for scaled ones: the largest
    |score change| over distances 0..window−1, as a fraction of the largest |score|, for a seeded
    random query and key (half-split layout, width 2 · len(inv_freq))."""
    rng = np.random.default_rng(seed)
    d = 2 * len(inv_freq)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    distances = np.arange(_checks.count(window, "window"))

    def scores(theta):
        cos, sin = half_split_table(angle_table(distances, np.asarray(theta, dtype=float)))  # (w, d)
        return rotate_with_table(k, cos, sin) @ q  # q at 0, key turned by each distance: (w,)

    trained = scores(inv_freq)
    return float(np.max(np.abs(scores(scaled_inv_freq) - trained)) / np.max(np.abs(trained)))


# ---------------------------------------------------------------------------
# 3. Partial rotary: three pairings
# ---------------------------------------------------------------------------

PARTIAL_PAIRINGS = ("neox", "interleaved", "proportional")
# Which pairing each family's code uses on its rotated part (transformers 5.24 modeling_<type>.py:
# rotate_half over the two halves, or over x[..., 0::2] and x[..., 1::2] with cos repeated pairwise).
# The name "GLM" does not pin a pairing: glm and glm4 interleave, glm4_moe (GLM-4.5, 4.6) splits halves.
# {model_type: (pairing, the share that turns when the config says none)}
PAIRING_BY_MODEL_TYPE = {"gpt_neox": ("neox", 0.25), "glm": ("interleaved", 0.5), "glm4": ("interleaved", 0.5),
                         "glm4_moe": ("neox", 0.5)}


def partial_rotary(x: np.ndarray, positions, partial_rotary_factor: float, base: float = 10000.0,
                   pairing: str = "neox") -> np.ndarray:
    """RoPE on part of each head, in one of three pairings, for x (seq, d) at (seq,) positions.

    "neox": the first r = d · factor dimensions turn in half-split pairs (j, j + r/2) at
    base^(−2i/r); the rest pass through (transformers gpt_neox, glm4_moe, Phi, most families).
    "interleaved": the same r dimensions and speeds in pairs (2i, 2i + 1) (transformers glm, glm4).
    "proportional": every dimension stays paired half-split over the whole head, (j, j + d/2);
    the first factor · d/2 pairs turn at base^(−2i/d) and the others stand still (Gemma 4's
    global layers; `lessons.context_extension.rope_inv_freq` computes the speeds).
    """
    x = np.asarray(x, dtype=float)
    d = _checks.even_width(x.shape[-1], "the last axis of x (d)")
    _checks.one_of(pairing, "pairing", PARTIAL_PAIRINGS)
    if pairing == "proportional":
        theta, _ = rope_inv_freq(d, {"rope_type": "proportional", "rope_theta": base,
                                     "partial_rotary_factor": partial_rotary_factor})  # (d/2,), zeros past the kept
        return rotate_with_table(x, *half_split_table(angle_table(np.asarray(positions), theta)))
    r = int(d * partial_rotary_factor)  # the rotary width, as transformers rounds it
    turn = apply_rope_half if pairing == "neox" else apply_rope_interleaved
    return np.concatenate([turn(x[..., :r], positions, base), x[..., r:]], axis=-1)


def partial_partner(d: int, partial_rotary_factor: float, pairing: str = "neox") -> np.ndarray:
    """For each of d dimensions, the dimension it turns with, or −1 where it never turns: (d,) ints."""
    d = _checks.even_width(d, "d")
    _checks.one_of(pairing, "pairing", PARTIAL_PAIRINGS)
    partner = np.full(d, -1)
    if pairing == "proportional":
        kept = int(partial_rotary_factor * d // 2)
        partner[:kept], partner[d // 2:d // 2 + kept] = np.arange(kept) + d // 2, np.arange(kept)
        return partner
    r = int(d * partial_rotary_factor)
    if pairing == "neox":
        partner[:r] = (np.arange(r) + r // 2) % r
    else:
        partner[:r] = np.arange(r) ^ 1  # 2i <-> 2i + 1
    return partner


def slowest_wavelength(inv_freq: np.ndarray) -> float:
    """The longest wavelength 2π/θ among the pairs that turn (θ > 0), in tokens."""
    theta = np.asarray(inv_freq, dtype=float)
    return float(2 * math.pi / theta[theta > 0].min())


# ---------------------------------------------------------------------------
# 4. MLA: why RoPE is decoupled
# ---------------------------------------------------------------------------

FOLD_SCHEMES = ("no rope", "rope on the key", "decoupled")


def deepseek_rotary(x: np.ndarray, positions, base: float = 10000.0) -> np.ndarray:
    """DeepSeek-V3's rotation of the rotary slice (transformers 5.24 deepseek_v3
    apply_rotary_pos_emb_interleave): interleaved pairs (2i, 2i + 1) turn by p · θ_i, and the result
    is written de-interleaved, all first members then all second members. x: (seq, r), r even."""
    turned = apply_rope_interleaved(x, positions, base)  # (seq, r), interleaved
    return np.concatenate([turned[..., 0::2], turned[..., 1::2]], axis=-1)


def fold_error(scheme: str, seed: int = 0, latent: int = 16, d_head: int = 8, d_rope: int = 4,
               query_pos: int = 9) -> float:
    """Largest |score from a folded query − true score| over key positions 0..query_pos.

    Seeded random weights: a latent c (latent,) per key, an up-projection W_UK (d_head, latent) to
    the key, a query q. The fold precomputes W_UKᵀ q once per query and scores every cached latent
    by one dot product. "no rope": score q · (W_UK c), the fold is exact. "rope on the key": both
    q and W_UK c turned by position, q turned by m and the key by n; the fold built for one key
    position is wrong at the others. "decoupled" (MLA): the folded no-rope part plus a separate
    d_rope-wide rotated part shared by all heads: exact again.
    """
    _checks.one_of(scheme, "scheme", FOLD_SCHEMES)
    rng = np.random.default_rng(seed)
    W_uk = rng.standard_normal((d_head, latent))
    q, q_r = rng.standard_normal(d_head), rng.standard_normal(d_rope)
    C = rng.standard_normal((query_pos + 1, latent))  # (n, latent): the cached latents
    K_r = rng.standard_normal((query_pos + 1, d_rope))  # (n, d_rope): the shared rotated keys
    keys = np.arange(query_pos + 1)
    if scheme == "no rope":
        true = (C @ W_uk.T) @ q
        folded = C @ (W_uk.T @ q)
    elif scheme == "rope on the key":
        q_m = apply_rope_half(q[None], [query_pos])[0]  # the query turned by its position m
        true = apply_rope_half(C @ W_uk.T, keys) @ q_m  # each key turned by its own position n
        folded = C @ (W_uk.T @ q_m)  # the fold W_UKᵀ R_m q is right only for the key at n = 0
    else:
        rope_part = deepseek_rotary(K_r, keys) @ deepseek_rotary(q_r[None], [query_pos])[0]  # (n,)
        true = (C @ W_uk.T) @ q + rope_part
        folded = C @ (W_uk.T @ q) + rope_part
    return float(np.max(np.abs(folded - true)))


def mla_cache_numbers(kv_lora_rank: int, qk_rope_head_dim: int) -> int:
    """Numbers MLA caches per token and layer: the latent (kv_lora_rank) and the one rotated key
    shared by all heads (qk_rope_head_dim)."""
    return _checks.count(kv_lora_rank, "kv_lora_rank") + _checks.count(qk_rope_head_dim, "qk_rope_head_dim")


def mha_cache_numbers(n_heads: int, qk_head_dim: int, v_head_dim: int) -> int:
    """Numbers plain multi-head attention with the same heads would cache per token and layer:
    a key and a value per head."""
    return _checks.count(n_heads, "n_heads") * (_checks.count(qk_head_dim, "qk_head_dim")
                                                 + _checks.count(v_head_dim, "v_head_dim"))


# ---------------------------------------------------------------------------
# 5. Figures (figures_build turns each into docs/figures/layer_schemes.<name>.svg)
# ---------------------------------------------------------------------------

PLAN_LABELS = {"llama-4-scout": "Llama 4 Scout", "smollm3-3b": "SmolLM3-3B", "command-r7b": "Command R7B",
               "gemma-3-4b": "Gemma 3 4B", "gemma-2-9b": "Gemma 2 9B", "gpt-oss-20b": "gpt-oss-20b",
               "mistral-7b": "Mistral 7B v0.1"}
GEMMA3_LOCAL = {"d": 256, "base": 10000.0, "window": 1024, "factor": 8.0}  # gemma-3-4b-it's local layers


def _layer_map_figure(plt):
    from matplotlib.patches import Patch

    fig, ax = plt.subplots(figsize=(6.4, 3.9), layout="constrained")
    for row, slug in enumerate(PLAN_MODELS):
        for i, layer in enumerate(layer_plan(gallery_text_config(slug))):
            height = 0.8 if layer["window"] is None else 0.35  # tall: sees the whole context
            colour = SCHEME_LOOKS["rope"].colour if layer["rope"] else SCHEME_LOOKS["nope"].colour
            ax.bar(i, height, bottom=row - 0.4, width=0.8, color=colour, hatch=None if layer["rope"] else "xx",
                   edgecolor="white", linewidth=0.3)
    ax.set_yticks(range(len(PLAN_MODELS)), [PLAN_LABELS[s] for s in PLAN_MODELS])
    ax.invert_yaxis()
    ax.set(xlabel="layer", title="Which layers rotate, and how far each one sees", xlim=(-1, 48))
    handles = [Patch(color=SCHEME_LOOKS["rope"].colour, label="RoPE"),
               Patch(facecolor=SCHEME_LOOKS["nope"].colour, hatch="xx", edgecolor="white", label="NoPE"),
               Patch(color=MUTED, label="tall: whole context; short: window or chunk")]
    fig.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)
    return fig


def _temperature_figure(plt):
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    p = np.unique(np.geomspace(1, 10485760, 4000).astype(int))
    ax.plot(p, llama4_attn_temperature(p), **SCHEME_LOOKS["nope"].line(marker=None))
    m = p[p < 262144]  # Ministral3Config's max_position_embeddings
    ax.plot(m, mistral_attn_scale(m), **SCHEME_LOOKS["rope"].line(marker=None))
    ax.text(2, 1.5, "Llama 4, NoPE layers (dash-dot):\n1 + 0.1 ln(1 + ⌊(p+1)/8192⌋)", color=SCHEME_LOOKS["nope"].colour)
    ax.text(2, 1.25, "Ministral 3, every layer (solid):\n1 + 0.1 ln(1 + ⌊p/16384⌋)", color=SCHEME_LOOKS["rope"].colour)
    ax.set_xscale("log")
    ax.set(xlabel="query position p", ylabel="query multiplier",
           title="Query temperatures: the first step at 8,191 and at 16,384")
    return fig


def _local_figure(plt):
    c = GEMMA3_LOCAL
    trained, _ = rope_inv_freq(c["d"], {"rope_theta": c["base"]})
    leaked, _ = rope_inv_freq(c["d"], {"rope_type": "linear", "factor": c["factor"], "rope_theta": c["base"]})
    distances = np.arange(0, 65)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    for theta, look, label in ((trained, SCHEME_LOOKS["rope"], "as trained (base 10,000)"),
                               (leaked, METHOD_LOOKS["linear"], "linear ×8 leaked in")):
        same = np.cos(angle_table(distances, theta)).mean(axis=1)  # a key equal to the query, in every pair
        ax.plot(distances, same, **look.line(marker=None), label=label)
    ax.set(xlabel="distance from the query (tokens)", ylabel="score of an identical key\n(1 at distance 0)",
           title="A local Gemma 3 layer: what scaling does within its window")
    ax.legend(frameon=False)
    return fig


def _pairings_figure(plt):
    d, factor = 16, 0.25
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    names = {"neox": "half-split in the\nrotary part (NeoX)", "interleaved": "interleaved in the\nrotary part",
             "proportional": "proportional:\nhalf-split, whole head"}
    for row, pairing in enumerate(PARTIAL_PAIRINGS):
        partner = partial_partner(d, factor, pairing)
        turns = partner >= 0
        ax.scatter(np.arange(d)[turns], [row] * turns.sum(), color=BLUE, marker="o", s=40, zorder=3)
        ax.scatter(np.arange(d)[~turns], [row] * (~turns).sum(), facecolor="none", edgecolor=MUTED, s=40, zorder=3)
        for a, b in ((a, b) for a, b in enumerate(partner) if b > a):
            ax.annotate("", (b, row - 0.05), (a, row - 0.05), arrowprops=dict(
                arrowstyle="-", color=ORANGE, lw=1.5, connectionstyle=f"arc3,rad={-0.5 if b - a > 1 else -1.2}"))
    ax.set_yticks(range(3), [names[p] for p in PARTIAL_PAIRINGS])
    ax.set_ylim(2.6, -0.8)
    ax.set_xticks(range(0, d, 2))
    ax.set(xlabel="dimension of a 16-wide head (filled: turns)",
           title="partial_rotary_factor 0.25: which dimensions turn together")
    return fig


def _cache_figure(plt):
    fig, ax = plt.subplots(figsize=(6.4, 2.8), layout="constrained")
    rows = (("keys and values\nof 128 heads", mha_cache_numbers(128, 192, 128), MUTED),
            ("MLA: latent", 512, GREEN), ("MLA: shared\nrotated key", 64, BLUE))
    for y, (_label, value, colour) in enumerate(rows):
        ax.barh(y, value, color=colour)
        ax.text(value * 1.1, y, f"{value:,}", va="center")
    ax.set_xscale("log")
    ax.set_yticks(range(3), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.set(xlim=(10, 2e5), xlabel="numbers cached per token and layer (log scale)",
           title="DeepSeek-V3's cache: one latent and one rotated key")
    return fig


def figures() -> dict:
    """The page's figures as {name: matplotlib Figure}; nothing is saved or shown."""
    import matplotlib.pyplot as plt

    return {"layer_map": _layer_map_figure(plt), "temperature": _temperature_figure(plt),
            "local_window": _local_figure(plt), "pairings": _pairings_figure(plt), "mla_cache": _cache_figure(plt)}


# ---------------------------------------------------------------------------
# 6. Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    banner("1. Different schemes in different layers")
    rows = []
    for slug in PLAN_MODELS:
        plan = layer_plan(gallery_text_config(slug))
        nope = [i for i, layer in enumerate(plan) if not layer["rope"]]
        local = sum(layer["window"] is not None for layer in plan)
        rows.append((PLAN_LABELS[slug], len(plan), len(nope), local))
    table(["model", "layers", "NoPE layers", "windowed layers"], rows)
    say(f"With no positions, uniform attention under the causal mask gives the first token weight "
        f"{np.round(mask_position_signal(4), 3)} at positions 0..3: a NoPE layer can read where it is.")
    t = llama4_attn_temperature([8190, 8191, 100_000])
    say(f"Llama 4's NoPE-layer query multiplier at positions 8,190, 8,191 and 100,000: {np.round(t, 4)}.")
    p = [8191, 24575, 32767]
    table(["engine, --max-model-len 32,768", "multiplier at 8,191 / 24,575 / 32,767"],
          [(e, np.round(llama4_served_temperature(p, e, max_model_len=32768), 4)) for e in LLAMA4_ENGINES])
    say(f"Mistral's copy, every layer, F = 16,384: {np.round(mistral_attn_scale([16383, 16384]), 4)} "
        f"at positions 16,383 and 16,384.")

    banner("2. Local layers never see past their window")
    c = GEMMA3_LOCAL
    trained, _ = rope_inv_freq(c["d"], {"rope_theta": c["base"]})
    leaked, _ = rope_inv_freq(c["d"], {"rope_type": "linear", "factor": c["factor"], "rope_theta": c["base"]})
    say(f"Gemma 3's local layer (window {c['window']}): scores move by {local_score_change(trained, leaked, 1024):.2f} "
        f"of their largest value when linear ×8 leaks in.")

    banner("3. Partial rotary: three pairings")
    for pairing in PARTIAL_PAIRINGS:
        say(f"{pairing:>12}: partners {partial_partner(8, 0.5, pairing)}")
    say(f"By family: {PAIRING_BY_MODEL_TYPE} (glm4_moe is GLM-4.5's code).")

    banner("4. MLA: why RoPE is decoupled")
    table(["scheme", "largest error of the folded score"], [(s, gap_text(fold_error(s))) for s in FOLD_SCHEMES])
    takeaway(f"MLA caches {mla_cache_numbers(512, 64)} numbers per token and layer instead of "
             f"{mha_cache_numbers(128, 192, 128):,}.")


if __name__ == "__main__":
    demo()
