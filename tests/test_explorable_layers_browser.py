"""The `layers` explorable in Chromium (lessons/layer_schemes' Level 1): with the model, the prompt
length and the layer chosen by keyboard, the numbers it shows are explorables.layers' for that
setting (`summary`, `spans`), its bars are the model's layers (one per layer, the rotating ones
drawn as RoPE), and it keeps the explorables' contract (tests/explorables.py)."""

from __future__ import annotations

import pytest

from explorables.layers import LENGTHS, data, spans, summary
from tests.explorables import box, contract_problems, control, open_explorable, value

pytestmark = pytest.mark.browser
NAME, PATH = "layers", "lessons/layer_schemes/"
MODELS = data()["models"]


def _check(page) -> tuple[dict, int]:
    """The shown numbers against the Python for the controls' setting; returns (model, length)."""
    model, length = MODELS[int(control(page, NAME, "Model").input_value())], LENGTHS[int(control(page, NAME, "Prompt length").input_value())]
    where = (model["slug"], length)
    assert value(page, NAME, "length") == length, where
    want = summary(model, length)
    assert {key: value(page, NAME, key) for key in want} == want, where
    chosen = int(control(page, NAME, "Layer").input_value())
    assert value(page, NAME, "layer-span") == spans(model, length)[chosen], (*where, chosen)
    bars = page.locator(f"{box(NAME)} svg g > rect:not(.px-area)")
    assert bars.count() == len(model["layers"]), where
    rope = page.locator(f"{box(NAME)} svg rect.px-layers-rope").count()
    assert rope == sum(layer["rope"] for layer in model["layers"]), where
    return model, length


def test_keyboard_moves_give_the_python_spans(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        model, length = _check(page)
        assert (model["slug"], length) == ("llama-4-scout", 10000)  # where the prose's "Try it" starts
        control(page, NAME, "Prompt length").focus()
        page.keyboard.press("ArrowLeft")  # 7,943: every Scout layer still sees the whole prompt
        assert _check(page)[1] == LENGTHS[LENGTHS.index(10000) - 1]
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")  # 12,589: the chunked layers see 12,589 - 8,192
        assert _check(page)[1] == LENGTHS[LENGTHS.index(10000) + 1]
        for i in range(1, len(MODELS)):  # every other model, by keyboard, at this length and at the last layer
            control(page, NAME, "Model").focus()
            page.keyboard.press("ArrowDown")
            assert _check(page)[0] is MODELS[i]
            control(page, NAME, "Layer").focus()
            page.keyboard.press("End")
            assert int(control(page, NAME, "Layer").input_value()) == len(MODELS[i]["layers"]) - 1
            _check(page)
        control(page, NAME, "Prompt length").focus()
        page.keyboard.press("End")
        assert _check(page)[1] == LENGTHS[-1]
    finally:
        context.close()


def test_the_explorable_keeps_the_contract(chromium, site):
    def move(page):
        control(page, NAME, "Prompt length").focus()
        page.keyboard.press("ArrowRight")

    assert contract_problems(chromium, site, PATH, NAME, move) == []
