"""Keep the executed notebooks true to the lessons' current code.

mkdocs-jupyter caches an executed notebook keyed on the notebook's own text,
so a change in a lesson the notebook imports would leave stale outputs on the
page. This hook keeps a hash of every lesson source and clears that cache
whenever it changes; an unchanged tree still reuses the cache.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path


def on_config(config):
    root = Path(config.config_file_path).resolve().parent
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None or not jupyter.config.get("cache", True):
        return config
    cache_dir = root / jupyter.config["cache_dir"]
    digest = hashlib.sha256()
    for path in sorted((root / "lessons").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    stamp = root / ".cache" / "notebook-lessons.sha256"
    if not stamp.exists() or stamp.read_text() != digest.hexdigest():
        shutil.rmtree(cache_dir, ignore_errors=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest.hexdigest())
    return config
