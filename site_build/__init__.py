"""The site build: the MkDocs side of Positional Primer, one module or folder per stage.

plugin.py (the `primer` hooks, each calling one stage), config.py (its options),
content.py (the table of content kinds), pages.py (generated pages), markdown/
(the Markdown extensions), postbuild/ (what happens to the built site),
tools.py (Chromium, the time-out, atomic writes, JSON caches), publish.py
(`make site`), vendor.py (files served from node_modules). It imports
figures_build (the figure build and the project reader); figures_build never
imports it.
"""
