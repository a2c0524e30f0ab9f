"""The moderation queue: who may see it, its order, claiming a case (one
winner of two at once, on real connections), and each action taking effect
at once, logged, with the reporters told the outcome."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import Group
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.models import User
from api import tokens
from api.models import ApiToken
from games.models import Game
from live.models import ChatMessage
from notifications.models import Notification
from people.models import Case, ModAction, Report
from people.reports import file_report
from people.signals import standing_changed
from social import moderation
from tests.social.conftest import client_for, make_moderator, say

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def errors(response: Any) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages if m.level_tag == "error"]


def reported_case(reported: User, *reporters: User, reason: str = "abuse") -> Case:
    for reporter in reporters:
        file_report(reporter=reporter, reported=reported, reason=reason, source="profile")
    return Case.objects.get(user=reported, status__in=["open", "claimed"])


def claimed(case: Case, moderator: User) -> Case:
    response = client_for(moderator).post(f"/mod/cases/{case.pk}/claim")
    assert response.status_code == 302 and not errors(response)
    case.refresh_from_db()
    return case


def act(
    case: Case, moderator: User, kind: str, reason: str = "broke the rules", **more: Any
) -> Any:
    data = {"kind": kind, "reason": reason, **more}
    return client_for(moderator).post(f"/mod/cases/{case.pk}/act", data)


# --- who may moderate ------------------------------------------------------------------


def test_the_queue_is_for_moderators_and_missing_for_everyone_else(
    alice: User, bob: User, moderator: User
) -> None:
    reported_case(alice, bob)
    assert Client().get("/mod/").status_code == 302
    assert client_for(bob).get("/mod/").status_code == 404
    staff_only = User.objects.create_user("staffer", "s@example.com", "pw-staffer-123")
    staff_only.is_staff = True
    staff_only.save()
    assert client_for(staff_only).get("/mod/").status_code == 404
    page = client_for(moderator).get("/mod/")
    assert page.status_code == 200 and "alice" in page.content.decode()


def test_the_moderators_group_carries_the_permission(moderator: User) -> None:
    group = Group.objects.get(name="Moderators")
    assert group.permissions.filter(codename="moderate", content_type__app_label="people").exists()
    assert moderation.may_moderate(moderator)


def test_a_non_moderator_cannot_claim_or_act(alice: User, bob: User, charlie: User) -> None:
    case = reported_case(alice, bob)
    assert client_for(charlie).post(f"/mod/cases/{case.pk}/claim").status_code == 404
    assert client_for(charlie).get(f"/mod/cases/{case.pk}/").status_code == 404
    response = client_for(charlie).post(
        f"/mod/cases/{case.pk}/act", {"kind": "close", "reason": "x"}
    )
    assert response.status_code == 404
    case.refresh_from_db()
    alice.refresh_from_db()
    assert case.status == Case.Status.OPEN and alice.is_active and not ModAction.objects.exists()


# --- the queue --------------------------------------------------------------------------


def test_the_queue_puts_the_case_with_more_reporters_first(
    alice: User, bob: User, charlie: User, moderator: User
) -> None:
    dave = User.objects.create_user("dave", "d@example.com", "pw-dave-12345")
    reported_case(dave, alice)
    reported_case(bob, alice, charlie, dave)
    rows = moderation.queue()
    assert [row.case.user for row in rows] == [bob, dave]
    assert (rows[0].reports, rows[0].reporters) == (3, 3)


def test_a_reporter_whose_reports_were_dismissed_pushes_a_case_less(
    alice: User, bob: User, charlie: User, moderator: User
) -> None:
    dave = User.objects.create_user("dave", "d@example.com", "pw-dave-12345")
    for _ in range(3):  # charlie's reports of dave are looked at and dismissed
        case = claimed(reported_case(dave, charlie), moderator)
        act(case, moderator, "dismiss", "nothing there")
    reported_case(alice, charlie)
    reported_case(bob, dave)
    assert [row.case.user for row in moderation.queue()] == [bob, alice]


def test_closed_cases_leave_the_queue(alice: User, bob: User, moderator: User) -> None:
    case = claimed(reported_case(alice, bob), moderator)
    act(case, moderator, "dismiss")
    assert moderation.queue() == []
    assert "No open cases." in client_for(moderator).get("/mod/").content.decode()


# --- claiming -----------------------------------------------------------------------------


def test_a_claim_is_logged_and_a_second_moderator_is_told_who_has_it(
    alice: User, bob: User, moderator: User
) -> None:
    other = make_moderator("mod2")
    case = claimed(reported_case(alice, bob), moderator)
    assert (case.status, case.claimed_by) == (Case.Status.CLAIMED, moderator)
    assert ModAction.objects.get().kind == ModAction.Kind.CLAIM
    response = client_for(other).post(f"/mod/cases/{case.pk}/claim")
    assert "mod has already claimed this case." in errors(response)
    case.refresh_from_db()
    assert case.claimed_by == moderator and ModAction.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_moderators_claiming_at_once_exactly_one_wins() -> None:
    reported = User.objects.create_user("target", "t@example.com", "pw-target-123")
    reporter = User.objects.create_user("rep", "r@example.com", "pw-rep-12345")
    mods = [make_moderator(f"mod{n}") for n in range(2)]
    case = reported_case(reported, reporter)
    for _ in range(5):  # the race again and again, each time a fresh case
        outcomes = race_claims(case.pk, mods)
        won = [o for o in outcomes if isinstance(o, Case)]
        lost = [o for o in outcomes if isinstance(o, moderation.PeopleError)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert "has already claimed this case" in lost[0].message
        case.refresh_from_db()
        assert case.claimed_by == won[0].claimed_by
        assert ModAction.objects.filter(case=case, kind="claim").count() == 1
        moderation.do_act(case.pk, case.claimed_by, "dismiss", "race")
        case = reported_case(reported, reporter)


def race_claims(case_id: int, mods: list[User]) -> list[Any]:
    """Each moderator claims the case in a thread (a connection) of their own, at once."""
    barrier = threading.Barrier(len(mods))
    outcomes: list[Any] = [None] * len(mods)

    def claim(index: int) -> None:
        try:
            barrier.wait()
            outcomes[index] = moderation.do_claim_case(case_id, mods[index])
        except Exception as exc:  # the loser's refusal is under test
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(len(mods))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


# --- actions ------------------------------------------------------------------------------


def test_acting_needs_the_claim(alice: User, bob: User, moderator: User) -> None:
    case = reported_case(alice, bob)
    response = act(case, moderator, "timeout", hours="2")
    assert "Claim the case before acting on it." in errors(response)
    alice.refresh_from_db()
    assert alice.chat_timeout_until is None and not ModAction.objects.exists()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"kind": "explode"}, "Choose an action."),
        ({"kind": "claim"}, "Choose an action."),
        ({"kind": "warn", "reason": "   "}, "Say why: the reason goes into the audit log."),
        ({"kind": "timeout", "hours": "0"}, "A timeout lasts 1 to 720 hours."),
        ({"kind": "timeout", "hours": "721"}, "A timeout lasts 1 to 720 hours."),
        ({"kind": "timeout", "hours": "two"}, "A timeout lasts 1 to 720 hours."),
        ({"kind": "warn", "reason": "x" * 501}, "Keep the reason under 500 characters."),
    ],
)
def test_a_bad_action_is_refused_and_changes_nothing(
    alice: User, bob: User, moderator: User, data: dict[str, str], says: str
) -> None:
    case = claimed(reported_case(alice, bob), moderator)
    response = client_for(moderator).post(
        f"/mod/cases/{case.pk}/act", {"reason": "because", **data}
    )
    assert says in errors(response)
    case.refresh_from_db()
    alice.refresh_from_db()
    assert case.status == Case.Status.CLAIMED and alice.chat_timeout_until is None
    assert list(ModAction.objects.values_list("kind", flat=True)) == ["claim"]
    assert not Notification.objects.exists()


def test_a_timeout_refuses_the_persons_chat_saying_until_when(
    duel: Game, alice: User, bob: User, moderator: User
) -> None:
    line = say(duel, alice, "rude words")
    client_for(bob).post(
        "/u/alice/report", {"reason": "abuse", "source": "chat", "ref": str(line.pk)}
    )
    case = claimed(Case.objects.get(user=alice), moderator)
    before = timezone.now()
    response = act(case, moderator, "timeout", "insults", hours="3")
    assert response.status_code == 302 and not errors(response)
    alice.refresh_from_db()
    assert (
        before + timedelta(hours=3)
        <= alice.chat_timeout_until
        <= timezone.now() + timedelta(hours=3)
    )
    logged = ModAction.objects.get(kind="timeout")
    assert (logged.moderator, logged.user, logged.reason, logged.hours) == (
        moderator, alice, "insults", 3
    )  # fmt: skip
    refused = client_for(alice).post(
        f"{duel.get_absolute_url()}chat/players", {"body": "hi"}, **HTMX
    )
    assert refused.status_code == 403
    assert "A moderator has timed you out of chat until" in refused.content.decode()
    assert alice.chat_timeout_until.strftime("%H:%M UTC") in refused.content.decode()
    assert ChatMessage.objects.count() == 1


def test_closing_a_case_tells_each_reporter_the_outcome_and_nothing_more(
    alice: User, bob: User, charlie: User, moderator: User
) -> None:
    case = claimed(reported_case(alice, bob, charlie), moderator)
    act(case, moderator, "warn", "be kind")
    case.refresh_from_db()
    assert case.status == Case.Status.CLOSED and case.closed_at is not None
    assert set(Report.objects.values_list("outcome", flat=True)) == {"actioned"}
    for reporter in (bob, charlie):
        [notice] = Notification.objects.filter(user=reporter)
        assert notice.text == "Thank you: we took action on your report."
        assert "alice" not in notice.text and "warn" not in notice.text.lower()
    [warning] = Notification.objects.filter(user=alice)
    assert warning.text == "A moderator warned you: be kind"


def test_a_dismissal_says_no_action_was_taken(alice: User, bob: User, moderator: User) -> None:
    case = claimed(reported_case(alice, bob), moderator)
    act(case, moderator, "dismiss", "nothing wrong")
    assert Report.objects.get().outcome == "dismissed"
    [notice] = Notification.objects.filter(user=bob)
    assert notice.text == "We looked at your report and took no action."
    alice.refresh_from_db()
    assert alice.is_active and not alice.shadow_muted and alice.chat_timeout_until is None
    assert not Notification.objects.filter(user=alice).exists()


def test_a_closed_case_takes_no_more_actions(alice: User, bob: User, moderator: User) -> None:
    case = claimed(reported_case(alice, bob), moderator)
    act(case, moderator, "dismiss")
    response = act(case, moderator, "close")
    assert "This case is closed." in errors(response)
    alice.refresh_from_db()
    assert alice.is_active


def test_a_rated_suspension_is_set(alice: User, bob: User, moderator: User) -> None:
    act(claimed(reported_case(alice, bob), moderator), moderator, "suspend_rated")
    alice.refresh_from_db()
    assert alice.rated_suspended


def test_a_shadow_muted_persons_lines_reach_only_themself(
    duel: Game, alice: User, bob: User, charlie: User, moderator: User
) -> None:
    say(duel, alice, "before the mute")
    act(claimed(reported_case(alice, bob), moderator), moderator, "shadow_mute")
    with mock.patch("live.chat.groups.send") as pushed:
        own = client_for(alice).post(
            f"{duel.get_absolute_url()}chat/players", {"body": "nobody hears me"}, **HTMX
        )
    assert own.status_code == 200 and "nobody hears me" in own.content.decode()
    assert 'hx-swap-oob="beforeend"' in own.content.decode()
    pushed.assert_not_called()
    assert "nobody hears me" not in client_for(bob).get(duel.get_absolute_url()).content.decode()
    assert "nobody hears me" in client_for(alice).get(duel.get_absolute_url()).content.decode()
    assert ChatMessage.objects.filter(body="nobody hears me").exists()


def test_closing_an_account_ends_its_sessions_tokens_and_sockets(
    alice: User, bob: User, moderator: User, django_capture_on_commit_callbacks: Any
) -> None:
    session = client_for(alice)
    assert session.get("/settings/").status_code == 200
    token, _secret = tokens.issue(alice, scopes=["read"])
    case = claimed(reported_case(alice, bob), moderator)
    with (
        mock.patch("live.sessions.end_user_sockets") as ended,
        django_capture_on_commit_callbacks(execute=True),
    ):
        moderation.do_act(case.pk, moderator, "close", "spam bot")
    ended.assert_called_once_with(alice.pk)
    alice.refresh_from_db()
    assert not alice.is_active
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert session.get("/settings/").status_code == 302  # signed out
    assert ModAction.objects.filter(kind="close", user=alice).exists()


def test_moderators_see_the_audit_log_on_the_profile_and_nobody_else_does(
    alice: User, bob: User, charlie: User, moderator: User
) -> None:
    act(claimed(reported_case(alice, bob), moderator), moderator, "timeout", "cool off", hours="5")
    shown = client_for(moderator).get("/u/alice/").content.decode()
    assert "Moderation history" in shown and "Chat timeout" in shown and "cool off" in shown
    for viewer in (alice, bob, charlie):
        page = client_for(viewer).get("/u/alice/").content.decode()
        assert "Moderation history" not in page and "cool off" not in page


def test_the_case_page_shows_evidence_chat_shared_games_and_history(
    duel: Game, alice: User, bob: User, moderator: User
) -> None:
    say(duel, bob, "hello")
    line = say(duel, alice, "something nasty")
    say(duel, alice, "elsewhere too")
    client_for(bob).post(
        "/u/alice/report", {"reason": "abuse", "source": "chat", "ref": str(line.pk)}
    )
    case = Case.objects.get(user=alice)
    page = client_for(moderator).get(f"/mod/cases/{case.pk}/").content.decode()
    assert "something nasty" in page and "hello" in page  # the line in context
    assert "elsewhere too" in page  # the person's recent chat
    assert duel.public_id in page  # a game the reporter and the person share
    assert "Claim this case" in page
    claimed(case, moderator)
    page = client_for(moderator).get(f"/mod/cases/{case.pk}/").content.decode()
    assert "Apply and close the case" in page and "Claimed the case" in page


@pytest.mark.parametrize("kind", ["warn", "timeout", "shadow_mute", "suspend_rated", "dismiss"])
def test_each_action_tells_live_once_committed(
    alice: User, bob: User, moderator: User, kind: str, django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[tuple[int, str]] = []

    def listen(sender: Any, user_id: int, kind: str, **kwargs: Any) -> None:
        heard.append((user_id, kind))

    standing_changed.connect(listen, dispatch_uid="test-standing")
    try:
        case = claimed(reported_case(alice, bob), moderator)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            moderation.do_act(case.pk, moderator, kind, "reason", hours=1)
        assert heard == []  # not before the commit
        for callback in callbacks:
            callback()
        assert heard == [(alice.pk, kind)]
    finally:
        standing_changed.disconnect(dispatch_uid="test-standing")


# --- handing a case back, lifting restrictions ------------------------------------------


def test_the_claimer_can_release_a_case_and_another_moderator_then_claims_it(
    alice: User, bob: User, moderator: User
) -> None:
    case = claimed(reported_case(alice, bob), moderator)
    other = make_moderator("mod2")
    refused = client_for(other).post(f"/mod/cases/{case.pk}/release")
    assert "Only the moderator holding this case can release it." in errors(refused)
    response = client_for(moderator).post(f"/mod/cases/{case.pk}/release")
    assert response.status_code == 302 and not errors(response)
    case.refresh_from_db()
    assert (case.status, case.claimed_by) == ("open", None)
    assert claimed(case, other).claimed_by == other
    kinds = list(ModAction.objects.filter(case=case).order_by("pk").values_list("kind", flat=True))
    assert kinds == ["claim", "release", "claim"]


def test_lifting_ends_every_restriction_and_is_logged(
    alice: User, bob: User, moderator: User
) -> None:
    case = claimed(reported_case(alice, bob), moderator)
    act(case, moderator, "timeout", hours="5")
    User.objects.filter(pk=alice.pk).update(shadow_muted=True, rated_suspended=True)
    response = client_for(moderator).post(
        "/mod/people/alice/lift", {"reason": "appeal upheld", "case": str(case.pk)}
    )
    assert response.status_code == 302 and response["Location"] == f"/mod/cases/{case.pk}/"
    alice.refresh_from_db()
    assert (alice.chat_timeout_until, alice.shadow_muted, alice.rated_suspended) == (
        None,
        False,
        False,
    )
    lift = ModAction.objects.get(kind="lift")
    assert (lift.moderator, lift.user, lift.reason) == (moderator, alice, "appeal upheld")


def test_lifting_needs_a_reason_a_restriction_and_a_moderator(
    alice: User, bob: User, moderator: User
) -> None:
    nothing = client_for(moderator).post("/mod/people/alice/lift", {"reason": "why not"})
    assert "alice has no restriction to lift." in errors(nothing)
    User.objects.filter(pk=alice.pk).update(shadow_muted=True)
    blank = client_for(moderator).post("/mod/people/alice/lift", {"reason": " "})
    assert "Say why: the reason goes into the audit log." in errors(blank)
    assert client_for(bob).post("/mod/people/alice/lift", {"reason": "x"}).status_code == 404
    alice.refresh_from_db()
    assert alice.shadow_muted and not ModAction.objects.filter(kind="lift").exists()


def test_the_case_page_keeps_a_pending_trades_terms_off_until_accepted_or_over(
    duel: Game, alice: User, bob: User, moderator: User, no_bot_tasks: Any
) -> None:
    from tests.social.test_reports import propose

    propose(duel, alice, 1, {"give_cash": 777})
    case = reported_case(alice, bob)
    page = client_for(moderator).get(f"/mod/cases/{case.pk}/").content.decode()
    assert "trade #" in page and "777" not in page
