"""Exercises with a checker: `python -m challenges` lists them.

A challenge is a subpackage `challenges/c<NN>/` holding

- `starter.py`: the file a learner fills in (signatures and docstrings, no bodies);
- `solution.py`: the reference answer, written as a learner would write it;
- `checks.py`: `FUNCTIONS` (the names the learner's file must define) and
  `PROPERTIES` (what a correct answer does, each a function that raises
  `challenges._props.Fail` with a one-line hint, naming the classic mistake
  when it recognises one).

`python -m challenges check NN FILE` imports FILE in a separate process with a
time limit (`challenges._child`) and prints one `PASS name` or
`FAIL name: hint` line per property.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Challenge:
    number: str  # two digits, as in the page's name: "04"
    title: str
    level: str
    package: str  # the subpackage holding starter.py, solution.py and checks.py
    starter_name: str  # the file name `starter` writes by default
    page: str  # the challenge page, under docs/


CHALLENGES: tuple[Challenge, ...] = (
    Challenge(
        number="01",
        title="Attention: scaled dot-product attention with a causal mask",
        level="easy",
        package="challenges.c01",
        starter_name="attention.py",
        page="challenges/01-attention.md",
    ),
    Challenge(
        number="02",
        title="A learned position table: lookup, add, and the end of the table",
        level="easy",
        package="challenges.c02",
        starter_name="learned_positions.py",
        page="challenges/02-learned-positions.md",
    ),
    Challenge(
        number="03",
        title="ALiBi: slopes for any head count and the distance bias",
        level="medium",
        package="challenges.c03",
        starter_name="alibi.py",
        page="challenges/03-alibi.md",
    ),
    Challenge(
        number="04",
        title="Positional encodings: the sinusoidal table and half-split RoPE",
        level="medium",
        package="challenges.c04",
        starter_name="positional_encodings.py",
        page="challenges/04-positional-encodings.md",
    ),
    Challenge(
        number="05",
        title="Decoding with a KV cache: positions and the rotated key",
        level="medium",
        package="challenges.c05",
        starter_name="kv_cache.py",
        page="challenges/05-kv-cache.md",
    ),
    Challenge(
        number="06",
        title="RoPE layouts: converting a checkpoint's q/k rows",
        level="medium",
        package="challenges.c06",
        starter_name="rope_layouts.py",
        page="challenges/06-rope-layouts.md",
    ),
    Challenge(
        number="07",
        title="Stretching the context: PI, NTK-aware, YaRN and the Llama 3 rule",
        level="hard",
        package="challenges.c07",
        starter_name="stretching.py",
        page="challenges/07-stretching.md",
    ),
    Challenge(
        number="08",
        title="Position ids: left padding and packing",
        level="medium",
        package="challenges.c08",
        starter_name="position_ids.py",
        page="challenges/08-position-ids.md",
    ),
)


def find(number: str) -> Challenge | None:
    """The challenge with this number ("04" or "4"), or None."""
    wanted = number.strip().lstrip("0") or "0"
    return next((c for c in CHALLENGES if (c.number.lstrip("0") or "0") == wanted), None)
