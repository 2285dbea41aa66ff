"""The ``auto`` engine: the strongest configuration measured for the game and the player
count at hand, at the budget given (``auto:time=0.5``, ``auto:nodes=100000``).

The table below is data: each game and player count names the searcher and the settings
that won the matches recorded in docs/strength.md (which gives the command and the score
with its interval behind every entry).  A spec is resolved when the engine first sees a
position, since a spec does not name its game; the resolved spec is reported in the
search result's ``info["auto"]``.

On two-player games of perfect information a bounded proof (src/search/proofs.py) follows
the main search in the part of the budget the search left, the search's move tested first;
with ``threads=2`` or more it runs beside the main search instead, on a thread of its own
for the whole move, and the main search takes the other threads where its engine has them.
A position the proof shows won or drawn is played by the proof, and the search's move is
never one the proof showed to lose while another is not.

Where another engine measured stronger at short budgets, ``SHORT`` names it and the budget
below which it plays: the choice follows the spec's time a move (a node budget alone, or no
budget, counts as the default second), so one game's engine does not change from move to
move under a clock.

In a position its opening book holds (``roost.search.book``; the game's own book, or
``book=FILE``), auto plays the book's move without searching.
"""
from dataclasses import dataclass, replace

from roost.search.alphabeta import MAX_THREADS as AB_THREADS, SearchInterrupted
from roost.search.alphabeta_engine import AlphaBetaEngine
from roost.search.book import book_for, book_result
from roost.search.engine import Engine
from roost.search.limit import Limit
from roost.search.mcts import MAX_THREADS as MCTS_THREADS
from roost.search.mcts_engine import IsmctsEngine, MctsEngine
from roost.search.spec import EngineSpec, Param
from roost.search.proofs import (PROOF_MAX_SECONDS, PROOF_SHARE, Prover, keep_proven, provable,
                                 provable_game)

DEFAULT_SECONDS = 1.0
MAX_THREADS = min(AB_THREADS, MCTS_THREADS)      # as many as any engine auto chooses takes


@dataclass(frozen=True)
class Choice:
    engine: EngineSpec     # the engine and its settings besides the budget
    why: str               # the measurement behind it (docs/strength.md has the details)

    @property
    def kind(self):
        return self.engine.kind

    def spec(self, seconds=0.0, nodes=0):
        """The chosen engine's spec at ``seconds`` a move or ``nodes`` (the kind's own node
        budget: alpha-beta nodes, MCTS iterations); neither: the default second."""
        budget = self.engine.engine_type.budget
        given = {}
        if nodes:
            given[budget["nodes"]] = nodes
        if seconds or not nodes:
            given[budget["time"]] = seconds or DEFAULT_SECONDS
        return self.engine.replace(**given)


def _mcts(**settings):
    return EngineSpec.of(MctsEngine, **settings)


def _ismcts(**settings):
    return EngineSpec.of(IsmctsEngine, **settings)


def _ab(**settings):
    return EngineSpec.of(AlphaBetaEngine, **settings)


# (game, players) -> Choice; a game listed with player count None covers every count not
# listed on its own.
TABLE = {
    ("ducks", 2): Choice(
        _mcts(c=0.2, discount=0.95, plies=16),
        "MCTS whose playout results are discounted by their length (0.95 a ply), whose "
        "playouts stop after 16 plies and take the fitted evaluation, and which explores less: "
        "from 0.1 s a move plain MCTS is ahead of alpha-beta with the fitted evaluation (63.3% "
        "over 30 games at 0.1 s), which wins below 0.1 s (SHORT). At 0.2 s: 89.4% against "
        "plain MCTS over 80 games (17 at the cap, 21%) and 85.0% against the fitted alpha-beta "
        "over 20, none lost; at 0.1 s 95.0% and 97.5% against them over 20 each. The cut-off "
        "runs about 1.4 times the iterations"),
    ("tweeeet", 2): Choice(
        _ab(lmr=True),
        "alpha-beta (expectimax at the rows) with the fitted evaluation beats mcts, ismcts and "
        "pimc at 0.05 s; late move reductions beat the same search without them 59.2% over "
        "360 games at 0.05 s and 0.2 s; level with the best MCTS, open-loop "
        "mcts:imm=0.8,chance=open (46.0% over 300 games at 0.2 s)"),
    ("connect4", 2): Choice(
        _mcts(playout="decisive"),
        "MCTS whose playouts take a win at once and avoid a loss at once (search_moves): 66.2% "
        "over 160 games against alpha-beta at 0.05 s, 62.0% over 100 at 0.2 s, 75.0% against "
        "plain mcts; the MCTS solver still proves endgames"),
    ("cubirds", None): Choice(
        _ab(paranoid=True),
        "paranoid alpha-beta (at 2 players plain two-player alpha-beta): in the gauntlets at "
        "0.05 s it beat mcts, ismcts and pimc at 2 players (48/60, 45/60, 16/20), 3 players "
        "(26/36, 25.5/36, 27/36) and 4 players (47.5/72, 47.5/72, 47/72), each interval above "
        "50%; at 5 players too (71.5/120, 73/120, 72/120)"),
    ("leaves", None): Choice(
        _ab(paranoid=True),
        "paranoid alpha-beta (at 2 players plain two-player alpha-beta): in the gauntlets at "
        "0.05 s it beat mcts, ismcts and pimc 20/20 each at 2 players, at least 32/36 each at 3 "
        "and at least 39.5/48 each at 4 (the game's every player count)"),
    ("wingspan", 1): Choice(
        _ismcts(),
        "information-set MCTS with whole playouts: 77 points a game at 1 s a move (the "
        "playout's score is the solo utility)"),
    # with more players a playout's 40 plies cover fewer turns of each player: the cut-off
    # scales with the count, 20 plies a player (docs/strength.md, "Wingspan with 3 to 5
    # players: 20 plies a player")
    ("wingspan", 3): Choice(
        _ismcts(plies=60, quiet=True),
        "information-set MCTS whose playouts stop after 60 plies (20 a player), finish the "
        "turn they are in and take the fitted evaluation: at 0.05 s 53.9% against mcts (= "
        "ismcts on Wingspan) over 531 games, the interval above 50%, +5.1% a game over the "
        "same games without quiet=1; 56.2% against pimc over 168 games, the interval above 50%"),
    ("wingspan", 4): Choice(
        _ismcts(plies=80),
        "information-set MCTS whose playouts stop after 80 plies (20 a player) and take the "
        "fitted evaluation: at 0.05 s 57.8%, 59.4% and 60.5% against ismcts, mcts and pimc "
        "over 128 games, each interval above 50%"),
    ("wingspan", 5): Choice(
        _ismcts(plies=100),
        "information-set MCTS whose playouts stop after 100 plies (20 a player) and take the "
        "fitted evaluation: at 0.05 s 61.9%, 64.4% and 66.3% against ismcts, mcts and pimc over "
        "two runs of 50 games, each pooled interval above 50%"),
    ("wingspan", None): Choice(
        _ismcts(plies=40),
        "information-set MCTS whose playouts stop after 40 plies (20 a player) and take the "
        "fitted evaluation: ahead of plain ismcts, mcts and pimc at 0.05 s with 2 players"),
}
FALLBACK = Choice(_mcts(), "no measurement for this game: plain MCTS")


@dataclass(frozen=True)
class Short:
    below: float           # seconds a move: a budget below this plays `choice`
    choice: Choice


# (game, players) -> the choice for budgets below a time a move, where it differs
SHORT = {
    ("ducks", 2): Short(0.1, Choice(
        _ab(),
        "alpha-beta with the fitted evaluation: 10/10 against mcts, ismcts and pimc at "
        "0.05 s, 83.8% against mcts over 40 more; the fitted weights beat the hand-set ones "
        "75.7%")),
}


def choice_for(game, players, seconds=DEFAULT_SECONDS):
    """The choice for ``game`` with ``players`` at ``seconds`` a move."""
    short = SHORT.get((game, players))
    if short is not None and seconds < short.below:
        return short.choice
    return TABLE.get((game, players)) or TABLE.get((game, None)) or FALLBACK


def resolve(game, players, seconds=0.0, nodes=0):
    """The engine spec (an EngineSpec) ``auto`` plays for ``game`` with ``players`` at this
    budget."""
    return choice_for(game, players, seconds or DEFAULT_SECONDS).spec(seconds, nodes)


class AutoEngine(Engine):
    """The strongest measured configuration for the position's game and player count."""
    kind = "auto"
    summary = "the strongest engine measured for the game and player count (docs/strength.md)"
    params = (
        Param("time", float, 0.0, f"seconds per move (default {DEFAULT_SECONDS:g} when no nodes are set)", 0.0),
        Param("nodes", int, 0, "a node budget instead: alpha-beta nodes or MCTS iterations, "
              "whichever engine is chosen", 0),
        Param("threads", int, 1, "threads: the chosen engine's, and where a proof runs "
              "(two players, nothing hidden), one of them the proof's, beside the main search",
              1, maximum=MAX_THREADS),
        Param("book", str, "game", "the opening book: game (the one roost ships for the game, "
              "if any), none, or a book file made by roost book", valid=book_for),
    )
    # a depth limit is passed on to the engine chosen, where that one has a depth (alpha-beta)
    budget = {"time": "time", "nodes": "nodes"}

    def __init__(self, spec=None):
        super().__init__(spec)
        self._key = None
        self._inner = None
        self._beside = False       # the proof runs on a thread of its own (threads=2 or more)
        self._prover = Prover()

    def playing(self, state):
        return f"{self.spec} ({self.engine_for(state).spec})"

    def gives_lines(self, state):
        return self.engine_for(state).gives_lines(state)

    def limited_by(self, state):
        return set(self.budget) | (self.engine_for(state).limited_by(state) & {"depth"})

    def engine_for(self, state):
        """The configured engine for ``state``'s game and player count (built once)."""
        key = (state.name, state.players)
        if key != self._key:
            spec = resolve(*key, self.spec["time"], self.spec["nodes"])
            threads = self.spec["threads"]
            self._beside = threads > 1 and provable_game(state)
            if any(p.name == "threads" for p in spec.engine_type.params):
                spec = spec.replace(threads=threads - self._beside)
            self._inner = spec.engine()
            self._key = key
        return self._inner

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        if observer in (None, state.player):
            booked = book_result(book_for(self.settings["book"], state.name), state, str(self.spec))
            if booked is not None:
                return booked
        inner = self.engine_for(state)
        if inner.kind == "ab" and state.players > 2 and observer not in (None, state.player):
            # paranoid alpha-beta values the position for the mover only: another seat's
            # analysis needs every player's value, which MCTS keeps
            inner = self._for_another_seat(state)
        if limit is not None and limit.infinite:
            within = limit            # the chosen engine's own budget is lifted too
        else:
            s = self.spec.within(limit, state)
            within = Limit(time=s["time"] or None, nodes=s["nodes"] or None,
                           depth=limit.depth if limit is not None else None)
        # a proof where one is cheap: two players, nothing hidden, a game that bounds its
        # length; not under a depth limit, in an analysis without end or of several lines
        # (those are the main search's)
        proving = (provable(state) and observer in (None, state.player) and within.depth is None
                   and not within.infinite and multipv == 1)
        beside = None
        if proving:
            seconds = within.time or (0.0 if within.nodes else DEFAULT_SECONDS)
            proof_nodes = int(PROOF_SHARE * (within.nodes or 0))
            if self._beside:
                # the proof on its own thread for the whole move, the main search beside it
                beside = self._prover.start(state, seconds=min(seconds, PROOF_MAX_SECONDS),
                                            nodes=proof_nodes)
            elif seconds:
                # the main search first, then the proof in the time it left, its move first
                within = replace(within, time=seconds - min(PROOF_SHARE * seconds, PROOF_MAX_SECONDS))
        try:
            result = inner.choose(state, within, seed=seed, observer=observer, progress=progress,
                                  multipv=multipv)
        except BaseException:
            if beside is not None:
                beside.stop()
            raise
        result.info["auto"] = str(inner.spec)
        result.engine = f"{self.spec} ({inner.spec})"
        if proving and result.proven:
            # the main search's own solver settled it: the proof has nothing to add
            proving = False
            if beside is not None:
                beside.stop()
        if proving:
            if beside is not None:
                proof = beside.result()
            else:
                left = min(max(seconds - result.seconds, 1e-3), PROOF_MAX_SECONDS) if seconds else 0.0
                try:
                    proof = self._prover.prove(state, seconds=left, nodes=proof_nodes, first=result.move)
                except KeyboardInterrupt:
                    # Ctrl-C (or the protocol's stop) during the proof: the main search's move
                    raise SearchInterrupted(result) from None
            if proof.value in ("win", "draw"):
                # played as proven (src/search/proofs.py)
                proven = proof.result(state, f"{self.spec} (proof)")
                proven.info["auto"] = str(inner.spec)
                return proven
            keep_proven(result, state, proof)
        return result

    def _for_another_seat(self, state):
        """Plain MCTS at auto's budget."""
        return Choice(_mcts(), "").spec(self.spec["time"], self.spec["nodes"]).engine()

    def advance(self, move):
        if self._inner is not None:
            self._inner.advance(move)

    def new_game(self):
        if self._inner is not None:
            self._inner.new_game()
        self._prover.new_game()

