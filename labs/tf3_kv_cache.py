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
# none does not; and the ALiBi slopes and bias and the sinusoidal codes the
# decoder uses are their formulas. The decode runs exactly the learned table's
# sixteen rows, positions 0 to 15: it never asks for a position past the
# table's end, so what happens there is not checked here.
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
# that defines none of them stops the lab with one line (exit 2). Which claim
# checks which of your functions: `apply_rope` against the lesson's rotation,
# claim 2 (the keys the cache holds, in every layer); `alibi_slopes` and
# `alibi_bias` against their formulas, claims 6 and 7 (given your slopes and
# not your bias, the lessons' bias uses your slopes, so claim 7 reads them too);
# `sinusoidal_encoding` against its formula, claim 8; `causal_mask` only in
# claim 1, where the full pass, the one path that uses a mask, must equal the
# cached path, which needs none; `embed` only in claims 1, 3 and 4, which
# compare your function with itself (one token at position t in the cache
# against sixteen from position 0 in the full pass), so an `embed` that adds
# the same wrong row both ways passes. The lab does
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

from labs._lab import FIGURE_WIDTH
from lessons._palette import BLUE, GRID, RED, SCHEME_LOOKS, legend_beside
from lessons._show import gap_text
from lessons.alibi import alibi_bias_at, alibi_slopes
from lessons.attention import split_heads
from lessons.positional import sinusoidal_encoding
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
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
for p in POSITIONS:
    ax.plot(np.arange(n), np.maximum(gap_right[p], 1e-17), "o-", ms=3, lw=1, color=looks[p].colour, label=p)
ax.axhline(TOL, color="black", ls="--", lw=1, label=f"tolerance {TOL:.0e}")
ax.set(xlabel="decoding step = the new token's true position", ylabel="max |step logits − forward logits|",
       yscale="log", ylim=(1e-17, 1e-10))
ax.set_title("True position passed:\ncached decoding = the full pass, every scheme")
ax.legend(frameon=False, ncol=3, loc="upper left", columnspacing=0.8)
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
# decodes the sixteen tokens with the RoPE model, then builds every layer's
# keys from the weights alone: the layer's input in the full pass (the token
# vectors for layer 0, the output of the layer below after that), normalised
# as the layer does, times W_k, split into heads and not rotated. Turned by
# their positions with the lesson's half-split rotation `apply_rope_half`, they
# must be exactly what the cache holds in that layer; and from position 1 on
# they must differ from the unrotated keys, or nothing was turned.

# %%
rope_model, rope_cache = models["rope"], models["rope"].new_cache()
decode(rope_model, cache=rope_cache)
x_in = rope_model.embed(tokens)  # (n, d_model): layer 0's input in the full pass
cached_vs_rotated, turned_by = 0.0, np.full(n, np.inf)  # worst over the layers; (n,) least any key moved
for i, layer in enumerate(rope_model.layers):
    h_in = rope_model._norm(x_in, layer["g1"], layer["b1"])  # (n, d_model), normalised as the layer does
    raw_keys = split_heads(h_in @ layer["W_k"].T, TINY["n_heads"])  # (n_heads, n, d_head), not rotated
    rotated_keys = apply_rope_half(raw_keys, np.arange(n))  # (n_heads, n, d_head), key t turned by t
    cached_vs_rotated = max(cached_vs_rotated, float(np.abs(rope_cache.keys[i] - rotated_keys).max()))
    turned_by = np.minimum(turned_by, np.abs(rope_cache.keys[i] - raw_keys).max(axis=(0, 2)))
    x_in = rope_model.block(i, x_in)  # (n, d_model): the next layer's input
print(f"{len(rope_model.layers)} layers, each caching {rope_cache.keys[0].shape} keys; largest gap to the keys "
      f"rotated by their positions: {gap_text(cached_vs_rotated)}")
print(f"how far each cached key is from its unrotated self (least over the layers), positions 0..{n - 1}: "
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
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.8), layout="constrained")
for p in POSITIONS:
    ax.plot(np.arange(n), gap_wrong[p], "o-", ms=3, lw=1, color=looks[p].colour, label=p)
ax.set(xlabel="decoding step = the new token's true position", ylabel="max |step logits − forward logits|")
ax.set_title("Position 0 passed at every step:\nthe schemes that carry position break")
fig.legend(frameon=False, ncols=3, loc="outside lower center")  # below the axes, off the lines
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
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
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
fig, (a1, a2) = plt.subplots(2, 1, figsize=(FIGURE_WIDTH, 5.6), layout="constrained")
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

# %% [markdown]
# ## Claims 6 to 8: the ALiBi bias and the sinusoidal codes are their formulas
#
# Claims 1, 3 and 4 compare the cached path with the full pass, and both run
# the same ALiBi bias and the same sinusoidal table: a slope or a code that is
# wrong is wrong on both sides, and every claim above still holds. So the
# functions are also held to their formulas, computed here with plain numpy.
# The slopes: for a power of two n, head h (from 1) gets 2^(−8h/n); for any
# other n, the slopes of the largest power of two c below n, then every other
# slope of 2c heads (h = 1, 3, 5, ...) for the n − c heads left. The bias:
# −m_h · (i − j) for a key j at or before the query i, −inf after it. The
# codes: row p holds sin(p·ωᵢ) in column 2i and cos(p·ωᵢ) in column 2i + 1,
# with ωᵢ = 10,000^(−2i/d).

# %%
HEADS = (1, 2, 4, 8, 12, 16, 24)  # the decoder's 2 heads, other powers of two, and three that are not


def slopes_by_formula(n_heads):
    """(n_heads,) ALiBi slopes from the paper's rule, as the docstring above spells it."""
    c = 2 ** int(np.floor(np.log2(n_heads)))  # the largest power of two <= n_heads
    first = 2.0 ** (-8.0 * np.arange(1, c + 1) / c)
    extra = 2.0 ** (-8.0 * np.arange(1, 2 * c + 1, 2) / (2 * c))[: n_heads - c]
    return np.concatenate([first, extra])


slopes_gap = float(np.max([np.abs(np.asarray(alibi_slopes(h), dtype=float) - slopes_by_formula(h)).max()
                            for h in HEADS]))  # np.max: a NaN anywhere stays NaN, and fails
QUERIES, KEYS = np.array([0, 3, 7, 15]), np.arange(n)  # the full pass's queries, and a decode step's one query
bias_gaps = []
for h in (TINY["n_heads"], 8, 12):
    m = slopes_by_formula(h)[:, None, None]  # (h, 1, 1)
    for q in (QUERIES, np.array([9])):
        gap_ij = q[:, None] - KEYS[None, :]  # (n_q, n_k): i − j
        want = np.where(gap_ij >= 0, -m * gap_ij, -np.inf)  # (h, n_q, n_k)
        got = np.asarray(alibi_bias_at(h, q, KEYS), dtype=float)
        same_inf = bool(np.array_equal(np.isneginf(got), np.isneginf(want)))
        bias_gaps.append(np.abs(got[~np.isneginf(want)] - want[~np.isneginf(want)]).max()
                         if got.shape == want.shape and same_inf else np.inf)
bias_gap = float(np.max(bias_gaps))
TABLES = ((n, TINY["d_model"]), (4096, 128))  # the decoder's table, and a model-sized one
table_gaps = []
for rows, d in TABLES:
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angle = np.outer(np.arange(rows), omega)  # (rows, d/2)
    want = np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(rows, d)  # sin, cos, sin, cos, ...
    table_gaps.append(np.abs(np.asarray(sinusoidal_encoding(rows, d)) - want).max())
table_gap = float(np.max(table_gaps))
print(f"alibi_slopes for {', '.join(map(str, HEADS))} heads against the formula: {gap_text(slopes_gap)}")
print(f"alibi_bias (2, 8 and 12 heads; queries 0, 3, 7, 15 and a decode step's 9; keys 0..{n - 1}): "
      f"{gap_text(bias_gap)}")
print(f"sinusoidal_encoding ({n} x {TINY['d_model']} and 4,096 x 128) against the formula: {gap_text(table_gap)}")

# %%
from labs._lab import verdict

verdict({
    f"true position: cached logits equal the full pass within {TOL:.0e} for all five schemes, at every step":
        lambda: all(gap_right[p].max() < TOL for p in POSITIONS),
    f"true position: the cache holds each RoPE key rotated by its own position (within {TOL:.0e}), "
    "in every layer, turned away from the unrotated key from position 1 on":
        lambda: cached_vs_rotated < TOL and turned_by[0] < TOL and turned_by[1:].min() > 0.01,
    "position 0 every step: rope, learned, sinusoidal and alibi are right at step 0 and off by > 0.1 at every later step":
        lambda: all(gap_wrong[p][0] < TOL and gap_wrong[p][1:].min() > 0.1 for p in carry),
    f"position 0 every step: the scheme with no positions still equals the full pass within {TOL:.0e}":
        lambda: gap_wrong["none"].max() < TOL,
    f"position 0 every step: each scheme that carries position changes the greedy token at some of the {n - 1} "
    "steps after the first, never at all of them; the one with none never does":
        lambda: all(0 < flips[p] < n - 1 for p in carry) and flips["none"] == 0,
    "position 0 every step: the RoPE model decodes exactly as the same weights with no positions":
        lambda: as_nope.max() < TOL and key_right.max() < TOL and int((key_wrong == 0).sum()) == 1,
    f"alibi_slopes is the paper's rule, 2^(-8h/n) and for other n every other slope of the next power of two, "
    f"for {', '.join(map(str, HEADS))} heads, to {TOL:.0e}": lambda: slopes_gap < TOL,
    f"alibi_bias is -m_h·(i - j) for keys at or before the query and -inf after it, to {TOL:.0e}":
        lambda: bias_gap < TOL,
    f"sinusoidal_encoding is its formula, row p = sin, cos of p·10,000^(-2i/d), {n} x {TINY['d_model']} and "
    f"4,096 x 128, to {TOL:.0e}": lambda: table_gap < TOL,
})
