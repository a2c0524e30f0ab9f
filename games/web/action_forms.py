"""The action panel: legal actions as form descriptors, and posted forms
back into action dicts.

``panel`` turns exactly ``engine.legal_actions`` (plus trade offers, which
the engine does not enumerate) into small forms. ``parse_action`` reads one
posted form defensively: anything unreadable raises ``FormError`` with a
message fit for the player, before the services see it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from common.numbers import whole_number
from games import action_kinds, disclosure, engine
from games.action_kinds import MAX_AMOUNT, MAX_CARDS, PLAYER_KINDS
from games.decisions import ANSWER_ORDER
from games.engine import (
    A_HOTEL,
    DECK_NAMES,
    build_kind,
    group_has_buildings,
    owed,
    terms_error,
    unmortgage_cost,
)
from games.web.hints import Hint, hints
from games.web.presenters import GROUP_COLOURS, group_name
from games.wording import fine_or_chance_amount, money, square_name

# Where the panel shows each kind, from the registry (``games.action_kinds``).
# Resigning has its own view (services.resign also marks the seat).
OWN_PAGE_KINDS = action_kinds.kinds_at(action_kinds.OWN_PAGE)
MANAGE_KINDS = action_kinds.kinds_at(action_kinds.PROPERTY)
GROUP_KINDS = action_kinds.kinds_at(action_kinds.GROUP)
TRADE_ANSWER_KINDS = action_kinds.kinds_at(action_kinds.ANSWER)
TERMS_KINDS = action_kinds.with_param(engine.TERMS)


class FormError(ValueError):
    """A posted form that cannot become an action; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class NumberField:
    name: str
    label: str
    min: int
    max: int
    value: int


@dataclass
class ActionForm:
    kind: str
    label: str
    params: dict[str, int] = field(default_factory=dict)
    style: str = "secondary"  # primary | secondary | danger
    note: str = ""
    number: NumberField | None = None
    confirm: str = ""  # if set, the button sits behind a "are you sure" disclosure
    # Read out with the label where the button is seen in context only,
    # e.g. "Mortgage" beside a property name.
    context: str = ""

    @property
    def uid(self) -> str:
        """Unique within the panel, for element ids."""
        return "-".join([self.kind, *(f"{k}{v}" for k, v in sorted(self.params.items()))])


@dataclass
class TradeSide:
    """One side of a trade form: what ``name`` could put in."""

    prefix: str  # "give" or "take"
    name: str
    properties: list[dict[str, Any]]
    cash_max: int
    cash_label: str
    cash_value: int
    cards: list[dict[str, Any]]


@dataclass
class TradeForm:
    kind: str  # propose_trade or counter_trade
    target: int  # seat (propose) or trade id (counter)
    partner: str
    partner_seat: int
    form_id: str
    give: TradeSide
    take: TradeSide
    currency: str
    open: bool = False  # shown unfolded, e.g. after a refused offer


@dataclass
class Panel:
    seat: int | None = None
    decision: list[ActionForm] = field(default_factory=list)
    debt_note: str = ""
    properties: list[dict[str, Any]] = field(default_factory=list)
    group_sales: list[ActionForm] = field(default_factory=list)
    incoming: list[dict[str, Any]] = field(default_factory=list)
    outgoing: list[dict[str, Any]] = field(default_factory=list)
    proposals: list[TradeForm] = field(default_factory=list)
    can_resign: bool = False
    # Why a natural action is missing (games.web.hints), with the decision
    # or with the property.
    decision_hints: list[Hint] = field(default_factory=list)
    property_hints: list[Hint] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.decision
            or self.properties
            or self.group_sales
            or self.incoming
            or self.outgoing
            or self.proposals
        )

    @property
    def has_trade(self) -> bool:
        return bool(self.incoming or self.outgoing or self.proposals)


# --- legal actions -> forms -----------------------------------------------------


def panel(s: engine.State | None, seat: int | None) -> Panel:
    """The forms the player in ``seat`` may submit now; empty for spectators."""
    if s is None or seat is None or not 0 <= seat < s.n or not s.alive[seat] or s.finished:
        return Panel(seat=seat)
    legal = engine.legal_actions(s, seat)
    out = Panel(seat=seat)
    decisions: list[engine.Action] = []
    by_square: dict[int, list[ActionForm]] = {}
    answers: dict[int, list[ActionForm]] = {}
    bid_done = False
    for a in legal:
        if a.kind in OWN_PAGE_KINDS:
            out.can_resign = True
        elif a.kind in MANAGE_KINDS:
            by_square.setdefault(a.square, []).append(_manage_form(s, a))
        elif a.kind in GROUP_KINDS:
            out.group_sales.append(_group_sale_form(s, a))
        elif a.kind in TRADE_ANSWER_KINDS:
            answers.setdefault(a.target, []).append(_answer_form(a))
        elif a.kind == engine.BID:
            if not bid_done:
                decisions.append(a)
                bid_done = True
        else:  # the decisions and the moves (``action_kinds.MOVE``) after them
            decisions.append(a)
    # The order of the decision registry: what blocks the game first.
    order = {kind: i for i, kind in enumerate(ANSWER_ORDER)}
    decisions.sort(key=lambda a: order.get(a.kind, len(order) - 1))
    out.decision = [_decision_form(s, a) for a in decisions]
    if any(a.kind == engine.PAY_DEBT or a.kind == engine.AUTO_SETTLE for a in decisions):
        out.debt_note = (
            f"You owe {money(s.rules, owed(s, seat))} and have "
            f"{money(s.rules, s.cash[seat])}. Sell buildings or mortgage property "
            "below, then pay; or let the bank settle it automatically."
        )
    out.properties = [_property_row(s, sq, forms) for sq, forms in sorted(by_square.items())]
    for hint in hints(s, seat, legal):
        (out.decision_hints if hint.decision else out.property_hints).append(hint)
    _trades(s, seat, out, answers)
    return out


def _decision_form(s: engine.State, a: engine.Action) -> ActionForm:
    rules = s.rules
    p = a.player
    k = a.kind
    if k == engine.ROLL:
        if s.in_jail[p]:
            return ActionForm(k, "Roll for doubles", style="primary")
        again = s.doubles > 0
        return ActionForm(k, "Roll again" if again else "Roll the dice", style="primary")
    if k == engine.PAY_JAIL_FINE:
        return ActionForm(k, f"Pay the {money(rules, rules.jail_fine)} fine")
    if k == engine.USE_JAIL_CARD:
        deck = DECK_NAMES[a.target] if a.target in (0, 1) else "any"
        return ActionForm(
            k, f"Use a Get Out of Jail Free card ({deck})", params={"target": a.target}
        )
    if k == engine.BUY:
        sq = s.pending_sq
        return ActionForm(
            k,
            f"Buy {square_name(rules, sq)} for {money(rules, engine.PRICE[sq])}",
            style="primary",
        )
    if k == engine.DECLINE:
        label = "Don't buy: auction it" if rules.auctions else "Don't buy"
        return ActionForm(k, label)
    if k == engine.INCOME_TAX_FLAT:
        return ActionForm(k, f"Pay {money(rules, rules.income_tax)} Income Tax")
    if k == engine.INCOME_TAX_PERCENT:
        return ActionForm(
            k, "Pay 10% of my total worth", note="Your worth is shown only after you choose."
        )
    if k == engine.PAY_TEN:
        return ActionForm(k, f"Pay the {money(rules, fine_or_chance_amount(rules))} fine")
    if k == engine.TAKE_CHANCE:
        return ActionForm(k, "Take a Chance")
    if k == engine.END_TURN:
        return ActionForm(k, "End turn", style="primary")
    if k == engine.BID:
        au = engine.auction_view(s)
        assert au is not None
        if au.sealed:
            return ActionForm(
                k,
                "Hand in my sealed bid",
                style="primary",
                number=NumberField(
                    "amount", f"Your sealed bid ({rules.currency})", 0, s.cash[p], 0
                ),
                note="Sealed bid: one hidden bid; highest wins, ties to the earliest. "
                f"0 passes; at most your cash, {money(rules, s.cash[p])}.",
            )
        low = au.lowest_bid
        return ActionForm(
            k,
            "Bid",
            style="primary",
            number=NumberField(
                "amount", f"Your bid ({rules.currency})", low, s.cash[p], min(low, s.cash[p])
            ),
            note=f"From {money(rules, low)} up to your cash, {money(rules, s.cash[p])}.",
        )
    if k == engine.PASS_BID:
        au = engine.auction_view(s)
        if au is not None and au.sealed:
            return ActionForm(k, "Pass (bid nothing)")
        return ActionForm(k, "Pass (leave the auction)")
    if k == engine.PLACE_BUILDING:
        pl = engine.placement(s)
        item = "hotel" if pl and pl.kind == A_HOTEL else "house"
        return ActionForm(
            k, f"Place the {item} on {square_name(rules, a.square)}", params={"square": a.square}
        )
    if k == engine.FORFEIT_BUILDING:
        pl = engine.placement(s)
        refund = pl.price if pl else 0
        return ActionForm(
            k, "Forfeit the building", note=f"The bank refunds {money(rules, refund)}."
        )
    if k in (engine.DECLARE_WISH, engine.NO_WISH):
        return _wish_form(s, a)
    if k == engine.PAY_DEBT:
        return ActionForm(k, f"Pay {money(rules, owed(s, p))} owed", style="primary")
    if k == engine.AUTO_SETTLE:
        return ActionForm(
            k,
            "Settle automatically",
            note="The bank sells buildings and mortgages property until you can pay, "
            "or declares you bankrupt.",
        )
    if k == engine.DECLARE_BANKRUPTCY:
        return ActionForm(
            k,
            "Declare bankruptcy",
            style="danger",
            confirm="You leave the game and your assets go to your creditor.",
        )
    if k in (engine.CLAIM_RENT, engine.EXPIRE_CLAIM):
        claim = next((c for c in engine.claims(s) if c.id == a.target), None)
        if claim is None:
            return derived_form(a)
        amount = money(rules, claim.amount)
        payer = s.names[claim.payer]
        where = square_name(rules, claim.square)
        if k == engine.CLAIM_RENT:
            return ActionForm(
                k,
                f"Claim {amount} rent from {payer}",
                params={"target": a.target},
                style="primary",
                note=f"For {where}.",
            )
        return ActionForm(k, f"Waive {payer}'s rent for {where}", params={"target": a.target})
    return derived_form(a)


def derived_form(a: engine.Action) -> ActionForm:
    """A kind's form from its registry entry alone: its label, the square
    and target of the legal action, and a number input for an amount."""
    entry = action_kinds.of(a.kind)
    form = ActionForm(a.kind, str(entry.label))
    for param in entry.params:
        if param.name == engine.AMOUNT:
            form.number = NumberField(param.name, param.what, param.lo, param.hi, a.amount)
        elif param.name != engine.TERMS:
            form.params[param.name] = getattr(a, param.name)
    return form


def _wish_form(s: engine.State, a: engine.Action) -> ActionForm:
    """A building shortage: ask for the scarce houses or hotels too, or not."""
    rules = s.rules
    sh = engine.shortage(s)
    item = "hotel" if sh is not None and sh.kind == A_HOTEL else "house"
    if a.kind == engine.NO_WISH:
        if sh is None:
            return ActionForm(a.kind, f"I don't want a {item} now")
        return ActionForm(
            a.kind,
            f"I don't want a {item} now",
            note=f"{s.names[sh.requester]} then builds on {square_name(rules, sh.square)}.",
        )
    if sh is None:
        return ActionForm(a.kind, f"I want a {item} too", style="primary")
    left = s.bank_hotels if sh.kind == A_HOTEL else s.bank_houses
    return ActionForm(
        a.kind,
        f"I want a {item} too",
        style="primary",
        note=(
            f"The Bank has {left} {item}{'s' if left != 1 else ''} left and "
            f"{s.names[sh.requester]} asked to build on {square_name(rules, sh.square)}: "
            f"if you ask too, the {item}s are auctioned."
        ),
    )


def _manage_form(s: engine.State, a: engine.Action) -> ActionForm:
    form = _manage_form_for(s, a)
    form.context = square_name(s.rules, a.square)
    return form


def _manage_form_for(s: engine.State, a: engine.Action) -> ActionForm:
    rules = s.rules
    sq = a.square
    params = {"square": sq}
    if a.kind == engine.BUILD:
        item = "hotel" if build_kind(s, sq) == A_HOTEL else "house"
        return ActionForm(
            a.kind, f"Build a {item} ({money(rules, engine.HOUSE_COST[sq])})", params=params
        )
    if a.kind == engine.SELL_BUILDING:
        item = "hotel" if s.bld[sq] == engine.HOTEL else "house"
        return ActionForm(
            a.kind,
            f"Sell a {item} (+{money(rules, engine.HOUSE_COST[sq] // 2)})",
            params=params,
        )
    if a.kind == engine.MORTGAGE:
        return ActionForm(
            a.kind, f"Mortgage (+{money(rules, engine.MORTGAGE_VALUE[sq])})", params=params
        )
    return ActionForm(
        a.kind, f"Lift mortgage ({money(rules, unmortgage_cost(s, sq))})", params=params
    )


def _property_row(s: engine.State, sq: int, forms: list[ActionForm]) -> dict[str, Any]:
    order = {engine.BUILD: 0, engine.SELL_BUILDING: 1, engine.UNMORTGAGE: 2, engine.MORTGAGE: 3}
    forms.sort(key=lambda f: order.get(f.kind, 9))
    g = engine.GROUP[sq]
    b = s.bld[sq]
    if s.mortgaged[sq]:
        status = "mortgaged"
    elif b == engine.HOTEL:
        status = "hotel"
    elif b:
        status = f"{b} house{'s' if b > 1 else ''}"
    else:
        status = ""
    return {
        "square": sq,
        "name": square_name(s.rules, sq),
        "colour": GROUP_COLOURS[g],
        "group": group_name(s.rules, g),
        "status": status,
        "forms": forms,
    }


def _group_sale_form(s: engine.State, a: engine.Action) -> ActionForm:
    return ActionForm(
        a.kind,
        f"Sell all buildings on the {group_name(s.rules, a.target)} group",
        params={"target": a.target},
        note="Sold back to the bank at half price, evenly.",
    )


def _answer_form(a: engine.Action) -> ActionForm:
    params = {"target": a.target}
    context = f"trade offer #{a.target}"
    if a.kind == engine.ACCEPT_TRADE:
        return ActionForm(a.kind, "Accept", params, style="primary", context=context)
    if a.kind == engine.REJECT_TRADE:
        return ActionForm(a.kind, "Reject", params, context=context)
    return ActionForm(a.kind, "Withdraw offer", params, context=context)


# --- trades -----------------------------------------------------------------------


def tradable(s: engine.State, p: int) -> list[int]:
    """Properties of ``p`` that may change hands: no buildings in their group."""
    return [
        sq
        for sq in engine.PROPERTIES
        if s.owner[sq] == p
        and (engine.GROUP[sq] >= 8 or not group_has_buildings(s, engine.GROUP[sq]))
    ]


def describe_terms(s: engine.State, frm: int, to: int, t: engine.Terms) -> dict[str, Any]:
    """A trade in words, from the proposer's side."""
    return {
        "from": s.names[frm],
        "to": s.names[to],
        "gives": _items(s, t.give_props, t.give_cash, t.give_cards),
        "takes": _items(s, t.take_props, t.take_cash, t.take_cards),
    }


def _items(s: engine.State, props: tuple[int, ...], cash: int, cards: tuple[int, int]) -> list[str]:
    out = []
    for sq in props:
        name = square_name(s.rules, sq)
        out.append(f"{name} (mortgaged)" if s.mortgaged[sq] else name)
    if cash:
        out.append(money(s.rules, cash))
    for deck in (0, 1):
        if cards[deck]:
            n = cards[deck]
            out.append(f"{n} Get Out of Jail Free card{'s' if n > 1 else ''} ({DECK_NAMES[deck]})")
    return out or ["nothing"]


def _side(
    s: engine.State, prefix: str, p: int, props: tuple[int, ...], cash: int, cards: tuple[int, int]
) -> TradeSide:
    return TradeSide(
        prefix=prefix,
        name=s.names[p],
        properties=[
            {
                "square": sq,
                "name": square_name(s.rules, sq),
                "colour": GROUP_COLOURS[engine.GROUP[sq]],
                "mortgaged": s.mortgaged[sq],
                "checked": sq in props,
            }
            for sq in tradable(s, p)
        ],
        cash_max=s.cash[p],
        cash_label=money(s.rules, s.cash[p]),
        cash_value=cash,
        cards=[
            {
                "deck": deck,
                "name": DECK_NAMES[deck],
                "max": s.jail_cards[p][deck],
                "value": cards[deck],
                "field": f"{prefix}_cards_{deck}",
            }
            for deck in (0, 1)
            if s.jail_cards[p][deck]
        ],
    )


def trade_form(
    s: engine.State,
    me: int,
    partner: int,
    kind: str = engine.PROPOSE_TRADE,
    target: int | None = None,
    terms: engine.Terms | None = None,
) -> TradeForm:
    t = terms or engine.Terms()
    target = partner if target is None else target
    return TradeForm(
        kind=kind,
        target=target,
        partner=s.names[partner],
        partner_seat=partner,
        form_id=f"{kind}-{target}",
        give=_side(s, "give", me, t.give_props, t.give_cash, t.give_cards),
        take=_side(s, "take", partner, t.take_props, t.take_cash, t.take_cards),
        currency=s.rules.currency,
    )


def can_propose(s: engine.State, me: int, partner: int) -> bool:
    """Whether any offer to ``partner`` could be legal now: probe the engine
    with the smallest offers the two players could make."""
    probes = []
    mine, theirs = tradable(s, me), tradable(s, partner)
    if mine:
        probes.append(engine.Terms(give_props=(mine[0],)))
    if theirs:
        probes.append(engine.Terms(take_props=(theirs[0],)))
    if s.cash[me] > 0:
        probes.append(engine.Terms(give_cash=1))
    if s.cash[partner] > 0:
        probes.append(engine.Terms(take_cash=1))
    for deck in (0, 1):
        if s.jail_cards[me][deck]:
            probes.append(engine.Terms(give_cards=(1, 0) if deck == 0 else (0, 1)))
    return any(
        engine.is_legal(s, engine.Action(engine.PROPOSE_TRADE, me, target=partner, terms=t))
        for t in probes
    )


def _trades(s: engine.State, me: int, out: Panel, answers: dict[int, list[ActionForm]]) -> None:
    trading = engine.can_trade(s, me)
    for tid, frm, to, terms in disclosure.offers(s, disclosure.Audience(me)):
        if to == me:
            forms = answers.get(tid, [])
            offer = {
                "id": tid,
                "from_seat": frm,
                "terms": describe_terms(s, frm, to, terms),
                "forms": forms,
                "blocked": "",
                "counter": None,
            }
            if not any(f.kind == engine.ACCEPT_TRADE for f in forms):
                offer["blocked"] = _accept_problem(s, tid)
            if trading:
                offer["counter"] = trade_form(
                    s, me, frm, kind=engine.COUNTER_TRADE, target=tid, terms=terms.flipped()
                )
            out.incoming.append(offer)
        elif frm == me:
            out.outgoing.append(
                {
                    "id": tid,
                    "terms": describe_terms(s, frm, to, terms),
                    "forms": answers.get(tid, []),
                }
            )
    if trading:
        out.proposals = [
            trade_form(s, me, q)
            for q in range(s.n)
            if q != me and s.alive[q] and can_propose(s, me, q)
        ]


def _accept_problem(s: engine.State, tid: int) -> str:
    t = next((o for o in engine.offers(s) if o.id == tid), None)
    if t is None:
        return "This offer is no longer open."
    problem = terms_error(s, t.proposer, t.recipient, t.terms, accepting=True)
    return problem or "You cannot accept this offer now."


# --- posted form -> action dict --------------------------------------------------


def parse_version(data: QueryDict) -> int:
    version = whole_number(data.get("expected_version"))
    if version is None:
        raise FormError("This form is missing the game version; reload the page and try again.")
    return version


def parse_action(data: QueryDict) -> dict[str, Any]:
    """One posted action form as an action dict for ``services.submit_action``:
    the fields its registry entry names, each within its bounds."""
    kind = (data.get("kind") or "").strip()
    if kind not in PLAYER_KINDS:
        raise FormError("That is not an action you can take here.")
    action: dict[str, Any] = {"kind": kind}
    for param in action_kinds.of(kind).params:
        if param.name == engine.TERMS:
            action[param.name] = parse_terms(data)
        else:
            action[param.name] = _int(data, param.name, param.what, param.lo, param.hi)
    return action


def parse_terms(data: QueryDict) -> dict[str, Any]:
    give_props = _squares(data, "give_props")
    take_props = _squares(data, "take_props")
    if set(give_props) & set(take_props):
        raise FormError("A property cannot be on both sides of a trade.")
    return {
        "give_props": give_props,
        "take_props": take_props,
        "give_cash": _int(data, "give_cash", "The cash you give", 0, MAX_AMOUNT, default=0),
        "take_cash": _int(data, "take_cash", "The cash you ask for", 0, MAX_AMOUNT, default=0),
        "give_cards": [
            _int(data, f"give_cards_{d}", "The cards you give", 0, MAX_CARDS, default=0)
            for d in (0, 1)
        ],
        "take_cards": [
            _int(data, f"take_cards_{d}", "The cards you ask for", 0, MAX_CARDS, default=0)
            for d in (0, 1)
        ],
    }


def _squares(data: QueryDict, name: str) -> list[int]:
    out: list[int] = []
    for raw in data.getlist(name):
        sq = whole_number(raw)
        if sq is None or not 0 <= sq < engine.NUM_SQUARES or not engine.IS_PROPERTY[sq]:
            raise FormError("Choose properties from the lists shown.")
        if sq not in out:
            out.append(sq)
    return out


def _int(
    data: QueryDict, name: str, what: str, lo: int, hi: int, default: int | None = None
) -> int:
    raw = (data.get(name) or "").strip().replace(",", "").lstrip("$£").strip()
    if not raw:
        if default is not None:
            return default
        raise FormError(f"{what} is missing.")
    value = whole_number(raw)
    if value is None:
        raise FormError(f"{what} must be a whole number, like 120.")
    if not lo <= value <= hi:
        raise FormError(f"{what} must be between {lo:,} and {hi:,}.")
    return value
