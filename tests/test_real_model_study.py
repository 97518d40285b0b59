"""The real-model study's pieces (issue 26, items 2-5): the torch forward pass against the numpy one, bf16
emulation, the cos/sin tables of each method and precision, the strided baseline, and bad input.

The model runs on short windows only (a few seconds); `make real-model` runs the long ones."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("gguf")
from experiments.real_model import study  # noqa: E402
from experiments.real_model.gguf_model import INSTALL_HINT, load_gguf, model_path  # noqa: E402
from experiments.real_model.torch_forward import ANGLE_DTYPES, forward, rope_table, round_to_bf16  # noqa: E402
from lessons.context_extension import dynamic_ntk_base, rope_inv_freq, yarn_attention_factor  # noqa: E402
from lessons.rope import rope_frequencies  # noqa: E402


def test_bf16_rounding_matches_torch_on_every_kind_of_value():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(size=4000) * 10.0 ** rng.integers(-8, 8, 4000),
                        [0.0, -0.0, 1.0, 1 + 2**-8, 1 + 3 * 2**-9, 255.0, 257.0, 1e7]]).astype(np.float32)
    want = torch.from_numpy(x).bfloat16().float().numpy()
    np.testing.assert_array_equal(round_to_bf16(x), want)
    # ties go to even; integers are exact only up to 256
    assert round_to_bf16(np.float32([1 + 2**-8, 257.0, 259.0])).tolist() == [1.0, 256.0, 260.0]


def test_rope_tables_in_each_precision():
    inv_freq = rope_frequencies(64, 100000.0)
    pos = np.arange(1000) + 10**6
    exact = rope_table(pos, inv_freq, 1.0, "float64")
    f32 = rope_table(pos, inv_freq, 1.0, "float32")
    table = rope_table(pos, inv_freq, 1.0, "bf16-table")
    angles = rope_table(pos, inv_freq, 1.0, "bf16-angles")
    assert all(a.dtype == np.float32 and a.shape == (1000, 32) for pair in (exact, f32, table, angles) for a in pair)
    err = {name: np.abs(got[0] - exact[0]).max() for name, got in (("f32", f32), ("table", table), ("angles", angles))}
    # at a million, a float32 angle is off by up to half an ulp of 10^6 (0.03 rad); bf16's cos has 8 bits
    assert 1e-3 < err["f32"] < 0.07 and err["table"] < err["f32"] + 2**-8 and err["angles"] > 1.0, err
    # the attention factor multiplies both
    cos, sin = rope_table(np.arange(5), inv_freq, 1.25, "float64")
    np.testing.assert_allclose(cos[1], 1.25 * np.cos(inv_freq), rtol=1e-6)
    with pytest.raises(ValueError, match="precision"):
        rope_table(pos, inv_freq, 1.0, "fp8")


def test_bf16_speeds_rounds_the_speeds_and_nothing_else():
    """Issue 38, item 7: "bf16-speeds" is the float32 table of the speeds rounded to bfloat16, the rounding
    torch's `.to(torch.bfloat16)` does to transformers 5.24's float32 `inv_freq` buffer (its
    `compute_default_rope_parameters` formula); every other precision is `rope_table`'s own. A wrong speed
    is the same at every position, so the table's error grows with the position, not only near 10^6."""
    inv_freq = study.speeds("none", 16)[0]
    buffer = 1.0 / (study.BASE ** (torch.arange(0, study.D_HEAD, 2, dtype=torch.float) / study.D_HEAD))
    np.testing.assert_array_equal(round_to_bf16(inv_freq), buffer.to(torch.bfloat16).float().numpy())
    assert study.SHIFT_PRECISIONS == (*ANGLE_DTYPES, "bf16-speeds")
    pos = np.arange(1024) + 10**6
    for precision in ANGLE_DTYPES:
        np.testing.assert_array_equal(study.shift_table(pos, inv_freq, precision),
                                      rope_table(pos, inv_freq, 1.0, precision))
    got = study.shift_table(pos, inv_freq, "bf16-speeds")
    np.testing.assert_array_equal(got, rope_table(pos, round_to_bf16(inv_freq), 1.0, "float32"))
    assert all(a.dtype == np.float32 for a in got)
    # the speeds are rounded (the fastest, speed 1, is exact), the angles then taken in float32 as usual
    start = study.shift_table(np.arange(1024), inv_freq, "bf16-speeds")
    f32 = rope_table(np.arange(1024), inv_freq, 1.0, "float32")
    np.testing.assert_array_equal(start[0][:, 0], f32[0][:, 0])
    assert (start[0][1:, 1:] != f32[0][1:, 1:]).any(axis=0).all()  # every other pair moves
    err = np.abs(start[0] - f32[0]).max(axis=1)
    assert err[0] == 0 and err[1] < 1e-2 and err[-1] > 0.5  # one position in: one speed error; 1,023: 1,023 of them


def test_the_shift_runs_read_every_precision_at_every_offset():
    """The committed shift runs carry SHIFT_PRECISIONS × OFFSETS in that order, float64 at P = 0 first (the
    reference, no change), and their config hash covers SHIFT_PRECISIONS: a run made before "bf16-speeds"
    joined would be stale."""
    for text in study.TEXTS:
        path = study.RESULTS / f"shift__{text}__{study.SHIFT_LEN}__offsets.json"
        record = json.loads(path.read_text(encoding="utf-8"))
        rows = record["result"]["rows"]
        assert [(r["precision"], r["offset"]) for r in rows] == [
            (p, o) for p in study.SHIFT_PRECISIONS for o in study.OFFSETS]
        assert rows[0]["max_logit_change"] == 0.0
        run = {k: record[k] for k in ("kind", "text", "length", "name")}
        assert study.config_hash(run, record["source"]["sha256"]) == record["config_hash"]
    run = next(r for r in study.plan() if r["kind"] == "shift")
    before = study.config_hash(run, "0" * 64)
    saved = study.SHIFT_PRECISIONS
    try:
        study.SHIFT_PRECISIONS = ANGLE_DTYPES
        assert study.config_hash(run, "0" * 64) != before
        other = next(r for r in study.plan() if r["kind"] == "layout")
        after = study.config_hash(other, "0" * 64)
    finally:
        study.SHIFT_PRECISIONS = saved
    assert study.config_hash(other, "0" * 64) == after  # the other runs' keys do not depend on it


def test_each_method_is_its_rope_parameters_through_rope_inv_freq():
    theta = rope_frequencies(64, 100000.0)
    np.testing.assert_allclose(study.speeds("none", 100)[0], theta)
    np.testing.assert_allclose(study.speeds("linear-4", 100)[0], theta / 4)
    inv, factor = study.speeds("yarn-4", 100)
    assert factor == pytest.approx(yarn_attention_factor(4.0)) and factor == pytest.approx(0.1 * np.log(4) + 1)
    assert inv[0] == pytest.approx(theta[0]) and inv[-1] == pytest.approx(theta[-1] / 4)
    assert study.speeds("yarn-4-no-attention-factor", 100)[1] == 1.0
    # dynamic, one pass: the base for the window's length; with a cache: each position its own length
    one_pass = study.speeds("dynamic-1", 16384)[0]
    np.testing.assert_allclose(one_pass, rope_frequencies(64, dynamic_ntk_base(1e5, 1.0, 16384, 8192, 64)))
    cached = study.speeds("dynamic-1-cached", 16384)[0]
    assert cached.shape == (16384, 32)
    np.testing.assert_array_equal(cached[:8192], np.broadcast_to(theta, (8192, 32)))  # the trained base up to L
    np.testing.assert_allclose(cached[-1], one_pass)  # the last step sees the whole window
    np.testing.assert_allclose(cached[12287], rope_inv_freq(64, study.METHODS["dynamic-1"]["rope"],
                                                            max_position_embeddings=8192, seq_len=12288)[0])


def test_the_truncated_baseline_scores_each_target_once_with_at_least_half_a_window():
    def score(window):  # the "loss" of each target is how many tokens it sees, to read back
        return np.arange(1.0, len(window))

    nll = study.truncated_nll(score, list(range(40)), 16)
    assert nll.shape == (39,) and not np.isnan(nll).any()
    np.testing.assert_array_equal(nll[:15], np.arange(1, 16))  # the first window: all its targets
    assert nll[15:].min() == 8 and nll[15:].max() == 15  # later: window/2 to window - 1 tokens back
    with pytest.raises(ValueError, match="do not tile"):
        study.truncated_nll(score, list(range(41)), 16)


def test_the_plan_names_are_unique_and_cover_items_2_to_4():
    runs = study.plan()
    names = [r["name"] for r in runs]
    assert len(set(names)) == len(names)
    kinds = {r["kind"] for r in runs}
    assert kinds == {"stretch", "layout", "shift", "truncated", "retrieval", "binding"}
    longest = {r["method"] for r in runs if r["kind"] == "stretch" and r["length"] == 32768}
    assert longest == set(study.METHODS)
    assert study.select(runs, ["yarn-4"], ["code"]) == [r for r in runs if r["name"] in (
        "stretch__code__32768__yarn-4", "truncated__code__32768__yarn-4", "retrieval__code__32768__yarn-4",
        "binding__code__32768__yarn-4")]
    # issue 38, item 2: the retrieval probe, every method on both texts, and the cut context
    probe = {r["name"].split("__", 1)[1] for r in runs if r["kind"] == "retrieval"}
    assert probe == {f"{t}__32768__{m}" for t in study.TEXTS for m in study.RETRIEVAL}
    # and the same probe with every question scored against every other planted number, for YaRN and the cut
    rivals = {r["name"].split("__", 1)[1] for r in runs if r["kind"] == "binding"}
    assert rivals == {f"{t}__32768__{m}" for t in study.TEXTS for m in study.BINDING}
    # issue 38, item 1: each method in CUT is read on the baseline's cut windows too, on both texts
    cut = {(r["text"], r["method"]) for r in runs if r["kind"] == "truncated" and "method" in r}
    assert cut == {(t, m) for t in study.TEXTS for m in study.CUT}


# --- with the model ---------------------------------------------------------------------------------
try:
    model_path()
    HAVE_MODEL = True
except FileNotFoundError:
    HAVE_MODEL = False
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason=f"the SmolLM2 GGUF wheel is not installed: {INSTALL_HINT}")


@needs_model
def test_the_torch_pass_gives_the_numpy_pass_logits_in_both_layouts():
    from experiments.real_model.gguf_model import half_split_rows
    from experiments.real_model.llama import llama_logits
    from experiments.real_model.reference import token_nll

    model = load_gguf()
    tokens = np.random.default_rng(3).integers(0, 49152, 48)
    want = llama_logits(model.tensors, model.config, tokens)
    cos, sin = rope_table(np.arange(48), study.speeds("none", 48)[0])
    got = forward(model.tensors, model.config, tokens, cos, sin, logits=True, stat_rows=[0, 47])
    assert np.abs(got["logits"] - want).max() < 3e-4  # measured 9.4e-5 on 128 tokens
    np.testing.assert_allclose(got["nll"], token_nll(want, tokens), atol=3e-4)
    half = forward(half_split_rows(model), model.config, tokens, cos, sin, layout="half", chunk=7)
    np.testing.assert_allclose(half["nll"], got["nll"], atol=3e-4)  # the permutation theorem, chunked head
    # where attention goes: row 0 can only look at itself
    assert got["entropy"].shape == got["sink"].shape == (30, 2)
    np.testing.assert_allclose(got["sink"][:, 0], 1.0, rtol=1e-6)
    np.testing.assert_allclose(got["entropy"][:, 0], 0.0, atol=1e-5)
    assert (got["entropy"][:, 1] > 0).all() and (got["entropy"][:, 1] <= np.log(48) + 1e-6).all()


@needs_model
def test_a_prefill_and_its_extension_give_the_whole_pass_logits():
    """The retrieval probe's cache: keys and values of a prefix, then new tokens read against them, give the
    one-pass logits of the whole window (with YaRN's speeds and factor), and a shorter prefix of the same
    cache gives the one-pass logits of that shorter window."""
    from experiments.real_model.retrieval import extend, prefill

    model = load_gguf()
    tokens = np.random.default_rng(5).integers(0, 49152, 40)
    inv_freq, factor = study.speeds("yarn-4", 40)
    cos, sin = rope_table(np.arange(40), inv_freq, factor)
    whole = forward(model.tensors, model.config, tokens, cos, sin, logits=True)["logits"]
    cache = prefill(model.tensors, model.config, tokens, cos, sin)
    assert len(cache) == 30 and cache[0][0].shape == (3, 40, 64)
    np.testing.assert_allclose(extend(model.tensors, model.config, cache, 30, tokens[30:], cos[30:], sin[30:]),
                               whole[30:], atol=1e-4)
    short = forward(model.tensors, model.config, tokens[:20], cos[:20], sin[:20], logits=True)["logits"]
    np.testing.assert_allclose(extend(model.tensors, model.config, cache, 12, tokens[12:20], cos[12:20],
                                      sin[12:20]), short[12:], atol=1e-4)


@needs_model
def test_needles_sit_after_line_breaks_and_the_questions_end_in_their_digits():
    from experiments.real_model.gguf_model import encode
    from experiments.real_model.retrieval import (
        DIGITS, NEEDLE, NEEDLE_AT, NEEDLE_EVERY, QUERY_ROOM, insert_needles, needle_values, newline_ids,
        question_tokens)

    model = load_gguf()
    text = encode("A line of filler text.\n" * 3000, model.tokenizer)

    def enc(s):
        return encode(s, model.tokenizer)

    tokens, needles = insert_needles(text, 8192, enc, newline_ids(model.tokenizer))
    assert len(tokens) == 8192 and len(needles) == 8192 // NEEDLE_EVERY
    values = needle_values(len(needles))
    assert len(set(values)) == len(values) and all(len(v) == DIGITS for v in values)
    for k, needle in enumerate(needles):
        assert k * NEEDLE_EVERY + NEEDLE_AT <= needle["start"] < k * NEEDLE_EVERY + NEEDLE_AT + 8
        assert tokens[needle["start"] - 1] in newline_ids(model.tokenizer)
        assert tokens[needle["start"]:needle["end"]] == enc(NEEDLE.format(**needle) + "\n")
        ids, first = question_tokens(needle["key"], needle["value"], enc)
        assert len(ids) <= QUERY_ROOM and [model.tokenizer["tokens"][i] for i in ids[first:]] == list(needle["value"])
    # indented code merges each line break with the next line's indentation: the needle goes after it
    code = encode("if x:\n" + "    y = 1\n" * 4000, model.tokenizer)
    assert not any(t in newline_ids(model.tokenizer) for t in code[:40])
    _, needles = insert_needles(code, 8192, enc, newline_ids(model.tokenizer, indented=True))
    assert all(k * NEEDLE_EVERY + NEEDLE_AT <= n["start"] < k * NEEDLE_EVERY + NEEDLE_AT + 16
               for k, n in enumerate(needles))


def test_an_answer_is_scored_by_its_digits_only():
    from experiments.real_model.retrieval import score_answer

    ids = [7, 8, 1, 2]  # two prompt tokens, then the answer 1, 2
    logits = np.zeros((4, 10))
    logits[1, 1] = logits[2, 2] = 5.0  # rows 1 and 2 score ids[2] and ids[3]
    logits[3, 9] = 50.0  # the row after the last id is never read
    got = score_answer(logits, ids, 2)
    lse = np.log(np.exp(5.0) + 9)
    assert got == dict(nll=round(2 * (lse - 5.0), 4), exact=True, digits_right=2)
    logits[2, 3] = 6.0
    assert score_answer(logits, ids, 2)["digits_right"] == 1 and not score_answer(logits, ids, 2)["exact"]


def _main(capsys, *argv):
    code = study.main(list(argv))
    return code, capsys.readouterr().err.strip()


def test_bad_input_is_one_line_and_exit_2_with_nothing_written(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, err = _main(capsys, "--only", "rope-magic", "--out", str(out))
    assert code == 2 and err.count("\n") == 0 and "unknown method 'rope-magic'" in err
    code, err = _main(capsys, "--texts", "poetry", "--out", str(out))
    assert code == 2 and "unknown text 'poetry'" in err
    if HAVE_MODEL:
        cut = tmp_path / "cut.gguf"
        with model_path().open("rb") as whole:
            cut.write_bytes(whole.read(100_000))
        code, err = _main(capsys, "--model", str(cut), "--out", str(out))
        assert code == 2 and "cut.gguf" in err and err.count("\n") == 0
        short = tmp_path / "short.txt"
        short.write_text("def f():\n    return 1\n" * 50)
        monkeypatch.setitem(study.TEXTS, "code", ("libpython3.11-stdlib", str(short), "PSF"))
        code, err = _main(capsys, "--texts", "code", "--only", "none", "--out", str(out))
        assert code == 2 and "short.txt" in err and "shorter than the 32768" in err
        monkeypatch.setitem(study.TEXTS, "code", ("libpython3.11-stdlib", str(tmp_path / "gone.py"), "PSF"))
        code, err = _main(capsys, "--texts", "code", "--only", "none", "--out", str(out))
        assert code == 2 and "gone.py: missing" in err and "apt-get install -y libpython3.11-stdlib" in err
    assert not out.exists()


def test_list_says_what_is_done(tmp_path, capsys):
    (tmp_path / "shift__code__1024__offsets.json").write_text(json.dumps({}))
    assert study.main(["--list", "--texts", "code", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "done  shift__code__1024__offsets" in lines and "todo  stretch__code__32768__none" in lines


def test_every_committed_run_is_current_and_a_docstring_edit_keeps_it_so(tmp_path, monkeypatch):
    """The resume key covers the numeric code without its docstrings (issue 38, item 9): each committed run's
    config_hash is the one the code gives now, a docstring edit keeps it, and a code edit changes it."""
    runs = sorted((study.RESULTS).glob("*.json"))
    assert len(runs) >= 20
    for path in runs:
        record = json.loads(path.read_text(encoding="utf-8"))
        run = {k: v for k, v in record.items() if k not in ("config_hash", "seconds", "source", "spec", "result",
                                                               "provenance")}
        assert study.config_hash(run, record["source"]["sha256"]) == record["config_hash"], path.name
    for file in study.NUMERIC_CODE:
        (tmp_path / file).write_text((study.HERE / file).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(study, "HERE", tmp_path)
    before = study.code_hash()
    forward_py = tmp_path / "torch_forward.py"
    forward_py.write_text(forward_py.read_text().replace('"""cos and sin of each', '"""The cos and sin of each'))
    assert study.code_hash() == before
    forward_py.write_text(forward_py.read_text().replace("float32", "float32 ", 1) + "\nX = 1\n")
    assert study.code_hash() != before
