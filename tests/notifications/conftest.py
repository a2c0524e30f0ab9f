from tests.games.conftest import alice, bob, duel, no_bot_tasks  # noqa: F401
