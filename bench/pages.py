"""Page-load benchmark: what a reader's browser pays for each page, and how
that compares with the same page as plain HTML. Run by `make bench-pages`.

What is loaded. Every lesson page (`lessons/<slug>/`, in
`lessons.READING_ORDER`), every lab (`labs/<name>/`), the challenge page(s)
(`challenges/...`) and every paper companion (`papers/<name>/`), found by
listing a freshly built site (or the copy of `BENCH_SITE`). `BENCH_PAGES`
limits the list (comma separated lesson slugs or site paths, e.g.
`rope,notation,papers/su2021_roformer`).

The four variants of each page (full, no-math, no-mermaid, floor) are cut by
`bench/variants.py` (its docstring says how), written beside the page and served
from the same folder so every relative link resolves the same way.

Cold and warm. A cold load opens the page in a fresh browser context (an empty
cache, as for a first visit). A warm load opens, in another fresh context, a
different lesson page that has math first (`lessons/attention/`, or
`lessons/notation/` when attention itself is measured; the same priming page
for every variant of a page), waits until it is rendered and the network is
quiet (so the theme, KaTeX's stylesheet, the KaTeX fonts that page uses and,
if a page load fetches it, the search index are cached), then goes to the
measured page with `page.goto`, as a reader who arrives from another lesson.
Only the measured navigation is timed and counted. The local server sends
`Cache-Control: public, max-age=86400` for `/assets/`, `/javascripts/`,
`/stylesheets/` and `/search/` as a static host would; pages and figures are
not marked cacheable.

Interleaved. Each of `BENCH_RUNS` rounds (default 5) goes through every page,
and for each page through the four variants in turn, a cold then a warm load
of each. Noise on a shared machine (another process, a CPU frequency change)
then falls on all variants of a page alike instead of on whichever variant
happened to run during it, and a per-round ratio full/floor compares two loads
made seconds apart. One unrecorded cold and warm load comes first so that
Chromium's own start-up is not in round 1.

What is measured for each load (times in ms from the navigation's start,
`performance.now()` in the page):
- rendered: the load event has fired, every formula and diagram is in place
  (`harness.browser.WAIT_RENDERED`), every `<img>` is decoded,
  `document.fonts.ready` has resolved, and two animation frames have passed
  after that, so the frame with the final layout has been produced. This is
  taken inside the page, with no round trip to this script in it;
- FCP: first contentful paint, the first frame with any text or image;
- LCP: largest contentful paint, the paint of the largest text block or image
  (the last candidate, read after rendered);
- DOM elements: `document.getElementsByTagName("*").length` at rendered;
- style and layout: milliseconds Chromium spent recalculating styles and
  laying out during this navigation (DevTools protocol `Performance.getMetrics`:
  `RecalcStyleDuration`, `LayoutDuration`, also `ScriptDuration` in the JSON;
  the session is enabled just before the measured navigation and the value
  before it is subtracted). The JSON also keeps CDP's `Nodes`, which counts
  every live DOM node of the renderer, text nodes and the priming page's
  not-yet-collected nodes included, so it is not the page's size;
- bytes: what the server sent, each file counted gzip-compressed as a static
  host would send it, for the full variant only (a cached file is not
  requested, so it costs nothing warm), with the cold bytes split into html,
  theme (Material's and the site's own CSS/JS, the notebook stylesheet),
  KaTeX, mermaid, figures, search index (`search/search_index.json`, counted
  when the page fetches it during the load) and other.

The report gives, per page, the median and min-max over rounds of rendered
for full and floor, cold and warm; the ratio full/floor both as the median of
the per-round ratios ("per-round") and as the ratio of the two medians
("of medians"); FCP, LCP and style/layout medians for full and floor; DOM
elements; cold and warm KB. `BENCH_JSON=path` also writes every sample and
median. `BENCH_SITE=/path/to/site` measures an existing build (copied to a
temporary folder first, since variants are written beside its pages);
otherwise the site is built fresh with the current environment (so
`PRIMER_CV=off make bench-pages` measures a build without content-visibility).

Cost: 12 navigations per page per round (4 cold, 4 warm each after its
priming page). On a busy 2-core machine that took about 18 s per page per
round, so all 20 pages x 5 rounds take about half an hour there; a quiet
machine is faster. BENCH_PAGES and BENCH_RUNS shorten it.

The explorables (bench/explorables.py, its docstring says how): each one's gzip size against its
budget, its redraw times (Performance API measures while its controls are moved by keyboard) and
the cold transfer of its lesson page, after the pages; `BENCH_EXPLORABLES=only` measures just them,
`off` skips them.

A benchmark, not a test: it prints numbers and never fails on them (it stops
only when it cannot measure honestly: a variant check fails, or no Chromium).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.server import PARTS, Recorder, category, make_handler  # noqa: E402
from bench.variants import VARIANTS, facts_of, variants  # noqa: E402
from harness import browser  # noqa: E402
from harness.server import serve  # noqa: E402
from site_build.build import mkdocs_build  # noqa: E402

KB = 1024
CACHES = ("cold", "warm")
VIEWPORT = {"width": 1280, "height": 900}
# Lesson pages with math used to prime a warm load, in order of preference.
PRIMERS = ("lessons/attention/", "lessons/notation/")
TARGET_WARM_RATIO, STRETCH_WARM_RATIO, TARGET_COLD_KB = 1.3, 1.2, 250


# Runs in every document before its own scripts: records LCP candidates from the
# start and, once the page is rendered (see the module docstring), the time.
SHORT = {"search index": "search"}   # in the per-page line, to stay within 120 columns

INIT_SCRIPT = """
(() => {
  if (window.top !== window) return;
  const waitRendered = %s;
  const lcp = [];
  let observer = null;
  try {
    observer = new PerformanceObserver(list => lcp.push(...list.getEntries()));
    observer.observe({ type: "largest-contentful-paint", buffered: true });
  } catch (e) {}
  const frame = () => new Promise(resolve => requestAnimationFrame(() => resolve()));
  window.__bench = {
    lcp: () => {
      if (observer) lcp.push(...observer.takeRecords());
      return lcp.length ? lcp[lcp.length - 1].startTime : null;
    },
    rendered: new Promise(resolve => addEventListener("load", async () => {
      const complete = await waitRendered();
      await document.fonts.ready;
      await frame();
      await frame();
      resolve({ at: performance.now(), complete, elements: document.getElementsByTagName("*").length });
    }, { once: true })),
  };
})();
""" % browser.WAIT_RENDERED.strip()

READ_RESULT = """
async () => {
  const r = await window.__bench.rendered;
  await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return { rendered: r.at, complete: r.complete, elements: r.elements,
           fcp: fcp ? fcp.startTime : null, lcp: window.__bench.lcp() };
}
"""

CDP_METRICS = ("RecalcStyleDuration", "LayoutDuration", "ScriptDuration", "Nodes")


def cdp_metrics(session) -> dict[str, float]:
    """The DevTools Performance metrics this benchmark reads."""
    values = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
    return {name: values.get(name, 0.0) for name in CDP_METRICS}


def load(chromium, recorder: Recorder, url: str, prime: str | None, count_bytes: bool) -> dict:
    """One load of `url` in a fresh context: cold, or warm after rendering `prime`
    there first. Returns the sample (times in ms; bytes only when counted)."""
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        context.add_init_script(browser.OPEN_SHADOW_ROOTS)
        context.add_init_script(INIT_SCRIPT)
        page = context.new_page()
        page.set_default_timeout(60_000)
        if prime:
            page.goto(prime, wait_until="load")
            page.evaluate("async () => { await window.__bench.rendered; }")
            recorder.wait_idle()          # the search index and fonts are in the cache, not on the way
        # A fresh session counts from zero; Chromium may also restart the count
        # when the new document commits. Either way "after - before" (or "after",
        # if the count restarted below "before") is this navigation's.
        session = context.new_cdp_session(page)
        session.send("Performance.enable")
        before = cdp_metrics(session)
        recorder.take()
        page.goto(url, wait_until="load")
        result = page.evaluate(READ_RESULT)
        after = cdp_metrics(session)
        for name, key in (("RecalcStyleDuration", "style"), ("LayoutDuration", "layout"),
                          ("ScriptDuration", "script")):
            delta = after[name] - before[name] if after[name] >= before[name] else after[name]
            result[key] = delta * 1000
        result["nodes"] = after["Nodes"]
        if count_bytes:
            recorder.wait_idle()          # late requests (the search index) belong to this load
            sent = recorder.take()
            result["bytes"] = sum(size for _, size in sent)
            parts = Counter()
            for path, size in sent:
                parts[category(path)] += size
            result["parts"] = dict(parts)
        return result
    finally:
        context.close()


# --- pages, site, report ---------------------------------------------------------------------------


def site_pages(site: Path) -> list[str]:
    """Every lesson, lab, challenge and paper page of the built site, as site paths
    (a section's own index page, if it has one, is not one of them)."""
    from lessons import READING_ORDER

    pages = [f"lessons/{slug}/" for slug in READING_ORDER if (site / "lessons" / slug / "index.html").is_file()]
    for section in ("labs", "challenges", "papers"):
        if (site / section).is_dir():
            pages += sorted(f"{p.parent.relative_to(site).as_posix()}/" for p in (site / section).rglob("index.html")
                            if p.parent != site / section)
    return pages


def chosen_pages(site: Path) -> list[str]:
    """The pages to measure: all of them, or those named in BENCH_PAGES."""
    from lessons import READING_ORDER

    available = site_pages(site)
    wanted = [w.strip() for w in os.environ.get("BENCH_PAGES", "").split(",") if w.strip()]
    if not wanted:
        return available
    pages = []
    for name in wanted:
        path = f"lessons/{name}/" if name in READING_ORDER else name.strip("/") + "/"
        if not (site / path / "index.html").is_file():
            sys.exit(f"BENCH_PAGES: no page {path} in the site; pages are: {', '.join(available)}")
        pages.append(path)
    return pages


def primer_for(site: Path, page: str) -> str:
    """The lesson page with math that primes the cache for a warm load of `page`."""
    from lessons import READING_ORDER

    candidates = list(PRIMERS) + [f"lessons/{s}/" for s in READING_ORDER]
    for candidate in candidates:
        file = site / candidate / "index.html"
        if candidate != page and file.is_file() and facts_of(file.read_text(encoding="utf-8")).arithmatex:
            return candidate
    sys.exit("no lesson page with math to prime the cache with")


def median(values):
    """Median of the values that are not None (None if there are none)."""
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarise(samples: list[dict], pages: list[str]) -> dict:
    """Medians (and min, max) per page, variant and cache; per-round ratios full/floor."""
    by = {}
    for s in samples:
        by.setdefault((s["page"], s["variant"], s["cache"]), []).append(s)
    out = {}
    for page in pages:
        entry = {}
        for variant in VARIANTS:
            for cache in CACHES:
                rows = by.get((page, variant, cache), [])
                stats = {key: median(r.get(key) for r in rows)
                         for key in ("rendered", "fcp", "lcp", "elements", "style", "layout", "script", "nodes")}
                stats["rendered_min"] = min((r["rendered"] for r in rows), default=None)
                stats["rendered_max"] = max((r["rendered"] for r in rows), default=None)
                if variant == "full":
                    stats["kb"] = median(r["bytes"] / KB for r in rows if "bytes" in r)
                    if cache == "cold":
                        stats["parts_kb"] = {part: median(r["parts"].get(part, 0) / KB for r in rows)
                                             for part in PARTS}
                entry[f"{variant}/{cache}"] = stats
        for cache in CACHES:
            full = {r["round"]: r["rendered"] for r in by.get((page, "full", cache), [])}
            floor = {r["round"]: r["rendered"] for r in by.get((page, "floor", cache), [])}
            per_round = [full[k] / floor[k] for k in full if k in floor and floor[k]]
            meds = entry[f"full/{cache}"]["rendered"], entry[f"floor/{cache}"]["rendered"]
            entry[f"ratio/{cache}"] = {
                "per_round": per_round,
                "median_of_per_round": median(per_round),
                "of_medians": meds[0] / meds[1] if None not in meds and meds[1] else None,
            }
        out[page] = entry
    return out


def fmt(value, spec: str = ".0f", width: int = 0) -> str:
    """A number, or "-" when there is none, right-aligned in `width`."""
    return f"{'-' if value is None else format(value, spec):>{width}}"


def report(summary: dict, pages: list[str], search_kb: float) -> list[str]:
    """The printed table and summary lines (at most 120 columns)."""
    lines = [
        f"{'':<8}{'rendered ms: median (min-max)':^36}{'full/floor':^18}{'FCP ms':^12}{'LCP ms':^12}"
        f"{'style ms':^12}{'layout ms':^12}",
        f"{'  load':<8}{'full':>18}{'floor':>18}{'per-round':>10}{'of-meds':>8}"
        + f"{'full':>6}{'floor':>6}" * 4,
    ]
    for page in pages:
        s = summary[page]
        lines.append(page)
        for cache in CACHES:
            full, floor, ratio = s[f"full/{cache}"], s[f"floor/{cache}"], s[f"ratio/{cache}"]
            spread = [f"{fmt(v['rendered'])} ({fmt(v['rendered_min'])}-{fmt(v['rendered_max'])})"
                      for v in (full, floor)]
            row = f"  {cache:<6}{spread[0]:>18}{spread[1]:>18}"
            row += fmt(ratio["median_of_per_round"], ".2f", 10) + fmt(ratio["of_medians"], ".2f", 8)
            for key in ("fcp", "lcp", "style", "layout"):
                row += fmt(full[key], ".0f", 6) + fmt(floor[key], ".0f", 6)
            lines.append(row)
        cold = s["full/cold"]
        lines.append(
            f"  DOM elements {fmt(cold['elements'])} full, {fmt(s['floor/cold']['elements'])} floor;"
            f" rendered ms cold/warm: no-math {fmt(s['no-math/cold']['rendered'])}/"
            f"{fmt(s['no-math/warm']['rendered'])}, no-mermaid {fmt(s['no-mermaid/cold']['rendered'])}/"
            f"{fmt(s['no-mermaid/warm']['rendered'])}")
        parts = ", ".join(f"{SHORT.get(part, part)} {kb:.3g}" for part, kb in (cold.get("parts_kb") or {}).items()
                          if kb)
        lines += textwrap.wrap(f"gzip KB: cold {fmt(cold['kb'], '.1f')} ({parts}), warm {fmt(s['full/warm']['kb'], '.1f')}",
                               120, initial_indent="  ", subsequent_indent="    ")
    lessons = [p for p in pages if p.startswith("lessons/")]
    lines.append("")
    if lessons:
        lines.append(f"worst warm full/floor over lesson pages (target <= {TARGET_WARM_RATIO}, "
                     f"stretch {STRETCH_WARM_RATIO}):")
        for key, label in (("median_of_per_round", "median of per-round ratios"),
                           ("of_medians", "ratio of medians")):
            worst = max(lessons, key=lambda p: summary[p]["ratio/warm"][key] or 0)
            lines.append(f"  {label + ':':<28}{fmt(summary[worst]['ratio/warm'][key], '.2f')}  {worst}")
        heaviest = max(lessons, key=lambda p: summary[p]["full/cold"]["kb"] or 0)
        lines.append(f"largest cold transfer over lesson pages (target < {TARGET_COLD_KB} KB gzip): "
                     f"{fmt(summary[heaviest]['full/cold']['kb'], '.1f')} KB  {heaviest}")
    fetched = sum(1 for p in pages if (summary[p]["full/cold"].get("parts_kb") or {}).get("search index"))
    lines.append(f"search index (search/search_index.json): {search_kb:.1f} KB gzip; fetched in the cold load of"
                 f" {fetched} of {len(pages)} page(s)")
    return lines


def prepare_site(tmp: Path) -> tuple[Path, str]:
    """The site to measure, in `tmp`: a fresh build, or a copy of BENCH_SITE."""
    site = tmp / "site"
    given = os.environ.get("BENCH_SITE")
    if given:
        if not (Path(given) / "index.html").is_file():
            sys.exit(f"BENCH_SITE={given} is not a built site (no index.html)")
        shutil.copytree(given, site)
        return site, f"a copy of {given}"
    mkdocs_build(ROOT, site)
    return site, "built fresh" + (f" with PRIMER_CV={os.environ['PRIMER_CV']}" if "PRIMER_CV" in os.environ else "")


def main() -> None:
    """Build or copy the site, write the variants, load every page, print and save the numbers."""
    if not browser.chromium_path():
        sys.exit(browser.HOW_TO_GET_CHROMIUM)
    from playwright.sync_api import sync_playwright

    runs = int(os.environ.get("BENCH_RUNS", "5"))
    if runs < 1:
        sys.exit("BENCH_RUNS must be at least 1")
    from bench import explorables as bench_explorables

    which, names = bench_explorables.mode()
    if which == "only":
        return bench_explorables.main_only(runs, names)
    started = time.monotonic()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        site, origin = prepare_site(Path(tmp))
        pages = chosen_pages(site)
        primers = {page: primer_for(site, page) for page in pages}
        counts = {}
        for page in pages:
            text = (site / page / "index.html").read_text(encoding="utf-8")
            try:
                texts = variants(text)
            except ValueError as error:
                sys.exit(f"{page}: a variant failed its check: {error}")
            for name, variant in texts.items():
                (site / page / f"{name}.html").write_text(variant, encoding="utf-8")
            full = facts_of(text)
            counts[page] = {"formulas": full.arithmatex, "diagrams": full.diagrams, "primer_cv": full.primer_cv}
        search_kb = len(gzip.compress((site / "search" / "search_index.json").read_bytes(), 6)) / KB \
            if (site / "search" / "search_index.json").is_file() else 0.0
        recorder = Recorder(site)
        recorder.precompute()
        samples: list[dict] = []
        usual = Counter(primers.values()).most_common(1)[0][0]
        primed = usual + "".join(f", {primers[p]} for {p}" for p in pages if primers[p] != usual)
        print(textwrap.fill(f"site {origin}; {len(pages)} page(s) x {len(VARIANTS)} variants x cold+warm,"
                            f" {runs} round(s); warm loads primed on {primed}", 120), flush=True)
        with serve(site, make_handler(recorder)) as base, sync_playwright() as playwright:
            chromium = browser.launch(playwright)
            version = chromium.version
            first = pages[0]
            for prime in (None, base + primers[first]):    # warm-up, not recorded
                load(chromium, recorder, base + first + "full.html", prime, count_bytes=False)
            for round_ in range(runs):
                for page in pages:
                    for variant in VARIANTS:
                        for cache in CACHES:
                            prime = base + primers[page] if cache == "warm" else None
                            sample = load(chromium, recorder, f"{base}{page}{variant}.html", prime,
                                          count_bytes=variant == "full")
                            sample.update(page=page, variant=variant, cache=cache, round=round_)
                            samples.append(sample)
                print(f"  round {round_ + 1}/{runs} done ({time.monotonic() - started:.0f} s)", flush=True)
            measured = bench_explorables.measure(chromium, recorder, base, runs) if which == "on" else None
            chromium.close()

    summary = summarise(samples, pages)
    elapsed = time.monotonic() - started
    incomplete = sorted({f"{s['page']}{s['variant']}" for s in samples if not s["complete"]})
    print()
    print(textwrap.fill(
        f"Chromium {version}, viewport {VIEWPORT['width']}x{VIEWPORT['height']}; {runs} round(s), interleaved; "
        f"load average {load_before[0]:.1f} at start, {os.getloadavg()[0]:.1f} at end; {elapsed:.0f} s in all. "
        "Times in ms from navigation start, medians over rounds; full = the page as built, floor = no math, "
        "no diagrams, no content-visibility; per-round = median of the per-round ratios full/floor, "
        "of-meds = median full / median floor; gzip KB for the full page.", 120))
    print()
    for line in report(summary, pages, search_kb):
        print(line)
    if measured:
        print()
        for line in bench_explorables.report(measured):
            print(line)
    if incomplete:
        print(textwrap.fill(f"warning: not fully rendered within 10 s in some loads: {', '.join(incomplete)}", 120))
    out = os.environ.get("BENCH_JSON")
    if out:
        data = {
            "meta": {"runs": runs, "chromium": version, "site": origin, "viewport": VIEWPORT,
                     "primers": primers, "page_contents": counts, "seconds": elapsed,
                     "loadavg_start": load_before, "loadavg_end": os.getloadavg(),
                     "primer_cv_env": os.environ.get("PRIMER_CV"), "search_index_kb_gzip": search_kb,
                     "units": "times in ms from navigation start; style/layout/script ms during the measured "
                              "navigation; bytes gzip-compressed (full variant only); nodes = CDP Nodes"},
            "samples": samples,
            "medians": summary,
            "explorables": measured,
        }
        Path(out).write_text(json.dumps(data, indent=1))
        print(f"raw samples and medians written to {out}")


if __name__ == "__main__":
    main()
