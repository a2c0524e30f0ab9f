"""``python -m games.build_engine build|clean|status``: see games/native.py."""

import sys

from games.native import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
