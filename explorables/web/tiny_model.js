// A live tiny model (lessons/measured.py): the suite's trained decoders run in the page. Its data
// (explorables/tiny_model.py data()) names the schemes and lengths; a model's weights (121-137 KB
// gzip each) load only when the reader presses Load. `forward` is the numpy forward of
// explorables/tiny_model.py in plain JS (float64), held to it to 1e-6 on the logits
// (tests/test_explorable_tiny_model_node.py).
(function () {
  "use strict";

  // ---- the weights: 8-bit integers (int8 bytes in base64), one float16 scale per row; vectors float16
  function bytes(b64) {
    var text = atob(b64), out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
  function half(h) {  // a float16's bits -> its exact value
    var sign = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, f = h & 1023;
    if (e === 0) return sign * Math.pow(2, -14) * (f / 1024);
    if (e === 31) return f ? NaN : sign * Infinity;
    return sign * Math.pow(2, e - 15) * (1 + f / 1024);
  }
  function halves(b64) {
    var b = bytes(b64), out = new Float64Array(b.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = half(b[2 * i] | (b[2 * i + 1] << 8));
    return out;
  }
  // One exported tensor as {rows, cols, a: Float64Array (row-major)}: q · its row's scale.
  function tensor(t) {
    var rows = t.shape[0], cols = t.shape.length > 1 ? t.shape[1] : 1;
    if (t.f16) return { rows: rows, cols: cols, a: halves(t.f16) };
    var scale = halves(t.scale), q = new Int8Array(bytes(t.q).buffer), a = new Float64Array(rows * cols);
    for (var i = 0; i < rows * cols; i++) a[i] = q[i] * scale[Math.floor(i / cols)];
    return { rows: rows, cols: cols, a: a };
  }
  var decoded = typeof WeakMap !== "undefined" ? new WeakMap() : null;
  function decode(file) {  // the export -> {embed, W_pos, blocks: [...], norm_f_g, ...}, once per file
    if (decoded && decoded.has(file)) return decoded.get(file);
    var w = { blocks: [], nHeads: file.n_heads, embedScale: file.embed_scale, slopes: file.slopes };
    Object.keys(file.tensors).forEach(function (name) {
      var t = tensor(file.tensors[name]), parts = name.split(".");
      var top = { "embed.weight": "embed", "W_pos.weight": "W_pos", "norm_f.weight": "norm_f_g", "norm_f.bias": "norm_f_b" };
      if (top[name]) { w[top[name]] = t; return; }
      var i = +parts[1], rest = parts.slice(2).join(".");
      var key = { "norm1.weight": "norm1_g", "norm1.bias": "norm1_b", "norm2.weight": "norm2_g", "norm2.bias": "norm2_b",
                  "mlp.0.weight": "W_1", "mlp.0.bias": "c_1", "mlp.2.weight": "W_2", "mlp.2.bias": "c_2" }[rest] ||
                (rest.slice(-6) === "weight" ? rest.slice(0, 3) : "b_" + rest.charAt(2));
      (w.blocks[i] = w.blocks[i] || {})[key] = t;
    });
    if (decoded) decoded.set(file, w);
    return w;
  }

  // ---- the numbers -----------------------------------------------------------------------------
  // erf to about 1e-13 (JS has none). The reference values: the Maclaurin series below 2.5, erfc's
  // continued fraction above (slow: used only for the table). `erf` itself: the Taylor series about the
  // nearest of the table's points z0 (a step of 1/8), with erf's derivatives
  // erf^(n+1)(z) = 2/√π (−1)^n H_n(z) e^(−z²) (H_n: Hermite polynomials), 14 terms, |h| ≤ 1/16.
  function erfSlow(z) {
    if (z < 2.5) {
      var z2 = z * z, term = z, sum = z;
      for (var n = 1; n < 200; n++) {
        term *= -z2 / n;
        var add = term / (2 * n + 1);
        sum += add;
        if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
      }
      return sum * 2 / Math.sqrt(Math.PI);
    }
    var f = z;
    for (var k = 120; k >= 1; k--) f = z + (k / 2) / f;
    return 1 - Math.exp(-z * z) / Math.sqrt(Math.PI) / f;
  }
  var KNOTS = 8, TOP_Z = 6.5, AT = [], SLOPE = [], INV_FACT = [1];
  for (var kk = 0; kk <= TOP_Z * KNOTS; kk++) {
    AT.push(erfSlow(kk / KNOTS));
    SLOPE.push(2 / Math.sqrt(Math.PI) * Math.exp(-(kk / KNOTS) * (kk / KNOTS)));
  }
  for (var ff = 1; ff <= 16; ff++) INV_FACT.push(INV_FACT[ff - 1] / ff);
  function erf(x) {
    var z = Math.abs(x);
    if (z >= TOP_Z) return x < 0 ? -1 : 1;
    var k = Math.round(z * KNOTS), z0 = k / KNOTS, h = z - z0;
    var hPrev = 1, hNow = 2 * z0, sum = h, power = h, sign = 1;  // n = 0: H_0 = 1, term h
    for (var n = 1; n < 14; n++) {
      power *= h;
      sign = -sign;
      sum += sign * hNow * power * INV_FACT[n + 1];
      var next = 2 * z0 * hNow - 2 * n * hPrev;
      hPrev = hNow; hNow = next;
    }
    var r = AT[k] + SLOPE[k] * sum;
    return x < 0 ? -r : r;
  }
  function layerNorm(x, T, d, g, b) {  // over each row of x (T × d), eps 1e-5 (torch's, numpy's var)
    var out = new Float64Array(T * d);
    for (var t = 0; t < T; t++) {
      var mean = 0, v = 0, i;
      for (i = 0; i < d; i++) mean += x[t * d + i];
      mean /= d;
      for (i = 0; i < d; i++) { var dv = x[t * d + i] - mean; v += dv * dv; }
      var s = Math.sqrt(v / d + 1e-5);
      for (i = 0; i < d; i++) out[t * d + i] = (x[t * d + i] - mean) / s * g.a[i] + b.a[i];
    }
    return out;
  }
  function linear(x, rows, W, bias) {  // x (rows × W.cols) @ W.T + bias -> rows × W.rows
    var n = W.rows, m = W.cols, out = new Float64Array(rows * n);
    for (var t = 0; t < rows; t++) {
      for (var j = 0; j < n; j++) {
        var s = 0;
        for (var i = 0; i < m; i++) s += x[t * m + i] * W.a[j * m + i];
        out[t * n + j] = s + (bias ? bias.a[j] : 0);
      }
    }
    return out;
  }
  function pick(x, d, rows) {  // the rows `rows` of x (· × d)
    var out = new Float64Array(rows.length * d);
    rows.forEach(function (r, k) { for (var i = 0; i < d; i++) out[k * d + i] = x[r * d + i]; });
    return out;
  }

  // The forward pass of explorables/tiny_model.py's `forward`: `file` a model's export
  // (window.PrimerTinyModel[scheme]), tokens (T,), scheme (the suite's name), speeds [θ..., factor]
  // for RoPE (the export's speeds[method][length index]) or null. `rows` (optional): the query rows
  // whose logits are wanted (default all; the last layer then computes only those). Returns
  // {logits: rows × vocab, attention: per layer, per head, the weights (each row over the T keys)
  // of the wanted rows}: arrays of plain arrays.
  function forward(file, tokens, scheme, speeds, rows) {
    var w = decode(file), T = tokens.length, d = w.embed.cols, H = w.nHeads, dh = d / H;
    var all = [], t, i, h;
    for (t = 0; t < T; t++) all.push(t);
    rows = rows || all;
    var wanted = {};
    rows.forEach(function (r) { wanted[r] = true; });
    var x = new Float64Array(T * d);
    for (t = 0; t < T; t++) {
      for (i = 0; i < d; i++) {
        x[t * d + i] = w.embed.a[tokens[t] * d + i] * w.embedScale + (scheme === "learned" ? w.W_pos.a[t * d + i] : 0);
      }
    }
    var cos = null, sin = null;
    if (scheme === "rope") {
      cos = new Float64Array(T * dh / 2); sin = new Float64Array(T * dh / 2);
      for (t = 0; t < T; t++) {
        for (i = 0; i < dh / 2; i++) {
          var angle = t * speeds[i];
          cos[t * dh / 2 + i] = Math.cos(angle) * speeds[dh / 2];
          sin[t * dh / 2 + i] = Math.sin(angle) * speeds[dh / 2];
        }
      }
    }
    function rotate(v, at) {  // the half-split rotation of each head's vectors, rows at positions `at`
      for (var r = 0; r < at.length; r++) {
        for (var hh = 0; hh < H; hh++) {
          var o = r * d + hh * dh;
          for (var j = 0; j < dh / 2; j++) {
            var a = v[o + j], b = v[o + j + dh / 2], c = cos[at[r] * dh / 2 + j], s = sin[at[r] * dh / 2 + j];
            v[o + j] = a * c - b * s;
            v[o + j + dh / 2] = b * c + a * s;
          }
        }
      }
    }
    var attention = [];
    w.blocks.forEach(function (b, layer) {
      var last = layer === w.blocks.length - 1, at = last ? rows : all, n = at.length;
      var hn = layerNorm(x, T, d, b.norm1_g, b.norm1_b);
      var q = linear(last ? pick(hn, d, at) : hn, n, b.W_q, b.b_q);
      var k = linear(hn, T, b.W_k, b.b_k), v = linear(hn, T, b.W_v, b.b_v);
      if (cos) { rotate(q, at); rotate(k, all); }
      var out = new Float64Array(n * d), weights = [], scores = new Float64Array(T), root = Math.sqrt(dh);
      for (h = 0; h < H; h++) {
        var head = {}, slope = scheme === "alibi" ? w.slopes[h] : 0, o = h * dh;
        for (var r = 0; r < n; r++) {
          var p = at[r], top = -Infinity, j, s, qo = r * d + o;
          for (j = 0; j <= p; j++) {
            s = 0;
            for (i = 0; i < dh; i++) s += q[qo + i] * k[j * d + o + i];
            s = s / root + (slope ? -slope * (p - j) : 0);
            scores[j] = s;
            if (s > top) top = s;
          }
          var total = 0;
          for (j = 0; j <= p; j++) { scores[j] = Math.exp(scores[j] - top); total += scores[j]; }
          for (j = 0; j <= p; j++) {
            var weight = scores[j] / total;
            scores[j] = weight;
            for (i = 0; i < dh; i++) out[qo + i] += weight * v[j * d + o + i];
          }
          if (wanted[p]) {
            var row = new Array(T).fill(0);
            for (j = 0; j <= p; j++) row[j] = scores[j];
            head[p] = row;
          }
        }
        weights.push(rows.map(function (p) { return head[p]; }));  // in the order asked
      }
      attention.push(weights);
      var resid = last ? pick(x, d, at) : x, o = linear(out, n, b.W_o, b.b_o);
      for (i = 0; i < n * d; i++) resid[i] += o[i];
      var h2 = layerNorm(resid, n, d, b.norm2_g, b.norm2_b), f = linear(h2, n, b.W_1, b.c_1);
      for (i = 0; i < f.length; i++) f[i] = 0.5 * f[i] * (1 + erf(f[i] / Math.SQRT2));
      var m = linear(f, n, b.W_2, b.c_2);
      for (i = 0; i < n * d; i++) resid[i] += m[i];
      x = resid;
    });
    var logits = linear(layerNorm(x, rows.length, d, w.norm_f_g, w.norm_f_b), rows.length, w.embed, null);
    var V = w.embed.rows, table = [];
    for (t = 0; t < rows.length; t++) table.push(Array.prototype.slice.call(logits, t * V, (t + 1) * V));
    return { logits: table, attention: attention };
  }

  // ---- the prompt (experiments/tasks.py's layout) ----------------------------------------------
  // BOS, filler, the passage, filler, then the copy of 8 of its tokens; the question is the copy's
  // last place but one (row T − 2), whose answer is the prompt's last token. `near`: the passage just
  // before the copy, which copies its last 8 tokens (the fact 8 places back); else right after BOS,
  // copying its first 8 (the fact T − 9 places back). Filler ids drawn by a seeded generator.
  function prompt(task, length, passage, near, seed) {
    var b = task.copy, a = passage.length, room = length - 1 - b - a, tokens = [task.bos], state = seed >>> 0;
    function filler() { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return 1 + (state >>> 8) % task.n_filler; }
    var i;
    if (room < 0) return null;
    for (i = 0; i < (near ? room : 0); i++) tokens.push(filler());
    tokens.push.apply(tokens, passage);
    for (i = 0; i < (near ? 0 : room); i++) tokens.push(filler());
    tokens.push.apply(tokens, near ? passage.slice(a - b) : passage.slice(0, b));
    return tokens;
  }
  // The model's answer at row T − 2: {answer, p (its probability), expected, key (the place holding
  // the answer: one after the last earlier occurrence of the question's token, or -1), head [layer,
  // head] (the one, of all, that puts the most weight on that key; without one, the most
  // concentrated), weights (that head's row)}.
  function answer(file, tokens, scheme, speeds) {
    var T = tokens.length, row = T - 2, out = forward(file, tokens, scheme, speeds, [row]), z = out.logits[0];
    var top = 0, i;
    for (i = 1; i < z.length; i++) if (z[i] > z[top]) top = i;
    var total = 0;
    for (i = 0; i < z.length; i++) total += Math.exp(z[i] - z[top]);
    var key = -1;
    for (i = row - 1; i >= 0; i--) if (tokens[i] === tokens[row]) { key = i + 1; break; }
    var best = null, bestWeight = -1;
    out.attention.forEach(function (heads, layer) {  // each head's one row: the question's
      heads.forEach(function (rows, h) {
        var weights = rows[0], v = key >= 0 ? weights[key] : Math.max.apply(null, weights);
        if (v > bestWeight) { bestWeight = v; best = { head: [layer, h], weights: weights }; }
      });
    });
    return { answer: top, p: 1 / total, expected: tokens[T - 1], key: key, head: best.head, weights: best.weights };
  }

  // Node's parity test calls these (tests/node.py): the logits alone, and erf.
  function logits(file, tokens, scheme, speeds) { return forward(file, tokens, scheme, speeds).logits; }

  var pure = { forward: forward, logits: logits, erf: erf, prompt: prompt, answer: answer };
  PrimerExplorables.define("tiny_model", function (root, ctx) { mount(root, ctx); }, pure);

  // ---- the page --------------------------------------------------------------------------------
  function mount(root, ctx) {
    var P = ctx.plot, data = ctx.data, task = data.task, L = task.train_len, lengths = data.lengths;
    var models = window[data.global] = window[data.global] || {};
    var byName = {};
    data.schemes.forEach(function (s) { byName[s.name] = s; });
    var box = P.el("div", { class: "px-controls" }, root);
    var scheme = P.choice(box, "Scheme", data.schemes.map(function (s) { return [s.name, s.label]; }), "rope");
    var method = P.choice(box, "RoPE read", data.methods.map(function (m) { return [m.name, m.label]; }), "yarn");
    var length = P.control(box, "Length", { type: "range", min: lengths[0], max: lengths[lengths.length - 1],
                                             step: lengths[1] - lengths[0], value: 2 * L });
    var lengthText = P.el("span", { class: "px-tm-value" }, length.parentNode);
    var place = P.choice(box, "The fact", [["far", "at the start"], ["near", "8 tokens back"]], "far");
    var row = P.el("div", { class: "px-controls" }, root);
    var passage = P.control(row, "Passage (token ids " + task.first_content + " to " + (task.vocab_size - 1) + ")",
                            { type: "text", class: "px-tm-passage", spellcheck: "false", autocomplete: "off" });
    var fresh = P.el("button", { type: "button", text: "New passage" }, row);
    var load = P.el("button", { type: "button", class: "px-tm-load" }, root);
    var status = P.el("p", { class: "px-readout", role: "status" }, root);
    var readout = P.el("p", { class: "px-readout px-tm-answer" }, root);
    var strip = P.el("div", { class: "px-tm-strip" }, root);
    var draws = 0, words = [];

    function draw() {  // a fresh passage of 8 distinct ids from the seeded generator
      var ids = [], state = (2654435761 * (++draws)) >>> 0;
      while (ids.length < task.copy) {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        var id = task.first_content + (state >>> 8) % (task.vocab_size - task.first_content);
        if (ids.indexOf(id) < 0) ids.push(id);
      }
      words = ids;
      passage.value = ids.join(" ");
    }
    function read() {  // the passage field -> ids, or a message
      var ids = passage.value.trim().split(/[\s,]+/).map(Number);
      var bad = ids.filter(function (v) { return !(v >= task.first_content && v < task.vocab_size && v === Math.round(v)); });
      if (ids.length < task.copy || bad.length) return "A passage is at least " + task.copy + " token ids, each from " +
        task.first_content + " to " + (task.vocab_size - 1) + ".";
      words = ids;
      return "";
    }
    function sizeKB(s) { return Math.round(byName[s].bytes / 1024); }
    function labelLoad() {
      var s = scheme.value;
      load.textContent = models[s] ? byName[s].label + " model loaded (seed " + byName[s].seed + ")" :
        "Load the " + byName[s].label + " model (" + sizeKB(s) + " KB)";
    }
    var run = ctx.timed(function () {
      var s = scheme.value, T = +length.value, file = models[s];
      lengthText.textContent = T + " tokens (" + (T / L) + " L)";
      labelLoad();
      var problem = read();
      status.textContent = problem || (s === "rope" ? "" : "Stretching methods apply to RoPE; this model has no speeds to stretch.");
      if (!file || problem) { if (!file) readout.textContent = ""; return; }
      var tokens = prompt(task, T, words, place.value === "near", 7 + words.length);
      if (!tokens) { status.textContent = "The passage does not fit in " + T + " tokens."; return; }
      var speeds = s === "rope" ? file.speeds[method.value][file.lengths.indexOf(T)] : null;
      var a = answer(file, tokens, s, speeds), right = a.answer === a.expected;
      readout.textContent = "";
      readout.setAttribute("data-tokens", JSON.stringify(tokens));
      var span = function (key, value, text) { return P.el("span", { "data-key": key, "data-value": value, text: text }, readout); };
      readout.appendChild(document.createTextNode("Asked what follows " + tokens[T - 2] + ", the model answers "));
      span("answer", a.answer, String(a.answer));
      readout.appendChild(document.createTextNode(" with probability "));
      span("p", a.p, a.p.toFixed(3));
      readout.appendChild(document.createTextNode(right ? " (right). " : " (wrong: the passage says " + a.expected + "). "));
      readout.appendChild(document.createTextNode("The head that fetches it: layer " + (a.head[0] + 1) + ", head " + (a.head[1] + 1) +
        (a.key >= 0 ? ", " : ".")));
      if (a.key >= 0) {
        span("weight", a.weights[a.key], a.weights[a.key].toFixed(2));
        readout.appendChild(document.createTextNode(" of its attention on the place holding the answer."));
      }
      plot(tokens, a, s);
    });
    function plot(tokens, a, s) {
      strip.textContent = "";
      var T = tokens.length, f = P.frame(strip, P.widthOf(root, 720), 150, {
        x: { lo: 0, hi: T, label: "position in the prompt" }, y: { lo: 0, hi: 1, label: "weight" },
        label: "Attention of the fetching head from the question's place over the prompt" });
      var first = tokens.indexOf(words[0]), w = f.width / T;
      if (first >= 0) P.s("rect", { x: f.x(first), y: 0, width: words.length * w, height: f.height, class: "px-tm-band" }, f.g);
      a.weights.forEach(function (v, j) {
        if (v < 1e-3) return;
        P.s("rect", { x: f.x(j), y: f.y(v), width: Math.max(1, w - 0.5), height: f.height - f.y(v),
                      class: j === a.key ? "px-tm-key" : "px-tm-bar px-tm-s-" + s }, f.g);
      });
      P.el("p", { class: "px-tm-caption", text: "Shaded: the passage. " + (a.key >= 0 ? "The bar in the colour of the text: the place holding the answer." : "") }, strip);
    }
    function ensure() {  // the chosen model's weights, then a run
      var s = scheme.value;
      labelLoad();
      if (models[s]) return run();
      load.disabled = true;
      status.textContent = "Loading the " + byName[s].label + " model…";
      ctx.load(byName[s].path).then(function () { load.disabled = false; run(); load.focus(); },
        function (err) { load.disabled = false; status.textContent = err.message; });
    }
    draw();
    load.addEventListener("click", ensure);
    scheme.addEventListener("change", function () { if (Object.keys(models).length) ensure(); else run(); });
    [method, length, place].forEach(function (c) { c.addEventListener(c === length ? "input" : "change", run); });
    passage.addEventListener("change", run);
    fresh.addEventListener("click", function () { draw(); run(); });
    run();
  }
})();
