"""Tables that become stacked cards on a narrow screen.

A wide table (a lesson's five-column *Your options*) is clipped or scrolls at a
phone's width. Inside a `<div class="primer-stack">` (STACK_CLASS) a table is
shown as usual on a wide screen, and below the breakpoint in site.css each row
is a card of its cells, each cell under its column's header: `stack_cells`
gives every body cell a `data-label` with its header's text, which the
stylesheet shows before it. The table itself keeps no class, so Material still
styles it on a wide screen.

The lessons' options tables are stacked by the levels processor (`stack_table`,
site_build/markdown/levels.py). Any other page stacks a table by wrapping it:

    <div class="primer-stack" markdown="1">

    | Key | Meaning |
    |---|---|
    | ... | ... |

    </div>

`StackExtension` labels the cells of every table inside such a div.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from site_build.markdown.context import PageExtension, PageTreeprocessor

STACK_CLASS = "primer-stack"


def _classes(el: etree.Element) -> list[str]:
    return (el.get("class") or "").split()


def stack_cells(table: etree.Element) -> None:
    """Give each body cell of `table` a `data-label`: the text of its column's header."""
    header = next(table.iter("thead"), None)
    heads = ["".join(th.itertext()).strip() for th in header.iter("th")] if header is not None else []
    for body in table.iter("tbody"):
        for row in body.iter("tr"):
            for head, cell in zip(heads, row.findall("td"), strict=False):
                cell.set("data-label", head)


def stack_table(parent: etree.Element, table: etree.Element) -> etree.Element:
    """Wrap `table` (a child of `parent`) in a div of class STACK_CLASS and label its cells; the div."""
    box = etree.Element("div", {"class": STACK_CLASS})
    parent.insert(list(parent).index(table), box)
    parent.remove(table)
    box.append(table)
    stack_cells(table)
    return box


class _Stack(PageTreeprocessor):
    def run(self, root: etree.Element) -> None:
        for box in root.iter("div"):
            if STACK_CLASS in _classes(box):
                for table in box.iter("table"):
                    stack_cells(table)


class StackExtension(PageExtension):
    """Markdown extension: label the cells of every table inside a `div.primer-stack`."""

    processor, name, priority = _Stack, "primer_stack", 3
