// Loads the model-card decoder (model_card.js, about 27 KB gzip, and its tables) only on a page
// that has a #model-card-decoder element, so no other page downloads it. Runs
// on every page load and after every instant navigation (Material's document$).
(function () {
  var base = document.currentScript && document.currentScript.src;
  function load() {
    if (!base || !document.getElementById("model-card-decoder")) return;
    if (window.PrimerModelCard || document.querySelector("script[data-primer-decoder]")) return;
    // first the decoder's tables (generated from Python by the site build), then the decoder;
    // both relative: the site may live under a sub-path
    var tables = document.createElement("script"), script = document.createElement("script");
    tables.src = new URL("../assets/model_card_tables.js", base).href;
    script.src = new URL("model_card.js", base).href;
    tables.async = script.async = false;  // run in the order they were added
    script.dataset.primerDecoder = "";
    document.head.appendChild(tables);
    document.head.appendChild(script);
  }
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(load);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
})();
