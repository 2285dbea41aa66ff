"""Play ``auto`` against a perfect player from Connect Four starts of known value, and count
the won and drawn starts it keeps.

    python tools/proof_play.py --begin --random 20 --drawn 10 --seed 1 --engine auto:time=0.2

The starts: with ``--begin`` the reference positions of src/core/data/connect4/begin.jsonl
(8-13 stones, every one won by one side: their values are the published solver's); with
``--random N`` N seeded openings of ``--plies`` random moves (8 by default), valued by
roost's solver (few of them are drawn); with ``--drawn N`` N seeded drawn openings of
``--plies`` moves, each a drawn child (by roost's solver) of a random opening a ply shorter
that has one.  From each start ``auto`` plays every side that has a result to keep: the
winner (after the perfect player's first move when the loser is to move), and in a drawn
start each side in a game of its own.  The perfect player is roost's solver with no limit
(``ab`` with ``solve=True``): its best defence when it loses, its draw or win otherwise.
After each of auto's moves the perfect player's solve of the position says whether the move
kept the start's value; the first move that did not is a result given away.

Each game prints its start, auto's side, the start's value and the outcome; the last lines
count, per start value, the starts kept and the ply (stones on the board after the move) of
every move that gave a result away.  The same seed gives the same starts; auto's moves at a
time a move can differ from run to run.

With ``--first N`` no game is played: ``auto`` makes only its first move of each of those
games (the start, or the perfect player's reply to it when the other side is to keep a
result), N times with seeds 0 to N-1 and a new engine each time, and the perfect player
says whether it kept the result.  Most results are given away by that move, so this counts
the misses of many more of them in the same time:

    python tools/proof_play.py --begin --random 16 --drawn 10 --seed 1 --first 6 --engine auto:time=0.2
"""
import argparse
import random
import sys
from collections import defaultdict

from roost.core.calibration import solved_connect4
from roost.core.games import get_game
from roost.search.engines import parse_engine

VALUES = {"win": 1, "draw": 0, "loss": -1}
NAMES = {1: "won", 0: "drawn", -1: "lost"}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="auto:time=0.2", help="the engine that keeps the results")
    ap.add_argument("--begin", action="store_true", help="the reference begin positions")
    ap.add_argument("--random", type=int, default=0, metavar="N", help="N seeded random openings")
    ap.add_argument("--drawn", type=int, default=0, metavar="N",
                    help="N seeded drawn openings: a drawn child of a random opening a ply shorter")
    ap.add_argument("--plies", type=int, default=8, help="the random openings' length")
    ap.add_argument("--seed", type=int, default=0, help="the random openings' and auto's seeds")
    ap.add_argument("--only", choices=("won", "drawn"), default=None,
                    help="only the starts of this value")
    ap.add_argument("--tt", type=int, default=16, help="the perfect player's table in MB")
    ap.add_argument("--first", type=int, default=0, metavar="N",
                    help="no games: auto's first move of each, N times (seeds 0 to N-1)")
    args = ap.parse_args(argv)
    if not args.begin and args.random <= 0 and args.drawn <= 0:
        ap.error("give --begin, --random N, --drawn N or several")
    if (args.random or args.drawn) and not 2 <= args.plies <= 20:
        ap.error("--plies takes 1 to 20")
    game = get_game("connect4")
    try:
        parse_engine(args.engine)
    except Exception as e:                       # a bad spec: its own message
        sys.exit(f"--engine: {e}")
    perfect = parse_engine(f"ab:tt={args.tt}")
    if args.first < 0:
        ap.error("--first takes 1 or more")
    if args.first:
        first_moves(game, perfect, args)
        return
    rng = random.Random(args.seed)
    kept, played, lost_at = defaultdict(int), defaultdict(int), defaultdict(list)
    for moves, side, wanted in games(game, perfect, args):
        engine = parse_engine(args.engine)
        ply, line = play(game, perfect, engine, moves, side, wanted, rng.randrange(1 << 30))
        played[wanted] += 1
        kept[wanted] += ply is None
        if ply is not None:
            lost_at[wanted].append(ply)
        print(f"{moves or '-'} player {side + 1} {NAMES[wanted]}: "
              f"{'kept' if ply is None else f'given away at ply {ply}'} ({line})", flush=True)
    for wanted in (1, 0):
        if played[wanted]:
            plies = " ".join(map(str, sorted(lost_at[wanted]))) or "none"
            print(f"{NAMES[wanted]} starts: {kept[wanted]}/{played[wanted]} kept with {args.engine}; "
                  f"given away at plies: {plies}")


def first_moves(game, perfect, args):
    """auto's first move of every game ``main`` would play, ``args.first`` times each."""
    values = {}              # moves -> the value after them for auto's side, by the solver

    def value_after(moves, side):
        if (moves, side) not in values:
            state = game.parse(moves)
            if state.is_over:
                values[moves, side] = 2 * state.result()[side] - 1
            else:
                proven = VALUES[perfect.choose(state, seed=0, solve=True).proven]
                values[moves, side] = proven if state.player == side else -proven
        return values[moves, side]

    given, asked = defaultdict(int), defaultdict(int)
    for moves, side, wanted in games(game, perfect, args):
        state = game.parse(moves)
        at = moves
        if state.player != side:          # the perfect player moves first
            at += perfect.choose(state, seed=0, solve=True).move_name
        played = []
        for seed in range(args.first):
            name = parse_engine(args.engine).choose(game.parse(at), seed=seed).move_name
            lost = value_after(at + name, side) < wanted
            played.append(f"{name}{'!' if lost else ''}")
            given[wanted] += lost
            asked[wanted] += 1
        print(f"{at} player {side + 1} {NAMES[wanted]}: first moves {' '.join(played)} "
              f"(! gives the result away)", flush=True)
    for wanted in (1, 0):
        if asked[wanted]:
            print(f"{NAMES[wanted]} starts: {given[wanted]}/{asked[wanted]} first moves gave the "
                  f"result away with {args.engine}")


def starts(game, perfect, args):
    """(moves, value for the player to move) of every start."""
    if args.begin:
        for row in solved_connect4("begin"):
            yield row["moves"], (row["score"] > 0) - (row["score"] < 0)
    rng = random.Random(args.seed)
    made = 0
    while made < args.random:
        state, moves = game.start(), ""
        while len(moves) < args.plies and not state.is_over:
            name = rng.choice(state.legal_names())
            state.play_move(state.parse_move(name))
            moves += name
        if state.is_over:
            continue
        made += 1
        perfect.new_game()
        yield moves, VALUES[perfect.choose(state, seed=0, solve=True).proven]
    rng, made = random.Random(f"drawn {args.seed}"), 0     # its own: the same with any --random
    while made < args.drawn:
        state, moves = game.start(), ""
        while len(moves) < args.plies - 1 and not state.is_over:
            name = rng.choice(state.legal_names())
            state.play_move(state.parse_move(name))
            moves += name
        if state.is_over:
            continue
        drawn = []
        perfect.new_game()
        for name in state.legal_names():
            child = state.copy()
            child.play_move(child.parse_move(name))
            if not child.is_over and perfect.choose(child, seed=0, solve=True).proven == "draw":
                drawn.append(moves + name)
        if drawn:
            made += 1
            yield rng.choice(drawn), 0


def games(game, perfect, args):
    """(start, auto's side, the result it keeps: 1 a win, 0 a draw) of every game to play,
    ``--only`` the results it names."""
    for moves, value in starts(game, perfect, args):
        for side in sides(game, moves, value):
            wanted = 1 if value != 0 else 0
            if not args.only or NAMES[wanted] == args.only:
                yield moves, side, wanted


def sides(game, moves, value):
    """auto's side in each game from a start: each side that keeps a win or a draw."""
    mover = len(moves) % 2
    if value >= 0:
        yield mover
    if value <= 0:
        yield 1 - mover


def play(game, perfect, engine, moves, side, wanted, seed):
    """One game; the ply of auto's first move that gave the result away (None: kept), and
    the game's moves after the start."""
    state = game.parse(moves)
    perfect.new_game()
    engine.new_game()
    line, given, reply = [], None, None
    while not state.is_over:
        if state.player == side:
            name = engine.choose(state, seed=seed).move_name
        else:
            name = (reply or perfect.choose(state, seed=0, solve=True)).move_name
        state.play_move(state.parse_move(name))
        line.append(name)
        reply = None
        if state.player != side and not state.is_over:
            reply = perfect.choose(state, seed=0, solve=True)     # its move and the value
        if state.player != side and given is None:
            value = 2 * state.result()[side] - 1 if state.is_over else -VALUES[reply.proven]
            if value < wanted:
                given = len(moves) + len(line)
    outcome = {1.0: "won", 0.5: "drawn", 0.0: "lost"}[state.result()[side]]
    return given, f"{' '.join(line)}: {outcome}"


if __name__ == "__main__":
    main()
