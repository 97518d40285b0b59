"""project/cache.py: the build's one content-addressed cache."""

from __future__ import annotations

from project.cache import ContentCache, content_key


def test_the_key_is_the_content_and_tells_apart_what_differs():
    assert content_key("a", b"b", [1, 2]) == content_key("a", b"b", [1, 2])
    assert content_key("ab", "c") != content_key("a", "bc"), "parts are length-prefixed"
    assert content_key({"x": 1, "y": 2}) == content_key({"y": 2, "x": 1}), "JSON parts by sorted keys"
    assert content_key("a") != content_key(b"a", "")
    assert len(content_key()) == 64


def test_a_store_round_trips_writes_only_changes_and_keeps_the_recent(tmp_path):
    cache = ContentCache(tmp_path, "things")
    assert not cache.save(), "nothing to write"
    cache["k1"], cache["k2"], cache["k3"] = "one", {"two": 2}, [3]
    assert cache.save() and not cache.save()
    again = ContentCache(tmp_path, "things")
    assert again.entries == {"k1": "one", "k2": {"two": 2}, "k3": [3]} and "k2" in again and again["k3"] == [3]
    again.touch("k1")  # used last: kept by a limit
    assert again.save(limit=2) and list(ContentCache(tmp_path, "things").entries) == ["k3", "k1"]
    again.keep({"k1"})
    assert again.save() and ContentCache(tmp_path, "things").entries == {"k1": "one"}
    assert not list(tmp_path.rglob(".things.json.*")), "no temporary file left"


def test_an_unreadable_store_is_empty(tmp_path):
    path = tmp_path / ".cache" / "content" / "broken.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert ContentCache(tmp_path, "broken").entries == {}
