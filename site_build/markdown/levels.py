"""The two levels of a lesson page, marked where a reader sees them.

A lesson has a Level 1 (the practitioner's guide) and a Level 2 (how it works,
from scratch), each an `##` heading of the page contract (docs/authoring.md).
`LevelsExtension`, a Markdown tree processor, gives each of those headings the
classes `primer-level primer-level-1` (or `-2`), which the stylesheet draws as a
band with its level's badge, and puts a "Skip to Level 2" link under the Level 1
heading, for the learner who came for the mechanism. A page with no Level 2
heading (the paper companions, the home page) is left as it is.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from site_build.markdown.context import PageExtension, PageTreeprocessor

LEVEL = re.compile(r"^Level ([12])\b")
SKIP_CLASS = "primer-skip"


def heading_text(heading: etree.Element) -> str:
    """A heading's words, without the permalink (¶) the table of contents adds to it."""
    parts = [heading.text or ""]
    for child in heading:
        if "headerlink" not in (child.get("class") or "").split():
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return "".join(parts).strip()


class _Levels(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        page = self.context()
        if page is None or page.src_uri not in {lesson.page for lesson in page.project.lessons}:
            return
        levels = {}
        for el in root:
            match = LEVEL.match(heading_text(el)) if el.tag == "h2" else None
            if match and match.group(1) not in levels:
                levels[match.group(1)] = el
        if set(levels) != {"1", "2"}:
            return
        for number, heading in levels.items():
            heading.set("class", " ".join(filter(None, [heading.get("class"), "primer-level", f"primer-level-{number}"])))
        second = levels["2"]
        skip = etree.Element("p", {"class": SKIP_CLASS})
        link = etree.SubElement(skip, "a", {"href": f"#{second.get('id', '')}"})
        link.text = "Skip to " + heading_text(second) + " ↓"
        root.insert(list(root).index(levels["1"]) + 1, skip)


class LevelsExtension(PageExtension):
    """Markdown extension: mark a lesson's Level 1 and Level 2 headings and link the first to the second."""

    # after the table of contents (5), which gives the headings their ids; before the sections (1)
    processor, name, priority = _Levels, "primer_levels", 2
