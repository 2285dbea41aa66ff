"""Books of deep searches (book_search.py), for games the solver cannot finish: every line
is the search's own answer in that position, the tree follows the side's book move and the
others' best replies, a chance node ends a line, a build is the same from run to run and
resumes from its journal."""
import pytest

from roost.core.games import get_game
from roost.search.book import Book, BookError
from roost.search.book_search import SearchBookBuilder
from roost.search.engines import parse_engine

DUCKS_SEARCH = "mcts:iterations=1500"


def ducks_start():
    return get_game("ducks").start()


def test_every_line_is_the_searchs_own_move_and_value_there():
    book = SearchBookBuilder(ducks_start(), 2, DUCKS_SEARCH, replies=2).build()
    assert len(book) == 4                 # the start, the reply position, its two best replies
    engine = parse_engine(DUCKS_SEARCH)
    for entry in book.entries.values():
        state = get_game("ducks").cls.parse(entry.position)
        engine.new_game()
        r = engine.choose(state, seed=0)
        assert entry.move == r.move_name and entry.value == f"{r.value:.3f}"


def test_the_side_follows_its_move_and_the_others_their_best_replies():
    start = ducks_start()
    book = SearchBookBuilder(start, 2, DUCKS_SEARCH, replies=3).build()
    root = book.lookup(start)
    after = start.copy()
    after.play_move(after.parse_move(root.move))
    reply = book.lookup(after)
    assert reply is not None and after.player != start.player
    engine = parse_engine(DUCKS_SEARCH)
    engine.new_game()
    best = sorted(engine.choose(after, seed=0).stats, key=lambda s: (-s.visits, -s.value))[:3]
    followed = []
    for stat in best:
        child = after.copy()
        child.play_unchecked(stat.move)
        assert book.lookup(child) is not None
        followed.append(child.hash)
    others = [m for m in after.legal() if m not in {s.move for s in best}]
    child = after.copy()
    child.play_unchecked(others[0])
    assert book.lookup(child) is None                     # a reply not among the best three
    assert len(book) == 1 + 1 + 3


def test_every_reply_is_followed_when_none_is_limited():
    start = get_game("connect4").start()
    book = SearchBookBuilder(start, 2, "ab:depth=3").build()
    assert len(book) == 1 + 1 + 7


def test_a_chance_node_ends_a_line():
    # Tweeeet lays a new row (chance) once a bird climbs: no line past it
    start = get_game("tweeeet").start()
    book = SearchBookBuilder(start, 6, "ab:depth=2").build()
    assert len(book) >= 1
    for entry in book.entries.values():
        state = get_game("tweeeet").cls.parse(entry.position)
        assert not state.is_chance and not state.is_over


def test_a_build_is_the_same_from_run_to_run_and_resumes_from_its_journal(tmp_path):
    whole = SearchBookBuilder(ducks_start(), 3, DUCKS_SEARCH, replies=2).build().text()
    journal = tmp_path / "d.journal"

    def stop_after_three(n, *rest):
        if n == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        SearchBookBuilder(ducks_start(), 3, DUCKS_SEARCH, replies=2, journal=journal,
                          progress=stop_after_three).build()
    assert len(journal.read_text().splitlines()) == 3       # every finished search is kept
    resumed = SearchBookBuilder(ducks_start(), 3, DUCKS_SEARCH, replies=2, journal=journal)
    assert resumed.build().text() == whole
    assert resumed.searched == len(Book.parse(whole).entries) - 3
    assembled = SearchBookBuilder(ducks_start(), 3, DUCKS_SEARCH, replies=2, journal=journal,
                                  search=False)
    assert assembled.build().text() == whole and assembled.searched == 0


def test_a_search_book_is_played_by_auto_and_read_back_from_its_text(tmp_path):
    start = ducks_start()
    book = SearchBookBuilder(start, 1, DUCKS_SEARCH).build()
    path = tmp_path / "ducks.book"
    path.write_text(book.text())
    again = Book.read(path, game="ducks")                    # positions with spaces read back
    assert again.lookup(start) == book.lookup(start)
    r = parse_engine(f"auto:book={path},nodes=100").choose(start, seed=1)
    assert r.move_name == book.lookup(start).move and r.info["book"] == str(path)
    assert r.value == pytest.approx(float(book.lookup(start).value))


def test_hidden_information_and_damaged_journals_are_refused(tmp_path):
    with pytest.raises(BookError, match="perfect information"):
        SearchBookBuilder(get_game("cubirds").start(), 2, "mcts:iterations=100")
    journal = tmp_path / "bad.journal"
    journal.write_text("5/6/7/8/9/8/7/6/5 w 0 W@a1 0.5\n")
    with pytest.raises(BookError, match="bad.journal line 1 is not a search journal line"):
        SearchBookBuilder(ducks_start(), 2, DUCKS_SEARCH, journal=journal)
