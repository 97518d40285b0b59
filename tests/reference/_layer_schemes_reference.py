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
  Gemma 4's apply_rotary_pos_emb with the proportional speeds of modeling_rope_utils;
- each family's own pairing at its config class's default factor (gpt_neox, glm, glm4, glm4_moe:
  lessons.layer_schemes.PAIRING_BY_MODEL_TYPE names the pairing the lesson expects);
- Mistral's llama_4_scaling_beta: get_llama_4_attn_scale of ministral3 and mistral4, and the query
  Ministral3Attention.forward hands to attention (RoPE made the identity, so the ratio is the scale);
- whether Llama4TextConfig accepts Scout's published "attn_temperature_tuning": 4;
- local and global layers in seven config classes (gemma3_text, olmo3, mimo_v2_flash, gemma4_text,
  modernbert, gemma2, gpt_oss): each kind's default base, and which kinds a rope_scaling block reaches.
Gemma 3's two bases and the proportional speeds themselves are in reference_vectors.json already.

"engine_switches" is read out of two engines' released source, not run (`engine_switches()`), and
needs their files: VLLM_SRC, an unzipped vllm 0.33.0 wheel (the directory holding vllm/ and
vllm-0.33.0.dist-info/), and LLAMA_CPP_SRC, the unpacked llama-cpp-python 0.3.36 sdist:

    VLLM_SRC=/tmp/vllm LLAMA_CPP_SRC=/tmp/llama_cpp_python-0.3.36 .venv-ref/bin/python -c \
        "import sys; sys.path.insert(0, 'tests/reference'); import _layer_schemes_reference as r; r.write()"

Without them write() keeps the records already in the file. vLLM: the gate in
Llama4ForCausalLM.__init__ (models/llama4.py: the generation config's key, else a comparison of
max_model_len with a threshold), parsed with ast, and Llama4Attention._get_attn_scale compiled
alone from the file and run on positions (torch is all it uses). llama.cpp: the constants
src/models/llama4.cpp sets, the GGUF keys it reads, and the multiplier's expression in
llm_graph_input_attn_temp::set_input (src/llama-graph.cpp), read with regular expressions.
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
PARTIAL = [("neox", 0.5, 10000.0), ("interleaved", 0.5, 10000.0), ("proportional", 0.5, 10000.0),
           ("neox", 0.25, 500.0), ("interleaved", 0.25, 500.0), ("proportional", 0.25, 500.0)]
BY_MODEL = ("gpt_neox", "glm", "glm4", "glm4_moe")
MISTRAL_CASES = [  # (beta, original_max_position_embeddings, first position, length)
    (0.1, 16384, 16380, 8),  # Ministral3Config's defaults: the first step at 16,384
    (0.1, 8192, 3 * 8192 - 3, 6),  # Mistral4Config's F
    (0.25, 4, 0, 40),
]
RTOL = 1e-5  # float32 library against float64 lessons: values of order 1, angles up to 100 rad


def seeded_input(seed: int = 0):
    import numpy as np

    return np.random.default_rng(seed).standard_normal(SHAPE)


def versions() -> dict:
    import torch
    import transformers

    return {"transformers": transformers.__version__, "torch": torch.__version__}


def query_scale(m, attn, forward_kwargs: dict, length: int) -> list[float]:
    """What attn's forward multiplies the query by, one number per position: the forward runs on seeded
    hidden states with module m's eager attention swapped for one that records the query it is handed
    (1, heads, seq, head_dim), which is then divided by q_proj's output."""
    import torch

    seen = {}

    def record(module, query, key, value, mask, **kwargs):
        seen["query"] = query
        return torch.zeros(1, query.shape[2], query.shape[1], query.shape[3]), None

    original, m.eager_attention_forward = m.eager_attention_forward, record
    try:
        torch.manual_seed(0)
        h = torch.randn(1, length, attn.q_proj.in_features)
        with torch.no_grad():
            attn(h, attention_mask=None, **forward_kwargs)
            plain = attn.q_proj(h).view(1, length, -1, attn.head_dim).transpose(1, 2)
    finally:
        m.eager_attention_forward = original
    return [float(r) for r in (seen["query"] / plain)[0, 0, :, 0]]


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
    cache = DynamicCache(config=config)
    if start:
        cache.update(torch.zeros(1, 2, start, 8), torch.zeros(1, 2, start, 8), 3)
    return query_scale(m, attn, {"position_embeddings": None, "cache": cache}, length)


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
    elif pairing == "interleaved":
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


def transformers_by_model(x, model_type: str) -> dict:
    """One family's rotary class and apply_rotary_pos_emb at its config class's default factor."""
    import importlib

    import torch
    from transformers import AutoConfig

    t = torch.tensor(x, dtype=torch.float32)[None]  # (1, heads, seq, d)
    d, ids = SHAPE[-1], torch.tensor([POSITIONS])
    small = {"hidden_size": 2 * d, "num_attention_heads": 2, "num_key_value_heads": 2, "head_dim": d,
             "num_hidden_layers": 1, "intermediate_size": 32}
    if model_type == "gpt_neox":
        small = {"hidden_size": 2 * d, "num_attention_heads": 2, "num_hidden_layers": 1, "intermediate_size": 32}
    if model_type == "glm4_moe":
        small |= {"moe_intermediate_size": 8, "n_routed_experts": 4, "num_experts_per_tok": 2}
    config = AutoConfig.for_model(model_type, **small)
    m = importlib.import_module(f"transformers.models.{model_type}.modeling_{model_type}")
    rotary = next(getattr(m, n) for n in dir(m) if n.endswith("RotaryEmbedding"))
    cos, sin = rotary(config)(t, ids)
    q, _ = m.apply_rotary_pos_emb(t, t, cos, sin)
    return {"model_type": model_type, "partial_rotary_factor": config.rope_parameters["partial_rotary_factor"],
            "base": config.rope_parameters["rope_theta"], "positions": POSITIONS, "output": q[0].tolist()}


def transformers_mistral_scale(beta: float, original: int, start: int, length: int) -> dict:
    """get_llama_4_attn_scale (ministral3's, and mistral4's copy checked equal) at positions
    start..start+length-1, and the ratio of the query Ministral3Attention.forward hands to attention
    to q_proj's output, with cos 1 and sin 0 so that RoPE leaves the query as it is."""
    import torch
    from transformers import Ministral3Config
    from transformers.models.ministral3 import modeling_ministral3 as m
    from transformers.models.mistral4.modeling_mistral4 import get_llama_4_attn_scale as mistral4_scale

    ids = torch.arange(start, start + length)[None]  # (1, seq)
    scale = m.get_llama_4_attn_scale(ids, beta, original)  # (1, 1, seq, 1)
    assert torch.equal(scale, mistral4_scale(ids, beta, original))
    config = Ministral3Config(hidden_size=16, num_attention_heads=2, num_key_value_heads=2, head_dim=8,
                              num_hidden_layers=1, intermediate_size=32, max_position_embeddings=16 * original,
                              rope_parameters={
                                  "rope_type": "yarn", "rope_theta": 1e6, "factor": 16.0,
                                  "original_max_position_embeddings": original, "beta_fast": 32.0,
                                  "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0,
                                  "llama_4_scaling_beta": beta})
    config._attn_implementation = "eager"
    attn = m.Ministral3Attention(config, layer_idx=0).eval()
    identity = (torch.ones(1, length, 8), torch.zeros(1, length, 8))  # RoPE at angle 0
    return {"beta": beta, "original_max_position_embeddings": original, "positions": ids[0].tolist(),
            "scale": [float(v) for v in scale.flatten()],
            "forward_scale": query_scale(m, attn, {"position_embeddings": identity, "position_ids": ids}, length)}


def llama4_switch() -> dict:
    """Whether transformers' Llama4TextConfig accepts Scout's published attn_temperature_tuning 4."""
    from transformers import Llama4TextConfig

    try:
        Llama4TextConfig(attn_temperature_tuning=4)
    except Exception as error:  # noqa: BLE001 - the class's own refusal is the record
        return {"value": 4, "accepted": False, "error": str(error).strip().splitlines()[-1].strip()}
    return {"value": 4, "accepted": True, "error": None}


LOCAL_GLOBAL_TYPES = ("gemma3_text", "olmo3", "mimo_v2_flash", "gemma4_text", "modernbert", "gemma2", "gpt_oss")


def local_global(model_type: str) -> dict:
    """A config class's defaults for its local (sliding) and global (full) layers: each kind's base,
    and which kinds a legacy rope_scaling block (linear, factor 8) reaches once the class has read it:
    "global", "both", or None when the class keeps the block whole instead of splitting it per kind
    (it takes rope_parameters per layer type only). A flat rope_parameters is one rotary for every layer."""
    from transformers import AutoConfig

    plain = AutoConfig.for_model(model_type).rope_parameters
    scaled = AutoConfig.for_model(model_type, rope_scaling={"rope_type": "linear", "factor": 8.0}).rope_parameters
    kinds = ("sliding_attention", "full_attention")
    if set(kinds) <= set(plain):
        local, glob = (plain[k]["rope_theta"] for k in kinds)
        hit = [k for k in kinds if set(kinds) <= set(scaled) and scaled[k].get("factor") == 8.0]
    else:
        local = glob = plain["rope_theta"]
        hit = list(kinds) if scaled.get("factor") == 8.0 else []
    reach = {0: None, 1: "global" if hit == ["full_attention"] else "local", 2: "both"}[len(hit)]
    return {"model_type": model_type, "local_base": local, "global_base": glob, "scaling_reaches": reach}


def _release(path: Path) -> str:
    """The Version: line of a wheel's METADATA or an sdist's PKG-INFO."""
    return next(line.split(": ", 1)[1] for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith("Version: "))


def vllm_llama4_gate(src: Path) -> dict:
    """vLLM's Llama 4 switch, read from vllm/model_executor/models/llama4.py: the key of the generation
    config that sets attn_temperature_tuning, the default it falls back to (a comparison: what, which
    operator, which threshold), and what _get_attn_scale returns at positions around its steps, run
    on the config's defaults (the getattr fallbacks of Llama4Attention.__init__)."""
    import ast

    import numpy as np
    import torch

    path = src / "vllm" / "model_executor" / "models" / "llama4.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    init = next(f for f in classes["Llama4ForCausalLM"].body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
    assigns = [n for n in ast.walk(init) if isinstance(n, ast.Assign)]
    default = next(a for a in assigns if ast.unparse(a.targets[0]) == "default_attn_temperature_tuning").value
    switch = next(a for a in assigns if ast.unparse(a.targets[0]).endswith("hf_config.attn_temperature_tuning")).value
    assert isinstance(default, ast.Compare) and len(default.ops) == 1, ast.unparse(default)
    assert ast.unparse(switch.func) == "gen_config.get" and ast.unparse(switch.args[1]) == "default_attn_temperature_tuning"
    attention = classes["Llama4Attention"].body
    fallbacks = {a.targets[0].attr: a.value.args[2].value for a in ast.walk(next(
        f for f in attention if isinstance(f, ast.FunctionDef) and f.name == "__init__"))
        if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call) and ast.unparse(a.value.func) == "getattr"
        and isinstance(a.targets[0], ast.Attribute) and a.targets[0].attr in ("floor_scale", "attn_scale")}
    method = next(f for f in attention if isinstance(f, ast.FunctionDef) and f.name == "_get_attn_scale")
    namespace = {"torch": torch}
    exec(compile(ast.Module(body=[method], type_ignores=[]), str(path), "exec"), namespace)
    positions = [0, 8190, 8191, 16382, 16383, 32767, 100_000, 10_485_759]
    stub = type("Stub", (), fallbacks)()
    scale = namespace["_get_attn_scale"](stub, torch.tensor(positions))  # int64 ids, as vLLM passes them
    forward = next(f for f in attention if isinstance(f, ast.FunctionDef) and f.name == "forward")
    calls = [ast.unparse(c.args[0]) for c in ast.walk(forward) if isinstance(c, ast.Call)
             and ast.unparse(c.func) == "self._get_attn_scale"]
    return {"engine": "vLLM", "release": f"vLLM {_release(src / 'vllm-0.33.0.dist-info' / 'METADATA')}",
            "file": "vllm/model_executor/models/llama4.py", "function": "Llama4ForCausalLM.__init__",
            "generation_config_key": switch.args[0].value, "reads": ast.unparse(default.left),
            "operator": {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<="}[type(default.ops[0])],
            "threshold": default.comparators[0].value, "defaults": fallbacks,
            "counts": calls[0] if len(calls) == 1 else calls, "positions": positions,
            "scale": [float(v) for v in np.asarray(scale).ravel()]}


def llama_cpp_llama4(src: Path) -> dict:
    """llama.cpp's Llama 4 temperature, read from the sdist's vendor/llama.cpp: the constants
    src/models/llama4.cpp sets when the model is chunked, the GGUF keys its load_arch_hparams reads,
    and the multiplier's expression in llm_graph_input_attn_temp::set_input (src/llama-graph.cpp)."""
    import re

    root = src / "vendor" / "llama.cpp"
    model = (root / "src" / "models" / "llama4.cpp").read_text(encoding="utf-8")
    hparams = model.split("load_arch_tensors")[0]

    def number(name):
        return float(re.search(rf"hparams\.{name}\s*=\s*([0-9.]+)f?;", hparams).group(1))

    graph = (root / "src" / "llama-graph.cpp").read_text(encoding="utf-8")
    set_input = graph.split("void llm_graph_input_attn_temp::set_input")[1].split("\n}\n")[0]
    return {"engine": "llama.cpp", "release": f"llama-cpp-python {_release(src / 'PKG-INFO')}",
            "file": "vendor/llama.cpp/src/models/llama4.cpp", "floor_scale": number("n_attn_temp_floor_scale"),
            "attn_scale": number("f_attn_temp_scale"), "offset": number("f_attn_temp_offset"),
            "keys_read": sorted(set(re.findall(r"get_key\w*\((LLM_KV_\w+)", hparams))),
            "counts": re.search(r"const float pos = (.*?);", set_input).group(1),
            "formula": " ".join(re.search(r"attn_scale_data\[i\] = (.*?);", set_input, re.S).group(1).split())}


def engine_switches() -> list[dict] | None:
    """The two engines' records, from VLLM_SRC and LLAMA_CPP_SRC; None when either is not set."""
    import os

    if not (os.environ.get("VLLM_SRC") and os.environ.get("LLAMA_CPP_SRC")):
        return None
    return [vllm_llama4_gate(Path(os.environ["VLLM_SRC"])), llama_cpp_llama4(Path(os.environ["LLAMA_CPP_SRC"]))]


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
        "by_model": [{"input": x.tolist(), **transformers_by_model(x, t)} for t in BY_MODEL],
        "mistral_scale": [transformers_mistral_scale(*case) for case in MISTRAL_CASES],
        "llama4_switch": [llama4_switch()],
        "local_global": [local_global(t) for t in LOCAL_GLOBAL_TYPES],
    }


def lesson_answer(kind: str, record: dict):
    """The lesson's numbers for one record, as a numpy array."""
    import numpy as np

    from lessons.layer_schemes import (PAIRING_BY_MODEL_TYPE, deepseek_rotary, llama4_attn_temperature,
                                       mistral_attn_scale, partial_rotary)

    if kind == "temperature":
        return llama4_attn_temperature(record["positions"], record["attn_scale"], record["floor_scale"])
    if kind == "mistral_scale":
        return mistral_attn_scale(record["positions"], record["beta"], record["original_max_position_embeddings"])
    x = np.asarray(record["input"])
    if kind == "deepseek_rotary":
        return deepseek_rotary(x, record["positions"], record["base"])
    pairing = PAIRING_BY_MODEL_TYPE[record["model_type"]][0] if kind == "by_model" else record["pairing"]
    return partial_rotary(x, record["positions"], record["partial_rotary_factor"], record["base"], pairing)


def want(kind: str, record: dict):
    return record["scale"] if kind in ("temperature", "mistral_scale") else record["output"]


def mismatches(data: dict) -> list[str]:
    """One line per record where the lesson and the reference differ beyond RTOL (relative to the
    record's largest value)."""
    import numpy as np

    out = []
    for kind in CHECKED:
        for record in data[kind]:
            ref = np.asarray(want(kind, record))
            err = float(np.max(np.abs(lesson_answer(kind, record) - ref)) / np.max(np.abs(ref)))
            if not err <= RTOL:
                name = record.get("pairing", record.get("model_type", ""))
                out.append(f"layer_schemes {kind} {name} {record['positions'][:2]}...: "
                           f"relative error {err:.1e}")
    out += [f"layer_schemes mistral_scale {r['positions'][:2]}...: the forward pass and the function differ"
            for r in data["mistral_scale"] if not np.allclose(r["forward_scale"], r["scale"], rtol=RTOL)]
    from lessons.layer_schemes import LOCAL_GLOBAL

    out += [f"layer_schemes local_global {r['model_type']}: the class gives {r}, LOCAL_GLOBAL says "
            f"{LOCAL_GLOBAL.get(r['model_type'])}" for r in data.get("local_global", [])
            if LOCAL_GLOBAL.get(r["model_type"]) != (r["local_base"], r["global_base"], r["scaling_reaches"])]
    return out


CHECKED = ("temperature", "deepseek_rotary", "partial", "by_model", "mistral_scale")


def write() -> None:
    v = versions()
    data = {"about": "Llama 4's NoPE-layer query temperature (Llama4TextAttention.forward), DeepSeek-V3's "
                     "rotary slice (apply_rotary_pos_emb_interleave), partial rotary in GPT-NeoX's, GLM's and "
                     "Gemma 4's proportional pairing, each family's own pairing (gpt_neox, glm, glm4, glm4_moe), "
                     "Mistral's llama_4_scaling_beta (get_llama_4_attn_scale, Ministral3Attention.forward) and "
                     "whether Llama4TextConfig accepts attn_temperature_tuning 4, and each local/global config class's "
                     "bases and where its rope_scaling goes, each from transformers' own code in float32; and "
                     "engine_switches, Llama 4's temperature gate and constants read from vLLM 0.33.0's "
                     "models/llama4.py and llama-cpp-python 0.3.36's src/models/llama4.cpp (each record names "
                     "its release), written by tests/reference/_layer_schemes_reference.py",
            "versions": v, **records()}
    engines = engine_switches()
    if engines is None:  # no engine sources given: keep the records already written
        engines = json.loads(DATA.read_text(encoding="utf-8"))["engine_switches"]
        print("engine_switches kept from the file (set VLLM_SRC and LLAMA_CPP_SRC to read them again)")
    data["engine_switches"] = engines
    lines = ["{", f' "about": {json.dumps(data["about"])},', f' "versions": {json.dumps(v)},']
    kinds = (*CHECKED, "llama4_switch", "local_global", "engine_switches")
    for kind in kinds:
        rows = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in data[kind])
        lines.append(f' "{kind}": [\n{rows}\n ]' + ("" if kind == kinds[-1] else ","))
    DATA.write_text("\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: transformers {v['transformers']}, torch {v['torch']}")


def live_check() -> list[str]:
    """Recompute every record with the installed transformers and compare the lesson with it."""
    failures = mismatches({"about": "", **records()})
    print(f"layer_schemes: {'ok' if not failures else 'FAIL'} temperature, DeepSeek rotary, partial rotary, "
          "pairing by family, Mistral's scale")
    return failures
