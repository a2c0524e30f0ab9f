"""The game tests' people and games, for the site-wide tests that need a game."""

from tests.games.conftest import alice, bob, duel  # noqa: F401
