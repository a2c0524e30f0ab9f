"""The club pages and their POSTs: what each viewer sees, and that a
refused POST says why and changes nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from accounts.models import User
from clubs import services
from clubs.models import Club, Membership
from games.models import Game, Seat
from ratings.models import PlayerRating, Pool
from tests.clubs.conftest import client_for, make_user, member
from tests.conftest import setup_writes
from tests.games.conftest import duel, private_duel

__all__ = ["duel", "private_duel"]

pytestmark = pytest.mark.django_db


def said(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]  # type: ignore[attr-defined]


def page(client: Client, club: Club) -> str:
    response = client.get(f"/clubs/{club.slug}/")
    assert response.status_code == 200
    return response.content.decode()


# --- the list -------------------------------------------------------------------------------


def test_the_list_shows_the_clubs_and_a_search_narrows_it(leader: User) -> None:
    services.do_create_club(user=leader, name="Boardwalk Regulars")
    services.do_create_club(user=leader, name="Railroad Barons", description="Four stations")
    everyone = Client().get("/clubs/").content.decode()
    assert "Boardwalk Regulars" in everyone and "Railroad Barons" in everyone
    assert "to start or join a club" in everyone  # anonymous: a login link, no form
    found = Client().get("/clubs/", {"q": "stations"}).content.decode()
    assert "Railroad Barons" in found and "Boardwalk Regulars" not in found


def test_the_list_offers_an_invitation_to_its_invitee(
    club: Club, leader: User, alice: User
) -> None:
    services.do_invite(club=club, leader=leader, target=alice)
    mine = client_for(alice).get("/clubs/").content.decode()
    assert "you are invited" in mine
    assert f'action="/clubs/{club.slug}/invitation"' in mine


def test_creating_a_club_leads_to_its_page(alice: User) -> None:
    response = client_for(alice).post("/clubs/new", {"name": "Go Collectors", "policy": "request"})
    club = Club.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.slug}/"
    assert Membership.objects.get(club=club, user=alice).role == Membership.Role.LEADER


def test_a_refused_name_comes_back_with_why(club: Club, alice: User) -> None:
    response = client_for(alice).post("/clubs/new", {"name": "Park P1ace Society"})
    assert response.status_code == 302 and response["Location"] == "/clubs/"
    assert any("too like the name of another club" in m for m in said(response))
    assert Club.objects.count() == 1


# --- the club page --------------------------------------------------------------------------


def test_anyone_sees_the_members_with_the_leaders_marked_and_first(
    club: Club, leader: User, alice: User
) -> None:
    member(club, alice)
    html = page(Client(), club)
    assert "lena" in html and "alice" in html
    assert html.count('class="club-badge"') == 1
    members = html[html.index('id="members-heading"') :]
    assert members.index("lena") < members.index("alice")  # leaders first
    assert "Only the club's members read and write its chat." not in html  # no pane at all


def test_only_leaders_see_requests_and_the_leaders_tools(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    services.do_edit_club(club=club, leader=leader, description="", policy="request")
    member(club, alice)
    services.do_join(club=club, user=bob)
    led = page(client_for(leader), club)
    assert "Asking to join" in led and "/people/bob/accept" in led
    assert f'href="/tournaments/new?club={club.slug}"' in led
    plain = page(client_for(alice), club)
    assert "Asking to join" not in plain and "/tournaments/new" not in plain
    assert "Lead the club" not in plain


def test_the_page_lists_the_members_public_games_under_way_only(
    club: Club, alice: User, bob: User, duel: Game, private_duel: Game
) -> None:
    member(club, alice)
    with setup_writes("a finished game of alice's"):
        finished = Game.objects.create(host=alice, status=Game.Status.FINISHED)
        Seat.objects.create(game=finished, number=0, user=alice)
    html = page(Client(), club)
    assert duel.public_id in html
    assert private_duel.public_id not in html
    assert finished.public_id not in html


def test_the_leaderboard_ranks_members_by_their_site_rating(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    PlayerRating.objects.create(user=alice, pool=Pool.REGULAR, ordinal=10.0, games=12)
    PlayerRating.objects.create(user=leader, pool=Pool.REGULAR, ordinal=2.0, games=3)
    PlayerRating.objects.create(user=bob, pool=Pool.REGULAR, ordinal=30.0, games=40)  # not a member
    html = page(Client(), club)
    board = html[html.index("Club leaderboard") :]
    assert board.index("alice") < board.index("lena")
    assert "bob" not in board
    assert "1900" in board  # alice: 1500 + 40 * 10


def test_the_page_lists_the_clubs_events(club: Club, leader: User) -> None:
    from tournaments.models import Tournament

    Tournament.objects.create(
        name="Tuesday Swiss", club=club, starts_at=timezone.now() + dt.timedelta(days=1), seed=7
    )
    Tournament.objects.create(name="Site Daily", starts_at=timezone.now(), seed=8)
    html = page(Client(), club)
    assert "Tuesday Swiss" in html and "Site Daily" not in html


def test_an_unknown_club_is_missing() -> None:
    assert Client().get("/clubs/no-such-club/").status_code == 404


# --- the POSTs ------------------------------------------------------------------------------


def test_joining_an_open_club_makes_a_member(club: Club, alice: User) -> None:
    response = client_for(alice).post(f"/clubs/{club.slug}/join")
    assert response["Location"] == f"/clubs/{club.slug}/"
    assert "Welcome to Park Place Society." in said(response)
    assert "Leave the club" in page(client_for(alice), club)


def test_joining_an_invitation_only_club_is_refused_with_why(
    club: Club, leader: User, alice: User
) -> None:
    services.do_edit_club(club=club, leader=leader, description="", policy="invite")
    response = client_for(alice).post(f"/clubs/{club.slug}/join")
    assert "This club takes new members by invitation only." in said(response)
    assert not Membership.objects.filter(user=alice).exists()


def test_a_member_cannot_ban_and_nothing_changes(club: Club, alice: User, bob: User) -> None:
    member(club, alice)
    member(club, bob)
    response = client_for(alice).post(f"/clubs/{club.slug}/people/bob/ban")
    assert "Only the club's leaders can do that." in said(response)
    assert Membership.objects.get(user=bob).status == Membership.Status.MEMBER


@pytest.mark.parametrize(
    ("action", "data", "expect"),
    [
        ("promote", {}, {"role": "leader"}),
        ("ban", {}, {"status": "banned"}),
        ("remove", {}, None),
        ("mute", {"minutes": "60"}, {"muted": True}),
    ],
)
def test_a_leader_acts_on_a_member(
    club: Club, leader: User, alice: User, action: str, data: dict[str, str], expect: Any
) -> None:
    member(club, alice)
    response = client_for(leader).post(f"/clubs/{club.slug}/people/alice/{action}", data)
    assert response.status_code == 302
    row = Membership.objects.filter(club=club, user=alice).first()
    if expect is None:
        assert row is None
        return
    assert row is not None
    if "muted" in expect:
        assert row.chat_muted_until is not None and row.chat_muted_until > timezone.now()
    for field, value in expect.items():
        if field != "muted":
            assert getattr(row, field) == value


def test_an_unknown_action_is_missing(club: Club, leader: User) -> None:
    response = client_for(leader).post(f"/clubs/{club.slug}/people/lena/explode")
    assert response.status_code == 404


def test_a_leader_invites_by_username_and_hears_of_an_unknown_one(
    club: Club, leader: User, alice: User
) -> None:
    client = client_for(leader)
    client.post(f"/clubs/{club.slug}/invite", {"username": "alice"})
    assert Membership.objects.get(user=alice).status == Membership.Status.INVITED
    response = client.post(f"/clubs/{club.slug}/invite", {"username": "nobody-here"})
    assert "There is no player of that name." in said(response)


def test_a_leader_edits_the_club(club: Club, leader: User) -> None:
    client_for(leader).post(
        f"/clubs/{club.slug}/edit", {"description": "We meet on Fridays.", "policy": "request"}
    )
    html = page(Client(), club)
    assert "We meet on Fridays." in html and "By request" in html


def test_anonymous_posts_go_to_the_login(club: Club) -> None:
    response = Client().post(f"/clubs/{club.slug}/join")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_stranger_sees_how_to_join_by_the_policy(club: Club, leader: User) -> None:
    stranger = make_user("sam")
    assert "Join the club" in page(client_for(stranger), club)
    services.do_edit_club(club=club, leader=leader, description="", policy="request")
    assert "Ask to join" in page(client_for(stranger), club)


def test_a_big_clubs_members_come_a_page_at_a_time(
    club: Club, leader: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("clubs.reads.MEMBERS_PAGE", 2)
    for name in ("ann", "ben", "cat", "dan"):
        member(club, make_user(name))
    first = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert "5 members" in first and "Page 1 of 3" in first
    assert ">lena</a>" in first and ">ann</a>" in first and ">ben</a>" not in first
    assert "?members=2" in first
    last = Client().get(f"/clubs/{club.slug}/?members=3").content.decode()
    assert ">dan</a>" in last and ">ann</a>" not in last and "Page 3 of 3" in last
    # A page out of range or not a number shows the nearest one, never an error.
    assert "Page 3 of 3" in Client().get(f"/clubs/{club.slug}/?members=99").content.decode()
    assert "Page 1 of 3" in Client().get(f"/clubs/{club.slug}/?members=x").content.decode()
