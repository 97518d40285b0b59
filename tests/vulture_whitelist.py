"""Names vulture (run by `make test-fast` and `make test`) reports as unused that a caller's
signature or a type annotation needs. Each is "used" here, with where it lives and why."""

# ruff: noqa: B018, F821
arg  # challenges/_props.py: sys.settrace calls tracer(frame, event, arg)
mtime  # site_build/markdown/links.py: _svg_size's second argument, the lru_cache key that drops a stale size
builder  # site_build/plugin.py: MkDocs calls on_serve(server, *, config, builder) by keyword
dst  # tests/test_experiments.py: a stand-in for os.replace(src, dst) that raises
dd  # challenges/c04/checks.py: a speeds(base, d) callable that reads back fixed speeds and ignores d
