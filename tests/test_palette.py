"""One home for the figure colours: lessons/_palette.py (issue 24). No module of
lessons/, papers/, labs/ or challenges/ but the palette writes a colour as a hex
literal, so two pages cannot drift apart; the palette's CSS block carries the
same values to the site's stylesheet."""

from __future__ import annotations

import re
from pathlib import Path

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
