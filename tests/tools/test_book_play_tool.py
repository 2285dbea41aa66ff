"""tools/book_play.py: auto with a book against a perfect defender, from a won position."""
import sys
from pathlib import Path

from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.book_build import BookBuilder

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import book_play  # noqa: E402

WON = "42655421475772"        # middle.jsonl: the first player, to move, wins


def test_auto_with_the_book_wins_against_the_solver_and_the_games_repeat(tmp_path, capsys):
    path = tmp_path / "c4.book"
    state = get_game("connect4").cls.parse(WON)
    path.write_text(BookBuilder(state, plies=2).build().text())
    args = ["connect4", "--book", str(path), "--position", WON, "--games", "2", "--time", "0.05",
            "--seed", "3"]
    book_play.main(args)
    first = capsys.readouterr().out.splitlines()
    assert first[-1] == "2/2 won, 0 drawn, 0 lost by player 0 with auto:time=0.05 and the book"
    # the book's first move is played from it; the defender's choices follow the seed
    assert all(line.startswith("game ") and "won" in line and "book moves" in line for line in first[:2])
    assert all(int(line.split("(")[1].split()[0]) >= 1 for line in first[:2])


def test_auto_with_a_book_of_the_draw_plays_the_second_seat_and_keeps_the_draw(tmp_path, capsys):
    # a draw with the first player to move (middle.jsonl): every first move leaves the
    # second player at least a draw, and the book holds one for each
    start = "61751267725536"
    assert next(r for r in solved_connect4("middle") if r["moves"] == start)["score"] == 0
    path = tmp_path / "draw.book"
    path.write_text(BookBuilder(get_game("connect4").cls.parse(start), plies=3, side=1, goal="draw")
                    .build().text())
    # --exact: after its first move, inside the book as beyond it, the first player keeps
    # what it has
    book_play.main(["connect4", "--book", str(path), "--position", start, "--side", "1", "--games", "2",
                    "--time", "0.05", "--seed", "3", "--exact"])
    out = capsys.readouterr().out.splitlines()
    assert out[-1].endswith("0 lost by player 1 with auto:time=0.05 and the book")
    # the two games open with different first moves, each answered from the book
    assert out[0].split()[2] != out[1].split()[2]
    assert all(" lost " not in line and int(line.split("(")[1].split()[0]) >= 1 for line in out[:2])
