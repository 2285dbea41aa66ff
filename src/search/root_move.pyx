"""One root move as a searcher saw it (ids; values for the player to move): the per-move
value type of a search's report (``result.Report.root_moves``).  A native class, made in C
at the end of a search (``root_move``): a report holds one for each root move, and a small
search of a position with dozens of moves would otherwise spend a good part of its time
making them."""


cdef class RootMove:
    """``RootMove(move, value=0.5, visits=0, proven="", values=[], pv=[], score=None,
    exact=True)``: the fields of root_move.pxd."""

    def __init__(self, int move, double value=0.5, long long visits=0, str proven="",
                 list values=None, list pv=None, score=None, bint exact=True):
        self.move, self.value, self.visits, self.proven = move, value, visits, proven
        self._values, self._pv = values, pv
        self.score, self.exact = score, exact

    @property
    def score(self):
        """Alpha-beta: the move's score in the searcher's units (None for the others)."""
        return self._score if self.scored else None

    @score.setter
    def score(self, score):
        self.scored = score is not None
        self._score = score if self.scored else 0.0

    @property
    def values(self):
        """Every player's expected result after the move (MCTS; else empty)."""
        if self._values is None:
            self._values = []
        return self._values

    @values.setter
    def values(self, list values):
        self._values = values

    @property
    def pv(self):
        """The most visited line from the move (MCTS; else empty), in ids."""
        if self._pv is None:
            self._pv = []
        return self._pv

    @pv.setter
    def pv(self, list pv):
        self._pv = pv

    def __repr__(self):
        return (f"RootMove(move={self.move}, value={self.value!r}, visits={self.visits}, "
                f"proven={self.proven!r}, values={self.values!r}, pv={self.pv!r}, "
                f"score={self.score!r}, exact={self.exact!r})")

    def __eq__(self, other):
        if not isinstance(other, RootMove):
            return NotImplemented
        return self._fields() == (<RootMove>other)._fields()

    def _fields(self):
        return (self.move, self.value, self.visits, self.proven, self.values, self.pv,
                self.score, self.exact)

    def __reduce__(self):
        return RootMove, self._fields()


cdef RootMove root_move(int move, double value, long long visits, str proven, list values,
                        list pv, double score, bint scored, bint exact):
    """A RootMove made without Python's argument parsing (a report makes one a root move);
    `values` and `pv` None for empty ones, `score` only where `scored`."""
    cdef RootMove m = RootMove.__new__(RootMove)
    m.move, m.value, m.visits, m.proven = move, value, visits, proven
    m._values, m._pv, m._score, m.scored, m.exact = values, pv, score, scored, exact
    return m
