"""What a client may see of a game: the public view, a seat's private view,
the seat's legal actions and the game's deadlines.

The public view is a whitelist of the engine state's fields, read through
the engine's named views (``auction_view``, ``claims``...), as the page's
presenters read them. Whatever tells the future stays out: the seed, the
secret, the generator's state, scripted dice, the order of the undrawn cards
(only their count is given) and the hidden bids of a sealed auction (each
bidder sees their own in the private view). Trade offers are private to
their two parties, as on the page's action panel (``games.disclosure``).
"""

from __future__ import annotations

from typing import Any

from games import action_kinds, disclosure, engine
from games.models import Deadline, Game, Seat
from games.web.presenters import event_text


def status_of(game: Game) -> str:
    """lobby, active or finished."""
    return str(game.status)


def public_state(s: engine.State) -> dict[str, Any]:
    auction = engine.auction_view(s)
    placement = engine.placement(s)
    shortage = engine.shortage(s)
    return {
        "rules": s.rules.to_dict(),
        "names": list(s.names),
        "players": s.n,
        "cash": list(s.cash),
        "position": list(s.pos),
        "alive": list(s.alive),
        "in_jail": list(s.in_jail),
        "jail_turns": list(s.jail_turns),
        "jail_cards": [list(c) for c in s.jail_cards],
        "owner": list(s.owner),
        "mortgaged": list(s.mortgaged),
        "buildings": list(s.bld),
        "bank_houses": s.bank_houses,
        "bank_hotels": s.bank_hotels,
        "cards_left": [len(d) for d in s.decks],
        "turn": s.turn,
        "turn_number": s.turn_no,
        "phase": engine.PHASE_NAMES[s.phase],
        "doubles": s.doubles,
        "dice": list(s.dice),
        "pot": s.pot,
        "auction": _auction(auction) if auction is not None else None,
        "claims": [c._asdict() for c in engine.claims(s)],
        "debts": [d._asdict() for d in engine.debts(s)],
        "placement": placement._asdict() if placement is not None else None,
        "shortage": _listed(shortage._asdict()) if shortage is not None else None,
        "open_trades": len(engine.offers(s)),
        "finished": s.finished,
        "end_reason": s.end_reason,
        "winner": s.winner,
        "bankrupt_order": list(s.bankrupt_order),
    }


def _auction(a: engine.AuctionView) -> dict[str, Any]:
    return {**_listed(a._asdict()), "bidders": list(a.bidders)}


def _listed(d: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}


def private_state(s: engine.State, seat: int) -> dict[str, Any]:
    """What only ``seat`` sees: its own sealed bid and its trade offers."""
    auction = engine.auction_view(s)
    return {
        "seat": seat,
        "sealed_bid": engine.sealed_bid(s, seat)
        if auction is not None and auction.sealed
        else None,
        "offers": [
            {
                "id": o.id,
                "proposer": o.proposer,
                "recipient": o.recipient,
                "terms": o.terms.to_dict(),
            }
            for o in disclosure.offers(s, disclosure.Audience(seat))
        ],
    }


def action_entry(a: engine.Action) -> dict[str, Any]:
    """An engine action as the client posts it back: its kind and the
    fields its registry entry names (the seat is the token's own)."""
    d: dict[str, Any] = {"kind": a.kind}
    for param in action_kinds.of(a.kind).params:
        value = getattr(a, param.name)
        d[param.name] = value.to_dict() if isinstance(value, engine.Terms) else value
    return d


def legal_actions(s: engine.State | None, seat: int | None) -> list[dict[str, Any]]:
    """The seat's legal actions, as the page's action panel offers them
    (server-only kinds and resigning, which has its own endpoint, left out)."""
    if s is None or seat is None or s.finished:
        return []
    return [
        action_entry(a)
        for a in engine.legal_actions(s, seat)
        if a.kind in action_kinds.PLAYER_KINDS
    ]


def event_entry(e: engine.Event, s: engine.State) -> dict[str, Any]:
    entry = e.to_dict()
    # Worded as on the page (the engine words only the identifier of why a game ended).
    return {**entry, "text": event_text(e.kind, entry, s.rules, s.names)}


def players(seats: list[Seat]) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat.number,
            "username": seat.user.username if seat.user is not None else None,
            "bot": seat.bot_kind or None,
            "bot_account": seat.user is not None and bool(getattr(seat.user, "bot_account", False)),
            "status": str(seat.status),
            "seeded": seat.user is not None and bool(seat.seed),
        }
        for seat in seats
    ]


def deadlines(rows: list[Deadline]) -> list[dict[str, Any]]:
    return [
        {"player": d.player, "kind": d.kind, "ref": d.ref, "due_at": d.due_at.isoformat()}
        for d in rows
    ]


def game_view(
    game: Game,
    seat: Seat | None,
    seats: list[Seat] | None = None,
    deadline_rows: list[Deadline] | None = None,
) -> dict[str, Any]:
    """One game as the holder of ``seat`` (None: a spectator) may see it;
    ``seats`` (in seat order, users loaded) and ``deadline_rows``, if the
    caller has read them (``services.read_game``)."""
    state = engine.from_dict(game.state) if game.state else None
    if seats is None:
        seats = list(game.seats.select_related("user").order_by("number"))
    if deadline_rows is None:
        deadline_rows = list(Deadline.objects.filter(game=game))
    number = seat.number if seat is not None else None
    playing = seat is not None and seat.status == Seat.Status.PLAYING
    return {
        "id": game.public_id,
        "status": status_of(game),
        "version": game.version,
        "preset": game.preset,
        "seats": game.max_seats,
        "turn_seconds": game.turn_seconds,
        "public": game.is_public,
        "bot_speed": game.bot_speed,
        "host": game.host.username if game.host is not None else None,
        "your_seat": number,
        # The player's own dice seed, while it can change: nobody's leaves the
        # server during the game; at the end the record has them all.
        "your_seed": (seat.seed or None)
        if seat is not None and game.status == Game.Status.LOBBY
        else None,
        "commitment": game.commitment or None,
        "players": players(seats),
        "state": public_state(state) if state is not None else None,
        "private": private_state(state, number)
        if state is not None and number is not None
        else None,
        "decisions": [p.to_dict() for p in engine.pending_decisions(state)]
        if state is not None and not state.finished
        else [],
        "legal_actions": legal_actions(state, number if playing else None),
        "deadlines": deadlines(sorted(deadline_rows, key=lambda d: (d.due_at, d.pk)))
        if state is not None
        else [],
    }
