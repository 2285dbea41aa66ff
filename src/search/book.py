"""Opening books: the move to play in positions proven (or searched deeply) ahead of time.

A book is a text file, one position a line, made by ``roost book`` (``book_build.py``)::

    roost-book 1 connect4
    # any comment
    - 4 win
    44 4 win

The first line names the format and the game; each other line is the position in the game's
own position text (which may have spaces: a Feed the Ducks position is ``5/6/7/8/9/8/7/6/5 w
0``), the move to play there (its name, one word) and its value for the player to move
(``win``, ``draw`` or ``loss`` when proven, where ``draw`` in a book of the draw means at
least a draw; a number from 0 to 1 when searched).  One book can hold lines for every seat:
a line is the answer for whoever is to move in its position.  Lines are
looked up by the position's key (``State.hash``, the key the searchers use), so a position
reached by another order of the same moves finds its line too.  Text rather than a binary
table because the positions and moves read as they are played and review in a diff; the
key is computed when the book is read, so a book does not depend on the hash function.

The books roost ships live beside this module (``books/GAME.book``; the journals of the
builds they were assembled from in ``books/journals``); ``auto`` plays from them, and so do ``roost engine`` and ``roost analyse`` with auto (``auto:book=none`` plays
without one, ``auto:book=FILE`` from another file).
"""
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from roost.core.errors import RoostError

MAGIC = "roost-book"
VERSION = 1
PROVEN = ("win", "draw", "loss")
MAX_BOOK_BYTES = 64 << 20


class BookError(RoostError):
    """A book file that cannot be read: missing, of another game, or malformed."""


@dataclass(frozen=True)
class BookMove:
    """One book line: the move for a position and its value for the player to move."""
    position: str          # the position text as the book has it
    move: str              # the move's name
    value: str             # "win", "draw", "loss" (proven) or a number in [0, 1] (searched)

    @property
    def proven(self):
        """The proven result for the player to move, or '' for a searched value."""
        return self.value if self.value in PROVEN else ""

    @property
    def share(self):
        """The value as an expected result in [0, 1]."""
        proven = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        return proven[self.value] if self.value in proven else float(self.value)

    def line(self):
        return f"{self.position} {self.move} {self.value}"


class Book:
    """A game's book: position key -> BookMove."""

    def __init__(self, game, entries=(), source="(built)"):
        self.game = game                  # the game's registered name
        self.source = source
        self.entries = {}
        for state, entry in entries:
            self.entries[state.hash] = entry

    def __len__(self):
        return len(self.entries)

    def lookup(self, state):
        """The BookMove for ``state``, or None when the book does not hold it."""
        if state.name != self.game:
            return None
        entry = self.entries.get(state.hash)
        if entry is None or not state.is_legal(state.parse_move(entry.move)):
            return None
        return entry

    def text(self, comments=()):
        """The book in its file format (positions in order of stones, then text)."""
        head = [f"{MAGIC} {VERSION} {self.game}"] + [f"# {c}" for c in comments]
        lines = sorted(self.entries.values(), key=lambda e: (len(e.position), e.position))
        return "\n".join(head + [e.line() for e in lines]) + "\n"

    @classmethod
    def parse(cls, text, source="(text)", game=None):
        """A book from its file text; BookError naming the line at fault otherwise.
        ``game``: the game the book must be for (its registered name)."""
        from roost.core.games import get_game
        lines = text.splitlines()
        head = lines[0].split() if lines else []
        if len(head) != 3 or head[0] != MAGIC:
            raise BookError(f"{source} is not a roost book: its first line must be "
                            f"'{MAGIC} {VERSION} GAME'")
        if head[1] != str(VERSION):
            raise BookError(f"{source} is a book of format {head[1]!r}; this roost reads format {VERSION}")
        try:
            info = get_game(head[2])
        except RoostError:
            raise BookError(f"{source} is a book of {head[2]!r}, which is not a game roost knows") from None
        if game is not None and info.name != game:
            raise BookError(f"{source} is a book of {info.name}, not of {game}")
        entries = []
        for number, line in enumerate(lines[1:], 2):
            if not line.strip() or line.startswith("#"):
                continue
            words = line.split()
            where = f"{source} line {number}"
            if len(words) < 3:
                raise BookError(f"{where}: expected 'POSITION MOVE VALUE', got {line.strip()!r}")
            position, move, value = " ".join(words[:-2]), words[-2], words[-1]   # a position text may have spaces
            try:
                state = info.cls.parse(position)
                if not state.is_legal(state.parse_move(move)):
                    raise BookError(f"{where}: {move} is not a legal move in {position}")
            except BookError:
                raise
            except RoostError as e:
                raise BookError(f"{where}: {e}") from None
            if value not in PROVEN:
                try:
                    ok = 0.0 <= float(value) <= 1.0
                except ValueError:
                    ok = False
                if not ok:
                    raise BookError(f"{where}: the value must be win, draw, loss or a number "
                                    f"from 0 to 1, not {value!r}")
            entries.append((state, BookMove(position, move, value)))
        return cls(info.name, entries, source)

    @classmethod
    def read(cls, path, game=None):
        """The book in the file at ``path``; BookError when it cannot be read."""
        p = Path(path)
        try:
            if p.stat().st_size > MAX_BOOK_BYTES:
                raise BookError(f"{path} is larger than a book may be ({MAX_BOOK_BYTES >> 20} MB)")
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise BookError(f"no book file {path}") from None
        except IsADirectoryError:
            raise BookError(f"{path} is a directory, not a book file") from None
        except UnicodeDecodeError:
            raise BookError(f"{path} is not a roost book (not text)") from None
        except OSError as e:
            raise BookError(f"cannot read the book {path}: {e.strerror}") from None
        return cls.parse(text, source=str(path), game=game)


_shipped = {}


def shipped_book(game):
    """The book roost ships for ``game`` (a registered name), or None."""
    if game not in _shipped:
        res = resources.files("roost.search").joinpath("books", f"{game}.book")
        _shipped[game] = Book.parse(res.read_text(encoding="utf-8"), source=f"the {game} book", game=game) \
            if res.is_file() else None
    return _shipped[game]


def book_for(setting, game=None):
    """The book an engine's ``book`` setting names: ``game`` (the one shipped for ``game``,
    if any), ``none``, or a file (read once and kept; BookError if it cannot be read)."""
    if setting == "none":
        return None
    if setting == "game":
        return shipped_book(game) if game is not None else None
    key = ("file", str(Path(setting).resolve()))
    if key not in _shipped:
        _shipped[key] = Book.read(setting)
    book = _shipped[key]
    if game is not None and book.game != game:
        raise BookError(f"{setting} is a book of {book.game}, not of {game}")
    return book


def book_result(book, state, engine_spec):
    """The SearchResult of playing ``book``'s move in ``state`` (``info["book"]`` names the
    book), or None when the book has no line for it."""
    from roost.search.result import SearchResult
    entry = book.lookup(state) if book is not None else None
    if entry is None:
        return None
    move = state.parse_move(entry.move)
    return SearchResult(engine=f"{engine_spec} (book)", move=move, move_name=entry.move,
                        player=state.player, value=entry.share, score=entry.value,
                        pv=[entry.move], proven=entry.proven, info={"book": book.source})
