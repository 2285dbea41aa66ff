"""Opening suites: the positions a match or tournament starts its games from, as engine
testers play books of balanced openings (cutechess-cli's ``-openings file=... -repeat``).

A suite file has one opening a line: a position text of the game, or the names of moves
(chance outcomes included) played from the game's default position; blank lines and lines
starting with ``#`` are left out.  ``Suite.read`` checks every line and names the first
that is neither.

Which opening a game plays (``Suite.pick``): the games of a pairing are numbered 0, 1, ...
in the order the schedule plays them; with ``repeat`` the N games of a round (every
seating of N seats) share one opening, so the openings go by rounds, else each game has
its own.  The k-th opening taken is the suite's k-th (``sequential``), or the k-th of the
suite shuffled by the seed, shuffled anew each time the suite is used up (``random``).
Every pairing takes the same openings in the same order.

``generate`` makes a suite: random openings from the game's start that roost's own
analysis rates near even (every seat's expected result within a margin of 1/N).  The
suites shipped with roost (``data/openings/GAME-N.txt``, one per game and player count;
``--openings builtin``) were made by it: each file's header gives the command.
"""
import hashlib
import os
import random
from dataclasses import dataclass

from roost.core.errors import RoostError
from roost.core.seeds import derive_seed

ORDERS = ("sequential", "random")
BUILTIN = "builtin"
# a suite file larger than this is not a suite of positions (Wingspan's texts are 4 KB each)
MAX_BYTES = 64 << 20


class OpeningsError(RoostError):
    """A suite that cannot be read, or an opening that cannot be played."""


def shipped_path(game_name, players):
    """The file of the suite shipped for a game and player count (it may not exist)."""
    return os.path.join(os.path.dirname(__file__), "data", "openings", f"{game_name}-{players}.txt")


@dataclass(frozen=True)
class Suite:
    name: str                   # the file as given (or builtin:GAME-N)
    texts: tuple                # the openings' position texts, in the file's order
    digest: str                 # sha256 of the texts, one a line: what the suite is
    size: int = 0               # the openings of a suite known by its digest alone (no texts)

    @property
    def count(self):
        return len(self.texts) or self.size

    @classmethod
    def described(cls, d):
        """The suite a stored configuration names (``{"sha256", "count", ...}``): its size and
        digest, not its texts (each stored game has its opening)."""
        return cls(name="stored", texts=(), digest=d["sha256"], size=int(d["count"]))

    @classmethod
    def read(cls, game, players, path):
        """The suite in the file ``path`` (``builtin``: the one shipped for the game and
        ``players``) of ``game`` (a GameInfo)."""
        if path == BUILTIN:
            shipped = shipped_path(game.name, players)
            if not os.path.exists(shipped):
                folder = os.path.dirname(shipped)
                have = sorted(f[len(game.name) + 1:-4] for f in
                              (os.listdir(folder) if os.path.isdir(folder) else ())
                              if f.startswith(game.name + "-"))
                counts = f" (it has suites for {', '.join(have)} players)" if have else ""
                raise OpeningsError(f"roost ships no opening suite for {game.title} with {players} "
                                    f"players{counts}; `roost openings {game.name} --players "
                                    f"{players}` makes one")
            return cls._from_file(game, players, shipped, f"{BUILTIN}:{game.name}-{players}")
        return cls._from_file(game, players, path, path)

    @classmethod
    def _from_file(cls, game, players, path, name):
        if os.path.isdir(path):
            raise OpeningsError(f"{path} is a directory, not an opening suite")
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as e:
            raise OpeningsError(f"cannot read the opening suite {path}: {e.strerror}") from None
        if len(data) > MAX_BYTES:
            raise OpeningsError(f"{path} is larger than {MAX_BYTES >> 20} MB: not an opening suite")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise OpeningsError(f"{path} is not a text file (not UTF-8)") from None
        return cls.parse(game, players, text, name)

    @classmethod
    def parse(cls, game, players, text, name="suite"):
        texts = []
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            texts.append(opening_position(game, players, line, f"{name}, line {n}").text())
        if not texts:
            raise OpeningsError(f"{name} holds no opening (one position text or move list a line)")
        digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()
        return cls(name=name, texts=tuple(texts), digest=digest)

    def pick(self, number, seed, order="sequential"):
        """The index (from 0) of the opening the ``number``-th use of the suite takes."""
        return pick(self.count, number, seed, order)


def pick(count, number, seed, order="sequential"):
    """``Suite.pick`` for a suite of ``count`` openings."""
    lap, k = divmod(number, count)
    if order == "sequential":
        return k
    shuffled = list(range(count))
    random.Random(derive_seed(seed, 1 << 41, lap)).shuffle(shuffled)
    return shuffled[k]


def opening_position(game, players, line, where):
    """The position a line of a suite names: its text, or its moves from the game's default
    position; OpeningsError says why it is neither."""
    try:
        state = game.parse(line)
    except RoostError as as_text:
        state = None
        text_error = as_text
    if state is None:
        state = game.default_position(players)
        for i, name in enumerate(line.split(), 1):
            try:
                if state.is_over:
                    raise OpeningsError(f"the game is over after move {i - 1}")
                state.play_move(state.parse_move(name))
            except RoostError as e:
                raise OpeningsError(f"{where}: neither a position of {game.title} ({text_error}) "
                                    f"nor moves from its start (move {i}, {name!r}: {e})") from None
    if state.players != players:
        raise OpeningsError(f"{where}: a position of {state.players} players, not {players}")
    if state.is_over:
        raise OpeningsError(f"{where}: the game is already over there")
    return state


# ----------------------------------------------------------------------------- making one
def balanced(state, result, margin):
    """Whether a search ``result`` at ``state`` rates every seat within ``margin`` of an
    even share (1/N); None when the engine does not value every seat."""
    n = state.players
    values = list(result.values) if result.values else None
    if values is None and n == 2:
        values = [result.value, 1.0 - result.value]
        if state.player == 1:
            values.reverse()
    if values is None:
        return None
    return all(abs(v - 1.0 / n) <= margin for v in values)


def generate(game, players, count, plies, engine_spec, margin, seed, on_tried=None,
             most=None):
    """``count`` openings of ``game`` for ``players`` that ``engine_spec`` rates near even:
    from the game's start dealt with a seed derived from ``seed``, ``plies`` random plies
    (then chance played on to a decision), kept when every seat's expected result is within
    ``margin`` of 1/N and the position is new.  ``on_tried(tried, kept, text or None)`` hears
    each candidate; at most ``most`` candidates are tried (default 50 per opening asked).
    Returns the position texts in the order found."""
    from roost.arena.match import random_plies
    from roost.search.engines import parse_engine
    engine = parse_engine(engine_spec)
    most = most or 50 * count
    kept, seen, tried = [], set(), 0
    while len(kept) < count and tried < most:
        k = tried
        tried += 1
        state = game.start(players=players, seed=derive_seed(seed, k))
        if random_plies(state, plies, derive_seed(seed, k, 1)) < plies:
            continue
        j = 0
        while state.is_chance:
            state.play_unchecked(state.sample(derive_seed(seed, k, 2, j)))
            j += 1
        text = state.text()
        if state.is_over or text in seen:
            continue
        seen.add(text)
        engine.new_game()
        result = engine.choose(state, seed=derive_seed(seed, k, 3))
        ok = balanced(state, result, margin)
        if ok is None:
            raise OpeningsError(f"engine {engine.spec} does not value every seat of a "
                                f"{players}-player game; give one that does (mcts)")
        if ok:
            kept.append(text)
        if on_tried is not None:
            on_tried(tried, len(kept), text if ok else None)
    return kept
