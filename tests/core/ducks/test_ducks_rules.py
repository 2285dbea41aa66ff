"""Feed the Ducks rules tests; each cites its section of docs/rules/ducks.md.
Positions are the rules file's or built by hand, with the expected results worked out by
hand in the comments (axial (q, r) coordinates as docs/rules/ducks.md §2.2 defines them)."""
import pytest

from roost.core.ducks import Ducks, cell_name, parse_cell
from roost.core.errors import MoveError, PositionError

AFTER_SETUP = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"   # docs/rules/ducks.md §10.2


def board_and_side(text):
    """The rows and the side to move of a position text (not the plies nor the ending)."""
    return " ".join(text.split()[:2])


def play(text, *moves):
    s = Ducks.parse(text)
    for m in moves:
        s.play_move(m)
    return s


# --- Board and notation -------------------------------------------------------------
def test_cell_names_and_bit_indices():
    # docs/rules/ducks.md §2.1, §2.3: a1 = 0, e5 = 30, i5 = 60, rows of 5..9..5 cells
    assert parse_cell("a1") == 0
    assert parse_cell("e5") == 30
    assert parse_cell("i5") == 60
    assert parse_cell("b1") == 5 and parse_cell("e1") == 26
    assert [cell_name(i) for i in (0, 30, 60)] == ["a1", "e5", "i5"]
    for bad in ("a6", "e10", "j1", "e0", "5e", ""):
        with pytest.raises(MoveError):
            parse_cell(bad)


# --- Setup phase --------------------------------------------------------------------
def test_setup_moves_from_the_empty_pond():
    # docs/rules/ducks.md §4.1: either colour on any empty bank cell: 24 cells x 2 colours
    s = Ducks.start()
    names = s.legal_names()
    assert len(names) == 48
    assert "W@a1" in names and "B@e9" in names
    assert "W@e5" not in names          # e5 is not an edge cell
    with pytest.raises(MoveError):
        s.play_move("W@e5")


def test_setup_colour_limit():
    # docs/rules/ducks.md §4.1: a colour may be placed only while it has ducks left.  Twelve
    # white ducks are down (i1-i5, h1, h6, g1, g7, f1, f8, e1), two black (a1, a2):
    # 14 placements, so White is to move, and only black ducks remain: the ten empty edge
    # cells a3 a4 a5 b1 b6 c1 c7 d1 d8 e9.
    s = Ducks.parse("wwwww/w4w/w5w/w6w/w8/8/7/6/bb3 w 0")
    assert s.phase == "setup"
    assert s.legal_names() == ["B@" + c for c in "a3 a4 a5 b1 b6 c1 c7 d1 d8 e9".split()]


def test_no_win_during_setup_and_play_starts_with_white():
    # docs/rules/ducks.md §4.2, §5.1: no win during the setup; after 24 placements White
    # places the first crumb on any empty cell.  White holds 12 consecutive edge cells
    # (a1..a5, b6, c7, d8, e9, f8, g7, h6: one connected group), Black the rest but b1.
    s = Ducks.parse("bbbbb/b4w/b5w/b6w/b7w/b6w/b5w/5w/wwwww b 0")
    assert s.legal_names() == ["B@b1"]
    s.play_move("B@b1")
    assert not s.is_over
    assert s.phase == "play" and s.player == 0
    assert len(s.legal()) == 37        # 61 cells - 24 ducks, any of them


# --- Play phase: swimming -----------------------------------------------------------
def test_first_crumb_pulls_the_nearest_duck_of_every_ray():
    # docs/rules/ducks.md §5.2, §12.1: every duck on the six rays swims toward the crumb.
    # From AFTER_SETUP, a crumb on e5 (0,0): each of its six rays holds one duck, at the
    # edge: e9 -> e6, e1 -> e4, i5 -> f5, i1 -> f4, a1 -> d4 (all black), a5 -> d5 (white).
    s = play(AFTER_SETUP, "e5")
    assert s.text() == "1wbw1/w4b/w5w/b2bb2b/3b*b3/w2bw2w/b5w/b4w/1bww1 b 1"
    assert not s.is_over


def test_ducks_keep_their_order_and_pack_against_the_crumb():
    # docs/rules/ducks.md §5.2, §12.2: ducks on a ray keep their order and close up.
    # Black then drops the crumb on d2 (-2,-1), off e5's lines.  Its east ray d3..d8 holds
    # b (d4), w (d5), w (d8): they pack to d3 b, d4 w, d5 w.  The ray up-left (e2, f1)
    # brings f1's black duck to e2; the ray up (e3, f3, g3, h3, i3) brings i3 to e3; the ray
    # down-right (c2, b2, a2) brings a2 to c2; d1 and c1 are already next to d2.
    s = play(AFTER_SETUP, "e5", "d2")
    assert s.text() == "1w1w1/w4b/w5w/3bb2b/1bbb1b3/w*bww3/bb4w/b4w/2ww1 w 2"


def test_crumb_may_not_go_on_the_lines_of_its_previous_cell():
    # docs/rules/ducks.md §5.1: the new cell is empty and on no line of the previous one.
    # After e5 the lines of e5 hold 24 cells: the six ducks now next to it and 18 empty
    # cells; 61 - 24 ducks - the crumb = 36 empty cells, so 36 - 18 = 18 are legal.
    s = play(AFTER_SETUP, "e5")
    legal = set(s.legal_names())
    assert len(legal) == 18
    assert "d2" in legal
    for name in ("e5", "e7", "a1", "g5", "b5", "h2"):   # the cell itself and its lines
        assert name not in legal
        with pytest.raises(MoveError):
            s.copy().play_move(name)
    assert "c1" not in legal             # a duck is there


# --- End of the game ----------------------------------------------------------------
# White: e1-e4, d1-d3, f1-f3, c1 connected, and i1 alone; Black: e6-e9, d6-d8, f6-f8, c6
# connected, and i5 alone.  A crumb on e5 pulls i1 to f4 (next to f3 and e4) and i5 to f5
# (next to f6): both colours gather at once.
BOTH_GATHER = "w3b/6/7/www2bbb/wwww1bbbb/www2bbb/w4b1/6/5"


def test_both_gathered_at_once_the_placer_wins():
    # docs/rules/ducks.md §6.2, §12.3: both gathered at once, the player who placed wins.
    s = play(BOTH_GATHER + " w 0", "e5")
    assert s.is_over and s.result() == (1.0, 0.0)
    assert s.text() == "5/6/7/wwwwbbbb/wwww*bbbb/www2bbb/w4b1/6/5 b 1"
    s = play(BOTH_GATHER + " b 0", "e5")
    assert s.is_over and s.result() == (0.0, 1.0)


def test_one_colour_gathered_its_owner_wins_even_on_the_opponents_move():
    # docs/rules/ducks.md §6.2: exactly one colour gathered: its owner wins.  The lone
    # black duck sits on a3 instead of i5, off e5's lines; Black's crumb on e5 gathers White.
    s = play("w4/6/7/www2bbb/wwww1bbbb/www2bbb/w4b1/6/2b2 b 0", "e5")
    assert s.is_over and s.result() == (1.0, 0.0)


def test_third_repetition_draws():
    # docs/rules/ducks.md §6.3, §12.4: the third occurrence of a position draws.
    # From this position a2 and g3 move no duck once the first a2 has packed them, so
    # a2 g3 a2 g3 a2 repeats the position after the first a2 a third time.
    start = "b4/1w4/1w1b3/1wbw1bwb/2w1bwb2/1bbb2w1/*bww3/b5/2w1w b 7"
    s = Ducks.parse(start)
    seen = []
    for i, m in enumerate(["a2", "g3", "a2", "g3"]):
        s.play_move(m)
        seen.append(board_and_side(s.text()))
        assert not s.is_over, f"drawn too early, after move {i + 1}"
    assert seen[0] == seen[2] and seen[1] == seen[3]
    s.play_move("a2")
    assert board_and_side(s.text()) == seen[0]
    assert s.is_over and s.result() == (0.5, 0.5)


def test_the_300th_placement_draws_unless_it_wins():
    # docs/rules/ducks.md §6.4: 300 placements without a winner draw.
    s = play("1wbw1/w4b/w5w/b2bb2b/3b*b3/w2bw2w/b5w/b4w/1bww1 b 299", "d2")
    assert s.is_over and s.result() == (0.5, 0.5)
    # the same winning crumb, with the previous crumb on b3 (off e5's lines)
    s = play("w3b/6/7/www2bbb/wwww1bbbb/www2bbb/w4b1/2*3/5 w 299", "e5")
    assert s.is_over and s.result() == (1.0, 0.0)
    assert Ducks.parse("1wbw1/w4b/w5w/b2bb2b/3b*b3/w2bw2w/b5w/b4w/1bww1 b 300").is_over


# --- Position text ------------------------------------------------------------------
def test_position_text_round_trip_and_optional_plies():
    # docs/rules/ducks.md §9.1: <plies> may be left out (0)
    s = Ducks.parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w")
    assert s.text() == AFTER_SETUP
    assert Ducks.parse("5/6/7/8/9/8/7/6/5 w 0").text() == "5/6/7/8/9/8/7/6/5 w 0"


def test_a_finished_game_is_a_position_text_too():
    # docs/rules/ducks.md §9.4: a crumb on the board and a colour gathered is a won game
    # (§6.2: the gathered colour wins; both at once, the player who placed the crumb, the one
    # not to move); a draw by repetition, which the board cannot show, is marked `repetition`
    # (§9.1); 300 plies is a draw by the cap.  Each parses back as the finished game it was.
    won = Ducks.parse("5/6/7/wwww1bbb/wwww*bbbb/www2bbb/w4b1/6/2b2 b 1")
    assert won.is_over and won.result() == (1.0, 0.0) and won.legal() == []
    assert won.ending() == {"reason": "gathered", "detail": "White's ducks are gathered"}
    both = play(BOTH_GATHER + " w 0", "e5")
    again = Ducks.parse(both.text())
    assert again.result() == (1.0, 0.0) == both.result()
    assert again.ending() == both.ending() and "both colours" in both.ending()["detail"]
    drawn = play("b4/1w4/1w1b3/1wbw1bwb/2w1bwb2/1bbb2w1/*bww3/b5/2w1w b 7",
                 "a2", "g3", "a2", "g3", "a2")
    assert drawn.text().endswith(" w 12 repetition")
    again = Ducks.parse(drawn.text())
    assert again.is_over and again.result() == (0.5, 0.5) and again.legal() == []
    assert again.text() == drawn.text()
    assert again.ending()["reason"] == drawn.ending()["reason"] == "repetition"
    capped = Ducks.parse("1wbw1/w4b/w5w/b2bb2b/3b*b3/w2bw2w/b5w/b4w/1bww1 b 300")
    assert capped.text().endswith(" b 300") and capped.ending()["reason"] == "cap"


@pytest.mark.parametrize("text,fault", [
    ("5/6/7/8/9/8/7/6 w 0", "9 rows"),
    ("5/6/7/8/9/8/7/6/6 w 0", "row a"),
    ("5/6/7/8/9/8/7/6/4 w 0", "row a"),
    ("5/6/7/8/9/8/7/6/x4 w 0", "unknown character 'x'"),
    ("5/6/7/8/9/8/7/6/5 x 0", "side to move"),
    ("5/6/7/8/9/8/7/6/5 w -1", "plies"),
    ("5/6/7/8/9/8/7/6/5 w 0 repetition extra", "2 to 4 fields"),
    ("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0 extra", "the fourth field can only be 'repetition'"),
    ("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0 repetition", "no crumb"),
    ("5/6/7/wwww1bbb/wwww*bbbb/www2bbb/w4b1/6/2b2 b 1 repetition", "a colour is gathered"),
    ("1wbw1/w4b/w5w/b2bb2b/3b*b3/w2bw2w/b5w/b4w/1bww1 b 300 repetition", "drawn by the cap"),
    ("5/6/7/8/4w4/8/7/6/5 b 0", "during setup"),
    ("5/6/7/8/9/8/7/6/*4 w 0", "crumb on a1 during setup"),
    ("wwwww/w4w/w5w/w6w/w7w/8/7/6/5 b 0", "13 white ducks"),
    ("bwbwb/w4b/w5w/b6b/b2**3b/w6w/b5w/b4w/bbwww w 3", "two crumbs"),
    ("5/6/7/8/9/8/7/6/w4 w 0", "Black's turn"),
    ("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 301", "cap"),
])
def test_bad_position_texts_are_rejected_with_the_fault_named(text, fault):
    # docs/rules/ducks.md §9.3: each listed fault is rejected with a message naming it
    with pytest.raises(PositionError) as e:
        Ducks.parse(text)
    assert fault in str(e.value)


# --- Perft --------------------------------------------------------------------------
def test_perft_counts_a_winning_move_as_a_leaf_only_at_depth_one():
    # docs/rules/ducks.md §10.1: a move that ends the game is a leaf at depth 1 and adds
    # nothing deeper.  In BOTH_GATHER every crumb move except the winning ones continues.
    s = Ducks.parse(BOTH_GATHER + " w 0")
    moves = s.legal()
    assert s.perft(1) == len(moves)
    expected = 0
    for m in moves:
        c = s.copy()
        c.play_unchecked(m)
        if not c.is_over:
            expected += len(c.legal())
    assert s.perft(2) == expected
    assert expected < len(moves) * 37        # the e5 win contributed nothing


def python_perft(state, depth):
    """Perft through the plain Python API (legal moves, play), to check the bulk counter."""
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    total = 0
    for m in state.legal():
        c = state.copy()
        c.play_unchecked(m)
        total += python_perft(c, depth - 1)
    return total


def test_bulk_perft_agrees_with_move_by_move_counting():
    # docs/rules/ducks.md §10.1: the fast counter must count exactly the legal-move tree,
    # from setup positions, the first crumb turn and positions with a crumb down.
    import random
    rnd = random.Random(12)
    s = Ducks.parse("wwwww/w4w/w5w/w6w/w8/8/b6/b5/bbbbb b 0")
    checked = 0
    while not s.is_over and checked < 40:
        depth = 3 if s.phase == "setup" else 2
        assert s.perft(depth) == python_perft(s, depth), s.text()
        s.play_unchecked(rnd.choice(s.legal()))
        checked += 1
    assert checked >= 15


def test_evaluation_prefers_fewer_groups():
    # the heuristic counts groups: White in one group, Black in two (a3 apart)
    s = Ducks.parse("5/6/7/wwww1bbb/wwww1bbbb/www2bbb/w4b1/6/2b2 w 0")
    assert s.evaluate_for(0) > 0.5
    t = Ducks.parse(AFTER_SETUP)
    assert abs(t.evaluate_for(0) - (1 - t.evaluate_for(1))) < 1e-12


# --- Audit --------------------------------------------------------------------------
@pytest.mark.parametrize("text,fault", [
    # a superscript two passes str.isdigit() but is no number (int() raised ValueError);
    # an Arabic-Indic three was read silently as 3
    (AFTER_SETUP.replace(" w 0", " w \u00b2"), "plies must be a non-negative integer"),
    ("1wbw1/w4b/w5w/b2bb2b/3b*b3/w2bw2w/b5w/b4w/1bww1 b \u0663", "plies must be a non-negative integer"),
])
def test_plies_are_ascii_digits(text, fault):
    # docs/rules/ducks.md §9.1: <plies> is the number of crumb placements, in ASCII digits
    with pytest.raises(PositionError) as e:
        Ducks.parse(text)
    assert fault in str(e.value)


def test_cell_names_with_non_ascii_digits_are_move_errors():
    # docs/rules/ducks.md §2.1, §8: a row letter and a 1-based position in ASCII digits
    s = Ducks.parse(AFTER_SETUP)
    for bad in ("e\u00b2", "W@e\u00b2", "e\u0665"):
        with pytest.raises(MoveError, match="not a cell name"):
            s.parse_move(bad)
    for bad in (10 ** 12, -(10 ** 12), "e5", None, 1.5):
        with pytest.raises(MoveError, match="not a Feed the Ducks move id"):
            s.move_name(bad)


def test_cell_name_rejects_indices_off_the_board():
    # docs/rules/ducks.md §2.3: bit indices run 0..60 (61 must not read past the tables as 'a62')
    for bad in (61, 64, -1, 100000):
        with pytest.raises(MoveError, match="not a cell index"):
            cell_name(bad)


def test_repetition_counts_the_position_a_game_starts_from():
    # docs/rules/ducks.md §6.3: the game is drawn when the same position
    # occurs for the third time.  A game taken up from a position text has that position
    # once already.  P = the position after the first a2 of test_third_repetition_draws
    # (White to move, crumb on a2); from P, g3 then a2 moves no duck and returns to P.
    # By hand: P (1st) - g3 - a2: P (2nd) - g3 - a2: P (3rd), drawn.  It was drawn only
    # after a third g3 a2, as if P had not occurred at the start.
    start = "b4/1w4/1w1b3/1wbw1bwb/2w1bwb2/1bbb2w1/*bww3/b5/2w1w b 7"
    p = Ducks.parse(start).play_move("a2").text()
    assert p.endswith(" w 8")
    s = Ducks.parse(p)
    for i, m in enumerate(["g3", "a2", "g3"]):
        s.play_move(m)
        assert not s.is_over, f"drawn too early, after move {i + 1}"
    s.play_move("a2")
    assert board_and_side(s.text()) == board_and_side(p)
    assert s.is_over and s.result() == (0.5, 0.5)
    # a copy carries the start position's occurrence along
    c = Ducks.parse(p).copy()
    for m in ["g3", "a2", "g3", "a2"]:
        c.play_move(m)
    assert c.is_over


def test_perft_ignores_the_cap_and_repetition_at_the_root_too():
    # docs/rules/ducks.md §10.1: perft leaves out both draws, at the root too.  After White's
    # e5 from AFTER_SETUP Black has 18 crumb cells (by hand, see
    # test_crumb_may_not_go_on_the_lines_of_its_previous_cell); with plies 300 the game is
    # drawn by the cap, but perft still counts those 18 (it counted 0), and the tree below
    # is the one of the same position at plies 1.
    after_e5 = "1wbw1/w4b/w5w/b2bb2b/3b*b3/w2bw2w/b5w/b4w/1bww1 b"
    capped = Ducks.parse(after_e5 + " 300")
    assert capped.is_over and capped.result() == (0.5, 0.5)
    assert capped.perft(1) == 18
    live = Ducks.parse(after_e5 + " 1")
    assert capped.perft(2) == live.perft(2)
    assert sum(n for _, n in capped.divide(2)) == live.perft(2)
    assert len(capped.divide(1)) == 18
    # a win at the root is still a finished game: perft 0 below it
    won = play(BOTH_GATHER + " w 0", "e5")
    assert won.is_over and won.perft(1) == 0 and won.perft(0) == 1
    # a third repetition at the root: perft counts on
    start = "b4/1w4/1w1b3/1wbw1bwb/2w1bwb2/1bbb2w1/*bww3/b5/2w1w b 7"
    s = play(start, "a2", "g3", "a2", "g3", "a2")
    assert s.is_over and s.result() == (0.5, 0.5)
    assert s.perft(1) > 0 and s.perft(2) == python_perft_ignoring_draws(s, 2)


def python_perft_ignoring_draws(state, depth):
    """Move-by-move perft through the Python API, a drawn game treated as going on."""
    if depth == 0:
        return 1
    if state.is_over and state.result() != (0.5, 0.5):
        return 0
    live = Ducks.parse(board_and_side(state.text()) + " 1") if state.is_over else state
    total = 0
    for m in live.legal():
        c = live.copy()
        c.play_unchecked(m)
        total += python_perft_ignoring_draws(c, depth - 1)
    return total


# --- Pickling and deep copies ---------------------------------------------------------
def _round_trips(s):
    import copy
    import pickle
    return [pickle.loads(pickle.dumps(s)), copy.deepcopy(s), copy.copy(s)]


def test_a_won_game_survives_pickle_and_deepcopy():
    # docs/rules/ducks.md §6.2: both colours gathered by White's e5, White wins.
    won = play(BOTH_GATHER + " w 0", "e5")
    for again in _round_trips(won):
        assert again.is_over and again.result() == (1.0, 0.0)
        assert again.text() == won.text() and again.hash == won.hash


def test_the_repetition_history_survives_pickle_and_deepcopy():
    # docs/rules/ducks.md §6.3, §9.4: the third occurrence of a position draws.  The
    # sequence of test_third_repetition_draws: after a2 g3 a2 g3 a2 the game is drawn; after
    # a2 g3 a2 g3 it is live with the next a2 drawing.  The text of the live one holds no
    # history (taken up from its text it would need three more repetitions): a pickle does.
    start = "b4/1w4/1w1b3/1wbw1bwb/2w1bwb2/1bbb2w1/*bww3/b5/2w1w b 7"
    drawn = play(start, "a2", "g3", "a2", "g3", "a2")
    assert drawn.is_over and drawn.result() == (0.5, 0.5)
    for again in _round_trips(drawn):
        assert again.is_over and again.result() == (0.5, 0.5)
    live = play(start, "a2", "g3", "a2", "g3")
    for again in _round_trips(live):
        assert not again.is_over
        again.play_move("a2")
        assert again.is_over and again.result() == (0.5, 0.5)
