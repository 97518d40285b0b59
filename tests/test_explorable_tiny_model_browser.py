"""The `tiny_model` explorable in Chromium (lessons/measured's Level 1): loaded from its button, with
the length, the reading, the scheme and the passage set by keyboard, the answer and its probability
it shows are the numpy forward's (explorables.tiny_model.forward on the committed export) for the
prompt it ran, and it keeps the explorables' contract (tests/explorables.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorables import tiny_model as tm
from tests.explorables import box, contract_problems, open_explorable, value

pytestmark = pytest.mark.browser
NAME, PATH = "tiny_model", "lessons/measured/"
MANIFEST = tm.json.loads(tm.MANIFEST.read_text(encoding="utf-8"))
TASK, STEP = MANIFEST["task"], MANIFEST["lengths"][1] - MANIFEST["lengths"][0]


def _control(page, label: str):
    return page.locator(f"{box(NAME)} label:has-text('{label}') :is(input, select)")


def _loaded(page, scheme: str) -> None:
    """Wait until `scheme`'s model has answered (its button says so)."""
    label = next(s["label"] for s in tm.data()["schemes"] if s["name"] == scheme)
    page.wait_for_selector(f"{box(NAME)} button.px-tm-load:has-text('{label} model loaded')", timeout=30000)
    page.wait_for_selector(f"{box(NAME)} [data-key=answer]", timeout=30000)


def _check(page) -> dict:
    """The shown answer and probability against the numpy forward for the prompt the page ran."""
    scheme, method = _control(page, "Scheme").input_value(), _control(page, "RoPE read").input_value()
    length = int(_control(page, "Length").input_value())
    tokens = json.loads(page.get_attribute(f"{box(NAME)} .px-tm-answer", "data-tokens"))
    where = {"scheme": scheme, "method": method, "length": length}
    assert len(tokens) == length and tokens[0] == TASK["bos"], where
    speeds, factor = tm.reading(tm.model_file("rope"), method, length) if scheme == "rope" else (None, 1.0)
    logits, _ = tm.forward(tm.weights(scheme), tokens, scheme, speeds, factor)
    row = logits[length - 2]
    p = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    assert value(page, NAME, "answer") == int(row.argmax()), where
    assert abs(value(page, NAME, "p") - p.max()) <= 1e-9, where
    return dict(where, tokens=tokens)


def test_keyboard_moves_give_the_numpy_forwards_answer(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        assert page.locator(f"{box(NAME)} [data-key]").count() == 0  # nothing runs before the reader loads
        page.locator(f"{box(NAME)} button.px-tm-load").focus()
        page.keyboard.press("Enter")
        _loaded(page, "rope")
        assert _check(page)["length"] == 2 * TASK["train_len"]  # where "Try it" starts: 2L, YaRN
        _control(page, "Length").focus()
        page.keyboard.press("ArrowRight")
        assert _check(page)["length"] == 2 * TASK["train_len"] + STEP
        page.keyboard.press("End")
        assert _check(page)["length"] == 8 * TASK["train_len"]
        _control(page, "RoPE read").focus()
        page.keyboard.press("Home")  # as trained
        assert _check(page)["method"] == "default"
        _control(page, "The fact").focus()
        page.keyboard.press("ArrowDown")  # 8 tokens back
        _check(page)
        passage = _control(page, "Passage")
        passage.focus()
        page.keyboard.press("Control+A")
        page.keyboard.type("30 31 32 33 34 35 36 37 38")
        page.keyboard.press("Enter")
        passage = list(range(30, 39))
        assert _check(page)["tokens"][-17:] == passage + passage[1:]  # the passage, then the copy of its last 8
        _control(page, "Scheme").focus()
        page.keyboard.press("ArrowDown")  # ALiBi: its weights load when chosen
        _loaded(page, "alibi")
        assert _check(page)["scheme"] == "alibi"
    finally:
        context.close()


def test_the_explorable_keeps_the_contract(chromium, site):
    def move(page):
        page.locator(f"{box(NAME)} button.px-tm-load").focus()
        page.keyboard.press("Enter")
        _loaded(page, "rope")
        _control(page, "Length").focus()
        page.keyboard.press("ArrowRight")

    assert contract_problems(chromium, site, PATH, NAME, move) == []
