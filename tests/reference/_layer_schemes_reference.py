"""Reference vectors for lessons/layer_schemes.py, from transformers' own code (run under .venv-ref).

    .venv-ref/bin/python -c "import sys; sys.path.insert(0, 'tests/reference'); \
        import _layer_schemes_reference as r; r.write()"

writes tests/data/layer_schemes_vectors.json; make_vectors.py calls write() and check_live.py
extends its failures with live_check(). Each record holds its seeded input, so `make test`
(tests/test_layer_schemes.py, no torch) recomputes the lesson's answer and compares:
- Llama 4's query temperature: Llama4TextAttention.forward on a NoPE layer, with the attention
  function swapped for one that records the query it is handed (divided by q_proj's output);
- DeepSeek-V3's rotary slice: apply_rotary_pos_emb_interleave with DeepseekV3RotaryEmbedding's cos/sin;
- partial rotary: GPT-NeoX's and GLM's apply_rotary_pos_emb with their own rotary classes, and
  Gemma 4's apply_rotary_pos_emb with the proportional speeds of modeling_rope_utils.
Gemma 3's two bases and the proportional speeds themselves are in reference_vectors.json already.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "layer_schemes_vectors.json"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SHAPE = (2, 5, 16)  # (heads, seq, head_dim)
POSITIONS = [0, 1, 2, 7, 100]
TEMPERATURE_CASES = [  # (floor_scale, attn_scale, first position, length)
    (8192, 0.1, 8185, 12),  # Llama 4 Scout's values (its config.json): the first step at 8191
    (8192, 0.1, 3 * 8192 - 4, 8),
    (4, 0.25, 0, 40),
]
PARTIAL = [("neox", 0.5, 10000.0), ("glm", 0.5, 10000.0), ("proportional", 0.5, 10000.0),
           ("neox", 0.25, 500.0), ("glm", 0.25, 500.0), ("proportional", 0.25, 500.0)]
RTOL = 1e-5  # float32 library against float64 lessons: values of order 1, angles up to 100 rad


def seeded_input(seed: int = 0):
    import numpy as np

    return np.random.default_rng(seed).standard_normal(SHAPE)


def versions() -> dict:
    import torch
    import transformers

    return {"transformers": transformers.__version__, "torch": torch.__version__}


def transformers_temperature(floor_scale: int, attn_scale: float, start: int, length: int) -> list[float]:
    """Llama4TextAttention.forward on layer 3 (a NoPE layer), positions start..start+length-1
    (the cache holds `start` tokens, as the forward counts positions from the cache length)."""
    import torch
    from transformers import Llama4TextConfig
    from transformers.cache_utils import DynamicCache
    from transformers.models.llama4 import modeling_llama4 as m

    config = Llama4TextConfig(hidden_size=16, num_attention_heads=2, num_key_value_heads=2, head_dim=8,
                              num_hidden_layers=4, intermediate_size=32, intermediate_size_mlp=32,
                              floor_scale=floor_scale, attn_scale=attn_scale, attn_temperature_tuning=True)
    config._attn_implementation = "eager"
    attn = m.Llama4TextAttention(config, layer_idx=3).eval()
    assert not attn.use_rope
    seen = {}

    def record(module, query, key, value, mask, **kwargs):
        seen["query"] = query  # (1, heads, seq, head_dim)
        return torch.zeros(1, query.shape[2], query.shape[1], query.shape[3]), None

    original, m.eager_attention_forward = m.eager_attention_forward, record
    try:
        torch.manual_seed(0)
        h = torch.randn(1, length, 16)
        cache = DynamicCache(config=config)
        if start:
            cache.update(torch.zeros(1, 2, start, 8), torch.zeros(1, 2, start, 8), 3)
        with torch.no_grad():
            attn(h, position_embeddings=None, attention_mask=None, cache=cache)
            plain = attn.q_proj(h).view(1, length, 2, 8).transpose(1, 2)
    finally:
        m.eager_attention_forward = original
    ratio = (seen["query"] / plain)[0, 0, :, 0]  # one number per position
    return [float(r) for r in ratio]


def transformers_deepseek(x) -> list:
    import torch
    from transformers import DeepseekV3Config
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import (DeepseekV3RotaryEmbedding,
                                                                      apply_rotary_pos_emb_interleave)

    config = DeepseekV3Config(hidden_size=64, num_attention_heads=2, num_hidden_layers=1, intermediate_size=32,
                              moe_intermediate_size=16, n_routed_experts=4, num_experts_per_tok=2, q_lora_rank=None,
                              kv_lora_rank=16, qk_nope_head_dim=8, qk_rope_head_dim=SHAPE[-1], v_head_dim=8,
                              rope_theta=10000.0, rope_scaling=None)
    t = torch.tensor(x, dtype=torch.float32)[None]  # (1, heads, seq, r)
    cos, sin = DeepseekV3RotaryEmbedding(config)(t, torch.tensor([POSITIONS]))
    q, _ = apply_rotary_pos_emb_interleave(t, t, cos, sin)
    return q[0].tolist()


def transformers_partial(x, pairing: str, factor: float, base: float) -> list:
    import torch

    t = torch.tensor(x, dtype=torch.float32)[None]  # (1, heads, seq, d)
    d, ids = SHAPE[-1], torch.tensor([POSITIONS])
    if pairing == "neox":
        from transformers import GPTNeoXConfig
        from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding, apply_rotary_pos_emb

        config = GPTNeoXConfig(hidden_size=2 * d, num_attention_heads=2, rotary_pct=factor, rotary_emb_base=base)
        cos, sin = GPTNeoXRotaryEmbedding(config)(t, ids)
    elif pairing == "glm":
        from transformers import GlmConfig
        from transformers.models.glm.modeling_glm import GlmRotaryEmbedding, apply_rotary_pos_emb

        config = GlmConfig(hidden_size=2 * d, num_attention_heads=2, num_key_value_heads=2, head_dim=d,
                           partial_rotary_factor=factor, rope_theta=base)
        cos, sin = GlmRotaryEmbedding(config)(t, ids)
    else:
        from transformers import LlamaConfig
        from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
        from transformers.models.gemma4.modeling_gemma4 import apply_rotary_pos_emb as gemma4_apply

        config = LlamaConfig(hidden_size=2 * d, num_attention_heads=2, head_dim=d, rope_parameters={
            "rope_type": "proportional", "rope_theta": base, "partial_rotary_factor": factor})
        inv_freq, _ = ROPE_INIT_FUNCTIONS["proportional"](config, None)
        freqs = ids[0].float()[:, None] * inv_freq[None, :]  # (seq, d/2), as every rotary class builds it
        emb = torch.cat((freqs, freqs), dim=-1)[None]
        out = gemma4_apply(t, emb.cos(), emb.sin())
        return out[0].tolist()
    assert config.rope_parameters.get("partial_rotary_factor") == factor, config.rope_parameters
    q, _ = apply_rotary_pos_emb(t, t, cos, sin)
    return q[0].tolist()


def records() -> dict:
    x = seeded_input()
    return {
        "temperature": [{"floor_scale": f, "attn_scale": s, "positions": list(range(p, p + n)),
                         "scale": transformers_temperature(f, s, p, n)} for f, s, p, n in TEMPERATURE_CASES],
        "deepseek_rotary": [{"positions": POSITIONS, "base": 10000.0, "input": x.tolist(),
                             "output": transformers_deepseek(x)}],
        "partial": [{"pairing": pairing, "partial_rotary_factor": factor, "base": base, "positions": POSITIONS,
                     "input": x.tolist(), "output": transformers_partial(x, pairing, factor, base)}
                    for pairing, factor, base in PARTIAL],
    }


def lesson_answer(kind: str, record: dict):
    """The lesson's numbers for one record, as a numpy array."""
    import numpy as np

    from lessons.layer_schemes import deepseek_rotary, llama4_attn_temperature, partial_rotary

    if kind == "temperature":
        return llama4_attn_temperature(record["positions"], record["attn_scale"], record["floor_scale"])
    x = np.asarray(record["input"])
    if kind == "deepseek_rotary":
        return deepseek_rotary(x, record["positions"], record["base"])
    return partial_rotary(x, record["positions"], record["partial_rotary_factor"], record["base"], record["pairing"])


def want(kind: str, record: dict):
    return record["scale"] if kind == "temperature" else record["output"]


def mismatches(data: dict) -> list[str]:
    """One line per record where the lesson and the reference differ beyond RTOL (relative to the
    record's largest value)."""
    import numpy as np

    out = []
    for kind in ("temperature", "deepseek_rotary", "partial"):
        for record in data[kind]:
            ref = np.asarray(want(kind, record))
            err = float(np.max(np.abs(lesson_answer(kind, record) - ref)) / np.max(np.abs(ref)))
            if not err <= RTOL:
                out.append(f"layer_schemes {kind} {record.get('pairing', '')} {record['positions'][:2]}...: "
                           f"relative error {err:.1e}")
    return out


def write() -> None:
    v = versions()
    data = {"about": "Llama 4's NoPE-layer query temperature (Llama4TextAttention.forward), DeepSeek-V3's "
                     "rotary slice (apply_rotary_pos_emb_interleave), partial rotary in GPT-NeoX's, GLM's and "
                     "Gemma 4's proportional pairing, each from transformers' own code in float32, written by "
                     "tests/reference/_layer_schemes_reference.py", "versions": v, **records()}
    lines = ["{", f' "about": {json.dumps(data["about"])},', f' "versions": {json.dumps(v)},']
    kinds = ("temperature", "deepseek_rotary", "partial")
    for kind in kinds:
        rows = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in data[kind])
        lines.append(f' "{kind}": [\n{rows}\n ]' + ("" if kind == kinds[-1] else ","))
    DATA.write_text("\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: transformers {v['transformers']}, torch {v['torch']}")


def live_check() -> list[str]:
    """Recompute every record with the installed transformers and compare the lesson with it."""
    failures = mismatches({"about": "", **records()})
    print(f"layer_schemes: {'ok' if not failures else 'FAIL'} temperature, DeepSeek rotary, partial rotary")
    return failures
