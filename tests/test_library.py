"""The lessons as a library: imports follow the reading order and each public
name has one home. The same rules stop the build (project.model);
these tests hold the real lessons to them and prove the rules can fail."""

from __future__ import annotations

import pytest

from project.model import LessonError, Project
from tests.conftest import PROJECT, ROOT
from tests.projects import make_project

STUB = '''r"""
# Lesson {slug}
"""
{code}


def figures():
    return {{}}
'''


def stub(slug: str, code: str = "") -> str:
    return STUB.format(slug=slug, code=code)


def test_no_lesson_imports_a_later_one():
    PROJECT.check_imports()  # raises LessonError naming the file


def test_no_public_name_is_defined_in_two_lessons():
    PROJECT.check_names()


def test_every_lesson_imports_along_the_reading_order_transitively():
    """The import closure of each lesson holds only lessons before it (and helpers)."""
    place = {slug: i for i, slug in enumerate(PROJECT.slugs)}
    for slug in PROJECT.slugs:
        reached = [m for m in PROJECT.closure([slug]) if m in place]
        assert all(place[m] <= place[slug] for m in reached), (slug, reached)


def test_the_real_project_reads_with_every_rule_on():
    assert Project.read(ROOT).slugs == PROJECT.slugs


@pytest.mark.parametrize("code, message", [
    ("from lessons.gamma import thing", r"lessons/beta\.py: imports lessons\.gamma, which a reader meets later"),
    ("def f():\n    import lessons.gamma", r"lessons/beta\.py: imports lessons\.gamma"),  # inside a function too
    ("from lessons.beta import x", r"lessons/beta\.py: imports itself"),
    ("def shared():\n    pass", r"lessons/beta\.py:\d+: `shared` is already defined in lessons/alpha\.py:\d+"),
    ("SHARED = 1", r"lessons/beta\.py:\d+: `SHARED` is already defined in lessons/alpha\.py:\d+"),
])
def test_a_broken_rule_is_one_line_naming_the_file(tmp_path, code, message):
    project = make_project(tmp_path, {
        "alpha": stub("alpha", "def shared():\n    pass\n\n\nSHARED = 0"),
        "beta": stub("beta", code),
        "gamma": stub("gamma"),
    })
    with pytest.raises(LessonError, match=message) as caught:
        Project.read(project)
    assert "\n" not in str(caught.value)


def test_private_names_and_the_contract_functions_may_repeat(tmp_path):
    project = make_project(tmp_path, {
        "alpha": stub("alpha", "def _helper():\n    pass\n\n\ndef demo():\n    pass"),
        "beta": stub("beta", "def _helper():\n    pass\n\n\ndef demo():\n    pass"),
    })
    assert Project.read(project).slugs == ["alpha", "beta"]


def test_code_hash_ignores_the_docstring_and_follows_imports(tmp_path):
    project_dir = make_project(tmp_path, {"alpha": stub("alpha", "X_ALPHA = 1"),
                                          "beta": stub("beta", "from lessons.alpha import X_ALPHA")})
    before = Project.read(project_dir)
    alpha = project_dir / "lessons" / "alpha.py"
    alpha.write_text(alpha.read_text().replace("# Lesson alpha", "# Lesson alpha\n\nMore prose.\n"))
    prose = Project.read(project_dir)
    assert prose.code_hash(["alpha"]) == before.code_hash(["alpha"])
    assert prose.code_hash(["beta"]) == before.code_hash(["beta"])
    alpha.write_text(alpha.read_text().replace("X_ALPHA = 1", "X_ALPHA = 2"))
    code = Project.read(project_dir)
    assert code.code_hash(["alpha"]) != before.code_hash(["alpha"])
    assert code.code_hash(["beta"]) != before.code_hash(["beta"]), "beta imports alpha"


def test_figure_inputs_go_into_the_code_hash(tmp_path):
    """A lesson whose figures read data (lessons.measured reads experiments/results/) names it in
    FIGURE_INPUTS; a changed, added or removed data file re-renders its figures, and those of lessons
    that import it."""
    project_dir = make_project(tmp_path, {"alpha": stub("alpha", 'FIGURE_INPUTS = ("data/*.json",)'),
                                          "beta": stub("beta", "from lessons.alpha import figures as _f")})
    data = project_dir / "data"
    data.mkdir()
    (data / "a.json").write_text("1")
    project = Project.read(project_dir)
    assert project.by_slug["alpha"].inputs == ("data/*.json",)
    alpha, beta = project.code_hash(["alpha"]), project.code_hash(["beta"])
    (data / "a.json").write_text("2")
    assert project.code_hash(["alpha"]) != alpha and project.code_hash(["beta"]) != beta
    changed = project.code_hash(["alpha"])
    (data / "b.json").write_text("2")
    assert project.code_hash(["alpha"]) != changed
    added = project.code_hash(["alpha"])
    (data / "other.txt").write_text("not an input")
    assert project.code_hash(["alpha"]) == added
    bad = project_dir / "lessons" / "alpha.py"
    bad.write_text(bad.read_text().replace('("data/*.json",)', '"data/*.json"'))
    with pytest.raises(LessonError, match=r"alpha\.py:\d+: FIGURE_INPUTS must be a tuple"):
        Project.read(project_dir)


def test_tool_code_goes_into_the_code_hash_and_is_not_a_lesson(tmp_path):
    """lessons/tools/ holds tool code with no page: the build lists no lesson for it, and a lesson that
    imports a tool re-renders its figures when the tool's code changes (not when its docstring does)."""
    project_dir = make_project(tmp_path, {"alpha": stub("alpha", "from lessons.tools.table import ROWS")})
    tools = project_dir / "lessons" / "tools"
    tools.mkdir()
    (tools / "__init__.py").write_text('"""Tool code the lessons use: not lesson pages."""\n')
    (tools / "table.py").write_text('"""A table."""\n\nROWS = (1, 2)\n')
    before = Project.read(project_dir)
    assert before.slugs == ["alpha"] and "tools.table" in before.closure(["alpha"])
    (tools / "table.py").write_text('"""A table, described at more length."""\n\nROWS = (1, 2)\n')
    assert Project.read(project_dir).code_hash(["alpha"]) == before.code_hash(["alpha"])
    (tools / "table.py").write_text('"""A table."""\n\nROWS = (1, 2, 3)\n')
    assert Project.read(project_dir).code_hash(["alpha"]) != before.code_hash(["alpha"])


def test_every_tool_module_gets_an_api_page():
    """Each module of lessons/tools/ and of modelcard/ (the decoder) has an API page."""
    from site_build.pages import API_PAGE_DIRS, tool_api_pages

    pages = tool_api_pages(ROOT)
    for package, folder in (("lessons.tools", ROOT / "lessons" / "tools"), ("modelcard", ROOT / "modelcard")):
        modules = sorted(p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__"))
        here = API_PAGE_DIRS[package] + "/"
        assert sorted(uri[len(here):-3] for uri in pages if uri.startswith(here)) == modules
    assert "::: modelcard.engines.vllm_max_model_len" in pages[API_PAGE_DIRS["modelcard"] + "/engines.md"]
    assert "::: lessons.tools.rope_scaling.rope_inv_freq" in pages[API_PAGE_DIRS["lessons.tools"] + "/rope_scaling.md"]
