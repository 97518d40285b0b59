"""The numeric core the explorables and the decoder share (explorables/web/core.js), in Node, against the
Python it follows: `ropeSpeeds` against lessons.context_extension.rope_inv_freq for every rope type over a
seeded grid of blocks and every gallery model's blocks, `ntkPairScale` against ntk_pair_scale, and the
explorer's `compareMethods`, `measures` and `methodMeasures` against lessons.model_card.compare_methods and
modelcard.explorer's.

Tolerance: counts (pairs past the trained angles, untouched pairs) must be equal. Floats must agree to
`REL` = 1e-13 relative: the core does each formula's arithmetic in the Python's order and in float64 (as
numpy does; rope_inv_freq has no float32 step), so most come out the same double, and the rest differ
only by the last bits of the libraries' pow and log (V8's fdlibm against the C library numpy calls),
which a long chain (a raised base, then its powers) can grow to a few ulps. Every mistake a formula can
make (a pair off by one, a wrong default, a swapped list) moves a speed by far more than 1e-13; the
test counts the exact matches too, so a drift towards the tolerance shows."""

from __future__ import annotations

import math
import random

import numpy as np

from lessons.context_extension import ROPE_TYPES, ntk_pair_scale, rope_inv_freq, trained_angle_ratio
from lessons.model_card import COMPARED, compare_methods, explain
from lessons.tools.model_types import gallery
from modelcard.explorer import NO_SCALING, measures, method_measures, past_trained
from tests.node import needs_node, run_explorable

pytestmark = needs_node
REL = 1e-13


def _close(want: float, got: float) -> bool:
    return want == got or (math.isfinite(want) and math.isclose(want, got, rel_tol=REL, abs_tol=0.0))


def differences(want, got, where: str, exact: list | None = None) -> list[str]:
    """Where `got` (JSON from Node) differs from `want` (Python): the same structure and key order, ints
    equal, floats within REL; `exact` collects one bool per float (the same double or not)."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or list(want) != list(got):
            return [f"{where}: keys {list(want)} != {got if not isinstance(got, dict) else list(got)}"]
        return [d for k in want for d in differences(want[k], got[k], f"{where}.{k}", exact)]
    if isinstance(want, (list, tuple, np.ndarray)):
        want = list(want)
        if not isinstance(got, list) or len(want) != len(got):
            return [f"{where}: {len(want)} values, got {got if not isinstance(got, list) else len(got)}"]
        return [d for i, (w, g) in enumerate(zip(want, got, strict=True)) for d in differences(w, g, f"{where}[{i}]", exact)]
    if isinstance(want, (bool, np.bool_)) or isinstance(want, (int, np.integer)):
        return [] if got == want and type(got) is not float else [f"{where}: {want!r} != {got!r}"]
    want = float(want)
    if exact is not None:
        exact.append(want == got)
    return [] if isinstance(got, (int, float)) and _close(want, float(got)) else [f"{where}: {want!r} != {got!r}"]


def _block(rng: random.Random, rope_type: str, rotary: int, trained: int) -> dict:
    """A seeded rope_parameters block of `rope_type` for a rotary width `rotary` trained at `trained`."""
    p = {"rope_type": rope_type, "rope_theta": rng.choice([1e4, 5e4, 1.5e5, 5e5, 1e6, 5e6, 10 ** rng.uniform(4, math.log10(5e6))])}
    factor = rng.choice([1.5, 2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 64.0, rng.uniform(1.5, 64)])
    if rope_type in ("linear", "dynamic", "llama3", "proportional"):
        p["factor"] = factor
    if rope_type in ("yarn", "longrope", "llama3") and rng.random() < 0.8:
        p["original_max_position_embeddings"] = trained
    if rope_type == "yarn":
        if rng.random() < 0.8:
            p["factor"] = factor
        if rng.random() < 0.5:
            p["beta_fast"], p["beta_slow"] = rng.choice([(32, 1), (64, 2), (16, 0.5), (8.0, 4.0)])
        if rng.random() < 0.3:
            p["mscale"], p["mscale_all_dim"] = rng.choice([(1.0, 1.0), (0.707, 0.707), (1.0, 0.0), (1.2, 0.8)])
        if rng.random() < 0.2:
            p["attention_factor"] = rng.uniform(0.5, 2)
        if rng.random() < 0.3:
            p["truncate"] = rng.choice([True, False])
    if rope_type == "longrope":
        p["short_factor"] = [rng.uniform(1, 2) for _ in range(rotary // 2)]
        p["long_factor"] = [rng.uniform(1, 64) for _ in range(rotary // 2)]
        if rng.random() < 0.6:
            p["factor"] = factor
        if rng.random() < 0.2:
            p["attention_factor"] = rng.uniform(0.5, 2)
    if rope_type == "llama3":
        p["low_freq_factor"], p["high_freq_factor"] = rng.choice([(1.0, 4.0), (1.0, 1.0), (2.0, 8.0), (0.5, 32.0)])
    return p


def speed_cases() -> list[tuple[int, dict, int | None, int | None]]:
    """(head_dim, rope_parameters, max_position_embeddings, seq_len): a seeded grid over every rope type
    (head dims 64, 128 and 96, partial rotary factors, factors 1.5 to 64, bases 1e4 to 5e6, seq_len below,
    at and above the trained length and unset), then every block of every gallery model."""
    rng = random.Random(20261207)
    out = []
    for rope_type in ROPE_TYPES:
        for _ in range(40):
            head = rng.choice([64, 128, 96])
            partial = rng.choice([None, None, 1.0, 0.5, 0.25, 0.75])
            rotary = head if partial is None else int(head * partial)
            trained = rng.choice([2048, 4096, 8192, 32768])
            p = _block(rng, rope_type, head if rope_type == "proportional" else rotary, trained)
            if partial is not None:
                p["partial_rotary_factor"] = partial
            max_pos = rng.choice([trained, 4 * trained, 32 * trained])
            seq = rng.choice([None, trained // 2, trained, trained + 1, 3 * trained, max_pos])
            out.append((head, p, max_pos if rope_type not in ("default", "linear") or rng.random() < 0.5 else None, seq))
    for entry in gallery().values():
        card = explain(entry["config"])
        for group in card.rope:
            for seq in (None, (card.trained_length or 4096) // 2, 4 * (card.max_length or 4096)):
                out.append((group.head_dim, group.parameters, card.max_length, seq))
    return out


def test_rope_speeds_follow_rope_inv_freq_for_every_rope_type(tmp_path):
    cases = speed_cases()
    assert {p.get("rope_type") or p.get("type") for _, p, _, _ in cases} >= set(ROPE_TYPES)
    wants = []
    for head, p, max_pos, seq in cases:
        theta, attention = rope_inv_freq(head, p, max_position_embeddings=max_pos, seq_len=seq)
        wants.append({"theta": theta, "attention": attention})
    got = run_explorable(tmp_path, None, [["core.ropeSpeeds", h, p, m, s] for h, p, m, s in cases])
    exact: list[bool] = []
    problems = [d for (h, p, m, s), want, have in zip(cases, wants, got, strict=True)
                for d in differences(want, have, f"{p.get('rope_type') or p.get('type')} head={h} max={m} seq={s} {p}"[:300], exact)]
    assert not problems, f"{len(problems)} differences, e.g.:\n" + "\n".join(problems[:8])
    assert len(exact) > 10000 and sum(exact) / len(exact) > 0.75, f"{sum(exact)} of {len(exact)} speeds the same double"


def test_ntk_pair_scale_and_the_explorer_measures_follow_python(tmp_path):
    """ntk_pair_scale, compare_methods, trained_angle_ratio with past_trained, measures and method_measures
    (the explorer's table) over seeded bases, widths, trained lengths, stretches and windows."""
    rng = random.Random(44)
    settings = [(10000.0, 128, 4096, 8.0, None), (500000.0, 128, 8192, 16.0, None), (10000.0, 64, 2048, 2.5, None),
                (1e6, 256, 32768, 1.0, None), (150000.0, 32, 4096, 64.0, None), (10000.0, 8, 64, 4.0, None),
                (500000.0, 128, 8192, 1280.0, 8192), (10000.0, 128, 4096, 8.0, 1024),
                (10000.0, 64, 2049, 2.5, None), (5e5, 128, 4095, 1.5, None)]  # served 5,122.5 and 6,142.5: half to even
    settings += [(10 ** rng.uniform(3, 7), 2 * rng.randint(2, 128), rng.choice([512, 2048, 4096, 8192, 32768]),
                  rng.choice([1.0, 1.5, 2.0, 2.5, 4.0, 8.0, 16.0, 64.0, rng.uniform(1, 64)]),
                  rng.choice([None, None, 512, 4096])) for _ in range(60)]
    from lessons.model_card import RopeGroup

    calls, wants = [], []
    for base, width, trained, stretch, window in settings:
        calls.append(["core.ntkPairScale", width, stretch])
        wants.append(ntk_pair_scale(width, stretch))
        group = RopeGroup("all", (), "default", width, width, base, None, None, 1.0, {})
        calls.append(["core.compareMethods", base, width, trained, stretch])
        wants.append(compare_methods(group, trained, stretch))
        theta, _ = rope_inv_freq(width, {"rope_theta": base})
        speeds = theta / np.linspace(1, stretch, len(theta))  # a made-up rule: pairs slowed more and more
        reach = round(trained * stretch)
        calls.append(["core.trainedAngleRatio", list(speeds), list(theta), trained, reach])
        ratio = trained_angle_ratio(speeds, theta, trained, reach)
        wants.append(ratio)
        calls.append(["core.pastTrained", list(ratio), trained])
        wants.append(past_trained(ratio, trained))
        calls.append(["core.measures", list(speeds), list(theta), trained, reach])
        wants.append(measures(speeds, theta, trained, reach))
        calls.append(["core.methodMeasures", base, width, trained, stretch, window])
        wants.append(method_measures(base, width, trained, stretch, window))
    for trained in (2, 4096, 8192):  # a ratio exactly at L / (L - 1) is not past it
        ratio = [trained / (trained - 1), math.nextafter(trained / (trained - 1), 2), 1.0, 1e3]
        calls.append(["core.pastTrained", ratio, trained])
        wants.append(past_trained(np.array(ratio), trained))
    halves = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 5122.5, 6142.5, 2.4999999999999996, 7.0, -3.25]
    calls += [["core.roundHalfEven", x] for x in halves]
    wants += [round(x) for x in halves]
    calls.append(["core.measures", [1.0, 0.5, 0.0, 0.0], [1.0, 0.25, 0.0, 0.0], 4096, 8192])  # still pairs left out
    wants.append(measures(np.array([1.0, 0.5, 0.0, 0.0]), np.array([1.0, 0.25, 0.0, 0.0]), 4096, 8192))
    got = run_explorable(tmp_path, None, calls)
    problems = [d for call, want, have in zip(calls, wants, got, strict=True)
                for d in differences(want, have, f"{call[0]}{tuple(c for c in call[1:] if not isinstance(c, list))}")]
    assert not problems, f"{len(problems)} differences, e.g.:\n" + "\n".join(problems[:8])


def test_the_core_compares_the_methods_python_compares(tmp_path):
    """The methods' table (lessons.model_card.COMPARED) and the no-scaling row's name are the Python's."""
    [compared, none] = run_explorable(tmp_path, None, [["core.compareMethods", 1e4, 8, 64, 2.0],
                                                      ["core.methodMeasures", 1e4, 8, 64, 2.0, None]])
    assert list(compared) == list(COMPARED) and list(none)[0] == NO_SCALING
