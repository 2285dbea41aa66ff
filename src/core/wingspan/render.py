"""The position as text for people (``Wingspan.render``) and the pending decision as a
short question (``Wingspan.question``), in plain Python over the position dict."""
from roost.core.wingspan import jsonform as _text
from roost.core.wingspan import jsonform_fields as _fields
from roost.core.wingspan.tables import (
    BIRDS, BIRD_NAMES, BIRD_SLUGS, BONUS_NAMES, BONUS_SLUGS, FOODS, FRAME_NAMES, GOALS, HABS,
    HAB_LETTERS, NEST_NAMES, PURPOSES, PH_SETUP, PH_PLAY, PH_OVER)

_GOAL_TEXT = {g["id"]: g["description"] for g in GOALS["sides"]}

FOOD_LEGEND = ("food: I invertebrate, S seed, F fish, R fruit, M rodent; a feeder die IS shows "
               "invertebrate and seed (either may be taken); * marks the seat to act")


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
        decided = setup_decisions(raw, p)
        hand = ", ".join(BIRD_NAMES[b] + ("" if tg == 0 else f" [{tg}]")
                         + (f" ({decided[k]})" if k < len(decided) else "")
                         for k, (b, tg) in enumerate(pd["hand"])) or "-"
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
            extra = [f"eggs {bird['egg']}/{_fields._EGGS[b]}"]
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
    lines.append(FOOD_LEGEND)
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the question
_FOOD_NAMES = ("invertebrate", "seed", "fish", "fruit", "rodent")
_ROW_ACTION = ("gain food", "lay eggs", "draw cards")


def _power_bird(raw):
    """The bird whose power the pending node belongs to (the top POW frame), or -1."""
    top = raw["stack"][-1] if raw["stack"] else None
    return top["bird"] if top is not None and top["f"] == FRAME_NAMES.index("POW") else -1


def _yes_no(question, yes, no):
    return f"{question} (yes: {yes}; no: {no})"


def _yes_no_meanings(raw, purpose):
    """(what no does, what yes does) at a YESNO node, in the words of question()."""
    top = raw["stack"][-1]
    if purpose == "SETUP_KEEP_BIRD":
        return "discard it", "keep it and pay a food for it"
    if purpose == "POWER_CONFIRM":
        return "pass", "use it"
    if purpose == "CACHE_CHOICE":
        return f"keep the {_FOOD_NAMES[top['food']]} in your supply", "cache it (1 point)"
    return "keep the feeder", "reroll all 5 dice"


def setup_decisions(raw, p):
    """Seat ``p``'s answers so far to setup's "keep this dealt bird?" questions (§6.1), in
    the order of the dealt hand: "kept" or "discarded"; empty outside setup.  The hand stays
    as dealt until every seat has chosen, so a person sees what they chose."""
    if raw["phase"] != PH_SETUP or not raw["stack"]:
        return []
    top = raw["stack"][-1]
    seat, stage, i = top["seat"], top["stage"], top["i"]
    decided = 5 if (p < seat or (p == seat and stage > 0)) else (i if p == seat else 0)
    keep = raw["players"][p]["skeep"]
    return ["kept" if (keep >> k) & 1 else "discarded" for k in range(min(decided, len(raw["players"][p]["hand"])))]


def _setup_question(raw, purpose, actor, observer):
    P = raw["players"][actor]
    top = raw["stack"][-1]
    if purpose == "SETUP_KEEP_BIRD":
        if observer is None or observer == actor:
            bird = BIRD_NAMES[P["hand"][top["i"]]]
        else:               # the dealt hand is hidden from the other seats (§6.1)
            bird = f"dealt card {top['i'] + 1} of 5"
        no, yes = _yes_no_meanings(raw, purpose)
        return _yes_no(f"keep {bird}?", yes, no)
    if purpose == "SETUP_DISCARD_FOOD":
        kept = bin(P["skeep"] & 31).count("1")
        return f"which food to give back for the kept birds (token {top['i'] + 1} of {kept})?"
    return "which bonus card to keep?"


def _play_question(raw, purpose, actor):
    top = raw["stack"][-1]
    card = BIRD_NAMES[top["card"]] if top["card"] >= 0 else None
    if purpose == "PLAY_CARD":
        if top["src"]:
            return f"which bird to play into the {HABS[top['req']]} (an extra play; card:skip plays none)?"
        return "which bird to play?"
    if purpose == "PLAY_HABITAT":
        return f"which habitat to play {card} into?"
    if purpose == "PLAY_PAY_EGG":
        return f"which bird gives an egg to pay for {card} ({top['egg']} to pay)?"
    return f"which food to pay for {card}?"


def _mat_question(raw, purpose):
    top = raw["stack"][-1]
    if purpose == "FOREST_TRADE":
        return "discard which card to take one more die (card:skip keeps your cards)?"
    if purpose == "GRASS_TRADE":
        return "pay which food to lay one more egg (food:skip keeps your food)?"
    if purpose == "WET_TRADE":
        return "discard an egg from which bird to draw one more card (slot:skip keeps your eggs)?"
    if purpose == "TAKE_DIE":
        return f"which die to take from the feeder ({top['n']} to take)?"
    if purpose == "LAY_EGG":
        return f"which bird gets an egg ({top['n']} to lay)?"
    return f"where to draw a card from ({top['n']} to draw)?"


def _power_question(raw, purpose, actor):
    b = _power_bird(raw)
    bird = BIRD_NAMES[b] if b >= 0 else "the power"
    top = raw["stack"][-1]
    if purpose in ("POWER_CONFIRM", "CACHE_CHOICE", "FEEDER_REROLL"):
        no, yes = _yes_no_meanings(raw, purpose)
        if purpose == "POWER_CONFIRM":
            return _yes_no(f"use the power of {bird} ({BIRDS[b]['power']})?", yes, no)
        if purpose == "CACHE_CHOICE":
            return _yes_no(f"cache the {_FOOD_NAMES[top['food']]} on {bird}?", yes, no)
        return _yes_no(f"reroll the feeder before {bird} takes its food?", yes, no)
    texts = {
        "TAKE_DIE": f"which die to take for {bird}?",
        "GAIN_FOOD_TYPE": f"which food to gain from {bird}?",
        "TUCK_FROM_HAND": f"which card to tuck under {bird} (card:skip tucks none)?",
        "POWER_PAY_EGG": f"which bird pays an egg for {bird} (slot:skip pays none)?",
        "TRADE_PAY": f"which food to give for {bird} (food:skip gives none)?",
        "TRADE_GAIN": f"which food to take in exchange ({bird})?",
        "REPEAT_TARGET": f"which power in this row should {bird} repeat (slot:skip repeats none)?",
        "MOVE_TARGET": f"which habitat to move {bird} to (hab:skip stays)?",
        "BONUS_KEEP": f"which bonus card to keep ({bird})?",
        "START_PLAYER": f"which seat takes a die first for {bird} (seat:skip uses no power)?",
        "DRAFT_PICK": f"which card to take from the draft pool of {bird}?",
        "LAY_EGG": f"which bird gets the egg from {bird}?",
        "DRAW_SOURCE": f"where to draw the card from for {bird}?",
    }
    text = texts[purpose]
    if purpose == "TAKE_DIE" and raw["actor"] != top["seat"]:
        text = f"which die to take ({BIRD_NAMES[b]} of seat {top['seat']} gives every seat one)?"
    return text


def question(s, observer=None):
    """The pending decision as a short question, with the meaning of yes and no where the
    node's moves are a bare yes/no; None when the game is over.  Seen by ``observer``, a
    card hidden from that seat is not named."""
    raw = s._raw()
    if raw["phase"] == PH_OVER:
        return None
    purpose = PURPOSES[raw["purpose"]]
    actor = raw["actor"]
    if purpose.startswith("SETUP_"):
        text = _setup_question(raw, purpose, actor, observer)
    elif purpose == "TURN_ACTION":
        text = "which action: play a bird, or gain food, lay eggs or draw cards?"
    elif purpose.startswith("PLAY_"):
        text = _play_question(raw, purpose, actor)
    elif purpose == "EOT_DISCARD":
        text = f"which card to discard at the end of the turn ({raw['players'][actor]['owe']} owed)?"
    elif _power_bird(raw) >= 0:
        text = _power_question(raw, purpose, actor)
    else:
        text = _mat_question(raw, purpose)
    return f"seat {actor}: {text}"


def explain_move(s, m):
    """A legal move's name, with what it does where the name alone is a bare yes or no:
    'no (discard it)'."""
    name = s.move_name(m)
    raw = s._raw()
    if raw["phase"] == PH_OVER or m not in s.legal():
        return name
    purpose = PURPOSES[raw["purpose"]]
    if m in (0, 1) and purpose in ("SETUP_KEEP_BIRD", "POWER_CONFIRM", "CACHE_CHOICE", "FEEDER_REROLL"):
        return f"{name} ({_yes_no_meanings(raw, purpose)[m]})"
    return name


# ---------------------------------------------------------------------------- the picture
_HAB_FILL = ("#dcebd2", "#f3e6c4", "#d3e4f3")          # forest, grassland, wetland
_FOOD_FILL = ("#8c5a3c", "#d8b04a", "#4a78b8", "#c8434f", "#7d7d7d", "#a58c4e")  # I S F R M, IS
_SLOT_W, _SLOT_H = 170, 64           # a bird in a slot is drawn as wide as in a hand
_MAT_LEFT = 100
_CARD_W, _CARD_H = 164, 44
_ROW_ACTIONS = ("gain food", "lay eggs", "draw cards")
# px a character of a card's line is given: a card's width allows a bird's name (bold 10 px)
# and its cost line (9 px) as many characters as these rates give, and every bird's lines so
# cut fit inside the card in DejaVu Sans, the widest usual sans-serif face (measured for all
# the birds by tests/core/wingspan/test_wingspan_render.py)
_NAME_PX, _INFO_PX = 7.0, 4.8


def _short(name, most=22):
    return name if len(name) <= most else name[:most - 1] + "…"


def _name_lines(name, most):
    """A bird's name in at most two lines of ``most`` characters, split at a space or hyphen."""
    if len(name) <= most:
        return [name]
    cut = max((k for k, ch in enumerate(name[:most + 1]) if ch in " -"), default=most)
    first, rest = name[:cut + (name[cut] == "-")].strip(), name[cut + 1:].strip()
    return [first, _short(rest, most)]


_SETUP_FILL = {None: "white", "kept": "#e2f3dc", "discarded": "#dddddd"}


def _bird_card(x, y, w, h, bird, escape, target=None, notes=(), kind="card", setup=None):
    """A bird as a small card: its name (two lines if need be), cost, points, nest and egg
    limit, any notes (eggs laid, cached food, tucked cards); the power in its tooltip.  A
    dealt card already decided at setup (``setup`` "kept" or "discarded") is tinted so."""
    from roost.core.wingspan.describe import power_text
    b = BIRDS[bird]
    attr = f' data-target="{target}"' if target else ""
    decided = f" ({setup})" if setup else ""
    out = [f'<g class="{kind}"{attr}><title>{escape(b["name"])}{decided}: {escape(power_text(bird))}</title>'
           f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="{_SETUP_FILL[setup]}" stroke="#777"/>']
    lines = _name_lines(b["name"], int((w - 12) / _NAME_PX))
    for k, line in enumerate(lines):
        out.append(f'<text x="{x + 6}" y="{y + 13 + 11 * k}" font-size="10" font-weight="bold">'
                   f'{escape(line)}</text>')
    most = int((w - 12) / _INFO_PX)
    info = f"{b['cost_text']} · {b['vp']} pts · {NEST_NAMES[b['nest']]} · eggs {b['eggs']}"
    if len(info) > most:               # the widest costs: keep the line inside the card
        info = f"{b['cost_text']} · {b['vp']}pt · {NEST_NAMES[b['nest']]} · {b['eggs']} eggs"
        info = info.replace("platform", "platf.") if len(info) > most else info
    row = y + 13 + 11 * len(lines)
    out.append(f'<text x="{x + 6}" y="{row}" font-size="9" fill="#555">{escape(info)}</text>')
    if notes:
        out.append(f'<text x="{x + 6}" y="{row + 11}" font-size="9" fill="#8a3b12">'
                   f'{escape(", ".join(notes))}</text>')
    out.append("</g>")
    return out


def svg(s, observer=None):
    """The table as SVG from seat ``observer`` (None: everything): the decision asked,
    the goals, the bird feeder's dice, the tray and the deck, then each seat's food, hand
    (as cards with cost, points, nest and eggs; the power in each card's tooltip), bonus
    cards, score and mat (three habitats of five slots, each bird with its eggs, cached
    food and tucked cards).  The others' hands and bonus cards stay hidden from an
    observer.  Click targets: the dice (``die:I``, ``die:IS``), the tray (``tray:1``), the
    deck, the draft pool (``pool:SLUG``), and each seat's hand cards where the viewer sees
    them (``card:SEAT:SLUG``), food (``food:SEAT:S``), habitats (``hab:SEAT:forest``) and
    slots (``slot:SEAT:F2``)."""
    from xml.sax.saxutils import escape
    raw = s._raw()
    d = _text.to_dict(s)
    scores = s.scores()
    head = _head(s, raw, d, observer)
    width = _MAT_LEFT + 5 * _SLOT_W + 20
    out = [f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(head[0])}</text>']
    y = 30
    asked = question(s, observer)
    if asked:
        out.append(f'<text class="question" x="10" y="{y + 16}" font-size="13" font-weight="bold" '
                   f'fill="#1f5fa8">decision: {escape(asked)}</text>')
        y += 24
    y += 10
    for r in range(4):
        out.append(f'<text class="goal" x="10" y="{y + 14 * r}" font-size="11" fill="#444">'
                   f'R{r + 1}: {escape(_GOAL_TEXT[raw["goals"][r]])}</text>')
    y += 4 * 14 + 6
    out.append(f'<text x="10" y="{y + 16}">feeder</text>')
    for i, f in enumerate(d["feeder"]):
        cx = 60 + 30 * i
        face = "IS" if f == 5 else FOODS[f]
        out.append(f'<g data-target="die:{face}"><rect class="die" x="{cx}" y="{y}" width="24" height="24" '
                   f'rx="5" fill="{_FOOD_FILL[f]}" stroke="#333"/>'
                   f'<text x="{cx + 12}" y="{y + 17}" text-anchor="middle" fill="white" font-size="11" '
                   f'font-weight="bold">{face}</text></g>')
    out.append(f'<text x="220" y="{y + 16}">tray</text>')
    for i, b in enumerate(d["tray"]):
        x = 250 + (_CARD_W + 6) * i
        if b >= 0:
            out.extend(_bird_card(x, y - 8, _CARD_W, _CARD_H, b, escape, target=f"tray:{i + 1}", kind="tray"))
        else:
            out.append(f'<rect class="tray" x="{x}" y="{y - 8}" width="{_CARD_W}" height="{_CARD_H}" rx="5" '
                       'fill="none" stroke="#ccc" stroke-dasharray="4 3"/>')
    x = 250 + (_CARD_W + 6) * 3
    out.append(f'<g data-target="deck"><rect x="{x}" y="{y - 8}" width="60" height="{_CARD_H}" rx="5" '
               f'fill="#e9e2cf" stroke="#777"/><text x="{x + 30}" y="{y + 12}" text-anchor="middle" '
               f'font-size="11">deck</text><text x="{x + 30}" y="{y + 26}" text-anchor="middle" '
               f'font-size="10" fill="#555">{len(raw["deck"])}</text></g>')
    width = max(width, x + 70)
    y += _CARD_H + 4
    if d["draft"]:
        out.append(f'<text x="10" y="{y + 16}">draft pool</text>')
        for i, b in enumerate(d["draft"]):
            out.extend(_bird_card(90 + (_CARD_W + 6) * i, y, _CARD_W, _CARD_H, b, escape,
                                  target=f"pool:{BIRD_SLUGS[b]}"))
        y += _CARD_H + 8
    y += 6
    for p in range(raw["n"]):
        y = _svg_seat(out, raw, d, p, observer, scores[p], y, escape)
    legend = ("food: I invertebrate, S seed, F fish, R fruit, M rodent, W wild (any); IS a die "
              "showing invertebrate and seed; a card's power is in its tooltip")
    out.append(f'<text x="10" y="{y + 4}" font-size="11" fill="#555">{legend}</text>')
    height = y + 20
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">\n'
            '<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(out) + "\n</svg>\n")


def _svg_seat(out, raw, d, p, observer, score, y, escape):
    """One seat's lines, hand and mat from ``y``; returns the ``y`` below it."""
    P = raw["players"][p]
    pd = d["players"][p]
    acting = raw["phase"] != PH_OVER and p == raw["actor"]
    tag = f"seat {p}" + (" (you)" if observer == p else "") + (", to act" if acting else "")
    colour = "#1f5fa8" if acting else "#222"
    out.append(f'<text class="seat" x="10" y="{y + 14}" font-weight="bold" fill="{colour}">{escape(tag)}: '
               f'score {score}, cubes {P["cubes"]}</text>')
    out.append(f'<text x="300" y="{y + 14}" fill="#444">food</text>')
    for t in range(5):
        x = 336 + 44 * t
        target = f' data-target="food:{p}:{FOODS[t]}"'
        out.append(f'<g{target}><rect x="{x}" y="{y + 1}" width="38" height="18" rx="4" fill="{_FOOD_FILL[t]}" '
                   f'opacity="{1 if pd["food"][t] else 0.35}"/><text x="{x + 19}" y="{y + 14}" '
                   f'text-anchor="middle" fill="white" font-size="11" font-weight="bold">{FOODS[t]} '
                   f'{pd["food"][t]}</text></g>')
    y += 24
    nhand = len(P["hand"])
    sees = observer is None or observer == p
    if sees:
        bonus = ", ".join(BONUS_NAMES[b] for b, _ in pd["bonus"]) or "-"
        out.append(f'<text x="10" y="{y + 12}" font-size="11" fill="#444">hand {nhand}; bonus: '
                   f'{escape(_short(bonus, 110))}</text>')
        y += 18
        per_row = 5
        decided = setup_decisions(raw, p)
        for k, (b, _) in enumerate(pd["hand"]):
            x = 10 + (_CARD_W + 6) * (k % per_row)
            out.extend(_bird_card(x, y + (_CARD_H + 6) * (k // per_row), _CARD_W, _CARD_H, b, escape,
                                  target=f"card:{p}:{BIRD_SLUGS[b]}",
                                  setup=decided[k] if k < len(decided) else None))
        y += (_CARD_H + 6) * (-(-nhand // per_row)) + 4
    else:
        known = [BIRD_NAMES[b] for b, tg in pd["hand"] if tg == "p"]
        hand = ", ".join(known + ([f"{nhand - len(known)} hidden"] if nhand > len(known) else [])) or "-"
        out.append(f'<text x="10" y="{y + 12}" font-size="11" fill="#444">hand {nhand}: '
                   f'{escape(_short(hand, 110))}; bonus: {len(pd["bonus"])} hidden</text>')
        y += 20
    for h in range(3):
        # the row holds its slots, so that a click on a bird in it picks the habitat when
        # the habitat is asked (the page looks for an asked target from the element clicked up)
        target = f' data-target="hab:{p}:{HABS[h]}"'
        out.append(f'<g class="habitat {HABS[h]}"{target}><rect x="10" y="{y}" width="{_MAT_LEFT - 10 + 5 * _SLOT_W}" '
                   f'height="{_SLOT_H}" fill="{_HAB_FILL[h]}" stroke="#bbb"/>'
                   f'<text x="16" y="{y + 26}" font-size="12" font-weight="bold">{HABS[h]}</text>'
                   f'<text x="16" y="{y + 42}" font-size="10" fill="#555">{_ROW_ACTIONS[h]}</text>')
        birds = pd["mat"][h]
        for col in range(5):
            x = _MAT_LEFT + col * _SLOT_W
            slot = 5 * h + col
            target = f"slot:{p}:{HAB_LETTERS[h]}{col + 1}"
            if col >= len(birds):
                attr = f' data-target="{target}"' if target else ""
                out.append(f'<rect class="slot empty"{attr} x="{x + 3}" y="{y + 4}" width="{_SLOT_W - 6}" '
                           f'height="{_SLOT_H - 8}" rx="5" fill="none" stroke="#ccc" stroke-dasharray="4 3"/>')
                continue
            bird = birds[col]
            b = bird["id"]
            notes = [f"eggs {bird['egg']}/{_fields._EGGS[b]}"]
            if any(bird["cache"]):
                notes.append("cache " + _food_text(bird["cache"]))
            if P["ntuck"][slot]:
                notes.append(f"tucked {P['ntuck'][slot]}")
            out.extend(_bird_card(x + 3, y + 4, _SLOT_W - 6, _SLOT_H - 8, b, escape, target=target, notes=notes,
                                  kind="slot bird"))
        out.append("</g>")
        y += _SLOT_H
    return y + 16


# ---------------------------------------------------------------------------- clicks
def move_targets(s, m):
    """What a person clicks to make move ``m``: the die, card, food, habitat or slot it
    names in the picture (the acting seat's), or, for a yes or no, a skip, a bonus card or
    a seat, a choice the picture does not draw (labelled as ``explain_move`` says it)."""
    name = s.move_name(m)
    label = explain_move(s, m)
    raw = s._raw()
    actor = raw["actor"]
    kind, _, arg = name.partition(":")
    if name in ("food", "eggs", "cards"):
        h = ("food", "eggs", "cards").index(name)
        return [(f"hab:{actor}:{HABS[h]}", f"{_ROW_ACTIONS[h]} (activate the {HABS[h]})")]
    if arg == "skip" or kind in ("yes", "no", "play", "reroll", "bonus", "seat"):
        return [(None, _move_words(name, label))]
    if kind == "die" and arg.startswith("IS-"):
        return [("die:IS", "the invertebrate-or-seed die"), (None, f"take the {_FOOD_NAMES['IS'.index(arg[-1])]}")]
    if kind == "card":
        where = "pool" if PURPOSES[raw["purpose"]] == "DRAFT_PICK" else f"card:{actor}"
        return [(f"{where}:{arg}", BIRD_NAMES[BIRD_SLUGS.index(arg)])]
    if kind == "food":
        return [(f"food:{actor}:{arg}", _FOOD_NAMES[FOODS.index(arg)])]
    if kind == "die":
        return [(f"die:{arg}", f"the {_FOOD_NAMES[FOODS.index(arg)]} die")]
    if kind in ("hab", "slot"):
        return [(f"{kind}:{actor}:{arg}", label)]
    if kind == "tray":
        return [(name, label)]
    if name == "deck":
        return [("deck", "the top card of the deck")]
    return [(None, label)]


def move_marks(s, m):
    """What marks move ``m`` (played from ``s``) in the picture after it: the habitat an
    action activates, the habitat or slot chosen; nothing for a decision that leaves no
    place of its own (a card played, a die taken, a yes or no)."""
    name = s.move_name(m)
    actor = s._raw()["actor"]
    kind, _, arg = name.partition(":")
    if name in ("food", "eggs", "cards"):
        return [f"hab:{actor}:{HABS[('food', 'eggs', 'cards').index(name)]}"]
    if kind in ("hab", "slot") and arg != "skip":
        return [f"{kind}:{actor}:{arg}"]
    return []


def _move_words(name, label):
    if name == "play":
        return "play a bird from your hand"
    if name.startswith("bonus:"):
        return BONUS_NAMES[BONUS_SLUGS.index(name[6:])]
    if name.startswith("seat:") and name != "seat:skip":
        return f"seat {name[5:]}"
    return label


def move_details(s, m, observer=None):
    """The card a move concerns, as a person reads it (name, cost, points, nest, eggs,
    power in words), or None."""
    from roost.core.wingspan.describe import bird_details, bonus_details
    name = s.move_name(m)
    raw = s._raw()
    kind, _, arg = name.partition(":")
    if kind == "card" and arg != "skip":
        return bird_details(BIRD_SLUGS.index(arg))
    if kind == "tray":
        b = _text.to_dict(s)["tray"][int(arg) - 1]
        return bird_details(b) if b >= 0 else None
    if kind == "bonus":
        return bonus_details(BONUS_SLUGS.index(arg))
    if kind == "slot" and arg != "skip":
        h, col = HAB_LETTERS.index(arg[0]), int(arg[1:]) - 1
        birds = _text.to_dict(s)["players"][raw["actor"]]["mat"][h]
        return bird_details(birds[col]["id"]) if col < len(birds) else None
    if name in ("yes", "no") and raw["phase"] != PH_OVER:
        purpose = PURPOSES[raw["purpose"]]
        top = raw["stack"][-1]
        if purpose == "SETUP_KEEP_BIRD" and (observer is None or observer == raw["actor"]):
            return bird_details(raw["players"][raw["actor"]]["hand"][top["i"]])
        b = _power_bird(raw)
        if b >= 0:
            return bird_details(b)
    return None
