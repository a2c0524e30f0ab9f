"""Private messages through the API: the pages' rules, the same per-account
rate limit, and problems for every refusal with nothing stored."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from common.env import Rate
from people import services as people
from social import messages
from social.models import Conversation, Message
from tests.api.conftest import api_for
from tests.api.streams import Stream, site, stream_server
from tests.social.conftest import client_for

__all__ = ["site", "stream_server"]


@pytest.fixture(autouse=True)
def nobody_is_new(settings: Any) -> None:
    settings.NEWCOMER_DAYS = 0
    settings.NEWCOMER_GAMES = 0


def test_sends_with_a_play_token_and_reads_back(alice: User, bob: User) -> None:
    sent = api_for(alice, "play").post("/me/conversations/bob", {"text": "Hello from code"})
    assert sent.status_code == 201, sent.content
    body = sent.json()
    assert body["sender"] == "alice"
    assert body["text"] == "Hello from code"
    listed = api_for(bob, "read").get("/me/conversations").json()
    assert listed["unread"] == 1
    [row] = listed["conversations"]
    assert row["username"] == "alice"
    assert row["unread"] is True
    assert row["last_message"]["id"] == body["id"]
    read = api_for(bob, "play").get("/me/conversations/alice")
    assert read.status_code == 200
    assert [m["text"] for m in read.json()["messages"]] == ["Hello from code"]
    assert api_for(bob, "read").get("/me/conversations").json()["unread"] == 0


def test_a_read_token_cannot_send(alice: User, bob: User) -> None:
    refused = api_for(alice, "read").post("/me/conversations/bob", {"text": "hi"})
    assert refused.status_code == 403
    assert Message.objects.count() == 0


def test_messages_come_in_pages_oldest_first(alice: User, bob: User) -> None:
    for n in range(55):
        messages.do_send_message(alice, bob, f"message {n}")
    api = api_for(bob, "read")
    newest = api.get("/me/conversations/alice").json()
    assert len(newest["messages"]) == 50
    assert newest["messages"][0]["text"] == "message 5"
    assert newest["messages"][-1]["text"] == "message 54"
    older = api.get(f"/me/conversations/alice?before={newest['next_before']}").json()
    assert [m["text"] for m in older["messages"]] == [f"message {n}" for n in range(5)]
    assert older["next_before"] is None


def test_a_blocked_sender_gets_the_privacy_words_as_a_403_problem(alice: User, bob: User) -> None:
    people.do_block(bob, alice)
    refused = api_for(alice).post("/me/conversations/bob", {"text": "hello"})
    assert refused.status_code == 403
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["detail"] == "bob is not accepting messages from you."
    assert Message.objects.count() == 0


def test_a_newcomer_is_refused_with_the_reason(alice: User, bob: User, settings: Any) -> None:
    settings.NEWCOMER_DAYS = 3
    refused = api_for(alice).post("/me/conversations/bob", {"text": "hello"})
    assert refused.status_code == 403
    assert "3 days old" in refused.json()["detail"]
    assert Message.objects.count() == 0


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("a\x00b", 400),
        ("bell\x07", 400),
        ("zero\u200bwidth", 422),
        ("x" * 1001, 400),
        ("", 422),
        ("  ", 422),
    ],
)
def test_bad_text_is_a_problem_and_stores_nothing(
    alice: User, bob: User, text: str, status: int
) -> None:
    refused = api_for(alice).post("/me/conversations/bob", {"text": text})
    assert refused.status_code == status, refused.content
    assert refused["Content-Type"] == "application/problem+json"
    assert Message.objects.count() == 0
    assert not Conversation.objects.exists()


def test_unknown_people_and_yourself(alice: User) -> None:
    api = api_for(alice)
    assert api.get("/me/conversations/nobody-here").status_code == 404
    assert api.post("/me/conversations/nobody-here", {"text": "hi"}).status_code == 404
    assert api.get("/me/conversations/alice").status_code == 409
    assert api.post("/me/conversations/alice", {"text": "hi"}).status_code == 409


def test_the_page_and_the_api_share_one_message_limit_per_account(
    alice: User, bob: User, settings: Any
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "message": (Rate(4, 60, "user"),)}
    page = client_for(alice)
    for n in range(2):
        assert page.post("/inbox/bob/", {"text": f"page {n}"}).status_code == 302
    # Two tokens of the same account: the limit is the account's, not a token's.
    for n in range(2):
        answer = api_for(alice).post("/me/conversations/bob", {"text": f"api {n}"})
        assert answer.status_code == 201
    refused = api_for(alice).post("/me/conversations/bob", {"text": "one too many"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert page.post("/inbox/bob/", {"text": "and here"}).status_code == 429
    assert Message.objects.count() == 4


def test_the_events_stream_announces_a_message_written_to_you(
    site: str, alice: User, bob: User
) -> None:
    messages.do_send_message(alice, bob, "written before the stream opened")
    stream = Stream(f"{site}/api/v1/stream/events", api_for(bob, "read").token)
    stream.until(lambda line: line["type"] == "ping")  # open, with nothing waiting
    messages.do_send_message(bob, alice, "bob's own words are not announced to bob")
    messages.do_send_message(alice, bob, "Rematch?")
    line = stream.until(lambda line: line["type"] == "message")
    assert line["from"] == "alice"
    assert line["text"] == "Rematch?"
    assert [seen["type"] for seen in stream.seen].count("message") == 1


def test_no_token_reads_or_sends_nothing(alice: User, bob: User) -> None:
    from tests.api.conftest import Api

    messages.do_send_message(alice, bob, "private")
    nobody = Api(None)
    for answer in (
        nobody.get("/me/conversations"),
        nobody.get("/me/conversations/alice"),
        nobody.post("/me/conversations/alice", {"text": "hi"}),
    ):
        assert answer.status_code == 401
        assert "private" not in answer.content.decode()
    assert Message.objects.count() == 1
