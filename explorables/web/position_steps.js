// Position ids, step by step (lessons/position_ids, under the conformance figure): six scenarios of
// the conformance table, frame by frame, each slot with the id a correct server gives it and, with
// "Show the bug", the id the scenario's known bug gives it; under them the change that bug causes up
// to the frame (the tiny decoder's largest logit change; for the window, one attention head's
// output) and the conformance table's rows for the scenario. The ids and changes are the build's
// (explorables/position_steps.py, from the lesson's functions); this script only picks and draws
// them. Numbers a test reads: data-key="ids" (data-value: a JSON array of the ids shown, slot by
// slot, null for an empty ring slot), "step" (1-based), "change" (the frame's largest change,
// unrounded; 0 where the bug changes no id yet).
(function () {
  "use strict";

  // The scenario `key`'s frame `step` (1-based, clamped) of `data`, right or with the bug: the ids per
  // slot, which slots the bug changes (shown), whether it changes any id of the frame (differs), the
  // caption, the table's rows, and the frame's own change: the largest of its measures (model by model).
  function view(data, key, step, bug) {
    var s = data.scenarios.filter(function (x) { return x.key === key; })[0] || data.scenarios[0];
    var n = s.frames.length, i = Math.max(1, Math.min(n, Math.round(step) || 1)), f = s.frames[i - 1];
    var top = f.change[0];
    f.change.forEach(function (c) { if (c.value > top.value) top = c; });
    return { key: s.key, step: i, steps: n, ids: bug ? f.bug : f.ids,
             changed: f.ids.map(function (id, j) { return bug && f.bug[j] !== id; }),
             differs: f.ids.some(function (id, j) { return f.bug[j] !== id; }),
             caption: bug ? f.bugCaption : f.caption, rows: bug ? s.wrong : s.right, measure: s.measure,
             change: top.value, changeText: top.text, changeBy: top.label, changes: f.change };
  }

  // what each cell's look means (docs/stylesheets/explorables.css, px-ids-<kind>)
  var KINDS = { pad: "dashed: padding", other: "grey: another document", cached: "blue fill: cached keys",
                "new": "thick blue edge: new tokens", slot: "thin edge: a ring slot", written: "thick blue edge: the slot written now", query: "double blue edge: the query",
                draft: "dotted: draft nodes", changed: "vermillion: an id the bug changes" };

  function mount(root, ctx) {
    var P = ctx.plot, data = ctx.data;
    var box = P.el("div", { class: "px-controls" }, root);
    var pick = P.choice(box, "Scenario", data.scenarios.map(function (s) { return [s.key, s.name]; }), data.scenarios[0].key);
    var slider = P.control(box, "Step", { type: "range", min: 1, max: 2, step: 1, value: 1 });
    var prev = P.el("button", { type: "button", text: "← Previous" }, box);
    var next = P.el("button", { type: "button", text: "Next →" }, box);
    var bug = P.control(box, "Show the bug", { type: "checkbox" });
    var stepOut = P.el("p", { class: "px-readout", "aria-live": "polite" }, root);
    var row = P.el("ol", { class: "px-ids-row", "data-key": "ids", "aria-label": "Tokens and their position ids" }, root);
    var key = P.el("p", { class: "px-ids-key" }, root);
    var caption = P.el("p", { class: "px-ids-caption" }, root);
    var out = P.el("div", { class: "px-readout" }, root);

    var draw = ctx.timed(function () {
      var v = view(data, pick.value, +slider.value, bug.checked), s = data.scenarios.filter(function (x) { return x.key === v.key; })[0];
      var f = s.frames[v.step - 1];
      slider.max = v.steps;
      slider.value = v.step;
      stepOut.innerHTML = "";
      stepOut.appendChild(document.createTextNode("Step "));
      P.el("span", { "data-key": "step", "data-value": v.step, text: v.step }, stepOut);
      stepOut.appendChild(document.createTextNode(" of " + v.steps + (bug.checked ? ", with the bug: " + s.bugName : ", set up right")));
      row.innerHTML = "";
      row.setAttribute("data-value", JSON.stringify(v.ids));
      v.ids.forEach(function (id, j) {
        var cell = P.el("li", { class: "px-ids-cell px-ids-" + f.kinds[j] + (v.changed[j] ? " px-ids-changed" : "") }, row);
        P.el("span", { class: "px-ids-label", text: f.labels[j] }, cell);
        P.el("span", { class: "px-ids-id", text: id === null ? "empty" : "id " + id }, cell);
        if (v.changed[j]) P.el("span", { class: "px-ids-right", text: "right: " + f.ids[j] }, cell);
      });
      key.textContent = Object.keys(KINDS).filter(function (k) { return f.kinds.indexOf(k) >= 0; })
        .map(function (k) { return KINDS[k]; }).concat(v.changed.indexOf(true) >= 0 ? [KINDS.changed] : []).join(" · ");
      caption.textContent = v.caption;
      out.innerHTML = "";
      var head = P.el("p", {}, out);
      head.appendChild(document.createTextNode(v.measure + ": "));
      P.el("span", { "data-key": "change", "data-value": v.change,
                     text: v.differs ? v.changeText : "none yet, the bug changes no id here" }, head);
      if (v.differs) {
        head.appendChild(document.createTextNode(v.changes.length > 1 ? " (" + v.changes.map(function (c) {
          return c.label + ": " + c.text; }).join("; ") + ")" : " (" + v.changeBy + ")"));
      }
      P.el("p", { text: "The conformance table's rows for this scenario " + (bug.checked ? "with the bug" : "set up right") +
                  " (one head's attention output over the whole run):" }, out);
      var list = P.el("ul", { class: "px-ids-rows" }, out);
      v.rows.forEach(function (r) {
        var li = P.el("li", { text: r.label + " (" + r.scheme + "): " + r.text }, list);
        if (r.thread) {
          li.appendChild(document.createTextNode(" · "));
          P.el("a", { href: r.thread, text: "thread" }, li);
        }
      });
    });
    function go(step) { slider.value = step; draw(); }
    pick.addEventListener("change", function () { slider.value = 1; draw(); });
    slider.addEventListener("input", draw);
    bug.addEventListener("change", draw);
    prev.addEventListener("click", function () { go(+slider.value - 1); });
    next.addEventListener("click", function () { go(+slider.value + 1); });
    draw();
  }

  PrimerExplorables.define("position_steps", mount, { view: function (key, step, bug) {
    return view(window.PrimerExplorableData.position_steps, key, step, bug);
  } });
})();
