"""The build's one content-addressed cache: one key scheme, one store.

Every expensive result of the build is kept under the sha256 of everything it depends on
(`content_key`): a lesson's figures (its code hash and the renderer's), a typeset formula
(KaTeX's version, the TeX, display or inline), a drawn diagram (mermaid's and KaTeX's
versions, the drawing settings, the text), a page's measured section heights (the layout
and the page's HTML), and the content snapshot the site build takes (every lesson's code
hash and the decoder's files). A changed input is a new key, so nothing is ever stale:
an old entry is only unused, and each store keeps what its last build used.

A store is `.cache/content/<kind>.json` ({key: value} in the order entries were last used,
written atomically). A missing or unreadable store is empty: the cache is only ever a shortcut.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

FOLDER = Path(".cache") / "content"


def content_key(*parts) -> str:
    """sha256 (hex) of `parts`, in order: bytes as they are, str as UTF-8, anything else as its
    JSON (sorted keys); each part length-prefixed, so ("ab", "c") and ("a", "bc") differ."""
    digest = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else part.encode() if isinstance(part, str) else \
            json.dumps(part, sort_keys=True).encode()
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


class ContentCache:
    """One kind of result ({content key: JSON value}) of the project at `root`, in
    `.cache/content/<kind>.json`. Reading and writing entries is in memory; `save()` writes."""

    def __init__(self, root: Path, kind: str):
        self.path = Path(root) / FOLDER / f"{kind}.json"
        try:
            self.entries: dict[str, object] = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.entries = {}
        self._saved = dict(self.entries)

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def __getitem__(self, key: str):
        return self.entries[key]

    def __setitem__(self, key: str, value) -> None:
        self.entries[key] = value

    def get(self, key: str, default=None):
        return self.entries.get(key, default)

    def touch(self, key: str) -> None:
        """Mark an entry as just used (`save(limit=...)` keeps the most recently used)."""
        if key in self.entries:
            self.entries[key] = self.entries.pop(key)

    def keep(self, keys) -> None:
        """Forget every entry whose key is not in `keys` (what the last build used)."""
        wanted = set(keys)
        self.entries = {k: v for k, v in self.entries.items() if k in wanted}

    def save(self, limit: int | None = None) -> bool:
        """Write the store if its entries changed since it was read or last saved (atomically:
        a temporary file renamed over it), keeping the `limit` most recently used if given.
        Returns whether it wrote."""
        if limit is not None:
            self.entries = dict(list(self.entries.items())[-limit:])
        if self.entries == self._saved and list(self.entries) == list(self._saved):
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(self.entries).encode()
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._saved = dict(self.entries)
        return True
