"""The `rope_turning` explorable's numbers in Node (explorables/web/rope_turning.js's `view` and
`curve`, on PrimerCore's rotation-and-scores section) against the Python the rope lesson teaches,
over a grid of widths, bases, gaps and pairs:

- the head's score against `lessons.rope.score_at` (the worked example's weights, interleaved
  layout, query at m = n + gap, key at n): within 1e-12 · |q| |k|. Not exact: numpy sums the
  pairs in BLAS's order and turns q by m θ_i and k by n θ_i, the JS turns q alone by gap θ_i and
  sums in pair order, and θ_i itself may differ by one unit in the last place (below), which a gap
  of 4,096 multiplies; and not relative to the score, which crosses zero. |q| |k| bounds the score
  (Cauchy–Schwarz), so this is 1e-12 of its scale (the grid's largest is 5e-14 of it here). With the key at 100 (positions up to 4,196),
  numpy's angles m θ_i carry up to 4,196 times more rounding: 1e-11 · |q| |k| there.
- each pair's angle gap · θ_i against `lessons.positional.angle_table`: within 1e-15 relative (V8's
  Math.pow and the C library's pow, under numpy's power, differ by up to one unit in the last place,
  2.2e-16, for 55 of 504 speeds tried).
- the turned pairs against `lessons.model_card.pairs_that_turn`: exactly (a count of booleans).
- the drawn curve against `score_at` across the gaps, and at gaps 0..40, width 16, base 10,000
  against section 3's figure's original curve (`lessons.rope.conversion_scores`), within
  1e-12 · |q| |k|.
"""

from __future__ import annotations

import numpy as np

from explorables.rope_turning import WIDTHS, query_and_key
from lessons.model_card import pairs_that_turn
from lessons.positional import angle_table, rope_frequencies
from lessons.rope import conversion_scores, demo_weights, score_at
from tests.node import needs_node, run_explorable

BASES = (10, 500, 10000, 500000, 1000000)
GAPS = (0, 1, 4, 17, 100, 636, 4096)
SCORE_TOL, SHIFTED_TOL, ANGLE_TOL = 1e-12, 1e-11, 1e-15


def _scale(d: int) -> float:
    q, k = query_and_key(d)
    return float(np.linalg.norm(q) * np.linalg.norm(k))


def _cases():
    for d in WIDTHS:
        for base in BASES:
            for gap in GAPS:
                for pair in (0, d // 4, d // 2 - 1):
                    yield d, base, gap, pair


@needs_node
def test_score_angle_and_turned_pairs_match_the_lessons_python(tmp_path):
    cases = list(_cases())
    got = run_explorable(tmp_path, "rope_turning", [["view", d, b, g, i, 0] for d, b, g, i in cases])
    for (d, base, gap, pair), v in zip(cases, got, strict=True):
        where = (d, base, gap, pair)
        W_q, W_k, x_q, x_k = demo_weights(d, d, 1, 0)
        want = score_at(W_q, W_k, x_q, x_k, gap, 0, "interleaved", base=base)
        assert abs(v["score"] - want) <= SCORE_TOL * _scale(d), (where, v["score"], want)
        theta = rope_frequencies(d, base)
        angle = angle_table(gap, theta)[pair]
        assert abs(v["angle"] - angle) <= ANGLE_TOL * angle, (where, v["angle"], angle)
        turns = pairs_that_turn(theta, gap).tolist() if gap else [False] * (d // 2)
        assert v["turnedEach"] == turns and v["turned"] == sum(turns), (where, v["turned"], sum(turns))


@needs_node
def test_the_score_depends_on_the_gap_alone_as_the_lesson_computes_it(tmp_path):
    """The key at 100 instead of 0: the explorable shows the same score, and the lesson's score_at,
    turning the query to 100 + gap and the key to 100, agrees."""
    cases = [(d, b, g) for d in WIDTHS for b in BASES for g in GAPS]
    got = run_explorable(tmp_path, "rope_turning", [["view", d, b, g, 0, n] for d, b, g in cases for n in (0, 100)])
    for j, (d, base, gap) in enumerate(cases):
        at0, at100 = got[2 * j], got[2 * j + 1]
        assert at100["score"] == at0["score"], (d, base, gap)
        want = score_at(*demo_weights(d, d, 1, 0), 100 + gap, 100, "interleaved", base=base)
        assert abs(at100["score"] - want) <= SHIFTED_TOL * _scale(d), (d, base, gap, at100["score"], want)


@needs_node
def test_the_pairs_shares_add_up_to_the_score(tmp_path):
    d, base, gap = 128, 500000, 636
    got = run_explorable(tmp_path, "rope_turning", [["view", d, base, gap, i, 0] for i in range(d // 2)])
    W_q, W_k, x_q, x_k = demo_weights(d, d, 1, 0)
    want = score_at(W_q, W_k, x_q, x_k, gap, 0, "interleaved", base=base)
    assert abs(sum(v["share"] for v in got) - want) <= SCORE_TOL * _scale(d)


@needs_node
def test_the_curve_is_section_3s_original_curve_out_to_4096(tmp_path):
    """The drawn line (core.ropeScoreCurve: each pair's rotation stepped gap by gap, so gap g
    carries g steps of rounding; the grid's largest is under 1e-13 · |q| |k| here) is the lesson's
    score at every gap checked, and its first 41 gaps are section 3's figure's original curve."""
    cases = [(d, b) for d in WIDTHS for b in BASES]
    got = run_explorable(tmp_path, "rope_turning", [["curve", d, b] for d, b in cases])
    for (d, base), curve in zip(cases, got, strict=True):
        assert len(curve) == 4097, (d, base)
        W_q, W_k, x_q, x_k = demo_weights(d, d, 1, 0)
        for gap in (*GAPS, 2047, 4095):
            want = score_at(W_q, W_k, x_q, x_k, gap, 0, "interleaved", base=base)
            assert abs(curve[gap] - want) <= SCORE_TOL * _scale(d), (d, base, gap, curve[gap], want)
    curve = got[cases.index((16, 10000))]
    want = [conversion_scores(k, 0, 16)["original"] for k in range(41)]  # the figure's top panel, start 0
    assert np.abs(np.array(curve[:41]) - want).max() <= SCORE_TOL * _scale(16)


@needs_node
def test_the_sliders_reach_what_the_box_says(tmp_path):
    gaps, bases = run_explorable(tmp_path, "rope_turning", [["gapLadder"], ["baseLadder"]])
    assert gaps[:17] == list(range(17)) and gaps[-1] == 4096 and 4 in gaps  # every small gap; 4: where it opens
    assert all(isinstance(g, int) for g in gaps) and all(b > a for a, b in zip(gaps[:-1], gaps[1:], strict=True))
    assert max(b / a for a, b in zip(gaps[16:-1], gaps[17:], strict=True)) < 1.07  # no jump of more than 7% past 16
    assert bases[0] == 10 and bases[-1] == 10**6 and {10000, 500000} <= set(bases)
    assert all(2 <= b / a <= 2.5 for a, b in zip(bases[:-1], bases[1:], strict=True))  # 1-2-5 steps: an even log scale
