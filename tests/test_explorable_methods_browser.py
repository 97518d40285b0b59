"""The `methods` explorable in Chromium (lessons/context_extension's Level 1): with the model, the
method and the length read chosen by keyboard, the pairs past the trained angles, the largest angle
ratio and the pairs untouched it shows are the decoder's explorer's for that setting
(`explorables.methods.reading`: `method_measures` or `block_measures`), one square is drawn per
pair past, and it keeps the explorables' contract (tests/explorables.py)."""

from __future__ import annotations

import math

import pytest

from explorables.methods import data, models, reading, stops
from tests.explorables import box, contract_problems, control, open_explorable, value
from tests.test_explorable_methods_node import own_note_holds

pytestmark = pytest.mark.browser
NAME, PATH = "methods", "lessons/context_extension/"
PUBLISHED, CARDS = data(), models()
MODELS = {m["slug"]: m for m in PUBLISHED["models"]}


def _check(page) -> dict:
    """The shown numbers against the Python for the controls' setting; returns that setting."""
    model, method = control(page, NAME, "Model").input_value(), control(page, NAME, "Method").input_value()
    own = MODELS[model]["stretch"] if model else None
    stretch = stops(own)[int(control(page, NAME, "Length read").input_value())]
    where = {"model": model, "method": method, "stretch": stretch}
    want = reading(model, method, stretch, PUBLISHED, CARDS)
    assert (value(page, NAME, "past"), value(page, NAME, "untouched")) == (want["past"], want["untouched"]), where
    assert math.isclose(value(page, NAME, "largest"), want["largest"], rel_tol=1e-12), where
    assert page.locator(f"{box(NAME)} svg rect.px-methods-past").count() == want["past"], where
    # one polite live line, the numbers the readout shows
    said = page.locator(f"{box(NAME)} .px-methods-said[role='status'][aria-live='polite']")
    readout = page.locator(f"{box(NAME)} [data-key='past']").locator("..")
    n = int(readout.inner_text().split(" of ", 1)[1].split()[0])
    shown = [page.locator(f"{box(NAME)} [data-key='{k}']").inner_text() for k in ("past", "largest")]
    assert said.count() == 1 and said.text_content() == f"{shown[0]} of {n} pairs past, largest {shown[1]}", where
    assert int(shown[0]) == want["past"], where
    # the reference is the pretrained length; a model's own block says further training may have passed it
    assert "past the angles pretraining showed" in page.locator(f"{box(NAME)} [data-key='past']").locator("..").inner_text()
    own = page.locator(f"{box(NAME)} .px-methods-own")
    assert own.is_visible() == want["own"], where
    if want["own"]:  # within its served length what its sources say, past it that no training got there
        own_note_holds(" ".join(own.inner_text().split()), PUBLISHED["models"], want["model"], want["served"], where)
    # dynamic NTK set for the stretch prints the stretch its base is raised for (about s² − s + 1)
    assert page.locator(f"{box(NAME)} .px-methods-dynamic").is_visible() == ("effective" in want), where
    if "effective" in want:
        assert math.isclose(value(page, NAME, "effective"), want["effective"], rel_tol=1e-12), where
    return where


def test_keyboard_moves_give_the_explorers_numbers(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        ex = PUBLISHED["example"]
        assert _check(page) == {"model": "", "method": "none", "stretch": ex["stretch"]}  # where "Try it" starts
        control(page, NAME, "Method").focus()
        for _ in range(5):  # linear, NTK-aware, dynamic, YaRN, Llama 3
            page.keyboard.press("ArrowDown")
            _check(page)
        assert control(page, NAME, "Method").input_value() == "llama3"
        control(page, NAME, "Length read").focus()
        page.keyboard.press("ArrowRight")
        assert _check(page)["stretch"] == stops()[stops().index(ex["stretch"]) + 1]
        page.keyboard.press("End")
        assert _check(page)["stretch"] == 64
        page.keyboard.press("Home")
        assert _check(page)["stretch"] == 1
        for slug, m in MODELS.items():  # every model, by keyboard: its own block at its own stretch
            control(page, NAME, "Model").focus()
            page.keyboard.press("ArrowDown")
            assert _check(page) == {"model": slug, "method": m["rope_type"], "stretch": m["stretch"]}
            control(page, NAME, "Length read").focus()
            page.keyboard.press("ArrowLeft")
            _check(page)
        page.keyboard.press("End")  # the last model's own block read past the length it serves
        assert _check(page)["stretch"] > MODELS[slug]["stretch"]
        control(page, NAME, "Method").focus()
        page.keyboard.press("Home")  # no scaling on the last model's head
        assert _check(page)["method"] == "none"
    finally:
        context.close()


def test_the_explorable_keeps_the_contract(chromium, site):
    def move(page):
        control(page, NAME, "Method").focus()
        page.keyboard.press("ArrowDown")

    assert contract_problems(chromium, site, PATH, NAME, move) == []
