"""The evidence beside a claim, as a Markdown tree processor.

A lesson that keeps a claims ledger (`lessons.measured`: `EVIDENCE` and
`evidence_labels`) writes `⟨id⟩` after a sentence that ranks, explains or
advises. On the page each marker becomes a small superscript that names its
evidence (a ranking with its interval, an ablation with its drop, or a cited
source), shown beside it on hover and on focus (a tap on a phone; the
stylesheet draws it from `data-evidence`) and read out by a screen reader; the
terminal (`python -m lessons.<slug>`) shows the marker as written. An id the
ledger does not hold stops the build, naming the page.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from mkdocs.exceptions import PluginError

from site_build.markdown.context import PageExtension, PageTreeprocessor, page_source

MARKER = re.compile(r"⟨([a-z][a-z-]*)⟩")
CLASS = "primer-evidence"
SKIP = {"code", "pre", "script", "style"}


def _split(text: str, label) -> tuple[str, list[etree.Element]]:
    """`text` up to its first marker, and the marker elements, each with the text after it as its tail."""
    parts = MARKER.split(text)
    out = []
    for key, after in zip(parts[1::2], parts[2::2], strict=True):
        text = label(key)
        sup = etree.Element("sup", {"class": CLASS, "tabindex": "0", "data-evidence": text,
                                    "aria-label": f"evidence: {text}"})
        sup.text = key
        sup.tail = after
        out.append(sup)
    return parts[0], out


class _Evidence(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        page = self.context()
        lesson = None if page is None else next((p for p in page.project.lessons if p.page == page.src_uri), None)
        if lesson is None:
            return
        # the page's ledger, read out by the content snapshot (site_build/snapshot.py): {id: label}
        labels = page.snapshot.evidence.get(page.src_uri, {}) if page.snapshot is not None else {}

        def label(key: str) -> str:
            if key not in labels:
                raise PluginError(f"{page_source(self.context)}: ⟨{key}⟩ names no entry of the page's EVIDENCE")
            return labels[key]

        for el in list(root.iter()):
            if el.tag in SKIP:
                continue
            if el.text and "⟨" in el.text:
                el.text, sups = _split(el.text, label)
                for i, sup in enumerate(sups):
                    el.insert(i, sup)
            for child in list(el):
                if child.tail and "⟨" in child.tail:
                    child.tail, sups = _split(child.tail, label)
                    at = list(el).index(child) + 1
                    for i, sup in enumerate(sups):
                        el.insert(at + i, sup)


class EvidenceExtension(PageExtension):
    """Markdown extension: each `⟨id⟩` on a lesson page becomes its evidence marker."""

    processor, name, priority = _Evidence, "primer_evidence", 3
