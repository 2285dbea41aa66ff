"""Positions in words for the commands: the sides as each game names them (White and Black,
the robins and the bluethroats, X and O, or seats), results, and the decision to be taken."""
from roost.arena.picture import render_module


def side_name(state, player):
    """'White', 'the robins', 'X', or 'seat 2' for a game whose players are seats."""
    names = getattr(render_module(state), "SIDE_NAMES", None)
    if names and 0 <= player < len(names):
        return names[player]
    return f"seat {player}"


def agrees(state, verb):
    """``verb`` (its plural form: 'win', 'play') as it agrees with the game's side names:
    'wins' after 'White', 'win' after 'the bluethroats'."""
    plural = getattr(render_module(state), "SIDES_ARE_PLURAL", False)
    return verb if plural else verb + "s"


def mover_text(state):
    """Who acts now: 'White', 'seat 1', 'chance'."""
    if state.is_over:
        return "nobody (the game is over)"
    if state.is_chance:
        return "chance"
    return side_name(state, state.player)


def result_text(result, state):
    """A finished game's result in words, then the numbers: 'Black wins (result 0 1)'."""
    numbers = " ".join(f"{r:g}" for r in result)
    best = max(result)
    top = [p for p, r in enumerate(result) if r == best]
    if len(top) == len(result):
        words = "a draw" if len(result) == 2 else "shared by every seat"
    elif len(top) == 1:
        words = f"{sentence(side_name(state, top[0]))} {agrees(state, 'win')}"
    else:
        words = sentence(" and ".join(side_name(state, p) for p in top)) + " share the win"
    return f"{words} (result {numbers})"


def over_text(state):
    """A finished game in words: its result, then why it ended ('a draw (result 0.5 0.5):
    drawn by repetition: ...')."""
    ending = state.ending()
    return result_text(state.result(), state) + (f": {ending['detail']}" if ending else "")


def move_names(state, moves=None):
    """The names of ``moves`` (default: the legal ones), each with what it does where the
    game explains a bare name (Wingspan's yes/no: 'no (discard it)')."""
    moves = state.legal() if moves is None else moves
    explain = getattr(state, "explain_move", None)
    return [explain(m) if explain else state.move_name(m) for m in moves]


def question(state, observer=None):
    """The decision to be taken, as the game asks it (Wingspan), or None."""
    ask = getattr(state, "question", None)
    if ask is None or state.is_over or state.is_chance:
        return None
    return ask(observer)


def sentence(text):
    """``text`` with a capital first letter, to begin a sentence."""
    return text[:1].upper() + text[1:]
