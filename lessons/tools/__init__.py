"""Tool code the lessons use: checks, exact reproductions of a library's behaviour,
command-line helpers. These modules are not lesson pages (they are not in
READING_ORDER, have no page and no figures); a lesson keeps the version its page
teaches, a tool adds what a real config or engine needs on top, and a test holds
the two equal. A tool may import any lesson; a lesson imports no tool that imports it.
"""
