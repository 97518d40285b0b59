"""`make screenshots`: how each page looks to a reader, as pictures to look at.

Serves a built site (`site/`, from `make build`) on 127.0.0.1 and opens each page in Debian's
Chromium at a phone's width (390 x 844) and a desktop's (1280 x 800), in the light and the dark
palette, every section drawn, and saves the whole page as
`build/screenshots/<page>.<width>.<palette>.jpg` (JPEG: a long lesson is tens of thousands of
pixels tall). By default the home page, every lesson and every paper companion;
`--pages lessons/rope/ papers/peng2023_yarn/` picks others (site paths).

    .venv/bin/python -m bench.screenshots [--site site] [--out build/screenshots] [--pages ...]

A look-at tool, not a test: the checks that hold the pages to what these show are the browser tests
(tests/test_looks_browser.py and the others).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.browser import HOW_TO_GET_CHROMIUM, LOAD_EVERY_IMAGE, WAIT_RENDERED, chromium_path, launch
from harness.server import serve
from site_build.visibility.heights import DRAW_EVERY_BOX

SIZES = ((390, 844), (1280, 800))
PALETTES = ("light", "dark")


def default_pages(site: Path) -> list[str]:
    """The home page, then every lesson and paper companion the site holds (site paths)."""
    found = [""]
    for section in ("lessons", "papers"):
        found += sorted(f"{section}/{p.parent.name}/" for p in (site / section).glob("*/index.html"))
    return found


def shoot(site: Path, out: Path, pages: list[str]) -> list[Path]:
    """Save each page at each size in each palette; return the files written."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written = []
    with serve(site) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for width, height in SIZES:
                for palette in PALETTES:
                    context = browser.new_context(viewport={"width": width, "height": height},
                                                  color_scheme="dark" if palette == "dark" else "light")
                    page = context.new_page()
                    for path in pages:
                        page.goto(base + path, wait_until="load")
                        page.evaluate(WAIT_RENDERED)
                        page.add_style_tag(content=DRAW_EVERY_BOX)
                        page.evaluate(LOAD_EVERY_IMAGE)
                        page.evaluate("() => document.fonts.ready")
                        name = path.strip("/").replace("/", ".") or "home"
                        target = out / f"{name}.{width}.{palette}.jpg"
                        page.screenshot(path=str(target), full_page=True, type="jpeg", quality=70)
                        written.append(target)
                        print(f"screenshots: {target}", file=sys.stderr)
                    context.close()
        finally:
            browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=Path("site"), help="a built site (default: site/)")
    parser.add_argument("--out", type=Path, default=Path("build/screenshots"), help="where to write the pictures")
    parser.add_argument("--pages", nargs="*", help="site paths (default: home, every lesson and paper companion)")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"screenshots: no built site in {args.site}/ (run `make build` first)", file=sys.stderr)
        return 2
    if not chromium_path():
        print(f"screenshots: {HOW_TO_GET_CHROMIUM}", file=sys.stderr)
        return 2
    written = shoot(args.site, args.out, args.pages or default_pages(args.site))
    print(f"screenshots: {len(written)} pictures in {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
