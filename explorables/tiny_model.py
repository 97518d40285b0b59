"""A live tiny model (lessons/measured.py's explorable): the suite's trained decoders, run in the page.

The models are `experiments.model.TinyDecoder`s trained by `make experiments` (2 layers, 4 heads,
width 64, L = 32 tokens). Their checkpoints live in .cache/experiments/ and are not committed, so
`python -m explorables.tiny_model` (needs torch and the checkpoints) exports one seed of each scheme
in SCHEMES to explorables/tiny_model_weights/ (committed): every matrix rounded to 8-bit integers
with one float16 scale per row, every vector as float16, the RoPE model's speeds for each stretching method and
length, the task's constants, and a manifest naming each checkpoint and its accuracy before and
after the rounding. The build only reads those files.

`forward` is the numpy twin of TinyDecoder's forward (float64; torch's exact erf GELU; the
lessons' layer norm, heads, attention, RoPE rotation and ALiBi bias); run on the dequantized
weights (`weights`), it is the reference the page's JavaScript is held to (1e-6 on the logits,
tests/test_explorable_tiny_model_node.py), which also holds it to torch's TinyDecoder on a
checkpoint, when torch and the checkpoints are there.
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import math
from pathlib import Path

import numpy as np

from lessons.alibi import alibi_bias_at, alibi_slopes
from lessons.attention import causal_mask, merge_heads, scaled_dot_product_attention, split_heads
from lessons.measured import METHOD_NAMES, METHODS, SCHEME_NAMES, eval_lengths, load_results, values
from lessons.positional import sinusoidal_encoding
from lessons.rope import half_split_table, rotate_with_table
from lessons.transformer import layer_norm

FOLDER = Path(__file__).resolve().parent / "tiny_model_weights"
MANIFEST = FOLDER / "manifest.json"
SCHEMES = ("rope", "alibi", "learned")  # the suite's names (lessons.measured.TRAINED): see SKIPPED
SKIPPED = {"nope": "at 8 bits a model is 117-134 KB gzip, so three fit the 400 KB budget; with 2 layers "
                   "NoPE did not learn the task (lessons.measured), so it shows least",
           "sinusoidal": "three fit the 400 KB budget; like the learned table, it adds position to the "
                         "token vectors, and the learned table's failure is the one the lesson explains"}
POSITION = {"learned": "learned", "sinusoidal": "sinusoidal", "rope": "rope", "alibi": "alibi", "nope": "none"}
READINGS = ("default",) + METHODS  # RoPE read as trained, then each stretching method
SAMPLE = 20  # prompts the page's Score button runs (web/tiny_model.js's SAMPLE)
SCRIPT = Path(__file__).resolve().parent / "web" / "tiny_model.js"
GLOBAL = "PrimerTinyModel"  # the weights scripts file each model under window.PrimerTinyModel[scheme]


def weights_path(scheme: str) -> str:
    """The site path of `scheme`'s weights script (loaded when the reader asks)."""
    return f"assets/explorables/tiny_model/{scheme}.js"


# ---------------------------------------------------------------------------
# The forward pass (numpy, float64)
# ---------------------------------------------------------------------------

_erf = np.vectorize(math.erf, otypes=[float])


def gelu_erf(x: np.ndarray) -> np.ndarray:
    """torch.nn.GELU()'s exact form, 0.5 x (1 + erf(x / √2)) (lessons.transformer.gelu is the tanh form)."""
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def forward(w: dict, tokens, scheme: str, speeds=None, attention_factor: float = 1.0) -> tuple[np.ndarray, list]:
    """TinyDecoder's forward in numpy for prompt `tokens` (T,) at positions 0..T−1.

    Args:
        w: the weights (`weights` or `checkpoint_weights`): "embed" (vocab, d), "embed_scale",
            "W_pos" (rows, d) for the learned table, "blocks" (a dict per layer: norm1, norm2 gain
            and bias, W_q, W_k, W_v, W_o (d, d) and their biases b_q.., W_1 (4d, d), c_1, W_2 (d, 4d),
            c_2; weights (d_out, d_in) applied as x @ W.T), "norm_f" gain and bias, "n_heads".
        scheme: one of the suite's names ("rope", "alibi", "learned", "nope", "sinusoidal").
        speeds: RoPE's θ per pair (d_head/2,) (`reading`); attention_factor
            multiplies cos and sin (YaRN's temperature), as TinyDecoder.set_rope_speeds.

    Returns:
        (logits (T, vocab), attention: per layer the weights (n_heads, T, T) after the softmax).
    """
    tokens = np.asarray(tokens, dtype=int)
    T, n_heads = tokens.size, int(w["n_heads"])
    positions = np.arange(T)
    x = w["embed"][tokens] * w["embed_scale"]  # (T, d)
    d = x.shape[1]
    if scheme == "learned":
        x = x + w["W_pos"][:T]
    if scheme == "sinusoidal":
        x = x + sinusoidal_encoding(T, d)
    table = None
    if scheme == "rope":
        if speeds is None:
            raise ValueError("a RoPE model needs its speeds (`reading`, or experiments.model.stretched_speeds)")
        cos, sin = half_split_table(positions[:, None] * np.asarray(speeds, dtype=float))  # (T, d_head) each
        table = cos * attention_factor, sin * attention_factor
    bias = alibi_bias_at(n_heads, positions, positions) if scheme == "alibi" else None
    attention = []
    for b in w["blocks"]:
        h = layer_norm(x, b["norm1_g"], b["norm1_b"])
        q, k, v = (split_heads(h @ b[f"W_{n}"].T + b[f"b_{n}"], n_heads) for n in "qkv")  # (heads, T, d_head)
        if table is not None:
            q, k = rotate_with_table(q, *table), rotate_with_table(k, *table)
        out, weights = scaled_dot_product_attention(q, k, v, mask=causal_mask(T), bias=bias)
        attention.append(weights)
        x = x + merge_heads(out) @ b["W_o"].T + b["b_o"]
        h = layer_norm(x, b["norm2_g"], b["norm2_b"])
        x = x + gelu_erf(h @ b["W_1"].T + b["c_1"]) @ b["W_2"].T + b["c_2"]
    return layer_norm(x, w["norm_f_g"], w["norm_f_b"]) @ w["embed"].T, attention


# ---------------------------------------------------------------------------
# The committed files: weights rounded per row, read back
# ---------------------------------------------------------------------------

def _b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()


BITS = 8  # 6 bits flipped 5-17% of answers past L (issue 44); 8 keep them (the manifest's "faithfulness")
TOP = 2 ** (BITS - 1) - 1  # int8: −127..127


def quantize(a: np.ndarray) -> dict:
    """A matrix (rows, cols) rounded to BITS-bit integers q = round(a / scale), |q| <= TOP, with one
    float16 scale per row (max |row| / TOP), the q as int8 bytes in base64 (their spread is about
    7.7 bits a weight, so base64's 6 bits a character gzip to within 5% of that; hex, decimal, two
    streams of nibbles or one character a weight with escapes all came out 5-25% larger); a vector
    kept as float16. Returns {"shape", "f16"} or {"shape", "q", "scale"}; arrays base64 (little-endian)."""
    if a.ndim == 1:
        return {"shape": list(a.shape), "f16": _b64(a.astype("<f2"))}
    scale = (np.abs(a).max(axis=1) / TOP).astype("<f2")
    scale[scale == 0] = 1
    q = np.clip(np.round(a / scale.astype(float)[:, None]), -TOP, TOP).astype("i1")
    return {"shape": list(a.shape), "q": _b64(q), "scale": _b64(scale)}


def dequantize(t: dict) -> np.ndarray:
    """The float64 array a `quantize` entry stands for: q · its row's scale (exact in float64)."""
    if "f16" in t:
        return np.frombuffer(base64.b64decode(t["f16"]), "<f2").astype(float).reshape(t["shape"])
    q = np.frombuffer(base64.b64decode(t["q"]), "i1").astype(float).reshape(t["shape"])
    return q * np.frombuffer(base64.b64decode(t["scale"]), "<f2").astype(float)[:, None]


_BLOCK = {"norm1.weight": "norm1_g", "norm1.bias": "norm1_b", "norm2.weight": "norm2_g", "norm2.bias": "norm2_b",
          **{f"W_{n}.weight": f"W_{n}" for n in "qkvo"}, **{f"W_{n}.bias": f"b_{n}" for n in "qkvo"},
          "mlp.0.weight": "W_1", "mlp.0.bias": "c_1", "mlp.2.weight": "W_2", "mlp.2.bias": "c_2"}
_TOP = {"embed.weight": "embed", "W_pos.weight": "W_pos", "norm_f.weight": "norm_f_g", "norm_f.bias": "norm_f_b"}


def _nest(flat: dict, extra: dict) -> dict:
    """{torch state name: array} -> `forward`'s weights (blocks as a list of dicts)."""
    out, blocks = dict(extra), {}
    for name, a in flat.items():
        if name in _TOP:
            out[_TOP[name]] = a
        else:
            _, i, rest = name.split(".", 2)
            blocks.setdefault(int(i), {})[_BLOCK[rest]] = a
    out["blocks"] = [blocks[i] for i in sorted(blocks)]
    return out


def model_file(scheme: str) -> dict:
    """The committed export of `scheme` (explorables/tiny_model_weights/<scheme>.json)."""
    return json.loads((FOLDER / f"{scheme}.json").read_text(encoding="utf-8"))


def weights(scheme: str) -> dict:
    """`forward`'s weights for `scheme`, read from the committed export (dequantized, float64)."""
    f = model_file(scheme)
    return _nest({k: dequantize(t) for k, t in f["tensors"].items()},
                 {"n_heads": f["n_heads"], "embed_scale": f["embed_scale"]})


def reading(scheme_file: dict, method: str, length: int) -> tuple[list[float], float]:
    """(θ per pair, attention factor) of RoPE read with `method` ("default" or one of METHODS) at
    `length` (one of the manifest's lengths), from the committed export (the suite's speeds_for)."""
    row = scheme_file["speeds"][method][scheme_file["lengths"].index(length)]
    return row[:-1], row[-1]


def weights_script(scheme: str) -> bytes:
    """`scheme`'s export as a script that files it under window.PrimerTinyModel (file:// refuses fetch)."""
    text = (FOLDER / f"{scheme}.json").read_text(encoding="utf-8")
    return f"(window.{GLOBAL} = window.{GLOBAL} || {{}})[{json.dumps(scheme)}] = {text.strip()};\n".encode()


def extra() -> dict[str, bytes]:
    """{site path: bytes}: each kept model's weights script (Explorable.extra)."""
    return {weights_path(s): weights_script(s) for s in SCHEMES}


def data() -> dict:
    """What the page needs before the reader loads a model: the task's constants, the schemes with
    their names, seeds and gzip sizes, the stretching methods, the lengths (the manifest's), and
    the study's own accuracy for each scheme and reading at its lengths (`study`)."""
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    sizes = {s: len(gzip.compress(weights_script(s), 9, mtime=0)) for s in SCHEMES}
    return {"task": manifest["task"], "lengths": manifest["lengths"], "global": GLOBAL,
            "schemes": [{"name": s, "label": SCHEME_NAMES[s], "seed": manifest["models"][s]["seed"],
                         "path": weights_path(s), "bytes": sizes[s]} for s in SCHEMES],
            "methods": [{"name": m, "label": "as trained" if m == "default" else METHOD_NAMES[m]}
                        for m in READINGS],
            "study": study()}


# ---------------------------------------------------------------------------
# The export (needs torch and the suite's checkpoints): python -m explorables.tiny_model
# ---------------------------------------------------------------------------

PROMPT_SEED = 4400  # the committed prompts' generator seed (issue 44); the suite's are EVAL_SEED's
FAITH_PROMPTS = FOLDER / "prompts.json"  # the faithfulness prompts: the training distribution, N_FAITH a length
N_FAITH = 32


def faith_prompts() -> dict[int, list[list[int]]]:
    """{length: the committed faithfulness prompts (N_FAITH token lists, as experiments.tasks makes them)}."""
    return {int(k): v for k, v in json.loads(FAITH_PROMPTS.read_text(encoding="utf-8"))["prompts"].items()}


def agreement(full, rounded, prompts: list[list[int]]) -> dict:
    """How faithful `rounded` (a TinyDecoder holding the export's weights) is to `full` (the
    checkpoint) on `prompts` (one length), at the task's 7 scored places a prompt (the copy's
    second token on, as experiments.train.evaluate scores): {"agreement": share of scored tokens
    where the two answer the same, "max_dp": the largest |p_full(right) − p_rounded(right)|,
    "tokens": how many were scored}. Each model must already be read as wanted (speeds_for)."""
    import torch

    from experiments.tasks import COPY

    tokens = torch.tensor(prompts)
    right = tokens[:, -(COPY - 1):]  # what the 7 scored places must answer
    with torch.no_grad():
        a, b = (m(tokens)[:, -COPY:-1].double() for m in (full, rounded))  # (n, 7, vocab)
    pa, pb = (x.softmax(-1).gather(-1, right[..., None])[..., 0] for x in (a, b))
    return {"agreement": float((a.argmax(-1) == b.argmax(-1)).double().mean()),
            "max_dp": float((pa - pb).abs().max()), "tokens": int(right.numel())}


def study(results: dict | None = None) -> dict:
    """The suite's own accuracy (the share of the 7 scored tokens right, lessons.measured.values)
    for each kept scheme and RoPE reading at each evaluation length: {reference: {length:
    {"mean": over the seeds, "seed": the exported seed's, "seeds": how many}}}, reference "rope:yarn"
    or "alibi"."""
    results = results or load_results()
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    out = {}
    for scheme in SCHEMES:
        seeds = [r["seed"] for r in results[scheme]]
        at = seeds.index(manifest["models"][scheme]["seed"])
        for method in READINGS if scheme == "rope" else ("default",):
            ref = scheme if method == "default" else f"{scheme}:{method}"
            cells = {n: values(results, ref, n) for n in eval_lengths(results)}
            out[ref] = {n: {"mean": float(v.mean()), "seed": float(v[at]), "seeds": len(v)} for n, v in cells.items()}
    return out


def chosen_seed(scheme: str, results: dict | None = None) -> int:
    """The seed exported for `scheme`: the one whose accuracy at 2L, read as trained, is the median
    of the suite's seeds (a typical model, not the best)."""
    results = results or load_results()
    accuracy = values(results, scheme, 2 * results[scheme][0]["config"]["train_len"])
    seeds = [r["seed"] for r in results[scheme]]
    return seeds[int(np.argsort(accuracy, kind="stable")[len(accuracy) // 2])]


def export() -> dict:
    """Write each scheme's rounded export and the manifest from the suite's checkpoints; the manifest."""
    import torch

    from experiments.run import CHECKPOINTS, STRETCH_EVALS, TRAIN_LEN, checkpoint, config_hash, speeds_for, trained
    from experiments.tasks import BOS, COPY, FIRST_CONTENT, N_FILLER, VOCAB_SIZE, copy_batch
    from experiments.train import evaluate

    results = load_results()
    lengths = list(range(TRAIN_LEN, 8 * TRAIN_LEN + 1, TRAIN_LEN // 4))
    scored = [TRAIN_LEN * m for m in (1, 2, 4, 8)]
    faith_gen = torch.Generator().manual_seed(PROMPT_SEED + 1)
    faith_set = {n: copy_batch(N_FAITH, n, faith_gen)[0].tolist() for n in scored}
    FOLDER.mkdir(exist_ok=True)
    FAITH_PROMPTS.write_text(json.dumps({"seed": PROMPT_SEED + 1, "n": N_FAITH, "prompts": faith_set},
                                        separators=(",", ":")) + "\n", encoding="utf-8")
    models = {}
    for scheme in SCHEMES:
        seed = chosen_seed(scheme, results)
        model, _ = trained(scheme, seed, False, CHECKPOINTS, force=False)
        state = {k: v.detach().double().numpy() for k, v in model.state_dict().items()
                 if k.split(".")[-1] in ("weight", "bias")}
        tensors = {k: quantize(a) for k, a in state.items()}
        out = {"scheme": scheme, "seed": seed, "n_heads": model.n_heads, "embed_scale": model.embed_scale,
               "tensors": tensors}
        if scheme == "alibi":
            out["slopes"] = alibi_slopes(model.n_heads).tolist()  # the page's forward reads them here
        readings = ("default", *METHODS) if scheme == "rope" else (None,)
        if scheme == "rope":
            out["lengths"], out["speeds"] = lengths, {}
            for method in readings:
                rows = []
                for length in lengths:
                    speeds_for(model, STRETCH_EVALS[method], length)
                    rows.append([float(t) for t in model.inv_freq] + [model.attention_factor])
                out["speeds"][method] = rows
        full = {}
        for method in readings:  # the suite's own evaluation, before the rounding
            for length in scored:
                if method:
                    speeds_for(model, STRETCH_EVALS[method], length)
                full[f"{method or scheme}@{length}"] = evaluate(model, length, 256)["accuracy"]
        full_model, faith = copy.deepcopy(model), {}
        with torch.no_grad():
            for k, t in tensors.items():
                model.state_dict()[k].copy_(torch.tensor(dequantize(t)))
        rounded = {}
        for method in readings:  # the suite's evaluation after the rounding, and the answers, token by token
            for length in scored:
                if method:
                    speeds_for(model, STRETCH_EVALS[method], length)
                rounded[f"{method or scheme}@{length}"] = evaluate(model, length, 256)["accuracy"]
                if method:
                    speeds_for(full_model, STRETCH_EVALS[method], length)
                faith[f"{method or scheme}@{length}"] = agreement(full_model, model, faith_set[length])
        (FOLDER / f"{scheme}.json").write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
        models[scheme] = {"seed": seed, "checkpoint": checkpoint(scheme, seed, False, CHECKPOINTS).name,
                          "config_hash": config_hash(scheme, False),
                          "accuracy": {"full": full, "rounded": rounded, "bits": BITS, "prompts": 256},
                          "faithfulness": faith}
    generator = torch.Generator().manual_seed(PROMPT_SEED)
    prompts = []
    for length in scored:
        for placement in (None, "near", "far"):
            tokens, _ = copy_batch(1, length, generator, placement, None if placement is None else COPY)
            prompts.append({"length": length, "placement": placement or "training", "tokens": tokens[0].tolist()})
    manifest = {"models": models, "lengths": lengths, "prompts": prompts, "skipped": SKIPPED,
                "faithfulness": f"each model's 'faithfulness': the export against its checkpoint on "
                                f"{FAITH_PROMPTS.name}'s {N_FAITH} prompts a length (`agreement`)",
                "task": {"train_len": TRAIN_LEN, "copy": COPY, "bos": BOS, "n_filler": N_FILLER,
                         "first_content": FIRST_CONTENT, "vocab_size": VOCAB_SIZE}}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


if __name__ == "__main__":
    for name, m in export()["models"].items():
        print(name, m["seed"], m["checkpoint"])
        for key, full in m["accuracy"]["full"].items():
            f = m["faithfulness"][key]
            print(f"  {key:>14}: full {full:.4f}  int{BITS} {m['accuracy']['rounded'][key]:.4f}"
                  f"  same answers {f['agreement']:.3f}  max |dp| {f['max_dp']:.3f}")
    print({s: round(len(gzip.compress(weights_script(s), 9, mtime=0)) / 1024, 1) for s in SCHEMES}, "KB gzip")
