import json
import sys

import click

from roost.cli.options import Command

from roost.arena.match import ending_text, is_forfeit


def _ending(states, record):
    """Why the game ended: the record's word, else (a record that does not say) the final
    position's own."""
    final = states[-1][0]
    return record.ending or (final.ending() if final.is_over else None)


def _show(states, k, record):
    state, mover, name = states[k]
    n = len(states) - 1
    if k == 0:
        head = f"game {record.id}: start ({n} plies)"
    else:
        who = "chance" if mover == -1 else f"p{mover} ({record.seats[mover]})"
        spent = record.times[k - 1] if k - 1 < len(record.times) else 0.0
        head = f"ply {k}/{n}: {who} plays {name}" + (f" in {spent:.3f}s" if mover != -1 else "")
    lines = [head, state.render()]
    ending = _ending(states, record)
    if k == n and (state.is_over or ending):
        lines.append("result: " + " ".join(f"p{i}={r:g}" for i, r in enumerate(record.result)))
    if k == n and ending:
        lines.append("ended: " + ending_text(ending, record.seats))
    return "\n".join(lines)


FOLLOW_EVERY = 0.25       # seconds between two looks at a game followed


@click.command("replay", cls=Command)
@click.argument("source", type=click.Path(dir_okay=False))
@click.argument("game_id", type=click.IntRange(1, (1 << 63) - 1), required=False)   # an SQLite integer
@click.option("--follow", is_flag=True, help="Watch a game being played: print its moves as the "
              "tournament writes them, then its result (GAME_ID, or the first game in progress).")
@click.option("--ply", type=click.IntRange(0, (1 << 31) - 1), default=None,
              help="Show only the position after this many plies.")
@click.option("--all", "show_all", is_flag=True,
              help="Print every position in turn instead of stepping (the default off a terminal).")
@click.option("--step", is_flag=True, help="Step interactively even when not at a terminal "
              "(keys are read from standard input).")
@click.option("--json", "as_json", is_flag=True, help="Print the game record as JSON.")
@click.option("--svg", "svg_dir", default=None, metavar="DIR",
              help="Write one SVG picture per ply into DIR (created if missing): "
              "game-ID-ply-NNN.svg, from the start position to the end.")
def command(source, game_id, follow, ply, show_all, step, as_json, svg_dir):
    """Step through a stored game: SOURCE is a tournament database or a `roost export`
    file, GAME_ID the game's number (as the tournament and export show it).

    At a terminal: Enter or n steps forward, b back, a number jumps to that ply,
    s to the start, e to the end, q quits.  Every move is checked as it replays.

    With --follow, watch a game of a running tournament (its database): each move as it is
    played (the tournament writes them a few times a second), then the result; it ends
    when the game does, or when the tournament stops before it (Ctrl-C stops watching).

    The examples read t.db, a tournament database (`roost tournament ... --db t.db`, as in
    the README's tour), and games.jsonl, its `roost export`.

    \b
    Examples:
      roost replay t.db 3
      roost replay games.jsonl 3 --ply 24
      roost replay t.db 3 --all
      roost replay games.jsonl 3 --svg pictures/
      roost replay t.db 3 --follow
    """
    from roost.arena.records import load_game, replay
    if follow:
        if ply is not None or show_all or step or as_json or svg_dir is not None:
            raise click.BadParameter("--follow prints the moves as they come: it takes no --ply, "
                                     "--all, --step, --json or --svg", param_hint="--follow")
        _follow(source, game_id)
        return
    if game_id is None:
        raise click.BadParameter("which game? give its number (GAME_ID), or --follow to watch "
                                 "the game being played", param_hint="GAME_ID")
    if svg_dir is not None:
        _check_folder(svg_dir)
    record = load_game(source, game_id)
    states = replay(record)
    n = len(states) - 1
    if svg_dir is not None:
        _write_pictures(svg_dir, record, states)
        return
    if as_json:
        d = record.as_dict()
        d["id"], d["engines"], d["ending"] = record.id, record.engines, _ending(states, record)
        click.echo(json.dumps(d))
        return
    seats = ", ".join(f"p{i}={s}" for i, s in enumerate(record.seats))
    click.echo(f"{record.game}, game {record.id}: {seats}; seed {record.seed}; "
               f"result {' '.join(f'{r:g}' for r in record.result)} after {n} plies")
    if record.opening:
        click.echo(f"opening {record.opening['index']} of the suite: {record.opening['text']}")
    ending = _ending(states, record)
    if ending:
        click.echo(("ended early: " if is_forfeit(ending) else "ended: ")
                   + ending_text(ending, record.seats))
    if ply is not None:
        if ply > n:
            raise click.BadParameter(f"game {game_id} has {n} plies, not {ply}", param_hint="--ply")
        click.echo(_show(states, ply, record))
        return
    interactive = step or (not show_all and sys.stdin.isatty() and sys.stdout.isatty())
    if not interactive:
        for k in range(n + 1):
            click.echo(_show(states, k, record))
            click.echo("")
        return
    k = 0
    while True:
        click.echo(_show(states, k, record))
        try:
            cmd = click.prompt("[Enter/n] next  b back  NUMBER ply  s start  e end  q quit",
                               default="", show_default=False).strip().lower()
        except (EOFError, click.Abort):
            return
        if cmd in ("", "n"):
            if k == n:
                return
            k += 1
        elif cmd == "b":
            k = max(0, k - 1)
        elif cmd == "s":
            k = 0
        elif cmd == "e":
            k = n
        elif cmd == "q":
            return
        elif cmd.isdigit() and int(cmd) <= n:
            k = int(cmd)
        else:
            click.echo(f"  {cmd!r}? Enter or n, b, a ply from 0 to {n}, s, e or q")


def _move_line(ply, mover, name, seconds, seats):
    who = "chance" if mover == -1 else f"p{mover} ({seats[mover]})"
    return f"{ply:>5}. {who}: {name}" + (f"  {seconds:.3f}s" if mover != -1 else "")


def _follow(source, game_id):
    """Print the moves of a game in progress as the database gains them, then its end."""
    import time
    from roost.arena.records import game_in_progress, replay
    shown, seats, started = 0, None, False
    while True:
        playing, done, config = game_in_progress(source, game_id)
        if playing is None and done is None:
            if not started:
                what = (f"no game {game_id} is being played or stored in {source}" if game_id
                        else f"no game is being played in {source} now")
                raise click.ClickException(what)
            raise click.ClickException(f"game {game_id} is no longer being played: the tournament "
                                       "stopped before it ended (it is played again when the "
                                       "tournament resumes)")
        game = playing or {"id": done.id, "seats": done.seats, "moves": done.names,
                           "movers": done.movers, "times": done.times}
        if not started:
            game_id, seats, started = game["id"], game["seats"], True
            seated = ", ".join(f"p{i}={s}" for i, s in enumerate(seats))
            click.echo(f"{config['game']}, game {game_id}: {seated}"
                       + ("; being played (Ctrl-C stops watching)" if playing else "; finished"))
        if len(game["moves"]) < shown:         # the game started again
            shown = 0
            click.echo("(the game started again)")
        for k in range(shown, len(game["moves"])):
            click.echo(_move_line(k + 1, game["movers"][k], game["moves"][k], game["times"][k], seats))
        shown = len(game["moves"])
        if done is not None:
            states = replay(done)
            click.echo(states[-1][0].render())
            click.echo("result: " + " ".join(f"p{i}={r:g}" for i, r in enumerate(done.result)))
            ending = _ending(states, done)
            if ending:
                click.echo("ended: " + ending_text(ending, done.seats))
            return
        time.sleep(FOLLOW_EVERY)


def _check_folder(folder):
    """Refuse, before any work, a folder the pictures could not go into."""
    import os
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise click.BadParameter(f"{folder!r} is a file, not a folder", param_hint="--svg")
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(folder) and not os.path.isdir(parent):
        raise click.BadParameter(f"{folder!r}: the folder {parent} does not exist", param_hint="--svg")
    if not os.access(folder if os.path.isdir(folder) else parent, os.W_OK | os.X_OK):
        raise click.BadParameter(f"{folder!r}: cannot write there (permission denied)", param_hint="--svg")


def _write_pictures(folder, record, states):
    import os
    from roost.arena.picture import position_svg, write_svg
    from roost.core.errors import RoostError
    os.makedirs(folder, exist_ok=True)
    width = max(3, len(str(len(states) - 1)))
    try:
        for k, (state, _, _) in enumerate(states):
            write_svg(os.path.join(folder, f"game-{record.id}-ply-{k:0{width}d}.svg"), position_svg(state))
    except RoostError as e:
        raise click.ClickException(str(e))
    click.echo(f"{len(states)} pictures written to {folder} (game {record.id}, plies 0 to {len(states) - 1})")
