"""No module of the site build but site_build/content.py names a kind of content (issue 41, item 3):
a page path such as "labs/..." or "lessons/..." written in a string (or at the start of an f-string)
elsewhere would be a second place to change when a kind moves. The others ask content.py
(`kind_of`, `notebook_sources`, `is_lab`, ...) or the project model (a lesson's `page`)."""

from __future__ import annotations

import ast
from pathlib import Path

from site_build.content import KINDS
from tests.conftest import ROOT

PREFIXES = tuple(kind.prefix for kind in KINDS)
OWNER = "site_build/content.py"
ALLOWED = {
    # the content's source files the snapshot hashes (data folders of packages), not pages
    "site_build/snapshot.py",
}


def kind_names(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of each string in site_build/ (docstrings aside) that starts with a kind's
    page prefix, outside content.py and ALLOWED."""
    found = []
    for path in sorted((root / "site_build").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == OWNER or rel in ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}  # docstrings
        skipped |= {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = node.values[0].value if node.values and isinstance(node.values[0], ast.Constant) else ""
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
                text = node.value
            else:
                continue
            if isinstance(text, str) and text.startswith(PREFIXES):
                found.append((rel, node.lineno, text))
    return found


def test_only_content_py_names_a_kind_of_content():
    assert len(PREFIXES) == 5 and "labs/" in PREFIXES
    assert not kind_names(ROOT), f"name a kind through site_build/content.py: {kind_names(ROOT)}"


def test_the_kind_check_can_fail(tmp_path):
    (tmp_path / "site_build").mkdir()
    (tmp_path / "site_build" / "plugin.py").write_text(
        '"""A docstring may say lessons/rope.md."""\n\n'
        'def f(slug, uri):\n    """So may this: labs/."""\n'
        '    return f"lessons/{slug}.md", uri.startswith("labs/"), "reference/api"\n')
    (tmp_path / "site_build" / "content.py").write_text('PREFIX = "labs/"\n')
    assert kind_names(tmp_path) == [("site_build/plugin.py", 5, "lessons/"), ("site_build/plugin.py", 5, "labs/")]
