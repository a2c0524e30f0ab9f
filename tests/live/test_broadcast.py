"""What the broadcast renders and for whom."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.template.loader import render_to_string

from common import memo
from games.models import Game
from games.web.answer import answering
from live import broadcast, groups
from live.presence import Summary
from tests.conftest import setup_writes
from tests.live.conftest import pushes_of


def pushed_to(game: Game) -> list[list[str]]:
    return [[group for group, _ in batch] for batch in pushes_of(game)]


def test_it_renders_nothing_private_when_nobody_is_listening(duel: Game) -> None:
    with mock.patch("live.presence.listening", return_value=Summary(frozenset(), 0)):
        assert pushed_to(duel) == [[groups.players_group(duel.pk)], []]


def test_it_renders_for_spectators_and_for_present_seats_only(duel: Game) -> None:
    with mock.patch("live.presence.listening", return_value=Summary(frozenset({1}), 3)):
        assert pushed_to(duel) == [
            [groups.spectators_group(duel.pk), groups.players_group(duel.pk)],
            [groups.seat_group(duel.pk, 1)],
        ]


def test_it_renders_for_everyone_when_presence_is_unknown(duel: Game) -> None:
    with mock.patch("live.presence.listening", return_value=None):
        assert pushed_to(duel)[1] == [
            groups.seat_group(duel.pk, 0),
            groups.seat_group(duel.pk, 1),
        ]


def test_every_push_carries_its_version(duel: Game) -> None:
    with mock.patch("live.presence.listening", return_value=None):
        for batch in pushes_of(duel):
            for _, message in batch:
                assert message["version"] == duel.version
                assert message["html"].startswith(f"<!--push {duel.version}-->")


def test_at_the_end_the_players_get_the_spectators_room(duel: Game, charlie: object) -> None:
    from live.models import ChatMessage

    ChatMessage.objects.create(game=duel, room="spectators", author=charlie, body="gg both")
    with setup_writes("the game over"):
        Game.objects.filter(pk=duel.pk).update(status=Game.Status.FINISHED)
    duel.refresh_from_db()
    with mock.patch("live.presence.listening", return_value=Summary(frozenset(), 0)):
        [_, last] = list(pushes_of(duel))
    [(group, message)] = last
    assert group == groups.players_group(duel.pk)
    assert "gg both" in message["html"]
    assert "Spectators&#x27; chat" in message["html"] or "Spectators' chat" in message["html"]


def test_the_seats_and_deadlines_are_read_once_for_every_audience(duel: Game) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with (
        mock.patch("live.presence.listening", return_value=None),
        CaptureQueriesContext(connection) as queries,
    ):
        pushes = list(pushes_of(duel))
    assert [len(batch) for batch in pushes] == [2, 2]
    sql = [q["sql"] for q in queries.captured_queries]
    assert sum('FROM "games_seat"' in q for q in sql) == 1
    assert sum('FROM "games_deadline"' in q for q in sql) == 1
    assert not any('FROM "games_game"' in q for q in sql)


@pytest.mark.django_db(transaction=True)
def test_the_push_goes_before_the_writes_notices(duel: Game) -> None:
    from django.db import transaction

    from games.services.subscribers import announce
    from games.services.write import Committed, Notice

    order: list[str] = []
    with (
        mock.patch("live.pushes.heard", return_value=True),
        mock.patch("live.pushes.push", side_effect=lambda *a: order.append("push")),
        mock.patch(
            "notifications.services.notify", side_effect=lambda *a, **k: order.append("notice")
        ),
        mock.patch("games.scheduling.schedule_timers"),
    ):
        with transaction.atomic():
            notice = Notice(duel.seats.get(number=0).user_id, "takeover", "A bot plays your seat.")
            announce(Committed(duel, duel.version, notices=[notice]))
            assert order == []
        assert order == ["push", "notice"]


def test_rows_the_write_announced_are_not_read_again(duel: Game) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seats = list(duel.seats.select_related("user").order_by("number"))
    deadlines = list(duel.deadlines.all())
    with (
        mock.patch("live.presence.listening", return_value=None),
        CaptureQueriesContext(connection) as queries,
    ):
        pushes = pushes_of(duel, seats=seats, deadlines=deadlines)
    assert [len(batch) for batch in pushes] == [2, 2]
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert 'FROM "games_seat"' not in sql and 'FROM "games_deadline"' not in sql


def test_who_listens_is_not_read_again_when_the_subscriber_read_it(duel: Game) -> None:
    from games.services.write import Committed

    record = Committed(duel, duel.version)
    with mock.patch("live.presence.listening", side_effect=AssertionError("read again")):
        pushes = list(broadcast.game_pushes(record, Summary(frozenset(), 0)))
    assert [[g for g, _ in batch] for batch in pushes] == [[groups.players_group(duel.pk)], []]


def test_at_the_end_spectators_get_their_idle_action_card(duel: Game) -> None:
    with setup_writes("the game over"):
        Game.objects.filter(pk=duel.pk).update(status=Game.Status.FINISHED)
    duel.refresh_from_db()
    with mock.patch("live.presence.listening", return_value=Summary(frozenset(), 1)):
        [first, _] = list(pushes_of(duel))
    [spectators] = [m for g, m in first if g == groups.spectators_group(duel.pk)]
    assert 'id="actions"' in spectators["html"]
    assert "expected_version" not in spectators["html"]  # no forms: nothing of a seat's


@pytest.mark.django_db(transaction=True)  # the process remembers only committed rows
def test_your_games_is_rendered_only_for_players_looking_at_the_lobby(duel: Game) -> None:
    alice_pk = duel.seats.get(number=0).user_id
    memo.clear_all()  # a process that has not pushed this game's row
    with mock.patch("live.presence.in_lobby", return_value={alice_pk}):
        pushes = broadcast.your_games_pushes(duel)
    assert [group for group, _ in pushes] == [groups.user_games_group(alice_pk)]
    # Nothing changed in the row since: nothing is rendered again.
    with mock.patch("live.presence.in_lobby", return_value=None):
        assert broadcast.your_games_pushes(duel) == []


def _answered(duel: Game, here: Summary) -> tuple[str | None, list[list[tuple[str, Any]]]]:
    alice_pk = duel.seats.get(number=0).user_id
    with (
        mock.patch("live.presence.listening", return_value=here),
        answering(duel.public_id, alice_pk) as answer,
    ):
        pushes = list(pushes_of(duel))
    return answer.html, pushes


def test_the_movers_answer_carries_what_their_seats_push_carried(duel: Game) -> None:
    answer, [first, seats] = _answered(duel, Summary(frozenset({0}), 0))
    assert answer is not None
    frame = f"<!--push {duel.version}-->"
    [public] = [m["html"] for g, m in first if g == groups.players_group(duel.pk)]
    [own] = [m["html"] for g, m in seats if g == groups.seat_group(duel.pk, 0)]
    own_regions, own_panel = own.removeprefix(frame).split('<section id="actions"')
    assert answer.startswith(frame + '\n<section id="actions"')
    assert answer.endswith(public.removeprefix(frame) + own_regions.removesuffix("\n"))
    # The panel is the htmx target itself, not out of band; else the same.
    panel = answer.removeprefix(frame).split("</section>")[0] + "</section>"
    oob = '\n  hx-swap-oob="true"'
    assert panel.lstrip() == '<section id="actions"' + own_panel.replace(oob, "\n  ").rstrip()


def test_a_mover_without_a_socket_is_answered_and_their_seat_not_pushed(duel: Game) -> None:
    answer, [_, seats] = _answered(duel, Summary(frozenset(), 2))
    assert seats == []
    assert answer is not None and answer.startswith(f"<!--push {duel.version}-->")
    assert "expected_version" in answer  # their own action panel


def test_another_games_broadcast_leaves_the_answer_alone(duel: Game) -> None:
    with (
        mock.patch("live.presence.listening", return_value=None),
        answering("another", duel.seats.get(number=0).user_id) as answer,
    ):
        list(pushes_of(duel))
    assert answer.html is None


def test_the_players_are_worked_out_once_for_every_audience(duel: Game) -> None:
    from games.web import presenters

    with (
        mock.patch("live.presence.listening", return_value=None),
        mock.patch.object(presenters, "_players", wraps=presenters._players) as worked_out,
    ):
        pushes = list(pushes_of(duel))
    assert [len(batch) for batch in pushes] == [2, 2]  # spectators and both seats
    assert worked_out.call_count == 1


def test_a_push_does_not_group_the_whole_log(duel: Game) -> None:
    from games.web import presenters
    from tests.live.conftest import move

    move(duel)
    with (
        mock.patch("live.presence.listening", return_value=None),
        mock.patch.object(presenters, "log", side_effect=AssertionError("whole log")),
    ):
        pushes = list(pushes_of(Game.objects.get(pk=duel.pk)))
    logs = [m["html"] for batch in pushes for _, m in batch if "log" in m["html"]]
    assert logs and all('data-delta="log"' in html for html in logs)


def _panel_renders(names: list[str]) -> int:
    return sum(name.endswith("#actions") for name in names)


def test_the_movers_panel_is_rendered_once_for_their_socket_and_their_answer(
    duel: Game,
) -> None:
    from django.template import loader

    from games.web.answer import answer_html
    from games.web.snapshot import Snapshot

    rendered: list[str] = []
    original = loader.render_to_string

    def counting(name: str, *args: Any, **kwargs: Any) -> str:
        rendered.append(name)
        return original(name, *args, **kwargs)

    with (
        mock.patch("live.broadcast.render_to_string", side_effect=counting),
        mock.patch("games.web.regions.render_to_string", side_effect=counting),
    ):
        answer, [_, seats] = _answered(duel, Summary(frozenset({0, 1}), 0))
    assert _panel_renders(rendered) == 2  # one per seat: none again for the answer
    assert answer is not None
    snap = Snapshot.of(Game.objects.get(pk=duel.pk))
    # Byte for byte what rendering the answer afresh gives.
    assert answer == answer_html(snap, snap.seats[0])
    [other] = [m["html"] for g, m in seats if g == groups.seat_group(duel.pk, 1)]
    assert 'hx-swap-oob="true"' in other.split('<section id="actions"')[1].split(">")[0]


def test_a_panel_without_its_mark_is_not_taken_for_the_target() -> None:
    from games.web.answer import as_target

    assert as_target('<section id="actions" class="x">') is None
    assert as_target('<p hx-swap-oob="true">') is None
    assert as_target('<section id="actions" hx-swap-oob="true">') == '<section id="actions" >'


def test_a_push_builds_no_standing_orders_form(duel: Game) -> None:
    """Only the full page shows the form; building one is a deep copy of its fields."""
    from games.web.forms import StandingOrdersForm

    with (
        mock.patch("live.presence.listening", return_value=None),
        mock.patch.object(
            StandingOrdersForm, "__init__", side_effect=AssertionError("built for a push")
        ),
    ):
        pushes = list(pushes_of(duel))
    assert [len(batch) for batch in pushes] == [2, 2]


@pytest.mark.django_db(transaction=True)  # the process remembers only committed renders
def test_with_panels_remembered_each_seat_is_pushed_only_its_own(duel: Game) -> None:
    from games.web.regions import NO_CSRF, TEMPLATE, region_context, shared_context
    from games.web.snapshot import Snapshot
    from tests.live.conftest import move

    memo.clear_all()
    try:
        for _ in range(8):
            with mock.patch("live.presence.listening", return_value=Summary(frozenset({0, 1}), 1)):
                [first, seats] = pushes_of(Game.objects.get(pk=duel.pk))
            snap = Snapshot.of(Game.objects.get(pk=duel.pk))
            shared = {**shared_context(snap), **NO_CSRF}
            for seat in snap.seats:
                [html] = [
                    m["html"] for g, m in seats if g == groups.seat_group(duel.pk, seat.number)
                ]
                with mock.patch.object(memo.Memo, "get", return_value=None):
                    own = render_to_string(
                        f"{TEMPLATE}#actions", region_context(snap, seat, shared=shared)
                    )
                assert html.endswith(own)
            for _, message in first:
                assert "expected_version" not in message["html"]
            move(duel)
    finally:
        memo.clear_all()
