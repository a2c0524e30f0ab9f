"""The action body's schema comes from the action registry: every kind a
player may post, with its fields and their bounds, and nothing else."""

from __future__ import annotations

from typing import Any

from django.test import Client
from pydantic import TypeAdapter, ValidationError

from api.action_schema import action_body
from games import engine
from games.action_kinds import PLAYER_KINDS


def schema(db: None) -> dict[str, Any]:
    document: dict[str, Any] = Client().get("/api/v1/openapi.json").json()
    return document


def test_every_player_action_kind_has_a_variant_with_its_fields(db: None) -> None:
    components = schema(db)["components"]["schemas"]
    action = components["ActionIn"]["properties"]["action"]
    mapping = action["discriminator"]["mapping"]
    assert set(mapping) == set(PLAYER_KINDS)
    assert engine.END_NOW not in mapping and engine.END_CAP not in mapping
    build = components["Action_Build"]
    assert set(build["required"]) == {"kind", "square"}
    assert "answers the decision to roll" in components["Action_Roll"]["description"]
    assert set(components["Action_ProposeTrade"]["required"]) == {"kind", "target", "terms"}
    assert components["Action_Bid"]["properties"]["amount"]["description"]


def test_each_field_states_the_bounds_the_server_enforces(db: None) -> None:
    components = schema(db)["components"]["schemas"]
    square = components["Action_Mortgage"]["properties"]["square"]
    assert (square["minimum"], square["maximum"]) == (0, engine.NUM_SQUARES - 1)
    assert components["Action_Bid"]["properties"]["amount"]["minimum"] == 0
    terms = components["TermsIn"]["properties"]
    assert set(terms["give_props"]["items"]["enum"]) == set(engine.PROPERTIES)
    assert terms["give_cards"]["minItems"] == terms["give_cards"]["maxItems"] == 2


def test_a_kind_without_a_registry_entry_is_refused() -> None:
    body = TypeAdapter(action_body(PLAYER_KINDS))
    assert body.validate_python({"kind": engine.ROLL}).kind == engine.ROLL
    for wrong in ({"kind": "play_a_new_card"}, {"kind": engine.END_CAP}):
        try:
            body.validate_python(wrong)
        except ValidationError:
            continue
        raise AssertionError(f"{wrong} was accepted")


def test_an_out_of_bounds_field_is_refused_by_the_schema() -> None:
    body = TypeAdapter(action_body(PLAYER_KINDS))
    try:
        body.validate_python({"kind": engine.MORTGAGE, "square": engine.NUM_SQUARES})
    except ValidationError:
        return
    raise AssertionError("a square off the board was accepted")
