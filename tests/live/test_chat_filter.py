"""The chat filter: its word lists, how it reads a line (case, look-alikes,
invisible characters, whole words), refusing or masking, the automatic
report after repeated matches; and a new account's links."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from accounts.models import User
from common.env import env_rates
from games.models import Game
from live.models import ChatMessage
from people import wordfilter
from people.models import Report
from tests.live.test_chat import post


@pytest.fixture(autouse=True)
def roomy_chat(settings: Any) -> None:
    """Enough posts for the report's threshold within the chat's rate limit."""
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "chat": env_rates("TEST", "100/10s/user", {"user", "ip"}, environ={}),
    }


@pytest.fixture(autouse=True)
def fresh_counts() -> Any:
    """Each test counts matches from zero (the keys are per user id)."""
    yield
    client = wordfilter._redis()
    keys = list(client.scan_iter(f"{django_settings.REDIS_PREFIX}:chatfilter:*"))
    if keys:
        client.delete(*keys)


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("you RETARD", "retard"),
        ("you r3t4rd", "retard"),
        ("you \uff52\uff45\uff54\uff41\uff52\uff44", "retard"),  # full-width
        ("you r\u0435t\u0430rd", "retard"),  # Cyrillic e and a
        ("you re\u200btard", "retard"),  # a zero-width space inside
        ("you ret\u00e1rd", "retard"),  # an accent
        ("just kill   yourself", "kill yourself"),
        ("kill-yourself", "kill yourself"),
        ("retard!", "retard"),
    ],
)
def test_it_reads_a_line_as_a_dodger_writes_it(line: str, word: str) -> None:
    screened = wordfilter.screen(line)
    assert screened.words and " ".join(screened.words[0].replace("-", " ").split()) == word


@pytest.mark.parametrize(
    "line", ["Scunthorpe United", "a classic asshat", "retardant paint", "skill yourselves"]
)
def test_a_word_inside_a_longer_one_is_no_match(line: str) -> None:
    assert not wordfilter.screen(line).matched


def test_masking_keeps_the_rest_of_the_line() -> None:
    screened = wordfilter.screen("gg you re\u200btard, well played")
    assert screened.masked == f"gg you {wordfilter.MASK}, well played"


def test_a_list_from_the_settings_adds_its_words(settings: Any, tmp_path: Path) -> None:
    extra = tmp_path / "extra.txt"
    extra.write_text("# the site's own\nbananas\nrotten egg\n", encoding="utf-8")
    settings.CHAT_FILTER_WORDS_FILES = [str(extra)]
    assert wordfilter.screen("you BANANAS").matched
    assert wordfilter.screen("a rotten  egg").matched
    assert wordfilter.screen("you retard").matched  # the default list still counts
    settings.CHAT_FILTER_WORDS_FILES = []
    assert not wordfilter.screen("you bananas").matched


def test_a_missing_list_leaves_the_default(settings: Any, tmp_path: Path) -> None:
    settings.CHAT_FILTER_WORDS_FILES = [str(tmp_path / "gone.txt")]
    assert wordfilter.screen("you retard").matched


def test_the_default_list_ships_with_the_site() -> None:
    words = wordfilter.read_list(wordfilter.DEFAULT_LIST)
    assert "retard" in words and "kill yourself" in words


def test_mask_mode_stores_the_line_masked(settings: Any, duel: Game, alice: User) -> None:
    settings.CHAT_FILTER_MODE = "mask"
    assert post(alice, duel, "players", "gg you RETARD").status_code == 200
    assert ChatMessage.objects.get().body == f"gg you {wordfilter.MASK}"


def test_refuse_mode_refuses_the_line_with_a_message(
    settings: Any, duel: Game, alice: User
) -> None:
    settings.CHAT_FILTER_MODE = "refuse"
    response = post(alice, duel, "players", "gg you RETARD")
    assert response.status_code == 422
    assert "does not allow" in response.content.decode()
    assert not ChatMessage.objects.exists()
    assert post(alice, duel, "players", "gg well played").status_code == 200


@pytest.mark.parametrize("mode", ["mask", "refuse"])
def test_repeated_matches_file_one_report_a_window(
    settings: Any, duel: Game, alice: User, mode: str
) -> None:
    settings.CHAT_FILTER_MODE = mode
    settings.CHAT_FILTER_REPORT_AFTER = 3
    post(alice, duel, "players", "you retard")
    post(alice, duel, "players", "a fine move")
    post(alice, duel, "players", "kys")
    assert not Report.objects.exists()
    post(alice, duel, "players", "dumbass")
    report = Report.objects.get()
    assert report.reporter is None
    assert (report.reported, report.reason, report.source) == (alice, "abuse", "filter")
    lines = [line["text"] for line in report.evidence["lines"]]
    assert lines == ["you retard", "kys", "dumbass"]  # as written, not as stored
    assert report.evidence["lines"][0]["where"] == duel.public_id
    assert report.case.user == alice
    post(alice, duel, "players", "retard again")
    assert Report.objects.count() == 1  # once in the window


def test_each_person_is_counted_apart(settings: Any, duel: Game, alice: User, bob: User) -> None:
    settings.CHAT_FILTER_REPORT_AFTER = 2
    post(alice, duel, "players", "you retard")
    post(bob, duel, "players", "you retard")
    assert not Report.objects.exists()
    post(bob, duel, "players", "kys")
    assert Report.objects.get().reported == bob


# --- a new account's links --------------------------------------------------------------


def veteran(user: User, settings: Any) -> None:
    settings.NEWCOMER_GAMES = 0
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=30))


@pytest.mark.parametrize("link", ["see https://example.net/x", "www.spam.example", "join me.gg"])
def test_a_new_account_posts_no_link(duel: Game, alice: User, link: str) -> None:
    response = post(alice, duel, "players", link)
    assert response.status_code == 422
    body = response.content.decode()
    assert "New accounts cannot post links" in body
    assert "days old" in body  # when they may
    assert not ChatMessage.objects.exists()


def test_a_new_account_may_write_without_links(duel: Game, alice: User) -> None:
    assert post(alice, duel, "players", "good luck, have fun").status_code == 200


def test_an_older_account_posts_links(settings: Any, duel: Game, alice: User) -> None:
    veteran(alice, settings)
    assert post(alice, duel, "players", "see https://example.net/x").status_code == 200


def test_an_old_account_without_finished_games_is_still_new(
    settings: Any, duel: Game, alice: User
) -> None:
    User.objects.filter(pk=alice.pk).update(date_joined=timezone.now() - timedelta(days=30))
    settings.NEWCOMER_GAMES = 3
    assert post(alice, duel, "players", "www.spam.example").status_code == 422


def test_staff_are_never_held_back(duel: Game, alice: User) -> None:
    User.objects.filter(pk=alice.pk).update(is_staff=True)
    assert post(alice, duel, "players", "www.example.org").status_code == 200
