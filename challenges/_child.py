"""The checker's separate process: `python -m challenges._child NN FILE [FUNCTION]`.

Imports the learner's FILE and runs challenge NN's properties (those of
FUNCTION only, when it is given: the checker runs one process per function,
so a hang in one still lets the other be checked), writing one
JSON event per line to stdout (`plan`, `imported`, `start`, `call`,
`result`, `missing`, `fatal`, `done`); `python -m challenges check` reads them,
prints the PASS/FAIL lines and enforces the time limit. Anything the
learner's code prints goes to stderr, never into the events.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

from challenges import find
from challenges._props import Fail, Solution

MODULE_NAME = "_challenge_solution"


def main(number: str, file: str, function: str | None = None) -> int:
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
    sol = Solution(None, path, emit)
    try:
        sol.module = load(path)
    except (Exception, SystemExit) as exc:
        emit(kind="fatal", message=f"cannot import {path.name}: {sol.one_line(exc)}")
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
        try:
            prop.check(sol)
        except Fail as fail:
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


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:4]))
