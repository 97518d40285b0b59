"""A learner's Challenge 08 answer with one mistake: a new document only where an id falls or repeats, so ids that jump up (0, 1, 2 then 7, 8) are read as one document."""

from __future__ import annotations

import numpy as np


def position_ids_from_mask(attention_mask: np.ndarray) -> np.ndarray:
    """(batch, seq) ids: real tokens counted from 0 in each row, padding 0."""
    mask = np.asarray(attention_mask)
    # how many real tokens so far, this one included, minus one
    ids = np.cumsum(mask, axis=-1) - 1
    # the padding slots before the first real token hold -1: write 0
    return np.where(mask == 1, ids, 0)


def padded_attention_mask(attention_mask: np.ndarray) -> np.ndarray:
    """(batch, seq, seq) bools: causal, no padding key, a padding query
    reads itself."""
    real = np.asarray(attention_mask) == 1  # (batch, seq)
    seq = real.shape[-1]
    causal = np.tril(np.ones((seq, seq), dtype=bool))
    itself = np.eye(seq, dtype=bool)
    # key j is readable if it is real (or the query itself), and not later
    return causal & (real[:, None, :] | itself)


def packed_position_ids(lengths) -> np.ndarray:
    """(sum(lengths),) ids restarting at 0 at every document."""
    lengths = np.asarray(lengths)
    starts = np.cumsum(lengths) - lengths  # where each document begins
    # each slot's index minus the start of its own document
    return np.arange(lengths.sum()) - np.repeat(starts, lengths)


def packed_attention_mask(position_ids: np.ndarray) -> np.ndarray:
    """(n, n) bools: causal inside each document, nothing across."""
    ids = np.asarray(position_ids)
    n = ids.size
    # a document starts where the ids stop growing
    starts = np.ones(n, dtype=bool)
    starts[1:] = ids[1:] <= ids[:-1]
    document = np.cumsum(starts)  # (n,) the document of each token
    same = document[:, None] == document[None, :]
    return np.tril(np.ones((n, n), dtype=bool)) & same
