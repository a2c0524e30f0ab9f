"""What the game page and the lobby show about deadlines, vacations,
take-overs and standing orders. Reads only."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from games import deadlines as dl
from games import decisions
from games.models import Deadline, Game, Seat
from games.standing_orders import clean
from games.web.snapshot import Snapshot


def deadline_rows(snap: Snapshot, viewer: int | None) -> list[dict[str, Any]]:
    state = snap.state
    assert state is not None
    now = timezone.now()
    rows = []
    for d in snap.deadlines:
        who = state.names[d.player] if 0 <= d.player < state.n else "Everyone"
        rows.append(
            {
                "who": who,
                "what": decisions.label(d.kind),
                "due_at": d.due_at,
                "left": dl.describe_left(dl.seconds_left(d.due_at, now)),
                "mine": d.player == viewer,
                "urgent": d.remind_at is not None and d.remind_at <= now,
            }
        )
    return rows


def seat_marks(snap: Snapshot) -> list[dict[str, Any]]:
    """Players on vacation, and seats a bot is playing after timeouts."""
    game = snap.game
    now = timezone.now()
    marks = []
    for seat in snap.seats:
        if seat.user is None or seat.status != Seat.Status.PLAYING:
            continue
        until = seat.user.vacation_until
        if until is not None and until > now:
            marks.append({"text": f"{seat.name} is on vacation until", "until": until})
        if seat.taken_over:
            marks.append(
                {"text": f"{seat.name} timed out {game.takeover_after} times; a bot plays the seat"}
            )
    return marks


def timer_context(snap: Snapshot, seat: Seat | None) -> dict[str, Any]:
    game = snap.game
    viewer = seat.number if seat is not None else None
    playing = (
        seat is not None
        and seat.status == Seat.Status.PLAYING
        and game.status == Game.Status.ACTIVE
    )
    orders = clean(seat.standing_orders) if playing and seat is not None else None
    return {
        "orders_form": orders_form(orders) if orders is not None else None,
        "deadlines": deadline_rows(snap, viewer),
        "seat_marks": seat_marks(snap),
        "taken_over": bool(playing and seat is not None and seat.taken_over),
        "orders": orders,
        "timer_urls": {
            "reclaim": f"{game.get_absolute_url()}reclaim",
            "orders": f"{game.get_absolute_url()}orders",
        },
    }


def orders_form(orders: dict[str, Any]) -> Any:
    """The standing orders' form, built only if rendered: only the full page
    shows it, and building a form (a deep copy of its fields) cost a push
    about as much as rendering a region."""
    from games.web.forms import StandingOrdersForm

    return SimpleLazyObject(lambda: StandingOrdersForm(initial=orders))


def next_deadline(game: Game, number: int) -> Any:
    return (
        Deadline.objects.filter(game=game, player=number)
        .exclude(kind="time_limit")
        .order_by("due_at")
        .values_list("due_at", flat=True)
        .first()
    )


def vacation_context(user: Any) -> dict[str, Any]:
    from django.conf import settings

    from games.services.timers import vacation_days_left
    from games.web.forms import VacationForm

    now = timezone.now()
    until = user.vacation_until if user.vacation_until and user.vacation_until > now else None
    return {
        "vacation_until": until,
        "vacation_days_left": vacation_days_left(user, now),
        "vacation_days_per_year": settings.VACATION_DAYS_PER_YEAR,
        "vacation_form": VacationForm(),
    }
