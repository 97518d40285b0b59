"""Explorables: interactive figures inside the lessons, computed in the reader's browser.

An explorable sits in a lesson's prose as an empty box right after the static figure it extends
(the figure stays: the fallback without JavaScript and the offline copy's first paint):

    <div class="primer-explorable" data-explorable="rope_turning" markdown="0"></div>

What runs it, all published by `explorables.data.assets()` at build time:
- `javascripts/explorables.js` (docs/javascripts/explorables.js, a static file in mkdocs.yml's
  extra_javascript, on every page, about 1 KB gzip): finds the boxes on the page and, when one
  comes within a screen of the view, loads `javascripts/explorables/manifest.js` (published here:
  per explorable, its files in load order), the shared core and the explorable's own files, then
  mounts it. A page without a box downloads nothing more.
- `javascripts/explorables/core.js` (web/core.js, `window.PrimerCore`): the numbers, the one
  numeric JS core the decoder shares (RoPE speeds of every rope type, angles, scores), held to
  the Python by tests/test_explorables_core_node.py.
- `javascripts/explorables/plot.js` (web/plot.js, `window.PrimerPlot`): SVG drawn at the width it
  is shown, so its text is the CSS size it says (never below 10 px on a phone).
- `javascripts/explorables/<name>.js` (web/<name>.js): the explorable; it calls
  `PrimerExplorables.define(name, mount, pure)`: `mount(root, ctx)` builds its controls in `root`;
  `pure` is an object of its DOM-free functions (what it computes), which the Node parity tests
  call through tests/node.py.
- `assets/explorables/<name>.js`: its data, if `Explorable.data` names a function: the JSON the
  function returns, computed from the lessons' own code at build time, as a script (the offline
  copy is read through file://, where fetch() is refused).
- more files an explorable loads only when the reader asks (`Explorable.extra`: the live model's
  weights), fetched with `ctx.load(site path)`.

`ctx` gives: `core`, `plot`, `data` (or null), `timed(fn)` (fn wrapped so each call is recorded
as the Performance API measure `explorable:<name>`, which `make bench-pages` reads: a redraw
must take under 50 ms), `reducedMotion` (prefers-reduced-motion: draw the end state, no
animation), `load(path)` (a promise of a script under the site's root), `id(suffix)` (an id
unique on the page, for labels).

The contract every explorable keeps (tests/explorables.py checks it in Chromium): every control a
labelled form element, operable from the keyboard; each number a test reads in an element with
`data-value` holding the unrounded value; nothing requested from another host; no animation under
reduced motion; both palettes (colours from the palette's CSS variables, `--primer-*`); no
horizontal overflow at 390 px; `root.dataset.state` is "ready" once mounted. Its code and data
stay within `budget_kb` gzip (tests/test_explorables.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Explorable:
    """One explorable: `name` (its box's data-explorable and its script web/<name>.js), the
    `lesson` slug whose page shows it, `data` ("module:function" returning JSON-able data, or
    None), `extra` ("module:function" returning {site path: bytes} loaded on demand, or None) and
    its budget in KB gzip for core, plot, script and data together (extra files not counted)."""

    name: str
    lesson: str
    data: str | None = None
    extra: str | None = None
    budget_kb: int = 40
    extra_budget_kb: int = 400


# One line per explorable (name: Explorable), in reading order.
REGISTRY: dict[str, Explorable] = {e.name: e for e in (
    Explorable("rope_turning", "rope", data="explorables.rope_turning:data"),
    Explorable("methods", "context_extension", data="explorables.methods:data"),
    Explorable("layers", "layer_schemes", data="explorables.layers:data"),
    Explorable("position_steps", "position_ids", data="explorables.position_steps:data"),
    Explorable("multimodal_ids", "multimodal_rope", data="explorables.multimodal_ids:data"),
    Explorable("tiny_model", "measured", data="explorables.tiny_model:data", extra="explorables.tiny_model:extra"),
)}
