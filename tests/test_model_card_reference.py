"""lessons.model_card against transformers itself, without torch: every lessons/gallery/<slug>.json config,
explained by the lesson, agrees per layer with tests/data/gallery_vectors.json (what each model's own
transformers config and rotary classes compute; written by tests/reference/make_vectors.py, recomputed live by
tests/reference/check_live.py). Also the gallery files' own format."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lessons.model_card import explain
from modelcard.report import card_json

ROOT = Path(__file__).resolve().parents[1]
GALLERY_DIR = ROOT / "lessons" / "gallery"
VECTORS = json.loads((ROOT / "tests" / "data" / "gallery_vectors.json").read_text(encoding="utf-8"))
RECORDS = {record["slug"]: record for record in VECTORS["gallery"]}
FILES = {path.stem: path for path in sorted(GALLERY_DIR.glob("*.json"))}
ENTRY_KEYS = ("name", "repo", "read_from", "secondary", "note", "reading", "config")
RTOL = 1e-5


def _close(got, want) -> bool:
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    return got.shape == want.shape and bool(np.all(np.abs(got - want) <= RTOL * np.abs(want)))


def _card_by_layer(card: dict) -> dict[int, tuple[list[float], float]]:
    """The card's rope groups expanded to the layers they name: layer -> (inv_freq, attention_factor)."""
    by_layer: dict[int, tuple[list[float], float]] = {}
    for group in card["rope"]:
        for layer in group["layers"]:
            assert layer not in by_layer, f"layer {layer} is in two rope groups"
            by_layer[layer] = (group["inv_freq"], group["attention_factor"])
    return by_layer


def test_one_gallery_file_per_vectors_record_and_the_other_way_round():
    assert sorted(FILES) == sorted(RECORDS)
    assert len(RECORDS) == len(VECTORS["gallery"]), "a slug is recorded twice"


def test_vectors_record_the_library_they_came_from():
    assert set(VECTORS["versions"]) == {"transformers", "torch"}
    for record in VECTORS["gallery"]:
        assert record["versions"] == VECTORS["versions"], record["slug"]


@pytest.mark.parametrize("slug", sorted(FILES))
def test_gallery_file_format(slug):
    entry = json.loads(FILES[slug].read_text(encoding="utf-8"))
    assert tuple(entry) == ENTRY_KEYS, f"{slug}: keys {list(entry)}"
    for key in ("name", "repo", "read_from", "note", "reading"):
        assert isinstance(entry[key], str) and entry[key].strip(), f"{slug}: {key} is empty"
    assert isinstance(entry["secondary"], bool)
    assert isinstance(entry["config"], dict) and isinstance(entry["config"].get("model_type"), str)
    assert "/" in entry["repo"], f"{slug}: repo is owner/name"


@pytest.mark.parametrize("slug", sorted(RECORDS))
def test_card_agrees_with_transformers_per_layer(slug):
    want = RECORDS[slug]
    config = json.loads(FILES[slug].read_text(encoding="utf-8"))["config"]
    card = card_json(explain(config))
    by_layer = _card_by_layer(card)
    assert set(by_layer) <= set(range(want["n_layers"])), f"card names layers {sorted(by_layer)}"
    for layer, ref in enumerate(want["layers"]):
        if ref is None:
            assert layer not in by_layer, f"layer {layer}: transformers applies no RoPE there"
            continue
        assert layer in by_layer, f"layer {layer}: transformers applies RoPE there, the card does not say"
        inv_freq, attention_factor = by_layer[layer]
        assert _close(inv_freq, ref["inv_freq"]), f"layer {layer}: inv_freq"
        assert _close([attention_factor], [ref["attention_factor"]]), f"layer {layer}: attention factor"


@pytest.mark.parametrize("slug", sorted(RECORDS))
def test_card_nope_layers_and_alibi_slopes_agree_with_transformers(slug):
    want = RECORDS[slug]
    config = json.loads(FILES[slug].read_text(encoding="utf-8"))["config"]
    card = card_json(explain(config))
    assert sorted(card["nope_layers"]) == want["nope_layers"]
    if want["alibi_slopes"] is None:
        assert card["alibi_slopes"] is None
    else:
        assert card["alibi_slopes"] is not None and _close(card["alibi_slopes"], want["alibi_slopes"])
