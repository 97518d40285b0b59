"""Reference vectors for lessons/multimodal_rope.py, from transformers' and vLLM's own code.

Two files, each recording the release it comes from:

- tests/data/multimodal_rope_vectors.json, from transformers 5.24 (`write()`, under the reference
  venv .venv-ref: torch + transformers 5.24):

      .venv-ref/bin/python -c "import sys; sys.path.insert(0,'tests/reference'); \
  import _multimodal_rope_reference as r; r.write()"

  get_rope_index of Qwen2VLModel, Qwen2_5_VLModel and Qwen3VLModel, called unbound on a stub (a
  SimpleNamespace holding the only config values the method reads, with the class's own
  get_vision_position_ids bound to it; no model is built), and the rotary classes
  Qwen2VLRotaryEmbedding (sections) and Qwen3VLTextRotaryEmbedding (interleaved), built from a
  small text config: they hold buffers, no weights. 5.24 resumes the text after an image or
  video at start + max(h, w) / merge: kept as the witness of that rule (releases 5.3-5.24).
- tests/data/multimodal_rope_resume_vectors.json, the rule the Qwen team wrote (text resumes at
  the largest id + 1), from two witnesses (`write_resume()`, in a venv with torch and
  transformers 5.2.0, e.g. python3 -m venv /tmp/ref52; VLLM_SRC = an unzipped vllm 0.33.0 wheel):

      VLLM_SRC=/tmp/vllm /tmp/ref52/bin/python -c "import sys; sys.path.insert(0,'tests/reference'); \
  import _multimodal_rope_reference as r; r.write_resume()"

  transformers 5.2.0's get_rope_index (which finds images and videos from
  <|vision_start|> tokens, so every vision run here follows text), and vLLM 0.33.0's
  get_mrope_input_positions and iter_mm_grid_thw of Qwen2VLForConditionalGeneration and
  Qwen2_5_VLForConditionalGeneration: the two methods' source is read from the wheel's
  vllm/model_executor/models/qwen2_vl.py and qwen2_5_vl.py and compiled alone (numpy and torch
  are all they use), nothing else of vLLM is imported.

Both files also record, under "generate", the ids transformers hands the first generated token
(`transformers_generate_ids`): a tiny random Qwen2-VL (one layer; ids do not depend on weights) run
through generate() on the prompt, and through generate() continuing the prompt's cache, the path
that adds rope_deltas to the cache position.

`live_check()` recomputes the 5.24 file and compares the lesson's numpy functions with the live
library (check_live.py calls it), with the resume rule of the release it finds.
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
    {"name": "Qwen2.5-VL: a 12-step video at 0.7 s per temporal patch (float32 floors)", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [0.7],
     "parts": [["text", 2], ["video", [12, 4, 4]], ["text", 2]]},
    # Qwen3-VL: transformers gets the whole video's grid and splits it into one-frame grids itself;
    # the parts are the layout its processor writes: per frame "<t seconds>" + <|vision_start|>
    # (text), the frame, <|vision_end|> (text)
    {"name": "Qwen3-VL: an image, then a 3-step video with timestamps", "model": "qwen3_vl",
     "video_grid_thw": [[3, 4, 6]],
     "parts": [["text", 2], ["image", [1, 6, 4]], ["text", 8], ["video", [1, 4, 6]], ["text", 8],
               ["video", [1, 4, 6]], ["text", 8], ["video", [1, 4, 6]], ["text", 3]]},
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

    from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLModel

    cls = {"qwen2_vl": Qwen2VLModel, "qwen2_5_vl": Qwen2_5_VLModel, "qwen3_vl": Qwen3VLModel}[case["model"]]
    vision = types.SimpleNamespace(spatial_merge_size=2, tokens_per_second=case.get("tokens_per_second"))
    stub = types.SimpleNamespace(config=types.SimpleNamespace(vision_config=vision))
    stub.get_vision_position_ids = types.MethodType(cls.get_vision_position_ids, stub)
    kinds = torch.tensor([_tokens(case["parts"])])
    images = [g for k, g in case["parts"] if k == "image"]
    videos = case.get("video_grid_thw", [g for k, g in case["parts"] if k == "video"])
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
                 "(interleaved), float32; 'generate': the ids generate() hands the first generated token of a tiny "
                 "random Qwen2-VL, on the prompt and continuing its cache; written by "
                 "tests/reference/_multimodal_rope_reference.py",
        "versions": versions(),
        "rope_index": index,
        "cos_sin": cos_sin,
        "generate": [{**case, **transformers_generate_ids(case)} for case in GENERATE_CASES],
    }


def write() -> None:
    out = records()
    DATA.parent.mkdir(parents=True, exist_ok=True)
    lists = ("rope_index", "cos_sin", "generate")
    rows = {k: v for k, v in out.items() if k not in lists}
    text = json.dumps(rows, indent=1)[:-2] + ",\n"
    for key in lists:
        text += f' "{key}": [\n' + ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in out[key])
        text += "\n ]" + (",\n" if key != lists[-1] else "\n}\n")
    DATA.write_text(text, encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: {len(out['rope_index'])} get_rope_index cases, "
          f"{len(out['cos_sin'])} cos/sin tables, transformers {out['versions']['transformers']}")


# --- the authors' rule, from transformers 5.2.0 and vLLM 0.33.0 ---------------------------------
RESUME_DATA = ROOT / "tests" / "data" / "multimodal_rope_resume_vectors.json"
# Every vision run follows text (5.2.0 finds them from <|vision_start|>). Both witnesses are asked
# every case: 5.2.0 casts seconds per step to an integer (0.5 s -> 0), vLLM floors k · s · τ in float64.
RESUME_CASES = [
    {"name": "Qwen2-VL: text, one 4x4-patch image, text", "model": "qwen2_vl",
     "parts": [["text", 3], ["image", [1, 4, 4]], ["text", 2]]},
    {"name": "Qwen2-VL: a wide image, text, a 3-step video, text", "model": "qwen2_vl",
     "parts": [["text", 2], ["image", [1, 4, 6]], ["text", 3], ["video", [3, 4, 4]], ["text", 2]]},
    {"name": "Qwen2-VL: a tall image, text, a wide image, text", "model": "qwen2_vl",
     "parts": [["text", 1], ["image", [1, 8, 4]], ["text", 4], ["image", [1, 6, 10]], ["text", 1]]},
    {"name": "Qwen2-VL: a 32-step video of 8x8 patches (transformers #45381's shape)", "model": "qwen2_vl",
     "parts": [["text", 2], ["video", [32, 8, 8]], ["text", 3]]},
    {"name": "Qwen2.5-VL: video at 1 s per temporal patch, tokens_per_second 2", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [1.0],
     "parts": [["text", 2], ["video", [3, 4, 4]], ["text", 2]]},
    {"name": "Qwen2.5-VL: image, then videos at 1 s and 2 s per temporal patch", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [1.0, 2.0],
     "parts": [["text", 1], ["image", [1, 6, 4]], ["text", 2], ["video", [4, 4, 4]], ["text", 1],
               ["video", [5, 2, 4]], ["text", 3]]},
    {"name": "Qwen2.5-VL: a long video, tokens_per_second 4", "model": "qwen2_5_vl",
     "tokens_per_second": 4, "second_per_grid_ts": [1.0],
     "parts": [["text", 4], ["video", [8, 4, 6]], ["text", 3]]},
    {"name": "Qwen2.5-VL: the lesson's 10-second clip, 20 frames of 336 x 336", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [1.0],
     "parts": [["text", 5], ["video", [10, 24, 24]], ["text", 3]]},
    {"name": "Qwen2.5-VL: videos at 0.5 s and 2/3 s per temporal patch", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [0.5, 2.0 / 3.0],
     "parts": [["text", 1], ["image", [1, 6, 4]], ["text", 2], ["video", [4, 4, 4]], ["text", 1],
               ["video", [5, 2, 4]], ["text", 3]]},
    {"name": "Qwen2.5-VL: a 12-step video at 0.7 s per temporal patch", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [0.7],
     "parts": [["text", 2], ["video", [12, 4, 4]], ["text", 2]]},
    {"name": "Qwen2.5-VL: a 12-step video at 1.3 s per temporal patch", "model": "qwen2_5_vl",
     "tokens_per_second": 2, "second_per_grid_ts": [1.3],
     "parts": [["text", 2], ["video", [12, 4, 4]], ["text", 2]]},
]
# The first generated token (Qwen2-VL): the page's running example and the 32-step video
GENERATE_CASES = [
    {"name": "Qwen2-VL: the running example, 3 text tokens, a 1x8x12-patch image, 4 text tokens",
     "parts": [["text", 3], ["image", [1, 8, 12]], ["text", 4]]},
    {"name": "Qwen2-VL: a 32-step video of 8x8 patches", "parts": [["text", 2], ["video", [32, 8, 8]], ["text", 3]]},
]
# Qwen2-VL's token ids (its config.json and tokenizer): <|vision_start|>, <|image_pad|>, <|video_pad|>
VISION_START, IMAGE_PAD, VIDEO_PAD, TEXT = 151652, 151655, 151656, 9707


def _input_ids(parts) -> list[int]:
    """Token ids for one case: text is TEXT, except <|vision_start|> just before each vision run."""
    out = []
    for k, what in parts:
        if k == "text":
            out += [TEXT] * what
        else:
            out[-1] = VISION_START
            out += [IMAGE_PAD if k == "image" else VIDEO_PAD] * (what[0] * what[1] * what[2] // 4)
    return out


def transformers52_rope_index(case: dict) -> dict:
    """transformers 5.2.0's get_rope_index on one case, called unbound on a config stub."""
    import torch
    from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLModel
    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel

    vision = types.SimpleNamespace(spatial_merge_size=2, tokens_per_second=case.get("tokens_per_second"))
    config = types.SimpleNamespace(vision_config=vision, image_token_id=IMAGE_PAD, video_token_id=VIDEO_PAD,
                                   vision_start_token_id=VISION_START)
    stub = types.SimpleNamespace(config=config)
    images = [g for k, g in case["parts"] if k == "image"]
    videos = [g for k, g in case["parts"] if k == "video"]
    kwargs = dict(image_grid_thw=torch.tensor(images) if images else None,
                  video_grid_thw=torch.tensor(videos) if videos else None)
    if case["model"] == "qwen2_5_vl":
        kwargs["second_per_grid_ts"] = torch.tensor(case["second_per_grid_ts"], dtype=torch.float32)
    cls = {"qwen2_vl": Qwen2VLModel, "qwen2_5_vl": Qwen2_5_VLModel}[case["model"]]
    pos, delta = cls.get_rope_index(stub, torch.tensor([_input_ids(case["parts"])]), **kwargs)
    return {"position_ids": pos[:, 0].tolist(), "rope_delta": int(delta[0, 0])}


def transformers_generate_ids(case: dict) -> dict:
    """The (3,) ids the installed transformers hands the first generated token after one prompt, on a
    tiny random Qwen2-VL (one layer): "generate", from generate() on the prompt; "continue_from_cache",
    from generate() handed the prompt's cache and one more token (a chat that keeps its cache)."""
    import torch
    import transformers
    from transformers import Qwen2VLConfig, Qwen2VLForConditionalGeneration

    rope = {"rope_type": "default", "mrope_section": [2, 3, 3], "rope_theta": 10000.0}
    text = dict(vocab_size=151700, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                num_attention_heads=2, num_key_value_heads=1, rope_parameters=rope)
    vision = dict(depth=1, embed_dim=16, hidden_size=32, num_heads=2, mlp_ratio=2, patch_size=14,
                  spatial_merge_size=2, temporal_patch_size=2)
    config = Qwen2VLConfig(text_config=text, vision_config=vision, image_token_id=IMAGE_PAD,
                           video_token_id=VIDEO_PAD, vision_start_token_id=VISION_START)
    torch.manual_seed(0)
    model = Qwen2VLForConditionalGeneration(config).eval()
    seen = []  # the position_ids each forward hands the language model: (4 or 1, batch, n)
    model.model.language_model.register_forward_pre_hook(lambda m, a, kw: seen.append(kw["position_ids"]),
                                                         with_kwargs=True)
    ids = torch.tensor([_input_ids(case["parts"])])
    inputs = {"attention_mask": torch.ones_like(ids)}
    for k, grid in case["parts"]:
        if k != "text":  # random pixels: 3 channels x 2 frames x 14 x 14 per patch
            inputs["pixel_values" if k == "image" else "pixel_values_videos"] = torch.randn(
                grid[0] * grid[1] * grid[2], 1176)
            inputs[f"{k}_grid_thw"] = torch.tensor([grid])
    typed = tuple(int(v) for v in transformers.__version__.split(".")[:2]) >= (5, 3)
    if typed:  # from 5.3 get_rope_index reads the token types
        inputs["mm_token_type_ids"] = torch.tensor([_tokens(case["parts"])])
    greedy = {"do_sample": False, "pad_token_id": 0}
    model.generate(input_ids=ids, max_new_tokens=2, **greedy, **inputs)
    fresh = seen[1][-3:, 0, -1].tolist()  # the second forward reads the first generated token
    prompt = model(input_ids=ids, use_cache=True, **inputs)
    longer = torch.cat([ids, torch.tensor([[TEXT]])], dim=1)
    more = {k: v for k, v in inputs.items() if not k.startswith("pixel")}
    more["attention_mask"] = torch.ones_like(longer)
    if typed:
        more["mm_token_type_ids"] = torch.tensor([_tokens(case["parts"]) + [0]])
    seen.clear()
    model.generate(input_ids=longer, past_key_values=prompt.past_key_values, max_new_tokens=1, **greedy, **more)
    cont = seen[0][-1, 0, -1].item() if seen[0].shape[0] == 1 else seen[0][-3:, 0, -1].tolist()
    return {"transformers": transformers.__version__, "generate": fresh,
            "continue_from_cache": [cont] * 3 if isinstance(cont, int) else cont}


def _vllm_methods(model: str):
    """iter_mm_grid_thw and get_mrope_input_positions of vLLM's Qwen2(.5)-VL class, compiled alone
    from the wheel's source (VLLM_SRC: the unzipped wheel)."""
    import ast
    import os
    from collections.abc import Iterator

    import numpy as np
    import torch

    path = Path(os.environ["VLLM_SRC"]) / "vllm" / "model_executor" / "models" / f"{model}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = {"qwen2_vl": "Qwen2VLForConditionalGeneration", "qwen2_5_vl": "Qwen2_5_VLForConditionalGeneration"}[model]
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    wanted = [n for n in body if isinstance(n, ast.FunctionDef)
              and n.name in ("iter_mm_grid_thw", "get_mrope_input_positions")]
    namespace = {"np": np, "torch": torch, "Iterator": Iterator, "MultiModalFeatureSpec": object}
    exec(compile(ast.Module(body=wanted, type_ignores=[]), str(path), "exec"), namespace)
    return namespace["iter_mm_grid_thw"], namespace["get_mrope_input_positions"]


def vllm_rope_index(case: dict) -> dict:
    """vLLM 0.33.0's get_mrope_input_positions on one case: one feature per image or video, with
    its offset in the prompt and its grid (and seconds per step) as the processor hands them over."""
    import torch

    iter_grids, positions = _vllm_methods(case["model"])
    vision = types.SimpleNamespace(spatial_merge_size=2)
    if case.get("tokens_per_second") is not None:
        vision.tokens_per_second = case["tokens_per_second"]
    seconds = iter(case.get("second_per_grid_ts", []))
    features, offset = [], 0
    for k, what in case["parts"]:
        if k != "text":
            data = {f"{k}_grid_thw": types.SimpleNamespace(data=torch.tensor(what))}
            if k == "video" and case["model"] == "qwen2_5_vl":
                data["second_per_grid_ts"] = types.SimpleNamespace(
                    data=torch.tensor(next(seconds), dtype=torch.float32))
            features.append(types.SimpleNamespace(modality=k, data=data,
                                                  mm_position=types.SimpleNamespace(offset=offset)))
        offset += what if k == "text" else what[0] * what[1] * what[2] // 4
    stub = types.SimpleNamespace(config=types.SimpleNamespace(vision_config=vision))
    stub.iter_mm_grid_thw = types.MethodType(iter_grids, stub)
    pos, delta = positions(stub, _input_ids(case["parts"]), features)
    return {"position_ids": pos.tolist(), "rope_delta": int(delta)}


def write_resume() -> None:
    """Write tests/data/multimodal_rope_resume_vectors.json from transformers 5.2.0 and vLLM 0.33.0."""
    import os

    import torch
    import transformers

    meta = (Path(os.environ["VLLM_SRC"]) / "vllm-0.33.0.dist-info" / "METADATA").read_text(encoding="utf-8")
    vllm_version = next(line.split(": ")[1] for line in meta.splitlines() if line.startswith("Version: "))
    assert transformers.__version__ == "5.2.0" and vllm_version == "0.33.0", (transformers.__version__, vllm_version)
    rows = []
    for case in RESUME_CASES:
        for who in ("transformers_5_2_0", "vllm"):
            got = (transformers52_rope_index if who == "transformers_5_2_0" else vllm_rope_index)(case)
            rows.append({**case, "witness": who, **got})
    about = ("M-RoPE position ids under the rule the Qwen team wrote (text resumes at the largest id + 1), from "
             "transformers 5.2.0's get_rope_index (Qwen2VLModel, Qwen2_5_VLModel) and vLLM 0.33.0's "
             "get_mrope_input_positions (Qwen2VLForConditionalGeneration, Qwen2_5_VLForConditionalGeneration), "
             "written by tests/reference/_multimodal_rope_reference.py (write_resume). 5.2.0 truncates seconds "
             "per temporal patch to an integer; vLLM floors k * s * tokens_per_second in float64; 5.2.0's Qwen2-VL "
             "returns rope_delta clamped at 0 (max(..., 0)), its Qwen2.5-VL does not. 'generate': the ids 5.2.0 "
             "hands the first generated token of a tiny random Qwen2-VL, from generate() and from generate() "
             "continuing the prompt's cache.")
    out = {"about": about, "versions": {"transformers": transformers.__version__, "vllm": vllm_version,
                                        "torch": torch.__version__}}
    generate = [{**case, **transformers_generate_ids(case)} for case in GENERATE_CASES]
    text = json.dumps(out, indent=1)[:-2] + ',\n "rope_index": [\n'
    text += ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in rows) + "\n ],\n"
    text += ' "generate": [\n' + ",\n".join("  " + json.dumps(r) for r in generate) + "\n ]\n}\n"
    RESUME_DATA.write_text(text, encoding="utf-8")
    print(f"wrote {RESUME_DATA.relative_to(ROOT)}: {len(rows)} records, transformers {transformers.__version__}, "
          f"vLLM {vllm_version}")


def live_check(atol: float = 2e-5) -> list[str]:
    """Compare the lesson with the live library; returns failure strings (empty when all agree)."""
    import numpy as np

    from lessons.multimodal_rope import mm_token_types, mrope_cos_sin, rope_index_as

    import transformers

    # which release's switches (lessons.multimodal_rope.RELEASES) the live library should match
    release = tuple(int(v) for v in transformers.__version__.split(".")[:2])
    code = {(5, 0): "transformers 5.0.0, 5.1.0", (5, 1): "transformers 5.0.0, 5.1.0",
            (5, 2): "transformers 5.2.0"}.get(release, "transformers 5.18.0 to 5.24.0" if release >= (5, 18)
                                               else "transformers 5.6.0 to 5.17.0")
    failures = []
    for case in INDEX_CASES if release >= (5, 6) else []:  # 5.3-5.5 misnumber frames; 5.0-5.2 need the tokens
        want = transformers_rope_index(case)
        parts = case["parts"]
        ids, delta = rope_index_as(code, mm_token_types(*parts), [g for k, g in parts if k == "image"],
                                   [g for k, g in parts if k == "video"],
                                   tokens_per_second=case.get("tokens_per_second"),
                                   second_per_grid_ts=case.get("second_per_grid_ts"))
        ok = np.array_equal(ids, want["position_ids"]) and delta == want["rope_delta"]
        print(f"{'ok  ' if ok else 'FAIL'} mrope  {case['name']} ({code})")
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
