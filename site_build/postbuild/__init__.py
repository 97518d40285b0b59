"""The post-build stage of the site build: what happens to built pages and files.

- heights.py: the section boxes' heights, measured in Chromium (content-visibility);
- search.py: the search index after a dirty rebuild, and the search dialog's name;
- notebooks.py: notebook pages (the Playground, the labs): sources, downloads, cache, shared CSS.
"""
