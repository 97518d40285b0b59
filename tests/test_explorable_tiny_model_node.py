"""The live tiny model (explorables/tiny_model.py, web/tiny_model.js): the page's JavaScript forward
gives the numpy forward's logits to 1e-6 on the committed prompts (every scheme kept, lengths L to
8L, RoPE read as trained and stretched), in Node; the numpy forward is torch's TinyDecoder (on a
checkpoint, when torch and the suite's checkpoints are here); the committed export is the
checkpoints it names, rounded, with the suite's RoPE speeds, and the rounding keeps the task and,
token by token, the trained model's answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorables import tiny_model as tm
from tests.node import needs_node, run_explorable

MANIFEST = tm.json.loads(tm.MANIFEST.read_text(encoding="utf-8"))
LENGTHS = sorted({p["length"] for p in MANIFEST["prompts"]})
# The faithfulness the page promises, per cell (scheme, reading, length; 32 prompts, 224 scored tokens):
# at least 0.95 of the answers the checkpoint's (at most about one token in twenty flipped, well inside
# the suite's own spread past L, e.g. RoPE at 2L 0.28 [0.16, 0.39]; the 6-bit export had cells at
# 0.80-0.93) and no single p(right) moved by more than 0.2 (a near-tie can swing, but the 6-bit export
# moved one by 0.64, and the 8-bit's worst is 0.16, at 2L where the answers sit near ties).
MIN_AGREEMENT, MAX_DP = 0.95, 0.2


def _cases():
    """(scheme, method, prompt): every committed prompt for every scheme; RoPE also stretched."""
    for scheme in tm.SCHEMES:
        for prompt in MANIFEST["prompts"]:
            for method in (("default", "yarn", "dynamic") if scheme == "rope" else (None,)):
                yield scheme, method, prompt


def _speeds(scheme, method, length):
    """[θ..., factor] of the committed export, or None for a scheme without RoPE."""
    if method is None:
        return None
    theta, factor = tm.reading(tm.model_file(scheme), method, length)
    return [*theta, factor]


@needs_node
def test_the_pages_forward_gives_the_numpy_logits(tmp_path):
    """Tolerance 1e-6 absolute on logits of size ~10: both run in float64, on the same dequantized
    weights (8-bit integers times float16 scales: exact in both); they differ by summation order
    and libm's last bits (exp, cos, sin) and the page's own erf (below), ~1e-13."""
    cases = list(_cases())
    files = {s: tm.model_file(s) for s in tm.SCHEMES}
    calls = [["logits", files[s], p["tokens"], s, _speeds(s, m, p["length"])] for s, m, p in cases]
    got = run_explorable(tmp_path, "tiny_model", calls)
    worst = 0.0
    for (scheme, method, prompt), js in zip(cases, got, strict=True):
        speeds = _speeds(scheme, method, prompt["length"])
        want, _ = tm.forward(tm.weights(scheme), prompt["tokens"], scheme, speeds and speeds[:-1],
                             speeds[-1] if speeds else 1.0)
        gap = float(np.abs(np.array(js) - want).max())
        worst = max(worst, gap)
        assert gap <= 1e-6, f"{scheme} {method} at {prompt['length']} ({prompt['placement']}): {gap:.2e}"
    assert worst > 0 or len(cases) == 0  # both really ran (identical bits everywhere would be a surprise)


@needs_node
def test_the_pages_attention_and_rows_are_the_numpy_ones(tmp_path):
    """The attention a reader sees (each layer's, for the rows asked) and the logits of those rows
    alone equal the whole forward's."""
    prompt = next(p for p in MANIFEST["prompts"] if p["length"] == 2 * MANIFEST["task"]["train_len"])
    T, speeds = prompt["length"], _speeds("rope", "yarn", prompt["length"])
    rows = [T - 2, T - 5]
    [js] = run_explorable(tmp_path, "tiny_model", [["forward", tm.model_file("rope"), prompt["tokens"], "rope", speeds, rows]])
    logits, attention = tm.forward(tm.weights("rope"), prompt["tokens"], "rope", speeds[:-1], speeds[-1])
    assert np.abs(np.array(js["logits"]) - logits[rows]).max() <= 1e-6
    assert np.abs(np.array(js["attention"][0]) - attention[0][:, rows]).max() <= 1e-9
    assert np.abs(np.array(js["attention"][1]) - attention[1][:, rows]).max() <= 1e-9


@needs_node
def test_the_pages_erf_is_erf(tmp_path):
    """GELU needs erf, which JS lacks: the page's is math.erf's to 1e-13 from -8 to 8."""
    xs = [x / 64 for x in range(-512, 513)] + [2.4999999, 2.5, 6.4999, 6.5]
    got = run_explorable(tmp_path, "tiny_model", [["erf", x] for x in xs])
    assert max(abs(g - math.erf(x)) for g, x in zip(got, xs, strict=True)) <= 1e-13


def test_the_rounding_keeps_the_task():
    """The export's accuracy (the suite's own evaluation, 256 prompts a cell) is within 0.02 of the
    full-precision checkpoint's in every cell and reading (4-bit rounding fails: YaRN at 8L 0.59
    against 0.65); an aggregate hides flipped answers: the test above counts them."""
    for scheme, m in MANIFEST["models"].items():
        full, rounded = m["accuracy"]["full"], m["accuracy"]["rounded"]
        assert set(full) == set(rounded) and full
        for key in full:
            assert abs(full[key] - rounded[key]) <= 0.02, f"{scheme} {key}: {full[key]} -> {rounded[key]}"


def _readings(scheme):
    return tm.READINGS if scheme == "rope" else (scheme,)


def test_the_recorded_faithfulness_covers_every_cell_and_meets_the_bar():
    """The manifest records the export's faithfulness for every kept scheme, reading and length of
    the committed prompts (the export writes it; the next test recomputes it), within the bar."""
    lengths = sorted(tm.faith_prompts())
    assert lengths == [MANIFEST["task"]["train_len"] * m for m in (1, 2, 4, 8)]
    for scheme in tm.SCHEMES:
        faith = MANIFEST["models"][scheme]["faithfulness"]
        assert set(faith) == {f"{r}@{n}" for r in _readings(scheme) for n in lengths}, scheme
        for key, f in faith.items():
            assert f["agreement"] >= MIN_AGREEMENT and f["max_dp"] <= MAX_DP, (scheme, key, f)


def test_the_export_answers_as_its_checkpoint_token_by_token():
    """With torch and the checkpoints: the committed export (dequantized into the checkpoint's
    model) against the checkpoint itself on the committed prompts, every scheme, reading and length:
    the agreement and max |dp| the manifest records (recomputed), and so within the bar."""
    torch = pytest.importorskip("torch")
    from experiments.run import CHECKPOINTS, STRETCH_EVALS, checkpoint, speeds_for, trained

    prompts = tm.faith_prompts()
    for scheme in tm.SCHEMES:
        m = MANIFEST["models"][scheme]
        if not checkpoint(scheme, m["seed"], False, CHECKPOINTS).exists():
            pytest.skip("the suite's checkpoints are not here (make experiments)")
        full, _ = trained(scheme, m["seed"], False, CHECKPOINTS, force=False)
        rounded, _ = trained(scheme, m["seed"], False, CHECKPOINTS, force=False)
        with torch.no_grad():
            for name, t in tm.model_file(scheme)["tensors"].items():
                rounded.state_dict()[name].copy_(torch.tensor(tm.dequantize(t)))
        for reading in _readings(scheme):
            for length, batch in prompts.items():
                if scheme == "rope":
                    for model in (full, rounded):
                        speeds_for(model, STRETCH_EVALS[reading], length)
                got, want = tm.agreement(full, rounded, batch), m["faithfulness"][f"{reading}@{length}"]
                where = (scheme, reading, length, got)
                assert got["tokens"] == want["tokens"] == 7 * len(batch), where
                assert abs(got["agreement"] - want["agreement"]) <= 1e-12, where
                assert abs(got["max_dp"] - want["max_dp"]) <= 1e-9, where
                assert got["agreement"] >= MIN_AGREEMENT and got["max_dp"] <= MAX_DP, where


def test_the_export_is_the_checkpoint_rounded_and_read_as_the_suite_reads_it():
    """With torch and the checkpoints: each committed weight within half a rounding step of the
    checkpoint's; the RoPE speeds the suite's own speeds_for sets at each length; the checkpoint
    the current configuration's (its hash) and the seed the chosen one."""
    torch = pytest.importorskip("torch")
    from experiments.run import CHECKPOINTS, STRETCH_EVALS, checkpoint, config_hash, speeds_for, trained

    for scheme in tm.SCHEMES:
        m = MANIFEST["models"][scheme]
        if not checkpoint(scheme, m["seed"], False, CHECKPOINTS).exists():
            pytest.skip("the suite's checkpoints are not here (make experiments)")
        assert m["config_hash"] == config_hash(scheme, False) and m["seed"] == tm.chosen_seed(scheme)
        model, _ = trained(scheme, m["seed"], False, CHECKPOINTS, force=False)
        f = tm.model_file(scheme)
        for name, t in f["tensors"].items():
            want = model.state_dict()[name].double().numpy()
            got = tm.dequantize(t)
            if "q" in t:  # half a step, more only where the clip to ±TOP cut the row's largest entry
                step = np.frombuffer(tm.base64.b64decode(t["scale"]), "<f2").astype(float)[:, None]
                bound = step / 2 + np.maximum(0, np.abs(want) - tm.TOP * step)
            else:  # float16: half an ulp, relative 2^-11
                bound = np.abs(want) * 2.0 ** -11 + 2.0 ** -25
            assert np.all(np.abs(got - want) <= bound * (1 + 1e-9)), name
        if scheme == "rope":
            for method, rows in f["speeds"].items():
                for length, row in zip(f["lengths"], rows, strict=True):
                    speeds_for(model, STRETCH_EVALS[method], length)
                    assert row == [*map(float, model.inv_freq), model.attention_factor], (method, length)
    assert torch


def test_the_numpy_forward_is_torchs_tiny_decoder():
    """The numpy forward on a checkpoint's float32 weights gives torch's logits (float32 there: 1e-3
    on logits of size ~10) and the same answer at every place, every scheme, RoPE stretched too."""
    torch = pytest.importorskip("torch")
    from experiments.run import CHECKPOINTS, STRETCH_EVALS, checkpoint, speeds_for, trained

    for scheme in tm.SCHEMES:
        seed = MANIFEST["models"][scheme]["seed"]
        if not checkpoint(scheme, seed, False, CHECKPOINTS).exists():
            pytest.skip("the suite's checkpoints are not here (make experiments)")
        model, _ = trained(scheme, seed, False, CHECKPOINTS, force=False)
        flat = {k: v.double().numpy() for k, v in model.state_dict().items() if k.split(".")[-1] in ("weight", "bias")}
        w = tm._nest(flat, {"n_heads": model.n_heads, "embed_scale": model.embed_scale})
        for prompt in MANIFEST["prompts"]:
            for method in (("default", "yarn") if scheme == "rope" else (None,)):
                speeds, factor = None, 1.0
                if method:
                    speeds_for(model, STRETCH_EVALS[method], prompt["length"])
                    speeds, factor = model.inv_freq.double().numpy(), model.attention_factor
                with torch.no_grad():
                    want = model(torch.tensor([prompt["tokens"]]))[0].double().numpy()
                got, _ = tm.forward(w, prompt["tokens"], scheme, speeds, factor)
                assert np.abs(got - want).max() <= 1e-3, (scheme, method, prompt["length"])
                assert (got.argmax(-1) == want.argmax(-1)).mean() >= 0.99, (scheme, method, prompt["length"])


@needs_node
def test_the_pages_prompts_are_laid_out_as_the_task_lays_them(tmp_path):
    """The page draws its prompts as experiments/tasks.py's copy_batch does: BOS, filler ids
    1..N_FILLER, a passage of distinct content ids, the copy of 8 consecutive passage tokens last;
    "training" with the passage size, its place and the copied stretch's start spread over their
    ranges (400 seeds a length: each mean mid-range), "near" and "far" as the grid's near-8 and far-8."""
    task, b = MANIFEST["task"], MANIFEST["task"]["copy"]
    cases = [(n, placement, seed) for n in LENGTHS for placement in ("training", "near", "far")
             for seed in range(1, (401 if placement == "training" else 4))]
    got = run_explorable(tmp_path, "tiny_model", [["prompt", task, n, pl, s] for n, pl, s in cases])
    spread = {}
    for (n, placement, seed), made in zip(cases, got, strict=True):
        tokens, (first, size) = made["tokens"], made["passage"]
        passage, copy = tokens[first:first + size], tokens[-b:]
        where = (n, placement, seed)
        assert len(tokens) == n and tokens[0] == task["bos"], where
        assert len(set(passage)) == size and all(task["first_content"] <= t < task["vocab_size"] for t in passage), where
        assert all(1 <= t <= task["n_filler"] for t in tokens[1:first] + tokens[first + size:n - b]), where
        start = passage.index(copy[0])
        assert passage[start:start + b] == copy, where
        if placement == "near":
            assert (size, first + size, start) == (b, n - b, 0), where
        elif placement == "far":
            assert (size, first, start) == (b, 1, 0), where
        else:
            spread.setdefault(n, []).append((size, first - 1, start))
    for n, drawn in spread.items():  # uniform: the mean of each in the middle of its range (±10%)
        room, (size, before, start) = n - 1 - b, np.array(drawn, dtype=float).T
        assert abs(size.mean() - (b + room) / 2) <= 0.1 * (room - b), n
        assert size.min() <= b + 0.05 * (room - b) + 1 and size.max() >= room - 0.05 * (room - b) - 1, n
        assert abs(((before + 0.5) / (room - size + 1)).mean() - 0.5) <= 0.1, n  # its place among those free
        assert abs(((start + 0.5) / (size - b + 1)).mean() - 0.5) <= 0.1, n


def _probabilities(row):
    e = np.exp(row - row.max())
    return e / e.sum()


@needs_node
def test_the_pages_seven_answers_head_and_sample_are_numpys(tmp_path):
    """The page's reading of a prompt (its 7 scored answers, their probabilities and the right
    token's, the hits, the head with the most attention on the last answer's place and that
    weight) and its Score button's share (seeds 1..3 here) equal the numpy forward's on the same
    prompts (1e-9 on probabilities: float64 on both sides, ~1e-13 apart)."""
    task, b = MANIFEST["task"], MANIFEST["task"]["copy"]
    settings = [("rope", "default", 64), ("rope", "yarn", 256), ("alibi", None, 128), ("learned", None, 64)]
    calls = []
    for scheme, method, n in settings:
        speeds = _speeds(scheme, method, n)
        calls += [["prompt", task, n, "training", 5], ["sample", tm.model_file(scheme), task, n, scheme, speeds, 3]]
    got = run_explorable(tmp_path, "tiny_model", calls)
    prompts = [got[2 * i]["tokens"] for i in range(len(settings))]
    extra = [["answer", tm.model_file(s), prompts[i], s, _speeds(s, m, n)] for i, (s, m, n) in enumerate(settings)]
    extra += [["prompt", task, n, "training", seed] for _, _, n in settings for seed in (1, 2, 3)]
    more = run_explorable(tmp_path, "tiny_model", extra)
    for i, (scheme, method, n) in enumerate(settings):
        speeds, w = _speeds(scheme, method, n), tm.weights(scheme)

        def read(tokens, speeds=speeds, w=w, scheme=scheme):
            logits, attention = tm.forward(w, tokens, scheme, speeds and speeds[:-1], speeds[-1] if speeds else 1.0)
            return logits[len(tokens) - b:len(tokens) - 1], attention

        tokens, js = prompts[i], more[i]
        rows, attention = read(tokens)
        probs = [_probabilities(r) for r in rows]
        want = tokens[-(b - 1):]
        assert js["answers"] == [int(r.argmax()) for r in rows] and js["expected"] == want
        assert np.allclose(js["p"], [p.max() for p in probs], rtol=0, atol=1e-9)
        assert np.allclose(js["right"], [p[t] for p, t in zip(probs, want, strict=True)], rtol=0, atol=1e-9)
        assert js["hits"] == sum(int(r.argmax()) == t for r, t in zip(rows, want, strict=True))
        key = max(j + 1 for j in range(len(tokens) - 2) if tokens[j] == tokens[-2])
        on_key = np.array([a[:, len(tokens) - 2, key] for a in attention])  # (layers, heads)
        assert js["key"] == key and js["head"] == list(np.unravel_index(on_key.argmax(), on_key.shape))
        assert abs(js["weights"][key] - on_key.max()) <= 1e-9
        sampled = more[len(settings) + 3 * i:len(settings) + 3 * i + 3]
        hits = sum(int((read(p["tokens"])[0].argmax(-1) == p["tokens"][-(b - 1):]).sum()) for p in sampled)
        assert got[2 * i + 1] == {"share": hits / (7 * 3), "hits": hits, "scored": 21}, (scheme, method, n)


def test_the_box_says_what_runs_and_how_faithful_it_is():
    """The box's prose (lessons/measured.py) states the page's copy and its faithfulness with the
    manifest's numbers: the bits, the prompts a length, the least agreement (rounded down), the
    Score button's prompts, and the schemes left out."""
    from explorables import REGISTRY
    from lessons import measured

    prose = " ".join(measured.__doc__.split())
    least = min(f["agreement"] for m in MANIFEST["models"].values() for f in m["faithfulness"].values())
    assert f"an {tm.BITS}-bit copy of each model" in prose
    checked = {int(key.split("@")[1]) for m in MANIFEST["models"].values() for key in m["faithfulness"]}
    multiples = [f"{n // MANIFEST['task']['train_len']}L".removeprefix("1") for n in sorted(checked)]
    said = ", ".join(multiples[:-1]) + " and " + multiples[-1]
    assert f"on {tm.N_FAITH} prompts at each of {said}, in every reading" in prose
    assert checked < set(MANIFEST["lengths"]) and "(the lengths between are not checked)" in prose
    assert f"on at least {math.floor(100 * least)}% of the copied tokens" in prose
    assert f"*Score {tm.SAMPLE} prompts*" in prose and f"var SAMPLE = {tm.SAMPLE};" in tm.SCRIPT.read_text()
    assert f"{REGISTRY['tiny_model'].extra_budget_kb} KB" in prose and len(tm.SCHEMES) == 3  # "three models"
    assert f"{' and '.join(tm.SCHEME_NAMES[s] for s in tm.SKIPPED)} stay out" in prose


@needs_node
def test_an_edited_stretch_keeps_the_tasks_layout(tmp_path):
    """The reader's edit of the copied stretch (experiments/tasks.py: 8 distinct passage ids,
    FIRST_CONTENT..VOCAB_SIZE − 1, none elsewhere in the passage) replaces it in the passage and the
    copy alike and nothing else; a wrong count, an id out of range or repeated, or one already in
    the passage is refused with a message."""
    task, b = MANIFEST["task"], MANIFEST["task"]["copy"]
    lo, hi = task["first_content"], task["vocab_size"] - 1
    cases = [(n, placement) for n in LENGTHS for placement in ("training", "near", "far")]
    made = run_explorable(tmp_path, "tiny_model", [["prompt", task, n, pl, 7] for n, pl in cases])
    calls, wants = [], []
    for m in made:
        tokens, (first, size), at = m["tokens"], m["passage"], m["stretch"]
        assert tokens[at:at + b] == tokens[-b:] and first <= at <= first + size - b
        passage, stretch = tokens[first:first + size], tokens[-b:]
        outside = [t for t in passage if t not in stretch]
        free = [t for t in range(hi, lo - 1, -1) if t not in passage]
        good = stretch[::-1][:b - 1] + [free[0]]
        want = tokens[:at] + good + tokens[at + b:-b] + good
        calls.append(["edit", task, m, ", ".join(map(str, good))])
        wants.append(want)
        bad = [stretch[:-1], [hi + 1] + stretch[1:], [lo - 1] + stretch[1:], [stretch[0]] + stretch[:-1],
               ["x"] + stretch[1:], stretch + [free[0]]]
        if outside:
            bad.append([outside[0]] + stretch[1:])
        calls += [["edit", task, m, " ".join(map(str, ids))] for ids in bad]
        wants += [None] * len(bad)
    got = run_explorable(tmp_path, "tiny_model", calls)
    for call, js, want in zip(calls, got, wants, strict=True):
        if want is None:
            assert "error" in js and "tokens" not in js, call[3]
        else:
            assert js["tokens"] == want and js["passage"] == call[2]["passage"], call[3]
