"""The build: each lesson's figures() -> docs/figures/<slug>.<name>.svg, and
(in site_build, the MkDocs side) the pages, which call `build()`.

Incremental (a hash per lesson over its code, without the docstring, and the
code of the lessons it imports, plus this renderer and the phone layout: a
prose-only edit renders nothing), parallel (one process per stale lesson),
deterministic (fixed SVG salt, no dates) and all-or-nothing: if any lesson
fails, nothing is written and the error names the lesson's file.

`python -m figures_build` is the command line; the site plugin
(site_build/plugin.py) calls `build()` at the start of every `mkdocs build`
and `mkdocs serve` rebuild, with the `Project` it read for that build.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import version
import multiprocessing
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from project.cache import ContentCache, content_key
from project.reading import DARK_SUFFIX, figure_file, figure_refs
from project.model import LessonError, Project
from figures_build.render import PHONE_SUFFIX, Rendered, render_lesson

RENDERER = Path(__file__).resolve().parent / "render.py"
# what else draws a figure: the phone rendition's re-layout, and the screens it is laid out for
RENDERING = (Path(__file__).resolve().parent / "phone.py", Path(__file__).resolve().parents[1] / "site_build" / "layout.py")
STORE = "figures"  # the content cache's store (project/cache.py): content key -> {"slug", "files": {name: sha256}}
FIGURES = Path("docs") / "figures"


class BuildError(Exception):
    """The build stopped; nothing was written. The message names the file(s)."""


@dataclass
class Report:
    built: list[str] = field(default_factory=list)
    fresh: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    unchanged: int = 0
    orphans: list[Path] = field(default_factory=list)
    pruned: list[Path] = field(default_factory=list)
    seconds: float = 0.0


def build(
    project: Project | Path | str = ".",
    *,
    only: str | None = None,
    force: bool = False,
    prune: bool = False,
    jobs: int | None = None,
    log=print,
) -> Report:
    """Render every stale lesson's figures; see the module docstring. `project`
    is this build's `Project` (or a project directory, read here)."""
    started = time.perf_counter()
    if not isinstance(project, Project):
        try:
            project = Project.read(project)
        except LessonError as exc:
            raise BuildError(str(exc)) from None
    root, by_slug = project.root, project.by_slug
    if only is not None and only not in by_slug:
        raise BuildError(f"--lesson {only}: no such lesson (known: {', '.join(by_slug)})")

    store = ContentCache(root, STORE)
    out_dir = root / FIGURES
    renderer = [RENDERER.read_bytes(), *(path.read_bytes() for path in RENDERING), _versions()]
    hashes = {slug: content_key(STORE, project.code_hash([slug]), *renderer) for slug in by_slug}
    selected = [only] if only else list(by_slug)
    stale = [slug for slug in selected if force or only or not _is_fresh(store.get(hashes[slug]), slug, out_dir)]
    report = Report(fresh=[slug for slug in selected if slug not in stale])
    for slug in report.fresh:
        log(f"figures: {slug:<20} fresh")

    results = _render_all(root, [(slug, by_slug[slug].package) for slug in stale], jobs)
    errors = [r.error for r in results if r.error]
    if errors:
        raise BuildError("figure build failed; no file was written:\n  " + "\n  ".join(errors))

    # Every figure a page shows must be produced by some lesson.
    produced = {entry["slug"]: {figure_file(entry["slug"], name) for name in entry["files"]}
                for key, entry in store.entries.items() if hashes.get(entry["slug"]) == key}
    for r in results:
        produced[r.slug] = {figure_file(r.slug, name) for name in r.svgs}
    files = set().union(*produced.values())
    missing = [
        f"{project.rel(by_slug[slug].path)}:{ref.line}: shows figures/{ref.file}, which no lesson's figures() produces"
        for slug in selected for ref in figure_refs(by_slug[slug]) if ref.file not in files
    ]
    if missing:
        raise BuildError("figure build failed; no file was written:\n  " + "\n  ".join(missing))

    out_dir.mkdir(parents=True, exist_ok=True)
    for r in results:
        shas = {}
        for name, svg in r.svgs.items():
            path = out_dir / figure_file(r.slug, name)
            shas[name] = hashlib.sha256(svg).hexdigest()
            if write_if_changed(path, svg):
                report.written.append(path)
            else:
                report.unchanged += 1
        store[hashes[r.slug]] = {"slug": r.slug, "files": shas}
        report.built.append(r.slug)
        # a dark twin or a phone rendition is not a figure of its own
        figures = sum(not name.endswith((DARK_SUFFIX, PHONE_SUFFIX)) for name in r.svgs)
        phones = sum(name.endswith(PHONE_SUFFIX) for name in r.svgs)
        log(f"figures: {r.slug:<20} built  {figures} figures ({phones} with a phone rendition) in {r.seconds:.2f} s")
    store.keep(hashes.values())  # each lesson's entry for its code as it is now
    store.save()

    if only is None:
        for path in sorted(out_dir.glob("*.svg")):
            if path.name not in files:
                if prune:
                    path.unlink()
                    report.pruned.append(path)
                    log(f"figures: pruned {project.rel(path)}")
                else:
                    report.orphans.append(path)
                    log(f"figures: {project.rel(path)} is produced by no lesson (run with --prune to delete it)")
    report.seconds = time.perf_counter() - started
    log(
        f"figures: {len(report.built)} built, {len(report.fresh)} fresh; "
        f"{len(report.written)} SVGs written, {report.unchanged} unchanged; {report.seconds:.2f} s"
    )
    return report


def _render_all(root: Path, slugs: list[tuple[str, str]], jobs: int | None) -> list[Rendered]:
    """Render each (slug, package) in its own spawned process."""
    if not slugs:
        return []
    workers = max(1, min(len(slugs), jobs or os.cpu_count() or 1))
    # spawn: a clean interpreter per worker, so a lesson saved during `mkdocs
    # serve` is imported anew and no server thread is forked.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(render_lesson, str(root), slug, package) for slug, package in slugs]
        results = []
        for (slug, package), future in zip(slugs, futures, strict=True):
            try:
                results.append(future.result())
            except Exception as exc:  # the worker died (e.g. the lesson called os._exit)
                results.append(Rendered(slug, error=f"{package}/{slug}.py: the figure worker died: {type(exc).__name__}: {exc}"))
    return results


def _versions() -> str:
    # from package metadata: importing matplotlib just to read its version would cost 0.3 s
    return f"numpy {version('numpy')} matplotlib {version('matplotlib')}"


def _is_fresh(entry: dict | None, slug: str, out_dir: Path) -> bool:
    """An entry under the lesson's content key (its code as it is now, drawn by this renderer),
    and the files still hold those bytes."""
    if not entry or entry.get("slug") != slug:
        return False
    for name, sha in entry.get("files", {}).items():
        path = out_dir / figure_file(slug, name)
        if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != sha:
            return False
    return True


def built_figures(root: Path) -> dict[str, dict[str, str]]:
    """{slug: {figure name: sha256 of its SVG}} of every lesson whose figures the last build
    left in the content cache (dark twins included, named <name>.dark)."""
    return {entry["slug"]: entry["files"] for entry in ContentCache(root, STORE).entries.values()}


def write_if_changed(path: Path, data: bytes) -> bool:
    """Atomically replace `path` with `data` unless it already holds exactly that."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes 0600; a web server must read the file
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True
