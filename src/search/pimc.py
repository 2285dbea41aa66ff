"""Perfect-information Monte Carlo: several determinizations of a position with hidden
information (worlds the observer cannot tell from the real one), each searched by MCTS as
if everything were in view, the root visit counts summed as votes.

The worlds are searched in rounds of ``threads`` at once (``mcts.search_worlds``: one tree
and one thread a world); each world's determinization and tree seed are drawn in world
order whatever the rounds, so an iteration budget gives the same votes for any thread
count.  A time budget is shared by the rounds left, and no round starts once it is spent.
"""
import random
import time

from roost.search import mcts as _mcts
from roost.search.alphabeta import SearchInterrupted
from roost.search.result import Report
from roost.search.root_move import RootMove


class PimcReport(Report):
    """PIMC's Report: the moves ranked by votes (``visits``), ``worlds`` searched,
    ``seat_value`` the observer's expected result where the worlds tell it.  Its pv is the
    move the votes chose, named as it stands: the observer's own world need not hold it."""
    pv_is_line = False

    def extras(self):
        return {"worlds": self.worlds}


class Pimc:
    """The searcher: its trees (one a world searched at once, kept between searches) are
    made by ``make_tree()``."""

    def __init__(self, make_tree):
        self.make_tree = make_tree
        self.trees = []

    def trees_for(self, count):
        while len(self.trees) < count:
            self.trees.append(self.make_tree())
        return self.trees[:count]

    def search(self, state, seat, seed, worlds, iterations=0, seconds=0.0, threads=1, progress=None):
        """Vote on the move at ``state`` for seat ``seat`` (whose view the worlds are drawn
        from) over ``worlds`` determinizations, each searched for ``iterations`` (or a share
        of ``seconds``).  ``progress(tree, world, iterations, seconds, number)``, if given,
        hears the first tree of each round as it searches world ``number`` (from 1).  A
        PimcReport: the moves ranked by votes (a tie to the lower id), the value of each the
        mean of its visits' results; SearchInterrupted with the votes so far on Ctrl-C."""
        width = min(threads, worlds)
        trees = self.trees_for(width)
        rng = random.Random(seed)
        seeds = []
        for w in range(worlds):
            world_seed = rng.getrandbits(63) if state.hidden_info else None
            seeds.append((world_seed, rng.getrandbits(63)))
        votes, sums, seat_sums = {}, {}, {}     # per move: visits, results, the seat's results
        done = PimcReport(move=-1)
        t0 = time.monotonic()
        interrupted = False
        for first in range(0, worlds, width):
            batch = range(first, min(first + width, worlds))
            budget = 0.0
            if seconds:
                # the time left, shared by the rounds left; once it is spent, stop
                left = seconds - (time.monotonic() - t0)
                if left <= 0 and first > 0:
                    break
                budget = max(left, 1e-6) / -(-(worlds - first) // width)
            boards = [state.determinized(seat, seeds[w][0]) if state.hidden_info else state
                      for w in batch]
            report = None
            if progress is not None:
                def report(n, secs, first=first, tree=trees[0], world=boards[0]):
                    progress(tree, world, n, secs, first + 1)
            try:
                rs = _mcts.search_worlds(trees[:len(batch)], boards, [seeds[w][1] for w in batch],
                                         iterations, budget, report)
            except SearchInterrupted as e:         # Ctrl-C in the search: its partial votes
                rs, interrupted = e.partial, True
            except KeyboardInterrupt:              # Ctrl-C between two rounds
                rs, interrupted = [], True
            for r in rs:
                done.iterations += r.iterations
                done.worlds += 1
                for st in r.root_moves:
                    m = st.move
                    votes[m] = votes.get(m, 0) + st.visits
                    sums[m] = sums.get(m, 0.0) + st.value * st.visits
                    if st.values:
                        seat_sums[m] = seat_sums.get(m, 0.0) + st.values[seat] * st.visits
            if rs:
                done.seconds += max(r.seconds for r in rs)
            if interrupted:
                break
        result = self.count(state, seat, votes, sums, seat_sums, done)
        if interrupted:
            raise SearchInterrupted(result)
        return result

    @staticmethod
    def count(state, seat, votes, sums, seat_sums, report):
        """``report`` with the votes counted: the moves ranked, the best first."""
        # the mover's real options are hidden from another seat: any move voted in the
        # worlds the observer imagines is a candidate
        legal = state.legal() if seat == state.player or not state.hidden_info else list(votes)
        ranked = sorted((m for m in votes if m in set(legal)), key=lambda m: (-votes[m], m))
        if not ranked:                 # interrupted before any world had a visit
            ranked = [legal[0]]
        report.root_moves = [RootMove(move=m, visits=votes.get(m, 0),
                                      value=sums[m] / votes[m] if votes.get(m) else 0.5)
                             for m in ranked]
        best = report.root_moves[0]
        report.move, report.value, report.pv = best.move, best.value, [best.move]
        report.nodes = report.iterations
        if seat != state.player and best.move in seat_sums:
            report.seat_value = seat_sums[best.move] / votes[best.move]
        return report
