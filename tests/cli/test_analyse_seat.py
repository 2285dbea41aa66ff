"""`analyse --as N` and the engines' observer: the analysis a seat would make from what it
sees (--as N works for any seat)."""
import json
import random

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.errors import SeatError
from roost.core.games import get_game
from roost.search.engines import parse_engine


def decision_position(game, players, seed, plies):
    """A decision node after `plies` seeded random plays (chance included)."""
    rnd = random.Random(seed)
    s = get_game(game).start(players=players, seed=seed)
    done = 0
    while True:
        if s.is_chance:
            s.play_unchecked(s.sample(rnd.getrandbits(63)))
        elif done >= plies:
            return s
        else:
            s.play_unchecked(rnd.choice(s.legal()))
            done += 1


def redealt(state, seat):
    """The same position with every card `seat` cannot see dealt afresh (consistently with
    all it knows): the others' hands differ from the original."""
    for k in range(50):
        w = state.determinized(seat, 1000 + k)
        if w.text() != state.text():
            return w
    raise AssertionError("no other deal found")


def summary(r):
    return (r.move_name, round(r.value, 9), round(r.seat_value, 9), r.pv,
            [(m.name, m.visits, round(m.value, 9)) for m in r.stats])


HIDDEN_CASES = [
    ("cubirds", 3, "ismcts:iterations=400"),
    ("cubirds", 3, "mcts:iterations=400"),
    ("cubirds", 3, "pimc:worlds=3,iterations=150"),
    ("cubirds", 2, "ab:depth=2"),
    ("wingspan", 2, "ismcts:iterations=150"),
    ("wingspan", 2, "pimc:worlds=2,iterations=60"),
    ("leaves", 3, "ismcts:iterations=150"),
]


@pytest.mark.parametrize("game,players,spec", HIDDEN_CASES)
def test_a_seats_analysis_does_not_read_the_cards_it_cannot_see(game, players, spec):
    s = decision_position(game, players, seed=7, plies=3)
    seat = (s.player + 1) % players
    other = redealt(s, seat)
    assert other.view(seat) == s.view(seat) if hasattr(s, "view") else True
    first = parse_engine(spec).choose(s, seed=5, observer=seat)
    second = parse_engine(spec).choose(other, seed=5, observer=seat)
    assert first.seat == second.seat == seat
    assert summary(first) == summary(second)


def test_the_mover_and_another_seat_get_different_analyses_of_the_same_cards():
    # the observer is what the search reads from: seat 2's view is not seat 0's
    s = decision_position("cubirds", 3, seed=7, plies=3)
    other = (s.player + 2) % 3
    mine = parse_engine("ismcts:iterations=400").choose(s, seed=5)
    theirs = parse_engine("ismcts:iterations=400").choose(s, seed=5, observer=other)
    assert mine.seat == s.player and theirs.seat == other
    assert summary(mine) != summary(theirs)


def test_the_value_is_from_the_seats_side():
    ducks = get_game("ducks").parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0")
    for spec in ("ab:depth=3", "mcts:iterations=500"):
        mover = parse_engine(spec).choose(ducks, seed=1)
        other = parse_engine(spec).choose(ducks, seed=1, observer=1)
        # perfect information: the same search, the value turned to seat 1's side
        assert other.move_name == mover.move_name and other.value == mover.value
        assert other.seat_value == pytest.approx(1 - mover.value)
        assert mover.seat_value == mover.value
    s = decision_position("cubirds", 3, seed=7, plies=3)
    seat = (s.player + 1) % 3
    r = parse_engine("ismcts:iterations=400").choose(s, seed=5, observer=seat)
    best = next(m for m in r.stats if m.move == r.move)
    assert r.seat_value == best.values[seat] != r.value


@pytest.mark.parametrize("seat", [-1, 3, 7, "1", True, 1.0])
def test_a_seat_out_of_range_is_one_library_error(seat):
    s = decision_position("cubirds", 3, seed=7, plies=3)
    for spec in ("random", "ab:depth=1,paranoid=1", "mcts:iterations=10", "ismcts:iterations=10",
                 "pimc:worlds=1,iterations=10", "auto:nodes=10"):
        with pytest.raises(SeatError, match=r"does not exist in a 3-player game \(seats are 0 to 2\)"):
            parse_engine(spec).choose(s, seed=1, observer=seat)


def test_paranoid_alpha_beta_says_it_values_the_mover_only_and_auto_switches():
    from roost.core.errors import EngineSpecError
    s = decision_position("leaves", 4, seed=3, plies=2)        # 4 players: perfect information
    seat = (s.player + 1) % 4
    with pytest.raises(EngineSpecError, match="player to move only"):
        parse_engine("ab:depth=1,paranoid=1").choose(s, seed=1, observer=seat)
    r = parse_engine("auto:nodes=200").choose(s, seed=1, observer=seat)
    assert r.seat == seat and r.seat_value is not None and r.info["auto"].startswith("mcts:")


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), r.exception
    return r


def untimed(output):
    """The lines of an analysis that do not depend on the clock."""
    return [line for line in output.splitlines() if not line.startswith("search ")]


def test_cli_analyse_as_another_seat_says_whose_analysis_and_who_moves():
    s = decision_position("cubirds", 3, seed=7, plies=3)
    seat = (s.player + 1) % 3
    r = run("analyse", "cubirds", s.text(), "--as", seat, "-e", "ismcts:iterations=300", "--quiet")
    assert r.exit_code == 0, r.output
    assert f"for      seat {seat}, from what seat {seat} sees" in r.output
    assert f"seat {s.player} is to move" in r.output
    assert f"seat     seat {seat}: value " in r.output
    # the same analysis when the others' cards are dealt differently
    again = run("analyse", "cubirds", redealt(s, seat).text(), "--as", seat, "-e",
                "ismcts:iterations=300", "--quiet")
    assert untimed(again.output) == untimed(r.output)


def test_cli_analyse_as_json_includes_the_seat():
    s = decision_position("cubirds", 3, seed=7, plies=3)
    seat = (s.player + 2) % 3
    r = run("analyse", "cubirds", s.text(), "--as", seat, "-e", "pimc:worlds=2,iterations=50",
            "--json", "--quiet")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["seat"] == seat and d["player"] == s.player and 0 <= d["seat_value"] <= 1
    r = run("analyse", "ducks", "--as", 1, "-e", "ab:depth=2", "--json", "--quiet")
    d = json.loads(r.output)
    assert d["seat"] == 1 and d["player"] == 0 and d["seat_value"] == pytest.approx(1 - d["value"], abs=1e-4)


@pytest.mark.parametrize("seat", ["-1", "2", "9", "x"])
def test_cli_a_bad_seat_is_one_message_and_exit_code_2(seat):
    r = run("analyse", "ducks", "--as", seat, "-e", "ab:depth=1")
    assert r.exit_code == 2
    errors = [l for l in r.output.splitlines() if l.startswith("Error")]
    assert len(errors) == 1 and "--as" in errors[0], r.output
    if seat != "x":
        assert f"seat {seat} does not exist in a 2-player game (seats are 0 to 1)" in errors[0]
