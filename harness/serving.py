"""`mkdocs serve` as `make serve` runs it (`--strict --dirty`), for a test or a benchmark: a
project served on a free port of 127.0.0.1, its log in a file to wait on."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path


class MkdocsServe:
    """`with MkdocsServe(project, log) as serve:` starts the server (stopped on leaving);
    `serve.base` is its address, `serve.wait_for(text, after)` waits for the log to say `text`."""

    def __init__(self, project: Path, log: Path):
        self.project, self.log = Path(project), Path(log)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}/"
        self.server: subprocess.Popen | None = None

    def __enter__(self) -> MkdocsServe:
        mkdocs = str(Path(sys.executable).with_name("mkdocs"))
        with self.log.open("w") as out:
            self.server = subprocess.Popen([mkdocs, "serve", "--strict", "--dirty", "-a", f"127.0.0.1:{self.port}"],
                                           cwd=self.project, stdout=out, stderr=subprocess.STDOUT,
                                           env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
        return self

    def __exit__(self, *exc) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)

    def text(self) -> str:
        """The log so far."""
        return self.log.read_text()

    def wait_for(self, pattern: str, after: int = 0, limit: float = 300) -> str:
        """Wait until the log, from character `after` on, matches the regular expression `pattern`;
        return that part of the log. TimeoutError (with the log's end) after `limit` seconds."""
        deadline = time.monotonic() + limit
        while not re.search(pattern, self.text()[after:]):
            if time.monotonic() > deadline:
                raise TimeoutError(f"mkdocs serve never logged {pattern!r}:\n{self.text()[after:][-3000:]}")
            time.sleep(0.02)
        return self.text()[after:]
