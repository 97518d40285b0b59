"""A figure's phone rendition, laid out again in the render worker (render.py).

A lesson draws each figure once, about 6.4 in wide; a phone shrinks it into its 358 px column
and its smallest text falls under the phone's floor (site_build/layout.py, SCREENS). For such
a figure the build draws the same matplotlib Figure again, no lesson code involved:

- narrower (`phone_width`: the widest figure whose smallest text still renders at the floor
  in the phone column), its height kept, so the panels get taller rather than flatter;
- a row of panels that would each be narrower than `MIN_PANEL` stacks into one column (each
  panel, and the colorbars the layout ties to them, on a new grid of one column), the figure
  made as much taller as it gained rows;
- a title or label wider than the figure wrapped onto two lines at a space.

`problems()` then reads every text's extent from the renderer: no text may reach past the
figure's edge or run into another text (where the lesson's own layout has them apart). The
build refuses a phone rendition with problems (the error names the text), so a layout this
module cannot mend fails the build instead of serving a broken picture.
"""

from __future__ import annotations

import textwrap
import warnings

from site_build.layout import SCREENS, figure_text_px, phone_width

MIN_PANEL = 2.4  # inches: a panel in a row of a phone rendition is at least this wide, or the row stacks
PHONE = SCREENS[-1]


def needs_phone(smallest: float, width: float) -> bool:
    """Whether a figure `width` points wide whose smallest text is `smallest` points renders that text
    under the phone's floor in its column."""
    return figure_text_px(smallest, width, PHONE) < PHONE.floor - 1e-9


def _panels(fig) -> list:
    """The figure's panels: axes placed on a grid (a colorbar's axes follows its parents), less an
    empty cell the lesson switched off (hidden in the phone rendition)."""
    panels = []
    for ax in fig.axes:
        if ax.get_subplotspec() is None or hasattr(ax, "_colorbar"):
            continue
        if not ax.axison and not ax.has_data() and not ax.texts and ax.get_legend() is None:
            ax.set_visible(False)
            continue
        panels.append(ax)
    return panels


def relayout(fig, smallest: float, own: set[tuple[str, str]] = frozenset()) -> list[str]:
    """Lay `fig` out again for the phone's column (see the module docstring); `smallest` is its
    smallest text in points, `own` the text pairs the lesson's layout overlaps (`baseline`).
    Returns the `problems` of the result (empty: a phone rendition to serve)."""
    width, height = fig.get_size_inches()
    narrow = phone_width(smallest) / 72
    panels = _panels(fig)
    grids = {id(ax.get_subplotspec().get_gridspec()): ax.get_subplotspec().get_gridspec() for ax in panels}
    rows = 1
    if len(grids) == 1 and panels:
        grid = next(iter(grids.values()))
        nrows, ncols = grid.get_geometry()
        if ncols > 1 and narrow / ncols < MIN_PANEL:
            rows = _stack(fig, panels, grid, max(1, int(narrow / MIN_PANEL)))
            height = height * rows / nrows * 0.8
    fig.set_size_inches(narrow, height)
    with warnings.catch_warnings():  # a first pass may not fit before the wrapping; the last is checked
        warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
        current = _wrap_wide_texts(fig)
    found = problems(fig, own, laid_out=current)
    for _ in range(4):  # wrapped labels that now run into each other: a taller figure spaces them
        if not [p for p in found if " runs into " in p]:
            break
        height *= 1.2
        fig.set_size_inches(narrow, height)
        found = problems(fig, own)
    return found


def _stack(fig, panels, grid, columns: int) -> int:
    """Re-place the panels of `grid`, in reading order, on a grid of `columns` columns; returns its rows."""
    order = sorted(panels, key=lambda ax: (ax.get_subplotspec().rowspan.start, ax.get_subplotspec().colspan.start))
    rows = -(-len(order) // columns)
    new = fig.add_gridspec(rows, columns)
    for index, ax in enumerate(order):
        ax.set_subplotspec(new[index // columns, index % columns])
        # a panel that shared its row's y axis showed no tick labels of its own: now it stands alone
        if len(ax.get_shared_y_axes().get_siblings(ax)) > 1:
            ax.tick_params(axis="y", labelleft=True)
    return rows


def _texts(fig) -> list:
    """Every visible, non-empty text the figure draws: a tick's label only where the axis draws that
    tick (inside its view limits), not the spare ticks matplotlib keeps."""
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    every = fig.findobj(Axis)
    shown = [a for a in every if a.axes.get_visible() and a.axes.axison and a.get_visible()]
    spare = {id(t) for axis in every for t in axis.findobj(Text)}  # an axis's texts: only a shown axis's drawn ones
    drawn = [t for axis in shown for tick in axis._update_ticks() for t in (tick.label1, tick.label2)]
    drawn += [t for axis in shown for t in (axis.label, axis.offsetText)]
    return [t for t in [*(t for t in fig.findobj(Text) if id(t) not in spare), *drawn]
            if t.get_visible() and t.get_text().strip() and (t.axes is None or t.axes.get_visible())]


def _wrap_wide_texts(fig, passes: int = 3) -> bool:
    """Wrap each text that reaches past the figure's left or right edge (a title, a label, a legend
    entry) at spaces, into lines as much shorter as it overflows; again after the layout moves.
    Whether the figure's layout is current (the last pass changed nothing)."""
    from matplotlib.axis import Axis
    from matplotlib.legend import Legend

    renderer = fig.canvas.get_renderer()
    for attempt in range(passes):
        fig.draw_without_rendering()
        left, right = fig.bbox.x0 + 2, fig.bbox.x1 - 2
        if attempt == 0 and _wrap_named_rows(fig, renderer):
            fig.draw_without_rendering()
        for legend in fig.findobj(Legend):  # a legend wider than the figure: half as many columns
            box = legend.get_window_extent(renderer)
            if (box.x0 < left or box.x1 > right or box.width > right - left) and legend._ncols > 1:
                legend.set_ncols(-(-legend._ncols // 2))  # takes effect when its box is packed again
                title = legend.get_title()
                text, prop = title.get_text(), title.get_fontproperties()
                legend._init_legend_box(legend.legend_handles, [t.get_text() for t in legend.texts])
                legend._legend_box.set_offset(legend._findoffset)  # as Legend() does after packing
                legend.set_title(text, prop)
                fig.draw_without_rendering()
        labels = {id(t): axis for axis in fig.findobj(Axis) for tick in axis.get_major_ticks()
                  for t in (tick.label1, tick.label2)}
        wrapped = False
        for text in _texts(fig):
            extent = text.get_window_extent(renderer)
            inside = min(extent.x1, right) - max(extent.x0, left)
            if inside < extent.width - 1 and " " in text.get_text():
                lines = text.get_text().split("\n")
                chars = max(8, int(max(len(line) for line in lines) * max(inside, 0) / extent.width * 0.95))
                axis = labels.get(id(text))
                if axis is not None:  # a named tick: the axis sets its text at each draw
                    axis.set_ticks(axis.get_ticklocs(), [_fill(t.get_text(), chars) if t.get_text() == text.get_text()
                                                         else t.get_text() for t in axis.get_ticklabels()])
                else:
                    text.set_text(_fill(text.get_text(), chars))
                wrapped = True
        if not wrapped:
            return True
    return False


def _wrap_named_rows(fig, renderer) -> bool:
    """Wrap an axis's named rows (y tick labels) wider than 40% of the figure; whether any were."""
    wrapped = False
    for axis in [ax.yaxis for ax in fig.axes if ax.get_visible() and ax.axison]:
        texts = [t for t in axis.get_ticklabels() if t.get_text()]
        widest = max((t.get_window_extent(renderer).width for t in texts), default=0)
        if widest > 0.4 * fig.bbox.width:
            chars = max(8, int(max(len(t.get_text()) for t in texts) * 0.4 * fig.bbox.width / widest))
            axis.set_ticks(axis.get_ticklocs(), [_fill(t.get_text(), chars) for t in axis.get_ticklabels()])
            wrapped = True
    return wrapped


def _fill(text: str, chars: int) -> str:
    """`text` with each of its lines wrapped at `chars` characters, at spaces."""
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def problems(fig, allowed: set[tuple[str, str]] = frozenset(), laid_out: bool = False) -> list[str]:
    """What a reader would find wrong with `fig` as drawn: a text reaching past the figure's edge, two
    texts running into each other (pairs in `allowed`, the lesson's own overlaps, aside). `laid_out`:
    the figure is laid out as it is now (no layout pass needed)."""
    renderer = fig.canvas.get_renderer()
    if not laid_out:
        fig.draw_without_rendering()
    bounds = fig.bbox
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in _texts(fig)]
    found = []
    for text, box in boxes:
        if box.x0 < bounds.x0 - 1 or box.x1 > bounds.x1 + 1 or box.y0 < bounds.y0 - 1 or box.y1 > bounds.y1 + 1:
            found.append(f"{text!r} reaches past the figure's edge")
    found += [f"{a!r} runs into {b!r}" for a, b in overlaps(boxes) if (a, b) not in allowed]
    return found


def overlaps(boxes) -> list[tuple[str, str]]:
    """(text, text) for each two of `boxes` ((text, extent) pairs) that overlap by more than a pixel."""
    found = []
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            if (min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 1
                    and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 1):
                found.append((a, b))
    return found


def baseline(fig) -> set[tuple[str, str]]:
    """The overlapping text pairs of `fig` as the lesson drew it (a label set on a line on purpose),
    read just after it was saved (its layout as drawn)."""
    renderer = fig.canvas.get_renderer()
    return set(overlaps([(t.get_text(), t.get_window_extent(renderer)) for t in _texts(fig)]))
