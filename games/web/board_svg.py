"""Server-side SVG rendering of the board for the game page.

``render_board(state)`` turns an engine ``State`` into one inline ``<svg>``
string: the 40 squares around the edge (GO bottom-right, Jail bottom-left,
Free Parking top-left, Go To Jail top-right), owners, buildings, mortgages,
the players' tokens and, in the centre, the last throw and the bank.

The function is pure and deterministic: the same state gives the same bytes.
It imports only the standard library and ``games.engine``. Every piece of
text goes through ``html.escape``, so the result is safe for ``mark_safe``.

Presentation attributes (``fill``, ``stroke``...) are written inline so the
board looks right without any stylesheet; ``static/css/board.css`` only adds
hover, focus and highlight effects, and can override any of them by class.

Names used by CSS and tests:

* ``#sq-N`` (``g.sq``) for square N, with ``data-sq``, the kind class
  (``sq-site``, ``sq-railroad``, ``sq-utility``, ``sq-chance``, ``sq-chest``,
  ``sq-tax``, ``sq-corner``), ``grp-<colour>`` for colour groups, ``owned``,
  ``owner-P``, ``mortgaged`` and ``sq-hl`` (highlighted);
* ``.owner-mark`` (the strip on the outer edge in the owner's colour),
  ``.house``, ``.hotel``, ``.mortgage-mark``, ``.sq-hl-ring``;
* ``#token-P`` (``g.token``) for seat P (0-based) with ``data-seat``,
  ``data-sq`` and ``jailed`` / ``visiting`` / ``current``;
* ``.dice`` > ``.die`` > ``.pip``; ``.bank-houses``, ``.bank-hotels``,
  ``.pot``, ``.turn-indicator``.
"""

from __future__ import annotations

import functools
import math
from html import escape
from typing import TYPE_CHECKING

from games import engine

if TYPE_CHECKING:
    from games.engine import Ruleset, State

__all__ = [
    "GROUP_COLOURS",
    "SEAT_COLOURS",
    "SEAT_COLOUR_NAMES",
    "SEAT_TEXT_COLOURS",
    "render_board",
    "render_board_base",
    "render_board_live",
    "seat_text_colour",
]

# Seat colours: the Okabe-Ito palette, ordered so that the first seats are the
# most distinct from one another, also under the common colour-vision
# deficiencies. Tokens and owner marks always carry a label too, so colour is
# never the only cue.
SEAT_COLOURS: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermilion
    "#F0E442",  # yellow
    "#3B3B3B",  # charcoal
)
SEAT_COLOUR_NAMES: tuple[str, ...] = (
    "blue", "orange", "green", "purple", "sky blue", "vermilion", "yellow", "charcoal",
)  # fmt: skip


def _luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def seat_text_colour(seat: int) -> str:
    """Black or white, whichever contrasts more with the seat's colour."""
    lum = _luminance(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#FFFFFF"


SEAT_TEXT_COLOURS: tuple[str, ...] = tuple(seat_text_colour(i) for i in range(len(SEAT_COLOURS)))

# The colour groups, as printed on the board.
GROUP_COLOURS: tuple[str, ...] = (
    "#8B4A2B",  # brown
    "#AAD8F2",  # light blue
    "#D93A96",  # pink
    "#F7941D",  # orange
    "#E0262B",  # red
    "#FEF200",  # yellow
    "#1FA456",  # green
    "#0B5AA8",  # dark blue
)
_GROUP_SLUGS = ("brown", "light-blue", "pink", "orange", "red", "yellow", "green", "dark-blue")

# Geometry, in viewBox units. The board is SIZE square; a corner is CORNER
# square; the other squares are CELL wide and CORNER deep.
SIZE = 960
CORNER = 120
CELL = 80
BAND = 21  # the colour band, on the inner edge
FOOT = 15  # the owner strip, on the outer edge
TOKEN_R = 10

# Colours of the printed board.
_BOARD_BG = "#CFE5D2"
_SQUARE_BG = "#F4F8F1"
_INK = "#1D1D1B"
_MUTED = "#4A4A45"
_LINE = "#2B2B28"
_HOUSE = "#1E8F3E"
_HOTEL = "#C8102E"
_HIGHLIGHT = "#FFB000"

_FONT = "'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', Roboto, sans-serif"

# Widths of Helvetica Bold (Arial Bold is metric-compatible), per 1000 units
# of font size, to wrap and fit names without a browser.
_W: dict[str, int] = {
    " ": 278, "!": 333, "&": 722, "'": 238, "(": 333, ")": 333, ",": 278, "-": 333,
    ".": 278, "/": 278, ":": 333, "?": 611, "$": 556, "£": 556, "%": 889,
    "A": 722, "B": 722, "C": 722, "D": 722, "E": 667, "F": 611, "G": 778, "H": 722,
    "I": 278, "J": 556, "K": 722, "L": 611, "M": 833, "N": 722, "O": 778, "P": 667,
    "Q": 778, "R": 722, "S": 667, "T": 611, "U": 722, "V": 667, "W": 944, "X": 667,
    "Y": 667, "Z": 611, "a": 556, "b": 611, "c": 556, "d": 611, "e": 556, "f": 333,
    "g": 611, "h": 611, "i": 278, "j": 278, "k": 556, "l": 278, "m": 889, "n": 611,
    "o": 611, "p": 611, "q": 611, "r": 389, "s": 556, "t": 333, "u": 611, "v": 556,
    "w": 778, "x": 556, "y": 556, "z": 500,
}  # fmt: skip


def _text_width(text: str, size: float) -> float:
    return sum(_W.get(ch, 611 if ch.isupper() else 556) for ch in text) * size / 1000


def _n(v: float) -> str:
    """A compact, deterministic number for SVG attributes (one decimal at most)."""
    if v == int(v):
        return str(int(v))
    r = round(v, 1)
    return str(int(r)) if r == int(r) else str(r)


def _money(amount: int, currency: str) -> str:
    return f"{currency}{amount:,}"


# --- Text -------------------------------------------------------------------

_ABBREVIATIONS = (
    (" Avenue", " Ave."),
    (" Street Station", " St. Station"),
    ("Railroad", "R.R."),
    (" Street", " St."),
    ("Company", "Co."),
)


def _wrap(text: str, width: float, size: float, max_lines: int) -> list[str]:
    """Greedy word wrap; lines may come out wider than ``width``."""
    lines: list[str] = []
    for word in text.split():
        if lines and _text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    while len(lines) > max_lines:  # fold the tail onto the last allowed line
        tail = lines.pop()
        lines[-1] += " " + tail
    return lines


def _fit_name(name: str, width: float, size: float, max_lines: int) -> list[tuple[str, float]]:
    """Lines of a square's name with the font size each needs to fit ``width``.

    The full name is kept if it fits in two lines at full size; otherwise the
    abbreviated one (Ave., St.) is tried, and whichever needs the least
    shrinking wins, preferring fewer lines.
    """
    candidates = [name]
    short = name
    for long_form, short_form in _ABBREVIATIONS:
        short = short.replace(long_form, short_form)
    if short != name:
        candidates.append(short)
    best: list[tuple[str, float]] = []
    best_key: tuple[float, int] | None = None
    for i, cand in enumerate(candidates):
        lines = _wrap(cand, width, size, max_lines)
        fitted = [(ln, min(size, size * width / max(_text_width(ln, size), 1))) for ln in lines]
        shrink = min(fs for _, fs in fitted) / size
        if i == 0 and shrink >= 1 and len(lines) <= 2:
            return fitted
        key = (-round(shrink, 2), len(lines))
        if best_key is None or key < best_key:
            best, best_key = fitted, key
    return best


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    weight: str = "normal",
    fill: str = _INK,
    anchor: str = "middle",
    cls: str = "",
    extra: str = "",
) -> str:
    attrs = f'x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"'
    if weight != "normal":
        attrs += f' font-weight="{weight}"'
    if fill != _INK:
        attrs += f' fill="{fill}"'
    if anchor != "middle":
        attrs += f' text-anchor="{anchor}"'
    if cls:
        attrs += f' class="{cls}"'
    if extra:
        attrs += " " + extra
    return f"<text {attrs}>{escape(text)}</text>"


def _lines(
    cx: float,
    top: float,
    lines: list[tuple[str, float]],
    *,
    line_height: float,
    weight: str = "bold",
    cls: str = "sq-name",
) -> str:
    """Centred multi-line text; ``top`` is the top of the first line's box."""
    parts = [f'<text x="{_n(cx)}" y="{_n(top)}" font-weight="{weight}" class="{cls}">']
    for i, (line, size) in enumerate(lines):
        dy = line_height * 0.8 if i == 0 else line_height
        parts.append(
            f'<tspan x="{_n(cx)}" dy="{_n(dy)}" font-size="{_n(size)}">{escape(line)}</tspan>'
        )
    parts.append("</text>")
    return "".join(parts)


# --- Geometry ---------------------------------------------------------------

# Sides: where a square lies, which fixes where its inner edge is.
BOTTOM, LEFT, TOP, RIGHT = 0, 1, 2, 3


def square_box(sq: int) -> tuple[float, float, float, float, int]:
    """(x, y, width, height, side) of square ``sq`` on the board."""
    far = SIZE - CORNER
    if sq == 0:
        return far, far, CORNER, CORNER, BOTTOM
    if sq < 10:
        return far - sq * CELL, far, CELL, CORNER, BOTTOM
    if sq == 10:
        return 0, far, CORNER, CORNER, LEFT
    if sq < 20:
        return 0, far - (sq - 10) * CELL, CORNER, CELL, LEFT
    if sq == 20:
        return 0, 0, CORNER, CORNER, TOP
    if sq < 30:
        return CORNER + (sq - 21) * CELL, 0, CELL, CORNER, TOP
    if sq == 30:
        return far, 0, CORNER, CORNER, RIGHT
    return far, CORNER + (sq - 31) * CELL, CORNER, CELL, RIGHT


# The parts of a square, in its own coordinates: (x, y, w, h).
Rect = tuple[float, float, float, float]


def _band_rect(side: int) -> Rect:
    if side == BOTTOM:
        return 0, 0, CELL, BAND
    if side == TOP:
        return 0, CORNER - BAND, CELL, BAND
    if side == LEFT:
        return CORNER - BAND, 0, BAND, CELL
    return 0, 0, BAND, CELL


def _foot_rect(side: int) -> Rect:
    if side == BOTTOM:
        return 0, CORNER - FOOT, CELL, FOOT
    if side == TOP:
        return 0, 0, CELL, FOOT
    if side == LEFT:
        return 0, 0, FOOT, CELL
    return CORNER - FOOT, 0, FOOT, CELL


def _body_rect(side: int, banded: bool, footed: bool) -> Rect:
    """The area between the colour band and the owner strip."""
    band = BAND if banded else 0
    foot = FOOT if footed else 0
    if side == BOTTOM:
        return 0, band, CELL, CORNER - band - foot
    if side == TOP:
        return 0, foot, CELL, CORNER - band - foot
    if side == LEFT:
        return foot, 0, CORNER - band - foot, CELL
    return band, 0, CORNER - band - foot, CELL


def _token_zone(sq: int, side: int) -> Rect:
    """Where tokens stand, in the square's coordinates: towards the outer edge."""
    if sq % 10 == 0:
        return 6, 90, CORNER - 12, 28
    if side == BOTTOM:
        return 4, CORNER - FOOT - 34, CELL - 8, 32
    if side == TOP:
        return 4, FOOT + 2, CELL - 8, 32
    # Side columns: tokens along the bottom of the square, under the text.
    bx, _, bw, _ = _body_rect(side, True, True)
    return bx + 2, CELL - 27, bw - 4, 25


def _token_radius(count: int) -> float:
    """Tokens shrink a little on crowded squares so that all labels show."""
    return TOKEN_R if count <= 4 else 8.5


def _spread(
    zone: Rect, count: int, r: float = TOKEN_R, bounds: tuple[float, float] | None = None
) -> list[tuple[float, float]]:
    """Centres for ``count`` tokens around the middle of ``zone``: rows of up
    to 4 (5 in wide zones), overlapping only if they must and never exactly
    on top of one another. Rows may spill out of a short zone, but stay
    inside ``bounds`` (the square's width and height) if given."""
    if count <= 0:
        return []
    zx, zy, zw, zh = zone
    cols = min(count, 4 if zw < 80 else 5)
    rows = math.ceil(count / cols)
    step_x = min(2 * r + 3, (zw - 2 * r) / max(cols - 1, 1))
    step_y = 2 * r + 1
    out = []
    total_h = (rows - 1) * step_y
    for i in range(count):
        row, col = divmod(i, cols)
        in_row = min(cols, count - row * cols)
        total_w = (in_row - 1) * step_x
        cx = zx + zw / 2 - total_w / 2 + col * step_x
        cy = zy + zh / 2 - total_h / 2 + row * step_y
        out.append((cx, cy))
    if bounds is not None:
        pad = r + 1.5
        ys = [y for _, y in out]
        shift = max(0.0, pad - min(ys)) - max(0.0, max(ys) - (bounds[1] - pad))
        out = [(x, y + shift) for x, y in out]
    return out


# Jail: the cell sits in the inner (top-right) part of the corner; "just
# visiting" is the L-shaped strip along the outer edges.
_JAIL_STRIP = 34
_JAIL_CELL: Rect = (_JAIL_STRIP, 0, CORNER - _JAIL_STRIP, CORNER - _JAIL_STRIP)


def _visiting_spots(count: int) -> list[tuple[float, float]]:
    """Centres along the bottom strip, then up the left strip."""
    spots: list[tuple[float, float]] = []
    y_bottom = CORNER - _JAIL_STRIP / 2 + 2
    along = [17 + i * 21.5 for i in range(5)]  # 5 on the bottom strip
    up = [CORNER - _JAIL_STRIP - 14 - i * 21 for i in range(4)]  # 4 up the left
    for x in along:
        spots.append((x, y_bottom))
    for y in up:
        spots.append((_JAIL_STRIP / 2 - 1, y))
    # More than 9 (impossible with 8 seats) would wrap onto the same spots.
    return [spots[i % len(spots)] for i in range(count)]


# --- Icons (drawn in a box centred on cx, cy) ---------------------------------


_TRAIN = (
    (-17, 6), (-17, -4), (-9, -4), (-9, -10), (-12, -10), (-12, -13), (-4, -13), (-4, -10),
    (-6, -10), (-6, -4), (4, -4), (4, -14), (16, -14), (16, -10), (14, -10), (14, 6),
)  # fmt: skip


def _icon_train(cx: float, cy: float, s: float = 1.0) -> str:
    def p(x: float, y: float) -> str:
        return f"{_n(cx + x * s)},{_n(cy + y * s)}"

    body = " ".join(p(x, y) for x, y in _TRAIN)
    wheels = "".join(
        f'<circle cx="{_n(cx + x * s)}" cy="{_n(cy + 8 * s)}" r="{_n(r * s)}"/>'
        for x, r in ((-12, 4), (-3, 4), (9, 5))
    )
    return (
        f'<g class="icon icon-rail" fill="{_INK}"><polygon points="{body}"/>{wheels}'
        f'<rect x="{_n(cx + 6 * s)}" y="{_n(cy - 11 * s)}" width="{_n(6 * s)}" '
        f'height="{_n(5 * s)}" fill="{_SQUARE_BG}"/>'
        f'<polygon points="{p(-17, 6)} {p(-21, 11)} {p(-16, 11)}"/></g>'
    )


def _icon_bulb(cx: float, cy: float) -> str:
    return (
        f'<g class="icon icon-electric" stroke="{_INK}" stroke-width="1.5">'
        f'<circle cx="{_n(cx)}" cy="{_n(cy - 4)}" r="10" fill="#FFE066"/>'
        f'<path d="M{_n(cx - 4)} {_n(cy - 4)} l2 -3 l2 3 l2 -3 l2 3" fill="none"/>'
        f'<rect x="{_n(cx - 5)}" y="{_n(cy + 5)}" width="10" height="9" rx="1.5" fill="#9A9A92"/>'
        f'<path d="M{_n(cx - 5)} {_n(cy + 8)} h10 M{_n(cx - 5)} {_n(cy + 11)} h10" fill="none"/>'
        "</g>"
    )


def _icon_tap(cx: float, cy: float) -> str:
    return (
        f'<g class="icon icon-water" stroke="{_INK}" stroke-width="1.5" stroke-linejoin="round">'
        f'<path d="M{_n(cx - 16)} {_n(cy - 6)} h22 a6 6 0 0 1 6 6 v5 h-6 v-3 '
        f'a2 2 0 0 0 -2 -2 h-20 z" fill="#8C9AA6"/>'
        f'<path d="M{_n(cx - 4)} {_n(cy - 6)} v-5 M{_n(cx - 10)} {_n(cy - 12)} h12" fill="none"/>'
        f'<path d="M{_n(cx + 9)} {_n(cy + 9)} q-3 5 0 6 q3 -1 0 -6 z" fill="#3A8FD8" '
        f'stroke="#1F5F99" stroke-width="1"/></g>'
    )


def _icon_chest(cx: float, cy: float) -> str:
    x, y = cx - 15, cy - 10
    return (
        f'<g class="icon icon-chest" stroke="{_INK}" stroke-width="1.3">'
        f'<path d="M{_n(x)} {_n(y + 8)} v-2 a8 6 0 0 1 8 -6 h14 a8 6 0 0 1 8 6 v2 z" '
        f'fill="#B8742F"/>'
        f'<rect x="{_n(x)}" y="{_n(y + 8)}" width="30" height="14" fill="#9C5B22"/>'
        f'<rect x="{_n(x)}" y="{_n(y + 7)}" width="30" height="3" fill="#E8B53D"/>'
        f'<rect x="{_n(cx - 3)}" y="{_n(y + 6)}" width="6" height="7" fill="#E8B53D"/></g>'
    )


def _icon_ring(cx: float, cy: float) -> str:
    return (
        f'<g class="icon icon-ring">'
        f'<circle cx="{_n(cx)}" cy="{_n(cy + 3)}" r="9" fill="none" stroke="#C9A227" '
        f'stroke-width="3"/>'
        f'<polygon points="{_n(cx - 6)},{_n(cy - 7)} {_n(cx - 3)},{_n(cy - 11)} '
        f'{_n(cx + 3)},{_n(cy - 11)} {_n(cx + 6)},{_n(cy - 7)} {_n(cx)},{_n(cy - 2)}" '
        f'fill="#BFE7F5" stroke="{_INK}" stroke-width="1"/></g>'
    )


def _icon_question(cx: float, cy: float, colour: str) -> str:
    return (
        f'<text x="{_n(cx)}" y="{_n(cy + 14)}" font-size="40" font-weight="bold" '
        f'fill="{colour}" stroke="{_INK}" stroke-width="1" class="icon icon-chance">?</text>'
    )


def _icon_car(cx: float, cy: float) -> str:
    return (
        f'<g class="icon icon-car" stroke="{_INK}" stroke-width="1.5" stroke-linejoin="round">'
        f'<path d="M{_n(cx - 24)} {_n(cy + 6)} v-8 l6 -2 l7 -8 h18 l8 8 l9 2 v8 z" '
        f'fill="#D7262E"/>'
        f'<path d="M{_n(cx - 8)} {_n(cy - 4)} l4 -6 h6 v6 z M{_n(cx + 5)} {_n(cy - 4)} v-6 h5 '
        f'l5 6 z" fill="#CFE8F7"/>'
        f'<circle cx="{_n(cx - 13)}" cy="{_n(cy + 7)}" r="5" fill="{_INK}"/>'
        f'<circle cx="{_n(cx + 13)}" cy="{_n(cy + 7)}" r="5" fill="{_INK}"/></g>'
    )


def _house_shape(x: float, y: float, w: float, h: float, fill: str, cls: str) -> str:
    """A little house with a roof in the box (x, y, w, h)."""
    roof = h * 0.42
    return (
        f'<path class="{cls}" d="M{_n(x)} {_n(y + roof)} L{_n(x + w / 2)} {_n(y)} '
        f'L{_n(x + w)} {_n(y + roof)} V{_n(y + h)} H{_n(x)} Z" fill="{fill}" '
        f'stroke="#0E3B1A" stroke-width="1"/>'
    )


def _hotel_shape(x: float, y: float, w: float, h: float) -> str:
    return (
        f'<rect class="hotel" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
        f'rx="1.5" fill="{_HOTEL}" stroke="#5E0A15" stroke-width="1"/>'
    )


# --- Squares ----------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _buildings(side: int, count: int) -> str:
    """Houses (1-4) or a hotel (5) on the colour band."""
    if count <= 0:
        return ""
    bx, by, bw, bh = _band_rect(side)
    out = []
    horizontal = side in (BOTTOM, TOP)
    if count >= engine.HOTEL:
        if horizontal:
            out.append(_hotel_shape(bx + bw / 2 - 17, by + 3.5, 34, bh - 7))
        else:
            out.append(_hotel_shape(bx + 3.5, by + bh / 2 - 17, bw - 7, 34))
        return "".join(out)
    size, gap = 13.0, 4.0
    span = count * size + (count - 1) * gap
    for i in range(count):
        if horizontal:
            x = bx + bw / 2 - span / 2 + i * (size + gap)
            out.append(_house_shape(x, by + (bh - size) / 2, size, size, _HOUSE, "house"))
        else:
            y = by + bh / 2 - span / 2 + i * (size + gap)
            out.append(_house_shape(bx + (bw - size) / 2, y, size, size, _HOUSE, "house"))
    return "".join(out)


@functools.lru_cache(maxsize=512)
def _owner_mark(side: int, owner: int, name: str) -> str:
    fx, fy, fw, fh = _foot_rect(side)
    colour = SEAT_COLOURS[owner % len(SEAT_COLOURS)]
    ink = seat_text_colour(owner)
    rect = (
        f'<rect class="owner-mark" x="{_n(fx)}" y="{_n(fy)}" width="{_n(fw)}" '
        f'height="{_n(fh)}" fill="{colour}" stroke="{_LINE}" stroke-width="0.75"/>'
    )
    length = fw if side in (BOTTOM, TOP) else fh
    label = _truncate(name, length - 6, 9.5)
    size = 9.5
    if side in (BOTTOM, TOP):
        txt = _text(fx + fw / 2, fy + fh / 2 + 3.4, label, size, weight="bold", fill=ink)
    else:
        cx, cy = fx + fw / 2, fy + fh / 2
        angle = -90 if side == LEFT else 90
        txt = _text(
            cx,
            cy + 3.4,
            label,
            size,
            weight="bold",
            fill=ink,
            extra=f'transform="rotate({angle} {_n(cx)} {_n(cy)})"',
        )
    return rect + txt.replace("<text ", '<text class="owner-name" ', 1)


def _truncate(text: str, width: float, size: float) -> str:
    if _text_width(text, size) <= width:
        return text
    while text and _text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


@functools.lru_cache(maxsize=512)
def _mortgage_hatch(side: int) -> str:
    """Diagonal hatching over the whole square but the owner strip (drawn under the text)."""
    bx, by, bw, bh = _body_rect(side, False, True)
    return (
        f'<rect class="mortgage-hatch" x="{_n(bx)}" y="{_n(by)}" width="{_n(bw)}" '
        f'height="{_n(bh)}" fill="url(#mb-hatch)"/>'
    )


@functools.lru_cache(maxsize=512)
def _mortgage_mark(sq: int, side: int, banded: bool) -> str:
    """The faded colour band and a "MORTGAGED" tag by the outer edge."""
    out = ['<g class="mortgage-mark">']
    if banded:
        bx, by, bw, bh = _band_rect(side)
        out.append(
            f'<rect x="{_n(bx)}" y="{_n(by)}" width="{_n(bw)}" height="{_n(bh)}" '
            f'fill="url(#mb-hatch)"/>'
        )
    zx, zy, zw, zh = _token_zone(sq, side)
    cx = zx + zw / 2
    cy = zy + 9 if side == TOP else zy + zh - (9 if side == BOTTOM else 8)
    pill_w, pill_h = 62, 14
    out.append(
        f'<rect x="{_n(cx - pill_w / 2)}" y="{_n(cy - pill_h / 2)}" width="{pill_w}" '
        f'height="{pill_h}" rx="7" fill="#FFFFFF" stroke="{_HOTEL}" stroke-width="1.2"/>'
        + _text(cx, cy + 3.1, "MORTGAGED", 8.5, weight="bold", fill=_HOTEL)
        + "</g>"
    )
    return "".join(out)


def _square_title(state: State, sq: int, here: list[str]) -> str:
    """The tooltip: name, price, owner, buildings, mortgage, who stands here."""
    money = state.rules.currency
    uk = state.rules.uk
    name = engine.square_name(sq, uk)
    kind = engine.KIND[sq]
    bits: list[str] = []
    if engine.IS_PROPERTY[sq]:
        group = (engine.UK_GROUP_NAMES if uk else engine.US_GROUP_NAMES)[engine.GROUP[sq]]
        if kind == engine.SITE:
            group = f"{group} group"
        bits.append(f"{name} ({group}), price {money}{engine.PRICE[sq]:,}")
        owner = state.owner[sq]
        if owner >= 0:
            bits.append(f"owned by {state.names[owner]}")
        else:
            bits.append("for sale")
        bld = state.bld[sq]
        if bld >= engine.HOTEL:
            bits.append("a hotel")
        elif bld > 0:
            bits.append(f"{bld} house{'s' if bld > 1 else ''}")
        if state.mortgaged[sq]:
            bits.append("mortgaged")
    elif kind == engine.INCOME_TAX:
        bits.append(f"{name}: pay {_income_tax_text(state.rules).removeprefix('Pay ')}")
    elif kind == engine.LUXURY_TAX:
        bits.append(f"{name}: pay {money}{state.rules.luxury_tax:,}")
    elif kind == engine.GO:
        bits.append(f"GO: collect {money}{state.rules.go_salary:,} salary as you pass")
    elif kind == engine.FREE_PARKING and state.pot > 0:
        bits.append(f"Free Parking: jackpot {money}{state.pot:,}")
    else:
        bits.append(name)
    text = ", ".join(bits)
    if here:
        text += ". Here: " + ", ".join(here)
    return text + "."


def _income_tax_text(r: Ruleset) -> str:
    amount = _money(r.income_tax, r.currency)
    return f"{amount} or 10%" if r.income_tax_choice else f"Pay {amount}"


_CHANCE_COLOURS = {7: "#D93A96", 22: "#0B5AA8", 36: "#F7941D"}


@functools.lru_cache(maxsize=1024)
def _square_content(rules: Ruleset, sq: int, side: int) -> str:
    """Everything printed on a non-corner square, in its own coordinates.

    It depends only on the ruleset (names, currency, taxes), so it is cached.
    """
    uk = rules.uk
    cur = rules.currency
    kind = engine.KIND[sq]
    banded = kind == engine.SITE
    footed = engine.IS_PROPERTY[sq]
    x, y, w, h = _body_rect(side, banded, footed)
    cx = x + w / 2
    portrait = side in (BOTTOM, TOP)
    out: list[str] = []
    if banded:
        group = engine.GROUP[sq]
        bx, by, bw, bh = _band_rect(side)
        out.append(
            f'<rect class="band" x="{_n(bx)}" y="{_n(by)}" width="{_n(bw)}" height="{_n(bh)}" '
            f'fill="{GROUP_COLOURS[group]}" stroke="{_LINE}" stroke-width="1"/>'
        )
    name = engine.square_name(sq, uk)
    if kind == engine.CHEST:
        name = "Community Chest"
    name_w = w - 6
    max_lines = 3
    lines = _fit_name(name, name_w, 12, max_lines)
    line_h = 12.5
    price: str | None = None
    icon = ""
    if kind in (engine.SITE, engine.RAILROAD, engine.UTILITY):
        price = _money(engine.PRICE[sq], cur)
    elif kind == engine.INCOME_TAX:
        price = _income_tax_text(rules)
    elif kind == engine.LUXURY_TAX:
        price = "Pay " + _money(rules.luxury_tax, cur)

    # Icon glyphs (railroads, utilities, cards, taxes).
    def icon_at(icx: float, icy: float) -> str:
        if kind == engine.RAILROAD:
            return _icon_train(icx, icy, 0.95)
        if kind == engine.UTILITY:
            return _icon_bulb(icx, icy) if sq == 12 else _icon_tap(icx, icy)
        if kind == engine.CHANCE:
            return _icon_question(icx, icy, _CHANCE_COLOURS.get(sq, "#D93A96"))
        if kind == engine.CHEST:
            return _icon_chest(icx, icy)
        if kind == engine.LUXURY_TAX:
            return _icon_ring(icx, icy)
        if kind == engine.INCOME_TAX:
            return (
                f'<g class="icon icon-tax"><rect x="{_n(icx - 11)}" y="{_n(icy - 9)}" '
                f'width="22" height="18" rx="3" fill="#E9E4D4" stroke="{_INK}" '
                f'stroke-width="1.2"/>' + _text(icx, icy + 5, cur, 14, weight="bold") + "</g>"
            )
        return ""

    has_icon = kind != engine.SITE
    text_h = len(lines) * line_h + (12 if price else 0)
    if portrait:
        # Name and price by the inner edge; tokens by the outer edge.
        icon_h = 30 if has_icon else 0
        if side == BOTTOM:
            top = y + (6 if kind in (engine.CHANCE, engine.CHEST) else 4)
        else:
            top = y + h - 4 - text_h
        out.append(_lines(cx, top, lines, line_height=line_h))
        if price:
            py = top + len(lines) * line_h + 10
            out.append(_text(cx, py, price, 11, cls="sq-price", fill=_MUTED))
        if has_icon:
            icy = top + text_h + icon_h / 2 + 4 if side == BOTTOM else top - icon_h / 2 - 2
            icon = icon_at(cx, icy)
    else:
        # Side columns: text on top, the icon and the tokens beneath.
        top = y + 4
        out.append(_lines(cx, top, lines, line_height=line_h))
        if price:
            py = top + len(lines) * line_h + 10
            out.append(_text(cx, py, price, 11, cls="sq-price", fill=_MUTED))
        if has_icon:
            icy = h - 19
            icon = icon_at(cx, icy)
    return icon + "".join(out)


def _corner_content(state: State, sq: int) -> str:
    if sq == 20 and state.pot > 0:
        return _corner_printing(state.rules, sq, state.pot)
    return _corner_static(state.rules, sq, 0)


def _corner_printing(rules: Ruleset, sq: int, pot: int) -> str:
    """A corner square's printing (and the Free Parking pot, if any)."""
    cur = rules.currency
    c = CORNER
    if sq == 0:
        salary = _money(rules.go_salary, cur)
        return (
            _lines(c / 2, 8, [("Collect " + salary, 10.5), ("salary as you pass", 9.5)],
                   line_height=12, weight="bold", cls="corner-note")
            + _text(c / 2, 73, "GO", 42, weight="900", fill="#D7262E",
                    extra=f'stroke="{_INK}" stroke-width="1.2" letter-spacing="2"')
            + f'<path class="go-arrow" d="M{c - 12} 97 H36 v-7 l-22 12 l22 12 v-7 H{c - 12} z" '
            f'fill="#D7262E" stroke="{_INK}" stroke-width="1.2"/>'
        )  # fmt: skip
    if sq == 10:
        sx, sy, sw, sh = _JAIL_CELL
        bars = "".join(
            f'<line x1="{_n(sx + 10 + i * 12.8)}" y1="{_n(sy + 22)}" x2="{_n(sx + 10 + i * 12.8)}" '
            f'y2="{_n(sy + sh - 8)}"/>'
            for i in range(6)
        )
        strip_mid = _JAIL_STRIP / 2
        return (
            f'<rect class="jail-cell" x="{_n(sx)}" y="{_n(sy)}" width="{_n(sw)}" '
            f'height="{_n(sh)}" fill="#F7941D" stroke="{_LINE}" stroke-width="1.5"/>'
            f'<rect x="{_n(sx + 6)}" y="{_n(sy + 18)}" width="{_n(sw - 12)}" height="{_n(sh - 24)}" '
            f'fill="#FCE3C4" stroke="{_INK}" stroke-width="1.5"/>'
            f'<g stroke="{_INK}" stroke-width="2.2" stroke-linecap="round">{bars}</g>'
            + _text(sx + sw / 2, sy + 13.5, "IN JAIL", 11, weight="bold")
            + _text(
                strip_mid, (c - _JAIL_STRIP) / 2 + 4, "JUST", 11, weight="bold",
                extra=f'transform="rotate(-90 {_n(strip_mid)} {_n((c - _JAIL_STRIP) / 2)})"',
            )
            + _text(c / 2 + 12, c - 5, "VISITING", 11, weight="bold")
        )  # fmt: skip
    if sq == 20:
        pot_badge = _pot_badge(rules, pot) if pot > 0 else ""
        return (
            _text(c / 2, 20, "FREE", 15, weight="bold")
            + _icon_car(c / 2, 38)
            + _text(c / 2, 64, "PARKING", 15, weight="bold")
            + pot_badge
        )
    # Go To Jail.
    return (
        _text(c / 2, 22, "GO TO", 15, weight="bold")
        + f'<g class="icon icon-gotojail" stroke="{_INK}" stroke-width="1.5">'
        f'<circle cx="{c / 2 - 12}" cy="42" r="12" fill="#0B5AA8"/>'
        f'<path d="M{c / 2 - 18} 42 h10 m-4 -4 l5 4 l-5 4" stroke="#FFFFFF" stroke-width="2" '
        f'fill="none" stroke-linecap="round"/>'
        f'<rect x="{c / 2 + 4}" y="31" width="20" height="22" fill="#F7941D"/>'
        f'<path d="M{c / 2 + 9} 31 v22 M{c / 2 + 14} 31 v22 M{c / 2 + 19} 31 v22" '
        f'stroke-width="2"/></g>' + _text(c / 2, 72, "JAIL", 15, weight="bold")
    )


_corner_static = functools.lru_cache(maxsize=64)(_corner_printing)


def _pot_badge(rules: Ruleset, pot: int) -> str:
    """The Free Parking jackpot, on its corner."""
    c = CORNER
    label = _money(pot, rules.currency)
    pw = max(_text_width(label, 11) + 12, 44)
    return (
        f'<g class="pot-badge"><rect x="{_n(c / 2 - pw / 2)}" y="71" width="{_n(pw)}" '
        f'height="17" rx="8.5" fill="#FFF4C2" stroke="#B8860B" stroke-width="1.2"/>'
        + _text(c / 2, 83.5, label, 11, weight="bold")
        + "</g>"
    )


# --- Tokens ----------------------------------------------------------------


def _token(
    p: int, cx: float, cy: float, label: str, title: str, classes: str, sq: int, r: float
) -> str:
    colour = SEAT_COLOURS[p % len(SEAT_COLOURS)]
    ink = seat_text_colour(p)
    size = (11 if len(label) <= 1 else (9 if len(label) == 2 else 7.5)) * r / TOKEN_R
    ring = ""
    if "current" in classes:
        ring = (
            f'<circle class="current-ring" r="{_n(r + 4)}" fill="none" stroke="{_INK}" '
            f'stroke-width="2" stroke-dasharray="4 2.5"/>'
        )
    return (
        f'<g id="token-{p}" class="token seat-{p}{classes}" data-seat="{p}" data-sq="{sq}" '
        f'transform="translate({_n(cx)} {_n(cy)})">'
        f"<title>{escape(title)}</title>{ring}"
        f'<circle r="{_n(r)}" fill="{colour}" stroke="#FFFFFF" stroke-width="2"/>'
        f'<circle r="{_n(r + 1)}" fill="none" stroke="{_INK}" stroke-width="1"/>'
        + _text(0, size * 0.36, label, size, weight="bold", fill=ink)
        + "</g>"
    )


# --- Centre -----------------------------------------------------------------

_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def _throw(state: State) -> tuple[int, int]:
    """The last movement throw, (0, 0) before the first."""
    dice = list(state.dice or ())
    if len(dice) < 2:
        return 0, 0
    return int(dice[0]), int(dice[1])


def _die(x: float, y: float, size: float, value: int, index: int) -> str:
    blank = value not in _PIPS
    face = "#F3F1EA" if blank else "#FFFFFF"
    stroke = "#9A978C" if blank else _INK
    dash = ' stroke-dasharray="5 4"' if blank else ""
    out = [
        f'<g class="die die-{index}" data-value="{value}">'
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" '
        f'rx="{_n(size * 0.16)}" fill="{face}" stroke="{stroke}" stroke-width="2"{dash}/>'
    ]
    pip_r = size * 0.09
    for col, row in _PIPS.get(value, ()):
        px = x + size * (0.25 + 0.25 * col)
        py = y + size * (0.25 + 0.25 * row)
        out.append(
            f'<circle class="pip" cx="{_n(px)}" cy="{_n(py)}" r="{_n(pip_r)}" fill="{_INK}"/>'
        )
    out.append("</g>")
    return "".join(out)


@functools.lru_cache(maxsize=1)
def _centre_static() -> str:
    """The title banner and the card decks: the same on every board."""
    mid = SIZE / 2
    out: list[str] = []
    # The title banner, diagonal as on the printed board.
    out.append(
        f'<g class="title-banner" transform="translate({_n(mid + 25)} {_n(mid - 115)}) '
        f'rotate(-35)">'
        f'<rect x="-205" y="-38" width="410" height="76" rx="6" '
        f'fill="#D7262E" stroke="{_INK}" stroke-width="3"/>'
        f'<rect x="-199" y="-32" width="398" height="64" rx="4" '
        f'fill="none" stroke="#FFFFFF" stroke-width="1.5"/>'
        + _text(0, 18, "MONOPOLY", 52, weight="900", fill="#FFFFFF", extra='letter-spacing="4"')
        + "</g>"
    )  # fmt: skip

    # Card decks, as on the printed board.
    out.append(_deck(mid - 205, mid - 205, 135, "Community Chest", "chest"))
    out.append(_deck(mid + 215, mid + 215, -45, "Chance", "chance"))
    return "".join(out)


def _centre(state: State, labels: list[str]) -> str:
    """Whose turn it is, the last throw and the bank."""
    cur = state.rules.currency
    mid = SIZE / 2
    out: list[str] = []
    mid_y = mid + 40  # the information block sits below the banner

    # Whose turn it is.
    if state.finished:
        winner = state.winner
        name = _truncate(state.names[winner], 330, 17) if winner >= 0 else ""
        status = f"Game over: {name} wins" if name else "Game over"
        seat = winner
    else:
        seat = state.turn
        in_range = 0 <= seat < state.n
        status = f"{_truncate(state.names[seat], 360, 17)} to play" if in_range else ""
    if status:
        label_w = _text_width(status, 17)
        dot = ""
        text_x = mid
        if 0 <= seat < state.n:
            text_x = mid + 14
            dot_x = text_x - label_w / 2 - 16
            dot = (
                f'<circle cx="{_n(dot_x)}" cy="{_n(mid_y - 6)}" r="10" '
                f'fill="{SEAT_COLOURS[seat % len(SEAT_COLOURS)]}" stroke="{_INK}"/>'
                + _text(dot_x, mid_y - 2, labels[seat], 10 if len(labels[seat]) <= 1 else 8,
                        weight="bold", fill=seat_text_colour(seat))
            )  # fmt: skip
        out.append(
            f'<g class="turn-indicator">{dot}'
            + _text(text_x, mid_y, status, 17, weight="bold")
            + "</g>"
        )

    # Dice.
    d1, d2 = _throw(state)
    size = 58
    dy = mid_y + 18
    out.append('<g class="dice">')
    out.append(_die(mid - size - 8, dy, size, d1, 1))
    out.append(_die(mid + 8, dy, size, d2, 2))
    out.append("</g>")
    if d1 and d2:
        caption = f"Last throw: {d1 + d2}" + (" (doubles)" if d1 == d2 else "")
    else:
        caption = "No throw yet"
    out.append(_text(mid, dy + size + 22, caption, 13, fill=_MUTED, cls="dice-caption"))

    # The bank.
    by = dy + size + 52
    out.append(
        f'<g class="bank" transform="translate({_n(mid)} {_n(by)})">'
        + _house_shape(-92, -14, 16, 16, _HOUSE, "bank-house-icon")
        + _text(-70, 0, f"{state.bank_houses} houses", 13, anchor="start",
                cls="bank-houses", weight="bold")
        + _hotel_shape(12, -12, 20, 13)
        + _text(38, 0, f"{state.bank_hotels} hotels", 13, anchor="start",
                cls="bank-hotels", weight="bold")
        + _text(0, 20, "left in the bank", 11, fill=_MUTED)
        + "</g>"
    )  # fmt: skip
    if state.pot > 0:
        out.append(
            _text(mid, by + 46, f"Free Parking pot: {_money(state.pot, cur)}", 14,
                  weight="bold", cls="pot")
        )  # fmt: skip
    return "".join(out)


def _deck(cx: float, cy: float, angle: float, label: str, kind: str) -> str:
    w, h = 150, 92
    icon = _icon_chest(0, -8) if kind == "chest" else _icon_question(0, -14, "#F7941D")
    return (
        f'<g class="deck deck-{kind}" transform="translate({_n(cx)} {_n(cy)}) rotate({angle})">'
        f'<rect x="{-w / 2}" y="{-h / 2}" width="{w}" height="{h}" rx="8" fill="none" '
        f'stroke="{_LINE}" stroke-width="1.5" stroke-dasharray="6 4"/>'
        + icon
        + _text(0, 30, label.upper(), 12, weight="bold")
        + "</g>"
    )


# --- The board -----------------------------------------------------------------


def _where(state: State, p: int, uk: bool) -> str:
    if state.in_jail[p]:
        return "in jail"
    sq = state.pos[p]
    if sq == engine.JAIL_SQUARE:
        return "just visiting jail"
    return "on " + engine.square_name(sq, uk)


def _svg_open(extra: str, cls: str = "board-svg") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" width="100%" '
        f'{extra} class="{cls}" '
        f'font-family="{_FONT}" text-anchor="middle" fill="{_INK}" '
        f'preserveAspectRatio="xMidYMid meet">'
    )


_ACCESSIBLE = 'role="img" aria-labelledby="board-title board-desc"'
# With buttons inside, the board is a group (an image hides its children).
_INTERACTIVE = 'role="group" aria-labelledby="board-title board-desc"'
_DEFS = (
    '<defs><pattern id="mb-hatch" width="7" height="7" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="7" height="7" fill="#FFFFFF" '
    'fill-opacity="0.55"/><line x1="0" y1="0" x2="0" y2="7" stroke="#8A8A84" '
    'stroke-width="2" stroke-opacity="0.6"/></pattern></defs>'
)
_BG = f'<rect class="board-bg" x="0" y="0" width="{SIZE}" height="{SIZE}" fill="{_BOARD_BG}"/>'
_INNER_EDGE = (
    f'<rect x="{CORNER}" y="{CORNER}" width="{SIZE - 2 * CORNER}" '
    f'height="{SIZE - 2 * CORNER}" fill="none" stroke="{_LINE}" stroke-width="2"/>'
)
_OUTER_EDGE = (
    f'<rect x="0.75" y="0.75" width="{SIZE - 1.5}" height="{SIZE - 1.5}" fill="none" '
    f'stroke="{_LINE}" stroke-width="1.5"/>'
)
_KIND_CLASSES = {
    engine.GO: "sq-go",
    engine.SITE: "sq-site",
    engine.RAILROAD: "sq-railroad",
    engine.UTILITY: "sq-utility",
    engine.CHANCE: "sq-chance",
    engine.CHEST: "sq-chest",
    engine.INCOME_TAX: "sq-tax",
    engine.LUXURY_TAX: "sq-tax",
    engine.GO_TO_JAIL: "sq-gotojail",
    engine.JAIL: "sq-jail",
    engine.FREE_PARKING: "sq-parking",
}


def _square_key(rules: Ruleset, sq: int) -> str:
    """What makes a square open its card (static/js/squares.js): focusable,
    a button to assistive technology, named by the square."""
    name = escape(engine.square_name(sq, rules.uk))
    return (
        f' data-square="{sq}" tabindex="0" role="button" aria-haspopup="dialog" '
        f'aria-label="{name}: open its card"'
    )


def _labels(state: State, seat_labels: list[str] | None) -> list[str]:
    labels = [str(p + 1) for p in range(state.n)]
    if seat_labels:
        for p, lab in enumerate(seat_labels[: state.n]):
            if lab:
                labels[p] = lab[:3]
    return labels


def _standing(state: State) -> dict[int, list[int]]:
    """Who stands where."""
    here: dict[int, list[int]] = {}
    for p in range(state.n):
        if state.alive[p]:
            here.setdefault(state.pos[p], []).append(p)
    return here


def _summary(state: State) -> str:
    """The accessible name and description."""
    uk = state.rules.uk
    cur = state.rules.currency
    edition = "London (UK)" if uk else "Atlantic City (US)"
    parts = []
    for p in range(state.n):
        if not state.alive[p]:
            parts.append(f"{state.names[p]} is bankrupt")
            continue
        owned = sum(1 for sq in engine.PROPERTIES if state.owner[sq] == p)
        parts.append(
            f"{state.names[p]} (seat {p + 1}, {SEAT_COLOUR_NAMES[p % len(SEAT_COLOUR_NAMES)]}) "
            f"{_where(state, p, uk)}, {_money(state.cash[p], cur)}, "
            f"{owned} propert{'y' if owned == 1 else 'ies'}"
        )
    desc = "; ".join(parts) + "."
    d1, d2 = _throw(state)
    if d1 and d2:
        desc += f" Last throw: {d1} and {d2}."
    desc += f" Bank: {state.bank_houses} houses, {state.bank_hotels} hotels."
    if state.pot > 0:
        desc += f" Free Parking pot: {_money(state.pot, cur)}."
    return (
        f'<title id="board-title">Monopoly board, {escape(edition)} edition</title>'
        f'<desc id="board-desc">{escape(desc)}</desc>'
    )


def _square_open(
    state: State, sq: int, hl: set[int], here: dict[int, list[int]], key: bool = False
) -> str:
    """A square's group, with its state as classes and its tooltip; ``key``
    makes it open the square's card."""
    x, y, _, _, _ = square_box(sq)
    kind = engine.KIND[sq]
    classes = ["sq"]
    if sq % 10 == 0:
        classes.append("sq-corner")
    classes.append(_KIND_CLASSES[kind])
    if kind == engine.SITE:
        classes.append("grp-" + _GROUP_SLUGS[engine.GROUP[sq]])
    owner = state.owner[sq] if engine.IS_PROPERTY[sq] else -1
    if owner >= 0:
        classes.append(f"owned owner-{owner}")
    if engine.IS_PROPERTY[sq] and state.mortgaged[sq]:
        classes.append("mortgaged")
    if sq in hl:
        classes.append("sq-hl")
    people = [state.names[p] + (" (in jail)" if state.in_jail[p] else "") for p in here.get(sq, [])]
    return (
        f'<g id="sq-{sq}" class="{" ".join(classes)}" data-sq="{sq}"'
        f"{_square_key(state.rules, sq) if key else ''} "
        f'transform="translate({_n(x)} {_n(y)})">'
        f"<title>{escape(_square_title(state, sq, people))}</title>"
    )


def _square_state(state: State, sq: int, side: int) -> str:
    """What play puts on a (non-corner) square: owner, mortgage, buildings."""
    if not engine.IS_PROPERTY[sq]:
        return ""
    out = []
    owner = state.owner[sq]
    if owner >= 0:
        out.append(_owner_mark(side, owner, state.names[owner]))
    if state.mortgaged[sq]:
        out.append(_mortgage_mark(sq, side, engine.KIND[sq] == engine.SITE))
    if engine.KIND[sq] == engine.SITE:
        out.append(_buildings(side, state.bld[sq]))
    return "".join(out)


def _highlights(hl: set[int]) -> str:
    """Rings on the squares' edges, above every square."""
    if not hl:
        return ""
    out = ['<g class="highlights">']
    for sq in sorted(hl):
        if 0 <= sq < engine.NUM_SQUARES:
            x, y, w, h, _ = square_box(sq)
            out.append(
                f'<rect class="sq-hl-ring" data-sq="{sq}" x="{_n(x + 1)}" y="{_n(y + 1)}" '
                f'width="{_n(w - 2)}" height="{_n(h - 2)}" rx="3" fill="none" '
                f'stroke="{_HIGHLIGHT}" stroke-width="4.5"/>'
            )
    out.append("</g>")
    return "".join(out)


def _tokens(state: State, here: dict[int, list[int]], labels: list[str]) -> str:
    """Tokens; the current player's last, so that its ring shows."""
    uk = state.rules.uk
    out = ['<g class="tokens">']
    last: list[str] = []
    for sq in sorted(here):
        x, y, w, h, side = square_box(sq)
        seats = here[sq]
        placed: list[tuple[int, float, float, str, float]] = []
        if sq == engine.JAIL_SQUARE:
            jailed = [p for p in seats if state.in_jail[p]]
            visiting = [p for p in seats if not state.in_jail[p]]
            cx0, cy0, cw, ch = _JAIL_CELL
            cell_zone = (cx0 + 8, cy0 + 22, cw - 16, ch - 30)
            r = _token_radius(len(jailed))
            for p, (tx, ty) in zip(jailed, _spread(cell_zone, len(jailed), r), strict=True):
                placed.append((p, tx, ty, " jailed", r))
            for p, (tx, ty) in zip(visiting, _visiting_spots(len(visiting)), strict=True):
                placed.append((p, tx, ty, " visiting", TOKEN_R))
        else:
            zone = _token_zone(sq, side)
            r = _token_radius(len(seats))
            spots = _spread(zone, len(seats), r, (w, h))
            for p, (tx, ty) in zip(seats, spots, strict=True):
                placed.append((p, tx, ty, "", r))
        for p, tx, ty, extra, r in placed:
            current = p == state.turn and not state.finished
            title = f"{state.names[p]} (seat {p + 1}) {_where(state, p, uk)}"
            token_cls = extra + (" current" if current else "")
            token = _token(p, x + tx, y + ty, labels[p], title, token_cls, sq, r)
            (last if current else out).append(token)
    out.extend(last)
    out.append("</g>")
    return "".join(out)


def render_board(
    state: State,
    *,
    seat_labels: list[str] | None = None,
    highlight_squares: set[int] | None = None,
    interactive: bool = False,
) -> str:
    """The board of ``state`` as one ``<svg>`` element (escaped, safe to inline).

    ``seat_labels`` are the short texts on the tokens (default "1", "2"...);
    ``highlight_squares`` get the ``sq-hl`` class and a ring, e.g. the
    squares the viewer can act on; ``interactive`` makes each square a
    button (``data-square``) that opens its card.
    """
    labels = _labels(state, seat_labels)
    hl = highlight_squares or set()
    here = _standing(state)
    svg = _svg_open(_INTERACTIVE if interactive else _ACCESSIBLE)
    out: list[str] = [svg, _summary(state), _DEFS, _BG]
    # The centre first, then the squares, then highlights and tokens on top.
    out.append(f'<g class="centre">{_centre_static()}{_centre(state, labels)}</g>')
    out.append(_INNER_EDGE)
    out.append('<g class="squares">')
    for sq in range(engine.NUM_SQUARES):
        _, _, w, h, side = square_box(sq)
        out.append(_square_open(state, sq, hl, here, interactive))
        out.append(
            f'<rect class="sq-bg" width="{_n(w)}" height="{_n(h)}" fill="{_SQUARE_BG}" '
            f'stroke="{_LINE}" stroke-width="1"/>'
        )
        if sq % 10 == 0:
            out.append(_corner_content(state, sq))
        else:
            if engine.IS_PROPERTY[sq] and state.mortgaged[sq]:
                out.append(_mortgage_hatch(side))  # under the printing
            out.append(_square_content(state.rules, sq, side))
            out.append(_square_state(state, sq, side))
        out.append("</g>")
    out.append("</g>")
    out.append(_OUTER_EDGE)
    out.append(_highlights(hl))
    out.append(_tokens(state, here, labels))
    out.append("</svg>")
    return "".join(out)


# --- Two layers, for the live page ------------------------------------------------
#
# Most of the board is printing that never changes in a game: the base layer
# holds it and is drawn once with the page. The live layer, drawn over it in
# the same coordinates, holds what play changes (owners, buildings, mortgages,
# tokens, dice, whose turn, the bank) and the tooltips; it is a fifth of the
# size, so each move pushes that much less to every spectator.


def _in_play(state: State, sq: int, hl: set[int], here: dict[int, list[int]]) -> bool:
    if sq in hl or sq in here:
        return True
    if sq == 20:
        return state.pot > 0
    return engine.IS_PROPERTY[sq] and (state.owner[sq] >= 0 or state.mortgaged[sq])


def _printed_title(rules: Ruleset, sq: int) -> str:
    """The tooltip of a square nobody has marked."""
    name = engine.square_name(sq, rules.uk)
    if engine.IS_PROPERTY[sq]:
        group = (engine.UK_GROUP_NAMES if rules.uk else engine.US_GROUP_NAMES)[engine.GROUP[sq]]
        if engine.KIND[sq] == engine.SITE:
            group = f"{group} group"
        return f"{name} ({group}), price {_money(engine.PRICE[sq], rules.currency)}, for sale."
    if engine.KIND[sq] == engine.INCOME_TAX:
        return f"{name}: pay {_income_tax_text(rules).removeprefix('Pay ')}."
    if engine.KIND[sq] == engine.LUXURY_TAX:
        return f"{name}: pay {_money(rules.luxury_tax, rules.currency)}."
    if engine.KIND[sq] == engine.GO:
        return f"GO: collect {_money(rules.go_salary, rules.currency)} salary as you pass."
    return f"{name}."


@functools.lru_cache(maxsize=16)
def render_board_base(rules: Ruleset, interactive: bool = False) -> str:
    """The printed board of ``rules``: squares, names, prices, banner, decks.

    ``interactive`` makes each square a button (``data-square``) that opens
    its card; the layer is then a group of those buttons, no longer hidden
    from assistive technology (the live layer over it describes the play)."""
    opening = (
        'role="group" aria-label="Squares: open one for its card"'
        if interactive
        else 'aria-hidden="true" focusable="false"'
    )
    out = [_svg_open(opening, "board-svg board-base"), _BG]
    out.append(f'<g class="centre">{_centre_static()}</g>')
    out.append(_INNER_EDGE)
    out.append('<g class="squares">')
    for sq in range(engine.NUM_SQUARES):
        x, y, w, h, side = square_box(sq)
        title = _printed_title(rules, sq)
        if interactive:  # the owner is on the card, and in the live layer
            title = title.replace(", for sale.", ".")
        key = _square_key(rules, sq) if interactive else ""
        out.append(
            f'<g class="sq-base" data-sq="{sq}"{key} transform="translate({_n(x)} {_n(y)})">'
            f"<title>{escape(title)}</title>"
            f'<rect class="sq-bg" width="{_n(w)}" height="{_n(h)}" fill="{_SQUARE_BG}" '
            f'stroke="{_LINE}" stroke-width="1"/>'
        )
        if sq % 10 == 0:
            out.append(_corner_static(rules, sq, 0))
        else:
            out.append(_square_content(rules, sq, side))
        out.append("</g>")
    out.append("</g>")
    out.append(_OUTER_EDGE)
    out.append("</svg>")
    return "".join(out)


def render_board_live(
    state: State,
    *,
    seat_labels: list[str] | None = None,
    highlight_squares: set[int] | None = None,
) -> str:
    """What play changes, to lay over ``render_board_base(state.rules)``.
    Only squares that play has marked (owned, mortgaged, highlighted, with
    tokens, the jackpot) are here, with their ids, classes and tooltips (and
    a transparent area to hover); mortgage hatching lies over the printing."""
    labels = _labels(state, seat_labels)
    hl = highlight_squares or set()
    here = _standing(state)
    out: list[str] = [
        _svg_open(_ACCESSIBLE, "board-svg board-live"),
        _summary(state),
        _DEFS,
        f'<g class="centre">{_centre(state, labels)}</g>',
        '<g class="squares">',
    ]
    for sq in range(engine.NUM_SQUARES):
        if not _in_play(state, sq, hl, here):
            continue  # the printed board's square (and tooltip) shows through
        _, _, w, h, side = square_box(sq)
        out.append(_square_open(state, sq, hl, here))
        out.append(f'<rect class="sq-hit" width="{_n(w)}" height="{_n(h)}" fill="none"/>')
        if sq == 20 and state.pot > 0:
            out.append(_pot_badge(state.rules, state.pot))
        elif sq % 10:
            if engine.IS_PROPERTY[sq] and state.mortgaged[sq]:
                out.append(_mortgage_hatch(side))
            out.append(_square_state(state, sq, side))
        out.append("</g>")
    out.append("</g>")
    out.append(_highlights(hl))
    out.append(_tokens(state, here, labels))
    out.append("</svg>")
    return "".join(out)
