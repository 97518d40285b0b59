"""Training and evaluation loops for the tiny decoders (CPU, one thread, seeded).

`train` minimises the cross-entropy of the scored tokens of freshly drawn
copy prompts (`experiments.tasks.copy_batch`); `evaluate` measures the
exact-match accuracy of those tokens on a fixed set of prompts, the same
prompts for every model, so two configurations are compared on identical data.
"""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

from experiments.tasks import NO_ANSWER, copy_batch

EVAL_SEED = 12345  # the evaluation prompts' seed: fixed, independent of the training seed
VALIDATION_SEED = 54321  # the prompts that decide when training stops: never the evaluation ones


def train(model: torch.nn.Module, length: int, steps: int, batch: int, lr: float, generator: torch.Generator,
          warmup: int = 100, on_step=None, stop=None, check_every: int = 500) -> list[float]:
    """Train `model` in place on up to `steps` batches of copy prompts of `length` tokens.

    AdamW (no weight decay), the learning rate warmed up linearly over `warmup`
    steps then decayed on a cosine to a tenth, gradients clipped to norm 1: the
    usual recipe, chosen for being stable at this size, not tuned per scheme.

    Args:
        model: maps tokens (batch, length) to logits (batch, length, vocab).
        length: tokens per prompt.
        steps, batch, lr, warmup: the schedule.
        generator: the source of training prompts (seeded by the caller).
        on_step: None or a function (model, length) called before every step
            (a fine-tune with dynamic RoPE sets its speeds there; unused otherwise).
        stop: None or a function (model) -> bool asked every `check_every` steps:
            True ends training there (the task is learned). Every scheme gets the
            same cap, `steps`; a scheme that learns sooner stops sooner.

    Returns:
        the loss of every step, a list of `steps` floats.
    """
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)

    def rate(step):  # multiplier of lr at `step`
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / max(1, steps - warmup)
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress))

    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, rate)
    model.train()
    losses = []
    for _ in range(steps):
        if on_step is not None:
            on_step(model, length)
        tokens, targets = copy_batch(batch, length, generator)
        logits = model(tokens)  # (batch, length, vocab)
        loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=NO_ANSWER)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if stop is not None and len(losses) % check_every == 0 and len(losses) < steps:
            learned = stop(model)
            model.train()
            if learned:
                break
    return losses


@torch.no_grad()
def evaluate(model: torch.nn.Module, length: int, n_prompts: int, needle: str | None = None,
             batch: int = 64, seed: int = EVAL_SEED) -> float:
    """Exact-match accuracy of the scored tokens of `n_prompts` fixed prompts of `length` tokens.

    The prompts depend only on EVAL_SEED, the length and the needle: every
    model and every seed meets the same ones.

    Returns:
        the fraction of scored tokens whose argmax is the right token, a float in [0, 1].
    """
    which = {None: 0, "start": 1, "middle": 2, "end": 3}[needle]
    generator = torch.Generator().manual_seed(seed + 10 * length + which)
    model.eval()
    right = total = 0
    for first in range(0, n_prompts, batch):
        tokens, targets = copy_batch(min(batch, n_prompts - first), length, generator, needle)
        scored = targets != NO_ANSWER
        predicted = model(tokens).argmax(dim=-1)  # (batch, length)
        right += int((predicted[scored] == targets[scored]).sum())
        total += int(scored.sum())
    return right / total
