"""A rated game's final banner says in one line why a winner gains more
than a loser loses, and links to a page on how ratings work, whose worked
example comes from the site's own model."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games import services
from ratings.models import RatingChange
from ratings.services import first_game_example

pytestmark = pytest.mark.django_db

NOTE = "so a winner gains more than a loser loses"


def people(*names: str) -> list[User]:
    return [User.objects.create_user(n, f"{n}@example.com", f"pw-{n}-12345") for n in names]


def test_a_new_pairs_first_game_moves_the_winner_more_than_the_loser() -> None:
    example = first_game_example()
    assert example["start"] == 1500
    assert example["winner"] > -example["loser"] > 0
    # The two parts: the estimate's move, the same for both, and the certainty gained by both.
    assert abs(example["skill"] + example["certainty"] - example["winner"]) <= 1
    assert abs(-example["skill"] + example["certainty"] - example["loser"]) <= 1


def test_the_final_banner_explains_uneven_rating_changes(client: Client) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    services.resign(public_id=game.public_id, user=grace, expected_version=game.version)
    changes = {c.user_id: c.delta for c in RatingChange.objects.filter(game=game)}
    assert changes[ada.pk] > -changes[grace.pk] > 0
    body = client.get(game.get_absolute_url()).content.decode()
    assert NOTE in body
    assert 'href="/leaderboard/ratings/#uneven"' in body


def test_an_unrated_game_says_nothing_about_ratings(client: Client) -> None:
    [ada] = people("ada")
    game = services.create_seated_game(humans=[ada], bots=["heuristic"], start=True)
    services.resign(public_id=game.public_id, user=ada, expected_version=game.version)
    assert NOTE not in client.get(game.get_absolute_url()).content.decode()


def test_the_ratings_page_explains_the_uneven_changes_with_the_models_numbers(
    client: Client,
) -> None:
    example = first_game_example()
    body = client.get("/leaderboard/ratings/").content.decode()
    assert "OpenSkill" in body and "Plackett" in body
    assert f"by +{example['winner']} and the loser by {example['loser']}" in body
    assert 'href="/leaderboard/ratings/"' in client.get("/leaderboard/").content.decode()
