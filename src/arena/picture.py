"""Pictures: the ratings picture (each engine's Elo as a dot with its 95% interval as a bar,
best at the top) and the picture of a position, which each game draws in its render module
(``roost.core.<game>.render.svg``, or ``<module>_render.py`` beside a game that is a single
module), all written as SVG by hand (no plotting dependency).  PNG is written through
cairosvg (the ``png`` extra) or rsvg-convert when one of them is installed."""
import math
import os
from xml.sax.saxutils import escape

from roost.arena.ratings import elo_text
from roost.core.errors import GameError, RoostError


def _nice_step(span):
    raw = span / 6.0
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def ratings_svg(rows, title, subtitle=""):
    """``rows``: [(name, elo, err95 or None, is_anchor)] best first."""
    rows = [r for r in rows if r[1] is not None and math.isfinite(r[1])]
    label_w = max([len(r[0]) for r in rows] + [8]) * 7.2 + 24
    plot_w, row_h, top, bottom = 440.0, 30.0, 58.0, 44.0
    width = label_w + plot_w + 130
    height = top + row_h * max(len(rows), 1) + bottom
    lo = min([r[1] - (r[2] or 0) for r in rows] + [0.0])
    hi = max([r[1] + (r[2] or 0) for r in rows] + [0.0])
    if hi - lo < 20:
        lo, hi = lo - 10, hi + 10
    pad = (hi - lo) * 0.05
    lo, hi = lo - pad, hi + pad

    def x(v):
        return label_w + (v - lo) / (hi - lo) * plot_w

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="13">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="12" y="22" font-size="15" font-weight="bold">{escape(title)}</text>',
           f'<text x="12" y="40" fill="#555">{escape(subtitle)}</text>']
    step = _nice_step(hi - lo)
    t = math.ceil(lo / step) * step
    axis_y = top + row_h * len(rows) + 6
    while t <= hi:
        xt = x(t)
        out.append(f'<line x1="{xt:.1f}" y1="{top - 6:.1f}" x2="{xt:.1f}" y2="{axis_y:.1f}" '
                   f'stroke="{"#999" if abs(t) < 1e-9 else "#e3e3e3"}" stroke-width="1"/>')
        out.append(f'<text x="{xt:.1f}" y="{axis_y + 16:.1f}" text-anchor="middle" fill="#555">'
                   f'{t:+g}</text>')
        t += step
    out.append(f'<text x="{label_w + plot_w / 2:.1f}" y="{axis_y + 34:.1f}" text-anchor="middle" '
               f'fill="#555">Elo (95% interval)</text>')
    for k, (name, elo, err, anchor) in enumerate(rows):
        y = top + row_h * k + row_h / 2
        out.append(f'<text x="{label_w - 12:.1f}" y="{y + 4:.1f}" text-anchor="end">{escape(name)}</text>')
        if err:
            out.append(f'<line x1="{x(elo - err):.1f}" y1="{y:.1f}" x2="{x(elo + err):.1f}" '
                       f'y2="{y:.1f}" stroke="#4a7ab5" stroke-width="3" stroke-linecap="round"/>')
        out.append(f'<circle cx="{x(elo):.1f}" cy="{y:.1f}" r="5" fill="{"#b5544a" if anchor else "#1f3f66"}"/>')
        label = elo_text(elo) + (f" ± {err:.0f}" if err else " (anchor)" if anchor else "")
        out.append(f'<text x="{label_w + plot_w + 10:.1f}" y="{y + 4:.1f}" fill="#333">{label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_module(state):
    """The module that draws and names ``state``'s game (its ``svg(state, observer)`` and
    ``SIDE_NAMES``), as its game registered it, or None."""
    from roost.core.games import get_game
    try:
        return get_game(type(state).name).picture
    except (GameError, AttributeError):
        return None


def position_svg(state, observer=None):
    """The picture of a position as SVG text, seen by seat ``observer`` (None: everything)."""
    module = render_module(state)
    if module is None:
        raise RoostError(f"{type(state).__name__} positions have no picture")
    return module.svg(state, observer)


def png_converter():
    """What can turn the SVG into PNG here: "cairosvg", the path of rsvg-convert, or None."""
    try:
        import cairosvg  # noqa: F401
        return "cairosvg"
    except (ImportError, OSError):      # OSError: cairosvg installed, the cairo library not
        pass
    import shutil
    return shutil.which("rsvg-convert")


def check_picture_path(path, kinds=(".svg", ".png")):
    """Refuse, before any work, a picture that could not be written at the end: a name
    that does not end in one of ``kinds``, a PNG with nothing here to draw it, a missing or
    read-only folder, a directory."""
    low = path.lower()
    if not low.endswith(kinds):
        raise RoostError(f"the picture {path!r} must be a {' or '.join(kinds)} file")
    if low.endswith(".png") and png_converter() is None:
        raise RoostError(f"{path}: a PNG picture needs cairosvg (pip install 'roost[png]') or "
                         "rsvg-convert; or write an .svg file")
    if os.path.isdir(path):
        raise RoostError(f"{path} is a directory")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise RoostError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise RoostError(f"{path}: cannot write there (permission denied)")


def write_svg(path, svg):
    """Write SVG text to ``path``: as it is for .svg, converted for .png."""
    check_picture_path(path)
    try:
        if path.lower().endswith(".svg"):
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(svg)
            return
        tool = png_converter()
        if tool == "cairosvg":
            import cairosvg
            cairosvg.svg2png(bytestring=svg.encode(), write_to=path)
            return
    except OSError as e:
        raise RoostError(f"cannot write {path}: {e.strerror or e}") from None
    import subprocess
    done = subprocess.run([tool, "-f", "png", "-o", path], input=svg.encode(), capture_output=True)
    if done.returncode != 0:
        raise RoostError(f"rsvg-convert could not draw {path}: "
                         f"{done.stderr.decode(errors='replace').strip()}")


def write_picture(path, rows, title, subtitle=""):
    """The ratings picture (see ratings_svg) to an .svg or .png file."""
    write_svg(path, ratings_svg(rows, title, subtitle))
