"""The tournament pages: the list, an event's page (settings, standings,
tables, byes), the entry box's reasons, joining and withdrawing through
the views, the create form, club-only privacy, and the seed kept back."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from clubs.models import Club, Membership
from tests.people.conftest import make_user
from tests.tournaments.page_world import SEED, enter, event, running
from tournaments.models import Bar, Entry, Tournament
from tournaments.pairing import default_points

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, t: Tournament) -> str:
    response = client.get(reverse("tournament", args=[t.pk]))
    assert response.status_code == 200
    return response.content.decode()


def club_with(*members: User, name: str = "Park Lane") -> Club:
    club = Club.objects.create(slug=name.lower().replace(" ", "-"), name=name, name_key=name)
    for user in members:
        Membership.objects.create(club=club, user=user, status=Membership.Status.MEMBER)
    return club


# --- the list ---------------------------------------------------------------------------


def test_lists_upcoming_running_and_finished_events(client: Client) -> None:
    enter(event("Next week's Swiss"), make_user("early"), make_user("keen"))
    event("Being played", status=Tournament.Status.RUNNING, current_round=2)
    winner = make_user("champ")
    event("Last month's", status=Tournament.Status.FINISHED, winner=winner)
    html = client.get(reverse("tournaments")).content.decode()
    upcoming, rest = html.split('id="running-heading"')
    running_part, finished = rest.split('id="finished-heading"')
    assert "Next week&#x27;s Swiss" in upcoming and "2 players" in upcoming
    assert "Being played" in running_part and "Round 2 being played" in running_part
    assert "Last month&#x27;s" in finished and "Won by champ" in finished


def test_a_clubs_members_only_event_is_listed_to_its_members_only(client: Client) -> None:
    member, outsider = make_user("member"), make_user("outsider")
    club = club_with(member)
    event("Members' cup", club=club, members_only=True)
    event("Club open", club=club)
    assert "Members&#x27; cup" not in client.get(reverse("tournaments")).content.decode()
    assert (
        "Members&#x27; cup" not in signed_in(outsider).get(reverse("tournaments")).content.decode()
    )
    html = signed_in(member).get(reverse("tournaments")).content.decode()
    assert "Members&#x27; cup" in html and "Club open" in html
    assert "Club open" in client.get(reverse("tournaments")).content.decode()


def test_a_clubs_members_only_event_does_not_exist_for_outsiders(client: Client) -> None:
    member, outsider = make_user("member"), make_user("outsider")
    t = event("Members' cup", club=club_with(member), members_only=True)
    url = reverse("tournament", args=[t.pk])
    assert client.get(url).status_code == 404
    assert signed_in(outsider).get(url).status_code == 404
    assert signed_in(member).get(url).status_code == 200


def test_the_nav_links_to_tournaments_and_clubs(client: Client) -> None:
    html = client.get(reverse("tournaments")).content.decode()
    assert 'href="/tournaments/" aria-current="page"' in html
    assert 'href="/clubs/"' in html


# --- an event's page --------------------------------------------------------------------


def test_the_page_states_the_format_and_settings_in_words(client: Client) -> None:
    t = event(rounds=4, turn_seconds=2 * 86400, cap_days=10, cap_turns=0, rated=False)
    html = page(client, t)
    for words in (
        "Table Swiss",
        "4 rounds",
        "3 players a table (2 to 4)",
        " / ".join(f"{p:g}" for p in default_points(3)),
        "2 days",
        "10 days, then places go by net worth",
        "the games change no rating",
    ):
        assert words in html, words


def test_the_page_shows_standings_with_tie_break_columns_and_each_tables_game() -> None:
    world = running()
    html = page(Client(), world.tournament)
    standings = html.split('id="standings"')[1].split("</section>")[0]
    for column in ("Points", "Opp.", "Places", "Net worth", "Games", "Byes"):
        assert column in standings
    names = re.findall(r'href="/u/(p\d)/"', standings)
    # 3 points; then 1 each, the second place's opponents having more points than a bye's none.
    assert names[:3] == ["p1", "p2", "p7"]
    assert 'data-version="7"' in standings
    assert "<td>$3,000</td>" in standings  # net worth as money
    rounds = html.split('id="rounds"')[1]
    assert world.finished_game.get_absolute_url() in rounds
    assert world.live_game.get_absolute_url() in rounds
    assert "Table 1" in rounds and "Table 2" in rounds
    assert "Byes:" in rounds and "p7" in rounds.split("Byes:")[1]
    assert "Watch" in rounds and "See the game" in rounds


def test_the_seed_never_shows_while_the_event_runs() -> None:
    world = running()
    client = signed_in(make_user("onlooker"))
    assert str(SEED) not in page(client, world.tournament)
    assert str(SEED) not in page(Client(), world.tournament)
    upcoming = event("Upcoming")
    assert str(SEED) not in page(client, upcoming)
    world.tournament.status = Tournament.Status.FINISHED
    world.tournament.save(update_fields=["status"])
    assert str(SEED) in page(client, world.tournament)


def test_an_anonymous_visitor_is_told_to_log_in_to_join(client: Client) -> None:
    html = page(client, event())
    assert "Log in to join this tournament." in html
    assert (
        reverse("tournament_join", args=[1]).replace("/1/", "/") not in html
        or "Join</button>" not in html
    )


def test_the_join_button_shows_for_an_open_event(client: Client) -> None:
    t = event()
    html = page(signed_in(make_user("keen")), t)
    assert f'action="{reverse("tournament_join", args=[t.pk])}"' in html
    assert "Join</button>" in html


def test_a_closed_event_says_why_one_cannot_join() -> None:
    world = running()
    world.tournament.current_round = 2
    world.tournament.rounds = 3
    world.tournament.save()
    html = page(signed_in(make_user("late")), world.tournament)
    assert "Registration for this tournament is closed." in html
    assert "tournament_join" not in html and "Join</button>" not in html


def test_a_player_suspended_from_rated_play_is_told_why_there_is_no_join_button() -> None:
    t = event()  # rated
    suspended = make_user("suspended")
    suspended.rated_suspended = True
    suspended.save(update_fields=["rated_suspended"])
    html = page(signed_in(suspended), t)
    assert "Your account is suspended from rated play" in html
    assert "Join</button>" not in html


def test_a_barred_player_is_told_until_when() -> None:
    t = event()
    barred = make_user("absent")
    Bar.objects.create(
        user=barred, tournament=event("Earlier"), until=timezone.now() + timedelta(days=3)
    )
    html = page(signed_in(barred), t)
    assert "You missed a tournament game, so you cannot join tournaments until" in html
    assert "Join</button>" not in html


def test_a_full_event_says_so() -> None:
    t = event(max_players=2)
    enter(t, make_user("a1"), make_user("a2"))
    html = page(signed_in(make_user("third")), t)
    assert "This tournament is full." in html


def test_a_non_member_is_told_a_club_event_is_for_members(client: Client) -> None:
    leader, member = make_user("leader"), make_user("member")
    club = club_with(leader)
    t = event(club=club, members_only=False)
    Tournament.objects.filter(pk=t.pk).update(members_only=True)
    Membership.objects.create(club=club, user=member, status=Membership.Status.MEMBER)
    assert "Join</button>" in page(signed_in(member), t)


def test_an_entrant_sees_withdraw_and_their_next_game(monkeypatch: Any) -> None:
    world = running()
    player = world.players[4]  # seated at the table in play
    from tournaments import pages

    monkeypatch.setattr(pages, "your_next_game", lambda t, user: world.live_game)
    html = page(signed_in(player), world.tournament)
    assert "You are playing in this tournament." in html
    assert f'action="{reverse("tournament_withdraw", args=[world.tournament.pk])}"' in html
    entry_box = html.split('id="tournament-entry"')[1].split('id="standings"')[0]
    assert world.live_game.get_absolute_url() in entry_box


# --- the profile ----------------------------------------------------------------------------


def test_a_profile_shows_tournament_results_and_no_shows(client: Client) -> None:
    champ = make_user("champ")
    won = event("Spring Swiss", status=Tournament.Status.FINISHED, finished_at=timezone.now())
    enter(won, champ, final_rank=1)
    enter(won, make_user("other"), final_rank=2)
    missed = event("Summer Swiss", status=Tournament.Status.RUNNING)
    enter(missed, champ, status=Entry.Status.NO_SHOW, no_shows=1)
    hidden = event(
        "Secret cup",
        status=Tournament.Status.FINISHED,
        club=club_with(name="Hidden"),
        members_only=True,
    )
    enter(hidden, champ, final_rank=1)
    html = client.get(reverse("profile", args=["champ"])).content.decode()
    assert "Tournament no-shows</dt><dd>1</dd>" in html
    assert "2 events played" in html and "1 won" in html
    assert f'href="/tournaments/{won.pk}/">Spring Swiss</a>: 1 of 2' in html
    assert "Secret cup" not in html


# --- joining and withdrawing through the views --------------------------------------------


def test_joining_through_the_page_enters_the_player_and_bumps_the_version() -> None:
    t = event()
    keen = make_user("keen")
    client = signed_in(keen)
    response = client.post(reverse("tournament_join", args=[t.pk]))
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournament", args=[t.pk]
    )
    assert Entry.objects.get(tournament=t, user=keen).status == Entry.Status.ACTIVE
    t.refresh_from_db()
    assert t.version == 1
    html = page(client, t)
    assert "You are in. Good luck!" in html
    assert "Yes, withdraw</button>" in html and ">keen</a>" in html.split('id="standings"')[1]


def test_an_htmx_join_answers_the_entry_box_and_the_live_regions() -> None:
    t = event()
    response = signed_in(make_user("keen")).post(
        reverse("tournament_join", args=[t.pk]), HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.startswith("<!--push 1 after 0-->")
    assert 'id="tournament-entry"' in html and "You are in. Good luck!" in html
    for region in ("standings", "rounds"):
        assert f'id="{region}"' in html
    assert html.count('data-version="1"') == 2 and html.count('hx-swap-oob="true"') == 2


def test_a_refused_join_says_why_and_changes_nothing() -> None:
    t = event(status=Tournament.Status.FINISHED)
    keen = make_user("keen")
    client = signed_in(keen)
    response = client.post(reverse("tournament_join", args=[t.pk]), follow=True)
    assert "This tournament is over." in response.content.decode()
    assert not Entry.objects.filter(tournament=t).exists()
    response = client.post(reverse("tournament_join", args=[t.pk]), HTTP_HX_REQUEST="true")
    assert 'role="alert">This tournament is over.' in response.content.decode()
    t.refresh_from_db()
    assert t.version == 0


def test_joining_twice_is_refused_with_a_message() -> None:
    t = event()
    keen = make_user("keen")
    enter(t, keen)
    response = signed_in(keen).post(reverse("tournament_join", args=[t.pk]), follow=True)
    assert "You are already in this tournament." in response.content.decode()
    assert Entry.objects.filter(tournament=t).count() == 1


def test_withdrawing_through_the_page_and_withdrawing_when_not_entered() -> None:
    t = event()
    keen, idle = make_user("keen"), make_user("idle")
    enter(t, keen)
    response = signed_in(keen).post(reverse("tournament_withdraw", args=[t.pk]), follow=True)
    assert "You have withdrawn from this tournament." in response.content.decode()
    assert Entry.objects.get(tournament=t, user=keen).status == Entry.Status.WITHDRAWN
    response = signed_in(idle).post(reverse("tournament_withdraw", args=[t.pk]), follow=True)
    assert "You are not in this tournament." in response.content.decode()
    assert not Entry.objects.filter(user=idle).exists()


def test_join_and_withdraw_need_a_post_and_a_sign_in(client: Client) -> None:
    t = event()
    for name in ("tournament_join", "tournament_withdraw"):
        url = reverse(name, args=[t.pk])
        assert client.post(url).status_code == 302  # to the login page
        assert signed_in(make_user(f"get-{name}")).get(url).status_code == 405
    assert not Entry.objects.exists()


def test_joining_a_members_only_event_of_another_club_is_a_404() -> None:
    t = event(club=club_with(make_user("member")), members_only=True)
    response = signed_in(make_user("outsider")).post(reverse("tournament_join", args=[t.pk]))
    assert response.status_code == 404
    assert not Entry.objects.filter(user__username="outsider").exists()


# --- creating an event -----------------------------------------------------------------


def form_data(**changes: Any) -> dict[str, Any]:
    starts = timezone.localtime() + timedelta(days=2)
    data = {
        "name": "Friday Swiss",
        "format": "swiss",
        "rounds": "3",
        "table_size": "4",
        "table_min": "3",
        "table_max": "5",
        "advance": "2",
        "group_size": "0",
        "group_final": "0",
        "preset": "us-2003",
        "turn_seconds": str(86400),
        "cap_days": "14",
        "cap_turns": "0",
        "rated": "on",
        "round_gap_seconds": str(86400),
        "max_players": "50",
        "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
    }
    data.update(changes)
    return data


def test_a_new_player_is_told_why_they_cannot_create_an_event() -> None:
    response = signed_in(make_user("newbie")).get(reverse("tournament_new"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Finish " in html and "games to create a tournament" in html
    assert '<form method="post" action="/tournaments/new"' not in html
    response = signed_in(User.objects.get(username="newbie")).post(
        reverse("tournament_new"), form_data()
    )
    assert response.status_code == 422
    assert not Tournament.objects.exists()


def test_staff_create_an_event_through_the_form() -> None:
    staff = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    client = signed_in(staff)
    assert 'name="every"' in client.get(reverse("tournament_new")).content.decode()
    response = client.post(reverse("tournament_new"), form_data())
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournament", args=[t.pk]
    )
    assert (t.name, t.table_size, t.rounds, t.created_by) == ("Friday Swiss", 4, 3, staff)


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"table_size": "6"}, "between the smallest and the largest table"),
        ({"cap_days": "0", "cap_turns": "0"}, "needs a length cap"),
        ({"starts_at": "2001-01-01T10:00"}, "at least a few minutes from now"),
        ({"name": ""}, "This field is required."),
        ({"format": "elimination", "advance": "3"}, "Fewer must go through"),
    ],
)
def test_the_create_form_refuses_bad_input_and_creates_nothing(
    changes: dict[str, str], says: str
) -> None:
    staff = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    response = signed_in(staff).post(reverse("tournament_new"), form_data(**changes))
    assert response.status_code == 422
    assert says in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_club_leader_may_create_an_event_for_their_club_only() -> None:
    leader = make_user("leader")
    club = club_with(name="Mayfair")
    Membership.objects.create(
        club=club, user=leader, status=Membership.Status.MEMBER, role=Membership.Role.LEADER
    )
    client = signed_in(leader)
    html = client.get(reverse("tournament_new")).content.decode()
    assert "As a club leader you can still create an event for your club." in html
    response = client.post(
        reverse("tournament_new"), form_data(club=str(club.pk), members_only="on")
    )
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert (t.club, t.members_only) == (club, True)


def test_a_uk_events_net_worth_is_in_pounds() -> None:
    world = running()
    Tournament.objects.filter(pk=world.tournament.pk).update(preset="uk")
    standings = page(Client(), world.tournament).split('id="standings"')[1]
    assert "<td>£3,000</td>" in standings.split("</section>")[0]
