"""Planted bugs: one realistic mistake per lab claim, put into a copy of the lesson function
the claim is about, to prove each claim can fail.

A `Plant` names the lab, the claims it must turn into FAILS (each by a prefix of the claim's
text), and a source edit: in `module.function`, the text `old` (which must occur exactly
once) becomes `new`. `run_planted(plant)` runs the lab in a fresh interpreter with the edited
function compiled into the lesson module and rebound wherever the lessons hold the original
(a `from ... import` copy, a dispatch table), and returns the lab's exit code and output.

    python -m tests.planted LAB INDEX      # run one plant by hand: the lab's output, its exit code
"""

from __future__ import annotations

import importlib
import inspect
import linecache
import os
import runpy
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from labs._use import swap

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Plant:
    """One bug: `old` -> `new` in `module.function`, which must make each of `claims` FAIL
    (`old` and `new` may be tuples: several edits of the one function, made together)."""

    lab: str
    claims: tuple[str, ...]
    module: str
    function: str
    old: str | tuple[str, ...]
    new: str | tuple[str, ...]
    why: str
    crashes: bool = False  # the bug makes the lab's computation raise: the claims must FAIL naming the error


PLANTS: tuple[Plant, ...] = (
    # --- TF1: sinusoidal codes added vs RoPE (lessons.positional) ---------------------------
    Plant("tf1_sinusoidal_vs_rope", ("RoPE: the pair's score at a fixed gap", "both hold for"),
          "lessons.positional", "apply_rope",
          "even * sin + odd * cos", "even * sin - odd * cos",
          "a sign slip in the second row: a reflection, not a rotation, so m + n leaks in"),
    Plant("tf1_sinusoidal_vs_rope", ("sinusoidal codes added: the same pair's score spreads",
                                     "each cross term", "sinusoidal_encoding is its formula"),
          "lessons.positional", "sinusoidal_encoding",
          "angle_table(np.arange(n_positions),", "angle_table(np.zeros(n_positions),",
          "every position gets the code of position 0"),
    Plant("tf1_sinusoidal_vs_rope", ("the four terms add up",),
          "lessons.positional", "sliding_pair_scores",
          '"PE·PE": score(pe_m, pe_n)', '"PE·PE": score(pe_n, pe_m)',
          "the code-by-code term with the query's and the key's codes swapped"),
    Plant("tf1_sinusoidal_vs_rope", ("with bare codes the code-by-code term does not move",
                                     "sinusoidal_encoding is its formula"),
          "lessons.positional", "sinusoidal_encoding",
          "np.stack([np.sin(angles), np.cos(angles)]",
          "np.stack([np.sin(angles), np.cos(angle_table(np.arange(n_positions), rope_frequencies(d, base) ** 0.5))]",
          "the cosine columns with exponent i/d instead of 2i/d: sin and cos of one pair turn at different speeds"),
    Plant("tf1_sinusoidal_vs_rope", ("RoPE's score at every gap 0..40 is the same at 1,001 starts",),
          "lessons.positional", "rope_angles",
          "pos = np.asarray(positions, dtype=float)", "pos = np.minimum(np.asarray(positions, dtype=float), 511)",
          "a cos/sin cache of 512 rows, clipped instead of grown"),
    Plant("tf1_sinusoidal_vs_rope", ("RoPE's score changes with the gap",),
          "lessons.positional", "rope_angles",
          "return angle_table(pos, rope_frequencies(d, base))", "return angle_table(0 * pos, rope_frequencies(d, base))",
          "the positions never reach the angles: nothing turns"),
    Plant("tf1_sinusoidal_vs_rope", ("apply_rope is its formula",),
          "lessons.positional", "apply_rope",
          "cos, sin = np.cos(angles), np.sin(angles)", "cos, sin = np.sin(angles), np.cos(angles)",
          "cos and sin swapped: still a rotation by a multiple of the position, so every score claim holds"),
    Plant("tf1_sinusoidal_vs_rope", ("apply_rope is its formula",),
          "lessons.positional", "apply_rope",
          "rope_angles(x, positions, base)", "rope_angles(x, positions)",
          "the base ignored (10,000 always): right for the lab's own calls, wrong for Llama 3's 500,000"),
    Plant("tf1_sinusoidal_vs_rope", ("apply_rope is its formula",),
          "lessons.positional", "apply_rope",
          "rope_angles(x, positions, base)", "rope_angles(x, positions, base ** 0.5)",
          "the exponent i/d instead of 2i/d (base^(-i/d) = (base^0.5)^(-2i/d)): slower pairs, still relative"),
    Plant("tf1_sinusoidal_vs_rope", ("apply_rope is its formula",),
          "lessons.positional", "apply_rope",
          "x = np.asarray(x, dtype=float)", "x = np.asarray(x, dtype=np.float16).astype(float)",
          "x rounded to float16 before it turns: unit vectors stay exact, random ones do not"),
    Plant("tf1_sinusoidal_vs_rope", ("sinusoidal_encoding is its formula",),
          "lessons.positional", "sinusoidal_encoding",
          "np.stack([np.sin(angles), np.cos(angles)], axis=-1)", "np.stack([np.cos(angles), np.sin(angles)], axis=-1)",
          "cos in the even columns and sin in the odd ones: PE·PE is still a function of the gap"),
    # --- TF2: the two RoPE layouts (lessons.rope, lessons.notation) ---------------------------
    Plant("tf2_rope_layouts", ("converted interleaved -> half-split", "converted: the attention is the original's"),
          "lessons.rope", "conversion_permutation",
          "np.concatenate([np.arange(0, d_head, 2), np.arange(1, d_head, 2)])",
          "np.concatenate([np.arange(1, d_head, 2), np.arange(0, d_head, 2)])",
          "odd rows first: every pair turns the wrong way"),
    Plant("tf2_rope_layouts", ("converted half-split -> interleaved", "half_to_interleaved undoes"),
          "lessons.rope", "half_to_interleaved",
          "inverse = np.argsort(conversion_permutation(", "inverse = (conversion_permutation(",
          "the permutation applied again instead of its inverse"),
    Plant("tf2_rope_layouts", ("not converted, either direction", "not converted: the attention moves",
                               "both rotations are their formulas"),
          "lessons.rope", "apply_rope_half",
          "return rotate_with_table(x, *half_split_table(angles))", "return apply_rope(x, positions, base)",
          "the half-split code path calls the interleaved rotation"),
    Plant("tf2_rope_layouts", ("not converted: the score still depends only on the offset",),
          "lessons.rope", "half_split_table",
          "np.concatenate([angles, angles], axis=-1)", "np.concatenate([angles, angles[..., ::-1]], axis=-1)",
          "the second half of the table reads the speeds in reverse: not a rotation"),
    Plant("tf2_rope_layouts", ("mismatched cos/sin table",),
          "lessons.rope", "apply_rope_mismatched",
          "np.repeat(rope_angles(x, positions, base), 2, axis=-1)", "np.tile(rope_angles(x, positions, base), 2)",
          "the mismatched table laid out right after all: the bug the claim shows is gone"),
    Plant("tf2_rope_layouts", ("not converted: the attention looks valid",),
          "lessons.notation", "softmax",
          "return e / e.sum(axis=axis, keepdims=True)", "return e / e.sum()",
          "softmax divides by the whole array's sum, not each row's"),
    Plant("tf2_rope_layouts", ("both rotations are their formulas",),
          "lessons.rope", "apply_rope_half",
          "return rotate_with_table(x, *half_split_table(angles))",
          "return rotate_with_table(np.asarray(x, dtype=np.float16), *half_split_table(angles))",
          "the half-split rotation computed on a float16 copy of x: unit vectors stay exact, random ones do not"),
    Plant("tf2_rope_layouts", ("both rotations are their formulas",),
          "lessons.positional", "apply_rope",
          "cos, sin = np.cos(angles), np.sin(angles)", "cos, sin = np.sin(angles), np.cos(angles)",
          "the interleaved rotation with cos and sin swapped"),
    Plant("tf2_rope_layouts", ("causal_mask(n) is np.tril",),
          "lessons.attention", "causal_mask",
          "return np.tril(np.ones((n, n), dtype=bool))", "return np.triu(np.ones((n, n), dtype=bool))",
          "the mask transposed (np.triu): each query sees the keys after it"),
    # --- TF3: the KV cache (lessons.transformer, lessons.positional) -------------------------
    Plant("tf3_kv_cache", ("true position: cached logits equal the full pass",),
          "lessons.transformer", "TinyGPT._attention",
          "else np.arange(n_keys)", "else np.zeros(n_keys, dtype=int)",
          "the cached keys' positions forgotten (all 0): ALiBi's distances no longer differ key by key"),
    Plant("tf3_kv_cache", ("position 0 every step: rope, learned, sinusoidal and alibi",
                           "position 0 every step: each scheme that carries position"),
          "lessons.transformer", "TinyGPT.step",
          "start_pos = cache.length  #", "start_pos = cache.keys[0].shape[-2]  #",
          "the position read from the cached keys, so the lab's reset counter changes nothing"),
    Plant("tf3_kv_cache", ("position 0 every step: the scheme with no positions",),
          "lessons.transformer", "TinyGPT._attention",
          ("np.concatenate([cache.keys[i], K], axis=-2)", "np.concatenate([cache.values[i], V], axis=-2)"),
          ("np.concatenate([cache.keys[i][..., :cache.length, :], K], axis=-2)",
           "np.concatenate([cache.values[i][..., :cache.length, :], V], axis=-2)"),
          "keys kept up to the counter: a reset counter drops the cached keys"),
    Plant("tf3_kv_cache", ("position 0 every step: the RoPE model decodes exactly as",),
          "lessons.rope", "RotaryEmbedding._build",
          "half_split_table(angle_table(np.arange(n), self.theta))",
          "(1.1 * t for t in half_split_table(angle_table(np.arange(n), self.theta)))",
          "the table scaled by an attention factor no config asked for: position 0 no longer leaves q and k as they are"),
    Plant("tf3_kv_cache", ("true position: the cache holds each RoPE key rotated",),
          "lessons.transformer", "RotaryPositions.rotate",
          "return apply_rotary_emb(Q, K, cos, sin)", "return apply_rotary_emb(Q, K, cos, sin)[0], K",
          "the keys never rotated: the full pass and the cached path share the bug, so they still agree"),
    Plant("tf3_kv_cache", ("true position: cached logits equal the full pass",),
          "lessons.transformer", "TinyGPT.step",
          "start_pos = cache.length  #", "start_pos = cache.length + 1  #",
          "the new token placed one past the cache's length: the learned table raises at its 17th token (a crash)",
          crashes=True),
    Plant("tf3_kv_cache", ("true position: cached logits equal the full pass", "position 0 every step: rope, learned"),
          "lessons.transformer", "TinyGPT._attention",
          "else np.arange(n_keys)", "else np.arange(1, n_keys + 1)",
          "the cached keys' positions counted from 1: the first step's only key looks like a future one, "
          "ALiBi masks it and the softmax has a fully masked row (a crash)", crashes=True),
    Plant("tf3_kv_cache", ("alibi_slopes is the paper's rule", "alibi_bias is -m_h"),
          "lessons.alibi", "alibi_slopes",
          "_power_of_two_slopes(2 * closest)[0::2]", "_power_of_two_slopes(2 * closest)[1::2]",
          "the extra heads of a head count that is no power of two take the even slopes of 2c heads, repeating "
          "the first c: the decoder's 2 heads are right, so every decoding claim holds"),
    Plant("tf3_kv_cache", ("alibi_bias is -m_h",),
          "lessons.alibi", "alibi_bias_at",
          "np.where(gap >= 0, bias, -np.inf)", "np.where(gap >= 0, bias, -1e9)",
          "the keys after the query given -1e9 instead of -inf: softmax weighs them 0 all the same"),
    Plant("tf3_kv_cache", ("sinusoidal_encoding is its formula",),
          "lessons.positional", "sinusoidal_encoding",
          "angle_table(np.arange(n_positions),", "angle_table(np.arange(1, n_positions + 1),",
          "the table's rows counted from position 1: the full pass and the cache read the same shifted rows"),
    # --- TF4: stretching the context (lessons.context_extension, lessons.positional) ----------
    Plant("tf4_stretching_context", ("no scaling: the 18 slow pairs",),
          "lessons.context_extension", "trained_angle_ratio",
          "used = (new_len - 1) * inv_freq", "used = new_len * inv_freq",
          "the new length counted to new_len while training is counted to L - 1: two conventions mixed"),
    Plant("tf4_stretching_context", ("NTK-aware: all 18 slow pairs",),
          "lessons.positional", "ntk_scaled_base",
          "return float(base * scale ** (d / (d - 2)))", "return float(base * scale)",
          "the NTK-aware base raised by s, without the exponent d/(d-2)"),
    Plant("tf4_stretching_context", ("position interpolation, YaRN and Llama 3 keep every pair",
                                     "position interpolation slows pair 0 by 8"),
          "lessons.context_extension", "yarn_inv_freq",
          "return theta * (1 - ramp) + theta / factor * ramp", "return theta * ramp + theta / factor * (1 - ramp)",
          "YaRN's ramp read backwards: the fast pairs interpolated, the slow ones kept"),
    Plant("tf4_stretching_context", ("Llama 3 rule: every pair's speed, the middle band's included",),
          "lessons.context_extension", "llama3_inv_freq",
          "theta = np.asarray(theta, dtype=float)",
          "theta = np.asarray(theta, dtype=float)\n    low_freq_factor, high_freq_factor = high_freq_factor, low_freq_factor",
          "the low and high factors swapped: the middle band (pairs 36-45 in the example) moves, the fast and slow "
          "pairs do not"),
    Plant("tf4_stretching_context", ("YaRN: the attention factor",),
          "lessons.context_extension", "yarn_get_mscale",
          "return 0.1 * mscale * math.log(scale) + 1.0", "return 0.1 * mscale * math.log(scale)",
          "YaRN's attention factor without its + 1: 0.21 instead of 1.21 at s = 8, and no speed changes"),
    Plant("tf4_stretching_context", ("no scaling: the 18 slow pairs", "NTK-aware: all 18 slow pairs"),
          "lessons.positional", "rope_frequencies",
          "return base ** (-np.arange(0, d, 2) / d)", "return base ** (-np.arange(0, d, 2) / (2 * d))",
          "the exponent i/d instead of 2i/d: every pair turns a full circle in training, so there is no slow pair "
          "(and the print that names the first one raises IndexError, after the numbers the claims read)"),
    Plant("tf4_stretching_context", ("position interpolation, YaRN and Llama 3 keep", "position interpolation slows pair 0",
                                     "Llama 3 rule: every pair's speed"),
          "lessons.context_extension", "llama3_inv_freq",
          "divided = np.where(wavelength > long_wave, theta / factor, theta)",
          "divided = np.where(wavelength > long_wave, theta / factor, theta[::2])",
          "the kept speeds read every other pair: the Llama 3 rule raises ValueError (a crash); the claims about "
          "the other recipes alone still hold", crashes=True),
    Plant("tf4_stretching_context", ("d = 64, base 500,000, stretch 4: position interpolation",),
          "lessons.context_extension", "rope_inv_freq",
          "return linear_inv_freq(theta, factor), 1.0",
          "return linear_inv_freq(10000.0 ** (-np.arange(0, d, 2) / d), factor), 1.0",
          "position interpolation on the speeds of base 10,000 whatever the block's rope_theta: right for the "
          "example's base, wrong for Llama 3's 500,000"),
    Plant("tf4_stretching_context", ("d = 64, base 500,000, stretch 4: NTK-aware",),
          "lessons.positional", "ntk_scaled_base",
          "return float(base * scale ** (d / (d - 2)))", "return float(base * scale ** (128 / 126))",
          "NTK's exponent d/(d-2) written out for the example's head of 128: wrong for any other width"),
    # --- TF5: position ids with padding and packing (lessons.position_ids) ---------------------
    Plant("tf5_position_ids", ("forward_with_ids with ids 0..n-1 and the causal mask is TinyGPT.forward",),
          "lessons.position_ids", "forward_with_ids",
          "x = x + model.scheme.W_pos[ids]", "x = x + model.scheme.W_pos[ids + 1]",
          "the learned table read one row late, as a RoBERTa-style numbering from padding_idx + 1 would"),
    Plant("tf5_position_ids", ("ids and mask right: alone, left-padded and packed agree",),
          "lessons.position_ids", "position_ids_from_mask",
          "ids = np.cumsum(mask, axis=-1) - 1  #", "ids = np.cumsum(mask, axis=-1)  #",
          "ids from the mask counted from 1 (the cumulative sum without the minus one)"),
    Plant("tf5_position_ids", ("one offset for every token (left padding without ids",),
          "lessons.position_ids", "forward_with_ids",
          "*half_split_table(angle_table(ids, model.scheme.table.theta))",
          "*(t.astype(np.float32) for t in half_split_table(angle_table(ids, model.scheme.table.theta)))",
          "the cos/sin table stored in float32: shifted ids no longer round the same way"),
    Plant("tf5_position_ids", ("one offset for every token: the learned table is off",),
          "lessons.position_ids", "forward_with_ids",
          'if model.position == "learned":', 'if model.position == "learned_table":',
          "the table never added (the scheme's name misspelled): the learned model runs with no positions"),
    Plant("tf5_position_ids", ("attention not cut (reset ids with a causal mask",),
          "lessons.position_ids", "forward_with_ids",
          "softmax(np.where(allowed, scores, -np.inf))",
          "softmax(np.where(allowed & document_mask(document_ids_from_position_ids(ids)[0]), scores, -np.inf))",
          "the model also cuts wherever the ids restart, so a plain causal mask no longer leaks"),
    Plant("tf5_position_ids", ("M-RoPE after a video: the ids equal vLLM 0.33.0's",),
          "lessons.multimodal_rope", "get_rope_index",
          "current = int(ids.max()) + 1", "current += vision_id_advance(grid, spatial_merge_size)",
          "the text after an image or video resumes at its start + max(h', w') (transformers 5.3-5.24), "
          "below a long video's last time ids"),
    Plant("tf5_position_ids", ("M-RoPE after a video: the ids equal vLLM 0.33.0's",),
          "lessons.multimodal_rope", "get_rope_index",
          "else float(np.float32(step))", "else float(np.float32(step)) / 2",
          "the seconds per step read at half their value (as from a processor told 4 frames a second for a "
          "2-frame-a-second video): the text still resumes past the largest id, only the engines' ids differ"),
    Plant("tf5_position_ids", ("a batch of two rows padded 4 and 1",),
          "lessons.position_ids", "position_ids_from_mask",
          "ids = np.cumsum(mask, axis=-1) - 1  #",
          "ids = np.broadcast_to(np.cumsum(np.atleast_2d(mask)[0]) - 1, mask.shape)  #",
          "the first row's ids given to every row: right for a batch of one, 3 positions early for a row padded "
          "1 next to one padded 4"),
    Plant("tf5_position_ids", ("packed behind a one-token document",),
          "lessons.position_ids", "document_ids_from_position_ids",
          "return np.cumsum(step != 1, axis=-1)", "return np.cumsum(step < 0, axis=-1)",
          "a new document only where the id falls: a one-token document's 0 before the next document's 0 does "
          "not fall, so the two are read as one"),
)


def apply(plant: Plant) -> None:
    """Compile the edited function into its module (or class) and rebind it everywhere."""
    module = importlib.import_module(plant.module)
    owner, _, name = plant.function.rpartition(".")
    holder = getattr(module, owner) if owner else module
    original = getattr(holder, name)
    source = textwrap.dedent(inspect.getsource(original))
    olds, news = (plant.old, plant.new) if isinstance(plant.old, tuple) else ((plant.old,), (plant.new,))
    for old, new in zip(olds, news, strict=True):
        count = source.count(old)
        if count != 1:
            raise SystemExit(f"planted bug for {plant.lab}: {plant.module}.{plant.function} holds {old!r} "
                             f"{count} times, not once; update tests/planted.py")
        source = source.replace(old, new)
    namespace = dict(vars(module))
    filename = f"<planted {plant.module}.{plant.function}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)  # so inspect shows it
    exec(compile(source, filename, "exec"), namespace)
    swap(f"{plant.module}.{plant.function}", namespace[name])  # where a learner's function would go


def run_planted(plant: Plant) -> subprocess.CompletedProcess:
    """Run the plant's lab in a fresh interpreter with the bug in place."""
    index = PLANTS.index(plant)
    return subprocess.run([sys.executable, "-m", "tests.planted", plant.lab, str(index)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "MPLBACKEND": "Agg"})


def main(argv: list[str]) -> None:
    lab, index = argv[0], int(argv[1])
    plant = PLANTS[index]
    if plant.lab != lab:
        raise SystemExit(f"plant {index} belongs to {plant.lab}, not {lab}")
    apply(plant)
    sys.argv = [str(ROOT / "labs" / f"{lab}.py")]
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
