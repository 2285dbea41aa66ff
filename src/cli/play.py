import json
import sys

import click

from roost.cli.options import (ENGINE, Command, adjudication_from, adjudication_options, game_argument,
                               load_position, player_span, players_option, read_suite, seed_option,
                               suite_options)
from roost.core.errors import RoostError
from roost.search.engine import Engine


class TimeControlType(click.ParamType):
    """BASE+INC seconds -> a match.TimeControl."""
    name = "BASE+INC"

    def convert(self, value, param, ctx):
        from roost.arena.match import TimeControl
        if not isinstance(value, str):
            return value
        try:
            return TimeControl.parse(value)
        except RoostError as e:
            self.fail(str(e), param, ctx)


def tc_option(f):
    return click.option(
        "--tc", "tc", type=TimeControlType(), default=None, metavar="BASE+INC",
        help="Clocks: every seat starts with BASE seconds and gains INC after each of its "
        "moves (e.g. 60+0.5).  roost's engines then play by the time manager in worker "
        "processes; cmd: programs get their clock in go.  Answering more than 0.1 s after the "
        "clock ran out loses the game, as do a crash and an illegal or malformed move.")(f)


class Quit(KeyboardInterrupt):
    """The person ended the session (``quit`` or the end of the input): the match stops as
    it does on Ctrl-C, but this is a normal end."""


def _read_line(prompt):
    """A line from the person, None at the end of the input (Ctrl-D, a closed pipe)."""
    click.echo(prompt + " ", nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo("")
        return None
    return line.strip()


class Human(Engine):
    """A person at the terminal, behind the engine interface."""
    kind = "human"
    summary = "a person at the terminal"

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        from roost.cli.describe import move_names, question, sentence, side_name
        from roost.search.result import SearchResult
        me = state.player
        click.echo("")
        click.echo(state.render(observer=me if state.hidden_info else None))
        asked = question(state, me)
        if asked:
            click.echo(f"decision: {asked}")
        while True:
            text = _read_line(f"{sentence(side_name(state, me))}, your move (? lists the legal moves, quit stops):")
            if text is None or text in ("quit", "exit"):
                raise Quit
            if text in ("?", "help"):
                click.echo(" ".join(move_names(state)))
                continue
            if not text:
                continue
            try:
                m = state.parse_move(text)
                if not state.is_legal(m):
                    raise RoostError(f"{text!r} is not legal here; ? lists the legal moves")
            except RoostError as e:
                click.echo(f"  {e}")
                continue
            return SearchResult(engine="human", move=m, move_name=state.move_name(m),
                                player=me, value=0.5)


def seats_for(game, specs, players, human_seat):
    """The number of seats: --players, else the game's default (as in `tournament`); every
    fault blamed on the option that caused it."""
    n = players if players is not None else game.default_players
    if not game.min_players <= n <= game.max_players:
        raise click.BadParameter(f"{game.title} is played by {player_span(game)} players, not {n}",
                                 param_hint="--players")
    if len(specs) > n:
        given = f"{len(specs) - 1} engines and the person" if human_seat is not None else f"{len(specs)} engines"
        more = (f" (or --players {len(specs)})" if players is None and len(specs) <= game.max_players
                else "")
        raise click.BadParameter(f"{given} given for {n} seats: give at most one --engine per seat{more}",
                                 param_hint="--engine")
    if human_seat is not None and human_seat >= n:
        raise click.BadParameter(f"seat {human_seat} does not exist in a {n}-player game (seats 0 to {n - 1})",
                                 param_hint="--human-seat")
    return n


MAX_GAMES = 1_000_000     # a match's results are kept in memory


@click.command("play", cls=Command)
@game_argument
@click.option("--engine", "-e", "specs", type=ENGINE, multiple=True,
              help="An engine spec, repeatable: one per seat, or fewer and they share the seats in "
              "rotation (default: auto, the strongest engine measured for the game).")
@click.option("--games", "-g", type=int, default=1, show_default=True,
              help="Games to play; seats rotate from game to game.")
@click.option("--position", "position", default=None,
              help="Start every game from this position (text or file) instead of a fresh start.")
@click.option("--opening", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random plies played before the engines take over (the games of one seat "
              "rotation share them): varied starts for deterministic engines.")
@suite_options
@adjudication_options
@click.option("--human", is_flag=True, help="A person plays at the terminal (seat 0 unless "
              "--human-seat says otherwise; the engines given fill the other seats).")
@click.option("--human-seat", type=int, default=None, metavar="SEAT",
              help="The seat the person plays (from 0; implies --human).")
@tc_option
@players_option
@seed_option
@click.option("--print-moves", "show_moves", is_flag=True, help="Print every move as it is played.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record a game, then the summary.")
def command(game, specs, games, position, opening, openings, order, repeat, resign, draw, proofs, human,
            human_seat, tc, players, seed, show_moves, as_json):
    """Play a match between engines (or against a person) and print the result.

    Seats rotate between games so every engine plays every seat; with 3 or more engines
    the turn direction alternates every round of rotations (ABC, BCA, CAB, then ACB, BAC,
    CBA), so a multiple of twice the engines in --games balances who moves right after whom
    (a person's seat stays put, the engines rotate around it).  The results line gives
    the score with its 95% error margin.  The number of seats is --players, or the game's
    default (as in `roost tournament`).  Ctrl-C stops after reporting the finished games.

    \b
    Examples:
      roost play ducks --engine mcts:iterations=3000 --engine ab:depth=3 --games 2 --seed 1
      roost play ducks -e ab:depth=3 -e ab:depth=3,eval=none --games 20 --opening 6
      roost play ducks -e ab:depth=2 -e mcts:iterations=300 --games 4 --openings builtin --repeat \\
          --resign moves=3,value=0.05 --proofs
      roost play ducks --human --engine ab:time=1
      roost play tweeeet --human                  # against auto, the strongest measured engine
      roost play tweeeet --human-seat 1 --engine mcts:time=1
      roost play cubirds --players 4 -e ismcts:iterations=500 -e pimc:worlds=4,iterations=200 -e random -e random
      roost play ducks -e "cmd:roost engine ducks --engine ab:depth=4" -e mcts --tc 1+0.01
      roost play connect4 -e "cmd:python3 examples/randombot.py" -e ab:depth=4 --print-moves
    """
    from roost.arena.match import MatchResult, derive_seed, play_game
    from roost.arena.seating import Seating
    from roost.arena.engines import arena_engine
    from roost.search.engines import parse_spec
    if games < 1:
        raise click.BadParameter(f"the number of games must be positive, not {games}", param_hint="--games")
    if games > MAX_GAMES:
        raise click.BadParameter(f"at most {MAX_GAMES:,} games, not {games:,}", param_hint="--games")
    if human_seat is not None and human_seat < 0:
        raise click.BadParameter(f"a seat is numbered from 0, not {human_seat}", param_hint="--human-seat")
    if human and human_seat is None:
        human_seat = 0
    specs = list(specs) or [parse_spec("auto")]
    if human_seat is not None:
        specs = ["human"] + specs
    n = seats_for(game, specs, players, human_seat)
    start = load_position(game, [position], n, hint="--position") if position else None
    if start is not None and start.is_over:
        raise click.BadParameter("the start position is already over", param_hint="--position")
    suite = read_suite(game, n, openings)
    if suite is not None and (position or opening):
        raise click.BadParameter("give an opening suite or a start position and random plies, not "
                                 "both", param_hint="--openings")
    if suite is None and (repeat or order != "sequential"):
        raise click.BadParameter("--repeat and --order play an opening suite: give one", param_hint="--openings")
    rules = adjudication_from(resign, draw, proofs, n)
    # the seatings a rotation goes through: every engine's, or the engines' around the person
    seatings = max(1, len(specs) - (1 if human_seat is not None else 0))

    def suite_opening(i):
        """The suite's opening of game ``i`` (None without a suite) and its start position."""
        if suite is None:
            return None, start
        k = suite.pick(i // seatings if repeat else i, seed, order)
        return {"index": k + 1, "text": suite.texts[k]}, game.parse(suite.texts[k])
    from roost.arena.readiness import SetupError, check_engines, check_openings
    try:        # before the first game: a setup that cannot be played is this command's error
        check_openings(game, n, opening, [(derive_seed(seed, i), derive_seed(seed, i // n, 7))
                                          for i in range(games)], start)
        check_engines(game, [s for s in specs if s != "human"], n, start)
    except SetupError as e:
        raise click.ClickException(str(e))
    names = [str(s) for s in specs]
    match = MatchResult(specs=names)
    seating = Seating(specs, n, lambda spec: arena_engine(spec, game, tc),
                      fixed_entry=0 if human_seat is not None else None,
                      fixed_seat=human_seat or 0, fixed_player=Human() if human_seat is not None else None)
    report = HumanReport(game, human_seat, n) if human_seat is not None else None
    playing = []                        # the record of the game being played, once it has a move

    def on_move(state, record):
        playing[:] = [record]
        if report is not None:
            report.move(state, record)
        if show_moves:
            who = "chance" if record.movers[-1] < 0 else f"p{record.movers[-1]}"
            click.echo(f"  {len(record.moves):>4}. {who}: {record.names[-1]}")

    try:
        for i in range(games):
            seated = seating.order(i)
            playing.clear()
            picked, first = suite_opening(i)
            if report is not None:
                report.begin(i, [names[e] for e in seated], first if not opening else None)
            rec = play_game(game, seating.engines(seated), derive_seed(seed, i), start=first,
                            on_move=on_move if (show_moves or report) else None,
                            opening=opening, opening_seed=derive_seed(seed, i // n, 7), tc=tc,
                            adjudication=rules)
            rec.opening = picked
            playing.clear()
            match.records.append((rec, seated))
            if report is not None:
                report.end(rec)
            if as_json:
                d = rec.as_dict()
                d["engines_by_seat"] = [names[e] for e in seated]
                if tc:
                    d["tc"] = tc.text()
                click.echo(json.dumps(d))
            else:
                click.echo(game_line(i, rec, [names[e] for e in seated]))
    except KeyboardInterrupt as stop:
        _stopped(stop, match, playing[0] if playing else None)
    finally:
        seating.close()
    _summary(match, names, as_json)


def _stopped(stop, match, unfinished):
    """Says where the match stopped (``unfinished``: the record of the game under way, if
    it had a move) and its finished games' summary; exits 0 when the person quit, else 130."""
    how = "you stopped" if isinstance(stop, Quit) else "interrupted"
    during = f" in game {len(match.records) + 1}" + (
        f" after {len(unfinished.moves)} plies" if unfinished is not None else " before its first move")
    click.echo(f"\n{how}{during}; {len(match.records)} finished "
               f"game{'' if len(match.records) == 1 else 's'}")
    if match.records:
        click.echo(match.summary())
    raise SystemExit(0 if isinstance(stop, Quit) else 130)


def _summary(match, names, as_json):
    """The match's summary and its forfeits by engine and reason."""
    from roost.arena.match import is_forfeit
    lost = {}
    for rec, order in match.records:
        if is_forfeit(rec.ending):
            why = lost.setdefault(names[order[rec.ending["seat"]]], {})
            why[rec.ending["reason"]] = why.get(rec.ending["reason"], 0) + 1
    if as_json:
        click.echo(json.dumps({"summary": match.summary(), "scores": match.scores(), "engines": names,
                               "forfeits": lost}))
    else:
        click.echo(match.summary())
        for spec, why in lost.items():
            click.echo(f"forfeits: {spec}: {sum(why.values())} ("
                       + ", ".join(f"{r} {n}" for r, n in sorted(why.items())) + ")")


def game_line(i, rec, seated):
    from roost.arena.match import ending_text
    res = " ".join(f"{r:g}" for r in rec.result)
    seats = ", ".join(f"p{k}={spec}" for k, spec in enumerate(seated))
    end = f" ({ending_text(rec.ending)})" if rec.ending else ""
    book = f" from opening {rec.opening['index']}" if rec.opening else ""
    return f"game {i + 1}: {seats}{book}: result {res} after {len(rec.moves)} plies{end}"


class HumanReport:
    """What the person at the terminal is told: who plays which side, each move of the
    engines and of chance as it is played, the person's own forced moves (the arena plays
    the only legal move without asking), and the final position with its result."""

    def __init__(self, game, seat, seats):
        from roost.cli.describe import agrees, side_name
        self.seat = seat
        any_position = game.default_position(seats)
        self.sides = [side_name(any_position, k) for k in range(seats)]
        self.plays = agrees(any_position, "play")
        self.seated = []
        self.last = None
        self.forced = False          # the person has one legal move in the position shown

    def begin(self, index, seated, start=None):
        self.seated, self.last = seated, None
        self.forced = start is not None and self._forced(start)
        click.echo(f"\ngame {index + 1}: " + ", ".join(
            f"{'you' if k == self.seat else spec} as {side}"
            for k, (spec, side) in enumerate(zip(seated, self.sides))))

    def move(self, state, record):
        from roost.cli.describe import sentence
        self.last = state
        mover = record.movers[-1]
        forced, self.forced = self.forced, self._forced(state)
        if mover == self.seat:
            if forced:
                click.echo(f"You play {record.names[-1]}, your only legal move")
            return
        who = "chance plays" if mover < 0 else f"{self.sides[mover]} ({self.seated[mover]}) {self.plays}"
        click.echo(f"{sentence(who)} {record.names[-1]}")

    def _forced(self, state):
        return (not state.is_over and not state.is_chance and state.player == self.seat
                and len(state.legal()) == 1)

    def end(self, record):
        from roost.arena.match import ending_text
        from roost.cli.describe import result_text
        if self.last is not None:
            click.echo("")
            click.echo(self.last.render())
        words = result_text(record.result, self.last) if self.last is not None else \
            " ".join(f"{r:g}" for r in record.result)
        click.echo(f"result: {words}: {verdict_for(record.result, self.seat)}")
        if record.ending:
            click.echo("ended: " + ending_text(record.ending, record.seats))


def verdict_for(result, seat):
    """The result as the person at ``seat`` hears it."""
    best = max(result)
    winners = [k for k, r in enumerate(result) if r == best]
    if seat not in winners:
        return "you lose"
    if len(winners) == len(result):
        return "a draw" if len(result) == 2 else "everyone shares the win"
    return "you win" if len(winners) == 1 else "you share the win"
