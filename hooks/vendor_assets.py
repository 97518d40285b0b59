"""Serve KaTeX and mermaid from the site itself, copied from node_modules.

`npm ci` (run by `make serve` / `make test` from package-lock.json) installs
the exact versions; this hook adds the few files a page needs to the build as
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
    "katex/katex.min.js": "katex/dist/katex.min.js",
    "katex/katex.min.css": "katex/dist/katex.min.css",
    "katex/LICENSE": "katex/LICENSE",
    "mermaid/mermaid.min.js": "mermaid/dist/mermaid.min.js",
    "mermaid/LICENSE": "mermaid/LICENSE",
}
# KaTeX's CSS lists woff2 first; every current browser takes it and stops there.
FONT_GLOB = ("katex/fonts", "katex/dist/fonts", "*.woff2")


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    node_modules = Path(config.config_file_path).resolve().parent / "node_modules"
    wanted = dict(VENDOR)
    font_site, font_src, pattern = FONT_GLOB
    for font in sorted((node_modules / font_src).glob(pattern)):
        wanted[f"{font_site}/{font.name}"] = f"{font_src}/{font.name}"
    missing = [src for src in wanted.values() if not (node_modules / src).is_file()]
    if missing or len(wanted) == len(VENDOR):
        raise PluginError(
            f"hooks/vendor_assets.py: node_modules/{missing[0] if missing else font_src + '/*.woff2'} is missing; "
            "run `npm ci` (or `make serve`, which runs it) to install the site's math and diagram libraries"
        )
    for site_path, src in wanted.items():
        files.append(File.generated(config, f"assets/vendor/{site_path}", abs_src_path=str(node_modules / src)))
    return files
