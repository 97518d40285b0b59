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
# # Lab TF2: the wrong RoPE layout
#
# The claim: RoPE is written in two layouts, interleaved pairs (dimensions 2i
# and 2i + 1 turn together) and half-split pairs (dimension j turns with
# j + d/2), and nothing in a weight file says which one it was trained with.
# Load query and key weights laid out for one layout into code that rotates in
# the other and reorder their rows with the conversion: every attention score
# comes out as the original's, to rounding, in either direction. Skip the
# conversion and the scores are different numbers, yet they still depend only
# on the distance between the tokens, so the model loads, runs and passes the
# usual sanity checks while attending to the wrong tokens. A cos/sin table laid
# out for the other layout is worse: the scores then depend on where the tokens
# sit.
#
# Run it: `python labs/tf2_rope_layouts.py` prints every number below and exits
# 0 when all the claims hold (1, naming the claim, when one does not; a claim
# whose computation raises fails naming what it raised).
#
# Run it on your own code: `python labs/tf2_rope_layouts.py --use FILE` (or
# `python -m labs.tf2_rope_layouts --use FILE`) checks every claim below on the
# functions FILE defines instead of the lessons', any of:
# `interleaved_to_half(w, n_heads)` and `half_to_interleaved(w, n_heads)` from
# [Challenge 06](../../challenges/06-rope-layouts/), used as they are;
# `apply_rope(x, positions, base)` from
# [Challenge 04](../../challenges/04-positional-encodings/), which is
# half-split, so it is the lab's half-split rotation as it is and, adapted
# explicitly, its interleaved one too (each vector's dimensions reordered to
# half-split order, the even ones then the odd ones, before your function turns
# them, and put back after); and `causal_mask(n)` from
# [Challenge 01](../../challenges/01-attention/). A file that defines none of
# them stops the lab with one line (exit 2).
#
# Which claim tests what: claim 1 compares two runs of one rotation (the
# original layout's and, after the conversion, the other layout's, which with
# your `apply_rope` is the same function of the same numbers), so it tests the
# conversions and nothing else; it holds for any rotation. Claims 2 and 3 run
# your functions but do not test them: a half-split `apply_rope` that turns
# interleaved pairs, or a mask that is transposed or lets every key through,
# leaves them holding. Your `apply_rope` and `causal_mask` are tested by claim
# 4 alone: both rotations against their formulas on random vectors, and the
# mask against numpy's lower triangle.
#
# Download it as a notebook, [tf2_rope_layouts.ipynb](tf2_rope_layouts.ipynb),
# or as a script, [tf2_rope_layouts.py](tf2_rope_layouts.py).
# Either runs with only numpy and matplotlib installed, no clone of this
# project needed: the download carries the lesson code the lab imports.
#
# It exercises [RoPE in practice](../../lessons/rope/), in particular its
# sections
# [Why the layouts are incompatible](../../lessons/rope/#3-why-the-layouts-are-incompatible-and-what-a-wrong-conversion-looks-like)
# and [The conversion permutation](../../lessons/rope/#4-the-conversion-permutation),
# and builds on [How does a transformer know word order?](../../lessons/positional/)
# for RoPE itself.

# %% [markdown]
# ## The setup
#
# A small attention layer: 12 token vectors of width 32 and random query and
# key projections for 2 heads of width 16 (`demo_weights`, entries drawn from
# numpy's default_rng with a seed, shape (d_out, d_in) and applied as x · Wᵀ).
# `head_scores` gives every head's pre-softmax score of query m against key n
# after RoPE in the layout it is told. The model is "trained" in the layout it
# is first run in; its scores in that layout are the original ones.
#
# Change `SEED` (an integer >= 0), `SEQ_LEN` (8 or more) or `D_HEAD` (even, 4
# or more) and rerun: the claims at the end should still hold; a value outside those ranges
# stops the lab with one line that says why.

# %%
from labs._lab import start
from labs._use import Takes, half_split_rope, interleaved_rope

TAKES = (  # what `--use FILE` runs in place of the lessons' functions
    Takes("interleaved_to_half", "06", "lessons.rope.interleaved_to_half"),
    Takes("half_to_interleaved", "06", "lessons.rope.half_to_interleaved"),
    Takes("apply_rope", "04", "lessons.rope.apply_rope_half", half_split_rope, "half-split, as it is"),
    Takes("apply_rope", "04", "lessons.positional.apply_rope", interleaved_rope,
          "the interleaved rotation: each vector's dimensions reordered to half-split order around it"),
    Takes("causal_mask", "01", "lessons.attention.causal_mask"),
)
start(TAKES)  # as a script: read --use FILE, then run the cells (a cell that raises fails its claims)

import matplotlib.pyplot as plt
import numpy as np

from labs._lab import FIGURE_WIDTH
from lessons._palette import BLUE, COLOUR_MAPS, MUTED, PURPLE, RED
from lessons._show import gap_text
from lessons.attention import causal_mask
from lessons.notation import softmax
from lessons.rope import (CASES, apply_rope_half, apply_rope_interleaved, conversion_permutation, conversion_scores,
                          demo_weights, half_to_interleaved, head_scores, interleaved_to_half, offset_spread)

SEED = 0  # seed of the random projections
SEQ_LEN, D_MODEL, D_HEAD, N_HEADS = 12, 32, 16, 2
TOL = 1e-9  # "the same to rounding": a difference below this fraction of the largest |score|
# the knobs, checked before anything runs: the cells below read positions 7 and 3, and with
# D_HEAD = 2 a head holds one pair, so the two layouts are the same code
if not (isinstance(SEED, int) and SEED >= 0):
    raise SystemExit(f"SEED must be an integer >= 0 (numpy's default_rng takes no negative seed), got {SEED!r}")
if not (isinstance(SEQ_LEN, int) and SEQ_LEN >= 8):
    raise SystemExit(f"SEQ_LEN must be an integer >= 8 (the lab reads positions 7 and 3), got {SEQ_LEN!r}")
if not (isinstance(D_HEAD, int) and D_HEAD >= 4 and D_HEAD % 2 == 0):
    raise SystemExit(f"D_HEAD must be an even integer >= 4 (with 2 the two layouts coincide), got {D_HEAD!r}")
if not (isinstance(N_HEADS, int) and N_HEADS >= 1 and isinstance(D_MODEL, int) and D_MODEL >= 1):
    raise SystemExit(f"N_HEADS and D_MODEL must be positive integers, got {N_HEADS!r} and {D_MODEL!r}")

W_q, W_k, _, _ = demo_weights(D_MODEL, D_HEAD, N_HEADS, SEED)  # (N_HEADS · D_HEAD, D_MODEL) each
X = np.random.default_rng(SEED + 1).normal(size=(SEQ_LEN, D_MODEL))  # (SEQ_LEN, D_MODEL) token vectors
print(f"{SEQ_LEN} tokens of width {D_MODEL}; {N_HEADS} heads of width {D_HEAD}; seed {SEED}; tolerance {TOL:g}")
print(f"W_q and W_k: shape {W_q.shape}; X: shape {X.shape}")
print(f"conversion row order for one head, interleaved -> half-split: {conversion_permutation(D_HEAD).tolist()}")

# %% [markdown]
# ## Claim 1: converted weights give the original scores, unconverted ones do not
#
# First direction: a model trained with interleaved pairs (Meta's Llama
# reference code, GPT-J) run by half-split code (Hugging Face Llama, GPT-NeoX).
# Converted means the query and key rows were reordered head by head with
# `interleaved_to_half`; not converted means the weights were loaded as they
# are. Second direction: a model trained half-split run by interleaved code,
# converted with `half_to_interleaved`. Every difference is the largest over all
# heads and all (query, key) pairs, as a fraction of the largest original score.


# %%
def compare(scores, original):
    """Largest |scores - original|, as a fraction of the largest |original|."""
    return float(np.abs(scores - original).max() / np.abs(original).max())


# interleaved checkpoint, half-split code
original = head_scores(W_q, W_k, X, N_HEADS, "interleaved")  # (N_HEADS, SEQ_LEN, SEQ_LEN)
converted = head_scores(interleaved_to_half(W_q, N_HEADS), interleaved_to_half(W_k, N_HEADS), X, N_HEADS, "half")
not_converted = head_scores(W_q, W_k, X, N_HEADS, "half")
# half-split checkpoint (other weights), interleaved code
V_q, V_k, _, _ = demo_weights(D_MODEL, D_HEAD, N_HEADS, SEED + 2)
original_h = head_scores(V_q, V_k, X, N_HEADS, "half")
converted_h = head_scores(half_to_interleaved(V_q, N_HEADS), half_to_interleaved(V_k, N_HEADS), X, N_HEADS,
                          "interleaved")
not_converted_h = head_scores(V_q, V_k, X, N_HEADS, "interleaved")

diff = {
    "interleaved -> half, converted": compare(converted, original),
    "interleaved -> half, not converted": compare(not_converted, original),
    "half -> interleaved, converted": compare(converted_h, original_h),
    "half -> interleaved, not converted": compare(not_converted_h, original_h),
}
for run, value in diff.items():
    print(f"{run:36} largest difference {gap_text(value, fmt='.3g')} of the largest original |score|")
corr = float(np.corrcoef(original.ravel(), not_converted.ravel())[0, 1])
print(f"correlation of the unconverted scores with the original ones: {corr:.3f}")
round_trip = bool(np.array_equal(half_to_interleaved(interleaved_to_half(W_q, N_HEADS), N_HEADS), W_q))
print(f"half_to_interleaved undoes interleaved_to_half exactly: {round_trip}")
m, n = 7, 3
print(f"query {m}, key {n}, head 0: original {original[0, m, n]:.4f}, converted {converted[0, m, n]:.4f}, "
      f"not converted {not_converted[0, m, n]:.4f}")

# %% [markdown]
# The figure plots every score of the half-split run against the original
# interleaved one, for all heads and (query, key) pairs. Converted scores sit on
# the diagonal; unconverted ones scatter around it. The scatter is not wholly
# random: a query scored against the key at its own position turns both by the
# same angle, which leaves their dot product as it was, so those scores agree
# in any layout.

# %%
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
lim = float(np.abs(original).max()) * 1.1
ax.plot([-lim, lim], [-lim, lim], color=MUTED, lw=1)
ax.plot(original.ravel(), not_converted.ravel(), "o", ms=3, color=RED, alpha=0.6,
        label="not converted (rows as loaded)")
ax.plot(original.ravel(), converted.ravel(), "o", ms=3, color=BLUE, label="converted (interleaved_to_half)")
ax.set_xlabel("original score (interleaved code)")
ax.set_ylabel("score in half-split code")
ax.set_title("Interleaved weights run by half-split code")
ax.legend(frameon=False)
plt.show()

# %% [markdown]
# ## Claim 2: the unconverted model still looks healthy; a mismatched table does not
#
# RoPE's signature property is that a score depends only on the offset between
# query and key. A natural sanity check slides one query and one key along the
# sequence at a fixed offset and checks that the score stays put. The lesson's
# `conversion_scores` scores one such pair, in its one-head example model of
# width 16, four ways: "original", "converted",
# "not converted", and "mismatched table" (half-split rotation fed a cos/sin
# table laid out for interleaved pairs, another real conversion bug), and
# `offset_spread` gives the largest minus the smallest score over key positions
# 0, 10, 100 and 1,000. Unconverted weights pass the check: they feed the
# rotation numbers meant for other partners, but each pair still turns as one,
# so the score is a different function of the offset, still a function of the
# offset alone. Only the mismatched table fails it.

# %%
OFFSET = 4
STARTS = np.arange(0, 201)
scale = max(abs(v) for v in conversion_scores(OFFSET, 0).values())
check = {case: offset_spread(case, OFFSET) / scale for case in CASES}
for case in CASES:
    print(f"{case:16} score at offset {OFFSET}: {conversion_scores(OFFSET, 0)[case]: .4f}, "
          f"spread over starts 0, 10, 100, 1000: {gap_text(check[case])} of the largest |score|")
worst_offset = max(offset_spread("not converted", o) / scale for o in range(0, 33))
print(f"not converted, every offset 0..32: largest spread {gap_text(worst_offset)} of the largest |score|")
slid = {case: np.array([conversion_scores(s + OFFSET, s)[case] for s in STARTS]) for case in CASES}

# %% [markdown]
# The figure draws the four runs' scores for one query four positions after its
# key, against the key's position. Original and converted are one flat line;
# not converted is another flat line at a different height, so it passes the
# sanity check with the wrong number; the mismatched table wanders.

# %%
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
styles = {"original": (MUTED, "-", 5), "converted": (BLUE, "--", 2),
          "not converted": (RED, "-", 2), "mismatched table": (PURPLE, "-", 1.5)}
for case, (color, ls, lw) in styles.items():
    ax.plot(STARTS, slid[case], ls, color=color, lw=lw, label=case)
ax.set_xlabel(f"position of the key (the query is {OFFSET} later)")
ax.set_ylabel("score q · k")
ax.set_title("The offset-only check: passed by unconverted weights")
fig.legend(frameon=False, ncol=2, loc="outside lower center")
plt.show()

# %% [markdown]
# ## Claim 3: what a reader would see
#
# Run the layer with a causal mask and a softmax, as a decoder does, and look
# at it the way one looks at a freshly loaded checkpoint. Every check a reader
# is likely to run passes: the shapes are right, every weight is finite, every
# row adds up to 1. The attention itself is not the model's. For each query the
# cell measures how much attention moved (the total variation distance: half
# the summed absolute difference between the two rows, 0 for identical rows, 1
# for rows with nothing in common) and whether the key it attends to most is
# still the same one. Query 0 sees only itself, so only queries 1 onward count.


# %%
def attention_weights(scores):
    """Causal softmax(scores / √d_head) over the keys, per head and query."""
    masked = np.where(causal_mask(SEQ_LEN), scores / np.sqrt(D_HEAD), -np.inf)  # (N_HEADS, SEQ_LEN, SEQ_LEN)
    return softmax(masked)


A_orig, A_conv, A_wrong = (attention_weights(s) for s in (original, converted, not_converted))
looks_fine = (A_wrong.shape == A_orig.shape and bool(np.all(np.isfinite(A_wrong)))
              and bool(np.allclose(A_wrong.sum(axis=-1), 1.0)))
print(f"not converted: shape {A_wrong.shape}, all finite {bool(np.all(np.isfinite(A_wrong)))}, "
      f"rows sum to 1: {bool(np.allclose(A_wrong.sum(axis=-1), 1.0))}")
tv = 0.5 * np.abs(A_wrong - A_orig).sum(axis=-1)[:, 1:]  # (N_HEADS, SEQ_LEN - 1)
tv_conv = 0.5 * np.abs(A_conv - A_orig).sum(axis=-1)[:, 1:]
moved_top = A_wrong.argmax(axis=-1)[:, 1:] != A_orig.argmax(axis=-1)[:, 1:]
print(f"attention moved, converted:     mean {gap_text(tv_conv.mean())}, largest {gap_text(tv_conv.max())}")
print(f"attention moved, not converted: mean {tv.mean():.3f}, largest {tv.max():.3f}")
print(f"queries whose most-attended key changed: {int(moved_top.sum())} of {moved_top.size}")

# %% [markdown]
# The figure shows head 0's attention weights, original on the left and with
# unconverted weights on the right: row m is query m, column n is key n, and
# brighter means more attention. Both are valid-looking causal patterns, and they
# differ cell by cell.

# %%
fig, axes = plt.subplots(1, 2, figsize=(FIGURE_WIDTH, 3.2), layout="constrained", sharey=True)
vmax = float(max(A_orig[0].max(), A_wrong[0].max()))
for ax, A, title in ((axes[0], A_orig, "original (interleaved)"), (axes[1], A_wrong, "not converted (half-split)")):
    image = ax.imshow(A[0], cmap=COLOUR_MAPS["amount"], vmin=0, vmax=vmax, aspect="auto")
    ax.set_title(title)
    ax.set_xticks(range(0, SEQ_LEN, 2))
    ax.set_xlabel("key position")
axes[0].set_yticks(range(0, SEQ_LEN, 2))
axes[0].set_ylabel("query position")
fig.colorbar(image, ax=axes, label="attention weight")
fig.suptitle("Head 0: the same checkpoint, two layouts")
plt.show()

# %% [markdown]
# ## Claim 4: the rotations and the mask are their formulas
#
# Claims 1 to 3 would hold with a wrong rotation or a wrong mask, so the
# functions themselves are checked here, with plain numpy. The half-split
# rotation turns the pair (xⱼ, xⱼ₊d/₂) by p·θⱼ to (xⱼ cos − xⱼ₊d/₂ sin,
# xⱼ sin + xⱼ₊d/₂ cos); the interleaved one turns (x₂ᵢ, x₂ᵢ₊₁) by p·θᵢ the same
# way; θᵢ = base^(−2i/d). Each is run on random vectors (normal entries, one
# per position) at head widths 8, 64 and 128, bases 10,000 and 500,000
# (Llama 3's), positions 0, 1, 7, 100 and 4,095. The causal mask of n tokens
# must be numpy's lower triangle, diagonal included (`np.tril`), for every n
# from 1 to 64.

# %%
WIDTHS, BASES = (8, 64, 128), (10000.0, 500000.0)
AT = np.array([0, 1, 7, 100, 4095])  # positions, one per row


def by_formula(x, base, first, second):
    """x (n, d) with row t's pairs (first[i], second[i]) turned by AT[t]·base^(−2i/d), from the formula."""
    d = x.shape[-1]
    angle = np.outer(AT, base ** (-np.arange(0, d, 2) / d))  # (n, d/2)
    c, s = np.cos(angle), np.sin(angle)
    out = np.empty_like(x)
    out[:, first], out[:, second] = x[:, first] * c - x[:, second] * s, x[:, first] * s + x[:, second] * c
    return out


def rotation_gaps(d, base):
    """Largest |rotation - formula| on random x (n, d), for the half-split and the interleaved layout."""
    x = np.random.default_rng(d).normal(size=(AT.size, d))  # (n, d): row t at position AT[t]
    half, pairs = np.arange(d // 2), np.arange(0, d, 2)
    return (float(np.abs(apply_rope_half(x, AT, base) - by_formula(x, base, half, half + d // 2)).max()),
            float(np.abs(apply_rope_interleaved(x, AT, base) - by_formula(x, base, pairs, pairs + 1)).max()))


# bound only when every width and base is done: a rotation that raises fails this claim alone, naming its error
rotation_vs_formula = {(d, base): rotation_gaps(d, base) for d in WIDTHS for base in BASES}
print("the rotations against their formulas on random x, largest |difference| (half-split, interleaved):")
for (d, base), (gap_h, gap_i) in rotation_vs_formula.items():
    print(f"  d = {d:3}, base {base:9,.0f}: {gap_text(gap_h)}, {gap_text(gap_i)}")
mask_wrong = [n for n in range(1, 65) if not np.array_equal(causal_mask(n), np.tril(np.ones((n, n), dtype=bool)))]
print(f"causal_mask(n) differs from np.tril for {len(mask_wrong)} of the 64 sizes 1..64"
      + (f", the first n = {mask_wrong[0]}" if mask_wrong else ""))

# %% [markdown]
# ## Verdict

# %%
from labs._lab import verdict

verdict({
    f"converted interleaved -> half-split: every score equals the original to {TOL:g}":
        lambda: diff["interleaved -> half, converted"] < TOL,
    f"converted half-split -> interleaved: every score equals the original to {TOL:g}":
        lambda: diff["half -> interleaved, converted"] < TOL,
    "half_to_interleaved undoes interleaved_to_half exactly": lambda: round_trip,
    "not converted, either direction: some score is off by more than 0.1 of the largest": lambda: min(
        diff["interleaved -> half, not converted"], diff["half -> interleaved, not converted"]) > 0.1,
    f"not converted: the score still depends only on the offset (spread < {TOL:g}), so the check passes":
        lambda: worst_offset < TOL,
    "mismatched cos/sin table: the score depends on where the pair sits (spread > 0.1)":
        lambda: check["mismatched table"] > 0.1,
    "not converted: the attention looks valid (shape, finite, rows sum to 1)": lambda: looks_fine,
    "not converted: the attention moves (mean total variation > 0.05, some top key changes)":
        lambda: tv.mean() > 0.05 and bool(moved_top.any()),
    f"converted: the attention is the original's to {TOL:g}": lambda: tv_conv.max() < TOL,
    f"both rotations are their formulas on random x (half-split turns x_j with x_j+d/2, interleaved x_2i with "
    f"x_2i+1, by p·base^(-2i/d)), at d 8 to 128, bases 10,000 and 500,000, to {TOL:g}":
        lambda: max(max(gaps) for gaps in rotation_vs_formula.values()) < TOL,
    "causal_mask(n) is np.tril (key j visible to query i when j <= i) for every n from 1 to 64":
        lambda: not mask_wrong,
})
