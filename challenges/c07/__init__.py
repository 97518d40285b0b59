"""Challenge 07, stretching the context: `starter.py` (the file to fill in),
`solution.py` (the reference answer) and `checks.py` (the properties and the
classic mistakes the checker names)."""
