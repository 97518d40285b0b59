"""A lab's downloads that run anywhere (issue 42, item 4): the lab's .py and .ipynb carry the
lesson code they import, so a reader runs them with numpy and matplotlib alone (in Colab, or
a fresh virtual environment), without a clone of this project.

`standalone(project, script)` is the lab's own text with one code cell added before its first
code cell. That cell holds a zip of the modules the lab imports (`bundle`: the transitive
closure `Project.closure` computes, the labs' helpers, their packages' `__init__`s, the lessons'
data files, and the files the lab lists in `DOWNLOAD_DATA`), unpacks it into a folder named
by its hash under the reader's own ~/.cache/positional-primer/ (again whenever a file there is
missing or has changed size, into a fresh folder moved into place, so an interrupted unpacking
or a half-deleted folder heals), and puts that folder first on `sys.path`.
The lab's code is not touched. A module's own docstring (the lesson page's prose) is left out
of the zip; its lines stay as blank lines, so a traceback's line numbers are the source's.

Nothing here imports content: the bundle is built from files read as text, as the rest of the
build reads them.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import zipfile
from pathlib import Path

from project.model import Project, imported_lessons
from site_build.content import lab_helpers

DATA_NAME = "DOWNLOAD_DATA"  # a lab's tuple of further files to carry (paths from the project's root)
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every entry's time: the same lab gives the same bytes
LINE = 76  # characters of base64 per line of the cell

CELL = '''# %% jupyter={{"source_hidden": true}}
# This download carries the Positional Primer code it imports ({count} files, zipped below).
# The cell unpacks them into your own cache folder (~/.cache/positional-primer/, once per
# version: a folder missing a file or holding a changed one is unpacked again, into a fresh
# folder moved into place) and puts that folder first on the path, so the lab runs with numpy
# and matplotlib alone. The code is the project's own source, from the build that made this
# download; the site's lessons explain it.
import base64 as _b64, io as _io, os as _os, pathlib as _pl, shutil as _sh, sys as _sys, tempfile as _tf
import zipfile as _zf

_ZIP = _zf.ZipFile(_io.BytesIO(_b64.b64decode(
{blob}
)))


def _unpacked(folder):
    return all((folder / i.filename).is_file() and (folder / i.filename).stat().st_size == i.file_size
               for i in _ZIP.infolist())


_PRIMER = _pl.Path.home() / ".cache" / "positional-primer" / "{digest}"
if not _unpacked(_PRIMER):
    try:
        _PRIMER.parent.mkdir(parents=True, exist_ok=True)
        _new = _pl.Path(_tf.mkdtemp(dir=_PRIMER.parent))
    except OSError:  # no writable home: a private folder for this run
        _new = _pl.Path(_tf.mkdtemp(prefix="positional-primer-"))
    _ZIP.extractall(_new)
    if _PRIMER.exists():
        _sh.rmtree(_PRIMER, ignore_errors=True)
    try:
        _os.replace(_new, _PRIMER)
    except OSError:  # another run moved its copy in first, or no writable home: use this one
        _PRIMER = _new
_sys.path.insert(0, str(_PRIMER))

'''


def module_files(project: Project, script: Path) -> list[Path]:
    """The project's Python files `script` needs, sorted: the lessons, helpers and tools it imports
    (transitively), the labs' helpers, and the `__init__.py` of every package they sit in."""
    names = project.closure(imported_lessons(ast.parse(script.read_text(encoding="utf-8"))))
    lessons_dir = project.root / "lessons"
    by_slug = project.by_slug
    files = set(lab_helpers(project.root))
    for name in names:
        files.add(by_slug[name].path if name in by_slug else lessons_dir.joinpath(*name.split(".")).with_suffix(".py"))
    for path in list(files):
        for folder in path.parents:
            if folder == project.root or project.root not in folder.parents:
                break
            if (folder / "__init__.py").is_file():
                files.add(folder / "__init__.py")
    return sorted(files)


def data_files(project: Project, script: Path) -> list[Path]:
    """The data files `script` needs: every non-Python file of the lessons package (the gallery's
    configs, the measured claims), and those its `DOWNLOAD_DATA` names."""
    lessons_dir = project.root / "lessons"
    found = {p for p in lessons_dir.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
             and "__pycache__" not in p.parts}
    for node in ast.parse(script.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == DATA_NAME for t in node.targets):
            for rel in ast.literal_eval(node.value):
                path = project.root / rel
                if not path.is_file():
                    raise FileNotFoundError(f"{project.rel(script)}: {DATA_NAME} names {rel}, which does not exist")
                found.add(path)
    return sorted(found)


def without_module_docstring(source: str) -> str:
    """`source` with its module docstring's lines left blank (line numbers unchanged)."""
    tree = ast.parse(source)
    first = tree.body[0] if tree.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
        return source
    lines = source.splitlines(keepends=True)
    blank = ["\n"] * (first.end_lineno - first.lineno + 1)
    blank[0] = '"""The prose of this module is its page on the Positional Primer site."""\n'
    return "".join(lines[: first.lineno - 1] + blank + lines[first.end_lineno:])


def bundle(project: Project, script: Path) -> bytes:
    """A zip of what `script` imports and reads (`module_files`, `data_files`), paths from the root."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in module_files(project, script) + data_files(project, script):
            data = path.read_bytes()
            if path.suffix == ".py":
                data = without_module_docstring(data.decode("utf-8")).encode("utf-8")
            entry = zipfile.ZipInfo(path.relative_to(project.root).as_posix(), ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return out.getvalue()


def standalone(project: Project, script: Path) -> str:
    """`script` (a percent-format lab) with the unpacking cell before its first code cell."""
    data = bundle(project, script)
    text = base64.b64encode(data).decode("ascii")
    blob = "\n".join(f'    "{text[i:i + LINE]}"' for i in range(0, len(text), LINE))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        count = len(archive.namelist())
    cell = CELL.format(count=count, digest=hashlib.sha256(data).hexdigest()[:16], blob=blob)
    source = script.read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line.rstrip() == "# %%" or
                  (line.startswith("# %%") and "[markdown]" not in line)), None)
    if first is None:
        raise ValueError(f"{project.rel(script)}: no code cell (`# %%`) to put the unpacking cell before")
    return "".join(lines[:first]) + cell + "".join(lines[first:])
