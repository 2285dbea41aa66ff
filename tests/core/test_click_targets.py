"""The pictures a person clicks (the browser board): on positions along random games of
every game, each legal move's clicks (``render.move_targets``) name it alone, and every
target they name is drawn in the picture the mover sees (``data-target``); the last move's
marks are drawn in the picture after it, and every move of the games whose moves all put
something on the board (a duck or the crumb, a bird, a stone, a tile) leaves one."""
import random
import re

import pytest

from roost.arena.picture import position_svg, render_module
from roost.core.games import all_games

TARGETS = re.compile(r'data-target="([^"]+)"')


def positions(game, count=12, seed=7):
    """Positions along seeded random games (chance drawn at random), with the move played
    from each."""
    rnd = random.Random(seed)
    out = []
    players = game.min_players if game.name != "cubirds" else 3
    state = game.start(players=players, seed=seed)
    while len(out) < count:
        if state.is_over:
            state = game.start(players=players, seed=rnd.randrange(1 << 30))
            continue
        if state.is_chance:
            state.play_unchecked(state.sample(rnd.getrandbits(63)))
            continue
        move = rnd.choice(state.legal())
        if rnd.random() < 0.5:
            out.append((state.copy(), move))
        state.play_unchecked(move)
    return out


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_move_has_its_own_clicks_and_they_are_drawn(game):
    for state, _ in positions(game):
        module = render_module(state)
        drawn = set(TARGETS.findall(position_svg(state, state.player if state.hidden_info else None)))
        clicks = {}
        for m in state.legal():
            steps = tuple(tuple(step) for step in module.move_targets(state, m))
            assert steps and all(label for _, label in steps), state.move_name(m)
            assert steps not in clicks, f"{state.move_name(m)} and {clicks.get(steps)} are clicked alike"
            clicks[steps] = state.move_name(m)
            missing = [t for t, _ in steps if t is not None and t not in drawn]
            assert not missing, f"{state.move_name(m)}: {missing} not in the picture"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_the_last_move_is_marked_in_the_picture_after_it(game):
    for state, move in positions(game):
        module = render_module(state)
        marks = module.move_marks(state, move) if hasattr(module, "move_marks") else \
            [t for t, _ in module.move_targets(state, move) if t]
        after = state.copy()
        after.play_unchecked(move)
        drawn = set(TARGETS.findall(position_svg(after, None)))
        assert set(marks) <= drawn, (state.move_name(move), marks)
        if game.name in ("ducks", "tweeeet", "connect4", "leaves") or state.move_name(move)[1:2].isdigit():
            assert marks, state.move_name(move)          # CuBirds' lays too (R2L)
