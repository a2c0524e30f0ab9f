"""Tournaments through the API: the list, one event, and joining and
withdrawing, through the services the pages use (``tournaments.services``).
Their refusals (``tournaments.errors``) are problem details with the
error's own status and a ``type`` slug of its kind.

A tournament game is an ordinary game once started: it reaches the events
stream of each seated account as any game does (``game_start``, then
``your_move``), its ``game_start`` line naming the event (``api.user_events``).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Field, Path, Query, Router, Schema

from api import limits
from api.auth import need
from api.models import SCOPE_PLAY, SCOPE_READ
from api.problems import ERRORS, Problem, ProblemOut
from api.tournament_reads import entry_view, listed, row, tournament_view
from clubs.models import Club
from tournaments import errors, services
from tournaments.models import Entry, Format, Result, Round, Tournament
from tournaments.pages import visible

router = Router(tags=["tournaments"])

PAGE_SIZE = 50
BIGINT = 2**63 - 1
StatusName = Literal[tuple(Tournament.Status.values)]  # type: ignore[valid-type]
FormatName = Literal[tuple(Format.values)]  # type: ignore[valid-type]
EntryStatus = Literal[tuple(Entry.Status.values)]  # type: ignore[valid-type]
ResultKind = Literal[tuple(Result.Kind.values)]  # type: ignore[valid-type]
RoundStatus = Literal[tuple(Round.Status.values)]  # type: ignore[valid-type]

TournamentId = Path(  # type: ignore[type-arg]
    ..., ge=1, le=BIGINT, description="The tournament's id (as in its page's URL)."
)


# --- schemas ------------------------------------------------------------------------


class Person(Schema):
    username: str = Field(description="The player's username.")
    name: str = Field(description="The name the site shows.")
    bot_account: bool = Field(description="A bot account (shown with a BOT badge).")


class TournamentRowOut(Schema):
    id: int = Field(description="The tournament's id.")
    name: str
    format: FormatName = Field(description="swiss, elimination or roundrobin.")  # type: ignore[valid-type]
    status: StatusName = Field(  # type: ignore[valid-type]
        description="registering, running, finished or cancelled."
    )
    club: str | None = Field(description="The slug of the club running it, or null.")
    members_only: bool = Field(description="Only the club's members may join.")
    rated: bool = Field(description="Its games are rated.")
    starts_at: str = Field(description="When registration closes and round 1 starts (ISO 8601).")
    players: int = Field(description="Entries, less those withdrawn.")
    max_players: int
    table_size: int
    rounds: int = Field(description="Rounds planned (an elimination's once known, else 0).")
    current_round: int = Field(description="The round being played (0 before the start).")
    turn_seconds: int = Field(description="The games' turn timer.")
    your_entry: EntryStatus | None = Field(  # type: ignore[valid-type]
        description="Your entry's status (active, withdrawn, no_show, eliminated), or null."
    )


class TournamentsOut(Schema):
    page: int = Field(description="This page's number, from 1.")
    pages: int = Field(description="How many pages there are.")
    tournaments: list[TournamentRowOut] = Field(
        description="Open registrations first (soonest start first), then running events, "
        "then ended ones (latest first)."
    )


class EntryOut(Person):
    status: EntryStatus = Field(  # type: ignore[valid-type]
        description="active; withdrawn; no_show (withdrawn by the site after a missed first "
        "decision: may rejoin before the next round); eliminated."
    )
    points: float
    byes: int = Field(description="Byes had (a bye is worth the median place's points).")
    joined_round: int = Field(description="The round they joined in (1 unless late).")
    group: int | None = Field(description="Round-robin: their group.")
    final_rank: int | None = Field(description="Their place once the event is over.")


class StandingOut(Person):
    rank: int
    status: EntryStatus  # type: ignore[valid-type]
    points: float
    opponents_points: float = Field(description="First tie-break: the opponents' points.")
    places: list[int] = Field(description="Then places: how many firsts, seconds, ...")
    net_worth: int = Field(description="Then the final net worth, summed.")
    games: int
    byes: int


class SeatOut(Person):
    seat: int | None = Field(description="Their seat at the table's game.")
    kind: ResultKind = Field(  # type: ignore[valid-type]
        description="played, or no_show: a bot played the seat (no points for the player)."
    )
    place: int | None = Field(description="The seat's finishing place, once the game is over.")
    net_worth: int | None
    points: float | None = Field(description="The player's points, once the game is over.")


class ByeOut(Person):
    kind: ResultKind = Field(description="bye or half_bye (a round missed by a late join).")  # type: ignore[valid-type]
    points: float | None


class TableOut(Schema):
    number: int
    group: int | None
    game: str | None = Field(description="The table's game (its public id): watch or play it.")
    finished: bool
    players: list[SeatOut] = Field(description="In seat order.")


class RoundOut(Schema):
    number: int
    status: RoundStatus = Field(description="pending, running or finished.")  # type: ignore[valid-type]
    final: bool = Field(description="An elimination's or a round-robin's final.")
    starts_at: str
    started_at: str | None
    finished_at: str | None
    tables: list[TableOut]
    byes: list[ByeOut]


class SettingsOut(Schema):
    format: FormatName  # type: ignore[valid-type]
    rounds: int = Field(description="Swiss and round-robin: how many rounds.")
    table_size: int
    table_min: int
    table_max: int
    advance: int = Field(description="Elimination: the top of each table who go through.")
    group_size: int = Field(description="Round-robin: players per group (0: one group).")
    group_final: int = Field(description="Round-robin: of each group, how many play a final.")
    points: list[float] = Field(
        description="Points by finishing place, first first; empty: the default for the size."
    )
    preset: str
    switches: dict[str, Any] = Field(description="The games' house rules.")
    turn_seconds: int
    cap_days: int = Field(description="A game ends on net worth after this many days (0: none).")
    cap_turns: int = Field(description="... or once this turn's round completes (0: none).")
    rated: bool
    round_gap_seconds: int = Field(description="Between one round's planned start and the next.")
    max_players: int
    members_only: bool


class ClubOut(Schema):
    slug: str
    name: str


class TournamentOut(Schema):
    id: int
    name: str
    description: str
    status: StatusName  # type: ignore[valid-type]
    club: ClubOut | None
    recurring: bool = Field(description="One event of a recurring series.")
    created_by: str | None
    starts_at: str
    started_at: str | None
    finished_at: str | None
    current_round: int
    rounds_planned: int
    winner: str | None = Field(description="The winner's username, once the event is over.")
    version: int = Field(description="Bumped by every change the event's page shows.")
    seed: str | None = Field(
        description="The pairing's seed (decimal), once the event is finished; null before, "
        "since it would tell the seatings ahead."
    )
    settings: SettingsOut
    players: list[EntryOut] = Field(description="Every entry, in the order they joined.")
    standings: list[StandingOut] = Field(description="Best first.")
    rounds: list[RoundOut] = Field(description="Each round made so far, with its tables.")
    your_entry: EntryOut | None
    your_game: str | None = Field(description="Your next (or current) game in the event.")


class YourEntryOut(EntryOut):
    tournament: int = Field(description="The tournament's id.")


# --- errors -------------------------------------------------------------------------


def _slug(exc: errors.TournamentError) -> str | None:
    """``RegistrationClosed`` -> ``registration-closed``; a not-found is the
    API's usual ``not-found``."""
    if isinstance(exc, errors.TournamentNotFound):
        return None
    return re.sub(r"(?<!^)(?=[A-Z])", "-", type(exc).__name__).lower()


def tournament_problem(exc: errors.TournamentError) -> Problem:
    status = exc.status if 400 <= exc.status < 500 else 400
    slug = _slug(exc)
    return Problem(status, str(exc), **({"slug": slug} if slug else {}))


def _get(tournament_id: int, user: Any) -> Tournament:
    """The event, if ``user`` may see it (``tournaments.pages.visible``, as
    its page): to anyone else a club's members-only event does not exist."""
    found = (
        visible(user)
        .select_related("club", "created_by", "winner")
        .filter(pk=tournament_id)
        .first()
    )
    if found is None:
        raise tournament_problem(errors.TournamentNotFound())
    return found


# --- endpoints ----------------------------------------------------------------------


class FiltersIn(Schema):
    status: StatusName | None = Field(None, description="Only events in this status.")  # type: ignore[valid-type]
    format: FormatName | None = Field(None, description="Only events of this format.")  # type: ignore[valid-type]
    club: str | None = Field(
        None,
        pattern=r"^[-a-zA-Z0-9_]+$",
        max_length=40,
        description="Only the events of this club (its slug); 404 for an unknown club.",
    )
    entered: bool | None = Field(
        None, description="true: only events you have an entry in; false: only the others."
    )
    page: int = Field(1, ge=1, le=100_000, description="The page, 50 events each.")


@router.get("/tournaments", response={200: TournamentsOut, **ERRORS}, summary="Tournaments")
def tournaments(request: HttpRequest, filters: Query[FiltersIn]) -> dict[str, Any]:
    """The site's tournaments and the clubs' (a club's members-only events
    only to its members, as on the site)."""
    user = need(request, SCOPE_READ)
    rows = listed(user)
    if filters.status is not None:
        rows = rows.filter(status=filters.status)
    if filters.format is not None:
        rows = rows.filter(format=filters.format)
    if filters.club is not None:
        found = Club.objects.filter(slug=filters.club).first()
        if found is None:
            raise Problem(404, "There is no such club.")
        rows = rows.filter(club=found)
    if filters.entered is not None:
        mine = Entry.objects.filter(user=user).values("tournament_id")
        rows = rows.filter(pk__in=mine) if filters.entered else rows.exclude(pk__in=mine)
    shown = Paginator(rows, PAGE_SIZE).get_page(filters.page)
    return {
        "page": shown.number,
        "pages": shown.paginator.num_pages,
        "tournaments": [row(t) for t in shown.object_list],
    }


@router.get(
    "/tournaments/{tournament_id}", response={200: TournamentOut, **ERRORS}, summary="A tournament"
)
def tournament(request: HttpRequest, tournament_id: int = TournamentId) -> dict[str, Any]:
    """Its settings and status, the players, the standings (best first,
    ``tournaments.reads.standings``), each round's tables with their games,
    and your entry and next game."""
    user = need(request, SCOPE_READ)
    found = _get(tournament_id, user)
    game = services.your_next_game(found, user)
    return tournament_view(found, user, game.public_id if game is not None else None)


def _entry(entry: Entry) -> dict[str, Any]:
    return {"tournament": entry.tournament_id, **entry_view(entry)}


@router.post(
    "/tournaments/{tournament_id}/join",
    response={200: YourEntryOut, 409: ProblemOut, **ERRORS},
    summary="Join a tournament",
)
def join(request: HttpRequest, tournament_id: int = TournamentId) -> dict[str, Any]:
    """Enter the event while it registers, or late until half its rounds
    have started (a half-bye for each round missed); rejoin after a
    withdrawal or a no-show before the next round. Refused: 403 `barred`
    (a recent no-show), `not-eligible`; 409 `registration-closed`,
    `already-entered`, `tournament-full`; 404 for an event you may not see
    (a club's members-only event, to others)."""
    user = need(request, SCOPE_PLAY)
    _get(tournament_id, user)
    limits.count_person(request, "join")  # with the pages' joins and withdrawals
    try:
        entry = services.join_tournament(tournament_id=tournament_id, user=user)
    except errors.TournamentError as exc:
        raise tournament_problem(exc) from None
    return _entry(Entry.objects.select_related("user").get(pk=entry.pk))


@router.post(
    "/tournaments/{tournament_id}/withdraw",
    response={200: YourEntryOut, 409: ProblemOut, **ERRORS},
    summary="Withdraw from a tournament",
)
def withdraw(request: HttpRequest, tournament_id: int = TournamentId) -> dict[str, Any]:
    """Leave the event, at any time: you are seated in no later round.
    409 `not-entered` without an active entry, `tournament-over` once it ended."""
    user = need(request, SCOPE_PLAY)
    _get(tournament_id, user)
    limits.count_person(request, "join")  # as the page counts it
    try:
        entry = services.withdraw_from_tournament(tournament_id=tournament_id, user=user)
    except errors.TournamentError as exc:
        raise tournament_problem(exc) from None
    return _entry(Entry.objects.select_related("user").get(pk=entry.pk))
