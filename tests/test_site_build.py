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

from site_build.build import mkdocs_build as build_project
from tests.projects import make_project

LESSON = r'''r"""
# Lesson {slug}: a title with a colon

Run: `python -m lessons.{slug}`. See `lessons.{other}` and `lessons.{other}.figures`.

**In code:** `shout_{slug}`, and `lessons.{other}.shout_{other}` in the other lesson.

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

## Where `sliding_window` is taught

The window, `sliding_window`, is taught here.
"""


def figures():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1])
    return {{"line": fig}}


_SECRET_CODE_MARKER = "{slug}"


def shout_{slug}(text: str) -> str:
    """Upper-case `text`: a public function, so the API page lists it."""
    return text.upper()
'''


def lesson(slug: str, other: str) -> str:
    return LESSON.format(slug=slug, other=other)


# A lesson that publishes data for its page (the build names no lesson: any may define assets())
ASSETS = '''

def assets():
    return {"assets/alpha-data.json": b'{"rows": 3}'}
'''


def mkdocs_build(project: Path, *, offline_zip: Path | None = None, **env: str) -> subprocess.CompletedProcess:
    """The build every caller runs (site_build.build), of `project` into project/site, with `env` added
    (and, as `make site` builds the site, serving the zip `offline_zip`)."""
    return build_project(project, project / "site", dict(os.environ, **env), offline_zip=offline_zip,
                         capture=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = make_project(
        tmp_path_factory.mktemp("site"),
        {"zeta": lesson("zeta", "alpha"), "alpha": lesson("alpha", "zeta") + ASSETS},
        order=["zeta", "alpha"],
        site=True, notebook=False,
    )
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    return project


def page(project: Path, slug: str) -> str:
    return (project / "site" / "lessons" / slug / "index.html").read_text()


def test_a_lesson_publishes_its_assets_as_site_files(built):
    assert (built / "site" / "assets" / "alpha-data.json").read_bytes() == b'{"rows": 3}'
    api = (built / "site" / "reference" / "api" / "alpha" / "index.html").read_text()
    assert 'id="lessons.alpha.shout_alpha"' in api
    assert 'id="lessons.alpha.assets"' not in api, "assets() is a hook like figures(), not part of the API"


def test_a_page_per_lesson_in_reading_order_in_the_nav(built):
    home = (built / "site" / "index.html").read_text()
    zeta, alpha = home.find('href="lessons/zeta/"'), home.find('href="lessons/alpha/"')
    assert 0 < zeta < alpha, "nav must follow READING_ORDER (zeta before alpha), not the alphabet"
    assert "Lesson zeta</a>" in home or "Lesson zeta\n" in home  # nav title: the part before the colon
    assert "The zeta lesson in one sentence, about" in home, "the home page lists each lesson's one sentence"


def test_without_an_offline_zip_the_home_page_has_no_link_to_one(built):
    """`make serve` and `make build` have no zip (only `make site` builds one): no broken link."""
    home = (built / "site" / "index.html").read_text()
    assert "download/" not in home and "offline-copy" not in home and not (built / "site" / "download").exists()


def test_lesson_links_figures_and_source(built):
    html = page(built, "zeta")
    # a lesson is named by its title (no longer its module name, which the reader need not know)
    assert '<a href="../alpha/"><cite>Lesson alpha: a title with a colon</cite></a>' in html
    assert re.search(r'<a href="\.\./alpha/"><code>lessons\.alpha\.figures</code></a>', html)
    # the figure in the light palette, its dark twin in the dark one (Material hides the other)
    assert 'src="../../figures/zeta.line.svg#only-light"' in html and 'src="../../figures/zeta.line.dark.svg#only-dark"' in html
    assert (built / "site" / "figures" / "zeta.line.svg").exists() and (built / "site" / "figures" / "zeta.line.dark.svg").exists()
    assert "_SECRET_CODE_MARKER" in html, "the page ends with the lesson's code"
    index = (built / "site" / "search" / "search_index.json").read_text()
    assert "_SECRET_CODE_MARKER" not in index and "in one sentence" in index, "the code listing stays out of search"
    assert '<details class="abstract">' in html and '<details class="question">' in html


def test_api_reference_page_per_lesson_linked_from_in_code(built):
    html = page(built, "zeta")
    assert '<a href="../../reference/api/zeta/#lessons.zeta.shout_zeta"><code>shout_zeta</code></a>' in html
    assert '<a href="../../reference/api/alpha/#lessons.alpha.shout_alpha"><code>lessons.alpha.shout_alpha</code></a>' in html
    api = (built / "site" / "reference" / "api" / "zeta" / "index.html").read_text()
    assert 'id="lessons.zeta.shout_zeta"' in api and "Upper-case" in api
    assert "Source code in" in api and "shout_zeta" in api, "the API entry shows its source"


def test_config_keys_page_lists_each_term_with_where_it_is_taught(built):
    html = (built / "site" / "reference" / "config-keys" / "index.html").read_text()
    rows = {m.group(1): m.group(0) for m in re.finditer(r"<tr[^>]*>\s*<td><code>([^<]+)</code>.*?</tr>", html, re.S)}
    assert "the RoPE base" in rows["rope_theta"]
    assert '<tr id="key-rope_theta"' in rows["rope_theta"], "each row opens by its id, key-<term>"
    assert 'href="../../lessons/zeta/"' in rows["rope_theta"] and 'href="../../lessons/alpha/"' in rows["rope_theta"]
    assert "<a " not in rows["rope_type"], "a term these lessons never name links nowhere"
    # a term a section teaches links to that section, by the anchor MkDocs gave its heading
    assert 'href="../../lessons/zeta/#where-sliding_window-is-taught"' in rows["sliding_window"], rows["sliding_window"]
    assert 'id="where-sliding_window-is-taught"' in page(built, "zeta")


def test_math_is_typeset_at_build_time_and_assets_are_local(built):
    html = page(built, "zeta")
    assert html.count('class="arithmatex"') == 2 and html.count('<span class="katex">') == 2
    assert "<annotation encoding=\"application/x-tex\">" in html, "MathML for screen readers"
    assert "\\(" not in re.sub(r"<code.*?</code>|<annotation.*?</annotation>", "", html, flags=re.S)
    assert not re.search(r'(src|href)="https?://(?!127\.0\.0\.1)[^"]*\.(js|css|woff2?)"', html)
    vendor = built / "site" / "assets" / "vendor"
    assert (vendor / "katex" / "katex.min.css").exists() and list((vendor / "katex" / "fonts").glob("*.woff2"))
    assert (vendor / "mermaid" / "mermaid.esm.min.mjs").exists()


def config_error(project: Path, options: dict | None = None, **env: str) -> str:
    """The error (MkDocs prints it as one ERROR line) the build stops with while MkDocs loads the project
    (the `primer` plugin's on_config: reading the lessons, their links, the figure
    build, the offline options), found in this process instead of a `mkdocs build`, with `env`
    added and the config a build with `options` reads (site_build.build's build_config).
    The plugin's changes to the process (sys.path, environment, lessons imported from
    `project`) are undone afterwards."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import PluginError

    from site_build.build import build_config

    saved_env, saved_path, saved_prefix = dict(os.environ), list(sys.path), sys.pycache_prefix
    os.environ.update(NO_MKDOCS_2_WARNING="1", **env)
    # the project's own lessons package, not this repository's, while the plugin runs (it imports lessons)
    real_lessons = {name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] == "lessons"}
    plugin = None
    try:
        with build_config(project, **(options or {})) as config_file:
            config = load_config(str(config_file), site_dir=str(project / "site"))
        plugin = config.plugins["primer"]
        with pytest.raises(PluginError) as caught:
            plugin.on_config(config)
        return str(caught.value)
    finally:
        if plugin is not None:
            plugin.on_shutdown()
        os.environ.clear()
        os.environ.update(saved_env)
        sys.path[:], sys.pycache_prefix = saved_path, saved_prefix
        for name in list(sys.modules):
            if str(getattr(sys.modules[name], "__file__", None) or "").startswith(str(project)):
                del sys.modules[name]
        sys.modules.update(real_lessons)


BROKEN_LESSONS = [  # (how the lesson is broken, the error's pattern); all stop the build before any page
    (lambda t: t.replace("`lessons.alpha`", "`lessons.nosuch`"),
     r"lessons/beta\.py:\d+: `lessons\.nosuch` is not a lesson"),
    (lambda t: t.replace("# Lesson beta", "Lesson beta"),
     r"lessons/beta\.py: the docstring must start with a '# Title' line"),
    (lambda t: t.replace('return {"line": fig}', "return fig"),
     r"lessons/beta\.py: figures\(\) returned Figure; it must return a non-empty dict"),
    (lambda t: t.replace("_SECRET_CODE_MARKER", "import lessons.alpha\n_SECRET_CODE_MARKER"),
     r"lessons/beta\.py: imports lessons\.alpha, which a reader meets later"),
    (lambda t: t.replace("def shout_beta", "def shout_alpha"),
     r"lessons/(alpha|beta)\.py:\d+: `shout_alpha` is already defined in lessons/(alpha|beta)\.py:\d+"),
    (lambda t: t + "\n\ndef assets():\n    raise ValueError('no data')\n",
     r"lessons/beta\.py: assets\(\) failed: ValueError: no data"),
    (lambda t: t + "\n\ndef assets():\n    return {'assets/x.json': 'text'}\n",
     r"lessons/beta\.py: assets\(\)\['assets/x\.json'\] is str, not bytes"),
]


@pytest.mark.parametrize("change, message", BROKEN_LESSONS,
                         ids=["unknown-lesson-link", "no-title", "figures-not-a-dict", "imports-a-later-lesson",
                              "name-defined-twice", "assets-fails", "assets-not-bytes"])
def test_a_broken_lesson_stops_the_build_with_one_line_naming_it(tmp_path, change, message):
    project = make_project(tmp_path, {"beta": change(lesson("beta", "alpha")), "alpha": lesson("alpha", "beta")},
                           order=["beta", "alpha"], site=True, notebook=False)
    error = config_error(project)
    assert re.search(message, error) and "Traceback" not in error, error


def test_a_formula_katex_cannot_typeset_stops_mkdocs_build_with_one_line_naming_the_lesson(tmp_path):
    """End to end, in a `mkdocs build` of its own: the error is raised while a page
    renders, and MkDocs prints it as one line, not a traceback (the errors above
    take the same path out of the plugin)."""
    broken = lesson("beta", "alpha").replace(r"\frac{1}{\sqrt{d}}", r"\frac{1}{\sqrt{d}")
    project = make_project(tmp_path, {"beta": broken, "alpha": lesson("alpha", "beta")}, order=["beta", "alpha"], site=True, notebook=False)
    result = mkdocs_build(project)
    assert result.returncode != 0
    assert re.search(r"lessons/beta\.py: KaTeX cannot typeset '\\\\frac\{1\}\{\\\\sqrt\{d\}'",
                     result.stderr + result.stdout), result.stderr
    assert len(our_errors(result)) == 1 and "Traceback" not in result.stderr, "one line, not a traceback:\n" + result.stderr


def test_an_evidence_marker_the_ledger_lacks_stops_the_build_naming_the_lesson(tmp_path):
    """⟨id⟩ after a claim (site_build/markdown/evidence.py) must name an entry of the lesson's EVIDENCE."""
    broken = lesson("beta", "alpha").replace("The beta lesson in one sentence,", "The beta lesson ⟨nosuch⟩,", 1)
    assert "⟨nosuch⟩" in broken
    project = make_project(tmp_path, {"beta": broken, "alpha": lesson("alpha", "beta")}, order=["beta", "alpha"],
                           site=True, notebook=False)
    result = mkdocs_build(project)
    assert result.returncode != 0
    assert re.search(r"lessons/beta\.py: ⟨nosuch⟩ names no entry of the page's EVIDENCE", result.stderr + result.stdout), \
        result.stderr
    assert "Traceback" not in result.stderr


def our_errors(result: subprocess.CompletedProcess) -> list[str]:
    """The build's ERROR lines, without MkDocs' own "Error reading page 'x.md':" lead-in."""
    return [line for line in result.stderr.splitlines()
            if line.startswith("ERROR") and "Error reading page" not in line]


STALL = "#!/bin/sh\nexec sleep 600\n"


@pytest.mark.parametrize("program", ["node", "chromium"])
def test_a_stalled_node_or_chromium_stops_the_build_naming_the_page(tmp_path, program):
    """Node (KaTeX) and Chromium (mermaid) run with a time-out: a process that
    never answers stops the build with one line naming the page, not a hang."""
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True, notebook=False)
    stall = tmp_path / "stall.sh"
    stall.write_text(STALL)
    stall.chmod(0o755)
    env = {"PRIMER_TIMEOUT": "2", "PRIMER_NODE" if program == "node" else "PRIMER_CHROMIUM": str(stall)}
    # only the stalled program runs under the short limit: with Node stalled, the diagrams are left
    # to the browser and no section is measured (a busy machine can take 2 s to start Chromium)
    if program == "chromium":
        env["PRIMER_DIAGRAMS"] = "build"
    else:
        env.update(PRIMER_DIAGRAMS="browser", PRIMER_CV="off")
    result = mkdocs_build(project, **env)
    assert result.returncode != 0
    errors = our_errors(result)
    assert len(errors) == 1 and "within 2 s" in errors[0], result.stderr
    assert re.search(r"lessons/(alpha|beta)\.py", errors[0]), errors[0]


def test_missing_node_modules_says_how_to_install(tmp_path):
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True, notebook=False)
    (project / "node_modules").unlink()
    result = mkdocs_build(project)
    assert result.returncode != 0 and "run `npm ci`" in result.stderr


def test_serve_one_save_one_rebuild_prose_renders_nothing_code_renders_its_lesson(tmp_path):
    """The author's loop under `mkdocs serve --dirty`: a prose-only save renders
    no figure and rebuilds only that lesson's page; a code save renders only
    that lesson's figures and rebuilds its page and API page; each save gives
    exactly one rebuild (nothing the build writes looks like an edit)."""
    import json
    import time
    from urllib.request import urlopen

    from harness.serving import MkdocsServe

    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True)
    with MkdocsServe(project, tmp_path / "serve.log") as serve:  # as `make serve`
        port = serve.port

        def save(edit) -> str:
            """Apply `edit` to beta.py; the log of the rebuilds it caused (waits for quiet)."""
            mark = len(serve.text())
            path = project / "lessons" / "beta.py"
            # One event per save, as an editor that saves atomically makes: a write in
            # place is two (truncate, then write), and on a busy machine the watcher
            # can see them a build apart (a CI run once rebuilt twice that way).
            staged = tmp_path / "beta.py.saving"
            staged.write_text(edit(path.read_text()))
            os.replace(staged, path)
            serve.wait_for(r"Reloading browsers", mark, 90)
            time.sleep(3.0)  # a spurious second rebuild would start within this
            return serve.text()[mark:]

        serve.wait_for(r"Serving on http://127\.0\.0\.1", 0, 90)
        time.sleep(1.0)  # let the watcher settle after the first build
        prose = save(lambda t: t.replace("in one sentence, about", "in one short sentence, about"))
        assert prose.count("Building documentation") == 1, prose
        assert re.search(r"0 built, 2 fresh", prose) and "Converting notebook" not in prose, prose
        # the one-sentence summary is also on the home page, so both are rebuilt
        assert re.search(r"pages: rebuilding 2 of \d+ \(index\.md, lessons/beta\.md\)", prose), prose
        assert "in one short sentence" in urlopen(f"http://127.0.0.1:{port}/lessons/beta/").read().decode()
        index = json.loads(urlopen(f"http://127.0.0.1:{port}/search/search_index.json").read())["docs"]
        locations = [entry["location"] for entry in index]
        assert len(locations) == len(set(locations)) and "lessons/alpha/" in locations, (
            f"the search index keeps the pages not rebuilt, once each: {sorted(locations)}")
        # a longer page reads longer: its time beside the home page's entry changes, so both are rebuilt
        longer = save(lambda t: t.replace("## Where `sliding_window`", "More words. " * 250 + "\n\n## Where `sliding_window`"))
        assert re.search(r"pages: rebuilding 2 of \d+ \(index\.md, lessons/beta\.md\)", longer), longer
        code = save(lambda t: t.replace("ax.plot([0, 1])", "ax.plot([1, 0])"))
        assert code.count("Building documentation") == 1, code
        assert re.search(r"figures: beta\s+built", code) and re.search(r"figures: alpha\s+fresh", code), code
        assert re.search(r"1 built, 1 fresh; 2 SVGs written", code), code  # the figure and its dark twin
        assert re.search(r"pages: rebuilding \d+ of \d+ \(.*lessons/beta\.md.*reference/api/beta\.md", code), code
        assert "lessons/alpha.md" not in code.split("pages: rebuilding")[1].splitlines()[0], code


def test_the_playground_notebook_reruns_only_when_code_it_imports_changes(tmp_path):
    """mkdocs-jupyter caches on the notebook's text; the plugin clears that
    cache when the code (not the prose) of a lesson changes, so outputs never
    go stale and a prose edit does not re-execute the notebook."""
    project = make_project(tmp_path, {"alpha": lesson("alpha", "beta"), "beta": lesson("beta", "alpha")}, site=True)
    first = mkdocs_build(project)
    assert first.returncode == 0, first.stderr
    assert "Cache miss, writing" in first.stderr and "playground.py" in first.stderr
    path = project / "lessons" / "beta.py"
    path.write_text(path.read_text().replace("in one sentence, about", "in one short sentence, about"))
    prose = mkdocs_build(project)
    assert prose.returncode == 0 and "Cache hit" in prose.stderr, "a prose edit (no code changed): the notebook is reused"
    path.write_text(path.read_text() + "\n# an edit\n")
    changed = mkdocs_build(project)
    assert changed.returncode == 0 and "Cache miss, writing" in changed.stderr, "code changed: run it again"


@pytest.mark.parametrize("value", ["off", "on", "auto"])
def test_primer_cv_reads_as_written_though_yaml_takes_on_and_off_for_booleans(value, monkeypatch):
    from mkdocs.config import load_config

    from tests.conftest import ROOT

    monkeypatch.setenv("PRIMER_CV", value)
    config = load_config(str(ROOT / "mkdocs.yml"))
    assert config.plugins["primer"].config.visibility() == value


def test_a_notebook_figure_is_described_by_its_titles_and_labels_not_nbconverts_default():
    import base64
    import io

    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    from site_build.notebooks.page_html import NBCONVERT_ALT, figure_alt_text

    figure, ax = plt.subplots()
    ax.plot([0, 1], [1, 0], label="a legend entry")
    ax.set(title="Scores & gaps", xlabel="gap", ylabel="score")
    ax.legend()
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # as the notebooks draw (text kept as text)
        figure.savefig(buffer, format="svg")
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode()
    html_ = f'<p>before</p><img alt="{NBCONVERT_ALT}" src="data:image/svg+xml;base64,{data}">'
    described = figure_alt_text(html_)
    assert 'alt="Figure: Scores &amp; gaps; gap; score"' in described, described[:300]
    assert described.endswith(f'base64,{data}">') and described.startswith("<p>before</p>")
    unreadable = f'<img alt="{NBCONVERT_ALT}" src="data:image/svg+xml;base64,bm90IHhtbA==">'  # "not xml"
    assert figure_alt_text(unreadable) == unreadable, "an output it cannot read keeps nbconvert's words"


# A lesson page's body as the plugin renders it: the two levels of the page contract
LEVELS_PAGE = """In one sentence.

## Level 1: the practitioner's guide

What to do.

## Level 2: how it works, from scratch

The mechanism.
"""


def test_a_lessons_levels_are_marked_and_level_1_links_to_level_2():
    import markdown

    from markdown.extensions.toc import TocExtension

    from site_build.markdown.context import PageContext
    from site_build.markdown.levels import SKIP_CLASS, LevelsExtension

    class Lesson:
        page, title, docstring = "lessons/levelled.md", "Levelled", "# Levelled\n\n" + LEVELS_PAGE

    class Project:
        lessons = [Lesson()]

    def render(src_uri: str, text: str) -> str:
        context = PageContext(src_uri, Project(), "lessons/levelled.py")
        # with the permalinks the site's toc adds (mkdocs.yml): the ¶ is not part of a heading's words
        return markdown.markdown(text, extensions=[TocExtension(permalink=True), LevelsExtension(lambda: context)])

    body = LEVELS_PAGE
    html_ = render("lessons/levelled.md", body)
    level2 = re.search(r'<h2 class="primer-level primer-level-2" id="([^"]+)">Level 2: how it works', html_)
    assert re.search(r'<h2 class="primer-level primer-level-1" id="[^"]+">Level 1', html_) and level2, html_
    skip = re.search(rf'<h2 class="primer-level primer-level-1".*?</h2>\s*<p class="{SKIP_CLASS}"><a href="#([^"]+)">'
                     r"Skip to Level 2: how it works, from scratch ↓</a></p>", html_)
    assert skip and skip.group(1) == level2.group(1), "the skip link leads to the Level 2 heading's id"
    assert "primer-level" not in render("papers/x.md", body), "a page that is not a lesson is left as it is"
    assert "primer-level" not in render("lessons/levelled.md", body.split("## Level 2")[0]), "no Level 2: no marks"


def test_a_notebook_figure_gets_its_twin_for_the_dark_palette():
    """Each SVG a notebook drew is shown in the light palette only, beside a twin for the dark one
    (the lessons' dark_twin: white background made the page's, the palette's colours swapped)."""
    import base64

    from lessons._palette import BLUE, DARK, DARK_BACKGROUND, INK
    from site_build.notebooks.page_html import figure_dark_twins

    svg = (f'<svg xmlns="http://www.w3.org/2000/svg"><path style="fill: #ffffff"/>'
           f'<path style="stroke: {INK}"/><path style="stroke: {BLUE}"/></svg>').encode()
    data = base64.b64encode(svg).decode()
    html_ = f'<p>before</p><img alt="Figure: x" src="data:image/svg+xml;base64,{data}" class="c">'
    twinned = figure_dark_twins(html_, DARK, DARK_BACKGROUND)
    light, dark = re.findall(r'<img alt="Figure: x" src="data:image/svg\+xml;base64,([^"#]+)(#only-\w+)" class="c">',
                             twinned)
    assert light == (data, "#only-light") and dark[1] == "#only-dark", twinned
    drawn = base64.b64decode(dark[0]).decode()
    assert f"fill: {DARK_BACKGROUND}" in drawn and DARK[INK] in drawn and "#ffffff" not in drawn and BLUE in drawn


# Cross-links as a lesson page's prose writes them (rendered in process: the link stage alone)
CROSS_LINKS = """Builds on `lessons.alpha` (the first), as in `lessons.alpha`. Its function
`lessons.alpha.shout_alpha`, and the companion `papers.smith2020_paper`.

**In code:** `shout_zeta`; `lessons.alpha` holds `shout_alpha`.
"""

PAPER = '''r"""
# Smith: A made-up paper, for the links

Read it with `lessons.alpha`.
"""
'''


def test_a_bare_lesson_or_paper_reference_reads_as_the_pages_title_a_function_stays_code(tmp_path):
    """`lessons.<slug>` and `papers.<slug>` in prose become links whose text is the target's `# Title`
    (a <cite>, not code); a name in a lesson (`lessons.alpha.shout_alpha`) stays code and links to its
    API entry; on an "In code:" line and on an API page, which speak of modules, the module name stays."""
    import markdown

    from project.model import Project
    from site_build.markdown.context import PageContext
    from site_build.markdown.links import LinkExtension

    root = make_project(tmp_path, {"zeta": lesson("zeta", "alpha"), "alpha": lesson("alpha", "zeta")},
                        order=["zeta", "alpha"])
    (root / "papers").mkdir()
    (root / "papers" / "__init__.py").write_text('PAPERS: tuple[str, ...] = ("smith2020_paper",)\n')
    (root / "papers" / "smith2020_paper.py").write_text(PAPER)
    project = Project.read(root)
    context = PageContext("lessons/zeta.md", project, "lessons/zeta.py")
    html_ = markdown.markdown(CROSS_LINKS, extensions=[LinkExtension(lambda: context)])

    title = '<a href="alpha.md"><cite>Lesson alpha: a title with a colon</cite></a>'
    assert f"Builds on {title} (the first), as in {title}. Its function" in html_, html_
    assert ('<a href="../reference/api/alpha.md#lessons.alpha.shout_alpha"><code>lessons.alpha.shout_alpha</code></a>'
            in html_), "a function keeps its name, as code, and links to its API entry"
    paper = '<a href="../papers/smith2020_paper.md"><cite>Smith: A made-up paper, for the links</cite></a>'
    assert f", and the companion {paper}." in html_, html_
    in_code = html_[html_.index("In code:"):]
    assert '<a href="alpha.md"><code>lessons.alpha</code></a> holds' in in_code, "the In code line names the module"
    assert html_.count("<code>lessons.alpha</code>") == 1, "outside the In code line no module name is left"
    api = PageContext("reference/api/zeta.md", project, "lessons/zeta.py")  # an API page's docstrings speak of code
    html_ = markdown.markdown("Read by `lessons.alpha`.", extensions=[LinkExtension(lambda: api)])
    assert '<a href="../../lessons/alpha.md"><code>lessons.alpha</code></a>' in html_, html_


def test_the_nav_is_five_tabs_and_writing_a_lesson_is_in_reference_contributing():
    """The plugin's nav for the real project and mkdocs.yml: Home, Lessons (the practitioner track,
    then the reading order and nothing else), Labs (the worked notebook, the labs, then Challenges), Papers, Reference (ending with
    mkdocs.yml's Contributing, where the authors' page lives)."""
    from types import SimpleNamespace

    from mkdocs.utils.yaml import yaml_load

    from site_build.pages import TRACK_PAGE
    from site_build.plugin import PrimerPlugin
    from tests.conftest import PROJECT, ROOT

    plugin = PrimerPlugin()
    plugin.project, plugin.tool_pages = PROJECT, {}
    config = SimpleNamespace(nav=yaml_load((ROOT / "mkdocs.yml").read_text())["nav"], docs_dir=str(ROOT / "docs"))
    plugin._nav(config)
    titles = [title for entry in config.nav for title in entry]
    assert titles == ["Home", "Lessons", "Labs", "Papers", "Reference"], titles
    tabs = {title: children for entry in config.nav for title, children in entry.items()}
    assert [uri for entry in tabs["Lessons"] for uri in entry.values()] == [TRACK_PAGE] + [lesson.page for lesson in PROJECT.lessons]
    labs = [next(iter(entry)) for entry in tabs["Labs"]]
    assert labs[0] == "Worked notebook" and labs[-1] == "Challenges" and any(t.startswith("Lab TF1") for t in labs), labs
    assert tabs["Reference"][-1] == {"Contributing": [{"Writing a lesson": "authoring.md"},
                                                      {"How the project is built": "contributing.md"}]}, \
        tabs["Reference"][-1]
    assert "authoring.md" not in str({k: v for k, v in tabs.items() if k != "Reference"}), "only Reference holds it"
