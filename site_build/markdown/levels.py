"""The two levels of a lesson page, marked where a reader sees them, and the path through them.

A lesson has a Level 1 (the practitioner's guide) and a Level 2 (how it works,
from scratch), each an `##` heading of the page contract (docs/authoring.md).
`LevelsExtension`, a Markdown tree processor, on every lesson page:

- puts the reading times (`project.reading.reading_times`) under the title;
- gives each level heading the classes `primer-level primer-level-1` (or `-2`),
  which the stylesheet draws as a band with its level's badge, and puts a "Skip
  to Level 2" link under the Level 1 heading, for the learner who came for the
  mechanism;
- gives each of Level 1's bold run-in headings an id of its words (`name_run_ins`:
  *How to choose.* -> how-to-choose), for links into the guide;
- stacks Level 1's first table (*Your options*) into cards on a phone
  (site_build/markdown/tables.py);
- ends Level 1 with where to go next (`next_level_1`): the next lesson's Level 1
  in reading order (after the last, the practitioner track), or this page's Level 2.

A page with no Level 2 heading gets its one reading time and nothing else; a page
that is not a lesson (the paper companions, the home page) is left as it is.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as etree

from markdown.extensions.toc import slugify

from project.reading import LEVEL, level_headings, reading_time_text
from site_build.markdown.context import PageExtension, PageTreeprocessor
from site_build.markdown.tables import stack_table
from site_build.pages import READING_CLASS, READING_NOTE, TRACK_PAGE, TRACK_TITLE, level_1_link, nav_title

SKIP_CLASS = "primer-skip"
NEXT_CLASS = "primer-next"  # the block that ends Level 1: the next lesson's Level 1, or this page's Level 2


def heading_text(heading: etree.Element) -> str:
    """A heading's words, without the permalink (¶) the table of contents adds to it."""
    parts = [heading.text or ""]
    for child in heading:
        if "headerlink" not in (child.get("class") or "").split():
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return "".join(parts).strip()


def next_level_1(lessons, lesson) -> tuple[str, str]:
    """(text, href) of the link that ends `lesson`'s Level 1: the next lesson in reading order
    (`lessons`) that has two levels, at its Level 1 heading; after the last, the practitioner track."""
    later = lessons[[other.page for other in lessons].index(lesson.page) + 1:]
    for other in later:
        href = level_1_link(other, lesson.page)
        if href is not None:
            return f"{nav_title(other.title)}, Level 1 →", href
    return f"{TRACK_TITLE}, every Level 1 in order →", posixpath.relpath(TRACK_PAGE, posixpath.dirname(lesson.page))


def _ending(lesson, lessons, level_2: etree.Element) -> etree.Element:
    """The block that ends Level 1: 'Next: <the next Level 1> →' and 'Or go deeper: Level 2 ↓'."""
    block = etree.Element("div", {"class": NEXT_CLASS})
    onward = ("Next: ", *next_level_1(lessons, lesson))
    for lead, words, href in (onward, ("Or go deeper: ", "Level 2 ↓", f"#{level_2.get('id', '')}")):
        line = etree.SubElement(block, "p")
        line.text = lead
        etree.SubElement(line, "a", {"href": href}).text = words
    return block


def name_run_ins(root: etree.Element) -> None:
    """Give each paragraph of a page's Level 1 that opens with a bold run-in heading (*How to choose.*)
    the id of its words ("how-to-choose"), unless the page has that id already, so a link can lead to
    it (the model-card decoder's verdict leads to a lesson's *How to choose*: modelcard.html.CHOOSE)."""
    children = list(root)
    level = [(el.tag == "h2" and LEVEL.match(heading_text(el)) or None) for el in children]
    one = next((i for i, m in enumerate(level) if m and m.group(1) == "1"), None)
    if one is None:
        return
    two = next((i for i, m in enumerate(level) if m and i > one), None)
    taken = {el.get("id") for el in root.iter() if el.get("id")}
    for para in children[one + 1:two]:
        lead = para[0] if para.tag == "p" and len(para) and not (para.text or "").strip() else None
        if lead is not None and lead.tag == "strong" and (lead.text or "").endswith("."):
            anchor = slugify(lead.text.rstrip("."), "-")
            if anchor not in taken:
                para.set("id", anchor)
                taken.add(anchor)


class _RunIns(PageTreeprocessor):
    """`name_run_ins` on a lesson page, before the table of contents (priority 6 > 5): MkDocs collects a
    page's ids at the toc's priority, so a link to one of these passes `mkdocs build --strict`."""

    def run(self, root: etree.Element) -> None:
        page = self.context()
        if page is not None and page.src_uri in {lesson.page for lesson in page.project.lessons}:
            name_run_ins(root)


class _Levels(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        page = self.context()
        lessons = page.project.lessons if page is not None else []
        lesson = next((lesson for lesson in lessons if lesson.page == page.src_uri), None)
        if lesson is None:
            return
        title = next((el for el in root if el.tag == "h1"), None)
        if title is not None:
            times = etree.Element("p", {"class": READING_CLASS, "title": READING_NOTE})
            times.text = reading_time_text(lesson.docstring)
            root.insert(list(root).index(title) + 1, times)
        levels = {}
        for el in root:
            match = LEVEL.match(heading_text(el)) if el.tag == "h2" else None
            if match and match.group(1) not in levels:
                levels[match.group(1)] = el
        if set(levels) != {"1", "2"} or not level_headings(lesson.docstring):
            return
        for number, heading in levels.items():
            heading.set("class", " ".join(filter(None, [heading.get("class"), "primer-level", f"primer-level-{number}"])))
        second = levels["2"]
        skip = etree.Element("p", {"class": SKIP_CLASS})
        link = etree.SubElement(skip, "a", {"href": f"#{second.get('id', '')}"})
        link.text = "Skip to " + heading_text(second) + " ↓"
        root.insert(list(root).index(levels["1"]) + 1, skip)
        level_1 = list(root)[list(root).index(levels["1"]):list(root).index(second)]
        options = next((el for el in level_1 if el.tag == "table"), None)
        if options is not None:
            stack_table(root, options)
        root.insert(list(root).index(second), _ending(lesson, lessons, second))


class LevelsExtension(PageExtension):
    """Markdown extension: mark a lesson's Level 1 and Level 2 headings and link the first to the second."""

    # after the table of contents (5), which gives the headings their ids; before the sections (1)
    processor, name, priority = _Levels, "primer_levels", 2

    def extendMarkdown(self, md):  # noqa: N802 - Markdown's API
        super().extendMarkdown(md)
        md.treeprocessors.register(_RunIns(md, self.context), "primer_run_ins", 6)
