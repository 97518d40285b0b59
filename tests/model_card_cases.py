"""Seeded random configs for lessons.model_card: every branch of the decoder
(each rope type, every spelling, per-layer-type blocks, the model families with
their own rules, ALiBi, learned and sinusoidal tables) and a share of configs
it must refuse (contradictions, unknown rope types, no position information,
malformed values). tests/test_model_card_browser.py runs each through the
Python and through modelcard/web/model_card.js and compares."""

from __future__ import annotations

import copy
import random

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional", "mrope")


def _rope_block(r: random.Random, kind: str, pairs: int, trained: int) -> dict:
    """One RoPE block of `kind`, spelled with `rope_type` or (sometimes) the old `type`."""
    key = "type" if r.random() < 0.25 else "rope_type"
    block: dict = {key: kind}
    factor = r.choice([2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 3, 0.5])
    if kind in ("linear", "dynamic"):
        block["factor"] = factor
    elif kind == "yarn":
        block["factor"] = factor
        if r.random() < 0.6:
            block["original_max_position_embeddings"] = trained
        if r.random() < 0.3:
            block["beta_fast"], block["beta_slow"] = r.choice([(32, 1), (32.0, 1.0), (1, 32), (16, 2)])
        if r.random() < 0.3:
            block["mscale"], block["mscale_all_dim"] = r.choice([(1.0, 1.0), (0.707, 0.707), (1, 0), (0.5, 1.0)])
        if r.random() < 0.2:
            block["attention_factor"] = r.choice([1.0, 1.2, 1, -0.5, "1.1"])
        if r.random() < 0.2:
            block["truncate"] = r.choice([True, False])
    elif kind == "longrope":
        # full-precision factors, as published ones are: a factor like 2.1345 would put the report's
        # "divided by {:.4g}" on a rounding tie, where one ulp of difference in pow() decides the digit
        block["short_factor"] = [1 + 0.05 * i * r.random() for i in range(pairs)]
        block["long_factor"] = r.choice([[1 + 0.5 * i * r.uniform(0.9, 1.1) for i in range(pairs)], [4.0]])
        if r.random() < 0.5:
            block["factor"] = factor
        if r.random() < 0.5:
            block["original_max_position_embeddings"] = trained
        if r.random() < 0.2:
            block["attention_factor"] = r.choice([1.19, 1.0, -1.0])
    elif kind == "llama3":
        block["factor"] = factor
        block["low_freq_factor"], block["high_freq_factor"] = r.choice([(1.0, 4.0), (1.0, 4.0), (2.0, 2.0), (1, 8)])
        block["original_max_position_embeddings"] = trained
    elif kind == "proportional":
        block["partial_rotary_factor"] = r.choice([0.25, 0.5, 1.0])
        if r.random() < 0.5:
            block["factor"] = r.choice([1.0, 8.0])
    elif kind == "mrope":
        block["mrope_section"] = [16, 24, 24]
    if r.random() < 0.1:
        block["colour"] = "blue"  # an unknown key: a warning
    if r.random() < 0.1 and kind in ("linear", "default"):
        block["beta_fast"] = 32  # a key another type reads: a warning
    return block


def _llama_like(r: random.Random) -> dict:
    heads = r.choice([8, 16, 32, 40])
    head_dim = r.choice([64, 80, 96, 128, 256])
    trained = r.choice([2048, 4096, 8192, 32768])
    config: dict = {"model_type": r.choice(["llama", "mistral", "qwen3", "olmo", "granite", "phi3", "cohere"]),
                    "num_attention_heads": heads, "num_hidden_layers": r.choice([2, 4, 12, 32])}
    if r.random() < 0.5:
        config["head_dim"] = head_dim
        config["hidden_size"] = heads * head_dim
    else:
        config["hidden_size"] = heads * head_dim
    config["rope_theta"] = r.choice([10000.0, 10000, 500000.0, 1e6, 1000000.0, 75000.0, 2.5e7])
    kind = r.choice(ROPE_TYPES)
    block = _rope_block(r, kind, head_dim // 2, trained)
    stretch = block.get("factor", 1) if isinstance(block.get("factor"), (int, float)) else 1
    config["max_position_embeddings"] = int(trained * stretch) if kind != "default" and r.random() < 0.7 else trained
    if r.random() < 0.15:
        config["max_position_embeddings"] = trained * 4  # claims more than it trained at
        config["original_max_position_embeddings"] = trained
    if kind != "default" or r.random() < 0.5:
        config["rope_parameters" if r.random() < 0.5 else "rope_scaling"] = block
    if r.random() < 0.15:
        config["rope_scaling"] = config["rope_parameters"] = block  # both spellings, the same block
    if r.random() < 0.2:
        config["partial_rotary_factor"] = r.choice([0.5, 0.25, 0.4])
    if config["model_type"] == "mistral" and r.random() < 0.5:
        config["sliding_window"] = r.choice([4096, 4096.0, None])
    if r.random() < 0.1:
        del config["num_hidden_layers"]  # no layer count: the report needs one (see the test)
    return config


def _partial(r: random.Random) -> dict:
    which = r.choice(["neox", "phi", "gptj", "neox-default"])
    if which.startswith("neox"):
        config = {"model_type": "gpt_neox", "hidden_size": 2048, "num_attention_heads": 16, "num_hidden_layers": 24,
                  "max_position_embeddings": 2048, "rotary_emb_base": r.choice([10000, 10000.0])}
        if which == "neox":
            config["rotary_pct"] = r.choice([0.25, 0.5, 1.0, 0.3])
        return config
    if which == "phi":
        return {"model_type": "phi", "hidden_size": 2560, "num_attention_heads": 32, "num_hidden_layers": 32,
                "max_position_embeddings": 2048, "partial_rotary_factor": r.choice([0.4, 0.5]), "rope_theta": 10000.0}
    return {"model_type": "gptj", "n_embd": 4096, "n_head": 16, "n_layer": 28, "n_positions": 2048,
            "rotary_dim": r.choice([64, 32, 128, 33])}


def _gemma3(r: random.Random) -> dict:
    text = {"model_type": "gemma3_text", "num_hidden_layers": r.choice([6, 12, 34]), "head_dim": r.choice([128, 256])}
    if r.random() < 0.5:
        text["rope_scaling"] = {"rope_type": "linear", "factor": 8.0}
    elif r.random() < 0.5:  # transformers 5: split by layer type
        text["rope_parameters"] = {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0},
                                   "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}
    if r.random() < 0.3:
        text["sliding_window_pattern"] = r.choice([2, 6])
    if r.random() < 0.3:
        text["rope_local_base_freq"] = 10000.0
    if r.random() < 0.3:
        text["sliding_window"] = 1024
    return {"model_type": "gemma3", "text_config": text} if r.random() < 0.7 else text


def _gemma2_or_oss(r: random.Random) -> dict:
    if r.random() < 0.5:
        config = {"model_type": "gemma2", "num_hidden_layers": 42, "head_dim": 256, "sliding_window": 4096,
                  "rope_theta": 10000.0, "max_position_embeddings": 8192}
        if r.random() < 0.3:
            config["layer_types"] = ["sliding_attention", "full_attention"] * 21
        return config
    config = {"model_type": "gpt_oss", "num_hidden_layers": 24, "head_dim": 64, "rope_theta": 150000,
              "rope_scaling": {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0,
                               "truncate": False, "original_max_position_embeddings": 4096},
              "max_position_embeddings": 131072, "sliding_window": 128}
    if r.random() < 0.5:
        config["layer_types"] = ["sliding_attention", "full_attention"] * 12
    return config


def _llama4(r: random.Random) -> dict:
    n = r.choice([4, 8, 48])
    text = {"model_type": "llama4_text", "num_hidden_layers": n, "head_dim": 128, "rope_theta": 500000.0,
            "max_position_embeddings": r.choice([10485760, 8192])}
    choice = r.random()
    if choice < 0.3:
        text["no_rope_layers"] = [int((i + 1) % 4 != 0) for i in range(n)]
    elif choice < 0.45:
        text["no_rope_layers"] = []
    if r.random() < 0.5:
        text["attention_chunk_size"] = 8192
    if r.random() < 0.6:
        text["rope_scaling"] = {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0,
                                "high_freq_factor": r.choice([1.0, 4.0]), "original_max_position_embeddings": 8192}
    return {"model_type": "llama4", "text_config": text}


def _smollm3(r: random.Random) -> dict:
    n = r.choice([4, 8, 36])
    config = {"model_type": "smollm3", "num_hidden_layers": n, "hidden_size": 2048, "num_attention_heads": 16,
              "max_position_embeddings": 65536}
    if r.random() < 0.5:
        config["no_rope_layers"] = [int((i + 1) % 4 != 0) for i in range(n)]
    elif r.random() < 0.3:
        config["no_rope_layers"] = [0] * n  # NoPE everywhere: the "none" scheme
    if r.random() < 0.5:
        config["use_sliding_window"] = r.choice([True, False])
        config["sliding_window"] = 4096
    if r.random() < 0.5:
        config["rope_theta"] = 5000000.0
    return config


def _qwen2(r: random.Random) -> dict:
    config = {"model_type": r.choice(["qwen2", "qwen2_moe"]), "num_hidden_layers": 28, "hidden_size": 3584,
              "num_attention_heads": 28, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
              "sliding_window": 131072, "max_window_layers": r.choice([28, 4, 21]),
              "use_sliding_window": r.choice([True, False])}
    if r.random() < 0.5:
        config["rope_scaling"] = {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
    return config


def _qwen2_vl(r: random.Random) -> dict:
    config = {"model_type": "qwen2_vl", "num_hidden_layers": 28, "hidden_size": 3584, "num_attention_heads": 28,
              "max_position_embeddings": 32768, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}
    if r.random() < 0.5:
        config["rope_theta"] = 1000000.0
    if r.random() < 0.3:  # Qwen3-VL's spelling: the same sections, their pairs interleaved
        config["rope_scaling"]["mrope_interleaved"] = True
    return config


def _deepseek(r: random.Random) -> dict:
    config = {"model_type": r.choice(["deepseek_v3", "deepseek_v2"]), "num_hidden_layers": 61, "hidden_size": 7168,
              "num_attention_heads": 128, "qk_rope_head_dim": r.choice([64, 64, 0]), "max_position_embeddings": 163840,
              "rope_theta": 10000,
              "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096, "beta_fast": 32,
                               "beta_slow": 1, "mscale": r.choice([1.0, 0.707]), "mscale_all_dim": r.choice([1.0, 0.707, 0])}}
    return config


def _alibi(r: random.Random) -> dict:
    which = r.choice(["bloom", "mpt", "falcon", "bert-alibi"])
    heads = r.choice([8, 12, 16, 32, 71, 112])
    if which == "bloom":
        return {"model_type": "bloom", "n_head": heads, "n_layer": 24, "hidden_size": 64 * heads}
    if which == "mpt":
        attn = {"alibi": True}
        if r.random() < 0.5:
            attn["alibi_bias_max"] = r.choice([8, 16, 8.0])
        return {"model_type": "mpt", "n_heads": heads, "n_layers": 32, "max_seq_len": r.choice([2048, 8192]),
                "attn_config": attn}
    if which == "falcon":
        return {"model_type": "falcon", "alibi": True, "num_attention_heads": heads, "num_hidden_layers": 32}
    return {"model_type": "mystery_bert", "position_embedding_type": "alibi", "num_attention_heads": heads,
            "num_hidden_layers": 12, "max_position_embeddings": 512}


def _learned_or_sinusoidal(r: random.Random) -> dict:
    which = r.choice(["gpt2", "bert", "opt", "marian", "sinusoidal-flag", "whisper"])
    if which == "gpt2":
        return {"model_type": "gpt2", "n_positions": 1024, "n_ctx": r.choice([1024, 2048]), "n_layer": 12, "n_head": 12,
                "n_embd": 768}
    if which == "bert":
        return {"model_type": "bert", "position_embedding_type": "absolute", "max_position_embeddings": 512,
                "num_hidden_layers": 12}
    if which == "opt":
        return {"model_type": "opt", "max_position_embeddings": 2048, "num_hidden_layers": 24}
    if which == "marian":
        return {"model_type": "marian", "max_position_embeddings": 512, "d_model": 512, "num_hidden_layers": 6}
    if which == "whisper":
        return {"model_type": "whisper", "max_target_positions": 448, "num_hidden_layers": 4}
    return {"model_type": "custom_seq2seq", "sinusoidal_embeddings": True, "max_position_embeddings": 1024,
            "num_layers": 6}


def _nested_by_layer_type(r: random.Random) -> dict:
    n = r.choice([4, 6])
    types = [r.choice(["full_attention", "sliding_attention"]) for _ in range(n)]
    types[0], types[-1] = "full_attention", "sliding_attention"
    block = {"full_attention": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                                "rope_theta": 1000000.0},
             "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}
    if r.random() < 0.3:
        block["sliding_attention"] = dict(block["full_attention"])  # the same setup: one group
    return {"model_type": r.choice(["llama", "olmo2"]), "num_hidden_layers": n, "head_dim": 64,
            "max_position_embeddings": 16384, "layer_types": types, "rope_parameters": block}


def _hybrid(r: random.Random) -> dict:
    """Layer plans under a family's own key (MiniMax's attn_type_list, LFM2's full_attn_idxs, Bamba's
    attn_layer_indices) or a hybrid's repeating plan (MiniMax, Qwen3.5), now and then broken."""
    n = r.choice([8, 16])
    config = {"model_type": r.choice(["minimax_text_01", "minimax", "lfm2", "bamba", "qwen3_5_text", "granitemoehybrid",
                                      "kimi_linear", "zamba2", "recurrent_gemma"]),
              "num_hidden_layers": n, "hidden_size": 1024, "num_attention_heads": 8, "max_position_embeddings": 32768,
              "rope_theta": r.choice([1000000.0, 10000000])}
    key = r.choice(["attn_type_list", "full_attn_idxs", "attn_layer_indices", None, "layer_types"])
    if key == "attn_type_list":
        config[key] = [int((i + 1) % r.choice([2, 4, 8]) == 0) for i in range(n)] + r.choice([[], [], [1]])
    elif key == "layer_types":
        config[key] = [r.choice(["linear_attention", "conv", "full_attention", "mamba", "attention"]) for _ in range(n)]
    elif key:
        config[key] = sorted(r.sample(range(n + r.choice([0, 0, 1])), r.randint(0, 3)))
    if r.random() < 0.1:
        config[key or "attn_type_list"] = r.choice([[0, 2], "0101", [True] * n, [0.0] * n])
    if r.random() < 0.3:
        config["full_attention_interval"] = r.choice([2, 4])
    if r.random() < 0.3:  # RecurrentGemma's cycle, Kimi-Linear's 1-based list, Zamba2's switch
        config[r.choice(["block_types", "linear_attn_config", "use_mem_rope"])] = r.choice(
            [["recurrent", "attention"], {"full_attn_layers": [1, n]}, {"full_attn_layers": [0]}, True, [], "x"])
    if r.random() < 0.3:  # GraniteMoeHybrid turns only with "rope"
        config["position_embedding_type"] = r.choice(["rope", "nope", "absolute"])
    return config


FAMILIES = (_llama_like, _llama_like, _llama_like, _partial, _gemma3, _gemma2_or_oss, _llama4, _smollm3, _qwen2,
            _qwen2_vl, _deepseek, _alibi, _learned_or_sinusoidal, _nested_by_layer_type,
            _hybrid)


def _text(config: dict) -> dict:
    return config["text_config"] if isinstance(config.get("text_config"), dict) else config


def _break(r: random.Random, config: dict) -> dict:
    """One way to make a config the decoder must refuse (or read with a warning)."""
    config = copy.deepcopy(config)
    text = _text(config)
    how = r.randrange(30)
    if how == 0:
        text["rope_parameters"] = {"rope_type": "linear", "factor": 2.0}
        text["rope_scaling"] = {"rope_type": "linear", "factor": 4.0}
    elif how == 1:
        text["partial_rotary_factor"], text["rotary_pct"] = 0.5, 0.25
    elif how == 2:
        text["rope_theta"] = 10000.0
        text["rope_parameters"] = {"rope_type": "default", "rope_theta": 500000.0}
        text.pop("rope_scaling", None)
    elif how == 3:
        text["rope_scaling"] = {"rope_type": r.choice(["spiral", "ntk", "Linear"]), "factor": 2.0}
        text.pop("rope_parameters", None)
    elif how == 4:
        return {"model_type": r.choice(["mystery", None, 5]), "hidden_size": 64, "num_hidden_layers": 2}
    elif how == 5:
        return {}
    elif how == 6:
        text[r.choice(["head_dim", "num_hidden_layers", "max_position_embeddings"])] = r.choice(
            ["128", 4096.0, -3, 0, 1.5, None, True, [64]])
    elif how == 7:
        text["rope_scaling"] = {"rope_type": r.choice(["linear", "dynamic", "yarn", "llama3"]),
                                "factor": r.choice(["4", -2.0, 0, None, 0.5, True])}
        text.pop("rope_parameters", None)
    elif how == 8:
        text["rope_theta"] = r.choice(["10k", -1.0, 0, [1], {"a": 1}, True])
    elif how == 9:
        text["partial_rotary_factor"] = r.choice([0, 1.5, -0.5, "0.5", 0.01])
        text.pop("rotary_pct", None)
    elif how == 10:
        return {"text_config": r.choice([[1], "llama", 3]), "model_type": "x"}
    elif how == 11:
        text["rope_scaling"] = r.choice(["linear", 4.0, [1]])
        text.pop("rope_parameters", None)
    elif how == 12:
        text["layer_types"] = ["full_attention"] * 3
    elif how == 13:
        text.update(model_type="llama4_text", num_hidden_layers=4,
                    no_rope_layers=r.choice([[1, 0], [1, 2, 1, 0], "1101", [True, 1, 1.0, 0]]))
    elif how == 14:
        text["no_rope_layers"] = [1, 1, 1, 0]
        text["model_type"] = "llama"
    elif how == 15:
        text["attn_config"] = {"alibi": True}
        text["rope_theta"] = 10000.0
        text["model_type"] = "mpt"
    elif how == 16:
        text["position_embedding_type"] = r.choice(["absolute", "relative_key", "rotary", 3])
        text["rope_theta"] = 10000.0
    elif how == 17:
        text.update(model_type="bloom", alibi=False)
    elif how == 18:
        text.update(rope_scaling={"rope_type": "longrope", "short_factor": [1.0, 2.0, 3.0], "long_factor": [1.0],
                                  "original_max_position_embeddings": 4096})
        text.pop("rope_parameters", None)
    elif how == 19:
        text.update(rope_scaling={"rope_type": r.choice(["yarn", "longrope", "llama3"])})
        text.pop("rope_parameters", None)
    elif how == 20:
        text.update(rotary_dim=64, partial_rotary_factor=0.9, head_dim=128)
    elif how == 21:
        text.update(rope_parameters={"full_attention": {"rope_type": "yarn", "factor": 4.0,
                                                        "original_max_position_embeddings": 4096},
                                     "sliding_attention": {"rope_type": "yarn", "factor": 4.0,
                                                           "original_max_position_embeddings": 8192}},
                    layer_types=["full_attention", "sliding_attention"], num_hidden_layers=2)
    elif how == 22:
        text.update(rope_parameters={"global": {"rope_type": "default"}}, num_hidden_layers=2)
        text.pop("layer_types", None)
    elif how == 23:
        text.update(model_type="mpt", n_heads=12, attn_config={"alibi": True, "alibi_bias_max": 16})
        text.pop("rope_theta", None)
        text.pop("rope_scaling", None)
        text.pop("rope_parameters", None)
    elif how == 24:  # readable, with a warning from rope_inv_freq
        text.pop("rope_parameters", None)
        text["rope_scaling"] = r.choice([
            {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0,
             "original_max_position_embeddings": 8192},
            {"rope_type": "yarn", "factor": 4.0, "beta_fast": 1, "beta_slow": 32},
            {"rope_type": "linear", "factor": 0.5, "extra": 1},
            {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048}])
    elif how == 25:
        text["head_dim"] = r.choice([7, 2, 3])
    elif how == 26:
        text["layer_types"] = r.choice([5, "ab", {"a": 1}])
    elif how == 27:
        text["hidden_size"], text["num_attention_heads"] = 100, 7
        text.pop("head_dim", None)
    elif how == 28:
        text["sliding_window_pattern"] = r.choice([0, "6", None])
        text["model_type"] = "gemma3_text"
    else:
        text["model_type"] = r.choice([["llama"], {"a": 1}])
    return config


def generated_configs(n: int = 300, seed: int = 0) -> list[dict]:
    """`n` configs from `seed`: about three in four from a model family, the rest broken on purpose."""
    r = random.Random(seed)
    out = []
    for _ in range(n):
        config = r.choice(FAMILIES)(r)
        if r.random() < 0.3:
            config = _break(r, config)
        out.append(config)
    return out


_BASE = {"model_type": "llama", "head_dim": 64, "num_attention_heads": 2, "hidden_size": 128,
         "max_position_embeddings": 4096, "num_hidden_layers": 4}
# Corners found by comparing the two decoders: each once through both.
EDGE_CASES = [
    {**_BASE, "rope_theta": 1, "rope_scaling": {"rope_type": "yarn", "factor": 2.0}},
    {**_BASE, "rope_theta": 0},
    {**_BASE, "rope_scaling": {"rope_type": "llama3", "factor": 2.0, "low_freq_factor": 0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 2048}},
    {**_BASE, "rope_scaling": {"rope_type": "longrope", "short_factor": [1.0] * 32, "long_factor": [1.0] * 32,
                               "original_max_position_embeddings": 1}},
    {**_BASE, "rope_parameters": {"rope_theta": None}},
    {**_BASE, "rope_parameters": {"full_attention": {}, "sliding_attention": None}},
    {**_BASE, "rope_parameters": {"rope_type": "proportional", "partial_rotary_factor": 0.0}},
    {**_BASE, "sliding_window": "wide"},
    {**_BASE, "sliding_window": 4096.0},
    {k: v for k, v in _BASE.items() if k != "num_hidden_layers"},
    {"model_type": "llama4", "text_config": {**_BASE, "model_type": "llama4_text", "num_hidden_layers": 8,
                                             "no_rope_layers": [1, 0] * 4}},
    # vLLM 0.33.0's length rule: model_max_length replaces the smallest key; keys the card does not read;
    # no key at all (2,048); a null factor (1.0); LongRoPE's top-level original length; a float length key
    {**_BASE, "max_position_embeddings": 8192, "model_max_length": 131072},
    {**{k: v for k, v in _BASE.items() if k != "max_position_embeddings"}, "seq_len": 1000, "max_target_positions": 900},
    {k: v for k, v in _BASE.items() if k != "max_position_embeddings"},
    {**_BASE, "rope_scaling": {"rope_type": "linear", "factor": None}},
    {**_BASE, "rope_scaling": {"rope_type": "dynamic", "factor": 3.0}},
    {**_BASE, "original_max_position_embeddings": 1024,
     "rope_scaling": {"rope_type": "longrope", "short_factor": [1.0] * 32, "long_factor": [2.0] * 32}},
    {**_BASE, "model_max_length": 4096.0},
    # families whose layers differ by type (transformers 5.24 config and modeling files)
    {"model_type": "modernbert", "position_embedding_type": "absolute", "hidden_size": 128, "num_attention_heads": 2,
     "num_hidden_layers": 7, "global_rope_theta": 160000.0, "local_rope_theta": 10000.0},
    {"model_type": "modernbert", "hidden_size": 128, "num_attention_heads": 2, "num_hidden_layers": 4,
     "global_attn_every_n_layers": 2, "local_attention": 64, "local_rope_theta": None},
    {**_BASE, "model_type": "cohere2", "num_hidden_layers": 8, "position_embedding_type": "rope_gptj"},
    {**_BASE, "model_type": "cohere2", "num_hidden_layers": 6, "sliding_window_pattern": 3},
    {**_BASE, "model_type": "qwen3_next", "num_hidden_layers": 8},
    {**_BASE, "model_type": "qwen3_next", "num_hidden_layers": 4, "full_attention_interval": 1},
    {**_BASE, "position_embedding_type": "rope_gptj"},
    # MLA's split head: the rotary part of a wider query and key; a malformed split is ignored
    {**_BASE, "qk_rope_head_dim": 16, "qk_nope_head_dim": 48},
    {**_BASE, "qk_rope_head_dim": 16, "qk_nope_head_dim": "wide"},
    # LongRoPE's old names: "su" anywhere, "yarn" in a phi3 config
    {**_BASE, "rope_scaling": {"type": "su", "short_factor": [1.0] * 32, "long_factor": [2.0] * 32,
                               "original_max_position_embeddings": 2048}},
    {**_BASE, "model_type": "phi3", "rope_scaling": {"type": "yarn", "short_factor": [1.0] * 32,
                                                     "long_factor": [2.0] * 32}, "original_max_position_embeddings": 2048},
    # families read from remote code (vLLM 0.33.0 models/chatglm.py, SGLang 0.5.23 models/baichuan.py) and GLM
    {"model_type": "chatglm", "hidden_size": 256, "num_attention_heads": 2, "kv_channels": 128, "num_layers": 4,
     "seq_length": 131072, "rope_ratio": 500},
    {"model_type": "chatglm", "hidden_size": 256, "num_attention_heads": 2, "num_layers": 2, "original_rope": False},
    {"model_type": "chatglm", "hidden_size": 256, "num_attention_heads": 2, "num_layers": 2, "rope_ratio": 0},
    {"model_type": "baichuan", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 2,
     "max_position_embeddings": 4096, "model_max_length": 4096},
    {"model_type": "baichuan", "hidden_size": 5120, "num_attention_heads": 40, "num_hidden_layers": 2,
     "model_max_length": 4096},
    {"model_type": "glm4", "hidden_size": 256, "num_attention_heads": 2, "num_hidden_layers": 2},
    {"model_type": "glm", "hidden_size": 256, "num_attention_heads": 2, "num_hidden_layers": 2, "head_dim": 64,
     "partial_rotary_factor": 1.0},
    {**_BASE, "model_type": "deepseek_v3", "rope_interleave": False},
    # position-dependent multipliers: Ministral 3's beta, Llama 4's temperature on and off
    {**{k: v for k, v in _BASE.items() if k != "max_position_embeddings"}, "model_type": "ministral3",
     "max_position_embeddings": 262144, "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 16.0,
     "original_max_position_embeddings": 16384, "llama_4_scaling_beta": 0.1}},
    {"model_type": "llama4", "text_config": {**_BASE, "model_type": "llama4_text", "attn_scale": 0.25,
                                             "floor_scale": 4096, "attn_temperature_tuning": True}},
    {"model_type": "llama4", "text_config": {**_BASE, "model_type": "llama4_text", "attn_temperature_tuning": False}},
    # each engine's own switches: vLLM 0.33.0 turns Llama 4's temperature on only past 32,768 (the default 16,384 gets
    # the note and the flag, the served 32,771 neither); Ministral 3's beta, nested as published (the Mistral-format note)
    {"model_type": "llama4", "text_config": {**_BASE, "model_type": "llama4_text", "max_position_embeddings": 16384}},
    {"model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"], "text_config": {
        **{k: v for k, v in _BASE.items() if k != "max_position_embeddings"}, "model_type": "ministral3",
        "max_position_embeddings": 262144, "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 16.0,
        "original_max_position_embeddings": 16384, "llama_4_scaling_beta": 0.1}}},
    {"model_type": "gpt_oss", "head_dim": 64, "num_attention_heads": 2, "hidden_size": 128, "num_hidden_layers": 2},
]
