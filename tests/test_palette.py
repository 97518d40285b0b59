"""One home for the figure colours: lessons/_palette.py (issue 24). No module of
lessons/, papers/, labs/ or challenges/ but the palette writes a colour as a hex
literal, so two pages cannot drift apart; the palette's CSS block carries the
same values to the site's stylesheet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lessons import _palette

ROOT = Path(__file__).resolve().parents[1]
COLOUR_LITERAL = re.compile(r"""["'](#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?)["']""")
FOLDERS = ("lessons", "papers", "labs", "challenges")


def hex_colours(root: Path = ROOT) -> list[str]:
    """'path:line: #xxxxxx' for every colour literal (a quoted #rgb or #rrggbb) outside the palette."""
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            if path == root / "lessons" / "_palette.py":
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found += [f"{path.relative_to(root)}:{number}: {m}" for m in COLOUR_LITERAL.findall(line)]
    return found


def test_no_colour_literal_outside_the_palette():
    found = hex_colours()
    assert not found, "write these as names from lessons._palette:\n" + "\n".join(found)


def test_the_check_finds_a_planted_colour(tmp_path):
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "_palette.py").write_text('BLUE = "#2563eb"\n')
    (tmp_path / "labs").mkdir()
    (tmp_path / "labs" / "planted.py").write_text('x = 1\nax.plot(x, color="#16A34A")\nax.bar(x, color=\'#abc\')\n')
    assert hex_colours(tmp_path) == ["labs/planted.py:2: #16A34A", "labs/planted.py:3: #abc"]


def test_every_palette_colour_is_a_hex_value_and_in_the_css_block():
    css = _palette.css_variables()
    assert css.startswith(":root {") and css.rstrip().endswith("}")
    for name, value in _palette.COLOURS.items():
        assert re.fullmatch(r"#[0-9a-f]{6}", value), (name, value)
        assert f"--primer-{name}: {value};" in css
    values = list(_palette.COLOURS.values())
    assert len(set(values)) == len(values), "two names for one colour"
    public = {v for k, v in vars(_palette).items() if k.isupper() and isinstance(v, str)}
    assert public == set(values), "every named colour is in COLOURS (and so in the CSS)"


# --- colour-blind readers: every two colours one figure can show stay apart ---------------------

# CIELAB distance (ΔE*ab, CIE 1976) below which two line colours are taken to be confusable. About
# 2.3 is a just-noticeable difference for patches side by side; thin lines and markers, seen apart
# across a plot, need several times more. 15 keeps Okabe–Ito's closest pair (orange and yellow
# under deuteranopia, 17) and rejects Tol's teal beside Okabe–Ito's bluish green (14 under protanopia).
MIN_DISTANCE = 15.0
VISIONS = ("normal", "deuteranomaly", "protanomaly")  # the CVD ones simulated at severity 100: dichromacy


def _rgb(colour: str):
    import numpy as np

    return np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def seen(colour: str, vision: str):
    """`colour` (#rrggbb) as a reader with `vision` sees it, sRGB in [0, 1] (Machado et al. 2009, via colorspacious)."""
    import numpy as np
    from colorspacious import cspace_convert

    if vision == "normal":
        return _rgb(colour)
    simulated = cspace_convert(_rgb(colour), {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}, "sRGB1")
    return np.clip(simulated, 0, 1)


def too_close(colours: dict[str, str]) -> list[str]:
    """Every two of `colours` ({name: #rrggbb}) nearer than MIN_DISTANCE for some reader, described."""
    from itertools import combinations

    from colorspacious import deltaE

    found = []
    for (a, ca), (b, cb) in combinations(colours.items(), 2):
        for vision in VISIONS:
            distance = deltaE(seen(ca, vision), seen(cb, vision), input_space="sRGB1", uniform_space="CIELab")
            if distance < MIN_DISTANCE:
                found.append(f"{a} {ca} and {b} {cb}: ΔE {distance:.1f} ({vision})")
    return found


# What one figure can show together: the schemes, RoPE as trained with every method, the default cycle's
# first six (a figure with more series than that picks its own).
GROUPS = {
    "schemes": {name: look.colour for name, look in _palette.SCHEME_LOOKS.items()},
    "methods": {name: look.colour for name, look in _palette.METHOD_LOOKS.items()},
    "cycle": {f"cycle[{k}]": colour for k, colour in enumerate(_palette.CYCLE[:6])},
}


@pytest.mark.parametrize("palette", ["light", "dark"])
@pytest.mark.parametrize("group", GROUPS)
def test_the_colours_one_figure_shows_stay_apart_for_colour_blind_readers(group, palette):
    """In the figures and in their dark twins (each colour swapped for its twin in _palette.DARK)."""
    colours = {name: _palette.DARK.get(c, c) if palette == "dark" else c for name, c in GROUPS[group].items()}
    close = too_close(colours)
    assert not close, f"{group}, {palette} palette: too close to tell apart:\n" + "\n".join(close)


def test_the_colour_blind_check_finds_a_confusable_pair():
    assert too_close({"green": _palette.GREEN, "teal": _palette.TEAL}), "Okabe–Ito green and Tol teal: ΔE 14 (protanopia)"
    assert too_close({"red": "#ff0000", "green": "#00aa00"}), "the classic red and green"
    assert not too_close({"blue": _palette.BLUE, "orange": _palette.ORANGE})


def test_every_scheme_and_method_has_a_look_of_its_own():
    """A colour means one scheme or one method on every page, and each look has its own marker and dash."""
    looks = {**{f"scheme {k}": v for k, v in _palette.SCHEME_LOOKS.items()},
             **{f"method {k}": v for k, v in _palette.METHOD_LOOKS.items() if k != "none"}}
    assert _palette.METHOD_LOOKS["none"] is _palette.SCHEME_LOOKS["rope"], "RoPE as trained is drawn as RoPE"
    colours = [look.colour for look in looks.values()]
    assert len(set(colours)) == len(colours), looks
    for family in (_palette.SCHEME_LOOKS, _palette.METHOD_LOOKS):
        shapes = [(look.marker, str(look.dash)) for look in family.values()]
        assert len(set(shapes)) == len(shapes), family


# --- the looks are the ones the figures draw ----------------------------------------------------


def _labelled_looks() -> dict[str, _palette.Look]:
    """{series label as the figures write it: its look}, from the lessons' own name tables."""
    from lessons import context_extension, measured

    labels = {label: _palette.SCHEME_LOOKS[name] for name, label in measured.SCHEME_NAMES.items()}
    labels |= {label: _palette.METHOD_LOOKS[name] for name, label in measured.METHOD_NAMES.items()}
    labels |= {label: _palette.METHOD_LOOKS[name] for label, name in context_extension.METHOD_LABELS.items()}
    labels |= {"RoPE as trained": _palette.SCHEME_LOOKS["rope"], "sinusoidal codes added": _palette.SCHEME_LOOKS["sinusoidal"]}
    return labels


def drawn_off_look(figures: dict, labels: dict[str, _palette.Look]) -> list[str]:
    """'figure: label drawn #xxxxxx, its look is #yyyyyy' for every line whose label (or the part before
    ', ') names a scheme or method in `labels` and is not drawn in that look's colour."""
    from matplotlib.colors import to_hex

    found = []
    for name, figure in figures.items():
        for ax in figure.axes:
            for line in ax.get_lines():
                label = line.get_label()
                look = labels.get(label) or labels.get(label.split(", ")[0])
                if look and to_hex(line.get_color()) != look.colour:
                    found.append(f"{name}: {label!r} drawn {to_hex(line.get_color())}, its look is {look.colour}")
    return found


@pytest.mark.parametrize("slug", ["positional", "context_extension", "measured", "peng2023_yarn"])
def test_each_figure_draws_a_scheme_or_method_in_its_look(modules, slug):
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    figures = modules[slug].figures()
    try:
        lines = [line.get_label() for figure in figures.values() for ax in figure.axes for line in ax.get_lines()]
        labels = _labelled_looks()
        assert any(label in labels or label.split(", ")[0] in labels for label in lines), f"{slug}: no series checked"
        off = drawn_off_look(figures, labels)
        assert not off, "\n".join(off)
    finally:
        plt.close("all")


def test_the_look_check_finds_a_line_in_another_colour():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots()
    ax.plot([0, 1], color=_palette.RED, label="RoPE")
    ax.plot([0, 1], **_palette.SCHEME_LOOKS["alibi"].line(), label="ALiBi")
    try:
        assert drawn_off_look({"planted": figure}, _labelled_looks()) == [
            f"planted: 'RoPE' drawn {_palette.RED}, its look is {_palette.BLUE}"]
    finally:
        plt.close(figure)


# --- the dark twins -----------------------------------------------------------------------------

SVG = b"""<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="50pt">
 <g id="patch_1"><path d="M 0 0 L 100 0" style="fill: #ffffff"/></g>
 <path d="M 0 0 L 1 1" style="fill: none; stroke: #332288; stroke-width: 1.5"/>
 <path d="M 0 0 L 1 1" style="stroke: #0072b2"/>
 <text style="font-size: 9px; fill: #ffffff" x="1" y="1">on a dark cell</text>
 <text style="font-size: 9px" x="1" y="2">a tick label</text>
</svg>"""


def test_a_dark_twin_swaps_the_palette_keeps_white_text_and_gives_text_the_light_ink():
    from figures_build.render import dark_twin

    twin = dark_twin(SVG, _palette.DARK, _palette.DARK_BACKGROUND)
    assert f'style="fill: {_palette.DARK_BACKGROUND}"'.encode() in twin, "the white background is the page's"
    assert f"stroke: {_palette.DARK[_palette.INDIGO]}".encode() in twin and b"#332288" not in twin
    assert b"stroke: #0072b2" in twin, "a colour without a twin holds on both backgrounds"
    assert b'<text style="font-size: 9px; fill: #ffffff"' in twin, "white text stays white"
    assert f"<style>text {{ fill: {_palette.DARK[_palette.INK]} }}</style>".encode() in twin
    assert dark_twin(SVG, _palette.DARK, _palette.DARK_BACKGROUND) == twin, "the same bytes every time"


def test_every_figure_has_a_dark_twin_with_no_white_shape(tmp_path_factory):
    """The figure build writes x.dark.svg beside each x.svg, and no shape of a twin is white (a
    white block on the dark page); white is left only in text."""
    from tests.conftest import build_figures

    build_figures(tmp_path_factory)
    figures = ROOT / "docs" / "figures"
    light = sorted(p for p in figures.glob("*.svg") if not p.name.endswith(".dark.svg"))
    assert light
    for path in light:
        twin = path.with_name(path.stem + ".dark.svg")
        assert twin.is_file(), f"{path.name} has no dark twin"
        shapes = re.sub(rb"<text\b[^>]*>", b"", twin.read_bytes())
        assert b"#ffffff" not in shapes, f"{twin.name}: a white shape"
