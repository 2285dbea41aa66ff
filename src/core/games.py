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


def _registry():
    from roost.core.ducks import Ducks
    games = [
        GameInfo("ducks", "Feed the Ducks", Ducks, 2, 2, 2, ("feed-the-ducks", "fd"),
                 "gather your 12 ducks into one group by dropping a crumb"),
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
