"""Notebook pages, one feature: the Playground and the labs, which mkdocs-jupyter executes.

- runs.py: how they run: the kernel's settings and time-out (PRIMER_TIMEOUT), a
  failed run named in one line, and which cached runs to drop when code they import changed;
- page_html.py: what happens to a built notebook page's HTML: its ~600 KB of inline CSS
  moved into one shared stylesheet, its figures described and paired with dark twins, its
  code cells kept out of the search index, its links pointed at files in the offline copy.

`Notebooks` is the feature as the plugin (site_build/plugin.py) runs it: the plugin calls
its hooks, which hold its state (the code each notebook imports, the shared stylesheets).
It is on when mkdocs.yml lists the mkdocs-jupyter plugin. Which pages are notebooks, and
where their sources are, is site_build/content.py's.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from collections.abc import Callable
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from project.model import Project
from site_build.content import is_lab, is_notebook, lab_helpers, notebook_sources
from site_build.downloads import standalone
from site_build.notebooks.page_html import (NOTEBOOK_CSS, code_cells_out_of_search, directory_url, figure_alt_text,
                                            figure_dark_twins, file_layout_links, split_styles)
from site_build.notebooks.runs import (checked, code_stamps, drop_changed_runs, ipython_dir, jupyter_config,
                                       keep_cached_runs)
from site_build.snapshot import Snapshot
from site_build.tools import write_if_changed


def as_ipynb(text: str) -> str:
    """A jupytext percent-format notebook's text as an .ipynb a reader can download (not executed)."""
    import jupytext

    return jupytext.writes(jupytext.reads(text, fmt="py:percent"), fmt="ipynb")


class Notebooks:
    """The feature's hooks and state: one instance per plugin, kept across `mkdocs serve` rebuilds."""

    def __init__(self):
        self.code: dict[str, str] = {}  # notebook page -> hash of the code it imports (this build)
        self.css: dict[str, str] = {}  # shared stylesheet name -> CSS (this build)
        self.downloads: dict[str, str] = {}  # a notebook's .py download (its path in the site) -> its text

    def on_config(self, config: MkDocsConfig, project: Project, timeout: float) -> None:
        """Set the kernel up (nbconvert's time-out per cell, the IPython profile: figures as SVG).
        mkdocs-jupyter caches an executed notebook by the notebook's own text: for each notebook,
        hash the code it imports (`runs.code_stamps`) and drop its cached run when that changed."""
        root = project.root
        # nbconvert reads its settings (the kernel's time-out per cell) from here,
        # and the kernel its own (figures as SVG) from the IPython profile
        os.environ["JUPYTER_CONFIG_PATH"] = str(jupyter_config(root / ".cache" / "jupyter", timeout))
        os.environ["IPYTHONDIR"] = str(ipython_dir(root))
        self.css, self.code = {}, {}
        jupyter = config.plugins.get("mkdocs-jupyter")
        if jupyter is None:
            return
        sources = notebook_sources(root, Path(config.docs_dir))
        helpers = b"".join(p.read_bytes() for p in lab_helpers(root))  # the Playground's figure width too
        self.code = code_stamps(project, sources, lambda uri: helpers)
        drop_changed_runs(jupyter, root, sources, self.code)

    def on_files(self, files: Files, config: MkDocsConfig, project: Project) -> None:
        """A lab is a notebook page and a download: its .py and its .ipynb, beside the page's
        file. Every notebook's .py download (the Playground's too) carries the lesson code it
        imports (`site_build.downloads.standalone`), so it runs without a clone of the project;
        the page itself runs the source as it is."""
        self.downloads = {}
        for uri, path in notebook_sources(project.root, Path(config.docs_dir)).items():
            if is_lab(uri):
                files.append(File(uri, src_dir=str(project.root), dest_dir=config.site_dir,
                                  use_directory_urls=config.use_directory_urls))
            stem = Path(uri).stem
            folder = uri[:-len(".py")] if config.use_directory_urls else posixpath.dirname(uri)
            text = standalone(project, path)
            self.downloads[f"{folder}/{stem}.py"] = text
            if is_lab(uri):
                files.append(File.generated(config, f"{folder}/{stem}.ipynb", content=as_ipynb(text)))

    @staticmethod
    def on_pre_page(page: Page, source_of: Callable[[Page], str]) -> Page:
        """A notebook that fails or stalls stops the build with one line naming its file (`source_of`)."""
        if is_notebook(page.file.src_uri):
            page.render = checked(page.render, source_of(page))
        return page

    def on_page_content(self, html_: str, page: Page, config: MkDocsConfig, files: Files, snapshot: Snapshot) -> str:
        """A notebook page carries nbconvert's ~600 KB of inline CSS; move it into one
        stylesheet that every notebook page shares (and the browser caches). Its figures
        are described by their titles, each with its twin for the dark palette (the built
        project's palette: `snapshot`). Its code cells stay out of the search index, its
        Markdown cells in (`code_cells_out_of_search`). Without directory URLs (the offline
        copy), its links to pages point at their files."""
        if not is_notebook(page.file.src_uri):
            return html_
        html_ = figure_dark_twins(figure_alt_text(html_), snapshot.dark, snapshot.dark_background)
        html_ = code_cells_out_of_search(html_)
        if not config.use_directory_urls:
            pages = {directory_url(f.src_uri): f.dest_uri for f in files.documentation_pages()}
            html_ = file_layout_links(html_, page.file.src_uri, page.file.dest_uri, pages)
        rest, css = split_styles(html_)
        if not css:
            return html_
        name = NOTEBOOK_CSS.format(hashlib.sha256(css.encode()).hexdigest()[:12])
        self.css[name] = css
        href = posixpath.relpath(name, posixpath.dirname(page.file.dest_uri))
        return f'<link rel="stylesheet" href="{href}">\n{rest}'

    def on_post_build(self, config: MkDocsConfig, root: Path, *, dirty: bool) -> None:
        """Write the shared stylesheets and the notebooks' .py downloads; after a dirty rebuild,
        keep the cached runs of the notebooks that were not rebuilt."""
        for name, css in self.css.items():
            write_if_changed(Path(config.site_dir) / name, css.encode())
        for name, text in self.downloads.items():
            write_if_changed(Path(config.site_dir) / name, text.encode())
        jupyter = config.plugins.get("mkdocs-jupyter")
        if dirty and jupyter is not None:
            keep_cached_runs(jupyter, notebook_sources(root, Path(config.docs_dir)))
