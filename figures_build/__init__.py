"""The figure build: each lesson's figures() -> docs/figures/<slug>.<name>.svg.

Incremental (a content hash per lesson over its source, the lessons it
imports and this renderer), parallel (one process per stale lesson),
deterministic (fixed SVG salt, no dates) and all-or-nothing: if any lesson
fails, nothing is written and the error names the lesson's file.

`python -m figures_build` is the command line; `hooks/lesson_pages.py` calls
`build()` at the start of every `mkdocs build` and `mkdocs serve` rebuild.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import version
import json
import multiprocessing
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from figures_build.render import Rendered, render_lesson

RENDERER = Path(__file__).resolve().parent / "render.py"
MANIFEST = Path(".cache") / "figures.json"
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
    root: Path | str = ".",
    *,
    only: str | None = None,
    force: bool = False,
    prune: bool = False,
    jobs: int | None = None,
    log=print,
) -> Report:
    started = time.perf_counter()
    root = Path(root).resolve()
    lessons_pkg = _fresh_lessons_package(root)
    try:
        lessons = lessons_pkg.discover(root / "lessons")
    except lessons_pkg.LessonError as exc:
        raise BuildError(str(exc)) from None
    by_slug = {lesson.slug: lesson for lesson in lessons}
    if only is not None and only not in by_slug:
        raise BuildError(f"--lesson {only}: no such lesson (known: {', '.join(by_slug)})")

    manifest_path = root / MANIFEST
    manifest = _load_manifest(manifest_path)
    out_dir = root / FIGURES
    hashes = {slug: _lesson_hash(lesson, lessons_pkg) for slug, lesson in by_slug.items()}
    selected = [only] if only else list(by_slug)
    stale = [
        slug
        for slug in selected
        if force or only or not _is_fresh(manifest.get(slug), hashes[slug], slug, out_dir)
    ]
    report = Report(fresh=[slug for slug in selected if slug not in stale])
    for slug in report.fresh:
        log(f"figures: {slug:<20} fresh")

    results = _render_all(root, stale, jobs)
    errors = [r.error for r in results if r.error]
    if errors:
        raise BuildError("figure build failed; no file was written:\n  " + "\n  ".join(errors))

    # Every figure a page shows must be produced by some lesson.
    produced = {slug: set(entry["files"]) for slug, entry in manifest.items() if slug in by_slug}
    for r in results:
        produced[r.slug] = set(r.svgs)
    missing = []
    from lessons._prose import figure_refs  # the same page reader the hook uses

    for slug in selected:
        for ref in figure_refs(by_slug[slug]):
            key = ref.slug_and_name
            if key is None or key[1] not in produced.get(key[0], set()):
                missing.append(f"{by_slug[slug].path.relative_to(root)}:{ref.line}: shows figures/{ref.file}, which no lesson's figures() produces")
    if missing:
        raise BuildError("figure build failed; no file was written:\n  " + "\n  ".join(missing))

    out_dir.mkdir(parents=True, exist_ok=True)
    for r in results:
        files = {}
        for name, svg in r.svgs.items():
            path = out_dir / f"{r.slug}.{name}.svg"
            files[name] = hashlib.sha256(svg).hexdigest()
            if _write_if_changed(path, svg):
                report.written.append(path)
            else:
                report.unchanged += 1
        manifest[r.slug] = {"hash": hashes[r.slug], "files": files}
        report.built.append(r.slug)
        log(f"figures: {r.slug:<20} built  {len(r.svgs)} figures in {r.seconds:.2f} s")
    for slug in list(manifest):
        if slug not in by_slug:
            del manifest[slug]
    _write_if_changed(manifest_path, json.dumps(manifest, indent=1, sort_keys=True).encode())

    if only is None:
        expected = {f"{slug}.{name}.svg" for slug, names in produced.items() for name in names}
        for path in sorted(out_dir.glob("*.svg")):
            if path.name not in expected:
                if prune:
                    path.unlink()
                    report.pruned.append(path)
                    log(f"figures: pruned {path.relative_to(root)}")
                else:
                    report.orphans.append(path)
                    log(f"figures: {path.relative_to(root)} is produced by no lesson (run with --prune to delete it)")
    report.seconds = time.perf_counter() - started
    log(
        f"figures: {len(report.built)} built, {len(report.fresh)} fresh; "
        f"{len(report.written)} SVGs written, {report.unchanged} unchanged; {report.seconds:.2f} s"
    )
    return report


def _render_all(root: Path, slugs: list[str], jobs: int | None) -> list[Rendered]:
    if not slugs:
        return []
    workers = max(1, min(len(slugs), jobs or os.cpu_count() or 1))
    # spawn: a clean interpreter per worker, so a lesson saved during `mkdocs
    # serve` is imported anew and no server thread is forked.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(render_lesson, str(root), slug) for slug in slugs]
        results = []
        for slug, future in zip(slugs, futures):
            try:
                results.append(future.result())
            except Exception as exc:  # the worker died (e.g. the lesson called os._exit)
                results.append(Rendered(slug, error=f"lessons/{slug}.py: the figure worker died: {type(exc).__name__}: {exc}"))
    return results


def _fresh_lessons_package(root: Path):
    """Import root/lessons anew: in `mkdocs serve` READING_ORDER may have changed."""
    for name in [n for n in sys.modules if n == "lessons" or n.startswith("lessons.")]:
        del sys.modules[name]
    if sys.path[:1] != [str(root)]:
        sys.path.insert(0, str(root))
    import lessons

    if Path(lessons.__file__).resolve().parent != root / "lessons":
        raise BuildError(f"{root}/lessons is not an importable package (found {lessons.__file__} instead)")
    return lessons


def _lesson_hash(lesson, lessons_pkg) -> str:
    """Hash of everything a lesson's figures depend on: its source, the
    sources of lessons (and _helpers) it imports, transitively, the renderer,
    and the versions of numpy and matplotlib."""
    lessons_dir = lesson.path.parent
    sources: dict[str, bytes] = {}
    todo = [lesson.slug]
    while todo:  # the closure of lesson imports
        slug = todo.pop()
        path = lessons_dir / f"{slug}.py"
        if slug in sources or not path.exists():
            continue
        sources[slug] = path.read_bytes()
        todo.extend(lessons_pkg.imported_lessons(sources[slug].decode("utf-8")))
    digest = hashlib.sha256()
    for slug in sorted(sources):  # a fixed order: set order changes with PYTHONHASHSEED
        digest.update(slug.encode() + b"\0" + sources[slug] + b"\0")
    digest.update(RENDERER.read_bytes())
    # versions from package metadata: importing matplotlib just to read one would cost 0.3 s
    digest.update(f"numpy {version('numpy')} matplotlib {version('matplotlib')}".encode())
    return digest.hexdigest()


def _is_fresh(entry: dict | None, lesson_hash: str, slug: str, out_dir: Path) -> bool:
    if not entry or entry.get("hash") != lesson_hash:
        return False
    for name, sha in entry.get("files", {}).items():
        path = out_dir / f"{slug}.{name}.svg"
        if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != sha:
            return False
    return True


def _load_manifest(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _write_if_changed(path: Path, data: bytes) -> bool:
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
