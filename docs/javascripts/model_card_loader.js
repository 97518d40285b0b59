// Loads the model-card decoder (model_card.js, its tables and the numeric core it shares with the
// explorables, javascripts/explorables/core.js) only on a page that has a #model-card-decoder
// element, so no other page downloads it, and puts a "Skip to the decoder" link beside Material's
// "Skip to content", the first tab stops of the page (the decoder's first control came after 44 tab
// stops of header and navigation). Runs on every page load and after every instant navigation
// (Material's document$), which replaces the skip links' box.
(function () {
  var base = document.currentScript && document.currentScript.src;
  function skipLink(root) {
    var box = document.querySelector("[data-md-component=skip]");
    if (!box || box.querySelector(".pmc-skip")) return;
    var link = document.createElement("a");
    link.href = "#" + root.id;
    link.className = "md-skip pmc-skip";
    link.textContent = "Skip to the config decoder";
    link.addEventListener("click", function (event) {  // straight to its first control, once it is built
      var first = root.querySelector("select, textarea");
      if (!first) return;
      event.preventDefault();
      first.focus({ preventScroll: true });
      root.scrollIntoView({ block: "start" });
    });
    box.appendChild(link);
  }
  function load() {
    var root = document.getElementById("model-card-decoder");
    if (!base || !root) return;
    skipLink(root);
    if (window.PrimerModelCard || document.querySelector("script[data-primer-decoder]")) return;
    // first the numeric core and the decoder's tables (generated from Python by the site build), then
    // the decoder; all relative: the site may live under a sub-path
    var core = document.createElement("script"), tables = document.createElement("script"), script = document.createElement("script");
    core.src = new URL("explorables/core.js", base).href;
    tables.src = new URL("../assets/model_card_tables.js", base).href;
    script.src = new URL("model_card.js", base).href;
    core.async = tables.async = script.async = false;  // run in the order they were added
    script.dataset.primerDecoder = "";
    if (!window.PrimerCore) document.head.appendChild(core);
    document.head.appendChild(tables);
    document.head.appendChild(script);
  }
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(load);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
})();
