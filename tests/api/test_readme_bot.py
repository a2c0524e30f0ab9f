"""The README's bot ("Writing a bot") against `make run`'s stack: a Daphne, a
worker, the analysis worker and beat started apart (bench/stack.py), the
demo account's token from ``manage.py create_api_token demo``, and
``examples/api_bot.py --bot heuristic --instant-bots`` run as written, to the
end of the game. The demo account is a person's, so no turn limit cuts the
game short: it ends because the bots trade and build."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

import httpx
import pytest
from django.conf import settings

from tests.conftest import BASE_DIR, CI


@pytest.mark.slow  # a whole site started and a whole game played: in `make test-long`
def test_the_readme_bot_plays_a_site_bot_to_the_end_within_ten_minutes(monkeypatch: Any) -> None:
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"] and not CI:
        pytest.skip("the stack runs on PostgreSQL, which does not answer here")
    monkeypatch.syspath_prepend(str(BASE_DIR / "bench"))
    from stack import Stack

    stack = Stack(name="readmebot", daphnes=1, workers=1, worker_concurrency=2, use_nginx=False)
    try:
        stack.start()
        env = {k: v for k, v in stack.env.items() if not k.startswith("PYTEST")}
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "ensure_demo"], cwd=BASE_DIR, env=env, check=True)
        made = subprocess.run(
            [*manage, "create_api_token", "demo"],
            cwd=BASE_DIR, env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        token = made.stdout.strip().splitlines()[-1]
        url = f"http://127.0.0.1:{stack.ports[0]}"
        bot = subprocess.run(
            [sys.executable, "examples/api_bot.py", "--url", url, "--bot", "heuristic",
             "--instant-bots"],
            cwd=BASE_DIR, env={**os.environ, "MONOPOLY_TOKEN": token}, capture_output=True,
            text=True, timeout=600,
        )  # fmt: skip
        out = bot.stdout
        assert bot.returncode == 0, f"{out[-3000:]}\n{bot.stderr[-3000:]}"
        assert "the game is over" in out, out[-3000:]
        found = re.search(r"/games/([A-Za-z0-9]+)/ as seat (\d)", out)
        assert found is not None, out[:2000]
        game_id = found.group(1)
        headers = {"Authorization": f"Bearer {token}"}
        view = httpx.get(f"{url}/api/v1/games/{game_id}", headers=headers).json()
        assert view["status"] == "finished"
        assert view["state"]["end_reason"] == "last_player"
        # Trades made the colour groups that ended it.
        assert re.search(r": (propose|accept)_trade", out), out[-3000:]
        assert re.search(r": build", out), out[-3000:]
        watched = httpx.get(f"{url}/api/v1/watch", headers=headers).json()
        assert game_id not in str(watched)
    finally:
        stack.stop()
        stack.drop()
        stack.cleanup(keep_logs=False)
