"""``python -m fastpuzzle``: the command line."""

from fastpuzzle.cli import main

raise SystemExit(main())
