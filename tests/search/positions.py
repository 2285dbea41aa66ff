"""Positions the searcher tests share: for every registered game, decision positions of
several kinds (the game's bench position, the middle and the end of seeded random games, and
the moment before chance acts: a CuBirds redeal, a Tweeeet row draw, a Leaves refill), plus
two CuBirds positions where a search that did not bound its chance plies would never return."""
import random

from roost.core.games import get_game, registered_games

# the mover's hand is empty, so a redeal of 8 cards each follows any move
CUBIRDS_REDEAL = (
    '{"players": 2, "dealer": 1, "to_move": 1, "phase": "draw", "rows": ["OPPPPW", '
    '"PRRRRRRRRRRRRRRRRRRR", "PDDDDDD", "TTWWDDOOOOO"], "hands": ["FPPP", ""], "known": '
    '["FPPP", ""], "lacks": ["OTDPMWR", "OTDPMWR"], "collections": ["FFOTMWWW", "FTTDPMM"], '
    '"discard": "", "deck": "FFFOOOTTTTTDDDDPPPMMMMMMMMMMMMMMWWWWWWWWWWWWWWR", "turn": 65}')
# a lay-phase position where ab:depth=2 must return
CUBIRDS_LAY = (
    '{"players": 2, "dealer": 0, "to_move": 1, "phase": "lay", "rows": ["RRWMM", "WMP", "WDR", '
    '"WWORFPP"], "hands": ["DDPRRRR", "WWW"], "known": ["", ""], "lacks": ["", "OTMR"], '
    '"collections": ["W", "OTTMM"], "discard": "OOTTTTMMMMMMWRR", "deck": '
    '"FFFFFFOOOOOOTTTTDDDDDDDDDDPPPPPPPPPMMMMMMWWWWWWWWWWRRRRRRRRRR", "turn": 9}')


def tweeeet_middle():
    """A Tweeeet position a few seeded flights in, with rows laid as they came."""
    s = get_game("tweeeet").start(seed=5)
    for k in range(6):
        s.play_unchecked(sorted(s.legal())[k % 3])
        while s.is_chance:
            s.play_unchecked(s.sample(11 + k))
    return s


def random_game(info, players, seed):
    """The states of one seeded random game (uniform moves, chance by its probabilities)."""
    rnd = random.Random(seed)
    s = info.start(players=players, seed=seed)
    states = [s.copy()]
    while not s.is_over:
        if s.is_chance:
            s.play_unchecked(s.sample(rnd.getrandbits(63)))
        else:
            s.play_unchecked(rnd.choice(s.legal()))
        states.append(s.copy())
    return states


def leads_to_chance(state):
    """Some move here hands the turn to chance."""
    for m in state.legal():
        c = state.copy()
        c.play_unchecked(m)
        if c.is_chance:
            return True
    return False


def decisions(states):
    return [s for s in states if not s.is_over and not s.is_chance]


def kinds_of_positions(info, players=None, seed=1):
    """[(label, state)]: the middle of a random game, near its end and, where the game has
    chance, the first decision whose move leads to chance past the game's first quarter."""
    players = players or info.default_players
    for k in range(20):
        states = decisions(random_game(info, players, seed + k))
        if len(states) >= 4:
            break
    out = [(f"{info.name}/{players}p middle", states[len(states) // 2]),
           (f"{info.name}/{players}p end", states[-2])]
    before = [s for s in states[len(states) // 4:] if leads_to_chance(s)]
    if before:
        out.append((f"{info.name}/{players}p before chance", before[0]))
    return out


def bench_position(info):
    s = info.parse(info.bench_position)
    rnd = random.Random(0)
    while s.is_chance:
        s.play_unchecked(s.sample(rnd.getrandbits(63)))
    return s


def every_game_positions():
    """[(label, state)] over every registered game: its bench position, the first decision
    before chance (else the middle of a game) at the default player count, the middle of a
    game at the largest player count, and the two CuBirds positions above."""
    out = []
    for info in registered_games():
        out.append((f"{info.name} bench", bench_position(info)))
        kinds = dict(kinds_of_positions(info))
        default = f"{info.name}/{info.default_players}p "
        label = default + ("before chance" if default + "before chance" in kinds else "middle")
        out.append((label, kinds[label]))
        if info.max_players > info.default_players:
            label = f"{info.name}/{info.max_players}p middle"
            out.append((label, dict(kinds_of_positions(info, info.max_players))[label]))
    cubirds = get_game("cubirds")
    out.append(("cubirds redeal after any move", cubirds.parse(CUBIRDS_REDEAL)))
    out.append(("cubirds lay with deep chance", cubirds.parse(CUBIRDS_LAY)))
    return out
