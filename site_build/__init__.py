"""The site build: the MkDocs side of Positional Primer, one module or folder per stage or feature.

plugin.py (the `primer` hooks, each calling one stage or feature), config.py (its options),
content.py (the table of content kinds), pages.py (generated pages), markdown/
(the Markdown extensions), visibility/ (content-visibility: section boxes, their
measured heights, the layout bands), notebooks/ (notebook pages: their runs and HTML),
serve.py (`make serve`'s exact dirty rebuilds), search.py (Material's search after the
build), layout.py (the figures' layout and the generated layout.css/js), snapshot.py and
published.py (what the content's code computes, in a fresh process), tools.py (Chromium,
the time-out, atomic writes, JSON caches), build.py (the one `mkdocs build`), publish.py
(`make site` and the offline copy), vendor.py (files served from node_modules). It imports
project/ (the project model) and figures_build (the figure step); neither imports it.
"""
