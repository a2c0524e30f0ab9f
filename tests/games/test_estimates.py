"""The live win estimates (issue #20, ``games.estimates``): made once per
version off the request path, never from anything hidden, and shown to
spectators only: a full round late while a person is seated, and
``analysis_delay_moves`` moves late."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games import engine, estimates, services
from games.models import Game, PositionEstimate
from live import tasks
from tests.conftest import setup_writes
from tests.games.conftest import played_turns
from tests.live.conftest import move

PLAYOUTS = 40  # enough to give every seat a share; a fraction of a second


@pytest.fixture(autouse=True)
def _few_playouts(settings: Any) -> None:
    settings.ANALYSIS_PLAYOUTS = PLAYOUTS


def stored(game: Game, version: int, probabilities: list[float]) -> PositionEstimate:
    return PositionEstimate.objects.create(
        game=game,
        version=version,
        playouts=100,
        probabilities=probabilities,
        stderr=[0.05] * len(probabilities),
    )


def moved_on(game: Game, moves: int) -> None:
    """The game ``moves`` versions on within its turn (test setup)."""
    with setup_writes("versions to estimate"):
        Game.objects.filter(pk=game.pk).update(version=game.version + moves)
    game.refresh_from_db()


def set_delay(game: Game, moves: int) -> None:
    with setup_writes("the host's win-bar delay"):
        Game.objects.filter(pk=game.pk).update(analysis_delay_moves=moves)
    game.refresh_from_db()


@pytest.mark.django_db
def test_the_task_stores_a_version_once_even_if_it_fires_twice(
    duel: Game, no_bot_tasks: Any
) -> None:
    assert tasks.estimate_position(duel.pk, duel.version) is True
    assert tasks.estimate_position(duel.pk, duel.version) is False
    [row] = PositionEstimate.objects.filter(game=duel)
    assert row.version == duel.version and row.playouts == PLAYOUTS
    assert sum(row.probabilities) == pytest.approx(1)
    assert len(row.stderr) == 2


@pytest.mark.django_db
def test_a_task_for_a_version_the_game_has_moved_past_does_nothing(
    duel: Game, no_bot_tasks: Any
) -> None:
    old = duel.version
    assert tasks.estimate_position(duel.pk, old) is True
    move(duel)  # its estimate was just made: the newer move's task does the newer version
    assert tasks.estimate_position(duel.pk, old) is False
    assert list(PositionEstimate.objects.filter(game=duel).values_list("version", flat=True)) == [
        old
    ]


@pytest.mark.django_db
def test_moves_faster_than_the_debounce_still_get_the_current_position_estimated(
    duel: Game, no_bot_tasks: Any
) -> None:
    """Every task finds the game moved on: without a longest wait no
    estimate would ever be made while the moves keep coming."""
    old = duel.version
    stored(duel, old, [0.5, 0.5])
    PositionEstimate.objects.filter(game=duel).update(
        created_at=timezone.now() - timedelta(seconds=estimates.MAX_WAIT_SECONDS + 1)
    )
    current = move(duel)
    assert tasks.estimate_position(duel.pk, old) is True
    assert PositionEstimate.objects.filter(game=duel, version=current).exists()


@pytest.mark.django_db
def test_no_estimate_is_made_of_a_finished_game_or_with_playouts_off(
    duel: Game, settings: Any, no_bot_tasks: Any
) -> None:
    settings.ANALYSIS_PLAYOUTS = 0
    assert tasks.estimate_position(duel.pk, duel.version) is False
    settings.ANALYSIS_PLAYOUTS = PLAYOUTS
    services.resign(public_id=duel.public_id, user=duel.host, expected_version=duel.version)
    duel.refresh_from_db()
    assert duel.status == Game.Status.FINISHED
    assert tasks.estimate_position(duel.pk, duel.version) is False
    assert not PositionEstimate.objects.filter(game=duel).exists()


@pytest.mark.django_db
def test_the_estimate_is_the_same_whatever_the_secret_and_the_undrawn_order(
    duel: Game, edit_state: Callable[..., engine.State]
) -> None:
    """Two games alike in everything anyone can see, with other secrets,
    seeds, generator states and undrawn card orders, get the same numbers:
    nothing hidden reaches the estimate (its seed is public too)."""
    first = estimates.estimate_game(duel, PLAYOUTS)

    def hide_otherwise(state: engine.State) -> None:
        state.secret = "ab" * 32
        state.seed = 12345
        state.rng = 987654321
        for deck in state.decks:
            deck.reverse()  # nothing was drawn yet: the whole deck is unseen

    edit_state(duel, hide_otherwise)
    duel.refresh_from_db()
    assert estimates.estimate_game(duel, PLAYOUTS) == first
    assert estimates.estimator_seed(duel.public_id, duel.version) != 0
    other_version = estimates.estimator_seed(duel.public_id, duel.version + 1)
    assert other_version != estimates.estimator_seed(duel.public_id, duel.version)


@pytest.mark.django_db
def test_a_bots_only_game_is_shown_its_latest_estimate_the_hosts_delay_old(
    no_bot_tasks: Any,
) -> None:
    # Nobody seated could be helped: such a game may stay current.
    game = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    v = game.version
    with setup_writes("versions to estimate"):
        Game.objects.filter(pk=game.pk).update(version=v + 6)
    game.refresh_from_db()
    for offset in (0, 2, 5, 6):
        stored(game, v + offset, [0.1 * offset, 1 - 0.1 * offset])
    assert estimates.shown(game).version == v + 6  # type: ignore[union-attr]
    set_delay(game, 3)
    assert estimates.shown(game).version == v + 2  # type: ignore[union-attr]
    set_delay(game, 7)
    assert estimates.shown(game) is None
    set_delay(game, 1)
    assert estimates.shown_many([game])[game.pk].version == v + 5  # type: ignore[union-attr]


@pytest.mark.django_db
def test_a_game_with_a_person_seated_is_never_shown_current(duel: Game) -> None:
    """Only a full round late: the position at the start of the turn one
    turn per player still in the game back, or older."""
    start = duel.version  # turn 1 begins
    stored(duel, start, [0.6, 0.4])
    assert estimates.shown(duel) is None  # the current position's
    played_turns(duel, 1)
    middle = duel.version + 1  # within turn 2
    stored(duel, middle, [0.3, 0.7])
    moved_on(duel, 2)
    assert estimates.shown(duel) is None
    assert estimates.shown_many([duel]) == {duel.pk: None}  # estimated, withheld
    played_turns(duel, 1)  # turn 3: turn 1 began a full round back
    assert estimates.shown(duel).version == start  # type: ignore[union-attr]
    played_turns(duel, 1)  # turn 4: turn 2 began a round back, not its middle
    assert estimates.shown(duel).version == start  # type: ignore[union-attr]
    played_turns(duel, 1)
    assert estimates.shown(duel).version == middle  # type: ignore[union-attr]
    assert estimates.shown_many([duel])[duel.pk].version == middle  # type: ignore[union-attr]


@pytest.mark.django_db
def test_the_setting_lengthens_the_delay_to_more_rounds(duel: Game, settings: Any) -> None:
    settings.ANALYSIS_DELAY_ROUNDS = 2
    stored(duel, duel.version, [0.6, 0.4])
    played_turns(duel, 3)
    assert estimates.shown(duel) is None
    played_turns(duel, 1)
    assert estimates.shown(duel) is not None
    settings.ANALYSIS_DELAY_ROUNDS = 0  # never shorter than a round
    assert estimates.delay_rounds() == 1


@pytest.mark.django_db
def test_a_round_counts_only_the_players_still_in(duel: Game, edit_state: Any) -> None:
    stored(duel, duel.version, [0.6, 0.4])
    played_turns(duel, 1)
    assert estimates.shown(duel) is None

    def bob_out(s: engine.State) -> None:
        s.alive[1] = False

    edit_state(duel, bob_out)
    assert estimates.shown(duel) is not None


@pytest.mark.django_db
def test_a_finished_game_shows_everyone_its_winner_at_one(duel: Game, bob: User) -> None:
    services.resign(public_id=duel.public_id, user=bob, expected_version=duel.version)
    duel.refresh_from_db()
    final = estimates.shown(duel)
    assert final is not None and final.final
    assert final.probabilities == (1.0, 0.0)
    assert not estimates.withheld_from(duel, bob)


@pytest.mark.django_db
def test_seat_holders_are_refused_while_the_game_runs(
    duel: Game, alice: User, charlie: User
) -> None:
    assert estimates.withheld_from(duel, alice)
    assert not estimates.withheld_from(duel, charlie)
    from django.contrib.auth.models import AnonymousUser

    assert not estimates.withheld_from(duel, AnonymousUser())
