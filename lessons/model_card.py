r"""
# Reading a model card: what a config.json says about positions

Run it: `python -m modelcard path/to/config.json` for one model's report
(`--json` for the machine-readable card, `--length N` for the length you plan
to serve; `python -m lessons.model_card CONFIG` is its old name),
`python -m modelcard` for every report of the
[gallery](../reference/model-card-gallery.md), or `python -m lessons.model_card`
for this page's reading of each gallery config. Builds on `lessons.positional` (sinusoidal codes, learned
tables, RoPE's speeds), `lessons.alibi` (ALiBi and NoPE layers) and
`lessons.context_extension` (every scaling rule a config can name).

## Decode a config in your browser

Paste a model's `config.json` (or pick one from the gallery) and press
*Explain*: the page shows the same report as the command, with the
wavelength plot. A verdict comes first, with a link to the *How to choose*
of the lesson that decides it; then any warning with its fix and the lesson
that explains it; then the readings as tables, each row linked to the
section that teaches what this config names (a `llama3` block to Llama 3's
rule, a `yarn` block to YaRN). It runs in your browser; nothing is sent
anywhere. The explorer below it starts at the config's base, rotary width
and stretch (the length served ÷ the trained length, or the stretch the
config's block is made for if that is larger: Qwen2.5's YaRN block at 4×).
Its first row is the config's own block; each row below asks what another
rule would do if you set it for that stretch: how many pairs go past the
angles training showed, how many the rule leaves untouched, and how far it
slows the slowest pair. Layers that attend within a window or a chunk
(Llama 4 Scout's chunks of 8,192) are read at that distance at most.

<div id="model-card-decoder" markdown="0"></div>

## Level 1: the practitioner's guide

**In one sentence.** About a dozen keys of a `config.json`, spelled four or
five different ways across model families, decide how a model knows word
order, how long the inputs were that it learned from, and how far an engine
will let you push it; read them in a fixed order and you know what to serve
and what will break.

**When you need it.** When you pick a model for long documents and the card
promises a context window; when you set `--max-model-len` in vLLM or
`--ctx-size` in llama.cpp; when a converted or quantised copy behaves worse
on long prompts than the original; when a model answers well up to some
length and then drifts into fluent nonsense, with nothing in the logs. The
tell is a number on the card that the config does not back up.

**Your options.** The ways to find out what a checkpoint does with
positions, from quickest to most thorough.

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Read `max_position_embeddings` alone | Takes the config's stated length as the answer | A number in seconds | Misses the trained length, the scaling rule and layers without positions | Every Hugging Face `config.json` |
| Read the position keys in order (this page) | Scheme, layer plan, lengths, RoPE block, per-pair picture | The trained, claimed and served lengths and the traps | Five minutes and this page's checklist | `config.json`, plus `text_config` for vision-language models |
| Run the decoder | The same reading, done by code that matches `transformers` | A report, a JSON card, warnings | A `python -m` command, or the box above | `python -m modelcard` |
| Ask the engine | Starts the server and reads what it derived | The length the engine will actually accept | A GPU and a download | vLLM's start-up log; llama.cpp's model metadata print-out |
| Measure | Long-prompt tests at the length you will serve | Whether quality holds, not only whether the code runs | Hours of compute | Your evaluation harness |

**How to choose.**

- Choosing between models: run the decoder on each config and compare the
  trained lengths, not the claimed ones; where the config states only a
  limit, the report says so, and the model's paper or card must tell the
  rest.
- Setting up serving: read the served length the report derives (the one
  vLLM uses when you give no `--max-model-len`), and copy the engine lines it
  prints. Name the release you run (`--engine vllm==0.33.0`, or the menu
  above) to see the known position bugs of that release that apply to the
  config, each with the thread it was read in.
- Copying, converting or fine-tuning a checkpoint: decode the original and
  the copy and compare the two JSON cards; they must agree. For a llama.cpp
  file, `python -m modelcard model.gguf --compare config.json` lists
  what the conversion kept, changed, dropped or baked into `rope_freqs` (the
  Llama 3 rule) or `rope_factors_long` and `rope_factors_short` (LongRoPE's
  lists) (`compare_gguf`, in modelcard/cli.py; the header is read
  with llama.cpp's own `gguf` package).
- Any promise past the trained length: measure it (`lessons.context_extension`
  says what each scaling rule can and cannot do).

**What it costs.** Reading is free; the length you choose is what costs.
Llama 4 Scout's config claims 10,485,760 positions; its 12 layers without
RoPE attend to every earlier token, so at that length their key-value cache
alone is 480 GiB per sequence in 16-bit numbers (8 key-value heads of width
128, `kv_cache_bytes`), before the 36 RoPE layers, which only keep a chunk of
8,192 tokens each.

**What breaks.**

- **Reading the claimed length as the trained one.** Llama 3.1's config says
  131,072 positions; its RoPE block says it was trained at 8,192 and
  stretched. The report prints both, and the stretch between them.
- **A factor that is not the length ratio.** Llama 3.1's `factor` is 8 while
  its lengths differ 16 times, and Gemma 3's linear factor 8 says nothing
  about its trained length. In the llama3 rule the factor is the recipe's
  setting, not a ratio of lengths, so the report says nothing about it; a
  linear or LongRoPE block whose factor and lengths disagree gets a warning.
- **Keys under another name.** The RoPE block is `rope_parameters` in new
  files and `rope_scaling` in old ones; its type is `rope_type` or `type`; the
  base is `rope_theta` or GPT-NeoX's `rotary_emb_base`; the turning share is
  `partial_rotary_factor`, `rotary_pct` or, as a width, `rotary_dim`.
  Reading one spelling and missing another silently changes every speed.
- **Keys one level down.** A vision-language model keeps its language
  model's keys under `text_config`; the top-level keys describe the wrapper.
- **`no_rope_layers` read the wrong way round.** A 1 means the layer uses
  RoPE, a 0 means it does not (Llama 4 and SmolLM3 configs, read in
  `transformers`' configuration files).
- **A wrong layer plan.** Gemma 2, Gemma 3 and gpt-oss mix sliding-window and
  full-attention layers, and Gemma 3 gives the two different bases. The plan
  comes from `layer_types` or from each model's own rule; the report prints
  it.
- **A setting lost on the way.** Converting to another format or engine can
  drop the RoPE block or the layer plan; the copy then reads long positions
  differently from the original. Decode both.

![Llama 3.1 8B's card as a picture: the wavelength of each rotary pair on a log scale, before and after its llama3 scaling, with the trained length its RoPE block states and the config's much larger length drawn across](figures/model_card.llama_3_1_8b.svg)

**Reading it:** this is the site's main example, drawn from its `config.json`
alone. Each line runs over the rotary pairs, left to right, at the number of
positions each takes to turn once. The two horizontal lines are the two
lengths of *Reading the claimed length as the trained one* (below): the
dotted one, low down, is the length the model was trained at, the dash-dotted
one the length the config claims. The dashed line is the pairs before
scaling, the solid line after: the llama3 rule leaves the fast pairs as
trained and slows the slow ones, the recipe the checkpoint was extended with.
Serve it beyond the dotted line only with that block in place.

**In the wild.** The [model-card gallery](../reference/model-card-gallery.md)
decodes 26 published configs: Llama 2,
3.1, 3.2 and 4 Scout, Mistral 7B, Command R and Command R7B, Falcon 7B,
GLM-4, Qwen2.5 with YaRN, Qwen2-VL, Qwen3-Next, Gemma 2 and 3, Phi-3.5-mini,
Phi-3-vision, DeepSeek-V3, gpt-oss, SmolLM3, ModernBERT, Pythia, GPT-J,
BLOOM, MPT, GPT-2 and BERT. Each entry says where the keys were read.

**What each engine serves, in plain words.** The engines do not agree, and
none of them asks how long the model was trained. vLLM takes the smallest
length key in the config (or `model_max_length` when there is one, or 2,048
when there is none) and refuses a longer `--max-model-len` until you raise
the config's length with `--hf-overrides`. For LongRoPE it starts at the
short, trained length and picks one factor list for every prompt when it
starts. SGLang reads the keys in another order and asks for an environment
variable or `--json-model-override-args` before it goes longer. llama.cpp
serves the length its converter wrote into the GGUF file; some families get
a fixed or a borrowed number there (Falcon 2,048, BLOOM its hidden size).
transformers sets no limit and computes whatever it is given. So, past the
trained length, each command needs two things: the longer length, and a
scaling entry the config may lack. The report's commands carry both, in
each engine's own flags. An engine that accepts a length can still build a
RoPE table that stops short of it, and looks a position past the table up
anyway: vLLM builds a YaRN block's table with the original length times the
factor whatever the config's length says, a dynamic block's with the
config's length though it serves the factor times more. A command is printed
only when its table covers every position it serves; otherwise the line
says "no command" and why. The same goes for an architecture a release no
longer serves: vLLM 0.33.0's registry lists MPT among the models it served
until 0.28.0, so MPT gets no vLLM command.

**Go deeper.** Level 2 walks through the reading step by step, then through
the gallery's six groups of configs, each with a worked example. A practitioner can stop
here and use the decoder; an author of serving or conversion code should
read on, because each step names a rule a model family broke.

## Level 2: how it works, from scratch

## Step 1: find the language model's keys

**Everyday picture.** A car's registration papers list the engine under
"engine", "motor" or "power unit" depending on the country, and a camper van
has a second page for the living quarters. You learn the synonyms once, and
you know which page describes the part that drives.

**Tiny worked example.** A vision-language config has two levels:
`{"model_type": "llama4", "text_config": {"model_type": "llama4_text",
"head_dim": 128, ...}}`. The decoder reads `text_config`, and fills in what
the file leaves out from the model type's defaults in `transformers` (Gemma
3's files omit `head_dim`, 256). GPT-NeoX's `rotary_pct` 0.25 becomes a
`partial_rotary_factor` of 0.25; GPT-J's `rotary_dim` 64 of a 256-wide head
becomes 0.25 as well.

**In Python:**

```python
from lessons.model_card import explain, head_width, language_config, rope_block

wrapped = {
    "model_type": "llama4",
    "text_config": {"model_type": "llama4_text", "num_hidden_layers": 4},
}
language_config(wrapped)["model_type"]  # → 'llama4_text'
head_width(language_config({"model_type": "gemma3_text"}))  # → 256
rope_block({"rotary_pct": 0.25, "rotary_emb_base": 10000})
# → {'rope_theta': 10000, 'partial_rotary_factor': 0.25}
gptj = {
    "model_type": "gptj",
    "n_embd": 4096,
    "n_head": 16,
    "rotary_dim": 64,
    "n_layer": 28,
    "n_positions": 2048,
}
explain(gptj).rope[0].rotary_dim  # → 64
```

**In code:** `language_config` picks the right level, `rope_block` merges the
spellings into one RoPE block, `head_width` finds the head width.

**Why it matters.** Each spelling that a reader misses changes a number
silently: a missed `rotary_pct` turns all 128 dimensions of a Pythia head
instead of 32, and every later speed is wrong.

## Step 2: the scheme of each layer

**Everyday picture.** A building's floor plan: most floors have the same
layout, some have a different one, and a few have no stairs at all. You
check each floor, not only the lobby.

**Tiny worked example.** Llama 4 Scout has 48 layers and an empty
`no_rope_layers` list. Its configuration class then marks every fourth layer
(`no_rope_layer_interval` 4) as a layer without RoPE: layers 3, 7, ..., 47,
12 in all. The other 36 rotate. A model whose layers mix RoPE and no
positions is "mixed"; BLOOM names no key at all, because its architecture
always uses ALiBi; GPT-2 adds a learned table. Some families decide by layer
type instead (read in transformers 5.24's configuration and modeling files):
Cohere2 rotates only its sliding-window layers, Qwen3-Next's linear-attention
layers have no RoPE at all, and ModernBERT keeps a position_embedding_type
of "absolute" left over from BERT while every layer rotates, with base
160,000 in its global layers and 10,000 in its local ones.

```mermaid
flowchart TD
    A[config.json] --> B{text_config?}
    B -- yes --> C[read the language<br/>model's keys]
    B -- no --> C
    C --> D{ALiBi flag<br/>or BLOOM?}
    D -- yes --> E[alibi: one<br/>slope per head]
    D -- no --> F{RoPE keys<br/>or a RoPE<br/>model type?}
    F -- yes --> G[rope: then<br/>no_rope_layers<br/>and layer_types]
    F -- no --> H{position_<br/>embedding_type<br/>or model type}
    H --> I[learned or<br/>sinusoidal]
    G --> J[mixed when<br/>some layers<br/>skip RoPE]
```

**Reading it:** the decoder asks the questions in this order and stops at the
first answer; a config that answers none of them is an error, not a guess.

**In Python:**

```python
from lessons.model_card import explain

scout_text = {
    "model_type": "llama4_text",
    "num_hidden_layers": 48,
    "no_rope_layers": [],
    "attention_chunk_size": 8192,
    "rope_theta": 500000.0,
    "head_dim": 128,
    "max_position_embeddings": 10485760,
}
card = explain({"model_type": "llama4", "text_config": scout_text})
card.scheme  # → 'mixed'
len(card.nope_layers), card.nope_layers[:3]  # → (12, (3, 7, 11))
explain({"model_type": "bloom", "n_head": 4, "n_layer": 2}).scheme  # → 'alibi'
explain(
    {
        "model_type": "gpt2",
        "n_positions": 1024,
        "n_embd": 768,
        "n_head": 12,
        "n_layer": 12,
    }
).scheme
# → 'learned'
cohere2 = explain(
    {
        "model_type": "cohere2",
        "num_hidden_layers": 8,
        "hidden_size": 4096,
        "num_attention_heads": 32,
    }
)
cohere2.scheme, cohere2.nope_layers  # → ('mixed', (3, 7))
modernbert = explain(
    {
        "model_type": "modernbert",
        "position_embedding_type": "absolute",
        "hidden_size": 768,
        "num_attention_heads": 12,
        "num_hidden_layers": 22,
    }
)
modernbert.scheme, [g.base for g in modernbert.rope]
# → ('rope', [160000.0, 10000.0])
```

**In code:** `explain` decides the scheme with `base_scheme` and
`alibi_setting`, reads the layer plan with `layer_types` and `nope_flags`
(which reuses `lessons.alibi.nope_layers`), and counts layers with
`layer_count`.

**Why it matters.** A layer without positions, or a layer with its own base,
changes what "the model's RoPE" means; a decoder that reads only the first
layer's setup misreads Gemma 3, Llama 4, SmolLM3, Cohere2, Qwen3-Next and
ModernBERT.

## Step 3: three lengths

**Everyday picture.** A bridge has the load it was tested with, the load on
the sign, and the load of the lorry that actually drives across. The second
can be larger than the first only if someone reinforced the bridge.

**Tiny worked example.** Qwen2.5-7B's config says 32,768 positions. Its
model card asks readers who need more to add a YaRN block, factor 4, over an
original 32,768. The trained length stays 32,768 and so does the config's
length. vLLM 0.33.0 takes a YaRN config's length as already stretched (it
multiplies only linear and dynamic blocks by their factor), so it serves
32,768 and refuses a longer `--max-model-len` until the config's length is
raised too: 131,072 needs `--hf-overrides` with `max_position_embeddings`
131,072 beside the block.

| Length | Where it comes from | Qwen2.5 with YaRN |
|---|---|---|
| trained | `original_max_position_embeddings` in the RoPE block, else the config's length | 32,768 |
| claimed by the config | the smallest length key (`max_position_embeddings`, `n_positions`, ...) | 32,768 |
| served | vLLM 0.33.0's rule, or `--length` | 32,768 |

**In Python:**

```python
from lessons.model_card import explain
from modelcard.engines import vllm_max_model_len

qwen = {
    "model_type": "qwen2",
    "hidden_size": 3584,
    "num_attention_heads": 28,
    "num_hidden_layers": 28,
    "max_position_embeddings": 32768,
    "rope_theta": 1000000.0,
    "rope_scaling": {
        "type": "yarn",
        "factor": 4.0,
        "original_max_position_embeddings": 32768,
    },
}
card = explain(qwen)
card.trained_length, card.max_length, vllm_max_model_len(card)
# → (32768, 32768, 32768)
stretched = explain(
    {**qwen, "max_position_embeddings": 131072}
)  # what --hf-overrides makes of it
vllm_max_model_len(stretched), stretched.trained_length  # → (131072, 32768)
from modelcard.engine_tables import table_rows
# YaRN's table: original x factor rows, whatever the config's length says
table_rows(card, "vllm")[0], table_rows(stretched, "vllm")[0]
# → (131072, 131072)
```

**In code:** `lengths` reads the trained and claimed lengths. The engines'
rules are the decoder's, beside this page's reading (modelcard/engines.py):
`vllm_length_limit` follows vLLM 0.33.0's `_get_and_verify_max_len`
(vllm/config/model.py) and `derive_max_model_len_and_key`
(vllm/transformers_utils/model_arch_config_convertor.py): the smallest of
nine length keys, replaced by `model_max_length` when that is set, 2,048 when
none is, times the `factor` of a linear or dynamic block (not YaRN, LongRoPE
or the Llama 3 rule, and never for Gemma 3, whose stated length is already
the stretched one); `vllm_max_model_len` is what vLLM serves by default,
the same except for LongRoPE, which starts at its original length. Rules
move between releases: before vLLM PR #56446 a YaRN block multiplied the
original length by its factor. `table_rows` (modelcard/engine_tables.py) is
how far the cos/sin table each engine then builds reaches, read in each class's
`_compute_cos_sin_cache`
(vLLM's model_executor/layers/rotary_embedding/, SGLang's
srt/layers/rotary_embedding/, with SGLang's growth at load); llama.cpp builds
none.

**Why it matters.** The served length is the one that decides memory and
quality, and it is printed nowhere in the config; the engine derives it.

## Step 3b: the length each engine serves, and the JSON card

**Tiny worked example.** GPT-2's config says `n_positions` 1,024. vLLM
0.33.0 reads `n_positions` and serves 1,024; the llama.cpp converter writes
1,024 into the file and `-c 0` uses it; SGLang 0.5.23 asks the loaded config
for `max_position_embeddings`, which GPT2Config's `attribute_map` answers with
`n_positions`, so it serves 1,024 too (reading the raw file, it would find none
of its keys and fall back to 2,048, past the table's rows). A config that sets
`max_position_embeddings` 8,192 and
`model_max_length` 131,072 (vLLM's source names Command R beside that key)
is served at 131,072 by vLLM and SGLang; llama.cpp's converter reads
`model_max_length` first for Command R (conversion/command_r.py), so its file
says 131,072 too, while a Llama config with the same two keys converts at
8,192.

**In Python:**

```python
from lessons.model_card import explain, gallery
from modelcard.engines import served_lengths

served_lengths(explain(gallery()["gpt2"]["config"]))
# → {'transformers': None, 'vllm': 1024, 'sglang': 1024, 'llama.cpp': 1024}
two_limits = {
    "model_type": "cohere",
    "max_position_embeddings": 8192,
    "model_max_length": 131072,
    "hidden_size": 8192,
    "num_attention_heads": 64,
    "rope_theta": 8000000.0,
}
served_lengths(explain(two_limits))
# → {'transformers': None, 'vllm': 131072, 'sglang': 131072,
#   'llama.cpp': 131072}
served_lengths(explain({**two_limits, "model_type": "llama"}))["llama.cpp"]
# → 8192
```

**In code:** `served_lengths` collects `vllm_max_model_len`,
`sglang_context_length` (SGLang 0.5.23's `get_context_length`,
sglang/srt/utils/hf_transformers/common.py) and `llama_cpp_context_length`
(llama.cpp as vendored in llama-cpp-python 0.3.36: `set_gguf_parameters` in
conversion/base.py writes the length, `-c 0` in common/common.h uses it;
leaving `-c` out is not the same: with `--fit` on, its default, common/fit.cpp
may shrink an unset context to fit the device's memory, down to `--fit-ctx`
4,096, while `-c 0` turns that off, common/arg.cpp, so every command here
gives `-c`); transformers caps no length, so its entry is None (all in
modelcard/engines.py). `--json` prints the card (`card_json`, in
modelcard/report.py, beside the report and the command) with these
fields:

| Field | Type | Meaning |
|---|---|---|
| `model_type`, `scheme` | string | the model type; rope, alibi, learned, sinusoidal, none or mixed |
| `trained_length` | integer or null | the trained length, or the config limit standing in for it |
| `trained_length_stated` | boolean | true only when `original_max_position_embeddings` states it |
| `max_length` | integer or null | the config's limit (the smallest length key) |
| `rope` | list | per group of layers: `layer_type`, `layers`, `rope_type`, `rotary_dim`, `pairing` (half-split or interleaved), `inv_freq`, `attention_factor` |
| `nope_layers`, `alibi_slopes` | list | the layers without RoPE; ALiBi's slopes or null |
| `sliding_window`, `layer_types` | integer, list or null | the window, and each layer's attention type |
| `served` | object | `transformers`, `vllm`, `sglang`, `llama.cpp`: the default length, integer or null |
| `served_from` | object | the same keys: what decides that length, in words (a config key, `model_max_length`, a converter's rule, the fallback) |
| `commands` | object | the same keys: a command that serves the length (`--length`, else vLLM's default), or null where the engine cannot; transformers, which has no length setting, is always null |
| `multipliers` | list | every other factor on attention: `name`, `value` (a number, a formula in the position p, or null when learned), `layers`, `starts_at` (the first position where a formula leaves 1) |
| `warnings` | list of strings | what to look at before serving |
| `known_bugs` | list | only with `--engine`: the rows of modelcard/known_bugs.json that apply (`ref`, `engine`, `first`, `fixed`, `checked`, `rule`, `applies`, `symptom`, `do`, `source`, `status`) |

**Why it matters.** Engines disagree on the length to serve by default, and
their rules move between releases; two cards compared as JSON now differ
when a window, a layer plan, a served length or a warning does.

### Known bugs of the release you run

**Tiny worked example.** Qwen2.5's model card tells readers to add YaRN with
factor 4 over `original_max_position_embeddings` 32,768 while
`max_position_embeddings` stays 32,768. transformers 4.51.0 to 4.55.4
replaced that factor by `max_position_embeddings` over the original length,
here 1: YaRN was switched off without a word (transformers issue #38224,
fixed in 4.56.0). Nothing in the config shows it; only the release does.

**In Python:**

```python
from lessons.model_card import explain, gallery
from modelcard.known_bugs import known_bugs

qwen = explain(gallery()["qwen2.5-7b-yarn"]["config"])
[row["ref"] for row in known_bugs(qwen, None, "transformers==4.55.4")]
# → ['transformers #38224']
[row["ref"] for row in known_bugs(qwen, None, "transformers==4.56.0")]
# → []
```

**In code:** `--engine ENGINE==RELEASE` (`vllm==0.33.0`, `sglang==0.5.23`,
`transformers==4.55.4`, `llama.cpp==b5290`: llama.cpp names its builds) adds
a section of the rows of modelcard/known_bugs.json whose engine and
releases match and whose rule holds for the config at the length served,
each with its symptom, what to do and the thread it was read in; the verdict
counts them, and `--json` gains `known_bugs` (each row with its `status`:
the releases it was read for). The browser decoder offers the same releases
in a menu: each release where a row starts, is fixed or was last seen, and
the ones this page's other rules were read in. A row whose fix was not found
names the last release it was seen in, and a later release is shown as not
checked, never as fixed or as still broken.

## Step 4: every pair against the trained length

**Everyday picture.** A set of clock hands turning at different speeds. The
fast hands have gone round many times during training and have shown every
angle; the slow ones have covered only part of the dial. Stretching the
input asks the slow hands for angles they never showed.

**Tiny worked example.** A head of width 8 has 4 pairs. With base 10,000
they turn at 1, 0.1, 0.01 and 0.001 radians per position, so one full turn
takes about 6.3, 63, 628 and 6,283 positions. Trained at 64 positions, pairs
0 and 1 complete a turn and pairs 2 and 3 do not. Stretched 4 times, linear
scaling slows all four pairs; YaRN leaves pair 0 alone.

**The math.** Pair $i$ of a rotary width $d$ turns at speed $\theta_i$ and
needs $\lambda_i$ positions for one full turn; it completes a turn in
training when $\lambda_i$ is at most the trained length $L$:

$$\theta_i = b^{-2i/d}, \qquad \lambda_i = \frac{2\pi}{\theta_i}, \qquad \text{pair } i \text{ turns in training} \iff \lambda_i \le L$$

A scaling rule replaces $\theta_i$ by $\theta_i'$; its scale for pair $i$ is
$\theta_i' / \theta_i$: 1 leaves the pair untouched, $1/s$ slows it by the
whole stretch $s$.

**Symbols**

| Symbol | Meaning here | Value in the example |
|---|---|---|
| $b$ | the base, `rope_theta` | 10,000 |
| $d$ | the rotary width | 8 |
| $i$ | the pair index, $0 \dots d/2 - 1$ | 0 to 3 |
| $\theta_i$ | pair $i$'s speed, radians per position | 1, 0.1, 0.01, 0.001 |
| $\lambda_i$ | positions per full turn | about 6.3, 63, 628, 6,283 |
| $L$ | the trained length | 64 |
| $s$ | the stretch, served length ÷ $L$ | 4 |

**In words:** the smaller the speed, the longer the wave; a wave longer than
the training inputs was only ever seen as part of a turn.

**With the numbers:** $\lambda_1 = 2\pi / 0.1 \approx 62.8 \le 64$, so
pair 1 turns; $\lambda_2 = 2\pi / 0.01 \approx 628 > 64$, so pair 2 does
not; linear scaling gives every pair the scale $1/4 = 0.25$.

**In Python:**

```python
from lessons.model_card import compare_methods, explain, pairs_that_turn
from lessons.context_extension import rope_wavelengths

tiny = explain(
    {
        "model_type": "llama",
        "head_dim": 8,
        "num_attention_heads": 1,
        "hidden_size": 8,
        "num_hidden_layers": 1,
        "max_position_embeddings": 64,
    }
)
group = tiny.rope[0]
pairs_that_turn(group.inv_freq, 64).tolist()  # → [True, True, False, False]
scales = compare_methods(group, trained_length=64, stretch=4)
scales["linear (PI)"].tolist()  # → [0.25, 0.25, 0.25, 0.25]
scales["YaRN"][0]  # → 1.0
rope_wavelengths(group.inv_freq).round(1).tolist()
# → [6.3, 62.8, 628.3, 6283.2]
```

![For a head of width 8 trained at 64 positions, the wavelength of each of its four pairs under no scaling, linear, NTK-aware, YaRN and the Llama 3 rule at a stretch of 4](figures/model_card.tiny_methods.svg)

**Reading it:** each line is one rule; pairs below the trained-length line
complete a turn in training. Linear moves every pair up by the same factor;
NTK-aware (the base raised for the stretch) moves each pair a little more
than the one before it, only the last by the full stretch; YaRN and the
Llama 3 rule leave the fast pairs where they were and move only the slow
ones.

**In code:** `pairs_that_turn` compares each wavelength with a length;
`compare_methods` asks `lessons.context_extension.rope_inv_freq` what each
rule does at the same stretch; `scale_summary` (in
modelcard/report.py) says it in words for the report.

**Why it matters.** Whether a stretch is safe is decided pair by pair, and
the gallery's figures are this picture for real models (one per entry of
the [model-card gallery](../reference/model-card-gallery.md)).

## Gallery: plain RoPE

**Tiny worked example.** Llama 2 was trained at 4,096 positions (reported
by Touvron et al., 2023, Table 1; its config states only the limit, 4,096)
with base 10,000: 46 of its 64 pairs finish a full turn within that length,
and the slowest needs 54,410 positions for one. Pythia turns only a quarter of each
head (`rotary_pct` 0.25), GPT-J 64 of 256 dimensions (`rotary_dim`), and
Qwen2-VL's M-RoPE keeps plain speeds: `mrope_section` only says which pairs
follow the time, height and width of an image patch. GLM-4's remote-code
config states its base as 10,000 × `rope_ratio` 500 and its length as
`seq_length`.

**In Python:**

```python
from lessons.model_card import explain, gallery, pairs_that_turn

cards = {slug: explain(entry["config"]) for slug, entry in gallery().items()}
llama2 = cards["llama-2-7b"].rope[0]
int(pairs_that_turn(llama2.inv_freq, 4096).sum()), len(llama2.inv_freq)
# → (46, 64)
round(float(2 * 3.141592653589793 / llama2.inv_freq[-1]))  # → 54410
cards["pythia-1.4b"].rope[0].rotary_dim, cards["gpt-j-6b"].rope[0].rotary_dim
# → (32, 64)
cards["qwen2-vl-7b"].rope[0].rope_type  # → 'default'
glm = cards["glm-4-9b-chat"]
glm.rope[0].base, glm.max_length  # → (5000000.0, 131072)
```

**The configs of this group** are entries of the [model-card gallery](../reference/model-card-gallery.md#plain-rope): each opens to its figure, what the figure shows, and the report `python -m modelcard` prints.

**Ministral 3 and `--config-format hf`.** Ministral 3 multiplies every
layer's query by 1 + β·ln(1 + ⌊p / 16,384⌋), β being `llama_4_scaling_beta` in
its RoPE block (transformers 5.24 modeling_ministral3.py). vLLM 0.33.0 scales
queries only by `config.llama_4_scaling` (vllm/model_executor/models/mistral.py,
`MistralAttention.__init__`), a block that reaches the config only from
Mistral's params.json (vllm/transformers_utils/configs/mistral.py,
adapt_config_dict, passes it on); no file of that release reads
`llama_4_scaling_beta`. Served from config.json (`--config-format hf`, or a
repo without params.json), no query is scaled; the report says so for any
config with that key:

```python
from lessons.model_card import explain
from modelcard.engines import engine_notes

ministral = {
    "model_type": "ministral3",
    "head_dim": 128,
    "num_attention_heads": 32,
    "hidden_size": 4096,
    "max_position_embeddings": 262144,
    "rope_parameters": {
        "rope_type": "yarn",
        "rope_theta": 1e6,
        "factor": 16.0,
        "original_max_position_embeddings": 16384,
        "llama_4_scaling_beta": 0.1,
    },
}
card = explain(ministral)
card.multipliers[-1]["value"]  # → '1 + 0.1·ln(1 + floor(p / 16384))'
any("no query is scaled" in n for n in engine_notes(card, None))  # → True
```

**Why it matters.** Without a scaling block the config states a limit, not
a trained length: the report names it the config limit and warns that the
model may have trained on less (Mistral 7B's config says 32,768 where its
paper's Table 1 gives a context length of 8,192, Jiang et al., 2023); it
also warns when you pass `--length` beyond the limit.

## Gallery: the Llama 3 rule

**Tiny worked example.** Llama 3.1's block says: trained at 8,192, factor
8, pairs with waves shorter than 8,192 ÷ 4 = 2,048 positions untouched,
longer than 8,192 divided by 8, a blend between. Its config claims 131,072,
16 times the trained length. Llama 4 Scout sets both band edges to 1, so no
pair is blended, and claims 1,280 times its trained length.

**In Python:**

```python
from lessons.attention import kv_cache_bytes
from lessons.model_card import explain, gallery
from modelcard.engines import vllm_max_model_len

llama31 = explain(gallery()["llama-3.1-8b"]["config"])
vllm_max_model_len(llama31) / llama31.trained_length  # → 16.0
scout = explain(gallery()["llama-4-scout"]["config"])
scout.stretch  # → 1280.0
kv_cache_bytes(scout.max_length, len(scout.nope_layers), 8, 128) / 2**30
# → 480.0
```

**The configs of this group** are entries of the [model-card gallery](../reference/model-card-gallery.md#the-llama-3-rule): each opens to its figure, what the figure shows, and the report `python -m modelcard` prints.

**vLLM's own switch for the temperature.** transformers 5.24 applies the
temperature whenever `attn_temperature_tuning` is set (modeling_llama4.py),
and llama.cpp whenever the file has chunked attention, with a fixed floor of
8,192 (src/models/llama4.cpp, load_arch_hparams). vLLM 0.33.0 decides it
anew, over the config.json value: on if the generation config says so, else
only when `--max-model-len` is above 32,768
(vllm/model_executor/models/llama4.py, `Llama4ForCausalLM.__init__`). Served
at 32,768 or less, positions 8,191 on get no temperature there unless the
command says
`--override-generation-config '{"attn_temperature_tuning": true}'` (a JSON
dict, vllm/engine/arg_utils.py); the report adds that flag, and a note, at
those lengths only:

```python
from lessons.model_card import explain, gallery
from modelcard.report import card_json
from modelcard.engines import VLLM_TEMPERATURE_LEN

scout = explain(gallery()["llama-4-scout"]["config"])
VLLM_TEMPERATURE_LEN  # → 32768
[
    "attn_temperature_tuning" in card_json(scout, n)["commands"]["vllm"]
    for n in (VLLM_TEMPERATURE_LEN, VLLM_TEMPERATURE_LEN + 1)
]
# → [True, False]
```


**Why it matters.** The Llama 3 rule is fixed at training time; an engine
has nothing to tune, and llama.cpp writes the new speeds into the converted
file instead of reading a flag.

## Gallery: YaRN

**Tiny worked example.** YaRN keeps fast pairs, divides slow pairs by the
factor, ramps in between, and multiplies cos and sin by a small attention
factor: about 1.139 for Qwen2.5's factor 4 and 1.347 for gpt-oss's factor
32. DeepSeek-V3 sets `mscale` and `mscale_all_dim` equal, so its cos/sin
factor is 1 and the sharpening moves into the softmax scale instead, a
multiplier of about 1.874.

**In Python:**

```python
from lessons.model_card import explain, gallery

cards = {
    slug: explain(gallery()[slug]["config"])
    for slug in ("qwen2.5-7b-yarn", "gpt-oss-20b", "deepseek-v3")
}
round(cards["qwen2.5-7b-yarn"].rope[0].attention_factor, 3)  # → 1.139
round(cards["gpt-oss-20b"].rope[0].attention_factor, 3)  # → 1.347
(
    cards["deepseek-v3"].rope[0].attention_factor,
    round(cards["deepseek-v3"].softmax_multiplier, 3),
)
# → (1.0, 1.874)
cards["deepseek-v3"].rope[0].rotary_dim  # → 64
```

**The configs of this group** are entries of the [model-card gallery](../reference/model-card-gallery.md#yarn): each opens to its figure, what the figure shows, and the report `python -m modelcard` prints.

**Why it matters.** YaRN is read from the file by every engine; llama.cpp
needs the original length (`--yarn-orig-ctx`) to place the ramp.

## Gallery: LongRoPE

**Tiny worked example.** Phi-3.5-mini carries two lists of 48 divisors: a
short one for inputs up to 4,096 tokens and a long one beyond. The file
has no `factor`; `transformers` takes 131,072 ÷ 4,096 = 32 and derives the
attention factor from it.

**In Python:**

```python
from lessons.model_card import explain, gallery

phi = explain(gallery()["phi-3.5-mini"]["config"])
phi.stretch, round(phi.rope[0].attention_factor, 4)  # → (32.0, 1.1902)
len(phi.rope[0].inv_freq)  # → 48
```

**The configs of this group** are entries of the [model-card gallery](../reference/model-card-gallery.md#longrope): each opens to its figure, what the figure shows, and the report `python -m modelcard` prints.

**Why it matters.** Which list applies depends on the engine. transformers
switches per prompt at the trained length, so the same position is rotated
differently in a short and a long prompt, and a cache built during a short
prompt does not carry over. vLLM 0.33.0 serves 4,096 by default (vLLM PR
#27431) and decides once at start-up: with a `--max-model-len` past 4,096
the long list applies to every prompt (`phi3_long_rope_scaled_rope.py`).
llama.cpp chooses from the context size `-c` the same way
(`get_rope_factors`, src/llama-model.cpp).

## Gallery: layers that differ

**Tiny worked example.** Gemma 2 alternates sliding-window and full layers
but gives them one base. Gemma 3 makes every sixth layer global, with base
1,000,000 and the linear factor 8, and keeps base 10,000 and no scaling on
the 1,024-token sliding layers. SmolLM3 drops RoPE from every fourth layer.

**In Python:**

```python
from lessons.model_card import explain, gallery

gemma3 = explain(gallery()["gemma-3-4b"]["config"])
[(g.layer_type, len(g.layers), g.base) for g in gemma3.rope]
# → [('full_attention', 5, 1000000.0), ('sliding_attention', 29, 10000.0)]
smol = explain(gallery()["smollm3-3b"]["config"])
smol.scheme, len(smol.nope_layers)  # → ('mixed', 9)
```

**The configs of this group** are entries of the [model-card gallery](../reference/model-card-gallery.md#layers-that-differ): each opens to its figure, what the figure shows, and the report `python -m modelcard` prints.

**Why it matters.** A per-layer model has no single "RoPE setting": a
conversion that copies one base to every layer breaks Gemma 3's local
layers.

## Gallery: no rotation

**Tiny worked example.** BLOOM and MPT bias each head's scores by distance:
with 16 heads the first slope is 2^(−0.5) ≈ 0.7071, with 32 heads
2^(−0.25) ≈ 0.8409. MPT's file also sets `learned_pos_emb` true, yet the
model uses no position table when ALiBi is on (`transformers`' MPT model has
none), so the reader follows ALiBi. GPT-2 and BERT add a learned row per
position: 1,024 and 512 rows, and a position beyond the last row has no
vector at all.

**In Python:**

```python
from lessons.model_card import explain, gallery

cards = {
    slug: explain(gallery()[slug]["config"])
    for slug in ("bloom-560m", "mpt-7b", "gpt2", "bert-base-uncased")
}
(
    round(float(cards["bloom-560m"].alibi_slopes[0]), 4),
    round(float(cards["mpt-7b"].alibi_slopes[0]), 4),
)
# → (0.7071, 0.8409)
cards["mpt-7b"].scheme  # → 'alibi'
cards["gpt2"].max_length, cards["bert-base-uncased"].max_length
# → (1024, 512)
```

**The configs of this group** are entries of the [model-card gallery](../reference/model-card-gallery.md#no-rotation): each opens to its figure, what the figure shows, and the report `python -m modelcard` prints.

**Why it matters.** For these models the served length is a hard limit
(learned) or a soft one (ALiBi); no RoPE flag changes it.

## In 20 seconds

- Read the language model's keys (`text_config` for vision-language models)
  and fold the spellings into one RoPE block.
- Decide the scheme per layer: RoPE, ALiBi, a learned table, or none; mind
  `no_rope_layers` (1 = uses RoPE) and per-layer-type blocks.
- Keep three lengths apart: trained, claimed by the config, served by the
  engine.
- Compare each pair's wavelength with the trained length: that is where a
  stretch is safe or not.
- Let the decoder do it, and decode the copy you actually serve.

## Self-test questions

??? question "A config says max_position_embeddings 131072 and original_max_position_embeddings 8192. What was the model trained at?"
    8,192 positions, before stretching; 131,072 is what the config claims
    after its scaling rule. Whether quality holds that far depends on how
    the model was trained with the rule, not on the number.

??? question "A no_rope_layers list is [1, 1, 1, 0, 1, 1, 1, 0]. Which layers have no RoPE?"
    Layers 3 and 7: a 1 means the layer uses RoPE, a 0 that it does not.

??? question "Qwen2.5 with its YaRN block says 32,768 positions. Why does vLLM 0.33.0 refuse --max-model-len 131072?"
    vLLM 0.33.0 reads a YaRN config's length as already stretched and does
    not multiply it by the factor, so the longest length it accepts is the
    config's 32,768; raise `max_position_embeddings` to 131,072 with
    `--hf-overrides` (older releases multiplied 32,768 by 4 themselves).

??? question "Gemma 3's full-attention layers use linear scaling with factor 8. Does the decoder conclude that it was trained at 16,384 positions?"
    No: a linear factor is not a length ratio, and Gemma 3's config does not
    state its trained length, so the report says "not stated".

## The papers behind this lesson

- Jianlin Su et al., 2021. *RoFormer: Enhanced Transformer with Rotary
  Position Embedding.* [arXiv:2104.09864](https://arxiv.org/abs/2104.09864).
  The rotation every RoPE config parameterises. Companion:
  `papers.su2021_roformer`.
- Ofir Press, Noah A. Smith, Mike Lewis, 2021. *Train Short, Test Long:
  Attention with Linear Biases Enables Input Length Extrapolation.*
  [arXiv:2108.12409](https://arxiv.org/abs/2108.12409). BLOOM's and MPT's
  scheme. Companion: `papers.press2021_alibi`.
- Bowen Peng, Jeffrey Quesnelle, Honglu Fan, Enrico Shippole, 2023. *YaRN:
  Efficient Context Window Extension of Large Language Models.*
  [arXiv:2309.00071](https://arxiv.org/abs/2309.00071). The yarn block of
  Qwen2.5, DeepSeek-V3 and gpt-oss. Companion: `papers.peng2023_yarn`.
- Yiran Ding et al., 2024. *LongRoPE: Extending LLM Context Window Beyond 2
  Million Tokens.* [arXiv:2402.13753](https://arxiv.org/abs/2402.13753).
  The searched per-pair lists of Phi-3.5.
- Llama Team, AI @ Meta, 2024. *The Llama 3 Herd of Models.*
  [arXiv:2407.21783](https://arxiv.org/abs/2407.21783). The llama3 rule and
  the staged long-context training behind Llama 3.1's 128K.

## Further reading

- `transformers`' `modeling_rope_utils.py` (every `rope_type`) and each
  model's `configuration_<model>.py` (its defaults and layer plan): the
  reference this page's decoder is tested against.
- vLLM 0.33.0's `vllm/config/model.py` (`_get_and_verify_max_len`) and
  `vllm/transformers_utils/model_arch_config_convertor.py`
  (`derive_max_model_len_and_key`): how the served length is derived, read in
  the released wheel (`pip download --no-deps vllm==0.33.0`); llama.cpp's
  `src/llama-model.cpp` (`get_rope_factors`) as vendored in llama-cpp-python
  0.3.36: how the context size picks a LongRoPE list.
- Where each engine rule in the report was read, by release. vLLM 0.33.0
  (wheel): `vllm/config/model.py` (`_get_and_verify_max_len`,
  `_apply_dict_overrides`), `vllm/transformers_utils/config.py`
  (`patch_rope_parameters`, `config.update`),
  `model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py` and
  `dynamic_ntk_scaling_rope.py`, `model_executor/models/chatglm.py`,
  `llama4.py`, `mistral.py` and `registry.py`,
  `transformers_utils/configs/mistral.py`, `engine/arg_utils.py` and
  `envs.py` (flags and variables), `entrypoints/cli/serve.py`. SGLang 0.5.23
  (wheel):
  `srt/utils/hf_transformers/common.py` (`get_context_length`) and
  `config.py` (the override merge), `srt/configs/model_config.py`
  (`_derive_context_length`), `srt/arg_groups/fields/*.py`, `environ.py`,
  `srt/models/baichuan.py` and `chatglm.py`, `launch_server.py`. llama.cpp as
  vendored in llama-cpp-python 0.3.36 (sdist): `src/llama-model.cpp`,
  `src/models/llama4.cpp`, `src/llama-context.cpp`, `common/common.h`,
  `common/arg.cpp`,
  `conversion/base.py` (`set_gguf_parameters`) and the family converters
  `conversion/falcon.py`, `bloom.py`, `chatglm.py`, `command_r.py`,
  `tools/server/CMakeLists.txt`. transformers 5.24 (wheel): the
  configuration and modeling files of cohere, cohere2, glm, glm4, qwen3_next,
  modernbert, phi3, llama4, ministral3, gpt_oss, deepseek_v3 and falcon.
- `lessons.context_extension`: what each scaling rule does, pair by pair.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GRID, INK, METHOD_LOOKS, ORANGE, RED, SCHEME_LOOKS
from lessons.alibi import alibi_slopes, nope_layers
from lessons.context_extension import deepseek_softmax_multiplier, ntk_pair_scale, rope_type_of, rope_wavelengths
from lessons.tools import exact
from lessons.tools.exact import length_keys
from lessons.tools.model_types import (ALIBI_MODEL_TYPES, CLASS_DEFAULTS, DEFAULT_THETA, HEAD_KEYS,
                                       INTERLEAVED_MODEL_TYPES, LAYER_KEYS, LEARNED_MODEL_TYPES, LENGTH_KEYS,
                                       ROPE_MODEL_TYPES, SINUSOIDAL_MODEL_TYPES, WIDTH_KEYS, ConfigError, first_set,
                                       gallery, periodic_layer_types, text_nested, architectures,
                                       listed_layer_types, NO_ROPE_LAYER_TYPES, LEGACY_LAYER_TYPES, rope_switched_off)
from lessons.tools.rope_scaling import rope_inv_freq, split_by_layer_type

# --- 1. Which scheme: the keys that say how a model encodes positions (tables: lessons.tools.model_types)


def language_config(config: dict) -> dict:
    """The part of a config that describes the language model.

    A vision-language model (Llama 4, Gemma 3, newer Qwen2-VL files) nests it
    under `text_config`; the class defaults of its model type fill in the
    position keys the published file leaves out.

    Args:
        config: a whole config.json, as a dict.

    Returns:
        a new flat dict: the language model's keys over its class defaults.
    """
    exact.check_config(config)
    text = dict(config.get("text_config") or config)
    if config.get("text_config") is not None and "model_type" not in text:
        text["model_type"] = config.get("model_type")
    return {**CLASS_DEFAULTS.get(text.get("model_type"), {}), **text}


def rope_block(text: dict) -> dict | None:
    """The config's RoPE block, whatever its spelling, with the top-level RoPE keys folded in.

    `rope_parameters` (transformers 5) and `rope_scaling` (older files) are one
    block; `rope_theta` (or GPT-NeoX's `rotary_emb_base`), `partial_rotary_factor`
    (or GPT-NeoX's `rotary_pct`) and a top-level `original_max_position_embeddings`
    (Phi-3) join it. Contradicting spellings are a `ConfigError`.

    Args:
        text: the language model's config (from `language_config`).

    Returns:
        a new dict (flat, or split by layer type as Gemma 3's is), or None when
        the config has no RoPE key at all.
    """
    exact.check_rope_keys(text)  # one block, numbers, spellings that agree
    block = text.get("rope_parameters") if text.get("rope_parameters") is not None else text.get("rope_scaling")
    top = {name: first_set(text, spellings)[1] for name, spellings in exact.ROPE_SPELLINGS.items()
           if first_set(text, spellings)[0] is not None}
    if text.get("rotary_dim") is not None:  # GPT-J: the turning width in dimensions
        partial = _checks.count(text["rotary_dim"], "rotary_dim") / head_width(text)
        exact.check_rotary_dim(top, text["rotary_dim"], partial)
        top["partial_rotary_factor"] = partial
    if text.get("original_max_position_embeddings") is not None:
        top["original_max_position_embeddings"] = text["original_max_position_embeddings"]
    for key, value in exact.remote_code_rope(text).items():  # ChatGLM and Baichuan state none
        top.setdefault(key, value)
    if block is None and not top:
        return None
    block = json.loads(json.dumps(block or {}))
    nested = split_by_layer_type(block)
    for part in (block.values() if nested else [block]):
        if part is None:
            continue
        exact.check_folded(part, top)
        for key, value in top.items():
            part.setdefault(key, value)
    if not nested:
        exact.rename_longrope(block, text)
    return block


def head_width(text: dict) -> int:
    """The width of one attention head: `head_dim`, else hidden size ÷ heads.

    Args:
        text: the language model's config.

    Returns:
        the head width, an integer.
    """
    if text.get("head_dim") is not None:
        return _checks.count(text["head_dim"], "head_dim", low=2)
    if text.get("model_type") == "chatglm" and text.get("kv_channels") is not None:
        return _checks.count(text["kv_channels"], "kv_channels", low=2)
    width, heads = exact.check_head_keys(*first_set(text, WIDTH_KEYS), *first_set(text, HEAD_KEYS))
    return width // heads


def alibi_setting(text: dict) -> bool | None:
    """What the config says about ALiBi: True, False, or None when it says nothing.

    BLOOM always uses it (no key); MPT says `attn_config.alibi`; Falcon says
    `alibi`; BERT-style models say `position_embedding_type: "alibi"`.
    """
    said = []
    if text.get("model_type") in ALIBI_MODEL_TYPES:
        said.append(True)
    if text.get("model_type") == "baichuan":
        said.append(not exact.baichuan_rope(text))
    attn = text.get("attn_config")
    if isinstance(attn, dict) and attn.get("alibi") is not None:
        said.append(bool(attn["alibi"]))
    if text.get("alibi") is not None:
        said.append(bool(text["alibi"]))
    if text.get("position_embedding_type") is not None:
        said.append(text["position_embedding_type"] == "alibi")
    exact.check_alibi(said)
    return said[0] if said else None


def base_scheme(text: dict, block: dict | None) -> str:
    """The scheme the config's keys name, before NoPE layers are counted: one of
    "rope", "alibi", "learned", "sinusoidal"."""
    model_type, kind = text.get("model_type"), text.get("position_embedding_type")
    alibi = alibi_setting(text)
    exact.check_scheme(text, block, alibi)
    if model_type == "modernbert":  # a leftover "absolute" from BERT: every layer rotates (modeling_modernbert.py)
        return "rope"
    if alibi:
        return "alibi"
    if kind == "absolute":
        return "learned"
    if block is not None or kind in ("rotary", "rope_gptj") or model_type in ROPE_MODEL_TYPES:
        return "rope"
    if text.get("sinusoidal_embeddings") or model_type in SINUSOIDAL_MODEL_TYPES:
        return "sinusoidal"
    if model_type in LEARNED_MODEL_TYPES:
        return "learned"
    raise exact.no_scheme(model_type)


# --- 2. The layer plan: which layer type each layer is, and which layers skip RoPE


def layer_count(text: dict) -> int | None:
    """The number of layers (`num_hidden_layers`, `n_layer`, `n_layers` or `num_layers`), or None."""
    key, value = first_set(text, LAYER_KEYS)
    return None if key is None else _checks.count(value, key)


def layer_types(text: dict, n_layers: int | None) -> list[str] | None:
    """Each layer's attention type, as the model's config class fills it in.

    `layer_types` when the config lists them; else the model's own rule
    (transformers 5.24): Gemma 2 and gpt-oss alternate sliding and full from
    layer 0; Gemma 3 makes every `sliding_window_pattern`-th layer full; Qwen2
    slides from layer `max_window_layers` on when `use_sliding_window` is true;
    Llama 4's RoPE layers are "chunked_attention" when `attention_chunk_size` is
    set; a `sliding_window` elsewhere (Mistral 7B) slides every layer.

    Returns:
        one string per layer, or None when the layer count is unknown.
    """
    given = text.get("layer_types")
    if given is not None:
        if n_layers is not None and len(given) != n_layers:
            raise ConfigError(f"'layer_types' lists {len(given)} layers but the config has {n_layers}")
        return [LEGACY_LAYER_TYPES.get(str(t), str(t)) for t in given]  # as every 5.24 config class renames them
    if n_layers is None:
        return None
    model_type = text.get("model_type")
    window = text.get("sliding_window")
    planned = listed_layer_types(text, n_layers) or periodic_layer_types(text, n_layers)  # a hybrid's own key;
    if planned is not None:  # else every n-th layer full attention, the others of one type
        return planned
    if model_type in ("qwen2", "qwen2_vl", "qwen2_vl_text", "qwen2_moe"):
        slides = text.get("use_sliding_window") and window is not None
        start = text.get("max_window_layers", n_layers)
        return ["sliding_attention" if slides and i >= start else "full_attention" for i in range(n_layers)]
    if model_type == "llama4_text":
        flags = nope_flags(text, n_layers)
        chunked = text.get("attention_chunk_size") is not None
        return ["chunked_attention" if f and chunked else "full_attention" for f in flags]
    if model_type == "smollm3":
        flags = nope_flags(text, n_layers)
        slides = text.get("use_sliding_window") and window is not None
        return ["sliding_attention" if slides and not f else "full_attention" for f in flags]
    if window is not None and model_type in ("mistral", "mixtral"):
        return ["sliding_attention"] * n_layers
    return ["full_attention"] * n_layers


def nope_flags(text: dict, n_layers: int) -> list[int]:
    """One flag per layer, 1 = the layer uses RoPE, 0 = it skips it (`no_rope_layers`, read as
    Llama 4's and SmolLM3's config classes read it; see `lessons.alibi.nope_layers`). By layer type
    instead (transformers 5.24): Cohere2 rotates only its sliding-window layers (modeling_cohere2.py),
    Qwen3-Next only its full-attention layers (modeling_qwen3_next.py)."""
    model_type = text.get("model_type")
    if model_type not in ("llama4_text", "smollm3"):
        exact.check_no_nope_keys(text)
        if model_type == "cohere2":
            return [int(t == "sliding_attention") for t in layer_types(text, n_layers)]
        nope = rope_switched_off(text)  # a family key that leaves every layer unturned (ROPE_ONLY_WHEN)
        return [int(t not in NO_ROPE_LAYER_TYPES and not nope) for t in layer_types(text, n_layers)]
    skipped = nope_layers(n_layers, text.get("no_rope_layers"), text.get("no_rope_layer_interval", 4),
                          fill_empty=model_type == "llama4_text")
    return [int(i not in skipped) for i in range(n_layers)]


# --- 3. Lengths: the one the model trained at, the one it claims, the one you serve


def lengths(text: dict, scheme: str, block: dict | None) -> tuple[int | None, int | None]:
    """(trained_length, max_length) as the config states them.

    max_length: the smallest length key the config sets (`max_position_embeddings`, GPT-2's
    `n_positions`, MPT's `max_seq_len`, ...). trained_length: the RoPE block's
    `original_max_position_embeddings` when it has one (YaRN, LongRoPE, the Llama 3 rule, Phi-3);
    None for linear scaling without one (Gemma 3's factor 8 is not its length ratio); else
    max_length (no scaling block, or dynamic scaling, which reads it as the trained length).
    """
    found = [_checks.count(text[key], key) for key in LENGTH_KEYS if text.get(key) is not None]
    max_length = min(found) if found else None
    if scheme not in ("rope", "mixed") or not block:
        return max_length, max_length
    blocks = [b for b in block.values() if isinstance(b, dict)] if split_by_layer_type(block) else [block]
    originals = exact.one_original({b["original_max_position_embeddings"] for b in blocks
                                    if b.get("original_max_position_embeddings")})
    if originals:
        return _checks.count(originals.pop(), "original_max_position_embeddings"), max_length
    if any(rope_type_of(b) == "linear" for b in blocks):
        return None, max_length
    return max_length, max_length



# --- 4. One card: the scheme per layer, the RoPE of each group of layers, warnings


@dataclass(frozen=True)
class RopeGroup:
    """Layers that share one RoPE setup.

    Attributes:
        layer_type: "all" when every rotary layer shares this setup, else the
            config's layer type ("full_attention", "sliding_attention", ...).
        layers: 0-based indices of the layers in the group.
        rope_type: as transformers names it ("default" for plain RoPE and M-RoPE).
        rotary_dim: how many dimensions of each head turn.
        head_dim: the head width RoPE is applied within.
        base: rope_theta.
        inv_freq: (rotary_dim/2,) the speeds θ_i, as transformers computes them.
        default_inv_freq: (rotary_dim/2,) the speeds with no scaling (same base).
        attention_factor: the number that multiplies cos and sin.
        parameters: the RoPE block this group was computed from.
        pairing: "half-split" (dimension i turns with i + rotary_dim/2, GPT-NeoX's layout) or
            "interleaved" (2i with 2i + 1, GPT-J's layout; `pairing`).
    """

    layer_type: str
    layers: tuple[int, ...]
    rope_type: str
    rotary_dim: int
    head_dim: int
    base: float
    inv_freq: np.ndarray
    default_inv_freq: np.ndarray
    attention_factor: float
    parameters: dict
    pairing: str = "half-split"


def pairing(text: dict) -> str:
    """Which dimensions a model's RoPE turns together: "interleaved" or "half-split".

    INTERLEAVED_MODEL_TYPES turn 2i with 2i + 1 (ChatGLM unless `original_rope` is false,
    DeepSeek-V3 unless `rope_interleave` is false), as does Cohere's `position_embedding_type`
    "rope_gptj"; every other family turns i with i + rotary_dim/2. A checkpoint converted
    between the layouts needs its query and key rows permuted (`lessons.rope`).
    """
    model_type = text.get("model_type")
    if (model_type == "chatglm" and text.get("original_rope") is False) or (
            model_type == "deepseek_v3" and text.get("rope_interleave") is False):
        return "half-split"
    interleaved = model_type in INTERLEAVED_MODEL_TYPES or text.get("position_embedding_type") == "rope_gptj"
    return "interleaved" if interleaved else "half-split"


@dataclass(frozen=True)
class ModelCard:
    """What a config.json says about positions (`modelcard.report.card_json` makes it the
    command's --json output).

    Attributes:
        model_type: the config's model_type, or None.
        scheme: "rope", "alibi", "learned", "sinusoidal", "none" or "mixed".
        trained_length: the length positions were trained at, or None.
        max_length: the longest input the config claims, or None.
        rope: one `RopeGroup` per distinct RoPE setup.
        nope_layers: layers of a RoPE model that skip RoPE.
        alibi_slopes: (n_heads,) ALiBi slopes, or None.
        n_layers: the layer count, or None.
        layer_types: one attention type per layer, or None.
        sliding_window: the sliding window, or None.
        softmax_multiplier: DeepSeek's extra factor on the softmax scale, or None.
        warnings: what to look at before serving this config.
        length_keys: (key, value) of each ENGINE_READ_LENGTH_KEYS key set to a positive integer.
        trained_stated: False when trained_length is the config's limit standing in for it.
        qk_width: DeepSeek's query and key width (qk_nope_head_dim + qk_rope_head_dim), or None.
        multipliers: every position-dependent factor on attention (`exact.multipliers`), each
            {"name", "value", "layers", "starts_at"}.
        nested: True when transformers keeps the language model's keys under `text_config` (`text_nested`).
        width: the hidden size (`WIDTH_KEYS`), or None.
        architectures: the config's `architectures`, which engines' registries are keyed on.
        chunk: the span Llama 4's chunked_attention layers attend within (`attention_chunk_size`), or None.
    """

    model_type: str | None
    scheme: str
    trained_length: int | None
    max_length: int | None
    rope: tuple[RopeGroup, ...]
    nope_layers: tuple[int, ...]
    alibi_slopes: np.ndarray | None
    n_layers: int | None
    layer_types: tuple[str, ...] | None
    sliding_window: int | None
    softmax_multiplier: float | None
    warnings: tuple[str, ...]
    length_keys: tuple[tuple[str, int], ...] = ()
    trained_stated: bool = False
    qk_width: int | None = None
    multipliers: tuple[dict, ...] = ()
    nested: bool = False
    width: int | None = None
    architectures: tuple[str, ...] = ()
    chunk: int | None = None

    @property
    def stretch(self) -> float | None:
        """max_length ÷ trained_length, or None when either is unknown."""
        if not self.trained_length or not self.max_length:
            return None
        return self.max_length / self.trained_length


def explain(config: dict) -> ModelCard:
    """Read a whole published config.json and say what it does with positions.

    Args:
        config: the parsed config.json (a dict), as published: top-level keys,
            or a vision-language model's `text_config`.

    Returns:
        a `ModelCard`. Raises `ConfigError` (a ValueError) with a one-line
        message for a config it cannot read: no position information,
        contradicting keys, an unknown rope type, a malformed value.
    """
    try:
        return _explain(config)
    except ConfigError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # a malformed value deeper down
        message = str(exc) if isinstance(exc, ValueError) else f"a malformed value ({type(exc).__name__}: {exc})"
        raise ConfigError(message) from None


def _explain(config: dict) -> ModelCard:
    text = language_config(config)
    block = rope_block(text)
    scheme = base_scheme(text, block)
    n_layers = layer_count(text)
    types = layer_types(text, n_layers)
    trained, max_length = lengths(text, scheme, block)
    exact.check_window(text)
    caught, groups, skipped = [], [], []
    slopes = multiplier = None
    model_type = config.get("model_type") if isinstance(config.get("model_type"), str) else None
    if scheme == "alibi":
        slopes = exact.mpt_slopes(text, alibi_slopes(exact.alibi_heads(text)))
    if scheme == "rope":
        rotary_head = text.get("qk_rope_head_dim") or head_width(text)
        if text.get("qk_rope_head_dim") is not None:
            rotary_head = _checks.count(rotary_head, "qk_rope_head_dim", low=2)
        flags = nope_flags(text, n_layers) if n_layers is not None else []
        skipped = [i for i, f in enumerate(flags) if not f]
        blocks = block if block and split_by_layer_type(block) else None
        setups = []  # (layer_type, params) per distinct setup
        if blocks is None:
            params = dict(block or {})  # Gemma 3 and ModernBERT: a second base for the local layers
            setups = exact.two_bases(text, params) or [("all", params)]
        else:
            for name, params in blocks.items():
                if params is not None:
                    setups.append((name, dict(params)))
        computed = []
        for name, params in setups:
            if params.get("rope_theta") is None:  # absent or null: the config class's default
                params["rope_theta"] = DEFAULT_THETA.get(text.get("model_type"), 10000.0)
            inv_freq, factor, default = exact.rope_speeds(rotary_head, params, max_length, caught)
            computed.append((name, params, inv_freq, factor, default))
        if len(computed) > 1 and all(np.array_equal(c[2], computed[0][2]) and c[3] == computed[0][3]
                                     for c in computed):
            computed = [("all", *computed[0][1:])]  # every layer type turns the same way
        layer_list = list(range(n_layers)) if n_layers is not None else []
        for name, params, inv_freq, factor, default in computed:
            if name == "all":
                layers = [i for i in layer_list if i not in skipped]
            else:
                exact.check_groups(name, types)
                layers = [i for i in layer_list if types[i] == name and i not in skipped]
            rotary_dim = 2 * len(inv_freq)
            if rope_type_of(params) != "proportional" and params.get("partial_rotary_factor") is not None:
                rotary_dim = int(rotary_head * params["partial_rotary_factor"])
            groups.append(RopeGroup(name, tuple(layers), rope_type_of(params), rotary_dim, rotary_head,
                                    float(params["rope_theta"]), inv_freq, default, factor, params, pairing(text)))
        exact.check_every_layer_typed(types, blocks, skipped)
        if skipped:
            scheme = "mixed" if len(skipped) < (n_layers or 0) else "none"
        if text.get("model_type") in ("deepseek_v2", "deepseek_v3") and block and rope_type_of(block) == "yarn":
            multiplier = deepseek_softmax_multiplier(block["factor"], block.get("mscale_all_dim"))
    stated = exact.states_trained_length(scheme, block)
    caught += exact.card_warnings(scheme, groups, trained, max_length, stated)
    window = exact.served_window(text)
    factors = exact.multipliers(text, groups, skipped, n_layers, multiplier)
    return ModelCard(model_type, scheme, trained, max_length, tuple(groups), tuple(skipped), slopes, n_layers,
                     None if types is None else tuple(types), window, multiplier, tuple(caught), length_keys(text),
                     stated, exact.qk_width(text), tuple(factors), text_nested(config),
                     width if _checks._is_int(width := first_set(text, WIDTH_KEYS)[1]) else None, architectures(config),
                     c if "chunked_attention" in (types or ()) and _checks._is_int(c := text.get("attention_chunk_size")) else None)



# --- 5. Every pair against the trained length


def pairs_that_turn(inv_freq: np.ndarray, length: int) -> np.ndarray:
    """Which pairs complete at least one full turn within `length` positions (λ_i ≤ length).

    Args:
        inv_freq: (n_pairs,) speeds θ_i (a speed of 0 never turns).
        length: a number of positions.

    Returns:
        (n_pairs,) bool array.
    """
    inv_freq = np.asarray(inv_freq, dtype=float)
    return inv_freq * _checks.count(length, "length") >= 2 * np.pi


# The methods `compare_methods` sets side by side, each as one sets it for a stretch s: {label: its block, less
# its factor}; "ntk" (a look, no rope_type): the base raised for s (`ntk_pair_scale`), dynamic's factor 1 at s·L.
COMPARED: dict[str, dict] = {
    "linear (PI)": {"rope_type": "linear"}, "NTK-aware": {"rope_type": "ntk"},
    "YaRN": {"rope_type": "yarn"}, "Llama 3 rule": {"rope_type": "llama3", "low_freq_factor": 1.0, "high_freq_factor": 4.0}}


def compare_methods(group: RopeGroup, trained_length: int, stretch: float) -> dict[str, np.ndarray]:
    """The scale each method of `COMPARED` would give each pair of this group (new θ_i ÷ old θ_i),
    each set for the same stretch, as transformers computes them (NTK-aware: `ntk_pair_scale`).

    Args:
        group: a `RopeGroup` (its base and rotary width are used; default speeds only).
        trained_length: the original length L.
        stretch: the stretch s ≥ 1.

    Returns:
        {method: (n_pairs,) scale}: 1 = untouched, 1/s = fully interpolated.
    """
    stretch = _checks.positive(stretch, "stretch")
    trained_length = _checks.count(trained_length, "trained_length")
    common = {"rope_theta": group.base, "original_max_position_embeddings": trained_length}
    width = group.rotary_dim if group.rope_type != "proportional" else group.head_dim
    blocks = {name: {**block, "factor": stretch} for name, block in COMPARED.items()}
    base_freq, _ = rope_inv_freq(width, {"rope_theta": group.base})
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, block in blocks.items():
            params = {**common, **block}
            freq = base_freq * ntk_pair_scale(width, stretch) if block["rope_type"] == "ntk" else rope_inv_freq(
                width, params, max_position_embeddings=trained_length, seq_len=round(trained_length * stretch))[0]
            out[name] = freq / base_freq
    return out


# --- 6. Figures (figures_build turns each into docs/figures/model_card.<slug>.svg)


def card_figure(card: ModelCard, title: str):
    """One card as a picture: RoPE wavelengths per pair against the trained length and
    the config's limit; ALiBi's half-weight distance per head; a learned table's rows
    against a request twice its length. (What each engine serves is the report's:
    `python -m modelcard`.)"""
    import matplotlib.pyplot as plt

    from lessons.alibi import half_weight_distance

    fig, ax = plt.subplots(figsize=(6.4, 4.8), layout="constrained")
    if card.rope:
        styles = [BLUE, ORANGE]  # the palette's first two series
        for g, colour in zip(card.rope, styles, strict=False):  # one or two groups, one colour each
            pairs = np.arange(len(g.inv_freq))
            turning = g.inv_freq > 0
            label = "" if g.layer_type == "all" else f" ({g.layer_type})"
            if g.rope_type != "default":
                ax.semilogy(pairs[turning], rope_wavelengths(g.default_inv_freq[turning]), "--", color=colour,
                            alpha=0.5, label=f"before scaling{label}")
            ax.semilogy(pairs[turning], rope_wavelengths(g.inv_freq[turning]), "-", color=colour, lw=2,
                        label=f"{g.rope_type}, base {g.base:,.6g}{label}")
        ax.set(xlabel="rotary pair i", ylabel="wavelength 2π/θᵢ (positions)")
    elif card.alibi_slopes is not None:
        heads = np.arange(1, len(card.alibi_slopes) + 1)
        ax.semilogy(heads, [half_weight_distance(m) for m in card.alibi_slopes], "o-", color=SCHEME_LOOKS["alibi"].colour,
                    label="distance at which a head's weight halves")
        ax.set(xlabel="head", ylabel="tokens")
    else:
        rows = card.max_length or 0
        ax.barh(["rows in the table", "positions in a 2× request"], [rows, 2 * rows], color=[SCHEME_LOOKS["learned"].colour, RED])
        ax.barh(["positions in a 2× request"], [rows], color=SCHEME_LOOKS["learned"].colour)
        ax.set_xlabel("positions")
    for length, name, style in ((card.trained_length, "trained length", ":"), (card.max_length, "config length", "-.")):
        if length and (card.rope or card.alibi_slopes is not None):
            ax.axhline(length, color=INK, ls=style, lw=1, label=f"{name} {length:,}")
    ax.set_title(title)
    if ax.get_legend_handles_labels()[0]:  # below the axes: inside, it sat on the wavelengths
        fig.legend(loc="outside lower center", ncols=1 + all(len(t) < 30 for t in ax.get_legend_handles_labels()[1]))
    return fig


def methods_figure(group: RopeGroup, trained_length: int, stretch: float, title: str):
    """Wavelength per pair under no scaling and under each rule of `compare_methods`."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 5.0), layout="constrained")
    pairs = np.arange(len(group.default_inv_freq))
    ax.semilogy(pairs, rope_wavelengths(group.default_inv_freq), **METHOD_LOOKS["none"].line(marker=None, lw=2), label="no scaling")
    for name, scale in compare_methods(group, trained_length, stretch).items():  # each method in its site-wide look
        ax.semilogy(pairs, rope_wavelengths(group.default_inv_freq * scale),
                    **METHOD_LOOKS[COMPARED[name]["rope_type"]].line(markevery=max(1, len(pairs) // 8)), label=name)
    ax.axhline(trained_length, color=GRID, ls=":", lw=1, label=f"trained length {trained_length:,}")
    ax.axhline(trained_length * stretch, color=GRID, ls="-.", lw=1, label=f"served length {trained_length * stretch:,g}")
    ax.set_xticks(pairs) if len(pairs) <= 16 else None
    ax.set(xlabel="rotary pair i", ylabel="wavelength 2π/θᵢ (positions)")
    ax.set_title(title)
    fig.legend(loc="outside lower center", ncols=2)  # below the axes: inside, it sat on the wavelengths
    return fig


TINY_HEAD_CONFIG = {"model_type": "llama", "head_dim": 8, "num_attention_heads": 1, "hidden_size": 8, "num_hidden_layers": 1,
        "max_position_embeddings": 64}


def figure_name(slug: str) -> str:
    """The figure name of a gallery slug: "qwen2.5-7b-yarn" -> "qwen2_5_7b_yarn" (model_card.<name>.svg)."""
    return slug.replace("-", "_").replace(".", "_")


FIGURE_INPUTS = ("lessons/gallery/*.json",)  # the gallery configs each figure below is drawn from


def figures() -> dict:
    """The tiny head under every rule, then one figure per gallery config, named by its slug."""
    out = {"tiny_methods": methods_figure(explain(TINY_HEAD_CONFIG).rope[0], 64, 4.0,
                                          "A head of width 8 trained at 64 positions, stretched 4 times")}
    out.update({figure_name(slug): card_figure(explain(entry["config"]), entry["name"])
                for slug, entry in gallery().items()})
    return out


# --- 7. The terminal walkthrough


def demo() -> None:
    """The page's reading, config by config: scheme, lengths, RoPE groups (`python -m modelcard SLUG`: one's report)."""
    from lessons._show import banner, say

    for slug, entry in gallery().items():
        card = explain(entry["config"])
        banner(f"{entry['name']}  (python -m modelcard {slug})")
        say(f"scheme {card.scheme}; trained length {card.trained_length} (stated: {card.trained_stated}); "
            f"config length {card.max_length}")
        for g in card.rope:
            say(f"RoPE {g.layer_type}: {g.rope_type}, base {g.base:,.6g}, {g.rotary_dim} of {g.head_dim} dimensions turn")


if __name__ == "__main__":  # narrates, like every lesson; with arguments, the decoder's command by its old name
    import runpy
    import sys

    demo() if len(sys.argv) == 1 else runpy.run_module("modelcard", run_name="__main__", alter_sys=True)
