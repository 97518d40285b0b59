"""A synthetic task with exact answers that needs position: copying a passage seen earlier.

A prompt of T tokens is a passage of a = 3T/4 distinct random tokens, then a
copy of b = T/4 consecutive tokens of it, starting at a random place s:

    x1 x2 ... xa   x(s+1) x(s+2) ... x(s+b)

From the copy's second token on, every next token is exact: it is the token
that followed the current one in the passage. The model is scored at each of
those b − 1 places (exact match of the next token). A bag of tokens cannot
do it: the answer is "the token one place after the earlier occurrence of this
one", and only order says which token that is. Because s is random, no fixed
offset works either (a copy that always started at the beginning could be
solved by looking a fixed distance back, which says nothing about length).

This is associative recall with the passage as its own list of pairs (each
token is the key, the next one its value), the induction-head task of
Olsson et al. (2022). The passage grows with T, so the number of facts to
search scales with the prompt length.

The needle view places the copied stretch at the start of the passage
(s = 0), in the middle (s = (a − b) / 2) or at the end (s = a − b): the fact
is then near the beginning of the prompt, mid-way, or right before the copy.

Token ids: 0..VOCAB_SIZE-1, all interchangeable.
"""

from __future__ import annotations

import torch

VOCAB_SIZE = 256  # distinct tokens available: at least the passage of the longest prompt (3/4 of 8L = 256 -> 192)
NO_ANSWER = -100  # the target where nothing is scored (torch's cross_entropy ignore_index)
NEEDLES = ("start", "middle", "end")


def passage_and_copy(length: int) -> tuple[int, int]:
    """(a, b): passage and copy lengths of a prompt of `length` tokens (a multiple of 4, 8..4·VOCAB_SIZE/3)."""
    if length % 4 or not 8 <= length or 3 * length // 4 > VOCAB_SIZE:
        raise ValueError(f"length must be a multiple of 4, at least 8, with 3/4 of it <= {VOCAB_SIZE}; got {length}")
    return 3 * length // 4, length // 4


def copy_batch(batch: int, length: int, generator: torch.Generator, needle: str | None = None):
    """A batch of copy prompts and their targets.

    Args:
        batch: number of prompts.
        length: tokens per prompt, T: a passage of 3T/4 tokens, then a copy of T/4.
        generator: the seeded source of randomness (the same state gives the same batch).
        needle: None (the copy starts anywhere in the passage, uniformly) or one of NEEDLES.

    Returns:
        (tokens, targets): tokens (batch, length) int64; targets (batch, length)
        int64: at each scored place, the next token; NO_ANSWER elsewhere.
    """
    a, b = passage_and_copy(length)
    # distinct tokens per passage: the first a of a random permutation of the vocabulary
    passage = torch.rand(batch, VOCAB_SIZE, generator=generator).argsort(dim=1)[:, :a]  # (batch, a)
    if needle is None:
        start = torch.randint(0, a - b + 1, (batch, 1), generator=generator)  # (batch, 1)
    else:
        start = torch.full((batch, 1), {"start": 0, "middle": (a - b) // 2, "end": a - b}[needle])
    copy = passage.gather(1, start + torch.arange(b)[None, :])  # (batch, b)
    tokens = torch.cat([passage, copy], dim=1)  # (batch, length)
    targets = torch.full((batch, length), NO_ANSWER, dtype=torch.long)
    # scored: the copy's places a .. T-2, each predicting the token after it (the copy's first
    # token is a guess, so the place before it, a − 1, is not scored)
    targets[:, a:length - 1] = tokens[:, a + 1:]
    return tokens, targets
