"""Positional Primer's lessons: a small reference library, one idea per home.

A lesson is a module `lessons/<slug>.py`: its raw docstring is the page, the
code under it computes what the page says, `figures()` returns the page's
figures, `demo()` narrates it in a terminal. Reuse any of them directly:

    from lessons.rope import apply_rope_half

`READING_ORDER` below is the single place that says which lessons exist and in
what order a reader meets them: the site's navigation, `python -m lessons`
and the figure build all read it. A lesson imports only lessons that come
before it here. (The build reads this package as text; see figures_build.)
"""

# The reading order: a learner reads top to bottom. Add a new lesson here.
READING_ORDER: tuple[str, ...] = (
    "notation",
    "attention",
    "positional",
    "rope",
    "alibi",
    "transformer",
    "context_extension",
    "layer_schemes",
    "attention_sinks",
    "position_ids",
    "multimodal_rope",
    "precision",
    "model_card",
    "measured",
    "real_model",
)
