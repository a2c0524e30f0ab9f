"""The action body's schema, generated from the action registry
(``games.action_kinds``): one variant per kind a player may post, told apart
by ``kind``, with the fields the engine says the kind reads
(``engine.ACTION_PARAMS``), each bounded as the posted form's reader
(``parse_action``) bounds it and described by the registry, and the
decisions it answers (``games.decisions.KINDS``). A new engine action kind
appears here, and in the OpenAPI document, once it has its registry entry;
without one, ``action_kinds.missing_kinds`` names it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal, Union

from ninja import Field, Schema
from pydantic import ConfigDict, create_model

from api.openapi import Body
from games import action_kinds, decisions, engine
from games.action_kinds import MAX_AMOUNT, MAX_CARDS, PLAYER_KINDS

# The squares a trade may name: properties only (``parse_terms``).
PropertySquare = Literal[tuple(engine.PROPERTIES)]  # type: ignore[valid-type]
Cash = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
Cards = Annotated[
    list[Annotated[int, Field(ge=0, le=MAX_CARDS)]], Field(min_length=2, max_length=2)
]


def _on_both_sides(square: int) -> dict[str, Any]:
    return {
        "required": ["give_props", "take_props"],
        "properties": {
            side: {"contains": {"const": square}} for side in ("give_props", "take_props")
        },
    }


class TermsIn(Body):
    # parse_terms refuses a property on both sides; JSON Schema says it as
    # "no property is contained by both lists", one clause per property.
    model_config = ConfigDict(
        json_schema_extra={"not": {"anyOf": [_on_both_sides(sq) for sq in engine.PROPERTIES]}}
    )

    give_props: list[PropertySquare] = Field(  # type: ignore[valid-type]
        default_factory=list, description="Squares you give (properties only)."
    )
    give_cash: Cash = Field(0, description="Cash you give.")
    give_cards: Cards = Field(
        default_factory=lambda: [0, 0], description="Jail cards you give: [chance, chest]."
    )
    take_props: list[PropertySquare] = Field(  # type: ignore[valid-type]
        default_factory=list, description="Squares you ask for (properties only)."
    )
    take_cash: Cash = Field(0, description="Cash you ask for.")
    take_cards: Cards = Field(
        default_factory=lambda: [0, 0], description="Jail cards you ask for: [chance, chest]."
    )


def ordered_kinds(kinds: Iterable[str] = PLAYER_KINDS) -> list[str]:
    """The panel's order (what blocks the game first), then the rest by name."""
    kinds = set(kinds)
    first = [k for k in decisions.ANSWER_ORDER if k in kinds]
    return first + sorted(kinds - set(first))


def describe(kind: str) -> str:
    answers = [entry.label for entry in decisions.KINDS.values() if kind in entry.answers]
    label = action_kinds.label(kind)
    if answers:
        return f"`{kind}` ({label}): answers the decision to {' or '.join(answers)}."
    return f"`{kind}` ({label}): a move the player may make when legal_actions lists it."


def _field(param: action_kinds.Param) -> tuple[Any, Any]:
    if param.name == engine.TERMS:
        return (TermsIn, Field(description=param.words))
    return (int, Field(ge=param.lo, le=param.hi, description=param.words))


def _variant(kind: str) -> type[Schema]:
    fields: dict[str, Any] = {
        "kind": (Literal[kind], Field(description="The action kind, as in legal_actions."))
    }
    for param in action_kinds.of(kind).params:
        fields[param.name] = _field(param)
    name = "Action_" + "".join(part.title() for part in kind.split("_"))
    model: type[Schema] = create_model(name, __base__=Body, __doc__=describe(kind), **fields)
    return model


def action_body(kinds: Iterable[str] = PLAYER_KINDS) -> Any:
    """A union of one variant per kind, told apart by ``kind``: the
    schema's ``oneOf`` with its discriminator."""
    variants = tuple(_variant(kind) for kind in ordered_kinds(kinds))
    return Annotated[Union[variants], Field(discriminator="kind")]  # noqa: UP007


ActionBody = action_body()
