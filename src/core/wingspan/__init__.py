"""Wingspan, core set (rules: docs/rules/wingspan.md), one concern per module:

- ``tables``      the rules' numbers and the card tables compiled from the data files
- ``state``       the position struct and frame stack (state.pxd); the class and hot contract
- ``cards``       the bird deck, its epochs, the tray and the bonus deck
- ``payments``    legal plays and minimal food payments
- ``setup``       the deal and the setup choices
- ``turn``        the action, playing a bird, mat steps, rows, pink queues, end of turn/round
- ``powers``      the power interpreter (§9)
- ``machine``     gen/apply/settle over the frame stack, playouts, the position key
- ``scoring``     goals, scores, the utility and the evaluation
- ``information`` what each seat sees, determinization
- ``record``      where the current turn started and the moves since (positions handed to Python)
- ``position``    the struct as plain values, for the plain-Python modules:
- ``text``        position text (docs/rules/wingspan-text.md): the table, and the moves since
- ``table``       the table at a turn's start, by name, written and read
- ``names``       the game's names, matched forgivingly
- ``told``        chance outcomes told among the moves
- ``views``       a seat's view, written and read back (its unseen cards dealt in a fixed way)
- ``worlds``      the record of a determinized position, so that it is written as text
- ``jsonform``    the JSON form of earlier versions (struct and frames), still read
- ``jsonform_fields`` that form's keys and the checks of its values as they enter
- ``jsonform_stack`` that form's stack of frames, read back and checked
- ``jsonform_views`` a seat's view in that form, still read
- ``moves``       move names
- ``render``      the text picture and the pending question
"""
from roost.core.wingspan.tables import (
    BIRDS, BONUS, GOALS, BIRD_NAMES, BIRD_SLUGS, BONUS_NAMES, BONUS_SLUGS, FOODS, HABS,
    HAB_LETTERS, NEST_NAMES, PURPOSES, KINDS, FRAME_NAMES)
from roost.core.wingspan.payments import _PAYMENTS, _minimal_payments
from roost.core.wingspan.state import Wingspan
from roost.core.wingspan.moves import move_name, parse_move
from roost.core.wingspan.text import parse_text as _parse_text   # what pickles of earlier versions name


def random_position(players, seed, plies):
    """A position reached by ``plies`` uniformly random decisions from ``start(players,
    seed)`` (the choices drawn from a generator seeded with ``seed``): a reproducible
    mid-game position for examples and benchmarks."""
    import random as _random
    rnd = _random.Random(seed)
    s = Wingspan.start(players=players, seed=seed)
    for _ in range(plies):
        if s.is_over:
            break
        s.play_unchecked(rnd.choice(s.legal()))
    return s


# A table as a player types it from a real game (docs/rules/wingspan-text.md): seat 0's
# view of its cards, the other seat's secret cards '?', the decks and the seed left out.
TYPED_TABLE = (
    '{"game": "wingspan", "players": 2, "board": "green", "goals": ["birds in forest", '
    '"eggs in grassland", "total birds", "bowl birds with an egg"], "round": 2, "turn": 1, '
    '"goal scores": [[1, 4]], "feeder": ["seed", "fish"], "tray": ["Bald Eagle", "Canada Goose", '
    '"House Wren"], "discard": ["Wild Turkey", "Eastern Bluebird", "Red-Winged Blackbird", '
    '"Cedar Waxwing"], "bonus discard": ["Anatomist (seat 0)", "? (seat 1)"], "seats": ['
    '{"forest": [{"bird": "Mourning Dove", "eggs": 2}], "grassland": [{"bird": "Killdeer", "eggs": 1}], '
    '"food": {"seed": 1, "fish": 1}, "cubes": 6, "hand": ["American Robin", "Mallard", "Carolina Wren"], '
    '"bonus": ["Backyard Birder"]}, {"forest": [{"bird": "Blue Jay", "cache": {"seed": 1}}, '
    '"Acorn Woodpecker"], "wetland": [{"bird": "Belted Kingfisher", "eggs": 2}], '
    '"food": {"invertebrate": 2, "rodent": 1}, "cubes": 6, '
    '"hand": ["?", "?", "?", "Great Blue Heron (shown)"], "bonus": ["?"]}]}')


def example_positions():
    """The registry's example texts: starts for 2, 1 and 5 players, mid-game positions for 2
    and 3 players, and a table as a player types it."""
    return (Wingspan.start(2, seed=0).text(), Wingspan.start(1, seed=0).text(),
            Wingspan.start(5, seed=0).text(), random_position(2, 7, 120).text(),
            random_position(3, 11, 260).text(), TYPED_TABLE)


def bench_position():
    """Two players in round 2, a fixed position for ``roost bench``."""
    return random_position(2, 3, 70).text()


from roost.core import games as _games
from roost.core.wingspan import render as _render

GAME = _games.register_game(_games.GameInfo(
    "wingspan", "Wingspan", Wingspan, 1, 5, 2, ("wingspan-core", "flugelschlag", "ws"),
    "attract birds to your three habitats: play birds, gain food, lay eggs and draw "
    "cards, and chain their powers (core set)",
    examples=example_positions(), bench_position=bench_position(), picture=_render))
