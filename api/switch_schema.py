"""The create body's house-rule switches in JSON Schema, from the engine's
own tables (``engine.SWITCH_CHOICES``, ``SWITCH_RANGES``, ``PRESETS``), so
that the document refuses what ``engine.ruleset`` and
``services.create_game`` refuse:

- each switch by name, with its type and its choices or range; the site's
  own (``games.switches.SITE_ONLY``) and unknown names are refused;
- across fields, the seats between the fewest and the most players, the
  fewest no more than the most, and no more title deeds dealt than there are
  properties. A switch left out takes its preset's value, so the rule is one
  branch per group of presets with the same values, most players and seats.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.switches import SITE_ONLY


def switch_properties() -> dict[str, Any]:
    base = engine.PRESETS["us-2003"]
    out: dict[str, Any] = {}
    for name in engine.SWITCH_NAMES:
        if name in SITE_ONLY:
            continue
        default = getattr(base, name)
        if name in engine.SWITCH_CHOICES:
            out[name] = {"enum": list(engine.SWITCH_CHOICES[name])}
        elif isinstance(default, bool):
            out[name] = {"type": "boolean"}
        elif isinstance(default, int):
            low, high = engine.SWITCH_RANGES[name]
            out[name] = {"type": "integer", "minimum": low, "maximum": high}
        else:
            out[name] = {"type": "string"}
    return out


def seat_rules(presets: list[str], seats: list[int], *, preset: str, seated: int) -> dict[str, Any]:
    """``anyOf`` one branch per number of seats (and, where a preset's own
    most players is fewer, one that must raise it); ``preset`` and
    ``seated`` are what a body that leaves them out gets. Title deeds are
    capped for the most players the switches allow, a little stricter than
    the engine (which counts the deeds for the game's own most players):
    schemathesis cannot generate from a branch per most players as well."""
    high = engine.SWITCH_RANGES["max_players"][1]
    deeds = len(engine.PROPERTIES) // high
    branches = []
    for count in seats:
        bounds = {
            "min_players": {"maximum": count},
            "max_players": {"minimum": count},
            "deal_deeds": {"maximum": deeds},
        }
        roomy = [name for name in presets if engine.PRESETS[name].max_players >= count]
        tight = [name for name in presets if name not in roomy]
        for names, raise_most in ((roomy, False), (tight, True)):
            if not names:
                continue
            required = [
                name
                for name, missing in (
                    ("preset", preset not in names),
                    ("seats", count != seated),
                    ("switches", raise_most),
                )
                if missing
            ]
            switches: dict[str, Any] = {"properties": bounds}
            if raise_most:
                switches["required"] = ["max_players"]
            branch: dict[str, Any] = {
                "properties": {
                    "preset": {"enum": names},
                    "seats": {"const": count},
                    "switches": switches,
                }
            }
            if required:
                branch["required"] = required
            branches.append(branch)
    return {"anyOf": branches}
