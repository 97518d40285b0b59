"""`python -m modelcard CONFIG`: the decoder's command (`modelcard.cli.main`)."""

import sys

from modelcard.cli import main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader stopped reading (`| head`): nothing more to say
        sys.stderr.close()
        sys.exit(0)
