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
# # Lab TF4: stretching the context
#
# A RoPE model trained on 4,096 tokens only ever saw the angles its pairs
# reach by position 4,095: positions run from 0, so the last one is L − 1,
# and this lab counts every angle that way (seen: (L − 1)·θᵢ; reached at
# 32,768 tokens: 32,767·θ′ᵢ). Read it at 32,768 tokens and the slow pairs, the
# ones that never finished a turn in training, turn to angles it never saw.
# This lab takes the running example of the context-extension lesson (a head
# of 128 numbers, base 10,000, 4,096 → 32,768 tokens, a stretch of 8) and
# measures, for every pair, the largest angle it reaches against the largest
# it saw in training, under five recipes: no scaling, position interpolation,
# NTK-aware scaling, YaRN and the Llama 3 rule. The claims: with no scaling
# the slow pairs overshoot by 8×; NTK-aware scaling still leaves all 18 of
# them beyond their trained angles (the last only just); position
# interpolation, YaRN and Llama 3 keep every pair within what it saw; the
# Llama 3 rule's middle band and YaRN's attention factor are what the
# transformers library computes; and position interpolation and NTK-aware
# scaling are their formulas at a second head (64 numbers, base 500,000, a
# stretch of 4).
#
# Run it with `python labs/tf4_stretching_context.py`: it exits 0 when every
# claim holds and 1, naming the claim, when one does not (a claim whose
# computation raises fails naming what it raised).
#
# Run it on your own code: `python labs/tf4_stretching_context.py --use FILE`
# (or `python -m labs.tf4_stretching_context --use FILE`) checks every claim
# below on the functions FILE defines from
# [Challenge 07](../../challenges/07-stretching/), any of `pi_inv_freq`,
# `ntk_inv_freq`, `yarn_inv_freq`, `yarn_attention_factor` and
# `llama3_inv_freq`. The lessons compute a recipe's speeds from a model's
# rope_parameters block (`rope_inv_freq`, as transformers does), so the lab
# adapts explicitly: a linear, yarn or llama3 block is read as the lesson
# reads it (the base, the factor, the trained length, YaRN's betas) and handed
# to your function for that recipe; your `ntk_inv_freq`'s speeds stand for the
# lesson's raised base, read back from its last pair after checking that every
# speed belongs to that one base; your `yarn_attention_factor` has no
# DeepSeek mscale, and the lab asks it for none. A file that defines none of
# them stops the lab with one line (exit 2).
#
# It exercises
# [How far can a model read? Stretching RoPE past the trained length](../../lessons/context_extension/)
# (the recipes and the ratio) and
# [How does a transformer know word order?](../../lessons/positional/)
# (the turning speeds, interpolation and the NTK-aware base). Download it as a
# notebook, [tf4_stretching_context.ipynb](tf4_stretching_context.ipynb), or as
# a script, [tf4_stretching_context.py](tf4_stretching_context.py).
# Either runs with only numpy and matplotlib installed, no clone of this
# project needed: the download carries the lesson code the lab imports.

# %%
from labs._lab import start
from labs._use import Takes, base_from_speeds, factor_only, rope_type_branch

TAKES = (  # what `--use FILE` runs in place of the lessons' functions
    Takes("pi_inv_freq", "07", "lessons.context_extension.rope_inv_freq", rope_type_branch("linear"),
          "for a linear block, given its rotary width, base and factor"),
    Takes("ntk_inv_freq", "07", "lessons.positional.ntk_scaled_base", base_from_speeds,
          "its speeds read back as one raised base"),
    Takes("yarn_inv_freq", "07", "lessons.context_extension.rope_inv_freq", rope_type_branch("yarn"),
          "for a yarn block, given its width, base, factor, trained length and betas"),
    Takes("yarn_attention_factor", "07", "lessons.context_extension.yarn_attention_factor", factor_only,
          "the same rule, asked for no DeepSeek mscale"),
    Takes("llama3_inv_freq", "07", "lessons.context_extension.rope_inv_freq", rope_type_branch("llama3"),
          "for a llama3 block, given its width, base, factor, low and high factors and trained length"),
)
start(TAKES)  # as a script: read --use FILE, then run the cells (a cell that raises fails its claims)

import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from labs._lab import FIGURE_WIDTH
import lessons
from lessons._palette import BLUE, GREY_FILL, GRID, METHOD_LOOKS, RED
from lessons.context_extension import (EXAMPLE, METHOD_LABELS, example_methods, rope_inv_freq, rope_type_of,
                                       rope_wavelengths, trained_angle_ratio)
from lessons.positional import angle_table, ntk_scaled_base, rope_frequencies

d, base, L, s = EXAMPLE["d"], EXAMPLE["base"], EXAMPLE["trained"], EXAMPLE["factor"]
new_len = int(L * s)  # the length we read at
overshoot = (new_len - 1) / (L - 1)  # 32,767 / 4,095: what a slow pair's angle grows by with no scaling
pairs = np.arange(d // 2)  # (64,) pair index i, 0 = fastest
theta = rope_frequencies(d, base)  # (64,) trained speeds θ_i, radians per position
print(f"head width d = {d} ({d // 2} pairs), base {base:,.0f}, trained on L = {L:,} tokens, "
      f"read at {new_len:,} (stretch s = {s:g})")

# %% [markdown]
# ## What each pair saw in training
#
# Pair i turns θ_i = base^(−2i/d) radians per position, so it needs
# 2π / θ_i positions for one full turn, its wavelength. A pair whose
# wavelength fits in the trained length has been all the way round: every
# angle is familiar, and reading further only repeats them. A pair whose
# wavelength is longer only ever saw the arc from 0 to (L − 1) · θ_i, the
# angle at the last trained position. Those slow pairs are the ones this lab
# watches.

# %%
wavelength = rope_wavelengths(theta)  # (64,) positions per full turn
slow = wavelength > L  # (64,) never finished a turn in training
first_slow = int(np.argmax(slow))
seen = angle_table(L - 1, theta)  # (64,) the largest angle each pair reached in training, at position L − 1
print(f"pairs 0..{first_slow - 1} finish a full turn within {L:,} tokens "
      f"(pair {first_slow - 1}: wavelength {wavelength[first_slow - 1]:,.0f})")
print(f"pairs {first_slow}..{d // 2 - 1}, {int(slow.sum())} of them, never do "
      f"(pair {first_slow}: wavelength {wavelength[first_slow]:,.0f})")
print(f"the largest angle seen: pair {first_slow} {seen[first_slow]:.3f} rad, "
      f"pair {d // 2 - 1} {seen[-1]:.4f} rad (a full turn is {2 * np.pi:.3f})")

# %% [markdown]
# ## Claim 1: with no scaling, the slow pairs overshoot by 8×
#
# Read at 32,768 tokens with the trained speeds, pair i reaches 32,767 · θ_i
# at the last position, 32,767 / 4,095 = 8.0017 times the angle it reached at
# position 4,095: eight times, and a little more, because both lengths count
# from 0. For a fast pair that is only
# more full turns; for a slow pair it is an arc the model has never seen.
# `trained_angle_ratio` gives, per pair, the largest angle used divided by the
# largest angle seen (capped at 1 for a pair that already saw every angle).
# The cell computes it for every recipe, each recipe's speeds on their own:
# the trained speeds (no scaling), the speeds of the raised base (NTK-aware),
# and `rope_inv_freq` on each config block `example_methods` writes (position
# interpolation, YaRN, Llama 3), so that a recipe whose code raises fails the
# claims about that recipe alone.

# %%
blocks = example_methods()  # {recipe: its rope_parameters block}
RECIPES = {  # recipe -> how to get its (64,) speeds at the new length
    "no scaling": lambda: theta,
    "position interpolation (linear)": lambda: rope_inv_freq(
        d, blocks["position interpolation (linear)"], max_position_embeddings=new_len, seq_len=new_len)[0],
    "NTK-aware (base raised)": lambda: rope_frequencies(d, ntk_scaled_base(base, s, d)),
    "YaRN": lambda: rope_inv_freq(d, blocks["YaRN"], max_position_embeddings=new_len, seq_len=new_len)[0],
    "Llama 3 rule": lambda: rope_inv_freq(d, blocks["Llama 3 rule"], max_position_embeddings=new_len,
                                          seq_len=new_len)[0],
}
speeds, raised_by = {}, {}  # {recipe: (64,) speeds}, {recipe: what computing them raised}
for label, speeds_of in RECIPES.items():
    try:
        speeds[label] = np.asarray(speeds_of(), dtype=float)
    except Exception as error:  # this recipe's claims fail naming it; the other recipes go on
        raised_by[label] = error
        print(f"{label}: computing its speeds raised {type(error).__name__}: {error}")


def ratio(label):
    """(64,) largest angle used ÷ largest angle seen for one recipe (raises what its speeds raised)."""
    if label in raised_by:
        raise raised_by[label]
    return trained_angle_ratio(speeds[label], theta, L, new_len)


def speed_ratio(label):
    """(64,) the recipe's speed ÷ the trained speed, per pair (raises what its speeds raised)."""
    if label in raised_by:
        raise raised_by[label]
    return speeds[label] / theta


raw = ratio("no scaling")
reached = angle_table(new_len - 1, theta)  # (64,) the largest angle at the last position, 32,767
over = raw > 1 + 1e-9
print(f"pairs beyond their trained angles: {int(over.sum())} (pairs {int(pairs[over][0])}..{int(pairs[over][-1])})")
print(f"by how much: {raw[over].min():.2f}x to {raw[over].max():.2f}x")
for i in (first_slow, d // 2 - 1):
    print(f"pair {i}: saw up to {seen[i]:.4f} rad, reaches {reached[i]:.4f} rad")

# %%
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 4.4), layout="constrained")
ax.axvspan(-0.5, first_slow - 0.5, color=GREY_FILL, label="a full turn in training: every angle seen")
ax.plot(pairs, seen, "o", ms=3, color=BLUE, label=f"largest angle seen ({L:,} tokens)")
ax.plot(pairs, reached, "x", ms=4, color=RED, label=f"largest angle reached ({new_len:,} tokens, no scaling)")
ax.axhline(2 * np.pi, color=GRID, lw=0.8, ls="--", label="one full turn, 2π")
ax.set(xlabel="pair index i (0 = fastest)", ylabel="angle (radians)", yscale="log")
ax.set_title("No scaling: every pair reaches 8× its largest trained angle")
fig.legend(frameon=False, loc="outside lower center")  # below the axes: inside, it sat on the red crosses
plt.show()

# %% [markdown]
# Reading it: each pair has two marks, the largest angle it saw in training
# (blue) and the largest it reaches at 32,768 tokens (red), on a log scale so
# that 8× is a constant gap. The dashed line is one full turn. In the grey
# zone the blue mark is already above it: those pairs went all the way round
# in training, and their extra turns show nothing new. To the right, the blue
# marks fall below a full turn, and the red marks sit 8 times higher, on an
# arc the pair never reached.

# %% [markdown]
# ## Claim 2: NTK-aware scaling leaves the slow pairs beyond their trained angles
#
# NTK-aware scaling raises the base instead of touching the positions. Pair i
# slows by s^(2i/(d−2)): not at all for pair 0, by the full stretch 8 for the
# last pair, and by less than 8 for every pair in between, slow pairs
# included. A slow pair slowed by less than 8 still overshoots; the last pair,
# slowed by the full 8, ends where position interpolation ends (claim 3): a
# hair, 0.0002, past its trained angle.

# %%
ntk = ratio("NTK-aware (base raised)")
ntk_over = ntk > 1 + 1e-9
worst = int(ntk.argmax())
print(f"slow pairs beyond their trained angles: {int(ntk_over.sum())} of {int(slow.sum())} "
      f"(pairs {int(pairs[ntk_over][0])}..{int(pairs[ntk_over][-1])})")
print(f"worst: pair {worst}, {ntk[worst]:.2f}x its largest trained angle "
      f"(slowed by {1 / speed_ratio('NTK-aware (base raised)')[worst]:.2f}, not 8)")
print(f"pair {d // 2 - 1}, the only slow pair brought back (to 0.875 of a position): {ntk[-1]:.6f}x")

# %%
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
ax.axvspan(-0.5, first_slow - 0.5, color=GREY_FILL, label="a full turn in training: every angle seen")
ax.axhline(1, color=GRID, lw=0.8)
ax.plot(pairs, ntk, "o-", ms=3, color="black", label="NTK-aware (base raised)")
ax.annotate(f"pair {worst}:\n{ntk[worst]:.2f}×", (worst, ntk[worst]), xytext=(42, ntk[worst] - 0.35), ha="right",
            arrowprops={"arrowstyle": "->", "lw": 0.8})
ax.set(xlabel="pair index i (0 = fastest)", ylabel="largest angle used ÷ largest seen", ylim=(0.9, 1.9))
ax.set_title(f"NTK-aware: {int(ntk_over.sum())} of {int(slow.sum())} slow pairs beyond their trained angles")
ax.legend(frameon=False, loc="upper left")
plt.show()

# %% [markdown]
# Reading it: one point per pair, the largest angle used at 32,768 tokens
# divided by the largest seen at 4,096; 1 means "no further than in
# training". The grey pairs are at 1. The first slow pair jumps to the
# highest ratio, and the ratio falls back to 1 (to within 0.0002) only at the
# last pair, the one pair the raised base slows by the full 8.

# %% [markdown]
# ## Claim 3: position interpolation, YaRN and Llama 3 keep every pair within what it saw, to 0.875 of a position
#
# Position interpolation divides every speed by 8. YaRN divides by the full 8
# every pair that turns less than once in training and keeps the fast ones;
# the Llama 3 rule divides by 8 every wave longer than the trained length and
# keeps the short ones. Each recipe is the config block `example_methods`
# writes, turned into speeds by `rope_inv_freq`.

# %%
print(f"{'recipe':<34}{'largest ratio':>14}{'pairs above 1':>15}")
for label in RECIPES:
    if label not in raised_by:
        print(f"{label:<34}{ratio(label).max():>14.6f}{int((ratio(label) > 1 + 1e-9).sum()):>15}")
within = ("position interpolation (linear)", "YaRN", "Llama 3 rule")

# %% [markdown]
# The three recipes that divide the slow pairs by 8 do not stop exactly at 1:
# their largest ratio is 1.000214. Position interpolation maps the last
# position, 32,767, to 32,767 / 8 = 4,095.875, which is 0.875 of a position
# past the last trained one, 4,095; YaRN and the Llama 3 rule divide the slow
# pairs by the same 8 and land on the same angle. The cell prints the mapped
# position and the ratio it gives.

# %%
mapped_last = (new_len - 1) / s  # where position interpolation puts the last position
past = mapped_last - (L - 1)  # how far beyond the last trained position
print(f"position {new_len - 1:,} / {s:g} = {mapped_last:,.3f}: {past:.3f} of a position past {L - 1:,}")
print(f"so a slow pair's angle is {mapped_last / (L - 1):.6f} of the largest it saw")

# %% [markdown]
# Why that is harmless: the overshoot is less than one position's step. A
# slow pair turns by θ_i per position, so going 0.875 of a position further
# moves its angle by less than the step between two neighbouring trained
# positions: the angle at 4,095.875 lies between the angles the pair would
# have at 4,095 and 4,096, a sliver past the arc it saw, where no scaling at
# all goes 8 times further out. The claim below allows those 0.875 of a
# position and no more.

# %%
styles = {label: (METHOD_LOOKS[method].colour, METHOD_LOOKS[method].dash) for label, method in METHOD_LABELS.items()}
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
ax.axvspan(-0.5, first_slow - 0.5, color=GREY_FILL)
for label, (color, style) in styles.items():
    if label not in raised_by:
        ax.plot(pairs, ratio(label), ls=style, color=color, lw=1.8, label=label)
ax.set(xlabel="pair index i (0 = fastest)", ylabel="largest angle used ÷ largest seen", yscale="log")
ax.set_yticks([1, 2, 4, 8], ["1", "2", "4", "8"])
ax.set_yticks([], minor=True)
ax.set_title("Per pair and per recipe,\nread at 32,768 after training on 4,096")
ax.legend(frameon=False, loc="upper left")
plt.show()

# %% [markdown]
# Reading it: the same ratio for all five recipes, on a log scale. No scaling
# sits at 8 on every slow pair and NTK-aware scaling between 1 and 2;
# position interpolation, YaRN and the Llama 3 rule lie on top of each other
# at 1 (1.0002 on the slow pairs), for every pair.

# %% [markdown]
# ## Claim 4: what staying within costs
#
# Staying within the trained angles says nothing about the fast pairs, which
# tell neighbouring tokens apart. Position interpolation slows them too: on
# pair 0, two neighbouring tokens end up 1/8 of a radian apart instead of 1.
# YaRN and the Llama 3 rule keep the fast pairs' speeds and slow only the
# slow ones. The speeds come from `rope_inv_freq`, as a model would compute
# them from its config.

# %%
print(f"{'recipe':<34}{'pair 0 speed':>13}{'pair 63 speed':>15}   (new θ ÷ trained θ)")
for label in RECIPES:
    if label not in raised_by:
        print(f"{label:<34}{speed_ratio(label)[0]:>13.3f}{speed_ratio(label)[-1]:>15.3f}")

# %%
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 4.4), layout="constrained")
ax.axvspan(-0.5, first_slow - 0.5, color=GREY_FILL)
for label, (color, style) in styles.items():
    if label not in raised_by:
        ax.plot(pairs, speed_ratio(label), ls=style, color=color, lw=1.8, label=label)
ax.set(xlabel="pair index i (0 = fastest)", ylabel="new θ ÷ trained θ", yscale="log")
ax.set_yticks([1 / 8, 1 / 4, 1 / 2, 1], ["1/8", "1/4", "1/2", "1"])
ax.set_yticks([], minor=True)
ax.set_title("Where each recipe slows the pairs")
fig.legend(frameon=False, loc="outside lower center", ncols=2)  # below the axes, off the curves
plt.show()

# %% [markdown]
# Reading it: each line is a recipe's new speed divided by the trained speed,
# per pair. Position interpolation is flat at 1/8: every pair, the fastest
# included, turns eight times slower. YaRN and the Llama 3 rule stay at 1 on
# the fast pairs, blend through the middle, and reach 1/8 by the first slow
# pair, which is why their angle ratio stays at 1, but for the 0.875 of a
# position above. NTK-aware scaling
# slides smoothly from 1 to 1/8 and reaches 1/8 only at the last pair.

# %% [markdown]
# ## Claim 5: the Llama 3 middle band and YaRN's attention factor, against transformers
#
# Claims 3 and 4 read the fast pairs and the slow ones. Between them the Llama 3
# rule blends: a pair whose wavelength lies between L / high_freq_factor and
# L / low_freq_factor (1,024 to 4,096 positions here, pairs 36 to 45) turns at
# a mix of its own speed and its speed ÷ s, and none of the claims above reads
# those pairs: the cell shows how far swapping the two factors moves them while
# every claim above still holds. YaRN also multiplies cos and sin by an
# attention factor, 0.1 · ln s + 1, which no speed shows.
#
# So both are held to what the transformers library computes for the same
# config blocks, recorded in tests/data/reference_vectors.json (float32, so to
# a relative 1e-5): every llama3 block there with a middle band
# (low_freq_factor < high_freq_factor), speeds of every pair; and every yarn
# block whose attention factor comes from YaRN's rule (the block sets no
# attention_factor and has no DeepSeek mscale), its factor and its speeds.

# %%
F32 = 1e-6  # relative: a learner's speeds in float32, as transformers computes them, differ by up to 1e-6
DOWNLOAD_DATA = ("tests/data/reference_vectors.json",)  # the downloads carry this file too

VECTORS = Path(lessons.__file__).parents[1] / "tests" / "data" / "reference_vectors.json"
records = json.loads(VECTORS.read_text(encoding="utf-8"))["rope"]


def against_transformers(record):
    """(largest relative speed gap, relative attention-factor gap) of `rope_inv_freq` on the record's block."""
    speeds, attention = rope_inv_freq(record["head_dim"], record["rope_parameters"],
                                      max_position_embeddings=record["max_position_embeddings"],
                                      seq_len=record["seq_len"])
    want = np.asarray(record["inv_freq"])
    return float(np.abs(speeds / want - 1).max()), abs(attention / record["attention_factor"] - 1)


llama3 = [r for r in records if rope_type_of(r["rope_parameters"]) == "llama3"
          and r["rope_parameters"]["low_freq_factor"] < r["rope_parameters"]["high_freq_factor"]]
yarn = [r for r in records if rope_type_of(r["rope_parameters"]) == "yarn"
        and not {"attention_factor", "mscale", "mscale_all_dim"} & set(r["rope_parameters"])]
gaps, gap_raised = {}, {}  # {record name: its two gaps}, {record name: what computing them raised}
for r in llama3 + yarn:
    try:
        gaps[r["name"]] = against_transformers(r)
    except Exception as error:  # that record's claim fails naming it; the others go on
        gap_raised[r["name"]] = error
        print(f"{r['name'][:62]:<63} raised {type(error).__name__}: {error}")
        continue
    speed_gap, factor_gap = gaps[r["name"]]
    print(f"{r['name'][:62]:<63} speeds {speed_gap:.1e}, factor {r['attention_factor']:.4f} ({factor_gap:.1e})")


def gap(record):
    """(largest relative speed gap, attention-factor gap) of one record (raises what computing them raised)."""
    if record["name"] in gap_raised:
        raise gap_raised[record["name"]]
    return gaps[record["name"]]


example_factor = rope_inv_freq(d, blocks["YaRN"], max_position_embeddings=new_len)[1]
print(f"YaRN's attention factor at the example's stretch {s:g}: {example_factor:.4f} (0.1 · ln {s:g} + 1)")
band = np.flatnonzero(np.abs(speed_ratio("Llama 3 rule") - 1) > F32)  # pairs the rule slows at all
band = band[speed_ratio("Llama 3 rule")[band] > (1 + F32) / s]  # and not by the full s: the blend
swapped = rope_inv_freq(d, {**blocks["Llama 3 rule"], "low_freq_factor": 4.0, "high_freq_factor": 1.0},
                        max_position_embeddings=new_len)[0] / theta  # the factors swapped
moved = swapped / speed_ratio("Llama 3 rule")  # (64,) each pair's speed, factors swapped ÷ as given
pairs_moved = np.flatnonzero(np.abs(moved - 1) > 1e-9)
print(f"the example's middle band: pairs {band.tolist()}; the factors swapped move pairs {pairs_moved.tolist()}"
      + (f", to {moved[pairs_moved].min():.2f}x..{moved[pairs_moved].max():.2f}x" if pairs_moved.size else ""))

# %% [markdown]
# ## Claim 6: position interpolation and NTK-aware scaling at a second head
#
# Every claim above reads one head: 128 numbers, base 10,000, a stretch of 8.
# A recipe that hard-codes any of those (the base 10,000, NTK's exponent
# 128/126) passes them all. So the two recipes no claim above pins to a
# formula are also computed for a head of 64 numbers with Llama 3's base
# 500,000 and a stretch of 4, and compared with their formulas in plain numpy:
# position interpolation θᵢ / s, NTK-aware scaling (base · s^(d/(d−2)))^(−2i/d).
# The tolerance is a relative 10⁻⁶, so speeds computed in float32, as
# transformers computes them, pass.

# %%
D2, BASE2, S2, L2 = 64, 500000.0, 4.0, 8192  # the second head: width, base, stretch, trained length
theta2 = BASE2 ** (-np.arange(0, D2, 2) / D2)  # (32,) θ_i = base^(-2i/d)
SECOND = {  # recipe -> (its speeds as the lessons compute them, its formula)
    "position interpolation (linear)": (
        lambda: rope_inv_freq(D2, {"rope_type": "linear", "rope_theta": BASE2, "factor": S2},
                              max_position_embeddings=int(L2 * S2), seq_len=int(L2 * S2))[0],
        theta2 / S2),
    "NTK-aware (base raised)": (
        lambda: rope_frequencies(D2, ntk_scaled_base(BASE2, S2, D2)),
        (BASE2 * S2 ** (D2 / (D2 - 2))) ** (-np.arange(0, D2, 2) / D2)),
}


def second_gap(label):
    """The largest relative gap between the recipe's speeds at the second head and its formula."""
    speeds_of, want = SECOND[label]
    got = np.asarray(speeds_of(), dtype=float)
    return float(np.abs(got / want - 1).max()) if got.shape == want.shape else np.inf


print(f"a head of d = {D2}, base {BASE2:,.0f}, stretch {S2:g}: largest relative gap to the formula")
for label in SECOND:
    try:
        print(f"  {label:<34}{second_gap(label):.1e}")
    except Exception as error:  # the claim below fails naming it
        print(f"  {label:<34}raised {type(error).__name__}: {error}")

# %%
from labs._lab import verdict

verdict({
    f"no scaling: the 18 slow pairs (from pair 46) reach 32,767/4,095 = {overshoot:.4f}x their largest trained angle":
        lambda: int(over.sum()) == int(slow.sum()) == 18 and first_slow == 46 and bool(np.array_equal(over, slow))
        and bool(np.allclose(raw[slow], reached[slow] / seen[slow], rtol=1e-12))
        and bool(np.allclose(raw[slow], overshoot, rtol=1e-12)),
    "NTK-aware: all 18 slow pairs end beyond their trained angles, worst 1.75x at pair 46, pair 63 by only 0.0002":
        lambda: int(ntk_over.sum()) == 18 and bool(np.all(ntk_over[slow])) and worst == 46
        and round(float(ntk[worst]), 2) == 1.75 and abs(float(ntk[-1]) - mapped_last / (L - 1)) < F32,
    f"position interpolation, YaRN and Llama 3 keep every pair within its trained angles but {past:.3f} of a "
    f"position (ratio <= {mapped_last / (L - 1):.6f})":
        lambda: all(float(ratio(label).max()) <= mapped_last / (L - 1) * (1 + F32) for label in within),
    "position interpolation slows pair 0 by 8; YaRN and Llama 3 keep its speed and slow every slow pair by 8":
        lambda: abs(speed_ratio("position interpolation (linear)")[0] - 1 / s) < 1e-12
        and all(abs(speed_ratio(label)[0] - 1.0) < 1e-12 for label in ("YaRN", "Llama 3 rule"))
        and all(bool(np.allclose(speed_ratio(label)[slow], 1 / s)) for label in ("YaRN", "Llama 3 rule")),
    "Llama 3 rule: every pair's speed, the middle band's included, is transformers' for the "
    f"{len(llama3)} llama3 blocks with one (Llama 3.1 8B, Llama 3.2 1B, ...), to 1e-5":
        lambda: len(llama3) >= 4 and all(gap(r)[0] < 1e-5 for r in llama3),
    f"YaRN: the attention factor (1.2079 at s = 8) and the speeds are transformers' for the {len(yarn)} yarn "
    "blocks that set no attention_factor (nor a DeepSeek mscale), to 1e-5":
        lambda: len(yarn) >= 5 and all(max(gap(r)) < 1e-5 for r in yarn)
        and abs(example_factor - 1.2079441541679836) < 1e-12,
    f"d = {D2}, base {BASE2:,.0f}, stretch {S2:g}: position interpolation's speeds are θ_i / s, to a relative 1e-6":
        lambda: second_gap("position interpolation (linear)") < 1e-6,
    f"d = {D2}, base {BASE2:,.0f}, stretch {S2:g}: NTK-aware speeds are (base·s^(d/(d-2)))^(-2i/d), to a relative 1e-6":
        lambda: second_gap("NTK-aware (base raised)") < 1e-6,
})
