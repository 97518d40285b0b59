"""Challenge 08, position ids: `starter.py` (the file to fill in), `solution.py`
(the reference answer) and `checks.py` (the properties and the classic
mistakes the checker names)."""
