"""Write tests/data/real_model_reference.json: transformers' logits for SmolLM2-135M on a fixed window.

    .venv-ref/bin/python tests/reference/make_real_model_reference.py

Run once (and again only on purpose: the test compares the lessons' forward pass with this file;
`make reference` recomputes it live and says whether it still agrees). See _real_model.py.
"""

from __future__ import annotations

import json

from _real_model import REAL_DATA, reference_record

if __name__ == "__main__":
    record = reference_record()
    REAL_DATA.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {REAL_DATA} ({len(record['tokens'])} tokens, transformers {record['versions']['transformers']}, "
          f"loaded in {record['seconds']['load_s']} s, forward {record['seconds']['forward_s']} s)")
