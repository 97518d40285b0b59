"""The Markdown stage of the site build: extensions MkDocs' Markdown runs on every page.

- math.py: KaTeX (in Node) typesets arithmatex's formulas (a tree processor);
- diagrams.py: mermaid (in Chromium) draws each ```mermaid fence (superfences' formatter);
- links.py: `lessons.<slug>` mentions, *In code* names and figures become links and sized images;
- reports.py: the model-card reports a page shows become HTML (modelcard.html);
- sections.py: the section boxes of content-visibility (their heights: site_build/postbuild/heights.py).

Each gets a `context()` callable giving the page being rendered (context.py), never the plugin.
"""
