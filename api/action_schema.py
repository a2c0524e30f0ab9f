"""The action body's schema, generated from the site's registries: one
variant per kind a player may post (``games.web.action_forms.PLAYER_KINDS``,
the engine's action kinds less the server's own), with the fields the
page's form for it posts (``SQUARE_KINDS``, ``TARGET_KINDS``,
``TERMS_KINDS``, a bid's amount), each described by the decisions it
answers (``games.decisions.KINDS``). A new engine action appears here, and
in the OpenAPI document, without API code. The posted action is still read
by ``parse_action``, the page's own check."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from ninja import Field, Schema
from pydantic import create_model

from games import decisions, engine
from games.web.action_forms import PLAYER_KINDS, SQUARE_KINDS, TARGET_KINDS, TERMS_KINDS


class TermsIn(Schema):
    give_props: list[int] = Field(default_factory=list, description="Squares you give.")
    give_cash: int = Field(0, description="Cash you give.")
    give_cards: list[int] = Field(
        default_factory=lambda: [0, 0], description="Jail cards you give: [chance, chest]."
    )
    take_props: list[int] = Field(default_factory=list, description="Squares you ask for.")
    take_cash: int = Field(0, description="Cash you ask for.")
    take_cards: list[int] = Field(
        default_factory=lambda: [0, 0], description="Jail cards you ask for: [chance, chest]."
    )


TARGET_WORDS = {
    engine.USE_JAIL_CARD: "The deck of the card to use: 0 Chance, 1 Community Chest.",
    engine.SELL_GROUP_BUILDINGS: "The colour group, as legal_actions gives it.",
    engine.PROPOSE_TRADE: "The seat you offer the trade to.",
    engine.COUNTER_TRADE: "The id of the offer you counter.",
    engine.ACCEPT_TRADE: "The id of the offer.",
    engine.REJECT_TRADE: "The id of the offer.",
    engine.WITHDRAW_TRADE: "The id of your offer.",
    engine.CLAIM_RENT: "The id of the rent claim.",
    engine.EXPIRE_CLAIM: "The id of the rent claim.",
}


def ordered_kinds(kinds: frozenset[str] = PLAYER_KINDS) -> list[str]:
    """The panel's order (what blocks the game first), then the rest by name."""
    first = [k for k in decisions.ANSWER_ORDER if k in kinds]
    return first + sorted(kinds - set(first))


def describe(kind: str) -> str:
    answers = [entry.label for entry in decisions.KINDS.values() if kind in entry.answers]
    if answers:
        return f"`{kind}`: answers the decision to {' or '.join(answers)}."
    return f"`{kind}`: a move the player may make when legal_actions lists it."


def _variant(kind: str) -> type[Schema]:
    fields: dict[str, Any] = {
        "kind": (Literal[kind], Field(description="The action kind, as in legal_actions."))
    }
    if kind in SQUARE_KINDS:
        fields["square"] = (int, Field(description="The board square, as in legal_actions."))
    if kind in TARGET_KINDS:
        words = TARGET_WORDS.get(kind, "The target, as in legal_actions.")
        fields["target"] = (int, Field(description=words))
    if kind == engine.BID:
        fields["amount"] = (int, Field(description="Your bid (0 passes a sealed auction)."))
    if kind in TERMS_KINDS:
        fields["terms"] = (TermsIn, Field(description="The trade's terms."))
    name = "Action_" + "".join(part.title() for part in kind.split("_"))
    model: type[Schema] = create_model(name, __base__=Schema, __doc__=describe(kind), **fields)
    return model


def action_body(kinds: frozenset[str] = PLAYER_KINDS) -> Any:
    """A union of one variant per kind, told apart by ``kind``: the
    schema's ``oneOf`` with its discriminator."""
    variants = tuple(_variant(kind) for kind in ordered_kinds(kinds))
    return Annotated[Union[variants], Field(discriminator="kind")]  # noqa: UP007


ActionBody = action_body()
