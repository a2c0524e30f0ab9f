"""CPU time of rendering a move's pushes, in-process (issue #35, item 5).

Plays real moves through ``games.services`` (the heuristic bot choosing
each human seat's action) with every seat's socket open and spectators
watching (presence mocked), the mover answered over htmx (``answering``),
and nothing actually sent (``live.groups.send`` does nothing). For each move
it takes the thread CPU time of the broadcast (``live.pushes.push``) and of
the render ahead of the commit (its own thread), the templates rendered and
the queries the broadcast made. CPU time, not wall clock: it survives a
shared, busy machine.

Two games with the same dice (their seed and secret set alike), the same
bots and people of other names are played side by side, a move of each in
turn: one with the render's cuts, one without (``CUTS``), so that both see
the same load. Run with the test database and services (a pytest module
outside ``make test``)::

    .venv/bin/python -m monopoly_site.localservices test -- bench/render_cost.py \
        -q -s -p no:cacheprovider -W ignore

``RENDER_MOVES`` (200) moves a game; ``RENDER_CUTS`` (names of ``CUTS``,
separated by ";") compares with only those off. Prints JSON lines.
``RENDER_PROFILE=out.prof`` with ``-k profile``: cProfile of the broadcast.
"""

from __future__ import annotations

import json
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test import override_settings
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from common import memo
from games import engine, services
from games.models import Game
from games.web.answer import answering
from live import broadcast, pushes
from live.presence import Summary
from tests.conftest import setup_writes


def _without_answer_reuse() -> Any:
    """The mover's answer renders its own panel instead of the push's."""
    return mock.patch("games.web.answer.as_target", return_value=None)


def _eager_orders_form() -> Any:
    from games.web.forms import StandingOrdersForm

    return mock.patch(
        "games.web.timer_presenters.orders_form",
        side_effect=lambda orders: StandingOrdersForm(initial=orders),
    )


def _memos_off(*names: str) -> Callable[[], Any]:
    """The named memos neither kept nor read (the other game's entries
    would otherwise be found: the same dice make the same forms)."""

    @contextmanager
    def off() -> Iterator[None]:
        from django.conf import settings

        get = memo.Memo.get

        def missing(self: memo.Memo[Any], key: Any) -> Any:
            return None if self.name in names else get(self, key)

        with (
            override_settings(MEMO_OFF=frozenset(settings.MEMO_OFF) | set(names)),
            mock.patch.object(memo.Memo, "get", missing),
        ):
            yield

    return off


# Each cut, and how to turn it off: the "before" game runs with all of them off.
CUTS: dict[str, Callable[[], Any]] = {
    "answer reuses the push's panel": _without_answer_reuse,
    "action panels remembered": _memos_off("actions"),
    "forms of a panel remembered": _memos_off("versioned"),
    "standing orders' form built only for the page": _eager_orders_form,
}


def _users(n: int, prefix: str) -> list[User]:
    return [
        User.objects.create_user(f"{prefix}{i}", f"{prefix}{i}@example.com", None) for i in range(n)
    ]


def _game(people: list[User]) -> Game:
    host, *others = people
    game = services.create_game(host=host, max_seats=len(people), bot_delay_ms=0, is_public=True)
    with setup_writes("the same dice in both games"):
        Game.objects.filter(pk=game.pk).update(seed=35, secret="35" * 32)
    for user in others:
        services.join_game(public_id=game.public_id, user=user, invite_token=game.invite_token)
    services.start_game(public_id=game.public_id, user=host)
    game.refresh_from_db()
    return game


def _compared() -> dict[str, Callable[[], Any]]:
    """The cuts the "before" game runs without: ``RENDER_CUTS`` (names from
    ``CUTS``, separated by ";"), else all."""
    names = [n for n in os.environ.get("RENDER_CUTS", "").split(";") if n]
    return {name: CUTS[name] for name in names} if names else CUTS


class Run:
    """One game played a move at a time, with its CPU per move."""

    def __init__(self, players: int, prefix: str, cuts_off: bool) -> None:
        self.game = _game(_users(players, prefix))
        self.seats = {
            s.number: s.user for s in self.game.seats.select_related("user") if s.user is not None
        }
        self.bots = {n: engine.make_bot("heuristic", seed=n) for n in self.seats}
        self.cuts_off = cuts_off
        self.push_cpu: list[float] = []
        self.ahead_cpu: list[float] = []
        self.templates: list[int] = []
        self.queries: list[int] = []
        self.answered = 0
        self.ahead = 0.0
        self.rendered = 0
        self.lock = threading.Lock()

    def step(self, measure: bool = True) -> bool:
        game = self.game
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return False
        state = engine.from_dict(game.state)
        player = engine.next_actor(state)
        if player not in self.seats:
            waiting = [d.player for d in engine.pending_decisions(state) if d.player in self.seats]
            if not waiting:
                return False
            player = waiting[0]
        action = self.bots[player].act(state, player).to_dict()
        action.pop("player", None)
        self.ahead, self.rendered = 0.0, 0
        pushed: list[tuple[float, int]] = []
        with ExitStack() as stack:
            stack.enter_context(self._metered(pushed))
            if self.cuts_off:
                for off in _compared().values():
                    stack.enter_context(off())
            answer = stack.enter_context(answering(game.public_id, self.seats[player].pk))
            services.submit_action(
                public_id=game.public_id,
                user=self.seats[player],
                action=action,
                expected_version=game.version,
            )
        if measure and pushed:
            self.push_cpu.append(sum(cpu for cpu, _ in pushed))
            self.queries.append(sum(n for _, n in pushed))
            # The broadcast waited for the render ahead: it is done.
            self.ahead_cpu.append(self.ahead)
            self.templates.append(self.rendered)
            self.answered += answer.html is not None
        return True

    @contextmanager
    def _metered(self, pushed: list[tuple[float, int]]) -> Iterator[None]:
        original_push = pushes.push
        original_ahead = broadcast._render_ahead

        def timed_push(record: Any, here: Any) -> None:
            start = time.thread_time()
            with CaptureQueriesContext(connection) as captured:
                original_push(record, here)
            pushed.append((time.thread_time() - start, len(captured.captured_queries)))

        def timed_ahead(*args: Any) -> Any:
            start = time.thread_time()
            try:
                return original_ahead(*args)
            finally:
                with self.lock:
                    self.ahead += time.thread_time() - start

        def count(**_: Any) -> None:
            with self.lock:
                self.rendered += 1

        template_rendered.connect(count, weak=False)
        try:
            with (
                mock.patch.object(pushes, "push", side_effect=timed_push),
                mock.patch.object(broadcast, "_render_ahead", side_effect=timed_ahead),
            ):
                yield
        finally:
            template_rendered.disconnect(count)

    def report(self) -> dict[str, Any]:
        total = [p + a for p, a in zip(self.push_cpu, self.ahead_cpu, strict=True)]
        return {
            "moves": len(total),
            "answered_by_push": self.answered,
            "cpu_ms_per_move_mean": round(1000 * statistics.fmean(total), 3),
            "cpu_ms_per_move_p50": round(1000 * statistics.median(total), 3),
            "broadcast_thread_ms_mean": round(1000 * statistics.fmean(self.push_cpu), 3),
            "render_ahead_ms_mean": round(1000 * statistics.fmean(self.ahead_cpu), 3),
            "templates_per_move_mean": round(statistics.fmean(self.templates), 2),
            "queries_per_push_mean": round(statistics.fmean(self.queries), 2),
        }


@contextmanager
def _stage(players: int) -> Iterator[None]:
    """Every seat's socket open, three spectators, nothing sent."""
    here = Summary(frozenset(range(players)), watching=3)
    with (
        mock.patch("live.presence.listening", return_value=here),
        mock.patch("live.presence.in_lobby", return_value=set()),
        mock.patch("live.groups.send", return_value=None),
        mock.patch("games.scheduling.schedule_bots"),
    ):
        yield


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("players", [2, 4])
def test_render_cost(players: int) -> None:
    moves = int(os.environ.get("RENDER_MOVES", "200"))
    with _stage(players):
        before = Run(players, f"b{players}x", cuts_off=True)
        after = Run(players, f"a{players}x", cuts_off=False)
        for _ in range(3):  # the templates compiled, the imports done
            before.step(measure=False)
            after.step(measure=False)
        for i in range(moves):
            # Which goes first alternates: neither always finds the CPU's caches warm.
            pair = (before, after) if i % 2 else (after, before)
            if not all([run.step() for run in pair]):
                break
    scenario = f"{players} players, every seat online, spectators"
    print(json.dumps({"scenario": scenario, "cuts": list(_compared()), "before": before.report()}))
    print(json.dumps({"scenario": scenario, "cuts": list(_compared()), "after": after.report()}))
    assert before.templates and after.templates


@pytest.mark.django_db(transaction=True)
def test_render_profile() -> None:
    out = os.environ.get("RENDER_PROFILE")
    if not out:
        pytest.skip("RENDER_PROFILE not set")
    import cProfile

    profile = cProfile.Profile()
    original = pushes.push

    def profiled(record: Any, here: Any) -> None:
        profile.enable()
        try:
            original(record, here)
        finally:
            profile.disable()

    with _stage(4):
        run = Run(4, "prof", cuts_off=False)
        for _ in range(3):
            run.step(measure=False)
        with mock.patch.object(pushes, "push", side_effect=profiled):
            for _ in range(int(os.environ.get("RENDER_MOVES", "200"))):
                if not run.step():
                    break
    profile.dump_stats(out)
