"""`python -m lessons`: the lessons in reading order, one line each."""

import importlib.util
from pathlib import Path

from lessons import READING_ORDER
from project.model import LessonError, read_lesson


def main() -> int:
    if not READING_ORDER:
        print("no lessons yet: add lessons/<slug>.py and list it in READING_ORDER (lessons/__init__.py)")
        return 0
    width = max(len(f"lessons.{slug}") for slug in READING_ORDER)
    for number, slug in enumerate(READING_ORDER, 1):
        try:  # the title as the project model reads it: from the file, nothing imported
            title = read_lesson(Path(importlib.util.find_spec(f"lessons.{slug}").origin)).title
        except LessonError as exc:  # a broken lesson is named, the list goes on
            title = f"({exc})"
        print(f"{number:2d}. python -m {'lessons.' + slug:<{width}}  {title}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
