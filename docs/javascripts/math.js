// Typeset every formula arithmatex marked, with the KaTeX the site serves.
// Runs on first load and again after each instant navigation (Material's document$).
(function () {
  function typeset(root) {
    root.querySelectorAll(".arithmatex").forEach(function (el) {
      if (el.querySelector(".katex")) return;            // already typeset
      var tex = el.textContent.trim();
      var display = el.tagName === "DIV";
      // arithmatex (generic mode) wraps inline math in \( \) and blocks in \[ \]
      tex = tex.replace(/^\\[\(\[]/, "").replace(/\\[\)\]]$/, "");
      katex.render(tex, el, { displayMode: display, throwOnError: false });
      // A formula wider than the column scrolls; keyboard users must reach it too.
      if (display && el.scrollWidth > el.clientWidth) el.setAttribute("tabindex", "0");
    });
  }
  if (window.document$) {
    document$.subscribe(function () { typeset(document.body); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { typeset(document.body); });
  }
})();
