"""No import circle among the project's own modules (issue: a build you can read in one sitting).
Every import counts, at the top of a module or inside a function, since either ties the two files."""

from __future__ import annotations

import ast
from pathlib import Path

from project.model import CODE_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = CODE_PACKAGES  # the one list (project/model.py)


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports (a package's __init__ is the package's name)."""
    paths = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    graph = {}
    for name, path in paths.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                deps |= {m for m in [node.module, *(f"{node.module}.{a.name}" for a in node.names)] if m in paths}
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in paths}
            elif (target := dynamic_import(node)) is not None:  # runpy, importlib, __import__ with a name
                deps |= {m for m in (target, target.rsplit(".", 1)[0]) if m in paths}
        graph[name] = deps - {name}
    return graph


DYNAMIC = ("run_module", "import_module", "__import__")  # calls that load a module by its name


def dynamic_import(node: ast.AST) -> str | None:
    """The module name a call such as `runpy.run_module("x")`, `importlib.import_module("x")`,
    `import_module("x")` or `__import__("x")` loads, when given as a string literal; else None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    first = node.args[0]
    if called in DYNAMIC and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def circles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    found = set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt in path:
                cycle = path[path.index(nxt):]
                start = cycle.index(min(cycle))
                found.add(tuple(cycle[start:] + cycle[:start]))
            elif len(path) < 12:
                walk(nxt, path + [nxt])

    for node in graph:
        walk(node, [node])
    return found


def test_no_import_circle_among_the_project_modules():
    graph = import_graph()
    assert len(graph) > 30, "the scan found too few modules to be looking in the right place"
    assert not circles(graph), f"import circles: {sorted(circles(graph))}"


def test_the_circle_check_can_fail():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {("a", "b", "c")}
    assert circles({"a": {"b"}, "b": set()}) == set()


def test_loading_the_build_imports_no_content():
    """The plugin is loaded before it reads the project it builds: importing it must not import a
    `lessons` package (it would be this repository's, and a test project's own would go unseen)."""
    import subprocess
    import sys

    code = ("import sys; import site_build.plugin, figures_build.render; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'lessons', 'papers', 'labs', 'challenges', 'modelcard', 'explorables'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"importing the build imports content: {out}"


# The layers, lowest first: a module may import its own layer and the layers below it, never one
# above. At the bottom, what reads the project as text and imports none of it (the project model
# and page reader) and the browser/server harness; then the lessons; then the companions, labs,
# challenges and experiments that teach or measure with them; then the model-card decoder built
# over the lessons and the explorables (which may read the decoder's gallery); then the build, which renders everything.
LAYERS = (("project", "harness"), ("lessons",), ("papers", "labs", "challenges", "experiments"), ("modelcard", "explorables"),
          ("figures_build", "site_build"))


# The one arrow up, named: `python -m lessons.model_card ARGS` runs the decoder's command by its old
# name (runpy, when run as a script; importing the lesson loads nothing of modelcard).
UPWARD_ALLOWED = {("lessons.model_card", "modelcard"): "the decoder's command under its old name"}


def upward_arrows(graph: dict[str, set[str]], layers=LAYERS) -> list[tuple[str, str]]:
    """(importer, imported) for each import from a lower layer to a higher one, UPWARD_ALLOWED aside."""
    rank = {package: i for i, names in enumerate(layers) for package in names}
    return sorted((a, b) for a, deps in graph.items() for b in deps
                  if rank[a.split(".")[0]] < rank[b.split(".")[0]] and (a, b) not in UPWARD_ALLOWED)


def test_no_import_runs_from_a_lower_layer_to_a_higher_one():
    graph = import_graph()
    for (a, b), why in UPWARD_ALLOWED.items():
        assert b in graph[a], f"{a} no longer loads {b} ({why}): drop it from UPWARD_ALLOWED"
    assert {name.split(".")[0] for name in graph} == {p for layer in LAYERS for p in layer}, "a package has no layer"
    assert not upward_arrows(graph), f"imports that run up the layers: {upward_arrows(graph)}"


def test_the_layer_check_can_fail():
    """A lesson that imports the decoder is caught (the planted arrow the layering forbids)."""
    assert upward_arrows({"lessons.model_card": {"modelcard.engines"}, "modelcard.engines": set()}) == \
        [("lessons.model_card", "modelcard.engines")]
    assert upward_arrows({"modelcard.report": {"lessons.model_card"}, "lessons.model_card": set()}) == []


CONTENT = ("lessons", "papers", "labs", "challenges", "modelcard", "explorables")
# the build's modules that run content, both only inside the snapshot's fresh worker process
CONTENT_RUNNERS = ("site_build.snapshot", "site_build.published")
# what other build modules may take from them: data types, the key, the taking (which spawns its worker)
RUNNERS_SAFE = {"site_build.snapshot": ("Snapshot", "snapshot_key", "take", "LINK"),
                "site_build.published": ("page_title",)}


def content_imports(root=ROOT) -> dict[str, list[str]]:
    """{build module: the content it imports or loads with importlib}, for site_build/ and figures_build/."""
    found = {}
    for package in ("site_build", "figures_build"):
        for path in sorted((root / package).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            hits, runners = [], []
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                called = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    hits += [node.module] if node.module.split(".")[0] in CONTENT else []
                    if node.module in CONTENT_RUNNERS and name not in CONTENT_RUNNERS:  # a runner, called elsewhere
                        runners += [f"{node.module}.{a.name}" for a in node.names
                                    if a.name not in RUNNERS_SAFE.get(node.module, ())]
                elif isinstance(node, ast.Import):
                    hits += [a.name for a in node.names if a.name.split(".")[0] in CONTENT]
                elif called in DYNAMIC:
                    hits.append(called)
            hits += runners
            if hits:
                found[name] = hits
    return found


def test_the_server_process_runs_no_content():
    """Under `mkdocs serve` the plugin's process lives for the session: content it imported would
    stay as it was. Only the snapshot (site_build/snapshot.py, in a spawned worker each time the
    content changes) imports content; the figure step renders in its own workers
    (figures_build/render.py)."""
    allowed = (*CONTENT_RUNNERS, "figures_build.render")
    assert set(content_imports()) <= set(allowed), {k: v for k, v in content_imports().items() if k not in allowed}


def test_the_content_check_can_fail(tmp_path):
    (tmp_path / "site_build").mkdir()
    (tmp_path / "figures_build").mkdir()
    (tmp_path / "site_build" / "plugin.py").write_text("def f():\n    from lessons.model_card import explain\n")
    (tmp_path / "site_build" / "evidence.py").write_text("import importlib\nimportlib.import_module('lessons.x')\n")
    (tmp_path / "site_build" / "assets.py").write_text(
        "import runpy\nfrom site_build.published import lesson_assets\n__import__('modelcard.engines')\n")
    assert content_imports(tmp_path) == {"site_build.plugin": ["lessons.model_card"],
                                         "site_build.evidence": ["import_module"],
                                         "site_build.assets": ["__import__", "site_build.published.lesson_assets"]}


def test_a_dynamic_import_is_an_arrow():
    tree = ast.parse("import runpy\nrunpy.run_module('modelcard', run_name='__main__')\n"
                     "from importlib import import_module\nimport_module('lessons.rope')\n__import__('x')\n")
    assert [dynamic_import(n) for n in ast.walk(tree) if dynamic_import(n)] == ["modelcard", "lessons.rope", "x"]
