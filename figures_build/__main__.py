"""`python -m figures_build`: write every lesson's figures to docs/figures/."""

from __future__ import annotations

import argparse
import sys

from figures_build import BuildError, build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m figures_build", description=__doc__)
    parser.add_argument("--force", action="store_true", help="rebuild every lesson, even unchanged ones")
    parser.add_argument("--lesson", metavar="SLUG", help="build this one lesson (always rebuilt)")
    parser.add_argument("--prune", action="store_true", help="delete SVGs that no lesson produces any more")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--root", default=".", help="the project directory (default: the current one)")
    args = parser.parse_args(argv)
    try:
        build(args.root, only=args.lesson, force=args.force, prune=args.prune, jobs=args.jobs)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
