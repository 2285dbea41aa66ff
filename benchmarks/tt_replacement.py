"""How well the transposition table keeps what a search needs, with a table small enough that
its replacement policy matters (a report, not a test): node counts and seconds of alpha-beta
searches, one line each.

    python benchmarks/tt_replacement.py search GAME DEPTH [--tt MB]   # the bench position
    python benchmarks/tt_replacement.py game [--tt MB]     # 16 plies of Feed the Ducks, one table
    python benchmarks/tt_replacement.py solve POSITION [--tt MB]      # a Connect Four solve
    python benchmarks/tt_replacement.py endings [--tt MB]  # Feed the Ducks endings, solved
    python benchmarks/tt_replacement.py all [--tt MB]      # all of these, as a table

The node counts are deterministic: compare two builds' counts directly, and their times
whole-process and interleaved (``/usr/bin/time -f %U`` on each build in turn).  ``game``
replays a fixed line (the moves a depth-7 search chose) with one searcher that keeps its
table from move to move, as an engine does through a game, so that what earlier searches
stored ages; the others are single searches from an empty table.
"""
import argparse
import time

from roost.bench import bench_state
from roost.core.games import get_game
from roost.search.alphabeta import AlphaBeta

DEPTHS = {"connect4": range(10, 16), "ducks": range(6, 10), "tweeeet": range(4, 7),
          "cubirds": range(3, 6), "leaves": range(2, 4), "wingspan": range(14, 19)}
GAME_LINE = "d3 e5 b4 h3 g7 d8 c6 b1 h6 e7 i4 g1 i2 a1 h6 b1"
# Connect Four openings whose solves take the reference solver 1 to 7 million nodes
# (src/core/data/connect4/begin.jsonl)
C4_SOLVES = ["552354651", "67127513", "77345646", "55714653", "35326173332", "337417715662",
             "15237775", "733776175"]
# Feed the Ducks positions a few plies before a depth-3 self-play game's end: won, and
# proven in thousands to a hundred thousand nodes
DUCKS_ENDINGS = [
    "5/1wb3/2b1b2/1bw1b3/1w1bbbww1/1bwbbww1/1bww3/*ww3/5 b 173",
    "5/1w1ww1/*bww3/1b2bbw1/1bwbwb1w1/1b2bw2/1b1b1w1/3bw1/5 b 37",
    "5/1w1ww1/2bbww1/4bbw*/1b1bww1w1/1bb1bw2/1bwb3/2bw2/5 b 35",
    "5/3ww1/2wbww1/3bbw2/1b1bbw3/1bb2w2/1bwbww1/2bwb1/2*2 b 33",
    "2*2/1bbw2/1bwbbw1/2bww1w1/2wwwb3/2wwbw2/2b1bb1/4b1/5 w 56",
    "5/2ww2/2bwb2/2www1w1/2bbw4/2bwwwb1/1bbb1b1/1bwb2/1*3 w 264",
    "5/2ww2/2bwb2/2www1w1/3bbbww1/2bwbwb1/2bw1b1/1b*b2/5 w 262",
    "5/6/1bwwbw1/1wwwbbb1/1bwwwbb2/1wbwbb2/1*w4/4b1/5 w 72",
    "5/6/2wwbw*/1wbwbbb1/1bwwwbb2/1wbwbb2/2ww3/4b1/5 w 70",
]


def _decision(state):
    if state.is_chance:
        state = state.copy()
        state.play_unchecked(state.sample(0))
    return state


def search(game, depth, tt):
    s = _decision(bench_state(get_game(game)))
    options = dict(exact_outcomes=4, samples=4) if game == "leaves" else {}
    t0 = time.perf_counter()
    r = AlphaBeta(tt_mb=tt, paranoid=s.players > 2, seed=1, **options).search(s, max_depth=depth)
    return f"{game} depth {depth}", r.nodes, time.perf_counter() - t0


def game(tt, depth=7):
    s = bench_state(get_game("ducks"))
    ab = AlphaBeta(tt_mb=tt, seed=1)
    nodes, t0 = 0, time.perf_counter()
    for name in GAME_LINE.split():
        nodes += ab.search(s, max_depth=depth).nodes
        s.play_move(name)
    return f"ducks game of {len(GAME_LINE.split())} plies at depth {depth}", nodes, time.perf_counter() - t0


def solve(game_name, position, tt):
    s = get_game(game_name).parse(position)
    t0 = time.perf_counter()
    r = AlphaBeta(tt_mb=tt).search(s, max_depth=10000, solve=True)
    return f"{game_name} solve {position}", r.nodes, time.perf_counter() - t0


def endings(tt):
    rows = [solve("ducks", p, tt) for p in DUCKS_ENDINGS]
    return "ducks endings", sum(r[1] for r in rows), sum(r[2] for r in rows)


def show(row):
    label, nodes, seconds = row
    print(f"{label:<40} {nodes:>12,} nodes {seconds:8.2f} s", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("search", "game", "solve", "endings", "all"))
    ap.add_argument("args", nargs="*")
    ap.add_argument("--tt", type=int, default=1, help="table size in MB (default 1)")
    a = ap.parse_args()
    if a.what == "search":
        show(search(a.args[0], int(a.args[1]), a.tt))
    elif a.what == "game":
        show(game(a.tt))
    elif a.what == "solve":
        show(solve("connect4", a.args[0], a.tt))
    elif a.what == "endings":
        show(endings(a.tt))
    else:
        for g, depths in DEPTHS.items():
            for d in depths:
                show(search(g, d, a.tt))
        show(game(a.tt))
        for p in C4_SOLVES:
            show(solve("connect4", p, a.tt))
        show(endings(a.tt))


if __name__ == "__main__":
    main()
