"""Rating updates at game end, and the leaderboard's queries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game, Seat
from ratings.leaderboard import own_rank
from ratings.models import PlayerRating, Pool, RatingChange
from ratings.services import rate_game
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db


def make_user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-12345678")


def finished_game(ranks: dict[User | str, int], preset: str = "us-2003") -> Game:
    """A finished game with the given final ranks (setup only; services finish real games)."""
    with setup_writes("a finished game with these ranks"):
        game = Game.objects.create(preset=preset, status=Game.Status.FINISHED, max_seats=len(ranks))
        for number, (who, rank) in enumerate(ranks.items()):
            if isinstance(who, str):
                Seat.objects.create(game=game, number=number, bot_kind=who, final_rank=rank)
            else:
                Seat.objects.create(game=game, number=number, user=who, final_rank=rank)
    return game


def rating(user: User, pool: str = Pool.REGULAR) -> PlayerRating:
    return PlayerRating.objects.get(user=user, pool=pool)


def test_winner_gains_and_loser_loses() -> None:
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    changes = rate_game(finished_game({a: 1, b: 2, c: 3}))
    assert len(changes) == 3
    assert rating(a).mu > 25 > rating(c).mu
    assert rating(a).ordinal > rating(b).ordinal > rating(c).ordinal
    assert all(r.games == 1 for r in PlayerRating.objects.all())


def test_tied_players_move_together() -> None:
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    rate_game(finished_game({a: 1, b: 2, c: 2}))
    assert rating(b).mu == pytest.approx(rating(c).mu)
    assert rating(a).mu > rating(b).mu


def test_games_with_bots_are_unrated() -> None:
    a, b = make_user("a"), make_user("b")
    assert rate_game(finished_game({a: 1, b: 2, "heuristic": 3})) == []
    assert not PlayerRating.objects.exists()


def test_short_and_time_limit_games_use_their_own_pool() -> None:
    a, b = make_user("a"), make_user("b")
    rate_game(finished_game({a: 1, b: 2}, preset="short-2003"))
    rate_game(finished_game({a: 2, b: 1}, preset="time-limit"))
    rate_game(finished_game({a: 1, b: 2}))
    assert rating(a, Pool.SHORT).games == 2
    assert rating(a, Pool.REGULAR).games == 1


def test_a_game_is_rated_once() -> None:
    a, b = make_user("a"), make_user("b")
    game = finished_game({a: 1, b: 2})
    rate_game(game)
    assert rate_game(game) == []
    assert RatingChange.objects.count() == 2
    assert rating(a).games == 1


def test_finishing_a_game_through_the_services_rates_it() -> None:
    a, b = make_user("a"), make_user("b")
    game = services.create_game(host=a, max_seats=2)
    services.join_game(public_id=game.public_id, user=b)
    services.start_game(public_id=game.public_id, user=a)
    game.refresh_from_db()
    services.resign(public_id=game.public_id, user=b, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert rating(a).ordinal > rating(b).ordinal
    assert RatingChange.objects.get(user=a).delta > 0


def seed_board(count: int) -> list[User]:
    users = [make_user(f"p{i:03d}") for i in range(count)]
    now = timezone.now()
    PlayerRating.objects.bulk_create(
        PlayerRating(
            user=u, pool=Pool.REGULAR, mu=25 + i * 0.1, sigma=2, ordinal=25 + i * 0.1 - 6,
            games=10, last_game_at=now,
        )
        for i, u in enumerate(users)
    )  # fmt: skip
    return users


def test_leaderboard_lists_only_active_players_with_ten_games(client: Client) -> None:
    users = seed_board(3)
    newcomer, idle = make_user("newcomer"), make_user("idle")
    PlayerRating.objects.create(
        user=newcomer, pool=Pool.REGULAR, games=9, last_game_at=timezone.now()
    )
    PlayerRating.objects.create(
        user=idle, pool=Pool.REGULAR, games=50, last_game_at=timezone.now() - timedelta(days=31)
    )
    body = client.get("/leaderboard/").content.decode()
    board, _, apart = body.partition('id="provisional-heading"')
    assert all(u.username in board for u in users)
    assert "newcomer" not in board and "newcomer" in apart  # listed apart, as provisional
    assert "idle" not in body
    assert body.index("p002") < body.index("p000")  # best first


def test_a_new_sites_leaderboard_lists_its_provisional_players_best_first(
    client: Client,
) -> None:
    a, b, c, nogames = make_user("a"), make_user("b"), make_user("c"), make_user("nogames")
    rate_game(finished_game({a: 1, b: 2, c: 3}))
    rate_game(finished_game({a: 1, b: 2, c: 3}))
    PlayerRating.objects.create(user=nogames, pool=Pool.REGULAR, games=0)
    body = client.get("/leaderboard/").content.decode()
    assert "Nobody has qualified for this board yet" in body
    apart = body.partition('id="provisional-heading"')[2]
    assert apart.index(">a<") < apart.index(">b<") < apart.index(">c<")
    assert f'{rating(a).shown}<abbr title="provisional">?</abbr>' in apart
    assert "2 of 10" in apart
    assert "nogames" not in body


def test_provisional_players_are_listed_beside_the_first_page_only(client: Client) -> None:
    seed_board(60)
    newcomer = make_user("newcomer")
    PlayerRating.objects.create(
        user=newcomer, pool=Pool.REGULAR, games=3, last_game_at=timezone.now()
    )
    assert "newcomer" in client.get("/leaderboard/").content.decode()
    assert "newcomer" not in client.get("/leaderboard/?page=2").content.decode()


def test_own_rank_is_found_even_off_the_page(client: Client) -> None:
    users = seed_board(120)
    lowest = users[0]
    assert own_rank(Pool.REGULAR, lowest)[0] == 120
    client.force_login(lowest)
    body = client.get("/leaderboard/").content.decode()
    assert "#120" in body and "page=3" in body


def test_leaderboard_query_count_does_not_grow_with_page(client: Client) -> None:
    users = seed_board(130)
    client.force_login(users[5])
    counts = []
    for page in (1, 2, 3):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/leaderboard/?page={page}").status_code == 200
        counts.append(len(queries))
    assert counts[1] == counts[2]
    assert counts[0] == counts[1] + 1  # the provisional players, beside the first page


def test_profile_shows_rating_history_chart(client: Client) -> None:
    a, b = make_user("a"), make_user("b")
    for ranks in ({a: 1, b: 2}, {a: 1, b: 2}):
        rate_game(finished_game(ranks))
    body = client.get("/u/a/").content.decode()
    assert '<svg class="chart"' in body
    assert "Rating history" in body
    assert "Won" in body


def test_finished_game_page_shows_rating_changes_and_replay_link(client: Client) -> None:
    a, b = make_user("a"), make_user("b")
    game = services.create_game(host=a, max_seats=2)
    services.join_game(public_id=game.public_id, user=b)
    services.start_game(public_id=game.public_id, user=a)
    game.refresh_from_db()
    services.resign(public_id=game.public_id, user=b, expected_version=game.version)
    body = client.get(f"/games/{game.public_id}/").content.decode()
    winner_change = RatingChange.objects.get(user=a)
    assert f"{winner_change.after} (+{winner_change.delta})" in body
    assert f"/games/{game.public_id}/replay/" in body


def test_games_rated_with_bots_count_bots_as_fixed_opponents() -> None:
    a, b = make_user("a"), make_user("b")
    game = finished_game({a: 1, "heuristic": 2, b: 3})
    game.rated_with_bots = True
    with setup_writes("a game rated with bots"):
        game.save(update_fields=["rated_with_bots"])
    changes = rate_game(game)
    assert {c.user_id for c in changes} == {a.pk, b.pk}
    assert rating(a).ordinal > rating(b).ordinal
    assert PlayerRating.objects.count() == 2  # the bot has no rating of its own


def test_one_person_against_bots_is_rated_only_when_asked() -> None:
    a = make_user("a")
    assert rate_game(finished_game({a: 1, "random": 2})) == []
    game = finished_game({a: 1, "random": 2})
    game.rated_with_bots = True
    with setup_writes("a game rated with bots"):
        game.save(update_fields=["rated_with_bots"])
    assert len(rate_game(game)) == 1
    assert rating(a).mu > 25


def test_create_form_can_make_a_bot_game_rated(client: Client) -> None:
    a = make_user("a")
    client.force_login(a)
    client.post(
        "/lobby/create",
        {"preset": "us-2003", "max_seats": "2", "turn_seconds": "3600", "visibility": "public",
         "rated_with_bots": "on"},
    )  # fmt: skip
    assert Game.objects.get().rated_with_bots is True


def test_finished_game_page_shows_the_charts(client: Client) -> None:
    a, b = make_user("a"), make_user("b")
    game = services.create_game(host=a, max_seats=2)
    services.join_game(public_id=game.public_id, user=b)
    services.start_game(public_id=game.public_id, user=a)
    game.refresh_from_db()
    services.resign(public_id=game.public_id, user=b, expected_version=game.version)
    body = client.get(f"/games/{game.public_id}/").content.decode()
    assert "Net worth over time" in body and 'class="heat-map"' in body
