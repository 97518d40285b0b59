"""The in-browser model-card decoder (modelcard/web/model_card.js) on the
built lessons/model_card/ page, against the Python it ports: every gallery
config and a few hundred generated ones (tests/model_card_cases.py) give the
same card, the same report (text, sections and HTML) and the same errors; then the page itself:
pasting a config, the plot, the sliders, the dark palette, accessibility,
nothing fetched from another host and no console error."""

from __future__ import annotations

import json
import math
import warnings

import pytest

from lessons.model_card import compare_methods, explain
from modelcard.html import page_titles, render_html
from modelcard.report import card_json, report, report_sections
from modelcard.known_bugs import release_menu
from lessons.tools.model_types import ConfigError, gallery
from tests import browser
from tests.model_card_cases import EDGE_CASES, generated_configs
from tests.test_card_html import lines_from_html

pytestmark = pytest.mark.browser

PATH = "lessons/model_card/"
GALLERY = gallery()
NOT_OBJECTS = [[1, 2], "config", 3, None]  # explain refuses them: a config is a JSON object
LINKS = {slug: f"../{slug}/" for slug in page_titles()}  # a lesson's page, from the decoder's
CONFIGS = [entry["config"] for entry in GALLERY.values()] + generated_configs(300, seed=0) + EDGE_CASES + NOT_OBJECTS
# the served reports name an engine release in turn (its known bugs join them), now and then none or a wrong spec
ENGINE_SPECS = [spec for spec, _ in release_menu()] + [None, "vllm=0.33.0"]

# Runs in the page: every case through PrimerModelCard, results or errors as data.
RUN_CASES = """
([cases, links]) => {
  const M = window.PrimerModelCard;
  const run = (f) => {
    try { return { ok: f() }; }
    catch (e) { return { error: e instanceof M.ConfigError ? "ConfigError" : (e.pyType || "JS " + e.name), message: e.message }; }
  };
  return cases.map(([text, served, engine]) => {
    const config = M.parse(text);
    return { json: run(() => M.explain(config)), report: run(() => M.report(config, null)),
             sections: run(() => M.sections(config, null)),
             served: served === null ? null : run(() => M.report(config, served, "org/model", engine)),
             served_json: served === null ? null : run(() => M.explain(config, served, "org/model", engine)),
             served_html: served === null ? null : run(() => M.html(config, served, "org/model", links, engine)) };
  });
}
"""


@pytest.fixture
def page(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def _python(f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {"ok": f()}
    except Exception as exc:  # the JS must raise the same class of error with the same message
        return {"error": "ConfigError" if isinstance(exc, ConfigError) else type(exc).__name__, "message": str(exc)}


def _differences(want, got, where: str) -> list[str]:
    """Where `got` differs from `want`: same structure and key order, numbers to 1e-9 relative."""
    if isinstance(want, bool) or isinstance(got, bool) or want is None or got is None or isinstance(want, str):
        return [] if want == got and type(want) is type(got) else [f"{where}: {want!r} != {got!r}"]
    if isinstance(want, (int, float)):
        ok = isinstance(got, (int, float)) and (want == got or math.isclose(want, got, rel_tol=1e-9)
                                               or (math.isnan(want) and math.isnan(got)))
        return [] if ok else [f"{where}: {want!r} != {got!r}"]
    if isinstance(want, list):
        if not isinstance(got, list) or len(want) != len(got):
            return [f"{where}: {len(want)} items != {got!r:.200}"]
        return [d for i, (a, b) in enumerate(zip(want, got, strict=True)) for d in _differences(a, b, f"{where}[{i}]")]
    if not isinstance(got, dict) or list(want) != list(got):
        return [f"{where}: keys {list(want)} != {list(got) if isinstance(got, dict) else got!r}"]
    return [d for key in want for d in _differences(want[key], got[key], f"{where}.{key}")]


def _served(config) -> int | None:
    """A length to serve beyond the config's own, for the second report (None: no length to start from)."""
    card = _python(lambda: explain(config))
    return card["ok"].max_length * 2 + 3 if "ok" in card and card["ok"].max_length else None


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


def test_javascript_decoder_agrees_with_python_on_every_config(page, site):
    log = _open(page, site)
    served = [_served(c) for c in CONFIGS]
    engines = [ENGINE_SPECS[i % len(ENGINE_SPECS)] for i in range(len(CONFIGS))]
    got = page.evaluate(RUN_CASES, [[[json.dumps(c), s, e] for c, s, e in zip(CONFIGS, served, engines, strict=True)],
                                    LINKS])
    problems, compared = [], {"json": 0, "report": 0, "errors": 0}
    for i, (config, length, result, spec) in enumerate(zip(CONFIGS, served, got, engines, strict=True)):
        name = f"config {i} {json.dumps(config)[:160]}"
        want = {"json": _python(lambda c=config: card_json(explain(c))),
                "report": _python(lambda c=config: report(explain(c))),
                "sections": _python(lambda c=config: report_sections(explain(c)))}
        if length is not None:
            want["served"] = _python(lambda c=config, n=length, e=spec: report(explain(c), n, "org/model", e))
            want["served_json"] = _python(lambda c=config, n=length, e=spec: card_json(explain(c), n, "org/model", e))
            want["served_html"] = _python(lambda c=config, n=length, e=spec: render_html(
                report_sections(explain(c), n, "org/model", e), LINKS.get))
        for key, expected in want.items():
            actual = result[key]
            if "error" in expected:
                compared["errors"] += 1
                if actual != expected:
                    problems.append(f"{name}: {key}: Python raised {expected}, JS gave {str(actual)[:300]}")
            elif "ok" not in actual:
                problems.append(f"{name}: {key}: JS raised {actual}")
            elif key in ("json", "served_json", "sections"):
                compared["json"] += 1
                problems += [f"{name}: {d}" for d in _differences(expected["ok"], actual["ok"], "card")[:5]]
            else:
                compared["report"] += 1
                if actual["ok"] != expected["ok"]:
                    problems.append(f"{name}: {key} differs:\n--- Python\n{expected['ok']}\n--- JS\n{actual['ok']}")
    assert not problems, f"{len(problems)} differences, e.g.:\n" + "\n".join(problems[:10])
    assert len(got) == len(CONFIGS) >= 300 + len(GALLERY)
    assert compared["json"] > 300 and compared["report"] > 150 and compared["errors"] > 50, compared
    _clean(log)


def test_compare_methods_agrees_with_python(page, site):
    _open(page, site)
    cases = []
    for entry in GALLERY.values():
        card = explain(entry["config"])
        for group in card.rope:
            for length, stretch in ((card.trained_length or 4096, 4.0), (4096, 1.0), (8192, 2.5), (2048, 64.0)):
                spec = {"base": group.base, "rotary_dim": group.rotary_dim, "rope_type": group.rope_type,
                        "head_dim": group.head_dim}
                want = {k: list(map(float, v)) for k, v in compare_methods(group, length, stretch).items()}
                cases.append((spec, length, stretch, want))
    got = page.evaluate("(cases) => cases.map(([g, L, s]) => window.PrimerModelCard.compareMethods(g, L, s))", cases)
    problems = [d for (spec, length, stretch, want), result in zip(cases, got, strict=True)
                for d in _differences(want, result, f"{spec} L={length} s={stretch}")]
    assert cases and not problems, "\n".join(problems[:10])


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
        assert not _differences(card_json(explain(config)), json.loads(page.text_content(".pmc-json pre")), slug)
        assert page.inner_text(".pmc-error").strip() == ""
    # a length to serve, and an example picked from the list
    slug = next(iter(GALLERY))
    page.select_option("#pmc-gallery", slug)
    page.fill("#pmc-served", "100000")
    page.click("#model-card-decoder button")
    card = explain(GALLERY[slug]["config"])
    assert lines_from_html(page.inner_html(".pmc-report-box"), report_sections(card, 100000, GALLERY[slug]["repo"])) \
        == report(card, 100000, GALLERY[slug]["repo"]).splitlines()
    assert not _differences(card_json(explain(GALLERY[slug]["config"]), 100000, GALLERY[slug]["repo"]),
                            json.loads(page.text_content(".pmc-json pre")), slug)
    # an engine release from the menu: its known bugs join the report, and the JSON gains known_bugs
    menu = page.eval_on_selector_all("#pmc-engine option", "os => os.map(o => o.value)")
    assert menu == [""] + [spec for spec, _ in release_menu()]
    qwen = next(s for s in GALLERY if GALLERY[s]["config"].get("model_type") == "qwen2" and
                "rope_scaling" in GALLERY[s]["config"])
    page.select_option("#pmc-gallery", qwen)
    page.fill("#pmc-served", "")
    for spec in menu[1:]:
        page.select_option("#pmc-engine", spec)  # redraws the report at once
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
    trained length instead of calling the window the trained length (Gemma 3)."""
    log = _open(page, site)
    for slug in ("llama-3.1-8b", "gemma-3-4b"):
        card = explain(GALLERY[slug]["config"])
        page.select_option("#pmc-gallery", slug)
        page.click("#model-card-decoder button")
        assert page.inner_text("#pmc-base + output") == f"{card.rope[0].base:,.0f}", slug
        sentence, legend = page.inner_text(".pmc-sentence"), page.text_content(".pmc-explore-plot")
        if card.trained_length is None:
            assert "trained length is not stated" in sentence and "trained length not stated" in legend, sentence
            assert f"trained {card.max_length:,}" not in legend, legend
        else:
            assert f"the trained length of {card.trained_length:,} positions" in sentence, sentence
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
    page.wait_for_function("() => document.querySelectorAll('#model-card-decoder select').length === 2")  # examples, releases
    page.wait_for_function(f"() => document.querySelectorAll('#pmc-gallery option').length === {len(GALLERY) + 1}")
    _clean(log)
