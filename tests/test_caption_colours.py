"""A caption names only colours its figure draws (issue 43, item 7): for every figure on every page (each
lesson's and companion's docstring, and the decoder's gallery page), each colour word in its alt text
and in the **Reading it:** paragraph after it is one of lessons/_palette.py's colours (by the palette's
name for it: vermillion or "orange-red" is RED, never "red", which most readers see as another
colour; "green" is GREEN, never TEAL) that the figure, as its page's
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
    "red": set(), "vermillion": {P.RED}, "vermilion": {P.RED}, "orange-red": {P.RED},  # red only in a colour map
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


def restacked(fig) -> list[str]:
    """The titles of `fig`'s panels if its phone rendition (figures_build/phone.py, run as the build
    runs it) moves them onto a grid of other rows and columns; [] if it keeps the panels where they
    are (or has none). The figure is laid out for the phone afterwards: draw nothing else from it."""
    import io

    import matplotlib

    from figures_build.phone import baseline, needs_phone, relayout
    from figures_build.render import RC_PARAMS
    from site_build.layout import text_sizes

    def places() -> dict[int, tuple[int, int]]:
        return {id(ax): (ax.get_subplotspec().rowspan.start, ax.get_subplotspec().colspan.start)
                for ax in fig.axes if ax.get_visible() and ax.get_subplotspec() is not None}

    with matplotlib.rc_context(RC_PARAMS):  # as render.py saves it: text as text, so its sizes can be read
        svg = io.BytesIO()
        fig.savefig(svg, format="svg", metadata={"Date": None})
        sizes = text_sizes(svg.getvalue())
        if not (sizes and needs_phone(*sizes)):
            return []
        before = places()
        relayout(fig, sizes[0], baseline(fig))
    moved = places() != {key: place for key, place in before.items() if key in places()}
    return [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.get_title()] if moved else []


@pytest.fixture(scope="module")
def drawings(modules) -> dict[str, tuple[tuple[set[str], set[str]], list[str]]]:
    """{figure file without .svg: (what it draws (`drawn`), its panels' titles if its phone rendition
    restacks them (`restacked`))} of every page module's figures()."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    P.install()
    found = {}
    for slug, module in modules.items():
        if callable(getattr(module, "figures", None)):
            for name, fig in module.figures().items():
                colours = drawn(fig)
                found[f"{slug}.{name}"] = (colours, restacked(fig))
            plt.close("all")
    return found


@pytest.fixture(scope="module")
def figures(drawings) -> dict[str, tuple[set[str], set[str]]]:
    """{figure file without .svg: what it draws (`drawn`)} of every page module's figures()."""
    return {file: colours for file, (colours, _) in drawings.items()}


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
    """Planted: the word "red" added to the caption of each real figure without a colour map that shows
    red (a figure that draws vermillion too: its name is vermillion)."""
    planted = 0
    for page, text in _pages().items():
        for file, caption in captions(text):
            colours, maps = figures[file]
            if not any("red" in MAP_WORDS.get(m, ()) for m in maps) and not colour_words(caption):
                assert mismatches(caption + " The red line.", *figures[file]), f"{page}: {file}"
                planted += 1
    assert planted > 10


def test_the_check_finds_a_colour_the_figure_does_not_draw():
    """Planted: "red" in a caption whose figure draws only BLUE and TEAL; "green" for TEAL; a heatmap's
    "yellow" passes only with viridis."""
    assert colour_words("The light blue line; a Red dot.") == ["light blue", "red"]
    assert mismatches("the red line", {P.BLUE, P.TEAL}, set()) and not mismatches("the blue line", {P.BLUE}, set())
    assert mismatches("the red line", {P.RED}, set()) and not mismatches("the vermillion line", {P.RED}, set())
    assert mismatches("the green band", {P.TEAL}, set()) and not mismatches("the teal band", {P.TEAL}, set())
    # "orange-red" glosses vermillion: one word, RED's, not ORANGE's
    assert colour_words("the vermillion (orange-red) line") == ["vermillion", "orange-red"]
    assert not mismatches("the orange-red line", {P.RED}, set()) and mismatches("the orange-red line", {P.ORANGE}, set())
    assert not mismatches("yellow cells", set(), {"viridis"}) and mismatches("yellow cells", {P.ORANGE}, set())
    text = "![A blue line](figures/x.line.svg)\n\n    **Reading it:** the red dot.\n\nAfter."
    assert captions(text) == [("x.line", "A blue line\n the red dot.")]


# --- panels named by where they sit: false on a phone that restacks them ----------------------------

# Words that name a panel by its place in the figure's row or grid. A phone rendition that restacks the
# panels (figures_build/phone.py: three in a row become two rows of two) moves them: the desktop's
# "right" panel is the phone's bottom-left. "above"/"below" are left out: a caption uses them for what
# sits inside one panel ("above the diagonal") or on the page ("Packing without the cut, below").
POSITION_WORDS = ("left", "right", "middle", "centre", "center", "top", "bottom", "upper", "lower")
_PLACE = "(?:far |top |bottom |upper |lower )?(?:" + "|".join(POSITION_WORDS) + ")"
# A place word used as a place: a sentence or clause led by it ("Left, ...", "Right: ..."), "on the left",
# "in the middle", "at the top", or naming a part ("the right panel", "the left-hand grid", "top row").
# Not "done right", nor a hyphenated compound that names what a panel draws ("left-padded", "upper-right
# cells"), true on either rendition.
POSITION_RE = re.compile(
    rf"(?:^|(?<=[.;:]\s)|(?<=\n))({_PLACE})(?=[,:])"  # "Left, ...", "Top left: ..."
    rf"|\b(?:on|in|at|to|from) the ({_PLACE})\b(?!-)"  # "on the left", "at the top"
    rf"|(?<![\w-])({_PLACE})(?:-hand)? (?:panel|grid|plot|chart|map|heatmap|mask|column|row|one|half|side)s?\b",
    re.I)
def position_words(caption: str, titles: list[str]) -> list[str]:
    """The words of `caption` that name a panel by its place, its panels' own `titles` (a panel titled
    "left padding") taken out first."""
    for title in sorted(titles, key=len, reverse=True):
        caption = re.sub(re.escape(title), " ", caption, flags=re.I)
    return [next(group for group in match.groups() if group) for match in POSITION_RE.finditer(caption)]


def test_a_restacked_figures_caption_names_its_panels_by_title_not_place(drawings):
    """Every figure whose phone rendition restacks its panels is captioned (alt text and Reading it) with
    no word that places a panel (left, middle, right, top, ...): on a phone the places change."""
    problems, checked = [], set()
    for page, text in _pages().items():
        for file, caption in captions(text):
            titles = drawings[file][1]
            if titles:
                checked.add(file)
                problems += [f"{page}: {file}: '{word}'" for word in position_words(caption, titles)]
    assert checked, "no figure's phone rendition restacks its panels: the check checked nothing"
    assert not problems, ("a restacked figure's caption names a panel by its place (on a phone the panels "
                          "move; name each by its title):\n" + "\n".join(problems))


def test_the_position_check_finds_a_panel_named_by_place():
    """Planted: position_ids' old caption ("Left, ... Middle, ... Right, ..."), and a title with a place word."""
    old = ("a blue cell is a key a query may read. Left, a padded row done right. Middle, two documents "
           "packed into one row. Right, the same ids without the cut.")
    titles = ["left padding", "packed, cut", "packed, not cut"]
    assert position_words(old, titles) == ["Left", "Middle", "Right"]
    assert position_words("On the left, ...; in the middle, ...; the top panel; Top left: x", titles) == [
        "left", "middle", "top", "Top left"]
    assert position_words("the right-hand grid, the lower row; At the bottom, y", titles) == ["right", "lower", "bottom"]
    assert position_words("under left padding, a left-padded row done right; the upper-right cells are zero; "
                          "Packing without the cut, below. Everything above the diagonal", titles) == []
