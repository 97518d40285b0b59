"""`python -m modelcard CONFIG`: the decoder's command (`modelcard.cli.main`)."""

import sys

from modelcard.cli import main

if __name__ == "__main__":
    sys.exit(main())
