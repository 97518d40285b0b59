"""The reference configs, and how to ask the installed `transformers` about them.

Shared by make_vectors.py (writes tests/data/reference_vectors.json once) and
check_live.py (recomputes everything now and compares with the lessons). Both run
under the reference venv (.venv-ref: torch + transformers); nothing here is
imported by `make test`.

The configs: real published rope blocks where the name says so, plus synthetic
ones (named "synthetic: ...") that reach the corners of each rope_type.
"""

from __future__ import annotations

import copy
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "reference_vectors.json"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Phi-3.5-mini-instruct's LongRoPE block, copied from its published config.json
# (hidden_size 3072 / 32 heads = head_dim 96, so 48 numbers per list).
PHI35_LONG = [
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
    1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
    4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
    17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
    32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
    50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
    62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
    63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
    64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
    64.51000213623047, 64.52999877929688, 64.83999633789062,
]
PHI35_SHORT = [
    1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842,
    1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979,
    1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662,
    1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083,
    1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533,
    2.729999542236328, 2.749999523162842, 2.8399994373321533,
]
PHI35 = {"rope_type": "longrope", "rope_theta": 10000.0, "original_max_position_embeddings": 4096,
         "short_factor": PHI35_SHORT, "long_factor": PHI35_LONG}
LLAMA31 = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0,
           "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}


def _c(name, head_dim, params, max_pos=4096, seq_len=None):
    return {"name": name, "head_dim": head_dim, "max_position_embeddings": max_pos, "seq_len": seq_len,
            "rope_parameters": params}


CONFIGS = [
    # default
    _c("Llama 2 7B (default, theta 10000)", 128, {"rope_type": "default", "rope_theta": 10000.0}),
    _c("Llama 3 8B (default, theta 500000)", 128, {"rope_type": "default", "rope_theta": 500000.0}, 8192),
    _c("Qwen2.5 7B (default, theta 1e6)", 128, {"rope_type": "default", "rope_theta": 1000000.0}, 32768),
    _c("Pythia style partial rotary 0.25 (default)", 128,
       {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25}, 2048),
    _c("Phi-2 partial rotary 0.4, head_dim 80 (default)", 80,
       {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.4}, 2048),
    _c("synthetic: default with no rope_theta (library default 10000)", 64, {"rope_type": "default"}),
    # linear
    _c("synthetic: linear factor 8 (PI-style 2K to 16K)", 128, {"rope_type": "linear", "rope_theta": 10000.0,
                                                               "factor": 8.0}, 16384),
    _c("synthetic: linear factor 4, old key 'type'", 128, {"type": "linear", "rope_theta": 10000.0, "factor": 4.0}),
    _c("synthetic: linear factor 2, partial rotary 0.5", 64,
       {"rope_type": "linear", "rope_theta": 10000.0, "factor": 2.0, "partial_rotary_factor": 0.5}),
    _c("synthetic: linear factor 1 (no-op)", 128, {"rope_type": "linear", "rope_theta": 10000.0, "factor": 1.0}),
    # dynamic
    _c("synthetic: dynamic factor 2 at init (seq_len None)", 128,
       {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0}, 4096, None),
    _c("synthetic: dynamic factor 2 at seq_len 8192", 128,
       {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0}, 4096, 8192),
    _c("synthetic: dynamic factor 4 at seq_len 16384", 128,
       {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 4.0}, 2048, 16384),
    _c("synthetic: dynamic below the trained length (seq_len 3000)", 128,
       {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0}, 4096, 3000),
    _c("synthetic: dynamic, old key 'type', partial rotary 0.5", 128,
       {"type": "dynamic", "rope_theta": 10000.0, "factor": 2.0, "partial_rotary_factor": 0.5}, 4096, 10000),
    _c("synthetic: dynamic factor 8, theta 500000, seq_len 100000", 128,
       {"rope_type": "dynamic", "rope_theta": 500000.0, "factor": 8.0}, 8192, 100000),
    # yarn
    _c("Qwen2.5 7B YaRN block (factor 4, original 32768)", 128,
       {"type": "yarn", "rope_theta": 1000000.0, "factor": 4.0, "original_max_position_embeddings": 32768}, 32768),
    _c("DeepSeek-V2-Lite YaRN block (qk_rope_head_dim 64, mscale 0.707/0.707)", 64,
       {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40, "beta_fast": 32, "beta_slow": 1, "mscale": 0.707,
        "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096}, 163840),
    _c("synthetic: DeepSeek-style YaRN, mscale 1.0 / mscale_all_dim 0.707", 64,
       {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40, "beta_fast": 32, "beta_slow": 1, "mscale": 1.0,
        "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096}, 163840),
    _c("Yarn-Llama-2-7b-64k block (factor 16, original 4096)", 128,
       {"type": "yarn", "rope_theta": 10000.0, "factor": 16.0, "original_max_position_embeddings": 4096}, 65536),
    _c("gpt-oss YaRN block (GptOssConfig defaults: factor 32, theta 150000, truncate false)", 64,
       {"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0,
        "original_max_position_embeddings": 4096, "truncate": False}, 131072),
    _c("synthetic: YaRN with attention_factor 1.0 and beta 16/2", 128,
       {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 8.0, "attention_factor": 1.0, "beta_fast": 16,
        "beta_slow": 2, "original_max_position_embeddings": 4096}, 32768),
    _c("synthetic: YaRN with factor None (taken as max/original = 16)", 128,
       {"rope_type": "yarn", "rope_theta": 10000.0, "factor": None, "original_max_position_embeddings": 4096}, 65536),
    _c("synthetic: YaRN, partial rotary 0.5", 128,
       {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0, "original_max_position_embeddings": 2048,
        "partial_rotary_factor": 0.5}, 8192),
    # longrope
    _c("Phi-3.5-mini LongRoPE block, short factors (seq_len None)", 96, copy.deepcopy(PHI35), 131072, None),
    _c("Phi-3.5-mini LongRoPE block, long factors (seq_len 8192)", 96, copy.deepcopy(PHI35), 131072, 8192),
    _c("Phi-3.5-mini LongRoPE block at exactly the original length (short)", 96, copy.deepcopy(PHI35), 131072, 4096),
    _c("synthetic: Phi-3.5 lists with attention_factor 1.2, old key 'type'", 96,
       {**{k: v for k, v in copy.deepcopy(PHI35).items() if k != "rope_type"}, "type": "longrope",
        "attention_factor": 1.2}, 131072, 200000),
    _c("synthetic: Phi-3.5 lists with explicit factor 16, partial rotary 0.75 of head_dim 128", 128,
       {**copy.deepcopy(PHI35), "factor": 16.0, "partial_rotary_factor": 0.75}, 131072, 5000),
    # llama3
    _c("Llama 3.1 8B llama3 block", 128, dict(LLAMA31), 131072),
    _c("Llama 3.2 1B llama3 block (factor 32, head_dim 64)", 64, {**LLAMA31, "factor": 32.0}, 131072),
    _c("synthetic: llama3 with low 2 / high 8", 128, {**LLAMA31, "low_freq_factor": 2.0, "high_freq_factor": 8.0},
       131072),
    _c("synthetic: llama3, theta 10000, original 4096, partial rotary 0.5", 128,
       {**LLAMA31, "rope_theta": 10000.0, "original_max_position_embeddings": 4096, "partial_rotary_factor": 0.5},
       32768),
]

ALIBI_HEADS = list(range(1, 65))

# RoPE applied to one (heads, seq, head_dim) input at two runs of positions, by
# the production code of both layouts: Llama's rotate_half (half-split pairs)
# and GPT-J's rotate_every_two (interleaved pairs), plus Llama's cos/sin tables.
LAYOUT_SHAPE = (2, 6, 8)
LAYOUT_POSITIONS = [[0, 1, 2, 3, 4, 5], [100, 101, 102, 103, 104, 105]]


def layout_input():
    """The seeded input every layout reference rotates: (heads, seq, head_dim)."""
    import numpy as np

    return np.random.default_rng(0).standard_normal(LAYOUT_SHAPE)


def versions() -> dict:
    import torch
    import transformers

    return {"transformers": transformers.__version__, "torch": torch.__version__}


def _rope_type(params: dict) -> str:
    return params.get("rope_type") or params.get("type") or "default"


def transformers_rope(cfg: dict) -> tuple[list[float], float]:
    """Ask the installed transformers for (inv_freq, attention_factor) of one config."""
    import transformers
    from transformers import LlamaConfig
    from transformers import modeling_rope_utils as mru

    params = copy.deepcopy(cfg["rope_parameters"])
    rope_type = _rope_type(params)
    head_dim = cfg["head_dim"]
    common = dict(hidden_size=head_dim * 4, num_attention_heads=4, head_dim=head_dim,
                  max_position_embeddings=cfg["max_position_embeddings"])
    if hasattr(mru, "RopeParameters"):  # transformers >= 5: everything lives in config.rope_parameters
        config = LlamaConfig(**common, rope_parameters=params)
    else:  # transformers 4.x: rope_theta and partial_rotary_factor are top-level, the rest is rope_scaling
        top = {k: params.pop(k) for k in ("rope_theta", "partial_rotary_factor") if k in params}
        config = LlamaConfig(**common, rope_theta=top.get("rope_theta", 10000.0),
                             rope_scaling=(params if rope_type != "default" else None))
        if "partial_rotary_factor" in top:
            config.partial_rotary_factor = top["partial_rotary_factor"]
    if rope_type == "default":
        if hasattr(mru, "_compute_default_rope_parameters"):
            fn = mru._compute_default_rope_parameters
        else:  # v5: a per-model static method; GPT-NeoX's honours partial_rotary_factor
            from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding

            fn = GPTNeoXRotaryEmbedding.compute_default_rope_parameters
    else:
        fn = mru.ROPE_INIT_FUNCTIONS[rope_type]
    kwargs = {}
    if "seq_len" in inspect.signature(fn).parameters and cfg["seq_len"] is not None:
        kwargs["seq_len"] = cfg["seq_len"]
    inv_freq, attention_factor = fn(config, None, **kwargs) if "device" in inspect.signature(fn).parameters \
        else fn(config, **kwargs)
    del transformers
    return [float(x) for x in inv_freq.float().tolist()], float(attention_factor)


def transformers_alibi(n_heads: int) -> dict[str, list[float]]:
    """ALiBi slopes from BLOOM's and MPT's implementations in transformers."""
    import torch
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    # BLOOM: alibi[h, 0, j] = slope_h * j for an all-ones mask, so j = 1 gives the slope
    bloom = build_alibi_tensor(torch.ones(1, 2), n_heads, torch.float32)[:, 0, 1]
    # MPT: alibi[h, 0, j] = slope_h * (j - (n - 1)), so j = 0 with n = 2 gives -slope
    mpt = -build_mpt_alibi_tensor(n_heads, 2)[:, 0, 0]
    return {"bloom": [float(x) for x in bloom.tolist()], "mpt": [float(x) for x in mpt.tolist()]}


def transformers_layouts() -> list[dict]:
    """Llama's and GPT-J's RoPE (transformers' own functions) on layout_input()."""
    import torch
    from transformers import LlamaConfig
    from transformers.models.gptj.modeling_gptj import apply_rotary_pos_emb as gptj_apply
    from transformers.models.gptj.modeling_gptj import create_sinusoidal_positions
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb as llama_apply

    x = torch.tensor(layout_input(), dtype=torch.float64)[None]  # (1, heads, seq, d)
    heads, d = x.shape[1], x.shape[3]
    config = LlamaConfig(hidden_size=heads * d, num_attention_heads=heads, head_dim=d, max_position_embeddings=256,
                         rope_parameters={"rope_type": "default", "rope_theta": 10000.0})
    out = []
    for positions in LAYOUT_POSITIONS:
        position_ids = torch.tensor([positions])
        cos, sin = LlamaRotaryEmbedding(config)(x, position_ids)  # (1, seq, d), each half repeated
        half, _ = llama_apply(x, x, cos, sin)
        table = create_sinusoidal_positions(max(positions) + 1, d)[position_ids]  # (1, seq, d): sin | cos
        sin_j, cos_j = torch.split(table, d // 2, dim=-1)
        interleaved = gptj_apply(x.transpose(1, 2), sin_j, cos_j).transpose(1, 2)  # GPT-J is (b, seq, heads, d)
        out.append({"positions": positions, "half": half[0].tolist(), "interleaved": interleaved[0].tolist(),
                    "cos": cos[0].tolist(), "sin": sin[0].tolist()})
    return out


def lesson_layouts(record: dict) -> dict:
    """The lessons' answers for one layout record: the same keys as transformers_layouts()."""
    import numpy as np

    from lessons.rope import RotaryEmbedding, apply_rope_half, apply_rope_interleaved

    x, positions = layout_input(), np.array(record["positions"])
    cos, sin = RotaryEmbedding(x.shape[-1], max_seq_len=256)(len(positions), start_pos=int(positions[0]))
    return {"half": apply_rope_half(x, positions), "interleaved": apply_rope_interleaved(x, positions),
            "cos": np.reshape(cos, (len(positions), -1)), "sin": np.reshape(sin, (len(positions), -1))}


def lesson_rope(cfg: dict):
    from lessons.context_extension import rope_inv_freq

    return rope_inv_freq(cfg["head_dim"], copy.deepcopy(cfg["rope_parameters"]),
                         max_position_embeddings=cfg["max_position_embeddings"], seq_len=cfg["seq_len"])


def rel_err(a, b) -> float:
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300))) if a.size else 0.0
