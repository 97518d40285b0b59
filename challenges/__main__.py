"""`python -m challenges`: list the challenges, write a starter file, check a solution.

    python -m challenges                          # the list
    python -m challenges starter 04 [PATH]        # the starter file (never overwrites without --force)
    python -m challenges check 04 PATH            # PASS/FAIL per property; exit 0 only when all pass

Exit codes: 0 done (every property passes), 1 a property fails or the file
cannot be checked, 2 a usage error (unknown challenge, no such file).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

from challenges import CHALLENGES, Challenge, find

ROOT = Path(__file__).resolve().parent.parent  # holds challenges/ and lessons/


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m challenges", description="Exercises with a checker.")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("list", help="list the challenges (the default)")
    starter = commands.add_parser("starter", help="write a challenge's starter file")
    starter.add_argument("number", help="the challenge, e.g. 04")
    starter.add_argument("path", nargs="?", help="file or folder to write (default: ./<starter name>)")
    starter.add_argument("--force", action="store_true", help="overwrite an existing file")
    check = commands.add_parser("check", help="check a solution file, property by property")
    check.add_argument("number", help="the challenge, e.g. 04")
    check.add_argument("path", nargs="?", help="your solution file (default: ./<starter name>)")
    check.add_argument("--timeout", type=float, default=20.0,
                       help="seconds the checks of each function may take (default 20)")
    check.add_argument("--show-output", action="store_true", help="also print what your code printed")
    check.add_argument("--repro", metavar="DIR",
                       help="write each failing property's calls (a script and its inputs) into DIR")
    args = parser.parse_args(argv)

    if args.command in (None, "list"):
        return list_challenges()
    challenge = find(args.number)
    if challenge is None:
        print(f"no challenge {args.number}; `python -m challenges` lists them", file=sys.stderr)
        return 2
    path = Path(args.path or challenge.starter_name)
    if args.command == "starter":
        return write_starter(challenge, path, args.force)
    return check_file(challenge, path, args.timeout, args.show_output, args.repro)


def list_challenges() -> int:
    for c in CHALLENGES:
        print(f"{c.number}  {c.title} ({c.level})")
    print("\npython -m challenges starter NN   writes the starter file")
    print("python -m challenges check NN FILE   checks your solution")
    return 0


def write_starter(challenge: Challenge, path: Path, force: bool) -> int:
    if path.is_dir():
        path = path / challenge.starter_name
    if path.exists() and not force:
        print(f"{path} exists; pass --force to overwrite it", file=sys.stderr)
        return 1
    path.write_text(_package_dir(challenge).joinpath("starter.py").read_text(encoding="utf-8"), encoding="utf-8")
    print(f"wrote {path}: fill in the functions, then run\n    python -m challenges check {challenge.number} {path}")
    return 0


def check_file(challenge: Challenge, path: Path, timeout: float, show_output: bool, repro: str | None = None) -> int:
    """Run the properties, one process per function under test (each with its own `timeout`),
    print PASS/FAIL lines, and return 0 only when all pass.

    A file that cannot be imported is reported once, from the first process. A hint that
    repeats an earlier one of the same function (the same error, whatever call it came
    from) is printed once, and the properties that share it are named on one line.
    """
    if not path.is_file():
        print(f"no such file: {path}", file=sys.stderr)
        return 2
    functions = list(importlib.import_module(f"{challenge.package}.checks").FUNCTIONS)
    planned = passed = 0
    printed: list[str] = []
    for function in functions:
        result = _check_function(challenge, path, function, timeout, repro)
        planned += result["planned"]
        passed += result["passed"]
        printed.append(result["err"])
        for line in result["lines"]:
            print(line)
        if result["stop"]:  # the file does not import: every other process would say the same
            return 1
    if show_output and "".join(printed).strip():
        print("--- what your code printed ---")
        print("".join(printed).rstrip())
    if planned and passed == planned:
        print(f"all {planned} properties pass")
        return 0
    if repro and any(Path(repro).glob("*.py")):
        print(f"the failing properties' calls are in {repro}/: `python {repro}/<property>.py` runs one again")
    elif not repro:
        print("(--repro DIR writes each failing property's calls and inputs, to run them again yourself)")
    print(f"{passed} of {planned or '?'} properties pass")
    return 1


def _same_kind(hint: str) -> str:
    """A hint without the call it came from: 'apply_rope(x of shape (1, 2)) raised X' -> 'raised X'
    (likewise 'returned ...', 'changed ...' and 'hit ...'); any other hint is its own kind."""
    found = [(hint.find(f") {verb} "), verb) for verb in ("raised", "returned", "changed", "hit")]
    at, verb = min(((i, v) for i, v in found if i >= 0), default=(-1, ""))
    return hint[at + 2:] if at >= 0 else hint


def _check_function(challenge: Challenge, path: Path, function: str, timeout: float, repro: str | None) -> dict:
    """One process: the properties of `function`. Returns its printed lines and counts."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "challenges._child", challenge.number, str(path.resolve()), function,
               *([str(Path(repro).resolve())] if repro else [])]
    timed_out = False
    try:
        run = subprocess.run(command, capture_output=True, timeout=timeout, env=env)
        out, err, code = run.stdout, run.stderr, run.returncode
    except subprocess.TimeoutExpired as stopped:
        out, err, code, timed_out = stopped.stdout or b"", stopped.stderr or b"", None, True

    plan: list[str] = []

    def finish(printed: list[str], passed: int, stop: bool) -> dict:
        """lines to print, properties planned and passed, the learner's output, whether to stop."""
        return {"lines": printed, "planned": len(plan), "passed": passed, "err": err.decode("utf-8", "replace"),
                "stop": stop}

    lines: list[str] = []
    passed, imported, done = 0, False, False
    current = call = None
    first_of: dict[str, str] = {}  # a hint's kind -> the first property that failed with it
    repeats: dict[str, list[str]] = {}
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        kind = event.get("kind")
        if kind == "plan":
            plan = event["names"]
        elif kind == "fatal":
            return finish([f"FAIL import: {event['message']}"], 0, stop=True)
        elif kind == "imported":
            imported = True
        elif kind == "missing":
            lines.append(f"FAIL {event['name']}: {event['message']}")
        elif kind == "start":
            current, call = event["name"], None
        elif kind == "call":
            call = event["text"]
        elif kind == "result":
            passed += event["ok"]
            if event["ok"]:
                lines.append(f"PASS {event['name']}")
            else:
                same = _same_kind(event["hint"])
                if same in first_of:
                    repeats[same].append(event["name"])
                else:
                    first_of[same], repeats[same] = event["name"], []
                    lines.append(f"FAIL {event['name']}: {event['hint']}")
            current = None
        elif kind == "done":
            done = True
    for same, names in repeats.items():
        if names:
            more = f"{len(names)} more propert{'y fails' if len(names) == 1 else 'ies fail'} the same way"
            lines.append(f"FAIL {', '.join(names)}: the same as {first_of[same]} ({more})")

    if not done:
        name = "import" if not imported else current or "check"
        if timed_out and not imported:
            why = (f"importing {path.name} did not finish within {timeout:g} s "
                   "(a loop or a long computation at the top level?)")
        elif timed_out:
            why = (f"{call or 'the check'} did not return within {timeout:g} s "
                   "(an endless loop? --timeout sets the limit)")
        elif not plan:  # the checker itself could not start
            last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit code {code}"]
            why = f"the checker could not start: {last[0]}"
        else:
            why = (f"the process stopped (exit code {code}) inside {call or 'the check'}: "
                   "a crash, os._exit or out of memory")
        lines.append(f"FAIL {name}: {why}")
        reported = {line[5:].partition(":")[0] for line in lines}
        after = plan[plan.index(current) + 1:] if current in plan else []
        left = [p for p in after if p not in reported]
        if imported and left:
            lines.append(f"FAIL {', '.join(left)}: not run, since {call or function} never returned")
        if not imported:
            return finish(lines, passed, stop=True)
    return finish(lines, passed, stop=False)


def _package_dir(challenge: Challenge) -> Path:
    return Path(importlib.import_module(challenge.package).__file__).parent


if __name__ == "__main__":
    raise SystemExit(main())
