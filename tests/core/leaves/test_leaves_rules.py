"""Rules tests for Under the Leaves.  Every test cites the section of
docs/rules/leaves.md it checks; expected values come from the rules file or
are worked out by hand in the comments, never from the engine's own output."""
import random
import re

import pytest

from roost.core.errors import MoveError, PositionError
from roost.core.games import get_game
from roost.core.leaves import GardenReplay, Leaves, tile_squares

from tests.core.leaves.reference import RefGarden, oriented

GAME = get_game("leaves")

# docs/rules/leaves.md §11.4's example position
EX11 = ("UTL p=2 cards=Flirty,Collector,Friendly turn=4 tomove=1 market=7,29,30 "
        "bag=0,4,8,13,15,16,17,21,24,28,31,33,34,35,37,38,39,41,44,48 "
        "g0=S1@(0,0)o0;43@(0,1)o5;42@(-1,1)o7 g1=S3@(0,0)o0;12@(1,0)o2")


def replay(start, moves, cards=None):
    """A garden replayed move by move; returns the garden and the gains of each move."""
    g = GardenReplay(start, cards=cards)
    gains = [g.play(m) for m in moves.split()]
    return g, gains


def frontier_by_hand(entries):
    """§3.4: empty slots sharing a side with a tile (worked out here without the engine)."""
    tiles = {(x, y) for (_, x, y, _) in entries}
    return sorted({(x + dx, y + dy) for (x, y) in tiles for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
                  - tiles)


# ----------------------------------------------------------------------------- §1 components

def test_tile_table_facts():
    # docs/rules/leaves.md §1.2, the facts the table guarantees
    faces = [tile_squares(t, 0) for t in range(50)]
    assert len(set(faces)) == 50
    colour_count = {c: 0 for c in "YPOVG"}
    puddles = mushrooms = 0
    for t, f in enumerate(faces):
        kinds = [s[0] for s in f]
        assert kinds[2] == kinds[3] and kinds[2] != "~"          # the bottom pair
        assert len({kinds[0], kinds[1], kinds[2]}) == 3
        m = sum(s.endswith("*") for s in f)
        p = kinds.count("~")
        assert (m, p) == ((1, 0) if t < 30 else (0, 1))
        if t < 30:
            assert f[0].endswith("*")                              # the mushroom is top-left
        for k in kinds:
            if k != "~":
                colour_count[k] += 1
        puddles += p
        mushrooms += m
    assert colour_count == {c: 36 for c in "YPOVG"}
    assert (puddles, mushrooms) == (20, 30)


def test_starting_tiles():
    # docs/rules/leaves.md §1.3, S0..S3 and their four different square types
    assert tile_squares(50, 0) == ("~", "P", "V", "Y*")
    assert tile_squares(51, 0) == ("~", "O", "Y", "P*")
    assert tile_squares(52, 0) == ("~", "V", "P", "O*")
    assert tile_squares(53, 0) == ("~", "Y", "O", "V*")
    for t in range(50, 54):
        assert len({s[0] for s in tile_squares(t, 0)}) == 4


# the MAP table of docs/rules/leaves.md §1.4, copied from the rules file
MAP = ((0, 1, 2, 3), (2, 0, 3, 1), (3, 2, 1, 0), (1, 3, 0, 2),
       (1, 0, 3, 2), (0, 2, 1, 3), (2, 3, 0, 1), (3, 1, 2, 0))


@pytest.mark.parametrize("o", range(8))
def test_orientation_mapping(o):
    # docs/rules/leaves.md §1.4, placed position i takes printed square MAP[o][i]; the face is
    # turned r quarter turns clockwise first, then mirrored left to right when f = 1
    for t in range(54):
        printed = tile_squares(t, 0)
        assert tile_squares(t, o) == tuple(printed[MAP[o][i]] for i in range(4))
        assert tile_squares(t, o) == tuple(k + ("*" if m else "") for k, m in oriented(t, o))
    # and in a garden: tile 38 at slot (1,0) covers (2,0) (3,0) (2,-1) (3,-1) (§3.2)
    g = GardenReplay(0)
    g.place(38, 1, 0, o)
    printed = ("~", "O", "Y", "Y")
    assert [g.square(u, v) for (u, v) in ((2, 0), (3, 0), (2, -1), (3, -1))] == \
        [printed[MAP[o][i]] for i in range(4)]


def test_orientation_example_and_distinct_orientations():
    # docs/rules/leaves.md §1.4, tile 38 in o1 gives TL Y, TR ~, BL Y, BR O; no tile looks the
    # same twice
    assert tile_squares(38, 1) == ("Y", "~", "Y", "O")
    for t in range(54):
        assert len({tile_squares(t, o) for o in range(8)}) == 8
    # the back mirrors the front: back TL = front TR, ...
    assert tile_squares(0, 4) == ("O", "G*", "P", "P")


# ----------------------------------------------------------------------------- §2 setup

@pytest.mark.parametrize("n,removed", [(2, 24), (3, 12), (4, 0)])
def test_setup(n, removed):
    # docs/rules/leaves.md §2 (cards one per category, starting tiles, R removed, 3 in the market)
    for seed in range(5):
        s = Leaves.start(n, seed=seed)
        leaf, mush, pud = s.cards
        assert leaf in ("Thoughtful", "Restless", "Flirty", "Runner")
        assert mush in ("Host", "Explorer", "Collector", "Loner")
        assert pud in ("Diver", "Skipper", "Friendly", "Shy")
        assert len(s.market()) == 3 and s.market() == sorted(s.market())
        assert len(s.bag()) == 12 * n - 1
        assert len(s.removed()) == removed
        starts = [s.garden(p)[0] for p in range(n)]
        assert all(e[1:] == (0, 0, 0) for e in starts)
        assert len({e[0] for e in starts}) == n
        assert s.turn == 1 and s.player == 0
        assert s.text() == Leaves.start(n, seed=seed).text()      # same seed, same game
    assert len({Leaves.start(n, seed=k).text() for k in range(10)}) > 1


def test_setup_information_flags():
    # docs/rules/leaves.md §10.1, hidden information for 2-3 players only; §12.1 perft sums over
    # chance
    for n in (2, 3, 4):
        s = Leaves.start(n, seed=1)
        for c in (s, s.copy(), s.determinized(0, 1)):
            assert c.players == n
            assert c.hidden_info == (n < 4)
            assert c.perft_expands_chance


# ----------------------------------------------------------------------------- §3-§5 moves

def test_starting_frontier_and_move_list():
    # docs/rules/leaves.md §3.4 frontier, §4.3 "3 x 4 x 8 = 96" and the canonical order i, x, y, o
    s = Leaves.start(2, seed=3)
    assert s.frontier(0) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    names = s.legal_names()
    assert len(names) == 96
    parsed = [tuple(int(v) for v in re.fullmatch(r"m(\d)@\((-?\d+),(-?\d+)\)o(\d)", n).groups())
              for n in names]
    assert parsed == sorted(parsed)
    assert len(set(parsed)) == 96
    assert names[0] == "m0@(-1,0)o0" and names[-1] == "m2@(1,0)o7"


def test_move_notation():
    # docs/rules/leaves.md §4.1, §4.2, m<i>@(<x>,<y>)o<o>: market index i (ascending ids), slot,
    # orientation
    s = Leaves.parse(EX11)
    assert s.market() == [7, 29, 30]
    s.play_move("m2@(1,-1)o3")          # tile 30 (the largest id) for seat 1
    assert s.garden(1)[-1] == (30, 1, -1, 3)
    assert s.is_chance


def test_turn_sequence_refill_is_chance():
    # docs/rules/leaves.md §5.4-5 and §10.2: the turn advances, then a refill drawn uniformly
    # from the bag
    s = Leaves.parse(EX11)
    s.play_move("m0@(0,1)o0")
    assert s.is_chance and s.turn == 5 and s.market() == [29, 30]
    outs = s.chances()
    assert sorted(o for o, _ in outs) == sorted(s.parse_move(f"d{t}") for t in s.bag())
    assert all(abs(p - 1 / 20) < 1e-12 for _, p in outs)
    s.play_move("d0")
    assert s.market() == [0, 29, 30] and s.player == 0 and len(s.bag()) == 19
    # §13.2: the market is always sorted, m0 is the smallest id whatever order they came in
    s.play_move("m0@(0,-1)o0")
    assert s.garden(0)[-1] == (0, 0, -1, 0)


LAST = ("UTL p=2 cards=Restless,Collector,Friendly turn=24 tomove=1 market=29,31,43 bag=- "
        "g0=S0@(0,0)o0;8@(-1,0)o0;46@(0,1)o4;22@(0,-1)o1;23@(0,2)o0;26@(-1,-1)o4;36@(-2,0)o7;"
        "11@(1,-1)o2;39@(0,3)o0;1@(-3,0)o7;17@(1,1)o2;27@(1,0)o5;5@(2,1)o7 "
        "g1=S2@(0,0)o0;15@(0,-1)o4;35@(-1,-1)o2;34@(-1,-2)o6;47@(1,-1)o3;45@(1,-2)o5;18@(0,1)o4;"
        "19@(1,0)o7;12@(0,2)o1;32@(0,-2)o5;25@(-1,1)o2;3@(-1,-3)o6")


def test_last_turn():
    # docs/rules/leaves.md §5.5 and §13.2, the last turn: 3 market tiles, the checks run, no
    # refill, the end
    s = Leaves.parse(LAST)
    f = frontier_by_hand(s.garden(1))
    assert s.frontier(1) == f
    assert len(s.legal()) == 3 * len(f) * 8
    s.play_move("m2@(-2,-2)o5")           # tile 43 `~ Y V V`
    assert s.is_over and not s.is_chance
    assert s.market() == [29, 31] and s.bag() == []
    assert s.text().split()[3:5] == ["turn=25", "tomove=-"]
    assert len(s.garden(1)) == 13 and len(s.garden(0)) == 13
    assert s.legal() == []
    with pytest.raises(MoveError, match="over"):
        s.play_move("m0@(0,0)o0")
    assert sum(s.result()) == pytest.approx(1.0)
    # the checks of the last turn ran: seat 1's garden agrees with a literal replay
    entries = s.garden(1)
    ref = RefGarden(entries[0][0] - 50)
    for (t, x, y, o) in entries[1:]:
        ref.place(t, x, y, o)
    assert (s.bees(1), s.hummingbirds(1)) == (ref.bees, ref.hummingbirds)
    assert s.pieces(1) == {c: ref.pieces()[c] for c in ("Re", "Co", "Fr")}


# ----------------------------------------------------------------------------- §6 bees, §13 script A

SCRIPT_A = "38@(1,0)o0 39@(-1,0)o0 40@(-1,-1)o2 41@(0,-1)o2 7@(0,1)o0 2@(1,1)o3"


def test_script_a_bees_and_worked_example():
    # docs/rules/leaves.md §6.4 worked example and §13.1 script A: bees 1,1,3,3,3,5, hummingbirds 0
    g = GardenReplay(0)
    bees = []
    for m in SCRIPT_A.split():
        g.play(m)
        bees.append(g.bees)
        assert g.hummingbirds == 0
    assert bees == [1, 1, 3, 3, 3, 5]
    # the squares drawn after move 6 (§6.4)
    drawing = """
      2   .   .   P*  O   V   P
      1   .   .   Y   Y   Y*  P
      0   ~   P   ~   P   ~   O
     -1   Y   Y   V   Y*  Y   Y
     -2   Y   Y   Y   Y   .   .
     -3   V   ~   G   ~   .   .
    """
    for line in drawing.strip().splitlines():
        v, *cells = line.split()
        for u, cell in zip(range(-2, 4), cells):
            assert g.square(u, int(v)) == (None if cell == "." else cell), (u, v)


def test_script_a_pieces():
    # docs/rules/leaves.md §13.1 script A: Sk | Fl, Sk | Th | Re, Ru, Sk | none | Fl, Lo, Sh
    g, gains = replay(0, SCRIPT_A)
    assert gains == [{"Sk": 1}, {"Fl": 1, "Sk": 1}, {"Th": 1}, {"Re": 1, "Ru": 1, "Sk": 1}, {},
                     {"Fl": 1, "Lo": 1, "Sh": 1}]
    final = {c: 0 for c in ("Th", "Re", "Fl", "Ru", "Ho", "Ex", "Co", "Lo", "Di", "Sk", "Fr", "Sh")}
    final.update(Th=1, Re=1, Fl=2, Ru=1, Lo=1, Sk=3, Sh=1)
    assert g.pieces() == final
    assert g.piece_squares("Fl") == [(-1, 0), (2, 1)]
    assert g.piece_squares("Sk") == [(1, 0), (-1, 0), (0, -3)]
    assert g.piece_squares("Lo") == [(2, 1)]
    assert g.piece_squares("Sh") == [(2, 0)]
    assert len(g.frontier()) == 10
    assert g.frontier() == frontier_by_hand(g.entries())


def test_growth_and_merge_give_no_bee_and_later_sector_raises_merged_once():
    # docs/rules/leaves.md §6.2 steps 3-4, §6.3 and §13.2: growth/merge give nothing; a later
    # new sector of that colour raises the merged sector once (script A moves 3, 4 and 6)
    g = GardenReplay(0)
    g.play("38@(1,0)o0")
    g.play("39@(-1,0)o0")
    assert g.bees == 1
    g.play("40@(-1,-1)o2")      # new yellow 2x2 sector: +1, and +1 for the sector of move 1
    assert g.bees == 3
    g.play("41@(0,-1)o2")       # joins the two yellow sectors: a merge, nothing
    assert g.bees == 3
    g.play("7@(0,1)o0")         # a yellow pair only
    assert g.bees == 3
    g.play("2@(1,1)o3")         # new yellow sector: +1, and +1 (once) for the merged one
    assert g.bees == 5


def test_three_new_sectors_in_one_placement():
    # docs/rules/leaves.md §13.2: one placement can make new sectors in up to three colours,
    # each counted on its own.  S1: (1,0) O, (0,-1) Y.  17@(-1,0)o5 lays (-1,0) O, (-2,-1) V,
    # (-1,-1) O; 39@(0,-1)o4 lays (0,-3) Y, (1,-3) Y.  21@(-1,-1)o7 lays (-2,-2) V, (-1,-2) O,
    # (-2,-3) V, (-1,-3) Y*: purple (-2,-1..-3), orange (-1,0..-2) and yellow (-1..1,-3) are
    # each a new 3-square sector with no other sector of its colour: +1 each.
    g, gains = replay(1, "17@(-1,0)o5 39@(0,-1)o4")
    assert g.bees == 0
    g.play("21@(-1,-1)o7")
    assert g.bees == 3
    for sq in ((-2, -1), (-2, -2), (-2, -3), (-1, 0), (-1, -1), (-1, -2), (-1, -3), (0, -3), (1, -3)):
        assert g.pollinated(*sq)
    assert not g.pollinated(1, 0)


def test_new_sector_counts_every_other_sector_of_its_colour():
    # docs/rules/leaves.md §6.1 (the printed rule: every other pollinated sector of that colour
    # gets a bee too).  Script A's moves 1-3: the yellow 2x2 of move 3 is new while the sector of
    # move 1 exists: +2; a third separate yellow sector would bring +3.
    g, _ = replay(0, "38@(1,0)o0 39@(-1,0)o0")
    g.play("40@(-1,-1)o2")
    assert g.bees == 1 + 2


# ----------------------------------------------------------------------------- §7 hummingbirds

SCRIPT_B = "32@(0,1)o4 46@(-1,1)o6 39@(1,0)o4 21@(0,-1)o1 16@(0,-2)o3"


def test_script_b_hummingbirds():
    # docs/rules/leaves.md §7.2 example and §13.1 script B: hummingbirds 0,2,3,4,6; bees 1,2,3,4,5
    g = GardenReplay(0)
    birds, bees = [], []
    for m in SCRIPT_B.split():
        g.play(m)
        birds.append(g.hummingbirds)
        bees.append(g.bees)
    assert birds == [0, 2, 3, 4, 6]
    assert bees == [1, 2, 3, 4, 5]
    # (0,0) is the middle of the column (0,1), (0,0), (0,-1): 1 + 1 bonus; (0,1) is an end
    assert g.hummingbirds_at(0, 0) == 2
    assert g.hummingbirds_at(0, 1) == 1 and g.hummingbirds_at(-1, 1) == 1
    assert g.hummingbirds_at(1, 0) == 1 and g.hummingbirds_at(0, -1) == 1
    assert g.hummingbirds_at(0, -2) == 0


def test_script_b_pieces():
    # docs/rules/leaves.md §13.1 script B: Re1 (pink sector of 5 at move 3), Ho1 (move 4)
    g, gains = replay(0, SCRIPT_B)
    assert gains[2].get("Re") == 1 and gains[3].get("Ho") == 1
    assert {k: v for k, v in g.pieces().items() if v} == {"Re": 1, "Ho": 1}
    assert g.piece_squares("Ho") == [(1, -1)]   # mushrooms (1,-1) and (1,-2), one component
    assert g.bees == 5 and g.hummingbirds == 6


def test_hummingbirds_full_row_and_column():
    # docs/rules/leaves.md §7.1 and §13.2: a tile in the middle of a full row and a full column
    # gets 3; a tile at the end of a row of three gets no bonus.  Here (0,0) has based neighbours
    # (-1,0), (1,0), (0,1), (0,-1); (0,-1) is the middle of (0,0), (0,-1), (0,-2).
    g, _ = replay(3, "40@(0,1)o3 42@(-1,1)o2 35@(-1,0)o1 43@(1,0)o4 12@(0,-1)o1 45@(-1,-1)o6 38@(0,-2)o3")
    assert g.hummingbirds_at(0, 0) == 3
    assert g.hummingbirds_at(-1, 0) == 1 and g.hummingbirds_at(1, 0) == 1    # ends of the row
    assert g.hummingbirds_at(0, 1) == 1 and g.hummingbirds_at(0, -2) == 1    # ends of the column
    assert g.hummingbirds_at(0, -1) == 2
    assert g.hummingbirds_at(-1, 1) == 1
    assert g.hummingbirds_at(-1, -1) == 0          # its puddles are ignored, its P is alone
    assert g.hummingbirds == 3 + 1 + 1 + 1 + 1 + 2 + 1


# ----------------------------------------------------------------------------- §8 dwellers

def test_script_c():
    # docs/rules/leaves.md §13.1 script C: Di1 at move 1; Co2 at move 3 standing on (1,-1) and
    # (3,-1)
    g, gains = replay(3, "47@(0,1)o6 12@(1,0)o2 6@(1,-1)o0")
    assert gains[0] == {"Di": 1}
    assert gains[2].get("Co") == 2
    assert g.piece_squares("Co") == [(1, -1), (3, -1)]
    assert g.piece_squares("Di") == [(0, 1)]
    # the new mushroom (2,-2) stays free: a later diagonal mushroom could pair with it
    assert g.square(2, -2) == "V*"


def test_script_d():
    # docs/rules/leaves.md §13.1 script D: Sk (0,1) and Fl (top-left (0,1)) at move 1; Sk (1,0)
    # at move 2; Fr2 at move 3 standing on (0,2) and (0,0)
    g, gains = replay(1, "43@(0,1)o5 35@(1,0)o0 42@(-1,1)o7")
    assert gains == [{"Sk": 1, "Fl": 1}, {"Sk": 1}, {"Fr": 2}]
    assert g.piece_squares("Sk") == [(0, 1), (1, 0)]
    assert g.piece_squares("Fl") == [(0, 1)]
    assert g.piece_squares("Fr") == [(0, 2), (0, 0)]


def test_flirty_never_counts_the_starting_tile_window():
    # docs/rules/leaves.md §8.2 Flirty: the window of the starting tile's own squares (top-left
    # (0,0)) never counts (S0 alone shows ~ P V Y: four types)
    g = GardenReplay(0)
    assert g.pieces()["Fl"] == 0
    g.play("38@(1,0)o0")      # windows with top-left (1,0): P ~ Y* Y -> two yellows
    assert g.pieces()["Fl"] == 0


def test_thoughtful_two_by_four_gives_two():
    # docs/rules/leaves.md §8.2 Thoughtful and §13.2: 2 rows x 4 columns of one colour seen at
    # once give two pieces (top-left squares at u and u+2).  The yellow block is (-1..2, 3) and
    # (-1..2, 2); the last tile 39@(0,1)o2 lays (0,2), (1,2) and completes all three windows at
    # once: (-1,3) is taken, (0,3) overlaps it, (1,3) is taken.
    g, gains = replay(0, "30@(-1,0)o0 32@(1,0)o0 1@(-1,1)o0 2@(1,1)o0 5@(-1,2)o1 38@(0,2)o0 "
                         "20@(1,2)o2 39@(0,1)o2", cards=["Th"])
    assert gains[:-1] == [{}] * 7
    assert gains[-1] == {"Th": 2}
    assert g.piece_squares("Th") == [(-1, 3), (1, 3)]
    for u in range(-1, 3):
        assert g.square(u, 3)[0] == "Y" and g.square(u, 2)[0] == "Y"


def test_thoughtful_three_by_two_gives_one():
    # docs/rules/leaves.md §13.2: 3 rows x 2 columns of one colour give one piece (the windows
    # overlap).  Yellow (3..4, 2..0); the last tile 39@(1,1)o5 lays (3,2), (3,1) and completes
    # both windows (3,2) and (3,1); the second overlaps the first.
    g, gains = replay(0, "1@(1,0)o0 2@(2,0)o0 38@(2,1)o1 39@(1,1)o5", cards=["Th"])
    assert gains == [{}, {}, {}, {"Th": 1}]
    assert g.piece_squares("Th") == [(3, 2)]
    for v in (2, 1, 0):
        assert g.square(3, v)[0] == "Y" and g.square(4, v)[0] == "Y"


def test_explorer_row():
    # docs/rules/leaves.md §8.3 Explorer: mushrooms at (0,2), (2,2), (4,2) (mushroom tiles in o0
    # on slots (0,1), (1,1), (2,1)): the middle one qualifies when the third arrives
    g, gains = replay(0, "0@(0,1)o0 3@(1,1)o0 4@(2,1)o0", cards=["Ex"])
    assert gains == [{}, {}, {"Ex": 1}]
    assert g.piece_squares("Ex") == [(2, 2)]


def test_explorer_four_in_a_row_and_later_end():
    # docs/rules/leaves.md §13.2 Explorer: unused mushrooms at u = 0, 2, 4, 6 of one row give
    # pieces on 2 and 4 in one check; a later mushroom at u = 9 makes 6 qualify; 0 and 9 stay
    # free.  In legal play with Explorer in from the start a check never sees four unused
    # mushrooms in a row (any three already qualify), so the card is turned on just before the
    # fourth mushroom (set_cards: the first check that sees the row).
    g, _ = replay(0, "0@(0,1)o0 3@(1,1)o0 4@(2,1)o0", cards=[])
    g.set_cards(["Ex"])
    assert g.play("10@(3,1)o0") == {"Ex": 2}
    assert g.piece_squares("Ex") == [(2, 2), (4, 2)]
    assert g.play("12@(4,1)o1") == {"Ex": 1}      # tile 12 `V* Y O O` o1: V* at TR (9,2)
    assert g.square(9, 2) == "V*"
    assert g.piece_squares("Ex") == [(2, 2), (4, 2), (6, 2)]


def test_explorer_column():
    # docs/rules/leaves.md §8.3 Explorer, or one in m's column above it and one below: mushrooms at
    # (0,2), (0,4), (0,6): mushroom tiles in o0 on (0,1), (0,2), (0,3)
    g, gains = replay(0, "0@(0,1)o0 3@(0,2)o0 4@(0,3)o0", cards=["Ex"])
    assert gains[-1] == {"Ex": 1}
    assert g.piece_squares("Ex") == [(0, 4)]


def test_loner_and_shy_wait_for_every_neighbour():
    # docs/rules/leaves.md §8.3 Loner, §8.4 Shy and §13.2: never next to an empty slot.  Script A
    # with moves 5 and 6 swapped: after 2@(1,1)o3 the mushroom (2,1) and the puddle (2,0)
    # have the missing squares (1,2) and (1,1) of slot (0,1) as neighbours; nothing.  When
    # 7@(0,1)o0 fills that slot, all 8 neighbours exist with no mushroom (puddle): +1 each.
    g, gains = replay(0, "38@(1,0)o0 39@(-1,0)o0 40@(-1,-1)o2 41@(0,-1)o2 2@(1,1)o3 7@(0,1)o0",
                      cards=["Lo", "Sh"])
    assert gains[4] == {}
    assert gains[5] == {"Lo": 1, "Sh": 1}
    assert g.piece_squares("Lo") == [(2, 1)] and g.piece_squares("Sh") == [(2, 0)]


def test_collector_needs_both_squares_free():
    # docs/rules/leaves.md §8.3 Collector: script C again; each pair gives +1 and its piece
    # stands on the older square, so (1,-1) and (3,-1) are used and cannot pair again
    g, _ = replay(3, "47@(0,1)o6 12@(1,0)o2 6@(1,-1)o0", cards=["Co"])
    assert g.pieces() == {"Co": 2}


def random_garden_moves(rnd, start, n):
    g = RefGarden(start)
    moves = []
    for t in rnd.sample(range(50), n):
        fr = g.frontier()
        x, y = rnd.choice(fr)
        o = rnd.randrange(8)
        g.place(t, x, y, o)
        moves.append((t, x, y, o))
    return moves


def test_engine_matches_literal_rules_on_random_gardens():
    # docs/rules/leaves.md §6.2 (BGA's group procedure = the engine's rule of §6.3), §7, §8 with
    # every card, and §5.3 (an engine may work locally only if its results are identical).  The
    # reference in tests/core/leaves/reference.py checks the whole garden as the rules word it.
    rnd = random.Random(2024)
    codes = ("Th", "Re", "Fl", "Ru", "Ho", "Ex", "Co", "Lo", "Di", "Sk", "Fr", "Sh")
    for _ in range(60):
        start = rnd.randrange(4)
        ref = RefGarden(start)
        eng = GardenReplay(start)
        pool = rnd.choice((range(50), range(30), range(30, 50)))
        for t in rnd.sample(list(pool), 12):
            fr = ref.frontier()
            assert eng.frontier() == fr
            x, y = rnd.choice(fr)
            o = rnd.randrange(8)
            ref.place(t, x, y, o)
            eng.place(t, x, y, o)
            assert (eng.bees, eng.hummingbirds) == (ref.bees, ref.hummingbirds)
            assert eng.pieces() == ref.pieces()
            for c in codes:
                assert sorted(eng.piece_squares(c)) == sorted(ref.where[c])


def test_game_gardens_match_literal_rules():
    # docs/rules/leaves.md §5.2, §8.1 (only the 3 cards in play are checked) and §11.2 (replay
    # rebuilds it)
    rnd = random.Random(7)
    for n in (2, 3, 4):
        s = Leaves.start(n, seed=40 + n)
        s.random_playout(seed=n)
        codes = list(s.pieces(0))
        for p in range(n):
            entries = s.garden(p)
            ref = RefGarden(entries[0][0] - 50)
            for (t, x, y, o) in entries[1:]:
                ref.place(t, x, y, o)
            assert s.bees(p) == ref.bees and s.hummingbirds(p) == ref.hummingbirds
            assert s.pieces(p) == {c: ref.pieces()[c] for c in codes}
            for c in codes:
                assert sorted(s.piece_squares(p, c)) == sorted(ref.where[c])


# ----------------------------------------------------------------------------- §9 scoring

def hand_scores(s):
    """§9.1-2 worked from the per-player counts."""
    n = s.players
    cats = [list(s.pieces(p).values()) for p in range(n)]
    score = [s.bees(p) + s.hummingbirds(p) + sum(cats[p]) for p in range(n)]
    for j in range(3):
        m = max(cats[p][j] for p in range(n))
        if m >= 1:
            for p in range(n):
                if cats[p][j] == m:
                    score[p] += 2
    return score


FINISHED = {
    "2p-majority": "UTL p=2 cards=Thoughtful,Collector,Diver turn=25 tomove=- market=6,34 bag=- g0=S1@(0,0)o0;8@(0,-1)o1;41@(-1,-1)o2;14@(1,-1)o6;35@(-2,-1)o2;17@(-3,-1)o0;4@(-4,-1)o6;29@(1,0)o0;26@(-4,0)o3;43@(0,-2)o5;15@(-5,0)o5;44@(-2,-2)o6;47@(-2,-3)o0 g1=S0@(0,0)o0;11@(0,1)o1;31@(1,1)o5;42@(-1,1)o5;48@(2,1)o7;10@(-1,0)o6;19@(1,0)o1;21@(1,-1)o2;32@(-1,2)o3;5@(-2,2)o6;28@(-2,0)o5;0@(2,2)o0;16@(3,2)o4",
    "2p-humm-break": "UTL p=2 cards=Flirty,Collector,Shy turn=25 tomove=- market=23,46 bag=- g0=S2@(0,0)o0;38@(-1,0)o5;5@(1,0)o2;40@(0,1)o3;43@(-2,0)o3;37@(1,-1)o4;15@(-2,1)o2;39@(-1,1)o2;3@(-1,-1)o7;24@(-1,-2)o1;48@(-1,2)o5;6@(1,1)o0;26@(1,-2)o2 g1=S1@(0,0)o0;36@(1,0)o0;34@(1,-1)o5;47@(1,1)o0;30@(1,-2)o4;28@(2,1)o1;27@(0,1)o6;19@(2,-1)o2;10@(2,0)o0;14@(2,-2)o6;41@(-1,1)o4;16@(-1,2)o2;2@(0,2)o1",
    "2p-bees-break": "UTL p=2 cards=Runner,Loner,Friendly turn=25 tomove=- market=13,40 bag=- g0=S1@(0,0)o0;29@(0,1)o2;49@(1,1)o4;4@(-1,0)o7;28@(-1,-1)o3;20@(-2,-1)o0;5@(-1,1)o3;32@(2,1)o3;22@(-1,2)o2;21@(-2,2)o1;16@(0,2)o5;45@(2,0)o6;2@(-1,-2)o7 g1=S0@(0,0)o0;11@(1,0)o1;0@(0,-1)o5;42@(1,-1)o2;6@(0,1)o2;35@(2,0)o1;14@(1,-2)o1;36@(-1,-1)o2;31@(-1,1)o3;43@(0,2)o0;48@(-1,-2)o6;19@(-2,-2)o4;39@(-3,-2)o4",
    "2p-shared": "UTL p=2 cards=Restless,Loner,Skipper turn=25 tomove=- market=5,29 bag=- g0=S1@(0,0)o0;7@(1,0)o4;40@(1,-1)o0;25@(1,1)o1;10@(0,-1)o1;19@(2,0)o0;37@(3,0)o5;4@(4,0)o7;47@(-1,0)o5;49@(-1,1)o5;35@(4,-1)o0;14@(1,-2)o3;15@(4,-2)o6 g1=S0@(0,0)o0;39@(0,-1)o3;8@(1,0)o0;0@(0,-2)o3;41@(0,1)o2;34@(-1,-1)o6;22@(-1,1)o4;42@(0,2)o0;23@(1,2)o7;26@(1,3)o6;2@(1,4)o2;38@(2,3)o4;16@(1,1)o2",
    "3p-majority": "UTL p=3 cards=Restless,Loner,Skipper turn=37 tomove=- market=20,35 bag=- g0=S2@(0,0)o0;3@(1,0)o1;45@(0,1)o5;46@(0,2)o2;17@(1,1)o7;33@(-1,2)o1;44@(-2,2)o2;40@(0,3)o7;9@(0,4)o7;14@(-2,1)o3;21@(-1,1)o5;37@(1,2)o1;4@(-2,3)o7 g1=S1@(0,0)o0;41@(0,-1)o2;27@(-1,-1)o5;48@(-1,-2)o4;6@(1,-1)o4;0@(0,-2)o2;2@(-1,0)o2;26@(-2,0)o2;42@(-2,-1)o4;47@(-2,-2)o6;31@(0,-3)o0;28@(-1,1)o3;10@(-1,-3)o7 g2=S0@(0,0)o0;11@(0,1)o5;16@(-1,0)o4;25@(-1,1)o0;23@(0,-1)o1;22@(1,1)o0;19@(2,1)o7;15@(-1,-1)o5;24@(3,1)o6;30@(3,2)o2;1@(4,1)o1;7@(1,-1)o6;39@(0,-2)o3",
    "3p-humm-break": "UTL p=3 cards=Thoughtful,Collector,Diver turn=37 tomove=- market=0,46 bag=- g0=S1@(0,0)o0;24@(0,-1)o1;35@(1,0)o5;36@(-1,-1)o2;8@(-1,-2)o3;29@(1,1)o6;32@(-1,-3)o6;11@(-2,-2)o2;5@(2,0)o3;12@(1,2)o3;7@(0,1)o7;1@(2,1)o2;19@(0,-2)o1 g1=S0@(0,0)o0;34@(0,1)o1;10@(1,0)o7;48@(2,0)o7;3@(-1,0)o4;21@(1,-1)o5;42@(1,1)o5;15@(-1,-1)o1;33@(0,-1)o4;17@(-1,1)o5;43@(-2,1)o1;44@(1,2)o4;13@(2,2)o7 g2=S3@(0,0)o0;40@(-1,0)o1;41@(-1,-1)o3;14@(-2,-1)o0;16@(-1,1)o3;22@(-2,-2)o3;6@(-2,-3)o1;31@(-2,1)o4;28@(1,0)o5;26@(-2,0)o4;47@(-3,-3)o5;49@(-3,-2)o4;4@(-3,1)o6",
    "3p-bees-break": "UTL p=3 cards=Flirty,Collector,Diver turn=37 tomove=- market=24,28 bag=- g0=S0@(0,0)o0;1@(1,0)o1;21@(0,-1)o4;4@(0,-2)o1;12@(1,-2)o6;34@(2,0)o4;17@(1,-3)o0;48@(2,-2)o0;7@(-1,-1)o3;44@(2,-1)o3;11@(1,1)o0;32@(2,1)o6;41@(0,-3)o3 g1=S3@(0,0)o0;0@(0,-1)o1;49@(0,1)o3;31@(0,-2)o7;3@(1,1)o2;25@(2,1)o2;43@(-1,1)o5;6@(1,0)o7;42@(0,-3)o4;35@(3,1)o3;27@(0,-4)o0;18@(1,-1)o2;10@(1,2)o4 g2=S2@(0,0)o0;38@(-1,0)o6;13@(-1,1)o0;46@(-2,0)o6;9@(1,0)o5;47@(2,0)o5;26@(2,1)o3;22@(-2,-1)o7;5@(1,-1)o5;37@(-3,0)o7;20@(-3,-1)o0;19@(3,0)o6;2@(-4,-1)o4",
    "3p-shared": "UTL p=3 cards=Restless,Collector,Diver turn=37 tomove=- market=7,13 bag=- g0=S2@(0,0)o0;25@(-1,0)o0;48@(0,-1)o7;35@(-1,-1)o4;36@(-2,-1)o5;22@(1,-1)o0;33@(-1,-2)o7;45@(1,-2)o5;41@(1,-3)o1;18@(0,-3)o1;32@(2,-3)o0;8@(2,-1)o5;27@(2,-2)o4 g1=S1@(0,0)o0;16@(0,-1)o3;29@(-1,0)o3;46@(1,0)o5;1@(1,-1)o0;19@(2,0)o5;9@(-2,0)o6;21@(1,-2)o6;44@(-1,-1)o0;4@(0,1)o3;47@(-2,1)o0;23@(2,-2)o2;30@(1,-3)o3 g2=S0@(0,0)o0;28@(0,-1)o5;20@(0,-2)o3;26@(0,1)o5;39@(0,2)o7;12@(-1,-2)o5;6@(1,-2)o1;43@(0,3)o3;17@(1,0)o5;49@(1,-1)o5;38@(1,2)o6;3@(0,-3)o6;31@(1,3)o5",
}


def hand_result(s):
    """§9.3-4: rank by score, then hummingbirds, then bees; k shared firsts get 1/k."""
    sc = hand_scores(s)
    keys = [(sc[p], s.hummingbirds(p), s.bees(p)) for p in range(s.players)]
    best = max(keys)
    k = keys.count(best)
    return tuple(1 / k if keys[p] == best else 0.0 for p in range(s.players))


@pytest.mark.parametrize("name", sorted(FINISHED))
def test_final_scoring_and_result(name):
    # docs/rules/leaves.md §9 (majority bonuses at the end, score, ranking, shared first places)
    s = Leaves.parse(FINISHED[name])
    assert s.is_over
    assert list(s.scores()) == hand_scores(s)
    assert s.result() == pytest.approx(hand_result(s))


def test_majority_cases_present():
    # docs/rules/leaves.md §9.1 and §13.2: a category where every player has 0 gives no bonus;
    # players tied on the highest count all get +2
    for name in ("2p-majority", "3p-majority"):
        s = Leaves.parse(FINISHED[name])
        n = s.players
        cats = [list(s.pieces(p).values()) for p in range(n)]
        raw = [s.bees(p) + s.hummingbirds(p) + sum(cats[p]) for p in range(n)]
        zero = [j for j in range(3) if all(cats[p][j] == 0 for p in range(n))]
        tied = [j for j in range(3) if max(c[j] for c in cats) >= 1
                and sum(c[j] == max(cc[j] for cc in cats) for c in cats) >= 2]
        assert zero and tied
        bonus = [s.scores()[p] - raw[p] for p in range(n)]
        expect = [2 * sum(1 for j in range(3) if cats[p][j] == max(c[j] for c in cats) >= 1)
                  for p in range(n)]
        assert bonus == expect
        for j in tied:
            top = [p for p in range(n) if cats[p][j] == max(c[j] for c in cats)]
            assert len(top) >= 2 and all(bonus[p] >= 2 for p in top)


def test_ranking_tie_breaks_and_shared_first():
    # docs/rules/leaves.md §9.3-4: hummingbirds break a score tie, then bees; still tied -> shared
    s = Leaves.parse(FINISHED["2p-humm-break"])
    sc = s.scores()
    assert sc[0] == sc[1] and s.hummingbirds(0) != s.hummingbirds(1)
    assert s.result()[0] == (1.0 if s.hummingbirds(0) > s.hummingbirds(1) else 0.0)
    s = Leaves.parse(FINISHED["2p-bees-break"])
    sc = s.scores()
    assert sc[0] == sc[1] and s.hummingbirds(0) == s.hummingbirds(1) and s.bees(0) != s.bees(1)
    assert s.result()[0] == (1.0 if s.bees(0) > s.bees(1) else 0.0)
    s = Leaves.parse(FINISHED["2p-shared"])
    assert s.result() == (0.5, 0.5)
    s = Leaves.parse(FINISHED["3p-shared"])
    r = s.result()
    assert sorted(r) in ([0.0, 0.5, 0.5], [1 / 3] * 3)
    assert sum(r) == pytest.approx(1.0)


def test_no_bonus_before_the_end():
    # docs/rules/leaves.md §9.1: nobody gets a bonus before the end
    s = Leaves.parse(EX11)
    assert s.scores() == (3, 0)          # seat 0: Flirty 1 + Friendly 2; seat 1: nothing


# ----------------------------------------------------------------------------- §10 information

def test_determinize_keeps_public_information():
    # docs/rules/leaves.md §10.1, §10.3: the unseen tiles (bag + removed) are redistributed, the
    # bag size kept
    s = Leaves.parse(EX11)
    unseen = set(s.bag()) | set(s.removed())
    seen_bags = set()
    for seed in range(20):
        d = s.determinized(0, seed)
        assert len(d.bag()) == len(s.bag())
        assert set(d.bag()) | set(d.removed()) == unseen
        assert d.market() == s.market()
        assert [d.garden(p) for p in range(2)] == [s.garden(p) for p in range(2)]
        assert d.text().split()[:6] == s.text().split()[:6]
        assert d.text() == s.determinized(0, seed).text()          # seeded
        seen_bags.add(tuple(d.bag()))
    assert len(seen_bags) > 1


def test_determinize_depends_only_on_public_information():
    # docs/rules/leaves.md §10.3: two positions that differ only in which unseen tiles were
    # removed give the same determinization for the same random stream
    s = Leaves.parse(EX11)
    bag, removed = s.bag(), s.removed()
    other_bag = sorted(set(bag) - {bag[0]} | {removed[0]})
    t = EX11.replace("bag=" + ",".join(map(str, bag)), "bag=" + ",".join(map(str, other_bag)))
    s2 = Leaves.parse(t)
    assert s2.bag() != s.bag()
    for seed in range(5):
        assert s.determinized(1, seed).text() == s2.determinized(1, seed).text()


def test_determinize_four_players_is_the_state():
    # docs/rules/leaves.md §10.1: with 4 players the bag is exactly the unseen tiles
    s = Leaves.start(4, seed=2)
    assert s.determinized(2, 9).text() == s.text()


# ----------------------------------------------------------------------------- §11 position text

def test_example_position():
    # docs/rules/leaves.md §11.4 example: seat 0 has 1 Flirty and 2 Friendly on (0,2) and (0,0);
    # seat 1 has nothing; perft(1) = 3*6*8 = 144
    s = Leaves.parse(EX11)
    assert s.text() == EX11
    assert s.player == 1 and s.turn == 4
    assert s.pieces(0) == {"Fl": 1, "Co": 0, "Fr": 2}
    assert s.piece_squares(0, "Fr") == [(0, 2), (0, 0)]
    assert s.piece_squares(0, "Fl") == [(0, 1)]
    assert s.pieces(1) == {"Fl": 0, "Co": 0, "Fr": 0}
    assert len(s.removed()) == 24
    assert s.frontier(1) == frontier_by_hand(s.garden(1))
    assert len(s.frontier(1)) == 6
    assert s.perft(1) == 144


def test_example_perft_2():
    # docs/rules/leaves.md §11.4: perft(2) = 144 * 20 * (3*7*8) = 483,840
    assert Leaves.parse(EX11).perft(2) == 483840


def test_round_trip_along_games():
    # docs/rules/leaves.md §11.2 (parse(text) replays every garden and rebuilds all derived state)
    for n in (2, 3, 4):
        s = Leaves.start(n, seed=n)
        rnd = random.Random(n)
        while not s.is_over:
            t = s.text()
            again = Leaves.parse(t)
            assert again.text() == t and again.hash == s.hash
            assert again.scores() == s.scores()
            for p in range(n):
                assert again.bees(p) == s.bees(p) and again.pieces(p) == s.pieces(p)
            if s.is_chance:
                s.play_unchecked(s.sample(rnd.getrandbits(32)))
            else:
                s.play_unchecked(rnd.choice(s.legal()))
        assert Leaves.parse(s.text()).text() == s.text()


def _bad(text, match):
    with pytest.raises(PositionError, match=match):
        Leaves.parse(text)


def test_position_errors_fields():
    # docs/rules/leaves.md §11.1, the fields in exactly this order, and their values
    _bad(42, "must be text")
    _bad("", "starts with 'UTL'")
    _bad(EX11.replace("UTL", "LTU", 1), "starts with 'UTL'")
    _bad(EX11.replace("p=2", "p=5"), "p must be 2, 3 or 4")
    _bad(EX11.replace("p=2", "players=2"), "second field")
    _bad(EX11.rsplit(" ", 1)[0], "9 fields")
    _bad(EX11.replace("turn=4 tomove=1", "tomove=1 turn=4"), "field 4 must be turn=")
    _bad(EX11.replace("cards=", "card="), "field 3 must be cards=")
    _bad(EX11.replace("Flirty,Collector,Friendly", "Host,Collector,Friendly"),
         "leaf card must be one of")
    _bad(EX11.replace("Flirty,Collector,Friendly", "Flirty,Friendly,Collector"),
         "mushroom card must be one of")
    _bad(EX11.replace("Flirty,Collector,Friendly", "Flirty,Collector"), "needs 3 names")
    _bad(EX11.replace("turn=4", "turn=0"), "turn must be a number from 1 to 25")
    _bad(EX11.replace("turn=4", "turn=x"), "turn must be")
    _bad(EX11.replace("tomove=1", "tomove=0"), "seat 1 is to move")


def test_position_errors_tiles():
    # docs/rules/leaves.md §11.1, §11.3: ids ascending, counts of market and bag, all ids different
    _bad(EX11.replace("market=7,29,30", "market=29,7,30"), "ascending")
    _bad(EX11.replace("market=7,29,30", "market=7,7,30"), "listed twice")
    _bad(EX11.replace("market=7,29,30", "market=7,29,50"), "no tile 50")
    _bad(EX11.replace("market=7,29,30", "market=7"), "market holds 3 tiles")
    _bad(EX11.replace("bag=0,4,", "bag=4,"), r"bag must hold 20 tiles at turn 4 \(50 - 24 removed")
    _bad(EX11.replace("bag=0,4,", "bag=4,7,"), "tile 7 is both in the market and the bag")
    _bad(EX11.replace("12@(1,0)o2", "43@(1,0)o2"), "tile 43 is both in the g0 and g1")
    _bad(EX11.replace(";42@(-1,1)o7", ";43@(-1,1)o7"), "tile 43 is placed twice in g0")
    _bad(EX11.replace("g1=S3", "g1=S1"), "starting tile S1 is in g0 and g1")


def test_position_errors_gardens():
    # docs/rules/leaves.md §11.1, §11.3 gardens: the starting tile first, legal placements,
    # entry counts
    _bad(EX11.replace("g0=S1@(0,0)o0;", "g0="), "must start with its starting tile")
    _bad(EX11.replace("S1@(0,0)o0", "S1@(1,0)o0"), "must start with its starting tile")
    _bad(EX11.replace("S3@(0,0)o0", "S9@(0,0)o0"), "no starting tile S9")
    _bad(EX11.replace("12@(1,0)o2", "S2@(1,0)o2"), "a starting tile only opens a garden")
    _bad(EX11.replace("42@(-1,1)o7", "42@(-3,3)o7"), r"slot \(-3,3\) is not next to a tile")
    _bad(EX11.replace("42@(-1,1)o7", "42@(0,1)o7"), r"slot \(0,1\) is already taken")
    _bad(EX11.replace("12@(1,0)o2", "12@(1,0)o8"), "orientation 8")
    _bad(EX11.replace("12@(1,0)o2", "12@(1,0)"), "is not a placement")
    _bad(EX11.replace(";42@(-1,1)o7", ""), "g0 has 2 entries; at turn 4 seat 0 has placed 2 tiles, so it needs 3")
    _bad(EX11.replace("g1=S3@(0,0)o0;12@(1,0)o2", "g1="), "g1 is empty")


def test_position_errors_game_state():
    # docs/rules/leaves.md §11.1: a market of 2 only while a refill is pending or after the end;
    # tomove '-'
    over = FINISHED["2p-shared"]
    _bad(over.replace("tomove=-", "tomove=0"), "tomove must be '-'")
    _bad(over.replace("market=5,29", "market=5,29,30"), "finished game leaves 2 tiles")
    start = GAME.examples[0]
    _bad(start.replace("market=24,38,44", "market=24,38"), "at turn 1 the market holds 3 tiles")
    # a chance node: 2 in the market, one more tile in the bag than at a decision node
    chance = GAME.examples[2]
    s = Leaves.parse(chance)
    assert s.is_chance and len(s.bag()) == 24 - 17 + 1
    _bad(chance.replace("bag=6,7,", "bag=7,"), "bag must hold 8 tiles")


def test_move_errors():
    # docs/rules/leaves.md §4.2, §4.4 notation; a refill draw is d<id>
    s = Leaves.parse(EX11)
    for bad, match in (("x", "is not a move"), ("m3@(0,0)o0", "market index"),
                       ("m0@(0,0)o8", "orientation"), ("m0@(13,0)o0", "never be on a frontier"),
                       ("d50", "no tile 50"), ("m0@(0,0)", "is not a move"), ("m0 @(0,0)o1", "is not a move")):
        with pytest.raises(MoveError, match=match):
            s.parse_move(bad)
    with pytest.raises(MoveError, match="illegal move 'm0@\\(0,0\\)o0'"):
        s.play_move("m0@(0,0)o0")                     # (0,0) holds the starting tile
    with pytest.raises(MoveError, match="illegal"):
        s.play_move("d0")                             # not a chance node
    s.play_move("m0@(2,0)o0")
    with pytest.raises(MoveError, match="illegal"):
        s.play_move("m0@(0,1)o0")                     # a chance node: draws only
    with pytest.raises(MoveError, match="illegal"):
        s.play_move("d7")                             # tile 7 was placed, not in the bag
    for m in s.legal():
        assert s.parse_move(s.move_name(m)) == m


def test_render_and_svg():
    # docs/rules/leaves.md §11.2 (derived state shown to a person: squares, pieces, scores)
    s = Leaves.parse(EX11)
    r = s.render()
    assert "Seat 0: score 3" in r and "Seat 1: score 0" in r
    assert "Flirty" in r and "Friendly" in r and "seat 1 to move" in r
    assert "~p" in r                                  # Friendly pieces on the puddles
    svg = s.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    import xml.etree.ElementTree as ET
    gardens = [g for g in ET.fromstring(svg).iter() if g.get("class") == "garden"]
    drawn = sum(1 for g in gardens for e in g.iter() if e.get("stroke-width") == "0.5")
    assert len(gardens) == 2 and drawn == 4 * (len(s.garden(0)) + len(s.garden(1)))


# ----------------------------------------------------------------------------- §12 perft

PERFT = {2: (96, 211968, 671514624), 3: (96, 322560, 1052835840), 4: (96, 433152, 1912799232)}


@pytest.mark.parametrize("n", (2, 3, 4))
def test_perft_table(n):
    # docs/rules/leaves.md §12.2 table (it depends only on geometry and bag size, so any start
    # will do)
    for seed in range(3):
        s = Leaves.start(n, seed=seed)
        assert s.perft(0) == 1
        assert s.perft(1) == PERFT[n][0]
        assert s.perft(2) == PERFT[n][1]
    assert Leaves.start(n, seed=11).perft(3) == PERFT[n][2]


def test_perft_divide_and_chance():
    # docs/rules/leaves.md §12.1: a draw uses no depth; the 2-player perft(2) is 96 * 23 * 96
    s = Leaves.start(2, seed=0)
    rows = s.divide(2)
    assert len(rows) == 96 and all(v == 23 * 96 for _, v in rows)
    s.play_move(s.legal()[0])
    assert s.is_chance and s.perft(1) == 23 * 96


def test_perft_at_the_end():
    # docs/rules/leaves.md §12.1: at a terminal with d > 0 the count is 0
    s = Leaves.parse(LAST)
    assert s.perft(2) == 0
    assert Leaves.parse(FINISHED["2p-shared"]).perft(1) == 0


# ----------------------------------------------------------------------------- contract, 3 players

def test_generic_contract_for_three_players():
    # the generic contract tests pick min/default/max players (2 and 4 here); run them for 3
    from tests.core import test_contract as tc
    for f in (tc.test_random_games_end_with_valid_results,
              tc.test_text_round_trip_and_keys_along_random_games,
              tc.test_copies_are_independent,
              tc.test_every_legal_move_plays_and_names_round_trip,
              tc.test_native_playout_is_deterministic_and_ends,
              tc.test_evaluate_is_a_probability):
        f(GAME, 3)


def test_evaluate_sums_to_one():
    # evaluate(p) is the engine's estimate of p's result: a distribution over players
    for n in (2, 3, 4):
        s = Leaves.start(n, seed=5)
        s.random_playout(seed=1, max_plies=2 * 6 * n)
        vals = [s.evaluate_for(p) for p in range(n)]
        assert sum(vals) == pytest.approx(1.0)
        assert all(0.0 < v < 1.0 for v in vals)
    s = Leaves.parse(FINISHED["2p-shared"])
    assert [s.evaluate_for(p) for p in range(2)] == [0.5, 0.5]


def test_registry():
    assert get_game("under-the-leaves") is GAME and get_game("UTL") is GAME
    assert (GAME.min_players, GAME.max_players, GAME.default_players) == (2, 4, 2)
    assert Leaves.parse(GAME.examples[0]).players == 2 and Leaves.parse(GAME.examples[0]).turn == 1
    assert EX11 in GAME.examples
    Leaves.parse(GAME.bench_position)


# ----------------------------------------------------------------------------- audit: input

@pytest.mark.parametrize("old,new", [
    ("turn=4", "turn=\u00b2"),                 # a superscript two: str.isdigit() says yes, int() fails
    ("market=7,", "market=\u00b2,"),
    ("turn=4", "turn=\u0664"),                 # an Arabic-Indic four: int() reads it as 4
    ("market=7,", "market=\u0667,"),
    ("12@(1,0)o2", "12@(1,0)o\u0662"),
    ("12@(1,0)o2", "1\u0662@(1,0)o2"),
])
def test_position_numbers_are_ascii_decimal(old, new):
    # docs/rules/leaves.md §11.1: turn, tile ids, slots and orientations are written in ASCII
    # decimal; any other digit is a fault named by a PositionError (not a ValueError from int(),
    # and not silently read as the number it looks like)
    text = EX11.replace(old, new, 1)
    assert text != EX11
    with pytest.raises(PositionError):
        Leaves.parse(text)


@pytest.mark.parametrize("old,new", [
    ("turn=4", "turn=04"),
    ("market=7,", "market=07,"),
    ("12@(1,0)o2", "012@(1,0)o2"),
    ("12@(1,0)o2", "12@(01,0)o2"),
    ("12@(1,0)o2", "12@(1,-0)o2"),
    ("12@(1,0)o2", "12@(1,0)o02"),
    ("g1=S3@", "g1=S03@"),
])
def test_position_numbers_are_canonical(old, new):
    # docs/rules/leaves.md §11.1: one position has one text (parse(text()) round-trips exactly,
    # and the text is the key of __eq__): a number with a leading zero or a "-0" is not the way
    # the format writes it, so it is rejected rather than read and rewritten
    text = EX11.replace(old, new, 1)
    with pytest.raises(PositionError):
        Leaves.parse(text)


@pytest.mark.parametrize("slot", ["(99999999999999999999,0)", "(1,-99999999999999999999)", "(13,0)"])
def test_position_far_slot_is_a_position_error(slot):
    # docs/rules/leaves.md §11.3: every entry must be a legal placement at its point in the list:
    # a slot far outside the garden is a PositionError naming the entry (a coordinate too
    # big for a C int used to escape as an OverflowError)
    with pytest.raises(PositionError, match=r"g1 entry 2"):
        Leaves.parse(EX11.replace("12@(1,0)o2", f"12@{slot}o2"))


@pytest.mark.parametrize("name", ["m\u0660@(0,2)o0", "m0@(\u0660,2)o0", "m0@(0,2)o\u0660", "d\u0660",
                                  "m0@(0,2)o\u00b2", "m00@(0,2)o0", "m0@(-0,2)o0", "m0@(0,02)o0",
                                  "m0@(0,2)o00", "d07"])
def test_move_names_are_ascii_and_canonical(name):
    # docs/rules/leaves.md §4.2, §4.4: moves are written m<i>@(<x>,<y>)o<o> and draws d<id> in
    # ASCII decimal; an Arabic-Indic zero, a superscript or a leading zero is not that notation
    # (MoveError)
    s = Leaves.parse(EX11)
    with pytest.raises(MoveError):
        s.parse_move(name)


# ----------------------------------------------------------------------------- §8 by hand

def test_host_merge_of_two_one_mushroom_components_then_growth():
    # docs/rules/leaves.md §8.3 Host: two components with one unused mushroom each bring a Host
    # when they merge, and a component that later grows to take in more mushrooms brings
    # nothing more.
    # S0 at (0,0): (1,-1) Y*.
    # 30 `~ O P P` o0 at (1,0): (2,0) ~, (3,0) O, (2,-1) P, (3,-1) P.
    # 2 `Y* V P P` o3 (MAP 1 3 0 2) at (1,-1): (2,-2) V, (3,-2) P, (2,-3) Y*, (3,-3) P: a
    #   second yellow mushroom, alone; (1,-1) is alone too: no Host.
    # 38 `~ O Y Y` o3 at (0,-1): (0,-2) O, (1,-2) Y, (0,-3) ~, (1,-3) Y: yellow (1,-1),
    #   (1,-2), (1,-3), (2,-3) is one component with the two unused mushrooms: Host +1.
    # 13 `Y* P O O` o1 (MAP 2 0 3 1) at (0,-2): (0,-4) O, (1,-4) Y*, (0,-5) O, (1,-5) P:
    #   (1,-4) joins that component (a third mushroom), which holds used ones: nothing.
    #   The component is now 5 yellow squares with (1,-1..-4) in one column: Restless +1
    #   (a sector of 5 with no used square) and Runner +1 (four in a column, §8.2).
    g, gains = replay(0, "30@(1,0)o0 2@(1,-1)o3 38@(0,-1)o3 13@(0,-2)o1", cards=["Ho", "Re", "Ru"])
    assert gains == [{}, {}, {"Ho": 1}, {"Re": 1, "Ru": 1}]
    assert [g.square(1, v) for v in (-1, -2, -3, -4)] == ["Y*", "Y", "Y", "Y*"]
    assert g.square(2, -3) == "Y*"


def test_restless_on_two_unused_sectors_merging():
    # docs/rules/leaves.md §8.2 Restless: every pollinated sector of 5 squares or more with
    # no square in U brings one piece.  Two sectors of 3 (each too small, so unused) that
    # merge into one of 8 have no square in U: +1 (a merge of sectors that already brought
    # their Restless brings no new one: the merged sector holds a used square).
    # S3 at (0,0): (0,0) ~, (1,0) Y, (0,-1) O, (1,-1) V*.
    # 23 `G* P V V` o4 (MAP 1 0 3 2) at (1,0): (2,0) P, (3,0) G*, (2,-1) V, (3,-1) V:
    #   purple (1,-1), (2,-1), (3,-1): a new sector of 3, bee +1 (1).
    # 21 `Y* O V V` o0 at (0,-1): (0,-2) Y*, (1,-2) O, (0,-3) V, (1,-3) V: purple pair,
    #   cut off from the first sector by (1,-2) O (1).
    # 4 `V* G P P` o4 at (0,-2): (0,-4) G, (1,-4) V*, (0,-5) P, (1,-5) P: purple (0,-3),
    #   (1,-3), (1,-4) is a new sector of 3: +1, +1 for the other purple sector (3).
    # 18 `O* G V V` o7 (MAP 3 1 2 0) at (1,-1): (2,-2) V, (3,-2) G, (2,-3) V, (3,-3) O*:
    #   (2,-2) touches (2,-1), (2,-3) touches (1,-3): one purple sector of 3 + 3 + 2 = 8, a
    #   merge (no bee, 3) with no Restless square yet: Restless +1.
    g, gains = replay(3, "23@(1,0)o4 21@(0,-1)o0 4@(0,-2)o4 18@(1,-1)o7", cards=["Re"])
    assert gains == [{}, {}, {}, {"Re": 1}]
    assert g.bees == 3
    for sq in ((1, -1), (2, -1), (3, -1), (2, -2), (2, -3), (0, -3), (1, -3), (1, -4)):
        assert g.pollinated(*sq) and g.square(*sq)[0] == "V"


def test_diver_growth_brings_nothing():
    # docs/rules/leaves.md §8.4 Diver: a component brings nothing more when it grows or
    # merges later.
    # S3 at (0,0): (0,0) ~.  47 `~ O G G` o6 (MAP 2 3 0 1) at (0,1): (0,2) G, (1,2) G,
    # (0,1) ~, (1,1) O: puddles (0,1), (0,0): Diver +1 (script C, §13.1).
    # 30 `~ O P P` o2 (MAP 3 2 1 0) at (-1,1): (-2,2) P, (-1,2) P, (-2,1) O, (-1,1) ~:
    # (-1,1) joins the used component: nothing.
    g, gains = replay(3, "47@(0,1)o6 30@(-1,1)o2", cards=["Di"])
    assert gains == [{"Di": 1}, {}]
    assert g.square(-1, 1) == "~" and g.square(0, 1) == "~"


# a 2-player position at turn 9 whose seat-0 garden is given in some placement order
_ORDER_BASE = ("UTL p=2 cards=Flirty,Collector,Diver turn=9 tomove=0 market=0,1,2 "
               "bag=3,4,5,6,8,9,10,11,12,13,14,15,16,17,18 g0=S0@(0,0)o0;{} "
               "g1=S1@(0,0)o0;30@(1,0)o0;31@(2,0)o0;32@(3,0)o0;33@(4,0)o0")


def test_key_follows_derived_state_not_placement_order():
    # docs/rules/leaves.md §11.2 (the order of a garden's tiles is its whole history, since
    # bees, used squares and where Collector and Friendly pieces stand depend on it) and
    # §8.3 Collector.
    # 7 `P* O Y Y` o4 at (0,1) puts a mushroom on (1,2); 19 `P* O V V` o6 at (1,2) puts one
    # on (2,3), diagonal to it.  The piece stands on the square that is not on the tile
    # just placed: on (1,2) when 19 comes last, on (2,3) when 7 comes last.  So the two
    # orders leave different used sets (a later mushroom on (3,4) could pair with (2,3)
    # in the first order only) and must have different keys; an order that swaps two
    # tiles without changing any used set or count is the same game from here on and
    # may share the key (it does: the key hashes the placements as a set plus the derived
    # state).  The derived state is compared on the literal reference replay.
    orders = {"B last": "40@(1,0)o0;45@(1,1)o0;7@(0,1)o4;19@(1,2)o6",
              "A last": "40@(1,0)o0;45@(1,1)o0;19@(1,2)o6;7@(0,1)o4",
              "A first": "7@(0,1)o4;40@(1,0)o0;45@(1,1)o0;19@(1,2)o6"}
    states = {k: Leaves.parse(_ORDER_BASE.format(v)) for k, v in orders.items()}
    assert states["B last"].piece_squares(0, "Co") == [(1, 2)]
    assert states["A last"].piece_squares(0, "Co") == [(2, 3)]
    refs = {}
    for k, s in states.items():
        entries = s.garden(0)
        ref = RefGarden(entries[0][0] - 50)
        for (t, x, y, o) in entries[1:]:
            ref.place(t, x, y, o)
        refs[k] = (ref.bees, {c: frozenset(ref.used[c]) for c in ("Fl", "Co", "Di")}, ref.pieces())
    assert len({s.text() for s in states.values()}) == 3
    assert refs["B last"] != refs["A last"]
    assert states["B last"].hash != states["A last"].hash
    assert refs["B last"] == refs["A first"]
    assert states["B last"].hash == states["A first"].hash
