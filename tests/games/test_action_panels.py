"""The action panel a push renders, and each of its forms, are remembered by
what they show (``games.web.regions.render_actions``, ``include_versioned``):
byte for byte the panel rendered afresh, each seat only ever its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.template.loader import render_to_string

from common import memo
from games.models import Game
from games.web import regions
from games.web.regions import NO_CSRF, TEMPLATE, region_context, render_actions
from games.web.snapshot import Snapshot
from tests.live.conftest import move


@pytest.fixture
def cold() -> Iterator[None]:
    memo.clear_all()
    yield
    memo.clear_all()


def _contexts(game: Game) -> list[dict[str, Any]]:
    """Each seat's and a spectator's push context at the game's version."""
    snap = Snapshot.of(Game.objects.get(pk=game.pk))
    shared = {**regions.shared_context(snap), **NO_CSRF}
    return [region_context(snap, seat, shared=shared) for seat in [*snap.seats, None]]


def _afresh(context: dict[str, Any]) -> str:
    """Rendered with nothing remembered read."""
    with mock.patch.object(memo.Memo, "get", return_value=None):
        return render_to_string(f"{TEMPLATE}#actions", context)


@pytest.mark.django_db(transaction=True)  # the process remembers only committed renders
def test_a_remembered_panel_is_the_panel_rendered_afresh(duel: Game, cold: None) -> None:
    hits = 0
    for _ in range(12):
        for context in _contexts(duel):
            for variant in ({}, {"oob": False}, {"error": "No.", "focus": True}):
                known = len(regions.ACTION_PANELS._entries)
                html = render_actions({**context, **variant})
                hits += len(regions.ACTION_PANELS._entries) == known
                assert html == _afresh({**context, **variant})
        move(duel)
    assert hits  # some were remembered, and those came out right too


@pytest.mark.django_db(transaction=True)
def test_a_seat_is_never_given_another_seats_remembered_panel(duel: Game, cold: None) -> None:
    for _ in range(6):
        contexts = _contexts(duel)
        # Every audience's panel remembered first, then each read back.
        for context in contexts:
            render_actions(context)
        panels = [render_actions(context) for context in contexts]
        assert panels == [_afresh(context) for context in contexts]
        assert len(set(panels)) == len(panels)
        move(duel)


@pytest.mark.django_db(transaction=True)
def test_a_panel_with_a_persons_csrf_token_is_not_remembered(duel: Game, cold: None) -> None:
    [context, *_] = _contexts(duel)
    with_token = {**context, "csrf_token": "a-token-of-this-request"}
    html = render_actions(with_token)
    assert "a-token-of-this-request" in html
    assert not regions.ACTION_PANELS._entries
    render_actions(context)
    assert all(b"a-token" not in key[1] for key in regions.ACTION_PANELS._entries)


@pytest.mark.django_db(transaction=True)
def test_an_unchanged_panel_is_not_rendered_again_at_the_next_version(
    duel: Game, cold: None
) -> None:
    contexts = _contexts(duel)
    render_actions(contexts[1])
    # The same panel a version later: only the version it carries differs.
    later = {
        **contexts[1],
        "game": Game(pk=duel.pk, public_id=duel.public_id, version=duel.version + 1),
    }
    with mock.patch("games.web.regions.render_to_string", side_effect=AssertionError("again")):
        html = render_actions(later)
    assert html == _afresh(later)
    assert f'value="{duel.version + 1}"' in html and f'value="{duel.version}"' not in html


@pytest.mark.django_db(transaction=True)
def test_a_panel_rendered_anew_takes_its_unchanged_forms_as_remembered(
    duel: Game, cold: None
) -> None:
    from games.templatetags import memo as memo_tags

    for _ in range(8):
        for context in _contexts(duel):
            render_actions(context)
        move(duel)
    known = len(memo_tags.VERSIONED_PARTS._entries)
    assert known
    # A panel of the next version read from them: each form carries it.
    for context in _contexts(duel):
        regions.ACTION_PANELS.clear()
        assert render_actions(context) == _afresh(context)
        html = render_actions(context)
        shown = re.findall(r'name="expected_version" value="([^"]*)"', html)
        assert set(shown) <= {str(context["game"].version)}
        assert "\x00" not in html


@pytest.mark.django_db
def test_a_panel_rendered_for_a_request_carries_its_token_and_is_not_remembered(
    duel: Game, cold: None
) -> None:
    from games.templatetags import memo as memo_tags

    [context, *_] = _contexts(duel)
    html = render_to_string(f"{TEMPLATE}#actions", {**context, "csrf_token": "tok-of-alice"})
    assert html.count("tok-of-alice") == html.count("<form")
    assert not memo_tags.VERSIONED_PARTS._entries
    assert f'name="expected_version" value="{duel.version}"' in html
