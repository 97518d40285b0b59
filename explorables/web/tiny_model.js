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
  // A seeded generator of uniform numbers in [0, 1) (mulberry32): the page's prompts are its own
  // draws, laid out as experiments/tasks.py's copy_batch lays out its.
  function uniform(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  // A prompt of `length` tokens: BOS, filler, a passage of distinct ids, filler, then a copy of 8 of
  // its tokens. "training" as copy_batch draws its training prompts (passage size a uniform in
  // 8..T−9, the filler split uniformly before and after it, the copied stretch's start uniform);
  // "near" (filler first, a passage of 8, copied whole: the fact 8 back) and "far" (the passage of 8
  // right after BOS: the fact T − 9 back) as its grid cells near-8 and far-8. Returns {tokens,
  // passage: [first place, size], stretch: the copied stretch's first place}.
  function prompt(task, length, placement, seed) {
    var next = uniform(seed), b = task.copy, room = length - 1 - b, i, j;
    var ids = [];
    for (i = task.first_content; i < task.vocab_size; i++) ids.push(i);
    for (i = ids.length - 1; i > 0; i--) { j = Math.floor(next() * (i + 1)); var t = ids[i]; ids[i] = ids[j]; ids[j] = t; }
    var size = b, start = 0, before = placement === "near" ? room - b : 0;
    if (placement === "training") {
      size = b + Math.floor(next() * (room - b + 1));
      start = Math.floor(next() * (size - b + 1));
      before = Math.floor(next() * (room - size + 1));
    }
    var tokens = [task.bos];
    for (i = 1; i < length - b; i++) {
      var k = i - 1 - before;
      tokens.push(k >= 0 && k < size ? ids[k] : 1 + Math.floor(next() * task.n_filler));
    }
    for (i = 0; i < b; i++) tokens.push(ids[start + i]);
    return { tokens: tokens, passage: [1 + before, size], stretch: 1 + before + start };
  }
  // A reader's edit of prompt `made`'s copied stretch (the 8 passage tokens the copy repeats, the
  // facts the questions ask for): `text` the 8 ids, space- or comma-separated. They replace the
  // stretch in the passage and in the copy alike, so the length and the task's layout stay: each id
  // a passage id (task.first_content .. vocab_size − 1), and the passage's ids distinct (none twice,
  // none elsewhere in the passage). Returns {tokens, passage, stretch} or {error: what is wrong}.
  function edit(task, made, text) {
    var b = task.copy, lo = task.first_content, hi = task.vocab_size - 1, words = text.trim().split(/[\s,]+/), i;
    if (words.length === 1 && words[0] === "") words = [];
    if (words.length !== b) return { error: "The copied stretch is " + b + " token ids; this has " + words.length + "." };
    var ids = [], rule = "each a passage id from " + lo + " to " + hi;
    for (i = 0; i < b; i++) {
      if (!/^\d+$/.test(words[i]) || +words[i] < lo || +words[i] > hi) return { error: "“" + words[i] + "” is not a passage id: " + rule + "." };
      if (ids.indexOf(+words[i]) >= 0) return { error: words[i] + " is there twice: the passage's ids are distinct." };
      ids.push(+words[i]);
    }
    var first = made.passage[0], size = made.passage[1], at = made.stretch - first;
    for (i = 0; i < size; i++) {
      if ((i < at || i >= at + b) && ids.indexOf(made.tokens[first + i]) >= 0) {
        return { error: made.tokens[first + i] + " is already in the passage (place " + (first + i) + "): its ids are distinct." };
      }
    }
    var tokens = made.tokens.slice(), T = tokens.length;
    for (i = 0; i < b; i++) { tokens[made.stretch + i] = ids[i]; tokens[T - b + i] = ids[i]; }
    return { tokens: tokens, passage: made.passage, stretch: made.stretch };
  }
  // The model on the task's 7 scored places (the copy's rows T − 8 .. T − 2, each asked for the next
  // token, as experiments/train.evaluate scores): {answers, p (each answer's probability), right
  // (the right token's), expected, hits (how many answers right), and for the last question (row
  // T − 2): key (the place holding its answer: one after the last earlier occurrence of the
  // question's token), head [layer, head] (of all, the one with the most attention on the key; it
  // attends there, which is not proof that it fetches the answer) and weights (its row)}.
  function answer(file, tokens, scheme, speeds) {
    var T = tokens.length, b = 8, rows = [], i;
    for (i = T - b; i <= T - 2; i++) rows.push(i);
    var out = forward(file, tokens, scheme, speeds, rows), res = { answers: [], p: [], right: [], expected: [], hits: 0 };
    out.logits.forEach(function (z, r) {
      var top = 0, total = 0, want = tokens[rows[r] + 1];
      for (i = 1; i < z.length; i++) if (z[i] > z[top]) top = i;
      for (i = 0; i < z.length; i++) total += Math.exp(z[i] - z[top]);
      res.answers.push(top); res.p.push(1 / total); res.expected.push(want);
      res.right.push(Math.exp(z[want] - z[top]) / total);
      if (top === want) res.hits++;
    });
    var last = rows.length - 1, key = -1;
    for (i = T - 3; i >= 0; i--) if (tokens[i] === tokens[T - 2]) { key = i + 1; break; }
    var bestWeight = -1;
    out.attention.forEach(function (heads, layer) {
      heads.forEach(function (weights, h) {
        var v = weights[last][key];
        if (v > bestWeight) { bestWeight = v; res.head = [layer, h]; res.weights = weights[last]; }
      });
    });
    res.key = key;
    return res;
  }
  // `n` seeded prompts (seeds 1..n) drawn as in training at `length`: {share of their scored tokens
  // right, hits, scored}.
  function sample(file, task, length, scheme, speeds, n) {
    var hits = 0;
    for (var seed = 1; seed <= n; seed++) hits += answer(file, prompt(task, length, "training", seed).tokens, scheme, speeds).hits;
    return { share: hits / (7 * n), hits: hits, scored: 7 * n };
  }

  // Node's parity test calls these (tests/node.py): the logits alone, and erf.
  function logits(file, tokens, scheme, speeds) { return forward(file, tokens, scheme, speeds).logits; }

  var pure = { forward: forward, logits: logits, erf: erf, prompt: prompt, edit: edit, answer: answer, sample: sample };
  PrimerExplorables.define("tiny_model", function (root, ctx) { mount(root, ctx); }, pure);

  // ---- the page --------------------------------------------------------------------------------
  var SAMPLE = 20;  // prompts the Score button runs
  function mount(root, ctx) {
    var P = ctx.plot, data = ctx.data, task = data.task, L = task.train_len, lengths = data.lengths;
    var models = window[data.global] = window[data.global] || {};
    var byName = {};
    data.schemes.forEach(function (s) { byName[s.name] = s; });
    var box = P.el("div", { class: "px-controls" }, root);
    var scheme = P.choice(box, "Scheme", data.schemes.map(function (s) { return [s.name, s.label]; }), "rope");
    var method = P.choice(box, "RoPE read", data.methods.map(function (m) { return [m.name, m.label]; }), "default");
    var length = P.control(box, "Length", { type: "range", min: lengths[0], max: lengths[lengths.length - 1],
                                             step: lengths[1] - lengths[0], value: 2 * L });
    var lengthText = P.el("span", { class: "px-tm-value" }, length.parentNode);
    var place = P.choice(box, "The fact", [["training", "anywhere, as in training"], ["far", "at the start"],
                                           ["near", "8 tokens back"]], "training");
    var row = P.el("div", { class: "px-controls" }, root);
    var load = P.el("button", { type: "button", class: "px-tm-load" }, row);
    var score = P.el("button", { type: "button", text: "Score " + SAMPLE + " prompts" }, row);
    var editRow = P.el("div", { class: "px-controls" }, root), said = ctx.id("message");
    var field = P.control(editRow, "Copied stretch (" + task.copy + " ids, " + task.first_content + "–" + (task.vocab_size - 1) + ")",
                          { type: "text", class: "px-tm-passage", spellcheck: "false", autocomplete: "off",
                            enterkeyhint: "done", "aria-describedby": said });
    var fresh = P.el("button", { type: "button", text: "New prompt" }, editRow);
    // One live region in the box, the summary: loading, a refused edit and each run's short result are
    // said there, and only when its text changes; the note and the field's message are not live.
    var message = P.el("span", { class: "px-tm-message", id: said }, editRow);
    var note = P.el("p", { class: "px-readout px-tm-note" }, root);
    var summary = P.el("p", { class: "px-readout px-tm-summary", "aria-live": "polite" }, root);
    var readout = P.el("p", { class: "px-readout px-tm-answer" }, root);
    var seven = P.el("p", { class: "px-readout px-tm-seven" }, root);
    var scored = P.el("p", { class: "px-readout px-tm-score" }, root);
    var strip = P.el("div", { class: "px-tm-strip" }, root);
    var seed = 1, edited = null, drawnFor = "", pending = 0;

    function sizeKB(s) { return Math.round(byName[s].bytes / 1024); }
    function labelLoad() {
      var s = scheme.value;
      load.textContent = models[s] ? byName[s].label + " model loaded (seed " + byName[s].seed + ")" :
        "Load the " + byName[s].label + " model (" + sizeKB(s) + " KB)";
      score.disabled = !models[s];
    }
    function speedsOf(s, T) { return s === "rope" ? models[s].speeds[method.value][models[s].lengths.indexOf(T)] : null; }
    function text(parent, t) { parent.appendChild(document.createTextNode(t)); }
    function put(el, t) { if (el.textContent !== t) el.textContent = t; }  // unchanged text is not rewritten
    function span(parent, key, value, t) { return P.el("span", { "data-key": key, "data-value": value, text: t }, parent); }
    var run = ctx.timed(function () {
      var s = scheme.value, T = +length.value, file = models[s];
      lengthText.textContent = T + " tokens (" + (T / L) + " L)";
      labelLoad();
      scored.textContent = "";
      put(note, s === "rope" ? "" : "Stretching methods apply to RoPE; this model has no speeds to stretch.");
      var made = edited || drawn(T);
      if (!file) { readout.textContent = seven.textContent = ""; put(summary, ""); return; }
      var tokens = made.tokens;
      var a = answer(file, tokens, s, speedsOf(s, T)), last = a.answers.length - 1, right = a.answers[last] === a.expected[last];
      readout.textContent = "";
      readout.setAttribute("data-tokens", JSON.stringify(tokens));
      text(readout, "Of the 7 copied tokens it must predict, the model gets ");
      span(readout, "hits", a.hits, String(a.hits));
      text(readout, " right. The last: asked what follows " + tokens[T - 2] + ", it answers ");
      span(readout, "answer", a.answers[last], String(a.answers[last]));
      text(readout, " with probability ");
      span(readout, "p", a.p[last], a.p[last].toFixed(3));
      text(readout, right ? " (right). " : " (wrong: the passage says " + a.expected[last] + "). ");
      text(readout, "The head that attends most to the answer's place (" + a.key + "): layer " + (a.head[0] + 1) +
        ", head " + (a.head[1] + 1) + ", with weight ");
      span(readout, "weight", a.weights[a.key], a.weights[a.key].toFixed(2));
      text(readout, ".");
      seven.textContent = "At the 7 scored places it answers ";
      a.answers.forEach(function (got, r) {
        span(seven, "answer-" + (r + 1), got, String(got));
        text(seven, " (p ");
        span(seven, "p-" + (r + 1), a.p[r], a.p[r].toFixed(2));
        text(seven, (got === a.expected[r] ? "" : "; the passage says " + a.expected[r]) + (r < 6 ? "), " : ")."));
      });
      put(summary, a.hits + " of 7 right; last answers " + a.answers[last] + ", p " + a.p[last].toFixed(3) +
        ", " + (right ? "right" : "wrong"));
      plot(tokens, made.passage, a, s);
    });
    // The drawn prompt for this length, fact's place and seed; a new one refills the field.
    function drawn(T) {
      var made = prompt(task, T, place.value, seed), at = [T, place.value, seed].join();
      if (at !== drawnFor) {
        drawnFor = at;
        field.value = made.tokens.slice(made.stretch, made.stretch + task.copy).join(" ");
        message.textContent = "";
        field.removeAttribute("aria-invalid");
      }
      return made;
    }
    function applyEdit() {  // the field -> the edited prompt and a run, or a message and no run
      pending = 0;
      var got = edit(task, edited || drawn(+length.value), field.value);
      if (got.error) {
        message.textContent = got.error; field.setAttribute("aria-invalid", "true"); put(summary, "Not run: " + got.error);
        return;
      }
      message.textContent = "";
      field.removeAttribute("aria-invalid");
      edited = got;
      run();
    }
    function editSoon() { clearTimeout(pending); pending = setTimeout(applyEdit, 150); }
    function plot(tokens, passage, a, s) {
      strip.textContent = "";
      var T = tokens.length, f = P.frame(strip, P.widthOf(root, 720), 150, {
        x: { lo: 0, hi: T, label: "position in the prompt" }, y: { lo: 0, hi: 1, label: "weight" },
        label: "Attention of the head that attends most to the answer's place, from the last question over the prompt" });
      var w = f.width / T;
      P.s("rect", { x: f.x(passage[0]), y: 0, width: passage[1] * w, height: f.height, class: "px-tm-band" }, f.g);
      a.weights.forEach(function (v, j) {
        if (v < 1e-3) return;
        P.s("rect", { x: f.x(j), y: f.y(v), width: Math.max(1, w - 0.5), height: f.height - f.y(v),
                      class: j === a.key ? "px-tm-key" : "px-tm-bar px-tm-s-" + s }, f.g);
      });
      P.el("p", { class: "px-tm-caption", text: "Shaded: the passage. The bar in the colour of the text: the place holding the last answer." }, strip);
    }
    function study() {  // the suite's own number for this setting, or why there is none
      var s = scheme.value, T = +length.value, ref = s === "rope" && method.value !== "default" ? s + ":" + method.value : s;
      var cell = (data.study[ref] || {})[T];
      return cell || null;
    }
    function scoreNow() {
      var s = scheme.value, T = +length.value, file = models[s];
      if (!file) return;
      scored.textContent = "Scoring " + SAMPLE + " prompts…";
      setTimeout(function () {
        var got = sample(file, task, T, s, speedsOf(s, T), SAMPLE), cell = study();
        scored.textContent = "";
        text(scored, SAMPLE + " prompts drawn as in training, " + got.scored + " tokens scored: ");
        span(scored, "share", got.share, got.share.toFixed(2));
        text(scored, " right. ");
        if (cell) {
          text(scored, "The study, on its 256 prompts: this seed ");
          span(scored, "study-seed", cell.seed, cell.seed.toFixed(2));
          text(scored, ", the mean of its " + cell.seeds + " seeds ");
          span(scored, "study-mean", cell.mean, cell.mean.toFixed(2));
          text(scored, ".");
        } else {
          text(scored, "The study measured " + Object.keys(data.study[s]).map(function (n) { return (n / L) + "L"; }).join(", ") + " only.");
        }
        put(summary, got.share.toFixed(2) + " right over " + SAMPLE + " prompts" +
          (cell ? "; the study " + cell.seed.toFixed(2) : ""));
      }, 0);
    }
    function ensure() {  // the chosen model's weights, then a run
      var s = scheme.value;
      labelLoad();
      if (models[s]) return run();
      load.disabled = true;
      put(summary, "Loading the " + byName[s].label + " model…");
      ctx.load(byName[s].path).then(function () {  // decoded (once) and warmed here, not in a timed redraw
        decode(models[s]);
        var T = lengths[lengths.length - 1];
        forward(models[s], prompt(task, T, "training", 1).tokens, s, s === "rope" ? models[s].speeds["default"][lengths.length - 1] : null, [T - 2]);
        load.disabled = false; run(); load.focus();
      },
        function (err) { load.disabled = false; put(summary, err.message); });
    }
    load.addEventListener("click", ensure);
    scheme.addEventListener("change", function () { if (Object.keys(models).length) ensure(); else run(); });
    method.addEventListener("change", run);
    function redraw() { clearTimeout(pending); edited = null; run(); }  // a drawn prompt again; the field refilled
    [length, place].forEach(function (c) { c.addEventListener(c === length ? "input" : "change", redraw); });
    field.addEventListener("change", editSoon);
    field.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); editSoon(); } });
    fresh.addEventListener("click", function () { seed++; redraw(); });
    score.addEventListener("click", scoreNow);
    run();
  }
})();
