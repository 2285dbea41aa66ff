"""roost book, and the book as analyse and roost engine read it: through Click's CliRunner
and, for the engine protocol, a piped `roost engine` process."""
import os
import subprocess
import sys

from click.testing import CliRunner

from roost.cli.main import cli
from roost.search.book import Book

WON = "42655421475772"        # middle.jsonl: the first player, to move, wins


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_book_builds_a_book_of_the_win_and_keeps_no_journal(tmp_path):
    out = tmp_path / "c4.book"
    r = run("book", "connect4", WON, "--plies", "2", "-o", str(out), "--quiet")
    assert r.exit_code == 0, r.output
    assert f"positions written to {out}" in r.output
    book = Book.read(out)
    assert book.game == "connect4" and book.lookup(book_state(WON)).value == "win"
    assert out.read_text().startswith("roost-book 1 connect4\n# player 0's win from " + WON)
    assert not os.path.exists(str(out) + ".journal") and not os.path.exists(str(out) + ".part")


def test_book_builds_a_book_of_the_draw_and_refuses_a_lost_position(tmp_path):
    drawn = "422774613245175"        # middle.jsonl: a draw, the second player to move
    out = tmp_path / "draw.book"
    r = run("book", "connect4", drawn, "--goal", "draw", "--plies", "2", "-o", str(out), "--quiet")
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith(f"roost-book 1 connect4\n# player 1's draw or better from {drawn}")
    assert Book.read(out).lookup(book_state(drawn)).value == "draw"
    r = run("book", "connect4", drawn, "--plies", "2", "-o", str(tmp_path / "win.book"), "--quiet")
    assert r.exit_code == 1 and "no win for player 1" in r.output
    r = run("book", "connect4", WON + "1", "--goal", "draw", "--plies", "2", "-o", str(tmp_path / "x.book"))
    assert r.exit_code == 1 and "no draw or better for player 1" in r.output and "Traceback" not in r.output
    r = run("book", "connect4", drawn, "--goal", "loss", "-o", str(tmp_path / "x.book"))
    assert r.exit_code == 2 and "'loss' is not one of 'win', 'draw'" in r.output
    r = run("book", "connect4", drawn, "--thin", "-1", "-o", str(tmp_path / "x.book"))
    assert r.exit_code == 2 and "--thin" in r.output


def test_merged_books_keep_the_line_that_proves_more_where_both_hold_a_position(tmp_path):
    draw, win = tmp_path / "draw.book", tmp_path / "win.book"
    draw.write_text("roost-book 1 connect4\n4453 3 draw\n")
    win.write_text("roost-book 1 connect4\n5344 7 win\n")     # the same position, by another order
    for first, second in ((draw, win), (win, draw)):
        out = tmp_path / "both.book"
        r = run("book", "connect4", WON, "--plies", "0", "-o", str(out), "--quiet",
                "--merge", str(first), "--merge", str(second))
        assert r.exit_code == 0, r.output
        entry = Book.read(out).lookup(book_state("4453"))
        assert (entry.move, entry.value) == ("7", "win")


def book_state(text):
    from roost.core.games import get_game
    return get_game("connect4").cls.parse(text)


def test_book_refuses_what_it_cannot_prove_with_one_message(tmp_path):
    r = run("book", "connect4", WON + "1", "--plies", "2", "-o", str(tmp_path / "x.book"))
    assert r.exit_code == 1 and "no win for player 1" in r.output and "Traceback" not in r.output
    r = run("book", "cubirds", "-o", str(tmp_path / "x.book"))
    assert r.exit_code == 2 and "two-player games of perfect information" in r.output
    r = run("book", "connect4", "-o", str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in r.output


def test_analyse_says_when_the_move_is_from_the_book(tmp_path):
    out = tmp_path / "c4.book"
    run("book", "connect4", WON, "--plies", "2", "-o", str(out), "--quiet")
    r = run("analyse", "connect4", WON + "43", "-e", f"auto:book={out}")
    assert r.exit_code == 0, r.output
    assert "from the opening book" in r.output and "win for X" in r.output
    r = run("analyse", "connect4", WON + "43", "-e", "auto:book=none,nodes=50", "--quiet")
    assert "opening book" not in r.output


def test_a_bad_book_file_gets_one_message_from_analyse(tmp_path):
    bad = tmp_path / "bad.book"
    bad.write_text("roost-book 1 connect4\n- 8 win\n")
    r = run("analyse", "connect4", "-e", f"auto:book={bad}")
    assert r.exit_code == 2 and f"{bad} line 2" in r.output and "Traceback" not in r.output
    r = run("analyse", "connect4", "-e", f"auto:book={tmp_path / 'missing.book'}")
    assert r.exit_code == 2 and "no book file" in r.output


def test_the_engine_plays_the_book_move_and_says_so(tmp_path):
    out = tmp_path / "c4.book"
    out.write_text("roost-book 1 connect4\n4453 7 win\n")
    script = ("roost 1\nnewgame connect4 players 2 seat 0\nposition 53\nmoves 4 4\n"
              "go nodes 50\nquit\n")
    p = subprocess.run([sys.executable, "-m", "roost.cli.main", "engine", "connect4", "-e",
                        f"auto:book={out}"], input=script, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert f"info string 7 is from the opening book ({out})" in p.stdout
    assert p.stdout.rstrip().endswith("bestmove 7")


def test_book_assembles_from_a_journal_alone_and_merges_books(tmp_path):
    journal = str(tmp_path / "shared.journal")
    first = WON + "43"                     # the first player's positions after two replies
    second = WON + "44"
    for root in (first, second):
        r = run("book", "connect4", root, "--plies", "2", "-o", str(tmp_path / f"{root}.book"),
                "--journal", journal, "--quiet")
        assert r.exit_code == 0, r.output
    assert os.path.exists(journal)         # a journal given is kept for the other builds
    # from the journal alone: the same book, nothing solved
    r = run("book", "connect4", first, "--plies", "2", "-o", str(tmp_path / "again.book"),
            "--journal", journal, "--no-solve", "--quiet")
    assert r.exit_code == 0 and "0 solved" in r.output
    assert Book.read(tmp_path / "again.book").entries == Book.read(tmp_path / f"{first}.book").entries
    # a position the journal has not solved is not won without solving
    r = run("book", "connect4", WON + "45", "--plies", "2", "-o", str(tmp_path / "x.book"),
            "--journal", journal, "--no-solve")
    assert r.exit_code == 1 and "no win for player 0" in r.output
    r = run("book", "connect4", first, "--plies", "2", "-o", str(tmp_path / "both.book"),
            "--journal", journal, "--no-solve", "--merge", str(tmp_path / f"{second}.book"))
    both = Book.read(tmp_path / "both.book")
    assert both.lookup(book_state(first)) and both.lookup(book_state(second))
    parts = [Book.read(tmp_path / f"{root}.book").entries for root in (first, second)]
    assert set(both.entries) == set(parts[0]) | set(parts[1])          # (a transposition is one line)
    r = run("book", "connect4", first, "--merge", str(tmp_path / "missing.book"), "-o", str(tmp_path / "y.book"))
    assert r.exit_code == 1 and "no book file" in r.output


def test_analyse_reads_the_shipped_book_with_auto_by_default():
    r = run("analyse", "connect4", "43")
    assert r.exit_code == 0, r.output
    assert "best     6  win for X" in r.output and "from the opening book (the connect4 book)" in r.output


def test_book_search_builds_a_book_of_deep_searches_for_a_game_too_deep_to_prove(tmp_path):
    out = tmp_path / "ducks.book"
    r = run("book", "ducks", "--search", "mcts:iterations=1000", "--plies", "2", "--replies", "2",
            "-o", str(out), "--quiet")
    assert r.exit_code == 0, r.output
    assert f"4 positions written to {out}" in r.output and "4 searched in" in r.output
    text = out.read_text()
    assert text.startswith("roost-book 1 ducks\n# player 0's lines from 5/6/7/8/9/8/7/6/5 w 0 to 2 "
                           "plies, against the best 2 replies, each position searched by mcts:iterations=1000")
    assert not os.path.exists(str(out) + ".journal")
    r = run("analyse", "ducks", "-e", f"auto:book={out}")
    assert r.exit_code == 0 and "from the opening book" in r.output


def test_book_search_refuses_what_it_cannot_build_with_one_message(tmp_path):
    book = str(tmp_path / "x.book")
    for args, code, words in [
            (["cubirds", "--search", "mcts"], 2, "has hidden information"),
            (["ducks", "--search", "human"], 2, "not by a person"),
            (["ducks", "--search", "mcts:bogus=1"], 2, "bogus"),
            (["connect4", "--replies", "2"], 2, "--replies is for books built with --search"),
            (["connect4", "--side", "2"], 2, "players 0 to 1"),
            (["ducks", "--search", "mcts", "--side", "4"], 2, "players 0 to 1")]:
        r = run("book", *args, "-o", book)
        assert r.exit_code == code and words in r.output and "Traceback" not in r.output, (args, r.output)


def test_ctrl_c_keeps_every_search_finished_and_the_same_command_resumes(tmp_path):
    import signal
    out = str(tmp_path / "ducks.book")
    args = [sys.executable, "-m", "roost.cli.main", "book", "ducks", "--search", "mcts:iterations=20000",
            "--plies", "3", "--replies", "3", "-o", out]
    p = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    first = p.stderr.readline()
    assert first.startswith("searched 1: "), first
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "Traceback" not in err
    assert f"searches; they are kept in {out}.journal, and the same command resumes" in err
    kept = open(out + ".journal").read().splitlines()
    assert kept and first.split(": ", 1)[1].startswith(kept[0].split("\t")[0])
    done = subprocess.run(args[:-2] + ["-o", out, "--quiet"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{len(Book.read(out)) - len(kept)} searched in" in done.stdout
