"""The `methods` explorable in Node (explorables/web/methods.js's `measure`: what it reads for a
choice of model, method and stretch, with the data the build publishes) against the Python the
decoder's explorer reports: a method set for a stretch as `modelcard.explorer.method_measures`
(dynamic NTK: `explorables.methods.preset_measures`), a gallery model's own block as
`block_measures`, at every stop of the slider. Counts (pairs past, pairs untouched) exactly; the
largest angle ratio and slowest pair to 1e-12 relative: the core does numpy's float64 arithmetic
in the same order, but V8's Math.pow and numpy's power may round a last bit differently. Each pair
the plot draws is held to `trained_angle_ratio` and `past_trained`, and the block the box prints
is read back with `rope_inv_freq` to the speeds drawn."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorables.methods import METHODS, data, models, reading, stops
from lessons.context_extension import dynamic_ntk_stretch, rope_inv_freq, trained_angle_ratio
from modelcard.explorer import past_trained
from tests.node import needs_node, run_explorable

REL = 1e-12
KEYS = [key for key, _, _ in METHODS]


def _close(got: dict, want: dict, where) -> None:
    assert (got["past"], got["untouched"]) == (want["past"], want["untouched"]), (where, got, want)
    for key in ("largest", "slowest"):
        assert math.isclose(got[key], want[key], rel_tol=REL), (where, key, got[key], want[key])


def own_note_holds(note: str, entries: list[dict], slug: str, served: int, where) -> None:
    """The own-block note claims training met the angles only where the length read is at most the
    model's served length, and then only what its sources say (`training`, else the generic line)."""
    m = next(e for e in entries if e["slug"] == slug)
    assert "pretrained length" in note, where
    past = f"Read past the length it serves ({m['served']:,} tokens), which no training reached"
    within = "a lit pair here says how far the block reaches past pretraining, not whether training showed that angle"
    assert (past in note, within in note) == (served > m["served"], served <= m["served"]), (where, note)
    generic = f"long-context training, if any, reached at most the length it serves ({m['served']:,} tokens)"
    if served <= m["served"]:
        assert (m["training"] or generic) in note, (where, note)
    assert "§3.4.2" not in note or (served <= m["served"] and "§3.4.2" in (m["training"] or "")), (where, note)


def _run(tmp_path, choices: list[dict]) -> list[dict]:
    return run_explorable(tmp_path, "methods", [["measure", c] for c in choices])


def _check(tmp_path, choices: list[dict]) -> None:
    """Each choice as methods.js reads it against `reading`: the same model and block, length and measures."""
    published, cards = data(), models()
    for c, got in zip(choices, _run(tmp_path, choices), strict=True):
        want, st = reading(c["model"], c["method"], c["stretch"], published, cards), got["setting"]
        assert (st["model"], st["own"], st["served"]) == (want["model"], want["own"], want["served"]), (c, st)
        _close(got["rows"]["measures"], want, c)
        # a model's own block: the count is against pretraining; within the length the model serves, what
        # its sources say of training that far (or that such training, if any, stopped there); past it,
        # that no training reached that far
        note = got["own_note"]
        assert bool(note) == want["own"], (c, note)
        if note:
            own_note_holds(note, published["models"], want["model"], want["served"], c)
        # dynamic NTK set for the stretch: the stretch its base is raised for at the length read
        if "effective" in want:
            s = c["stretch"]
            assert math.isclose(got["effective"], want["effective"], rel_tol=REL), (c, got["effective"])
            assert want["effective"] == dynamic_ntk_stretch(s, want["served"], st["trained"]), c
            assert math.isclose(want["effective"], s * s - s + 1, rel_tol=1e-3), c  # the served length is rounded
        else:
            assert got["effective"] is None, c


@needs_node
def test_the_slider_steps_through_quarter_powers_of_two_and_the_models_own_stretch(tmp_path):
    owns = [None, *(m["stretch"] for m in data()["models"])]
    got = run_explorable(tmp_path, "methods", [["stops", own] for own in owns])
    for own, grid in zip(owns, got, strict=True):
        assert grid == pytest.approx(stops(own), rel=1e-15), own
        assert own is None or own in grid


@needs_node
def test_each_method_on_the_lessons_example_at_every_stop(tmp_path):
    """Method_measures' rows and dynamic NTK on the example; LongRoPE: the gallery's LongRoPE model."""
    _check(tmp_path, [{"model": "", "method": key, "stretch": s} for s in stops() for key in KEYS])


@needs_node
def test_each_method_on_each_gallery_model(tmp_path):
    """Its own block where the method is its block's rope type (`block_measures`), else the method set
    for the stretch on its head (`method_measures`, capped at its window: Llama 4 Scout's chunk)."""
    _check(tmp_path, [{"model": m["slug"], "method": key, "stretch": s} for m in data()["models"]
                      for s in (1.0, 2 ** 1.25, 8.0, m["stretch"], 64.0) for key in KEYS])


@needs_node
def test_each_gallery_model_s_own_block_at_every_stop(tmp_path):
    _check(tmp_path, [{"model": m["slug"], "method": m["rope_type"], "stretch": s} for m in data()["models"]
                      for s in stops(m["stretch"])])


@needs_node
def test_each_pair_drawn_and_the_block_printed_match_the_python(tmp_path):
    choices = [{"model": "", "method": key, "stretch": s} for key in KEYS if key != "longrope" for s in (1.5 ** 0.5, 8.0, 45.0)]
    choices += [{"model": m["slug"], "method": m["rope_type"], "stretch": s} for m in data()["models"] for s in (2.0, 64.0)]
    for c, got in zip(choices, _run(tmp_path, choices), strict=True):
        st, pairs = got["setting"], got["rows"]["pairs"]
        width = st["head_dim"] if st["own"] else st["width"]
        plain = st["plain"] if st["own"] else {"rope_theta": st["base"]}
        theta = rope_inv_freq(width, plain)[0]
        wave = np.array([p["wavelength"] for p in pairs])
        assert np.allclose(wave, 2 * np.pi / theta, rtol=REL, atol=0), c
        # the block printed, read as a config would be, turns each pair as drawn
        if st["own"]:
            speeds = rope_inv_freq(width, got["block"], max_position_embeddings=st["max_position"], seq_len=st["served"])[0]
        else:
            speeds = rope_inv_freq(width, got["block"], max_position_embeddings=st["trained"], seq_len=st["served"])[0]
        assert np.allclose([p["scale"] for p in pairs], speeds / theta, rtol=1e-9, atol=0), c
        ratio = trained_angle_ratio(speeds, theta, st["trained"], st["reach"])
        assert np.allclose([p["ratio"] for p in pairs], ratio, rtol=1e-9, atol=0), c
        assert [p["past"] for p in pairs] == past_trained(ratio, st["trained"]).tolist(), c
        assert sum(p["past"] for p in pairs) == got["rows"]["measures"]["past"], c


def _try_it() -> str:
    """The "Try it" paragraph beside the box, on one line."""
    import lessons.context_extension as lesson

    text = lesson.__doc__.split("**Try it:**", 1)[1].split("\n\n", 1)[0]
    return " ".join(text.split())


def _nothing_lights(said: str, entries: list[dict]) -> set[str]:
    """The models the Try it says nothing lights on, each named with the window its RoPE layers attend within."""
    return {m["slug"] for m in entries if m["window"] and
            f"{m['name']}'s RoPE layers attend within {m['window']:,}-token {m['kind']}s, so nothing lights there "
            "at any length" in said}


def test_what_the_prose_beside_the_box_says_holds_for_every_model_at_every_stop():
    """The Try it's claims, for the example and every gallery model at every stop, with no exception it
    does not state: no scaling lights pairs as soon as the layers read past the pretrained length,
    NTK-aware all but one of them; dynamic NTK fewer as the stretch grows, its base raised for a larger
    stretch than the one read; PI, YaRN and the Llama 3 rule set for the length read keep every pair
    dark; a model's own block with a factor is dark exactly up to that factor; LongRoPE's lists (no
    factor) light only at the slider's end; the models it names light nothing at any stop; only the
    model it names lights its own block's pairs within the length it serves."""
    said = _try_it()
    published, cards = data(), models()
    entries = published["models"]
    for claim in ("no scaling the slow pairs light up as soon as the layers read past the pretrained length",
                  "NTK-aware leaves all but one of the slow pairs lit however far you stretch",
                  "Dynamic NTK, set the same way, darkens as you stretch only because it raises the base for a far "
                  "larger stretch than the one read",
                  "position interpolation, YaRN and the Llama 3 rule, set for the length read, keep every pair dark",
                  "A model's own block keeps the factor it ships with: read further than that factor and its slow "
                  "pairs light again",
                  f"LongRoPE's lists carry no factor (the Phi models light only at {max(stops()):g}×)",
                  "the others light them only past that length, which no training reached"):
        assert claim in said, claim
    dark = _nothing_lights(said, entries)
    within = set()
    for own in [None, *entries]:
        slug = own["slug"] if own else ""
        grid = stops(own["stretch"] if own else None)[1:]
        dynamic = [reading(slug, "dynamic", s, published, cards) for s in grid]
        assert [d["past"] for d in dynamic] == sorted((d["past"] for d in dynamic), reverse=True), (slug, dynamic)
        assert all(d["effective"] > s for d, s in zip(dynamic, grid, strict=True)), slug
        for s in grid:
            got = {k: reading(slug, k, s, published, cards) for k in KEYS if k != "longrope"}
            where = (slug, s, {k: v["past"] for k, v in got.items()})
            if own:
                got["own"] = reading(slug, own["rope_type"], s, published, cards)
                assert got["own"]["own"], where
            if slug in dark:
                assert all(v["past"] == 0 for v in got.values()), where
                continue
            # every stop past 1 reads past the pretrained length on these heads (no window caps it)
            assert got["none"]["past"] > 0 and got["ntk"]["past"] == got["none"]["past"] - 1, where
            for k in ("linear", "yarn", "llama3"):
                if not got[k]["own"]:
                    assert got[k]["past"] == 0, where
            if not own:
                continue
            factor, lit = own["params"].get("factor"), got["own"]["past"] > 0
            if factor:
                assert lit == (s > factor * (1 + 1e-9)), where
            else:  # LongRoPE: its name and its lists, lit only at the slider's end
                assert own["rope_type"] == "longrope" and own["name"].startswith("Phi"), where
                assert lit == (s == max(stops())), where
            if lit and got["own"]["served"] <= own["served"]:
                within.add(own["name"])
    assert len(within) == 1, within
    assert f"Only {within.pop()} lights pairs within the length it serves" in said
    assert "Meta reports continued pretraining to 128K tokens but not which scaling was active then" in said
