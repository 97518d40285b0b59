"""The `rope_turning` explorable in Chromium (lessons/rope.py, section 3): with the layout, width,
gap, base, pair and key position set by keyboard, the score, angle and turned-pair count it shows
are the lesson's for that setting (`lessons.rope.score_at` with the run's weights and layout,
`lessons.rope.conversion_scores`, `lessons.positional.angle_table`,
`lessons.model_card.pairs_that_turn`), moving the key leaves the score put in the three rotations and
moves it with the mismatched table (the numbers the prose quotes), its strip fills exactly the
turned pairs, it opens on the score the page's table prints for gap 4, its one live region says one
short sentence, each move redraws (its time is measured by make bench-pages, not here), and it keeps the explorables' contract
(tests/explorables.py). Tolerances as in tests/test_explorable_rope_turning_node.py."""

from __future__ import annotations

import numpy as np
import pytest

from explorables.rope_turning import query_and_key
from lessons.model_card import pairs_that_turn
from lessons.positional import angle_table, rope_frequencies
from lessons.rope import CASES, conversion_scores
from tests.explorables import box, contract_problems, control, open_explorable, value
from tests.test_explorable_rope_turning_node import TOL, _lesson_score

pytestmark = pytest.mark.browser
NAME, PATH = "rope_turning", "lessons/rope/"


def _scale(d: int) -> float:
    q, k = query_and_key(d)
    return float(np.linalg.norm(q) * np.linalg.norm(k))


def _check(page) -> tuple:
    """The shown numbers and the live sentence against the lesson's Python for the controls'
    setting; returns the setting (width, gap, base, pair, key position, run) and the score shown."""
    d, case = int(control(page, NAME, "Head width").input_value()), control(page, NAME, "Layout").input_value()
    gap, base, pair, n = (value(page, NAME, k) for k in ("gap", "base", "pair", "n"))
    gap, pair, n = int(gap), int(pair), int(n)
    where = (d, gap, base, pair, n, case)
    want = _lesson_score(d, base, n + gap, n, case)
    shown = value(page, NAME, "score")
    assert abs(shown - want) <= TOL * _scale(d), (where, shown, want)
    theta = rope_frequencies(d, base)
    angle = angle_table(gap, theta)[pair]
    assert abs(value(page, NAME, "angle") - angle) <= 1e-15 * angle, (where, angle)
    turns = pairs_that_turn(theta, gap) if gap else np.zeros(d // 2, bool)
    assert value(page, NAME, "turned") == turns.sum(), (where, int(turns.sum()))
    cells = page.locator(f"{box(NAME)} rect.px-rt-cell")
    assert cells.count() == d // 2, where
    filled = cells.evaluate_all("cs => cs.map(c => c.classList.contains('px-rt-turned'))")
    assert filled == turns.tolist(), where
    # one polite live region, one short sentence; the long readout is not read on every move
    live = page.locator(f"{box(NAME)} [aria-live]")
    assert live.count() == 1, where
    said = f"score {shown:.2f} at gap {gap:,}, key at {n:,}; {int(turns.sum())} of {d // 2} pairs turned"
    assert live.text_content() == said, (where, live.text_content(), said)
    assert live.locator("[data-key]").count() == 0 and len(said) < 80, where
    return where, shown


def _press(page, label: str, key: str, times: int = 1):
    control(page, NAME, label).focus()
    for _ in range(times):
        page.keyboard.press(key)


def test_keyboard_moves_give_the_lessons_numbers(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        where, shown = _check(page)
        assert where == (16, 4, 10000, 0, 0, "original")  # where the prose's "Try it" says it opens
        # the table's 'q at 7, k at 3' original score, which the prose quotes as 2.3664
        assert abs(shown - conversion_scores(7, 3)["original"]) <= TOL * _scale(16)
        _press(page, "Gap", "ArrowRight")  # every gap up to 16 is a step
        assert _check(page)[0][1] == 5
        _press(page, "Gap", "End")
        where, at_end = _check(page)
        assert where[1] == 4096 and value(page, NAME, "turned") > 0
        _press(page, "Key at", "ArrowRight", 3)
        where, shifted = _check(page)  # the key at 3, the query at 4,099: the same score
        assert where[4] == 3 and abs(shifted - at_end) <= TOL * _scale(16)
        _press(page, "Head width", "ArrowDown")
        assert _check(page)[0][0] == 128
        _press(page, "Pair", "End")
        assert _check(page)[0][3] == 63
        _press(page, "Base", "End")
        assert _check(page)[0][2] == 10**6
        page.keyboard.press("Home")
        assert _check(page)[0][2] == 10
    finally:
        context.close()


def test_each_layout_moves_with_the_key_as_section_3_says(chromium, site):
    """Gap 4, the key at 0 then 3 (the table's 'q at 7, k at 3'), in each layout chosen by
    keyboard: the rotations keep their score, the mismatched table's moves, to the numbers the
    table and the "Try it" paragraph print."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        page.evaluate("performance.clearMeasures()")
        for j, case in enumerate(CASES):
            if j:
                _press(page, "Layout", "ArrowDown")
            _press(page, "Key at", "Home")
            where, at0 = _check(page)
            assert where == (16, 4, 10000, 0, 0, case)
            _press(page, "Key at", "ArrowRight", 3)
            where, at3 = _check(page)
            assert where[4] == 3, where
            assert abs(at0 - conversion_scores(4, 0)[case]) <= TOL * _scale(16), (case, at0)
            assert abs(at3 - conversion_scores(7, 3)[case]) <= TOL * _scale(16), (case, at3)
            if case == "mismatched table":
                assert abs(at3 - at0) > 0.1, (at0, at3)
                prose = page.locator("p:has-text('Try it:')").filter(has_text="mismatched table").text_content()
                assert f"{at0:.4f} with the key at 0" in prose and f"{at3:.4f} at 3" in prose, prose
            else:
                assert abs(at3 - at0) <= TOL * _scale(16), (case, at0, at3)
        # every move redrew (a measure each); how long a redraw takes is make bench-pages' to say
        took = page.evaluate(f"performance.getEntriesByName('explorable:{NAME}').length")
        assert took >= 4 * len(CASES), took
    finally:
        context.close()


def test_it_keeps_the_explorables_contract(chromium, site):
    def move(page):
        _press(page, "Gap", "End")

    assert contract_problems(chromium, site, PATH, NAME, move) == []
