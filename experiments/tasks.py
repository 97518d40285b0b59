"""A synthetic task with exact answers that needs order, laid out so that role and absolute position come apart.

A prompt of T tokens is

    BOS  filler₁  passage (a distinct tokens)  filler₂  copy (b = 8 tokens of the passage, from place s)

From the copy's second token on, every next token is exact: it is the token
that followed the current one in the passage. The model is scored at those
b − 1 = 7 places (exact match, and the answer's negative log-likelihood). A
bag of tokens cannot do it: the answer is "the token one place after the
earlier occurrence of this one", and only order says which that is.

What the layout is for (each a flaw of the earlier, fixed layout):

- **BOS** (token 0) opens every prompt. A model without positions can count
  from it (the NoPE construction of `lessons.alibi` needs a first token to
  attend to), and every scheme gets the same anchor.
- **Filler** tokens come from their own small alphabet (FILLER ids), never
  from the passage's. In training, the F = T − 1 − a − b filler tokens are
  split at random between before the passage and between passage and copy,
  and the passage length a is random: the passage can start anywhere, so a
  token's role (passage, filler) no longer says where it sits. (With no
  filler, a learned table could tie "passage" to rows 0..23.)
- **The retrieval grid.** An evaluation prompt fixes the three things the
  earlier needle view tied together: the total length T, the number of
  passage tokens a (the distractors the copy must search), and the distance
  d from the copied stretch's first token to the copy's first token. `near`
  puts all filler first and copies the passage's last b tokens (d = b, so the
  fact is 8 tokens back whatever T is: only absolute positions grow); `far`
  puts all filler between passage and copy and copies its first b tokens
  (d = T − 1 − b: the fact is as far back as the prompt allows).
- **The distance grid.** At a fixed length, near and far move the fact but
  not the question, so they cannot say whether a scheme fails by where the
  fact sits or by how far back it is. `gap` cells (passage b, the copied
  stretch alone) put the fact exactly d tokens back, for d in DISTANCES,
  with the copy at the end as always: with near (d = b) and far
  (d = T − 1 − b) they give every (T, d) with d in 8, 23, 55, 119, 247. Along
  a row of fixed d the question moves with T and the distance stays; along
  a column of fixed T the distance changes and the question stays.

Token ids: 0 is BOS, 1..N_FILLER are filler, the rest are passage tokens, all
interchangeable.
"""

from __future__ import annotations

import torch

BOS = 0
N_FILLER = 16                # filler alphabet: ids 1..16
COPY = 8                     # b: tokens copied (7 scored places per prompt)
VOCAB_SIZE = 272             # 1 + 16 filler + 255 passage ids (the longest passage, at 8L = 256, is 247)
FIRST_CONTENT = 1 + N_FILLER
NO_ANSWER = -100             # the target where nothing is scored (torch's cross_entropy ignore_index)
PLACEMENTS = ("near", "far")  # the retrieval grid's two distances (see the module docstring)
GRID_PASSAGES = (8, 23)      # the grid's passage sizes: the copied stretch alone, and the most that fits at L = 32
DISTANCES = (23, 55, 119)    # the gap cells' distances: far's distance at L, 2L and 4L, asked at every longer length


def check_length(length: int) -> None:
    """A prompt length the task supports: at least 1 + 2b (BOS, a passage of b, a copy) and a passage that fits."""
    if not 1 + 2 * COPY <= length or length - 1 - COPY > VOCAB_SIZE - FIRST_CONTENT:
        raise ValueError(f"length must be {1 + 2 * COPY}..{VOCAB_SIZE - FIRST_CONTENT + 1 + COPY}; got {length}")


def _assemble(passage: torch.Tensor, sizes: torch.Tensor, start: torch.Tensor, before: torch.Tensor,
              length: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Lay out prompts: BOS, `before` filler, the first `sizes` tokens of `passage`, filler, then the copy.

    Args:
        passage: (batch, ≥ max a) distinct passage ids per row.
        sizes: (batch,) a per row; start: (batch,) s per row (0 ≤ s ≤ a − b);
        before: (batch,) filler tokens before the passage (the rest of the filler goes after it).
        length: T.

    Returns:
        (tokens, targets), each (batch, T) int64; targets hold the next token at the 7 scored places.
    """
    batch = passage.shape[0]
    place = torch.arange(length)[None, :]  # (1, T)
    tokens = torch.randint(1, 1 + N_FILLER, (batch, length), generator=generator)  # filler everywhere first
    tokens[:, 0] = BOS
    first = 1 + before[:, None]  # (batch, 1): where the passage starts
    in_passage = (place >= first) & (place < first + sizes[:, None])
    index = (place - first).clamp(min=0, max=passage.shape[1] - 1)
    tokens = torch.where(in_passage, passage.gather(1, index), tokens)
    copy_at = length - COPY
    copied = passage.gather(1, start[:, None] + torch.arange(COPY)[None, :])  # (batch, b)
    tokens[:, copy_at:] = copied
    targets = torch.full((batch, length), NO_ANSWER, dtype=torch.long)
    # scored: the copy's places T−b .. T−2, each predicting the token after it (its first token is a guess)
    targets[:, copy_at:length - 1] = tokens[:, copy_at + 1:]
    return tokens, targets


def copy_batch(batch: int, length: int, generator: torch.Generator, placement: str | None = None,
               passage: int | None = None, distance: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """A batch of copy prompts of `length` tokens and their targets.

    Args:
        batch: number of prompts.
        length: T (see `check_length`).
        generator: the seeded source of randomness (the same state gives the same batch).
        placement: None for the training distribution (a uniform in b..T−1−b, the filler split
            uniformly between before and after the passage, s uniform), or one of PLACEMENTS for
            a retrieval-grid cell, with `passage` = a, or "gap" for a distance-grid cell.
        passage: a, for a grid cell (one of GRID_PASSAGES, or any b ≤ a ≤ T − 1 − b).
        distance: d, for a "gap" cell (passage b copied whole, b ≤ d ≤ T − 1 − b).

    Returns:
        (tokens, targets): tokens (batch, T) int64; targets (batch, T) int64: at each scored
        place the next token, NO_ANSWER elsewhere.
    """
    check_length(length)
    room = length - 1 - COPY  # passage + filler
    ids = torch.rand(batch, VOCAB_SIZE - FIRST_CONTENT, generator=generator).argsort(dim=1) + FIRST_CONTENT
    if placement is None:
        sizes = torch.randint(COPY, room + 1, (batch,), generator=generator)
        start = (torch.rand(batch, generator=generator) * (sizes - COPY + 1)).long()
        before = (torch.rand(batch, generator=generator) * (room - sizes + 1)).long()
    elif placement == "gap":
        if distance is None or not COPY <= distance <= room:
            raise ValueError(f"a gap cell needs {COPY} <= distance <= {room}; got {distance!r}")
        sizes, start = torch.full((batch,), COPY), torch.zeros(batch, dtype=torch.long)
        before = torch.full((batch,), room - distance)  # the fact starts T − 1 − b − d tokens after BOS
    else:
        if placement not in PLACEMENTS or passage is None or not COPY <= passage <= room:
            raise ValueError(f"a grid cell needs placement in {PLACEMENTS} and {COPY} <= passage <= {room}; "
                             f"got {placement!r}, {passage!r}")
        sizes = torch.full((batch,), passage)
        near = placement == "near"
        start = torch.full((batch,), passage - COPY if near else 0)
        before = torch.full((batch,), room - passage if near else 0)
    return _assemble(ids, sizes, start, before, length, generator)


def fact_distance(tokens: torch.Tensor) -> torch.Tensor:
    """d per prompt: how far the copy's first token lies after its earlier occurrence; (batch, T) -> (batch,).

    The distance a head must look back to find the fact (the retrieval grid sets it; training spreads it).
    """
    copy_at = tokens.shape[1] - COPY
    same = tokens[:, :copy_at] == tokens[:, copy_at:copy_at + 1]  # (batch, copy_at)
    return copy_at - same.float().argmax(dim=1)
