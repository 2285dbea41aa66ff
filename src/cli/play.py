import json

import click

from roost.cli.options import ENGINE, game_argument, load_position, players_option, seed_option
from roost.core.errors import RoostError


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


class Human:
    """A person at the terminal, behind the engine interface."""
    spec = "human"

    def new_game(self):
        pass

    def advance(self, move):
        pass

    def choose(self, state, seed=0):
        from roost.search.result import SearchResult
        click.echo("")
        click.echo(state.render(observer=state.player if state.hidden_info else None))
        while True:
            text = click.prompt(f"player {state.player} move (? lists legal moves, quit stops)").strip()
            if text in ("?", "help"):
                click.echo(" ".join(state.legal_names()))
                continue
            if text in ("quit", "exit"):
                raise KeyboardInterrupt
            try:
                m = state.parse_move(text)
                if m not in state.legal():
                    raise RoostError(f"{text!r} is not legal here; ? lists the legal moves")
            except RoostError as e:
                click.echo(f"  {e}")
                continue
            return SearchResult(engine="human", move=m, move_name=state.move_name(m),
                                player=state.player, value=0.5)


@click.command("play")
@game_argument
@click.option("--engine", "-e", "specs", type=ENGINE, multiple=True,
              help="An engine spec, repeatable: one per seat, or fewer and they share the seats in "
              "rotation (default: auto, the strongest engine measured for the game).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games to play; seats rotate from game to game.")
@click.option("--position", "position", default=None,
              help="Start every game from this position (text or file) instead of a fresh start.")
@click.option("--opening", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random plies played before the engines take over (the games of one seat "
              "rotation share them): varied starts for deterministic engines.")
@click.option("--human", is_flag=True, help="A person plays the first seat at the terminal (the "
              "engines given fill the other seats).")
@tc_option
@players_option
@seed_option
@click.option("--moves/--no-moves", "show_moves", default=False, help="Print every move as it is played.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record a game, then the summary.")
def command(game, specs, games, position, opening, human, tc, players, seed, show_moves, as_json):
    """Play a match between engines (or against a person) and print the result.

    Seats rotate between games so every engine plays every seat; the results line gives
    the score with its 95% error margin.  Ctrl-C stops after reporting the finished games.

    \b
    Examples:
      roost play ducks --engine mcts:iterations=3000 --engine ab:depth=3 --games 4 --seed 1
      roost play ducks -e ab:depth=3 -e ab:depth=3,eval=none --games 20 --opening 6
      roost play ducks --human --engine ab:time=1
      roost play tweeeet --human                  # against auto, the strongest measured engine
      roost play cubirds --players 4 -e ismcts:iterations=2000 -e pimc:worlds=4 -e random -e random
      roost play ducks -e "cmd:roost engine ducks --engine ab:depth=4" -e mcts --tc 10+0.1
    """
    from roost.arena.match import MatchResult, derive_seed, ending_text, play_game, rotation
    from roost.protocol.client import arena_engine
    specs = list(specs) or ["auto"]
    if human:
        specs = ["human"] + specs
    n = players or (len(specs) if len(specs) >= game.min_players else game.default_players)
    if not game.min_players <= n <= game.max_players:
        span = (f"{game.min_players}" if game.min_players == game.max_players
                else f"{game.min_players} to {game.max_players}")
        raise click.BadParameter(f"{game.title} is played by {span} players, not {n}",
                                 param_hint="--players")
    if len(specs) > n:
        raise click.BadParameter(f"{len(specs)} engines given for {n} seats: give at most one --engine per seat",
                                 param_hint="--engine")
    start = load_position(game, [position], n) if position else None
    if start is not None and start.is_over:
        raise click.BadParameter("the start position is already over", param_hint="--position")
    match = MatchResult(specs=specs)

    kept = {}        # (engine, k-th seat it fills): programs and workers live from game to game

    def seat(order):
        out, seen = [], {}
        for e in order:
            k = seen.get(e, 0)
            seen[e] = k + 1
            if specs[e] == "human":
                out.append(Human())
            elif (e, k) in kept:
                out.append(kept[e, k])
            else:
                engine = arena_engine(specs[e], game, tc)
                if hasattr(engine, "close"):
                    kept[e, k] = engine
                out.append(engine)
        return out

    def on_move(state, record):
        if show_moves:
            who = "chance" if record.movers[-1] < 0 else f"p{record.movers[-1]}"
            click.echo(f"  {len(record.moves):>4}. {who}: {record.names[-1]}")

    try:
        for i in range(games):
            if human:   # the person keeps seat 0; the engines rotate through the others
                order = [0] + [1 + e for e in rotation(n - 1, i, len(specs) - 1)]
            else:
                order = rotation(n, i, len(specs))
            rec = play_game(game, seat(order), derive_seed(seed, i), start=start,
                            on_move=on_move if (show_moves or human) else None,
                            opening=opening, opening_seed=derive_seed(seed, i // n, 7), tc=tc)
            match.records.append((rec, order))
            if as_json:
                d = rec.as_dict()
                d["engines_by_seat"] = [specs[e] for e in order]
                if tc:
                    d["tc"] = tc.text()
                click.echo(json.dumps(d))
            else:
                res = " ".join(f"{r:g}" for r in rec.result)
                seats = ", ".join(f"p{k}={specs[e]}" for k, e in enumerate(order))
                end = f" ({ending_text(rec.ending)})" if rec.ending else ""
                click.echo(f"game {i + 1}: {seats}: result {res} after {len(rec.moves)} plies{end}")
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted after {len(match.records)} finished games")
        if match.records:
            click.echo(match.summary())
        raise SystemExit(130)
    finally:
        for engine in kept.values():
            engine.close()
    lost = {}
    for rec, order in match.records:
        if rec.ending:
            why = lost.setdefault(specs[order[rec.ending["seat"]]], {})
            why[rec.ending["reason"]] = why.get(rec.ending["reason"], 0) + 1
    if as_json:
        click.echo(json.dumps({"summary": match.summary(), "scores": match.scores(), "engines": specs,
                               "forfeits": lost}))
    else:
        click.echo(match.summary())
        for spec, why in lost.items():
            click.echo(f"forfeits: {spec}: {sum(why.values())} ("
                       + ", ".join(f"{r} {n}" for r, n in sorted(why.items())) + ")")
