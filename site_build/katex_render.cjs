// Render TeX to HTML with the site's KaTeX, at build time: one JSON request per
// line on stdin ({"tex": "...", "display": true}; KaTeX's HTML plus a MathML copy
// for screen readers), one JSON answer per line on stdout
// ({"html": "..."} or {"error": "..."}). Started by site_build/markdown/math.py.
const katex = require(require.resolve("katex", { paths: [process.cwd()] }));
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  let answer;
  try {
    const { tex, display } = JSON.parse(line);
    answer = { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "htmlAndMathml" }) };
  } catch (err) {
    answer = { error: String(err && err.message ? err.message : err) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
