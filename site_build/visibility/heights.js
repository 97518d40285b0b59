// The page headless Chromium runs after the build (site_build/visibility/heights.py):
// load each page once in an iframe, measure its section boxes at every band's width
// (resizing the iframe), and post the results back to the build's server.
// PRIMER = {jobs, drawEveryBox, sectionClass, scrolling} is set by the page before this script.
const tick = win => new Promise(r => win.requestAnimationFrame(() => win.requestAnimationFrame(r)));
async function measure(job) {
  const frame = document.createElement("iframe");
  frame.style.cssText = "height:900px;border:0";
  frame.style.width = job.bands[0][1] + "px";
  const loaded = new Promise(r => frame.addEventListener("load", r, { once: true }));
  frame.src = job.url;
  document.body.append(frame);
  await loaded;
  const doc = frame.contentDocument, win = frame.contentWindow;
  const style = doc.createElement("style");
  style.textContent = PRIMER.drawEveryBox;
  doc.head.append(style);
  doc.querySelectorAll("img[loading=lazy]").forEach(img => { img.loading = "eager"; });  // measure with every figure in
  const results = [];
  for (const [band, width] of job.bands) {
    frame.style.width = width + "px";
    // Measure until two measurements a frame apart agree: a font or a figure that
    // arrives late (on a busy machine) must not leave a stale height behind.
    let heights = null, scroll = null, previous = null;
    for (let attempt = 0; attempt < 20; attempt++) {
      doc.body.getBoundingClientRect();  // lay out, so the fonts the page uses are requested
      await tick(win);
      await doc.fonts.ready;
      await Promise.all([...doc.fonts].filter(f => f.status === "loading").map(f => f.loaded.catch(() => null)));
      await Promise.all([...doc.images].map(img => img.decode().catch(() => null)));
      await tick(win);
      heights = {}; scroll = {};
      for (const body of doc.querySelectorAll("." + PRIMER.sectionClass)) {
        heights[body.dataset.cv] = Math.round(body.getBoundingClientRect().height * 100) / 100;
        const wide = [...body.querySelectorAll(PRIMER.scrolling)].flatMap((el, i) => el.scrollWidth > el.clientWidth ? [i] : []);
        if (wide.length) scroll[body.dataset.cv] = wide;
      }
      const now = JSON.stringify([heights, scroll]);
      if (now === previous) break;
      previous = now;
    }
    results.push({ band, heights, scroll });
  }
  frame.remove();
  return results;
}
(async () => {
  const results = [];
  for (const job of PRIMER.jobs) {
    const limit = new Promise((_, fail) => setTimeout(() => fail(new Error(`no answer within ${job.limit} s`)), job.limit * 1000));
    try { results.push(await Promise.race([measure(job), limit])); }
    catch (e) { results.push({ error: String(e && e.message || e) }); }
  }
  await fetch("/", { method: "POST", body: JSON.stringify({ results }) });
})();
