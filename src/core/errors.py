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
