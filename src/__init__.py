"""roost: game-tree search over one native game contract, as a library (docs/library.md).

The public names are read from ``roost._public`` when one is first used, so that importing
a module of roost (the engine worker, a game package) does not import the whole library."""

__all__ = [
    # games and positions
    "get_game", "all_games", "GameInfo", "register_game", "play_line", "LineError",
    # engines and searches
    "parse_spec", "parse_engine", "EngineSpec", "Param", "Engine", "register_engine", "Limit",
    "SearchResult",
    # games between engines
    "play_game", "play_match", "TimeControl", "GameRecord", "MatchResult",
    # the errors bad input raises
    "RoostError", "GameError", "PositionError", "MoveError", "EngineSpecError",
]


def __getattr__(name):
    if name not in __all__:
        raise AttributeError(f"module 'roost' has no attribute {name!r}")
    from roost import _public
    return getattr(_public, name)


def __dir__():
    return sorted(__all__)
