"""One entry per engine action kind: everything the site says and does about it.

The engine says what a kind reads of an action (``engine.ACTION_PARAMS``);
each entry here says where the action panel shows it, its words, how each
of its fields is bounded and described, the per-person rate limit it counts
against besides "action", and the hints that explain its absence. The
panel (``games.web.action_forms``), the posted form's reader, the API's
schema (``api.action_schema``), its legal actions, the timer's notices and
the authorization table all read these entries. The decision it answers,
its clock and its timeout default are its decision's entry
(``games.decisions``).

Every field of an entry is required: a new kind states each fact or the
module does not import, and ``missing_kinds`` (its test) names a kind with
no entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import engine

# Where the action panel shows a kind.
DECISION: Final = "decision"  # with the decisions, in ``decisions.ANSWER_ORDER``
MOVE: Final = "move"  # after the decisions: a move open at any time that answers none
PROPERTY: Final = "property"  # in the property's row
GROUP: Final = "group"  # with the colour group's sales
ANSWER: Final = "answer"  # beside the trade offer it answers
OFFER: Final = "offer"  # the trade forms: free-form terms the engine does not list
OWN_PAGE: Final = "own_page"  # its own view and endpoint (resigning)
SERVER: Final = "server"  # the server's clock only: no form, no API
PLACES: Final = frozenset({DECISION, MOVE, PROPERTY, GROUP, ANSWER, OFFER, OWN_PAGE, SERVER})

# Hints: why a natural move is missing (``games.web.hints`` works them out).
BUY_CASH: Final = "buy_cash"
JAIL_FINE_CASH: Final = "jail_fine_cash"
BUILD_EVENLY: Final = "build_evenly"
BUILD_MORTGAGED: Final = "build_mortgaged"
BUILD_OWN_TURN: Final = "build_own_turn"
BUILD_NO_HOUSES: Final = "build_no_houses"
BUILD_NO_HOTELS: Final = "build_no_hotels"
BUILD_CASH: Final = "build_cash"
UNMORTGAGE_CASH: Final = "unmortgage_cash"

MAX_AMOUNT: Final = 10_000_000
MAX_CARDS: Final = 16


@dataclass(frozen=True)
class Param:
    """One field a kind's form and API body post (``engine.ACTION_PARAMS``)."""

    name: str  # square | target | amount | terms
    what: str  # the form's error words: "The square must be ..."
    words: str  # the API schema's description
    example: str  # a value that reads, for the authorization table
    lo: int = 0
    hi: int = MAX_AMOUNT


def square(words: str = "The board square, as in legal_actions.") -> Param:
    return Param(engine.SQUARE, "The square", words, "1", 0, engine.NUM_SQUARES - 1)


def target(words: str) -> Param:
    return Param(engine.TARGET, "The choice", words, "0")


TERMS = Param(engine.TERMS, "The terms", "The trade's terms.", "", 0, 0)
OFFER_ID = "The id of the offer."
CLAIM_ID = "The id of the rent claim."


@dataclass(frozen=True, kw_only=True)
class ActionKind:
    kind: str
    place: str
    # The panel's plain words for it; a notice names the timer's move for a
    # player with them ("the timer played Pass for you").
    label: Promise
    params: tuple[Param, ...]
    # A per-person rate-limit scope (``common.ratelimit.PER_PERSON``) it
    # counts against besides "action", or None.
    scope: str | None
    # The hint kinds that explain why it is missing from the legal actions.
    hints: tuple[str, ...]

    @property
    def posted(self) -> bool:
        """Whether a player posts it (the panel's forms and the API)."""
        return self.place not in (OWN_PAGE, SERVER)


def _kind(
    kind: str,
    place: str,
    label: Promise,
    *params: Param,
    scope: str | None,
    hints: tuple[str, ...],
) -> ActionKind:
    # No defaults: an entry says "no rate limit of its own" and "no hints"
    # in so many words, so that a new kind's author decides both.
    return ActionKind(kind=kind, place=place, label=label, params=params, scope=scope, hints=hints)


_BUILD_HINTS = (
    BUILD_EVENLY,
    BUILD_MORTGAGED,
    BUILD_OWN_TURN,
    BUILD_NO_HOUSES,
    BUILD_NO_HOTELS,
    BUILD_CASH,
)

_ENTRIES = (
    _kind(engine.ROLL, DECISION, _("Roll"), scope=None, hints=()),
    _kind(engine.PAY_JAIL_FINE, DECISION, _("Pay the Jail fine"), hints=(JAIL_FINE_CASH,), scope=None),
    _kind(
        engine.USE_JAIL_CARD, DECISION, _("Use a Get Out of Jail Free card"),
        target("The deck of the card to use: 0 Chance, 1 Community Chest."), scope=None, hints=()),
    _kind(engine.BUY, DECISION, _("Buy"), hints=(BUY_CASH,), scope=None),
    _kind(engine.DECLINE, DECISION, _("Don't buy"), scope=None, hints=()),
    _kind(engine.INCOME_TAX_FLAT, DECISION, _("Pay the flat Income Tax"), scope=None, hints=()),
    _kind(engine.INCOME_TAX_PERCENT, DECISION, _("Pay 10% of my total worth"), scope=None, hints=()),
    _kind(engine.PAY_TEN, DECISION, _("Pay the fine"), scope=None, hints=()),
    _kind(engine.TAKE_CHANCE, DECISION, _("Take a Chance"), scope=None, hints=()),
    _kind(engine.END_TURN, DECISION, _("End turn"), scope=None, hints=()),
    _kind(
        engine.BID, DECISION, _("Bid"),
        Param(engine.AMOUNT, "Your bid", "Your bid (0 passes a sealed auction).", "10"), scope=None, hints=()),
    _kind(engine.PASS_BID, DECISION, _("Pass"), scope=None, hints=()),
    _kind(engine.PLACE_BUILDING, DECISION, _("Place the building"), square(), scope=None, hints=()),
    _kind(engine.FORFEIT_BUILDING, DECISION, _("Forfeit the building"), scope=None, hints=()),
    _kind(engine.DECLARE_WISH, DECISION, _("Ask for a scarce building"), scope=None, hints=()),
    _kind(engine.NO_WISH, DECISION, _("No building wanted"), scope=None, hints=()),
    _kind(engine.BUILD, PROPERTY, _("Build"), square(), hints=_BUILD_HINTS, scope=None),
    _kind(engine.SELL_BUILDING, PROPERTY, _("Sell a building"), square(), scope=None, hints=()),
    _kind(
        engine.SELL_GROUP_BUILDINGS, GROUP, _("Sell the group's buildings"),
        target("The colour group, as legal_actions gives it."), scope=None, hints=()),
    _kind(engine.MORTGAGE, PROPERTY, _("Mortgage"), square(), scope=None, hints=()),
    _kind(engine.UNMORTGAGE, PROPERTY, _("Lift the mortgage"), square(), hints=(UNMORTGAGE_CASH,), scope=None),
    _kind(
        engine.PROPOSE_TRADE, OFFER, _("Propose a trade"),
        target("The seat you offer the trade to."), TERMS, scope="trade", hints=()),
    _kind(engine.ACCEPT_TRADE, ANSWER, _("Accept the trade"), target(OFFER_ID), scope=None, hints=()),
    _kind(engine.REJECT_TRADE, ANSWER, _("Reject the trade"), target(OFFER_ID), scope=None, hints=()),
    _kind(engine.WITHDRAW_TRADE, ANSWER, _("Withdraw the offer"), target("The id of your offer."), scope=None, hints=()),
    _kind(
        engine.COUNTER_TRADE, OFFER, _("Counter the offer"),
        target("The id of the offer you counter."), TERMS, scope="trade", hints=()),
    _kind(engine.CLAIM_RENT, DECISION, _("Claim rent"), target(CLAIM_ID), scope=None, hints=()),
    _kind(engine.EXPIRE_CLAIM, DECISION, _("Waive the rent"), target(CLAIM_ID), scope=None, hints=()),
    _kind(engine.PAY_DEBT, DECISION, _("Pay the debt"), scope=None, hints=()),
    _kind(engine.DECLARE_BANKRUPTCY, DECISION, _("Declare bankruptcy"), scope=None, hints=()),
    _kind(engine.AUTO_SETTLE, DECISION, _("Settle automatically"), scope=None, hints=()),
    _kind(engine.RESIGN, OWN_PAGE, _("Resign"), scope=None, hints=()),
    _kind(engine.END_NOW, SERVER, _("End the game (time limit)"), scope=None, hints=()),
    _kind(engine.END_CAP, SERVER, _("End the game (length cap)"), scope=None, hints=()),
)  # fmt: skip

KINDS: dict[str, ActionKind] = {entry.kind: entry for entry in _ENTRIES}
# What a player may post: the panel's forms and the API's action body.
PLAYER_KINDS = frozenset(k for k, entry in KINDS.items() if entry.posted)


def of(kind: str) -> ActionKind:
    return KINDS[kind]


def kinds_at(*places: str) -> frozenset[str]:
    return frozenset(k for k, entry in KINDS.items() if entry.place in places)


def with_param(name: str, kinds: Iterable[str] = PLAYER_KINDS) -> frozenset[str]:
    return frozenset(k for k in kinds if any(p.name == name for p in KINDS[k].params))


def scope(kind: str) -> str | None:
    """The per-person rate limit a posted ``kind`` counts against, if any."""
    entry = KINDS.get(kind)
    return entry.scope if entry is not None else None


def label(kind: str) -> str:
    """The kind in the panel's words; an unknown kind (an older deploy's
    row) by its own name."""
    entry = KINDS.get(kind)
    return str(entry.label) if entry is not None else kind.replace("_", " ").capitalize()


def hint_kinds() -> frozenset[str]:
    return frozenset(h for entry in _ENTRIES for h in entry.hints)


def missing_kinds(
    kinds: frozenset[str] = engine.ACTION_KINDS,
    params: dict[str, tuple[str, ...]] = engine.ACTION_PARAMS,
) -> list[str]:
    """Why the registry is incomplete for the engine's ``kinds`` (whose
    fields ``params`` says), one line naming each kind."""
    problems = [
        f"action kind {k!r} has no entry in games/action_kinds.py"
        for k in sorted(kinds - set(KINDS))
    ]
    problems += [f"{k!r} is no engine action kind" for k in sorted(set(KINDS) - kinds)]
    for k, entry in sorted(KINDS.items()):
        if k not in kinds:
            continue
        posted = tuple(p.name for p in entry.params)
        if posted != params.get(k, ()):
            problems.append(
                f"action kind {k!r}: its entry posts {posted} but the engine reads "
                f"{params.get(k, ())}"
            )
        if entry.place not in PLACES:
            problems.append(f"action kind {k!r}: unknown place {entry.place!r}")
    return problems
