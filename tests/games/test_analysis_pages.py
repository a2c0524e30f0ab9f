"""Where a finished game's analysis shows: the replay's chart and turning
points (and its note while it is made), and the profiles' best comebacks."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game, GameAnalysis

pytestmark = pytest.mark.django_db


def user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-12345")


def won_by(winner: User, loser: User, *, is_public: bool = True) -> Game:
    """A game of two people that ends as ``loser`` resigns."""
    game = services.create_seated_game(
        humans=[winner, loser], bots=[], start=True, is_public=is_public
    )
    services.resign(public_id=game.public_id, user=loser, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def analysed(game: Game, lows: list[float], winner_seat: int = 0) -> GameAnalysis:
    """A stored analysis whose winner's chance goes through ``lows`` then 1."""
    points = []
    for step, p in enumerate([*lows, 1.0]):
        probs = [0.0, 0.0]
        probs[winner_seat], probs[1 - winner_seat] = p, round(1 - p, 4)
        points.append({"step": step, "turn": step + 1, "probabilities": probs})
    turning = [
        {
            "step": len(lows),
            "turn": len(lows) + 1,
            "seat": winner_seat,
            "before": lows[-1],
            "after": 1.0,
            "text": f"Turn {len(lows) + 1}: bob resigns: ada {round(100 * lows[-1])}% → 100%",
        }
    ]
    return GameAnalysis.objects.create(
        game=game, playouts=50, points=points, turning_points=turning
    )


def test_replay_shows_the_chart_and_turning_points_with_step_links(client: Client) -> None:
    ada, bob = user("ada"), user("bob")
    game = won_by(ada, bob)
    analysed(game, [0.5, 0.3, 0.4])
    replay = f"/games/{game.public_id}/replay/"
    body = client.get(replay).content.decode()
    assert "Chance of winning by move" in body and "<polyline" in body
    assert body.index("Net worth over time") < body.index("Chance of winning")
    # The ring on the chart and the list both link to the step of the move.
    assert f'<a class="chart-marker" href="{replay}?step=3"' in body
    assert f'href="{replay}?step=3" hx-get="{replay}?step=3"' in body
    assert "Turn 4: bob resigns: ada 40% → 100%" in body
    assert "<desc id=" in body and "ending ada 100%, bob 0%" in body  # for screen readers
    assert "<td>30%</td>" in body  # the table beside it
    assert "Analysing" not in body
    # Each step of the replay says where everyone's chances stood then.
    region = client.get(f"{replay}?step=1", HTTP_HX_REQUEST="true").content.decode()
    assert "· 30% to win" in region and "· 70% to win" in region
    assert "the last analysed move" not in region


def test_replay_steps_between_analysed_moves_say_which_move_they_show(client: Client) -> None:
    ada, bob = user("ada"), user("bob")
    game = won_by(ada, bob)
    GameAnalysis.objects.create(
        game=game,
        playouts=50,
        points=[{"step": 0, "turn": 1, "probabilities": [0.45, 0.55]}],
        turning_points=[],
    )
    body = client.get(f"/games/{game.public_id}/replay/?step=1").content.decode()
    assert "· 45% to win" in body and "estimated at move 0, the last analysed move" in body
    assert "Nobody's chances moved much in this game." in body


def test_replay_says_analysing_until_the_analysis_is_stored(client: Client) -> None:
    ada, bob = user("ada"), user("bob")
    game = won_by(ada, bob)
    replay = f"/games/{game.public_id}/replay/"
    body = client.get(replay).content.decode()
    assert "Analysing…" in body and 'role="status"' in body
    assert f'hx-get="{replay}?part=analysis" hx-trigger="every 15s"' in body
    panel = client.get(f"{replay}?part=analysis", HTTP_HX_REQUEST="true").content.decode()
    assert "Analysing…" in panel and "<html" not in panel
    analysed(game, [0.5, 0.45])
    panel = client.get(f"{replay}?part=analysis", HTTP_HX_REQUEST="true").content.decode()
    assert "Chance of winning by move" in panel and "hx-trigger" not in panel
    assert "Turn 3: bob resigns" in panel


def test_running_games_show_no_chances_on_the_replay(client: Client, no_bot_tasks: Any) -> None:
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    body = client.get(f"/games/{game.public_id}/replay/").content.decode()
    assert "Net worth over time" in body
    assert "Chance of winning" not in body and "Analysing" not in body
    part = client.get(f"/games/{game.public_id}/replay/?part=analysis").content.decode()
    assert "Chance of winning" not in part


def test_profile_lists_comebacks_lowest_first_with_the_low_point(client: Client) -> None:
    ada, bob = user("ada"), user("bob")
    deep = won_by(ada, bob)
    analysed(deep, [0.5, 0.04, 0.2])
    shallow = won_by(ada, bob)
    analysed(shallow, [0.5, 0.08])
    comfortable = won_by(ada, bob)
    analysed(comfortable, [0.5, 0.3])
    lost = won_by(bob, ada)
    analysed(lost, [0.5, 0.02], winner_seat=0)  # bob's comeback, not ada's
    body = client.get("/u/ada/").content.decode()
    assert "Best comebacks" in body
    section = body[body.index("Best comebacks") : body.index("Recent games")]
    assert section.index(deep.public_id) < section.index(shallow.public_id)
    assert comfortable.public_id not in section and lost.public_id not in section
    assert f'href="/games/{deep.public_id}/replay/?step=1"' in section
    assert "won from 4% at turn 2" in section
    assert "won from 8%" in section
    bobs = client.get("/u/bob/").content.decode()
    assert lost.public_id in bobs[bobs.index("Best comebacks") : bobs.index("Recent games")]


def test_profile_hides_private_comebacks_from_others(client: Client) -> None:
    ada, bob = user("ada"), user("bob")
    hidden = won_by(ada, bob, is_public=False)
    analysed(hidden, [0.5, 0.05])
    body = client.get("/u/ada/").content.decode()
    assert "No game won from below a 10% chance yet." in body
    assert hidden.public_id not in body
    part = client.get(f"/games/{hidden.public_id}/replay/?part=analysis")
    assert part.status_code == 404 and b"Chance of winning" not in part.content
    client.force_login(ada)
    assert hidden.public_id in client.get("/u/ada/").content.decode()
