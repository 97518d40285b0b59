"""How the notebooks run (mkdocs-jupyter executes each one in a kernel): the kernel's settings
and time-out, a failed run named in one line, and which of mkdocs-jupyter's cached runs to drop
because code the notebook imports changed (or to keep, under a dirty rebuild)."""

from __future__ import annotations

import ast
import json
import shutil
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError

from project.model import Project, imported_lessons
from site_build.tools import read_json_cache, write_if_changed, write_json_cache

IPYTHON_CONFIG = Path(__file__).resolve().parents[1] / "ipython" / "ipython_kernel_config.py"
STARTUP_SECONDS = 60.0  # nbclient's default startup_timeout: the least a kernel gets to start


def jupyter_config(folder: Path, timeout: float) -> Path:
    """Write nbconvert's settings into `folder` (for JUPYTER_CONFIG_PATH) and return it: each
    cell gets `timeout` seconds (PRIMER_TIMEOUT), so a notebook that stalls stops the build
    instead of hanging it; the kernel gets at least nbclient's default 60 s to start (a busy
    machine can take several seconds, and a short cell limit is no reason to fail a start).

    The section is nbclient's `NotebookClient`, which the `ExecutePreprocessor` inherits:
    mkdocs-jupyter (0.26, nbconvert2.get_nbconvert_app) replaces the app's whole
    `ExecutePreprocessor` section after loading this file, so a time-out written there is lost."""
    settings = {"NotebookClient": {"timeout": timeout, "startup_timeout": max(timeout, STARTUP_SECONDS)}}
    write_if_changed(folder / "jupyter_nbconvert_config.json", (json.dumps(settings, indent=2) + "\n").encode())
    return folder


def ipython_dir(root: Path) -> Path:
    """The kernel's IPython folder (for IPYTHONDIR), its profile written from IPYTHON_CONFIG
    (figures as SVG)."""
    folder = root / ".cache" / "ipython"
    write_if_changed(folder / "profile_default" / "ipython_kernel_config.py", IPYTHON_CONFIG.read_bytes())
    return folder


def checked(render: Callable, source: str) -> Callable:
    """A notebook page's `render`, made to stop the build with one line naming `source` (the
    notebook's file) when the notebook fails or stalls (the kernel's time-out per cell)."""

    def checked_render(*args, **kwargs):
        try:
            return render(*args, **kwargs)
        except Exception as exc:  # nbclient's CellTimeoutError, DeadKernelError, CellExecutionError
            first = (str(exc).strip().splitlines() or [""])[0]
            if getattr(exc, "ename", None):  # a cell raised: say what, not nbclient's "An error occurred ..."
                first = f"a cell raised {exc.ename}: {str(getattr(exc, 'evalue', '')).splitlines()[0][:300]}"
            raise PluginError(f"{source}: the notebook did not run: {type(exc).__name__}: {first}") from None

    return checked_render


def code_stamps(project: Project, sources: dict[str, Path], extra: Callable[[str], bytes]) -> dict[str, str]:
    """{notebook page: the hash of the code it imports}: the lessons its source imports (prose
    edits don't count), the kernel's settings (IPYTHON_CONFIG: how figures are saved) and
    `extra(page)` (the labs' helpers, which the labs and the Playground import)."""
    stamps = {}
    for uri, path in sources.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        stamps[uri] = project.code_hash(imported_lessons(tree), extra=IPYTHON_CONFIG.read_bytes() + extra(uri))
    return stamps


def drop_changed_runs(jupyter, root: Path, sources: dict[str, Path], stamps: dict[str, str]) -> None:
    """Drop the cached run of each notebook whose stamp changed since the last build (kept in
    .cache/notebook-code.json), so only notebooks that import changed code execute again."""
    stamps_file = root / ".cache" / "notebook-code.json"
    last = read_json_cache(stamps_file)
    for uri, path in sources.items():
        if last.get(uri) != stamps[uri] and jupyter.config.get("cache", True):
            drop_cached_run(jupyter, path)
        last[uri] = stamps[uri]
    write_json_cache(stamps_file, last, indent=1)


def keep_cached_runs(jupyter, sources: dict[str, Path]) -> None:
    """After a dirty rebuild: a notebook that was not rebuilt still uses its cached run, so
    mkdocs-jupyter must not clean it up."""
    for path in sources.values():
        cached = cached_run(jupyter, path)
        if cached is not None and hasattr(jupyter, "_used_cache_paths"):
            jupyter._used_cache_paths.add(cached)


def cached_run(jupyter, path: Path) -> Path | None:
    """The file where mkdocs-jupyter keeps `path`'s executed notebook (None if unknown).

    mkdocs-jupyter (0.26) names it by a hash of the notebook text and its options;
    its helper for that is private, so a missing helper falls back to None."""
    try:
        from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path
    except ImportError:
        return None
    key = _compute_cache_key(str(path), jupyter.config, jupyter.config["execute"])
    return _get_cache_path(jupyter.config["cache_dir"], key)


def drop_cached_run(jupyter, path: Path) -> None:
    """Make mkdocs-jupyter execute `path` again (all notebooks, if its cache file is unknown)."""
    cached = cached_run(jupyter, path)
    if cached is None:
        shutil.rmtree(jupyter.config["cache_dir"], ignore_errors=True)
    elif cached.exists():
        cached.unlink()
