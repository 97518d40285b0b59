"""The page benchmark's variants (bench/variants.py, bench/server.py, bench/pages.py): the HTML rewriter
removes whole elements and keeps every other byte; and the explorables' part (bench/explorables.py):
its statistics, verdicts, keys and table. Fast, no browser, no timing."""

from __future__ import annotations

import pytest

from bench import explorables as bench_explorables, pages as bench_pages, server as bench_server, variants as cut
from explorables import Explorable

FORMULA = ('<span class="arithmatex"><span class="katex"><span class="katex-mathml"><math><mi>x</mi></math></span>'
           '<span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:1em;">'
           '</span><span class="mord mathnormal">x</span></span></span></span></span>')
DISPLAY = ('<div class="arithmatex"><span class="katex-display"><span class="katex"><span class="katex-html">'
           '<span class="base"><span class="mord">y</span><br><svg viewBox="0 0 10 10"><path d="M0 0"/></svg>'
           '</span></span></span></span></div>')
DIAGRAM = ('<div class="diagram"><svg id="diagram-1" aria-roledescription="flowchart-v2"><style>#d{fill:red}</style>'
           '<g><foreignObject><div><span class="nodeLabel"><p>A</p></span></div></foreignObject></g>'
           # a label with maths: KaTeX inside the diagram (a root sign drawn as its own <svg>), part of the diagram
           '<g><foreignObject><div><span class="nodeLabel"><div>B <span class="katex-display"><span class="katex">'
           '<span class="katex-html"><span class="mord">x</span><svg viewBox="0 0 10 10"><path d="M0 0"/></svg>'
           '</span></span></span></div></span></div></foreignObject></g></svg></div>')

PAGE = f"""<!doctype html>
<html><head>
<meta charset="utf-8">
<link rel="stylesheet" href="../../assets/vendor/katex/katex.min.css">
<link rel="stylesheet" href="../../stylesheets/site.css">
</head><body>
<div class="md-content">
<p>Before {FORMULA} between <span class="keep">kept <span>nested</span></span> after.</p>
{DISPLAY}
<img alt="a figure" src="../../figures/f.svg">
{DIAGRAM}
<pre class="mermaid"><code>flowchart LR; A --> B</code></pre>
<div class="primer-cv wide" style="contain-intrinsic-size: auto 500px" id="s1"><p>Section body.</p></div>
</div>
<script>const s = "</span></div><span class=\\"arithmatex\\">";</script>
<script src="../../javascripts/math.js"></script>
<script src="../../javascripts/mermaid.mjs" type="module"></script>
</body></html>
"""


@pytest.fixture(scope="module")
def variants():
    return cut.variants(PAGE)


def test_full_is_the_page_unchanged(variants):
    assert variants["full"] == PAGE


def test_no_math_removes_each_formula_whole_and_keeps_the_text_around_it(variants):
    page = variants["no-math"]
    assert "<p>Before  between <span class=\"keep\">kept <span>nested</span></span> after.</p>" in page
    facts = cut.facts_of(page)
    assert (facts.katex, facts.arithmatex, facts.math_assets) == (0, 0, 0)
    assert 'href="../../stylesheets/site.css"' in page
    assert "javascripts/math.js" not in page
    assert DIAGRAM in page and "mermaid.mjs" in page   # diagrams untouched


def test_the_rest_of_the_page_is_byte_identical(variants):
    # removing the cut pieces from the original gives exactly the variant
    expected = PAGE
    for piece in (FORMULA, DISPLAY, '<link rel="stylesheet" href="../../assets/vendor/katex/katex.min.css">',
                  '<script src="../../javascripts/math.js"></script>'):
        expected = expected.replace(piece, "", 1)
    assert variants["no-math"] == expected


def test_no_mermaid_removes_diagrams_and_the_script(variants):
    page = variants["no-mermaid"]
    facts = cut.facts_of(page)
    assert (facts.diagrams, facts.diagram_svgs, facts.mermaid_assets) == (0, 0, 0)
    assert FORMULA in page and DISPLAY in page
    assert '<img alt="a figure" src="../../figures/f.svg">' in page


def test_floor_removes_both_and_content_visibility_but_keeps_the_wrapper(variants):
    page = variants["floor"]
    facts = cut.facts_of(page)
    assert (facts.katex, facts.arithmatex, facts.diagrams, facts.primer_cv) == (0, 0, 0, 0)
    assert '<div class="wide" id="s1"><p>Section body.</p></div>' in page
    assert "contain-intrinsic-size" not in page


def test_script_contents_are_untouched(variants):
    # a "</span>" or "arithmatex" inside a script is text, not markup
    for page in variants.values():
        assert '<script>const s = "</span></div><span class=\\"arithmatex\\">";</script>' in page


def test_nested_end_tags_and_void_elements_keep_the_balance(variants):
    full = cut.facts_of(PAGE)
    assert (full.stray_end_tags, full.unclosed) == (0, 0)
    for name, page in variants.items():
        facts = cut.facts_of(page)
        assert facts.balance == full.balance, name
        assert (facts.stray_end_tags, facts.unclosed) == (0, 0), name


def test_element_counts_drop_by_what_was_removed():
    full = cut.facts_of(PAGE)
    text, removed = cut.rewrite(PAGE, cut.is_math)
    # inline formula: 9 elements (span x7, math, mi); display: 9 (div, span x5, br, svg, path)
    assert removed == 9 + 9
    assert cut.facts_of(text).elements == full.elements - removed


def test_an_element_closed_by_its_parent_is_cut_up_to_the_parent_end_tag():
    text, removed = cut.rewrite('<div><p>a <span class="arithmatex"><b>x</b> tail</div><p>next</p>',
                                  cut.is_math)
    assert text == "<div><p>a </div><p>next</p>"
    assert removed == 2


def test_a_broken_variant_is_reported():
    full = cut.facts_of(PAGE)
    broken = cut.facts_of(PAGE.replace(FORMULA, FORMULA[:-7]))   # one </span> short
    problems = cut.variant_problems("no-mermaid", full, broken, 0)
    assert any("balance" in p for p in problems)


def test_parts_of_a_load():
    expected = {
        "/lessons/rope/full.html": "html",
        "/assets/vendor/katex/fonts/KaTeX_Main-Regular.woff2": "KaTeX",
        "/javascripts/math.js": "KaTeX",
        "/search/search_index.json": "search index",
        "/assets/javascripts/workers/search.f8cc74c7.min.js": "theme",
        "/figures/rope.pairing.svg": "figures",
        "/javascripts/mermaid.mjs": "mermaid",
        "/stylesheets/site.css": "theme",
        "/assets/images/favicon.png": "theme",
        "/assets/notebook-0123abcd.css": "theme",
        "/javascripts/model_card_loader.js": "other",
        "/javascripts/explorables/core.js": "explorables",
        "/javascripts/explorables/rope_turning.js?v=1": "explorables",
        "/assets/explorables/tiny_model.js": "explorables",
        "/javascripts/explorables.js": "other",       # the loader, on every page: not an explorable's own file
        "/sitemap.xml": "other",
    }
    assert {path: bench_server.category(path) for path in expected} == expected


def test_the_report_fits_in_120_columns():
    pages = ["lessons/context_extension/", "challenges/04-positional-encodings/", "papers/chen2023_interpolation/"]
    parts = {part: 123456 for part in bench_server.PARTS}
    samples = [
        {"page": page, "variant": variant, "cache": cache, "round": r, "rendered": 12345.6 + r, "complete": True,
         "elements": 123456, "fcp": 12345.0, "lcp": 12345.0, "style": 12345.0, "layout": 12345.0, "script": 1.0,
         "nodes": 1, **({"bytes": 1234567, "parts": parts} if variant == "full" else {})}
        for r in range(3) for page in pages for variant in cut.VARIANTS for cache in bench_pages.CACHES
    ]
    summary = bench_pages.summarise(samples, pages)
    assert summary[pages[0]]["ratio/warm"]["median_of_per_round"] == pytest.approx(1.0)
    lines = bench_pages.report(summary, pages, 230.1)
    assert max(len(line) for line in lines) <= 120, max(lines, key=len)


# --- the explorables' part (bench/explorables.py) ---------------------------------------------------


def test_redraw_statistics_follow_their_definitions():
    durations = [7.0, 1.0, 3.0, 10.0, 2.0, 9.0, 4.0, 8.0, 5.0, 6.0]     # 1..10, shuffled
    stats = bench_explorables.redraw_stats(durations)
    # median of 1..10: (5 + 6) / 2; p90, inclusive: rank 0.9 * (10 - 1) = 8.1 -> 9 + 0.1 * (10 - 9)
    assert stats == pytest.approx({"n": 10, "median": 5.5, "p90": 9.1, "max": 10.0, "ratio": 5.5 / 50})
    assert bench_explorables.redraw_stats([3.0]) == {"n": 1, "median": 3.0, "p90": 3.0, "max": 3.0,
                                                      "ratio": 3.0 / 50}
    assert bench_explorables.redraw_stats([])["median"] is None


def test_the_verdict_names_each_budget_broken():
    e = Explorable("x", "rope", budget_kb=40, extra_budget_kb=400)
    fine = {"mounted": 40 * 1024, "extra": 400 * 1024}
    fast = bench_explorables.redraw_stats([1.0] * 9 + [49.0])
    assert bench_explorables.problems(e, fine, fast) == []
    # a median far under budget does not hide a slow p90
    slow = bench_explorables.redraw_stats([1.0] * 5 + [60.0] * 5)
    assert slow["median"] < 50
    big = {"mounted": 40 * 1024 + 1, "extra": 400 * 1024 + 1}
    found = bench_explorables.problems(e, big, slow)
    assert [p.split()[0] for p in found] == ["mounted", "on", "redraw"], found
    assert bench_explorables.problems(e, fine, bench_explorables.redraw_stats([])) == ["no redraw measured"]


def test_each_control_is_moved_and_moved_back():
    assert bench_explorables.key_sequence("range", 3) == ["ArrowRight"] * 3 + ["ArrowLeft"] * 3
    assert bench_explorables.key_sequence("select", 3) == ["ArrowDown", "ArrowUp"]
    # at its end a control moves the other way first (else the first half of the keys does nothing)
    assert bench_explorables.key_sequence("range", 2, at_end=True) == ["ArrowLeft"] * 2 + ["ArrowRight"] * 2
    assert bench_explorables.key_sequence("select", 3, at_end=True) == ["ArrowUp", "ArrowDown"]
    for kind, (forth, back) in bench_explorables.KEYS.items():     # a checkbox's Space twice toggles it back
        keys = bench_explorables.key_sequence(kind, 2)
        assert keys == [forth] * (len(keys) // 2) + [back] * (len(keys) // 2), kind


def test_bench_explorables_chooses_what_runs(monkeypatch):
    for value, expected in (("", ("on", [])), ("only", ("only", [])), ("off", ("off", [])),
                            ("rope_turning", ("only", ["rope_turning"]))):
        monkeypatch.setenv("BENCH_EXPLORABLES", value)
        assert bench_explorables.mode() == expected
    monkeypatch.setenv("BENCH_EXPLORABLES", "no_such_explorable")
    with pytest.raises(SystemExit, match="no_such_explorable"):
        bench_explorables.mode()


def test_the_explorables_table_fits_and_says_each_verdict():
    slow = bench_explorables.redraw_stats([123.4] * 1000)
    fast = bench_explorables.redraw_stats([0.1] * 10)
    row = {"lesson": "context_extension", "budget_kb": 40, "extra_budget_kb": 400, "mounted_bytes": 999_999,
           "extra_bytes": 9_999_999, "controls": {}, "note": "", "to_frame": slow}
    measured = {"explorables": {
        "every_pair_under_every": {**row, "redraw": slow, "problems": ["mounted 976.6 KB > 40 KB"]},
        "rope_turning": {**row, "lesson": "rope", "mounted_bytes": 6000, "extra_bytes": 0, "redraw": fast,
                         "to_frame": fast, "problems": [], "ends": bench_explorables.redraw_stats([4.0, 31.25])}},
        "cold": {"context_extension": {"kb": 251.0, "explorables_kb": 12.5},
                 "rope": {"kb": 186.2, "explorables_kb": 0.0}}}
    lines = bench_explorables.report(measured)
    assert max(len(line) for line in lines) <= 120, max(lines, key=len)
    rows = {line.split()[0]: line for line in lines if line.split() and line.split()[0] in measured["explorables"]}
    assert rows["rope_turning"].endswith("yes") and rows["every_pair_under_every"].endswith("no")
    assert "(40)" in rows["rope_turning"] and "0.002" in rows["rope_turning"]     # median / 50 ms
    assert any("mounted 976.6 KB > 40 KB" in line for line in lines)
    # the sliders' ends, where the heaviest setting may lie, printed for the one that measured them
    assert [line.split(":", 1)[1] for line in lines if "at its ends" in line] == [" median 17.62, max 31.2 ms of 2"]
    cold = {line.split()[0]: line for line in lines if line.startswith("  lessons/")}
    assert cold["lessons/context_extension/"].endswith("OVER target")
    assert cold["lessons/rope/"].endswith("within target")
