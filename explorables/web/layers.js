// A model's layers (lessons/layer_schemes.py, Level 1): pick a gallery model and a prompt length; each
// layer's bar is as tall as the tokens its last token attends to. The data (explorables/layers.py,
// from layer_plan and the decoder's card) gives each layer's type, rotation, base, window or chunk and
// rotated share; `spans` is explorables.layers.span, held to it by tests/test_explorable_layers_node.py.
(function () {
  "use strict";

  // Tokens the last of `length` tokens attends to (transformers 5.24, masking_utils.py): a chunked
  // layer only its own chunk so far (chunked_overlay: j // chunk == i // chunk), a sliding layer its
  // window (sliding_window_overlay: j > i - window), every other layer the whole prompt.
  function span(type, reach, length) {
    if (type === "chunked_attention" && reach) return (length - 1) % reach + 1;
    if (type === "sliding_attention" && reach) return Math.min(length, reach);
    return length;
  }
  function spans(model, length) {
    return model.layers.map(function (l) { return span(l.type, l.reach, length); });
  }
  // What the readout prints: layers that see the whole prompt, the shortest span, layers with no positions.
  function summary(model, length) {
    var seen = spans(model, length);
    return { full: seen.filter(function (s) { return s === length; }).length, shortest: Math.min.apply(null, seen),
             nope: model.layers.filter(function (l) { return !l.rope; }).length };
  }

  function n(v) { return v.toLocaleString("en-US"); }
  function describe(l) {  // a layer in words (its attention and its positions)
    var kind = { chunked_attention: "chunked attention, chunks of " + n(l.reach || 0),
                 sliding_attention: "sliding window of " + n(l.reach || 0), full_attention: "full attention",
                 linear_attention: "linear attention (a running state, no mask)" }[l.type] || l.type;
    if (!l.rope) return kind + ", no position code";
    return kind + ", RoPE base " + n(l.base) + ", " + (l.share === 1 ? "the whole head" : n(l.share * 100) + "% of each head") +
      " turns, " + (l.scaling === "default" ? "no scaling" : l.scaling + " scaling");
  }

  function mount(root, ctx) {
    var P = ctx.plot, data = ctx.data, models = data.models, lengths = data.lengths;
    function number(parent, key, v) {  // a number a test reads: shown with commas, data-value unrounded
      return P.el("span", { "data-key": key, "data-value": String(v), text: n(v) }, parent);
    }
    var box = P.el("div", { class: "px-controls" }, root);
    var pick = P.choice(box, "Model", models.map(function (m, i) { return [i, m.label]; }), 0);
    var len = P.control(box, "Prompt length", { type: "range", min: 0, max: lengths.length - 1, step: 1,
                                                value: lengths.indexOf(10000) });
    var layer = P.control(box, "Layer", { type: "range", min: 0, max: 0, step: 1, value: 0 });
    var said = P.el("p", { class: "px-readout", "aria-live": "polite" }, root);
    var lengthsLine = P.el("p", { class: "px-readout" }, root);
    var plot = P.el("div", { class: "px-layers-plot" }, root);
    var legend = P.el("p", { class: "px-readout px-layers-legend" }, root);
    [["px-layers-rope", "rotates (RoPE)"], ["px-layers-nope", "no position code"]].forEach(function (k) {
      var item = P.el("span", {}, legend);
      P.el("span", { class: "px-layers-key " + k[0], "aria-hidden": "true" }, item);
      item.appendChild(document.createTextNode(k[1]));
    });
    var picked = P.el("p", { class: "px-readout" }, root);
    var groups = P.el("ul", { class: "px-readout px-layers-groups" }, root);
    var hatch = ctx.id("hatch");

    function chart(model, length, seen, chosen) {
      plot.textContent = "";
      var count = model.layers.length;
      var f = P.frame(plot, P.widthOf(plot, 720), 230, {
        label: model.label + ": tokens each layer's last token attends to, for a prompt of " + n(length),
        x: { lo: -0.5, hi: count - 0.5, label: "layer" }, y: { lo: 1, hi: lengths[lengths.length - 1], log: true, label: "tokens seen" } });
      var pattern = P.s("pattern", { id: hatch, width: 6, height: 6, patternUnits: "userSpaceOnUse",
                                     patternTransform: "rotate(45)" }, P.s("defs", {}, f.svg));
      P.s("rect", { width: 6, height: 6, class: "px-layers-nope" }, pattern);
      P.s("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "px-layers-hatch" }, pattern);
      var width = Math.max(1, f.width / count * 0.8);
      model.layers.forEach(function (l, i) {
        var top = f.y(seen[i]);
        var bar = P.s("rect", { x: f.x(i) - width / 2, y: top, width: width, height: Math.max(1, f.height - top),
                                class: (l.rope ? "px-layers-rope" : "") + (i === chosen ? " px-layers-picked" : "") }, f.g);
        if (!l.rope) bar.setAttribute("fill", "url(#" + hatch + ")");
      });
      var y = f.y(length);
      P.s("line", { x1: 0, x2: f.width, y1: y, y2: y, class: "px-layers-prompt" }, f.g);
      P.s("text", { x: f.width - 2, y: y < 16 ? y + 14 : y - 4, "text-anchor": "end", class: "px-text px-layers-label", text: "whole prompt" }, f.g);
    }

    var draw = ctx.timed(function () {
      var model = models[+pick.value], length = lengths[+len.value], seen = spans(model, length);
      var s = summary(model, length), count = model.layers.length;
      layer.max = count - 1;
      if (+layer.value > count - 1) layer.value = count - 1;
      var chosen = +layer.value, l = model.layers[chosen];
      len.setAttribute("aria-valuetext", n(length) + " tokens");
      layer.setAttribute("aria-valuetext", "layer " + chosen + " of " + count);

      said.textContent = "";
      said.append("A prompt of ");
      number(said, "length", length);
      said.append(" tokens: ");
      number(said, "full", s.full);
      said.append(" of " + count + " layers see all of it, the shortest sees ");
      number(said, "shortest", s.shortest);
      said.append(" tokens, and ");
      number(said, "nope", s.nope);
      said.append(" layers carry no position code.");

      lengthsLine.textContent = (model.trained ? "Trained at " + n(model.trained) + " tokens (the config's " +
        "original_max_position_embeddings); " : "The config states no trained length; ") + "it allows " +
        n(model.limit) + ", and vLLM 0.33.0 serves " + n(model.served) + " by default" +
        (length > model.served ? ": this prompt is longer than that." : ".");

      chart(model, length, seen, chosen);

      picked.textContent = "";
      picked.append("Layer " + chosen + ": " + describe(l) + "; its last token sees ");
      number(picked, "layer-span", seen[chosen]);
      picked.append(" tokens.");

      groups.textContent = "";
      var kinds = {};
      model.layers.forEach(function (x, i) {
        var key = describe(x);
        (kinds[key] = kinds[key] || { text: key, layers: [], seen: seen[i] }).layers.push(i);
      });
      Object.keys(kinds).forEach(function (k) {
        var g = kinds[k];
        P.el("li", { text: g.layers.length + (g.layers.length === 1 ? " layer: " : " layers: ") + g.text +
                     "; sees " + n(g.seen) + " tokens." }, groups);
      });
    });
    [pick, len, layer].forEach(function (c) { c.addEventListener("input", draw); c.addEventListener("change", draw); });
    draw();
  }

  PrimerExplorables.define("layers", mount, { spans: spans, summary: summary });
})();
