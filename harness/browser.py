"""Debian's Chromium, as the site build and every browser test and benchmark start it: where it is,
the flags it runs with, how to launch it through Playwright, and the page scripts that wait until a
page is drawn as a reader sees it."""

from __future__ import annotations

import os
import shutil

# Headless Chromium on a machine with no network: without the background-networking
# flags it keeps trying (and failing) to reach Google's hosts.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]
HOW_TO_GET_CHROMIUM = "no Chromium found: install Debian's with `sudo apt-get install -y chromium` (or set PRIMER_CHROMIUM=/path/to/chrome)"


def chromium_path() -> str | None:
    """Debian's Chromium (or PRIMER_CHROMIUM); None where there is none."""
    return os.environ.get("PRIMER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def launch(playwright, **options):
    """That Chromium, headless with CHROMIUM_ARGS, through a running Playwright (`sync_playwright()`'s
    object; Playwright's own browser download is never used); `options` go to `chromium.launch`."""
    return playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS, **options)


# Material draws mermaid diagrams in a *closed* shadow root; open it so a test
# can see the <svg>. Must run before any page script.
OPEN_SHADOW_ROOTS = """
(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) { return attach.call(this, { ...init, mode: "open" }); };
})();
"""

# Resolves when every formula is typeset, every diagram drawn and every image decoded.
WAIT_RENDERED = """
async (limit = 10000) => {
  const done = () => {
    const math = [...document.querySelectorAll(".md-content .arithmatex")];
    const diagrams = [...document.querySelectorAll(".md-content .mermaid")];
    return math.every(el => el.querySelector(".katex")) &&
      diagrams.every(el => el.shadowRoot && el.shadowRoot.querySelector("svg"));  // drawn in the browser
  };
  const start = performance.now();
  while (!done() && performance.now() - start < limit) await new Promise(r => setTimeout(r, 10));
  // every image the browser is loading: not a lazy figure it holds back until the
  // reader scrolls near it (in a skipped section, or far below or above the window:
  // a page opened at an anchor starts scrolled, with lazy figures far above it)
  const near = rect => rect.top < innerHeight + 1250 && rect.bottom > -1250;
  const loading = img => img.loading !== "lazy" || img.complete || (img.checkVisibility({ contentVisibilityAuto: true }) &&
    near(img.getBoundingClientRect()));
  // and never longer than `limit`: an image the browser defers anyway must not hang the caller
  // (page.evaluate has no time-out of its own)
  const decoded = Promise.all([...document.images].filter(loading).map(img => img.decode().catch(() => null)));
  await Promise.race([decoded, new Promise(r => setTimeout(r, limit))]);
  return done();
}
"""

# Loads the figures a page holds back until the reader scrolls near them, to check each one.
LOAD_EVERY_IMAGE = """
async () => {
  // lazy images start loading once they are eager; wait for each to load or fail (10 s at most)
  // before decoding: decode() on an image whose request is still in flight can reject at once
  // (seen after instant navigation under a sub-path), and a rejected decode is not a broken image
  const images = [...document.images];
  images.forEach(img => { if (img.loading === "lazy") img.loading = "eager"; });
  const settled = img => (img.complete && img.naturalWidth > 0) ? Promise.resolve() : new Promise(done => {
    img.addEventListener("load", done, { once: true });
    img.addEventListener("error", done, { once: true });
    setTimeout(done, 10000);
  });
  await Promise.all(images.map(settled));
  await Promise.all(images.map(img => img.decode().catch(() => null)));
}
"""
