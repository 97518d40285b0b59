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
# # Lab TF3: decoding with a cache
#
# A decoder that generates text feeds one new token at a time and keeps every
# earlier token's keys and values in a cache. Each step must then give the
# logits a full forward pass over the whole sequence gives for that row, and
# it does only if the new token is told its true position, the cache's length.
# This lab decodes the same sixteen tokens through the lessons' tiny decoder
# for every position scheme it has (RoPE, a learned table, sinusoidal codes,
# ALiBi and none), once with the true position and once with the position
# forgotten. The claims: with the true position every scheme agrees with the
# full pass to rounding, and the cache holds each RoPE key already rotated by
# its own position; with the position forgotten the four schemes that
# carry position go wrong from the second token on, and the one that carries
# none does not.
#
# Run it with `python labs/tf3_kv_cache.py`: it exits 0 when every claim holds
# and 1, naming the claim, when one does not (a claim whose computation raises
# fails naming what it raised).
#
# Run it on your own code: `python labs/tf3_kv_cache.py --use FILE` (or
# `python -m labs.tf3_kv_cache --use FILE`) decodes with the functions FILE
# defines in place of the lessons', any of: `apply_rope(x, positions, base)`
# and `sinusoidal_encoding(n_positions, d_model)` from
# [Challenge 04](../../challenges/04-positional-encodings/), `embed(token_ids,
# token_table, position_table, start_pos)` from
# [Challenge 02](../../challenges/02-learned-positions/), `alibi_slopes(n_heads)`
# and `alibi_bias(n_heads, query_positions, key_positions)` from
# [Challenge 03](../../challenges/03-alibi/), and `causal_mask(n)` from
# [Challenge 01](../../challenges/01-attention/). The decoder's heads are
# half-split, as Challenge 04's `apply_rope` is, so your rotation turns its
# queries and keys as it is; `embed` is handed the rows the decoder has already
# looked up as its token table (token t is row t) and the decoder's table and
# first position; `sinusoidal_encoding` is asked for base 10,000 only. A file
# that defines none of them stops the lab with one line (exit 2). The lab does
# not take [Challenge 05](../../challenges/05-kv-cache/)'s functions: they read
# the new token's position from the cache's own length, so there is no counter
# to forget, and forgetting it is what claims 3 to 5 measure.
#
# It exercises
# [A tiny decoder in numpy, with any position scheme](../../lessons/transformer/)
# (the model and its cache) and
# [RoPE in practice](../../lessons/rope/) (the rotation at decode time), with
# the ALiBi bias of
# [Positions as a distance penalty, and no positions at all: ALiBi and NoPE](../../lessons/alibi/).
# Download it as a notebook, [tf3_kv_cache.ipynb](tf3_kv_cache.ipynb), or as a
# script, [tf3_kv_cache.py](tf3_kv_cache.py).
# Either runs with only numpy and matplotlib installed, no clone of this
# project needed: the download carries the lesson code the lab imports.

# %%
from labs._lab import start
from labs._use import Takes, learned_method, rotary_method, table_without_base

TAKES = (  # what `--use FILE` runs in place of the lessons' functions
    Takes("apply_rope", "04", "lessons.transformer.RotaryPositions.rotate", rotary_method,
          "half-split like the decoder's heads: it turns Q and K as it is"),
    Takes("sinusoidal_encoding", "04", "lessons.positional.sinusoidal_encoding", table_without_base,
          "the same table (base 10,000 only: yours has no base)"),
    Takes("embed", "02", "lessons.transformer.LearnedPositions.add_to_embeddings", learned_method,
          "given the looked-up token rows as its token table, the decoder's table and first position"),
    Takes("alibi_slopes", "03", "lessons.alibi.alibi_slopes"),
    Takes("alibi_bias", "03", "lessons.alibi.alibi_bias_at", how="the same arguments, used as it is"),
    Takes("causal_mask", "01", "lessons.attention.causal_mask"),
)
start(TAKES)  # as a script: read --use FILE, then run the cells (a cell that raises fails its claims)

import matplotlib.pyplot as plt
import numpy as np

from lessons._palette import BLUE, GRID, RED, SCHEME_LOOKS, legend_beside
from lessons._show import gap_text
from lessons.alibi import alibi_bias_at
from lessons.attention import split_heads
from lessons.rope import apply_rope_half, decode_error
from lessons.transformer import POSITIONS, TINY, KVCache, TinyGPT, cache_gap, demo_tokens

TOL = 1e-12  # "rounding level": float64 rounding on logits of this size is a few times 1e-15
n = TINY["max_len"]  # 16 tokens: the whole learned table, so every scheme can run them
tokens = demo_tokens(n)  # (16,) fixed, seeded token ids
models = {p: TinyGPT(**TINY, position=p) for p in POSITIONS}  # same seed: the same random weights
full = {p: m.forward(tokens) for p, m in models.items()}  # (16, 50) logits from one pass over the sequence
looks = {**SCHEME_LOOKS, "none": SCHEME_LOOKS["nope"]}  # the lab calls NoPE "none"
print(f"TinyGPT({', '.join(f'{k}={v}' for k, v in TINY.items())}); {n} tokens: {tokens.tolist()}")
print(f"schemes: {', '.join(POSITIONS)}; logits of the full pass reach |{max(np.abs(f).max() for f in full.values()):.1f}|")


def decode(model: TinyGPT, forget_position: bool = False, cache: KVCache | None = None) -> np.ndarray:
    """Feed `tokens` one at a time through `model.step` with a KV cache: (n, vocab) logits.

    `step` reads the new token's position from `cache.length`. forget_position=True resets
    that counter to 0 before every step: the keys and values still pile up in the cache,
    but every new token is told it sits at position 0 (the bug this lab measures). `cache`:
    the cache to fill (a new one if None), to read what it holds afterwards.
    """
    cache = model.new_cache() if cache is None else cache
    rows = []
    for t in tokens:
        if forget_position:
            cache.length = 0
        rows.append(model.step(int(t), cache))  # (vocab,)
    return np.stack(rows)  # (n, vocab)


# %% [markdown]
# ## Claim 1: with the true position, the cache changes nothing
#
# `TinyGPT.step` runs one token through every layer at position
# `cache.length`, rotates (RoPE) or biases (ALiBi) with that position, appends
# its key and value, and attends from its one query to every cached key. Its
# logits should equal the matching row of `forward` on all sixteen tokens.
# The tolerance is 10⁻¹²: above float64 rounding on logits this size (the
# gaps below are printed as that bound, "< 1e-12": their own digits depend on
# the order in which the CPU's kernels sum, and change from machine to
# machine), and far below any gap a wrong position produces.

# %%
right = {p: decode(m) for p, m in models.items()}
gap_right = {p: np.abs(right[p] - full[p]).max(axis=-1) for p in POSITIONS}  # (n,) per step
print(f"tolerance {TOL:.0e}")
print(f"{'scheme':<12}{'largest gap over 16 steps':>27}{'cache_gap (lesson)':>20}")
for p in POSITIONS:
    print(f"{p:<12}{gap_text(gap_right[p].max()):>27}{gap_text(cache_gap(p, n)):>20}")

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.2), layout="constrained")
for p in POSITIONS:
    ax.plot(np.arange(n), np.maximum(gap_right[p], 1e-17), "o-", ms=3, lw=1, color=looks[p].colour, label=p)
ax.axhline(TOL, color="black", ls="--", lw=1, label=f"tolerance {TOL:.0e}")
ax.set(xlabel="decoding step = the new token's true position", ylabel="max |step logits − forward logits|",
       yscale="log", ylim=(1e-17, 1e-10))
ax.set_title("True position passed: cached decoding = the full pass, every scheme")
ax.legend(frameon=False, ncol=3, loc="upper left")
plt.show()

# %% [markdown]
# Reading it: one line per position scheme, one point per decoding step, on a
# log scale. Every point lies far below the dashed tolerance: the cache
# reorganises the work, it does not change the result. The points' heights are
# rounding noise, drawn as they came out on the machine that built this page;
# on another CPU they sit elsewhere below the line. Only "below the line" is
# the claim.

# %% [markdown]
# ## Claim 2: the cache holds each key already rotated by its own position
#
# Claim 1 compares the cached path with the full pass, and both run the same
# rotation: a RoPE that turns the queries and forgets the keys passes it, since
# the full pass then forgets them too. So the cell looks inside the cache. It
# decodes the sixteen tokens with the RoPE model, then builds layer 0's keys
# from the weights alone: the token vectors, normalised as the layer does, times
# W_k, split into heads and not rotated. Turned by their positions with the
# lesson's half-split rotation `apply_rope_half`, they must be exactly what the
# cache holds; and from position 1 on they must differ from the unrotated keys,
# or nothing was turned.

# %%
rope_model, rope_cache = models["rope"], models["rope"].new_cache()
decode(rope_model, cache=rope_cache)
L0 = rope_model.layers[0]
h0 = rope_model._norm(rope_model.embed(tokens), L0["g1"], L0["b1"])  # (n, d_model): layer 0's input
raw_keys = split_heads(h0 @ L0["W_k"].T, TINY["n_heads"])  # (n_heads, n, d_head), not rotated
rotated_keys = apply_rope_half(raw_keys, np.arange(n))  # (n_heads, n, d_head), key t turned by t
cached_vs_rotated = float(np.abs(rope_cache.keys[0] - rotated_keys).max())
turned_by = np.abs(rope_cache.keys[0] - raw_keys).max(axis=(0, 2))  # (n,) how far each cached key moved
print(f"layer 0: cache holds {rope_cache.keys[0].shape} keys; largest gap to the keys rotated by their positions: "
      f"{gap_text(cached_vs_rotated)}")
print(f"how far each cached key is from its unrotated self, positions 0..{n - 1}: "
      f"{gap_text(turned_by[0])} at 0, then {turned_by[1:].min():.3f} to {turned_by[1:].max():.3f}")

# %% [markdown]
# ## Claim 3: with the position forgotten, every scheme that carries position breaks
#
# The bug: the generation loop passes position 0 with every new token, as a
# function that numbers a one-token input "0 .. seq_len − 1" does. Here the
# cache keeps its keys and values but its length counter is reset before each
# step. What each scheme then does wrong:
#
# - RoPE rotates the new query and key by position 0, the identity: no key is
#   ever rotated, and every score is a plain q · k.
# - The learned table and the sinusoidal codes add position 0's vector to every
#   token.
# - ALiBi measures distances from query position 0, so every cached key at a
#   later position looks like a future token and the causal part of the bias
#   masks it (printed below).
# - No positions: nothing reads the position, so nothing changes.
#
# Step 0 is the one step where position 0 is true, so every scheme is right
# there.

# %%
wrong = {p: decode(m, forget_position=True) for p, m in models.items()}
gap_wrong = {p: np.abs(wrong[p] - full[p]).max(axis=-1) for p in POSITIONS}  # (n,) per step
carry = [p for p in POSITIONS if p != "none"]  # the schemes that carry position
print(f"{'scheme':<12}{'step 0':>9}{'smallest, steps 1-15':>22}{'largest':>9}")
for p in POSITIONS:
    print(f"{p:<12}{gap_text(gap_wrong[p][0]):>9}{gap_wrong[p][1:].min():>22.3f}{gap_wrong[p].max():>9.3f}")
print("ALiBi bias, head 0, for a query told it is at position 0, against keys at positions 0..4:")
print(alibi_bias_at(TINY["n_heads"], [0], np.arange(5))[0, 0])

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
for p in POSITIONS:
    ax.plot(np.arange(n), gap_wrong[p], "o-", ms=3, lw=1, color=looks[p].colour, label=p)
ax.set(xlabel="decoding step = the new token's true position", ylabel="max |step logits − forward logits|")
ax.set_title("Position 0 passed at every step: the schemes that carry position break")
fig.legend(frameon=False, ncols=5, loc="outside lower center")  # below the axes, off the lines
plt.show()

# %% [markdown]
# Reading it: the same gap as in the first figure, now on a linear scale. All
# five lines start at 0 (step 0, where position 0 is the truth). From step 1
# on, RoPE, the learned table, sinusoidal codes and ALiBi are off at every
# step, by the amounts in the table above (the learned table most, RoPE
# least); the grey line of the scheme with no positions stays on 0.

# %% [markdown]
# ## Claim 4: what a reader would see, and how the bug hides
#
# A greedy generator emits the highest-scoring token at each step. Counting
# the steps where the forgotten position changes that choice shows how loud
# the bug is: wrong logits at every step, yet for some schemes a changed token
# only now and then, which is why it slips past a quick look at the output.

# %%
flips = {p: int((wrong[p].argmax(axis=-1) != full[p].argmax(axis=-1)).sum()) for p in POSITIONS}
for p in POSITIONS:
    print(f"{p:<12}greedy token changed at {flips[p]:>2} of {n - 1} steps after the first")

# %%
fig, ax = plt.subplots(figsize=(6.4, 3.2), layout="constrained")
bars = ax.bar(POSITIONS, [flips[p] for p in POSITIONS], color=[looks[p].colour for p in POSITIONS])
ax.bar_label(bars)
ax.axhline(n - 1, color="black", ls="--", lw=1, label=f"all {n - 1} steps after the first")
ax.set(xlabel="position scheme", ylabel="steps with a different greedy token", ylim=(0, n + 1))
ax.set_yticks(np.arange(0, n, 3))
ax.set_title("Position forgotten: how often the generated token changes")
ax.legend(frameon=False, loc="upper right")
plt.show()

# %% [markdown]
# Reading it: one bar per scheme, the number of decoding steps (out of the
# fifteen after the first) at which the token a greedy generator would emit
# differs from the full pass's choice. Every scheme but "none" changes some
# tokens; none of them changes all, although its logits are wrong at every
# one of those steps.

# %% [markdown]
# ## Claim 5: forgetting the position turns the RoPE model into a model with no positions
#
# At the level of one rotation, `decode_error` from the RoPE lesson rotates
# twelve random keys one at a time through a `RotaryEmbedding` table
# (`incremental_rope`), each at its true position or at position 0, and
# compares them with rotating the whole sequence at once. At the level of the
# model, rotating everything by position 0 means rotating nothing: the RoPE
# model decoded with the position forgotten should give exactly the logits of
# the same weights with no positions at all (`position="none"` draws the
# same random weights, since neither scheme draws any of its own).

# %%
key_right, key_wrong = decode_error(pass_position=True), decode_error(pass_position=False)
print(f"one rotation, 12 keys: largest error {gap_text(key_right.max())} with the position, "
      f"{key_wrong.max():.3f} without; steps exactly right without it: {int((key_wrong == 0).sum())}")
as_nope = np.abs(wrong["rope"] - full["none"]).max(axis=-1)  # (n,) against the no-position model's full pass
print(f"RoPE decoded with position 0 vs the no-position model's full pass: largest gap {gap_text(as_nope.max())}")
print(f"RoPE decoded with position 0 vs its own full pass:                 largest gap {gap_wrong['rope'].max():.3f}")

# %%
fig, (a1, a2) = plt.subplots(2, 1, figsize=(6.4, 5.6), layout="constrained")
a1.plot(np.arange(key_wrong.size), key_wrong, "o-", ms=3, color=RED, label="position 0 every time")
a1.plot(np.arange(key_right.size), key_right, "o-", ms=3, color=BLUE, label="true position")
a1.set(xlabel="step = true position", ylabel="max |key − full-pass key|", title="one rotation (decode_error)")
legend_beside(a1)
a2.plot(np.arange(n), gap_wrong["rope"], "o-", ms=3, color=RED, label="vs the RoPE model's full pass")
a2.plot(np.arange(n), as_nope, "o-", ms=3, color=GRID, label="vs the no-position model's")
a2.set(xlabel="step = true position", ylabel="max |logit gap|", title="the whole decoder")
legend_beside(a2)
fig.suptitle("RoPE with the position forgotten")
plt.show()

# %% [markdown]
# Reading it: at the top, the key rotated alone matches the full pass at
# every step when its position is passed (blue, on 0) and only at step 0 when
# it is not (red). At the bottom, the RoPE decoder with the position forgotten
# is far from its own full pass (red) and sits on 0 against the full pass of
# the same weights with no positions (grey): the bug silently removes RoPE
# from the model, and what is left orders tokens by the causal mask alone.

# %%
from labs._lab import verdict

verdict({
    f"true position: cached logits equal the full pass within {TOL:.0e} for all five schemes, at every step":
        lambda: all(gap_right[p].max() < TOL for p in POSITIONS),
    f"true position: the cache holds each RoPE key rotated by its own position (within {TOL:.0e}), "
    "turned away from the unrotated key from position 1 on":
        lambda: cached_vs_rotated < TOL and turned_by[0] < TOL and turned_by[1:].min() > 0.01,
    "position 0 every step: rope, learned, sinusoidal and alibi are right at step 0 and off by > 0.1 at every later step":
        lambda: all(gap_wrong[p][0] < TOL and gap_wrong[p][1:].min() > 0.1 for p in carry),
    f"position 0 every step: the scheme with no positions still equals the full pass within {TOL:.0e}":
        lambda: gap_wrong["none"].max() < TOL,
    "position 0 every step: each scheme that carries position changes the greedy token at some steps; the one with none never does":
        lambda: all(0 < flips[p] < n for p in carry) and flips["none"] == 0,
    "position 0 every step: the RoPE model decodes exactly as the same weights with no positions":
        lambda: as_nope.max() < TOL and key_right.max() < TOL and int((key_wrong == 0).sum()) == 1,
})
