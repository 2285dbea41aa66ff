#!/usr/bin/env python3
"""The smallest complete engine for the roost engine protocol (docs/protocol.md): it plays
Connect Four, choosing a legal move at random, in plain Python with nothing but the
standard library, so that the same few steps can be written in any language.

    roost play connect4 -e "cmd:python3 examples/randombot.py" -e random --tc 5+0.1

The protocol sends a position and the moves since; it does not send the legal moves, so an
engine knows the rules of its game.  Connect Four's are the shortest: the position text is
the columns played so far (`4453`, `-` for the empty board), a move is a column `1`-`7`,
and a column takes at most 6 stones.
"""
import random
import sys

COLUMNS, HEIGHT = "1234567", 6


def say(line):
    print(line, flush=True)          # an answer must reach the arena at once


def legal_moves(position, moves):
    """The columns with room for a stone, after the position and the moves since."""
    played = ("" if position == "-" else position) + "".join(moves)
    return [c for c in COLUMNS if played.count(c) < HEIGHT]


def main():
    game, position, moves = None, "-", []
    for line in sys.stdin:               # the engine runs until its input ends (or quit)
        word, _, rest = line.strip().partition(" ")
        if word == "roost":              # the handshake: who we are, then the version
            say("id name randombot")
            say("id author the roost examples")
            say("roostok 1")
        elif word == "isready":
            say("readyok")
        elif word == "newgame":          # newgame GAME players N seat K
            game = rest.split()[0]
        elif word == "position":         # position TEXT: the moves that follow start here
            position, moves = rest, []
        elif word == "moves":
            moves = rest.split()
        elif word == "go":               # go [clock MS] [inc MS] [seed S] ...: answer at once
            if game != "connect4":
                say(f"error randombot plays connect4, not {game}")
                continue
            limits = rest.split()
            seed = int(limits[limits.index("seed") + 1]) if "seed" in limits else None
            say("bestmove " + random.Random(seed).choice(legal_moves(position, moves)))
        elif word == "quit":
            break
        # any other command (setoption, stop, world, ...) is ignored, as the protocol asks


if __name__ == "__main__":
    main()
