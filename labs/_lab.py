"""What every lab shares: running it as a script, on the lessons' code or on yours, and the verdict.

A lab is a percent-format script (`# %%` cells) that states its claims as checks and ends with
`verdict(...)`: it prints each claim as HOLDS or FAILS and exits 0 when every claim holds, 1
when one does not. On the site the same file is a notebook executed when the site is built, so
the numbers on the page are the numbers the code gives.

Run as a script (`python labs/<name>.py [--use FILE]`, `python -m labs.<name> [--use FILE]`, or
in a notebook `%run <name>.py [--use FILE]`: whatever run has the lab's own file as `sys.argv[0]`),
the lab's first code cell calls `start(TAKES)`, which

- with `--use FILE`, runs the lab on the learner's functions from FILE instead of the lessons'
  (labs/_use.py: TAKES names the functions the lab takes, and from which challenge);
- then runs the lab's cells one by one. A cell that raises does not stop the lab: the error is
  printed in one line (no traceback) and the cells after it run on. A claim that needs what the
  cell had still to compute (a name the cell assigns at or after the line that raised), or whose
  own check raises, prints `FAILS  <claim> (raised <Type>: <message>)`, naming the cell's error
  first, and the lab exits 1.

In any other run (the site's notebook build, whose `sys.argv[0]` is ipykernel's launcher) `start`
does nothing, and a cell that raises stops the build, as a notebook cell does; but a `--use` on
such a run's command line is refused in one line (exit 2), never silently ignored.
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

# The width, in inches, of every figure a notebook draws (a lab's, the worked notebook's): shown as one
# inline SVG, with no phone rendition, it is drawn as narrow as a lesson figure's phone rendition, the
# widest at which its smallest text (10.5 pt) renders at 10 px in a phone's 358 px column and at its
# natural 14 px on a desktop (site_build/layout.py's phone_width; tests/test_notebook_figures.py holds
# the two equal). A constant here, not an import: a lab's download runs with numpy and matplotlib alone.
FIGURE_WIDTH = 5.2


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


def _run_as_the_command(file: str) -> bool:
    """Whether the command line is the lab's own (`python FILE`, `-m`, IPython's `%run FILE`): its
    argv[0] is the lab's file. ipykernel's argv[0] is its launcher, so a notebook reads no arguments."""
    try:
        return bool(sys.argv and sys.argv[0]) and Path(sys.argv[0]).resolve() == Path(file).resolve()
    except (OSError, RuntimeError):
        return False


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


def _assigned(source: str, since: int | None = None, before: bool = False) -> set[str]:
    """The names a cell's code binds: assignments (`x = `, and `x[...] = `, `x.a = `, which change x),
    loop targets, imports, functions and classes. With `since` (a line of `source`), only those its
    top-level statements ending at or after that line bind (`before`: ending before it)."""
    names: set[str] = set()
    try:
        body = ast.parse(source).body
    except SyntaxError:  # the cell did not compile: it bound nothing
        return names
    for statement in body:
        if since is not None and (statement.end_lineno < since) != before:
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
                while isinstance(node, (ast.Subscript, ast.Attribute)):
                    node = node.value
                if isinstance(node, ast.Name):
                    names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _cell_line(error: BaseException, filename: str) -> int | None:
    """The line of the cell's own code that raised (the call into the learner's function, say), or None."""
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == filename and code.co_name == "<module>":
            return tb.tb_lineno
        tb = tb.tb_next
    return None


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
            line = _cell_line(error, str(path))  # None: the cell did not even compile, so none of it ran
            for name in _assigned(padded, line, before=True) - _assigned(padded, line):  # done before it raised
                _RUN.crashed.pop(name, None)
            for name in _assigned(padded, line):  # what the cell had still to compute: missing or half done
                _RUN.crashed.setdefault(name, cause)
            if cause is error:
                print(f"raised  {_said(error)} ({_where(error)}); the lab goes on without the rest of that cell")
                _RUN.unclaimed.append((first + 1, error))


def start(takes: tuple = ()) -> None:
    """Run as a script: read `--use FILE`, then run the lab's cells (see the module's docstring).

    Does nothing unless the command line is the lab's own (argv[0] its file: not in the site's
    notebook), or inside the run it starts itself (the lab's own first cell calls it again); a
    `--use` on any other command line stops the lab in one line (exit 2) rather than be ignored.
    Exits with the verdict's code when the lab is done.
    """
    caller = sys._getframe(1).f_globals
    file = caller.get("__file__")
    if _RUN.running or not file:
        return
    lab = Path(file).stem
    if not _run_as_the_command(file):
        if any(a.split("=")[0] in ("--u", "--us", "--use") for a in sys.argv[1:]):
            print(f"--use cannot be read here: this run's command line ({' '.join(sys.argv)}) is not the lab's own "
                  f"(its first word is not {file}), so the lab would run on the lessons' code; run "
                  f"`python {file} --use FILE`, or in a notebook `%run {file} --use FILE`", file=sys.stderr)
            raise SystemExit(2)
        return
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
    """The global names a claim's function reads: its nested comprehensions and lambdas included, and
    those of the lab's own functions it calls (defined in the same file), and theirs."""
    code = getattr(function, "__code__", None)
    space = getattr(function, "__globals__", {})
    names: set[str] = set()
    codes, seen = [code], set()
    while codes:
        code = codes.pop()
        if code is None or code in seen:
            continue
        seen.add(code)
        read = {i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
        names.update(read)
        codes.extend(c for c in code.co_consts if hasattr(c, "co_code"))
        codes.extend(space[n].__code__ for n in read if getattr(getattr(space.get(n), "__code__", None),
                                                                 "co_filename", None) == code.co_filename)
    return names


def _judge(claim) -> tuple[bool, BaseException | None]:
    """(holds, what its computation raised): a claim is a bool, or a function of no arguments."""
    if not callable(claim):
        return bool(claim), None
    raised = [error for _, error in _RUN.unclaimed]  # in the order the cells raised
    crashed = sorted({id(_RUN.crashed[n]): _RUN.crashed[n] for n in _globals_read(claim) if n in _RUN.crashed}.values(),
                     key=lambda error: next((i for i, e in enumerate(raised) if e is error), len(raised)))
    if crashed:  # what it needs was never computed: name the cell's error, not what checking the rest raises
        return False, crashed[0]
    try:
        holds = bool(claim())
    except Exception as error:  # a claim whose check raises fails, naming it
        if isinstance(error, NameError) and getattr(error, "name", None) in _RUN.crashed:
            error = _RUN.crashed[error.name]
        return False, error
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
