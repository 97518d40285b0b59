"""What the stages of the site build share: how they start and stop Chromium (its path
and flags are harness.browser's, shared with the tests), how long they wait for Node,
Chromium or the notebook kernel, atomic writes, and the JSON caches under .cache/
(each stage keeps one file there).

The configured values come from the plugin's options (site_build/config.py);
the functions here are the defaults a stage uses when it is run on its own
(a test, a script), read from the same environment variables mkdocs.yml passes
to those options.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
from pathlib import Path

from figures_build import write_if_changed

DEFAULT_TIMEOUT = 120.0


def browser_profile() -> tempfile.TemporaryDirectory:
    """A throw-away folder for a headless Chromium's profile. Cleaning it up never fails the
    build: a stopped browser's helpers may still be writing there, and the error that stopped
    it (a time-out naming the page) is the one to report."""
    return tempfile.TemporaryDirectory(ignore_cleanup_errors=True)


def start_browser(command: list[str], **popen) -> subprocess.Popen:
    """Start Chromium in a process group of its own, so `stop_browser` reaches its helpers too."""
    return subprocess.Popen(command, start_new_session=True, **popen)


def stop_browser(process: subprocess.Popen) -> tuple[str, str]:
    """Kill a browser started by `start_browser` and every process it started; (stdout, stderr) so far."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    out, err = process.communicate()
    return out or "", err or ""


def timeout_seconds() -> float:
    """How long a build waits for Node or Chromium (PRIMER_TIMEOUT, default 120 s)."""
    return float(os.environ.get("PRIMER_TIMEOUT", DEFAULT_TIMEOUT))


def read_json_cache(path: Path) -> dict:
    """A cache file's content; an absent or unreadable cache is empty (it is only ever a shortcut)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write_json_cache(path: Path, data: dict, *, indent: int | None = None) -> bool:
    """Atomically write a cache file (sorted keys, so the same data gives the same bytes)."""
    return write_if_changed(path, json.dumps(data, indent=indent, sort_keys=True).encode())


__all__ = ["browser_profile", "read_json_cache", "start_browser", "stop_browser",
           "timeout_seconds", "write_if_changed", "write_json_cache"]
