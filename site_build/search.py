"""Material's search after the build: the index of a dirty rebuild, and the search dialog's name."""

from __future__ import annotations

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
DIALOG_LABEL = "Search the lessons"


def name_search_dialog(output: str) -> str:
    """Material's search overlay is a dialog without a name (axe: aria-dialog-name): give it one."""
    return output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{DIALOG_LABEL}">')


def merge_search_index(search, rebuilt_urls: list[str]) -> None:
    """After a dirty rebuild, the search index keeps every page that was not rebuilt and takes
    the new entries of those that were (Material's own merge assumes one rebuilt page; a save
    may rebuild several). `search` is the search plugin; nothing to do without a previous index."""
    previous = getattr(search, "search_index_prev", None)
    if previous is None:
        return

    def rebuilt(location: str) -> bool:
        return any(location == url or location.startswith(url + "#") for url in rebuilt_urls)

    search.search_index.entries = [e for e in previous.entries if not rebuilt(e["location"])] + \
        search.search_index.entries
    search.search_index_prev = None  # merged here
