"""The names ``import roost`` offers (docs/library.md), imported together when the first
of them is used: every engine kind is registered (``roost.arena.engines``), so a spec names
any of them."""
import roost.arena.engines  # noqa: F401  (registers cmd: and openspiel:)
from roost.arena.match import GameRecord, MatchResult, TimeControl, play_game, play_match
from roost.core.errors import EngineSpecError, GameError, MoveError, PositionError, RoostError
from roost.core.games import GameInfo, all_games, get_game, register_game
from roost.core.moves import LineError, play_line
from roost.search.engine import Engine
from roost.search.engines import parse_engine, parse_spec, register_engine
from roost.search.limit import Limit
from roost.search.result import SearchResult
from roost.search.spec import EngineSpec, Param
