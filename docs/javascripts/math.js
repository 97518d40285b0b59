// Formulas are typeset at build time (figures_build/math.py). What is left for
// the browser: a display formula wider than the column scrolls sideways, and
// keyboard users must be able to reach it to scroll it. Its width is final only
// once KaTeX's fonts have loaded, so look again then, and after a resize.
(function () {
  function mark() {
    document.querySelectorAll(".md-content div.arithmatex").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth) el.setAttribute("tabindex", "0");
    });
  }
  document$.subscribe(function () {
    mark();
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(mark);
  });
  window.addEventListener("resize", mark);
})();
