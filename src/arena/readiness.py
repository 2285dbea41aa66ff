"""What a match or tournament checks before its first game, so that a setup that cannot be
played is one error of the command instead of a forfeit in every game (as cutechess-cli
refuses to start a match with an engine that fails to initialize):

- every engine program starts, finishes its handshake and accepts the game and its number
  of players (``newgame`` and ``isready``); the error names the engine and quotes what it
  printed;
- every roost engine can search the game with that many players (a search of a few nodes
  from the start: the test ``roost analyse`` makes by searching);
- every random opening can be played in full without ending the game, which would leave
  the engines nothing to play.
"""
from roost.core.errors import RoostError
from roost.search.limit import Limit

# the search that shows an engine can play: enough for any engine to choose a move (one
# simulation is not, for OpenSpiel's MCTS), too little to take a moment
PROBE = Limit(time=0.1, nodes=64, depth=1)


class SetupError(RoostError):
    """A match or tournament that cannot be played as asked (said before any game)."""


def _decision(state, seed=0):
    """``state`` with chance played on to the first decision (None if the game ends first)."""
    k = 0
    while state.is_chance:
        state.play_unchecked(state.sample(seed + k))
        k += 1
    return None if state.is_over else state


def check_engines(game, specs, players, start=None):
    """SetupError for the first engine of ``specs`` that cannot play ``game`` with
    ``players`` seats from ``start`` (a State; default the game's start)."""
    from roost.search.engines import parse_spec
    from roost.search.forfeits import Forfeit
    first = start if start is not None else game.start(players=players, seed=0)
    state = _decision(first.copy())
    for spec in dict.fromkeys(specs):
        engine = parse_spec(spec).engine()
        if engine.external:
            try:
                engine.begin_game(game.name, first, 0)
            except Forfeit as f:
                raise SetupError(f"the engine {spec} cannot start a game: {f.detail}") from None
            finally:
                engine.close()
            continue
        if state is None:
            continue
        try:
            engine.choose(state.copy(), PROBE, seed=0)
        except Exception as e:       # whatever stops it here would stop it in every game
            raise SetupError(f"the engine {spec} cannot play {game.title} with {players} "
                             f"players: {e}") from None


def check_openings(game, players, plies, games, start=None):
    """SetupError when a random opening of ``plies`` would end a game: ``games`` are the
    (game seed, opening seed) of the games to play, from ``start`` (a State) or the game's
    start drawn from each game's seed."""
    from roost.arena.match import random_plies
    if not plies:
        return
    seen, short, shortest = set(), 0, plies
    for game_seed, opening_seed in games:
        state = start.copy() if start is not None else game.start(players=players, seed=game_seed)
        key = (state.text(), opening_seed)
        if key in seen:
            continue
        seen.add(key)
        played = random_plies(state, plies, opening_seed)
        if played < plies:
            short += 1
            shortest = min(shortest, played)
    if short:
        some = "a random opening" if short == 1 else f"{short} random openings"
        raise SetupError(f"--opening {plies} ends the game: {some} of {game.title} reached the end "
                         f"after {shortest} plies, leaving the engines nothing to play; give "
                         f"fewer plies than {shortest}")
