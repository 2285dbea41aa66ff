"""The game registry (src/core/games.py): each game package declares its own registration
(``GAME``: name, player counts, title, positions, picture); the registry holds no table of
its own, and a game registered from outside is found like roost's own."""
import importlib

import pytest

from roost.core import games
from roost.core.errors import GameError
from roost.core.games import GameInfo, get_game, register_game, registered_games
from roost.core.toys import HiddenCard

PACKAGES = {"ducks": "roost.core.ducks", "cubirds": "roost.core.cubirds",
            "tweeeet": "roost.core.tweeeet", "leaves": "roost.core.leaves",
            "wingspan": "roost.core.wingspan", "connect4": "roost.core.connect4_game",
            "dice": "roost.core.toys_game"}


@pytest.mark.parametrize("name", PACKAGES)
def test_each_game_is_registered_by_its_own_package(name):
    declared = importlib.import_module(PACKAGES[name]).GAME
    assert get_game(name) is declared and declared.name == name
    start = declared.default_position()
    assert isinstance(start, declared.cls)
    if declared.listed:                      # every game roost plays draws its positions
        assert "<svg" in declared.picture.svg(start, None)


def test_the_registry_lists_roost_games_in_order_then_others(monkeypatch):
    monkeypatch.setattr(games, "_GAMES", dict(games._GAMES))
    assert [g.name for g in registered_games()] == list(PACKAGES)
    card = register_game(GameInfo("hidden-card", "Hidden Card", HiddenCard, 2, 2, 2, ("hc",),
                                  listed=False))
    assert registered_games()[-1] is card and get_game("HC") is card
    assert card not in games.all_games()
    with pytest.raises(ValueError, match="'fd' is taken by Feed the Ducks"):
        register_game(GameInfo("pond", "Pond", HiddenCard, 2, 2, 2, ("fd",)))
    with pytest.raises(TypeError, match="registers a GameInfo"):
        register_game("pond")
    with pytest.raises(GameError, match="unknown game 'pond'"):
        get_game("pond")
