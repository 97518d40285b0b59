"""Tool code the lessons use: not lesson pages (not in READING_ORDER, no page, no
figures). A module here holds what a lesson's command and the site need but the
page does not teach: exact reproductions of a library's checks and warnings
(`lessons.tools.rope_scaling` for transformers' RoPE validation,
`lessons.tools.exact` for the model-card reader's), the tables a decoder reads
(`lessons.tools.model_types`), the length rules and command lines of the serving
engines (`modelcard.engines`), and the text report, the GGUF reader and the
command line of `python -m modelcard` (`modelcard.report`).
A lesson keeps the version its page teaches; where a tool computes the same thing
a test holds the two equal. The site documents each module in the API reference
beside the lessons. A module here imports no lesson that imports it
(tests/test_imports.py).
"""
