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
    """``anyOf`` the branches that fit; ``preset`` and ``seated`` are what
    a body that leaves them out gets."""
    groups: dict[tuple[int, int, int], list[str]] = {}
    for name in presets:
        rules = engine.PRESETS[name]
        groups.setdefault((rules.min_players, rules.max_players, rules.deal_deeds), []).append(name)
    low, high = engine.SWITCH_RANGES["max_players"]
    deeds = len(engine.PROPERTIES)
    branches = []
    for (fewest, most_default, dealt), names in groups.items():
        for most in range(low, high + 1):
            for count in (n for n in seats if n <= most):
                needed = [
                    name
                    for name, missing in (
                        ("max_players", most != most_default),
                        ("min_players", fewest > count),
                        ("deal_deeds", dealt * most > deeds),
                    )
                    if missing
                ]
                switches: dict[str, Any] = {
                    "properties": {
                        "max_players": {"const": most},
                        "min_players": {"maximum": count},
                        "deal_deeds": {"maximum": deeds // most},
                    }
                }
                if needed:
                    switches["required"] = needed
                required = [
                    name
                    for name, missing in (
                        ("preset", preset not in names),
                        ("seats", count != seated),
                        ("switches", bool(needed)),
                    )
                    if missing
                ]
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
