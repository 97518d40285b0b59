"""The heights of the section boxes (sections.py), measured after the build.

After the build, `Heights.apply` opens every page with boxes in headless
Chromium (heights.js), in iframes of one width per layout band of the theme
(bands.py), with the containment `content-visibility` imposes, and measures
each body. The heights go into the page as custom properties
(`style="--cv-n:…px;…"`) that stylesheets/layout.css turns into
`contain-intrinsic-height` for the band in effect. A body with no measured
heights gets no content-visibility at all (that is what happens with
PRIMER_CV=off or without Chromium). Also recorded, as `data-scroll`: the
display formulas and tables of a section that scroll sideways in a band, so
docs/javascripts/math.js can give them a tab stop without laying out a skipped
section to find out.

Results are kept in the build's content-addressed cache (project/cache.py, the
store `heights`) under the key of what decides them (the page's content, the
figures it shows, the stylesheets, the bands), so only a new or changed page
costs a measurement, and every changed page of a build is measured in one
Chromium run; the store keeps the KEEP most recently used pages. A page
Chromium cannot measure in time stops the build with a message naming the page.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

from mkdocs.exceptions import PluginError

from harness.browser import CHROMIUM_ARGS, chromium_path
from harness.server import StaticHandler, serve
from project.cache import ContentCache, content_key
from site_build.tools import browser_profile, start_browser, stop_browser, timeout_seconds, write_if_changed
from site_build.visibility.bands import CLASS, SCROLLING, media
from site_build.visibility.bands import BANDS as LAYOUT_BANDS

# The theme's layout bands (bands.py): (letter, the width each is measured at, its media query)
BANDS = [(band.name, band.width, media(band)) for band in LAYOUT_BANDS]
HARNESS = "/__primer_measure__.html"
HARNESS_SCRIPT = (Path(__file__).with_name("heights.js")).read_text(encoding="utf-8")
# Every box drawn, with the containment content-visibility gives it: how the build
# measures a box, and how the browser tests draw them all.
DRAW_EVERY_BOX = f".{CLASS} {{ content-visibility: visible !important; contain: layout style paint !important; }}"
KEEP = 200  # pages' heights kept in the cache
_ADDRESS = re.compile(r'\b(href|src)="[^"]*"')  # an address inside the content: no part of its layout
VERSION = 8  # bump when the measurement itself changes


def _marker(number: str) -> str:
    return f'class="{CLASS}" data-cv="{number}"'


class _Figures(HTMLParser):
    """The `src` of every image of an HTML fragment."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.sources: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img" and dict(attrs).get("src"):
            self.sources.append(dict(attrs)["src"])


class Heights:
    """The height cache of one project, and the Chromium run that fills it."""

    def __init__(self, root: Path, timeout: float | None = None):
        self.root = root
        self.timeout = timeout_seconds() if timeout is None else timeout
        self.cache = ContentCache(root, "heights")  # content key -> the page's measured heights
        self.last: dict[str, dict] = {}  # page file -> the heights last written into it (this session)
        self.reused = 0  # pages the last apply() gave their previous heights instead of measuring

    def key(self, content: str, page_file: Path, site_dir: Path, styles: str) -> str:
        """What decides a page's heights: its content, its figures' bytes, the site's stylesheets, the bands.
        Not where its links and figures point: the site, its /primer/ build and the offline copy
        (file URLs) lay a page out alike, so they share one measurement."""
        layout = _ADDRESS.sub(r'\1=""', content)
        figures = _Figures()
        figures.feed(content)
        base = page_file.parent.as_uri() + "/"
        shown = [Path(unquote(urlparse(urljoin(base, src)).path)) for src in figures.sources]
        return content_key(VERSION, BANDS, styles, layout,
                           *(target.read_bytes() for target in shown if target.is_file() and site_dir in target.parents))

    def apply(self, pages: dict[str, str], site_dir: Path, styles: str, reuse_last: bool = False) -> int:
        """Write measured heights into the built `pages` (page file under `site_dir` -> its
        content HTML), measuring the ones not cached. Returns how many were measured.

        reuse_last (under `mkdocs serve`): a page whose content changed but that this session
        already wrote gets its previous heights instead of a Chromium run, so a save reloads in
        about the time the page takes to render; its boxes may be a few pixels off until the next
        `make build` or `make site`, which always measure. `self.reused` counts those pages.

        The cache keeps the KEEP most recently used pages, so the site, its offline
        copy and a sub-path build (whose pages differ) do not evict each other."""
        keys = {dest: self.key(content, site_dir / dest, site_dir, styles) for dest, content in pages.items()}
        missing = sorted(dest for dest, key in keys.items() if key not in self.cache)
        stale = [dest for dest in missing if reuse_last and dest in self.last]
        todo = [dest for dest in missing if dest not in stale]
        if todo:
            measured = self._measure(todo, site_dir)
            for dest in todo:
                self.cache[keys[dest]] = measured[dest]
        for key in keys.values():  # most recently used last
            self.cache.touch(key)
        if todo:
            self.cache.save(limit=KEEP)
        for dest, key in keys.items():
            heights = self.last[dest] if dest in stale else self.cache[key]
            _write(site_dir / dest, heights)
            self.last[dest] = heights
        self.reused = len(stale)
        return len(todo)

    def _measure(self, pages: list[str], site_dir: Path) -> dict[str, dict]:
        """Open each page in Chromium at every band's width; one Chromium run for all."""
        chromium = chromium_path()
        limit = self.timeout
        jobs = [{"page": dest, "url": "/" + dest, "bands": [[band, width] for band, width, _ in BANDS],
                 "limit": max(limit / len(pages), 10)} for dest in pages]
        answer: dict = {}
        done = threading.Event()

        class Handler(StaticHandler):
            def do_GET(self):  # noqa: N802 - http.server's API
                if self.path == HARNESS:
                    body = _harness(jobs).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    super().do_GET()

            def do_POST(self):  # noqa: N802
                answer.update(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(204)
                self.end_headers()
                done.set()

        where = ", ".join(pages)
        with serve(site_dir, Handler) as base, browser_profile() as tmp:
            process = start_browser(
                [chromium, "--headless", *CHROMIUM_ARGS, f"--user-data-dir={tmp}/profile", "--hide-scrollbars",
                 base.rstrip("/") + HARNESS], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                finished = done.wait(limit)
            finally:
                stderr = stop_browser(process)[1]
        if not finished:
            raise PluginError(f"{where}: Chromium did not finish measuring the section heights within {limit:g} s; "
                              f"stopped it (PRIMER_TIMEOUT sets the limit). {stderr.strip()[-200:]}")
        if len(answer.get("results", [])) != len(jobs):
            raise PluginError(f"{where}: Chromium measured {len(answer.get('results', []))} of {len(jobs)} pages")
        results: dict[str, dict] = {dest: {"heights": {}, "scroll": {}} for dest in pages}
        for job, result in zip(jobs, answer["results"], strict=True):
            if "error" in result:
                raise PluginError(f"{job['page']}: Chromium could not measure the page: {result['error']}")
            page = results[job["page"]]
            for width in result:
                for number, height in width["heights"].items():
                    page["heights"].setdefault(number, {})[width["band"]] = height
                for number, formulas in width["scroll"].items():
                    page["scroll"].setdefault(number, {})[width["band"]] = formulas
        return results


def _write(page_file: Path, measured: dict) -> None:
    """Put the heights (and the sideways-scrolling formulas) on each section body of a built page."""
    text = page_file.read_text(encoding="utf-8")
    for number, heights in measured["heights"].items():
        marker = _marker(number)
        if text.count(marker) != 1:
            raise PluginError(f"{page_file}: expected one section body {number}, found {text.count(marker)}")
        style = ";".join(f"--cv-{band}:{heights[band]}px" for band, _, _ in BANDS if band in heights)
        scroll = measured["scroll"].get(number, {})
        wide = " ".join(f"{band}:{','.join(map(str, formulas))}" for band, formulas in sorted(scroll.items()))
        extra = f' data-scroll="{wide}"' if wide else ""
        text = text.replace(marker, f'{marker} style="{style}"{extra}')
    write_if_changed(page_file, text.encode("utf-8"))


def _harness(jobs: list[dict]) -> str:
    """The page Chromium runs (heights.js): load each page once in an iframe, measure it at
    every band's width (resizing the iframe), and post the results back."""
    settings = json.dumps({"jobs": jobs, "drawEveryBox": DRAW_EVERY_BOX, "sectionClass": CLASS,
                           "scrolling": SCROLLING}).replace("</", "<\\/")
    return (f'<!doctype html><meta charset="utf-8"><body>\n<script>const PRIMER = {settings};</script>\n'
            f"<script>\n{HARNESS_SCRIPT}</script>")
