"""The position as text for people (``Wingspan.render``) and the pending decision as a
short question (``Wingspan.question``), in plain Python over the position dict."""
from roost.core.wingspan import text as _text
from roost.core.wingspan.tables import (
    BIRD_NAMES, BONUS_NAMES, FOODS, GOALS, HABS, PURPOSES, PH_SETUP, PH_PLAY, PH_OVER)

_GOAL_TEXT = {g["id"]: g["description"] for g in GOALS["sides"]}
_HIDDEN_PURPOSES = ("SETUP_KEEP_BIRD", "SETUP_DISCARD_FOOD", "SETUP_KEEP_BONUS", "BONUS_KEEP",
                    "TUCK_FROM_HAND")


def _food_text(counts):
    parts = [f"{FOODS[t]}{counts[t]}" for t in range(5) if counts[t]]
    return " ".join(parts) if parts else "-"


def _head(s, raw, d, observer):
    n = raw["n"]
    head = f"Wingspan, {n} player{'s' if n > 1 else ''}, {d['side']} goals"
    if raw["phase"] == PH_SETUP:
        head += ", setup"
    elif raw["phase"] == PH_PLAY:
        head += f", round {raw['round']} of 4, turn {raw['t'] + 1} of {n * (9 - raw['round'])}, " \
                f"seat {raw['cur']} to play"
    else:
        head += ", game over"
    if observer is not None:
        head += f" (seen by seat {observer})"
    goal_line = []
    for r in range(4):
        pts = ""
        if r < raw["nscored"]:
            pts = " [" + " ".join(str(x) for x in raw["goal_pts"][r]) + "]"
        goal_line.append(f"R{r + 1} {_GOAL_TEXT[raw['goals'][r]]}{pts}")
    feeder = " ".join("IS" if f == 5 else FOODS[f] for f in d["feeder"])
    tray = " | ".join(BIRD_NAMES[b] if b >= 0 else "-" for b in d["tray"])
    piles = (f"deck {len(raw['deck'])} (epoch {raw['depoch']}), discard pile {len(raw['discard'])}, "
             f"bonus deck {len(raw['bdeck'])}, bonus discards {len(raw['bdiscard'])}")
    if raw["draft"]:
        piles += f", draft pool: {', '.join(BIRD_NAMES[b] for b in d['draft'])}"
    return [head, "goals: " + "; ".join(goal_line),
            f"feeder: {feeder} ({5 - len(d['feeder'])} outside)   tray: {tray}", piles]


def _seat_lines(raw, d, p, observer, score):
    P = raw["players"][p]
    pd = d["players"][p]
    tag = f"seat {p}" + (" (you)" if observer == p else "") + \
          ("*" if raw["phase"] != PH_OVER and p == raw["actor"] else "")
    lines = [f"{tag}: food {_food_text(pd['food'])} | cubes {P['cubes']} | score {score}"
             + (f" | owes {P['owe']} discard(s)" if P["owe"] else "")]
    nhand = len(P["hand"])
    if observer is None or observer == p:
        hand = ", ".join(BIRD_NAMES[b] + ("" if tg == 0 else f" [{tg}]") for b, tg in pd["hand"]) or "-"
        bonus = ", ".join(BONUS_NAMES[b] for b, _ in pd["bonus"]) or "-"
    else:
        known = [BIRD_NAMES[b] for b, tg in pd["hand"] if tg == "p"]
        hidden = nhand - len(known)
        hand = ", ".join(known + ([f"{hidden} hidden"] if hidden else [])) or "-"
        bonus = f"{len(pd['bonus'])} hidden"
    lines.append(f"   hand {nhand}: {hand}")
    lines.append(f"   bonus: {bonus}")
    for h in range(3):
        cells = []
        for col, bird in enumerate(pd["mat"][h]):
            slot = 5 * h + col
            b = bird["id"]
            extra = [f"eggs {bird['egg']}/{_text._EGGS[b]}"]
            if any(bird["cache"]):
                extra.append("cache " + _food_text(bird["cache"]))
            if P["ntuck"][slot]:
                extra.append(f"tucked {P['ntuck'][slot]}")
            if (P["pink_used"] >> slot) & 1:
                extra.append("used")
            cells.append(f"{BIRD_NAMES[b]} ({', '.join(extra)})")
        lines.append(f"   {HABS[h]:<9}: " + (" | ".join(cells) if cells else "-"))
    return lines


def render(s, observer=None):
    raw = s._raw()
    d = _text.to_dict(s)
    scores = s.scores()
    lines = _head(s, raw, d, observer)
    for p in range(raw["n"]):
        lines += _seat_lines(raw, d, p, observer, scores[p])
    if raw["phase"] == PH_OVER:
        res = s.result()
        lines.append("final scores: " + ", ".join(f"seat {p} {scores[p]}" for p in range(raw["n"]))
                     + "; result " + " ".join(f"{x:g}" for x in res))
        return "\n".join(lines)
    purpose = PURPOSES[raw["purpose"]]
    if observer is None or observer == raw["actor"] or purpose not in _HIDDEN_PURPOSES:
        ctx = ""
        if purpose == "SETUP_KEEP_BIRD" and (observer is None or observer == raw["actor"]):
            ctx = f" (keep {BIRD_NAMES[raw['players'][raw['actor']]['hand'][raw['stack'][-1]['i']]]}?)"
        lines.append(f"seat {raw['actor']} decides {purpose}{ctx}: " + " ".join(s.legal_names()))
    else:
        lines.append(f"seat {raw['actor']} decides {purpose} (hidden)")
    return "\n".join(lines)


def question(s):
    return None
