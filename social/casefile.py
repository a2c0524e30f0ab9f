"""What a moderator sees of a case: its reports with their evidence, the
person's recent chat in every game and club, the games and trades between each
reporter and the person, and the person's moderation history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import disclosure
from games.models import Game, Seat
from live.models import ChatMessage
from people.models import Case, ModAction, Report
from social.evidence import trade_terms

RECENT_CHAT = 40
SHARED_GAMES = 20


@dataclass
class Shared:
    """The games one reporter and the reported person sat in together, and
    the trade offers between their seats there."""

    reporter: Any
    games: list[Game] = field(default_factory=list)
    trades: list[dict[str, Any]] = field(default_factory=list)


def case_file(case: Case) -> dict[str, Any]:
    reports = list(case.reports.select_related("reporter").order_by("created_at", "pk"))
    reporters = {r.reporter_id: r.reporter for r in reports if r.reporter is not None}
    return {
        "case": case,
        "person": case.user,
        "reports": reports,
        "recent_chat": recent_chat(case.user_id),
        "recent_club_chat": recent_club_chat(case.user),
        "shared": [shared_with(reporter, case.user) for reporter in reporters.values()],
        "history": history(case.user_id),
        "collusion": [r for r in reports if r.source == Report.Source.COLLUSION_CHECK],
    }


def recent_chat(user_id: int) -> list[ChatMessage]:
    return list(
        ChatMessage.objects.filter(author_id=user_id)
        .select_related("game")
        .order_by("-created_at", "-pk")[:RECENT_CHAT]
    )


def recent_club_chat(person: Any) -> list[Any]:
    """Their lines in clubs' chats, deleted ones too, through the relation
    ``clubs`` declares (``clubs`` sits above this layer)."""
    lines = person.club_chat_lines.select_related("club", "deleted_by")
    return list(lines.order_by("-created_at", "-pk")[:RECENT_CHAT])


def history(user_id: int) -> list[ModAction]:
    return list(ModAction.objects.filter(user_id=user_id).select_related("moderator", "case")[:100])


def shared_with(reporter: Any, person: Any) -> Shared:
    shared = Shared(reporter)
    game_ids = (
        Seat.objects.filter(user=reporter)
        .values_list("game_id", flat=True)
        .intersection(Seat.objects.filter(user=person).values_list("game_id", flat=True))
    )
    shared.games = list(
        Game.objects.filter(pk__in=list(game_ids)).order_by("-created_at")[:SHARED_GAMES]
    )
    for game in shared.games:
        seats = {s.user_id: s.number for s in game.seats.all() if s.user_id}
        pair = {seats.get(reporter.pk), seats.get(person.pk)}
        book = disclosure.TradeBook.of_game(game.pk)
        # A moderator may sit in a running game too: pending terms stay its
        # parties' (games.disclosure); accepted ones and a finished game's are public.
        onlooker = disclosure.Audience.of(game, None)
        for version, trade_id in sorted(book.proposed_in.items()):
            parties = book.parties[trade_id]
            if set(parties) != pair:
                continue
            shared.trades.append(
                {
                    "game": game,
                    "trade": trade_id,
                    "from": reporter if parties[0] == seats.get(reporter.pk) else person,
                    "accepted": trade_id in book.accepted,
                    "terms": trade_terms(game.pk, version)
                    if book.terms_shown(version, onlooker)
                    else None,
                }
            )
    return shared


def staff_history(user_id: int) -> list[ModAction]:
    """The audit log of one person, for the staff's view of their profile."""
    return history(user_id)
