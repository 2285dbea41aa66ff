import json

import click

from roost.cli.describe import over_text, result_text
from roost.cli.show import check_seat
from roost.core.errors import SeatError
from roost.cli.live import progress_option, reporter, value_text
from roost.cli.options import (ENGINE, Command, engines_epilog, game_argument, json_option, load_position,
                               moves_option, players_option, seat_option, seed_option)


VALUE_MEANS = "the expected result for the player to move: 0 a loss, 1 a win"


def format_result(r, state):
    from roost.cli.describe import side_name
    side = side_name(state, r.player)
    verdict = r.lines[0]["verdict"] if r.lines else _verdict(r)
    lines = [f"engine   {r.engine}"]
    seat = r.player if r.seat is None else r.seat
    if seat != r.player:
        seen = (f"from what {side_name(state, seat)} sees (the others' hidden cards drawn from its view, "
                "never read)" if state.hidden_info else "(everything is in view)")
        lines.append(f"for      {side_name(state, seat)}, {seen}; {side} is to move")
    if state.question(None) if hasattr(state, "question") else False:
        lines.append(f"decision {state.question(None)}")
    lines += [f"best     {_move_text(state, r.move)}  {value_text(r.value, verdict, side)}"
              + ("" if verdict else f"  ({VALUE_MEANS})"),
              f"pv       {' '.join(r.pv)}"]
    if seat != r.player:
        mine = ("not known to this engine" if r.seat_value is None
                else f"{r.seat_value:.3f} (its expected result, 0 a loss, 1 a win)")
        lines.append(f"seat     {side_name(state, seat)}: value {mine}")
    if r.values and len(r.values) > 2:
        lines.append("players  " + "  ".join(f"{side_name(state, i)} {v:.3f}" for i, v in enumerate(r.values))
                     + "  (each player's expected result after the best move)")
    if r.info.get("book"):
        lines.append(f"book     the move is from the opening book ({r.info['book']}), not searched")
    elif r.iterations:
        lines.append(f"search   {r.iterations:,} iterations, {r.nodes:,} tree nodes in {r.seconds:.2f} s "
                     f"({r.speed:,.0f} iterations/s)")
    else:
        lines.append(f"search   depth {r.depth}, {r.nodes:,} nodes in {r.seconds:.2f} s ({r.speed:,.0f} nodes/s)")
    if not r.proven:
        if r.expectation and r.iterations:
            lines.append("note     the value is an average over playouts, not a proof")
        elif r.expectation:
            lines.append("note     the value averages over chance outcomes (an expectation), not a proof")
    if r.info.get("information_sets") or r.info.get("determinized") or r.info.get("worlds"):
        lines.append(f"note     searched on {'the mover' if seat == r.player else side_name(state, seat)}'s "
                     "information only (hidden cards determinized)")
    if r.lines:
        lines.append(f"lines    the {len(r.lines)} best moves")
        for k, line in enumerate(r.lines, 1):
            lines.append(f"  {k}. {line['move']:<14} {value_text(line['value'], line['verdict'], side):<28} "
                         f"pv {' '.join(line['pv'])}")
    elif r.stats:
        lines.append("moves")
        for s in r.stats[:20]:
            visits = f"  visits {s.visits:>8,}" if s.visits else ""
            proven = f"  {s.proven}" if s.proven else ""
            value = "  n/a" if s.value is None else ("<=" if s.bound == "upper" else "  ") + f"{s.value:.3f}"
            lines.append(f"  {s.name:<16} value {value}{visits}{proven}")
        if len(r.stats) > 20:
            lines.append(f"  ... {len(r.stats) - 20} more")
    return "\n".join(lines)


def check_no_budget(spec):
    """A spec that gives a budget (time, nodes, depth) is refused with --infinite: the
    search runs until it is stopped (``Limit(infinite=True)``), and --infinite is its budget."""
    params = {p.name: p for p in spec.engine_type.params}
    given = [key for key in spec.engine_type.budget.values() if spec[key] != params[key].default]
    if given:
        raise click.BadParameter(f"--infinite searches until Ctrl-C: leave the budget "
                                 f"({', '.join(given)}) out of the engine spec {str(spec)!r}",
                                 param_hint="--infinite")


def _verdict(r):
    """The proven result in words ('win in 7', 'draw'), or ''."""
    if not r.proven:
        return ""
    if r.proven in ("win", "loss") and r.score.startswith(r.proven + " in "):
        return r.score
    return r.proven


def _move_text(state, move):
    """The move's name, explained where the game explains it (Wingspan's 'no (discard it)')."""
    from roost.cli.describe import move_names
    try:
        return move_names(state, [move])[0]
    except Exception:            # a move of a determinized world the real state cannot name
        return state.move_name(move)


@click.command("analyse", cls=Command, epilog=engines_epilog())
@game_argument
@click.argument("position", nargs=-1)
@moves_option
@click.option("--engine", "-e", "spec", type=ENGINE, default="auto", show_default=True,
              help="Engine spec, e.g. auto:time=0.5 (the strongest engine measured for the game), "
              "ab:depth=8, ab:time=1, mcts:iterations=20000,c=1.2.")
@players_option
@seat_option
@seed_option
@json_option
@progress_option
@click.option("--multipv", type=click.IntRange(1, 64), default=1, show_default=True, metavar="N",
              help="Report the N best moves, each with its value and line (alpha-beta searches "
              "once more for each line after the first).")
@click.option("--infinite", is_flag=True, help="Search until Ctrl-C (as the protocol's `go "
              "infinite`), printing the lines as it goes, then report the last one; the engine's "
              "spec gives no budget.")
def command(game, position, moves, spec, players, seat, seed, as_json, progress, multipv, infinite):
    """Search a position and report the best move, its value, the principal variation,
    nodes and speed.

    The value is the expected result for the player to move (0 a loss, 1 a win; with more
    players, their share), or "win in N" / "loss in N" / "draw" (plies) once proven.  While
    it searches, the progress goes to stderr (--quiet: none).

    --as SEAT analyses for any seat: the search reads only what that seat sees (the other
    seats' hidden cards are drawn from its view), the move is the one the player to move
    would best make as far as that seat can tell, and the seat's own value is reported too.

    --infinite searches until Ctrl-C stops it, as the protocol's `go infinite` does (or
    until the search has nothing left to do: a proof, alpha-beta's deepest depth), printing
    its lines on stderr as it goes, and then reports where it stood.

    \b
    Examples:
      roost analyse ducks --engine mcts:iterations=20000
      roost analyse ducks "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0" --engine ab:depth=6 --json
      roost analyse ducks --moves "W@a1 B@e9" --engine ab:depth=4 --multipv 3
      roost show cubirds --as 1 --text > view.json; roost analyse cubirds view.json --as 1 -e ismcts:time=1
    """
    state = load_position(game, position, players, moves, seat=seat)
    if state.is_over:
        click.echo(json.dumps({"over": True, "result": list(state.result()),
                               "result_text": result_text(state.result(), state), "ending": state.ending()})
                   if as_json else f"the game is over: {over_text(state)}; there is nothing to analyse")
        return
    if state.is_chance:
        raise click.BadParameter("chance is to act here, not a player: play an outcome first",
                                 param_hint="POSITION")
    if spec == "human":
        raise click.BadParameter("'human' plays, it does not analyse", param_hint="--engine")
    check_seat(seat, state)
    from roost.search.alphabeta import SearchInterrupted
    from roost.search.limit import Limit
    from roost.search.result import SearchResult
    if infinite:
        check_no_budget(spec)
    engine = spec.engine()

    options = {}
    if seat is not None:
        if not engine.any_seat:
            raise click.BadParameter(f"engine '{engine.kind}' analyses for the player to move only",
                                     param_hint="--as")
        options["observer"] = seat
    options["progress"] = reporter(progress, as_json)
    if multipv > 1:
        if not engine.gives_lines(state):
            raise click.BadParameter(f"engine '{engine.playing(state)}' reports one move only", param_hint="--multipv")
        options["multipv"] = multipv
    try:
        result = engine.choose(state, Limit(infinite=True) if infinite else None, seed=seed, **options)
    except SeatError as e:
        raise click.BadParameter(str(e), param_hint="--as")
    except ValueError as e:
        raise click.ClickException(str(e))
    except SearchInterrupted as e:
        if isinstance(e.partial, SearchResult):
            click.echo(format_result(e.partial, state) if not as_json else json.dumps(e.partial.as_dict()))
        if infinite:
            click.echo("stopped: the report is where the search stood when it was stopped", err=True)
            return
        click.echo("interrupted: the search was stopped before its budget was spent", err=True)
        raise SystemExit(130)
    except KeyboardInterrupt:
        click.echo("interrupted before the search had a result", err=True)
        raise SystemExit(130)
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2))
    else:
        click.echo(format_result(result, state))
