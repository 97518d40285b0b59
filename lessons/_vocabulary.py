"""Words that appear in backticks in the lessons but are not Python names of
any lesson: config keys, serving flags, file and library names.

The prose checker (tests/test_prose.py) accepts a backticked code-like name
only if a lesson defines it or it is listed here, so a mistyped config key on
a page fails the tests instead of misleading a reader. Each entry says what
the word means, in one line.
"""

TERMS: dict[str, str] = {
    # Hugging Face model configs (config.json)
    "max_position_embeddings": "the longest sequence the model's config says it handles",
    "rope_theta": "the RoPE base (10,000 in the RoPE paper; 500,000 in Llama 3)",
    "rope_parameters": "the config block that names the RoPE type and its scaling keys (newer name)",
    "rope_scaling": "the older name of rope_parameters in Hugging Face configs",
    "rope_type": "which RoPE variant: default, linear, dynamic, yarn, longrope, llama3 or proportional (mrope in Qwen2-VL configs means default speeds)",
    "text_config": "the language model's own config inside a composite (vision-language) model's config",
    "original_max_position_embeddings": "the context length the model was trained at before stretching",
    "starts_at": "a field of the model card's JSON multipliers: the first position where a position-dependent factor leaves 1",
    "seq_length": "the length key of ChatGLM and GLM-4 (remote-code) configs, and of some others; vLLM, SGLang and "
                  "llama.cpp's converter read it",
    "rope_ratio": "ChatGLM / GLM-4 config key: the RoPE base is 10,000 times this (GLM-4-9B-chat: 500)",
    "mrope_section": "Qwen2-VL config key (in rope_parameters): how many RoPE pairs turn by the time, height and width position (16, 24, 24 of 64)",
    # multimodal RoPE (lessons.multimodal_rope)
    "mrope_interleaved": "Qwen3-VL config key (in rope_parameters): true means the time, height and width pairs take turns along the head instead of sitting in three blocks",
    "vision_config": "the vision encoder's own config inside a vision-language model's config (patch size, merge size, tokens_per_second)",
    "tokens_per_second": "Qwen2.5-VL vision_config key: how many time ids one second of video advances",
    "spatial_merge_size": "Qwen VL vision_config key: how many patches per side merge into one language-model token (2)",
    "temporal_patch_size": "Qwen VL vision_config key: how many video frames one temporal patch holds (2)",
    "patch_size": "vision_config key: the side of one image patch in pixels (14 in Qwen2-VL and Qwen2.5-VL)",
    "second_per_grid_ts": "Qwen2.5-VL processor output: the seconds of video each temporal patch covers, one number per video",
    "rope_deltas": "transformers attribute of Qwen VL models: the prompt's largest position id + 1 minus its length, added to every generated token's position",
    "input_ids": "the token ids a tokenizer or processor hands to the model",
    "ROPE_INIT_FUNCTIONS": "transformers' table (modeling_rope_utils.py) from each scaling rope_type to the function computing its speeds",
    "num_attention_heads": "how many query heads each attention layer has",
    "num_key_value_heads": "how many key/value heads each layer has; fewer than num_attention_heads means grouped-query attention",
    "num_hidden_layers": "how many transformer layers the model stacks",
    "sliding_window": "how many recent tokens each token may attend to in sliding-window attention (Mistral 7B: 4,096)",
    "attn_implementation": "Hugging Face Transformers' choice of attention kernel: eager, sdpa or flash_attention_2",
    # RoPE scaling keys and serving flags (lessons.context_extension)
    "partial_rotary_factor": "Hugging Face config key (Phi, StableLM and others): the fraction of each head's width "
                             "that RoPE turns (Phi-2: 0.4); the rest carries no position",
    "--rope-scaling": "llama.cpp flag: the RoPE scaling method, none, linear or yarn",
    "--rope-scale": "llama.cpp flag: the context stretch factor for RoPE scaling",
    "--rope-freq-base": "llama.cpp flag: overrides the RoPE base (rope_theta) read from the model file",
    "--yarn-orig-ctx": "llama.cpp flag: YaRN's original (pretraining) context length",
    "--yarn-beta-fast": "llama.cpp flag: YaRN's beta_fast (default 32)",
    "--yarn-beta-slow": "llama.cpp flag: YaRN's beta_slow (default 1)",
    "alibi_bias_max": "MPT config key (in attn_config): the 8 in ALiBi's first slope 2^(-8/n)",
    "torch_dtype": "Hugging Face config key: the dtype the weights were saved in (bfloat16 for most current models)",
    "no_rope_layers": "Llama 4 and SmolLM3 config key: one entry per layer, 1 = the layer uses RoPE, 0 = a NoPE layer",
    "no_rope_layer_interval": "Llama 4 and SmolLM3 config key: with no no_rope_layers, every this-many-th layer is NoPE (default 4)",
    "attention_chunk_size": "Llama 4 config key: its RoPE layers attend only within chunks of this many tokens; its NoPE layers see everything",
    # Serving flags (vLLM)
    "--max-model-len": "vLLM flag: the longest prompt plus output the server will accept",
    "--hf-overrides": "vLLM flag: edits the model's Hugging Face config (e.g. rope_parameters) at load time",
    # RoPE layouts in real code (lessons.rope)
    "is_neox_style": "vLLM rotary-layer flag: True = half-split pairs (j, j + d/2), False = interleaved pairs (2i, 2i+1)",
    "freqs_cis": "Meta's Llama reference code: the table of unit complex numbers e^(i·pos·θ) used for interleaved RoPE",
    "precompute_freqs_cis": "Meta's Llama reference function that builds freqs_cis",
    "rotary_dim": "GPT-J config key: how many dimensions of each head RoPE turns (64 of 256 in GPT-J-6B)",
    "rotary_pct": "GPT-NeoX config key: the fraction of each head's dimensions RoPE turns",
    "rotary_emb_base": "GPT-NeoX config key: its name for the RoPE base (rope_theta)",
    "qk_rope_head_dim": "DeepSeek config key: how many dimensions of each query and key head RoPE turns (64 in DeepSeek-V3)",
    "attn_temperature_tuning": "Llama 4 config key: multiply the query of each NoPE layer by a factor that grows with position (transformers expects true or false)",
    "floor_scale": "Llama 4 config key: the step length in tokens of the NoPE layers' query temperature (8,192)",
    "attn_scale": "Llama 4 config key: how much the NoPE layers' query temperature grows per step of the logarithm (0.1)",
    "sliding_window_pattern": "Gemma 3 and Cohere2 config key: every this-many-th layer is a full-attention layer, the rest slide",
    "rope_local_base_freq": "Gemma 3 config key: the RoPE base of its sliding-window layers (10,000), which no scaling block reaches",
    "kv_lora_rank": "DeepSeek config key: the width of the latent that MLA caches per token and layer (512 in DeepSeek-V3)",
    "qk_nope_head_dim": "DeepSeek config key: the width of each query and key head's part that RoPE does not turn (128 in DeepSeek-V3)",
    "v_head_dim": "DeepSeek config key: the width of each value head (128 in DeepSeek-V3)",
    "rope_interleave": "DeepSeek-V3 config key: true when the rotated slice pairs dimensions (2i, 2i+1), as the checkpoints do",
    "learned_pos_emb": "MPT config key: asks for a learned position table; the model uses none when ALiBi is on",
    "_get_and_verify_max_len": "vLLM function (vllm/config/model.py) that derives the served length from a config",
    "derive_max_model_len_and_key": "vLLM 0.33.0 method (vllm/transformers_utils/model_arch_config_convertor.py) that takes the smallest length key of a config, or model_max_length",
    "model_max_length": "config key: a length that replaces the smallest length key in vLLM (Command R); also a tokenizer setting",
    "_apply_dict_overrides": "vLLM 0.33.0 method (vllm/config/model.py) that applies the dict-valued keys of --hf-overrides: a nested config key by key, any other dict whole",
    "patch_rope_parameters": "vLLM 0.33.0 function (vllm/transformers_utils/config.py) that renames old RoPE spellings (su to longrope) and standardizes the block",
    "_derive_context_length": "SGLang 0.5.23 method (sglang/srt/configs/model_config.py) that refuses a --context-length past the derived one without SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN",
    "attribute_map": "transformers config-class table that answers a standard key with a family's own (GPT2Config: max_position_embeddings is n_positions); engines read the loaded config, so they see it",
    "_compute_cos_sin_cache": "method of each rotary-embedding class in vLLM 0.33.0 (model_executor/layers/rotary_embedding/) and SGLang 0.5.23 (srt/layers/rotary_embedding/) that builds its cos/sin table, and so decides how many positions it covers",
    "get_context_length": "SGLang 0.5.23 function (sglang/srt/utils/hf_transformers/common.py) that picks a config's context length",
    "set_gguf_parameters": "llama.cpp converter method (conversion/base.py) that writes a model's context length into the GGUF file",
    "trained_length_stated": "JSON card field: true only when original_max_position_embeddings states the trained length",
    "rope_freqs": "GGUF tensor of per-pair divisors into which llama.cpp's converter bakes the Llama 3 rule",
    "rope_factors_long": "GGUF tensor of LongRoPE's long list, as llama.cpp's Phi-3 converter writes it (llama.cpp picks it when the context exceeds the original length)",
    "rope_factors_short": "GGUF tensor of LongRoPE's short list, as llama.cpp's Phi-3 converter writes it",
    "get_rope_factors": "llama.cpp function (src/llama-model.cpp) that picks LongRoPE's long or short list from the context size",
    "--ctx-size": "llama.cpp flag (short form -c): the context length the server allocates",
    # Attention sinks and windows (lessons.attention_sinks)
    "layer_types": "config key (Gemma 2 and 3, gpt-oss and others): one entry per layer, sliding_attention or full_attention",
    "s_aux": "the attention-sink argument of vLLM's FlashAttention 3 kernel and of transformers' attention functions: one learned logit per head (gpt-oss's sinks)",
    "learnable_sink": "FlashAttention 4's name for the per-head attention-sink logits (s_aux elsewhere)",
    # T5's relative bias (lessons.alibi)
    "relative_attention_num_buckets": "T5 config key: how many relative-position buckets each layer's bias has (32 in T5)",
    "relative_attention_max_distance": "T5 config key: the distance from which all relative positions share the last bucket (128 in T5)",
    # Decoder configs and generation (lessons.transformer)
    "tie_word_embeddings": "Hugging Face config key: True when the unembedding reuses the token embedding table",
    "rms_norm_eps": "Hugging Face config key (Llama and others): the epsilon inside RMSNorm",
    "layer_norm_epsilon": "Hugging Face config key (GPT-2): the epsilon inside LayerNorm",
    "use_cache": "Hugging Face config/generation flag: keep past keys and values between decoding steps",
    "past_key_values": "Hugging Face name for the key-value cache a model returns and takes back at the next step",
    # Position ids, padding and packing (lessons.position_ids)
    "position_ids": "Hugging Face model input: each token's position (one id per token), which the rotation or the position table reads",
    "padding_side": "tokenizer setting: pad on the left (for generation) or on the right",
    "cu_seqlens": "varlen attention kernels' argument: where each packed sequence starts, plus the total length",
    "cu_seq_lens_q": "DataCollatorWithFlattening's output (with return_flash_attn_kwargs): the packed examples' cu_seqlens for the queries",
    "position_ids_start": "DataCollatorWithFlattening argument: the id of each packed example's first token (0; 2 for RoBERTa-like models)",
    "cache_position": "transformers' index of each new token in the cache, counting padding, unlike position_ids",
}
