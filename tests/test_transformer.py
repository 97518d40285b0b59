"""lessons.transformer: TinyGPT against a loop-by-loop reference, the KV cache
against the full pass for every position scheme, pluggable position schemes,
RoPE's offset-only scores, the learned table's ceiling and the multiply-add
counts. The page's numbers are checked by its `# →` lines (tests/test_prose.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons import transformer as tf
from lessons.alibi import alibi_bias_at, alibi_slopes
from lessons.positional import sinusoidal_encoding
from lessons.rope import apply_rope_half
from lessons.transformer import POSITIONS, TINY, PositionScheme, TinyGPT, decode_multiply_adds, demo_tokens

RELATIVE = ["rope", "alibi", "none"]


# ---------------------------------------------------------------------------
# An independent reference: the same weights, computed with explicit loops
# ---------------------------------------------------------------------------


def reference_logits(model: TinyGPT, tokens, start_pos: int = 0) -> np.ndarray:
    """Token by token, head by head, key by key, with math-module softmax.
    Weights are (d_out, d_in), applied as x @ W.T."""
    d, H, dh = model.d_model, model.n_heads, model.d_head
    pos = start_pos + np.arange(len(tokens))
    x = model.W_emb[np.asarray(tokens)].copy()
    if model.position == "learned":
        x += model.scheme.W_pos[pos]
    elif model.position == "sinusoidal":
        x += sinusoidal_encoding(int(pos[-1]) + 1, d)[pos]

    def norm(v, g, b):
        if model.norm == "layernorm":
            mu = v.mean()
            return (v - mu) / math.sqrt(((v - mu) ** 2).mean() + 1e-5) * g + b
        return v / math.sqrt((v**2).mean() + 1e-5) * g

    slopes = alibi_slopes(H)
    for L in model.layers:
        h = np.stack([norm(row, L["g1"], L["b1"]) for row in x])
        Q, K, V = h @ L["W_q"].T, h @ L["W_k"].T, h @ L["W_v"].T
        out = np.zeros_like(x)
        for head in range(H):
            cols = slice(head * dh, (head + 1) * dh)
            q, k, v = Q[:, cols], K[:, cols], V[:, cols]
            if model.position == "rope":
                q, k = apply_rope_half(q, pos), apply_rope_half(k, pos)
            for i in range(len(tokens)):
                s = [float(q[i] @ k[j]) / math.sqrt(dh) for j in range(i + 1)]
                if model.position == "alibi":
                    s = [s[j] - slopes[head] * (i - j) for j in range(i + 1)]
                top = max(s)
                e = [math.exp(a - top) for a in s]
                out[i, cols] = sum(e[j] / sum(e) * v[j] for j in range(i + 1))
        x = x + out @ L["W_o"].T
        h = np.stack([norm(row, L["g2"], L["b2"]) for row in x])
        a = h @ L["W_1"].T + L["c_1"]
        x = x + (0.5 * a * (1 + np.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a**3)))) @ L["W_2"].T + L["c_2"]
    x = np.stack([norm(row, model.g_f, model.b_f) for row in x])
    return x @ (model.W_emb if model.tie_embeddings else model.W_out).T


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("norm,tied", [("layernorm", True), ("rmsnorm", False)])
def test_forward_matches_the_loop_reference(position, norm, tied):
    model = TinyGPT(**TINY, position=position, norm=norm, tie_embeddings=tied, seed=3)
    tokens = demo_tokens(7, seed=1)
    start = 0 if position == "learned" else 20  # past max_len where the scheme allows it
    assert np.allclose(model.forward(tokens, start_pos=start), reference_logits(model, tokens, start), atol=1e-9)


# ---------------------------------------------------------------------------
# The KV cache reproduces the full pass
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("norm,tied", [("layernorm", True), ("rmsnorm", False)])
def test_cached_decoding_equals_forward(position, norm, tied):
    n = 12 if position == "learned" else 24  # the others run past max_len = 16
    model = TinyGPT(**TINY, position=position, norm=norm, tie_embeddings=tied, seed=5)
    tokens = demo_tokens(n, seed=2)
    full = model.forward(tokens)
    cache = model.new_cache()
    stepped = np.stack([model.step(int(t), cache) for t in tokens])
    assert stepped.shape == full.shape == (n, TINY["vocab_size"])
    assert np.abs(stepped - full).max() <= 1e-9
    assert cache.length == n
    assert all(k.shape == (TINY["n_heads"], n, model.d_head) for k in cache.keys + cache.values)


def test_cached_keys_are_stored_rotated():
    model = TinyGPT(**TINY, position="rope")
    tokens = demo_tokens(5)
    cache = model.new_cache()
    for t in tokens:
        model.step(int(t), cache)
    # layer 0's keys, recomputed from scratch and rotated at their positions
    L = model.layers[0]
    h = tf.layer_norm(model.W_emb[tokens], L["g1"], L["b1"])
    K = (h @ L["W_k"].T).reshape(5, model.n_heads, model.d_head).transpose(1, 0, 2)
    assert np.allclose(cache.keys[0], apply_rope_half(K, np.arange(5)), atol=1e-12)


class _HandMadeALiBi(PositionScheme):
    """A scheme written outside the lesson, through the public hooks only."""

    name = "hand-made alibi"

    def setup(self, rng, d_model, n_heads, max_len):
        self.n_heads = n_heads

    def score_bias(self, query_positions, key_positions):
        return alibi_bias_at(self.n_heads, query_positions, key_positions)


def test_a_scheme_object_plugs_in_through_its_hooks():
    mine = TinyGPT(**TINY, position=_HandMadeALiBi(), seed=4)
    built_in = TinyGPT(**TINY, position="alibi", seed=4)
    assert mine.position == "hand-made alibi" and built_in.position == "alibi"
    tokens = demo_tokens(20)  # past max_len = 16
    assert np.array_equal(mine.forward(tokens, start_pos=3), built_in.forward(tokens, start_pos=3))
    cache = mine.new_cache()
    stepped = np.stack([mine.step(int(t), cache) for t in tokens])
    assert np.abs(stepped - built_in.forward(tokens)).max() <= 1e-9


def test_alibi_bias_reaches_the_scores():
    # same seed and neither scheme draws weights, so only the bias differs
    tokens = demo_tokens(8)
    plain = TinyGPT(**TINY, position="none", seed=1)
    scores = plain.attention_scores(tokens)  # (n_heads, seq, seq), before mask and bias
    z = scores + alibi_bias_at(TINY["n_heads"], np.arange(8), np.arange(8))
    expected = np.exp(z - z.max(axis=-1, keepdims=True))
    expected /= expected.sum(axis=-1, keepdims=True)
    got = TinyGPT(**TINY, position="alibi", seed=1).attention_weights(tokens)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert not np.allclose(got, plain.attention_weights(tokens))


def test_weights_are_stored_out_by_in():
    model = TinyGPT(**TINY, tie_embeddings=False)
    d, V = TINY["d_model"], TINY["vocab_size"]
    L = model.layers[0]
    assert L["W_q"].shape == (d, d) and L["W_1"].shape == (4 * d, d) and L["W_2"].shape == (d, 4 * d)
    assert model.W_out.shape == (V, d) and model.W_emb.shape == (V, d)


# ---------------------------------------------------------------------------
# RoPE scores depend only on offsets; which schemes notice a shift
# ---------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(shift=st.integers(1, 5000), seed=st.integers(0, 1000), layer=st.sampled_from([0, 1]))
def test_rope_scores_depend_only_on_offsets(shift, seed, layer):
    model = TinyGPT(**TINY, position="rope", seed=seed % 7)
    tokens = demo_tokens(6, seed=seed)
    a = model.attention_scores(tokens, start_pos=0, layer=layer)
    b = model.attention_scores(tokens, start_pos=shift, layer=layer)
    assert a.shape == (TINY["n_heads"], 6, 6)
    assert np.allclose(a, b, rtol=0, atol=1e-9)


def test_layer0_scores_match_a_direct_computation():
    model = TinyGPT(**TINY, position="rope", seed=2)
    tokens, s = demo_tokens(6), 9
    L = model.layers[0]
    h = tf.layer_norm(model.W_emb[tokens], L["g1"], L["b1"])
    split = lambda M: M.reshape(6, model.n_heads, model.d_head).transpose(1, 0, 2)  # noqa: E731
    pos = s + np.arange(6)
    Q, K = apply_rope_half(split(h @ L["W_q"].T), pos), apply_rope_half(split(h @ L["W_k"].T), pos)
    expected = Q @ K.transpose(0, 2, 1) / np.sqrt(model.d_head)
    assert np.allclose(model.attention_scores(tokens, start_pos=s), expected, atol=1e-12)
    # and without RoPE the layer-0 scores carry no position at all
    plain = split(h @ L["W_q"].T) @ split(h @ L["W_k"].T).transpose(0, 2, 1) / np.sqrt(model.d_head)
    assert not np.allclose(model.attention_scores(tokens, start_pos=s), plain)


@pytest.mark.parametrize("position", RELATIVE)
def test_relative_schemes_ignore_where_the_sequence_starts(position):
    for shift in (1, 5, 40):
        assert tf.shift_change(position, shift) < 1e-9


@pytest.mark.parametrize("position", ["learned", "sinusoidal"])
def test_absolute_schemes_notice_a_shift(position):
    assert tf.shift_change(position, 5) > 1e-3


# ---------------------------------------------------------------------------
# The learned table's ceiling
# ---------------------------------------------------------------------------


def test_learned_past_max_len_raises_naming_position_and_table_size():
    model = TinyGPT(**TINY, position="learned")
    model.forward(demo_tokens(16))  # exactly fills the table
    with pytest.raises(ValueError) as info:
        model.forward(demo_tokens(4), start_pos=14)
    assert "position 16" in str(info.value) and "max_len = 16" in str(info.value)
    cache = model.new_cache()
    for t in demo_tokens(16):
        model.step(int(t), cache)
    with pytest.raises(ValueError, match="position 16.*max_len = 16"):
        model.step(1, cache)


@pytest.mark.parametrize("position", [p for p in POSITIONS if p != "learned"])
def test_other_schemes_run_past_max_len(position):
    model = TinyGPT(**TINY, position=position)
    assert model.forward(demo_tokens(5), start_pos=3 * TINY["max_len"]).shape == (5, TINY["vocab_size"])
    assert np.all(np.isfinite(model.forward(demo_tokens(2 * TINY["max_len"]))))


# ---------------------------------------------------------------------------
# Pieces: norms, GELU, parameter count
# ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), scale=st.floats(0.1, 100))
def test_norms_standardise(seed, scale):
    x = scale * np.random.default_rng(seed).normal(size=(4, 32)) + 3.0
    ln = tf.layer_norm(x, np.ones(32), np.zeros(32))
    assert np.allclose(ln.mean(axis=-1), 0, atol=1e-9) and np.allclose(ln.std(axis=-1), 1, atol=1e-2)
    rms = tf.rms_norm(x, np.ones(32))
    assert np.allclose(np.sqrt((rms**2).mean(axis=-1)), 1, atol=1e-3)


def test_gelu_is_close_to_the_erf_form():
    xs = np.linspace(-6, 6, 121)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in xs])
    assert np.abs(tf.gelu(xs) - exact).max() < 1e-3
    assert tf.gelu(np.array([0.0]))[0] == 0.0


def test_parameter_count_by_hand():
    d, V, L, T = TINY["d_model"], TINY["vocab_size"], TINY["n_layers"], TINY["max_len"]
    per_block = 2 * 2 * d + 4 * d * d + d * 4 * d + 4 * d + 4 * d * d + d
    tied = V * d + L * per_block + 2 * d
    assert TinyGPT(**TINY).n_parameters() == tied
    assert TinyGPT(**TINY, tie_embeddings=False).n_parameters() == tied + d * V
    assert TinyGPT(**TINY, position="learned").n_parameters() == tied + T * d
    assert TinyGPT(**TINY, norm="rmsnorm").n_parameters() == tied - (2 * L + 1) * d


# ---------------------------------------------------------------------------
# Counting work: the formula against the model's own count
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("n", [1, 2, 7, 20])
def test_multiply_adds_match_the_running_count(position, n):
    if position == "learned" and n > TINY["max_len"]:
        n = TINY["max_len"]
    model = TinyGPT(**TINY, position=position)
    args = (n, TINY["d_model"], TINY["n_layers"], TINY["vocab_size"])
    tokens = demo_tokens(n)
    model.multiply_adds = 0
    model.forward(tokens)
    assert model.multiply_adds == decode_multiply_adds(*args, cached=False)
    cache = model.new_cache()
    for t in tokens[:-1]:
        model.step(int(t), cache)
    model.multiply_adds = 0
    model.step(int(tokens[-1]), cache)
    assert model.multiply_adds == decode_multiply_adds(*args, cached=True)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 5000), d=st.integers(1, 2000), layers=st.integers(1, 100), vocab=st.integers(1, 10**5))
def test_no_cache_costs_exactly_n_times_a_cached_step(n, d, layers, vocab):
    assert decode_multiply_adds(n, d, layers, vocab, cached=False) == n * decode_multiply_adds(n, d, layers, vocab)


def test_generation_total_is_the_sum_of_steps():
    total = tf.generation_multiply_adds(5, 8, 2, 11)
    assert total == sum(decode_multiply_adds(n, 8, 2, 11) for n in range(1, 6))


# ---------------------------------------------------------------------------
# Bad input names the argument
# ---------------------------------------------------------------------------


def test_bad_input_raises_value_error_naming_the_argument():
    with pytest.raises(ValueError, match="position"):
        TinyGPT(**TINY, position="relative")
    with pytest.raises(ValueError, match="norm"):
        TinyGPT(**TINY, norm="batchnorm")
    with pytest.raises(ValueError, match="n_heads"):
        TinyGPT(**{**TINY, "n_heads": 3})
    with pytest.raises(ValueError, match="tokens"):
        TinyGPT(**TINY).forward(np.array([0, TINY["vocab_size"]]))
    with pytest.raises(ValueError, match="start_pos"):
        TinyGPT(**TINY).forward(demo_tokens(3), start_pos=-1)
    with pytest.raises(ValueError, match="layer"):
        TinyGPT(**TINY).attention_scores(demo_tokens(3), layer=2)
    with pytest.raises(ValueError, match="n_context"):
        decode_multiply_adds(0, 8, 1, 10)


# ---------------------------------------------------------------------------
# Demo
# ---------------------------------------------------------------------------


def test_demo_runs(capsys):
    tf.demo()
    assert "max_len = 16" in " ".join(capsys.readouterr().out.split())
