"""The figure build on a throw-away project: deterministic, incremental,
all-or-nothing, and loud about broken lessons (each error names the file)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.projects import ROOT, make_project, set_order

GOOD = '''r"""
# {title}

![A line that rises from zero to three over four points](figures/{slug}.line.svg)

```python
1 + 1  # → 2
```
"""

import numpy as np


def figures():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    ax.plot(np.arange(4) * {gain})
    ax.set_title("{title}")
    return {{"line": fig}}


def demo():
    print("{title}")
'''


def good(slug: str, gain: int = 1) -> str:
    return GOOD.format(slug=slug, title=f"Lesson {slug}", gain=gain)


def run_build(project: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m figures_build` on `project`, with one worker process unless `args` say otherwise
    (the tests run on both cores already; a second worker per build only adds its start-up)."""
    jobs = [] if "--jobs" in args else ["--jobs", "1"]
    return subprocess.run(
        [sys.executable, "-m", "figures_build", "--root", str(project), *jobs, *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )


def svgs(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project / "docs" / "figures").glob("*.svg"))}


@pytest.fixture
def project(tmp_path):
    proj = make_project(tmp_path, {"alpha": good("alpha"), "beta": good("beta", 2)})
    result = run_build(proj)
    assert result.returncode == 0, result.stderr
    return proj


def test_first_build_writes_every_figure_as_text_svg(project):
    files = svgs(project)
    assert set(files) == {"alpha.line.svg", "beta.line.svg", "alpha.line.dark.svg", "beta.line.dark.svg"}, "each figure and its dark twin"
    svg = files["alpha.line.svg"].decode()
    assert "<text" in svg and "Lesson alpha" in svg, "titles must stay text, not glyph outlines"
    assert "<dc:date>" not in svg, "no date metadata: the bytes must not change between runs"
    mode = (project / "docs" / "figures" / "alpha.line.svg").stat().st_mode
    assert mode & 0o044 == 0o044, f"a web server must be able to read the SVG (mode {oct(mode)})"


def test_second_build_does_no_figure_work_and_rewrites_nothing(project):
    before = {p: p.stat().st_mtime_ns for p in (project / "docs" / "figures").glob("*.svg")}
    result = run_build(project)
    assert result.returncode == 0, result.stderr
    assert "0 built, 2 fresh; 0 SVGs written" in result.stdout
    assert {p: p.stat().st_mtime_ns for p in before} == before


def test_force_reproduces_identical_bytes(project):
    before = svgs(project)
    result = run_build(project, "--force")
    assert result.returncode == 0, result.stderr
    assert "2 built, 0 fresh; 0 SVGs written, 4 unchanged" in result.stdout  # two figures, two dark twins
    assert svgs(project) == before


def test_only_the_changed_lesson_is_rebuilt(project):
    (project / "lessons" / "beta.py").write_text(good("beta", 3))
    result = run_build(project)
    assert result.returncode == 0, result.stderr
    assert re.search(r"alpha\s+fresh", result.stdout) and re.search(r"beta\s+built", result.stdout)


def test_a_prose_only_edit_renders_nothing(project):
    """The figures depend on the code, not on the page: the hash leaves the docstring out."""
    path = project / "lessons" / "alpha.py"
    path.write_text(path.read_text().replace("```python", "Some new words.\n\n```python"))
    result = run_build(project)
    assert result.returncode == 0, result.stderr
    assert "0 built, 2 fresh" in result.stdout


def test_a_change_in_an_imported_lesson_rebuilds_the_importer(project):
    text = good("beta").replace("import numpy as np", "import numpy as np\nfrom lessons.alpha import demo as _alpha_demo")
    (project / "lessons" / "beta.py").write_text(text)
    assert run_build(project).returncode == 0
    (project / "lessons" / "alpha.py").write_text(good("alpha", 5))
    result = run_build(project)
    assert re.search(r"alpha\s+built", result.stdout) and re.search(r"beta\s+built", result.stdout)


def test_no_change_is_fresh_whatever_the_hash_seed(tmp_path):
    """The content hash must not depend on set order (PYTHONHASHSEED)."""
    imports = "import numpy as np\nfrom lessons.alpha import demo as _a\nfrom lessons.beta import demo as _b\nfrom lessons._show import say as _s"
    proj = make_project(tmp_path, {
        "alpha": good("alpha"), "beta": good("beta"),
        "gamma": good("gamma").replace("import numpy as np", imports),
    })
    assert run_build(proj).returncode == 0
    for seed in ("1", "2", "3", "random"):
        result = subprocess.run(
            [sys.executable, "-m", "figures_build", "--root", str(proj)],
            cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert "0 built, 3 fresh" in result.stdout, (seed, result.stdout)


def test_a_deleted_svg_is_rebuilt(project):
    (project / "docs" / "figures" / "alpha.line.svg").unlink()
    result = run_build(project)
    assert re.search(r"alpha\s+built", result.stdout)
    assert (project / "docs" / "figures" / "alpha.line.svg").exists()


def test_lesson_option_builds_one(project):
    result = run_build(project, "--lesson", "beta")
    assert result.returncode == 0, result.stderr
    assert "1 built, 0 fresh" in result.stdout and "alpha" not in result.stdout


def test_orphans_are_reported_then_pruned(project):
    orphan = project / "docs" / "figures" / "gone.old.svg"
    orphan.write_text("<svg/>")
    result = run_build(project)
    assert result.returncode == 0 and "gone.old.svg is produced by no lesson" in result.stdout
    assert orphan.exists()
    result = run_build(project, "--prune")
    assert result.returncode == 0 and not orphan.exists()


BROKEN = {
    "raises": (
        lambda: good("beta").replace('return {"line": fig}', 'raise RuntimeError("axis exploded")'),
        r"lessons/beta\.py: figures\(\) raised RuntimeError: axis exploded \(line \d+",
    ),
    "import_fails": (
        lambda: good("beta").replace("import numpy as np", "import numpy as np\nimport not_a_module_xyz"),
        r"lessons/beta\.py: import failed: ModuleNotFoundError",
    ),
    "not_a_figure": (
        lambda: good("beta").replace('return {"line": fig}', 'return {"line": "a string"}'),
        r"lessons/beta\.py: figures\(\)\['line'\] is a str, not a matplotlib Figure",
    ),
    "no_title": (
        lambda: good("beta").replace("# Lesson beta", "Lesson beta without a heading"),
        r"lessons/beta\.py: the docstring must start with a '# Title' line",
    ),
    "missing_figure": (
        lambda: good("beta").replace("figures/beta.line.svg", "figures/beta.nothere.svg"),
        r"lessons/beta\.py:\d+: shows figures/beta\.nothere\.svg, which no lesson's figures\(\) produces",
    ),
    "syntax_error": (
        lambda: good("beta") + "\ndef broken(:\n",
        r"lessons/beta\.py:\d+: syntax error",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_lesson_stops_the_build_names_the_file_and_keeps_output(project, case):
    make_text, message = BROKEN[case]
    before = svgs(project)
    (project / "lessons" / "alpha.py").write_text(good("alpha", 7))  # a good change that must NOT land either
    (project / "lessons" / "beta.py").write_text(make_text())
    result = run_build(project)
    assert result.returncode == 1
    assert re.search(message, result.stderr), result.stderr
    assert svgs(project) == before, "a failed build must leave every existing SVG as it was"


def test_two_lessons_claiming_one_slug(project):
    set_order(project, ["alpha", "beta", "alpha"])
    result = run_build(project)
    assert result.returncode == 1
    assert "slug 'alpha' is listed twice in READING_ORDER" in result.stderr
    set_order(project, ["alpha", "beta"])
    (project / "lessons" / "Alpha.py").write_text(good("Alpha"))
    result = run_build(project)
    assert result.returncode == 1 and "differ only in case" in result.stderr


def test_unlisted_and_missing_lessons_are_named(project):
    (project / "lessons" / "gamma.py").write_text(good("gamma"))
    result = run_build(project)
    assert result.returncode == 1 and "lessons/gamma.py: not in READING_ORDER" in result.stderr
    (project / "lessons" / "gamma.py").unlink()
    set_order(project, ["alpha", "beta", "delta"])
    result = run_build(project)
    assert result.returncode == 1 and "READING_ORDER lists 'delta' but lessons/delta.py does not exist" in result.stderr


def _wide_figure(title: str):
    """A lesson-like figure 6.4 in wide: its 10.5 pt ticks render 8.2 px in a phone's column."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ax.plot([0, 1, 2], [1, 3, 2])
    ax.tick_params(labelsize=10.5)
    ax.set_title(title, fontsize=11)
    fig.draw_without_rendering()  # as the build's first SVG draws it
    return fig


LONG_TITLE = "A title as long as a lesson's longest, which no phone column holds on one line of text"


def test_the_phone_rendition_is_narrower_and_wraps_what_would_be_cut_off():
    from figures_build import phone
    from site_build.layout import phone_width

    fig = _wide_figure(LONG_TITLE)
    assert phone.needs_phone(10.5, 460.8)
    found = phone.relayout(fig, 10.5, phone.baseline(fig))
    assert found == [], found
    assert fig.get_size_inches()[0] * 72 == pytest.approx(phone_width(10.5))
    assert "\n" in fig.axes[0].get_title(), "the title, wider than the figure, is wrapped"


def test_a_phone_rendition_with_text_past_the_edge_is_refused(monkeypatch):
    """The check reads the renderer's extents: without the wrapping, the long title reaches past the
    narrower figure's edge and relayout reports it (the build then fails, naming the figure)."""
    from figures_build import phone

    monkeypatch.setattr(phone, "_wrap_wide_texts", lambda fig: False)
    fig = _wide_figure(LONG_TITLE)
    found = phone.relayout(fig, 10.5, phone.baseline(fig))
    assert any("reaches past the figure's edge" in p and "longest" in p for p in found), found
    fig = _wide_figure("short")
    fig.axes[0].text(1, 2, "two words"), fig.axes[0].text(1, 2, "on one spot")
    assert any("runs into" in p for p in phone.problems(fig)), "two texts drawn on one spot"
