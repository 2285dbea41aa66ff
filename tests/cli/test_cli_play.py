"""Playing at the terminal (`play --human`) and who sits where (the arena's Seating), through
Click's runner."""
from collections import Counter

import pytest
from click.testing import CliRunner

from roost.arena.match import rotation
from roost.arena.seating import Seating
from roost.cli.main import cli

EVERY_COLUMN = "".join("1\n2\n3\n4\n5\n6\n7\n" for _ in range(7))   # enough to end any game


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output
    return r


def test_seating_rotates_the_engines_and_keeps_a_fixed_seat():
    plain = Seating(["a", "b", "c"], 3, make=str)
    # a round of rotations, then the next round in the other turn direction
    assert [plain.order(i) for i in range(6)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1],
                                                  [0, 2, 1], [1, 0, 2], [2, 1, 0]]
    assert plain.order(6) == [0, 1, 2]
    person = object()
    kept = Seating(["human", "a", "b"], 3, make=str, fixed_entry=0, fixed_seat=1, fixed_player=person)
    orders = [kept.order(i) for i in range(4)]
    assert all(o[1] == 0 for o in orders)                 # the person never moves
    assert orders[0] == [1, 0, 2] and orders[1] == [2, 0, 1]   # the others take turns
    assert kept.engines(orders[0]) == ["a", person, "b"]
    alone = Seating(["human", "a"], 3, make=str, fixed_entry=0, fixed_seat=2, fixed_player=person)
    assert alone.order(0) == [1, 1, 0] and alone.order(1) == [1, 1, 0]
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        Seating(["human", "a"], 3, make=str, fixed_entry=0, fixed_seat=3)


def test_the_engines_around_a_person_alternate_direction_too():
    # the person keeps seat 1; engines 1, 2, 3 rotate through seats 0, 2, 3 (turn order
    # among themselves), the second round backwards: 1 2 3 -> 1 3 2
    around = Seating(["human", "a", "b", "c"], 4, make=str, fixed_entry=0, fixed_seat=1, fixed_player=object())
    assert [around.order(i) for i in range(6)] == [[1, 0, 2, 3], [2, 0, 3, 1], [3, 0, 1, 2],
                                                   [1, 0, 3, 2], [2, 0, 1, 3], [3, 0, 2, 1]]


def _follows(orders):
    out = Counter()
    for order in orders:
        for s, e in enumerate(order):
            out[e, order[(s + 1) % len(order)]] += 1
    return out


@pytest.mark.parametrize("seats,engines", [(3, 3), (4, 4), (5, 5), (4, 3), (5, 3), (5, 4), (3, 2), (4, 2)])
def test_rotation_balances_seats_each_round_and_turn_order_over_two(seats, engines):
    for rnd in range(4):     # every engine once in every seat in each round of `engines` games
        games = [rotation(seats, i, engines) for i in range(rnd * engines, (rnd + 1) * engines)]
        for s in range(seats):
            assert sorted(g[s] for g in games) == list(range(engines))
    # over two rounds every engine moves right after each other one as often as right
    # before it; with 3 engines (neighbours of each other) that is 3 times each way at
    # 3 seats (3 games of 3 successions per direction, 6 ordered pairs)
    f = _follows(rotation(seats, i, engines) for i in range(2 * engines))
    assert all(f[a, b] == f[b, a] for a in range(engines) for b in range(engines))
    if (seats, engines) == (3, 3):
        assert f == Counter({(a, b): 3 for a in range(3) for b in range(3) if a != b})
    if engines == 2:         # both directions are the same seating: as before
        assert [rotation(seats, i, 2) for i in range(8)] == [[(i + k) % 2 for k in range(seats)]
                                                             for i in range(8)]
    if seats == 2:
        assert [rotation(2, i) for i in range(4)] == [[0, 1], [1, 0], [0, 1], [1, 0]]


def test_play_seats_three_engines_in_both_turn_directions():
    r = run("play", "leaves", "--players", 3, "-e", "random", "-e", "mcts:iterations=5",
            "-e", "ab:depth=1,paranoid=1", "--games", 6, "--seed", 1)
    assert r.exit_code == 0, r.output
    seated = [line.split(": result")[0] for line in r.output.splitlines() if line.startswith("game ")]
    a, b, c = "random", "mcts:iterations=5", "ab:depth=1,paranoid=1"
    assert seated == [f"game 1: p0={a}, p1={b}, p2={c}", f"game 2: p0={b}, p1={c}, p2={a}",
                      f"game 3: p0={c}, p1={a}, p2={b}", f"game 4: p0={a}, p1={c}, p2={b}",
                      f"game 5: p0={b}, p1={a}, p2={c}", f"game 6: p0={c}, p1={b}, p2={a}"]


def test_a_person_plays_a_whole_game_and_hears_every_engine_move():
    r = run("play", "connect4", "--human", "-e", "random", "--seed", 2, input=EVERY_COLUMN)
    assert r.exit_code == 0, r.output
    assert "game 1: you as X, random as O" in r.output          # the sides as the game names them
    assert "X, your move" in r.output
    assert r.output.count("O (random) plays ") >= 3             # each engine move announced
    assert "has won" in r.output or "a draw" in r.output        # the final position, drawn
    assert "result: X wins (result 1 0): you win" in r.output
    assert "human vs random: 1-0" in r.output                   # then the summary


def test_the_person_chooses_a_seat():
    r = run("play", "connect4", "--human-seat", 1, "-e", "random", "--seed", 2, input=EVERY_COLUMN)
    assert r.exit_code == 0, r.output
    assert "game 1: random as X, you as O" in r.output
    assert "O, your move" in r.output and "X (random) plays " in r.output
    r = run("play", "tweeeet", "--human-seat", 1, "-e", "random", input="quit\n")
    assert "The bluethroats, your move" in r.output
    r = run("play", "connect4", "--human-seat", 2, "-e", "random")
    assert r.exit_code == 2 and "--human-seat" in r.output and "seat 2 does not exist" in r.output
    r = run("play", "connect4", "--human-seat", -1, "-e", "random")
    assert r.exit_code == 2 and "--human-seat" in r.output and "numbered from 0" in r.output


def test_the_end_of_input_ends_the_session_with_a_summary():
    r = run("play", "connect4", "--human", "-e", "random", "--games", 3, "--seed", 2, input="4\n")
    assert r.exit_code == 0, r.output
    assert "you stopped in game 1 after 2 plies; 0 finished games" in r.output


def test_ctrl_c_at_the_prompt_ends_with_the_summary(monkeypatch):
    from roost.cli import play

    def interrupted(prompt):
        raise KeyboardInterrupt
    monkeypatch.setattr(play, "_read_line", interrupted)
    r = run("play", "ducks", "--human", "-e", "random")
    assert r.exit_code == 130 and "interrupted in game 1 after 0 plies" not in r.output
    assert "interrupted in game 1" in r.output and "0 finished games" in r.output


def test_play_and_tournament_default_to_the_games_player_count():
    # Under the Leaves: 2 to 4 players, 2 by default; three engines are a roster, not 3 seats
    r = run("play", "leaves", "-e", "random", "-e", "random", "-e", "random")
    assert r.exit_code == 2 and "--engine" in r.output and "3 engines given for 2 seats" in r.output
    assert "--players 3" in r.output
    r = run("play", "leaves", "--players", 3, "-e", "random", "-e", "random", "-e", "random")
    assert r.exit_code == 0 and "p2=random" in r.output
    r = run("play", "leaves", "-e", "random")
    assert r.exit_code == 0 and "p1=random" in r.output and "p2=" not in r.output


def test_the_person_sees_the_decision_and_explained_moves():
    r = run("play", "wingspan", "--human", "-e", "random", input="?\nquit\n")
    assert r.exit_code == 0, r.output
    assert "decision: " in r.output


def test_the_person_is_told_of_a_forced_move_the_arena_played():
    # the last duck of the setup has one cell left: the arena plays it without asking, and
    # says so, at the start of the game and after the engine's move alike
    last = "wwwbw/b4w/b5b/w6w/w7w/b6b/w5b/b4b/bw1wb b 0"          # Black to place, one cell
    before = "wwwbw/b4w/b5b/w6w/w7w/b6b/w5b/b4b/b2wb w 0"        # White first, then that
    for position in (last, before):
        r = run("play", "ducks", "--human-seat", 1, "-e", "random", "--position", position,
                input="quit\n")
        assert r.exit_code == 0, r.output
        told = [l for l in r.output.splitlines() if l.startswith("You play B@a")]
        assert len(told) == 1 and told[0].endswith(", your only legal move"), r.output
