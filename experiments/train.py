"""Training and evaluation loops for the tiny decoders (CPU, one thread, seeded).

`train` minimises the cross-entropy of the scored tokens of freshly drawn
copy prompts (`experiments.tasks.copy_batch`) for a fixed number of steps,
the same for every scheme, and records when the task was learned; `evaluate`
measures a model on a fixed set of prompts, the same prompts for every model,
so two configurations are compared on identical data.
"""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

from experiments.tasks import COPY, DISTANCES, GRID_PASSAGES, NO_ANSWER, PLACEMENTS, copy_batch, fact_distance

EVAL_SEED = 12345  # the evaluation prompts' seed: fixed, independent of the training seed
VALIDATION_SEED = 54321  # the prompts that say when the task was learned: never the evaluation ones


def random_positions(batch: int, length: int, max_position: int, generator: torch.Generator) -> torch.Tensor:
    """Randomized positions (Ruoss et al. 2023): per prompt, a sorted random subset of 0..max_position−1.

    Returns:
        (batch, length) int64, strictly increasing along each row.
    """
    return torch.rand(batch, max_position, generator=generator).argsort(dim=1)[:, :length].sort(dim=1).values


def train(model: torch.nn.Module, length: int, steps: int, batch: int, lr: float, generator: torch.Generator,
          warmup: int = 100, on_step=None, check=None, check_every: int = 250,
          positions: tuple[int, torch.Generator] | None = None,
          switch: tuple[int, int, int] | None = None) -> tuple[list[float], list[tuple[int, float]]]:
    """Train `model` in place on `steps` batches of copy prompts of `length` tokens.

    AdamW (no weight decay), the learning rate warmed up linearly over `warmup`
    steps then decayed on a cosine to a tenth, gradients clipped to norm 1: the
    usual recipe, chosen for being stable at this size, not tuned per scheme.
    Every scheme trains for the same `steps` (no early stop: equal budgets).

    Args:
        model: maps tokens (batch, length) to logits (batch, length, vocab).
        length: tokens per prompt.
        steps, batch, lr, warmup: the schedule.
        generator: the source of training prompts (seeded by the caller).
        on_step: None or a function (model, length) called before every step
            (a fine-tune with dynamic RoPE sets its speeds there; unused otherwise).
        check: None or a function (model) -> float (validation accuracy) called every
            `check_every` steps and after the last; its values are returned.
        positions: None (positions 0..length−1), or (max_position, generator) for
            randomized positions drawn from 0..max_position−1 (`random_positions`).
        switch: None, or (step, length, batch): from that step on, prompts of the new length
            in batches of the new size, with the same optimizer and one schedule throughout
            (the oracle's curriculum).

    Returns:
        (losses, checks): the loss of every step, and [(step, check value)].
    """
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)

    def rate(step):  # multiplier of lr at `step`
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / max(1, steps - warmup)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress))

    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, rate)
    model.train()
    losses, checks = [], []
    for step in range(1, steps + 1):
        if on_step is not None:
            on_step(model, length)
        if switch is not None and step == switch[0]:
            length, batch = switch[1], switch[2]
        tokens, targets = copy_batch(batch, length, generator)
        where = None if positions is None else random_positions(batch, length, positions[0], positions[1])
        logits = model(tokens, where)  # (batch, length, vocab)
        loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=NO_ANSWER)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if check is not None and (step % check_every == 0 or step == steps):
            checks.append((step, float(check(model))))
            model.train()
    return losses, checks


def learned_step(checks: list[tuple[int, float]], criterion: float) -> int | None:
    """The first checked step whose validation accuracy reached `criterion`, or None if none did."""
    return next((step for step, value in checks if value >= criterion), None)


POSITION_STREAM = 7919  # randomized evaluation positions come from seed + this: never the prompts' own stream


def _prompt_seed(seed: int, length: int, placement: str | None, passage: int | None,
                 distance: int | None = None) -> int:
    """The evaluation prompts' seed for one length and grid cell (every model meets the same prompts)."""
    if placement == "gap":
        cell = 1 + len(PLACEMENTS) * len(GRID_PASSAGES) + DISTANCES.index(distance)
    else:
        cell = 0 if placement is None else 1 + PLACEMENTS.index(placement) * len(GRID_PASSAGES) + \
            GRID_PASSAGES.index(passage)
    return seed + 10 * length + cell


def key_weight(record: list, tokens: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """Attention on the key that holds the answer, summed over the scored rows.

    At copy row t (the current token sat d places back in the passage), the
    answer is the token after that earlier occurrence: key t − d + 1. An
    induction head puts its weight there.

    Args:
        record: per layer (scores, weights), weights (batch, heads, COPY, T) (see `Block.attention`).
        tokens: (batch, T) the prompts.
        keep: (batch, COPY) the scored rows.

    Returns:
        (layers, heads): the weight on the answer's key, summed over scored rows and prompts.
    """
    length = tokens.shape[1]
    rows = torch.arange(length - COPY, length)  # (COPY,) the copy's positions
    answer_key = (rows[None, :] - fact_distance(tokens)[:, None] + 1).clamp(0, length - 1)  # (batch, COPY)
    out = []
    for _, weights in record:  # (batch, heads, COPY, T)
        index = answer_key[:, None, :, None].expand(-1, weights.shape[1], -1, 1)
        on_key = weights.gather(-1, index)[..., 0]  # (batch, heads, COPY)
        out.append((on_key * keep[:, None, :].float()).sum(dim=(0, 2)))
    return torch.stack(out)


@torch.no_grad()
def evaluate(model: torch.nn.Module, length: int, n_prompts: int, placement: str | None = None,
             passage: int | None = None, batch: int = 64, seed: int = EVAL_SEED,
             diagnostics: bool = False, distance: int | None = None, max_position: int | None = None) -> dict:
    """Score `n_prompts` fixed prompts of `length` tokens (a retrieval-grid cell if `placement` is given).

    The prompts depend only on `seed`, the length and the cell: every model and
    every seed meets the same ones. `distance` is a "gap" cell's d; `max_position`
    None scores at positions 0..T−1, a number at sorted random positions from
    0..max_position−1 drawn as in training (`random_positions`, seeded by the cell).

    Returns:
        {"accuracy": share of scored tokens whose argmax is right, in [0, 1];
         "nll": mean −ln p(right token) in nats (does not saturate at 0 or 1);
         "margin": mean of the right token's logit minus the largest other logit,
         "right": per prompt, how many of its 7 scored tokens were right, one digit each (a string)},
        and with `diagnostics`, for each layer a list over heads of
        "entropy" (mean attention entropy of the scored query rows, nats),
        "max_logit" (mean over prompts and scored rows of the largest pre-softmax score) and
        "key_weight" (mean attention on the key holding the answer, `key_weight`).
    """
    prompt_seed = _prompt_seed(seed, length, placement, passage, distance)
    generator = torch.Generator().manual_seed(prompt_seed)
    where_from = None if max_position is None else torch.Generator().manual_seed(prompt_seed + POSITION_STREAM)
    model.eval()
    right = total = 0
    nll = margin = 0.0
    entropy = max_logit = on_key = None
    rows = 0
    per_prompt = []
    for first in range(0, n_prompts, batch):
        tokens, targets = copy_batch(min(batch, n_prompts - first), length, generator, placement, passage, distance)
        where = None if where_from is None else random_positions(len(tokens), length, max_position, where_from)
        record = [] if diagnostics else None
        logits = model(tokens, where, record)  # (batch, length, vocab)
        scored = targets != NO_ANSWER
        hits = (logits.argmax(dim=-1) == targets) & scored  # (batch, length)
        per_prompt.extend(hits.sum(dim=1).tolist())
        picked, answers = logits[scored], targets[scored]  # (n, vocab), (n,)
        right += int(hits.sum())
        total += int(scored.sum())
        nll += float(F.cross_entropy(picked, answers, reduction="sum"))
        answer_logit = picked.gather(1, answers[:, None])[:, 0]
        others = picked.scatter(1, answers[:, None], float("-inf")).max(dim=-1).values
        margin += float((answer_logit - others).sum())
        if diagnostics:
            # the scored rows are the copy's last COPY rows but one: keep rows whose target is scored
            keep = scored[:, -record[0][0].shape[2]:]  # (batch, COPY)
            ent = torch.stack([-(w * w.clamp_min(1e-30).log()).sum(-1) for _, w in record])  # (layers, batch, heads, COPY)
            top = torch.stack([s.max(dim=-1).values for s, _ in record])  # (layers, batch, heads, COPY)
            mask = keep[None, :, None, :].float()
            ent, top = (ent * mask).sum(dim=(1, 3)), (top * mask).sum(dim=(1, 3))  # (layers, heads)
            entropy = ent if entropy is None else entropy + ent
            max_logit = top if max_logit is None else max_logit + top
            weight = key_weight(record, tokens, keep)
            on_key = weight if on_key is None else on_key + weight
            rows += int(keep.sum())
    out = {"accuracy": right / total, "nll": nll / total, "margin": margin / total,
           "right": "".join(str(n) for n in per_prompt)}
    if diagnostics:
        out["entropy"] = [[round(float(v), 4) for v in layer] for layer in entropy / rows]
        out["max_logit"] = [[round(float(v), 4) for v in layer] for layer in max_logit / rows]
        out["key_weight"] = [[round(float(v), 4) for v in layer] for layer in on_key / rows]
    return out
