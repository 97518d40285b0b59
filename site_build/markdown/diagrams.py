"""Draw every mermaid diagram when the site is built, not in the reader's browser.

With Chromium on the machine (it is on CI, and `make test` needs it anyway),
every ```mermaid block of the site is rendered by mermaid inside headless
Chromium and inlined as SVG. `Diagrams.fence` is pymdownx.superfences' custom
fence formatter for `mermaid` (the plugin installs it), so each diagram is
found by the Markdown parser itself. Results are kept in the build's one
content cache (project/cache.py, the store "diagrams"): only a new or changed
diagram costs a render, and the plugin renders all of a build's new diagrams in one Chromium run. A diagram
mermaid cannot parse, or a Chromium that does not finish in time, stops the
build with a one-line message naming the source file. The SVG's colours come
from Material's --md-mermaid-* variables, so it follows the light/dark toggle.

Maths in a label is TeX between `$$` (`["$$q = W_q x$$"]`): mermaid typesets it
with its KaTeX, the site's KaTeX version (package.json pins the one mermaid
bundles), as KaTeX's HTML with its MathML copy (`forceLegacyMathML`), so it is
set like the prose by the page's KaTeX CSS and fonts; Chromium measures each
label with that CSS and the fonts loaded, so the boxes fit what the reader sees.

Size: the SVG is as wide as mermaid drew it (`max-width`, in CSS px) and at
most the column (`width: 100%`): a narrow diagram is never blown up, a wide
one is scaled down, labels with it, but never below its `min_width`, the width
at which its smallest text (measured in Chromium as it is drawn: a label's
16 px, a KaTeX subscript's 13.6) renders at the phone's floor (10 px,
site_build/layout.py SCREENS). A diagram wider than that in a narrower column
scrolls sideways in its box (`.diagram`, site.css shows that it does; math.js
gives it a tab stop then, docs/javascripts/math.js and visibility/bands.py
SCROLLING). So a diagram is written narrow (top to bottom, short labels, a few
nodes a row): one at most about 600 units wide keeps its labels whole in the
688 px column at 1280 px, and one up to about 480 units wide (570 without
subscripts) shrinks to a phone's 358 px column without scrolling
(tests/test_looks_browser.py measures both).

Without Chromium (say, `make serve` on a laptop), the blocks are left for
Material to draw in the browser with the site's own mermaid (javascripts/
mermaid.mjs). The `diagrams` option (PRIMER_DIAGRAMS=browser) forces that path.
Those diagrams have no min-width: on a phone the widest show text under 10 px.
The page Chromium runs is diagrams.js.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Callable

from mkdocs.exceptions import PluginError
from pymdownx.superfences import fence_code_format

from harness.browser import CHROMIUM_ARGS, chromium_path
from site_build.layout import SCREENS
from site_build.markdown.context import PageContext, page_source
from project.cache import ContentCache, content_key
from site_build.tools import browser_profile, start_browser, stop_browser, timeout_seconds

CLIENT_SCRIPT = "javascripts/mermaid.mjs"
FONT = "Arial, Helvetica, 'Liberation Sans', sans-serif"  # metric-compatible on every OS
# Flowchart colours from Material's palette variables, so light and dark both work.
THEME_CSS = (
    ".node rect,.node circle,.node ellipse,.node polygon,.node path"
    "{fill:var(--md-mermaid-node-bg-color);stroke:var(--md-mermaid-node-fg-color)}"
    ".nodeLabel,.nodeLabel p,.label,.cluster span{color:var(--md-mermaid-label-fg-color)}"
    ".edgePath .path,.flowchart-link{stroke:var(--md-mermaid-edge-color)}"
    "marker,.marker,.arrowheadPath{fill:var(--md-mermaid-edge-color)!important;stroke:var(--md-mermaid-edge-color)!important}"
    ".edgeLabel,.edgeLabel p,.labelBkg{background-color:var(--md-mermaid-label-bg-color);color:var(--md-mermaid-edge-color)}"
    ".edgeLabel rect{fill:var(--md-mermaid-label-bg-color)}"
    ".cluster rect{fill:var(--md-default-fg-color--lightest);stroke:var(--md-default-fg-color--lighter)}"
    # Maths in a label is set inline in the label's line, though mermaid asks KaTeX for display
    # mode; and a label with maths keeps its <br/> lines (mermaid 11.17 turns them into newlines
    # inside one flex row that does not wrap).
    ".katex-display,.katex-display>.katex{display:inline-block;margin:0}"
    ".nodeLabel>div,.edgeLabel>div{display:block!important;white-space:pre-line!important}"
    # Maths in the label's colour, so it follows the palette: mermaid's own CSS paints every span
    # #333 and KaTeX's drawn parts (a root sign) black
    ".katex-display,.katex-display span{color:inherit}"
    ".node .katex path{fill:currentColor;stroke:currentColor}"
)
RENDER_SCRIPT = Path(__file__).with_name("diagrams.js").read_text(encoding="utf-8")
WRAPPER = '<div class="diagram"'  # how a diagram opens: visibility/sections.py keeps it in a section's box
_VIEWBOX = re.compile(r'viewBox="[-0-9.e]+ [-0-9.e]+ ([0-9.e]+) ')  # the first: the diagram's own <svg>
CONFIG = {"startOnLoad": False, "securityLevel": "strict", "fontFamily": FONT, "themeCSS": THEME_CSS,
          "flowchart": {"htmlLabels": True}, "forceLegacyMathML": True}


class Diagrams:
    """The diagram cache of one project, and the renderer behind it."""

    def __init__(self, root: Path, wanted: str = "auto", *, timeout: float | None = None,
                 context: Callable[[], PageContext | None] = lambda: None):
        """`wanted` is the `diagrams` option (PRIMER_DIAGRAMS): auto, build or browser;
        `context()` is the page being rendered, named in error messages."""
        self.root = root
        self.timeout = timeout_seconds() if timeout is None else timeout
        chromium = chromium_path()
        if wanted not in ("auto", "build", "browser"):
            raise PluginError(f"PRIMER_DIAGRAMS={wanted!r}: use auto, build or browser")
        self.mode = "build" if (wanted == "build" or (wanted == "auto" and chromium)) else "browser"
        if self.mode == "build" and not chromium:
            raise PluginError("PRIMER_DIAGRAMS=build needs Chromium (apt-get install -y chromium)")
        self.chromium = chromium
        # what a drawing depends on besides its text: mermaid, and KaTeX's CSS that sizes maths in labels
        self.version = [_npm_version(root, "mermaid"), _npm_version(root, "katex")]
        self.cache = ContentCache(root, "diagrams")  # content key -> SVG
        self.context = context

    def key(self, text: str) -> str:
        # the page that draws it is part of the result: it also measures the smallest text
        return content_key(self.version, CONFIG, RENDER_SCRIPT, text.strip())

    def prepare(self, sources: dict[str, str]) -> None:
        """Render, in one Chromium run, every diagram of `sources` (text -> file it
        comes from) not yet cached, and forget cached diagrams no page has any more."""
        if self.mode != "build":
            return
        self.render({text: where for text, where in sources.items()})
        keep = {self.key(text) for text in sources}
        self.cache.keep(keep)
        self.cache.save()

    def render(self, diagrams: dict[str, str]) -> None:
        """Draw the uncached ones of `diagrams` (text -> file it comes from)."""
        todo = {self.key(text): (text.strip(), where) for text, where in diagrams.items()
                if self.key(text) not in self.cache}
        if not todo:
            return
        results = self._run_chromium({f"diagram-{k[:12]}": text for k, (text, _) in todo.items()},
                                     sorted({where for _, where in todo.values()}))
        errors = []
        for k, (text, where) in todo.items():
            answer = results.get(f"diagram-{k[:12]}", {"error": "no answer from Chromium"})
            if "error" in answer:
                first = text.splitlines()[0] if text else ""
                errors.append(f"{where}: mermaid cannot draw the diagram starting {first!r}: {answer['error'].splitlines()[0]}")
            else:
                self.cache[k] = answer  # {svg, smallest}
        if errors:
            raise PluginError("\n".join(errors))
        self.cache.save()

    def fence(self, source, language, class_name, options, md, **kwargs) -> str:
        """pymdownx.superfences custom-fence formatter for ```mermaid blocks."""
        if self.mode != "build":
            return fence_code_format(source, language, class_name, options, md, **kwargs)
        k = self.key(source)
        if k not in self.cache:
            self.render({source: page_source(self.context)})
        drawn = self.cache[k]
        least = min_width(drawn["svg"], drawn["smallest"])
        style = f' style="--primer-diagram-min: {least}px"' if least else ""
        return f'{WRAPPER} role="figure" aria-label="Diagram"{style}>{drawn["svg"]}</div>'

    # -- Chromium ---------------------------------------------------------------

    def _run_chromium(self, jobs: dict[str, str], where: list[str]) -> dict[str, dict]:
        mermaid = self.root / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
        katex_css = self.root / "node_modules" / "katex" / "dist" / "katex.min.css"  # as the page has it
        for needed in (mermaid, katex_css):
            if not needed.is_file():
                raise PluginError(f"node_modules/{needed.relative_to(self.root / 'node_modules').parts[0]} "
                                  "is missing; run `npm ci` (or `make serve`)")
        settings = json.dumps({"config": CONFIG, "jobs": sorted(jobs.items())}).replace("</", "<\\/")
        page = (f'<!doctype html><meta charset="utf-8">\n<link rel="stylesheet" href="{katex_css.as_uri()}">\n'
                f'<script src="{mermaid.as_uri()}"></script>\n'
                f'<script id="jobs" type="application/json">{settings}</script>\n<pre id="out"></pre>\n'
                f"<script>\n{RENDER_SCRIPT}</script>")
        limit = self.timeout
        with browser_profile() as tmp:
            file = Path(tmp) / "render.html"
            file.write_text(page, encoding="utf-8")
            process = start_browser(
                [self.chromium, "--headless", *CHROMIUM_ARGS, f"--user-data-dir={tmp}/profile",
                 "--allow-file-access-from-files", "--virtual-time-budget=60000", "--dump-dom", file.as_uri()],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                stdout, stderr = process.communicate(timeout=limit)
            except subprocess.TimeoutExpired:
                raise PluginError(f"{', '.join(where)}: Chromium did not finish drawing the diagrams within "
                                  f"{limit:g} s; stopped it (PRIMER_TIMEOUT sets the limit)") from None
            finally:  # on a time-out (or any error) Chromium and its helpers are still running
                if process.poll() is None:
                    stop_browser(process)
        out = _element_text(stdout, "out")
        if not out.strip():
            raise PluginError(f"{', '.join(where)}: Chromium did not finish drawing the diagrams: {stderr[-300:]}")
        return json.loads(out)


def min_width(svg: str, smallest: float | None) -> int | None:
    """The narrowest a diagram may be shown, in whole CSS px: the width at which its smallest text,
    `smallest` px when drawn at its viewBox width, renders at the phone's floor (SCREENS); None for
    one without text or a viewBox."""
    view = _VIEWBOX.search(svg)
    if not (view and smallest):
        return None
    return math.ceil(float(view.group(1)) * SCREENS[-1].floor / smallest)


def _npm_version(root: Path, package: str) -> str:
    file = root / "node_modules" / package / "package.json"
    return json.loads(file.read_text())["version"] if file.is_file() else "missing"


def _element_text(document: str, element_id: str) -> str:
    """The text inside the element with `element_id` of an HTML document (parsed, entities decoded)."""

    class Reader(HTMLParser):
        depth, text = 0, []

        def handle_starttag(self, tag, attrs):
            if self.depth or dict(attrs).get("id") == element_id:
                self.depth += 1

        def handle_endtag(self, tag):
            if self.depth:
                self.depth -= 1

        def handle_data(self, data):
            if self.depth:
                self.text.append(data)

    reader = Reader(convert_charrefs=True)
    reader.text = []
    reader.feed(document)
    return "".join(reader.text)
