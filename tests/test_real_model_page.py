"""lessons.real_model: reading the committed real-model runs (no torch needed), the comparisons the page
states, and that every number in its prose is one its code computes."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from figures_build import reading as _prose
from lessons import real_model
from lessons.real_model import (BASELINE, LONGEST, COMPARISONS, blocks, departure, load_runs, loss_at, paired_difference,
                                comparison_holds)


def _write(directory, text, method, values):
    name = f"truncated__{text}__{LONGEST}__window" if method == BASELINE else f"stretch__{text}__{LONGEST}__{method}"
    (directory / f"{name}.json").write_text(json.dumps({"result": {"blocks": list(values)}, "seconds": 60}))


def test_buckets_pairs_and_departure_on_made_up_runs(tmp_path):
    n = LONGEST // 256
    base = np.full(n, 2.0)
    worse = base.copy()
    worse[48:] += 1.0  # from position 12,288 on, one nat worse
    _write(tmp_path, "prose", BASELINE, base)
    _write(tmp_path, "prose", "none", worse)
    runs = load_runs(tmp_path)
    assert blocks(runs, "prose", "none").shape == (128,)
    assert [loss_at(runs, "prose", "none", m) for m in (1, 2, 4)] == [2.0, 2.5, 3.0]
    assert paired_difference(runs, "prose", "none", BASELINE, 4) == (1.0, 1.0, 1.0)
    mean, low, high = paired_difference(runs, "prose", "none", BASELINE, 2)
    assert mean == 0.5 and 0 <= low < 0.5 < high <= 1.0  # half the pieces differ: the interval is wide
    assert departure(runs, "prose", "none") == 12288
    assert departure(runs, "prose", BASELINE) is None
    assert comparison_holds(runs, ("prose", BASELINE, "none", 4)) and not comparison_holds(runs, ("prose", "none",
                                                                                              BASELINE, 4))
    assert real_model.study_minutes(runs) == 2
    with pytest.raises(ValueError, match="no run stretch__code"):
        blocks(runs, "code", "none")


def test_no_runs_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no runs in .*make real-model"):
        load_runs(tmp_path)


def test_every_comparison_the_page_states_holds_with_its_interval():
    runs = load_runs()
    failed = [r for r in COMPARISONS if not comparison_holds(runs, r)]
    assert not failed, f"comparisons whose paired interval includes zero: {failed}"
    assert len(COMPARISONS) >= 8


def test_no_stretching_method_beats_the_cut_context():
    """The page's headline: over 2× and 4× on both texts, no method's paired interval against the cut
    context lies below zero."""
    runs = load_runs()
    for text in real_model.TEXTS:
        for method in (*real_model.CORE, "dynamic-1@16384", *real_model.ABLATIONS):
            for multiple in (2, 4):
                if method.endswith("@16384") and multiple == 4:
                    continue
                if (method in real_model.ABLATIONS or method == "dynamic-1") and text != "prose":
                    continue  # read on the prose only
                mean, low, high = paired_difference(runs, text, method, BASELINE, multiple)
                assert high > 0, (text, method, multiple, (mean, low, high))


def test_dynamic_in_one_pass_is_ntk_aware_at_its_stretch_in_the_runs():
    """Read in one pass over 32,768 tokens, dynamic NTK (factor 1) has stretch 4: NTK-aware scaling's
    base for 4×, so the same speeds and the same losses to the last digit."""
    runs = load_runs()
    np.testing.assert_allclose(blocks(runs, "prose", "dynamic-1"), blocks(runs, "prose", "ntk-4"), atol=1e-4)
    for text in real_model.TEXTS:
        # and token by token it is no scaling at all up to 8,192
        np.testing.assert_allclose(blocks(runs, text, "dynamic-1-cached")[:32], blocks(runs, text, "none")[:32],
                                   atol=1e-5)


VERSIONS = {"5.24", "3.11"}  # transformers 5.24 and Python 3.11: names, not measurements


def _prose_numbers(doc: str) -> set[str]:
    """Decimal numbers in the page outside its code blocks (the figures' alt text included), arXiv
    identifiers and VERSIONS aside."""
    text = re.sub(r"```.*?```", "", doc, flags=re.S).replace("−", "-")
    text = re.sub(r"arXiv:\d{4}\.\d{4,5}|abs/\d{4}\.\d{4,5}", "", text)
    return set(re.findall(r"(?<![\w.])-?\d+\.\d+(?![\w.])", text))


def test_every_decimal_in_the_prose_is_a_value_the_code_checks():
    """A decimal number written anywhere in the prose (Level 1's table included) must appear in a
    `# →` result of the page's Python blocks, which the prose tests run against the committed runs."""
    doc = real_model.__doc__
    checked = set()
    for _, code in _prose.fences(doc, "python"):
        for result, _ in _prose.arrow_values(code).values():
            checked |= set(re.findall(r"-?\d+\.\d+", result.replace("−", "-")))
    checked |= {v.lstrip("-") for v in checked} | {"+" + v for v in checked}
    quoted = _prose_numbers(doc)
    assert len(quoted) > 20
    loose = {v for v in quoted if v not in checked and v.lstrip("+-") not in checked} - VERSIONS
    assert not loose, f"numbers in the prose no `# →` line checks: {sorted(loose)}"


def test_the_figures_draw_from_the_committed_runs():
    figures = real_model.figures()
    assert set(figures) == {"cliff", "methods", "shift", "attention"}
    for fig in figures.values():
        assert fig.axes and all(ax.lines for ax in fig.axes)


def test_the_model_is_named_for_what_the_file_says_it_is():
    """Level 1 names the file's quantisation and its long-context stage as the GGUF header records them."""
    gguf = pytest.importorskip("gguf")
    from experiments.real_model.gguf_model import model_path

    try:
        reader = gguf.GGUFReader(str(model_path()))
    except FileNotFoundError:
        pytest.skip("the model's wheel is not installed")
    fields = {k: reader.fields[k].contents() for k in ("general.name", "general.finetune", "general.file_type",
                                                       "llama.context_length", "llama.rope.freq_base")}
    level1 = real_model.__doc__.split("## Level 2")[0].replace("\n", " ")
    assert f'`general.name` "{fields["general.name"]}"' in level1
    assert f'`general.finetune` "{fields["general.finetune"]}"' in level1
    assert gguf.LlamaFileType(fields["general.file_type"]).name in level1 and "Q4_1" in level1
    assert fields["llama.context_length"] == 8192 and fields["llama.rope.freq_base"] == 100000.0
    assert "no chat template" in level1 and "Instruct" in level1


def test_what_long_context_buys_and_what_each_method_costs():
    """Issue 38, item 1: the method read on the cut windows splits its difference from the cut context into
    a gain (full − cut, under the method) and a cost (method cut − cut); the two add up, and each sentence of
    the page about them holds with its interval."""
    from lessons.real_model import CUT, cost_and_gain

    runs = load_runs()
    for text in ("prose", "code"):
        for method in CUT:
            for multiple in (2, 4):
                split = cost_and_gain(runs, text, method, multiple)
                total = paired_difference(runs, text, method, BASELINE, multiple, 3)[0]
                assert abs(split["gain"][0] + split["cost"][0] - total) <= 0.0015, (text, method, multiple)
                assert split["cost"][1] > 0, "every method costs something on the cut windows"
            # at 1× the cut windows are the full window: no gain, and the cost is the method's cost up to 8,192
            assert paired_difference(runs, text, method, "cut-" + method, 1, 3)[0] == 0
    for text in ("prose", "code"):  # at 4×: YaRN's distant context helps, NTK-aware's hurts
        assert cost_and_gain(runs, text, "yarn-4", 4)["gain"][2] < 0
        assert cost_and_gain(runs, text, "ntk-4", 4)["gain"][1] > 0
        yarn = cost_and_gain(runs, text, "yarn-4", 4)
        assert yarn["cost"][0] > -yarn["gain"][0]  # "more than the gain"
    llama3 = {t: cost_and_gain(runs, t, "llama3-4", 4)["gain"] for t in ("prose", "code")}
    assert llama3["prose"][1] < 0 < llama3["prose"][2] and llama3["code"][1] > 0  # nothing; a loss on code
    assert all(cost_and_gain(runs, t, "linear-4", 4)["gain"][1] > 0 for t in ("prose", "code"))  # "adds more"
    for method in ("yarn-4", "ntk-4"):  # at 2× on the prose the gain's interval includes zero
        low, high = cost_and_gain(runs, "prose", method, 2)["gain"][1:]
        assert low < 0 < high
