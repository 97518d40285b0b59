// The page headless Chromium runs to draw a build's new diagrams (site_build/markdown/diagrams.py):
// #jobs holds {config, jobs: [[id, mermaid text], ...]}; each answer ({svg, smallest} or {error})
// goes into #out as JSON, which the build reads from Chromium's --dump-dom.
// KaTeX's fonts are loaded first: mermaid measures each label as it draws it.
// `smallest` is the diagram's smallest text as drawn at its own size (1 px a viewBox unit), in px:
// a label's words or a subscript in its maths, as KaTeX's CSS (on this page as on the site's) sets it.
(async () => {
  const { config, jobs } = JSON.parse(document.getElementById("jobs").textContent);
  await Promise.all([...document.fonts].map(font => font.load().catch(() => null)));
  mermaid.initialize(config);
  const smallestText = svg => {
    let smallest = Infinity;
    const walker = document.createTreeWalker(svg, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      // no text to see: blank or KaTeX's zero-width spaces, a style sheet, the MathML copy, hidden
      if (!node.textContent.replace(/[\s\u200b-\u200d\ufeff]/g, "") || el.closest("style, title, desc, .katex-mathml") ||
          !el.checkVisibility()) continue;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
    }
    return smallest;
  };
  const out = {};
  for (const [id, text] of jobs) {
    try {
      const { svg } = await mermaid.render(id, text);
      const host = document.body.appendChild(document.createElement("div"));
      host.innerHTML = svg;
      out[id] = { svg, smallest: smallestText(host.querySelector("svg")) };
      host.remove();
    }
    catch (e) { out[id] = { error: String((e && e.message) || e) }; }
  }
  document.getElementById("out").textContent = JSON.stringify(out);
})();
