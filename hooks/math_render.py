"""Typeset every formula at build time with KaTeX (in Node), not in the reader's browser.

arithmatex (generic mode) leaves `<span class="arithmatex">\\(...\\)</span>` and
`<div class="arithmatex">\\[...\\]</div>`; this hook replaces each body with
KaTeX's HTML (plus MathML for screen readers). The reader's browser then needs
only KaTeX's CSS and the fonts a page uses: no math script, nothing to re-run
after instant navigation. A formula KaTeX cannot parse stops the build with a
message naming the page's source file and the formula.
"""

from __future__ import annotations

import atexit
import html
import json
import re
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

MATH_RE = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\\(?P<open>[\(\[])(?P<tex>.*?)\\(?P<close>[\)\]])</(?P=tag)>',
    re.S,
)

_node: subprocess.Popen | None = None
_cache: dict[tuple[str, bool], str] = {}


def on_page_content(content: str, *, page, config, files) -> str:
    root = Path(config.config_file_path).resolve().parent

    def typeset(match: re.Match) -> str:
        tex = html.unescape(match.group("tex")).strip()
        display = match.group("tag") == "div"
        rendered = _render(tex, display, root, page)
        return f'<{match.group("tag")} class="arithmatex">{rendered}</{match.group("tag")}>'

    return MATH_RE.sub(typeset, content)


def _render(tex: str, display: bool, root: Path, page) -> str:
    key = (tex, display)
    if key not in _cache:
        node = _katex(root)
        node.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
        node.stdin.flush()
        answer = json.loads(node.stdout.readline() or '{"error": "the KaTeX process stopped"}')
        if "error" in answer:
            from hooks.lesson_pages import page_source

            raise PluginError(f"{page_source(page)}: KaTeX cannot typeset {tex!r}: {answer['error']}")
        _cache[key] = answer["html"]
    return _cache[key]


def _katex(root: Path) -> subprocess.Popen:
    global _node
    if _node is None or _node.poll() is not None:
        if not (root / "node_modules" / "katex").is_dir():
            raise PluginError("hooks/math_render.py: node_modules/katex is missing; run `npm ci` (or `make serve`)")
        try:
            _node = subprocess.Popen(
                ["node", str(Path(__file__).with_name("katex_render.cjs"))],
                cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            )
        except FileNotFoundError:
            raise PluginError("hooks/math_render.py: `node` not found; install Node.js to typeset the math") from None
        atexit.register(_node.kill)
    return _node
