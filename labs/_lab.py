"""What every lab shares: running it as a script, on the lessons' code or on yours, and the verdict.

A lab is a percent-format script (`# %%` cells) that states its claims as checks and ends with
`verdict(...)`: it prints each claim as HOLDS or FAILS and exits 0 when every claim holds, 1
when one does not. On the site the same file is a notebook executed when the site is built, so
the numbers on the page are the numbers the code gives.

Run as a script (`python labs/<name>.py [--use FILE]`, `python -m labs.<name> [--use FILE]`),
the lab's first code cell calls `start(TAKES)`, which

- with `--use FILE`, runs the lab on the learner's functions from FILE instead of the lessons'
  (labs/_use.py: TAKES names the functions the lab takes, and from which challenge);
- then runs the lab's cells one by one. A cell that raises does not stop the lab: the error is
  printed in one line (no traceback) and the cells after it run on. A claim that needs what the
  cell computes (a name the cell assigns), or whose own check raises, prints
  `FAILS  <claim> (raised <Type>: <message>)`, and the lab exits 1.

In a notebook (the site's build) `start` does nothing: no command line is read, and a cell that
raises stops the build, as a notebook cell does.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import dis
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class _Run:
    """The script run under way: the exceptions of the cells that raised, by the names each assigns."""

    running: bool = False
    crashed: dict[str, BaseException] = field(default_factory=dict)  # name -> what its cell raised
    unclaimed: list[tuple[int, BaseException]] = field(default_factory=list)  # (line, error) no claim named
    verdict_code: int | None = None


_RUN = _Run()


def _in_notebook() -> bool:
    return "ipykernel" in sys.modules


def _said(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _where(error: BaseException) -> str:
    """file:line of the innermost frame: the learner's line when their function raised."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return "?"
    return f"{Path(tb.tb_frame.f_code.co_filename).name}, line {tb.tb_lineno}"


def _assigned(source: str) -> set[str]:
    """The names a cell's code binds: assignments, loop targets, imports, functions and classes."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _cells(text: str) -> list[tuple[int, str]]:
    """(first line number, source) of each `# %%` cell; a file with no markers is one cell."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("# %%")] or [0]
    if starts[0] != 0:
        starts.insert(0, 0)
    bounds = [*starts, len(lines)]
    return [(a, "".join(lines[a:b])) for a, b in zip(bounds, bounds[1:], strict=False)]


def _run_cells(path: Path, namespace: dict) -> None:
    """Run each cell of the lab at `path` in `namespace`; a cell that raises is told in one line."""
    for first, source in _cells(path.read_text(encoding="utf-8")):
        padded = "\n" * first + source  # so the line numbers are the file's
        try:
            exec(compile(padded, str(path), "exec"), namespace)
            for name in _assigned(source):  # computed again, in full
                _RUN.crashed.pop(name, None)
        except (SystemExit, KeyboardInterrupt):
            raise
        except Exception as error:  # any error of a cell is reported, not raised
            cause = _RUN.crashed.get(getattr(error, "name", None)) if isinstance(error, NameError) else None
            cause = cause or error
            for name in _assigned(source):  # what the cell computed may be missing or half done
                _RUN.crashed.setdefault(name, cause)
            if cause is error:
                print(f"raised  {_said(error)} ({_where(error)}); the lab goes on without the rest of that cell")
                _RUN.unclaimed.append((first + 1, error))


def start(takes: tuple = ()) -> None:
    """Run as a script: read `--use FILE`, then run the lab's cells (see the module's docstring).

    Does nothing in a notebook, or inside the run it starts itself (the lab's own first cell
    calls it again). Exits with the verdict's code when the lab is done.
    """
    caller = sys._getframe(1).f_globals
    file = caller.get("__file__")
    if _RUN.running or _in_notebook() or not file:
        return
    lab = Path(file).stem
    parser = argparse.ArgumentParser(prog=f"python labs/{lab}.py", description=(
        "Run the lab and print each claim as HOLDS or FAILS (exit 0 when all hold). "
        "With --use FILE, on your functions from FILE: " + (", ".join(
            sorted({f"{t.name} (Challenge {t.challenge})" for t in takes})) or "this lab takes none") + "."))
    parser.add_argument("--use", metavar="FILE", help="a Python file with your functions")
    args = parser.parse_args(sys.argv[1:])
    if args.use:
        from labs._use import use  # only a run with --use needs it

        for line in use(args.use, tuple(takes), lab):
            print(line)
    _RUN.running = True
    namespace = {"__name__": "__main__", "__file__": file, "__builtins__": builtins}
    try:
        _run_cells(Path(file), namespace)
    finally:
        _RUN.running = False
    if _RUN.verdict_code is None:
        print("FAILS  the lab reached its verdict (a cell raised before it)")
        sys.exit(1)
    sys.exit(_RUN.verdict_code or (1 if _RUN.unclaimed else 0))


def _globals_read(function: Callable) -> set[str]:
    """The global names a claim's function reads (its nested comprehensions and lambdas included)."""
    names, codes = set(), [getattr(function, "__code__", None)]
    while codes:
        code = codes.pop()
        if code is None:
            continue
        names.update(i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME"))
        codes.extend(c for c in code.co_consts if hasattr(c, "co_code"))
    return names


def _judge(claim) -> tuple[bool, BaseException | None]:
    """(holds, what its computation raised): a claim is a bool, or a function of no arguments."""
    if not callable(claim):
        return bool(claim), None
    crashed = [_RUN.crashed[n] for n in sorted(_globals_read(claim)) if n in _RUN.crashed]
    try:
        holds = bool(claim())
    except Exception as error:  # a claim whose check raises fails, naming it
        if isinstance(error, NameError) and getattr(error, "name", None) in _RUN.crashed:
            error = _RUN.crashed[error.name]
        return False, error
    if crashed:
        return False, crashed[0]
    return holds, None


def verdict(claims: dict[str, bool | Callable[[], bool]]) -> None:
    """Print each claim as HOLDS or FAILS; exit 0 if all hold, 1 otherwise.

    Args:
        claims: one sentence per claim -> whether the lab's numbers bear it out: a bool, or a
            function of no arguments returning one (`lambda: ...`), checked on its own so that
            a claim whose computation raises fails alone, naming what it raised.
    """
    judged = {text: _judge(claim) for text, claim in claims.items()}
    claimed = {id(error) for _, error in judged.values() if error is not None}
    for line, error in _RUN.unclaimed:
        if id(error) not in claimed:
            judged[f"every cell ran (the cell at line {line})"] = (False, error)
    for text, (holds, error) in judged.items():
        why = f" (raised {_said(error)})" if error is not None else ""
        print(f"{'HOLDS' if holds else 'FAILS'}  {text}{why}")
    failed = [text for text, (holds, _) in judged.items() if not holds]
    print(f"verdict: {len(judged) - len(failed)} of {len(judged)} claims hold")
    if _RUN.running:  # the script run: `start` exits when the cells are done
        _RUN.verdict_code = 1 if failed else 0
        return
    if failed and not _in_notebook():
        sys.exit(1)
    if failed:  # in the site's notebook build: stop the build, naming the claim
        raise AssertionError(f"claim does not hold: {failed[0]}")
