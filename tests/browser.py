"""What the browser tests share beyond harness/ (Chromium, the static server, the page scripts that
bench/ uses too): building a site, the facts read from a page, and checking one page the way a
reader's browser shows it (requests, rendering, axe-core)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

from harness.browser import LOAD_EVERY_IMAGE, WAIT_RENDERED
from site_build.visibility.heights import DRAW_EVERY_BOX

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# Everything a reader can see as text, without code, TeX sources or KaTeX's MathML copy.
VISIBLE_PROSE = """
() => {
  const body = document.querySelector(".md-content").cloneNode(true);
  body.querySelectorAll("pre, code, .katex-mathml, script, style").forEach(el => el.remove());
  return body.textContent;
}
"""

PAGE_FACTS = """
() => {
  const math = [...document.querySelectorAll(".md-content .arithmatex")];
  // a diagram is drawn at build time (div.diagram > svg) or by Material in a shadow root (.mermaid)
  const diagrams = [...document.querySelectorAll(".md-content .mermaid, .md-content .diagram")];
  const svgOf = el => el.classList.contains("diagram") ? el.querySelector("svg") : el.shadowRoot && el.shadowRoot.querySelector("svg");
  const images = [...document.querySelectorAll(".md-content img")];
  return {
    math: math.length,
    mathUntypeset: math.filter(el => !el.querySelector(".katex")).map(el => el.textContent.slice(0, 60)),
    mathErrors: [...document.querySelectorAll(".md-content .katex-error")].map(el => el.getAttribute("title") || el.textContent),
    diagrams: diagrams.length,
    diagramsUndrawn: diagrams.filter(el => {
      const svg = svgOf(el);
      return !svg || svg.querySelectorAll("g").length === 0;
    }).length,
    diagramsInBrowser: document.querySelectorAll(".md-content .mermaid").length,
    diagramErrors: diagrams.filter(el => /Syntax error/i.test((svgOf(el) || el).textContent)).length,
    images: images.map(img => ({ src: img.getAttribute("src"), alt: img.alt, width: img.naturalWidth })),
  };
}
"""


# The smallest text an SVG shows, as the reader sees it: for every element that holds visible text
# (not KaTeX's zero-width spaces, its hidden MathML copy, nor the SVG's <style>, <title> or <desc>),
# its font size times the scale the SVG is drawn at (its rendered size over its viewBox).
# {smallest: CSS px, text: that text, width: the SVG's rendered width}. Diagrams and the decoder's plots.
SVG_SMALLEST_TEXT = r"""
svg => {
  const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
  const scale = view && view.width ? Math.min(box.width / view.width, box.height / view.height) : 1;
  let smallest = Infinity, text = "";
  const walker = document.createTreeWalker(svg, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // KaTeX's zero-width spaces (1 px, in .vlist-s) show nothing
    if (!node.textContent.replace(/[\s\u200b-\u200d\ufeff]/g, "") || el.closest("style, title, desc, .katex-mathml") ||
        !el.checkVisibility()) continue;
    const size = parseFloat(getComputedStyle(el).fontSize) * scale;
    if (size < smallest) [smallest, text] = [size, node.textContent.trim()];
  }
  return { smallest, text, width: box.width };
}
"""
# Each diagram's smallest text as the reader sees it, and its maths: for every element of its SVG
# that holds visible text (a label's words, KaTeX's base size and its subscripts; not KaTeX's
# hidden MathML copy, nor the SVG's own <style>), the font size in SVG units times the scale
# the SVG is drawn at (its rendered size over its viewBox). Drawn at build time (div.diagram > svg)
# or in the browser by Material (.mermaid, in a shadow root that OPEN_SHADOW_ROOTS opened).
DIAGRAM_TEXT = r"""
() => [...document.querySelectorAll(".md-content .diagram, .md-content .mermaid")].map(host => {
  const svg = host.classList.contains("diagram") ? host.querySelector("svg") : host.shadowRoot && host.shadowRoot.querySelector("svg");
  if (!svg) return null;
  const view = svg.viewBox.baseVal;
  const { smallest, text: smallestText, width } = (""" + SVG_SMALLEST_TEXT + r""")(svg);
  return {
    smallest, smallestText, width, viewWidth: view ? view.width : null,
    katex: svg.querySelectorAll(".katex").length,        // maths typeset (HTML, or MathML in the browser)
    katexHtml: svg.querySelectorAll(".katex > .katex-html").length,  // ... as the prose is: KaTeX's HTML
    rawMath: [...svg.querySelectorAll(".nodeLabel, .edgeLabel, text")].map(l => l.textContent).filter(t => t.includes("$$")),
    // KaTeX's drawn parts (a root sign, a wide hat) squashed to nothing by the page's CSS
    mathPartsHidden: [...svg.querySelectorAll(".katex-html svg")].filter(part => part.getBoundingClientRect().height < 1)
      .map(part => part.closest(".katex-html").textContent),
    // maths drawn in another colour than its label's words (which follow the palette)
    mathOffColour: [...svg.querySelectorAll(".katex-html")].filter(math => {
      const label = math.closest(".nodeLabel, .edgeLabel");
      return label && getComputedStyle(math).color !== getComputedStyle(label).color;
    }).map(math => math.textContent),
  };
})
"""


def build_site(project: Path, site_dir: Path, env: dict[str, str] | None = None, **env_vars: str) -> None:
    """`mkdocs build --strict` of `project` into `site_dir` through the one build wrapper
    (`site_build.build.mkdocs_build`), in `env` (default: this process's environment) with
    `env_vars` added; raises BuildError with mkdocs' output."""
    from site_build.build import mkdocs_build

    mkdocs_build(project, site_dir, dict(os.environ if env is None else env, **env_vars), capture=True, timeout=600)


class PageLog:
    """Every request, failure and console error of one page visit (from now until `detach`)."""

    _attached: dict[int, list[PageLog]] = {}  # id(page) -> the logs listening to it

    def __init__(self, page, base: str):
        self.base_host = urlparse(base).hostname
        self.requests: list[str] = []
        self.svg_types: dict[str, str] = {}
        self.failures: list[str] = []
        self.console: list[str] = []
        self._own: set = set()  # the requests made since this log began (a reused page: not the last visit's)
        self._handlers = [
            ("request", self._request),
            ("requestfailed", self._failed),
            ("response", self._response),
            ("console", lambda m: m.type == "error" and self.console.append(m.text)),
            ("pageerror", lambda e: self.console.append(f"uncaught: {e}")),
        ]
        for event, handler in self._handlers:
            page.on(event, handler)
        PageLog._attached.setdefault(id(page), []).append(self)

    @classmethod
    def detach_all(cls, page) -> None:
        """Stop every log listening to `page` (a page reused for the next visit)."""
        for log in cls._attached.pop(id(page), []):
            for event, handler in log._handlers:
                page.remove_listener(event, handler)

    def _request(self, request):
        self._own.add(request)
        self.requests.append(request.url)

    def _failed(self, request):
        # net::ERR_ABORTED is the browser cancelling its own request (instant navigation swaps
        # the head while the favicon is in flight: seen in CI); nothing was refused. An image
        # it leaves unloaded is caught by check_page's loaded-image check, a bad address by
        # its HTTP status.
        if request in self._own and request.failure != "net::ERR_ABORTED":
            self.failures.append(f"{request.url} ({request.failure})")

    def _response(self, response):
        if response.request not in self._own:
            return
        if response.status >= 400:
            self.failures.append(f"{response.url} (HTTP {response.status})")
        # A revalidated copy (304, the shared page's cache asking again) carries no body and no
        # content type, which is judged on the 200 that delivered the body (CI saw '' for a 304).
        if urlparse(response.url).path.endswith(".svg") and response.status != 304:
            self.svg_types[response.url] = response.headers.get("content-type", "")

    def offsite(self) -> list[str]:
        return [u for u in self.requests if urlparse(u).scheme in ("http", "https", "ws", "wss")
                and urlparse(u).hostname != self.base_host]


def check_page(page, log: PageLog, name: str, wait_s: float = 10) -> list[str]:
    """All the ways the page in `page` is broken for a reader, each naming the page; math and
    diagrams get `wait_s` seconds to render (a test that expects one never to render waits less)."""
    problems = []
    if not page.evaluate(WAIT_RENDERED, wait_s * 1000):
        problems.append(f"math or diagrams still unrendered after {wait_s:g} s")
    facts = page.evaluate(PAGE_FACTS)
    problems += [f"formula not typeset by KaTeX: {t!r}" for t in facts["mathUntypeset"]]
    problems += [f"KaTeX error: {t}" for t in facts["mathErrors"]]
    text = page.evaluate(VISIBLE_PROSE)
    for raw in ("$$", "\\(", "\\[", "\\)", "\\]"):
        if raw in text:
            at = text.index(raw)
            problems.append(f"raw math delimiter {raw} in the visible text: …{text[max(0, at - 40):at + 40]!r}…")
    if facts["diagramsUndrawn"]:
        problems.append(f"{facts['diagramsUndrawn']} of {facts['diagrams']} mermaid diagram(s) not drawn as SVG")
    if facts["diagramErrors"]:
        problems.append(f"{facts['diagramErrors']} mermaid diagram(s) show a syntax error")
    page.evaluate(LOAD_EVERY_IMAGE)
    facts["images"] = page.evaluate(PAGE_FACTS)["images"]
    for image in facts["images"]:
        if image["width"] == 0:
            problems.append(f"image did not load: {image['src']}")
        if not image["alt"].strip():
            problems.append(f"image without alt text: {image['src']}")
    for url, ctype in log.svg_types.items():
        if not ctype.startswith("image/svg+xml"):
            problems.append(f"{url} served as {ctype!r}, not image/svg+xml")
    problems += [f"request to another host: {u}" for u in log.offsite()]
    problems += [f"failed request: {f}" for f in log.failures]
    problems += [f"console error: {c}" for c in log.console]
    return [f"{name}: {p}" for p in problems]


# The axe-core rules whose outcome depends on the colours, what changes with the palette: the
# rules tagged `cat.color` in axe-core 4.14.1 (axe.getRules(["cat.color"])) that run by default
# (color-contrast-enhanced, the AAA level, does not). Every other rule reads the document and
# its structure, the same in both palettes.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


# Drawing a section that was skipped asks for the fonts of its formulas only then; until
# they arrive a formula is set in a fallback font, wider, and axe would report a formula
# that fits once its font is in as a scrolling box without a tab stop (seen in CI on
# context_extension). Wait, as the build's measurement does (site_build/visibility/heights.js),
# until the fonts the drawn page asked for have loaded.
FONTS_SETTLED = """
async () => {
  const tick = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  document.body.getBoundingClientRect();
  await tick();
  await document.fonts.ready;
  await Promise.all([...document.fonts].filter(f => f.status === "loading").map(f => f.loaded.catch(() => null)));
  await tick();
}
"""


def axe_violations(page, name: str, impacts=("serious", "critical"), rules: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical violations on the page as loaded; only `rules`, if given."""
    # A section that skips rendering has no boxes, so axe could not see what lies
    # behind its text (colour contrast); draw them all, as a reader scrolling would.
    page.add_style_tag(content=DRAW_EVERY_BOX)
    page.evaluate(FONTS_SETTLED)
    page.add_script_tag(path=str(AXE))
    # noHtml: a violation is reported by its selector (`target`), so axe need not copy each
    # node's HTML (about a fifth of its time on a lesson page; the same findings)
    page.evaluate("axe.configure({ noHtml: true })")
    options = {"resultTypes": ["violations"], **({"runOnly": {"type": "rule", "values": list(rules)}} if rules else {})}
    result = page.evaluate("async (options) => await axe.run(document, options)", options)
    return [
        f"{name}: axe {v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])} node(s), e.g. {v['nodes'][0]['target']})"
        for v in result["violations"]
        if v["impact"] in impacts
    ]
