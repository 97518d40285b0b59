"""Challenge 08: position ids for left padding and packing, and the cut.

Write the four functions below with numpy, then check your answer:

    python -m challenges check 08 position_ids.py

The checker prints PASS or FAIL for each property, with a hint that names the
classic mistake when it recognises one. The problem statement, hints and a
reference solution: the page "Challenge 08: position ids" on the Positional
Primer site.
"""

from __future__ import annotations

import numpy as np


def position_ids_from_mask(attention_mask: np.ndarray) -> np.ndarray:
    """The position ids of a batch padded on the left.

    Each row of attention_mask is some padding (0s) followed by at least one
    real token (1s). A real token's id is the number of real tokens before
    it in its row, so every row's first real token gets 0 however much
    padding precedes it. A padding slot gets 0 (transformers 5.24 writes 0
    there; the slot is masked anyway).

    Args:
        attention_mask: (batch, seq) integer array of 0s and 1s.

    Returns:
        (batch, seq) integer array.
    """


def padded_attention_mask(attention_mask: np.ndarray) -> np.ndarray:
    """Which keys each query may read in a batch padded on the left.

    mask[b, i, j] is True where query i of row b may read key j: key j is a
    real token of row b (attention_mask[b, j] == 1) and j <= i. A padding
    query reads only itself: its output is thrown away, but a query with
    nothing to read would divide 0 by 0.

    Args:
        attention_mask: (batch, seq) integer array of 0s and 1s, as in
            position_ids_from_mask.

    Returns:
        (batch, seq, seq) boolean array.
    """


def packed_position_ids(lengths) -> np.ndarray:
    """The ids of documents packed one after another into a single row.

    Each document's ids restart at 0: lengths [3, 2, 4] give
    [0, 1, 2, 0, 1, 0, 1, 2, 3].

    Args:
        lengths: a list (or 1-D array) of positive integers, one per document.

    Returns:
        (sum(lengths),) integer array.
    """


def packed_attention_mask(position_ids: np.ndarray) -> np.ndarray:
    """The attention cut of a packed row, read from its ids.

    A new document starts wherever an id is not the id before it plus
    one: where the ids restart at 0, and also where they jump or restart
    elsewhere ([5, 6, 7, 0, 1, 2] is two documents, the end of a longer
    one and a new one; so is [0, 1, 2, 7, 8]). mask[i, j] is True where
    query i may read key j: both are in the same document and j <= i.

    Args:
        position_ids: (n,) integer array, as packed_position_ids returns
            it, or with documents that do not start at 0.

    Returns:
        (n, n) boolean array.
    """
