"""A lab on your own code: `python labs/<lab>.py --use FILE` (or `python -m labs.<lab> --use FILE`).

Each lab declares, in its first code cell, the lesson functions a learner may replace: a tuple of
`Takes`, each naming the learner's function as a challenge's starter spells it, the lesson
function (or method) it stands in for, and, where the two differ in layout or signature, the
adapter that makes one look like the other. `use(file, takes)` imports FILE and `swap`s every
function it defines into the lessons: the lesson module's attribute, and every other place the
loaded lessons hold the original (a `from ... import` copy in another module, a dispatch table).
tests/planted.py plants its bugs with the same `swap`, so a learner's function reaches exactly
the code a planted bug reaches.

The adapters here are the only code between a learner's function and the lab: each is a few
lines that reorder dimensions or fill in an argument, and each says so in the lab's header.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Takes:
    """One function a lab runs from the learner's file: `name` (the challenge's spelling), from
    Challenge `challenge`, in place of `target` ("lessons.module.function" or
    "lessons.module.Class.method"); `adapt` turns the learner's function into one with the
    target's signature and layout (None: used as it is), and `how` says what it does."""

    name: str
    challenge: str
    target: str
    adapt: Callable[[Callable], Callable] | None = None
    how: str = "used as it is"


def _owner(target: str):
    """(object holding the attribute, attribute name, whether it is a module-level function)."""
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            holder = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:-1]:
            holder = getattr(holder, attribute)
        return holder, parts[-1], cut == len(parts) - 1
    raise ModuleNotFoundError(f"no module for {target}")


def rebind(old, new) -> None:
    """Point every reference the loaded lessons hold to `old` (a module global, a dict entry) at `new`."""
    for name, module in list(sys.modules.items()):
        if not (name == "lessons" or name.startswith("lessons.")) or module is None:
            continue
        for key, value in list(vars(module).items()):
            if value is old:
                setattr(module, key, new)
            elif isinstance(value, dict):
                for k, v in list(value.items()):
                    if v is old:
                        value[k] = new


def swap(target: str, new) -> None:
    """Put `new` in place of the lesson function (or method) `target`, everywhere the lessons hold it."""
    holder, name, module_level = _owner(target)
    original = getattr(holder, name)
    setattr(holder, name, new)
    if module_level:
        rebind(original, new)


def _stop(message: str):
    """One line on stderr, exit code 2: the command line asked for something the lab cannot do."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def _load(file: Path):
    """The learner's file as a module, or one line on stderr and exit 2.

    Its folder is first on sys.path while it is imported, as `python FILE` would have it, so it can
    import a helper module of its own beside it; then last, so that a function importing one when
    called still finds it, while the lessons and labs the lab imports next are never the folder's."""
    if not file.is_file():
        _stop(f"--use {file}: no such file")
    folder = str(file.resolve().parent)
    spec = importlib.util.spec_from_file_location(f"_learner_{abs(hash(file.resolve()))}", file)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the learner's file itself does not run: say what it raised, in one line
        _stop(f"--use {file}: importing it raised {type(error).__name__}: {error}")
    finally:
        sys.path.remove(folder)  # the first copy: the one put there above
        sys.path.append(folder)
    return module


def use(file: str | Path, takes: tuple[Takes, ...], lab: str) -> list[str]:
    """Swap every function of `takes` that `file` defines into the lessons; the lines that say so.

    A file that defines none of them is one line on stderr and exit 2."""
    file = Path(file)
    module = _load(file)
    found = [t for t in takes if callable(getattr(module, t.name, None))]
    if not found:
        wanted = ", ".join(sorted({f"{t.name} (Challenge {t.challenge})" for t in takes}))
        _stop(f"--use {file}: defines none of the functions {lab} takes: {wanted}")
    lines = []
    for t in found:
        learner = getattr(module, t.name)
        swap(t.target, t.adapt(learner) if t.adapt else learner)
        lines.append(f"your {t.name} (Challenge {t.challenge}) runs as {t.target}: {t.how}")
    missing = sorted({t.name for t in takes} - {t.name for t in found})
    if missing:
        lines.append(f"not in {file.name}, so the lessons' own: {', '.join(missing)}")
    return lines


# ---------------------------------------------------------------------------
# Adapters: a learner's function, made to look like the lesson function it replaces
# ---------------------------------------------------------------------------


def _wraps(learner: Callable, adapter: Callable) -> Callable:
    adapter.__wrapped__ = learner  # inspect.getsource shows the learner's code, not the adapter's
    adapter.__doc__ = learner.__doc__
    return adapter


def _rows(x: np.ndarray, positions):
    """The (..., seq, d) stack and the (seq,) positions, always given, that a challenge's `apply_rope`
    takes (Challenge 05's has no default), for what a lesson's RoPE accepts: a vector turned by one
    position or by each of n, a stack with no positions (0 .. seq-1) or one for every row; and how
    to give the answer back in the lesson's shape."""
    if x.ndim == 1:  # the lessons turn one vector by one position, or by each of n positions
        pos = np.asarray(0 if positions is None else positions)
        stack = np.broadcast_to(x, (np.atleast_1d(pos).size, x.shape[-1]))
        return stack, np.atleast_1d(pos), (lambda out: out[0]) if pos.ndim == 0 else None
    if positions is None:
        positions = np.arange(x.shape[-2])
    elif np.ndim(positions) == 0:  # every row at one position
        positions = np.full(x.shape[-2], positions)
    return x, np.asarray(positions), None


def half_split_rope(learner: Callable) -> Callable:
    """`lessons.rope.apply_rope_half` from a challenge's half-split `apply_rope(x, positions, base)`:
    the same layout; a vector, or one position for every row, is spread into the stack it takes."""

    def apply_rope_half(x, positions=None, base: float = 10000.0):
        stack, pos, back = _rows(np.asarray(x, dtype=float), positions)
        out = np.asarray(learner(stack, pos, base))
        return back(out) if back else out

    return _wraps(learner, apply_rope_half)


def interleaved_rope(learner: Callable) -> Callable:
    """`lessons.positional.apply_rope` (interleaved pairs 2i, 2i+1) from a challenge's half-split
    `apply_rope` (pairs j, j + d/2): the dimensions are reordered to half-split order (the even
    ones, then the odd ones) before the learner's function turns them, and put back after, so
    pair i is the same two numbers turned at the same speed in both layouts."""
    half = half_split_rope(learner)

    def apply_rope(x, positions=None, base: float = 10000.0):
        x = np.asarray(x, dtype=float)
        d = x.shape[-1]
        order = np.r_[0:d:2, 1:d:2]  # interleaved -> half-split: dimension 2i goes to i, 2i + 1 to i + d/2
        turned = half(x[..., order], positions, base)
        out = np.empty_like(turned)
        out[..., order] = turned  # and back
        return out

    return _wraps(learner, apply_rope)


def rotary_method(learner: Callable) -> Callable:
    """`lessons.transformer.RotaryPositions.rotate(self, Q, K, positions)` from a challenge's
    half-split `apply_rope`: TinyGPT's heads are half-split too, so Q and K are each turned by it."""

    def rotate(self, Q, K, positions):
        return np.asarray(learner(Q, positions)), np.asarray(learner(K, positions))

    return _wraps(learner, rotate)


def table_without_base(learner: Callable) -> Callable:
    """`lessons.positional.sinusoidal_encoding(n_positions, d, base)` from Challenge 04's
    `sinusoidal_encoding(n_positions, d_model)`: the same table; it has no base, so only 10,000."""

    def sinusoidal_encoding(n_positions, d, base: float = 10000.0):
        if base != 10000.0:
            raise ValueError(f"your sinusoidal_encoding has no base argument; the lab asked for base {base}")
        return np.asarray(learner(n_positions, d))

    return _wraps(learner, sinusoidal_encoding)


def learned_method(learner: Callable) -> Callable:
    """`lessons.transformer.LearnedPositions.add_to_embeddings(self, x, positions)` from Challenge
    02's `embed(token_ids, token_table, position_table, start_pos)`: TinyGPT has already looked its
    tokens up, so their rows x are handed over as the token table (token t is row t) and the model's
    consecutive positions as start_pos = positions[0]."""

    def add_to_embeddings(self, x, positions):
        return np.asarray(learner(np.arange(len(positions)), x, self.W_pos, int(positions[0])))

    return _wraps(learner, add_to_embeddings)


def _block(params: dict, head_dim: int, max_position_embeddings: int | None) -> dict:
    """The numbers a Challenge 07 function takes, read from a rope_parameters block with transformers'
    defaults (as `lessons.context_extension.rope_inv_freq` reads them): the rotary width, the base,
    the factor and the trained length."""
    partial = params.get("partial_rotary_factor")
    original = params.get("original_max_position_embeddings") or max_position_embeddings
    factor = params.get("factor")
    if factor is None and original:  # yarn's fallback: the length ratio
        factor = max_position_embeddings / original
    return {"d": int(head_dim * (1.0 if partial is None else partial)), "base": params.get("rope_theta") or 10000.0,
            "factor": factor, "original": original}


def rope_type_branch(rope_type: str) -> Callable[[Callable], Callable]:
    """An adapter that puts a Challenge 07 function in `lessons.context_extension.rope_inv_freq` for
    one rope_type ("linear": `pi_inv_freq`, "yarn": `yarn_inv_freq`, "llama3": `llama3_inv_freq`):
    a block of that type gets its speeds from the learner's function (YaRN's attention factor from
    `lessons.context_extension.yarn_attention_factor`, itself the learner's when FILE defines it);
    any other block goes on to the function that was there before (the lesson's, or another branch)."""

    def adapt(learner: Callable) -> Callable:
        from lessons import context_extension as ce  # only a run with --use gets here

        previous = ce.rope_inv_freq

        def rope_inv_freq(head_dim, rope_parameters=None, *, max_position_embeddings=None, seq_len=None):
            params = rope_parameters or {}
            if ce.rope_type_of(params) != rope_type:
                return previous(head_dim, rope_parameters, max_position_embeddings=max_position_embeddings,
                                seq_len=seq_len)
            b = _block(params, head_dim, max_position_embeddings)
            if rope_type == "linear":
                return np.asarray(learner(b["d"], b["base"], b["factor"]), dtype=float), 1.0
            if rope_type == "llama3":
                return np.asarray(learner(b["d"], b["base"], b["factor"], params["low_freq_factor"],
                                          params["high_freq_factor"], b["original"]), dtype=float), 1.0
            attention = params.get("attention_factor")
            if attention is None:
                attention = ce.yarn_attention_factor(b["factor"], params.get("mscale"), params.get("mscale_all_dim"))
            speeds = learner(b["d"], b["base"], b["factor"], b["original"], params.get("beta_fast") or 32.0,
                             params.get("beta_slow") or 1.0, params.get("truncate", True))
            return np.asarray(speeds, dtype=float), float(attention)

        return _wraps(learner, rope_inv_freq)

    return adapt


def factor_only(learner: Callable) -> Callable:
    """`lessons.context_extension.yarn_attention_factor(factor, mscale, mscale_all_dim)` from Challenge
    07's `yarn_attention_factor(factor)`: the same rule; it has no DeepSeek mscale, so none is asked."""

    def yarn_attention_factor(factor, mscale=None, mscale_all_dim=None):
        if mscale is not None or mscale_all_dim is not None:
            raise ValueError("your yarn_attention_factor takes no mscale (DeepSeek's blocks): the lab asked for one")
        return float(learner(factor))

    return _wraps(learner, yarn_attention_factor)


# How far from one base's speeds a learner's NTK speeds may be: float32's rounding, not a mistake.
# transformers computes speeds in float32 (1 / base**(arange(0, d, 2).float() / d)): the power and the
# division each round to within 2^-24 = 6e-8, and when d is not a power of two the exponent 2i/d rounds
# too, which moves the speed by up to ln(base) * 2^-24 (1.2e-6 at base 1e9). Measured with torch's
# float32 over d 8..256, bases 1e4..1e7 and factors 1.5..64 (raised bases up to 7e8): at most 1.8e-7
# when d is a power of two, 9.3e-7 at worst (d 80, base 1e7, factor 64). Speeds that are not one
# base's (an interpolation on top, a per-pair change) are off by 1e-2 and more.
NTK_ONE_BASE_RTOL = 2e-6


def base_from_speeds(learner: Callable) -> Callable:
    """`lessons.positional.ntk_scaled_base(base, scale, d)` from Challenge 07's `ntk_inv_freq(head_dim,
    base, factor)`: the raised base read back from the last pair's speed (base'^(-(d-2)/d)), after
    checking that every speed is RoPE's for that one base (NTK-aware scaling only raises the base),
    to NTK_ONE_BASE_RTOL: speeds computed in float32, as transformers computes them, pass."""

    def ntk_scaled_base(base, scale, d):
        speeds = np.asarray(learner(d, base, scale), dtype=float)
        raised = float(speeds[-1] ** (-d / (d - 2)))
        off = np.abs(speeds / raised ** (-np.arange(0, d, 2) / d) - 1)
        if not off.max() < NTK_ONE_BASE_RTOL:
            raise ValueError(f"your ntk_inv_freq's speeds are not RoPE's speeds for one raised base: "
                             f"pair {int(off.argmax())} is {off.max():.3g} off")
        return raised

    return _wraps(learner, ntk_scaled_base)


def mask_rows(learner: Callable) -> Callable:
    """`lessons.position_ids.position_ids_from_mask` from Challenge 08's, which takes a batch
    (batch, seq): a single row (seq,) is handed over as a batch of one and given back as a row."""

    def position_ids_from_mask(attention_mask):
        mask = np.asarray(attention_mask)
        ids = np.asarray(learner(mask[None] if mask.ndim == 1 else mask))
        return ids[0] if mask.ndim == 1 else ids

    return _wraps(learner, position_ids_from_mask)


def padded_from_mask(learner: Callable) -> Callable:
    """`lessons.position_ids.padded_batch_mask(n_pad, n)` (the row's 0/1 mask, and which keys each
    query reads) from Challenge 08's `padded_attention_mask(attention_mask)`: the lab builds the row
    of n_pad 0s and n 1s and asks your function for the (seq, seq) cut of that one row."""

    def padded_batch_mask(n_pad, n):
        mask = np.r_[np.zeros(n_pad, int), np.ones(n, int)]
        return mask, np.asarray(learner(mask[None]), dtype=bool)[0]

    return _wraps(learner, padded_batch_mask)


def ids_from_zero(learner: Callable) -> Callable:
    """`lessons.position_ids.packed_position_ids(lengths, start)` from Challenge 08's
    `packed_position_ids(lengths)`: the same ids; it has no start, so only 0."""

    def packed_position_ids(lengths, start: int = 0):
        if start != 0:
            raise ValueError(f"your packed_position_ids has no start argument; the lab asked for start {start}")
        return np.asarray(learner(lengths))

    return _wraps(learner, packed_position_ids)


def cut_from_ids(learner: Callable) -> Callable:
    """`lessons.position_ids.document_mask(document_ids)` from Challenge 08's
    `packed_attention_mask(position_ids)`: the lesson names each token's document (0, 0, 0, 1, 1,
    ...); the lab turns that into the ids your function reads, restarting at 0 with every
    document (0, 1, 2, 0, 1, ...), and asks it for the cut."""

    def document_mask(document_ids):
        doc = np.asarray(document_ids).reshape(-1)
        starts = np.r_[0, np.flatnonzero(np.diff(doc)) + 1]  # where each document begins
        ids = np.arange(doc.size) - np.repeat(starts, np.diff(np.r_[starts, doc.size]))
        return np.asarray(learner(ids), dtype=bool)

    return _wraps(learner, document_mask)
