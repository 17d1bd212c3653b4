"""``python -m ragmetrics``: the same as the ``ragmetrics`` command."""

import sys

from .cli import main

if __name__ == "__main__":  # importing this module (e.g. to collect doctests) runs nothing
    sys.exit(main())
