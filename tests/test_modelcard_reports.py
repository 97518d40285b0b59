"""The decoder moved into its own package (modelcard/) and changed no report: for every
gallery config, `python -m modelcard SLUG` and `--json` print, and the site's HTML renders,
what `python -m lessons.model_card` printed before the move (tests/data/modelcard_reports/,
saved by commit 026937f, before the move). The browser decoder is held to the same
Python reports by tests/test_model_card_browser.py."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lessons.model_card import explain
from lessons.tools.model_types import gallery
from modelcard.cli import main
from modelcard.html import render_html
from modelcard.report import report_sections

ROOT = Path(__file__).resolve().parents[1]
SAVED = ROOT / "tests" / "data" / "modelcard_reports"
GALLERY = gallery()


def _printed(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(args))
    return f"exit {code}\n" + out.getvalue()


def test_every_gallery_config_has_its_saved_reports():
    assert GALLERY, "no gallery configs found"
    for slug in GALLERY:
        for ext in ("txt", "json", "html"):
            assert (SAVED / f"{slug}.{ext}").is_file(), f"no saved {ext} report for {slug}"


@pytest.mark.parametrize("slug", sorted(GALLERY))
def test_the_command_prints_what_it_printed_before_the_move(slug):
    assert _printed(slug) == (SAVED / f"{slug}.txt").read_text(encoding="utf-8")
    assert _printed(slug, "--json") == (SAVED / f"{slug}.json").read_text(encoding="utf-8")


def _without_links(html: str) -> str:
    """A report's HTML without what issue 43 (item 6) changed on purpose after the move: the links of
    its table rows (now chosen from the config: tests/test_card_html.py) and the verdict's focus stop
    and its link to a Level 1 *How to choose*."""
    html = re.sub(r'<th scope="row" class="pmc-cell"><a href="[^"]*">(.*?)</a></th>', r'<th scope="row" class="pmc-cell">\1</th>', html)
    html = re.sub(r' <span class="pmc-choose">.*?</span></p>', "</p>", html, count=1)
    return html.replace('<p class="pmc-verdict" tabindex="-1">', '<p class="pmc-verdict">', 1)


@pytest.mark.parametrize("slug", sorted(GALLERY))
def test_the_html_is_what_it_was_before_the_move(slug):
    entry = GALLERY[slug]
    structure = report_sections(explain(entry["config"]), None, entry["repo"])
    html = render_html(structure, lambda target: f"{target}.md") + "\n"
    assert _without_links(html) == _without_links((SAVED / f"{slug}.html").read_text(encoding="utf-8"))
    assert "pmc-choose" in html and "pmc-choose" not in _without_links(html)


@pytest.mark.build
def test_the_old_command_is_an_alias():
    """`python -m lessons.model_card` (old links and notes) runs `python -m modelcard`."""
    def run(module):
        return subprocess.run([sys.executable, "-m", module, "gpt2"], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
    old, new = run("lessons.model_card"), run("modelcard")
    assert new.returncode == 0 and old.returncode == 0
    assert old.stdout == new.stdout and "model_type     gpt2" in new.stdout


@pytest.mark.parametrize("argv", [["--engine", "vllm==0.33.0"], ["--json"], ["--length", "5"], ["--compare", "gpt2"]])
def test_a_flag_without_a_config_is_refused(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and "needs a CONFIG" in capsys.readouterr().err


def test_bad_files_and_names_get_one_line_and_exit_2(tmp_path, capsys):
    utf16 = tmp_path / "config.json"
    utf16.write_bytes('{"model_type": "llama"}'.encode("utf-16"))
    assert main([str(utf16)]) == 2 and "not UTF-8" in capsys.readouterr().err
    assert main(["no-such-model"]) == 2 and "--list" in capsys.readouterr().err
    renamed = tmp_path / "model-q4"  # a GGUF file by its magic bytes, whatever its name
    renamed.write_bytes(b"GGUF" + b"\0" * 20)
    assert main([str(renamed)]) == 2 and "GGUF" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([str(renamed), "--json"])
    assert stop.value.code == 2 and "not a .gguf file" in capsys.readouterr().err
