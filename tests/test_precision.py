"""lessons.precision against torch and transformers (tests/data/precision_vectors.json, written by
tests/reference/_precision_reference.py) and against its own error bound."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from lessons.context_extension import rope_inv_freq
import lessons.precision as precision_page
from lessons.precision import (
    ANGLE_ERROR_TERMS,
    ATLAS_OFFSETS,
    ATLAS_PIPELINES,
    BF16_BITS,
    atlas_by_offset,
    atlas_models,
    atlas_table,
    angle_error_terms,
    atlas_speeds,
    bf16_round,
    float32_speeds,
    format_ulp,
    largest_exact_integer,
    measured_angle_error,
    pipeline_cos_sin,
    precision_atlas,
    relative_angle_error,
    relative_errors,
)

ROOT = Path(__file__).resolve().parents[1]
VECTORS = json.loads((ROOT / "tests" / "data" / "precision_vectors.json").read_text(encoding="utf-8"))
sys.path.insert(0, str(ROOT / "tests" / "reference"))
from _precision_reference import lesson_mismatches  # noqa: E402


def test_vectors_come_from_the_reference_versions():
    assert VECTORS["versions"]["transformers"] == "5.24.0"
    assert VECTORS["versions"]["torch"].startswith("2.13")


def test_bf16_round_matches_torch_bit_for_bit():
    inputs = np.array(VECTORS["rounding"]["inputs_bits"], dtype=np.uint32).view(np.float32)
    want = np.array(VECTORS["rounding"]["torch_bits"], dtype=np.uint32)
    got = bf16_round(inputs).view(np.uint32)
    assert np.array_equal(got, want), [(float(x), hex(g), hex(w)) for x, g, w in zip(inputs, got, want, strict=True)
                                      if g != w]


def test_the_lesson_matches_transformers_bf16_cos_sin_and_autocast_changes_nothing():
    # LlamaRotaryEmbedding's bfloat16 cos/sin against the "bf16-table" pipeline fed the same float32
    # speeds: at most one bfloat16 step (2^-8 of the attention factor), on at most 1% of the entries,
    # where a float32 cos may differ by an ulp across a rounding edge; every entry agrees today.
    assert not lesson_mismatches(VECTORS)
    for rot in VECTORS["rotary"]:
        assert rot["dtype"] == "torch.bfloat16"
        assert max(rot["positions"]) > largest_exact_integer(BF16_BITS)


def test_bf16_counts_exactly_to_256_then_rounds_ties_to_even():
    n = np.arange(0, 257)
    assert np.array_equal(bf16_round(n), n)
    assert [int(v) for v in bf16_round([257, 259, 1001, 131071])] == [256, 260, 1000, 131072]
    assert largest_exact_integer(BF16_BITS) == 256 and largest_exact_integer(24) == 2**24
    assert np.isinf(bf16_round(np.float32(3.4028234e38))) and np.isnan(bf16_round(np.nan))
    assert bf16_round(-np.inf) == -np.inf


def test_format_ulp_is_the_gap_bf16_leaves():
    for x in (200.0, 300.0, 1001.0, 3.5, 100_000.0):
        here = bf16_round(np.float32(x))
        above = (here.view(np.uint32) + np.uint32(1 << 16)).view(np.float32)  # the next bfloat16 up
        assert float(above) - float(here) == float(format_ulp(x, BF16_BITS))
    assert float(format_ulp(1.0, 24)) == 2.0**-23


@pytest.mark.parametrize("name", list(atlas_models()))
def test_the_bound_holds_for_every_pair_and_is_reached(name):
    model = atlas_models()[name]
    theta, _ = rope_inv_freq(model["head_dim"], model["rope_parameters"],
                             max_position_embeddings=model["length"])
    cases = {"float32": {}, "bf16-inv-freq": {"theta_bits": BF16_BITS}, "bf16-positions": {"position_bits": BF16_BITS}}
    for pipeline, bits in cases.items():
        ratios = []
        for position in (3, 1001, 30001, 130001, 10_000_001):
            for offset in ATLAS_OFFSETS:
                got = np.abs(measured_angle_error(theta, offset, position, pipeline))
                bound = relative_angle_error(theta, offset, position, **bits)
                assert np.all(got <= bound * (1 + 1e-9)), (pipeline, position, offset)
                ratios.append(got.max() / bound.max())
        assert max(ratios) >= 1 / 3, (pipeline, max(ratios))  # a bound, but not a loose one


def test_rounding_before_the_angle_is_what_breaks():
    theta = np.array([1.0])
    c, s = pipeline_cos_sin([99_999, 100_000], theta, "bf16-positions")
    assert np.array_equal(c[0], c[1]) and np.array_equal(s[0], s[1])  # two tokens, one angle
    assert relative_errors(theta, 99_999, 1, "float32")[0] < 1e-6
    assert relative_errors(theta, 99_999, 1, "bf16-positions")[0] > 0.9
    assert relative_errors(theta, 10, 16, "bf16-positions") == relative_errors(theta, 10, 16, "float32")


def test_the_atlas_is_fast_and_says_what_the_page_says():
    start = time.perf_counter()
    atlas = precision_atlas()
    assert time.perf_counter() - start < 5.0
    score, phase = atlas_table(atlas), atlas_table(atlas, "phase")
    for s_row, p_row in zip(score, phase, strict=True):
        f32, table, qk, positions, speeds = s_row[2:]
        assert positions > 10 * table and speeds > 10 * table  # both bugs far worse than either engine
        assert p_row[5] > 2.5  # bf16 positions: a random angle somewhere up to the claimed length
    scout = dict((row[0], row) for row in phase)["Llama 4 Scout"]
    assert scout[2] > 0.1  # float32 angles at 10M tokens: tenths of a radian


def test_by_offset_the_speeds_error_grows_and_the_engines_stay_flat():
    rows = atlas_by_offset(precision_atlas(), "Llama 3.1 8B")
    assert [r[0] for r in rows] == list(ATLAS_OFFSETS)
    speeds = [r[1 + ATLAS_PIPELINES.index("bf16-inv-freq")] for r in rows]
    assert speeds[0] < speeds[1] < speeds[2] and min(speeds[2:]) > 2.5  # grows with Δ, then saturates near π
    for pipeline in ("float32", "bf16-table", "bf16-qk"):
        column = [r[1 + ATLAS_PIPELINES.index(pipeline)] for r in rows]
        assert max(column) < 3 * min(column), pipeline



def _displayed_bound() -> str:
    """The page's display formula for the bound: the $$ block with the underbraced terms."""
    blocks = re.findall(r"\$\$(.*?)\$\$", precision_page.__doc__, flags=re.S)
    found = [b for b in blocks if r"\underbrace" in b and r"\min" in b]
    assert len(found) == 1, f"expected one displayed bound with underbraced terms, found {len(found)}"
    return found[0]


def _underbraces(formula: str) -> tuple[list[tuple[str, str]], str]:
    """The displayed formula's underbraced terms as (label, LaTeX body), and the formula with each
    term replaced by T (its skeleton: the operators that join the terms)."""
    terms, skeleton, i = [], "", 0
    while (start := formula.find(r"\underbrace{", i)) >= 0:
        depth, body = 0, start + len(r"\underbrace")
        for j in range(body, len(formula)):  # the body ends where its braces balance
            depth += {"{": 1, "}": -1}.get(formula[j], 0)
            if depth == 0:
                break
        label = re.match(r"_\{\\text\{(\w+)\}\}", formula[j + 1:])
        terms.append((label[1], formula[start + len(r"\underbrace{"):j]))
        skeleton += formula[i:start] + "T"
        i = j + 1 + label.end()
    return terms, skeleton + formula[i:]


def _latex_to_python(body: str) -> str:
    """One underbraced term in Python: ulp_a(x), ulp_p(x), theta, D (Δ), m, eps (ε(θ)), b_t, with the
    products the LaTeX leaves implicit written out."""
    for latex, py in ((r"\varepsilon(\theta)", "eps"), (r"\theta_i", "theta"), (r"\Delta", "D"),
                      (r"\big(", "("), (r"\big)", ")"), (r"\,", " ")):
        body = body.replace(latex, py)
    body = re.sub(r"\\operatorname\{(\w+)\}_\{(\w)\}", r"\1_\2", body)
    body = re.sub(r"\^\{([^}]*)\}", r"**(\1)", body)
    assert "\\" not in body and "{" not in body, body  # nothing left untranslated
    return re.sub(r"(?<=[\w)])\s+(?=[\w(])", "*", body).strip()


def test_the_displayed_bound_has_the_terms_the_code_adds():
    """The formula on the page names every term relative_angle_error adds, in order, joins them by +
    under min(π, ...), and each term, evaluated as displayed, is the term the code computes."""
    formula = _displayed_bound()
    labels = re.findall(r"\}_\{\\text\{(\w+)\}\}", formula)
    assert labels == list(ANGLE_ERROR_TERMS), labels
    assert r"\min\Big(\pi" in formula
    displayed, skeleton = _underbraces(formula)
    assert [name for name, _ in displayed] == labels
    for noise in (r"\begin{aligned}", r"\end{aligned}", "&", "\\\\", r"\;", r"\Big", " ", "\n"):
        skeleton = skeleton.replace(noise, "")
    assert skeleton == r"\lvert\text{error}_i\rvert\le\min(\pi,T+T+T+T)", skeleton
    code = {name: _latex_to_python(body) for name, body in displayed}
    theta = np.geomspace(1.0, 1e-6, 32)
    for offset, position, bits in ((16, 130_001, {}), (4096, 1001, {"position_bits": BF16_BITS}),
                                   (1, 10_000_001, {"theta_bits": BF16_BITS, "table_bits": BF16_BITS})):
        terms = angle_error_terms(theta, offset, position, **bits)
        assert list(terms) == labels
        eps = 2.0 ** -bits.get("theta_bits", 24)
        top = position + offset
        # the formula, term by term, written out again here
        want = {"speed": offset * theta * eps,
                "angles": format_ulp(top * theta * (1 + eps), 24),
                "positions": theta * format_ulp(top, bits["position_bits"]) if "position_bits" in bits
                else np.zeros_like(theta),
                "table": np.full_like(theta, 2.0 ** (1 - bits.get("table_bits", 24)))}
        for name in labels:
            np.testing.assert_array_equal(terms[name], want[name], err_msg=name)
        np.testing.assert_array_equal(relative_angle_error(theta, offset, position, **bits),
                                      np.minimum(sum(want.values()), np.pi))
        # the page's own terms, evaluated as displayed, with the example's formats, on one more pair
        # whose larger angle sits just under 8, where the angles term's (1 + ε(θ)) moves the ulp
        edge = np.append(theta, 8 * (1 - 2.0 ** -12) / top)
        terms, p_bits = angle_error_terms(edge, offset, position, **bits), bits.get("position_bits")
        names = {"theta": edge, "D": offset, "m": position, "eps": eps, "b_t": bits.get("table_bits", 24),
                 "ulp_a": lambda x: format_ulp(x, 24),
                 "ulp_p": lambda x, p_bits=p_bits: format_ulp(x, p_bits) if p_bits else np.zeros_like(x)}
        shown = {name: np.broadcast_to(eval(code[name], names), edge.shape) for name in labels}
        for name in labels:
            np.testing.assert_allclose(terms[name], shown[name], rtol=1e-15, atol=0, err_msg=code[name])
        np.testing.assert_allclose(relative_angle_error(edge, offset, position, **bits),
                                   np.minimum(sum(shown.values()), np.pi), rtol=1e-15, atol=0)


def test_speeds_rounded_in_steps_need_their_measured_error():
    """float32_speeds rounds θ three times (2i/d, the power, the reciprocal). Given that measured error the
    bound holds for every atlas width and base and for a width of 96; the once-rounded bound does not."""
    cases = {(m["head_dim"], m["rope_parameters"]["rope_theta"]) for m in atlas_models().values()} | {(96, 1e4)}
    once_fails = set()
    for d, base in sorted(cases):
        exact = 1.0 / base ** (np.arange(0, d, 2) / d)
        stored = float32_speeds(d, base)
        err = np.abs(stored / exact - 1)
        assert err.max() < 8 * 2.0**-24  # a few roundings, not a wrong formula
        for position in (1, 1001, 130001, 10_000_001):
            for offset in ATLAS_OFFSETS:
                got = np.abs(measured_angle_error(stored, offset, position, "float32", exact_theta=exact))
                bound = relative_angle_error(exact, offset, position, theta_error=err)
                assert np.all(got <= bound * (1 + 1e-9)), (d, base, position, offset)
                if np.any(got > relative_angle_error(exact, offset, position) * (1 + 1e-9)):
                    once_fails.add(d)
    assert 96 in once_fails  # 2i/96 is not exact in binary: the exponent's rounding is amplified by ln(base)


def test_scouts_fastest_angle_at_ten_million_is_a_whole_ulp():
    scout, _ = atlas_speeds(atlas_models()["Llama 4 Scout"])
    angle = scout[0] * 10_000_001
    assert scout[0] == 1.0 and 2**23 <= angle < 2**24  # ten million radians, not one million
    assert float(format_ulp(angle, 24)) == 1.0
    assert atlas_models()["Llama 4 Scout"]["length"] > 10_000_001
