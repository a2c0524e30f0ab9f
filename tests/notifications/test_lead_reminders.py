"""Reminders a player asks for before each deadline (8 h, 1 h, ...), beside
the 80% alarm."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games import engine
from games.models import Game
from games.services import submit_action
from notifications import decisions, services
from notifications.models import LeadReminder, Notification

pytestmark = pytest.mark.django_db


def mover(game: Game) -> Any:
    return game.seats.get(number=engine.from_dict(game.state).turn).user


def test_settings_save_the_chosen_lead_times(client: Client, alice: Any) -> None:
    client.force_login(alice)
    response = client.post(
        "/settings/", {"time_zone": "", "reminder_leads": ["60", "480"], "notify_reminders": "on"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.reminder_leads == "480,60"
    page = client.get("/settings/").content.decode()
    checked = set(re.findall(r'name="reminder_leads" value="(\d+)"[^>]*checked', page))
    assert checked == {"480", "60"}


def test_a_reminder_goes_at_each_chosen_lead_time_once(duel: Game, no_bot_tasks: Any) -> None:
    user = mover(duel)
    user.reminder_leads = "480,60"
    user.save()
    deadline = duel.deadlines.get()
    assert deadline.due_at - deadline.started_at > timedelta(hours=8)  # a day's turn
    decisions.your_turn(duel.pk)
    planned = {r.lead_minutes: r for r in LeadReminder.objects.filter(deadline_id=deadline.pk)}
    assert set(planned) == {480, 60}
    hour_before = deadline.due_at - timedelta(hours=1)
    assert planned[60].remind_at == hour_before
    with time_machine.travel(hour_before, tick=False):
        assert services.lead_reminders_due() == sorted(
            [planned[480].pk, planned[60].pk], key=lambda pk: pk != planned[480].pk
        )
        assert decisions.lead_reminder(planned[60].pk)
        assert not decisions.lead_reminder(planned[60].pk)  # once
    (note,) = Notification.objects.filter(kind="reminder")
    assert "1h 00m left" in note.text and note.user == user
    assert mail.outbox and "Reminder" in mail.outbox[-1].subject


def test_no_reminder_once_the_decision_is_made(duel: Game, no_bot_tasks: Any) -> None:
    user = mover(duel)
    user.reminder_leads = "60"
    user.save()
    decisions.your_turn(duel.pk)
    (reminder,) = LeadReminder.objects.all()
    submit_action(
        public_id=duel.public_id, user=user, action={"kind": "roll"}, expected_version=duel.version
    )
    with time_machine.travel(reminder.remind_at, tick=False):
        assert not decisions.lead_reminder(reminder.pk)
    assert not Notification.objects.filter(kind="reminder").exists()
