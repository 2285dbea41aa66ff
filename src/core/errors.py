"""The errors roost raises for bad input.  Each carries one message that names the fault;
the command line prints it and exits non-zero, never a traceback."""


class RoostError(ValueError):
    """Base of every input error roost reports to a user."""


class PositionError(RoostError):
    """A position text that is malformed or describes an impossible position."""


class MoveError(RoostError):
    """A move name that does not parse, or a move that is not legal here."""


class EngineSpecError(RoostError):
    """An engine spec with an unknown engine, parameter or value."""


class GameError(RoostError):
    """An unknown game name, or an option the game does not support."""


class SeatError(RoostError):
    """A seat (player number) that the game does not have."""


class SeedError(RoostError):
    """A seed that is not an integer from 0 to 2^63 - 1 (the range --seed takes)."""


MAX_SEED = (1 << 63) - 1


def check_seed(seed):
    """``seed`` itself when it is a seed roost takes; SeedError naming it otherwise.

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    roost.core.errors.SeedError: seed -1 is out of range: a seed is an integer from 0 to 9223372036854775807
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise SeedError(f"seed {seed!r} is out of range: a seed is an integer from 0 to {MAX_SEED}")
    return seed
