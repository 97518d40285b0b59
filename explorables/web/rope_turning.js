// RoPE, turning (lessons/rope.py, section 3, after the score-against-distance figure): one pair of
// the worked example's query and key on the unit circle, the key at position n and the query at
// m = n + gap (the site's gap: query minus key), and the whole head's score against the gap, with
// the pairs that have completed a turn within the gap marked, in any of section 3's four runs
// (original, converted, not converted, mismatched table). Data: explorables/rope_turning.py (the
// query and key at widths 16 and 128, as trained and permuted); numbers: PrimerCore's rotation and
// scores section.
(function (global) {
  "use strict";
  var TURN = 2 * Math.PI, MAX_GAP = 4096;

  // The gaps the gap slider steps through: every gap 0..16, then 16·2^(k/16) rounded, k = 1..128,
  // without repeats, up to 4,096: fine steps where one position turns the fast pairs visibly,
  // steps of about 4% further out (End jumps to 4,096).
  function gapLadder() {
    var out = [];
    for (var g = 0; g <= 16; g++) out.push(g);
    for (var k = 1; k <= 128; k++) {
      var v = Math.round(16 * Math.pow(2, k / 16));
      if (v > out[out.length - 1]) out.push(v);
    }
    return out;
  }

  // The bases the base slider steps through: 10, 20, 50, 100, ... 500,000, 1,000,000 (1-2-5 steps
  // on a log scale; 10,000 is the RoFormer and Llama 2 base, 500,000 Llama 3's, 10^6 Qwen2.5's).
  function baseLadder() {
    var out = [];
    for (var e = 1; e <= 6; e++) [1, 2, 5].forEach(function (m) { if (m * Math.pow(10, e) <= 1e6) out.push(m * Math.pow(10, e)); });
    return out;
  }

  // The query and key run `run` (one of section 3's four: "original", "converted", "not converted",
  // "mismatched table") turns at head width `width`, and the layout it turns them in.
  function head(width, run) {
    var D = global.PrimerExplorableData.rope_turning, r = D.runs[run || "original"], h = D.widths[String(width)][r[0]];
    return { q: h.q, k: h.k, layout: r[1] };
  }

  function unitAngle(v) { return ((v % TURN) + TURN) % TURN; }

  // Everything the explorable shows for one setting: the head `width` (16 or 128), the `base`, the
  // `gap` m − n, the `pair` i drawn on the circle, the key's position `n` and the `run`. The score
  // turns the query to m = n + gap and the key to n, so whether it depends on the gap alone is
  // the layout's doing, not the box's.
  function view(width, base, gap, pair, n, run) {
    var core = global.PrimerCore, h = head(width, run), theta = core.invFreq(width, base), m = n + gap;
    var at = core.layoutScore(h.q, h.k, m, n, theta, h.layout), dims = core.pairDims(width, h.layout, pair);
    var ghost = core.turnVector(h.q, n, theta, h.layout), turns = core.pairsThatTurn(theta, gap);
    var dir = function (x) { return Math.atan2(x[dims[1]], x[dims[0]]); };
    return {
      layout: h.layout, dims: dims, theta: theta[pair], wavelength: TURN / theta[pair],
      angle: gap * theta[pair],              // how much further pair i turns over the gap at its own speed
      queryAngle: dir(at.q), keyAngle: dir(at.k), ghostAngle: dir(ghost),  // each arrow's direction
      extra: unitAngle(dir(at.q) - dir(ghost)),  // the query's drawn turn from n to m, within one turn
      share: at.shares[pair], score: at.score,
      turnedEach: turns, turned: turns.filter(Boolean).length, pairs: theta.length,
    };
  }

  // The head's score at every gap 0..MAX_GAP with the key at n, for the curve.
  function curve(width, base, n, run) {
    var core = global.PrimerCore, h = head(width, run);
    return core.layoutScoreCurve(h.q, h.k, core.invFreq(width, base), n || 0, MAX_GAP, h.layout);
  }

  // A number as the readout prints it: whole numbers with thousands commas from 1,000 up, else 4 digits.
  function fmt(v) {
    return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString("en-US") : String(+v.toPrecision(4));
  }

  function mount(root, ctx) {
    var P = ctx.plot, GAPS = gapLadder(), BASES = baseLadder(), cached = {};
    var controls = P.el("div", { class: "px-controls" }, root);
    var width = P.choice(controls, "Head width d", [["16", "16 (section 3's head)"], ["128", "128 (Llama's heads)"]], "16");
    var run = P.choice(controls, "Layout", [["original", "original"], ["converted", "converted correctly"],  // section 3's table's rows
                                            ["not converted", "not converted"], ["mismatched table", "mismatched table"]], "original");
    function slider(label, key, max, value) {
      var input = P.control(controls, label, { type: "range", min: 0, max: max, step: 1, value: value });
      var shown = P.el("span", { class: "px-rt-value", "data-key": key }, input.parentNode);
      return { input: input, shown: shown };
    }
    var gap = slider("Gap m − n", "gap", GAPS.length - 1, GAPS.indexOf(4));
    var base = slider("Base", "base", BASES.length - 1, BASES.indexOf(10000));
    var pair = slider("Pair i", "pair", 7, 0);
    var key = slider("Key at n", "n", GAPS.length - 1, 0);
    var panels = P.el("div", { class: "px-rt-panels" }, root);
    var live = P.el("p", { class: "px-readout px-rt-live", "aria-live": "polite" }, root);  // one short sentence
    var out = P.el("p", { class: "px-readout" }, root);

    function show(s, value, text) {
      s.shown.setAttribute("data-value", value);
      s.shown.textContent = text;
      s.input.setAttribute("aria-valuetext", text);
    }
    function arrow(g, c, r, angle, cls) {  // from the centre c to radius r at `angle` (counterclockwise)
      var x = c + r * Math.cos(angle), y = c - r * Math.sin(angle), a = 7;
      P.s("line", { x1: c, y1: c, x2: x, y2: y, class: cls }, g);
      var l = angle + Math.PI - 0.45, rr = angle + Math.PI + 0.45;
      P.s("polygon", { points: [x, y, x + a * Math.cos(l), y - a * Math.sin(l), x + a * Math.cos(rr), y - a * Math.sin(rr)].join(" "),
                       class: cls + " px-rt-head" }, g);
      return [x, y];
    }
    function circle(parent, size, v, i) {
      var svg = P.s("svg", { width: size, height: size, viewBox: "0 0 " + size + " " + size, class: "px-plot px-rt-circle",
                             role: "img", "aria-label": "Pair " + i + " of the query and the key on the unit circle" }, parent);
      var c = size / 2, r = size / 2 - 26;
      P.s("circle", { cx: c, cy: c, r: r, class: "px-rt-ring" }, svg);
      P.s("line", { x1: c - r - 6, x2: c + r + 6, y1: c, y2: c, class: "px-rt-axis" }, svg);
      P.s("line", { y1: c - r - 6, y2: c + r + 6, x1: c, x2: c, class: "px-rt-axis" }, svg);
      arrow(svg, c, r, v.ghostAngle, "px-rt-ghost");  // the query at n, before the gap's turn
      var turn = v.extra, a0 = v.ghostAngle, ra = r * 0.38;
      if (turn > 1e-9) {  // the arc the query turns beyond its place at n (whole turns not drawn)
        P.s("path", { d: "M" + (c + ra * Math.cos(a0)) + " " + (c - ra * Math.sin(a0)) + "A" + ra + " " + ra + " 0 " +
                         (turn > Math.PI ? 1 : 0) + " 0 " + (c + ra * Math.cos(a0 + turn)) + " " + (c - ra * Math.sin(a0 + turn)),
                      class: "px-rt-arc" }, svg);
      }
      var tk = arrow(svg, c, r, v.keyAngle, "px-rt-key"), tq = arrow(svg, c, r, v.queryAngle, "px-rt-query");
      [[tk, v.keyAngle, "k"], [tq, v.queryAngle, "q"]].forEach(function (t) {
        P.s("text", { x: c + (r + 14) * Math.cos(t[1]), y: c - (r + 14) * Math.sin(t[1]) + 4, "text-anchor": "middle",
                      class: "px-text px-rt-label", text: t[2] }, svg);
      });
    }
    function plot(parent, w, s, g, v, i) {
      var lo = Math.min.apply(null, s), hi = Math.max.apply(null, s), pad = (hi - lo) * 0.06 || 1;
      var f = P.frame(parent, w, 230, { label: "The head's score against the gap, log scale; gap 0 at the left edge",
                                        x: { lo: 0.5, hi: MAX_GAP, log: true, label: "gap m − n (log scale)" },
                                        y: { lo: lo - pad, hi: hi + pad, label: "score q·k" } });
      var X = function (gg) { return f.x(Math.max(gg, 0.5)); };
      P.s("text", { x: X(0), y: f.height + 16, "text-anchor": "middle", class: "px-text", text: "0" }, f.g);
      if (lo - pad < 0 && hi + pad > 0) P.s("line", { x1: 0, x2: f.width, y1: f.y(0), y2: f.y(0), class: "px-rt-axis" }, f.g);
      if (v.wavelength <= MAX_GAP) {  // where the chosen pair completes its first turn
        P.s("line", { x1: X(v.wavelength), x2: X(v.wavelength), y1: 0, y2: f.height, class: "px-rt-first-turn" }, f.g);
      }
      P.s("path", { d: P.path(s.map(function (y, gg) { return [X(gg), f.y(y)]; })), class: "px-rt-curve" }, f.g);
      P.s("line", { x1: X(g), x2: X(g), y1: 0, y2: f.height, class: "px-rt-now" }, f.g);
      P.s("circle", { cx: X(g), cy: f.y(v.score), r: 4.5, class: "px-rt-marker" }, f.g);
      // the pair strip: one cell per pair, fast (0) to slow, filled once the pair has turned within the gap
      var strip = P.s("svg", { width: w, height: 26, viewBox: "0 0 " + w + " 26", class: "px-plot px-rt-strip", role: "img",
                               "aria-label": v.turned + " of " + v.pairs + " pairs have completed a turn" }, parent);
      var cw = f.width / v.pairs;
      for (var p = 0; p < v.pairs; p++) {
        P.s("rect", { x: 48 + p * cw + 0.5, y: 4, width: Math.max(cw - 1, 1), height: 14,
                      class: "px-rt-cell" + (v.turnedEach[p] ? " px-rt-turned" : "") + (p === i ? " px-rt-chosen" : "") }, strip);
      }
    }

    var draw = ctx.timed(function () {
      if (!root.isConnected && root.dataset.state === "ready") { window.removeEventListener("resize", draw); return; }
      var d = +width.value, pairs = d / 2;
      pair.input.max = pairs - 1;
      if (+pair.input.value > pairs - 1) pair.input.value = pairs - 1;
      var g = GAPS[+gap.input.value], b = BASES[+base.input.value], i = +pair.input.value, n = GAPS[+key.input.value];
      show(gap, g, fmt(g)); show(base, b, fmt(b)); show(pair, i, String(i)); show(key, n, fmt(n));
      var rn = run.value, v = view(d, b, g, i, n, rn), id = [d, b, n, rn].join(":");
      if (!cached[id]) cached[id] = curve(d, b, n, rn);
      panels.textContent = "";
      var W = P.widthOf(panels, 760), side = W >= 600, size = side ? 210 : Math.min(230, W);
      var pw = side ? W - size - 16 : W;  // the plot's width; each panel as wide as what it draws
      var left = P.el("figure", { class: "px-rt-panel", style: "width:" + size + "px" }, panels);
      var right = P.el("figure", { class: "px-rt-panel", style: "width:" + pw + "px" }, panels);
      circle(left, size, v, i);
      P.el("figcaption", { class: "px-rt-caption", text: "Pair " + i + " (dims " + v.dims.join(" and ") + "), directions only: q at m = n + gap, " +
                           "k at n; dashed, q at n; the arc is its extra turn (full turns not drawn)." }, left);
      plot(right, pw, cached[id], g, v, i);
      P.el("figcaption", { class: "px-rt-caption", text: "Line: the whole head's score at every gap, key at " + fmt(n) + "; dot: this gap; " +
                           "dashed: where pair " + i + " completes its first turn. Cells: pairs 0 to " + (pairs - 1) +
                           ", filled once turned within the gap; outlined: pair " + i + "." }, right);
      out.innerHTML = "";
      var put = function (text, k, value, shown) {
        if (text) out.appendChild(document.createTextNode(text));
        if (k) P.el("span", { "data-key": k, "data-value": value, text: shown }, out);
      };
      put("Pair " + i + " turns θ = " + fmt(v.theta) + " rad per position, one turn every " + fmt(v.wavelength) +
          " positions. Over the gap it turns ", "angle", v.angle, fmt(v.angle));
      put(" rad (" + fmt(v.angle / TURN) + " turns)" + (v.layout === "mismatched" ? " by its own speed, but this table turns " +
          "its two numbers at different speeds, so it is no rotation" : "") + "; this pair adds ", "share", v.share, v.share.toFixed(4));
      put(" to the score. The whole head's score: ", "score", v.score, v.score.toFixed(4));
      put(". Pairs that have completed a turn within the gap: ", "turned", v.turned, String(v.turned));
      put(" of " + pairs + ".");
      // the one sentence read aloud after each move (the readout above is not a live region)
      live.textContent = "score " + v.score.toFixed(2) + " at gap " + fmt(g) + ", key at " + fmt(n) + "; " + v.turned +
                         " of " + pairs + " pairs turned";
    });
    [width, run, gap.input, base.input, pair.input, key.input].forEach(function (c) { c.addEventListener("input", draw); });
    width.addEventListener("change", draw);
    run.addEventListener("change", draw);
    window.addEventListener("resize", draw);
    draw();
  }

  PrimerExplorables.define("rope_turning", mount,
                           { gapLadder: gapLadder, baseLadder: baseLadder, view: view, curve: curve });
})(typeof window !== "undefined" ? window : globalThis);
