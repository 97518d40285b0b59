"""Reference vectors for lessons.precision, from torch and transformers themselves.

Two kinds of record, written to tests/data/precision_vectors.json by `write()`:
- torch's own float32 -> bfloat16 conversion of a set of float32 values (ties to even, large
  positions, negatives, numbers near float32's largest), stored as the bits of each float32 in and out,
  against which `lessons.precision.bf16_round` is held bit for bit;
- transformers' LlamaRotaryEmbedding (models/llama/modeling_llama.py) run on a bfloat16 input at large
  positions, for the speeds of two real configs (Llama 3.1 8B's llama3 block, gpt-oss 20B's yarn
  block): the cos and sin it returns (cast to bfloat16 after float32 arithmetic), with the float32
  inv_freq and attention factor it used, so that the lesson's "bf16-table" pipeline is compared with
  the same speeds; and whether running the same forward inside torch.autocast (CPU, bfloat16)
  changes any bit.

`live_check()` recomputes both with the installed libraries and returns a list of failures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "precision_vectors.json"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# float32 values for the rounding check: exact integers, ties (257 = 256 + 1 is halfway between 256 and 258,
# 259 between 258 and 260), ties near 1 (1 + 2^-8, 1 + 3·2^-8), non-ties, large positions (131,071, one
# million, Llama 4 Scout's 10,485,759), negatives, tiny and huge numbers (the largest float32 rounds to inf).
ROUNDING_INPUTS = [0.0, -0.0, 1.0, 255.0, 256.0, 257.0, 258.0, 259.0, 260.0, 261.0, 511.0, 513.0, 1000.0, 1001.0,
                   1857.0, 4095.0, 4097.0, 32767.0, 99999.0, 100000.0, 126975.0, 131071.0, 131073.0, 1e6,
                   10485759.0, 16777215.0, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, 1 - 2**-9, 0.1, 1 / 3,
                   -257.0, -259.0, -1 - 2**-8, 3.0e-39, 1e-30, 3.3e38, 3.4028234e38, float(np.pi), 1.0471975]
# Positions for the rotary check: small, around bfloat16's 256, and large, to each model's claimed length.
POSITIONS = [0, 1, 255, 256, 257, 4095, 32767, 99999, 131071]
ROTARY_CONFIGS = [
    {"name": "Llama 3.1 8B (llama3, theta 500000)", "head_dim": 128, "max_position_embeddings": 131072,
     "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0,
                         "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}},
    {"name": "gpt-oss 20B (yarn, theta 150000)", "head_dim": 64, "max_position_embeddings": 131072,
     "rope_parameters": {"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0, "beta_fast": 32.0,
                         "beta_slow": 1.0, "original_max_position_embeddings": 4096, "truncate": False}},
]


def versions() -> dict:
    import torch
    import transformers

    return {"transformers": transformers.__version__, "torch": torch.__version__}


def torch_bf16_bits(values) -> list[int]:
    """torch's float32 -> bfloat16 -> float32 round trip, as the float32 bits of each result."""
    import torch

    x = torch.tensor(values, dtype=torch.float32)
    back = x.to(torch.bfloat16).to(torch.float32)
    return [int(b) for b in back.numpy().view(np.uint32)]


def transformers_rotary(cfg: dict) -> dict:
    """LlamaRotaryEmbedding's cos and sin for a bfloat16 input at POSITIONS, plain and under autocast."""
    import torch
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    d = cfg["head_dim"]
    config = LlamaConfig(hidden_size=4 * d, num_attention_heads=4, head_dim=d,
                         max_position_embeddings=cfg["max_position_embeddings"],
                         rope_parameters=dict(cfg["rope_parameters"]))
    rotary = LlamaRotaryEmbedding(config)
    x = torch.zeros(1, dtype=torch.bfloat16)  # only its dtype and device are read
    position_ids = torch.tensor([POSITIONS])
    with torch.no_grad():
        cos, sin = rotary(x, position_ids)  # (1, n, d): the two halves repeat the same d/2 angles
        with torch.autocast("cpu", dtype=torch.bfloat16):
            cos_a, sin_a = rotary(x, position_ids)
    half = d // 2
    return {"name": cfg["name"], "positions": POSITIONS, "dtype": str(cos.dtype),
            "inv_freq": [float(v) for v in rotary.inv_freq.float()],
            "attention_factor": float(rotary.attention_scaling),
            "cos": cos[0, :, :half].float().tolist(), "sin": sin[0, :, :half].float().tolist(),
            "autocast_identical": bool(torch.equal(cos, cos_a) and torch.equal(sin, sin_a))}


def reference() -> dict:
    inputs = np.array(ROUNDING_INPUTS, dtype=np.float32)
    return {
        "about": "torch's float32 -> bfloat16 rounding (bits in and out) and transformers' LlamaRotaryEmbedding "
                 "cos/sin for a bfloat16 input at large positions; written by tests/reference/_precision_reference.py",
        "versions": versions(),
        "rounding": {"inputs_bits": [int(b) for b in inputs.view(np.uint32)], "torch_bits": torch_bf16_bits(inputs)},
        "rotary": [transformers_rotary(cfg) for cfg in ROTARY_CONFIGS],
    }


def write() -> None:
    out = reference()
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: {len(ROUNDING_INPUTS)} roundings, {len(out['rotary'])} rotary tables, "
          f"transformers {out['versions']['transformers']}, torch {out['versions']['torch']}")


def lesson_mismatches(record: dict) -> list[str]:
    """Compare lessons.precision with one reference (the committed JSON or a live one): failure strings."""
    from lessons.precision import bf16_round, pipeline_cos_sin

    problems = []
    inputs = np.array(record["rounding"]["inputs_bits"], dtype=np.uint32).view(np.float32)
    got = bf16_round(inputs).view(np.uint32)
    want = np.array(record["rounding"]["torch_bits"], dtype=np.uint32)
    for x, g, w in zip(inputs, got, want, strict=True):
        if g != w:
            problems.append(f"bf16_round({x!r}) bits {g:#010x}, torch {w:#010x}")
    for rot in record["rotary"]:
        cos, sin = pipeline_cos_sin(rot["positions"], np.array(rot["inv_freq"], dtype=np.float32), "bf16-table",
                                    rot["attention_factor"])
        for key, mine in (("cos", cos), ("sin", sin)):
            theirs = np.array(rot[key])
            # at most one bfloat16 step (2^-8 of 1) where float32 cos/sin differ by an ulp across a rounding edge
            diff = np.abs(mine - theirs)
            if diff.max() > 2**-8 * rot["attention_factor"] or np.mean(diff == 0) < 0.99:
                problems.append(f"{rot['name']} {key}: max difference {diff.max():.2e}, "
                                f"{np.mean(diff == 0):.1%} identical")
        if not rot["autocast_identical"]:
            problems.append(f"{rot['name']}: autocast changed LlamaRotaryEmbedding's output")
    return problems


def live_check() -> list[str]:
    """Recompute with the installed torch and transformers and compare the lesson: failure strings."""
    return [f"precision: {p}" for p in lesson_mismatches(reference())]


if __name__ == "__main__":
    write()
    print(live_check() or "precision: the lesson agrees with the live library")
