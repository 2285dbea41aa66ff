"""A line of moves applied to a position (src/core/moves.py): the one function --moves, the
protocol's moves and a record's replay go through, with one error that names the move."""
import pytest

from roost.core.errors import MoveError
from roost.core.games import get_game
from roost.core.moves import LineError, play_line


def test_a_line_plays_in_place_and_returns_the_ids():
    state = get_game("connect4").start()
    assert play_line(state, ["4", "4"]) == [3, 3]
    assert play_line(state, [2, "5"]) == [2, 4]              # names and ids alike
    assert state.text() == get_game("connect4").parse("4435").text()


@pytest.mark.parametrize("line,index,reason", [
    (["4", "x", "4"], 2, "is not a Connect Four move"),    # not a move name
    (["4", 7], 2, "is not legal here"),                    # an id no move has
    (["4", "4", "4", "4", "4", "4", "4"], 7, "is not legal here"),  # a full column
])
def test_the_first_move_that_does_not_play_is_named_by_its_index(line, index, reason):
    state = get_game("connect4").start()
    with pytest.raises(LineError, match=reason) as caught:
        play_line(state, line)
    e = caught.value
    assert isinstance(e, MoveError) and e.index == index and e.move == line[index - 1]
    assert str(e).startswith(f"move {index} ({line[index - 1]!r})")
    assert state.text() == get_game("connect4").parse("".join(map(str, line[:index - 1]))).text()


def test_a_line_continued_counts_from_where_it_was():
    state = get_game("connect4").start()
    with pytest.raises(LineError) as caught:
        play_line(state, ["1", "0"], first=5)
    assert caught.value.index == 6


def test_no_move_plays_after_the_end():
    state = get_game("connect4").parse("1212121")             # four in column 1
    assert state.is_over
    with pytest.raises(LineError, match=r"move 1 \('3'\): the game is over after move 0"):
        play_line(state, ["3"])


def test_chance_outcomes_play_by_name():
    state = get_game("dice").parse("3 5 2 1 roll")
    assert state.is_chance
    outcome = state.chances()[0][0]
    before = state.copy()
    assert play_line(state, [state.move_name(outcome)]) == [outcome]
    before.play_unchecked(outcome)
    assert state.text() == before.text()


def test_a_line_plays_each_checked_move_as_the_caller_asks():
    # Wingspan's position text replays each move with the chance outcomes it was told
    state = get_game("connect4").start()
    played = []

    def play(m):
        played.append(m)
        state.play_unchecked(m)
    with pytest.raises(LineError) as caught:
        play_line(state, ["4", "5", "9"], play=play)
    assert played == [3, 4] and caught.value.index == 3       # the unplayable one never reaches it
    assert state.text() == get_game("connect4").parse("45").text()
