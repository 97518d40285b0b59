"""The section wrappers (site_build/visibility/sections.py), the height cache
(site_build/visibility/heights.py) and the switch of content-visibility (the
browser side is in test_sections_browser.py)."""

from __future__ import annotations

import json

import markdown
import pytest
from mkdocs.exceptions import PluginError

from project.cache import ContentCache
from site_build import visibility as feature
from site_build.markdown.context import PageContext
from site_build.visibility import heights as visibility
from site_build.visibility.heights import BANDS, Heights
from site_build.visibility.sections import CLASS, SectionsExtension


def boxes(wanted: bool = True) -> SectionsExtension:
    """The extension, on a page whose context says whether it gets the boxes."""
    page = PageContext("lessons/page.md", project=None, source="lessons/page.py", sections=wanted)
    return SectionsExtension(lambda: page)


def render(text: str, wanted: bool = True) -> str:
    return markdown.markdown(text, extensions=["toc", boxes(wanted)])


LONG = "# Title\n\nIntro.\n\n## One\n\nA.\n\nB.\n\n## Two\n\n### Two a\n\nC.\n\n## Three\n\nD.\n"


def test_each_section_body_is_wrapped_and_the_headings_stay_outside():
    html = render(LONG)
    assert html.count(f'class="{CLASS}"') == 3  # One, Two a, Three; "Two" has no body of its own
    assert '<p>Intro.</p>' in html.split(f'<div class="{CLASS}"')[0], "the text before the first section is left alone"
    for number in range(3):
        assert html.count(f'data-cv="{number}"') == 1
    assert '<h2 id="one">One</h2>\n<div class="primer-cv" data-cv="0">' in html
    assert '<p>A.</p>\n<p>B.</p>\n</div>' in html, "a body holds everything up to the next heading"


def test_short_pages_and_pages_not_wanted_are_left_alone():
    assert CLASS not in render("# T\n\n## One\n\nA.\n\n## Two\n\nB.\n")
    assert CLASS not in render(LONG, wanted=False)


def test_heights_go_into_the_page_once_per_body(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(render(LONG))
    measured = {"heights": {str(n): {band: 100.5 + n for band, _, _ in BANDS} for n in range(3)},
                "scroll": {"1": {"n": [0, 2], "w": [0]}}}
    visibility._write(page, measured)
    html = page.read_text()
    assert 'data-cv="0" style="--cv-n:100.5px;--cv-t:100.5px;--cv-s:100.5px;--cv-w:100.5px">' in html
    assert 'data-cv="1" style="--cv-n:101.5px;--cv-t:101.5px;--cv-s:101.5px;--cv-w:101.5px" data-scroll="n:0,2 w:0">' in html


def test_a_body_missing_from_the_page_stops_the_build_naming_it(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(render(LONG))
    with pytest.raises(PluginError, match=r"page.html: expected one section body 7, found 0"):
        visibility._write(page, {"heights": {"7": {"n": 1}}, "scroll": {}})


def test_the_cache_key_follows_content_figures_and_styles(tmp_path):
    site = tmp_path / "site"
    (site / "lessons" / "x").mkdir(parents=True)
    (site / "figures").mkdir()
    figure = site / "figures" / "a.svg"
    figure.write_text("<svg width='10'/>")
    page = site / "lessons" / "x" / "index.html"
    content = '<p>text</p><img src="../../figures/a.svg">'
    heights = Heights(tmp_path)
    key = heights.key(content, page, site, "css")
    assert key == heights.key(content, page, site, "css")
    assert key != heights.key(content + "<p>more</p>", page, site, "css")
    assert key != heights.key(content, page, site, "other css")
    figure.write_text("<svg width='20'/>")
    assert key != heights.key(content, page, site, "css"), "a changed figure changes the page's heights"
    # the same page in the offline copy (file layout): its addresses differ, its layout does not
    offline_page = site / "lessons" / "x.html"
    offline = '<p>text</p><img src="../figures/a.svg">'
    key = heights.key(content, page, site, "css")
    assert heights.key(offline, offline_page, site, "css") == key
    linked = '<p><a href="../rope/">text</a></p><img src="../../figures/a.svg">'
    assert heights.key(linked, page, site, "css") == heights.key(linked.replace("../rope/", "../rope.html"), page, site, "css")
    assert heights.key(linked, page, site, "css") != heights.key(linked.replace(">text<", ">text, longer<"), page, site, "css")


def test_cached_heights_are_used_without_a_browser(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    page = site / "index.html"
    content = render(LONG)
    page.write_text(content)
    heights = Heights(tmp_path)
    measured = {"heights": {str(n): {"n": 5, "t": 5, "s": 5, "w": 5} for n in range(3)}, "scroll": {}}
    key = heights.key(content, page, site, "css")
    heights.cache[key] = measured
    monkeypatch.setattr(Heights, "_measure", lambda *a: pytest.fail("a cached page must not be measured"))
    assert heights.apply({"index.html": content}, site, "css") == 0
    assert page.read_text().count("--cv-w:5px") == 3


def test_the_cache_keeps_the_most_recently_used_pages(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    heights = Heights(tmp_path)
    old = {"heights": {}, "scroll": {}}
    for n in range(visibility.KEEP + 5):
        heights.cache[f"page {n}"] = old
    page = site / "index.html"
    page.write_text(render(LONG))
    fresh = {"heights": {str(n): {"n": 1} for n in range(3)}, "scroll": {}}
    monkeypatch.setattr(Heights, "_measure", lambda self, todo, site_dir: {dest: fresh for dest in todo})
    assert heights.apply({"index.html": render(LONG)}, site, "css") == 1
    kept = json.loads((tmp_path / ".cache" / "content" / "heights.json").read_text())
    assert kept == ContentCache(tmp_path, "heights").entries, "the one content cache's store"
    assert len(kept) == visibility.KEEP
    assert "page 0" not in kept and f"page {visibility.KEEP + 4}" in kept, "the least recently used go first"
    assert heights.key(render(LONG), page, site, "css") in kept


def test_a_page_a_build_uses_again_counts_as_recently_used(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    heights = Heights(tmp_path)
    used, edited = render(LONG), render(LONG.replace("Intro.", "Intro, edited."))
    (site / "used.html").write_text(used)
    (site / "new.html").write_text(edited)
    measured = {"heights": {str(n): {"n": 1} for n in range(3)}, "scroll": {}}
    key = heights.key(used, site / "used.html", site, "css")
    heights.cache[key] = measured  # the least recently used entry
    for n in range(visibility.KEEP):
        heights.cache[f"page {n}"] = measured
    monkeypatch.setattr(Heights, "_measure", lambda self, todo, site_dir: {dest: measured for dest in todo})
    assert heights.apply({"used.html": used, "new.html": edited}, site, "css") == 1  # only the new page measured
    kept = ContentCache(tmp_path, "heights").entries
    assert len(kept) == visibility.KEEP and key in kept, "a cached page this build used is kept"
    assert "page 1" not in kept and "page 2" in kept


def test_under_serve_a_changed_page_keeps_its_last_heights_and_a_build_measures(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    page = site / "index.html"
    first = {"heights": {str(n): {"n": 7, "t": 7, "s": 7, "w": 7} for n in range(3)}, "scroll": {}}
    calls = []

    def measure(self, todo, site_dir):
        calls.append(list(todo))
        return {dest: first for dest in todo}

    monkeypatch.setattr(Heights, "_measure", measure)
    heights = Heights(tmp_path)
    page.write_text(render(LONG))
    assert heights.apply({"index.html": render(LONG)}, site, "css", reuse_last=True) == 1  # never seen: measured
    edited = render(LONG.replace("Intro.", "Intro, edited."))
    assert edited != render(LONG)
    page.write_text(edited)
    assert heights.apply({"index.html": edited}, site, "css", reuse_last=True) == 0  # serve: the last heights
    assert heights.reused == 1 and len(calls) == 1 and page.read_text().count("--cv-w:7px") == 3
    page.write_text(edited)
    assert heights.apply({"index.html": edited}, site, "css") == 1  # a build measures the edited page
    assert heights.reused == 0 and calls[-1] == ["index.html"]


def test_primer_cv_takes_auto_on_or_off():
    # the plugin's content_visibility option, which mkdocs.yml sets from PRIMER_CV
    assert feature.enabled("off") is False
    with pytest.raises(PluginError, match="PRIMER_CV='sometimes': use auto, on or off"):
        feature.enabled("sometimes")


@pytest.mark.browser
def test_a_measurement_that_times_out_stops_the_build_naming_the_page(tmp_path, monkeypatch, chromium):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(render(LONG))
    monkeypatch.setenv("PRIMER_TIMEOUT", "0.001")
    with pytest.raises(PluginError, match=r"index.html: Chromium did not finish measuring the section heights within"):
        Heights(tmp_path).apply({"index.html": render(LONG)}, site, "css")


def test_a_code_block_stays_outside_and_cuts_the_body():
    """Material measures every code block as the page opens; inside a skipped box
    that would make the browser lay the box out."""
    text = "# T\n\n## One\n\nA.\n\n```python\nx = 1\n```\n\nB.\n\n## Two\n\nC.\n\n## Three\n\nD.\n"
    html = markdown.markdown(text, extensions=["toc", "pymdownx.superfences", "pymdownx.highlight",
                                                boxes()])
    assert html.count(f'class="{CLASS}"') == 4  # A. | B. | C. | D.
    before_code = html.split('<div class="highlight">')[0] if '<div class="highlight">' in html else html.split("<pre")[0]
    assert before_code.rstrip().endswith("<p>A.</p>\n</div>"), "the body ends where the code block starts"
    assert "x" in html and html.index("<pre") < html.index('data-cv="1"'), "the code block sits between the two boxes"


def test_a_diagram_drawn_at_build_time_stays_in_its_box(tmp_path):
    """A diagram's height is known at build time: it stays in the section's box, with the attributes
    diagrams.py gives its wrapper (a wide one: its min-width, the width at which its 16 px text is 10 px)."""
    from site_build.markdown.diagrams import Diagrams

    diagrams = Diagrams(tmp_path, "browser")
    diagrams.mode = "build"  # drawn already: the cache holds it, so no Chromium runs
    source = "flowchart TD\n  A --> B"
    diagrams.cache[diagrams.key(source)] = {"svg": '<svg viewBox="0 0 600 90"><text>A</text></svg>', "smallest": 16.0}
    text = f"# T\n\n## One\n\nA.\n\n```mermaid\n{source}\n```\n\nB.\n\n## Two\n\nC.\n\n## Three\n\nD.\n"
    fence = {"name": "mermaid", "class": "mermaid", "format": diagrams.fence}
    html = markdown.markdown(text, extensions=["toc", "pymdownx.superfences", boxes()],
                             extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}})
    assert html.count(f'class="{CLASS}"') == 3  # A. diagram B. | C. | D.
    assert html.index('data-cv="0"') < html.index('<div class="diagram"') < html.index("<p>B.</p>") < html.index('data-cv="1"')
    assert 'style="--primer-diagram-min: 375px"' in html


def test_the_authors_own_html_stays_outside():
    """A script may fill it after load (the model-card decoder): its height is unknown at build time."""
    text = "# T\n\n## One\n\nA.\n\n<div id=\"widget\" markdown=\"0\"></div>\n\nB.\n\n## Two\n\nC.\n\n## Three\n\nD.\n"
    html = markdown.markdown(text, extensions=["toc", "md_in_html", boxes()])
    assert html.count(f'class="{CLASS}"') == 4
    assert '<p>A.</p>\n</div><div id="widget" markdown="0"></div>' in html


# --- the layout bands, written once (site_build/visibility/bands.py) ------------------


def _material_stylesheet() -> str:
    import material

    from pathlib import Path

    sheets = sorted((Path(material.__file__).parent / "templates" / "assets" / "stylesheets").glob("main.*.min.css"))
    assert len(sheets) == 1, sheets
    return sheets[0].read_text(encoding="utf-8")


def test_the_bands_are_the_breakpoints_of_the_installed_material():
    import re

    from site_build.visibility import bands

    css = _material_stylesheet()
    breakpoints = {float(m) for m in re.findall(r"@media screen and \(min-width:([\d.]+)em\)", css)}
    starts = {band.min_em for band in bands.BANDS if band.min_em}
    assert starts <= breakpoints, f"bands start at {sorted(starts)}; Material's breakpoints are {sorted(breakpoints)}"
    for min_em, factor in bands.TYPE_SCALE:  # the theme's larger type, against its 125% base
        size = re.search(rf"@media screen and \(min-width:{min_em:g}em\)\{{html\{{font-size:([\d.]+)%", css)
        assert size and float(size.group(1)) / 125 == pytest.approx(factor, abs=0.001), (min_em, size)


def test_the_bands_reach_the_css_the_script_and_the_measurement_from_one_table():
    from site_build import layout
    from site_build.visibility.bands import BANDS as THE_BANDS

    from lessons._palette import css_variables

    css, script = layout.stylesheet(css_variables()), layout.files()[layout.SCRIPT].decode()
    assert [(name, width) for name, width, _ in BANDS] == [(b.name, b.width) for b in THE_BANDS]
    for band in THE_BANDS:
        assert f"var(--cv-{band.name})" in css
        if band.min_em:
            assert f"@media screen and (min-width: {band.min_em:g}em)" in css
            assert f'"(min-width: {band.min_em:g}em)"' in script
    # each band's query selects exactly its own widths: no gap, no overlap
    assert [q for _, _, q in BANDS] == ["(max-width: 44.984375em)", "(min-width: 45em) and (max-width: 59.984375em)",
                                        "(min-width: 60em) and (max-width: 76.234375em)", "(min-width: 76.25em)"]
    assert "--primer-red: " in css, "the palette reaches the stylesheet"
    bands = json.loads(script.split("window.primerBands = ", 1)[1].split("\n", 1)[0].rstrip(";"))
    assert [name for name, _ in bands] == [b.name for b in reversed(THE_BANDS)]
