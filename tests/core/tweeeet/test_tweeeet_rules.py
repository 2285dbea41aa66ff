"""Rules tests for Tweeeet (docs/rules/tweeeet.md).  Each test cites the section it
checks.  Expected values are derived by hand in the comments (distances counted cell by
cell on the odd-r layout), or by the independent pure-Python reference in
tests/core/tweeeet/reference.py, which is written from the rules file and shares no code
with the native game."""
import json
import pathlib
import random

import pytest

from roost.core.errors import GameError, MoveError, PositionError
from roost.core.games import get_game
from roost.core.tweeeet import Tweeeet, neighbours

from tests.core.tweeeet import reference as ref  # noqa: E402

EXAMPLE = "0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR"

# An endgame board, rows 15..19 (used for nests and pairs).
#   19  N . N . N . N . N
#   18  o . ~ o . ~ . . o
#   17   . 5 . . . ~ 2 ~ 4
#   16  ~ . o . . . ~ 3 4
#   15   . ~ o ~ . . 2 . 3
NB = "15:.~o~..2.3/~.o...~34/.5...~2~4/o.~o.~..o/N.N.N.N.N"

# A walled corridor in column a, rows 14..19: b14..b18 are water, row 13 is gone.
#   a14 food 3, a15 and a16 grass, a17 and a18 empty bushes, a19 a nest.
CORRIDOR = "14:3~.~..2.4/.~2.~.3.4/.~.3.~.45/o~.2.~.3./o~..2~.3./N.N.N.N.N"


def P(board, birds, mover):
    return Tweeeet.parse(f"{board} {birds} {mover}")


def R(board, birds, mover):
    return ref.Ref(f"{board} {birds} {mover}")


# ---------------------------------------------------------------------------- Board
def test_neighbours_follow_the_odd_r_layout():
    # docs/rules/tweeeet.md §2.2: (x±1, y); even y: (x-1, y±1), (x, y±1); odd y: (x, y±1),
    # (x+1, y±1)
    assert neighbours("e0") == ["d0", "d1", "e1", "f0"]
    assert neighbours("c7") == ["b7", "c6", "c8", "d6", "d7", "d8"]
    assert neighbours("d8") == ["c7", "c8", "c9", "d7", "d9", "e8"]
    assert neighbours("a13") == ["a12", "a14", "b12", "b13", "b14"]
    assert neighbours("i14") == ["h13", "h14", "h15", "i13", "i15"]
    assert neighbours("a19") == ["a18", "b18", "b19"]
    for y in range(20):
        for x in range(9):
            want = sorted(ref.name(c) for c in ref.neighbours(x, y))
            assert neighbours(f"{'abcdefghi'[x]}{y}") == want


def test_start_row_and_nest_row_cells():
    # docs/rules/tweeeet.md §2.3, §2.5: a0 and i0 do not exist; nests on a19 c19 e19 g19 i19
    s = Tweeeet.parse(EXAMPLE)
    assert s.row_text(0) == "-...S...-"
    s = P(NB, "d18:3 c19:6 a18:2 i18:5", "MR")
    assert s.row_text(19) == "N.N.N.N.N"


# ---------------------------------------------------------------------------- A flight
def test_example_start_flights_and_costs():
    # docs/rules/tweeeet.md §5.1, §5.3, §14.1: from e0 with 6 energy.  By hand: d1 is next
    # to e0 (1 step);
    # f1 and f2 via f0/e1 (2); b2 via d0-c0-b1 (4); i1 and i2 via f0-g0-h0-h1 (5), g1 being
    # water; d4 via d0-c1-c2-c3 (5); g3, g4, h4 ... lie beyond 6 steps or behind food.
    s = Tweeeet.parse(EXAMPLE)
    assert s.legal_names() == ["d1", "f1", "i1", "b2", "f2", "i2", "d4"]
    want = {"d1": 1, "f1": 2, "f2": 2, "b2": 4, "i1": 5, "i2": 5, "d4": 5}
    for target, d in want.items():
        assert s.distance(target) == d
    assert s.distance("g3") is None


def test_landing_on_a_bush_eats_its_food():
    # docs/rules/tweeeet.md §5.3: gains the food's value, pays 1 a step, bush left empty
    s = Tweeeet.parse(EXAMPLE).play_move("i1")     # 5 steps, currant 2
    assert s.bird("MR") == ("i1", 6 - 5 + 2)
    assert s.row_text(1) == "~..3.5~.o"
    s = Tweeeet.parse(EXAMPLE).play_move("d1")     # 1 step, blackberry 3
    assert s.bird("MR") == ("d1", 8)
    assert s.row_text(1) == "~..o.5~.2"


def test_flight_goes_around_a_bird():
    # docs/rules/tweeeet.md §5.1, §5.3: cells passed must hold no bird; only the shortest
    # path counts.
    # MR on c15 (b15, d15 water) reaches b17 (beetle 5) via c16 in 2 steps.  With MB on
    # c16 it must go d16-c17-b17: 3 steps.  Nothing else is within 4 (c19 and e19 are
    # not its partner's nest i19; the foods on the right are 5+ steps away).
    free = P(NB, "c15:4 g19:6 i19:5 g19:5", "MR")
    assert free.legal_names() == ["b17"]
    assert free.distance("b17") == 2
    blocked = P(NB, "c15:4 c16:6 i19:5 g19:5", "MR")
    assert blocked.legal_names() == ["b17"]
    assert blocked.distance("b17") == 3
    assert blocked.copy().play_move("b17").bird("MR") == ("b17", 4 - 3 + 5)
    assert free.copy().play_move("b17").bird("MR") == ("b17", 4 - 2 + 5)


def test_no_passing_over_food():
    # docs/rules/tweeeet.md §5.1: bushes with food cannot be passed.  In the corridor with a16 a
    # caterpillar, FR on a17 can land on a16 or a19 (its partner's nest) but not reach the
    # food on a14 behind a16.
    board = CORRIDOR.replace("/.~.3.~.45/", "/4~.3.~.4./")
    s = P(board, "a19:5 e19:4 a17:9 e19:4", "FR")
    assert s.legal_names() == ["a16", "a19"]
    open_ = P(CORRIDOR, "a19:5 e19:4 a17:9 e19:4", "FR")
    assert open_.legal_names() == ["a14", "a19"]
    assert open_.distance("a14") == 3


def test_no_passing_over_nests():
    # docs/rules/tweeeet.md §5.1: nests cannot be passed.  FR on a18 (b18 water, MR on a17) reaches
    # only a19; c19 and the rest of row 19 lie behind the nest.
    s = P(CORRIDOR, "a17:5 e19:4 a18:9 e19:4", "FR")
    assert s.legal_names() == ["a19"]


def test_energy_limits_the_path():
    # docs/rules/tweeeet.md §5.3: the path may be at most as long as the energy
    s = P(CORRIDOR, "a19:5 e19:4 a17:2 e19:4", "FR")     # a14 is 3 away
    assert s.legal_names() == ["a19"]


# ---------------------------------------------------------------------------- Nests
def test_first_bird_of_a_pair_chooses_a_nest_without_the_other_pair():
    # docs/rules/tweeeet.md §5.4: MR on d18 with 3 energy; c19 is next to it but holds MB.
    # By hand: d1 e18 c17 d17 d19; d2 reaches e19 (via e18 or d19) and b17 (via c17).
    s = P(NB, "d18:3 c19:6 a18:2 i18:5", "MR")
    assert s.legal_names() == ["b17", "e19"]
    # with MB's pair in g19 instead, c19 (1 step) is open to MR
    s = P(NB, "d18:3 g19:6 a18:2 i18:5", "MR")
    assert s.legal_names() == ["b17", "c19", "e19"]


def test_partner_must_use_the_same_nest():
    # docs/rules/tweeeet.md §5.4: FR sits in a19, so MR may use no other nest (c19, e19 are
    # reachable but not allowed; a19 is beyond 3 steps)
    s = P(NB, "d18:3 g19:6 a19:2 i18:5", "MR")
    assert s.legal_names() == ["b17"]
    s = P(NB, "d18:3 g19:6 e19:2 i18:5", "MR")
    assert s.legal_names() == ["b17", "e19"]


def test_landing_in_a_nest_gains_nothing_and_nested_birds_are_skipped():
    # docs/rules/tweeeet.md §5.3, §5.4: landing in a nest gains nothing; §3.2: a bird in a
    # nest is skipped
    s = P(NB, "d18:3 c19:6 a18:2 i18:5", "MR").play_move("e19")
    assert s.bird("MR") == ("e19", 1)
    assert s.bird_to_move == "FR"             # MB (in c19) is skipped
    # FR must now use e19, out of its reach: its only flight is the beetle on b17
    assert s.legal_names() == ["b17"]


# ---------------------------------------------------------------------------- Passing, dying
def test_pass_when_blocked_by_birds_and_a_pass_is_a_move():
    # docs/rules/tweeeet.md §6.1, §6.3, §14.2: FR on a17 (2 energy) would reach a19 (MR's nest)
    # through a18 in 2 steps, but MB sits on a18: FR passes.  MB (3 energy) then cannot reach a14
    # (4 steps even through FR) nor its partner's nest: it dies and the robins win.
    s = P(CORRIDOR, "a19:5 a18:3 a17:2 e19:4", "FR")
    assert s.legal_names() == ["pass"]
    assert s.perft(1) == 1                     # docs/rules/tweeeet.md §12: a pass is a move
    s.play_move("pass")
    assert s.is_over and s.result() == (1.0, 0.0)
    assert s.bird_to_move == "MB"


# Rows 15..19: a18 is an empty bush walled in by water on a17 and b18; its third
# neighbour is the nest a19.
NEST_WALL = "15:.3..~2.~4/..3~.4.~2/~.3.4~.2./o~..~..3o/N.N.N.N.N"


def test_lifting_birds_never_opens_a_nest():
    # docs/rules/tweeeet.md §6.2, §14.4: lifting a bird never opens a nest.  FR on a18
    # has no flight: its neighbours are water (a17, b18) and the nest a19, which holds MB
    # (the other pair: FR may not land there either).  Lifted, MB would leave a19 a nest,
    # still impassable, so FR's only way out stays shut whatever its energy: it dies and the
    # robins lose.  (Were a19 opened, c17 (3) would be 4 steps away: a19 b19 c18 c17.)
    for energy in (3, 4, 9):
        s = P(NEST_WALL, f"e19:5 a19:4 a18:{energy} i18:3", "FR")
        assert s.is_over and s.result() == (0.0, 1.0)
        assert s.legal() == [] and s.perft(1) == 0
        assert R(NEST_WALL, f"e19:5 a19:4 a18:{energy} i18:3", "FR").legal() == []


# Rows 14..19: MR on a18, an empty bush between water (a17, b18) and
# the nest a19, where MB sits.
THROUGH_A_NEST = "14:.~..~.222/.~..~.333/..~~..444/~...~.555/o~..~.oo./N.N.N.N.N"


def test_a_bird_whose_only_way_runs_through_a_nest_dies():
    # docs/rules/tweeeet.md §6.2: a bird whose only way runs through a nest held by the
    # other pair dies.  MR (5 energy) on a18: b18 and a17 are water, a19 holds MB.  Through a19 it
    # would reach the free nest c19 in 3 steps (a19 b19 c19), but a nest is never opened by
    # lifting its bird: MR has no move, dies, and the robins (player 1) lose; perft(1) = 0.
    s = P(THROUGH_A_NEST, "a18:5 a19:3 g18:2 h18:4", "MR")
    assert s.legal() == [] and s.perft(1) == 0
    assert s.is_over and s.result() == (0.0, 1.0)
    assert R(THROUGH_A_NEST, "a18:5 a19:3 g18:2 h18:4", "MR").legal() == []


def test_lifting_opens_an_empty_bush_but_never_a_nest():
    # docs/rules/tweeeet.md §6.2: lifted birds open only the cells passable
    # without them.  The corridor with a14 emptied (no food inside the walls), FR on a17
    # with 9 energy.  MR in a19 and MB on the empty bush a18: lifted, MB opens a18 and FR
    # would reach its partner's nest a19 in 2 steps, so FR passes.  MR in c19 and MB in
    # a19 instead: a19 holds the other pair (no landing, landing rules unchanged) and,
    # being a nest, stays shut when MB is lifted, so FR's way to c19 (a18 a19 b19 c19, 4
    # steps) is no way at all: FR dies and the robins lose.
    board = CORRIDOR.replace("14:3~", "14:o~")
    s = P(board, "a19:5 a18:3 a17:9 e19:4", "FR")
    assert s.legal_names() == ["pass"]
    assert R(board, "a19:5 a18:3 a17:9 e19:4", "FR").legal() == ["pass"]
    s = P(board, "c19:5 a19:3 a17:9 a14:4", "FR")
    assert s.is_over and s.result() == (0.0, 1.0)
    assert R(board, "c19:5 a19:3 a17:9 a14:4", "FR").legal() == []


def test_death_when_out_of_energy():
    # docs/rules/tweeeet.md §6.3: with 1 energy FR cannot reach a19 even with MB lifted
    s = P(CORRIDOR, "a19:5 a18:4 a17:1 e19:4", "FR")
    assert s.is_over and s.result() == (0.0, 1.0)
    assert s.legal() == []
    s = P(CORRIDOR, "a19:5 a18:4 a17:0 e19:4", "FR")
    assert s.is_over and s.result() == (0.0, 1.0)


def test_everyone_only_passing_is_a_draw():
    # docs/rules/tweeeet.md §6.4, §14.3: FR (2) passes, blocked
    # by MB on a18; MB (4) would reach a14 through FR (4 steps): it passes too.  Nothing
    # can ever change: the game ends drawn.
    s = P(CORRIDOR, "a19:5 a18:4 a17:2 e19:4", "FR")
    assert s.is_over and s.result() == (0.5, 0.5)
    assert s.perft(1) == 0


def test_walled_in_by_water_dies():
    # docs/rules/tweeeet.md §6.3: walled in by water.  The corridor without food (a14 an
    # empty bush); FR on a17 with 9 energy must use MR's nest c19, outside the walls.
    board = CORRIDOR.replace("14:3~", "14:o~")
    s = P(board, "c19:5 e19:4 a17:9 e19:4", "FR")
    assert s.is_over and s.result() == (0.0, 1.0)
    # with MR in a19 instead, FR flies there (a18 is empty): 2 steps
    s = P(board, "a19:5 e19:4 a17:9 e19:4", "FR")
    assert s.legal_names() == ["a19"]


# ---------------------------------------------------------------------------- Landscape
def test_laying_rows_after_a_flight_is_chance():
    # docs/rules/tweeeet.md §7.1, §9: rows are laid, each a chance event, until the highest
    # is 4 above the bird that flew.
    s = Tweeeet.parse(EXAMPLE).play_move("d1")       # row 1: one row (5) to lay
    assert s.is_chance and s.rows == (0, 4)
    # rows 1..5 hold 10 water cells; no chain a..i fits in 5 rows, so every row is allowed
    outs = s.chances()
    assert len(outs) == 36 * 35 * 64 == 80640
    assert abs(sum(p for _, p in outs) - 1.0) < 1e-9
    s.play_move(s.parse_move("..2~3.4~."))
    assert not s.is_chance and s.rows == (0, 5)
    assert s.row_text(5) == "..2~3.4~."
    assert s.bird_to_move == "MB"
    s = Tweeeet.parse(EXAMPLE).play_move("d4")       # row 4: rows 5..8, four chance events
    events = 0
    rnd = random.Random(0)
    while s.is_chance:
        s.play_unchecked(s.sample(rnd.getrandbits(60)))
        events += 1
    assert events == 4 and s.rows == (0, 8)


def test_no_row_laid_when_the_front_is_far_enough():
    # docs/rules/tweeeet.md §7.1: laid only while the highest row is at most 3 above the bird
    # After MR's d1 and row 5, MB (on e0, d1 blocked by MR) flies to f1 (2 steps): row 5
    # is 4 above row 1, so nothing is laid and FR moves at once.
    s = Tweeeet.parse(EXAMPLE).play_move("d1")
    s.play_move(s.parse_move("..2~3.4~."))
    assert s.distance("f1") == 2
    s.play_move("f1")
    assert s.bird("MB") == ("f1", 7 - 2 + 5)
    assert not s.is_chance and s.rows == (0, 5) and s.bird_to_move == "FR"


def test_nest_row_is_laid_automatically():
    # docs/rules/tweeeet.md §7.4: row 19 is always the nest row (laid without a chance event)
    board = ("13:o.o.o~~../o.o.o~~../.~o~..2.3/~.o...~34/.5...~2~4/o.~o.~..o")
    s = P(board, "a14:5 c14:5 e14:5 a13:5", "MR")
    assert not s.is_chance and s.rows == (13, 18)
    # by hand: a14 -> a15 -> b16 -> b17 (FB blocks a13, MB blocks c14): 3 steps, beetle
    s.play_move("b17")
    assert s.bird("MR") == ("b17", 5 - 3 + 5)
    assert not s.is_chance and s.rows == (13, 19)
    assert s.row_text(19) == "N.N.N.N.N"
    assert s.bird_to_move == "MB"


def test_rows_behind_the_last_bird_are_removed():
    # docs/rules/tweeeet.md §7.5: rows more than 4 below the lowest bird not in a nest go.
    # MR flies e0-e1-e2-e3-e4-e5 (5 steps, beetle): the lowest bird is then on row 5 and
    # row 0 (with the start) is removed.
    board = ("0:-...S...-/.2.3.4.~~/~~23..4../2.3..~~4./.~~2..3.4/o.o.5~~../o.~.~.2.3/"
             "..~3.~54./5~.~..4.2/.4..~2.~3/~..3.5~.2")
    s = Tweeeet.parse(f"{board} e0:9 a5:3 c5:4 a6:5 MR")
    assert s.distance("e5") == 5
    s.play_move("e5")
    assert s.bird("MR") == ("e5", 9)
    assert s.rows == (1, 10)
    assert not s.is_chance
    assert s.text().startswith("1:.2.3.4.~~/")


def test_removed_rows_cannot_be_entered():
    # docs/rules/tweeeet.md §7.5: cells of removed rows do not exist.  The corridor with row 14
    # removed: the food on a14 is gone, FR on a17 can only use a19.
    gone = CORRIDOR.replace("14:3~.~..2.4/", "15:")
    assert P(CORRIDOR, "a19:5 e19:4 a17:9 e19:4", "FR").legal_names() == ["a14", "a19"]
    assert P(gone, "a19:5 e19:4 a17:9 e19:4", "FR").legal_names() == ["a19"]
    with pytest.raises(PositionError, match="off the board"):
        P(gone, "a19:5 e19:4 a14:9 e19:4", "FR")


# ---------------------------------------------------------------------------- Water barrier
BARRIER = ("0:-...S...-/~~.2.3.4./.o~~2.3../.2.~~3.4./2.3..~~4./2.3.4.~~. "
           "b2:5 e0:7 e0:8 e0:9 MB")


def test_barrier_rows_are_excluded_from_chance():
    # docs/rules/tweeeet.md §7.3, §14.5: a row that would complete a chain of water from column a
    # to column i is drawn again.  The water a1 b1 c2 d2 d3 e3 f4 g4 g5 h5 is a chain from a to h;
    # h5 touches h6 and i6, so exactly the 8 water pairs holding i6 complete a barrier: 28 of the
    # 36 pairs remain, 28 * 35 * 64 outcomes, each equally likely.
    s = Tweeeet.parse(BARRIER)
    assert s.is_chance
    outs = s.chances()
    assert len(outs) == 28 * 35 * 64
    assert abs(sum(p for _, p in outs) - 1.0) < 1e-9
    assert all(abs(p - 1.0 / (28 * 35 * 64)) < 1e-15 for _, p in outs)
    names = [s.move_name(o) for o, _ in outs]
    assert not any(n[8] == "~" for n in names)
    assert sum(1 for n in names if n[7] == "~") == 7 * 35 * 64   # h6 with any but i6
    r = ref.Ref(BARRIER)
    for n in names[::997]:
        assert r.row_allowed(n)
    assert not r.row_allowed("~.2.3..4~")


def test_barrier_rows_are_never_sampled_and_not_legal():
    s = Tweeeet.parse(BARRIER)
    for seed in range(3000):
        assert s.move_name(s.sample(seed))[8] != "~"
    with pytest.raises(MoveError):
        s.copy().play_move("~.2.3..4~")
    s.copy().play_move("~.2.3..~4")


def test_a_barrier_in_a_position_is_rejected():
    board = BARRIER.split()[0] + "/..~2.3.4~"
    with pytest.raises(PositionError, match="barrier"):
        Tweeeet.parse(f"{board} b2:5 e0:7 e0:8 e0:9 MB")


# ---------------------------------------------------------------------------- The start
def test_start_lays_four_random_rows():
    # docs/rules/tweeeet.md §4: the game begins with rows 0..4 laid; all birds on e0 with
    # 6, 7, 8, 9 energy, the male robin first
    s = Tweeeet.start(seed=3)
    assert s.rows == (0, 4)
    assert [s.bird(b) for b in ("MR", "MB", "FR", "FB")] == [("e0", 6), ("e0", 7), ("e0", 8), ("e0", 9)]
    assert s.bird_to_move == "MR" and s.player == 0 and not s.is_chance
    for y in range(1, 5):
        row = s.row_text(y)
        assert row.count("~") == 2 and row.count(".") == 4
        assert sum(row.count(c) for c in "2345") == 3
    assert Tweeeet.start(seed=3).text() == s.text()
    assert len({Tweeeet.start(seed=k).text() for k in range(20)}) == 20
    with pytest.raises(GameError):
        Tweeeet.start(players=3)


def test_foods_are_uniform_over_the_four_values():
    # docs/rules/tweeeet.md §7.2: each food drawn uniformly from 2, 3, 4, 5
    counts = {c: 0 for c in "2345"}
    for seed in range(400):
        s = Tweeeet.start(seed=seed)
        for y in range(1, 5):
            for c in s.row_text(y):
                if c in counts:
                    counts[c] += 1
    total = sum(counts.values())
    assert total == 400 * 4 * 3
    assert all(abs(n / total - 0.25) < 0.03 for n in counts.values())


# ---------------------------------------------------------------------------- End of the game
def test_all_nested_higher_total_wins_equal_draws():
    # docs/rules/tweeeet.md §8: all four nested, the higher total wins, equal totals draw
    s = P(CORRIDOR, "a19:5 e19:4 a19:3 e19:4", "MR")
    assert s.is_over and s.result() == (0.5, 0.5)
    s = P(CORRIDOR, "a19:5 e19:4 a19:4 e19:4", "MR")
    assert s.is_over and s.result() == (1.0, 0.0)
    s = P(CORRIDOR, "a19:5 e19:4 a19:2 e19:4", "MR")
    assert s.result() == (0.0, 1.0)


def test_the_last_flight_into_a_nest_ends_the_game():
    # docs/rules/tweeeet.md §8: the flight that puts the fourth bird in a nest ends the game.
    # FR (2) on a18: a19 is 1 step (lands with 1), a14 is 4 steps away
    s = P(CORRIDOR, "a19:5 e19:6 a18:2 e19:3", "FR")
    assert s.legal_names() == ["a19"]
    s.play_move("a19")
    assert s.is_over and s.result() == (0.0, 1.0)          # robins 6, bluethroats 9
    s = P(CORRIDOR, "a19:5 e19:6 a18:9 e19:3", "FR")
    assert s.legal_names() == ["a14", "a19"]
    s.play_move("a19")
    assert s.is_over and s.result() == (1.0, 0.0)          # robins 13, bluethroats 9


# ---------------------------------------------------------------------------- Position text
def test_text_round_trips():
    for t in (EXAMPLE, BARRIER, f"{NB} d18:3 c19:6 a18:2 i18:5 MR"):
        assert Tweeeet.parse(t).text() == t


@pytest.mark.parametrize("text,fault", [
    ("0:-...S...-/~..3.5~.2 e0:6 e0:7 e0:8 MR", "6 fields"),
    ("-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR", "<low>:<rows>"),
    ("x:-...S...- e0:6 e0:7 e0:8 e0:9 MR", "lowest row"),
    ("15:.~o~..2.3/~.o...~34/.5...~2~4/o.~o.~..o/N.N.N.N.N/N.N.N.N.N a19:1 a19:1 a19:1 a19:1 MR",
     "past the nest row"),
    ("0:-...S...-/~..3.5~.2./.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR", "9 cells"),
    ("0:-...S...-/~..3.5~.x/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR", "unknown character"),
    ("0:....S..../~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR", "start row"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3N~54. e0:6 e0:7 e0:8 e0:9 MR", "nest row below"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3S~54. e0:6 e0:7 e0:8 e0:9 MR", "start cell"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3-~54. e0:6 e0:7 e0:8 e0:9 MR", "missing cell"),
    ("0:-...S...-/~..3.5~~2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR", "3 water"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0 MR", "<cell>:<energy>"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 z0:9 MR", "not a cell name"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:-1 MR", "energy"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e9:9 MR", "off the board"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 a0:9 MR", "off the board"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 a1:9 MR", "water"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 b1:9 MR", "grass"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 d1:9 MR", "food"),
    ("0:-...S...-/~..o.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. d1:6 e0:7 e0:8 d1:9 MR", "both on d1"),
    (f"{CORRIDOR} a19:5 e19:4 c19:4 e19:4 MB", "two nests"),
    (f"{CORRIDOR} a19:5 a19:4 a18:4 e19:4 FR", "one pair"),
    ("0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 XX", "MR, MB, FR or FB"),
    (f"{CORRIDOR} a19:5 e19:4 a18:4 a17:4 MR", "skipped"),
    ("0:-...S...-/.2.3.4.~~/~~23..4../2.3..~~4./.~~2..3.4/o.o.5~~../o.~.~.2.3/"
     "..~3.~54./5~.~..4.2/.4..~2.~3/~..3.5~.2 a6:9 a5:3 c5:4 a6:5 MR", "both on a6"),
    ("0:-...S...-/.2.3.4.~~/~~23..4../2.3..~~4./.~~2..3.4/o.o.o~~../o.~.~.2.3/"
     "..~3.~54./5~.~..4.2/.4..~2.~3/~..3.5~.2 e5:9 a5:3 c5:4 a6:5 MR", "removed"),
    ("15:.~o~..2.3/~.o...~34/.5...~2~4/o.~o.~..o c15:5 c16:5 a18:5 d18:5 MR",
     "nest row 19 should have been laid"),
])
def test_position_text_errors(text, fault):
    # docs/rules/tweeeet.md §11.3: rejected, with a message naming the fault
    with pytest.raises(PositionError, match=fault):
        Tweeeet.parse(text)


def test_move_names_and_errors():
    s = Tweeeet.parse(EXAMPLE)
    assert s.parse_move("c7") == 9 * 7 + 2 and s.move_name(65) == "c7"
    assert s.move_name(s.parse_move("pass")) == "pass"
    for bad in ("z3", "c", "c20", "c-1", "~~~......"):
        with pytest.raises(MoveError):
            s.parse_move(bad)
    with pytest.raises(MoveError, match="illegal"):
        s.copy().play_move("c7")
    c = Tweeeet.parse(EXAMPLE).play_move("d1")
    o = c.parse_move("..2~3.4~.")
    assert c.move_name(o) == "..2~3.4~." and 0 <= o < 131072


def test_registry():
    g = get_game("tweet")
    assert g.name == "tweeeet" and g.min_players == g.max_players == 2
    assert g.examples[0] == EXAMPLE
    g.parse(g.bench_position)


# ---------------------------------------------------------------------------- Perft
def test_perft_counts_chance_nodes_as_one():
    # docs/rules/tweeeet.md §12: every child of the example start is a chance node (rows
    # must be laid), which counts 1
    s = Tweeeet.parse(EXAMPLE)
    assert [s.perft(d) for d in range(4)] == [1, 7, 7, 7]
    assert Tweeeet.parse(BARRIER).perft(3) == 1


def test_perft_suite_values_agree_with_the_reference():
    path = pathlib.Path(__file__).parents[1] / "perft" / "tweeeet.jsonl"
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            entry = json.loads(line)
            r = ref.Ref(entry["position"])
            for depth, leaves in entry["perft"].items():
                assert r.perft(int(depth)) == leaves, (entry["position"], depth)


# ---------------------------------------------------------------------------- Cross-check
def test_random_games_agree_with_the_reference():
    # Every rule at once: along random games (rows drawn at random), the native game and
    # the reference agree on the text, the legal moves, chance nodes and the results.
    # Half the games fly greedily upward (energy after the flight plus progress), so that
    # they reach the nest row, the nests and the final count, not only early deaths.
    nested_ends = 0
    for g in range(48):
        rnd = random.Random(g)
        greedy = g % 2 == 0
        s = Tweeeet.start(seed=g) if g % 2 else Tweeeet.parse(EXAMPLE)
        r = ref.Ref(s.text())
        while True:
            assert s.text() == r.text()
            assert s.is_over == (r.result is not None)
            if s.is_over:
                assert s.result() == r.result
                nested_ends += all(s.bird(b)[0].endswith("19") for b in ref.BIRDS)
                break
            assert s.is_chance == r.pending()
            if s.is_chance:
                o = s.sample(rnd.getrandbits(60))
                name = s.move_name(o)
                assert r.row_allowed(name)
                s.play_unchecked(o)
                r.lay(name)
            else:
                assert s.legal_names() == r.legal()
                m = rnd.choice(r.legal())
                if greedy and m != "pass" and rnd.random() < 0.85:
                    b = s.bird_to_move
                    m = max(r.legal(), key=lambda m: s.copy().play_move(m).bird(b)[1]
                            + 0.8 * int(m[1:]) + 3 * rnd.random())
                s.play_move(m)
                r.play(m)
    assert nested_ends >= 5


def _pair_row(i, j):
    """A landscape row with water on columns i and j (bushes on the first three others)."""
    row, bushes = [], 0
    for x in range(9):
        if x in (i, j):
            row.append("~")
        elif bushes < 3:
            row.append("2")
            bushes += 1
        else:
            row.append(".")
    return "".join(row)


def test_barrier_exclusion_matches_the_reference_on_near_barrier_boards():
    # docs/rules/tweeeet.md §7.3: on boards grown to favour water chains, the
    # water pairs a chance node allows are exactly those the reference finds barrier-free
    rnd = random.Random(5)
    pairs = [(i, j) for i in range(9) for j in range(i + 1, 9)]
    excluded_seen = 0
    for trial in range(100):
        rows = []
        water = set()
        for y in range(1, rnd.randint(6, 16) + 1):
            # grow the chain of water from column a as far right as possible (no barrier)
            def reach(w):
                todo = [c for c in w if c[0] == 0]
                seen = set(todo)
                while todo:
                    for n in ref.neighbours(*todo.pop()):
                        if n in w and n not in seen:
                            seen.add(n)
                            todo.append(n)
                return max((c[0] for c in seen), default=-1)
            ok = [(i, j) for i, j in pairs if not ref.barrier(water | {(i, y), (j, y)})]
            if rnd.random() < 0.8:
                best = max(reach(water | {(i, y), (j, y)}) for i, j in ok)
                ok = [(i, j) for i, j in ok if reach(water | {(i, y), (j, y)}) == best]
            i, j = rnd.choice(ok)
            water |= {(i, y), (j, y)}
            stop = y >= 6 and reach(water) >= 6 and rnd.random() < 0.7
            row = list(_pair_row(i, j))
            row = [rnd.choice("2345") if ch == "2" else ch for ch in row]
            rows.append(row)
            if stop:
                break
        k = len(rows)
        back = max(1, k - 3)                      # MR sits on an emptied bush of row k-3
        x = next(x for x, ch in enumerate(rows[back - 1]) if ch in "2345")
        rows[back - 1][x] = "o"
        text = ("0:-...S...-/" + "/".join("".join(r) for r in rows)
                + f" {'abcdefghi'[x]}{back}:5 e0:7 e0:8 e0:9 MB")
        s = Tweeeet.parse(text)
        assert s.is_chance
        outs = s.chances()
        # one name per 64 outcomes is enough to see every water pair (and faster)
        allowed = {tuple(i for i, ch in enumerate(s.move_name(o)) if ch == "~") for o, _ in outs[::64]}
        r = ref.Ref(text)
        want = {(i, j) for i, j in pairs if r.row_allowed(_pair_row(i, j))}
        assert allowed == want, text
        assert len(outs) == len(want) * 35 * 64
        assert outs[0][1] == pytest.approx(1.0 / (len(want) * 35 * 64))
        excluded_seen += 36 - len(want)
    assert excluded_seen > 20       # the boards did reach near-barriers


# ---------------------------------------------------------------------------- Audit
@pytest.mark.parametrize("text,fault", [
    # a superscript two passes str.isdigit() but is no number: it must not escape as a
    # ValueError from int()
    (EXAMPLE.replace("0:-", "\u00b2:-", 1), "lowest row"),
    (EXAMPLE.replace("e0:9", "e0:\u00b2"), "energy"),
    (EXAMPLE.replace("e0:9", "e\u00b2:9"), "not a cell name"),
    # other scripts' digits are not the position text's digits either (they would be
    # silently read as 3 and 0, and the text would not round-trip)
    (EXAMPLE.replace("e0:9", "e0:\u0663"), "energy"),
    (EXAMPLE.replace("0:-", "\u0660:-", 1), "lowest row"),
    (EXAMPLE.replace("e0:9", "e\u0660:9"), "not a cell name"),
])
def test_position_text_numbers_are_ascii_digits(text, fault):
    # docs/rules/tweeeet.md §11.1, §11.3: <low> is a number, a bird is <cell>:<energy>;
    # anything else is rejected with a message naming the fault (PositionError, never a traceback)
    with pytest.raises(PositionError, match=fault):
        Tweeeet.parse(text)


def test_move_names_with_non_ascii_digits_are_move_errors():
    # docs/rules/tweeeet.md §2.1, §10.1: a cell name is a column letter and a row number
    s = Tweeeet.parse(EXAMPLE)
    for bad in ("c\u00b2", "d\u0661", "\u00b2"):
        with pytest.raises(MoveError, match="not a cell name"):
            s.parse_move(bad)
    for bad in (10 ** 12, -(10 ** 12), "c7", None, 1.5):
        with pytest.raises(MoveError, match="not a Tweeeet move id"):
            s.move_name(bad)


# ---------------------------------------------------------------------------- Chance, API
def test_a_chance_node_builds_its_outcome_list_once():
    # legal() and play_move() at a chance node must not rebuild the 80,640-outcome list on
    # every call.  docs/rules/tweeeet.md §7.2, §7.3: the outcomes of a row are the rows with 2
    # water, 4 grass, 3 foods making no barrier, uniform.  After d1 from the example start (rows
    # 0..4 laid) no barrier can form, so all 36 * 35 * 64 rows are outcomes.
    from roost.core.tweeeet import state as native
    s = Tweeeet.parse(EXAMPLE).play_move("d1")
    assert s.is_chance
    before = native.chance_lists_built()
    outs = s.legal()
    assert len(outs) == 80640 and outs == [o for o, _ in s.chances()]
    for i in range(0, 80640, 401):
        c = s.copy()
        c.play_move(outs[i])                       # validated without building a list
        assert not c.is_chance and c.row_text(5) == s.move_name(outs[i])
        assert s.is_legal(outs[i])
    assert s.legal() == outs and len(s.chances()) == 80640
    assert native.chance_lists_built() - before <= 1
    # an outcome the node does not offer is refused, by id and by name
    for bad in (outs[0] - 1, outs[-1] + 1, 180, 0):
        assert not s.is_legal(bad)
        with pytest.raises(MoveError):
            s.copy().play_move(bad)


def test_is_legal_at_a_chance_node_follows_the_barrier_rule():
    # docs/rules/tweeeet.md §7.3: a row completing a water chain a..i is drawn again: it is no
    # outcome.  On BARRIER exactly the rows with water on i6 complete the chain (see
    # test_barrier_rows_are_excluded_from_chance); is_legal decides from the id alone and
    # agrees with the outcome list.
    s = Tweeeet.parse(BARRIER)
    legal = set(s.legal())
    for row in ("~.2.3..4~", "~.2.3..~4", "222....~~", "~~222...."):
        m = s.parse_move(row)
        assert s.is_legal(m) == (m in legal) == (row[8] != "~")
