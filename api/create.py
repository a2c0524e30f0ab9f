"""The create endpoint's body, built from the lobby's own form
(``games.web.forms.CreateGameForm``): every setting the page offers, with
the values it offers (enums in the schema) and its labels and help as the
fields' descriptions. A posted body is checked by that same form, then
created by ``services.create_game`` as the page's is."""

from __future__ import annotations

from typing import Any, Literal

from django import forms
from ninja import Field
from pydantic import ConfigDict, create_model

from api.openapi import SEED, Body
from api.problems import Problem
from api.switch_schema import seat_rules, switch_properties
from games.web.forms import CreateGameForm

# The API's names for the form's fields where they differ.
RENAMED = {"max_seats": "seats", "visibility": "public"}
_FORM = CreateGameForm()


def _describe(field: forms.Field) -> str:
    help_text = str(field.help_text or "")
    return f"{field.label}. {help_text}".strip() if help_text else f"{field.label}."


def _field(name: str, field: forms.Field) -> tuple[Any, Any]:
    description = _describe(field)
    if name == "visibility":
        return bool, Field(True, description="Anyone may join from the lobby and watch.")
    if isinstance(field, forms.BooleanField):
        return bool, Field(False, description=description)
    if isinstance(field, forms.IntegerField):
        return int, Field(
            field.initial or 0, ge=field.min_value, le=field.max_value, description=description
        )
    values = tuple(value for value, _ in field.choices)  # type: ignore[attr-defined]
    kind: Any = Literal[values]
    if name in CreateGameForm.TIMER_FIELDS:
        # Left out: the site's default for this timer.
        return kind | None, Field(None, description=description + f" Default {field.initial}.")
    return kind, Field(field.initial, description=description)


def _fields() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, field in _FORM.fields.items():
        out[RENAMED.get(name, name)] = _field(name, field)
    out["switches"] = (
        dict[str, Any],
        Field(
            default_factory=dict,
            json_schema_extra={"additionalProperties": False, "properties": switch_properties()},
            description="House-rule switches over the preset, by name (as the lobby's "
            'switches form lists them), e.g. {"starting_cash": 2000}.',
        ),
    )
    out["seed"] = (
        str | None,
        Field(
            None,
            pattern=SEED,
            description="Your dice seed as the seated host: 32 to 128 hex digits you drew "
            "yourself. The dice key is derived from the site's secret and every player's "
            "seed at the start (docs/fair-dice.md). Sent here, it reaches the site before "
            "the game's commitment exists: to be sure the secret was not picked around it, "
            "create without one, read commitment, then POST /games/{id}/seed.",
        ),
    )
    return out


def _choices(name: str) -> list[Any]:
    return [value for value, _ in _FORM.fields[name].choices]  # type: ignore[attr-defined]


class _Rules(Body):
    model_config = ConfigDict(
        json_schema_extra=seat_rules(
            _choices("preset"),
            _choices("max_seats"),
            preset=_FORM.fields["preset"].initial,
            seated=_FORM.fields["max_seats"].initial,
        )
    )


CreateGameIn = create_model("CreateGameIn", __base__=_Rules, **_fields())


def create_kwargs(body: Any) -> dict[str, Any]:
    """``services.create_game``'s settings from ``body``, through the
    lobby form (422 for what the page would refuse)."""
    data: dict[str, Any] = {}
    for name in _FORM.fields:
        value = getattr(body, RENAMED.get(name, name))
        if name == "visibility":
            data[name] = "public" if value else "private"
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = str(value)
    form = CreateGameForm(data)
    if not form.is_valid():
        errors = {
            RENAMED.get(name, name): [str(e) for e in errs] for name, errs in form.errors.items()
        }
        first = next(iter(errors.items()))
        raise Problem(422, f"{first[0]}: {first[1][0]}", slug="invalid-settings", errors=errors)
    return {**form.create_kwargs(), "switches": dict(body.switches)}
