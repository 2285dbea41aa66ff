"""Under the Leaves as pictures: every garden as a grid of squares in text, and as SVG."""
from roost.core.leaves.tiles import CARD_NAMES, CATEGORY_NAMES, tile_desc, tile_squares


def garden_lines(gr, legend=True):
    """A GardenReplay as text lines: its squares (pieces marked after their square), the
    hummingbirds per tile, its bees, hummingbirds and pieces, and optionally the legend."""
    umin, umax, vmin, vmax = gr.bounds()
    names = gr.card_names
    letters = "lmp" if len(names) == 3 else "abcdefghijkl"
    counts = gr.pieces()
    marks = {}
    for k, code in enumerate(counts):
        for (u, v) in gr.piece_squares(code):
            marks.setdefault((u, v), []).append(letters[k])
    width = max(2 + max((len(m) for m in marks.values()), default=0), 3)
    out = ["v\\u " + "".join(f"{u:>{width + 1}}" for u in range(umin, umax + 1))]
    for v in range(vmax, vmin - 1, -1):
        row = f"{v:>3} "
        for u in range(umin, umax + 1):
            sq = gr.square(u, v)
            cell = "." if sq is None else sq + "".join(marks.get((u, v), []))
            row += f"{cell:>{width + 1}}"
        out.append(row)
    birds = [(x, y, gr.hummingbirds_at(x, y)) for (_, x, y, _) in gr.entries()]
    birds = [f"({x},{y}) {h}" for (x, y, h) in sorted(birds) if h]
    if birds:
        out.append("hummingbirds on tiles: " + ", ".join(birds))
    out.append(f"bees {gr.bees}, hummingbirds {gr.hummingbirds}; pieces: "
               + ", ".join(f"{name} {n}" for name, n in zip(names, counts.values())))
    if legend:
        out.append("squares: Y yellow, P pink, O orange, V purple, G green, ~ puddle, * mushroom; "
                   "a piece is marked after its square: "
                   + ", ".join(f"{letters[k]} {name}" for k, name in enumerate(names)))
    return out


def render(state):
    """Every garden as a grid of squares, with pieces, and the scores."""
    n = state.players
    over = state.is_over
    lines = [f"Under the Leaves, {n} players; cards: "
             + ", ".join(f"{CATEGORY_NAMES[j]} {name}" for j, name in enumerate(state.cards))]
    if over:
        lines.append(f"Game over after {12 * n} turns.")
    else:
        who = "chance (refill)" if state.is_chance else f"seat {(state.turn - 1) % n}"
        lines.append(f"Turn {state.turn} of {12 * n}, {who} to move.")
    lines.append("Market: " + " ".join(f"m{i}={tile_desc(t)}" for i, t in enumerate(state.market()))
                 + f"   bag: {len(state.bag())} tiles")
    sc = state.scores()
    for p in range(n):
        lines.append("")
        lines.append(f"Seat {p}: score {sc[p]}" + (" (majority bonuses included)" if over else ""))
        lines.extend(garden_lines(state._replay(p), legend=(p == 0)))
    return "\n".join(lines)


_SVG_FILL = {"Y": "#f2d13c", "P": "#f29ac0", "O": "#f0902a", "V": "#9a62c8", "G": "#5cb85c",
             "~": "#5aa9e6"}
_CELL = 24
_MINI = 18               # a market tile's square
# pieces are marked by their card's category, one card of each in a game: never ambiguous
_PIECE_MARK = ("L", "M", "P")
_PIECE_FILL = ("#2e7d32", "#b23c3c", "#1f5fa8")
_SIDES = ("front", "back")


def _esc(text):
    from xml.sax.saxutils import escape
    return escape(str(text))


def _square(px, py, sq, size):
    parts = [f'<rect x="{px}" y="{py}" width="{size}" height="{size}" fill="{_SVG_FILL[sq[0]]}" '
             'stroke="#555" stroke-width="0.5"/>']
    if sq.endswith("*"):
        parts.append(f'<circle cx="{px + size / 2}" cy="{py + size / 2}" r="{size / 4}" fill="#fff" '
                     'stroke="#a33" stroke-width="2"/>')
    return parts


def _svg_squares(gr, umin, vmax, categories):
    """The squares of a garden, with its pieces: a badge of the card's category (L leaf,
    M mushroom, P puddle) on the square where each piece stands."""
    parts = []
    marks = {}
    for code, k in zip(gr.pieces(), categories):
        for (u, v) in gr.piece_squares(code):
            marks.setdefault((u, v), []).append(k)
    _, umax, vmin, _ = gr.bounds()
    for v in range(vmax, vmin - 1, -1):
        for u in range(umin, umax + 1):
            sq = gr.square(u, v)
            if sq is None:
                continue
            px = (u - umin) * _CELL
            py = (vmax - v) * _CELL
            parts.extend(_square(px, py, sq, _CELL))
            for i, k in enumerate(marks.get((u, v), [])):
                bx, by = px + 2 + 9 * i, py + _CELL - 11
                parts.append(f'<rect class="piece" x="{bx}" y="{by}" width="9" height="9" rx="2" '
                             f'fill="{_PIECE_FILL[k]}"/><text x="{bx + 4.5}" y="{by + 7.5}" '
                             f'text-anchor="middle" font-size="8" font-weight="bold" fill="white">'
                             f'{_PIECE_MARK[k]}</text>')
    return parts


def _svg_tiles(gr, umin, vmax, seat):
    parts = []
    for (tile, x, y, o) in gr.entries():
        px = (2 * x - umin) * _CELL
        py = (vmax - 2 * y) * _CELL
        parts.append(f'<rect class="tile" data-target="tile:{seat}:({x},{y})" x="{px}" y="{py}" '
                     f'width="{2 * _CELL}" height="{2 * _CELL}" fill="none" stroke="#222" stroke-width="2"/>')
        hb = gr.hummingbirds_at(x, y)
        if hb:
            parts.append(f'<circle cx="{px + _CELL}" cy="{py + _CELL}" r="7" fill="white" stroke="#222"/>'
                         f'<text x="{px + _CELL}" y="{py + _CELL + 4}" text-anchor="middle" '
                         f'font-family="sans-serif" font-size="10" font-weight="bold">{hb}</text>')
    return parts


def _svg_slots(slots, umin, vmax):
    """Empty places a tile may go (the mover's frontier), as click targets."""
    parts = []
    for (x, y) in slots:
        px = (2 * x - umin) * _CELL
        py = (vmax - 2 * y) * _CELL
        parts.append(f'<g class="slot" data-target="slot:({x},{y})"><rect x="{px + 2}" y="{py + 2}" '
                     f'width="{2 * _CELL - 4}" height="{2 * _CELL - 4}" rx="4" fill="#f6f6f6" '
                     f'stroke="#aaa" stroke-dasharray="4 3"/><text x="{px + _CELL}" y="{py + _CELL + 4}" '
                     f'text-anchor="middle" font-family="sans-serif" font-size="9" fill="#999">'
                     f'{x},{y}</text></g>')
    return parts


def _garden_box(gr, slots):
    """(umin, umax, vmin, vmax) of a garden's squares and of the empty places shown."""
    umin, umax, vmin, vmax = gr.bounds()
    for (x, y) in slots:
        umin, umax = min(umin, 2 * x), max(umax, 2 * x + 1)
        vmin, vmax = min(vmin, 2 * y - 1), max(vmax, 2 * y)
    return umin, umax, vmin, vmax


def _garden(x0, y0, title, counts, gr, seat, slots, categories, colour):
    umin, umax, vmin, vmax = _garden_box(gr, slots)
    w = max((umax - umin + 1) * _CELL, _TEXT_WIDTH * max(len(title), len(counts)))
    h = (vmax - vmin + 1) * _CELL
    parts = [f'<g class="garden" transform="translate({x0},{y0 + 40})">',
             f'<text class="title" x="0" y="-24" font-family="sans-serif" font-size="14" '
             f'font-weight="bold" fill="{colour}">{_esc(title)}</text>',
             f'<text x="0" y="-8" font-family="sans-serif" font-size="12" fill="#555">{_esc(counts)}</text>']
    parts.extend(_svg_squares(gr, umin, vmax, categories))
    parts.extend(_svg_tiles(gr, umin, vmax, seat))
    parts.extend(_svg_slots(slots, umin, vmax))
    parts.append("</g>")
    return parts, w, h + 40


def svg_gardens(pics, columns=None):
    """[(title, GardenReplay)] side by side (``columns`` a row) as one SVG document."""
    pics = [(title, f"bees {gr.bees}, hummingbirds {gr.hummingbirds}", gr, p, [], "#222")
            for p, (title, gr) in enumerate(pics)]
    parts, width, height = _layout(pics, columns or len(pics), 10, (0, 1, 2))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">'
            '<rect width="100%" height="100%" fill="white"/>' + "".join(parts) + "</svg>")


def _layout(gardens, columns, top, categories):
    """Gardens in rows of ``columns``: (parts, width, height)."""
    gap = 40
    parts, width, y = [], 0, top
    for first in range(0, len(gardens), columns):
        x, tallest = 10, 0
        for title, counts, gr, seat, slots, colour in gardens[first:first + columns]:
            drawn, w, h = _garden(x, y, title, counts, gr, seat, slots, categories, colour)
            parts.extend(drawn)
            x += w + gap
            tallest = max(tallest, h)
        width = max(width, x)
        y += tallest + 20
    return parts, width, y


_TEXT_WIDTH = 8.0        # px per character of a 14 px sans-serif title, generously


def _market(state, x0, y0, mover_sees):
    """The market's tiles, each a click target ``market:i`` while a seat is to move."""
    parts = [f'<text x="{x0}" y="{y0 + 14}" font-family="sans-serif" font-size="13" '
             'font-weight="bold">market</text>']
    x = x0 + 60
    for i, tile in enumerate(state.market()):
        squares = tile_squares(tile, 0)
        parts.append(f'<g class="market" data-target="market:{i}">'
                     f'<rect x="{x - 3}" y="{y0 - 3}" width="{2 * _MINI + 6}" height="{2 * _MINI + 20}" '
                     'rx="4" fill="#fafafa" stroke="#ccc"/>')
        for k, sq in enumerate(squares):
            parts.extend(_square(x + _MINI * (k % 2), y0 + _MINI * (k // 2), sq, _MINI))
        parts.append(f'<text x="{x + _MINI}" y="{y0 + 2 * _MINI + 13}" text-anchor="middle" '
                     f'font-family="sans-serif" font-size="10" fill="#555">m{i} #{tile}</text></g>')
        x += 2 * _MINI + 20
    parts.append(f'<text x="{x + 6}" y="{y0 + 14}" font-family="sans-serif" font-size="12" fill="#555">'
                 f'bag: {len(state.bag()) if mover_sees else "?"} tiles</text>')
    return parts


def _legend(state, y, categories):
    names = " ".join(f'<tspan fill="{_PIECE_FILL[k]}" font-weight="bold">{_PIECE_MARK[k]}</tspan> '
                     f'{_esc(name)} ({CATEGORY_NAMES[k]} card)' for k, name in zip(categories, state.cards))
    colours = ", ".join(f"{letter} {name}" for letter, name in
                        zip("YPOVG~", ("yellow", "pink", "orange", "purple", "green", "puddle")))
    parts = [f'<text x="10" y="{y}" font-family="sans-serif" font-size="12">pieces: {names}</text>']
    x = 10
    for letter, name in zip("YPOVG~", ("yellow", "pink", "orange", "purple", "green", "puddle")):
        parts.extend(_square(x, y + 10, letter, 14))
        parts.append(f'<text x="{x + 18}" y="{y + 21}" font-family="sans-serif" font-size="12">{name}</text>')
        x += 24 + 7 * len(name)
    parts.append(f'<circle cx="{x + 7}" cy="{y + 17}" r="4" fill="#fff" stroke="#a33" stroke-width="2"/>'
                 f'<text x="{x + 16}" y="{y + 21}" font-family="sans-serif" font-size="12">mushroom; '
                 'a number in a circle: hummingbirds on that tile</text>')
    del colours
    return parts


def svg(state, observer=None):
    """Under the Leaves as SVG: whose turn it is, the market (click targets ``market:i``),
    every garden with its score, bees, hummingbirds and pieces (two gardens a row from 3
    players), the empty places where the mover may put a tile (``slot:(x,y)``), each
    placed tile (``tile:SEAT:(x,y)``), and a legend of the squares and pieces."""
    n = state.players
    sc = state.scores()
    over = state.is_over
    mover = None if over or state.is_chance else (state.turn - 1) % n
    if over:
        best = max(sc)
        top = [p for p in range(n) if sc[p] == best]
        head = (f"Under the Leaves, {n} players: game over, "
                + (f"seat {top[0]} wins" if len(top) == 1 else "seats " + ", ".join(map(str, top)) + " tie")
                + " (majority bonuses included)")
    elif state.is_chance:
        head = f"Under the Leaves, {n} players, turn {state.turn} of {12 * n}: the market is refilled (chance)"
    else:
        head = f"Under the Leaves, {n} players, turn {state.turn} of {12 * n}: seat {mover} to move"
    categories = (0, 1, 2)
    parts = [f'<text x="10" y="22" font-family="sans-serif" font-size="15" font-weight="bold">{_esc(head)}</text>']
    parts.extend(_market(state, 10, 36, observer is None or n >= 4))
    gardens = []
    for p in range(n):
        gr = state._replay(p)
        pieces = ", ".join(f"{_PIECE_MARK[k]} {c}" for k, c in zip(categories, gr.pieces().values()))
        title = f"seat {p}" + (" (you)" if observer == p else "") + (", to move" if p == mover else "") \
            + f": score {sc[p]}"
        counts = f"bees {gr.bees}, hummingbirds {gr.hummingbirds}, pieces {pieces}"
        slots = state.frontier(p) if p == mover else []
        gardens.append((title, counts, gr, p, slots, "#1f5fa8" if p == mover else "#222"))
    drawn, width, height = _layout(gardens, 2 if n >= 3 else n, 36 + 2 * _MINI + 40, categories)
    parts.extend(drawn)
    parts.extend(_legend(state, height + 10, categories))
    width = max(width, 760)
    height += 50
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
            '<rect width="100%" height="100%" fill="white"/>' + "".join(parts) + "</svg>\n")


def orientation_text(o):
    """Orientation ``o`` in words: 'front, turned 90° clockwise', 'back (mirrored), as printed'."""
    side, turns = _SIDES[o // 4], o % 4
    turned = "as printed" if turns == 0 else f"turned {90 * turns}\u00b0 clockwise"
    return f"{side}{' (mirrored)' if o >= 4 else ''}, {turned}"


def _parts(name):
    """'m2@(1,-1)o3' -> (2, 1, -1, 3)."""
    head, _, o = name.rpartition("o")
    index, _, place = head.partition("@")
    x, y = place.strip("()").split(",")
    return int(index[1:]), int(x), int(y), int(o)


def outcome_words(state, outcome):
    """A refill draw in words: which tile comes into the market."""
    return f"tile #{state.move_name(outcome)[1:]} drawn for the market"


def move_targets(state, move):
    """What a person clicks to make ``move``: the market tile (``market:i``), the place in
    the garden (``slot:(x,y)``), then the orientation, a choice the picture does not draw
    (the page shows the garden with the tile in place)."""
    i, x, y, o = _parts(state.move_name(move))
    tile = state.market()[i]
    return [(f"market:{i}", f"tile #{tile} (m{i})"), (f"slot:({x},{y})", f"the place ({x},{y})"),
            (None, orientation_text(o))]


def move_marks(state, move):
    """The tile ``move`` placed (played from ``state``), marked as the last move."""
    _, x, y, _ = _parts(state.move_name(move))
    return [f"tile:{(state.turn - 1) % state.players}:({x},{y})"]
