// Formulas are typeset at build time (hooks/math_render.py). What is left for
// the browser: a display formula wider than the column scrolls sideways, and
// keyboard users must be able to reach it to scroll it.
document$.subscribe(function () {
  document.querySelectorAll(".md-content div.arithmatex").forEach(function (el) {
    if (el.scrollWidth > el.clientWidth) el.setAttribute("tabindex", "0");
  });
});
