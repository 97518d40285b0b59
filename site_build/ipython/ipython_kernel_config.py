# The notebook kernel's settings for the site's notebooks (the Playground and the
# labs), copied into .cache/ipython/profile_default by the primer plugin: figures
# as SVG with text kept as text and a fixed id salt (small, sharp, the same bytes
# on every build) instead of base64 PNG.
c = get_config()  # noqa: F821 - provided by IPython when it loads this file
c.InlineBackend.figure_formats = {"svg"}
c.InlineBackend.rc = {"svg.fonttype": "none", "svg.hashsalt": "positional-primer", "figure.facecolor": "white"}
