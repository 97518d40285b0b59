"""The one way this project runs `mkdocs build`: `make build` (`python -m site_build.build`),
`make site` (site_build/publish.py), the benchmarks (bench/) and the tests all call
`mkdocs_build`, so they build alike.

    python -m site_build.build [--site-dir site]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


class BuildError(RuntimeError):
    """`mkdocs build` failed: the message holds its output when it was captured (otherwise MkDocs printed it)."""


def mkdocs_build(root: Path, site_dir: Path, env: Mapping[str, str] | None = None, *, capture: bool = False,
                 timeout: float | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the project at `root` (its mkdocs.yml) into `site_dir`, run in `root`
    in the environment `env` (default: this process's), with MkDocs 2.0's banner silenced. With
    `capture` its output comes back as text in the result instead of being printed; `timeout`
    seconds (default: none) raise subprocess.TimeoutExpired. A failed build raises BuildError,
    unless `check` is false: then the caller reads the result's return code."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    command = [str(mkdocs), "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d", str(site_dir)]
    result = subprocess.run(command, cwd=root, env=dict(os.environ if env is None else env, NO_MKDOCS_2_WARNING="1"),
                            capture_output=capture, text=True, timeout=timeout)
    if check and result.returncode != 0:
        output = f":\n{result.stdout}\n{result.stderr}" if capture else ""
        raise BuildError(f"mkdocs build of {root} into {site_dir} failed{output}")
    return result


def main(argv: list[str] | None = None) -> int:
    """`make build`: the project in the working directory, built into --site-dir."""
    parser = argparse.ArgumentParser(prog="python -m site_build.build", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", default="site", help="where the site goes (default: site)")
    args = parser.parse_args(argv)
    return mkdocs_build(Path.cwd(), Path(args.site_dir).resolve(), check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
