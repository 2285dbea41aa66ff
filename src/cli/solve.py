import json

import click

from roost.cli.describe import over_text, result_text, side_name
from roost.cli.live import progress_option, reporter
from roost.cli.options import (SECONDS, Command, game_argument, json_option, load_position, moves_option,
                               players_option)
from roost.core.errors import RoostError
from roost.search.alphabeta import MAX_THREADS, MAX_TT_MB
from roost.search.alphabeta_engine import AlphaBetaEngine
from roost.search.result import SearchResult
from roost.search.spec import EngineSpec


@click.command("solve", cls=Command)
@game_argument
@click.argument("position", nargs=-1)
@moves_option
@players_option
@click.option("--time", "seconds", type=SECONDS, default=0.0,
              help="Give up after this many seconds (default: no limit; Ctrl-C stops too).")
@click.option("--tt", type=click.IntRange(1, MAX_TT_MB), default=256, show_default=True,
              help=f"Transposition table size in MB (1 to {MAX_TT_MB}).")
@click.option("--threads", type=click.IntRange(1, MAX_THREADS), default=1, show_default=True,
              help=f"Search threads (1 to {MAX_THREADS}; Lazy SMP: the proven result is the same, "
              "the node count and the line shown may differ from run to run).")
@json_option
@progress_option
def command(game, position, moves, players, seconds, tt, threads, as_json, progress):
    """Prove the exact result of a position with alpha-beta (deepening until proven).

    POSITION is the position text, a file holding it, or - for standard input; without it,
    the game's default position.  Works on two-player positions with no chance ahead; the
    search prints each depth as it finishes (on stderr; JSON lines with --json; --quiet
    prints none), and an interrupted or timed-out search says what it had.  The result is
    for the player to move: "win in N", "loss in N" (plies) or "draw"; the line runs to
    the end of the game.

    \b
    Example:
      roost solve ducks "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39"
      roost solve connect4 2214625612264131 --threads 2
    """
    from roost.search.alphabeta import ChanceInSolve, SearchInterrupted, score_text
    state = load_position(game, position, players, moves)
    if state.is_over:
        click.echo(json.dumps({"over": True, "result": list(state.result()),
                               "result_text": result_text(state.result(), state), "ending": state.ending()})
                   if as_json else f"the game is already over: {over_text(state)}")
        return
    if state.is_chance:
        raise click.ClickException("chance is to act in this position: solve needs a position with no chance left")
    if state.players != 2:
        raise click.ClickException(f"solve proves two-player results; this position has {state.players} players")
    if state.hidden_info:
        raise click.ClickException(f"{game.title} has hidden information: its result cannot be proven from one seat")
    try:
        engine = EngineSpec.of(AlphaBetaEngine, tt=tt, threads=threads, time=seconds).engine()
    except RoostError as e:
        raise click.BadParameter(str(e), param_hint="--tt")
    depths = []

    def on_depth(depth, score, pv, nodes, secs):
        depths.append((depth, score, pv, nodes, secs))

    try:
        r = engine.choose(state, seed=0, solve=True, callback=on_depth,
                          progress=reporter(progress, as_json))
    except ChanceInSolve as e:
        raise click.ClickException(str(e))
    except RoostError as e:
        raise click.ClickException(str(e))
    except (SearchInterrupted, KeyboardInterrupt) as e:
        if as_json:
            partial = getattr(e, "partial", None)
            out = partial.as_dict() if isinstance(partial, SearchResult) else _interrupted_json(state, depths)
            out["verdict"] = "interrupted"
            click.echo(json.dumps(out, indent=2))
        elif depths:
            d, score, pv, nodes, secs = depths[-1]
            click.echo(f"interrupted: unproven after depth {d} ({score_text(score)}, {nodes:,} nodes)")
        else:
            click.echo("interrupted before the first depth finished")
        raise SystemExit(130)
    verdict = r.proven or "unproven"
    exact = _solver_score(state, r)
    if r.proven in ("win", "loss"):
        r.pv = _to_the_end(state, r.pv, int(r.score.split()[-1]), tt)
    elif r.proven == "draw":
        r.pv = _to_the_end(state, r.pv, None, tt)
    if as_json:
        out = r.as_dict()
        out["verdict"] = verdict
        if exact is not None:
            out["solver_score"] = exact
        click.echo(json.dumps(out, indent=2))
        return
    if r.proven:
        said = r.score if r.proven != "draw" else "draw"          # "win in 7", "loss in 4"
        click.echo(f"{said} for {side_name(state, r.player)} (player {r.player}); best move "
                   f"{r.move_name}; pv {' '.join(r.pv)}")
        if exact is not None:
            click.echo(f"solver score {exact} (the convention of published solvers of this game)")
    else:
        click.echo(f"unproven within the limit: best so far {r.move_name} (value {r.value:.3f} for "
                   f"{side_name(state, r.player)}) at depth {r.depth}")
    click.echo(f"{r.nodes:,} nodes in {r.seconds:.2f} s")


def _to_the_end(state, pv, plies, tt):
    """A proven line of ``plies`` plies (a draw's: None, as long as the game) run to the end
    of the game: where the search's line stops short (a position settled by the table or by
    a win at once leaves no line below it; a drawn node's table word may keep only a bound),
    the position at its end is solved again and its line appended, until the game ends."""
    line, s = list(pv), state.copy()
    for name in line:
        s.play_move(s.parse_move(name))
    try:
        while (plies is None or len(line) < plies) and not s.is_over and not s.is_chance:
            rest = EngineSpec.of(AlphaBetaEngine, tt=tt).engine().choose(s, seed=0, solve=True)
            if not rest.proven or not rest.pv:
                break
            for name in rest.pv:
                s.play_move(s.parse_move(name))
                line.append(name)
    except KeyboardInterrupt:
        pass                    # the proof stands; its line is as long as it got
    return line


def _interrupted_json(state, progress):
    """What a solve interrupted outside the search knew: the last depth that finished."""
    from roost.search.alphabeta import score_text, score_to_value
    out = {"player": state.player, "depth": 0, "move": None, "score": None, "value": None,
           "pv": [], "nodes": 0}
    if progress:
        d, score, pv, nodes, secs = progress[-1]
        names, s = [], state.copy()
        for m in pv:
            names.append(s.move_name(m))
            s.play_unchecked(m)
        out.update(depth=d, move=names[0] if names else None, score=score_text(score),
                   value=round(score_to_value(score), 4), pv=names, nodes=nodes)
    return out


def _solver_score(state, r):
    """The proven value in the convention of the game's published perfect solvers, for a
    game that has one (``solver_score(proven, plies)``, e.g. Connect Four's), else None."""
    if not r.proven or not hasattr(state, "solver_score"):
        return None
    plies = 0 if r.proven == "draw" else int(r.score.split()[-1])   # "win in 7", "loss in 4"
    return state.solver_score(r.proven, plies)
