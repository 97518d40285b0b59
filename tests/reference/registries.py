"""Write modelcard/registries.json: the architectures each engine release serves, read from its wheel.

    pip download --no-deps -d DIR vllm==0.33.0 sglang==0.5.23 transformers==5.19.0
    pip download --no-deps --no-binary :all: -d DIR llama-cpp-python==0.3.36
    python tests/reference/registries.py DIR/vllm-0.33.0-*.whl DIR/sglang-0.5.23-*.whl DIR/transformers-5.19.0-*.whl \
        DIR/llama_cpp_python-0.3.36.tar.gz

vLLM: every key of the dicts in vllm/model_executor/models/registry.py that name architectures
(_TEXT_GENERATION_MODELS, ..., _TRANSFORMERS_BACKEND_MODELS), those it serves only through its
transformers backend (values ("transformers", ...) and in no dict with a model of its own), and _PREVIOUSLY_SUPPORTED_MODELS with the last
release that served each. SGLang: every class named in an `EntryClass` of sglang/srt/models/*.py;
any other architecture goes to its transformers backend (srt/models/registry.py _normalize_archs), which
serves only the classes transformers marks compatible (srt/model_loader/utils.py resolve_transformers_arch;
vLLM's registry tries the same backend, _try_resolve_transformers, before it refuses a dropped architecture).
transformers: the model classes of 5.19.0 (SGLang 0.5.23 pins it; vLLM 0.33.0 takes 5.16.1 to 5.20) whose
`_supports_attention_backend` is True, on the class or a base (is_backend_compatible, modeling_utils.py).
llama.cpp (as vendored in llama-cpp-python 0.3.36): every architecture a `@ModelBase.register(...)` in
vendor/llama.cpp/conversion/*.py names on a text class (one that does not derive from MmprojModel, which
converts only a vision tower); convert_hf_to_gguf picks the class by `architectures[0]`
(conversion/base.py get_model_architecture, from_model_architecture).
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tarfile
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
        if target.id == "_OOT_SUPPORTED_MODELS":  # moved out of tree: vLLM refuses them, naming the plugin
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


def transformers_backend(wheel: str) -> dict:
    archive, classes = zipfile.ZipFile(wheel), {}
    for name in archive.namelist():
        if not re.fullmatch(r"transformers/models/[^/]+/modeling_[^/]+\.py", name):
            continue
        for cls in (n for n in ast.parse(archive.read(name)).body if isinstance(n, ast.ClassDef)):
            flag = None
            for st in cls.body:
                target = st.targets[0] if isinstance(st, ast.Assign) else getattr(st, "target", None)
                if getattr(target, "id", None) == "_supports_attention_backend" and isinstance(st.value, ast.Constant):
                    flag = bool(st.value.value)
            classes.setdefault(cls.name, ([getattr(b, "id", getattr(b, "attr", None)) for b in cls.bases], flag))

    def compatible(name: str, seen: tuple = ()) -> bool:
        if name not in classes or name in seen:
            return False
        bases, flag = classes[name]
        return flag if flag is not None else any(compatible(b, (*seen, name)) for b in bases if b)

    version = Path(wheel).name.split("-")[1]
    return {"release": f"transformers {version}", "source": "modeling_utils.py is_backend_compatible",
            "compatible": sorted(n for n in classes if re.search(r"For[A-Z]\w*$", n) and compatible(n))}


def llama_cpp(sdist: str) -> dict:
    classes, arch_names = {}, {}  # class name: (base names, architectures it registers, its MODEL_ARCH member)
    with tarfile.open(sdist) as archive:
        for member in archive.getmembers():
            if member.name.endswith("/vendor/llama.cpp/gguf-py/gguf/constants.py"):  # MODEL_ARCH_NAMES: member -> name
                for node in ast.parse(archive.extractfile(member).read()).body:
                    if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "MODEL_ARCH_NAMES":
                        arch_names = {k.attr: v.value for k, v in zip(node.value.keys, node.value.values, strict=True)}
            if not re.fullmatch(r"[^/]+/vendor/llama\.cpp/conversion/[^/]+\.py", member.name):
                continue
            for cls in (n for n in ast.parse(archive.extractfile(member).read()).body if isinstance(n, ast.ClassDef)):
                names = [a.value for d in cls.decorator_list if isinstance(d, ast.Call)
                         and getattr(d.func, "attr", None) == "register" for a in d.args if isinstance(a, ast.Constant)]
                arch = next((st.value.attr for st in cls.body if isinstance(st, ast.Assign)
                             and getattr(st.targets[0], "id", None) == "model_arch"
                             and isinstance(st.value, ast.Attribute)), None)
                classes[cls.name] = ([getattr(b, "id", getattr(b, "attr", None)) for b in cls.bases], names, arch)

    def vision_only(name: str) -> bool:
        bases = classes.get(name, ([], []))[0]
        return name == "MmprojModel" or any(vision_only(b) for b in bases if b and b != name)

    def arch_of(name: str) -> str | None:  # the class's model_arch, or the first base's that sets one
        bases, _, arch = classes.get(name, ([], [], None))
        return arch or next((a for b in bases if b and b != name and (a := arch_of(b))), None)

    gguf = {a: arch_names.get(arch_of(name)) for name, (_, archs, _) in classes.items() if not vision_only(name)
            for a in archs}
    version = Path(sdist).name.removesuffix(".tar.gz").split("-")[-1]
    return {"release": f"llama.cpp (llama-cpp-python {version})", "source": "conversion/*.py ModelBase.register",
            "converted": sorted(gguf),
            # the GGUF architecture each writes (general.architecture; gguf-py/gguf/constants.py MODEL_ARCH_NAMES)
            "gguf_arch": dict(sorted((a, n) for a, n in gguf.items() if n))}


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    OUT.write_text(json.dumps({"vllm": vllm(argv[0]), "sglang": sglang(argv[1]),
                               "transformers_backend": transformers_backend(argv[2]),
                               "llama.cpp": llama_cpp(argv[3])}, indent=1) + "\n",
                   encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
