"""Private messages: the service's refusals (nothing stored), the pages, the
unread count, the rate limit, a race for the first message, and live
delivery to the two people only."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from accounts.models import User
from common.env import Rate
from people import services as people
from people.errors import PeopleError, Refused
from people.relations import check_may_message
from social import messages, reads
from social.models import Conversation, Message
from tests.live.conftest import collect, communicator, run
from tests.social.conftest import client_for

pytestmark = pytest.mark.django_db


def stored() -> int:
    return Message.objects.count()


# --- the service ----------------------------------------------------------------


def test_sends_a_message_into_one_conversation_per_pair(alice: User, bob: User) -> None:
    first = messages.do_send_message(alice, bob, "Hello Bob")
    second = messages.do_send_message(bob, alice, "Hi Alice")
    assert first.conversation_id == second.conversation_id
    conversation = Conversation.objects.get()
    assert (conversation.low_id, conversation.high_id) == tuple(sorted((alice.pk, bob.pk)))
    assert conversation.last_message_id == second.pk


def test_rejects_message_from_blocked_sender_with_the_privacy_words(
    alice: User, bob: User, carol: User
) -> None:
    people.do_block(bob, alice)
    with pytest.raises(Refused) as blocked:
        messages.do_send_message(alice, bob, "hello")
    carol.message_from = "nobody"
    carol.save()
    with pytest.raises(Refused) as private:
        messages.do_send_message(alice, carol, "hello")
    assert blocked.value.message == private.value.message.replace("carol", "bob")
    with pytest.raises(Refused) as foundation:
        check_may_message(alice, bob)
    assert blocked.value.message == foundation.value.message
    assert stored() == 0


def test_a_blocker_cannot_write_to_the_person_they_block_either_way_of_asking(
    alice: User, bob: User
) -> None:
    people.do_block(bob, alice)
    # Bob blocked Alice; Bob may still write to Alice (she did not block him).
    messages.do_send_message(bob, alice, "I blocked you")
    with pytest.raises(Refused):
        messages.do_send_message(alice, bob, "why?")
    assert stored() == 1


def test_message_from_following_lets_only_followed_people_write(alice: User, bob: User) -> None:
    bob.message_from = "following"
    bob.save()
    with pytest.raises(Refused):
        messages.do_send_message(alice, bob, "hello")
    people.do_follow(bob, alice)
    messages.do_send_message(alice, bob, "hello")
    assert stored() == 1


def test_newcomer_is_refused_with_the_reason_unless_followed(
    alice: User, bob: User, settings: Any
) -> None:
    settings.NEWCOMER_DAYS = 3
    settings.NEWCOMER_GAMES = 3
    with pytest.raises(Refused) as refused:
        messages.do_send_message(alice, bob, "hello")
    assert "follow you" in refused.value.message
    assert "3 days old" in refused.value.message
    assert stored() == 0
    people.do_follow(bob, alice)
    messages.do_send_message(alice, bob, "hello, follower")
    assert stored() == 1


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("hi\x00there", "NUL"),
        ("\x00", "NUL"),
        ("bell\x07", "U+0007"),
        ("tab\there", "U+0009"),
        ("\x1fhidden", "U+001F"),
        ("del\x7f", "U+007F"),
        ("c1\x85", "U+0085"),
        ("abc\u202edcba", "U+202E"),
        ("zero\u200bwidth", "U+200B"),
        ("line\u2028separator", "U+2028"),
        ("", "Write something"),
        ("   \n  ", "Write something"),
        ("\u3164\u2800", "no visible character"),
        ("x" * 1001, "1000 characters"),
    ],
)
def test_refuses_a_body_with_control_or_invisible_characters_and_stores_nothing(
    alice: User, bob: User, body: str, says: str
) -> None:
    with pytest.raises(messages.MessageError) as refused:
        messages.do_send_message(alice, bob, body)
    assert says in refused.value.message
    assert stored() == 0
    assert not Conversation.objects.exists()


def test_keeps_line_breaks_and_emoji_joiners(alice: User, bob: User) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u2764\ufe0f"
    sent = messages.do_send_message(alice, bob, f"line one\r\nline two {family}")
    assert sent.body == f"line one\nline two {family}"


def test_refuses_writing_to_yourself_a_bot_account_or_a_closed_account(
    alice: User, bob: User, carol: User
) -> None:
    with pytest.raises(PeopleError, match="yourself"):
        messages.do_send_message(alice, alice, "me")
    bob.bot_account = True
    bob.save()
    with pytest.raises(Refused, match="bot account"):
        messages.do_send_message(alice, bob, "beep")
    with pytest.raises(Refused, match="Bot accounts cannot"):
        messages.do_send_message(bob, alice, "beep")
    carol.is_active = False
    carol.save()
    with pytest.raises(PeopleError, match="no such player"):
        messages.do_send_message(alice, carol, "hello?")
    assert stored() == 0


# --- the pages ------------------------------------------------------------------


def test_the_inbox_needs_a_sign_in(client: Any, bob: User) -> None:
    for path in ("/inbox/", "/inbox/bob/"):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    assert client.post("/inbox/bob/", {"text": "hello"}).status_code == 302
    assert stored() == 0


def test_a_post_with_field_text_sends_and_the_conversation_shows_it(alice: User, bob: User) -> None:
    response = client_for(alice).post("/inbox/bob/", {"text": "Fancy a game?"})
    assert response.status_code == 302
    assert response["Location"] == "/inbox/bob/"
    page = client_for(bob).get("/inbox/bob/".replace("bob", "alice")).content.decode()
    assert "Fancy a game?" in page
    assert 'action="/u/alice/report"' in page
    assert 'name="source" value="message"' in page
    assert f'name="ref" value="{Message.objects.get().pk}"' in page
    assert 'action="/u/alice/block"' in page


def test_a_profile_links_to_the_conversation_for_others_only(alice: User, bob: User) -> None:
    client = client_for(alice)
    assert 'href="/inbox/bob/"' in client.get("/u/bob/").content.decode()
    assert 'href="/inbox/alice/"' not in client.get("/u/alice/").content.decode()


def test_the_inbox_lists_conversations_newest_first_with_unread_marked(
    alice: User, bob: User, carol: User
) -> None:
    messages.do_send_message(bob, alice, "From Bob")
    messages.do_send_message(carol, alice, "From Carol")
    page = client_for(alice).get("/inbox/").content.decode()
    assert page.index("From Carol") < page.index("From Bob")
    assert page.count('class="inbox-row unread"') == 2
    assert 'aria-label="2 unread conversations"' in page


def test_opening_a_conversation_marks_it_read(alice: User, bob: User, carol: User) -> None:
    messages.do_send_message(bob, alice, "one")
    messages.do_send_message(bob, alice, "two")
    messages.do_send_message(carol, alice, "three")
    assert reads.unread_count(alice) == 2
    assert reads.unread_count(bob) == 0  # their own words
    page = client_for(alice).get("/inbox/bob/").content.decode()
    assert page.index("one") < page.index("two")  # oldest first
    assert reads.unread_count(alice) == 1
    nav = client_for(alice).get("/inbox/").content.decode()
    assert 'aria-label="1 unread conversation"' in nav


def test_a_refused_post_says_why_and_stores_nothing(alice: User, bob: User) -> None:
    people.do_block(bob, alice)
    client = client_for(alice)
    response = client.post("/inbox/bob/", {"text": "hello"}, follow=True)
    assert "bob is not accepting messages from you." in response.content.decode()
    htmx = client.post("/inbox/bob/", {"text": "hello"}, headers={"HX-Request": "true"})
    assert htmx.status_code == 403
    assert htmx.content.decode() == "bob is not accepting messages from you."
    assert stored() == 0


def test_a_nul_posted_through_the_page_is_refused_and_nothing_stored(
    alice: User, bob: User
) -> None:
    response = client_for(alice).post("/inbox/bob/", {"text": "a\x00b"})
    assert response.status_code == 400
    assert "control character" in response.content.decode()
    assert stored() == 0


def test_the_message_rate_limit_refuses_and_stores_nothing(
    alice: User, bob: User, settings: Any
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "message": (Rate(3, 60, "user"),)}
    client = client_for(alice)
    for n in range(3):
        assert client.post("/inbox/bob/", {"text": f"hi {n}"}).status_code == 302
    refused = client.post("/inbox/bob/", {"text": "one too many"})
    assert refused.status_code == 429
    assert "too quickly" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert stored() == 3


def test_an_unknown_or_closed_person_has_no_conversation_page(alice: User, bob: User) -> None:
    bob.is_active = False
    bob.save()
    client = client_for(alice)
    assert client.get("/inbox/bob/").status_code == 404
    assert client.get("/inbox/nobody-here/").status_code == 404
    assert client.post("/inbox/bob/", {"text": "hi"}).status_code == 404


# --- the race for the first message -----------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_first_messages_at_once_make_one_conversation(alice: User, bob: User) -> None:
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def send(sender: User, recipient: User) -> None:
        try:
            barrier.wait(timeout=5)
            messages.do_send_message(sender, recipient, f"hello from {sender.username}")
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=(alice, bob)),
        threading.Thread(target=send, args=(bob, alice)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert not errors
    assert Conversation.objects.count() == 1
    assert Message.objects.filter(conversation=Conversation.objects.get()).count() == 2


# --- live -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_new_message_arrives_live_on_the_open_conversation_and_is_read(
    alice: User, bob: User, carol: User
) -> None:
    async def scenario() -> None:
        page = communicator("/ws/inbox/alice/", bob)
        others = communicator("/ws/inbox/", carol)
        for comm in (page, others):
            assert (await comm.connect())[0]
            await collect(comm)
        await database_sync_to_async(messages.do_send_message)(alice, bob, "Are you there?")
        pushed = "".join(await collect(page))
        assert 'hx-swap-oob="beforeend"' in pushed
        assert "Are you there?" in pushed
        assert 'action="/u/alice/report"' in pushed
        # Shown on the open page: read, and the count pushed again as 0.
        assert await database_sync_to_async(reads.unread_count)(bob) == 0
        assert 'id="nav-inbox" hx-swap-oob="true"' in pushed
        # Carol hears her own message next, never theirs.
        await database_sync_to_async(messages.do_send_message)(alice, carol, "Hi Carol")
        heard = "".join(await collect(others))
        assert "Hi Carol" in heard
        assert "Are you there?" not in heard
        for comm in (page, others):
            await comm.disconnect()

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_the_unread_count_is_pushed_to_the_recipients_open_pages(alice: User, bob: User) -> None:
    async def scenario() -> None:
        lobby = communicator("/ws/lobby/", bob)
        assert (await lobby.connect())[0]
        await collect(lobby)
        await database_sync_to_async(messages.do_send_message)(alice, bob, "ping")
        pushed = "".join(await collect(lobby))
        assert 'id="nav-inbox" hx-swap-oob="true"' in pushed
        assert 'aria-label="1 unread conversation"' in pushed
        assert "ping" not in pushed  # the words go to inbox sockets only
        await lobby.disconnect()

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_reconnecting_conversation_gets_every_message_afresh_and_no_repeat(
    alice: User, bob: User
) -> None:
    messages.do_send_message(alice, bob, "missed while away")

    async def scenario() -> None:
        page = communicator("/ws/inbox/alice/", bob)
        assert (await page.connect())[0]
        snapshot = "".join(await collect(page))
        assert 'id="messages"' in snapshot and 'hx-swap-oob="true"' in snapshot
        assert "missed while away" in snapshot
        sent = await database_sync_to_async(messages.do_send_message)(alice, bob, "new one")
        # The same event again (a repeat) sends nothing; the next message does.
        from social import live

        await database_sync_to_async(live.message_sent)(sent, bob.pk)
        await database_sync_to_async(messages.do_send_message)(alice, bob, "newer one")
        pushed = "".join(await collect(page))
        assert pushed.count("new one") == 1
        assert "newer one" in pushed
        await page.disconnect()

    run(scenario)


def test_an_anonymous_or_unknown_inbox_socket_is_refused(alice: User) -> None:
    async def scenario() -> None:
        for path, user in (
            ("/ws/inbox/", None),
            ("/ws/inbox/alice/", None),
            ("/ws/inbox/nobody-here/", alice),
            ("/ws/inbox/alice/", alice),
        ):
            comm = communicator(path, user)
            connected, code = await comm.connect()
            assert not connected, path
            assert code == 4403, path

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_an_inbox_socket_closes_on_a_frame_it_does_not_take(alice: User) -> None:
    async def scenario() -> None:
        comm = communicator("/ws/inbox/", alice)
        assert (await comm.connect())[0]
        await collect(comm)
        await comm.send_to(text_data='{"type": "send", "text": "hi"}')
        closed = await comm.receive_output(timeout=5)
        assert closed["type"] == "websocket.close"
        assert closed["code"] == 4400
        await comm.wait()

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_conversation_socket_shows_only_its_own_conversation(
    alice: User, bob: User, carol: User
) -> None:
    async def scenario() -> None:
        with_alice = communicator("/ws/inbox/alice/", bob)
        with_carol = communicator("/ws/inbox/carol/", bob)
        for comm in (with_alice, with_carol):
            assert (await comm.connect())[0]
            await collect(comm)
        await database_sync_to_async(messages.do_send_message)(alice, bob, "for the alice page")
        await database_sync_to_async(messages.do_send_message)(carol, bob, "for the carol page")
        assert "for the alice page" in "".join(await collect(with_alice))
        heard = "".join(await collect(with_carol))
        assert "for the carol page" in heard
        assert "for the alice page" not in heard
        for comm in (with_alice, with_carol):
            await comm.disconnect()

    run(scenario)


def test_a_recipient_away_gets_one_web_push_per_conversation_without_the_words(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    from unittest import mock

    from django.core.cache import cache

    from live import presence

    first = messages.do_send_message(alice, bob, "hello")
    cache.delete(f"inbox-push:{bob.pk}:{first.conversation_id}")
    presence.person_connected(carol.pk)  # carol has a page open: her count tells her
    try:
        with (
            mock.patch("social.live.push.enabled", return_value=True),
            mock.patch("social.tasks.push_message.delay") as delay,
            django_capture_on_commit_callbacks(execute=True),
        ):
            messages.do_send_message(alice, bob, "the secret plan")
            messages.do_send_message(alice, bob, "and more of it")
            messages.do_send_message(alice, carol, "hi carol")
    finally:
        presence.person_disconnected(carol.pk)
    assert [call.args[0] for call in delay.call_args_list] == [bob.pk]
    _user, title, body, url = delay.call_args.args
    assert (title, url) == ("A message from alice", "/inbox/alice/")
    assert "secret" not in body
