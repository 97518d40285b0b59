"""The `position_steps` explorable in Chromium (lessons/position_ids, under the conformance figure):
with a scenario picked, a step taken and the bug toggled by keyboard, the ids it shows are the ones
the lesson's functions give on the conformance table's setup, the change it prints on the last frame
is the one the bug causes there (the tiny decoder's largest logit change, one head's for the window),
and a frame whose ids the bug leaves alone prints no change (the expectations of
tests/test_explorable_position_steps_node.py: ids exact, changes exact through JSON); and it keeps the
explorables' contract (tests/explorables.py)."""

from __future__ import annotations

import json

import pytest

from explorables.position_steps import SETUP, data
from tests.explorables import box, contract_problems, open_explorable, value
from tests.test_explorable_position_steps_node import expected_changes, expected_ids

pytestmark = pytest.mark.browser
NAME, PATH = "position_steps", "lessons/position_ids/"


def _at(page, what: str):
    return page.locator(f"{box(NAME)} {what}")


def _ids(page) -> list:
    return json.loads(_at(page, "[data-key=ids]").get_attribute("data-value"))


def _shown(page, key: str) -> list:
    """The ids shown, as expected() states them (the window: the query's id alone)."""
    ids = _ids(page)
    return ids[-1:] if key == "window" else ids


def _pick_last_frame(page, index: int) -> None:
    """By keyboard: scenario `index` in the menu (which starts it at step 1), then its last step."""
    _at(page, "select").focus()
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowDown")
    assert value(page, NAME, "step") == 1  # a new scenario starts at its first frame
    _at(page, "input[type=range]").focus()
    page.keyboard.press("End")


def test_keyboard_picks_steps_and_toggles_the_bug_with_the_lessons_ids(chromium, site):
    scenarios = data()["scenarios"]
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        assert value(page, NAME, "step") == 1 and _ids(page) == scenarios[0]["frames"][0]["ids"]
        for index, s in enumerate(scenarios):
            key, frames = s["key"], s["frames"]
            _pick_last_frame(page, index)
            assert _at(page, "select").input_value() == key
            assert value(page, NAME, "step") == len(frames), key
            bug = _at(page, "input[type=checkbox]")
            for on in (False, True):
                assert bug.is_checked() == on
                assert _shown(page, key) == expected_ids(key, on), (key, on)
                assert value(page, NAME, "change") == max(expected_changes(key, len(frames))), (key, on)
                changed = _at(page, ".px-ids-changed").count()
                assert (changed > 0) == on, (key, on, changed)
                if not on:
                    bug.focus()
                    page.keyboard.press("Space")
            # a step back by the Previous button (Enter), the bug still shown: the frame's own bug ids
            _at(page, "button:has-text('Previous')").focus()
            page.keyboard.press("Enter")
            assert value(page, NAME, "step") == len(frames) - 1
            assert _ids(page) == frames[-2]["bug"], key
            bug.focus()
            page.keyboard.press("Space")  # off again for the next scenario
            assert _ids(page) == frames[-2]["ids"], key
        # the window with the bug, step by step from the start: no change while the ring fills (no id
        # differs), then the one its first renumbered query causes
        _pick_last_frame(page, [x["key"] for x in scenarios].index("window"))
        _at(page, "input[type=checkbox]").focus()
        page.keyboard.press("Space")
        _at(page, "input[type=range]").focus()
        page.keyboard.press("Home")
        for step in range(1, SETUP["window"] + 2):
            frame = next(x for x in scenarios if x["key"] == "window")["frames"][step - 1]
            assert value(page, NAME, "step") == step and _at(page, ".px-ids-changed").count() == (frame["bug"] != frame["ids"])
            assert value(page, NAME, "change") == expected_changes("window", step)[0], step
            none = "none yet" in _at(page, "[data-key=change]").inner_text()
            assert none == (step <= SETUP["window"]), (step, none)
            page.keyboard.press("ArrowRight")
    finally:
        context.close()


def test_the_explorable_keeps_the_contract(chromium, site):
    def move(page):
        _at(page, "select").focus()
        page.keyboard.press("ArrowDown")

    assert contract_problems(chromium, site, PATH, NAME, move) == []


def test_every_scenarios_longest_row_wraps_within_a_phone(chromium, site):
    """At 390 px, each scenario's last frame with the bug shown (the most cells, the widest ones)
    wraps inside the box: no cell reaches past its right edge, the row does not scroll."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        _at(page, "input[type=checkbox]").focus()
        page.keyboard.press("Space")
        for index, s in enumerate(data()["scenarios"]):
            _pick_last_frame(page, index)
            past = _at(page, "[data-key=ids]").evaluate("""row => {
              const edge = row.closest('.primer-explorable').getBoundingClientRect().right;
              return [row.scrollWidth - row.clientWidth,
                      ...[...row.children].map(c => c.getBoundingClientRect().right - edge).filter(d => d > 0)];
            }""")
            assert past[0] <= 1 and len(past) == 1, (s["key"], past)
            assert _at(page, "[data-key=ids] li").count() == len(s["frames"][-1]["ids"])
    finally:
        context.close()
