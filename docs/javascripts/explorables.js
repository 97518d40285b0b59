// The explorables' loader (explorables/__init__.py says how an explorable is built), on every page:
// a static file, so a project without the explorables package serves it too. On a page with
// <div class="primer-explorable" data-explorable="NAME">, when the box comes within a screen of the
// view, it loads the manifest (javascripts/explorables/manifest.js, published by explorables.data:
// per explorable, the files to load in order), then those files (the shared core and plot, the
// data, the script: each once per page), and mounts the explorable. A page without a box loads
// nothing more. Runs on load and after each instant navigation (Material's document$), which
// replaces the article.
(function () {
  var base = document.currentScript && document.currentScript.src;
  var root = base ? new URL("../", base).href : "";
  var defined = {}, scripts = {};

  function load(path) {  // a script under the site's root, once: a promise that it has run
    if (!scripts[path]) {
      scripts[path] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = new URL(path, root).href;
        s.onload = resolve;
        s.onerror = function () { reject(new Error("could not load " + path)); };
        document.head.appendChild(s);
      });
    }
    return scripts[path];
  }
  function chain(paths) {  // in order: the data and the script need the core
    return paths.reduce(function (p, path) { return p.then(function () { return load(path); }); }, Promise.resolve());
  }
  function fail(box, message) {
    box.dataset.state = "error";
    box.textContent = message;
  }
  var counter = 0;
  function mount(box) {
    var name = box.dataset.explorable;
    if (box.dataset.state) return;
    box.dataset.state = "loading";
    load("javascripts/explorables/manifest.js").then(function () {
      var files = (window.PrimerExplorablesManifest || {})[name];
      if (!files) throw new Error("no explorable is called " + name);
      return chain(files);
    }).then(function () {
      if (!defined[name]) throw new Error(name + ".js did not define " + name);
      var reduce = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
      var ctx = {
        name: name, core: window.PrimerCore, plot: window.PrimerPlot,
        data: (window.PrimerExplorableData || {})[name] || null,
        reducedMotion: reduce, load: load,
        id: function (suffix) { return "px-" + name + "-" + (++counter) + "-" + suffix; },
        timed: function (fn) {  // each call recorded as the measure explorable:NAME (make bench-pages)
          return function () {
            var start = performance.now(), out = fn.apply(this, arguments);
            performance.measure("explorable:" + name, { start: start, end: performance.now() });
            return out;
          };
        },
      };
      box.textContent = "";
      defined[name](box, ctx);
      box.dataset.state = "ready";
    }).catch(function (err) { fail(box, "This explorable could not start: " + err.message); });
  }
  function scan() {
    var boxes = document.querySelectorAll(".primer-explorable[data-explorable]");
    if (!boxes.length) return;
    if (!("IntersectionObserver" in window)) { boxes.forEach(mount); return; }
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) { seen.unobserve(e.target); mount(e.target); } });
    }, { rootMargin: "100% 0px" });
    boxes.forEach(function (box) { seen.observe(box); });
  }
  window.PrimerExplorables = {
    // mountFn(root, ctx) builds the explorable; `pure` (optional): its DOM-free functions, which
    // the Node parity tests call (tests/node.py)
    define: function (name, mountFn, pure) { defined[name] = mountFn; window.PrimerExplorables.pure[name] = pure || {}; },
    pure: {},
    mountAll: function () {  // for tests and for print: mount every box now
      document.querySelectorAll(".primer-explorable[data-explorable]").forEach(mount);
    },
  };
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(scan);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
