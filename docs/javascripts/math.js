// Formulas are typeset at build time (site_build/markdown/math.py). What is left for
// the browser: a box wider than the column scrolls sideways (site.css shows that it
// does), and keyboard users must be able to reach it to scroll it: display formulas,
// tables (Material wraps each in a scroll box) and a notebook's printed output (a
// lab's tables, which keep their lines whole). Material gives code blocks their own.
//
// Measuring a box lays it out, and on a long page most section bodies are
// skipped until the reader scrolls near them (content-visibility, see
// site_build/visibility/); measuring there would undo the skip. So inside
// a body with measured heights this reads what the build measured for the
// current layout band (data-scroll="w:0,2" = the first and third boxes of the
// body that can scroll, window.primerScrolling, do scroll at the widest band), and
// measures for real once the body is drawn (and again once KaTeX's fonts have
// loaded: the width is final only then, and after a resize). Elsewhere it measures
// at those times.
(function () {
  var BANDS = window.primerBands;  // [letter, media query], widest first: javascripts/layout.js (site_build/visibility/bands.py)
  var SCROLLING = window.primerScrolling;  // what may scroll inside a body: the same file

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

  // Is the body drawn (not skipped)? Its event says so as it changes; a body drawn some
  // other way (printing, a style that draws every body) is asked directly.
  function drawn(body) {
    var first = body.firstElementChild;
    return body.primerDrawn || !!(first && first.checkVisibility && first.checkVisibility({ contentVisibilityAuto: true }));
  }

  function mark() {
    var current = band();
    document.querySelectorAll(".md-content .jp-OutputArea-output pre").forEach(measure);
    var content = document.querySelector(".md-content");
    if (content) content.querySelectorAll(SCROLLING).forEach(function (el) {
      if (!el.closest(".primer-cv[style]")) measure(el);
    });
    document.querySelectorAll(".md-content .primer-cv[style]").forEach(function (body) {
      var boxes = body.querySelectorAll(SCROLLING);
      if (drawn(body)) boxes.forEach(measure);  // drawn: measuring costs nothing more
      listed(body, current).forEach(function (i) {
        if (boxes[i]) boxes[i].setAttribute("tabindex", "0");
      });
      if (!body.primerWatched) {
        body.primerWatched = true;
        body.addEventListener("contentvisibilityautostatechange", function (event) {
          body.primerDrawn = !event.skipped;
          if (body.primerDrawn) body.querySelectorAll(SCROLLING).forEach(measure);
        });
      }
    });
  }

  document$.subscribe(function () {
    mark();
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(mark);
  });
  window.addEventListener("resize", mark);
  // a collapsible block (the gallery's entries) lays its content out only when opened
  document.addEventListener("toggle", function (event) { if (event.target.open) mark(); }, true);
})();
