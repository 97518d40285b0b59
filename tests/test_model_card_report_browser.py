"""The model-card report as a reader sees it, in Chromium at a desktop's and a phone's
width: in the decoder (lessons/model_card/) and on the gallery page, the verdict
comes first, the warnings are admonitions above the tables, each with a link that
leads to a lesson page (at the root, under /primer/ and in the offline copy), and
nothing in a report is wider than its box unless that box is a marked scroller
(a table wrapper that scrolls sideways and has a tab stop). The static reports say
what the CLI prints (the equivalence of tests/test_card_html.py)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from lessons.model_card import explain
from modelcard.report import report, report_sections
from lessons.tools.model_types import gallery
from tests import browser
from tests.test_card_html import lines_from_html

pytestmark = pytest.mark.browser

PATH = "lessons/model_card/"
GALLERY_PATH = "reference/model-card-gallery/"  # every gallery config's report, one collapsible entry each
OPEN_ALL = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"
GALLERY = gallery()
SIZES = {1280: 800, 390: 844}
# (gallery config, length to serve): Llama 2 past its limit (two warnings, the longest commands),
# Llama 4 Scout as published (a warning, a scaled RoPE group; Llama 3.1 as published has no warning)
SHOWN = [("llama-2-7b", 16384), ("llama-4-scout", None)]

# What a report looks like: its parts in order, and every element wider than its own box.
LAYOUT = """
(report) => {
  const parts = [...report.children].map(el => el.matches(".pmc-verdict") ? "verdict" :
    el.querySelector(".admonition.warning") ? "warnings" : el.querySelector("table") ? "table" : "other");
  const wide = [report, ...report.querySelectorAll("*")].filter(el => el.scrollWidth > el.clientWidth + 1).map(el => {
    const style = getComputedStyle(el);
    return { what: el.tagName + "." + [...el.classList].join("."), text: el.textContent.slice(0, 60),
             marked: el.matches(".pmc-scroll") && ["auto", "scroll"].includes(style.overflowX) && el.tabIndex === 0,
             inMarked: !!(el.parentElement && el.parentElement.closest(".pmc-scroll[tabindex='0']")) };
  });
  const column = report.closest(".md-typeset").getBoundingClientRect(), box = report.getBoundingClientRect();
  const warnings = [...report.querySelectorAll(".admonition")].map(a => ({
    classes: [...a.classList], title: a.querySelector(".admonition-title") && a.querySelector(".admonition-title").textContent,
    links: [...a.querySelectorAll("a[href]")].map(l => ({ text: l.textContent, href: l.getAttribute("href"), url: l.href })) }));
  return { parts, wide, warnings, inside: box.left >= column.left - 1 && box.right <= column.right + 1,
           verdict: report.firstElementChild.textContent };
}
"""


def _open(page, base: str, path: str = PATH):
    page.goto(base + path, wait_until="load")
    page.wait_for_function("() => window.PrimerModelCard && document.querySelector('#model-card-decoder select')")
    page.wait_for_function(f"() => document.querySelectorAll('#pmc-gallery option').length === {len(GALLERY) + 1}")


def _decode(page, slug: str, served: int | None) -> dict:
    page.select_option("#pmc-gallery", slug)
    page.fill("#pmc-served", str(served or ""))
    page.click("#model-card-decoder button")
    page.wait_for_selector("#model-card-decoder .pmc-report")
    return page.eval_on_selector("#model-card-decoder .pmc-report", LAYOUT)


def _check(layout: dict, where: str) -> list[str]:
    problems = []
    parts = layout["parts"]
    if parts[0] != "verdict" or not layout["verdict"].startswith("Verdict:"):
        problems.append(f"{where}: the report does not open with its verdict: {parts}")
    if "warnings" in parts and "table" in parts and parts.index("warnings") > parts.index("table"):
        problems.append(f"{where}: the warnings come after a table: {parts}")
    for warning in layout["warnings"]:
        if warning["classes"][:2] != ["admonition", "warning"] or not warning["title"] or len(warning["links"]) != 1:
            problems.append(f"{where}: a warning is not an admonition with a title and one link: {warning}")
    problems += [f"{where}: {el['what']} is wider than its box and does not scroll visibly: {el['text']!r}"
                 for el in layout["wide"] if not el["marked"]]
    if not layout["inside"]:
        problems.append(f"{where}: the report is wider than the column")
    return problems


@pytest.mark.parametrize("width", SIZES)
def test_decoder_report_reads_top_down_and_fits(chromium, site, width):
    context = chromium.new_context(viewport={"width": width, "height": SIZES[width]})
    page = context.new_page()
    log = browser.PageLog(page, site)
    _open(page, site)
    problems, links = [], {}
    for slug, served in SHOWN:
        layout = _decode(page, slug, served)
        assert layout["warnings"], f"{slug}: the decoder shows no warning"
        problems += _check(layout, f"decoder, {slug} at {width} px")
        links.update({link["url"]: link["text"] for w in layout["warnings"] for link in w["links"]})
    # the gallery page's reports, each drawn with its entry open
    page.goto(site + GALLERY_PATH, wait_until="load")
    page.evaluate(OPEN_ALL)
    static = page.locator(".pmc-static .pmc-report")
    assert static.count() == len(GALLERY)
    for i in range(static.count()):
        static.nth(i).scroll_into_view_if_needed()
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        layout = static.nth(i).evaluate(LAYOUT)
        problems += _check(layout, f"gallery report {static.nth(i).get_attribute('data-slug')} at {width} px")
        links.update({link["url"]: link["text"] for w in layout["warnings"] for link in w["links"]})
    assert not problems, "\n".join(problems[:20])
    for url, text in links.items():  # each link leads to the lesson page it names
        page.goto(url, wait_until="load")
        assert page.inner_text("article h1").startswith(text), (url, text)
    assert not log.failures and not log.offsite() and not log.console, log.failures + log.offsite() + log.console
    context.close()


def test_gallery_reports_on_the_page_say_what_the_cli_prints(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(site + GALLERY_PATH, wait_until="load")
    shown = page.eval_on_selector_all(".pmc-static .pmc-report", "rs => rs.map(r => [r.dataset.slug, r.outerHTML])")
    assert sorted(slug for slug, _ in shown) == sorted(GALLERY)
    for slug, html in shown:
        card = explain(GALLERY[slug]["config"])
        structure = report_sections(card, None, GALLERY[slug]["repo"])
        assert lines_from_html(html, structure) == report(card, None, GALLERY[slug]["repo"]).splitlines(), slug
    context.close()


@pytest.mark.parametrize("where", ["subpath", "offline"])
def test_decoder_warning_links_lead_to_pages_under_a_subpath_and_offline(chromium, request, where):
    """The decoder writes its links in the browser: relative to its own page, under /primer/ and
    in the offline copy (lessons/model_card.html, sibling files) too."""
    base = request.getfixturevalue("subpath_site" if where == "subpath" else "offline_copy")
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    _open(page, base, PATH if where == "subpath" else "lessons/model_card.html")
    layout = _decode(page, *SHOWN[0])
    urls = [link["url"] for w in layout["warnings"] for link in w["links"]]
    assert urls and all(not link["href"].startswith(("/", "http", "file")) for w in layout["warnings"]
                        for link in w["links"]), layout["warnings"]
    for url in urls:
        if where == "offline":
            assert Path(unquote(urlsplit(url).path)).is_file(), url
        else:
            assert page.request.get(url).status == 200, url
            assert url.startswith(base), url
    context.close()


def test_a_table_too_wide_for_its_column_scrolls_and_gets_a_tab_stop(chromium, site):
    """Squeezed to 160 px (narrower than any phone), the report's tables cannot fit: each wrapper
    that then scrolls gets a tab stop (model_card.js, on resize), and what is too wide is inside one."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    _open(page, site)
    _decode(page, *SHOWN[0])
    page.eval_on_selector("#model-card-decoder .pmc-report", "r => { r.style.width = '160px'; }")
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")
    layout = page.eval_on_selector("#model-card-decoder .pmc-report", LAYOUT)
    assert [el for el in layout["wide"] if el["marked"]], "some table scrolls at 160 px"
    assert not [el for el in layout["wide"] if not (el["marked"] or el["inMarked"])], layout["wide"]
    context.close()
