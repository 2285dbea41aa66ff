"""The engine protocol from the arena's side: external programs (tests/protocol/bots/bot.py)
and roost engines in worker processes play through it; every way of breaking the arena's
rules loses the game with its reason stored, the program is started afresh for the next
game and the tournament goes on; no seat is ever sent another seat's hidden cards."""
import json
import os
import random
import shlex
import signal
import sqlite3
import sys

import pytest
from click.testing import CliRunner

from roost.arena.match import TimeControl, forfeit_result, is_forfeit, play_game
from roost.arena.records import read_records, replay
from roost.cli.main import cli
from roost.core.games import get_game
from roost.arena.engines import arena_engine
from roost.protocol.client import ProtocolEngine
from roost.protocol.views import seat_texts
from roost.search.engine import Engine
from roost.search.engines import parse_engine

BOT = os.path.join(os.path.dirname(__file__), "bots", "bot.py")
DUCKS = get_game("ducks")


def bot(mode="random", *extra):
    return "cmd:" + " ".join(shlex.quote(w) for w in [sys.executable, BOT, "--mode", mode, *extra])


def served(game, spec):
    return "cmd:" + " ".join(shlex.quote(w) for w in
                             [sys.executable, "-m", "roost.cli.main", "engine", game, "--engine", spec])


@pytest.fixture(autouse=True)
def hang_guard():
    def fire(signum, frame):
        raise TimeoutError("the protocol test hung")
    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(240)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def engines():
    """Engines a test makes; their programs are ended after it."""
    made = []

    def make(spec, **kw):
        e = parse_engine(spec) if not kw else parse_engine(spec)
        for k, v in kw.items():
            setattr(e, k, v)
        made.append(e)
        return e
    yield make
    for e in made:
        if hasattr(e, "close"):
            e.close()


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output
    if r.exception and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r


# ---------------------------------------------------------------------- forfeits
FAST = TimeControl(5.0, 0.05)


@pytest.mark.parametrize("mode, reason, detail", [
    ("crash", "crash", "exit code 3"),
    ("illegal", "illegal", "is not legal here"),
    ("malformed", "malformed", "does not name one move"),
    ("error", "error", "this bot does not play"),
])
def test_a_broken_engine_loses_the_game_with_its_reason(engines, mode, reason, detail):
    bad, good = engines(bot(mode)), engines(bot("random"))
    rec = play_game(DUCKS, [good, bad], seed=3, tc=FAST)
    assert rec.ending["seat"] == 1 and rec.ending["reason"] == reason
    assert detail in rec.ending["detail"]
    assert rec.result == (1.0, 0.0) and len(rec.moves) == 1     # it failed on its first move
    if mode == "crash":
        assert "crashing on purpose" in rec.ending["detail"]    # its last words, from stderr
    assert not bad.alive                                        # ended by the arena
    # the next game starts it afresh: it plays the first move, then fails again
    rec = play_game(DUCKS, [bad, good], seed=4, tc=FAST)
    assert rec.ending["seat"] == 0 and rec.ending["reason"] == reason and rec.moves == []


def test_an_illegal_connect4_move_is_a_full_column_and_loses_as_illegal(engines):
    # every column is legal on an empty board; the bot names a full one once there is one
    c4 = get_game("connect4")
    bad, good = engines(bot("illegal")), engines(bot("random"))
    rec = play_game(c4, [bad, good], seed=1, start=c4.parse("444444"), tc=FAST)
    assert rec.ending["seat"] == 0 and rec.ending["reason"] == "illegal", rec.ending
    assert "bestmove 4 is not legal here" in rec.ending["detail"] and rec.moves == []
    rec = play_game(c4, [bad, good], seed=1, tc=FAST)      # from the empty board: legal moves
    assert not is_forfeit(rec.ending) or rec.ending["reason"] == "illegal", rec.ending
    assert len(rec.moves) >= 6                               # until a column is full


def test_an_engine_that_never_answers_loses_on_time_within_the_margin(engines):
    hang, good = engines(bot("hang")), engines(bot("random"))
    tc = TimeControl(0.5, 0.0)
    import time
    t0 = time.monotonic()
    rec = play_game(DUCKS, [hang, good], seed=1, tc=tc)
    waited = time.monotonic() - t0
    assert rec.ending["reason"] == "time" and rec.ending["seat"] == 0
    assert rec.result == (0.0, 1.0)
    assert 0.5 + tc.margin <= waited < 5.0
    assert not hang.alive


def test_without_a_clock_the_hang_guard_ends_a_silent_engine(engines):
    hang = engines(bot("hang"), hang_guard=0.5)
    rec = play_game(DUCKS, [engines(bot("random")), hang], seed=1)
    assert rec.ending["reason"] == "time" and "hang guard" in rec.ending["detail"]


def test_a_slow_answer_is_late_only_past_the_margin(engines):
    # 0.2 s a move against 0.15 s on the clock: inside the 0.1 s margin, then out of time
    slow = engines(bot("slow", "--sleep", "0.2"))
    rec = play_game(DUCKS, [slow, engines(bot("random"))], seed=2, tc=TimeControl(0.15, 0.0))
    assert rec.ending["seat"] == 0 and rec.ending["reason"] == "time"
    assert [m for m in rec.movers if m == 0] == [0]            # the first answer counted


def test_when_the_clock_runs_out_the_arena_sends_stop_and_takes_the_answer(engines, tmp_path):
    import time
    heard, quick = tmp_path / "stoppable.txt", tmp_path / "random.txt"
    stoppable = engines(bot("stoppable", "--record", str(heard)))
    good = engines(bot("random", "--record", str(quick)))
    t0 = time.monotonic()
    # a generous margin: the answer to stop is late only on a machine stalled for a second
    rec = play_game(DUCKS, [stoppable, good], seed=5, tc=TimeControl(0.15, 0.15, margin=1.0))
    # it answers only on stop, each time within the margin: every one of its moves counts
    mine = [m for m in rec.movers if m == 0]
    assert len(mine) >= 3 and not is_forfeit(rec.ending), (rec.movers, rec.ending)
    assert heard.read_text().count("stop\n") == len(mine)
    assert "stop" not in quick.read_text()                  # an engine on time is never stopped
    assert time.monotonic() - t0 < 30


def test_an_engine_that_ignores_stop_still_loses_on_time(engines, tmp_path):
    heard = tmp_path / "hang.txt"
    hang = engines(bot("hang", "--record", str(heard)))
    rec = play_game(DUCKS, [hang, engines(bot("random"))], seed=1, tc=TimeControl(0.3, 0.0))
    assert rec.ending["reason"] == "time" and "margin" in rec.ending["detail"]
    assert heard.read_text().endswith("stop\n")


def test_an_engine_that_never_finishes_the_handshake_loses(engines):
    silent = engines(bot("nohandshake"), handshake_timeout=0.5)
    rec = play_game(DUCKS, [engines(bot("random")), silent], seed=1, tc=FAST)
    assert rec.ending == {"seat": 1, "reason": "handshake",
                          "detail": "did not finish the handshake (roostok) within 0.5s"}
    assert rec.moves == [] and rec.result == (1.0, 0.0)


def test_a_missing_program_is_refused_when_the_spec_is_read():
    from roost.core.errors import EngineSpecError
    with pytest.raises(EngineSpecError, match="no such program './no-such-bot'"):
        parse_engine("cmd:./no-such-bot --fast")
    with pytest.raises(EngineSpecError, match="needs a command"):
        parse_engine("cmd:")
    with pytest.raises(EngineSpecError, match="does not split into words"):
        parse_engine("cmd:bot 'unclosed")
    assert str(parse_engine(bot()).spec) == bot()       # parsing starts nothing


def test_in_n_player_games_the_forfeiter_scores_last_and_the_others_share():
    assert forfeit_result(4, 2) == (1 / 3, 1 / 3, 0.0, 1 / 3)
    assert forfeit_result(2, 0) == (0.0, 1.0) and forfeit_result(1, 0) == (0.0,)


def test_an_in_process_engine_that_raises_forfeits_and_the_match_goes_on():
    class Broken(Engine):
        kind = "broken"

        def choose(self, state, limit=None, **options):
            raise ValueError("out of its depth")
    rec = play_game(get_game("cubirds"), [parse_engine("random"), Broken(), parse_engine("random")], seed=1)
    assert rec.ending == {"seat": 1, "reason": "crash", "detail": "ValueError: out of its depth"}
    assert rec.result == (0.5, 0.0, 0.5)


def test_a_hung_worker_is_ended_by_the_arena_and_restarted(engines):
    # an in-process spec on a clock runs in a worker process; freeze it mid-game (as a
    # search that never returns would) and the arena ends it on time
    worker = arena_engine("random", DUCKS, TimeControl(1.0, 0.0))
    assert isinstance(worker, ProtocolEngine) and str(worker.spec) == "random"
    try:
        pids = []

        def freeze(state, record):
            if len(record.moves) == 2 and not pids:
                pids.append(worker.program.pid)
                os.kill(worker.program.pid, signal.SIGSTOP)
        rec = play_game(DUCKS, [worker, parse_engine("random")], seed=5,
                        tc=TimeControl(1.0, 0.0), on_move=freeze)
        assert rec.ending["seat"] == 0 and rec.ending["reason"] == "time"
        assert not worker.alive
        rec = play_game(DUCKS, [worker, parse_engine("random")], seed=5, tc=TimeControl(1.0, 0.0))
        assert not is_forfeit(rec.ending) and worker.program.pid != pids[0]
    finally:
        worker.close()


# ---------------------------------------------------------------------- through the CLI
def test_a_tournament_goes_on_past_forfeits_and_shows_them(tmp_path):
    db = str(tmp_path / "t.db")
    r = run("tournament", "ducks", "-e", bot("random"), "-e", bot("crash"), "-e", "random",
            "--games", 2, "--jobs", 1, "--db", db, "--tc", "5+0.05")
    assert r.exit_code == 0, r.output
    assert "6/6 games (complete)" in r.output and "clocks 5+0.05" in r.output
    assert f"{bot('crash')}: 4 (crash 4)" in r.output
    # the crosstable marks the games each row engine forfeited against each column engine
    table = r.output.split("crosstable:")[1].splitlines()
    crash_row = next(l for l in table if bot("crash") in l)        # ranked last
    assert crash_row.split(bot("crash"))[1].split() == ["0/2", "2f", "0/2", "2f", "-"]
    assert "(Nf: N of those games the row engine forfeited)" in r.output
    recs = read_records(db)
    crashed = [x for x in recs if is_forfeit(x.ending)]
    assert len(crashed) == 4 and all(x.ending["reason"] == "crash" for x in crashed)
    assert all(x.seats[x.ending["seat"]] == bot("crash") for x in crashed)
    for x in recs:
        replay(x)                                    # a forfeited game replays to where it ended
    r = run("tournament", "ducks", "-e", bot("random"), "-e", bot("crash"), "-e", "random",
            "--games", 2, "--jobs", 1, "--db", db, "--tc", "5+0.05", "--json")
    d = json.loads(r.output)
    assert {e["name"]: e["forfeits"] for e in d["engines"]}[bot("crash")] == {"crash": 4}
    assert [[c and c["forfeits"] for c in row] for row in d["crosstable"]] == [[None, 0, 0], [2, None, 2], [0, 0, None]]
    gid = crashed[0].id
    r = run("replay", db, gid, "--all")
    assert "ended early: p" in r.output and "forfeits: crash: exited (exit code 3)" in r.output
    lines = [json.loads(l) for l in run("export", db).output.splitlines()]
    assert [l["ending"]["reason"] for l in lines if l["id"] == gid] == ["crash"]
    assert all(not is_forfeit(l["ending"]) for l in lines if l["id"] not in {x.id for x in crashed})


def test_a_pool_of_workers_runs_clocked_roost_engines(tmp_path):
    db = str(tmp_path / "p.db")
    r = run("tournament", "ducks", "-e", "random", "-e", "mcts:iterations=50", "--games", 2,
            "--jobs", 2, "--db", db, "--tc", "10+0.1", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["counted"] == 2 and d["config"]["tc"] == "10+0.1"
    assert all(not e["forfeits"] for e in d["engines"])


def test_play_takes_cmd_specs_and_a_clock():
    r = run("play", "ducks", "-e", served("ducks", "ab:depth=2"), "-e", "mcts:iterations=30",
            "--tc", "10+0.1", "--games", 2, "--json")
    assert r.exit_code == 0, r.output
    games = [json.loads(l) for l in r.output.splitlines()[:2]]
    assert all(not is_forfeit(g["ending"]) and g["tc"] == "10+0.1" for g in games)
    r = run("play", "ducks", "-e", bot("illegal"), "-e", "random", "--games", 2)
    assert r.exit_code == 0 and "(p0 forfeits: illegal: bestmove" in r.output
    assert f"forfeits: {bot('illegal')}: 2 (illegal 2)" in r.output


@pytest.mark.parametrize("tc, says", [("abc", "is not BASE+INC"), ("0+1", "more than 0"),
                                      ("5+-1", "INC at least 0")])
def test_a_bad_time_control_is_one_clear_message(tc, says):
    r = run("play", "ducks", "-e", "random", "--tc", tc)
    assert r.exit_code == 2 and says in r.output


# ---------------------------------------------------------------------- roost against itself
SELF_PLAY = [("ducks", 2, ["mcts:iterations=30", "ab:depth=1"]),
             ("tweeeet", 2, ["mcts:iterations=20", "random"]),
             ("leaves", 3, ["mcts:iterations=20", "random", "ismcts:iterations=10"]),
             ("leaves", 4, ["random", "mcts:iterations=10", "random", "pimc:worlds=2,iterations=5"]),
             ("cubirds", 3, ["ismcts:iterations=20", "random", "pimc:worlds=2,iterations=10"]),
             ("wingspan", 2, ["mcts:iterations=20", "ab:depth=1"]),
             ("connect4", 2, ["ab:depth=3", "mcts:iterations=50"]),
             # auto's proof, after its main search or on a thread beside it
             ("connect4", 2, ["auto:nodes=3000,book=none", "auto:nodes=2000,threads=2,book=none"])]


@pytest.mark.parametrize("game, players, specs", SELF_PLAY)
def test_roost_engine_through_the_protocol_plays_the_in_process_game(engines, game, players, specs):
    # Fixed budgets and the arena's seeds in go: every move must be the one the engine
    # plays in this process, hidden information included (the served engine searches the
    # world it is sent, which agrees with everything its seat knows).
    g = get_game(game)
    here = play_game(g, [parse_engine(s) for s in specs], seed=17)
    there = play_game(g, [engines(served(game, s)) for s in specs], seed=17)
    assert not is_forfeit(there.ending)
    assert there.names == here.names and there.result == here.result


# ---------------------------------------------------------------------- hidden information
def _decisions(game, players, seed):
    rnd = random.Random(seed)
    s = get_game(game).start(players=players, seed=seed)
    while not s.is_over:
        if s.is_chance:
            s.play_unchecked(s.sample(rnd.getrandbits(63)))
            continue
        yield s
        s.play_unchecked(rnd.choice(s.legal()))


@pytest.mark.parametrize("game, players", [("cubirds", 3), ("wingspan", 2), ("leaves", 2)])
def test_what_a_seat_is_sent_depends_only_on_what_it_sees(game, players):
    # another truth that the mover cannot tell apart from this one must give the same bytes
    checked = 0
    for k, s in enumerate(_decisions(game, players, seed=4)):
        if k % 5:
            continue
        me = s.player
        other = next((w for w in (s.determinized(me, 100 + j) for j in range(20))
                      if w.text() != s.text()), None)
        if other is None:
            continue                 # the seat can tell where every card is
        assert seat_texts(other, me, 7) == seat_texts(s, me, 7)
        position, world = seat_texts(s, me, 7)
        assert get_game(game).parse(world).legal() == s.legal()
        checked += 1
    assert checked >= 5


def _recorded_game(tmp_path, game, players, seed):
    """A game between recording bots: the record, and the lines each seat received."""
    logs = [str(tmp_path / f"seat{k}.log") for k in range(players)]
    seats = [parse_engine(bot("random", "--record", logs[k])) for k in range(players)]
    try:
        rec = play_game(get_game(game), seats, seed=seed)
    finally:
        for e in seats:
            e.close()
    assert not is_forfeit(rec.ending)
    return rec, [open(log, "rb").read().decode().splitlines() for log in logs]


def _check_sent(rec, received, seed):
    """Every seat received, at each of its decisions, exactly the view and world that a
    different truth (another deal of the cards it cannot see) would have produced."""
    from roost.arena.match import derive_seed
    sent = [[l for l in lines if l.startswith(("position ", "world ", "moves "))] for lines in received]
    at = [0] * rec.players
    alternatives = 0
    for ply, (state, mover, _) in enumerate(replay(rec)[:-1]):
        if state.is_chance:
            continue
        k = state.player
        other = next((w for w in (state.determinized(k, 1000 + j) for j in range(20))
                      if w.text() != state.text()), state)
        alternatives += other is not state
        position, world = seat_texts(other, k, derive_seed(derive_seed(seed, ply, 2), 3))
        assert sent[k][at[k]:at[k] + 2] == [f"position {position}", f"world {world}"]
        assert position == (state.view(k) if hasattr(state, "view") else world)
        at[k] += 2
    assert at == [len(x) for x in sent]              # nothing else: no moves, no extra texts
    assert alternatives > len(rec.moves) // 10
    return sent


@pytest.mark.parametrize("players", [2, 4])
def test_no_cubirds_seat_receives_another_seats_hidden_cards(tmp_path, players):
    rec, received = _recorded_game(tmp_path, "cubirds", players, seed=9)
    sent = _check_sent(rec, received, seed=9)
    for k in range(players):
        positions = [l[9:] for l in sent[k] if l.startswith("position ")]
        truths = [st for st, _, _ in replay(rec)[:-1] if not st.is_chance and st.player == k]
        for truth, view in zip(truths, positions):
            v, t = json.loads(view), json.loads(truth.text())
            for j in range(players):
                hidden = len(t["hands"][j]) - len(t["known"][j])
                # another seat's hand: only the cards everyone saw it take, then one ? a card
                assert v["hands"][j] == (t["hands"][j] if j == k else t["known"][j] + "?" * hidden)
            assert isinstance(v["deck"], int)              # the draw pile: a count, no cards


@pytest.mark.parametrize("players", [2, 3])
def test_no_wingspan_seat_receives_another_seats_hidden_cards(tmp_path, players):
    from tests.core.wingspan.test_wingspan_views import assert_hides_secrets
    rec, received = _recorded_game(tmp_path, "wingspan", players, seed=3)
    sent = _check_sent(rec, received, seed=3)
    for k in range(players):
        positions = [l[9:] for l in sent[k] if l.startswith("position ")]
        worlds = [l[6:] for l in sent[k] if l.startswith("world ")]
        truths = [st for st, _, _ in replay(rec)[:-1] if st.player == k]
        assert len(positions) == len(truths) > 20
        for truth, view, world in zip(truths, positions, worlds):
            assert_hides_secrets(view, truth, k)
            assert get_game("wingspan").parse(view).view(k) == view       # the view alone will do
            assert json.loads(world)["seed"] != json.loads(truth.text())["seed"]   # the world's future is its own


def test_no_leaves_seat_receives_the_bag(tmp_path):
    rec, received = _recorded_game(tmp_path, "leaves", 2, seed=5)
    _check_sent(rec, received, seed=5)


# ---------------------------------------------------------------------- the database
def test_a_schema_1_database_reads_and_resumes(tmp_path):
    from roost.arena.store import SCHEMA_VERSION, Store
    db = str(tmp_path / "old.db")
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1, "--db", db)
    assert r.exit_code == 0
    c = sqlite3.connect(db)             # make it the database an earlier roost wrote
    c.execute("ALTER TABLE games DROP COLUMN ending")
    c.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    c.commit()
    c.close()
    assert [x.ending for x in read_records(db)] == [None, None]
    with Store.open(db) as s:
        assert s.meta()["schema_version"] == "1"          # reading changes nothing
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1, "--db", db)
    assert r.exit_code == 0 and "2/2 games (complete)" in r.output
    with Store.open(db) as s:
        assert s.meta()["schema_version"] == str(SCHEMA_VERSION)
        assert [g["ending"] for g in s.games()] == [None, None]
