"""harness.server, the one static server (tests, bench/ and the build's height measurement serve
through it): a folder on a free port, the types a page needs, the site's own 404 page, and a
refusal to hand out an address whose server is not the one just started. No browser, no process."""

from __future__ import annotations

from urllib.error import HTTPError
from urllib.request import urlopen

import pytest

from harness.server import StaticHandler, serve


def test_serve_gives_a_folders_files_with_their_types_and_the_sites_404_page(tmp_path):
    (tmp_path / "figure.svg").write_text("<svg/>")
    (tmp_path / "font.woff2").write_bytes(b"wOF2")
    (tmp_path / "404.html").write_text("the site's own")
    with serve(tmp_path) as base:
        assert base.startswith("http://127.0.0.1:") and base.endswith("/")
        with urlopen(base + "figure.svg", timeout=5) as answer:
            assert answer.headers["Content-Type"] == "image/svg+xml" and answer.read() == b"<svg/>"
        with urlopen(base + "font.woff2", timeout=5) as answer:
            assert answer.headers["Content-Type"] == "font/woff2"
        with pytest.raises(HTTPError) as missing:
            urlopen(base + "lessons/none/", timeout=5)
        assert missing.value.code == 404 and missing.value.read() == b"the site's own"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["404.html", "figure.svg", "font.woff2"]  # wrote nothing
    with pytest.raises(OSError):
        urlopen(base + "figure.svg", timeout=5)  # stopped with the block


class NotOurs(StaticHandler):
    """A server that answers the token's path with something else, as a stranger on the port would."""

    def send_head(self):
        self.path = "/figure.svg"
        return super().send_head()


def test_serve_refuses_an_address_whose_server_does_not_know_its_token(tmp_path):
    (tmp_path / "figure.svg").write_text("<svg/>")
    with pytest.raises(RuntimeError, match="is not the server just started"):
        with serve(tmp_path, NotOurs):
            pass
