"""The model-card decoder: what a published config.json does with positions, and what each
serving engine does with that config.

The reading itself (`explain`: which scheme, which lengths, which RoPE speeds) is taught
by the lesson *Read a model card* (`lessons.model_card`); this package is the application
built over it:

- `engines`, `engine_tables`: each engine's length rules, registries and command lines;
- `known_bugs`: the position bugs of engine releases (known_bugs.json);
- `report`: the text report and the JSON card; `html`: the report as the site's HTML;
- `cli`: `python -m modelcard CONFIG` (`python -m lessons.model_card CONFIG` is its old name);
- `data`: the tables the in-browser decoder (modelcard/web/model_card.js) reads;
- `gallery`: the gallery page, generated from the configs in lessons/gallery/.

Layering (tests/test_imports.py): this package imports lessons; no lesson imports it.
"""
