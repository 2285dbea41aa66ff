"""Building a book by deep searches, for games the solver cannot finish.

Where a game is too deep to prove (Feed the Ducks, Tweeeet), a book holds what a long search
chose, computed once ahead of play: every position within ``plies`` plies of the start that
the book's side reaches by following the book, against the other players' replies, gets a
search of its own and a line with the search's move and value (a number from 0 to 1 for the
player to move, or the proven result when the search proved one).  The book's side follows
its book move; at another player's position the tree follows every reply, or only the
``replies`` the search there rated best (by visits, then value), which is where play mostly
goes and keeps a deeper book affordable.  Those positions have lines too, so the book
answers for either seat.

A chance node ends a line: no book holds every draw.  Each search starts afresh
(``new_game``) with seed 0, so a position's line depends on it alone, and a build is the
same from run to run when the search is bounded by nodes, iterations or depth rather than
time.  Every search is appended to a journal as it finishes (the position, its move, value and
the moves in the search's order, between tabs: a position's text may have spaces), so an
interrupted build resumes where it stopped.
"""
import time
from pathlib import Path

from roost.search.book import Book, BookError, BookMove


class SearchBookBuilder:
    """Builds a book of deep searches from ``root`` to ``plies`` plies (see the module);
    ``engine`` is a spec's text or an EngineSpec."""

    def __init__(self, root, plies, engine, side=None, replies=0, journal=None, progress=None,
                 search=True):
        from roost.search.engines import parse_engine
        if root.hidden_info:
            raise BookError("a book is built for games of perfect information: the searches "
                            "of a seat that cannot see the others' cards do not make a line "
                            "any seat can play")
        if root.is_chance or root.is_over:
            raise BookError("a book starts from a position with a player to move")
        self.root = root
        self.plies = plies
        self.engine_spec = str(engine)
        self.engine = parse_engine(engine) if isinstance(engine, str) else engine.engine()
        self.side = root.player if side is None else side
        self.replies = replies          # 0: every reply
        self.journal = Path(journal) if journal else None
        self.progress = progress
        self.search = search            # False: only the journal's searches count
        self.lines = {}                 # key -> (BookMove, [reply names in the search's order])
        self.searched = 0               # searches made in this run
        self.seconds = 0.0
        self._resume()

    # --------------------------------------------------------------- the journal
    def _resume(self):
        if not self.journal or not self.journal.exists():
            return
        text = self.journal.read_bytes()
        whole = text[:text.rfind(b"\n") + 1].decode()     # a line still being written waits
        for number, line in enumerate(whole.splitlines(), 1):
            try:
                position, move, value, order = line.split("\t")
                order = order.split()
                state = type(self.root).parse(position)
                state.parse_move(move)
            except Exception:
                raise BookError(f"{self.journal} line {number} is not a search journal line "
                                f"(position, move, value and the moves in order, between tabs): "
                                f"{line!r}") from None
            self.lines[state.hash] = (BookMove(position, move, value), order)

    def _record(self, entry, order):
        if self.journal:
            with self.journal.open("a") as f:
                f.write("\t".join([entry.position, entry.move, entry.value, " ".join(order)]) + "\n")

    # --------------------------------------------------------------- the tree
    def build(self):
        """The book (a Book) of every line reached."""
        t0 = time.perf_counter()
        kept, seen, todo = [], set(), [(self.root, 0)]
        while todo:
            state, ply = todo.pop(0)          # breadth first: an interrupted build has the shallow lines
            if state.hash in seen or state.is_over or state.is_chance or ply > self.plies:
                continue
            seen.add(state.hash)
            line = self._line(state)
            if line is None:
                continue
            entry, order = line
            kept.append((state, entry))
            if state.player == self.side:
                follow = [entry.move]
            else:
                follow = order[:self.replies] if self.replies else order
            todo.extend((self._after(state, name), ply + 1) for name in follow)
        self.seconds = time.perf_counter() - t0
        return Book(self.root.name, kept)

    def _line(self, state):
        """The position's line and its moves in the search's order: from the journal, or
        searched now (None when assembling from the journal alone and it has none)."""
        if state.hash in self.lines:
            return self.lines[state.hash]
        if not self.search:
            return None
        self.engine.new_game()     # the line depends on the position alone, not on what came before
        r = self.engine.choose(state, seed=0)
        ranked = [s.name for s in sorted(r.stats, key=lambda s: (-s.visits, -(s.value or 0.0)))]
        order = ranked + [n for n in state.legal_names() if n not in ranked]
        value = r.proven or f"{r.value:.3f}"
        entry = BookMove(state.text(), r.move_name, value)
        self.lines[state.hash] = (entry, order)
        self.searched += 1
        self._record(entry, order)
        if self.progress:
            self.progress(self.searched, state.text(), r.move_name, value, r.seconds)
        return entry, order

    @staticmethod
    def _after(state, name):
        child = state.copy()
        child.play_unchecked(child.parse_move(name))
        return child
