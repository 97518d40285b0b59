"""No page value, lab verdict or figure depends on the CPU's floating-point kernels (issue 36).

`make test` runs the page-value tests and the labs a second time with other kernels forced
(tests/kernels.py). This file proves that pass is not empty: the forcing takes effect and changes
the rounding of the lessons' own arithmetic, while the verdicts the pages print stay the same; and
it draws every figure under the other kernels and compares it with `make figures`' own.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT, build_figures, figures_lock
from tests.kernels import default_environment, numpy_blas, other_environment


def _python(code: str, env: dict[str, str]) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True, timeout=300).stdout


def openblas_core(env: dict[str, str]) -> str:
    """The OpenBLAS kernel numpy loads in `env` ('Haswell', 'SkylakeX', ...), as OpenBLAS reports it."""
    done = subprocess.run([sys.executable, "-c", "import numpy"], cwd=ROOT, capture_output=True, text=True,
                          env={**env, "OPENBLAS_VERBOSE": "2"}, check=True)
    found = re.search(r"Core: (\w+)", done.stdout + done.stderr)
    assert found, f"OpenBLAS printed no 'Core:' line: {done.stdout + done.stderr!r}"
    return found.group(1)


def test_the_other_kernels_are_the_ones_in_use():
    if "openblas" in numpy_blas().lower():  # another BLAS (Accelerate, MKL) has no kernel to force
        core = openblas_core(other_environment())
        assert core.lower() == other_environment()["OPENBLAS_CORETYPE"].lower(), core
    # numpy then runs its baseline loops only: none of its optional targets is on
    found = _python("from tests.kernels import _umath; m = _umath(); "
                    "print(sorted(k for k in m.__cpu_dispatch__ if m.__cpu_features__.get(k)))", other_environment())
    assert found.strip() == "[]", found


GAPS = """
import json
from lessons.position_ids import conformance_table
from lessons.transformer import POSITIONS, cache_gap
from lessons._show import gap_text
rows = conformance_table()
gaps = [float(r["gap"]) for r in rows] + [cache_gap(p) for p in POSITIONS]
print(json.dumps({"gaps": gaps, "shown": [gap_text(g) for g in gaps]}))
"""


def test_the_other_kernels_change_the_rounding_and_not_what_the_pages_say():  # runs both kernels: first pass only
    """The conformance table and the cache gaps, under both kernels: what gap_text writes is the
    same; the digits underneath are not (the reason the pages write a bound)."""
    here, there = (json.loads(_python(GAPS, env)) for env in (default_environment(), other_environment()))
    assert here["shown"] == there["shown"]
    if here["gaps"] == there["gaps"]:
        pytest.skip(f"this machine's own kernels round as the forced ones do (numpy's BLAS: {numpy_blas()})")
    assert any(0 < abs(a - b) < 1e-12 for a, b in zip(here["gaps"], there["gaps"], strict=True))


# matplotlib names each clip path by a hash of its rectangle, at full precision: the name may change
# when a coordinate changes in a digit the file does not print.
_CLIP_ID = re.compile(rb"\bp[0-9a-f]{10}\b")
_TEXT = re.compile(rb"(<text\b[^>]*>)(.*?)(</text>)", re.S)  # svg.fonttype "none": a label is text
_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
TOLERANCE = 0.01  # SVG units (points): a hundredth of a point is far below a pixel on any screen


def svg_difference(a: bytes, b: bytes) -> float | None:
    """The largest difference between two SVGs' coordinates, in file order, when everything else
    (tags, attribute names, every label's text; clip-path names aside) is the same; None when it
    is not. A label is compared as text: '4e-02' against '5e-02' is a changed figure."""
    a, b = _CLIP_ID.sub(b"p#", a), _CLIP_ID.sub(b"p#", b)
    if [m.group(2) for m in _TEXT.finditer(a)] != [m.group(2) for m in _TEXT.finditer(b)]:
        return None
    a, b = (_TEXT.sub(lambda m: m.group(1) + b"#" + m.group(3), x) for x in (a, b))
    if _NUMBER.split(a) != _NUMBER.split(b):
        return None
    numbers = zip(_NUMBER.findall(a), _NUMBER.findall(b), strict=True)
    return max((abs(float(x) - float(y)) for x, y in numbers), default=0.0)


def test_svg_difference_sees_a_moved_point_and_a_changed_word():
    svg = (b'<path d="M 10.000001 193.085399 L 20 30" clip-path="url(#pe73a8fc0ff)"/>'
           b'<text x="3.5" y="7.25" style="font-size: 10px">1e-4</text>')
    assert svg_difference(svg, svg.replace(b"pe73a8fc0ff", b"p6cf7ce7007")) == 0.0
    assert svg_difference(svg, svg.replace(b"193.085399", b"193.08826")) == pytest.approx(0.002861)
    assert svg_difference(svg, svg.replace(b'y="7.25"', b'y="7.252"')) == pytest.approx(0.002)  # a label moved
    assert svg_difference(svg, svg.replace(b"193.085399", b"212.6")) > TOLERANCE  # noise drawn on a log scale
    assert svg_difference(svg, svg.replace(b"1e-4", b"1.09e-4")) is None  # a label's digits changed
    assert svg_difference(svg, svg.replace(b"<path", b"<line")) is None


def test_every_figure_is_the_same_under_the_other_kernels(tmp_path, tmp_path_factory):  # runs both: first pass only
    """`make figures` (this pass's kernels) against every figure drawn again under the other ones:
    the same files, the same text, every coordinate within TOLERANCE. The README says how many
    are identical to the byte."""
    from figures_build import FIGURES

    from figures_build import built_figures
    from project.reading import figure_file

    build_figures(tmp_path_factory)
    with figures_lock(tmp_path_factory):
        made = built_figures(ROOT)
        ours = {figure_file(slug, name): (ROOT / FIGURES / figure_file(slug, name)).read_bytes()
                for slug, files in made.items() for name in files}
    subprocess.run([sys.executable, "-m", "tests.kernels", "render", str(tmp_path)], cwd=ROOT,
                   env=other_environment(), check=True, capture_output=True, timeout=600)
    theirs = {p.name: p.read_bytes() for p in tmp_path.glob("*.svg")}
    assert set(theirs) == set(ours) and len(theirs) > 100, sorted(set(theirs) ^ set(ours))
    moved = {name: svg_difference(ours[name], svg) for name, svg in theirs.items() if ours[name] != svg}
    too_far = {name: d for name, d in moved.items() if d is None or d > TOLERANCE}
    assert not too_far, f"figures that change with the CPU's kernels (None: more than a coordinate): {too_far}"
    print(f"{len(theirs) - len(moved)} of {len(theirs)} SVGs identical; within {TOLERANCE}: {moved}")
