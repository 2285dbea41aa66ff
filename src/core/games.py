"""The registry: game names (and aliases) to their registrations.  Each game package
declares its own (``register_game(GameInfo(...))`` in the package): its name, title and
summary, player counts, example positions (the first is the default one), the position the
bench measures and the module that draws it.  The registry imports the packages roost
ships when it is first asked."""
from dataclasses import dataclass, field

from roost.core.errors import GameError, check_seed


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
    # False for test games: registered (generic tests run on them) but not listed as one
    # of the games roost plays.
    listed: bool = True
    # A calibration game: one roost shares with other programs (OpenSpiel, published
    # solvers) so speed and strength can be compared on the same work; `roost games`
    # lists these apart from the games roost is about.
    calibration: bool = False
    # The module that draws and names its positions: ``svg(state, observer)``, ``SIDE_NAMES``
    # and, for the browser's board, ``move_targets``, ``move_details``, ``move_marks``.
    picture: object = None

    def start(self, players=None, seed=0):
        players = self.default_players if players is None else players
        check_seed(seed)
        if not self.min_players <= players <= self.max_players:
            raise GameError(
                f"{self.title} is played by {self.min_players}"
                + (f" to {self.max_players}" if self.max_players != self.min_players else "")
                + f" players, not {players}")
        return self.cls.start(players=players, seed=seed)

    def parse(self, text):
        return self.cls.parse(text)

    def seats_seeing(self, text, state=None):
        """The seats whose view ``text`` is (``State.view(seat)``, what a seat of a game with
        hidden information is shown), () when it is a full position.  A view parses (its
        hidden cards dealt in a fixed way), so its position holds cards nobody saw: it is
        what those seats see, not the game.  ``state``: ``parse(text)``, if already made."""
        state = self.parse(text) if state is None else state
        view = getattr(state, "view", None)
        if not state.hidden_info or view is None or _same_text(state.text(), text):
            return ()
        return tuple(seat for seat in range(state.players) if _same_text(view(seat), text))

    def default_position(self, players=None):
        """The position commands use when none is given: examples[0], or a fresh start."""
        if self.examples and (players is None or players == self.default_players):
            return self.parse(self.examples[0])
        return self.start(players=players, seed=0)


def _same_text(written, given):
    """Whether ``given`` is the position text ``written``, up to spacing (and, for a JSON
    position, up to the order and spacing of its fields)."""
    if written.split() == given.split():
        return True
    if not written.lstrip().startswith("{"):
        return False
    import json
    try:
        return json.loads(written) == json.loads(given)
    except ValueError:
        return False


def register_game(info):
    """Make the game ``info`` (a GameInfo) known by its name and aliases, and return it.  A
    game package registers itself when it is imported; a name or alias another game holds
    is refused."""
    if not isinstance(info, GameInfo):
        raise TypeError(f"a game registers a GameInfo, not {info!r}")
    for key in (info.name, *info.aliases):
        holder = next((g for g in _GAMES.values() if key == g.name or key in g.aliases), None)
        if holder is not None and holder.name != info.name:
            raise ValueError(f"game name {key!r} is taken by {holder.title}")
    _GAMES[info.name] = info
    return info


_GAMES = {}          # name -> GameInfo, in the order the games registered


def _shipped():
    """The games roost ships, in the order they are listed: importing a package registers
    its game (``GAME``)."""
    from roost.core import connect4_game, cubirds, ducks, leaves, toys_game, tweeeet, wingspan
    return [m.GAME for m in (ducks, cubirds, tweeeet, leaves, wingspan, connect4_game, toys_game)]


def registered_games():
    """Every registered game, test games included: roost's own first, then any other
    registered."""
    shipped = _shipped()
    return shipped + [g for g in _GAMES.values() if g not in shipped]


def all_games():
    """The games roost plays (as `roost games` lists them)."""
    return [g for g in registered_games() if g.listed]


def get_game(name):
    """Look a game up by name or alias (case-insensitive); GameError names the choices."""
    key = name.strip().lower()
    for g in registered_games():
        if key == g.name or key in g.aliases:
            return g
    raise GameError(f"unknown game {name!r}; known games: {', '.join(g.name for g in all_games())}")
