"""The one static web server: a folder served on a free port of 127.0.0.1, as a static host serves
a site (the types a page's files need, the site's own 404 page), quietly, for as long as a `with`
block runs. The browser tests, the page benchmark (which records what it sends) and the build's
height measurement (which answers its own page and a POST) all serve through `serve`.

A leftover server on a fixed port would make a test silently check an old site; `serve` takes a
port the system has never given out to anyone else and asks the server for a token it alone knows
before handing out the address."""

from __future__ import annotations

import http.client
import http.server
import io
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Files of one folder, with the content types a page needs, no log lines, and a missing
    path answered as GitHub Pages does. Subclass it to add routes or headers."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".svg": "image/svg+xml",
        ".woff2": "font/woff2",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }

    def log_message(self, *args):  # keep the caller's output clean
        pass

    def send_head(self):
        """The server's ownership token at its own path (see `serve`), else the file."""
        token = getattr(self.server, "token", None)
        if token and self.path == f"/__server_{token}":
            body = token.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()

    def send_error(self, code, message=None, explain=None):
        """As GitHub Pages does: a missing path gets the site's own 404 page (the
        nearest 404.html up the path, so a site served under /primer/ has its own)."""
        page = self._not_found_page() if code == 404 else None
        if page is None:
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found_page(self) -> Path | None:
        root = Path(self.directory).resolve()
        asked = Path(self.translate_path(self.path)).resolve()
        for folder in [asked, *asked.parents]:
            if folder != root and root not in folder.parents:
                return None
            if (folder / "404.html").is_file():
                return folder / "404.html"
        return None


@contextmanager
def serve(directory: Path, handler: type[StaticHandler] = StaticHandler) -> Iterator[str]:
    """Serve `directory` with `handler` (StaticHandler or a subclass) on a free port of 127.0.0.1
    while the block runs; yields the base URL (`http://127.0.0.1:PORT/`). Before yielding, checks
    that the server answering there is this one (a token only it knows, asked without any proxy)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(directory)))
    server.token = uuid.uuid4().hex
    threading.Thread(target=server.serve_forever, daemon=True, name=f"serve {directory}").start()
    port = server.server_address[1]
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", f"/__server_{server.token}")
            answer = connection.getresponse().read().decode()
        finally:
            connection.close()
        if answer != server.token:
            raise RuntimeError(f"http://127.0.0.1:{port}/ is not the server just started for {directory}")
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.shutdown()
        server.server_close()
