"""Adjudication: the rules that end a two-player game early from what its engines reported
(src/arena/adjudication.py), one at a time and in real games."""
import pytest

from roost.arena.adjudication import Adjudication, AdjudicationError, Draw, Resign
from roost.arena.match import play_game
from roost.arena.reports import Report
from roost.core.games import get_game
from roost.search.engines import parse_engine

CONNECT4 = get_game("connect4")


def _judge(**rules):
    return Adjudication(**rules).judge(["a", "b"])


def _feed(judge, values):
    """Reports of the values, seats alternating from seat 0; the first verdict and the move
    (from 1) that gave it, or (None, None)."""
    for k, v in enumerate(values):
        verdict = judge.see(k % 2, Report(value=v))
        if verdict:
            return verdict, k + 1
    return None, None


def test_resign_needs_both_engines_agreeing_for_n_moves_each():
    # seat 1 sees itself lost and seat 0 sees itself winning: the third move of each ends it
    verdict, at = _feed(_judge(resign=Resign(moves=3, value=0.1)),
                        [0.95, 0.05, 0.97, 0.02, 0.99, 0.01])
    assert at == 6
    result, ending = verdict
    assert result == (1.0, 0.0)
    assert ending["reason"] == "adjudicated" and ending["rule"] == "resign"
    assert ending["detail"].startswith("p1 (b) resigns")
    # the winner's engine not agreeing (a value of 0.85 < 1 - 0.1) restarts the count
    verdict, at = _feed(_judge(resign=Resign(moves=3, value=0.1)),
                        [0.95, 0.05, 0.85, 0.02, 0.99, 0.01, 0.99, 0.01])
    assert at is None
    verdict, at = _feed(_judge(resign=Resign(moves=3, value=0.1)),
                        [0.95, 0.05, 0.85, 0.02, 0.99, 0.01, 0.99, 0.01, 0.99, 0.01])
    assert at == 9 and verdict[0] == (1.0, 0.0)      # seat 0's third high value


def test_a_move_without_a_value_breaks_a_run_and_a_forced_move_does_not():
    judge = _judge(resign=Resign(moves=2, value=0.1))
    assert judge.see(0, Report(value=0.05)) is None
    assert judge.see(1, Report(value=0.95)) is None
    assert judge.see(0, Report(value=None)) is None          # a random mover's: no value
    assert judge.see(1, Report(value=0.95)) is None
    assert judge.see(0, Report(value=0.05)) is None          # seat 0's run starts again
    judge.forced()                                           # seat 1 had one move only
    assert judge.see(1, Report(value=0.95)) is None
    verdict = judge.see(0, Report(value=0.05))
    assert verdict and verdict[0] == (0.0, 1.0) and judge.moves == 8


def test_a_draw_is_adjudicated_only_after_its_move_and_with_both_sides_near_even():
    even = [0.5, 0.52, 0.49, 0.5, 0.51, 0.5, 0.5, 0.48]
    verdict, at = _feed(_judge(draw=Draw(after=6, moves=2, value=0.05)), even)
    assert at == 6                        # both seats near even since move 1; not before move 6
    assert verdict[0] == (0.5, 0.5) and verdict[1]["rule"] == "draw"
    verdict, at = _feed(_judge(draw=Draw(after=0, moves=3, value=0.05)),
                        [0.5, 0.5, 0.6, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
    assert at == 9                        # seat 0's 0.6 at move 3 restarted its run


@pytest.mark.parametrize("mover, proven, result", [(0, "win", (1.0, 0.0)), (1, "win", (0.0, 1.0)),
                                                   (0, "loss", (0.0, 1.0)), (1, "loss", (1.0, 0.0)),
                                                   (1, "draw", (0.5, 0.5))])
def test_a_proof_ends_the_game_with_its_result_and_line(mover, proven, result):
    judge = _judge(proofs=True)
    verdict = judge.see(mover, Report(value=0.5, proven=proven, line=("4", "3")))
    assert verdict[0] == result
    ending = verdict[1]
    assert ending["rule"] == "proof" and ending["line"] == ["4", "3"] and ending["by"] == mover
    assert _judge(resign=Resign()).see(mover, Report(value=0.5, proven=proven)) is None


@pytest.mark.parametrize("rule, text, msg", [
    (Resign, "moves=0", "resign moves must be at least 1"),
    (Resign, "value=0.5", "resign value must be from 0 to below 0.5"),
    (Resign, "turns=3", "bad resign setting 'turns=3'"),
    (Resign, "moves=x", "resign setting moves must be a whole number"),
    (Draw, "after=-1", "draw after must be at least 0"),
    (Draw, "value=nan", "draw setting value must be finite"),
    (Draw, "moves=2,moves=3", "draw setting 'moves' given twice")])
def test_bad_rule_settings_are_named(rule, text, msg):
    with pytest.raises(AdjudicationError, match=msg.replace("(", r"\(")):
        rule.parse(text)


def test_rules_print_and_read_themselves():
    rules = Adjudication(resign=Resign.parse("moves=3,value=0.1"), draw=Draw.parse("after=20"),
                         proofs=True)
    assert Adjudication.from_dict(rules.as_dict()) == rules
    assert rules.text() == ("resign moves=3,value=0.1, draw after=20,moves=8,value=0.05, "
                            "proven results")
    with pytest.raises(AdjudicationError, match="two-player games, not 3 players"):
        rules.check_players(3)


def test_a_proven_result_is_the_result_of_the_game_played_out():
    """Connect Four between a deep and a shallow alpha-beta: the deep one proves a win, the
    game ends there with it, and playing the game on from there (both sides deep) gives the
    same result."""
    deep, shallow = "ab:depth=8", "ab:depth=2"
    for seats in ([deep, shallow], [shallow, deep]):
        rec = play_game(CONNECT4, [parse_engine(s) for s in seats], seed=5,
                        adjudication=Adjudication(proofs=True))
        assert rec.ending["reason"] == "adjudicated" and rec.ending["rule"] == "proof", rec.ending
        assert rec.ending["line"] and seats[rec.ending["by"]] == deep
        state = CONNECT4.parse(rec.final)
        assert not state.is_over                      # ended before the rules would have
        out = play_game(CONNECT4, [parse_engine(deep), parse_engine(deep)], seed=5, start=state)
        assert tuple(out.result) == tuple(rec.result) and rec.result[seats.index(deep)] == 1.0
