"""The reference configs, and how to ask the installed `transformers` about them.

Shared by make_vectors.py (writes tests/data/reference_vectors.json once) and
check_live.py (recomputes everything now and compares with the lessons). Both run
under the reference venv (.venv-ref: torch + transformers); nothing here is
imported by `make test`.

The configs: real published rope blocks where the name says so (copied from the
model's config.json, cited next to it: no config is downloaded at run time), plus
synthetic ones (named "synthetic: ...") that reach the corners of each rope_type,
including the blocks transformers accepts only with a warning. Models whose own
config class or rotary class matters (Llama 4, Qwen2-VL, Gemma 3 and 4, DeepSeek)
are computed with those classes.
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


# Llama 4 Scout's text rope block, copied from meta-llama/Llama-4-Scout-17B-16E-Instruct config.json
# (text_config: head_dim 128, max_position_embeddings 10485760, rope_theta 500000, rope_scaling below).
SCOUT = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 16.0, "low_freq_factor": 1.0,
         "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}
# Qwen/Qwen2-VL-7B-Instruct config.json: hidden_size 3584 / 28 heads = head_dim 128, max_position_embeddings
# 32768, rope_theta 1000000, rope_scaling {"type": "mrope", "mrope_section": [16, 24, 24]}.
QWEN2_VL = {"type": "mrope", "mrope_section": [16, 24, 24], "rope_theta": 1000000.0}


def _c(name, head_dim, params, max_pos=4096, seq_len=None, model=None):
    """One rope record; `model` names the transformers model whose own config and rotary class
    compute it (llama4, qwen2_vl), else a LlamaConfig and ROPE_INIT_FUNCTIONS."""
    out = {"name": name, "head_dim": head_dim, "max_position_embeddings": max_pos, "seq_len": seq_len,
           "rope_parameters": params}
    return {**out, "model": model} if model else out


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
    _c("Llama 4 Scout 17B-16E-Instruct llama3 block (factor 16, low = high = 1: warned)", 128, dict(SCOUT),
       10485760, model="llama4"),
    _c("synthetic: llama3 with high 1 < low 4 (warned, no pair blended)", 128,
       {**LLAMA31, "low_freq_factor": 4.0, "high_freq_factor": 1.0}, 131072),
    # multimodal RoPE: plain speeds, pairs split between time, height and width
    _c("Qwen2-VL-7B-Instruct mrope block (mrope_section 16/24/24)", 128, copy.deepcopy(QWEN2_VL), 32768,
       model="qwen2_vl"),
    # proportional (Gemma 4's global layers)
    _c("synthetic: proportional, partial 0.25 of head_dim 64", 64,
       {"rope_type": "proportional", "rope_theta": 1000000.0, "partial_rotary_factor": 0.25}, 8192),
    _c("synthetic: proportional, partial 0.5, factor 2 (warned, used)", 32,
       {"rope_type": "proportional", "rope_theta": 10000.0, "partial_rotary_factor": 0.5, "factor": 2.0}, 8192),
    # accepted with a warning, or quietly, as transformers does
    _c("synthetic: linear factor 0.5 (warned)", 64, {"rope_type": "linear", "rope_theta": 10000.0, "factor": 0.5}),
    _c("synthetic: linear with a stray low_freq_factor (warned, ignored)", 64,
       {"rope_type": "linear", "rope_theta": 10000.0, "factor": 2.0, "low_freq_factor": 1.0}),
    _c("synthetic: default with an unknown key 'foo' (warned, ignored)", 64,
       {"rope_type": "default", "rope_theta": 10000.0, "foo": 1}),
    _c("synthetic: rope_type linear wins over type yarn", 64,
       {"rope_type": "linear", "type": "yarn", "rope_theta": 10000.0, "factor": 2.0}),
    _c("synthetic: YaRN with beta_fast 1 < beta_slow 4 (warned)", 64,
       {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0, "beta_fast": 1, "beta_slow": 4,
        "original_max_position_embeddings": 1024}, 4096),
    _c("synthetic: YaRN factor 8 against max/original 4 (warned, factor used)", 64,
       {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 8.0, "original_max_position_embeddings": 1024}, 4096),
    _c("synthetic: default, partial 0.375 of head_dim 8 (odd rotary width 3)", 8,
       {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.375}, 2048),
]

# Configs whose RoPE differs by layer type: each model's own config class builds rope_parameters
# ({"full_attention": {...}, "sliding_attention": {...}}) and its rotary class computes each type.
LAYER_TYPE_CONFIGS = [
    # google/gemma-3-4b-it config.json text_config (the keys it sets; head_dim 256, rope_theta 1e6,
    # rope_local_base_freq 1e4 and max_position_embeddings 131072 are Gemma3TextConfig's defaults)
    {"name": "Gemma 3 4B-it (linear factor 8 on full-attention layers)", "model": "gemma3",
     "head_dim": {"full_attention": 256, "sliding_attention": 256}, "max_position_embeddings": 131072,
     "config_json": {"hidden_size": 2560, "intermediate_size": 10240, "num_attention_heads": 8,
                     "num_hidden_layers": 34, "num_key_value_heads": 4, "sliding_window": 1024,
                     "rope_scaling": {"factor": 8.0, "rope_type": "linear"}}},
    # google/gemma-3-1b-it config.json
    {"name": "Gemma 3 1B-it (no scaling; local base 10000, global 1000000)", "model": "gemma3",
     "head_dim": {"full_attention": 256, "sliding_attention": 256}, "max_position_embeddings": 32768,
     "config_json": {"hidden_size": 1152, "intermediate_size": 6912, "num_attention_heads": 4,
                     "num_hidden_layers": 26, "num_key_value_heads": 1, "head_dim": 256,
                     "max_position_embeddings": 32768, "rope_theta": 1000000, "rope_local_base_freq": 10000,
                     "rope_scaling": None, "sliding_window": 512, "sliding_window_pattern": 6}},
    # Gemma4TextConfig's defaults (transformers 5.24): proportional RoPE on the wider global layers
    {"name": "Gemma 4 (Gemma4TextConfig defaults: proportional 0.25 on head_dim 512, default on 256)",
     "model": "gemma4", "head_dim": {"full_attention": 512, "sliding_attention": 256},
     "max_position_embeddings": 131072, "config_json": {"num_hidden_layers": 6}},
]

# DeepSeek attention: the softmax scale next to the cos/sin factor. The rope_scaling blocks are copied
# from deepseek-ai/DeepSeek-V2-Lite and deepseek-ai/DeepSeek-V3 config.json (both qk_nope_head_dim 128,
# qk_rope_head_dim 64, max_position_embeddings 163840, rope_theta 10000).
_DS = {"beta_fast": 32, "beta_slow": 1, "factor": 40, "original_max_position_embeddings": 4096, "type": "yarn"}
DEEPSEEK_CONFIGS = [
    {"name": "DeepSeek-V2-Lite (mscale 0.707, mscale_all_dim 0.707)", "qk_nope_head_dim": 128,
     "qk_rope_head_dim": 64, "max_position_embeddings": 163840,
     "rope_scaling": {**_DS, "mscale": 0.707, "mscale_all_dim": 0.707}},
    {"name": "DeepSeek-V3 (mscale 1.0, mscale_all_dim 1.0)", "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
     "max_position_embeddings": 163840, "rope_scaling": {**_DS, "mscale": 1.0, "mscale_all_dim": 1.0}},
    {"name": "synthetic: mscale 1.0, mscale_all_dim 0.707", "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
     "max_position_embeddings": 163840, "rope_scaling": {**_DS, "mscale": 1.0, "mscale_all_dim": 0.707}},
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


class _Warnings:
    """Collects what transformers logs at WARNING while a config is built and its RoPE computed."""

    def __enter__(self):
        import logging

        from transformers.utils import logging as hf_logging

        self.messages = []
        outer = self

        class Handler(logging.Handler):
            def emit(self, record):
                outer.messages.append(record.getMessage())

        self.handler = Handler(logging.WARNING)
        self.logger = hf_logging.get_logger("transformers")
        self.logger.addHandler(self.handler)
        # warning_once is an lru_cache: forget earlier configs so each one reports its own
        getattr(logging.Logger.__dict__.get("warning_once"), "cache_clear", lambda: None)()
        return self

    def __exit__(self, *exc):
        self.logger.removeHandler(self.handler)
        return False


def transformers_rope(cfg: dict) -> dict:
    """Ask the installed transformers for one config: {"inv_freq", "attention_factor", "warnings"}
    (the warnings it logged while building the config and computing its RoPE)."""
    import transformers
    from transformers import LlamaConfig
    from transformers import modeling_rope_utils as mru

    params = copy.deepcopy(cfg["rope_parameters"])
    rope_type = _rope_type(params)
    head_dim = cfg["head_dim"]
    common = dict(hidden_size=head_dim * 4, num_attention_heads=4, head_dim=head_dim,
                  max_position_embeddings=cfg["max_position_embeddings"])
    with _Warnings() as caught:
        if cfg.get("model") == "llama4":  # Llama 4's own config and rotary class, the rope block alone
            from transformers import Llama4TextConfig
            from transformers.models.llama4.modeling_llama4 import Llama4TextRotaryEmbedding

            config = Llama4TextConfig(**common, num_hidden_layers=4, intermediate_size=64, intermediate_size_mlp=64,
                                      rope_parameters=params)
            rotary = Llama4TextRotaryEmbedding(config)
            inv_freq, attention_factor = rotary.inv_freq, rotary.attention_scaling
        elif cfg.get("model") == "qwen2_vl":  # Qwen2-VL's config turns "mrope" into "default"
            from transformers import Qwen2VLTextConfig
            from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding

            theta = params.pop("rope_theta")
            config = Qwen2VLTextConfig(hidden_size=head_dim * 28, num_attention_heads=28, num_hidden_layers=2,
                                       intermediate_size=64, max_position_embeddings=cfg["max_position_embeddings"],
                                       rope_theta=theta, rope_scaling=params)
            rotary = Qwen2VLRotaryEmbedding(config)
            inv_freq, attention_factor = rotary.inv_freq, rotary.attention_scaling
        else:
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
                fn = mru.ROPE_INIT_FUNCTIONS[config.rope_parameters["rope_type"]]
            kwargs = {}
            if "seq_len" in inspect.signature(fn).parameters and cfg["seq_len"] is not None:
                kwargs["seq_len"] = cfg["seq_len"]
            inv_freq, attention_factor = fn(config, None, **kwargs) if "device" in inspect.signature(fn).parameters \
                else fn(config, **kwargs)
    del transformers
    return {"inv_freq": [float(x) for x in inv_freq.float().tolist()], "attention_factor": float(attention_factor),
            "warnings": caught.messages}


def _gemma_config(cfg: dict):
    if cfg["model"] == "gemma3":
        from transformers import Gemma3TextConfig
        from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding

        config = Gemma3TextConfig(**cfg["config_json"])
        return config, Gemma3RotaryEmbedding(config), {t: config.head_dim for t in set(config.layer_types)}
    from transformers import Gemma4TextConfig
    from transformers.models.gemma4.modeling_gemma4 import Gemma4TextRotaryEmbedding

    config = Gemma4TextConfig(**cfg["config_json"])
    widths = {t: config.per_layer_config[i].head_dim for i, t in enumerate(config.layer_types)}
    return config, Gemma4TextRotaryEmbedding(config), widths


def transformers_rope_by_layer_type(cfg: dict) -> dict:
    """Gemma's own config class and rotary class for one LAYER_TYPE_CONFIGS entry:
    {"rope_parameters": as the config built them, "head_dim": per layer type,
    "layer_types": {type: {"inv_freq", "attention_factor"}}}."""
    config, rotary, widths = _gemma_config(cfg)
    out = {}
    for layer_type in sorted(set(config.layer_types)):
        inv_freq = getattr(rotary, f"{layer_type}_inv_freq")
        out[layer_type] = {"inv_freq": [float(x) for x in inv_freq.float().tolist()],
                           "attention_factor": float(getattr(rotary, f"{layer_type}_attention_scaling"))}
    params = {k: config.rope_parameters[k] for k in sorted(out)}
    return {"rope_parameters": copy.deepcopy(params), "head_dim": {t: widths[t] for t in sorted(out)},
            "layer_types": out}


def transformers_deepseek_scaling(cfg: dict) -> dict:
    """DeepSeek-V3's attention (transformers models/deepseek_v3) for one DEEPSEEK_CONFIGS entry, with
    small hidden sizes but the real head widths and rope block: {"scaling", "attention_factor"}."""
    from transformers import DeepseekV3Config
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention, DeepseekV3RotaryEmbedding

    config = DeepseekV3Config(hidden_size=64, num_attention_heads=2, num_hidden_layers=1, intermediate_size=32,
                              moe_intermediate_size=16, n_routed_experts=4, num_experts_per_tok=2, q_lora_rank=None,
                              kv_lora_rank=16, qk_nope_head_dim=cfg["qk_nope_head_dim"],
                              qk_rope_head_dim=cfg["qk_rope_head_dim"], v_head_dim=32, rope_theta=10000.0,
                              max_position_embeddings=cfg["max_position_embeddings"],
                              rope_scaling=copy.deepcopy(cfg["rope_scaling"]))
    return {"scaling": float(DeepseekV3Attention(config, 0).scaling),
            "attention_factor": float(DeepseekV3RotaryEmbedding(config).attention_scaling)}


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


# transformers' one warning that is advice, not a problem with the block: a longrope block without
# `factor` (Phi-3's convention) is asked to state it. The lesson does not repeat it.
ADVICE = "Please set the `factor` field of `rope_parameters`"


def transformers_warned(messages: list[str]) -> bool:
    """Did transformers warn about the block itself (its advice to longrope configs aside)?"""
    return any(ADVICE not in m for m in messages)


def lesson_rope(cfg: dict):
    """lessons.tools.rope_scaling's (inv_freq, attention_factor, the warnings it gave) for one rope record:
    the lesson's numbers behind transformers' checks."""
    import warnings

    from lessons.tools.rope_scaling import rope_inv_freq

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        inv_freq, attention_factor = rope_inv_freq(cfg["head_dim"], copy.deepcopy(cfg["rope_parameters"]),
                                                   max_position_embeddings=cfg["max_position_embeddings"],
                                                   seq_len=cfg["seq_len"])
    return inv_freq, attention_factor, [str(w.message) for w in caught]


def lesson_rope_by_layer_type(record: dict):
    from lessons.tools.rope_scaling import rope_inv_freq_by_layer_type

    return rope_inv_freq_by_layer_type(record["head_dim"], copy.deepcopy(record["rope_parameters"]),
                                       max_position_embeddings=record["max_position_embeddings"])


def lesson_deepseek_scaling(cfg: dict) -> dict:
    """The lesson's softmax scale and cos/sin factor for one DEEPSEEK_CONFIGS entry."""
    from lessons.context_extension import deepseek_softmax_multiplier, yarn_attention_factor

    p = cfg["rope_scaling"]
    width = cfg["qk_nope_head_dim"] + cfg["qk_rope_head_dim"]
    return {"scaling": width ** -0.5 * deepseek_softmax_multiplier(p["factor"], p["mscale_all_dim"]),
            "attention_factor": yarn_attention_factor(p["factor"], p["mscale"], p["mscale_all_dim"])}


def rel_err(a, b) -> float:
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300))) if a.size else 0.0
