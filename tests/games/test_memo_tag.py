"""``{% include_memo %}`` renders an include once per distinct set of values
and gives the same output as rendering it again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.template import Context, Template
from django.utils.safestring import mark_safe

from common import memo
from games.models import Game
from games.web import presenters
from games.web.snapshot import Snapshot

PLAYER = "games/play/player.html"

# Renders are kept only outside a transaction (common/memo.py's rule).
pytestmark = pytest.mark.django_db(transaction=True)


def render(source: str, **context: Any) -> str:
    return Template("{% load memo l10n %}" + source).render(Context(context))


def entry(p: dict[str, Any], **flags: str) -> str:
    wrapped = "{% include_memo '" + PLAYER + "' p=p %}"
    if flags.get("autoescape") == "off":
        wrapped = "{% autoescape off %}" + wrapped + "{% endautoescape %}"
    return render(wrapped, p=p)


@pytest.fixture(autouse=True)
def cold_process() -> None:
    memo.clear_all()


@pytest.fixture
def players(duel: Game) -> list[dict[str, Any]]:
    return presenters.players(Snapshot.of(duel, state=presenters.load_state(duel)), None)


@contextmanager
def renders() -> Iterator[list[str]]:
    """The names of the templates Django renders inside."""
    rendered: list[str] = []
    real = Template.render

    def counting(self: Template, context: Context) -> Any:
        rendered.append(self.origin.template_name)
        return real(self, context)

    with mock.patch.object(Template, "render", counting):
        yield rendered


def test_an_entry_is_rendered_once_for_the_same_values(players: list[dict[str, Any]]) -> None:
    with renders() as rendered:
        first = entry(players[0])
        again = entry({**players[0]})  # equal values, another dict
    assert again == first
    assert rendered.count(PLAYER) == 1


def test_the_remembered_entry_is_what_a_plain_include_renders(
    players: list[dict[str, Any]],
) -> None:
    plain = render("{% include '" + PLAYER + "' with p=p only %}", p=players[1])
    entry(players[1])
    assert entry(players[1]) == plain


def test_different_values_are_rendered_afresh(players: list[dict[str, Any]]) -> None:
    richer = {**players[0], "cash": "$9,999"}
    assert "$9,999" not in entry(players[0])
    assert "$9,999" in entry(richer)


def test_a_safe_string_and_a_plain_one_are_told_apart(players: list[dict[str, Any]]) -> None:
    plain = entry({**players[0], "cash": "<b>1</b>"})
    safe = entry({**players[0], "cash": mark_safe("<b>1</b>")})
    assert "&lt;b&gt;1&lt;/b&gt;" in plain and "<b>1</b>" in safe


def test_autoescaping_is_part_of_what_is_remembered(players: list[dict[str, Any]]) -> None:
    p = {**players[0], "cash": "<i>1</i>"}
    assert "&lt;i&gt;" in entry(p)
    assert "<i>1</i>" in entry(p, autoescape="off")


def test_values_that_cannot_be_pickled_are_rendered_every_time(
    players: list[dict[str, Any]],
) -> None:
    p = {**players[0], "unpicklable": lambda: None}
    with renders() as rendered:
        assert entry(p) == entry(p)
    assert rendered.count(PLAYER) == 2
