"""Play a book's side with ``auto`` against a perfect opponent, to see whether the result the
book proves (a win, or a draw) is carried to the end of the game once the book runs out.

    python tools/book_play.py connect4 --games 7 --time 0.2 --seed 1
    python tools/book_play.py connect4 --side 1 --games 7 --time 0.2 --seed 1

``auto`` (with the game's book, or ``--book FILE``) plays ``--side`` (default: the player to
move at the start, or ``--position``).  The opponent's first move is the game's number among
its legal moves (so the games go through every one of them in turn: from the empty board
with ``--side 1``, each first move of the first player); its other moves the book answers
are an alpha-beta search's (the book answers every reply, and no solve is cheap this early),
or with ``--exact`` ones that keep its value where it has a win or a draw (by window tests,
which take seconds in the first plies); once the position is beyond the book's depth, the
solver's best play (``ab`` with ``solve=True``: a win when it has one, else a draw, else the
longest loss).  Each game prints its moves and result; the last line counts the book side's
wins, draws and losses.  At a time a move auto's searches can differ from run to run.
"""
import argparse
import random
import sys

from roost.core.games import get_game
from roost.search.book import Book, shipped_book
from roost.search.engines import parse_engine
from roost.search.wdl import WindowTests


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--time", type=float, default=0.2, help="auto's seconds a move")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--book", default=None, help="a book file (default: the game's own)")
    ap.add_argument("--position", default=None, help="the position to play from (default: the start)")
    ap.add_argument("--side", type=int, default=None, help="auto's player (default: the player to move)")
    ap.add_argument("--exact", action="store_true",
                    help="inside the book too, the opponent keeps its value (a win when it has one, "
                    "else a draw, by window tests; slow in the first plies)")
    ap.add_argument("--tt", type=int, default=64, help="the opponent's table in MB")
    args = ap.parse_args(argv)
    info = get_game(args.game)
    book = Book.read(args.book, game=info.name) if args.book else shipped_book(info.name)
    if book is None:
        sys.exit(f"no book for {info.name}: give one with --book")
    start = info.cls.parse(args.position) if args.position else info.start()
    side = start.player if args.side is None else args.side
    defender = parse_engine(f"ab:tt={args.tt}")
    searcher = parse_engine("ab:nodes=200000,tt=16")
    tests = WindowTests(args.tt) if args.exact else None
    rng = random.Random(args.seed)       # auto's seeds
    outcomes = {"won": 0, "drawn": 0, "lost": 0}
    for g in range(args.games):
        auto = parse_engine(f"auto:time={args.time:g}" + (f",book={args.book}" if args.book else ""))
        state, moves, booked, replied = start.copy(), [], 0, 0
        while not state.is_over:
            if state.player == side:
                r = auto.choose(state, seed=rng.randrange(1 << 30))
                booked += "book" in r.info
                name = r.move_name
            elif replied == 0:
                name = state.legal_names()[g % len(state.legal())]
            elif all(_booked(book, state, name) for name in state.legal_names()):
                name = (args.exact and _keeping(tests, state)) or searcher.choose(state, seed=0).move_name
            else:
                name = defender.choose(state, seed=0, solve=True).move_name
            replied += state.player != side
            state.play_move(state.parse_move(name))
            moves.append(name)
        outcome = {1.0: "won", 0.5: "drawn"}.get(state.result()[side], "lost")
        outcomes[outcome] += 1
        print(f"game {g + 1}: {' '.join(moves)} {outcome}"
              f" ({booked} book moves)", flush=True)
    print(f"{outcomes['won']}/{args.games} won, {outcomes['drawn']} drawn, {outcomes['lost']} lost "
          f"by player {side} with auto:time={args.time:g} and the book")


def _keeping(tests, state):
    """A move that keeps the mover's value: one that wins when the position is won, else one
    that draws when it is drawn; None when it is lost."""
    for threshold in ("win", "draw"):
        answer, move, _ = tests.test(state, threshold)
        if answer:
            return state.move_name(move)
    return None


def _booked(book, state, name):
    """Whether the book answers ``name`` (or it ends the game)."""
    child = state.copy()
    child.play_move(child.parse_move(name))
    return child.is_over or book.lookup(child) is not None


if __name__ == "__main__":
    main()
