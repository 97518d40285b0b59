"""Retrieval past the trained length: key-value needles in a long text, asked for after one prefill.

Next-token loss averages over tokens that mostly need nearby context, so it cannot say whether a
method lets the model *find* a fact far back. This probe asks that directly, in the style of RULER's
multi-key needle task (Hsieh et al., arXiv:2404.06654, section 3, "NIAH"): sentences binding a word to
a 6-digit number are placed every `NEEDLE_EVERY` tokens in one of the study's texts, the whole
32,768-token sequence is read once per method (the prefill), and each needle is then asked for after
the first L tokens, for L = 8,192, 16,384 and 32,768: the question and the answer's digits are run
against the cached keys and values of those L tokens (a causal model's keys and values at positions
0..L-1 do not depend on what comes after them, and every method here except dynamic NTK gives each
position the same speeds at any length).

Two scores per needle: the log-likelihood of its 6 digits given the question (nats; the values are
100000..999999, so a uniform guess over them pays ln 900,000 = 13.71) and greedy exact match (every digit is the model's top
choice after the right digits before it: what greedy decoding would write).

The forward pass is `experiments.real_model.torch_forward`'s blocks (`project`, `close_block`), split in two: `prefill` keeps each
layer's rotated keys and values, `extend` runs new tokens against a prefix of them. A test checks that
the two together give `forward`'s logits on the whole sequence.
"""

from __future__ import annotations

import re

import numpy as np
import torch

from experiments.real_model.torch_forward import close_block, inputs, project, rms_norm, rope_table

NEEDLE_EVERY = 2048      # a needle starts at the first line break at or after 2,048 k + NEEDLE_AT
NEEDLE_AT = 1024
QUERY_ROOM = 64          # a question starts at position L - QUERY_ROOM; question and answer fit in it
DIGITS = 6
SEED = 38                # the values' generator
# RULER's templates (its `synthetic.yaml`, niah), raw text: no chat template, as the rest of the study
NEEDLE = "One of the special magic numbers for {key} is: {value}."
QUESTION = ("What is the special magic number for {key}? One of the special magic numbers for {key} is: {value}")
# the keys: 32 distinct common words, one per needle
KEYS = ("apple", "river", "candle", "violin", "harbor", "pepper", "falcon", "marble", "lantern", "meadow",
        "copper", "tiger", "bridge", "orchid", "saddle", "glacier", "pillow", "comet", "thistle", "anchor",
        "walnut", "compass", "velvet", "beacon", "cactus", "ribbon", "summit", "quartz", "kettle", "dolphin",
        "timber", "saffron")


def needle_values(count: int, seed: int = SEED) -> list[str]:
    """`count` distinct 6-digit numbers as strings (100000..999999), from a seeded generator."""
    rng = np.random.default_rng(seed)
    values = rng.choice(np.arange(10 ** (DIGITS - 1), 10 ** DIGITS), size=count, replace=False)
    return [str(int(v)) for v in values]


def insert_needles(text_tokens: list[int], length: int, encode, newline_ids: set[int]) -> tuple[list[int], list[dict]]:
    """The text with a needle starting at the first line break at or after NEEDLE_EVERY·k + NEEDLE_AT,
    for every k whose needle fits, cut to `length` tokens.

    Args:
        text_tokens: the text's token ids, longer than `length`.
        length: tokens wanted (a multiple of NEEDLE_EVERY).
        encode: str -> token ids (the study's tokenizer).
        newline_ids: the ids of tokens that end in a line break (a needle goes after one).

    Returns:
        (tokens (length,), needles): each needle {"key", "value", "start", "end"}, the token span
        [start, end) it occupies.
    """
    count = length // NEEDLE_EVERY
    if len(KEYS) < count:
        raise ValueError(f"{count} needles asked for, {len(KEYS)} keys")
    values = needle_values(count)
    out: list[int] = []
    needles = []
    source = iter(text_tokens)
    for k, (key, value) in enumerate(zip(KEYS, values, strict=False)):
        target = k * NEEDLE_EVERY + NEEDLE_AT
        while len(out) < target or out[-1] not in newline_ids:
            out.append(next(source))
        ids = encode(NEEDLE.format(key=key, value=value) + "\n")
        needles.append(dict(key=key, value=value, start=len(out), end=len(out) + len(ids)))
        out += ids
    while len(out) < length:
        out.append(next(source))
    return out[:length], needles


def question_tokens(key: str, value: str, encode) -> tuple[list[int], int]:
    """The question with its answer, and where the answer's digits start: (ids, first digit index).
    The digits are the last DIGITS ids (the tokenizer cuts every digit apart)."""
    ids = encode("\n" + QUESTION.format(key=key, value=value))
    if len(ids) > QUERY_ROOM:
        raise ValueError(f"the question for {key!r} is {len(ids)} tokens, more than QUERY_ROOM")
    return ids, len(ids) - DIGITS


@torch.inference_mode()
def prefill(tensors: dict, config: dict, tokens, cos: np.ndarray, sin: np.ndarray) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Every layer's rotated keys and values over a window (the KV cache), interleaved rows (the GGUF's).

    Args:
        tensors, config: as `torch_forward.forward`; tokens: (seq,) ids.
        cos, sin: (seq, d_head/2) float32, from `torch_forward.rope_table` (attention factor included).

    Returns:
        per layer (keys, values), each (n_kv_heads, seq, d_head) float32.
    """
    return _run(tensors, config, tokens, cos, sin, cache=None, keep=True)[1]


@torch.inference_mode()
def extend(tensors: dict, config: dict, cache, length: int, tokens, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Logits of new tokens read after the first `length` positions of a cache.

    Args:
        cache: `prefill`'s output over at least `length` positions.
        length: how many cached positions the new tokens see (positions 0..length-1).
        tokens: (n,) new ids, at positions length..length+n-1.
        cos, sin: (n, d_head/2) for those positions.

    Returns:
        (n, vocab) float32: row i scores the token after tokens[i].
    """
    prefix = [(k[:, :length], v[:, :length]) for k, v in cache]
    return _run(tensors, config, tokens, cos, sin, cache=prefix, keep=False)[0].numpy()


def _run(tensors, config, tokens, cos, sin, cache, keep):
    """The Llama pass of `torch_forward.forward` with a cache: new tokens attend to every cached position
    and causally to each other. Returns (logits of the new tokens, or None when keep; the new keys and
    values per layer when keep)."""
    w, ids, c, s = inputs(tensors, config, tokens, cos, sin)
    n, n_heads, n_kv = len(ids), config["n_heads"], config["n_kv_heads"]
    past = 0 if cache is None else cache[0][0].shape[1]
    # new token i sees every cached position and new tokens 0..i
    mask = None if cache is None else torch.ones(n, past + n, dtype=torch.bool).tril(diagonal=past)
    kept = []
    x = w["token_embd.weight"][ids]
    for i in range(config["n_layers"]):
        b = {name.split(".")[2]: t for name, t in w.items() if name.startswith(f"blk.{i}.")}
        q, k, v = project(x, b, c, s, config, "interleaved")
        if keep:
            kept.append((k.contiguous(), v.contiguous()))
        if cache is not None:
            k, v = torch.cat((cache[i][0], k), dim=1), torch.cat((cache[i][1], v), dim=1)
        k, v = (t.repeat_interleave(n_heads // n_kv, dim=0) for t in (k, v))
        out = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], attn_mask=mask,
                                                               is_causal=cache is None)[0]
        x = close_block(x, out, b, config)
    if keep:
        return None, kept
    head = w["token_embd.weight"] if config["tied"] else w["output.weight"]
    return rms_norm(x, w["output_norm.weight"], config["rms_eps"]) @ head.T, None


def score_answer(logits: np.ndarray, ids: list[int], first: int) -> dict:
    """The answer's log-likelihood and greedy exact match.

    Args:
        logits: (n, vocab) from `extend` over the question's ids.
        ids: the question's ids (answer digits last); first: the index of the first digit.

    Returns:
        {"nll": nats of the digits, summed; "exact": every digit the top choice; "digits_right": how many}.
    """
    rows = np.asarray(logits[first - 1:len(ids) - 1], dtype=np.float64)  # row t scores ids[t + 1]
    target = np.asarray(ids[first:])
    top = rows.max(axis=1, keepdims=True)
    lse = np.log(np.exp(rows - top).sum(axis=1)) + top[:, 0]
    right = rows.argmax(axis=1) == target
    return dict(nll=round(float((lse - rows[np.arange(len(target)), target]).sum()), 4),
                exact=bool(right.all()), digits_right=int(right.sum()))


def newline_ids(tokenizer: dict, indented: bool = False) -> set[int]:
    """The ids of the tokens after which a line starts: those that end in a line break ("Ċ" in the byte-level
    alphabet) and, with `indented`, also a line break followed by the next line's indentation ("ĊĠĠĠ"): in
    indented code most line breaks are merged with the spaces after them (206 of the first 32,768 tokens of
    _pydecimal.py end in one), so the needle goes after the indentation. For prose the two rules would
    place needles differently, so prose keeps the first."""
    return {i for i, token in enumerate(tokenizer["tokens"])
            if token.endswith("Ċ") or (indented and re.fullmatch("Ċ+Ġ+", token))}


def ask(model, cache, length: int, needle: dict, inv_freq, factor: float, encode, offset: int = 0) -> dict:
    """One needle asked for after the first `length` cached positions: its question (with the answer's
    digits) run from position `length` + `offset`, scored by `score_answer`.

    `offset` is the position of cache row 0 (0 unless the cache holds a window cut from later in the text:
    the questions then follow the window's own positions)."""
    ids, first = question_tokens(needle["key"], needle["value"], encode)
    cos, sin = rope_table(np.arange(length, length + len(ids)) - offset, inv_freq, factor)
    return score_answer(extend(model.tensors, model.config, cache, length - offset, ids, cos, sin), ids, first)


def measure_retrieval(model, text_tokens: list[int], encode, inv_freq, factor: float, lengths, window=None,
                      indented: bool = False, rivals: bool = False) -> dict:
    """The probe on one text with one method's speeds: every needle that ends before the question, at each length.

    Args:
        model: `GGUFModel`; text_tokens: the text's ids (longer than max(lengths)); encode: str -> ids.
        inv_freq, factor: the method's shared speeds (pairs,) and attention factor (`study.speeds`).
        lengths: the context lengths L read from one prefill of max(lengths) tokens.
        window: None (the full context), or a number of tokens: for each L the model reads only the last
            `window` - QUERY_ROOM tokens before the question, from position 0 (the context cut).
        indented: the text is indented code (`newline_ids`).
        rivals: also score each question's answer with every other asked needle's number in its place
            (a row's "rival_nll", in the order of the needles): does the model find the number by its key,
            or copy some planted number?

    Returns:
        {"needles": [{"key", "value", "start", "end"}], "rows": [{"length", "key", "distance", "nll", "exact",
        "digits_right"}]}: distance is tokens from the needle's first token to the question's first.
    """
    longest = max(lengths)
    tokens, needles = insert_needles(text_tokens, longest, encode, newline_ids(model.tokenizer, indented))
    rows = []

    def read(length, cache, offset):
        asked = [needle for needle in needles if needle["end"] <= length - QUERY_ROOM]
        for needle in asked:
            score = ask(model, cache, length - QUERY_ROOM, needle, inv_freq, factor, encode, offset)
            if rivals:
                score["rival_nll"] = [ask(model, cache, length - QUERY_ROOM, dict(needle, value=other["value"]),
                                          inv_freq, factor, encode, offset)["nll"]
                                      for other in asked if other is not needle]
            rows.append(dict(length=length, key=needle["key"], distance=length - QUERY_ROOM - needle["start"],
                             **score))

    if window is None:
        cos, sin = rope_table(np.arange(longest - QUERY_ROOM), inv_freq, factor)
        cache = prefill(model.tensors, model.config, tokens[:longest - QUERY_ROOM], cos, sin)
        for length in lengths:
            read(length, cache, 0)
    else:
        for length in lengths:
            start = max(0, length - window)
            span = tokens[start:length - QUERY_ROOM]
            cos, sin = rope_table(np.arange(len(span)), inv_freq, factor)
            read(length, prefill(model.tensors, model.config, span, cos, sin), start)
    return dict(needles=needles, rows=rows)
