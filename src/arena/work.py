"""What a tournament hands the backends that play its games (``runner.py``): the settings
every game shares, and one work item a scheduled game.  Both are frozen dataclasses at
module level, so they pickle to pool workers and Dask workers as they are."""
from dataclasses import dataclass


@dataclass(frozen=True)
class GameSettings:
    """How every game of a tournament starts and is played."""
    position: str = None         # start text (None: a fresh start from each game's seed)
    opening_plies: int = 0       # random plies played before the engines (from the item's seed)
    tc: object = None            # a match.TimeControl: every seat on a clock (None: no clocks)
    hang_guard: float = None     # seconds a move may take without a clock (None: no guard)
    adjudication: object = None  # an adjudication.Adjudication (None: games played out)


@dataclass(frozen=True)
class WorkItem:
    """One scheduled game to play."""
    id: int                      # the game's id in the schedule (from 1)
    pairing: int                 # its pairing's index
    rotation: int                # its seating within the round
    engines: tuple               # the roster index of the engine in each seat
    specs: list                  # the engine spec in each seat
    seed: int                    # the game's seed
    opening_seed: int = None     # the seed of its random opening plies (shared by a round)
    opening: dict = None         # the suite's opening it starts from ({"index", "text"}), or None
