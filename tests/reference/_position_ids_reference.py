"""Position ids as transformers computes them, for lessons.position_ids.

Runs under the reference venv (.venv-ref: torch + transformers); nothing here is imported by
`make test`. `write()` writes tests/data/position_ids_vectors.json; `live_check()` compares the
lesson's numpy functions with the installed library now. Four of transformers' own functions,
read in transformers 5.24.0:

- GenerationMixin._prepare_position_ids_for_generation (generation/utils.py): ids from a mask
- DataCollatorWithFlattening (data/data_collator.py): packed ids and cu_seq_lens
- prepare_fa_kwargs_from_position_ids (modeling_flash_attention_utils.py): cu_seqlens from ids
- find_packed_sequence_indices (masking_utils.py): document index of each token from ids

and one behaviour of transformers' own `generate`: a left-padded row of a tiny random Llama 4
(Llama4ForCausalLM) against the same prompt alone, with the NoPE layers' temperature on and off
(Llama4TextAttention.forward counts the temperature's positions from the cache's length).

"llama_cpp_shift" is read out of llama.cpp's released source, not run: the expressions of its
context shift (when it triggers, n_keep with a BOS, n_left, n_discard) in llama-completion
(tools/completion/completion.cpp) and llama-server (tools/server/server-context.cpp, pre_decode),
from LLAMA_CPP_SRC, the unpacked llama-cpp-python 0.3.36 sdist (its vendor/llama.cpp):

    LLAMA_CPP_SRC=/tmp/llama_cpp_python-0.3.36 .venv-ref/bin/python -c \
        "import sys; sys.path.insert(0, 'tests/reference'); import _position_ids_reference as r; r.write()"

Without it write() keeps the record already in the file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "position_ids_vectors.json"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# attention masks (batch, seq): left padding of several amounts, no padding, one real token
MASKS = [
    [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]],
    [[0, 0, 0, 0, 1, 1], [0, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1]],
    [[0, 0, 0, 0, 0, 1]],
    [[1, 1, 1, 1]],
]
# packed documents: lengths, and the first id of each document (RoBERTa-like models start at 2)
PACKS = [([3, 2, 4], 0), ([5], 0), ([1, 1, 6, 2], 0), ([4, 3], 2)]
# position ids read back as documents: packed, plain, packed with ids from 2, one long document
ID_ROWS = [[0, 1, 2, 0, 1, 0, 1, 2, 3], [0, 1, 2, 3, 4], [2, 3, 4, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5, 6, 7]]


def versions() -> dict:
    import torch
    import transformers

    return {"transformers": transformers.__version__, "torch": torch.__version__}


def transformers_mask_ids(mask: list) -> list:
    import torch
    from transformers.generation.utils import GenerationMixin

    m = torch.tensor(mask)
    # the method does not touch `self` when a mask is given
    ids = GenerationMixin._prepare_position_ids_for_generation(None, m, {"attention_mask": m})
    return ids.tolist()


def transformers_pack(lengths: list, start: int) -> dict:
    from transformers import DataCollatorWithFlattening

    collator = DataCollatorWithFlattening(return_flash_attn_kwargs=True, position_ids_start=start,
                                          return_tensors="np")
    features = [{"input_ids": list(range(10 + i, 10 + i + n))} for i, n in enumerate(lengths)]
    batch = collator(features)
    return {"position_ids": batch["position_ids"][0].tolist(), "cu_seq_lens": list(batch["cu_seq_lens_q"].tolist())}


def transformers_read_ids(ids: list) -> dict:
    import torch
    from transformers.masking_utils import find_packed_sequence_indices
    from transformers.modeling_flash_attention_utils import prepare_fa_kwargs_from_position_ids

    t = torch.tensor([ids])
    (cu, _), _ = prepare_fa_kwargs_from_position_ids(t)
    docs = find_packed_sequence_indices(t)  # None: one document in every row
    return {"cu_seqlens": cu.tolist(), "documents": None if docs is None else docs[0].tolist()}


# Llama 4 with a short temperature step (floor_scale 4, attn_scale 0.5) so that a padding of 5 crosses it
LLAMA4 = dict(vocab_size=64, hidden_size=32, intermediate_size=64, intermediate_size_mlp=64, num_hidden_layers=2,
              num_attention_heads=2, num_key_value_heads=1, head_dim=16, num_local_experts=1, moe_layers=[],
              no_rope_layers=[1, 0], attention_chunk_size=64, floor_scale=4, attn_scale=0.5, use_qk_norm=False,
              initializer_range=0.5, pad_token_id=0, bos_token_id=1, eos_token_id=2, max_position_embeddings=64)
LLAMA4_PROMPT, LLAMA4_OTHER = [5, 9, 13, 7, 11, 3], list(range(3, 14))  # 6 and 11 tokens: padding 5


def transformers_llama4_padding(tuning: bool) -> float:
    """Largest |logit difference| over 3 greedy steps of `generate`: the 6-token prompt left-padded
    by 5 in a batch with an 11-token one, against the prompt alone (the ids come from the mask)."""
    import torch
    from transformers import Llama4ForCausalLM, Llama4TextConfig

    torch.manual_seed(0)
    config = Llama4TextConfig(**LLAMA4, attn_temperature_tuning=tuning)
    config._attn_implementation = "eager"
    model = Llama4ForCausalLM(config).eval()
    pad = len(LLAMA4_OTHER) - len(LLAMA4_PROMPT)
    batch = torch.tensor([LLAMA4_OTHER, [0] * pad + LLAMA4_PROMPT])
    mask = torch.tensor([[1] * len(LLAMA4_OTHER), [0] * pad + [1] * len(LLAMA4_PROMPT)])
    kw = dict(max_new_tokens=3, do_sample=False, output_logits=True, return_dict_in_generate=True)
    padded = model.generate(batch, attention_mask=mask, **kw).logits
    alone = model.generate(torch.tensor([LLAMA4_PROMPT]), attention_mask=torch.ones(1, len(LLAMA4_PROMPT),
                                                                                   dtype=torch.long), **kw).logits
    return max(float((p[1] - a[0]).abs().max()) for p, a in zip(padded, alone, strict=True))


def llama_cpp_shift(src: Path) -> dict:
    """The C++ expressions of llama.cpp's context shift, as written in the two tools (regular
    expressions over the files; a release that rewrites them makes this fail, not guess)."""
    import re

    root = src / "vendor" / "llama.cpp" / "tools"
    release = next(line.split(": ", 1)[1] for line in (src / "PKG-INFO").read_text(encoding="utf-8").splitlines()
                   if line.startswith("Version: "))

    def find(pattern, text):
        return " ".join(re.search(pattern, text, re.S).group(1).split())

    cli = (root / "completion" / "completion.cpp").read_text(encoding="utf-8")
    shift = cli.split("infinite text generation via context shifting")[1].split("n_past -= n_discard")[0]
    server = (root / "server" / "server-context.cpp").read_text(encoding="utf-8")
    pre = server.split("void pre_decode()")[1].split("slot.truncated = true")[0]
    return {"release": f"llama-cpp-python {release}",
            "completion": {"file": "tools/completion/completion.cpp",
                           "trigger": find(r"if \((.+?)\) \{", shift),
                           "keep": find(r"else \{\s*(params\.n_keep \+= \w+);", cli),
                           "n_left": find(r"const int n_left\s*=\s*(.+?);", shift),
                           "n_discard": find(r"const int n_discard\s*=\s*(.+?);", shift)},
            "server": {"file": "tools/server/server-context.cpp",
                       "trigger": find(r"SLOT_STATE_GENERATING && (.+?)\) \{", pre),
                       "keep": find(r"if \(add_bos_token\) \{\s*(n_keep \+= \d+);", pre),
                       "cap": find(r"n_keep = (std::min\(.+?\));", pre),
                       "n_left": find(r"const int n_left\s*=\s*(.+?);", pre),
                       "n_discard": find(r"int\s+n_discard\s*=\s*(.+?);", pre),
                       "clamp": find(r"n_discard = (std::clamp\(.+?\));", pre)}}


def records() -> dict:
    return {
        "mask_ids": [{"mask": m, "position_ids": transformers_mask_ids(m)} for m in MASKS],
        "packs": [{"lengths": n, "start": s, **transformers_pack(n, s)} for n, s in PACKS],
        "read_ids": [{"position_ids": r, **transformers_read_ids(r)} for r in ID_ROWS],
        "llama4_padding": [{"floor_scale": LLAMA4["floor_scale"], "attn_scale": LLAMA4["attn_scale"],
                            "padding": len(LLAMA4_OTHER) - len(LLAMA4_PROMPT), "temperature": tuning,
                            "largest_logit_gap": transformers_llama4_padding(tuning)} for tuning in (False, True)],
    }


def write() -> None:
    out = {"about": "Position ids from an attention mask (GenerationMixin._prepare_position_ids_for_generation), "
                    "packed ids and cu_seq_lens (DataCollatorWithFlattening), cu_seqlens and document indices read "
                    "back from ids (prepare_fa_kwargs_from_position_ids, find_packed_sequence_indices), and a "
                    "left-padded Llama 4 generate against the prompt alone (temperature off, on), computed by "
                    "the transformers library; and llama_cpp_shift, the C++ expressions of llama.cpp's context "
                    "shift read from llama-cpp-python 0.3.36's llama-completion and llama-server (its release "
                    "named); written by tests/reference/_position_ids_reference.py",
           "versions": versions(), **records()}
    import os

    if os.environ.get("LLAMA_CPP_SRC"):
        out["llama_cpp_shift"] = [llama_cpp_shift(Path(os.environ["LLAMA_CPP_SRC"]))]
    else:  # no llama.cpp source given: keep the record already written
        out["llama_cpp_shift"] = json.loads(DATA.read_text(encoding="utf-8"))["llama_cpp_shift"]
    lines = ["{", f' "about": {json.dumps(out["about"])},', f' "versions": {json.dumps(out["versions"])},']
    keys = ("mask_ids", "packs", "read_ids", "llama4_padding", "llama_cpp_shift")
    for key in keys:
        rows = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in out[key])
        lines.append(f' "{key}": [\n{rows}\n ]' + ("" if key == keys[-1] else ","))
    DATA.write_text("\n".join(lines + ["}"]) + "\n", encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: {len(MASKS)} masks, {len(PACKS)} packs, {len(ID_ROWS)} id rows, "
          f"transformers {out['versions']['transformers']}")


def mismatches(stored: dict) -> list[str]:
    """The lesson's functions against a set of records (stored or live): a list of failure strings."""
    import numpy as np

    from lessons.position_ids import (cu_seqlens_from_position_ids, document_ids_from_position_ids,
                                      packed_position_ids, position_ids_from_mask)

    failures = []
    for r in stored["mask_ids"]:
        if position_ids_from_mask(np.array(r["mask"])).tolist() != r["position_ids"]:
            failures.append(f"position_ids_from_mask {r['mask']}")
    for r in stored["packs"]:
        ids = packed_position_ids(r["lengths"], r["start"])
        if ids.tolist() != r["position_ids"] or cu_seqlens_from_position_ids(ids).tolist() != r["cu_seq_lens"]:
            failures.append(f"packed_position_ids / cu_seqlens {r['lengths']} from {r['start']}")
    for r in stored["read_ids"]:
        docs = document_ids_from_position_ids(r["position_ids"])[0].tolist()
        want = r["documents"] or [0] * len(r["position_ids"])  # None in transformers: all one document
        if cu_seqlens_from_position_ids(r["position_ids"]).tolist() != r["cu_seqlens"] or docs != want:
            failures.append(f"cu_seqlens / document ids of {r['position_ids']}")
    return failures


def llama4_padding_problems(stored: dict) -> list[str]:
    """transformers' padded generate against the prompt alone: float32 rounding with the temperature
    off (below 1e-4), a real change with it on (above 1e-2), which the padding alone causes."""
    gaps = {r["temperature"]: r["largest_logit_gap"] for r in stored["llama4_padding"]}
    problems = [] if gaps[False] < 1e-4 else [f"temperature off: padded row moved by {gaps[False]:.1e}"]
    return problems + ([] if gaps[True] > 1e-2 else [f"temperature on: padded row moved only {gaps[True]:.1e}"])


def live_check() -> list[str]:
    live = records()
    failures = mismatches(live) + llama4_padding_problems(live)
    print(f"{'FAIL' if failures else 'ok  '} posids position ids from masks, packs and ids, Llama 4's padded "
          f"generate, against transformers {versions()['transformers']}" + (f": {failures}" if failures else ""))
    return failures
