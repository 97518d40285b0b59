"""SmolLM2-135M past its trained length: every stretching method, the broken conversion, shifted positions.

    python -m experiments.real_model.study              # what is missing (resumable), 206 min on 2 cores
    python -m experiments.real_model.study --only none yarn-4 --texts prose
    python -m experiments.real_model.study --list       # the plan, one run per line

The model (`experiments.real_model.gguf_model`) was trained to 8,192 tokens (its GGUF's
`llama.context_length`). Each run reads one window of one text and writes one JSON under
experiments/results/real-model/: the loss of every next token, as means over 256-token blocks,
and where attention goes at a few query positions. A run whose JSON carries the same
configuration hash is kept; `--force` redoes it.

**Texts** (`TEXTS`): Debian packages with a stated licence, read where they install. Prose: the
reStructuredText source of the Python 3.11 documentation's longest page, `library/stdtypes`
(package python3.11-doc). Code: the standard library's longest module, `_pydecimal.py`
(libpython3.11-stdlib). Both are under the Python licence (the packages' copyright files). Both are
long enough for a 32,768-token window from their first token, so every position of the window has
real context behind it (no document boundary inside a window).

**Methods** (`METHODS`): each is a transformers `rope_parameters` block, turned into speeds by the
lessons' `context_extension.rope_inv_freq`; configured for 4× (32,768 tokens, factor 4) and read at
1×, 2× and 4× from the same window (a causal model's loss at position p depends only on tokens
0..p, so the first 8,192 positions of a 32,768-token window are an 8,192-token window).

**Baseline.** The context cut to the trained length (`truncated_nll`: 8,192-token windows every
4,096, each target seeing 4,096 to 8,191 tokens), on the same tokens: what a reader gets without
stretching, and what a method must beat.

**Budget.** A 32,768-token forward pass takes about 4.6 minutes on 2 cores (attention grows with the
square of the length), so the plan reads one window per text: the baseline and 7 methods on both
texts (dynamic NTK in one pass on the prose only: there it is NTK-aware scaling for 4×), 4 ablations
on the prose, dynamic NTK in one pass at 16,384 tokens, the broken conversion at 8,192 tokens, the
shifted-position study on 1,024 tokens, four methods on the baseline's cut windows (`CUT`, to split
what a method costs from what long context buys) and the retrieval probe (`RETRIEVAL`: one prefill
per method and text, `experiments.real_model.retrieval`, and for YaRN and the cut context each question scored
with every other planted number too, `BINDING`): 206 minutes of runs in all (measured, each
run's own seconds; runs that shared the 2 cores with another job took longer). The page's intervals
are block bootstraps over the window (`lessons.real_model`), not across documents.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from project.model import without_docstrings
from experiments.run import provenance as suite_provenance
from experiments.run import write_json
from experiments.real_model.gguf_model import INSTALL_HINT, encode, load_gguf, model_path
from experiments.real_model.retrieval import measure_retrieval
from experiments.real_model.torch_forward import ANGLE_DTYPES, forward, rope_table, round_to_bf16
from lessons.context_extension import rope_inv_freq, yarn_attention_factor
from lessons.positional import ntk_scaled_base

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parents[0] / "results" / "real-model"
TRAINED = 8192           # llama.context_length in the GGUF file
BASE = 100000.0          # llama.rope.freq_base
D_HEAD = 64
BLOCK = 256              # the loss is kept as means over blocks of this many positions
STAT_AT = (511, 2047, 6143, 8191, 12287, 16383, 24575, 32767)  # attention is read at the 4 rows ending here
OFFSETS = (0, 10**4, 10**5, 10**6, 10**7)  # the shifted-position study's constant P
SHIFT_LEN = 1024
# the shifted-position study's pipelines: torch_forward's four angle precisions, then the speeds buffer itself
# rounded to bfloat16 with the angles computed from it in float32 (issue 38, item 7): what `model.to(torch.bfloat16)`
# leaves in transformers' non-persistent `inv_freq` buffer (`shift_table`)
SHIFT_PRECISIONS = (*ANGLE_DTYPES, "bf16-speeds")

# name -> (Debian package, file, licence as the package's copyright file states it)
TEXTS = {
    "prose": ("python3.11-doc", "/usr/share/doc/python3.11/html/_sources/library/stdtypes.rst.txt",
              "Python License (PSF), /usr/share/doc/python3.11-doc/copyright"),
    "code": ("libpython3.11-stdlib", "/usr/lib/python3.11/_pydecimal.py",
             "Python License (PSF), /usr/share/doc/libpython3.11-stdlib/copyright"),
}


def _block(rope_type: str, **fields) -> dict:
    return {"rope_type": rope_type, "rope_theta": BASE, **fields}


# name -> {"rope": the rope_parameters block, "speeds": "shared" | "one pass" | "per position"}
METHODS = {
    "none": {"rope": _block("default"), "speeds": "shared"},
    "linear-4": {"rope": _block("linear", factor=4.0), "speeds": "shared"},
    "ntk-2": {"rope": _block("default", rope_theta=ntk_scaled_base(BASE, 2.0, D_HEAD)), "speeds": "shared"},
    "ntk-4": {"rope": _block("default", rope_theta=ntk_scaled_base(BASE, 4.0, D_HEAD)), "speeds": "shared"},
    "ntk-8": {"rope": _block("default", rope_theta=ntk_scaled_base(BASE, 8.0, D_HEAD)), "speeds": "shared"},
    # transformers' dynamic NTK: the base for the whole window's length, in one pass ...
    "dynamic-1": {"rope": _block("dynamic", factor=1.0), "speeds": "one pass"},
    # ... and decoded token by token with a cache: each key keeps the speeds of the step that wrote it
    "dynamic-1-cached": {"rope": _block("dynamic", factor=1.0), "speeds": "per position"},
    "yarn-4": {"rope": _block("yarn", factor=4.0, original_max_position_embeddings=TRAINED), "speeds": "shared"},
    "yarn-4-no-attention-factor": {"rope": _block("yarn", factor=4.0, original_max_position_embeddings=TRAINED,
                                                  attention_factor=1.0), "speeds": "shared"},
    # NTK-aware for 4× with YaRN's attention factor on top (issue 38, item 6): where attention goes, at YaRN's
    # temperature, without YaRN's ramp
    "ntk-4-attention-factor": {"rope": _block("default", rope_theta=ntk_scaled_base(BASE, 4.0, D_HEAD)),
                               "speeds": "shared", "attention_factor": yarn_attention_factor(4.0)},
    "llama3-4": {"rope": _block("llama3", factor=4.0, low_freq_factor=1.0, high_freq_factor=4.0,
                                original_max_position_embeddings=TRAINED), "speeds": "shared"},
}
CORE = ("none", "yarn-4", "linear-4", "ntk-4", "llama3-4", "dynamic-1-cached", "dynamic-1")  # run in this order
ABLATIONS = ("ntk-2", "ntk-8", "yarn-4-no-attention-factor", "ntk-4-attention-factor")
# the methods also read with the context cut, on the baseline's windows (issue 38, item 1): method(cut) - cut is
# what the method costs on short-range text, method(full) - method(cut) what long context buys under it
CUT = ("yarn-4", "ntk-4", "llama3-4", "linear-4")
# the retrieval probe (issue 38, item 2; experiments.real_model.retrieval): one prefill per method and text, read
# at 1×, 2× and 4×, and the context cut to the trained length ("window")
RETRIEVAL = ("none", "yarn-4", "ntk-4", "llama3-4", "linear-4", "window")
RETRIEVAL_LENGTHS = (TRAINED, 2 * TRAINED, 4 * TRAINED)
# and each question scored with every other planted number too (a review's question: found by its key, or copied?)
BINDING = ("yarn-4", "window")


def plan() -> list[dict]:
    """Every run, cheapest first: {"name", "kind", "text", "length", and "method" or "layout"}."""
    runs = [dict(kind="layout", text=t, length=TRAINED, layout="half") for t in TEXTS]
    runs += [dict(kind="shift", text=t, length=SHIFT_LEN) for t in TEXTS]
    runs += [dict(kind="stretch", text=t, length=2 * TRAINED, method="dynamic-1") for t in TEXTS]
    runs += [dict(kind="truncated", text=t, length=4 * TRAINED) for t in TEXTS]
    # dynamic NTK in one pass over 32,768 tokens is NTK-aware scaling for 4× (stretch 4): the prose run
    # shows it to the last digit (tests/test_real_model_page.py), so the code text is not read twice
    runs += [dict(kind="stretch", text=t, length=4 * TRAINED, method=m) for m in CORE for t in TEXTS
             if (m, t) != ("dynamic-1", "code")]
    runs += [dict(kind="stretch", text="prose", length=4 * TRAINED, method=m) for m in ABLATIONS]
    runs += [dict(kind="truncated", text=t, length=4 * TRAINED, method=m) for m in CUT for t in TEXTS]
    runs += [dict(kind="retrieval", text=t, length=4 * TRAINED, **({} if m == "window" else {"method": m}))
             for t in TEXTS for m in RETRIEVAL]
    runs += [dict(kind="binding", text=t, length=4 * TRAINED, **({} if m == "window" else {"method": m}))
             for t in TEXTS for m in BINDING]
    for run in runs:
        what = run.get("method") or run.get("layout") or ("offsets" if run["kind"] == "shift" else "window")
        run["name"] = f"{run['kind']}__{run['text']}__{run['length']}__{what}"
    return runs


def speeds(method: str, length: int) -> tuple[np.ndarray, float]:
    """(inv_freq, attention_factor) for a window of `length` tokens: inv_freq (pairs,) or, for a
    method decoded with a cache, (length, pairs): position p keeps the speeds at length p + 1."""
    spec = METHODS[method]
    if spec["speeds"] == "per position":
        rows = [rope_inv_freq(D_HEAD, spec["rope"], max_position_embeddings=TRAINED, seq_len=p + 1)[0]
                for p in range(length)]
        return np.array(rows), 1.0
    seq_len = length if spec["speeds"] == "one pass" else None
    inv_freq, factor = rope_inv_freq(D_HEAD, spec["rope"], max_position_embeddings=TRAINED, seq_len=seq_len)
    return np.asarray(inv_freq), float(spec.get("attention_factor", factor))  # a method's own factor wins


def _package_version(package: str) -> str:
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True,
                              timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def read_text(name: str, tokenizer: dict, length: int) -> tuple[list[int], dict]:
    """The first `length` tokens of text `name`, and where they came from. StudyError when the file
    is missing or shorter than `length` tokens."""
    package, path, licence = TEXTS[name]
    file = Path(path)
    if not file.is_file():
        raise StudyError(f"{path}: missing; install the {package} package (apt-get install -y {package})")
    data = file.read_bytes()
    tokens = encode(data.decode("utf-8"), tokenizer)
    if len(tokens) < length:
        raise StudyError(f"{path}: {len(tokens)} tokens, shorter than the {length} asked for")
    source = dict(package=package, version=_package_version(package), path=path, licence=licence,
                  sha256=hashlib.sha256(data).hexdigest(), tokens_in_file=len(tokens))
    return tokens[:length], source


class StudyError(Exception):
    """Bad input to the study: the command line prints its message on one line and exits 2."""


NUMERIC_CODE = ("torch_forward.py", "gguf_model.py")  # the files a measured number depends on
RETRIEVAL_CODE = ("retrieval.py",)  # and, for the retrieval probe, its own


def code_hash(files: tuple[str, ...] = NUMERIC_CODE) -> str:
    """sha256 over `files` (default NUMERIC_CODE) without their docstrings
    (`project.model.without_docstrings`): editing the study's bookkeeping or a docstring does not void
    its results; a code change does."""
    digest = hashlib.sha256()
    for file in files:
        digest.update(without_docstrings((HERE / file).read_text(encoding="utf-8")).encode())
    return digest.hexdigest()


def config_hash(run: dict, text_sha: str) -> str:
    """12 hex digits over the run, its speeds (as computed, so a change in `rope_inv_freq` counts),
    the text's checksum, what is kept (BLOCK, STAT_AT, OFFSETS) and `code_hash`; for the shift runs also
    SHIFT_PRECISIONS, for the retrieval runs their own code and lengths."""
    inv_freq, factor = speeds(run.get("method", "none"), run["length"])
    key = dict(run, speeds=hashlib.sha256(np.ascontiguousarray(inv_freq, np.float64)).hexdigest(), factor=factor,
               text_sha=text_sha, block=BLOCK, stat_at=STAT_AT, offsets=OFFSETS, code=code_hash())
    if run["kind"] in ("retrieval", "binding"):  # their own code and lengths (the other runs' keys are unchanged)
        key.update(code=code_hash(NUMERIC_CODE + RETRIEVAL_CODE), lengths=RETRIEVAL_LENGTHS)
    if run["kind"] == "shift":  # its pipelines, since "bf16-speeds" joined them (the other runs' keys are unchanged)
        key.update(precisions=SHIFT_PRECISIONS)
    text = json.dumps(key, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def shift_table(positions: np.ndarray, inv_freq: np.ndarray, precision: str) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin (seq, pairs) of `positions` in one of SHIFT_PRECISIONS: `rope_table`'s precision, or for
    "bf16-speeds" the speeds rounded to bfloat16 (`round_to_bf16`) and nothing else, the angles then computed
    from them in float32 as transformers 5.24's `LlamaRotaryEmbedding.forward` does from a bfloat16 buffer
    (`self.inv_freq.to(dtype=torch.float)` restores the dtype, not the lost bits)."""
    if precision == "bf16-speeds":
        return rope_table(positions, round_to_bf16(inv_freq), 1.0, "float32")
    return rope_table(positions, inv_freq, 1.0, precision)


def block_means(nll: np.ndarray) -> list[float]:
    """Mean loss over consecutive BLOCK-position blocks of the (seq-1,) next-token losses (the last
    block short), rounded to 5 decimals."""
    return [round(float(nll[i:i + BLOCK].mean()), 5) for i in range(0, len(nll), BLOCK)]


def truncated_nll(score, tokens, window: int) -> np.ndarray:
    """Next-token losses with the context cut to `window` tokens: windows every window/2 tokens, each
    scoring the targets the one before did not, so a target past the first window sees window/2 to
    window - 1 tokens (the usual strided evaluation).

    Args:
        score: callable, (window,) token ids -> (window - 1,) losses of tokens 1.. of that window.
        tokens: (seq,) ids, seq - window a multiple of window/2.

    Returns:
        (seq - 1,) losses of tokens[1:].
    """
    n, stride = len(tokens), window // 2
    if n < window or (n - window) % stride:
        raise ValueError(f"{n} tokens do not tile into windows of {window} every {stride}")
    nll = np.full(n - 1, np.nan)
    for start in range(0, n - window + 1, stride):
        first = 0 if start == 0 else stride - 1  # the window's first new target
        nll[start + first:start + window - 1] = score(tokens[start:start + window])[first:]
    return nll


def measure(run: dict, model, tokens: list[int]) -> dict:
    """The measurement of one run (the JSON's "result")."""
    n = len(tokens)
    if run["kind"] == "stretch":
        inv_freq, factor = speeds(run["method"], n)
        cos, sin = rope_table(np.arange(n), inv_freq, factor)
        rows = [r for p in STAT_AT if p < n for r in range(p - 3, p + 1)]
        out = forward(model.tensors, model.config, tokens, cos, sin, stat_rows=rows)
        at = [p for p in STAT_AT if p < n]
        return dict(blocks=block_means(out["nll"]), attention_factor=factor, stat_at=at,
                    entropy=[[round(float(v), 5) for v in layer.reshape(len(at), 4).mean(1)] for layer in out["entropy"]],
                    sink=[[round(float(v), 6) for v in layer.reshape(len(at), 4).mean(1)] for layer in out["sink"]])
    if run["kind"] == "truncated":  # the baseline's windows, read as trained or with a method's speeds
        inv_freq, factor = speeds(run.get("method", "none"), TRAINED)
        cos, sin = rope_table(np.arange(TRAINED), inv_freq, factor)
        nll = truncated_nll(lambda window: forward(model.tensors, model.config, window, cos, sin)["nll"], tokens,
                            TRAINED)
        return dict(blocks=block_means(nll), window=TRAINED, stride=TRAINED // 2, attention_factor=factor)
    if run["kind"] in ("retrieval", "binding"):  # needles asked for at 1×, 2×, 4×, full context or cut
        inv_freq, factor = speeds(run.get("method", "none"), run["length"])
        return measure_retrieval(model, tokens, lambda s: encode(s, model.tokenizer), inv_freq, factor,
                                 RETRIEVAL_LENGTHS, window=None if "method" in run else TRAINED,
                                 indented=run["text"] == "code", rivals=run["kind"] == "binding")
    if run["kind"] == "layout":  # the GGUF's interleaved rows read by half-split RoPE
        cos, sin = rope_table(np.arange(n), speeds("none", n)[0])
        right = forward(model.tensors, model.config, tokens, cos, sin, layout="interleaved")
        wrong = forward(model.tensors, model.config, tokens, cos, sin, layout=run["layout"])
        return dict(right=block_means(right["nll"]), wrong=block_means(wrong["nll"]))
    # shift: the same window with every position moved by P, angles in each precision
    inv_freq = speeds("none", n)[0]
    reference = None
    rows = []
    for precision in SHIFT_PRECISIONS:
        for offset in OFFSETS:
            cos, sin = shift_table(np.arange(n) + offset, inv_freq, precision)
            out = forward(model.tensors, model.config, tokens, cos, sin, logits=True)
            if reference is None:  # float64 angles at P = 0: the first row
                reference = out
            rows.append(dict(precision=precision, offset=offset, loss=round(float(out["nll"].mean()), 6),
                             max_logit_change=float(np.abs(out["logits"] - reference["logits"]).max()),
                             max_loss_change=float(np.abs(out["nll"] - reference["nll"]).max())))
    return dict(rows=rows)


def provenance() -> dict:
    """The suite's provenance (commit, versions, CPU, BLAS), with this study's code hash and the model file."""
    record = suite_provenance()
    record["code"] = code_hash()
    record["dirty"] = bool(subprocess.run(["git", "status", "--porcelain", "--", *NUMERIC_CODE], cwd=HERE,
                                          capture_output=True, text=True).stdout.strip())
    path = model_path()
    record["model"] = dict(file=path.name, bytes=path.stat().st_size, wheel=INSTALL_HINT.split()[-1])
    return record


def result_path(out: Path, run: dict) -> Path:
    return out / f"{run['name']}.json"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", default=None, help="methods, layouts or 'offsets' (default: all)")
    parser.add_argument("--texts", nargs="+", default=None, help=f"texts (default: all of {', '.join(TEXTS)})")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--force", action="store_true", help="redo runs whose JSON is current")
    parser.add_argument("--model", type=Path, default=None, help="the GGUF file (default: the wheel's)")
    parser.add_argument("--list", action="store_true", help="print the plan and whether each run is done")
    args = parser.parse_args(argv)
    try:
        runs = select(plan(), args.only, args.texts)
        if args.list:
            for run in runs:
                print(f"{'done' if result_path(args.out, run).exists() else 'todo'}  {run['name']}")
            return 0
        model = load_gguf(args.model)
        started = time.perf_counter()
        texts = {}  # each text is read and tokenized once, its length checked before anything runs
        for text in dict.fromkeys(run["text"] for run in runs):
            longest = max(run["length"] for run in runs if run["text"] == text)
            texts[text] = read_text(text, model.tokenizer, longest)
        for run in runs:
            tokens, source = texts[run["text"]]
            tokens = tokens[:run["length"]]
            path = result_path(args.out, run)
            key = config_hash(run, source["sha256"])
            if path.exists() and not args.force and json.loads(path.read_text())["config_hash"] == key:
                print(f"kept  {run['name']}", flush=True)
                continue
            t0 = time.perf_counter()
            result = measure(run, model, tokens)
            seconds = round(time.perf_counter() - t0, 1)
            write_json(path, dict(run, config_hash=key, seconds=seconds, source=source,
                                  spec=METHODS.get(run.get("method")), result=result, provenance=provenance()))
            print(f"wrote {run['name']} in {seconds:.0f} s", flush=True)
        print(f"study: {time.perf_counter() - started:.0f} s", flush=True)
    except (StudyError, FileNotFoundError, ValueError) as error:
        print(f"experiments.real_model.study: {error}", file=sys.stderr)
        return 2
    return 0


def select(runs: list[dict], only, texts) -> list[dict]:
    """The runs of `plan()` whose method/layout/'offsets' is in `only` and text in `texts`
    (None: all); StudyError naming an unknown one."""
    names = set(METHODS) | {"half", "offsets", "window"}
    for value in only or ():
        if value not in names:
            raise StudyError(f"unknown method {value!r}; accepted: {', '.join(sorted(names))}")
    for value in texts or ():
        if value not in TEXTS:
            raise StudyError(f"unknown text {value!r}; accepted: {', '.join(TEXTS)}")
    return [r for r in runs if (only is None or r["name"].split("__")[-1] in only)
            and (texts is None or r["text"] in texts)]


if __name__ == "__main__":
    raise SystemExit(main())
