"""The registry: game names (and aliases) to game classes and their defaults."""
from dataclasses import dataclass, field

from roost.core.errors import GameError


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    cls: type
    min_players: int
    max_players: int
    default_players: int
    aliases: tuple = field(default=())
    summary: str = ""
    # Position texts the generic tests parse and round-trip; examples[0] is what commands
    # use when no POSITION is given.
    examples: tuple = field(default=())
    # The fixed position `roost bench` and benchmarks/ measure search and playouts from.
    bench_position: str = ""

    def start(self, players=None, seed=0):
        players = self.default_players if players is None else players
        if not self.min_players <= players <= self.max_players:
            raise GameError(
                f"{self.title} is played by {self.min_players}"
                + (f" to {self.max_players}" if self.max_players != self.min_players else "")
                + f" players, not {players}")
        return self.cls.start(players=players, seed=seed)

    def parse(self, text):
        return self.cls.parse(text)

    def default_position(self, players=None):
        """The position commands use when none is given: examples[0], or a fresh start."""
        if self.examples and (players is None or players == self.default_players):
            return self.parse(self.examples[0])
        return self.start(players=players, seed=0)


def _registry():
    from roost.core.ducks import Ducks
    from roost.core.tweeeet import Tweeeet
    games = [
        GameInfo("ducks", "Feed the Ducks", Ducks, 2, 2, 2, ("feed-the-ducks", "fd"),
                 "gather your 12 ducks into one group by dropping a crumb",
                 examples=("5/6/7/8/9/8/7/6/5 w 0",
                           "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0",
                           "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww b 0"),
                 bench_position="bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"),
        GameInfo("tweeeet", "Tweeeet", Tweeeet, 2, 2, 2, ("tweet",),
                 "fly your robins from bush to bush up the hex strip to the nests with the most energy",
                 examples=("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR",
                           "0:-...S...-/~..o.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. d1:8 e0:7 e0:8 e0:9 MB"),
                 bench_position=("0:-...S...-/~..o.o~.o/.o..~o.~o/o~.~..4.2/..~o.~o4./.~.oo.~4./"
                                 ".4o.~.~2./3.3o~..~./....4~o2~/...~423~./~~oo.5.../3.2~..~5./"
                                 "2~~.2..4./...25~.5~/35~~4.... d5:7 c6:6 d10:6 i2:5 MR")),
    ]
    return games


_GAMES = None


def all_games():
    global _GAMES
    if _GAMES is None:
        _GAMES = _registry()
    return list(_GAMES)


def get_game(name):
    """Look a game up by name or alias (case-insensitive); GameError names the choices."""
    key = name.strip().lower()
    for g in all_games():
        if key == g.name or key in g.aliases:
            return g
    raise GameError(f"unknown game {name!r}; known games: {', '.join(g.name for g in all_games())}")
