"""The decoder's explorer (modelcard/explorer.py), in Python: NTK-aware compared as a practitioner sets it,
where the explorer starts, the config's own block as its first row, and distances capped by a window or
a chunk (issue 43: a hostile review of the explorer, H1 and H2). The browser's port is held to these
functions in Node (tests/test_model_card_node.py) and on the page (tests/test_decoder_page_browser.py)."""

from __future__ import annotations

import numpy as np
from pytest import approx

from lessons.context_extension import (dynamic_ntk_stretch, ntk_scaled_base, rope_frequencies, rope_inv_freq,
                                       trained_angle_ratio)
from lessons.model_card import COMPARED, compare_methods, explain
from lessons.tools.model_types import gallery
from modelcard.engines import scaled_reach, vllm_max_model_len
from modelcard.explorer import FALLBACK, block_measures, explorer_start, group_window, method_measures

GALLERY = gallery()


def _card(slug: str):
    return explain(GALLERY[slug]["config"])


def test_ntk_aware_is_the_base_raised_for_the_stretch():
    """NTK-aware at s is the lesson's base raised for s, which is what a dynamic block with factor 1
    computes at s·L; a dynamic block with factor s read at s·L raises it for s² − s + 1 (241 at 16), the
    double count that slowed every pair back within the trained angles."""
    group, L, s = _card("llama-3.1-8b").rope[0], 8192, 16.0
    d = group.rotary_dim
    ntk = compare_methods(group, L, s)["NTK-aware"]
    assert np.allclose(ntk, rope_frequencies(d, ntk_scaled_base(group.base, s, d)) / group.default_inv_freq, rtol=1e-12)
    factor_one, _ = rope_inv_freq(d, {"rope_type": "dynamic", "rope_theta": group.base, "factor": 1.0},
                                  max_position_embeddings=L, seq_len=round(L * s))
    assert np.allclose(ntk, factor_one / group.default_inv_freq, rtol=1e-12)
    assert dynamic_ntk_stretch(s, round(L * s), L) == s * s - s + 1  # what the old row computed
    assert COMPARED["NTK-aware"]["rope_type"] == "ntk" and "dynamic" not in {b["rope_type"] for b in COMPARED.values()}


def test_ntk_aware_leaves_pairs_past_the_trained_angles():
    """Llama 3.1's head at 16×: NTK-aware slows its slowest pair by the full 16 but the middle pairs too
    little, so some still reach angles training never showed (lessons/context_extension.py); every
    other rule keeps them within, and no scaling leaves the most."""
    group, L, s = _card("llama-3.1-8b").rope[0], 8192, 16.0
    m = method_measures(group.base, group.rotary_dim, L, s)
    ratio = trained_angle_ratio(rope_frequencies(128, ntk_scaled_base(group.base, s, 128)), group.default_inv_freq,
                                L, round(L * s))
    assert m["NTK-aware"]["past"] == int((ratio > L / (L - 1)).sum()) > 0
    assert np.isclose(m["NTK-aware"]["largest"], ratio.max()) and m["NTK-aware"]["largest"] > 1
    assert np.isclose(m["NTK-aware"]["slowest"], s)
    assert 0 < m["NTK-aware"]["past"] < m["no scaling"]["past"]
    assert all(m[k]["past"] == 0 for k in ("linear (PI)", "YaRN", "Llama 3 rule"))


def test_the_explorer_starts_where_the_config_serves_or_its_block_reaches():
    """At the larger of served ÷ trained and the stretch the block is made for: Llama 3.1 at 16×
    (131,072 served), Qwen2.5 with its YaRN block at its factor 4 (it serves its trained 32,768);
    "stated" is the card's, as in the verdict (Llama 2's 4,096 is the config limit)."""
    for slug in GALLERY:
        card = _card(slug)
        if not card.rope:
            continue
        start = explorer_start(card)
        trained = card.trained_length or card.max_length or FALLBACK["trained"]
        reach = scaled_reach(card)
        assert start["stretch"] == max(1.0, vllm_max_model_len(card) / trained, reach[0] / trained if reach else 1), slug
        assert start["stated"] is card.trained_stated, slug
    qwen = _card("qwen2.5-7b-yarn")
    assert vllm_max_model_len(qwen) == qwen.trained_length
    assert explorer_start(qwen)["stretch"] == qwen.rope[0].parameters["factor"] > 1
    assert explorer_start(_card("llama-3.1-8b"))["stretch"] == 131072 / 8192
    assert explorer_start(_card("llama-2-7b"))["stated"] is False
    import lessons.model_card as lesson  # the page's words for it
    assert f"Qwen2.5's YaRN block at {explorer_start(qwen)['stretch']:g}×" in " ".join(lesson.__doc__.split())


def test_the_first_row_is_the_configs_own_block():
    """The block's row uses the card's own speeds (the report's): Llama 3.1's llama3 block at 131,072
    leaves the pairs its rule keeps and blends past the angles of its 8,192 pretraining positions, fewer
    far than no scaling; Qwen2.5's YaRN block at 4× keeps every pair within them."""
    llama = _card("llama-3.1-8b")
    group, L = llama.rope[0], llama.trained_length
    own = block_measures(llama, L, 131072)
    ratio = trained_angle_ratio(group.inv_freq, group.default_inv_freq, L, 131072)
    assert own["past"] == int((ratio > L / (L - 1)).sum()) > 0
    assert np.isclose(own["largest"], ratio.max())
    assert 1 < own["largest"] < method_measures(group.base, 128, L, 16.0)["no scaling"]["largest"]
    assert np.isclose(own["slowest"], group.parameters["factor"])
    qwen = _card("qwen2.5-7b-yarn")
    start = explorer_start(qwen)
    assert block_measures(qwen, start["trained"], round(start["trained"] * start["stretch"]))["past"] == 0


def test_a_dynamic_block_is_read_at_the_served_length():
    """A dynamic block's row follows the length, as transformers does: factor 2 at 4× raises the base
    for 2·4 − 1 = 7 (dynamic_ntk_stretch), its speeds are not the trained ones."""
    config = {"model_type": "llama", "head_dim": 128, "num_attention_heads": 8, "hidden_size": 1024,
              "num_hidden_layers": 2, "max_position_embeddings": 4096,
              "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}, "rope_theta": 10000.0}
    card = explain(config)
    own = block_measures(card, 4096, 16384)
    base = ntk_scaled_base(10000.0, dynamic_ntk_stretch(2.0, 16384, 4096), 128)
    ratio = trained_angle_ratio(rope_frequencies(128, base), card.rope[0].default_inv_freq, 4096, 16384)
    assert own["past"] == int((ratio > 4096 / 4095).sum()) and np.isclose(own["largest"], ratio.max())
    assert explorer_start(card, 16384)["stated"] is False


def test_a_window_or_a_chunk_caps_the_distance():
    """Llama 4 Scout's RoPE layers attend within chunks of attention_chunk_size, Mistral 7B's within its
    sliding window: no distance they meet is longer, so no pair goes past the trained angles at any
    stretch; Gemma 3's sliding local group, its second, is named with its window."""
    scout = _card("llama-4-scout")
    start = explorer_start(scout)
    chunk = GALLERY["llama-4-scout"]["config"]["text_config"]["attention_chunk_size"]
    assert (start["window"], start["kind"]) == (chunk, "chunk") and scout.chunk == chunk and start["stretch"] > 1
    capped = method_measures(start["base"], start["width"], start["trained"], start["stretch"], start["window"])
    free = method_measures(start["base"], start["width"], start["trained"], start["stretch"])
    assert free["no scaling"]["past"] > 0 and all(m["past"] == 0 for m in capped.values())
    import lessons.model_card as lesson  # the page's words for it
    assert f"Llama 4 Scout's chunks of {chunk:,}) are read at that distance" in " ".join(lesson.__doc__.split())
    assert block_measures(scout, start["trained"], round(start["trained"] * start["stretch"]), start["window"])["past"] == 0
    mistral = _card("mistral-7b")
    assert group_window(mistral, mistral.rope[0]) == (mistral.sliding_window, "sliding window")
    gemma = _card("gemma-3-4b")
    assert group_window(gemma, gemma.rope[0]) == (None, None)
    assert explorer_start(gemma)["others"] == [{"group": "sliding_attention (29 layers)", "rope_type": "default",
                                                "window": gemma.sliding_window, "kind": "sliding window"}]


def test_the_explorer_starts_at_the_group_chosen():
    """A config with several RoPE groups (Gemma 3's global layers, base 1,000,000 with a linear block,
    and its sliding local layers, base 10,000; ModernBERT's) starts the explorer at the group the page's
    "Layer group" menu picks: its base, rotary width, window and own block, the rest named as others;
    group 0 is the default (issue 44 follow-up)."""
    several = {slug: _card(slug) for slug in GALLERY if len(_card(slug).rope) > 1}
    assert "gemma-3-4b" in several
    for slug, card in several.items():
        assert explorer_start(card) == explorer_start(card, group=0)
        for i, group in enumerate(card.rope):
            start = explorer_start(card, group=i)
            window = group_window(card, group)
            assert (start["base"], start["width"], (start["window"], start["kind"])) == (group.base, group.rotary_dim, window), slug
            assert [o["rope_type"] for o in start["others"]] == [g.rope_type for j, g in enumerate(card.rope) if j != i]
            assert len(start["others"]) == len(card.rope) - 1 and start["group"].startswith(group.layer_type)
            L, served = start["trained"], 4 * start["trained"]
            own = block_measures(card, L, served, start["window"], group=i)
            ratio = trained_angle_ratio(group.inv_freq, group.default_inv_freq, L, min(served, start["window"] or served))
            turning = group.default_inv_freq > 0
            assert own["past"] == int((ratio[turning] > L / (L - 1)).sum()), (slug, i)
            assert np.isclose(own["largest"], ratio[turning].max()), (slug, i)
            scale = group.inv_freq[turning] / group.default_inv_freq[turning]  # the group's own speeds, not another's
            assert (own["untouched"], own["slowest"]) == (int((abs(scale - 1) <= 1e-9).sum()), approx(1 / scale.min())), (slug, i)
    gemma = several["gemma-3-4b"]
    local = explorer_start(gemma, group=1)
    assert (local["base"], local["window"]) == (10000.0, gemma.sliding_window) != (explorer_start(gemma)["base"], None)
    L = local["trained"]
    assert block_measures(gemma, L, 4 * L, group=1) != block_measures(gemma, L, 4 * L)
