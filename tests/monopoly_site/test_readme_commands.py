"""The README's commands work as written, from a fresh shell with nothing
exported, after `make run` has set things up once, on a PORT of its own.

A copy of the checkout (sharing the virtualenv) is served by `make run`
itself, started with an empty environment but PORT; then every command of
the README's ``sh`` blocks runs from another empty environment, in the
copy, with only what the README says to change: the token
`create_api_token` printed, and the port. The bot plays a few moves (making
the game end is not this test's matter), the two Daphnes serve the same
site, and a finished game's record verifies with `verify_record`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live.servers import free_port

pytestmark = pytest.mark.slow  # a whole `make run` stack: a minute or two

BASE_DIR = Path(__file__).resolve().parents[2]
VENV = (BASE_DIR / ".venv").resolve()
BLOCK = re.compile(r"```sh\n(.*?)```", re.S)
# Not run here, and why.
NOT_RUN = {
    "make test": "it runs this very test",
}


def readme_commands() -> list[str]:
    """The README's shell commands: one per line (comments dropped), a
    heredoc with its body as one."""
    commands: list[str] = []
    for block in BLOCK.findall((BASE_DIR / "README.md").read_text()):
        lines = iter(block.splitlines())
        for line in lines:
            command = re.sub(r"\s+#.*$", "", line).strip()
            if not command or command.startswith("#"):
                continue
            heredoc = re.search(r"<<'?(\w+)'?", command)
            if heredoc:
                body = []
                for more in lines:
                    body.append(more)
                    if more.strip() == heredoc.group(1):
                        break
                command = "\n".join([line, *body])
            commands.append(command)
    return commands


def fresh_shell(**extra: str) -> dict[str, str]:
    """A login shell's environment, nothing exported but what is given."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        **extra,
    }


def copy_checkout(to: Path) -> Path:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=BASE_DIR,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    # The compiled engine is built, not committed (make engine).
    built = [*BASE_DIR.glob("monopoly_engine_native__mypyc*"), *BASE_DIR.glob("games/engine/*.so")]
    built.append(BASE_DIR / "games/engine/native.digest")
    names = [n.decode() for n in listed if n] + [str(p.relative_to(BASE_DIR)) for p in built]
    for name in names:
        source = BASE_DIR / name
        if source.is_file() and not source.is_symlink():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)  # with its time: make sees nothing to rebuild
    (to / ".venv").symlink_to(VENV)
    return to


def answers(url: str, timeout: float = 5) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def wait_for(check: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


def stop(process: subprocess.Popen[Any]) -> None:
    """As Ctrl-C would: SIGINT to its process group, then SIGKILL."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def api(site: str, token: str, method: str, path: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        f"{site}/api/v1{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """`make run` on a free port in a copy of the checkout, from an empty
    environment; (the copy, the site's URL)."""
    checkout = copy_checkout(tmp_path_factory.mktemp("checkout"))
    port = str(free_port())
    log = (checkout / "make-run.log").open("wb")
    process = subprocess.Popen(
        ["make", "run"],
        cwd=checkout,
        env=fresh_shell(PORT=port),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    site = f"http://127.0.0.1:{port}"
    try:
        wait_for(
            lambda: process.poll() is None and answers(f"{site}/healthz") == 200,
            240,
            f"make run to serve {site} (see {checkout / 'make-run.log'})",
        )
        yield checkout, site
    finally:
        stop(process)
        log.close()
        forget_the_sites_redis_keys(checkout)


def forget_the_sites_redis_keys(checkout: Path) -> None:
    """The copy's site kept its queues and cache in the Redis it found,
    under a prefix of its own (its database's): leave nothing behind."""
    import redis

    shown = run(checkout, SHOW_REDIS)
    if shown.returncode != 0:
        return
    url, prefix = shown.stdout.split()[-2:]
    client = redis.Redis.from_url(url)
    try:
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            client.delete(key)
    except redis.RedisError:
        pass  # an embedded Redis, stopped with its site
    finally:
        client.close()


SHOW_REDIS = (
    "DJANGO_SETTINGS_MODULE=monopoly_site.settings .venv/bin/python -c "
    '"import django; django.setup(); from django.conf import settings as s; '
    'print(s.REDIS_URL, s.REDIS_PREFIX)"'
)


def run(checkout: Path, command: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=checkout,
        env=fresh_shell(**extra),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_readme_command_runs_as_written_from_a_fresh_shell(
    stack: tuple[Path, str],
) -> None:
    checkout, site = stack
    port = site.rsplit(":", 1)[1]
    commands = readme_commands()
    assert "make run" in commands  # the stack above
    done = {"make run"}
    token = ""
    bot_game = ""
    for command in commands:
        if command in NOT_RUN or command in done:
            continue
        if "create_api_token" in command:
            result = run(checkout, command)
            assert result.returncode == 0, result.stderr
            token = result.stdout.strip().splitlines()[-1]
            assert token.startswith("mnp_")
        elif "examples/api_bot.py" in command:
            assert token, "the README makes the token before the bot uses it"
            bot_game = play_a_few_moves(checkout, command, token, site)
        elif "daphne" in command and "<<" in command:
            serve_with_two_daphnes(checkout, command, site, bot_game)
        else:
            raise AssertionError(f"a README command this test does not run: {command!r}")
        done.add(command)
    assert len(done) == len(commands) - len([c for c in commands if c in NOT_RUN])
    # PORT chooses the site's settings (.run/local-PORT.env) when several ran.
    chosen = run(checkout, ".venv/bin/python manage.py create_api_token demo", PORT=port)
    assert chosen.returncode == 0, chosen.stderr


def moves(lines: list[str]) -> int:
    return sum(re.match(r"v\d+: ", text) is not None for text in lines)


def play_a_few_moves(checkout: Path, command: str, token: str, site: str) -> str:
    """The README's bot command with its token and port; it plays until
    its third move, then stops. The game it plays."""
    command = re.sub(r"MONOPOLY_TOKEN=\S+", f"MONOPOLY_TOKEN={token}", command)
    command = command.replace("http://127.0.0.1:8000", site)
    bot = subprocess.Popen(
        ["bash", "-c", command],
        cwd=checkout,
        env=fresh_shell(PYTHONUNBUFFERED="1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        assert bot.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and moves(lines) < 3:
            line = bot.stdout.readline()
            if not line:
                break
            lines.append(line.strip())
    finally:
        stop(bot)
    playing = [text for text in lines if text.startswith(f"playing {site}/games/")]
    assert playing and moves(lines) >= 3, lines
    return playing[0].split("/games/", 1)[1].split("/", 1)[0]


def serve_with_two_daphnes(checkout: Path, command: str, site: str, game: str) -> None:
    """The README's two Daphnes on one socket (on a port of their own here)
    serve the site `make run` set up: its database, its Redis."""
    port = free_port()
    script = command.replace('("127.0.0.1", 8000)', f'("127.0.0.1", {port})')
    assert script != command
    daphnes = subprocess.Popen(
        ["bash", "-c", script],
        cwd=checkout,
        env=fresh_shell(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        other = f"http://127.0.0.1:{port}"
        wait_for(lambda: answers(f"{other}/healthz") == 200, 90, "the two Daphnes")
        assert answers(f"{other}/games/{game}/") == 200  # the bot's game: the same database
    finally:
        stop(daphnes)


def test_a_finished_games_record_verifies_with_manage_py_from_a_fresh_shell(
    stack: tuple[Path, str],
) -> None:
    checkout, site = stack
    made = run(checkout, ".venv/bin/python manage.py create_api_token demo")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip().splitlines()[-1]
    game = api(site, token, "POST", "/games", {"seats": 2})
    api(site, token, "POST", f"/games/{game['id']}/bots", {"kind": "random"})
    started = api(site, token, "POST", f"/games/{game['id']}/start")
    assert started["status"] == "active"
    for _ in range(20):  # the bot moves too: resign at the version it is at
        version = api(site, token, "GET", f"/games/{game['id']}")["version"]
        try:
            api(site, token, "POST", f"/games/{game['id']}/resign", {"expected_version": version})
            break
        except urllib.error.HTTPError as exc:
            assert exc.code == 409, exc.read()
    record = api(site, token, "GET", f"/games/{game['id']}/record.json")
    (checkout / f"monopoly-{game['id']}.json").write_text(json.dumps(record))
    # As README.md and docs/fair-dice.md show it.
    verified = run(checkout, f".venv/bin/python manage.py verify_record monopoly-{game['id']}.json")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "The record verifies" in verified.stdout
