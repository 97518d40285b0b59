"""Under `mkdocs serve` (as `make serve` runs it), an edit to the content's code reaches the
served site without a restart: the server imports no content itself (site_build/snapshot.py
computes what it needs in a fresh process), so a changed decoder tools module changes the
tables the in-browser decoder loads and the reports on the gallery page."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

import pytest

from harness.copy import copy_project
from harness.serving import MkdocsServe

pytestmark = pytest.mark.build


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8")


def test_a_decoder_tools_edit_under_serve_reaches_the_page_without_a_restart(tmp_path):
    project = copy_project(tmp_path / "project", warm=True)
    with MkdocsServe(project, tmp_path / "serve.log") as serve:
        base = serve.base
        serve.wait_for("Serving on", 0, 600)
        tables = _get(base + "assets/model_card_tables.js")
        gallery = _get(base + "reference/model-card-gallery/")
        assert "SGLang 9.9.9" not in tables and "SGLang 9.9.9" not in gallery

        # a decoder tools module: its tables are published for the browser decoder, and the gallery
        # page's reports are written from it (a lessons/tools/ edit reaches them the same way, and
        # re-runs the labs' notebooks too, minutes of kernels, so the test edits this one)
        engines = project / "modelcard" / "engines.py"
        text = engines.read_text(encoding="utf-8")
        assert text.count('SGLANG_RELEASE = "SGLang 0.5.23"') == 1
        mark = len(serve.text())
        engines.write_text(text.replace('SGLANG_RELEASE = "SGLang 0.5.23"', 'SGLANG_RELEASE = "SGLang 9.9.9"'),
                           encoding="utf-8")
        serve.wait_for("Reloading browsers", mark, 600)
        tables, page = _get(base + "assets/model_card_tables.js"), _get(base + "reference/model-card-gallery/")
        assert "SGLang 9.9.9" in tables, \
            "the decoder's tables still come from the module the server imported before the edit"
        assert "SGLang 9.9.9" in page, \
            "the gallery page still shows the reports of the decoder the server imported before the edit"


AUDIT = r"""
import json, sys
CONTENT = {"lessons", "papers", "labs", "challenges", "modelcard"}
seen = set()
def hook(event, args):
    if event == "import" and str(args[0]).split(".")[0] in CONTENT:
        seen.add(str(args[0]))
sys.addaudithook(hook)
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config("mkdocs.yml", site_dir=sys.argv[1]))
print("CONTENT-IMPORTED " + json.dumps(sorted(seen)))
"""


def test_a_build_imports_no_content_in_its_own_process(tmp_path):
    """An audit hook watches every import of a real `mkdocs build` (the project copied with its
    caches): the build's own process loads no content module; the snapshot, the figure step and
    the notebooks run it in processes of their own."""
    project = copy_project(tmp_path / "project", warm=True)
    done = subprocess.run([sys.executable, "-c", AUDIT, str(tmp_path / "site")], cwd=project, capture_output=True,
                          text=True, timeout=900, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("CONTENT-IMPORTED "))
    assert json.loads(line.split(" ", 1)[1]) == [], f"the build's process imported content: {line}"
