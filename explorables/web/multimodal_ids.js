// Multimodal ids (lessons/multimodal_rope, under the position-ids figure): the page's prompt (3 text
// tokens, one image or video, 4 text tokens) numbered as the Qwen team's get_rope_index does (the text
// resumes at the largest id + 1, as vLLM 0.33.0), under Qwen2.5-VL's sections (16/24/24, 14-pixel
// patches, a video's time in seconds) or Qwen3-VL's interleaved layout (24/20/20, 16-pixel patches, a
// video as one-step frames after "<t seconds>" labels). The layouts come from the build
// (explorables/multimodal_ids.py); the functions below are the lesson's, ported line for line and held
// to it by tests/test_explorable_multimodal_ids_node.py. Numbers a test reads: data-key "tokens",
// "vision", "resume", "advance", "resume-5-24", "pairs-time", "pairs-height", "pairs-width".
(function () {
  "use strict";
  var TEXT = 0, IMAGE = 1, VIDEO = 2, AXES = ["time", "height", "width"];

  // vision_grid_thw: (t, h, w) patches of a resized picture (sides multiples of 2 · patch).
  function visionGridThw(height, width, frames, patchSize, temporalPatchSize) {
    frames = frames || 1; patchSize = patchSize || 14; temporalPatchSize = temporalPatchSize || 2;
    if (height % (2 * patchSize) || width % (2 * patchSize)) throw new Error("sides must be multiples of " + 2 * patchSize);
    if (frames > 1 && frames % temporalPatchSize) throw new Error("frames must be a multiple of " + temporalPatchSize);
    return [frames === 1 ? 1 : frames / temporalPatchSize, height / patchSize, width / patchSize];
  }
  // vision_token_count: t · h · w / merge².
  function visionTokenCount(grid, merge) { merge = merge || 2; return grid[0] * grid[1] * grid[2] / (merge * merge); }
  // vision_id_advance: max(h, w) / merge.
  function visionIdAdvance(grid, merge) { merge = merge || 2; return Math.floor(Math.max(grid[1], grid[2]) / merge); }

  // vision_position_ids (float32 time, as transformers 5.18-5.24 and the Qwen team): [time, height,
  // width] rows, row-major over (t, h', w'), offset by start; time id floor(k · interval) in float32.
  function visionPositionIds(start, grid, merge, interval) {
    merge = merge || 2;
    var t = grid[0], h = grid[1] / merge, w = grid[2] / merge, f = Math.fround(interval === undefined ? 1 : interval);
    var out = [[], [], []];
    for (var k = 0; k < t; k++) {
      var time = Math.trunc(Math.fround(k * f));
      for (var r = 0; r < h; r++) for (var c = 0; c < w; c++) {
        out[0].push(start + time); out[1].push(start + r); out[2].push(start + c);
      }
    }
    return out;
  }

  // get_rope_index (time_float "float32"): [ids (3 rows), rope_delta]. A video's interval is
  // float32(tokens_per_second) · float32(seconds per step), 1 without them. resume: "max_plus_one"
  // (the default: the largest id + 1) or "transformers_5_24" (the start + max(h', w')).
  function getRopeIndex(types, imageGrids, videoGrids, merge, tokensPerSecond, secondsPerStep, resume) {
    merge = merge || 2;
    var grids = {}, used = {}, seconds = 0, ids = [[], [], []], current = 0, i = 0, top = -Infinity;
    grids[IMAGE] = imageGrids || []; grids[VIDEO] = videoGrids || []; used[IMAGE] = used[VIDEO] = 0;
    while (i < types.length) {
      var kind = types[i], length = 0;
      while (i + length < types.length && types[i + length] === kind) length++;
      i += length;
      var piece;
      if (kind === TEXT) {
        piece = [[], [], []];
        for (var j = 0; j < length; j++) for (var a = 0; a < 3; a++) piece[a].push(current + j);
        current += length;
      } else {
        var grid = grids[kind][used[kind]++], interval = 1;
        if (kind === VIDEO && tokensPerSecond !== null && tokensPerSecond !== undefined) {
          var step = secondsPerStep ? secondsPerStep[seconds++] : 1;
          interval = Math.fround(Math.fround(tokensPerSecond) * Math.fround(step));
        }
        piece = visionPositionIds(current, grid, merge, interval);
        if (piece[0].length !== length) throw new Error("a run of " + length + " vision tokens does not match its grid");
        if (resume === "transformers_5_24") current += visionIdAdvance(grid, merge);
        else current = piece.reduce(function (m, row) { return row.reduce(function (a, b) { return a > b ? a : b; }, m); }, -Infinity) + 1;
      }
      for (var b = 0; b < 3; b++) for (var m = 0; m < piece[b].length; m++) {
        ids[b].push(piece[b][m]);
        if (piece[b][m] > top) top = piece[b][m];
      }
    }
    return [ids, top + 1 - types.length];
  }

  // mm_token_types: a type per token from [kind, n or grid] parts (merge 2).
  function mmTokenTypes(parts) {
    var out = [];
    parts.forEach(function (p) {
      var n = p[0] === "text" ? p[1] : visionTokenCount(p[1]), type = { text: TEXT, image: IMAGE, video: VIDEO }[p[0]];
      for (var i = 0; i < n; i++) out.push(type);
    });
    return out;
  }

  // qwen3_vl_timestamp_tokens: "<", a token per digit, ".", " seconds", ">" of t to one decimal.
  function qwen3VlTimestampTokens(seconds) { return 3 + seconds.toFixed(1).length; }
  // qwen3_vl_video_parts: per step a label and <|vision_start|>, a one-step frame, <|vision_end|>.
  function qwen3VlVideoParts(grid, secondsPerStep) {
    var parts = [];
    for (var k = 0; k < grid[0]; k++) {
      parts.push(["text", qwen3VlTimestampTokens((k + 0.25) * secondsPerStep) + 1], ["video", [1, grid[1], grid[2]]], ["text", 1]);
    }
    return parts;
  }

  // mrope_axis_of_pair: 0 time, 1 height, 2 width per pair; sections in order, or interleaved
  // (pair i height when i % 3 == 1 and i < 3·s_h, width when i % 3 == 2 and i < 3·s_w).
  function mropeAxisOfPair(section, interleaved) {
    var n = section[0] + section[1] + section[2], axis = [];
    for (var i = 0; i < n; i++) {
      if (!interleaved) axis.push(i < section[0] ? 0 : i < section[0] + section[1] ? 1 : 2);
      else axis.push(i % 3 === 1 && i < 3 * section[1] ? 1 : i % 3 === 2 && i < 3 * section[2] ? 2 : 0);
    }
    return axis;
  }

  // explorables/multimodal_ids.py's numbering: the prompt around one picture of rows × cols tokens,
  // as `layout`'s model numbers it, with where the text after it resumes (both rules).
  function numbering(data, layout, kind, rows, cols, frames, seconds) {
    var model = data.models[layout], side = 2 * model.patch_size, merge = data.merge;
    var grid = visionGridThw(rows * side, cols * side, kind === "video" ? frames : 1, model.patch_size, data.temporal_patch);
    var middle = [[kind, grid]], images = [], videos = [], tps = null, perStep = null;
    if (kind === "image") images = [grid];
    else if (model.interleaved) {
      middle = qwen3VlVideoParts(grid, seconds / grid[0]);
      videos = middle.filter(function (p) { return p[0] === "video"; }).map(function (p) { return p[1]; });
    } else { videos = [grid]; tps = model.tokens_per_second; perStep = [seconds / grid[0]]; }
    var before = data.text[0], after = data.text[1];
    var types = mmTokenTypes([["text", before]].concat(middle, [["text", after]]));
    var ids = getRopeIndex(types, images, videos, merge, tps, perStep)[0], n = types.length;
    var later = getRopeIndex(types, images, videos, merge, tps, perStep, "transformers_5_24")[0];
    var vision = images.concat(videos).reduce(function (s, g) { return s + visionTokenCount(g, merge); }, 0);
    return { grid: grid, ids: ids, types: types, tokens: n - before - after, vision: vision, resume: ids[0][n - after],
             advance: ids[0][n - after] - before, resume_5_24: later[0][n - after] };
  }

  // Which tokens to draw in `slots` columns: all, or the first ones, a gap, and the last `tail`.
  function shown(n, slots, tail) {
    var out = [], i;
    if (n <= slots) { for (i = 0; i < n; i++) out.push(i); return out; }
    for (i = 0; i < slots - tail - 1; i++) out.push(i);
    out.push(null);  // the gap
    for (i = n - tail; i < n; i++) out.push(i);
    return out;
  }

  function mount(root, ctx) {
    var P = ctx.plot, data = ctx.data, layouts = Object.keys(data.models);
    var box = P.el("div", { class: "px-controls" }, root);
    var layout = P.choice(box, "Layout", layouts.map(function (k) { return [k, data.models[k].label]; }), layouts[0]);
    var kind = P.choice(box, "Picture", [["image", "an image"], ["video", "a video"]], "image");
    var rows = P.control(box, "Height", { type: "range", min: 1, max: 32, step: 1, value: 4 });
    var cols = P.control(box, "Width", { type: "range", min: 1, max: 32, step: 1, value: 6 });
    var frames = P.control(box, "Frames", { type: "range", min: 2, max: 64, step: 2, value: 20 });
    var seconds = P.control(box, "Seconds", { type: "range", min: 1, max: 120, step: 1, value: 10 });
    var out = P.el("p", { class: "px-readout", "aria-live": "polite" }, root);
    var figure = P.el("div", { class: "px-mm-figure" }, root);
    var note = P.el("p", { class: "px-readout px-mm-note" }, root);
    var pairs = P.el("p", { class: "px-readout" }, root);
    var strip = P.el("div", { class: "px-mm-figure" }, root);
    function name(input, text) { input.parentNode.firstChild.textContent = text; }
    function num(parent, key, value, text) { P.el("span", { "data-key": key, "data-value": value, text: text }, parent); }
    function words(parent, text) { parent.appendChild(document.createTextNode(text)); }

    var draw = ctx.timed(function () {
      var model = data.models[layout.value], video = kind.value === "video", px = 2 * model.patch_size;
      var v = numbering(data, layout.value, kind.value, +rows.value, +cols.value, +frames.value, +seconds.value);
      var n = v.types.length, after = data.text[1], step = +seconds.value / v.grid[0];
      name(rows, "Height: " + rows.value + " token rows (" + rows.value * px + " px)");
      name(cols, "Width: " + cols.value + " token columns (" + cols.value * px + " px)");
      name(frames, "Frames: " + frames.value + " (" + v.grid[0] + " steps)");
      name(seconds, "Seconds: " + seconds.value + " (" + +step.toFixed(3) + " s a step)");
      [frames, seconds].forEach(function (c) { c.parentNode.classList.toggle("px-mm-off", !video); });

      out.innerHTML = "";
      words(out, "Patch grid (t, h, w) = (" + v.grid.join(", ") + ") of " + model.patch_size + "-pixel patches: ");
      num(out, "vision", v.vision, v.vision.toLocaleString("en") + " vision tokens");
      if (v.tokens !== v.vision) {
        words(out, " and " + (v.tokens - v.vision).toLocaleString("en") + " label and marker tokens, ");
        num(out, "tokens", v.tokens, v.tokens.toLocaleString("en") + " tokens in all");
      } else {
        words(out, ", ");
        num(out, "tokens", v.tokens, v.tokens.toLocaleString("en") + " tokens in the context");
      }
      words(out, ". They move the ids by ");
      num(out, "advance", v.advance, v.advance.toLocaleString("en"));
      words(out, ": the text after them resumes at id ");
      num(out, "resume", v.resume, v.resume.toLocaleString("en"));
      words(out, " (token " + (n - after).toLocaleString("en") + ").");
      if (v.resume_5_24 !== v.resume) {
        words(out, " transformers 5.3 to 5.24 resume at ");
        num(out, "resume-5-24", v.resume_5_24, v.resume_5_24.toLocaleString("en"));
        words(out, " instead, inside the video's time ids.");
      }

      // three panels, id against token index; at most one token per 4 px, the rest skipped
      figure.innerHTML = "";
      var W = P.widthOf(root, 720), left = 40, right = 10, head = 17, panel = 56;
      var H = 3 * (head + panel) + 36, w = W - left - right;
      var slots = Math.max(40, Math.floor(w / 4)), tail = after + 8, list = shown(n, slots, tail);
      var svg = P.s("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, class: "px-plot", role: "img",
        "aria-label": "Time, height and width ids of the tokens drawn, against their index" }, figure);
      var cell = w / list.length, x = function (slot) { return left + (slot + 0.5) * cell; };
      var hi = 1, runs = [], gap = list.indexOf(null), resumeSlot = list.indexOf(n - after);
      list.forEach(function (t, s) {
        if (t === null) return;
        for (var a = 0; a < 3; a++) hi = Math.max(hi, v.ids[a][t]);
        if (v.types[t] === TEXT) return;
        var last = runs[runs.length - 1];
        if (last && last[1] === s) last[1] = s + 1; else runs.push([s, s + 1]);  // shaded picture runs
      });
      P.s("text", { x: W - right, y: 12, "text-anchor": "end", class: "px-text",
                    text: "text resumes at id " + v.resume + " (token " + (n - after) + ")" }, svg);
      AXES.forEach(function (axis, a) {
        var y0 = a * (head + panel) + head, y = P.scale(0, hi, y0 + panel - 3, y0 + 3);
        P.s("rect", { x: left, y: y0 - 12, width: 16, height: 5, class: "px-mm-" + axis }, svg);
        P.s("text", { x: left + 20, y: y0 - 5, class: "px-text", text: axis + " id" }, svg);
        P.s("rect", { x: left, y: y0, width: w, height: panel, class: "px-area" }, svg);
        runs.forEach(function (r) {
          P.s("rect", { x: left + r[0] * cell, y: y0, width: (r[1] - r[0]) * cell, height: panel, class: "px-mm-vision" }, svg);
        });
        P.s("line", { x1: x(resumeSlot), x2: x(resumeSlot), y1: y0, y2: y0 + panel, class: "px-mm-resume" }, svg);
        [0, hi].forEach(function (tv) {
          P.s("text", { x: left - 5, y: y(tv) + 4, "text-anchor": "end", class: "px-text", text: P.short(tv) }, svg);
        });
        var d = "";
        list.forEach(function (t, s) {
          if (t !== null) d += (s && list[s - 1] !== null ? "L" : "M") + x(s).toFixed(1) + " " + y(v.ids[a][t]).toFixed(1);
        });
        P.s("path", { d: d, class: "px-mm-line px-mm-" + axis }, svg);
        if (cell >= 6) list.forEach(function (t, s) {  // a dot per token where there is room
          if (t !== null) P.s("circle", { cx: x(s), cy: y(v.ids[a][t]), r: 2, class: "px-mm-" + axis }, svg);
        });
        if (gap >= 0) P.s("text", { x: x(gap), y: y0 + panel / 2 + 4, "text-anchor": "middle", class: "px-text", text: "⋯" }, svg);
      });
      var base = 3 * (head + panel), keep = [resumeSlot];
      [0, gap - 1].forEach(function (s) {
        if (s >= 0 && keep.every(function (k) { return Math.abs(x(s) - x(k)) > 44; })) keep.push(s);
      });
      keep.forEach(function (s) {
        P.s("text", { x: x(s), y: base + 14, "text-anchor": x(s) > W - right - 20 ? "end" : "middle", class: "px-text",
                      text: list[s].toLocaleString("en") }, svg);
      });
      P.s("text", { x: left + w / 2, y: base + 31, "text-anchor": "middle", class: "px-text", text: "token index (shaded: the picture)" }, svg);
      var first = gap < 0 ? n : gap;
      note.textContent = first === n ? "All " + n + " tokens drawn." :
        "Drawn: the first " + first + " and the last " + tail + " of " + n.toLocaleString("en") + " tokens (⋯ marks the skipped ones).";

      // the pairs, one column each, in the row of the id it follows
      var axis = mropeAxisOfPair(model.mrope_section, model.interleaved), count = [0, 0, 0];
      axis.forEach(function (a) { count[a]++; });
      pairs.innerHTML = "";
      words(pairs, "Rotary pairs (" + model.label + "): ");
      AXES.forEach(function (name, a) {
        num(pairs, "pairs-" + name, count[a], count[a] + " follow " + name);
        words(pairs, a < 2 ? ", " : ".");
      });
      strip.innerHTML = "";
      var sh = 3 * 14 + 34, cw = w / axis.length;
      var s2 = P.s("svg", { width: W, height: sh, viewBox: "0 0 " + W + " " + sh, class: "px-plot", role: "img",
        "aria-label": "Which id each rotary pair follows" }, strip);
      AXES.forEach(function (name, a) {
        P.s("text", { x: 2, y: a * 14 + 11, class: "px-text", text: name }, s2);
        P.s("rect", { x: left, y: a * 14, width: w, height: 13, class: "px-area" }, s2);
      });
      axis.forEach(function (a, i) {
        P.s("rect", { x: left + i * cw, y: a * 14 + 1, width: Math.max(cw - 1, 1), height: 11, class: "px-mm-pair px-mm-" + AXES[a] }, s2);
      });
      P.s("text", { x: left, y: 3 * 14 + 14, class: "px-text", text: "pair 0 (fastest)" }, s2);
      P.s("text", { x: W - right, y: 3 * 14 + 14, "text-anchor": "end", class: "px-text", text: (axis.length - 1) + " (slowest)" }, s2);
    });
    [layout, kind].forEach(function (c) { c.addEventListener("change", draw); });
    [rows, cols, frames, seconds].forEach(function (c) { c.addEventListener("input", draw); });
    draw();
  }

  PrimerExplorables.define("multimodal_ids", mount, {
    visionGridThw: visionGridThw, visionTokenCount: visionTokenCount, visionIdAdvance: visionIdAdvance,
    visionPositionIds: visionPositionIds, getRopeIndex: getRopeIndex, mmTokenTypes: mmTokenTypes,
    qwen3VlTimestampTokens: qwen3VlTimestampTokens, qwen3VlVideoParts: qwen3VlVideoParts,
    mropeAxisOfPair: mropeAxisOfPair,
    numbering: function (layout, kind, rows, cols, frames, seconds) {
      var v = numbering(window.PrimerExplorableData.multimodal_ids, layout, kind, rows, cols, frames, seconds);
      delete v.types;
      return v;
    },
  });
})();
