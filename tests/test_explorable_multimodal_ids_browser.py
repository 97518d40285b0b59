"""The multimodal-ids explorable in Chromium (lessons/multimodal_rope's page): moved by keyboard, the
numbers it shows are the lesson's for that setting (explorables.multimodal_ids.numbering, the Qwen
team's get_rope_index on the prompt drawn), the pair strip is mrope_axis_of_pair of the layout picked,
pair by pair, and it keeps the explorables' contract (tests/explorables.py)."""

from __future__ import annotations

import numpy as np
import pytest

from explorables.multimodal_ids import MODELS, numbering
from lessons.multimodal_rope import AXES, EXAMPLE_PARTS, mrope_axis_of_pair
from tests.explorables import box, contract_problems, control, open_explorable, value

pytestmark = pytest.mark.browser
NAME, PATH = "multimodal_ids", "lessons/multimodal_rope/"


def _setting(page) -> list:
    """The controls' values as numbering's arguments."""
    get = lambda label: control(page, NAME, label).input_value()  # noqa: E731
    return [get("Layout"), get("Picture"), int(get("Height")), int(get("Width")), int(get("Frames")),
            int(get("Seconds"))]


def _shown(page) -> dict:
    return {key: value(page, NAME, key) for key in ("tokens", "vision", "resume", "advance")}


def _want(setting) -> dict:
    v = numbering(*setting)
    return {key: v[key] for key in ("tokens", "vision", "resume", "advance")}


def _strip(page) -> list[int]:
    """The axis of each pair the strip draws, in pair order."""
    classes = page.locator(f"{box(NAME)} rect.px-mm-pair").evaluate_all("rs => rs.map(r => r.getAttribute('class'))")
    return [next(a for a, name in enumerate(AXES) if f"px-mm-{name}" in c) for c in classes]


def test_keyboard_moves_give_the_lessons_ids(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        setting = _setting(page)
        assert numbering(*setting)["grid"] == list(EXAMPLE_PARTS[1][1])  # the running example's image
        assert _shown(page) == _want(setting)
        width = control(page, NAME, "Width")
        width.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        setting = _setting(page)
        assert setting[3] == 9, setting
        assert _shown(page) == _want(setting)

        control(page, NAME, "Picture").focus()  # a video: frames and seconds by keyboard too
        page.keyboard.press("ArrowDown")
        control(page, NAME, "Frames").focus()
        page.keyboard.press("End")
        control(page, NAME, "Seconds").focus()
        for _ in range(5):
            page.keyboard.press("ArrowLeft")
        setting = _setting(page)
        assert setting[1] == "video" and setting[4] == 64, setting
        want = numbering(*setting)
        assert _shown(page) == _want(setting)
        assert want["resume_5_24"] != want["resume"]  # this long video parts the two rules
        assert value(page, NAME, "resume-5-24") == want["resume_5_24"]

        for layout in ("sections", "interleaved"):  # the strip, pair by pair, and its counts
            if layout == "interleaved":
                control(page, NAME, "Layout").focus()
                page.keyboard.press("ArrowDown")
            setting = _setting(page)
            assert setting[0] == layout
            axis = mrope_axis_of_pair(MODELS[layout]["mrope_section"], MODELS[layout]["interleaved"])
            assert _strip(page) == axis.tolist(), layout
            counts = np.bincount(axis, minlength=3).tolist()
            assert [value(page, NAME, f"pairs-{name}") for name in AXES] == counts, layout
            assert _shown(page) == _want(setting), layout
    finally:
        context.close()


def test_the_explorable_keeps_the_contract(chromium, site):
    def move(page):
        control(page, NAME, "Width").focus()
        page.keyboard.press("ArrowRight")

    assert contract_problems(chromium, site, PATH, NAME, move) == []
