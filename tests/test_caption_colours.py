"""A caption names only colours its figure draws (issue 43, item 7): for every figure on every page (each
lesson's and companion's docstring, and the decoder's gallery page), each colour word in its alt text
and in the **Reading it:** paragraph after it is one of lessons/_palette.py's colours (by the palette's
name for it: "red" is vermillion, RED; "green" is GREEN, never TEAL) that the figure, as its page's
figures() returns it, actually draws; a word for a heatmap's colours ("yellow") needs a colour map
that shows it. Read in-process: the figures are drawn by the pages' own code, no file is written."""

from __future__ import annotations

import re

import pytest

from lessons import _palette as P
from tests.conftest import PAGES

# Each colour word a caption may use -> the palette colours it names (lessons/_palette.py: each colour's
# name and its comment's words for it). A word not here is not a colour word.
WORDS: dict[str, set[str]] = {
    "blue": {P.BLUE, P.LIGHT_BLUE, P.BLUE_FILL}, "light blue": {P.LIGHT_BLUE, P.BLUE_FILL},
    "sky blue": {P.LIGHT_BLUE}, "sky-blue": {P.LIGHT_BLUE},
    "red": {P.RED}, "vermillion": {P.RED}, "vermilion": {P.RED},
    "green": {P.GREEN, P.GREEN_FILL}, "bluish green": {P.GREEN, P.GREEN_FILL}, "bluish-green": {P.GREEN, P.GREEN_FILL},
    "orange": {P.ORANGE}, "purple": {P.PURPLE}, "reddish purple": {P.PURPLE}, "pink": {P.PURPLE},
    "black": {P.INK}, "indigo": {P.INDIGO}, "wine": {P.WINE}, "olive": {P.OLIVE}, "teal": {P.TEAL},
    "grey": {P.MUTED, P.GRID, P.GREY_FILL}, "gray": {P.MUTED, P.GRID, P.GREY_FILL},
    "yellow": set(), "brown": set(), "cyan": set(), "magenta": set(), "violet": set(),
}
# The colour words a heatmap's colour map shows, from its low end to its high end (COLOUR_MAPS).
MAP_WORDS = {"viridis": {"purple", "blue", "teal", "green", "yellow"}, "berlin": {"blue", "black", "red", "orange"}}
WORD_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, WORDS), key=len, reverse=True)) + r")\b", re.I)
IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\(figures/(?P<file>[^)\s]+)\.svg\)")
READING = re.compile(r"\s*\n\s*\n\s*\*\*Reading it:\*\*(?P<text>.*?)(?=\n\s*\n|\Z)", re.S)


def captions(text: str) -> list[tuple[str, str]]:
    """(figure file without .svg, its caption: the alt text and the Reading it paragraph after it) for each
    figure image in the Markdown `text` (indented or not)."""
    found = []
    for image in IMAGE.finditer(text):
        reading = READING.match(text, image.end())
        found.append((image.group("file"), image.group("alt") + "\n" + (reading.group("text") if reading else "")))
    return found


def colour_words(caption: str) -> list[str]:
    """The colour words of a caption, lower-cased, longest first where two overlap ("light blue")."""
    return [match.group(1).lower() for match in WORD_RE.finditer(caption)]


def drawn(fig) -> tuple[set[str], set[str]]:
    """(the hex colours `fig` draws: lines, markers, shapes, collections and texts; the colour maps of its
    heatmaps and colour bars)."""
    from matplotlib.colors import to_hex
    from matplotlib.cm import ScalarMappable
    from matplotlib.collections import Collection
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text

    colours, maps = set(), set()

    def add(value) -> None:
        try:
            rgba = [value] if isinstance(value, str) or len(value) in (3, 4) and not hasattr(value[0], "__len__") else value
            colours.update(to_hex(c) for c in rgba if not (len(c) == 4 and c[3] == 0) if not isinstance(c, str) or c != "none")
        except (TypeError, ValueError):
            pass

    for artist in fig.findobj():
        if not artist.get_visible():
            continue
        if isinstance(artist, Line2D):
            for value in (artist.get_color(), artist.get_markerfacecolor(), artist.get_markeredgecolor()):
                add(value)
        elif isinstance(artist, (Patch, Collection)):
            add(artist.get_facecolor())
            add(artist.get_edgecolor())
        elif isinstance(artist, Text) and artist.get_text().strip():
            add(artist.get_color())
        if isinstance(artist, ScalarMappable) and artist.get_array() is not None:
            cmap = artist.get_cmap()
            if isinstance(cmap, ListedColormap) and cmap.N <= 16:  # a few colours listed: the colours drawn
                add(list(cmap.colors))
            else:
                maps.add(cmap.name)
    return colours, maps


def mismatches(caption: str, colours: set[str], maps: set[str]) -> list[str]:
    """Each colour word of `caption` that names no colour of `colours` (hex) and no colour map in `maps` shows."""
    wrong = []
    for word in colour_words(caption):
        if WORDS[word] & colours or any(word in MAP_WORDS.get(name, ()) for name in maps):
            continue
        named = sorted(name for name, value in P.COLOURS.items() if value in colours)
        wrong.append(f'"{word}" (the palette has it as {sorted(WORDS[word]) or "no colour"}; the figure draws '
                     f"{', '.join(named) or 'no palette colour'}{'; maps ' + ', '.join(sorted(maps)) if maps else ''})")
    return wrong


def _pages() -> dict[str, str]:
    """{page: its Markdown}: every lesson's and companion's docstring, and the decoder's gallery page."""
    from modelcard.gallery import gallery_page

    return {f"{page.package}/{page.slug}.py": page.docstring for page in PAGES} | {"modelcard/gallery.py": gallery_page()}


@pytest.fixture(scope="module")
def figures(modules) -> dict[str, tuple[set[str], set[str]]]:
    """{figure file without .svg: what it draws (`drawn`)} of every page module's figures()."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    P.install()
    found = {}
    for slug, module in modules.items():
        if callable(getattr(module, "figures", None)):
            for name, fig in module.figures().items():
                found[f"{slug}.{name}"] = drawn(fig)
            plt.close("all")
    return found


def test_every_caption_names_only_colours_its_figure_draws(figures):
    problems, checked = [], 0
    for page, text in _pages().items():
        for file, caption in captions(text):
            assert file in figures, f"{page}: figures/{file}.svg is drawn by no page's figures()"
            checked += len(colour_words(caption))
            problems += [f"{page}: {file}: {wrong}" for wrong in mismatches(caption, *figures[file])]
    assert checked, "no caption names a colour: the check checked nothing"
    assert not problems, "captions name colours their figures do not draw:\n" + "\n".join(problems)


def test_a_red_planted_in_a_real_caption_is_found(figures):
    """Planted: the word "red" added to the caption of each real figure that draws no vermillion (nor a
    colour map with red in it)."""
    planted = 0
    for page, text in _pages().items():
        for file, caption in captions(text):
            colours, maps = figures[file]
            if P.RED not in colours and not any("red" in MAP_WORDS.get(m, ()) for m in maps) and not colour_words(caption):
                assert mismatches(caption + " The red line.", *figures[file]), f"{page}: {file}"
                planted += 1
    assert planted > 10


def test_the_check_finds_a_colour_the_figure_does_not_draw():
    """Planted: "red" in a caption whose figure draws only BLUE and TEAL; "green" for TEAL; a heatmap's
    "yellow" passes only with viridis."""
    assert colour_words("The light blue line; a Red dot.") == ["light blue", "red"]
    assert mismatches("the red line", {P.BLUE, P.TEAL}, set()) and not mismatches("the blue line", {P.BLUE}, set())
    assert mismatches("the green band", {P.TEAL}, set()) and not mismatches("the teal band", {P.TEAL}, set())
    assert not mismatches("yellow cells", set(), {"viridis"}) and mismatches("yellow cells", {P.ORANGE}, set())
    text = "![A blue line](figures/x.line.svg)\n\n    **Reading it:** the red dot.\n\nAfter."
    assert captions(text) == [("x.line", "A blue line\n the red dot.")]
