// Every pair under every method (lessons/context_extension.py, Level 1): each rotary pair's speed
// change against its wavelength, for a method set for a stretch or a gallery model's own block, with
// the pairs pushed past the angles pretraining showed marked (the reference: the pretrained length,
// a block's original_max_position_embeddings). Data: explorables/methods.py; numbers:
// the shared core (ropeSpeeds, compareMethods, trainedAngleRatio, pastTrained, measures).
(function () {
  "use strict";
  var C = window.PrimerCore;

  function find(list, key, value) { return list.filter(function (x) { return x[key] === value; })[0] || null; }

  // The stretches the slider steps through: 1 to 64 in quarter powers of two, plus `own` (a model's
  // own stretch, which may lie off that grid or beyond 64).
  function stops(own) {
    var out = [];
    for (var k = 0; k <= 24; k++) out.push(Math.pow(2, k / 4));
    if (own && !out.some(function (s) { return Math.abs(s - own) < 1e-9 * own; })) out.push(own);
    return out.sort(function (a, b) { return a - b; });
  }

  // What a choice {model: gallery slug or "" (the lesson's example), method: key, stretch} reads:
  // a model's own block when the method is its block's rope type (LongRoPE: always the model its
  // entry names), else the method set for the stretch on the model's (or the example's) head.
  function setting(data, choice) {
    var method = find(data.methods, "key", choice.method), model = find(data.models, "slug", choice.model);
    if (method.model && !(model && model.rope_type === method.key)) model = find(data.models, "slug", method.model);
    var head = model || data.example, trained = head.trained;
    var served = model && Math.abs(choice.stretch - model.stretch) < 1e-9 * model.stretch ? model.served :
      C.roundHalfEven(trained * choice.stretch);
    var window = model ? model.window : null, common = {
      model: model ? model.slug : "", method: method.key, trained: trained, stretch: choice.stretch, served: served,
      reach: Math.min(served, window || served), window: window, kind: model ? model.kind : null };
    if (model && model.rope_type === method.key) {
      return Object.assign(common, { own: true, head_dim: model.head_dim, params: model.params, plain: model.plain,
                                     max_position: model.max_position });
    }
    return Object.assign(common, { own: false, base: head.base, width: head.width, compared: method.compared || null,
                                   block: method.block || null });
  }

  // The block a setting reads, as a config would carry it (display only; NTK-aware: the raised base).
  function block(st) {
    if (st.own) return st.params;
    if (st.compared === C.NO_SCALING) return { rope_theta: st.base };
    var named = st.block || C.COMPARED[st.compared];
    if (named.rope_type === "ntk") return { rope_theta: C.ntkScaledBase(st.base, st.stretch, st.width) };
    return Object.assign({ rope_type: named.rope_type, factor: st.stretch, rope_theta: st.base },
                         named.rope_type === "dynamic" ? {} : { original_max_position_embeddings: st.trained },
                         named.rope_type === "llama3" ? { low_freq_factor: named.low_freq_factor,
                                                          high_freq_factor: named.high_freq_factor } : {});
  }

  // {theta: the trained speeds, speeds: the speeds read} of a setting: a model's block as
  // modelcard.explorer.block_measures reads it (at the length served), a compared method as
  // method_measures does, dynamic NTK as explorables.methods.preset_measures does.
  function speeds(st) {
    if (st.own) {
      return { theta: C.ropeSpeeds(st.head_dim, st.plain, st.max_position).theta,
               speeds: C.ropeSpeeds(st.head_dim, st.params, st.max_position, st.served).theta };
    }
    var theta = C.ropeSpeeds(st.width, { rope_theta: st.base }).theta;
    if (st.block) {
      var params = Object.assign({}, st.block, { rope_theta: st.base, factor: st.stretch });
      return { theta: theta, speeds: C.ropeSpeeds(st.width, params, st.trained, st.served).theta };
    }
    var scale = st.compared === C.NO_SCALING ? null : C.compareMethods(st.base, st.width, st.trained, st.stretch)[st.compared];
    return { theta: theta, speeds: scale ? theta.map(function (t, i) { return t * scale[i]; }) : theta.slice() };
  }

  // The pairs of a setting (those that turn) as {wavelength (before scaling), scale (new speed ÷ old),
  // ratio (trained_angle_ratio), past} and its measures {past, largest, untouched, slowest}.
  function rows(st) {
    var sp = speeds(st), keep = sp.theta.map(function (t) { return t > 0; });
    var theta = sp.theta.filter(function (_, i) { return keep[i]; }), fast = sp.speeds.filter(function (_, i) { return keep[i]; });
    var ratio = C.trainedAngleRatio(fast, theta, st.trained, st.reach), past = C.pastTrained(ratio, st.trained);
    return { pairs: theta.map(function (t, i) {
      return { wavelength: 2 * Math.PI / t, scale: fast[i] / t, ratio: ratio[i], past: past[i] };
    }), measures: C.measures(sp.speeds, sp.theta, st.trained, st.reach) };
  }

  // What the box says under the block when it shows a model's own block (else ""): the count is
  // against the pretrained length. Read within the length the model serves, what its sources say of
  // training that far (explorables/methods.py LONG_TRAINING), else that such training, if any,
  // reached at most that length; read past it, that no training reached that far.
  function ownNote(data, st) {
    if (!st.own) return "";
    var m = find(data.models, "slug", st.model), factor = st.params.factor;
    var head = m.name + "'s own block" + (factor ? ", made for " + times(factor) : "") + ". The pairs past are " +
      "counted against the pretrained length its config states. ";
    if (st.served > m.served) {
      return head + "Read past the length it serves (" + fmt(m.served) + " tokens), which no training reached: " +
        "its slowest pairs turn further here than any training showed them.";
    }
    return head + (m.training || "Its card's long-context training, if any, reached at most the length it serves (" +
      fmt(m.served) + " tokens)") + ": a lit pair here says how far the block reaches past pretraining, not " +
      "whether training showed that angle.";
  }

  // Dynamic NTK set for the stretch (factor = stretch, read at the length served): the stretch
  // transformers raises its base for there (lessons.context_extension.dynamic_ntk_stretch), about
  // s² − s + 1, not s; null for any other setting.
  function effective(st) {
    return !st.own && st.block && st.block.rope_type === "dynamic" ? C.dynamicStretch(st.stretch, st.served, st.trained) : null;
  }

  // All of it for a choice, from the data the page publishes (for the Node parity test).
  function measure(choice) {
    var data = window.PrimerExplorableData.methods, st = setting(data, choice);
    return { setting: st, block: block(st), rows: rows(st), own_note: ownNote(data, st), effective: effective(st) };
  }

  function fmt(n) { return Math.round(n).toLocaleString("en-US"); }
  function times(s) { return (Math.abs(s - Math.round(s)) < 1e-9 ? String(Math.round(s)) : s.toFixed(2)) + "×"; }
  function shown(b) {  // a block as JSON, each per-pair list shortened to its length
    return JSON.stringify(b, function (k, v) { return Array.isArray(v) ? "[" + v.length + " numbers]" : v; })
      .replace(/"\[(\d+) numbers\]"/g, "[$1 numbers]").replace(/,"/g, ", \"").replace(/":/g, "\": ");
  }

  function mount(root, ctx) {
    var P = ctx.plot, data = ctx.data, box = P.el("div", { class: "px-controls px-methods-controls" }, root);
    var model = P.choice(box, "Model", [["", "The lesson's example (head 128, base 10,000)"]].concat(
      data.models.map(function (m) { return [m.slug, m.name]; })), "");
    var method = P.choice(box, "Method", data.methods.map(function (m) { return [m.key, m.label]; }), "none");
    var slider = P.control(box, "Length read", { type: "range", min: 0, step: 1 });
    var read = P.el("output", { class: "px-methods-read" }, slider.parentNode);
    var figure = P.el("div", { class: "px-methods-plot" }, root);
    var legend = P.el("p", { class: "px-readout px-methods-legend" }, root);
    var out = P.el("p", { class: "px-readout" }, root), note = P.el("p", { class: "px-readout" }, root);
    var code = P.el("code", {}, P.el("p", { class: "px-readout px-methods-block" }, root));
    var own = P.el("p", { class: "px-readout px-methods-own" }, root);
    var dyn = P.el("p", { class: "px-readout px-methods-dynamic" }, root);
    // one short polite line a screen reader says after each redraw (the long notes stay out of it)
    var said = P.el("p", { class: "px-methods-said", role: "status", "aria-live": "polite" }, root);
    var grid = [];

    function current() { return find(data.models, "slug", model.value); }
    function regrid(stretch) {  // the slider's stops for the model chosen, at `stretch`
      var m = current();
      grid = stops(m ? m.stretch : null);
      slider.max = grid.length - 1;
      var best = 0;
      grid.forEach(function (s, i) { if (Math.abs(Math.log(s / stretch)) < Math.abs(Math.log(grid[best] / stretch))) best = i; });
      slider.value = best;
    }
    function labels() {  // the method list names the chosen model's own block
      var m = current();
      Array.prototype.forEach.call(method.options, function (o) {
        var d = find(data.methods, "key", o.value);
        o.textContent = d.label + (m && m.rope_type === d.key ? " (its own block)" : d.model ? " (" +
          find(data.models, "slug", d.model).name + "'s lists)" : "");
      });
    }

    var draw = ctx.timed(function () {
      var st = setting(data, { model: model.value, method: method.value, stretch: grid[+slider.value] });
      var r = rows(st), m = r.measures, colour = "var(--primer-method-" + st.method + ")";
      read.textContent = times(st.stretch) + " = " + fmt(st.served);
      slider.setAttribute("aria-valuetext", read.textContent + " positions");
      var waves = r.pairs.map(function (p) { return p.wavelength; }), scales = r.pairs.map(function (p) { return p.scale; });
      var lo = Math.pow(10, Math.floor(Math.log10(Math.min.apply(null, scales)) - 1e-9));
      var hi = Math.max(2, 2 * Math.max.apply(null, scales));
      var right = 2 * Math.max(Math.max.apply(null, waves), st.reach);
      figure.textContent = "";
      var f = P.frame(figure, P.widthOf(root, 720), 300, {
        label: "Each pair's speed change against its wavelength; pairs past the angles pretraining showed marked",
        x: { lo: 1, hi: right, log: true, label: "wavelength before scaling (positions per turn)" },
        y: { lo: lo, hi: hi, log: true, label: "new speed ÷ old" } });
      P.s("line", { x1: 0, x2: f.width, y1: f.y(1), y2: f.y(1), class: "px-methods-ref" }, f.g);
      var lines = [[st.trained, "pretrained " + fmt(st.trained), 14]];
      if (st.reach !== st.trained) lines.push([st.reach, "read " + fmt(st.reach), 28]);
      lines.forEach(function (l) {
        var x = f.x(l[0]), end = x > f.width - 90;
        P.s("line", { x1: x, x2: x, y1: 0, y2: f.height, class: "px-methods-ref" }, f.g);
        P.s("text", { x: end ? x - 4 : x + 4, y: l[2], "text-anchor": end ? "end" : "start", class: "px-text", text: l[1] }, f.g);
      });
      r.pairs.forEach(function (p) {
        var x = f.x(p.wavelength), y = f.y(p.scale);
        if (p.past) P.s("rect", { x: x - 4, y: y - 4, width: 8, height: 8, class: "px-methods-past" }, f.g);
        else P.s("circle", { cx: x, cy: y, r: 3.2, class: "px-methods-pair", style: "stroke:" + colour }, f.g);
      });
      legend.innerHTML = "<span class=\"px-methods-item\"><span class=\"px-methods-key\" style=\"border-color:" + colour +
        "\"></span> a pair within the angles pretraining showed</span> <span class=\"px-methods-item\"><span " +
        "class=\"px-methods-key px-methods-key-past\"></span> a pair past them</span>";
      out.innerHTML = "Pairs past the angles pretraining showed: <span data-key=\"past\" data-value=\"" + m.past + "\">" + m.past +
        "</span> of " + r.pairs.length + " · largest angle ratio <span data-key=\"largest\" data-value=\"" + m.largest +
        "\">" + m.largest.toFixed(3) + "</span> · pairs untouched <span data-key=\"untouched\" data-value=\"" +
        m.untouched + "\">" + m.untouched + "</span>";
      note.textContent = "Pretrained length " + fmt(st.trained) + (st.model ? " (its original_max_position_embeddings)" : "") + ", read to " + fmt(st.served) + " (" +
        times(st.served / st.trained) + ")" + (st.reach < st.served ? "; its layers attend within a " + st.kind +
        " of " + fmt(st.reach) + ", so none meets a longer distance" : "") + ". The block:";
      code.textContent = shown(block(st));
      said.textContent = m.past + " of " + r.pairs.length + " pairs past, largest " + m.largest.toFixed(3);
      own.textContent = ownNote(data, st);
      own.hidden = !st.own;
      var e = effective(st);
      dyn.hidden = e === null;
      dyn.innerHTML = e === null ? "" : "Dynamic NTK, factor " + times(st.stretch) + " read at " + fmt(st.served) + " tokens: " +
        "transformers raises the base as NTK-aware would for a stretch of <span data-key=\"effective\" data-value=\"" + e +
        "\">" + times(e) + "</span> (factor × length read ÷ pretrained length − (factor − 1)), not the " + times(st.stretch) +
        " read, and slows its slowest pair " + times(m.slowest) + ": the pairs go dark because the base is raised far " +
        "past what the length needs, not because the block fits it.";
    });

    model.addEventListener("change", function () {
      var m = current();
      if (m) method.value = m.rope_type;
      else if (find(data.methods, "key", method.value).model) method.value = "none";
      labels();
      regrid(m ? m.stretch : data.example.stretch);
      draw();
    });
    method.addEventListener("change", function () {
      var d = find(data.methods, "key", method.value);
      if (d.model && model.value !== d.model && !(current() && current().rope_type === d.key)) {
        model.value = d.model;
        labels();
        regrid(current().stretch);
      }
      draw();
    });
    slider.addEventListener("input", draw);
    labels();
    regrid(data.example.stretch);
    draw();
  }

  PrimerExplorables.define("methods", mount, { stops: stops, setting: setting, block: block, rows: rows, measure: measure });
})();
