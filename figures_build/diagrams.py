"""Draw every mermaid diagram when the site is built, not in the reader's browser.

With Chromium on the machine (it is on CI, and `make test` needs it anyway),
every ```mermaid block of the site is rendered once by mermaid inside
headless Chromium and inlined as SVG; results are cached by content in
.cache/diagrams.json, so only a new or changed diagram costs a render. The
page then needs no mermaid script at all, and a diagram mermaid cannot parse
stops the build with the source file's name. The SVG's colours come from
Material's --md-mermaid-* variables, so it follows the light/dark toggle.

Without Chromium (say, `make serve` on a laptop), the blocks are left for
Material to draw in the browser with the site's own mermaid (javascripts/
mermaid.mjs), exactly as before. PRIMER_DIAGRAMS=browser forces that path.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.hooks.diagrams")

BLOCK_RE = re.compile(r'<pre class="mermaid"><code>(?P<src>.*?)</code></pre>', re.S)
FENCE_RE = re.compile(r"^(?P<indent>[ \t]*)```mermaid[ \t]*\n(?P<body>.*?)^(?P=indent)```", re.M | re.S)
CLIENT_SCRIPT = "javascripts/mermaid.mjs"
# Headless Chromium on a machine with no network: without the background-networking
# flags it keeps trying (and failing) to reach Google's hosts. The browser tests
# launch it with the same flags.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]
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
)
CONFIG = {"startOnLoad": False, "securityLevel": "strict", "fontFamily": FONT, "themeCSS": THEME_CSS,
          "flowchart": {"htmlLabels": True}}

_state: dict = {"mode": "browser", "root": None, "cache": {}}


def on_config(config):
    root = Path(config.config_file_path).resolve().parent
    chromium = chromium_path()
    wanted = os.environ.get("PRIMER_DIAGRAMS", "auto")
    mode = "build" if (wanted == "build" or (wanted == "auto" and chromium)) else "browser"
    if mode == "build" and not chromium:
        raise PluginError("hooks/diagrams.py: PRIMER_DIAGRAMS=build needs Chromium (apt-get install -y chromium)")
    package = root / "node_modules" / "mermaid" / "package.json"
    version = json.loads(package.read_text())["version"] if package.is_file() else "missing"
    _state.update(mode=mode, root=root, chromium=chromium, version=version, cache=_load(root))
    if mode == "browser":
        log.info("diagrams: no Chromium found; mermaid draws them in the reader's browser")
        return config
    config.extra_javascript = [s for s in config.extra_javascript if str(getattr(s, "path", s)) != CLIENT_SCRIPT]
    site = _site_diagrams(root, config)
    _render_missing(site)
    if set(_state["cache"]) - set(site):  # forget diagrams no page has any more
        _state["cache"] = {key: svg for key, svg in _state["cache"].items() if key in site}
        _save(root, _state["cache"])
    return config


def on_page_content(content: str, *, page, config, files) -> str:
    if _state["mode"] != "build":
        return content

    def inline(match: re.Match) -> str:
        text = html.unescape(match.group("src")).strip()
        key = _key(text)
        if key not in _state["cache"]:
            from hooks.lesson_pages import page_source

            _render_missing({key: (text, page_source(page))})
        return f'<div class="diagram">{_state["cache"][key]}</div>'

    return BLOCK_RE.sub(inline, content)


# ---------------------------------------------------------------------------


def _site_diagrams(root: Path, config) -> dict[str, tuple[str, str]]:
    """key -> (mermaid text, file it comes from), for every block of the site."""
    from lessons import discover

    found: dict[str, tuple[str, str]] = {}
    sources = [(str(lesson.path.relative_to(root)), lesson.docstring) for lesson in discover(root / "lessons")]
    docs = Path(config.docs_dir)
    sources += [(str(p.relative_to(root)), p.read_text(encoding="utf-8")) for p in sorted(docs.rglob("*.md"))]
    for name, text in sources:
        for match in FENCE_RE.finditer(text):
            body = textwrap.dedent(match.group("body")).strip()
            found.setdefault(_key(body), (body, name))
    return found


def _render_missing(diagrams: dict[str, tuple[str, str]]) -> None:
    todo = {key: value for key, value in diagrams.items() if key not in _state["cache"]}
    if not todo:
        return
    results = _run_chromium({f"diagram-{key[:12]}": text for key, (text, _) in todo.items()})
    errors = []
    for key, (text, name) in todo.items():
        answer = results.get(f"diagram-{key[:12]}", {"error": "no answer from Chromium"})
        if "error" in answer:
            first = text.splitlines()[0] if text else ""
            errors.append(f"{name}: mermaid cannot draw the diagram starting {first!r}: {answer['error'].splitlines()[0]}")
        else:
            _state["cache"][key] = answer["svg"]
    if errors:
        raise PluginError("\n".join(errors))
    log.info(f"diagrams: drew {len(todo)} with mermaid in Chromium ({len(_state['cache'])} cached)")
    _save(_state["root"], _state["cache"])


def _run_chromium(jobs: dict[str, str]) -> dict[str, dict]:
    mermaid = _state["root"] / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
    if not mermaid.is_file():
        raise PluginError("hooks/diagrams.py: node_modules/mermaid is missing; run `npm ci` (or `make serve`)")
    payload = json.dumps(sorted(jobs.items())).replace("</", "<\\/")
    page = f"""<!doctype html><meta charset="utf-8">
<script src="{mermaid.as_uri()}"></script>
<script id="jobs" type="application/json">{payload}</script>
<pre id="out"></pre>
<script>
(async () => {{
  mermaid.initialize({json.dumps(CONFIG)});
  const out = {{}};
  for (const [id, text] of JSON.parse(document.getElementById("jobs").textContent)) {{
    try {{ out[id] = {{ svg: (await mermaid.render(id, text)).svg }}; }}
    catch (e) {{ out[id] = {{ error: String((e && e.message) || e) }}; }}
  }}
  document.getElementById("out").textContent = JSON.stringify(out);
}})();
</script>"""
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "render.html"
        file.write_text(page, encoding="utf-8")
        result = subprocess.run(
            [_state["chromium"], "--headless", *CHROMIUM_ARGS, f"--user-data-dir={tmp}/profile",
             "--allow-file-access-from-files", "--virtual-time-budget=60000", "--dump-dom", file.as_uri()],
            capture_output=True, text=True, timeout=300,
        )
    match = re.search(r'<pre id="out">(.*?)</pre>', result.stdout, re.S)
    if not match or not match.group(1).strip():
        raise PluginError(f"hooks/diagrams.py: Chromium did not finish drawing the diagrams: {result.stderr[-500:]}")
    return json.loads(html.unescape(match.group(1)))


def _key(text: str) -> str:
    return hashlib.sha256(json.dumps([_state["version"], CONFIG, text]).encode()).hexdigest()


def chromium_path() -> str | None:
    """Debian's Chromium (or PRIMER_CHROMIUM); None where there is none."""
    return os.environ.get("PRIMER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def _cache_file(root: Path) -> Path:
    return root / ".cache" / "diagrams.json"


def _load(root: Path) -> dict[str, str]:
    try:
        return json.loads(_cache_file(root).read_text())
    except (OSError, ValueError):
        return {}


def _save(root: Path, cache: dict[str, str]) -> None:
    path = _cache_file(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(cache, sort_keys=True))
    os.replace(tmp, path)
