"""The in-browser model-card decoder (modelcard/web/model_card.js) on the built
lessons/model_card/ page: pasting a config, the plot, the sliders, the dark palette,
accessibility, nothing fetched from another host and no console error. Its parity with
the Python it ports (every card, report and error of a few hundred configs) is tested in
Node, without a browser or a build: tests/test_model_card_node.py."""

from __future__ import annotations

import json

import pytest

from lessons.model_card import explain
from modelcard.report import card_json, report, report_sections
from modelcard.known_bugs import release_menu
from lessons.tools.model_types import gallery
from tests import browser
from tests.model_card_parity import differences
from tests.test_card_html import lines_from_html

pytestmark = pytest.mark.browser

PATH = "lessons/model_card/"
GALLERY = gallery()


@pytest.fixture
def page(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def _open(page, site) -> browser.PageLog:
    log = browser.PageLog(page, site)
    page.goto(site + PATH, wait_until="load")
    page.wait_for_function("() => window.PrimerModelCard && document.querySelector('#model-card-decoder select')")
    page.wait_for_function(f"() => document.querySelectorAll('#pmc-gallery option').length === {len(GALLERY) + 1}")
    return log


def _clean(log: browser.PageLog) -> None:
    problems = [f"request to another host: {u}" for u in log.offsite()] + \
               [f"failed request: {f}" for f in log.failures] + [f"console error: {c}" for c in log.console]
    assert not problems, "\n".join(problems)


def test_pasting_a_config_shows_the_report_and_the_plot(page, site):
    log = _open(page, site)
    for slug in GALLERY:
        config = GALLERY[slug]["config"]
        page.fill("#pmc-config", json.dumps(config, indent=2))
        page.fill("#pmc-served", "")
        page.click("#model-card-decoder button")
        card = explain(config)
        # the report as HTML: its cells, section by section, give back the CLI's lines (tests/test_card_html.py)
        assert lines_from_html(page.inner_html(".pmc-report-box"), report_sections(card)) == report(card).splitlines(), slug
        assert page.locator(".pmc-plot path.pmc-group").count() == len(card.rope), slug
        assert not differences(card_json(explain(config)), json.loads(page.text_content(".pmc-json pre")), slug)
        assert page.inner_text(".pmc-error").strip() == ""
    # a length to serve, and an example picked from the list
    slug = next(iter(GALLERY))
    page.select_option("#pmc-gallery", slug)
    page.fill("#pmc-served", "100000")
    page.click("#model-card-decoder button")
    card = explain(GALLERY[slug]["config"])
    assert lines_from_html(page.inner_html(".pmc-report-box"), report_sections(card, 100000, GALLERY[slug]["repo"])) \
        == report(card, 100000, GALLERY[slug]["repo"]).splitlines()
    assert not differences(card_json(explain(GALLERY[slug]["config"]), 100000, GALLERY[slug]["repo"]),
                            json.loads(page.text_content(".pmc-json pre")), slug)
    # an engine release from the menu: its known bugs join the report, and the JSON gains known_bugs
    menu = page.eval_on_selector_all("#pmc-engine option", "os => os.map(o => o.value)")
    assert menu == [""] + [spec for spec, _ in release_menu()]
    qwen = next(s for s in GALLERY if GALLERY[s]["config"].get("model_type") == "qwen2" and
                "rope_scaling" in GALLERY[s]["config"])
    page.select_option("#pmc-gallery", qwen)
    page.fill("#pmc-served", "")
    for spec in menu[1:]:
        page.select_option("#pmc-engine", spec)  # redraws the report once the menu settles (issue 43)
        page.wait_for_function("() => document.querySelector('#model-card-decoder').dataset.pmcPending === '0'")
        card = explain(GALLERY[qwen]["config"])
        want = report(card, None, GALLERY[qwen]["repo"], spec)
        assert lines_from_html(page.inner_html(".pmc-report-box"), report_sections(card, None, GALLERY[qwen]["repo"],
                                                                                   spec)) == want.splitlines(), spec
        assert json.loads(page.text_content(".pmc-json pre"))["known_bugs"] == \
            json.loads(json.dumps(card_json(card, None, GALLERY[qwen]["repo"], spec)["known_bugs"])), spec
    page.select_option("#pmc-engine", "")
    # what is not JSON: one line in the alert, no output, no exception
    page.fill("#pmc-config", "not json")
    page.click("#model-card-decoder button")
    alert = page.inner_text("#model-card-decoder [role=alert]").strip()
    assert alert and "\n" not in alert and "not JSON" in alert, alert
    assert page.locator(".pmc-output").is_hidden()
    page.fill("#pmc-config", json.dumps({"model_type": "mystery"}))
    page.click("#model-card-decoder button")
    assert "no position information" in page.inner_text("#model-card-decoder [role=alert]")
    _clean(log)


def test_sliders_change_the_plot_and_the_sentence(page, site):
    log = _open(page, site)
    explorable = "#model-card-decoder .pmc-explore-plot"
    assert page.locator(f"{explorable} path").count() == 5, "one line per method"

    def state():
        return (page.inner_text(".pmc-sentence"),
                page.eval_on_selector_all(f"{explorable} path", "ps => ps.map(p => p.getAttribute('d'))"))

    for slider in ("#pmc-base", "#pmc-factor", "#pmc-width"):
        before = state()
        page.focus(slider)  # keyboard: the arrow keys move a range input
        for _ in range(3):
            page.keyboard.press("ArrowRight" if slider != "#pmc-width" else "ArrowLeft")
        after = state()
        assert after[0] != before[0] and after[1] != before[1], f"{slider} changed nothing"
    page.fill("#pmc-config", json.dumps(GALLERY[next(iter(GALLERY))]["config"]))
    page.click("#model-card-decoder button")  # the sliders seed from the explained config
    assert "pairs complete a full turn" in page.inner_text(".pmc-sentence")
    _clean(log)


def test_the_explorer_starts_from_the_configs_own_base_and_trained_length(page, site):
    """Seeded from an example, the explorer draws the config's exact base (its slider moves in steps of
    0.01 in log10: Llama 3.1's 500,000 is not 10^5.70 = 501,187), and says when the config states no
    trained length, as the verdict does, instead of calling the config limit the trained length (Gemma 3,
    whose linear block states none; Llama 2, whose 4,096 is its limit)."""
    log = _open(page, site)
    for slug in ("llama-3.1-8b", "gemma-3-4b", "llama-2-7b"):
        card = explain(GALLERY[slug]["config"])
        page.select_option("#pmc-gallery", slug)
        page.click("#model-card-decoder button")
        assert page.inner_text("#pmc-base + output") == f"{card.rope[0].base:,.0f}", slug
        sentence, legend = page.inner_text(".pmc-sentence"), page.text_content(".pmc-explore-plot")
        verdict = page.inner_text("#model-card-decoder .pmc-verdict")
        limit = card.trained_length or card.max_length
        if not card.trained_stated:
            assert "no trained length" in verdict, verdict  # "is stated", or "the config states no trained length"
            assert f"the config limit of {limit:,}, as no trained length is stated" in sentence, sentence
            assert "the trained length of" not in sentence and "no trained length stated" in legend, legend
            assert f"trained {limit:,}" not in legend, legend
        else:
            assert f"the trained length of {card.trained_length:,}." in sentence, sentence
    page.focus("#pmc-base")
    page.keyboard.press("ArrowRight")  # moved by the reader: the slider's own value
    assert page.inner_text("#pmc-base + output") != f"{explain(GALLERY['gemma-3-4b']['config']).rope[0].base:,.0f}"
    _clean(log)


def _axe(page, name: str) -> list[str]:
    page.add_script_tag(path=str(browser.AXE))
    result = page.evaluate("async () => await axe.run('#model-card-decoder', { resultTypes: ['violations'] })")
    return [f"{name}: axe {v['impact']} {v['id']}: {v['help']} ({v['nodes'][0]['target']})"
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_decoder_reads_well_in_both_palettes(page, site, scheme):
    log = _open(page, site)
    page.evaluate(f"document.body.setAttribute('data-md-color-scheme', {scheme!r})")
    slug = next(s for s, e in GALLERY.items() if len(explain(e["config"]).rope) > 1) if len(GALLERY) > 1 else None
    page.fill("#pmc-config", json.dumps(GALLERY[slug]["config"]) if slug else "not json")
    page.click("#model-card-decoder button")
    if slug:
        assert page.locator(".pmc-plot path.pmc-group").count() == len(explain(GALLERY[slug]["config"]).rope)
        colours = page.eval_on_selector_all(".pmc-plot path.pmc-group", "ps => ps.map(p => getComputedStyle(p).stroke)")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert all(c not in ("none", background) for c in colours) and len(set(colours)) == len(colours), colours
    # a plotted line is a stroke: the dark palette's colour for the first series once filled it too (issue 43)
    fills = page.eval_on_selector_all(".pmc-plot path.pmc-line", "ps => ps.map(p => getComputedStyle(p).fill)")
    assert fills and set(fills) == {"none"}, f"{scheme}: lines drawn filled: {sorted(set(fills))}"
    violations = _axe(page, f"{PATH} decoder ({scheme})")
    assert not violations, "\n".join(violations)
    _clean(log)


def test_decoder_is_built_after_instant_navigation(page, site):
    log = browser.PageLog(page, site)
    # let the first page finish its own requests (the favicon): navigating away mid-request aborts it
    page.goto(site, wait_until="networkidle")
    # the home page's decoder card (its sidebar is hidden: the page is its three cards' width)
    page.locator(f"article a[href*='{PATH}']:visible").first.click()
    page.wait_for_url(lambda url: PATH in url)
    assert page.evaluate("typeof document$ !== 'undefined'"), "Material's instant navigation is not active"
    page.wait_for_function("() => document.querySelectorAll('#model-card-decoder select').length === 3")  # examples, releases, layer group
    page.wait_for_function(f"() => document.querySelectorAll('#pmc-gallery option').length === {len(GALLERY) + 1}")
    _clean(log)
