"""Challenge 06, RoPE layouts: `starter.py` (the file to fill in),
`solution.py` (the reference answer) and `checks.py` (the properties and the
classic mistakes the checker names)."""
