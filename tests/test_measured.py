"""lessons.measured: reading the committed experiment results, their intervals and the rankings the page
states (no torch needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from project import reading as _prose
from lessons import measured
from lessons.context_extension import dynamic_ntk_stretch
from lessons.measured import (RANKINGS, eval_lengths, interval, load_results, paired,
                              ranking_holds, reproduces, values)
from lessons.tools import intervals
from lessons.tools.intervals import bootstrap_interval

REPRODUCTION = Path(__file__).resolve().parents[1] / "experiments" / "reproduction"


def _record(name, seed, acc, reading="default"):
    lengths = [32, 64, 128, 256]
    cell = {"accuracy": acc, "nll": 1 - acc, "margin": acc}
    table = {str(n): dict(cell, accuracy=acc / (i + 1), grid={"far-8": cell}) for i, n in enumerate(lengths)}
    return {"name": name, "seed": seed, "config": {"eval_lengths": lengths}, "wall_seconds": 10.0,
            "training": {"learned_step": 100 * seed}, "evals": {reading: {"lengths": table},
                                                              "yarn": {"lengths": table}}}


def _write(directory, name, accs, reading="default"):
    for seed, acc in enumerate(accs):
        (directory / f"{name}__seed{seed}.json").write_text(json.dumps(_record(name, seed, acc, reading)))


def test_values_intervals_and_paired_differences(tmp_path):
    _write(tmp_path, "a", [0.9, 0.7, 0.5, 0.8, 0.6])
    _write(tmp_path, "b", [0.8, 0.6, 0.4, 0.7, 0.5])
    _write(tmp_path, "a-ft", [0.1, 0.2, 0.3, 0.4, 0.5], reading="tuned")
    (tmp_path / "suite.json").write_text("{}")  # the suite's summary is not a result
    results = load_results(tmp_path)
    assert set(results) == {"a", "b", "a-ft"} and eval_lengths(results) == [32, 64, 128, 256]
    np.testing.assert_allclose(values(results, "a", 32), [0.9, 0.7, 0.5, 0.8, 0.6])
    np.testing.assert_allclose(values(results, "a", 64), [0.45, 0.35, 0.25, 0.4, 0.3])
    np.testing.assert_allclose(values(results, "a-ft", 32), [0.1, 0.2, 0.3, 0.4, 0.5])  # a fine-tune: "tuned"
    np.testing.assert_allclose(values(results, "a:yarn", 32, "nll"), [0.1, 0.3, 0.5, 0.2, 0.4])
    np.testing.assert_allclose(values(results, "a", 256, cell="far-8"), [0.9, 0.7, 0.5, 0.8, 0.6])
    mean, low, high = interval(results, "a", 32)
    assert mean == 0.7 and low < mean < high and 0.5 <= low and high <= 0.9
    # every seed is 0.1 better: the paired interval is a point, and it excludes zero
    assert paired(results, "a", "b", 32) == (0.1, 0.1, 0.1)
    assert ranking_holds(results, ("a", "b", 32, "accuracy", None))
    assert not ranking_holds(results, ("b", "a", 32, "accuracy", None))
    # lower nll is better: a's answers are more likely too
    assert ranking_holds(results, ("a", "b", 32, "nll", None)) and not ranking_holds(results, ("b", "a", 32, "nll", None))
    assert reproduces(results, ("a", "b", 32, "accuracy", None)) and not reproduces(results, ("a-ft", "b", 32,
                                                                                              "accuracy", None))


def test_every_interval_in_the_prose_is_one_the_code_checks():
    """A number quoted as "mean [low, high]" anywhere on the page (Level 1's table included) must be
    one of the (mean, low, high) tuples that a `# →` line checks against the results."""
    doc = measured.__doc__.replace("−", "-")
    quoted = {tuple(float(v) for v in m) for m in re.findall(r"(-?\d\.\d+) \[(-?\d\.\d+), (-?\d\.\d+)\]", doc)}
    checked = set()
    for _, code in _prose.fences(doc, "python"):
        for result, _ in _prose.arrow_values(code).values():
            checked |= {tuple(float(v) for v in m) for m in re.findall(r"\((-?\d\.\d+), (-?\d\.\d+), (-?\d\.\d+)\)",
                                                                       result.replace("−", "-"))}
    assert len(quoted) > 20
    assert not quoted - checked, f"intervals quoted but never checked: {sorted(quoted - checked)}"


def test_an_unpaired_comparison_is_refused(tmp_path):
    _write(tmp_path, "a", [0.9, 0.7, 0.5])
    _write(tmp_path, "b", [0.8, 0.6])
    with pytest.raises(ValueError, match="different seeds"):
        paired(load_results(tmp_path), "a", "b", 32)


def test_the_bootstrap_is_deterministic_and_covers_the_spread():
    samples = [0.2, 0.4, 0.6, 0.8, 1.0]
    assert bootstrap_interval(samples) == bootstrap_interval(samples)
    mean, low, high = bootstrap_interval(samples)
    assert mean == pytest.approx(0.6) and 0.2 < low < 0.6 < high < 1.0
    assert bootstrap_interval([0.5] * 5) == (0.5, 0.5, 0.5)


def test_no_results_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no results in .*make experiments"):
        load_results(tmp_path)


def test_dynamic_is_ntk_at_its_own_stretch_in_the_results():
    """Read in one pass, dynamic NTK (factor 4) is NTK-aware at stretch 5, 13, 29: the same speeds, so the
    same numbers to the last digit (the confound the page explains)."""
    results = load_results()
    for length, s in ((64, 5), (128, 13), (256, 29)):
        assert dynamic_ntk_stretch(4.0, length, 32) == s
        np.testing.assert_allclose(values(results, "rope:dynamic", length), values(results, f"rope:ntk-s{s}", length),
                                   atol=1e-5)
        # and dynamic at factor 1 is NTK-aware at T / L
        np.testing.assert_allclose(values(results, "rope:dynamic-f1", length), values(results, "rope:ntk", length),
                                   atol=1e-5)


def test_every_ranking_the_page_states_holds_with_its_interval():
    results = load_results()
    failed = [r for r in RANKINGS if not ranking_holds(results, r)]
    assert not failed, f"rankings whose paired interval includes zero: {failed}"
    assert all(len(runs) >= 5 for runs in results.values())


def test_a_rerun_of_one_more_seed_reproduces_the_rankings_at_2L():
    """experiments/reproduction/ holds `python -m experiments.run --seeds 5 --out experiments/reproduction`."""
    other = load_results(REPRODUCTION)
    assert all(seed not in measured.seeds_of(load_results(), name) for name, runs in other.items()
               for seed in measured.seeds_of(other, name))
    at_2L = [r for r in RANKINGS if r[2] == 64]
    assert at_2L
    failed = [r for r in at_2L if not reproduces(other, r)]
    assert not failed, f"rankings at 2L the re-run does not reproduce: {failed}"


# --- the claims ledger ---------------------------------------------------------------------------------

# causal or advising wording: such a sentence names its evidence (the words and the review's)
CAUSAL = re.compile(r"\b(because|keeps?|kept|so that|why|carr(?:y|ies|ied)|decides?|makes?|made|removes?|"
                    r"rescues?|only when|should|fails? by)\b", re.I)
MARKER = re.compile(r"⟨([a-z][a-z-]*)⟩")


def prose_sentences(doc: str) -> list[str]:
    """The page's sentences outside code, mermaid, headings and the papers list: paragraphs joined,
    split after a full stop; a table row's cells and a list item are sentences of their own; the bold
    labels of the page format ("**Why it matters.**") are structure, not claims."""
    doc = re.sub(r"```.*?```", "", doc, flags=re.S)
    doc = doc.split("## The papers behind this lesson")[0]
    out = []
    for block in re.split(r"\n\s*\n", doc):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        if not lines:
            continue
        if lines[0].startswith("|"):
            out += [cell.strip() for ln in lines for cell in ln.strip("|").split("|")]
            continue
        text = " ".join(lines)
        text = re.sub(r"`[^`]*`", "", text)
        text = re.sub(r"\*\*[^*]+[.:]\*\*", "", text)
        text = re.sub(r'\?\?\? question "[^"]*"', "", text)
        out += [part for item in re.split(r"(?:^|\s)- ", text) for part in re.split(r"(?<=[.!?])\s+", item)]
    return [s for s in out if s.strip()]


def claims_without_evidence(doc: str) -> list[str]:
    """Sentences with causal wording and no ⟨id⟩ of the ledger."""
    return [s for s in prose_sentences(doc) if CAUSAL.search(MARKER.sub("", s))
            and not any(key in measured.EVIDENCE for key in MARKER.findall(s))]


def test_every_causal_sentence_names_its_evidence_and_each_evidence_holds():
    doc = measured.__doc__
    assert not claims_without_evidence(doc), claims_without_evidence(doc)
    used = set(MARKER.findall(doc))
    assert used == set(measured.EVIDENCE), (used ^ set(measured.EVIDENCE))
    results = load_results()
    failing = [key for key in measured.EVIDENCE if not measured.evidence_holds(results, key)]
    assert not failing, f"evidence that no longer shows what it is cited for: {failing}"
    assert all(measured.evidence_label(key, results) for key in measured.EVIDENCE)
    assert measured.evidence_labels() == {key: measured.evidence_label(key, results) for key in measured.EVIDENCE}


def test_a_causal_sentence_without_evidence_is_caught():
    planted = measured.__doc__.replace("## In 20 seconds", "YaRN wins because its ramp keeps pair 0.\n\n"
                                                           "## In 20 seconds")
    assert claims_without_evidence(planted) == ["YaRN wins because its ramp keeps pair 0."]
    marked = planted.replace("keeps pair 0.", "keeps pair 0 ⟨ramp⟩.")
    assert not claims_without_evidence(marked)
    unknown = planted.replace("keeps pair 0.", "keeps pair 0 ⟨no-such-evidence⟩.")
    assert claims_without_evidence(unknown)


def test_evidence_that_stops_holding_is_caught(monkeypatch):
    results = load_results()
    # a ranking the other way round, an ablation of nothing, an equivalence far outside its margin
    monkeypatch.setitem(measured.EVIDENCE, "ramp", ("ranking", ("rope:yarn-printed", "rope:yarn", 64, "accuracy",
                                                                None)))
    monkeypatch.setitem(measured.EVIDENCE, "layers", ("ablation", ("rope", 32, "none")))
    monkeypatch.setitem(measured.EVIDENCE, "ntk-tie", ("equivalence", ("rope:yarn", "rope:linear", 64)))
    assert not any(measured.evidence_holds(results, k) for k in ("ramp", "layers", "ntk-tie"))


def test_headline_cells_have_two_level_intervals_at_least_as_wide_as_seeds_alone():
    results = load_results()
    rows = measured.headline(results)
    assert len(rows) == len(measured.HEADLINE)
    for (ref, n, cell), (mean, low, high) in zip(measured.HEADLINE, rows, strict=True):
        assert low <= mean <= high
        assert mean == pytest.approx(float(values(results, ref, n, cell=cell).mean()), abs=0.006)
        _, seed_low, seed_high = interval(results, ref, n, cell=cell)
        assert high - low >= seed_high - seed_low - 0.011, (ref, n, cell)  # rounding to 2 digits aside


def test_the_two_level_interval_counts_prompts_and_seeds():
    rng = np.random.default_rng(0)
    prompts = rng.normal(0.0, 0.3, 200)  # the prompts differ a lot, the seeds hardly
    table = 0.5 + prompts[None, :] + rng.normal(0.0, 0.01, (5, 1)) + rng.normal(0.0, 0.05, (5, 200))
    mean, low, high = intervals.two_level_interval(table, digits=6)
    _, seed_low, seed_high = intervals.t_interval(table.mean(axis=1), digits=6)
    assert high - low > 3 * (seed_high - seed_low)  # the seeds alone would claim far too much
    # with the prompts the same for every seed and no prompt effect, it is the seeds' t interval
    flat = np.repeat(np.array([0.2, 0.4, 0.6, 0.8, 1.0])[:, None], 50, axis=1)
    assert intervals.two_level_interval(flat, digits=6) == intervals.t_interval(flat.mean(axis=1), digits=6)


def test_t_quantiles_and_intervals():
    # textbook values of Student's t (two-sided 95% and 90%, 4 degrees of freedom; 1 and 30)
    assert intervals.t_quantile(0.975, 4) == pytest.approx(2.776445, abs=1e-5)
    assert intervals.t_quantile(0.95, 4) == pytest.approx(2.131847, abs=1e-5)
    assert intervals.t_quantile(0.975, 1) == pytest.approx(12.706205, abs=1e-4)
    assert intervals.t_quantile(0.975, 30) == pytest.approx(2.042272, abs=1e-5)
    mean, low, high = intervals.t_interval([0.9, 0.7, 0.5, 0.8, 0.6], digits=6)
    assert mean == pytest.approx(0.7) and high - mean == pytest.approx(2.776445 * 0.158114 / 5 ** 0.5, abs=1e-4)
    assert intervals.equivalent([0.01, -0.01, 0.0, 0.02, -0.02]) and not intervals.equivalent([0.1, 0.12, 0.08, 0.1,
                                                                                              0.11])


def test_t_test_p_values_and_holms_step_down():
    # five samples whose t statistic is the textbook 97.5% (95%) quantile at 4 degrees of freedom: p = 0.05 (0.10)
    spread = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])  # sd sqrt(2.5): the standard error is sqrt(0.5)
    for t, p in ((2.776445, 0.05), (2.131847, 0.10)):
        assert intervals.t_test_p(t * 0.5 ** 0.5 + spread) == pytest.approx(p, abs=1e-5)
        assert intervals.t_test_p(-t * 0.5 ** 0.5 + spread) == pytest.approx(p, abs=1e-5)  # two-sided
    assert intervals.t_test_p([0.0] * 5) == 1.0 and intervals.t_test_p([0.2] * 5) == 0.0
    # Holm: the smallest p against 0.05/3, the next against 0.05/2, and a failure stops the rest
    assert intervals.holm([0.01, 0.04, 0.03]) == [True, False, False]
    assert intervals.holm([0.01, 0.04, 0.02]) == [True, True, True]
    assert intervals.holm([0.02, 0.001]) == [True, True]
    assert intervals.holm([0.06, 0.001]) == [False, True]
    # the page's family: every ranking it states, once, each tested alone and all corrected together
    results = load_results()
    tests = measured.ranking_tests()
    assert len(set(tests)) == len(tests) and set(measured.RANKINGS) <= set(tests)
    held, failed = measured.holm_check(results)
    assert held + len(failed) == len(tests)
