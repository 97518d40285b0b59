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
# # Worked notebook: the lessons' functions, called
#
# Every lesson on this site is a Python module, so its functions are yours to
# call. This page shows a few of them called on small inputs, with their
# outputs. It is a worked notebook, not a live one: the site ran it when it was
# built, so every output below is what the lessons' code computed then, and
# nothing on this page runs in your browser. To change a number and rerun a
# cell, take [playground.py](playground.py) (the notebook saved as a Python
# script in jupytext's percent format) or, in a clone of the project, run
# `.venv/bin/pip install jupyterlab jupytext` then
# `.venv/bin/jupyter lab docs/notebooks/playground.py`, and try your own inputs.

# %% [markdown]
# ## Order blindness, and what each position scheme does about it
#
# The positional lesson pools one attention layer's outputs for two sentences
# with the same words in a different order, and compares them. In your copy,
# try your own pair.

# %%
from lessons.positional import encode_sentence, order_similarity

# rounded to 4 places: unrounded, float64 prints 'no positions' as 1.0000000000000002
{scheme: round(similarity, 4) for scheme, similarity in order_similarity().items()}

# %%
import numpy as np

a = encode_sentence("the cat chased the dog", scheme="rope").mean(axis=0)
b = encode_sentence("the dog chased the cat", scheme="rope").mean(axis=0)
round(float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))), 4)

# %% [markdown]
# ## RoPE scores depend only on the distance
#
# Put the same query and key at positions m and n, then move both by the same
# amount: the score does not change. In your copy, change `shift` and see.

# %%
from lessons.positional import apply_rope

rng = np.random.default_rng(0)
q, k = rng.standard_normal(64), rng.standard_normal(64)
shift = 1_000
for m, n in [(3, 7), (3 + shift, 7 + shift), (3, 8)]:
    print(m, n, round(float(apply_rope(q, m) @ apply_rope(k, n)), 6))

# %% [markdown]
# ## Read a model card's RoPE block
#
# `rope_inv_freq` turns the block a Hugging Face config carries into the
# turning speed of every pair (it matches the `transformers` library). Here is
# Llama 3.1 8B's block against the plain base; in your copy, edit the
# dictionary to try another recipe.

# %%
from lessons.context_extension import rope_inv_freq

llama31 = {"rope_type": "llama3", "rope_theta": 500_000.0, "factor": 8.0, "low_freq_factor": 1.0,
           "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
scaled, attention_factor = rope_inv_freq(128, llama31)
plain, _ = rope_inv_freq(128, {"rope_type": "default", "rope_theta": 500_000.0})
ratio = plain / scaled  # how many times slower each pair turns
print("attention factor:", attention_factor)
print("pairs left alone:", int(np.sum(np.isclose(ratio, 1.0))), "of", ratio.size)
print("pairs slowed by the full factor:", int(np.sum(np.isclose(ratio, 8.0))))

# %%
import matplotlib.pyplot as plt

from labs._lab import FIGURE_WIDTH  # inches: text a phone can read

wavelength = 2 * np.pi / plain
fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
ax.semilogx(wavelength, ratio, "o", ms=3)
ax.axvline(8192, color="gray", lw=1, ls="--")
ax.set_xlabel("wavelength of the pair (tokens)")
ax.set_ylabel("slowed by")
ax.set_title("Llama 3.1: short waves kept, long waves slowed 8x");

# %% [markdown]
# ## ALiBi's slopes for any number of heads
#
# For a head count that is not a power of two, the ALiBi authors' reference
# code takes slopes from the two neighbouring powers of two.

# %%
from lessons.alibi import alibi_slopes

for n_heads in (8, 12):
    print(n_heads, np.round(alibi_slopes(n_heads), 4).tolist())
