"""Write lessons/tools/registries.json: the architectures each engine release serves, read from its wheel.

    pip download --no-deps -d DIR vllm==0.33.0 sglang==0.5.23
    python tests/reference/registries.py DIR/vllm-0.33.0-*.whl DIR/sglang-0.5.23-*.whl

vLLM: every key of the dicts in vllm/model_executor/models/registry.py that name architectures
(_TEXT_GENERATION_MODELS, ..., _TRANSFORMERS_BACKEND_MODELS), those it serves only through its
transformers backend (values ("transformers", ...) and in no dict with a model of its own), and _PREVIOUSLY_SUPPORTED_MODELS with the last
release that served each. SGLang: every class named in an `EntryClass` of sglang/srt/models/*.py;
any other architecture goes to its transformers backend (srt/models/registry.py _normalize_archs).
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "lessons" / "tools" / "registries.json"


def _release(wheel: str) -> str:
    name, version = Path(wheel).name.split("-")[:2]
    return {"vllm": "vLLM", "sglang": "SGLang"}[name] + " " + version


def vllm(wheel: str) -> dict:
    tree = ast.parse(zipfile.ZipFile(wheel).read("vllm/model_executor/models/registry.py"))
    served, backend, native, previously = set(), set(), set(), {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else getattr(node, "target", None)
        value = getattr(node, "value", None)
        if not isinstance(target, ast.Name) or not isinstance(value, ast.Dict) or not target.id.endswith("_MODELS"):
            continue
        for key, val in zip(value.keys, value.values, strict=True):
            if not isinstance(key, ast.Constant):
                continue
            if target.id == "_PREVIOUSLY_SUPPORTED_MODELS":
                previously[key.value] = val.value
                continue
            served.add(key.value)
            if isinstance(val, ast.Tuple) and isinstance(val.elts[0], ast.Constant) and val.elts[0].value == "transformers":
                backend.add(key.value)
            else:
                native.add(key.value)
    return {"release": _release(wheel), "source": "vllm/model_executor/models/registry.py",
            "served": sorted(served), "transformers_backend": sorted(backend - native),
            "previously": dict(sorted(previously.items()))}


def sglang(wheel: str) -> dict:
    archive, served = zipfile.ZipFile(wheel), set()
    for name in archive.namelist():
        if not re.fullmatch(r"sglang/srt/models/[^/]+\.py", name):
            continue
        for node in ast.parse(archive.read(name)).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EntryClass" for t in node.targets):
                items = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
                served |= {i.id for i in items if isinstance(i, ast.Name)}
    return {"release": _release(wheel), "source": "sglang/srt/models/*.py EntryClass",
            "served": sorted(served), "fallback": "TransformersForCausalLM"}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    OUT.write_text(json.dumps({"vllm": vllm(argv[0]), "sglang": sglang(argv[1])}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
