"""`make bench-pages`: what a lesson page costs a reader, measured in Chromium.

For every lesson page, as medians of BENCH_RUNS loads (default 3):
- the time from navigation start until the page is fully rendered (formulas
  typeset, diagrams drawn, figures decoded), for the real page and for
  variants without math, without diagrams, and without either (the floor:
  plain HTML and CSS), with an empty cache (cold) and with the shared assets
  cached (warm);
- the bytes a static host would send, gzip-compressed, cold and warm (counted
  at the server: a cached asset is not requested, a revalidated one costs 0).
"Warm" means the reader arrives from another page of the site (the theme,
KaTeX and mermaid are cached; the page's HTML, figures and any font or
diagram chunk it alone needs are not).
Targets (issue 3): warm ratio full/floor <= 2.0, warm bytes <= 300 KB.
A benchmark, not a test: it prints numbers and never fails on them.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import re
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import browser  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
KB = 1024

MATH_ASSETS = re.compile(r'<(?:script|link)[^>]+assets/vendor/katex/[^>]*>(?:</script>)?|<script[^>]+javascripts/math\.js[^>]*></script>')
MERMAID_ASSET = re.compile(r'<script[^>]+assets/vendor/mermaid/[^>]*></script>')
MATH_ELEMENTS = re.compile(r'<(span|div) class="arithmatex">.*?</\1>', re.S)
# a diagram drawn in the browser (pre.mermaid) or at build time (div.diagram > svg)
MERMAID_ELEMENTS = re.compile(r'<pre class="mermaid">.*?</pre>|<div class="diagram"><svg.*?</svg></div>', re.S)


def variants(html: str) -> dict[str, str]:
    no_math = MATH_ELEMENTS.sub("", MATH_ASSETS.sub("", html))
    no_mermaid = MERMAID_ELEMENTS.sub("", MERMAID_ASSET.sub("", html))
    floor = MERMAID_ELEMENTS.sub("", MERMAID_ASSET.sub("", no_math))
    return {"full": html, "no-math": no_math, "no-mermaid": no_mermaid, "floor": floor}


class Recorder:
    """Bytes the server sent, gzip-compressed as a static host would."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.sent: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self._gz: dict[str, int] = {}

    def gzip_size(self, path: str) -> int:
        if path not in self._gz:
            file = self.directory / path.lstrip("/").split("?")[0]
            if file.is_dir():
                file = file / "index.html"
            self._gz[path] = len(gzip.compress(file.read_bytes(), 6)) if file.is_file() else 0
        return self._gz[path]

    def take(self) -> list[tuple[str, int]]:
        with self.lock:
            sent, self.sent = self.sent, []
        return sent


def make_handler(recorder: Recorder):
    class Handler(browser.QuietHandler):
        def end_headers(self):
            # A static host caches shared assets; pages themselves revalidate.
            if any(part in self.path for part in ("/assets/", "/javascripts/", "/stylesheets/", "/search/")):
                self.send_header("Cache-Control", "public, max-age=86400")
            super().end_headers()

        def send_response(self, code, message=None):
            if code == 200:
                with recorder.lock:
                    recorder.sent.append((self.path, recorder.gzip_size(self.path)))
            super().send_response(code, message)

    return functools.partial(Handler, directory=str(recorder.directory))


def category(path: str) -> str:
    """Which part of the site a requested file belongs to."""
    for key, name in (("katex", "KaTeX"), ("mermaid", "mermaid"), ("math.js", "KaTeX"), ("/figures/", "figures"),
                      ("material/", "theme"), ("stylesheets", "theme"), ("search", "search")):
        if key in path:
            return name
    return "html" if path.endswith((".html", "/")) else "other"


def measure(page, url: str) -> float:
    page.goto(url, wait_until="load")
    page.evaluate(browser.WAIT_RENDERED)
    return page.evaluate("performance.now()")


def main() -> None:
    if not browser.chromium_path():
        sys.exit(browser.HOW_TO_GET_CHROMIUM)
    from playwright.sync_api import sync_playwright

    from lessons import READING_ORDER

    slugs = list(READING_ORDER)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        browser.build_site(ROOT, site)
        for slug in slugs:
            html = (site / "lessons" / slug / "index.html").read_text()
            for name, text in variants(html).items():
                (site / "lessons" / slug / f"{name}.html").write_text(text)
        recorder = Recorder(site)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(recorder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        results: dict[tuple[str, str, str], list[float]] = {}
        sent: dict[tuple[str, str], list[int]] = {}
        breakdown: dict[str, int] = {}
        with sync_playwright() as playwright:
            chromium = browser.launch(playwright)
            for slug in slugs:
                for name in ("full", "no-math", "no-mermaid", "floor"):
                    url = f"{base}lessons/{slug}/{name}.html"
                    for _ in range(RUNS):
                        context = chromium.new_context(viewport={"width": 1280, "height": 900})
                        context.add_init_script(browser.OPEN_SHADOW_ROOTS)
                        page = context.new_page()
                        recorder.take()
                        results.setdefault((slug, name, "cold"), []).append(measure(page, url))
                        cold = recorder.take()
                        context.close()
                        # warm: the reader has seen another page, so the shared
                        # assets are cached; this page's HTML and figures are not.
                        context = chromium.new_context(viewport={"width": 1280, "height": 900})
                        context.add_init_script(browser.OPEN_SHADOW_ROOTS)
                        page = context.new_page()
                        measure(page, f"{base}authoring/")
                        recorder.take()
                        results.setdefault((slug, name, "warm"), []).append(measure(page, url))
                        warm = recorder.take()
                        context.close()
                        if name == "full":
                            sent.setdefault((slug, "cold"), []).append(sum(b for _, b in cold))
                            sent.setdefault((slug, "warm"), []).append(sum(b for _, b in warm))
                            if slug == slugs[0]:
                                breakdown = {}
                                for path, size in cold:
                                    breakdown[category(path)] = breakdown.get(category(path), 0) + size
            other_pages(site, base, chromium, recorder)
            chromium.close()
        server.shutdown()

    med = {key: statistics.median(values) for key, values in results.items()}
    print(f"lesson pages in headless Chromium, median of {RUNS} loads; times in ms from navigation start")
    print(f"{'page':<20}{'cache':<6}{'full':>7}{'-math':>7}{'-mermaid':>9}{'floor':>7}{'ratio':>7}{'gzip KB':>9}")
    worst = {"cold": 0.0, "warm": 0.0}
    for slug in slugs:
        for cache in ("cold", "warm"):
            full, floor = med[(slug, "full", cache)], med[(slug, "floor", cache)]
            ratio = full / floor
            worst[cache] = max(worst[cache], ratio)
            kb = statistics.median(sent[(slug, cache)]) / KB
            print(f"{slug:<20}{cache:<6}{full:>7.0f}{med[(slug, 'no-math', cache)]:>7.0f}"
                  f"{med[(slug, 'no-mermaid', cache)]:>9.0f}{floor:>7.0f}{ratio:>7.2f}{kb:>9.1f}")
    print(f"worst ratio full/floor: cold {worst['cold']:.2f}, warm {worst['warm']:.2f} (target warm <= 2.0)")
    warm_kb = max(statistics.median(sent[(s, 'warm')]) for s in slugs) / KB
    print(f"largest warm transfer: {warm_kb:.1f} KB gzip (target <= 300 KB)")
    print(f"cold transfer of lessons/{slugs[0]}/ by part (gzip KB): "
          + ", ".join(f"{k} {v / KB:.1f}" for k, v in sorted(breakdown.items(), key=lambda kv: -kv[1])))
    for cache in ("cold", "warm"):
        math_ms = statistics.median(med[(s, "full", cache)] - med[(s, "no-math", cache)] for s in slugs)
        mermaid_ms = statistics.median(med[(s, "full", cache)] - med[(s, "no-mermaid", cache)] for s in slugs)
        print(f"{cache}: math costs a median {math_ms:.0f} ms per page, mermaid {mermaid_ms:.0f} ms")


def other_pages(site: Path, base: str, chromium, recorder) -> None:
    """Labs, the Playground and the challenge: each page's own HTML (gzip) beside a
    lesson page's, and what a load transfers cold and warm (after another notebook
    page, so the shared notebook stylesheet is cached), medians of RUNS loads."""
    import gzip

    pages = [f"labs/{p.name}/" for p in sorted((site / "labs").iterdir())] if (site / "labs").is_dir() else []
    pages += ["notebooks/playground/", "challenges/04-positional-encodings/"]
    pages = [p for p in pages if (site / p / "index.html").exists()]
    lesson_kb = statistics.median(len(gzip.compress((d / "index.html").read_bytes())) / KB
                                  for d in (site / "lessons").iterdir() if (d / "index.html").exists())
    print(f"\nnotebook and challenge pages, median of {RUNS} loads (a lesson page's HTML: median {lesson_kb:.1f} KB gzip)")
    print(f"{'page':<40}{'html KB gz':>11}{'cold KB':>9}{'warm KB':>9}{'cold ms':>9}{'warm ms':>9}")
    for path in pages:
        own = len(gzip.compress((site / path / "index.html").read_bytes())) / KB
        cold_kb, warm_kb, cold_ms, warm_ms = [], [], [], []
        for _ in range(RUNS):
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            recorder.take()
            cold_ms.append(measure(page, base + path))
            cold_kb.append(sum(b for _, b in recorder.take()) / KB)
            context.close()
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            measure(page, base + ("notebooks/playground/" if path != "notebooks/playground/" else pages[0]))
            recorder.take()
            warm_ms.append(measure(page, base + path))
            warm_kb.append(sum(b for _, b in recorder.take()) / KB)
            context.close()
        med = statistics.median
        print(f"{path:<40}{own:>11.1f}{med(cold_kb):>9.1f}{med(warm_kb):>9.1f}{med(cold_ms):>9.0f}{med(warm_ms):>9.0f}")


if __name__ == "__main__":
    main()
