// The numeric core the explorables and the decoder share (window.PrimerCore; in Node, module.exports).
// Plain numbers in, plain numbers out: no DOM, no checks (the decoder, modelcard/web/model_card.js,
// checks a config as transformers does before it calls these). Each function names the Python it
// follows and does its arithmetic in the same order, in float64 as numpy does (lessons/context_extension.py's
// rope_inv_freq computes in float64, not in transformers' float32), so most results are the same double;
// tests/test_explorables_core_node.py holds it to that Python.
(function (global) {
  "use strict";

  // ---- RoPE speeds: lessons/context_extension.py, lessons/positional.py ------------------------

  // θ_i = base^(−2i/d) for i < d/2 (ceil(d/2) speeds for an odd d): the speed of each rotated pair
  // (lessons.positional.rope_frequencies, the default speeds of rope_inv_freq).
  function invFreq(headDim, base) {
    var out = [];
    for (var i = 0; i < headDim / 2; i++) out.push(Math.pow(base, -(2 * i) / headDim));
    return out;
  }

  // 2π/θ_i: the positions a pair takes to complete a turn (rope_wavelengths; Infinity for a still pair).
  function wavelengths(theta) { return theta.map(function (t) { return 2 * Math.PI / t; }); }

  // The angle each pair has turned at position p: p·θ_i.
  function angles(theta, p) { return theta.map(function (t) { return p * t; }); }

  // lessons.positional.ntk_scaled_base: base · s^(d/(d−2)).
  function ntkScaledBase(base, scale, d) { return base * Math.pow(scale, d / (d - 2)); }

  // lessons.context_extension.ntk_pair_scale: new θ_i / old θ_i under NTK-aware scaling, s^(−2i/(d−2)).
  function ntkPairScale(d, factor) {
    var out = [];
    for (var i = 0; i < Math.floor(d / 2); i++) out.push(Math.pow(factor, -2 * i / (d - 2)));
    return out;
  }

  // lessons.context_extension.dynamic_ntk_stretch: s · n / L − (s − 1), n at least L.
  function dynamicStretch(factor, seqLen, trained) {
    return factor * Math.max(seqLen, trained) / trained - (factor - 1);
  }

  // lessons.context_extension.yarn_correction_dim: the pair that turns r times in the trained length L.
  function yarnCorrectionDim(r, d, base, original) {
    return d * Math.log(original / (r * 2 * Math.PI)) / (2 * Math.log(base));
  }

  // lessons.context_extension.yarn_correction_range: [low, high] pair indices (whole pairs if truncate).
  function yarnCorrectionRange(fast, slow, d, base, original, truncate) {
    var low = yarnCorrectionDim(fast, d, base, original), high = yarnCorrectionDim(slow, d, base, original);
    if (truncate) { low = Math.floor(low); high = Math.ceil(high); }
    return [Math.max(low, 0), Math.min(high, d - 1)];
  }

  // lessons.context_extension.yarn_ramp: γ_i, 0 at or below low (kept), 1 at or above high, linear between.
  function yarnRamp(low, high, n) {
    if (low === high) high += 0.001;
    var out = [];
    for (var i = 0; i < n; i++) out.push(Math.min(Math.max((i - low) / (high - low), 0), 1));
    return out;
  }

  // lessons.context_extension.yarn_inv_freq: θ_i · (1 − γ_i) + (θ_i / s) · γ_i.
  function yarnSpeeds(theta, factor, ramp) {
    return theta.map(function (t, i) { return t * (1 - ramp[i]) + t / factor * ramp[i]; });
  }

  // lessons.context_extension.yarn_get_mscale: 0.1 · mscale · ln s + 1 for s > 1, else 1.
  function yarnMscale(scale, mscale) {
    if (scale <= 1) return 1.0;
    return 0.1 * (mscale === undefined ? 1.0 : mscale) * Math.log(scale) + 1.0;
  }

  // lessons.context_extension.yarn_attention_factor: DeepSeek's ratio when mscale and mscale_all_dim are set.
  function yarnAttentionFactor(factor, mscale, mscaleAllDim) {
    if (mscale && mscaleAllDim) return yarnMscale(factor, mscale) / yarnMscale(factor, mscaleAllDim);
    return yarnMscale(factor);
  }

  // lessons.context_extension.longrope_attention_factor: sqrt(1 + ln s / ln L) for s > 1, else 1.
  function longropeAttentionFactor(factor, original) {
    if (factor <= 1.0) return 1.0;
    return Math.sqrt(1 + Math.log(factor) / Math.log(original));
  }

  // lessons.context_extension.longrope_factors: long_factor once seqLen passes L, else short_factor.
  function longropeFactors(shortFactor, longFactor, seqLen, original) {
    return seqLen && seqLen > original ? longFactor : shortFactor;
  }

  // θ_i divided by each pair's factor (one factor divides every pair), as numpy broadcasts theta / factors.
  function divided(theta, factors) {
    return theta.map(function (t, i) { return t / factors[factors.length === 1 ? 0 : i]; });
  }

  // lessons.context_extension.llama3_inv_freq: keep short waves, divide long ones by s, blend between.
  function llama3Speeds(theta, factor, original, lowFreq, highFreq) {
    var longWave = original / lowFreq, shortWave = original / highFreq;
    return theta.map(function (t) {
      var wl = 2 * Math.PI / t;
      var smooth = (original / wl - lowFreq) / (highFreq - lowFreq), middle = (1 - smooth) * t / factor + smooth * t;
      var kept = wl > longWave ? t / factor : t;
      return wl >= shortWave && wl <= longWave ? middle : kept;
    });
  }

  // The proportional rule (Gemma 4's global layers): the first floor(partial · headDim / 2) pairs turn at
  // base^(−2i/headDim), the others stand still; factor divides all (rope_inv_freq's first branch).
  function proportionalSpeeds(headDim, base, partial, factor) {
    var turning = Math.floor(partial * headDim / 2), out = [];
    for (var i = 0; i < Math.floor(headDim / 2); i++) out.push((i < turning ? Math.pow(base, -(2 * i) / headDim) : 0) / factor);
    return out;
  }

  var ROPE_TYPES = ["default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional"];

  // lessons.context_extension.rope_type_of, trusting the block: rope_type, else type, else "default".
  function ropeTypeOf(params) {
    var type = params.rope_type || params.type || "default";
    if (type === "mrope") type = "default";
    if (ROPE_TYPES.indexOf(type) < 0) throw new Error("unknown rope_type '" + type + "'");
    return type;
  }

  // lessons.context_extension.rope_inv_freq(head_dim, rope_parameters, max_position_embeddings=maxPos,
  // seq_len=seqLen): {theta: the speeds per pair, attention: the number that multiplies cos and sin} for
  // one Hugging Face rope_parameters block (plain numbers, unchecked; params null: plain RoPE, base 10,000).
  function ropeSpeeds(headDim, params, maxPos, seqLen) {
    params = params || {};
    var type = ropeTypeOf(params), base = params.rope_theta || 10000.0;
    var partial = params.partial_rotary_factor == null ? 1.0 : params.partial_rotary_factor;
    if (type === "proportional")
      return { theta: proportionalSpeeds(headDim, base, partial, params.factor == null ? 1.0 : params.factor), attention: 1.0 };
    var d = Math.trunc(headDim * partial), theta = invFreq(d, base);
    var original = params.original_max_position_embeddings || maxPos, factor = params.factor, attention = params.attention_factor;
    if ((type === "yarn" || type === "longrope") && factor == null) factor = maxPos / original;
    if (type === "default") return { theta: theta, attention: 1.0 };
    if (type === "linear") return { theta: divided(theta, [factor]), attention: 1.0 };
    if (type === "dynamic") {
      var n = seqLen == null ? maxPos : seqLen;
      return { theta: invFreq(d, ntkScaledBase(base, dynamicStretch(factor, n, maxPos), d)), attention: 1.0 };
    }
    if (type === "yarn") {
      if (attention == null) attention = yarnAttentionFactor(factor, params.mscale, params.mscale_all_dim);
      var range = yarnCorrectionRange(params.beta_fast || 32, params.beta_slow || 1, d, base, original,
        params.truncate === undefined ? true : params.truncate);
      return { theta: yarnSpeeds(theta, factor, yarnRamp(range[0], range[1], Math.floor(d / 2))), attention: attention };
    }
    if (type === "longrope") {
      if (attention == null) attention = longropeAttentionFactor(factor, original);
      return { theta: divided(theta, longropeFactors(params.short_factor, params.long_factor, seqLen, original)), attention: attention };
    }
    return { theta: llama3Speeds(theta, factor, original, params.low_freq_factor, params.high_freq_factor), attention: 1.0 };
  }

  // ---- the explorer's measures: lessons/model_card.py, modelcard/explorer.py -----------------------

  // Python's round(): half to even.
  function roundHalfEven(x) { var r = Math.round(x); return Math.abs(x % 1) === 0.5 && r % 2 ? r - 1 : r; }

  // lessons.context_extension.trained_angle_ratio: per pair, the largest angle at newLen over the largest
  // seen in training (a pair that turned a full circle in training: the fraction of a turn, at most 1).
  function trainedAngleRatio(speeds, theta, trained, newLen) {
    return speeds.map(function (x, i) {
      var used = (newLen - 1) * x, seen = (trained - 1) * theta[i];
      return seen >= 2 * Math.PI ? Math.min(used / (2 * Math.PI), 1.0) : used / seen;
    });
  }

  // modelcard.explorer.past_trained: an angle ratio above L / (L − 1).
  function pastTrained(ratio, trained) { return ratio.map(function (r) { return r > trained / (trained - 1); }); }

  // modelcard.explorer.measures: {past, largest, untouched, slowest} of pairs of trained speeds theta
  // turned at speeds, trained at `trained` positions, read up to `reach` − 1 (still pairs left out).
  function measures(speeds, theta, trained, reach) {
    var turning = theta.map(function (x) { return x > 0; });
    speeds = speeds.filter(function (_, i) { return turning[i]; });
    theta = theta.filter(function (_, i) { return turning[i]; });
    var ratio = trainedAngleRatio(speeds, theta, trained, reach), scale = speeds.map(function (x, i) { return x / theta[i]; });
    return { past: pastTrained(ratio, trained).filter(Boolean).length, largest: Math.max.apply(null, ratio),
      untouched: scale.filter(function (x) { return Math.abs(x - 1) <= 1e-9; }).length, slowest: 1 / Math.min.apply(null, scale) };
  }

  // lessons.model_card.COMPARED: the methods the explorer sets for a stretch ("ntk": ntk_pair_scale).
  var COMPARED = {
    "linear (PI)": { rope_type: "linear" }, "NTK-aware": { rope_type: "ntk" },
    "YaRN": { rope_type: "yarn" }, "Llama 3 rule": { rope_type: "llama3", low_freq_factor: 1.0, high_freq_factor: 4.0 }
  };
  var NO_SCALING = "no scaling";  // modelcard.explorer.NO_SCALING

  // lessons.model_card.compare_methods for a head of `width` rotary dimensions and base `base`:
  // {method: new θ_i / old θ_i}, each method set for the stretch s, read at round(trained · s).
  function compareMethods(base, width, trained, s) {
    var plain = ropeSpeeds(width, { rope_theta: base }).theta, out = {};
    Object.keys(COMPARED).forEach(function (name) {
      var block = COMPARED[name], freq;
      if (block.rope_type === "ntk") {
        var scale = ntkPairScale(width, s);
        freq = plain.map(function (t, i) { return t * scale[i]; });
      } else {
        var params = { rope_theta: base, original_max_position_embeddings: trained, factor: s };
        Object.keys(block).forEach(function (k) { params[k] = block[k]; });
        params.factor = s;
        freq = ropeSpeeds(width, params, trained, roundHalfEven(trained * s)).theta;
      }
      out[name] = freq.map(function (f, i) { return f / plain[i]; });
    });
    return out;
  }

  // modelcard.explorer.method_measures: {method: measures} under no scaling and each compared method,
  // read at round(trained · stretch) positions (at most `window`, when the layers attend within one).
  function methodMeasures(base, width, trained, stretch, window) {
    var theta = ropeSpeeds(width, { rope_theta: base }).theta, served = roundHalfEven(trained * stretch);
    var scales = {}, compared = compareMethods(base, width, trained, stretch), out = {};
    scales[NO_SCALING] = theta.map(function () { return 1.0; });
    Object.keys(compared).forEach(function (k) { scales[k] = compared[k]; });
    Object.keys(scales).forEach(function (name) {
      out[name] = measures(theta.map(function (t, i) { return t * scales[name][i]; }), theta, trained, Math.min(served, window || served));
    });
    return out;
  }

  var api = {
    invFreq: invFreq, wavelengths: wavelengths, angles: angles, ntkScaledBase: ntkScaledBase, ntkPairScale: ntkPairScale,
    dynamicStretch: dynamicStretch, yarnCorrectionDim: yarnCorrectionDim, yarnCorrectionRange: yarnCorrectionRange,
    yarnRamp: yarnRamp, yarnSpeeds: yarnSpeeds, yarnMscale: yarnMscale, yarnAttentionFactor: yarnAttentionFactor,
    longropeAttentionFactor: longropeAttentionFactor, longropeFactors: longropeFactors, divided: divided,
    llama3Speeds: llama3Speeds, proportionalSpeeds: proportionalSpeeds, ROPE_TYPES: ROPE_TYPES, ropeTypeOf: ropeTypeOf,
    ropeSpeeds: ropeSpeeds, roundHalfEven: roundHalfEven, trainedAngleRatio: trainedAngleRatio, pastTrained: pastTrained,
    measures: measures, COMPARED: COMPARED, NO_SCALING: NO_SCALING, compareMethods: compareMethods, methodMeasures: methodMeasures
  };
  global.PrimerCore = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);

// ---- rotation and scores (rope_turning) ----
// One query and one key of a head, turned by RoPE in one of lessons/rope.py's three layouts, and the
// score they give: "interleaved" (dims 2i and 2i+1 are pair i), "half" (dims j and j + d/2 are pair
// j) and "mismatched" (the half-split formula read with an interleaved cos/sin table, section 3's
// bug: not a rotation). Added to PrimerCore after the sections above.
(function (core) {
  "use strict";

  // Each dimension c's rule in `layout` for a head of width d: c' = x_c cos a + sign · x_partner sin a,
  // with a = pos · θ_speed. partner and sign are lessons/rope.py's pair_partner and rotate_half;
  // speed is pair_of (interleaved, half) or the interleaved table's θ_0, θ_0, θ_1, θ_1, ...
  // (apply_rope_mismatched).
  function layoutDims(d, layout) {
    var h = d / 2, partner = [], sign = [], speed = [];
    for (var c = 0; c < d; c++) {
      var inter = layout === "interleaved";
      partner.push(inter ? c ^ 1 : (c + h) % d);
      sign.push((inter ? c % 2 === 0 : c < h) ? -1 : 1);
      speed.push(layout === "half" ? c % h : c >> 1);
    }
    return { partner: partner, sign: sign, speed: speed };
  }

  // x (d numbers) turned to position `pos` in `layout`: lessons/rope.py's apply_rope_interleaved,
  // apply_rope_half or apply_rope_mismatched on one vector.
  function turnVector(x, pos, theta, layout) {
    var L = layoutDims(x.length, layout), out = new Array(x.length);
    for (var c = 0; c < x.length; c++) {
      var a = pos * theta[L.speed[c]];
      out[c] = x[c] * Math.cos(a) + L.sign[c] * x[L.partner[c]] * Math.sin(a);
    }
    return out;
  }

  // The two dimensions drawn as pair i: (2i, 2i+1) interleaved, (i, i + d/2) in the half-split
  // formula (half, mismatched).
  function pairDims(d, layout, i) { return layout === "interleaved" ? [2 * i, 2 * i + 1] : [i, i + d / 2]; }

  // The score q·k with the query turned to position m and the key to n in `layout`, and each
  // pair's share of it: lessons/rope.py's score_at(..., m, n, layout) on the projected q and k.
  function layoutScore(q, k, m, n, theta, layout) {
    var tq = turnVector(q, m, theta, layout), tk = turnVector(k, n, theta, layout), shares = [], sum = 0;
    for (var i = 0; i < q.length / 2; i++) {
      var dims = pairDims(q.length, layout, i), s = tq[dims[0]] * tk[dims[0]] + tq[dims[1]] * tk[dims[1]];
      shares.push(s); sum += s;
    }
    return { score: sum, shares: shares, q: tq, k: tk };
  }

  // The score with the key at n and the query at n + g, for every gap g = 0..maxGap, for drawing:
  // the key turned once; for the query each speed's (cos, sin) starts at n θ and is stepped by θ per
  // gap (angle addition, no trigonometry per gap), so gap g carries g steps of rounding
  // (tests/test_explorable_rope_turning_node.py bounds it). A number a reader reads comes from
  // layoutScore.
  function layoutScoreCurve(q, k, theta, n, maxGap, layout) {
    var L = layoutDims(q.length, layout), tk = turnVector(k, n, theta, layout), out = new Array(maxGap + 1).fill(0);
    var bySpeed = theta.map(function () { return []; });
    for (var c = 0; c < q.length; c++) bySpeed[L.speed[c]].push(c);
    for (var j = 0; j < theta.length; j++) {
      var a = bySpeed[j][0], b = bySpeed[j][1];  // every layout turns exactly two dims at each speed
      var ac = q[a] * tk[a], as = L.sign[a] * q[L.partner[a]] * tk[a], bc = q[b] * tk[b], bs = L.sign[b] * q[L.partner[b]] * tk[b];
      var cc = ac + bc, ss = as + bs, dc = Math.cos(theta[j]), ds = Math.sin(theta[j]);
      var co = Math.cos(n * theta[j]), si = Math.sin(n * theta[j]), t;
      for (var g = 0; g <= maxGap; g++) {
        out[g] += cc * co + ss * si;
        t = co * dc - si * ds; si = si * dc + co * ds; co = t;
      }
    }
    return out;
  }

  // Which pairs have completed at least one full turn over `gap` positions: θ_i·gap ≥ 2π, one
  // boolean per pair (lessons/model_card.py's pairs_that_turn).
  function pairsThatTurn(theta, gap) {
    return theta.map(function (t) { return t * gap >= 2 * Math.PI; });
  }

  core.layoutDims = layoutDims;
  core.turnVector = turnVector;
  core.pairDims = pairDims;
  core.layoutScore = layoutScore;
  core.layoutScoreCurve = layoutScoreCurve;
  core.pairsThatTurn = pairsThatTurn;
})((typeof window !== "undefined" ? window : globalThis).PrimerCore);
