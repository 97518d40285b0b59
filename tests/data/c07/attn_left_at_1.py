"""A learner's Challenge 07 answer with one mistake: DeepSeek's ratio of two equal mscales, always 1."""

from __future__ import annotations

import math

import numpy as np


def _speeds(head_dim: int, base: float) -> np.ndarray:
    """RoPE's own speeds θ_i = base^(-2i/d), i = 0 .. d/2 - 1: (d/2,)."""
    return base ** (-np.arange(0, head_dim, 2) / head_dim)


def pi_inv_freq(head_dim: int, base: float, factor: float) -> np.ndarray:
    """(d/2,) speeds θ_i / s: every position divided by the factor."""
    return _speeds(head_dim, base) / factor


def ntk_inv_freq(head_dim: int, base: float, factor: float) -> np.ndarray:
    """(d/2,) speeds of the base raised to base · s^(d/(d-2))."""
    raised = base * factor ** (head_dim / (head_dim - 2))
    return _speeds(head_dim, raised)


def _pair_turning(turns: float, head_dim: int, base: float,
                  trained: int) -> float:
    """The (fractional) pair index i whose pair turns `turns` times in
    `trained` positions: trained / (2π base^(2i/d)) = turns, solved for i."""
    return head_dim * math.log(trained / (turns * 2 * math.pi)) / (
        2 * math.log(base))


def yarn_inv_freq(
    head_dim: int,
    base: float,
    factor: float,
    original_max_position_embeddings: int,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
) -> np.ndarray:
    """(d/2,) speeds: fast pairs kept, slow pairs θ_i / s, a ramp between."""
    theta = _speeds(head_dim, base)
    trained = original_max_position_embeddings
    # the correction range: pairs that turn beta_fast times .. beta_slow times
    low = _pair_turning(beta_fast, head_dim, base, trained)
    high = _pair_turning(beta_slow, head_dim, base, trained)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, head_dim - 1)
    if low == high:
        high += 0.001  # as transformers does: no division by zero
    # γ_i: 0 up to low (keep θ_i), 1 from high on (θ_i / s), linear between
    pairs = np.arange(head_dim // 2)
    ramp = np.clip((pairs - low) / (high - low), 0.0, 1.0)
    return theta * (1 - ramp) + theta / factor * ramp


def yarn_attention_factor(factor: float) -> float:
    """0.1 · ln(s) + 1 for a stretch s > 1, else 1."""
    if factor <= 1:
        return 1.0
    # DeepSeek's form, get_mscale(s, mscale) / get_mscale(s, mscale_all_dim)
    mscale = 0.1 * 1.0 * math.log(factor) + 1.0
    mscale_all_dim = 0.1 * 1.0 * math.log(factor) + 1.0
    return mscale / mscale_all_dim


def llama3_inv_freq(
    head_dim: int,
    base: float,
    factor: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_max_position_embeddings: int,
) -> np.ndarray:
    """(d/2,) speeds: short waves kept, long ones θ_i / s, a blend between."""
    theta = _speeds(head_dim, base)
    wavelength = 2 * np.pi / theta  # positions per full turn
    trained = original_max_position_embeddings
    long_wave = trained / low_freq_factor  # longer than this: divided by s
    short_wave = trained / high_freq_factor  # shorter than this: kept
    # σ: 0 at λ = long_wave, 1 at λ = short_wave, linear in L / λ
    smooth = (trained / wavelength - low_freq_factor) / (
        high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * theta / factor + smooth * theta
    kept_or_blended = np.where(wavelength < short_wave, theta, blended)
    return np.where(wavelength > long_wave, theta / factor, kept_or_blended)
