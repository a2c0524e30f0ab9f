"""Small server-drawn SVG charts (line charts for ratings and net worth)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 260
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 56, 16, 16, 36


def _nice_step(span: float) -> float:
    raw = float(span / 4 or 1)
    magnitude = float(10 ** len(str(int(raw))) / 10)
    for step in (1, 2, 2.5, 5, 10):
        if raw <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def tick_every(last: int, count: int = 6) -> int:
    """A round interval that marks at most about ``count`` of 1..``last``."""
    return next((n for n in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500) if last / n <= count), 1000)


@dataclass(frozen=True)
class Marker:
    """A point of note on a chart, drawn as a ring linking to ``href``."""

    x: float
    y: float
    colour: str
    href: str
    label: str


def line_chart(
    series: Sequence[tuple[str, str, Sequence[float]]],
    *,
    title: str,
    x_label: str = "",
    y_format: str = "{:,.0f}",
    xs: Sequence[float] | None = None,
    y_range: tuple[float, float] | None = None,
    y_step: float | None = None,
    markers: Sequence[Marker] = (),
    desc: str = "",
    x_ticks: Sequence[tuple[float, str]] = (),
) -> str:
    """``series`` is (name, colour, values); x is the index of each value, or
    ``xs`` (the same for every series). ``y_range`` fixes the axis (with
    gridlines every ``y_step``); ``markers`` are drawn over the lines, as
    links, and then the chart is a group one can tab through, not one image.
    ``x_ticks`` are (x, label) written under the axis."""
    values = [v for _, _, points in series for v in points]
    if not values:
        return f'<p class="muted">{escape(title)}: no data yet.</p>'
    longest = max(len(points) for _, _, points in series)
    if y_range is not None:
        low, high = y_range
        step = y_step or _nice_step(high - low)
    else:
        low, high = min(values), max(values)
        if high == low:
            low, high = low - 1, high + 1
        step = _nice_step(high - low)
        low = step * (low // step)
        high = step * -(-high // step)
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    x_low, x_span = (xs[0], max(1.0, xs[-1] - xs[0])) if xs else (0.0, max(1, longest - 1))

    def x(i: int) -> float:
        return x_at(xs[i] if xs else i)

    def x_at(v: float) -> float:
        return PAD_LEFT + plot_w * (v - x_low) / x_span

    def y(v: float) -> float:
        return PAD_TOP + plot_h * (1 - (v - low) / (high - low))

    role = 'role="group"' if markers else 'role="img"'
    labelled = 'aria-labelledby="{0}-title{1}"'
    ident = "chart-" + "".join(c if c.isalnum() else "-" for c in title.lower())
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" {role} '
        + labelled.format(ident, f" {ident}-desc" if desc else "")
        + ' xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{ident}-title">{escape(title)}</title>',
    ]
    if desc:
        parts.append(f'<desc id="{ident}-desc">{escape(desc)}</desc>')
    tick = low
    while tick <= high + step / 2:
        ty = y(tick)
        parts.append(
            f'<line x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}" '
            'stroke="#ddd9cc" stroke-width="1"/>'
            f'<text x="{PAD_LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#55554f">{escape(y_format.format(tick))}</text>'
        )
        tick += step
    for tx, label in x_ticks:
        parts.append(
            f'<text x="{x_at(tx):.1f}" y="{HEIGHT - PAD_BOTTOM + 14}" text-anchor="middle" '
            f'font-size="11" fill="#55554f">{escape(label)}</text>'
        )
    if x_label:
        parts.append(
            f'<text x="{PAD_LEFT + plot_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle" '
            f'font-size="11" fill="#55554f">{escape(x_label)}</text>'
        )
    for name, colour, points in series:
        if not points:
            continue
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        parts.append(
            f'<polyline fill="none" stroke="{escape(colour)}" stroke-width="2.5" '
            f'stroke-linejoin="round" points="{coords}"><title>{escape(name)}</title></polyline>'
        )
        last_x, last_y = x(len(points) - 1), y(points[-1])
        parts.append(
            f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="3.5" fill="{escape(colour)}"/>'
        )
    for m in markers:
        mx, my = x_at(m.x), y(m.y)
        parts.append(
            f'<a class="chart-marker" href="{escape(m.href)}" aria-label="{escape(m.label)}">'
            f"<title>{escape(m.label)}</title>"
            f'<line x1="{mx:.1f}" x2="{mx:.1f}" y1="{PAD_TOP}" y2="{HEIGHT - PAD_BOTTOM}" '
            'stroke="#55554f" stroke-width="1" stroke-dasharray="3 3"/>'
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="6" fill="#fffdf6" '
            f'stroke="{escape(m.colour)}" stroke-width="3"/></a>'
        )
    parts.append("</svg>")
    legend = "".join(
        f'<li><span class="swatch" style="background:{escape(colour)}"></span>{escape(name)}</li>'
        for name, colour, _ in series
        if len(series) > 1
    )
    return "".join(parts) + (f'<ul class="chart-legend">{legend}</ul>' if legend else "")
