"""Challenge 07: stretching the context (position interpolation, NTK-aware
scaling, YaRN with its attention factor, and Llama 3's rule).

Write the five functions below with numpy, then check your answer:

    python -m challenges check 07 stretching.py

The checker prints PASS or FAIL for each property, with a hint that names the
classic mistake when it recognises one. The problem statement, hints and a
reference solution: the page "Challenge 07: stretching the context" on the
Positional Primer site.

RoPE turns pair i = 0 .. d/2 - 1 of a head of width d = head_dim at
theta_i = base^(-2i/d) radians per position (its "speed"; transformers
calls the (d/2,) array of speeds inv_freq). Each function returns the
speeds a model uses once its context is stretched by `factor` = s.
"""

from __future__ import annotations

import numpy as np


def pi_inv_freq(head_dim: int, base: float, factor: float) -> np.ndarray:
    """Position interpolation (rope_type "linear"): every position is
    divided by s, so every speed is theta_i / s.

    Args:
        head_dim: the rotary width d, even.
        base: RoPE's base (rope_theta), e.g. 10000.0.
        factor: the stretch s.

    Returns:
        (head_dim/2,) float array of speeds.
    """


def ntk_inv_freq(head_dim: int, base: float, factor: float) -> np.ndarray:
    """NTK-aware scaling: RoPE's speeds for the raised base
    base' = base * s^(d/(d-2)); pair 0 keeps 1 radian per position and the
    last pair turns exactly s times slower.

    Args:
        head_dim: the rotary width d, even, at least 4.
        base: RoPE's base.
        factor: the stretch s.

    Returns:
        (head_dim/2,) float array of speeds.
    """


def yarn_inv_freq(
    head_dim: int,
    base: float,
    factor: float,
    original_max_position_embeddings: int,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
) -> np.ndarray:
    """YaRN's speeds (rope_type "yarn", as transformers computes them).

    Pair i turns L / lambda_i times in the trained length L, lambda_i =
    2 pi / theta_i. The fractional pair index that turns r times is

        i(r) = d * ln(L / (2 pi r)) / (2 ln base)

    low = i(beta_fast) and high = i(beta_slow), rounded down and up to whole
    pairs when `truncate` is True, then clipped to [0, d - 1]. The ramp
    gamma_i = clip((i - low) / (high - low), 0, 1) over the pair index i
    (if low == high, add 0.001 to high) blends the kept and divided speeds:

        speed_i = theta_i * (1 - gamma_i) + (theta_i / s) * gamma_i

    Args:
        head_dim: the rotary width d, even.
        base: RoPE's base.
        factor: the stretch s.
        original_max_position_embeddings: the trained length L.
        beta_fast, beta_slow: the turn counts that mark the ramp's ends.
        truncate: round the ends to whole pairs (transformers' default).

    Returns:
        (head_dim/2,) float array of speeds.
    """


def yarn_attention_factor(factor: float) -> float:
    """The number YaRN multiplies cos and sin by: 0.1 * ln(s) + 1 for a
    stretch s > 1, and 1 for s <= 1.

    Args:
        factor: the stretch s.

    Returns:
        a float (or a 0-d array).
    """


def llama3_inv_freq(
    head_dim: int,
    base: float,
    factor: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_max_position_embeddings: int,
) -> np.ndarray:
    """Llama 3's rule (rope_type "llama3"), by wavelength lambda_i =
    2 pi / theta_i and the trained length L:

        lambda_i > L / low_freq_factor    theta_i / s (divided)
        lambda_i < L / high_freq_factor   theta_i     (kept)
        otherwise                         (1 - sigma) * theta_i / s
                                          + sigma * theta_i
        sigma = (L / lambda_i - low_freq_factor)
                / (high_freq_factor - low_freq_factor)

    Args:
        head_dim: the rotary width d, even.
        base: RoPE's base.
        factor: the stretch s.
        low_freq_factor, high_freq_factor: the block's keys of these names
            (Llama 3.1: 1 and 4).
        original_max_position_embeddings: the trained length L.

    Returns:
        (head_dim/2,) float array of speeds.
    """
