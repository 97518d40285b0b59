// Loads the model-card decoder (model_card.js, about 19 KB gzip) only on a page
// that has a #model-card-decoder element, so no other page downloads it. Runs
// on every page load and after every instant navigation (Material's document$).
(function () {
  var base = document.currentScript && document.currentScript.src;
  function load() {
    if (!base || !document.getElementById("model-card-decoder")) return;
    if (window.PrimerModelCard || document.querySelector("script[data-primer-decoder]")) return;
    var script = document.createElement("script");
    script.src = new URL("model_card.js", base).href;  // relative: the site may live under a sub-path
    script.dataset.primerDecoder = "";
    document.head.appendChild(script);
  }
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(load);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
})();
