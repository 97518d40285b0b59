"""Measured experiments: tiny decoders trained with each position scheme, evaluated past their length.

Every page of the primer describes what happens past the trained length
(a learned table has no row, RoPE angles leave their trained range, ALiBi
"extrapolates", position interpolation needs a short fine-tune, NTK-aware
scaling works without one, NoPE generalises), but its figures use random,
untrained weights. This package measures those claims on trained models, at
a scale a laptop runs in half an hour:

- `experiments.tasks`: the task, copying a stretch of a passage seen earlier
  (induction / associative recall), with an exact answer at every scored
  token, and its needle view (the copied stretch at the start, middle or end);
- `experiments.model`: a 2-layer, width-64, 4-head causal decoder whose
  position scheme is learned, sinusoidal, rope, alibi or none, and
  `stretched_speeds`, the RoPE speeds of each stretching method (all from
  `lessons.context_extension` and `lessons.positional`);
- `experiments.train`: the training loop and the fixed evaluation prompts;
- `experiments.run`: the suite. Every scheme trained at L = 32 tokens, the
  RoPE model stretched by position interpolation, NTK-aware, YaRN and dynamic
  scaling with and without a short fine-tune at 4L, all evaluated at L, 2L,
  4L and 8L, three seeds each. One JSON per run in `experiments/results/`.

Run it (CPU; torch is an optional extra, never a dependency of the site):

    pip install -e ".[experiments]"
    python -m experiments.run            # or: make experiments
    python -m experiments.run --only rope-ntk --seeds 7 --out /tmp/seed7

Results are small-model facts: they show which mechanisms break and which
survive on one synthetic task, not how a 7B model behaves on prose.
"""
