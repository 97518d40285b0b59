"""Throw-away projects for tests: the real pipeline, made-up lessons."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HELPERS = ("__init__.py", "_checks.py", "_palette.py", "_show.py", "_vocabulary.py")


# The project's playground, made small: it imports this project's lessons
# (not the installed ones), so a test can see when an edit re-executes it.
NOTEBOOK = """# %% [markdown]
# # Playground

# %%
import sys

sys.path.insert(0, {root!r})
{imports}
print("ran")
"""


def make_project(tmp_path: Path, lessons: dict[str, str], order: list[str] | None = None, *, site: bool = False,
                 notebook: bool = True) -> Path:
    """A project with the real lessons helpers plus the given lesson files;
    with `site`, also the MkDocs config and docs (node_modules linked), and unless
    `notebook` is false a Playground notebook that imports `beta` (a build runs it in a
    kernel: a test not about notebooks leaves it out). The build itself (figures_build,
    site_build: the `primer` MkDocs plugin) is the installed one."""
    pkg = tmp_path / "lessons"
    pkg.mkdir(parents=True)
    for helper in HELPERS:
        shutil.copy(ROOT / "lessons" / helper, pkg / helper)
    set_order(tmp_path, order if order is not None else list(lessons))
    for slug, text in lessons.items():
        (pkg / f"{slug}.py").write_text(text)
    if site:
        shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
        shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("figures"))
        (tmp_path / "node_modules").symlink_to(ROOT / "node_modules")
        # the challenge pages include the real challenges' files, which this project lacks
        shutil.rmtree(tmp_path / "docs" / "challenges", ignore_errors=True)
        # the real authoring page names the real lessons, which this project lacks
        (tmp_path / "docs" / "authoring.md").write_text("# Writing a lesson\n\nSee the real project.\n")
        (tmp_path / "docs" / "contributing.md").write_text("# How the project is built\n\nSee the real project.\n")
        # the real home page links the real lessons, labs and challenge; keep what the plugin fills in
        (tmp_path / "docs" / "index.md").write_text("# Home\n\n<!-- offline-copy -->\n\n<!-- lesson-list -->\n")
        playground = tmp_path / "docs" / "notebooks" / "playground.py"
        if notebook:
            playground.write_text(NOTEBOOK.format(
                root=str(tmp_path), imports="".join(f"import lessons.{slug}\n" for slug in lessons if slug == "beta")))
        else:  # (the nav lists the notebooks there are: site_build/content.py)
            playground.unlink()
    return tmp_path


def set_order(project: Path, order: list[str]) -> None:
    init = project / "lessons" / "__init__.py"
    text = re.sub(
        r"READING_ORDER: tuple\[str, \.\.\.\] = \(.*?\)",
        "READING_ORDER: tuple[str, ...] = (" + "".join(f"\n    {s!r}," for s in order) + "\n)",
        init.read_text(),
        count=1,
        flags=re.S,
    )
    init.write_text(text)
