# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lab TF5: position ids with padding and packing
#
# A batch rarely holds one sentence at its natural place. Generation pads short
# prompts on the left; fine-tuning packs several examples into one row. Either
# way the model must be handed each token's position id and a mask, and the
# sentence should then come out exactly as it does alone. This lab runs one
# six-token sentence through the lessons' tiny decoder three ways (alone,
# left-padded behind four padding tokens, packed behind a five-token example),
# with a RoPE model and a model with a learned position table, first with the
# ids and the mask right and then with each classic mistake. The claims: with
# the ids and the mask right, all three ways agree to rounding for both models;
# a constant offset (left padding without ids, packed ids that keep counting
# while attention is cut) costs RoPE nothing but breaks the learned table; and
# packing without cutting attention breaks both. One claim leaves the tiny
# decoder for a vision-language prompt: after a video, Qwen's multimodal ids
# must send the text past every id the video used. The last one puts the
# sentence in a batch of two rows padded differently, and packs it behind a
# one-token document: each must still come out as alone.
#
# Run it with `python labs/tf5_position_ids.py`: it exits 0 when every claim
# holds and 1, naming the claim, when one does not (a claim whose computation
# raises fails naming what it raised).
#
# Run it on your own code: `python labs/tf5_position_ids.py --use FILE` (or
# `python -m labs.tf5_position_ids --use FILE`) builds the ids and the masks
# with the functions FILE defines instead of the lessons', any of:
# `position_ids_from_mask`, `padded_attention_mask`, `packed_position_ids` and
# `packed_attention_mask` from [Challenge 08](../../challenges/08-position-ids/),
# and `causal_mask(n)` from [Challenge 01](../../challenges/01-attention/).
# Challenge 08's functions take a batch, so the lab adapts explicitly: a
# single row goes in as a batch of one, and `position_ids_from_mask` is also
# given the (2, 10) mask of claim 7's two rows; `padded_attention_mask` is given
# one row's mask at a time (four 0s, then six 1s; or one 0 and nine 1s);
# `packed_attention_mask` is given ids that restart at 0 with every document,
# where the lesson names each token's document (0, 1, 2, 3, 4, 0, 0, 1, ...
# with claim 7's one-token document); `packed_position_ids` is asked for ids
# from 0 only. So two things are not checked here: a `padded_attention_mask`
# that is right for one row but not for a batch of rows padded differently,
# and a `packed_attention_mask` that misreads ids which do not restart at 0
# (a continuation chunk's 0, 1, 2, 7, 8: a cut made only at id 0, or only
# where the ids stop growing, passes every claim); Challenge 08's checker
# tries both.
# A file that defines none of them stops the lab with one line (exit 2).
#
# It exercises
# [Position ids in practice: padding, packing and caches](../../lessons/position_ids/)
# (the ids, the masks and a decoder that takes both) on the model of
# [A tiny decoder in numpy, with any position scheme](../../lessons/transformer/),
# and the video numbering of
# [Positions for images and video: multimodal RoPE](../../lessons/multimodal_rope/).
# Download it as a notebook, [tf5_position_ids.ipynb](tf5_position_ids.ipynb), or
# as a script, [tf5_position_ids.py](tf5_position_ids.py).
# Either runs with only numpy and matplotlib installed, no clone of this
# project needed: the download carries the lesson code the lab imports.

# %%
from labs._lab import start
from labs._use import Takes, cut_from_ids, ids_from_zero, mask_rows, padded_from_mask

TAKES = (  # what `--use FILE` runs in place of the lessons' functions
    Takes("position_ids_from_mask", "08", "lessons.position_ids.position_ids_from_mask", mask_rows,
          "a single row handed over as a batch of one"),
    Takes("padded_attention_mask", "08", "lessons.position_ids.padded_batch_mask", padded_from_mask,
          "given the padded row's 0/1 mask as a batch of one"),
    Takes("packed_position_ids", "08", "lessons.position_ids.packed_position_ids", ids_from_zero,
          "the same ids (from 0 only: yours has no start)"),
    Takes("packed_attention_mask", "08", "lessons.position_ids.document_mask", cut_from_ids,
          "given ids that restart at every document the lesson names"),
    Takes("causal_mask", "01", "lessons.attention.causal_mask"),
)
start(TAKES)  # as a script: read --use FILE, then run the cells (a cell that raises fails its claims)

import textwrap

import matplotlib.pyplot as plt
import numpy as np

from labs._lab import FIGURE_WIDTH
from lessons._palette import SCHEME_LOOKS
from lessons._show import gap_text
from lessons.attention import causal_mask
from lessons.position_ids import (default_position_ids, document_ids_from_position_ids, document_mask,
                                  forward_with_ids, packed_position_ids, padded_batch_mask, position_ids_from_mask)
from lessons.transformer import TINY, TinyGPT, demo_tokens

TOL, BROKEN = 1e-12, 0.1  # rounding on logits of this size is a few times 1e-15; a real change is far above 0.1
N, PAD, OTHER = 6, 4, 5  # the sentence, the left padding, the example packed in front of it
sentence, other = demo_tokens(N, seed=1), demo_tokens(OTHER, seed=2)
models = {p: TinyGPT(**TINY, position=p) for p in ("rope", "learned")}  # the same seed: the same weights
print(f"TinyGPT({', '.join(f'{k}={v}' for k, v in TINY.items())})")
print(f"sentence {sentence.tolist()}, packed behind {other.tolist()}, or behind {PAD} padding tokens")

# %% [markdown]
# ## Claim 1: the lab's decoder is the lesson's decoder
#
# `forward_with_ids` runs a TinyGPT's weights with explicit ids and an explicit
# mask. Given the ids 0..n−1 and the causal mask it must give exactly
# `TinyGPT.forward`'s logits, or nothing below would be about position ids.

# %%
same = {p: float(np.abs(forward_with_ids(m, sentence, np.arange(N), causal_mask(N)) - m.forward(sentence)).max())
        for p, m in models.items()}
print({p: gap_text(g) for p, g in same.items()})


# %% [markdown]
# ## Claim 2: with the ids and the mask right, the batch changes nothing
#
# Left padding: the ids come from the mask (cumsum minus one), and no real
# token reads a padding key. Packing: the ids restart at the sentence, and
# attention is cut between the two examples. Each time only the sentence's
# rows are compared with the sentence alone.

# %%
def left_padded(model, ids=None):
    """The sentence's logits (N, vocab) behind PAD padding tokens; ids from the mask unless given."""
    mask, allowed = padded_batch_mask(PAD, N)
    ids = position_ids_from_mask(mask) if ids is None else ids
    return forward_with_ids(model, np.r_[np.zeros(PAD, int), sentence], ids, allowed)[PAD:]


def packed(model, ids, allowed):
    """The sentence's logits (N, vocab) packed behind the other example, with the given ids and mask."""
    return forward_with_ids(model, np.r_[other, sentence], ids, allowed)[OTHER:]


reset, running = packed_position_ids([OTHER, N]), default_position_ids(OTHER + N)
cut = document_mask(document_ids_from_position_ids(reset)[0])  # from the lengths: two documents
alone = {p: forward_with_ids(m, sentence, np.arange(N), causal_mask(N)) for p, m in models.items()}
cases = {
    "left padding, ids from the mask": lambda m: left_padded(m),
    "packing, ids reset, attention cut": lambda m: packed(m, reset, cut),
    "left padding, ids 0..n-1": lambda m: left_padded(m, default_position_ids(PAD + N)),
    "packing, ids reset, not cut": lambda m: packed(m, reset, causal_mask(OTHER + N)),
    "packing, ids not reset, cut read from the ids":
        lambda m: packed(m, running, document_mask(document_ids_from_position_ids(running)[0])),
    "packing, ids not reset, attention cut": lambda m: packed(m, running, cut),
}
gap = {(c, p): float(np.abs(run(models[p]) - alone[p]).max()) for c, run in cases.items() for p in models}
print(f"{'case':<48}{'RoPE':>10}{'learned':>10}")
for c in list(cases)[:2]:
    print(f"{c:<48}{gap_text(gap[c, 'rope']):>10}{gap_text(gap[c, 'learned']):>10}")

# %% [markdown]
# ## Claims 3 to 5: each classic mistake
#
# - Left padding with the ids 0..n−1 (a forward call given no ids): every real
#   token of the sentence sits 4 positions late.
# - Packing with the ids reset but a plain causal mask: the sentence reads the
#   other example.
# - Packing with ids that keep counting and the cut read from the ids, as
#   transformers does when no mask is passed: the ids never restart, so one
#   document is found and nothing is cut.
# - Packing with ids that keep counting but the cut taken from the lengths:
#   every token of the sentence sits 5 positions late, and nothing else changes.

# %%
for c in list(cases)[2:]:
    print(f"{c:<48}{gap_text(gap[c, 'rope']):>10}{gap_text(gap[c, 'learned']):>10}")

# %%
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 4.8), layout="constrained")
labels = list(cases)
for i, p in enumerate(models):
    ax.barh(np.arange(len(labels)) + (0.2 if i else -0.2), [max(gap[c, p], 1e-17) for c in labels], 0.38,
            left=1e-17, color=SCHEME_LOOKS[p].colour, label=p)
ax.axvline(TOL, color="black", ls="--", lw=1, label=f"tolerance {TOL:.0e}")
ax.set_yticks(np.arange(len(labels)), [textwrap.fill(label, 24) for label in labels])
ax.invert_yaxis()
ax.set(xscale="log", xlim=(1e-17, 1e3), xticks=[1e-16, 1e-12, 1e-8, 1e-4, 1],
       xlabel="max |logits − the sentence alone|")
ax.set_title("The same sentence, batched:\nright, and with each mistake")
fig.legend(frameon=False, ncols=3, loc="outside lower center")
plt.show()

# %% [markdown]
# Reading it: one pair of bars per case, on a log scale: blue for the RoPE
# model, purple for the learned table. The first two cases (ids and mask right)
# sit at rounding for both (the short bars' lengths are rounding noise, as it
# came out on the machine that built this page). Left padding without ids and packed ids that keep
# counting while attention is cut leave RoPE at rounding and move the learned
# table by whole logits. The two cases where attention is not cut move both.

# %% [markdown]
# ## Claim 6: after a video, the text resumes past every id the video used
#
# Qwen2.5-VL gives each video token three ids (time, row, column) and counts a
# video's time in seconds, so a 10-second clip of 12 × 12 tokens per step
# reaches time id 23 after 5 text tokens while its rows and columns stop at
# 16. The Qwen team's code (transformers pull request 35569), transformers
# 5.0.0 to 5.2.0 and vLLM 0.33.0 resume the text at the largest id + 1;
# transformers 5.3.0 to 5.24.0 resume at the start + the longer side, 17, on
# top of the clip's time ids. The lab numbers the prompt with the lesson's
# `get_rope_index` and holds it against the ids vLLM 0.33.0's and
# transformers 5.2.0's own functions gave for the same prompt (recorded in
# tests/data/multimodal_rope_resume_vectors.json by the reference script),
# then checks where the text lands.

# %%
import json
from pathlib import Path

import lessons
from lessons.multimodal_rope import VIDEO, get_rope_index, mm_token_types

DOWNLOAD_DATA = ("tests/data/multimodal_rope_resume_vectors.json",)  # the downloads carry this file too

CLIP = (10, 24, 24)  # 20 frames of 336 x 336 pixels: 10 steps of 12 x 12 tokens
kinds = mm_token_types(("text", 5), ("video", CLIP), ("text", 3))
mm_ids, _ = get_rope_index(kinds, [], [CLIP], tokens_per_second=2, second_per_grid_ts=[1.0])  # (3, 1448)
VECTORS = Path(lessons.__file__).parents[1] / "tests" / "data" / "multimodal_rope_resume_vectors.json"
witnesses = {r["witness"]: np.asarray(r["position_ids"])
             for r in json.loads(VECTORS.read_text(encoding="utf-8"))["rope_index"] if "clip" in r["name"]}
video = kinds == VIDEO
after = mm_ids[:, np.flatnonzero(video)[-1] + 1:]  # the 3 text tokens after the clip
shared = sorted(set(after[0].tolist()) & set(mm_ids[0, video].tolist()))
agree = {w: bool(np.array_equal(ids, mm_ids)) for w, ids in witnesses.items()}
print(f"the clip's ids reach {mm_ids[:, video].max()}; the text after it gets {after[0].tolist()}; "
      f"time ids it shares with the clip: {shared}; the same ids as {agree}")

# %% [markdown]
# ## Claim 7: a batch of two rows, and a one-token document
#
# Every case above is one row. A real batch pads each row by its own amount:
# the ids must be counted per row, or a row padded less than the first starts
# late. And a packed row may hold a document of one token, whose id 0 follows
# an id 0 of its own: the cut must still separate it from the documents on
# either side. So the sentence goes into a batch of two rows of 10 slots, behind
# 4 padding tokens, next to a 9-token prompt behind 1; the ids of both rows
# come from one call on the (2, 10) mask, and each row must give its prompt's
# logits alone. Then the sentence is packed behind the five-token example and
# a one-token document, ids from the lengths (5, 1, 6) and the cut read from
# the ids; the one token and the sentence must each come out as alone.

# %%
PADS, PROMPT = (PAD, 1), demo_tokens(OTHER + N - 2, seed=3)  # padding per row; row 1's prompt, 9 tokens
rows = (sentence, PROMPT)  # the real tokens of each row
batch_mask = np.array([np.r_[np.zeros(pad, int), np.ones(len(r), int)] for pad, r in zip(PADS, rows, strict=True)])
batch_ids = np.asarray(position_ids_from_mask(batch_mask))  # (2, 10): one call for the whole batch
print(f"batch mask {batch_mask.tolist()}: ids {batch_ids.tolist()}")
batch_gap = {}
for p, m in models.items():
    for b, (pad, r) in enumerate(zip(PADS, rows, strict=True)):
        allowed_b = padded_batch_mask(pad, len(r))[1]  # the row's cut
        got = forward_with_ids(m, np.r_[np.zeros(pad, int), r], batch_ids[b], allowed_b)[pad:]
        batch_gap[p, b] = float(np.abs(got - forward_with_ids(m, r, np.arange(len(r)), causal_mask(len(r)))).max())
LENGTHS = (OTHER, 1, N)  # the example, a one-token document, the sentence
one = demo_tokens(1, seed=4)
ids3 = packed_position_ids(list(LENGTHS))  # (12,)
cut3 = document_mask(document_ids_from_position_ids(ids3)[0])  # (12, 12), read from the ids
single_gap = {}
for p, m in models.items():
    out = forward_with_ids(m, np.r_[other, one, sentence], ids3, cut3)  # (12, vocab)
    single_gap[p] = max(float(np.abs(out[OTHER:OTHER + 1] - forward_with_ids(m, one, [0], causal_mask(1))).max()),
                        float(np.abs(out[OTHER + 1:] - alone[p]).max()))
print(f"packed lengths {LENGTHS}: ids {np.asarray(ids3).tolist()}")
print(f"{'':<48}{'RoPE':>10}{'learned':>10}")
for b, pad in enumerate(PADS):
    print(f"{f'batch row {b} ({pad} padding)':<48}{gap_text(batch_gap['rope', b]):>10}"
          f"{gap_text(batch_gap['learned', b]):>10}")
print(f"{'packed with a one-token document':<48}{gap_text(single_gap['rope']):>10}{gap_text(single_gap['learned']):>10}")

# %%
from labs._lab import verdict

rope_ok = ("left padding, ids 0..n-1", "packing, ids not reset, attention cut")
verdict({
    f"forward_with_ids with ids 0..n-1 and the causal mask is TinyGPT.forward within {TOL:.0e}, both models":
        lambda: max(same.values()) < TOL,
    f"ids and mask right: alone, left-padded and packed agree within {TOL:.0e} for RoPE and the learned table":
        lambda: all(gap[c, p] < TOL for c in labels[:2] for p in models),
    f"one offset for every token (left padding without ids, packed ids not reset but cut): RoPE within {TOL:.0e}":
        lambda: all(gap[c, "rope"] < TOL for c in rope_ok),
    f"one offset for every token: the learned table is off by more than {BROKEN} in both cases":
        lambda: all(gap[c, "learned"] > BROKEN for c in rope_ok),
    f"attention not cut (reset ids with a causal mask, or ids never reset and the cut read from them): "
    f"both models off by more than {BROKEN}":
        lambda: all(gap[c, p] > BROKEN for c in labels[3:5] for p in models),
    "M-RoPE after a video: the ids equal vLLM 0.33.0's and transformers 5.2.0's, the text resumes at the clip's "
    "largest id + 1 and shares no time id with its frames":
        lambda: sorted(agree) == ["transformers_5_2_0", "vllm"] and all(agree.values())
        and after[0, 0] == mm_ids[:, video].max() + 1 and not shared,
    f"a batch of two rows padded 4 and 1, ids from one call on the (2, 10) mask: each row is its prompt alone "
    f"within {TOL:.0e}, both models": lambda: max(batch_gap.values()) < TOL,
    f"packed behind a one-token document (lengths 5, 1, 6), cut read from the ids: the one token and the sentence "
    f"are each as alone within {TOL:.0e}, both models": lambda: max(single_gap.values()) < TOL,
})
