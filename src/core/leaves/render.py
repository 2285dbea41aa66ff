"""Under the Leaves as pictures: every garden as a grid of squares in text, and as SVG."""
from roost.core.leaves.tiles import CARD_NAMES, CATEGORY_NAMES, tile_desc


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
_CELL = 22


def _svg_squares(gr, umin, vmax):
    parts = []
    marks = {}
    for code in gr.pieces():
        for (u, v) in gr.piece_squares(code):
            marks.setdefault((u, v), []).append(code)
    _, umax, vmin, _ = gr.bounds()
    for v in range(vmax, vmin - 1, -1):
        for u in range(umin, umax + 1):
            sq = gr.square(u, v)
            if sq is None:
                continue
            px = (u - umin) * _CELL
            py = (vmax - v) * _CELL
            parts.append(f'<rect x="{px}" y="{py}" width="{_CELL}" height="{_CELL}" '
                         f'fill="{_SVG_FILL[sq[0]]}" stroke="#555" stroke-width="0.5"/>')
            if sq.endswith("*"):
                parts.append(f'<circle cx="{px + _CELL / 2}" cy="{py + _CELL / 2}" r="{_CELL / 4}" '
                             'fill="#fff" stroke="#a33" stroke-width="2"/>')
            if (u, v) in marks:
                parts.append(f'<text x="{px + 2}" y="{py + _CELL - 3}" font-family="sans-serif" '
                             f'font-size="8">{" ".join(marks[(u, v)])}</text>')
    return parts


def _svg_tiles(gr, umin, vmax):
    parts = []
    for (tile, x, y, o) in gr.entries():
        px = (2 * x - umin) * _CELL
        py = (vmax - 2 * y) * _CELL
        parts.append(f'<rect x="{px}" y="{py}" width="{2 * _CELL}" height="{2 * _CELL}" fill="none" '
                     'stroke="#222" stroke-width="2"/>')
        hb = gr.hummingbirds_at(x, y)
        if hb:
            parts.append(f'<text x="{px + _CELL - 4}" y="{py + _CELL + 4}" font-family="sans-serif" '
                         f'font-size="11" font-weight="bold">{hb}</text>')
    return parts


def svg_gardens(pics):
    """[(title, GardenReplay)] side by side as one SVG document."""
    gap = 40
    x0 = 10
    parts = []
    height = 0
    for title, gr in pics:
        umin, umax, vmin, vmax = gr.bounds()
        h = (vmax - vmin + 1) * _CELL
        counts = f"bees {gr.bees}, hummingbirds {gr.hummingbirds}"
        # a garden's column is as wide as its two title lines, so small gardens (the start
        # of a game) never write over their neighbours' titles
        w = max((umax - umin + 1) * _CELL, _TEXT_WIDTH * max(len(title), len(counts)))
        parts.append(f'<g class="garden" transform="translate({x0},46)">')
        parts.append(f'<text class="title" x="0" y="-26" font-family="sans-serif" font-size="14">{title}</text>')
        parts.append(f'<text x="0" y="-10" font-family="sans-serif" font-size="12" fill="#555">{counts}</text>')
        parts.extend(_svg_squares(gr, umin, vmax))
        parts.extend(_svg_tiles(gr, umin, vmax))
        parts.append("</g>")
        x0 += w + gap
        height = max(height, h)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{x0}" height="{height + 66}">'
            '<rect width="100%" height="100%" fill="white"/>' + "".join(parts) + "</svg>")


_TEXT_WIDTH = 8.0        # px per character of a 14 px sans-serif title, generously


def svg(state, observer=None):
    """An SVG picture of all gardens (squares, mushrooms, puddles, hummingbirds, pieces)."""
    sc = state.scores()
    return svg_gardens([(f"Seat {p}: score {sc[p]}", state._replay(p))
                        for p in range(state.players)])
