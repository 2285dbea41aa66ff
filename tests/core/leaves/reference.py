"""A slow, literal reading of the Under the Leaves rules (docs/rules/leaves.md)
for cross-checking the engine.  Nothing here is shared with src/core/leaves/: squares are
a dict, every check looks at the whole garden exactly as §6-§8 word it, and bees follow
BGA's group procedure (§6.2), not the engine's rule of §6.3.

Where the rules leave a piece's square open (§8.1: where a piece stands does not matter), this
reference records the same representative the engine reports: a window's top-left square,
and the first square in reading order of a sector or component (Host: its first mushroom).
"""

# §1.2 and §1.3, TL TR BL BR of the printed face; S0..S3 are 50..53.
TILES = (
    "G* O P P", "O* Y P P", "Y* V P P", "O* V P P", "V* G P P",
    "G* Y P P", "V* P Y Y", "P* O Y Y", "O* G Y Y", "O* V Y Y",
    "G* V Y Y", "P* G Y Y", "V* Y O O", "Y* P O O", "P* G O O",
    "V* P O O", "G* Y O O", "G* V O O", "O* G V V", "P* O V V",
    "P* Y V V", "Y* O V V", "Y* G V V", "G* P V V", "V* O G G",
    "O* P G G", "Y* P G G", "Y* O G G", "V* Y G G", "P* V G G",
    "~ O P P", "~ Y P P", "~ G P P", "~ V P P", "~ Y O O",
    "~ V O O", "~ G O O", "~ P O O", "~ O Y Y", "~ P Y Y",
    "~ V Y Y", "~ G Y Y", "~ O V V", "~ Y V V", "~ G V V",
    "~ P V V", "~ P G G", "~ O G G", "~ Y G G", "~ V G G",
    "~ P V Y*", "~ O Y P*", "~ V P O*", "~ Y O V*",
)

CODES = ("Th", "Re", "Fl", "Ru", "Ho", "Ex", "Co", "Lo", "Di", "Sk", "Fr", "Sh")
COLOURS = "YPOVG"


def rotate_cw(q):
    """A 2x2 block (TL, TR, BL, BR) turned a quarter clockwise: the old BL goes top-left."""
    tl, tr, bl, br = q
    return (bl, tl, br, tr)


def mirror(q):
    tl, tr, bl, br = q
    return (tr, tl, br, bl)


def oriented(tile, o):
    """§1.4 from its words: turn the printed face r quarter turns clockwise, then mirror
    left to right when f = 1 (o = r + 4f).  Returns four (type, mushroom) pairs."""
    q = tuple((s[0], s.endswith("*")) for s in TILES[tile].split())
    for _ in range(o % 4):
        q = rotate_cw(q)
    if o >= 4:
        q = mirror(q)
    return q


def tile_squares(x, y):
    """§3.2: slot (x, y) holds TL (2x, 2y), TR (2x+1, 2y), BL (2x, 2y-1), BR (2x+1, 2y-1)."""
    return ((2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y - 1), (2 * x + 1, 2 * y - 1))


def reading_key(sq):
    u, v = sq
    return (-v, u)


ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


class RefGarden:
    def __init__(self, start):
        self.types = {}          # (u, v) -> 'Y' .. 'G' or '~'
        self.mush = set()
        self.slots = {}          # (x, y) -> tile
        self.groups = []         # bee groups: [colour, frozenset(squares), count]
        self.birds = {}          # slot -> hummingbirds
        self.used = {c: set() for c in CODES}
        self.where = {c: [] for c in CODES}
        self.new_squares = set()
        self._lay(50 + start, 0, 0, 0)

    # ------------------------------------------------------------------ geometry
    def _lay(self, tile, x, y, o):
        self.slots[(x, y)] = tile
        self.new_squares = set()
        for sq, (t, m) in zip(tile_squares(x, y), oriented(tile, o)):
            self.types[sq] = t
            self.new_squares.add(sq)
            if m:
                self.mush.add(sq)

    def frontier(self):
        out = set()
        for (x, y) in self.slots:
            for dx, dy in ORTHO:
                if (x + dx, y + dy) not in self.slots:
                    out.add((x + dx, y + dy))
        return sorted(out)

    def components(self, pred):
        """Orthogonally connected components of the squares s with pred(s), where two
        neighbours connect when both satisfy pred and have the same type."""
        seen = set()
        comps = []
        for sq in sorted(self.types, key=reading_key):
            if sq in seen or not pred(sq):
                continue
            comp = {sq}
            todo = [sq]
            seen.add(sq)
            while todo:
                u, v = todo.pop()
                for du, dv in ORTHO:
                    n = (u + du, v + dv)
                    if n in self.types and n not in seen and pred(n) and self.types[n] == self.types[sq]:
                        seen.add(n)
                        comp.add(n)
                        todo.append(n)
            comps.append(comp)
        return comps

    def colour_components(self):
        return self.components(lambda s: self.types[s] != "~")

    def sectors(self):
        return [c for c in self.colour_components() if len(c) >= 3]

    def windows(self):
        out = []
        for (u, v) in sorted(self.types, key=reading_key):
            w = ((u, v), (u + 1, v), (u, v - 1), (u + 1, v - 1))
            if all(s in self.types for s in w):
                out.append(w)
        return out

    # ------------------------------------------------------------------ the turn
    def place(self, tile, x, y, o):
        assert (x, y) in self.frontier() and tile not in self.slots.values()
        self._lay(tile, x, y, o)
        self.check_bees()
        self.check_hummingbirds()
        for code in CODES:
            getattr(self, "check_" + code)()

    def gain(self, code, square):
        self.where[code].append(square)

    # §6.2, BGA's procedure
    def check_bees(self):
        sectors = self.sectors()
        c0 = {g[0] for g in self.groups}
        new = []
        for X in sectors:
            c = self.types[next(iter(X))]
            inside = [g for g in self.groups if g[0] == c and g[1] <= X]
            if not inside:
                new.append((c, X))
            elif len(inside) == 1:
                inside[0][1] = frozenset(X)
            else:
                total = sum(g[2] for g in inside)
                for g in inside:
                    self.groups.remove(g)
                self.groups.append([c, frozenset(X), total])
        if not new:
            return
        new_colours = {c for c, _ in new}
        for g in self.groups:
            if g[0] in c0 and g[0] in new_colours:
                g[2] += 1
        for c, X in new:
            self.groups.append([c, frozenset(X), 1])

    @property
    def bees(self):
        return sum(g[2] for g in self.groups)

    # §7.1
    def check_hummingbirds(self):
        poll = set().union(*self.sectors()) if self.sectors() else set()

        def base(slot):
            if slot not in self.slots:
                return 0
            return int(all(self.types[s] == "~" or s in poll for s in tile_squares(*slot)))

        for (x, y) in self.slots:
            b = base((x, y))
            target = 0
            if b:
                target = 1 + (base((x - 1, y)) and base((x + 1, y))) + (base((x, y - 1)) and base((x, y + 1)))
            self.birds[(x, y)] = max(self.birds.get((x, y), 0), target)

    @property
    def hummingbirds(self):
        return sum(self.birds.values())

    # §8.2 leaf cards
    def check_Th(self):
        U = self.used["Th"]
        for w in self.windows():
            ts = {self.types[s] for s in w}
            if len(ts) == 1 and "~" not in ts and not (set(w) & U):
                U.update(w)
                self.gain("Th", w[0])

    def check_Re(self):
        U = self.used["Re"]
        for X in self.sectors():
            if len(X) >= 5 and not (X & U):
                U.update(X)
                self.gain("Re", min(X, key=reading_key))

    def check_Fl(self):
        U = self.used["Fl"]
        for w in self.windows():
            if w[0] == (0, 0):
                continue
            if len({self.types[s] for s in w}) == 4 and not (set(w) & U):
                U.update(w)
                self.gain("Fl", w[0])

    def check_Ru(self):
        U = self.used["Ru"]
        for X in self.sectors():
            if X & U:
                continue
            row = any(all((u + i, v) in X for i in range(4)) for (u, v) in X)
            col = any(all((u, v - i) in X for i in range(4)) for (u, v) in X)
            if row or col:
                U.update(X)
                self.gain("Ru", min(X, key=reading_key))

    # §8.3 mushroom cards
    def check_Ho(self):
        U = self.used["Ho"]
        for K in self.colour_components():
            m = K & self.mush
            if len(m) >= 2 and not (m & U):
                U.update(m)
                self.gain("Ho", min(m, key=reading_key))

    def check_Ex(self):
        U = self.used["Ex"]
        A = self.mush - U
        q = []
        for (u, v) in A:
            horiz = any(a[1] == v and a[0] < u for a in A) and any(a[1] == v and a[0] > u for a in A)
            vert = any(a[0] == u and a[1] > v for a in A) and any(a[0] == u and a[1] < v for a in A)
            if horiz or vert:
                q.append((u, v))
        for m in sorted(q, key=reading_key):
            U.add(m)
            self.gain("Ex", m)

    def _pairs(self, code, squares):
        U = self.used[code]
        pairs = []
        for (u, v) in sorted(squares, key=reading_key):
            for du, dv in ((1, -1), (-1, -1)):     # each diagonal pair once, from its upper square
                n = (u + du, v + dv)
                if n in squares and (u, v) not in U and n not in U:
                    pairs.append(((u, v), n))
        for a, b in pairs:
            if (a in self.new_squares) != (b in self.new_squares):
                piece = b if a in self.new_squares else a
            else:
                piece = min(a, b, key=reading_key)
            U.add(piece)
            self.gain(code, piece)

    def check_Co(self):
        self._pairs("Co", self.mush)

    def _lonely(self, code, squares):
        U = self.used[code]
        for (u, v) in sorted(squares, key=reading_key):
            if (u, v) in U:
                continue
            ns = [(u + du, v + dv) for du, dv in ORTHO + DIAG]
            if all(n in self.types for n in ns) and not any(n in squares for n in ns):
                U.add((u, v))
                self.gain(code, (u, v))

    def check_Lo(self):
        self._lonely("Lo", self.mush)

    # §8.4 puddle cards
    def puddles(self):
        return {s for s, t in self.types.items() if t == "~"}

    def check_Di(self):
        U = self.used["Di"]
        for K in self.components(lambda s: self.types[s] == "~"):
            if len(K) >= 2 and not (K & U):
                U.update(K)
                self.gain("Di", min(K, key=reading_key))

    def check_Sk(self):
        U = self.used["Sk"]
        P = self.puddles()
        for (u, v) in sorted(self.types, key=reading_key):
            if self.types[(u, v)] == "~" or (u, v) in U:
                continue
            if ((u - 1, v) in P and (u + 1, v) in P) or ((u, v - 1) in P and (u, v + 1) in P):
                U.add((u, v))
                self.gain("Sk", (u, v))

    def check_Fr(self):
        self._pairs("Fr", self.puddles())

    def check_Sh(self):
        self._lonely("Sh", self.puddles())

    def pieces(self):
        return {c: len(self.where[c]) for c in CODES}
