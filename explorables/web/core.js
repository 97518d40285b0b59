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
// One query and one key of a head, turned by RoPE in the interleaved layout (dims 2i and 2i+1 are
// pair i), and the score they give. Added to PrimerCore after the sections above.
(function (core) {
  "use strict";

  // One pair (x, y) turned by `angle` radians: (x cos a − y sin a, x sin a + y cos a), the formula of
  // lessons/positional.py's apply_rope (lessons/rope.py's apply_rope_interleaved).
  function rotatePair(x, y, angle) {
    var c = Math.cos(angle), s = Math.sin(angle);
    return [x * c - y * s, x * s + y * c];
  }

  // Pair i's share of the score when the query sits `gap` positions after the key (gap = m − n,
  // query minus key): (R_gap q)_i · k_i. Turning q by m θ_i and k by n θ_i gives the same number
  // (lessons/rope.py, section 3: ⟨R_m q, R_n k⟩ = ⟨R_(m−n) q, k⟩); with the key at 0 it is
  // exactly what lessons/rope.py's score_at turns.
  function pairScore(q, k, gap, theta, i) {
    var t = rotatePair(q[2 * i], q[2 * i + 1], gap * theta[i]);
    return t[0] * k[2 * i] + t[1] * k[2 * i + 1];
  }

  // The head's score q·k after RoPE, query `gap` positions after the key: the sum of every pair's
  // share (lessons/rope.py's score_at(W_q, W_k, x_q, x_k, m=gap, n=0), layout "interleaved").
  function ropeScore(q, k, gap, theta) {
    var sum = 0;
    for (var i = 0; i < theta.length; i++) sum += pairScore(q, k, gap, theta, i);
    return sum;
  }

  // The head's score at every gap 0..maxGap, for drawing: each pair's (cos, sin) stepped by its
  // turn per position (angle addition, no trigonometry per gap: 50 times quicker than ropeScore at
  // each gap), so gap g carries g steps of rounding (tests/test_explorable_rope_turning_node.py
  // bounds it). A number a reader reads comes from ropeScore.
  function ropeScoreCurve(q, k, theta, maxGap) {
    var out = new Array(maxGap + 1).fill(0);
    for (var i = 0; i < theta.length; i++) {
      var qx = q[2 * i], qy = q[2 * i + 1], kx = k[2 * i], ky = k[2 * i + 1];
      var dc = Math.cos(theta[i]), ds = Math.sin(theta[i]), c = 1, s = 0, t;
      for (var g = 0; g <= maxGap; g++) {
        out[g] += (qx * c - qy * s) * kx + (qx * s + qy * c) * ky;
        t = c * dc - s * ds; s = s * dc + c * ds; c = t;
      }
    }
    return out;
  }

  // Which pairs have completed at least one full turn over `gap` positions: θ_i·gap ≥ 2π, one
  // boolean per pair (lessons/model_card.py's pairs_that_turn).
  function pairsThatTurn(theta, gap) {
    return theta.map(function (t) { return t * gap >= 2 * Math.PI; });
  }

  core.rotatePair = rotatePair;
  core.pairScore = pairScore;
  core.ropeScore = ropeScore;
  core.ropeScoreCurve = ropeScoreCurve;
  core.pairsThatTurn = pairsThatTurn;
})((typeof window !== "undefined" ? window : globalThis).PrimerCore);
