"""How the MCTS tree and the process's memory grow with the search's length (a report, not a
test): ``python benchmarks/mcts_memory.py GAME SECONDS [SPEC_EXTRA]`` runs one
``mcts:time=SECONDS`` search (plus ``,SPEC_EXTRA`` if given, e.g. ``threads=2,mem=512``)
from the game's bench position and prints the iterations, the tree's nodes, the megabytes
the node store grew to and the process's peak resident memory.  Run it under
``/usr/bin/time -v`` for the operating system's own figure; compare lengths, e.g. 1, 6, 10
and 60 seconds (a 6 s search should hold at least 4x the nodes of a 1 s one)."""
import resource
import sys

from roost.bench import bench_state
from roost.core.games import get_game
from roost.search.engines import parse_engine


def main(argv):
    game = argv[1] if len(argv) > 1 else "ducks"
    seconds = float(argv[2]) if len(argv) > 2 else 1.0
    extra = ("," + argv[3]) if len(argv) > 3 else ""
    s = bench_state(get_game(game))
    if s.is_chance:
        s.play_unchecked(s.sample(0))
    spec = f"mcts:time={seconds:g}{extra}"
    r = parse_engine(spec).choose(s, seed=1)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{game} {spec}: {r.iterations:,} iterations, {r.info['tree_nodes']:,} nodes, "
          f"store {r.info['tree_mb']:,.1f} MB, peak RSS {peak_mb:,.0f} MB", flush=True)


if __name__ == "__main__":
    main(sys.argv)
