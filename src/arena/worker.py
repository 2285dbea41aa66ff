"""``python -m roost.arena.worker GAME [--engine SPEC] [--seed N]``: the worker process the
arena starts for an in-process spec on a clock or under a hang guard (``engines.py``).  It
serves the engine over the engine protocol (``roost.protocol.server``), knowing every
engine kind the arena does, and is lighter to start than the whole command line."""
import roost.arena.engines  # noqa: F401  (every engine kind the arena knows)
from roost.protocol.server import main

if __name__ == "__main__":
    main(prog="python -m roost.arena.worker")
