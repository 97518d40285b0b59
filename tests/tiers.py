"""The test tiers (issue 41): which tier each test is in, and the guard that keeps the `unit` tier
honest. tests/conftest.py applies both.

- `browser`: opens built pages in Chromium (marked in the test modules);
- `build`: builds the site or the figures, trains or runs a model, or starts another process (mkdocs,
  Node, Chromium, a lab, a challenge, the kernels pass, the publisher): the modules in BUILD_MODULES
  as a whole (and every `test_challenge_NN.py` and every `test_*_node.py`, which runs JavaScript in
  Node), and the tests in BUILD_TESTS one by one;
- `unit`: everything else, in this process only. `make check` runs it (under 60 s on 2 cores).

A unit test that starts a process fails, naming what it started (`no_process`): mark it `build`
here, or test it in-process."""

from __future__ import annotations

import multiprocessing.util
import os
import subprocess
import threading
from contextlib import contextmanager

import pytest

BUILD_MODULES = ("test_site_build.py", "test_figures_build.py", "test_publish.py", "test_workflow.py",
                 "test_experiments.py", "test_real_model.py", "test_real_model_study.py", "test_kernels.py",
                 "test_planted_bugs.py", "test_challenges.py", "test_serve.py", "test_notebook_failures.py",
                 "test_math.py", "test_model_card_node.py", "test_downloads.py", "test_labs_use.py")  # KaTeX and the decoder's JS port, in Node

# module -> the tests in it that start a process (every parameter of each); the rest of the module is `unit`.
BUILD_TESTS: dict[str, tuple[str, ...]] = {
    # the figure build (its worker processes)
    "test_prose.py": ("test_figures_shown_are_produced_and_described",
                      # mkdocs.yml's plugins, loaded for their Markdown settings, run `pandoc --version`
                      "test_every_python_block_the_site_renders_is_checked"),
    "test_figure_text.py": ("test_every_figure_s_smallest_text_renders_at_the_floor",),
    "test_notebook_figures.py": ("test_a_notebooks_figures_read_on_a_phone_and_nothing_overlaps",),  # runs each lab
    "test_palette.py": ("test_every_figure_has_a_dark_twin_with_no_white_shape",),
    # a fresh interpreter: a script, a command line, another hash seed, imports from nothing
    "test_labs.py": ("test_the_lab_runs_as_a_script_and_its_claims_hold", "test_tf2_checks_its_knobs_on_entry",
                     "test_tf1_holds_for_other_knobs_and_refuses_bad_ones"),
    "test_positional.py": ("test_demo_runs_as_a_module", "test_word_vector_is_fixed_and_not_salted"),
    "test_model_card.py": ("test_cli_json_is_the_card", "test_cli_reads_a_gallery_slug_and_lists_them",
                           "test_bad_input_gets_one_line_and_a_nonzero_exit", "test_missing_file_and_bad_length"),
    "test_modelcard_reports.py": ("test_the_old_command_is_an_alias",),
    "test_imports.py": ("test_loading_the_build_imports_no_content",),
    "test_lesson_size.py": ("test_every_other_module_fits_its_budget",),  # `git ls-files`
    # mkdocs-jupyter's template (jupytext, which it imports, runs `pandoc --version`)
    "test_search_browser.py": ("test_a_notebook_page_indexes_its_prose_not_its_code",),
}


def tier(item: pytest.Item) -> str:
    """`browser`, `build` or `unit`, for a collected test."""
    if item.get_closest_marker("browser"):
        return "browser"
    if item.path.name in BUILD_MODULES or item.path.name.startswith("test_challenge_") or item.path.name.endswith("_node.py") or getattr(item, "originalname", item.name) in BUILD_TESTS.get(item.path.name, ()):
        return "build"
    return "unit"


# Threads that may start processes while a unit test runs: conftest's background site builds.
_may_spawn = threading.local()


def allow_processes() -> None:
    """Let the calling thread start processes even while a unit test runs (the background builds)."""
    _may_spawn.ok = True


class ProcessInUnitTest(RuntimeError):
    """A unit-tier test started a process."""


# Every way Python starts a process: subprocess (and os.popen, asyncio, which use it), fork, the
# posix_spawn calls, os.system, and multiprocessing's spawn and forkserver start methods.
_STARTERS = ((subprocess.Popen, "__init__"), (os, "fork"), (os, "forkpty"), (os, "posix_spawn"),
             (os, "posix_spawnp"), (os, "system"), (multiprocessing.util, "spawnv_passfds"))


@contextmanager
def no_process(nodeid: str):
    """While the block runs, starting a process from this thread raises ProcessInUnitTest; on leaving,
    fails if any was attempted, even when the code under test caught the error."""
    attempts: list[str] = []

    def refusing(original, what):
        def refuse(*args, **kwargs):
            if getattr(_may_spawn, "ok", False):
                return original(*args, **kwargs)
            command = (args[1] if len(args) > 1 else kwargs.get("args")) if what == "subprocess.Popen" else args[:1]
            attempts.append(f"{what}({str(command)[:120]})")
            raise ProcessInUnitTest(f"{nodeid} started a process: {attempts[-1]}. The unit tier (make check) starts "
                                    "none: test it in-process, or mark it `build` in tests/tiers.py (BUILD_TESTS)")
        return refuse

    with pytest.MonkeyPatch.context() as patch:
        for owner, name in _STARTERS:
            if hasattr(owner, name):
                label = "subprocess.Popen" if owner is subprocess.Popen else f"{owner.__name__}.{name}"
                patch.setattr(owner, name, refusing(getattr(owner, name), label))
        yield
    if attempts:
        pytest.fail(f"{nodeid} is in the unit tier but started {len(attempts)} process(es): {'; '.join(attempts)}. "
                    "Test it in-process, or mark it `build` in tests/tiers.py (BUILD_TESTS)", pytrace=False)
