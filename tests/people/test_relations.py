from __future__ import annotations

import pytest

from accounts.models import User
from people import relations, reports, services
from people.errors import PeopleError, Refused
from people.models import Audience, Case, Follow, Report


def test_follow_is_one_way_and_mutual_follows_make_friends(alice: User, bob: User) -> None:
    assert services.do_follow(alice, bob) is True
    assert relations.follows(alice, bob)
    assert not relations.follows(bob, alice)
    assert relations.friend_ids(alice) == set()
    services.do_follow(bob, alice)
    assert relations.friend_ids(alice) == {bob.pk}
    assert relations.friend_ids(bob) == {alice.pk}


def test_a_second_follow_changes_nothing(alice: User, bob: User) -> None:
    services.do_follow(alice, bob)
    assert services.do_follow(alice, bob) is False
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1


def test_rejects_following_yourself(alice: User) -> None:
    with pytest.raises(PeopleError):
        services.do_follow(alice, alice)


def test_blocking_stops_following_them_but_keeps_their_follow(alice: User, bob: User) -> None:
    services.do_follow(alice, bob)
    services.do_follow(bob, alice)
    services.do_block(alice, bob)
    assert not relations.follows(alice, bob)
    assert relations.follows(bob, alice)
    assert relations.blocks(alice, bob)
    assert not relations.blocks(bob, alice)
    assert relations.blocked_either_way(bob, alice)


def test_a_block_reads_as_the_privacy_refusal(alice: User, bob: User, carol: User) -> None:
    services.do_block(alice, bob)
    with pytest.raises(Refused) as blocked:
        relations.check_may_challenge(bob, alice)
    carol.challenge_from = Audience.NOBODY
    carol.save()
    with pytest.raises(Refused) as private:
        relations.check_may_challenge(bob, carol)
    assert blocked.value.message.replace("alice", "X") == private.value.message.replace(
        "carol", "X"
    )


def test_following_only_lets_people_they_follow_through(alice: User, bob: User) -> None:
    alice.message_from = Audience.FOLLOWING
    alice.save()
    with pytest.raises(Refused):
        relations.check_may_message(bob, alice)
    services.do_follow(alice, bob)
    relations.check_may_message(bob, alice)


def test_muted_and_blocked_authors_are_hidden(alice: User, bob: User, carol: User) -> None:
    services.do_mute(alice, bob)
    services.do_block(alice, carol)
    assert relations.hidden_author_ids(alice) == {bob.pk, carol.pk}
    services.do_unmute(alice, bob)
    assert relations.hidden_author_ids(alice) == {carol.pk}
    assert relations.hidden_author_ids(bob) == set()


def test_reports_against_one_person_share_one_case(alice: User, bob: User, carol: User) -> None:
    first = reports.file_report(
        reporter=alice, reported=bob, reason="abuse", source="profile", text="rude"
    )
    second = reports.file_report(reporter=carol, reported=bob, reason="spam", source="profile")
    auto = reports.file_report(reporter=None, reported=bob, reason="abuse", source="filter")
    assert first.case_id == second.case_id == auto.case_id
    assert auto.auto and not first.auto
    assert Case.objects.count() == 1


def test_rejects_a_report_with_nul_or_an_unknown_reason(alice: User, bob: User) -> None:
    with pytest.raises(PeopleError):
        reports.file_report(
            reporter=alice, reported=bob, reason="abuse", source="chat", text="a\x00"
        )
    with pytest.raises(PeopleError):
        reports.file_report(reporter=alice, reported=bob, reason="meanie", source="chat")
    assert Report.objects.count() == 0
