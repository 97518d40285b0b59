"""A Hugging Face `rope_parameters` block checked as transformers 5.24 checks it.

`lessons.context_extension.rope_inv_freq` is the version the page teaches: the
formula of each `rope_type`, trusting the block. This module's `rope_inv_freq`
takes the same arguments and returns the same numbers for every block
transformers accepts (tests/test_rope_scaling.py holds the two equal over the
reference vectors and the model-card gallery); on top it accepts, warns about and
rejects what transformers does (its config validation in modeling_rope_utils.py,
`RotaryEmbeddingConfigMixin._validate_*`), and refuses what transformers would
turn into NaN, inf or a crash. `rope_inv_freq_by_layer_type` runs it per layer
type, for configs split by layer type (Gemma 3, Gemma 4).

Use it on a real config (the model-card lesson, the reference checks); read the
lesson for the formulas.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

from lessons import _checks
from lessons import context_extension as _lesson
from lessons.context_extension import rope_type_of

# The keys every rope_type accepts, the keys each type reads, and the ones it cannot do without.
# original_max_position_embeddings and rope_theta are filled in from the config when absent.
COMMON_KEYS = {"rope_type", "type", "rope_theta", "partial_rotary_factor"}
TYPE_KEYS = {
    "default": set(),
    "linear": {"factor"},
    "dynamic": {"factor"},
    "yarn": {"factor", "original_max_position_embeddings", "attention_factor", "beta_fast", "beta_slow",
             "mscale", "mscale_all_dim", "truncate"},
    "longrope": {"short_factor", "long_factor", "original_max_position_embeddings", "factor", "attention_factor"},
    "llama3": {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"},
    "proportional": set(),
}
REQUIRED_KEYS = {"linear": ("factor",), "dynamic": ("factor",), "yarn": ("factor",),
                  "longrope": ("short_factor", "long_factor"),
                  "llama3": ("factor", "low_freq_factor", "high_freq_factor")}
# Keys that model configs in transformers exempt from the check (ignore_keys_at_rope_validation):
# the multimodal-RoPE layout (Qwen2-VL and later VL models) and Ministral 3's position-dependent
# query scale. None of them changes inv_freq or the attention factor.
MODEL_KEYS = {"mrope_section", "mrope_interleaved", "interleaved", "llama_4_scaling_beta",
               "max_position_embeddings"}


def _warn(message: str) -> None:
    """A block transformers accepts with a warning: say so the same way, then compute as it does."""
    level, frame = 2, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == __file__:  # point at the caller of this module
        level, frame = level + 1, frame.f_back
    warnings.warn(message + " (transformers 5.24 warns too and goes on)", UserWarning, stacklevel=level)


def _stretch(factor, rope_type: str) -> float:
    """The block's `factor` as a float: a positive number; below 1 (a squeeze) only warns."""
    factor = _checks.positive(factor, f"rope_parameters 'factor' for rope_type '{rope_type}'")
    if factor < 1:
        _warn(f"rope_parameters 'factor' for rope_type '{rope_type}' should be >= 1, got {factor:g}")
    return factor


def split_by_layer_type(params: dict) -> bool:
    """True for a block split by layer type, such as Gemma 3's {"full_attention": {...}, ...}:
    every value a block or None, at least one a non-empty block.

    Args:
        params: a rope_parameters dict.

    Returns:
        a bool.
    """
    values = list(params.values())
    return bool(values) and all(v is None or isinstance(v, dict) for v in values) and any(values)


def _check_keys(params: dict, rope_type: str) -> None:
    """A missing key the method needs is a ValueError that names it (transformers raises KeyError);
    a key it does not read is a warning."""
    for key in REQUIRED_KEYS.get(rope_type, ()):
        if key not in params:
            raise ValueError(f"rope_parameters for rope_type '{rope_type}' needs the key '{key}'")
    allowed = COMMON_KEYS | TYPE_KEYS[rope_type] | MODEL_KEYS
    for key in params:
        if key not in allowed:
            known = any(key in keys for keys in TYPE_KEYS.values())
            _warn(f"rope_parameters key '{key}' is not read by rope_type '{rope_type}'" if known
                  else f"unknown key '{key}' in rope_parameters for rope_type '{rope_type}'")


def _check_yarn(params: dict, d: int, original: int, max_position_embeddings: int | None) -> None:
    factor = params["factor"]
    if factor is None and max_position_embeddings is not None:
        factor = max_position_embeddings / original  # the library's fallback
        _warn(f"rope_parameters 'factor' for rope_type 'yarn' is None; using max_position_embeddings / "
              f"original_max_position_embeddings = {factor:g}")
    factor = _stretch(factor, "yarn")
    if max_position_embeddings is not None and max_position_embeddings / original not in (factor, 1):
        _warn(f"rope_parameters 'factor' {factor:g} for rope_type 'yarn' differs from max_position_embeddings / "
              f"original_max_position_embeddings = {max_position_embeddings / original:g}; the factor is used")
    attention = params.get("attention_factor")
    if attention is not None and (not isinstance(attention, float) or attention < 0):
        _warn(f"rope_parameters 'attention_factor' for rope_type 'yarn' should be a float >= 0, got {attention!r}")
    beta_fast, beta_slow = params.get("beta_fast") or 32, params.get("beta_slow") or 1
    if beta_fast < beta_slow:
        _warn(f"rope_parameters for rope_type 'yarn' should have beta_fast >= beta_slow, got {beta_fast} < {beta_slow}")
    if d % 2:
        raise ValueError(f"rope_type 'yarn' needs an even rotary width, got {d}")


def _check_longrope(params: dict, n_pairs: int, original: int, max_position_embeddings: int | None) -> None:
    for key in ("short_factor", "long_factor"):
        size = np.asarray(params[key], dtype=float).size
        if size == 1 and n_pairs > 1:
            _warn(f"rope_parameters '{key}' for rope_type 'longrope' has 1 number for {n_pairs} pairs; "
                  "it divides every pair")
        elif size != n_pairs:
            raise ValueError(f"rope_parameters '{key}' for rope_type 'longrope' needs {n_pairs} numbers "
                             f"(one per pair), got {size}")
    factor = params.get("factor")
    if factor is None and max_position_embeddings is not None:
        factor = max_position_embeddings / original  # Phi-3's convention
    if factor is None:
        raise ValueError("rope_parameters for rope_type 'longrope' needs the key 'factor' "
                         "(or max_position_embeddings)")
    _stretch(factor, "longrope")
    attention = params.get("attention_factor")
    if attention is not None and attention < 0:
        _warn(f"rope_parameters 'attention_factor' for rope_type 'longrope' should be >= 0, got {attention!r}")


def _check_llama3(params: dict, original: int, max_position_embeddings: int | None) -> None:
    factor = _stretch(params["factor"], "llama3")
    low_ff = _checks.finite(params["low_freq_factor"], "rope_parameters 'low_freq_factor'")
    high_ff = _checks.finite(params["high_freq_factor"], "rope_parameters 'high_freq_factor'")
    if high_ff <= low_ff:
        _warn(f"rope_type 'llama3' should have high_freq_factor > low_freq_factor, got {high_ff:g} <= {low_ff:g}: "
              f"no pair is blended, waves longer than {original / low_ff:g} positions are divided by {factor:g}")
    if max_position_embeddings is not None and original >= max_position_embeddings:
        _warn(f"rope_type 'llama3' should have original_max_position_embeddings ({original}) below "
              f"max_position_embeddings ({max_position_embeddings})")


def rope_inv_freq(head_dim: int, rope_parameters: dict | None = None, *, max_position_embeddings: int | None = None,
                  seq_len: int | None = None) -> tuple[np.ndarray, float]:
    """`lessons.context_extension.rope_inv_freq`, after the checks transformers 5.24 makes.

    The same arguments and, for every block it accepts, the same result; before
    computing it accepts, warns about and rejects what transformers does:

    - rejected (ValueError): an unknown rope_type; a missing `factor` (linear,
      dynamic, yarn, llama3), `short_factor`/`long_factor` (longrope) or
      `low_freq_factor`/`high_freq_factor` (llama3); a longrope list that is
      neither one number per pair nor a single number;
    - accepted with a warning (`warnings.warn`), computed as transformers does:
      a key the type does not read (named); a `factor` below 1; llama3 with
      `high_freq_factor` <= `low_freq_factor` (no pair is blended) or an
      original length not below `max_position_embeddings`; yarn with
      `beta_fast` < `beta_slow`, a `factor` that disagrees with
      max_position_embeddings / original_max_position_embeddings, or a
      non-float `attention_factor`; proportional without `partial_rotary_factor`;
    - accepted silently: the keys model configs exempt (`mrope_section` and
      the other multimodal-RoPE keys, Ministral 3's `llama_4_scaling_beta`),
      which change neither result. A block split by layer type is for
      `rope_inv_freq_by_layer_type`.

    It also refuses what transformers would turn into NaN, inf or a crash: a
    non-positive `factor` or `rope_theta`, a `partial_rotary_factor` outside
    (0, 1], an odd rotary width for dynamic or yarn.

    Args:
        head_dim, rope_parameters, max_position_embeddings, seq_len: as for
            `lessons.context_extension.rope_inv_freq`.

    Returns:
        (inv_freq, attention_factor), as from `lessons.context_extension.rope_inv_freq`.
    """
    params = dict(rope_parameters or {})
    if split_by_layer_type(params):
        raise ValueError(f"rope_parameters is split by layer type ({', '.join(params)}); "
                         "use rope_inv_freq_by_layer_type")
    rope_type = rope_type_of(params)
    _check_keys(params, rope_type)
    head_dim = _checks.count(head_dim, "head_dim", low=2)
    _checks.positive(params.get("rope_theta") or 10000.0, "rope_parameters 'rope_theta'")
    partial = params.get("partial_rotary_factor")
    if rope_type == "proportional":
        if partial is None:
            _warn("rope_type 'proportional' without partial_rotary_factor turns every pair")
        elif not 0 <= partial <= 1:
            raise ValueError(f"partial_rotary_factor for rope_type 'proportional' must be in [0, 1], got {partial}")
        _stretch(params.get("factor", 1.0), rope_type)
        return _lesson.rope_inv_freq(head_dim, params, max_position_embeddings=max_position_embeddings,
                                     seq_len=seq_len)
    partial = 1.0 if partial is None else partial
    if not 0 < partial <= 1:
        raise ValueError(f"partial_rotary_factor for rope_type '{rope_type}' must be in (0, 1], got {partial}")
    d = int(head_dim * partial)  # the rotary width: odd only when part of the head turns
    if d < 2 or (d % 2 and partial == 1):
        raise ValueError(f"the rotary width (head_dim {head_dim} × partial_rotary_factor {partial}) must be "
                         f"even (or odd with partial_rotary_factor < 1) and >= 2, got {d}")
    original = params.get("original_max_position_embeddings") or max_position_embeddings
    if rope_type in ("yarn", "longrope", "llama3") and original is None:
        raise ValueError(f"rope_parameters for rope_type '{rope_type}' needs the key 'original_max_position_embeddings'")
    if rope_type in ("linear", "dynamic"):
        _stretch(params["factor"], rope_type)
    if rope_type == "dynamic" and max_position_embeddings is None:
        raise ValueError("rope_type 'dynamic' needs max_position_embeddings (the trained length)")
    if rope_type == "yarn":
        _check_yarn(params, d, original, max_position_embeddings)
    elif rope_type == "longrope":
        _check_longrope(params, (d + 1) // 2, original, max_position_embeddings)
    elif rope_type == "llama3":
        _check_llama3(params, original, max_position_embeddings)
    return _lesson.rope_inv_freq(head_dim, params, max_position_embeddings=max_position_embeddings, seq_len=seq_len)


def rope_inv_freq_by_layer_type(head_dim: int | dict[str, int], rope_parameters: dict | None,
                                layer_types: list[str] | None = None, *, max_position_embeddings: int | None = None,
                                seq_len: int | None = None) -> dict[str, tuple[np.ndarray, float] | None]:
    """`rope_inv_freq` (this module's, checks included) for each layer type, for configs whose layers turn differently.

    transformers 5.x splits Gemma 3's block by layer type: {"full_attention":
    {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6}, "sliding_attention":
    {"rope_type": "default", "rope_theta": 1e4}}. A flat block is shared by every
    layer type; a layer type whose block is None has no RoPE.

    Args:
        head_dim: the head width, or {layer type: head width} when they differ
            (Gemma 4's global layers are wider).
        rope_parameters: {layer type: block or None}, or one flat block.
        layer_types: the config's `layer_types` (one entry per layer); default:
            the block's own layer types, or ["full_attention"] for a flat block.
        max_position_embeddings, seq_len: as for `rope_inv_freq`.

    Returns:
        {layer type: (inv_freq, attention_factor) as from `rope_inv_freq`, or None}.
    """
    params = rope_parameters or {}
    nested = split_by_layer_type(params)
    names = list(dict.fromkeys(layer_types or (params if nested else ["full_attention"])))
    out = {}
    for name in names:
        if nested and name not in params:
            raise ValueError(f"rope_parameters has no block for layer type '{name}' (it has {', '.join(params)})")
        block = params[name] if nested else params
        width = head_dim[name] if isinstance(head_dim, dict) else head_dim
        out[name] = None if block is None else rope_inv_freq(
            width, block, max_position_embeddings=max_position_embeddings, seq_len=seq_len)
    return out
