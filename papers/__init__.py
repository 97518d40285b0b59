"""Annotated paper companions: the page you keep open beside the PDF.

A companion is a module `papers/<slug>.py` built like a lesson (its raw
docstring is the page, `figures()` where a picture helps, checked `# →`
lines), with its own short page contract (docs/authoring.md). Companions come
after every lesson: they import the lessons' functions and define no formula
of their own. `PAPERS` orders the *Papers* section of the site.
"""

PAPERS: tuple[str, ...] = (
    "vaswani2017_attention",
    "su2021_roformer",
    "press2021_alibi",
    "kazemnejad2023_nope",
    "chen2023_interpolation",
    "peng2023_yarn",
)
