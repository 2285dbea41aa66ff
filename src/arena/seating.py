"""Who sits where, game after game, in a match played in this process (``roost play``).

The engines of the roster rotate through the seats (``match.rotation``) so that each plays
every seat equally often, and with 3 or more of them the turn direction alternates between
rounds so that none always moves right after the same other one.  A fixed seat (a person at
the terminal) stays where it is, and the others rotate through the remaining seats the same
way (in turn order among themselves, skipping the fixed seat).  Engines that live in
another process (a ``cmd:`` program, a clocked worker) are kept from game to game and
closed at the end; the rest are fresh for every game."""
from roost.arena.match import rotation


class Seating:
    """``specs``: the roster (engine specs); ``make(spec)`` builds an engine.  Roster entry
    ``fixed_entry`` (if not None) keeps seat ``fixed_seat`` in every game and is played by
    ``fixed_player`` (e.g. the person at the terminal)."""

    def __init__(self, specs, seats, make, fixed_entry=None, fixed_seat=0, fixed_player=None):
        self.specs = list(specs)
        self.seats = seats
        self.make = make
        self.fixed_entry, self.fixed_seat, self.fixed_player = fixed_entry, fixed_seat, fixed_player
        if self.fixed_entry is not None and not 0 <= self.fixed_seat < seats:
            raise ValueError(f"seat {self.fixed_seat} does not exist among {seats} seats")
        if len(self.specs) > seats:
            raise ValueError(f"{len(self.specs)} engines for {seats} seats")
        self._kept = {}       # (roster entry, k-th seat it fills in a game) -> engine

    def order(self, index):
        """Roster entry in each seat for game ``index`` (0-based)."""
        if self.fixed_entry is None:
            return rotation(self.seats, index, len(self.specs))
        others = [e for e in range(len(self.specs)) if e != self.fixed_entry]
        if not others:
            return [self.fixed_entry] * self.seats
        turning = iter(others[k] for k in rotation(self.seats - 1, index, len(others)))
        return [self.fixed_entry if s == self.fixed_seat else next(turning) for s in range(self.seats)]

    def engines(self, order):
        """The engine objects for a game seated as ``order``."""
        out, filled = [], {}
        for entry in order:
            k = filled.get(entry, 0)
            filled[entry] = k + 1
            if entry == self.fixed_entry and self.fixed_player is not None:
                out.append(self.fixed_player)
            elif (entry, k) in self._kept:
                out.append(self._kept[entry, k])
            else:
                engine = self._kept[entry, k] = self.make(self.specs[entry])
                out.append(engine)
        return out

    def close(self):
        for engine in self._kept.values():
            engine.close()
        self._kept.clear()
