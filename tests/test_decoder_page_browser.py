"""The decoder's page as a reader walks it (issue 43, item 6 and item 3's plot text), in Chromium on the
built lessons/model_card/: links chosen from the pasted config that land on ids of the built pages, the
verdict's way on to a Level 1 *How to choose*, the keyboard (a skip link, focus on the verdict after
Explain, no rerun per arrow key in a closed menu, a polite live region), the explorer starting at
served ÷ trained with the numbers modelcard.explorer computes, and plot text of at least 10 CSS px at
390 px. The report's parity with the command is tests/test_model_card_browser.py's."""

from __future__ import annotations

import re

import pytest

from lessons.model_card import explain
from lessons.tools.model_types import gallery
from modelcard.explorer import block_measures, explorer_start, method_measures
from modelcard.html import CHOOSE, CHOOSE_ANCHOR, ROPE_TYPE_TAUGHT, SCHEME_TAUGHT, TAUGHT, TRAINED_BAND, _rope_taught
from tests.browser import SVG_SMALLEST_TEXT
from tests.test_card_html import RULE_NAMES
from tests import test_model_card_browser as decoder_tests
from tests.test_model_card_browser import _clean, _open

pytestmark = pytest.mark.browser
page = decoder_tests.page  # the fixture: a 1280 × 900 page of its own

PATH = "lessons/model_card/"
GALLERY = gallery()
DECODER = "#model-card-decoder"
FLOOR = 10  # px: the smallest text a phone reader gets (issue 43, item 3)

ROW_LINKS = "() => [...document.querySelectorAll('#model-card-decoder .pmc-report th a')].map(a => [a.textContent, a.href])"
VERDICT_LINK = "() => document.querySelector('#model-card-decoder .pmc-verdict a').href"
# a report run: the report box's children replaced (counted with the old code as with the new)
COUNT_RUNS = """() => { window.pmcRuns = 0; new MutationObserver(() => window.pmcRuns++)
  .observe(document.querySelector('#model-card-decoder .pmc-report-box'), { childList: true }); }"""
# per plot: the smallest text it shows, in CSS px (tests/browser.py's measure, as for the diagrams)
PLOT_TEXT = f"""() => [...document.querySelectorAll('#model-card-decoder svg')].map(svg =>
  ({{ plot: svg.getAttribute("class"), ...({SVG_SMALLEST_TEXT})(svg) }}))"""


def _explain(page, slug: str, served: int | None = None) -> None:
    page.select_option("#pmc-gallery", slug)
    page.fill("#pmc-served", str(served or ""))
    page.click(f"{DECODER} button")
    page.wait_for_selector(f"{DECODER} .pmc-verdict")


def _ids(page, url: str) -> set[str]:
    """The ids of a built page, read from its HTML as served."""
    response = page.request.get(url.split("#")[0])
    assert response.status == 200, url
    return set(re.findall(r'\bid="([^"]+)"', response.text()))


def test_every_anchor_the_decoder_links_is_an_id_of_its_page(page, site):
    """Each section the decoder can link (a row's, by its config or its label, and the verdict's
    *How to choose*) is an id of the built lesson page: the headings' ids from the table of contents,
    how-to-choose from site_build/markdown/levels.py."""
    wanted = [*ROPE_TYPE_TAUGHT.values(), *SCHEME_TAUGHT.values(), *TAUGHT.values(), TRAINED_BAND,
              *({"slug": slug, "anchor": CHOOSE_ANCHOR} for slug in set(CHOOSE.values()))]
    missing = [f"{w['slug']}#{w['anchor']}" for w in wanted
               if w["anchor"] not in _ids(page, f"{site}lessons/{w['slug']}/")]
    assert not missing, missing


@pytest.mark.parametrize("slug", ["llama-3.1-8b", "qwen2.5-7b-yarn", "gemma-3-4b"])
def test_the_links_go_to_the_rope_types_sections(page, site, slug):
    """Llama 3.1's rows lead to Llama 3's rule, Qwen2.5's to YaRN, Gemma 3's linear global layers to
    position interpolation and its plain sliding-window layers to local and global layers: each link's id exists on
    its page, on the heading that names the rule; the verdict leads to the Level 1 *How to choose* of
    the lesson that decides it (issue 43: the rows followed the first section naming a term)."""
    log = _open(page, site)
    _explain(page, slug)
    card = explain(GALLERY[slug]["config"])
    links = dict(page.evaluate(ROW_LINKS))
    labels = ["every RoPE layer" if g.layer_type == "all" else f"{g.layer_type} ({len(g.layers)} layers)" for g in card.rope]
    target = page.context.new_page()  # each link opened as a reader would follow it
    for label, group in zip(labels, card.rope, strict=True):
        want = _rope_taught(group)
        kind = next(k for k, v in ROPE_TYPE_TAUGHT.items() if v == want)
        url = links[label]
        assert url.endswith(f"/lessons/{want['slug']}/#{want['anchor']}"), (label, url)
        target.goto(url, wait_until="load")
        heading = target.locator(f"[id='{want['anchor']}']")
        assert heading.count() == 1 and heading.evaluate("e => e.tagName") == "H2", url
        assert RULE_NAMES[kind] in heading.inner_text(), (url, heading.inner_text())
        if slug == "gemma-3-4b" and group.layer_type == "sliding_attention":  # not the RoPE lesson's layouts
            assert kind == "local", url
    verdict = page.evaluate(VERDICT_LINK)
    _clean(log)
    assert verdict.endswith(f"/lessons/{CHOOSE[card.scheme]}/#how-to-choose"), verdict
    target.goto(verdict, wait_until="load")
    choose = target.locator("[id='how-to-choose']")
    assert choose.count() == 1 and choose.inner_text().startswith("How to choose."), verdict
    # in Level 1: after its heading, before Level 2's (the order of the page's ids)
    ids = target.eval_on_selector_all("article [id]", "els => els.map(e => e.id)")
    assert ids.index("level-1-the-practitioners-guide") < ids.index("how-to-choose") < \
        ids.index("level-2-how-it-works-from-scratch"), verdict


def test_explain_moves_the_focus_to_the_verdict(page, site):
    log = _open(page, site)
    _explain(page, "llama-3.1-8b")
    assert page.evaluate("document.activeElement.classList.contains('pmc-verdict')"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    _clean(log)


def test_a_menu_redraws_the_report_and_says_its_verdict_politely(page, site):
    """A menu's change redraws the report without taking the focus, and a polite live line in the
    decoder says the new verdict (the report itself is long: read where the focus lands after Explain)."""
    log = _open(page, site)
    live = page.eval_on_selector_all(f"{DECODER} [aria-live]", "els => els.map(e => [e.className, e.getAttribute('aria-live')])")
    assert ["pmc-status", "polite"] in live, live
    _explain(page, "llama-3.1-8b")
    page.focus("#pmc-gallery")
    page.select_option("#pmc-gallery", "gpt2")
    page.wait_for_function(f"() => document.querySelector('{DECODER}').dataset.pmcPending === '0'")
    assert page.evaluate("document.activeElement.id") == "pmc-gallery"
    verdict = page.inner_text(f"{DECODER} .pmc-verdict").split("\n")[0].removeprefix("Verdict: ")
    assert page.inner_text(f"{DECODER} .pmc-status").endswith(verdict) and "GPT-2" in page.inner_text(f"{DECODER} .pmc-status")
    _clean(log)


def test_arrow_keys_in_the_closed_menu_do_not_rerun_the_report(page, site):
    """Five steps through the closed example menu: the config box follows each step, the report runs
    once, after the reader stops (it ran five times, once per key)."""
    log = _open(page, site)
    _explain(page, "llama-3.1-8b")
    page.evaluate(COUNT_RUNS)
    page.focus("#pmc-gallery")
    for _ in range(5):
        page.keyboard.press("ArrowDown")
    assert page.evaluate("window.pmcRuns") == 0, "a run per arrow key"
    page.wait_for_timeout(1500)
    assert page.evaluate("window.pmcRuns") == 1
    shown = page.eval_on_selector("#pmc-gallery", "s => s.options[s.selectedIndex].textContent")
    assert page.inner_text(f"{DECODER} .pmc-status").startswith(shown)
    _clean(log)


# the focused control's centre, and what the page shows there (the sticky header, or the control)
AT_FOCUS = """() => { const e = document.activeElement, r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
  return { id: e.id, top: r.top, hit: hit === e || e.contains(hit), what: hit ? hit.outerHTML.slice(0, 80) : null }; }"""


def test_a_skip_link_leads_to_the_decoder(page, site):
    """The second tab stop of the page (after Material's "Skip to content") skips the header and the
    navigation (44 tab stops) to the decoder's first control, and leaves it in sight: the page at the
    control's centre is the control, not the sticky header it sat under at 1280 px (WCAG 2.4.11)."""
    log = _open(page, site)
    assert page.viewport_size["width"] == 1280
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Skip to the config decoder"
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)  # any smooth scroll settles
    shown = page.evaluate(AT_FOCUS)
    assert shown["id"] == "pmc-gallery" and shown["hit"], shown
    _clean(log)


BLOCK = "this config's block"


def _measures(slug: str, served: int | None, group: int = 0) -> tuple[dict, dict]:
    """Where the explorer starts (at RoPE group number `group`), and its rows: the config's own block
    first, then each what-if."""
    card = explain(GALLERY[slug]["config"])
    start = explorer_start(card, served, group)
    at = round(start["trained"] * start["stretch"])
    rows = {BLOCK: block_measures(card, start["trained"], at, start["window"], group=group)}
    return start, rows | method_measures(start["base"], start["width"], start["trained"], start["stretch"], start["window"])


EXPLORER_ROWS = "rs => rs.map(r => [r.dataset.method, ...[...r.cells].map(c => c.textContent)])"


@pytest.mark.parametrize(("slug", "served"), [("llama-3.1-8b", None), ("llama-3.1-8b", 100000), ("qwen2.5-7b-yarn", None),
                                              ("llama-4-scout", None), ("gemma-3-4b", None)])
def test_the_explorer_starts_at_served_over_trained(page, site, slug, served):
    """The explorer starts at the stretch the report serves or the block is made for, the larger
    (Llama 3.1: 131,072 / 8,192 = 16×, not its factor 8; Qwen2.5 with YaRN at its factor 4, not 1×;
    Llama 4 Scout's 1,280× past the slider's old end); its table's first row is the config's own
    block, then a what-if per method, each saying what modelcard.explorer computes (which imports the
    lesson's trained_angle_ratio); a group that attends within chunks says so and is read within one."""
    log = _open(page, site)
    _explain(page, slug, served)
    start, measures = _measures(slug, served)
    assert page.inner_text("#pmc-factor + output") == f"{start['stretch']:,.4g}×"
    caption = page.inner_text(".pmc-measures caption")
    assert f"{round(start['trained'] * start['stretch']):,} positions" in caption
    rows = page.eval_on_selector_all(".pmc-measures tbody tr", EXPLORER_ROWS)
    rope_type = explain(GALLERY[slug]["config"]).rope[0].rope_type
    want = [[name, f"{BLOCK} ({rope_type})" if name == BLOCK else f"if you used {name}", str(m["past"]),
             f"{m['largest']:,.5g}", str(m["untouched"]), f"{m['slowest']:,.4g}×"] for name, m in measures.items()]
    assert rows == want
    if slug == "llama-3.1-8b" and served is None:  # the what-ifs differ where the old summary said 29 each
        assert len({tuple(r[2:]) for r in rows[1:]}) == len(rows) - 1, rows
        assert int(rows[[r[0] for r in rows].index("NTK-aware")][2]) > 0, rows  # NTK-aware's failure shows
    if start["window"]:  # Llama 4 Scout: its RoPE layers attend within chunks
        note = page.inner_text(".pmc-reach")
        assert f"{start['kind']} of {start['window']:,}" in caption and f"{start['kind']} of {start['window']:,} positions" in note
    for other in start["others"]:  # Gemma 3's sliding local group, not drawn, named with its window
        assert f"group ({other['rope_type']}), {other['group']}, is not drawn" in page.inner_text(".pmc-reach")
        assert not other["window"] or f"{other['kind']} of {other['window']:,}" in page.inner_text(".pmc-reach")
    _clean(log)


def test_the_layer_group_menu_restarts_the_explorer_at_the_group_chosen(page, site):
    """Gemma 3 has two RoPE groups (global layers, base 1,000,000 with a linear block; sliding local
    layers, base 10,000, within a window of 1,024): a labelled "Layer group" menu, chosen by keyboard,
    restarts the explorer at the second group's base, width and window, its own block the first row
    with the numbers modelcard.explorer computes for it; a config of one group shows no menu (issue 44
    follow-up)."""
    log = _open(page, site)
    _explain(page, "llama-3.1-8b")
    assert not page.is_visible("#pmc-group")
    _explain(page, "gemma-3-4b")
    assert page.is_visible("#pmc-group") and page.inner_text("label[for=pmc-group]") == "Layer group"
    assert page.input_value("#pmc-group") == "0"
    page.focus("#pmc-group")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("document.querySelector('#pmc-group').value === '1'")
    start, measures = _measures("gemma-3-4b", None, group=1)
    assert start["base"] != explorer_start(explain(GALLERY["gemma-3-4b"]["config"]))["base"]  # a group of its own
    base = float(f"{start['base']:.3g}")  # the slider's output: three significant digits
    assert page.inner_text("#pmc-base + output") == f"{base:,g}"
    assert page.inner_text("#pmc-width + output").startswith(f"{start['width']} ")
    rows = page.eval_on_selector_all(".pmc-measures tbody tr", EXPLORER_ROWS)
    rope_type = explain(GALLERY["gemma-3-4b"]["config"]).rope[1].rope_type
    want = [[name, f"{BLOCK} ({rope_type})" if name == BLOCK else f"if you used {name}", str(m["past"]),
             f"{m['largest']:,.5g}", str(m["untouched"]), f"{m['slowest']:,.4g}×"] for name, m in measures.items()]
    assert rows == want
    assert f"{start['kind']} of {start['window']:,}" in page.inner_text(".pmc-measures caption")
    for other in start["others"]:  # the global group, now the one not drawn
        assert f"group ({other['rope_type']}), {other['group']}, is not drawn" in page.inner_text(".pmc-reach")
    _explain(page, "gemma-3-4b")  # a new run starts at the first group again
    assert page.input_value("#pmc-group") == "0"
    _clean(log)


def test_the_explorer_announces_a_short_summary_once_the_slider_rests(page, site):
    """The explorer's long sentence is not a live region (each slider step announced ~300 characters);
    a polite status line says each row's count of pairs past the trained angles, once, after the
    slider rests; moving the base takes away the block's row (it is the config's head no more)."""
    log = _open(page, site)
    _explain(page, "llama-3.1-8b")
    assert page.get_attribute(".pmc-sentence", "aria-live") is None
    said = f"{DECODER} .pmc-said"
    assert page.get_attribute(said, "aria-live") == "polite" and page.get_attribute(said, "role") == "status"
    page.evaluate(f"""() => {{ window.pmcSaid = 0; new MutationObserver(() => window.pmcSaid++)
      .observe(document.querySelector('{said}'), {{ childList: true, characterData: true, subtree: true }}); }}""")
    page.focus("#pmc-factor")
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    assert page.evaluate("window.pmcSaid") == 0, "announced per step"
    page.wait_for_timeout(1200)
    text = page.inner_text(said)
    assert page.evaluate("window.pmcSaid") == 1 and text.startswith("12×") and len(text) <= 160, text
    assert "this config" in text and "NTK-aware" in text
    page.focus("#pmc-base")
    page.keyboard.press("ArrowRight")
    assert BLOCK not in page.eval_on_selector_all(".pmc-measures tbody tr", "rs => rs.map(r => r.dataset.method)")
    _clean(log)


@pytest.mark.parametrize("slug", ["llama-3.1-8b", "bloom-560m", "gpt2"])
def test_plot_text_is_at_least_10px_on_a_phone(chromium, site, slug):
    """At 390 px the decoder's plot (wavelengths, ALiBi's heads or a learned table's bars) and the
    explorer's keep their text at the stylesheet's size: it was 6.2 and 5.6 px, the viewBox shrunk."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    log = _open(page, site)
    _explain(page, slug)
    shown = page.evaluate(PLOT_TEXT)
    assert {s["plot"] for s in shown} == {"pmc-plot", "pmc-explore-plot"}
    small = [s for s in shown if s["smallest"] < FLOOR]
    assert not small, small
    assert all(s["width"] <= 390 for s in shown), shown  # and no plot wider than the phone
    # nor the explorer's table: its five columns fit the column, none scrolled out of sight
    assert page.eval_on_selector(".pmc-measures", "e => e.scrollWidth <= e.clientWidth"), "the explorer's table scrolls"
    _clean(log)
    context.close()
