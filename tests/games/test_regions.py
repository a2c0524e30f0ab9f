"""The region registry (``games.web.regions``) is the one declaration the page,
the htmx answer and the push read."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from games.models import Game, PositionEstimate
from games.web import regions
from games.web.snapshot import Snapshot
from live import broadcast
from tests.games.conftest import played_turns


@pytest.mark.django_db
def test_every_region_renders_its_element_with_its_id_and_version(duel: Game) -> None:
    snap = Snapshot.of(duel)
    seat = snap.seats[0]
    context = regions.region_context(snap, seat)
    for region in regions.REGIONS:
        if region.audience == regions.SPECTATOR:
            continue
        html = render_to_string(region.partial, context)
        assert re.search(rf'<section id="{region.name}"[^>]* data-version="{duel.version}"', html)


@pytest.mark.django_db
def test_a_spectator_region_carries_the_version_its_content_is_for(duel: Game) -> None:
    """The win bar trails the game (its estimate comes later, or the host
    delays it): its version is the estimate's, and ``data-trails`` keeps it
    out of the version the page's heartbeat asks about."""
    snap = Snapshot.of(duel)
    context = {**regions.region_context(snap, None), **regions.spectator_context(snap)}
    for region in regions.REGIONS:
        if region.audience != regions.SPECTATOR:
            continue
        html = render_to_string(region.partial, context)
        assert re.search(rf'<section id="{region.name}"[^>]* data-version="-1" data-trails', html)
    estimated = duel.version
    PositionEstimate.objects.create(
        game=duel, version=estimated, playouts=9, probabilities=[1, 0], stderr=[0, 0]
    )
    played_turns(duel, 2)  # shown a full round late
    context.update(regions.spectator_context(Snapshot.of(duel)))
    html = render_to_string(f"{regions.TEMPLATE}#win-bar", context)
    assert f'data-version="{estimated}" data-trails' in html


def test_the_audiences_split_the_regions() -> None:
    assert set(regions.PUBLIC_REGIONS) | set(regions.SEAT_REGIONS) | set(
        regions.SPECTATOR_REGIONS
    ) == {r.name for r in regions.REGIONS}
    assert not set(regions.PUBLIC_REGIONS) & set(regions.SEAT_REGIONS)
    # A seat's holder never gets a SPECTATOR region, not even out of band.
    assert not set(regions.SPECTATOR_REGIONS) & set(regions.SEAT_REGIONS)
    assert not set(regions.SPECTATOR_REGIONS) & set(regions.OUT_OF_BAND)
    assert not set(regions.SPECTATOR_REGIONS) & set(regions.PUBLIC_REGIONS)
    assert set(regions.AUDIENCE_REGIONS) < set(regions.SEAT_REGIONS)
    assert "actions" not in regions.OUT_OF_BAND  # the htmx target itself


@pytest.mark.django_db
def test_the_full_page_carries_every_region(client: object, duel: Game) -> None:
    from django.test import Client

    assert isinstance(client, Client)
    html = client.get(duel.get_absolute_url()).content.decode()
    for region in regions.REGIONS:
        assert f'id="{region.name}"' in html


@pytest.mark.django_db
def test_a_snapshot_carries_the_regions_of_its_audience(duel: Game) -> None:
    seat = duel.seats.get(number=0)
    _, spectator = broadcast.snapshot(duel.pk, None, None)
    _, player = broadcast.snapshot(duel.pk, seat.number, seat.user)
    for name in regions.PUBLIC_REGIONS + regions.AUDIENCE_REGIONS:
        assert f'id="{name}"' in spectator and f'id="{name}"' in player
    assert 'id="actions"' in player and 'id="actions"' not in spectator
    _, watching = broadcast.snapshot(duel.pk, None, None, win_bar=True)
    _, seated = broadcast.snapshot(duel.pk, seat.number, seat.user, win_bar=True)
    for name in regions.SPECTATOR_REGIONS:
        assert f'id="{name}"' in watching
        assert name not in spectator and name not in player and name not in seated
