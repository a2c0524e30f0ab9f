"""A club tells people what concerns them: the invitee of an invitation,
the leaders of a request to join, the new member of their acceptance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from clubs import services
from clubs.models import Club
from notifications.models import Notification
from people import services as people

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """Run a service as if its write committed: the notices go out then."""

    def run(service: Callable[..., Any], **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return run


def club_notices(user: User) -> list[str]:
    return list(
        Notification.objects.filter(user=user, kind=Notification.Kind.CLUB).values_list(
            "text", flat=True
        )
    )


def test_an_invitation_is_a_notice_to_the_invitee_leading_to_the_club(
    committed: Callable[..., Any], club: Club, leader: User, alice: User
) -> None:
    committed(services.do_invite, club=club, leader=leader, target=alice)
    note = Notification.objects.get(user=alice, kind=Notification.Kind.CLUB)
    assert "invited you to the club Park Place Society" in note.text
    assert note.url == f"/clubs/{club.slug}/"


def test_a_request_is_a_notice_to_each_leader_and_its_acceptance_to_the_asker(
    committed: Callable[..., Any], club: Club, leader: User, alice: User
) -> None:
    committed(services.do_edit_club, club=club, leader=leader, description="", policy="request")
    committed(services.do_join, club=club, user=alice)
    assert club_notices(leader) == [
        f"{alice.public_name} asks to join the club Park Place Society."
    ]
    committed(services.do_answer_request, club=club, leader=leader, target=alice, accept=True)
    assert club_notices(alice) == ["You are now a member of the club Park Place Society."]


def test_a_leader_who_blocked_the_asker_is_not_told_of_the_request(
    committed: Callable[..., Any], club: Club, leader: User, alice: User
) -> None:
    committed(services.do_edit_club, club=club, leader=leader, description="", policy="request")
    people.do_block(leader, alice)
    committed(services.do_join, club=club, user=alice)
    assert club_notices(leader) == []
    assert club.memberships.filter(user=alice, status="requested").exists()


def test_a_refused_invitation_tells_nobody(
    committed: Callable[..., Any], club: Club, leader: User, alice: User
) -> None:
    people.do_block(alice, leader)
    with pytest.raises(services.MembershipRefused):
        committed(services.do_invite, club=club, leader=leader, target=alice)
    assert club_notices(alice) == []
