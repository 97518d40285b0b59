# The notebook kernel's settings for the site's notebooks (the Playground and the
# labs), copied into .cache/ipython/profile_default by the primer plugin: figures
# as SVG with text kept as text and a fixed id salt (small, sharp, the same bytes
# on every build) instead of base64 PNG.
c = get_config()  # noqa: F821 - provided by IPython when it loads this file
c.InlineBackend.figure_formats = {"svg"}
c.InlineBackend.rc = {"svg.fonttype": "none", "svg.hashsalt": "positional-primer", "figure.facecolor": "white"}
# The site's figure style, as the figure build applies it to the lessons' figures (lessons/_palette.py
# install(): colours, text sizes a phone can read, plain log-axis labels); skipped in a project without one.
c.InteractiveShellApp.exec_lines = ["try:\n    from lessons._palette import install\nexcept ImportError:\n    pass\nelse:\n    install()"]
# A figure is saved at the size its code gives it (every notebook figure uses layout="constrained"), as the
# figure build saves the lessons', not grown by the "tight" box's padding: labs._lab.FIGURE_WIDTH (5.2 in)
# wide, so its text keeps the size install() gives it, 10 px or more in a phone's column.
c.InlineBackend.print_figure_kwargs = {"bbox_inches": None}
