"""Typeset every formula at build time with KaTeX (in Node), not in the reader's browser.

pymdownx.arithmatex (generic mode) turns `$...$` and `$$...$$` into elements
of class "arithmatex" holding `\\(...\\)` or `\\[...\\]`. `KatexExtension`
adds a Markdown tree processor that runs after arithmatex and replaces each
such element's text with KaTeX's HTML (plus MathML for screen readers), so
the reader's browser needs only KaTeX's CSS and fonts. A formula KaTeX cannot
parse, or a Node process that does not answer in time, stops the build with a
one-line message naming the page's source file.
"""

from __future__ import annotations

import html
import json
import os
import queue
import subprocess
import threading
import xml.etree.ElementTree as etree
from pathlib import Path
from typing import Callable

from markdown import Extension
from markdown.treeprocessors import Treeprocessor
from mkdocs.exceptions import PluginError

from project.cache import ContentCache, content_key
from site_build.markdown.context import PageContext, page_source
from site_build.tools import timeout_seconds

SCRIPT = Path(__file__).resolve().parents[1] / "katex_render.cjs"
KEEP = 20000  # typeset formulas kept in the cache (the oldest go first)


class MathError(PluginError):
    """KaTeX could not typeset a formula, or did not answer; the message says which."""


class Katex:
    """A long-lived `node katex_render.cjs` process and what it typeset, kept in the build's
    content cache (project/cache.py, the store "maths", keyed by KaTeX's version, this
    renderer, the TeX and display or inline): a formula is typeset once, not once per build.
    The process starts only when a formula is new.
    """

    def __init__(self, root: Path, *, node: str | None = None, timeout: float | None = None):
        self.root = root
        self.node = node or os.environ.get("PRIMER_NODE", "node")  # the `node` option (PRIMER_NODE)
        self.timeout = timeout_seconds() if timeout is None else timeout
        self.cache = ContentCache(root, "maths")  # content key -> HTML
        katex = root / "node_modules" / "katex" / "package.json"
        self.version = [json.loads(katex.read_text())["version"] if katex.is_file() else "missing",
                        content_key(SCRIPT.read_bytes())]
        self._node: subprocess.Popen | None = None
        self._answers: queue.Queue = queue.Queue()

    def render(self, formulas: list[tuple[str, bool]], where: str) -> dict[tuple[str, bool], str]:
        """(tex, display) -> HTML for every formula, typesetting only the uncached ones."""
        keys = {f: content_key(self.version, f[0], f[1]) for f in formulas}
        todo = list(dict.fromkeys(f for f in formulas if keys[f] not in self.cache))
        if todo:
            node = self._process()
            node.stdin.write("".join(json.dumps({"tex": tex, "display": display}) + "\n" for tex, display in todo))
            node.stdin.flush()
            for tex, display in todo:
                try:
                    line = self._answers.get(timeout=self.timeout)
                except queue.Empty:
                    self.close()
                    raise MathError(f"{where}: KaTeX (node) gave no answer within {self.timeout:g} s "
                                    f"for {tex!r}; stopped it (PRIMER_TIMEOUT sets the limit)") from None
                answer = json.loads(line or '{"error": "the KaTeX process stopped"}')
                if "error" in answer:
                    raise MathError(f"{where}: KaTeX cannot typeset {tex!r}: {answer['error']}")
                self.cache[keys[(tex, display)]] = answer["html"]
            self.cache.save(limit=KEEP)
        return {f: self.cache[keys[f]] for f in formulas}

    def close(self) -> None:
        if self._node is not None and self._node.poll() is None:
            self._node.kill()
        self._node = None

    def _process(self) -> subprocess.Popen:
        if self._node is not None and self._node.poll() is None:
            return self._node
        if not (self.root / "node_modules" / "katex").is_dir():
            raise MathError("node_modules/katex is missing; run `npm ci` (or `make serve`)")
        command = [self.node, str(SCRIPT)]
        try:
            self._node = subprocess.Popen(command, cwd=self.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          text=True, bufsize=1)
        except FileNotFoundError:
            raise MathError(f"`{command[0]}` not found; install Node.js to typeset the math") from None
        self._answers = queue.Queue()
        threading.Thread(target=_pump, args=(self._node.stdout, self._answers), daemon=True).start()
        return self._node


def _pump(stream, answers: queue.Queue) -> None:
    """Move Node's answer lines into a queue, so a read can time out."""
    for line in stream:
        answers.put(line)
    answers.put("")  # the process ended


class KatexExtension(Extension):
    """Markdown extension: typeset arithmatex's elements with `katex`.

    `context()` is the page being rendered (its source names it in error messages)."""

    def __init__(self, katex: Katex, context: Callable[[], PageContext | None]):
        super().__init__()
        self.katex, self.context = katex, context

    def extendMarkdown(self, md):  # noqa: N802 - Markdown's API
        # after the inline patterns (priority 20), which create the inline math
        md.treeprocessors.register(_Typeset(md, self), "primer_katex", 15)


class _Typeset(Treeprocessor):
    def __init__(self, md, extension: KatexExtension):
        super().__init__(md)
        self.extension = extension

    def run(self, root: etree.Element) -> None:
        found = []
        for el in root.iter():
            if "arithmatex" in (el.get("class") or "").split() and el.text:
                text = html.unescape(el.text).strip()
                display = text.startswith("\\[")
                found.append((el, (text[2:-2].strip(), display)))
        if not found:
            return
        rendered = self.extension.katex.render([f for _, f in found], page_source(self.extension.context))
        for el, formula in found:
            for child in list(el):
                el.remove(child)
            el.text = self.md.htmlStash.store(rendered[formula])
