"""The explorables' part of the page benchmark (`make bench-pages`, bench/pages.py): for every
explorable in `explorables.REGISTRY`, its size against its budget, how long a control change takes
to redraw, and what its lesson page costs cold. Issue 44's budget: each explorable's code and data
<= 40 KB gzip (the live model's on-demand files <= 400 KB), a lesson page's cold transfer <= 250 KB
before the reader opens an explorable, a redraw under 50 ms.

Size: `explorables.data.sizes` (the same gzip bytes tests/test_explorables.py holds to the budget):
what mounting loads (core, plot, data, script) and what the explorable loads only on demand.

Redraw: the lesson page (`lessons/<lesson>/`) in a fresh context at 1280x900; the box scrolled into
view and mounted (`data-state=ready`, tests/explorables.py's `open_explorable`); buttons whose text
starts with "Load" clicked, the server left idle and the box ready again, so that no on-demand
download is in a redraw; then the measures so far (the first draw) cleared. In each of `BENCH_RUNS`
rounds every visible, enabled control of the box is moved by keyboard and moved back (KEYS: a range
or number input PRESSES steps each way, a select one option down and up, the other way first at its
end; a checkbox or a toggle button twice, a text field a letter typed and erased; the controls a
select, checkbox or toggle shows only on its other setting are moved while it is there). Each redraw
is one Performance API measure `explorable:<name>` (the loader's `ctx.timed`: the explorable's own
JavaScript, not the layout and paint after it); the report gives their median, p90, max and count,
and median / 50 ms. It also gives "to frame": from each key event to the first task after the next
animation frame, layout and paint included (per key press, the longer of keydown's and keyup's,
since a checkbox changes on keyup). A redraw is within budget when its p90 is under 50 ms. Chromium
gives a page that is not cross-origin isolated performance.now() in steps of 0.1 ms, so a redraw
faster than that reads 0 or 0.1.

Cold transfer: each lesson page that has a box, loaded cold in a fresh context per round
(bench/pages.py's `load`), gzip KB until rendered and the network is quiet, and how much of it is
the explorables' own files (paths under javascripts/explorables/ or assets/explorables/; bench/
server.py's category "explorables"), against TARGET_COLD_KB. A box more than a screen below the
fold loads nothing cold (the loader waits until it nears the view).

`BENCH_EXPLORABLES`: unset or "on" measures the pages, then the explorables; "only" just the
explorables (no variants, no page loads but the lesson pages' cold ones); "off" just the pages; a
comma-separated list of names measures only those explorables (and no pages).
A benchmark: it prints numbers and never fails on them.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from bench.pages import KB, TARGET_COLD_KB, VIEWPORT, fmt, load, prepare_site
from bench.server import Recorder, make_handler
from explorables import REGISTRY, Explorable
from explorables.data import sizes
from harness import browser
from harness.server import serve

REDRAW_BUDGET_MS = 50
PRESSES = 5   # steps each way per range input and round
# The keys that move a control of each kind and then move it back.
KEYS = {
    "range": ("ArrowRight", "ArrowLeft"),
    "number": ("ArrowUp", "ArrowDown"),
    "select": ("ArrowDown", "ArrowUp"),
    "checkbox": ("Space", "Space"),
    "toggle": ("Enter", "Enter"),
    "text": ("x", "Backspace"),
}
CONTROLS = ('input[type=range], input[type=number], select, input[type=checkbox], button[aria-pressed], '
            'textarea, input[type=text], input:not([type])')
KIND = """c => c.tagName === "SELECT" ? "select" : c.tagName === "BUTTON" ? "toggle" :
  c.tagName === "TEXTAREA" ? "text" : ["range", "number", "checkbox"].includes(c.type) ? c.type : "text" """
# In every document: for each key event, ms from the event to the first task after the next frame.
FRAMES = """
(() => {
  if (window.top !== window) return;
  const frames = [];
  const after = e => { const t0 = e.timeStamp;
    requestAnimationFrame(() => setTimeout(() => frames.push(performance.now() - t0), 0)); };
  addEventListener("keydown", after, true);
  addEventListener("keyup", after, true);
  window.__pxFrames = frames;
})();
"""
# A control's label without the controls and numbers inside it (a <label> may wrap both).
LABEL = """c => { const label = c.labels && c.labels[0] && c.labels[0].cloneNode(true);
  if (!label) return (c.getAttribute("aria-label") || "").trim();
  label.querySelectorAll("input, select, textarea, button, output, [data-value]").forEach(e => e.remove());
  return label.textContent.trim(); }"""
REACHABLE = "(b, s) => [...b.querySelectorAll(s)].map(c => c.checkVisibility() && !c.disabled)"
AT_END = """c => c.tagName === "SELECT" ? c.selectedIndex === c.options.length - 1 :
  ["range", "number"].includes(c.type) && c.max !== "" && +c.value >= +c.max"""
# Resolves once the next frame has been produced (a redraw a key started is then drawn).
NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))"
MEASURES = "n => performance.getEntriesByName('explorable:' + n).map(e => e.duration)"


def mode() -> tuple[str, list[str]]:
    """BENCH_EXPLORABLES read: ("on" | "only" | "off", the names to measure (all if empty))."""
    value = os.environ.get("BENCH_EXPLORABLES", "").strip()
    if value in ("", "on", "only", "off"):
        return value or "on", []
    names = [n.strip() for n in value.split(",") if n.strip()]
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        sys.exit(f"BENCH_EXPLORABLES: no explorable {', '.join(unknown)}; registered: {', '.join(REGISTRY)}")
    return "only", names


def key_sequence(kind: str, presses: int = PRESSES, at_end: bool = False) -> list[str]:
    """The keys that move a control of `kind` and back: a range or number `presses` steps each way,
    any other kind once each way; the other way first for a control `at_end` (a range at its
    maximum, a select on its last option), so that it moves at all."""
    forth, back = KEYS[kind][::-1] if at_end else KEYS[kind]
    steps = presses if kind in ("range", "number") else 1
    return [forth] * steps + [back] * steps


def redraw_stats(durations: list[float], budget_ms: float = REDRAW_BUDGET_MS) -> dict:
    """Median, p90 (inclusive quantiles), max and count of the redraw times, and median / budget;
    None for each when there are none."""
    if not durations:
        return {"n": 0, "median": None, "p90": None, "max": None, "ratio": None}
    ordered = sorted(durations)
    p90 = statistics.quantiles(ordered, n=10, method="inclusive")[-1] if len(ordered) > 1 else ordered[0]
    middle = statistics.median(ordered)
    return {"n": len(ordered), "median": middle, "p90": p90, "max": ordered[-1], "ratio": middle / budget_ms}


def problems(explorable: Explorable, size: dict[str, int], stats: dict) -> list[str]:
    """What keeps `explorable` outside issue 44's budget: its mounted or on-demand gzip bytes, its
    redraw p90 (or no redraw measured at all)."""
    out = []
    if size["mounted"] > explorable.budget_kb * KB:
        out.append(f"mounted {size['mounted'] / KB:.1f} KB > {explorable.budget_kb} KB")
    if size["extra"] > explorable.extra_budget_kb * KB:
        out.append(f"on demand {size['extra'] / KB:.1f} KB > {explorable.extra_budget_kb} KB")
    if stats["p90"] is None:
        out.append("no redraw measured")
    elif stats["p90"] >= REDRAW_BUDGET_MS:
        out.append(f"redraw p90 {stats['p90']:.1f} ms >= {REDRAW_BUDGET_MS} ms")
    return out


def redraws(chromium, recorder: Recorder, base: str, explorable: Explorable, runs: int) -> dict:
    """Redraw times of one explorable (see the module docstring): {"measures": [ms], "frames": [ms],
    "controls": {label: [ms]}, "ends": [ms] (`ends`), "note": why nothing was measured, or ""}."""
    from tests.explorables import box, open_explorable

    context = chromium.new_context(viewport=VIEWPORT)
    out = {"measures": [], "frames": [], "controls": {}, "note": "", "ends": []}
    try:
        context.add_init_script(FRAMES)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{base}lessons/{explorable.lesson}/", wait_until="load")
        root = page.locator(box(explorable.name))
        if not root.count():
            out["note"] = f"no box on lessons/{explorable.lesson}/"
            return out
        try:
            open_explorable(page, base, f"lessons/{explorable.lesson}/", explorable.name)
        except Exception as error:  # noqa: BLE001 - a benchmark reports, it does not stop
            out["note"] = f"not ready: {root.get_attribute('data-state')} ({str(error).splitlines()[0]})"
            return out
        for button in root.locator("button").all():
            if button.is_visible() and button.inner_text().strip().startswith("Load"):
                button.click()
                page.wait_for_timeout(500)           # the download has begun: wait until it has ended
                recorder.wait_idle(quiet=0.5, limit=60)
                page.wait_for_selector(box(explorable.name) + "[data-state=ready]")
        page.evaluate(NEXT_FRAME)
        page.evaluate("n => performance.clearMeasures('explorable:' + n)", explorable.name)
        controls = shown(root)
        if not controls:
            out["note"] = "no control to move"
        for _ in range(runs):
            for index in controls:
                move(page, root, explorable.name, index, out)
        out["measures"] = page.evaluate(MEASURES, explorable.name)
        out["ends"] = ends(page, root, explorable.name, controls)
        return out
    finally:
        context.close()


def ends(page, root, name: str, controls: list[int]) -> list[float]:
    """The redraw times with each range input sent to its two ends (End, then Home; Home first if
    it is at its end), after the rounds: the five steps each way start from the opening setting,
    and the heaviest setting (the live model at 8L, the widest head) may lie at an end."""
    start = len(page.evaluate(MEASURES, name))
    for index in controls:
        control = root.locator(CONTROLS).nth(index)
        if control.is_visible() and control.evaluate(KIND) == "range":
            control.focus()
            for key in (("Home", "End") if control.evaluate(AT_END) else ("End", "Home")):
                page.keyboard.press(key)
                page.evaluate(NEXT_FRAME)
    return page.evaluate(MEASURES, name)[start:]


def shown(root) -> list[int]:
    """The indices, among the box's CONTROLS, of those a reader can reach now (shown, enabled)."""
    return [i for i, ok in enumerate(root.evaluate(REACHABLE, CONTROLS)) if ok]


def move(page, root, name: str, index: int, out: dict, within: str = "") -> None:
    """Move control `index` of the box by keyboard and back (key_sequence), recording its redraws
    under its label in out["controls"] and each key's time to the next frame in out["frames"].
    A select, checkbox or toggle that shows other controls on its new setting has those moved
    too before it goes back (one level deep), under "<its label> > <theirs>"."""
    control = root.locator(CONTROLS).nth(index)
    kind = control.evaluate(KIND)
    label = f"{within}{index} {kind} {control.evaluate(LABEL)}"
    keys = key_sequence(kind, at_end=control.evaluate(AT_END))
    before = shown(root)
    counts = [len(page.evaluate(MEASURES, name))]
    for part in (keys[:len(keys) // 2], keys[len(keys) // 2:]):
        control.focus()
        for key in part:
            seen = page.evaluate("() => window.__pxFrames.length")
            page.keyboard.press(key)
            page.wait_for_function("n => window.__pxFrames.length >= n", arg=seen + 2)
            out["frames"].append(max(page.evaluate("n => window.__pxFrames.slice(n, n + 2)", seen)))
        counts.append(len(page.evaluate(MEASURES, name)))
        if len(counts) == 2 and not within and kind in ("select", "checkbox", "toggle"):
            for other in sorted(set(shown(root)) - set(before)):
                move(page, root, name, other, out, within=label + " > ")
            counts.append(len(page.evaluate(MEASURES, name)))
    measures = page.evaluate(MEASURES, name)
    mine = measures[counts[0]:counts[1]] + measures[counts[-2]:counts[-1]]
    out["controls"].setdefault(label, []).extend(mine)


def cold_loads(chromium, recorder: Recorder, base: str, lessons: list[str], runs: int) -> dict:
    """Each lesson page loaded cold `runs` times (bench/pages.py's `load`): {lesson: {"kb": median
    gzip KB, "explorables_kb": median KB of the explorables' own files}}."""
    samples = {lesson: [] for lesson in lessons}
    for _ in range(runs):
        for lesson in lessons:
            samples[lesson].append(load(chromium, recorder, f"{base}lessons/{lesson}/", None, count_bytes=True))
    return {lesson: {"kb": statistics.median(s["bytes"] / KB for s in rows),
                     "explorables_kb": statistics.median(s["parts"].get("explorables", 0) / KB for s in rows)}
            for lesson, rows in samples.items()}


def measure(chromium, recorder: Recorder, base: str, runs: int, names: list[str] | None = None) -> dict:
    """Sizes, redraws and the lesson pages' cold transfer of the explorables named (all if none)."""
    chosen = [REGISTRY[n] for n in names] if names else list(REGISTRY.values())
    results = {}
    for e in chosen:
        size = sizes(e)
        drawn = redraws(chromium, recorder, base, e, runs)
        stats = redraw_stats(drawn["measures"])
        at_ends = redraw_stats(drawn["ends"])
        results[e.name] = {"lesson": e.lesson, "budget_kb": e.budget_kb, "extra_budget_kb": e.extra_budget_kb,
                           "mounted_bytes": size["mounted"], "extra_bytes": size["extra"], "redraw": stats,
                           "ends": at_ends,
                           "to_frame": redraw_stats(drawn["frames"]), "controls": drawn["controls"],
                           "note": drawn["note"], "problems": problems(e, size, stats)}
        print(f"  {e.name}: {stats['n']} redraws measured", flush=True)
    lessons = sorted({r["lesson"] for r in results.values() if not r["note"].startswith("no box")})
    return {"explorables": results, "cold": cold_loads(chromium, recorder, base, lessons, runs)}


def report(measured: dict) -> list[str]:
    """The printed table (at most 120 columns): one row per explorable, then one per lesson page."""
    lines = [f"{'explorable':<17} {'lesson':<17} {'KB gzip':>8}{'(budget)':>9}{'on demand':>10}"
             f"{'redraw ms: median (p90, max, n)':>32}{'/50ms':>6}{'to frame':>9}  within",
             ]
    for name, r in measured["explorables"].items():
        s = r["redraw"]
        redraw = f"{fmt(s['median'], '.2f')} ({fmt(s['p90'], '.2f')}, {fmt(s['max'], '.1f')}, {s['n']})"
        extra = f"{r['extra_bytes'] / KB:.1f}" if r["extra_bytes"] else "-"
        budget = f"({r['budget_kb']})"
        lines.append(f"{name:<17} {r['lesson']:<17} {r['mounted_bytes'] / KB:>8.1f}{budget:>9}"
                     f"{extra:>10}{redraw:>32}{fmt(s['ratio'], '.3f', 6)}{fmt(r['to_frame']['median'], '.1f', 9)}"
                     f"  {'no' if r['problems'] else 'yes'}")
        if r.get("ends", {}).get("n"):
            lines.append(f"{'':<18}each slider at its ends: median {fmt(r['ends']['median'], '.2f')},"
                         f" max {fmt(r['ends']['max'], '.1f')} ms of {r['ends']['n']}")
        for why in [r["note"]] * bool(r["note"]) + r["problems"]:
            lines.append(f"{'':<18}{why}")
    if measured["cold"]:
        lines.append(f"cold transfer of the lesson pages with an explorable (target <= {TARGET_COLD_KB} KB gzip):")
    for lesson, c in measured["cold"].items():
        verdict = "within" if c["kb"] <= TARGET_COLD_KB else "OVER"
        lines.append(f"  lessons/{lesson + '/':<24}{c['kb']:>7.1f} KB, of which explorables {c['explorables_kb']:.1f}"
                     f" KB: {verdict} target")
    return lines


def main_only(runs: int, names: list[str]) -> None:
    """BENCH_EXPLORABLES=only (or names): build or copy the site, measure the explorables, print, save."""
    from playwright.sync_api import sync_playwright

    started, load_before = time.monotonic(), os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        site, origin = prepare_site(Path(tmp))
        recorder = Recorder(site)
        recorder.precompute()
        print(f"site {origin}; explorables {', '.join(names or REGISTRY)}, {runs} round(s)", flush=True)
        with serve(site, make_handler(recorder)) as base, sync_playwright() as playwright:
            chromium = browser.launch(playwright)
            version = chromium.version
            measured = measure(chromium, recorder, base, runs, names)
            chromium.close()
    elapsed = time.monotonic() - started
    print()
    print(textwrap.fill(
        f"Chromium {version}, viewport {VIEWPORT['width']}x{VIEWPORT['height']}; {runs} round(s); load average "
        f"{load_before[0]:.1f} at start, {os.getloadavg()[0]:.1f} at end; {elapsed:.0f} s in all. KB gzip: code "
        f"and data loaded on mount; redraw: Performance API measures explorable:<name>; to frame: key event to "
        f"the next frame; within = sizes within budget and redraw p90 < {REDRAW_BUDGET_MS} ms.", 120))
    print()
    for line in report(measured):
        print(line)
    out = os.environ.get("BENCH_JSON")
    if out:
        meta = {"runs": runs, "chromium": version, "site": origin, "viewport": VIEWPORT, "seconds": elapsed,
                "loadavg_start": load_before, "loadavg_end": os.getloadavg(), "presses": PRESSES}
        Path(out).write_text(json.dumps({"meta": meta, "explorables": measured}, indent=1))
        print(f"explorables' numbers written to {out}")
