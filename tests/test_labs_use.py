"""Labs on the learner's code (issue 42, item 3): `python labs/<lab>.py --use FILE` and
`python -m labs.<lab> --use FILE` run a lab's claims on the functions FILE defines.

Each lab declares what it takes (TAKES in its first code cell: the challenge's names, the lesson
function each stands in for, the adapter where the two differ) and its page says so. With the
challenges' reference solutions every claim holds; with a learner's file that carries a realistic
mistake (the challenges' own learner files in tests/data/cNN/) the claims about that mistake FAIL
by name, the lab exits 1 and prints no traceback. A file that defines none of the lab's functions,
a missing file or one that raises on import is one line and exit 2. In a notebook (ipykernel's
command line) nothing is read from the command line.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import labs._use
import tests.planted
from tests.conftest import ROOT

LABS = sorted(p.stem for p in (ROOT / "labs").glob("tf*.py"))
SOLUTIONS = {  # the challenges whose functions each lab takes
    "tf1_sinusoidal_vs_rope": ("04",),
    "tf2_rope_layouts": ("01", "04", "06"),
    "tf3_kv_cache": ("01", "02", "03", "04"),
    "tf4_stretching_context": ("07",),
    "tf5_position_ids": ("01", "08"),
}
C03 = (ROOT / "challenges" / "c03" / "solution.py").read_text(encoding="utf-8")
# a learner's ALiBi whose key positions count from 1: a new token's own key looks like a future one
KEYS_FROM_1 = C03.replace("j = np.asarray(key_positions, dtype=float)", "j = np.asarray(key_positions, dtype=float) + 1")
BUGGY = [  # (lab, learner file or source, the claims that must FAIL, whether they must say what was raised)
    ("tf1_sinusoidal_vs_rope", "c04/rope_sin_cos_swapped.py", ("apply_rope is its formula",), False),
    ("tf1_sinusoidal_vs_rope", "c04/rope_base_ignored.py", ("apply_rope is its formula",), False),
    ("tf1_sinusoidal_vs_rope", "c04/rope_exponent_without_2.py", ("apply_rope is its formula",), False),
    ("tf1_sinusoidal_vs_rope", "c04/table_sin_cos_swapped.py", ("sinusoidal_encoding is its formula",), False),
    ("tf1_sinusoidal_vs_rope", "c04/table_positions_ignored.py",
     ("sinusoidal codes added: the same pair's score spreads", "each cross term"), False),
    ("tf2_rope_layouts", "c06/to_half_odd_rows_first.py", ("converted interleaved -> half-split",), False),
    ("tf2_rope_layouts", "c06/to_inter_applied_again.py",
     ("converted half-split -> interleaved", "half_to_interleaved undoes"), False),
    ("tf2_rope_layouts", "c04/rope_interleaved_table.py", ("not converted: the score still depends only",), False),
    ("tf3_kv_cache", "c04/rope_sin_cos_swapped.py", ("true position: the cache holds each RoPE key rotated",), False),
    ("tf3_kv_cache", "c02/start_pos_ignored.py", ("true position: cached logits equal the full pass",), False),
    ("tf3_kv_cache", "c03/bias_positions_ignored.py", ("true position: cached logits equal the full pass",), False),
    ("tf3_kv_cache", KEYS_FROM_1, ("true position: cached logits equal the full pass",), True),
    ("tf3_kv_cache", "c01/mask_diagonal_excluded.py", ("true position: cached logits equal the full pass",), True),
    ("tf4_stretching_context", "c07/llama3_low_high_swapped.py",
     ("Llama 3 rule: every pair's speed, the middle band's included",), False),
    ("tf4_stretching_context", "c07/attn_plus_one_dropped.py", ("YaRN: the attention factor",), False),
    ("tf4_stretching_context", "c07/ntk_exponent_dropped.py", ("NTK-aware: all 18 slow pairs",), False),
    ("tf5_position_ids", "c08/ids_cumsum_without_minus_1.py", ("ids and mask right",), False),
    ("tf5_position_ids", "c08/pmask_not_causal.py", ("ids and mask right",), False),
    ("tf5_position_ids", "c01/mask_future_visible.py", ("attention not cut",), False),
]


def run_lab(lab: str, *args: str, module: bool = True) -> subprocess.CompletedProcess:
    """`python -m labs.<lab> ARGS` (or `python labs/<lab>.py ARGS`) from the project's root."""
    command = ["-m", f"labs.{lab}"] if module else [str(ROOT / "labs" / f"{lab}.py")]
    return subprocess.run([sys.executable, *command, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MPLBACKEND": "Agg"})


def learner_file(tmp_path: Path, sources: list[str]) -> Path:
    """One learner's file holding the given sources: code, or files (under challenges/, else tests/data/)."""
    texts = []
    for source in sources:
        if "\n" not in source:
            source = (ROOT / source if source.startswith("challenges/") else ROOT / "tests" / "data" / source
                      ).read_text(encoding="utf-8")
        texts.append(source)
    body = "\n\n".join(re.sub(r"^from __future__ import annotations\n", "", t, flags=re.M) for t in texts)
    path = tmp_path / "mine.py"
    path.write_text("from __future__ import annotations\n" + body, encoding="utf-8")
    return path


def takes(lab: str) -> list[tuple[str, str]]:
    """(learner's name, challenge) of each entry of the lab's TAKES, read from its source."""
    tree = ast.parse((ROOT / "labs" / f"{lab}.py").read_text(encoding="utf-8"))
    table = next(n.value for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "TAKES")
    return [(call.args[0].value, call.args[1].value) for call in table.elts]


def claims(output: str, verdict: str) -> list[str]:
    return [m.group(1) for m in re.finditer(rf"^{verdict}  (.*)$", output, re.M)]


@pytest.mark.parametrize("lab", LABS)
def test_the_lab_takes_the_challenges_functions_and_its_page_says_how(lab):
    taken = takes(lab)
    assert taken and {c for _, c in taken} == set(SOLUTIONS[lab]), taken
    header = (ROOT / "labs" / f"{lab}.py").read_text(encoding="utf-8").split("# %%\n")[0]
    assert f"`python labs/{lab}.py --use FILE`" in header and f"`python -m labs.{lab} --use FILE`" in header, lab
    for name, challenge in taken:
        assert f"`{name}" in header, f"labs/{lab}.py's page does not name {name}"
        assert f"[Challenge {challenge}](../../challenges/{challenge}-" in header, f"no link to Challenge {challenge}"
    assert "exit 2" in header, "the page says what a file with none of the functions does"


@pytest.mark.parametrize("lab", LABS)
def test_the_challenges_reference_solutions_hold_every_claim(lab, tmp_path):
    file = learner_file(tmp_path, [f"challenges/c{c}/solution.py" for c in SOLUTIONS[lab]])
    result = run_lab(lab, "--use", str(file), module=lab != "tf1_sinusoidal_vs_rope")  # both command lines
    assert result.returncode == 0 and "FAILS" not in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]
    for name, challenge in takes(lab):
        assert f"your {name} (Challenge {challenge}) runs as lessons." in result.stdout, name
    assert claims(result.stdout, "HOLDS"), result.stdout[-2000:]


@pytest.mark.parametrize("lab, source, failing, raised", BUGGY,
                         ids=[f"{lab[:3]}-{s if '/' in s else 'keys_from_1'}" for lab, s, _, _ in BUGGY])
def test_a_learner_s_mistake_fails_the_claims_about_it_without_a_traceback(lab, source, failing, raised, tmp_path):
    result = run_lab(lab, "--use", str(learner_file(tmp_path, [source])))
    failed = claims(result.stdout, "FAILS")
    missing = [c for c in failing if not any(text.startswith(c) for text in failed)]
    assert result.returncode == 1 and not missing, f"not failed: {missing}\n{result.stdout[-3000:]}\n{result.stderr}"
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-3000:]
    if raised:  # the learner's function raised: the claim says what, in its own line
        assert any(text.startswith(failing[0]) and " (raised " in text for text in failed), failed


def test_a_file_with_none_of_the_lab_s_functions_is_one_line_and_exit_2(tmp_path):
    file = tmp_path / "other.py"
    file.write_text("def attention(q, k, v):\n    return v\n", encoding="utf-8")
    result = run_lab("tf1_sinusoidal_vs_rope", "--use", str(file))
    assert result.returncode == 2 and not result.stdout, result.stdout
    assert result.stderr.strip() == (f"--use {file}: defines none of the functions tf1_sinusoidal_vs_rope takes: "
                                     "apply_rope (Challenge 04), sinusoidal_encoding (Challenge 04)")


def test_a_missing_file_or_one_that_raises_on_import_is_one_line_and_exit_2(tmp_path):
    missing = run_lab("tf3_kv_cache", "--use", str(tmp_path / "nowhere.py"))
    assert missing.returncode == 2 and missing.stderr.strip() == f"--use {tmp_path / 'nowhere.py'}: no such file"
    broken = tmp_path / "broken.py"
    broken.write_text("import numpy as np\nnp.zeros(3)[5]\n", encoding="utf-8")
    raised = run_lab("tf3_kv_cache", "--use", str(broken))
    assert raised.returncode == 2 and raised.stderr.strip() == (
        f"--use {broken}: importing it raised IndexError: index 5 is out of bounds for axis 0 with size 3")


def test_an_unknown_argument_is_refused_and_help_lists_what_the_lab_takes():
    unknown = run_lab("tf5_position_ids", "--usse", "x.py")
    assert unknown.returncode == 2 and "unrecognized arguments: --usse" in unknown.stderr, unknown.stderr
    shown = run_lab("tf5_position_ids", "--help")
    assert shown.returncode == 0 and "packed_attention_mask (Challenge 08)" in " ".join(shown.stdout.split())


@pytest.mark.parametrize("lab", LABS)
def test_in_a_notebook_the_lab_reads_no_command_line(lab, tmp_path):
    """mkdocs-jupyter runs the lab in ipykernel, whose argv (`-f kernel.json`) is not the lab's: the
    lab must run plainly, its cells in order, and end with the verdict."""
    driver = tmp_path / "kernel.py"
    driver.write_text(
        "import runpy, sys, types\n"
        "sys.modules['ipykernel'] = types.ModuleType('ipykernel')  # as in a kernel\n"
        "sys.argv = ['/usr/lib/python3/ipykernel_launcher.py', '-f', '/tmp/kernel-1234.json']\n"
        f"runpy.run_path({str(ROOT / 'labs' / f'{lab}.py')!r}, run_name='__main__')\n", encoding="utf-8")
    result = subprocess.run([sys.executable, str(driver)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "MPLBACKEND": "Agg"})
    assert result.returncode == 0 and "claims hold" in result.stdout.splitlines()[-1], result.stderr[-2000:]


def test_the_planted_bugs_and_the_learner_s_functions_share_one_swap():
    assert tests.planted.swap is labs._use.swap
    assert not hasattr(tests.planted, "_rebind"), "tests/planted.py keeps a copy of the rebinding"
