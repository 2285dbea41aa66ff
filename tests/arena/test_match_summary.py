"""The one-line summary of a match (MatchResult.summary) and how Elo differences print."""
import math

from roost.arena.match import GameRecord, MatchResult
from roost.arena.ratings import elo_text


def _game(result):
    return GameRecord(game="ducks", players=len(result), seats=[], start="", seed=0,
                      result=tuple(result))


def test_an_even_match_is_zero_elo_not_minus_zero():
    m = MatchResult(specs=["a", "b"], records=[(_game((1.0, 0.0)), [0, 1]),
                                               (_game((1.0, 0.0)), [1, 0])])
    line = m.summary()
    assert "Elo 0 [" in line and "-0" not in line.replace("-0.", ""), line


def test_elo_text_rounds_to_a_signed_whole_number():
    assert [elo_text(x) for x in (-0.0, -0.4, 0.4, 0.6, -12.5, 35.2)] == \
        ["0", "0", "0", "+1", "-12", "+35"]
    assert (elo_text(math.inf), elo_text(-math.inf), elo_text(None)) == ("+inf", "-inf", "-")


def test_an_engine_against_itself_is_summed_by_seat_not_counted_as_winning():
    m = MatchResult(specs=["ab:depth=1"], records=[(_game((1.0, 0.0)), [0, 0]),
                                                   (_game((0.5, 0.5)), [0, 0]),
                                                   (_game((1.0, 0.0)), [0, 0])])
    assert m.summary() == "3 games of ab:depth=1 against itself; by seat: p0 2.5, p1 0.5"
    assert "won" not in m.summary()


def test_several_engines_keep_their_scores_and_wins():
    m = MatchResult(specs=["a", "b", "c"], records=[(_game((1.0, 0.0, 0.0)), [0, 1, 2]),
                                                    (_game((0.0, 1.0, 0.0)), [1, 2, 0])])
    assert m.summary() == "2 games, 3 engines: a: 1 (1 won); b: 0 (0 won); c: 1 (1 won)"
