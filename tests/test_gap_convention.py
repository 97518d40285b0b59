"""One gap convention across the site: query position minus key position (m − n, or i − j in
ALiBi's letters). A repository-wide scan: no page, lab, companion or code comment writes the gap
the other way round (n − m, j − i, "key minus query") unless it names the paper whose notation
that is, and every symbol-table row that defines a gap says which way it is taken."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*ROOT.glob("lessons/*.py"), *ROOT.glob("papers/*.py"), *ROOT.glob("labs/*.py"),
                  *ROOT.glob("challenges/**/*.py"), *ROOT.glob("docs/*.md"), *ROOT.glob("docs/challenges/*.md"),
                  ROOT / "README.md"])
# the gap written key minus query: n − m (query m, key n), j − i (query i, key j), in words
BACKWARDS = re.compile(r"(?<![\w.])n\s*[-−]\s*m(?![\w(])|(?<![\w.\[])j\s*[-−]\s*i(?![\w(\]])|key (?:position )?minus "
                       r"(?:the )?query|R_\{n-m\}|R_\(n-m\)")
# a line that quotes a paper's own notation, and says so
NAMED_AS_THE_PAPERS = re.compile(r"paper|RoFormer|Eq\.|Eqs\.|\\boldsymbol")
SAYS_WHICH_WAY = re.compile(r"query position minus key position|query minus key|m\s*[-−]\s*n|i\s*[-−]\s*j")


def _lines():
    for path in SOURCES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield path.relative_to(ROOT), number, line


def test_no_page_writes_the_gap_key_minus_query():
    backwards = [f"{path}:{number}: {line.strip()[:120]}" for path, number, line in _lines()
                 if BACKWARDS.search(line) and not NAMED_AS_THE_PAPERS.search(line)]
    assert not backwards, "the gap is query minus key (m - n) everywhere; these lines write it the other way:\n" + \
        "\n".join(backwards)


def test_every_symbol_table_row_that_defines_a_gap_says_which_way():
    # a row whose first cell is a symbol and whose meaning starts by naming a gap defines one
    rows = [(path, number, line) for path, number, line in _lines()
            if line.startswith("| $") and line.count("|") > 3
            and re.match(r"(the |a )?gap\b", line.split("|")[2].strip())]
    assert rows, "no symbol table defines a gap: the scan is looking in the wrong place"
    unsaid = [f"{path}:{number}: {line[:120]}" for path, number, line in rows if not SAYS_WHICH_WAY.search(line)]
    assert not unsaid, "a symbol table defines a gap without saying it is query minus key:\n" + "\n".join(unsaid)


def test_the_scan_can_fail():
    assert BACKWARDS.search("the gap n - m between query and key")
    assert BACKWARDS.search("behind = j − i for keys") and BACKWARDS.search("key position minus query position")
    assert not BACKWARDS.search("the gap m - n") and not BACKWARDS.search("x[..., d // 2:] and n_pairs - m")
    assert NAMED_AS_THE_PAPERS.search("the paper writes n - m")
