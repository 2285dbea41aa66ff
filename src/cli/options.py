"""Shared Click parameter types and option decorators: every command names games, positions,
engines and seeds the same way, and bad values fail with one clear message."""
import os
import re
import sys

import click

from roost.core.errors import RoostError


class GameType(click.ParamType):
    """A game name or alias -> its GameInfo."""
    name = "game"

    def convert(self, value, param, ctx):
        from roost.core.games import get_game
        if not isinstance(value, str):
            return value
        try:
            return get_game(value)
        except RoostError as e:
            self.fail(str(e), param, ctx)


class EngineType(click.ParamType):
    """An engine spec -> its EngineSpec, read and checked once (the command builds fresh
    engines from it); ``human`` is the person at the terminal."""
    name = "engine"

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        if value.strip().lower() == "human":
            return "human"
        try:
            from roost.arena.engines import parse_spec
            return parse_spec(value)
        except RoostError as e:
            self.fail(str(e), param, ctx)


class Seconds(click.ParamType):
    """A time limit in seconds: a finite number from 0 to the searchers' maximum (NaN and
    infinity are refused: a search must be able to tell when its time is up)."""
    name = "seconds"

    def convert(self, value, param, ctx):
        import math
        from roost.search.engines import MAX_SECONDS
        if isinstance(value, float) and math.isfinite(value) and 0 <= value <= MAX_SECONDS:
            return value
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0 <= seconds <= MAX_SECONDS:
            self.fail(f"{value!r} is not a time from 0 to {MAX_SECONDS:g} seconds", param, ctx)
        return seconds


GAME = GameType()
ENGINE = EngineType()
SECONDS = Seconds()


def engines_epilog():
    """The engine kinds and their parameters, for a command's --help."""
    from roost.arena.engines import describe_engines
    return "\b\nEngines (spec = kind:name=value,...):\n" + "\n".join(
        "  " + line for line in describe_engines())


def game_argument(f):
    return click.argument("game", type=GAME)(f)


def players_option(f):
    return click.option("--players", "-n", type=click.IntRange(1, 5), default=None,
                        help="Number of players (default: the game's, as `roost games` lists it).")(f)


def check_players(game, players, hint="--players"):
    """--players against the game's range, blamed on the option the user gave."""
    if players is not None and not game.min_players <= players <= game.max_players:
        raise click.BadParameter(f"{game.title} is played by {player_span(game)} players, not {players}",
                                 param_hint=hint)


def player_span(game):
    if game.min_players == game.max_players:
        return f"{game.min_players}"
    return f"{game.min_players} to {game.max_players}"


def seed_option(f):
    return click.option("--seed", type=click.IntRange(0, (1 << 63) - 1), default=0, show_default=True,
                        help="Seed for everything random (same seed, same result).")(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")(f)


def seat_option(f):
    return click.option("--as", "seat", type=int, default=None, metavar="SEAT",
                        help="See the position as this seat does (its own hand; the others' hidden "
                        "cards stay hidden).")(f)


def moves_option(f):
    return click.option("--moves", "moves", default=None, metavar='"M1 M2 ..."',
                        help="Play these moves (and chance outcomes, by name) from the position "
                        "first, as UCI's `position ... moves ...`.")(f)


# a number below zero, which Click would take for an option ("No such option: -1")
_NEGATIVE = re.compile(r"-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


class Command(click.Command):
    """Every roost command.  A negative number where an argument is expected (`perft ducks
    -1`) is handed to the command as an argument, so the command's own check names what is
    wrong with it, instead of Click's "No such option '-1'"."""

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, self._negatives_as_arguments(ctx, list(args)))

    def _negatives_as_arguments(self, ctx, args):
        takes_value = set()
        for p in self.get_params(ctx):
            if isinstance(p, click.Option) and not p.is_flag and not p.count:
                takes_value.update(p.opts)
        kept, negatives, after_value = [], [], False
        for i, a in enumerate(args):
            if a == "--":
                kept.extend(args[i:])
                break
            if after_value:
                kept.append(a)
                after_value = False
            elif _NEGATIVE.fullmatch(a):
                negatives.append(a)
            else:
                kept.append(a)
                after_value = a in takes_value
        if not negatives:
            return args
        return kept + ([] if "--" in kept else ["--"]) + negatives


def check_output_file(path, hint):
    """Refuse, before any work, a file that could not be written at the end: a directory,
    a folder that does not exist (or is a file), a place without write permission."""
    if os.path.isdir(path):
        raise click.BadParameter(f"{path!r} is a directory, not a file", param_hint=hint)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        what = "is a file, not a folder" if os.path.exists(folder) else "does not exist"
        raise click.BadParameter(f"{path!r}: the folder {folder} {what}", param_hint=hint)
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise click.BadParameter(f"{path!r}: cannot write there (permission denied)", param_hint=hint)


# a position file larger than this is not a position (Wingspan's, the longest, is a few KB)
MAX_POSITION_BYTES = 1 << 20


def _read_position_file(path, hint):
    """The text of a position file, with a message of its own for a directory, a device, an
    unreadable or a binary file."""
    import stat
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise click.BadParameter(f"cannot read {path!r}: {e.strerror}", param_hint=hint)
    if stat.S_ISDIR(mode):
        raise click.BadParameter(f"{path!r} is a directory, not a position file", param_hint=hint)
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise click.BadParameter(f"{path!r} is a device, not a position file (use - to read "
                                 "standard input)", param_hint=hint)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_POSITION_BYTES + 1)
    except OSError as e:
        raise click.BadParameter(f"cannot read {path!r}: {e.strerror}", param_hint=hint)
    if len(data) > MAX_POSITION_BYTES:
        raise click.BadParameter(f"{path!r} is larger than {MAX_POSITION_BYTES >> 20} MB: not a "
                                 "position file", param_hint=hint)
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise click.BadParameter(f"{path!r} is not a text file (not UTF-8)", param_hint=hint)
    if not text:
        raise click.BadParameter(f"the file {path!r} is empty: it holds no position", param_hint=hint)
    return text


def _dash(game, hint):
    """The text ``-`` stands for: standard input, except for a game whose own position text
    is ``-`` (Connect Four's empty board), which keeps that meaning when standard input is a
    terminal or empty."""
    try:
        game.parse("-")
    except RoostError:
        return _read_stdin(hint)
    stream = sys.stdin     # click.get_text_stream is deprecated from Click 8.5
    if stream.isatty():
        return "-"
    try:
        return _read_stdin(hint)
    except click.BadParameter:
        return "-"


def _read_stdin(hint):
    stream = sys.stdin     # click.get_text_stream is deprecated from Click 8.5
    try:
        text = stream.read(MAX_POSITION_BYTES + 1)
    except UnicodeDecodeError:
        raise click.BadParameter("standard input is not text (not UTF-8)", param_hint=hint)
    if len(text) > MAX_POSITION_BYTES:
        raise click.BadParameter(f"standard input holds more than {MAX_POSITION_BYTES >> 20} MB: "
                                 "not a position", param_hint=hint)
    text = text.strip()
    if not text:
        raise click.BadParameter("standard input is empty: it holds no position (- reads the "
                                 "position from standard input)", param_hint=hint)
    return text


def load_position(game, words, players=None, moves=None, hint="POSITION", seat=None):
    """The position named by the POSITION words: text, ``-`` (standard input) or the path
    of a file holding it; no words -> the game's default position; then ``moves`` (the
    --moves text) played from it.  A seat's view (what ``show --as SEAT --text`` writes) is
    read only for that ``seat`` (the --as of show and analyse).  Every fault is a usage
    error naming the option."""
    check_players(game, players)
    words = [w for w in (words or ())]
    if words and not " ".join(words).strip():
        raise click.BadParameter("the position is empty: give a position text, a file, - for "
                                 "standard input, or nothing for the game's default position",
                                 param_hint=hint)
    text = " ".join(words).strip()
    try:
        if not text:
            state = game.default_position(players)
        else:
            if text == "-":
                text = _dash(game, hint)
            elif os.path.exists(text):
                text = _read_position_file(text, hint)
            state = game.parse(text)
    except RoostError as e:
        problem = _file_problem(text)
        if problem:
            raise click.BadParameter(problem, param_hint=hint)
        if _looks_like_a_path(text):
            raise click.BadParameter(f"no such file {text!r} (and as a position text: {e})",
                                     param_hint=hint)
        raise click.BadParameter(str(e), param_hint=hint)
    if players is not None and state.players != players:
        raise click.BadParameter(f"the position has {state.players} players, --players says {players}",
                                 param_hint="--players")
    if text:
        _check_view(game, text, state, seat, hint)
    if moves is not None:
        state = play_moves(state, moves)
    return state


def _check_view(game, text, state, seat, hint):
    """Refuse to read a seat's view as anything but what that seat sees: the cards hidden
    from it are not in the view (parsing deals them in a fixed way), and shown or searched
    as the whole game they would pass for real ones."""
    seats = game.seats_seeing(text, state)
    if not seats or seat in seats:
        return
    if len(seats) == 1:
        who, seer, read = f"seat {seats[0]}'s view", f"seat {seats[0]}", f"--as {seats[0]}"
    else:
        who = "a view " + ("every seat shares" if len(seats) == state.players
                           else "of seats " + ", ".join(map(str, seats)))
        seer, read = "a seat", "--as SEAT"
    if seat is None:
        raise click.BadParameter(f"the position is {who}: what is hidden from {seer} is not in "
                                 f"it, so it is read only as {seer} sees it ({read}, in show and "
                                 "analyse)", param_hint=hint)
    raise click.BadParameter(f"the position is {who}, not seat {seat}'s: what is hidden from seat {seat} "
                             f"is not in it ({read} reads it)", param_hint="--as")


def play_moves(state, moves, hint="--moves"):
    """``state`` after the moves (and chance outcomes) named in ``moves``; a move that does not
    parse or is not legal names its index and what was legal there."""
    from roost.core.moves import LineError, play_line
    names = moves.split()
    if not names:
        raise click.BadParameter("no moves given (--moves \"M1 M2 ...\")", param_hint=hint)
    state = state.copy()
    try:
        play_line(state, names)
    except LineError as e:
        raise click.BadParameter(str(e) if state.is_over else f"{e}; {legal_listing(state)}",
                                 param_hint=hint) from None
    return state


def legal_listing(state, most=60):
    """'legal: a b c' (or, at a chance node with many outcomes, a count and the first few)."""
    if state.is_chance:
        outcomes = state.chances()
        shown = [state.move_name(o) for o, _ in outcomes[:most]]
        more = f" ... ({len(outcomes)} in all)" if len(outcomes) > most else ""
        return "chance is to act; its outcomes: " + " ".join(shown) + more
    names = state.legal_names()
    shown = " ".join(names[:most]) + (f" ... ({len(names)} in all)" if len(names) > most else "")
    return f"legal: {shown}"


def _file_problem(path):
    """What keeps ``path`` from being read, when it names something on the disk that leads
    to no file: a symbolic link loop, a link to nothing, a path through a file; None when it
    names nothing at all (then it is a position text, or a file that does not exist)."""
    import errno
    try:
        os.stat(path)
        return None
    except (OSError, ValueError) as e:
        code = getattr(e, "errno", None)
    if code == errno.ELOOP:
        return f"{path!r}: a loop of symbolic links leads to no file"
    if os.path.islink(path):
        return f"{path!r} is a symbolic link to {os.readlink(path)!r}, which does not exist"
    if code == errno.ENOTDIR:
        head = ""
        for part in path.split(os.sep):
            head = os.path.join(head, part) if head else (part or os.sep)
            if os.path.exists(head) and not os.path.isdir(head):
                return f"{path!r}: {head!r} is a file, not a folder"
        return f"{path!r}: a part of the path is not a folder"
    return None


def _looks_like_a_path(text):
    return (" " not in text and not text.startswith("{")
            and (text.startswith(("/", "./", "../", "~")) or bool(re.search(r"\.[A-Za-z]{1,5}$", text))))




# ------------------------------------------------------------- suites and adjudication
def suite_options(f):
    """--openings FILE, --order, --repeat (play and tournament)."""
    f = click.option("--repeat", is_flag=True,
                     help="Play each opening of the suite from every seating (the games of a "
                     "round of seat rotations share it, as cutechess-cli's -repeat), so the "
                     "pair cancels what the opening gives a seat.")(f)
    f = click.option("--order", type=click.Choice(["sequential", "random"]), default="sequential",
                     show_default=True, help="The suite's order: as in the file, or shuffled by "
                     "--seed (anew each time it is used up).")(f)
    return click.option("--openings", "openings", default=None, metavar="FILE",
                        help="Start the games from an opening suite: one position text, or moves "
                        "from the default position, a line (# comments).  `builtin` is the suite "
                        "roost ships for the game and player count; `roost openings` makes "
                        "one.")(f)


def read_suite(game, players, path):
    """The suite of --openings (None when not given); a fault is the option's."""
    from roost.arena.openings import OpeningsError, Suite
    if path is None:
        return None
    try:
        return Suite.read(game, players, path)
    except OpeningsError as e:
        raise click.BadParameter(str(e), param_hint="--openings")


class _RuleType(click.ParamType):
    """An adjudication rule's settings (``moves=4,value=0.05``) -> the rule."""

    def __init__(self, rule):
        self.rule = rule
        self.name = rule.__name__.lower()

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        try:
            return self.rule.parse(value)
        except RoostError as e:
            self.fail(str(e), param, ctx)


def adjudication_options(f):
    """--resign, --draw, --proofs (play and tournament)."""
    from roost.arena.adjudication import Draw, Resign
    f = click.option("--proofs", is_flag=True,
                     help="End a game when the mover's engine reports a proven win, loss or draw "
                     "(alpha-beta's or the MCTS solver's): stored as adjudicated, with the line.")(f)
    f = click.option("--draw", "draw", type=_RuleType(Draw), default=None, metavar=Draw.EXAMPLE,
                     help="Adjudicate a draw from move AFTER on, once both engines valued their "
                     "positions within VALUE of even (0.5) for MOVES moves each (any setting may "
                     "be left out: after=40, moves=8, value=0.05).")(f)
    return click.option("--resign", "resign", type=_RuleType(Resign), default=None,
                        metavar=Resign.EXAMPLE,
                        help="Adjudicate a loss once, for MOVES moves of each side, the loser's "
                        "engine valued its position at most VALUE and the winner's its own at least "
                        "1 - VALUE (values are expected results, 0 to 1; defaults moves=4, "
                        "value=0.05).  Two-player games.")(f)


def adjudication_from(resign, draw, proofs, players):
    """The Adjudication of the options (None when none is given); more than two players is
    the options' fault."""
    from roost.arena.adjudication import Adjudication, AdjudicationError
    rules = Adjudication(resign=resign, draw=draw, proofs=proofs)
    if not rules:
        return None
    try:
        rules.check_players(players)
    except AdjudicationError as e:
        hint = "--resign" if resign else "--draw" if draw else "--proofs"
        raise click.BadParameter(str(e), param_hint=hint)
    return rules
