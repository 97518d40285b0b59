"""The explorables' wiring and budgets (explorables/__init__.py), without a browser: every box a
page holds names a registered explorable, every registered one sits on its lesson's page once,
its files exist, the manifest the loader reads lists them in load order, and each stays within its
budget in gzip bytes (code and data; its on-demand files within theirs)."""

from __future__ import annotations

import json
import re

import pytest

from explorables import REGISTRY
from explorables.data import MANIFEST, WEB, assets, data_path, script_path, sizes
from tests.conftest import ROOT

BOX = re.compile(r'<div class="primer-explorable" data-explorable="([a-z0-9_]+)" markdown="0"></div>')


def _boxes() -> dict[str, list[str]]:
    """{page source (relative path): names of the boxes in it} over lessons/ and papers/."""
    out = {}
    for path in sorted([*ROOT.glob("lessons/*.py"), *ROOT.glob("papers/*.py")]):
        names = BOX.findall(path.read_text(encoding="utf-8"))
        if names:
            out[str(path.relative_to(ROOT))] = names
    return out


def test_every_box_names_a_registered_explorable_and_each_sits_on_its_lesson_once():
    boxes = _boxes()
    unknown = {page: [n for n in names if n not in REGISTRY] for page, names in boxes.items()}
    assert not any(unknown.values()), f"boxes naming no registered explorable: {unknown}"
    for name, e in REGISTRY.items():
        assert boxes.get(f"lessons/{e.lesson}.py", []).count(name) == 1, f"{name}: not once on lessons/{e.lesson}.py"
        assert (WEB / f"{name}.js").is_file(), f"{name}: no explorables/web/{name}.js"
        assert f'PrimerExplorables.define("{name}"' in (WEB / f"{name}.js").read_text(encoding="utf-8")


def test_the_loader_lists_each_explorables_files_core_first_script_last():
    published = assets()
    manifest = json.loads(re.fullmatch(rb"window.PrimerExplorablesManifest = (\{.*\});\n", published[MANIFEST]).group(1))
    assert set(manifest) == set(REGISTRY)
    for name, e in REGISTRY.items():
        paths = manifest[name]
        assert paths[:2] == [script_path("core"), script_path("plot")] and paths[-1] == script_path(name), paths
        assert (data_path(name) in paths) == bool(e.data), paths
        assert all(p in published for p in paths), f"{name}: lists a file nothing publishes"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_each_explorable_stays_within_its_budget(name):
    e, size = REGISTRY[name], sizes(REGISTRY[name])
    assert size["mounted"] <= e.budget_kb * 1024, f"{name}: {size['mounted']} B gzip, budget {e.budget_kb} KB"
    assert size["extra"] <= e.extra_budget_kb * 1024, f"{name}: on demand {size['extra']} B gzip"


def test_the_wiring_check_can_fail():
    """A box naming an explorable nobody registered is found (planted in a copy of the text)."""
    planted = '<div class="primer-explorable" data-explorable="no_such" markdown="0"></div>'
    assert BOX.findall(planted) == ["no_such"] and "no_such" not in REGISTRY
