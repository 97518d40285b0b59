"""Reference vectors for lessons/multimodal_rope.py, from transformers' own code.

Run under the reference venv (.venv-ref: torch + transformers 5.24):

    .venv-ref/bin/python -c "import sys; sys.path.insert(0,'tests/reference'); \
import _multimodal_rope_reference as r; r.write()"

What is called, all without weights:
- get_rope_index of Qwen2VLModel and Qwen2_5_VLModel (transformers 5.24), called unbound on a
  stub: a SimpleNamespace holding the only attributes the method reads
  (config.vision_config.spatial_merge_size and tokens_per_second) and the class's own
  get_vision_position_ids bound to it. No model is built.
- the rotary classes Qwen2VLRotaryEmbedding (sections) and Qwen3VLTextRotaryEmbedding
  (interleaved; its recomposition_frequencies is what older releases called
  apply_interleaved_mrope), built from a small text config: they hold buffers, no weights.

`write()` writes tests/data/multimodal_rope_vectors.json; `live_check()` recomputes it and
compares the lesson's numpy functions with the live library (check_live.py calls it).
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "multimodal_rope_vectors.json"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# One sequence per case: parts are ("text", n), ("image", [t, h, w]) or ("video", [t, h, w]) patch grids.
INDEX_CASES = [
    {"name": "Qwen2-VL: text, one 4x4-patch image, text", "model": "qwen2_vl",
     "parts": [["text", 3], ["image", [1, 4, 4]], ["text", 2]]},
    {"name": "Qwen2-VL: a wide image, text, a 3-step video, text", "model": "qwen2_vl",
     "parts": [["text", 2], ["image", [1, 4, 6]], ["text", 3], ["video", [3, 4, 4]], ["text", 2]]},
    {"name": "Qwen2-VL: image first, a tall image later", "model": "qwen2_vl",
     "parts": [["image", [1, 8, 4]], ["text", 4], ["image", [1, 6, 10]], ["text", 1]]},
    {"name": "Qwen2.5-VL: video at 1 s per temporal patch, tokens_per_second 2", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [1.0],
     "parts": [["text", 2], ["video", [3, 4, 4]], ["text", 2]]},
    {"name": "Qwen2.5-VL: image, then videos at 0.5 s and 2/3 s per temporal patch", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [0.5, 2.0 / 3.0],
     "parts": [["text", 1], ["image", [1, 6, 4]], ["text", 2], ["video", [4, 4, 4]], ["text", 1],
               ["video", [5, 2, 4]], ["text", 3]]},
    {"name": "Qwen2.5-VL: a long video, tokens_per_second 4 (transformers' default)", "model": "qwen2_5_vl",
     "tokens_per_second": 4, "second_per_grid_ts": [1.0],
     "parts": [["text", 4], ["video", [8, 4, 6]], ["text", 3]]},
]

# cos/sin of the rotary classes on the ids of an index case (+ an offset, to reach larger angles)
COS_SIN_CASES = [
    {"name": "sections 4/6/6, head_dim 32, base 10,000", "class": "Qwen2VLRotaryEmbedding", "head_dim": 32,
     "mrope_section": [4, 6, 6], "rope_theta": 10000.0, "interleaved": False, "case": 1, "offset": 0},
    {"name": "Qwen2-VL sections 16/24/24, head_dim 128, base 1,000,000", "class": "Qwen2VLRotaryEmbedding",
     "head_dim": 128, "mrope_section": [16, 24, 24], "rope_theta": 1000000.0, "interleaved": False,
     "case": 3, "offset": 100},
    {"name": "interleaved 6/5/5, head_dim 32, base 10,000", "class": "Qwen3VLTextRotaryEmbedding",
     "head_dim": 32, "mrope_section": [6, 5, 5], "rope_theta": 10000.0, "interleaved": True, "case": 1,
     "offset": 0},
    {"name": "interleaved 24/20/20 (Qwen3-VL's split), head_dim 128, base 5,000,000", "class": "Qwen3VLTextRotaryEmbedding",
     "head_dim": 128, "mrope_section": [24, 20, 20], "rope_theta": 5000000.0, "interleaved": True, "case": 3,
     "offset": 100},
    {"name": "Qwen2-VL's split 16/24/24 interleaved, head_dim 128, base 1,000,000",
     "class": "Qwen3VLTextRotaryEmbedding", "head_dim": 128, "mrope_section": [16, 24, 24],
     "rope_theta": 1000000.0, "interleaved": True, "case": 2, "offset": 0},
]


def _tokens(parts) -> list[int]:
    kind = {"text": 0, "image": 1, "video": 2}
    out = []
    for k, what in parts:
        out += [kind[k]] * (what if k == "text" else what[0] * what[1] * what[2] // 4)
    return out


def transformers_rope_index(case: dict) -> dict:
    """transformers' get_rope_index on one case: {"position_ids": (3, n) list, "rope_delta": int}."""
    import torch
    from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLModel
    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel

    cls = {"qwen2_vl": Qwen2VLModel, "qwen2_5_vl": Qwen2_5_VLModel}[case["model"]]
    vision = types.SimpleNamespace(spatial_merge_size=2, tokens_per_second=case.get("tokens_per_second"))
    stub = types.SimpleNamespace(config=types.SimpleNamespace(vision_config=vision))
    stub.get_vision_position_ids = types.MethodType(cls.get_vision_position_ids, stub)
    kinds = torch.tensor([_tokens(case["parts"])])
    images = [g for k, g in case["parts"] if k == "image"]
    videos = [g for k, g in case["parts"] if k == "video"]
    kwargs = {}
    if case["model"] == "qwen2_5_vl":  # the processor hands these over as a float tensor
        kwargs["second_per_grid_ts"] = torch.tensor(case["second_per_grid_ts"], dtype=torch.float32)
    pos, delta = cls.get_rope_index(stub, torch.zeros_like(kinds), mm_token_type_ids=kinds,
                                    image_grid_thw=torch.tensor(images) if images else None,
                                    video_grid_thw=torch.tensor(videos) if videos else None, **kwargs)
    return {"position_ids": pos[:, 0].tolist(), "rope_delta": int(delta[0, 0])}


def transformers_cos_sin(case: dict, position_ids) -> dict:
    """cos and sin (n, head_dim) from the rotary class for (3, n) ids."""
    import torch
    from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLTextConfig
    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding
    from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLTextConfig
    from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding

    params = {"rope_type": "default", "mrope_section": case["mrope_section"], "rope_theta": case["rope_theta"]}
    if case["interleaved"]:
        params["mrope_interleaved"] = True
        config = Qwen3VLTextConfig(hidden_size=2 * case["head_dim"], num_attention_heads=2,
                                   head_dim=case["head_dim"], rope_parameters=params)
        rotary = Qwen3VLTextRotaryEmbedding(config)
    else:
        config = Qwen2VLTextConfig(hidden_size=2 * case["head_dim"], num_attention_heads=2,
                                   head_dim=case["head_dim"], rope_parameters=params)
        rotary = Qwen2VLRotaryEmbedding(config)
    ids = torch.tensor(position_ids)[:, None, :]  # (3, batch 1, n)
    cos, sin = rotary(torch.zeros(1, dtype=torch.float32), ids)
    def f32(t):  # 9 significant digits hold a float32 exactly
        return [[float(f"{v:.9g}") for v in row] for row in t.tolist()]

    return {"inv_freq": rotary.inv_freq.tolist(), "cos": f32(cos[0]), "sin": f32(sin[0])}


def versions() -> dict:
    import torch
    import transformers

    return {"transformers": transformers.__version__, "torch": torch.__version__}


def records() -> dict:
    index = [{**case, **transformers_rope_index(case)} for case in INDEX_CASES]
    cos_sin = []
    for case in COS_SIN_CASES:
        ids = [[v + case["offset"] for v in row] for row in index[case["case"]]["position_ids"]]
        cos_sin.append({**case, "position_ids": ids, **transformers_cos_sin(case, ids)})
    return {
        "about": "M-RoPE position ids (get_rope_index of Qwen2VLModel and Qwen2_5_VLModel, called unbound on a "
                 "stub) and the cos/sin tables of Qwen2VLRotaryEmbedding (sections) and Qwen3VLTextRotaryEmbedding "
                 "(interleaved), float32, written by tests/reference/_multimodal_rope_reference.py",
        "versions": versions(),
        "rope_index": index,
        "cos_sin": cos_sin,
    }


def write() -> None:
    out = records()
    DATA.parent.mkdir(parents=True, exist_ok=True)
    rows = {k: v for k, v in out.items() if k not in ("rope_index", "cos_sin")}
    text = json.dumps(rows, indent=1)[:-2] + ",\n"
    for key in ("rope_index", "cos_sin"):
        text += f' "{key}": [\n' + ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in out[key])
        text += "\n ]" + (",\n" if key == "rope_index" else "\n}\n")
    DATA.write_text(text, encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: {len(out['rope_index'])} get_rope_index cases, "
          f"{len(out['cos_sin'])} cos/sin tables, transformers {out['versions']['transformers']}")


def live_check(atol: float = 2e-5) -> list[str]:
    """Compare the lesson with the live library; returns failure strings (empty when all agree)."""
    import numpy as np

    from lessons.multimodal_rope import get_rope_index, mm_token_types, mrope_cos_sin

    failures = []
    for case in INDEX_CASES:
        want = transformers_rope_index(case)
        parts = case["parts"]
        ids, delta = get_rope_index(mm_token_types(*parts), [g for k, g in parts if k == "image"],
                                    [g for k, g in parts if k == "video"],
                                    tokens_per_second=case.get("tokens_per_second"),
                                    second_per_grid_ts=case.get("second_per_grid_ts"))
        ok = np.array_equal(ids, want["position_ids"]) and delta == want["rope_delta"]
        print(f"{'ok  ' if ok else 'FAIL'} mrope  {case['name']}")
        if not ok:
            failures.append(f"get_rope_index {case['name']}")
    for case in COS_SIN_CASES:
        want_ids = transformers_rope_index(INDEX_CASES[case["case"]])["position_ids"]
        ids = np.asarray(want_ids) + case["offset"]
        want = transformers_cos_sin(case, ids.tolist())
        cos, sin = mrope_cos_sin(ids, np.asarray(want["inv_freq"]), case["mrope_section"], case["interleaved"])
        err = max(float(np.max(np.abs(cos - want["cos"]))), float(np.max(np.abs(sin - want["sin"]))))
        print(f"{'ok  ' if err <= atol else 'FAIL'} mrope  cos/sin {case['name']}: max abs error {err:.1e}")
        if err > atol:
            failures.append(f"mrope cos/sin {case['name']}")
    return failures
