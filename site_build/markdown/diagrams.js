// The page headless Chromium runs to draw a build's new diagrams (site_build/markdown/diagrams.py):
// #jobs holds {config, jobs: [[id, mermaid text], ...]}; each answer ({svg} or {error})
// goes into #out as JSON, which the build reads from Chromium's --dump-dom.
// KaTeX's fonts are loaded first: mermaid measures each label as it draws it.
(async () => {
  const { config, jobs } = JSON.parse(document.getElementById("jobs").textContent);
  await Promise.all([...document.fonts].map(font => font.load().catch(() => null)));
  mermaid.initialize(config);
  const out = {};
  for (const [id, text] of jobs) {
    try { out[id] = { svg: (await mermaid.render(id, text)).svg }; }
    catch (e) { out[id] = { error: String((e && e.message) || e) }; }
  }
  document.getElementById("out").textContent = JSON.stringify(out);
})();
