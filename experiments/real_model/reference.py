"""A compact record of a window's logits, to compare two forward passes without storing (seq, 49,152) floats.

Used on both sides of the check: `tests/reference/_real_model.py` summarises transformers' logits
into tests/data/real_model_reference.json, and tests/test_real_model.py compares the lessons'
forward pass with it (`summary_diff`). The logits of a causal model at position t depend only on
tokens 0..t, so a shorter window is compared on the positions it covers.
"""

from __future__ import annotations

import numpy as np

POSITIONS = (0, 15, 63, 127, 191, 255)  # the rows whose top logits are kept
TOP_K = 16


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def token_nll(logits: np.ndarray, tokens) -> np.ndarray:
    """Negative log-likelihood (nats) of each next token: (seq - 1,) from logits (seq, vocab) and tokens (seq,)."""
    log_p = _log_softmax(logits[:-1])
    return -log_p[np.arange(len(log_p)), np.asarray(tokens)[1:len(logits)]]


def logit_summary(logits: np.ndarray, tokens) -> dict:
    """What the reference keeps of logits (seq, vocab) for tokens (seq,): {"rows": {str(t): {"top_ids",
    "top_logits" (the TOP_K largest logits), "logsumexp"}} for each t of POSITIONS inside the window,
    "nll": every next token's negative log-likelihood (seq - 1 floats)}."""
    rows = {}
    for t in (p for p in POSITIONS if p < len(logits)):
        row = np.asarray(logits[t], dtype=np.float64)
        top = np.argsort(-row)[:TOP_K]
        rows[str(t)] = {"top_ids": top.tolist(), "top_logits": row[top].tolist(),
                        "logsumexp": float(row.max() + np.log(np.exp(row - row.max()).sum()))}
    return {"rows": rows, "nll": token_nll(logits, tokens).tolist()}


def summary_diff(logits: np.ndarray, tokens, record: dict) -> dict:
    """How far logits (n, vocab) for the first n tokens are from a `logit_summary` record of a window
    of at least n tokens: {"logits": the largest |difference| at the recorded rows' top ids and
    logsumexp, "nll": the largest |difference| of the next-token NLLs, "rows": rows compared}."""
    ours = logit_summary(logits, tokens)
    logit_err, rows = 0.0, 0
    for t, mine in ours["rows"].items():
        ref = record["rows"][t]
        row = np.asarray(logits[int(t)], dtype=np.float64)
        logit_err = max(logit_err, float(np.max(np.abs(row[ref["top_ids"]] - ref["top_logits"]))),
                        abs(mine["logsumexp"] - ref["logsumexp"]))
        rows += 1
    nll_err = float(np.max(np.abs(np.asarray(ours["nll"]) - record["nll"][:len(ours["nll"])])))
    return {"logits": logit_err, "nll": nll_err, "rows": rows}
