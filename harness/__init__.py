"""What the tests, the benchmarks and the build share to look at a built site: Debian's Chromium
(`harness.browser`: where it is, its flags, launching it through Playwright, the scripts that wait
for a page to render) and one static web server on 127.0.0.1 (`harness.server`).

The lowest layer: it imports no other package of this project, and nothing outside the standard
library at import time (Playwright is the caller's: `launch` takes the running Playwright), so the
site build can use it offline with its own dependencies only."""
