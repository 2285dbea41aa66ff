"""A line of moves played from a position: the one place where moves given from outside (a
person's ``--moves``, the protocol's ``moves``, a game record) are applied, each checked.

>>> from roost.core.games import get_game
>>> state = get_game("connect4").start()
>>> play_line(state, ["4", "4", "3"])
[3, 3, 2]
>>> play_line(state, ["5", "9"], first=4)
Traceback (most recent call last):
...
roost.core.moves.LineError: move 5 ('9'): ...
"""
from roost.core.errors import MoveError, RoostError


class LineError(MoveError):
    """A move of a line that does not play: its ``index`` in the line (from 1), the
    ``move`` given (a name or an id) and the ``reason`` (the game is over, the name is not
    a move, the move is not legal here).  The state is left after the moves before it."""

    def __init__(self, index, move, reason=None):
        self.index, self.move = index, move
        self.reason = reason or "not legal here"
        super().__init__(f"move {index} ({move!r}): {reason}" if reason
                         else f"move {index} ({move!r}) is not legal here")


def play_line(state, moves, first=1, play=None):
    """Play ``moves`` (names, or ids; chance outcomes included) onto ``state`` in place,
    each checked, and return their ids; LineError names the first that does not play.
    ``first`` is the index of ``moves[0]``, for a line continued from an earlier one.
    ``play(m)``, if given, plays each move once checked, in place of
    ``state.play_unchecked(m)`` (a replay that tells a move its chance outcomes)."""
    ids = []
    for index, move in enumerate(moves, first):
        if state.is_over:
            raise LineError(index, move, f"the game is over after move {index - 1}")
        try:
            m = state.parse_move(move) if isinstance(move, str) else move
            legal = state.is_legal(m)
        except RoostError as e:
            raise LineError(index, move, str(e)) from None
        if not legal:
            raise LineError(index, move)
        (state.play_unchecked if play is None else play)(m)
        ids.append(m)
    return ids
