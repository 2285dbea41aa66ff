"""Every game record says why its game ended: the game's own reason (State.ending()) for a
game played out, a seat's forfeit otherwise; the record's final position reads back as the
finished game it was, and a record that does not say (written without the reason, its final
text without the repetition mark) still replays and tells the reason from its moves."""
from roost.arena.match import GameRecord, ending_text, is_forfeit, play_game
from roost.arena.records import replay
from roost.core.games import get_game
from roost.search.engines import parse_engine

DUCKS = get_game("ducks")


def _self_play(spec, seed=0, opening=4):
    return play_game(DUCKS, [parse_engine(spec), parse_engine(spec)], seed, opening=opening,
                     opening_seed=seed)


def test_a_draw_by_repetition_is_recorded_with_its_reason_and_its_final_text_reads_back():
    # alpha-beta at depth 1 without the evaluation shuffles the crumb back and forth: its
    # self-play game from this opening is drawn by repetition after 28 plies
    rec = _self_play("ab:depth=1,eval=none")
    assert rec.result == (0.5, 0.5)
    assert rec.ending == {"reason": "repetition",
                          "detail": "drawn by repetition: the same position occurred for the third time"}
    assert not is_forfeit(rec.ending) and ending_text(rec.ending) == rec.ending["detail"]
    final = DUCKS.parse(rec.final)
    assert final.is_over and final.result() == (0.5, 0.5) and final.ending() == rec.ending
    again = GameRecord.from_dict(rec.as_dict())
    assert again.ending == rec.ending
    states = replay(again)
    assert states[-1][0].ending() == rec.ending


def test_a_won_game_says_how_it_was_won():
    rec = _self_play("ab:depth=1")
    assert rec.ending["reason"] == "gathered" and max(rec.result) == 1.0
    winner = "White" if rec.result[0] == 1.0 else "Black"
    assert rec.ending["detail"].startswith(winner)
    assert DUCKS.parse(rec.final).ending() == rec.ending


def test_a_record_that_does_not_say_still_replays_and_the_final_position_tells_the_reason():
    rec = _self_play("ab:depth=1,eval=none")
    old = rec.as_dict()
    old["ending"] = None
    old["final"] = rec.final.rsplit(" ", 1)[0]          # the text without its mark
    assert not DUCKS.parse(old["final"]).is_over
    states = replay(GameRecord.from_dict(old))
    assert states[-1][0].ending()["reason"] == "repetition"
