"""`python -m lessons`: the lessons in reading order, one line each."""

from lessons import LessonError, discover


def main() -> int:
    try:
        lessons = discover()
    except LessonError as exc:
        print(f"error: {exc}")
        return 1
    if not lessons:
        print("no lessons yet: add lessons/<slug>.py and list it in READING_ORDER (lessons/__init__.py)")
        return 0
    width = max(len(lesson.module) for lesson in lessons)
    for number, lesson in enumerate(lessons, 1):
        print(f"{number:2d}. python -m {lesson.module:<{width}}  {lesson.title}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
