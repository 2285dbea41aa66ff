import json

import click

from roost.cli.describe import mover_text, move_names, over_text, question, result_text, sentence
from roost.cli.options import (Command, game_argument, load_position, moves_option, players_option,
                               seat_option)
from roost.core.errors import RoostError


def check_seat(seat, state):
    from roost.core.errors import SeatError
    from roost.search.engine import check_observer
    if seat is None:
        return
    try:
        check_observer(state, seat)
    except SeatError as e:
        raise click.BadParameter(str(e), param_hint="--as") from None


def check_pictures(svg, png):
    """Refuse a picture that could not be written, before any work."""
    from roost.arena.picture import check_picture_path
    for path, kind, option in ((svg, ".svg", "--svg"), (png, ".png", "--png")):
        if path is None:
            continue
        try:
            check_picture_path(path, kinds=(kind,))
        except RoostError as e:
            raise click.BadParameter(str(e), param_hint=option)


def status_lines(state, seat=None):
    """What happens next: the result, chance's turn, or the question and the legal moves."""
    if state.is_over:
        return ["game over: " + over_text(state)]
    if state.is_chance:
        return [f"chance is to act: {len(state.chances())} outcomes"]
    lines = []
    asked = question(state, seat)
    if asked:
        lines.append(f"decision: {asked}")
    if seat is None or seat == state.player or not state.hidden_info:
        names = move_names(state)
        lines.append(f"{sentence(mover_text(state))} to move, {len(names)} legal moves: " + " ".join(names))
    else:
        lines.append(f"{sentence(mover_text(state))} to move (its moves depend on what seat {seat} "
                     "cannot see)")
    return lines


def seen_text(state, seat):
    """The position text as ``seat`` sees it: its view on a game with hidden information
    (what the protocol sends that seat, and what show and analyse --as read back), else the
    position text."""
    if seat is None or not state.hidden_info:
        return state.text()
    return state.view(seat)


def as_dict(game, state, seat):
    hidden = seat is not None and state.hidden_info
    d = {"game": game.name, "players": state.players,
         "position": seen_text(state, seat),
         "seen_by": seat,
         "to_move": None if state.is_over else "chance" if state.is_chance else state.player,
         "side_to_move": mover_text(state) if not state.is_over else None,
         "over": state.is_over,
         "result": list(state.result()) if state.is_over else None,
         "result_text": result_text(state.result(), state) if state.is_over else None,
         "ending": state.ending(),
         "question": question(state, seat)}
    if state.is_chance:
        d["outcomes"] = len(state.chances())
    elif state.is_over or (hidden and seat != state.player):
        d["legal"] = []
    else:
        d["legal"] = state.legal_names()
    return d


@click.command("show", cls=Command)
@game_argument
@click.argument("position", nargs=-1)
@moves_option
@players_option
@seat_option
@click.option("--text", "text_only", is_flag=True, help="Print only the position text (to save and "
              "give back as POSITION).")
@click.option("--json", "as_json", is_flag=True, help="Print the position, the side to move, the "
              "legal moves and, once the game is over, the result as JSON.")
@click.option("--svg", default=None, metavar="FILE.svg", help="Also draw the position as an SVG "
              "picture (as seat --as sees it).")
@click.option("--png", default=None, metavar="FILE.png", help="Also draw it as a PNG picture "
              "(needs cairosvg: pip install 'roost[png]', or rsvg-convert).")
def command(game, position, moves, players, seat, text_only, as_json, svg, png):
    """Render a position, its text and its legal moves (or its result, once the game is over).

    POSITION is the position text (quoted, or as several words), a file holding it, or -
    to read it from standard input; without it, the game's default position.  --moves
    plays moves from it first.  With --as, the hidden cards of the other seats stay hidden,
    and the text printed (--text, --json) is the seat's view, what `roost engine` sends that
    seat: show and analyse read it back with the same --as (and only so: the cards it hides
    are not in it).

    \b
    Examples:
      roost show ducks
      roost show ducks "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0" --moves "e5 b3"
      roost show ducks --moves "W@a1 B@a2" --text > pos.txt; roost show ducks - < pos.txt
      roost show cubirds --as 1 --text > view.json; roost show cubirds view.json --as 1 --svg table.svg
      roost show connect4 4453 --json
    """
    if text_only and as_json:
        raise click.BadParameter("give --text or --json, not both", param_hint="--text")
    check_pictures(svg, png)
    state = load_position(game, position, players, moves, seat=seat)
    check_seat(seat, state)
    if text_only:
        click.echo(seen_text(state, seat))
    elif as_json:
        click.echo(json.dumps(as_dict(game, state, seat), indent=2))
    else:
        click.echo(state.render(observer=seat))
        if seat is None or not state.hidden_info:
            click.echo(f"position: {state.text()}")
        else:
            click.echo(f"seat {seat}'s view: {state.view(seat)}")
        for line in status_lines(state, seat):
            click.echo(line)
    for path in (svg, png):
        if path is None:
            continue
        from roost.arena.picture import position_svg, write_svg
        try:
            write_svg(path, position_svg(state, seat))
        except RoostError as e:
            raise click.ClickException(str(e))
        click.echo(f"picture written to {path}", err=text_only or as_json)
