"""Replays rebuild every stored position; records export and import."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from accounts.models import User
from games import engine, services
from games.models import Game, GameEvent
from games.web.replay import landing_counts, load_replay
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db


def bot_game(
    moves: int, *, is_public: bool = True, humans: list[User] | None = None
) -> tuple[Game, dict[int, Any]]:
    """A bot game advanced ``moves`` decisions, with the state stored at each version."""
    game = services.create_seated_game(
        humans=humans or [], bots=["heuristic"] * 3, start=True, bot_delay_ms=0, is_public=is_public
    )
    game.refresh_from_db()
    stored = {game.version: game.state}
    for _ in range(moves):
        if game.status != Game.Status.ACTIVE or not services.play_bot_move(game.pk, game.version):
            break
        game.refresh_from_db()
        stored[game.version] = game.state
    return game, stored


def test_replay_state_at_every_step_equals_the_live_state(no_bot_tasks: Any) -> None:
    game, stored = bot_game(120)
    replay = load_replay(game)
    assert replay.steps == game.version - 1
    for version, state in stored.items():
        assert engine.to_dict(replay.state_at(version - 1)) == state, f"version {version}"


def test_a_running_games_record_has_the_moves_but_cannot_be_replayed_yet(
    client: Client, no_bot_tasks: Any, tmp_path: Path
) -> None:
    game, _ = bot_game(80)
    response = client.get(f"/games/{game.public_id}/record.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = response.json()
    assert record["secret"] is None and "seed" not in record
    assert len(record["actions"]) == game.version - 1
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="still running"):
        call_command("replay", str(path))


def test_a_finished_games_record_replays_to_its_final_state(
    client: Client, no_bot_tasks: Any, tmp_path: Path, capsys: Any, alice: User, bob: User
) -> None:
    game = services.create_seated_game(humans=[alice, bob], bots=["heuristic"], start=True)
    for _ in range(30):
        if not services.play_bot_move(game.pk, game.version):
            break
        game.refresh_from_db()
    for user in (alice, bob):
        game.refresh_from_db()
        services.resign(public_id=game.public_id, user=user, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    record = client.get(f"/games/{game.public_id}/record.json").json()
    assert record["secret"] == game.secret
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("replay", str(path))
    assert json.loads(capsys.readouterr().out) == game.state


def test_replay_page_steps_and_jumps(client: Client, no_bot_tasks: Any) -> None:
    game, _ = bot_game(60)
    url = f"/games/{game.public_id}/replay/"
    last = client.get(url)
    assert last.status_code == 200
    body = last.content.decode()
    assert f"Move {game.version - 1} of {game.version - 1}" in body
    assert 'id="board"' in body and "Net worth by turn" in body and 'class="heat-map"' in body
    first = client.get(url + "?step=0").content.decode()
    assert "Move 0 of" in first
    assert client.get(url + "?step=999999").status_code == 200
    assert client.get(url + "?step=banana").status_code == 200
    assert "turn 2 of" in client.get(url + "?turn=2").content.decode()


def htmx_get(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, HTTP_HX_REQUEST="true", **headers)
    assert response.status_code == 200, url
    assert "HX-Request" in response["Vary"]
    return response.content.decode()


def test_replay_region_at_every_step_shows_the_live_state(no_bot_tasks: Any) -> None:
    """The viewer's steps (htmx GETs of the region) show, at every step,
    the position play reached at that version: the move, and each cash."""
    game, stored = bot_game(60)
    client = Client()
    url = f"/games/{game.public_id}/replay/"
    steps = game.version - 1
    for version, state in stored.items():
        step = version - 1
        body = htmx_get(client, f"{url}?step={step}")
        assert body.lstrip().startswith('<div id="replay-region"'), step
        assert "Net worth by turn" not in body  # the charts stay with the page
        assert f"Move {step} of {steps}" in body
        assert f"turn {state['turn_no'] + 1} of" in body, step
        assert f'name="step" min="0" max="{steps}" value="{step}"' in body
        for name, cash in zip(state["names"], state["cash"], strict=True):
            shown = re.escape(f"{escape(name)}: ") + r"\D{0,3}" + f"{cash:,}" + r"(?![\d,])"
            assert re.search(shown, body), (step, name, cash)
        # The neighbours' links, for the buttons and the keys.
        assert (
            f'id="replay-next" class="button small" href="{url}?step={min(steps, step + 1)}"'
            in body
        )
        assert f'id="replay-prev" class="button small" href="{url}?step={max(0, step - 1)}"' in body


def test_a_history_restore_gets_the_whole_page(client: Client, no_bot_tasks: Any) -> None:
    game, _ = bot_game(10)
    url = f"/games/{game.public_id}/replay/?step=3"
    body = htmx_get(client, url, HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in body and "Net worth by turn" in body


def test_jump_to_turn_n_shows_turn_n_at_its_first_move(client: Client, no_bot_tasks: Any) -> None:
    game, stored = bot_game(80)
    url = f"/games/{game.public_id}/replay/"
    turn_at = {version - 1: state["turn_no"] + 1 for version, state in stored.items()}
    turns = max(turn_at.values())
    assert turns >= 4
    for turn in range(1, turns + 1):
        body = client.get(f"{url}?turn={turn}").content.decode()
        assert f"turn {turn} of {turns}" in body, turn
        assert f'name="turn" min="1" max="{turns}" value="{turn}"' in body
        first = min(step for step, shown in turn_at.items() if shown == turn)
        assert f"Move {first} of" in body, turn
    # Out of range: the first and the last turn.
    assert f"turn 1 of {turns}" in client.get(f"{url}?turn=0").content.decode()
    assert f"turn {turns} of {turns}" in client.get(f"{url}?turn=9999").content.decode()


def test_the_log_lines_are_numbered_as_the_header(client: Client, no_bot_tasks: Any) -> None:
    """At the move that starts turn N the header says turn N, and so does the
    log label over the new turn's lines (the lines before it are turn N-1's)."""
    game, _ = bot_game(80)
    url = f"/games/{game.public_id}/replay/"
    starts = GameEvent.objects.filter(game=game, kind="turn_start", seq__gt=1).order_by("seq")
    checked = 0
    for event in starts[:5]:
        turn = event.payload["turn_no"] + 1
        body = client.get(f"{url}?step={event.seq - 1}").content.decode()
        assert f"turn {turn} of" in body
        labels = [int(x.split("<")[0]) for x in body.split('class="log-turn-label">Turn ')[1:]]
        assert labels[-1] == turn and all(label in (turn - 1, turn) for label in labels)
        checked += 1
    assert checked


def test_landing_counts_match_the_move_events(no_bot_tasks: Any) -> None:
    game, _ = bot_game(60)
    counts = landing_counts(game)
    assert sum(counts[:40]) == GameEvent.objects.filter(game=game, kind="move").count()


def test_spectators_never_see_seat_private_events(client: Client, no_bot_tasks: Any) -> None:
    game, _ = bot_game(10)
    with setup_writes("an event for seat 0 only"):
        GameEvent.objects.create(
            game=game, seq=game.version, index=99, kind="worth", audience_seat=0,
            payload={"kind": "worth", "player": 0, "worth": 987654},
        )  # fmt: skip
    body = client.get(f"/games/{game.public_id}/replay/").content.decode()
    assert "987,654" not in body and "987654" not in body


def test_private_game_replay_and_record_are_hidden_from_strangers(
    client: Client, no_bot_tasks: Any
) -> None:
    owner = User.objects.create_user("owner", "o@example.com", "pw-owner-123")
    game, _ = bot_game(5, is_public=False, humans=[owner])
    assert client.get(f"/games/{game.public_id}/replay/").status_code == 404
    assert client.get(f"/games/{game.public_id}/record.json").status_code == 404
    client.force_login(owner)
    assert client.get(f"/games/{game.public_id}/replay/").status_code == 200


def test_replay_of_unstarted_game_is_404(client: Client) -> None:
    host = User.objects.create_user("host", "h@example.com", "pw-host-123")
    game = services.create_game(host=host)
    assert client.get(f"/games/{game.public_id}/replay/").status_code == 404


def overdue(game: Game, times: int) -> None:
    """Let ``times`` decisions run out of time, as the timer would (its note included)."""
    later = timezone.now() + timedelta(days=60)
    for _ in range(times):
        game.refresh_from_db()
        assert services.expire_decision(game.pk, game.version, now=later)
    game.refresh_from_db()


def every_step_of(client: Client, game: Game) -> str:
    """The replay page at every step, and by default; all the lines shown."""
    url = f"/games/{game.public_id}/replay/"
    bodies = []
    for step in range(game.version):
        response = client.get(f"{url}?step={step}")
        assert response.status_code == 200, f"step {step}"
        bodies.append(response.content.decode())
    last = client.get(url)
    assert last.status_code == 200
    assert f"Move {game.version - 1} of {game.version - 1}" in last.content.decode()
    return "".join(bodies)


def test_replay_shows_the_timers_notes_at_every_step_and_by_default(
    client: Client, no_bot_tasks: Any, duel: Game
) -> None:
    overdue(duel, 3)
    notes = GameEvent.objects.filter(game=duel, kind="note", payload__source="timeout")
    assert notes.count() == 3
    # The last timeout's move: its action, what it did (a pass in an auction
    # logs its bid first, the duel's dice decide), and the timer's note. An
    # automatic move (an end of turn with nothing left to do) may follow it.
    timed_out = notes.order_by("seq").last()
    assert timed_out is not None
    last = GameEvent.objects.filter(game=duel, seq=timed_out.seq).order_by("index")
    kinds = [e.kind for e in last]
    assert kinds[0] == "action" and "note" in kinds
    body = every_step_of(client, duel)
    for note in notes:
        assert escape(note.payload["text"]) in body


def test_replay_shows_standing_order_notes_at_every_step(
    client: Client, no_bot_tasks: Any, duel: Game, alice: User, bob: User
) -> None:
    orders = {"auto_roll": True, "jail": "pay", "buy_min_cash_left": 0, "auction": "pass"}
    for user in (alice, bob):
        services.set_standing_orders(public_id=duel.public_id, user=user, orders=orders)
    overdue(duel, 2)  # whatever the orders do not answer
    notes = GameEvent.objects.filter(game=duel, kind="note", payload__source="standing_order")
    assert notes.exists()
    body = every_step_of(client, duel)
    for note in notes:
        assert escape(note.payload["text"]) in body


def test_the_replay_shows_each_players_cash_as_money(client: Client, no_bot_tasks: Any) -> None:
    game, _ = bot_game(0)
    body = client.get(f"/games/{game.public_id}/replay/?step=0").content.decode()
    assert "Heuristic bot 1: $1,500" in body
    assert "$1500" not in body
