"""The region registry (``games.web.regions``) is the one declaration the page,
the htmx answer and the push read."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from games.models import Game
from games.web import regions
from games.web.snapshot import Snapshot
from live import broadcast


@pytest.mark.django_db
def test_every_region_renders_its_element_with_its_id_and_version(duel: Game) -> None:
    snap = Snapshot.of(duel)
    seat = snap.seats[0]
    context = regions.region_context(snap, seat)
    for region in regions.REGIONS:
        html = render_to_string(region.partial, context)
        assert re.search(rf'<section id="{region.name}"[^>]* data-version="{duel.version}"', html)


def test_the_audiences_split_the_regions() -> None:
    assert set(regions.PUBLIC_REGIONS) | set(regions.SEAT_REGIONS) == {
        r.name for r in regions.REGIONS
    }
    assert not set(regions.PUBLIC_REGIONS) & set(regions.SEAT_REGIONS)
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
