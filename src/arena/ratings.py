"""Ratings from game results: pairwise decomposition, a Bradley-Terry (Elo) maximum-likelihood
fit with error bars, a crosstable, the two-engine score with its confidence interval, and
the SPRT.

Pairwise decomposition.  A game with N seats is read as the N(N-1)/2 pairwise comparisons
between its seats held by *different* roster entries: the seat with the higher result beats
the lower one, equal results are a draw (half a win each).  For the fit each comparison of
an N-seat game weighs 1/(N-1), so every engine's comparisons in one game add up to one
game's worth of evidence, as in a two-player game (where the weight is 1).  The crosstable
shows the unweighted comparisons.  Comparisons from one game are not independent, so the
error bars of N-player tournaments are somewhat optimistic.

Bradley-Terry.  P(i beats j) = 1 / (1 + exp(r_j - r_i)), Elo = r * 400 / ln 10.  The ratings
maximise the likelihood of all comparisons (Newton's method), anchored: the anchor engine's
Elo is fixed (0 unless told otherwise).  Error bars are 1.96 standard errors from the
inverse Fisher information, relative to the anchor.  When the comparisons have no finite
maximum (some group of engines won, or lost, every comparison with the rest: the win graph
is not strongly connected) one virtual draw is added to every pair that met, and the fit
says so in ``note``.
"""
import math
from dataclasses import dataclass, field

ELO_PER_LOGIT = 400.0 / math.log(10.0)


def pairwise(engines, result):
    """Pairwise outcomes of one game: [(i, j, score of i against j)] for seats a < b held by
    different roster entries i = engines[a], j = engines[b]."""
    out = []
    n = len(engines)
    for a in range(n):
        for b in range(a + 1, n):
            i, j = engines[a], engines[b]
            if i == j:
                continue
            ra, rb = result[a], result[b]
            out.append((i, j, 1.0 if ra > rb else 0.0 if ra < rb else 0.5))
    return out


class Tally:
    """Accumulates games into pairwise score matrices and per-engine totals."""

    def __init__(self, n_engines):
        k = self.k = n_engines
        self.W = [[0.0] * k for _ in range(k)]       # weighted score of i against j
        self.N = [[0.0] * k for _ in range(k)]       # weighted comparisons
        self.raw_W = [[0.0] * k for _ in range(k)]
        self.raw_N = [[0] * k for _ in range(k)]
        self.score = [0.0] * k                       # sum of own seat results
        self.games = [0] * k                         # seats played
        self.wdl = [[0, 0, 0] for _ in range(k)]     # seat result 1 / in between / 0
        self.n_games = 0

    def add(self, engines, result):
        self.n_games += 1
        w = 1.0 / (len(engines) - 1)
        for i, j, s in pairwise(engines, result):
            self.W[i][j] += w * s
            self.W[j][i] += w * (1.0 - s)
            self.N[i][j] += w
            self.N[j][i] += w
            self.raw_W[i][j] += s
            self.raw_W[j][i] += 1.0 - s
            self.raw_N[i][j] += 1
            self.raw_N[j][i] += 1
        for e, r in zip(engines, result):
            self.score[e] += r
            self.games[e] += 1
            self.wdl[e][0 if r == 1.0 else 2 if r == 0.0 else 1] += 1


@dataclass
class Ratings:
    elo: list                   # per engine; None for an engine with no comparisons
    err: list                   # 95% half-width, relative to the anchor; None if unknown
    anchor: int
    note: str = ""
    connected: list = field(default_factory=list)   # rated in the anchor's component

    def order(self):
        """Engine indices, best first (unrated last)."""
        return sorted(range(len(self.elo)),
                      key=lambda i: (self.elo[i] is None, -(self.elo[i] or 0.0), i))


def _components(N, k):
    seen, comps = [False] * k, []
    for s in range(k):
        if seen[s] or not any(N[s][j] > 0 for j in range(k)):
            continue
        stack, comp = [s], []
        seen[s] = True
        while stack:
            i = stack.pop()
            comp.append(i)
            for j in range(k):
                if N[i][j] > 0 and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        comps.append(sorted(comp))
    return comps


def _reach(W, comp, start, forward):
    seen = {start}
    stack = [start]
    while stack:
        i = stack.pop()
        for j in comp:
            if j not in seen and (W[i][j] > 0 if forward else W[j][i] > 0):
                seen.add(j)
                stack.append(j)
    return seen


def _strongly_connected(W, comp):
    s = comp[0]
    return len(_reach(W, comp, s, True)) == len(comp) == len(_reach(W, comp, s, False))


def _fit_component(W, N, comp, anchor):
    """Newton's method on the log-likelihood with r[anchor] = 0; returns (r, se) by engine."""
    import numpy as np
    idx = {e: a for a, e in enumerate(comp)}
    m = len(comp)
    Wc = np.array([[W[i][j] for j in comp] for i in comp], dtype=float)
    Nc = np.array([[N[i][j] for j in comp] for i in comp], dtype=float)
    free = [a for a in range(m) if a != idx[anchor]]
    np.fill_diagonal(Wc, 0.0)        # an engine against itself tells nothing (W with N)
    np.fill_diagonal(Nc, 0.0)

    def information(r):
        p = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
        q = Nc * p * (1.0 - p)
        info = -q
        info[np.diag_indices(m)] = q.sum(axis=1)     # minus the Hessian of the log-likelihood
        return p, info

    r = np.zeros(m)
    for _ in range(200):
        p, info = information(r)
        grad = (Wc - Nc * p).sum(axis=1)
        step = np.linalg.solve(info[np.ix_(free, free)], grad[free]) if free else np.zeros(0)
        biggest = float(np.abs(step).max()) if len(step) else 0.0
        if biggest > 2.0:
            step *= 2.0 / biggest
        r[free] += step
        if biggest < 1e-12:
            break
    p, info = information(r)
    cov = np.linalg.inv(info[np.ix_(free, free)]) if free else np.zeros((0, 0))
    se = np.zeros(m)
    for a, f in enumerate(free):
        se[f] = math.sqrt(max(cov[a, a], 0.0))
    return {e: float(r[idx[e]]) for e in comp}, {e: float(se[idx[e]]) for e in comp}


def fit_elo(tally, anchor=0, anchor_elo=0.0):
    """The anchored Bradley-Terry fit of a Tally (or of (W, N) matrices)."""
    W, N = (tally.W, tally.N) if isinstance(tally, Tally) else tally
    k = len(W)
    elo, err = [None] * k, [None] * k
    connected = [False] * k
    notes = []
    comps = _components(N, k)
    for comp in comps:
        Wc, Nc = W, N
        if len(comp) > 1 and not _strongly_connected(W, comp):
            Wc = [row[:] for row in W]
            Nc = [row[:] for row in N]
            for i in comp:
                for j in comp:
                    if i != j and N[i][j] > 0:
                        Wc[i][j] += 0.5
                        Nc[i][j] += 1.0
            notes.append("no finite maximum-likelihood fit (an engine won or lost every "
                         "comparison), so one virtual draw was added to every pair that met")
        a = anchor if anchor in comp else comp[0]
        r, se = _fit_component(Wc, Nc, comp, a)
        for e in comp:
            elo[e] = anchor_elo + ELO_PER_LOGIT * r[e]
            err[e] = 1.96 * ELO_PER_LOGIT * se[e]
            connected[e] = anchor in comp
        if anchor not in comp:
            notes.append("some engines never met the anchor's group: their ratings are only "
                         "relative to each other")
    if not any(N[anchor][j] > 0 for j in range(k)):
        elo[anchor], err[anchor], connected[anchor] = anchor_elo, 0.0, True
    return Ratings(elo=elo, err=err, anchor=anchor, note="; ".join(dict.fromkeys(notes)),
                   connected=connected)


def score_to_elo(score):
    """The Elo difference whose expected score is ``score`` (+-inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_text(elo):
    """An Elo difference as the summaries print it: signed and whole ("+35", "-12"), "0"
    for one that rounds to nothing (never "-0"), "+inf"/"-inf", "-" for None."""
    if elo is None:
        return "-"
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    whole = round(elo)
    return f"{whole:+d}" if whole else "0"


def elo_to_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass
class HeadToHead:
    """The first engine's per-game score against the second, with a 95% interval."""
    games: int
    score: float            # mean per-game score of engine 0 in [0, 1]
    margin: float           # 95% half-width of the score
    elo: float
    elo_low: float
    elo_high: float
    los: float              # likelihood of superiority: P(engine 0 is stronger)
    pairs: int = None       # the game pairs the interval reads (None: it reads games)


class ScoreStream:
    """Sums of per-game scores of engine 0 against engine 1 (two-engine tournaments).  A
    game's score is the mean of its pairwise outcomes between the two engines."""
    model = "trinomial"

    def __init__(self):
        self.n, self.sx, self.sxx = 0, 0.0, 0.0

    @staticmethod
    def game_score(engines, result):
        outs = [s if i == 0 else 1.0 - s for i, j, s in pairwise(engines, result)]
        return sum(outs) / len(outs) if outs else None

    def add(self, x):
        self.n += 1
        self.sx += x
        self.sxx += x * x

    def head_to_head(self):
        n = self.n
        if n == 0:
            return None
        m = self.sx / n
        var = (self.sxx - n * m * m) / (n - 1) if n > 1 else 0.25
        return _head_to_head(n, m, var, n)

    def llr(self, sprt):
        return sprt.llr(self.n, self.sx, self.sxx)


def _head_to_head(games, m, var, samples):
    """The HeadToHead of a mean score ``m`` over ``samples`` independent samples (games, or
    pairs of games) of variance ``var``."""
    se = math.sqrt(max(var, 0.0) / samples)
    margin = 1.96 * se
    lo, hi = max(m - margin, 0.0), min(m + margin, 1.0)
    los = 0.5 if se == 0 else 0.5 * (1.0 + math.erf((m - 0.5) / (se * math.sqrt(2.0))))
    if se == 0 and m != 0.5:
        los = 1.0 if m > 0.5 else 0.0
    return HeadToHead(games=games, score=m, margin=margin, elo=score_to_elo(m),
                      elo_low=score_to_elo(lo), elo_high=score_to_elo(hi), los=los)


# the points of a game pair for engine 0 (its two games' scores summed): 0, 1/2, 1, 3/2, 2
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


class PairStream:
    """Two engines' games counted in pairs: the two games of a round of a two-seat
    tournament, which share their start with the seats swapped.  ``counts`` are the pairs
    engine 0 scored 0, 1/2, 1, 3/2 and 2 points in (fishtest's pentanomial: LL, LD+DL,
    LW+DD+WL, DW+WD, WW).  A pair counts once both of its games have; the games stream
    (``games``) has every game.

    Pairing the games cancels what the start gives one seat: the pairs are independent
    where the games of a pair are not, so the interval and the SPRT read the pairs."""
    model = "pentanomial"

    def __init__(self):
        self.counts = [0] * 5
        self.games = ScoreStream()
        self.waiting = {}            # pair key -> the score of its first game

    @property
    def n(self):
        return self.games.n

    @property
    def pairs(self):
        return sum(self.counts)

    def add(self, x, pair):
        """The score ``x`` of a game of the pair ``pair`` (any hashable key)."""
        self.games.add(x)
        first = self.waiting.pop(pair, None)
        if first is None:
            self.waiting[pair] = x
            return
        self.counts[int(round(2 * (first + x)))] += 1

    def head_to_head(self):
        """Engine 0's per-game score over the complete pairs, its 95% interval read from the
        spread of the pairs' scores (None before the first pair)."""
        n = self.pairs
        if n == 0:
            return None
        means = [p / 2 for p in PAIR_POINTS]
        m = sum(c * x for c, x in zip(self.counts, means)) / n
        var = (sum(c * (x - m) ** 2 for c, x in zip(self.counts, means)) / (n - 1)
               if n > 1 else 0.0625)
        h = _head_to_head(2 * n, m, var, n)
        h.pairs = n
        return h

    def llr(self, sprt):
        return sprt.llr_pairs(self.counts)


class SprtError(ValueError):
    pass


@dataclass(frozen=True)
class Sprt:
    """Sequential probability ratio test of H0: Elo <= elo0 against H1: Elo >= elo1 for the
    first engine against the second, on per-game scores x in [0, 1].

    The log-likelihood ratio is the usual normal approximation of the generalised SPRT:
        LLR = (s1 - s0) * (2 * sum(x) - n * (s0 + s1)) / (2 * v)
    with s0, s1 the expected scores at elo0, elo1 (logistic), m = sum(x) / n, and v the
    variance of the per-game scores, regularised by one virtual win and one virtual loss:
        v = (sum((x - m)^2) + (1 - m)^2 + m^2) / (n + 2)
    (so a short run of identical results does not decide on zero variance).  This is the
    test of unpaired games (the trinomial model: a game is won, drawn or lost).

    Paired games (``llr_pairs``: the pentanomial model, for the pairs of a two-seat
    tournament that share their start) are tested by the generalised SPRT on the five pair
    scores, as fishtest does: with p the observed frequencies of the pair scores a_i (0,
    1/4, 1/2, 3/4, 1 a game), q(s) is the distribution on the same scores with mean s that
    is most likely given p (q_i = p_i / (1 + x (a_i - s)), x the root of
    sum p_i (a_i - s) / (1 + x (a_i - s)) = 0), and
        LLR = n * sum p_i (ln q(s1)_i - ln q(s0)_i)
    over n pairs, a score never seen counting 0.001 pairs (so that p has no zero).

    H1 is accepted when LLR >= ln((1 - beta) / alpha), H0 when LLR <= ln(beta / (1 - alpha)).
    """
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text):
        """``elo0=0,elo1=10,alpha=0.05,beta=0.05`` (any subset; the rest default)."""
        values = {}
        for item in text.split(","):
            item = item.strip()
            if not item:
                continue
            name, eq, value = item.partition("=")
            name = name.strip().lower()
            if not eq or name not in ("elo0", "elo1", "alpha", "beta"):
                raise SprtError(f"bad SPRT setting {item!r}: expected elo0=, elo1=, alpha= or beta= "
                                "(e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05)")
            if name in values:
                raise SprtError(f"SPRT setting {name!r} given twice")
            try:
                values[name] = float(value)
            except ValueError:
                raise SprtError(f"SPRT setting {name} must be a number, got {value.strip()!r}") from None
            if not math.isfinite(values[name]):
                raise SprtError(f"SPRT setting {name} must be finite, got {value.strip()!r}")
        s = cls(**values)
        if not s.elo1 > s.elo0:
            raise SprtError(f"SPRT needs elo1 > elo0, got elo0={s.elo0:g}, elo1={s.elo1:g}")
        for name in ("alpha", "beta"):
            v = getattr(s, name)
            if not 0.0 < v < 0.5:
                raise SprtError(f"SPRT {name} must be between 0 and 0.5, got {v:g}")
        return s

    def as_dict(self):
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}

    def text(self):
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"

    @property
    def lower(self):
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self):
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, n, sx, sxx):
        if n == 0:
            return 0.0
        s0, s1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
        m = sx / n
        v = ((sxx - n * m * m) + (1.0 - m) ** 2 + m * m) / (n + 2)
        return (s1 - s0) * (2.0 * sx - n * (s0 + s1)) / (2.0 * v)

    def llr_pairs(self, counts):
        """The LLR of ``counts``, the pairs engine 0 scored 0, 1/2, 1, 3/2 and 2 points in."""
        if not sum(counts):
            return 0.0
        freq = [c if c else 0.001 for c in counts]
        n = sum(freq)
        p = [c / n for c in freq]
        values = [k / 4 for k in range(5)]
        x0 = _mean_constraint(values, p, elo_to_score(self.elo0))
        x1 = _mean_constraint(values, p, elo_to_score(self.elo1))
        s0, s1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
        return n * sum(pi * (math.log1p(x0 * (a - s0)) - math.log1p(x1 * (a - s1)))
                       for pi, a in zip(p, values))

    def decision(self, llr):
        """'H1' (elo >= elo1 accepted), 'H0' (elo <= elo0 accepted) or '' (go on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return ""

    def run_pairs(self, points):
        """Feed the points of game pairs (0, 1/2, 1, 3/2 or 2 for engine 0) in order:
        (decision, pairs used, llr) as ``run`` gives it for games."""
        counts, llr, n = [0] * 5, 0.0, 0
        for x in points:
            n += 1
            counts[int(round(2 * x))] += 1
            llr = self.llr_pairs(counts)
            d = self.decision(llr)
            if d:
                return d, n, llr
        return "", n, llr

    def run(self, scores):
        """Feed per-game scores in order: (decision, games used, llr) at the first game where
        the test decides, or ('', all games, llr) if it has not."""
        n, sx, sxx, llr = 0, 0.0, 0.0, 0.0
        for x in scores:
            n += 1
            sx += x
            sxx += x * x
            llr = self.llr(n, sx, sxx)
            d = self.decision(llr)
            if d:
                return d, n, llr
        return "", n, llr


def _mean_constraint(values, p, s):
    """The x of the distribution p_i / (1 + x (v_i - s)) that has mean ``s``: the root of
    f(x) = sum p_i (v_i - s) / (1 + x (v_i - s)), which falls from +inf to -inf between its
    poles -1 / (max v - s) and -1 / (min v - s) (``s`` strictly inside the values' range),
    found by halving the interval to the last bit."""
    d = [v - s for v in values]
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    while True:
        mid = 0.5 * (lo + hi)
        if not lo < mid < hi:
            return mid
        if sum(pi * di / (1.0 + mid * di) for pi, di in zip(p, d)) > 0:
            lo = mid
        else:
            hi = mid


def score_with_interval(score, margin, games):
    """'62.5% ± 12.0% (95%)'; an interval that would pass 0% or 100% is shown as its ends,
    and none where every game had the same result (a zero spread proves nothing)."""
    if margin <= 0:
        return (f"{100 * score:.1f}% (every one of the {games} games had the same result: "
                "too few for an interval)")
    if score - margin < 0 or score + margin > 1:
        return (f"{100 * score:.1f}% (95% interval {100 * max(score - margin, 0.0):.1f}% to "
                f"{100 * min(score + margin, 1.0):.1f}%)")
    return f"{100 * score:.1f}% ± {100 * margin:.1f}% (95%)"
