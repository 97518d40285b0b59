// Drawing for the explorables (window.PrimerPlot): SVG drawn at the pixel width it is shown, so a
// font size here is the CSS size the reader gets (10 px and up on a phone). Colours come from the
// palette's CSS variables (--primer-*), so both palettes follow the site's switch.
(function (global) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";

  // An element (SVG when `svg`), its attributes set, appended to `parent` if given.
  function el(tag, attrs, parent, svg) {
    var node = svg ? document.createElementNS(NS, tag) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    if (parent) parent.appendChild(node);
    return node;
  }
  function s(tag, attrs, parent) { return el(tag, attrs, parent, true); }

  // lo..hi onto a..b, linear or log10.
  function scale(lo, hi, a, b, log) {
    var f = log ? Math.log10 : function (v) { return v; };
    var l = f(lo), h = f(hi);
    return function (v) { return a + (f(v) - l) / (h - l) * (b - a); };
  }

  // About `n` round tick values in lo..hi (powers of ten on a log axis).
  function ticks(lo, hi, log, n) {
    var out = [];
    if (log) {
      for (var e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e++) out.push(Math.pow(10, e));
      var step = Math.ceil(out.length / (n || 6));
      return out.filter(function (_, i) { return i % step === 0; });
    }
    var raw = (hi - lo) / (n || 5), mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var nice = [1, 2, 2.5, 5, 10].map(function (m) { return m * mag; }).find(function (m) { return m >= raw; });
    for (var v = Math.ceil(lo / nice) * nice; v <= hi + nice * 1e-9; v += nice) out.push(+v.toPrecision(12));
    return out;
  }

  // A short label for a tick: 1,000 → "1k", 10^6 → "1M", small numbers as they are.
  function short(v) {
    var a = Math.abs(v);
    if (a >= 1e6) return +(v / 1e6).toPrecision(3) + "M";
    if (a >= 1e4) return +(v / 1e3).toPrecision(3) + "k";
    return String(+v.toPrecision(4));
  }

  // An SVG of `width` × `height` px in `parent` with axes: opts.x / opts.y = {lo, hi, log, label};
  // returns {svg, g (the plot area), x (scale), y (scale), width, height (of the plot area)}.
  function frame(parent, width, height, opts) {
    var m = { left: 48, right: 12, top: 10, bottom: 40 };
    var svg = s("svg", { width: width, height: height, viewBox: "0 0 " + width + " " + height,
                         class: "px-plot", role: "img", "aria-label": opts.label || "" }, parent);
    var w = width - m.left - m.right, h = height - m.top - m.bottom;
    var x = scale(opts.x.lo, opts.x.hi, 0, w, opts.x.log), y = scale(opts.y.lo, opts.y.hi, h, 0, opts.y.log);
    var g = s("g", { transform: "translate(" + m.left + "," + m.top + ")" }, svg);
    s("rect", { x: 0, y: 0, width: w, height: h, class: "px-area" }, g);
    ticks(opts.x.lo, opts.x.hi, opts.x.log, Math.max(2, Math.floor(w / 70))).forEach(function (v) {
      s("line", { x1: x(v), x2: x(v), y1: h, y2: h + 4, class: "px-tick" }, g);
      s("text", { x: x(v), y: h + 16, "text-anchor": "middle", class: "px-text", text: short(v) }, g);
    });
    ticks(opts.y.lo, opts.y.hi, opts.y.log, Math.max(2, Math.floor(h / 40))).forEach(function (v) {
      s("line", { x1: -4, x2: 0, y1: y(v), y2: y(v), class: "px-tick" }, g);
      s("text", { x: -7, y: y(v) + 4, "text-anchor": "end", class: "px-text", text: short(v) }, g);
    });
    if (opts.x.label) s("text", { x: w / 2, y: h + 34, "text-anchor": "middle", class: "px-text", text: opts.x.label }, g);
    if (opts.y.label) s("text", { x: -m.left + 12, y: h / 2, "text-anchor": "middle", class: "px-text",
                                  transform: "rotate(-90 " + (-m.left + 12) + " " + h / 2 + ")", text: opts.y.label }, g);
    return { svg: svg, g: g, x: x, y: y, width: w, height: h };
  }

  // A polyline path through points [[x, y], ...] already in pixels.
  function path(points) {
    return points.map(function (p, i) { return (i ? "L" : "M") + p[0].toFixed(1) + " " + p[1].toFixed(1); }).join("");
  }

  // A labelled control: <label>text <input …></label> plus an <output> after it; returns the input.
  function control(parent, label, attrs) {
    var row = el("label", { class: "px-control" }, parent);
    el("span", { text: label }, row);
    var input = el("input", attrs, row);
    return input;
  }

  // A labelled <select> of [[value, text], ...].
  function choice(parent, label, options, value) {
    var row = el("label", { class: "px-control" }, parent);
    el("span", { text: label }, row);
    var select = el("select", {}, row);
    options.forEach(function (o) { el("option", { value: o[0], text: o[1] }, select); });
    if (value !== undefined) select.value = value;
    return select;
  }

  // The width to draw at: the box's content width, at most `max` px.
  function widthOf(box, max) { return Math.max(280, Math.min(max || 720, box.clientWidth || 600)); }

  global.PrimerPlot = { el: el, s: s, scale: scale, ticks: ticks, short: short, frame: frame, path: path,
                        control: control, choice: choice, widthOf: widthOf };
})(typeof window !== "undefined" ? window : globalThis);
