"""The checker's separate process: `python -m challenges._child NN FILE [FUNCTION [REPRO_DIR]]`.

Imports the learner's FILE and runs challenge NN's properties (those of
FUNCTION only, when it is given: the checker runs one process per function,
so a hang in one still lets the other be checked), writing one
JSON event per line to stdout (`plan`, `imported`, `start`, `call`,
`result`, `missing`, `fatal`, `done`); `python -m challenges check` reads them,
prints the PASS/FAIL lines and enforces the time limit. Anything the
learner's code prints goes to stderr, never into the events. With REPRO_DIR,
each failing property's calls are written there as a script and its inputs
(`write_repro`), for the learner to run again by hand. A file that uses
this project's own implementation is refused (`borrowed`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

import numpy as np

from challenges import find
from challenges._props import Fail, Solution

MODULE_NAME = "_challenge_solution"
ROOT = Path(__file__).resolve().parents[1]  # this project: challenges/ and lessons/ are in it


def main(number: str, file: str, function: str | None = None, repro: str | None = None) -> int:
    events = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # the learner's prints (Python's or C's) land on stderr

    def emit(**event) -> None:
        events.write(json.dumps(event) + "\n")
        events.flush()

    challenge = find(number)
    checks = importlib.import_module(f"{challenge.package}.checks")
    properties = [p for p in checks.PROPERTIES if function is None or p.needs == function]
    emit(kind="plan", names=[p.name for p in properties])
    path = Path(file).resolve()
    sol = Solution(None, path, emit, getattr(checks, "NOT_FINITE_CAUSES", None))
    try:
        sol.module = load(path)
    except (Exception, SystemExit) as exc:
        emit(kind="fatal", message=f"cannot import {path.name}: {sol.one_line(exc)}")
        return 1
    used = borrowed(sol.module, path)
    if used:
        emit(kind="fatal", message=f"{path.name} uses {used}, this project's own implementation; "
                                   "write the functions yourself (numpy is all you need)")
        return 1
    emit(kind="imported")
    wanted = [name for name in checks.FUNCTIONS if function is None or name == function]
    missing = {name for name in wanted if not callable(getattr(sol.module, name, None))}
    for name in sorted(missing, key=wanted.index):
        emit(kind="missing", name=name, message=f"{path.name} defines no function {checks.FUNCTIONS[name]}")
    for prop in properties:
        if prop.needs in missing:
            continue
        emit(kind="start", name=prop.name)
        sol.calls.clear()
        try:
            prop.check(sol)
        except Fail as fail:
            if repro:
                write_repro(Path(repro), prop.name, path, sol.calls)
            emit(kind="result", name=prop.name, ok=False, hint=str(fail))
        except (Exception, SystemExit) as exc:  # a learner's object that breaks the comparisons
            emit(kind="result", name=prop.name, ok=False, hint=f"the check could not finish: {sol.one_line(exc)}")
        else:
            emit(kind="result", name=prop.name, ok=True, hint="")
    emit(kind="done")
    return 0


def load(path: Path):
    """Import the file at `path` as a module (any file name), its folder on sys.path."""
    sys.dont_write_bytecode = True  # leave no __pycache__ next to the learner's file
    sys.path.insert(0, str(path.parent))
    loader = importlib.machinery.SourceFileLoader(MODULE_NAME, str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(MODULE_NAME, loader))
    sys.modules[MODULE_NAME] = module
    loader.exec_module(module)
    return module


# the packages of this project: an answer that imports from them is not the learner's own
PROJECT_PACKAGES = ("lessons", "challenges", "labs", "papers", "experiments", "modelcard", "project")


def borrowed(module, path: Path) -> str | None:
    """What the learner's module takes from this project: 'lessons.rope (line 3)', or None.

    Looks at what the module holds once imported (modules, functions, classes, however they were
    imported, importlib included) and refuses those whose file is this project's own, so a
    learner's helper module that happens to be called `project` or `labs` is theirs to use. The
    line is that of the import statement, read with the file's declared encoding."""
    lines: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_bytes())):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        for name in names:
            lines.setdefault(name, node.lineno)
    for value in vars(module).values():
        if inspect.ismodule(value):
            home, name = value.__name__, ""
        elif callable(value):
            home, name = getattr(value, "__module__", None) or "", getattr(value, "__name__", "?")
        else:
            continue
        if home.split(".")[0] in PROJECT_PACKAGES and _ours(getattr(sys.modules.get(home), "__file__", None)):
            line = lines.get(home) or lines.get(home.split(".")[0])
            return f"{home} (line {line})" if line else f"{home}.{name}" if name else home
    return None


def _ours(file: str | None) -> bool:
    """Whether `file` is a module of this project's packages."""
    if not file:
        return False
    found = Path(file).resolve()
    return any(found.is_relative_to(ROOT / package) for package in PROJECT_PACKAGES)


def write_repro(folder: Path, prop: str, answer: Path, calls: list[tuple[str, str, tuple, dict]]) -> None:
    """folder/<prop>.py and .npz: the property's calls on the learner's file, to run again by hand.

    Arrays go into the .npz (a0, a1, ... and k_<name> for keyword arguments); other values
    are written into the script as Python literals."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    lines = []
    for n, (text, name, args, kwargs) in enumerate(calls):
        def literal(value, key: str) -> str:
            if isinstance(value, np.ndarray):
                arrays[key] = value
                return f"saved[{key!r}]"
            return repr(value)

        parts = [literal(a, f"c{n}_a{i}") for i, a in enumerate(args)]
        parts += [f"{k}={literal(v, f'c{n}_k_{k}')}" for k, v in kwargs.items()]
        lines.append(f"print({text!r})\nprint(answer.{name}({', '.join(parts)}))\n")
    np.savez(folder / f"{prop}.npz", **arrays)
    (folder / f"{prop}.py").write_text(REPRO.format(prop=prop, answer=str(answer), calls="\n".join(lines)),
                                       encoding="utf-8")


REPRO = '''"""The calls the checker made for `{prop}`, on your file: run `python {prop}.py` and compare."""

import importlib.util
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location("answer", {answer!r})
answer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(answer)
saved = np.load(Path(__file__).with_suffix(".npz"))
np.set_printoptions(precision=4, suppress=True)

{calls}'''


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:5]))
