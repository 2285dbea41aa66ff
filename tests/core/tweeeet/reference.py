"""A tiny, slow, independent Tweeeet written straight from the rules file
(docs/rules/tweeeet.md), with dicts and breadth-first search instead of bitboards.
The rules tests use it to derive perft values and to cross-check the native game along
random games; it shares no code with src/core/tweeeet/.

Roost's decisions (docs/rules/tweeeet.md §13), followed here too: the nest row is laid
without a chance event (§7.4); the pass test lifts the other birds off cells that are
passable without them (grass, empty bushes, the start; a nest holding a bird stays shut,
§6.2); a position where every bird not in a nest can only pass ends drawn (§6.4).
"""
from collections import deque

COLS = "abcdefghi"
BIRDS = ("MR", "MB", "FR", "FB")
FOODS = "2345"


def neighbours(x, y):
    """docs/rules/tweeeet.md §2.2: (x±1, y); even y: (x-1, y±1), (x, y±1); odd y: (x, y±1),
    (x+1, y±1)."""
    out = [(x - 1, y), (x + 1, y)]
    for dy in (-1, 1):
        if y % 2 == 0:
            out += [(x - 1, y + dy), (x, y + dy)]
        else:
            out += [(x, y + dy), (x + 1, y + dy)]
    return [(a, b) for a, b in out if 0 <= a < 9 and 0 <= b <= 19]


def name(cell):
    return f"{COLS[cell[0]]}{cell[1]}"


def cell_of(text):
    return COLS.index(text[0]), int(text[1:])


def barrier(water):
    """A chain of neighbouring water cells from column a to column i."""
    todo = [c for c in water if c[0] == 0]
    seen = set(todo)
    while todo:
        c = todo.pop()
        if c[0] == 8:
            return True
        for n in neighbours(*c):
            if n in water and n not in seen:
                seen.add(n)
                todo.append(n)
    return False


class Ref:
    def __init__(self, text):
        board, b1, b2, b3, b4, mover = text.split()
        low, rows = board.split(":")
        self.low = int(low)
        self.cells = {}
        for i, row in enumerate(rows.split("/")):
            for x, ch in enumerate(row):
                if ch != "-":
                    self.cells[(x, self.low + i)] = ch
        self.high = self.low + len(rows.split("/")) - 1
        self.pos = []
        self.energy = []
        for b in (b1, b2, b3, b4):
            c, e = b.split(":")
            self.pos.append(cell_of(c))
            self.energy.append(int(e))
        self.cur = BIRDS.index(mover)
        self.lay_to = max(min(p[1] + 4, 19) for p in self.pos)
        self.result = None     # (r0, r1) once over
        if all(self.nested(b) for b in range(4)):
            self._finish()
        elif not self.pending():
            self._status()

    def copy(self):
        r = Ref.__new__(Ref)
        r.__dict__ = {k: (v.copy() if isinstance(v, (dict, list)) else v)
                      for k, v in self.__dict__.items()}
        return r

    # -- rules helpers ---------------------------------------------------------
    def nested(self, b):
        return self.cells.get(self.pos[b]) == "N"

    def pending(self):
        return self.result is None and self.high < self.lay_to

    def can_land(self, b, cell):
        ch = self.cells.get(cell)
        if ch in FOODS:
            return True
        if ch != "N":
            return False
        partner = b ^ 2
        if self.nested(partner):
            return cell == self.pos[partner]
        return all(self.pos[o] != cell for o in (b ^ 1, b ^ 3))

    def flights(self, b, lift_birds=False):
        """{target: shortest distance} within bird b's energy."""
        start = self.pos[b]
        others = {self.pos[o] for o in range(4) if o != b}
        dist = {start: 0}
        queue = deque([start])
        found = {}
        while queue:
            c = queue.popleft()
            d = dist[c]
            if d + 1 > self.energy[b]:
                continue
            for n in neighbours(*c):
                if n not in self.cells:
                    continue
                if self.can_land(b, n) and n not in found:
                    found[n] = d + 1
                ch = self.cells[n]
                # the pass test lifts the other birds, but only off cells open without them
                open_ = ch in ".oS" and (lift_birds or n not in others)
                if open_ and n not in dist:
                    dist[n] = d + 1
                    queue.append(n)
        return found

    def _next(self, b):
        for i in range(1, 5):
            o = (b + i) % 4
            if not self.nested(o):
                return o
        return None

    def _finish(self):
        r = self.energy[0] + self.energy[2]
        bl = self.energy[1] + self.energy[3]
        self.result = (1.0, 0.0) if r > bl else (0.0, 1.0) if bl > r else (0.5, 0.5)

    def _status(self):
        """Decide whether the bird to move flies, passes, dies, or all passing: draw."""
        b = self.cur
        self.moves = sorted(self.flights(b), key=lambda c: 9 * c[1] + c[0])
        self.moves = [name(c) for c in self.moves]
        if self.moves:
            return
        if not self.flights(b, lift_birds=True):
            self.result = (0.0, 1.0) if b % 2 == 0 else (1.0, 0.0)
            return
        self.moves = ["pass"]
        o = self._next(b)
        while o != b:
            if self.flights(o) or not self.flights(o, lift_birds=True):
                return
            o = self._next(o)
        self.result = (0.5, 0.5)

    # -- moves -----------------------------------------------------------------
    def legal(self):
        if self.result is not None or self.pending():
            return []
        return list(self.moves)

    def play(self, move):
        b = self.cur
        if move == "pass":
            self.cur = self._next(b)
            self._status()
            return
        t = cell_of(move)
        d = self.flights(b)[t]
        self.energy[b] -= d
        ch = self.cells[t]
        if ch in FOODS:
            self.energy[b] += int(ch)
            self.cells[t] = "o"
        self.pos[b] = t
        nxt = self._next(b)
        if nxt is None:
            self.cur = (b + 1) % 4
            self._finish()
            return
        self.cur = nxt
        lowest = min(self.pos[o][1] for o in range(4) if not self.nested(o))
        while self.low < lowest - 4:
            for x in range(9):
                self.cells.pop((x, self.low), None)
            self.low += 1
        self.lay_to = min(t[1] + 4, 19)
        self._after_rows()

    def _after_rows(self):
        if self.high < self.lay_to and self.high + 1 == 19:
            for x in range(9):
                self.cells[(x, 19)] = "N" if x % 2 == 0 else "."
            self.high = 19
        if self.high >= self.lay_to:
            self._status()

    def lay(self, row):
        self.high += 1
        for x, ch in enumerate(row):
            self.cells[(x, self.high)] = ch
        self._after_rows()

    def row_allowed(self, row):
        water = {c for c, ch in self.cells.items() if ch == "~"}
        water |= {(x, self.high + 1) for x, ch in enumerate(row) if ch == "~"}
        return not barrier(water)

    def perft(self, depth):
        if depth == 0:
            return 1
        if self.result is not None:
            return 0
        if self.pending():
            return 1
        moves = self.legal()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            c = self.copy()
            c.play(m)
            total += c.perft(depth - 1)
        return total

    def text(self):
        rows = []
        for y in range(self.low, self.high + 1):
            rows.append("".join(self.cells.get((x, y), "-") for x in range(9)))
        birds = " ".join(f"{name(self.pos[b])}:{self.energy[b]}" for b in range(4))
        return f"{self.low}:{'/'.join(rows)} {birds} {BIRDS[self.cur]}"
