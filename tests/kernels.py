"""The second pass of `make test`: the page values and the labs under other floating-point kernels.

Rounding noise follows the kernels a machine runs: numpy's OpenBLAS picks its matrix kernels for the
CPU it finds (an AVX-512 CPU gets SkylakeX kernels, others Haswell), and numpy picks its own SIMD
loops the same way. A page value that holds on one CPU only would fail a reader's `make test` on
another. So `make test` runs the page-value tests and the labs again here, with

- OpenBLAS's Sandybridge kernels (`OPENBLAS_CORETYPE`), which every x86-64 CPU with AVX runs, and
- numpy's baseline loops (`NPY_DISABLE_CPU_FEATURES` switches off its AVX2 and AVX-512 ones),

and they must give the same verdicts. tests/test_kernels.py checks that the forcing takes effect
(in both passes: SECOND_PASS names what runs again), that it changes the rounding (else this pass
would prove nothing), and that every figure comes out the same under these kernels.

    python -m tests.kernels                # the second pass (make test-kernels)
    python -m tests.kernels --core NAME    # the same with another OpenBLAS kernel (Nehalem, Haswell, ...)
    python -m tests.kernels render DIR     # every page's figures, as SVG files in DIR
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]



def _umath():
    """numpy's core module, which knows its SIMD targets (`__cpu_dispatch__`) and which are on."""
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # numpy 1.x
        from numpy.core import _multiarray_umath as umath
    return umath


def _numpy_dispatch() -> str:
    """numpy's optional SIMD targets (numpy 2.4 on x86-64: X86_V3 X86_V4 AVX512_ICL AVX512_SPR); a
    target this CPU lacks is simply not there to switch off."""
    return " ".join(_umath().__cpu_dispatch__)


# The other machine, forced: OpenBLAS's Sandybridge kernels and numpy's baseline loops. Off x86-64,
# OpenBLAS's generic ARMv8 kernel stands in (not measured here: no such machine).
OTHER_KERNELS = {
    "OPENBLAS_CORETYPE": "Sandybridge" if platform.machine() in ("x86_64", "AMD64") else "ARMV8",
    "NPY_DISABLE_CPU_FEATURES": _numpy_dispatch(),
}


def numpy_blas() -> str:
    """The BLAS numpy was built with, as its build records it ('scipy-openblas 0.3.31 ... DYNAMIC_ARCH';
    macOS wheels use Accelerate, which has no kernel to force)."""
    import numpy as np

    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    return f"{blas.get('name')} {blas.get('version')} {blas.get('openblas configuration', '')}".strip()


# What runs again: every page's checked values, every lab's claims, and the checks that the forcing
# took effect (not test_kernels.py's comparisons of the two kernels: they run both themselves, once).
SECOND_PASS = (
    "tests/test_prose.py::test_python_blocks_print_what_the_code_computes",
    "tests/test_labs.py::test_the_lab_runs_as_a_script_and_its_claims_hold",
    "tests/test_kernels.py::test_the_other_kernels_are_the_ones_in_use",
    "tests/test_kernels.py::test_svg_difference_sees_a_moved_point_and_a_changed_word",
)


def default_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """`env` (default: this process's) with no kernel forced."""
    return {k: v for k, v in (os.environ if env is None else env).items() if k not in OTHER_KERNELS}


def other_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """`env` (default: this process's) with the other kernels forced."""
    return {**default_environment(env), **OTHER_KERNELS}


def render(out_dir: Path) -> int:
    """Every page's figures (lessons and paper companions) drawn by the project's renderer, one
    process per page as `make figures` does, written to out_dir/<slug>.<name>.svg. Returns the count."""
    from figures_build import _render_all
    from project.model import Project
    from project.reading import figure_file

    project = Project.read(ROOT, check=False)
    out_dir.mkdir(parents=True, exist_ok=True)
    count = 0
    for rendered in _render_all(project.root, [(s, page.package) for s, page in project.by_slug.items()], None):
        if rendered.error:
            raise SystemExit(rendered.error)
        for name, svg in rendered.svgs.items():
            (out_dir / figure_file(rendered.slug, name)).write_bytes(svg)
            count += 1
    return count


def main(argv: list[str]) -> int:
    if argv[:1] == ["render"] and len(argv) == 2:
        print(f"{render(Path(argv[1]))} SVGs in {argv[1]}")
        return 0
    env = other_environment()
    if argv[:1] == ["--core"] and len(argv) == 2:  # another OpenBLAS kernel for this pass (Nehalem: no AVX)
        env["OPENBLAS_CORETYPE"], argv = argv[1], []
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    started = time.perf_counter()
    forced = " ".join(f"{k}={env[k]!r}" for k in OTHER_KERNELS)
    print(f"second pass, other kernels: {forced} (numpy's BLAS: {numpy_blas()})")
    code = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", *SECOND_PASS], cwd=ROOT, env=env).returncode
    print(f"second pass: {time.perf_counter() - started:.0f} s")
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
