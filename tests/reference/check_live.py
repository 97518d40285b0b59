"""Recompute every reference vector with the installed `transformers` now, and
compare the lessons with it. Exits 1 on any mismatch (relative error above 1e-5).

    .venv-ref/bin/python tests/reference/check_live.py

It also says whether the committed tests/data/reference_vectors.json still
agrees with the live library (a note, not a failure: a new transformers release
may legitimately change its float32 rounding).
"""

from __future__ import annotations

import json
import sys

from _reference import (ALIBI_HEADS, CONFIGS, DATA, LAYOUT_POSITIONS, lesson_layouts, lesson_rope, rel_err,
                        transformers_alibi, transformers_layouts, transformers_rope, versions)

RTOL = 1e-5
LAYOUT_ATOL = 1e-5  # rotated values of order 1; transformers builds its angles in float32


def main() -> int:
    from lessons.alibi import alibi_slopes

    v = versions()
    print(f"live check against transformers {v['transformers']}, torch {v['torch']}")
    failures = []
    for cfg in CONFIGS:
        want_freq, want_attn = transformers_rope(cfg)
        got_freq, got_attn = lesson_rope(cfg)
        err = max(rel_err(got_freq, want_freq), rel_err([got_attn], [want_attn]))
        status = "ok  " if err <= RTOL else "FAIL"
        print(f"{status} rope   {cfg['name']}: max relative error {err:.1e}")
        if err > RTOL:
            failures.append(cfg["name"])
    for n in ALIBI_HEADS:
        ref = transformers_alibi(n)
        got = alibi_slopes(n)
        err = max(rel_err(got, ref["bloom"]), rel_err(got, ref["mpt"]))
        if err > RTOL:
            print(f"FAIL alibi  {n} heads: max relative error {err:.1e}")
            failures.append(f"alibi {n} heads")
    print(f"alibi  1..{ALIBI_HEADS[-1]} heads checked against BLOOM's and MPT's slopes")
    import numpy as np

    for record in transformers_layouts():
        got = lesson_layouts(record)
        for key in ("half", "interleaved", "cos", "sin"):
            err = float(np.max(np.abs(np.asarray(got[key]) - np.asarray(record[key]))))
            status = "ok  " if err <= LAYOUT_ATOL else "FAIL"
            print(f"{status} layout {key:<11} positions {record['positions'][0]}..: max abs error {err:.1e}")
            if err > LAYOUT_ATOL:
                failures.append(f"layout {key} at {record['positions'][0]}")

    if DATA.exists():
        stored = json.loads(DATA.read_text(encoding="utf-8"))
        drift = [r["name"] for r in stored["rope"]
                 if rel_err(transformers_rope(r)[0], r["inv_freq"]) > RTOL]
        sv = stored["versions"]
        print(f"note: committed vectors come from transformers {sv['transformers']}, torch {sv['torch']}; "
              + (f"{len(drift)} differ from the live library: {drift}" if drift else "all agree with the live library"))
    total = len(CONFIGS) + len(ALIBI_HEADS) + 4 * len(LAYOUT_POSITIONS)
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
