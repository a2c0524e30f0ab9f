"""Names that cannot pass for someone else's: unique under NFKC and case
folding across usernames and display names, no look-alike letters of another
script, nothing invisible, no reserved word or site bot's name, even when
two sign-ups race; names that clashed before the rule stay."""

from __future__ import annotations

import importlib
import threading
import time
from typing import Any
from unittest import mock

import pytest
from django.apps import apps
from django.db import connection, connections
from django.test import Client

from accounts.claims import NameTaken
from accounts.models import NameClaim, User
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def set_display_name(user: User, name: str) -> Any:
    client = Client()
    client.force_login(user)
    return client.post("/settings/", {"display_name": name, "time_zone": "UTC"})


def sign_up(username: str, client: Client | None = None) -> Any:
    return (client or Client()).post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{abs(hash(username))}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def refused(response: Any, why: str) -> bool:
    return response.status_code == 200 and why in response.content.decode()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("alice", "differ only in capitals"),
        ("Alice", "differ only in capitals"),
        ("ALICE", "differ only in capitals"),
        ("\uff21lice", "differ only in capitals"),  # full-width A
        ("\u0430lice", "another alphabet"),  # Cyrillic a
        ("\u0430l\u0456c\u0435", "another alphabet"),  # Cyrillic a, i, e
        ("aIice", "I, l and 1"),
        ("a1ice", "I, l and 1"),
    ],
)
def test_settings_refuse_a_display_name_that_passes_for_another_accounts_username(
    alice: User, bob: User, name: str, why: str
) -> None:
    response = set_display_name(bob, name)
    assert refused(response, why), response.content.decode()[-2000:]
    bob.refresh_from_db()
    assert bob.display_name == ""


def test_settings_refuse_another_accounts_display_name(alice: User, bob: User) -> None:
    # Alice's display name is "Alice A.".
    assert refused(set_display_name(bob, "alice a."), "differ only in capitals")
    assert refused(set_display_name(bob, "\u0410lice A."), "another alphabet")


def test_a_display_name_may_match_ones_own_username(alice: User, bob: User) -> None:
    response = set_display_name(bob, "Bob")
    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.display_name == "Bob"
    # And Bob's display name is then his alone.
    assert refused(sign_up("BOB"), "differ only in capitals")


def test_a_freed_display_name_may_be_taken_by_another(alice: User, bob: User) -> None:
    assert set_display_name(alice, "Queen").status_code == 302
    assert refused(set_display_name(bob, "queen"), "differ only in capitals")
    assert set_display_name(alice, "").status_code == 302
    assert set_display_name(bob, "queen").status_code == 302


def test_sign_up_refuses_a_full_width_copy_of_an_existing_username(db: None) -> None:
    User.objects.create_user("Alice", "a@example.com", PASSWORD)
    response = sign_up("\uff21lice")
    assert refused(response, "differ only in capitals")
    assert User.objects.count() == 1


def test_sign_up_refuses_a_cyrillic_look_alike_of_an_existing_name(alice: User) -> None:
    assert refused(sign_up("\u0430lice"), "another alphabet")
    assert User.objects.count() == 1


def test_sign_up_refuses_a_username_that_is_another_accounts_display_name(
    alice: User, bob: User
) -> None:
    assert set_display_name(bob, "Captain").status_code == 302
    assert refused(sign_up("captain"), "differ only in capitals")


def test_a_latin_word_may_not_hide_another_scripts_look_alike_even_unclaimed(
    bob: User,
) -> None:
    # Nobody is "paypal" yet: the fake may not squat on the name either.
    response = sign_up("p\u0430ypal")
    assert refused(response, "one alphabet"), response.content.decode()[-1500:]
    assert "U+0430 CYRILLIC SMALL LETTER A" in response.content.decode()
    assert refused(set_display_name(bob, "\u03a3igma"), "one alphabet")
    # Words each in one script are names, whatever the scripts.
    for name in ("\u0421\u0435\u0440\u0433\u0435\u0439 Smith", "\u65e5\u672cTaro"):
        assert set_display_name(bob, name).status_code == 302, name


def test_the_reserved_words_are_read_after_normalising(db: None) -> None:
    for name in ("\uff42\uff4f\uff54", "b\u043et", "Bot", "ADMIN"):  # full-width, Cyrillic o
        assert refused(sign_up(name), "reserved for the site"), name
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "name", ["Heuristic bot 1", "heuristic bot 3", "Random Bot 2", "Random bot", "Bot 1"]
)
def test_names_may_not_read_as_a_site_bots(alice: User, name: str) -> None:
    response = set_display_name(alice, name)
    assert refused(response, "site&#x27;s bots") or refused(response, "reserved for the site")
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("Ali\u200bce", "U+200B ZERO WIDTH SPACE"),
        ("\u202eecilA", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("Al\u2066ice", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("Alice\u00ad", "U+00AD SOFT HYPHEN"),
        ("\u3164", "U+3164 HANGUL FILLER"),
        ("\u2800\u2800", "U+2800 BRAILLE PATTERN BLANK"),
    ],
)
def test_names_may_not_hide_characters(bob: User, name: str, char: str) -> None:
    response = set_display_name(bob, name)
    assert refused(response, "invisible or text-direction"), response.content.decode()[-1500:]
    assert char in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""


def test_names_use_ordinary_spaces_and_few_stacked_accents(bob: User) -> None:
    assert refused(set_display_name(bob, "Bob\u2003Smith"), "ordinary spaces")
    assert refused(set_display_name(bob, "Bo" + "\u0301" * 5), "stacked")
    assert set_display_name(bob, "Jörg Müller").status_code == 302


def test_a_racing_save_that_lost_the_name_is_refused_and_undone(alice: User, bob: User) -> None:
    # As if Bob's form was checked before Alice's rename committed.
    bob.display_name = "\u0430lice a."
    with pytest.raises(NameTaken) as raised:
        bob.save()
    assert "another alphabet" in raised.value.message
    assert User.objects.get(pk=bob.pk).display_name == ""
    assert not NameClaim.objects.filter(user=bob, key__contains="alice").exists()


def test_the_settings_page_tells_the_loser_of_a_race_why(alice: User, bob: User) -> None:
    # As if Bob's form was checked before Alice's rename committed: the
    # check passes, the claim does not.
    assert set_display_name(alice, "Queen").status_code == 302
    with mock.patch("accounts.models.check_names"):
        response = set_display_name(bob, "QUEEN")
    assert refused(response, "differ only in capitals")
    bob.refresh_from_db()
    assert bob.display_name == ""


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        )
        (count,) = cursor.fetchone()
    return bool(count)


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_racing_for_alice_and_alice_get_one_account() -> None:
    first_saved, release = threading.Event(), threading.Event()
    answers: dict[str, Any] = {}

    def first() -> None:
        # Alice's account is saved, its transaction still open…
        from django.db import transaction

        try:
            with transaction.atomic():
                User.objects.create_user("Alice", "a@example.com", PASSWORD)
                first_saved.set()
                release.wait(30)
        finally:
            connections.close_all()

    def second() -> None:
        # …while "alice" passes the form's check and waits on the claim.
        try:
            answers["alice"] = sign_up("alice")
        finally:
            connections.close_all()

    one = threading.Thread(target=first)
    one.start()
    assert first_saved.wait(30)
    two = threading.Thread(target=second)
    two.start()
    deadline = time.monotonic() + 30
    while not _waiting_on_a_lock():
        assert time.monotonic() < deadline, "the second sign-up never waited on the claim"
        time.sleep(0.05)
    release.set()
    one.join(30)
    two.join(30)
    assert refused(answers["alice"], "differ only in capitals")
    assert list(User.objects.values_list("username", flat=True)) == ["Alice"]


def test_names_that_clashed_before_the_rule_survive_the_migration(alice: User, bob: User) -> None:
    User.objects.filter(pk=bob.pk).update(display_name="ALICE")  # from before the rule
    NameClaim.objects.all().delete()
    migration = importlib.import_module("accounts.migrations.0008_name_claims")
    migration.claim_existing_names(apps, None)
    assert NameClaim.objects.get(key="f:alice").user == alice
    # Bob keeps his name and may change everything else…
    client = Client()
    client.force_login(bob)
    response = client.post("/settings/", {"display_name": "ALICE", "time_zone": "Europe/Paris"})
    assert response.status_code == 302
    bob.refresh_from_db()
    assert (bob.display_name, bob.time_zone) == ("ALICE", "Europe/Paris")
    # …but nobody new may take it.
    assert refused(sign_up("Alice"), "differ only in capitals")
