"""The engine protocol from the engine's side: messages, `roost engine` answering a scripted
session over real pipes (handshake, options, positions, info, bestmove, errors, stop during
an infinite search), and the time manager.  Every wait has a deadline."""
import re
import signal
import subprocess
import sys
import time

import pytest

from roost.protocol import messages as M
from roost.protocol.lines import LineReader
from roost.search.timeman import Clock, TimeManager, MINIMUM, RESERVE

DUCKS_START = "5/6/7/8/9/8/7/6/5 w 0"


@pytest.fixture(autouse=True)
def hang_guard():
    """A last resort: no test of this file may take two minutes."""
    def fire(signum, frame):
        raise TimeoutError("the protocol test hung")
    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


class Session:
    """`roost engine GAME ...` in a child process, spoken to line by line."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([sys.executable, "-m", "roost.cli.main", "engine", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0)
        self.reader = LineReader(self.proc.stdout.fileno())

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write((line + "\n").encode())

    def until(self, word, timeout=30.0):
        """Lines up to and including the first that starts with ``word``."""
        got = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.reader.readline(timeout=max(0.0, deadline - time.monotonic()))
            assert line is not None, f"the engine exited; it said {got}"
            got.append(line)
            if line.split()[:1] == [word]:
                return got

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:       # the test that left it hanging has failed
            self.proc.kill()
            return self.proc.wait()


@pytest.fixture
def session():
    made = []

    def make(*args):
        s = Session(*args)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()


# ---------------------------------------------------------------------- messages
def test_go_lines_round_trip_and_refuse_nonsense():
    go = M.Go(clock=61000, inc=500, nodes=2000, seed=7)
    assert M.Go.parse(go.line()[3:]) == go
    assert M.Go.parse("infinite").infinite
    for bad, says in [("clock", "needs a value"), ("clock soon", "whole number"),
                      ("nodes 0", "at least 1"), ("ponder", "unknown limit")]:
        with pytest.raises(M.ProtocolError, match=says):
            M.Go.parse(bad)


def test_info_lines_read_leniently():
    info = M.Info.parse("depth 4 seldepth 9 nodes 1234 time 15 value 0.62 hashfull 3 pv B@a1 W@a2")
    assert (info.depth, info.seldepth, info.nodes, info.time) == (4, 9, 1234, 15)
    assert info.value == pytest.approx(0.62) and info.pv == ["B@a1", "W@a2"]
    assert M.Info.parse("depth x value 7 string thinking hard").string == "thinking hard"
    assert M.Info.parse("value 7").value == 1.0          # clamped into [0, 1]
    assert M.Info.parse(M.Info(depth=2, value=0.25, pv=["a"]).line()[5:]) == M.Info(depth=2, value=0.25, pv=["a"])


def test_newgame_and_setoption_lines():
    assert M.parse_newgame("ducks players 2 seat 1") == ("ducks", 2, 1)
    with pytest.raises(M.ProtocolError, match="not one of the 2 seats"):
        M.parse_newgame("ducks players 2 seat 2")
    with pytest.raises(M.ProtocolError, match="newgame GAME players N seat K"):
        M.parse_newgame("ducks 2 1")
    assert M.parse_setoption("name depth value 3") == ("depth", "3")


# ---------------------------------------------------------------------- the server
def test_handshake_options_and_a_move(session):
    s = session("ducks", "--engine", "ab:depth=2")
    s.send("roost 1")
    hello = s.until("roostok")
    assert hello[0] == "id name roost ab:depth=2"
    assert "option name depth type int default 0 min 1 max 150" in hello
    assert "option name eval type choice default game var game var none" in hello
    assert hello[-1] == "roostok 1"
    s.send("newgame ducks players 2 seat 1", "isready")
    assert s.until("readyok") == ["readyok"]
    s.send(f"position {DUCKS_START}", "moves B@a1", "go seed 5")
    got = s.until("bestmove")
    infos = [M.Info.parse(l[5:]) for l in got if l.startswith("info ")]
    assert [i.depth for i in infos[:2]] == [1, 2]       # live, one line per iteration
    from roost.core.games import get_game
    state = get_game("ducks").parse(DUCKS_START).play_move("B@a1")
    assert state.parse_move(got[-1].split()[1]) in state.legal()


def test_the_same_seed_gives_the_same_move_and_options_change_the_engine(session):
    s = session("ducks", "--engine", "mcts:iterations=200")
    s.send("roost 1")
    s.until("roostok")
    moves = []
    for _ in range(2):           # a new game forgets the tree: the same search again
        s.send("newgame ducks players 2 seat 0", f"position {DUCKS_START}", "go seed 11")
        moves.append(s.until("bestmove")[-1])
    assert moves[0] == moves[1]
    s.send("setoption name iterations value 50", "go seed 11")
    info = M.Info.parse(s.until("bestmove")[-2][5:])
    assert info.nodes == 50


def test_bad_commands_get_one_error_line_and_the_engine_goes_on(session):
    s = session("ducks", "--engine", "random")
    s.send("roost 1")
    s.until("roostok")
    cases = [("newgame cubirds players 2 seat 0", "plays ducks, not cubirds"),
             ("go", "no position was sent"),
             ("position not a pond", "does not parse"),
             ("setoption name depth value 3", "random has no option 'depth'")]
    for line, says in cases:
        s.send(line)
        if line.startswith("position"):
            s.send("go")
        got = s.until("error")
        assert says in got[-1], got
    s.send(f"position {DUCKS_START}", "moves Z@z9", "go")
    assert "move 1 (Z@z9) does not play" in s.until("error")[-1]
    s.send("frobnicate")
    assert "unknown command 'frobnicate'" in s.until("info")[-1]
    s.send("isready")
    s.until("readyok")


def test_stop_ends_an_infinite_search_and_isready_is_answered_during_it(session):
    s = session("ducks", "--engine", "mcts")
    s.send("roost 1", "newgame ducks players 2 seat 0", f"position {DUCKS_START}", "go infinite")
    s.until("roostok")
    time.sleep(0.3)
    t0 = time.monotonic()
    s.send("isready")
    s.until("readyok", timeout=5)
    s.send("stop")
    got = s.until("bestmove", timeout=5)
    assert time.monotonic() - t0 < 5
    assert M.Info.parse(got[-2][5:]).nodes > 100     # it searched until told to stop
    s.send("isready")
    s.until("readyok")


def test_go_infinite_lifts_the_engines_own_budget_auto_included(session):
    # auto plays MCTS at 1 s a move on Feed the Ducks by default; go infinite searches on past
    # that second (the MCTS family reports at 0.1 s, then twice as long each time: the 7th
    # line comes after 1.6 s) until stop
    s = session("ducks", "--engine", "auto")
    s.send("roost 1", "newgame ducks players 2 seat 0", f"position {DUCKS_START}", "go infinite")
    s.until("roostok")
    lines = []
    while sum(line.startswith("info ") for line in lines) < 7:
        line = s.reader.readline(timeout=60)
        assert line is not None and not line.startswith("bestmove"), f"it stopped by itself: {lines} {line}"
        lines.append(line)
    s.send("stop")
    assert s.until("bestmove", timeout=30)[-1].split()[0] == "bestmove"


@pytest.mark.parametrize("spec,moves,played,proof", [
    ("auto:book=none", "237136322211245", "3", "6 loses (proven): 3 instead"),
    ("auto:book=none,threads=2", "7427466465253455364", "6", "win (proven)")])
def test_auto_s_proof_plays_through_the_protocol_as_in_process(session, spec, moves, played, proof):
    # auto's main search alone plays another move here (after it, the proof shows that move
    # to lose; beside it, the proof settles a win first): served, auto proves as it does in
    # the arena's own process, and the same seed gives the same move
    from roost.core.games import get_game
    from roost.search.engines import parse_engine
    state = get_game("connect4").parse(moves)
    auto = parse_engine(spec + ",nodes=20000")
    here = auto.choose(state, seed=5)
    assert here.move_name == played and here.info["proof"] == proof
    assert parse_engine(str(auto.engine_for(state).spec)).choose(state, seed=5).move_name != played
    s = session("connect4", "--engine", spec)
    s.send("roost 1", "newgame connect4 players 2 seat 0", f"position {state.text()}", "go nodes 20000 seed 5")
    assert s.until("bestmove")[-1].split()[1] == played


@pytest.mark.parametrize("spec", ["auto", "auto:threads=2"])
def test_stop_ends_auto_s_search_and_its_proof_at_once(session, spec):
    # an eight-stone Connect Four start whose proof takes most of a second: stop ends the
    # main search and the proof beside it, and the engine answers and goes on
    s = session("connect4", "--engine", spec)
    s.send("roost 1", "newgame connect4 players 2 seat 0", "position 16351371", "go movetime 60000")
    s.until("roostok")
    time.sleep(0.5)
    t0 = time.monotonic()
    s.send("stop")
    assert s.until("bestmove", timeout=5)[-1].split()[0] == "bestmove"
    assert time.monotonic() - t0 < 5
    s.send("position 4455", "go movetime 100")
    assert s.until("bestmove", timeout=10)[-1].split()[0] == "bestmove"


def test_quit_during_a_search_answers_then_leaves(session):
    s = session("ducks", "--engine", "mcts")
    s.send("roost 1", "newgame ducks players 2 seat 0", f"position {DUCKS_START}", "go infinite")
    s.until("roostok")
    time.sleep(0.2)
    s.send("quit")
    s.until("bestmove", timeout=5)
    assert s.proc.wait(timeout=5) == 0


def test_stop_and_quit_end_the_search_whatever_is_queued_behind_it(session):
    # a stop ends at once every search asked for before it: the one under way and a go
    # still waiting behind it; nothing queued keeps a stop or a quit from the search
    s = session("ducks", "--engine", "mcts")
    s.send("roost 1", "newgame ducks players 2 seat 0", f"position {DUCKS_START}")
    s.until("roostok")
    s.send("go infinite", "go movetime 300", "stop", "stop", "isready", "quit")
    # everything the engine says until it leaves: whether readyok comes before or after the
    # second bestmove depends on how the threads were scheduled, not on the engine
    got = []
    while (line := s.reader.readline(timeout=10)) is not None:
        got.append(line)
    assert [line.split()[0] for line in got if line.startswith(("bestmove", "readyok"))].count("bestmove") == 2, got
    assert "readyok" in got, got
    assert s.proc.wait(timeout=10) == 0


def test_the_end_of_the_input_is_quit():
    # a go infinite and then the end of the input: the search ends, is answered, and the
    # engine leaves (as a UCI engine takes the end of its input for quit)
    for spec in ("mcts", "ab"):
        proc = subprocess.Popen([sys.executable, "-m", "roost.cli.main", "engine", "ducks", "-e", spec],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(f"roost 1\nposition {DUCKS_START}\ngo infinite\n".encode(),
                                        timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        lines = out.decode().splitlines()
        assert proc.returncode == 0 and lines[-1].startswith("bestmove "), (spec, lines[-3:], err)


def test_a_piped_script_gets_an_answer_to_every_go_before_its_quit():
    # the script is read at once, quit included: every go before the quit is answered in
    # order (each search ended at once by the quit), and the engine leaves
    script = ["roost 1", f"position {DUCKS_START}", "go nodes 50000", "go nodes 50",
              "go infinite", "stop", "go nodes 20", "quit", "go nodes 10"]
    r = subprocess.run([sys.executable, "-m", "roost.cli.main", "engine", "ducks", "-e", "mcts"],
                       input="".join(l + "\n" for l in script).encode(), capture_output=True,
                       timeout=60)
    lines = r.stdout.decode().splitlines()
    best = [line for line in lines if line.startswith("bestmove ")]
    assert r.returncode == 0 and len(best) == 4, lines[-5:]
    from roost.core.games import get_game
    state = get_game("ducks").parse(DUCKS_START)
    assert all(state.parse_move(b.split()[1]) in state.legal() for b in best)


def test_a_junk_line_of_a_megabyte_gets_a_short_echo_and_a_longer_one_is_skipped(session):
    s = session("ducks", "--engine", "random")
    s.send("roost 1")
    s.until("roostok")
    s.send("x" * (1 << 20), "isready")
    got = s.until("readyok")
    assert got[0].startswith("info string unknown command 'xxx") and len(got[0]) < 200, got[0][:300]
    s.send("y" * (3 << 20), "isready")
    got = s.until("readyok")
    assert got[0].startswith("info string ") and "longer than" in got[0] and len(got[0]) < 200, got[0][:300]
    s.send(f"setoption name {'z' * 100000} value 1", "isready")
    got = s.until("readyok")
    assert got[0].startswith("error setoption") and len(got[0]) < 300, got[0][:400]
    s.send(f"position {DUCKS_START}", "go")
    s.until("bestmove")


def test_perfect_information_analyses_whoever_is_to_move(session):
    # as a UCI engine analyses any position: the seat given in newgame does not stop a go
    # for the other seat on a game of perfect information
    from roost.core.games import get_game
    s = session("ducks", "--engine", "ab:depth=2")
    s.send("roost 1", "newgame ducks players 2 seat 1", f"position {DUCKS_START}", "go")
    s.until("roostok")
    got = s.until("bestmove")
    state = get_game("ducks").parse(DUCKS_START)
    assert state.player == 0 and state.parse_move(got[-1].split()[1]) in state.legal()
    # a seat's view of hidden cards is that seat's: another seat to move is refused
    cubirds = get_game("cubirds").start(players=2, seed=2)
    while cubirds.is_chance:
        cubirds.play_unchecked(cubirds.sample(5))
    other = 1 - cubirds.player
    s = session("cubirds", "--engine", "ismcts:iterations=20")
    s.send("roost 1", f"newgame cubirds players 2 seat {other}", f"position {cubirds.view(other)}", "go")
    s.until("roostok")
    assert f"this engine plays seat {other}" in s.until("error")[-1]


def _worked_session():
    """The engine (game, spec) and the lines (direction, text) of docs/protocol.md's worked
    session."""
    import pathlib
    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    section = doc.split("## A worked session", 1)[1]
    game, spec = re.search(r"`roost engine (\w+) --engine (\S+)`", section).groups()
    block = section.split("```", 2)[1]
    lines = [(l[0], l[2:]) for l in block.splitlines() if l[:2] in ("> ", "< ")]
    return (game, spec), lines


def _timeless(line):
    # the one field that depends on the machine: the milliseconds a search took
    return re.sub(r" time \d+", " time T", line)


def test_the_worked_session_of_the_protocol_document_is_what_the_engine_says(session):
    (game, spec), lines = _worked_session()
    assert len(lines) > 10 and lines[-1] == (">", "quit")
    s = session(game, "--engine", spec)
    k = 0
    while k < len(lines):
        sent = []
        while k < len(lines) and lines[k][0] == ">":
            sent.append(lines[k][1])
            k += 1
        s.send(*sent)
        expected = []
        while k < len(lines) and lines[k][0] == "<":
            expected.append(lines[k][1])
            k += 1
        if expected:
            got = s.until(expected[-1].split()[0], timeout=30)
            assert [_timeless(l) for l in got] == [_timeless(l) for l in expected]
    assert s.proc.wait(timeout=10) == 0


def test_go_depth_reaches_auto_alpha_beta_and_an_engine_without_one_says_so(session):
    # auto has no depth of its own; on Feed the Ducks at 0.05 s it plays alpha-beta, which takes it
    s = session("ducks", "--engine", "auto:time=0.05")
    s.send("roost 1", "newgame ducks players 2 seat 0", f"position {DUCKS_START}", "go depth 3")
    s.until("roostok")
    got = s.until("bestmove", timeout=30)
    assert M.Info.parse(got[-2][5:]).depth == 3 and not any("string" in l for l in got)
    s = session("connect4", "--engine", "mcts:iterations=200")
    s.send("roost 1", "newgame connect4 players 2 seat 0", "position 4453", "go depth 3")
    s.until("roostok")
    got = s.until("bestmove", timeout=30)
    assert got[0] == "info string mcts has no depth limit; it searches by its other limits"
    assert M.Info.parse(got[-2][5:]).nodes == 200


def test_a_clock_in_go_is_spent_by_the_time_manager(session):
    s = session("ducks", "--engine", "mcts")
    s.send("roost 1", "newgame ducks players 2 seat 0", f"position {DUCKS_START}")
    s.until("roostok")
    s.send("go clock 4000 inc 0")
    info = M.Info.parse(s.until("bestmove", timeout=10)[-2][5:])
    expected = (4.0 - RESERVE) / 39          # a fresh game: the typical decisions of a seat
    assert 0.5 * expected * 1000 <= info.time <= 4 * expected * 1000
    s.send("go clock 200 inc 0")
    info = M.Info.parse(s.until("bestmove", timeout=10)[-2][5:])
    assert info.time <= 150


def test_a_cubirds_seat_view_alone_is_a_position_the_engine_plays(session):
    from roost.core.games import get_game
    state = get_game("cubirds").start(players=3, seed=2)
    while state.is_chance:
        state.play_unchecked(state.sample(5))
    seat = state.player
    s = session("cubirds", "--engine", "ismcts:iterations=50")
    s.send("roost 1", f"newgame cubirds players 3 seat {seat}", f"position {state.view(seat)}", "go")
    s.until("roostok")
    move = s.until("bestmove")[-1].split()[1]
    assert state.parse_move(move) in state.legal()
    s.send(f"position {state.view(seat)}", f"world {state.determinized(seat, 1).text()}", "go")
    move = s.until("bestmove")[-1].split()[1]
    assert state.parse_move(move) in state.legal()


def test_a_wingspan_view_that_cannot_be_is_one_error_line(session):
    import json
    from roost.core.games import get_game
    state = get_game("wingspan").start(players=2, seed=4)
    view = json.loads(state.view(0))
    view["tray"][0] = "Blu Jay"
    s = session("wingspan", "--engine", "ismcts:iterations=5")
    s.send("roost 1", "newgame wingspan players 2 seat 0", f"position {json.dumps(view)}", "go")
    s.until("roostok")
    said = s.until("error")[-1]
    assert said.startswith("error the position does not parse: tray[0]: 'Blu Jay' is not a bird")
    s.send(f"position {state.view(0)}", "go")           # the engine goes on with the next
    move = s.until("bestmove")[-1].split()[1]
    assert state.parse_move(move) in state.legal()


def test_roost_engine_refuses_what_it_cannot_serve():
    for args, says in [(["nogame"], "unknown game"), (["ducks", "-e", "mcts:iters=3"], "no parameter"),
                       (["ducks", "-e", "cmd:true"], "serves roost's own engines")]:
        r = subprocess.run([sys.executable, "-m", "roost.cli.main", "engine", *args],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr


def test_the_server_leaves_at_the_end_of_its_input():
    r = subprocess.run([sys.executable, "-m", "roost.protocol", "ducks", "--engine", "random"],
                       input=b"roost 1\n", capture_output=True, timeout=60)
    assert r.returncode == 0 and r.stdout.decode().splitlines()[-1] == "roostok 1"


# ---------------------------------------------------------------------- the time manager
def test_the_time_manager_spreads_the_clock_over_the_moves_left():
    from roost.core.games import get_game
    ducks = get_game("ducks").parse(DUCKS_START)
    tm = TimeManager("ducks")
    first = tm.allocate(Clock(60.0, 0.0), ducks)
    assert first == pytest.approx((60.0 - RESERVE) / 39)
    with_inc = TimeManager("ducks").allocate(Clock(60.0, 1.0), ducks)
    assert with_inc == pytest.approx(first + 0.8)
    # later moves get a bigger share of what is left, but never more than half of it
    tm.made = 38
    assert tm.allocate(Clock(10.0, 0.0), ducks) == pytest.approx((10.0 - RESERVE) / 4)
    assert TimeManager("ducks").allocate(Clock(0.3, 5.0), ducks) == pytest.approx(0.5 * (0.3 - RESERVE))
    assert TimeManager("ducks").allocate(Clock(0.01, 0.0), ducks) == MINIMUM
    assert TimeManager("cubirds", 5).expected == 42 and TimeManager("nogame").expected == 40


def test_the_time_manager_knows_every_game():
    # the manager finds a game's typical length by the class of its positions
    from roost.core.games import all_games
    from roost.search.timeman import TYPICAL_DECISIONS, typical_decisions
    for g in all_games():
        assert g.name in TYPICAL_DECISIONS
        assert TimeManager.for_state(g.start()).expected == typical_decisions(g.name, g.default_players)


def test_a_forced_move_costs_no_time():
    class OneMove:
        players = 2

        def legal(self):
            return [3]
    tm = TimeManager("ducks")
    assert tm.allocate(Clock(60.0, 0.0), OneMove()) == MINIMUM and tm.made == 0


def test_a_clocks_allotment_is_laid_over_the_spec():
    from roost.core.games import get_game
    from roost.search.engines import parse_engine
    from roost.search.limit import Limit
    ducks = get_game("ducks").parse(DUCKS_START)
    e = parse_engine("mcts:time=5")
    t0 = time.perf_counter()
    r = e.choose(ducks, Limit(clock=2.0), seed=1)
    assert time.perf_counter() - t0 < 1.0 and r.move in ducks.legal()
    assert e.settings["time"] == 5.0                 # the spec's own budget stays
    within = e.spec.within(Limit(time=9.0, nodes=300), ducks)
    assert within["time"] == 5.0 and within["iterations"] == 300
    ab = parse_engine("ab:depth=3")
    within = ab.spec.within(Limit(time=0.5, depth=9), ducks)
    assert (within["time"], within["depth"]) == (0.5, 3)


def test_mcts_info_lines_round_trip():
    info = M.Info(nodes=300, iterations=300, world=2, time=12, nps=25000, value=0.625, best="W@a2",
                  share=0.4, pv=["W@a2", "B@a1"])
    assert M.Info.parse(info.line()[5:]) == info


@pytest.mark.parametrize("spec,game,players,seat", [
    ("mcts:time=0.5", "ducks", 2, 0),
    ("pimc:worlds=2,time=0.5", "cubirds", 2, 0),
])
def test_mcts_family_engines_send_live_info_lines(session, spec, game, players, seat):
    from roost.core.games import get_game
    from roost.protocol.views import seat_texts
    state = get_game(game).start(players=players, seed=1)
    while state.is_chance:
        state.play_unchecked(state.sample(3))
    s = session(game, "--engine", spec)
    s.send("roost 1")
    s.until("roostok")
    s.send(f"newgame {game} players {players} seat {state.player}")
    if state.hidden_info:
        view, world = seat_texts(state, state.player, 4)
        s.send(f"position {view}", f"world {world}")
    else:
        s.send(f"position {state.text()}")
    s.send("go seed 3")
    got = s.until("bestmove", timeout=20)
    infos = [M.Info.parse(l[5:]) for l in got if l.startswith("info ")]
    # live reports (after the first iteration, then at growing intervals) and the last one
    assert len(infos) >= 3, got
    assert all(i.iterations and i.best and i.value is not None and i.pv for i in infos), got
    live = [(i.world or 1, i.iterations) for i in infos[:-1]]      # PIMC counts per world
    assert live == sorted(live) and live[0][1] == 1
    assert ("pimc" in spec) == (live[-1][0] == 2)
    assert infos[-1].best == got[-1].split()[1]


def test_a_search_stopped_before_it_has_anything_still_answers_with_its_own_move():
    # a stop that reaches the search before it has a move of its own is answered by the
    # engine's smallest search (one ply, a few hundred iterations), never by a move drawn
    # at random: here the first player wins at once in column 4 alone
    for spec in ("ab", "mcts", "auto"):
        done = subprocess.run([sys.executable, "-m", "roost.cli.main", "engine", "connect4", "-e", spec],
                              input="roost 1\nposition 112233\ngo infinite\nstop\n", text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == 0 and done.stdout.splitlines()[-1] == "bestmove 4", (spec, done.stdout[-300:])
