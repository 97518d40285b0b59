"""What every explorable keeps in Chromium (the contract in explorables/__init__.py), for each
explorable's own browser test: `open_explorable` to reach it mounted, `value` to read a number it
shows, and `contract_problems` for the rest (labelled keyboard controls of at least 24 x 24 px,
reduced motion, both palettes, 390 px, nothing from another host, no console error)."""

from __future__ import annotations

from tests import browser

BOX = '.primer-explorable[data-explorable="{name}"]'

# Every form control in the box with no accessible name (a <label>, aria-label or aria-labelledby,
# a button's words) or out of the tab order.
UNLABELLED = """box => [...box.querySelectorAll("input, select, textarea, button")].filter(c =>
  !(c.labels && c.labels.length) && !c.getAttribute("aria-label") && !c.getAttribute("aria-labelledby") &&
  !(c.tagName === "BUTTON" && c.textContent.trim()) || c.tabIndex < 0).map(c => c.outerHTML.slice(0, 80))"""

# Every visible control smaller than 24 x 24 CSS px (WCAG 2.2, 2.5.8, target size minimum).
SMALL_TARGETS = """box => [...box.querySelectorAll("input, select, textarea, button")].filter(c => c.checkVisibility())
  .map(c => [c.outerHTML.slice(0, 60), c.getBoundingClientRect()]).filter(([, r]) => r.width < 24 || r.height < 24)
  .map(([html, r]) => `${html}: ${r.width.toFixed(0)} x ${r.height.toFixed(0)} px`)"""

# Mutations of the box over `ms` after nothing was touched: an animation loop keeps mutating.
QUIET = """(box, ms) => new Promise(done => {
  let n = 0; const seen = new MutationObserver(list => n += list.length);
  seen.observe(box, { subtree: true, childList: true, attributes: true, characterData: true });
  setTimeout(() => { seen.disconnect(); done(n + box.getAnimations({ subtree: true }).length); }, ms);
})"""

# WCAG contrast of each visible text element of the box (SVG text by its fill) with the page.
LOW_CONTRAST = """box => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = rgb(getComputedStyle(document.querySelector(".md-main") || document.body).backgroundColor);
  const page = lum(bg.length === 3 && getComputedStyle(document.body).backgroundColor !== "rgba(0, 0, 0, 0)" ?
    rgb(getComputedStyle(document.body).backgroundColor) : bg);
  const out = [];
  for (const el of box.querySelectorAll("text, span, p, label, output, td, th, button, li")) {
    if (!el.checkVisibility() || ![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(el), colour = rgb(el instanceof SVGElement ? style.fill : style.color);
    if (colour.length < 3) continue;
    const [a, b] = [lum(colour), page].sort((x, y) => y - x), ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) out.push(`${el.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
  }
  return out;
}"""


def box(name: str) -> str:
    """The CSS selector of explorable `name`'s box."""
    return BOX.format(name=name)


def open_explorable(page, base: str, path: str, name: str) -> browser.PageLog:
    """Go to the site page `path`, bring explorable `name` into view and wait until it is mounted."""
    log = browser.PageLog(page, base)
    page.goto(base + path, wait_until="load")
    page.locator(box(name)).scroll_into_view_if_needed()
    page.wait_for_selector(box(name) + "[data-state=ready]", timeout=15000)
    return log


def control(page, name: str, label: str):
    """The input or select of explorable `name` whose <label> holds the words `label`."""
    return page.locator(f"{box(name)} label:has-text('{label}') :is(input, select)")


def value(page, name: str, key: str) -> float:
    """The unrounded value of the number `key` explorable `name` shows (its data-value)."""
    return float(page.get_attribute(f"{box(name)} [data-key='{key}']", "data-value"))


def contract_problems(chromium, base: str, path: str, name: str, move) -> list[str]:
    """Every way explorable `name` on `path` breaks the contract: `move(page)` changes a control
    with the keyboard (focus it, press keys) and must change at least one number shown. Opens its
    own pages: 1280 px light, 390 px dark with reduced motion."""
    problems = []
    for width, scheme, motion in ((1280, "light", "no-preference"), (390, "dark", "reduce")):
        context = chromium.new_context(viewport={"width": width, "height": 844}, color_scheme=scheme,
                                       reduced_motion=motion)
        page = context.new_page()
        where = f"{name} at {width} px, {scheme}, motion {motion}"
        try:
            log = open_explorable(page, base, path, name)
            root = page.locator(box(name))
            unlabelled = root.evaluate(UNLABELLED)
            problems += [f"{where}: control without a label or tab stop: {c}" for c in unlabelled]
            problems += [f"{where}: target under 24 px: {c}" for c in root.evaluate(SMALL_TARGETS)]
            before = root.evaluate("b => [...b.querySelectorAll('[data-value]')].map(e => e.dataset.value)")
            move(page)
            after = root.evaluate("b => [...b.querySelectorAll('[data-value]')].map(e => e.dataset.value)")
            if before == after:
                problems.append(f"{where}: the keyboard move changed no number ({before})")
            if motion == "reduce" and (busy := root.evaluate(QUIET, 600)):
                problems.append(f"{where}: still moving under reduced motion ({busy} changes in 0.6 s)")
            problems += [f"{where}: low contrast: {t}" for t in root.evaluate(LOW_CONTRAST)]
            overflow = root.evaluate("b => [b.scrollWidth - b.clientWidth, b.getBoundingClientRect().right]")
            if overflow[0] > 1 or overflow[1] > width:
                problems.append(f"{where}: wider than its column ({overflow})")
            for svg in root.locator("svg").all():
                smallest = svg.evaluate(browser.SVG_SMALLEST_TEXT)["smallest"]
                if smallest < 10:
                    problems.append(f"{where}: SVG text of {smallest:.1f} px")
            problems += [f"{where}: request to another host: {u}" for u in log.offsite()]
            problems += [f"{where}: failed request: {f}" for f in log.failures]
            problems += [f"{where}: console error: {c}" for c in log.console]
        finally:
            context.close()
    return problems
