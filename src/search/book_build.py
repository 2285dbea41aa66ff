"""Building a book with roost's own solver: a proof tree of one side's win, or of its draw.

The book holds, for the side it is built for, one move in every position that side can
reach by following the book against any defence, to ``plies`` plies from the start, that
keeps the book's goal: a win (``goal="win"``), or at least a draw (``goal="draw"``).  It is
proven the way a proof tree is: a position of the side's keeps the goal when one of its
moves leads to a position that does; a position of the opponent's when every reply does; at
the book's depth null-window tests to the end of the game (src/search/wdl.pyx: "is a win
reached?", or "is a draw or better reached?" and, where it is, "is a win reached?") prove
the position's value and give its move.  Only
those last positions are tested, so the cost is the leaves' tests, not the much dearer
proofs of the shallow positions; and a null-window test is cheaper than an exact solve,
which bisects the distance to the result.  (A game that does not bound its length has no
window tests: its leaves are solved exactly.)  The side's moves are tried best first by a
short alpha-beta search (a fixed node count, so a build is the same from run to run), and
the opponent's replies in the same order, so that a refutation is met early.

Each line's value is what the tree proves for the side: ``win``, or, in a book of the draw,
``draw``.  At the book's depth that is the position's exact value; above it, ``draw`` says
the move keeps at least a draw (the book takes the first move in its order that does; in a
position the opponent has let slip it can be a win not shown).

Positions are remembered by key (transpositions are proven once) and, for games with a
mirror symmetry (``MIRRORS``), by the lesser key of a position and its mirror image.  Every
leaf proven is appended to a journal as it finishes, with the test's nodes and seconds, so
an interrupted build resumes where it stopped, and builds of different parts of one tree
can share one journal; a book can be assembled from a journal alone (``solve=False``: the
positions it has not proven count as not kept).  Each leaf is tested in a cleared table, so
its result and cost depend on the position alone.

``thin`` leaves out of the book the leaves whose test took fewer nodes than that: the
positions a player's own proof settles within a move need no line, and the book keeps its
lines where the proof is dear.
"""
import time
from pathlib import Path

from roost.search.book import Book, BookError, BookMove

ORDER_NODES = 100_000          # alpha-beta nodes of the search that orders the moves to try
GOALS = ("win", "draw")
# what a leaf's journalled result shows of the goals, as a level: 2 a win, 1 at least a
# draw, 0 less; a result missing here says nothing of that goal (its leaf is tested again)
LEVELS = {"win": {"win": 2, "draw": 0, "loss": 0, "nowin": 0},
          "draw": {"win": 2, "draw": 1, "loss": 0}}
NEED = {"win": 2, "draw": 1}


def _mirror_connect4(text):
    return text if text == "-" else "".join(str(8 - int(c)) for c in text)


# game -> the position text (and move name) mirrored, for games symmetric left to right
MIRRORS = {"connect4": _mirror_connect4}


class BookBuilder:
    """Builds a book of ``side``'s ``goal`` (a win, or at least a draw) from ``root`` to
    ``plies`` plies (see the module)."""

    def __init__(self, root, plies, side=None, tt=64, journal=None, progress=None,
                 order_nodes=ORDER_NODES, solve=True, goal="win", thin=0):
        from roost.search.engines import parse_engine
        if root.players != 2 or root.hidden_info or root.is_chance:
            raise BookError("a book is proven for two-player games of perfect information "
                            "from a position with a player to move")
        if goal not in GOALS:
            raise BookError(f"a book proves a win or a draw, not {goal!r}")
        self.root = root
        self.plies = plies
        self.side = root.player if side is None else side
        self.goal = goal
        self.need = NEED[goal]
        self.thin = thin
        self.mirror = MIRRORS.get(root.name)
        self.tt = tt
        self._tests = None
        self.solver = parse_engine(f"ab:tt={tt}")
        self.orderer = parse_engine(f"ab:nodes={order_nodes},tt=4")
        self.journal = Path(journal) if journal else None
        self.progress = progress
        self.solve = solve         # False: only the journal's proofs count (a book assembled from it)
        self.proven = {}           # canonical key -> level reached for the side (LEVELS)
        self.leaves = {}           # canonical key -> (result, move name in the keyed text, nodes)
        self.moves = {}            # key -> (state, BookMove) of the side's positions that keep the goal
        self.cheap = set()         # canonical keys of leaves thinned out of the book
        self.solved = 0            # leaves tested in this run
        self.seconds = 0.0
        self.read_upto = 0         # the journal's bytes read so far
        self._resume()

    # --------------------------------------------------------------- keys and the journal
    def _canonical(self, state):
        """(key, mirrored): the lesser of the position's key and its mirror image's."""
        if self.mirror is None:
            return state.hash, False
        other = type(state).parse(self.mirror(state.text()))
        return (state.hash, False) if state.hash <= other.hash else (other.hash, True)

    def _resume(self):
        """Reads the journal's lines written since the last read: by this build before it
        was interrupted, or by other builds sharing the journal (each appends a whole line at
        once), so that builds of different parts of one tree run side by side.  A line is
        'POSITION RESULT MOVE NODES SECONDS' (or without the cost, which a leaf then has no
        count of and is never thinned out)."""
        if not self.journal or not self.journal.exists():
            return
        with self.journal.open("rb") as f:
            f.seek(self.read_upto)
            data = f.read()
        whole = data[:data.rfind(b"\n") + 1]      # a line still being written waits
        self.read_upto += len(whole)
        for number, line in enumerate(whole.decode().splitlines(), 1):
            words = line.split()
            try:
                position, result, move = words[:3]
                nodes = int(words[3]) if len(words) == 5 else None
                if len(words) not in (3, 5):
                    raise ValueError
                state = type(self.root).parse(position)
            except Exception:
                raise BookError(f"{self.journal} line {number} is not a journal line "
                                f"'POSITION RESULT MOVE NODES SECONDS': {line!r}") from None
            key, mirrored = self._canonical(state)
            if LEVELS[self.goal].get(result) is None and key in self.leaves:
                continue                          # a test for the other goal keeps what this one showed
            self.leaves[key] = (result, self.mirror(move) if mirrored else move, nodes)

    def _record(self, state, result, move, nodes, seconds):
        if self.journal:
            with self.journal.open("a") as f:
                f.write(f"{state.text()} {result} {move} {nodes} {seconds:.3f}\n")
            self._resume()

    # --------------------------------------------------------------- the proof
    def build(self):
        """The book (a Book), or BookError when the side's goal is not proven within the plies."""
        t0 = time.perf_counter()
        level = self._level(self.root, 0)
        self.seconds = time.perf_counter() - t0
        if level < self.need:
            what = "win" if self.goal == "win" else "draw or better"
            raise BookError(f"no {what} for player {self.side} was proven from {self.root.text()} "
                            f"with the solver at {self.plies} plies")
        return Book(self.root.name, self._reached())

    def _level(self, state, ply):
        """What the tree proves of ``state`` for the side: 2 a win, 1 at least a draw (in a
        book of the draw), 0 not the goal."""
        if state.is_over:
            share = state.result()[self.side]
            return 2 if share == 1.0 else 1 if share == 0.5 else 0
        key, mirrored = self._canonical(state)
        if key in self.proven:
            return self.proven[key]
        if state.player == self.side:
            level = self._leaf(state, key, mirrored) if ply >= self.plies else self._some_move(state, ply)
        else:
            level = 2
            for m in self._ordered(state):
                level = min(level, self._level(self._after(state, m), ply + 1))
                if level < self.need:
                    level = 0
                    break
        self.proven[key] = level
        return level

    def _leaf(self, state, key, mirrored):
        levels = LEVELS[self.goal]

        def known():        # whether a journalled result shows what this goal needs
            return levels.get(self.leaves.get(key, ("",))[0]) is not None
        if not known():
            self._resume()   # a build sharing the journal may have tested it since
        if not known():
            if not self.solve:
                return 0
            result, move, nodes, seconds = self._test(state)
            self.leaves[key] = (result, self.mirror(move) if mirrored else move, nodes)
            self.solved += 1
            self._record(type(state).parse(self.mirror(state.text())) if mirrored else state,
                         result, self.leaves[key][1], nodes, seconds)
            if self.progress:
                self.progress(self.solved, state.text(), result, seconds)
        result, move, nodes = self.leaves[key]
        level = levels.get(result, 0)
        if level < self.need:
            return 0
        self._keep(state, self.mirror(move) if mirrored else move, level)
        if nodes is not None and nodes < self.thin:
            self.cheap.add(key)
        return level

    def _test(self, state):
        """(result, move name, nodes, seconds) of the leaf's test for the goal: a null-window
        test in a cleared table, or the solver's exact solve in a game with no length bound."""
        t0 = time.perf_counter()
        if state.length_bound is None:
            self.solver.new_game()
            r = self.solver.choose(state, seed=0, solve=True)
            return r.proven or "unproven", r.move_name, r.nodes, time.perf_counter() - t0
        if self._tests is None:
            from roost.search.wdl import WindowTests
            self._tests = WindowTests(self.tt)
        self._tests.clear()
        answer, move, _ = self._tests.test(state, self.goal)
        nodes = self._tests.nodes
        if answer is None:
            result = "unproven"
        elif self.goal == "win":
            result = "win" if answer else "nowin"
        elif not answer:
            result = "loss"
        elif self._tests.wins:
            result = "win"
        else:
            # a draw or better: the win test tells which, so that a won leaf has its winning
            # move (the position can be won in another book's tree, or after a slip)
            win, winning, _ = self._tests.test(state, "win", first=move)
            nodes += self._tests.nodes
            if win is None:
                result = "unproven"
            elif win:
                result, move = "win", winning
            else:
                result = "draw"
        name = state.move_name(move) if move >= 0 else "-"
        return result, name, nodes, time.perf_counter() - t0

    def _some_move(self, state, ply):
        for m in self._ordered(state):
            level = self._level(self._after(state, m), ply + 1)
            if level >= self.need:
                self._keep(state, state.move_name(m), level)
                return level
        return 0

    def _keep(self, state, move, level):
        self.moves[state.hash] = (state.copy(), BookMove(state.text(), move, "win" if level == 2 else "draw"))

    def _ordered(self, state):
        """The legal moves, best first for the player to move by a short search (in their
        own order when the book is assembled from the journal: any move it proves will do)."""
        if not self.solve:
            return state.legal()
        # the order depends on the position alone, not on what came before, and a mirror
        # image's is the mirror of its twin's (a build from the twin's root meets the same
        # leaves, which a shared journal then holds)
        _, mirrored = self._canonical(state)
        searched = type(state).parse(self.mirror(state.text())) if mirrored else state
        self.orderer.new_game()
        r = self.orderer.choose(searched, seed=0)
        ranked = [s.name for s in sorted(r.stats, key=lambda s: -s.value)]
        ranked = [state.parse_move(self.mirror(n) if mirrored else n) for n in ranked]
        return ranked + [m for m in state.legal() if m not in ranked]

    @staticmethod
    def _after(state, move):
        child = state.copy()
        child.play_unchecked(move)
        return child

    def _entry(self, state):
        """The side's move in a won position: its own, or its mirror image's mirrored (a
        position proven through its mirror image was not searched again)."""
        if state.hash in self.moves:
            return self.moves[state.hash][1]
        if self.mirror is not None:
            twin = type(state).parse(self.mirror(state.text()))
            if twin.hash in self.moves:
                entry = self.moves[twin.hash][1]
                return BookMove(state.text(), self.mirror(entry.move), entry.value)
        return None

    def _reached(self):
        """The lines the book's side can reach by following the book from the root: the
        won positions a failed try left behind are not part of it."""
        kept, seen, todo = [], set(), [self.root]
        while todo:
            state = todo.pop()
            if state.hash in seen or state.is_over:
                continue
            seen.add(state.hash)
            if state.player == self.side:
                entry = self._entry(state)
                if entry is None:
                    continue                      # beyond the book's depth
                if self._canonical(state)[0] in self.cheap:
                    continue                      # a leaf a proof in play settles
                kept.append((state, entry))
                todo.append(self._after(state, state.parse_move(entry.move)))
            else:
                todo.extend(self._after(state, m) for m in state.legal())
        return kept
