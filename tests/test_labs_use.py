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

import numpy as np
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
        "import sys, types\n"
        "sys.modules['ipykernel'] = types.ModuleType('ipykernel')  # as in a kernel\n"
        "sys.argv = ['/usr/lib/python3/ipykernel_launcher.py', '-f', '/tmp/kernel-1234.json']\n"
        f"lab = {str(ROOT / 'labs' / f'{lab}.py')!r}  # run in the kernel's own process: argv[0] stays its launcher\n"
        "exec(compile(open(lab, encoding='utf-8').read(), lab, 'exec'), {'__name__': '__main__', '__file__': lab})\n",
        encoding="utf-8")
    result = subprocess.run([sys.executable, str(driver)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "MPLBACKEND": "Agg"})
    assert result.returncode == 0 and "claims hold" in result.stdout.splitlines()[-1], result.stderr[-2000:]


def test_the_planted_bugs_and_the_learner_s_functions_share_one_swap():
    assert tests.planted.swap is labs._use.swap
    assert not hasattr(tests.planted, "_rebind"), "tests/planted.py keeps a copy of the rebinding"


# --- TF1 and TF2 on a wrong rotation or mask (issue 42, item 3, the review's findings 2, 4 and 5) ---------------
C04 = "challenges/c04/solution.py"
C01 = "challenges/c01/solution.py"
ROPE_RETURN = "    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)"
ROPE_START = "    x = np.asarray(x, dtype=float)\n    seq, d = x.shape[-2:]"
TF1_ROPE = "apply_rope is its formula"
TF2_ROPE, TF2_MASK = "both rotations are their formulas", "causal_mask(n) is np.tril"
ONE_EDIT = [  # (lab, solution, old, new: the reference solution with one edit; the claims that must be all that FAIL)
    ("tf1_sinusoidal_vs_rope", C04, ROPE_START, ROPE_START.replace("dtype=float", "dtype=np.float16"), (TF1_ROPE,)),
    ("tf2_rope_layouts", C04, ROPE_START, ROPE_START.replace("dtype=float", "dtype=np.float16"), (TF2_ROPE,)),
    ("tf2_rope_layouts", C04, ROPE_RETURN,  # the learner turns interleaved pairs in Challenge 04's half-split function
     "    x1, x2 = x[..., 0::2], x[..., 1::2]\n    out = np.empty_like(x)\n"
     "    out[..., 0::2], out[..., 1::2] = x1 * cos - x2 * sin, x1 * sin + x2 * cos\n    return out", (TF2_ROPE,)),
    ("tf2_rope_layouts", C04, "x1 * cos - x2 * sin, x1 * sin + x2 * cos", "x1 * cos + x2 * sin, -x1 * sin + x2 * cos",
     (TF2_ROPE,)),
    ("tf2_rope_layouts", C04, "cos, sin = np.cos(angles), np.sin(angles)", "cos, sin = np.sin(angles), np.cos(angles)",
     (TF2_ROPE,)),
    ("tf2_rope_layouts", C01, "np.tril(", "np.triu(", (TF2_MASK,)),
    ("tf2_rope_layouts", C01, "np.tril(np.ones((n, n), dtype=bool))", "np.ones((n, n), dtype=bool)", (TF2_MASK,)),
]


def one_edit(tmp_path: Path, solution: str, old: str, new: str) -> Path:
    source = (ROOT / solution).read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{solution} holds {old!r} {source.count(old)} times"
    return learner_file(tmp_path, [source.replace(old, new)])


def fails_exactly(lab: str, learner: Path, failing: list[str]) -> None:
    """The lab run on `learner` fails exactly the claims that start with `failing`, without a traceback."""
    result = run_lab(lab, "--use", str(learner))
    failed = claims(result.stdout, "FAILS")
    assert result.returncode == 1 and len(failed) == len(failing), result.stdout[-3000:] + result.stderr[-2000:]
    assert all(any(text.startswith(c) for text in failed) for c in failing), failed
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-3000:]


@pytest.mark.parametrize("lab, solution, old, new, failing", ONE_EDIT,
                         ids=["tf1-float16_inside", "tf2-float16_inside", "tf2-interleaved_pairs",
                              "tf2-rotation_reversed", "tf2-sin_cos_swapped", "tf2-mask_triu", "tf2-mask_all"])
def test_tf1_and_tf2_fail_a_wrong_rotation_or_mask_by_its_formula_claim_alone(lab, solution, old, new, failing,
                                                                               tmp_path):
    """The review's learner files (/tmp/bugs: d04_rope_float16_inside, d04_rope_interleaved_pairs, rope_reversed,
    d04_rope_sin_cos_swapped, mask_triu, mask_all) held every claim of TF2, and float16 inside held TF1's: a
    rotation is now held to its formula on random x, and the mask to np.tril."""
    fails_exactly(lab, one_edit(tmp_path, solution, old, new), failing)


def test_tf1_an_unfinished_apply_rope_leaves_the_sinusoidal_claim_standing(tmp_path):
    """half_done.py (the review's): a right sinusoidal_encoding and an apply_rope that raises. The two formula
    claims sit in cells of their own, so only the rotation's fails, naming the learner's error."""
    file = one_edit(tmp_path, C04, ROPE_START, '    raise NotImplementedError("todo")\n' + ROPE_START)
    result = run_lab("tf1_sinusoidal_vs_rope", "--use", str(file))
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr, result.stderr[-3000:]
    assert any(t.startswith("sinusoidal_encoding is its formula") for t in claims(result.stdout, "HOLDS")), result.stdout
    assert any(t.startswith(TF1_ROPE) and t.endswith("(raised NotImplementedError: todo)")
               for t in claims(result.stdout, "FAILS")), result.stdout


# --- the lab's run, crashes and adapters (issue 42, item 3, the review's findings 1, 5, 6 and 10) ---------------
LLAMA3_SWAPPED = "c07/llama3_low_high_swapped.py"


def run_driver(tmp_path: Path, code: str) -> subprocess.CompletedProcess:
    """A Python process running `code` from the project's root, as a notebook's kernel would."""
    driver = tmp_path / "driver.py"
    driver.write_text("import sys, types\nsys.modules['ipykernel'] = types.ModuleType('ipykernel')  # as in a kernel\n"
                      + code, encoding="utf-8")
    return subprocess.run([sys.executable, str(driver)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)})


def test_percent_run_in_a_notebook_runs_the_lab_on_the_learner_s_file(tmp_path):
    """Found by review (/tmp/review42dl/percent_run.py): `%run tf4_stretching_context.py --use FILE` in a kernel
    ran the lab on the lessons' code, every claim holding, because a loaded ipykernel meant "notebook". Now the
    lab's own file as argv[0] means "as a script", so IPython's real %run fails what the command line fails."""
    file = learner_file(tmp_path, [LLAMA3_SWAPPED])
    lab = "labs/tf4_stretching_context.py"
    ran = run_driver(tmp_path, "from IPython.core.interactiveshell import InteractiveShell\n"
                               f"InteractiveShell.instance().run_line_magic('run', '{lab} --use {file}')\n"
                               "print('the kernel goes on')\n")
    script = run_lab("tf4_stretching_context", "--use", str(file))
    assert script.returncode == 1 and claims(script.stdout, "FAILS"), script.stdout[-2000:]
    assert "your llama3_inv_freq (Challenge 07) runs as lessons." in ran.stdout, ran.stdout[-3000:] + ran.stderr
    assert claims(ran.stdout, "FAILS") == claims(script.stdout, "FAILS"), ran.stdout[-3000:]
    assert "SystemExit" in ran.stdout and ran.stdout.rstrip().endswith("the kernel goes on"), ran.stdout[-500:]
    assert "Traceback" not in ran.stdout + ran.stderr, ran.stdout[-3000:] + ran.stderr[-3000:]


def test_a_use_the_lab_cannot_read_is_refused_in_one_line(tmp_path):
    """A --use on a command line that is not the lab's own (argv[0] a kernel's launcher) stops the lab, exit 2,
    rather than run it on the lessons' code and print HOLDS."""
    file = learner_file(tmp_path, [LLAMA3_SWAPPED])
    lab = str(ROOT / "labs" / "tf4_stretching_context.py")
    ran = run_driver(tmp_path, f"sys.argv = ['/usr/lib/python3/ipykernel_launcher.py', '--use={file}']\nlab = {lab!r}\n"
                               "exec(compile(open(lab, encoding='utf-8').read(), lab, 'exec'), {'__name__': '__main__', '__file__': lab})\n")
    assert ran.returncode == 2 and not ran.stdout, ran.stdout[-2000:]
    assert ran.stderr.startswith("--use cannot be read here: this run's command line") and len(
        ran.stderr.strip().splitlines()) == 1, ran.stderr


CRASHING_LAB = '''# %%
from labs._lab import start

start()
TOL = 1e-9  # bound before the line that raises: computed in full
from math import sqrt


def unfinished():
    raise NotImplementedError("todo")


value = unfinished()
after = 1

# %%
from labs._lab import verdict


def reads_value():
    return value == 1


verdict({
    "reads TOL and sqrt only": lambda: TOL < 1 and sqrt(4) == 2,
    "reads value": lambda: value == 1,
    "reads after": lambda: after == 1,
    "reads value through the lab's own function": lambda: reads_value(),
    "reads value, its own check raising first": lambda: max([]) < value,
})
'''


def test_a_crash_fails_only_the_claims_needing_what_came_after_it_and_names_the_crash(tmp_path):
    """Found by review (half_done.py: 0 of 11, the sinusoidal claim failing with apply_rope's NotImplementedError,
    and apply_rope's with `max() arg is an empty sequence`): a crashed cell marked every name it binds, those
    bound before the line that raised too, and a claim's own error hid the crash it came from."""
    lab = tmp_path / "crashing_lab.py"
    lab.write_text(CRASHING_LAB, encoding="utf-8")
    result = subprocess.run([sys.executable, str(lab)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert claims(result.stdout, "HOLDS") == ["reads TOL and sqrt only"], result.stdout
    assert claims(result.stdout, "FAILS") == [f"{c} (raised NotImplementedError: todo)" for c in (
        "reads value", "reads after", "reads value through the lab's own function",
        "reads value, its own check raising first")], result.stdout
    assert "verdict: 1 of 5 claims hold" in result.stdout, result.stdout


def test_ntk_speeds_in_float32_as_transformers_computes_them_are_one_base(tmp_path):
    """Found by review (c07_float32.py): speeds computed in float32 were refused as "not one base's" (1.03e-07
    off, against 1e-9). NTK_ONE_BASE_RTOL (2e-6) lets float32's rounding through and still stops speeds
    that are not one base's (an interpolation on top: 0.875 off)."""
    def float32_ntk(d, base, factor):  # transformers: 1 / base**(arange(0, d, 2, int64).float() / d)
        raised = base * factor ** (d / (d - 2))
        return 1.0 / (raised ** (np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / d))

    for d, base, factor in ((128, 1e4, 8.0), (64, 5e5, 4.0), (80, 1e7, 64.0), (96, 1e6, 16.0)):
        read = labs._use.base_from_speeds(float32_ntk)(base, factor, d)
        assert abs(read / (base * factor ** (d / (d - 2))) - 1) < 1e-5, (d, base, factor, read)
    with pytest.raises(ValueError, match=r"not RoPE's speeds for one raised base: pair 0 is 0.875 off"):
        labs._use.base_from_speeds(lambda d, base, f: float32_ntk(d, base, f) / f)(1e4, 8.0, 128)
    source = (ROOT / "challenges" / "c07" / "solution.py").read_text(encoding="utf-8")
    old = "    return base ** (-np.arange(0, head_dim, 2) / head_dim)"
    assert source.count(old) == 1
    file = learner_file(tmp_path, [source.replace(
        old, "    return 1.0 / (base ** (np.arange(0, head_dim, 2, dtype=np.int64).astype(np.float32) / head_dim))")])
    result = run_lab("tf4_stretching_context", "--use", str(file))
    assert "your ntk_inv_freq (Challenge 07) runs as lessons." in result.stdout, result.stdout[-2000:] + result.stderr
    assert "one raised base" not in result.stdout.replace("its speeds read back as one raised base", ""), result.stdout
    # and no claim holds float32's rounding against it (TF4's F32: two claims compared to 1e-9 and 1e-12)
    assert result.returncode == 0 and "FAILS" not in result.stdout, result.stdout[-3000:]


def test_a_learner_s_file_imports_its_own_helper_module_beside_it(tmp_path):
    """Found by review: `from my_c04 import ...` in the learner's file raised ModuleNotFoundError (exit 2). Its
    folder is on sys.path while it is imported, and after, for a function that imports when called."""
    (tmp_path / "my_c04.py").write_text((ROOT / C04).read_text(encoding="utf-8"), encoding="utf-8")
    mine = tmp_path / "mine.py"
    mine.write_text("from my_c04 import apply_rope\n\n\ndef sinusoidal_encoding(n_positions, d_model):\n"
                    "    from my_c04 import sinusoidal_encoding as table\n\n    return table(n_positions, d_model)\n",
                    encoding="utf-8")
    result = run_lab("tf1_sinusoidal_vs_rope", "--use", str(mine))
    assert result.returncode == 0 and "FAILS" not in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]
    assert "your sinusoidal_encoding (Challenge 04) runs as lessons." in result.stdout, result.stdout[-2000:]


# --- TF3, TF4 and TF5 on what their claims did not reach (issue 42, item 3, the review's findings 3, 5, 7, 10) ---
C03_SOL, C07_SOL, C08_SOL = "challenges/c03/solution.py", "challenges/c07/solution.py", "challenges/c08/solution.py"
SLOPES, BIAS = "alibi_slopes is the paper's rule", "alibi_bias is -m_h"
PI_SECOND, NTK_SECOND = "d = 64, base 500,000, stretch 4: position interpolation", "d = 64, base 500,000, stretch 4: NTK"
BATCH, ONE_TOKEN = "a batch of two rows padded 4 and 1", "packed behind a one-token document"
UNREACHED = [  # (lab, solution, old, new: the reference solution with one edit; the claims that must be all that FAIL)
    ("tf3_kv_cache", C03_SOL, "np.arange(1, closest + 1) / closest", "np.arange(0, closest) / closest", (SLOPES, BIAS)),
    ("tf3_kv_cache", C03_SOL, "bias = -slopes[:, None, None] * gap", "bias = slopes[:, None, None] * gap", (BIAS,)),
    ("tf3_kv_cache", "challenges/c04/solution.py", "pe[:, 0::2] = np.sin(angles)\n    pe[:, 1::2] = np.cos(angles)",
     "pe[:, 0::2] = np.cos(angles)\n    pe[:, 1::2] = np.sin(angles)", ("sinusoidal_encoding is its formula",)),
    ("tf4_stretching_context", C07_SOL, "return _speeds(head_dim, base) / factor",
     "return _speeds(head_dim, 10000.0) / factor", (PI_SECOND,)),
    ("tf4_stretching_context", C07_SOL, "factor ** (head_dim / (head_dim - 2))", "factor ** (64 / 63)", (NTK_SECOND,)),
    ("tf5_position_ids", C08_SOL, "ids = np.cumsum(mask, axis=-1) - 1",
     "ids = np.broadcast_to(np.cumsum(mask[0]) - 1, mask.shape)", (BATCH,)),
    ("tf5_position_ids", C08_SOL, "starts[1:] = ids[1:] != ids[:-1] + 1", "starts[1:] = ids[1:] < ids[:-1]",
     (ONE_TOKEN,)),
]


@pytest.mark.parametrize("lab, solution, old, new, failing", UNREACHED,
                         ids=["tf3-slopes_h_from_0", "tf3-bias_sign_flipped", "tf3-table_sin_cos_swapped",
                              "tf4-pi_base_fixed", "tf4-ntk_64_63", "tf5-ids_first_row", "tf5-cut_where_ids_fall"])
def test_tf3_to_tf5_fail_a_mistake_their_claims_did_not_reach_by_the_new_claim_alone(lab, solution, old, new,
                                                                                      failing, tmp_path):
    """The review's learner files (/tmp/bugs: d03_slopes_h_from_0, d03_bias_sign_flipped, d04_table_sin_cos_swapped,
    pi_base_fixed, ntk_64_63, ids_first_row) held every claim: TF3 compared the cached path with the full pass,
    both on the learner's ALiBi and table; TF4 read one head; TF5 ran one row and no one-token document."""
    fails_exactly(lab, one_edit(tmp_path, solution, old, new), failing)


def test_tf4_one_recipe_s_error_fails_only_that_recipe_s_claims(tmp_path):
    """Found by review (d07_ntk_interpolation_on_top.py): NTK speeds that are not one base's raise in the adapter,
    and "no scaling" and "position interpolation, YaRN and Llama 3" failed with it, all five recipes being
    computed in one call. Each recipe's speeds are computed on their own now."""
    file = one_edit(tmp_path, C07_SOL, "    return _speeds(head_dim, raised)\n",
                    "    return _speeds(head_dim, raised) / factor\n")
    result = run_lab("tf4_stretching_context", "--use", str(file))
    failed = claims(result.stdout, "FAILS")
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr, result.stderr[-3000:]
    assert len(failed) == 2 and all(" (raised ValueError: your ntk_inv_freq's speeds are not RoPE's" in t
                                    for t in failed), failed
    assert {t[:12] for t in failed} == {"NTK-aware: a", NTK_SECOND[:12]}, failed
    assert len(claims(result.stdout, "HOLDS")) == 6, result.stdout[-3000:]
