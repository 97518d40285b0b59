"""Intervals for a handful of measurements: Student's t over seeds, the percentile bootstrap, the
circular block bootstrap for a correlated series, an interval over seeds and prompts together (a
crossed two-way design), and a test of equivalence.

`lessons.measured` quotes every reading of its five seeds with `t_interval` and states "do as well"
only when `equivalent` passes; `lessons.real_model` resamples a text's losses in runs with
`bootstrap_interval`. No scipy: the t quantile integrates the density itself.
"""

from __future__ import annotations

import math

import numpy as np

BOOTSTRAP_DRAWS = 10_000
BOOTSTRAP_SEED = 0


def bootstrap_interval(samples, level: float = 0.95, block: int = 1) -> tuple[float, float, float]:
    """(mean, low, high): the mean over seeds and its percentile bootstrap interval.

    Seeds are resampled with replacement (BOOTSTRAP_DRAWS draws, a fixed generator), so the
    interval covers training randomness: the evaluation prompts are the same for every seed.
    With `block` > 1 the samples are a series whose neighbours are correlated (the loss along one
    text, `lessons.real_model`), and each draw strings together runs of `block` consecutive
    samples from random starts, wrapping past the end to the start (the circular block bootstrap of
    Politis and Romano, 1992), so the interval keeps the correlation within a run. Its bounds are
    then moved away from the mean by √((n − 1) / (n − block)) for n samples: on independent samples
    the circular bootstrap's variance of the mean is (1 − block/n) of the true one (a half with two
    runs per draw), the one-by-one bootstrap's (1 − 1/n), and the factor puts the two on a par.

    Args:
        samples: (seeds,) values, one per training seed, or a series in order.
        level: the interval's coverage.
        block: samples per resampled run; 1 resamples them one by one.

    Returns:
        three floats.
    """
    samples = np.asarray(samples, dtype=float)
    n = len(samples)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    starts = rng.integers(0, n, size=(BOOTSTRAP_DRAWS, -(-n // block)))
    index = (starts[:, :, None] + np.arange(block)).reshape(BOOTSTRAP_DRAWS, -1)[:, :n] % n
    means = samples[index].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    mean = float(samples.mean())
    if block > 1:
        widen = np.sqrt((n - 1) / (n - block))
        low, high = mean - (mean - low) * widen, mean + (high - mean) * widen
    return mean, float(low), float(high)


def two_level_interval(table: np.ndarray, level: float = 0.95, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high) of a (seeds, prompts) table whose every seed met the same prompts (a crossed design).

    The mean's variance has a part from seeds, one from prompts and one from their interaction; from the
    two-way table's mean squares (seeds MS_s, prompts MS_p, residual MS_e) it is estimated as
    (MS_s + MS_p − MS_e) / (S · P), and the interval is mean ± t · √variance with Satterthwaite's degrees of
    freedom (about S − 1 when seeds dominate, more when prompts do). Where that estimate is not positive
    the seeds' part alone is used, MS_s / (S · P) with S − 1 degrees of freedom.
    """
    table = np.asarray(table, dtype=float)
    seeds, prompts = table.shape
    mean = float(table.mean())
    rows, cols = table.mean(axis=1), table.mean(axis=0)
    ms_s = prompts * float(((rows - mean) ** 2).sum()) / (seeds - 1)
    ms_p = seeds * float(((cols - mean) ** 2).sum()) / (prompts - 1)
    ms_e = float(((table - rows[:, None] - cols[None, :] + mean) ** 2).sum()) / ((seeds - 1) * (prompts - 1))
    combined = ms_s + ms_p - ms_e
    if combined > 0:
        df = combined ** 2 / (ms_s ** 2 / (seeds - 1) + ms_p ** 2 / (prompts - 1) + ms_e ** 2 / ((seeds - 1) * (prompts - 1)))
    else:
        combined, df = ms_s, seeds - 1
    half = t_quantile((1 + level) / 2, max(1, int(df))) * math.sqrt(combined / (seeds * prompts)) if combined else 0.0
    return round(mean, digits), round(mean - half, digits), round(mean + half, digits)


def t_cdf(x: float, df: int) -> float:
    """P(T <= x) for Student's t with df >= 1 degrees of freedom, x >= 0: the density integrated
    (Simpson, 20,001 points on [0, x]); no scipy."""
    norm = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    grid = np.linspace(0.0, x, 20_001)
    f = norm * (1 + grid ** 2 / df) ** (-(df + 1) / 2)
    h = grid[1] - grid[0]
    return 0.5 + h / 3 * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum())


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile for 0.5 < p < 1 and df >= 1: `t_cdf` solved for p by bisection."""
    low, high = 0.0, 1000.0
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if t_cdf(mid, df) < p else (low, mid)
    return (low + high) / 2


def t_test_p(samples) -> float:
    """Two-sided p value of a one-sample t test that the mean of `samples` (n >= 2, one per seed) is 0."""
    samples = np.asarray(samples, dtype=float)
    n, sd = len(samples), float(samples.std(ddof=1))
    if sd == 0.0:
        return 0.0 if samples.mean() != 0 else 1.0
    t = abs(float(samples.mean())) / (sd / math.sqrt(n))
    return float(min(1.0, 2 * (1 - t_cdf(t, n - 1))))


def holm(pvalues, level: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which of m tests reject at family-wise error `level`. The k-th
    smallest p value (k from 0) must be at most level / (m − k), and so must every smaller one."""
    order = np.argsort(pvalues, kind="stable")
    keep = [False] * len(order)
    for k, i in enumerate(order):
        if pvalues[i] > level / (len(order) - k):
            break
        keep[i] = True
    return keep


def t_interval(samples, level: float = 0.95, digits: int = 2) -> tuple[float, float, float]:
    """(mean, low, high): mean ± t quantile · sd / √n over `samples` (one per seed)."""
    samples = np.asarray(samples, dtype=float)
    n, mean = len(samples), float(samples.mean())
    half = t_quantile((1 + level) / 2, n - 1) * float(samples.std(ddof=1)) / math.sqrt(n)
    return round(mean, digits), round(mean - half, digits), round(mean + half, digits)


EQUIVALENCE_MARGIN = 0.05  # "not told apart" claims: two readings within 0.05 of exact match, said before looking


def equivalent(samples, margin: float = EQUIVALENCE_MARGIN) -> bool:
    """Two one-sided t tests at 5% (TOST): does the 90% t interval of the paired differences lie in ±margin?"""
    _, low, high = t_interval(samples, level=0.90, digits=6)
    return -margin < low and high < margin
