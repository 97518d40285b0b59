"""The MkDocs side of the pipeline on throw-away projects: a page per lesson in
reading order, lesson links, the source block, math typeset at build time,
assets served from the site, and broken input stopping the build by name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.projects import make_project

LESSON = r'''r"""
# Lesson {slug}: a title with a colon

Run: `python -m lessons.{slug}`. See `lessons.{other}` and `lessons.{other}.figures`.

**In one sentence.** The {slug} lesson in one sentence, about `rope_theta`.

Inline $a^2 + b^2$ and a display:

$$
\frac{{1}}{{\sqrt{{d}}}}
$$

```mermaid
flowchart LR
  A["q"] --> B["k"]
```

![A single rising line drawn for the test](figures/{slug}.line.svg)

```python
2 * 21  # → 42
```

??? question "Is this collapsible?"
    Yes.
"""


def figures():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1])
    return {{"line": fig}}


SECRET_CODE_MARKER = "{slug}"
'''


def lesson(slug: str, other: str) -> str:
    return LESSON.format(slug=slug, other=other)


def mkdocs_build(project: Path) -> subprocess.CompletedProcess:
    mkdocs = Path(sys.executable).with_name("mkdocs")
    return subprocess.run(
        [str(mkdocs), "build", "--strict", "-d", str(project / "site")],
        cwd=project, capture_output=True, text=True, timeout=300,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = make_project(
        tmp_path_factory.mktemp("site"),
        {"zeta": lesson("zeta", "alpha"), "alpha": lesson("alpha", "zeta")},
        order=["zeta", "alpha"],
        site=True,
    )
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    return project


def page(project: Path, slug: str) -> str:
    return (project / "site" / "lessons" / slug / "index.html").read_text()


def test_a_page_per_lesson_in_reading_order_in_the_nav(built):
    home = (built / "site" / "index.html").read_text()
    zeta, alpha = home.find('href="lessons/zeta/"'), home.find('href="lessons/alpha/"')
    assert 0 < zeta < alpha, "nav must follow READING_ORDER (zeta before alpha), not the alphabet"
    assert "Lesson zeta</a>" in home or "Lesson zeta\n" in home  # nav title: the part before the colon
    assert "The zeta lesson in one sentence, about" in home, "the home page lists each lesson's one sentence"


def test_lesson_links_figures_and_source(built):
    html = page(built, "zeta")
    assert re.search(r'<a href="\.\./alpha/"><code>lessons\.alpha</code></a>', html)
    assert re.search(r'<a href="\.\./alpha/"><code>lessons\.alpha\.figures</code></a>', html)
    assert 'src="../../figures/zeta.line.svg"' in html
    assert (built / "site" / "figures" / "zeta.line.svg").exists()
    assert "SECRET_CODE_MARKER" in html, "the page ends with the lesson's code"
    index = (built / "site" / "search" / "search_index.json").read_text()
    assert "SECRET_CODE_MARKER" not in index and "in one sentence" in index, "the code listing stays out of search"
    assert '<details class="abstract">' in html and '<details class="question">' in html


def test_config_keys_page_lists_each_term_with_where_it_is_taught(built):
    html = (built / "site" / "reference" / "config-keys" / "index.html").read_text()
    rows = {m.group(1): m.group(0) for m in re.finditer(r"<tr>\s*<td><code>([^<]+)</code>.*?</tr>", html, re.S)}
    assert "the RoPE base" in rows["rope_theta"]
    assert 'href="../../lessons/zeta/"' in rows["rope_theta"] and 'href="../../lessons/alpha/"' in rows["rope_theta"]
    assert "<a " not in rows["rope_type"], "a term these lessons never name links nowhere"


def test_math_is_typeset_at_build_time_and_assets_are_local(built):
    html = page(built, "zeta")
    assert html.count('class="arithmatex"') == 2 and html.count('<span class="katex">') == 2
    assert "<annotation encoding=\"application/x-tex\">" in html, "MathML for screen readers"
    assert "\\(" not in re.sub(r"<code.*?</code>|<annotation.*?</annotation>", "", html, flags=re.S)
    assert not re.search(r'(src|href)="https?://(?!127\.0\.0\.1)[^"]*\.(js|css|woff2?)"', html)
    vendor = built / "site" / "assets" / "vendor"
    assert (vendor / "katex" / "katex.min.css").exists() and list((vendor / "katex" / "fonts").glob("*.woff2"))
    assert (vendor / "mermaid" / "mermaid.esm.min.mjs").exists()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.replace(r"\frac{1}{\sqrt{d}}", r"\frac{1}{\sqrt{d}"),
         r"lessons/beta\.py: KaTeX cannot typeset '\\\\frac\{1\}\{\\\\sqrt\{d\}'"),
        (lambda t: t.replace("`lessons.alpha`", "`lessons.nosuch`"),
         r"lessons/beta\.py:\d+: `lessons\.nosuch` is not a lesson"),
        (lambda t: t.replace("# Lesson beta", "Lesson beta"),
         r"lessons/beta\.py: the docstring must start with a '# Title' line"),
        (lambda t: t.replace('return {"line": fig}', "return fig"),
         r"lessons/beta\.py: figures\(\) returned Figure; it must return a non-empty dict"),
    ],
    ids=["bad-formula", "unknown-lesson-link", "no-title", "figures-not-a-dict"],
)
def test_a_broken_lesson_stops_mkdocs_build_with_its_name(tmp_path, change, message):
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": change(lesson("beta", "alpha"))}, site=True)
    result = mkdocs_build(project)
    assert result.returncode != 0
    assert re.search(message, result.stderr + result.stdout), result.stderr


def test_missing_node_modules_says_how_to_install(tmp_path):
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True)
    (project / "node_modules").unlink()
    result = mkdocs_build(project)
    assert result.returncode != 0 and "run `npm ci`" in result.stderr


def test_serve_rebuilds_only_the_saved_lessons_figures_and_reloads(tmp_path):
    """The author's loop: `mkdocs serve`, save one lesson, see only it rebuilt."""
    import socket
    import time

    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mkdocs = Path(sys.executable).with_name("mkdocs")
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log_file:
        server = subprocess.Popen(
            [str(mkdocs), "serve", "--strict", "-a", f"127.0.0.1:{port}"],
            cwd=project, stdout=log_file, stderr=subprocess.STDOUT,
            env=dict(os.environ, NO_MKDOCS_2_WARNING="1", PRIMER_DIAGRAMS="browser"),
        )
    try:
        def wait_for(pattern: str, after: int = 0) -> str:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                text = log_path.read_text()[after:]
                if re.search(pattern, text):
                    return text
                time.sleep(0.2)
            raise AssertionError(f"mkdocs serve never logged {pattern!r}:\n{log_path.read_text()}")

        wait_for(r"Serving on http://127\.0\.0\.1")
        mark = len(log_path.read_text())
        time.sleep(1.0)  # let the watcher settle after the first build
        path = project / "lessons" / "beta.py"
        path.write_text(path.read_text().replace("ax.plot([0, 1])", "ax.plot([1, 0])"))
        text = wait_for(r"Reloading browsers", after=mark)
        assert re.search(r"figures: beta\s+built", text) and re.search(r"figures: alpha\s+fresh", text), text
        assert re.search(r"1 built, 1 fresh; 1 SVGs written", text), text
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_playground_notebook_reruns_when_a_lesson_changes(tmp_path):
    """mkdocs-jupyter caches on the notebook's text; hooks/notebooks.py clears
    that cache when any lesson's source changes, so outputs never go stale."""
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True)
    first = mkdocs_build(project)
    assert first.returncode == 0, first.stderr
    assert "Cache miss, writing" in first.stderr and "playground.py" in first.stderr
    again = mkdocs_build(project)
    assert "Cache hit" in again.stderr, "nothing changed: the executed notebook is reused"
    path = project / "lessons" / "beta.py"
    path.write_text(path.read_text() + "\n# an edit\n")
    changed = mkdocs_build(project)
    assert changed.returncode == 0 and "Cache miss, writing" in changed.stderr, "a lesson changed: run it again"
