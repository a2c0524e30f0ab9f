"""The services on the real pairing and standings, and the engine's cap."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Game
from tests.tournaments.services_support import entered, event, play_round, players, staff  # noqa: F401
from tournaments import services
from tournaments.models import Entry, Result, Tournament

pytestmark = pytest.mark.django_db


def test_a_swiss_runs_to_its_end_on_the_real_pairing_with_capped_games(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=2, table_size=3, table_min=3, table_max=3, cap_days=2, cap_turns=40)
    entered(t, players(7))
    first = services.start_round(tournament_id=t.pk, number=1)
    assert first is not None
    assert first.tables.count() == 2
    assert Result.objects.filter(round=first, kind=Result.Kind.BYE).count() == 1
    game = Game.objects.get(tournament_table__round=first, tournament_table__number=1)
    assert game.switches["cap_days"] == 2 and game.switches["cap_turns"] == 40
    play_round(t, 1)
    second = services.start_round(tournament_id=t.pk, number=2)
    assert second is not None
    # Nobody gets a second bye while others have none.
    assert Entry.objects.filter(tournament=t, byes__gt=1).count() == 0
    play_round(t, 2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Entry.objects.get(tournament=t, final_rank=1).user == t.winner
