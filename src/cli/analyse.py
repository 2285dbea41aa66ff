import inspect
import json

import click

from roost.cli.describe import result_text as game_over_text
from roost.cli.options import ENGINE, Command, engines_epilog, game_argument, json_option, load_position, moves_option, players_option, seat_option, seed_option


def format_result(r, state):
    lines = [f"engine   {r.engine}",
             f"best     {r.move_name}  (value {r.value:.3f} for player {r.player}, score {r.score})",
             f"pv       {' '.join(r.pv)}"]
    if r.values and len(r.values) > 2:
        lines.append("players  " + "  ".join(f"p{i} {v:.3f}" for i, v in enumerate(r.values))
                     + "  (each player's expected result after the best move)")
    if r.iterations:
        lines.append(f"search   {r.iterations:,} iterations, {r.nodes:,} tree nodes in {r.seconds:.2f} s "
                     f"({r.speed:,.0f} iterations/s)")
    else:
        lines.append(f"search   depth {r.depth}, {r.nodes:,} nodes in {r.seconds:.2f} s ({r.speed:,.0f} nodes/s)")
    if r.proven:
        lines.append(f"proof    the value is proven: {r.proven} for player {r.player}")
    elif r.expectation:
        lines.append("note     the value is an estimate (an expectation over chance or samples), not a proof")
    if r.info.get("information_sets") or r.info.get("determinized") or r.info.get("worlds"):
        lines.append("note     searched on the mover's information only (hidden cards determinized)")
    if r.stats:
        lines.append("moves")
        for s in r.stats[:20]:
            visits = f"  visits {s.visits:>8,}" if s.visits else ""
            proven = f"  {s.proven}" if s.proven else ""
            value = "  n/a" if s.value is None else ("<=" if s.bound == "upper" else "  ") + f"{s.value:.3f}"
            lines.append(f"  {s.name:<16} value {value}{visits}{proven}")
        if len(r.stats) > 20:
            lines.append(f"  ... {len(r.stats) - 20} more")
    return "\n".join(lines)


@click.command("analyse", cls=Command, epilog=engines_epilog())
@game_argument
@click.argument("position", nargs=-1)
@moves_option
@click.option("--engine", "-e", "spec", type=ENGINE, default="mcts:time=1", show_default=True,
              help="Engine spec, e.g. ab:depth=8, ab:time=1, mcts:iterations=20000,c=1.2.")
@players_option
@seat_option
@seed_option
@json_option
@click.option("--progress", is_flag=True,
              help="Print the search's progress to stderr: a line once it has a first result "
                   "(Ctrl-C from then on prints the search so far), then each depth or about "
                   "once a second.")
def command(game, position, moves, spec, players, seat, seed, as_json, progress):
    """Search a position and report the best move, its value, the principal variation,
    nodes and speed.

    \b
    Examples:
      roost analyse ducks --engine mcts:iterations=20000
      roost analyse ducks "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0" --engine ab:depth=6 --json
      roost analyse cubirds position.json --as 1 --engine ismcts:time=1
    """
    from roost.search.engines import parse_engine
    state = load_position(game, position, players, moves)
    if state.is_over:
        over = game_over_text(state.result(), state)
        click.echo(json.dumps({"over": True, "result": list(state.result()), "result_text": over})
                   if as_json else f"the game is over: {over}; there is nothing to analyse")
        return
    if state.is_chance:
        raise click.BadParameter("chance is to act here, not a player: play an outcome first",
                                 param_hint="POSITION")
    if spec == "human":
        raise click.BadParameter("'human' plays, it does not analyse", param_hint="--engine")
    if seat is not None and seat >= state.players:
        raise click.BadParameter(f"seat {seat} does not exist in a {state.players}-player game",
                                 param_hint="--as")
    if seat is not None and seat != state.player:
        raise click.BadParameter(
            f"player {state.player} is to move; analyse searches the mover's decision, so --as must be "
            f"{state.player} (or left out)", param_hint="--as")
    from roost.search.alphabeta import SearchInterrupted
    engine = parse_engine(spec)

    def show_progress(line):
        click.echo(f"info {line}", err=True)

    options = {}
    if progress:
        if "progress" in inspect.signature(engine.choose).parameters:
            options["progress"] = show_progress
        else:
            show_progress("this engine reports no progress")
    try:
        result = engine.choose(state, seed=seed, **options)
    except ValueError as e:
        raise click.ClickException(str(e))
    except SearchInterrupted as e:
        if hasattr(e.partial, "move_name"):
            click.echo(format_result(e.partial, state) if not as_json else json.dumps(e.partial.as_dict()))
        click.echo("interrupted: the search was stopped before its budget was spent", err=True)
        raise SystemExit(130)
    except KeyboardInterrupt:
        click.echo("interrupted before the search had a result", err=True)
        raise SystemExit(130)
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2))
    else:
        click.echo(format_result(result, state))
