"""How many games the SPRT needs to decide between two engines, counting game pairs (the
pentanomial model) or single games (the trinomial model), read from the games of a
two-engine tournament with a repeated opening suite (a report, not a test).

    python benchmarks/sprt_games.py DB [--sprt elo0=0,elo1=50] [--runs 200] [--seed 1]

Each run draws the database's complete game pairs at random with replacement (seeded by
``--seed`` and the run's number) into one long sequence, and feeds the same sequence to
both tests: the pentanomial SPRT a pair at a time, the trinomial SPRT a game at a time
(the two games of a pair in their order).  It prints, for each model, the games used until
the decision (median, quartiles, the share of runs that did not decide within ``--most``
games) and which hypothesis was accepted.  Resampling recorded games stands in for
playing fresh ones: it measures the tests on the games' own distribution, not the engines'
strength anew.
"""
import argparse
import random
import statistics
import sys

from roost.arena.ratings import ScoreStream, Sprt
from roost.arena.records import read_records
from roost.arena.store import Store
from roost.arena.tournament import config_from_dict


def game_pairs(db):
    """The points (0, 1/2, ..., 2) of engine 0 in each complete pair of the database, and
    the two games' scores of each pair in their order."""
    with Store.open(db) as store:
        config = config_from_dict(store.config())
    if len(config.engines) != 2 or config.players != 2:
        sys.exit(f"{db}: a two-engine, two-seat tournament is needed")
    plan = config.schedule()
    rounds = {}
    for rec in read_records(db):
        g = plan[rec.id - 1]
        rounds.setdefault((g.pairing, g.round), []).append(
            (rec.id, ScoreStream.game_score(rec.engines, rec.result)))
    pairs = [tuple(x for _, x in sorted(games)) for games in rounds.values() if len(games) == 2]
    return pairs


def run_both(sprt, pairs, rnd, most):
    seq = [rnd.choice(pairs) for _ in range(most // 2)]
    dec_p, used_p, _ = sprt.run_pairs(a + b for a, b in seq)
    dec_t, used_t, _ = sprt.run(x for pair in seq for x in pair)
    return (dec_p, 2 * used_p), (dec_t, used_t)


def describe(name, outcomes, most):
    used = sorted(n for _, n in outcomes)
    q1, med, q3 = statistics.quantiles(used, n=4)
    decided = [d for d, _ in outcomes if d]
    share = {h: sum(1 for d in decided if d == h) for h in ("H0", "H1")}
    return (f"{name:<12} games to decide: median {med:.0f} (quartiles {q1:.0f}-{q3:.0f}); "
            f"H1 {share['H1']}, H0 {share['H0']}, undecided within {most} "
            f"{len(outcomes) - len(decided)} of {len(outcomes)} runs")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--sprt", default="elo0=0,elo1=50")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--most", type=int, default=20000, help="games a run may use at most")
    args = ap.parse_args(argv)
    sprt = Sprt.parse(args.sprt)
    pairs = game_pairs(args.db)
    if len(pairs) < 2:
        sys.exit(f"{args.db}: fewer than two complete game pairs")
    counts = [0] * 5
    for a, b in pairs:
        counts[int(round(2 * (a + b)))] += 1
    mean = sum(a + b for a, b in pairs) / (2 * len(pairs))
    print(f"{args.db}: {len(pairs)} pairs, pair points 0..2: {counts}, engine 0 scores {mean:.3f}; "
          f"SPRT {sprt.text()}, {args.runs} runs")
    penta, tri = [], []
    for r in range(args.runs):
        p, t = run_both(sprt, pairs, random.Random(args.seed * 1_000_003 + r), args.most)
        penta.append(p)
        tri.append(t)
    print(describe("pentanomial", penta, args.most))
    print(describe("trinomial", tri, args.most))
    same = sum(1 for (a, _), (b, _) in zip(penta, tri) if a == b)
    print(f"same decision in {same} of {args.runs} runs")


if __name__ == "__main__":
    main()
