"""The `tiny_model` explorable in Chromium (lessons/measured's Level 1): loaded from its button, it
opens on the study's own prompts (drawn as in training) read as trained at 2L; with the length, the
reading, the fact's place, the prompt and the scheme moved by keyboard, the 7 scored answers it
counts, the last answer and its probability are the numpy forward's (explorables.tiny_model.forward
on the committed export) for the prompt it ran; a copied stretch typed by keyboard runs as typed
(its 7 answers and probabilities numpy's) and a bad one says why and runs nothing; its Score button's share is numpy's on the page's
own seeded prompts, beside the study's own number (lessons.measured.values); the box has one live
region, a polite short summary of each run, not rewritten when a run changes nothing it says; and
it keeps the explorables' contract (tests/explorables.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorables import tiny_model as tm
from lessons.measured import load_results, values
from tests.explorables import box, contract_problems, control, open_explorable, value

pytestmark = pytest.mark.browser
NAME, PATH = "tiny_model", "lessons/measured/"
MANIFEST = tm.json.loads(tm.MANIFEST.read_text(encoding="utf-8"))
TASK, STEP = MANIFEST["task"], MANIFEST["lengths"][1] - MANIFEST["lengths"][0]
B = TASK["copy"]


def _press(page, text: str) -> None:
    page.locator(f"{box(NAME)} button:has-text('{text}')").focus()
    page.keyboard.press("Enter")


def _loaded(page, scheme: str) -> None:
    """Wait until `scheme`'s model has answered (its button says so)."""
    label = next(s["label"] for s in tm.data()["schemes"] if s["name"] == scheme)
    page.wait_for_selector(f"{box(NAME)} button.px-tm-load:has-text('{label} model loaded')", timeout=30000)
    page.wait_for_selector(f"{box(NAME)} [data-key=answer]", timeout=30000)


def _setting(page) -> tuple[str, str, int, list | None, float]:
    scheme, method = control(page, NAME, "Scheme").input_value(), control(page, NAME, "RoPE read").input_value()
    length = int(control(page, NAME, "Length").input_value())
    speeds, factor = tm.reading(tm.model_file("rope"), method, length) if scheme == "rope" else (None, 1.0)
    return scheme, method, length, speeds, factor


def _scored_rows(scheme, tokens, speeds, factor) -> np.ndarray:
    """The numpy logits at the task's 7 scored places (the copy's rows T − 8 .. T − 2)."""
    logits, _ = tm.forward(tm.weights(scheme), tokens, scheme, speeds, factor)
    return logits[len(tokens) - B:len(tokens) - 1]


# Every element a screen reader announces changes of: aria-live (but off), the live roles, <output>.
LIVE = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log], [role=marquee], [role=timer], output"


def _live(page) -> list[str]:
    """The class names of the box's live regions."""
    return page.eval_on_selector_all(f"{box(NAME)} :is({LIVE})", "els => els.map(e => e.className)")


def _check(page) -> dict:
    """The shown hits, last answer and its probability against the numpy forward for the prompt the
    page ran, and the live summary saying them."""
    scheme, method, length, speeds, factor = _setting(page)
    tokens = json.loads(page.get_attribute(f"{box(NAME)} .px-tm-answer", "data-tokens"))
    where = {"scheme": scheme, "method": method, "length": length}
    assert len(tokens) == length and tokens[0] == TASK["bos"], where
    rows = _scored_rows(scheme, tokens, speeds, factor)
    hits = int((rows.argmax(-1) == tokens[-(B - 1):]).sum())
    last = np.exp(rows[-1] - rows[-1].max()) / np.exp(rows[-1] - rows[-1].max()).sum()
    assert value(page, NAME, "hits") == hits, where
    assert value(page, NAME, "answer") == int(last.argmax()), where
    assert abs(value(page, NAME, "p") - last.max()) <= 1e-9, where
    summary = page.locator(f"{box(NAME)} .px-tm-summary")
    assert _live(page) == [summary.get_attribute("class")] and summary.get_attribute("aria-live") == "polite"
    right = "right" if last.argmax() == tokens[-1] else "wrong"
    assert summary.inner_text() == f"{hits} of 7 right; last answers {last.argmax()}, p {last.max():.3f}, {right}"
    return dict(where, tokens=tokens)


def _check_score(page) -> None:
    """The Score button's share against numpy on the page's own seeded prompts (its pure `prompt`),
    and the study's numbers beside it against lessons.measured."""
    scheme, method, length, speeds, factor = _setting(page)
    page.wait_for_selector(f"{box(NAME)} [data-key=share]", timeout=60000)
    made = page.evaluate("""([task, n, count]) => Array.from({length: count}, (_, i) =>
        PrimerExplorables.pure.tiny_model.prompt(task, n, "training", i + 1).tokens)""", [TASK, length, tm.SAMPLE])
    hits = sum(int((_scored_rows(scheme, t, speeds, factor).argmax(-1) == t[-(B - 1):]).sum()) for t in made)
    assert value(page, NAME, "share") == hits / (7 * tm.SAMPLE), (scheme, method, length)
    study = values(load_results(), scheme if method == "default" or scheme != "rope" else f"rope:{method}", length)
    seed = [r["seed"] for r in load_results()[scheme]].index(MANIFEST["models"][scheme]["seed"])
    assert value(page, NAME, "study-mean") == pytest.approx(study.mean(), abs=1e-12)
    assert value(page, NAME, "study-seed") == study[seed]


def test_keyboard_moves_give_the_numpy_forwards_answers(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        assert page.locator(f"{box(NAME)} [data-key]").count() == 0  # nothing runs before the reader loads
        _press(page, "Load the")
        _loaded(page, "rope")
        first = _check(page)  # where it starts: the study's prompts, read as trained, at 2L
        assert (first["length"], first["method"]) == (2 * TASK["train_len"], "default")
        assert control(page, NAME, "The fact").input_value() == "training"
        _press(page, "Score")
        _check_score(page)
        control(page, NAME, "Length").focus()
        page.keyboard.press("ArrowRight")
        assert _check(page)["length"] == 2 * TASK["train_len"] + STEP
        page.keyboard.press("End")
        assert _check(page)["length"] == 8 * TASK["train_len"]
        control(page, NAME, "RoPE read").focus()
        page.keyboard.press("End")  # the last reading: dynamic NTK
        assert _check(page)["method"] == tm.READINGS[-1]
        _press(page, "Score")
        _check_score(page)
        control(page, NAME, "The fact").focus()
        page.keyboard.press("ArrowDown")  # at the start
        before = _check(page)["tokens"]
        assert before[1:1 + B] == before[-B:]  # the passage of 8 right after BOS, copied whole
        _press(page, "New prompt")
        assert _check(page)["tokens"] != before
        control(page, NAME, "Scheme").focus()
        page.keyboard.press("ArrowDown")  # ALiBi: its weights load when chosen
        _loaded(page, "alibi")
        assert _check(page)["scheme"] == "alibi"
        page.evaluate("""sel => { window.pxTmWrites = 0; new MutationObserver(r => { window.pxTmWrites += r.length; })
            .observe(document.querySelector(sel), {childList: true, characterData: true, subtree: true}); }""",
                      f"{box(NAME)} .px-tm-summary")
        runs = "performance.getEntriesByName('explorable:tiny_model').length"
        ran = page.evaluate(runs)
        control(page, NAME, "RoPE read").focus()
        page.keyboard.press("Home")  # a run of the same ALiBi prompt: nothing new to say
        page.wait_for_function(f"{runs} > {ran}")
        assert _check(page)["scheme"] == "alibi"
        assert page.evaluate("window.pxTmWrites") == 0  # the live region is not rewritten with its own text
    finally:
        context.close()


def _tokens(page) -> list[int]:
    return json.loads(page.get_attribute(f"{box(NAME)} .px-tm-answer", "data-tokens"))


def _seven(page) -> list[tuple[float, float]]:
    return [(value(page, NAME, f"answer-{r}"), value(page, NAME, f"p-{r}")) for r in range(1, B)]


def _type(page, text: str) -> None:
    """Replace the copied-stretch field's text by keyboard and press Enter."""
    control(page, NAME, "Copied stretch").focus()
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def test_an_edited_passage_runs_as_typed_and_a_bad_one_says_why(chromium, site):
    """The field holds the drawn prompt's copied stretch; a stretch typed by keyboard (two ids swapped,
    one replaced by a passage id the prompt lacks) replaces it in the passage and the copy alike, and
    the 7 answers and probabilities shown are numpy's on that prompt; an id out of range or a wrong
    count shows a message and leaves the last result as it was; New prompt refills the field."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_explorable(page, site, PATH, NAME)
        _press(page, "Load the")
        _loaded(page, "rope")
        control(page, NAME, "Length").focus()
        page.keyboard.press("End")  # 8L: the longest prompt, the passage widest
        drawn = _check(page)["tokens"]
        field = control(page, NAME, "Copied stretch")
        assert field.input_value().split() == [str(t) for t in drawn[-B:]]
        start = drawn.index(drawn[-B])  # the copied stretch in the passage
        ids = drawn[-B:]
        ids[1], ids[4] = ids[4], ids[1]
        ids[6] = next(t for t in range(TASK["vocab_size"] - 1, TASK["first_content"] - 1, -1) if t not in drawn)
        _type(page, " ".join(map(str, ids)))
        want = drawn[:start] + ids + drawn[start + B:-B] + ids
        page.wait_for_function("([sel, want]) => document.querySelector(sel).dataset.tokens === want",
                               arg=[f"{box(NAME)} .px-tm-answer", json.dumps(want, separators=(",", ":"))], timeout=15000)
        assert _check(page)["tokens"] == want
        scheme, _, _, speeds, factor = _setting(page)
        rows = _scored_rows(scheme, want, speeds, factor)
        shown = _seven(page)
        e = np.exp(rows - rows.max(-1, keepdims=True))
        probs = e / e.sum(-1, keepdims=True)
        assert [a for a, _ in shown] == [int(r.argmax()) for r in rows]
        assert np.abs(np.array([p for _, p in shown]) - probs.max(-1)).max() <= 1e-9
        message = page.locator(f"{box(NAME)} .px-tm-message")
        assert message.inner_text() == ""
        for bad in (" ".join(map(str, [TASK["vocab_size"]] + ids[1:])), " ".join(map(str, ids[:-1]))):
            _type(page, bad)
            page.wait_for_function("sel => document.querySelector(sel).textContent !== ''",
                                   arg=f"{box(NAME)} .px-tm-message", timeout=15000)
            assert field.get_attribute("aria-invalid") == "true", bad
            said = page.locator(f"{box(NAME)} .px-tm-summary")  # the one live region says it too
            assert said.inner_text() == "Not run: " + message.inner_text() and len(_live(page)) == 1, bad
            assert _tokens(page) == want and _seven(page) == shown, bad  # the last result stands
            _type(page, " ".join(map(str, ids)))  # valid again: the message goes
            page.wait_for_function("sel => document.querySelector(sel).textContent === ''",
                                   arg=f"{box(NAME)} .px-tm-message", timeout=15000)
        _press(page, "New prompt")
        fresh = _check(page)["tokens"]
        assert fresh != want and field.input_value().split() == [str(t) for t in fresh[-B:]]
    finally:
        context.close()


def test_the_explorable_keeps_the_contract(chromium, site):
    def move(page):
        _press(page, "Load the")
        _loaded(page, "rope")
        control(page, NAME, "Length").focus()
        page.keyboard.press("ArrowRight")

    assert contract_problems(chromium, site, PATH, NAME, move) == []
