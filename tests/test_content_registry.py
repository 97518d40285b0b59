"""The registries the build reads as text (so its own process runs no content): the challenges'
registry, read with ast, says what importing it says."""

from __future__ import annotations

import dataclasses

from site_build.content import ChallengeEntry, challenge_registry
from tests.conftest import ROOT


def test_the_challenge_registry_read_as_text_is_the_imported_one():
    from challenges import CHALLENGES

    fields = [f.name for f in dataclasses.fields(ChallengeEntry)]
    read = challenge_registry(ROOT)
    assert read and [tuple(getattr(c, f) for f in fields) for c in read] == \
        [tuple(getattr(c, f) for f in fields) for c in CHALLENGES]


def test_a_project_without_challenges_has_none(tmp_path):
    assert challenge_registry(tmp_path) == []
    (tmp_path / "challenges").mkdir()
    (tmp_path / "challenges" / "__init__.py").write_text(
        'CHALLENGES = (Challenge(number="01", title="T", level="easy", package="challenges.c01", '
        'starter_name="s.py", page="challenges/01.md"),)\n')
    assert challenge_registry(tmp_path) == [ChallengeEntry("01", "T", "challenges.c01", "s.py", "challenges/01.md")]
