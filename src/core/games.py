"""The registry: game names (and aliases) to game classes and their defaults."""
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


def _registry():
    from roost.core.ducks import Ducks
    from roost.core.cubirds import Cubirds, EXAMPLES as CUBIRDS_EXAMPLES, BENCH_POSITION as CUBIRDS_BENCH
    from roost.core.toys import DiceRace
    from roost.core.tweeeet import Tweeeet
    from roost.core.leaves import Leaves
    from roost.core import wingspan
    from roost.core.connect4 import Connect4
    games = [
        GameInfo("ducks", "Feed the Ducks", Ducks, 2, 2, 2, ("feed-the-ducks", "fd"),
                 "gather your 12 ducks into one group by dropping a crumb",
                 examples=("5/6/7/8/9/8/7/6/5 w 0",
                           "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0",
                           "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww b 0"),
                 bench_position="bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"),
        GameInfo("cubirds", "CuBirds", Cubirds, 2, 5, 4, ("cu-birds", "cb"),
                 "lay birds in the rows to capture the cards between, then flock them into "
                 "a collection of 7 species or two species of 3",
                 examples=CUBIRDS_EXAMPLES, bench_position=CUBIRDS_BENCH),
        GameInfo("tweeeet", "Tweeeet", Tweeeet, 2, 2, 2, ("tweet",),
                 "fly your robins from bush to bush up the hex strip to the nests with the most energy",
                 examples=("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR",
                           "0:-...S...-/~..o.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. d1:8 e0:7 e0:8 e0:9 MB"),
                 bench_position=("0:-...S...-/~..o.o~.o/.o..~o.~o/o~.~..4.2/..~o.~o4./.~.oo.~4./"
                                 ".4o.~.~2./3.3o~..~./....4~o2~/...~423~./~~oo.5.../3.2~..~5./"
                                 "2~~.2..4./...25~.5~/35~~4.... d5:7 c6:6 d10:6 i2:5 MR")),
        GameInfo("leaves", "Under the Leaves", Leaves, 2, 4, 2, ("under-the-leaves", "utl"),
                 "grow a garden of 13 tiles that draws bees, hummingbirds and garden dwellers",
                 examples=(
                     # a 2-player start (Leaves.start(2, seed=0))
                     "UTL p=2 cards=Flirty,Collector,Diver turn=1 tomove=0 market=24,38,44 "
                     "bag=2,3,4,5,7,9,10,11,12,17,19,20,21,26,27,28,31,37,41,42,43,47,48 "
                     "g0=S0@(0,0)o0 g1=S3@(0,0)o0",
                     # the example of docs/rules/leaves.md §11.4
                     "UTL p=2 cards=Flirty,Collector,Friendly turn=4 tomove=1 market=7,29,30 "
                     "bag=0,4,8,13,15,16,17,21,24,28,31,33,34,35,37,38,39,41,44,48 "
                     "g0=S1@(0,0)o0;43@(0,1)o5;42@(-1,1)o7 g1=S3@(0,0)o0;12@(1,0)o2",
                     # a refill pending (a chance node)
                     "UTL p=2 cards=Flirty,Explorer,Shy turn=17 tomove=0 market=48,49 "
                     "bag=6,7,9,10,23,24,41,43 g0=S0@(0,0)o0;30@(-1,0)o2;22@(-1,-1)o5;37@(0,1)o6;"
                     "17@(1,1)o3;3@(-1,1)o0;5@(1,2)o0;34@(1,3)o1;1@(0,2)o7 g1=S1@(0,0)o0;2@(0,1)o4;"
                     "12@(0,2)o6;32@(1,1)o1;40@(-1,0)o3;36@(1,0)o1;19@(0,3)o4;4@(1,3)o3;18@(-2,0)o3",
                     # 3- and 4-player starts (seed 0)
                     "UTL p=3 cards=Flirty,Collector,Diver turn=1 tomove=0 market=0,1,13 "
                     "bag=2,3,4,5,6,7,9,10,11,12,17,18,19,20,21,22,24,25,26,27,28,31,32,34,35,37,"
                     "38,41,42,43,44,46,47,48,49 g0=S0@(0,0)o0 g1=S3@(0,0)o0 g2=S2@(0,0)o0",
                     "UTL p=4 cards=Flirty,Collector,Diver turn=1 tomove=0 market=14,29,40 "
                     "bag=0,1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,19,20,21,22,23,24,25,26,27,"
                     "28,30,31,32,33,34,35,36,37,38,39,41,42,43,44,45,46,47,48,49 g0=S0@(0,0)o0 "
                     "g1=S3@(0,0)o0 g2=S2@(0,0)o0 g3=S1@(0,0)o0",
                 ),
                 # 2 players, turn 16 of 24, seat 1 to move
                 bench_position=(
                     "UTL p=2 cards=Flirty,Explorer,Shy turn=16 tomove=1 market=18,48,49 "
                     "bag=6,7,9,10,23,24,41,43 g0=S0@(0,0)o0;30@(-1,0)o2;22@(-1,-1)o5;37@(0,1)o6;"
                     "17@(1,1)o3;3@(-1,1)o0;5@(1,2)o0;34@(1,3)o1;1@(0,2)o7 g1=S1@(0,0)o0;2@(0,1)o4;"
                     "12@(0,2)o6;32@(1,1)o1;40@(-1,0)o3;36@(1,0)o1;19@(0,3)o4;4@(1,3)o3")),
        GameInfo("wingspan", "Wingspan", wingspan.Wingspan, 1, 5, 2, ("wingspan-core", "flugelschlag", "ws"),
                 "attract birds to your three habitats: play birds, gain food, lay eggs and draw "
                 "cards, and chain their powers (core set)",
                 examples=wingspan.example_positions(),
                 bench_position=wingspan.bench_position()),
        GameInfo("connect4", "Connect Four", Connect4, 2, 2, 2, ("connect-four", "connect_four", "c4"),
                 "drop stones into a 7x6 grid to line up four (OpenSpiel's connect_four; "
                 "solved positions in the calibration data)",
                 examples=("-", "4453", "444444326"),
                 bench_position="4453", calibration=True),
        GameInfo("dice", "Dice Race", DiceRace, 2, 2, 2, (),
                 "a toy with dice-like chance for testing the searchers",
                 examples=("0 0 6 0 -", "3 5 2 1 roll", "4 4 1 1 coin"),
                 bench_position="0 0 6 0 -", listed=False),
    ]
    return games


_GAMES = None


def registered_games():
    """Every registered game, test games included."""
    global _GAMES
    if _GAMES is None:
        _GAMES = _registry()
    return list(_GAMES)


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
