"""`python -m lessons`: the lessons in reading order, one line each."""

import importlib

from lessons import READING_ORDER


def main() -> int:
    if not READING_ORDER:
        print("no lessons yet: add lessons/<slug>.py and list it in READING_ORDER (lessons/__init__.py)")
        return 0
    width = max(len(f"lessons.{slug}") for slug in READING_ORDER)
    for number, slug in enumerate(READING_ORDER, 1):
        try:
            doc = importlib.import_module(f"lessons.{slug}").__doc__ or ""
        except Exception as exc:  # a broken lesson is named, the list goes on
            title = f"(cannot import lessons/{slug}.py: {type(exc).__name__}: {exc})"
        else:
            title = doc.lstrip("\n").split("\n", 1)[0].removeprefix("# ").strip()
        print(f"{number:2d}. python -m {'lessons.' + slug:<{width}}  {title}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
