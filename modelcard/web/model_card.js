// The model-card decoder in the browser: a port of lessons/model_card.py's reading and of
// modelcard/ (engines, known bugs, report, html). The Python is the source of truth;
// tests/test_model_card_node.py compares the two in Node on every gallery config and on
// hundreds of generated ones. Plus the page's decoder and explorable inside
// <div id="model-card-decoder">.
// Python values are modelled as: None = null, bool, int = an integral number,
// float = a non-integral number or a Number object (parse() boxes 8.0 so that
// an int check still refuses it), str, list = Array, dict = plain object.
(function () {
  "use strict";
  var SCRIPT = document.currentScript && document.currentScript.src;
  // The formulas (RoPE speeds of every rope type, the explorer's measures) live once, in the numeric core
  // the explorables share (explorables/web/core.js); model_card_loader.js loads it before this script.
  // Here: Python's checks, warnings, errors and formats around them.
  var C = window.PrimerCore;
  if (!C || !C.ropeSpeeds) throw new Error("model_card.js needs javascripts/explorables/core.js first");

  // ---- Python's values, errors and formats --------------------------------
  function PyError(type, message) {
    var e = new Error(message);
    e.name = type;
    e.pyType = type;
    return e;
  }
  function ConfigError(message) {
    var e = PyError("ConfigError", message);
    Object.setPrototypeOf(e, ConfigError.prototype);
    return e;
  }
  ConfigError.prototype = Object.create(Error.prototype);
  ConfigError.prototype.constructor = ConfigError;
  function VE(m) { return PyError("ValueError", m); }
  function TE(m) { return PyError("TypeError", m); }
  function ZDE() { return PyError("ZeroDivisionError", "float division by zero"); }

  var has = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
  function none(v) { return v === null || v === undefined; }
  function isDict(v) { return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Number); }
  function isNum(v) { return typeof v === "number" || v instanceof Number || typeof v === "boolean"; }
  function isInt(v) { return typeof v === "number" && Number.isInteger(v); }
  function isReal(v) { return typeof v === "number" || v instanceof Number; }
  function isFloat(v) { return v instanceof Number || (typeof v === "number" && !Number.isInteger(v)); }
  function F(x) { return Number.isInteger(x) ? new Number(x) : x; } // a Python float
  function N(v) { return typeof v === "boolean" ? +v : +v; }
  function tname(v) {
    if (none(v)) return "NoneType";
    if (typeof v === "boolean") return "bool";
    if (typeof v === "string") return "str";
    if (Array.isArray(v)) return "list";
    if (isReal(v)) return isFloat(v) ? "float" : "int";
    return "dict";
  }
  function get(o, k, dflt) { return has(o, k) ? o[k] : (dflt === undefined ? null : dflt); }
  function truthy(v) {
    if (none(v)) return false;
    if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
    if (isDict(v)) return Object.keys(v).length > 0;
    var n = N(v);
    return n !== 0;  // NaN is truthy in Python
  }
  function or() { for (var i = 0; i < arguments.length - 1; i++) if (truthy(arguments[i])) return arguments[i]; return arguments[arguments.length - 1]; }
  function eq(a, b) {
    if (none(a) || none(b)) return none(a) && none(b);
    if (isNum(a) && isNum(b)) return N(a) === N(b);
    if (typeof a === "string" || typeof b === "string") return a === b;
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every(function (x, i) { return eq(x, b[i]); });
    if (isDict(a) && isDict(b)) {
      var ka = Object.keys(a), kb = Object.keys(b);
      return ka.length === kb.length && ka.every(function (k) { return has(b, k) && eq(a[k], b[k]); });
    }
    return false;
  }
  function inList(v, list) { return list.some(function (x) { return eq(v, x); }); }
  function cmp(op, a, b) {
    var x, y;
    if (isNum(a) && isNum(b)) { x = N(a); y = N(b); }
    else if (typeof a === "string" && typeof b === "string") { x = a; y = b; }
    else throw TE("'" + op + "' not supported between instances of '" + tname(a) + "' and '" + tname(b) + "'");
    return op === "<" ? x < y : op === "<=" ? x <= y : op === ">" ? x > y : x >= y;
  }
  function arith(op, a, b) {
    if (isNum(a) && isNum(b)) {
      var x = N(a), y = N(b);
      if (op === "/") { if (y === 0) throw isFloat(a) || isFloat(b) ? ZDE() : PyError("ZeroDivisionError", "division by zero"); return x / y; }
      return op === "*" ? x * y : op === "-" ? x - y : x + y;
    }
    if (op === "*" && (typeof a === "string" || Array.isArray(a) || typeof b === "string" || Array.isArray(b))) {
      var other = typeof a === "string" || Array.isArray(a) ? b : a;
      throw TE("can't multiply sequence by non-int of type '" + tname(other) + "'");
    }
    throw TE("unsupported operand type(s) for " + op + ": '" + tname(a) + "' and '" + tname(b) + "'");
  }
  function pyLen(v) {
    if (typeof v === "string" || Array.isArray(v)) return v.length;
    if (isDict(v)) return Object.keys(v).length;
    throw TE("object of type '" + tname(v) + "' has no len()");
  }
  function pyList(v) {
    if (typeof v === "string") return Array.from(v);
    if (Array.isArray(v)) return v.slice();
    if (isDict(v)) return Object.keys(v);
    throw TE("'" + tname(v) + "' object is not iterable");
  }
  function hashable(v) { if (Array.isArray(v) || isDict(v)) throw TE("unhashable type: '" + tname(v) + "'"); return v; }
  function pyFloat(v) {
    if (isNum(v)) return N(v);
    if (typeof v === "string") {
      var s = v.trim().toLowerCase();
      var m = /^([+-]?)(inf|infinity|nan)$/.exec(s);
      if (m) return m[2] === "nan" ? NaN : (m[1] === "-" ? -Infinity : Infinity);
      if (/^[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)(e[+-]?\d(_?\d)*)?$/.test(s)) return Number(s.replace(/_/g, ""));
      throw VE("could not convert string to float: " + repr(v));
    }
    throw TE("float() argument must be a string or a real number, not '" + tname(v) + "'");
  }
  function realArg(v) { if (!isNum(v)) throw TE("must be real number, not " + tname(v)); return N(v); }
  function log(v) { var x = realArg(v); if (!(x > 0) && !isNaN(x)) throw VE("math domain error"); return Math.log(x); }
  function isclose(a, b) {
    var x = realArg(a), y = realArg(b);
    return x === y || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
  }
  var roundHalfEven = C.roundHalfEven;

  // exact decimal digits of a finite x > 0: x = 0.DIGITS × 10^pt
  function exact(x) {
    var dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, x);
    var hi = dv.getUint32(0), e = (hi >>> 20) & 0x7ff;
    var m = (BigInt(hi & 0xfffff) << 32n) | BigInt(dv.getUint32(4));
    if (e === 0) e = 1; else m |= 1n << 52n;
    e -= 1075;
    var s = e >= 0 ? (m << BigInt(e)).toString() : (m * 5n ** BigInt(-e)).toString();
    var k = e >= 0 ? 0 : -e;
    var pt = s.length - k;
    s = s.replace(/0+$/, "");
    return { d: s, pt: pt };
  }
  function roundDigits(x, p) { // p significant digits, ties to even (Python's rounding)
    var r = exact(x), d = r.d, pt = r.pt;
    if (d.length <= p) return { d: d + "0".repeat(p - d.length), pt: pt };
    var keep = d.slice(0, p), next = d[p], rest = d.slice(p + 1);
    var up = next > "5" || (next === "5" && (/[1-9]/.test(rest) || (+keep[p - 1]) % 2 === 1));
    if (up) {
      var n = (BigInt(keep) + 1n).toString();
      if (n.length > p) { n = n.slice(0, p); pt += 1; }
      keep = n;
    }
    return { d: keep, pt: pt };
  }
  function group3(s) { return s.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function special(x) { return isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf"; }
  function expo(n) { return (n < 0 ? "-" : "+") + (Math.abs(n) < 10 ? "0" : "") + Math.abs(n); }
  function fmtG(v, p, comma) { // f"{v:,.{p}g}"
    if (typeof v === "string") throw VE("Unknown format code 'g' for object of type 'str'");
    if (!isNum(v)) throw TE("unsupported format string passed to " + tname(v) + ".__format__");
    var x = N(v);
    if (!isFinite(x)) return special(x);
    if (x === 0) return Object.is(x, -0) ? "-0" : "0";
    var sign = x < 0 ? "-" : "", r = roundDigits(Math.abs(x), p || 1), d = r.d, exp = r.pt - 1;
    if (exp >= -4 && exp < (p || 1)) {
      var intPart, frac;
      if (r.pt <= 0) { intPart = "0"; frac = "0".repeat(-r.pt) + d; }
      else { intPart = d.slice(0, r.pt) + "0".repeat(Math.max(0, r.pt - d.length)); frac = d.slice(r.pt); }
      frac = frac.replace(/0+$/, "");
      return sign + (comma ? group3(intPart) : intPart) + (frac ? "." + frac : "");
    }
    var mant = d[0] + (d.length > 1 ? "." + d.slice(1) : "");
    mant = mant.replace(/\.?0+$/, "");
    return sign + mant + "e" + expo(exp);
  }
  function floatRepr(x, comma) {
    if (!isFinite(x)) return special(x);
    if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
    var sign = x < 0 ? "-" : "", t = Math.abs(x).toExponential(), m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(t);
    var d = (m[1] + (m[2] || "")).replace(/0+$/, ""), exp = +m[3];
    if (exp >= -4 && exp < 16) {
      var pt = exp + 1, ip, fp;
      if (pt <= 0) { ip = "0"; fp = "0".repeat(-pt) + d; }
      else { ip = d.slice(0, pt) + "0".repeat(Math.max(0, pt - d.length)); fp = d.slice(pt); }
      return sign + (comma ? group3(ip) : ip) + "." + (fp || "0");
    }
    return sign + d[0] + (d.length > 1 ? "." + d.slice(1) : "") + "e" + expo(exp);
  }
  function intStr(x) { return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString(); }
  function fmtComma(v) { // f"{v:,}"
    if (typeof v === "string") throw VE("Cannot specify ',' with 's'.");
    if (!isNum(v)) throw TE("unsupported format string passed to " + tname(v) + ".__format__");
    if (isFloat(v)) return floatRepr(N(v), true);
    var s = intStr(N(v));
    return s[0] === "-" ? "-" + group3(s.slice(1)) : group3(s);
  }
  function repr(v) {
    if (none(v)) return "None";
    if (typeof v === "boolean") return v ? "True" : "False";
    if (typeof v === "string") {
      var q = v.indexOf("'") >= 0 && v.indexOf('"') < 0 ? '"' : "'";
      return q + v.replace(/[\\\n\r\t]|[\x00-\x1f\x7f-\xa0\xad]/g, function (c) {
        var k = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" }[c];
        return k || "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0");
      }).split(q).join("\\" + q) + q;
    }
    if (Array.isArray(v)) return "[" + v.map(repr).join(", ") + "]";
    if (isDict(v)) return "{" + Object.keys(v).map(function (k) { return repr(k) + ": " + repr(v[k]); }).join(", ") + "}";
    return isFloat(v) ? floatRepr(N(v)) : intStr(N(v));
  }
  function str(v) { return typeof v === "string" ? v : repr(v); }

  // JSON.parse that keeps Python's int/float distinction (8.0 stays a float)
  function parse(text) {
    var i = 0, line = 1, col = 1;
    function fail(msg) {
      var before = text.slice(0, i), ln = before.split("\n").length, cl = i - before.lastIndexOf("\n");
      throw ConfigError("not JSON (line " + ln + ", column " + cl + ": " + msg + ")");
    }
    function ws() { while (/[ \t\n\r]/.test(text[i] || "")) i++; }
    function value() {
      ws();
      var c = text[i], m;
      if (c === "{") {
        i++; var o = {}; ws();
        if (text[i] === "}") { i++; return o; }
        for (;;) {
          ws(); if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
          var k = string(); ws();
          if (text[i] !== ":") fail("Expecting ':' delimiter");
          i++;
          Object.defineProperty(o, k, { value: value(), enumerable: true, writable: true, configurable: true });
          ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "}") { i++; return o; }
          fail("Expecting ',' delimiter");
        }
      }
      if (c === "[") {
        i++; var a = []; ws();
        if (text[i] === "]") { i++; return a; }
        for (;;) {
          a.push(value()); ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "]") { i++; return a; }
          fail("Expecting ',' delimiter");
        }
      }
      if (c === '"') return string();
      var words = { "true": true, "false": false, "null": null, "NaN": NaN, "Infinity": Infinity, "-Infinity": -Infinity };
      for (var w in words) if (text.startsWith(w, i)) { i += w.length; return words[w]; }
      if ((m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400)))) {
        i += m[0].length;
        var x = Number(m[0]);
        return m[2] || m[3] ? F(x) : x;
      }
      fail("Expecting value");
    }
    function string() {
      var start = i++;
      for (;;) {
        var c = text[i];
        if (c === undefined) { i = start; fail("Unterminated string starting at"); }
        if (c === '"') break;
        if (c === "\\") i++;
        i++;
      }
      i++;
      try { return JSON.parse(text.slice(start, i)); } catch (e) { i = start; return fail("Invalid control character or escape"); }
    }
    var v = value(); ws();
    if (i < text.length) fail("Extra data");
    return v;
  }

  // ---- lessons/_checks.py ---------------------------------------------------------
  function count(v, name, low) {
    low = low === undefined ? 1 : low;
    if (!isInt(v) || v < low) throw VE(name + " must be " + (low === 1 ? "a positive integer (1, 2, 3, ...)" : "an integer >= " + low) + ", got " + repr(v));
    return v;
  }
  function evenWidth(d, name) {
    if (!isInt(d) || d < 2 || d % 2) throw VE(name + " must be a positive even integer (2, 4, 6, ...), got " + repr(d));
    return d;
  }
  function positive(v, name) {
    if (!isReal(v) || !isFinite(v) || !(N(v) > 0)) throw VE(name + " must be a positive number (> 0), got " + repr(v));
    return N(v);
  }
  function finite(v, name) {
    if (!isReal(v) || !isFinite(v)) throw VE(name + " must be a finite real number, got " + repr(v));
    return N(v);
  }

  // ---- lessons/context_extension.py (rope_inv_freq and what it calls) ------------
  // The tables live in Python, once (modelcard.data.browser_tables): the site build writes
  // them to assets/model_card_tables.js, which model_card_loader.js loads before this script.
  if (typeof window.PrimerModelCardTables !== "string") throw new Error("model_card.js needs assets/model_card_tables.js first");
  var T = parse(window.PrimerModelCardTables);
  var ROPE_TYPES = T.ROPE_TYPES, COMMON = T.COMMON_KEYS, TYPE_KEYS = T.TYPE_KEYS, REQUIRED = T.REQUIRED_KEYS, MODEL_KEYS = T.MODEL_KEYS;
  var sink = null; // warnings.warn: the list being recorded, or null (ignored)
  function warn(m) { if (sink) sink.push(m); }

  function ropeTypeOf(p) {
    if (!isDict(p)) throw VE("rope_parameters must be a dict, got " + tname(p));
    var t = or(get(p, "rope_type"), get(p, "type"), "default");
    if (eq(t, "mrope")) t = "default";
    if (!inList(t, ROPE_TYPES)) throw VE("unknown rope_type '" + str(t) + "'; known rope_type values: " + ROPE_TYPES.join(", "));
    return t;
  }
  function stretch(f, type) {
    f = positive(f, "rope_parameters 'factor' for rope_type '" + type + "'");
    if (f < 1) warn("rope_parameters 'factor' for rope_type '" + type + "' should be >= 1, got " + fmtG(f, 6));
    return f;
  }
  function isNestedStrict(p) {
    var vs = Object.keys(p).map(function (k) { return p[k]; });
    return vs.length > 0 && vs.every(function (v) { return none(v) || isDict(v); }) && vs.some(truthy);
  }
  function ntkBase(base, scale, d) {
    base = positive(base, "base"); scale = positive(scale, "scale");
    count(evenWidth(d, "d"), "d", 4);
    return C.ntkScaledBase(base, scale, d);
  }
  function getMscale(scale, mscale) {  // yarn_get_mscale, after the TypeError Python raises for a non-number
    if (!cmp("<=", scale, 1)) arith("*", 0.1, mscale);
    return C.yarnMscale(N(scale), N(mscale));
  }
  function pyNum(v) { return truthy(v) ? N(v) : 0; }  // a value Python tests for truth, as a number

  function ropeInvFreq(headDim, rp, maxPos, seqLen) {
    var p = Object.assign({}, rp || {});
    if (isNestedStrict(p)) throw VE("rope_parameters is split by layer type (" + Object.keys(p).join(", ") + "); use rope_inv_freq_by_layer_type");
    var type = ropeTypeOf(p);
    (REQUIRED[type] || []).forEach(function (k) { if (!has(p, k)) throw VE("rope_parameters for rope_type '" + type + "' needs the key '" + k + "'"); });
    var allowed = COMMON.concat(TYPE_KEYS[type], MODEL_KEYS);
    Object.keys(p).forEach(function (k) {
      if (allowed.indexOf(k) >= 0) return;
      var known = Object.keys(TYPE_KEYS).some(function (t) { return TYPE_KEYS[t].indexOf(k) >= 0; });
      warn(known ? "rope_parameters key '" + k + "' is not read by rope_type '" + type + "'" : "unknown key '" + k + "' in rope_parameters for rope_type '" + type + "'");
    });
    headDim = count(headDim, "head_dim", 2);
    var base = positive(or(get(p, "rope_theta"), 10000.0), "rope_parameters 'rope_theta'");
    var partial = get(p, "partial_rotary_factor");
    if (type === "proportional") {
      if (none(partial)) { warn("rope_type 'proportional' without partial_rotary_factor turns every pair"); partial = F(1); }
      if (!(cmp("<=", 0, partial) && cmp("<=", partial, 1))) throw VE("partial_rotary_factor for rope_type 'proportional' must be in [0, 1], got " + str(partial));
      return [C.proportionalSpeeds(headDim, base, N(partial), stretch(get(p, "factor", F(1)), type)), 1.0];
    }
    partial = none(partial) ? F(1) : partial;
    if (!(cmp("<", 0, partial) && cmp("<=", partial, 1))) throw VE("partial_rotary_factor for rope_type '" + type + "' must be in (0, 1], got " + str(partial));
    var d = Math.trunc(headDim * N(partial));
    if (d < 2 || (d % 2 && N(partial) === 1))
      throw VE("the rotary width (head_dim " + headDim + " × partial_rotary_factor " + str(partial) + ") must be even (or odd with partial_rotary_factor < 1) and >= 2, got " + d);
    var theta = C.invFreq(d, base);
    var original = or(get(p, "original_max_position_embeddings"), maxPos);
    if (["yarn", "longrope", "llama3"].indexOf(type) >= 0 && none(original))
      throw VE("rope_parameters for rope_type '" + type + "' needs the key 'original_max_position_embeddings'");
    var factor, attention;
    if (type === "default") return [theta, 1.0];
    if (type === "linear") return [C.divided(theta, [stretch(p.factor, type)]), 1.0];
    if (type === "dynamic") {
      factor = stretch(p.factor, type);
      if (none(maxPos)) throw VE("rope_type 'dynamic' needs max_position_embeddings (the trained length)");
      var b2 = ntkBase(base, C.dynamicStretch(factor, none(seqLen) ? maxPos : seqLen, maxPos), d);
      evenWidth(d, "d");
      return [C.invFreq(d, positive(b2, "base")), 1.0];
    }
    if (type === "yarn") {
      factor = p.factor;
      if (none(factor) && !none(maxPos)) {
        factor = arith("/", maxPos, original);
        warn("rope_parameters 'factor' for rope_type 'yarn' is None; using max_position_embeddings / original_max_position_embeddings = " + fmtG(factor, 6));
      }
      factor = stretch(factor, type);
      if (!none(maxPos)) {
        var ratio = arith("/", maxPos, original);
        if (ratio !== factor && ratio !== 1)
          warn("rope_parameters 'factor' " + fmtG(factor, 6) + " for rope_type 'yarn' differs from max_position_embeddings / original_max_position_embeddings = " + fmtG(ratio, 6) + "; the factor is used");
      }
      attention = get(p, "attention_factor");
      if (!none(attention) && (!isFloat(attention) || N(attention) < 0))
        warn("rope_parameters 'attention_factor' for rope_type 'yarn' should be a float >= 0, got " + repr(attention));
      if (none(attention)) {
        var ms = get(p, "mscale"), msa = get(p, "mscale_all_dim");
        if (truthy(ms) && truthy(msa)) { getMscale(factor, ms); getMscale(factor, msa); }  // Python's TypeError, if any
        attention = C.yarnAttentionFactor(factor, pyNum(ms), pyNum(msa));
      }
      var fast = or(get(p, "beta_fast"), 32), slow = or(get(p, "beta_slow"), 1);
      if (cmp("<", fast, slow)) warn("rope_parameters for rope_type 'yarn' should have beta_fast >= beta_slow, got " + str(fast) + " < " + str(slow));
      if (d % 2) throw VE("rope_type 'yarn' needs an even rotary width, got " + d);
      var truncate = truthy(get(p, "truncate", true)), ends = [fast, slow].map(function (r) {  // what Python raises on the way
        log(arith("/", original, arith("*", arith("*", r, 2), Math.PI)));
        if (Math.log(base) === 0) throw ZDE();
        return C.yarnCorrectionDim(N(r), d, base, N(original));
      });
      if (truncate && !ends.every(isFinite))
        throw ends.some(isNaN) ? VE("cannot convert float NaN to integer") : PyError("OverflowError", "cannot convert float infinity to integer");
      var range = C.yarnCorrectionRange(N(fast), N(slow), d, base, N(original), truncate);
      return [C.yarnSpeeds(theta, factor, C.yarnRamp(range[0], range[1], d / 2)), pyFloat(attention)];
    }
    if (type === "longrope") {
      var lists = {};
      ["short_factor", "long_factor"].forEach(function (k) {
        var v = p[k];
        lists[k] = none(v) ? [NaN] : Array.isArray(v) ? v.flat(Infinity).map(pyFloat) : isDict(v) ? pyFloat(v) : [pyFloat(v)];
      });
      ["short_factor", "long_factor"].forEach(function (k) {
        var size = lists[k].length;
        if (size === 1 && theta.length > 1) warn("rope_parameters '" + k + "' for rope_type 'longrope' has 1 number for " + theta.length + " pairs; it divides every pair");
        else if (size !== theta.length) throw VE("rope_parameters '" + k + "' for rope_type 'longrope' needs " + theta.length + " numbers (one per pair), got " + size);
      });
      factor = get(p, "factor");
      if (none(factor) && !none(maxPos)) factor = arith("/", maxPos, original);
      if (none(factor)) throw VE("rope_parameters for rope_type 'longrope' needs the key 'factor' (or max_position_embeddings)");
      factor = stretch(factor, type);
      attention = get(p, "attention_factor");
      if (!none(attention) && cmp("<", attention, 0)) warn("rope_parameters 'attention_factor' for rope_type 'longrope' should be >= 0, got " + repr(attention));
      if (none(attention)) {
        if (factor > 1.0 && log(original) === 0) throw ZDE();
        attention = C.longropeAttentionFactor(factor, N(original));
      }
      return [C.divided(theta, C.longropeFactors(lists.short_factor, lists.long_factor, seqLen, N(original))), pyFloat(attention)];
    }
    // llama3
    factor = stretch(p.factor, type);
    var lowF = finite(p.low_freq_factor, "rope_parameters 'low_freq_factor'");
    var highF = finite(p.high_freq_factor, "rope_parameters 'high_freq_factor'");
    if (highF <= lowF)
      warn("rope_type 'llama3' should have high_freq_factor > low_freq_factor, got " + fmtG(highF, 6) + " <= " + fmtG(lowF, 6) +
           ": no pair is blended, waves longer than " + fmtG(arith("/", original, F(lowF)), 6) + " positions are divided by " + fmtG(factor, 6));
    if (!none(maxPos) && cmp(">=", original, maxPos))
      warn("rope_type 'llama3' should have original_max_position_embeddings (" + str(original) + ") below max_position_embeddings (" + maxPos + ")");
    arith("/", original, F(lowF)); arith("/", original, F(highF));  // Python's ZeroDivisionError, if any
    return [C.llama3Speeds(theta, factor, N(original), lowF, highF), 1.0];
  }

  // ---- lessons/model_card.py -------------------------------------------------------
  // lessons.tools.model_types and modelcard.engines, by the same names (T: the tables above)
  var ALIBI_TYPES = T.ALIBI_MODEL_TYPES, LEARNED_TYPES = T.LEARNED_MODEL_TYPES, SINUSOIDAL_TYPES = T.SINUSOIDAL_MODEL_TYPES;
  var ROPE_MODEL_TYPES = T.ROPE_MODEL_TYPES, INTERLEAVED_TYPES = T.INTERLEAVED_MODEL_TYPES;  // RoPE turns x[2i] with x[2i+1]
  var DEFAULT_THETA = T.DEFAULT_THETA, CLASS_DEFAULTS = T.CLASS_DEFAULTS;
  var LAYER_KEYS = T.LAYER_KEYS, WIDTH_KEYS = T.WIDTH_KEYS, HEAD_KEYS = T.HEAD_KEYS, LENGTH_KEYS = T.LENGTH_KEYS;
  var VLLM_RELEASE = T.VLLM_RELEASE, VLLM_LENGTH_KEYS = T.VLLM_LENGTH_KEYS, VLLM_FALLBACK_LENGTH = T.VLLM_FALLBACK_LENGTH;
  var VLLM_UNSCALED = T.VLLM_UNSCALED, SGLANG_RELEASE = T.SGLANG_RELEASE, SGLANG_LENGTH_KEYS = T.SGLANG_LENGTH_KEYS;
  var LLAMA_CPP_LENGTH_KEYS = T.LLAMA_CPP_LENGTH_KEYS, LLAMA_CPP_FIXED_CONTEXT = T.LLAMA_CPP_FIXED_CONTEXT;
  var LLAMA_CPP_SEQ_OR_WIDTH = T.LLAMA_CPP_SEQ_OR_WIDTH;
  var ENGINE_LENGTH_KEYS = T.ENGINE_LENGTH_KEYS;
  function lookup(table, key) { hashable(key); return typeof key === "string" && has(table, key) ? table[key] : undefined; }
  function first(c, keys) { for (var i = 0; i < keys.length; i++) if (!none(get(c, keys[i]))) return [keys[i], c[keys[i]]]; return [null, null]; }
  function copy(v) { return v === undefined ? null : JSON.parse(JSON.stringify(v, function (k, x) { return x instanceof Number ? { __f: +x } : x; }), function (k, x) { return isDict(x) && has(x, "__f") ? F(x.__f) : x; }); }

  function languageConfig(config) {
    if (!isDict(config)) throw ConfigError("a config is a JSON object, got " + tname(config));
    var text = get(config, "text_config");
    if (!none(text) && !isDict(text)) throw ConfigError("'text_config' must be a JSON object");
    text = Object.assign({}, truthy(text) ? text : config);
    if (!none(get(config, "text_config")) && !has(text, "model_type")) text.model_type = get(config, "model_type");
    return Object.assign({}, lookup(CLASS_DEFAULTS, get(text, "model_type")) || {}, text);
  }
  function headWidth(t) {
    if (!none(get(t, "head_dim"))) return count(t.head_dim, "head_dim", 2);
    if (eq(get(t, "model_type"), "chatglm") && !none(get(t, "kv_channels"))) return count(t.kv_channels, "kv_channels", 2);
    var w = first(t, WIDTH_KEYS), h = first(t, HEAD_KEYS);
    if (none(w[1]) || none(h[1]))
      throw ConfigError("the config gives no head width: it needs 'head_dim', or a hidden size (" + WIDTH_KEYS.join(" / ") + ") and a head count (" + HEAD_KEYS.join(" / ") + ")");
    var width = count(w[1], w[0]), heads = count(h[1], h[0]);
    if (width % heads) throw ConfigError(w[0] + " " + width + " is not a multiple of " + h[0] + " " + heads);
    return Math.floor(width / heads);
  }
  function ropeBlock(t) {
    var nw = get(t, "rope_parameters"), old = get(t, "rope_scaling");
    if (!none(nw) && !none(old) && !eq(nw, old)) throw ConfigError("'rope_parameters' and 'rope_scaling' are both set and differ; keep one");
    var block = !none(nw) ? nw : old;
    if (!none(block) && !isDict(block)) throw ConfigError("'rope_scaling' must be a JSON object or null, got " + tname(block));
    var top = {};
    [["rope_theta", ["rope_theta", "rotary_emb_base"]], ["partial_rotary_factor", ["partial_rotary_factor", "rotary_pct"]]].forEach(function (s) {
      var found = s[1].filter(function (k) { return !none(get(t, k)); });
      found.forEach(function (k) { if (!isReal(t[k])) throw ConfigError(repr(k) + " must be a number, got " + repr(t[k])); });
      var floats = found.map(function (k) { return pyFloat(t[k]); });
      if (floats.some(function (x, i) { return i && x !== floats[0]; }))
        throw ConfigError(found.map(function (k) { return repr(k) + " = " + str(t[k]); }).join(" and ") + " contradict each other");
      if (found.length) top[s[0]] = t[found[0]];
    });
    if (!none(get(t, "rotary_dim"))) {
      var partial = F(count(t.rotary_dim, "rotary_dim") / headWidth(t));
      if (has(top, "partial_rotary_factor") && !isclose(top.partial_rotary_factor, partial))
        throw ConfigError("'rotary_dim' " + str(t.rotary_dim) + " and a partial rotary factor " + str(top.partial_rotary_factor) + " contradict each other");
      top.partial_rotary_factor = partial;
    }
    if (!none(get(t, "original_max_position_embeddings"))) top.original_max_position_embeddings = t.original_max_position_embeddings;
    var chatglm = eq(get(t, "model_type"), "chatglm");
    if (chatglm || baichuanRope(t)) {  // lessons.model_card.rope_block: 10000 × rope_ratio, half the head
      var ratio = chatglm ? get(t, "rope_ratio", F(1)) : F(1);
      if (!finiteNumber(ratio) || !(+ratio > 0)) throw ConfigError("'rope_ratio' must be a positive number, got " + repr(ratio));
      if (!has(top, "rope_theta")) top.rope_theta = F(10000.0 * N(ratio));
      if (chatglm && !has(top, "partial_rotary_factor")) top.partial_rotary_factor = 0.5;
    }
    if (none(block) && !Object.keys(top).length) return null;
    block = copy(truthy(block) ? block : {});
    var parts = isNestedStrict(block) ? Object.keys(block).map(function (k) { return block[k]; }) : [block];
    parts.forEach(function (part) {
      if (none(part)) return;
      Object.keys(top).forEach(function (k) {
        if (has(part, k) && !none(part[k]) && !eq(part[k], top[k]))
          throw ConfigError("top-level " + repr(k) + " = " + str(top[k]) + " and the RoPE block's " + str(part[k]) + " contradict each other");
        if (!has(part, k)) part[k] = top[k];
      });
    });
    if (!isNestedStrict(block)) {  // lessons.model_card.rope_block: the old names of LongRoPE
      var named = truthy(get(block, "rope_type")) ? block.rope_type : get(block, "type");
      if (eq(named, "su") || (eq(named, "yarn") && eq(get(t, "model_type"), "phi3"))) block.rope_type = "longrope";
    }
    return block;
  }
  // lessons.model_card._baichuan_rope: hidden size 4,096 is Baichuan 2 7B (RoPE); other sizes use ALiBi
  function baichuanRope(t) { return eq(get(t, "model_type"), "baichuan") && eq(get(t, "hidden_size"), 4096); }
  function alibiSetting(t) {
    var said = [];
    if (inList(get(t, "model_type"), ALIBI_TYPES)) said.push(true);
    if (eq(get(t, "model_type"), "baichuan")) said.push(!baichuanRope(t));
    var attn = get(t, "attn_config");
    if (isDict(attn) && !none(get(attn, "alibi"))) said.push(truthy(attn.alibi));
    if (!none(get(t, "alibi"))) said.push(truthy(t.alibi));
    if (!none(get(t, "position_embedding_type"))) said.push(t.position_embedding_type === "alibi");
    if (said.some(function (x) { return x !== said[0]; }))
      throw ConfigError("the config both turns ALiBi on and off (model_type, attn_config.alibi, alibi, position_embedding_type)");
    return said.length ? said[0] : null;
  }
  function baseScheme(t, block) {
    var mt = get(t, "model_type"), alibi = alibiSetting(t), kind = get(t, "position_embedding_type");
    if (eq(mt, "modernbert")) return "rope";  // position_embedding_type is a leftover there
    var granite = eq(mt, "granitemoehybrid");  // "rope" turns; any other value, none (exact.check_scheme)
    if (alibi) {
      if (block !== null && !eq(mt, "falcon") && !granite) throw ConfigError("the config turns on ALiBi and also sets RoPE keys; a model uses one or the other");
      return "alibi";
    }
    if (!granite && !none(kind) && !inList(kind, ["absolute", "rotary", "rope_gptj", "alibi"]))
      throw ConfigError("position_embedding_type " + repr(kind) + " is not one this decoder reads (it reads absolute, rotary, rope_gptj, alibi)");
    if (kind === "absolute") {
      if (block !== null && !granite) throw ConfigError("position_embedding_type 'absolute' (a learned table) and RoPE keys contradict each other");
      return "learned";
    }
    if (block !== null || kind === "rotary" || kind === "rope_gptj" || inList(mt, ROPE_MODEL_TYPES)) return "rope";
    if (truthy(get(t, "sinusoidal_embeddings")) || inList(mt, SINUSOIDAL_TYPES)) return "sinusoidal";
    if (inList(mt, LEARNED_TYPES)) return "learned";
    throw ConfigError("the config has no position information: no RoPE key (rope_theta, rope_scaling, rope_parameters, rotary_*), no ALiBi flag, " +
      "no position_embedding_type, and a model_type (" + repr(mt) + ") whose scheme this decoder does not know");
  }
  function range(n) { var a = []; for (var i = 0; i < n; i++) a.push(i); return a; }
  function layerTypes(t, n) {
    var given = get(t, "layer_types");
    if (!none(given)) {
      if (n !== null && pyLen(given) !== n) throw ConfigError("'layer_types' lists " + pyLen(given) + " layers but the config has " + n);
      return pyList(given).map(function (x) { var s = str(x); return has(T.LEGACY_LAYER_TYPES, s) ? T.LEGACY_LAYER_TYPES[s] : s; });
    }
    if (n === null) return null;
    var mt = get(t, "model_type"), win = get(t, "sliding_window"), flags, slides;
    var planned = listedLayerTypes(t, n) || periodicLayerTypes(t, n); // a hybrid's own key; else every n-th layer full
    if (planned !== null) return planned;
    if (inList(mt, ["qwen2", "qwen2_vl", "qwen2_vl_text", "qwen2_moe"])) {
      slides = truthy(get(t, "use_sliding_window")) && !none(win);
      var start = get(t, "max_window_layers", n);
      return range(n).map(function (i) { return slides && cmp(">=", i, start) ? "sliding_attention" : "full_attention"; });
    }
    if (eq(mt, "llama4_text")) {
      flags = nopeFlags(t, n);
      var chunked = !none(get(t, "attention_chunk_size"));
      return flags.map(function (f) { return f && chunked ? "chunked_attention" : "full_attention"; });
    }
    if (eq(mt, "smollm3")) {
      flags = nopeFlags(t, n);
      slides = truthy(get(t, "use_sliding_window")) && !none(win);
      return flags.map(function (f) { return slides && !f ? "sliding_attention" : "full_attention"; });
    }
    if (!none(win) && inList(mt, ["mistral", "mixtral"])) return range(n).map(function () { return "sliding_attention"; });
    return range(n).map(function () { return "full_attention"; });
  }
  function periodicLayerTypes(t, n) { // lessons.tools.model_types.periodic_layer_types
    var mt = get(t, "model_type");
    if (typeof mt !== "string" || !has(T.PERIODIC_LAYERS, mt)) return null;
    var p = T.PERIODIC_LAYERS[mt], every = p[0] ? count(get(t, p[0], p[1]), p[0]) : p[1];
    return range(n).map(function (i) { return (i + p[2]) % every ? p[3] : "full_attention"; });
  }
  function isIntList(v) { return Array.isArray(v) && v.every(function (x) { return isInt(x); }); }
  function listedLayerTypes(t, n) { // lessons.tools.model_types.listed_layer_types
    var keys = Object.keys(T.LISTED_LAYERS);
    for (var k = 0; k < keys.length; k++) {
      var key = keys[k], spec = T.LISTED_LAYERS[key], dot = key.indexOf("."), outer = dot < 0 ? key : key.slice(0, dot);
      var mt = get(t, "model_type"), fam = typeof mt === "string" && has(T.LISTED_DEFAULTS, mt) ? T.LISTED_DEFAULTS[mt] : {};
      var given = get(t, outer, has(fam, outer) ? fam[outer] : null);
      if (dot >= 0) given = isDict(given) ? get(given, key.slice(dot + 1)) : null;
      if (none(given)) continue;
      if (spec[2] === "cycle") {
        if (!Array.isArray(given) || !given.length || !given.every(function (v) { return typeof v === "string"; }))
          throw ConfigError("'" + key + "' must be a list of block names; got " + repr(given));
        return range(n).map(function (i) { return given[i % given.length] === "attention" ? spec[0] : spec[1]; });
      }
      if (!isIntList(given)) throw ConfigError("'" + key + "' must be a list of integers; got " + repr(given));
      if (spec[2] === "codes") {
        if (given.length !== n || given.some(function (c) { return !eq(c, 0) && !eq(c, 1); }))
          throw ConfigError("'" + key + "' needs a 1 (softmax attention) or 0 (linear attention) for each of the " + n + " layers; got " + repr(given));
        return given.map(function (c) { return eq(c, 1) ? spec[0] : spec[1]; });
      }
      var start = spec[2] === "indices1" ? 1 : 0;
      if (given.some(function (i) { return !(cmp(">=", i, start) && cmp("<", i, n + start)); }))
        throw ConfigError("'" + key + "' lists layer indices outside " + start + ".." + (n - 1 + start) + ": " + repr(given));
      return range(n).map(function (i) { return given.some(function (g) { return eq(g, i + start); }) ? spec[0] : spec[1]; });
    }
    return null;
  }
  function nopeFlags(t, n) {
    var mt = get(t, "model_type");
    if (!inList(mt, ["llama4_text", "smollm3"])) {
      if (!none(get(t, "no_rope_layers"))) throw ConfigError("'no_rope_layers' is read by Llama 4 and SmolLM3 configs, not " + repr(mt));
      if (eq(mt, "cohere2")) return layerTypes(t, n).map(function (ty) { return ty === "sliding_attention" ? 1 : 0; });
      var rule = typeof mt === "string" && has(T.ROPE_ONLY_WHEN, mt) ? T.ROPE_ONLY_WHEN[mt] : null;  // rope_switched_off
      var nope = rule !== null && (rule[0] === null || !eq(get(t, rule[0]), rule[1]));
      return layerTypes(t, n).map(function (ty) { return has(T.NO_ROPE_LAYER_TYPES, ty) || nope ? 0 : 1; });
    }
    // lessons.alibi.nope_layers
    var flags = get(t, "no_rope_layers"), fill = eq(mt, "llama4_text");
    count(n, "n_layers");
    if (none(flags) || (fill && pyLen(flags) === 0)) {
      var interval = count(get(t, "no_rope_layer_interval", 4), "interval");
      flags = range(n).map(function (i) { return (i + 1) % interval !== 0 ? 1 : 0; });
    }
    if (pyLen(flags) < n || pyList(flags).some(function (f) { return !inList(f, [0, 1]); }))
      throw VE("flags (no_rope_layers) needs a 1 (RoPE) or 0 (NoPE) for each of the " + n + " layers; got " + repr(pyList(flags)));
    return range(n).map(function (i) { return eq(flags[i], 0) ? 0 : 1; });
  }
  // lessons.model_card.pairing
  function pairing(t) {
    var mt = get(t, "model_type");
    if ((eq(mt, "chatglm") && get(t, "original_rope") === false) || (eq(mt, "deepseek_v3") && get(t, "rope_interleave") === false)) return "half-split";
    return inList(mt, INTERLEAVED_TYPES) || eq(get(t, "position_embedding_type"), "rope_gptj") ? "interleaved" : "half-split";
  }
  // lessons.model_card.multipliers
  function multipliers(t, groups, skipped, nLayers, softmax) {
    var every = nLayers !== null ? range(nLayers) : [], out = [];
    groups.forEach(function (g) {
      if (g.attention_factor !== 1) out.push({ name: g.rope_type + " attention factor (on cos and sin)", value: g.attention_factor, layers: g.layers, starts_at: null });
    });
    if (softmax !== null) out.push({ name: "softmax scale multiplier (DeepSeek's mscale²)", value: softmax, layers: every, starts_at: null });
    if (eq(get(t, "model_type"), "llama4_text") && truthy(get(t, "attn_temperature_tuning", true)) && skipped.length) {
      var scale = positive(get(t, "attn_scale", 0.1), "attn_scale"), floor = count(get(t, "floor_scale", 8192), "floor_scale");
      out.push({ name: "query temperature (Llama 4, NoPE layers)", value: "1 + " + fmtG(scale, 6) + "·ln(1 + floor((p + 1) / " + floor + "))",
        layers: skipped.slice(), starts_at: floor - 1 });
    }
    var beta = null, original = null;
    groups.forEach(function (g) { if (beta === null && !none(get(g.parameters, "llama_4_scaling_beta"))) beta = g.parameters.llama_4_scaling_beta; });
    if (beta !== null) {
      beta = positive(beta, "llama_4_scaling_beta");
      if (groups.length) original = get(groups[0].parameters, "original_max_position_embeddings");
      if (none(original)) throw ConfigError("'llama_4_scaling_beta' needs original_max_position_embeddings in the RoPE block");
      out.push({ name: "query temperature (Ministral 3's llama_4_scaling_beta)", value: "1 + " + fmtG(beta, 6) + "·ln(1 + floor(p / " + Math.trunc(N(original)) + "))",
        layers: every, starts_at: Math.trunc(N(original)) });
    }
    if (eq(get(t, "model_type"), "gpt_oss"))
      out.push({ name: "attention sink (a learned logit per head in every softmax)", value: null, layers: every, starts_at: null });
    return out;
  }
  // lessons.model_card: ModelCard.qk_width (DeepSeek's MLA: qk_nope_head_dim + qk_rope_head_dim)
  function qkWidth(t) {
    var r = get(t, "qk_rope_head_dim"), n = get(t, "qk_nope_head_dim");
    return isInt(r) && isInt(n) && r >= 1 && n >= 0 ? r + n : null;
  }
  // lessons.model_card.states_trained_length
  function statesTrained(scheme, block) {
    if ((scheme !== "rope" && scheme !== "mixed") || !truthy(block)) return false;
    var blocks = isNestedStrict(block) ? Object.keys(block).map(function (k) { return block[k]; }).filter(isDict) : [block];
    return blocks.some(function (b) { return truthy(get(b, "original_max_position_embeddings")); });
  }
  function lengths(t, scheme, block) {
    var found = LENGTH_KEYS.filter(function (k) { return !none(get(t, k)); }).map(function (k) { return count(t[k], k); });
    var maxLen = found.length ? Math.min.apply(null, found) : null;
    if (scheme !== "rope" || !truthy(block)) return [maxLen, maxLen];
    var blocks = isNestedStrict(block) ? Object.keys(block).map(function (k) { return block[k]; }).filter(isDict) : [block];
    var originals = [];
    blocks.forEach(function (b) {
      var o = get(b, "original_max_position_embeddings");
      if (truthy(o) && !inList(hashable(o), originals)) originals.push(o);
    });
    if (originals.length > 1) {
      var sorted = originals.slice().sort(function (a, b) { return cmp("<", b, a) ? 1 : cmp("<", a, b) ? -1 : 0; });
      throw ConfigError("the layer types give different original lengths: " + repr(sorted));
    }
    if (originals.length) return [count(originals[0], "original_max_position_embeddings"), maxLen];
    if (blocks.some(function (b) { return ropeTypeOf(b) === "linear"; })) return [null, maxLen];
    return [maxLen, maxLen];
  }
  // model_card._check_block: a base above 1, positive band edges, an original length >= 2
  function finiteNumber(v) { return (typeof v === "number" || v instanceof Number) && isFinite(+v); }
  function checkBlock(params) {
    var theta = get(params, "rope_theta");
    if (!finiteNumber(theta) || !(+theta > 1)) throw ConfigError("rope_theta must be a number greater than 1, got " + repr(theta));
    ["low_freq_factor", "high_freq_factor"].forEach(function (k) {
      if (has(params, k) && !(finiteNumber(params[k]) && +params[k] > 0))
        throw ConfigError("rope '" + k + "' must be a positive number, got " + repr(params[k]));
    });
    var o = get(params, "original_max_position_embeddings");
    if (!none(o) && !(finiteNumber(o) && +o === Math.trunc(+o) && +o >= 2))
      throw ConfigError("original_max_position_embeddings must be an integer >= 2, got " + repr(o));
  }
  function ropeFor(headDim, params, maxLen, caught) {
    checkBlock(params);
    var seen = sink = [], r, def;
    try {
      r = ropeInvFreq(headDim, params, maxLen);
      var plain = {};
      Object.keys(params).forEach(function (k) { if (k === "rope_theta" || k === "partial_rotary_factor") plain[k] = params[k]; });
      if (ropeTypeOf(params) === "proportional") plain.rope_type = "proportional";
      def = ropeInvFreq(headDim, plain, maxLen)[0];
    } catch (e) {
      if (e.pyType === "ValueError") throw ConfigError(e.message);
      throw e;
    } finally { sink = null; }
    seen.forEach(function (w) {
      w = w.replace(" (transformers 5.24 warns too and goes on)", "");
      if (caught.indexOf(w) < 0) caught.push(w);
    });
    return [r[0], N(r[1]), def];
  }

  function card(config) {
    try { return cardOf(config); } catch (e) {
      if (e instanceof ConfigError || !e.pyType) throw e;
      if (e.pyType === "ValueError") throw ConfigError(e.message);
      if (e.pyType === "TypeError" || e.pyType === "KeyError") throw ConfigError("a malformed value (" + e.pyType + ": " + e.message + ")");
      throw e;
    }
  }
  function cardOf(config) {
    var t = languageConfig(config), block, scheme, nLayers, types, lens;
    try {
      block = ropeBlock(t);
      scheme = baseScheme(t, block);
      var lc = first(t, LAYER_KEYS);
      nLayers = lc[0] === null ? null : count(lc[1], lc[0]);
      types = layerTypes(t, nLayers);
      lens = lengths(t, scheme, block);
      if (!none(get(t, "sliding_window"))) count(t.sliding_window, "sliding_window");
    } catch (e) {
      if (e.pyType === "ValueError") throw ConfigError(e.message);
      throw e;
    }
    var trained = lens[0], maxLen = lens[1], caught = [], groups = [], skipped = [], slopes = null, multiplier = null;
    var mt = get(t, "model_type"), modelType = typeof get(config, "model_type") === "string" ? config.model_type : null;
    if (scheme === "alibi") {
      var heads = first(t, HEAD_KEYS)[1];
      if (none(heads)) throw ConfigError("an ALiBi config needs a head count (" + HEAD_KEYS.join(" / ") + ")");
      var n = count(heads, "n_heads");
      var pow2 = function (k) { var s = Math.pow(2.0, -8.0 / k); return range(k).map(function (h) { return Math.pow(s, h + 1); }); };
      var closest = Math.pow(2, Math.floor(Math.log2(n)));
      slopes = pow2(closest);
      if (closest < n) slopes = slopes.concat(pow2(2 * closest).filter(function (x, i) { return i % 2 === 0; }).slice(0, n - closest));
      var attn = or(get(t, "attn_config"), {});
      var biasMax = isDict(attn) ? get(attn, "alibi_bias_max", 8) : 8;
      if (!eq(biasMax, 8)) {
        if ((n & (n - 1)) === 0) {
          if (!isNum(biasMax)) throw TE("bad operand type for unary -: '" + tname(biasMax) + "'");
          slopes = range(n).map(function (h) { return Math.pow(2.0, -N(biasMax) * (h + 1) / n); });
        } else throw ConfigError("alibi_bias_max other than 8 with a head count that is not a power of two is not read by this decoder");
      }
    }
    if (scheme === "rope") {
      var qk = get(t, "qk_rope_head_dim"), rotaryHead = or(qk, null);
      rotaryHead = truthy(qk) ? qk : headWidth(t);
      if (!none(qk)) rotaryHead = count(rotaryHead, "qk_rope_head_dim", 2);
      var flags = nLayers !== null ? nopeFlags(t, nLayers) : [];
      skipped = range(flags.length).filter(function (i) { return !flags[i]; });
      var blocks = truthy(block) && isNestedStrict(block) ? block : null, setups = [];
      var theta0 = lookup(DEFAULT_THETA, mt) || F(10000);
      if (blocks === null) {
        var params = Object.assign({}, block || {});
        if (!has(params, "rope_theta")) params.rope_theta = theta0;
        if (eq(mt, "gemma3_text")) setups = [["full_attention", params], ["sliding_attention", { rope_type: "default", rope_theta: get(t, "rope_local_base_freq", F(10000)) }]];
        else if (eq(mt, "modernbert")) setups = [["full_attention", Object.assign({}, params, { rope_theta: get(t, "global_rope_theta", F(160000)) })],
          ["sliding_attention", Object.assign({}, params, { rope_theta: get(t, "local_rope_theta", F(10000)) })]];
        else setups = [["all", params]];
      } else Object.keys(blocks).forEach(function (k) { if (!none(blocks[k])) setups.push([k, Object.assign({}, blocks[k])]); });
      var computed = setups.map(function (s) {
        if (none(get(s[1], "rope_theta"))) s[1].rope_theta = theta0;  // absent or null: the class default
        var r = ropeFor(rotaryHead, s[1], maxLen, caught);
        return [s[0], s[1], r[0], r[1], r[2]];
      });
      if (computed.length > 1 && computed.every(function (c) { return c[2].length === computed[0][2].length && c[2].every(function (x, i) { return x === computed[0][2][i]; }) && c[3] === computed[0][3]; }))
        computed = [["all"].concat(computed[0].slice(1))];
      var layerList = nLayers !== null ? range(nLayers) : [];
      computed.forEach(function (c) {
        var name = c[0], p = c[1], layers;
        if (name === "all") layers = layerList.filter(function (i) { return skipped.indexOf(i) < 0; });
        else {
          if (types === null) throw ConfigError("the RoPE block is split by layer type but the config gives no layer count");
          if (types.indexOf(name) < 0) throw ConfigError("the RoPE block has a '" + name + "' entry but no layer has that type");
          layers = layerList.filter(function (i) { return types[i] === name && skipped.indexOf(i) < 0; });
        }
        var rotaryDim = 2 * c[2].length, type = ropeTypeOf(p);
        if (type !== "proportional" && !none(get(p, "partial_rotary_factor"))) rotaryDim = Math.trunc(rotaryHead * N(p.partial_rotary_factor));
        groups.push({ layer_type: name, layers: layers, rope_type: type, rotary_dim: rotaryDim, head_dim: rotaryHead,
          base: pyFloat(p.rope_theta), inv_freq: c[2], default_inv_freq: c[4], attention_factor: c[3], parameters: p, pairing: pairing(t) });
      });
      if (types !== null && blocks !== null)
        types.forEach(function (ty, i) { if (!has(blocks, ty) && skipped.indexOf(i) < 0) throw ConfigError("layer " + i + " has type '" + ty + "' but the RoPE block has no entry for it"); });
      if (skipped.length) scheme = skipped.length < (nLayers || 0) ? "mixed" : "none";
      if (inList(mt, ["deepseek_v2", "deepseek_v3"]) && truthy(block) && ropeTypeOf(block) === "yarn") {
        var msa = get(block, "mscale_all_dim");
        multiplier = truthy(msa) ? Math.pow(getMscale(block.factor, msa), 2) : 1.0;
      }
    }
    groups.forEach(function (g) {
      if (g.rope_type === "dynamic")
        caught.push("dynamic scaling: transformers changes θ with the sequence length, so keys cached at one length were rotated with another base; vLLM 0.33.0 computes one base at start-up, and without max_trained_positions it is the trained base for every prompt, in a table of max_position_embeddings rows though it derives factor times more (dynamic_ntk_scaling_rope.py); SGLang 0.5.23 builds factor × max_position_embeddings rows with one larger base, θ·(f² − f + 1)^(d/(d − 2)), for every prompt (rope_variant.py; see lessons.context_extension)");
      var f = get(g.parameters, "factor");
      if (["linear", "longrope"].indexOf(g.rope_type) >= 0 && truthy(f) && trained && maxLen &&
          has(g.parameters, "original_max_position_embeddings") && !isclose(maxLen / trained, f))
        caught.push("rope 'factor' " + fmtG(f, 6) + " differs from max_position_embeddings / original_max_position_embeddings = " + fmtG(maxLen / trained, 6));
    });
    if ((scheme === "rope" || scheme === "mixed") && trained && maxLen && maxLen > trained && groups.every(function (g) { return g.rope_type === "default"; }))
      caught.push("the config claims " + fmtComma(maxLen) + " positions but trained at " + fmtComma(trained) + " and has no scaling entry: positions past the trained length turn angles the model never saw");
    var win = get(t, "sliding_window");
    if (inList(mt, ["qwen2", "qwen2_vl", "qwen2_vl_text", "smollm3"]) && !truthy(get(t, "use_sliding_window"))) win = null;
    if (eq(mt, "modernbert")) win = count(get(t, "local_attention", 128), "local_attention");
    var lengthKeys = ENGINE_LENGTH_KEYS.filter(function (k) {
      var v = get(t, k); return isInt(v) && v >= 1;
    }).map(function (k) { return [k, t[k]]; });
    var stated = statesTrained(scheme, block);
    if (trained && !stated)
      caught.push("the config does not say how long the model was trained: its limit, " + fmtComma(trained) + ", stands in for the trained length; the model may have trained on shorter inputs");
    return { model_type: modelType, scheme: scheme, trained_length: trained, max_length: maxLen, rope: groups, nope_layers: skipped,
      alibi_slopes: slopes, n_layers: nLayers, layer_types: types, sliding_window: win, softmax_multiplier: multiplier, warnings: caught,
      length_keys: lengthKeys, trained_stated: stated, qk_width: qkWidth(t),
      multipliers: multipliers(t, groups, skipped, nLayers, multiplier), nested: isDict(get(config, "text_config")) || T.NESTED_WHEN_FLAT.indexOf(get(config, "model_type")) >= 0,
      width: isInt(first(t, WIDTH_KEYS)[1]) ? first(t, WIDTH_KEYS)[1] : null,
      architectures: Array.isArray(get(config, "architectures")) ? config.architectures.filter(function (a) { return typeof a === "string"; }) : [],
      chunk: types && types.indexOf("chunked_attention") >= 0 && isInt(get(t, "attention_chunk_size")) && t.attention_chunk_size >= 1 ? t.attention_chunk_size : null };
  }
  function toJSON(c, served, model, engine) {
    var out = { model_type: c.model_type, scheme: c.scheme, trained_length: c.trained_length, trained_length_stated: c.trained_stated,
      max_length: c.max_length,
      rope: c.rope.map(function (g) {
        return { layer_type: g.layer_type, layers: g.layers.slice(), rope_type: g.rope_type, rotary_dim: g.rotary_dim, pairing: g.pairing,
          inv_freq: g.inv_freq.slice(), attention_factor: g.attention_factor };
      }), nope_layers: c.nope_layers.slice(), alibi_slopes: c.alibi_slopes && c.alibi_slopes.slice(),
      sliding_window: none(c.sliding_window) ? null : c.sliding_window, layer_types: c.layer_types ? c.layer_types.slice() : null,
      served: servedLengths(c), served_from: servedFrom(c), commands: engineCommands(c, served || vllmLen(c), model || "MODEL"),
      multipliers: c.multipliers.map(function (m) { return { name: m.name, value: m.value, layers: m.layers.slice(), starts_at: m.starts_at }; }),
      warnings: c.warnings.slice() };
    if (engine !== null && engine !== undefined) out.known_bugs = knownBugs(c, served || vllmLen(c), engine);
    return out;
  }
  // lessons.model_card.vllm_length_limit and vllm_max_model_len (vLLM 0.33.0)
  function lengthKey(c, k) {
    var hit = (c.length_keys || []).filter(function (e) { return e[0] === k; });
    return hit.length ? hit[0][1] : undefined;
  }
  // lessons.model_card._vllm_factor: [factor, rope type or null]
  function vllmFactor(c) {
    var f = 1.0, kind = null;
    if (c.rope.length && (c.model_type || "").indexOf("gemma3") < 0)
      c.rope.forEach(function (g) {
        if (VLLM_UNSCALED.indexOf(g.rope_type) < 0) { if (has(g.parameters, "factor")) f = g.parameters.factor; kind = g.rope_type; }
      });
    return none(f) ? [1.0, null] : [pyFloat(f), kind];
  }
  function finiteTrunc(x) {  // Python's int(float): NaN and infinity raise
    if (!isFinite(x)) throw isNaN(x) ? VE("cannot convert float NaN to integer") : PyError("OverflowError", "cannot convert float infinity to integer");
    return Math.trunc(x);
  }
  function keysOf(c) { var keys = {}; (c.length_keys || []).forEach(function (e) { keys[e[0]] = e[1]; }); return keys; }
  // lessons.model_card._vllm_limit, _vllm_default, _sglang_rule, _llama_cpp_rule: [length, what decides it]
  function loadedKeys(c) { // engines.py _loaded_keys: an aliased max_position_embeddings answers with the other key
    var keys = keysOf(c), alias = c.model_type !== null && has(T.LENGTH_ALIASES, c.model_type) ? T.LENGTH_ALIASES[c.model_type] : null;
    if (alias !== null && has(keys, alias) && !has(keys, "max_position_embeddings")) { keys = Object.assign({}, keys); keys.max_position_embeddings = keys[alias]; }
    return keys;
  }
  function vllmLimitRule(c) {
    var keys = keysOf(c), found = VLLM_LENGTH_KEYS.filter(function (k) { return has(keys, k); }), len, why;
    if (has(keys, "model_max_length")) { len = keys.model_max_length; why = "model_max_length (it replaces the other keys)"; }
    else if (found.length) {
      var least = found.reduce(function (a, k) { return a === null || keys[k] < keys[a] ? k : a; }, null);
      len = keys[least]; why = "the smallest length key, " + least;
    } else { len = VLLM_FALLBACK_LENGTH; why = "no length key: the " + fmtComma(VLLM_FALLBACK_LENGTH) + " fallback"; }
    var vf = vllmFactor(c);
    if (vf[1] !== null && vf[0] !== 1) why += ", times the " + vf[1] + " factor " + fmtG(vf[0], 6);
    return [finiteTrunc(N(len) * vf[0]), why];
  }
  function vllmDefaultRule(c) {
    var o = lengthKey(c, "original_max_position_embeddings");
    if (c.rope.some(function (g) { return g.rope_type === "longrope"; }) && o !== undefined)
      return [o, "original_max_position_embeddings (LongRoPE starts at the trained length)"];
    return vllmLimitRule(c);
  }
  function sglangRule(c) {
    var keys = loadedKeys(c), f = 1.0, kind = null, single = c.rope.length === 1 && c.rope[0].layer_type === "all";
    if (single && ["llama3", "yarn", "longrope"].indexOf(c.rope[0].rope_type) < 0) {
      var v = has(c.rope[0].parameters, "factor") ? c.rope[0].parameters.factor : 1;
      f = none(v) ? 1.0 : pyFloat(v); kind = c.rope[0].rope_type;
    }
    var first = SGLANG_LENGTH_KEYS.filter(function (k) { return has(keys, k); })[0];
    if (first === undefined) return [2048, "no key it reads: the 2,048 fallback"];
    var alias = first === "max_position_embeddings" && c.model_type !== null && has(T.LENGTH_ALIASES, c.model_type) ? T.LENGTH_ALIASES[c.model_type] : null;
    var aliased = alias !== null && has(keysOf(c), alias) ? " (" + alias + ", by the config class's attribute_map)" : "";
    return [finiteTrunc(f * keys[first]), "the first of its keys, " + first + aliased + (f !== 1 ? ", times the " + kind + " factor " + fmtG(f, 6) : "")];
  }
  function unconverted(c) { // engines.unconverted: architectures[0] when llama.cpp's converter has no class for it
    var a0 = (c.architectures || [])[0];
    return a0 !== undefined && T.REGISTRIES["llama.cpp"].converted.indexOf(a0) < 0 ? a0 : null;
  }
  function llamaCppRule(c) {
    var keys = keysOf(c), family = c.model_type;
    var a0 = unconverted(c);
    if (a0 !== null) return [null, "no converter for " + a0];
    if (family !== null && has(LLAMA_CPP_FIXED_CONTEXT, family)) return [LLAMA_CPP_FIXED_CONTEXT[family], "fixed by conversion/" + family + ".py"];
    if (LLAMA_CPP_SEQ_OR_WIDTH.indexOf(family) >= 0)
      return has(keys, "seq_length") ? [keys.seq_length, "seq_length"] : [c.width, "the hidden size (no seq_length; conversion/" + family + ".py)"];
    var order = family === "cohere" ? ["model_max_length"].concat(LLAMA_CPP_LENGTH_KEYS) : LLAMA_CPP_LENGTH_KEYS;
    var key = order.filter(function (k) { return has(keys, k); })[0];
    if (key === undefined) return [null, "no key the converter reads: the file states none"];
    return [keys[key], "the converter's key, " + key + (family === "cohere" && key === "model_max_length" ? " (conversion/command_r.py reads it first)" : "")];
  }
  function vllmLimit(c) { return vllmLimitRule(c)[0]; }
  function vllmLen(c) { return vllmDefaultRule(c)[0]; }
  function sglangLen(c) { return sglangRule(c)[0]; }
  function llamaCppLen(c) { return llamaCppRule(c)[0]; }
  // lessons.model_card.served_from
  function servedFrom(c) {
    return { transformers: "no limit", vllm: vllmDefaultRule(c)[1], sglang: sglangRule(c)[1], "llama.cpp": llamaCppRule(c)[1] };
  }
  function servedLengths(c) {
    return { transformers: null, vllm: vllmLen(c), sglang: sglangLen(c), "llama.cpp": llamaCppLen(c) };
  }
  function turns(inv, L) { return inv.map(function (x) { return x * L >= 2 * Math.PI; }); }
  function ranges(mask) {
    var runs = [], start = null;
    mask.forEach(function (m, i) {
      if (m && start === null) start = i;
      if (m && !mask[i + 1]) { runs.push(start === i ? "" + i : start + "–" + i); start = null; }
    });
    return runs.join(", ");
  }
  function scaleSummary(scale) {
    var tol = 1e-9, lowest = Math.min.apply(null, scale);
    var untouched = scale.map(function (s) { return Math.abs(s - 1) <= tol; });
    var full = scale.map(function (s, i) { return Math.abs(s - lowest) <= tol * Math.max(1.0, lowest) && !untouched[i]; });
    var middle = scale.map(function (s, i) { return !untouched[i] && !full[i]; }), parts = [];
    if (untouched.some(Boolean)) parts.push("untouched: pairs " + ranges(untouched));
    if (middle.some(Boolean)) parts.push("between: pairs " + ranges(middle));
    if (full.some(Boolean)) parts.push("divided by " + fmtG(1 / lowest, 4) + ": pairs " + ranges(full));
    return parts.join("; ");
  }
  // modelcard.engines: ENGINES, ENGINE_STARTS, scaling_override, engine_commands, engine_refusals, engine_notes
  var ENGINES = Object.keys(T.ENGINES).map(function (k) { return [k, T.ENGINES[k]]; });  // [JSON key, name]
  var SOURCES = T.SOURCES, ENGINE_STARTS = T.ENGINE_STARTS;
  function dumps1(v) { // json.dumps(v, separators=(", ", ": "))
    if (Array.isArray(v)) return "[" + v.map(dumps1).join(", ") + "]";
    if (isDict(v)) return "{" + Object.keys(v).map(function (k) { return JSON.stringify(k) + ": " + dumps1(v[k]); }).join(", ") + "}";
    return dumps(v);
  }
  function yarnOriginal(c) { // model_types.yarn_original
    var rule = c.model_type !== null && has(T.AUTHOR_YARN_ORIGINAL, c.model_type) ? T.AUTHOR_YARN_ORIGINAL[c.model_type] : null;
    return rule && c.max_length === rule[0] ? [rule[1], rule[2]] : [c.trained_length, null];
  }
  function scalingOverride(c, served) {
    if (!served || !c.trained_length || served <= c.trained_length) return null;
    if ((c.scheme !== "rope" && c.scheme !== "mixed") || c.rope.length !== 1 || c.rope[0].layer_type !== "all") return null;
    var g = c.rope[0];
    if (g.rope_type !== "default") return null;
    var original = yarnOriginal(c)[0];
    var block = { rope_type: "yarn", rope_theta: F(g.base), factor: F(served / original), original_max_position_embeddings: original };
    if (g.rotary_dim !== g.head_dim) block.partial_rotary_factor = F(g.rotary_dim / g.head_dim);
    ["mrope_section", "mrope_interleaved"].forEach(function (k) { if (has(g.parameters, k)) block[k] = g.parameters[k]; });
    return block;
  }
  function override(c, served, keys, block) {
    var found = (c.length_keys || []).map(function (e) { return e[0]; }).filter(function (k) { return keys.indexOf(k) >= 0; });
    var values = {};
    if (block) values.rope_parameters = block;
    if (found.length) found.forEach(function (k) { values[k] = served; }); else values.max_position_embeddings = served;
    return dumps1(c.nested ? { text_config: values } : values);
  }
  // engine_tables.py: table_length, group_rows, table_rows, covered; engines.py: _with_length, _length_needed
  var VLLM_MROPE_TIMES4 = T.VLLM_MROPE_TIMES4;
  function tableLength(c) {
    var k = (c.length_keys || []).filter(function (e) { return e[0] === "max_position_embeddings"; });
    return k.length ? k[0][1] : c.max_length;
  }
  function groupRows(c, g, engine) {
    var P = tableLength(c), kind = g.rope_type, f = pyFloat(or(get(g.parameters, "factor"), 1.0));
    var original = or(get(g.parameters, "original_max_position_embeddings"), c.trained_length);
    var mrope = has(g.parameters, "mrope_section");
    if (engine === "llama.cpp" || none(P)) return [null, "no table"];
    if (engine === "vllm") {
      if (mrope) {
        var times = VLLM_MROPE_TIMES4.some(function (t) { return (c.model_type || "").indexOf(t) === 0; }) ? 4 : 1;
        if (kind === "yarn" && truthy(original)) return [Math.ceil(times * original * f), "original_max_position_embeddings × " + times + " × factor; mrope.py, " + (times === 4 ? "qwen2.py" : "qwen3_vl.py")];
        return [times * P, times + " × max_position_embeddings; mrope.py, " + (times === 4 ? "qwen2.py" : "qwen3_vl.py")];
      }
      if (kind === "linear") return [Math.ceil(P * f), "max_position_embeddings × factor; linear_scaling_rope.py"];
      if (kind === "yarn" && truthy(original)) return [Math.ceil(original * f), "original_max_position_embeddings × factor, whatever max_position_embeddings says; yarn_scaling_rope.py"];
      if (kind === "dynamic") return [P, "max_position_embeddings, though vLLM derives factor times more; dynamic_ntk_scaling_rope.py"];
      if (kind === "longrope") return [Math.max(P, original || 0), "max_position_embeddings rows of long factors; phi3_long_rope_scaled_rope.py"];
      return [P, "max_position_embeddings; base.py"];
    }
    if ((c.model_type || "").indexOf("gemma3") === 0) return [null, "computed at every step; gemma3_causal.py"];
    if (kind === "linear" || kind === "dynamic")
      return [Math.ceil(P * f), "max_position_embeddings × factor, grown past that with the unscaled base; " + (kind === "linear" ? "base.py" : "rope_variant.py")];
    if (kind === "longrope") return [Math.max(P, original || 0), "max_position_embeddings rows of long factors, never grown; rope_variant.py"];
    return [null, "grown to the context length at load; reserve_rope_cache_for_long_sequences"];
  }
  function tableRows(c, engine) {
    var found = c.rope.map(function (g) { return groupRows(c, g, engine); });
    var limited = found.filter(function (r) { return r[0] !== null; }), best = null;
    limited.forEach(function (r) { if (best === null || r[0] < best[0]) best = r; });
    return best || [null, found.length ? found[0][1] : "no RoPE"];
  }
  function covered(c, served, engine) { var r = tableRows(c, engine)[0]; return r === null || served <= r; }
  function scaledReach(c) { // modelcard.engines.scaled_reach: [reach, rope type, what sets it] or null
    var reaches = [];
    c.rope.forEach(function (g) {
      var original = get(g.parameters, "original_max_position_embeddings") || c.trained_length, f = N(get(g.parameters, "factor")) || 1;
      if (g.rope_type === "yarn" && original) reaches.push([Math.ceil(N(original) * f), "yarn", "original_max_position_embeddings × factor"]);
      else if (g.rope_type === "linear" && c.trained_length) reaches.push([Math.ceil(c.trained_length * f), "linear", "the trained length × factor"]);
      else if (["longrope", "llama3", "linear"].indexOf(g.rope_type) >= 0 && c.max_length) reaches.push([c.max_length, g.rope_type, "max_position_embeddings, the length the config claims"]);
    });
    if (!reaches.length) return null;
    return reaches.reduce(function (a, b) { return b[0] < a[0] || (b[0] === a[0] && (b[1] < a[1] || (b[1] === a[1] && b[2] < a[2]))) ? b : a; });
  }
  function longropeShift(c, served) { // modelcard.engines.longrope_shift
    var g = c.rope.filter(function (x) { return x.rope_type === "longrope"; })[0];
    if (!g || !c.max_length) return "";
    var before = ropeInvFreq(g.head_dim, g.parameters, c.max_length)[1], after = ropeInvFreq(g.head_dim, g.parameters, served)[1];
    return before === after ? "" : "; raising max_position_embeddings to " + fmtComma(served) + ", as the commands do, also changes the attention factor on every token from " + fmtG(before, 4) + " to " + fmtG(after, 4);
  }
  // modelcard.known_bugs: parse_engine, release_key, rule_holds, known_bugs
  var KNOWN_BUGS = T.KNOWN_BUGS, ENGINE_NAMES = T.ENGINE_NAMES;
  function parseEngine(spec) {
    var s = String(spec).trim(), i = s.indexOf("=="), engine = i < 0 ? s : s.slice(0, i), release = i < 0 ? "" : s.slice(i + 2);
    if (i < 0 || !has(ENGINE_NAMES, engine) || !/^(?:\d+(?:\.\d+)*(?:\.post\d+)?|b\d+)$/.test(release))
      throw ConfigError("--engine takes ENGINE==RELEASE with ENGINE one of " + Object.keys(ENGINE_NAMES).join(", ") +
        " and a release such as 0.33.0 (llama.cpp: a build tag such as b5300), got " + repr(spec));
    return [engine, release];
  }
  function releaseKey(r) { return r.replace(/^b+/, "").split(".").map(function (p) { return Number(p.replace(/^post/, "")); }); }
  function releaseCmp(a, b) { // a tuple comparison of releaseKey(a) and releaseKey(b): -1, 0 or 1
    var x = releaseKey(a), y = releaseKey(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
  }
  function bugStatus(row, release) { // known_bugs.status
    var first = row.first, fixed = row.fixed;
    if (fixed !== null && releaseCmp(release, fixed) >= 0) return null;
    var seen = row.since === "seen" ? "seen from " : "";
    if (first !== null && releaseCmp(release, first) < 0) return row.since === "introduced" ? null : "seen from " + first + "; " + release + " is earlier and was not checked";
    if (fixed !== null) return (first === null ? "releases before " + fixed : (seen || "from ") + first + " to before " + fixed) + ", which fixes it";
    if (releaseCmp(release, row.checked) <= 0) return seen + first + " on, still in " + row.checked;
    return seen + first + " on, last seen in " + row.checked + "; " + release + " not checked";
  }
  function yarnBlocks(c, served, filled) {
    var added = scalingOverride(c, served), P = tableLength(c), blocks = c.rope.filter(function (g) { return g.rope_type === "yarn"; }).map(function (g) { return g.parameters; });
    blocks = added ? blocks.concat([added]) : blocks;
    return blocks.map(function (b) { return filled ? Object.assign({ original_max_position_embeddings: P }, b) : b; });
  }
  function ruleHolds(rule, c, served, engine) {
    var checks = {
      model_types: function (v) { return v.indexOf(c.model_type) >= 0; },
      architectures: function (v) { return !!(c.architectures && c.architectures.length) && v.indexOf(c.architectures[0]) >= 0; },
      rope_types: function (v) { return c.rope.some(function (g) { return v.indexOf(g.rope_type) >= 0; }) || (!rule.from_config && v.indexOf("yarn") >= 0 && scalingOverride(c, served) !== null); },
      from_config: function () { return true; },
      mrope: function (v) { return c.rope.some(function (g) { return has(g.parameters, "mrope_section"); }) === v; },
      past: function (v) {
        return { table: function () { return c.rope.length > 0 && !covered(c, served, engine) && has(engineRefusals(c, served), engine); },
          trained: function () { return c.trained_length !== null && served > c.trained_length; },
          config: function () { return c.max_length !== null && served > c.max_length; } }[v]();
      },
      yarn_factor_not_ratio: function (v) {
        var P = tableLength(c);
        return !!v === yarnBlocks(c, served, v === "filled").some(function (b) {
          var o = get(b, "original_max_position_embeddings");
          return !!(o && P) && (N(get(b, "factor")) || 1) !== P / N(o);
        });
      }
    };
    return Object.keys(rule).every(function (k) { return checks[k](rule[k]); });
  }
  function knownBugs(c, served, spec) {
    var pe = parseEngine(spec), engine = pe[0], release = pe[1];
    served = served || vllmLen(c);
    var out = [];
    KNOWN_BUGS.rows.forEach(function (row) {
      var said = row.engine === engine ? bugStatus(row, release) : null;
      if (said !== null && ruleHolds(row.rule, c, served, engine)) out.push(Object.assign({}, row, { status: said }));
    });
    return out;
  }
  function bugSection(c, served, spec) { // modelcard.report._bug_section
    if (spec === null || spec === undefined) return [];
    var pe = parseEngine(spec), name = pe[0], release = pe[1], found = knownBugs(c, served, spec), label = ENGINE_NAMES[name] + " " + release;
    var rows = found.map(function (r) {
      return row("known bug      {0}: {1}", [r.ref, r.symptom + " (" + label + "; affected " + r.status + "; here: " + r.applies + ") Do: " + r["do"] + " Read in " + r.source + "."], { bug: true });
    });
    if (!found.length) {
      var n = KNOWN_BUGS.rows.filter(function (r) { return r.engine === name; }).length;
      rows = [row(FACT, ["known bugs", "none of the " + n + " row" + (n !== 1 ? "s" : "") + " for " + ENGINE_NAMES[name] + " applies to this config in " + release + " (" + KNOWN_BUGS.about + ")"])];
    }
    return [["bugs", "Known bugs in " + label, rows]];
  }
  function withLength(c, length, keys) {
    var found = (c.length_keys || []).map(function (e) { return e[0]; }).filter(function (k) { return keys.indexOf(k) >= 0; });
    if (!found.length) found = ["max_position_embeddings"];
    var raised = (c.length_keys || []).map(function (e) { return [e[0], found.indexOf(e[0]) >= 0 ? length : e[1]]; });
    found.forEach(function (k) { if (!raised.some(function (e) { return e[0] === k; })) raised.push([k, length]); });
    return Object.assign({}, c, { length_keys: raised });
  }
  function dynamicBlock(c, g) {
    var block = { rope_type: "dynamic", rope_theta: F(g.base), factor: F(pyFloat(or(get(g.parameters, "factor"), 1.0))), max_trained_positions: tableLength(c) };
    if (g.rotary_dim !== g.head_dim) block.partial_rotary_factor = F(g.rotary_dim / g.head_dim);
    return block;
  }
  function lengthNeeded(c, served, engine) {
    var needed = [], P = tableLength(c) || 0, release = engine === "vllm" ? VLLM_RELEASE : SGLANG_RELEASE, block = null;
    for (var i = 0; i < c.rope.length; i++) {
      var g = c.rope[i], rr = groupRows(c, g, engine), rows = rr[0], rule = rr[1];
      var f = pyFloat(or(get(g.parameters, "factor"), 1.0)), kind = g.rope_type;
      if (rows !== null && rows >= served && engine === "sglang") continue;
      if (kind === "linear" || (kind === "dynamic" && engine === "sglang")) needed.push(Math.ceil(served / f));
      else if (kind === "yarn" && rows !== null && rows < served)
        return [null, release + "'s YaRN table has " + fmtComma(rows) + " rows (" + rule + "): positions past it read off the table; a larger factor would cover " + fmtComma(served) + ", at speeds the model was not tuned with", null];
      else if (kind === "dynamic" && c.rope.length === 1) { needed.push(served); block = dynamicBlock(c, g); }
      else needed.push(engine === "vllm" || rows !== null ? served : P);
    }
    return [needed.length ? Math.max.apply(null, needed) : (c.rope.length ? P : served), "", block];
  }
  function engineRefusals(c, served) {
    var reg = T.REGISTRIES.vllm, sreg = T.REGISTRIES.sglang, tb = T.REGISTRIES.transformers_backend, archs = c.architectures || [];
    var fallback = archs.some(function (a) { return tb.compatible.indexOf(a) >= 0; }), mine = {};
    var gone = archs.filter(function (a) { return has(reg.previously, a); });
    if (gone.length && !fallback && !archs.some(function (a) { return reg.served.indexOf(a) >= 0; }))
      mine.vllm = "not served by " + reg.release + ": its registry (" + reg.source + ") lists " + gone[0] + " among the architectures it served until " + reg.previously[gone[0]] + ", and its transformers backend takes no " + gone[0] + " (" + tb.release + ", " + tb.source + ")";
    if (archs.length && !fallback && !archs.some(function (a) { return sreg.served.indexOf(a) >= 0; }))
      mine.sglang = sreg.release + " has no model of its own for " + archs[0] + " (" + sreg.source + "), and its transformers backend refuses it (" + tb.release + ", which it pins, does not mark " + archs[0] + " compatible: " + tb.source + "; srt/model_loader/utils.py resolve_transformers_arch)";
    var cpp = T.REGISTRIES["llama.cpp"];
    if (unconverted(c) !== null) mine["llama.cpp"] = cpp.release + "'s converter has no class for " + archs[0] + " (" + cpp.source + "): no GGUF file";
    return Object.assign(otherRefusals(c, served), mine);
  }
  function otherRefusals(c, served) {
    var out = {}, archs = c.architectures || [];
    if (c.model_type === "baichuan" && !archs.length) return { vllm: VLLM_RELEASE + "'s model registry has no Baichuan architecture" };
    if (c.model_type === "chatglm" && scalingOverride(c, served) !== null) {
      var why = "its chatglm model builds RoPE from rope_ratio alone, so no override scales past " + fmtComma(c.trained_length);
      return { vllm: why, sglang: why };
    }
    if (served && served > T.LLAMA_CPP_MAX_CONTEXT)
      return { "llama.cpp": "llama.cpp's -c takes at most " + fmtComma(T.LLAMA_CPP_MAX_CONTEXT) + " (a 32-bit int, std::stoi in common/arg.cpp)" };
    if (served && (c.scheme === "learned" || c.scheme === "sinusoidal")) {
      var end = c.max_length || vllmLimit(c);
      if (served > end) { ENGINES.forEach(function (e) { out[e[0]] = "the position table ends at " + fmtComma(end); }); return out; }
    }
    if (served && c.rope.length && scalingOverride(c, served) === null)
      ["vllm", "sglang"].forEach(function (k) {
        if (!covered(c, served, k)) { var n = lengthNeeded(c, served, k); if (n[0] === null) out[k] = n[1]; }
      });
    return out;
  }
  function engineCommands(c, served, model) {
    var out = { transformers: null, vllm: null, sglang: null, "llama.cpp": null };
    var refused = engineRefusals(c, served);
    if (!served || Object.keys(refused).length === ENGINES.length) return out;
    var start = {};
    Object.keys(ENGINE_STARTS).forEach(function (k) { start[k] = ENGINE_STARTS[k].replace("{model}", model || "MODEL").replace("{gguf}", "model.gguf"); });
    var block = scalingOverride(c, served), n;
    if (block) out.vllm = start.vllm + " --max-model-len " + served + " --hf-overrides '" + override(c, served, VLLM_LENGTH_KEYS, block) + "'";
    else if (covered(c, served, "vllm") && served <= vllmLimit(c)) out.vllm = start.vllm + " --max-model-len " + served;
    else {
      n = lengthNeeded(c, served, "vllm");
      if (n[0] !== null) out.vllm = start.vllm + " --max-model-len " + served + " --hf-overrides '" + override(c, n[0], VLLM_LENGTH_KEYS, n[2]) + "'";
    }
    if (block) out.sglang = start.sglang + " --context-length " + served + " --json-model-override-args '" + override(c, served, SGLANG_LENGTH_KEYS, block) + "'";
    else {
      var length = null, flag = "", seen = c;
      if (!covered(c, served, "sglang")) {
        length = lengthNeeded(c, served, "sglang")[0];
        if (length !== null) { seen = withLength(c, length, SGLANG_LENGTH_KEYS); flag = length ? " --json-model-override-args '" + override(c, length, SGLANG_LENGTH_KEYS) + "'" : ""; }
      }
      if (length !== null || covered(c, served, "sglang"))
        out.sglang = (served <= sglangLen(seen) ? "" : "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 ") + start.sglang + " --context-length " + served + flag;
    }
    var flags = start["llama.cpp"] + " -c " + served, scaled = c.rope.filter(function (g) { return g.rope_type !== "default"; });
    if (block) flags += " --rope-scaling yarn --rope-scale " + fmtG(block.factor, 6) + " --yarn-orig-ctx " + block.original_max_position_embeddings;
    else if (scaled.length && scaled[0].rope_type === "linear") flags += " --rope-scaling linear --rope-scale " + fmtG(scaled[0].parameters.factor, 6);
    else if (scaled.length && scaled[0].rope_type === "yarn") {
      var yf = get(scaled[0].parameters, "factor");
      if (none(yf)) yf = c.max_length / c.trained_length;  // engines.py: transformers' fallback
      flags += " --rope-scaling yarn --rope-scale " + fmtG(yf, 6) + " --yarn-orig-ctx " + c.trained_length;
    }
    // llama-server caps each slot at the file's context_length unless YaRN changes the file's scale (engines.py)
    var gg = T.REGISTRIES["llama.cpp"].gguf_arch, a0 = c.architectures && c.architectures.length ? c.architectures[0] : "";
    var arch = has(gg, a0) ? gg[a0] : null, fileLen = llamaCppLen(c);
    if (!block && arch && served > (fileLen || served)) flags += " --override-kv " + arch + ".context_length=int:" + served;
    out["llama.cpp"] = flags;
    if (out.vllm && temperatureOff(c, served)) out.vllm += " " + T.VLLM_TEMPERATURE_ON;
    Object.keys(refused).forEach(function (k) { out[k] = null; });
    return out;
  }
  function temperatureOff(c, served) { // engines.py _temperature_off: Llama 4's temperature where vLLM leaves it off
    var m = c.multipliers.filter(function (m) { return m.name === "query temperature (Llama 4, NoPE layers)"; });
    return m.length && served && served <= T.VLLM_TEMPERATURE_LEN ? m[0] : null;
  }
  function engineNotes(c, served) {
    var beta = c.rope.some(function (g) { return !none(get(g.parameters, "llama_4_scaling_beta")); });  // Ministral 3's
    var vreg = T.REGISTRIES.vllm, sreg = T.REGISTRIES.sglang, compat = T.REGISTRIES.transformers_backend.compatible, archs = c.architectures || [];
    var nativeV = archs.some(function (b) { return vreg.served.indexOf(b) >= 0; }), out0 = [];
    var backend = archs.filter(function (a) { return vreg.transformers_backend.indexOf(a) >= 0 || (has(vreg.previously, a) && compat.indexOf(a) >= 0 && !nativeV); });
    if (backend.length) out0.push("vLLM: " + backend[0] + " is served through " + vreg.release + "'s transformers backend, not a model of its own (" + vreg.source + ")");
    if (archs.length && !archs.some(function (a) { return sreg.served.indexOf(a) >= 0; }) && archs.some(function (a) { return compat.indexOf(a) >= 0; }))
      out0.push("SGLang: no model of its own for " + archs[0] + " in " + sreg.release + " (" + sreg.source + "); it falls back to its transformers backend");
    if (c.model_type !== null && T.MISTRAL_FORMAT_TYPES.indexOf(c.model_type) >= 0)
      out0.push("vLLM: a repo that also ships Mistral's own format (params.json and consolidated*.safetensors) is read from params.json, not config.json (" + VLLM_RELEASE +
        " transformers_utils/config.py get_config, --config-format auto): its max_position_embeddings sets the length (else this config's, else 128,000); add --config-format hf to serve what this config says" +
        (beta ? ", all but its query multiplier (next note)" : ""));
    if (beta)
      out0.push("vLLM: queries are scaled only by config.llama_4_scaling (" + VLLM_RELEASE + " models/mistral.py MistralAttention.__init__), which only Mistral's params.json sets " +
        "(transformers_utils/configs/mistral.py adapt_config_dict); no file of the wheel reads llama_4_scaling_beta: from config.json (--config-format hf, or no params.json) no query is scaled; " +
        "transformers 5.24 scales them all");
    var temperature = temperatureOff(c, served);
    if (temperature)
      out0.push("vLLM: Llama 4's query temperature is on only if the generation config's attn_temperature_tuning is true or --max-model-len > " + fmtComma(T.VLLM_TEMPERATURE_LEN) +
        ", over config.json's (" + VLLM_RELEASE + " models/llama4.py Llama4ForCausalLM.__init__); transformers 5.24 applies it from position " + fmtComma(temperature.starts_at) +
        ", llama.cpp from 8,191 (src/models/llama4.cpp): the command sets it");
    var notes = out0, scaled = c.rope.filter(function (g) { return g.rope_type !== "default"; }), kind = scaled.length ? scaled[0].rope_type : null;
    if (kind === "longrope" && c.trained_length) {
      var past = !!(served && served > c.trained_length);
      notes.push("vLLM: " + (past ? "long_factor" : "short_factor") + " for every prompt (chosen once at start-up: --max-model-len " + (past ? ">" : "<=") + " " +
        fmtComma(c.trained_length) + "); llama.cpp: -c picks the list the same way; transformers switches lists per prompt at " + fmtComma(c.trained_length) +
        "; SGLang switches the whole batch to long_factor once any position in it passes " + fmtComma(c.trained_length) + ", keeping the keys already cached (rope_variant.py Phi3LongRoPEScaledRotaryEmbedding.forward)");
    }
    if (kind === "llama3") notes.push("llama.cpp: the llama3 speeds are written into the GGUF file (rope_freqs); no flag is needed");
    if (kind === "dynamic") notes.push("llama.cpp: no dynamic scaling; it turns the trained speeds at every length");
    var added = scalingOverride(c, served);
    if (added !== null) {
      var yo = yarnOriginal(c), over = yo[1] ? " over " + fmtComma(yo[0]) + ", " + yo[1] : "";
      notes.push("the config has no scaling entry for " + fmtComma(served) + " positions: each command adds YaRN with factor " + fmtG(added.factor, 6) + over + " (edit config.json for transformers)");
    }
    return notes;
  }
  function nStr(x) { return x === null ? "unknown" : fmtComma(x); }
  // modelcard.report: report_sections (the report as data), verdict, render_text;
  // modelcard.html: advice, render_html. A row: {line: a str.format template, cells: [...]}.
  function fill(line, cells) { // line.format(*cells), for the templates the report uses: {i}, {i:<n}, {i:>n}
    return line.replace(/\{(\d+)(?::([<>])(\d+))?\}/g, function (m, i, align, n) {
      var s = cells[+i];
      while (align && s.length < +n) s = align === "<" ? s + " " : " " + s;
      return s;
    });
  }
  function row(line, cells, extra) { return Object.assign({ line: line, cells: cells.map(String) }, extra || {}); }
  var FACT = "{0:<14} {1}", ADVICE = T.ADVICE, PAGE_TITLES = T.PAGE_TITLES;
  function advice(w, values) {
    var a = ADVICE.filter(function (e) { return w.indexOf(e.starts) === 0; })[0];
    return { title: a.title, fix: a.fix.replace(/\{(\w+)\}/g, function (m, k) { return values[k]; }), slug: a.slug, page: PAGE_TITLES[a.slug] };
  }
  function pad(x, n) { x = String(x); while (x.length < n) x += " "; return x; }
  function sectionsOf(c, served, model, engine) {
    var given = !!served;
    served = served || vllmLen(c);
    var facts = [row(FACT, ["model_type", c.model_type || "not given"])];
    var layers = c.n_layers === null ? "" : " in " + c.n_layers + " layers";
    var schemes = { rope: "RoPE" + layers, alibi: "ALiBi" + layers + " (a distance penalty per head, no position table)",
      learned: "a learned position table (one row per position), added to the input", sinusoidal: "fixed sinusoidal codes added to the input",
      none: "no positions" + layers + " (NoPE: only the causal mask orders tokens)" };
    var kinds = c.layer_types ? Array.from(new Set(c.nope_layers.map(function (i) { return c.layer_types[i]; }))) : [];
    schemes.mixed = c.scheme === "mixed" ? "RoPE in " + (c.n_layers - c.nope_layers.length) + " of " + c.n_layers + " layers; " +
      (kinds.length === 1 && has(T.NO_ROPE_LAYER_TYPES, kinds[0]) ? T.NO_ROPE_LAYER_TYPES[kinds[0]] : "NoPE (no positions) in layers ") + c.nope_layers.join(", ") : "";
    if (c.scheme === "none" && c.layer_types && c.layer_types.some(function (t) { return has(T.NO_ROPE_LAYER_TYPES, t); })) {
      var order = Array.from(new Set(c.layer_types));
      schemes.none = "no RoPE in any layer; " + order.map(function (t) {
        var ids = []; c.layer_types.forEach(function (u, i) { if (u === t) ids.push(i); });
        return (has(T.NO_ROPE_LAYER_TYPES, t) ? T.NO_ROPE_LAYER_TYPES[t] : "NoPE attention in layers ") + ids.join(", ");
      }).join("; ");
    }
    facts.push(row(FACT, ["scheme", schemes[c.scheme]]));
    if (c.layer_types && new Set(c.layer_types).size > 1) {
      var counts = new Map();
      c.layer_types.forEach(function (ty) { counts.set(ty, (counts.get(ty) || 0) + 1); });
      facts.push(row(FACT, ["layer types", Array.from(counts).map(function (e) { return e[1] + " " + e[0]; }).join(", ")]));
    }
    if (truthy(c.sliding_window)) facts.push(row(FACT, ["sliding window", fmtComma(c.sliding_window) + " tokens"]));
    var basis = c.trained_stated ? "the trained length" : "the config limit", trained;
    if (c.trained_length && c.trained_stated) trained = fmtComma(c.trained_length);
    else if (c.trained_length) trained = "not stated (the config limit, " + fmtComma(c.trained_length) + ", stands in for it)";
    else trained = c.rope.some(function (g) { return g.rope_type === "linear"; }) ? "not stated (a linear factor is not a length ratio)" :
      c.max_length === null ? "unknown (the config states no length)" : "unknown";
    facts.push(row(FACT, ["trained length", trained]), row(FACT, ["config length", nStr(c.max_length)]));
    facts.push(row(FACT, ["served length", fmtComma(served) + (given ? "" : " by default in " + VLLM_RELEASE) + (!c.trained_length ? "" : served === c.trained_length ? " (" + basis + ")" :
      " = " + fmtG(served / c.trained_length, 4) + "× " + basis)]));
    var engines = servedLengths(c), why = servedFrom(c);
    var lengths = [["vllm", VLLM_RELEASE], ["sglang", SGLANG_RELEASE], ["llama.cpp", "llama.cpp (-c 0)"]].map(function (e, i) {
      return row(pad(i === 0 ? "by default" : "", 15) + "{0:<18}{1:>10}  {2}", [e[1], nStr(engines[e[0]]), why[e[0]]]);
    });
    lengths.push(row(pad("", 15) + "{0:<18}{1:>10}  {2}", ["transformers", "no limit", "it computes whatever it is given"]));
    var rope = [];
    c.rope.forEach(function (g) {
      var where = g.layer_type === "all" ? "every RoPE layer" : g.layer_type + " (" + g.layers.length + " layers)";
      rope.push(row("RoPE, {0}: {1}", [where, g.rope_type + ", base " + fmtG(g.base, 6, true) + ", " + g.rotary_dim + " of " + (c.qk_width || g.head_dim) +
        " dimensions turn (" + g.inv_freq.length + " " + g.pairing + " pairs)" +
        (c.qk_width && c.qk_width > g.head_dim ? "; the other " + (c.qk_width - g.head_dim) + " carry no position (qk_nope_head_dim)" : "")], { group: true }));
      var section = get(g.parameters, "mrope_section");
      if (!none(section) && section.length) rope.push(row("  {0:<12} {1}", ["M-RoPE", section.join(", ") + " of the " + g.inv_freq.length +
        " pairs follow the time, height and width ids, " + (get(g.parameters, "mrope_interleaved") ? "interleaved" : "in three blocks")]));
      var waves = g.inv_freq.filter(function (x) { return x > 0; }).map(function (x) { return 2 * Math.PI / x; });
      rope.push(row("  {0:<12} {1}", ["wavelengths", waves.length ? fmtG(Math.min.apply(null, waves), 4, true) + " to " +
        fmtG(Math.max.apply(null, waves), 4, true) + " positions" : "none: no pair turns"]));
      if (c.trained_length) {
        var turn = turns(g.default_inv_freq, c.trained_length), k = turn.filter(Boolean).length;
        rope.push(row("  {0}: {1}", ["full turn within " + basis, k + " of " + turn.length + " pairs" + (k ? " (" + ranges(turn) + ")" : "")]));
      }
      if (g.rope_type !== "default")
        rope.push(row("  {0:<12} {1}", ["scale", scaleSummary(g.default_inv_freq.map(function (d, i) { return d > 0 ? g.inv_freq[i] / d : 1.0; }))]));
      if (g.rope_type === "longrope" && served && c.trained_length && served > c.trained_length) {
        var lf = ropeInvFreq(g.head_dim, g.parameters, c.max_length, served)[0];
        rope.push(row("  {0}: {1}", ["past " + fmtComma(c.trained_length), "long_factor, " + scaleSummary(lf.map(function (x, i) { return x / g.default_inv_freq[i]; }))]));
      }
      if (g.attention_factor !== 1) rope.push(row("  {0} {1}", ["attention factor", fmtG(g.attention_factor, 6) + " (multiplies cos and sin)"]));
    });
    var attention = [];
    if (c.softmax_multiplier !== null) attention.push(row(FACT, ["softmax scale", "× " + fmtG(c.softmax_multiplier, 6) + " (DeepSeek multiplies 1/√d by mscale²)"]));
    c.multipliers.forEach(function (m) {
      if (typeof m.value === "string" || m.value === null)
        attention.push(row("multiplier     {0}: {1}", [m.name, (m.value === null ? "learned" : m.value + ", from position " + fmtComma(m.starts_at)) + "; " + m.layers.length + " layer" + (m.layers.length === 1 ? "" : "s")]));
    });
    if (c.alibi_slopes) attention.push(row(FACT, ["ALiBi slopes", c.alibi_slopes.length + " heads, " + fmtG(c.alibi_slopes[0], 4) + " down to " + fmtG(c.alibi_slopes[c.alibi_slopes.length - 1], 4)]));
    var commands = engineCommands(c, served, model), refused = engineRefusals(c, served), run = [];
    ENGINES.forEach(function (e) {
      if (has(refused, e[0])) run.push(row("engine         {0}: {1}", [e[1], "no command: " + refused[e[0]]]));
      else if (commands[e[0]]) run.push(row("engine         {0}: {1}", [e[1], commands[e[0]]], { command: true }));
    });
    var notes = engineNotes(c, served).map(function (n) { return row("engine note    {0}", [n]); });
    var warned = c.warnings.slice();
    if (c.scheme === "learned" && served && c.max_length && served > c.max_length)
      warned.push("a learned table has " + fmtComma(c.max_length) + " rows: position " + fmtComma(c.max_length) + " and later have none");
    if (served && c.trained_length && (c.scheme === "rope" || c.scheme === "mixed") && served > c.trained_length &&
        c.rope.every(function (g) { return g.rope_type === "default"; }) && served !== c.max_length)
    {
      var add = scalingOverride(c, served) ? ": the commands here add one" : ": add one";
      warned.push(c.trained_stated ? "serving " + fmtComma(served) + " positions on a model trained at " + fmtComma(c.trained_length) + " with no scaling entry in the config" + add + " (lessons.context_extension)" :
        "serving " + fmtComma(served) + " positions past the config limit " + fmtComma(c.trained_length) + " with no scaling entry in the config" + add + " (lessons.context_extension)");
    }
    var reach = scaledReach(c);
    if (served && reach && served > reach[0] && reach[0] > (c.trained_length || 0))
      warned.push("past the scaling's reach: the " + reach[1] + " block stretches to " + fmtComma(reach[0]) + " positions (" + reach[2] + "), and " + fmtComma(served) +
        " are served: the positions past " + fmtComma(reach[0]) + " are outside the range the block was made for" + longropeShift(c, served));
    var values = { served: fmtComma(served), trained: nStr(c.trained_length), limit: nStr(c.max_length),
      stretch: c.trained_length ? fmtG(served / c.trained_length, 4) : "unknown" };
    var warnings = warned.map(function (w) { return row("warning        {0}", [w], advice(w, values)); });
    var sections = [["card", "Position setup", facts], ["lengths", "Length each engine serves by default", lengths],
      ["rope", "RoPE, per group of layers", rope], ["attention", "Other factors on attention", attention],
      ["commands", "A command per engine, for " + fmtComma(served) + " positions", run], ["notes", "Engine notes", notes],
      ["warnings", "Warnings", warnings]].concat(bugSection(c, served, engine), [["sources", "Where the engines' rules were read", [row(FACT, [SOURCES.slice(0, 15).trim(), SOURCES.slice(15)])]]]);
    var bugs = 0;
    sections.forEach(function (s) { s[2].forEach(function (r) { if (r.bug) bugs++; }); });
    linkRows(c, sections);
    return { verdict: verdict(c, served, given, warned.length, refused, bugs), choose: choose(c),
      sections: sections.filter(function (s) { return s[2].length; }).map(function (s) { return { key: s[0], title: s[1], rows: s[2] }; }) };
  }
  function verdict(c, served, given, warnings, refused, bugs) {
    var said, keys = Object.keys(refused);
    if (keys.length === ENGINES.length) said = "No engine serves " + fmtComma(served) + " positions: " + refused[keys[0]];
    else {
      said = "Serve " + fmtComma(served) + " positions, " + (given ? "the length asked for" : VLLM_RELEASE + "'s default");
      var t = c.trained_length, scaled = c.rope.filter(function (g) { return g.rope_type !== "default"; });
      var basis = c.trained_stated ? "the trained length" : "the config limit";
      if (t === null) said += ": the config states no trained length";
      else if (served <= t) said += ": " + (served === t ? "" : "within ") + basis;
      else {
        said += ": " + fmtG(served / t, 4) + "× " + basis;
        if (c.scheme === "rope" || c.scheme === "mixed") said += scaled.length ? ", stretched by its " + scaled[0].rope_type + " scaling" : ", with no scaling entry";
      }
      if (t !== null && !c.trained_stated) said += served <= t ? ", as no trained length is stated" : ", and no trained length is stated";
    }
    var needs = [[warnings, "warning"], [bugs || 0, "known bug"]].filter(function (p) { return p[0]; }).map(function (p) { return p[0] + " " + p[1] + (p[0] > 1 ? "s" : ""); });
    return said + (!needs.length ? "; nothing needs attention." : "; " + needs.join(" and ") + " below need" + (warnings + (bugs || 0) > 1 ? "" : "s") + " attention.");
  }
  function renderText(r) {
    var lines = [];
    r.sections.forEach(function (s) { s.rows.forEach(function (w) { lines.push(fill(w.line, w.cells)); }); });
    return lines.join("\n");
  }
  function esc(s) { return String(s).replace(/[&<>"']/g, function (ch) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" }[ch]; }); }
  var TABLE_HEADS = T.TABLE_HEADS, TAUGHT = T.TAUGHT, ROPE_TYPE_TAUGHT = T.ROPE_TYPE_TAUGHT, SCHEME_TAUGHT = T.SCHEME_TAUGHT;
  // modelcard.html: _rope_taught, where_taught, link_rows, choose, taught (the link of a row: chosen from the config)
  function ropeTaught(g) {  // modelcard.html._rope_taught
    var plain = g.rope_type === "default";
    return ROPE_TYPE_TAUGHT[plain && g.rotary_dim < g.head_dim ? "partial" : plain && g.layer_type === "sliding_attention" ? "local" : g.rope_type];
  }
  function whereTaught(c, section, w, g) {
    var label = w.cells[0];
    if (section === "rope" && (w.group || label === "scale")) return ropeTaught(g);
    if (section === "card" && label === "scheme") return SCHEME_TAUGHT[c.scheme];
    if (section === "card" && label === "trained length") {
      var scaled = c.rope.filter(function (x) { return x.rope_type !== "default"; });
      if (scaled.length) return ropeTaught(scaled[0]);
      return c.scheme === "rope" || c.scheme === "mixed" ? T.TRAINED_BAND : SCHEME_TAUGHT[c.scheme];
    }
    return has(TAUGHT, label) ? TAUGHT[label] : null;
  }
  function linkRows(c, sections) {
    sections.forEach(function (s) {
      var k = -1;
      s[2].forEach(function (w) {
        if (s[0] === "rope" && w.group) k++;
        var where = ["warnings", "notes", "sources"].indexOf(s[0]) >= 0 ? null : whereTaught(c, s[0], w, c.rope[k]);
        if (where) w.taught = { slug: where.slug, anchor: where.anchor };
      });
    });
  }
  function choose(c) { var slug = T.CHOOSE[c.scheme]; return { slug: slug, anchor: T.CHOOSE_ANCHOR, page: PAGE_TITLES[slug] }; }
  function taught(w) { return w.taught || null; }
  function words(command) {  // modelcard.html._words: a word of up to 40 characters is not wrapped inside
    return command.split(" ").map(function (w) { return w.length <= 40 ? '<span class="pmc-word">' + esc(w) + "</span>" : esc(w); }).join(" ");
  }
  function renderHtml(r, href) {  // modelcard.html.render_html: the same string
    var sections = r.sections.filter(function (s) { return s.key === "warnings"; }).concat(r.sections.filter(function (s) { return s.key !== "warnings"; }));
    var go = r.choose;  // the verdict's way on: the Level 1 "How to choose" that decides it; focus lands here
    var out = ['<div class="pmc-report">', '<p class="pmc-verdict" tabindex="-1"><strong>Verdict:</strong> ' + esc(r.verdict) +
      ' <span class="pmc-choose">How to choose: <a href="' + esc(href(go.slug)) + "#" + go.anchor + '">' + esc(go.page) + "</a></span></p>"];
    sections.forEach(function (s) {
      var title = esc(s.title);
      out.push('<div class="pmc-section" data-section="' + s.key + '">');
      if (s.key === "warnings") s.rows.forEach(function (w) {
        out.push('<div class="admonition warning pmc-row"><p class="admonition-title">' + esc(w.title) + '</p><p class="pmc-cell">' + esc(w.cells[0]) +
          '</p><p><strong>Fix:</strong> ' + esc(w.fix) + ' Taught in <a href="' + esc(href(w.slug)) + '">' + esc(w.page) + "</a>.</p></div>");
      });
      else if (s.key === "notes") {
        out.push('<p class="pmc-caption">' + title + "</p><ul>");
        s.rows.forEach(function (w) { out.push('<li class="pmc-row"><span class="pmc-cell">' + esc(w.cells[0]) + "</span></li>"); });
        out.push("</ul>");
      } else if (s.key === "sources") s.rows.forEach(function (w) {
        out.push('<p class="pmc-row"><span class="pmc-cell">' + esc(w.cells[0]) + '</span>: <span class="pmc-cell">' + esc(w.cells[1]) + "</span></p>");
      });
      else {
        out.push('<div class="pmc-scroll" role="region" aria-label="' + title + '"><table class="pmc-table"><caption>' + title + "</caption>");
        if (has(TABLE_HEADS, s.key)) out.push("<thead><tr>" + TABLE_HEADS[s.key].map(function (h) { return '<th scope="col">' + h + "</th>"; }).join("") + "</tr></thead>");
        out.push("<tbody>");
        s.rows.forEach(function (w) {
          var cells = w.cells.slice(1).map(function (x) {
            return w.command ? '<td><div class="pmc-command"><code class="pmc-cell">' + words(x) + "</code></div></td>" : '<td class="pmc-cell">' + esc(x) + "</td>";
          }).join("");
          var where = taught(w), label = where ? '<a href="' + esc(href(where.slug)) + "#" + where.anchor + '">' + esc(w.cells[0]) + "</a>" : esc(w.cells[0]);
          out.push('<tr class="pmc-row' + (w.group ? " pmc-group" : "") + '"><th scope="row" class="pmc-cell">' + label + "</th>" + cells + "</tr>");
        });
        out.push("</tbody></table></div>");
      }
      out.push("</div>");
    });
    out.push("</div>");
    return out.join("");
  }
  function reportOf(c, served, model, engine) { return renderText(sectionsOf(c, served, model, engine)); }
  var METHODS = C.COMPARED;  // lessons.model_card.COMPARED
  // what compare_methods refuses (the stretch, the trained length, ntk_pair_scale's width), then the core's
  function checkMethods(width, trainedLength, s) {
    positive(s, "stretch");
    count(trainedLength, "trained_length");
    count(evenWidth(width, "d"), "d", 4);
  }
  // compare_methods(group, trained_length, stretch); group: {base, rotary_dim, rope_type, head_dim}
  function compareMethods(group, trainedLength, s) {
    var width = group.rope_type !== "proportional" ? group.rotary_dim : group.head_dim;
    checkMethods(width, trainedLength, s);
    return C.compareMethods(N(group.base), width, trainedLength, N(s));
  }
  // modelcard.explorer: group_window, explorer_start, measures, method_measures, block_measures
  var EXPLORER_FALLBACK = { base: 10000.0, width: 128, trained: 4096 }, NO_SCALING = C.NO_SCALING;
  function groupLabel(g) { return g.layer_type === "all" ? "every RoPE layer" : g.layer_type + " (" + g.layers.length + " layers)"; }
  function groupWindow(c, g) {  // [the span every layer of the group attends within, "chunk" | "sliding window"], or [null, null]
    var kinds = {};
    if (c.layer_types && g.layers.length) g.layers.forEach(function (i) { kinds[c.layer_types[i]] = true; });
    var k = Object.keys(kinds);
    if (k.length === 1 && k[0] === "chunked_attention" && c.chunk) return [c.chunk, "chunk"];
    if (k.length === 1 && k[0] === "sliding_attention" && c.sliding_window) return [c.sliding_window, "sliding window"];
    return [null, null];
  }
  function explorerStart(c, served, gi) {  // gi: the RoPE group's index (the "Layer group" menu), default 0
    gi = gi || 0;
    var g = c && c.rope.length ? c.rope[gi] : null;
    if (!g) return { base: EXPLORER_FALLBACK.base, width: EXPLORER_FALLBACK.width, trained: EXPLORER_FALLBACK.trained, stated: true, stretch: 1.0,
      window: null, kind: null, group: null, others: [] };
    var trained = c.trained_length || c.max_length || EXPLORER_FALLBACK.trained, reach = scaledReach(c), win = groupWindow(c, g);
    served = served || vllmLen(c);
    return { base: g.base, width: Math.min(256, Math.max(32, 2 * roundHalfEven(g.rotary_dim / 2))), trained: trained,
      stated: c.trained_stated, stretch: Math.max(1.0, served / trained, reach ? reach[0] / trained : 1.0), window: win[0], kind: win[1],
      group: groupLabel(g), others: c.rope.filter(function (o, i) { return i !== gi; }).map(function (o) { var w = groupWindow(c, o); return { group: groupLabel(o), rope_type: o.rope_type, window: w[0], kind: w[1] }; }) };
  }
  function methodMeasures(base, width, trained, stretch, win) {
    checkMethods(width, trained, stretch);
    return C.methodMeasures(N(base), width, trained, N(stretch), win);
  }
  function blockMeasures(c, trained, served, win, gi) {
    var g = c.rope[gi || 0], speeds = g.inv_freq;
    if (g.rope_type === "dynamic" || g.rope_type === "longrope") speeds = ropeInvFreq(g.head_dim, g.parameters, c.max_length, served)[0];
    return C.measures(speeds, g.default_inv_freq, trained, Math.min(served, win || served));
  }
  function dumps(v, ind) { // json.dumps(v, indent=2), floats as Python writes them
    ind = ind || "";
    var inner = ind + "  ";
    if (Array.isArray(v)) return v.length ? "[\n" + v.map(function (x) { return inner + dumps(x, inner); }).join(",\n") + "\n" + ind + "]" : "[]";
    if (isDict(v)) {
      var ks = Object.keys(v);
      return ks.length ? "{\n" + ks.map(function (k) { return inner + JSON.stringify(k) + ": " + dumps(v[k], inner); }).join(",\n") + "\n" + ind + "}" : "{}";
    }
    if (isReal(v)) return isFinite(v) ? (isFloat(v) ? floatRepr(N(v)) : intStr(N(v))) : { NaN: "NaN", Infinity: "Infinity", "-Infinity": "-Infinity" }[String(N(v))];
    return JSON.stringify(v);
  }
  function asConfig(config) { return typeof config === "string" ? parse(config) : config; }

  var API = {
    ConfigError: ConfigError, parse: parse,
    explain: function (config, served, model, engine) { return toJSON(card(config), served, model, engine); },
    report: function (config, served, model, engine) { return reportOf(card(config), served === undefined ? null : served, model, engine); },
    sections: function (config, served, model, engine) { return sectionsOf(card(config), served === undefined ? null : served, model || "MODEL", engine); },
    html: function (config, served, model, links, engine) {  // links: {slug: href}, as the test gives them; else this page's
      return renderHtml(sectionsOf(card(config), served === undefined ? null : served, model || "MODEL", engine), links ? function (s) { return links[s]; } : lessonHref);
    },
    compareMethods: compareMethods, explorerStart: function (config, served, gi) { return explorerStart(config === null ? null : card(config), served, gi); },
    methodMeasures: methodMeasures, card: card, vllmMaxModelLen: vllmLen,
    blockMeasures: function (config, trained, served, win, gi) { return blockMeasures(card(config), trained, served, win, gi); },
    format: { g: fmtG, comma: fmtComma, repr: repr, round: roundHalfEven }, dumps: dumps
  };
  window.PrimerModelCard = API;

  // ---- the page: decoder, plot and explorable ------------------------------------------
  var SVGNS = "http://www.w3.org/2000/svg";
  function el(tag, attrs, parent, text) {
    var e = tag.indexOf("svg:") === 0 ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  // A plot is drawn at the width it is shown at (its viewBox in CSS pixels, redrawn when that width
  // changes), so its text keeps the stylesheet's size (model_card.css) on a phone as on a desktop;
  // a viewBox of fixed width shrank it to 6 px at 390 px (issue 43).
  var SUPERSCRIPT = { "-": "⁻", "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹" };
  function power10(p) { return "10" + String(p).split("").map(function (ch) { return SUPERSCRIPT[ch]; }).join(""); }
  var CHAR = 6.6;  // the average width of a character of the plots' text, in px (to size the legend)
  function shownWidth(svg) { var w = svg.getBoundingClientRect().width; return w > 0 ? w : 640; }
  var resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(function (entries) {
    entries.forEach(function (e) {
      var svg = e.target, w = shownWidth(svg);
      if (svg.pmcDraw && w !== svg.pmcWidth) { svg.pmcWidth = w; svg.pmcDraw(w); }
    });
  });
  function drawAtWidth(svg, draw) {  // draw(W): the picture for a width of W px; now, and again when the width changes
    svg.pmcDraw = draw;
    svg.pmcWidth = shownWidth(svg);
    draw(svg.pmcWidth);
    if (resized && !svg.pmcWatched) { resized.observe(svg); svg.pmcWatched = true; }
  }
  function clear(svg) { while (svg.firstChild) svg.removeChild(svg.firstChild); }
  // series: [{ys, cls, dash, label, group}] over pair/head index; lines: [{y, label, cls}]
  function plot(svg, title, xlabel, ylabel, series, lines) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", title);
    drawAtWidth(svg, function (W) { drawPlot(svg, W, title, xlabel, ylabel, series, lines); });
  }
  function drawPlot(svg, W, title, xlabel, ylabel, series, lines) {
    clear(svg);
    var keys = lines.filter(function (l) { return l.y > 0; }).length + series.length;
    var keyWidth = 44 + CHAR * Math.max.apply(null, [0].concat(lines.concat(series).map(function (k) { return k.label.length; })));
    var beside = W - keyWidth >= 340;  // the legend right of the axes when they keep 340 px, else under them
    var L = 56, T = 24, B = 40, R = beside ? keyWidth : 16, P = beside ? 320 : Math.max(220, Math.min(320, Math.round(0.7 * W)));
    var H = beside ? P : P + 18 * keys + 6;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var ys = [], nx = 1;
    series.forEach(function (s) { nx = Math.max(nx, s.ys.length); s.ys.forEach(function (y) { if (y > 0 && isFinite(y)) ys.push(y); }); });
    lines.forEach(function (l) { if (l.y > 0) ys.push(l.y); });
    if (!ys.length) ys = [1, 10];
    var lo = Math.floor(Math.log10(Math.min.apply(null, ys))), hi = Math.ceil(Math.log10(Math.max.apply(null, ys)));
    if (hi === lo) hi = lo + 1;
    var x = function (i) { return L + (nx > 1 ? i / (nx - 1) : 0.5) * (W - L - R); };
    var y = function (v) { return T + (hi - Math.log10(v)) / (hi - lo) * (P - T - B); };
    el("svg:title", {}, svg, title);
    var axes = el("svg:g", { "class": "pmc-axes" }, svg);
    var step = Math.ceil((hi - lo) / (P > 260 ? 8 : 6));
    for (var p = lo; p <= hi; p += step) {
      el("svg:line", { x1: L, x2: W - R, y1: y(Math.pow(10, p)), y2: y(Math.pow(10, p)), "class": "pmc-grid" }, axes);
      el("svg:text", { x: L - 6, y: y(Math.pow(10, p)) + 4, "text-anchor": "end" }, axes, power10(p));
    }
    el("svg:line", { x1: L, x2: L, y1: T, y2: P - B }, axes);
    el("svg:line", { x1: L, x2: W - R, y1: P - B, y2: P - B }, axes);
    el("svg:text", { x: L, y: P - B + 16, "text-anchor": "middle" }, axes, series[0] && series[0].x0 ? "1" : "0");
    el("svg:text", { x: W - R, y: P - B + 16, "text-anchor": "middle" }, axes, String(nx - 1 + (series[0] && series[0].x0 ? 1 : 0)));
    el("svg:text", { x: (L + W - R) / 2, y: P - 6, "text-anchor": "middle" }, axes, xlabel);
    el("svg:text", { x: 14, y: (T + P - B) / 2, "text-anchor": "middle", transform: "rotate(-90 14 " + (T + P - B) / 2 + ")" }, axes, ylabel);
    var legend = 0;
    var key = function (cls, dash, label) {
      var lx = beside ? W - R + 10 : 8, ly = beside ? T + 8 + 16 * legend++ : P + 10 + 18 * legend++;
      el("svg:line", { x1: lx, x2: lx + 24, y1: ly, y2: ly, "class": cls, "stroke-dasharray": dash || "" }, svg);
      el("svg:text", { x: lx + 30, y: ly + 4, "class": "pmc-legend" }, svg, label);
    };
    lines.forEach(function (l) {
      if (!(l.y > 0)) return;
      el("svg:line", { x1: L, x2: W - R, y1: y(l.y), y2: y(l.y), "class": "pmc-ref " + l.cls, "stroke-dasharray": l.dash }, svg);
      key("pmc-ref " + l.cls, l.dash, l.label);
    });
    series.forEach(function (s) {
      var d = "", pen = "M";
      s.ys.forEach(function (v, i) {
        if (!(v > 0 && isFinite(v))) { pen = "M"; return; }
        d += pen + x(i).toFixed(1) + " " + y(v).toFixed(1);
        pen = "L";
      });
      el("svg:path", { d: d, "class": "pmc-line " + s.cls + (s.group ? " pmc-group" : ""), "stroke-dasharray": s.dash || "" }, svg);
      if (s.dots) s.ys.forEach(function (v, i) { el("svg:circle", { cx: x(i), cy: y(v), r: 3, "class": "pmc-dot " + s.cls }, svg); });
      key("pmc-line " + s.cls, s.dash, s.label);
    });
  }
  // A learned table (or no scheme at all): the table's rows against the positions served, as two bars.
  function bars(svg, label, rows, served) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    var top = Math.max(rows, served) || 1;
    drawAtWidth(svg, function (W) {
      clear(svg);
      var left = 150, room = Math.max(40, W - left - 10 - CHAR * fmtComma(top).length - 14);
      svg.setAttribute("viewBox", "0 0 " + W + " 120");
      [["rows in the table", rows, "pmc-c1"], ["positions served", served, "pmc-c2"]].forEach(function (b, i) {
        el("svg:text", { x: left - 10, y: 34 + 44 * i, "text-anchor": "end" }, svg, b[0]);
        el("svg:rect", { x: left, y: 18 + 44 * i, height: 24, width: Math.max(1, room * b[1] / top), "class": "pmc-bar " + b[2] }, svg);
        el("svg:text", { x: left + 4 + room * b[1] / top, y: 34 + 44 * i, "class": "pmc-legend" }, svg, fmtComma(b[1]));
      });
    });
  }
  function wavelengths(inv) { return C.wavelengths(inv).map(function (w) { return w > 0 && isFinite(w) ? w : NaN; }); }
  // what the explorer's table calls each method of compare_methods (and no scaling), and its dash
  var SHORT = { "no scaling": "no scaling", "linear (PI)": "linear (PI)", "NTK-aware": "NTK-aware", "YaRN": "YaRN", "Llama 3 rule": "Llama 3 rule" };
  var DASHES = { "linear (PI)": "6 3", "NTK-aware": "2 3", "YaRN": "", "Llama 3 rule": "8 3 2 3" };
  var BLOCK = "this config's block";  // the table's first row: the config's own RoPE block, as it ships
  var MEASURES = [["past", "pairs past the trained angles", function (v) { return String(v); }],
    ["largest", "largest angle ÷ trained", function (v) { return fmtG(v, 5, true); }],
    ["untouched", "pairs untouched", function (v) { return String(v); }],
    ["slowest", "slowest pair slowed", function (v) { return fmtG(v, 4, true) + "×"; }]];
  var RUN_DELAY = 600;  // ms a menu waits for the reader to stop moving through it before the report follows

  function build(root) {
    if (root.dataset.pmcBuilt) return;
    root.dataset.pmcBuilt = "1";
    root.classList.add("pmc");
    var form = el("div", { "class": "pmc-form" }, root);
    el("label", { "for": "pmc-gallery" }, form, "Example config");
    var select = el("select", { id: "pmc-gallery" }, form);
    el("option", { value: "" }, select, "(paste your own below)");
    el("label", { "for": "pmc-config" }, form, "config.json");
    var area = el("textarea", { id: "pmc-config", rows: "10", spellcheck: "false", autocomplete: "off" }, form);
    area.placeholder = '{"model_type": "llama", "rope_theta": 10000.0, ...}';
    el("label", { "for": "pmc-served" }, form, "Length to serve (optional)");
    var servedIn = el("input", { id: "pmc-served", type: "number", min: "1", step: "1", inputmode: "numeric" }, form);
    el("label", { "for": "pmc-engine" }, form, "Known bugs of a release (optional)");
    var engineIn = el("select", { id: "pmc-engine" }, form);
    el("option", { value: "" }, engineIn, "(none)");
    T.RELEASE_MENU.forEach(function (m) { el("option", { value: m[0] }, engineIn, m[1]); });
    var button = el("button", { type: "button", "class": "pmc-button" }, form, "Explain");
    var alert = el("p", { role: "alert", "class": "pmc-error" }, root);
    // the report, as a region a screen reader can jump to; a polite live line says what changed (its
    // verdict) when a menu redraws it, and Explain moves the focus to the verdict itself
    var status = el("p", { "class": "pmc-status", role: "status", "aria-live": "polite" }, root);
    var out = el("div", { "class": "pmc-output", hidden: "", role: "region", "aria-label": "The report" }, root);
    var report = el("div", { "class": "pmc-report-box" }, out);
    var fig = el("svg:svg", { "class": "pmc-plot" }, out);
    var details = el("details", { "class": "pmc-json" }, out);
    el("summary", {}, details, "The card as JSON (--json)");
    var json = el("pre", { tabindex: "0", "aria-label": "The card as JSON" }, details);

    var ex = el("fieldset", { "class": "pmc-explore" }, root);
    el("legend", {}, ex, "Explore: one RoPE head, five ways to stretch it");
    // a config with several RoPE groups (Gemma 3's global and sliding local layers): which one the explorer draws
    var groupRow = el("div", { "class": "pmc-slider", hidden: "", style: "display: none" }, ex);
    el("label", { "for": "pmc-group" }, groupRow, "Layer group");
    var groupIn = el("select", { id: "pmc-group" }, groupRow);
    groupIn.addEventListener("change", function () { seed(shown, seededServed, +groupIn.value); });
    var sliders = {};
    [["base", "RoPE base (rope_theta)", 3, 7, 0.01], ["factor", "Stretch (served ÷ trained)", 1, 64, 1], ["width", "Rotary width (dimensions)", 32, 256, 2]].forEach(function (s) {
      var row = el("div", { "class": "pmc-slider" }, ex);
      el("label", { "for": "pmc-" + s[0] }, row, s[1]);
      var input = el("input", { id: "pmc-" + s[0], type: "range", min: s[2], max: s[3], step: s[4] }, row);
      var shown = el("output", { "for": "pmc-" + s[0] }, row);
      sliders[s[0]] = { input: input, out: shown };
      input.addEventListener("input", explore);
    });
    var efig = el("svg:svg", { "class": "pmc-explore-plot" }, ex);
    // the sentence is read where it stands, not announced: a slider step rewrote ~300 characters into a
    // live region; a short live line (pmc-said) says each row's count once the slider rests
    var sentence = el("p", { "class": "pmc-sentence" }, ex);
    var said = el("p", { "class": "pmc-said", role: "status", "aria-live": "polite" }, ex);
    var measures = el("div", { "class": "pmc-scroll pmc-measures", role: "region", "aria-label": "What the config's block and each method do at this stretch" }, ex);
    var reach = el("p", { "class": "pmc-note pmc-reach" }, ex);
    el("p", { "class": "pmc-note" }, ex, "A pair is past the trained angles when its largest angle at the served length lies beyond the " +
      "angle of the first position training never reached. The first row is the config's own block, its speeds as the report computes " +
      "them; the rows below it are what-ifs, each method set for the stretch shown (NTK-aware raises the base for it, as a dynamic " +
      "block with factor 1 does at the served length). The trained length is the one the config states, the pretraining length a " +
      "block's original_max_position_embeddings names: a checkpoint trained further with its block has met those angles in that " +
      "training (Meta reports continued pretraining of Llama 3.1 to 128K tokens with its rule: Llama Team, 2024, §3.4.2, cited in " +
      "lessons.context_extension), so the block's count is what it leaves to that training, not a fault. Two methods can keep every " +
      "pair within the trained angles and still differ in the pairs they leave untouched, at their trained speed (the fast ones, that " +
      "tell nearby positions apart), and in how far they slow the slowest (lessons.context_extension: trained_angle_ratio).");
    var start = null, shown = null, seededServed = null, gi = 0, seededBase = null, seededSlider = null, seededStretch = null, seededFactor = null, seededWidth = null, saying = null;

    function seed(c, served, group) {  // group: the RoPE group's index; a new config starts at its first
      shown = c && c.rope.length ? c : null;
      seededServed = served;
      gi = shown && group ? group : 0;
      if (group === undefined) {
        groupIn.textContent = "";
        (shown ? shown.rope : []).forEach(function (g, i) { el("option", { value: String(i) }, groupIn, groupLabel(g) + ", base " + fmtComma(g.base)); });
        groupRow.hidden = !shown || shown.rope.length < 2;
        groupRow.style.display = groupRow.hidden ? "none" : "";  // .pmc-slider's grid would show it
      }
      groupIn.value = String(gi);
      start = explorerStart(c, served, gi);
      var b = start.base, s = start.stretch;
      sliders.base.input.value = Math.min(7, Math.max(3, Math.log10(b > 0 ? b : 10000)));
      // the sliders move in steps (0.01 in log10: 500,000 would become 10^5.70 = 501,187; whole
      // stretches): until the reader moves one, the config's own base and served ÷ trained are drawn
      seededBase = b > 0 && b >= 1e3 && b <= 1e7 ? b : null;
      seededSlider = sliders.base.input.value;
      sliders.factor.input.max = String(Math.max(64, Math.ceil(s)));  // Llama 4 Scout serves 1,280× its trained length
      sliders.factor.input.value = Math.max(1, Math.round(s));
      seededStretch = s;
      seededFactor = sliders.factor.input.value;
      sliders.width.input.value = start.width;
      seededWidth = sliders.width.input.value;
      explore();
    }
    function explore(event) {
      try { draw2(!!event); } catch (e) { sentence.textContent = "Error: " + e.message; }
    }
    function draw2(moved) {
      var base = seededBase !== null && sliders.base.input.value === seededSlider ? seededBase : Math.pow(10, +sliders.base.input.value);
      var s = sliders.factor.input.value === seededFactor ? seededStretch : +sliders.factor.input.value, w = +sliders.width.input.value;
      var trainedLen = start.trained, served = roundHalfEven(trainedLen * s), win = start.window, upTo = Math.min(served, win || served);
      sliders.base.out.textContent = fmtComma(Number(base.toPrecision(3)));
      sliders.factor.out.textContent = fmtG(s, 4, true) + "×";
      sliders.width.out.textContent = w + " (" + w / 2 + " pairs)";
      // the config's own block, while the head drawn is its head (its base and width)
      var own = shown && sliders.base.input.value === seededSlider && sliders.width.input.value === seededWidth ? shown.rope[gi] : null;
      var plain = ropeInvFreq(w, { rope_theta: base })[0], scales = compareMethods({ base: base, rotary_dim: w, rope_type: "default", head_dim: w }, trainedLen, s);
      var series = [{ ys: wavelengths(plain), cls: "pmc-m-none", label: "no scaling" }];
      Object.keys(scales).forEach(function (n) {
        series.push({ ys: wavelengths(plain.map(function (x, i) { return x * scales[n][i]; })), cls: "pmc-m-" + METHODS[n].rope_type, dash: DASHES[n], label: "if " + SHORT[n] });
      });
      if (own && own.rope_type !== "default") series.unshift({ ys: wavelengths(own.inv_freq), cls: "pmc-c1 pmc-bold", label: BLOCK + " (" + own.rope_type + ")" });
      var limit = start.stated ? "trained " : "config limit (no trained length stated) ";
      plot(efig, "Wavelength per pair for base " + sliders.base.out.textContent + ", " + w + " dimensions, stretch " + sliders.factor.out.textContent, "rotary pair i", "wavelength 2π/θᵢ (positions)", series,
        [{ y: trainedLen, cls: "pmc-trained", dash: "2 4", label: limit + fmtComma(trainedLen) },
         { y: served, cls: "pmc-served", dash: "8 4", label: "served " + fmtComma(served) + " (" + sliders.factor.out.textContent + ")" }]);
      var m = {}, whatIf = methodMeasures(base, w, trainedLen, s, win);
      if (own) m[BLOCK] = blockMeasures(shown, trainedLen, served, win, gi);
      Object.keys(whatIf).forEach(function (n) { m[n] = whatIf[n]; });
      var names = Object.keys(m), turn = turns(plain, trainedLen).filter(Boolean).length;
      var label = function (n) { return n === BLOCK ? BLOCK + " (" + own.rope_type + ")" : "if you used " + SHORT[n]; };
      var basis = start.stated ? "the trained length of " + fmtComma(trainedLen) : "the config limit of " + fmtComma(trainedLen) + ", as no trained length is stated";
      var within = win ? ", read within its " + start.kind + " of " + fmtComma(win) : "";
      sentence.textContent = turn + " of " + plain.length + " pairs complete a full turn within " + basis + ". At " + fmtComma(served) + " positions" + within + ", " +
        (own ? "this config's block leaves " + m[BLOCK].past + " pairs past the trained angles, no scaling " : "") +
        m[NO_SCALING].past + (own ? "" : " pairs go past the trained angles with no scaling") + "; if you used each method at " + sliders.factor.out.textContent + ": " +
        Object.keys(whatIf).slice(1).map(function (n) { return whatIf[n].past + " with " + SHORT[n]; }).join(", ") + ".";
      measures.innerHTML = '<table class="pmc-table"><caption>At ' + fmtComma(served) + " positions, " + esc(sliders.factor.out.textContent) + " the " +
        (start.stated ? "trained length" : "config limit") + (win ? ", distances up to its " + esc(start.kind) + " of " + fmtComma(win) : "") +
        '</caption><thead><tr><th scope="col">method</th>' +
        MEASURES.map(function (c) { return '<th scope="col">' + esc(c[1]) + "</th>"; }).join("") + "</tr></thead><tbody>" +
        names.map(function (n) {
          return '<tr data-method="' + esc(n) + '"' + (n === BLOCK ? ' class="pmc-own"' : "") + '><th scope="row">' + esc(label(n)) + "</th>" +
            MEASURES.map(function (c) { return "<td>" + esc(c[2](m[n][c[0]])) + "</td>"; }).join("") + "</tr>";
        }).join("") + "</tbody></table>";
      var notes = [];
      if (win) notes.push((start.group === "every RoPE layer" ? "Every RoPE layer of this config" : "Every layer of its group " + start.group) + " attends within a " + start.kind + " of " +
        fmtComma(win) + " positions: no distance it meets is longer, so each row is read at " + fmtComma(upTo) + " positions at most; the stretch still slows its pairs.");
      if (shown && !own) notes.push("This config's own block is the first row at its own base and width (" + fmtComma(shown.rope[gi].base) + ", " + seededWidth + ").");
      start.others.forEach(function (o) {
        notes.push("Its other RoPE group (" + o.rope_type + "), " + o.group + ", is not drawn" + (o.window ? ": it attends within a " + o.kind + " of " + fmtComma(o.window) +
          " positions, so no distance it meets is longer, whatever the length served." : ".") + " Choose it under Layer group to draw it.");
      });
      reach.textContent = notes.join(" ");
      reach.hidden = !notes.length;
      if (moved) {  // a short summary, once the slider rests
        clearTimeout(saying);
        var summary = sliders.factor.out.textContent + ": pairs past the trained angles: " + names.map(function (n) { return (n === BLOCK ? "this config" : SHORT[n]) + " " + m[n].past; }).join(", ") + ".";
        saying = setTimeout(function () { said.textContent = summary; }, RUN_DELAY);
      }
      markScrollers(ex);
    }
    var runs = 0, pending = null;
    function run(focus) {
      clearTimeout(pending);
      pending = null;
      root.dataset.pmcPending = "0";
      alert.textContent = "";
      try {
        var text = area.value.trim();
        if (!text) throw ConfigError("paste a config.json first, or pick an example");
        var config = parse(text), v = servedIn.value.trim(), served = null;
        if (v) { served = Number(v); if (!Number.isInteger(served) || served < 1) throw ConfigError("the length to serve must be a positive integer, got " + v); }
        var c = card(config), picked = gallery[select.value];
        // a gallery config, unedited, is served under its Hugging Face name; a pasted one as MODEL
        var model = picked && dumps(picked.config) === text ? picked.repo : "MODEL";
        var engine = engineIn.value || null;
        var sections = sectionsOf(c, served, model, engine);
        report.innerHTML = renderHtml(sections, lessonHref);  // every text in it escaped (esc)
        var j = toJSON(c, served, model, engine);  // shown as Python's json.dumps writes it: floats keep their ".0"
        j.rope.forEach(function (g) { g.inv_freq = g.inv_freq.map(F); g.attention_factor = F(g.attention_factor); });
        j.multipliers.forEach(function (m) { if (typeof m.value === "number") m.value = F(m.value); });
        if (j.alibi_slopes) j.alibi_slopes = j.alibi_slopes.map(F);
        json.textContent = dumps(j);
        out.hidden = false;
        draw(c, served || vllmLen(c));
        markScrollers(report);
        seed(c, served);
        root.dataset.pmcRuns = String(++runs);
        var verdict = report.querySelector(".pmc-verdict");
        if (focus) { status.textContent = ""; verdict.focus(); }  // read out where the focus lands
        else status.textContent = (picked && model !== "MODEL" ? picked.name + ": " : "") + sections.verdict;
      } catch (e) {
        out.hidden = true;
        status.textContent = "";
        alert.textContent = "Error: " + String(e && e.message || e).split("\n")[0];
      }
    }
    function later() {  // a menu's change: the report follows once the reader stops moving through the menu
      clearTimeout(pending);
      root.dataset.pmcPending = "1";
      pending = setTimeout(function () { run(false); }, RUN_DELAY);
    }
    function draw(c, served) {
      var lines = [{ y: c.trained_length, cls: "pmc-trained", dash: "2 4", label: "trained " + (c.trained_length ? fmtComma(c.trained_length) : "") },
        { y: served, cls: "pmc-served", dash: "8 4", label: "served " + (served ? fmtComma(served) : "") }];
      if (c.rope.length) {
        var series = [];
        c.rope.forEach(function (g, k) {
          var name = g.layer_type === "all" ? "" : " (" + g.layer_type.replace("_attention", "") + ")";
          if (g.rope_type !== "default") series.push({ ys: wavelengths(g.default_inv_freq), cls: "pmc-c" + (k + 1), dash: "5 4", label: "unscaled" + name });
          series.push({ ys: wavelengths(g.inv_freq), cls: "pmc-c" + (k + 1) + " pmc-bold", group: true, label: g.rope_type + name });
        });
        plot(fig, "RoPE wavelength per pair against the trained and served lengths", "rotary pair i", "wavelength 2π/θᵢ (positions)", series, lines);
      } else if (c.alibi_slopes) {
        plot(fig, "ALiBi: distance at which each head's weight halves", "head", "tokens",
          [{ ys: c.alibi_slopes.map(function (m) { return Math.LN2 / m; }), cls: "pmc-c1 pmc-bold", dots: true, x0: 1, label: "half-weight distance" }], lines);
      } else bars(fig, c.scheme === "learned" ? "A learned table's rows against the served length" : "No RoPE or ALiBi: nothing per pair to plot",
        c.max_length || 0, served || 0);
    }
    button.addEventListener("click", function () { run(true); });
    engineIn.addEventListener("change", function () { if (!out.hidden) later(); });
    select.addEventListener("change", function () {
      var e = gallery[select.value];
      if (e) { area.value = dumps(e.config); later(); }
    });
    var gallery = {};
    var url = root.dataset.gallery || (SCRIPT ? new URL("../assets/model_card_gallery.json", SCRIPT).href : null);
    seed(null, null);
    function offer(text) {
      gallery = parse(text) || {};
      Object.keys(gallery).forEach(function (slug) { el("option", { value: slug }, select, gallery[slug].name); });
      root.dataset.pmcGallery = String(Object.keys(gallery).length);
    }
    if (url && location.protocol === "file:") {  // the offline copy: file:// refuses fetch(), so load a script
      var script = document.createElement("script");
      script.src = url.replace(/\.json$/, ".js");  // sets window.PrimerModelCardGallery to the JSON's text
      script.onload = function () { offer(window.PrimerModelCardGallery || "{}"); };  // text: parse() keeps 8.0 a float
      script.onerror = function () { root.dataset.pmcGallery = "0"; };
      document.head.appendChild(script);
    } else if (url) fetch(url).then(function (r) { return r.ok ? r.text() : "{}"; }).then(offer)
      .catch(function () { root.dataset.pmcGallery = "0"; });
  }
  // A lesson's page, from this one (lessons/model_card/): a sibling folder on a site with directory
  // addresses, a sibling file in the offline copy (lessons/model_card.html); relative either way.
  function lessonHref(slug) {
    var path = location.pathname;
    if (/\/model_card\.html$/.test(path)) return slug + ".html";
    return "../" + slug + (/\/index\.html$/.test(path) ? "/index.html" : "/");
  }
  // A report's table wrapper that must scroll sideways (the column is too narrow) gets a tab stop,
  // so a keyboard can scroll it; one that fits has none. The page's static reports too, once drawn.
  function markScrollers(root) {
    root.querySelectorAll(".pmc-scroll").forEach(function (el) {
      if (el.checkVisibility && !el.checkVisibility({ contentVisibilityAuto: true })) return;  // a skipped section
      if (el.scrollWidth > el.clientWidth) el.setAttribute("tabindex", "0"); else el.removeAttribute("tabindex");
    });
  }
  function markAll() { markScrollers(document); }
  if (document.addEventListener) {
    window.addEventListener("resize", markAll);
    document.addEventListener("contentvisibilityautostatechange", function (e) { if (!e.skipped) markScrollers(e.target); }, true);
  }
  // build once per page: model_card_loader.js may load this script after the page
  // (and after Material's document$ has emitted), so start now and on every navigation
  function start() { var root = document.getElementById("model-card-decoder"); if (root) { build(root); markAll(); } }  // build() runs once per root
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
