"""The `primer` plugin's options (mkdocs.yml, `plugins: primer: ...`), typed.

mkdocs.yml sets the first four from the switches a user sets (`!ENV [PRIMER_DIAGRAMS,
auto]`; docs/contributing.md, *Switches*), and a project that wants a fixed value writes it
there instead. `offline_zip` is `make site`'s: site_build/build.py sets it for that build
alone, in a config file that inherits mkdocs.yml.
"""

from __future__ import annotations

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError

from site_build.tools import DEFAULT_TIMEOUT


class PrimerConfig(Config):
    # math: the Node program that runs KaTeX (PRIMER_NODE)
    node = c.Type(str, default="node")
    # mermaid diagrams: drawn at build time in Chromium (build), left to the browser
    # (browser), or build when Chromium is there (auto) (PRIMER_DIAGRAMS)
    diagrams = c.Type(str, default="auto")
    # content-visibility's switch (site_build/visibility/): section boxes with measured heights on
    # long pages: auto (when Chromium is there), on, off (PRIMER_CV)
    content_visibility = c.Type((str, bool), default="auto")
    # seconds the build waits for Node or Chromium before it stops, naming the page (PRIMER_TIMEOUT)
    timeout = c.Type((int, float, str), default=DEFAULT_TIMEOUT)
    # the offline copy's zip this site serves and links from the home page (`make site`: site_build/build.py)
    offline_zip = c.Type(str, default="")

    def visibility(self) -> str:
        """auto, on or off. YAML reads an unquoted `off`/`on` (as `!ENV` passes PRIMER_CV=off) as a boolean."""
        value = self.content_visibility
        return ("on" if value else "off") if isinstance(value, bool) else value

    def timeout_seconds(self) -> float:
        try:
            return float(self.timeout)
        except ValueError:
            raise PluginError(f"PRIMER_TIMEOUT={self.timeout!r}: a number of seconds") from None
