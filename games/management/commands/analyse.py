"""``manage.py analyse --calibrate``: does the win estimate mean anything?

Plays bot games with the engine only (no database), records the estimate at
sampled positions and scores it against who won (``engine.calibration``).
Prints one JSON object with ``--json``, else a readable report; ``--svg``
also writes the reliability diagram (docs/analysis-reliability.svg).
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import native
from games.engine import CAP_VALUES, CalibrationPosition, calibration_game, calibration_score

# A sampled position as plain data: the compiled engine's frozen classes do
# not cross a process boundary (unpickling sets their fields).
Row = tuple[int, str, int, int, tuple[float, ...], tuple[bool, ...], int]


def _game_rows(seed: int, index: int, **kw: Any) -> list[Row]:
    return [
        (p.game, p.preset, p.players, p.turn, p.probabilities, p.alive, p.winner)
        for p in calibration_game(seed, index, **kw)
    ]


class Command(BaseCommand):
    help = "Calibrate the win estimate: bot games, estimates at sampled positions, scores."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--calibrate", action="store_true", help="run the calibration (the only mode)"
        )
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--every", type=int, default=10, help="estimate every this many player-turns"
        )
        parser.add_argument("--playouts", type=int, default=200, help="playouts per estimate")
        parser.add_argument(
            "--turn-cap", type=int, default=400, help="player-turns a playout may run"
        )
        parser.add_argument(
            "--cap-value",
            choices=CAP_VALUES,
            default=CAP_VALUES[0],
            help="how a playout at the cap counts: the richest wins, or shares by net worth",
        )
        parser.add_argument(
            "--jobs", type=int, default=1, help="worker processes (default 1: one core)"
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--svg", type=Path, help="also write the reliability diagram here")
        parser.add_argument(
            "--from-json",
            type=Path,
            help="report (and draw) a calibration saved with --json instead of playing one",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if not opts["calibrate"]:
            raise CommandError("Nothing to do: give --calibrate.")
        for name in ("games", "every", "playouts", "turn_cap", "jobs"):
            if opts[name] < 1:
                raise CommandError(f"--{name.replace('_', '-')} must be at least 1.")
        result = self._load(opts["from_json"]) if opts["from_json"] else self._calibrate(opts)
        result.update(targets(result))
        if opts["svg"] is not None:
            opts["svg"].write_text(reliability_svg(result))
        if opts["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.stdout.write(report(result))

    def _load(self, path: Path) -> dict[str, Any]:
        try:
            result: dict[str, Any] = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read a calibration from {path}: {exc}") from None
        if not isinstance(result, dict) or "reliability" not in result:
            raise CommandError(f"{path} holds no calibration (saved with --json).")
        return result

    def _calibrate(self, opts: dict[str, Any]) -> dict[str, Any]:
        start = time.perf_counter()
        cpu_start = time.process_time()
        one = partial(
            _game_rows,
            opts["seed"],
            every=opts["every"],
            playouts=opts["playouts"],
            turn_cap=opts["turn_cap"],
            cap_value=opts["cap_value"],
        )
        rows: list[Row] = []
        if opts["jobs"] == 1:
            for i in range(opts["games"]):
                rows += one(i)
        else:
            with ProcessPoolExecutor(max_workers=opts["jobs"]) as pool:
                for found in pool.map(one, range(opts["games"])):
                    rows += found
        positions = [CalibrationPosition(*row) for row in rows]
        result = calibration_score(positions)
        result.update(
            games=opts["games"],
            seed=opts["seed"],
            every=opts["every"],
            playouts=opts["playouts"],
            turn_cap=opts["turn_cap"],
            cap_value=opts["cap_value"],
            jobs=opts["jobs"],
            seconds=round(time.perf_counter() - start, 1),
            cpu_seconds=round(time.process_time() - cpu_start, 1),
            engine_build="compiled" if native.status() == "compiled" else "pure",
        )
        return result


#: The issue's targets: a Brier score this much better than the uniform one,
#: and every band with this many predictions this close to its observed rate.
TARGET_IMPROVEMENT = 0.25
TARGET_BAND_COUNT = 50
TARGET_BAND_GAP = 0.05


def targets(r: dict[str, Any]) -> dict[str, Any]:
    gaps = [
        abs(b["mean_predicted"] - b["observed"])
        for b in r["reliability"]
        if b["count"] >= TARGET_BAND_COUNT
    ]
    gap = round(max(gaps), 4) if gaps else None
    return {
        "max_band_gap": gap,
        "targets_met": r["improvement"] is not None
        and r["improvement"] >= TARGET_IMPROVEMENT
        and (gap is None or gap <= TARGET_BAND_GAP),
    }


def report(r: dict[str, Any]) -> str:
    lines = [
        f"{r['games']} bot games, {r['positions']} positions, "
        f"{r['playouts']} playouts each ({r['seconds']} s, engine {r['engine_build']})",
        f"Brier score            {r['brier']:.4f}",
        f"baseline (1/n alive)   {r['baseline_brier']:.4f}"
        + (f"   ({r['improvement']:.1%} better)" if r["improvement"] is not None else ""),
        f"log loss               {r['log_loss']:.4f}",
        "largest band gap       "
        + ("-" if r["max_band_gap"] is None else f"{r['max_band_gap']:.1%}")
        + f"   (bands of {TARGET_BAND_COUNT}+ predictions)",
        "targets                "
        + ("met" if r["targets_met"] else "NOT met")
        + f"   (Brier {TARGET_IMPROVEMENT:.0%} better, band gaps within {TARGET_BAND_GAP:.0%})",
        "",
        "predicted     mean  observed   count",
    ]
    for band in r["reliability"]:
        lo, hi = band["band"]
        if band["count"]:
            lines.append(
                f"{lo:4.0%}-{hi:4.0%}   {band['mean_predicted']:6.1%}   "
                f"{band['observed']:6.1%}  {band['count']:6d}"
            )
        else:
            lines.append(f"{lo:4.0%}-{hi:4.0%}        -         -       0")
    return "\n".join(lines)


def reliability_svg(r: dict[str, Any]) -> str:
    """The reliability diagram: each band's mean prediction against how often
    those players won (on the diagonal is perfect), as plain SVG. A dot's
    area follows its band's count; bands with fewer than 50 are hollow."""
    size, left, top = 360, 60, 40
    width, height = left + size + 90, top + size + 102

    def x(v: float) -> float:
        return round(left + v * size, 1)

    def y(v: float) -> float:
        return round(top + (1 - v) * size, 1)

    most = max([b["count"] for b in r["reliability"]] + [1])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        "<title>Reliability of the win estimate</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="{left}" y="24" font-size="14" font-weight="bold">'
        f"Predicted chance of winning against observed rate</text>",
    ]
    for i in range(11):
        v = i / 10
        parts.append(
            f'<line x1="{x(0)}" y1="{y(v)}" x2="{x(1)}" y2="{y(v)}" stroke="#e5e5e5"/>'
            f'<line x1="{x(v)}" y1="{y(0)}" x2="{x(v)}" y2="{y(1)}" stroke="#e5e5e5"/>'
            f'<text x="{left - 6}" y="{y(v) + 4}" text-anchor="end">{i * 10}%</text>'
            f'<text x="{x(v)}" y="{y(0) + 16}" text-anchor="middle">{i * 10}%</text>'
        )
    # The target: within 5 points of the diagonal.
    parts.append(
        f'<polygon points="{x(0)},{y(0.05)} {x(0.95)},{y(1)} {x(1)},{y(1)} {x(1)},{y(0.95)} '
        f'{x(0.05)},{y(0)} {x(0)},{y(0)}" fill="#1f5fa8" fill-opacity="0.08"/>'
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#888" '
        'stroke-dasharray="4 4"/>'
    )
    points = [b for b in r["reliability"] if b["count"]]
    path = " ".join(f"{x(b['mean_predicted'])},{y(b['observed'])}" for b in points)
    parts.append(f'<polyline points="{path}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
    for b in points:
        radius = round(3 + 9 * (b["count"] / most) ** 0.5, 1)
        fill = "#1f5fa8" if b["count"] >= 50 else "#fff"
        parts.append(
            f'<circle cx="{x(b["mean_predicted"])}" cy="{y(b["observed"])}" r="{radius}" '
            f'fill="{fill}" fill-opacity="0.8" stroke="#1f5fa8">'
            f"<title>{b['band'][0]:.0%}-{b['band'][1]:.0%}: predicted "
            f"{b['mean_predicted']:.1%}, won {b['observed']:.1%} of {b['count']}</title>"
            "</circle>"
        )
    parts += [
        f'<text x="{x(0.5)}" y="{y(0) + 36}" text-anchor="middle">predicted chance</text>',
        f'<text x="16" y="{y(0.5)}" text-anchor="middle" '
        f'transform="rotate(-90 16 {y(0.5)})">observed win rate</text>',
        f'<text x="{left}" y="{height - 40}" fill="#444">{r["games"]} bot games, '
        f"{r['positions']} positions, {r['playouts']} playouts each</text>",
        f'<text x="{left}" y="{height - 24}" fill="#444">Brier {r["brier"]:.3f} '
        f"(uniform {r['baseline_brier']:.3f}), log loss {r['log_loss']:.3f}</text>",
        f'<text x="{left}" y="{height - 8}" fill="#444">Shaded: within 5 points. '
        "Dot area: predictions in the band; hollow: fewer than 50.</text>",
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
