from site_build.plugin import PrimerPlugin  # noqa: F401 - the installed `primer` entry point's old path; goes at the next reinstall
