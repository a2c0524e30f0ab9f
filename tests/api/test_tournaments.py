"""Tournaments through the API: the list and its filters, one event (its
seed kept back while it runs), joining and withdrawing with each token, the
services' refusals as problem details, and a tournament game arriving on a
bot account's events stream."""

from __future__ import annotations

import itertools
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from accounts.bot import set_bot_account
from accounts.models import User
from api import listeners, tokens
from api.tournaments import tournament_problem
from api.v1 import api as ninja_api
from clubs.models import Club, Membership
from common.env import env_rates
from games import services as games
from tests.api.conftest import Api, api_for
from tests.api.streams import Stream, site, stream_server, wait_for
from tournaments import errors, services
from tournaments.models import Entry, Format, Result, Round, Table, Tournament

__all__ = ["site", "stream_server"]

SEED = 7_340_912_586_113_049_851  # would tell the seatings ahead: never shown while it runs
_names = itertools.count(1)


def event(**fields: Any) -> Tournament:
    values: dict[str, Any] = {
        "name": f"Event {next(_names)}",
        "starts_at": timezone.now() + timedelta(days=1),
        "seed": SEED,
        **fields,
    }
    return Tournament.objects.create(**values)


def bot_account(username: str) -> User:
    user = User.objects.create_user(username, f"{username}@example.com", f"pw-{username}-123")
    set_bot_account(user, True)
    return user


def ids(answer: Any) -> list[int]:
    assert answer.status_code == 200, answer.content
    return [row["id"] for row in answer.json()["tournaments"]]


# --- the list -----------------------------------------------------------------------


def test_lists_open_registrations_first_then_running_then_ended(alice: User) -> None:
    now = timezone.now()
    ended = event(status=Tournament.Status.FINISHED, starts_at=now - timedelta(days=9))
    later = event(starts_at=now + timedelta(days=3))
    running = event(status=Tournament.Status.RUNNING, starts_at=now - timedelta(days=1))
    sooner = event(starts_at=now + timedelta(hours=2))
    latest_ended = event(status=Tournament.Status.CANCELLED, starts_at=now - timedelta(days=2))
    assert ids(api_for(alice, "read").get("/tournaments")) == [
        sooner.pk,
        later.pk,
        running.pk,
        latest_ended.pk,
        ended.pk,
    ]


def test_a_row_counts_the_players_and_shows_your_entry(alice: User, bob: User) -> None:
    open_event = event(name="Sunday Swiss", table_size=4, max_players=40)
    Entry.objects.create(tournament=open_event, user=alice)
    Entry.objects.create(tournament=open_event, user=bob, status=Entry.Status.WITHDRAWN)
    [mine] = api_for(alice, "read").get("/tournaments").json()["tournaments"]
    assert mine["name"] == "Sunday Swiss" and mine["status"] == "registering"
    assert (mine["players"], mine["max_players"], mine["table_size"]) == (1, 40, 4)
    assert mine["your_entry"] == "active" and mine["club"] is None
    [theirs] = api_for(bob, "read").get("/tournaments").json()["tournaments"]
    assert theirs["your_entry"] == "withdrawn"


def test_filters_by_status_format_club_and_entry(alice: User) -> None:
    club = Club.objects.create(slug="rail-barons", name="Rail Barons", name_key="railbarons")
    swiss = event()
    groups = event(format=Format.ROUNDROBIN, club=club)
    running = event(status=Tournament.Status.RUNNING, format=Format.ELIMINATION)
    Entry.objects.create(tournament=running, user=alice)
    api = api_for(alice, "read")
    assert ids(api.get("/tournaments?status=registering")) == [swiss.pk, groups.pk]
    assert ids(api.get("/tournaments?format=roundrobin")) == [groups.pk]
    assert ids(api.get("/tournaments?club=rail-barons")) == [groups.pk]
    assert ids(api.get("/tournaments?entered=true")) == [running.pk]
    assert ids(api.get("/tournaments?entered=false&status=registering")) == [swiss.pk, groups.pk]
    unknown = api.get("/tournaments?club=nobody-here")
    assert unknown.status_code == 404 and unknown["Content-Type"] == "application/problem+json"
    for bad in ("status=paused", "format=knockout", "club=not%20a%20slug", "page=0"):
        assert api.get(f"/tournaments?{bad}").status_code == 422, bad


def test_pages_fifty_events_at_a_time(alice: User) -> None:
    start = timezone.now() + timedelta(days=1)
    Tournament.objects.bulk_create(
        Tournament(name=f"E{i}", starts_at=start + timedelta(minutes=i), seed=i) for i in range(51)
    )
    api = api_for(alice, "read")
    first = api.get("/tournaments").json()
    assert (first["page"], first["pages"], len(first["tournaments"])) == (1, 2, 50)
    second = api.get("/tournaments?page=2").json()
    assert [row["name"] for row in second["tournaments"]] == ["E50"]


def test_the_schema_states_the_filters_and_bounds_the_api_enforces() -> None:
    paths = ninja_api.get_openapi_schema()["paths"]
    listing = {p["name"]: p["schema"] for p in paths["/api/v1/tournaments"]["get"]["parameters"]}
    assert listing["status"]["anyOf"][0]["enum"] == list(Tournament.Status.values)
    assert listing["format"]["anyOf"][0]["enum"] == list(Format.values)
    assert listing["club"]["anyOf"][0]["maxLength"] == 40
    assert (listing["page"]["minimum"], listing["page"]["maximum"]) == (1, 100_000)
    join = paths["/api/v1/tournaments/{tournament_id}/join"]["post"]
    [path_id] = join["parameters"]
    assert (path_id["schema"]["minimum"], path_id["schema"]["maximum"]) == (1, 2**63 - 1)
    assert "requestBody" not in join
    assert {403, 404, 409, 429} <= set(join["responses"])


# --- one event ----------------------------------------------------------------------


def test_a_tournament_never_shows_its_seed_until_it_is_finished(alice: User) -> None:
    api = api_for(alice, "read")
    for status in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING):
        shown = api.get(f"/tournaments/{event(status=status).pk}")
        assert shown.status_code == 200, shown.content
        assert shown.json()["seed"] is None
        assert str(SEED) not in shown.content.decode()
    assert str(SEED) not in api.get("/tournaments").content.decode()
    finished = api.get(f"/tournaments/{event(status=Tournament.Status.FINISHED).pk}")
    assert finished.json()["seed"] == str(SEED)


def test_a_tournament_shows_its_settings_players_standings_and_tables(
    alice: User, bob: User, charlie: User, no_bot_tasks: Any
) -> None:
    running = event(
        name="Thursday tables", status=Tournament.Status.RUNNING, current_round=1, table_size=2
    )
    round_one = Round.objects.create(
        tournament=running,
        number=1,
        status=Round.Status.RUNNING,
        starts_at=timezone.now(),
        started_at=timezone.now(),
    )
    game = games.create_seated_game(humans=[alice, bob], bots=[], start=True)
    table = Table.objects.create(round=round_one, number=1, game=game)
    entries = {u.username: Entry.objects.create(tournament=running, user=u) for u in (alice, bob)}
    entries["charlie"] = Entry.objects.create(
        tournament=running, user=charlie, byes=1, points=Decimal("1.5")
    )
    for seat, name in enumerate(("alice", "bob")):
        Result.objects.create(round=round_one, entry=entries[name], table=table, seat_number=seat)
    Result.objects.create(
        round=round_one, entry=entries["charlie"], kind=Result.Kind.BYE, points=Decimal("1.5")
    )
    shown = api_for(alice, "read").get(f"/tournaments/{running.pk}").json()
    assert shown["name"] == "Thursday tables" and shown["status"] == "running"
    assert shown["settings"]["table_size"] == 2 and shown["settings"]["format"] == "swiss"
    assert [p["username"] for p in shown["players"]] == ["alice", "bob", "charlie"]
    assert shown["your_entry"]["status"] == "active"
    [round_shown] = shown["rounds"]
    [table_shown] = round_shown["tables"]
    assert table_shown["game"] == game.public_id
    assert [(p["username"], p["seat"]) for p in table_shown["players"]] == [
        ("alice", 0),
        ("bob", 1),
    ]
    assert [(b["username"], b["kind"], b["points"]) for b in round_shown["byes"]] == [
        ("charlie", "bye", 1.5)
    ]
    assert shown["standings"][0]["username"] == "charlie"
    assert {row["username"] for row in shown["standings"]} == {"alice", "bob", "charlie"}


def test_an_unknown_tournament_is_a_404_problem(alice: User) -> None:
    answer = api_for(alice, "read").get("/tournaments/987654321")
    assert answer.status_code == 404
    assert answer.json()["detail"] == str(errors.TournamentNotFound())
    assert api_for(alice, "read").get(f"/tournaments/{2**63}").status_code == 422


# --- joining and withdrawing --------------------------------------------------------


def test_a_bot_account_joins_and_withdraws_with_its_bot_token(db: None) -> None:
    robot = bot_account("robot")
    api = api_for(robot, "bot")
    open_event = event()
    joined = api.post(f"/tournaments/{open_event.pk}/join")
    assert joined.status_code == 200, joined.content
    assert joined.json()["tournament"] == open_event.pk
    assert (joined.json()["username"], joined.json()["status"]) == ("robot", "active")
    assert joined.json()["bot_account"] is True
    assert Entry.objects.get(tournament=open_event, user=robot).status == Entry.Status.ACTIVE
    left = api.post(f"/tournaments/{open_event.pk}/withdraw")
    assert left.status_code == 200, left.content
    assert left.json()["status"] == "withdrawn"
    assert Entry.objects.get(tournament=open_event, user=robot).status == Entry.Status.WITHDRAWN


def test_a_person_joins_with_a_play_token(alice: User) -> None:
    open_event = event()
    answer = api_for(alice, "play").post(f"/tournaments/{open_event.pk}/join")
    assert answer.status_code == 200, answer.content
    shown = api_for(alice, "read").get(f"/tournaments/{open_event.pk}").json()
    assert shown["your_entry"]["status"] == "active"


def problem_of(answer: Any, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = answer.json()
    assert body["status"] == status
    return body


def test_rejects_join_after_registration_closes(alice: User) -> None:
    closed = event(status=Tournament.Status.FINISHED)
    body = problem_of(api_for(alice).post(f"/tournaments/{closed.pk}/join"), 409)
    assert body["type"].endswith("/registration-closed")
    assert not Entry.objects.filter(tournament=closed).exists()


def test_rejects_a_second_join_and_a_withdrawal_without_an_entry(alice: User) -> None:
    open_event = event()
    api = api_for(alice)
    assert api.post(f"/tournaments/{open_event.pk}/join").status_code == 200
    again = problem_of(api.post(f"/tournaments/{open_event.pk}/join"), 409)
    assert again["type"].endswith("/already-entered")
    elsewhere = problem_of(api.post(f"/tournaments/{event().pk}/withdraw"), 409)
    assert elsewhere["type"].endswith("/not-entered")
    assert Entry.objects.filter(user=alice).count() == 1


def test_a_club_only_tournament_does_not_exist_for_others(alice: User, bob: User) -> None:
    club = Club.objects.create(slug="owls", name="Owls", name_key="owls")
    Membership.objects.create(club=club, user=bob, status=Membership.Status.MEMBER)
    members = event(club=club, members_only=True)
    outsider = api_for(alice)
    assert ids(outsider.get("/tournaments")) == []
    problem_of(outsider.get(f"/tournaments/{members.pk}"), 404)
    problem_of(outsider.post(f"/tournaments/{members.pk}/join"), 404)
    member = api_for(bob)
    assert ids(member.get("/tournaments?club=owls")) == [members.pk]
    assert member.post(f"/tournaments/{members.pk}/join").status_code == 200
    joined = Entry.objects.filter(tournament=members).values_list("user__username", flat=True)
    assert list(joined) == ["bob"]


def test_joining_an_unknown_tournament_is_a_404_problem(alice: User) -> None:
    problem_of(api_for(alice).post("/tournaments/987654321/join"), 404)
    problem_of(api_for(alice).post("/tournaments/987654321/withdraw"), 404)


def test_rejects_withdrawing_from_an_event_that_is_over(alice: User) -> None:
    over = event(status=Tournament.Status.FINISHED)
    Entry.objects.create(tournament=over, user=alice)
    body = problem_of(api_for(alice).post(f"/tournaments/{over.pk}/withdraw"), 409)
    assert body["type"].endswith("/tournament-over") and "over" in body["detail"]
    assert Entry.objects.get(tournament=over).status == Entry.Status.ACTIVE


def test_every_tournament_error_is_a_problem_with_its_status_and_kind() -> None:
    kinds = {
        errors.NotEligible: (403, "not-eligible"),
        errors.Barred: (403, "barred"),
        errors.MembersOnly: (403, "members-only"),  # a member the club has since let go
        errors.RegistrationClosed: (409, "registration-closed"),
        errors.AlreadyEntered: (409, "already-entered"),
        errors.NotEntered: (409, "not-entered"),
        errors.TournamentFull: (409, "tournament-full"),
        errors.TournamentOver: (409, "tournament-over"),
    }
    assert set(kinds) | {errors.TournamentNotFound} == set(errors.TournamentError.__subclasses__())
    for kind, (status, slug) in kinds.items():
        made = tournament_problem(kind())
        assert (made.status, made.extra["slug"], made.detail) == (status, slug, str(kind()))
    missing = tournament_problem(errors.TournamentNotFound())
    assert (missing.status, missing.extra) == (404, {})
    told = tournament_problem(errors.TournamentError("Not now."))
    assert (told.status, told.detail, told.extra) == (400, "Not now.", {"slug": "tournament-error"})


def test_joins_count_with_the_pages_joins(alice: User, settings: Any) -> None:
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "join": env_rates("TEST", "1/10m/user", {"user", "ip"}),
    }
    api = api_for(alice)
    first, second = event(), event()
    assert api.post(f"/tournaments/{first.pk}/join").status_code == 200
    refused = problem_of(api.post(f"/tournaments/{second.pk}/join"), 429)
    assert refused["type"].endswith("/rate-limited") and refused["retry_after"] > 0
    assert not Entry.objects.filter(tournament=second).exists()


# --- who may do what (the API's own matrix: tokens, not sessions) -------------------

READER = "read token"
PERSON = "person, play token"
BOT = "bot account, bot token"
OLD_PLAY = "bot account, play token from before the switch"
NO_TOKEN = "no token"
CALLERS = (NO_TOKEN, READER, PERSON, BOT, OLD_PLAY)

# Each route's answer per caller, in CALLERS order; a refused request changes nothing.
MATRIX: list[tuple[str, str, tuple[int, ...]]] = [
    ("GET", "/tournaments", (401, 200, 403, 200, 200)),
    ("GET", "/tournaments/{id}", (401, 200, 403, 200, 200)),
    ("POST", "/tournaments/{id}/join", (401, 403, 200, 200, 403)),
    ("POST", "/tournaments/{id}/withdraw", (401, 403, 200, 200, 403)),
]


def caller(kind: str) -> tuple[Api, User | None]:
    if kind == NO_TOKEN:
        return Api(None), None
    user = User.objects.create_user(f"caller{next(_names)}", password="pw-caller-123")
    if kind == READER:
        return api_for(user, "read"), user
    if kind == PERSON:
        return api_for(user, "play"), user
    if kind == OLD_PLAY:
        _, token = tokens.issue(user, scopes=["play", "read"])
        set_bot_account(user, True)
        return Api(token), user
    set_bot_account(user, True)
    return api_for(user, "bot"), user


@pytest.mark.parametrize(("method", "path", "cells"), MATRIX)
def test_who_may_use_each_tournament_route(
    db: None, method: str, path: str, cells: tuple[int, ...]
) -> None:
    for kind, expected in zip(CALLERS, cells, strict=True):
        open_event = event()
        api, user = caller(kind)
        if path.endswith("/withdraw") and user is not None:
            Entry.objects.create(tournament=open_event, user=user)
        before = list(Entry.objects.filter(tournament=open_event).values_list("status", flat=True))
        url = path.replace("{id}", str(open_event.pk))
        answer = api.get(url) if method == "GET" else api.post(url)
        assert answer.status_code == expected, f"{method} {path} as {kind}: {answer.content!r}"
        if expected != 200 or method == "GET":
            after = Entry.objects.filter(tournament=open_event).values_list("status", flat=True)
            assert list(after) == before, f"{method} {path} as {kind} changed an entry"


# --- the events stream ---------------------------------------------------------------


def test_a_tournament_game_start_arrives_on_the_bots_events_stream(site: str, alice: User) -> None:
    robot = bot_account("roundbot")
    starting = event(name="Bots welcome", table_size=2, table_min=2, table_max=2, rated=False)
    for player in (robot, alice):
        Entry.objects.create(tournament=starting, user=player)
    stream = Stream(f"{site}/api/v1/stream/events", api_for(robot, "bot").token)
    # Subscribed (its group has a reader) before the round starts.
    wait_for(lambda: listeners.readers(listeners.user_group(robot.pk)))
    services.start_round(tournament_id=starting.pk, number=1)
    [table] = Table.objects.filter(round__tournament=starting).select_related("game")
    assert table.game is not None
    started = stream.until(lambda line: line["type"] == "game_start")
    assert started == {
        "type": "game_start",
        "game": table.game.public_id,
        "version": table.game.version,
        "tournament": {"id": starting.pk, "name": "Bots welcome", "round": 1, "table": 1},
    }
    # The round's notice too ("Round 1 of Bots welcome starts: your table."), with its game.
    told = stream.until(lambda line: line["type"] == "notice" and line["kind"] == "tournament")
    assert told["game"] == table.game.public_id and "Round 1" in told["text"]
    # Then it plays the game as any other: its stream, with the bot token.
    game_stream = Stream(
        f"{site}/api/v1/games/{table.game.public_id}/stream?follow=false",
        api_for(robot, "bot").token,
    )
    state = game_stream.until(lambda line: line["type"] == "state")
    assert state["your_seat"] is not None
