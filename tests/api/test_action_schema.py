"""The action body's schema comes from the site's registries: every kind a
player may post, with its fields, and a new kind appears without API code."""

from __future__ import annotations

from typing import Any

from django.test import Client
from pydantic import TypeAdapter, ValidationError

from api.action_schema import action_body
from games import engine
from games.web.action_forms import PLAYER_KINDS


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


def test_a_new_engine_action_appears_without_api_code() -> None:
    body = TypeAdapter(action_body(PLAYER_KINDS | {"play_a_new_card"}))
    assert body.validate_python({"kind": "play_a_new_card"}).kind == "play_a_new_card"
    try:
        TypeAdapter(action_body(PLAYER_KINDS)).validate_python({"kind": "play_a_new_card"})
    except ValidationError:
        pass
    else:
        raise AssertionError("an unknown kind was accepted")
