"""Challenge 07's checker (stretching the context), through its command line (`python -m challenges`):
the reference solution passes; one learner file per named mistake fails with that mistake's hint, word
for word from the checker's own table; each rebuilt mistake differs from the right speeds at both head
widths it is recognised at; the checker's reference values are transformers' reference vectors for the
blocks it asks for; an NTK exponent right only at head width 128 and float16 speeds fail; the starter
fails cleanly; the page's numbers, sample output and tables are the checker's and the solution's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from challenges.c07 import checks
from challenges.c07.checks import ATTN, LLAMA3, NTK, PI, YARN
from lessons import context_extension as ce
from lessons.positional import rope_frequencies
from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C07 = ROOT / "challenges" / "c07"
PAGE = (ROOT / "docs" / "challenges" / "07-stretching.md").read_text(encoding="utf-8")
SOLUTION = (C07 / "solution.py").read_text(encoding="utf-8")
VECTORS = {r["name"]: r for r in json.loads((ROOT / "tests" / "data" / "reference_vectors.json")
                                            .read_text(encoding="utf-8"))["rope"]}
PROPS = [p.name for p in checks.PROPERTIES]
BY_FUNCTION = {fn: [p.name for p in checks.PROPERTIES if p.needs == fn] for fn in checks.FUNCTIONS}
ALL_YARN = ("yarn_values", "yarn_ends", "yarn_truncate", "yarn_transformers")
ALL_LLAMA3 = ("llama3_values", "llama3_bands", "llama3_transformers")

# (learner file in tests/data/c07, function, the mistake's index in checks.MISTAKES[function], the properties
# that name it: every property it fails, the others pass)
NAMED = [
    ("pi_factor_multiplied.py", PI, 0, ("pi_values", "pi_transformers")),
    ("ntk_exponent_dropped.py", NTK, 0, ("ntk_values", "ntk_ends", "ntk_transformers")),
    ("ntk_interpolation_on_top.py", NTK, 1, ("ntk_values", "ntk_ends", "ntk_transformers")),
    ("yarn_betas_swapped.py", YARN, 0, ALL_YARN),
    ("yarn_weights_swapped.py", YARN, 1, ALL_YARN),
    ("yarn_never_rounded.py", YARN, 2, ("yarn_values", "yarn_transformers")),
    ("yarn_always_rounded.py", YARN, 3, ("yarn_truncate", "yarn_transformers")),
    ("yarn_high_clipped_half.py", YARN, 4, ("yarn_values",)),
    ("yarn_factor_in_exponent.py", YARN, 5, ALL_YARN),
    ("yarn_wavelengths_blended.py", YARN, 6, ("yarn_values", "yarn_truncate", "yarn_transformers")),
    ("yarn_ramp_over_2i.py", YARN, 7, ALL_YARN),
    ("attn_plus_one_dropped.py", ATTN, 0, ("attn_values", "attn_transformers")),
    ("attn_left_at_1.py", ATTN, 1, ("attn_values", "attn_transformers")),
    ("attn_squared.py", ATTN, 2, ("attn_values", "attn_transformers")),
    ("llama3_low_high_swapped.py", LLAMA3, 0, ALL_LLAMA3),
    ("llama3_low_high_swapped_loop.py", LLAMA3, 1, ALL_LLAMA3),
    ("llama3_plain_speeds.py", LLAMA3, 2, ALL_LLAMA3),
    ("llama3_smoothing_reversed.py", LLAMA3, 3, ALL_LLAMA3),
    ("llama3_wavelengths_blended.py", LLAMA3, 4, ALL_LLAMA3),
    ("llama3_wavelength_without_2pi.py", LLAMA3, 5, ALL_LLAMA3),
    ("llama3_ends_without_factors.py", LLAMA3, 6, ALL_LLAMA3),
]


def _hint(fn: str, index: int) -> str:
    """'classic mistake "NAME": EXPLANATION' as the checker's own table words it."""
    name, why, _, classic = checks.MISTAKES[fn][index]
    return f'{"classic mistake" if classic else "mistake"} "{name}": {why}'


# --- learner files in tests/data/c07: each named mistake gets its own hint, word for word -----------------


@pytest.mark.parametrize("name, fn, index, named_by", NAMED, ids=[n for n, *_ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, fn, index, named_by):
    code, lines, output = kit.learner(tmp_path, "07", name)
    assert code == 1
    for prop in named_by:
        assert lines[prop] == f"FAIL {prop}: {_hint(fn, index)}", output
    assert set(named_by) <= set(BY_FUNCTION[fn])
    assert all(lines[p].startswith("PASS") for p in PROPS if p not in named_by), output


def test_each_named_mistake_has_a_learner_file():
    rebuilt = [(fn, i) for fn, entries in checks.MISTAKES.items() for i in range(len(entries))]
    assert sorted((fn, i) for _, fn, i, _ in NAMED) == sorted(rebuilt)
    assert len({n for n, *_ in NAMED}) == len(NAMED) and len({name for fn, i in rebuilt
                                                              for name in [checks.MISTAKES[fn][i][0]]}) >= 6
    assert all(kit.learner_file("07", n).is_file() for n, *_ in NAMED)


def test_every_learner_file_is_used_by_a_test():
    used = {n for n, *_ in NAMED} | {"ntk_hard_coded_64_63.py"}
    assert {p.name for p in (ROOT / "tests" / "data" / "c07").glob("*.py")} == used


def test_the_rebuilt_mistakes_are_told_apart_at_both_sizes():
    """Each rebuilt mistake misses the right speeds at both head widths (stretches) it is recognised at, and
    no two give the same numbers at every probe."""
    for fn, entries in checks.MISTAKES.items():
        probes = checks.PROBES[fn]
        sizes = {args[0] for args, _ in probes}
        assert len(sizes) == 2, fn
        right = [checks.REFERENCE[fn](*a, **kw) for a, kw in probes]
        built = [[wrong(*a, **kw) for a, kw in probes] for _, _, wrong, _ in entries]
        for out, (name, *_) in zip(built, entries, strict=True):
            missed = {a[0] for (a, _), o, r in zip(probes, out, right, strict=True) if not checks.same(o, r)}
            assert missed == sizes, (fn, name, missed)
        for a in range(len(built)):
            for b in range(a + 1, len(built)):
                assert not all(checks.same(x, y) for x, y in zip(built[a], built[b], strict=True)), (fn, a, b)


# --- the reference is transformers': the blocks the checker asks for, against tests/data's vectors -------


def _arguments(record: dict, fn: str) -> tuple[tuple, dict]:
    """The challenge function's arguments for a reference-vectors record (defaults left out)."""
    p = record["rope_parameters"]
    d, base = int(record["head_dim"] * (p.get("partial_rotary_factor") or 1.0)), p.get("rope_theta", 10000.0)
    if fn == PI:
        return (d, base, p["factor"]), {}
    if fn == NTK:
        return (d, base, ce.dynamic_ntk_stretch(p["factor"], record["seq_len"], record["max_position_embeddings"])), {}
    if fn == ATTN:
        return (p["factor"],), {}
    if fn == LLAMA3:
        return (d, base, p["factor"], p["low_freq_factor"], p["high_freq_factor"],
                p["original_max_position_embeddings"]), {}
    defaults = {"beta_fast": 32, "beta_slow": 1, "truncate": True}
    return ((d, base, p["factor"], p["original_max_position_embeddings"]),
            {k: p[k] for k in defaults if k in p and p[k] != defaults[k]})


@pytest.mark.parametrize("name, fn, args, kwargs", checks.TRANSFORMERS,
                         ids=[f"{fn}: {name}" for name, fn, *_ in checks.TRANSFORMERS])
def test_the_checkers_reference_is_transformers_reference_vectors(name, fn, args, kwargs):
    record = VECTORS[name]
    assert (args, kwargs) == _arguments(record, fn)
    got = checks.REFERENCE[fn](*args, **kwargs)
    if fn == ATTN:
        assert got == pytest.approx(record["attention_factor"], rel=1e-6)
    else:
        np.testing.assert_allclose(got, record["inv_freq"], rtol=1e-5, atol=0)


def test_the_checker_asks_for_every_real_models_block():
    asked = {name for name, *_ in checks.TRANSFORMERS}
    for model in ("Llama 3.1 8B", "Llama 3.2 1B", "Qwen2.5 7B YaRN", "Yarn-Llama-2-7b-64k", "gpt-oss",
                  "DeepSeek-V2-Lite"):
        assert any(name.startswith(model) for name in asked), model
    assert {fn for _, fn, *_ in checks.TRANSFORMERS} == set(checks.FUNCTIONS)


# --- right at one size only, float16, the starter -------------------------------------------------------


def test_an_ntk_exponent_right_only_at_head_width_128_fails_unnamed(tmp_path):
    # base * factor ** (64 / 63): d/(d-2) written for d = 128, as in oobabooga/textgen #3452
    code, lines, output = kit.learner(tmp_path, "07", "ntk_hard_coded_64_63.py")
    assert code == 1
    assert lines["ntk_values"] == (
        "FAIL ntk_values: ntk_inv_freq(8, 10000.0, 4.0) must be [1, 0.062996, 0.003969, 0.00025] (base' = "
        "10000·4^(8/6), so θ_i is multiplied by 4^(-i/3)); yours is [1, 0.070323, 0.004945, 0.000348]"), output
    assert lines["ntk_ends"].startswith("FAIL ntk_ends: NTK-aware scaling keeps pair 0 at 1 radian per"), output
    assert lines["ntk_transformers"].startswith("PASS"), output  # its blocks are all of width 128
    assert "mistake" not in output
    assert all(lines[p].startswith("PASS") for p in PROPS if p not in ("ntk_values", "ntk_ends")), output


def test_speeds_rounded_to_float16_are_told_so(tmp_path):
    source = kit.edited(SOLUTION, ("    return base ** (-np.arange(0, head_dim, 2) / head_dim)",
                                   "    return (base ** (-np.arange(0, head_dim, 2) / head_dim)).astype(np.float16)"
                                   ".astype(float)"))
    code, lines, output = kit.check(tmp_path, "07", source)
    assert code == 1
    notes = (", relative, and every value you return is a float16 number: part of your computation is in float16; "
             "compute in float32 or float64)",  # the speeds as rounded, or divided by a power of 2
             ", relative: a small error, from float16 somewhere in your computation or from a slightly wrong "
             "constant such as a base or a scale)")  # rounded speeds, then a float64 step
    for prop in PROPS:
        if prop.startswith("attn_"):
            assert lines[prop].startswith("PASS"), output
        else:
            assert lines[prop].endswith(notes) and " (off by at most " in lines[prop], output
    assert lines["pi_values"].endswith(notes[0]), output  # θ/4 of a float16 number is one


# --- the page: its numbers, its sample output, its tables -------------------------------------------------


def test_the_pages_worked_example_is_the_solutions():
    solution = kit.load(C07 / "solution.py")
    text = " ".join(PAGE.split())

    def vec(values) -> str:
        return "(" + ", ".join(f"{v:.3g}" for v in values) + ")"

    assert f"$\\theta = {vec(rope_frequencies(8))}$" in text
    assert f"interpolation gives ${vec(solution.pi_inv_freq(8, 10000.0, 4.0))}$" in text
    assert f"\\approx {10000 * 4 ** (4 / 3):.0f}$ and gives ${vec(solution.ntk_inv_freq(8, 10000.0, 4.0))}$" in text
    low, high = (ce.yarn_correction_dim(r, 8, 10000.0, 4096) for r in (32, 1))
    assert f"$i(32) \\approx {low:.2f}$ and $i(1) \\approx {high:.2f}$" in text
    assert np.isclose(low, np.log10(4096 / (64 * np.pi))) and np.isclose(high, np.log10(4096 / (2 * np.pi)))
    assert f"the speeds ${vec(solution.yarn_inv_freq(8, 10000.0, 4.0, 4096))}$" in text
    ramp = (2 - low) / (high - low)
    unrounded = solution.yarn_inv_freq(8, 10000.0, 4.0, 4096, truncate=False)
    assert f"\\approx {ramp:.2f}$ and its speed ${unrounded[2]:.5f}$" in text
    assert f"is $0.1 \\ln 4 + 1 \\approx {solution.yarn_attention_factor(4.0):.4f}$" in text
    smooth = (2048 / (2 * np.pi / 0.01) - 1) / 3
    llama3 = solution.llama3_inv_freq(8, 10000.0, 4.0, 1.0, 4.0, 2048)
    assert f"\\approx {smooth:.4f}$: the speeds are ${vec(llama3)}$" in text
    assert f"(0.21 for $s = 8$) instead of $0.1 \\ln s + 1$ ({solution.yarn_attention_factor(8.0):.2f})" in text
    # the interview note's Llama 3.1 bands
    wave = ce.rope_wavelengths(rope_frequencies(128, 500000.0))
    kept, divided = np.flatnonzero(wave < 2048), np.flatnonzero(wave > 8192)
    assert f"keeps pairs 0 to {kept[-1]}, blends {kept[-1] + 1} to {divided[0] - 1} and divides {divided[0]} to 63" \
        in text


def test_the_pages_sample_output_is_the_checkers(tmp_path):
    _, _, output = kit.learner(tmp_path, "07", "llama3_low_high_swapped.py")
    assert kit.page_sample(ROOT / "docs" / "challenges" / "07-stretching.md") == output.strip()


NUMBER_WORDS = {15: "fifteen", 16: "sixteen", 17: "seventeen"}


def test_the_pages_tables_are_the_checkers():
    assert [row[0] for row in kit.page_table(PAGE, "properties pass\n```")] == [f"`{p}`" for p in PROPS]
    named: dict[str, tuple[bool, set[str]]] = {}
    for _, fn, index, named_by in NAMED:
        name, _, _, classic = checks.MISTAKES[fn][index]
        named.setdefault(name, (classic, set()))[1].update(named_by)
    table = kit.page_table(PAGE, "names these mistakes when your output matches one:")
    rows = {row[0].removesuffix(" (not classic)"): row for row in table}
    assert set(rows) == set(named)
    for name, row in rows.items():
        classic, named_by = named[name]
        assert row[0].endswith("(not classic)") != classic, name
        assert set(re.findall(r"`(\w+)`", row[2])) == named_by, name
    assert f"the checker's {NUMBER_WORDS[len(named)]}" in PAGE


def test_the_pages_code_fits_79_columns():
    blocks = re.findall(r"```(?:python|text|bash)\n(.*?)```", PAGE, re.S)
    long = [line for block in blocks + [SOLUTION] for line in block.splitlines() if len(line) > 79]
    assert not long, long


