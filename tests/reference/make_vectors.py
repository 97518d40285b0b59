"""Write tests/data/reference_vectors.json from the installed `transformers`.

Run once, with the reference venv (torch + transformers, never the project venv):

    .venv-ref/bin/python tests/reference/make_vectors.py

It also writes tests/data/gallery_vectors.json: for every lessons/gallery/<slug>.json,
what the model's own config and rotary classes give each layer (tests/test_model_card_reference.py).

The file records the transformers and torch versions it came from. `make test`
compares the lessons with it without needing torch (tests/test_context_extension.py,
tests/test_alibi.py); tests/reference/check_live.py recomputes it live.
"""

from __future__ import annotations

import json

import _attention_sinks_reference
import _layer_schemes_reference
import _multimodal_rope_reference
import _position_ids_reference
import _precision_reference
from _gallery_reference import GALLERY_DATA, gallery, transformers_gallery
from _reference import (ALIBI_HEADS, CONFIGS, DATA, DEEPSEEK_CONFIGS, LAYER_TYPE_CONFIGS, transformers_alibi,
                        transformers_deepseek_scaling, transformers_layouts, transformers_rope,
                        transformers_rope_by_layer_type, versions)


def _short(x):
    """9 significant digits: enough to give back the exact float32 the library computed."""
    if isinstance(x, float):
        return float(f"{x:.9g}")
    if isinstance(x, list):
        return [_short(v) for v in x]
    if isinstance(x, dict):
        return {k: _short(v) for k, v in x.items()}
    return x


def _dump(out: dict) -> str:
    """One record per line: small, and a regenerated file diffs line by line."""
    lines = ["{"]
    lines.append(f' "about": {json.dumps(out["about"])},')
    lines.append(f' "versions": {json.dumps(out["versions"])},')
    keys = ("rope", "rope_by_layer_type", "deepseek_scaling", "alibi", "layouts")
    for key in keys:
        lines.append(f' "{key}": [')
        rows = [json.dumps(_short(r), separators=(",", ":")) for r in out[key]]
        lines.append(",\n".join("  " + r for r in rows))
        lines.append(" ]" if key == keys[-1] else " ],")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_gallery() -> None:
    """tests/data/gallery_vectors.json: one record per gallery slug, one record per line."""
    v = versions()
    rows = [json.dumps(_short({"slug": slug, **transformers_gallery(entry["config"]), "versions": v}),
                       separators=(",", ":")) for slug, entry in gallery().items()]
    about = ("Per-layer RoPE inverse frequencies and attention factors (null: the layer skips RoPE), NoPE layers, "
             "ALiBi slopes and layer types for every lessons/gallery/<slug>.json config, computed by each model's own "
             "transformers config and rotary classes (float32), written by tests/reference/make_vectors.py")
    text = "{\n" + f' "about": {json.dumps(about)},\n "versions": {json.dumps(v)},\n "gallery": [\n'
    text += ",\n".join("  " + r for r in rows) + "\n ]\n}\n"
    GALLERY_DATA.write_text(text, encoding="utf-8")
    print(f"wrote {GALLERY_DATA.relative_to(GALLERY_DATA.parents[2])}: {len(rows)} gallery configs")


def main() -> None:
    rope = []
    for cfg in CONFIGS:
        got = transformers_rope(cfg)
        rope.append({**cfg, "inv_freq": got["inv_freq"], "attention_factor": got["attention_factor"],
                     "transformers_warnings": got["warnings"]})
    by_layer_type = []
    for cfg in LAYER_TYPE_CONFIGS:
        got = transformers_rope_by_layer_type(cfg)
        assert got["head_dim"] == cfg["head_dim"], (cfg["name"], got["head_dim"])
        by_layer_type.append({"name": cfg["name"], "model": cfg["model"], "config_json": cfg["config_json"],
                              "max_position_embeddings": cfg["max_position_embeddings"], **got})
    deepseek = [{**cfg, **transformers_deepseek_scaling(cfg)} for cfg in DEEPSEEK_CONFIGS]
    alibi = []
    for n in ALIBI_HEADS:
        slopes = transformers_alibi(n)
        alibi.append({"n_heads": n, **slopes})
    out = {
        "about": "RoPE inverse frequencies and attention factors (with the warnings transformers logged), the "
                 "same per layer type (Gemma 3, Gemma 4), DeepSeek's softmax scale, ALiBi slopes, and both RoPE "
                 "layouts (Llama's rotate_half, GPT-J's rotate_every_two) computed by the transformers library "
                 "(float32), written by tests/reference/make_vectors.py",
        "versions": versions(),
        "rope": rope,
        "rope_by_layer_type": by_layer_type,
        "deepseek_scaling": deepseek,
        "alibi": alibi,
        "layouts": transformers_layouts(),
    }
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(_dump(out), encoding="utf-8")
    print(f"wrote {DATA.relative_to(DATA.parents[2])}: {len(rope)} rope configs, {len(by_layer_type)} split by "
          f"layer type, {len(deepseek)} DeepSeek scales, {len(alibi)} alibi head counts, "
          f"transformers {out['versions']['transformers']}, torch {out['versions']['torch']}")
    write_gallery()
    # the later lessons' reference vectors, each in its own file (tests/data/<lesson>_vectors.json)
    for lesson in (_layer_schemes_reference, _attention_sinks_reference, _position_ids_reference,
                   _multimodal_rope_reference, _precision_reference):
        lesson.write()


if __name__ == "__main__":
    main()
