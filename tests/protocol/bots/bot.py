#!/usr/bin/env python3
"""A tiny engine for the protocol tests: it speaks the engine protocol on stdin/stdout and,
by --mode, plays or misbehaves.

  random       uniformly random legal moves (the game's rules from the roost library)
  exit         exits at once with status 1, a word on stdout and another on stderr (a
               program that cannot start)
  hang         shakes hands, then never answers go
  crash        shakes hands, then exits with status 3 on go (a word on stderr first)
  illegal      answers go with a move of the game that is not legal in the position
               (a random legal one where there is none, as on an empty Connect Four board)
  malformed    answers go with a bestmove that names no move
  error        answers go with an error line
  nohandshake  reads everything, answers nothing
  slow         plays random moves after sleeping --sleep seconds
  stoppable    searches until told to stop, then plays a random legal move

--record FILE appends every line it receives, byte for byte, to FILE.  Every mode leaves at
the end of its input, unless --deaf.  What the arena must clean up after:

  --spawn KINDS   before the handshake, start children that sleep until killed, one per
                  kind (comma-separated): fork (a child in the bot's process group), setsid
                  (a child detached into a session of its own), double (a grandchild left by
                  a child that exits at once, detached with setsid too)
  --deaf          ignore quit, the end of the input, SIGTERM and SIGINT: only a kill ends it
  --flood MB      write MB megabytes to stderr before the handshake, then a last line
  --tag TEXT      ignored: a marker in the command line of the bot and of every child it
                  forks, for a test to find them in /proc
"""
import argparse
import os
import random
import signal
import sys
import time


def sleep_forever():
    while True:
        time.sleep(60)


def spawn(kind):
    """A child of ``kind`` (see the module) sleeping until it is killed."""
    pid = os.fork()
    if pid:
        if kind == "double":
            os.waitpid(pid, 0)           # the middle child exits at once
        return
    try:
        if kind in ("setsid", "double"):
            os.setsid()
        if kind == "double" and os.fork():
            os._exit(0)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sleep_forever()
    finally:
        os._exit(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="random")
    ap.add_argument("--record", default=None)
    ap.add_argument("--sleep", type=float, default=0.0)
    ap.add_argument("--spawn", default="")
    ap.add_argument("--deaf", action="store_true")
    ap.add_argument("--flood", type=float, default=0.0)
    ap.add_argument("--tag", default=None)
    args = ap.parse_args()
    if args.mode == "exit":
        print("bot: hello", flush=True)
        sys.stderr.write("bot: cannot start: no weights file\n")
        sys.exit(1)
    for kind in filter(None, args.spawn.split(",")):
        spawn(kind)
    if args.deaf:
        for s in (signal.SIGTERM, signal.SIGINT):
            signal.signal(s, signal.SIG_IGN)
    if args.flood:
        chunk = b"bot: flooding stderr " + b"." * 1000 + b"\n"
        for _ in range(int(args.flood * (1 << 20)) // len(chunk)):
            sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.write(b"bot: the last words after the flood\n")
        sys.stderr.flush()
    record = open(args.record, "ab") if args.record else None
    out = sys.stdout
    game = None
    position = world = None
    moves = []
    thinking = None                  # the go being answered on stop

    def say(line):
        out.write(line + "\n")
        out.flush()

    for raw in sys.stdin.buffer:
        if record is not None:
            record.write(raw)
            record.flush()
        line = raw.decode("utf-8").strip()
        word, _, rest = line.partition(" ")
        if args.mode == "nohandshake":
            continue
        if word == "roost":
            say(f"id name test bot ({args.mode})")
            say("id author roost tests")
            say("roostok 1")
        elif word == "newgame":
            from roost.core.games import get_game
            game = get_game(rest.split()[0])
        elif word == "isready":
            say("readyok")
        elif word == "position":
            position, world, moves = rest, None, []
        elif word == "world":
            world = rest
        elif word == "moves":
            moves = rest.split()
        elif word == "stop" and thinking is not None:
            rest, thinking = thinking, None
            play(game, position, world, moves, rest, say)
        elif word == "go":
            if args.mode == "hang":
                continue
            if args.mode == "stoppable":
                thinking = rest
                continue
            if args.mode == "crash":
                sys.stderr.write("bot: crashing on purpose\n")
                sys.stderr.flush()
                sys.exit(3)
            if args.mode == "malformed":
                say("bestmove")
                continue
            if args.mode == "error":
                say("error this bot does not play")
                continue
            if args.mode == "slow":
                time.sleep(args.sleep)
            play(game, position, world, moves, rest, say, illegal=args.mode == "illegal")
        elif word == "quit":
            break
    if args.deaf:
        sleep_forever()


def play(game, position, world, moves, go, say, illegal=False):
    """Answer ``go`` with a random legal move (or, ``illegal``, a move that is not legal)."""
    state = game.parse(world or position)
    for name in moves:
        state.play_move(state.parse_move(name))
    legal = state.legal()
    m = None
    if illegal:              # a move of the game that is not legal here, if there is one
        m = next((m for m in range(4096) if m not in legal and _names(state, m)), None)
    if m is None:            # (every move is legal on an empty Connect Four board)
        m = random.Random(go).choice(legal)
    say("info depth 1 nodes 1 value 0.5 pv " + state.move_name(m))
    say("bestmove " + state.move_name(m))


def _names(state, m):
    try:
        return state.parse_move(state.move_name(m)) == m
    except Exception:
        return False


if __name__ == "__main__":
    main()
