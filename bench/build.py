"""`make bench`: how long the author's loop takes, as medians of several runs.

Measured on a throw-away copy of the project (the working tree is not
touched): a cold figure build, a no-change rebuild (which must do no figure
work at all), a rebuild after one lesson changed, `mkdocs build` cold (no
caches: figures, diagrams and the notebook made anew) and cached, and the
edit loop under `mkdocs serve`: from saving a lesson to "Reloading browsers",
for a prose-only edit and for a code edit, each as a ratio to a cold build.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))

from harness.copy import copy_project  # noqa: E402
from harness.serving import MkdocsServe  # noqa: E402
from site_build.build import mkdocs_build  # noqa: E402


def build_figures(project: Path) -> subprocess.CompletedProcess[str]:
    """`python -m figures_build` in `project`, its output captured."""
    return subprocess.run([sys.executable, "-m", "figures_build", "--root", "."], cwd=project, capture_output=True, text=True)


def build_site(project: Path) -> subprocess.CompletedProcess[str]:
    """The build every caller runs (site_build.build), of `project` into project/site, its output
    captured (not silenced: -q would hide the warnings --strict counts)."""
    return mkdocs_build(project, project / "site", capture=True, check=False)


def timed(run: Callable[[Path], subprocess.CompletedProcess[str]], project: Path) -> tuple[float, str]:
    """Seconds `run(project)` took and its output; stops the benchmark if it fails."""
    start = time.perf_counter()
    result = run(project)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(result.args)}\n{result.stdout}\n{result.stderr}")
    return elapsed, result.stdout + result.stderr


def main() -> None:
    figures, mkdocs = build_figures, build_site
    samples: dict[str, list[float]] = {"cold figure build": [], "no-change rebuild": [],
                                       "one lesson changed": [], "mkdocs build, cold": [],
                                       "mkdocs build, cached": []}
    lessons_built = None
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp))
        from project.model import Project

        read = Project.read(project)
        lessons = read.lessons
        slugs = [lesson.slug for lesson in lessons]
        imported = set().union(*(page.imports for page in lessons + read.papers))  # companions import lessons too
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
            shutil.rmtree(project / ".cache", ignore_errors=True)  # figures, diagrams, notebook made anew
            shutil.rmtree(project / "docs" / "figures", ignore_errors=True)
            seconds, _ = timed(mkdocs, project)
            samples["mkdocs build, cold"].append(seconds)
            seconds, _ = timed(mkdocs, project)  # figures and diagrams cached: an author's rebuild
            samples["mkdocs build, cached"].append(seconds)
        samples.update(serve_loop(project, target))
    print(f"figure and site build, median of {RUNS} runs ({len(slugs)} lessons, "
          f"{lessons_built} built cold, {os.cpu_count()} cores; the changed lesson: {leaf})")
    print(f"{'step':<22}{'median s':>10}{'min s':>9}{'max s':>9}")
    for name, values in samples.items():
        print(f"{name:<22}{statistics.median(values):>10.2f}{min(values):>9.2f}{max(values):>9.2f}")
    cold = statistics.median(samples["cold figure build"])
    print(f"no-change / cold ratio: {statistics.median(samples['no-change rebuild']) / cold:.2f}; "
          f"one-changed / cold ratio: {statistics.median(samples['one lesson changed']) / cold:.2f}")
    site_cold = statistics.median(samples["mkdocs build, cold"])
    site_warm = statistics.median(samples["mkdocs build, cached"])
    for name, target_ratio in (("serve: prose edit", 0.15), ("serve: code edit", 0.4)):
        ratio = statistics.median(samples[name]) / site_cold
        verdict = "within" if ratio <= target_ratio else "OVER"
        print(f"{name} / mkdocs build cold: {ratio:.2f} ({verdict} the target {target_ratio})")
    warm = statistics.median(samples["serve: prose edit"]) / site_warm
    print(f"serve: prose edit / mkdocs build cached (warm): {warm:.2f} "
          f"({'within' if warm <= 0.15 else 'OVER'} the target 0.15)")


def serve_loop(project: Path, target: Path) -> dict[str, list[float]]:
    """Under `mkdocs serve --dirty` (as `make serve`): seconds from saving `target` to the reload, for a
    prose-only edit and a code edit (a new comment line: new code hash). Fails
    if a save causes more than one rebuild."""
    samples: dict[str, list[float]] = {"serve: prose edit": [], "serve: code edit": []}
    with MkdocsServe(project, project / "serve.log") as serve:
        serve.wait_for("Serving on", 0, 300)
        time.sleep(1.0)
        for run in range(RUNS):
            for name in samples:
                text = target.read_text()
                if name == "serve: prose edit":  # a word added to the page's first paragraph
                    head, rest = text.split("\n\n", 1)
                    text = f"{head}\n\nBench edit {run}.\n\n{rest}"
                else:
                    text += f"\n# bench code edit {run}\n"
                mark = len(serve.text())
                start = time.perf_counter()
                target.write_text(text)
                serve.wait_for("Reloading browsers", mark, 120)
                samples[name].append(time.perf_counter() - start)
                time.sleep(2.0)  # a spurious second rebuild would show up here
                rebuilds = serve.text()[mark:].count("Building documentation")
                if rebuilds != 1:
                    sys.exit(f"{name}: one save gave {rebuilds} rebuilds:\n{serve.text()[mark:]}")
    return samples


if __name__ == "__main__":
    main()
