"""Building a book with roost's own solver: a proof tree of one side's win.

The book holds, for the side it is built for, one winning move in every position that side
can reach by following the book against any defence, to ``plies`` plies from the start.  It
is proven the way a proof tree is: a position of the side's is won when one of its moves
leads to a won position; a position of the opponent's is won when every reply does; at the
book's depth the solver (alpha-beta, ``solve=True``) proves the position and gives its move.
Only those last positions are solved, so the cost is the leaves' solves, not the much
dearer solves of the shallow positions.  The side's moves are tried best first by a short
alpha-beta search (a fixed node count, so a build is the same from run to run), and the
opponent's replies in the same order, so that a refutation is met early.

Positions are remembered by key (transpositions are proven once) and, for games with a
mirror symmetry (``MIRRORS``), by the lesser key of a position and its mirror image.  Every
leaf proven is appended to a journal as it finishes, so an interrupted build resumes where
it stopped, and builds of different parts of one tree can share one journal; a book can be
assembled from a journal alone (``solve=False``: the positions it has not solved count as
not won).
"""
import time
from pathlib import Path

from roost.search.book import Book, BookError, BookMove

ORDER_NODES = 100_000          # alpha-beta nodes of the search that orders the moves to try


def _mirror_connect4(text):
    return text if text == "-" else "".join(str(8 - int(c)) for c in text)


# game -> the position text (and move name) mirrored, for games symmetric left to right
MIRRORS = {"connect4": _mirror_connect4}


class BookBuilder:
    """Builds a book of ``side``'s win from ``root`` to ``plies`` plies (see the module)."""

    def __init__(self, root, plies, side=None, tt=64, journal=None, progress=None,
                 order_nodes=ORDER_NODES, solve=True):
        from roost.search.engines import parse_engine
        if root.players != 2 or root.hidden_info or root.is_chance:
            raise BookError("a book is proven for two-player games of perfect information "
                            "from a position with a player to move")
        self.root = root
        self.plies = plies
        self.side = root.player if side is None else side
        self.mirror = MIRRORS.get(root.name)
        self.solver = parse_engine(f"ab:tt={tt}")
        self.orderer = parse_engine(f"ab:nodes={order_nodes},tt=4")
        self.journal = Path(journal) if journal else None
        self.progress = progress
        self.solve = solve         # False: only the journal's solves count (a book assembled from it)
        self.proven = {}           # canonical key -> won for the side (True/False)
        self.leaves = {}           # canonical key -> (proven result, move name in the keyed text)
        self.moves = {}            # key -> (state, BookMove) of the side's won positions
        self.solved = 0            # leaves solved in this run
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
        once), so that builds of different parts of one tree run side by side."""
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
                position, result, move = words
                state = type(self.root).parse(position)
            except Exception:
                raise BookError(f"{self.journal} line {number} is not a journal line "
                                f"'POSITION RESULT MOVE': {line!r}") from None
            key, mirrored = self._canonical(state)
            self.leaves[key] = (result, self.mirror(move) if mirrored else move)

    def _record(self, state, result, move):
        if self.journal:
            with self.journal.open("a") as f:
                f.write(f"{state.text()} {result} {move}\n")
            self._resume()

    # --------------------------------------------------------------- the proof
    def build(self):
        """The book (a Book), or BookError when the side has no win within the plies."""
        t0 = time.perf_counter()
        won = self._won(self.root, 0)
        self.seconds = time.perf_counter() - t0
        if not won:
            raise BookError(f"no win for player {self.side} was proven from {self.root.text()} "
                            f"with the solver at {self.plies} plies")
        return Book(self.root.name, self._reached())

    def _won(self, state, ply):
        if state.is_over:
            return state.result()[self.side] == 1.0
        key, mirrored = self._canonical(state)
        if key in self.proven:
            return self.proven[key]
        if state.player == self.side:
            won = self._leaf(state, key, mirrored) if ply >= self.plies else self._some_move(state, ply)
        else:
            won = all(self._won(self._after(state, m), ply + 1) for m in self._ordered(state))
        self.proven[key] = won
        return won

    def _leaf(self, state, key, mirrored):
        if key not in self.leaves:
            self._resume()
        if key not in self.leaves and not self.solve:
            return False
        if key not in self.leaves:
            r = self.solver.choose(state, seed=0, solve=True)
            result = r.proven or "unproven"
            self.leaves[key] = (result, self.mirror(r.move_name) if mirrored else r.move_name)
            self.solved += 1
            self._record(type(state).parse(self.mirror(state.text())) if mirrored else state,
                         result, self.leaves[key][1])
            if self.progress:
                self.progress(self.solved, state.text(), result, r.seconds)
        result, move = self.leaves[key]
        if result != "win":
            return False
        self._keep(state, self.mirror(move) if mirrored else move)
        return True

    def _some_move(self, state, ply):
        for m in self._ordered(state):
            if self._won(self._after(state, m), ply + 1):
                self._keep(state, state.move_name(m))
                return True
        return False

    def _keep(self, state, move):
        self.moves[state.hash] = (state.copy(), BookMove(state.text(), move, "win"))

    def _ordered(self, state):
        """The legal moves, best first for the player to move by a short search (in their
        own order when the book is assembled from the journal: any move it proves will do)."""
        if not self.solve:
            return state.legal()
        self.orderer.new_game()        # the order depends on the position alone, not on what came before
        r = self.orderer.choose(state, seed=0)
        ranked = [s.move for s in sorted(r.stats, key=lambda s: -s.value)]
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
                kept.append((state, entry))
                todo.append(self._after(state, state.parse_move(entry.move)))
            else:
                todo.extend(self._after(state, m) for m in state.legal())
        return kept
