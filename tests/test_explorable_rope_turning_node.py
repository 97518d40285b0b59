"""The `rope_turning` explorable's numbers in Node (explorables/web/rope_turning.js's `view` and
`curve`, on PrimerCore's rotation-and-scores section) against the Python the rope lesson teaches,
for each of section 3's four runs (original, converted, not converted, mismatched table) over a grid
of widths, bases, gaps, key positions and pairs:

- the head's score against `lessons.rope.score_at` (the run's weights and layout, query at
  m = n + gap, key at n), and at base 10,000 against `lessons.rope.conversion_scores` itself (which
  pins `explorables.rope_turning.RUNS` to the lesson's runs): within 1e-11 · |q| |k|. Not exact:
  numpy sums in BLAS's order, and θ_i may differ by one unit in the last place (below), which
  positions up to 8,192 multiply (8,192 · 2.2e-16 ≈ 2e-12 rad); not relative to the score, which
  crosses zero. |q| |k| bounds the score (Cauchy–Schwarz), so this is 1e-11 of its scale.
- moving the key: the score stays within that tolerance for the three runs that are rotations, and
  moves by more than 0.1 for the mismatched table, as section 3's table says (2.3664 twice; 1.5689
  then 2.1417), and `lessons.rope.offset_spread` agrees.
- each pair's angle gap · θ_i against `lessons.positional.angle_table`: within 1e-15 relative (V8's
  Math.pow and the C library's pow, under numpy's power, differ by up to one unit in the last place,
  2.2e-16, for 55 of 504 speeds tried).
- the turned pairs against `lessons.model_card.pairs_that_turn`: exactly (a count of booleans).
- the drawn curve (each speed's (cos, sin) stepped gap by gap) against `score_at` across the gaps,
  and its first 41 gaps against section 3's figure's curves (`conversion_scores` at starts 0, 100
  and 1,000), within 1e-11 · |q| |k|.
"""

from __future__ import annotations

import numpy as np

from explorables.rope_turning import RUNS, WIDTHS, query_and_key
from lessons.model_card import pairs_that_turn
from lessons.positional import angle_table, rope_frequencies
from lessons.rope import CASES, conversion_scores, demo_weights, interleaved_to_half, offset_spread, score_at
from tests.node import needs_node, run_explorable

BASES = (10, 10000, 1000000)
GAPS = (0, 1, 4, 17, 636, 4096)
STARTS = (0, 100, 4096)  # key positions
TOL, ANGLE_TOL = 1e-11, 1e-15


def _scale(d: int) -> float:
    q, k = query_and_key(d)
    return float(np.linalg.norm(q) * np.linalg.norm(k))


def _lesson_score(d: int, base: float, m: int, n: int, case: str) -> float:
    """score_at with the run's weights (permuted by interleaved_to_half or not) and layout."""
    W_q, W_k, x_q, x_k = demo_weights(d, d, 1, 0)
    weights, layout = RUNS[case]
    if weights == "permuted":
        W_q, W_k = interleaved_to_half(W_q, 1), interleaved_to_half(W_k, 1)
    return score_at(W_q, W_k, x_q, x_k, m, n, layout, base=base)


def _cases():
    for d in WIDTHS:
        for base in BASES:
            for gap in GAPS:
                for n in STARTS:
                    for case in CASES:
                        yield d, base, gap, (gap * 7) % (d // 2), n, case


@needs_node
def test_every_runs_score_angle_and_turned_pairs_match_the_lessons_python(tmp_path):
    cases = list(_cases())
    got = run_explorable(tmp_path, "rope_turning", [["view", d, b, g, i, n, c] for d, b, g, i, n, c in cases])
    for (d, base, gap, pair, n, case), v in zip(cases, got, strict=True):
        where = (d, base, gap, pair, n, case)
        want = _lesson_score(d, base, n + gap, n, case)
        assert abs(v["score"] - want) <= TOL * _scale(d), (where, v["score"], want)
        if base == 10000:
            want = conversion_scores(n + gap, n, d)[case]
            assert abs(v["score"] - want) <= TOL * _scale(d), (where, v["score"], want)
        theta = rope_frequencies(d, base)
        angle = angle_table(gap, theta)[pair]
        assert abs(v["angle"] - angle) <= ANGLE_TOL * angle, (where, v["angle"], angle)
        turns = pairs_that_turn(theta, gap).tolist() if gap else [False] * (d // 2)
        assert v["turnedEach"] == turns and v["turned"] == sum(turns), (where, v["turned"], sum(turns))


@needs_node
def test_moving_the_key_moves_only_the_mismatched_tables_score(tmp_path):
    """Key at 0, 100 and 4,096, the same gap: the rotations keep their score, the mismatched table
    does not (the box computes each from both positions: the invariance is the layout's)."""
    cases = [(d, b, g, c) for d in WIDTHS for b in BASES for g in (1, 4, 636) for c in CASES]
    got = run_explorable(tmp_path, "rope_turning", [["view", d, b, g, 0, n, c] for d, b, g, c in cases for n in STARTS])
    for j, (d, base, gap, case) in enumerate(cases):
        scores = [v["score"] for v in got[len(STARTS) * j: len(STARTS) * (j + 1)]]
        spread = max(scores) - min(scores)
        if case == "mismatched table":
            assert spread > 0.1, (d, base, gap, scores)
        else:
            assert spread <= TOL * _scale(d), (d, base, gap, case, scores)
    assert offset_spread("mismatched table", 4) > 1 and offset_spread("not converted", 4) < 1e-12  # section 3's check


@needs_node
def test_the_pairs_shares_add_up_to_the_score(tmp_path):
    d, base, gap, n = 128, 500000, 636, 100
    for case in CASES:
        got = run_explorable(tmp_path, "rope_turning", [["view", d, base, gap, i, n, case] for i in range(d // 2)])
        want = _lesson_score(d, base, n + gap, n, case)
        assert abs(sum(v["share"] for v in got) - want) <= TOL * _scale(d), case


@needs_node
def test_the_curve_is_section_3s_figure_out_to_4096(tmp_path):
    """The drawn line (each speed's rotation stepped gap by gap from the key's position, so gap g
    carries g steps of rounding) is the lesson's score at every gap checked, and its first 41 gaps
    are section 3's figure's curves: each run from starts 0 and 100, the mismatched table from 1,000."""
    cases = [(d, b, n, c) for d in WIDTHS for b in BASES for n in (0, 100, 1000) for c in CASES]
    got = run_explorable(tmp_path, "rope_turning", [["curve", *case] for case in cases])
    for (d, base, n, case), curve in zip(cases, got, strict=True):
        assert len(curve) == 4097, (d, base, n, case)
        for gap in (*GAPS, 2047, 4095):
            want = _lesson_score(d, base, n + gap, n, case)
            assert abs(curve[gap] - want) <= TOL * _scale(d), (d, base, n, case, gap, curve[gap], want)
        if d == 16 and base == 10000:
            want = [conversion_scores(n + k, n, 16)[case] for k in range(41)]
            assert np.abs(np.array(curve[:41]) - want).max() <= TOL * _scale(16), (n, case)


@needs_node
def test_the_sliders_reach_what_the_box_says(tmp_path):
    gaps, bases = run_explorable(tmp_path, "rope_turning", [["gapLadder"], ["baseLadder"]])
    assert gaps[:17] == list(range(17)) and gaps[-1] == 4096 and 4 in gaps  # every small gap; 4: where it opens
    assert all(isinstance(g, int) for g in gaps) and all(b > a for a, b in zip(gaps[:-1], gaps[1:], strict=True))
    assert max(b / a for a, b in zip(gaps[16:-1], gaps[17:], strict=True)) < 1.07  # no jump of more than 7% past 16
    assert bases[0] == 10 and bases[-1] == 10**6 and {10000, 500000} <= set(bases)
    assert all(2 <= b / a <= 2.5 for a, b in zip(bases[:-1], bases[1:], strict=True))  # 1-2-5 steps: an even log scale
