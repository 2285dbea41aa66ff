import json
import math
import sys

import click

from roost.cli.options import (ENGINE, Command, adjudication_from, adjudication_options, check_players,
                               game_argument, load_position, players_option, read_suite, seed_option,
                               suite_options)
from roost.cli.play import tc_option


class SprtType(click.ParamType):
    name = "sprt"

    def convert(self, value, param, ctx):
        from roost.arena.ratings import Sprt, SprtError
        if not isinstance(value, str):
            return value
        try:
            return Sprt.parse(value)
        except SprtError as e:
            self.fail(str(e), param, ctx)


def _clock(seconds):
    if seconds is None or not math.isfinite(seconds):
        return "--:--"
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Bar:
    """A one-line live progress bar on stderr."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.shown = False

    def __call__(self, p):
        if not self.enabled:
            return
        width = 24
        frac = p.done / p.total if p.total else 1.0
        fill = int(round(width * frac))
        lead = f"  leader {p.leader} {100 * p.leader_score:.0f}%" if p.leader else ""
        line = (f"\r{p.done:>6}/{p.total} [{'#' * fill}{'.' * (width - fill)}] {100 * frac:5.1f}%"
                f"  {p.rate:7.1f} games/s  ETA {_clock(p.eta)}{lead}")
        click.echo(line[:200] + "\x1b[K", nl=False, err=True)
        self.shown = True

    def note(self, text):
        """A line of news above the bar (the bar is drawn again by the next progress)."""
        click.echo(("\r\x1b[K" if self.shown else "") + text, err=True)

    def end(self):
        if self.shown:
            click.echo("", err=True)


# more processes than this per core only take turns on it; the bound catches a typo
JOBS_PER_CORE = 4
# a schedule is built in memory before the first game: beyond this it would not fit
MAX_GAMES = 1_000_000


@click.command("tournament", cls=Command)
@game_argument
@click.option("--engine", "-e", "specs", type=ENGINE, multiple=True,
              help="An engine of the roster (repeat; a spec given twice plays itself).  A roster "
              "of fewer than two is filled with auto, the strongest engine measured for the game.")
@players_option
@click.option("--games", "-g", type=int, default=None,
              help="Games per pairing, a multiple of the seats; with 3+ seats a multiple of twice the "
              "seats balances the turn order (default: 10 per seat).")
@click.option("--gauntlet", is_flag=True, help="The first engine plays all the others (instead of "
              "a round robin).")
@seed_option
@click.option("--position", default=None, help="Start every game from this position (text or "
              "file; default: a fresh start drawn from each game's seed).")
@click.option("--opening", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random plies before the engines play, shared by the seat rotations of a "
              "round: varied starts for deterministic engines.")
@suite_options
@adjudication_options
@tc_option
@click.option("--hang-guard", "hang_guard", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS", help="Serve roost's engines from worker processes and end a "
              "move that takes longer than SECONDS without a clock: its engine forfeits the game "
              "(stored with the reason), is restarted, and the tournament goes on (default: "
              "the engines play in this process, trusted to keep their limits).")
@click.option("--db", default=None, help="The SQLite database (default: roost-GAME-KEY.db in the "
              "current directory, KEY naming the configuration).  Run again to resume.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help=f"Local worker processes (default: all cores; 1 plays in this process; at "
              f"most {JOBS_PER_CORE} per core, and never more than the games to play).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Play the games as tasks on this Dask scheduler (needs roost[distributed]).  "
              "With no worker for 30 s it says so and waits for one; Ctrl-C stores what is done.")
@click.option("--dask-local", type=click.IntRange(min=1), default=None, metavar="N",
              help="Start a local Dask cluster of N worker processes, one game at a time each, "
              "on 127.0.0.1 with no dashboard, and play on it.")
@click.option("--sprt", type=SprtType(), default=None, metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05",
              help="Two engines: stop when the SPRT decides whether the first is at least elo1 "
              "(or at most elo0) Elo stronger; --games is then the most it plays.")
@click.option("--anchor", default=None, help="The engine whose Elo is fixed at 0: a spec of the "
              "roster or its number from 1 (default: the first).")
@click.option("--plot", "plot", default=None, metavar="FILE.svg",
              help="Also draw the ratings with their error bars (.svg; .png needs "
              "cairosvg or rsvg-convert).")
@click.option("--verbose", is_flag=True, help="Also show the Dask cluster's own log messages.")
@click.option("--progress/--no-progress", default=None,
              help="Show the live progress bar (default: when stderr is a terminal).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON for programs.")
def command(game, specs, players, games, gauntlet, seed, position, opening, openings, order, repeat,
            resign, draw, proofs, tc, hang_guard, db, jobs, scheduler, dask_local, sprt, anchor, plot,
            verbose, progress, as_json):
    """Play a tournament between engines, storing every game; run the same command again to
    resume an interrupted one (Ctrl-C, kill, crash) without losing or replaying a game.

    \b
    Pairings.  A game has N seats (--players, default the game's).  In a
    round robin every N engines of the roster meet (every combination); in a
    --gauntlet the first engine meets every N-1 of the others.  With fewer
    engines than seats they fill the seats cyclically, once from each engine
    (2 engines, 3 seats: ABA and BAB).  Each pairing plays --games games in
    rounds of N, rotating the seats so every engine plays every seat once a
    round.  With 3+ seats the turn order alternates between rounds (ABC, then
    ACB), so who moves right after whom balances over an even number of rounds:
    --games a multiple of 2N.  Game i (from 1) has the seed derive(--seed,
    i-1): the schedule is fixed by the options, so a resumed tournament plays
    exactly the missing games.
    \b
    Ratings.  Elo is a maximum-likelihood Bradley-Terry fit of all results,
    the anchor at 0, with 95% error bars.  A game of N seats counts as its
    pairwise results (the higher result beats the lower, equal results draw),
    each weighing 1/(N-1).  Two engines also get the score with its 95%
    interval, and --sprt can stop the match as soon as it decides.
    \b
    Clocks.  With --tc every seat has a clock; an engine that overruns it,
    crashes, or plays an illegal or malformed move loses that game (it scores
    last), the game is stored with the reason, the summary counts the
    forfeits, and the tournament goes on.  cmd:COMMAND runs any program that
    speaks the engine protocol (docs/protocol.md).  Without clocks, --hang-guard
    SECONDS does the same for a move that takes longer than SECONDS.
    \b
    Openings and adjudication.  --openings FILE starts the games from a suite
    (--openings builtin: the one roost ships for the game and player count;
    `roost openings` makes one) in --order; --repeat plays each opening from
    every seating, so the games of a round share it.  --resign, --draw and
    --proofs end a two-player game early when its engines agree how it ends
    (stored as adjudicated, with the rule).  With two seats the head-to-head
    interval and --sprt count game pairs (the pentanomial model, as fishtest
    does), unless a suite's openings are not repeated.  The summary gives each
    engine's moves, seconds a move, depth or iterations, speed, time losses
    and proofs.
    \b
    Storage.  Every finished game (seats, seed, moves, time per move to the
    microsecond, result, how it ended, versions) is committed to the SQLite
    --db at once; `roost replay` and `roost export` read it.  A database holding another configuration is
    refused.  Games run in local processes (--jobs) or on Dask (--scheduler,
    --dask-local); only this process writes the database.
    \b
    Examples:
      roost tournament ducks -e random -e ab:depth=1 -e mcts:iterations=50 --games 10
      roost tournament ducks -e mcts:iterations=100 -e mcts:iterations=25 --games 2000 \\
          --sprt elo0=0,elo1=20 --db ducks-sprt.db
      roost tournament ducks -e ab:depth=2 -e mcts:iterations=200 --openings builtin --repeat \\
          --resign moves=3,value=0.05 --draw after=40,moves=6 --proofs \\
          --sprt elo0=0,elo1=50 --games 40 --db ducks-suite.db
      roost tournament ducks -e random -e random --games 1000 --jobs 2 --json
      roost tournament ducks -e ab:depth=2 -e random --dask-local 2 --plot ratings.svg
      roost tournament connect4 -e "cmd:python3 examples/randombot.py" -e ab:time=0.05 \
          -e mcts:time=0.05 --tc 5+0.05 --games 2 --db bots.db
    """
    from roost.arena.readiness import SetupError
    from roost.arena.store import StoreError
    from roost.arena.tournament import (TournamentConfig, TournamentError, run_tournament,
                                        summary_dict, summary_text, turn_order_note)
    from roost.core.errors import PositionError
    _check_run_options(games, jobs, scheduler, dask_local, plot)
    specs = list(specs) + ["auto"] * (2 - len(specs))
    if position is not None:         # a file, standard input, and a seat's view refused, as in play
        position = load_position(game, [position], players, hint="--position").text()
    check_players(game, players)
    seats = players or game.default_players
    suite = read_suite(game, seats, openings)
    rules = adjudication_from(resign, draw, proofs, seats)
    try:
        config = TournamentConfig(game=game, engines=list(specs), players=players, games=games,
                                  seed=seed, mode="gauntlet" if gauntlet else "roundrobin",
                                  position=position, sprt=sprt, opening=opening, tc=tc,
                                  hang_guard=hang_guard, openings=suite, order=order,
                                  repeat=repeat, adjudication=rules)
    except PositionError as e:
        raise click.BadParameter(str(e), param_hint="--position")
    except TournamentError as e:
        raise click.UsageError(str(e))
    names = config.names()
    anchor_index = _anchor_index(anchor, names)
    backend = None
    if scheduler or dask_local:
        from roost.arena.tournament import make_backend
        backend = make_backend(config, scheduler=scheduler, dask_local=dask_local, verbose=verbose)
    bar = Bar(sys.stderr.isatty() if progress is None else progress)
    note = turn_order_note(config)
    if note and not as_json:
        click.echo(note, err=True)
    if db is None and not as_json:
        click.echo(f"storing the games in {config.default_db()} (--db chooses the file; run the same "
                   "command again to resume)", err=True)
    # Ctrl-C and kill (SIGTERM) stop the tournament tidily: run_tournament routes both to
    # a flag its loop checks, so the stop never lands inside the database writer's queue
    try:
        try:
            res = run_tournament(config, db=db, jobs=jobs, backend=backend, on_progress=bar,
                                 anchor=anchor_index, on_event=bar.note)
        finally:
            bar.end()
            if backend is not None:
                backend.close()
    except (StoreError, SetupError) as e:
        raise click.ClickException(str(e))
    if plot and res.ratings:
        _draw_ratings(plot, res, config, names, anchor_index)
    if as_json:
        click.echo(json.dumps(summary_dict(res), indent=2))
    else:
        click.echo(summary_text(res))
        if plot and res.ratings:
            click.echo(f"ratings picture: {plot}")
        if res.interrupted:
            click.echo(f"interrupted: {res.stored} of {res.scheduled} games are stored in {res.db}; "
                       "run the same command to resume")
    if res.interrupted:
        raise SystemExit(130)


def _check_run_options(games, jobs, scheduler, dask_local, plot):
    """click.BadParameter for a count of games, a way to run them or a picture file that
    cannot be, before anything is played."""
    from roost.arena.picture import check_picture_path
    from roost.arena.tournament import default_jobs
    from roost.core.errors import RoostError
    if games is not None and games < 1:
        raise click.BadParameter(f"the number of games must be positive, not {games}", param_hint="--games")
    if games is not None and games > MAX_GAMES:
        raise click.BadParameter(f"at most {MAX_GAMES:,} games per pairing, not {games:,}", param_hint="--games")
    if scheduler and dask_local:
        raise click.BadParameter("give --scheduler or --dask-local, not both", param_hint="--dask-local")
    if jobs and (scheduler or dask_local):
        raise click.BadParameter("--jobs counts local processes; on Dask the cluster's workers play",
                                 param_hint="--jobs")
    if jobs:
        cores = default_jobs()
        if jobs > JOBS_PER_CORE * cores:
            raise click.BadParameter(
                f"{jobs} processes on {cores} core{'s' if cores > 1 else ''}: at most "
                f"{JOBS_PER_CORE} per core ({JOBS_PER_CORE * cores} here)", param_hint="--jobs")
    if scheduler and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
        raise click.BadParameter(f"{scheduler!r} is not a scheduler address like tcp://HOST:PORT",
                                 param_hint="--scheduler")
    if plot:
        if not plot.lower().endswith((".svg", ".png")):
            raise click.BadParameter(f"{plot!r}: the picture must be an .svg or .png file",
                                     param_hint="--plot")
        try:                  # before any game: a picture that cannot be drawn fails now
            check_picture_path(plot)
        except RoostError as e:
            raise click.BadParameter(str(e), param_hint="--plot")


def _anchor_index(anchor, names):
    """The roster index --anchor names (a number from 1, or an engine's spec); 0 without."""
    if anchor is None:
        return 0
    a = anchor.strip()
    if a.isdigit() and 1 <= int(a) <= len(names):
        return int(a) - 1
    from roost.search.engines import parse_spec
    try:
        spec = str(parse_spec(a))
    except Exception:
        spec = a
    # the engines are normalised specs, so a spec's first entry is named by the spec
    if spec in names:
        return names.index(spec)
    raise click.BadParameter(f"{anchor!r} is not in the roster ({', '.join(names)}) "
                             f"nor a number from 1 to {len(names)}", param_hint="--anchor")


def _draw_ratings(plot, res, config, names, anchor_index):
    """The Elo ratings drawn to the picture file ``plot``."""
    from roost.arena.picture import write_picture
    r = res.ratings
    rows = [(names[i], r.elo[i], None if i == anchor_index else r.err[i], i == anchor_index)
            for i in r.order()]
    try:
        write_picture(plot, rows, f"{config.game.title}: Elo ratings",
                      f"{res.counted} games, anchor {names[anchor_index]} = 0, seed {config.seed}")
    except OSError as e:
        raise click.ClickException(f"cannot write {plot}: {e.strerror or e}")
