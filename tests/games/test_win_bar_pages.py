"""The spectators' win bar on the pages (issue #20): the game page, the htmx
resync, ``analysis.json``, ``/watch/`` and the host's delay on the create
form. Spectators see it; a seat's holder never does while the game runs."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game, PositionEstimate
from live import broadcast, winbar
from tests.conftest import setup_writes
from tests.games.conftest import played_turns

LABEL = "Chances of winning: alice 70%, bob 30%"
ROUND = 2  # turns: a full round of a duel


def stored(game: Game, version: int, probabilities: list[float]) -> PositionEstimate:
    return PositionEstimate.objects.create(
        game=game,
        version=version,
        playouts=1000,
        probabilities=probabilities,
        stderr=[0.0145] * len(probabilities),
    )


def moved_on(game: Game, moves: int, delay: int = 0) -> None:
    """The game ``moves`` versions on, the host's delay ``delay``."""
    with setup_writes("versions to estimate, the host's delay"):
        Game.objects.filter(pk=game.pk).update(
            version=game.version + moves, analysis_delay_moves=delay
        )
    game.refresh_from_db()


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_spectators_page_shows_each_players_chance(duel: Game, charlie: User) -> None:
    estimated = duel.version
    stored(duel, estimated, [0.7, 0.3])
    played_turns(duel, ROUND)
    for viewer in (None, charlie):
        html = client_for(viewer).get(duel.get_absolute_url()).content.decode()
        assert 'id="win-bar"' in html
        assert f'data-version="{estimated}" data-trails' in html
        assert "shown a full round late" in html
        assert f'aria-label="{LABEL}"' in html
        assert 'class="win-percent">70%<' in html and 'class="win-percent">30%<' in html
        assert "width: 70.00%" in html


@pytest.mark.django_db
def test_a_players_page_and_resync_never_carry_the_bar(duel: Game, alice: User) -> None:
    stored(duel, duel.version, [0.7, 0.3])
    client = client_for(alice)
    page = client.get(duel.get_absolute_url()).content.decode()
    resync = client.get(f"{duel.get_absolute_url()}regions").content.decode()
    for html in (page, resync):
        assert "win-bar" not in html and "Chances of winning" not in html
        assert "70%" not in html
    _, snapshot = broadcast.snapshot(duel.pk, 0, alice, win_bar=True)
    assert "win-bar" not in snapshot


@pytest.mark.django_db
def test_a_spectators_resync_and_snapshot_carry_the_bar(duel: Game, charlie: User) -> None:
    stored(duel, duel.version, [0.7, 0.3])
    played_turns(duel, ROUND)
    resync = client_for(charlie).get(f"{duel.get_absolute_url()}regions").content.decode()
    assert 'id="win-bar"' in resync and 'hx-swap-oob="true"' in resync
    _, snapshot = broadcast.snapshot(duel.pk, None, charlie, win_bar=True)
    assert LABEL in snapshot
    # The home page's glances are sent no bar.
    _, glance = broadcast.snapshot(duel.pk, None, charlie, win_bar=False)
    assert "win-bar" not in glance


@pytest.mark.django_db
def test_spectators_see_the_bar_the_hosts_delay_late(duel: Game, charlie: User) -> None:
    played_turns(duel, ROUND)
    first = duel.version
    stored(duel, first, [0.7, 0.3])
    stored(duel, first + 2, [0.2, 0.8])
    played_turns(duel, ROUND)  # the turn started at first is a full round back
    moved_on(duel, 3 - ROUND, delay=2)
    html = client_for(charlie).get(duel.get_absolute_url()).content.decode()
    assert LABEL in html  # version first + 1 is the newest they may see
    assert "shown a full round late and at least 2 moves late" in html
    found = winbar.message(duel)
    assert found is not None
    group, message = found
    assert group == f"game-{duel.pk}-win-bar" and message["version"] == first
    assert message["html"].startswith(f"<!--push {first}-->")
    moved_on(duel, 1, delay=2)
    assert winbar.message(duel)[1]["version"] == first  # type: ignore[index]  # first + 2: within the round
    played_turns(duel, ROUND)
    assert winbar.message(duel)[1]["version"] == first + 2  # type: ignore[index]


@pytest.mark.django_db
def test_analysis_json_gives_spectators_the_delayed_estimate(duel: Game, charlie: User) -> None:
    url = f"{duel.get_absolute_url()}analysis.json"
    empty = client_for(charlie).get(url).json()
    assert empty["version"] is None and empty["win_probability"] == {}
    assert empty["withheld"] is False
    played_turns(duel, ROUND)
    first = duel.version
    stored(duel, first, [0.7, 0.3])
    stored(duel, first + 1, [0.4, 0.6])
    moved_on(duel, 2)
    # Within the round: stored, and withheld from everyone.
    within = client_for(None).get(url).json()
    assert within["version"] is None and within["withheld"] is True
    assert within["win_probability"] == {}
    played_turns(duel, ROUND + 1)  # the turn after the estimates' is a round back
    moved_on(duel, 0, delay=1)
    answer = client_for(charlie).get(url)
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-store"
    body = answer.json()
    assert body["version"] == first + 1 and body["withheld"] is False
    assert body["playouts"] == 1000
    assert body["win_probability"] == {"alice": 0.4, "bob": 0.6}
    assert body["stderr"] == {"alice": 0.0145, "bob": 0.0145}
    assert body["delay_moves"] == 1 and body["delay_rounds"] == 1 and body["final"] is False


@pytest.mark.django_db
def test_analysis_json_refuses_a_seated_player_until_the_game_is_over(
    duel: Game, alice: User, bob: User
) -> None:
    stored(duel, duel.version, [0.7, 0.3])
    url = f"{duel.get_absolute_url()}analysis.json"
    for player in (alice, bob):
        answer = client_for(player).get(url)
        assert answer.status_code == 403
        assert "seat in this game" in answer.json()["error"]
        assert "0.7" not in answer.content.decode()
    services.resign(public_id=duel.public_id, user=bob, expected_version=duel.version)
    body = client_for(bob).get(url).json()
    assert body["final"] is True
    assert body["win_probability"] == {"alice": 1.0, "bob": 0.0}


@pytest.mark.django_db
def test_the_watch_list_shows_the_bar_to_all_but_the_games_players(
    duel: Game, alice: User, charlie: User
) -> None:
    stored(duel, duel.version, [0.7, 0.3])
    played_turns(duel, ROUND)
    seen = client_for(charlie).get("/watch/").content.decode()
    assert LABEL in seen and "win-track is-small" in seen
    mine = client_for(alice).get("/watch/").content.decode()
    assert duel.public_id in mine and LABEL not in mine and "70%" not in mine
    # The pushed list is rendered per viewer as well.
    assert LABEL in broadcast.watch_html(charlie, "push-1")
    assert LABEL not in broadcast.watch_html(alice, "push-1")
    assert LABEL in broadcast.watch_html(None, "push-1")


@pytest.mark.django_db
def test_the_host_sets_the_delay_on_the_create_form(alice: User) -> None:
    client = client_for(alice)
    form = {"preset": "us-2003", "max_seats": "2", "turn_seconds": "3600"}
    form["visibility"] = "public"
    page = client.get("/lobby/").content.decode()
    assert "Delay the spectators&#x27; win bar by (moves)" in page
    refused = client.post("/lobby/create", {**form, "analysis_delay_moves": "51"})
    assert refused.status_code == 422
    assert "less than or equal to 50" in refused.content.decode()
    assert not Game.objects.exists()
    created = client.post("/lobby/create", {**form, "analysis_delay_moves": "5"})
    assert created.status_code == 302
    game = Game.objects.get()
    assert game.analysis_delay_moves == 5
    lobby = client.get(game.get_absolute_url()).content.decode()
    assert "Shown a full round late and at least 5 moves late" in lobby


@pytest.mark.django_db
def test_the_service_refuses_a_delay_out_of_range(alice: User, settings: Any) -> None:
    with pytest.raises(services.GameError, match="0 to 50 moves"):
        services.create_game(host=alice, analysis_delay_moves=51)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_watch_list_says_why_it_shows_no_chances(
    duel: Game, alice: User, charlie: User
) -> None:
    stored(duel, duel.version, [0.7, 0.3])
    for viewer in (None, charlie):
        seen = client_for(viewer).get("/watch/").content.decode()
        assert "Withheld: shown a round late" in seen
        assert "Not estimated yet" not in seen and "70%" not in seen
    mine = client_for(alice).get("/watch/").content.decode()
    assert "Hidden: you play in it" in mine and "70%" not in mine
    assert "Withheld" not in broadcast.watch_html(alice, "push-2")
    assert "Withheld: shown a round late" in broadcast.watch_html(None, "push-2")


@pytest.mark.django_db
def test_analysis_json_logged_out_is_a_full_round_late(duel: Game) -> None:
    url = f"{duel.get_absolute_url()}analysis.json"
    stored(duel, duel.version, [0.7, 0.3])
    body = client_for(None).get(url).json()
    assert body["version"] is None and body["withheld"] is True and body["delay_rounds"] == 1
    assert "0.7" not in str(body)
    played_turns(duel, ROUND)
    body = client_for(None).get(url).json()
    assert body["win_probability"] == {"alice": 0.7, "bob": 0.3}
