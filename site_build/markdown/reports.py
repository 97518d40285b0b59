"""The model-card reports a page shows, as HTML: a ```text fence holding
`$ python -m modelcard SLUG` and what it prints (each entry of the gallery page,
modelcard/gallery.py) is shown as the report's HTML (`modelcard.html`:
the verdict, the warnings as admonitions, tables), with the command above it.

The fence stays the page's source, and what the terminal prints: it must be the
report the code prints now (tests/test_model_card.py), or the build stops naming
the page. A preprocessor swaps each such fence for a marker paragraph before the
fences are read; a tree processor puts the report's elements in its place, so
MkDocs resolves the warnings' links to lesson pages (`<slug>.md`) like any other.
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as etree

from markdown.preprocessors import Preprocessor
from mkdocs.exceptions import PluginError

from site_build.markdown.context import PageExtension, PageTreeprocessor, page_source
from site_build.snapshot import LINK

# the fence, at the margin or indented alike (inside a collapsible gallery entry); groups: indent, slug, shown
REPORT_FENCE = re.compile(r"^(?P<indent> *)```text\n(?P=indent)\$ python -m modelcard (?P<slug>\S+)\n(?P<shown>.*?)\n"
                          r"(?P=indent)```$", re.M | re.S)


def shown_report(match: re.Match) -> tuple[str, str]:
    """(slug, the report as printed) of a REPORT_FENCE match: an indented fence's lines lose its indent."""
    indent = match.group("indent")
    lines = match.group("shown").split("\n")
    return match.group("slug"), "\n".join(line[len(indent):] if line.startswith(indent) else line for line in lines)


MARKER = "primer-model-card-report-{}"


class _Fences(Preprocessor):
    def __init__(self, md, extension: ReportExtension):
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        self.extension.found = []
        text = "\n".join(lines)
        if "$ python -m modelcard " not in text:
            return lines

        def swap(match: re.Match) -> str:
            self.extension.found.append(shown_report(match))
            return match.group("indent") + MARKER.format(len(self.extension.found) - 1)

        return REPORT_FENCE.sub(swap, text).split("\n")


class _Reports(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        found = self.md.primer_reports.found
        if not found:
            return
        page = self.context()
        if page is None:
            return
        known = page.snapshot.reports if page.snapshot is not None else {}
        here = posixpath.dirname(page.src_uri)

        def to_lesson(match: re.Match) -> str:  # a lesson's page, relative to this page (MkDocs resolves .md links)
            return posixpath.relpath(page.project.by_slug[match.group(1)].page, here or ".")

        parents = {child: parent for parent in root.iter() for child in parent}
        for p in list(root.iter("p")):
            match = re.fullmatch(MARKER.format(r"(\d+)"), (p.text or "").strip())
            if not match or len(p):
                continue
            slug, shown = found[int(match.group(1))]
            if slug not in known:
                raise PluginError(f"{page_source(self.context)}: `python -m modelcard {slug}`: no gallery "
                                  f"config {slug!r}")
            text, html = known[slug]
            if text != shown:
                raise PluginError(f"{page_source(self.context)}: the report of {slug} differs from what the code "
                                  f"prints now; regenerate it with `python -m modelcard {slug}`")
            box = etree.Element("div", {"class": "pmc-static"})
            command = etree.SubElement(box, "p", {"class": "pmc-command-line"})
            etree.SubElement(command, "code").text = f"$ python -m modelcard {slug}"
            box.append(etree.fromstring(re.sub(re.escape(LINK) + r"(\w+)", to_lesson, html)))
            box[-1].set("data-slug", slug)
            parent = parents[p]
            index = list(parent).index(p)
            box.tail = p.tail
            parent.remove(p)
            parent.insert(index, box)


class ReportExtension(PageExtension):
    """Registers both steps (see the module docstring): the fences go before superfences reads
    any (its preprocessor has priority 25), the reports come after the inline patterns (20), so
    their text is not read as Markdown, and before MkDocs resolves .md links (0)."""

    processor, name, priority = _Reports, "primer_reports", 16

    def extendMarkdown(self, md):  # noqa: N802 - Markdown's API
        self.found: list[tuple[str, str]] = []
        md.primer_reports = self
        md.preprocessors.register(_Fences(md, self), "primer_report_fences", 32)
        super().extendMarkdown(md)
