"""Creating clubs and belonging to them: names, policies, invitations,
bans and the last-leader rule (``clubs.services``)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from clubs import services
from clubs.errors import BadName, ClubError, MembershipRefused, NotLeader, TooManyClubs
from clubs.models import Club, Membership
from people import services as people
from tests.clubs.conftest import make_user, member

pytestmark = pytest.mark.django_db
Status = Membership.Status


def status(club: Club, user: User) -> str | None:
    row = Membership.objects.filter(club=club, user=user).first()
    return None if row is None else row.status


def role(club: Club, user: User) -> str:
    return Membership.objects.get(club=club, user=user).role


# --- creating a club ----------------------------------------------------------------------


def test_the_creator_leads_the_new_club_under_a_slug_of_its_name(leader: User) -> None:
    club = services.do_create_club(user=leader, name="Boardwalk  Regulars", policy="request")
    assert (club.name, club.slug, club.policy) == (
        "Boardwalk Regulars",
        "boardwalk-regulars",
        "request",
    )
    assert status(club, leader) == Status.MEMBER
    assert role(club, leader) == Membership.Role.LEADER


@pytest.mark.parametrize(
    "look_alike",
    [
        "park place society",
        "PARK PLACE SOCIETY",
        "Park PIace Society",
        "Park P1ace Society",
        "\u0420\u0430rk Place Society",
        "\uff30\uff41\uff52\uff4b Place Society",
    ],
)
def test_refuses_a_name_that_looks_like_another_clubs(
    club: Club, alice: User, look_alike: str
) -> None:
    with pytest.raises(BadName):
        services.do_create_club(user=alice, name=look_alike)
    assert Club.objects.count() == 1


def test_the_refusal_of_a_look_alike_names_the_club_it_looks_like(club: Club, alice: User) -> None:
    with pytest.raises(BadName, match=r"“Park P1ace Society” is too like .*“Park Place Society”"):
        services.do_create_club(user=alice, name="Park P1ace Society")


def test_names_that_only_look_alike_to_a_careless_eye_are_two_clubs(alice: User) -> None:
    services.do_create_club(user=alice, name="Eli's table")
    services.do_create_club(user=alice, name="Ell's table")
    assert Club.objects.count() == 2


@pytest.mark.parametrize(
    "name", ["Dumbass Club", "Dumb4ss club", "ab", "x" * 61, "Hidden\u200bname"]
)
def test_refuses_offensive_short_long_and_hidden_names(alice: User, name: str) -> None:
    with pytest.raises(BadName):
        services.do_create_club(user=alice, name=name)
    assert not Club.objects.exists()


def test_two_names_with_one_slug_get_two_slugs(alice: User) -> None:
    first = services.do_create_club(user=alice, name="Free Parking")
    second = services.do_create_club(user=alice, name="Free-Parking!")
    assert (first.slug, second.slug) == ("free-parking", "free-parking-2")


def test_an_account_creates_at_most_its_quota_of_clubs(alice: User, settings: Any) -> None:
    settings.CLUBS_PER_ACCOUNT = 1
    services.do_create_club(user=alice, name="First Club")
    with pytest.raises(TooManyClubs):
        services.do_create_club(user=alice, name="Second Club")
    assert Club.objects.count() == 1


def test_refuses_an_offensive_description_and_an_unknown_policy(alice: User) -> None:
    with pytest.raises(ClubError):
        services.do_create_club(user=alice, name="Nice Club", description="you dumbass")
    with pytest.raises(ClubError):
        services.do_create_club(user=alice, name="Nice Club", policy="secret")
    assert not Club.objects.exists()


def test_a_leader_edits_the_description_and_policy_a_member_cannot(
    club: Club, leader: User, alice: User
) -> None:
    services.do_edit_club(club=club, leader=leader, description="Tuesdays.", policy="invite")
    club.refresh_from_db()
    assert (club.description, club.policy) == ("Tuesdays.", "invite")
    member(club, alice)
    with pytest.raises(NotLeader):
        services.do_edit_club(club=club, leader=alice, description="mine", policy="open")
    club.refresh_from_db()
    assert club.description == "Tuesdays."


# --- joining by policy ------------------------------------------------------------------


def test_an_open_club_takes_a_member_at_once(club: Club, alice: User) -> None:
    services.do_join(club=club, user=alice)
    assert status(club, alice) == Status.MEMBER
    with pytest.raises(MembershipRefused, match="member already"):
        services.do_join(club=club, user=alice)


def test_a_request_waits_for_a_leader_who_accepts_or_declines(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    services.do_edit_club(club=club, leader=leader, description="", policy="request")
    services.do_join(club=club, user=alice)
    services.do_join(club=club, user=bob)
    assert status(club, alice) == Status.REQUESTED
    with pytest.raises(MembershipRefused, match="asked to join already"):
        services.do_join(club=club, user=alice)
    services.do_answer_request(club=club, leader=leader, target=alice, accept=True)
    services.do_answer_request(club=club, leader=leader, target=bob, accept=False)
    assert (status(club, alice), status(club, bob)) == (Status.MEMBER, None)


def test_a_member_cannot_answer_requests(club: Club, leader: User, alice: User, bob: User) -> None:
    services.do_edit_club(club=club, leader=leader, description="", policy="request")
    member(club, alice)
    services.do_join(club=club, user=bob)
    with pytest.raises(NotLeader):
        services.do_answer_request(club=club, leader=alice, target=bob, accept=True)
    assert status(club, bob) == Status.REQUESTED


def test_an_invitation_only_club_takes_only_the_invited(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    services.do_edit_club(club=club, leader=leader, description="", policy="invite")
    with pytest.raises(MembershipRefused, match="invitation only"):
        services.do_join(club=club, user=alice)
    services.do_invite(club=club, leader=leader, target=alice)
    services.do_invite(club=club, leader=leader, target=bob)
    services.do_answer_invitation(club=club, user=alice, accept=True)
    services.do_answer_invitation(club=club, user=bob, accept=False)
    assert (status(club, alice), status(club, bob)) == (Status.MEMBER, None)


def test_inviting_someone_who_asked_takes_them_in(club: Club, leader: User, alice: User) -> None:
    services.do_edit_club(club=club, leader=leader, description="", policy="request")
    services.do_join(club=club, user=alice)
    services.do_invite(club=club, leader=leader, target=alice)
    assert status(club, alice) == Status.MEMBER


def test_a_leader_withdraws_an_invitation(club: Club, leader: User, alice: User) -> None:
    services.do_invite(club=club, leader=leader, target=alice)
    services.do_cancel_invitation(club=club, leader=leader, target=alice)
    assert status(club, alice) is None
    with pytest.raises(MembershipRefused):
        services.do_answer_invitation(club=club, user=alice, accept=True)


# --- invitations respect blocks and privacy -----------------------------------------------


def test_someone_who_blocked_the_leader_cannot_be_invited_and_the_words_do_not_say_so(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    people.do_block(alice, leader)
    with pytest.raises(MembershipRefused) as blocked:
        services.do_invite(club=club, leader=leader, target=alice)
    User.objects.filter(pk=bob.pk).update(challenge_from="nobody")
    bob.refresh_from_db()
    with pytest.raises(MembershipRefused) as private:
        services.do_invite(club=club, leader=leader, target=bob)
    assert str(blocked.value) == "alice is not accepting invitations from you."
    assert str(private.value) == "bob is not accepting invitations from you."
    assert status(club, alice) is None and status(club, bob) is None


def test_someone_taking_no_messages_from_the_leader_cannot_be_invited(
    club: Club, leader: User, alice: User
) -> None:
    User.objects.filter(pk=alice.pk).update(message_from="following")
    alice.refresh_from_db()
    with pytest.raises(MembershipRefused, match="not accepting invitations"):
        services.do_invite(club=club, leader=leader, target=alice)
    people.do_follow(alice, leader)
    services.do_invite(club=club, leader=leader, target=alice)
    assert status(club, alice) == Status.INVITED


# --- leaving, removing, banning -----------------------------------------------------------


def test_a_member_leaves_and_may_come_back(club: Club, alice: User) -> None:
    services.do_join(club=club, user=alice)
    services.do_leave(club=club, user=alice)
    assert status(club, alice) is None
    services.do_join(club=club, user=alice)
    assert status(club, alice) == Status.MEMBER


def test_a_removed_member_may_rejoin_an_open_club(club: Club, leader: User, alice: User) -> None:
    member(club, alice)
    services.do_remove(club=club, leader=leader, target=alice)
    assert status(club, alice) is None
    services.do_join(club=club, user=alice)
    assert status(club, alice) == Status.MEMBER


def test_a_banned_person_can_neither_rejoin_nor_ask_nor_be_invited(
    club: Club, leader: User, alice: User
) -> None:
    member(club, alice)
    services.do_ban(club=club, leader=leader, target=alice)
    with pytest.raises(MembershipRefused, match="cannot join"):
        services.do_join(club=club, user=alice)
    services.do_edit_club(club=club, leader=leader, description="", policy="request")
    with pytest.raises(MembershipRefused, match="cannot join"):
        services.do_join(club=club, user=alice)
    with pytest.raises(MembershipRefused, match="banned"):
        services.do_invite(club=club, leader=leader, target=alice)
    assert status(club, alice) == Status.BANNED
    services.do_unban(club=club, leader=leader, target=alice)
    services.do_join(club=club, user=alice)
    assert status(club, alice) == Status.REQUESTED


def test_a_stranger_can_be_banned_before_they_ever_join(
    club: Club, leader: User, alice: User
) -> None:
    services.do_ban(club=club, leader=leader, target=alice)
    with pytest.raises(MembershipRefused):
        services.do_join(club=club, user=alice)


def test_members_cannot_remove_or_ban(club: Club, alice: User, bob: User) -> None:
    member(club, alice)
    member(club, bob)
    with pytest.raises(NotLeader):
        services.do_remove(club=club, leader=alice, target=bob)
    with pytest.raises(NotLeader):
        services.do_ban(club=club, leader=alice, target=bob)
    assert status(club, bob) == Status.MEMBER


def test_a_banned_leader_loses_the_lead(club: Club, leader: User, alice: User) -> None:
    member(club, alice)
    services.do_set_leader(club=club, leader=leader, target=alice, make_leader=True)
    services.do_ban(club=club, leader=leader, target=alice)
    assert Membership.objects.get(club=club, user=alice).role == Membership.Role.MEMBER


# --- the last leader ----------------------------------------------------------------------


def test_the_only_leader_can_neither_leave_nor_step_down(
    club: Club, leader: User, alice: User
) -> None:
    member(club, alice)
    with pytest.raises(MembershipRefused, match="at least one leader"):
        services.do_leave(club=club, user=leader)
    with pytest.raises(MembershipRefused, match="at least one leader"):
        services.do_set_leader(club=club, leader=leader, target=leader, make_leader=False)
    assert role(club, leader) == Membership.Role.LEADER


def test_a_leader_hands_over_and_then_steps_down(club: Club, leader: User, alice: User) -> None:
    member(club, alice)
    services.do_set_leader(club=club, leader=leader, target=alice, make_leader=True)
    services.do_set_leader(club=club, leader=leader, target=leader, make_leader=False)
    assert (role(club, alice), role(club, leader)) == (
        Membership.Role.LEADER,
        Membership.Role.MEMBER,
    )
    with pytest.raises(MembershipRefused, match="at least one leader"):
        services.do_set_leader(club=club, leader=alice, target=alice, make_leader=False)
    services.do_leave(club=club, user=leader)
    assert status(club, leader) is None


def test_a_leader_cannot_act_on_themself(club: Club, leader: User) -> None:
    with pytest.raises(MembershipRefused, match="That is you"):
        services.do_remove(club=club, leader=leader, target=leader)
    with pytest.raises(MembershipRefused, match="That is you"):
        services.do_ban(club=club, leader=leader, target=leader)
    assert role(club, leader) == Membership.Role.LEADER


def test_a_second_account_joins_its_own_clubs_quota(settings: Any) -> None:
    settings.CLUBS_PER_ACCOUNT = 1
    for name in ("one", "two"):
        services.do_create_club(user=make_user(name), name=f"Club of {name}")
    assert Club.objects.count() == 2
