"""A lab that fails stops the build with one line naming the lab's file and saying what failed:
a cell that stalls past the kernel's time-out (PRIMER_TIMEOUT), or one that raises."""

from __future__ import annotations

from tests.projects import make_project
from tests.test_site_build import lesson, mkdocs_build, our_errors


def test_a_lab_that_stalls_or_raises_stops_the_build_in_one_line(tmp_path):
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True)
    (project / "labs").mkdir()
    (project / "labs" / "stalls.py").write_text('# %% [markdown]\n# # A lab that stalls\n\n# %%\nimport time\n\n'
                                                'time.sleep(600)\n')
    stalled = mkdocs_build(project, PRIMER_TIMEOUT="4")
    errors = our_errors(stalled)
    assert stalled.returncode != 0 and len(errors) == 1, stalled.stderr
    assert "labs/stalls.py: the notebook did not run: CellTimeoutError" in errors[0], errors[0]
    # a cell that raises: the line says what it raised, not nbclient's "An error occurred ..."
    (project / "labs" / "stalls.py").unlink()
    (project / "labs" / "raises.py").write_text('# %% [markdown]\n# # A lab that raises\n\n# %%\n'
                                                'raise ValueError("planted for the test")\n')
    raised = mkdocs_build(project)
    errors = our_errors(raised)
    assert raised.returncode != 0 and len(errors) == 1, raised.stderr
    assert ("labs/raises.py: the notebook did not run: CellExecutionError: a cell raised ValueError: "
            "planted for the test") in errors[0], errors[0]
