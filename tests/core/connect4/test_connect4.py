"""Connect Four (connect4), the calibration game: its rules (docs/rules/connect4.md; each
rules test cites its section), position text, move order, key, evaluation and the
solver-score convention of the calibration data (src/core/data/connect4/README.md).
Lockstep checks against OpenSpiel's connect_four are in
tests/interop/test_openspiel_connect4.py, the solved positions in
tests/search/test_connect4_solved.py."""
import json
import random

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.connect4 import Connect4

from tests.core.connect4.threats import loses_at_once, random_positions, wins_at_once  # noqa: E402
from roost.core.errors import MoveError, PositionError
from roost.core.games import all_games, get_game


def c4(text):
    return Connect4.parse(text)


def test_registered_as_a_calibration_game_under_its_aliases():
    info = get_game("connect4")
    assert info.calibration and info.listed
    assert get_game("connect_four") is info and get_game("c4") is info
    assert [g.name for g in all_games() if g.calibration] == ["connect4"]


@pytest.mark.parametrize("text,winner", [
    ("1213141", 0),          # four up column 1
    ("1122334", 0),          # four across the bottom row
    ("12234334744", 0),      # the diagonal rising to the right: a1 b2 c3 d4
    ("76654554144", 0),      # the diagonal rising to the left: g1 f2 e3 d4
    ("71213141", 1),         # the second player's four up column 1
])
def test_four_in_a_line_wins_at_once(text, winner):
    # docs/rules/connect4.md §4, §11: four in a line, any direction, wins with that stone
    s = c4(text)
    assert s.is_over
    assert s.result() == ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
    assert s.legal() == []
    assert not c4(text[:-1]).is_over


def test_three_in_a_line_or_a_broken_four_does_not_win():
    # docs/rules/connect4.md §4, §11
    assert not c4("112233").is_over           # three across for each
    assert not c4("1122447").is_over          # a1 b1 d1 g1: a gap at c1
    assert not c4("1213125").is_over          # three up column 1


def test_a_full_board_without_a_line_is_a_draw():
    # docs/rules/connect4.md §4: 42 stones and no line of four is a draw
    s = Connect4.start()
    s.random_playout(seed=1054)               # a random game that fills the board
    assert s.stones == 42 and s.is_over and s.result() == (0.5, 0.5)
    assert s.legal() == []
    again = c4(s.text())
    assert again.result() == (0.5, 0.5)
    assert not c4(s.text()[:-1]).is_over


def test_position_text_round_trip_and_empty_board():
    # docs/rules/connect4.md §7: the columns played, first player first; - the empty board;
    # spaces ignored
    assert Connect4.start().text() == "-"
    assert c4("-").text() == "-"
    assert c4("4 4 5 3").text() == "4453"
    s = c4("4453")
    assert s.player == 0 and s.stones == 4
    assert s.cell(3, 0) == 0 and s.cell(3, 1) == 1 and s.cell(2, 0) == 1 and s.cell(3, 2) is None


@pytest.mark.parametrize("text,fault", [
    ("", "columns played"),
    ("4480", "'8'"),
    ("40", "'0'"),
    ("x", "'x'"),
    ("1111111", "column 1, which is full"),
    ("12121213", "ended at move 7"),
])
def test_bad_position_text_names_the_fault(text, fault):
    # docs/rules/connect4.md §7: each fault refused with a message naming it
    with pytest.raises(PositionError, match=fault):
        c4(text)


def test_moves_are_column_digits():
    # docs/rules/connect4.md §3, §6: a move is a column 1..7 that is not full
    s = c4("-")
    assert s.parse_move("1") == 0 and s.move_name(6) == "7"
    for bad in ("0", "8", "12", "a", ""):
        with pytest.raises(MoveError):
            s.parse_move(bad)
    with pytest.raises(MoveError):
        s.move_name(7)
    with pytest.raises(MoveError, match="illegal"):
        c4("444444").play_move("4")


def test_moves_come_centre_first_on_an_empty_board():
    # docs/rules/connect4.md §6: equal moves listed centre first
    assert c4("-").legal_names() == ["4", "3", "5", "2", "6", "1", "7"]


def test_move_order_puts_wins_first_then_blocks_and_gifts_last():
    """The generation order is the search's move ordering (docs/rules/connect4.md §6): a
    winning move first; else a move that blocks the opponent's immediate win; a move that
    lets the opponent win on top of it after every other move."""
    checked = {"win": 0, "block": 0, "gift": 0}
    for s in random_positions(600, seed=3, plies=(4, 36)):
        moves = s.legal()
        wins = [m for m in moves if wins_at_once(s, m)]
        if wins:
            assert moves[0] in wins
            checked["win"] += 1
            continue
        threats = [m for m in moves if loses_at_once(s, m)]
        blocks = [m for m in moves if not loses_at_once(s, m)]
        if threats and blocks and len(blocks) < len(moves):
            # every move that leaves an immediate win to the opponent comes after some
            # safe one (the block first when the opponent threatens now)
            assert moves[0] in blocks, (s.text(), s.legal_names())
            checked["block"] += 1
        gifts = [m for m in moves if _cell_below_opponent_win(s, m)]
        if gifts and len(gifts) < len(moves):
            assert all(moves.index(g) > moves.index(o) for g in gifts for o in moves
                       if o not in gifts and not loses_at_once(s, o)), s.text()
            checked["gift"] += 1
    assert min(checked.values()) >= 10, checked


def _cell_below_opponent_win(s, m):
    """Playing m puts a stone right under a cell where the opponent would complete four."""
    child = s.copy()
    child.play_move(m)
    if child.is_over:
        return False
    row = next(r for r in range(6) if child.cell(m, r) is not None and (r == 5 or child.cell(m, r + 1) is None))
    if row == 5:
        return False
    # the opponent plays on top of m at once: do they win there?
    return wins_at_once(child, m)


def test_keys_are_equal_for_the_same_board_and_differ_otherwise():
    assert c4("4453").hash == c4("4354").hash          # the same stones, another order
    assert c4("4453").hash != c4("3445").hash          # the same cells, colours swapped
    rnd = random.Random(7)
    seen = {}
    for _ in range(300):
        s = Connect4.start()
        for _ in range(rnd.randrange(1, 20)):
            if s.is_over:
                break
            s.play_move(rnd.choice(s.legal()))
        board = tuple(s.cell(c, r) for c in range(7) for r in range(6))
        if s.hash in seen:
            assert seen[s.hash] == board, "two boards share a key"
        seen[s.hash] = board


def test_the_key_after_a_move_is_the_key_of_the_position_it_makes():
    # a proof fetches its children's table words by these keys before it plays them
    from roost.interop.native import key_after
    for s in random_positions(500, seed=14):
        for m in s.legal():
            child = s.copy()
            child.play_move(m)
            assert key_after(s, m) == child.hash, (s.text(), m)


def test_a_scratch_copy_keeps_the_text_of_every_move_played():
    # the move list lives outside the position a search's children copy: play() keeps it
    s = c4("4453")
    t = s.copy()
    t.play_move("7")
    assert (s.text(), t.text(), c4(t.text()).text()) == ("4453", "44537", "44537")


def test_evaluation_favours_the_side_with_threats():
    # the shipped weights are fitted to self-play results (docs/strength.md), so they are
    # less sure of a won position than the hand-set ones were; the order is what must hold
    s = c4("41516")       # O to move against X's open three on the bottom row: lost
    assert s.evaluate_for(0) > 0.7 and s.evaluate_for(1) < 0.3
    t = c4("415161")      # X to move and wins at once
    assert t.evaluate_for(0) > 0.85 and t.evaluate_for(0) > s.evaluate_for(0)
    assert abs(c4("-").evaluate_for(0) - 0.5) < 0.05
    assert abs(s.evaluate_for(0) + s.evaluate_for(1) - 1.0) < 1e-9
    quiet = c4("4444")
    assert 0.2 < quiet.evaluate_for(0) < 0.8


def _position_with(stones):
    """Some position with this many stones and the game not over (seeded)."""
    rnd = random.Random(stones)
    while True:
        s = Connect4.start()
        while s.stones < stones:
            t = s.copy()
            t.play_move(rnd.choice(t.legal()))
            if t.is_over:
                break
            s = t
        if s.stones == stones:
            return s


@pytest.mark.parametrize("stones,proven,plies,score", [
    (0, "win", 1, 21),      # the first player wins with their first stone
    (1, "win", 1, 21),      # so does the second with theirs
    (36, "win", 1, 3),      # 18 stones each: the mover's 19th wins
    (37, "win", 3, 2),      # the second player, 18 placed, wins with the 20th
    (10, "loss", 2, -16),   # the opponent (5 placed) wins with their 6th
    (11, "loss", 4, -14),   # the opponent (6 placed) wins with their 8th
    (20, "draw", 0, 0),
])
def test_solver_score_follows_the_calibration_convention(stones, proven, plies, score):
    # docs/rules/connect4.md §9: the formulas in stones on the board and plies to the end
    assert _position_with(stones).solver_score(proven, plies) == score


def test_solver_score_rejects_an_impossible_distance():
    for proven, plies in (("win", 2), ("loss", 3), ("maybe", 1)):
        with pytest.raises(ValueError):
            c4("-").solver_score(proven, plies)


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


def test_roost_games_lists_calibration_games_apart():
    r = run("games")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    header = next(i for i, l in enumerate(lines) if l.startswith("calibration games"))
    assert lines[header + 1].startswith("connect4")
    assert all(not l.startswith("connect4") for l in lines[:header])
    listed = json.loads(run("games", "--json").output)
    assert {g["name"]: g["calibration"] for g in listed}["connect4"] is True
    assert {g["name"]: g["calibration"] for g in listed}["ducks"] is False


def test_solve_reports_the_exact_score_in_the_calibration_convention():
    # docs/rules/connect4.md §9, §11: roost solve --json reports solver_score
    r = run("solve", "connect4", "2214625612264131", "--json")   # middle.jsonl: score -4
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["solver_score"] == -4 and out["verdict"] == "loss"
    r = run("solve", "connect4", "415161", "--json")   # X wins with their 4th stone: 22 - 4
    assert json.loads(r.stdout)["solver_score"] == 18
    r = run("solve", "connect4", "41516", "--json")    # O to move cannot stop it
    assert json.loads(r.stdout)["solver_score"] == -18
    assert "solver score 18" in run("solve", "connect4", "415161").output


def test_show_and_perft_divide_on_the_command_line():
    r = run("show", "connect4", "4453")
    assert r.exit_code == 0 and "X (player 0) to move" in r.output
    r = run("perft", "connect4", "-", 3, "--divide")
    assert r.exit_code == 0 and "343" in r.output
    assert run("show", "connect4", "1111111").exit_code == 2
