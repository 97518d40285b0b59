"""The `rope_turning` explorable in Chromium (lessons/rope.py, section 3): with the width, gap, base,
pair and key position set by keyboard, the score, angle and turned-pair count it shows are the
lesson's for that setting (`lessons.rope.score_at` on the worked example's weights,
`lessons.positional.angle_table`, `lessons.model_card.pairs_that_turn`), its strip fills exactly
those pairs, it opens on the score the page's table prints for gap 4, and it keeps the explorables'
contract (tests/explorables.py). Tolerances as in tests/test_explorable_rope_turning_node.py."""

from __future__ import annotations

import numpy as np
import pytest

from explorables.rope_turning import query_and_key
from lessons.model_card import pairs_that_turn
from lessons.positional import angle_table, rope_frequencies
from lessons.rope import conversion_scores, demo_weights, score_at
from tests.explorables import box, contract_problems, open_explorable, value

pytestmark = pytest.mark.browser
NAME, PATH = "rope_turning", "lessons/rope/"


def _control(page, label: str):
    return page.locator(f"{box(NAME)} label:has-text('{label}') :is(input, select)")


def _check(page) -> tuple:
    """The shown numbers against the lesson's Python for the controls' setting; returns the setting
    (width, gap, base, pair, key position) and the score shown."""
    d = int(_control(page, "Head width").input_value())
    gap, base, pair, n = (value(page, NAME, k) for k in ("gap", "base", "pair", "n"))
    gap, pair, n = int(gap), int(pair), int(n)
    where = (d, gap, base, pair, n)
    q, k = query_and_key(d)
    scale = float(np.linalg.norm(q) * np.linalg.norm(k))
    want = score_at(*demo_weights(d, d, 1, 0), n + gap, n, "interleaved", base=base)
    shown = value(page, NAME, "score")
    assert abs(shown - want) <= (1e-12 if n == 0 else 1e-11) * scale, (where, shown, want)
    theta = rope_frequencies(d, base)
    angle = angle_table(gap, theta)[pair]
    assert abs(value(page, NAME, "angle") - angle) <= 1e-15 * angle, (where, angle)
    turns = pairs_that_turn(theta, gap) if gap else np.zeros(d // 2, bool)
    assert value(page, NAME, "turned") == turns.sum(), (where, int(turns.sum()))
    cells = page.locator(f"{box(NAME)} rect.px-rt-cell")
    assert cells.count() == d // 2, where
    filled = cells.evaluate_all("cs => cs.map(c => c.classList.contains('px-rt-turned'))")
    assert filled == turns.tolist(), where
    return where, shown


def test_keyboard_moves_give_the_lessons_numbers(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        where, shown = _check(page)
        assert where == (16, 4, 10000, 0, 0)  # where the prose's "Try it" says it opens
        # the table's 'q at 7, k at 3' original score, which the prose quotes as 2.3664
        q, k = query_and_key(16)
        assert abs(shown - conversion_scores(7, 3)["original"]) <= 1e-12 * np.linalg.norm(q) * np.linalg.norm(k)
        _control(page, "Gap").focus()
        page.keyboard.press("ArrowRight")  # every gap up to 16 is a step
        assert _check(page)[0][1] == 5
        page.keyboard.press("End")
        where, at_end = _check(page)
        assert where[1] == 4096 and value(page, NAME, "turned") > 0
        _control(page, "Key at").focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        where, shifted = _check(page)  # the key at 3, the query at 4,099: the same score
        assert where[4] == 3 and shifted == at_end
        _control(page, "Head width").focus()
        page.keyboard.press("ArrowDown")
        assert _check(page)[0][0] == 128
        _control(page, "Pair").focus()
        page.keyboard.press("End")
        assert _check(page)[0][3] == 63
        _control(page, "Base").focus()
        page.keyboard.press("End")
        assert _check(page)[0][2] == 10**6
        page.keyboard.press("Home")
        assert _check(page)[0][2] == 10
    finally:
        context.close()


def test_it_keeps_the_explorables_contract(chromium, site):
    def move(page):
        _control(page, "Gap").focus()
        page.keyboard.press("End")

    assert contract_problems(chromium, site, PATH, NAME, move) == []
