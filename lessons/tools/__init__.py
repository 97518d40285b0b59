"""Tool code the lessons use: not lesson pages.

A module here holds what a lesson's command and the site need but the page does
not teach: the tables a decoder reads (`lessons.tools.model_types`), the length
rules and command lines of the serving engines (`lessons.tools.engines`), and
the text report, the GGUF reader and the command line of
`python -m lessons.model_card` (`lessons.tools.card_report`). The build reads
no page from them; the site documents each in the API reference beside the
lessons. A module here imports no lesson that imports it (tests/test_imports.py).
"""
