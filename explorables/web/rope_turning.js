// PLACEHOLDER (the skeleton's smoke test; helper replaces it): RoPE turning.
PrimerExplorables.define("rope_turning", function (root, ctx) {
  var P = ctx.plot, box = P.el("div", { class: "px-controls" }, root);
  var gap = P.control(box, "Gap", { type: "range", min: 0, max: 64, step: 1, value: 8 });
  var out = P.el("p", { class: "px-readout" }, root);
  var draw = ctx.timed(function () {
    var a = ctx.core.angles(ctx.core.invFreq(64, 10000), +gap.value);
    out.innerHTML = "Angle of pair 0: <span data-value=\"" + a[0] + "\">" + a[0].toFixed(3) + "</span> rad";
  });
  gap.addEventListener("input", draw);
  draw();
});
