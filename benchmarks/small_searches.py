"""Many small searches through the engines, where what a search costs beyond its tree (the
searcher's report and its reading as a SearchResult) shows: games played from the start,
12 plies each, every move chosen by the engine.

    python benchmarks/small_searches.py mcts 20     # 1,000-iteration MCTS on four games
    python benchmarks/small_searches.py ab 300      # depth-4 alpha-beta on two games

ROUNDS (the second argument) games of each; it prints the nodes and root moves reported, the
same for every build of the same searchers (a check that two builds did the same work).
Time it as a whole process, two builds in turn: ``/usr/bin/time -f %U`` (benchmarks/README.md).
"""
import sys

from roost.core.games import get_game
from roost.search.engines import parse_engine

WORK = {"mcts": ("mcts:iterations=1000", ("connect4", "ducks", "tweeeet", "leaves")),
        "ab": ("ab:depth=4,tt=1", ("connect4", "ducks"))}


def play(kind, rounds):
    spec, games = WORK[kind]
    total = 0
    for game in games:
        engine = parse_engine(spec)
        for seed in range(rounds):
            s = get_game(game).start()
            for ply in range(12):
                if s.is_over:
                    break
                if s.is_chance:
                    s.play_move(s.sample(seed * 100 + ply))
                    continue
                r = engine.choose(s, seed=seed)
                total += r.nodes + len(r.stats)
                s.play_move(r.move)
                engine.advance(r.move)
            engine.new_game()
    return total


if __name__ == "__main__":
    kind, rounds = sys.argv[1], int(sys.argv[2])
    print(kind, play(kind, rounds))
