"""The content snapshot (site_build/snapshot.py) is taken again exactly when something it reads
changes: its key moves with a tools module, a decoder module, a gallery config and a lesson's
title, and stays put for a prose edit (a serve reload then starts no worker)."""

from __future__ import annotations

import pytest

from harness.copy import copy_project
from project.model import Project
from site_build.snapshot import snapshot_key


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("snapshot") / "project")


def _edit(path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text


@pytest.mark.parametrize(("file", "old", "new", "moves"), [
    ("lessons/tools/model_types.py", "LENGTH_ALIASES = {", 'LENGTH_ALIASES = {"planted": "n_ctx", ', True),
    ("modelcard/engines.py", 'SGLANG_RELEASE = "SGLang 0.5.23"', 'SGLANG_RELEASE = "SGLang 9"', True),
    ("lessons/gallery/gpt2.json", '"n_positions": 1024', '"n_positions": 2048', True),
    ("lessons/context_extension.py", "# How far can a model read?", "# How far does a model read?", True),
    ("lessons/context_extension.py", "## Level 1", "Planted prose.\n\n## Level 1", False),
])
def test_the_key_moves_with_what_the_snapshot_reads(project_copy, file, old, new, moves):
    before = snapshot_key(Project.read(project_copy))
    path = project_copy / file
    text = _edit(path, old, new)
    try:
        after = snapshot_key(Project.read(project_copy))
    finally:
        path.write_text(text, encoding="utf-8")
    assert (after != before) == moves, f"{file}: the key {'stayed' if moves else 'moved'}"
