"""Challenge 07's properties: the stretched speeds of position interpolation,
NTK-aware scaling, YaRN (and its attention factor) and Llama 3's rule, and the
classic mistakes, recognised and named.

The reference values come from the lesson, the one home of these ideas:
`lessons.context_extension.rope_inv_freq` for the linear, yarn and llama3
blocks (tests/test_context_extension.py holds it to transformers' reference
vectors), `lessons.positional.ntk_scaled_base` for NTK-aware scaling (the
base transformers' dynamic type uses once a prompt's stretch is s) and
`lessons.context_extension.yarn_attention_factor`. `TRANSFORMERS` lists the
blocks of tests/data/reference_vectors.json the checker asks for; the tests
check that the lesson's values for them are the vectors'. A recognised
mistake is a wrong answer this module rebuilds from the lesson's pieces (the
ramp reversed, the range rounded or not, low and high swapped, ...): when the
learner's output equals one at two head widths, the hint names it.
"""

from __future__ import annotations

import math

import numpy as np

from challenges._props import Fail, Solution, describe_call, fmt, mistake, precision_note, registry
from lessons.context_extension import (llama3_inv_freq, llama3_smooth_factor, rope_inv_freq, rope_wavelengths,
                                       yarn_attention_factor, yarn_correction_range, yarn_get_mscale, yarn_ramp)
from lessons.context_extension import yarn_inv_freq as yarn_blend
from lessons.positional import ntk_scaled_base, rope_frequencies

PI, NTK, YARN, ATTN, LLAMA3 = ("pi_inv_freq", "ntk_inv_freq", "yarn_inv_freq", "yarn_attention_factor",
                               "llama3_inv_freq")
# the functions the learner's file must define, as the starter declares them
FUNCTIONS = {
    PI: "pi_inv_freq(head_dim, base, factor)",
    NTK: "ntk_inv_freq(head_dim, base, factor)",
    YARN: "yarn_inv_freq(head_dim, base, factor, original_max_position_embeddings, beta_fast=32.0, "
          "beta_slow=1.0, truncate=True)",
    ATTN: "yarn_attention_factor(factor)",
    LLAMA3: "llama3_inv_freq(head_dim, base, factor, low_freq_factor, high_freq_factor, "
            "original_max_position_embeddings)",
}

PROPERTIES, prop = registry()

RTOL = 1e-4  # relative: the slowest speeds are near 1e-6, so an absolute 1e-4 would pass anything there


def _yarn(d, base, s, trained, beta_fast=32.0, beta_slow=1.0, truncate=True) -> np.ndarray:
    return rope_inv_freq(d, {"rope_type": "yarn", "rope_theta": base, "factor": s, "beta_fast": beta_fast,
                             "beta_slow": beta_slow, "original_max_position_embeddings": trained,
                             "truncate": truncate})[0]


def _llama3(d, base, s, low, high, trained) -> np.ndarray:
    return rope_inv_freq(d, {"rope_type": "llama3", "rope_theta": base, "factor": s, "low_freq_factor": low,
                             "high_freq_factor": high, "original_max_position_embeddings": trained})[0]


# what a correct answer returns, for the learner's own arguments
REFERENCE = {
    PI: lambda d, base, s: rope_inv_freq(d, {"rope_type": "linear", "rope_theta": base, "factor": s})[0],
    NTK: lambda d, base, s: rope_frequencies(d, ntk_scaled_base(base, s, d)),
    YARN: _yarn,
    ATTN: yarn_attention_factor,
    LLAMA3: _llama3,
}

# transformers' reference vectors the checker asks for: (the record's name in tests/data/reference_vectors.json,
# function, arguments, keyword arguments); NTK's are the dynamic type at the stretch its seq_len gives
TRANSFORMERS = (
    ("synthetic: linear factor 8 (PI-style 2K to 16K)", PI, (128, 10000.0, 8.0), {}),
    ("synthetic: linear factor 2, partial rotary 0.5", PI, (32, 10000.0, 2.0), {}),
    ("synthetic: linear factor 0.5 (warned)", PI, (64, 10000.0, 0.5), {}),
    ("synthetic: dynamic factor 2 at seq_len 8192", NTK, (128, 10000.0, 3.0), {}),
    ("synthetic: dynamic factor 4 at seq_len 16384", NTK, (128, 10000.0, 29.0), {}),
    ("synthetic: dynamic factor 8, theta 500000, seq_len 100000", NTK, (128, 500000.0, 90.65625), {}),
    ("Qwen2.5 7B YaRN block (factor 4, original 32768)", YARN, (128, 1000000.0, 4.0, 32768), {}),
    ("Yarn-Llama-2-7b-64k block (factor 16, original 4096)", YARN, (128, 10000.0, 16.0, 4096), {}),
    ("DeepSeek-V2-Lite YaRN block (qk_rope_head_dim 64, mscale 0.707/0.707)", YARN, (64, 10000.0, 40.0, 4096), {}),
    ("gpt-oss YaRN block (GptOssConfig defaults: factor 32, theta 150000, truncate false)", YARN,
     (64, 150000.0, 32.0, 4096), {"truncate": False}),
    ("synthetic: YaRN with attention_factor 1.0 and beta 16/2", YARN, (128, 10000.0, 8.0, 4096),
     {"beta_fast": 16.0, "beta_slow": 2.0}),
    ("Qwen2.5 7B YaRN block (factor 4, original 32768)", ATTN, (4.0,), {}),
    ("Yarn-Llama-2-7b-64k block (factor 16, original 4096)", ATTN, (16.0,), {}),
    ("gpt-oss YaRN block (GptOssConfig defaults: factor 32, theta 150000, truncate false)", ATTN, (32.0,), {}),
    ("Llama 3.1 8B llama3 block", LLAMA3, (128, 500000.0, 8.0, 1.0, 4.0, 8192), {}),
    ("Llama 3.2 1B llama3 block (factor 32, head_dim 64)", LLAMA3, (64, 500000.0, 32.0, 1.0, 4.0, 8192), {}),
    ("synthetic: llama3 with low 2 / high 8", LLAMA3, (128, 500000.0, 8.0, 2.0, 8.0, 8192), {}),
    ("synthetic: llama3, theta 10000, original 4096, partial rotary 0.5", LLAMA3,
     (64, 10000.0, 8.0, 1.0, 4.0, 4096), {}),
)

# the calls a mistake is recognised at: every feature that tells one apart at head widths 64 and 128
# (the attention factor at two stretches)
PROBES = {
    PI: (((64, 10000.0, 4.0), {}), ((128, 500000.0, 8.0), {})),
    NTK: (((64, 10000.0, 4.0), {}), ((128, 500000.0, 8.0), {})),
    YARN: (((64, 10000.0, 16.0, 4096), {}), ((128, 1000000.0, 4.0, 32768), {}),
           ((64, 150000.0, 32.0, 4096), {"truncate": False}), ((128, 10000.0, 8.0, 4096), {"truncate": False}),
           ((64, 10000.0, 4.0, 65536), {}), ((128, 10000.0, 4.0, 65536), {})),
    ATTN: (((4.0,), {}), ((32.0,), {})),
    LLAMA3: (((64, 500000.0, 32.0, 1.0, 4.0, 8192), {}), ((128, 500000.0, 8.0, 1.0, 4.0, 8192), {}),
             ((128, 500000.0, 8.0, 2.0, 8.0, 8192), {})),
}


# ---------------------------------------------------------------------------
# The mistakes, rebuilt from the lesson's pieces
# ---------------------------------------------------------------------------


def _yarn_built(how: str):
    """A wrong yarn_inv_freq with the learner's signature; `how` names what it gets wrong."""

    def wrong(d, base, s, trained, beta_fast=32.0, beta_slow=1.0, truncate=True):
        theta = rope_frequencies(d, base)
        fast, slow = (beta_slow, beta_fast) if how == "betas swapped" else (beta_fast, beta_slow)
        rounded = {"never rounded": False, "always rounded": True}.get(how, truncate)
        low, high = yarn_correction_range(fast, slow, d, base, trained, rounded)
        if how == "clipped at d/2 - 1":
            high = min(high, d // 2 - 1)
        ramp = yarn_ramp(low, high, d // 2)
        if how == "ramp over 2i":
            ramp = yarn_ramp(low, high, d)[0::2]
        if how == "weights swapped":
            return yarn_blend(theta, s, 1 - ramp)
        if how == "factor in the exponent":
            return theta * (1 - ramp) + theta * s ** (-np.arange(0, d, 2) / d) * ramp
        if how == "wavelengths blended":
            return theta / ((1 - ramp) + ramp * s)
        return yarn_blend(theta, s, ramp)

    return wrong


def _llama3_middle(blend):
    """Llama 3's rule with another blend (theta, σ, s) in the middle band."""

    def wrong(d, base, s, low, high, trained):
        theta = rope_frequencies(d, base)
        wave = rope_wavelengths(theta)
        middle = (wave >= trained / high) & (wave <= trained / low)
        smooth = llama3_smooth_factor(wave, trained, low, high)
        return np.where(middle, blend(theta, smooth, s), llama3_inv_freq(theta, s, trained, low, high))

    return wrong


RIGHT_YARN = "the speed is θ_i·(1 - γ_i) + (θ_i / s)·γ_i"
SWAPPED = ("you swapped low_freq_factor and high_freq_factor: waves longer than L / low_freq_factor (8,192 "
           "positions for Llama 3.1) are divided by s, waves shorter than L / high_freq_factor (2,048) are kept, "
           "and only the band between is blended; swapped, the two ends cross and ")

# function -> (name, explanation, wrong function with the learner's signature, classic?) for each recognised mistake
MISTAKES = {
    PI: (
        ("factor multiplied",
         "your speeds are θ_i·s, every pair turning s times faster; position interpolation divides every "
         "position by s, which divides every speed by s: θ_i / s",
         lambda d, base, s: rope_frequencies(d, base) * s, True),
    ),
    NTK: (
        ("exponent dropped",
         "you raised the base to base·s; NTK-aware scaling raises it to base·s^(d/(d-2)), the exponent that "
         "makes the last pair, θ = base^(-(d-2)/d), exactly s times slower while pair 0 keeps 1 radian per position",
         lambda d, base, s: rope_frequencies(d, base * s), True),
        ("interpolation on top",
         "you divided the NTK-aware speeds by s as well: raising the base already slows the last pair s times, "
         "and pair 0 must keep θ_0 = 1; NTK-aware scaling does not divide the positions",
         lambda d, base, s: rope_frequencies(d, ntk_scaled_base(base, s, d)) / s, True),
    ),
    YARN: (
        ("ramp reversed",
         "you passed beta_slow where beta_fast goes: low is the pair that turns beta_fast (32) times in the "
         "trained length and high the one that turns beta_slow (1) time; swapped, the fast pairs are "
         "interpolated and the slow ones kept, the opposite of YaRN",
         _yarn_built("betas swapped"), True),
        ("ramp reversed",
         "your ramp weights the wrong speed: γ_i = clip((i - low)/(high - low), 0, 1) is 0 for the fast pairs "
         f"(kept at θ_i) and 1 for the slow ones (θ_i / s); {RIGHT_YARN}",
         _yarn_built("weights swapped"), True),
        ("truncate ignored",
         "with truncate=True (the default, and transformers' when a block does not say) the ends of the "
         "correction range are rounded to whole pairs, low down and high up; you kept their fractions",
         _yarn_built("never rounded"), True),
        ("truncate ignored",
         "with truncate=False (gpt-oss's block) the ends of the correction range keep their fractions; you "
         "rounded them to whole pairs anyway",
         _yarn_built("always rounded"), True),
        ("high clipped at d/2 - 1",
         "you clipped high to d/2 - 1, the last pair; transformers clips the correction range to [0, d - 1], so "
         "when high passes d/2 - 1 (a trained length of 65,536 at base 10,000) it leaves the slowest pairs partly "
         "kept where yours divides them by the whole factor",
         _yarn_built("clipped at d/2 - 1"), True),
        ("factor in the exponent",
         "your interpolated speeds are (s·base)^(-2i/d) = θ_i·s^(-2i/d), the factor raised with the pair's "
         f"exponent; YaRN divides every interpolated speed by the whole factor, θ_i / s: {RIGHT_YARN}",
         _yarn_built("factor in the exponent"), True),
        ("wavelengths blended",
         "you blended wavelengths, θ_i / ((1 - γ_i) + γ_i·s); YaRN (and transformers) blends the speeds: "
         + RIGHT_YARN,
         _yarn_built("wavelengths blended"), True),
        ("ramp over 2i",
         "your ramp runs over the dimension index 2i (0, 2, 4, …); low and high are pair indices, so the ramp "
         "runs over the pair index: γ_i = clip((i - low)/(high - low), 0, 1), i = 0 … d/2 - 1",
         _yarn_built("ramp over 2i"), True),
    ),
    ATTN: (
        ("+1 dropped",
         "you returned 0.1·ln(s); the attention factor is 0.1·ln(s) + 1 (1.1386 for s = 4), a number just above "
         "1 that multiplies cos and sin",
         lambda s: yarn_get_mscale(s) - 1, True),
        ("attention factor left at 1",
         "you returned 1 for a stretch s > 1; YaRN multiplies cos and sin by 0.1·ln(s) + 1 (1.1386 for s = 4), "
         "and only s <= 1 gives 1",
         lambda s: 1.0, True),
        ("attention factor squared",
         "you returned (0.1·ln(s) + 1)², how much the scores grow (q and k are both multiplied); the factor on "
         "cos and sin is 0.1·ln(s) + 1 itself, the YaRN paper's √(1/t)",
         lambda s: yarn_get_mscale(s) ** 2, True),
    ),
    LLAMA3: (
        ("low and high swapped", SWAPPED + "the middle band is divided by s instead of blended",
         lambda d, base, s, low, high, trained: llama3_inv_freq(rope_frequencies(d, base), s, trained, high, low),
         True),
        ("low and high swapped", SWAPPED + "the middle band is kept instead of blended",
         lambda d, base, s, low, high, trained: np.where(
             rope_wavelengths(rope_frequencies(d, base)) < trained / low, 1.0, 1 / s) * rope_frequencies(d, base),
         True),
        ("plain speeds returned",
         "you returned RoPE's own speeds θ_i = base^(-2i/d): the rule is not applied, or its result is computed "
         "and not returned; waves longer than L / low_freq_factor must be divided by s",
         lambda d, base, s, low, high, trained: rope_frequencies(d, base), True),
        ("smoothing reversed",
         "in the middle band you weighted θ by 1 - σ and θ/s by σ; σ = (L/λ - low_freq_factor)/"
         "(high_freq_factor - low_freq_factor) is 0 at the long end (divided) and 1 at the short end (kept): "
         "(1 - σ)·θ/s + σ·θ",
         _llama3_middle(lambda theta, smooth, s: (1 - smooth) * theta + smooth * theta / s), False),
        ("wavelengths blended",
         "in the middle band you blended the wavelengths, θ / ((1 - σ)·s + σ); Llama 3's rule blends the speeds: "
         "(1 - σ)·θ/s + σ·θ",
         _llama3_middle(lambda theta, smooth, s: theta / ((1 - smooth) * s + smooth)), True),
        ("wavelength without 2π",
         "you took 1/θ for the wavelength; a pair's wavelength is 2π/θ, the positions of one full turn, so your "
         "bands sit 2π times off: compare 2π/θ with L / low_freq_factor and L / high_freq_factor",
         lambda d, base, s, low, high, trained: llama3_inv_freq(rope_frequencies(d, base), s, 2 * math.pi * trained,
                                                                low, high), False),
        ("band ends without the factors",
         "you compared the wavelengths with L itself; the band ends are L / low_freq_factor (longer waves are "
         "divided by s) and L / high_freq_factor (shorter waves are kept), 8,192 and 2,048 positions for Llama 3.1, "
         "and the band between them is blended",
         lambda d, base, s, low, high, trained: llama3_inv_freq(rope_frequencies(d, base), s, trained, 1.0, 1.0),
         False),
    ),
}


# ---------------------------------------------------------------------------
# Calling, comparing, recognising
# ---------------------------------------------------------------------------


def _call(sol: Solution, fn: str, args: tuple, kwargs: dict | None = None) -> np.ndarray:
    if fn == ATTN:
        return sol.call(fn, *args, shape=(), what="one number", **(kwargs or {}))
    return sol.call(fn, *args, shape=(args[0] // 2,), what="one speed per pair", **(kwargs or {}))


def same(a, b) -> bool:
    """Same shape and equal to within RTOL, relative."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=RTOL, atol=0.0))


def diagnose(sol: Solution, fn: str) -> Fail | None:
    """The named mistake behind a wrong `fn`, or None if none is recognised.

    A mistake is named only when it gives the learner's output at every probe: head widths 64 and 128
    (the attention factor: stretches 4 and 32), so an answer right at one size alone is never named."""
    got = [_call(sol, fn, args, kw) for args, kw in PROBES[fn]]
    if all(same(g, REFERENCE[fn](*a, **kw)) for g, (a, kw) in zip(got, PROBES[fn], strict=True)):
        return None
    for name, why, wrong, classic in MISTAKES[fn]:
        if all(same(g, wrong(*a, **kw)) for g, (a, kw) in zip(got, PROBES[fn], strict=True)):
            return mistake(name, why, classic)
    return None


def _precision(got, want) -> str:
    """`precision_note`, relative: the slowest speeds are near 1e-6."""
    return precision_note(got, want, relative=True)


def _differs(fn: str, args: tuple, kwargs: dict, got, want, label: str = "") -> str:
    """'fn(args)[i] is X; expected Y' at the speed that misses most (relatively); with the block's label,
    'fn(args)[i] (label) is X; transformers gives Y'."""
    text, what = describe_call(fn, args, kwargs), ("transformers gives" if label else "expected")
    label = f" ({label})" if label else ""
    if got.ndim == 0:
        return f"{text}{label} is {float(got):.6g}; {what} {float(want):.6g}" + _precision(got, want)
    i = int(np.argmax(np.abs(got - want) / np.abs(want)))
    return f"{text}[{i}]{label} is {got[i]:.6g}; {what} {want[i]:.6g}" + _precision(got, want)


def _compare(sol: Solution, fn: str, cases, labels=None) -> None:
    """Each case (args, kwargs) against the reference; labels name the block a case comes from."""
    for n, (args, kwargs) in enumerate(cases):
        got, want = _call(sol, fn, args, kwargs), np.asarray(REFERENCE[fn](*args, **kwargs), dtype=float)
        if not same(got, want):
            raise diagnose(sol, fn) or Fail(_differs(fn, args, kwargs, got, want, labels[n] if labels else ""))


def _bands(sol: Solution, fn: str, args: tuple, kwargs: dict, bands) -> None:
    """bands: (boolean mask over the pairs, what those pairs do); the first band the answer gets wrong fails."""
    got, want = _call(sol, fn, args, kwargs), np.asarray(REFERENCE[fn](*args, **kwargs), dtype=float)
    for band, what in bands:
        if not same(got[band], want[band]):
            i = int(np.flatnonzero(band)[np.argmax(np.abs(got[band] - want[band]) / want[band])])
            raise diagnose(sol, fn) or Fail(
                f"{describe_call(fn, args, kwargs)}: the pairs {what}; pair {i} is {got[i]:.6g}, expected "
                f"{want[i]:.6g}" + _precision(got[band], want[band]))


def _worked(sol: Solution, fn: str, args: tuple, hand, how: str) -> None:
    """The worked example, by hand: `how` says where the numbers come from."""
    got = _call(sol, fn, args)
    if not same(got, hand):
        show = (lambda v: f"{float(v):.6g}") if np.ndim(hand) == 0 else (lambda v: fmt(v, 6))
        raise diagnose(sol, fn) or Fail(
            f"{describe_call(fn, args, {})} must be {show(hand)} ({how}); yours is {show(got)}"
            + _precision(got, hand))


def _factor_one(sol: Solution, fn: str, args: tuple) -> None:
    """With factor 1 nothing is stretched: RoPE's own speeds."""
    got, theta = _call(sol, fn, args), rope_frequencies(args[0], args[1])
    if not same(got, theta):
        raise diagnose(sol, fn) or Fail(
            f"with factor 1 nothing is stretched: {describe_call(fn, args, {})} must be RoPE's own speeds "
            f"θ_i = base^(-2i/d), {fmt(theta, 4)}; yours is {fmt(got, 4)}" + _precision(got, theta))


def _transformers(sol: Solution, fn: str) -> None:
    chosen = [(name, args, kw) for name, f, args, kw in TRANSFORMERS if f == fn]
    _compare(sol, fn, [(args, kw) for _, args, kw in chosen], [name.split(" (")[0] for name, _, _ in chosen])


THETA8 = np.array([1.0, 0.1, 0.01, 0.001])  # d = 8, base 10,000: θ_i = 10000^(-2i/8)


# ---------------------------------------------------------------------------
# Position interpolation and NTK-aware scaling
# ---------------------------------------------------------------------------

# (head_dim, base, factor): head widths 8 to 256, odd stretches, Llama 3's and Qwen's bases
SIZES = ((8, 10000.0, 4.0), (64, 10000.0, 2.0), (128, 500000.0, 8.0), (256, 1000000.0, 2.5), (96, 10000.0, 40.0))


@prop(PI)
def pi_values(sol: Solution) -> None:
    _worked(sol, PI, (8, 10000.0, 4.0), THETA8 / 4, "θ = [1, 0.1, 0.01, 0.001], each divided by 4")
    _factor_one(sol, PI, (64, 10000.0, 1.0))
    _compare(sol, PI, [(size, {}) for size in SIZES])


@prop(PI)
def pi_transformers(sol: Solution) -> None:
    _transformers(sol, PI)


@prop(NTK)
def ntk_values(sol: Solution) -> None:
    _worked(sol, NTK, (8, 10000.0, 4.0), THETA8 * 4.0 ** (-np.arange(4) / 3),
            "base' = 10000·4^(8/6), so θ_i is multiplied by 4^(-i/3)")
    _factor_one(sol, NTK, (64, 10000.0, 1.0))
    _compare(sol, NTK, [(size, {}) for size in SIZES])


@prop(NTK)
def ntk_ends(sol: Solution) -> None:
    for d, base, s in SIZES:
        got, theta = _call(sol, NTK, (d, base, s)), rope_frequencies(d, base)
        if not (same(got[0], 1.0) and same(got[-1], theta[-1] / s)):
            raise diagnose(sol, NTK) or Fail(
                f"NTK-aware scaling keeps pair 0 at 1 radian per position and turns the last pair exactly s times "
                f"slower; {describe_call(NTK, (d, base, s), {})} has pair 0 at {got[0]:.6g} and the last pair at "
                f"{got[-1]:.6g}, not {theta[-1] / s:.6g} = θ_last / {s:g}"
                + _precision(got[[0, -1]], np.array([1.0, theta[-1] / s])))


@prop(NTK)
def ntk_transformers(sol: Solution) -> None:
    _transformers(sol, NTK)


# ---------------------------------------------------------------------------
# YaRN and its attention factor
# ---------------------------------------------------------------------------

# (arguments, keyword arguments): head widths 8 to 256, trained lengths 4,096 to 65,536, other betas
YARN_SIZES = (((8, 10000.0, 4.0, 4096), {}), ((64, 10000.0, 16.0, 4096), {}), ((128, 500000.0, 8.0, 8192), {}),
              ((256, 1000000.0, 2.5, 32768), {}), ((96, 10000.0, 4.0, 4096), {"beta_fast": 16.0, "beta_slow": 2.0}),
              ((128, 10000.0, 4.0, 65536), {}))
UNROUNDED = (((64, 150000.0, 32.0, 4096), {"truncate": False}), ((128, 10000.0, 8.0, 4096), {"truncate": False}),
             ((8, 10000.0, 4.0, 4096), {"truncate": False}), ((256, 500000.0, 5.0, 8192), {"truncate": False}))


@prop(YARN)
def yarn_values(sol: Solution) -> None:
    _worked(sol, YARN, (8, 10000.0, 4.0, 4096), THETA8 * [1, 1, 0.625, 0.25],
            "low = floor(1.31) = 1, high = ceil(2.81) = 3, so γ = [0, 0, 0.5, 1]")
    _factor_one(sol, YARN, (64, 10000.0, 1.0, 4096))
    _compare(sol, YARN, YARN_SIZES)


@prop(YARN)
def yarn_ends(sol: Solution) -> None:
    for args, kwargs in YARN_SIZES[1:4]:
        d, base, s, trained = args
        low, high = yarn_correction_range(32.0, 1.0, d, base, trained)
        pairs = np.arange(d // 2)
        _bands(sol, YARN, args, kwargs, (
            (pairs <= low, f"at or below low = {low}, which turn more than beta_fast times in the trained length, "
                           "keep θ_i"),
            (pairs >= high, f"from high = {high} on, which turn less than beta_slow times, are θ_i / s")))


@prop(YARN)
def yarn_truncate(sol: Solution) -> None:
    _compare(sol, YARN, UNROUNDED)


@prop(YARN)
def yarn_transformers(sol: Solution) -> None:
    _transformers(sol, YARN)


@prop(ATTN)
def attn_values(sol: Solution) -> None:
    _worked(sol, ATTN, (4.0,), 0.1 * math.log(4.0) + 1, "0.1·ln 4 + 1")
    _compare(sol, ATTN, [((s,), {}) for s in (2.0, 8.0, 2.5, 40.0, 128.0, 1.5)])


@prop(ATTN)
def attn_no_stretch(sol: Solution) -> None:
    for s in (1.0, 0.5):
        got = _call(sol, ATTN, (s,))
        if not same(got, 1.0):
            raise diagnose(sol, ATTN) or Fail(
                f"a factor at or below 1 stretches nothing, so the attention factor is 1 (transformers' get_mscale "
                f"returns 1.0 for s <= 1); yarn_attention_factor({s!r}) is {float(got):.6g}")


@prop(ATTN)
def attn_transformers(sol: Solution) -> None:
    _transformers(sol, ATTN)


# ---------------------------------------------------------------------------
# Llama 3's rule
# ---------------------------------------------------------------------------

LLAMA3_SIZES = ((8, 10000.0, 4.0, 1.0, 4.0, 2048), (64, 500000.0, 32.0, 1.0, 4.0, 8192),
                (128, 500000.0, 8.0, 2.0, 8.0, 8192), (256, 1000000.0, 16.0, 1.0, 4.0, 32768),
                (96, 10000.0, 2.5, 1.5, 6.0, 4096))


@prop(LLAMA3)
def llama3_values(sol: Solution) -> None:
    smooth = (2048 / (2 * math.pi / 0.01) - 1) / 3  # pair 2 is in the middle band: λ = 628 between 512 and 2,048
    _worked(sol, LLAMA3, (8, 10000.0, 4.0, 1.0, 4.0, 2048), THETA8 * [1, 1, (1 - smooth) / 4 + smooth, 0.25],
            f"pairs 0 and 1 kept, pair 3 divided by 4, pair 2 blended with σ = {smooth:.4f}")
    _factor_one(sol, LLAMA3, (64, 10000.0, 1.0, 1.0, 4.0, 4096))
    _compare(sol, LLAMA3, [(size, {}) for size in LLAMA3_SIZES])


@prop(LLAMA3)
def llama3_bands(sol: Solution) -> None:
    for args in LLAMA3_SIZES[1:4]:
        d, base, s, low, high, trained = args
        wave = rope_wavelengths(rope_frequencies(d, base))
        _bands(sol, LLAMA3, args, {}, (
            (wave < trained / high, "whose wavelength 2π/θ is shorter than L / high_freq_factor = "
                                    f"{trained / high:g} are kept"),
            (wave > trained / low, f"whose wavelength is longer than L / low_freq_factor = {trained / low:g} are "
                                   "divided by s"),
            ((wave >= trained / high) & (wave <= trained / low), "whose wavelength lies between are blended")))


@prop(LLAMA3)
def llama3_transformers(sol: Solution) -> None:
    _transformers(sol, LLAMA3)
