"""The downloads run anywhere (issue 42, item 4): each lab's .py and .ipynb, the Playground's .py and
each challenge's starter and reference solution run in a fresh virtual environment that has numpy and
matplotlib and nothing else, outside this project (no clone on the path, no `pip install -e .`).

The environment is made once per Python and package versions under .cache/bare-venv-* (pip, from
the package index this machine is set up with), and reused.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest

from project.model import Project
from site_build.content import notebook_sources
from site_build.downloads import bundle, standalone
from site_build.notebooks import as_ipynb

ROOT = Path(__file__).resolve().parents[1]
SOURCES = notebook_sources(ROOT, ROOT / "docs")
CHALLENGE_FILES = sorted(ROOT.glob("challenges/c*/starter.py")) + sorted(ROOT.glob("challenges/c*/solution.py"))


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.read(ROOT)


@pytest.fixture(scope="module")
def bare_python() -> Path:
    """A venv with numpy and matplotlib (this project's versions) and nothing else."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    folder = ROOT / ".cache" / f"bare-venv-py{version}-numpy{np.__version__}-mpl{matplotlib.__version__}"
    python = folder / "bin" / "python"
    folder.parent.mkdir(exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:  # pytest-xdist's workers make it once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".ready").is_file():
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(folder)], check=True, timeout=300)
            subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                            f"numpy=={np.__version__}", f"matplotlib=={matplotlib.__version__}"],
                           check=True, timeout=600)
            (folder / ".ready").write_text("numpy and matplotlib only\n", encoding="utf-8")
    return python


def run_bare(python: Path, script: Path, *args: str) -> subprocess.CompletedProcess:
    """`python script ARGS` in script's folder, with no PYTHONPATH, a non-interactive matplotlib and
    the script's folder as HOME (the download unpacks under ~/.cache)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1", HOME=str(script.parent))
    return subprocess.run([str(python), str(script), *args], cwd=script.parent, env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_bare_environment_has_no_project(bare_python, tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import importlib.util as u\nprint([m for m in ('lessons', 'labs', 'jupytext', 'scipy', "
                     "'torch') if u.find_spec(m)])\n", encoding="utf-8")
    done = run_bare(bare_python, probe)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


@pytest.mark.parametrize("uri", sorted(SOURCES), ids=[Path(u).stem for u in sorted(SOURCES)])
def test_a_notebook_download_runs_with_numpy_and_matplotlib_alone(project, bare_python, tmp_path, uri):
    text = standalone(project, SOURCES[uri])
    script = tmp_path / Path(uri).name
    script.write_text(text, encoding="utf-8")
    done = run_bare(bare_python, script)
    assert done.returncode == 0, f"{uri}: the download stops:\n{done.stderr[-3000:]}"
    if uri.startswith("labs/"):
        verdict = done.stdout.strip().splitlines()[-1]
        held, _, total = verdict.removeprefix("verdict: ").partition(" of ")
        assert verdict.startswith("verdict: ") and held == total.split()[0], verdict
        # the .ipynb: the same cells; its code, run in order as one script, runs too
        cells = json.loads(as_ipynb(text))["cells"]
        code = [("".join(c["source"]) if isinstance(c["source"], list) else c["source"])
                for c in cells if c["cell_type"] == "code"]
        assert code[0].lstrip().startswith("# This download carries the Positional Primer code"), code[0][:200]
        notebook = tmp_path / "notebook" / "as_script.py"
        notebook.parent.mkdir()
        notebook.write_text("\n\n".join(code) + "\n", encoding="utf-8")
        again = run_bare(bare_python, notebook)
        assert again.returncode == 0 and again.stdout.strip().splitlines()[-1] == verdict, again.stderr[-3000:]


@pytest.mark.parametrize("path", CHALLENGE_FILES, ids=[f"{p.parent.name}-{p.stem}" for p in CHALLENGE_FILES])
def test_a_challenge_file_runs_with_numpy_and_matplotlib_alone(bare_python, tmp_path, path):
    script = tmp_path / path.name
    script.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    done = run_bare(bare_python, script)
    assert done.returncode == 0, f"{path.relative_to(ROOT)}: {done.stderr[-2000:]}"


def test_a_download_is_the_same_bytes_each_build_and_keeps_the_lab_as_it_is(project):
    lab = SOURCES["labs/tf3_kv_cache.py"]
    text = standalone(project, lab)
    assert text == standalone(project, lab)
    source = lab.read_text(encoding="utf-8")
    cell_start = text.index('# %% jupyter={"source_hidden": true}')
    cell_end = text.index("_sys.path.insert(0, str(_PRIMER))\n") + len("_sys.path.insert(0, str(_PRIMER))\n\n")
    assert text[:cell_start] + text[cell_end:] == source  # the lab's own text, one cell added


def test_the_bundle_holds_the_lessons_the_lab_imports_without_their_prose(project):
    import io
    import zipfile

    data = bundle(project, SOURCES["labs/tf1_sinusoidal_vs_rope.py"])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
        positional = archive.read("lessons/positional.py").decode("utf-8")
    assert {"lessons/positional.py", "lessons/_checks.py", "labs/_lab.py", "lessons/__init__.py"} <= names
    assert "lessons/transformer.py" not in names  # TF1 does not import it, even indirectly
    source = (ROOT / "lessons" / "positional.py").read_text(encoding="utf-8")
    assert len(positional.splitlines()) == len(source.splitlines())  # a traceback's line numbers hold
    assert "Learned absolute positions: numbered seats" in source and "numbered seats" not in positional


def test_a_missing_download_file_stops_the_build_naming_the_lab(project, tmp_path):
    lab = tmp_path / "labs" / "tf9_broken.py"
    lab.parent.mkdir()
    lab.write_text('# %%\nDOWNLOAD_DATA = ("tests/data/no_such_file.json",)\n', encoding="utf-8")
    with pytest.raises(FileNotFoundError, match=r"tf9_broken\.py: DOWNLOAD_DATA names tests/data/no_such_file\.json"):
        standalone(project, lab)


def test_a_broken_or_planted_unpacked_folder_is_replaced_not_trusted(project, bare_python, tmp_path):
    """Found by review: a folder left half-deleted (or made in advance by someone else) under the name the
    download unpacks to was trusted as long as lessons/__init__.py was there, and the lab then failed."""
    script = tmp_path / "tf4_stretching_context.py"
    script.write_text(standalone(project, SOURCES["labs/tf4_stretching_context.py"]), encoding="utf-8")
    assert run_bare(bare_python, script).returncode == 0
    (unpacked,) = (tmp_path / ".cache" / "positional-primer").iterdir()
    (unpacked / "lessons" / "context_extension.py").unlink()  # an interrupted unpacking, a stray delete
    (unpacked / "labs" / "_lab.py").write_text("raise SystemExit('planted')\n", encoding="utf-8")
    again = run_bare(bare_python, script)
    assert again.returncode == 0 and again.stdout.strip().splitlines()[-1].startswith("verdict: "), again.stderr
    assert (unpacked / "lessons" / "context_extension.py").is_file()
    assert "planted" not in (unpacked / "labs" / "_lab.py").read_text(encoding="utf-8")
