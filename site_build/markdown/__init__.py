"""The Markdown stage of the site build: extensions MkDocs' Markdown runs on every page.

- math.py: KaTeX (in Node) typesets arithmatex's formulas (a tree processor);
- diagrams.py: mermaid (in Chromium) draws each ```mermaid fence (superfences' formatter);
- links.py: `lessons.<slug>` mentions, *In code* names and figures become links and sized images;
- reports.py: the model-card reports a page shows become HTML (modelcard.html);
- levels.py and evidence.py: a lesson's level headings, and the evidence labels a page shows.

(The section boxes of content-visibility are that feature's: site_build/visibility/sections.py.)

Each gets a `context()` callable giving the page being rendered (context.py), never the plugin.
"""
