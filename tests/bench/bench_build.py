"""`make bench`: how long the author's loop takes, as medians of several runs.

Measured on a throw-away copy of the project (the working tree is not
touched): a cold figure build, a no-change rebuild (which must do no figure
work at all), a rebuild after one lesson changed, and `mkdocs build` with the
diagrams drawn anew (cold) and from the cache (what an author's rebuild costs).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def copy_project(dest: Path) -> Path:
    for item in ("lessons", "figures_build", "hooks", "docs", "mkdocs.yml"):
        src = ROOT / item
        if src.is_dir():
            shutil.copytree(src, dest / item, ignore=shutil.ignore_patterns("__pycache__", "figures"))
        else:
            shutil.copy(src, dest / item)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    return dest


def timed(cmd: list[str], cwd: Path) -> tuple[float, str]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    start = time.perf_counter()
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{result.stdout}\n{result.stderr}")
    return elapsed, result.stdout + result.stderr


def main() -> None:
    figures = [sys.executable, "-m", "figures_build", "--root", "."]
    mkdocs = [str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "-q", "-d", "site"]
    samples: dict[str, list[float]] = {"cold figure build": [], "no-change rebuild": [],
                                       "one lesson changed": [], "mkdocs build, cold": [],
                                       "mkdocs build, cached": []}
    lessons_built = None
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp))
        sys.path.insert(0, str(project))
        from lessons import discover, imported_lessons

        lessons = discover(project / "lessons")
        slugs = [lesson.slug for lesson in lessons]
        imported = set().union(*(imported_lessons(lesson.source) for lesson in lessons))
        leaf = [slug for slug in slugs if slug not in imported][-1]  # no other lesson imports it
        target = project / "lessons" / f"{leaf}.py"
        for run in range(RUNS):
            shutil.rmtree(project / "docs" / "figures", ignore_errors=True)
            (project / ".cache" / "figures.json").unlink(missing_ok=True)
            seconds, out = timed(figures, project)
            samples["cold figure build"].append(seconds)
            lessons_built = out.count(" built  ")
            seconds, out = timed(figures, project)
            if "0 built" not in out or "0 SVGs written" not in out:
                sys.exit(f"a no-change rebuild did figure work:\n{out}")
            samples["no-change rebuild"].append(seconds)
            with target.open("a") as handle:  # a real source change: new hash, same figures
                handle.write(f"\n# bench edit {run}\n")
            seconds, out = timed(figures, project)
            if "1 built" not in out:
                sys.exit(f"changing one lesson did not rebuild exactly one:\n{out}")
            samples["one lesson changed"].append(seconds)
            (project / ".cache" / "diagrams.json").unlink(missing_ok=True)  # diagrams drawn anew
            seconds, _ = timed(mkdocs, project)
            samples["mkdocs build, cold"].append(seconds)
            seconds, _ = timed(mkdocs, project)  # figures and diagrams cached: an author's rebuild
            samples["mkdocs build, cached"].append(seconds)
    print(f"figure and site build, median of {RUNS} runs ({len(slugs)} lessons, "
          f"{lessons_built} built cold, {os.cpu_count()} cores; the changed lesson: {leaf})")
    print(f"{'step':<22}{'median s':>10}{'min s':>9}{'max s':>9}")
    for name, values in samples.items():
        print(f"{name:<22}{statistics.median(values):>10.2f}{min(values):>9.2f}{max(values):>9.2f}")
    cold = statistics.median(samples["cold figure build"])
    print(f"no-change / cold ratio: {statistics.median(samples['no-change rebuild']) / cold:.2f}; "
          f"one-changed / cold ratio: {statistics.median(samples['one lesson changed']) / cold:.2f}")


if __name__ == "__main__":
    main()
