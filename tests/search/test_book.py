"""Opening books (src/search/book.py, book_build.py): the file format and its faults, books
built by roost's solver checked against positions solved by a published solver and by
roost's own solve, the shipped Connect Four book's proof tree, and auto playing from a book."""
import pytest

from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.book import Book, BookError, book_for, shipped_book
from roost.search.book_build import BookBuilder
from roost.search.engines import parse_engine

C4 = get_game("connect4").cls


def _after(state, name):
    child = state.copy()
    child.play_move(child.parse_move(name))
    return child


def test_a_book_prints_and_parses_itself_and_finds_a_transposition():
    text = "roost-book 1 connect4\n# a comment\n- 4 win\n4453 3 0.625\n"
    book = Book.parse(text)
    assert len(book) == 2
    assert Book.parse(book.text(["a comment"])).text(["a comment"]) == book.text(["a comment"])
    assert book.lookup(C4.parse("-")).move == "4"
    # 5344 is 4453 by another order of the same moves: the same key, the same line
    entry = book.lookup(C4.parse("5344"))
    assert (entry.move, entry.value, entry.proven, entry.share) == ("3", "0.625", "", 0.625)
    assert book.lookup(C4.parse("44")) is None
    assert [Book.parse(f"roost-book 1 connect4\n- 4 {v}\n").lookup(C4.parse("-")).share
            for v in ("win", "draw", "loss", "0.25")] == [1.0, 0.5, 0.0, 0.25]
    assert book.lookup(get_game("ducks").start()) is None          # another game's position


@pytest.mark.parametrize("text, fault", [
    ("", "is not a roost book"),
    ("roost-book 2 connect4\n", "format '2'"),
    ("roost-book 1 chess\n", "'chess', which is not a game roost knows"),
    ("roost-book 1 connect4\n44 4\n", "line 2: expected 'POSITION MOVE VALUE'"),
    ("roost-book 1 connect4\n- 4 win\n448 4 win\n", "line 3"),
    ("roost-book 1 connect4\n444444 4 win\n", "line 2: 4 is not a legal move in 444444"),
    ("roost-book 1 connect4\n- 9 win\n", "line 2"),
    ("roost-book 1 connect4\n- 4 great\n", "line 2: the value must be win, draw, loss or a number"),
    ("roost-book 1 connect4\n- 4 1.5\n", "the value must be"),
])
def test_a_bad_book_gets_one_message_naming_its_fault(text, fault):
    with pytest.raises(BookError, match=None) as e:
        Book.parse(text, source="x.book")
    assert fault in str(e.value) and "x.book" in str(e.value)


def test_a_bad_book_file_gets_one_message(tmp_path):
    with pytest.raises(BookError, match="no book file"):
        Book.read(tmp_path / "none.book")
    with pytest.raises(BookError, match="is a directory"):
        Book.read(tmp_path)
    (tmp_path / "bin.book").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BookError, match="not a roost book"):
        Book.read(tmp_path / "bin.book")
    (tmp_path / "ducks.book").write_text("roost-book 1 ducks\n")
    with pytest.raises(BookError, match="a book of ducks, not of connect4"):
        book_for(str(tmp_path / "ducks.book"), "connect4")


def _winning_end_positions(count):
    """Positions of the published solver's end file the player to move wins, with the
    solver's score of every move."""
    rows = [r for r in solved_connect4("end") if r["score"] > 0]
    return rows[:count]


def test_built_books_play_a_move_the_published_solver_scores_as_a_win():
    for row in _winning_end_positions(12):
        state = C4.parse(row["moves"])
        book = BookBuilder(state, plies=2).build()
        first = book.lookup(state)
        assert first is not None and first.value == "win"
        scores = row["move_scores"]
        assert scores[int(first.move) - 1] > 0, (row["moves"], first.move, scores)


def test_no_book_is_built_for_a_position_the_published_solver_says_is_not_won():
    row = next(r for r in solved_connect4("end") if r["score"] <= 0)
    with pytest.raises(BookError, match="no win for player"):
        BookBuilder(C4.parse(row["moves"]), plies=2).build()


def test_every_move_of_a_built_book_wins_by_roost_solve_and_every_defence_is_answered():
    solver = parse_engine("ab:tt=16")
    root = C4.parse("42655421475772")       # middle.jsonl: the first player wins
    book = BookBuilder(root, plies=4).build()
    assert len(book) > 10
    todo = [root]
    while todo:
        state = todo.pop()
        if state.is_over:
            assert state.result()[0] == 1.0
            continue
        if state.player == 0:
            entry = book.lookup(state)
            if state.stones - root.stones > 4:
                continue
            assert entry is not None, state.text()
            child = _after(state, entry.move)
            if not child.is_over:
                r = solver.choose(child, solve=True)
                assert r.proven == "loss", (state.text(), entry.move, r.score)
            todo.append(child)
        else:
            todo.extend(_after(state, n) for n in state.legal_names())


def test_a_build_is_the_same_from_run_to_run_and_resumes_from_its_journal(tmp_path):
    root = C4.parse("42655421475772")
    journal = tmp_path / "j"
    first = BookBuilder(root, plies=4, journal=journal)
    text = first.build().text()
    assert first.solved > 0 and journal.read_text().count("\n") == first.solved
    again = BookBuilder(root, plies=4, journal=journal)
    assert again.build().text() == text and again.solved == 0     # every solve was read back
    assert BookBuilder(root, plies=4).build().text() == text


def test_auto_plays_the_book_move_and_says_so(tmp_path):
    path = tmp_path / "c4.book"
    path.write_text("roost-book 1 connect4\n4453 7 win\n")
    state = C4.parse("5344")
    r = parse_engine(f"auto:nodes=50,book={path}").choose(state, seed=0)
    assert (r.move_name, r.proven, r.value, r.nodes) == ("7", "win", 1.0, 0)
    assert r.info["book"] == str(path)
    # out of the book, or with book=none, auto searches
    r = parse_engine(f"auto:nodes=50,book={path}").choose(C4.parse("4454"), seed=0)
    assert "book" not in r.info and r.nodes > 0
    r = parse_engine("auto:nodes=50,book=none").choose(state, seed=0)
    assert "book" not in r.info and r.nodes > 0


def test_a_book_that_cannot_be_read_fails_when_the_spec_is_parsed(tmp_path):
    from roost.core.errors import RoostError
    (tmp_path / "bad.book").write_text("hello\n")
    with pytest.raises(RoostError, match="is not a roost book"):
        parse_engine(f"auto:book={tmp_path / 'bad.book'}")


def test_builds_of_parts_of_one_tree_share_their_journal(tmp_path):
    root = C4.parse("42655421475772")
    alone = BookBuilder(root, plies=4)
    text = alone.build().text()
    journal = tmp_path / "shared"
    part = BookBuilder(_after(_after(root, "4"), "3"), plies=2, journal=journal)
    part.build()
    whole = BookBuilder(root, plies=4, journal=journal)
    # the part's solves are read, not solved again, and the book is the same
    assert whole.build().text() == text
    assert part.solved > 0 and whole.solved == alone.solved - part.solved


def _reference_rows(sign, count):
    """Positions of the published solver's end file whose score has ``sign`` for the player
    to move (1 won, 0 drawn, -1 lost), with the solver's score of every move."""
    rows = [r for r in solved_connect4("end") if (r["score"] > 0) - (r["score"] < 0) == sign]
    return rows[:count]


def test_draw_books_play_a_move_the_published_solver_scores_as_keeping_the_draw():
    # drawn positions: the book's move scores 0 (a draw) and its value is a draw; won ones:
    # the move scores a draw or better, and a win where the book says so; at the book's
    # depth (plies=0: the position itself) the value is exact, a won position's move wins
    for sign in (0, 1):
        for row in _reference_rows(sign, 12):
            state = C4.parse(row["moves"])
            for plies in (0, 2):
                book = BookBuilder(state, plies=plies, goal="draw").build()
                first = book.lookup(state)
                score = row["move_scores"][int(first.move) - 1]
                assert score is not None and score >= 0, (row["moves"], first.move, row["move_scores"])
                assert first.value in ("draw", "win")
                if first.value == "win" or sign == 0 or plies == 0:
                    assert (score > 0) == (first.value == "win") == (sign > 0), (row["moves"], plies, first)


def test_no_draw_book_is_built_for_a_position_the_published_solver_says_is_lost():
    for row in _reference_rows(-1, 4):
        with pytest.raises(BookError, match="no draw or better for player"):
            BookBuilder(C4.parse(row["moves"]), plies=2, goal="draw").build()


def _check_tree(book, root, plies, solver):
    """Every move of ``root``'s mover in ``book``, followed against every reply to ``plies``
    plies, keeps what its line says by roost's exact solve: the position after a "win" move
    is lost for the opponent, after a "draw" move a draw or a loss; returns the lines seen."""
    side, seen, todo = root.player, 0, [root]
    while todo:
        state = todo.pop()
        if state.is_over:
            assert state.result()[side] >= 0.5
            continue
        if state.player == side:
            if state.stones - root.stones > plies:
                continue
            entry = book.lookup(state)
            assert entry is not None, state.text()
            seen += 1
            child = _after(state, entry.move)
            if not child.is_over:
                r = solver.choose(child, solve=True)
                allowed = ("loss",) if entry.value == "win" else ("loss", "draw")
                assert r.proven in allowed, (state.text(), entry.move, entry.value, r.score)
            todo.append(child)
        else:
            todo.extend(_after(state, n) for n in state.legal_names())
    return seen


def test_every_move_of_a_draw_book_keeps_a_draw_by_roost_solve_against_every_defence():
    root = C4.parse("422774613245175")       # middle.jsonl: a draw, the second player to move
    assert next(r for r in solved_connect4("middle") if r["moves"] == root.text())["score"] == 0
    book = BookBuilder(root, plies=4, goal="draw").build()
    assert book.lookup(root).value == "draw"
    assert _check_tree(book, root, 4, parse_engine("ab:tt=16")) > 10


def test_thinning_leaves_out_only_the_deepest_lines_a_proof_settles_cheaply(tmp_path):
    root = C4.parse("42655421475772")
    journal = tmp_path / "j"
    full = BookBuilder(root, plies=4, journal=journal).build()
    costs = sorted({int(line.split()[3]) for line in journal.read_text().splitlines()})
    threshold = costs[len(costs) // 2]        # the middle of the costs the journal shows
    thin = BookBuilder(root, plies=4, journal=journal, thin=threshold).build()
    dear = {line.split()[0] for line in journal.read_text().splitlines() if int(line.split()[3]) >= threshold}
    kept = {e.position for e in thin.entries.values()}
    assert kept < {e.position for e in full.entries.values()}
    for entry in full.entries.values():
        deepest = len(entry.position) - len(root.text()) >= 4
        mirrored = "".join(str(8 - int(c)) for c in entry.position)
        # a shallower line always stays; a deepest one stays when its proof was dear
        assert (entry.position in kept) == (not deepest or bool({entry.position, mirrored} & dear)), entry


def test_a_draw_build_tests_again_the_leaves_a_win_build_left_unsettled_for_it(tmp_path):
    # a win test that fails says nothing of the draw: the draw build on the same journal
    # tests those leaves for the draw, and takes the wins as they are
    root = C4.parse("422774613245175")
    journal = tmp_path / "j"
    with pytest.raises(BookError, match="no win"):
        BookBuilder(root, plies=2, journal=journal).build()
    results = [line.split()[1] for line in journal.read_text().splitlines()]
    assert "nowin" in results
    again = BookBuilder(root, plies=2, journal=journal, goal="draw")
    alone = BookBuilder(root, plies=2, goal="draw")
    assert again.build().text() == alone.build().text()
    assert again.solved == alone.solved - results.count("win")


@pytest.fixture(scope="module")
def connect4_book():
    book = shipped_book("connect4")
    assert book is not None, "roost ships src/search/books/connect4.book"
    return book


def _book_lines(book, root, side=0):
    """Every position of ``side``'s the book reaches from ``root`` following its moves
    against every reply, with its entry (None where the book has none)."""
    seen, todo = {}, [root]
    while todo:
        state = todo.pop()
        if state.is_over or state.hash in seen:
            continue
        if state.player == side:
            entry = book.lookup(state)
            seen[state.hash] = (state, entry)
            if entry is not None:
                todo.append(_after(state, entry.move))
        else:
            seen[state.hash] = (state, None)
            todo.extend(_after(state, n) for n in state.legal_names())
    return [v for v in seen.values() if v[0].player == side]


def test_the_connect4_book_answers_every_defence_from_the_empty_board_to_its_depth(connect4_book):
    # the book's proof tree: following its moves for the first player from the empty board,
    # every defence short of the book's depth finds its line, each a win; at its depth the
    # lines a proof in play finds dear (the centre-column line below among them); beyond, none
    lines = _book_lines(connect4_book, C4.parse("-"))
    assert len(lines) > 1000
    depth = max(state.stones for state, entry in lines if entry is not None)
    assert depth >= 10
    for state, entry in lines:
        if state.stones < depth:
            assert entry is not None and entry.value == "win", state.text()
    deepest = [state for state, entry in lines if entry is not None and state.stones == depth]
    assert 0 < len(deepest) < len([state for state, _ in lines if state.stones == depth])
    assert connect4_book.lookup(C4.parse("4444443265")).value == "win"
    # the centre first, the only winning first move (Allis 1988; Allen 1989)
    assert connect4_book.lookup(C4.parse("-")).move == "4"


# the second player's result after each first move: a draw after 3 and 5, a win after 1, 2,
# 6 and 7, a loss after the centre (Allis 1988)
SECOND = {"1": "win", "2": "win", "3": "draw", "5": "draw", "6": "win", "7": "win"}


@pytest.mark.parametrize("first, value", SECOND.items())
def test_the_connect4_book_holds_the_second_players_result_after_each_first_move(connect4_book, first, value):
    lines = _book_lines(connect4_book, C4.parse(first), side=1)
    assert len(lines) > 300
    assert connect4_book.lookup(C4.parse(first)).value == value
    depth = max(state.stones for state, entry in lines if entry is not None)
    assert depth >= 9
    for state, entry in lines:
        if state.stones < depth:
            assert entry is not None, state.text()
        if entry is not None:
            assert entry.value == "win" if value == "win" else entry.value in ("draw", "win")
    # at the book's depth, the lines a proof in play finds dear
    assert 0 < len([s for s, e in lines if e is not None and s.stones == depth]) < len(
        [s for s, _ in lines if s.stones == depth])
    assert connect4_book.lookup(C4.parse("4")) is None      # lost: no book holds it


def test_the_connect4_books_deepest_moves_keep_their_value_by_roost_solve(connect4_book):
    solver = parse_engine("ab:tt=16")
    for stones in (9, 10):
        deepest = sorted(e.position for e in connect4_book.entries.values() if len(e.position) == stones)
        for position in deepest[::len(deepest) // 4][:4]:        # four a side, spread over the book
            state = C4.parse(position)
            entry = connect4_book.lookup(state)
            child = _after(state, entry.move)
            if child.is_over:                     # four in a row at once
                assert child.result()[state.player] == 1.0
                continue
            r = solver.choose(child, solve=True)
            assert r.proven in (("loss",) if entry.value == "win" else ("loss", "draw")), (position, r.score)


def test_auto_plays_the_shipped_book_by_default(connect4_book):
    r = parse_engine("auto:nodes=50").choose(C4.parse("-"), seed=0)
    assert (r.move_name, r.proven, r.info["book"]) == ("4", "win", "the connect4 book")
    assert "book" not in parse_engine("auto:nodes=50,book=none").choose(C4.parse("-"), seed=0).info


def test_a_mirror_images_build_meets_the_same_leaves_and_solves_none_again(tmp_path):
    root = C4.parse("42655421475772")
    mirrored = C4.parse("".join(str(8 - int(c)) for c in root.text()))
    journal = tmp_path / "j"
    first = BookBuilder(root, plies=4, journal=journal)
    book = first.build()
    twin = BookBuilder(mirrored, plies=4, journal=journal)
    twins = twin.build()
    assert first.solved > 0 and twin.solved == 0
    # line by line the mirror image of the first book
    assert sorted((e.position, e.move) for e in twins.entries.values()) == sorted(
        ("".join(str(8 - int(c)) for c in e.position), str(8 - int(e.move))) for e in book.entries.values())
