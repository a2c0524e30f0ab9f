"""Small server-drawn SVG charts (line charts for ratings and net worth)."""

from __future__ import annotations

from collections.abc import Sequence
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


def line_chart(
    series: Sequence[tuple[str, str, Sequence[float]]],
    *,
    title: str,
    x_label: str = "",
    y_format: str = "{:,.0f}",
) -> str:
    """``series`` is (name, colour, values); x is the index of each value."""
    values = [v for _, _, points in series for v in points]
    if not values:
        return f'<p class="muted">{escape(title)}: no data yet.</p>'
    longest = max(len(points) for _, _, points in series)
    low, high = min(values), max(values)
    if high == low:
        low, high = low - 1, high + 1
    step = _nice_step(high - low)
    low = step * (low // step)
    high = step * -(-high // step)
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + (plot_w * i / max(1, longest - 1))

    def y(v: float) -> float:
        return PAD_TOP + plot_h * (1 - (v - low) / (high - low))

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
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
    parts.append("</svg>")
    legend = "".join(
        f'<li><span class="swatch" style="background:{escape(colour)}"></span>{escape(name)}</li>'
        for name, colour, _ in series
        if len(series) > 1
    )
    return "".join(parts) + (f'<ul class="chart-legend">{legend}</ul>' if legend else "")
