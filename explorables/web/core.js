// The numeric core the explorables and the decoder share (window.PrimerCore; in Node, module.exports).
// Plain numbers in, plain numbers out: no DOM. Each function names the Python it follows, and
// tests/test_explorables_core_node.py holds it to that Python.
(function (global) {
  "use strict";

  // θ_i = base^(−2i/d) for i < d/2: the speed of each rotated pair (lessons/rope.py's rope_frequencies,
  // lessons/context_extension.py's inv_freq). Float64, as numpy.
  function invFreq(headDim, base) {
    var out = [];
    for (var i = 0; i < headDim / 2; i++) out.push(Math.pow(base, -(2 * i) / headDim));
    return out;
  }

  // 2π/θ_i: the positions a pair takes to complete a turn.
  function wavelengths(theta) { return theta.map(function (t) { return 2 * Math.PI / t; }); }

  // The angle each pair has turned at position p: p·θ_i.
  function angles(theta, p) { return theta.map(function (t) { return p * t; }); }

  var api = { invFreq: invFreq, wavelengths: wavelengths, angles: angles };
  global.PrimerCore = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
