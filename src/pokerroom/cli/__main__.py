"""``python -m pokerroom.cli``: the command line."""

import sys

from pokerroom.cli import main

sys.exit(main())
