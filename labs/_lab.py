"""What every lab shares: the verdict at the end.

A lab is a percent-format script (`# %%` cells) that runs top to bottom with
`python labs/<name>.py`, states its claims as checks, and ends with
`verdict(...)`: it prints each check and exits 0 when every claim holds, 1
when one does not. On the site the same file is a notebook executed when the
site is built, so the numbers on the page are the numbers the code gives.
"""

from __future__ import annotations

import sys


def verdict(claims: dict[str, bool]) -> None:
    """Print each claim as HOLDS or FAILS; exit 0 if all hold, 1 otherwise.

    Args:
        claims: one sentence per claim -> whether the lab's numbers bear it out.
    """
    width = max(len(text) for text in claims)
    for text, holds in claims.items():
        print(f"{'HOLDS' if holds else 'FAILS'}  {text:<{width}}")
    failed = [text for text, holds in claims.items() if not holds]
    print(f"verdict: {len(claims) - len(failed)} of {len(claims)} claims hold")
    if failed and not _in_notebook():
        sys.exit(1)
    if failed:  # in the site's notebook build: stop the build, naming the claim
        raise AssertionError(f"claim does not hold: {failed[0]}")


def _in_notebook() -> bool:
    return "ipykernel" in sys.modules
