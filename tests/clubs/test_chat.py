"""A club's chat: members only, the site's chat rules and moderation, the
leaders' deletions and mutes, reports into the site's one queue, and the
socket that keeps it live."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.models import User
from clubs import chat
from clubs.errors import ChatRefused, MembershipRefused, NotLeader, NotMember
from clubs.models import ChatLine, Club, Membership
from people import services as people
from people.models import Case, Report
from tests.clubs.conftest import client_for, make_user, member
from tests.live.conftest import communicator, run
from tests.social.conftest import make_moderator

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def say(club: Club, author: User, text: str) -> ChatLine:
    return ChatLine.objects.create(club=club, author=author, text=text)


def page(user: User, club: Club) -> str:
    response = client_for(user).get(f"/clubs/{club.slug}/")
    assert response.status_code == 200
    return response.content.decode()


def post(user: User, club: Club, text: str) -> Any:
    return client_for(user).post(f"/clubs/{club.slug}/chat", {"text": text}, **HTMX)


# --- members only -------------------------------------------------------------------------


def test_a_member_posts_and_the_line_is_kept(club: Club, alice: User) -> None:
    member(club, alice)
    response = post(alice, club, "  hello   club ")
    assert response.status_code == 200
    assert list(ChatLine.objects.values_list("author__username", "text")) == [
        ("alice", "hello club")
    ]
    club.refresh_from_db()
    assert club.version == 1


def test_a_non_member_can_neither_write_nor_read(club: Club, leader: User, alice: User) -> None:
    say(club, leader, "members only line")
    response = post(alice, club, "let me in")
    assert response.status_code == 403
    assert not ChatLine.objects.filter(author=alice).exists()
    html = page(alice, club)
    assert "members only line" not in html
    assert "members only line" not in Client().get(f"/clubs/{club.slug}/").content.decode()


def test_a_member_reads_the_chat_on_the_page(club: Club, leader: User, alice: User) -> None:
    member(club, alice)
    say(club, leader, "welcome aboard")
    html = page(alice, club)
    assert "welcome aboard" in html
    assert 'ws-connect="/ws/clubs/park-place-society/chat"' in html


def test_anonymous_posts_go_to_the_login(club: Club) -> None:
    response = Client().post(f"/clubs/{club.slug}/chat", {"text": "hi"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- the site's rules hold here too ---------------------------------------------------------


def test_a_moderators_chat_timeout_holds_in_club_chat(club: Club, alice: User) -> None:
    member(club, alice)
    alice.chat_timeout_until = timezone.now() + dt.timedelta(hours=2)
    alice.save(update_fields=["chat_timeout_until"])
    with pytest.raises(ChatRefused, match="A moderator has timed you out of chat"):
        chat.do_post_line(club=club, user=alice, text="hello")
    assert not ChatLine.objects.exists()


def test_no_chat_refuses_and_hides_the_chat(club: Club, leader: User, alice: User) -> None:
    member(club, alice)
    say(club, leader, "can you read me")
    User.objects.filter(pk=alice.pk).update(no_chat=True)
    alice.refresh_from_db()
    with pytest.raises(ChatRefused, match="turned chat off"):
        chat.do_post_line(club=club, user=alice, text="hello")
    assert "can you read me" not in page(alice, club)


def test_the_word_filter_masks_a_club_line(club: Club, alice: User, settings: Any) -> None:
    settings.CHAT_FILTER_MODE = "mask"
    member(club, alice)
    line = chat.do_post_line(club=club, user=alice, text="you dumbass")
    assert line.text == "you ●●●"


def test_blocked_and_muted_authors_are_hidden_from_their_reader_only(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    say(club, bob, "bob was here")
    say(club, leader, "lena was here")
    people.do_block(alice, bob)
    people.do_mute(alice, leader)
    mine = page(alice, club)
    assert "bob was here" not in mine and "lena was here" not in mine
    theirs = page(bob, club)
    assert "bob was here" in theirs and "lena was here" in theirs


def test_a_shadow_muted_authors_lines_reach_only_themself(
    club: Club, leader: User, alice: User
) -> None:
    member(club, alice)
    User.objects.filter(pk=alice.pk).update(shadow_muted=True)
    alice.refresh_from_db()
    response = post(alice, club, "can anyone hear me")
    assert "can anyone hear me" in response.content.decode()  # her own answer shows it
    assert "can anyone hear me" in page(alice, club)
    assert "can anyone hear me" not in page(leader, club)


# --- the leaders' tools ----------------------------------------------------------------------


def test_a_leader_deletes_a_line_and_a_member_cannot(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    line = say(club, bob, "rude words")
    with pytest.raises(NotLeader):
        chat.do_delete_line(club=club, leader=alice, line_id=line.pk)
    response = client_for(leader).post(f"/clubs/{club.slug}/chat/{line.pk}/delete")
    assert response.status_code == 302
    line.refresh_from_db()
    assert line.deleted_at is not None and line.deleted_by == leader
    assert "rude words" not in page(alice, club)


def test_a_muted_member_is_told_until_when_and_may_write_once_lifted(
    club: Club, leader: User, alice: User
) -> None:
    member(club, alice)
    chat.do_mute_member(club=club, leader=leader, target=alice, minutes=60)
    response = post(alice, club, "am I heard")
    assert response.status_code == 403
    assert "A leader of this club has muted you in its chat until" in response.content.decode()
    assert "muted you in its chat until" in page(alice, club)
    assert not ChatLine.objects.exists()
    chat.do_mute_member(club=club, leader=leader, target=alice, minutes=0)
    assert post(alice, club, "am I heard").status_code == 200


def test_a_mute_runs_out_by_itself(club: Club, leader: User, alice: User) -> None:
    row = member(club, alice)
    row.chat_muted_until = timezone.now() - dt.timedelta(seconds=1)
    row.save(update_fields=["chat_muted_until"])
    assert chat.do_post_line(club=club, user=alice, text="back again").text == "back again"


def test_members_cannot_mute_and_leaders_cannot_be_muted(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    Membership.objects.filter(user=bob).update(role=Membership.Role.LEADER)
    with pytest.raises(NotLeader):
        chat.do_mute_member(club=club, leader=alice, target=leader, minutes=60)
    with pytest.raises(MembershipRefused, match="Leaders cannot be muted"):
        chat.do_mute_member(club=club, leader=leader, target=bob, minutes=60)
    with pytest.raises(ChatRefused, match="how long"):
        chat.do_mute_member(club=club, leader=leader, target=alice, minutes=17)
    assert not Membership.objects.filter(chat_muted_until__isnull=False).exists()


# --- reports -------------------------------------------------------------------------------


def test_a_reported_line_lands_in_the_moderators_queue_with_its_context(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    say(club, leader, "before it")
    line = say(club, bob, "the reported line")
    say(club, alice, "after it")
    response = client_for(alice).post(
        f"/clubs/{club.slug}/chat/{line.pk}/report", {"reason": "abuse", "text": "rude"}
    )
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.source) == (alice, bob, "club_chat")
    evidence = report.evidence
    assert evidence["club"] == club.slug and evidence["line"]["body"] == "the reported line"
    assert [m["body"] for m in evidence["before"]] == ["before it"]
    assert [m["body"] for m in evidence["after"]] == ["after it"]
    case = Case.objects.get(user=bob)
    moderator = make_moderator("mod")
    queue = client_for(moderator).get("/mod/").content.decode()
    assert "bob" in queue
    shown = client_for(moderator).get(f"/mod/cases/{case.pk}/").content.decode()
    assert "the reported line" in shown and "Park Place Society" in shown


def test_the_case_page_lists_the_persons_club_lines_deleted_ones_marked(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    say(club, bob, "an earlier club line")
    gone = say(club, bob, "a line the leader deleted")
    chat.do_delete_line(club=club, leader=leader, line_id=gone.pk)
    line = say(club, bob, "the reported one")
    chat.do_report_line(club=club, reporter=alice, line_id=line.pk, reason="abuse")
    case = Case.objects.get(user=bob)
    shown = client_for(make_moderator("mod")).get(f"/mod/cases/{case.pk}/").content.decode()
    club_part = shown.split("In clubs")[1]
    assert "an earlier club line" in club_part
    assert "a line the leader deleted" in club_part and "deleted by lena" in club_part


def test_a_deleted_line_stays_in_a_report_filed_before(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    line = say(club, bob, "deleted later")
    chat.do_report_line(club=club, reporter=alice, line_id=line.pk, reason="abuse")
    chat.do_delete_line(club=club, leader=leader, line_id=line.pk)
    assert Report.objects.get().evidence["line"]["body"] == "deleted later"


def test_only_members_report_and_never_their_own_line(
    club: Club, leader: User, alice: User
) -> None:
    member(club, alice)
    line = say(club, alice, "my own")
    with pytest.raises(ChatRefused, match="cannot report yourself"):
        chat.do_report_line(club=club, reporter=alice, line_id=line.pk, reason="abuse")
    with pytest.raises(NotMember):
        chat.do_report_line(club=club, reporter=make_user("sam"), line_id=line.pk, reason="abuse")
    with pytest.raises(ChatRefused):
        chat.do_report_line(club=club, reporter=leader, line_id=line.pk, reason="nonsense")
    assert not Report.objects.exists()


# --- the socket ---------------------------------------------------------------------------
# Real commits (the consumers read through their own threads) and quiet
# periods to wait out: seconds each, so in ``make test-long``. The handshake's
# members-only rule is in the fast suite too (test_authorization_sockets).


def path(club: Club) -> str:
    return f"/ws/clubs/{club.slug}/chat"


async def until(comm: Any, text: str) -> str:
    """The frames up to and including the first that holds ``text``."""
    seen = []
    while not seen or text not in seen[-1]:
        seen.append(await comm.receive_from(timeout=10))
    return "".join(seen)


@pytest.mark.slow
@pytest.mark.usefixtures("transactional_db")
def test_the_socket_is_for_members_and_sends_them_the_pane(club: Club, alice: User) -> None:
    say(club, club.created_by, "first line")
    member(club, alice)
    outsider = make_user("sam")

    async def scenario() -> None:
        refused = communicator(path(club), outsider)
        connected, _ = await refused.connect()
        assert not connected
        reader = communicator(path(club), alice)
        assert (await reader.connect())[0]
        try:
            pane = await reader.receive_from(timeout=10)  # the pane, on connect
            assert pane.startswith("<!--live-->") and "first line" in pane
        finally:
            await reader.disconnect()

    run(scenario)


@pytest.mark.slow
@pytest.mark.usefixtures("transactional_db")
def test_a_pushed_line_never_reaches_who_blocked_its_author(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    people.do_block(alice, bob)

    async def scenario() -> None:
        sockets = {u.username: communicator(path(club), u) for u in (alice, bob, leader)}
        try:
            for comm in sockets.values():
                assert (await comm.connect())[0]
                await comm.receive_from(timeout=10)  # the pane, on connect
            await database_sync_to_async(chat.do_post_line)(club=club, user=bob, text="from bob")
            await database_sync_to_async(chat.do_post_line)(club=club, user=alice, text="from al")
            # Her own line came after his: had his come to her, it would be here.
            to_alice = await until(sockets["alice"], "from al")
            assert "from al" in to_alice and "from bob" not in to_alice
            to_bob = await until(sockets["bob"], "from al")
            assert "from bob" in to_bob and "from al" in to_bob
            assert "/report" in to_bob and "/delete" not in to_bob  # a member's controls
            to_leader = await until(sockets["lena"], "from al")
            assert "/delete" in to_leader  # a leader's
        finally:
            for comm in sockets.values():
                await comm.disconnect()

    run(scenario)


@pytest.mark.slow
@pytest.mark.usefixtures("transactional_db")
def test_a_deletion_redraws_the_pane_and_a_removed_member_is_shut_out(
    club: Club, leader: User, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    line = say(club, bob, "soon gone")

    async def scenario() -> None:
        reader = communicator(path(club), alice)
        removed = communicator(path(club), bob)
        try:
            for comm in (reader, removed):
                assert (await comm.connect())[0]
                await comm.receive_from(timeout=10)  # the pane, on connect
            await database_sync_to_async(chat.do_delete_line)(
                club=club, leader=leader, line_id=line.pk
            )
            pane = await until(reader, 'id="club-chat"')
            assert "soon gone" not in pane
            await until(removed, 'id="club-chat"')
            from clubs import services

            await database_sync_to_async(services.do_remove)(club=club, leader=leader, target=bob)
            closed = await removed.receive_output(timeout=5)
            assert closed == {"type": "websocket.close", "code": 4403}
        finally:
            for comm in (reader, removed):
                await comm.disconnect()

    run(scenario)


@pytest.mark.slow
@pytest.mark.usefixtures("transactional_db")
def test_blocking_someone_redraws_the_open_pane_without_their_lines(
    club: Club, alice: User, bob: User
) -> None:
    member(club, alice)
    member(club, bob)
    say(club, bob, "old line of bob")

    async def scenario() -> None:
        reader = communicator(path(club), alice)
        try:
            assert (await reader.connect())[0]
            first = await reader.receive_from(timeout=10)
            assert "old line of bob" in first
            await database_sync_to_async(people.do_block)(alice, bob)
            pane = await until(reader, 'id="club-chat"')
            assert "old line of bob" not in pane
        finally:
            await reader.disconnect()

    run(scenario)
