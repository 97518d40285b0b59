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
    check.add_argument("--timeout", type=float, default=20.0, help="seconds the whole check may take (default 20)")
    check.add_argument("--show-output", action="store_true", help="also print what your code printed")
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
    return check_file(challenge, path, args.timeout, args.show_output)


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


def check_file(challenge: Challenge, path: Path, timeout: float, show_output: bool) -> int:
    """Run the properties in a separate process; print PASS/FAIL lines; 0 only when all pass."""
    if not path.is_file():
        print(f"no such file: {path}", file=sys.stderr)
        return 2
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "challenges._child", challenge.number, str(path.resolve())]
    timed_out = False
    try:
        run = subprocess.run(command, capture_output=True, timeout=timeout, env=env)
        out, err, code = run.stdout, run.stderr, run.returncode
    except subprocess.TimeoutExpired as stopped:
        out, err, code, timed_out = stopped.stdout or b"", stopped.stderr or b"", None, True

    plan: list[str] = []
    passed, imported, done = 0, False, False
    current = call = None
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        kind = event.get("kind")
        if kind == "plan":
            plan = event["names"]
        elif kind == "fatal":
            print(f"FAIL import: {event['message']}")
            return 1
        elif kind == "imported":
            imported = True
        elif kind == "missing":
            print(f"FAIL {event['name']}: {event['message']}")
        elif kind == "start":
            current, call = event["name"], None
        elif kind == "call":
            call = event["text"]
        elif kind == "result":
            passed += event["ok"]
            print(f"PASS {event['name']}" if event["ok"] else f"FAIL {event['name']}: {event['hint']}")
            current = None
        elif kind == "done":
            done = True

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
        print(f"FAIL {name}: {why}")
    if show_output and err.strip():
        print("--- what your code printed ---")
        print(err.decode("utf-8", "replace").rstrip())
    if done and passed == len(plan):
        print(f"all {len(plan)} properties pass")
        return 0
    print(f"{passed} of {len(plan) or '?'} properties pass")
    return 1


def _package_dir(challenge: Challenge) -> Path:
    return Path(importlib.import_module(challenge.package).__file__).parent


if __name__ == "__main__":
    raise SystemExit(main())
