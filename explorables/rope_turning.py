"""The data of the explorable "RoPE, turning" (explorables/web/rope_turning.js, on the rope lesson's
page after its score-against-distance figure): one query and one key of a one-head model, taken
from the lesson's own worked example (`lessons.rope.demo_weights`, seed 0, as
`lessons.rope.conversion_scores` builds them), at two head widths: 16, the width of section 3's
table and figure (so gap 4 reads the table's 2.3664), and 128, the width of Llama's heads that
Level 1's costs use."""

from __future__ import annotations

import numpy as np

from lessons.attention import split_heads
from lessons.rope import demo_weights

WIDTHS = (16, 128)  # head widths the reader can pick: the worked example's, and Llama's
SEED = 0  # conversion_scores' default seed


def query_and_key(d_head: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """The worked example's query and key before turning, (d_head,) each: the query token projected
    by W_q and the key token by W_k, as `lessons.rope.head_scores` projects them (one head)."""
    W_q, W_k, x_q, x_k = demo_weights(d_head, d_head, 1, seed)
    X = np.stack([x_q, x_k])  # (2, d_model): the query token, then the key token
    q = split_heads(X @ W_q.T, 1)[0, 0]  # (d_head,)
    k = split_heads(X @ W_k.T, 1)[0, 1]  # (d_head,)
    return q, k


def data() -> dict:
    """{"widths": {"16": {"q": [...], "k": [...]}, "128": {...}}, "seed": 0}: the explorable's
    query and key at each width, every float as Python holds it."""
    widths = {}
    for d in WIDTHS:
        q, k = query_and_key(d)
        widths[str(d)] = {"q": q.tolist(), "k": k.tolist()}
    return {"widths": widths, "seed": SEED}
