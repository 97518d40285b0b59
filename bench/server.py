"""The page benchmark's web server (`bench/pages.py`): serves a built site as a
static host would (`Cache-Control: public, max-age=86400` for the theme, KaTeX,
scripts, stylesheets and search index; pages and figures not cacheable) and
records every request with its gzip-compressed size, by part of the page."""

from __future__ import annotations

import gzip
import re
import threading
import time
from pathlib import Path

from harness.server import StaticHandler

CACHED_PREFIXES = ("/assets/", "/javascripts/", "/stylesheets/", "/search/")


class Recorder:
    """What the server sent (path, gzip bytes), and whether it is busy."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.sent: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.active = 0
        self.last = time.monotonic()
        self._gz: dict[Path, int] = {}

    def file_of(self, path: str) -> Path:
        """The file a request path names (a folder means its index.html)."""
        file = self.directory / path.split("?")[0].split("#")[0].lstrip("/")
        return file / "index.html" if file.is_dir() else file

    def gzip_size(self, path: str) -> int:
        """A file's size gzip-compressed (level 6), computed once."""
        file = self.file_of(path)
        if file not in self._gz:
            self._gz[file] = len(gzip.compress(file.read_bytes(), 6)) if file.is_file() else 0
        return self._gz[file]

    def precompute(self) -> None:
        """Compress every file now, so that no measured load waits on it."""
        for file in self.directory.rglob("*"):
            if file.is_file():
                self.gzip_size("/" + file.relative_to(self.directory).as_posix())

    def begin(self) -> None:
        with self.lock:
            self.active += 1
            self.last = time.monotonic()

    def end(self) -> None:
        with self.lock:
            self.active -= 1
            self.last = time.monotonic()

    def wait_idle(self, quiet: float = 0.25, limit: float = 10.0) -> None:
        """Until no request has been open for `quiet` seconds (at most `limit`)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            with self.lock:
                if self.active == 0 and time.monotonic() - self.last >= quiet:
                    return
            time.sleep(0.02)

    def take(self) -> list[tuple[str, int]]:
        """What was sent since the last take."""
        with self.lock:
            sent, self.sent = self.sent, []
        return sent


def make_handler(recorder: Recorder) -> type[StaticHandler]:
    """A request handler (for `harness.server.serve(recorder.directory, ...)`) that records what it sends."""

    class Handler(StaticHandler):
        def do_GET(self):
            recorder.begin()
            try:
                super().do_GET()
            except (BrokenPipeError, ConnectionResetError):
                pass    # the context was closed mid-response (a load whose bytes are not counted)
            finally:
                recorder.end()

        def end_headers(self):
            # A static host caches shared assets; pages and figures revalidate.
            if self.path.startswith(CACHED_PREFIXES):
                self.send_header("Cache-Control", "public, max-age=86400")
            super().end_headers()

        def send_response(self, code, message=None):
            if code == 200:
                with recorder.lock:
                    recorder.sent.append((self.path, recorder.gzip_size(self.path)))
            super().send_response(code, message)

    return Handler


def category(path: str) -> str:
    """Which part of the site a requested file belongs to."""
    path = path.split("?")[0]
    if path.startswith(("/javascripts/explorables/", "/assets/explorables/")):
        return "explorables"     # an explorable's own files (bench/explorables.py); not the loader
    if "/assets/vendor/katex/" in path or path.endswith("javascripts/math.js"):
        return "KaTeX"
    if "mermaid" in path:
        return "mermaid"
    if path.startswith("/search/"):
        return "search index"
    if path.startswith(("/assets/stylesheets/", "/assets/javascripts/", "/assets/images/", "/stylesheets/")) \
            or re.match(r"/assets/[^/]+\.css$", path):
        return "theme"
    if path.startswith("/figures/") or path.endswith((".svg", ".png", ".jpg", ".jpeg", ".webp", ".gif")):
        return "figures"
    if path.endswith((".html", "/")):
        return "html"
    return "other"


PARTS = ("html", "theme", "KaTeX", "mermaid", "figures", "search index", "explorables", "other")


# --- one load in the browser ----------------------------------------------------------------------
