"""Where a result came from: the configuration hash's code (`code_hash`) and each result's provenance.

The hash reads CODE byte for byte, then run.py and every lesson module the suite imports
without their docstrings (a prose fix re-runs nothing); `provenance` says whether that code
differs from the commit's (`dirty`). Nothing here changes a result, so this file is not hashed.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import platform
import subprocess
from pathlib import Path

import numpy as np
import torch

from project.model import without_docstrings

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
CODE = ("tasks.py", "model.py", "train.py")  # the files whose every byte goes into the configuration hash
# and, without their docstrings, run.py and every lesson module the suite imports (`lesson_modules`)


def lesson_modules() -> list[str]:
    """The lesson modules the suite imports, directly or through one another (read from the import lines)."""
    def imported(path: Path) -> set[str]:
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "lessons":
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names if alias.name.split(".")[0] == "lessons"}
        return names

    todo = set().union(*(imported(HERE / file) for file in (*CODE, "run.py")))
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo |= imported(module_path(module))
    return sorted(seen)


def module_path(module: str) -> Path:
    path = ROOT / (module.replace(".", "/") + ".py")
    return path if path.exists() else ROOT / module.replace(".", "/") / "__init__.py"


def hashed_sources() -> list[tuple[str, str]]:
    """(name, text) of everything the configuration hash reads: CODE byte for byte, then run.py and
    the lesson modules without their docstrings (a prose fix re-runs nothing)."""
    out = [(f"experiments/{file}", (HERE / file).read_text(encoding="utf-8")) for file in CODE]
    out.append(("experiments/run.py", without_docstrings((HERE / "run.py").read_text(encoding="utf-8"))))
    for module in lesson_modules():
        out.append((module, without_docstrings(module_path(module).read_text(encoding="utf-8"))))
    return out


def code_hash() -> str:
    """sha256 of the code the results depend on (`hashed_sources`)."""
    digest = hashlib.sha256()
    for name, text in hashed_sources():
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()


def provenance() -> dict:
    """Where a result came from: the commit, library versions, the CPU and the BLAS."""
    def git(*args):
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() \
        else platform.processor()
    torch_blas = next((part.split("=", 1)[1] for line in torch.__config__.show().splitlines()
                       for part in line.replace(",", " ").split() if part.startswith("BLAS_INFO=")), "unknown")
    try:
        numpy_blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        numpy_blas = f"{numpy_blas.get('name')} {numpy_blas.get('version')}"
    except Exception:  # noqa: BLE001 - older numpy has no dict mode; the field is informative only
        numpy_blas = "unknown"
    # dirty: the hashed code differs from the commit's (results, docstrings and other files do not count)
    sources = hashed_sources()
    paths = [name if name.startswith("experiments/") else str(module_path(name).relative_to(ROOT))
             for name, _ in sources]
    committed = committed_files(paths)
    dirty = False
    for path, (_, text) in zip(paths, sources, strict=True):
        old = committed.get(path, "")
        if old and path.removeprefix("experiments/") not in CODE:
            old = without_docstrings(old)
        dirty |= old.strip() != text.strip()
    return dict(commit=git("rev-parse", "HEAD"), dirty=dirty,
                torch=torch.__version__, numpy=np.__version__, python=platform.python_version(),
                cpu=cpu, machine=platform.machine(), torch_blas=torch_blas, numpy_blas=numpy_blas,
                torch_threads=torch.get_num_threads(), code=code_hash())


def committed_files(paths: list[str]) -> dict[str, str]:
    """{path: its text at HEAD} for the paths git knows, read by one `git cat-file --batch`."""
    try:
        done = subprocess.run(["git", "cat-file", "--batch"], cwd=ROOT, capture_output=True, timeout=30,
                              input="".join(f"HEAD:{p}\n" for p in paths).encode())
    except (OSError, subprocess.SubprocessError):
        return {}
    out, data = {}, done.stdout
    for path in paths:  # each answer: "<sha> blob <size>\n<bytes>\n", or "<name> missing\n"
        header, _, data = data.partition(b"\n")
        if header.endswith(b"missing") or not header:
            continue
        size = int(header.split()[2])
        out[path], data = data[:size].decode("utf-8"), data[size + 1:]
    return out


def write_json(path: Path, record: dict) -> None:
    """Write beside, then rename: an interrupted run leaves no partial JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)
