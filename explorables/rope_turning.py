"""The data of the explorable "RoPE, turning" (explorables/web/rope_turning.js, on the rope lesson's
page after its score-against-distance figure): one query and one key of a one-head model, taken
from the lesson's own worked example (`lessons.rope.demo_weights`, seed 0, as
`lessons.rope.conversion_scores` builds them), at two head widths: 16, the width of section 3's
table and figure (so gap 4 reads the table's 2.3664), and 128, the width of Llama's heads that
Level 1's costs use; and the same weights' rows permuted by `lessons.rope.interleaved_to_half`,
for the four runs of section 3's table and figure (`RUNS`: which weights and which layout each of
`lessons.rope.CASES` turns, as `conversion_scores` runs them; the Node test holds every run to
`conversion_scores`)."""

from __future__ import annotations

import numpy as np

from lessons.attention import split_heads
from lessons.rope import CASES, demo_weights, interleaved_to_half

WIDTHS = (16, 128)  # head widths the reader can pick: the worked example's, and Llama's
SEED = 0  # conversion_scores' default seed
# Each run of section 3: (weights, layout); "permuted" = rows permuted by interleaved_to_half
RUNS = {"original": ("interleaved", "interleaved"), "converted": ("permuted", "half"),
        "not converted": ("interleaved", "half"), "mismatched table": ("permuted", "mismatched")}
assert tuple(RUNS) == CASES


def query_and_key(d_head: int, seed: int = SEED, weights: str = "interleaved") -> tuple[np.ndarray, np.ndarray]:
    """The worked example's query and key before turning, (d_head,) each: the query token projected
    by W_q and the key token by W_k, as `lessons.rope.head_scores` projects them (one head), with
    the weights as trained ("interleaved") or their rows permuted for half-split code ("permuted")."""
    W_q, W_k, x_q, x_k = demo_weights(d_head, d_head, 1, seed)
    if weights == "permuted":
        W_q, W_k = interleaved_to_half(W_q, 1), interleaved_to_half(W_k, 1)
    X = np.stack([x_q, x_k])  # (2, d_model): the query token, then the key token
    q = split_heads(X @ W_q.T, 1)[0, 0]  # (d_head,)
    k = split_heads(X @ W_k.T, 1)[0, 1]  # (d_head,)
    return q, k


def data() -> dict:
    """{"widths": {"16": {"interleaved": {"q": [...], "k": [...]}, "permuted": {...}}, "128": ...},
    "runs": {case: [weights, layout]}, "seed": 0}: the explorable's query and key at each width and
    for each set of weights, every float as Python holds it, and `RUNS`."""
    widths = {}
    for d in WIDTHS:
        widths[str(d)] = {}
        for w in ("interleaved", "permuted"):
            q, k = query_and_key(d, weights=w)
            widths[str(d)][w] = {"q": q.tolist(), "k": k.tolist()}
    return {"widths": widths, "runs": {c: list(r) for c, r in RUNS.items()}, "seed": SEED}
