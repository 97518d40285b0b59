"""Small accessibility repairs to the theme's HTML, checked by axe-core in
tests/test_browser.py (a theme update that makes one unnecessary, or breaks
it, shows up there)."""

from __future__ import annotations

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


def on_post_page(output: str, *, page, config) -> str:
    # Material's search overlay is a dialog without a name (axe: aria-dialog-name).
    return output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + ' aria-label="Search the lessons">')
