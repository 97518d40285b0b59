"""Challenge 05, decoding with a KV cache: `starter.py` (the file to fill in),
`solution.py` (the reference answer) and `checks.py` (the properties and the
classic mistakes the checker names)."""
