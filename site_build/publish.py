"""`make site`: the site for its public address, with a zip of the offline copy inside.

    SITE_URL=https://<owner>.github.io/<repo>/ python -m site_build.publish [--site-dir site]

1. builds the offline copy (`mkdocs_build(..., offline=True)`: Material's
   offline plugin, no directory URLs, the search index inlined as a script;
   the primer plugin turns instant navigation off and serves the file://
   search shim from the site) into build/offline/, and zips it as one folder;
2. builds the site for SITE_URL (canonical links, sitemap.xml and the 404
   page follow it) into --site-dir, with that zip at OFFLINE_ZIP, which the
   home page links (`offline_zip=`: the primer plugin adds the file and the
   link only when its `offline_zip` option names a zip: `make serve` has none).

The plugin side of the offline copy (`OfflineCopy`: the offline build's settings, the zip
a site serves and the home page's link to it) lives here too, so one file says what the
offline copy is.
"""

from __future__ import annotations

import argparse
import os
import posixpath
import sys
import time
import zipfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from site_build.build import BuildError, mkdocs_build

OFFLINE_ZIP = "download/positional-primer-offline.zip"  # where the site serves the zip
ZIP_FOLDER = "positional-primer"                        # what unzipping it makes
# Material's offline plugin fetches this shim (a Web Worker on file://, for
# search) from unpkg unless a polyfill naming iframe-worker is already listed:
# the site's own copy, from npm (site_build/vendor.py).
SHIM = "assets/vendor/iframe-worker/shim.js"
# Instant navigation fetches pages with XHR, which file:// refuses; Material's
# offline plugin documents it as incompatible.
INSTANT = "navigation.instant"
# Absolute URLs a browser never needs offline: the 404 page (links from the
# site's root path) and the sitemaps (the public addresses).
LEFT_OUT = {"404.html", "sitemap.xml", "sitemap.xml.gz"}
OFFLINE_MARKER = "<!-- offline-copy -->"  # the home page's link to the zip, when the build has one


def is_offline(config: MkDocsConfig) -> bool:
    """Is this build the offline copy (Material's offline plugin enabled)?"""
    plugin = config.plugins.get("material/offline") or config.plugins.get("offline")
    return bool(plugin is not None and plugin.config.enabled)


def configure_offline(config: MkDocsConfig) -> None:
    """The offline copy: no instant navigation, the site's own iframe-worker shim."""
    features = config.theme.get("features") or []
    config.theme["features"] = [f for f in features if f != INSTANT and not f.startswith(INSTANT + ".")]
    polyfills = [p for p in config.extra.get("polyfills", []) if "iframe-worker" not in str(p)]
    config.extra["polyfills"] = polyfills + [SHIM]


class OfflineCopy:
    """The offline copy as the plugin runs it: `enabled` in the offline copy's own build
    (Material's offline plugin enabled), `zip` in a site that serves one (the plugin's
    `offline_zip` option, set by `make site`: site_build/build.py)."""

    def __init__(self):
        self.enabled = False
        self.zip: Path | None = None

    def on_config(self, config: MkDocsConfig, zip_option: str, diagrams_mode: str) -> None:
        """Set the offline copy's build up (`configure_offline`), or note the zip this site serves."""
        self.enabled = is_offline(config)
        self.zip = None
        if self.enabled:
            if diagrams_mode != "build":
                raise PluginError("the offline copy draws its diagrams at build time, which needs Chromium "
                                  "(apt-get install -y chromium): a browser cannot load mermaid's modules from file://")
            configure_offline(config)
            return
        if zip_option:
            if not Path(zip_option).is_file():
                raise PluginError(f"offline_zip: {zip_option}: no such file (`make site` builds it)")
            self.zip = Path(zip_option).resolve()

    def on_files(self, files: Files, config: MkDocsConfig) -> None:
        """The zip this site serves, at OFFLINE_ZIP."""
        if self.zip is not None:
            files.append(File.generated(config, OFFLINE_ZIP, abs_src_path=str(self.zip)))

    def on_page_markdown(self, markdown: str, page: Page) -> str:
        """The home page's paragraph on the offline copy (at OFFLINE_MARKER): only a site that
        serves the zip has it."""
        if OFFLINE_MARKER not in markdown:
            return markdown
        link = ""
        if self.zip is not None:
            size = self.zip.stat().st_size / 1e6
            href = posixpath.relpath(OFFLINE_ZIP, posixpath.dirname(page.file.src_uri) or ".")
            link = (f"**Reading offline?** [Download the whole site]({href}) (a {size:.1f} MB zip), unzip it and "
                    f"open `{ZIP_FOLDER}/index.html` in a browser: the math, diagrams, figures and search all "
                    "work with no network and no server.")
        return markdown.replace(OFFLINE_MARKER, link)


def zip_site(site_dir: Path, zip_path: Path) -> None:
    """Zip `site_dir` as one folder (ZIP_FOLDER/), in a fixed order with fixed
    dates, so the same site gives the same bytes."""
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = zip_path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
            rel = path.relative_to(site_dir).as_posix()
            if rel in LEFT_OUT:
                continue
            info = zipfile.ZipInfo(f"{ZIP_FOLDER}/{rel}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    tmp.replace(zip_path)


def build_offline_zip(root: Path, zip_path: Path, work_dir: Path | None = None,
                      env: dict[str, str] | None = None) -> None:
    """Build the offline copy of the project at `root` (into `work_dir`, default
    build/offline/; in the environment `env`, default this process's) and zip it to `zip_path`."""
    offline_dir = work_dir or root / "build" / "offline"
    mkdocs_build(root, offline_dir, env, offline=True)
    zip_site(offline_dir, zip_path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m site_build.publish", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", default="site", help="where the site goes (default: site)")
    args = parser.parse_args(argv)
    root = Path.cwd()
    site_url = os.environ.get("SITE_URL")
    print(f"site for {site_url or 'the local address (SITE_URL is not set)'} -> {args.site_dir}/", flush=True)
    start = time.perf_counter()
    zip_path = root / "build" / Path(OFFLINE_ZIP).name
    try:
        build_offline_zip(root, zip_path)
        mkdocs_build(root, Path(args.site_dir).resolve(), offline_zip=zip_path)
    except BuildError as exc:
        print(f"make site: {exc}", file=sys.stderr)
        return 1
    size = zip_path.stat().st_size / 1e6
    print(f"built {args.site_dir}/ and {args.site_dir}/{OFFLINE_ZIP} ({size:.1f} MB) "
          f"in {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
