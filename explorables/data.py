"""What the explorables publish with the site (see explorables/__init__.py): the manifest the loader
(docs/javascripts/explorables.js) reads, the shared core and plot helpers, each explorable's script and data, and the files it
loads on demand. Asked by site_build/published.py (PUBLISHING_MODULES) at build time."""

from __future__ import annotations

import gzip
import importlib
import json
from pathlib import Path

from explorables import REGISTRY, Explorable

WEB = Path(__file__).parent / "web"
MANIFEST = "javascripts/explorables/manifest.js"  # {name: [files in load order]}, for the loader
SHARED = ("core", "plot")  # loaded before any explorable, in this order


def _call(spec: str):
    module, function = spec.split(":")
    return getattr(importlib.import_module(module), function)()


def script_path(name: str) -> str:
    """The site path of web/<name>.js."""
    return f"javascripts/explorables/{name}.js"


def data_path(name: str) -> str:
    """The site path of an explorable's data script."""
    return f"assets/explorables/{name}.js"


def data_script(explorable: Explorable) -> bytes:
    """The data of `explorable` as a script that files it under window.PrimerExplorableData."""
    text = json.dumps(_call(explorable.data), separators=(",", ":"), allow_nan=False)
    return (f"(window.PrimerExplorableData = window.PrimerExplorableData || {{}})"
            f"[{json.dumps(explorable.name)}] = {text};\n").encode()


def files(explorable: Explorable) -> dict[str, bytes]:
    """{site path: bytes} an explorable loads when it is mounted, in load order: the shared core
    and plot, its data (if any), its script."""
    out = {script_path(name): (WEB / f"{name}.js").read_bytes() for name in SHARED}
    if explorable.data:
        out[data_path(explorable.name)] = data_script(explorable)
    out[script_path(explorable.name)] = (WEB / f"{explorable.name}.js").read_bytes()
    return out


def gzip_size(data: bytes) -> int:
    """Bytes of `data` gzip-compressed at level 9 (as a static host sends it)."""
    return len(gzip.compress(data, 9, mtime=0))


def sizes(explorable: Explorable) -> dict[str, int]:
    """{"mounted": gzip bytes of what mounting loads, "extra": gzip bytes of its on-demand files}."""
    extra = _call(explorable.extra) if explorable.extra else {}
    return {"mounted": sum(gzip_size(b) for b in files(explorable).values()),
            "extra": sum(gzip_size(b) for b in extra.values())}


def assets() -> dict[str, bytes]:
    """Every file the explorables publish: {site path: bytes}: the manifest (per explorable, the
    files the loader loads, in order), each explorable's files and its on-demand files, and the
    core (which the decoder loads too, with or without an explorable)."""
    out, lists = {script_path("core"): (WEB / "core.js").read_bytes()}, {}
    for name, e in REGISTRY.items():
        mounted = files(e)
        lists[name] = list(mounted)
        out.update(mounted)
        if e.extra:
            out.update(_call(e.extra))
    text = json.dumps(lists, separators=(",", ":"))
    out[MANIFEST] = f"window.PrimerExplorablesManifest = {text};\n".encode()
    return out
