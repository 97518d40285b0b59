"""The one way this project runs `mkdocs build`: `make build` (`python -m site_build.build`),
`make site` (site_build/publish.py), the benchmarks (bench/) and the tests all call
`mkdocs_build`, so they build alike.

    python -m site_build.build [--site-dir site]

What `make site` asks of a build beyond mkdocs.yml (the offline copy; the zip of it the site
serves) are arguments here, not environment variables: `build_config` writes them into a config
file beside mkdocs.yml that inherits it (MkDocs' INHERIT; mkdocs.yml lists its plugins as a
mapping so that one option can be set), and the build reads that file.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

CONFIG = "mkdocs.yml"


class BuildError(RuntimeError):
    """`mkdocs build` failed: the message holds its output when it was captured (otherwise MkDocs printed it)."""


@contextmanager
def build_config(root: Path, *, offline: bool = False, offline_zip: Path | None = None) -> Iterator[Path]:
    """The config file a build of the project at `root` reads: its mkdocs.yml, or, to build the
    offline copy (`offline`: Material's offline plugin enabled) or a site that serves the zip
    `offline_zip` (the primer plugin's option), a file written beside it (its relative paths
    and the project's root are mkdocs.yml's) that inherits it and sets those; removed afterwards."""
    plugins: dict[str, dict] = {}
    if offline:
        plugins["offline"] = {"enabled": True}
    if offline_zip is not None:
        plugins["primer"] = {"offline_zip": str(offline_zip)}
    if not plugins:
        yield root / CONFIG
        return
    handle, name = tempfile.mkstemp(prefix=".mkdocs-build-", suffix=".yml", dir=root)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(f"# site_build/build.py, for one build: {CONFIG} with these options\n"
                      + json.dumps({"INHERIT": CONFIG, "plugins": plugins}, indent=2) + "\n")
        yield Path(name)
    finally:
        Path(name).unlink(missing_ok=True)


def mkdocs_build(root: Path, site_dir: Path, env: Mapping[str, str] | None = None, *, offline: bool = False,
                 offline_zip: Path | None = None, capture: bool = False, timeout: float | None = None,
                 check: bool = True) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the project at `root` (its mkdocs.yml; `offline` and `offline_zip`
    as in `build_config`) into `site_dir`, run in `root` in the environment `env` (default: this
    process's), with MkDocs 2.0's banner silenced. With `capture` its output comes back as text
    in the result instead of being printed; `timeout` seconds (default: none) raise
    subprocess.TimeoutExpired. A failed build raises BuildError, unless `check` is false: then
    the caller reads the result's return code."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    with build_config(root, offline=offline, offline_zip=offline_zip) as config:
        command = [str(mkdocs), "build", "--strict", "-f", str(config), "-d", str(site_dir)]
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
