"""Serve KaTeX's CSS and fonts and mermaid from the site itself, copied from node_modules
(and, in the offline copy, Material's file:// search shim, iframe-worker).

`npm ci` (run by `make serve` / `make test` from package-lock.json) installs
the exact versions; the site plugin adds the few files a page needs to the build as
`assets/vendor/...`, so no page ever asks a CDN for them and the repository
does not carry megabytes of vendored JavaScript.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

# site path under assets/vendor/ -> path under node_modules/
VENDOR = {
    "katex/katex.min.css": "katex/dist/katex.min.css",
    "katex/LICENSE": "katex/LICENSE",
    "mermaid/mermaid.esm.min.mjs": "mermaid/dist/mermaid.esm.min.mjs",
    "mermaid/LICENSE": "mermaid/LICENSE",
}
# (site dir, node_modules dir, pattern): KaTeX's CSS lists woff2 first and every
# current browser stops there; mermaid's ES-module build loads only the chunks a
# page's diagram types need (a flowchart page fetches a fraction of the 3.5 MB
# single-file build).
GLOBS = [
    ("katex/fonts", "katex/dist/fonts", "*.woff2"),
    ("mermaid/chunks/mermaid.esm.min", "mermaid/dist/chunks/mermaid.esm.min", "*.mjs"),
]
# The offline copy only (site_build/publish.py): the Web Worker shim Material's
# search needs on file://, which Material would otherwise fetch from unpkg.
OFFLINE_VENDOR = {
    "iframe-worker/shim.js": "iframe-worker/shim/index.js",
    "iframe-worker/LICENSE": "iframe-worker/LICENSE",
}


def add_vendor_files(files: Files, config: MkDocsConfig, root: Path, *, offline: bool = False,
                     mermaid: bool = True) -> None:
    """Add the vendored files a page needs to `files`, as assets/vendor/...: with
    `offline`, the offline copy's shim too; without `mermaid`, none of mermaid's
    scripts (only its licence: the diagrams were drawn by it at build time)."""
    node_modules = root / "node_modules"
    wanted = {**VENDOR, **(OFFLINE_VENDOR if offline else {})}
    missing = [src for src in wanted.values() if not (node_modules / src).is_file()]
    for site_dir, src_dir, pattern in GLOBS:
        found = sorted((node_modules / src_dir).glob(pattern))
        missing += [] if found else [f"{src_dir}/{pattern}"]
        wanted.update({f"{site_dir}/{f.name}": f"{src_dir}/{f.name}" for f in found})
    if missing:
        raise PluginError(
            f"node_modules/{missing[0]} is missing; run `npm ci` "
            "(or `make serve`, which runs it) to install the site's math, diagram and search libraries"
        )
    for site_path, src in wanted.items():
        if mermaid or not (site_path.startswith("mermaid/") and site_path.endswith(".mjs")):
            files.append(File.generated(config, f"assets/vendor/{site_path}", abs_src_path=str(node_modules / src)))
