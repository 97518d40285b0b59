"""lessons.attention_sinks against gpt-oss's own eager attention in transformers 5.24 (committed vectors from
tests/reference/_attention_sinks_reference.py, no torch needed), and the page's identities: the sink as an
extra key with no value, a sink of -inf as plain attention, StreamingLLM's kept tokens and positions, RoPE
re-rotation of cached keys, and the window masks. T5's buckets (lessons.alibi) are checked from the same file
in tests/test_alibi.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons import attention_sinks as sk
from lessons.attention import scaled_dot_product_attention
from lessons.rope import apply_rope_half

DATA = json.loads((Path(__file__).parent / "data" / "attention_sinks_vectors.json").read_text(encoding="utf-8"))
# transformers computed in float32: softmax and products over 10 keys of width 8 land within ~3e-7 of float64.
ATOL = 1e-6


def test_vectors_record_their_library():
    assert DATA["versions"]["transformers"].startswith("5.24")
    assert {r["mask_kind"] for r in DATA["gpt_oss_sink_attention"]} == {"causal", "sliding_window"}


@pytest.mark.parametrize("rec", DATA["gpt_oss_sink_attention"], ids=lambda r: r["mask_kind"])
def test_sink_attention_matches_gpt_oss_eager_attention(rec):
    out, weights = sk.sink_attention(rec["q"], rec["k"], rec["v"], rec["sinks"], mask=np.array(rec["mask"]),
                                     scaling=rec["scaling"])
    np.testing.assert_allclose(out, rec["out"], atol=ATOL, rtol=0)
    np.testing.assert_allclose(weights, rec["weights"], atol=ATOL, rtol=0)
    # the sinks matter here: without them the weights would sum to 1 and the outputs would differ
    plain, _ = sk.sink_attention(rec["q"], rec["k"], rec["v"], [-np.inf] * 4, mask=np.array(rec["mask"]),
                                 scaling=rec["scaling"])
    assert np.max(np.abs(plain - np.array(rec["out"]))) > 1e-2


def test_window_mask_is_transformers_sliding_window():
    rec = next(r for r in DATA["gpt_oss_sink_attention"] if r["window"])
    n = len(rec["mask"])
    np.testing.assert_array_equal(sk.causal_window_mask(n, rec["window"]), np.array(rec["mask"]))
    causal = next(r for r in DATA["gpt_oss_sink_attention"] if not r["window"])
    np.testing.assert_array_equal(sk.causal_window_mask(n, n), np.array(causal["mask"]))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 9), st.integers(0, 1000), st.floats(-5, 5))
def test_sink_is_an_extra_key_with_no_value(n_heads, seq_len, seed, sink):
    Q, K, V = sk._example_qkv(n_heads, seq_len, 4, seed)
    sinks = np.linspace(sink, -sink, n_heads)
    mask = sk.causal_window_mask(seq_len, 3)
    a, wa = sk.sink_attention(Q, K, V, sinks, mask)
    b, wb = sk.sink_as_extra_key(Q, K, V, sinks, mask)
    np.testing.assert_allclose(a, b, atol=1e-12)
    np.testing.assert_allclose(wa, wb, atol=1e-12)
    # the sink's share: 1 minus what the real keys got, always inside (0, 1)
    share = 1 - wa.sum(-1)
    assert np.all((share > 0) & (share < 1))


def test_minus_infinite_sink_is_plain_attention_and_groups_repeat_kv():
    Q, K, V = sk._example_qkv(4, 5, 4, 3)
    mask = np.tril(np.ones((5, 5), dtype=bool))
    out, w = sk.sink_attention(Q, K[:2], V[:2], [-np.inf] * 4, mask)
    ref, ref_w = scaled_dot_product_attention(Q, np.repeat(K[:2], 2, 0), np.repeat(V[:2], 2, 0), mask=mask)
    np.testing.assert_allclose(out, ref, atol=1e-12)
    np.testing.assert_allclose(w.sum(-1), 1.0)


def test_sink_share_closed_form():
    assert sk.sink_share(0.0, 1) == pytest.approx(0.5)
    assert sk.sink_share(np.log(16), 16) == pytest.approx(0.5)
    # the same logit takes less when more keys compete
    assert sk.sink_share(2.0, 128) < sk.sink_share(2.0, 16)


@given(st.integers(1, 200), st.integers(0, 6), st.integers(1, 50))
def test_streaming_cache_keeps_sinks_and_window(n_seen, n_sink, window):
    kept = sk.streaming_kept(n_seen, n_sink, window)
    assert kept.size == min(n_seen, n_sink + window)
    assert np.all(np.diff(kept) > 0)
    if n_seen > n_sink + window:
        assert kept[:n_sink].tolist() == list(range(n_sink))
        assert kept[n_sink:].tolist() == list(range(n_seen - window, n_seen))
    cache = sk.streaming_distances(n_seen, n_sink, window, True)
    text = sk.streaming_distances(n_seen, n_sink, window, False)
    assert cache.max() <= n_sink + window  # never further than the cache is long
    if n_sink or n_seen <= window:
        assert text.max() == n_seen  # the first token, kept, is n_seen back in the text
    assert cache[-1] == text[-1] == 1  # the newest key is one step back either way


def test_streaming_scores_are_stationary_only_within_the_cache():
    rng = np.random.default_rng(0)
    q, K = rng.standard_normal(8), rng.standard_normal((5, 8))
    at = {n: (sk.streaming_scores(q, K, n, 2, 3, True), sk.streaming_scores(q, K, n, 2, 3, False))
          for n in (10, 40)}
    np.testing.assert_allclose(at[10][0], at[40][0], atol=1e-12)  # renumbered: same scores at every step
    np.testing.assert_allclose(at[10][1][2:], at[40][1][2:], atol=1e-12)  # the window's keys: same distances
    assert np.max(np.abs(at[10][1][:2] - at[40][1][:2])) > 1e-3  # the sinks drift further away


@given(st.integers(-50, 50), st.integers(-50, 50))
def test_rerotating_a_rotated_key_adds_the_positions(p, s):
    k = np.random.default_rng(1).standard_normal((1, 8))
    np.testing.assert_allclose(sk.rerotate(apply_rope_half(k, [p]), s), apply_rope_half(k, [p + s]), atol=1e-12)


def test_flash_window_off_by_one():
    n, w = 12, 4
    np.testing.assert_array_equal(sk.flash_window_mask(n, sk.flash_window_size(w)), sk.causal_window_mask(n, w))
    wrong = sk.flash_window_mask(n, (w, 0))  # the raw sliding_window passed as window_size
    assert wrong.sum(-1).max() == w + 1


def test_visibility_and_eviction():
    assert sk.key_visibility(4).tolist() == [4, 3, 2, 1]
    np.testing.assert_allclose(sk.evicted_weights([0.7, 0.1, 0.1, 0.1], [0]), [1 / 3] * 3)
    with pytest.raises(ValueError):
        sk.evicted_weights([1.0], [0])


def test_gpt_oss_sink_count_from_the_gallery():
    assert sk.sink_parameter_count(sk._gallery_config("gpt-oss-20b")) == 64 * 24


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 8), st.integers(0, 1000))
def test_a_sink_logit_of_zero_is_softmax_off_by_one(n_heads, seq_len, seed):
    # StreamingLLM's "Zero Sink" (arXiv:2309.17453, §3.3, eq. 2): e^x_i / (1 + Σ_j e^x_j)
    Q, K, V = sk._example_qkv(n_heads, seq_len, 4, seed)
    mask = sk.causal_window_mask(seq_len, 3)
    scores = np.where(mask, Q @ np.swapaxes(K, -1, -2) / 2, -np.inf)  # d = 4: scale 1/2
    _, w = sk.sink_attention(Q, K, V, [0.0] * n_heads, mask)
    by_hand = np.exp(scores) / (1 + np.exp(scores).sum(-1, keepdims=True))  # small scores: no overflow here
    np.testing.assert_allclose(sk.softmax_off_by_one(scores), by_hand, atol=1e-12)
    np.testing.assert_allclose(w, by_hand, atol=1e-12)
    # large scores: the shifted form must not overflow and still leave the extra 1 in the denominator
    big = sk.softmax_off_by_one([800.0, 800.0 + np.log(3.0)])
    np.testing.assert_allclose(big, [0.25, 0.75], atol=1e-12)
    assert sk.softmax_off_by_one([0.0, 0.0]).tolist() == pytest.approx([1 / 3, 1 / 3])


def test_mistral_reference_counts_w_plus_one_reading_a_prompt_and_w_generating():
    """Mistral 7B's reference code (mistralai/mistral-inference one_file_ref.py): the prompt's mask is
    torch.triu(causal, diagonal=-W), keys i - W .. i; generation writes position p to slot p % W of a
    W-slot cache and reads it back. The first is FlashAttention's (W, 0), the second transformers' W."""
    n, w = 12, 4
    prefill = np.triu(np.tril(np.ones((n, n), dtype=bool)), -w)
    np.testing.assert_array_equal(prefill, sk.flash_window_mask(n, (w, 0)))
    assert prefill.sum(-1).max() == w + 1
    slots = [None] * w  # the rolling buffer: which position each slot holds
    for p in range(n):
        slots[p % w] = p
        seen = sorted(s for s in slots if s is not None)
        assert seen == sk.causal_window_mask(n, w)[p].nonzero()[0].tolist()
