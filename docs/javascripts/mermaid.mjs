// Material's bundle draws every ```mermaid block with `window.mermaid` if it
// exists, and fetches mermaid from unpkg if it does not. A module script runs
// before DOMContentLoaded, when Material first looks, so the site's own copy
// (the ES-module build: only the chunks a diagram needs) is always the one used.
import mermaid from "../assets/vendor/mermaid/mermaid.esm.min.mjs";

window.mermaid = mermaid;
