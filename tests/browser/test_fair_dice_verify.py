"""Fair dice in the browser: the lobby's script makes a player's seed, and
/fair-dice/verify checks a finished game's record with no server help,
passing a real one and failing it with one throw or one seed changed."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from tests.browser.test_play import SHOTS, log_in
from tests.engine.test_player_seeds import SECRET, _finished

FIXTURES = Path(__file__).resolve().parents[1] / "engine" / "fixtures"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def seeded() -> dict[str, Any]:
    record = _finished(["c3" * 32, "", None])
    assert engine.verify_record(record).ok
    return record


class Verifier:
    """The verify page in one browser tab, which must say nothing in its
    console but what it is asked."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto("/fair-dice/verify")

    def check(self, record: dict[str, Any]) -> str:
        page = self.page
        page.get_by_label("or paste it").fill(json.dumps(record))
        page.get_by_role("button", name="Check the record").click()
        summary = page.locator("#verify-summary[data-verdict]")
        summary.wait_for()
        return str(summary.get_attribute("data-verdict"))

    def failed(self) -> list[str]:
        return [str(t) for t in self.page.locator("#verify-results .check-fail").all_inner_texts()]


@pytest.mark.django_db(transaction=True)
def test_the_verify_page_passes_a_real_record_and_fails_a_tampered_one(
    page: Any, seeded: dict[str, Any]
) -> None:
    verifier = Verifier(page)
    assert verifier.check(seeded) == "ok"
    passed = page.locator("#verify-results .check-ok").all_inner_texts()
    assert len(passed) == 3, passed
    assert engine.dice_key(SECRET, seeded["seeds"]) in " ".join(passed)
    assert "c3" * 32 in page.locator("#verify-seeds").inner_text()
    assert "gave NO seed" in page.locator("#verify-seeds").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "fair-dice-verify.png"), full_page=True)

    throw = copy.deepcopy(seeded)
    dice = next(o for o in throw["outcomes"] if o[0] == "dice")
    dice[2][0] = dice[2][0] % 6 + 1
    assert verifier.check(throw) == "fail"
    assert any("throws and cards" in line for line in verifier.failed())

    seed = copy.deepcopy(seeded)
    seed["seeds"][0] = "c4" + "c3" * 31
    assert verifier.check(seed) == "fail"
    assert any("throws and cards" in line for line in verifier.failed())

    secret = copy.deepcopy(seeded)
    secret["secret"] = "5f" + SECRET[2:]
    assert verifier.check(secret) == "fail"
    assert any("commitment" in line for line in verifier.failed())
    assert verifier.errors == []


@pytest.mark.django_db(transaction=True)
def test_the_verify_page_passes_a_record_file_from_before_player_seeds(page: Any) -> None:
    verifier = Verifier(page)
    # Chosen as a file, as downloaded: the page checks it at once.
    page.set_input_files("#verify-file", str(FIXTURES / "record_before_player_seeds.json"))
    page.locator("#verify-summary[data-verdict]").wait_for()
    assert page.locator("#verify-summary").get_attribute("data-verdict") == "ok"
    assert "no player seeds" in page.locator("#verify-results").inner_text()
    assert verifier.errors == []


@pytest.mark.django_db(transaction=True)
def test_the_lobby_makes_a_seed_in_the_browser_and_the_player_changes_it(
    page: Any, live_server: Any
) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-12345")
    User.objects.create_user("bob", "bob@example.com", "pw-bob-12345")
    game = services.create_game(host=alice, max_seats=2)
    log_in(page, "bob", "pw-bob-12345")
    page.goto(f"/games/{game.public_id}/")
    assert game.commitment in page.locator("#fair-dice").inner_text()
    made = page.get_by_label("Your dice seed", exact=True).input_value()
    assert re.fullmatch(r"[0-9a-f]{64}", made)
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_text("You have taken a seat.").wait_for()
    assert game.seats.get(user__username="bob").seed == made
    field = page.locator("#my-seed")
    assert field.input_value() == made
    page.locator("button[data-seed-refresh='my-seed']").click()
    fresh = field.input_value()
    assert re.fullmatch(r"[0-9a-f]{64}", fresh) and fresh != made
    page.get_by_role("button", name="Save seed").click()
    page.get_by_text("Your dice seed is saved.").wait_for()
    assert game.seats.get(user__username="bob").seed == fresh
    page.set_viewport_size({"width": 390, "height": 844})
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lobby-seed-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_the_hosts_browser_saves_a_seed_once_the_commitment_is_on_the_page(page: Any) -> None:
    """The host is seated as the game is made, before its commitment can be
    seen: their lobby page saves the browser's seed in the background, once."""
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-12345")
    game = services.create_game(host=alice, max_seats=2)
    log_in(page, "alice", "pw-alice-12345")
    page.goto(f"/games/{game.public_id}/")
    page.get_by_text("Your browser made this seed and saved it").wait_for()
    seat = game.seats.get(user=alice)
    assert re.fullmatch(r"[0-9a-f]{64}", seat.seed)
    assert page.locator("#my-seed").input_value() == seat.seed
    # Removed on purpose, it stays removed.
    page.locator("#my-seed").fill("")
    page.get_by_role("button", name="Save seed").click()
    page.get_by_text("Your seat has no dice seed now.").wait_for()
    page.reload()
    page.locator("#my-seed").wait_for()
    assert game.seats.get(user=alice).seed == ""
    assert "no seed yet" in page.locator(".seat-list").inner_text()
