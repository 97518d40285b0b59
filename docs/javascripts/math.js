// Formulas are typeset at build time (site_build/markdown/math.py). What is left for
// the browser: a display formula wider than the column scrolls sideways, and
// keyboard users must be able to reach it to scroll it. The same holds for a
// notebook's printed output (a lab's tables), which keeps its lines whole.
//
// Measuring a formula lays it out, and on a long page most section bodies are
// skipped until the reader scrolls near them (content-visibility, see
// site_build/postbuild/heights.py); measuring there would undo the skip. So inside
// a body with measured heights this reads what the build measured for the
// current layout band (data-scroll="w:0,2" = the first and third display
// formulas of the body scroll at the widest band), and measures for real once
// the body is drawn (and again once KaTeX's fonts have loaded: the width is
// final only then, and after a resize). Elsewhere it measures at those times.
(function () {
  var BANDS = window.primerBands;  // [letter, media query], widest first: javascripts/layout.js (site_build/layout.py)

  function band() {
    for (var i = 0; i < BANDS.length; i++) if (window.matchMedia(BANDS[i][1]).matches) return BANDS[i][0];
  }

  function measure(el) {
    if (el.scrollWidth > el.clientWidth) el.setAttribute("tabindex", "0");
  }

  function listed(body, current) {
    var entry = (body.getAttribute("data-scroll") || "").split(" ").filter(function (part) {
      return part.indexOf(current + ":") === 0;
    })[0];
    return entry ? entry.slice(current.length + 1).split(",").map(Number) : [];
  }

  function mark() {
    var current = band();
    document.querySelectorAll(".md-content .jp-OutputArea-output pre").forEach(measure);
    document.querySelectorAll(".md-content div.arithmatex").forEach(function (el) {
      if (!el.closest(".primer-cv[style]")) measure(el);
    });
    document.querySelectorAll(".md-content .primer-cv[style]").forEach(function (body) {
      var formulas = body.querySelectorAll("div.arithmatex");
      if (body.primerDrawn) formulas.forEach(measure);  // drawn: measuring costs nothing more
      listed(body, current).forEach(function (i) {
        if (formulas[i]) formulas[i].setAttribute("tabindex", "0");
      });
      if (!body.primerWatched) {
        body.primerWatched = true;
        body.addEventListener("contentvisibilityautostatechange", function (event) {
          body.primerDrawn = !event.skipped;
          if (body.primerDrawn) formulas.forEach(measure);
        });
      }
    });
  }

  document$.subscribe(function () {
    mark();
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(mark);
  });
  window.addEventListener("resize", mark);
})();
