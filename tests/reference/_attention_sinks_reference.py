"""Reference vectors for lessons.attention_sinks (gpt-oss's sink attention) and lessons.alibi (T5's buckets).

Run with the reference venv (torch + transformers), never the project venv:

    .venv-ref/bin/python -c "import sys; sys.path.insert(0, 'tests/reference'); \
import _attention_sinks_reference as r; r.write()"

write() makes tests/data/attention_sinks_vectors.json from transformers' OWN code:
- models/gpt_oss/modeling_gpt_oss.py eager_attention_forward, called with a real GptOssAttention module
  (a small GptOssConfig: 4 query heads, 2 key-value heads, head_dim 8) whose `sinks` are set to known
  logits, on seeded float32 q, k, v; the additive mask is built from masking_utils.py's own mask functions
  (causal_mask_function, and sliding_window_causal_mask_function for a window of 4);
- models/t5/modeling_t5.py T5Attention._relative_position_bucket on relative positions -300..300,
  bidirectional and causal, for (32 buckets, 128) and (16 buckets, 64).
live_check() recomputes them now and compares with the lessons (tests/reference/check_live.py calls it).
tests/test_attention_sinks.py compares the lessons with the committed file without torch.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "attention_sinks_vectors.json"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

N_HEADS, N_KV, HEAD_DIM, SEQ, WINDOW = 4, 2, 8, 10, 4
SINKS = [-1.0, 0.0, 1.5, 3.0]
BUCKETS = [(32, 128), (16, 64)]
RELATIVE = list(range(-300, 301))
ATOL = 1e-6  # float32 softmax and matmuls over 10 keys of width 8: about 1e-7 apart from float64


def versions() -> dict:
    import torch
    import transformers

    return {"transformers": transformers.__version__, "torch": torch.__version__}


def _inputs(seed: int) -> dict:
    """Seeded q (H, n, d), k and v (H_kv, n, d) as float32 numbers."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((N_HEADS, SEQ, HEAD_DIM)).astype(np.float32)
    k, v = rng.standard_normal((2, N_KV, SEQ, HEAD_DIM)).astype(np.float32)
    return {"q": q.tolist(), "k": k.tolist(), "v": v.tolist()}


def transformers_mask(kind: str):
    """Boolean (SEQ, SEQ) mask from transformers' own mask functions (masking_utils.py)."""
    import torch
    from transformers.masking_utils import causal_mask_function, sliding_window_causal_mask_function

    fn = causal_mask_function if kind == "causal" else sliding_window_causal_mask_function(WINDOW)
    q_idx, kv_idx = torch.arange(SEQ)[:, None], torch.arange(SEQ)[None, :]
    return fn(torch.tensor(0), torch.tensor(0), q_idx, kv_idx).expand(SEQ, SEQ)


def transformers_sink_attention(inputs: dict, kind: str) -> dict:
    """gpt-oss's eager_attention_forward on the inputs, with a GptOssAttention holding SINKS."""
    import torch
    from transformers import GptOssConfig
    from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention, eager_attention_forward

    config = GptOssConfig(hidden_size=N_HEADS * HEAD_DIM, num_attention_heads=N_HEADS, num_key_value_heads=N_KV,
                          head_dim=HEAD_DIM, num_hidden_layers=2, vocab_size=16, intermediate_size=16,
                          num_local_experts=2, num_experts_per_tok=1, sliding_window=WINDOW)
    module = GptOssAttention(config, layer_idx=0).eval()
    with torch.no_grad():
        module.sinks.copy_(torch.tensor(SINKS))
    q, k, v = (torch.tensor(inputs[key], dtype=torch.float32)[None] for key in ("q", "k", "v"))
    allowed = transformers_mask(kind)
    additive = torch.where(allowed, 0.0, torch.finfo(torch.float32).min)[None, None]  # (1, 1, n, n)
    with torch.no_grad():
        out, weights = eager_attention_forward(module, q, k, v, additive, scaling=module.scaling)
    return {"mask": allowed.tolist(), "scaling": float(module.scaling),
            "out": out[0].transpose(0, 1).tolist(),  # back to (H, n, d)
            "weights": weights[0].tolist()}


def transformers_t5_buckets(bidirectional: bool, num_buckets: int, max_distance: int) -> list[int]:
    import torch
    from transformers.models.t5.modeling_t5 import T5Attention

    rel = torch.tensor(RELATIVE)
    return T5Attention._relative_position_bucket(rel, bidirectional=bidirectional, num_buckets=num_buckets,
                                                 max_distance=max_distance).tolist()


def records() -> dict:
    sinks = []
    for seed, kind in ((0, "causal"), (1, "sliding_window")):
        inputs = _inputs(seed)
        sinks.append({"seed": seed, "mask_kind": kind, "window": WINDOW if kind != "causal" else None,
                      "sinks": SINKS, **inputs, **transformers_sink_attention(inputs, kind)})
    t5 = [{"bidirectional": b, "num_buckets": nb, "max_distance": md, "relative_position": RELATIVE,
           "bucket": transformers_t5_buckets(b, nb, md)} for nb, md in BUCKETS for b in (True, False)]
    return {"gpt_oss_sink_attention": sinks, "t5_relative_position_bucket": t5}


def write() -> None:
    out = {"about": "gpt-oss eager_attention_forward with learned sinks (causal and sliding-window masks from "
                    "masking_utils) and T5Attention._relative_position_bucket, computed by the transformers "
                    "library (float32), written by tests/reference/_attention_sinks_reference.py",
           "versions": versions(), **records()}
    lines = ["{", f' "about": {json.dumps(out["about"])},', f' "versions": {json.dumps(out["versions"])},']
    keys = ("gpt_oss_sink_attention", "t5_relative_position_bucket")
    for key in keys:
        rows = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in out[key])
        lines.append(f' "{key}": [\n{rows}\n ]' + ("," if key != keys[-1] else ""))
    lines.append("}")
    DATA.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: {len(out['gpt_oss_sink_attention'])} sink cases, "
          f"{len(out['t5_relative_position_bucket'])} T5 bucket tables, transformers {out['versions']['transformers']}")


def live_check() -> list[str]:
    """Failures (strings) comparing lessons.attention_sinks and lessons.alibi with the live library."""
    from lessons.alibi import t5_relative_bucket
    from lessons.attention_sinks import causal_window_mask, sink_attention

    failures = []
    for rec in records()["gpt_oss_sink_attention"]:
        mask = np.array(rec["mask"])
        if rec["window"] and not np.array_equal(mask, causal_window_mask(SEQ, rec["window"])):
            failures.append("sinks: causal_window_mask differs from transformers' sliding-window mask")
        out, weights = sink_attention(rec["q"], rec["k"], rec["v"], rec["sinks"], mask=mask, scaling=rec["scaling"])
        err = max(float(np.max(np.abs(out - np.array(rec["out"])))),
                  float(np.max(np.abs(weights - np.array(rec["weights"])))))
        print(f"{'ok  ' if err <= ATOL else 'FAIL'} sinks  gpt-oss eager, {rec['mask_kind']}: max abs error {err:.1e}")
        if err > ATOL:
            failures.append(f"sinks {rec['mask_kind']}")
    for rec in records()["t5_relative_position_bucket"]:
        got = t5_relative_bucket(rec["relative_position"], rec["bidirectional"], rec["num_buckets"],
                                 rec["max_distance"])
        wrong = int(np.sum(np.asarray(got) != np.asarray(rec["bucket"])))
        name = f"{'bidirectional' if rec['bidirectional'] else 'causal'} {rec['num_buckets']}/{rec['max_distance']}"
        print(f"{'ok  ' if not wrong else 'FAIL'} t5     buckets {name}: {wrong} of {len(got)} differ")
        if wrong:
            failures.append(f"t5 buckets {name}")
    return failures
